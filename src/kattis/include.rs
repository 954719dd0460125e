//! A package's included files (every format version, as problemtools adds them): the files
//! of `include/<code>/` are added to every submission in the language of that code
//! (`python3`, `cpp`: see [`Language::package_code`]), and to the `solution:` programs of
//! generators.yaml; those of `include/default/` to every submission, under the language's own
//! (a file of the same name replaces them). An included `main.*` of the language is the
//! program's entry point. A file of the same name as one of a folder submission's replaces
//! it; `{{constants}}` in them are replaced, as in validators.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::compile::{self, Language};
use crate::fsutil::{beneath, is_tool_litter};

/// The folders of `include` whose files go with submissions in `language`, in the order
/// they are laid down: `default/`, then the language's own (whose files replace those of the
/// same name), as problemtools does; only those that exist.
pub fn folders_for(include: &Path, language: Language) -> Vec<PathBuf> {
    ["default", language.package_code()]
        .into_iter()
        .map(|name| include.join(name))
        .filter(|dir| dir.is_dir())
        .collect()
}

/// The files added to a submission in `language` of the package in `pkg_dir`, sorted by
/// name, constants replaced, and the one of them that is the program's entry point in place
/// of the submission's own: a source of the language in its own folder named `main.*` (any
/// case), as problemtools takes it (a grader's `main.py` that imports the contestant's
/// module). Hidden files and editor litter are left out; a subfolder is an error (judge
/// places files beside the source only).
pub fn files_for(
    pkg_dir: &Path,
    language: Language,
    constants: &BTreeMap<String, String>,
) -> Result<compile::Included, String> {
    let mut files = BTreeMap::new();
    let mut entry = None;
    for dir in folders_for(&pkg_dir.join("include"), language) {
        let own = dir.file_name() == Some(std::ffi::OsStr::new(language.package_code()));
        for (name, bytes) in folder_files(pkg_dir, &dir, constants)? {
            let main = name.to_ascii_lowercase().starts_with("main.")
                && Language::from_path(Path::new(&name))
                    .is_some_and(|l| l.package_code() == language.package_code());
            if own && main && entry.is_none() {
                entry = Some(name.clone());
            }
            files.insert(name, bytes);
        }
    }
    Ok(compile::Included {
        files: files.into_iter().collect(),
        entry,
    })
}

/// The files of the include folder `dir` (under `pkg_dir`), as `(file name, contents)`.
fn folder_files(
    pkg_dir: &Path,
    dir: &Path,
    constants: &BTreeMap<String, String>,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let rel = dir
        .strip_prefix(pkg_dir)
        .unwrap_or(dir)
        .display()
        .to_string();
    let read = fs::read_dir(dir).map_err(|e| format!("cannot read {rel}: {e}"))?;
    let mut files = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| format!("cannot read {rel}: {e}"))?;
        let name = entry.file_name();
        if is_tool_litter(&name) {
            continue;
        }
        // Read under the package's rule: a link that leads outside the package (to a host
        // file a submission could then read) is an error, never added.
        let in_pkg = dir.strip_prefix(pkg_dir).unwrap_or(dir).join(&name);
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
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::language::lang;

    #[test]
    fn a_language_takes_the_default_folder_then_its_own() {
        let d = tempfile::tempdir().unwrap();
        let include = d.path().join("include");
        assert!(folders_for(&include, lang("cpp")).is_empty());
        fs::create_dir_all(include.join("default")).unwrap();
        fs::create_dir_all(include.join("python3")).unwrap();
        fs::create_dir_all(include.join("python")).unwrap();
        // By the package format's code: judge's `python` and `pypy3` are both `python3`.
        let python = [include.join("default"), include.join("python3")];
        assert_eq!(folders_for(&include, lang("python")), python);
        assert_eq!(folders_for(&include, lang("pypy3")), python);
        assert_eq!(
            folders_for(&include, lang("cpp")),
            [include.join("default")]
        );
    }

    #[test]
    fn own_files_replace_defaults_and_an_own_main_is_the_entry_point() {
        let d = tempfile::tempdir().unwrap();
        let include = d.path().join("include");
        for (file, text) in [
            ("default/shared.txt", "default"),
            ("default/only.txt", "default"),
            ("default/main.py", "print('default')"),
            ("python3/shared.txt", "own"),
            ("python3/Main.py", "import solution"),
            ("cpp/main.cpp", "int main() {}"),
            ("cpp/main.txt", "no source"),
        ] {
            fs::create_dir_all(include.join(file).parent().unwrap()).unwrap();
            fs::write(include.join(file), text).unwrap();
        }
        let none = BTreeMap::new();
        let python = files_for(d.path(), lang("python"), &none).unwrap();
        let names: Vec<&str> = python.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Main.py", "main.py", "only.txt", "shared.txt"]);
        assert_eq!(python.files[3].1, b"own");
        // The entry point comes from the language's own folder, never from default/.
        assert_eq!(python.entry.as_deref(), Some("Main.py"));
        let cpp = files_for(d.path(), lang("cpp"), &none).unwrap();
        assert_eq!(cpp.entry.as_deref(), Some("main.cpp"));
        assert_eq!(
            files_for(d.path(), lang("java"), &none).unwrap().entry,
            None
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
        let files = files_for(d.path(), lang("c"), &constants).unwrap().files;
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
        let files = files_for(&pkg, lang("c"), &none).unwrap().files;
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
