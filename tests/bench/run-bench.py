#!/usr/bin/env python3
"""Benchmark callscope-cli on the carrier corpora; time tshark and sngrep on the same files.

Builds a release build, generates the corpora with cs-bench-gen, runs
`callscope-cli report` at 1..N threads (one warm-up, then the median of --runs),
and prints packets/s, SIP messages/s, wall time and peak RSS as a Markdown table.
tshark and sngrep are timed on the same files when installed, and callscope's
stream list of corpus A is checked against tshark's (packets, lost). With
--baseline-cli PATH a previous build's callscope-cli runs in turn with this one on
every corpus and thread count, and both times are printed with their ratio.

Not a test: nothing in `make test` depends on speed. Standard library only.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (generator arguments, description)
CORPORA = {
    "A": (["--calls", "5000"], "5000 calls, Call-IDs and media reused modulo 100"),
    "B": (["--calls", "20000", "--call-ids", "0", "--stream-pairs", "0"],
          "20000 calls, unique Call-IDs and media"),
    "S": (["--calls", "100000", "--no-rtp", "--call-ids", "0",
           "--retransmit-permille", "20", "--fail-permille", "50"],
          "100000 calls, signalling only, 2% retransmitted 200s, 5% 486"),
    # every call starts within a few milliseconds: all RTP streams interleave packet by
    # packet, as on a busy trunk (and as a generator that starts all calls at once makes)
    "Aconc": (["--calls", "5000", "--interval-us", "1"],
              "A with all 5000 calls started at once (Call-IDs and media shared while live)"),
    "Bconc": (["--calls", "20000", "--call-ids", "0", "--stream-pairs", "0",
               "--interval-us", "1"],
              "B with all 20000 calls started at once (40000 interleaved streams)"),
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        run(["meson", "setup", build_dir, ROOT, "-Dgtk=false", "--buildtype=release"],
            stdout=subprocess.DEVNULL)
    run(["ninja", "-C", build_dir, "src/cli/callscope-cli", "tests/bench/cs-bench-gen"],
        stdout=subprocess.DEVNULL)
    return (os.path.join(build_dir, "src", "cli", "callscope-cli"),
            os.path.join(build_dir, "tests", "bench", "cs-bench-gen"))


def generate(gen, corpus_dir, name):
    args, _ = CORPORA[name]
    path = os.path.join(corpus_dir, "corpus-%s.pcap" % name)
    stamp = path + ".args"
    wanted = " ".join(args)
    if os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == wanted:
        return path
    run([gen] + args + ["-o", path], stdout=subprocess.DEVNULL)
    with open(stamp, "w") as f:
        f.write(wanted)
    return path


def timed(cmd, timeout=None):
    """Runs cmd; returns (wall seconds, peak RSS KiB, stdout, CPU seconds), or None when it
    ran longer than timeout seconds (it is then killed)."""
    start = time.perf_counter()
    # A child's ru_maxrss starts from this process's own peak RSS (fork counts the shared
    # pages, and the high-water mark survives exec), so this script never holds a report
    # in memory: see report_summary and identical_across_threads.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(timeout, proc.kill) if timeout else None
    if timer:
        timer.start()
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if timer:
        timer.cancel()
        if wall >= timeout:
            return None
    if os.waitstatus_to_exitcode(status) not in (0, 3):
        raise RuntimeError("%s failed with status %d" % (cmd[0], status))
    return wall, usage.ru_maxrss, out, usage.ru_utime + usage.ru_stime


def report_cmd(cli, path, threads):
    return [cli, "report", path, "--threads", str(threads), "-o", "/dev/null"]


def bench_callscope(cli, path, threads, runs):
    cmd = report_cmd(cli, path, threads)
    timed(cmd)  # warm-up: page cache, CPU frequency
    samples = [timed(cmd) for _ in range(runs)]
    return (statistics.median(s[0] for s in samples), max(s[1] for s in samples),
            statistics.median(s[3] for s in samples))


def bench_against(cli, baseline, path, threads, runs):
    """Times this build and a previous one in turn (A B A B ...: a drifting machine moves
    both), returns ((wall, rss, cpu) of each, median of the per-pair wall and CPU ratios)."""
    a_cmd, b_cmd = report_cmd(cli, path, threads), report_cmd(baseline, path, threads)
    timed(a_cmd)
    timed(b_cmd)
    a, b = [], []
    for _ in range(runs):
        a.append(timed(a_cmd))
        b.append(timed(b_cmd))

    def summary(samples):
        return (statistics.median(s[0] for s in samples), max(s[1] for s in samples),
                statistics.median(s[3] for s in samples))

    wall_ratio = statistics.median(x[0] / y[0] for x, y in zip(a, b))
    cpu_ratio = statistics.median(x[3] / y[3] for x, y in zip(a, b))
    return summary(a), summary(b), wall_ratio, cpu_ratio


# Runs in a separate Python process: only this small summary comes back, so the
# benchmark's own memory (which every child's peak RSS starts from) stays small.
SUMMARY_SCRIPT = """
import json, sys
r = json.load(sys.stdin)
json.dump({"capture": r["capture"],
           "methods": [c.get("method", "INVITE") for c in r["calls"]],
           "streams": [{k: s.get(k) for k in ("src", "dst", "ssrc", "packets", "lost")}
                       for s in r["streams"]]}, sys.stdout)
