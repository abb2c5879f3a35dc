/* cs-sip-message-private.h — shared by the SIP parser files: start-line checks, header
 * names, span scanners, the parse scratch and the decoded-field step (the message's layout
 * itself: cs-sip-message-layout.h) */
#pragma once

#include "base/cs-mapped-bytes.h"
#include "cs-sip-message-layout.h"

#include <string.h>

G_BEGIN_DECLS

#define SIP_VERSION "SIP/2.0"
#define SIP_VERSION_LEN 7

/* RFC 3261 token characters: 1 in this table */
extern const guint8 cs_sip_token_chars[256];
static inline gboolean
cs_sip_is_token_char (guint8 c)
{
  return cs_sip_token_chars[c] != 0;
}
/* TRUE when the n bytes at p are `lower` (lowercase ASCII) in any case; p has n bytes. */
static inline gboolean
cs_sip_ascii_equal_ci (const char *p, const char *lower, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      guint8 c = (guint8) p[i];
      if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (guint8) lower[i])
        return FALSE;
    }
  return TRUE;
}

/* "SIP/2.0" in any case at p (7 bytes readable) */
static inline gboolean
cs_sip_is_version (const guint8 *p)
{
  /* two overlapping 4-byte words, "SIP/" and "/2.0"; only the three letters are folded
   * to lowercase (| 0x20 maps exactly 'S'/'s' to 's', and so on) */
  static const guint8 lower[4] = { 0x20, 0x20, 0x20, 0 };
  guint32 head, tail, fold;

  memcpy (&head, p, 4);
  memcpy (&tail, p + 3, 4);
  memcpy (&fold, lower, 4);
  return memcmp (&(guint32){ head | fold }, "sip/", 4) == 0 && memcmp (&tail, "/2.0", 4) == 0;
}
/* "SIP/2.0 NNN …" or "TOKEN SP URI SP SIP/2.0" exactly */
gboolean cs_sip_is_strict_start_line (const guint8 *line, gsize n);
/* Length of the first line without its line end; *has_eol tells whether one was found. */
gsize cs_sip_first_line_length (const guint8 *data, gsize len, gboolean *has_eol);
/* Looser than cs_sip_looks_like: what deserves a message with ->malformed rather than
 * NULL (a bad status code, odd spacing, a start line cut by the end of data). */
gboolean cs_sip_starts_like_sip (const guint8 *line, gsize n);

/* Header names agents usually write (cs-sip-headers.c): index of the exact spelling,
 * -1 when name is not one of them; and back. */
int cs_sip_header_known_index (const char *name, gsize len);

/* The table behind it: open addressing on a hash of the name's first 16 bytes (two words,
 * zero past its end) and its length; each slot keeps those words, so a name of up to 16
 * bytes is found with two compares. */
#define CS_SIP_KNOWN_SLOTS 256
typedef struct
{
  guint64 head;     /* first min (len, 8) bytes, zero-padded */
  guint64 tail;     /* bytes 8 to min (len, 16), zero-padded */
  const char *name; /* the constant spelling */
  guint8 len;
  guint8 index; /* index + 1; 0 = empty slot */
} CsSipKnownSlot;
extern CsSipKnownSlot cs_sip_known_slots[CS_SIP_KNOWN_SLOTS];
extern guint64 cs_sip_known_masks[9]; /* the first n bytes of a word set */

