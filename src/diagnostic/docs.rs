//! The registry rendered for people and programs: `gateway-migrate codes` (text, JSON,
//! Markdown — the Markdown form is `docs/codes.md`, checked by a test) and
//! `gateway-migrate explain CODE`.

use std::fmt::Write;

use serde::Serialize;

use super::{Code, Severity};

/// The families in documentation order, with their headings.
const FAMILIES: &[(&str, &str, &str)] = &[
    (
        "load",
        "Loading",
        "Problems with the input itself. The document is skipped; the rest of the file and of the repository is still read.",
    ),
    (
        "walk",
        "Skipped paths",
        "Paths the walk passed over, each with its reason.",
    ),
    (
        "istio",
        "Istio translation",
        "Notes of the Istio translator (`Gateway`, `VirtualService`, `DestinationRule`), located at the input field they are about.",
    ),
    (
        "ingress",
        "Ingress translation",
        "Notes of the Ingress translator in `migrate` and `mount` mode.",
    ),
    (
        "ingress-nginx",
        "ingress-nginx annotations",
        "Every `nginx.ingress.kubernetes.io/*` annotation is either translated (and noted) or reported with its own code; security-relevant ones (authentication, allow-lists, rate limits, snippets, WAF) are errors, since dropping them silently opens the service.",
    ),
    (
        "target",
        "Target implementations",
        "What is written for the `--target` implementation where the Standard API has no field (its policy resources), and where a control it cannot carry makes a route fail closed. See `docs/targets.md`.",
    ),
    (
        "gateway-api",
        "Shared translation",
        "Objects the translators add for each other.",
    ),
    (
        "validate",
        "Validation",
        "Generated objects are checked against the official Gateway API v1.6.1 CRDs (schema and CEL rules) of the chosen channel; an invalid generated object is never written. In `check`, Gateway API objects already in the repository are checked too.",
    ),
    (
        "attach",
        "Predicted attachment",
        "The `Accepted` and `ResolvedRefs` conditions a route, parentRef, backendRef or listener would get, computed offline from the Gateways, Services, Secrets, ReferenceGrants and Namespaces in the repository plus the generated objects. What lies outside the repository is unknown: a warning, an error with `--strict`.",
    ),
    ("plan", "Planning", "Notes about the files the run writes."),
    (
        "deploy",
        "Deploy units",
        "What the repository deploys together (kustomize builds, Argo CD Applications and ApplicationSets, Flux Kustomizations, directories), where to, and in which order; where a generated object several units need is placed. See `docs/deploy-units.md`.",
    ),
    (
        "render",
        "Rendering kustomize builds",
        "Each kustomize build root is rendered with the real kustomize on a scratch copy, translated, and rendered again as the repository will be after apply; see `docs/kustomize.md`. Builds that would read outside the repository, fetch remote resources, inflate Helm charts or run plugins are not rendered.",
    ),
    (
        "equivalence",
        "Routing equivalence",
        "Probe requests sent through the old routing (Istio's gateway proxy, ingress-nginx) and through the generated Gateway API objects; every probe whose outcome differs is reported at the old rule. See `docs/equivalence.md`.",
    ),
    (
        "check",
        "Staleness",
        "`check` fails on these: generated files that are missing, outdated, unlisted or orphaned.",
    ),
    (
        "suppress",
        "Suppressions",
        "Inline `# gateway-migrate: ignore[CODE, …] reason` comments and the configuration's `ignore:` rules accept diagnostics (see `docs/suppressions.md`); these codes are about the suppressions themselves.",
    ),
    (
        "internal",
        "Internal errors",
        "gateway-migrate's own bugs, isolated: what crashed is reported and left out, everything else is processed (see `docs/security.md`).",
    ),
];

/// One registry entry, as `codes --format json` lists it.
#[derive(Debug, Serialize)]
pub struct CodeRecord {
    pub code: &'static str,
    pub severity: Severity,
    /// Raised to `error` by `--strict`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub strict_error: bool,
    pub summary: &'static str,
    pub explanation: &'static str,
}

/// Every code as records, in documentation order.
pub fn records() -> Vec<CodeRecord> {
    Code::ALL
        .iter()
        .map(|c| {
            let e = c.entry();
            CodeRecord {
                code: e.id,
                severity: e.severity,
                strict_error: c.escalated_by_strict(),
                summary: e.summary,
                explanation: e.explanation,
            }
        })
        .collect()
}

