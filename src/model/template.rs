//! Values a tool fills in before the manifests reach the cluster: kustomize `vars` (`$(VAR)`),
//! Flux `postBuild` substitution (`${VAR}`), Go templates (`{{ .x }}`, also Backstage's
//! `${{ values.x }}`), and placeholder words (`NAMESPACE_PLACEHOLDER`, `REPLACE_ME`) that
//! kustomize `replacements` overwrite.
//!
//! A templated value is not what the cluster sees, so the translators keep it verbatim (never
//! lowercased or expanded, which would break the substitution) and say so; the validator
//! checks the object with a stand-in in its place ([`stand_in`]).

/// Which kind of template a value holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// `$(VAR)`: kustomize `vars`, substituted only in fields its `varReference` lists.
    KustomizeVar,
    /// `${VAR}`: Flux `postBuild` substitution (any field of any object).
    EnvSubst,
    /// `{{ … }}`: a Go template (Helm, Argo CD ApplicationSet, Backstage `${{ … }}`).
    GoTemplate,
    /// A placeholder word: an underscore (never valid in a DNS name) or `PLACEHOLDER`,
    /// `REPLACE`, `CHANGEME` in capitals.
    Placeholder,
}

impl Template {
    /// Whether the value is written in a substitution syntax (`$(…)`, `${…}`, `{{…}}`), which
    /// no real value is; a placeholder word is only likely to be one.
    pub fn is_syntax(self) -> bool {
        !matches!(self, Template::Placeholder)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Template::KustomizeVar => {
                "a kustomize var $(…), substituted only in the fields its varReference configuration lists"
            }
            Template::EnvSubst => "a Flux postBuild variable ${…}, substituted in every field",
            Template::GoTemplate => "a template expression {{…}}, filled in before apply",
            Template::Placeholder => {
                "a placeholder, overwritten by a kustomize replacement or a script before apply"
            }
        }
    }
}

/// The template `value` holds, if any.
pub fn template_of(value: &str) -> Option<Template> {
    if value.contains("$(") && value.contains(')') {
        return Some(Template::KustomizeVar);
    }
    if value.contains("{{") && value.contains("}}") {
        return Some(Template::GoTemplate);
    }
    if value.contains("${") && value.contains('}') {
        return Some(Template::EnvSubst);
    }
    let placeholder_word = ["PLACEHOLDER", "REPLACE", "CHANGEME"]
        .iter()
        .any(|w| value.contains(w));
    (value.contains('_') || placeholder_word).then_some(Template::Placeholder)
}

/// A host as matched: lowercased (DNS names are case-insensitive), unless it is templated,
/// which is kept as written so that the substitution still finds it.
pub fn host_as_matched(host: &str) -> String {
    if template_of(host).is_some() {
        host.to_string()
    } else {
        host.to_ascii_lowercase()
    }
}

/// A valid DNS name standing in for a templated host during validation: the same template
/// always gets the same stand-in, so equal templates still intersect.
pub fn stand_in(value: &str) -> String {
    // FNV-1a: stable across runs and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in value.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let wildcard = if value.starts_with("*.") { "*." } else { "" };
    format!("{wildcard}template-{h:016x}.invalid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_recognised_and_plain_names_are_not() {
        assert_eq!(template_of("$(APP_HOST)"), Some(Template::KustomizeVar));
        assert_eq!(
            template_of("centraldashboard.$(CD_NAMESPACE).svc.$(CD_CLUSTER_DOMAIN)"),
            Some(Template::KustomizeVar)
        );
        assert_eq!(template_of("${FLUX_HOST}"), Some(Template::EnvSubst));
        assert_eq!(
            template_of("${{ values.host }}"),
            Some(Template::GoTemplate)
        );
        assert_eq!(
            template_of("{{ .Values.host }}"),
            Some(Template::GoTemplate)
        );
        assert_eq!(
            template_of("centraldashboard.NAMESPACE_PLACEHOLDER.svc"),
            Some(Template::Placeholder)
        );
        assert_eq!(
            template_of("REPLACEME.example.com"),
            Some(Template::Placeholder)
        );
        assert_eq!(template_of("shop.example.com"), None);
        assert_eq!(template_of("*.example.com"), None);
        assert_eq!(template_of("Shop.Example.com"), None);
    }

    #[test]
    fn stand_ins_are_valid_hostnames_and_stable() {
        let a = stand_in("$(APP_HOST)");
        assert_eq!(a, stand_in("$(APP_HOST)"));
        assert_ne!(a, stand_in("$(OTHER)"));
        assert!(
            a.ends_with(".invalid")
                && a.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        );
        assert!(stand_in("*.$(DOMAIN)").starts_with("*.template-"));
    }
}
