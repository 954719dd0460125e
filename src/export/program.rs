//! The exported validator and checker: standalone Rust programs made of the harness's own
//! source files (copied verbatim from [`JurySources`] and [`crate::problems::jury`]) plus a
//! generated `main.rs`, in a folder with a POSIX `build` script (the package format's
//! "program with build/run scripts", which problemtools, DOMjudge and `judge` all run).

use crate::problems::JurySources;

/// The shared jury file every program gets: the very text the crate compiles.
const JURY_RS: &str = include_str!("../problems/jury.rs");

/// Which protocol the program speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `prog < input`: exit 42 valid, 43 invalid.
    InputValidator,
    /// `prog input answer feedback_dir < output`: exit 42 accepted, 43 wrong answer.
    OutputValidator,
}

impl Role {
    fn describe(self) -> &'static str {
        match self {
            Role::InputValidator => "input validator",
            Role::OutputValidator => "output validator",
        }
    }
}

/// The `build` script: compiles `main.rs` (std only) into the executable `run`.
pub const BUILD_SCRIPT: &str = "#!/bin/sh\n\
# Written by `judge export`: builds this program (Rust, std only) into the executable `run`.\n\
set -e\n\
exec \"${RUSTC:-rustc}\" --edition 2021 -C opt-level=2 -C debuginfo=0 -o run main.rs\n";

/// The files of the program folder for `role` of problem `problem`: `(relative path, text,
/// executable)`.
pub fn files(problem: &str, sources: &JurySources, role: Role) -> Vec<(String, String, bool)> {
    let mut out = vec![
        ("build".to_string(), BUILD_SCRIPT.to_string(), true),
        (
            "main.rs".to_string(),
            main_rs(problem, sources, role),
            false,
        ),
        ("jury.rs".to_string(), JURY_RS.to_string(), false),
    ];
    for (name, text) in sources.modules {
        out.push((name.to_string(), text.to_string(), false));
    }
    out
}

/// The generated root of the program: declares the copied files as modules, gives them the
/// `crate::problems` path they name, and calls the protocol wrapper of [`crate::problems::jury`].
fn main_rs(problem: &str, sources: &JurySources, role: Role) -> String {
    let mut s = format!(
        "//! The {} of problem `{problem}`, written by `judge export`. Every other `.rs` file\n\
         //! beside this one is a verbatim copy of a source file of the harness, which compiles\n\
         //! the same files as modules; only this file is generated.\n\n\
         #![allow(dead_code, unused_imports)]\n\n\
         pub mod jury;\n",
        role.describe()
    );
    for (name, _) in sources.modules {
        let stem = name.trim_end_matches(".rs");
        s.push_str(&format!("pub mod {stem};\n"));
    }
    s.push_str(
        "\n/// The harness's `crate::problems` path, which the shared files name.\n\
         pub mod problems {\n    pub use crate::jury::*;\n}\n",
    );
    if !sources.root.is_empty() {
        s.push_str(&format!("\n{}\n", sources.root));
    }
    let body = match role {
        Role::InputValidator => format!(
            "    std::process::exit(jury::input_validator_main({}));\n",
            sources.validate
        ),
        Role::OutputValidator => format!(
            "    let args: Vec<String> = std::env::args().skip(1).collect();\n    \
             std::process::exit(jury::output_validator_main(&args, {}));\n",
            sources.check
        ),
    };
    s.push_str(&format!("\nfn main() {{\n{body}}}\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_is_the_crate_source_plus_a_generated_main() {
        let logic = crate::problems::lookup("dodecahedron").unwrap();
        let sources = logic.jury_sources().unwrap();
        let files = files("dodecahedron", sources, Role::OutputValidator);
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "build",
                "main.rs",
                "jury.rs",
                "geometry.rs",
                "tiles.rs",
                "solver.rs",
                "validator.rs",
                "checker.rs"
            ]
        );
        let checker = &files.iter().find(|f| f.0 == "checker.rs").unwrap().1;
        assert_eq!(
            checker,
            &std::fs::read_to_string("src/problems/dodecahedron/checker.rs").unwrap()
        );
        let main = &files[1].1;
        assert!(main.contains("pub use tiles::*;"), "{main}");
        assert!(main.contains("jury::output_validator_main(&args, checker::check)"));
        assert!(files[0].2, "build is executable");
    }
}
