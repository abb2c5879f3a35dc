#!/usr/bin/env python3
"""Compares every report of two builds of callscope-cli, byte for byte.

For refactors: run the same commands (JSON/text/CSV reports, calls, streams, findings,
load-test statistics) with the old and the new build on the generator's scenarios and on
../shared/samples, at 1 and 2 threads, and list every output that differs.

  compare-builds.py --base OLD_BUILD --new NEW_BUILD [--captures DIR]...

Not a test: nothing in `make test` runs it. Standard library only.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

COMMANDS = [
    ["report", "--format", "json"],
    ["report", "--format", "text"],
    ["calls", "--format", "csv"],
    ["calls", "--format", "json"],
    ["streams", "--format", "csv"],
    ["findings", "--format", "text"],
    ["findings", "--format", "csv"],
    ["loadtest", "--format", "json"],
]


def captures(dirs):
    for d in dirs:
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.isfile(p) and name.endswith((".pcap", ".pcapng", ".cap")) or \
                    (os.path.isfile(p) and "." not in name and open(p, "rb").read(4) in
                     (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\x0a\x0d\x0d\x0a")):
                yield p


def digest(cli, cmd, path, threads):
    proc = subprocess.run([cli] + cmd[:1] + [path] + cmd[1:] + ["--threads", str(threads)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc.returncode, hashlib.sha256(proc.stdout).hexdigest(), proc.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="build directory of the previous code")
    ap.add_argument("--new", required=True, help="build directory of the new code")
    ap.add_argument("--captures", action="append", default=[],
                    help="folder of captures (default: generated scenarios + ../shared/samples)")
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    dirs = list(args.captures)
    if not dirs:
        scen = tempfile.mkdtemp(prefix="cs-compare-")
        subprocess.run([os.path.join(args.new, "tests", "gen", "cs-gen"), "all", "-d", scen],
                       check=True, stdout=subprocess.DEVNULL)
        dirs = [scen]
        samples = os.path.join(ROOT, "..", "shared", "samples")
        if os.path.isdir(samples):
            dirs.append(samples)
    base_cli = os.path.join(args.base, "src", "cli", "callscope-cli")
    new_cli = os.path.join(args.new, "src", "cli", "callscope-cli")
    same = differ = 0
    for path in captures(dirs):
        for cmd in COMMANDS:
            for t in args.threads.split(","):
                a = digest(base_cli, cmd, path, t)
                b = digest(new_cli, cmd, path, t)
                if a[:2] == b[:2]:
                    same += 1
                else:
                    differ += 1
                    print("DIFFERS: %s %s --threads %s (exit %d vs %d)" %
                          (" ".join(cmd), path, t, a[0], b[0]))
    print("%d outputs identical, %d differ" % (same, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
