#!/usr/bin/env python3
"""Hostile SIP against the reader of callscope's outputs (TAP), on the generator's
hostile-text scenario (tests/gen/gen-scenarios-hostile.c: formulas as user names, markup in a
reason phrase and a Subject, an SVG breakout as Call-ID, terminal escapes, a bidi override,
an 8 KB header):
 - CSV (calls, streams, findings, report, loadtest): no cell a spreadsheet runs as a formula
   (OWASP: = + - @ tab CR first) unless it is a number; the formula users read as text
   ('=1+2*cmd); negative numbers stay numbers;
 - text outputs (tables, report, ladder, load test): no control character, no bidi override,
   the escape shown as text (\\x1B[2J);
 - HTML: well-formed XML (xmllint), no element or attribute the capture injected, the hostile
   strings present as text;
 - export -o FOLDER/: the name made from the Call-ID stays in the folder;
 - SVG ladder: well-formed, nothing injected; PDF: the strings present as text (pdftotext),
   no JavaScript, launch or URI action.
"""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_GEN")
SCRIPT = "<script>alert('x')</script>"
SVG = '"><svg/onload=alert(1)>'
FORMULAS = ["=1+2*cmd", "+4930123456", "-2+3"]

results = []


def check(name, ok, notes=()):
    results.append((name, ok, list(notes)))


def run(args):
    return subprocess.run(args, capture_output=True)


def cli(*args):
    r = run([CLI] + list(args))
    return r.stdout


def is_number(cell):
    try:
        float(cell)
        return True
    except ValueError:
        return False


def csv_checks(capture, dup_reorder):
    outputs = {f"{cmd} csv": cli(cmd, "--format", "csv", capture)
               for cmd in ("calls", "streams", "findings")}
    outputs["report csv"] = cli("report", "--format", "csv", capture)
    outputs["loadtest csv"] = cli("loadtest", "--format", "csv", capture)
    cells = []
    for name, data in outputs.items():
        rows = list(csv.reader(io.StringIO(data.decode("utf-8", "replace"))))
        bad = [c for row in rows for c in row
               if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not is_number(c)]
        check(f"{name}: no cell runs as a formula", bool(rows) and not bad, bad[:5])
        cells += [c for row in rows for c in row]
    missing = [f for f in FORMULAS if "'" + f not in cells]
    check("formula users read as text ('=…)", not missing, missing)
    streams = list(csv.DictReader(io.StringIO(cli("streams", "--format", "csv",
                                                  dup_reorder).decode())))
    negative = [s["lost"] for s in streams if s["lost"].startswith("-")]
    check("negative numbers stay numbers", bool(negative) and all(
        re.fullmatch(r"-\d+", n) for n in negative), negative)


def text_checks(capture, tmp):
    ladder = os.path.join(tmp, "ladder.txt")
    run([CLI, "ladder", capture, "--call", "2", "-o", ladder])
    outputs = {
        "calls": cli("calls", capture), "findings": cli("findings", capture),
        "streams": cli("streams", capture), "report text": cli("report", "--format", "text",
                                                               capture),
        "loadtest": cli("loadtest", capture), "ladder": open(ladder, "rb").read(),
    }
    for name, data in outputs.items():
        text = data.decode("utf-8", "replace")
        controls = sorted({f"{ord(ch):#x}" for ch in text
                           if (ord(ch) < 0x20 and ch not in "\n") or 0x7f <= ord(ch) <= 0x9f
                           or 0x202a <= ord(ch) <= 0x202e or 0x2066 <= ord(ch) <= 0x2069})
        check(f"{name}: no control or bidi character", bool(text) and not controls, controls)
    shown = outputs["findings"].decode() + outputs["ladder"].decode()
    check("escapes shown as text", "\\x1B[2J" in shown and "\\u{202E}" in shown)


def xpath(path, expr, html=False):
    args = ["xmllint", "--xpath", expr, path]
    return run(args).stdout.decode().strip()


def markup_checks(capture, tmp):
    html = os.path.join(tmp, "report.html")
    run([CLI, "report", "--format", "html", capture, "-o", html])
    wellformed = run(["xmllint", "--noout", html])
    check("HTML is well-formed XML", wellformed.returncode == 0,
          wellformed.stderr.decode().splitlines()[:3])
    injected = xpath(html, "count(//*[local-name()='script'] | //@*[starts-with(name(),'on')]"
                           " | //*[local-name()='svg'][@onload])")
    check("HTML: no injected element or attribute", injected == "0", [injected])
    body = xpath(html, "string(/*)")
    check("HTML: the hostile strings are there, as text", SCRIPT in body and SVG in body
          and "\\x1B[2J" in body, [])
    svg = os.path.join(tmp, "ladder.svg")
    run([CLI, "ladder", capture, "--call", "2", "-o", svg])
    ok = run(["xmllint", "--noout", svg]).returncode == 0
    injected = xpath(svg, "count(//*[local-name()='script'] | //@*[starts-with(name(),'on')]"
                          " | //*[local-name()='foreignObject'])") if ok else "?"
    check("SVG ladder: well-formed, nothing injected", ok and injected == "0", [injected])
    pdf = os.path.join(tmp, "report.pdf")
    run([CLI, "report", "--format", "pdf", capture, "-o", pdf])
    raw = open(pdf, "rb").read() if os.path.exists(pdf) else b""
    actions = re.findall(rb"/(JavaScript|JS|Launch|OpenAction|URI|SubmitForm)\b", raw)
    check("PDF: no JavaScript, launch or URI action", bool(raw) and not actions,
          [a.decode() for a in actions[:3]])
    text = run(["pdftotext", pdf, "-"]).stdout.decode("utf-8", "replace")
    flat = re.sub(r"\s+", "", text)
    check("PDF: the hostile strings are there, as text",
          re.sub(r"\s+", "", SCRIPT) in flat and "\\x1B[2J" in flat, [])


def name_checks(capture, tmp):
    """export -o FOLDER/ names the file from the Call-ID ("\"><svg/onload=…"): it stays in
    the folder, is no dot file and holds no separator or control character."""
    folder = os.path.join(tmp, "names") + os.sep
    os.makedirs(folder)
    r = run([CLI, "export", capture, "--call", "2", "-o", folder])
    made = os.listdir(folder)
    escaped = [n for n in os.listdir(tmp) if n.endswith(".pcapng") and "svg" in n]
    bad = [n for n in made if n.startswith((".", "-")) or re.search(r"[/\\\x00-\x1f\x7f]", n)]
    check("a default name from a hostile Call-ID stays safe", r.returncode == 0 and len(made) == 1
          and not bad and not escaped and made[0].startswith("call-2-"), made + bad)


def main():
    if CLI is None or GEN is None:
        print("1..0 # SKIP CS_CLI or CS_GEN not set")
        return 0
    if run(["which", "xmllint"]).returncode != 0 or run(["which", "pdftotext"]).returncode != 0:
        print("1..0 # SKIP needs xmllint (libxml2-utils) and pdftotext (poppler-utils)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        capture = os.path.join(tmp, "hostile.pcapng")
        dup = os.path.join(tmp, "dup.pcapng")
        subprocess.run([GEN, "scenario", "hostile-text", "-o", capture], check=True)
        subprocess.run([GEN, "scenario", "rtp-dup-reorder", "-o", dup], check=True)
        csv_checks(capture, dup)
        text_checks(capture, tmp)
        markup_checks(capture, tmp)
        name_checks(capture, tmp)
    print(f"1..{len(results)}")
    for i, (name, ok, notes) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}")
        for n in notes:
            print(f"# {n}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