static inline guint
cs_sip_known_hash (guint64 head, guint64 tail, gsize len)
{
  /* Fibonacci hashing: the multiply mixes every byte into the top bits */
  return (guint) (((head ^ (tail << 1) ^ len) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 56)
         & (CS_SIP_KNOWN_SLOTS - 1);
}

/* cs_sip_header_known_index when 16 bytes from name may be read (readable >= 16). */
static inline int
cs_sip_header_known_index_at (const char *name, gsize len, gsize readable)
{
  guint64 head, tail;

  /* longer names (and len 0, which wraps) take the general lookup */
  if (len - 1 >= 16 || readable < 16)
    return cs_sip_header_known_index (name, len);
  memcpy (&head, name, 8);
  memcpy (&tail, name + 8, 8);
  head &= cs_sip_known_masks[MIN (len, 8)];
  tail &= cs_sip_known_masks[len > 8 ? len - 8 : 0];
  for (guint h = cs_sip_known_hash (head, tail, len);; h = (h + 1) & (CS_SIP_KNOWN_SLOTS - 1))
    {
      const CsSipKnownSlot *slot = &cs_sip_known_slots[h];
      /* an empty slot has len 0: it never matches */
      if (slot->head == head && slot->tail == tail && slot->len == len)
        return slot->index - 1;
      if (slot->index == 0)
        return -1;
    }
}
/* Builds the table cs_sip_header_known_index reads; call once before it. */
void cs_sip_header_names_init (void);
const char *cs_sip_header_known_by_index (int index);

/* A piece of a NUL-terminated header value; escaped: a quoted string with backslash
 * escapes, to be copied through cs_sip_unescape_quoted. */
typedef struct
{
  const char *start;
  gsize len;
  gboolean escaped;
} CsSipSpan;

/* cs_sip_params_dup_value without the copy: FALSE when absent. */
gboolean cs_sip_params_find (const char *params, const char *name, gsize name_len, CsSipSpan *out);
/* The branch parameter of a Via value's first via-parm (cs_sip_via_dup_branch's rules). */
gboolean cs_sip_via_branch_find (const char *via, CsSipSpan *out);
/* Writes the unescaped span to out (at most span->len bytes); returns its length. */
gsize cs_sip_unescape_quoted (const CsSipSpan *span, char *out);

/* cs_sip_name_addr_parse without copies: the display name (has_display when not empty),
 * the URI (never empty on success) and the tag parameter (has_tag). */
typedef struct
{
  CsSipSpan display, uri, tag;
  gboolean has_display, has_tag;
} CsSipAddrSpans;
gboolean cs_sip_addr_scan (const char *value, CsSipAddrSpans *out);
/* cs_sip_addr_scan and cs_sip_uri_user_span of its URI (*has_user) in one call. */
gboolean cs_sip_addr_scan_user (const char *value, CsSipAddrSpans *out, CsSipSpan *user,
                                gboolean *has_user);
/* TRUE when the n bytes hold no NUL and no byte >= 0x80 (eight at a time). */
gboolean cs_sip_text_is_plain (const char *p, gsize n);
/* cs_sip_uri_dup_user without the copy: FALSE when the URI has no user part. */
gboolean cs_sip_uri_user_span (const char *uri, gsize len, CsSipSpan *out);

/* Parsing (cs-sip-message.c, cs-sip-decode.c): the message's strings collect in a
 * per-thread scratch, copied once into the message's allocation at the end. */
typedef struct
{
  char *data;
  gsize size;
  gsize used;
} CsSipScratch;

/* Only while no pointer into the scratch is held (offsets are fine). */
static inline void
cs_sip_scratch_reserve (CsSipScratch *s, gsize n)
{
  if (s->size - s->used >= n)
    return;
  while (s->size - s->used < n)
    s->size *= 2;
  s->data = g_realloc (s->data, s->size);
}

/* Appends n bytes; the room must have been reserved. Returns the offset. */
static inline gsize
cs_sip_scratch_put (CsSipScratch *s, const char *text, gsize n)
{
  gsize at = s->used;

  g_assert (s->size - s->used >= n);
  memcpy (s->data + at, text, n);
  s->used += n;
  return at;
}

/* A NUL-terminated copy in reserved room. */
static inline char *
cs_sip_scratch_strndup (CsSipScratch *s, const char *text, gsize n)
{
  gsize at = cs_sip_scratch_put (s, text, n);

  s->data[s->used++] = '\0';
  return s->data + at;
}

/* The headers the parser decodes, found by name (long or compact, any case). */
typedef enum
{
  CS_SIP_HID_OTHER,
  CS_SIP_HID_CALL_ID,
  CS_SIP_HID_FROM,
  CS_SIP_HID_TO,
  CS_SIP_HID_CSEQ,
  CS_SIP_HID_VIA,
  CS_SIP_HID_CONTACT,
  CS_SIP_HID_CONTENT_LENGTH,
  CS_SIP_HID_CONTENT_TYPE,
  CS_SIP_HID_USER_AGENT,
  CS_SIP_HID_SERVER,
} CsSipHeaderId;

/* What the header scan records per kept header. */
typedef struct
{
  gsize value; /* offset of the NUL-terminated value in the scratch */
  guint32 len; /* value length */
  guint8 id;   /* CsSipHeaderId */
} CsSipScannedHeader;

/* A message while it is parsed: the decoded strings as pointers into the scratch (or
 * constants), copied at the end into the message's allocation (message_finish, or
 * cs_sip_message_finish_lean) where the message keeps offsets. */
typedef struct
{
  gint64 content_length; /* -1 when absent */
  union
  {
    struct
    {
      char *method_name; /* a known method's constant spelling, or in the scratch */
      char *request_uri;
      char *reason;
      char *call_id;
      char *from, *from_tag, *from_user;
      char *from_display;
      char *to, *to_tag, *to_user;
      char *to_display;
      char *cseq_method_name;
      char *via_branch;
      char *user_agent;
      char *contact;
      char *content_type;
      char *malformed; /* a literal reason, or in the scratch */
    };
    char *strings[CS_SIP_N_FIELDS]; /* the same, in CsSipField order */
  };
  gboolean is_request;
  CsSipMethod method;
  guint status_code;
  guint32 cseq;
  CsSipMethod cseq_method;
  guint16 priv_n_headers;
} CsSipParsed;

G_STATIC_ASSERT (G_STRUCT_OFFSET (CsSipParsed, malformed)
                 == G_STRUCT_OFFSET (CsSipParsed, strings)
                        + CS_SIP_FIELD_MALFORMED * sizeof (char *));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CsSipParsed, to_tag)
                 == G_STRUCT_OFFSET (CsSipParsed, strings) + CS_SIP_FIELD_TO_TAG * sizeof (char *));

