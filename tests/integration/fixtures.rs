//! The fixture runner: every case goes through `pipeline::run`, the entry the CLI uses, so the
//! expected diagnostics are exactly what users see (validation and predicted attachment
//! included).
//!
//! Two kinds of case:
//! - `fixtures/<source>/<case>/input.yaml` (`istio`, `ingress`): one stream, whose objects are
//!   the whole index, as `convert` reads it. `expected.yaml` holds the generated objects;
//!   `notes.txt` every diagnostic, one line each in reading order:
//!   `line:column severity code Kind/name field` (`generated:<path>` when the field is in the
//!   generated object; `-` when there is none). Optional `config.yaml`: the case's
//!   `.gateway-migrate.yaml`.
//! - `fixtures/repo/<case>/tree/`: a repository, run as `check` runs it (translate, validate,
//!   plan, lint, staleness; nothing is written). `diagnostics.txt` holds every diagnostic as
//!   `file:line:column severity code subject field`, `files.txt` the planned file actions.
//!   The tree's own `.gateway-migrate.yaml` is its configuration. Optional `layout`: `in-place`
//!   runs it as `check --in-place` does (default `alongside`).
//!
//! `BLESS=1 cargo test --test integration fixtures::` rewrites the expected files from the current output. Blessed
//! output must be read and judged before it is committed.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use gateway_migrate::config::Config;
use gateway_migrate::diagnostic::Code;
use gateway_migrate::pipeline::{self, Input, Request};
use gateway_migrate::plan::Layout;
use gateway_migrate::report::{Report, ReportedDiagnostic};
use gateway_migrate::{plan, validate};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn stream_cases() -> Vec<PathBuf> {
    let mut cases = Vec::new();
    for source in ["istio", "ingress"] {
        let Ok(entries) = std::fs::read_dir(fixtures_root().join(source)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().join("input.yaml").is_file() {
                cases.push(entry.path());
            }
        }
    }
    cases.sort();
    cases
}

fn repo_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(fixtures_root().join("repo"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("tree").is_dir())
                .collect()
        })
        .unwrap_or_default();
    cases.sort();
    cases
}

/// The field a diagnostic is about; `-` when there is none (an empty path names the whole
/// object, as the validator's object-level findings do).
fn field_of(d: &ReportedDiagnostic) -> String {
    match (
        d.field.as_deref().filter(|f| !f.is_empty()),
        &d.generated_field,
    ) {
        (Some(f), _) => f.to_string(),
        (None, Some(g)) => format!("generated:{g}"),
        (None, None) => "-".into(),
    }
}

fn subject_of(d: &ReportedDiagnostic) -> String {
    d.subject
        .as_ref()
        .map(|s| format!("{}/{}", s.kind, s.name))
        .unwrap_or_else(|| "-".into())
}

fn position_of(d: &ReportedDiagnostic) -> String {
    match d.column {
        Some(c) => format!("{}:{c}", d.line),
        None => d.line.to_string(),
    }
}

/// The outcome of one stream case.
struct StreamRun {
    yaml: String,
    notes: String,
    codes: BTreeSet<Code>,
}

fn case_config(dir: &Path) -> Config {
    match std::fs::read_to_string(dir.join("config.yaml")) {
        Ok(text) => Config::parse(&text)
            .unwrap_or_else(|e| panic!("{}: bad config.yaml: {e}", dir.display())),
        Err(_) => Config::default(),
    }
}

/// Translates one stream case: the YAML stream of the generated objects and the notes lines.
fn run_stream_case(dir: &Path) -> StreamRun {
    let config = case_config(dir);
    let channel = config.channel;
    let input = std::fs::read(dir.join("input.yaml")).expect("read input.yaml");
    let request = Request::new(
        Input::Streams(vec![("input.yaml".to_string(), input)]),
        config,
    );
    let outcome = pipeline::run(request).expect("a stream run cannot fail");
    let load_problems: Vec<_> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code.family() == "load")
        .collect();
    assert!(
        load_problems.is_empty(),
        "{}: input has load diagnostics: {load_problems:?}",
        dir.display(),
    );
    // The pipeline drops generated objects the validator rejects (each a `validate/*` error
    // on its source); a fixture's output must have none.
    let rejected: Vec<_> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code.family() == "validate")
        .collect();
    assert!(
        rejected.is_empty(),
        "{}: generated objects were rejected: {rejected:?}",
        dir.display()
    );
    let mut generated: Vec<_> = outcome
        .results
        .iter()
        .flat_map(|r| r.generated.iter())
        .collect();
    generated.sort_by_key(|g| g.sort_key());
    // Expected output is what `apply` would write, so it must pass the validator (CRD schema
    // and CEL rules of the configured channel) as it stands.
    for g in &generated {
        let violations = validate::validate_generated(&g.to_json(), channel);
        assert!(
            violations.is_empty(),
            "{}: generated {} {}/{} is invalid: {violations:?}",
            dir.display(),
            g.kind(),
            g.namespace(),
            g.name()
        );
    }
    let yaml = plan::render_stream(generated);
    let report = Report::build(&outcome);
    let mut notes = String::new();
    let mut codes = BTreeSet::new();
    for d in &report.diagnostics {
        codes.insert(d.code);
        let _ = writeln!(
            notes,
            "{} {} {} {} {}",
            position_of(d),
            d.severity.as_str(),
            d.code,
            subject_of(d),
            field_of(d)
        );
    }
    StreamRun { yaml, notes, codes }
}

