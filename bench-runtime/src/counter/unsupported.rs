//! Systems without Linux's `perf_event_open`: every event is refused, and no
//! group is ever made.

use super::{Event, Reading};

const REASON: &str = "hardware and software counters need Linux's perf_event_open";

/// Never made: [`Group::open`] refuses everything.
#[derive(Debug)]
pub(super) enum Group {}

impl Group {
    pub(super) fn open(events: &[Event]) -> (Option<Group>, Vec<(Event, String)>) {
        let refused = events
            .iter()
            .map(|&event| (event, REASON.to_string()))
            .collect();
        (None, refused)
    }

    pub(super) fn events(&self) -> &[Event] {
        match *self {}
    }

    pub(super) fn read(&mut self) -> Reading {
        match *self {}
    }
}
