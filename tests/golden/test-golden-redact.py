#!/usr/bin/env python3
"""Redacted exports of the generator's scenarios and of ../shared/samples (TAP).

For every capture, `callscope-cli export --redact` of every call must
 - reconstruct the same calls, streams and findings as the original (callscope's report:
   states, codes, timings, counts, loss, jitter, MOS, finding kinds), and the same SIP
   counts and RTP streams in tshark's own analysis as the plain (unredacted) export;
 - leave none of the source capture's sensitive values anywhere in its bytes: the values
   are taken from the source by tshark (addresses, users and numbers, display names, tags,
   Call-ID hosts, host names, digest parameters, SDP keys, RTCP SDES text); text forms are
   searched in every byte of the file, binary addresses in every UDP and TCP payload (HEP
   carries them there), and every IP header tshark decodes (tunnels' too) must hold a
   documentation-range address (or loopback, multicast, unspecified). Binary forms are not
   searched in pcapng's block lengths and padding or in TCP/UDP headers: there a pattern
   such as 0a 00 00 01 (10.0.0.1) is a length, a checksum byte before a zero urgent
   pointer and a NOP, i.e. chance;
 - and, by default, carry no voice: G.711 payloads are the codec's silence;
 - and `report --redact` (JSON, CSV) holds none of those values either.
"""
import ipaddress
import json
import os
import re
import subprocess
import sys
import tempfile

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_GEN")
SAMPLES = os.environ.get("CS_SAMPLES_DIR")

FIELDS = {
    "addr": ["ip.src", "ip.dst", "ipv6.src", "ipv6.dst", "sip.Via.sent-by.address",
             "sip.Via.received", "sip.Via.maddr", "sdp.owner.address",
             "sdp.connection_info.address", "sdp.ice_candidate.address", "sip.icid_gen_addr"],
    "host": ["sip.from.host", "sip.to.host", "sip.r-uri.host", "sip.contact.host",
             "sip.Route.host", "sip.Record-Route.host", "sip.Path.host", "sip.Service-Route.host",
             "sip.pai.host", "sip.ppi.host", "sip.Via.sent-by.address", "sip.auth.realm"],
    "user": ["sip.from.user", "sip.to.user", "sip.r-uri.user", "sip.contact.user", "sip.Route.user",
             "sip.Record-Route.user", "sip.Path.user", "sip.Service-Route.user", "sip.pai.user",
             "sip.ppi.user", "sip.auth.username", "sdp.owner.username"],
    "display": ["sip.from.display.info", "sip.to.display.info", "sip.contact.display.info",
                "sip.pai.display.info", "sip.ppi.display.info"],
    "tag": ["sip.from.tag", "sip.to.tag"],
    "callid": ["sip.Call-ID"],
    "secret": ["sip.auth.nonce", "sip.auth.digest.response", "sip.auth.cnonce",
               "sdp.crypto.master_key", "sdp.encryption_key.data", "sdp.key_mgmt.data",
               "rtcp.sdes.text"],
}
# RFC 2606/6761 names name nobody and are kept.
RESERVED = (".example", ".invalid", ".test", ".localhost", "example.com", "example.net",
            "example.org")
