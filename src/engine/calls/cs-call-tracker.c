/* cs-call-tracker.c — dialog matching: Call-ID + From-tag, reuse, in-dialog requests */
#include "cs-call-tracker.h"

/* the messages' fields as reads: the merge thread's per-message path (measured) */
#include "sip/cs-sip-message-layout.h"

#include "cs-call-private.h"

#include <string.h>

/* An open-addressed table (linear probing) of calls by key: each slot keeps the key's hash
 * and the newest call created with that key, whose tracker_key holds the key's strings.
 * Keys compare by pointer first: messages of one call mostly share its first message's
 * strings. */
typedef struct
{
  guint64 hash; /* of the key; a slot is free when call is NULL */
  CsCall *call; /* its tracker_key holds the key's strings (16-byte slots: a 100 000-call
                 * capture's tables stay a few MiB, each doubling new pages to fault in) */
} CsCallSlot;

typedef struct
{
  CsCallSlot *slots;
  guint mask; /* n_slots - 1 */
  guint used;
} CsCallTable;

struct _CsCallTracker
{
  GPtrArray *calls;       /* CsCall*, owned, in creation order */
  CsCallTable by_dialog;  /* Call-ID and From-tag → newest call */
  CsCallTable by_call_id; /* Call-ID only → newest call */
  guint max_calls;        /* 0 = no cap */
  guint max_messages_per_call;
  guint64 refused_messages;
  guint64 dropped_messages;
  guint n_created; /* calls numbered so far: numbers go on after evictions */
  guint64 evicted_calls;
};

static const char *
or_empty (const char *s)
{
  return s != NULL ? s : "";
}

static inline gboolean
same_text (const char *a, const char *b)
{
  return a == b || strcmp (or_empty (a), or_empty (b)) == 0;
}

/* Hashes text eight bytes at a time (g_str_hash goes byte by byte; Call-IDs are long). */
static guint64
cs_call_key_text_hash (const char *text)
{
  gsize total = strlen (text), len = total;
  const char *end = text + total;
  guint64 h = 0x9e3779b97f4a7c15ull ^ total;
  guint64 word;

  for (; len >= 8; len -= 8, text += 8)
    {
      memcpy (&word, text, 8);
      h = (h ^ word) * 0xff51afd7ed558ccdull;
      h ^= h >> 29;
    }
  /* the last 1–7 bytes: one load of the last eight when the text is that long */
  word = 0;
  if (len > 0 && total >= 8)
    memcpy (&word, end - 8, 8);
  else if (len >= 4)
    {
      guint32 head, tail;

      /* 4–7 bytes (tags are short): two overlapping words */
      memcpy (&head, text, 4);
      memcpy (&tail, end - 4, 4);
      word = head | (guint64) tail << 32;
    }
  else
    for (gsize i = 0; i < len; i++)
      word |= (guint64) (guint8) text[i] << (8 * i);
  h = (h ^ word) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 32);
}

/* A key for call_id and tag; id_hash is the Call-ID's hash, computed once per message. */
static void
cs_call_key_init (CsCallKey *key, const char *call_id, guint64 id_hash, const char *tag)
{
  key->call_id_hash = id_hash;
  key->tag_hash = cs_call_key_text_hash (or_empty (tag));
  key->call_id = call_id;
  key->tag = tag;
}

