//! The checker (any valid arrangement is accepted) and wrong-answer mutations for `verify`.

use super::geometry::{side_towards, FACES, NEIGHBOURS, SIDES};
use super::solver::solve_tiles;
use super::{arrangement_violation, format_arrangement, parse_tiles, Arrangement, Placement};
use crate::problems::{tokens, Judgement, Token};

/// What an output claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// `-1`: no arrangement exists.
    NoSolution,
    /// An arrangement whose tiles and references are in range (not yet checked for matching).
    Arrangement(Arrangement),
}

/// What an output must be.
const EXPECTED: &str = "24 numbers or -1";

/// An integer token (optional `-`, then decimal digits) that fits in `i64`; `index` is 1-based.
fn number(token: &Token, index: usize) -> Result<i64, String> {
    let digits = token.text.strip_prefix(b"-").unwrap_or(token.text);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(token.unexpected(EXPECTED));
    }
    std::str::from_utf8(token.text)
        .ok()
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or_else(|| {
            format!(
                "token {index} ({}) at line {} is out of range",
                token.shown(),
                token.line
            )
        })
}

/// Parses an output into a claim: `-1` alone, or 24 integers forming 12 in-range `t n`
/// pairs where `n` is a neighbour of the face. Errors are one-line reasons.
pub fn parse_output(output: &[u8]) -> Result<Claim, String> {
    let text = std::str::from_utf8(output).map_err(|e| {
        format!(
            "output is not valid UTF-8 (bad byte at offset {})",
            e.valid_up_to()
        )
    })?;
    let tokens = tokens(text.as_bytes());
    match tokens.as_slice() {
        [] => return Err("empty output".into()),
        [t] if t.text == b"-1" => return Ok(Claim::NoSolution),
        _ => {}
    }
    // What is there instead of a number comes first (`no solution` is 2 tokens, not
    // numbers); one token past the arrangement is checked too.
    for (k, t) in tokens.iter().take(2 * FACES + 1).enumerate() {
        number(t, k + 1)?;
    }
    if tokens.len() != 2 * FACES {
        return Err(format!("expected {EXPECTED}, found {}", tokens.len()));
    }
    let mut a = [Placement {
        tile: 0,
        reference: 0,
    }; FACES];
    for f in 0..FACES {
        let t = number(&tokens[2 * f], 2 * f + 1)?;
        let n = number(&tokens[2 * f + 1], 2 * f + 2)?;
        if !(1..=FACES as i64).contains(&t) {
            return Err(format!(
                "face {}: tile {t} does not exist (tiles are 1..12)",
                f + 1
            ));
        }
        let reference = n
            .checked_sub(1)
            .and_then(|g| usize::try_from(g).ok())
            .and_then(|g| side_towards(f, g))
            .ok_or_else(|| format!("face {}: {n} is not a neighbour of {}", f + 1, f + 1))?;
        a[f] = Placement {
            tile: (t - 1) as usize,
            reference,
        };
    }
    Ok(Claim::Arrangement(a))
}

/// Judges `output` for `input`, given the jury `answer` (`-1` or any valid arrangement).
/// Never panics.
pub fn check(input: &str, answer: &str, output: &[u8]) -> Judgement {
    let Some(tiles) = parse_tiles(input) else {
        return Judgement::JudgeError("input does not hold 12 tiles of 5 marks".into());
    };
    let jury_none = answer.trim() == "-1";
    match parse_output(output) {
        Err(reason) => Judgement::Rejected(reason),
        Ok(Claim::NoSolution) if jury_none => Judgement::Accepted,
        Ok(Claim::NoSolution) => Judgement::Rejected("reported no solution, but one exists".into()),
        Ok(Claim::Arrangement(a)) => match arrangement_violation(&tiles, &a) {
            Some(reason) => Judgement::Rejected(reason),
            None if jury_none => Judgement::JudgeError(
                "jury answer is -1, but the output is a valid arrangement".into(),
            ),
            None => Judgement::Accepted,
        },
    }
}

