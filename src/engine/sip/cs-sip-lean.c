/* cs-sip-lean.c — SIP messages whose text stays in the mapped capture file: only the
 * decoded strings are kept, and those equal to an earlier message's of the same call
 * (Call-ID, From, To, users, the branch a response shares with its request…) are that
 * message's bytes rather than a copy */
#include "cs-sdp.h"
#include "cs-sip-message-private.h"

#include "base/cs-slab.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Direct-mapped by a hash of the Call-ID: a newer call takes an older one's slot. 65 536 slots
 * keep a donor for each of 20 000 calls started at once (Bconc: 8 192 lost a third of them,
 * 118 -> 106 MiB peak at 1 thread). */
#define SHARE_SLOTS 65536

typedef struct
{
  guint32 hash;
  CsSipMessage *msg; /* a message without a donor, referenced */
} ShareSlot;

/* Decode workers parse through one table at once: lock, look up, ref, unlock. */
struct _CsSipShare
{
  GMutex lock;
  ShareSlot slots[SHARE_SLOTS];
};

CsSipShare *
cs_sip_share_new (void)
{
  CsSipShare *share = g_new0 (CsSipShare, 1);

  g_mutex_init (&share->lock);
  return share;
}

void
cs_sip_share_free (CsSipShare *share)
{
  if (share == NULL)
    return;
  for (guint i = 0; i < SHARE_SLOTS; i++)
    cs_sip_message_unref (share->slots[i].msg);
  g_mutex_clear (&share->lock);
  g_free (share);
}

/* Its length and first and last 8 bytes (hostile Call-IDs only share a slot: the
 * donor is still checked with strcmp). */
static guint32
call_id_hash (const char *call_id)
{
  gsize len = strlen (call_id);
  guint64 head = 0, tail = 0;

  if (G_LIKELY (len >= 16))
    {
      /* the same words as below, without variable-length copies */
      memcpy (&head, call_id, 8);
      memcpy (&tail, call_id + len - 8, 8);
    }
  else
    {
      memcpy (&head, call_id, MIN (len, 8));
      if (len > 8)
        memcpy (&tail, call_id + len - (len - 8), len - 8);
    }
  guint64 h = (head * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) ^ (tail + len);
  h *= G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f);
  return (guint32) (h >> 32);
}

/* The donor's field a field may equal besides its own: a request the other way round
 * swaps From and To. */
static const guint8 swapped_field[CS_SIP_N_FIELDS] = {
  [CS_SIP_FIELD_METHOD_NAME] = CS_SIP_FIELD_METHOD_NAME,
  [CS_SIP_FIELD_REQUEST_URI] = CS_SIP_FIELD_REQUEST_URI,
  [CS_SIP_FIELD_REASON] = CS_SIP_FIELD_REASON,
  [CS_SIP_FIELD_CALL_ID] = CS_SIP_FIELD_CALL_ID,
  [CS_SIP_FIELD_FROM] = CS_SIP_FIELD_TO,
  [CS_SIP_FIELD_FROM_TAG] = CS_SIP_FIELD_TO_TAG,
  [CS_SIP_FIELD_FROM_USER] = CS_SIP_FIELD_TO_USER,
  [CS_SIP_FIELD_FROM_DISPLAY] = CS_SIP_FIELD_TO_DISPLAY,
  [CS_SIP_FIELD_TO] = CS_SIP_FIELD_FROM,
  [CS_SIP_FIELD_TO_TAG] = CS_SIP_FIELD_FROM_TAG,
  [CS_SIP_FIELD_TO_USER] = CS_SIP_FIELD_FROM_USER,
  [CS_SIP_FIELD_TO_DISPLAY] = CS_SIP_FIELD_FROM_DISPLAY,
  [CS_SIP_FIELD_CSEQ_METHOD_NAME] = CS_SIP_FIELD_CSEQ_METHOD_NAME,
  [CS_SIP_FIELD_VIA_BRANCH] = CS_SIP_FIELD_VIA_BRANCH,
  [CS_SIP_FIELD_USER_AGENT] = CS_SIP_FIELD_USER_AGENT,
  [CS_SIP_FIELD_CONTACT] = CS_SIP_FIELD_CONTACT,
  [CS_SIP_FIELD_CONTENT_TYPE] = CS_SIP_FIELD_CONTENT_TYPE,
  [CS_SIP_FIELD_MALFORMED] = CS_SIP_FIELD_MALFORMED,
};

#define FIELD_BIT(f) (1u << CS_SIP_FIELD_##f)
/* Fields only the detail views read: a lean message reads them again from its bytes
 * (cs_sip_message_string_special) rather than keeping a copy. */
