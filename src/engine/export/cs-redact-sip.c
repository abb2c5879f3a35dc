/* cs-redact-sip.c — SIP messages redacted by their structure: start line, each header by
 * name (cs-redact-headers.c), SDP lines, multipart and other bodies; Content-Length follows
 * the body's new length */
#include "cs-redact-private.h"

#include <string.h>

#include "sip/cs-sip-message.h"

#define CS_REDACT_MAX_BODY_DEPTH 3

/* ---- bodies ---- */

static void cs_body (CsRedactText *x, gsize s, gsize e, gsize ct_s, gsize ct_e, guint depth);

static gboolean
cs_sdp_attribute_is_numbers (const CsRedactText *x, gsize ls, gsize le)
{
  static const char *const numeric[]
      = { "a=rtpmap:", "a=fmtp:",    "a=ptime:",  "a=maxptime:", "a=rtcp:",     "a=framerate:",
          "a=extmap:", "a=rtcp-fb:", "a=crypto:", "a=ice-",      "a=key-mgmt:", "a=fingerprint:" };

  for (guint i = 0; i < G_N_ELEMENTS (numeric); i++)
    if (cs_redact_text_has_prefix (x, ls, le, numeric[i]))
      return TRUE;
  return FALSE;
}

/* The field after `skip` space-separated ones from q: a name where an address may be. */
static void
cs_sdp_host_field (CsRedactText *x, gsize q, gsize le, guint skip)
{
  for (guint field = 0; field < skip && q < le; field++)
    q = cs_redact_skip_until (x->t, le, cs_redact_skip_space (x->t, le, q), " \t");
  q = cs_redact_skip_space (x->t, le, q);
  cs_redact_text_host (x, q, cs_redact_skip_until (x->t, le, q, " \t\r\n/"));
}

static void
cs_sdp_line (CsRedactText *x, gsize ls, gsize le)
{
  gsize v = ls + 2, p, q;

  if (le < ls + 2 || x->t[ls + 1] != '=')
    return;
  switch (x->t[ls])
    {
    case 'o':
      q = cs_redact_skip_until (x->t, le, v, " \t");
      if (!(q == v + 1 && x->t[v] == '-'))
        cs_redact_text_words (x, v, q);
      /* o=user sess-id version IN IP4 address: a name where an address may be */
      cs_sdp_host_field (x, q, le, 4);
      return;
    case 'c':
      cs_sdp_host_field (x, v, le, 2); /* c=IN IP4 address */
      return;
    case 'i':
    case 'u':
    case 'e':
    case 'p':
      cs_redact_text_words (x, v, le);
      return;
    case 's':
      cs_redact_text_learned_words (x, v, le);
      return;
    case 'k':
      p = cs_redact_skip_until (x->t, le, v, ":");
      cs_redact_text_words (x, p < le ? p + 1 : v, le);
      return;
    case 'a':
      if (cs_redact_text_has_prefix (x, ls, le, "a=crypto:"))
        for (p = ls; p < le; p++)
          if (cs_redact_text_has_prefix (x, p, le, "inline:"))
            cs_redact_text_words (x, p + 7, cs_redact_skip_until (x->t, le, p + 7, "| \t\r;"));
      if (cs_redact_text_has_prefix (x, ls, le, "a=key-mgmt:"))
        {
          p = cs_redact_skip_space (x->t, le, cs_redact_skip_until (x->t, le, ls + 11, " \t"));
          cs_redact_text_words (x, p, le);
        }
      if (cs_redact_text_has_prefix (x, ls, le, "a=ice-ufrag:")
          || cs_redact_text_has_prefix (x, ls, le, "a=ice-pwd:"))
        cs_redact_text_words (x, cs_redact_skip_until (x->t, le, ls, ":") + 1, le);
      if (cs_redact_text_has_prefix (x, ls, le, "a=candidate:"))
        {
          /* foundation component transport priority connection-address port …: the
           * foundation is an opaque name (it may repeat a number), the rest are numbers */
          q = ls + 12;
          cs_redact_text_learned_token (x, q, cs_redact_skip_until (x->t, le, q, " \t"));
          cs_sdp_host_field (x, q, le, 4);
          return;
        }
      /* other attributes may name people (a=label, a=ssrc … cname:); payload types, ports
       * and rates are left alone */
      if (cs_redact_text_has_prefix (x, ls, le, "a=ssrc:"))
        cs_redact_text_learned_words (x, cs_redact_skip_until (x->t, le, ls, " "), le);
      else if (!cs_sdp_attribute_is_numbers (x, ls, le))
        cs_redact_text_learned_words (x, cs_redact_skip_until (x->t, le, ls, ":"), le);
      return;
    default:
      return;
    }
}

static void
cs_sdp (CsRedactText *x, gsize s, gsize e)
{
  for (gsize ls = s; ls < e;)
    {
      gsize le = cs_redact_skip_until (x->t, e, ls, "\r\n");

      cs_sdp_line (x, ls, le);
      ls = cs_redact_skip_until (x->t, e, le, "\n");
      ls += ls < e;
    }
  cs_redact_text_addresses (x, s, e);
  cs_redact_text_learned_hosts (x, s, e);
}

