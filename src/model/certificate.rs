//! What the validator needs to know of a TLS Secret's contents, computed once when the Secret
//! is read, after which the data is dropped: whether `tls.crt` and `tls.key` are there, whether
//! they parse, whether the key belongs to the certificate, whether every certificate of the
//! chain is inside its validity window, and the certificate's DNS names. Nothing of the data
//! (not even a fingerprint) is kept or printed; problems are described by kind only.
//!
//! Facts from Envoy Gateway (`internal/gatewayapi/tls.go`, `parseCertsFromTLSSecretsData`
//! and `validateServingCertificateChain`): every PEM block of `tls.crt` must be an X.509
//! certificate inside its NotBefore/NotAfter window; the key is the first `PRIVATE KEY`,
//! `RSA PRIVATE KEY` or `EC PRIVATE KEY` block; the key must match the first certificate.

use rustls::crypto::ring::default_provider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Why a TLS Secret cannot serve as a listener certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertificateProblem {
    /// `tls.crt` or `tls.key` is missing or empty.
    MissingKeys,
    /// `tls.crt` holds no certificate, or a block that does not parse as X.509.
    CertificateUnparsable,
    /// `tls.key` holds no supported private key, or one that does not parse.
    KeyUnparsable,
    /// The private key does not belong to the first certificate.
    KeyMismatch,
}

impl CertificateProblem {
    pub fn describe(self) -> &'static str {
        match self {
            CertificateProblem::MissingKeys => "does not contain both tls.crt and tls.key",
            CertificateProblem::CertificateUnparsable => {
                "has a tls.crt that is not a PEM X.509 certificate"
            }
            CertificateProblem::KeyUnparsable => {
                "has a tls.key that is not a PKCS#1, PKCS#8 or EC private key"
            }
            CertificateProblem::KeyMismatch => "has a tls.key that does not match its tls.crt",
        }
    }
}

/// The verdict on a Secret's `tls.crt`/`tls.key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsContents {
    Valid {
        /// The DNS subject alternative names of the first certificate.
        dns_names: Vec<String>,
        /// A certificate of the chain is expired or not yet valid (Envoy Gateway refuses
        /// the Secret; Istio's `tls.X509KeyPair` does not look).
        outside_validity: bool,
        /// `tls.crt` holds PEM blocks that are not certificates (a key pasted in, EC
        /// parameters): Envoy Gateway parses every block as a certificate and refuses the
        /// Secret (`validateServingCertificateChain`); Go's `tls.X509KeyPair` skips them.
        foreign_blocks: bool,
        /// The public key's algorithm (the SubjectPublicKeyInfo's AlgorithmIdentifier, DER):
        /// Envoy Gateway serves one certificate per algorithm and name on a listener.
        key_algorithm: Vec<u8>,
    },
    Invalid(CertificateProblem),
}

