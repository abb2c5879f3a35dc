#!/usr/bin/env python3
"""callscope-cli --homer against a real PostgreSQL holding heplify-server's Homer 7 schema.

Each generator scenario's SIP messages, as tshark reads them from its capture (the role of a
HEP agent), are written into the store as heplify-server writes them (homer_server.py); the
report from the store must equal the report from the capture for every call (state, final
status, timings, messages, retransmissions) and for the capture's SIP counts. Then the search
fields (--call-id, --node, --from-user, --ip), and the errors: a wrong URI, a database
without the schema, a window without partitions, a malformed row. TAP; skips (with the
reason) only when no PostgreSQL server is installed.
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import homer_server  # noqa: E402

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_GEN")
# UDP scenarios whose every SIP message tshark gives whole (TCP streams with two messages
# in a segment, and tunnels, are left to other tests)
SCENARIOS = ["demo", "clean", "busy-486", "cancel", "slow-ring", "retransmit", "reinvite",
             "early-media", "forking", "reused-callid", "no-answer", "non-invite", "ipv6",
             "fragments", "vlan", "dtmf"]
CALL_KEYS = ["call_id", "method", "from", "to", "state", "final_status", "final_reason", "start",
             "pdd_ms", "setup_ms", "ring_ms", "duration_s", "messages", "retransmissions",
             "user_agent"]
# frame numbers differ: the store keeps no RTP, so its frames are SIP only
TRANSACTION_KEYS = ["method", "cseq", "transmissions", "final_status", "first_response_ms",
                    "final_response_ms"]
WINDOW = ["--from", "2024-03-01T00:00:00Z", "--to", "2024-03-02T00:00:00Z"]
TSHARK_FIELDS = ["frame.time_epoch", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst",
                 "udp.srcport", "udp.dstport", "sip.Call-ID", "sip.from.user", "sip.to.user",
                 "sip.r-uri.user", "sip.r-uri.host", "sip.Method", "sip.Status-Code",
                 "sip.CSeq.method", "udp.payload"]

results = []


def check(ok, name, detail=""):
    results.append((bool(ok), name, detail))


def sip_messages(pcap):
    """Every SIP message of the capture, as a HEP agent would send it."""
    argv = ["tshark", "-n", "-r", pcap, "-Y", "sip", "-T", "fields", "-E", "separator=\t",
            "-E", "occurrence=l"]
    for f in TSHARK_FIELDS:
        argv += ["-e", f]
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         check=True, timeout=120).stdout
    msgs = []
    for line in out.splitlines():
        v = dict(zip(TSHARK_FIELDS, line.split("\t")))
        if not v.get("udp.payload"):
            continue
        sec, _, frac = v["frame.time_epoch"].partition(".")
        ts_us = int(sec) * 1000000 + int((frac + "000000")[:6])
        v6 = bool(v.get("ipv6.src"))
        raw = bytes.fromhex(v["udp.payload"].replace(":", "")).decode("utf-8", "replace")
        msgs.append({
            "ts_us": ts_us, "proto": 17,
            "src": v["ipv6.src"] if v6 else v["ip.src"], "dst": v["ipv6.dst"] if v6 else v["ip.dst"],
            "sport": int(v["udp.srcport"]), "dport": int(v["udp.dstport"]),
            "callid": v.get("sip.Call-ID", ""), "from_user": v.get("sip.from.user", ""),
            "to_user": v.get("sip.to.user", ""), "ruri_user": v.get("sip.r-uri.user", ""),
            "ruri_domain": v.get("sip.r-uri.host", ""),
            "method": v.get("sip.Method") or v.get("sip.Status-Code", ""),
            "cseq_method": v.get("sip.CSeq.method", ""), "raw": raw})
    return msgs


def insert_sip(server, db, msgs, node):
    by_table = {}
    for m in msgs:
        row = (m["callid"], homer_server.rfc3339(m["ts_us"]), homer_server.proto_header(m, node),
               homer_server.sip_data_header(m), m["raw"])
        by_table.setdefault(homer_server.sip_table(m["cseq_method"]), []).append(row)
    for table, rows in by_table.items():
        server.copy_rows(db, table, rows)


def cli(*args):
    r = subprocess.run([CLI] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def report(*args):
    code, out, err = cli("report", "--format", "json", "--quiet", *args)
    return code, (json.loads(out) if code in (0, 3) and out else None), err


def call_view(rep):
    view = []
    for c in rep["calls"]:
        v = {k: c.get(k) for k in CALL_KEYS}
        v["transactions"] = [{k: t.get(k) for k in TRANSACTION_KEYS}
                             for t in c.get("transactions", [])]
        view.append(v)
    return view


def sip_view(rep):
    cap = rep["capture"]
    return {k: cap.get(k) for k in ("sip_messages", "sip_methods", "sip_statuses")}


def compare_scenario(server, tmp, name):
    pcap = os.path.join(tmp, name + ".pcapng")
    subprocess.run([GEN, "demo", "-o", pcap] if name == "demo" else
                   [GEN, "scenario", name, "-o", pcap], check=True, timeout=120)
    msgs = sip_messages(pcap)
    db = "homer_" + name.replace("-", "_")
    server.psql("CREATE DATABASE %s TEMPLATE homer_template" % db, db="postgres")
    insert_sip(server, db, msgs, "sbc-1")
    code_f, from_file, _ = report(pcap)
    code_h, from_homer, err = report("--homer", server.uri(db), *WINDOW)
    if from_file is None or from_homer is None:
        check(False, "%s: report from Homer" % name, "exit %d/%d: %s" % (code_f, code_h, err))
        return
    check(len(from_homer["calls"]) > 0 or len(from_file["calls"]) == 0,
          "%s: Homer window holds calls" % name, "%d calls" % len(from_homer["calls"]))
    a, b = call_view(from_file), call_view(from_homer)
    check(a == b, "%s: calls from Homer equal calls from the capture (%d)" % (name, len(a)),
          "capture %s\nhomer   %s" % (json.dumps(a), json.dumps(b)))
    a, b = sip_view(from_file), sip_view(from_homer)
    check(a == b, "%s: SIP counts from Homer equal the capture's" % name,
          "capture %s\nhomer   %s" % (json.dumps(a), json.dumps(b)))
    if name == "demo":
        homer = ["--homer", server.uri(db)] + WINDOW
        _, lt_file, _ = cli("loadtest", pcap, "--format", "json")
        code, lt_homer, err = cli("loadtest", *homer, "--format", "json")
        # Homer keeps no RTP: every total but the RTP packet count
        totals = [{k: v for k, v in json.loads(t)["totals"].items() if k != "rtp_packets"}
                  for t in (lt_file, lt_homer)] if code == 0 else [1, 2]
        check(totals[0] == totals[1], "demo: loadtest totals from Homer equal the capture's",
              err + json.dumps(totals))
        first = from_file["calls"][0]["call_id"]
        lad = [os.path.join(tmp, "ladder-%s.txt" % k) for k in ("file", "homer")]
        cli("ladder", pcap, "--call", first, "-o", lad[0])
        code, _, err = cli("ladder", *homer, "--call", first, "-o", lad[1])
        lad_file, lad_homer = (open(p).read() if os.path.exists(p) else "" for p in lad)
        check(code == 0 and lad_homer.strip() != "" and lad_homer == lad_file,
              "demo: the text ladder of call 1 from Homer equals the capture's",
              err + "\n" + lad_file + "\n" + lad_homer)


def fleet_tests(server, tmp):
    """Two scenarios at two nodes in one store: the search fields pick one call."""
    clean = sip_messages(os.path.join(tmp, "clean.pcapng"))
    busy = sip_messages(os.path.join(tmp, "busy-486.pcapng"))
    server.psql("CREATE DATABASE homer_fleet TEMPLATE homer_template", db="postgres")
    insert_sip(server, "homer_fleet", clean, "sbc-1")
    insert_sip(server, "homer_fleet", busy, "sbc-2")
    uri = server.uri("homer_fleet")
    busy_id = busy[0]["callid"]
    clean_id = clean[0]["callid"]

    def ids(*extra):
        code, rep, err = report("--homer", uri, *WINDOW, *extra)
        return sorted(c["call_id"] for c in rep["calls"]) if rep else ("exit %d %s" % (code, err))

    check(ids() == sorted([busy_id, clean_id]), "fleet: whole window holds both calls", ids())
    check(ids("--call-id", busy_id) == [busy_id], "fleet: --call-id picks the busy call")
    check(ids("--node", "sbc-1") == [clean_id], "fleet: --node sbc-1 picks the clean call")
    user = next(m["from_user"] for m in busy if m["from_user"])
    both = user == next(m["from_user"] for m in clean if m["from_user"])
    check(ids("--from-user", user) == (sorted([busy_id, clean_id]) if both else [busy_id]),
          "fleet: --from-user %s" % user)
    code, out, err = cli("report", "--quiet", "--homer", uri, *WINDOW, "--ip", "192.0.2.254")
    check(code == 1 and "holds no row" in err, "fleet: --ip of no endpoint opens nothing",
          "exit %d: %s" % (code, err))
    check(busy_id in ids("--ip", busy[0]["src"]), "fleet: --ip of the busy call's caller")
    # a window that ends before the busy call starts
    first_busy = min(m["ts_us"] for m in busy)
    first_clean = min(m["ts_us"] for m in clean)
    if first_busy != first_clean:
        later = max(first_busy, first_clean)
        code, rep, err = report("--homer", uri, "--from", "2024-03-01T00:00:00Z",
                                "--to", "%.6f" % (later / 1e6))
        check(rep is not None and len(rep["calls"]) == 1,
              "fleet: --to before the later call's first message leaves one call",
              err if rep is None else rep["calls"])
    # frames keep their node and row: an export of the call carries them as packet comments
    out_path = os.path.join(tmp, "busy-from-homer.pcapng")
    code, out, err = cli("export", "--homer", uri, *WINDOW, "--call", busy_id, "-o", out_path)
    comments = ""
    if code == 0:
        comments = subprocess.run(["tshark", "-n", "-r", out_path, "-T", "fields", "-e",
                                   "frame.comment"], stdout=subprocess.PIPE, text=True,
                                  timeout=60).stdout
    n_rows = server.psql("SELECT count(*) FROM hep_proto_1_call WHERE sid = '%s'" % busy_id,
                         db="homer_fleet", tuples=True).strip()
    named = [line for line in comments.splitlines()
             if "Homer node sbc-2, hep_proto_1_call row " in line]
    check(code == 0 and str(len(named)) == n_rows,
          "fleet: every exported frame names its node and row (%s rows)" % n_rows,
          "exit %d %s\n%s" % (code, err, comments))


def error_tests(server):
    code, out, err = cli("report", "--homer", "postgresql:///homer_data?host=/nonexistent-cs",
                         *WINDOW)
    check(code == 1 and "cannot connect to the Homer database" in err,
          "error: an unreachable server is named", "exit %d: %s" % (code, err))
    server.create_database("not_homer")
    code, out, err = cli("report", "--homer", server.uri("not_homer"), *WINDOW)
    check(code == 1 and "not a Homer 7 database: there is no table hep_proto_1_call" in err,
          "error: a database without the schema", "exit %d: %s" % (code, err))
    code, out, err = cli("report", "--homer", server.uri("homer_clean"),
                         "--from", "2024-03-05T10:00:00Z", "--to", "2024-03-05T11:00:00Z")
    check(code == 1 and "no partition of hep_proto_1_call holds" in err
          and "2024-03-05 10:00:00" in err, "error: a window without partitions",
          "exit %d: %s" % (code, err))
    code, out, err = cli("report", "--homer", server.uri("homer_clean"), "--from", "yesterday",
                         "--to", "2024-03-02T00:00:00Z")
    check(code == 2 and "\"yesterday\" is not a time" in err, "error: a bad --from is usage",
          "exit %d: %s" % (code, err))
    code, out, err = cli("report", "--homer", server.uri("homer_clean"))
    check(code == 2 and "--from TIME --to TIME" in err, "error: --homer without a window",
          "exit %d: %s" % (code, err))
    # a malformed row among good ones: skipped, named, exit 3, the rest reported
    server.psql("INSERT INTO hep_proto_1_call (sid, create_date, protocol_header, data_header, raw)"
                " VALUES ('bad', '2024-03-01T10:00:00.5Z', '{\"srcIp\":\"not-an-ip\",\"dstIp\":"
                "\"10.0.0.1\",\"srcPort\":5060,\"dstPort\":5060,\"protocol\":17}', '{}', "
                "'INVITE sip:x@y SIP/2.0')", db="homer_clean")
    bad_id = server.psql("SELECT id FROM hep_proto_1_call WHERE sid = 'bad'",
                         db="homer_clean", tuples=True).strip()
    code, rep, err = report("--homer", server.uri("homer_clean"), *WINDOW)
    check(code == 3 and ("hep_proto_1_call row %s: protocol_header srcIp is not an IP address"
                         % bad_id) in err and rep is not None and len(rep["calls"]) == 1,
          "error: a malformed row is skipped and named (exit 3)", "exit %d: %s" % (code, err))


def main():
    bindir = homer_server.find_bindir()
    if bindir is None:
        print("1..0 # SKIP no PostgreSQL server installed (Debian: postgresql)")
        return 0
    if not CLI or not GEN:
        print("1..0 # SKIP CS_CLI or CS_GEN not set (run through meson test)")
        return 0
    server = homer_server.HomerServer(bindir)
    tmp = tempfile.mkdtemp(prefix="cs-homer-test-")
    try:
        server.start()
        server.create_database("homer_template")
        server.create_homer_schema("homer_template", [datetime.date(2024, 3, 1)])
        for name in SCENARIOS:
            compare_scenario(server, tmp, name)
        fleet_tests(server, tmp)
        error_tests(server)
    except Exception as e:  # the server or a tool failed: one failing test says what
        check(False, "setup", repr(e))
    finally:
        server.stop()
        subprocess.run(["rm", "-rf", tmp])
    print("1..%d" % len(results))
    for i, (ok, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
