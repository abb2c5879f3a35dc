/* cs-call-list.h — GListModel of CsCall, changed only on its owner's main context */
#pragma once

#include <gio/gio.h>

#include "calls/cs-call.h"

G_BEGIN_DECLS

#define CS_TYPE_CALL_LIST (cs_call_list_get_type ())
G_DECLARE_FINAL_TYPE (CsCallList, cs_call_list, CS, CALL_LIST, GObject)

CsCallList *cs_call_list_new (void);
/* Appends calls (CsCall*) in one items-changed emission. */
void cs_call_list_append_many (CsCallList *self, CsCall *const *calls, guint n);
/* Replaces the calls at [position, position + n) with n others (one items-changed). */
void cs_call_list_replace (CsCallList *self, guint position, CsCall *const *calls, guint n);
/* Call by number (1-based) or Call-ID; NULL if none. */
CsCall *cs_call_list_lookup (CsCallList *self, const char *number_or_call_id);
/* The same by number only (calls are numbered in list order: a scan if not) ... */
CsCall *cs_call_list_lookup_number (CsCallList *self, guint number);
/* ... and by Call-ID only (the first call with it). */
CsCall *cs_call_list_lookup_call_id (CsCallList *self, const char *call_id);

/* How many of the calls are INVITE dialogs (calls proper); the rest are other SIP
 * exchanges (REGISTER, OPTIONS, SUBSCRIBE/NOTIFY, MESSAGE, PUBLISH…). */
guint cs_call_list_get_n_invite_dialogs (CsCallList *self);

/* The calls, borrowed (the list keeps them): for readers on any thread while the list
 * does not change, without a reference per call. */
GPtrArray *cs_call_list_peek_calls (CsCallList *self);

G_END_DECLS
