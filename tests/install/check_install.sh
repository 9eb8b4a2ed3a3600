#!/usr/bin/env bash
# Installs the build into a temporary prefix as a user would
# (cmake --install), then checks what was installed: the binary runs and
# counts, --version names the commit, `man -l` renders the manual page and it
# names every subcommand and every option that `--help` shows, and the bash
# completion completes subcommands and options.
# Usage: check_install.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" --component cli >/dev/null
bin=$prefix/bin/perftide
page=$prefix/share/man/man1/perftide.1
completion=$prefix/share/bash-completion/completions/perftide
for f in "$bin" "$page" "$completion"; do test -s "$f" || fail "$f was not installed"; done

# The installed program, away from the build tree.
out=$(cd / && "$bin" perft --depth 3 --backend cpu 2>/dev/null)
[[ "$out" == *8902* ]] || fail "installed perftide perft --depth 3 printed: $out"
version=$("$bin" --version)
[[ "$version" == "perftide "* && "$version" == *"commit: "* ]] || fail "--version printed: $version"
"$bin" --version --json | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["name"] == "perftide", d' ||
  fail "--version --json is not the JSON object"

# The manual page renders, and holds every subcommand and option of --help.
command -v man >/dev/null || { echo "SKIPPED: no man here (apt install man-db)"; exit 77; }
# (LC_ALL=C: ASCII hyphens; the sed drops the overstrike of bold text.)
text=$(LC_ALL=C MANWIDTH=200 man -l "$page" 2>&1 | sed 's/.\x08//g')
[[ "$text" == *"NAME"* && "$text" == *"perftide"* ]] || fail "man -l did not render the page: $text"
commands=$("$bin" --help | awk 'tolower($0) ~ /^subcommands:/ {on=1; next} on && NF {print $1}')
[ -n "$commands" ] || fail "--help lists no subcommands"
for c in $commands; do
  grep -qE -- "^ +$c\$" <<<"$text" || fail "the manual page has no section for the subcommand $c"
  for opt in $("$bin" "$c" --help | grep -oE -- '(^|[ ,])--[a-z0-9-]+' | tr -d ' ,' | sort -u); do
    # An option's heading: "-d, --depth INT" at the start of a line.
    grep -qE -- "^ +(-[a-zA-Z0-9], )?$opt( |,|\$)" <<<"$text" || fail "the manual page has no entry for $c $opt"
  done
done

# The completion, sourced by bash as bash-completion would.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _perftide; echo "${COMPREPLY[*]}"' _ "$completion" "$@"
}
words=" $(complete_words perftide per) "
[[ "$words" == *" perft "* && "$words" == *" perftree "* && "$words" != *" unique "* ]] || fail "completion of 'per': $words"
[[ " $(complete_words perftide perft --dep) " == *" --depth "* ]] || fail "completion of 'perft --dep'"
[[ " $(complete_words perftide unique --work) " == *" --work-dir "* ]] || fail "completion of 'unique --work'"
[[ " $(complete_words perftide --vers) " == *" --version "* ]] || fail "completion of '--vers'"
echo "installed into a temporary prefix: binary, manual page and completion checked"
