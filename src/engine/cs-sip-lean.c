/* cs-sip-lean.c — SIP messages whose text stays in the mapped capture file: only the
 * decoded strings are kept, and those equal to an earlier message's of the same call
 * (Call-ID, From, To, users, the branch a response shares with its request…) are that
 * message's bytes rather than a copy */
#include "cs-sdp.h"
#include "cs-sip-message-private.h"

#include "cs-slab.h"

#include <string.h>

/* Direct-mapped by a hash of the Call-ID: a newer call takes an older one's slot. */
#define SHARE_SLOTS 8192

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

  memcpy (&head, call_id, MIN (len, 8));
  if (len > 8)
    memcpy (&tail, call_id + len - MIN (len - 8, 8), MIN (len - 8, 8));
  guint64 h = (head * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) ^ (tail + len);
  h *= G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f);
  return (guint32) (h >> 32);
}

/* The donor's field a field may equal besides its own: a request the other way round
 * swaps From and To. */
static inline guint
swapped_field (guint i)
{
  if (i >= CS_SIP_FIELD_FROM && i <= CS_SIP_FIELD_FROM_DISPLAY)
    return i + (CS_SIP_FIELD_TO - CS_SIP_FIELD_FROM);
  if (i >= CS_SIP_FIELD_TO && i <= CS_SIP_FIELD_TO_DISPLAY)
    return i - (CS_SIP_FIELD_TO - CS_SIP_FIELD_FROM);
  return i;
}

/* Fields only the detail views read: a lean message reads them again from its bytes
 * (cs_sip_message_string_special) rather than keeping a copy. */
static inline gboolean
is_reread_field (guint i)
{
  return i == CS_SIP_FIELD_REQUEST_URI || i == CS_SIP_FIELD_FROM_DISPLAY
         || i == CS_SIP_FIELD_TO_DISPLAY || i == CS_SIP_FIELD_CONTACT;
}

/* The donor's offset of a string equal to text (a CS_SIP_STRING_DONOR value), or 0. */
static inline guint
donor_string (const CsSipMessage *donor, guint i, const char *text)
{
  guint j = swapped_field (i);
  guint at = donor->priv_strings[i];

  /* a donor's strings are its own: no special value is shared */
  if (at > CS_SIP_STRING_SPECIAL)
    {
      const char *d = (const char *) donor + at;
      if (d[0] == text[0] && strcmp (d, text) == 0)
        return at | CS_SIP_STRING_DONOR;
    }
  at = donor->priv_strings[j];
  if (j != i && at > CS_SIP_STRING_SPECIAL)
    {
      const char *d = (const char *) donor + at;
      if (d[0] == text[0] && strcmp (d, text) == 0)
        return at | CS_SIP_STRING_DONOR;
    }
  return 0;
}

/* Where each string goes: a value for priv_strings (an own string's offset from the
 * string area until the area is placed), and what to copy there. */
typedef struct
{
  const char *from; /* the text to copy, NULL when none */
  gsize size;       /* with the NUL; 0 until needed */
  guint32 value;
  gboolean own; /* value is an offset in the message's own strings */
} Placement;

CsSipMessage *
cs_sip_message_finish_lean (const CsSipParsed *parsed, CsSipScratch *s, const CsSipLeanText *text,
                            const CsSdp *sdp, gsize sdp_size)
{
  char **fields[CS_SIP_N_FIELDS];
  Placement place[CS_SIP_N_FIELDS];
  gsize strings = 0;
  gboolean body_is_sdp = sdp_size > 0 && strcmp (parsed->content_type, "application/sdp") == 0;
  gsize kept_body = body_is_sdp ? 0 : text->body_len;
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
          && strcmp (cs_sip_message_get_call_id (slot->msg), parsed->call_id) == 0
          && cs_sip_lean_bytes (slot->msg) == text->bytes)
        donor = cs_sip_message_ref (slot->msg); /* the new message's reference */
      g_mutex_unlock (&text->share->lock);
    }

  cs_sip_string_fields ((CsSipParsed *) parsed, fields); /* read only */
  for (guint i = 0; i < CS_SIP_N_FIELDS; i++)
    {
      Placement *p = &place[i];
      const char *str = *fields[i];
      guintptr at = (guintptr) str - (guintptr) s->data;

      p->from = NULL;
      p->size = 0;
      p->own = FALSE;
      if (str == NULL)
        {
          p->value = 0;
          continue;
        }
      if (is_reread_field (i))
        {
          p->value = CS_SIP_STRING_REREAD;
          continue;
        }
      if (at >= s->used && i == CS_SIP_FIELD_METHOD_NAME)
        {
          p->value = CS_SIP_STRING_METHOD; /* a known method's constant spelling */
          continue;
        }
      if (i == CS_SIP_FIELD_CSEQ_METHOD_NAME && parsed->cseq_method != CS_SIP_METHOD_UNKNOWN)
        {
          p->value = CS_SIP_STRING_CSEQ_METHOD; /* spelled exactly as the known method */
          continue;
        }
      if (i == CS_SIP_FIELD_FROM_TAG || i == CS_SIP_FIELD_TO_TAG)
        {
          /* a tag written last is the end of its header's value: it goes with it */
          Placement *q = &place[i == CS_SIP_FIELD_FROM_TAG ? CS_SIP_FIELD_FROM : CS_SIP_FIELD_TO];
          const char *whole
              = *fields[i == CS_SIP_FIELD_FROM_TAG ? CS_SIP_FIELD_FROM : CS_SIP_FIELD_TO];
          if (q->value > CS_SIP_STRING_SPECIAL || q->own)
            {
              if (q->size == 0)
                q->size = strlen (whole) + 1;
              gsize delta = (gsize) (str - whole);
              /* (a donor's string may end beyond what 15 bits reach) */
              if (str >= whole && delta < q->size
                  && (q->own
                      || (q->value & (CS_SIP_STRING_DONOR - 1)) + delta < CS_SIP_STRING_DONOR))
                {
                  p->value = q->value + (guint32) delta;
                  p->own = q->own;
                  continue;
                }
            }
        }
      if (donor != NULL && i != CS_SIP_FIELD_MALFORMED
          && (p->value = donor_string (donor, i, str)) != 0)
        continue;
      p->from = str;
      p->size = strlen (str) + 1;
      p->value = (guint32) strings;
      p->own = TRUE;
      strings += p->size;
    }

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
  for (guint i = 0; i < CS_SIP_N_FIELDS; i++)
    {
      const Placement *p = &place[i];
      if (p->own)
        {
          cs_sip_message_set_own_string (msg, i, strings_at + p->value, has_far);
          if (p->from != NULL) /* one inside it comes along */
            memcpy (own + p->value, p->from, p->size);
        }
      else
        msg->priv_strings[i] = (guint16) p->value;
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