/// Labelled wrong answers derived from a correct `answer`; only those [`check`] rejects.
pub fn mutate_answer(input: &str, answer: &str) -> Vec<(String, String)> {
    let Some(tiles) = parse_tiles(input) else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = Vec::new();
    match parse_output(answer.as_bytes()) {
        Ok(Claim::NoSolution) => {
            let identity: Arrangement = std::array::from_fn(|f| Placement {
                tile: f,
                reference: 0,
            });
            out.push((
                "arbitrary arrangement".into(),
                format_arrangement(&identity),
            ));
            let mut reversed = identity;
            reversed.reverse();
            out.push((
                "another arbitrary arrangement".into(),
                format_arrangement(&reversed),
            ));
            out.push(("empty output".into(), String::new()));
            out.push(("-1 twice".into(), "-1\n-1\n".into()));
        }
        Ok(Claim::Arrangement(a)) => {
            // Swap the tiles of two faces (first pair that breaks the arrangement).
            'swap: for f in 0..FACES {
                for g in f + 1..FACES {
                    let mut b = a;
                    b[f].tile = a[g].tile;
                    b[g].tile = a[f].tile;
                    if arrangement_violation(&tiles, &b).is_some() {
                        out.push((
                            format!("swap tiles of faces {} and {}", f + 1, g + 1),
                            format_arrangement(&b),
                        ));
                        break 'swap;
                    }
                }
            }
            // Turn one face's tile by one step.
            for f in 0..FACES {
                let mut b = a;
                b[f].reference = (a[f].reference + 1) % SIDES;
                if arrangement_violation(&tiles, &b).is_some() {
                    out.push((
                        format!("wrong rotation on face {}", f + 1),
                        format_arrangement(&b),
                    ));
                    break;
                }
            }
            // What a solver that reads tile edges counter-clockwise would print: a solution of
            // the mirrored tiles.
            let mirrored = tiles.map(|t| std::array::from_fn(|m| t[(SIDES - m) % SIDES]));
            if let Some(b) = solve_tiles(&mirrored) {
                out.push(("reflected tiles".into(), format_arrangement(&b)));
            }
            let mut b = a;
            b[0].tile = (a[0].tile + 1) % FACES;
            out.push(("changed tile number".into(), format_arrangement(&b)));
            let text = format_arrangement(&a);
            let non_neighbour = (0..FACES)
                .find(|&g| g != 0 && !NEIGHBOURS[0].contains(&g))
                .unwrap_or(11);
            out.push((
                "reference towards a non-neighbour".into(),
                text.replacen(
                    &format!(" {}\n", NEIGHBOURS[0][a[0].reference] + 1),
                    &format!(" {}\n", non_neighbour + 1),
                    1,
                ),
            ));
            out.push((
                "tile number out of range".into(),
                format!("13{}", &text[text.find(' ').unwrap_or(0)..]),
            ));
            let mut tokens: Vec<&str> = text.split_ascii_whitespace().collect();
            tokens.pop();
            out.push(("missing token".into(), tokens.join(" ") + "\n"));
            out.push(("extra token".into(), format!("{text}1\n")));
            out.push(("-1 instead of an arrangement".into(), "-1\n".into()));
        }
        Err(_) => return Vec::new(),
    }
    out.retain(|(_, o)| matches!(check(input, answer, o.as_bytes()), Judgement::Rejected(_)));
    out
}

#[cfg(test)]
mod tests {
    use super::super::{format_tiles, Dodecahedron, Tiles};
    use super::*;
    use crate::problems::Problem;

    fn rejected(j: Judgement) -> String {
        match j {
            Judgement::Rejected(r) => r,
            other => panic!("expected rejection, got {other:?}"),
        }
    }

    fn zeros() -> Tiles {
        [[0; SIDES]; FACES]
    }

    fn solvable_input() -> (String, String) {
        let mut rng_tiles = zeros();
        // A fixed non-trivial solvable input: mark each edge by (f + g) % 3.
        let mut side_marks = [[0u8; SIDES]; FACES];
        for f in 0..FACES {
            for k in 0..SIDES {
                side_marks[f][k] = ((f + NEIGHBOURS[f][k]) % 3) as u8;
            }
        }
        for f in 0..FACES {
            rng_tiles[(f * 5) % FACES] = std::array::from_fn(|m| side_marks[f][(m + f) % SIDES]);
        }
        let input = format_tiles(&rng_tiles);
        let answer = Dodecahedron.solve(&input).unwrap();
        assert_ne!(answer, "-1\n");
        (input, answer)
    }

    #[test]
    fn accepts_reference_and_tolerates_whitespace() {
        let (input, answer) = solvable_input();
        assert_eq!(
            check(&input, &answer, answer.as_bytes()),
            Judgement::Accepted
        );
        let spaced = answer.replace('\n', "  \n\n");
        assert_eq!(
            check(&input, &answer, spaced.as_bytes()),
            Judgement::Accepted
        );
    }

    #[test]
    fn reasons_name_the_problem() {
        let input = format_tiles(&zeros());
        let answer = Dodecahedron.solve(&input).unwrap();
        let mut lines: Vec<String> = answer.lines().map(String::from).collect();
        lines[3] = "4 7".into();
        let r = rejected(check(&input, &answer, lines.join("\n").as_bytes()));
        assert_eq!(r, "face 4: 7 is not a neighbour of 4");
        let mut lines: Vec<String> = answer.lines().map(String::from).collect();
        let dup_tile = lines[6].split(' ').next().unwrap().to_string();
        lines[1] = format!("{dup_tile} 1");
        let r = rejected(check(&input, &answer, lines.join("\n").as_bytes()));
        assert_eq!(r, format!("tile {dup_tile} used twice (faces 2 and 7)"));
        let short: Vec<&str> = answer.split_ascii_whitespace().take(23).collect();
        let r = rejected(check(&input, &answer, short.join(" ").as_bytes()));
        assert_eq!(r, "expected 24 numbers or -1, found 23");
    }

