/* cs-redact-sip.c — SIP messages redacted by their structure: start line, each header by
 * name (display names, tags, Call-ID hosts, Via hosts, digest parameters…), SDP lines,
 * multipart and other bodies; Content-Length follows the body's new length */
#include "cs-redact-private.h"

#include <string.h>

#include "sip/cs-sip-message.h"

#define CS_REDACT_MAX_BODY_DEPTH 3

typedef enum
{
  CS_HDR_OTHER,    /* display names, tags, URIs, learned names */
  CS_HDR_PROTOCOL, /* numbers and protocol tokens only: nothing to hide, nothing to scan */
  CS_HDR_VIA,
  CS_HDR_CALL_ID,
  CS_HDR_AUTH,
  CS_HDR_CONTENT_LENGTH,
  CS_HDR_CONTENT_TYPE,
  CS_HDR_FREE_TEXT, /* Subject, Organization: every word replaced */
  CS_HDR_HOSTS,     /* P-Visited-Network-ID, P-Charging-Vector: host names as values */
  CS_HDR_LOCATION,  /* P-Access-Network-Info: every parameter value replaced */
  CS_HDR_WARNING,
} CsHeaderKind;

typedef struct
{
  const char *name;
  char compact;
  CsHeaderKind kind;
} CsHeaderRule;

static const CsHeaderRule cs_header_rules[] = {
  { "Via", 'v', CS_HDR_VIA },
  { "Call-ID", 'i', CS_HDR_CALL_ID },
  { "Replaces", 0, CS_HDR_CALL_ID },
  { "Join", 0, CS_HDR_CALL_ID },
  { "In-Reply-To", 0, CS_HDR_CALL_ID },
  { "Target-Dialog", 0, CS_HDR_CALL_ID },
  { "Authorization", 0, CS_HDR_AUTH },
  { "Proxy-Authorization", 0, CS_HDR_AUTH },
  { "WWW-Authenticate", 0, CS_HDR_AUTH },
  { "Proxy-Authenticate", 0, CS_HDR_AUTH },
  { "Authentication-Info", 0, CS_HDR_AUTH },
  { "Content-Length", 'l', CS_HDR_CONTENT_LENGTH },
  { "Content-Type", 'c', CS_HDR_CONTENT_TYPE },
  { "Subject", 's', CS_HDR_FREE_TEXT },
  { "Organization", 0, CS_HDR_FREE_TEXT },
  { "P-Visited-Network-ID", 0, CS_HDR_HOSTS },
  { "P-Charging-Vector", 0, CS_HDR_HOSTS },
  { "P-Charging-Function-Addresses", 0, CS_HDR_HOSTS },
  { "P-Access-Network-Info", 0, CS_HDR_LOCATION },
  { "P-Last-Access-Network-Info", 0, CS_HDR_LOCATION },
  { "Warning", 0, CS_HDR_WARNING },
  { "CSeq", 0, CS_HDR_PROTOCOL },
  { "Max-Forwards", 0, CS_HDR_PROTOCOL },
  { "Expires", 0, CS_HDR_PROTOCOL },
  { "Min-Expires", 0, CS_HDR_PROTOCOL },
  { "Session-Expires", 'x', CS_HDR_PROTOCOL },
  { "Min-SE", 0, CS_HDR_PROTOCOL },
  { "RSeq", 0, CS_HDR_PROTOCOL },
  { "RAck", 0, CS_HDR_PROTOCOL },
  { "Retry-After", 0, CS_HDR_PROTOCOL },
  { "Timestamp", 0, CS_HDR_PROTOCOL },
  { "Allow", 0, CS_HDR_PROTOCOL },
  { "Supported", 'k', CS_HDR_PROTOCOL },
  { "Require", 0, CS_HDR_PROTOCOL },
  { "Proxy-Require", 0, CS_HDR_PROTOCOL },
  { "Unsupported", 0, CS_HDR_PROTOCOL },
  { "Accept", 0, CS_HDR_PROTOCOL },
  { "Accept-Encoding", 0, CS_HDR_PROTOCOL },
  { "Accept-Language", 0, CS_HDR_PROTOCOL },
  { "Content-Encoding", 'e', CS_HDR_PROTOCOL },
  { "Content-Disposition", 0, CS_HDR_PROTOCOL },
  { "Event", 'o', CS_HDR_PROTOCOL },
  { "Allow-Events", 'u', CS_HDR_PROTOCOL },
  { "Privacy", 0, CS_HDR_PROTOCOL },
  { "Priority", 0, CS_HDR_PROTOCOL },
  { "MIME-Version", 0, CS_HDR_PROTOCOL },
};