# A display name spelled like an rtpmap encoding ("PCMU/8000", as SIPp writes) is not searched
# for: the same text names the codec in the SDP.
CODEC_LIKE = re.compile(r"^[A-Za-z0-9-]+/[0-9]+(/[0-9]+)?$")
DOC_RANGES = [ipaddress.ip_network(n) for n in
              ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32")]


def run(args):
    return subprocess.run(args, capture_output=True, text=True, errors="replace")


def tshark_fields(path, fields):
    args = ["tshark", "-r", path, "-T", "fields", "-E", "separator=\t", "-E", "aggregator=\x01",
            "-E", "occurrence=a"]
    for f in fields:
        args += ["-e", f]
    values = [set() for _ in fields]
    for line in run(args).stdout.split("\n"):
        for i, col in enumerate(line.split("\t")[:len(fields)]):
            values[i].update(v for v in col.split("\x01") if v)
    return values


def as_ip(text):
    try:
        return ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None


def kept(a):
    return a.is_loopback or a.is_multicast or a.is_unspecified or str(a) == "255.255.255.255"


def sensitive(path):
    kinds = [k for k in FIELDS for _ in FIELDS[k]]
    flat = [f for k in FIELDS for f in FIELDS[k]]
    out = {}
    for kind, vals in zip(kinds, tshark_fields(path, flat)):
        for v in vals:
            v = v.strip().strip('"').strip()
            k = kind
            if kind == "callid":
                if "@" not in v:
                    continue
                v = v.split("@", 1)[1]
                k = "host"
            a = as_ip(v) if k in ("addr", "host") else None
            if a is not None:
                if not kept(a):
                    out.setdefault("addr", set()).add(a)
                continue
            if k == "addr":
                continue
            if k == "host" and (v.lower().endswith(RESERVED) or v.lower() == "localhost"):
                continue
            if k == "display" and CODEC_LIKE.match(v):
                continue
            if k == "user" and v.startswith("+"):
                v = v[1:]
            # shorter values ("1", "bob") are replaced too, but as bytes they would match
            # by chance anywhere
            if len(v) < 4:
                continue
            out.setdefault(k, set()).add(v)
    return out


def redacted_facts(redacted):
    """One tshark pass over the redacted file: IP header addresses, transport payloads,
    G.711 payloads (PT 0, 8), and tshark's SIP and RTP statistics."""
    out = run(["tshark", "-r", redacted, "-o", "rtp.heuristic_rtp:TRUE", "-T", "fields",
               "-E", "separator=\t", "-E", "aggregator=,", "-e", "ip.src", "-e", "ip.dst",
               "-e", "ipv6.src", "-e", "ipv6.dst", "-e", "udp.payload", "-e", "tcp.payload",
               "-e", "rtp.p_type", "-e", "rtp.payload", "-z", "sip,stat", "-z", "rtp,streams"]
              ).stdout
    addresses, payloads, loud = set(), [], 0
    for line in out.split("\n"):
        cols = line.split("\t")
        if len(cols) != 8:
            continue
        for col in cols[:4]:
            addresses.update(v for v in col.split(",") if v)
        # a tunnelled frame has several UDP payloads, joined by the aggregator
        payloads += [bytes.fromhex(v.replace(":", "")) for c in cols[4:6] for v in c.split(",")
                     if v]
        pt, voice = cols[6].split(",")[-1], cols[7].replace(":", "").lower()
        silence = {"0": "ff", "8": "d5"}.get(pt)
        if silence is not None and voice and voice != silence * (len(voice) // 2):
            loud += 1
    return addresses, payloads, loud, stats_of(out)


def leaks(redacted, values, payloads):
    data = open(redacted, "rb").read()
    found = []
    for kind, vals in values.items():
        for v in vals:
            if kind == "addr":
                if any(v.packed in p for p in payloads):
                    found.append(f"{v} (binary, in a payload)")
                pat = re.escape(str(v).encode())
                if re.search(rb"(?<![0-9A-Za-z.:])" + pat + rb"(?![0-9A-Za-z])", data, re.I):
                    found.append(f"{v} (text)")
            else:
                pat = re.escape(v.encode())
                if re.search(rb"(?<![0-9A-Za-z_-])" + pat + rb"(?![0-9A-Za-z_-])", data):
                    found.append(f"{kind} {v!r}")
    return found


def foreign(addresses):
    bad = set()
    for v in addresses:
        a = as_ip(v)
        if a is not None and not kept(a) and not any(a in n for n in DOC_RANGES):
            bad.add(str(a))
    return bad


def report(path):
    out = run([CLI, "report", path]).stdout
    return json.loads(out) if out else None


CALL_KEYS = ["state", "final_status", "pdd_ms", "setup_ms", "duration_s", "messages",
             "retransmissions", "mos"]
STREAM_KEYS = ["packets", "expected", "lost", "sequence_errors", "min_delta_ms", "mean_delta_ms",
               "max_delta_ms", "min_jitter_ms", "mean_jitter_ms", "max_jitter_ms", "r_factor",
               "mos", "codec", "payload_type", "clock_rate", "associated"]


def same_analysis(a, b):
    diffs = []
    if len(a["calls"]) != len(b["calls"]):
        return [f"{len(a['calls'])} calls, redacted {len(b['calls'])}"]
    for x, y in zip(a["calls"], b["calls"]):
        diffs += [f"call {x['id']} {k}: {x.get(k)} → {y.get(k)}" for k in CALL_KEYS
                  if x.get(k) != y.get(k)]
        if len(x["streams"]) != len(y["streams"]):
            diffs.append(f"call {x['id']} streams {x['streams']} → {y['streams']}")
    sa = [s for s in a["streams"] if s.get("call")]
    sb = [s for s in b["streams"] if s.get("call")]
    if len(sa) != len(sb):
        diffs.append(f"{len(sa)} call streams, redacted {len(sb)}")
    for x, y in zip(sa, sb):
        diffs += [f"stream {x['id']} {k}: {x.get(k)} → {y.get(k)}" for k in STREAM_KEYS
                  if x.get(k) != y.get(k)]
    # The redactor rewrites SDES keys (a=crypto inline:) like any other secret, so an SRTP
    # stream the original opened cannot be opened in the redacted file: the voice stays
    # ciphertext there. That stream must say so (key-failed, and its auth-failure finding;
    # what only its decrypted packets told, the key's lifetime, is gone); nothing else may
    # change.
    opened, reopened = set(), set()
    for x, y in zip(sa, sb):
        if x.get("protection") == "decrypted":
            if y.get("protection") != "key-failed":
                diffs.append(f"stream {x['id']} decrypted with the SDP key, redacted "
                             f"{y.get('protection')} (the key must not survive redaction)")
            opened.add(x["id"])
            reopened.add(y["id"])
    fa = sorted((f["kind"], f["severity"]) for f in a["findings"] if f.get("call")
                and not (f["kind"] == "srtp-key-lifetime" and f.get("stream") in opened))
    fb = sorted((f["kind"], f["severity"]) for f in b["findings"] if f.get("call")
                and not (f["kind"] == "srtp-auth-failed" and f.get("stream") in reopened))
    if fa != fb:
        diffs.append(f"findings {fa} → {fb}")
    return diffs


def stats_of(out):
    """tshark's SIP counts and RTP stream lines, without the time and address columns."""
    sip, rtp = [], []
    for line in out.split("\n"):
        if "\t" in line:
            continue
        if "Packets" in line or "Number of" in line or "setup time" in line:
            sip.append(line.strip())
        fields = line.split()
        if len(fields) > 8 and re.match(r"^0x[0-9A-Fa-f]{8}$", fields[6]):
            rtp.append(" ".join(fields[6:]))
    return sorted(sip), sorted(rtp)


def tshark_stats(path):
    return stats_of(run(["tshark", "-r", path, "-q", "-o", "rtp.heuristic_rtp:TRUE", "-z",
                         "sip,stat", "-z", "rtp,streams"]).stdout)


def captures(tmp):
    found = []
    if GEN:
        scen = os.path.join(tmp, "scenarios")
        subprocess.run([GEN, "all", "-d", scen], check=True, capture_output=True)
        found += [os.path.join(scen, n) for n in sorted(os.listdir(scen))
                  if n.endswith((".pcap", ".pcapng"))]
    if SAMPLES and os.path.isdir(SAMPLES):
        found += [os.path.join(SAMPLES, n) for n in sorted(os.listdir(SAMPLES))
                  if os.path.isfile(os.path.join(SAMPLES, n)) and not n.endswith(".md")]
    return found


def no_call_to_export(path, red):
    """A capture without a SIP call or exchange: export (redacted or not) says so, exit 2,
    and writes nothing; report --redact still works (nothing to hide in it either)."""
    problems = []
    for extra in (["--redact"], []):
        r = run([CLI, "export", path] + extra + ["-o", red])
        want = f"no call to export: {path} holds no SIP call or exchange"
        if r.returncode != 2 or want not in r.stderr:
            problems.append(f"export {' '.join(extra)}: exit {r.returncode}, {r.stderr.strip()!r}"
                            f" (want exit 2 and {want!r})")
        if os.path.exists(red):
            problems.append(f"export {' '.join(extra)} wrote {red} anyway")
            os.unlink(red)
    r = run([CLI, "report", path, "--redact", "--format", "json"])
    if r.returncode not in (0, 3) or json.loads(r.stdout)["calls"]:
        problems.append(f"report --redact: exit {r.returncode}")
    return not problems, problems or ["no call: export says so (exit 2), writes nothing"]


def check(path, tmp):
    name = os.path.basename(path)
    red = os.path.join(tmp, name + ".redacted.pcapng")
    plain = os.path.join(tmp, name + ".plain.pcapng")
    original = report(path)
    if original is None:
        return False, ["the capture does not read"]
    if not original["calls"]:
        return no_call_to_export(path, red)
    r = run([CLI, "export", path, "--redact", "-o", red])
    if r.returncode not in (0, 3):
        return False, [f"export --redact exit {r.returncode}: {r.stderr.strip()}"]
    run([CLI, "export", path, "-o", plain])
    problems = []
    redacted = report(red)
    problems += same_analysis(original, redacted) if redacted else ["redacted file unreadable"]
    addresses, payloads, loud, stats = redacted_facts(red)
    if tshark_stats(plain) != stats:
        problems.append(f"tshark's analysis differs: {tshark_stats(plain)} → {stats}")
    values = sensitive(path)
    problems += [f"left: {x}" for x in leaks(red, values, payloads)]
    # a redacted report is made from the redacted capture: it names nothing either
    for fmt in ("json", "csv"):
        out = os.path.join(tmp, f"{name}.redacted.{fmt}")
        run([CLI, "report", path, "--redact", "--format", fmt, "-o", out])
        if not os.path.exists(out) or os.path.getsize(out) == 0:
            problems.append(f"report --redact --format {fmt} wrote nothing")
        else:
            problems += [f"left in the {fmt} report: {x}" for x in leaks(out, values, [])]
    problems += [f"address outside the documentation ranges: {a}" for a in foreign(addresses)]
    if loud:
        problems.append(f"{loud} G.711 packets still carry sound")
    return not problems, problems or [f"{sum(len(v) for v in values.values())} values searched"]


def voice_modes(tmp):
    """--rtp-payload: keep leaves the voice as it was, drop cuts every G.711 frame right after
    its RTP header (14 + 20 + 8 + 12 bytes on Ethernet), and both analyse the same."""
    src = next((c for c in captures_cache if c.endswith("clean.pcapng")), None)
    if src is None:
        return None, ["no clean scenario"]
    problems = []
    original = report(src)
    plain = os.path.join(tmp, "voice-plain.pcapng")
    run([CLI, "export", src, "-o", plain])
    for mode in ("keep", "drop"):
        out = os.path.join(tmp, f"voice-{mode}.pcapng")
        r = run([CLI, "export", src, "--redact", "--rtp-payload", mode, "-o", out])
        if r.returncode != 0:
            problems.append(f"{mode}: exit {r.returncode}")
            continue
        problems += [f"{mode}: {d}" for d in same_analysis(original, report(out))]
        fields = ["-T", "fields", "-e", "rtp.payload", "-e", "frame.cap_len", "-e", "frame.len",
                  "-Y", "rtp.p_type == 0"]
        got = [line.split("\t") for line in run(["tshark", "-r", out] + fields).stdout.split("\n")
               if line]
        want = [line.split("\t")
                for line in run(["tshark", "-r", plain] + fields).stdout.split("\n") if line]
        if mode == "keep" and [g[0] for g in got] != [w[0] for w in want]:
            problems.append("keep: the voice changed")
        if mode == "drop" and (not got or any(g[1] != "54" or g[2] == "54" for g in got)):
            problems.append(f"drop: captured lengths {sorted(set(g[1] for g in got))}")
    return not problems, problems or ["keep and drop"]


captures_cache = []


def main():
    if CLI is None:
        print("1..0 # SKIP CS_CLI not set")
        return 0
    if run(["which", "tshark"]).returncode != 0:
        print("1..0 # SKIP tshark not installed")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        files = captures(tmp)
        captures_cache.extend(files)
        print(f"1..{len(files) + 1}")
        failed = 0
        for i, path in enumerate(files, 1):
            ok, notes = check(path, tmp)
            name = os.path.basename(path)
            if ok is None:
                print(f"ok {i} {name} # SKIP {notes}")
                continue
            print(f"{'ok' if ok else 'not ok'} {i} {name}")
            for n in notes:
                print(f"# {n}")
            failed += not ok
        ok, notes = voice_modes(tmp)
        print(f"{'ok' if ok else 'not ok'} {len(files) + 1} voice kept or dropped"
              + ("" if ok is not None else f" # SKIP {notes[0]}"))
        for n in notes:
            print(f"# {n}")
        failed += ok is False
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