/* Special string values (1 .. CS_SIP_STRING_SPECIAL): a known method's spelling (from
 * msg->method or msg->cseq_method), a lean message's field read again from its bytes on
 * request, and a string 32 KiB or more from the struct (FAR: its offset is in the
 * message's far table, CS_SIP_N_FIELDS guint32 right after the struct, present only
 * then). */
#define CS_SIP_STRING_REREAD 3u
#define CS_SIP_STRING_FAR 4u
/* Values that most messages share, kept as CS_SIP_STRING_COMMON + their index. */
#define CS_SIP_STRING_COMMON 5u
#define CS_SIP_N_COMMON_STRINGS 4
extern const char *const cs_sip_common_strings[CS_SIP_N_COMMON_STRINGS];
#define CS_SIP_FAR_TABLE_SIZE (CS_SIP_N_FIELDS * sizeof (guint32))

static inline guint32 *
cs_sip_message_far_table (const CsSipMessage *msg)
{
  return (guint32 *) (msg + 1);
}

/* Sets a string at offset `at` from the message (has_far: the far table is there). */
static inline void
cs_sip_message_set_own_string (CsSipMessage *msg, guint field, gsize at, gboolean has_far)
{
  if (at < CS_SIP_STRING_DONOR)
    msg->priv_strings[field] = (guint16) at;
  else
    {
      g_assert (has_far);
      msg->priv_strings[field] = CS_SIP_STRING_FAR;
      cs_sip_message_far_table (msg)[field] = (guint32) at;
    }
}

