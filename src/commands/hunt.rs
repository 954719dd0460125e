//! `judge hunt`: search for valid inputs that make a submission (or a built-in solver) fail
//! or run long, report the worst one and optionally save it as a test.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};

use super::{load_package, text, Status};
use crate::cli::{HuntArgs, InputKind};
use crate::compile::Submission;
use crate::fsutil::write_atomic;
use crate::grade::submission::{limits_for, program, Grader};
use crate::hunt::family::{Kind, KindTarget};
use crate::hunt::report::{render_json, render_text, HuntReport, Saved};
use crate::hunt::target::{SandboxTarget, ScoreKind, SolverTarget, Target};
use crate::hunt::{hunt, Budget, Config, Event, Starts};
use crate::package::Package;
use crate::problems::Hunt;
use crate::report::progress;
use crate::stress::Source;

/// Node cap of `--solver` and `--family` without `--cap`.
pub(super) const DEFAULT_CAP: u64 = 10_000_000;

pub fn run(args: HuntArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    let Some(hooks) = pkg.logic.hunt() else {
        bail!(
            "problem `{}` offers no input changes to hunt with",
            pkg.name
        );
    };
    if let Some(g) = &args.generator {
        if !pkg.logic.generators().iter().any(|s| s.name == g) {
            let known: Vec<_> = pkg.logic.generators().iter().map(|s| s.name).collect();
            bail!("unknown generator `{g}` (available: {})", known.join(", "));
        }
    }
    if let Some(s) = &args.solver {
        if !hooks
            .solvers()
            .iter()
            .any(|x| x.name == s && (x.family || !args.family))
        {
            let known: Vec<_> = hooks
                .solvers()
                .iter()
                .filter(|x| x.family || !args.family)
                .map(|x| x.name)
                .collect();
            bail!("unknown solver `{s}` (available: {})", known.join(", "));
        }
    }
    if args.cap.is_some() && args.submission.is_some() {
        bail!("--cap is for --solver and --family (a submission is limited by its time)");
    }
    if args.cpu_seconds.is_some() && args.submission.is_some() {
        bail!(
            "--cpu-seconds is for --solver and --family (a submission runs in the sandbox, \
             not on judge's own CPU time; use --seconds or --count)"
        );
    }
    if args.family {
        return super::hunt_family::run(&args, &pkg, hooks);
    }
    let starts = if args.from.is_empty() {
        Starts::Plan {
            logic: pkg.logic.as_ref(),
            sources: Source::from_plan(&pkg, args.generator.as_deref()),
        }
    } else {
        let mut files = Vec::new();
        for path in &args.from {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            if let Err(v) = pkg.logic.validate(&bytes)? {
                bail!("{}", v.located(path));
            }
            files.push((path.clone(), text(bytes, path)?));
        }
        Starts::Files(files)
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(1)
    });
    let save_to = args.out.as_ref().map(|dir| {
        let name = args.name.clone().unwrap_or_else(|| format!("hunt-{seed}"));
        (
            dir.join(format!("{name}.in")),
            dir.join(format!("{name}.ans")),
        )
    });
    if let Some((input, answer)) = &save_to {
        for p in [input, answer] {
            if p.exists() {
                bail!("{} exists already (choose another --name)", p.display());
            }
        }
    }
    let budget = Budget::of(args.count, args.seconds, args.cpu_seconds, 30);
    let jobs = args.run.jobs();
    let config = Config { seed, budget, jobs };

    let hunt = HuntRun {
        args: &args,
        pkg: &pkg,
        hooks,
        starts: &starts,
        config,
        save_to,
    };
    match (&args.submission, &args.solver) {
        (Some(path), _) => {
            let submission = Submission::from_path(path, args.lang)?;
            let grader = Grader::new(jobs, args.run.languages.as_deref())?;
            let compiled = grader.compile(&pkg.included(), &submission)?;
            let limits = limits_for(&pkg, &compiled);
            let Some(program) = program(&compiled, &limits) else {
                println!(
                    "CE  {} does not compile; nothing to hunt",
                    submission.path.display()
                );
                return Ok(Status::Rejected);
            };
            let target = SandboxTarget {
                sandbox: grader.sandbox.as_ref(),
                program: &program,
                limits: &limits,
                pkg: &pkg,
            };
            let limit_ms = u64::try_from(limits.cpu_time.as_millis()).unwrap_or(u64::MAX);
            hunt.run(&target, path.display().to_string(), Some(limit_ms), None)
        }
        (None, Some(name)) => {
            let cap = args.cap.unwrap_or(DEFAULT_CAP);
            let target = SolverTarget {
                hooks,
                pkg: &pkg,
                solver: name,
                cap,
            };
            match args.kind {
                None => hunt.run(&target, format!("solver:{name}"), None, Some(cap)),
                Some(kind) => {
                    let kind = match kind {
                        InputKind::Solvable => Kind::Solvable,
                        InputKind::Unsolvable => Kind::Unsolvable,
                    };
                    let target = KindTarget {
                        inner: target,
                        hooks,
                        kind,
                    };
                    let label = format!("solver:{name} ({} inputs)", kind.name());
                    hunt.run(&target, label, None, Some(cap))
                }
            }
        }
        (None, None) => bail!("name a submission or --solver"),
    }
}

