//! A Kattis / ICPC package folder (`problem.yaml`) loaded as a [`Package`]: its config, data,
//! jury programs ([`crate::kattis`]), limits and warnings.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::{Package, PackageError, ProblemLimits};
use crate::compile::LanguageTable;
use crate::kattis::{
    config, data, programs, scoring, Config, JuryConfig, JuryRunner, KattisPackage, Program,
    Version, MEASURE_LIMIT,
};

fn broken(message: String) -> PackageError {
    PackageError::Broken(message)
}

/// Loads the Kattis package in `dir` as a [`Package`].
pub fn load(dir: &Path, jury: &JuryConfig) -> Result<Package, PackageError> {
    let yaml_path = dir.join("problem.yaml");
    // Under the package's rule: a regular file of the package (never a FIFO or a link out).
    let text = crate::fsutil::beneath::read_text_beneath(
        dir,
        Path::new("problem.yaml"),
        crate::fsutil::beneath::SMALL_CAP,
        "the package",
    )
    .map_err(|e| PackageError::Read {
        path: yaml_path.clone(),
        source: e.into(),
    })?;
    let (mut config, yaml_warnings) =
        config::parse(&text).map_err(|message| PackageError::Invalid {
            path: yaml_path.clone(),
            message,
        })?;
    // DOMjudge's time limit files, where problem.yaml gives no limit (as DOMjudge reads them);
    // not in a legacy package, whose limit problemtools computes and never reads them from
    // (`judge export` writes `.timelimit` beside it for DOMjudge).
    let mut time_limit_source = "problem.yaml";
    if config.limits.time_limit.is_none()
        && config.version != crate::kattis::config::Version::Legacy
    {
        if let Some((limit, file)) = crate::kattis::limitfile::read(dir).map_err(broken)? {
            config.limits.time_limit = Some(limit);
            time_limit_source = file;
        }
    }
    let (notes, yaml_warnings): (Vec<String>, Vec<String>) = yaml_warnings
        .into_iter()
        .partition(|w| w.starts_with("note: "));
    let mut notes: Vec<String> = notes
        .into_iter()
        .map(|n| format!("{}: {}", yaml_path.display(), &n["note: ".len()..]))
        .collect();
    let mut warnings: Vec<String> = yaml_warnings
        .into_iter()
        .map(|w| match w.strip_prefix("problem.yaml: ") {
            Some(rest) => format!("{}: {rest}", yaml_path.display()),
            None => w,
        })
        .collect();
    // `data/`, or the data made from generators/generators.yaml (cached).
    let source = crate::kattis::generators::data_source(dir, jury).map_err(broken)?;
    let data = data::load_folder(&source.dir).map_err(broken)?;
    warnings.extend(
        source
            .warnings
            .into_iter()
            .chain(data.warnings.iter().cloned()),
    );
    notes.extend(source.notes);
    notes.extend(data.notes.iter().cloned());
    let scoring = match config.scoring {
        true => Some(Arc::new(
            scoring::load(&source.root, &data.tests, config.version == Version::V2025)
                .map_err(broken)?,
        )),
        false => None,
    };

    // A program judge cannot run is a gap, not a fault (so is having no input validator:
    // `Package::has_input_validator`).
    let mut gaps = Vec::new();
    let mut input_validators = Vec::new();
    for folder in ["input_validators", "input_format_validators"] {
        let (found, w) = programs::find_input_validators(dir, &dir.join(folder)).map_err(broken)?;
        input_validators.extend(found);
        gaps.extend(w);
    }
    // 2025-09's answer validators (BAPCtools runs them in `bt validate`), checktestdata too.
    let (answer_validators, w) =
        programs::find_input_validators(dir, &dir.join("answer_validators")).map_err(broken)?;
    gaps.extend(w);
    let output_validator = find_output_validator(dir, &config, &mut gaps)?;
    let grader = find_grader(dir, scoring.as_deref(), &mut gaps, &mut warnings)?;
    if (config.interactive || config.passes > 1) && output_validator.is_none() {
        let kind = if config.interactive {
            "an interactive"
        } else {
            "a multi-pass"
        };
        return Err(broken(format!(
            "{}: {kind} problem needs its validator in {}",
            yaml_path.display(),
            dir.join(match config.version {
                Version::Legacy => "output_validators/",
                Version::V2025 => "output_validator/",
            })
            .display()
        )));
    }

    let table = LanguageTable::for_package(jury.languages.as_deref(), dir)
        .map_err(|e| broken(format!("cannot load the language table: {e}")))?;
    let cache = crate::compile::Cache::for_this_user().map_err(broken)?;
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    let limits = ProblemLimits {
        time: config
            .limits
            .time_limit
            .map(Duration::from_secs_f64)
            .unwrap_or(MEASURE_LIMIT),
        memory_mib: config.limits.memory,
        output_mib: config.limits.output,
        processes: crate::kattis::SUBMISSION_PROCESSES,
        languages: Default::default(),
    };
    let title = config.name.clone().unwrap_or_else(|| name.clone());
    // A YAML key given twice is read as problemtools reads it (the last value): a warning of
    // `verify` (a failure with `--strict`), with the gaps, not a fault that fails it.
    let (read_leniently, warnings): (Vec<String>, Vec<String>) = warnings
        .into_iter()
        .partition(|w| crate::kattis::yaml::is_duplicate_warning(w));
    gaps.extend(read_leniently);
    let kattis = Arc::new(
        KattisPackage::new(
            dir.to_path_buf(),
            name.clone(),
            config,
            data,
            input_validators,
            output_validator,
            JuryRunner::new(jury.slots, table, cache).with_constants(
                crate::kattis::generators::constants(
                    &std::fs::read_to_string(&yaml_path).unwrap_or_default(),
                ),
            ),
            notes,
        )
        .with_grader(grader)
        .with_time_limit_source(time_limit_source)
        .with_answer_validators(answer_validators)
        .with_data_lock(source.lock),
    );
    Ok(Package {
        name,
        dir: dir.to_path_buf(),
        title,
        limits,
        groups: Vec::new(),
        logic: kattis.clone(),
        warnings,
        gaps,
        kattis: Some(kattis),
        scoring,
        subtasks: Vec::new(),
    })
}

