//! Regular expressions written in the source.

use regex::Regex;

/// Compiles a pattern that is a constant of the source code. A typo in one fails every test
/// that reaches it (and `every_constant_pattern_compiles`), never a user's input, so this is
/// the one place allowed to panic on a regex.
#[allow(clippy::expect_used)]
pub(crate) fn constant(pattern: &str) -> Regex {
    Regex::new(pattern).expect("constant regex compiles")
}
