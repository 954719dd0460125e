//! Test names other systems cannot hold: a package is checked out, copied and judged on
//! Windows and macOS too (DOMjudge and Kattis hosts, a setter's laptop), where some names the
//! format allows are reserved or collide. Such a test is graded here, and named in a note
//! (a warning of verify, an error under `--strict`), since elsewhere it is lost or replaced.

use std::collections::BTreeMap;

/// The device names Windows reserves in every folder, whatever follows the first dot
/// (`con.in`, `NUL.ans`, `com1.hint.txt`).
const WINDOWS_DEVICES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// Why the file name `name` cannot be kept on another system, if it cannot.
fn reserved(name: &str) -> Option<String> {
    let base = name.split('.').next().unwrap_or(name);
    if let Some(device) = WINDOWS_DEVICES
        .iter()
        .find(|d| d.eq_ignore_ascii_case(base))
    {
        return Some(format!(
            "a name Windows reserves for a device ({device}): the file cannot be made there"
        ));
    }
    if name.ends_with('.') {
        return Some("a name ending in `.`, which Windows drops".to_string());
    }
    None
}

/// One note per name of a folder (`shown(name)` is how a name is shown) that another
/// system cannot keep as it is: reserved names, and names that differ only in case (one
/// replaces the other on the usual Windows and macOS file systems).
pub(crate) fn notes<'a>(
    names: impl IntoIterator<Item = &'a str>,
    shown: impl Fn(&str) -> String,
) -> Vec<String> {
    let mut notes = Vec::new();
    let mut folded: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for name in names {
        if let Some(why) = reserved(name) {
            notes.push(format!("{}: {why}", shown(name)));
        }
        folded.entry(name.to_lowercase()).or_default().push(name);
    }
    for same in folded.values().filter(|same| same.len() > 1) {
        let list: Vec<String> = same.iter().map(|n| shown(n)).collect();
        notes.push(format!(
            "{}: names that differ only in case: one replaces the other on Windows and macOS",
            list.join(", ")
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(names: &[&str]) -> Vec<String> {
        notes(names.iter().copied(), |n| format!("data/secret/{n}"))
    }

    #[test]
    fn windows_devices_with_any_extension_and_case_are_named() {
        let got = of(&[
            "con.in",
            "NUL.ans",
            "Com1.in",
            "lpt9",
            "console.in",
            "con_1.in",
        ]);
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(
            got[0].starts_with("data/secret/con.in: a name Windows reserves for a device (CON)")
        );
        assert!(got[1].contains("(NUL)"));
        assert!(got[2].contains("(COM1)"));
        assert!(got[3].contains("(LPT9)"));
    }

    #[test]
    fn a_trailing_dot_and_case_clashes_are_named() {
        let got = of(&["a.", "Big.in", "big.in", "big.ans", "c.in"]);
        assert_eq!(
            got,
            [
                "data/secret/a.: a name ending in `.`, which Windows drops",
                "data/secret/Big.in, data/secret/big.in: names that differ only in case: one \
                 replaces the other on Windows and macOS",
            ]
        );
    }

    #[test]
    fn ordinary_names_are_not_named() {
        assert!(of(&["1.in", "1.ans", "group1", "con-1.in", "max_n.in"]).is_empty());
    }
}
