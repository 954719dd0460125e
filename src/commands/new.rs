//! `judge new <name>`: writes a Kattis / ICPC problem package that `judge verify` passes as
//! written, a worked example to make one's own: the sum of a list, with a byte-strict input
//! validator, invalid inputs it must reject, accepted submissions and two wrong ones (an off
//! by one, a 32-bit overflow that only the largest secret tests catch).
//!
//! The files are the ones under `templates/new/`, built into the binary; `problem.yaml` gets
//! the format version, the title and a fresh UUID. The package is written to a temporary
//! folder beside the target, which then takes the target's name only if nothing has it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::Status;
use crate::cli::{FormatVersion, NewArgs};
use crate::fsutil::{rename_no_replace, TempFolder};
use crate::text::count;

/// One file of the skeleton: its path in the package and its text.
struct Template {
    path: &'static str,
    text: &'static str,
}

macro_rules! templates {
    ($($path:literal),* $(,)?) => {
        &[$(Template {
            path: $path,
            text: include_str!(concat!("../../templates/new/", $path)),
        }),*]
    };
}

/// Every file of a new package (placeholders `{{format_version}}`, `{{title}}`, `{{uuid}}`).
const SKELETON: &[Template] = templates![
    "problem.yaml",
    "statement/problem.en.md",
    "data/sample/1.in",
    "data/sample/1.ans",
    "data/secret/01-single.in",
    "data/secret/01-single.ans",
    "data/secret/02-cancel.in",
    "data/secret/02-cancel.ans",
    "data/secret/03-max.in",
    "data/secret/03-max.ans",
    "data/secret/04-min.in",
    "data/secret/04-min.ans",
    "data/invalid_input/double-space.in",
    "data/invalid_input/leading-zero.in",
    "data/invalid_input/n-too-large.in",
    "data/invalid_input/n-zero.in",
    "data/invalid_input/no-final-newline.in",
    "data/invalid_input/too-few-numbers.in",
    "data/invalid_input/too-large.in",
    "input_validators/validator.py",
    "submissions/accepted/sum.py",
    "submissions/accepted/sum.cpp",
    "submissions/wrong_answer/off_by_one.py",
    "submissions/wrong_answer/int_overflow.cpp",
];

/// A Kattis short name: the package folder's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortName(String);

impl ShortName {
    /// At most this many characters (a file name, with room for the temporary folder's).
    const MAX_LEN: usize = 64;