/// Checks `tls.crt` and `tls.key` (decoded bytes; `None` when absent or empty) as of `now`
/// (seconds since the Unix epoch).
pub fn check(cert: Option<&[u8]>, key: Option<&[u8]>, now: i64) -> TlsContents {
    let (Some(cert), Some(key)) = (cert, key) else {
        return TlsContents::Invalid(CertificateProblem::MissingKeys);
    };
    let chain: Result<Vec<CertificateDer<'static>>, _> =
        CertificateDer::pem_slice_iter(cert).collect();
    let chain = match chain {
        Ok(c) if !c.is_empty() => c,
        _ => return TlsContents::Invalid(CertificateProblem::CertificateUnparsable),
    };
    let mut first = None;
    let mut outside_validity = false;
    for c in &chain {
        let Some(parts) = tbs(c.as_ref()) else {
            return TlsContents::Invalid(CertificateProblem::CertificateUnparsable);
        };
        outside_validity |= now < parts.not_before || now > parts.not_after;
        first.get_or_insert(parts);
    }
    let Some(first) = first else {
        return TlsContents::Invalid(CertificateProblem::CertificateUnparsable);
    };
    // webpki reads v3 certificates only; a v1 certificate (no extensions) has no DNS names,
    // and Go's crypto/x509, which Envoy Gateway uses, accepts it.
    let dns_names = webpki::EndEntityCert::try_from(&chain[0])
        .map(|c| c.valid_dns_names().map(str::to_string).collect())
        .unwrap_or_default();
    let Ok(key) = PrivateKeyDer::from_pem_slice(key) else {
        return TlsContents::Invalid(CertificateProblem::KeyUnparsable);
    };
    let Ok(signing) = default_provider().key_provider.load_private_key(key) else {
        return TlsContents::Invalid(CertificateProblem::KeyUnparsable);
    };
    match signing.public_key() {
        Some(spki) if spki.as_ref() != first.spki && spki.as_ref() != first.spki_content => {
            TlsContents::Invalid(CertificateProblem::KeyMismatch)
        }
        _ => TlsContents::Valid {
            dns_names,
            outside_validity,
            foreign_blocks: has_foreign_blocks(cert),
            key_algorithm: element(first.spki_content)
                .map(|(_, algorithm, _)| algorithm.to_vec())
                .unwrap_or_default(),
        },
    }
}

/// Whether PEM text has blocks other than `CERTIFICATE`.
fn has_foreign_blocks(pem: &[u8]) -> bool {
    String::from_utf8_lossy(pem).lines().any(|line| {
        line.trim()
            .strip_prefix("-----BEGIN ")
            .is_some_and(|label| label.trim_end_matches('-') != "CERTIFICATE")
    })
}

/// The parts of a certificate's TBSCertificate the check reads.
struct Tbs<'a> {
    not_before: i64,
    not_after: i64,
    /// SubjectPublicKeyInfo with and without its tag and length.
    spki: &'a [u8],
    spki_content: &'a [u8],
}

/// One DER element: `(tag, content, rest)`.
fn element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

/// Validity and public key of a DER certificate.
fn tbs(der: &[u8]) -> Option<Tbs<'_>> {
    const SEQUENCE: u8 = 0x30;
    let (SEQUENCE, certificate, _) = element(der)? else {
        return None;
    };
    let (SEQUENCE, tbs, _) = element(certificate)? else {
        return None;
    };
    let mut rest = tbs;
    // [0] version (optional), serialNumber, signature, issuer, validity, subject, spki.
    let (tag, _, after) = element(rest)?;
    if tag == 0xa0 {
        rest = after;
    }
    for _ in 0..3 {
        rest = element(rest)?.2;
    }
    let (SEQUENCE, times, after_validity) = element(rest)? else {
        return None;
    };
    let (t1, from, after) = element(times)?;
    let (t2, until, _) = element(after)?;
    let after_subject = element(after_validity)?.2;
    let (SEQUENCE, spki_content, after_spki) = element(after_subject)? else {
        return None;
    };
    Some(Tbs {
        not_before: time(t1, from)?,
        not_after: time(t2, until)?,
        spki: &after_subject[..after_subject.len() - after_spki.len()],
        spki_content,
    })
}