/// The layout a repository case is checked with: its `layout` file (`in-place` or
/// `alongside`), `alongside` when there is none.
fn case_layout(dir: &Path) -> Layout {
    match std::fs::read_to_string(dir.join("layout")) {
        Err(_) => Layout::Alongside,
        Ok(text) => match text.trim() {
            "alongside" => Layout::Alongside,
            "in-place" => Layout::InPlace,
            other => panic!(
                "{}: layout is {other:?}, expected in-place or alongside",
                dir.display()
            ),
        },
    }
}

/// One repository case: diagnostics, planned files and deploy units as text, and the codes
/// seen.
fn run_repo_case(dir: &Path) -> (String, String, String, BTreeSet<Code>) {
    let tree = dir.join("tree");
    let config = Config::load(&tree, None)
        .unwrap_or_else(|e| panic!("{}: bad configuration: {e}", dir.display()));
    let mut request = Request::new(Input::Repository(tree), config);
    request.jobs = 1;
    request.check = true;
    request.layout = case_layout(dir);
    let outcome =
        pipeline::run(request).unwrap_or_else(|e| panic!("{}: the run failed: {e}", dir.display()));
    let report = Report::build(&outcome);
    let mut diagnostics = String::new();
    let mut codes = BTreeSet::new();
    for d in &report.diagnostics {
        codes.insert(d.code);
        let _ = writeln!(
            diagnostics,
            "{}:{} {} {} {} {}",
            d.file,
            position_of(d),
            d.severity.as_str(),
            d.code,
            subject_of(d),
            field_of(d)
        );
    }
    let mut files = String::new();
    for f in &report.files {
        let _ = writeln!(files, "{} {}", f.action, f.path);
    }
    let mut units = String::new();
    for u in &report.units {
        let _ = write!(units, "{} {}", u.kind.as_str(), u.unit);
        for d in &u.deployed_by {
            let _ = write!(units, " | {} -> {}", d.label(), d.destination());
            if !d.depends_on.is_empty() {
                let _ = write!(units, " after {}", d.depends_on.join(","));
            }
            if let Some(w) = d.wave {
                let _ = write!(units, " wave {w}");
            }
        }
        let _ = writeln!(units);
    }
    (diagnostics, files, units, codes)
}

