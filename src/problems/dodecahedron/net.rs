//! The standard net of the dodecahedron: two flowers of six pentagons (face 1 with faces 2-6
//! around it, face 12 with faces 7-11), joined along the edge of faces 2 and 7, unfolded from
//! the adjacency table in [`super::geometry`] so the drawing and the solid cannot disagree.
//!
//! Coordinates: unit circumradius, y pointing down, angles in radians growing clockwise on
//! screen, which is "clockwise seen from outside" when the net is seen from outside the solid.

use std::f64::consts::PI;

use super::geometry::{side_towards, BACK, FACES, SIDES};

/// The angle between the directions of two consecutive sides.
pub const STEP: f64 = 2.0 * PI / SIDES as f64;

/// Distance from a face's centre to the midpoint of a side (circumradius 1).
pub fn apothem() -> f64 {
    (PI / SIDES as f64).cos()
}

/// Where a face lies in the net.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub centre: (f64, f64),
    /// Direction from the centre to the midpoint of the face's side 0.
    pub angle: f64,
}

impl Slot {
    /// The direction from the centre to the midpoint of side `k`.
    pub fn side_angle(&self, k: usize) -> f64 {
        self.angle + STEP * k as f64
    }

    /// The point at `distance` from the centre towards the midpoint of side `k`.
    pub fn towards(&self, k: usize, distance: f64) -> (f64, f64) {
        let a = self.side_angle(k);
        (
            self.centre.0 + distance * a.cos(),
            self.centre.1 + distance * a.sin(),
        )
    }

    /// The two ends of side `k`, in clockwise order.
    pub fn side_ends(&self, k: usize) -> ((f64, f64), (f64, f64)) {
        let a = self.side_angle(k);
        let at = |t: f64| (self.centre.0 + t.cos(), self.centre.1 + t.sin());
        (at(a - STEP / 2.0), at(a + STEP / 2.0))
    }

    /// The five corners, clockwise, starting with the first end of side 0.
    pub fn corners(&self) -> [(f64, f64); SIDES] {
        std::array::from_fn(|k| self.side_ends(k).0)
    }
}

/// The face each face is unfolded from (0-based; face 1 is the root).
const PARENT: [usize; FACES] = [usize::MAX, 0, 0, 0, 0, 0, 1, 11, 11, 11, 11, 6];
/// Faces in an order where every parent comes before its children.
const ORDER: [usize; FACES] = [0, 1, 2, 3, 4, 5, 6, 11, 7, 8, 9, 10];

/// Whether side `k` of face `f` is a fold of the net (its neighbour is drawn across it).
pub fn is_fold(f: usize, k: usize) -> bool {
    let g = super::geometry::NEIGHBOURS[f][k];
    PARENT[f] == g || PARENT[g] == f
}

/// The net with face 1's side 0 pointing in direction `root_angle`.
fn unfold(root_angle: f64) -> [Slot; FACES] {
    let mut slots = [Slot {
        centre: (0.0, 0.0),
        angle: root_angle,
    }; FACES];
    for &g in &ORDER[1..] {
        let f = PARENT[g];
        let k = side_towards(f, g).unwrap_or(0);
        let a = slots[f].side_angle(k);
        let (cx, cy) = slots[f].centre;
        let d = 2.0 * apothem();
        // Side BACK[f][k] of g faces back towards f.
        slots[g] = Slot {
            centre: (cx + d * a.cos(), cy + d * a.sin()),
            angle: a + PI - STEP * BACK[f][k] as f64,
        };
    }
    slots
}

/// Bounding box `(min_x, min_y, max_x, max_y)` of the corners of `slots`.
pub fn bounds(slots: &[Slot]) -> (f64, f64, f64, f64) {
    let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for s in slots {
        for (x, y) in s.corners() {
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
    }
    b
}

/// The net turned so it is as flat as possible (landscape), moved so its bounding box starts
/// at the origin.
pub fn layout() -> [Slot; FACES] {
    let height = |s: &[Slot]| {
        let b = bounds(s);
        b.3 - b.1
    };
    let best = (0..360)
        .map(|deg| f64::from(deg) * PI / 180.0)
        .min_by(|&a, &b| height(&unfold(a)).total_cmp(&height(&unfold(b))))
        .unwrap_or(0.0);
    let mut slots = unfold(best);
    let (x0, y0, _, _) = bounds(&slots);
    for s in &mut slots {
        s.centre = (s.centre.0 - x0, s.centre.1 - y0);
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::super::geometry::NEIGHBOURS;
    use super::*;

    /// Separating-axis test: do two convex polygons overlap by more than `eps`?
    fn overlap(a: &[(f64, f64)], b: &[(f64, f64)], eps: f64) -> bool {
        for poly in [a, b] {
            for i in 0..poly.len() {
                let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
                let axis = (q.1 - p.1, p.0 - q.0);
                let project = |pts: &[(f64, f64)]| {
                    let v: Vec<f64> = pts.iter().map(|&(x, y)| x * axis.0 + y * axis.1).collect();
                    (
                        v.iter().copied().fold(f64::MAX, f64::min),
                        v.iter().copied().fold(f64::MIN, f64::max),
                    )
                };
                let (a0, a1) = project(a);
                let (b0, b1) = project(b);
                if a1 <= b0 + eps || b1 <= a0 + eps {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn the_net_is_a_tree_of_eleven_folds_without_overlaps() {
        let slots = layout();
        let folds: usize = (0..FACES)
            .map(|f| (0..SIDES).filter(|&k| is_fold(f, k)).count())
            .sum();
        assert_eq!(folds, 2 * (FACES - 1));
        for f in 0..FACES {
            for g in f + 1..FACES {
                assert!(
                    !overlap(&slots[f].corners(), &slots[g].corners(), 1e-6),
                    "faces {} and {} overlap",
                    f + 1,
                    g + 1
                );
            }
        }
        let (x0, y0, x1, y1) = bounds(&slots);
        assert!(x0.abs() < 1e-9 && y0.abs() < 1e-9);
        assert!(x1 > y1, "landscape: {x1} x {y1}");
    }

    #[test]
    fn folded_faces_share_their_edge_in_the_drawing() {
        let slots = layout();
        for f in 0..FACES {
            for k in 0..SIDES {
                if !is_fold(f, k) {
                    continue;
                }
                let g = NEIGHBOURS[f][k];
                let (a, b) = slots[f].side_ends(k);
                let (c, d) = slots[g].side_ends(BACK[f][k]);
                // The same segment, traversed the other way round.
                let close = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).hypot(p.1 - q.1) < 1e-9;
                assert!(close(a, d) && close(b, c), "faces {} and {}", f + 1, g + 1);
            }
        }
    }
}
