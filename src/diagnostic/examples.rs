//! Before/after examples for the codes where one makes the difference plain. Each is checked
//! by a test: translating `before` emits the code, and the output contains `after`.

use super::Code;

/// A small input and the part of the output that shows the difference.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    pub before: &'static str,
    pub after: &'static str,
}

/// The example of `code`, if it has one.
pub fn example(code: Code) -> Option<Example> {
    EXAMPLES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, example)| *example)
}

/// Codes with an example, in registry order.
pub fn codes_with_examples() -> impl Iterator<Item = Code> {
    EXAMPLES.iter().map(|(c, _)| *c)
}

const EXAMPLES: &[(Code, Example)] = &[
    (
        Code::IstioFaultInjection,
        Example {
            before: "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [istio-system/public]
  http:
  - fault:
      abort: {httpStatus: 503, percentage: {value: 10}}
    route:
    - destination: {host: cart, port: {number: 8080}}
",
            after: "  rules:
  - backendRefs:
    - name: cart
      port: 8080
",
        },
    ),
    (
        Code::IstioPrefixSemantics,
        Example {
            before: "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [istio-system/public]
  http:
  - match:
    - uri: {prefix: /api/cart}
    route:
    - destination: {host: cart, port: {number: 8080}}
",
            after: "    - path:
        type: PathPrefix
        value: /api/cart
",
        },
    ),
    (
        Code::IstioRetries,
        Example {
            before: "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [istio-system/public]
  http:
  - route:
    - destination: {host: cart, port: {number: 8080}}
    retries: {attempts: 3, perTryTimeout: 2s}
",
            after: "  rules:
  - backendRefs:
    - name: cart
      port: 8080
",
        },
    ),
    (
        Code::IngressWildcardHost,
        Example {
            before: "apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: tenants, namespace: shop}
spec:
  ingressClassName: nginx
  rules:
  - host: \"*.example.com\"
    http:
      paths:
      - path: /
        pathType: Prefix
        backend: {service: {name: tenants, port: {number: 80}}}
",
            after: "  hostnames:
  - \"*.example.com\"
",
        },
    ),
    (
        Code::TargetAccessFailsClosed,
        Example {
            before: "apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: admin
  namespace: shop
  annotations:
    nginx.ingress.kubernetes.io/auth-url: https://auth.example.com/verify
spec:
  ingressClassName: nginx
  rules:
  - host: admin.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend: {service: {name: admin, port: {number: 80}}}
",
            after: "  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /
",
        },
    ),
    (
        Code::NginxRewriteTarget,
        Example {
            before: "apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: api
  namespace: shop
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /$2
spec:
  ingressClassName: nginx
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /api(/|$)(.*)
        pathType: ImplementationSpecific
        backend: {service: {name: api, port: {number: 80}}}
",
            after: "    - path:
        type: PathPrefix
        value: /api
    filters:
    - type: URLRewrite
      urlRewrite:
        path:
          type: ReplacePrefixMatch
          replacePrefixMatch: /
",
        },
    ),
];
