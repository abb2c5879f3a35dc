#!/usr/bin/env python3
"""SIP over WebSocket captured here on loopback (TAP): ws-sip-peer.py (python3-websockets, a
real RFC 6455 / RFC 7692 stack) sends SIP requests to a websockets server that answers each
with 200 OK, tcpdump records it on a random port. callscope-cli finds exactly the SIP requests
and responses tshark finds in the same capture (its websocket dissector, the port decoded as
HTTP), with transport WS: whole text and binary messages, pings between messages, permessage-deflate with context takeover, with
no_context_takeover and with 10-bit windows, fragmented compressed messages; and WSS (TLS
decrypted with the client's key log, Python's ssl keylog_filename) with transport WSS.
Fragmented messages (continuation frames): tshark 4.0 does not join them, so the requests are
the peer's own (request(i) for i < N, ws-sip-peer.py), tshark counting the continuation frames
and the 200 OKs (sent whole)."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

CLI = os.environ.get("CS_CLI")
PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ws-sip-peer.py")
TOOLS = ["tcpdump", "tshark", "certtool"]
N = 8  # requests per connection

# name, peer mode, over TLS
CASES = [
    ("ws-plain", "plain", False),
    ("ws-binary", "binary", False),
    ("ws-fragmented", "fragmented", False),
    ("ws-deflate", "deflate", False),
    ("ws-deflate-no-takeover", "deflate-no-takeover", False),
    ("ws-deflate-window10", "deflate-window10", False),
    ("ws-deflate-fragmented", "deflate-fragmented", False),
    ("wss-deflate", "deflate", True),
    ("wss-fragmented", "fragmented", True),
]


def python_with_websockets():
    for exe in [sys.executable, "/usr/bin/python3"]:
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import websockets"], capture_output=True).returncode == 0:
            return exe
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def capture(py, tmp, name, mode, tls):
    port = free_port()
    pcap = os.path.join(tmp, name + ".pcap")
    keys = os.path.join(tmp, name + ".keys")
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "--immediate-mode", "-B", "16384", "-n",
                             "-w", pcap, "tcp port %d" % port],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    line = b""
    while time.monotonic() < deadline and b"listening" not in line:
        line = dump.stderr.readline()
    # "listening" can come before packets are taken: knock on the closed port until tcpdump
    # has written one (a SYN and its RST, which no SIP reader takes for anything)
    while time.monotonic() < deadline and (not os.path.exists(pcap)
                                           or os.path.getsize(pcap) <= 24):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            pass
        time.sleep(0.1)
    tls_args = [os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")] if tls else []
    serv = subprocess.Popen([py, PEER, "serve", str(port), mode] + tls_args,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    serv.stdout.readline()  # "ready"
    client = subprocess.run([py, PEER, "client", str(port), mode, str(N)] +
                            ([keys] if tls else []), capture_output=True, text=True, timeout=30)
    serv.terminate()
    serv.wait(timeout=10)
    time.sleep(0.3)
    dump.terminate()
    dump.wait(timeout=10)
    tail = dump.stderr.read().decode(errors="replace")
    complete = re.search(r"^0 packets dropped by kernel", tail, re.M) is not None
    return pcap, keys, port, client.returncode == 0, complete


def capture_whole(py, tmp, name, mode, tls):
    """A capture tcpdump dropped nothing from (a busy machine can starve it): up to 3 tries."""
    for attempt in range(3):
        pcap, keys, port, ran, complete = capture(py, tmp, name, mode, tls)
        if complete:
            break
        print("# %s: tcpdump dropped packets, captured again" % name)
    return pcap, keys, port, ran and complete


def tshark_args(pcap, keys, port, tls):
    args = ["tshark", "-r", pcap]
    if tls:
        return args + ["-o", "tls.keylog_file:" + keys, "-d", "tcp.port==%d,tls" % port,
                       "-d", "tls.port==%d,http" % port]
    return args + ["-d", "tcp.port==%d,http" % port]


def tshark_continuations(pcap, keys, port, tls):
    out = subprocess.run(tshark_args(pcap, keys, port, tls) + [
        "-Y", "websocket.opcode == 0", "-T", "fields", "-e", "websocket.opcode"],
                         capture_output=True, text=True, check=True).stdout
    return sum(len(line.split(",")) for line in out.split())


def peer_methods():
    """What ws-sip-peer.py sends: request(i) for i < N."""
    methods = {}
    for i in range(N):
        m = ["REGISTER", "OPTIONS", "MESSAGE", "INVITE"][i % 4]
        methods[m] = methods.get(m, 0) + 1
    return methods


def tshark_sip(pcap, keys, port, tls):
    out = subprocess.run(tshark_args(pcap, keys, port, tls) + [
        "-Y", "sip", "-T", "fields", "-e", "sip.Method", "-e", "sip.Status-Code"],
                         capture_output=True, text=True, check=True).stdout
    methods, statuses = {}, {}
    for line in out.splitlines():
        method, _, status = line.partition("\t")
        for m in filter(None, method.split(",")):
            methods[m] = methods.get(m, 0) + 1
        for s in filter(None, status.split(",")):
            statuses[s] = statuses.get(s, 0) + 1
    return methods, statuses


def callscope(args):
    proc = subprocess.run([CLI] + args, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    if CLI is None:
        print("1..0 # SKIP CS_CLI not set")
        return 0
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        print("1..0 # SKIP missing %s (Debian tcpdump, tshark, gnutls-bin)" % ", ".join(missing))
        return 0
    py = python_with_websockets()
    if py is None:
        print("1..0 # SKIP no python3 with the websockets module (Debian python3-websockets)")
        return 0
    if os.geteuid() != 0:
        print("1..0 # SKIP capturing on lo needs root")
        return 0
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["certtool", "--generate-privkey", "--key-type", "ecdsa", "--outfile",
                        os.path.join(tmp, "key.pem")], capture_output=True, check=True)
        with open(os.path.join(tmp, "tmpl"), "w") as f:
            f.write("cn = ws.test\nexpiration_days = 2\nsigning_key\ntls_www_server\n")
        subprocess.run(["certtool", "--generate-self-signed", "--load-privkey",
                        os.path.join(tmp, "key.pem"), "--template", os.path.join(tmp, "tmpl"),
                        "--outfile", os.path.join(tmp, "cert.pem")], capture_output=True,
                       check=True)
        for name, mode, tls in CASES:
            pcap, keys, port, ran = capture_whole(py, tmp, name, mode, tls)
            want_methods, want_statuses = tshark_sip(pcap, keys, port, tls)
            fragments = 0
            if "fragmented" in mode:
                fragments = tshark_continuations(pcap, keys, port, tls)
                ran = ran and fragments >= N and not want_methods
                want_methods = peer_methods()
            code, out, err = callscope(["report", pcap, "-q"] + (["--keylog", keys] if tls else []))
            cap = json.loads(out)["capture"] if code == 0 else {}
            got_methods = cap.get("sip_methods", {})
            got_statuses = cap.get("sip_statuses", {})
            transports = cap.get("sip_transports", {})
            want_transport = {"WSS" if tls else "WS": 2 * N}
            ok = (ran and code == 0 and sum(want_methods.values()) == N
                  and got_methods == want_methods and got_statuses == want_statuses
                  and transports == want_transport)
            checks.append((ok, "%s: requests %s statuses %s transports %s; want %s %s%s"
                           % (name, got_methods, got_statuses, transports, want_methods,
                              want_statuses, " (%d continuation frames)" % fragments
                              if fragments else "")))
            if name == "wss-deflate":
                code, out, err = callscope(["report", pcap, "-q"])
                report = json.loads(out) if code == 0 else {"capture": {}, "findings": []}
                kinds = [f["kind"] for f in report["findings"]]
                ok = (code == 0 and report["capture"].get("sip_messages") == 0
                      and "tls-no-key" in kinds)
                checks.append((ok, "%s without the key log: no SIP, findings %s" % (name, kinds)))
    print("1..%d" % len(checks))
    for i, (ok, what) in enumerate(checks, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
