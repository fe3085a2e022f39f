//! Istio (protobuf / Go) durations → Gateway API durations (GEP-2257:
//! `^([0-9]{1,5}(h|m|s|ms)){1,4}$`).

/// Parses `1.5s`, `100ms`, `1m30s`, `2h`, `250us`, `0s` into whole nanoseconds.
pub(super) fn parse_nanos(text: &str) -> Option<u128> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    let mut rest = text;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 {
            return None;
        }
        let value: f64 = rest[..num_len].parse().ok()?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_len] {
            "h" => 3_600e9,
            "m" => 60e9,
            "s" => 1e9,
            "ms" => 1e6,
            "us" | "µs" => 1e3,
            "ns" => 1.0,
            _ => return None,
        };
        rest = &rest[unit_len..];
        total += value * factor;
    }
    Some(total.round() as u128)
}

/// The Gateway API form of an Istio duration; sub-millisecond remainders round up to the next
/// millisecond (Gateway API has no finer unit). `None` when the text is not a duration or is too
/// long for the format.
pub(super) fn to_gateway(text: &str) -> Option<String> {
    let nanos = parse_nanos(text)?;
    if nanos == 0 {
        return Some("0s".into());
    }
    let mut ms = nanos.div_ceil(1_000_000);
    let h = ms / 3_600_000;
    ms %= 3_600_000;
    let m = ms / 60_000;
    ms %= 60_000;
    let s = ms / 1000;
    ms %= 1000;
    if h > 99_999 {
        return None;
    }
    let mut out = String::new();
    for (v, unit) in [(h, "h"), (m, "m"), (s, "s"), (ms, "ms")] {
        if v > 0 {
            out.push_str(&format!("{v}{unit}"));
        }
    }
    Some(out)
}

/// Whole seconds, rounded up, at least 1 (CORS `maxAge`).
pub(super) fn to_seconds_ceil(text: &str) -> Option<u32> {
    let nanos = parse_nanos(text)?;
    let secs = nanos.div_ceil(1_000_000_000).max(1);
    u32::try_from(secs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_follow_gep_2257() {
        assert_eq!(to_gateway("1.5s").as_deref(), Some("1s500ms"));
        assert_eq!(to_gateway("10s").as_deref(), Some("10s"));
        assert_eq!(to_gateway("90s").as_deref(), Some("1m30s"));
        assert_eq!(to_gateway("0s").as_deref(), Some("0s"));
        assert_eq!(to_gateway("250us").as_deref(), Some("1ms"));
        assert_eq!(to_gateway("2h").as_deref(), Some("2h"));
        assert_eq!(to_gateway("0.001s").as_deref(), Some("1ms"));
        assert_eq!(to_gateway("abc"), None);
        assert_eq!(to_seconds_ceil("24h"), Some(86400));
        assert_eq!(to_seconds_ceil("0.5s"), Some(1));
    }
}
