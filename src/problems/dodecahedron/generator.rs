//! Test generators. Every family is a deterministic function of (params, seed) through
//! `ChaCha8Rng::seed_from_u64(seed)`; every output passes the validator. Families that must
//! be (un)solvable are built by rejection against the reference solver, with a fixed
//! fallback input so a generator can never loop forever.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::flawed::weak_memo_finds_tiling;
use super::geometry::{edges, rotations, FACES, NEIGHBOURS, SIDES};
use super::solver::{canonical, count_tilings, parity_ok, solve_tiles, solve_tiles_with, Mode};
use super::{format_tiles, Tiles};
use crate::problems::{GenError, GenParams, GeneratorSpec};

/// The generator families, in a stable order.
pub const SPECS: &[GeneratorSpec] = &[
    GeneratorSpec {
        name: "random-solvable",
        description: "random marking of the 30 edges cut into tiles, rotated and shuffled (solvable); marks = 2|3",
        params: &["marks"],
    },
    GeneratorSpec {
        name: "random-tiles",
        description: "60 uniformly random marks (mostly unsolvable, often by parity); marks = 2|3",
        params: &["marks"],
    },
    GeneratorSpec {
        name: "odd-parity",
        description: "a solvable input with one tile edge changed, so some mark occurs an odd number of times; marks = 2|3",
        params: &["marks"],
    },
    GeneratorSpec {
        name: "even-unsolvable",
        description: "random tiles with every mark count even that the solver proves unsolvable (defeats parity-only shortcuts); marks = 2|3",
        params: &["marks"],
    },
    GeneratorSpec {
        name: "near-miss",
        description: "a solvable input with two marks swapped between tiles (same mark counts) that became unsolvable: deep failing search; marks = 2|3",
        params: &["marks"],
    },
    GeneratorSpec {
        name: "identical-tiles",
        description: "only `distinct` tile kinds up to rotation, solvable (symmetric markings, distinct 1..6) or not (distinct 1..12): huge trees for naive search",
        params: &["distinct", "solvable"],
    },
    GeneratorSpec {
        name: "one-odd-tile",
        description: "eleven copies of a base tile (all zeros unless base = 1) plus one copy with `changes` edges altered",
        params: &["changes", "base"],
    },
    GeneratorSpec {
        name: "rotations-needed",
        description: "solvable, no tile rotationally symmetric, and no arrangement keeps every reference edge towards the first listed neighbour; marks = 2|3",
        params: &["marks"],
    },
    GeneratorSpec {
        name: "two-marks",
        description: "only marks 0 and 1: solvable = 1 cuts a random 0/1 edge marking, solvable = 0 is even-parity unsolvable",
        params: &["solvable"],
    },
    GeneratorSpec {
        name: "unique-tiling",
        description: "exactly one tiling up to rotations, and the input differs from its mirror image (tiles read backwards): rejects searches that break symmetry as if tiles could be flipped; mirror = 1 prints the mirror image",
        params: &["mirror"],
    },
    GeneratorSpec {
        name: "memo-collision",
        description: "exactly one tiling, which a search memoising failures by (face, boundary marks, marks left on the remaining tiles) prunes: rejects weak memo keys",
        params: &[],
    },
];

/// Rejection loops give up after this many candidates and use a fixed fallback.
const ATTEMPTS: usize = 20_000;

fn param(
    generator: &str,
    params: &GenParams,
    key: &str,
    default: i64,
    allowed: std::ops::RangeInclusive<i64>,
) -> Result<i64, GenError> {
    let v = params.get(key, default);
    if allowed.contains(&v) {
        Ok(v)
    } else {
        Err(GenError::BadParams {
            generator: generator.into(),
            message: format!(
                "`{key}` must be in {}..={}, got {v}",
                allowed.start(),
                allowed.end()
            ),
        })
    }
}

/// Marks of every face side for a random marking of the 30 edges with marks `0..marks`.
fn random_side_marks(rng: &mut ChaCha8Rng, marks: u8) -> Tiles {
    let mut side = [[0u8; SIDES]; FACES];
    for (f, k, g, j) in edges() {
        let m = rng.random_range(0..marks);
        side[f][k] = m;
        side[g][j] = m;
    }
    side
}