/* multipart: each part's headers and body (RFC 2046). */
static void
cs_multipart (CsRedactText *x, gsize s, gsize e, gsize ct_s, gsize ct_e, guint depth)
{
  g_autofree char *delimiter = NULL;
  gsize b, be;

  for (b = ct_s; b < ct_e && !cs_redact_text_has_prefix (x, b, ct_e, "boundary="); b++)
    ;
  if (b >= ct_e)
    {
      cs_redact_text_generic (x, s, e);
      return;
    }
  b += 9;
  if (b < ct_e && x->t[b] == '"')
    b++, be = cs_redact_skip_until (x->t, ct_e, b, "\"");
  else
    be = cs_redact_skip_until (x->t, ct_e, b, "; \t\r\n");
  delimiter = g_strdup_printf ("--%.*s", (int) (be - b), (const char *) x->t + b);
  for (gsize p = s; p < e;)
    {
      const guint8 *found = memmem (x->t + p, e - p, delimiter, strlen (delimiter));
      gsize part = found != NULL ? (gsize) (found - x->t) + strlen (delimiter) : e;
      const guint8 *next_found;
      gsize next, hdr_end, pct_s = 0, pct_e = 0;

      if (found == NULL)
        break;
      part = cs_redact_skip_until (x->t, e, part, "\n");
      part += part < e;
      next_found = memmem (x->t + part, e - part, delimiter, strlen (delimiter));
      next = next_found != NULL ? (gsize) (next_found - x->t) : e;
      /* the part's own headers, up to an empty line */
      hdr_end = part;
      for (gsize ls = part; ls < next;)
        {
          gsize le = cs_redact_skip_until (x->t, next, ls, "\r\n");

          if (le == ls)
            {
              hdr_end = cs_redact_skip_until (x->t, next, le, "\n");
              hdr_end += hdr_end < next;
              break;
            }
          if (cs_redact_text_has_prefix (x, ls, le, "Content-Type:"))
            pct_s = ls + 13, pct_e = le;
          else
            cs_redact_text_generic (x, ls, le);
          ls = cs_redact_skip_until (x->t, next, le, "\n");
          ls += ls < next;
          hdr_end = ls;
        }
      cs_body (x, hdr_end, next, pct_s, pct_e, depth + 1);
      p = next;
    }
}

static gboolean
cs_is_binary (const guint8 *t, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (t[i] == 0 || (t[i] < 0x20 && t[i] != '\r' && t[i] != '\n' && t[i] != '\t'))
      return TRUE;
  return !g_utf8_validate ((const char *) t, (gssize) len, NULL);
}

static void
cs_body (CsRedactText *x, gsize s, gsize e, gsize ct_s, gsize ct_e, guint depth)
{
  gsize type_s = cs_redact_skip_space (x->t, ct_e, ct_s);
  gsize type_e = cs_redact_skip_until (x->t, ct_e, type_s, "; \t\r\n");

  if (e <= s)
    return;
#define CS_TYPE_IS(name) cs_redact_text_has_prefix (x, type_s, type_e, name)
  if (ct_e > ct_s && depth < CS_REDACT_MAX_BODY_DEPTH && CS_TYPE_IS ("multipart/"))
    cs_multipart (x, s, e, ct_s, ct_e, depth);
  else if (CS_TYPE_IS ("application/sdp")
           || (ct_e == ct_s && cs_redact_text_has_prefix (x, s, e, "v=0")))
    cs_sdp (x, s, e);
  else if (CS_TYPE_IS ("application/dtmf"))
    cs_redact_text_generic (x, s, e); /* digits are kept: the DTMF analysis reads them */
  else if (CS_TYPE_IS ("text/plain"))
    {
      /* what people wrote to each other: every word (addresses still by the address map) */
      cs_redact_text_addresses (x, s, e);
      for (gsize p = s; p < e;)
        {
          gsize q = p;

          while (q < e && !x->claimed[q])
            q++;
          cs_redact_text_words (x, p, q);
          while (q < e && x->claimed[q])
            q++;
          p = q;
        }
    }
  else if (cs_is_binary (x->t + s, e - s))
    cs_redact_text_replace (x, s, e, g_malloc0 (e - s), e - s); /* ISUP, QSIG: numbers in BCD */
  else
    cs_redact_text_generic (x, s, e);
#undef CS_TYPE_IS
}

/* ---- messages ---- */

static gssize
cs_edits_delta (const GArray *edits, guint from, gsize s, gsize e)
{
  gssize delta = 0;

  for (guint i = from; i < edits->len; i++)
    {
      const CsRedactEdit *edit = &g_array_index (edits, CsRedactEdit, i);

      if (edit->at >= s && edit->at + edit->len <= e)
        delta += (gssize) edit->text_len - (gssize) edit->len;
    }
  return delta;
}

