#!/usr/bin/env python3
"""Capture points (TAP): one network captured at three points with their own clocks
(`cs-gen points`: alice -- A -- hop 1 -- B (proxy) -- hop 2 -- C -- bob). The generator's
truth file gives each point's clock offset, each hop's one-way delay and what every call
must count once the copies are known as sightings. `callscope-cli report --points` must
find every offset within 1 ms of the truth (the jitter is at most 0.15 ms, so within
0.2 ms here), each hop's delay, and count each call's messages, retransmissions and
sightings as the generator sent them; without --points the same files are one capture
whose copies are not recognised (the offsets are tens of ms) — the counts differ, which
shows the test can fail.
"""
import json
import os
import subprocess
import sys
import tempfile

CLI = os.environ["CS_CLI"]
GEN = os.environ.get("CS_GEN")

results = []


def check(name, ok, notes=()):
    results.append((name, ok, list(notes)))


def report(args):
    r = subprocess.run([CLI, "report", "--format", "json", "--quiet"] + args,
                       capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.decode(errors="replace"))
    return json.loads(r.stdout)


def frame_fields(args, number):
    """{field name: value} of one frame's tree (first occurrence)."""
    r = subprocess.run([CLI, "frame", "--format", "json", "--quiet"] + args + [str(number)],
                       capture_output=True, check=True)
    fields = {}
    for layer in json.loads(r.stdout)["layers"]:
        for field in layer["fields"]:
            fields.setdefault(field["name"], field["value"])
    return fields


def main():
    if GEN is None:
        print("1..0 # SKIP cs-gen not built (CS_GEN unset)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([GEN, "points", "-d", tmp], check=True)
        truth = json.load(open(os.path.join(tmp, "points.truth.json")))
        files = [os.path.join(tmp, p["file"]) for p in truth["points"]]
        got = report(["--points"] + files)
        plain = report(files)
        # the same points given in another order: C, A, B (C is then the reference, and B is
        # reached from both of its hops' far ends)
        order = [2, 0, 1]
        shuffled = report(["--points"] + [files[i] for i in order])
        lost_frames = {}
        for f in got["findings"]:
            if f["kind"] == "lost-between-points" and len(f["frames"]) == 1:
                lost_frames[f["frames"][0]] = frame_fields(["--points"] + files, f["frames"][0])

    points = got.get("points")
    check("report has a points section", points is not None)
    if points is None:
        return finish()
    by_point = {p["point"]: p for p in points["files"]}
    reference = truth["points"][0]["clock_offset_ms"]
    for p in truth["points"]:
        mine = by_point.get(p["point"])
        want = p["clock_offset_ms"] - reference
        ok = mine is not None and abs(mine["offset_ms"] - want) <= 0.2
        check("point %u offset %.3f ms" % (p["point"], want), ok,
              ["got %s" % (mine and mine["offset_ms"])])
        check("point %u read %u SIP datagrams" % (p["point"], p["sip_datagrams"]),
              mine is not None and mine["sip_datagrams"] == p["sip_datagrams"],
              ["got %s" % (mine and mine["sip_datagrams"])])
        check("point %u measured from point 1" % p["point"],
              mine is not None and mine["reference"] == 1)
    for hop in truth["hops"]:
        a, b = hop["points"]
        links = [h for h in points["hops"] if (h["point_a"], h["point_b"]) == (a, b)]
        check("one hop between points %u and %u" % (a, b), len(links) == 1,
              ["got %u" % len(links)])
        if len(links) != 1:
            continue
        link = links[0]
        # the generator adds 0..0.15 ms of jitter to each copy: the medians sit inside it
        delay = abs(link["one_way_ms"]) if link["one_way_ms"] is not None else None
        check("hop %u-%u one-way delay %.3f ms" % (a, b, hop["one_way_ms"]),
              delay is not None and hop["one_way_ms"] <= delay
              <= hop["one_way_ms"] + hop["max_jitter_ms"], ["got %s" % delay])
        check("hop %u-%u spread within the jitter" % (a, b),
              0 <= link["spread_ms"] <= hop["max_jitter_ms"], ["got %s" % link["spread_ms"]])

    ref = truth["points"][order[0]]["clock_offset_ms"]
    mine = {p["point"]: p for p in shuffled["points"]["files"]}
    for position, i in enumerate(order, 1):
        want = truth["points"][i]["clock_offset_ms"] - ref
        got_offset = mine[position]["offset_ms"] if position in mine else None
        check("given as C, A, B: %s offset %.3f ms" % (truth["points"][i]["file"], want),
              got_offset is not None and abs(got_offset - want) <= 0.2,
              ["got %s" % got_offset])

    want_calls = truth["expect"]["calls"]
    calls = {c["call_id"]: c for c in got["calls"]}
    check("%u calls" % len(want_calls), len(got["calls"]) == len(want_calls),
          ["got %u" % len(got["calls"])])
    for want in want_calls:
        c = calls.get(want["call_id"])
        for field in ("messages", "retransmissions", "state"):
            check("call %s %s %s" % (want["call_id"][:8], field, want[field]),
                  c is not None and c[field] == want[field],
                  ["got %s" % (c and c.get(field))])
        # timed across points: the first 180/200 on the wire may be another point's copy,
        # so these hold only as well as the offsets do
        for field in ("pdd_ms", "setup_ms"):
            check("call %s %s %.1f within 0.2 ms" % (want["call_id"][:8], field, want[field]),
                  c is not None and c[field] is not None
                  and abs(c[field] - want[field]) <= 0.2, ["got %s" % (c and c.get(field))])
    # each datagram lost between two points: one finding on its call, naming the frame
    # where the upstream point saw it
    ids = {c["call_id"]: c["id"] for c in got["calls"]}
    findings = [f for f in got["findings"] if f["kind"] == "lost-between-points"]
    check("%u lost-between-points findings" % len(truth["lost"]),
          len(findings) == len(truth["lost"]), ["got %u" % len(findings)])
    for lost in truth["lost"]:
        name = "%s %s -> %s lost between points %u and %u" % (
            lost["what"], lost["src"], lost["dst"], lost["from_point"], lost["to_point"])
        mine = [f for f in findings if f["call"] == ids.get(lost["call_id"])]
        if len(mine) != 1 or len(mine[0]["frames"]) != 1:
            check(name, False, ["findings on its call: %s" % mine])
            continue
        fields = lost_frames.get(mine[0]["frames"][0], {})
        src_ip, src_port = lost["src"].rsplit(":", 1)
        dst_ip, dst_port = lost["dst"].rsplit(":", 1)
        want_file = truth["points"][lost["from_point"] - 1]["file"]
        what = fields.get("sip.Method") or fields.get("sip.Status-Code")
        check(name, os.path.basename(fields.get("callscope.file", "")) == want_file
              and fields.get("ip.src") == src_ip and fields.get("udp.srcport") == src_port
              and fields.get("ip.dst") == dst_ip and fields.get("udp.dstport") == dst_port
              and what == lost["what"]
              and "point %u" % lost["to_point"] in mine[0]["text"],
              ["frame %s: %s %s" % (mine[0]["frames"][0], fields.get("callscope.file"), what)])

    retrans_plain = sum(c["retransmissions"] for c in plain["calls"])
    retrans_want = sum(c["retransmissions"] for c in want_calls)
    check("without --points the copies are taken as retransmissions (%u, not %u)"
          % (retrans_plain, retrans_want), "points" not in plain and retrans_plain > retrans_want)
    return finish()


def finish():
    print("1..%d" % len(results))
    failed = 0
    for i, (name, ok, notes) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            failed += 1
            for n in notes:
                print("# " + n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
