/* cs-redact-private.h — the redactor's state, shared by its mapping, text, frame and stream
 * halves (export/ only) */
#pragma once

#include "cs-redact.h"

#include <string.h>

G_BEGIN_DECLS

struct _CsRedactor
{
  gboolean observing; /* pass 1: record originals, change nothing */
  gboolean sealed;    /* the address replacements are fixed (cs_redactor_seal) */
  GRand *rand;

  /* addresses */
  GHashTable *original_addrs; /* CsAddr* set: every address seen in pass 1 */
  GPtrArray *addr_order;      /* the same addresses (borrowed), in order of first sight */
  GHashTable *addr_map;       /* CsAddr* original → CsAddr* replacement */
  GHashTable *used_addrs;     /* CsAddr* set of replacements handed out */
  GHashTable *v6_prefix_map;  /* guint64* original /64 → guint64* replacement /64 */
  GHashTable *v6_site_map;    /* guint64* original /48 → guint16 replacement group, as pointer */

  /* words: user names, numbers, display names, tags, secrets (same length, same classes) */
  GHashTable *original_words; /* char* set */
  GHashTable *word_map;       /* char* original → char* replacement */
  GHashTable *used_words;     /* char* set of replacements */
  GHashTable *learned_words;  /* char* set: words replaced everywhere they occur in text */
  GHashTable *learned_hosts;  /* char* lowercased set: host names replaced wherever they occur */

  /* host names: "h3.d1.example" for "pbx.corp.com" */
  GHashTable *host_map;   /* char* lowercased original → char* replacement */
  GHashTable *domain_map; /* char* lowercased registrable domain → guint index, as pointer */
  guint n_host_names;

  GHashTable *mac_map; /* guint64* original MAC → guint64* replacement */

  /* TCP directions and IP datagrams, rewritten whole at seal time (cs-redact-stream.c) */
  GHashTable *tcp_dirs;     /* CsRedactFlowKey* → CsRedactTcpDir* */
  GHashTable *datagrams;    /* CsRedactDatagramKey* → CsRedactDatagram* */
  GHashTable *frame_pieces; /* frame number → CsRedactPiece*: what pass 2 writes there */

  guint64 n_blanked; /* frames whose text could only be blanked */
};

/* cs-redact-map.c */
typedef enum
{
  CS_ADDR_KEPT,    /* loopback, unspecified, multicast, broadcast: they name nobody */
  CS_ADDR_PRIVATE, /* RFC 1918, shared (100.64/10), link-local, IPv6 ULA and link-local */
  CS_ADDR_PUBLIC,
} CsAddrClass;

CsAddrClass cs_redact_addr_class (const CsAddr *addr);
/* Pass 1: remembers an address. */
void cs_redact_learn_addr (CsRedactor *r, const CsAddr *addr);
/* Pass 1: remembers a word (a user, number, name…) to be replaced wherever it occurs. */
void cs_redact_learn_word (CsRedactor *r, const char *word, gsize len);
/* The replacement host name ("h2.d1.example"); the original when it names nobody
 * ("localhost", example.com and the other RFC 2606 names). */
const char *cs_redact_map_host (CsRedactor *r, const char *host, gsize len);
gboolean cs_redact_host_is_reserved (const char *host, gsize len);
/* Every word of the text (runs of letters, digits and non-ASCII bytes) through the word map,
 * punctuation kept: the same length. */
char *cs_redact_map_words (CsRedactor *r, const char *text, gsize len);
/* Every byte of the text that is a letter or a digit becomes 'x', others are kept. */
char *cs_redact_blank (const char *text, gsize len);
gboolean cs_redact_is_word_byte (guint8 c);
gboolean cs_redact_word_is_learned (CsRedactor *r, const char *word, gsize len);

/* cs-redact-text.c: a text being rewritten: the spans already replaced (claimed) and the
 * edits so far. Rules claim a span once; later rules skip claimed bytes. */
typedef struct
{
  CsRedactor *r;
  const guint8 *t;
  gsize len;
  guint8 *claimed; /* one flag per byte */
  GArray *edits;   /* CsRedactEdit, in the order made */
} CsRedactText;

void cs_redact_text_init (CsRedactText *x, CsRedactor *r, const guint8 *t, gsize len);
void cs_redact_text_clear (CsRedactText *x);
/* The rewritten bytes; x->edits sorted. */
GByteArray *cs_redact_text_apply (CsRedactText *x);
/* Replaces [s, e) with rep (taken), unless a byte of it is claimed. */
gboolean cs_redact_text_replace (CsRedactText *x, gsize s, gsize e, char *rep, gsize rep_len);
/* Claims [s, e) without changing it. */
gboolean cs_redact_text_claim (CsRedactText *x, gsize s, gsize e);
void cs_redact_text_words (CsRedactText *x, gsize s, gsize e);
void cs_redact_text_host (CsRedactText *x, gsize s, gsize e);
/* Every IPv4 and IPv6 literal in [s, e). */
void cs_redact_text_addresses (CsRedactText *x, gsize s, gsize e);
/* sip:, sips:, tel:, mailto:, http(s): URIs in [s, e): user, password and host. */
void cs_redact_text_uris (CsRedactText *x, gsize s, gsize e);
/* Learned host names and words wherever they occur in [s, e) (pass 2). */
void cs_redact_text_learned_hosts (CsRedactText *x, gsize s, gsize e);
void cs_redact_text_learned_words (CsRedactText *x, gsize s, gsize e);
/* [s, e) when it is one learned word (no port guard: an opaque name that may be digits). */
void cs_redact_text_learned_token (CsRedactText *x, gsize s, gsize e);
/* Addresses, URIs and learned names: text with no known structure. */
void cs_redact_text_generic (CsRedactText *x, gsize s, gsize e);
gboolean cs_redact_text_has_prefix (const CsRedactText *x, gsize p, gsize e, const char *prefix);