/// A UTCTime (tag 0x17, `YYMMDDHHMMSSZ`) or GeneralizedTime (0x18, `YYYYMMDDHHMMSSZ`).
fn time(tag: u8, text: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(text).ok()?.strip_suffix('Z')?;
    let (year, rest) = match tag {
        0x17 => {
            let yy: i64 = text.get(..2)?.parse().ok()?;
            (if yy >= 50 { 1900 + yy } else { 2000 + yy }, text.get(2..)?)
        }
        0x18 => (text.get(..4)?.parse().ok()?, text.get(4..)?),
        _ => return None,
    };
    if rest.len() != 10 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let field = |i: usize| rest[i..i + 2].parse::<i64>().ok();
    let (month, day) = (field(0)?, field(2)?);
    let (hour, minute, second) = (field(4)?, field(6)?, field(8)?);
    Some(days_from_civil(year, month, day)? * 86_400 + hour * 3600 + minute * 60 + second)
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> Option<i64> {
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// Seconds since the Unix epoch, now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_count_days_from_the_epoch() {
        assert_eq!(days_from_civil(1970, 1, 1), Some(0));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(time(0x17, b"491231235959Z"), Some(2_524_607_999));
        assert_eq!(time(0x18, b"20500101000000Z"), Some(2_524_608_000));
        assert_eq!(time(0x18, b"2050010100000Z"), None);
    }

    const GOOD_CRT: &[u8] = include_bytes!("../../tests/data/certificates/good.crt");
    const GOOD_KEY: &[u8] = include_bytes!("../../tests/data/certificates/good.key");
    const OTHER_KEY: &[u8] = include_bytes!("../../tests/data/certificates/other.key");
    const OLD_CRT: &[u8] = include_bytes!("../../tests/data/certificates/old.crt");
    const OLD_KEY: &[u8] = include_bytes!("../../tests/data/certificates/old.key");
    /// AlgorithmIdentifier rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters.
    const RSA: &[u8] = &[
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    /// 2030-01-01T00:00:00Z: inside `good.crt`'s validity (made 2026-11-27, 100 years).
    const NOW: i64 = 1_893_456_000;

    #[test]
    fn a_matching_pair_is_valid_with_its_dns_names() {
        assert_eq!(
            check(Some(GOOD_CRT), Some(GOOD_KEY), NOW),
            TlsContents::Valid {
                dns_names: vec!["shop.example.com".into(), "*.shop.example.com".into()],
                outside_validity: false,
                foreign_blocks: false,
                key_algorithm: RSA.to_vec(),
            }
        );
        // The key pasted into tls.crt after the certificate.
        let pasted = [GOOD_CRT, GOOD_KEY].concat();
        assert!(matches!(
            check(Some(&pasted), Some(GOOD_KEY), NOW),
            TlsContents::Valid {
                foreign_blocks: true,
                ..
            }
        ));
    }

    #[test]
    fn a_key_of_another_certificate_does_not_match() {
        assert_eq!(
            check(Some(GOOD_CRT), Some(OTHER_KEY), NOW),
            TlsContents::Invalid(CertificateProblem::KeyMismatch)
        );
        assert_eq!(
            check(
                Some(GOOD_CRT),
                Some(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
                NOW
            ),
            TlsContents::Invalid(CertificateProblem::KeyUnparsable)
        );
    }

    /// `old.crt` is valid from 2020-01-01 to 2021-01-01 (a v1 certificate from `openssl ca`
    /// without extensions, which webpki does not read but Go's crypto/x509 does).
    #[test]
    fn validity_is_read_from_every_certificate() {
        let inside = 1_600_000_000; // 2020-09-13
        assert_eq!(
            check(Some(OLD_CRT), Some(OLD_KEY), inside),
            TlsContents::Valid {
                dns_names: vec![],
                outside_validity: false,
                foreign_blocks: false,
                key_algorithm: RSA.to_vec(),
            }
        );
        assert_eq!(
            check(Some(OLD_CRT), Some(OLD_KEY), NOW),
            TlsContents::Valid {
                dns_names: vec![],
                outside_validity: true,
                foreign_blocks: false,
                key_algorithm: RSA.to_vec(),
            }
        );
        // The expired certificate behind a valid one spoils the chain.
        let chain = [GOOD_CRT, OLD_CRT].concat();
        assert!(matches!(
            check(Some(&chain), Some(GOOD_KEY), NOW),
            TlsContents::Valid {
                outside_validity: true,
                ..
            }
        ));
    }

    #[test]
    fn missing_or_garbage_data_is_named_without_the_data() {
        assert_eq!(
            check(None, Some(b"k"), 0),
            TlsContents::Invalid(CertificateProblem::MissingKeys)
        );
        assert_eq!(
            check(Some(b"not pem"), Some(b"k"), 0),
            TlsContents::Invalid(CertificateProblem::CertificateUnparsable)
        );
    }
}
