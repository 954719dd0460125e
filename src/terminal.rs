//! Whether output gets colour, and whether live progress is drawn: one rule for every command
//! (`judge show` colours its pictures; `grade`, `verify`, `stress` and `hunt` draw progress
//! bars). clap's colour in `--help` and in usage errors follows the same variables.
//!
//! Colour (ANSI escape codes), for each stream on its own, by the first rule that applies:
//! 1. `NO_COLOR` set and not empty: none (<https://no-color.org>);
//! 2. `CLICOLOR_FORCE` set, not empty and not `0`: colour, even into a pipe or a file
//!    (<https://bixense.com/clicolors/>);
//! 3. `CLICOLOR=0`: none;
//! 4. colour only if the stream is a terminal and `TERM` is not `dumb`.
//!
//! Progress bars (redrawn in place on standard error; they have no colour) only when standard
//! error is a terminal, `TERM` is not `dumb` and `CI` is unset: never into a pipe, a file or a
//! CI log. The colour variables leave them alone.

use std::ffi::OsString;
use std::io::IsTerminal;

/// An output stream of this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        }
    }
}

/// Whether to write colour to `stream` (the rules of the module documentation).
pub fn colour(stream: Stream) -> bool {
    colour_wanted(stream.is_terminal(), &|name| std::env::var_os(name))
}

/// Whether to draw live progress on standard error (the rules of the module documentation).
pub fn progress() -> bool {
    progress_wanted(Stream::Stderr.is_terminal(), &|name| std::env::var_os(name))
}

/// [`colour`] for a stream that is a terminal or not, with the environment read by `var`.
pub fn colour_wanted(is_terminal: bool, var: &dyn Fn(&str) -> Option<OsString>) -> bool {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return false;
    }
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    if var("CLICOLOR").is_some_and(|v| v == "0") {
        return false;
    }
    is_terminal && !dumb(var)
}

/// [`progress`] for a standard error that is a terminal or not, with the environment read by
/// `var`.
pub fn progress_wanted(is_terminal: bool, var: &dyn Fn(&str) -> Option<OsString>) -> bool {
    is_terminal && !dumb(var) && var("CI").is_none()
}

/// `TERM=dumb`: a terminal that cannot move the cursor or show colour.
fn dumb(var: &dyn Fn(&str) -> Option<OsString>) -> bool {
    var("TERM").is_some_and(|t| t == "dumb")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An environment holding exactly `vars`.
    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn colour_follows_no_color_clicolor_and_the_terminal() {
        let xterm = [("TERM", "xterm-256color")];
        /// (is a terminal, environment, colour)
        type Case<'a> = (bool, &'a [(&'a str, &'a str)], bool);
        let cases: &[Case] = &[
            (true, &xterm, true),
            (true, &[], true),
            (false, &xterm, false),
            (true, &[("TERM", "dumb")], false),
            (true, &[("TERM", "xterm"), ("NO_COLOR", "1")], false),
            (true, &[("TERM", "xterm"), ("NO_COLOR", "0")], false),
            // Empty is unset (no-color.org).
            (true, &[("TERM", "xterm"), ("NO_COLOR", "")], true),
            (false, &[("CLICOLOR_FORCE", "1")], true),
            (true, &[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")], true),
            (false, &[("CLICOLOR_FORCE", "0")], false),
            (false, &[("CLICOLOR_FORCE", "")], false),
            // NO_COLOR wins over CLICOLOR_FORCE (as in clap's help).
            (false, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], false),
            (true, &[("TERM", "xterm"), ("CLICOLOR", "0")], false),
            (true, &[("TERM", "xterm"), ("CLICOLOR", "1")], true),
            (false, &[("CLICOLOR", "1")], false),
            // CI changes nothing for colour.
            (true, &[("TERM", "xterm"), ("CI", "true")], true),
        ];
        for (terminal, vars, want) in cases {
            assert_eq!(
                colour_wanted(*terminal, &env(vars)),
                *want,
                "terminal {terminal}, {vars:?}"
            );
        }
    }

    #[test]
    fn progress_needs_a_terminal_that_is_not_dumb_outside_ci() {
        assert!(progress_wanted(true, &env(&[("TERM", "xterm")])));
        assert!(progress_wanted(true, &env(&[])));
        assert!(!progress_wanted(false, &env(&[("TERM", "xterm")])));
        assert!(!progress_wanted(true, &env(&[("TERM", "dumb")])));
        assert!(!progress_wanted(true, &env(&[("CI", "true")])));
        assert!(!progress_wanted(true, &env(&[("CI", "")])));
        // The bars have no colour: the colour variables leave them alone.
        assert!(progress_wanted(true, &env(&[("NO_COLOR", "1")])));
        assert!(!progress_wanted(false, &env(&[("CLICOLOR_FORCE", "1")])));
    }
}
