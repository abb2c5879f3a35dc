#!/usr/bin/env python3
"""Mutation check: applies each one-line mutation of tests/mutants/mutants.txt to a scratch
copy of the tree, rebuilds it and runs the unit and golden suites; a mutant is killed when a
test fails. Prints one line per mutant and the survivors at the end; exits 1 when a mutant
survived or its text no longer matches the code (an error: the list must follow the code).

  run-mutants.py [--scratch DIR] [--list FILE] [--only NAME,NAME…]
  run-mutants.py --check     only that every mutation still matches the code (TAP, fast)

The scratch copy (default /tmp/callscope-mutants) holds the tracked files of the working tree
and one build (-Dgtk=false, release): only the mutated file is recompiled per mutant. Tests
that check the environment rather than the engine never count as killers (ENVIRONMENT)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Tests of the machine, not of the engine's answers (tools installed, linking, root), and the
# list check, which a mutated copy fails by design.
ENVIRONMENT = {"golden-cli-split", "golden-privileges", "golden-live", "hep-listener",
               "live-capture", "bench-determinism", "mutants-list"}
# Run first: they compare whole reports, and kill most mutants within seconds.
FIRST = ["golden-scenarios", "golden-samples-sip", "golden-samples-rtp", "golden-samples-rtcp",
         "findings", "rtp-metrics", "mos", "call-tracker", "loadtest"]


class Mutant:
    def __init__(self, name, about):
        self.name, self.about = name, about
        self.file = self.find = self.replace = self.equivalent = None


def parse_list(path):
    mutants, current = [], None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r"^\[([\w-]+)\]\s*(.*)$", line)
            if m:
                current = Mutant(m.group(1), m.group(2))
                mutants.append(current)
            elif current is None:
                sys.exit(f"{path}:{number}: an entry starts with [name]")
            elif line.startswith("file: "):
                current.file = line[6:].strip()
            elif line.startswith("- "):
                current.find = line[2:]
            elif line.startswith("+ "):
                current.replace = line[2:]
            elif line.startswith("equivalent: "):
                current.equivalent = line[12:].strip()
            else:
                sys.exit(f"{path}:{number}: cannot read '{line}'")
    names = [m.name for m in mutants]
    for m in mutants:
        if None in (m.file, m.find, m.replace):
            sys.exit(f"{path}: [{m.name}] needs file:, - and + lines")
        if names.count(m.name) > 1:
            sys.exit(f"{path}: [{m.name}] is listed twice")
    return mutants


def pattern_errors(mutants, tree):
    """What does not match: each mutation's text must occur exactly once in its file."""
    errors = []
    for m in mutants:
        path = os.path.join(tree, m.file)
        text = open(path, encoding="utf-8").read() if os.path.isfile(path) else None
        count = text.count(m.find) if text is not None else 0
        if text is None:
            errors.append(f"[{m.name}] {m.file}: no such file")
        elif count != 1:
            errors.append(f"[{m.name}] {m.file}: the text occurs {count} times, not once: "
                          f"{m.find.strip()}")
        elif m.find == m.replace:
            errors.append(f"[{m.name}] changes nothing")
    return errors


