#!/bin/sh
# Reads the compiled schema from the build dir (GSETTINGS_SCHEMA_DIR) and
# checks the defaults the application relies on, as TAP.
schema=io.github.callscope.Callscope

if ! command -v gsettings >/dev/null 2>&1; then
  echo "1..0 # SKIP gsettings not installed"
  exit 0
fi
if [ -z "$GSETTINGS_SCHEMA_DIR" ] || [ ! -f "$GSETTINGS_SCHEMA_DIR/gschemas.compiled" ]; then
  echo "1..1"
  echo "not ok 1 - no gschemas.compiled in GSETTINGS_SCHEMA_DIR='$GSETTINGS_SCHEMA_DIR'"
  exit 0
fi
# The memory backend keeps the test away from the user's dconf database.
export GSETTINGS_BACKEND=memory

n=0
check () {
  key="$1"
  expected="$2"
  n=$((n + 1))
  actual=$(gsettings get "$schema" "$key" 2>&1)
  if [ "$actual" = "$expected" ]; then
    echo "ok $n - $key = $expected"
  else
    echo "not ok $n - $key: expected '$expected', got '$actual'"
  fi
}

check_range () {
  key="$1"
  expected="$2"
  n=$((n + 1))
  actual=$(gsettings range "$schema" "$key" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
  if [ "$actual" = "$expected" ]; then
    echo "ok $n - range of $key is $expected"
  else
    echo "not ok $n - range of $key: expected '$expected', got '$actual'"
  fi
}

echo "1..13"
check window-width 1280
check window-height 800
check window-maximized false
check recent-files "@as []"
check list-pane-fraction 0.26500000000000001
check detail-pane-fraction 0.68999999999999995
check calls-visible-columns "['start', 'from', 'to', 'method', 'state', 'final', 'pdd', 'setup-time', 'duration', 'messages', 'streams', 'mos', 'findings']"
check calls-show-other-exchanges true
check ladder-time-mode "'capture'"
check jitter-buffer-ms "uint32 50"
check_range jitter-buffer-ms "range u 0 300"
check_range ladder-time-mode "enum 'absolute' 'relative' 'delta' 'capture'"

# A value outside the range must be refused.
n=$((n + 1))
if gsettings set "$schema" jitter-buffer-ms 301 >/dev/null 2>&1; then
  echo "not ok $n - jitter-buffer-ms accepted 301"
else
  echo "ok $n - jitter-buffer-ms refuses 301"
fi
exit 0
