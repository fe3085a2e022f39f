#!/usr/bin/env python3
"""Deterministic generator of a synthetic GitOps manifests repository for benchmarks.

Same arguments, same bytes: the only randomness is a seeded PRNG. The mix is what a platform
repository looks like: mostly Deployments, ConfigMaps and Services, a share of Istio and Ingress
objects, comments, some CRLF files, one kustomization per directory.

    python3 bench/gen_repo.py OUT --files 20000 --docs-per-file 3 --istio 0.1 --ingress 0.05 \
        --comments 0.3 --crlf 0.05 --seed 1
"""

import argparse
import os
import random

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  labels:
    app: {name}
spec:
  replicas: {replicas}
  selector:
    matchLabels:
      app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
      containers:
      - name: app
        image: registry.example.com/{name}:{version}
        ports:
        - containerPort: 8080
        env:
        - name: LOG_LEVEL
          value: info
        resources:
          requests:
            cpu: 100m
            memory: 128Mi
"""

CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: {name}-config
data:
  settings.yaml: |
    feature: {version}
    retries: 3
    endpoint: http://{name}.svc:8080
"""

SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: {name}
spec:
  selector:
    app: {name}
  ports:
  - name: http
    port: 8080
"""

VIRTUAL_SERVICE = """apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: {name}
spec:
  hosts:
  - {name}.example.com
  gateways:
  - istio-system/public
  http:
  - match:
    - uri:
        prefix: /api
    route:
    - destination:
        host: {name}
        port:
          number: 8080
    timeout: 5s
  - route:
    - destination:
        host: {name}
        port:
          number: 8080
"""

ISTIO_GATEWAY = """apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: {name}-gw
spec:
  selector:
    istio: ingressgateway
  servers:
  - port:
      number: 80
      name: http
      protocol: HTTP
    hosts:
    - "*/{name}.example.com"
"""

INGRESS = """apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {name}
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /
spec:
  ingressClassName: nginx
  rules:
  - host: {name}.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: {name}
            port:
              number: 8080
"""

COMMENT = "# {name}: owned by team-{team}; see runbook https://wiki.example.com/{name}\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--files", type=int, default=20000)
    p.add_argument("--docs-per-file", default="3",
                   help="documents per file: a number, or MIN-MAX for a uniform choice per file")
    p.add_argument("--istio", type=float, default=0.10, help="share of documents that are Istio")
    p.add_argument("--ingress", type=float, default=0.05, help="share of documents that are Ingress")
    p.add_argument("--comments", type=float, default=0.3, help="share of documents with a comment")
    p.add_argument("--crlf", type=float, default=0.05, help="share of files with CRLF endings")
    p.add_argument("--files-per-dir", type=int, default=50)
    p.add_argument("--no-kustomization", action="store_true",
                   help="write no kustomization.yaml (a plain manifests tree: nothing to render)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    lo, _, hi = a.docs_per_file.partition("-")
    docs_min, docs_max = int(lo), int(hi or lo)
    total_bytes = 0
    dirs = {}
    for i in range(a.files):
        d = f"apps/team{i // (a.files_per_dir * 20):03d}/svc{i // a.files_per_dir:05d}"
        fname = f"manifest-{i:06d}.yaml"
        docs = []
        count = docs_min if docs_min == docs_max else rng.randint(docs_min, docs_max)
        for j in range(count):
            name = f"app-{i:06d}-{j}"
            r = rng.random()
            if r < a.istio:
                tmpl = ISTIO_GATEWAY if rng.random() < 0.1 else VIRTUAL_SERVICE
            elif r < a.istio + a.ingress:
                tmpl = INGRESS
            else:
                tmpl = rng.choice([DEPLOYMENT, DEPLOYMENT, CONFIGMAP, SERVICE])
            text = tmpl.format(name=name, replicas=rng.randint(1, 5), version=f"1.{rng.randint(0, 40)}.0")
            if rng.random() < a.comments:
                text = COMMENT.format(name=name, team=rng.randint(1, 30)) + text
            docs.append(text)
        body = "---\n".join(docs)
        if rng.random() < a.crlf:
            body = body.replace("\n", "\r\n")
        path = os.path.join(a.out, d, fname)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as f:
            f.write(body)
        total_bytes += len(body.encode())
        dirs.setdefault(d, []).append(fname)
    for d, files in dirs.items():
        if a.no_kustomization:
            continue
        with open(os.path.join(a.out, d, "kustomization.yaml"), "w") as f:
            f.write("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n")
            f.writelines(f"- {x}\n" for x in files)
    kustomizations = 0 if a.no_kustomization else len(dirs)
    print(f"{a.files} files, {kustomizations} kustomizations, {total_bytes} bytes in {a.out}")


if __name__ == "__main__":
    main()
