#!/bin/sh
# Runs one desktop-integration validator as a single TAP test.
# Usage: run-validator.sh NAME TOOL [ARGS...]
# A missing TOOL is a TAP skip (exit 0), since an exit code of 77 is a
# failure under meson's TAP protocol.
# Set CS_VALIDATOR_FAIL_ON_OUTPUT=PATTERN (grep -E) to also fail when the output
# matches PATTERN (flatpak-builder only warns about unknown manifest keys).

name="$1"
tool="$2"
if [ -z "$name" ] || [ -z "$tool" ]; then
  echo "usage: $0 NAME TOOL [ARGS...]" >&2
  exit 2
fi
shift 2

if ! command -v "$tool" >/dev/null 2>&1; then
  echo "1..0 # SKIP $tool not installed"
  exit 0
fi

echo "1..1"
errlog=$(mktemp "${TMPDIR:-/tmp}/cs-validator.XXXXXX") || exit 1
trap 'rm -f "$errlog"' EXIT

# The tool's own output goes to stderr so it cannot be mistaken for TAP.
"$tool" "$@" >"$errlog" 2>&1
status=$?
cat "$errlog" >&2

if [ "$status" -ne 0 ]; then
  echo "not ok 1 - $name (exit status $status)"
elif [ -n "$CS_VALIDATOR_FAIL_ON_OUTPUT" ] &&
  grep -q -E "$CS_VALIDATOR_FAIL_ON_OUTPUT" "$errlog"; then
  echo "not ok 1 - $name (output matches '$CS_VALIDATOR_FAIL_ON_OUTPUT')"
else
  echo "ok 1 - $name"
fi
exit 0
