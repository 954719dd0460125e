//! `judge show`: draw an input (and an output on it) in the terminal or as an SVG file.
//!
//! Exit status: 0 for a valid input / an accepted output, 1 when the picture shows a problem
//! (invalid input, rejected output, or an output with nothing drawable), 2 when the input has
//! nothing drawable or the jury side is inconsistent.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Result};

use super::{load_package, Status};
use crate::cli::ShowArgs;
use crate::fsutil::{read_input, write_atomic};
use crate::show::term::{Style, Text};
use crate::show::{DrawError, Finding};
use crate::terminal::{self, Stream};

pub fn run(args: ShowArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    if args.output.as_deref() == Some(Path::new("-")) && args.input == Path::new("-") {
        bail!("only one of INPUT and OUTPUT can be `-` (standard input)");
    }
    let input = read_input(Some(&args.input))?;
    let output = args
        .output
        .as_deref()
        .map(|p| read_input(Some(p)))
        .transpose()?;
    let colour = terminal::colour(Stream::Stdout);
    let picture = match pkg.logic.draw(&input, output.as_deref()) {
        None => {
            if args.svg.is_some() {
                bail!(
                    "problem `{}` does not draw itself, so there is no SVG to write",
                    pkg.name
                );
            }
            print!(
                "{}",
                files_text(&args, &input, output.as_deref()).render(colour)
            );
            return Ok(Status::Success);
        }
        Some(Err(DrawError::Input(why))) => {
            bail!(
                "{}: the input has nothing to draw: {why}",
                args.input.display()
            )
        }
        Some(Err(DrawError::Output(why))) => {
            let path = args.output.as_deref().unwrap_or(Path::new("-"));
            eprintln!(
                "error: {}: the output has nothing to draw: {why}",
                path.display()
            );
            return Ok(Status::Rejected);
        }
        Some(Ok(p)) => p,
    };
    let mut stdout = std::io::stdout().lock();
    match &args.svg {
        Some(path) if path == Path::new("-") => stdout.write_all(picture.svg.as_bytes())?,
        Some(path) => {
            write_atomic(path, picture.svg.as_bytes())?;
            eprintln!("wrote {}", path.display());
        }
        None => stdout.write_all(picture.text.render(colour).as_bytes())?,
    }
    let mut line = Text::new();
    let style = if picture.finding.is_ok() {
        Style::Good
    } else {
        Style::Bad
    };
    line.line(style, picture.finding.line());
    let line = line.render(colour && args.svg.is_none());
    if args.svg.as_deref() == Some(Path::new("-")) {
        eprint!("{line}");
    } else {
        stdout.write_all(line.as_bytes())?;
    }
    match picture.finding {
        Finding::ValidInput | Finding::Accepted => Ok(Status::Success),
        Finding::InvalidInput(_) | Finding::Rejected(_) => Ok(Status::Rejected),
        Finding::JudgeError(why) => bail!("judge error: {why}"),
    }
}

/// The files as they are, for a problem that does not draw itself.
fn files_text(args: &ShowArgs, input: &[u8], output: Option<&[u8]>) -> Text {
    let mut text = Text::new();
    let files = std::iter::once(("input", args.input.as_path(), input)).chain(
        args.output
            .as_deref()
            .zip(output)
            .map(|(p, o)| ("output", p, o)),
    );
    for (what, path, bytes) in files {
        text.line(Style::Bold, format!("{what} ({}):", path.display()));
        for l in String::from_utf8_lossy(bytes).lines() {
            text.line(Style::Plain, format!("  {l}"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn files_are_printed_when_a_problem_does_not_draw() {
        let args = ShowArgs {
            problem: "p".into(),
            input: PathBuf::from("a.in"),
            output: Some(PathBuf::from("a.out")),
            svg: None,
        };
        let t = files_text(&args, b"1 2\n3\n", Some(b"x\n"));
        assert_eq!(
            t.plain(),
            "input (a.in):\n  1 2\n  3\noutput (a.out):\n  x\n"
        );
    }

    #[test]
    fn the_shipped_problems_draw_themselves() {
        for p in crate::problems::all() {
            assert!(p.draw(b"", None).is_some(), "{}", p.name());
        }
    }
}
