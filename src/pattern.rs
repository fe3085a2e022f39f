//! Regular expressions written in the source, and what the text of a pattern says.

use regex::Regex;

/// Compiles a pattern that is a constant of the source code. A typo in one fails every test
/// that reaches it (and `every_constant_pattern_compiles`), never a user's input, so this is
/// the one place allowed to panic on a regex.
#[allow(clippy::expect_used)]
pub(crate) fn constant(pattern: &str) -> Regex {
    Regex::new(pattern).expect("constant regex compiles")
}

/// The characters a regex starts with before its first metacharacter (`/foo/bar/(.+)` →
/// `/foo/bar/`), unescaping `\.` and `\/`.
pub(crate) fn literal_prefix(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.trim_start_matches('^').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.peek() {
                Some(&n) if "./-_~".contains(n) => {
                    out.push(n);
                    chars.next();
                }
                _ => break,
            },
            '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '$' | '^' => {
                // `x?`, `x*`, `x{0,…}` make the last literal optional.
                if matches!(c, '?' | '*' | '{') {
                    out.pop();
                }
                break;
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::literal_prefix;

    #[test]
    fn literal_prefix_stops_at_the_first_operator() {
        assert_eq!(literal_prefix("/foo/bar/(.+)"), "/foo/bar/");
        assert_eq!(literal_prefix("^/api/v1?"), "/api/v");
    }
}
