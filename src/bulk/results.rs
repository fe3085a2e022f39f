//! The results of a fleet run: one JSON line per repository, appended as each repository
//! finishes (so a killed run loses nothing), read back by `--resume` and `bulk report`, and
//! summarised as a text or Markdown table.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What happened to one repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowOperation {
    Created,
    Updated,
    Closed,
    /// Nothing to change, or the open pull request already says it all.
    None,
    /// Not attempted: archived, or `--dry-run`.
    Skipped,
    Failed,
}

impl RowOperation {
    pub fn as_str(self) -> &'static str {
        match self {
            RowOperation::Created => "created",
            RowOperation::Updated => "updated",
            RowOperation::Closed => "closed",
            RowOperation::None => "none",
            RowOperation::Skipped => "skipped",
            RowOperation::Failed => "failed",
        }
    }

    const ALL: [RowOperation; 6] = [
        RowOperation::Created,
        RowOperation::Updated,
        RowOperation::Closed,
        RowOperation::None,
        RowOperation::Skipped,
        RowOperation::Failed,
    ];
}

/// One line of the results file (`docs/bulk.md` documents every field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// `owner/repo`.
    pub repo: String,
    pub operation: RowOperation,
    pub pr_url: Option<String>,
    /// Source objects translated.
    pub objects: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Kustomize builds rendered and verified after the migration.
    pub builds_verified: usize,
    /// Files the pull request adds or changes.
    #[serde(default)]
    pub files: usize,
    pub duration_s: f64,
    /// Why the repository failed or was skipped.
    pub error: Option<String>,
    /// A `--dry-run` row: shown, not done, so `--resume` runs the repository again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
}

impl Row {
    /// A row for a repository that got no further than `error`.
    pub fn without_translation(repo: &str, operation: RowOperation, error: String) -> Row {
        Row {
            repo: repo.to_string(),
            operation,
            pr_url: None,
            objects: 0,
            errors: 0,
            warnings: 0,
            builds_verified: 0,
            files: 0,
            duration_s: 0.0,
            error: Some(error),
            dry_run: false,
        }
    }
}

/// A failure to read or write a results file.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error("cannot read the results file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write the results file {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// What a results file holds.
#[derive(Debug, Default)]
pub struct ResultsFile {
    pub rows: Vec<Row>,
    /// Lines that are not rows (one cut off by a killed run, or something else): line number
    /// and why.
    pub bad_lines: Vec<(usize, String)>,
}

/// Reads a results file.
pub fn read(path: &Path) -> Result<ResultsFile, ResultsError> {
    let bytes = std::fs::read(path).map_err(|source| ResultsError::Read {
        path: path.display().to_string(),
        source,
    })?;
    // A write cut off inside a character must cost that line only, not the file.
    Ok(parse(&String::from_utf8_lossy(&bytes)))
}

fn parse(text: &str) -> ResultsFile {
    let mut file = ResultsFile::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Row>(line) {
            Ok(r) => file.rows.push(r),
            Err(e) => file.bad_lines.push((i + 1, e.to_string())),
        }
    }
    file
}

/// Appends rows to a results file, one flushed and synced line each.
pub struct ResultsWriter {
    file: std::fs::File,
    path: PathBuf,
}