/* The compact message's fields that are not strings. */
static inline void
cs_sip_message_init_from (CsSipMessage *msg, const CsSipParsed *parsed)
{
  memset (msg, 0, sizeof *msg);
  g_atomic_ref_count_init (&msg->ref_count);
  msg->content_length = parsed->content_length;
  msg->status_code = parsed->status_code;
  msg->cseq = parsed->cseq;
  msg->priv_n_headers = parsed->priv_n_headers;
  msg->is_request = (guint8) (parsed->is_request != FALSE);
  msg->method = (guint8) parsed->method;
  msg->cseq_method = (guint8) parsed->cseq_method;
}

/* A lean message (cs_sip_message_parse_mapped; priv_n_headers CS_SIP_LEAN): after the
 * struct come its own decoded strings, the body unless it is the SDP (priv_body_len
 * CS_SIP_BODY_ELSEWHERE) and the SDP description. Its text is priv_header_offset bytes
 * at msg->offset in the mapped bytes; priv_headers_view caches a full parse of it.
 * Strings equal to those of an earlier message of the call are that one's, the donor,
 * which then holds the bytes for both (a donor has no donor of its own). */
#define CS_SIP_LEAN G_MAXUINT16
#define CS_SIP_BODY_ELSEWHERE G_MAXUINT32

static inline gboolean
cs_sip_message_is_lean (const CsSipMessage *msg)
{
  return msg->priv_n_headers == CS_SIP_LEAN;
}

/* A lean message's donor, or NULL. */
static inline CsSipMessage *
cs_sip_lean_donor (const CsSipMessage *msg)
{
  guintptr owner = msg->priv_owner;

  return (owner & 1) != 0 ? (CsSipMessage *) (owner & ~(guintptr) 1) : NULL;
}

/* The mapped bytes a lean message's text is in. */
static inline CsMappedBytes *
cs_sip_lean_bytes (const CsSipMessage *msg)
{
  const CsSipMessage *donor = cs_sip_lean_donor (msg);

  return (CsMappedBytes *) (donor != NULL ? donor : msg)->priv_owner;
}

/* A message's own string area starts here, and its offsets stay below 2 GiB: bytes past
 * CS_SIP_MAX_MESSAGE of one message are not read. */
#define CS_SIP_MAX_MESSAGE ((gsize) 1 << 30)

/* a thread keeps at most this much scratch between messages */
#define CS_SIP_SCRATCH_KEEP (256 * 1024)
static inline void
cs_sip_scratch_trim (CsSipScratch *s)
{
  if (s->size > CS_SIP_SCRATCH_KEEP)
    {
      s->size = CS_SIP_SCRATCH_KEEP;
      s->data = g_realloc (s->data, s->size);
    }
}

/* Where a lean message's text is, and its body in it. */
typedef struct
{
  CsMappedBytes *bytes;
  CsSipShare *share; /* or NULL */
  guint64 offset;
  guint32 len;
  const char *body;
  gsize body_len;
} CsSipLeanText;

/* cs-sip-lean.c: the lean message from the parse in *parsed and s. */
CsSipMessage *cs_sip_message_finish_lean (const CsSipParsed *parsed, CsSipScratch *s,
                                          const CsSipLeanText *text, const CsSdp *sdp,
                                          gsize sdp_size);

/* Literal reasons are kept as they are; they outlive every message. */
static inline void
cs_sip_note_malformed (CsSipParsed *msg, const char *reason)
{
  if (msg->malformed == NULL)
    msg->malformed = (char *) reason;
}

/* CsSipHeaderId of a name (known: its cs_sip_header_known_index, or -1). */
void cs_sip_header_ids_init (void);
guint8 cs_sip_header_id (const char *name, gsize len, int known);
extern guint8 cs_sip_known_header_ids[CS_SIP_KNOWN_SLOTS]; /* by known index */
/* Fills the decoded fields from the first header of each kind (values NUL-terminated in
 * the scratch, which must have room for twice their size); returns the raw Content-Type
 * value. */
const char *cs_sip_decode_headers (CsSipParsed *msg, CsSipScratch *s,
                                   const CsSipScannedHeader *headers, guint n);
gboolean cs_sip_parse_content_length (const char *value, gint64 *out);

G_END_DECLS
