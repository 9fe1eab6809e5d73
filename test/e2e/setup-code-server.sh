#!/usr/bin/env bash
# Installs code-server (a real VS Code 1.100 server with a Node extension host) for the e2e tests,
# outside git in .cache/code-server/. Later runs find it there and skip the install.
# Why each step: see the notes on running the extension in a real VS Code on this machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=4.100.3
PREFIX=.cache/code-server
BIN="$PREFIX/node_modules/.bin/code-server"

# What the tests need besides code-server: the browser that drives it and curl for the API calls.
runtime_prerequisites() {
  command -v curl >/dev/null 2>&1 || { echo "curl is missing (apt-get install curl); the e2e tests call the API with it" >&2; exit 1; }
  [ -x /usr/bin/chromium ] || { echo "chromium is missing at /usr/bin/chromium (apt-get install chromium)" >&2; exit 1; }
}

if [ -x "$BIN" ] && [ "$(cat "$PREFIX/.installed" 2>/dev/null)" = "$VERSION" ]; then
  runtime_prerequisites
  echo "code-server $VERSION already installed in $PREFIX"
  exit 0
fi

# kerberos (a code-server dependency) builds against libkrb5; @vscode/ripgrep wants an rg binary.
missing=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (apt)"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi
# Say which prerequisite is missing rather than failing later in an npm build log.
dpkg -s libkrb5-dev >/dev/null 2>&1 || { echo "libkrb5-dev is missing (apt-get install libkrb5-dev)" >&2; exit 1; }
command -v rg >/dev/null 2>&1 || { echo "ripgrep (rg) is missing (apt-get install ripgrep)" >&2; exit 1; }
runtime_prerequisites

# @vscode/ripgrep's postinstall downloads a release from GitHub unless its cache already holds the
# tarball: put Debian's rg there under the expected name.
tmp="$(node -p 'require("os").tmpdir()')"
cache="$tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache"
tar -czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

mkdir -p "$PREFIX"
[ -f "$PREFIX/package.json" ] || echo '{ "name": "code-server-for-e2e", "private": true }' > "$PREFIX/package.json"
# unsafe_perm: code-server's postinstall refuses to run as root otherwise; yes: a nested
# `npx node-gyp` would otherwise wait for a confirmation nobody gives.
npm_config_unsafe_perm=true npm_config_yes=true \
  npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error "code-server@$VERSION"
[ -x "$BIN" ] || { echo "code-server did not install into $PREFIX" >&2; exit 1; }
echo "$VERSION" > "$PREFIX/.installed"
echo "code-server $VERSION installed in $PREFIX"