static gsize
cs_skip_until (const guint8 *t, gsize e, gsize p, const char *stops)
{
  while (p < e && t[p] != '\0' && strchr (stops, t[p]) == NULL)
    p++;
  return p;
}

static gsize
cs_skip_space (const guint8 *t, gsize e, gsize p)
{
  while (p < e && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r' || t[p] == '\n'))
    p++;
  return p;
}

static gboolean
cs_is_token_byte (guint8 c)
{
  return g_ascii_isalnum (c) || strchr ("-.!%*_+`'~", c) != NULL;
}

static CsHeaderKind
cs_header_kind (const guint8 *name, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (cs_header_rules); i++)
    {
      const CsHeaderRule *rule = &cs_header_rules[i];

      if ((strlen (rule->name) == len
           && g_ascii_strncasecmp ((const char *) name, rule->name, len) == 0)
          || (len == 1 && rule->compact != 0 && g_ascii_tolower (name[0]) == rule->compact))
        return rule->kind;
    }
  return CS_HDR_OTHER;
}

/* name=value or name="value" parameters in [s, e): calls back with each value's span. */
static void
cs_each_param (CsRedactText *x, gsize s, gsize e, const char *const *names,
               void (*apply) (CsRedactText *x, gsize vs, gsize ve))
{
  for (gsize p = s; p < e; p++)
    {
      gsize q, vs, ve;
      guint k;

      if (p > s && cs_is_token_byte (x->t[p - 1]))
        continue;
      for (k = 0; names[k] != NULL; k++)
        if (cs_redact_text_has_prefix (x, p, e, names[k]))
          break;
      if (names[k] == NULL)
        continue;
      q = p + strlen (names[k]);
      while (q < e && (x->t[q] == ' ' || x->t[q] == '\t'))
        q++;
      if (q >= e || x->t[q] != '=')
        continue;
      q = cs_skip_space (x->t, e, q + 1);
      if (q < e && x->t[q] == '"')
        {
          vs = q + 1;
          ve = cs_skip_until (x->t, e, vs, "\"\r\n");
        }
      else
        {
          vs = q;
          ve = cs_skip_until (x->t, e, q, ", \t\r\n;>");
        }
      apply (x, vs, ve);
      p = MAX (ve, p + 1) - 1;
    }
}

/* A value that is a host name where it looks like one, a word otherwise. */
static void
cs_host_or_words (CsRedactText *x, gsize vs, gsize ve)
{
  if (memchr (x->t + vs, '.', ve - vs) != NULL)
    cs_redact_text_host (x, vs, ve);
  else
    cs_redact_text_words (x, vs, ve);
}

/* Display names: what precedes each '<' of a name-addr list. */
static void
cs_display_names (CsRedactText *x, gsize vs, gsize ve)
{
  gsize element = vs;
  gboolean quoted = FALSE;
  guint angle = 0;

  for (gsize p = vs; p < ve; p++)
    {
      guint8 c = x->t[p];

      if (quoted)
        {
          if (c == '\\' && p + 1 < ve)
            p++;
          else if (c == '"')
            quoted = FALSE;
          continue;
        }
      if (c == '"' && angle == 0)
        quoted = TRUE;
      else if (c == '<' && angle++ == 0)
        {
          gsize s = cs_skip_space (x->t, p, element), e = p;

          while (e > s && (x->t[e - 1] == ' ' || x->t[e - 1] == '\t'))
            e--;
          if (e > s + 1 && x->t[s] == '"' && x->t[e - 1] == '"')
            s++, e--;
          cs_redact_text_words (x, s, e);
        }
      else if (c == '>' && angle > 0)
        angle--;
      else if (c == ',' && angle == 0)
        element = p + 1;
    }
}

/* A Via parameter other than the ones holding ports, hops and addresses: it may repeat a tag
 * (some agents use one value for both) or name a user (";id=alice"). */
static void
cs_via_param (CsRedactText *x, gsize vs, gsize ve)
{
  cs_redact_text_learned_words (x, vs, ve);
}

/* A branch after RFC 3261's cookie may be the agent's tag again, glued to the cookie. */
static void
cs_via_branch (CsRedactText *x, gsize vs, gsize ve)
{
  if (cs_redact_text_has_prefix (x, vs, ve, "z9hG4bK"))
    cs_redact_text_learned_token (x, vs + 7, ve);
  cs_redact_text_learned_words (x, vs, ve);
}

