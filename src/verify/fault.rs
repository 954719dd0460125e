//! Faults injected into a problem's logic on purpose (`judge verify --inject-fault`), to show
//! that `verify` notices a checker or validator that accepts everything.

use std::sync::Arc;

use crate::problems::{GenParams, Judgement, JuryError, Problem, TestCase, Validation};

/// A fault deliberately injected into a problem's logic, to show that `verify` notices it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Fault {
    /// The checker accepts every output.
    CheckerAcceptsAll,
    /// The validator accepts every input.
    ValidatorAcceptsAll,
}

/// A problem's logic with an injected [`Fault`].
pub struct Faulty {
    pub inner: Arc<dyn Problem>,
    pub fault: Fault,
}

impl Problem for Faulty {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn generators(&self) -> &[crate::problems::GeneratorSpec] {
        self.inner.generators()
    }
    fn generate(
        &self,
        g: &str,
        p: &GenParams,
        seed: u64,
    ) -> Result<String, crate::problems::GenError> {
        self.inner.generate(g, p, seed)
    }
    fn validate(&self, input: &[u8]) -> Validation {
        match self.fault {
            Fault::ValidatorAcceptsAll => Ok(Ok(())),
            _ => self.inner.validate(input),
        }
    }
    fn solve(&self, input: &str) -> Result<String, JuryError> {
        self.inner.solve(input)
    }
    fn check(&self, input: &str, answer: &str, output: &[u8]) -> Judgement {
        match self.fault {
            Fault::CheckerAcceptsAll => Judgement::Accepted,
            _ => self.inner.check(input, answer, output),
        }
    }
    fn mutate_answer(&self, input: &str, answer: &str) -> Vec<(String, String)> {
        self.inner.mutate_answer(input, answer)
    }
    fn shrink(&self, input: &str) -> Vec<String> {
        self.inner.shrink(input)
    }
    fn validate_test(&self, test: &TestCase) -> Validation {
        match self.fault {
            Fault::ValidatorAcceptsAll => Ok(Ok(())),
            _ => self.inner.validate_test(test),
        }
    }
    fn check_test(&self, test: &TestCase, output: &[u8]) -> Judgement {
        match self.fault {
            Fault::CheckerAcceptsAll => Judgement::Accepted,
            _ => self.inner.check_test(test, output),
        }
    }
}
