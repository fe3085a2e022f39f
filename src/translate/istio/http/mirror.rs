//! Istio `mirror` (+ `mirrorPercentage` / `mirror_percent`) and `mirrors[]` → RequestMirror
//! filters with `percent` or `fraction` (standard since Gateway API v1.3).

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{Fraction, HttpRequestMirrorFilter, HttpRouteFilter};
use crate::model::istio::{Destination, HttpRoute, Percent};
use crate::translate::GrantRequest;
use crate::translate::istio::Ctx;
use crate::translate::istio::destination::{self, From};
use crate::translate::istio::unknown;

pub(super) fn filters(
    ctx: &Ctx,
    from: &From,
    http: &HttpRoute,
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Vec<HttpRouteFilter> {
    let mut out = Vec::new();
    if let Some(dest) = &http.mirror {
        let share = match (&http.mirror_percentage, http.mirror_percent) {
            (Some(p), _) => {
                unknown::report(&p.extra, &format!("{path}.mirrorPercentage"), notes);
                p.value
            }
            (None, Some(p)) => Some(f64::from(p)),
            (None, None) => http.extra.get("mirror_percent").and_then(|v| v.as_f64()),
        };
        out.extend(one(
            ctx,
            from,
            dest,
            share,
            &format!("{path}.mirror"),
            notes,
            grants,
        ));
    }
    for (i, m) in http.mirrors.iter().enumerate() {
        let field = format!("{path}.mirrors[{i}]");
        unknown::report(&m.extra, &field, notes);
        let share = m.percentage.as_ref().and_then(|p: &Percent| {
            unknown::report(&p.extra, &format!("{field}.percentage"), notes);
            p.value
        });
        match &m.destination {
            Some(dest) => out.extend(one(
                ctx,
                from,
                dest,
                share,
                &format!("{field}.destination"),
                notes,
                grants,
            )),
            None => notes.push(
                Diagnostic::new(
                    Code::IstioDestinationHostMissing,
                    "mirror without destination; dropped",
                )
                .at(field),
            ),
        }
    }
    out
}

fn one(
    ctx: &Ctx,
    from: &From,
    dest: &Destination,
    share: Option<f64>,
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Option<HttpRouteFilter> {
    let backend_ref = destination::backend_ref(ctx, from, dest, path, notes, grants)?;
    let mut f = HttpRequestMirrorFilter {
        backend_ref,
        ..Default::default()
    };
    if let Some(v) = share {
        let v = v.clamp(0.0, 100.0);
        if v.fract() == 0.0 {
            if v < 100.0 {
                f.percent = Some(v as u32);
            }
        } else {
            // 12.5 % → 125000 / 1000000, reduced.
            let mut numerator = (v * 10_000.0).round() as u64;
            let mut denominator: u64 = 1_000_000;
            let g = gcd(numerator, denominator);
            numerator /= g;
            denominator /= g;
            f.fraction = Some(Fraction {
                numerator: numerator as u32,
                denominator: Some(denominator as u32),
            });
        }
    }
    Some(HttpRouteFilter::request_mirror(f))
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}
