//! A sandbox that runs nothing: it returns outcomes from a script. Used to test verdict
//! decisions and reporting (TLE, MLE, RE, ...) deterministically and without sleeping.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::{RunOutcome, RunRequest, Sandbox, SandboxError};

/// Returns the scripted outcomes in order, one per `run` call; errors when the script is spent.
pub struct ScriptedSandbox {
    script: Mutex<VecDeque<RunOutcome>>,
}

impl ScriptedSandbox {
    pub fn new(outcomes: impl IntoIterator<Item = RunOutcome>) -> Self {
        ScriptedSandbox {
            script: Mutex::new(outcomes.into_iter().collect()),
        }
    }
}

impl Sandbox for ScriptedSandbox {
    fn run(&self, _request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        self.script
            .lock()
            .expect("script lock poisoned")
            .pop_front()
            .ok_or_else(|| SandboxError::Setup("scripted sandbox: no outcome left".into()))
    }
}