/// `codes --format json`.
pub fn json() -> String {
    let mut out = serde_json::to_string_pretty(&records()).unwrap_or_else(|_| "[]".into());
    out.push('\n');
    out
}

/// `codes` for a terminal: one line per code.
pub fn text() -> String {
    let mut out = String::new();
    for c in Code::ALL {
        let e = c.entry();
        let _ = writeln!(out, "{:<7} {:<48} {}", e.severity.as_str(), e.id, e.summary);
    }
    out
}

/// `explain CODE`.
pub fn explain(code: Code) -> String {
    let e = code.entry();
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})\n", e.id, severity_text(code));
    // The summary is the explanation's first sentence, or a shortening of it.
    let _ = writeln!(out, "{}\n", e.explanation);
    if let Some(example) = super::examples::example(code) {
        let _ = writeln!(out, "Before:\n\n{}", indent(example.before));
        let _ = writeln!(
            out,
            "After (part of the output):\n\n{}",
            indent(example.after)
        );
    }
    out.push_str("Full list: gateway-migrate codes, or docs/codes.md.\n");
    out
}

fn severity_text(code: Code) -> String {
    let s = code.severity().as_str();
    if code.escalated_by_strict() {
        format!("{s}; error with --strict")
    } else {
        s.to_string()
    }
}

/// `codes --format markdown`: the text of `docs/codes.md`.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# Diagnostic codes\n\n");
    out.push_str("<!-- Generated by `gateway-migrate codes --format markdown`; do not edit by hand (a test compares). -->\n\n");
    out.push_str("Everything gateway-migrate tells you is a diagnostic with a stable code from one registry \
(`src/diagnostic/registry.rs`). Each code has one severity: *error* = something was lost or is invalid \
and must be fixed before merging (exit status 1); *warning* = translated with a behaviour difference the \
reviewer should know about; *info* = what was done and why. `gateway-migrate explain CODE` prints one entry.\n\n");
    let _ = writeln!(out, "{} codes.\n", Code::ALL.len());
    for (family, title, intro) in FAMILIES {
        let codes: Vec<Code> = Code::ALL
            .iter()
            .copied()
            .filter(|c| c.family() == *family)
            .collect();
        if codes.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {title} (`{family}/*`)\n\n{intro}\n");
        out.push_str("| code | severity | summary |\n|---|---|---|\n");
        for c in &codes {
            let e = c.entry();
            let _ = writeln!(
                out,
                "| [`{}`](#{}) | {} | {} |",
                e.id,
                anchor(e.id),
                severity_text(*c),
                cell(e.summary)
            );
        }
        out.push('\n');
        for c in &codes {
            let e = c.entry();
            let _ = writeln!(
                out,
                "### `{}`\n\n*{}*. {}\n",
                e.id,
                severity_text(*c),
                e.explanation
            );
            if let Some(example) = super::examples::example(*c) {
                let _ = writeln!(
                    out,
                    "Before:\n\n```yaml\n{}```\n\nAfter (part of the output):\n\n```yaml\n{}```\n",
                    example.before, example.after
                );
            }
        }
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// GitHub's heading anchor for `### \`istio/retries\``: `istioretries`.
pub fn anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Every family has a section (a code whose family is not listed would be left out).
pub fn families_cover_registry() -> bool {
    Code::ALL
        .iter()
        .all(|c| FAMILIES.iter().any(|(f, _, _)| *f == c.family()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_a_section() {
        assert!(families_cover_registry());
    }

    #[test]
    fn identifiers_are_unique_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            let id = c.id();
            assert!(seen.insert(id), "duplicate code {id}");
            let (family, name) = id.split_once('/').unwrap_or_default();
            assert!(!family.is_empty() && !name.is_empty(), "{id}");
            assert!(
                id.chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || "-/".contains(ch)),
                "{id}"
            );
            assert_eq!(Code::parse(id), Some(*c));
            assert!(!c.entry().summary.is_empty() && !c.entry().explanation.is_empty());
        }
    }

    #[test]
    fn explain_names_the_code_its_severity_and_the_strict_rule() {
        let text = explain(Code::AttachBackendUnknown);
        assert!(text.starts_with("attach/backend-unknown (warning; error with --strict)"));
        let text = explain(Code::IstioRetries);
        assert!(text.contains("experimental"), "{text}");
    }
}
