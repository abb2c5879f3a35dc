/* gen-tunnel.h — the encapsulations a capture's IP packets can be wrapped in */
#pragma once

#include "gen-capture.h"

G_BEGIN_DECLS

/* The outer IP packet that carries the IP packet ip (len bytes) in cap->tunnel. */
GByteArray *gen_tunnel_wrap (GenCapture *cap, const guint8 *ip, gsize len);

G_END_DECLS
