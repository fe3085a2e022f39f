//! Markdown renderer: the pull request body and `$GITHUB_STEP_SUMMARY`.
//!
//! Layout: a summary table, the files the run writes, input problems, the validator's findings
//! about Gateway API objects already in the repository (`check`), notes grouped by code, one
//! collapsible section per source file, skipped paths, and last the next steps for the
//! reviewer. The whole text stays within [`GITHUB_BODY_LIMIT`] characters: when the detail
//! sections do not fit, they are cut with a pointer to the full report; the summary and the
//! next steps are always there.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{ObjectReport, Report, Verdict};
use crate::diagnostic::{Code, Severity};

/// GitHub's limit on a pull request body, in characters.
pub const GITHUB_BODY_LIMIT: usize = 65_536;

/// Hidden marker at the top of the body: lets later runs find the PR comment or body.
pub const MARKER: &str = "<!-- gateway-migrate:report -->";

#[derive(Debug, Clone)]
pub struct Options {
    /// Maximum length in characters.
    pub limit: usize,
    /// Where the full report can be read when this one is cut (a path in the repository or
    /// the PR, an artifact name).
    pub full_report: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limit: GITHUB_BODY_LIMIT,
            full_report: None,
        }
    }
}

/// Most entries any one list of the next steps shows (the rest are counted).
const NEXT_STEPS_LIST_CAP: usize = 40;

pub fn render(report: &Report, options: &Options) -> String {
    let head = summary(report);
    let next = next_steps(report);
    // In order of importance: when the limit is reached, later sections are cut first.
    let sections = [
        files(report),
        diagnostics(report),
        findings(report),
        notes_by_code(report),
        per_file(report),
        skipped(report),
    ];
    let full_pointer = match &options.full_report {
        Some(path) => format!("the full report is in `{}`", escape(path)),
        // Findings come from `check` only (`plan` has none); its text report lists them all.
        None if report.findings().next().is_some() => {
            "run `gateway-migrate check --verbose` locally for the full report".into()
        }
        None => "run `gateway-migrate plan --format markdown` locally for the full report".into(),
    };
    let cut_notice = format!(
        "\n> [!NOTE]\n> This report was shortened to fit GitHub's {}-character limit; {full_pointer}.\n\n",
        options.limit
    );
    let fixed = chars(&head) + chars(&next) + chars(&cut_notice);
    let mut budget = options.limit.saturating_sub(fixed);
    let mut out = head;
    let mut cut = false;
    for section in sections {
        if cut {
            break;
        }
        if chars(&section) <= budget {
            budget -= chars(&section);
            out.push_str(&section);
            continue;
        }
        // Keep whole blocks (paragraphs, tables rows, <details> elements) while they fit.
        cut = true;
        let mut kept = String::new();
        let mut kept_len = 0;
        let mut open_details = 0usize;
        for block in section.split_inclusive('\n') {
            let len = chars(block);
            // Room to close any open <details> and table.
            if kept_len + len + 32 > budget {
                break;
            }
            if block.starts_with("<details") {
                open_details += 1;
            } else if block.starts_with("</details>") {
                open_details = open_details.saturating_sub(1);
            }
            kept.push_str(block);
            kept_len += len;
        }
        for _ in 0..open_details {
            kept.push_str("\n</details>\n");
        }
        out.push_str(&kept);
    }
    if cut {
        out.push_str(&cut_notice);
    }
    out.push_str(&next);
    out
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Free text that carries repository content (a diagnostic's message, a reason), for a table
/// cell or a line of Markdown: inside a code span, where Markdown makes no link, image,
/// autolink, mention or HTML (a host name could otherwise put a phishing link in the pull
/// request or ping a team). The span stays one line and closed (backticks become `'`), a table
/// cell stays whole (`|` is escaped, which GitHub's tables unescape in code spans), and
/// invisible and control characters are written `\u{…}`.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        match c {
            '`' => out.push('\''),
            '|' => out.push_str("\\|"),
            '\n' => out.push(' '),
            '\r' => {}
            c if crate::header::hides_text(c) => {
                let _ = write!(out, "\\u{{{:X}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    let out = out.trim().to_string();
    if out.is_empty() {
        return out;
    }
    format!("`{out}`")
}

/// Escapes text for a table cell or a line of Markdown: no HTML, no table breaks, one line.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' => {}
            '\n' => out.push(' '),
            '`' => out.push('\''),
            c => out.push(c),
        }
    }
    out
}

