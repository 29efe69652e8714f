//! An A/B group member against its solo probe: the note says when the
//! group changed what it measures.

use bench_runtime::StopReason;

use super::forks_pooling::process;
use crate::analysis::Overhead;
use crate::results::{differs_alone, Note};

fn at(level: f64) -> crate::results::Measured {
    process(level, Overhead::NONE, StopReason::TimeBudget)
}

#[test]
fn a_member_much_slower_in_its_group_than_alone_gets_a_note() {
    let note = differs_alone(&at(12.0), &at(10.0)).expect("20% apart");
    let Note::DiffersAlone { alone, ratio, .. } = note else {
        panic!("{note:?}")
    };
    // The scripted blocks average 0.005 ns above the level.
    assert!((alone.0 - 10.005).abs() < 1e-9, "{alone:?}");
    assert!((ratio - 12.005 / 10.005).abs() < 1e-9, "{ratio}");
    assert!(
        note.to_string().contains("20.0% longer than alone (10.0"),
        "{note}"
    );
}

#[test]
fn a_member_faster_in_its_group_is_noted_too() {
    let note = differs_alone(&at(8.0), &at(10.0)).expect("20% apart");
    assert!(note.to_string().contains("20.0% less than alone"), "{note}");
}

#[test]
fn a_member_within_ten_percent_of_its_solo_time_gets_none() {
    assert_eq!(differs_alone(&at(10.9), &at(10.0)), None);
    assert_eq!(differs_alone(&at(9.2), &at(10.0)), None);
}