/// Cuts a face marking into tiles: each tile read from a random reference side, then the
/// tiles shuffled.
fn scramble(side: &Tiles, rng: &mut ChaCha8Rng) -> Tiles {
    let mut tiles: Vec<[u8; SIDES]> = side
        .iter()
        .map(|s| {
            let r = rng.random_range(0..SIDES);
            std::array::from_fn(|m| s[(r + m) % SIDES])
        })
        .collect();
    tiles.shuffle(rng);
    std::array::from_fn(|i| tiles[i])
}

fn random_tile(rng: &mut ChaCha8Rng, marks: u8) -> [u8; SIDES] {
    std::array::from_fn(|_| rng.random_range(0..marks))
}

fn rotate(tile: &[u8; SIDES], r: usize) -> [u8; SIDES] {
    std::array::from_fn(|m| tile[(m + r) % SIDES])
}

fn classes(tiles: &Tiles) -> usize {
    let mut c: Vec<[u8; SIDES]> = tiles.iter().map(canonical).collect();
    c.sort();
    c.dedup();
    c.len()
}

/// Eleven `0 0 0 0 0` and one `0 0 0 1 1`: even mark counts, unsolvable.
fn fallback_unsolvable() -> Tiles {
    let mut t = [[0; SIDES]; FACES];
    t[FACES - 1] = [0, 0, 0, 1, 1];
    t
}

fn random_solvable(rng: &mut ChaCha8Rng, marks: u8) -> Tiles {
    let side = random_side_marks(rng, marks);
    scramble(&side, rng)
}

fn even_unsolvable(rng: &mut ChaCha8Rng, marks: u8) -> Tiles {
    for _ in 0..ATTEMPTS {
        let tiles: Tiles = std::array::from_fn(|_| random_tile(rng, marks));
        if parity_ok(&tiles) && solve_tiles(&tiles).is_none() {
            return tiles;
        }
    }
    fallback_unsolvable()
}

fn near_miss(rng: &mut ChaCha8Rng, marks: u8) -> Tiles {
    for _ in 0..ATTEMPTS {
        let mut tiles = random_solvable(rng, marks);
        let (a, b) = (rng.random_range(0..FACES), rng.random_range(0..FACES));
        let (ma, mb) = (rng.random_range(0..SIDES), rng.random_range(0..SIDES));
        if a == b || tiles[a][ma] == tiles[b][mb] {
            continue;
        }
        let x = tiles[a][ma];
        tiles[a][ma] = tiles[b][mb];
        tiles[b][mb] = x;
        if solve_tiles(&tiles).is_none() {
            return tiles;
        }
    }
    fallback_unsolvable()
}

/// Rotations of the solid as permutations of the 60 (face, side) darts `f * 5 + k`.
fn rotation_darts() -> Vec<[usize; FACES * SIDES]> {
    rotations()
        .iter()
        .map(|s| std::array::from_fn(|d| s.face[d / SIDES] * SIDES + s.side(d / SIDES, d % SIDES)))
        .collect()
}

/// The subgroup generated by `gens` (as dart permutations).
fn closure(gens: &[[usize; FACES * SIDES]]) -> Vec<[usize; FACES * SIDES]> {
    let mut group = vec![std::array::from_fn(|d| d)];
    let mut i = 0;
    while i < group.len() {
        for g in gens {
            let h: [usize; FACES * SIDES] = std::array::from_fn(|d| g[group[i][d]]);
            if !group.contains(&h) {
                group.push(h);
            }
        }
        i += 1;
    }
    group
}

/// A solvable input whose face marking is invariant under a random subgroup of rotations,
/// so faces in one orbit carry equal tiles; kept when it has exactly `distinct` kinds.
fn symmetric_solvable(rng: &mut ChaCha8Rng, distinct: usize) -> Tiles {
    let darts = rotation_darts();
    let edge_list = edges();
    let mut edge_of = [0usize; FACES * SIDES];
    for (e, &(f, k, g, j)) in edge_list.iter().enumerate() {
        edge_of[f * SIDES + k] = e;
        edge_of[g * SIDES + j] = e;
    }
    let mut fallback = [[0; SIDES]; FACES];
    for attempt in 0..ATTEMPTS {
        let ngen = rng.random_range(1..=2);
        let gens: Vec<_> = (0..ngen)
            .map(|_| darts[rng.random_range(1..darts.len())])
            .collect();
        let group = closure(&gens);
        // Orbit representative of every edge: the smallest edge id it can be moved to.
        let mut orbit = [usize::MAX; 30];
        for (f, k, _, _) in &edge_list {
            let d = f * SIDES + k;
            let rep = group.iter().map(|h| edge_of[h[d]]).min().unwrap_or(0);
            orbit[edge_of[d]] = rep;
        }
        let orbit_marks: Vec<u8> = (0..30).map(|_| rng.random_range(0..3)).collect();
        let mut side = [[0u8; SIDES]; FACES];
        for (e, &(f, k, g, j)) in edge_list.iter().enumerate() {
            side[f][k] = orbit_marks[orbit[e]];
            side[g][j] = orbit_marks[orbit[e]];
        }
        let constant = side.iter().flatten().all(|&m| m == side[0][0]);
        if classes(&side) == distinct {
            if distinct > 1 || !constant || attempt >= 500 {
                return scramble(&side, rng);
            }
            fallback = side;
        }
    }
    scramble(&fallback, rng)
}

