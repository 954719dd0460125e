//! `judge export --zip` against DOMjudge's problem importer. DOMjudge cannot run here (its PHP
//! dependencies come from Packagist), so each rule its importer applies to a zip is checked on
//! the exported zips of both built-in problems in every `--format` (the importer reads no
//! `problem_format_version`: it reads each version through the same rules), read with an
//! independent reader (python3's `zipfile`, plus libzip's consistency checks redone on the raw
//! bytes).
//!
//! The rules are read from DOMjudge's source at commit
//! a023fd3ec375f6baec9a1293dfd2ba12c76a51b2 (2026-04-24, 10.0.0DEV; `git describe`
//! 8.3.0-1173-ga023fd3ec), checked against the 9.0.0 release (d8c018e4c) where they differ.
//! Files (all under `webapp/src/` unless said otherwise):
//!
//! - `Service/ImportProblemService.php`: `importZippedProblem`, `parseYaml`,
//!   `searchAndAddValidator`, `parseTestCaseGroupMeta` (called from
//!   `Controller/Jury/ImportExportController.php`, `Controller/Jury/ProblemController.php` and
//!   `importProblemFromRequest` for the API);
//! - `Service/DOMJudgeService.php`: `openZipFile`, `getAllowedLanguagesForContest`;
//! - `Service/SubmissionService.php`: `submitSolution`, `normalizeExpectedResult`,
//!   `parseExpectedAnnotation`, `FILENAME_REGEX`, `PROBLEM_RESULT_REMAP`;
//! - `Entity/Problem.php` (constraints, `setTypesAsString`), `Utils/Utils.php`
//!   (`detectTestcaseEncoding`, `roundedFloat`), `DataFixtures/DefaultData/LanguageFixture.php`,
//!   `etc/db-config.yaml` (`sourcesize_limit`, `sourcefiles_limit`);
//! - `judge/judgedaemon.main.php` (`fetchExecutableInternal`) and `judge/build_executable.sh`
//!   for what the judgehost does with the output validator;
//! - libzip (nih-at/libzip 4cd731076f4a, `lib/zip_open.c`: `_zip_checkcons`, `_zip_headercomp`,
//!   `check_eocd`, `_zip_read_cdir`; `lib/zip_dirent.c`: `zip_dirent_check_consistency`), which
//!   PHP's `ZipArchive::open(..., ZipArchive::CHECKCONS)` runs.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::judge;

const PROBLEMS: [(&str, &str); 2] = [
    ("magic-square", "magicsquare"),
    ("dodecahedron", "dodecahedron"),
];

/// The `--format` values (`judge export --help`); `legacy` is the default.
const FORMATS: [&str; 3] = ["legacy", "2023-07", "2025-09"];

/// An exported zip as an independent reader saw it.
struct Zip {
    /// The `--format` it was written in.
    format: &'static str,
    /// Entry names in central-directory order (DOMjudge's `$zipEntries`).
    names: Vec<String>,
    /// Unix mode of each entry.
    modes: BTreeMap<String, u32>,
    /// Where python's `zipfile` extracted it.
    dir: PathBuf,
    /// What the libzip consistency checks found wrong.
    inconsistencies: Vec<String>,
    _tmp: tempfile::TempDir,
}

impl Zip {
    fn has(&self, name: &str) -> bool {
        self.modes.contains_key(name)
    }

