#!/usr/bin/env python3
"""A synthetic GitOps repository of kustomize builds, for the render benchmark.

    python3 bench/gen_kustomize.py OUT [--apps N]

Each app has a base (Service + Ingress, or Service + VirtualService) and two overlays (dev,
prod) that set a namespace and patch the host: N apps give 3N kustomizations and 2N build roots.
An Istio Gateway per environment lives in its own kustomization.
"""
import argparse
import os


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def ingress(app, host, class_line=""):
    """An Ingress for `host` to Service `app` port 80 (`class_line`: an extra spec line)."""
    spec_extra = f"  {class_line}\n" if class_line else ""
    return f"""apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {app}
spec:
{spec_extra}  rules:
  - host: {host}
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: {app}
            port:
              number: 80
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--apps", type=int, default=67)
    a = p.parse_args()
    for env in ("dev", "prod"):
        write(f"{a.out}/gateways/{env}/kustomization.yaml", "namespace: istio-system\nresources:\n- gateway.yaml\n")
        write(f"{a.out}/gateways/{env}/gateway.yaml", f"""apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: {env}
spec:
  selector:
    istio: ingressgateway
  servers:
  - port: {{number: 80, name: http, protocol: HTTP}}
    hosts: ["*"]
""")
    for i in range(a.apps):
        app = f"app{i:04d}"
        base = f"{a.out}/apps/{app}/base"
        write(f"{base}/service.yaml", f"""apiVersion: v1
kind: Service
metadata:
  name: {app}
spec:
  ports:
  - port: 80
""")
        if i % 2 == 0:
            write(f"{base}/route.yaml", ingress(app, f"{app}.example.com", "ingressClassName: nginx"))
            # The overlay patch restates the rule: Ingress rules have no merge key, so a
            # strategic-merge patch replaces the whole list.
            patch = ingress(app, f"{app}.ENV.example.com")
        else:
            write(f"{base}/route.yaml", f"""apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: {app}
spec:
  hosts: [{app}.example.com]
  gateways: [istio-system/dev]
  http:
  - route:
    - destination:
        host: {app}
        port:
          number: 80
""")
            patch = f"""apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: {app}
spec:
  hosts: [{app}.ENV.example.com]
  gateways: [istio-system/ENV]
"""
        write(f"{base}/kustomization.yaml", "resources:\n- service.yaml\n- route.yaml\n")
        for env in ("dev", "prod"):
            o = f"{a.out}/apps/{app}/overlays/{env}"
            write(f"{o}/kustomization.yaml", f"namespace: {app}-{env}\nresources:\n- ../../base\npatches:\n- path: host.yaml\n")
            write(f"{o}/host.yaml", patch.replace("ENV", env))


if __name__ == "__main__":
    main()
