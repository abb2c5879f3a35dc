#!/usr/bin/env python3
"""Call outcomes on real captures (TAP): every INVITE dialog of the samples below has the
state and final response its messages on the wire give, read by hand from
`tshark -r FILE -Y sip -T fields -e frame.number -e sip.Call-ID -e sip.from.tag -e sip.to.tag
-e sip.CSeq -e sip.Status-Line -e sip.Request-Line` (the frames are named beside each row):
only a 2xx answers, a 3xx–6xx rejects (a BYE after it changes nothing), no final response is
setup/ringing when the capture ends before Timer B, and ACK/CANCEL/BYE never start a call.
The other SIP exchanges (REGISTER, OPTIONS…) are counted apart, as the calls' JSON gives them.
Skipped (TAP 1..0 # SKIP, with the reason) when ../shared/samples is absent.
"""
import json
import os
import subprocess
import sys

CLI = os.environ.get("CS_CLI")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.environ.get("CS_SAMPLES_DIR", os.path.join(ROOT, "..", "shared", "samples"))

# sample -> (INVITE dialogs as (Call-ID, state, final status or None), other exchanges)
EXPECTED = {
    # 7-9 INVITE 401 ACK, 10-13 INVITE (credentials, CSeq 21) 100 488 ACK; 3 OPTIONS 200
    "sip-488-codec-reject.pcapng": ([("NA4y5nr9Jk", "rejected", 488)], 3),
    # REGISTER 403 and SUBSCRIBE 403 only: no call
    "sip-auth-failure.pcapng": ([], 2),
    # two legs of one call: 5-36 INVITE 100 180 PRACK 200 … 200 ACK … BYE 200 on both;
    # 37-39 the probe's INVITE 483 ACK; 7 OPTIONS pings answered 200
    "sip-prack-483.pcap": ([("000d3beb000d3bd-0@10.2.254.197", "completed", 200),
                            ("2148e6ae70392094-Acc268-B2b1@172.22.204.85", "completed", 200),
                            ("SIP_PROBE-Proxi-12-0-50c0764f@172.22.204.69", "rejected", 483)], 7),
    "sip-methods-mixed.pcap": ([
        # 2-8: INVITE 100 180 200 ACK, then a BYE with another From-tag and no To-tag,
        # answered 200: it ends this call (it starts nothing)
        ("1234567890", "completed", 200),
        ("08289985", "completed", 200),   # 10-16
        ("04481449", "completed", 200),   # 17-23
        ("00894752", "completed", 200),   # 25-31
        ("00260389", "rejected", 404),    # 33-37 INVITE 100 180 404 ACK
        ("02796691", "ringing", None),    # 39-41 INVITE 100 180, capture ends 6 s later
        ("09916847", "in-call", 200),     # 43-47 answered and ACKed, no BYE
        # 49-53: INVITE 100 180, CANCEL answered "487" with CSeq CANCEL: the INVITE
        # itself never got a final response, and the capture ends 5 s later
        ("03742817", "ringing", None),
        ("08204505", "completed", 200),   # 55-61, BYE from the callee
        ("07477136", "completed", 200),   # 69-81, the INVITE sent again with the same CSeq
    ], 12),
}

results = []


def check(name, ok, notes=()):
    results.append((name, ok, list(notes)))


def report(path):
    r = subprocess.run([CLI, "report", "--format", "json", path], capture_output=True)
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace")
    return json.loads(r.stdout), ""


def main():
    if CLI is None or not os.path.isdir(SAMPLES):
        print("1..0 # SKIP no callscope-cli or no ../shared/samples")
        return 0
    for sample, (calls, others) in sorted(EXPECTED.items()):
        path = os.path.join(SAMPLES, sample)
        if not os.path.exists(path):
            check(f"{sample} present", False, [f"missing {path}"])
            continue
        doc, err = report(path)
        if doc is None:
            check(f"{sample} report", False, [err])
            continue
        invites = [c for c in doc["calls"] if c["method"] == "INVITE"]
        got = [(c["call_id"], c["state"], c.get("final_status")) for c in invites]
        check(f"{sample}: {len(calls)} calls", len(invites) == len(calls),
              [f"calls: {got}"])
        for want in calls:
            match = [g for g in got if g[0] == want[0]]
            check(f"{sample}: {want[0]} {want[1]} {want[2]}", match == [want],
                  [f"got {match}"])
        n_other = len(doc["calls"]) - len(invites)
        check(f"{sample}: {others} other SIP exchanges", n_other == others,
              [f"got {n_other}"])
    print(f"1..{len(results)}")
    failed = 0
    for i, (name, ok, notes) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        for n in notes:
            print(f"# {n}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
