//! Keeping the token out of everything we print.
//!
//! Every message that leaves `publish` (errors, outcomes, logs) goes through a [`Redactor`]:
//! it replaces each known secret (and the Basic-auth form git sends) with `***` and strips
//! credentials from URLs (`https://user:pass@host` → `https://***@host`), so a remote URL
//! copied from a CI configuration cannot leak either.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

/// What replaces a secret in output.
pub const MASK: &str = "***";

/// A secret string whose `Debug` output never shows it.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The secret itself: only for handing to a transport, never for formatting.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// Masks secrets and URL credentials in text.
#[derive(Clone, Default)]
pub struct Redactor {
    /// Longest first, so a secret that contains another is masked whole.
    secrets: Vec<String>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Redactor({} secrets)", self.secrets.len())
    }
}

static URL_USERINFO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/@\s]+@").unwrap_or_else(|_| unreachable!())
});

impl Redactor {
    /// A redactor for `secrets`; empty strings are ignored. The Basic-auth encodings git and
    /// the API client would send for a token are masked too.
    pub fn new<'a>(secrets: impl IntoIterator<Item = &'a Secret>) -> Redactor {
        let mut all = Vec::new();
        for secret in secrets {
            let s = secret.expose();
            if s.is_empty() {
                continue;
            }
            all.push(s.to_string());
            all.push(base64(format!("x-access-token:{s}").as_bytes()));
            all.push(base64(s.as_bytes()));
        }
        all.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        all.dedup();
        Redactor { secrets: all }
    }

    /// `text` with every secret and every URL credential masked.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.secrets {
            out = replace_ignoring_ascii_case(&out, secret);
        }
        URL_USERINFO
            .replace_all(&out, |c: &regex::Captures<'_>| format!("{}{MASK}@", &c[1]))
            .into_owned()
    }
}

/// `text` with every occurrence of `secret` masked, whatever the case of its ASCII letters:
/// the report lowercases host names, and a token's case can be recovered from its checksum.
fn replace_ignoring_ascii_case(text: &str, secret: &str) -> String {
    // ASCII lowercasing keeps every byte where it is, so positions found in the lowered text
    // are positions in `text`, on character boundaries (a match starts and ends where the
    // secret's own characters do).
    let lowered = text.to_ascii_lowercase();
    let needle = secret.to_ascii_lowercase();
    if needle.is_empty() || !lowered.contains(&needle) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in lowered.match_indices(&needle) {
        out.push_str(&text[last..at]);
        out.push_str(MASK);
        last = at + needle.len();
    }
    out.push_str(&text[last..]);
    out
}

/// Standard base64 with padding (RFC 4648), for recognising encoded credentials.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_the_token_and_its_basic_auth_forms() {
        let token = Secret::new("ghp_abcdef123456");
        let r = Redactor::new([&token]);
        assert_eq!(r.redact("token ghp_abcdef123456 here"), "token *** here");
        let basic = base64(b"x-access-token:ghp_abcdef123456");
        assert_eq!(
            r.redact(&format!("Authorization: Basic {basic}")),
            "Authorization: Basic ***"
        );
    }

    #[test]
    fn strips_credentials_from_urls() {
        let r = Redactor::new([]);
        assert_eq!(
            r.redact("cannot push to https://x-access-token:s3cret@github.com/o/r.git now"),
            "cannot push to https://***@github.com/o/r.git now"
        );
        assert_eq!(
            r.redact("see https://github.com/o/r and git@github.com:o/r.git"),
            "see https://github.com/o/r and git@github.com:o/r.git"
        );
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    /// The report lowercases host names (and a token's case can be recovered from its
    /// checksum): a secret is masked whatever its letters' case, its encodings too.
    #[test]
    fn secrets_are_masked_in_any_case() {
        let secret = Secret::new("ghp_MixedCase0123456789abcdefXYZ");
        let r = Redactor::new([&secret]);
        let text = format!(
            "a {} b {} c {} d {}",
            secret.expose().to_ascii_lowercase(),
            secret.expose().to_ascii_uppercase(),
            secret.expose(),
            base64(format!("x-access-token:{}", secret.expose()).as_bytes()).to_ascii_lowercase()
        );
        assert_eq!(r.redact(&text), "a *** b *** c *** d ***");
        assert_eq!(r.redact("nothing here, é ü"), "nothing here, é ü");
    }

    #[test]
    fn secrets_never_show_in_debug() {
        let token = Secret::new("ghp_zzz");
        assert_eq!(format!("{token:?}"), "Secret(***)");
    }
}
