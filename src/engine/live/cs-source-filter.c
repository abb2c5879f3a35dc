/* cs-source-filter.c — a listener open to the network answers only the agents it should, at
 * a rate it can take: what it refuses is counted by the caller */
#include "cs-source-filter.h"

#include <string.h>

#include "cs-live-session.h"

typedef struct
{
  CsAddr addr;
  guint bits;
} CsPrefix;

struct _CsSourceFilter
{
  GArray *prefixes; /* CsPrefix */
  guint max_per_second;
  double tokens;
  gint64 last_us;
};

CsSourceFilter *
cs_source_filter_new (guint max_per_second)
{
  CsSourceFilter *f = g_new0 (CsSourceFilter, 1);

  f->prefixes = g_array_new (FALSE, FALSE, sizeof (CsPrefix));
  cs_source_filter_set_max_rate (f, max_per_second);
  return f;
}

void
cs_source_filter_free (CsSourceFilter *f)
{
  if (f == NULL)
    return;
  g_array_unref (f->prefixes);
  g_free (f);
}

void
cs_source_filter_set_max_rate (CsSourceFilter *f, guint max_per_second)
{
  f->max_per_second = max_per_second;
  f->tokens = max_per_second; /* a full second's burst to start */
  f->last_us = 0;
}

guint
cs_source_filter_get_max_rate (CsSourceFilter *f)
{
  return f->max_per_second;
}

gboolean
cs_source_filter_allow (CsSourceFilter *f, const char *cidr, GError **error)
{
  g_autofree char *host = g_strdup (cidr != NULL ? cidr : "");
  char *slash = strchr (host, '/');
  CsPrefix prefix = { 0 };
  guint64 bits;

  if (slash != NULL)
    *slash = '\0';
  if (!cs_addr_parse (&prefix.addr, host))
    goto bad;
  prefix.bits = prefix.addr.family == 4 ? 32 : 128;
  if (slash != NULL)
    {
      if (!g_ascii_string_to_unsigned (slash + 1, 10, 0, prefix.bits, &bits, NULL))
        goto bad;
      prefix.bits = (guint) bits;
    }
  g_array_append_val (f->prefixes, prefix);
  return TRUE;

bad:
  g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS,
               "“%s” is not an address or a prefix (use e.g. 10.0.0.0/8 or 2001:db8::/32)",
               cidr != NULL ? cidr : "");
  return FALSE;
}

guint
cs_source_filter_get_n_prefixes (CsSourceFilter *f)
{
  return f->prefixes->len;
}

static gboolean
cs_prefix_matches (const CsPrefix *p, const CsAddr *a)
{
  guint full = p->bits / 8, rest = p->bits % 8;

  if (p->addr.family != a->family)
    return FALSE;
  if (memcmp (p->addr.bytes, a->bytes, full) != 0)
    return FALSE;
  return rest == 0 || ((p->addr.bytes[full] ^ a->bytes[full]) & (0xff << (8 - rest))) == 0;
}

gboolean
cs_source_filter_allows (CsSourceFilter *f, const CsAddr *addr)
{
  static const guint8 mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
  CsAddr v4;

  if (f->prefixes->len == 0)
    return TRUE;
  /* a dual-stack socket sees IPv4 agents as ::ffff:a.b.c.d */
  if (addr->family == 6 && memcmp (addr->bytes, mapped, 12) == 0)
    {
      cs_addr_set_v4 (&v4, addr->bytes + 12);
      if (cs_source_filter_allows (f, &v4))
        return TRUE;
    }
  for (guint i = 0; i < f->prefixes->len; i++)
    if (cs_prefix_matches (&g_array_index (f->prefixes, CsPrefix, i), addr))
      return TRUE;
  return FALSE;
}

gboolean
cs_source_filter_take (CsSourceFilter *f, gint64 now_us)
{
  if (f->max_per_second == 0)
    return TRUE;
  if (f->last_us != 0 && now_us > f->last_us)
    f->tokens = MIN ((double) f->max_per_second,
                     f->tokens + (double) (now_us - f->last_us) * f->max_per_second / 1e6);
  f->last_us = now_us;
  if (f->tokens < 1.0)
    return FALSE;
  f->tokens -= 1.0;
  return TRUE;
}
