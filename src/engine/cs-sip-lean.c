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

/* Fields by their index in cs_sip_string_fields. */
enum
{
  F_FROM = 4,
  F_FROM_TAG,
  F_FROM_USER,
  F_FROM_DISPLAY,
  F_TO,
  F_TO_TAG,
  F_TO_USER,
  F_TO_DISPLAY,
  F_MALFORMED = 17,
};

/* The donor's field a field may equal besides its own: a request the other way round
 * swaps From and To. */
static guint
swapped_field (guint i)
{
  if (i >= F_FROM && i <= F_FROM_DISPLAY)
    return i + (F_TO - F_FROM);
  if (i >= F_TO && i <= F_TO_DISPLAY)
    return i - (F_TO - F_FROM);
  return i;
}

/* The donor's string equal to text, or NULL. */
static inline const char *
donor_string (const char *const donor_values[CS_SIP_N_STRING_FIELDS], guint i, const char *text)
{
  const char *d = donor_values[i];
  guint j = swapped_field (i);

  if (d != NULL && d[0] == text[0] && strcmp (d, text) == 0)
    return d;
  d = donor_values[j];
  if (j != i && d != NULL && d[0] == text[0] && strcmp (d, text) == 0)
    return d;
  return NULL;
}

/* Where each string goes: a donor's string, or an offset in the message's own text. */
typedef struct
{
  gsize from, size;   /* size with the NUL; 0 until needed for a shared one */
  const char *shared; /* in the donor */
  gsize own;          /* G_MAXSIZE when shared or absent */
  gboolean copied;    /* placed on its own rather than inside another */
} Placement;

CsSipMessage *
cs_sip_message_finish_lean (const CsSipMessage *parsed, CsSipScratch *s, const CsSipLeanText *text,
                            const CsSdp *sdp, gsize sdp_size)
{
  char **fields[CS_SIP_N_STRING_FIELDS];
  const char *donor_values[CS_SIP_N_STRING_FIELDS];
  Placement place[CS_SIP_N_STRING_FIELDS];
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
          && strcmp (slot->msg->call_id, parsed->call_id) == 0
          && cs_sip_lean_bytes (slot->msg) == text->bytes)
        donor = cs_sip_message_ref (slot->msg); /* the new message's reference */
      g_mutex_unlock (&text->share->lock);
    }
  if (donor != NULL)
    {
      cs_sip_string_fields (donor, fields);
      for (guint i = 0; i < CS_SIP_N_STRING_FIELDS; i++)
        donor_values[i] = *fields[i];
    }

  cs_sip_string_fields ((CsSipMessage *) parsed, fields); /* read here, written in msg */
  for (guint i = 0; i < CS_SIP_N_STRING_FIELDS; i++)
    {
      Placement *p = &place[i];
      guintptr at = (guintptr) *fields[i] - (guintptr) s->data;
      const char *str = s->data + at;

      p->from = at;
      p->size = 0;
      p->shared = NULL;
      p->own = G_MAXSIZE;
      p->copied = FALSE;
      if (at >= s->used)
        continue; /* NULL, a constant */
      if (i == F_FROM_TAG || i == F_TO_TAG)
        {
          /* a tag written last is the end of its header's value: it goes with it */
          Placement *q = &place[i == F_FROM_TAG ? F_FROM : F_TO];
          if (q->shared != NULL || q->own != G_MAXSIZE)
            {
              if (q->size == 0)
                q->size = strlen (s->data + q->from) + 1;
              if (at >= q->from && at < q->from + q->size)
                {
                  if (q->shared != NULL)
                    p->shared = q->shared + (at - q->from);
                  else
                    p->own = q->own + (at - q->from);
                  continue;
                }
            }
        }
      if (donor != NULL && i != F_MALFORMED && (p->shared = donor_string (donor_values, i, str)))
        continue;
      p->size = strlen (str) + 1;
      p->own = strings;
      p->copied = TRUE;
      strings += p->size;
    }

  gsize end = sizeof (CsSipMessage) + sizeof (CsSipLeanTail) + kept_body + 1 + strings;
  gsize sdp_at = (end + 7) & ~(gsize) 7;
  CsSipMessage *msg = cs_slab_alloc (sdp_size > 0 ? sdp_at + sdp_size : end);
  CsSipLeanTail *tail = (CsSipLeanTail *) (msg + 1);
  char *body_copy = (char *) (tail + 1);
  char *own = body_copy + kept_body + 1;

  *msg = *parsed;
  cs_sip_string_fields (msg, fields);
  for (guint i = 0; i < CS_SIP_N_STRING_FIELDS; i++)
    {
      const Placement *p = &place[i];
      if (p->shared != NULL)
        *fields[i] = (char *) p->shared;
      else if (p->own != G_MAXSIZE)
        {
          *fields[i] = own + p->own;
          if (p->copied) /* one inside it comes along */
            memcpy (own + p->own, s->data + p->from, p->size);
        }
    }
  /* the donor's text is in the same bytes: it holds them for both */
  tail->owner = donor != NULL ? (guintptr) donor | 1 : (guintptr) cs_mapped_bytes_ref (text->bytes);
  if (kept_body > 0)
    memcpy (body_copy, text->body, kept_body);
  body_copy[kept_body] = '\0';
  msg->offset = text->offset;
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
