#!/usr/bin/env bash
# Seeds each fuzz target's corpus (fuzz/corpus/TARGET, not committed) from the shared corpus of
# real manifests (../shared/corpus) and the project's fixtures.
set -euo pipefail
cd "$(dirname "$0")"
shared=../../shared/corpus
seed() { # target, files...
  local dir="corpus/$1"; shift
  mkdir -p "$dir"
  local f
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/$(printf '%s' "$f" | sha1sum | cut -c1-16)"
  done
  return 0
}
mapfile -t yaml < <(find "$shared" ../fixtures -type f \( -name '*.yaml' -o -name '*.yml' \) -size -64k | sort)
mapfile -t istio < <(grep -l 'networking.istio.io' "${yaml[@]}" || true)
mapfile -t ingress < <(grep -l 'kind: Ingress' "${yaml[@]}" || true)
mapfile -t kustomizations < <(printf '%s\n' "${yaml[@]}" | grep -E '/kustomization\.ya?ml$' || true)
seed split "${yaml[@]:0:300}"
seed load "${yaml[@]:0:300}"
seed inplace_regions "${yaml[@]:0:300}"
seed translate_istio "${istio[@]}"
seed translate_ingress "${ingress[@]}"
seed report "${istio[@]:0:100}" "${ingress[@]:0:100}"
seed kustomize_edit "${kustomizations[@]}"
for t in corpus/*; do echo "$t: $(ls "$t" | wc -l) seeds"; done
