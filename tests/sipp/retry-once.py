#!/usr/bin/env python3
"""Runs a SIPp load test, and once more when it fails.

The sipp suite drives real SIPp and Kamailio processes on loopback; when the machine is
saturated their own timing (SIPp's millisecond clock, its ramp, Kamailio's one worker) can
move a period edge or a breaking point by one interval. A real defect fails both runs; the
first run's failing output stays in the log as TAP comments, so a retry is never silent.
Usage: retry-once.py TEST-EXECUTABLE [ARGS...]
"""
import subprocess
import sys

first = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
if first.returncode == 0:
    sys.stdout.write(first.stdout)
    sys.exit(0)
print(f"# first attempt failed (exit {first.returncode}); its output, then a second attempt:")
for line in first.stdout.splitlines():
    print(f"#   {line}")
sys.stdout.flush()
second = subprocess.run(sys.argv[1:])
sys.exit(second.returncode)