    pub fn parse(s: &str) -> Result<ShortName, String> {
        let ok = s.len() <= Self::MAX_LEN
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        if ok {
            Ok(ShortName(s.to_string()))
        } else {
            Err(format!(
                "`{}` is not a problem short name: lowercase letters and digits, starting with a letter, at most {} characters",
                s.escape_debug(),
                Self::MAX_LEN
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `sumlist` → `Sumlist`: the title until the setter writes one.
    fn title(&self) -> String {
        let mut t = self.0.clone();
        t[..1].make_ascii_uppercase();
        t
    }
}

/// The files of a package in `version`: 2023-07-draft has no `data/invalid_input/` (the
/// problemtools that reads that draft rejects the folder).
fn files(version: FormatVersion) -> impl Iterator<Item = &'static Template> {
    SKELETON.iter().filter(move |t| {
        version == FormatVersion::V2025_09 || !t.path.starts_with("data/invalid_input/")
    })
}

/// A version 4 (random) UUID, as `problem.yaml` wants one.
fn uuid_v4() -> String {
    let mut b: [u8; 16] = rand::random();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// The text of `t` with the placeholders filled in.
fn render(t: &Template, version: FormatVersion, name: &ShortName, uuid: &str) -> String {
    t.text
        .replace("{{format_version}}", version.as_str())
        .replace("{{title}}", &name.title())
        .replace("{{uuid}}", uuid)
}

/// Writes every file of the package into the empty folder `dir`.
fn fill(dir: &Path, version: FormatVersion, name: &ShortName) -> Result<()> {
    let uuid = uuid_v4();
    for t in files(version) {
        let path = dir.join(t.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, render(t, version, name, &uuid))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

pub fn run(args: NewArgs) -> Result<Status> {
    let name = ShortName::parse(&args.name).map_err(anyhow::Error::msg)?;
    let (parent, target) = match args.dir {
        Some(dir) => (dir.clone(), dir.join(name.as_str())),
        None => (PathBuf::from("."), PathBuf::from(name.as_str())),
    };
    match std::fs::metadata(&parent) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!(
            "cannot create {}: {} is not a folder",
            target.display(),
            parent.display()
        ),
        Err(e) => bail!(
            "cannot create {}: {}: {e}",
            target.display(),
            parent.display()
        ),
    }
    if std::fs::symlink_metadata(&target).is_ok() {
        bail!(
            "{} already exists: judge new writes a new folder only",
            target.display()
        );
    }
    let prefix = format!(".{}.judge-tmp-", name.as_str());
    let tmp = TempFolder::create(&parent, &prefix, 0o755)
        .with_context(|| format!("cannot create {}", target.display()))?;
    fill(tmp.path(), args.format_version, &name)?;
    match rename_no_replace(tmp.path(), &target) {
        Ok(()) => {
            // It lives on as `target`.
            tmp.keep();
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "{} already exists: judge new writes a new folder only",
            target.display()
        ),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot create {}", target.display()));
        }
    }
    let mut out = std::io::stdout().lock();
    out.write_all(summary(&target, args.format_version).as_bytes())?;
    Ok(Status::Success)
}

/// What was written, folder by folder, and what to run next.
fn summary(target: &Path, version: FormatVersion) -> String {
    let mut folders: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut order = Vec::new();
    for t in files(version) {
        let (folder, file) = t.path.rsplit_once('/').unwrap_or(("", t.path));
        if !folders.contains_key(folder) {
            order.push(folder);
        }
        folders.entry(folder).or_default().push(file);
    }
    let mut s = format!(
        "created {}/ (problem_format_version {}): the sum of a list, an example to make your own\n",
        target.display(),
        version.as_str()
    );
    for folder in order {
        let names = &folders[folder];
        let inputs = names.iter().filter(|n| n.ends_with(".in")).count();
        if folder.is_empty() {
            for n in names {
                s.push_str(&format!("  {n}\n"));
            }
            continue;
        }
        let what = match folder {
            "data/invalid_input" => format!("{} the validator must reject", count(inputs, "input")),
            f if f.starts_with("data/") => format!("{} (.in and .ans)", count(inputs, "test")),
            _ => names.join(" "),
        };
        s.push_str(&format!("  {:<26} {what}\n", format!("{folder}/")));
    }
    s.push_str(&format!("next: judge verify {}\n", target.display()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_are_lowercase_letters_and_digits() {
        for ok in ["a", "sumlist", "pair2sum"] {
            assert_eq!(ShortName::parse(ok).unwrap().as_str(), ok);
        }
        for bad in [
            "", "2sum", "Sum", "sum-list", "sum_list", "../x", "a/b", ".x", "sümme", "x ",
        ] {
            assert!(ShortName::parse(bad).is_err(), "{bad:?}");
        }
        assert!(ShortName::parse(&"a".repeat(64)).is_ok());
        assert!(ShortName::parse(&"a".repeat(65)).is_err());
        assert_eq!(ShortName::parse("sumlist").unwrap().title(), "Sumlist");
    }

    #[test]
    fn uuids_are_version_4() {
        let u = uuid_v4();
        assert_eq!(u.len(), 36);
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'), "{u}");
        assert!("89ab".contains(&parts[3][..1]), "{u}");
        assert!(u.chars().all(|c| c == '-' || c.is_ascii_hexdigit()));
        assert_ne!(uuid_v4(), u);
    }

    #[test]
    fn every_placeholder_is_filled() {
        let name = ShortName::parse("x").unwrap();
        for version in [FormatVersion::V2025_09, FormatVersion::V2023_07Draft] {
            for t in files(version) {
                let text = render(t, version, &name, "u");
                assert!(!text.contains("{{"), "{}", t.path);
            }
        }
        let yaml = render(&SKELETON[0], FormatVersion::V2025_09, &name, "u");
        assert!(yaml.contains("problem_format_version: 2025-09\n"), "{yaml}");
        assert!(
            yaml.contains("name: X\n") && yaml.contains("uuid: u\n"),
            "{yaml}"
        );
    }

    #[test]
    fn the_draft_has_no_invalid_inputs() {
        let draft: Vec<&str> = files(FormatVersion::V2023_07Draft)
            .map(|t| t.path)
            .collect();
        assert!(draft.iter().all(|p| !p.contains("invalid_input")));
        assert_eq!(
            files(FormatVersion::V2025_09).count(),
            draft.len() + 7,
            "seven invalid inputs in 2025-09"
        );
    }
}
