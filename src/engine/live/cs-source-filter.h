/* cs-source-filter.h — who may send to a listener and how fast: an allow-list of address
 * prefixes and a packets-per-second cap (a token bucket holding one second's worth) */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

typedef struct _CsSourceFilter CsSourceFilter;

/* max_per_second 0: no cap. Without prefixes every source is allowed. */
CsSourceFilter *cs_source_filter_new (guint max_per_second);
void cs_source_filter_free (CsSourceFilter *filter);
/* "10.0.0.0/8", "2001:db8::/32", or one address ("192.0.2.7" is /32, "::1" /128).
 * Errors: CS_LIVE_ERROR_ADDRESS. */
gboolean cs_source_filter_allow (CsSourceFilter *filter, const char *cidr, GError **error);
guint cs_source_filter_get_n_prefixes (CsSourceFilter *filter);
void cs_source_filter_set_max_rate (CsSourceFilter *filter, guint max_per_second);
guint cs_source_filter_get_max_rate (CsSourceFilter *filter);
/* TRUE when addr is in an allowed prefix (IPv4-mapped IPv6 matches as IPv4). */
gboolean cs_source_filter_allows (CsSourceFilter *filter, const CsAddr *addr);
/* One packet's token at now_us (monotonic µs); FALSE when over the cap. Not thread-safe:
 * the listener thread's. */
gboolean cs_source_filter_take (CsSourceFilter *filter, gint64 now_us);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSourceFilter, cs_source_filter_free)

G_END_DECLS