static void
cs_via (CsRedactText *x, gsize vs, gsize ve)
{
  static const char *const hosts[] = { "received", "maddr", NULL };
  static const char *const branch[] = { "branch", NULL };
  static const char *const others[] = { "id", "alias", "sigcomp-id", NULL };

  /* SIP/2.0/UDP sent-by[:port];params, possibly several, comma separated */
  for (gsize p = vs; p < ve;)
    {
      gsize proto = cs_skip_until (x->t, ve, cs_skip_space (x->t, ve, p), " \t");
      gsize host = cs_skip_space (x->t, ve, proto);
      gsize end = host;

      if (host < ve && x->t[host] != '[')
        {
          while (end < ve && (g_ascii_isalnum (x->t[end]) || x->t[end] == '.' || x->t[end] == '-'))
            end++;
          cs_redact_text_host (x, host, end);
        }
      p = cs_skip_until (x->t, ve, MAX (end, host), ",");
      p += p < ve;
    }
  cs_each_param (x, vs, ve, hosts, cs_host_or_words);
  cs_each_param (x, vs, ve, branch, cs_via_branch);
  cs_each_param (x, vs, ve, others, cs_via_param);
}

static void
cs_call_id_host (CsRedactText *x, gsize vs, gsize ve)
{
  gsize end = cs_skip_until (x->t, ve, vs, " \t\r\n;,");
  gsize at = cs_skip_until (x->t, end, vs, "@");

  if (at < end)
    cs_redact_text_host (x, at + 1, end);
}

static void
cs_auth (CsRedactText *x, gsize vs, gsize ve)
{
  static const char *const secrets[]
      = { "username", "nonce", "cnonce", "response", "opaque", "nextnonce", "rspauth", NULL };
  static const char *const realm[] = { "realm", NULL };

  cs_each_param (x, vs, ve, secrets, cs_redact_text_words);
  cs_each_param (x, vs, ve, realm, cs_host_or_words);
}

static void
cs_location (CsRedactText *x, gsize vs, gsize ve)
{
  /* access-type; param=value…: every value (cell ids, line ids) */
  for (gsize p = vs; p < ve; p++)
    if (x->t[p] == '=')
      {
        gsize s = cs_skip_space (x->t, ve, p + 1);
        gsize e = s < ve && x->t[s] == '"' ? cs_skip_until (x->t, ve, ++s, "\"")
                                           : cs_skip_until (x->t, ve, s, ";, \t\r\n");

        cs_redact_text_words (x, s, e);
        p = MAX (e, p + 1) - 1;
      }
}

static void
cs_hosts_values (CsRedactText *x, gsize vs, gsize ve)
{
  static const char *const params[]
      = { "orig-ioi", "term-ioi", "icid-generated-at", "ccf", "ecf", NULL };
  gsize first = vs < ve && x->t[vs] == '"' ? vs + 1 : vs;
  gsize end = cs_skip_until (x->t, ve, first, "\";, \t\r\n");

  /* P-Visited-Network-ID: a bare network name; the others: parameters */
  if (end < ve ? x->t[end] != '=' : TRUE)
    if (memchr (x->t + first, '=', end - first) == NULL)
      cs_host_or_words (x, first, end);
  cs_each_param (x, vs, ve, params, cs_host_or_words);
}

static void
cs_warning (CsRedactText *x, gsize vs, gsize ve)
{
  /* code SP agent SP "text" */
  gsize agent = cs_skip_space (x->t, ve, cs_skip_until (x->t, ve, vs, " \t"));
  gsize end = cs_skip_until (x->t, ve, agent, " \t:");

  if (agent < end && x->t[agent] != '[')
    cs_redact_text_host (x, agent, end);
}

static void
cs_tags (CsRedactText *x, gsize vs, gsize ve)
{
  static const char *const tags[] = { "tag", "to-tag", "from-tag", NULL };

  cs_each_param (x, vs, ve, tags, cs_redact_text_words);
}

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

