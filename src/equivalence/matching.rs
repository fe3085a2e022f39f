//! Host and path helpers the check's probes share with the models; each rule has one
//! implementation, in `semantics` (tested there), re-exported here.

pub(crate) use crate::pattern::literal_prefix;
pub(crate) use crate::semantics::hostname::{matches as host_matches, sample as sample_host};
pub(crate) use crate::semantics::matcher::Matcher;
