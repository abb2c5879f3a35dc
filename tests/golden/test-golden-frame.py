#!/usr/bin/env python3
"""`callscope-cli frame` fields against tshark's (TAP).

For the generator's scenarios and ../shared/samples (RTP, RTCP, RTCP-XR, SIP over UDP and TCP,
IP fragments, VLAN, IPv6, Linux cooked, loopback, raw IP, tunnels, RFC 4733 events), frames of
every protocol are sampled from `callscope-cli frames --format json`, dissected with
`callscope-cli frame --format json`, and every field of the list below the tree holds must
have the values `tshark -T fields -e NAME` prints for that frame, in the same order (tshark
with its RTP heuristic on, as RTP has no signature). A frame tshark decodes as RTP, RTCP or
SIP must carry that layer in callscope's tree too (except SIP in a TCP segment whose message
tshark only reassembles in a later frame). The expected values are tshark's, not callscope's.
"""
import json
import os
import subprocess
import sys
import tempfile

CLI = os.environ.get("CS_CLI")
GEN = os.environ.get("CS_GEN")
SAMPLES = os.environ.get("CS_SAMPLES_DIR")

FIELDS = """
frame.len frame.cap_len frame.time_epoch frame.time_relative
eth.dst eth.src eth.type vlan.priority vlan.dei vlan.id vlan.etype
sll.pkttype sll.hatype sll.halen sll.src.eth sll.etype null.family
ip.version ip.hdr_len ip.dsfield ip.dsfield.dscp ip.len ip.id ip.flags ip.flags.df ip.flags.mf
ip.frag_offset ip.ttl ip.proto ip.checksum ip.src ip.dst
ipv6.version ipv6.tclass ipv6.flow ipv6.plen ipv6.nxt ipv6.hlim ipv6.src ipv6.dst
udp.srcport udp.dstport udp.length udp.checksum
tcp.srcport tcp.dstport tcp.seq_raw tcp.ack_raw tcp.hdr_len tcp.flags tcp.flags.syn tcp.flags.ack
tcp.window_size_value tcp.checksum tcp.urgent_pointer tcp.len
rtp.version rtp.padding rtp.ext rtp.cc rtp.marker rtp.p_type rtp.seq rtp.timestamp rtp.ssrc
rtp.csrc.item rtp.ext.profile rtp.ext.len rtp.padding.count
rtpevent.event_id rtpevent.end_of_event rtpevent.volume rtpevent.duration
rtcp.version rtcp.padding rtcp.rc rtcp.sc rtcp.pt rtcp.length rtcp.senderssrc
rtcp.timestamp.ntp.msw rtcp.timestamp.ntp.lsw rtcp.timestamp.rtp rtcp.sender.packetcount
rtcp.sender.octetcount rtcp.ssrc.identifier rtcp.ssrc.fraction rtcp.ssrc.cum_nr
rtcp.ssrc.ext_high rtcp.ssrc.jitter rtcp.ssrc.lsr rtcp.ssrc.dlsr rtcp.sdes.type
rtcp.sdes.length rtcp.sdes.text rtcp.xr.bt rtcp.xr.bl rtcp.xr.voipmetrics.burstdensity
rtcp.xr.voipmetrics.gapdensity rtcp.xr.voipmetrics.rtdelay rtcp.xr.voipmetrics.rfactor
sip.Method sip.r-uri sip.Status-Code sip.Request-Line sip.Status-Line sip.Call-ID sip.CSeq
sip.From sip.To sip.Via sip.Contact sip.Content-Type sip.Content-Length sip.Max-Forwards
sip.User-Agent sip.Allow sip.Supported
sdp.version sdp.owner sdp.session_name sdp.connection_info sdp.time sdp.media sdp.media_attr
sdp.session_attr sdp.media.media sdp.media.port sdp.media.proto
""".split()

SCENARIOS = ["clean", "loss-jitter", "tcp", "fragments", "ipv6", "vlan", "sll", "sll2",
             "null-loopback", "raw-ip", "dtmf", "hep", "gre", "vxlan", "seq-wrap"]
SAMPLE_FILES = ["sip-rtp-g711.pcap", "sip-over-tcp.pcap", "volte-rtp-rtcpxr-rawip.pcap",
                "sip-ipv6-rawip-tcp-udp.pcap", "ims-prack-update.pcap", "rtp-protocol.pcap",
                "SIP_CALL_RTP_G711", "DTMFsipinfo.pcap", "sip-rtp-g726-8calls.pcap"]
# frames sampled per protocol of the list, spread over the capture
PER_PROTOCOL = 6
SEP = "\x01"


def run(args):
    return subprocess.run(args, capture_output=True, text=True, errors="replace")


