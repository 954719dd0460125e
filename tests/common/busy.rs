//! Shell loops that keep CPUs busy beside a test or a bench (verdicts must hold on a machine
//! with more runnable processes than cores). Shared by the integration tests and
//! `benches/load.rs` (included there by path).

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

/// `n` busy loops: killed when dropped (also when a test fails) and with the thread that
/// started them (`PR_SET_PDEATHSIG`), so none outlives its test or bench.
pub struct BusyLoops(Vec<Child>);

impl BusyLoops {
    pub fn start(n: usize) -> BusyLoops {
        BusyLoops(
            (0..n)
                .map(|_| {
                    let mut cmd = Command::new("sh");
                    cmd.args(["-c", "while :; do :; done"])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null());
                    // SAFETY: prctl only, between fork and exec.
                    unsafe {
                        cmd.pre_exec(|| {
                            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                            Ok(())
                        });
                    }
                    cmd.spawn().expect("busy loop")
                })
                .collect(),
        )
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
