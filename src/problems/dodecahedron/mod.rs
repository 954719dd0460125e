//! Placeholder: replaced by the real implementation.
use super::{GenError, GenParams, GeneratorSpec, Judgement, Problem, Violation};

pub struct Dodecahedron;

impl Problem for Dodecahedron {
    fn name(&self) -> &'static str {
        "dodecahedron"
    }
    fn generators(&self) -> &'static [GeneratorSpec] {
        &[]
    }
    fn generate(
        &self,
        generator: &str,
        _params: &GenParams,
        _seed: u64,
    ) -> Result<String, GenError> {
        Err(GenError::UnknownGenerator {
            name: generator.into(),
            available: String::new(),
        })
    }
    fn validate(&self, _input: &[u8]) -> Result<(), Violation> {
        Err(Violation::new(1, 1, "not implemented"))
    }
    fn solve(&self, _input: &str) -> String {
        String::new()
    }
    fn check(&self, _input: &str, _answer: &str, _output: &[u8]) -> Judgement {
        Judgement::JudgeError("not implemented".into())
    }
    fn mutate_answer(&self, _input: &str, _answer: &str) -> Vec<(String, String)> {
        Vec::new()
    }
    fn shrink(&self, _input: &str) -> Vec<String> {
        Vec::new()
    }
}
