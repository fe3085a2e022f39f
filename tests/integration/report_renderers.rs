//! Renderer tests: one small hand-made report through every format (snapshots), plus the
//! limits each format must keep (Markdown size, annotation counts, SARIF schema).
//!
//! The report is assembled by hand (as `Report::build` would from a run) so that each
//! renderer's handling of unusual text (table breaks, HTML, line breaks) can be pinned down.

use std::collections::BTreeMap;
use std::path::Path;

use gateway_migrate::diagnostic::{Code, Severity};
use gateway_migrate::plan::FileAction;
use gateway_migrate::report::{
    BuildSummary, GeneratedInfo, NoteCounts, ObjectReport, REPORT_VERSION, Report,
    ReportedDiagnostic, SourceInfo, Subject, Summary, UnitSummary, Verdict, github, json, markdown,
    sarif, text,
};
use gateway_migrate::walk::{SkipKind, Skipped};

/// A diagnostic about an object or a file, before it is placed in a report.
struct Row {
    code: Code,
    message: String,
    field: Option<String>,
    rule: Option<String>,
}

fn note(code: Code, message: impl Into<String>) -> Row {
    Row {
        code,
        message: message.into(),
        field: None,
        rule: None,
    }
}

impl Row {
    fn at(mut self, field: &str) -> Row {
        self.field = Some(field.into());
        self
    }

    fn rule(mut self, rule: &str) -> Row {
        self.rule = Some(rule.into());
        self
    }
}

fn object(
    file: &str,
    line: usize,
    kind: &str,
    name: &str,
    notes: Vec<Row>,
) -> (ObjectReport, Vec<Row>) {
    let verdict = if notes.iter().any(|n| n.code.severity() == Severity::Error) {
        Verdict::Partial
    } else {
        Verdict::Translated
    };
    let report = ObjectReport {
        source: SourceInfo {
            file: file.into(),
            line,
            api_version: "networking.istio.io/v1".into(),
            kind: kind.into(),
            namespace: "shop".into(),
            name: name.into(),
        },
        verdict,
        generated: vec![
            GeneratedInfo {
                kind: "Gateway".into(),
                namespace: "shop".into(),
                name: format!("{name}-gw"),
                file: file.replace(".yaml", ".gateway-api.yaml"),
            },
            GeneratedInfo {
                kind: "HTTPRoute".into(),
                namespace: "shop".into(),
                name: name.into(),
                file: file.replace(".yaml", ".gateway-api.yaml"),
            },
        ],
        diagnostics: Vec::new(),
    };
    (report, notes)
}

/// A finding about a Gateway API object already in the repository (`check`).
struct Finding {
    file: String,
    line: usize,
    kind: String,
    name: String,
    row: Row,
}

#[allow(clippy::too_many_arguments)]
fn finding(
    file: &str,
    line: usize,
    kind: &str,
    name: &str,
    code: Code,
    rule: &str,
    message: &str,
    path: &str,
) -> Finding {
    Finding {
        file: file.into(),
        line,
        kind: kind.into(),
        name: name.into(),
        row: note(code, message).at(path).rule(rule),
    }
}

fn reported(
    row: Row,
    file: &str,
    line: usize,
    subject: Option<Subject>,
    object: Option<usize>,
) -> ReportedDiagnostic {
    ReportedDiagnostic {
        code: row.code,
        severity: row.code.severity(),
        message: row.message,
        file: file.into(),
        line,
        column: None,
        end_line: None,
        field: row.field,
        generated_field: None,
        rule: row.rule,
        subject,
        object,
    }
}