fn compare(path: &Path, actual: &str, bless: bool, failures: &mut Vec<String>) {
    if bless {
        std::fs::write(path, actual).expect("write blessed file");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected != actual {
        failures.push(format!(
            "{}:\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        ));
    }
}

/// Runs every case; returns the codes all cases emitted together.
fn run_all(bless: bool) -> BTreeSet<Code> {
    let mut failures = Vec::new();
    let mut codes = BTreeSet::new();
    let cases = stream_cases();
    assert!(cases.len() > 50, "only {} stream cases found", cases.len());
    for dir in &cases {
        let run = run_stream_case(dir);
        codes.extend(run.codes);
        compare(&dir.join("expected.yaml"), &run.yaml, bless, &mut failures);
        compare(&dir.join("notes.txt"), &run.notes, bless, &mut failures);
    }
    for dir in repo_cases() {
        let (diagnostics, files, units, case_codes) = run_repo_case(&dir);
        codes.extend(case_codes);
        compare(
            &dir.join("diagnostics.txt"),
            &diagnostics,
            bless,
            &mut failures,
        );
        compare(&dir.join("files.txt"), &files, bless, &mut failures);
        compare(&dir.join("units.txt"), &units, bless, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} fixture files differ (BLESS=1 to rewrite, then review):\n{}",
        failures.len(),
        failures.join("\n")
    );
    codes
}

#[test]
fn fixtures_match_expected_output() {
    run_all(std::env::var_os("BLESS").is_some());
}

/// Codes no fixture can reach, each with the reason and the test that covers it instead.
const NOT_REACHABLE_FROM_FIXTURES: &[(Code, &str)] = &[
    (
        Code::RenderBudgetSpent,
        "needs a kustomize that does not finish (fixtures render with the real one); covered by \
         tests/integration/untrusted.rs \
         (a_render_that_times_out_is_not_retried_and_the_run_has_a_budget, with a stand-in \
         that sleeps)",
    ),
    (
        Code::EquivalenceBudget,
        "needs more than 20,000 probes for one entry point (hundreds of Ingresses, a fixture \
         no reviewer could judge); covered by tests/integration/equivalence.rs \
         (a_spent_probe_budget_is_counted_and_reported)",
    ),
    (
        Code::InternalPanic,
        "a panic is a bug, and no input is known to cause one (the fuzzers look for them);          debug builds panic on purpose at test markers; covered by tests/integration/robustness.rs          (a_panic_loading_one_file_is_a_diagnostic_on_it_and_the_run_goes_on,          a_panic_translating_one_object_costs_that_object_only,          a_panic_in_one_build_is_reported_on_its_kustomization)",
    ),
    (
        Code::WalkUnreadable,
        "needs a path the walk cannot read: git stores no permission bits (and root reads \
         everything), and a path longer than PATH_MAX cannot be checked out; covered by \
         tests/integration/codes_without_fixture.rs \
         (a_directory_the_walk_cannot_list_is_reported_as_walk_unreadable, and \
         an_unreadable_manifest_is_reported_as_walk_unreadable when not run as root)",
    ),
    (
        Code::PlanUnreadableSource,
        "the planner re-reads a source the scan has just read and kept; only a file that \
         vanishes between scan and plan fails; covered by tests/integration/codes_without_fixture.rs \
         (a_source_that_cannot_be_read_again_is_reported_and_not_planned)",
    ),
    (
        Code::ValidateCelUnevaluated,
        "an interpreter gap: no known object makes a rule of the embedded CRDs fail to \
         evaluate (mistyped fields included); covered by the unit test in src/validate/cel/mod.rs \
         (a_rule_the_interpreter_cannot_evaluate_is_reported_not_passed)",
    ),
    (
        Code::RenderBuildDiffers,
        "the planner writes a fix for every difference it can express, so a repository whose \
         build still differs after apply needs a fix kustomize cannot take (found none that is \
         not a kustomize bug); covered by the unit tests in src/render/mod.rs \
         (verify_names_the_object_and_the_first_differing_field, \
         a_build_rendering_an_object_it_does_not_translate_differs)",
    ),
    (
        Code::CheckUntrackedGenerated,
        "a fixture tree is part of this project's own git repository, so its files' git state \
         is the project's; the runner does not ask git (Request::git_status is off); covered \
         by tests/integration/cli_check.rs (check_reports_generated_files_a_commit_would_leave_out) \
         and the pre-commit test (tests/integration/precommit.rs)",
    ),
    (
        Code::PlanKustomizePatch,
        "both translators skip documents of kustomize patch files before the planner sees \
         them, so plan::skip_patch_documents never finds one through pipeline::run; covered by \
         tests/integration/codes_without_fixture.rs \
         (patch_documents_are_skipped_before_the_planner_and_by_its_guard)",
    ),
];

#[test]
fn every_code_has_a_fixture_that_emits_it() {
    let mut emitted = run_all(false);
    let mut exempt: BTreeSet<Code> = NOT_REACHABLE_FROM_FIXTURES
        .iter()
        .map(|(c, _)| *c)
        .collect();
    // The render cases (fixtures/render) need kustomize; without it (a visible skip, a
    // failure under CI) their codes are not checked here.
    match crate::render::emitted_codes() {
        Some(codes) => emitted.extend(codes),
        None => exempt.extend(Code::ALL.iter().filter(|c| c.family() == "render")),
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !emitted.contains(c) && !exempt.contains(c))
        .map(|c| c.id())
        .collect();
    assert!(
        missing.is_empty(),
        "{} codes are emitted by no fixture (add a case under fixtures/): {missing:#?}",
        missing.len()
    );
    let needless: Vec<&str> = NOT_REACHABLE_FROM_FIXTURES
        .iter()
        .filter(|(c, _)| emitted.contains(c))
        .map(|(c, _)| c.id())
        .collect();
    assert!(
        needless.is_empty(),
        "exempt codes a fixture does emit (remove them from the list): {needless:?}"
    );
}
