/* cs-flow-key.h — a one-way flow (source and destination endpoints) as a hash table key, for
 * the export's RTCP flows and the redactor's TCP directions (export/ only) */
#pragma once

#include "base/cs-addr.h"

typedef struct
{
  CsEndpoint src, dst;
} CsFlowKey;

static inline guint
cs_flow_key_hash (gconstpointer p)
{
  const CsFlowKey *k = p;

  return cs_endpoint_hash (&k->src) * 31u + cs_endpoint_hash (&k->dst);
}

static inline gboolean
cs_flow_key_equal (gconstpointer a, gconstpointer b)
{
  const CsFlowKey *x = a, *y = b;

  return cs_endpoint_equal (&x->src, &y->src) && cs_endpoint_equal (&x->dst, &y->dst);
}
