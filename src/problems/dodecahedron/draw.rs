//! Pictures for `judge show dodecahedron`: the twelve tiles of an input, or an answer laid out
//! on the net of the solid ([`super::net`]), each face with its number, its tile and the tile's
//! marks in the placed rotation; edges whose two marks disagree in red (and thick), empty faces
//! and reused tiles marked.
//!
//! Files are read leniently (whatever parses is drawn); what is wrong with them is said by the
//! validator and the checker, never by code of its own here.

use super::checker::{self, Claim};
use super::geometry::{BACK, FACES, NEIGHBOURS, SIDES};
use super::net::{self, Slot};
use super::{format_arrangement, solver, validator, Placement};
use crate::problems::Judgement;
use crate::show::palette::{BAD, BAD_FILL, DIM, EMPTY_FILL, FILL, GOOD, INK, WARN_FILL};
use crate::show::svg::{Anchor, Font, Paint, Svg};
use crate::show::term::{Canvas, Style, Text};
use crate::show::{wrap, DrawError, Finding, Picture};

/// Tile marks as far as they parse: `None` for a missing mark or one that is not 0, 1 or 2.
type LooseTiles = [[Option<u8>; SIDES]; FACES];

/// How an edge of a face looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// Both faces show the same mark.
    Match,
    /// The two marks differ.
    Clash,
    /// A face is empty or a mark is unknown.
    Unknown,
}

/// One face of a drawn answer.
#[derive(Debug, Clone, Copy)]
struct FaceView {
    placement: Option<Placement>,
    /// The mark on each side of the face (in the placed rotation).
    marks: [Option<u8>; SIDES],
    edges: [Edge; SIDES],
    /// The tile is placed on more than one face.
    reused: bool,
}

/// The picture of `input` and, when given, `output`.
pub fn draw(input: &[u8], output: Option<&[u8]>) -> Result<Picture, DrawError> {
    let tiles = loose_tiles(input)?;
    let input_finding = validator::validate(input)
        .err()
        .map(|v| Finding::InvalidInput(v.to_string()));
    let Some(output) = output else {
        let finding = input_finding.unwrap_or(Finding::ValidInput);
        return Ok(tiles_picture(
            &tiles,
            "the twelve tiles of the input",
            &finding,
        ));
    };
    let finding = input_finding.unwrap_or_else(|| judge(input, output));
    match loose_output(output) {
        None => Ok(tiles_picture(
            &tiles,
            "the output says -1 (no arrangement); the tiles of the input",
            &finding,
        )),
        Some(placements) if placements.iter().all(Option::is_none) => {
            let why = match checker::parse_output(output) {
                Err(why) => why,
                Ok(_) => "no face holds a tile".into(),
            };
            Err(DrawError::Output(why))
        }
        Some(placements) => {
            let views = face_views(&tiles, &placements);
            Ok(net_picture(&views, &finding))
        }
    }
}

/// The checker's verdict on `output` for a valid `input` (the jury answer from the solver).
fn judge(input: &[u8], output: &[u8]) -> Finding {
    let Ok(text) = std::str::from_utf8(input) else {
        return Finding::InvalidInput("the input is not UTF-8".into());
    };
    let answer = super::parse_tiles(text)
        .and_then(|t| solver::solve_tiles(&t))
        .map(|a| format_arrangement(&a))
        .unwrap_or_else(|| "-1\n".into());
    match checker::check(text, &answer, output) {
        Judgement::Accepted => Finding::Accepted,
        Judgement::Rejected(why) => Finding::Rejected(why),
        Judgement::JudgeError(why) => Finding::JudgeError(why),
    }
}

/// Line `i` of the input is tile `i`; its first five tokens are its marks.
fn loose_tiles(input: &[u8]) -> Result<LooseTiles, DrawError> {
    let text = String::from_utf8_lossy(input);
    let mut tiles = [[None; SIDES]; FACES];
    for (tile, line) in tiles.iter_mut().zip(text.lines()) {
        for (mark, token) in tile.iter_mut().zip(line.split_ascii_whitespace()) {
            *mark = match token {
                "0" => Some(0),
                "1" => Some(1),
                "2" => Some(2),
                _ => None,
            };
        }
    }
    if tiles.iter().flatten().all(Option::is_none) {
        return Err(DrawError::Input(
            "expected twelve lines of five marks 0, 1 or 2".into(),
        ));
    }
    Ok(tiles)
}

