#!/usr/bin/env python3
"""Prints 'N passed, N failed, N skipped' from one or more meson testlog.json files
(summed: .ci/run gives the normal and the sanitizer build), counting TAP subtests.
Every skip is listed first with the reason its test gave ("no reason given" when it
gave none, which is a bug of that test). A log that is missing counts as one failure."""
import json
import re
import sys


def skip_reasons(test, stdout):
    """(name, reason) of each skip in one meson test's output."""
    name = test.get("name", "?")
    found = [(f"{name} {m.group(1).strip()}".strip(), m.group(2).strip())
             for m in re.finditer(r"^ok \d+([^#\n]*)# SKIP ?(.*)$", stdout, re.M)]
    whole = re.search(r"^1\.\.0 # SKIP ?(.*)$", stdout, re.M)
    if whole:
        found.append((name, whole.group(1).strip()))
    if not found and test.get("result") == "SKIP":
        lines = [l for l in stdout.splitlines() + (test.get("stderr") or "").splitlines()
                 if l.strip()]
        found.append((name, lines[-1].strip() if lines else ""))
    return [(n, r or "no reason given") for n, r in found]


def count(log_path, reasons):
    passed = failed = skipped = 0
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            test = json.loads(line)
            result = test.get("result")
            stdout = test.get("stdout") or ""
            oks = len(re.findall(r"^ok \d+(?! .*# SKIP)", stdout, re.M))
            skips = len(re.findall(r"^ok \d+.*# SKIP", stdout, re.M))
            noks = len(re.findall(r"^not ok \d+(?! .*# TODO)", stdout, re.M))
            whole_skip = re.search(r"^1\.\.0 # SKIP", stdout, re.M)
            if skips or whole_skip or result == "SKIP":
                reasons.extend(skip_reasons(test, stdout))
            if result in ("OK", "EXPECTEDFAIL") and (oks or skips):
                passed += oks
                skipped += skips
            elif result == "SKIP" or whole_skip:
                skipped += max(1, skips)
            elif result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            else:
                passed += oks
                skipped += skips
                failed += max(1, noks)
    return passed, failed, skipped


if __name__ == "__main__":
    total = [0, 0, 0]
    reasons = []
    for path in sys.argv[1:]:
        try:
            counts = count(path, reasons)
        except OSError as e:
            print(f"no test log: {e}")
            counts = (0, 1, 0)
        total = [t + c for t, c in zip(total, counts)]
    if len(sys.argv) < 2:
        total[1] += 1
    for name, why in reasons:
        print(f"skipped: {name}: {why}")
    p, f, s = total
    print(f"{p} passed, {f} failed, {s} skipped")
    sys.exit(1 if f else 0)