/// Puts objects (with their notes), findings and file diagnostics into one report, the way
/// `Report::build` does: one sorted diagnostics list, indexed by object, counted.
fn assemble(
    objects: Vec<(ObjectReport, Vec<Row>)>,
    findings: Vec<Finding>,
    file_level: Vec<(String, Row)>,
) -> Report {
    let mut report_objects = Vec::new();
    let mut all = Vec::new();
    for (i, (o, notes)) in objects.into_iter().enumerate() {
        let subject = Subject {
            kind: o.source.kind.clone(),
            namespace: o.source.namespace.clone(),
            name: o.source.name.clone(),
        };
        for n in notes {
            all.push(reported(
                n,
                &o.source.file,
                o.source.line,
                Some(subject.clone()),
                Some(i),
            ));
        }
        report_objects.push(o);
    }
    for f in findings {
        let subject = Subject {
            kind: f.kind.clone(),
            namespace: "shop".into(),
            name: f.name.clone(),
        };
        all.push(reported(f.row, &f.file, f.line, Some(subject), None));
    }
    for (file, row) in file_level {
        all.push(reported(row, &file, 1, None, None));
    }
    all.sort_by(|a, b| {
        (&a.file, a.line, a.code, &a.message).cmp(&(&b.file, b.line, b.code, &b.message))
    });
    let mut notes = NoteCounts::default();
    for (i, d) in all.iter().enumerate() {
        notes.add(d.severity);
        if let Some(o) = d.object.and_then(|o| report_objects.get_mut(o)) {
            o.diagnostics.push(i);
        }
    }
    Report {
        version: REPORT_VERSION,
        summary: Summary {
            files_scanned: 12,
            documents: 30,
            objects: BTreeMap::from([("networking.istio.io/VirtualService".into(), 2)]),
            generated: BTreeMap::from([("Gateway".into(), 2), ("HTTPRoute".into(), 2)]),
            notes,
            suppressed: 0,
            equivalence: None,
        },
        objects: report_objects,
        diagnostics: all,
        skipped: vec![Skipped {
            path: "charts/web".into(),
            kind: SkipKind::HelmChart,
            reason: "Helm chart (templates are not YAML)".into(),
        }],
        files: vec![
            FileAction {
                path: "apps/shop/kustomization.yaml".into(),
                action: "update".into(),
            },
            FileAction {
                path: "apps/shop/routes.gateway-api.yaml".into(),
                action: "create".into(),
            },
        ],
        builds: vec![
            BuildSummary {
                build: "apps/shop".into(),
                kustomization: Some("apps/shop/kustomization.yaml".into()),
                deployed_by: vec!["clusters/prod/shop.yaml".into()],
                status: "verified",
            },
            BuildSummary {
                build: "apps/legacy".into(),
                kustomization: Some("apps/legacy/kustomization.yaml".into()),
                deployed_by: vec![],
                status: "refused",
            },
        ],
        units: vec![
            UnitSummary {
                unit: "apps/legacy".into(),
                kind: gateway_migrate::deploy::UnitKind::Kustomize,
                kustomization: Some("apps/legacy/kustomization.yaml".into()),
                deployed_by: vec![],
                status: Some("refused"),
            },
            UnitSummary {
                unit: "apps/shop".into(),
                kind: gateway_migrate::deploy::UnitKind::Kustomize,
                kustomization: Some("apps/shop/kustomization.yaml".into()),
                deployed_by: vec![gateway_migrate::deploy::Deployment {
                    file: "clusters/prod/shop.yaml".into(),
                    line: 1,
                    kind: "Kustomization".into(),
                    name: "flux-system/shop".into(),
                    cluster: None,
                    namespace: Some("shop".into()),
                    depends_on: vec!["flux-system/infra".into()],
                    wave: None,
                    include: None,
                    exclude: None,
                    options: Default::default(),
                }],
                status: Some("verified"),
            },
        ],
        suppressed: Vec::new(),
        controllers: Vec::new(),
    }
}

/// What `check` finds in hand-written Gateway API objects: a CEL rule of the Gateway CRD
/// (the rule is the CRD's message) and a predicted-status warning (the rule is the reason).
fn sample_findings() -> Vec<Finding> {
    vec![
        finding(
            "apps/shop/gateway.yaml",
            7,
            "Gateway",
            "edge",
            Code::ValidateCel,
            "Listener name must be unique within the Gateway",
            "Listener name must be unique within the Gateway",
            "spec.listeners",
        ),
        finding(
            "apps/shop/legacy-route.yaml",
            12,
            "HTTPRoute",
            "legacy",
            Code::AttachParentUnknown,
            "ParentNotFound",
            "parentRef infra/shared: Gateway infra/shared is not in the repository; attachment cannot be predicted",
            "spec.parentRefs[0]",
        ),
    ]
}