/// Token pair `f` (as the checker reads them) as a placement on face `f`, if it is one;
/// `None` when the output is `-1` (no arrangement).
fn loose_output(output: &[u8]) -> Option<[Option<Placement>; FACES]> {
    if let Ok(Claim::NoSolution) = checker::parse_output(output) {
        return None;
    }
    let text = String::from_utf8_lossy(output);
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    let mut faces = [None; FACES];
    for (f, face) in faces.iter_mut().enumerate() {
        let (Some(t), Some(n)) = (tokens.get(2 * f), tokens.get(2 * f + 1)) else {
            break;
        };
        let (Ok(t), Ok(n)) = (t.parse::<usize>(), n.parse::<usize>()) else {
            continue;
        };
        if !(1..=FACES).contains(&t) || n == 0 {
            continue;
        }
        if let Some(reference) = super::geometry::side_towards(f, n - 1) {
            *face = Some(Placement {
                tile: t - 1,
                reference,
            });
        }
    }
    Some(faces)
}

fn face_views(tiles: &LooseTiles, placements: &[Option<Placement>; FACES]) -> [FaceView; FACES] {
    let mut uses = [0usize; FACES];
    for p in placements.iter().flatten() {
        uses[p.tile] += 1;
    }
    let marks: [[Option<u8>; SIDES]; FACES] = std::array::from_fn(|f| match placements[f] {
        Some(p) => std::array::from_fn(|k| tiles[p.tile][(k + SIDES - p.reference) % SIDES]),
        None => [None; SIDES],
    });
    std::array::from_fn(|f| FaceView {
        placement: placements[f],
        marks: marks[f],
        edges: std::array::from_fn(|k| {
            let (g, j) = (NEIGHBOURS[f][k], BACK[f][k]);
            match (marks[f][k], marks[g][j]) {
                (Some(a), Some(b)) if a == b => Edge::Match,
                (Some(_), Some(_)) => Edge::Clash,
                _ => Edge::Unknown,
            }
        }),
        reused: placements[f].is_some_and(|p| uses[p.tile] > 1),
    })
}

fn mark_text(m: Option<u8>) -> String {
    m.map_or_else(|| "?".into(), |m| m.to_string())
}

/// One-line notes on what the picture marks (the plain-text counterpart of its colours).
fn notes(views: &[FaceView; FACES]) -> Vec<(Style, String)> {
    let mut out = Vec::new();
    let clashes: Vec<String> = views
        .iter()
        .enumerate()
        .flat_map(|(f, v)| {
            (0..SIDES)
                .filter(move |&k| v.edges[k] == Edge::Clash && f < NEIGHBOURS[f][k])
                .map(move |k| format!("{}-{}", f + 1, NEIGHBOURS[f][k] + 1))
        })
        .collect();
    if !clashes.is_empty() {
        out.push((
            Style::Bad,
            format!(
                "{} edge{} where the marks disagree (red): faces {}",
                clashes.len(),
                if clashes.len() == 1 { "" } else { "s" },
                clashes.join(", ")
            ),
        ));
    }
    for t in 0..FACES {
        let faces: Vec<String> = (0..FACES)
            .filter(|&f| views[f].placement.is_some_and(|p| p.tile == t))
            .map(|f| (f + 1).to_string())
            .collect();
        if faces.len() > 1 {
            out.push((
                Style::Warn,
                format!("tile {} is used on faces {} (*)", t + 1, faces.join(", ")),
            ));
        }
    }
    let empty: Vec<String> = (0..FACES)
        .filter(|&f| views[f].placement.is_none())
        .map(|f| (f + 1).to_string())
        .collect();
    if !empty.is_empty() {
        out.push((
            Style::Warn,
            format!(
                "no readable tile on face{} {}",
                if empty.len() == 1 { "" } else { "s" },
                empty.join(", ")
            ),
        ));
    }
    out
}

/// Whether cut side `k` of face `f` and the same edge seen from the neighbour share an end
/// in the drawing (they close like a wedge when the net is folded).
fn meets_partner(slots: &[Slot; FACES], f: usize, k: usize) -> bool {
    let g = NEIGHBOURS[f][k];
    let (a, b) = slots[f].side_ends(k);
    let (c, d) = slots[g].side_ends(BACK[f][k]);
    let close = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).hypot(p.1 - q.1) < 1e-6;
    close(a, c) || close(a, d) || close(b, c) || close(b, d)
}