static void
cs_sdp_line (CsRedactText *x, gsize ls, gsize le)
{
  gsize v = ls + 2, p, q;

  if (le < ls + 2 || x->t[ls + 1] != '=')
    return;
  switch (x->t[ls])
    {
    case 'o':
      q = cs_skip_until (x->t, le, v, " \t");
      if (!(q == v + 1 && x->t[v] == '-'))
        cs_redact_text_words (x, v, q);
      /* o=user sess-id version IN IP4 address: a name where an address may be */
      for (guint field = 1; field < 5 && q < le; field++)
        q = cs_skip_until (x->t, le, cs_skip_space (x->t, le, q), " \t");
      q = cs_skip_space (x->t, le, q);
      cs_redact_text_host (x, q, cs_skip_until (x->t, le, q, " \t\r\n/"));
      return;
    case 'c':
      q = v;
      for (guint field = 0; field < 2 && q < le; field++)
        q = cs_skip_until (x->t, le, cs_skip_space (x->t, le, q), " \t");
      q = cs_skip_space (x->t, le, q);
      cs_redact_text_host (x, q, cs_skip_until (x->t, le, q, " \t\r\n/"));
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
      p = cs_skip_until (x->t, le, v, ":");
      cs_redact_text_words (x, p < le ? p + 1 : v, le);
      return;
    case 'a':
      if (cs_redact_text_has_prefix (x, ls, le, "a=crypto:"))
        for (p = ls; p < le; p++)
          if (cs_redact_text_has_prefix (x, p, le, "inline:"))
            cs_redact_text_words (x, p + 7, cs_skip_until (x->t, le, p + 7, "| \t\r;"));
      if (cs_redact_text_has_prefix (x, ls, le, "a=key-mgmt:"))
        {
          p = cs_skip_space (x->t, le, cs_skip_until (x->t, le, ls + 11, " \t"));
          cs_redact_text_words (x, p, le);
        }
      if (cs_redact_text_has_prefix (x, ls, le, "a=ice-ufrag:")
          || cs_redact_text_has_prefix (x, ls, le, "a=ice-pwd:"))
        cs_redact_text_words (x, cs_skip_until (x->t, le, ls, ":") + 1, le);
      if (cs_redact_text_has_prefix (x, ls, le, "a=candidate:"))
        {
          /* foundation component transport priority connection-address port …: the
           * foundation is an opaque name (it may repeat a number), the rest are numbers */
          q = ls + 12;
          cs_redact_text_learned_token (x, q, cs_skip_until (x->t, le, q, " \t"));
          for (guint field = 0; field < 4 && q < le; field++)
            q = cs_skip_until (x->t, le, cs_skip_space (x->t, le, q), " \t");
          q = cs_skip_space (x->t, le, q);
          cs_redact_text_host (x, q, cs_skip_until (x->t, le, q, " \t\r\n"));
          return;
        }
      /* other attributes may name people (a=label, a=ssrc … cname:); payload types, ports
       * and rates are left alone */
      if (cs_redact_text_has_prefix (x, ls, le, "a=ssrc:"))
        cs_redact_text_learned_words (x, cs_skip_until (x->t, le, ls, " "), le);
      else if (!cs_sdp_attribute_is_numbers (x, ls, le))
        cs_redact_text_learned_words (x, cs_skip_until (x->t, le, ls, ":"), le);
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
      gsize le = cs_skip_until (x->t, e, ls, "\r\n");

      cs_sdp_line (x, ls, le);
      ls = cs_skip_until (x->t, e, le, "\n");
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
    b++, be = cs_skip_until (x->t, ct_e, b, "\"");
  else
    be = cs_skip_until (x->t, ct_e, b, "; \t\r\n");
  delimiter = g_strdup_printf ("--%.*s", (int) (be - b), (const char *) x->t + b);
  for (gsize p = s; p < e;)
    {
      const guint8 *found = memmem (x->t + p, e - p, delimiter, strlen (delimiter));
      gsize part = found != NULL ? (gsize) (found - x->t) + strlen (delimiter) : e;
      const guint8 *next_found;
      gsize next, hdr_end, pct_s = 0, pct_e = 0;

      if (found == NULL)
        break;
      part = cs_skip_until (x->t, e, part, "\n");
      part += part < e;
      next_found = memmem (x->t + part, e - part, delimiter, strlen (delimiter));
      next = next_found != NULL ? (gsize) (next_found - x->t) : e;
      /* the part's own headers, up to an empty line */
      hdr_end = part;
      for (gsize ls = part; ls < next;)
        {
          gsize le = cs_skip_until (x->t, next, ls, "\r\n");

          if (le == ls)
            {
              hdr_end = cs_skip_until (x->t, next, le, "\n");
              hdr_end += hdr_end < next;
              break;
            }
          if (cs_redact_text_has_prefix (x, ls, le, "Content-Type:"))
            pct_s = ls + 13, pct_e = le;
          else
            cs_redact_text_generic (x, ls, le);
          ls = cs_skip_until (x->t, next, le, "\n");
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
  gsize type_s = cs_skip_space (x->t, ct_e, ct_s);
  gsize type_e = cs_skip_until (x->t, ct_e, type_s, "; \t\r\n");

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

typedef struct
{
  gsize ct_s, ct_e; /* Content-Type value */
  gsize cl_s, cl_e; /* Content-Length digits */
  gboolean has_cl;
  guint64 cl;
} CsMessageHead;

static void
cs_header (CsRedactText *x, gsize hs, gsize he, CsMessageHead *head)
{
  gsize n = hs, vs;
  CsHeaderKind kind;

  while (n < he && cs_is_token_byte (x->t[n]))
    n++;
  vs = n;
  while (vs < he && (x->t[vs] == ' ' || x->t[vs] == '\t'))
    vs++;
  if (n == hs || vs >= he || x->t[vs] != ':')
    {
      cs_redact_text_generic (x, hs, he); /* not a header: text */
      return;
    }
  vs = cs_skip_space (x->t, he, vs + 1);
  kind = cs_header_kind (x->t + hs, n - hs);
  /* an address or a known host name is replaced in any header, even where none belongs */
  cs_redact_text_addresses (x, vs, he);
  cs_redact_text_learned_hosts (x, vs, he);
  switch (kind)
    {
    case CS_HDR_PROTOCOL:
      return;
    case CS_HDR_CONTENT_LENGTH:
      head->cl_s = vs;
      head->cl_e = vs;
      head->cl = 0;
      while (head->cl_e < he && g_ascii_isdigit (x->t[head->cl_e]) && head->cl < G_MAXUINT32)
        head->cl = head->cl * 10 + (x->t[head->cl_e++] - '0');
      head->has_cl = head->cl_e > head->cl_s;
      return;
    case CS_HDR_CONTENT_TYPE:
      head->ct_s = vs;
      head->ct_e = he;
      return;
    case CS_HDR_FREE_TEXT:
      cs_redact_text_words (x, vs, he);
      return;
    default:
      break;
    }
  if (kind == CS_HDR_VIA)
    {
      cs_via (x, vs, he);
      return;
    }
  if (kind == CS_HDR_CALL_ID)
    cs_call_id_host (x, vs, he);
  else if (kind == CS_HDR_AUTH)
    cs_auth (x, vs, he);
  else if (kind == CS_HDR_HOSTS)
    cs_hosts_values (x, vs, he);
  else if (kind == CS_HDR_LOCATION)
    cs_location (x, vs, he);
  else if (kind == CS_HDR_WARNING)
    cs_warning (x, vs, he);
  cs_display_names (x, vs, he);
  cs_tags (x, vs, he);
  cs_redact_text_generic (x, vs, he);
}

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
  CsMessageHead head = { 0 };
  gsize line_end = cs_skip_until (x->t, e, s, "\r\n"), p, body, body_end;
  guint first_edit;

  /* start line: URIs in a request, learned words in a reason phrase */
  cs_redact_text_addresses (x, s, line_end);
  cs_redact_text_uris (x, s, line_end);
  if (cs_redact_text_has_prefix (x, s, line_end, "SIP/"))
    cs_redact_text_learned_words (x, cs_skip_until (x->t, line_end, s + 12, " "), line_end);
  p = cs_skip_until (x->t, e, line_end, "\n");
  p += p < e;
  body = e;
  while (p < e)
    {
      gsize le = cs_skip_until (x->t, e, p, "\r\n"), he = le, next;

      if (le == p)
        {
          body = cs_skip_until (x->t, e, le, "\n");
          body += body < e;
          break;
        }
      /* folded continuation lines belong to the header */
      next = cs_skip_until (x->t, e, le, "\n");
      next += next < e;
      while (next < e && (x->t[next] == ' ' || x->t[next] == '\t'))
        {
          he = cs_skip_until (x->t, e, next, "\r\n");
          next = cs_skip_until (x->t, e, he, "\n");
          next += next < e;
        }
      cs_header (x, p, he, &head);
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
      gsize le = cs_skip_until (x->t, e, ls, "\r\n"), n = ls;
      CsMessageHead ignored = { 0 };

      while (n < le && cs_is_token_byte (x->t[n]))
        n++;
      if (le >= ls + 2 && x->t[ls + 1] == '=' && g_ascii_islower (x->t[ls]))
        cs_sdp_line (x, ls, le);
      else if (n > ls && n < le && x->t[n] == ':')
        cs_header (x, ls, le, &ignored);
      cs_redact_text_generic (x, ls, le);
      ls = cs_skip_until (x->t, e, le, "\n");
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
  cs_call_id_host (&x, 0, len);
  cs_redact_text_learned_words (&x, 0, len);
  out = cs_redact_text_apply (&x);
  cs_redact_text_clear (&x);
  return out;
}
