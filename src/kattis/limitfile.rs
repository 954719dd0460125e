//! The time limit files DOMjudge reads beside a package: `domjudge-problem.ini`'s `timelimit`
//! key, else a `.timelimit` file at the root (written by BAPCtools and problemtools'
//! workflows, and by `judge export`). judge takes them as a fixed time limit where
//! `problem.yaml` gives none, as DOMjudge and BAPCtools do (problemtools ignores them and
//! computes one).

use std::path::Path;

use crate::fsutil::beneath;

/// The time limit in seconds the files in `dir` give, and the file that gave it; `Ok(None)`
/// when there is none; `Err` names a file that does not hold one positive number, or one
/// that breaks the package's rule (a link leading outside it, not a regular file).
pub fn read(dir: &Path) -> Result<Option<(f64, &'static str)>, String> {
    if let Some(text) = package_file(dir, "domjudge-problem.ini")? {
        if let Some(value) = ini_value(&text, "timelimit") {
            return seconds(&value)
                .map(|s| Some((s, "domjudge-problem.ini")))
                .ok_or_else(|| {
                    format!(
                        "{}: timelimit `{value}` is not a positive number",
                        dir.join("domjudge-problem.ini").display()
                    )
                });
        }
    }
    let Some(text) = package_file(dir, ".timelimit")? else {
        return Ok(None);
    };
    seconds(text.trim())
        .map(|s| Some((s, ".timelimit")))
        .ok_or_else(|| {
            let shown: String = text.trim().chars().take(40).collect();
            format!(
                "{}: `{}` is not a time limit (one positive number of seconds)",
                dir.join(".timelimit").display(),
                shown.escape_debug()
            )
        })
}

/// The text of the file `name` of the package `dir`, read under the package's rule
/// ([`beneath`]); `None` when there is none.
fn package_file(dir: &Path, name: &str) -> Result<Option<String>, String> {
    let bytes = beneath::read_if_present(dir, Path::new(name), beneath::SMALL_CAP, "the package")
        .map_err(|e| e.to_string())?;
    Ok(bytes.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

/// The value of `key` in an ini file's lines `key = value` (quotes around it removed).
fn ini_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches(['\'', '"']).trim().to_string())
    })
}

fn seconds(text: &str) -> Option<f64> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 3600.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ini_wins_over_the_timelimit_file() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(read(d.path()), Ok(None));
        std::fs::write(d.path().join(".timelimit"), "2.5\n").unwrap();
        assert_eq!(read(d.path()), Ok(Some((2.5, ".timelimit"))));
        std::fs::write(
            d.path().join("domjudge-problem.ini"),
            "name='Hello'\ntimelimit = '3'\n",
        )
        .unwrap();
        assert_eq!(read(d.path()), Ok(Some((3.0, "domjudge-problem.ini"))));
        // An ini without the key leaves it to .timelimit.
        std::fs::write(d.path().join("domjudge-problem.ini"), "name=x\n").unwrap();
        assert_eq!(read(d.path()), Ok(Some((2.5, ".timelimit"))));
        for bad in ["", "fast", "-1", "0", "inf"] {
            std::fs::write(d.path().join(".timelimit"), bad).unwrap();
            let e = read(d.path()).unwrap_err();
            assert!(e.contains(".timelimit: `"), "{e}");
        }
        std::fs::write(d.path().join("domjudge-problem.ini"), "timelimit=soon\n").unwrap();
        let e = read(d.path()).unwrap_err();
        assert!(
            e.contains("timelimit `soon` is not a positive number"),
            "{e}"
        );
    }
}
