//! One test (its name, input and jury answer) and where it came from: the unit every stage
//! from the test set on passes around, and what a problem's checker reads.

use std::path::PathBuf;

use super::GenParams;

/// Where a test came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `data/sample/<stem>.in`.
    Sample(PathBuf),
    /// `data/secret/<stem>.in`.
    Secret(PathBuf),
    /// A `.in` file in a folder given with `--tests`.
    External(PathBuf),
    /// Made by `generator` with `params` and `seed` (group `group`, 1-based `index`).
    Generated {
        group: String,
        generator: String,
        params: GenParams,
        seed: u64,
        index: u32,
    },
}

/// One test: its name, input and jury answer.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// Unique within the set: `sample-1`, `secret-all-zero`, `distinct-03`.
    pub name: String,
    pub origin: Origin,
    pub input: String,
    /// The jury answer: the `.ans` file for hand-made tests, the reference solver's otherwise.
    pub answer: String,
}

impl TestCase {
    /// A short description of the origin for reports (`data/secret/x.in`, `gen distinct seed=...`).
    pub fn describe(&self) -> String {
        match &self.origin {
            Origin::Sample(p) | Origin::Secret(p) | Origin::External(p) => p.display().to_string(),
            Origin::Generated {
                generator,
                params,
                seed,
                ..
            } => {
                let mut s = format!("--generator {generator} --seed {seed}");
                for (k, v) in &params.0 {
                    s.push_str(&format!(" --param {k}={v}"));
                }
                s
            }
        }
    }
}
