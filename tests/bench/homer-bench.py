#!/usr/bin/env python3
"""Benchmark: open a one-hour window of a Homer 7 store with callscope-cli --homer.

Starts a throwaway PostgreSQL (tests/fleet/homer_server.py: initdb in a temporary folder,
Unix socket, heplify-server's tables, partitions and indexes), fills it inside the server
(generate_series; rows shaped as heplify-server writes them) with --store-calls calls of
7 messages (INVITE, 100, 180, 200, ACK, BYE, 200) spread over --hours hours and --nodes
capture nodes, --calls of them in the hour that is opened, then runs
`callscope-cli calls --homer … --from H --to H+1h` (one warm-up, then the median of --runs)
and prints rows fetched, the fetch rate (rows/s streamed from the cursor into the spool),
the engine's load time, the total SIP messages/s and the peak RSS.

Not a test: nothing in `make test` depends on speed. Standard library only.
"""
import argparse
import datetime
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "fleet"))
import homer_server  # noqa: E402

DAY = datetime.date(2024, 3, 1)
WINDOW_START = datetime.datetime(2024, 3, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)

# (offset ms, first line, CSeq method, from caller, table)
MESSAGES = [
    (0, "INVITE sip:%(callee)s@10.1.0.1 SIP/2.0", "INVITE", True),
    (20, "SIP/2.0 100 Trying", "INVITE", False),
    (300, "SIP/2.0 180 Ringing", "INVITE", False),
    (2000, "SIP/2.0 200 OK", "INVITE", False),
    (2020, "ACK sip:%(callee)s@10.1.0.1 SIP/2.0", "ACK", True),
    (30000, "BYE sip:%(callee)s@10.1.0.1 SIP/2.0", "BYE", True),
    (30020, "SIP/2.0 200 OK", "BYE", False),
]