fn sample_objects() -> Vec<(ObjectReport, Vec<Row>)> {
    vec![
        object(
            "apps/shop/routes.yaml",
            3,
            "VirtualService",
            "front",
            vec![
                note(
                    Code::IstioWithoutHeaders,
                    "withoutHeaders has no Gateway API equivalent | dropped <b>",
                )
                .at("spec.http[0].match[0].withoutHeaders"),
                note(
                    Code::IstioPortFromService,
                    "port taken from the Service's only port",
                ),
            ],
        ),
        object(
            "apps/shop/routes.yaml",
            40,
            "VirtualService",
            "api",
            vec![note(
                Code::IstioDelegateNested,
                "delegate VirtualServices are not translated:\nport the delegate by hand",
            )],
        ),
    ]
}

fn sample_file_level() -> Vec<(String, Row)> {
    vec![(
        "apps/shop/routes.gateway-api-mesh.yaml".into(),
        note(
            Code::PlanMeshRouteNotDeployed,
            "mesh (GAMMA) routes HTTPRoute shop/reviews are written but not added",
        ),
    )]
}

fn sample() -> Report {
    assemble(sample_objects(), sample_findings(), sample_file_level())
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(text::render(&sample(), &text::Options::verbose()));
}

/// The default text view on a big report: the counts per code come first, errors before
/// warnings, each code capped, the whole within a screenful or two; `--verbose` lists all.
#[test]
fn text_starts_with_counts_and_caps_each_code() {
    let report = huge();
    let out = text::render(&report, &text::Options::default());
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() <= 300, "{} lines", lines.len());
    let n = &report.summary.notes;
    assert!(n.error > 0 && n.warning > 2_000 && n.info > 0, "{n:?}");
    assert!(
        lines[0].starts_with(&format!(
            "{} errors, {} warnings, {} info (--verbose shows them); ",
            n.error, n.warning, n.info
        )),
        "{}",
        lines[0]
    );
    // The counts, most severe first, then by count.
    let counts: Vec<Vec<&str>> = lines[1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(counts[0][1], "error");
    assert_eq!(counts[1], ["2000", "warning", "istio/retries"]);
    assert!(counts.iter().all(|c| c[1] != "info"));
    let warning_at = lines.iter().position(|l| l.contains("warning[")).unwrap();
    let last_error = lines.iter().rposition(|l| l.contains(": error[")).unwrap();
    assert!(last_error < warning_at, "errors are listed before warnings");
    assert_eq!(
        out.matches("warning[istio/retries]").count(),
        10,
        "ten lines per code"
    );
    assert!(out.contains("  … 1990 more istio/retries (--verbose lists all"));
    assert!(!out.contains("info["), "info is hidden by default");
    assert!(lines.iter().all(|l| l.chars().count() <= 400));
    let verbose = text::render(&report, &text::Options::verbose());
    assert_eq!(verbose.matches("warning[istio/retries]").count(), 2000);
    assert!(verbose.contains("info["));
    // Quiet: the first line and the errors.
    let quiet = text::render(
        &report,
        &text::Options {
            quiet: true,
            ..Default::default()
        },
    );
    assert_eq!(quiet.lines().next(), Some(lines[0]));
    assert!(!quiet.contains("warning["));
    assert_eq!(quiet.matches(": error[").count(), n.error);
}

#[test]
fn concise_is_one_line_per_diagnostic() {
    let report = huge();
    let out = text::concise(&report);
    assert_eq!(out.lines().count(), report.diagnostics.len());
    let first = &report.diagnostics[0];
    assert!(
        out.lines().next().unwrap().starts_with(&format!(
            "{}:{}: {}[{}] ",
            first.file,
            first.line,
            first.severity.as_str(),
            first.code
        )),
        "{}",
        out.lines().next().unwrap()
    );
}