def run(argv, cwd, log, timeout=None):
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ " + " ".join(argv) + "\n")
        out.flush()
        try:
            return subprocess.run(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write("timed out\n")
            return 124


def copy_tree(scratch):
    """The tracked (and new, not ignored) files of the working tree, into scratch/src."""
    src = os.path.join(scratch, "src")
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           stdout=subprocess.PIPE, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        from_path, to_path = os.path.join(ROOT, rel), os.path.join(src, rel)
        if not os.path.isfile(from_path):
            continue
        os.makedirs(os.path.dirname(to_path), exist_ok=True)
        if not os.path.exists(to_path) or open(from_path, "rb").read() != open(to_path, "rb").read():
            shutil.copy2(from_path, to_path)
    # the tests read the samples from ../shared/samples relative to the repository
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    link = os.path.join(scratch, "shared")
    if os.path.isdir(shared) and not os.path.exists(link):
        os.symlink(shared, link)
    return src


def test_names(build):
    out = subprocess.run(["meson", "test", "-C", build, "--list", "--suite", "unit", "--suite",
                          "golden"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    names = [l.split(" / ")[-1].strip() for l in out.splitlines() if " / " in l]
    return [n for n in names if n not in ENVIRONMENT]


def run_tests(build, names, log):
    """Name of the first failing test, or None when all pass."""
    first = [n for n in FIRST if n in names]
    rest = [n for n in names if n not in first]
    env = dict(os.environ, LC_ALL="C.UTF-8", GSETTINGS_BACKEND="memory")
    for group in (first, rest):
        if not group:
            continue
        argv = ["meson", "test", "-C", build, "--no-rebuild", "--maxfail", "1",
                "--num-processes", "2", "--logbase", "mutant"] + group
        with open(log, "a", encoding="utf-8") as out:
            out.write("$ " + " ".join(argv) + "\n")
            out.flush()
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env=env, timeout=1800)
            out.write(proc.stdout)
        if proc.returncode != 0:
            failed = re.findall(r"^\s*\d+/\d+ \S+:\S+ / (\S+)\s+(?:FAIL|TIMEOUT|ERROR)", proc.stdout,
                                re.M)
            return failed[0] if failed else "a test (see the log)"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scratch", default="/tmp/callscope-mutants")
    ap.add_argument("--list", default=os.path.join(ROOT, "tests", "mutants", "mutants.txt"))
    ap.add_argument("--only", default="", help="comma-separated mutant names")
    ap.add_argument("--check", action="store_true", help="only check the list against the code")
    args = ap.parse_args()

    mutants = parse_list(args.list)
    if args.check:
        errors = pattern_errors(mutants, ROOT)
        print(f"1..{len(mutants)}")
        for i, m in enumerate(mutants, 1):
            bad = [e for e in errors if e.startswith(f"[{m.name}]")]
            print(f"{'not ok' if bad else 'ok'} {i} {m.name}" + (f" # {bad[0]}" if bad else ""))
        sys.exit(0)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m.name for m in mutants}
        if unknown:
            sys.exit("unknown mutants: " + ", ".join(sorted(unknown)))
        mutants = [m for m in mutants if m.name in wanted]
    os.makedirs(args.scratch, exist_ok=True)
    log = os.path.join(args.scratch, "mutants.log")
    open(log, "w").close()
    src = copy_tree(args.scratch)
    build = os.path.join(args.scratch, "build")
    started = time.monotonic()

    # every pattern must match the code as it is, before anything is built
    errors = pattern_errors(mutants, src)
    for e in errors:
        print("ERROR " + e, flush=True)

    if not os.path.exists(os.path.join(build, "build.ninja")):
        if run(["meson", "setup", build, "-Dgtk=false", "-Dbuildtype=release"], src, log):
            sys.exit(f"meson setup failed (see {log})")
    if run(["ninja", "-C", build, "-j2"], src, log):
        sys.exit(f"the unmutated tree does not build (see {log})")
    names = test_names(build)
    failing = run_tests(build, names, log)
    if failing:
        sys.exit(f"the unmutated tree fails {failing}: fix that first (see {log})")
    print(f"baseline: {len(names)} tests pass ({time.monotonic() - started:.0f} s)", flush=True)

    killed, survived, equivalent = [], [], []
    for m in mutants:
        if any(e.startswith(f"[{m.name}]") for e in errors):
            continue
        path = os.path.join(src, m.file)
        original = open(path, encoding="utf-8").read()
        t0 = time.monotonic()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(m.find, m.replace, 1))
            if run(["ninja", "-C", build, "-j2"], src, log):
                errors.append(f"[{m.name}] does not compile")
                print(f"ERROR [{m.name}] does not compile", flush=True)
                continue
            killer = run_tests(build, names, log)
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            # the restored file must look new to ninja even within the same second
            os.utime(path, None)
        took = time.monotonic() - t0
        if killer:
            killed.append(m)
            print(f"killed   [{m.name}] by {killer} ({took:.0f} s)", flush=True)
        elif m.equivalent:
            equivalent.append(m)
            print(f"equivalent [{m.name}] {m.equivalent} ({took:.0f} s)", flush=True)
        else:
            survived.append(m)
            print(f"SURVIVED [{m.name}] {m.about} ({took:.0f} s)", flush=True)
    run(["ninja", "-C", build, "-j2"], src, log)  # back to the unmutated build

    print(f"{len(killed)} killed, {len(survived)} survived, {len(equivalent)} equivalent, "
          f"{len(errors)} errors, {time.monotonic() - started:.0f} s")
    for m in survived:
        print(f"survivor: [{m.name}] {m.file}: {m.about}")
    sys.exit(1 if survived or errors else 0)


if __name__ == "__main__":
    main()
