#!/usr/bin/env python3
"""Extracts the facts of Envoy Gateway's translator test data that `check` predicts.

Usage: extract.py EG_CHECKOUT COMMIT > cases.json

EG_CHECKOUT is a checkout of github.com/envoyproxy/gateway at COMMIT. For every
`internal/gatewayapi/testdata/*.in.yaml` whose inputs are only objects this tool reads
(Gateway API kinds, Services, Secrets, ConfigMaps, Namespaces), it keeps the input objects
and, from the matching `.out.yaml`, only the conditions (type, status, reason) of the
Gateways' listeners, the routes' parents and the BackendTLSPolicies' ancestors. Nothing of
the translator's code or IR is kept. Cases are skipped (with the reason, in `skipped`) when
they hold an Envoy Gateway resource, a GatewayClass of their own, a ListenerSet, or run with
a non-default translator configuration (`testCasesConfig` in translator_test.go).
"""

import glob
import json
import os
import sys

import yaml

# Input keys of the Envoy Gateway test harness (resource.Resources) holding objects this
# tool reads; the value is the kind each holds.
READ = {
    "gateways": "Gateway",
    "httpRoutes": "HTTPRoute",
    "httproutes": "HTTPRoute",
    "grpcRoutes": "GRPCRoute",
    "tlsRoutes": "TLSRoute",
    "tcpRoutes": "TCPRoute",
    "udpRoutes": "UDPRoute",
    "referenceGrants": "ReferenceGrant",
    "backendTLSPolicies": "BackendTLSPolicy",
    "services": "Service",
    "secrets": "Secret",
    "configMaps": "ConfigMap",
    "configmaps": "ConfigMap",
    "namespaces": "Namespace",
}
# Inputs that change nothing this tool predicts (endpoints only feed the data plane).
IGNORED = {"endpointSlices", "endpointslices"}

# translator_test.go testCasesConfig: cases run with another translator configuration.
NON_DEFAULT = {
    "envoypatchpolicy-invalid-feature-disabled",
    "backend-invalid-feature-disabled",
    "gateway-namespace-mode-infra-httproute",
    "backend-with-localhost-host-infra",
    "httproute-attaching-to-listener-with-backend-backendref-host-infra",
    "envoyextensionpolicy-lua-feature-disabled",
    "sds",
    "sds-invalid",
    "sds-listener",
    "sds-listener-invalid",
    "envoyextensionpolicy-with-extproc-with-backendtlspolicy-shared-secret",
    "envoyproxy-otel-backend-tls-per-resource-secret",
    "envoyextensionpolicy-with-extproc-with-backendtlspolicy-per-resource-secret",
    "backend-system-truststore-shared-secret",
    "backend-system-truststore-per-resource-secret",
    "backend-system-truststore-btlsp-override-shared-secret",
    "backend-system-truststore-btlsp-override-per-resource-secret",
}

class Loader(yaml.SafeLoader):
    """Keeps timestamps (creationTimestamp) as the strings they are in the file."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

ROUTE_KEYS = ["httpRoutes", "httproutes", "grpcRoutes", "tlsRoutes", "tcpRoutes", "udpRoutes"]


def conditions(status):
    return [
        [c.get("type"), c.get("status"), c.get("reason")]
        for c in (status or {}).get("conditions") or []
    ]


def expected(out):
    gateways = []
    for g in out.get("gateways") or []:
        m = g.get("metadata", {})
        st = g.get("status") or {}
        gateways.append(
            {
                "namespace": m.get("namespace", "default"),
                "name": m.get("name"),
                "conditions": conditions(st),
                "listeners": [
                    {
                        "name": l.get("name"),
                        "conditions": conditions(l),
                        "supportedKinds": [k.get("kind") for k in l.get("supportedKinds") or []],
                    }
                    for l in st.get("listeners") or []
                ],
            }
        )
    routes = []
    for key in ROUTE_KEYS:
        for r in out.get(key) or []:
            m = r.get("metadata", {})
            routes.append(
                {
                    "kind": r.get("kind") or READ[key],
                    "namespace": m.get("namespace", "default"),
                    "name": m.get("name"),
                    "parents": [
                        {"parentRef": p.get("parentRef"), "conditions": conditions(p)}
                        for p in (r.get("status") or {}).get("parents") or []
                    ],
                }
            )
    policies = []
    for p in out.get("backendTLSPolicies") or []:
        m = p.get("metadata", {})
        policies.append(
            {
                "namespace": m.get("namespace", "default"),
                "name": m.get("name"),
                "ancestors": [
                    {"ancestorRef": a.get("ancestorRef"), "conditions": conditions(a)}
                    for a in (p.get("status") or {}).get("ancestors") or []
                ],
            }
        )
    return {"gateways": gateways, "routes": routes, "backendTLSPolicies": policies}


def main():
    checkout, commit = sys.argv[1], sys.argv[2]
    testdata = os.path.join(checkout, "internal/gatewayapi/testdata")
    cases, skipped = [], {}
    for path in sorted(glob.glob(os.path.join(testdata, "*.in.yaml"))):
        name = os.path.basename(path)[: -len(".in.yaml")]
        with open(path) as f:
            inputs = yaml.load(f, Loader=Loader) or {}
        other = sorted(k for k in inputs if k not in READ and k not in IGNORED)
        if other:
            skipped[name] = "inputs " + ", ".join(other)
            continue
        if name in NON_DEFAULT:
            skipped[name] = "non-default translator configuration"
            continue
        with open(path[: -len(".in.yaml")] + ".out.yaml") as f:
            out = yaml.load(f, Loader=Loader) or {}
        objects = []
        for key, kind in READ.items():
            for obj in inputs.get(key) or []:
                obj.setdefault("kind", kind)
                objects.append(obj)
        cases.append({"name": name, "objects": objects, "expected": expected(out)})
    json.dump(
        {
            "source": "github.com/envoyproxy/gateway internal/gatewayapi/testdata",
            "commit": commit,
            "cases": cases,
            "skipped": skipped,
        },
        sys.stdout,
        indent=1,
        sort_keys=True,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
