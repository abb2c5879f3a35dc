#!/usr/bin/env python3
"""A SIP-over-WebSocket client and server built on python3-websockets (a real RFC 6455 stack),
for test-golden-ws.py. The server answers every request with a 200 OK; the client sends N
requests, as text or binary, whole or in fragments (continuation frames), and pings between
them.

  ws-sip-peer.py serve PORT MODE [CERT KEY]
  ws-sip-peer.py client PORT MODE N [KEYLOG]
MODE: plain | binary | fragmented | deflate | deflate-no-takeover | deflate-window10 |
deflate-fragmented"""
import asyncio
import ssl
import sys

import websockets
from websockets.extensions.permessage_deflate import (ClientPerMessageDeflateFactory,
                                                      ServerPerMessageDeflateFactory)


def extensions(mode, server):
    if not mode.startswith("deflate"):
        return None
    if mode == "deflate-no-takeover":
        args = dict(server_no_context_takeover=True, client_no_context_takeover=True)
    elif mode == "deflate-window10":
        args = dict(server_max_window_bits=10, client_max_window_bits=10)
    else:
        args = {}
    if server:
        return [ServerPerMessageDeflateFactory()]
    return [ClientPerMessageDeflateFactory(**args)]


def request(i):
    method = ["REGISTER", "OPTIONS", "MESSAGE", "INVITE"][i % 4]
    body = ("hello over WebSocket %d " % i) * 8 if method == "MESSAGE" else ""
    lines = [
        "%s sip:bob@ws.test SIP/2.0" % method,
        "Via: SIP/2.0/WS df7jal23ls0d.invalid;branch=z9hG4bK-ws%d" % i,
        "From: <sip:alice@ws.test>;tag=a%d" % i,
        "To: <sip:bob@ws.test>",
        "Call-ID: ws-%d@ws.test" % i,
        "CSeq: %d %s" % (i + 1, method),
        "Contact: <sip:alice@df7jal23ls0d.invalid;transport=ws>",
        "Max-Forwards: 70",
    ]
    if body:
        lines.append("Content-Type: text/plain")
    lines.append("Content-Length: %d" % len(body))
    return "\r\n".join(lines) + "\r\n\r\n" + body


def response(req):
    head, _, _ = req.partition("\r\n\r\n")
    keep = [line for line in head.split("\r\n")[1:]
            if line.split(":")[0] in ("Via", "From", "To", "Call-ID", "CSeq")]
    return "\r\n".join(["SIP/2.0 200 OK"] + keep + ["Content-Length: 0"]) + "\r\n\r\n"


async def serve(port, mode, cert, key):
    ctx = None
    if cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)

    async def handler(ws):
        async for msg in ws:
            text = msg.decode() if isinstance(msg, bytes) else msg
            answer = response(text)
            await ws.send(answer.encode() if isinstance(msg, bytes) else answer)

    async with websockets.serve(handler, "127.0.0.1", port, subprotocols=["sip"], ssl=ctx,
                                compression=None, extensions=extensions(mode, True)):
        print("ready", flush=True)
        await asyncio.sleep(30)


async def client(port, mode, n, keylog):
    ctx = None
    scheme = "ws"
    if keylog:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.keylog_filename = keylog
        scheme = "wss"
    async with websockets.connect("%s://127.0.0.1:%d/" % (scheme, port), subprotocols=["sip"],
                                  ssl=ctx, compression=None,
                                  extensions=extensions(mode, False)) as ws:
        for i in range(n):
            text = request(i)
            if "fragmented" in mode:
                await ws.send([text[j:j + 40] for j in range(0, len(text), 40)])
            elif mode == "binary":
                await ws.send(text.encode())
            else:
                await ws.send(text)
            await ws.recv()
            await asyncio.sleep(0.02)  # a pace tcpdump keeps up with on a busy machine
            if i % 2 == 1:
                await ws.ping()


def main():
    if sys.argv[1] == "serve":
        cert = sys.argv[4] if len(sys.argv) > 4 else None
        key = sys.argv[5] if len(sys.argv) > 5 else None
        asyncio.run(serve(int(sys.argv[2]), sys.argv[3], cert, key))
    else:
        keylog = sys.argv[5] if len(sys.argv) > 5 else None
        asyncio.run(client(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), keylog))


if __name__ == "__main__":
    main()