    #[test]
    fn disagreeing_faces_are_named() {
        let mut tiles = zeros();
        tiles[0] = [1, 1, 0, 0, 0];
        tiles[1] = [1, 1, 0, 0, 0];
        let input = format_tiles(&tiles);
        // Identity placement: face 1 shows 1 towards faces 2 and 3; face 2 shows 1 towards 1
        // and 6; face 3 shows 0 towards 1.
        let out: String = (0..FACES)
            .map(|f| format!("{} {}\n", f + 1, NEIGHBOURS[f][0] + 1))
            .collect();
        let answer = Dodecahedron.solve(&input).unwrap();
        let r = rejected(check(&input, &answer, out.as_bytes()));
        assert_eq!(r, "faces 1 and 3 disagree on their shared edge: 1 vs 0");
    }

    #[test]
    fn no_solution_claims() {
        let mut tiles = zeros();
        tiles[11] = [0, 0, 0, 0, 1];
        let unsolvable = format_tiles(&tiles);
        assert_eq!(check(&unsolvable, "-1\n", b"-1\n"), Judgement::Accepted);
        assert_eq!(
            check(&unsolvable, "-1\n", b"  -1  \n\n"),
            Judgement::Accepted
        );
        let (input, answer) = solvable_input();
        assert_eq!(
            rejected(check(&input, &answer, b"-1\n")),
            "reported no solution, but one exists"
        );
        // Jury claims -1 but a valid arrangement shows up: the jury is wrong.
        assert!(matches!(
            check(&input, "-1\n", answer.as_bytes()),
            Judgement::JudgeError(_)
        ));
        // Jury -1 and an invalid arrangement: plain rejection.
        let identity: String = (0..FACES)
            .map(|f| format!("{} {}\n", f + 1, NEIGHBOURS[f][0] + 1))
            .collect();
        assert!(matches!(
            check(&unsolvable, "-1\n", identity.as_bytes()),
            Judgement::Rejected(_)
        ));
    }

    #[test]
    fn robust_against_garbage() {
        let (input, answer) = solvable_input();
        let huge = answer.replacen(
            answer.split_ascii_whitespace().next().unwrap(),
            "99999999999999999999",
            1,
        );
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "empty output"),
            (b"   \n\n".to_vec(), "empty output"),
            (vec![0xff, 0xfe, b'1'], "not valid UTF-8"),
            (huge.into_bytes(), "out of range"),
            (
                answer.replacen('1', "x", 1).into_bytes(),
                "expected 24 numbers or -1, found \"x",
            ),
            (b"-1 -1".to_vec(), "expected 24 numbers or -1, found 2"),
            (
                b"no solution\n".to_vec(),
                "expected 24 numbers or -1, found \"no\" at line 1",
            ),
            (
                format!("{answer} 5").into_bytes(),
                "expected 24 numbers or -1, found 25",
            ),
            (
                format!("{answer}done\n").into_bytes(),
                "expected 24 numbers or -1, found \"done\" at line 13",
            ),
            (b"- 1".to_vec(), "found \"-\" at line 1"),
            (
                "1 2 ".repeat(12).into_bytes(),
                "face 2: 2 is not a neighbour of 2",
            ),
            ("-5 2 ".repeat(12).into_bytes(), "tile -5 does not exist"),
            (
                "1 -9223372036854775808 ".repeat(12).into_bytes(),
                "not a neighbour",
            ),
            (
                "1 99999999999999999999999 ".repeat(12).into_bytes(),
                "out of range",
            ),
            (
                "\u{a0}-1".as_bytes().to_vec(),
                "expected 24 numbers or -1, found \"\\u{a0}-1\" at line 1",
            ),
        ];
        for (out, needle) in cases {
            let r = rejected(check(&input, &answer, &out));
            assert!(r.contains(needle), "{r:?} lacks {needle:?}");
            assert!(!r.contains('\n'));
        }
        assert!(matches!(
            check("garbage", &answer, answer.as_bytes()),
            Judgement::JudgeError(_)
        ));
    }

    #[test]
    fn every_mutation_kind_is_rejected() {
        let (input, answer) = solvable_input();
        let muts = mutate_answer(&input, &answer);
        let labels: Vec<&str> = muts.iter().map(|(l, _)| l.as_str()).collect();
        for want in [
            "swap tiles",
            "wrong rotation",
            "reflected tiles",
            "changed tile number",
            "non-neighbour",
            "out of range",
            "missing token",
            "extra token",
            "-1 instead",
        ] {
            assert!(
                labels.iter().any(|l| l.contains(want)),
                "{want} in {labels:?}"
            );
        }
        for (label, out) in &muts {
            assert!(
                matches!(
                    check(&input, &answer, out.as_bytes()),
                    Judgement::Rejected(_)
                ),
                "{label}"
            );
        }
        let mut tiles = zeros();
        tiles[11] = [0, 0, 0, 0, 1];
        let unsolvable = format_tiles(&tiles);
        let muts = mutate_answer(&unsolvable, "-1\n");
        assert!(muts.iter().any(|(l, _)| l == "arbitrary arrangement"));
        for (label, out) in &muts {
            assert!(
                matches!(
                    check(&unsolvable, "-1\n", out.as_bytes()),
                    Judgement::Rejected(_)
                ),
                "{label}"
            );
        }
    }
}
