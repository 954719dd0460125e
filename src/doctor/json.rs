//! The `--json` reporter: the [`Report`] as one pretty-printed JSON object (its fields are
//! documented on the types in [`super`] and in `docs/doctor.md`).

use super::Report;

/// The report as one JSON object, ending with a newline.
pub fn render(report: &Report) -> serde_json::Result<String> {
    let mut text = serde_json::to_string_pretty(report)?;
    text.push('\n');
    Ok(text)
}
