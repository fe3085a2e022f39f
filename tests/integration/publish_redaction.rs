//! Runs every publishing scenario with a recognisable token and checks that it never shows in
//! outcomes (text, JSON, step outputs), errors (Display and Debug), option dumps, or anything
//! sent to GitHub besides the Authorization header (URLs, PR bodies = the report), nor does
//! `x-access-token`, the user name git sends the token with. The CLI scenarios run the
//! binary, so what it prints on stdout and stderr is among the texts; the fleet runs
//! (`bulk.rs`) check everything `bulk` prints and writes the same way.

use crate::common::TOKEN;
use crate::common::scenarios::ALL;

#[test]
fn token_never_appears_in_any_scenario_output() {
    let mut checked = 0;
    for (name, scenario) in ALL {
        let transcript = scenario();
        assert!(
            !transcript.texts.is_empty(),
            "{name} produced nothing to check"
        );
        for text in &transcript.texts {
            assert!(!text.contains(TOKEN), "{name} leaked the token in: {text}");
            assert!(
                !text.contains("x-access-token"),
                "{name} leaked the credential's user in: {text}"
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} texts checked");
}
