/* cs-redact-headers.c — SIP headers redacted by name: display names and tags in any
 * name-addr list, Via and Call-ID hosts, digest parameters, network and location values,
 * free-text headers; numbers-only headers left alone */
#include "cs-redact-private.h"

#include <string.h>

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

      if (p > s && cs_redact_is_token_byte (x->t[p - 1]))
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
      q = cs_redact_skip_space (x->t, e, q + 1);
      if (q < e && x->t[q] == '"')
        {
          vs = q + 1;
          ve = cs_redact_skip_until (x->t, e, vs, "\"\r\n");
        }
      else
        {
          vs = q;
          ve = cs_redact_skip_until (x->t, e, q, ", \t\r\n;>");
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
          gsize s = cs_redact_skip_space (x->t, p, element), e = p;

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
      gsize proto = cs_redact_skip_until (x->t, ve, cs_redact_skip_space (x->t, ve, p), " \t");
      gsize host = cs_redact_skip_space (x->t, ve, proto);
      gsize end = host;

      if (host < ve && x->t[host] != '[')
        {
          while (end < ve && (g_ascii_isalnum (x->t[end]) || x->t[end] == '.' || x->t[end] == '-'))
            end++;
          cs_redact_text_host (x, host, end);
        }
      p = cs_redact_skip_until (x->t, ve, MAX (end, host), ",");
      p += p < ve;
    }
  cs_each_param (x, vs, ve, hosts, cs_host_or_words);
  cs_each_param (x, vs, ve, branch, cs_via_branch);
  cs_each_param (x, vs, ve, others, cs_via_param);
}

void
cs_redact_call_id_host (CsRedactText *x, gsize vs, gsize ve)
{
  gsize end = cs_redact_skip_until (x->t, ve, vs, " \t\r\n;,");
  gsize at = cs_redact_skip_until (x->t, end, vs, "@");

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
        gsize s = cs_redact_skip_space (x->t, ve, p + 1);
        gsize e = s < ve && x->t[s] == '"' ? cs_redact_skip_until (x->t, ve, ++s, "\"")
                                           : cs_redact_skip_until (x->t, ve, s, ";, \t\r\n");

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
  gsize end = cs_redact_skip_until (x->t, ve, first, "\";, \t\r\n");

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
  gsize agent = cs_redact_skip_space (x->t, ve, cs_redact_skip_until (x->t, ve, vs, " \t"));
  gsize end = cs_redact_skip_until (x->t, ve, agent, " \t:");

  if (agent < end && x->t[agent] != '[')
    cs_redact_text_host (x, agent, end);
}

static void
cs_tags (CsRedactText *x, gsize vs, gsize ve)
{
  static const char *const tags[] = { "tag", "to-tag", "from-tag", NULL };

  cs_each_param (x, vs, ve, tags, cs_redact_text_words);
}

void
cs_redact_header (CsRedactText *x, gsize hs, gsize he, CsRedactMessageHead *head)
{
  gsize n = hs, vs;
  CsHeaderKind kind;

  while (n < he && cs_redact_is_token_byte (x->t[n]))
    n++;
  vs = n;
  while (vs < he && (x->t[vs] == ' ' || x->t[vs] == '\t'))
    vs++;
  if (n == hs || vs >= he || x->t[vs] != ':')
    {
      cs_redact_text_generic (x, hs, he); /* not a header: text */
      return;
    }
  vs = cs_redact_skip_space (x->t, he, vs + 1);
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
    cs_redact_call_id_host (x, vs, he);
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