def fill_sql(first, count, start_epoch, span_s, nodes):
    """INSERTs count calls numbered from first, started evenly over span_s seconds."""
    values = ",".join("(%d, '%s', '%s', %s)" % (off, line.replace("%(callee)s", "{callee}"),
                                                cseq, "true" if caller else "false")
                      for off, line, cseq, caller in MESSAGES)
    return """
INSERT INTO hep_proto_1_call (sid, create_date, protocol_header, data_header, raw)
SELECT callid, ts, json_build_object('protocolFamily', 2, 'protocol', 17,
         'srcIp', CASE WHEN m.caller THEN caller_ip ELSE '10.1.0.1' END,
         'dstIp', CASE WHEN m.caller THEN '10.1.0.1' ELSE caller_ip END,
         'srcPort', 5060, 'dstPort', 5060,
         'timeSeconds', floor(extract(epoch FROM ts))::bigint,
         'timeUseconds', (extract(microseconds FROM ts)::bigint %% 1000000),
         'payloadType', 1, 'captureId', node)::jsonb,
       json_build_object('ruri_domain', '10.1.0.1', 'ruri_user', callee, 'from_user', caller_user,
         'to_user', callee, 'pid_user', '', 'auth_user', '', 'callid', callid,
         'method', split_part(t.line, ' ', CASE WHEN t.line LIKE 'SIP/%%' THEN 2 ELSE 1 END))::jsonb,
       t.line || E'\\r\\nVia: SIP/2.0/UDP ' || caller_ip || ':5060;branch=z9hG4bK' || n ||
         CASE WHEN m.cseq = 'BYE' THEN 'b' WHEN m.cseq = 'ACK' THEN 'a' ELSE 'i' END ||
         E'\\r\\nFrom: <sip:' || caller_user || '@' || caller_ip || '>;tag=f' || n ||
         E'\\r\\nTo: <sip:' || callee || '@10.1.0.1>' ||
         CASE WHEN t.line LIKE 'SIP/2.0 1%%' AND t.line NOT LIKE '%%180%%' OR
                   (t.line NOT LIKE 'SIP/%%' AND m.cseq = 'INVITE') THEN '' ELSE ';tag=t' || n END ||
         E'\\r\\nCall-ID: ' || callid || E'\\r\\nCSeq: ' ||
         CASE WHEN m.cseq = 'BYE' THEN '2' ELSE '1' END || ' ' || m.cseq ||
         E'\\r\\nContent-Length: 0\\r\\n\\r\\n'
FROM (SELECT n, 'bench-' || n || '@10.2.0.1' AS callid, 'node-' || (n %% %(nodes)d) AS node,
             '10.2.' || (n / 250 %% 250) || '.' || (n %% 250 + 1) AS caller_ip,
             'u' || (n %% 10000) AS caller_user, 'c' || (n %% 5000) AS callee,
             to_timestamp(%(start)f + (n - %(first)d) * %(step)f) AS t0
      FROM generate_series(%(first)d, %(last)d) AS n) AS c
CROSS JOIN (VALUES %(values)s) AS m(off, line0, cseq, caller)
CROSS JOIN LATERAL (SELECT c.t0 + m.off * interval '1 millisecond' AS ts,
                           replace(m.line0, '{callee}', c.callee) AS line) AS t
""" % {"nodes": nodes, "start": start_epoch, "first": first, "last": first + count - 1,
       "step": span_s / max(count, 1), "values": values}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "build-bench", "src", "cli",
                                                  "callscope-cli"))
    ap.add_argument("--calls", type=int, default=100000, help="calls in the opened hour")
    ap.add_argument("--store-calls", type=int, default=300000, help="calls in the store")
    ap.add_argument("--hours", type=int, default=3, help="hours the store spans")
    ap.add_argument("--nodes", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not os.path.exists(args.cli):
        sys.exit("no %s: build it (meson setup build-bench --buildtype=release -Dgtk=false)"
                 % args.cli)
    bindir = homer_server.find_bindir()
    if bindir is None:
        sys.exit("no PostgreSQL server installed (Debian: postgresql)")
    server = homer_server.HomerServer(bindir)
    try:
        server.start()
        server.create_database("homer_data")
        server.create_homer_schema("homer_data", [DAY])
        t = time.monotonic()
        others = max(args.store_calls - args.calls, 0)
        window_epoch = WINDOW_START.timestamp()
        # the opened hour, then the other calls spread over the hours after it
        server.psql(fill_sql(0, args.calls, window_epoch, 3600 - 40, args.nodes))
        if others:
            server.psql(fill_sql(args.calls, others, window_epoch + 3600,
                                 3600 * (args.hours - 1) - 40, args.nodes))
        server.psql("ANALYZE")
        rows = server.psql("SELECT count(*) FROM hep_proto_1_call", tuples=True).strip()
        print("store: %s rows (%d calls, %d nodes, %d h), filled in %.1f s"
              % (rows, args.store_calls, args.nodes, args.hours, time.monotonic() - t))
        argv = [args.cli, "calls", "--homer", server.uri(), "--from", "2024-03-01T10:00:00Z",
                "--to", "2024-03-01T11:00:00Z", "-q", "-o", os.devnull]
        env = dict(os.environ, CALLSCOPE_PROFILE="1")
        samples = []
        for i in range(args.runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            t = time.monotonic()
            r = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            wall = time.monotonic() - t
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            if r.returncode != 0:
                sys.exit("callscope-cli failed: " + r.stderr)
            m = re.search(r"homer\s+(\d+) rows, fetch ([\d.]+) s \((\d+) rows/s\), load ([\d.]+) s",
                          r.stderr)
            if i > 0 and m:
                samples.append((int(m.group(1)), float(m.group(2)), float(m.group(4)), wall,
                                max(rss, before)))
        n_rows = samples[0][0]
        fetch = statistics.median(s[1] for s in samples)
        load = statistics.median(s[2] for s in samples)
        wall = statistics.median(s[3] for s in samples)
        print("| rows in the hour | fetch s | rows/s fetched | load s | wall s | SIP msg/s (wall) "
              "| peak RSS (max of runs) |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        print("| %d | %.2f | %.0f | %.2f | %.2f | %.0f | %d MiB |"
              % (n_rows, fetch, n_rows / fetch, load, wall, n_rows / wall,
                 max(s[4] for s in samples) // 1024))
        print("target (issue 27): >= 100000 SIP messages/s into the engine: %s"
              % ("met" if n_rows / fetch >= 100000 else "missed"))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
