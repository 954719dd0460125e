//! TEMPORARY STUB (not committed)
use super::*;
pub struct LinuxSandbox;
impl LinuxSandbox {
    pub fn new(_slots: usize) -> Result<LinuxSandbox, SandboxError> {
        Err(SandboxError::Setup("stub".into()))
    }
}
impl Sandbox for LinuxSandbox {
    fn run(&self, _r: &RunRequest) -> Result<RunOutcome, SandboxError> {
        Err(SandboxError::Setup("stub".into()))
    }
}