/// Characters of a note line in the SVG (12 px type across the ~620 px legend).
const NOTE_CHARS: usize = 96;

fn finding_colour(f: &Finding) -> &'static str {
    if f.is_ok() {
        GOOD
    } else {
        BAD
    }
}

/// Pixels per unit of circumradius in the SVG.
const R: f64 = 56.0;
const MARGIN: f64 = 30.0;
const TITLE: f64 = 54.0;

fn font(size: f64, colour: &str, bold: bool) -> Font<'_> {
    Font {
        size,
        colour,
        bold,
        anchor: Anchor::Middle,
    }
}

/// The SVG header: a title and the finding in its colour.
fn svg_title(svg: &mut Svg, title: &str, finding: &Finding) {
    let left = Font {
        anchor: Anchor::Start,
        ..font(15.0, INK, true)
    };
    svg.text((MARGIN, 18.0), title, left, "title");
    let line = Font {
        anchor: Anchor::Start,
        ..font(14.0, finding_colour(finding), false)
    };
    svg.text((MARGIN, 38.0), &finding.line(), line, "finding");
}

fn net_picture(views: &[FaceView; FACES], finding: &Finding) -> Picture {
    let slots = net::layout();
    let notes = notes(views);
    Picture {
        text: net_text(views, &slots, &notes),
        svg: net_svg(views, &slots, &notes, finding),
        finding: finding.clone(),
    }
}

fn net_svg(
    views: &[FaceView; FACES],
    slots: &[Slot; FACES],
    notes: &[(Style, String)],
    finding: &Finding,
) -> String {
    let (_, _, w, h) = net::bounds(slots);
    let note_lines: usize = notes.iter().map(|(_, n)| wrap(n, NOTE_CHARS).len()).sum();
    let legend_h = 18.0 * note_lines as f64 + 4.0 * notes.len() as f64 + 40.0;
    // The legend lines are about 620 px wide.
    let mut svg = Svg::new(
        (w * R + 2.0 * MARGIN).max(680.0),
        h * R + 2.0 * MARGIN + TITLE + legend_h,
        "dodecahedron-net",
    );
    svg_title(
        &mut svg,
        "dodecahedron: the answer on the net of the solid",
        finding,
    );
    let at = |(x, y): (f64, f64)| (MARGIN + x * R, MARGIN + TITLE + y * R);
    let a = net::apothem();
    // Faces first, edges over them, text last.
    for (f, (v, s)) in views.iter().zip(slots).enumerate() {
        let corners: Vec<(f64, f64)> = s.corners().iter().map(|&p| at(p)).collect();
        let (fill, class) = match v.placement {
            None => (EMPTY_FILL, "face empty"),
            Some(_) if v.reused => (WARN_FILL, "face reused"),
            Some(_) => (FILL, "face"),
        };
        let tip = match v.placement {
            Some(p) => format!(
                "face {}: tile {} with its reference edge towards face {}",
                f + 1,
                p.tile + 1,
                NEIGHBOURS[f][p.reference] + 1
            ),
            None => format!("face {}: no readable tile", f + 1),
        };
        svg.polygon(&corners, Paint::fill(fill), class, Some(&tip));
    }
    for (f, (v, s)) in views.iter().zip(slots).enumerate() {
        for k in 0..SIDES {
            let g = NEIGHBOURS[f][k];
            let (p, q) = s.side_ends(k);
            let (paint, class) = match v.edges[k] {
                Edge::Clash => (Paint::stroke(BAD, 4.0), "edge bad"),
                Edge::Match => (Paint::stroke(INK, 1.5), "edge"),
                Edge::Unknown => (
                    Paint {
                        dash: Some("4 3"),
                        ..Paint::stroke(DIM, 1.5)
                    },
                    "edge unknown",
                ),
            };
            let tip = format!(
                "faces {} and {}: {} vs {}",
                f + 1,
                g + 1,
                mark_text(v.marks[k]),
                mark_text(views[g].marks[BACK[f][k]])
            );
            svg.line(at(p), at(q), paint, class, Some(&tip));
            if !net::is_fold(f, k) && !meets_partner(slots, f, k) {
                // A cut edge whose partner is elsewhere in the net: name the face it meets on
                // the solid, just outside it. (Cut edges that meet their partner at a corner
                // of the net are obvious and stay unlabelled.)
                svg.text(
                    at(s.towards(k, a + 0.17)),
                    &(g + 1).to_string(),
                    font(10.0, DIM, false),
                    "across",
                );
            }
        }
    }
    for (f, (v, s)) in views.iter().zip(slots).enumerate() {
        let (cx, cy) = at(s.centre);
        svg.text(
            (cx, cy - 8.0),
            &(f + 1).to_string(),
            font(20.0, INK, true),
            "face-number",
        );
        let (tile, colour) = match v.placement {
            Some(p) if v.reused => (format!("tile {}*", p.tile + 1), BAD),
            Some(p) => (format!("tile {}", p.tile + 1), INK),
            None => ("empty".into(), DIM),
        };
        svg.text((cx, cy + 12.0), &tile, font(11.0, colour, false), "tile");
        let Some(p) = v.placement else { continue };
        for k in 0..SIDES {
            let colour = if v.edges[k] == Edge::Clash { BAD } else { INK };
            svg.text(
                at(s.towards(k, a * 0.64)),
                &mark_text(v.marks[k]),
                font(15.0, colour, v.edges[k] == Edge::Clash),
                if v.edges[k] == Edge::Clash {
                    "mark bad"
                } else {
                    "mark"
                },
            );
        }
        // The tile's reference edge: a dot just inside it.
        svg.circle(
            at(s.towards(p.reference, a * 0.93)),
            3.0,
            Paint::fill(INK),
            "reference",
        );
    }
    let mut y = MARGIN + TITLE + h * R + 20.0;
    let left = |c| Font {
        anchor: Anchor::Start,
        ..font(12.0, c, false)
    };
    for legend in [
        "big number: the face, below it the tile placed on it; digits: the marks in the placed rotation",
        "dot: the tile's reference edge; grey number outside an edge: the face it meets on the solid",
    ] {
        svg.text((MARGIN, y), legend, left(DIM), "legend");
        y += 18.0;
    }
    y -= 18.0;
    for (style, note) in notes {
        y += 4.0;
        let colour = if *style == Style::Bad { BAD } else { INK };
        for part in wrap(note, NOTE_CHARS) {
            y += 18.0;
            svg.text((MARGIN, y), &part, left(colour), "note");
        }
    }
    svg.finish()
}

