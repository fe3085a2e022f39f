//! JSON renderer: the versioned contract of `docs/report-format.md`.

use super::Report;

pub fn render(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(report).unwrap_or_else(|_| "{}".into());
    out.push('\n');
    out
}
