//! `--partition K/N | auto`: a deterministic split of a command's work across machines, so
//! engines that already exist (a CI matrix, a Kubernetes Indexed Job, a Slurm array) can share
//! it. Each part writes a partial `--json` report; `judge report merge` joins them.
//!
//! - `K/N`: part `K` of `N`, 1-based (`1/4` … `4/4`), as cargo-nextest counts.
//! - `auto`: the part from the environment: a Slurm array (`SLURM_ARRAY_TASK_ID`,
//!   `SLURM_ARRAY_TASK_COUNT`, and `SLURM_ARRAY_TASK_MIN`/`SLURM_ARRAY_TASK_STEP` when set), or
//!   a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, 0-based, with the count from
//!   `--partition-count` or `$JUDGE_PARTITION_COUNT`, since Kubernetes does not export it).
//!
//! Work item `i` (0-based, in plan order) belongs to part `i mod N + 1`: the tests of each
//! submission for `grade`, the test numbers of `stress`. Round-robin keeps the parts even when
//! the plan's tests grow in size along the plan.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Environment variable giving the part count to `--partition auto` in a Kubernetes Indexed Job.
pub const COUNT_ENV: &str = "JUDGE_PARTITION_COUNT";

/// One part of a split: `index` of `count`, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partition {
    /// 1-based part number (`1..=count`).
    pub index: u32,
    /// Number of parts (>= 1).
    pub count: u32,
}

/// Why a partition cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("expected `K/N` (1-based, e.g. `2/4`) or `auto`, found `{0}`")]
    Syntax(String),
    #[error("partition count must be at least 1, found `{0}`")]
    ZeroCount(String),
    #[error("partition index must be between 1 and {count}, found {index} (in `{text}`)")]
    OutOfRange {
        index: u64,
        count: u32,
        text: String,
    },
    #[error("--partition auto: no SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment (give --partition K/N)")]
    NoEnvironment,
    #[error("--partition auto: `{name}` is `{value}`, not a number")]
    NotANumber { name: String, value: String },
    #[error("--partition auto: the part count is unknown (give --partition-count N or set {COUNT_ENV}; in a Kubernetes Indexed Job, its completions)")]
    MissingCount,
    #[error("--partition auto: {what} gives part {index} of {count}, out of range")]
    AutoOutOfRange {
        what: String,
        index: i64,
        count: u32,
    },
    #[error(
        "--partition auto: SLURM_ARRAY_TASK_ID {id} is not on the array's step {step} from {min}"
    )]
    OffStep { id: i64, min: i64, step: i64 },
    #[error("--partition-count goes with `--partition auto` only (`K/N` gives the count)")]
    CountWithoutAuto,
    #[error(
        "--partition auto: the part count {given} disagrees with SLURM_ARRAY_TASK_COUNT {slurm}"
    )]
    CountMismatch { given: u32, slurm: u32 },
}

impl Partition {
    /// Part `index` of `count` (1-based), validated.
    pub fn new(index: u64, count: u32, text: &str) -> Result<Partition, PartitionError> {
        if count == 0 {
            return Err(PartitionError::ZeroCount(text.into()));
        }
        if index == 0 || index > u64::from(count) {
            return Err(PartitionError::OutOfRange {
                index,
                count,
                text: text.into(),
            });
        }
        Ok(Partition {
            index: index as u32,
            count,
        })
    }

