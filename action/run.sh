#!/usr/bin/env bash
# Runs gateway-migrate for the GitHub Action (action.yml). Inputs arrive as GM_* environment
# variables and become separate arguments; nothing from them is evaluated by the shell.
set -euo pipefail

fail() {
  echo "::error title=gateway-migrate::$*" >&2
  exit 2
}

bin="${GM_BIN:?the install step did not name the binary}"
command="${GM_COMMAND:-check}"
case "$command" in
  plan | check | apply | pr) ;;
  # Only put gateway-migrate on PATH, for later steps (`bulk`, see docs/bulk.md).
  install)
    "$bin" --version
    exit 0
    ;;
  *) fail "input 'command' must be plan, check, apply, pr or install, not '$command'" ;;
esac

args=("$command" "${GM_PATH:-.}")
[ -n "${GM_CONFIG:-}" ] && args+=(--config "$GM_CONFIG")
[ -n "${GM_CHANNEL:-}" ] && args+=(--channel "$GM_CHANNEL")
case "${GM_FAIL_ON:-error}" in
  error | warning) args+=(--fail-on "${GM_FAIL_ON:-error}") ;;
  # Report only: neither diagnostics nor pending changes fail the step.
  never) args+=(--exit-zero) ;;
  *) fail "input 'fail-on' must be error, warning or never, not '${GM_FAIL_ON}'" ;;
esac

out="${RUNNER_TEMP:?}/gateway-migrate"
mkdir -p "$out"
sarif="$out/gateway-migrate.sarif"
annotations="$out/annotations.txt"
args+=(--output "sarif=$sarif")

if [ "$command" = pr ]; then
  [ -n "${GM_BASE:-}" ] && args+=(--base "$GM_BASE")
  [ -n "${GM_BRANCH:-}" ] && args+=(--branch "$GM_BRANCH")
  if [ -n "${GM_LABELS:-}" ]; then
    while IFS= read -r label; do
      label="${label#"${label%%[![:space:]]*}"}"
      label="${label%"${label##*[![:space:]]}"}"
      [ -n "$label" ] && args+=(--label "$label")
    done < <(printf '%s\n' "$GM_LABELS" | tr ',' '\n')
  fi
  case "${GM_DRAFT:-false}" in
    true) args+=(--draft) ;;
    false | "") ;;
    *) fail "input 'draft' must be true or false, not '${GM_DRAFT}'" ;;
  esac
  # stdout is what was published (JSON); annotations and the job summary come from the
  # report written beside it.
  args+=(--format json --output "github=$annotations")
else
  [ -n "${GM_BASE:-}${GM_BRANCH:-}${GM_LABELS:-}" ] && echo "::warning title=gateway-migrate::base, branch and labels are used by command 'pr' only" >&2
  args+=(--format github)
fi

# Extra arguments: split on whitespace, no quoting, globbing or expansion.
if [ -n "${GM_ARGS:-}" ]; then
  read -r -a extra <<<"$GM_ARGS"
  # (The `+` form keeps an empty list safe under `set -u` in bash 3, macOS's /bin/bash.)
  args+=(${extra[@]+"${extra[@]}"})
fi

status=0
if [ "$command" = pr ]; then
  GITHUB_TOKEN="${GM_TOKEN:-}" "$bin" "${args[@]}" || status=$?
else
  "$bin" "${args[@]}" || status=$?
fi
if [ -f "$annotations" ]; then
  cat "$annotations"
fi
if [ -f "$sarif" ]; then
  echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
fi
exit "$status"
