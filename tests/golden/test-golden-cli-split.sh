#!/bin/sh
# test-golden-cli-split.sh CLI RENDER CAPTURE — callscope-cli is the light front end:
# it links no drawing or audio library, yet the heavy commands still work through it
# (it execs callscope-cli-render), and it says so clearly when the renderer is missing.
cli=$1
render=$2
capture=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip () { n=$((n + 1)); echo "ok $n # SKIP $1"; }
heavy_no_cxx='cairo|pango|harfbuzz|freetype|fontconfig|libX|sndfile|opus|bcg729|spandsp|tiff|portaudio'
heavy="$heavy_no_cxx|stdc\+\+"

echo "1..9"
if command -v readelf > /dev/null; then
  needed=$(readelf -d "$cli" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  if [ -n "$needed" ] && ! echo "$needed" | grep -Eq "$heavy"; then
    ok "front end NEEDED: $needed"
  else
    not_ok "front end NEEDED holds a drawing or audio library: $needed"
  fi
else
  skip "no readelf"
fi
if command -v ldd > /dev/null && ldd "$cli" > "$tmp/ldd" 2>&1; then
  # A sanitizer build's runtime (libasan/libubsan) brings libstdc++ itself.
  loaded_heavy=$heavy
  if grep -Eq 'libasan|libubsan' "$tmp/ldd"; then
    loaded_heavy=$heavy_no_cxx
  fi
  if grep -Eq "$loaded_heavy" "$tmp/ldd"; then
    not_ok "front end loads a drawing or audio library: $(grep -E "$loaded_heavy" "$tmp/ldd" | tr '\n' ' ')"
  else
    ok "front end loads $(wc -l < "$tmp/ldd") shared objects, none for drawing or audio"
  fi
else
  skip "no ldd"
fi
if "$cli" ladder "$capture" --call 1 -o "$tmp/ladder.svg" 2> "$tmp/err" && grep -q "<svg" "$tmp/ladder.svg"; then
  ok "ladder to SVG through the front end"
else
  not_ok "ladder to SVG through the front end: $(cat "$tmp/err")"
fi
if "$cli" report --format html "$capture" -o "$tmp/report.html" 2> "$tmp/err" \
  && grep -q "<html" "$tmp/report.html"; then
  ok "report --format html through the front end"
else
  not_ok "report --format html through the front end: $(cat "$tmp/err")"
fi
# The renderer sees the front end's argv[0]: help and messages name callscope-cli.
"$cli" graph "$capture" > /dev/null 2> "$tmp/err"
status=$?
if [ $status -eq 2 ] && grep -q "^callscope-cli graph: " "$tmp/err" && ! grep -q render "$tmp/err"; then
  ok "usage errors of a heavy command read as before (exit 2)"
else
  not_ok "usage error of graph: exit $status, $(cat "$tmp/err")"
fi
if "$cli" ladder --help > "$tmp/help" 2>&1 && grep -q -- "--call" "$tmp/help"; then
  ok "ladder --help through the front end"
else
  not_ok "ladder --help through the front end: $(cat "$tmp/help")"
fi
# libpcap is opened on first use (cs-cli-pcap-lazy.c): not loaded by every run, still there
# for a BPF filter.
if [ "$CS_CLI_PCAP_LAZY" != 1 ]; then
  skip "front end links libpcap (no lazy loading in this build)"
elif command -v readelf > /dev/null; then
  if readelf -d "$cli" | grep NEEDED | grep -q pcap; then
    not_ok "front end NEEDED holds libpcap: $(readelf -d "$cli" | grep NEEDED | grep pcap)"
  else
    ok "front end does not load libpcap until it needs it"
  fi
else
  skip "no readelf"
fi
"$cli" report --filter "udp port 5060" "$capture" -o "$tmp/all-sip.json" 2> "$tmp/err"
status=$?
"$cli" report --filter "udp port 0" "$capture" -o "$tmp/none.json" 2>> "$tmp/err"
if [ $status -eq 0 ] && grep -q '"calls"' "$tmp/all-sip.json" && grep -q '"rtp_packets": 0' "$tmp/all-sip.json" \
  && grep -q '"sip_messages": 0,' "$tmp/none.json" && ! grep -q '"sip_messages": 0,' "$tmp/all-sip.json"; then
  ok "BPF filter through the front end"
else
  not_ok "BPF filter through the front end: exit $status, $(cat "$tmp/err")"
fi
# Alone in a directory, the front end cannot find the renderer (unless one is installed).
cp "$cli" "$tmp/callscope-cli"
"$tmp/callscope-cli" ladder "$capture" --call 1 -o "$tmp/alone.svg" > /dev/null 2> "$tmp/err"
status=$?
if grep -q "callscope-cli-render" "$tmp/err" && [ $status -eq 1 ] && [ ! -e "$tmp/alone.svg" ]; then
  ok "missing renderer: exit 1, $(cat "$tmp/err")"
elif [ $status -eq 0 ]; then
  skip "a callscope-cli-render is installed in libexecdir"
else
  not_ok "missing renderer: exit $status, $(cat "$tmp/err")"
fi
[ -x "$render" ] || echo "# $render is not built"
exit $failed