static inline guint64
cs_call_key_dialog_hash (const CsCallKey *key)
{
  return (key->call_id_hash ^ (key->tag_hash * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
}

static void
cs_call_table_init (CsCallTable *table)
{
  table->mask = 63;
  table->used = 0;
  table->slots = g_new0 (CsCallSlot, table->mask + 1);
}

/* Where hash starts probing: the high bits, which the multiplications mix best. */
static inline guint
cs_call_table_home (const CsCallTable *table, guint64 hash)
{
  return (guint) (hash >> 32) & table->mask;
}

/* The slot of the call with key (dialog: Call-ID and tag, else Call-ID only), or the free
 * slot where it would go. */
static CsCallSlot *
cs_call_table_find (const CsCallTable *table, guint64 hash, const CsCallKey *key, gboolean dialog)
{
  for (guint i = cs_call_table_home (table, hash);; i = (i + 1) & table->mask)
    {
      CsCallSlot *slot = &table->slots[i];
      const CsCallKey *k;

      if (slot->call == NULL)
        return slot;
      if (slot->hash != hash)
        continue;
      k = &slot->call->tracker_key;
      if ((k->call_id == key->call_id || strcmp (k->call_id, key->call_id) == 0)
          && (!dialog || same_text (k->tag, key->tag)))
        return slot;
    }
}

static void
cs_call_table_put_new (CsCallTable *table, const CsCallSlot *from)
{
  guint i = cs_call_table_home (table, from->hash);

  while (table->slots[i].call != NULL)
    i = (i + 1) & table->mask;
  table->slots[i] = *from;
  table->used++;
}

/* Rebuilds the table at n_slots (a power of two) without the calls in gone (NULL: none). */
static void
cs_call_table_rebuild (CsCallTable *table, guint n_slots, GHashTable *gone)
{
  CsCallSlot *old = table->slots;
  guint old_n = table->mask + 1;

  table->slots = g_new0 (CsCallSlot, n_slots);
  table->mask = n_slots - 1;
  table->used = 0;
  for (guint i = 0; i < old_n; i++)
    if (old[i].call != NULL && (gone == NULL || !g_hash_table_contains (gone, old[i].call)))
      cs_call_table_put_new (table, &old[i]);
  g_free (old);
}

/* The key (inside call) now leads to call, in place of an older call with an equal key. */
static void
cs_call_table_replace (CsCallTable *table, guint64 hash, CsCall *call, gboolean dialog)
{
  CsCallSlot *slot = cs_call_table_find (table, hash, &call->tracker_key, dialog);

  gboolean is_new = slot->call == NULL;

  /* the key now lives in the new call (equal strings) */
  slot->hash = hash;
  slot->call = call;
  if (!is_new)
    return;
  table->used++;
  /* at most half full: probes stay short */
  if (table->used * 2 > table->mask + 1)
    cs_call_table_rebuild (table, (table->mask + 1) * 2, NULL);
}

static CsCall *
cs_call_table_lookup (const CsCallTable *table, const CsCallKey *key, gboolean dialog)
{
  guint64 hash = dialog ? cs_call_key_dialog_hash (key) : key->call_id_hash;

  return cs_call_table_find (table, hash, key, dialog)->call;
}

CsCallTracker *
cs_call_tracker_new (void)
{
  CsCallTracker *tracker = g_new0 (CsCallTracker, 1);

  tracker->calls = g_ptr_array_new_with_free_func (g_object_unref);
  cs_call_table_init (&tracker->by_dialog);
  cs_call_table_init (&tracker->by_call_id);
  return tracker;
}

void
cs_call_tracker_free (CsCallTracker *tracker)
{
  if (tracker == NULL)
    return;
  g_free (tracker->by_dialog.slots);
  g_free (tracker->by_call_id.slots);
  g_ptr_array_unref (tracker->calls);
  g_free (tracker);
}

void
cs_call_tracker_set_limits (CsCallTracker *tracker, guint max_calls, guint max_messages_per_call)
{
  tracker->max_calls = max_calls;
  tracker->max_messages_per_call = max_messages_per_call;
}

guint64
cs_call_tracker_get_refused_messages (CsCallTracker *tracker)
{
  return tracker->refused_messages;
}

guint64
cs_call_tracker_get_dropped_messages (CsCallTracker *tracker)
{
  return tracker->dropped_messages;
}

/* A request that starts something new: an INVITE outside a dialog, or an
 * out-of-dialog non-INVITE request. ACK, CANCEL and BYE never do: a BYE without a
 * To-tag (or with tags the dialog does not know, as broken test tools send) still ends
 * the call of its Call-ID. */
static gboolean
cs_message_starts_dialog (const CsSipMessage *msg)
{
  CsSipMethod method;

  if (!cs_sip_message_is_request (msg) || cs_sip_message_get_to_tag (msg) != NULL)
    return FALSE;
  method = cs_sip_message_get_method (msg);
  return method != CS_SIP_METHOD_ACK && method != CS_SIP_METHOD_CANCEL
         && method != CS_SIP_METHOD_BYE;
}

/* The same Call-ID and From-tag used again for a new INVITE transaction after
 * the earlier call ended is a new call (carrier corpora reuse Call-IDs). */
static gboolean
cs_message_reuses_finished_call (CsCall *call, const CsSipMessage *msg, gboolean starts_invite)
{
  if (!starts_invite)
    return FALSE;
  if (call->method != CS_SIP_METHOD_INVITE)
    return TRUE;
  if (cs_sip_message_get_cseq (msg) == call->initial_cseq
      && g_strcmp0 (cs_sip_message_get_via_branch (msg), call->initial_branch) == 0)
    return FALSE; /* a retransmission of the call's own INVITE */
  if (cs_call_is_auth_challenged (call) && cs_sip_message_get_cseq (msg) > call->initial_cseq)
    return FALSE; /* the same attempt again, now with credentials */
  return cs_call_is_over (call);
}

static CsCall *
cs_call_tracker_create (CsCallTracker *tracker, CsSipMessage *msg, const CsCallKey *from_key)
{
  CsCall *call;

  /* Calls already tracked are kept whole: new ones are refused at the cap. */
  if (tracker->max_calls > 0 && tracker->calls->len >= tracker->max_calls)
    {
      tracker->refused_messages++;
      return NULL;
    }
  call = cs_call_new (++tracker->n_created, msg);
  call->max_messages = tracker->max_messages_per_call;
  g_ptr_array_add (tracker->calls, call);
  /* the keys live in the call: replace swaps in the new call's key with its value */
  call->tracker_key = *from_key; /* the same Call-ID and From-tag, in the call's own strings */
  call->tracker_key.call_id = call->call_id;
  call->tracker_key.tag = call->from_tag;
  cs_call_table_replace (&tracker->by_dialog, cs_call_key_dialog_hash (&call->tracker_key), call,
                         TRUE);
  cs_call_table_replace (&tracker->by_call_id, call->tracker_key.call_id_hash, call, FALSE);
  return call;
}

CsCall *
cs_call_tracker_add (CsCallTracker *tracker, CsSipMessage *msg)
{
  const char *call_id = cs_sip_message_get_call_id (msg);
  const char *to_tag;
  CsCall *call;
  CsCallKey from_key, key;
  guint dropped_before;
  guint64 id_hash;
  gboolean starts, starts_invite; /* a request that starts something new (an INVITE) */

  if (call_id == NULL)
    return NULL;
  id_hash = cs_call_key_text_hash (call_id);
  cs_call_key_init (&from_key, call_id, id_hash, cs_sip_message_get_from_tag (msg));
  key = from_key;
  call = cs_call_table_lookup (&tracker->by_dialog, &key, TRUE);
  /* Requests from the callee carry the caller's tag in To. */
  to_tag = call == NULL ? cs_sip_message_get_to_tag (msg) : NULL;
  if (to_tag != NULL)
    {
      cs_call_key_init (&key, call_id, id_hash, to_tag);
      call = cs_call_table_lookup (&tracker->by_dialog, &key, TRUE);
    }
  starts = cs_message_starts_dialog (msg);
  starts_invite = starts && cs_sip_message_get_method (msg) == CS_SIP_METHOD_INVITE;
  if (call != NULL && cs_message_reuses_finished_call (call, msg, starts_invite))
    call = NULL;
  else if (call == NULL && !starts)
    call = cs_call_table_lookup (&tracker->by_call_id, &key, FALSE);
  if (call == NULL)
    {
      call = cs_call_tracker_create (tracker, msg, &from_key);
      if (call == NULL)
        return NULL;
    }
  else if (starts_invite && cs_call_is_auth_challenged (call)
           && cs_sip_message_get_cseq (msg) > call->initial_cseq)
    cs_call_restart_after_challenge (call, msg);
  dropped_before = call->dropped_messages;
  cs_call_add_message (call, msg);
  tracker->dropped_messages += call->dropped_messages - dropped_before;
  return call;
}

GPtrArray *
cs_call_tracker_finish (CsCallTracker *tracker, gint64 capture_end_ns)
{
  for (guint i = 0; i < tracker->calls->len; i++)
    cs_call_finish (g_ptr_array_index (tracker->calls, i), capture_end_ns);
  return g_ptr_array_ref (tracker->calls);
}

const GPtrArray *
cs_call_tracker_get_calls (CsCallTracker *tracker)
{
  return tracker->calls;
}

guint
cs_call_tracker_get_n_created (CsCallTracker *tracker)
{
  return tracker->n_created;
}

guint64
cs_call_tracker_get_evicted_calls (CsCallTracker *tracker)
{
  return tracker->evicted_calls;
}

guint
cs_call_tracker_evict_finished (CsCallTracker *tracker, gint64 older_than_ns, guint keep_max,
                                GPtrArray *evicted_out)
{
  g_autoptr (GHashTable) gone = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  guint n = tracker->calls->len, kept = 0;

  for (guint i = 0; i < n; i++)
    {
      CsCall *call = g_ptr_array_index (tracker->calls, i);
      guint remaining = n - g_hash_table_size (gone);

      if ((keep_max == 0 || remaining > keep_max) && cs_call_is_over (call)
          && cs_call_get_end_ns (call) < older_than_ns)
        {
          g_hash_table_add (gone, call);
          g_ptr_array_add (order, call);
          continue;
        }
      tracker->calls->pdata[kept++] = call;
    }
  if (order->len == 0)
    return 0;
  /* The evicted calls' references move to evicted_out (or are dropped): shrink without the
   * free func. */
  tracker->calls->len = kept;
  /* keys whose newest call is gone lead nowhere (older calls with the key stay hidden) */
  cs_call_table_rebuild (&tracker->by_dialog, tracker->by_dialog.mask + 1, gone);
  cs_call_table_rebuild (&tracker->by_call_id, tracker->by_call_id.mask + 1, gone);
  tracker->evicted_calls += order->len;
  for (guint i = 0; i < order->len; i++)
    if (evicted_out != NULL)
      g_ptr_array_add (evicted_out, g_ptr_array_index (order, i));
    else
      g_object_unref (g_ptr_array_index (order, i));
  return order->len;
}