fn summary(report: &Report) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let _ = writeln!(out, "{MARKER}");
    let _ = writeln!(out, "## Gateway API migration report\n");
    let sources: usize = report.objects.len();
    let generated: usize = s.generated.values().sum();
    let mut verdicts: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &report.objects {
        *verdicts.entry(o.verdict.as_str()).or_default() += 1;
    }
    let verdict_text = if verdicts.is_empty() {
        "none".to_string()
    } else {
        verdicts
            .iter()
            .map(|(v, n)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "| | |\n|---|---|");
    let _ = writeln!(
        out,
        "| Scanned | {} files, {} documents |",
        s.files_scanned, s.documents
    );
    let _ = writeln!(out, "| Objects to migrate | {sources} ({verdict_text}) |");
    let _ = writeln!(out, "| Generated objects | {generated} |");
    if !report.builds.is_empty() {
        let _ = writeln!(
            out,
            "| Kustomize builds | {} ({}) |",
            report.builds.len(),
            report.build_counts()
        );
    }
    if let Some(e) = s.equivalence.as_ref().filter(|e| e.probes > 0) {
        let _ = writeln!(out, "| Routing equivalence | {} |", e.line());
    }
    let _ = writeln!(out, "| Files changed | {} |", report.files.len());
    let _ = writeln!(
        out,
        "| Notes | {} errors, {} warnings, {} info |",
        s.notes.error, s.notes.warning, s.notes.info
    );
    if s.suppressed > 0 {
        let _ = writeln!(
            out,
            "| Suppressed | {} (accepted by `# gateway-migrate: ignore[…]` comments or `ignore:` rules) |",
            s.suppressed
        );
    }
    if report.findings().next().is_some() {
        let mut counts = super::NoteCounts::default();
        for f in report.findings() {
            counts.add(f.severity);
        }
        let _ = writeln!(
            out,
            "| Findings in existing Gateway API objects | {} errors, {} warnings, {} info (included in the notes) |",
            counts.error, counts.warning, counts.info
        );
    }
    out.push('\n');
    if !s.objects.is_empty() || !s.generated.is_empty() {
        let _ = writeln!(out, "| Found in the repository | Count |\n|---|---:|");
        for (kind, n) in &s.objects {
            let _ = writeln!(out, "| `{}` | {n} |", escape(kind));
        }
        out.push('\n');
    }
    if !s.generated.is_empty() {
        let _ = writeln!(out, "| Generated | Count |\n|---|---:|");
        for (kind, n) in &s.generated {
            let _ = writeln!(out, "| `{}` | {n} |", escape(kind));
        }
        out.push('\n');
    }
    out
}

fn files(report: &Report) -> String {
    if report.files.is_empty() {
        return String::new();
    }
    let mut out = String::from("### Files\n\n| File | Action |\n|---|---|\n");
    for f in &report.files {
        let _ = writeln!(out, "| `{}` | {} |", escape(&f.path), escape(&f.action));
    }
    out.push('\n');
    out
}

/// Translated objects by source file, each with its position in [`Report::objects`].
fn by_file(report: &Report) -> BTreeMap<&str, Vec<(usize, &ObjectReport)>> {
    let mut map: BTreeMap<&str, Vec<(usize, &ObjectReport)>> = BTreeMap::new();
    for (i, o) in report.objects.iter().enumerate() {
        map.entry(o.source.file.as_str()).or_default().push((i, o));
    }
    map
}

fn object_name(o: &ObjectReport) -> String {
    format!("{} {}/{}", o.source.kind, o.source.namespace, o.source.name)
}

