//! `publish` against a remote served by `git http-backend` on 127.0.0.1 behind Basic auth.

use crate::common::scenarios;

#[test]
fn pushes_over_http_with_the_token_as_password() {
    if !crate::common::http_git::available() {
        return;
    }
    scenarios::http_remote_push();
}

#[test]
fn wrong_token_is_an_auth_error_after_bounded_attempts() {
    if !crate::common::http_git::available() {
        return;
    }
    scenarios::http_remote_wrong_token();
}

#[test]
fn rejected_ref_is_an_error() {
    if !crate::common::http_git::available() {
        return;
    }
    scenarios::http_remote_rejects_ref();
}

#[test]
fn credentials_in_the_remote_url_are_not_shown() {
    if !crate::common::http_git::available() {
        return;
    }
    scenarios::http_remote_url_with_credentials();
}
