#!/bin/sh
# Runs the test suites (the UI suite under one Xvfb and a private D-Bus
# session) and ends with "N passed, N failed, N skipped". Exit status is
# non-zero on any failure.
#   run-tests.sh BUILD                 every suite but `valgrind`
#   run-tests.sh BUILD --suite fuzz …  the given meson test selection
set -u
BUILD="${1:-build}"
[ $# -gt 0 ] && shift
# valgrind is slow: `make test-valgrind` runs it on its own.
[ $# -eq 0 ] && set -- --no-suite valgrind

export LC_ALL=C.UTF-8 GSETTINGS_BACKEND=memory GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
# Sanitizer builds: any report fails the test (LSan leaks included).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")/.." && pwd)/tests/hostile/lsan.supp:print_suppressions=0}"
runner="meson test -C $BUILD --print-errorlogs --num-processes 2 $*"
if command -v dbus-run-session >/dev/null 2>&1; then
  runner="dbus-run-session -- $runner"
fi
if command -v xvfb-run >/dev/null 2>&1; then
  GDK_BACKEND=x11 xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" $runner
else
  $runner
fi
status=$?
python3 "$(dirname "$0")/test-summary.py" "$BUILD/meson-logs/testlog.json" || status=1
exit $status
