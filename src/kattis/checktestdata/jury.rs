//! A checktestdata program as a package's input validator: loaded (with `{{constants}}`
//! substituted) when the jury programs are built, run in-process on each test input under the
//! package's validation limits.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use super::{Failure, Options, Script};
use crate::problems::{JuryError, Validation, Violation};
use crate::sandbox::Limits;

/// Reads and parses the program in `file`; an error names the file, line and column.
pub fn load(
    file: &Path,
    display: &str,
    constants: &BTreeMap<String, String>,
) -> Result<Script, JuryError> {
    let display = file_display(file, display);
    let bytes =
        std::fs::read(file).map_err(|e| JuryError(format!("cannot read {display}: {e}")))?;
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => super::super::programs::substitute_constants(&text, constants).into_bytes(),
        Err(e) => e.into_bytes(),
    };
    Script::parse(&bytes).map_err(|e| JuryError(format!("{display}:{e}")))
}

/// `display` (the program's path in the package) naming the file itself when the program is a
/// folder holding it.
fn file_display(file: &Path, display: &str) -> String {
    match display.ends_with(".ctd") {
        true => display.to_string(),
        false => format!(
            "{display}/{}",
            file.file_name().unwrap_or_default().to_string_lossy()
        ),
    }
}

/// Checks `input` with `script`, the validator `display` given `args` (checktestdata's own
/// options: `--whitespace-ok` or `-w`; any other is an error of the package).
pub fn validate(
    script: &Script,
    display: &str,
    args: &[String],
    input: &[u8],
    limits: &Limits,
) -> Validation {
    let mut options = Options {
        whitespace_ok: false,
        deadline: Some(Instant::now() + limits.cpu_time),
        memory_bytes: limits.memory_bytes,
    };
    for a in args {
        match a.as_str() {
            "-w" | "--whitespace-ok" => options.whitespace_ok = true,
            _ => {
                return Err(JuryError(format!(
                    "{display}: checktestdata takes no argument but --whitespace-ok, not `{a}` (from input_validator_args or answer_validator_args)"
                )))
            }
        }
    }
    match script.check(input, &options) {
        Ok(()) => Ok(Ok(())),
        Err(Failure::Rejected {
            line,
            column,
            message,
        }) => Ok(Err(Violation::new(
            line,
            column,
            format!("rejected by {display}: {message}"),
        ))),
        Err(Failure::Program(e)) => Err(JuryError(format!("{display}:{e}"))),
        Err(Failure::Limit(m)) => Err(JuryError(format!("{display}: {m}"))),
    }
}