impl ResultsWriter {
    /// Opens `path` for appending (`resume`) or starts it empty. A file a killed run cut off
    /// in the middle of a line gets a newline first, so the next row starts on its own line.
    pub fn open(path: &Path, resume: bool) -> Result<ResultsWriter, ResultsError> {
        let write_err = |source| ResultsError::Write {
            path: path.display().to_string(),
            source,
        };
        let cut_off = resume
            && std::fs::read(path)
                .ok()
                .is_some_and(|b| b.last().is_some_and(|&c| c != b'\n'));
        let mut options = std::fs::OpenOptions::new();
        options.create(true);
        if resume {
            options.append(true);
        } else {
            options.write(true).truncate(true);
        }
        let mut file = options.open(path).map_err(write_err)?;
        if cut_off {
            file.write_all(b"\n").map_err(write_err)?;
        }
        Ok(ResultsWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn append(&mut self, row: &Row) -> Result<(), ResultsError> {
        let mut line = serde_json::to_string(row).unwrap_or_default();
        line.push('\n');
        // One write per line: a kill leaves whole lines, or at worst one cut line that the
        // next reader skips.
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| ResultsError::Write {
                path: self.path.display().to_string(),
                source,
            })
    }
}

/// One row per repository, the last one seen winning (a resumed run's retry of a failed
/// repository comes after the failure), sorted by repository.
pub fn merge(rows: impl IntoIterator<Item = Row>) -> Vec<Row> {
    let mut by_repo: BTreeMap<String, Row> = BTreeMap::new();
    for r in rows {
        by_repo.insert(r.repo.to_ascii_lowercase(), r);
    }
    by_repo.into_values().collect()
}

/// `4 repositories: 3 created, 1 failed`.
pub fn counts(rows: &[Row]) -> String {
    let parts: Vec<String> = RowOperation::ALL
        .iter()
        .filter_map(|op| {
            let n = rows.iter().filter(|r| r.operation == *op).count();
            (n > 0).then(|| format!("{n} {}", op.as_str()))
        })
        .collect();
    let noun = if rows.len() == 1 {
        "repository"
    } else {
        "repositories"
    };
    if parts.is_empty() {
        format!("{} {noun}", rows.len())
    } else {
        format!("{} {noun}: {}", rows.len(), parts.join(", "))
    }
}

/// The summary table for a terminal.
pub fn text_table(rows: &[Row]) -> String {
    let header = [
        "REPOSITORY",
        "OPERATION",
        "OBJECTS",
        "ERRORS",
        "WARNINGS",
        "BUILDS",
        "TIME",
        "PULL REQUEST / ERROR",
    ];
    let cells: Vec<[String; 8]> = rows
        .iter()
        .map(|r| {
            [
                r.repo.clone(),
                r.operation.as_str().to_string(),
                r.objects.to_string(),
                r.errors.to_string(),
                r.warnings.to_string(),
                r.builds_verified.to_string(),
                format!("{:.1}s", r.duration_s),
                last_column(r),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cols: &[String]| -> String {
        let mut out = String::new();
        for (i, (c, w)) in cols.iter().zip(&widths).enumerate() {
            let last = i + 1 == cols.len();
            // Numbers right-aligned, words left-aligned, no trailing spaces.
            let numeric = (2..=6).contains(&i);
            if last {
                out.push_str(c);
            } else if numeric {
                out.push_str(&format!("{c:>w$}  "));
            } else {
                out.push_str(&format!("{c:<w$}  "));
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut out = line(&header.map(str::to_string));
    for row in &cells {
        out.push_str(&line(row));
    }
    out.push_str(&counts(rows));
    out.push('\n');
    out
}

/// The summary table in Markdown (for `$GITHUB_STEP_SUMMARY`).
pub fn markdown_table(rows: &[Row]) -> String {
    let mut out = String::from("## Gateway API migration: fleet results\n\n");
    out.push_str(&counts(rows));
    out.push_str("\n\n| Repository | Operation | Objects | Errors | Warnings | Builds verified | Time | Pull request / error |\n");
    out.push_str("|---|---|--:|--:|--:|--:|--:|---|\n");
    for r in rows {
        let last = match (&r.pr_url, &r.error) {
            (Some(url), _) => format!("[{}]({url})", pr_label(url)),
            (None, Some(e)) => escape_cell(e),
            (None, None) => String::new(),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {:.1}s | {} |\n",
            r.repo,
            r.operation.as_str(),
            r.objects,
            r.errors,
            r.warnings,
            r.builds_verified,
            r.duration_s,
            last
        ));
    }
    out
}

fn last_column(r: &Row) -> String {
    match (&r.pr_url, &r.error) {
        (Some(url), _) => url.clone(),
        (None, Some(e)) => e.lines().next().unwrap_or_default().to_string(),
        (None, None) => String::new(),
    }
}

/// `#12` from `https://github.com/o/r/pull/12`.
fn pr_label(url: &str) -> String {
    url.rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .map_or_else(|| url.to_string(), |n| format!("#{n}"))
}

/// A table cell: one line, pipes escaped.
fn escape_cell(text: &str) -> String {
    text.lines().next().unwrap_or_default().replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(repo: &str, op: RowOperation) -> Row {
        Row {
            repo: repo.into(),
            operation: op,
            pr_url: (op == RowOperation::Created)
                .then(|| format!("https://github.com/{repo}/pull/3")),
            objects: 2,
            errors: 0,
            warnings: 1,
            builds_verified: 1,
            files: 2,
            duration_s: 1.25,
            error: (op == RowOperation::Failed).then(|| "the repository is empty | x\nmore".into()),
            dry_run: false,
        }
    }

    #[test]
    fn a_cut_off_last_line_is_reported_not_fatal() {
        let a = serde_json::to_string(&row("acme/a", RowOperation::Created)).unwrap();
        let text = format!("{a}\n{{\"repo\":\"acme/b\",\"oper");
        let file = parse(&text);
        assert_eq!(file.rows.len(), 1);
        assert_eq!(file.bad_lines.len(), 1);
        assert_eq!(file.bad_lines[0].0, 2);
    }

    #[test]
    fn a_line_cut_inside_a_character_costs_that_line_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let a = serde_json::to_string(&row("acme/a", RowOperation::Created)).unwrap();
        let mut bytes = format!("{a}\n{{\"repo\":\"acme/b\",\"error\":\"Settings ").into_bytes();
        bytes.push(0xE2); // the first byte of '→'
        std::fs::write(&path, bytes).unwrap();
        let file = read(&path).unwrap();
        assert_eq!(file.rows.len(), 1);
        assert_eq!(file.bad_lines.len(), 1);
    }

    #[test]
    fn dry_run_rows_say_so_and_others_do_not_carry_the_field() {
        let mut r = row("acme/a", RowOperation::Skipped);
        assert!(!serde_json::to_string(&r).unwrap().contains("dry_run"));
        r.dry_run = true;
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains("\"dry_run\":true"));
        assert!(serde_json::from_str::<Row>(&line).unwrap().dry_run);
    }

    #[test]
    fn resuming_a_cut_off_file_starts_a_new_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, "{\"repo\":\"acme/b\",\"oper").unwrap();
        let mut w = ResultsWriter::open(&path, true).unwrap();
        w.append(&row("acme/a", RowOperation::None)).unwrap();
        let file = read(&path).unwrap();
        assert_eq!(file.rows.len(), 1);
        assert_eq!(file.bad_lines.len(), 1);
        // Without --resume the file starts over.
        let mut w = ResultsWriter::open(&path, false).unwrap();
        w.append(&row("acme/c", RowOperation::None)).unwrap();
        let file = read(&path).unwrap();
        assert_eq!((file.rows.len(), file.bad_lines.len()), (1, 0));
        assert_eq!(file.rows[0].repo, "acme/c");
    }

    #[test]
    fn merge_keeps_the_last_row_per_repository_sorted() {
        let merged = merge([
            row("acme/b", RowOperation::Failed),
            row("acme/a", RowOperation::Created),
            row("Acme/B", RowOperation::Updated),
        ]);
        let got: Vec<(&str, RowOperation)> = merged
            .iter()
            .map(|r| (r.repo.as_str(), r.operation))
            .collect();
        assert_eq!(
            got,
            [
                ("acme/a", RowOperation::Created),
                ("Acme/B", RowOperation::Updated)
            ]
        );
    }

    #[test]
    fn tables_name_every_repository_and_escape_cells() {
        let rows = vec![
            row("acme/a", RowOperation::Created),
            row("acme/e", RowOperation::Failed),
        ];
        let text = text_table(&rows);
        assert!(text.contains("acme/a") && text.contains("https://github.com/acme/a/pull/3"));
        assert!(text.contains("the repository is empty | x"), "{text}");
        assert!(!text.contains("more"));
        assert!(
            text.ends_with("2 repositories: 1 created, 1 failed\n"),
            "{text}"
        );
        let md = markdown_table(&rows);
        assert!(
            md.contains("[#3](https://github.com/acme/a/pull/3)"),
            "{md}"
        );
        assert!(md.contains("the repository is empty \\| x"), "{md}");
        assert_eq!(md.lines().filter(|l| l.starts_with("| `")).count(), 2);
    }
}