    fn text(&self, name: &str) -> String {
        String::from_utf8(self.bytes(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn bytes(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

/// The reader: libzip's `ZIP_CHECKCONS` checks on the raw bytes (`_zip_read_cdir`,
/// `check_eocd`, `_zip_checkcons`, `_zip_headercomp`, `zip_dirent_check_consistency`), then
/// `zipfile` lists, tests (CRC) and extracts the archive.
const READER: &str = r#"
import json, struct, sys, zipfile
path, out = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
bad = []
eocd = data.rfind(b'PK\x05\x06')
(_, disk, cd_disk, disk_entries, count, cd_size, cd_offset, comment_len) = \
    struct.unpack('<IHHHHIIH', data[eocd:eocd + 22])
if eocd + 22 + comment_len != len(data):
    bad.append('the end record is not at the end (comment length)')
if disk or cd_disk or disk_entries != count:
    bad.append('multi-disk archive')
if cd_offset + cd_size != eocd:
    bad.append('the central directory does not end at the end record')
pos, central = cd_offset, []
for i in range(count):
    f = struct.unpack('<IHHHHHHIIIHHHHHII', data[pos:pos + 46])
    if f[0] != 0x02014b50:
        bad.append(f'central entry {i}: bad signature')
        break
    nlen, xlen, clen = f[10], f[11], f[12]
    central.append((f, data[pos + 46:pos + 46 + nlen]))
    pos += 46 + nlen + xlen + clen
if pos != cd_offset + cd_size:
    bad.append('central directory size or entry count is wrong')
for (f, name) in central:
    (_, _, need, flags, method, time, date, crc, csize, usize, nlen, _, _, _, _, _, off) = f
    who = name.decode('utf-8', 'replace')
    (sig, lneed, lflags, lmethod, ltime, ldate, lcrc, lcsize, lusize, lnlen, _) = \
        struct.unpack('<IHHHHHIIIHH', data[off:off + 30])
    if sig != 0x04034b50:
        bad.append(f'{who}: no local header at its offset')
        continue
    lname = data[off + 30:off + 30 + lnlen]
    if need < lneed or method != lmethod or time != ltime or date != ldate or name != lname:
        bad.append(f'{who}: local header differs from the central one')
    if (crc, csize, usize) != (lcrc, lcsize, lusize) and not (lflags & 8):
        bad.append(f'{who}: CRC or sizes differ between local and central header')
    if off + 30 + nlen + csize > cd_offset:
        bad.append(f'{who}: data runs into the central directory')
    if method == 0 and csize != usize:
        bad.append(f'{who}: stored entry with different sizes')
    if b'\0' in name:
        bad.append(f'{who}: NUL in the name')
    if flags & 0x800:
        try:
            name.decode('utf-8')
        except UnicodeDecodeError:
            bad.append(f'{who}: UTF-8 flag on a name that is not UTF-8')
z = zipfile.ZipFile(path)
broken = z.testzip()
if broken is not None:
    bad.append(f'{broken}: CRC mismatch')
entries = [[i.filename, i.external_attr >> 16] for i in z.infolist()]
z.extractall(out)
print(json.dumps({'bad': bad, 'entries': entries}))
"#;

/// Exports `problem` with `--zip --format <format>` as `<short>.zip` and reads it back; `None`
/// (skipped) without `/usr/bin/python3`, which CI must have.
fn export(problem: &str, short: &str, format: &'static str) -> Option<Zip> {
    let python = Path::new("/usr/bin/python3");
    if !common::require(
        python.is_file(),
        "/usr/bin/python3 is needed to read the zip",
    ) {
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let zip = tmp.path().join(format!("{short}.zip"));
    let out = tmp.path().join("extracted");
    judge(&[
        "export",
        problem,
        "--out",
        zip.to_str().unwrap(),
        "--zip",
        "--format",
        format,
    ])
    .assert_code(0);
    let run = Command::new(python)
        .args(["-c", READER, zip.to_str().unwrap(), out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    #[derive(serde::Deserialize)]
    struct Read {
        bad: Vec<String>,
        entries: Vec<(String, u32)>,
    }
    let read: Read = serde_json::from_slice(&run.stdout).unwrap();
    Some(Zip {
        format,
        names: read.entries.iter().map(|e| e.0.clone()).collect(),
        modes: read.entries.into_iter().collect(),
        dir: out,
        inconsistencies: read.bad,
        _tmp: tmp,
    })
}

/// Both problems' zips in every format, with their problem and short names.
fn zips() -> Vec<(&'static str, &'static str, Zip)> {
    FORMATS
        .iter()
        .flat_map(|&f| PROBLEMS.iter().map(move |&(p, s)| (f, p, s)))
        .filter_map(|(f, p, s)| export(p, s, f).map(|z| (p, s, z)))
        .collect()
}

/// `DOMJudgeService::openZipFile` opens the upload with `ZipArchive::CHECKCONS`: libzip's
/// consistency checks must pass or the import stops ("ZIP archive is inconsistent"). Names are
/// taken as they are, so the package must sit at the root (`$zip->getFromName('problem.yaml')`
/// in `importZippedProblem`), with no directory entries needed.
#[test]
fn the_zip_passes_libzips_consistency_check_and_holds_the_package_at_its_root() {
    for (problem, _, zip) in zips() {
        assert!(
            zip.inconsistencies.is_empty(),
            "{problem}: {:?}",
            zip.inconsistencies
        );
        assert!(zip.has("problem.yaml"), "{problem}: {:?}", zip.names);
        let distinct: BTreeSet<&String> = zip.names.iter().collect();
        assert_eq!(
            distinct.len(),
            zip.names.len(),
            "{problem}: duplicate names"
        );
        for name in &zip.names {
            assert!(
                !name.starts_with('/') && !name.split('/').any(|c| c == ".." || c.is_empty()),
                "{problem}: {name}"
            );
        }
    }
}

/// `importZippedProblem` and `parseYaml`: how `problem.yaml` (and the files that compete with
/// it) become the problem's settings, and what makes the import stop.
#[test]
fn problem_yaml_reads_as_domjudge_reads_it() {
    for (problem, short, zip) in zips() {
        // `importZippedProblem`: the external id and contest short name come from the zip's
        // name with everything outside [a-zA-Z0-9-_] removed; empty is an exception, and it
        // must match `DOMJudgeService::EXTERNAL_IDENTIFIER_REGEX` (`Entity/Problem.php`
        // `#[AppAssert\Identifier]`).
        let external_id: String = short
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        assert_eq!(external_id, short, "{problem}");

        // `importZippedProblem`: `domjudge-problem.ini` keys would override problem.yaml
        // (name, timelimit, special_compare, ...); the export writes none.
        assert!(!zip.has("domjudge-problem.ini"), "{problem}");

        let text = zip.text("problem.yaml");
        let yaml: yaml_serde::Value = yaml_serde::from_str(&text)
            .unwrap_or_else(|e| panic!("{problem}: problem.yaml: {e}\n{text}"));
        let map = yaml.as_mapping().expect("problem.yaml is a mapping");
        let get = |k: &str| map.get(yaml_serde::Value::from(k));

        // `parseYaml`: `name` is a string, or a map of languages (then `en` or the first).
        // `Entity/Problem.php`: `#[Assert\NotBlank]`, a 255-character column.
        let name = get("name")
            .and_then(|v| v.as_str())
            .expect("name: a string");
        assert!(
            !name.trim().is_empty() && name.chars().count() <= 255,
            "{problem}: {name:?}"
        );

        // `parseYaml`: `type` is split on spaces and each word must be one of
        // `Entity/Problem.php` `typesToString` (`setTypesAsString` throws otherwise);
        // `setTypes` wants exactly one of pass-fail / scoring. `interactive` (or `validation:
        // custom interactive`) would make the output validator a run script; the export's is a
        // compare script.
        let types: Vec<&str> = get("type")
            .map(|v| v.as_str().expect("type: a string").split(' ').collect())
            .unwrap_or_else(|| vec!["pass-fail"]);
        for t in &types {
            assert!(
                [
                    "pass-fail",
                    "scoring",
                    "multi-pass",
                    "interactive",
                    "submit-answer"
                ]
                .contains(t),
                "{problem}: type {t}"
            );
        }
        assert_eq!(types, ["pass-fail"], "{problem}");
        // `parseYaml`: `validation` matters only as `custom`, `custom interactive` or `custom
        // multi-pass` (the last two would make the validator a run script); `custom` (legacy's
        // word for the output validator the package brings) keeps it a compare script;
        // `validator_flags` becomes the compare script's arguments.
        let validation = get("validation").map(|v| v.as_str().expect("validation: a string"));
        let want = (zip.format == "legacy").then_some("custom");
        assert_eq!(validation, want, "{problem} ({})", zip.format);
        assert!(get("validator_flags").is_none(), "{problem}");

        // `parseYaml`: `limits.time_limit` (since cb3c7b2e9, 2026-02-07: not in 9.0.x) →
        // seconds; `limits.memory` and `limits.output` (MiB) × 1024 → kB, set through
        // `setMemlimit(?int)` / `setOutputlimit(?int)`. `Entity/Problem.php`: each
        // `#[Assert\GreaterThan(0)]`.
        let limits = get("limits").and_then(|v| v.as_mapping()).expect("limits");
        let limit = |k: &str| limits.get(yaml_serde::Value::from(k));
        // Legacy has no `limits.time_limit`: `.timelimit` is its time limit.
        let time = limit("time_limit").map(|v| v.as_f64().expect("limits.time_limit: a number"));
        assert_eq!(
            time.is_some(),
            zip.format != "legacy",
            "{problem} ({})",
            zip.format
        );
        assert!(time.is_none_or(|t| t > 0.0), "{problem}: {time:?}");
        for key in ["memory", "output"] {
            let v = limit(key)
                .and_then(|v| v.as_u64())
                .unwrap_or_else(|| panic!("{problem}: limits.{key}: a positive integer"));
            assert!(v > 0, "{problem}: limits.{key}");
        }

        // `importZippedProblem`: `.timelimit` is the only time limit DOMjudge 9.0.x reads from
        // a package without `domjudge-problem.ini` (a new problem gets 10 s otherwise); at the
        // commit read it must be numeric and equal `Problem::getTimelimit()` after
        // `parseYaml`, which is `Utils::roundedFloat` (three decimals, truncated) of
        // `limits.time_limit`, within 1e-9, or the import stops ("Conflicting time limits").
        // 2025-09 has no `.timelimit` (BAPCtools, its reader, calls the file deprecated):
        // imported into DOMjudge 9.0 it gets 10 s; the legacy default is the export for it.
        assert_eq!(
            zip.has(".timelimit"),
            zip.format != "2025-09",
            "{problem} ({}): .timelimit",
            zip.format
        );
        if !zip.has(".timelimit") {
            continue;
        }
        let timelimit = zip.text(".timelimit");
        let tle: f64 = timelimit
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{problem}: .timelimit {timelimit:?}"));
        assert!(tle > 0.0, "{problem}: .timelimit {tle}");
        if let Some(time) = time {
            let rounded = (time * 1000.0 + 1e-9).floor() / 1000.0;
            assert!(
                (rounded - tle).abs() <= 1e-9,
                "{problem}: .timelimit {tle} vs time_limit {time} (DOMjudge keeps {rounded:.3})"
            );
        }
    }
}

/// `searchAndAddValidator`: every entry whose name starts with `output_validators/` or
/// `output_validator` (no slash: `output_validator/` and `output_validators/` both) is one
/// file of the output validator; they must all lie in the first one's folder ("Found multiple
/// custom output validators" stops the import), and they are copied flat by basename (a
/// subfolder would be flattened, equal basenames would overwrite each other). `build` and
/// `run` are made executable. `judgedaemon.main.php` `fetchExecutableInternal` and
/// `build_executable.sh` then run `build` (in the judgehost chroot) and want an executable
/// `run`.
#[test]
fn the_output_validator_is_one_flat_folder_with_a_build_script() {
    for (problem, short, zip) in zips() {
        let files: Vec<&String> = zip
            .names
            .iter()
            .filter(|n| n.starts_with("output_validator"))
            .collect();
        assert!(!files.is_empty(), "{problem}: no output validator");
        let folder = &files[0][..=files[0].rfind('/').unwrap()];
        let mut basenames = BTreeSet::new();
        for f in &files {
            assert!(
                f.starts_with(folder) && !f[folder.len()..].contains('/'),
                "{problem}: {f} is not directly in {folder}"
            );
            assert!(basenames.insert(&f[folder.len()..]), "{problem}: {f} twice");
        }
        assert!(basenames.contains("build"), "{problem}: {basenames:?}");
        let build = zip.text(&format!("{folder}build"));
        assert!(build.starts_with("#!/bin/sh\n"), "{problem}: {build}");
        assert!(build.contains("-o run"), "{problem}: {build}");
        // The executable's id is `substr($externalId, 0, 20) . '_cmp'`.
        assert!(!short.is_empty() && short.len() <= 20);
    }
}

/// The `sample` then `secret` loop of `importZippedProblem`: a test is a `data/<type>/…/X.in`
/// with `X.ans` beside it (an `.in` alone is dropped without a word); samples are ranked
/// first, then secret tests in `asort(SORT_STRING)` order of their path; `.desc` becomes the
/// description; images (`.png`, `.jpg`, `.jpeg`, `.gif`, `.svg`) are read; nothing else under
/// `data/` is (so `data/invalid_input/` of the 2025-09 export is left out, as it should be). `\r` and a BOM or
/// invalid UTF-8 (`Utils::detectTestcaseEncoding`) give warnings. `test_group.yaml` /
/// `testdata.yaml` under `data/` must parse (`parseTestCaseGroupMeta`) or the import stops.
/// No test at all disables submitting.
#[test]
fn every_test_imports_and_runs_in_the_exported_order() {
    for (problem, _, zip) in zips() {
        for kind in ["sample", "secret"] {
            let prefix = format!("data/{kind}/");
            let files: Vec<&String> = zip
                .names
                .iter()
                .filter(|n| n.starts_with(&prefix))
                .collect();
            let mut tests = Vec::new();
            for f in &files {
                let (base, ext) = f.rsplit_once('.').unwrap_or((f, ""));
                match ext {
                    "in" => {
                        assert!(
                            zip.has(&format!("{base}.ans")),
                            "{problem}: {f} has no .ans"
                        );
                        tests.push(base[prefix.len()..].to_string());
                    }
                    "ans" | "desc" => {
                        assert!(zip.has(&format!("{base}.in")), "{problem}: {f} has no .in");
                    }
                    _ => panic!("{problem}: {f}: DOMjudge does not read it"),
                }
                if ext == "in" || ext == "ans" {
                    let bytes = zip.bytes(f);
                    assert!(!bytes.contains(&b'\r'), "{problem}: {f}: Windows newlines");
                    assert!(!bytes.starts_with(b"\xEF\xBB\xBF"), "{problem}: {f}: BOM");
                    assert!(std::str::from_utf8(&bytes).is_ok(), "{problem}: {f}: UTF-8");
                }
            }
            assert!(!tests.is_empty(), "{problem}: no {kind} test");
            // DOMjudge's rank order is the string order of the names; the harness's order is
            // the number in front of each name (secret) or the number itself (sample).
            let mut ranked = tests.clone();
            ranked.sort();
            let number = |t: &String| -> u64 {
                let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
                digits
                    .parse()
                    .unwrap_or_else(|_| panic!("{problem}: {kind} test {t} is not numbered"))
            };
            let numbers: Vec<u64> = ranked.iter().map(number).collect();
            let expected: Vec<u64> = (1..=ranked.len() as u64).collect();
            assert_eq!(numbers, expected, "{problem}: {kind} order {ranked:?}");
        }
        for name in &zip.names {
            assert!(
                !name.ends_with("/test_group.yaml") && !name.ends_with("/testdata.yaml"),
                "{problem}: {name}"
            );
        }
        assert_eq!(
            zip.names
                .iter()
                .any(|n| n.starts_with("data/invalid_input/")),
            zip.format == "2025-09",
            "{problem} ({}): the invalid inputs are exported in 2025-09 only (DOMjudge leaves them out)",
            zip.format
        );
    }
}

/// The statement part of `importZippedProblem`: the first of `problem_statement/problem.pdf`,
/// `.html`, `.txt`, then `problem.pdf`, `.html`, `.txt` at the root is the statement (type =
/// extension, served as `text/html` by `Utils::getTextStreamedResponse`); `statement/` is not
/// read at all. The export's `problem.html` must be that file and hold the whole statement.
#[test]
fn the_statement_is_one_domjudge_reads() {
    for (problem, _, zip) in zips() {
        let candidates = [
            "problem_statement/problem.pdf",
            "problem_statement/problem.html",
            "problem_statement/problem.txt",
            "problem.pdf",
            "problem.html",
            "problem.txt",
        ];
        let found = candidates.iter().find(|c| zip.has(c));
        let top: Vec<&String> = zip.names.iter().filter(|n| !n.contains('/')).collect();
        assert_eq!(
            found,
            Some(&"problem.html"),
            "{problem}: root files {top:?}"
        );
        let html = zip.text("problem.html");
        assert!(html.starts_with("<!DOCTYPE html>"), "{problem}");
        assert!(html.contains("<meta charset=\"utf-8\">"), "{problem}");
        // Every element opened is closed.
        for tag in [
            "p", "h1", "h2", "h3", "ul", "ol", "li", "table", "tr", "th", "td", "pre", "code",
            "em", "strong", "span", "i", "sub", "sup",
        ] {
            let open = html.matches(&format!("<{tag}>")).count()
                + html.matches(&format!("<{tag} ")).count();
            let close = html.matches(&format!("</{tag}>")).count();
            assert_eq!(open, close, "{problem}: <{tag}>\n{html}");
        }
        // The statement's title (problem.yaml's name), every section and every printed sample.
        let source = std::fs::read_to_string(
            common::root()
                .join("problems")
                .join(problem)
                .join("statement.md"),
        )
        .unwrap();
        let yaml = zip.text("problem.yaml");
        let title = yaml
            .lines()
            .find_map(|l| l.strip_prefix("name: "))
            .unwrap()
            .trim_matches('"');
        assert!(html.contains(&format!("<h1>{title}</h1>")), "{problem}");
        for line in source.lines().skip(1) {
            if let Some(h) = line.strip_prefix("## ") {
                assert!(html.contains(&format!("<h2>{h}</h2>")), "{problem}: {h}");
            }
        }
        for sample in zip.names.iter().filter(|n| n.starts_with("data/sample/")) {
            if sample.ends_with(".in") || sample.ends_with(".ans") {
                let text = zip
                    .text(sample)
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;");
                assert!(
                    html.contains(&format!("<pre><code>{text}</code></pre>")),
                    "{problem}: {sample} is not printed"
                );
            }
        }
        // All math was rendered: no `$` and no TeX command left outside code.
        let mut prose = String::new();
        for (k, part) in html.split("<code>").enumerate() {
            prose.push_str(if k == 0 {
                part
            } else {
                part.split_once("</code>").map_or("", |p| p.1)
            });
        }
        assert!(!prose.contains('$'), "{problem}: unrendered math");
        assert!(
            !prose
                .split('\\')
                .skip(1)
                .any(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic())),
            "{problem}: a TeX command was left as written"
        );
    }
}

/// DOMjudge's default languages (`DataFixtures/DefaultData/LanguageFixture.php`): external
/// id, extensions, whether submitting is allowed out of the box (`allow_submit`, which
/// `DOMJudgeService::getAllowedLanguagesForContest` filters on when the contest lists no
/// languages).
const LANGUAGES: &[(&str, &[&str], bool)] = &[
    ("ada", &["adb", "ads"], false),
    ("awk", &["awk"], false),
    ("bash", &["bash"], false),
    ("c", &["c"], true),
    ("cpp", &["cpp", "cc", "cxx", "c++"], true),
    ("csharp", &["csharp", "cs"], false),
    ("f95", &["f95", "f90"], false),
    ("golang", &["go"], false),
    ("haskell", &["hs", "lhs"], false),
    ("java", &["java"], true),
    ("javascript", &["js", "mjs"], false),
    ("lua", &["lua"], false),
    ("kotlin", &["kt"], false),
    ("pascal", &["pas", "p"], false),
    ("pl", &["pl"], false),
    ("prolog", &["plg"], false),
    ("python3", &["py"], true),
    ("ocaml", &["ml"], false),
    ("r", &["R"], false),
    ("ruby", &["rb"], false),
    ("rust", &["rs"], false),
    ("scala", &["scala"], false),
    ("sh", &["sh"], false),
    ("swift", &["swift"], false),
];

/// The jury-submission loop of `importZippedProblem` and `SubmissionService::submitSolution`:
/// `submissions/<folder>/<file>` is one submission (`submissions/<folder>/<dir>/` with a
/// directory entry is a multi-file one; anything else under `submissions/` is skipped without
/// a word); the language is the first allowed language listing the file's extension (none:
/// "unknown language", skipped); the expected result is the folder name upper-cased through
/// `normalizeExpectedResult` (`PROBLEM_RESULT_REMAP`); the file name must match
/// `FILENAME_REGEX`, the size `sourcesize_limit` (256 kB), and more than one
/// `@EXPECTED_RESULTS@: ` / `@EXPECTED_SCORE@: ` in a file (`parseExpectedAnnotation`) makes
/// `submitSolution` refuse it. `submissions.json` would override language and team.
#[test]
fn every_jury_submission_imports_with_its_folders_expected_result() {
    let remap: BTreeMap<&str, &str> = [
        ("ACCEPTED", "CORRECT"),
        ("WRONG_ANSWER", "WRONG-ANSWER"),
        ("TIME_LIMIT_EXCEEDED", "TIMELIMIT"),
        ("RUN_TIME_ERROR", "RUN-ERROR"),
        ("COMPILER_ERROR", "COMPILER-ERROR"),
        ("NO_OUTPUT", "NO-OUTPUT"),
        ("OUTPUT_LIMIT", "OUTPUT-LIMIT"),
    ]
    .into_iter()
    .collect();
    let filename_ok = |name: &str| {
        let mut bytes = name.bytes();
        bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b"+_.-".contains(&b))
    };
    let mut needs_enabling = BTreeSet::new();
    for (problem, _, zip) in zips() {
        assert!(!zip.has("submissions.json"), "{problem}");
        let mut imported = Vec::new();
        for path in zip.names.iter().filter(|n| n.starts_with("submissions/")) {
            let parts: Vec<&str> = path.split('/').collect();
            if path == "submissions/submissions.yaml" {
                continue; // two components: skipped by DOMjudge, which knows no such file
            }
            assert_eq!(parts.len(), 3, "{problem}: {path} would be skipped");
            let (folder, file) = (parts[1], parts[2]);
            let expected = remap.get(folder.to_uppercase().as_str());
            assert!(
                expected.is_some(),
                "{problem}: {path}: folder `{folder}` is no DOMjudge result"
            );
            let ext = file.rsplit_once('.').map(|p| p.1).unwrap_or("");
            let language = LANGUAGES
                .iter()
                .find(|l| l.1.contains(&ext))
                .unwrap_or_else(|| panic!("{problem}: {path}: no DOMjudge language for .{ext}"));
            if !language.2 {
                needs_enabling.insert(language.0);
            }
            assert!(filename_ok(file), "{problem}: {path}: illegal file name");
            let source = zip.bytes(path);
            assert!(source.len() <= 256 * 1024, "{problem}: {path}: too large");
            let lower = String::from_utf8_lossy(&source).to_lowercase();
            for marker in ["@expected_results@: ", "@expected_score@: "] {
                assert!(!lower.contains(marker), "{problem}: {path}: {marker}");
            }
            imported.push(format!("{folder}/{file}"));
        }
        // Every exported jury submission is one DOMjudge imports.
        let source = common::root()
            .join("problems")
            .join(problem)
            .join("submissions");
        let mut want = Vec::new();
        for folder in [
            "accepted",
            "wrong_answer",
            "time_limit_exceeded",
            "run_time_error",
        ] {
            for entry in std::fs::read_dir(source.join(folder)).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                want.push(format!("{folder}/{name}"));
            }
        }
        want.sort();
        imported.sort();
        assert_eq!(imported, want, "{problem}");
    }
    // Rust is a default DOMjudge language that is not submittable out of the box: its jury
    // submissions are imported only once an admin allows it (docs/preparing.md,
    // "Exporting a built-in problem").
    assert!(
        needs_enabling.iter().all(|l| *l == "rust"),
        "{needs_enabling:?}"
    );
}
