#!/usr/bin/env python3
"""Baseline for BENCHMARKS.md: parse every YAML file under a directory with PyYAML's libyaml
loader (CSafeLoader) and count the documents per `kind`. Nothing else: no translation, no
validation, no output files. `gateway-migrate plan` is compared with this (issue #18).

    python3 bench/pyyaml_kinds.py TREE
"""

import collections
import os
import sys

import yaml

if not getattr(yaml, "__with_libyaml__", False):
    sys.exit("PyYAML was built without libyaml: CSafeLoader is missing (pip install pyyaml)")


def main():
    root = sys.argv[1]
    kinds = collections.Counter()
    errors = 0
    for directory, _, names in os.walk(root):
        for name in names:
            if not name.endswith((".yaml", ".yml")):
                continue
            with open(os.path.join(directory, name), "rb") as f:
                try:
                    for doc in yaml.load_all(f, Loader=yaml.CSafeLoader):
                        if isinstance(doc, dict):
                            kinds[doc.get("kind")] += 1
                except yaml.YAMLError:
                    errors += 1
    for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        print(f"{n:8d} {kind}")
    if errors:
        print(f"{errors:8d} files that did not parse")


if __name__ == "__main__":
    main()