#define REREAD_FIELDS                                                                              \
  (FIELD_BIT (REQUEST_URI) | FIELD_BIT (FROM_DISPLAY) | FIELD_BIT (TO_DISPLAY)                     \
   | FIELD_BIT (CONTACT))
#define TAG_FIELDS (FIELD_BIT (FROM_TAG) | FIELD_BIT (TO_TAG))

/* A donor string equal to text: its priv_strings value with CS_SIP_STRING_DONOR. */
static inline gboolean
donor_match (const CsSipMessage *donor, guint at, const char *text)
{
  /* a donor's strings are its own: no special value is shared */
  if (at <= CS_SIP_STRING_SPECIAL)
    return FALSE;
  const char *d = (const char *) donor + at;
  return d[0] == text[0] && strcmp (d, text) == 0;
}

/* The donor's value (with CS_SIP_STRING_DONOR) of a string equal to text, or 0. */
static inline guint
donor_string (const CsSipMessage *donor, guint i, const char *text)
{
  guint at = donor->priv_strings[i], j = swapped_field[i];

  if (donor_match (donor, at, text))
    return at | CS_SIP_STRING_DONOR;
  at = donor->priv_strings[j];
  if (j != i && donor_match (donor, at, text))
    return at | CS_SIP_STRING_DONOR;
  return 0;
}

#define USER_FIELDS (FIELD_BIT (FROM_USER) | FIELD_BIT (TO_USER))

/* From or To for a field read from it. */
static inline guint
address_field (guint i)
{
  return i <= CS_SIP_FIELD_FROM_DISPLAY ? CS_SIP_FIELD_FROM : CS_SIP_FIELD_TO;
}

/* A user or tag read from a From/To whose value is the donor's (the same text, so the
 * same reading: cs_sip_decode parse_address): the donor's one read from that header,
 * without comparing; 0 when not known so. */
static inline guint
derived_string (const CsSipMessage *donor, guint i, const guint32 *value)
{
  guint w = address_field (i);

  /* value[w] is the donor's or 0: the caller has no own copy of it yet */
  if (value[w] == 0)
    return 0;
  /* the donor's From or To (a request the other way round: its To) */
  guint k = (value[w] & ~CS_SIP_STRING_DONOR) == donor->priv_strings[w] ? i : swapped_field[i];
  guint at = donor->priv_strings[k];
  return at > CS_SIP_STRING_SPECIAL ? at | CS_SIP_STRING_DONOR : 0;
}

/* A tag written last is the end of its header's value (whole, whole_size bytes with
 * the NUL): the tag goes with it, *value (whole's) moves to it. FALSE when it is
 * elsewhere. */
static inline gboolean
tag_inside (const char *tag, const char *whole, gsize whole_size, guint32 *value)
{
  gsize delta = (gsize) (tag - whole);

  if (tag < whole || delta >= whole_size)
    return FALSE;
  *value += (guint32) delta;
  return TRUE;
}

/* Own copies of the fields in mask, laid out from `strings` on: the new end. */
static inline gsize
add_copies (guint32 mask, char *const *fields, const char **copy_from, gsize *copy_size,
            guint32 *value, gsize strings)
{
  for (; mask != 0; mask &= mask - 1)
    {
      guint i = (guint) __builtin_ctz (mask);
      copy_from[i] = fields[i];
      copy_size[i] = strlen (fields[i]) + 1;
      value[i] = (guint32) strings;
      strings += copy_size[i];
    }
  return strings;
}

/* strcmp () == 0 inline, for a few bytes: stops at the first difference or the end. */
static inline gboolean
same_short_text (const char *a, const char *b)
{
  for (; *a == *b; a++, b++)
    if (*a == '\0')
      return TRUE;
  return FALSE;
}

/* A bit per non-NULL field (two pointers per compare where SSE2 is there). */
static inline guint32
fields_present (char *const *fields)
{
  guint32 present = 0;
#if defined(__SSE2__) && GLIB_SIZEOF_VOID_P == 8
  const __m128i zero = _mm_setzero_si128 ();
  guint i = 0;

  G_STATIC_ASSERT (CS_SIP_N_FIELDS % 2 == 0);
#pragma GCC unroll 9
  for (i = 0; i < CS_SIP_N_FIELDS; i += 2)
    {
      __m128i eq = _mm_cmpeq_epi32 (_mm_loadu_si128 ((const __m128i *) (fields + i)), zero);
      /* a pointer is NULL when both its 32-bit halves are */
      eq = _mm_and_si128 (eq, _mm_shuffle_epi32 (eq, _MM_SHUFFLE (2, 3, 0, 1)));
      present |= (guint32) _mm_movemask_pd (_mm_castsi128_pd (eq)) << i;
    }
  return ~present & ((1u << CS_SIP_N_FIELDS) - 1);
#else
#pragma GCC unroll 18
  for (guint i = 0; i < CS_SIP_N_FIELDS; i++)
    present |= (guint32) (fields[i] != NULL) << i;
  return present;
#endif
}

