/* cs-loadtest-legs.h — which leg of a proxied call a message travelled: the client's
 * (UAC ↔ first hop) or the server's (last hop ↔ UAS) */
#pragma once

#include "calls/cs-call.h"

G_BEGIN_DECLS

/* Leg flags of a message; a call without a proxy has one leg that is both. */
enum
{
  CS_LOAD_LEG_CLIENT = 1 << 0,
  CS_LOAD_LEG_SERVER = 1 << 1,
};

typedef struct
{
  CsEndpoint client; /* where the call's first INVITE came from */
  CsEndpoint server; /* where its last forwarded copy went (the UAS) */
  gboolean proxied;  /* the INVITE was seen on more than one leg */
} CsLoadLegs;

/* The legs of a call, from its INVITEs (first copies only). */
void cs_load_legs_find (CsCall *call, CsLoadLegs *legs);
/* CS_LOAD_LEG_* flags of one message (0 on an inner hop of a chain of proxies). */
guint cs_load_legs_of (const CsLoadLegs *legs, const CsSipMessage *msg);

G_END_DECLS