/* Network-order 16-bit fields of the headers the redactor rebuilds. */
static inline guint16
cs_get_u16 (const guint8 *p)
{
  return (guint16) ((p[0] << 8) | p[1]);
}

static inline void
cs_put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) (v >> 8);
  p[1] = (guint8) v;
}

/* Every byte of a zeroed (an empty array may have no data at all). */
static inline void
cs_redact_zero (GByteArray *a)
{
  if (a->len > 0)
    memset (a->data, 0, a->len);
}

static inline gsize
cs_redact_skip_until (const guint8 *t, gsize e, gsize p, const char *stops)
{
  while (p < e && t[p] != '\0' && strchr (stops, t[p]) == NULL)
    p++;
  return p;
}

static inline gsize
cs_redact_skip_space (const guint8 *t, gsize e, gsize p)
{
  while (p < e && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r' || t[p] == '\n'))
    p++;
  return p;
}

/* RFC 3261 token characters */
static inline gboolean
cs_redact_is_token_byte (guint8 c)
{
  return g_ascii_isalnum (c) || strchr ("-.!%*_+`'~", c) != NULL;
}

/* cs-redact-headers.c: one header line [hs, he) (folded lines included); what a message's
 * body needs from its headers is noted in head. */
typedef struct
{
  gsize ct_s, ct_e; /* Content-Type value */
  gsize cl_s, cl_e; /* Content-Length digits */
  gboolean has_cl;
  guint64 cl;
} CsRedactMessageHead;

void cs_redact_header (CsRedactText *x, gsize hs, gsize he, CsRedactMessageHead *head);
/* The host after '@' in a Call-ID value [vs, ve). */
void cs_redact_call_id_host (CsRedactText *x, gsize vs, gsize ve);

/* cs-redact-sip.c: SIP messages (and runs of them on a TCP stream), SDP and other bodies,
 * rewritten into a new buffer with the edits that made it (for cs-redact-stream.c). */
typedef struct
{
  gsize at, len; /* the original span */
  char *text;    /* its replacement */
  gsize text_len;
} CsRedactEdit;

/* Rewrites (or, observing, learns from) SIP text: one message or several in a row. Returns
 * the new bytes; *edits (may be NULL) gets the CsRedactEdit list, sorted. */
GByteArray *cs_redact_sip_text (CsRedactor *r, const guint8 *text, gsize len, GArray **edits);
/* A Call-ID value alone ("local@host"), as in HEP's correlation chunk. */
GByteArray *cs_redact_call_id (CsRedactor *r, const guint8 *text, gsize len);
/* Where an original offset lands in the rewritten text: offsets inside a replaced span go
 * to the start of its replacement. */
gsize cs_redact_edits_map (const GArray *edits, gsize offset);
void cs_redact_edits_free (GArray *edits);

/* cs-redact-stream.c */
void cs_redact_stream_init (CsRedactor *r);
void cs_redact_stream_clear (CsRedactor *r);
/* Pass 1: keeps a TCP segment's payload or an IP fragment for seal time. */
void cs_redact_stream_observe_tcp (CsRedactor *r, guint32 frame, const CsEndpoint *src,
                                   const CsEndpoint *dst, guint32 seq, const guint8 *payload,
                                   gsize len);
void cs_redact_stream_observe_fragment (CsRedactor *r, guint32 frame, const CsAddr *src,
                                        const CsAddr *dst, guint8 ip_version, guint8 proto,
                                        guint32 id, guint32 offset, gboolean more,
                                        const guint8 *data, gsize len);
/* Seal time: learns from the whole streams and datagrams, then (after the addresses are
 * fixed) rewrites them. */
void cs_redact_stream_learn (CsRedactor *r);
void cs_redact_stream_rewrite (CsRedactor *r);

/* What pass 2 writes in a TCP segment or fragment frame. */
typedef struct
{
  GByteArray *payload; /* the new payload (TCP data, or the fragment's bytes) */
  guint32 seq;         /* TCP: the new sequence number */
  guint32 frag_offset; /* fragments: the new offset in bytes */
} CsRedactPiece;

const CsRedactPiece *cs_redact_stream_piece (CsRedactor *r, guint32 frame);
/* TCP: a sequence number of the src → dst direction moved by what the rewrite of that
 * direction added or removed before it (acknowledgements use the reverse direction). */
guint32 cs_redact_stream_map_seq (CsRedactor *r, const CsEndpoint *src, const CsEndpoint *dst,
                                  guint32 seq);

/* cs-redact-hep.c: a HEP v2/v3 packet rewritten (addresses, payload, keys, names, lengths). */
GByteArray *cs_redact_hep (CsRedactor *r, const guint8 *data, gsize len);

/* cs-redact-frame.c */
/* A MAC address replaced in place by a random locally administered one (group addresses
 * are kept). */
void cs_redact_map_mac (CsRedactor *r, guint8 *mac);
/* RTCP: the text of every SDES item and BYE reason blanked in place (same length). */
void cs_redact_rtcp_sdes (CsRedactor *r, guint8 *data, gsize len);
/* A UDP datagram's payload rewritten by what it carries (SIP, HEP, RTCP, RTP kept, text). */
GByteArray *cs_redact_udp_payload (CsRedactor *r, const guint8 *payload, gsize len);
/* The Internet checksum of a UDP or TCP segment with its pseudo-header. */
guint16 cs_redact_transport_checksum (const guint8 *ip_src, const guint8 *ip_dst, guint addr_len,
                                      guint8 proto, const guint8 *seg, gsize len, gsize field);

G_END_DECLS
