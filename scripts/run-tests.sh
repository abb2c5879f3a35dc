#!/bin/sh
# Runs every test suite (the UI suite under one Xvfb) and ends with
# "N passed, N failed, N skipped". Exit status is non-zero on any failure.
set -u
BUILD="${1:-build}"

export LC_ALL=C.UTF-8 GSETTINGS_BACKEND=memory GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
runner="meson test -C $BUILD --print-errorlogs --num-processes 2"
if command -v xvfb-run >/dev/null 2>&1; then
  GDK_BACKEND=x11 xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" $runner
else
  $runner
fi
status=$?
python3 "$(dirname "$0")/test-summary.py" "$BUILD/meson-logs/testlog.json" || status=1
exit $status
