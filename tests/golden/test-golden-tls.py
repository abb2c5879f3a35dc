#!/usr/bin/env python3
"""SIP over TLS captured here on loopback (TAP): gnutls-cli sends SIP to gnutls-serv --echo
(so both directions carry it) with SSLKEYLOGFILE set, tcpdump records it; callscope-cli with
--keylog finds exactly the SIP messages tshark finds with the same key log
(-o tls.keylog_file), for TLS 1.2 (AES-GCM, ChaCha20-Poly1305, AES-CBC with SHA-1 and
SHA-256, a resumed session) and TLS 1.3 (AES-128/256-GCM, ChaCha20-Poly1305). Without the key
log no SIP is read and a tls-no-key finding names the session (SNI, version, cipher); a key
log with garbage lines still works and says which line it skipped."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

CLI = os.environ.get("CS_CLI")
TOOLS = ["gnutls-serv", "gnutls-cli", "certtool", "tcpdump", "tshark"]

CASES = [
    ("tls12-aes128-gcm", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM", [], "1.2"),
    ("tls12-aes256-gcm", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM", [], "1.2"),
    ("tls12-chacha20", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+CHACHA20-POLY1305", [], "1.2"),
    ("tls12-aes128-cbc-sha1",
     "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-CBC:-MAC-ALL:+SHA1", [], "1.2"),
    ("tls12-aes128-cbc-sha256",
     "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-CBC:-MAC-ALL:+SHA256", [], "1.2"),
    ("tls12-cbc-no-etm",
     "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-CBC:-MAC-ALL:+SHA1:%NO_ETM", [], "1.2"),
    ("tls12-resumed", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM", ["--resume"],
     "1.2"),
    ("tls13-aes128-gcm", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM", [], "1.3"),
    ("tls13-aes256-gcm", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-256-GCM", [], "1.3"),
    ("tls13-chacha20", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+CHACHA20-POLY1305", [], "1.3"),
]


def sip_messages(n):
    out = []
    for i in range(n):
        method = ["OPTIONS", "REGISTER", "MESSAGE"][i % 3]
        body = "hello over TLS %d" % i if method == "MESSAGE" else ""
        lines = [
            "%s sip:bob@sip.test SIP/2.0" % method,
            "Via: SIP/2.0/TLS 127.0.0.1:5061;branch=z9hG4bK-%d" % i,
            "From: <sip:alice@sip.test>;tag=a%d" % i,
            "To: <sip:bob@sip.test>",
            "Call-ID: tls-%d@sip.test" % i,
            "CSeq: %d %s" % (i + 1, method),
            "Max-Forwards: 70",
        ]
        if body:
            lines.append("Content-Type: text/plain")
        lines.append("Content-Length: %d" % len(body))
        out.append("\r\n".join(lines) + "\r\n\r\n" + body)
    return "".join(out)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def capture(tmp, name, priority, extra):
    port = free_port()
    pcap = os.path.join(tmp, name + ".pcap")
    keys = os.path.join(tmp, name + ".keys")
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-n", "-w", pcap, "tcp port %d" % port],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # tcpdump says "listening on lo" once it captures
    deadline = time.monotonic() + 10
    line = b""
    while time.monotonic() < deadline and b"listening" not in line:
        line = dump.stderr.readline()
    serv = subprocess.Popen(["gnutls-serv", "--echo", "-p", str(port), "--x509certfile",
                             os.path.join(tmp, "cert.pem"), "--x509keyfile",
                             os.path.join(tmp, "key.pem"), "--priority", priority],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    env = dict(os.environ, SSLKEYLOGFILE=keys)
    cli = subprocess.Popen(["gnutls-cli", "--insecure", "--priority", priority, "-p", str(port),
                            "127.0.0.1", "--sni-hostname", "sip.test"] + extra,
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env)
    cli.stdin.write(sip_messages(3).encode())
    cli.stdin.flush()
    time.sleep(1.0)  # the echo comes back
    cli.stdin.close()
    try:
        cli.wait(timeout=10)
    except subprocess.TimeoutExpired:
        cli.kill()
    serv.terminate()
    serv.wait(timeout=10)
    time.sleep(0.3)
    dump.terminate()
    dump.wait(timeout=10)
    return pcap, keys, port


def tshark_sip(pcap, keys, port):
    out = subprocess.run(["tshark", "-r", pcap, "-o", "tls.keylog_file:" + keys, "-d",
                          "tcp.port==%d,tls" % port, "-d", "tls.port==%d,sip" % port, "-Y", "sip",
                          "-T", "fields", "-e", "sip.CSeq.method"],
                         capture_output=True, text=True, check=True).stdout
    methods = {}
    for line in out.split():
        for method in line.split(","):  # several messages in one frame
            methods[method] = methods.get(method, 0) + 1
    return methods


def callscope(args):
    proc = subprocess.run([CLI] + args, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    if CLI is None:
        print("1..0 # SKIP CS_CLI not set")
        return 0
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        print("1..0 # SKIP missing %s (Debian gnutls-bin, tcpdump, tshark)" % ", ".join(missing))
        return 0
    if os.geteuid() != 0:
        print("1..0 # SKIP capturing on lo needs root")
        return 0
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["certtool", "--generate-privkey", "--key-type", "ecdsa", "--outfile",
                        os.path.join(tmp, "key.pem")], capture_output=True, check=True)
        with open(os.path.join(tmp, "tmpl"), "w") as f:
            f.write("cn = sip.test\nexpiration_days = 2\nsigning_key\ntls_www_server\n")
        subprocess.run(["certtool", "--generate-self-signed", "--load-privkey",
                        os.path.join(tmp, "key.pem"), "--template", os.path.join(tmp, "tmpl"),
                        "--outfile", os.path.join(tmp, "cert.pem")], capture_output=True,
                       check=True)
        for name, priority, extra, version in CASES:
            pcap, keys, port = capture(tmp, name, priority, extra)
            want = tshark_sip(pcap, keys, port)
            code, out, err = callscope(["report", pcap, "--keylog", keys, "-q"])
            got = json.loads(out)["capture"]["sip_methods"] if code == 0 else {}
            # tshark sees each of the 3 requests twice (sent and echoed)
            ok = code == 0 and sum(want.values()) == 6 and got == want
            checks.append((ok, "%s: SIP requests by method %s, tshark %s" % (name, got, want)))
            if name == "tls13-aes128-gcm":
                code, out, err = callscope(["report", pcap, "-q"])
                report = json.loads(out)
                texts = [f["text"] for f in report["findings"] if f["kind"] == "tls-no-key"]
                ok = (code == 0 and report["capture"]["sip_messages"] == 0 and len(texts) == 1
                      and "SNI sip.test" in texts[0] and "TLS 1.3" in texts[0]
                      and "TLS_AES_128_GCM_SHA256" in texts[0] and "--keylog" in texts[0])
                checks.append((ok, "%s without the key log: no SIP, one tls-no-key finding %s"
                               % (name, texts)))
                garbage = os.path.join(tmp, "garbage.keys")
                with open(keys) as f, open(garbage, "w") as g:
                    g.write("# a comment\nnot a key line\nCLIENT_RANDOM zz 00\n" + f.read())
                code, out, err = callscope(["report", pcap, "--keylog", garbage])
                got = json.loads(out)["capture"]["sip_methods"] if code == 0 else {}
                ok = code == 0 and got == want and "2 lines not understood (the first: line 2)" in err
                checks.append((ok, "%s with garbage lines in the key log: %s; stderr %r"
                               % (name, got, err.strip())))
        code, out, err = callscope(["report", os.path.join(tmp, "tls12-aes128-gcm.pcap"),
                                    "--keylog", os.path.join(tmp, "tmpl")])
        checks.append((code == 1 and "is not an NSS key log" in err,
                       "a file that is not a key log: exit 1, %r" % err.strip()))
    print("1..%d" % len(checks))
    for i, (ok, what) in enumerate(checks, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