#[test]
fn json_keeps_the_contract() {
    let value: serde_json::Value = serde_json::from_str(&json::render(&sample())).unwrap();
    assert_eq!(value["version"], 2);
    for key in [
        "files_scanned",
        "documents",
        "objects",
        "generated",
        "notes",
    ] {
        assert!(value["summary"].get(key).is_some(), "summary.{key}");
    }
    let obj = &value["objects"][0];
    for key in ["file", "line", "apiVersion", "kind", "namespace", "name"] {
        assert!(obj["source"].get(key).is_some(), "source.{key}");
    }
    assert_eq!(obj["verdict"], "translated");
    assert_eq!(
        obj["generated"][1]["file"],
        "apps/shop/routes.gateway-api.yaml"
    );
    let diagnostics = value["diagnostics"].as_array().unwrap();
    let first_note = diagnostics
        .iter()
        .find(|d| d["object"] == 0 && d["code"] == "istio/without-headers")
        .unwrap();
    assert_eq!(first_note["field"], "spec.http[0].match[0].withoutHeaders");
    assert_eq!(value["files"][1]["action"], "create");
    assert_eq!(value["skipped"][0]["path"], "charts/web");
    // A finding is a diagnostic about a repository object that is not a translated source.
    let finding = diagnostics
        .iter()
        .find(|d| d.get("subject").is_some() && d.get("object").is_none())
        .unwrap();
    for key in [
        "file", "line", "code", "rule", "severity", "message", "field",
    ] {
        assert!(finding.get(key).is_some(), "diagnostics[].{key}");
    }
    for key in ["kind", "namespace", "name"] {
        assert!(finding["subject"].get(key).is_some(), "subject.{key}");
    }
    assert_eq!(
        finding["rule"],
        "Listener name must be unique within the Gateway"
    );
    assert_eq!(
        value["summary"]["notes"]["error"], 2,
        "findings are counted"
    );
}

#[test]
fn markdown_lists_findings_errors_first_and_counts_them() {
    let md = markdown::render(&sample(), &markdown::Options::default());
    assert!(
        md.contains("| Notes | 2 errors, 2 warnings, 2 info |"),
        "{md}"
    );
    assert!(
        md.contains(
            "| Findings in existing Gateway API objects | 1 errors, 1 warnings, 0 info (included in the notes) |"
        ),
        "{md}"
    );
    let section = md
        .split("### Findings in existing Gateway API objects\n")
        .nth(1)
        .unwrap()
        .split("###")
        .next()
        .unwrap();
    let error = section
        .find("<details><summary>error <code>validate/cel</code> — Listener name must be unique within the Gateway: 1</summary>")
        .unwrap();
    let warning = section
        .find("<details><summary>warning <code>attach/parent-unknown</code> — ParentNotFound: 1</summary>")
        .unwrap();
    assert!(error < warning, "errors first: {section}");
    assert!(section.contains(
        "- `apps/shop/gateway.yaml:7` Gateway shop/edge: `Listener name must be unique within the Gateway` (`spec.listeners`)"
    ), "{section}");
    assert!(section.contains(
        "- `apps/shop/legacy-route.yaml:12` HTTPRoute shop/legacy: `parentRef infra/shared: Gateway infra/shared is not in the repository; attachment cannot be predicted` (`spec.parentRefs[0]`)"
    ), "{section}");
    assert_eq!(
        section.matches("<details").count(),
        section.matches("</details>").count()
    );
}

#[test]
fn findings_are_escaped_in_markdown_and_annotations() {
    let report = assemble(
        sample_objects(),
        vec![finding(
            "apps/a,b:c.yaml",
            3,
            "HTTPRoute",
            "r",
            Code::ValidateSchema,
            "schema/pattern",
            "value <b>|x</b> 50%\ndoes not match",
            "spec.hostnames[0]",
        )],
        sample_file_level(),
    );
    let md = markdown::render(&report, &markdown::Options::default());
    // Repository text is shown in a code span, where Markdown renders no HTML, link or
    // mention; `|` stays escaped for tables, the line break is a space.
    let span = "HTTPRoute shop/r: `value <b>\\|x</b> 50% does not match`";
    assert!(md.contains(span), "{md}");
    // Every `<b>` of the report is inside a code span (the sample's own finding holds one too).
    for line in md.lines().filter(|l| l.contains("<b>")) {
        let outside: String = line.split('`').step_by(2).collect();
        assert!(!outside.contains("<b>"), "{line}");
    }
    let gh = github::render(&report);
    assert!(
        gh.contains(
            "\n::error file=apps/a%2Cb%3Ac.yaml,line=3,title=gateway-migrate validate/schema::HTTPRoute shop/r: value <b>|x</b> 50%25%0Adoes not match (spec.hostnames[0]) [rule: schema/pattern]\n"
        ),
        "{gh}"
    );
}

