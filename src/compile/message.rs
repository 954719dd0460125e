//! A compiler's output as the message a reader sees: lossy UTF-8, paths into the build
//! folder made relative, at most a few lines.

use std::path::Path;

use super::{MESSAGE_BYTES, MESSAGE_LINES};

/// Compiler output as a readable message: lossy UTF-8, build-directory paths made relative,
/// trimmed.
pub(crate) fn clean_message(output: &[u8], build_dir: &Path) -> String {
    let text = String::from_utf8_lossy(output);
    let dir = build_dir.display().to_string();
    let text = text.replace(&format!("{dir}/"), "").replace(&dir, ".");
    trim_message(&text, MESSAGE_LINES, MESSAGE_BYTES)
}

/// At most `max_lines` lines and about `max_bytes` bytes of `text`, followed by
/// "... (N more lines)" if anything was cut. A first line longer than `max_bytes` is cut
/// itself (at a character boundary).
pub(super) fn trim_message(text: &str, max_lines: usize, max_bytes: usize) -> String {
    // Leading blank lines too (GHC and PHP start their messages with one): the first line is
    // what a summary shows.
    let text = text.trim_start_matches(['\n', '\r']);
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let mut out = String::new();
    let mut shown = 0;
    for line in &lines {
        if shown == max_lines {
            break;
        }
        if out.len() + line.len() + 1 > max_bytes {
            if shown == 0 {
                let mut cut = max_bytes.min(line.len());
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                out.push_str(&line[..cut]);
                out.push_str(" ...\n");
                shown = 1;
            }
            break;
        }
        out.push_str(line);
        out.push('\n');
        shown += 1;
    }
    let rest = lines.len() - shown;
    if rest > 0 {
        out.push_str(&format!(
            "... ({})\n",
            crate::text::count(rest, "more line")
        ));
    }
    out.trim_end().to_string()
}