/// A hunt whose arguments are checked, ready to run on a target.
struct HuntRun<'a> {
    args: &'a HuntArgs,
    pkg: &'a Package,
    hooks: &'a dyn Hunt,
    starts: &'a Starts<'a>,
    config: Config,
    /// Where to save the worst input and its answer.
    save_to: Option<(PathBuf, PathBuf)>,
}

impl HuntRun<'_> {
    fn run(
        self,
        target: &dyn Target,
        target_name: String,
        limit_ms: Option<u64>,
        cap: Option<u64>,
    ) -> Result<Status> {
        let Config { seed, budget, jobs } = self.config;
        if !self.args.json {
            let budget_text = budget.describe();
            eprintln!(
                "hunt {target_name} on {} with seed {seed} ({jobs} chain{}, {budget_text})",
                self.pkg.name,
                if jobs == 1 { "" } else { "s" }
            );
        }
        let bar = match budget {
            Budget::Count(n) => progress::bar(n, "hunt"),
            Budget::Time(_) | Budget::Cpu(_) => progress::counter("runs:"),
        };
        let outcome = hunt(
            target,
            self.hooks,
            self.starts,
            &self.config,
            &|e| match e {
                Event::Round { runs, .. } => bar.set_position(runs),
                Event::NewWorst { worst } => bar.set_message(match target.kind() {
                    ScoreKind::CpuMicros => format!("worst {:.3} s", worst.score as f64 / 1e6),
                    ScoreKind::Nodes => format!("worst {} nodes", worst.score),
                }),
                Event::Confirming { .. } => {}
            },
        )
        .with_context(|| format!("cannot hunt {target_name}"))?;
        bar.finish_and_clear();

        let reproduce = reproduce(self.args, &self.pkg.name, seed, outcome.runs, jobs);
        let failed = outcome.failed();
        let mut report = HuntReport::new(
            &self.pkg.name,
            target_name.clone(),
            outcome,
            seed,
            limit_ms,
            cap,
            reproduce,
        );
        if let Some((input, answer)) = self.save_to {
            if let Some(dir) = input.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            // The answer first: a reader of the folder never sees an .in without its .ans.
            write_atomic(&answer, report.worst.answer.as_bytes())?;
            write_atomic(&input, report.worst.input.as_bytes())?;
            if self.args.submission.is_some() {
                let dir = input.parent().map(PathBuf::from).unwrap_or_default();
                report.check = Some(format!(
                    "judge grade {} {target_name} --tests {}",
                    self.pkg.name,
                    dir.display()
                ));
            }
            report.saved = Some(Saved {
                input: input.display().to_string(),
                answer: answer.display().to_string(),
            });
        }
        if self.args.json {
            println!("{}", render_json(&report));
        } else {
            print!("{}", render_text(&report));
        }
        Ok(if failed {
            Status::Rejected
        } else {
            Status::Success
        })
    }
}

/// The command line that replays this hunt: same target, starts and seed, `--count <runs>`.
fn reproduce(args: &HuntArgs, problem: &str, seed: u64, runs: u64, jobs: usize) -> String {
    let mut s = format!("judge hunt {problem}");
    if let Some(sub) = &args.submission {
        s.push_str(&format!(" {}", sub.display()));
    }
    if let Some(lang) = &args.lang {
        s.push_str(&format!(" --lang {}", lang.id()));
    }
    if let Some(solver) = &args.solver {
        s.push_str(&format!(
            " --solver {solver} --cap {}",
            args.cap.unwrap_or(DEFAULT_CAP)
        ));
    }
    if let Some(kind) = args.kind {
        s.push_str(match kind {
            InputKind::Solvable => " --kind solvable",
            InputKind::Unsolvable => " --kind unsolvable",
        });
    }
    if let Some(g) = &args.generator {
        s.push_str(&format!(" --generator {g}"));
    }
    for f in &args.from {
        s.push_str(&format!(" --from {}", f.display()));
    }
    s.push_str(&format!(" --seed {seed} --count {runs} --jobs {jobs}"));
    s
}