CsSipMessage *
cs_sip_message_finish_lean (const CsSipParsed *parsed, CsSipScratch *s, const CsSipLeanText *text,
                            const CsSdp *sdp, gsize sdp_size)
{
  /* per field: the priv_strings value (own: the offset in the own strings), and for an
   * own copy its text and size with the NUL */
  guint32 value[CS_SIP_N_FIELDS] = { 0 }; /* an absent field's value is 0 */
  const char *copy_from[CS_SIP_N_FIELDS];
  gsize copy_size[CS_SIP_N_FIELDS];
  guint32 present = 0, own_mask = 0, copy_mask = 0;
  gsize strings = 0;
  CsSipMessage *donor = NULL;
  ShareSlot *slot = NULL;
  guint32 hash = 0;

  if (text->share != NULL && parsed->call_id != NULL)
    {
      hash = call_id_hash (parsed->call_id);
      slot = &text->share->slots[hash & (SHARE_SLOTS - 1)];
      g_mutex_lock (&text->share->lock);
      /* the donor holds the bytes for both: they must be the same */
      if (slot->msg != NULL && slot->hash == hash
          && strcmp (cs_sip_message_string_at (slot->msg, CS_SIP_FIELD_CALL_ID), parsed->call_id)
                 == 0
          && cs_sip_lean_bytes (slot->msg) == text->bytes)
        {
          donor = slot->msg;
          g_atomic_ref_count_inc (&donor->ref_count); /* the new message's reference */
        }
      g_mutex_unlock (&text->share->lock);
    }

  char *const *fields = parsed->strings;
  present = fields_present (fields);
  /* one compare for both uses (cs_sip_common_strings[0] is application/sdp) */
  gboolean type_is_sdp = (present & FIELD_BIT (CONTENT_TYPE)) != 0
                         && strcmp (parsed->content_type, cs_sip_common_strings[0]) == 0;
  gboolean body_is_sdp = sdp_size > 0 && type_is_sdp;
  gsize kept_body = body_is_sdp ? 0 : text->body_len;

  guint32 todo = present & ~REREAD_FIELDS;
  if ((todo & FIELD_BIT (METHOD_NAME)) != 0
      && (guintptr) parsed->method_name - (guintptr) s->data >= s->used)
    {
      value[CS_SIP_FIELD_METHOD_NAME] = CS_SIP_STRING_METHOD; /* a known method's spelling */
      todo &= ~FIELD_BIT (METHOD_NAME);
    }
  if ((todo & FIELD_BIT (CSEQ_METHOD_NAME)) != 0 && parsed->cseq_method != CS_SIP_METHOD_UNKNOWN)
    {
      value[CS_SIP_FIELD_CSEQ_METHOD_NAME] = CS_SIP_STRING_CSEQ_METHOD; /* spelled exactly so */
      todo &= ~FIELD_BIT (CSEQ_METHOD_NAME);
    }
  if ((todo & FIELD_BIT (CONTENT_TYPE)) != 0 && type_is_sdp)
    {
      value[CS_SIP_FIELD_CONTENT_TYPE] = CS_SIP_STRING_COMMON;
      todo &= ~FIELD_BIT (CONTENT_TYPE);
    }
  if ((todo & FIELD_BIT (REASON)) != 0)
    {
      for (guint c = 1; c < CS_SIP_N_COMMON_STRINGS; c++)
        if (same_short_text (parsed->reason, cs_sip_common_strings[c]))
          {
            value[CS_SIP_FIELD_REASON] = CS_SIP_STRING_COMMON + c;
            todo &= ~FIELD_BIT (REASON);
            break;
          }
    }
  if (donor != NULL && donor->priv_strings[CS_SIP_FIELD_CALL_ID] > CS_SIP_STRING_SPECIAL)
    {
      /* found by its Call-ID: the same string (unless the donor's is far away) */
      value[CS_SIP_FIELD_CALL_ID] = donor->priv_strings[CS_SIP_FIELD_CALL_ID] | CS_SIP_STRING_DONOR;
      todo &= ~FIELD_BIT (CALL_ID);
    }
  /* tags last: one inside its own copy of the header value goes with it */
  guint32 tags = todo & TAG_FIELDS, copy = 0;
  todo &= ~TAG_FIELDS;
  if (donor != NULL)
    for (guint32 m = todo & ~FIELD_BIT (MALFORMED); m != 0; m &= m - 1)
      {
        guint i = (guint) __builtin_ctz (m);
        if (((USER_FIELDS >> i) & 1 && (value[i] = derived_string (donor, i, value)) != 0)
            || (value[i] = donor_string (donor, i, fields[i])) != 0)
          continue;
        copy |= 1u << i;
      }
  else
    copy = todo;
  copy |= todo & FIELD_BIT (MALFORMED);
  strings = add_copies (copy, fields, copy_from, copy_size, value, strings);
  own_mask = copy_mask = copy;
  copy = 0;
  for (; tags != 0; tags &= tags - 1)
    {
      guint i = (guint) __builtin_ctz (tags);
      guint w = i == CS_SIP_FIELD_FROM_TAG ? CS_SIP_FIELD_FROM : CS_SIP_FIELD_TO;
      if ((own_mask >> w) & 1)
        {
          value[i] = value[w];
          if (tag_inside (fields[i], fields[w], copy_size[w], &value[i]))
            {
              own_mask |= 1u << i;
              continue;
            }
        }
      /* inside a shared one: the donor's tag is the same text */
      if (donor == NULL
          || ((value[i] = (own_mask >> w) & 1 ? 0 : derived_string (donor, i, value)) == 0
              && (value[i] = donor_string (donor, i, fields[i])) == 0))
        copy |= 1u << i;
    }
  strings = add_copies (copy, fields, copy_from, copy_size, value, strings);
  own_mask |= copy;
  copy_mask |= copy;

  /* strings beyond 15 bits of offset need the far table */
  gboolean has_far = sizeof (CsSipMessage) + strings >= CS_SIP_STRING_DONOR;
  gsize strings_at = sizeof (CsSipMessage) + (has_far ? CS_SIP_FAR_TABLE_SIZE : 0);
  gsize body_at = strings_at + strings;
  gsize end = body_at + kept_body + 1;
  gsize sdp_at = (end + 7) & ~(gsize) 7;
  CsSipMessage *msg = cs_slab_alloc (sdp_size > 0 ? sdp_at + sdp_size : end);
  char *own = (char *) msg + strings_at;
  char *body_copy = (char *) msg + body_at;

  cs_sip_message_init_from (msg, parsed);
  for (guint32 m = present & REREAD_FIELDS; m != 0; m &= m - 1)
    value[__builtin_ctz (m)] = CS_SIP_STRING_REREAD;
  /* all at once (own strings are set again below, with their final offsets) */
  for (guint i = 0; i < CS_SIP_N_FIELDS; i++)
    msg->priv_strings[i] = (guint16) value[i];
  for (guint32 m = own_mask; m != 0; m &= m - 1)
    {
      guint i = (guint) __builtin_ctz (m);
      cs_sip_message_set_own_string (msg, i, strings_at + value[i], has_far);
      if ((copy_mask >> i) & 1) /* one inside it comes along */
        memcpy (own + value[i], copy_from[i], copy_size[i]);
    }
  /* the donor's text is in the same bytes: it holds them for both */
  msg->priv_owner
      = donor != NULL ? (guintptr) donor | 1 : (guintptr) cs_mapped_bytes_ref (text->bytes);
  if (kept_body > 0)
    memcpy (body_copy, text->body, kept_body);
  body_copy[kept_body] = '\0';
  msg->offset = text->offset;
  msg->priv_body_at = (guint32) body_at;
  msg->priv_body_len = body_is_sdp ? CS_SIP_BODY_ELSEWHERE : (guint32) kept_body;
  msg->priv_header_offset = text->len;
  msg->priv_n_headers = CS_SIP_LEAN;
  msg->sdp = sdp_size > 0 ? cs_sdp_freeze_to (sdp, (char *) msg + sdp_at) : NULL;
  cs_sip_scratch_trim (s);
  /* only a message without a donor donates: no chain keeps dropped messages alive */
  if (slot != NULL && donor == NULL)
    {
      CsSipMessage *old;

      g_mutex_lock (&text->share->lock);
      old = slot->msg;
      slot->msg = cs_sip_message_ref (msg);
      slot->hash = hash;
      g_mutex_unlock (&text->share->lock);
      cs_sip_message_unref (old);
    }
  return msg;
}