/// `distinct` random tile kinds with random multiplicities, even mark counts, unsolvable.
fn identical_unsolvable(rng: &mut ChaCha8Rng, distinct: usize) -> Tiles {
    'attempt: for _ in 0..ATTEMPTS {
        let mut kinds: Vec<[u8; SIDES]> = Vec::new();
        while kinds.len() < distinct {
            let k = canonical(&random_tile(rng, 3));
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        let mut counts = vec![1usize; distinct];
        for _ in distinct..FACES {
            // Favour the first kind so most tiles are alike.
            let i = if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(0..distinct)
            };
            counts[i] += 1;
        }
        let mut tiles = Vec::with_capacity(FACES);
        for (kind, &n) in kinds.iter().zip(&counts) {
            for _ in 0..n {
                tiles.push(rotate(kind, rng.random_range(0..SIDES)));
            }
        }
        tiles.shuffle(rng);
        let tiles: Tiles = std::array::from_fn(|i| tiles[i]);
        if !parity_ok(&tiles) || solve_tiles(&tiles).is_some() {
            continue 'attempt;
        }
        return tiles;
    }
    fallback_unsolvable()
}

fn one_odd_tile(rng: &mut ChaCha8Rng, changes: usize, random_base: bool) -> Tiles {
    let base = if random_base {
        random_tile(rng, 3)
    } else {
        [0; SIDES]
    };
    let mut positions: Vec<usize> = (0..SIDES).collect();
    positions.shuffle(rng);
    let mut odd = base;
    for &p in &positions[..changes] {
        odd[p] = (base[p] + rng.random_range(1..3)) % 3;
    }
    let mut tiles: Tiles = std::array::from_fn(|_| rotate(&base, rng.random_range(0..SIDES)));
    tiles[rng.random_range(0..FACES)] = rotate(&odd, rng.random_range(0..SIDES));
    tiles
}

fn rotations_needed(rng: &mut ChaCha8Rng, marks: u8) -> Tiles {
    let mut fallback = None;
    for _ in 0..ATTEMPTS {
        let tiles = random_solvable(rng, marks);
        if tiles.iter().any(|t| t.iter().all(|&m| m == t[0])) {
            continue;
        }
        fallback.get_or_insert(tiles);
        if solve_tiles_with(&tiles, Mode::IdentityRotation).0.is_none() {
            return tiles;
        }
    }
    fallback.unwrap_or_else(|| random_solvable(rng, marks))
}

fn two_marks(rng: &mut ChaCha8Rng, solvable: bool) -> Tiles {
    if solvable {
        loop_until(rng, |rng| {
            let t = random_solvable(rng, 2);
            let ones = t.iter().flatten().filter(|&&m| m == 1).count();
            (ones > 0 && ones < FACES * SIDES).then_some(t)
        })
        .unwrap_or_else(|| {
            let mut side = [[0; SIDES]; FACES];
            side[0][0] = 1;
            side[NEIGHBOURS[0][0]][super::geometry::BACK[0][0]] = 1;
            side
        })
    } else {
        even_unsolvable(rng, 2)
    }
}

/// Each tile read backwards from its reference edge: the tiles of the mirror-image solid.
fn mirror(tiles: &Tiles) -> Tiles {
    tiles.map(|t| std::array::from_fn(|m| t[(SIDES - m) % SIDES]))
}

