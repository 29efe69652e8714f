//! Environments for the environment and audit tests: builds, and machines
//! read from the fixtures or known to nobody.

use std::path::Path;

use crate::environment::{Build, Environment};

pub(crate) fn release() -> Build {
    Build {
        debug_assertions: false,
        opt_level: "3".to_string(),
        profile: "release".to_string(),
        harness_opt_level: None,
    }
}

pub(crate) fn debug() -> Build {
    Build {
        debug_assertions: true,
        opt_level: "0".to_string(),
        profile: "debug".to_string(),
        harness_opt_level: None,
    }
}

/// The machine's facts from `root`, as a release build would record them.
pub(crate) fn released_on(root: &Path) -> Environment {
    Environment {
        build: release(),
        ..Environment::capture_from(root)
    }
}

/// An environment where nothing about the machine is known.
pub(crate) fn unknown_machine(build: Build) -> Environment {
    Environment {
        build,
        os_release: None,
        cpu_model: None,
        logical_cores: None,
        last_level_cache_bytes: None,
        governor: None,
        boost: None,
        aslr: None,
        load_average: None,
        hypervisor: None,
        perf_event_paranoid: None,
        ..Environment::capture_from(Path::new("/nonexistent/root"))
    }
}