fn per_file(report: &Report) -> String {
    let files = by_file(report);
    if files.is_empty() {
        return String::new();
    }
    let mut out = String::from("### Objects by source file\n\n");
    for (file, objects) in files {
        let notes: usize = objects.iter().map(|(_, o)| o.diagnostics.len()).sum();
        let worst = objects
            .iter()
            .map(|(_, o)| verdict_rank(o.verdict))
            .max()
            .unwrap_or(0);
        let mark = ["", "", " (partial)", " (errors)"][worst.min(3)];
        let _ = writeln!(
            out,
            "<details><summary><code>{}</code>: {} objects, {notes} notes{mark}</summary>\n",
            escape(file),
            objects.len()
        );
        let _ = writeln!(
            out,
            "| Object | Line | Verdict | Generated | Notes |\n|---|---:|---|---|---|"
        );
        for &(position, o) in &objects {
            let generated = if o.generated.is_empty() {
                "none".to_string()
            } else {
                o.generated
                    .iter()
                    .map(|g| {
                        format!(
                            "{} {}/{} in `{}`",
                            escape(&g.kind),
                            escape(&g.namespace),
                            escape(&g.name),
                            escape(&g.file)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            let notes = report
                .notes_of(position)
                .map(|n| format!("{} `{}`", n.severity.as_str(), escape(n.code.id())))
                .collect::<Vec<_>>()
                .join("<br>");
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                escape(&object_name(o)),
                o.source.line,
                o.verdict.as_str(),
                generated,
                notes
            );
        }
        out.push_str("\n</details>\n\n");
    }
    out
}

fn verdict_rank(v: Verdict) -> usize {
    match v {
        Verdict::Translated | Verdict::Skipped => 0,
        Verdict::Partial => 2,
        Verdict::Error => 3,
    }
}

fn notes_by_code(report: &Report) -> String {
    // code → (severity, occurrences)
    let mut groups: BTreeMap<(Severity, &str), Vec<String>> = BTreeMap::new();
    for (position, o) in report.objects.iter().enumerate() {
        for n in report.notes_of(position) {
            let field = n
                .field
                .as_deref()
                .map(|f| format!(" (`{}`)", escape(f)))
                .unwrap_or_default();
            groups
                .entry((n.severity, n.code.id()))
                .or_default()
                .push(format!(
                    "- `{}:{}` {}: {}{field}",
                    escape(&n.file),
                    n.line,
                    escape(&object_name(o)),
                    escape_text(&n.message)
                ));
        }
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from("### Notes by code\n\n");
    for ((severity, code), lines) in groups {
        let _ = writeln!(
            out,
            "<details><summary>{} <code>{}</code>: {}</summary>\n",
            severity.as_str(),
            escape(code),
            lines.len()
        );
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
        out.push_str("\n</details>\n\n");
    }
    out
}

/// The validator's findings, one collapsible group per severity, code and rule (errors
/// first), each occurrence as `file:line` with the object and the offending field.
fn findings(report: &Report) -> String {
    let mut groups: BTreeMap<(Severity, &str, &str), Vec<String>> = BTreeMap::new();
    for f in report.findings() {
        let field = f
            .field
            .as_deref()
            .map(|p| format!(" (`{}`)", escape(p)))
            .unwrap_or_default();
        groups
            .entry((f.severity, f.code.id(), f.rule.as_deref().unwrap_or("")))
            .or_default()
            .push(format!(
                "- `{}:{}` {}: {}{field}",
                escape(&f.file),
                f.line,
                escape(&f.subject_name()),
                escape_text(&f.message)
            ));
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from("### Findings in existing Gateway API objects\n\n");
    for ((severity, code, rule), lines) in groups {
        let _ = writeln!(
            out,
            "<details><summary>{} <code>{}</code> — {}: {}</summary>\n",
            severity.as_str(),
            escape(code),
            escape(rule),
            lines.len()
        );
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
        out.push_str("\n</details>\n\n");
    }
    out
}

fn diagnostics(report: &Report) -> String {
    // Skipped paths have their own section.
    let rows: Vec<_> = report
        .file_diagnostics()
        .filter(|d| d.code.family() != "walk")
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "### Input and planning notes\n\n| File | Line | Severity | Code | Message |\n|---|---:|---|---|---|\n",
    );
    for d in rows {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | `{}` | {} |",
            escape(&d.file),
            d.line,
            d.severity.as_str(),
            escape(d.code.id()),
            escape_text(&d.message)
        );
    }
    out.push('\n');
    out
}

fn skipped(report: &Report) -> String {
    if report.skipped.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<details><summary>Skipped paths: {}</summary>\n\n",
        report.skipped.len()
    );
    for s in &report.skipped {
        let _ = writeln!(out, "- `{}`: {}", escape(&s.path), escape_text(&s.reason));
    }
    out.push_str("\n</details>\n\n");
    out
}

/// Writes at most [`NEXT_STEPS_LIST_CAP`] lines of `items`, then how many were left out.
fn capped_list(out: &mut String, items: &[String], indent: &str) {
    for item in items.iter().take(NEXT_STEPS_LIST_CAP) {
        let _ = writeln!(out, "{indent}- {item}");
    }
    if items.len() > NEXT_STEPS_LIST_CAP {
        let _ = writeln!(
            out,
            "{indent}- ... and {} more (see the full report)",
            items.len() - NEXT_STEPS_LIST_CAP
        );
    }
}

fn next_steps(report: &Report) -> String {
    let mut out = String::from("### Next steps for the reviewer\n\n");
    let generated: Vec<_> = report
        .objects
        .iter()
        .flat_map(|o| o.generated.iter())
        .collect();
    if generated.is_empty() {
        out.push_str("Nothing was generated, so merging changes nothing in the cluster.\n");
        return out;
    }
    let mut gateways: Vec<String> = generated
        .iter()
        .filter(|g| g.kind == "Gateway")
        .map(|g| {
            format!(
                "`{}/{}` (in `{}`)",
                escape(&g.namespace),
                escape(&g.name),
                escape(&g.file)
            )
        })
        .collect();
    gateways.sort();
    gateways.dedup();
    let mesh_notes: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                Code::PlanMeshRouteDeployed
                    | Code::PlanMeshRouteNotDeployed
                    | Code::PlanMeshRouteUnlisted
            )
        })
        .collect();

    out.push_str("1. **What changes on merge.** ");
    out.push_str(
        "The new objects are deployed next to the old ones: kustomizations list the new files and directory-based Argo CD or Flux apps apply every manifest in their directory.",
    );
    if gateways.is_empty() {
        out.push_str(" No Gateway is created; the new routes attach to existing Gateways.\n");
    } else {
        let _ = writeln!(
            out,
            " {} new Gateway(s) get their own data plane and a new load balancer address (unless `spec.addresses` names the old one), so traffic keeps flowing through the old objects until DNS moves:",
            gateways.len()
        );
        capped_list(&mut out, &gateways, "   ");
    }
    if !mesh_notes.is_empty() {
        out.push_str(
            "   - Mesh (GAMMA) routes are written but not deployed: Istio does not support a VirtualService and an HTTPRoute for the same workload. Files:\n",
        );
        let files: Vec<String> = mesh_notes
            .iter()
            .map(|d| format!("`{}`", escape(&d.file)))
            .collect();
        capped_list(&mut out, &files, "     ");
    }
    out.push_str(
        "2. **How to test.** Before merging: `kubectl kustomize <dir> | kubectl apply --dry-run=server -f -` for each changed kustomization (needs the Gateway API CRDs on the cluster). After the sync: `kubectl get gateways,httproutes -A` and check that every Gateway is `Programmed` and every route `Accepted` with `ResolvedRefs`; then send requests to the new address without touching DNS, e.g. `curl --resolve <host>:443:<new address> https://<host>/`.\n",
    );
    out.push_str(
        "3. **DNS cut-over.** Lower the TTL of the records in advance; read each new Gateway's address with `kubectl get gateway -n <ns> <name> -o jsonpath='{.status.addresses[*].value}'`; point each hostname's record at it, watch traffic move, and keep the old records' values at hand to roll back.\n",
    );
    out.push_str(
        "4. **Delete the old objects afterwards**, once traffic has moved (and remove them from kustomization `resources:` and from any overlay patch):\n",
    );
    let mut old: Vec<String> = Vec::new();
    for (file, objects) in by_file(report) {
        let names: Vec<String> = objects
            .iter()
            .map(|(_, o)| o)
            .filter(|o| matches!(o.verdict, Verdict::Translated | Verdict::Partial))
            .map(|o| escape(&object_name(o)))
            .collect();
        if !names.is_empty() {
            old.push(format!("`{}`: {}", escape(file), names.join(", ")));
        }
    }
    capped_list(&mut out, &old, "   ");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repository text cannot make a link, an image or a mention in a pull request, nor hide
    /// behind a bidirectional override.
    #[test]
    fn free_text_makes_no_link_image_or_mention() {
        let text =
            escape_text("host '[approve](https://evil.example)' ![x](y) @acme/sec `x` \u{202E}");
        assert_eq!(
            text,
            "`host '[approve](https://evil.example)' ![x](y) @acme/sec 'x' \\u{202E}`"
        );
        assert_eq!(escape_text(""), "");
    }
}
