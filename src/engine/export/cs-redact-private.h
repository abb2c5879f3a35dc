/* cs-redact-private.h — the redactor's state, shared by its frame and text halves */
#pragma once

#include "cs-redact.h"

G_BEGIN_DECLS

struct _CsRedactor
{
  gboolean observing; /* pass 1: record originals, change nothing */
  GRand *rand;
  GHashTable *original_addrs; /* CsAddr* set: every address seen in pass 1 */
  GHashTable *addr_map;       /* CsAddr* original → CsAddr* replacement */
  GHashTable *used_addrs;     /* CsAddr* set of replacements handed out */
  GHashTable *original_users; /* char* set */
  GHashTable *user_map;       /* char* original → char* replacement */
  GHashTable *used_users;     /* char* set of replacements */
  GHashTable *mac_map;        /* guint64* original MAC → guint64* replacement */
};

/* cs-redact.c: text IP tokens call back into the address mapping. */
gboolean cs_redact_addr_is_public (const CsAddr *addr);

G_END_DECLS
