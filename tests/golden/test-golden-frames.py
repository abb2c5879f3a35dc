#!/usr/bin/env python3
"""`callscope-cli frames` scopes (TAP).

- `--stream ID`: its RTP rows are exactly the frames tshark (RTP heuristic on) shows with the
  stream's SSRC, addresses and ports;
- `--call N` of a one-call scenario: as many frames as the generator's truth has SIP messages
  and RTP packets (expect.json), every one SIP or RTP;
- `--finding N`: exactly the frames `findings --format json` gives that finding, in order;
- JSON rows carry number, time, source, destination, protocol, length and info, and the
  Time column is capture-relative: tshark's frame.time_relative to the microsecond.
"""
import json
import os
import subprocess
import sys
import tempfile

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_GEN")
SAMPLES = os.environ.get("CS_SAMPLES_DIR")
ONE_CALL = ["clean", "loss-jitter", "dtmf", "one-way", "seq-wrap"]
OTHER = ["rtp-dup-reorder", "ipv6", "vlan"]
SAMPLE_FILES = ["sip-rtp-g711.pcap", "sip-over-tcp.pcap", "SIP_CALL_RTP_G711",
                "rtp-protocol.pcap", "sip-rtp-g726-8calls.pcap"]
KEYS = {"number", "time", "source", "destination", "protocol", "length", "info"}


def run(args):
    return subprocess.run(args, capture_output=True, text=True, errors="replace")


def cli_json(*args):
    out = run([CLI, *args, "-q", "--format", "json"])
    if out.returncode not in (0, 3):
        raise RuntimeError(f"{' '.join(args)}: {out.stderr.strip()[:300]}")
    return json.loads(out.stdout)


def tshark_numbers(path, display_filter):
    out = run(["tshark", "-r", path, "-o", "rtp.heuristic_rtp:TRUE", "-Y", display_filter,
               "-T", "fields", "-e", "frame.number"])
    return [int(x) for x in out.stdout.split()]


def endpoint(text):
    host, port = text.rsplit(":", 1)
    return host.strip("[]"), port


def check_streams(path):
    problems = []
    for s in cli_json("streams", path)["streams"]:
        rows = cli_json("frames", path, "--stream", str(s["id"]))
        ours = [r["number"] for r in rows if r["protocol"] in ("RTP", "RTP EVENT")]
        (sa, sp), (da, dp) = endpoint(s["src"]), endpoint(s["dst"])
        ip = "ipv6" if ":" in sa else "ip"
        theirs = tshark_numbers(path, f"rtp.ssrc=={s['ssrc']} && {ip}.src=={sa} && "
                                      f"udp.srcport=={sp} && {ip}.dst=={da} && udp.dstport=={dp}")
        if ours != theirs:
            missing = sorted(set(theirs) - set(ours))[:10]
            extra = sorted(set(ours) - set(theirs))[:10]
            problems.append(f"stream {s['id']}: {len(ours)} RTP rows, tshark {len(theirs)} "
                            f"(missing {missing}, extra {extra})")
    return problems


def check_findings(path):
    problems = []
    for i, f in enumerate(cli_json("findings", path)["findings"], 1):
        rows = cli_json("frames", path, "--finding", str(i))
        if [r["number"] for r in rows] != sorted(set(f["frames"])):
            problems.append(f"finding {i} ({f['kind']}): rows {[r['number'] for r in rows][:10]}, "
                            f"frames {f['frames'][:10]}")
    return problems


def check_rows(path):
    rows = cli_json("frames", path)
    out = run(["tshark", "-r", path, "-T", "fields", "-e", "frame.number", "-e",
               "frame.time_relative", "-e", "frame.len"])
    reference = {}
    for line in out.stdout.split("\n"):
        cols = line.split("\t")
        if len(cols) == 3:
            reference[int(cols[0])] = (float(cols[1]), int(cols[2]))
    problems = []
    if len(rows) != len(reference):
        problems.append(f"{len(rows)} rows, tshark {len(reference)} frames")
    for r in rows:
        if set(r) != KEYS:
            problems.append(f"row {r.get('number')}: keys {sorted(r)}")
            break
        t, length = reference.get(r["number"], (None, None))
        if t is None or abs(r["time"] - t) > 1e-6 or r["length"] != length:
            problems.append(f"row {r['number']}: time {r['time']} length {r['length']}, "
                            f"tshark {t} {length}")
            break
    return problems


def check_call(path, expect_path):
    with open(expect_path) as f:
        truth = json.load(f)
    rows = cli_json("frames", path, "--call", "1")
    want = truth["sip_messages"] + sum(s["packets"] for s in truth["streams"])
    problems = []
    if len(rows) != want:
        problems.append(f"--call 1: {len(rows)} rows, truth {want} (SIP messages and RTP packets)")
    kinds = {r["protocol"] for r in rows}
    if not kinds <= {"SIP", "SIP/SDP", "RTP", "RTP EVENT"}:
        problems.append(f"--call 1 protocols {sorted(kinds)}")
    return problems


def main():
    if not CLI:
        print("1..0 # SKIP CS_CLI not set")
        return 0
    if run(["tshark", "-v"]).returncode != 0:
        print("1..0 # SKIP tshark is not installed (scripts/install-deps.sh installs it)")
        return 0
    items = []
    with tempfile.TemporaryDirectory() as tmp:
        if GEN:
            for name in ONE_CALL + OTHER:
                path = os.path.join(tmp, name + ".pcapng")
                expect = os.path.join(tmp, name + ".json")
                ok = run([GEN, "scenario", name, "-o", path, "--expect", expect]).returncode == 0
                items.append((f"scenario {name}", path if ok else None,
                              expect if name in ONE_CALL else None))
        if SAMPLES and os.path.isdir(SAMPLES):
            for name in SAMPLE_FILES:
                path = os.path.join(SAMPLES, name)
                if os.path.exists(path):
                    items.append((f"sample {name}", path, None))
        if not items:
            print("1..0 # SKIP neither CS_GEN nor ../shared/samples")
            return 0
        print(f"1..{len(items)}")
        failed = 0
        for i, (label, path, expect) in enumerate(items, 1):
            if path is None:
                print(f"not ok {i} {label}: the generator failed")
                failed += 1
                continue
            try:
                problems = check_rows(path) + check_streams(path) + check_findings(path)
                if expect:
                    problems += check_call(path, expect)
            except (RuntimeError, ValueError) as e:
                problems = [str(e)]
            print(f"{'ok' if not problems else 'not ok'} {i} {label}")
            for p in problems[:20]:
                print(f"# {p}")
            failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