#[test]
fn markdown_snapshot() {
    insta::assert_snapshot!(markdown::render(&sample(), &markdown::Options::default()));
}

#[test]
fn markdown_escapes_user_text() {
    let md = markdown::render(&sample(), &markdown::Options::default());
    // In a code span: no HTML is rendered there, and `|` stays escaped for tables.
    let span = "`withoutHeaders has no Gateway API equivalent \\| dropped <b>`";
    assert!(md.contains(span), "{md}");
    assert!(!md.replace(span, "").contains("<b>"), "{md}");
    assert!(
        md.contains("not translated: port the delegate by hand"),
        "one line"
    );
}

#[test]
fn markdown_ends_with_next_steps_listing_old_objects_by_file() {
    let md = markdown::render(&sample(), &markdown::Options::default());
    let next = md.split("### Next steps for the reviewer").nth(1).unwrap();
    assert!(next.contains("2 new Gateway(s)"), "{next}");
    assert!(next.contains("`shop/front-gw`"), "{next}");
    assert!(
        next.contains("Mesh (GAMMA) routes are written but not deployed"),
        "{next}"
    );
    assert!(next.contains("DNS cut-over"), "{next}");
    assert!(
        next.contains(
            "`apps/shop/routes.yaml`: VirtualService shop/front, VirtualService shop/api"
        ),
        "{next}"
    );
    assert!(!next.contains("###"), "next steps are the last section");
}

fn huge() -> Report {
    let long = "x".repeat(300);
    let objects = (0..2_000)
        .map(|i| {
            object(
                &format!("apps/team-{}/routes-{i}.yaml", i % 50),
                i + 1,
                "VirtualService",
                &format!("route-{i}"),
                vec![note(Code::IstioRetries, format!("retry policy {i} {long}"))],
            )
        })
        .collect();
    assemble(objects, sample_findings(), sample_file_level())
}

#[test]
fn markdown_fits_githubs_limit_and_points_to_the_full_report() {
    let options = markdown::Options {
        full_report: Some("gateway-migrate-report.md".into()),
        ..Default::default()
    };
    let md = markdown::render(&huge(), &options);
    let len = md.chars().count();
    assert!(len <= markdown::GITHUB_BODY_LIMIT, "{len}");
    assert!(
        len > markdown::GITHUB_BODY_LIMIT - 5_000,
        "uses the room it has: {len}"
    );
    assert!(md.contains("the full report is in `gateway-migrate-report.md`"));
    assert_eq!(
        md.matches("<details").count(),
        md.matches("</details>").count(),
        "collapsible sections stay balanced"
    );
    assert!(md.contains("### Next steps for the reviewer"));
    assert!(md.contains("... and 1960 more (see the full report)"));
    // The untruncated report fits when the limit allows.
    let full = markdown::render(
        &huge(),
        &markdown::Options {
            limit: usize::MAX,
            full_report: None,
        },
    );
    assert!(!full.contains("This report was shortened"));
    assert!(full.chars().count() > markdown::GITHUB_BODY_LIMIT);
}

