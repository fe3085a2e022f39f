//! `publish` against a bare `file://` remote and a fake GitHub REST API (wiremock) that checks
//! method, path, query, `Authorization` and JSON body of every call.

use crate::common::scenarios;

#[test]
fn new_pr() {
    scenarios::new_pr();
}

#[test]
fn rerun_updates_same_pr() {
    scenarios::rerun_updates_same_pr();
}

#[test]
fn no_change_pushes_nothing_and_opens_nothing() {
    scenarios::no_change();
}

#[test]
fn stale_pr_is_left_or_closed_with_close_stale() {
    scenarios::stale_pr_closed();
}

#[test]
fn foreign_commit_on_branch_is_refused() {
    scenarios::foreign_commit_refused();
}

#[test]
fn bad_gateway_is_retried() {
    scenarios::bad_gateway_then_success();
}

#[test]
fn secondary_rate_limit_honours_retry_after() {
    scenarios::secondary_rate_limit_then_success();
}

#[test]
fn exhausted_rate_limit_waits_for_reset() {
    scenarios::rate_limit_reset_then_success();
}

#[test]
fn already_exists_is_found_and_updated() {
    scenarios::already_exists_updates();
}

#[test]
fn rerun_completes_a_run_that_pushed_but_failed() {
    scenarios::pushed_then_failed_completes_on_rerun();
}

#[test]
fn dirty_tree_is_refused_unless_allowed() {
    scenarios::dirty_tree_refused();
}

#[test]
fn base_branch_is_never_the_target() {
    scenarios::base_branch_refused();
}

#[test]
fn bad_credentials_say_which_variable() {
    scenarios::bad_credentials();
}

#[test]
fn token_in_report_is_masked() {
    scenarios::token_in_report_is_masked();
}

#[test]
fn plan_paths_are_relative_to_a_subdirectory_root() {
    scenarios::subdirectory_root();
}

#[test]
fn enterprise_api_root_prefixes_every_call() {
    scenarios::enterprise_base_path();
}

#[test]
fn unreachable_github_is_retried_then_reported() {
    scenarios::github_unreachable();
}

#[test]
fn shallow_clones_work_and_stay_intact() {
    scenarios::shallow_clones();
}

#[test]
fn checkout_behind_the_base_is_refused() {
    scenarios::stale_checkout_refused();
}
