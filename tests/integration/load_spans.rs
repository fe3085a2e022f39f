//! The loader's byte-exact document spans (issue #2, acceptance 3).

use crate::common;

use gateway_migrate::load::split::split;
use proptest::prelude::*;

fn reassemble(input: &[u8]) -> Vec<u8> {
    let spans = split(input);
    // Spans are contiguous and ordered: each starts where the previous ended.
    let mut expected_start = 0;
    for s in &spans {
        assert_eq!(s.start, expected_start, "gap or overlap before span {s:?}");
        assert!(s.end > s.start, "empty span {s:?}");
        expected_start = s.end;
    }
    spans
        .iter()
        .flat_map(|s| s.slice(input).iter().copied())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn spans_cover_arbitrary_bytes_exactly(input in proptest::collection::vec(any::<u8>(), 0..600)) {
        prop_assert_eq!(reassemble(&input), input);
    }

    /// Inputs made of YAML-ish lines hit the marker logic far more often than random bytes.
    #[test]
    fn spans_cover_yaml_like_streams_exactly(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("---".to_string()), Just("--- ".to_string()), Just("...".to_string()),
                Just("---x".to_string()), Just("  ---".to_string()), Just("# c".to_string()),
                Just("kind: Service".to_string()), Just("\u{FEFF}---".to_string()),
                Just("a: ü".to_string()), Just("".to_string()), "[ -~]{0,12}",
            ],
            0..40,
        ),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut input = lines.join(eol);
        if final_newline { input.push_str(eol); }
        let bytes = input.into_bytes();
        prop_assert_eq!(reassemble(&bytes), bytes.clone());
        // Every span but the first starts at a line start.
        for s in split(&bytes).iter().skip(1) {
            prop_assert_eq!(bytes[s.start - 1], b'\n');
        }
    }
}

#[test]
fn every_corpus_file_reassembles_byte_for_byte() {
    let files = common::files_under(&common::corpus());
    assert!(
        files.len() > 400,
        "corpus not found or too small: {} files",
        files.len()
    );
    let mut multi_document = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            reassemble(&bytes),
            bytes,
            "{} does not reassemble",
            path.display()
        );
        if split(&bytes).len() > 1 {
            multi_document += 1;
        }
    }
    assert!(
        multi_document > 50,
        "expected many multi-document files, saw {multi_document}"
    );
}