#[test]
fn markdown_cuts_findings_to_the_limit_with_a_pointer() {
    let long = "y".repeat(300);
    let mut findings: Vec<Finding> = (0..1_000)
        .map(|i| {
            let file = format!("apps/team-{}/routes-{i}.yaml", i % 50);
            if i % 2 == 0 {
                finding(
                    &file,
                    i + 1,
                    "Gateway",
                    &format!("gw-{i}"),
                    Code::ValidateCel,
                    "Listener name must be unique within the Gateway",
                    &format!("Listener name must be unique within the Gateway {i} {long}"),
                    "spec.listeners",
                )
            } else {
                finding(
                    &file,
                    i + 1,
                    "HTTPRoute",
                    &format!("route-{i}"),
                    Code::AttachBackendNotFound,
                    "BackendNotFound",
                    &format!("Service shop/svc-{i} does not exist {long}"),
                    "spec.rules[0].backendRefs[0]",
                )
            }
        })
        .collect();
    // Added to the sample's two findings, counted in the summary as `Report::build` does.
    findings.extend(sample_findings());
    let report = assemble(sample_objects(), findings, sample_file_level());
    let options = markdown::Options {
        full_report: Some("gateway-migrate-report.md".into()),
        ..Default::default()
    };
    let md = markdown::render(&report, &options);
    let len = md.chars().count();
    assert!(len <= markdown::GITHUB_BODY_LIMIT, "{len}");
    assert!(len > markdown::GITHUB_BODY_LIMIT - 5_000, "{len}");
    assert!(md.contains("### Findings in existing Gateway API objects"));
    // Groups come errors first, by code: the `attach/...` errors are kept from the start,
    // the last `validate/cel` errors and the sample's warning finding are cut.
    assert!(md.contains("Service shop/svc-1 does not exist"), "{md}");
    assert!(
        !md.contains("Listener name must be unique within the Gateway 998 "),
        "the findings are cut"
    );
    assert!(!md.contains("attach/parent-unknown"));
    assert!(md.contains("the full report is in `gateway-migrate-report.md`"));
    // Without a named full report, the pointer names `check`: `plan` has no findings.
    let md_default = markdown::render(&report, &markdown::Options::default());
    assert!(
        md_default.contains("run `gateway-migrate check --verbose` locally for the full report"),
        "{md_default}"
    );
    assert!(
        md.contains("| Findings in existing Gateway API objects | 1001 errors, 1 warnings, 0 info")
    );
    assert_eq!(
        md.matches("<details").count(),
        md.matches("</details>").count()
    );
    assert!(md.contains("### Next steps for the reviewer"));
}

#[test]
fn github_snapshot() {
    insta::assert_snapshot!(github::render(&sample()));
}

#[test]
fn github_escaping() {
    assert_eq!(github::escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
    assert_eq!(
        github::escape_property("dir/a,b:c.yaml\n"),
        "dir/a%2Cb%3Ac.yaml%0A"
    );
}

#[test]
fn github_annotations_are_ranked_and_capped_with_a_final_count() {
    let mut notes = Vec::new();
    for i in 0..25 {
        notes.push(note(Code::IstioDirectResponseDropped, format!("error {i}")));
    }
    for i in 0..3 {
        notes.push(note(Code::IstioRetries, format!("warning {i}")));
    }
    for i in 0..15 {
        notes.push(note(Code::IstioPortFromService, format!("info {i}")));
    }
    // Findings are ranked with the notes: this error sorts before `a.yaml`, the sample's
    // error finding (`apps/...`) after all 25 note errors, so only the first is shown.
    let mut findings = sample_findings();
    findings.push(finding(
        "0-gateway.yaml",
        4,
        "Gateway",
        "edge",
        Code::ValidateCel,
        "tls mode must be set for protocol TLS",
        "tls mode must be set for protocol TLS",
        "spec.listeners",
    ));
    let report = assemble(
        vec![object("a.yaml", 1, "Ingress", "web", notes)],
        findings,
        Vec::new(),
    );
    let out = github::render(&report);
    let commands: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("::endgroup::"))
        .skip(1)
        .collect();
    let count = |p: &str| commands.iter().filter(|l| l.starts_with(p)).count();
    assert_eq!(count("::error "), 10);
    assert_eq!(count("::warning "), 4, "3 notes and 1 finding");
    assert_eq!(count("::notice "), 10, "9 notices and the final count");
    assert_eq!(
        commands[0],
        "::error file=0-gateway.yaml,line=4,title=gateway-migrate validate/cel::Gateway shop/edge: tls mode must be set for protocol TLS (spec.listeners)",
        "errors first, ranked by file and line"
    );
    assert!(commands[1].starts_with("::error file=a.yaml,"));
    assert!(!out.contains("::error file=apps/shop/gateway.yaml"));
    assert!(commands.contains(&"::warning file=apps/shop/legacy-route.yaml,line=12,title=gateway-migrate attach/parent-unknown::HTTPRoute shop/legacy: parentRef infra/shared: Gateway infra/shared is not in the repository; attachment cannot be predicted (spec.parentRefs[0]) [rule: ParentNotFound]"));
    let last = commands.last().unwrap();
    assert!(
        last.starts_with("::notice title=gateway-migrate::23 more annotations were not shown"),
        "{last}"
    );
    assert!(last.contains("17 errors, 0 warnings, 6 notices"), "{last}");
    // The log stops workflow commands while quoting the repository's text.
    let token_line = out.lines().nth(1).unwrap();
    let token = token_line.strip_prefix("::stop-commands::").unwrap();
    assert!(out.contains(&format!("\n::{token}::\n")));
}