/// The custom grader in `graders/` (problemtools allows one), which a group with
/// `grading: custom` needs; one in a package that grades no group with it is a warning (a
/// fault: problemtools refuses it); one judge cannot run, a gap.
fn find_grader(
    dir: &Path,
    scoring: Option<&crate::verdict::score::Scoring>,
    gaps: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Result<Option<Program>, PackageError> {
    let folder = dir.join("graders");
    let (mut found, w) = programs::find(dir, &folder).map_err(broken)?;
    gaps.extend(w);
    let needed = scoring.is_some_and(|s| s.has_custom_grading());
    if found.len() > 1 {
        return Err(broken(format!(
            "{}/ holds {} programs; a package has one grader",
            folder.display(),
            found.len()
        )));
    }
    match (found.pop(), needed) {
        (None, true) => Err(broken(format!(
            "{}: a group says `grading: custom`, but {}/ holds no grader program",
            dir.join("data").display(),
            folder.display()
        ))),
        (Some(g), false) => {
            warnings.push(format!(
                "{}: no test group says `grading: custom`, so this grader is never run",
                g.display
            ));
            Ok(None)
        }
        (g, _) => Ok(g),
    }
}

fn find_output_validator(
    dir: &Path,
    config: &Config,
    warnings: &mut Vec<String>,
) -> Result<Option<Program>, PackageError> {
    let legacy = dir.join("output_validators");
    let current = dir.join("output_validator");
    let pick =
        |folder: &Path, warnings: &mut Vec<String>| -> Result<Option<Program>, PackageError> {
            if !folder.is_dir() {
                return Ok(None);
            }
            let display = folder
                .strip_prefix(dir)
                .unwrap_or(folder)
                .display()
                .to_string();
            // 2025-09: the folder itself is the program; older drafts put one program inside it.
            if let Some(p) = programs::program(folder, &display).ok().flatten() {
                return Ok(Some(p));
            }
            let (mut found, w) = programs::find(dir, folder).map_err(broken)?;
            warnings.extend(w);
            match found.len() {
                0 => Err(broken(format!(
                    "{}/ holds no output validator judge can build ({})",
                    folder.display(),
                    crate::compile::Language::id_list()
                ))),
                1 => Ok(found.pop()),
                n => Err(broken(format!(
                    "{}/ holds {n} programs; a package has one output validator",
                    folder.display()
                ))),
            }
        };
    match config.custom_validation {
        // Legacy: `validation` decides; the folder is output_validators/.
        Some(false) => Ok(None),
        Some(true) => match pick(&legacy, warnings)? {
            Some(p) => Ok(Some(p)),
            None => pick(&current, warnings)?.map(Some).ok_or_else(|| {
                broken(format!(
                    "{}: `validation: custom` needs a program in {}/",
                    dir.join("problem.yaml").display(),
                    legacy.display()
                ))
            }),
        },
        // 2025-09: a custom validator is one that is present.
        None => match pick(&current, warnings)? {
            Some(p) => Ok(Some(p)),
            None => pick(&legacy, warnings),
        },
    }
}