/// Braille dots per unit of circumradius in the terminal picture.
const DOTS: f64 = 17.0;

fn cell((x, y): (f64, f64)) -> (i64, i64) {
    (
        (x * DOTS / 2.0).round() as i64,
        (y * DOTS / 4.0).round() as i64,
    )
}

fn net_text(views: &[FaceView; FACES], slots: &[Slot; FACES], notes: &[(Style, String)]) -> Text {
    let (_, _, w, h) = net::bounds(slots);
    let mut canvas = Canvas::new(
        (w * DOTS / 2.0).ceil() as usize + 2,
        (h * DOTS / 4.0).ceil() as usize + 2,
    );
    let a = net::apothem();
    for (v, s) in views.iter().zip(slots) {
        for k in 0..SIDES {
            let (p, q) = s.side_ends(k);
            let dots = |(x, y): (f64, f64)| (x * DOTS, y * DOTS);
            let style = match v.edges[k] {
                Edge::Clash => Style::Bad,
                Edge::Match => Style::Plain,
                Edge::Unknown => Style::Dim,
            };
            canvas.line(dots(p), dots(q), style);
            if v.edges[k] == Edge::Clash {
                // Thick: a second line one dot inside the face, visible without colour.
                let inward = |(x, y): (f64, f64)| {
                    let (cx, cy) = s.centre;
                    let (dx, dy) = (cx - x, cy - y);
                    let len = dx.hypot(dy) * DOTS;
                    (
                        x * DOTS + 1.5 * dx / len * DOTS,
                        y * DOTS + 1.5 * dy / len * DOTS,
                    )
                };
                canvas.line(inward(p), inward(q), Style::Bad);
            }
        }
    }
    for (f, (v, s)) in views.iter().zip(slots).enumerate() {
        let (col, row) = cell(s.centre);
        canvas.write_centred(col, row, &(f + 1).to_string(), Style::Bold);
        let (tile, style) = match v.placement {
            Some(p) if v.reused => (format!("t{}*", p.tile + 1), Style::Warn),
            Some(p) => (format!("t{}", p.tile + 1), Style::Dim),
            None => ("--".into(), Style::Dim),
        };
        canvas.write_centred(col, row + 1, &tile, style);
        if v.placement.is_none() {
            continue;
        }
        for k in 0..SIDES {
            let (c, r) = cell(s.towards(k, a * 0.66));
            let style = if v.edges[k] == Edge::Clash {
                Style::Bad
            } else {
                Style::Plain
            };
            canvas.write(c, r, &mark_text(v.marks[k]), style);
        }
    }
    let mut text = Text::new();
    text.line(
        Style::Bold,
        "dodecahedron: the answer on the net (face number, tile t, the marks in the placed rotation)",
    );
    text.extend(canvas.into_text());
    for (style, note) in notes {
        text.line(*style, note.clone());
    }
    text
}