def tshark_frames(path, numbers):
    """{frame number: {field: [values]}, "_protocols": "eth:ethertype:ip:udp:rtp"}"""
    args = ["tshark", "-r", path, "-o", "rtp.heuristic_rtp:TRUE", "-T", "fields",
            "-E", "separator=\t", "-E", "aggregator=" + SEP, "-E", "occurrence=a",
            "-e", "frame.number", "-e", "frame.protocols"]
    for f in FIELDS:
        args += ["-e", f]
    result = run(args)
    frames = {}
    for line in result.stdout.split("\n"):
        cols = line.split("\t")
        if len(cols) < 2 + len(FIELDS) or not cols[0].isdigit():
            continue
        n = int(cols[0])
        if n not in numbers:
            continue
        fields = {f: v.split(SEP) for f, v in zip(FIELDS, cols[2:]) if v != ""}
        fields["_protocols"] = cols[1].split(":")
        frames[n] = fields
    return frames, result.stderr


def callscope_fields(path, n):
    out = run([CLI, "frame", "-q", path, str(n), "--format", "json"])
    if out.returncode not in (0, 3):
        return None, out.stderr
    tree = json.loads(out.stdout)
    fields = {}
    layers = []
    for layer in tree["layers"]:
        layers.append(layer["name"])
        for f in layer["fields"]:
            fields.setdefault(f["name"], []).append(f["value"])
    return (fields, layers), ""


def sample(path):
    out = run([CLI, "frames", "-q", path, "--format", "json"])
    rows = json.loads(out.stdout) if out.returncode in (0, 3) else []
    by_proto = {}
    for row in rows:
        by_proto.setdefault(row["protocol"], []).append(row["number"])
    picked = set()
    for numbers in by_proto.values():
        step = max(1, len(numbers) // PER_PROTOCOL)
        picked.update(numbers[::step][:PER_PROTOCOL])
    return sorted(picked), len(rows)


def check(path):
    """Problems found in one capture (empty: every sampled field equals tshark's)."""
    numbers, n_rows = sample(path)
    if not numbers:
        return [f"no frames listed by callscope-cli frames ({n_rows} rows)"], 0
    reference, err = tshark_frames(path, set(numbers))
    problems = []
    compared = 0
    for n in numbers:
        if n not in reference:
            problems.append(f"frame {n}: tshark printed nothing ({err.strip()[:200]})")
            continue
        ours, err = callscope_fields(path, n)
        if ours is None:
            problems.append(f"frame {n}: callscope-cli frame failed: {err.strip()[:200]}")
            continue
        fields, layers = ours
        theirs = reference[n]
        protos = theirs["_protocols"]
        for proto in ("rtp", "rtcp", "sip", "rtpevent"):
            # SIP that tshark reassembles from several TCP segments shows in the last one only
            if proto in protos and proto not in layers and not (proto == "sip" and "tcp" in protos):
                problems.append(f"frame {n}: tshark decodes {proto} ({':'.join(protos)}), "
                                f"callscope's layers are {layers}")
        for name in FIELDS:
            if name not in fields:
                continue
            if name.startswith("sip.") or name.startswith("sdp."):
                if "sip" not in protos:
                    continue  # a TCP segment of a message tshark reassembles later
            compared += 1
            if fields[name] != theirs.get(name, []):
                problems.append(f"frame {n}: {name} = {fields[name]!r}, tshark: "
                                f"{theirs.get(name, [])!r}")
    return problems, compared


def captures(tmp):
    found = []
    if GEN:
        for name in SCENARIOS:
            path = os.path.join(tmp, name + ".pcapng")
            if run([GEN, "scenario", name, "-o", path]).returncode == 0:
                found.append((f"scenario {name}", path))
            else:
                found.append((f"scenario {name}", None))
    if SAMPLES and os.path.isdir(SAMPLES):
        for name in SAMPLE_FILES:
            path = os.path.join(SAMPLES, name)
            if os.path.exists(path):
                found.append((f"sample {name}", path))
    return found


def main():
    if not CLI:
        print("1..0 # SKIP CS_CLI not set")
        return 0
    if run(["tshark", "-v"]).returncode != 0:
        print("1..0 # SKIP tshark is not installed (scripts/install-deps.sh installs it)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        items = captures(tmp)
        if not items:
            print("1..0 # SKIP neither CS_GEN nor ../shared/samples")
            return 0
        print(f"1..{len(items)}")
        failed = 0
        for i, (label, path) in enumerate(items, 1):
            if path is None:
                print(f"not ok {i} {label}: the generator failed")
                failed += 1
                continue
            problems, compared = check(path)
            print(f"{'ok' if not problems else 'not ok'} {i} {label}: {compared} fields compared")
            for p in problems[:25]:
                print(f"# {p}")
            if len(problems) > 25:
                print(f"# … {len(problems) - 25} more")
            failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
