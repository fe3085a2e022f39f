#!/usr/bin/env bash
# Installs gateway-migrate for the GitHub Action (action.yml).
#
#   install.sh resolve   decide how: the release binary of the action's ref for this runner
#                        (when the release has one), or a build from the action's source
#   install.sh install   download and verify the release binary, or `cargo install` it
#
# Everything comes in through the environment (never through the shell text of a step):
#   GM_ACTION_REF, GM_ACTION_REPOSITORY   the action's ref and repository
#   GM_RELEASE_URL                        releases download root (default: GitHub's for the
#                                         action's repository; set it for a mirror)
#   GM_MODE, GM_TARGET, GM_BUILD_ROOT     from `resolve` (install)
#   GITHUB_ACTION_PATH, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH
set -euo pipefail

die() {
  echo "::error title=gateway-migrate install::$*" >&2
  exit 1
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

target_of() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64) echo aarch64-unknown-linux-musl ;;
    macOS/X64) echo x86_64-apple-darwin ;;
    macOS/ARM64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
    *) echo "" ;;
  esac
}

archive_of() {
  case "$1" in
    *windows*) echo "gateway-migrate-$1.zip" ;;
    *) echo "gateway-migrate-$1.tar.gz" ;;
  esac
}

release_root() {
  if [ -n "${GM_RELEASE_URL:-}" ]; then
    echo "${GM_RELEASE_URL%/}"
  else
    echo "https://github.com/${GM_ACTION_REPOSITORY}/releases/download"
  fi
}

resolve() {
  local ref="${GM_ACTION_REF:-}" target mode=build
  target="$(target_of)"
  # Release binaries exist for version tags only; a branch or a commit is built from source.
  if [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] && [ -n "$target" ]; then
    local url
    url="$(release_root)/$ref/$(archive_of "$target")"
    if curl --silent --show-error --fail --location --head --retry 3 --output /dev/null "$url"; then
      mode=release
    else
      echo "No release asset at $url: building from source instead." >&2
    fi
  fi
  local lock_hash=""
  if [ -f "$GITHUB_ACTION_PATH/Cargo.lock" ]; then
    lock_hash="$(sha256_of "$GITHUB_ACTION_PATH/Cargo.lock")"
  fi
  {
    echo "mode=$mode"
    echo "target=$target"
    echo "lock-hash=$lock_hash"
    echo "build-root=$RUNNER_TEMP/gateway-migrate-build"
  } >>"$GITHUB_OUTPUT"
}

install_release() {
  local ref="$GM_ACTION_REF" target="$GM_TARGET" archive dir url expected actual
  archive="$(archive_of "$target")"
  dir="$RUNNER_TEMP/gateway-migrate-$ref"
  mkdir -p "$dir/bin"
  url="$(release_root)/$ref/$archive"
  curl --silent --show-error --fail --location --retry 3 --output "$dir/$archive" "$url" ||
    die "cannot download $url"
  curl --silent --show-error --fail --location --retry 3 --output "$dir/$archive.sha256" "$url.sha256" ||
    die "cannot download the checksum $url.sha256"
  expected="$(cut -d' ' -f1 <"$dir/$archive.sha256" | tr -d '[:space:]')"
  actual="$(sha256_of "$dir/$archive")"
  if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
    rm -f "$dir/$archive"
    die "checksum mismatch for $archive: expected ${expected:-nothing}, got $actual; not installed"
  fi
  case "$archive" in
    *.zip)
      if command -v unzip >/dev/null 2>&1; then
        unzip -q -o "$dir/$archive" -d "$dir/bin"
      else
        tar -xf "$dir/$archive" -C "$dir/bin"
      fi
      ;;
    *) tar -xzf "$dir/$archive" -C "$dir/bin" ;;
  esac
  local bin="$dir/bin/gateway-migrate"
  [ -f "$bin.exe" ] && bin="$bin.exe"
  [ -f "$bin" ] || die "$archive holds no gateway-migrate binary"
  chmod +x "$bin"
  echo "Installed gateway-migrate $ref ($target), sha256 $actual" >&2
  echo "$dir/bin" >>"$GITHUB_PATH"
  echo "bin=$bin" >>"$GITHUB_OUTPUT"
}

install_build() {
  command -v cargo >/dev/null 2>&1 || die "no release binary for ${GM_ACTION_REF:-this ref} and no cargo to build one"
  local root="$GM_BUILD_ROOT"
  cargo install --locked --path "$GITHUB_ACTION_PATH" --root "$root" --target-dir "$root/target"
  local bin="$root/bin/gateway-migrate"
  [ -f "$bin.exe" ] && bin="$bin.exe"
  echo "$root/bin" >>"$GITHUB_PATH"
  echo "bin=$bin" >>"$GITHUB_OUTPUT"
}

case "${1:-}" in
  resolve) resolve ;;
  install)
    case "${GM_MODE:-}" in
      release) install_release ;;
      build) install_build ;;
      *) die "unknown install mode '${GM_MODE:-}'" ;;
    esac
    ;;
  *) die "usage: install.sh resolve|install" ;;
esac