/// Columns of the tile grid.
const TILE_COLUMNS: usize = 6;

fn tiles_picture(tiles: &LooseTiles, title: &str, finding: &Finding) -> Picture {
    // One slot per tile on a grid, side 0 (the reference edge) at the top.
    let a = net::apothem();
    let dx = 2.3;
    let dy = 1.0 + a + 0.55;
    let slots: Vec<Slot> = (0..FACES)
        .map(|t| Slot {
            centre: (
                1.1 + dx * (t % TILE_COLUMNS) as f64,
                1.0 + dy * (t / TILE_COLUMNS) as f64,
            ),
            angle: -std::f64::consts::FRAC_PI_2,
        })
        .collect();
    let rows = FACES.div_ceil(TILE_COLUMNS) as f64;
    let (w, h) = (dx * TILE_COLUMNS as f64, dy * rows);
    let complete = |t: &[Option<u8>; SIDES]| t.iter().all(Option::is_some);

    let mut svg = Svg::new(
        w * R + 2.0 * MARGIN,
        h * R + 2.0 * MARGIN + TITLE,
        "dodecahedron-tiles",
    );
    svg_title(&mut svg, &format!("dodecahedron: {title}"), finding);
    let at = |(x, y): (f64, f64)| (MARGIN + x * R, MARGIN + TITLE + y * R);
    let mut canvas = Canvas::new(
        (w * DOTS / 2.0).ceil() as usize + 2,
        (h * DOTS / 4.0).ceil() as usize + 2,
    );
    for (t, (tile, s)) in tiles.iter().zip(&slots).enumerate() {
        let corners: Vec<(f64, f64)> = s.corners().iter().map(|&p| at(p)).collect();
        let (fill, class) = if complete(tile) {
            (FILL, "tile")
        } else {
            (BAD_FILL, "tile bad")
        };
        svg.polygon(&corners, Paint::fill(fill), class, None);
        for (k, &mark) in tile.iter().enumerate() {
            let (p, q) = s.side_ends(k);
            svg.line(at(p), at(q), Paint::stroke(INK, 1.5), "edge", None);
            canvas.line(
                (p.0 * DOTS, p.1 * DOTS),
                (q.0 * DOTS, q.1 * DOTS),
                Style::Plain,
            );
            let (colour, style) = match mark {
                Some(_) => (INK, Style::Plain),
                None => (BAD, Style::Bad),
            };
            svg.text(
                at(s.towards(k, a * 0.64)),
                &mark_text(mark),
                font(15.0, colour, mark.is_none()),
                if mark.is_some() { "mark" } else { "mark bad" },
            );
            let (c, r) = cell(s.towards(k, a * 0.66));
            canvas.write(c, r, &mark_text(mark), style);
        }
        let (cx, cy) = at(s.centre);
        svg.text(
            (cx, cy + 4.0),
            &format!("tile {}", t + 1),
            font(13.0, INK, true),
            "tile-number",
        );
        svg.circle(
            at(s.towards(0, a * 0.93)),
            3.0,
            Paint::fill(INK),
            "reference",
        );
        let (col, row) = cell(s.centre);
        canvas.write_centred(col, row, &format!("t{}", t + 1), Style::Bold);
    }
    let mut text = Text::new();
    text.line(
        Style::Bold,
        format!(
            "dodecahedron: {title} (reference edge at the top, marks clockwise; ? = unreadable)"
        ),
    );
    text.extend(canvas.into_text());
    Picture {
        text,
        svg: svg.finish(),
        finding: finding.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_IN: &str = "0 1 1 2 2\n1 0 1 2 1\n1 2 0 1 1\n2 0 0 2 1\n0 2 1 2 1\n0 1 1 1 2\n\
        2 0 2 1 0\n2 2 2 1 2\n0 1 1 1 0\n2 1 2 1 1\n2 1 2 0 2\n0 2 2 1 0\n";
    const SAMPLE_OUT: &str = "4 6\n1 1\n5 1\n10 9\n9 6\n3 2\n6 12\n7 9\n8 10\n11 9\n2 12\n12 8\n";

    #[test]
    fn a_correct_answer_has_no_red_edge() {
        let p = draw(SAMPLE_IN.as_bytes(), Some(SAMPLE_OUT.as_bytes())).unwrap();
        assert_eq!(p.finding, Finding::Accepted);
        assert!(!p.svg.contains("edge bad"));
        assert_eq!(p.svg.matches(r#"class="edge""#).count(), 60);
        assert_eq!(p.svg.matches(r#"class="face""#).count(), 12);
        assert!(p.svg.contains(">tile 4<"));
        let text = p.text.plain();
        assert!(!text.contains("disagree"), "{text}");
    }

    #[test]
    fn swapped_tiles_draw_red_edges_and_name_the_checker_reason() {
        // Swap the tiles of faces 1 and 2.
        let wrong = SAMPLE_OUT.replacen("4 6\n1 1\n", "1 6\n4 1\n", 1);
        let p = draw(SAMPLE_IN.as_bytes(), Some(wrong.as_bytes())).unwrap();
        let Finding::Rejected(why) = &p.finding else {
            panic!("{:?}", p.finding)
        };
        assert!(why.contains("disagree"), "{why}");
        assert!(p.svg.contains(r##"class="edge bad""##));
        assert!(p.svg.contains(&format!(r#"stroke="{BAD}""#)));
        assert!(p.svg.contains(r#"class="mark bad""#));
        let text = p.text.plain();
        assert!(
            text.contains("where the marks disagree (red): faces 1-"),
            "{text}"
        );
        // Colour only when asked.
        assert!(!text.contains('\x1b'));
        assert!(p.text.render(true).contains("\x1b[1;31m"));
    }

    #[test]
    fn reused_tiles_and_empty_faces_are_marked() {
        let wrong = SAMPLE_OUT
            .replacen("1 1\n", "4 1\n", 1)
            .replacen("5 1\n", "x y\n", 1);
        let p = draw(SAMPLE_IN.as_bytes(), Some(wrong.as_bytes())).unwrap();
        assert!(matches!(p.finding, Finding::Rejected(_)), "{:?}", p.finding);
        assert_eq!(p.svg.matches(r#"class="face reused""#).count(), 2);
        assert_eq!(p.svg.matches(r#"class="face empty""#).count(), 1);
        let text = p.text.plain();
        assert!(text.contains("tile 4 is used on faces 1, 2 (*)"), "{text}");
        assert!(text.contains("no readable tile on face 3"), "{text}");
    }

    #[test]
    fn the_input_alone_shows_the_twelve_tiles() {
        let p = draw(SAMPLE_IN.as_bytes(), None).unwrap();
        assert_eq!(p.finding, Finding::ValidInput);
        assert_eq!(p.svg.matches(r#"class="tile""#).count(), 12);
        assert!(p.svg.contains(">tile 12<"));
        assert!(p.text.plain().contains("t12"));
    }

    #[test]
    fn a_broken_input_is_drawn_as_far_as_it_parses() {
        let broken = SAMPLE_IN.replacen("1 0 1 2 1\n", "1 0 7 2\n", 1);
        let p = draw(broken.as_bytes(), None).unwrap();
        let Finding::InvalidInput(why) = &p.finding else {
            panic!("{:?}", p.finding)
        };
        assert!(why.starts_with("line 2"), "{why}");
        assert_eq!(p.svg.matches(r#"class="tile bad""#).count(), 1);
        assert_eq!(p.svg.matches(r#"class="mark bad""#).count(), 2);
    }

    #[test]
    fn garbage_is_an_error_not_a_picture() {
        assert!(matches!(
            draw(b"\x7fELF\x02\x01", None),
            Err(DrawError::Input(_))
        ));
        let e = draw(SAMPLE_IN.as_bytes(), Some(b"hello world")).unwrap_err();
        assert!(matches!(e, DrawError::Output(_)), "{e}");
    }

    #[test]
    fn minus_one_shows_the_tiles_and_the_checker_verdict() {
        let p = draw(SAMPLE_IN.as_bytes(), Some(b"-1\n")).unwrap();
        assert_eq!(
            p.finding,
            Finding::Rejected("reported no solution, but one exists".into())
        );
        assert!(p.svg.contains("dodecahedron-tiles"));
    }
}
