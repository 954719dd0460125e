//! The integration tests, one test binary (`cargo test --release --test integration`): each
//! file of `tests/` is a module here, so cargo links one executable instead of fifteen and
//! every test shares one parallel pool (a long test no longer holds up the files after it).
//! One file's tests: `cargo test --release --test integration -- grade::`.
//!
//! The tests share this process: none may set environment variables, change the working
//! folder or install signal handlers, and a test that looks for processes of a given name
//! anywhere on the machine holds [`common::named_processes`] while it runs them and looks.

mod common;

mod answers;
mod cgroup_backend;
mod cgroup_ownership;
mod cli;
mod completions;
mod contest_languages;
mod docs;
mod doctor;
mod domjudge;
mod export;
mod generators;
mod grade;
mod hostile_package;
mod hostile_parse;
mod hunt;
mod interrupt;
mod kattis;
mod languages;
mod layout;
mod layouts;
mod man;
mod multipass;
mod new;
mod partition;
mod report;
mod sandbox;
mod scoring;
mod show;
mod stress;
mod terminal;
mod verify;
mod version;