#[test]
fn sarif_snapshot() {
    insta::assert_snapshot!(sarif::render(&sample(), &with_info()));
}

#[test]
fn sarif_reports_findings_with_their_rule_and_location() {
    let log: serde_json::Value =
        serde_json::from_str(&sarif::render(&sample(), &with_info())).unwrap();
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"validate/cel"), "{rules:?}");
    assert!(rules.contains(&"attach/parent-unknown"), "{rules:?}");
    let results = run["results"].as_array().unwrap();
    let cel = results
        .iter()
        .find(|r| r["ruleId"] == "validate/cel")
        .unwrap();
    assert_eq!(cel["level"], "error");
    assert_eq!(
        cel["message"]["text"],
        "Gateway shop/edge: Listener name must be unique within the Gateway (spec.listeners)"
    );
    assert_eq!(
        cel["properties"]["rule"],
        "Listener name must be unique within the Gateway"
    );
    assert_eq!(cel["properties"]["path"], "spec.listeners");
    let loc = &cel["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "apps/shop/gateway.yaml");
    assert_eq!(loc["region"]["startLine"], 7);
    let index = cel["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index], "validate/cel");
    let attach = results
        .iter()
        .find(|r| r["ruleId"] == "attach/parent-unknown")
        .unwrap();
    assert_eq!(attach["level"], "warning");
    assert_eq!(attach["properties"]["rule"], "ParentNotFound");
    assert!(
        attach["message"]["text"]
            .as_str()
            .unwrap()
            .ends_with("(spec.parentRefs[0]) [rule: ParentNotFound]")
    );
    // Notes carry no finding properties.
    let note = results
        .iter()
        .find(|r| r["ruleId"] == "istio/delegate-nested")
        .unwrap();
    assert!(note.get("properties").is_none());
}

/// The vendored SARIF 2.1.0 schema, compiled.
fn sarif_validator() -> jsonschema::Validator {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/schemas/sarif-2.1.0-rtm.5.json");
    // The schema's `run.language` pattern has a stray `]`, a literal in non-Unicode
    // ECMAScript but rejected by the `regex` format check of the draft-04 meta-schema: escape
    // it (same meaning) in memory; the vendored file stays byte for byte as published.
    let schema_text = std::fs::read_to_string(schema_path).unwrap();
    let stray = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert!(schema_text.contains(stray));
    let schema_text = schema_text.replace(stray, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#);
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// With GitHub's real limits, on more results than it takes: at most 25,000 results, under
/// 10 MB, every error kept, and still valid SARIF.
#[test]
fn sarif_of_a_huge_run_fits_githubs_limits_and_stays_valid() {
    let long = "z".repeat(400);
    let objects = (0..3_000)
        .map(|i| {
            let notes = (0..10)
                .map(|k| {
                    let code = if k == 0 {
                        Code::IstioDelegateNested
                    } else {
                        Code::IstioRetries
                    };
                    note(code, format!("note {k} of {i} {long}")).at(&format!("spec.http[{k}]"))
                })
                .collect();
            object(
                &format!("apps/team-{}/routes-{i}.yaml", i % 50),
                i + 1,
                "VirtualService",
                &format!("route-{i}"),
                notes,
            )
        })
        .collect();
    let report = assemble(objects, Vec::new(), Vec::new());
    assert!(report.diagnostics.len() >= 30_000);
    let out = sarif::render(&report, &sarif::Options::default());
    assert!(out.len() <= sarif::MAX_BYTES, "{} bytes", out.len());
    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert!(results.len() <= sarif::MAX_RESULTS);
    assert!(
        results.len() > 10_000,
        "uses the room it has: {}",
        results.len()
    );
    assert_eq!(
        results.iter().filter(|r| r["level"] == "error").count(),
        report.summary.notes.error
    );
    assert_eq!(
        run["properties"]["omittedResults"].as_u64().unwrap() as usize + results.len(),
        report.summary.notes.error + report.summary.notes.warning
    );
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&log)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let validator = sarif_validator();
    for report in [sample(), huge()] {
        let log: serde_json::Value =
            serde_json::from_str(&sarif::render(&report, &with_info())).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        // What GitHub code scanning needs on top of the schema.
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "gateway-migrate");
        for result in run["results"].as_array().unwrap() {
            let rule = result["ruleId"].as_str().unwrap();
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(run["tool"]["driver"]["rules"][index]["id"], rule);
            let loc = &result["locations"][0]["physicalLocation"];
            assert!(
                !loc["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .starts_with('/')
            );
            assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
            assert!(result["partialFingerprints"]["gatewayMigrate/v1"].is_string());
        }
    }
    // The schema check itself bites: a result without a message is rejected.
    let mut bad: serde_json::Value =
        serde_json::from_str(&sarif::render(&sample(), &with_info())).unwrap();
    bad["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&bad));
}

fn with_info() -> sarif::Options {
    sarif::Options {
        include_info: true,
        ..Default::default()
    }
}

/// Info notes are context, not alerts: left out unless asked for, and counted.
#[test]
fn sarif_leaves_info_out_by_default_and_links_every_rule_to_its_docs() {
    let report = sample();
    let log: serde_json::Value =
        serde_json::from_str(&sarif::render(&report, &sarif::Options::default())).unwrap();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["level"] != "note"));
    assert_eq!(
        results.len(),
        report.summary.notes.error + report.summary.notes.warning
    );
    assert_eq!(run["properties"]["infoIncluded"], false);
    for rule in run["tool"]["driver"]["rules"].as_array().unwrap() {
        let id = rule["id"].as_str().unwrap();
        let uri = rule["helpUri"].as_str().unwrap();
        assert!(uri.starts_with("https://"), "{uri}");
        assert!(
            uri.ends_with(&format!("docs/codes.md#{}", id.replace('/', ""))),
            "{uri}"
        );
        // The anchor exists in the generated docs.
        let docs =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/codes.md"))
                .unwrap();
        assert!(docs.contains(&format!("### `{id}`")), "{id}");
        assert!(!rule["fullDescription"]["text"].as_str().unwrap().is_empty());
    }
}

/// GitHub takes at most 25,000 results and 10 MB per upload: the most severe are kept and
/// the rest counted. Small limits here exercise the same cut.
#[test]
fn sarif_keeps_the_most_severe_results_within_the_limits() {
    let report = huge();
    let by_count = sarif::Options {
        max_results: 50,
        ..Default::default()
    };
    let log: serde_json::Value = serde_json::from_str(&sarif::render(&report, &by_count)).unwrap();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 50);
    let errors = results.iter().filter(|r| r["level"] == "error").count();
    assert_eq!(errors, report.summary.notes.error, "every error is kept");
    let omitted = run["properties"]["omittedResults"].as_u64().unwrap() as usize;
    assert_eq!(
        omitted,
        report.summary.notes.error + report.summary.notes.warning - 50
    );
    assert_eq!(run["properties"]["omittedBySeverity"]["warning"], omitted);
    let by_size = sarif::Options {
        max_bytes: 200_000,
        ..Default::default()
    };
    let out = sarif::render(&report, &by_size);
    assert!(out.len() <= 200_000, "{}", out.len());
    assert!(out.len() > 150_000, "uses the room it has: {}", out.len());
    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
    let kept = log["runs"][0]["results"].as_array().unwrap().len();
    assert_eq!(
        log["runs"][0]["properties"]["omittedResults"]
            .as_u64()
            .unwrap() as usize,
        report.summary.notes.error + report.summary.notes.warning - kept
    );
}
