//! Spreading a fleet over GitHub Actions matrix jobs: `--shard i/N` picks the repositories
//! whose name hashes to `i`. The hash is FNV-1a over the lowercased name, fixed here, so the
//! assignment is the same on every machine, Rust version and run (std's `DefaultHasher` is
//! not: its algorithm may change between releases).

use std::fmt;

use super::repos::RepoName;

/// GitHub Actions runs at most 256 jobs per matrix.
pub const MAX_SHARDS: u32 = 256;

/// Shard `index` (1-based) of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub total: u32,
}

impl Shard {
    /// Parses `i/N` with `1 <= i <= N <= 256`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text:?}: expected i/N with 1 <= i <= N <= {MAX_SHARDS}");
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let total: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || total == 0 || index > total || total > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, total })
    }

    pub fn contains(&self, repo: &RepoName) -> bool {
        shard_of(repo, self.total) == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.total)
    }
}

/// The shard (1-based) `repo` belongs to among `total`.
pub fn shard_of(repo: &RepoName, total: u32) -> u32 {
    let total = u64::from(total.max(1));
    let shard = fnv1a(repo.key().as_bytes()) % total;
    // `shard < total <= 256`, so it fits.
    u32::try_from(shard).unwrap_or(0) + 1
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The matrix `bulk plan` prints: one entry per shard that has repositories, `{"shard":
/// "i/N", "repositories": k}` (an empty shard would be a wasted job; the others keep their
/// numbers). `requested` is capped at the number of repositories; more than 256 is an error.
pub fn matrix(repos: &[RepoName], requested: u32) -> Result<serde_json::Value, String> {
    if requested == 0 || requested > MAX_SHARDS {
        return Err(format!(
            "--shards {requested}: GitHub Actions runs 1 to {MAX_SHARDS} jobs per matrix"
        ));
    }
    let count = u32::try_from(repos.len()).unwrap_or(u32::MAX);
    let total = requested.min(count).max(1);
    let mut sizes = vec![0usize; total as usize];
    for r in repos {
        if let Some(slot) = sizes.get_mut((shard_of(r, total) - 1) as usize) {
            *slot += 1;
        }
    }
    let include: Vec<serde_json::Value> = sizes
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| serde_json::json!({ "shard": format!("{}/{total}", i + 1), "repositories": n }))
        .collect();
    Ok(serde_json::json!({ "include": include }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(s: &str) -> RepoName {
        RepoName::parse(s).unwrap()
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // From the FNV reference test suite (draft-eastlake-fnv).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn every_repository_is_in_exactly_one_shard_whatever_its_case() {
        let repos: Vec<RepoName> = (0..200).map(|i| repo(&format!("acme/svc-{i}"))).collect();
        for total in [1, 2, 3, 7, 256] {
            for r in &repos {
                let owners: Vec<u32> = (1..=total)
                    .filter(|&i| Shard { index: i, total }.contains(r))
                    .collect();
                assert_eq!(owners.len(), 1, "{r} in {owners:?} of {total}");
            }
        }
        assert_eq!(
            shard_of(&repo("Acme/Svc-1"), 7),
            shard_of(&repo("acme/svc-1"), 7)
        );
        // Not all in one shard.
        let first = repos.iter().filter(|r| shard_of(r, 2) == 1).count();
        assert!(first > 60 && first < 140, "{first}");
    }

    #[test]
    fn shard_syntax_and_matrix_limits() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, total: 3 });
        for bad in ["0/3", "4/3", "1/0", "1/257", "x/2", "1-2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let repos: Vec<RepoName> = (0..5).map(|i| repo(&format!("acme/r{i}"))).collect();
        let m = matrix(&repos, 10).unwrap();
        let include = m["include"].as_array().unwrap();
        assert!(include.len() <= 5, "capped at the repository count");
        let total: u64 = include
            .iter()
            .map(|e| e["repositories"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 5);
        for entry in include {
            let shard = Shard::parse(entry["shard"].as_str().unwrap()).unwrap();
            assert_eq!(shard.total, 5);
            let members = repos.iter().filter(|r| shard.contains(r)).count() as u64;
            assert_eq!(Some(members), entry["repositories"].as_u64());
            assert!(members > 0, "no empty job");
        }
        assert!(matrix(&repos, 257).is_err());
        assert!(matrix(&repos, 0).is_err());
    }
}
