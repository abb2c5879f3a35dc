#!/usr/bin/env python3
"""Identical findings grouped (TAP): a signalling-only load test of 4,500 answered calls
(cs-bench-gen --calls 4500 --no-rtp: every call answered, none with RTP) gives 4,500
"no-media" findings with one text. The text report shows them as one row counting 4,500
with the calls it stands for (1–4500), the JSON keeps one finding per call, and the CSV one
row per finding.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_BENCH_GEN")
CALLS = 4500

results = []


def check(name, ok, notes=()):
    results.append((name, ok, list(notes)))


def cli(*args):
    return subprocess.run([CLI] + list(args), capture_output=True, check=True).stdout.decode()


def main():
    if CLI is None or GEN is None:
        print("1..0 # SKIP CS_CLI or CS_BENCH_GEN not set")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "load.pcap")
        subprocess.run([GEN, "--calls", str(CALLS), "--call-ids", "0", "--no-rtp", "-o", path],
                       check=True, stdout=subprocess.DEVNULL)
        text = cli("findings", path).splitlines()
        report = cli("report", "--format", "text", path)
        doc = json.loads(cli("report", "--format", "json", path))
        rows = list(csv.DictReader(io.StringIO(cli("findings", "--format", "csv", path))))

    no_media = [line for line in text if line.split()[1:2] == ["no-media"]]
    check("one no-media row in the text table", len(no_media) == 1, no_media[:3])
    check(f"it counts {CALLS}", len(no_media) == 1 and no_media[0].split()[2] == f"×{CALLS}",
          no_media[:1])
    following = text[text.index(no_media[0]) + 1].strip() if len(no_media) == 1 else ""
    check(f"the calls it stands for: 1–{CALLS}", following == f"calls 1–{CALLS}", [following])
    check("the text report groups the same way", f"×{CALLS}" in report
          and report.count("Answered call without any RTP") == 1)
    check(f"the text report counts {CALLS} calls",
          f"Calls:         {CALLS}\n" in report and "Other SIP:     0 exchanges\n" in report)
    found = sorted(f["call"] for f in doc["findings"] if f["kind"] == "no-media")
    check(f"JSON: one no-media finding per call ({CALLS})", found == list(range(1, CALLS + 1)),
          [f"{len(found)} findings"])
    check("JSON capture counts", doc["capture"]["calls"] == CALLS
          and doc["capture"]["other_sip_exchanges"] == 0)
    check(f"CSV: {CALLS} no-media rows",
          sum(1 for r in rows if r["kind"] == "no-media") == CALLS)
    print(f"1..{len(results)}")
    failed = 0
    for i, (name, ok, notes) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        for n in notes:
            print(f"# {n}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
