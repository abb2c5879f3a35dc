/* cs-addr.h — network addresses and transport endpoints */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An IPv4 or IPv6 address. IPv4 lives in bytes[0..3]; unused bytes are zero so
 * that the struct can be hashed and compared with memcmp. */
typedef struct
{
  guint8 family; /* 4 or 6; 0 = unset */
  guint8 bytes[16];
} CsAddr;

/* An address and a UDP/TCP port. */
typedef struct
{
  CsAddr addr;
  guint16 port;
} CsEndpoint;

#define CS_ADDR_STRLEN 46
#define CS_ENDPOINT_STRLEN 56

void cs_addr_set_v4 (CsAddr *addr, const guint8 bytes[4]);
void cs_addr_set_v6 (CsAddr *addr, const guint8 bytes[16]);
gboolean cs_addr_parse (CsAddr *addr, const char *text);
gboolean cs_addr_equal (const CsAddr *a, const CsAddr *b);
guint cs_addr_hash (const CsAddr *addr);
/* Writes "10.0.0.1" or "2001:db8::1" into buf (CS_ADDR_STRLEN bytes). */
const char *cs_addr_to_string (const CsAddr *addr, char *buf);

gboolean cs_endpoint_equal (const CsEndpoint *a, const CsEndpoint *b);
guint cs_endpoint_hash (const CsEndpoint *ep);
/* "10.0.0.1:5060" or "[2001:db8::1]:5060" into buf (CS_ENDPOINT_STRLEN bytes). */
const char *cs_endpoint_to_string (const CsEndpoint *ep, char *buf);

/* One direction of a flow, as a hash table key (cs_flow_hash, cs_flow_equal). */
typedef struct
{
  CsEndpoint src, dst;
} CsFlow;

guint cs_flow_hash (gconstpointer flow);
gboolean cs_flow_equal (gconstpointer a, gconstpointer b);

G_END_DECLS
