/* cs-addr.c — network addresses and transport endpoints */
#include "cs-addr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

void
cs_addr_set_v4 (CsAddr *addr, const guint8 bytes[4])
{
  memset (addr, 0, sizeof *addr);
  addr->family = 4;
  memcpy (addr->bytes, bytes, 4);
}

void
cs_addr_set_v6 (CsAddr *addr, const guint8 bytes[16])
{
  memset (addr, 0, sizeof *addr);
  addr->family = 6;
  memcpy (addr->bytes, bytes, 16);
}

gboolean
cs_addr_parse (CsAddr *addr, const char *text)
{
  guint8 buf[16];

  memset (addr, 0, sizeof *addr);
  if (text == NULL)
    return FALSE;
  if (inet_pton (AF_INET, text, buf) == 1)
    {
      cs_addr_set_v4 (addr, buf);
      return TRUE;
    }
  if (inet_pton (AF_INET6, text, buf) == 1)
    {
      cs_addr_set_v6 (addr, buf);
      return TRUE;
    }
  return FALSE;
}

gboolean
cs_addr_equal (const CsAddr *a, const CsAddr *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

guint
cs_addr_hash (const CsAddr *addr)
{
  guint h = 2166136261u;

  for (gsize i = 0; i < sizeof addr->bytes; i++)
    h = (h ^ addr->bytes[i]) * 16777619u;
  return h ^ addr->family;
}

const char *
cs_addr_to_string (const CsAddr *addr, char *buf)
{
  if (addr->family == 4)
    inet_ntop (AF_INET, addr->bytes, buf, CS_ADDR_STRLEN);
  else if (addr->family == 6)
    inet_ntop (AF_INET6, addr->bytes, buf, CS_ADDR_STRLEN);
  else
    g_strlcpy (buf, "?", CS_ADDR_STRLEN);
  return buf;
}

gboolean
cs_endpoint_equal (const CsEndpoint *a, const CsEndpoint *b)
{
  return a->port == b->port && cs_addr_equal (&a->addr, &b->addr);
}

guint
cs_endpoint_hash (const CsEndpoint *ep)
{
  return cs_addr_hash (&ep->addr) * 31u + ep->port;
}

guint
cs_flow_hash (gconstpointer flow)
{
  const CsFlow *f = flow;

  return cs_endpoint_hash (&f->src) * 31u + cs_endpoint_hash (&f->dst);
}

gboolean
cs_flow_equal (gconstpointer a, gconstpointer b)
{
  const CsFlow *x = a, *y = b;

  return cs_endpoint_equal (&x->src, &y->src) && cs_endpoint_equal (&x->dst, &y->dst);
}

const char *
cs_endpoint_to_string (const CsEndpoint *ep, char *buf)
{
  char a[CS_ADDR_STRLEN];

  cs_addr_to_string (&ep->addr, a);
  if (ep->addr.family == 6)
    g_snprintf (buf, CS_ENDPOINT_STRLEN, "[%s]:%u", a, ep->port);
  else
    g_snprintf (buf, CS_ENDPOINT_STRLEN, "%s:%u", a, ep->port);
  return buf;
}