    /// Whether work item `i` (0-based, in plan order) is in this part.
    pub fn contains(&self, i: u64) -> bool {
        i % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// The items of this part, in plan order.
    pub fn select<T: Clone>(&self, items: &[T]) -> Vec<T> {
        items
            .iter()
            .enumerate()
            .filter(|(i, _)| self.contains(*i as u64))
            .map(|(_, t)| t.clone())
            .collect()
    }

    /// The `j`-th work item (0-based) of this part, as a plan index.
    pub fn nth(&self, j: u64) -> u64 {
        j * u64::from(self.count) + u64::from(self.index - 1)
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The `--partition` argument before the environment is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartitionSpec {
    Fixed(Partition),
    /// Read from a Slurm array or a Kubernetes Indexed Job.
    Auto,
}

impl FromStr for PartitionSpec {
    type Err = PartitionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t == "auto" {
            return Ok(PartitionSpec::Auto);
        }
        let syntax = || PartitionError::Syntax(s.into());
        let (k, n) = t.split_once('/').ok_or_else(syntax)?;
        let index: u64 = k.trim().parse().map_err(|_| syntax())?;
        let count: u32 = n.trim().parse().map_err(|_| syntax())?;
        Partition::new(index, count, s).map(PartitionSpec::Fixed)
    }
}

/// The part this process runs: `spec` resolved against the environment (read through `env`,
/// so tests can script it). `count` is `--partition-count`.
pub fn resolve(
    spec: Option<PartitionSpec>,
    count: Option<u32>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Partition>, PartitionError> {
    match spec {
        None => Ok(None),
        Some(PartitionSpec::Fixed(_)) if count.is_some() => Err(PartitionError::CountWithoutAuto),
        Some(PartitionSpec::Fixed(p)) => Ok(Some(p)),
        Some(PartitionSpec::Auto) => auto(count, env).map(Some),
    }
}

fn auto(
    count: Option<u32>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Partition, PartitionError> {
    let number = |name: &str| -> Result<Option<i64>, PartitionError> {
        match env(name).filter(|v| !v.trim().is_empty()) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<i64>()
                .map(Some)
                .map_err(|_| PartitionError::NotANumber {
                    name: name.into(),
                    value: v,
                }),
        }
    };
    let given_count = match count {
        Some(n) => Some(n),
        None => number(COUNT_ENV)?.map(|n| u32::try_from(n).unwrap_or(0)),
    };
    if given_count == Some(0) {
        return Err(PartitionError::ZeroCount(format!(
            "{COUNT_ENV}/--partition-count"
        )));
    }
    if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let slurm_count = number("SLURM_ARRAY_TASK_COUNT")?
            .map(|n| u32::try_from(n).unwrap_or(0))
            .or(given_count)
            .ok_or(PartitionError::MissingCount)?;
        if let Some(given) = given_count.filter(|&g| g != slurm_count) {
            return Err(PartitionError::CountMismatch {
                given,
                slurm: slurm_count,
            });
        }
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        if (id - min) % step != 0 {
            return Err(PartitionError::OffStep { id, min, step });
        }
        let index = (id - min) / step + 1;
        return checked(index, slurm_count, "SLURM_ARRAY_TASK_ID");
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = given_count.ok_or(PartitionError::MissingCount)?;
        return checked(index + 1, count, "JOB_COMPLETION_INDEX");
    }
    Err(PartitionError::NoEnvironment)
}

fn checked(index: i64, count: u32, what: &str) -> Result<Partition, PartitionError> {
    if count == 0 || index < 1 || index > i64::from(count) {
        return Err(PartitionError::AutoOutOfRange {
            what: what.into(),
            index,
            count,
        });
    }
    Ok(Partition {
        index: index as u32,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(index: u32, count: u32) -> Partition {
        Partition { index, count }
    }

    #[test]
    fn good_and_bad_strings() {
        let good = [
            ("1/1", p(1, 1)),
            ("2/4", p(2, 4)),
            (" 4/4 ", p(4, 4)),
            ("3 / 5", p(3, 5)),
        ];
        for (s, want) in good {
            assert_eq!(s.parse(), Ok(PartitionSpec::Fixed(want)), "{s}");
        }
        assert_eq!("auto".parse(), Ok(PartitionSpec::Auto));
        for bad in [
            "", "1", "0/2", "3/2", "1/0", "0/0", "-1/2", "a/b", "1/2/3", "hash:1/2",
        ] {
            let e = bad.parse::<PartitionSpec>().unwrap_err();
            assert!(!e.to_string().contains('\n'), "{e}");
        }
        assert_eq!(
            "5/4".parse::<PartitionSpec>().unwrap_err().to_string(),
            "partition index must be between 1 and 4, found 5 (in `5/4`)"
        );
    }

    #[test]
    fn parts_are_round_robin_and_cover_everything_once() {
        let items: Vec<u32> = (0..10).collect();
        let parts: Vec<Vec<u32>> = (1..=3).map(|k| p(k, 3).select(&items)).collect();
        assert_eq!(parts[0], [0, 3, 6, 9]);
        assert_eq!(parts[1], [1, 4, 7]);
        assert_eq!(parts[2], [2, 5, 8]);
        assert_eq!(p(2, 3).nth(2), 7);
    }

    fn env_of<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn auto_with(vars: &[(&str, &str)], count: Option<u32>) -> Result<Partition, PartitionError> {
        resolve(Some(PartitionSpec::Auto), count, &env_of(vars)).map(|p| p.unwrap())
    }

    #[test]
    fn auto_reads_slurm_arrays_from_any_first_index_and_step() {
        let slurm = |id: &str, min: &str, step: &str| {
            auto_with(
                &[
                    ("SLURM_ARRAY_TASK_ID", id),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                    ("SLURM_ARRAY_TASK_MIN", min),
                    ("SLURM_ARRAY_TASK_STEP", step),
                ],
                None,
            )
        };
        assert_eq!(slurm("0", "0", "1"), Ok(p(1, 4)));
        assert_eq!(slurm("4", "1", "1"), Ok(p(4, 4)));
        assert_eq!(slurm("12", "0", "4"), Ok(p(4, 4)));
        assert!(matches!(
            slurm("5", "0", "4"),
            Err(PartitionError::OffStep { .. })
        ));
        assert!(matches!(
            slurm("4", "0", "1"),
            Err(PartitionError::AutoOutOfRange { .. })
        ));
    }

    #[test]
    fn auto_reads_kubernetes_with_the_count_from_the_flag_or_the_environment() {
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert_eq!(auto_with(&k8s, Some(3)), Ok(p(3, 3)));
        assert_eq!(
            auto_with(&[("JOB_COMPLETION_INDEX", "0"), (COUNT_ENV, "2")], None),
            Ok(p(1, 2))
        );
        assert_eq!(auto_with(&k8s, None), Err(PartitionError::MissingCount));
        assert!(matches!(
            auto_with(&k8s, Some(2)),
            Err(PartitionError::AutoOutOfRange { .. })
        ));
        assert!(matches!(
            auto_with(&[("JOB_COMPLETION_INDEX", "x")], Some(2)),
            Err(PartitionError::NotANumber { .. })
        ));
        assert_eq!(auto_with(&[], Some(2)), Err(PartitionError::NoEnvironment));
    }
}