/// The tile kinds (canonical rotations), sorted: equal for inputs that differ only by tile
/// order and rotations.
fn kinds(tiles: &Tiles) -> Vec<[u8; SIDES]> {
    let mut k: Vec<[u8; SIDES]> = tiles.iter().map(canonical).collect();
    k.sort();
    k
}

/// A random solvable input (3 marks) with exactly one tiling up to rotations whose mirror
/// image is a different input; the input with the fewest tilings seen if none turns up.
fn unique_tiling(rng: &mut ChaCha8Rng) -> Tiles {
    let mut best: Option<(usize, Tiles)> = None;
    for _ in 0..ATTEMPTS {
        let tiles = random_solvable(rng, 3);
        let count = count_tilings(&tiles, 1);
        if count == 1 && kinds(&tiles) != kinds(&mirror(&tiles)) {
            return tiles;
        }
        if best.as_ref().is_none_or(|(c, _)| count < *c) {
            best = Some((count, tiles));
        }
    }
    best.map(|(_, t)| t)
        .unwrap_or_else(|| random_solvable(rng, 3))
}

/// A random solvable input with exactly one tiling that [`weak_memo_finds_tiling`] misses;
/// a uniquely tileable one if none turns up.
fn memo_collision(rng: &mut ChaCha8Rng) -> Tiles {
    let mut fallback = None;
    for _ in 0..ATTEMPTS * 5 {
        let tiles = random_solvable(rng, 3);
        if count_tilings(&tiles, 1) != 1 {
            continue;
        }
        if !weak_memo_finds_tiling(&tiles) {
            return tiles;
        }
        fallback.get_or_insert(tiles);
    }
    fallback.unwrap_or_else(|| unique_tiling(rng))
}

fn loop_until(
    rng: &mut ChaCha8Rng,
    mut f: impl FnMut(&mut ChaCha8Rng) -> Option<Tiles>,
) -> Option<Tiles> {
    (0..ATTEMPTS).find_map(|_| f(rng))
}

/// One input of family `generator` (see [`SPECS`]) with `params`, determined by `seed`.
pub fn generate(generator: &str, params: &GenParams, seed: u64) -> Result<String, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Each family draws from its own stream, so families never share data at equal seeds.
    let family = SPECS.iter().position(|s| s.name == generator).unwrap_or(0);
    rng.set_stream(family as u64 + 1);
    let marks = |default| param(generator, params, "marks", default, 2..=3).map(|m| m as u8);
    let tiles = match generator {
        "random-solvable" => random_solvable(&mut rng, marks(3)?),
        "random-tiles" => {
            let m = marks(3)?;
            std::array::from_fn(|_| random_tile(&mut rng, m))
        }
        "odd-parity" => {
            let m = marks(3)?;
            let mut t = random_solvable(&mut rng, m);
            let (i, e) = (rng.random_range(0..FACES), rng.random_range(0..SIDES));
            t[i][e] = (t[i][e] + rng.random_range(1..m)) % m;
            t
        }
        "even-unsolvable" => even_unsolvable(&mut rng, marks(3)?),
        "near-miss" => near_miss(&mut rng, marks(3)?),
        "identical-tiles" => {
            let solvable = param(generator, params, "solvable", 1, 0..=1)? == 1;
            let max = if solvable { 6 } else { 12 };
            let distinct = param(generator, params, "distinct", 2, 1..=max)? as usize;
            if solvable {
                symmetric_solvable(&mut rng, distinct)
            } else {
                identical_unsolvable(&mut rng, distinct)
            }
        }
        "one-odd-tile" => {
            let changes = param(generator, params, "changes", 1, 1..=5)? as usize;
            let base = param(generator, params, "base", 0, 0..=1)? == 1;
            one_odd_tile(&mut rng, changes, base)
        }
        "rotations-needed" => rotations_needed(&mut rng, marks(3)?),
        "two-marks" => {
            let solvable = param(generator, params, "solvable", 1, 0..=1)? == 1;
            two_marks(&mut rng, solvable)
        }
        "unique-tiling" => {
            let reflect = param(generator, params, "mirror", 0, 0..=1)? == 1;
            let tiles = unique_tiling(&mut rng);
            if reflect {
                mirror(&tiles)
            } else {
                tiles
            }
        }
        "memo-collision" => memo_collision(&mut rng),
        _ => {
            return Err(GenError::UnknownGenerator {
                name: generator.into(),
                available: SPECS.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
            })
        }
    };
    Ok(format_tiles(&tiles))
}
