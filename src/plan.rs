//! Planning: from translation results to a list of file edits. Nothing is written here.
//!
//! New objects go next to their source (`app.yaml` → `app.gateway-api.yaml`), one file per
//! source file; kustomizations that list a source get the new file added to `resources:`;
//! with `--in-place` the translated documents are replaced inside the source file.

use crate::config::Config;
use crate::pipeline::Scan;
use crate::translate::SourceResult;

/// Where generated objects go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// A new file next to each source file (the default: overlays may patch the sources).
    #[default]
    Alongside,
    /// Replace the translated documents inside their source files.
    InPlace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EditAction {
    Create,
    Update,
}

impl EditAction {
    pub fn as_str(self) -> &'static str {
        match self {
            EditAction::Create => "create",
            EditAction::Update => "update",
        }
    }
}

/// One file to write: its root-relative path and its complete new contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    pub path: String,
    pub action: EditAction,
    pub contents: Vec<u8>,
}

/// Every edit of one run, sorted by path. Files whose contents would not change are absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EditPlan {
    pub edits: Vec<FileEdit>,
}

/// Plans the edits for `results` over the repository at `root`.
pub fn build(
    _root: &std::path::Path,
    _scan: &Scan,
    _results: &[SourceResult],
    _config: &Config,
    _layout: Layout,
) -> EditPlan {
    EditPlan::default()
}
