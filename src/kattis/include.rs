//! A package's included files (every format version, as problemtools adds them): the files
//! of `include/<code>/` are added to every submission in the language of that code
//! (`python3`, `cpp`: see [`Language::package_code`]), and to the `solution:` programs of
//! generators.yaml; those of `include/default/` to every submission of a language without a
//! folder of its own. A file of the same name as one of a folder
//! submission's replaces it; `{{constants}}` in them are replaced, as in validators.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::compile::Language;
use crate::fsutil::{beneath, is_tool_litter};

/// The folder of `include` whose files go with submissions in `language`: its own, else
/// `default/`; `None` when neither exists.
pub fn folder_for(include: &Path, language: Language) -> Option<PathBuf> {
    [language.package_code(), "default"]
        .into_iter()
        .map(|name| include.join(name))
        .find(|dir| dir.is_dir())
}

/// The files added to a submission in `language` of the package in `pkg_dir`, as `(file
/// name, contents)` sorted by name, constants replaced. Hidden files and editor litter are
/// left out; a subfolder is an error (judge places files beside the source only).
pub fn files_for(
    pkg_dir: &Path,
    language: Language,
    constants: &BTreeMap<String, String>,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let Some(dir) = folder_for(&pkg_dir.join("include"), language) else {
        return Ok(Vec::new());
    };
    let rel = dir
        .strip_prefix(pkg_dir)
        .unwrap_or(&dir)
        .display()
        .to_string();
    let read = fs::read_dir(&dir).map_err(|e| format!("cannot read {rel}: {e}"))?;
    let mut files = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| format!("cannot read {rel}: {e}"))?;
        let name = entry.file_name();
        if is_tool_litter(&name) {
            continue;
        }
        // Read under the package's rule: a link that leads outside the package (to a host
        // file a submission could then read) is an error, never added.
        let in_pkg = dir.strip_prefix(pkg_dir).unwrap_or(&dir).join(&name);
        let (_, kind) =
            beneath::kind_beneath(pkg_dir, &in_pkg, "the package").map_err(|e| e.to_string())?;
        let name = name.to_string_lossy().into_owned();
        if kind == beneath::Kind::Folder {
            return Err(format!(
                "{rel}/{name}: a folder; judge adds the files of {rel} to submissions, not folders"
            ));
        }
        let bytes = beneath::read_beneath(pkg_dir, &in_pkg, beneath::DATA_CAP, "the package")
            .map_err(|e| e.to_string())?;
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => super::programs::substitute_constants(&text, constants).into_bytes(),
            Err(e) => e.into_bytes(),
        };
        files.push((name, bytes));
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::language::lang;

    #[test]
    fn a_language_takes_its_own_folder_else_the_default() {
        let d = tempfile::tempdir().unwrap();
        let include = d.path().join("include");
        assert_eq!(folder_for(&include, lang("cpp")), None);
        fs::create_dir_all(include.join("default")).unwrap();
        fs::create_dir_all(include.join("python3")).unwrap();
        fs::create_dir_all(include.join("python")).unwrap();
        // By the package format's code: judge's `python` and `pypy3` are both `python3`.
        assert_eq!(
            folder_for(&include, lang("python")),
            Some(include.join("python3"))
        );
        assert_eq!(
            folder_for(&include, lang("pypy3")),
            Some(include.join("python3"))
        );
        assert_eq!(
            folder_for(&include, lang("cpp")),
            Some(include.join("default"))
        );
        fs::create_dir_all(include.join("cpp")).unwrap();
        assert_eq!(folder_for(&include, lang("cpp")), Some(include.join("cpp")));
        assert_eq!(
            folder_for(&include, lang("c")),
            Some(include.join("default"))
        );
    }

    #[test]
    fn included_files_are_read_with_constants_replaced() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("include/default");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("data.txt"), "{{k}} {{other}}\n").unwrap();
        fs::write(dir.join(".hidden"), "x").unwrap();
        fs::write(dir.join("bytes.bin"), [0xff, 0x00]).unwrap();
        let constants = BTreeMap::from([("k".to_string(), "7".to_string())]);
        let files = files_for(d.path(), lang("c"), &constants).unwrap();
        assert_eq!(
            files,
            [
                ("bytes.bin".to_string(), vec![0xff, 0x00]),
                ("data.txt".to_string(), b"7 {{other}}\n".to_vec()),
            ]
        );
        fs::create_dir(dir.join("sub")).unwrap();
        let err = files_for(d.path(), lang("c"), &constants).unwrap_err();
        assert!(err.contains("include/default/sub: a folder"), "{err}");
    }

    #[test]
    fn a_link_inside_the_package_is_added_one_leading_outside_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        let pkg = d.path().join("pkg");
        let dir = pkg.join("include/default");
        fs::create_dir_all(&dir).unwrap();
        fs::write(pkg.join("shared.h"), "int x;\n").unwrap();
        std::os::unix::fs::symlink("../../shared.h", dir.join("shared.h")).unwrap();
        let none = BTreeMap::new();
        let files = files_for(&pkg, lang("c"), &none).unwrap();
        assert_eq!(files, [("shared.h".to_string(), b"int x;\n".to_vec())]);
        fs::write(d.path().join("host.txt"), "HOST\n").unwrap();
        std::os::unix::fs::symlink(d.path().join("host.txt"), dir.join("host.txt")).unwrap();
        let err = files_for(&pkg, lang("c"), &none).unwrap_err();
        assert_eq!(
            err,
            "include/default/host.txt: a link that leads outside the package (links must stay inside it)"
        );
    }
}
