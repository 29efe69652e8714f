//! End-to-end tests: the bench binaries of this workspace, built by cargo and
//! run as a user would. One test binary, so the tests link once (as
//! ripgrep's do); each module covers one concern.

mod common;

mod against;
mod authoring;
mod bad_input;
mod baselines;
mod build_profile;
mod escaping;
mod failures;
mod forks;
mod formats;
mod groups;
mod history;
mod html;
mod interrupt;
mod kept_executables;
mod machine;
mod outputs;
mod porting;
mod profiling;
mod program_cost;
mod progress;
mod reliability;
mod suite;
mod supervisor;
mod table;