static gboolean
cs_line_starts_sip (const CsRedactText *x, gsize p, gsize e)
{
  return cs_sip_looks_like (x->t + p, e - p);
}

/* The next line start at or after p that begins a SIP message, else e. */
static gsize
cs_next_message (const CsRedactText *x, gsize p, gsize e)
{
  for (; p < e; p++)
    if ((p == 0 || x->t[p - 1] == '\n') && cs_line_starts_sip (x, p, e))
      return p;
  return e;
}

/* One message at s; returns where the next one may start. */
static gsize
cs_message (CsRedactText *x, gsize s, gsize e)
{
  CsRedactMessageHead head = { 0 };
  gsize line_end = cs_redact_skip_until (x->t, e, s, "\r\n"), p, body, body_end;
  guint first_edit;

  /* start line: URIs in a request, learned words in a reason phrase */
  cs_redact_text_addresses (x, s, line_end);
  cs_redact_text_uris (x, s, line_end);
  if (cs_redact_text_has_prefix (x, s, line_end, "SIP/"))
    cs_redact_text_learned_words (x, cs_redact_skip_until (x->t, line_end, s + 12, " "), line_end);
  p = cs_redact_skip_until (x->t, e, line_end, "\n");
  p += p < e;
  body = e;
  while (p < e)
    {
      gsize le = cs_redact_skip_until (x->t, e, p, "\r\n"), he = le, next;

      if (le == p)
        {
          body = cs_redact_skip_until (x->t, e, le, "\n");
          body += body < e;
          break;
        }
      /* folded continuation lines belong to the header */
      next = cs_redact_skip_until (x->t, e, le, "\n");
      next += next < e;
      while (next < e && (x->t[next] == ' ' || x->t[next] == '\t'))
        {
          he = cs_redact_skip_until (x->t, e, next, "\r\n");
          next = cs_redact_skip_until (x->t, e, he, "\n");
          next += next < e;
        }
      cs_redact_header (x, p, he, &head);
      p = next;
    }
  if (p >= e)
    return e;
  body_end = head.has_cl ? MIN (body + head.cl, e) : cs_next_message (x, body, e);
  first_edit = x->edits->len;
  cs_body (x, body, body_end, head.ct_s, head.ct_e, 0);
  if (head.has_cl && !x->r->observing)
    {
      gssize delta = cs_edits_delta (x->edits, first_edit, body, body_end);

      if (delta != 0)
        {
          gint64 fixed = MAX ((gint64) head.cl + delta, 0);
          char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, fixed);

          cs_redact_text_replace (x, head.cl_s, head.cl_e, digits, strlen (digits));
        }
    }
  return body_end;
}

/* Text outside a well-formed message, line by line: what looks like a header or an SDP line
 * gets that line's rules, the rest the generic ones. */
static void
cs_lines (CsRedactText *x, gsize s, gsize e)
{
  for (gsize ls = s; ls < e;)
    {
      gsize le = cs_redact_skip_until (x->t, e, ls, "\r\n"), n = ls;
      CsRedactMessageHead ignored = { 0 };

      while (n < le && cs_redact_is_token_byte (x->t[n]))
        n++;
      if (le >= ls + 2 && x->t[ls + 1] == '=' && g_ascii_islower (x->t[ls]))
        cs_sdp_line (x, ls, le);
      else if (n > ls && n < le && x->t[n] == ':')
        cs_redact_header (x, ls, le, &ignored);
      cs_redact_text_generic (x, ls, le);
      ls = cs_redact_skip_until (x->t, e, le, "\n");
      ls += ls < e;
    }
}

GByteArray *
cs_redact_sip_text (CsRedactor *r, const guint8 *text, gsize len, GArray **edits)
{
  CsRedactText x;
  GByteArray *out;

  cs_redact_text_init (&x, r, text, len);
  for (gsize p = 0, message_end = 0; p < len;)
    {
      gsize next;

      /* a message starts a line, or right where the previous one's body ended (TCP) */
      if ((p == 0 || p == message_end || text[p - 1] == '\n') && cs_line_starts_sip (&x, p, len))
        next = message_end = cs_message (&x, p, len);
      else
        {
          /* not a start line: text up to the next message (junk after a body, a segment
           * joined mid-message, a damaged start line) */
          next = cs_next_message (&x, p + 1, len);
          cs_lines (&x, p, next);
        }
      p = MAX (next, p + 1);
    }
  out = cs_redact_text_apply (&x);
  if (edits != NULL)
    *edits = g_steal_pointer (&x.edits);
  cs_redact_text_clear (&x);
  return out;
}

GByteArray *
cs_redact_call_id (CsRedactor *r, const guint8 *text, gsize len)
{
  CsRedactText x;
  GByteArray *out;

  cs_redact_text_init (&x, r, text, len);
  cs_redact_text_addresses (&x, 0, len);
  cs_redact_call_id_host (&x, 0, len);
  cs_redact_text_learned_words (&x, 0, len);
  out = cs_redact_text_apply (&x);
  cs_redact_text_clear (&x);
  return out;
}
