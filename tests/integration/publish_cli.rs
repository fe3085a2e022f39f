//! `gateway-migrate pr` as a process, configured through GitHub Actions' environment.

use crate::common::scenarios;

#[test]
fn close_stale_prints_json_and_step_outputs() {
    scenarios::cli_close_stale_json();
}

#[test]
fn nothing_to_change_prints_none() {
    scenarios::cli_none_text();
}

#[test]
fn failures_exit_2_with_a_hint() {
    scenarios::cli_failures();
}