"""


def report_json(cli, path):
    cli_proc = subprocess.Popen([cli, "report", path], stdout=subprocess.PIPE)
    out = subprocess.run([sys.executable, "-c", SUMMARY_SCRIPT], stdin=cli_proc.stdout,
                         stdout=subprocess.PIPE, check=True).stdout
    cli_proc.stdout.close()
    if cli_proc.wait() != 0:
        raise RuntimeError("callscope-cli report %s failed" % path)
    return json.loads(out)


def tshark_streams(text):
    streams = {}
    pattern = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(0x[0-9A-Fa-f]+)"
                         r"\s+.*?\s+(\d+)\s+(-?\d+)\s+\(")
    for line in text.splitlines():
        m = pattern.match(line)
        if m:
            key = ("%s:%s" % (m.group(1), m.group(2)), "%s:%s" % (m.group(3), m.group(4)),
                   int(m.group(5), 16))
            streams[key] = (int(m.group(6)), int(m.group(7)))
    return streams


def compare_with_tshark(report, tshark_text):
    ours = {(s["src"], s["dst"], int(s["ssrc"], 16)): (s["packets"], s["lost"])
            for s in report["streams"]}
    theirs = tshark_streams(tshark_text)
    return ours == theirs, len(ours), len(theirs)


def identical_across_threads(cli, path, thread_counts):
    digests = set()
    for t in thread_counts:
        proc = subprocess.Popen([cli, "report", "--threads", str(t), path], stdout=subprocess.PIPE)
        digest = hashlib.sha256()
        for block in iter(lambda: proc.stdout.read(1 << 20), b""):
            digest.update(block)
        if proc.wait() != 0:
            raise RuntimeError("callscope-cli report %s failed" % path)
        digests.add(digest.hexdigest())
    return len(digests) == 1


# Issue 5's targets: (corpus, threads, what, minimum or maximum, unit scale)
TARGETS = [
    ("A", 1, "packets/s", ">=", 4e6),
    ("A", 2, "packets/s", ">=", 7e6),
    ("B", 1, "packets/s", ">=", 3.5e6),
    ("B", 1, "peak RSS MiB", "<=", 128),
    ("S", 1, "SIP msg/s", ">=", 1e6),
]


def print_targets(results):
    print()
    print("## Targets (issue 5)")
    print()
    print("| corpus | threads | measure | target | measured | |")
    print("|---|---:|---|---:|---:|---|")
    for corpus, threads, what, op, goal in TARGETS:
        if (corpus, threads) not in results:
            continue
        pps, sps, rss = results[(corpus, threads)]
        value = {"packets/s": pps, "SIP msg/s": sps, "peak RSS MiB": rss}[what]
        ok = value >= goal if op == ">=" else value <= goal
        fmt = (lambda v: "%.0f" % v) if what == "peak RSS MiB" else (lambda v: "%.2fM" % (v / 1e6))
        print("| %s | %d | %s | %s %s | %s | %s |"
              % (corpus, threads, what, op, fmt(goal), fmt(value), "met" if ok else "MISSED"))


def print_baseline(baseline, rows):
    print()
    print("## Against %s" % baseline)
    print()
    print("Runs in turn with the baseline; ratios are the median of the per-pair ratios "
          "(this build / baseline).")
    print()
    print("| corpus | threads | wall s | baseline wall s | wall ratio | CPU s | baseline CPU s "
          "| CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, t, wall, bwall, wall_ratio, cpu, bcpu, cpu_ratio in rows:
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |"
              % (name, t, wall, bwall, wall_ratio, cpu, bcpu, cpu_ratio))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build-bench"),
                        help="release build directory (created if missing)")
    parser.add_argument("--corpus-dir", default=None,
                        help="where corpora are written (default BUILD/bench)")
    parser.add_argument("--corpora", default="A,B,S", help="comma-separated: A, B, S, Aconc, Bconc")
    parser.add_argument("--threads", default=None,
                        help="comma-separated thread counts (default 1..number of processors)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per point (median)")
    parser.add_argument("--no-others", action="store_true", help="do not time tshark/sngrep")
    parser.add_argument("--file", action="append", default=[], metavar="NAME=PATH",
                        help="use this capture for corpus NAME instead of generating it "
                             "(e.g. a corpus written by another generator); repeatable")
    parser.add_argument("--others-timeout", type=float, default=300,
                        help="give up on tshark/sngrep after this many seconds (300)")
    parser.add_argument("--baseline-cli", metavar="PATH", default=None,
                        help="also time this callscope-cli (a previous build) in the same run, "
                             "in turn with this one, and print both and their ratio")
    args = parser.parse_args()

    cli, gen = build(args.build)
    corpus_dir = args.corpus_dir or os.path.join(args.build, "bench")
    os.makedirs(corpus_dir, exist_ok=True)
    n_cpu = os.cpu_count() or 1
    threads = ([int(t) for t in args.threads.split(",")] if args.threads
               else list(range(1, n_cpu + 1)))
    tshark = None if args.no_others else shutil.which("tshark")
    sngrep = None if args.no_others else shutil.which("sngrep")

    given = dict(item.split("=", 1) for item in args.file)
    results = {}
    baseline_rows = []
    print("# callscope benchmark — %d processors, load average %.1f, %s"
          % (n_cpu, os.getloadavg()[0], time.strftime("%Y-%m-%d %H:%M")))
    for name in args.corpora.split(","):
        path = given[name] if name in given else generate(gen, corpus_dir, name)
        report = report_json(cli, path)
        same_across = identical_across_threads(cli, path, sorted(set(threads + [1, 2, 4])))
        cap = report["capture"]
        packets, sip = cap["packets"], cap["sip_messages"]
        calls = report["methods"].count("INVITE")
        print()
        print("## Corpus %s: %s" % (name, CORPORA[name][1]))
        print("%d packets, %d SIP messages, %d RTP packets, %d calls, %d streams, %.0f MiB"
              % (packets, sip, cap["rtp_packets"], calls, len(report["streams"]),
                 os.path.getsize(path) / 2**20))
        print()
        print("| tool | threads | wall s | CPU s | packets/s | SIP msg/s | peak RSS MiB | KiB/call |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        best = None
        for t in threads:
            if args.baseline_cli:
                (wall, rss, cpu), (bwall, brss, bcpu), wall_ratio, cpu_ratio = bench_against(
                    cli, args.baseline_cli, path, t, args.runs)
                baseline_rows.append((name, t, wall, bwall, wall_ratio, cpu, bcpu, cpu_ratio))
            else:
                wall, rss, cpu = bench_callscope(cli, path, t, args.runs)
            best = wall if best is None else min(best, wall)
            results[(name, t)] = (packets / wall, sip / wall, rss / 1024)
            print("| callscope | %d | %.3f | %.3f | %.2fM | %.2fM | %.0f | %.1f |"
                  % (t, wall, cpu, packets / wall / 1e6, sip / wall / 1e6, rss / 1024,
                     rss / max(calls, 1)))
            sys.stdout.flush()
        others = []
        if tshark:
            result = timed([tshark, "-r", path, "-q", "-z", "sip,stat", "-z", "rtp,streams"],
                           args.others_timeout)
            others.append(("tshark",) + (result or (None,) * 4))
            if name == "A" and result:
                out = result[2]
                same, n_ours, n_theirs = compare_with_tshark(report, out.decode(errors="replace"))
                check = ("streams (packets, lost) equal tshark's: %s (%d vs %d streams); calls: %d"
                         % ("yes" if same else "NO", n_ours, n_theirs, calls))
            else:
                check = None
        else:
            check = None
        if sngrep:
            result = timed([sngrep, "-I", path, "-N", "-q"], args.others_timeout)
            others.append(("sngrep",) + (result or (None,) * 4))
        for tool, wall, rss, _, cpu in others:
            if wall is None:
                print("| %s | 1 | > %.0f | | | | | |" % (tool, args.others_timeout))
                continue
            print("| %s | 1 | %.3f | %.3f | %.2fM | %.2fM | %.0f | %.1f |"
                  % (tool, wall, cpu, packets / wall / 1e6, sip / wall / 1e6, rss / 1024,
                     rss / max(calls, 1)))
        for tool, wall, _, _, _ in others:
            if wall is None:
                print("\n%s: gave up after %.0f s (callscope is > %.0f× faster)"
                      % (tool, args.others_timeout, args.others_timeout / best))
            else:
                print("\n%s: callscope (best) is %.1f× faster" % (tool, wall / best))
        if tshark and name == "A" and check:
            print("\n" + check)
        print("\nJSON reports identical at %s threads: %s"
              % (", ".join(str(t) for t in sorted(set(threads + [1, 2, 4]))),
                 "yes" if same_across else "NO"))
    print_targets(results)
    if baseline_rows:
        print_baseline(args.baseline_cli, baseline_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
