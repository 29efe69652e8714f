//! Why a benchmark did not produce a result, and the capture of panics in
//! user code (bodies, `args` expressions) that turns them into one.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// Why a benchmark did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Failure {
    /// What went wrong: the panic's message, or what the benchmark must do.
    pub message: String,
    /// `file:line:column` of the panic, or `file:line` of a benchmark that
    /// never called `Bencher::iter`; `None` when unknown.
    pub location: Option<String>,
}

/// Runs user code (a body, an `args` expression), turning a panic into a
/// [`Failure`] with its message and location instead of printing it.
pub(crate) fn catching_panics<T>(f: impl FnOnce() -> T) -> Result<T, Failure> {
    install_panic_hook();
    CAPTURING.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|c| c.set(false));
    result.map_err(|payload| {
        let failure = LAST_PANIC
            .with(|last| last.borrow_mut().take())
            .unwrap_or_else(|| Failure {
                message: panic_message(payload.as_ref()),
                location: None,
            });
        match drop_payload(payload) {
            None => failure,
            Some(also) => Failure {
                message: format!(
                    "{} (then dropping the panic's payload panicked too: {})",
                    failure.message, also.message
                ),
                ..failure
            },
        }
    })
}

/// Drops a panic's payload, whose `Drop` is user code and may panic in turn:
/// that panic is caught too (recorded, not printed) and returned, and its
/// own payload is leaked rather than dropped, so no chain of them can
/// escape. Escaping would end the run in smoke mode and lose the benchmark's
/// message on its measuring thread.
fn drop_payload(payload: Box<dyn std::any::Any + Send>) -> Option<Failure> {
    CAPTURING.with(|c| c.set(true));
    let dropped = panic::catch_unwind(AssertUnwindSafe(move || drop(payload)));
    CAPTURING.with(|c| c.set(false));
    let second = dropped.err()?;
    let failure = LAST_PANIC
        .with(|last| last.borrow_mut().take())
        .unwrap_or_else(|| Failure {
            message: panic_message(second.as_ref()),
            location: None,
        });
    std::mem::forget(second);
    Some(failure)
}

thread_local! {
    /// The message and location of the last panic on this thread, recorded by
    /// the hook so the report can show them in place of a backtrace.
    static LAST_PANIC: RefCell<Option<Failure>> = const { RefCell::new(None) };
    /// Set while a benchmark body runs on this thread: its panics are
    /// recorded for the report; any other panic goes to the previous hook.
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
}

/// Replaces the default panic output of benchmark bodies (a message and a
/// backtrace hint on stderr, in the middle of the table) with a record the
/// report prints. Panics elsewhere (in the harness, in threads a benchmark
/// starts) still reach the previous hook.
fn install_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(Cell::get) {
                return previous(info);
            }
            let failure = Failure {
                message: panic_message(info.payload()),
                location: info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())),
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(failure));
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "the benchmark panicked with a non-string payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A payload whose `Drop` panics, with a payload that does the same.
    struct Bomb(u32);

    impl Drop for Bomb {
        fn drop(&mut self) {
            if self.0 > 0 {
                std::panic::panic_any(Bomb(self.0 - 1));
            }
        }
    }

    #[test]
    fn a_payload_whose_drop_panics_is_contained_and_the_message_kept() {
        let failure = catching_panics(|| std::panic::panic_any(Bomb(3))).unwrap_err();
        assert_eq!(
            failure.message,
            "the benchmark panicked with a non-string payload \
             (then dropping the panic's payload panicked too: \
             the benchmark panicked with a non-string payload)"
        );
        assert!(failure.location.unwrap().contains("failure.rs"));
        // Nothing is left for the next capture to pick up.
        let next = catching_panics(|| panic!("plain")).unwrap_err();
        assert_eq!(next.message, "plain");
    }

    #[test]
    fn a_payload_that_drops_quietly_adds_nothing() {
        let failure = catching_panics(|| std::panic::panic_any(Bomb(0))).unwrap_err();
        assert_eq!(
            failure.message,
            "the benchmark panicked with a non-string payload"
        );
    }
}
