#!/usr/bin/env python3
"""--hep-send on a file command: a capture replayed as HEP3 into a collector (callscope-cli's
own HEP listener on 127.0.0.1), at most --hep-rate packets a second. The collector's report
must hold the file's calls (same states, statuses, timings: HEP carries each message's
capture time) and the replay may not have been faster than the rate allows. TAP."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_GEN")
CALL_KEYS = ["call_id", "from", "to", "state", "final_status", "pdd_ms", "setup_ms", "ring_ms",
             "duration_s", "messages", "retransmissions"]
RATE = 50.0


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    if not CLI or not GEN:
        print("1..0 # SKIP CS_CLI or CS_GEN not set (run through meson test)")
        return 0
    tmp = tempfile.mkdtemp(prefix="cs-hep-send-")
    pcap = os.path.join(tmp, "reinvite.pcapng")
    subprocess.run([GEN, "scenario", "reinvite", "-o", pcap], check=True, timeout=60)
    file_rep = json.loads(subprocess.run([CLI, "report", pcap, "--format", "json", "-q"],
                                         stdout=subprocess.PIPE, check=True, text=True).stdout)
    n_sip = file_rep["capture"]["sip_messages"]
    port = free_port()
    listener = subprocess.Popen([CLI, "hep", "--listen", "127.0.0.1:%d" % port, "--udp-only",
                                 "--count", str(n_sip), "--duration", "60", "--format", "json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = listener.stderr.readline()  # "Listening for HEP on …": bound
    started = time.monotonic()
    send = subprocess.run([CLI, "report", pcap, "--format", "json", "--hep-send",
                           "127.0.0.1:%d" % port, "--hep-rate", str(RATE)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    elapsed = time.monotonic() - started
    try:
        out, err = listener.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        listener.kill()
        out, err = listener.communicate()
    subprocess.run(["rm", "-rf", tmp])
    results = []
    sent = [w for w in send.stderr.split() if w.isdigit()]
    n_sent = int(sent[0]) if sent else 0
    results.append((send.returncode == 0 and n_sent >= n_sip,
                    "report --hep-send exits 0 having sent every SIP message (%d >= %d)"
                    % (n_sent, n_sip), send.stderr))
    same_report = send.returncode == 0 and json.loads(send.stdout)["calls"] == file_rep["calls"]
    results.append((same_report, "the file's own report is unchanged by --hep-send", ""))
    results.append((elapsed >= (n_sent - 1) / RATE,
                    "the replay kept to --hep-rate %.0f/s: %.2f s for %d packets" %
                    (RATE, elapsed, n_sent), ""))
    try:
        hep_rep = json.loads(out)
        a = [{k: c.get(k) for k in CALL_KEYS} for c in file_rep["calls"]]
        b = [{k: c.get(k) for k in CALL_KEYS} for c in hep_rep["calls"]]
        results.append((a == b, "the collector's calls equal the file's (%d)" % len(a),
                        "file %s\nhep  %s" % (json.dumps(a), json.dumps(b))))
    except ValueError:
        results.append((False, "the collector's calls equal the file's", line + err))
    print("1..%d" % len(results))
    for i, (ok, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            for d in detail.splitlines():
                print("# " + d)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
