#!/usr/bin/env bash
# Fills .deps/ (ignored by git) with what bench/device_check.sh needs on a
# machine that has no CLI11, GoogleTest or nlohmann-json packages and no
# network: the CLI11 headers, the GoogleTest sources, the nlohmann-json
# headers, and the commit being measured (the device gets a copy of the
# working tree without .git). Run it here, on a machine with Debian's
# libcli11-dev, googletest and nlohmann-json3-dev packages, before the
# device call.
set -euo pipefail
cd "$(dirname "$0")/.."

cli_src=${CLI11_HEADERS:-/usr/include/CLI}
gtest_src=${GTEST_SOURCES:-/usr/src/googletest}
if [ ! -f "$cli_src/CLI.hpp" ]; then
  echo "prepare_device: $cli_src/CLI.hpp not found (install libcli11-dev or set CLI11_HEADERS)" >&2
  exit 2
fi
if [ ! -f "$gtest_src/CMakeLists.txt" ]; then
  echo "prepare_device: $gtest_src/CMakeLists.txt not found (install googletest or set GTEST_SOURCES)" >&2
  exit 2
fi

json_src=${NLOHMANN_JSON_HEADERS:-/usr/include/nlohmann}
if [ ! -f "$json_src/json.hpp" ]; then
  echo "prepare_device: $json_src/json.hpp not found (install nlohmann-json3-dev or set NLOHMANN_JSON_HEADERS)" >&2
  exit 2
fi

rm -rf .deps/cli11 .deps/googletest .deps/nlohmann-json
mkdir -p .deps/cli11 .deps/nlohmann-json
cp -r "$cli_src" .deps/cli11/CLI
cp -r "$gtest_src" .deps/googletest
cp -r "$json_src" .deps/nlohmann-json/nlohmann

# perftide's own commit: only when this folder is itself a work tree's root,
# never that of a repository it happens to sit in.
root=$(pwd -P)
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null || true)
commit=unknown
dirty=false
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$root" ]; then
  commit=$(git -C "$root" rev-parse HEAD)
  [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ] && dirty=true
fi
echo "$commit $dirty" > .deps/commit
echo "prepare_device: .deps ready ($(du -sh .deps | cut -f1)), commit $commit, uncommitted changes: $dirty"
