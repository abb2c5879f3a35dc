/* cs-sip-headers.c — SIP header names and value helpers */
#include "cs-sip-headers.h"

#include "cs-sip-message-private.h"

#include <string.h>

typedef struct
{
  char compact;
  const char *long_name;
} CompactForm;

/* RFC 3261 §7.3.3 plus the compact forms registered by later RFCs. */
static const CompactForm compact_forms[] = {
  { 'a', "Accept-Contact" },
  { 'b', "Referred-By" },
  { 'c', "Content-Type" },
  { 'd', "Request-Disposition" },
  { 'e', "Content-Encoding" },
  { 'f', "From" },
  { 'i', "Call-ID" },
  { 'j', "Reject-Contact" },
  { 'k', "Supported" },
  { 'l', "Content-Length" },
  { 'm', "Contact" },
  { 'o', "Event" },
  { 'r', "Refer-To" },
  { 's', "Subject" },
  { 't', "To" },
  { 'u', "Allow-Events" },
  { 'v', "Via" },
  { 'x', "Session-Expires" },
  { 'y', "Identity" },
};

const char *
cs_sip_header_long_name (const char *name)
{
  if (name == NULL || name[0] == '\0' || name[1] != '\0')
    return name;
  char c = g_ascii_tolower (name[0]);
  for (gsize i = 0; i < G_N_ELEMENTS (compact_forms); i++)
    {
      if (compact_forms[i].compact == c)
        return compact_forms[i].long_name;
    }
  return name;
}

gboolean
cs_sip_header_name_equal (const char *a, const char *b)
{
  if (a == NULL || b == NULL)
    return FALSE;
  return g_ascii_strcasecmp (cs_sip_header_long_name (a), cs_sip_header_long_name (b)) == 0;
}

char *
cs_sip_dup_text (const char *text, gsize n)
{
  gboolean plain = TRUE;

  for (gsize i = 0; i < n; i++)
    {
      guchar c = (guchar) text[i];
      if (c == 0 || c >= 0x80)
        {
          plain = FALSE;
          break;
        }
    }
  if (plain)
    return g_strndup (text, n);

  char *copy = g_malloc (n + 1);
  for (gsize i = 0; i < n; i++)
    copy[i] = text[i] != '\0' ? text[i] : ' ';
  copy[n] = '\0';
  if (g_utf8_validate_len (copy, n, NULL))
    return copy;
  char *valid = g_utf8_make_valid (copy, (gssize) n);
  g_free (copy);
  return valid;
}

static const char *
skip_lws (const char *p)
{
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
    p++;
  return p;
}

static char *
dup_trimmed (const char *start, const char *end)
{
  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  return g_strndup (start, (gsize) (end - start));
}

/* p at '"': appends the unescaped content to out (when not NULL) and returns the byte
 * after the closing quote, or NULL when the string is not terminated. */
static const char *
parse_quoted (const char *p, GString *out)
{
  p++;
  while (*p != '\0')
    {
      if (*p == '"')
        return p + 1;
      if (*p == '\\' && p[1] != '\0')
        p++;
      if (out != NULL)
        g_string_append_c (out, *p);
      p++;
    }
  return NULL;
}

char *
cs_sip_params_dup_value (const char *params, const char *name)
{
  gsize name_len;
  const char *p = params;

  if (params == NULL || name == NULL)
    return NULL;
  name_len = strlen (name);
  while (*p != '\0')
    {
      while (*p == ';' || g_ascii_isspace (*p))
        p++;
      if (*p == '\0' || *p == ',')
        break;

      const char *name_start = p;
      while (*p != '\0' && *p != '=' && *p != ';' && *p != ',' && !g_ascii_isspace (*p))
        p++;
      gboolean match = (gsize) (p - name_start) == name_len
                       && g_ascii_strncasecmp (name_start, name, name_len) == 0;
      p = skip_lws (p);

      if (*p == '=')
        {
          p = skip_lws (p + 1);
          if (*p == '"')
            {
              GString *value = match ? g_string_new (NULL) : NULL;
              const char *after = parse_quoted (p, value);
              if (match)
                return g_string_free (value, FALSE);
              if (after == NULL)
                return NULL;
              p = after;
            }
          else
            {
              const char *value_start = p;
              while (*p != '\0' && *p != ';' && *p != ',')
                p++;
              if (match)
                return dup_trimmed (value_start, p);
            }
        }
      else if (match)
        return g_strdup ("");

      /* skip anything unexpected up to the next parameter */
      while (*p != '\0' && *p != ';' && *p != ',')
        p++;
    }
  return NULL;
}

void
cs_sip_name_addr_clear (CsSipNameAddr *na)
{
  g_clear_pointer (&na->display, g_free);
  g_clear_pointer (&na->uri, g_free);
  g_clear_pointer (&na->params, g_free);
  g_clear_pointer (&na->tag, g_free);
}

gboolean
cs_sip_name_addr_parse (const char *value, CsSipNameAddr *out)
{
  const char *p, *lt = NULL, *params;

  memset (out, 0, sizeof *out);
  if (value == NULL)
    return FALSE;
  p = skip_lws (value);
  if (*p == '\0')
    return FALSE;

  if (*p == '"')
    {
      GString *display = g_string_new (NULL);
      const char *after = parse_quoted (p, display);
      if (after == NULL)
        {
          g_string_free (display, TRUE);
          return FALSE;
        }
      out->display = g_string_free (display, FALSE);
      p = skip_lws (after);
      if (*p != '<')
        {
          cs_sip_name_addr_clear (out);
          return FALSE;
        }
      lt = p;
    }
  else
    {
      /* an unquoted display name is tokens, so a ';' before any '<' means addr-spec */
      const char *first_lt = strchr (p, '<');
      const char *first_semi = strchr (p, ';');
      if (first_lt != NULL && (first_semi == NULL || first_lt < first_semi))
        {
          lt = first_lt;
          if (lt > p)
            out->display = dup_trimmed (p, lt);
        }
    }

  if (lt != NULL)
    {
      const char *gt = strchr (lt + 1, '>');
      if (gt == NULL)
        {
          cs_sip_name_addr_clear (out);
          return FALSE;
        }
      out->uri = dup_trimmed (lt + 1, gt);
      params = gt + 1;
    }
  else
    {
      const char *end = p;
      while (*end != '\0' && *end != ';' && *end != ',')
        end++;
      out->uri = dup_trimmed (p, end);
      params = end;
    }

  if (out->display != NULL && out->display[0] == '\0')
    g_clear_pointer (&out->display, g_free);
  params = skip_lws (params);
  if (*params != '\0')
    {
      out->params = dup_trimmed (params, params + strlen (params));
      out->tag = cs_sip_params_dup_value (out->params, "tag");
    }
  if (out->uri[0] == '\0')
    {
      cs_sip_name_addr_clear (out);
      return FALSE;
    }
  return TRUE;
}

char *
cs_sip_uri_dup_user (const char *uri)
{
  const char *p, *at, *end;

  if (uri == NULL)
    return NULL;
  p = skip_lws (uri);
  if (g_ascii_strncasecmp (p, "tel:", 4) == 0)
    {
      p += 4;
      end = p;
      while (*end != '\0' && *end != ';' && *end != '?' && *end != '>')
        end++;
      return end > p ? g_strndup (p, (gsize) (end - p)) : NULL;
    }
  if (g_ascii_strncasecmp (p, "sips:", 5) == 0)
    p += 5;
  else if (g_ascii_strncasecmp (p, "sip:", 4) == 0)
    p += 4;
  else
    return NULL;

  at = strchr (p, '@');
  if (at == NULL)
    return NULL;
  /* an '@' inside the ?headers part is not the userinfo separator */
  for (const char *q = p; q < at; q++)
    {
      if (*q == '?' || *q == '>')
        return NULL;
    }
  for (end = p; end < at && *end != ':'; end++)
    ;
  return end > p ? g_strndup (p, (gsize) (end - p)) : NULL;
}

char *
cs_sip_via_dup_branch (const char *via_value)
{
  const char *p;

  if (via_value == NULL)
    return NULL;
  for (p = via_value; *p != '\0' && *p != ';' && *p != ','; p++)
    ;
  if (*p != ';')
    return NULL;
  return cs_sip_params_dup_value (p, "branch");
}

char *
cs_sip_content_type_dup_media_type (const char *value)
{
  const char *end;
  char *type, *lower;

  if (value == NULL)
    return NULL;
  end = strchr (value, ';');
  if (end == NULL)
    end = value + strlen (value);
  type = dup_trimmed (value, end);
  if (type[0] == '\0')
    {
      g_free (type);
      return NULL;
    }
  /* "application / sdp" is legal LWS around the slash */
  GString *compact = g_string_sized_new (strlen (type));
  for (const char *q = type; *q != '\0'; q++)
    {
      if (!g_ascii_isspace (*q))
        g_string_append_c (compact, *q);
    }
  g_free (type);
  lower = g_ascii_strdown (compact->str, (gssize) compact->len);
  g_string_free (compact, TRUE);
  return lower;
}

char *
cs_sip_content_type_dup_param (const char *value, const char *name)
{
  const char *semi;

  if (value == NULL)
    return NULL;
  semi = strchr (value, ';');
  return semi != NULL ? cs_sip_params_dup_value (semi, name) : NULL;
}

/* Names as most agents spell them: a header written exactly so can share this constant
 * instead of a copy (names are kept as written, so only exact matches count). */
typedef struct
{
  const char *name;
  gsize len;
} KnownName;

#define KNOWN(n)                                                                                   \
  {                                                                                                \
    n, sizeof (n) - 1                                                                              \
  }
/* clang-format off */
static const KnownName known_names[] = {
  KNOWN ("Via"), KNOWN ("From"), KNOWN ("To"), KNOWN ("Call-ID"), KNOWN ("CSeq"),
  KNOWN ("Contact"), KNOWN ("Max-Forwards"), KNOWN ("Content-Type"),
  KNOWN ("Content-Length"), KNOWN ("User-Agent"), KNOWN ("Server"), KNOWN ("Allow"),
  KNOWN ("Supported"), KNOWN ("Require"), KNOWN ("Record-Route"), KNOWN ("Route"),
  KNOWN ("Expires"), KNOWN ("Session-Expires"), KNOWN ("Min-SE"), KNOWN ("Accept"),
  KNOWN ("Allow-Events"), KNOWN ("Event"), KNOWN ("Subscription-State"), KNOWN ("Date"),
  KNOWN ("Subject"), KNOWN ("Reason"), KNOWN ("Privacy"), KNOWN ("P-Asserted-Identity"),
  KNOWN ("P-Preferred-Identity"), KNOWN ("Remote-Party-ID"), KNOWN ("Diversion"),
  KNOWN ("Authorization"), KNOWN ("WWW-Authenticate"), KNOWN ("Proxy-Authorization"),
  KNOWN ("Proxy-Authenticate"), KNOWN ("Content-Disposition"), KNOWN ("Content-Encoding"),
  KNOWN ("Accept-Language"), KNOWN ("Accept-Encoding"), KNOWN ("Refer-To"),
  KNOWN ("Referred-By"), KNOWN ("Replaces"), KNOWN ("RSeq"), KNOWN ("RAck"),
  KNOWN ("Organization"), KNOWN ("Warning"), KNOWN ("Timestamp"), KNOWN ("Call-Info"),
  KNOWN ("Alert-Info"), KNOWN ("X-Serialnumber"), KNOWN ("v"), KNOWN ("f"), KNOWN ("t"),
  KNOWN ("i"), KNOWN ("m"), KNOWN ("l"), KNOWN ("c"), KNOWN ("k"), KNOWN ("s"),
  KNOWN ("e"), KNOWN ("o"), KNOWN ("u"), KNOWN ("r"), KNOWN ("b"), KNOWN ("x"),
};
/* clang-format on */
#undef KNOWN

CsSipKnownSlot cs_sip_known_slots[CS_SIP_KNOWN_SLOTS];
guint64 cs_sip_known_masks[9];

void
cs_sip_header_names_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (gsize n = 0; n <= 8; n++)
        {
          guint8 bytes[8] = { 0 };
          memset (bytes, 0xff, n);
          memcpy (&cs_sip_known_masks[n], bytes, 8);
        }
      for (gsize i = 0; i < G_N_ELEMENTS (known_names); i++)
        {
          const KnownName *known = &known_names[i];
          guint64 head = 0, tail = 0;

          memcpy (&head, known->name, MIN (known->len, 8));
          if (known->len > 8)
            memcpy (&tail, known->name + 8, MIN (known->len - 8, 8));
          guint h = cs_sip_known_hash (head, tail, known->len);
          while (cs_sip_known_slots[h].index != 0)
            h = (h + 1) & (CS_SIP_KNOWN_SLOTS - 1);
          cs_sip_known_slots[h].head = head;
          cs_sip_known_slots[h].tail = tail;
          cs_sip_known_slots[h].len = (guint8) known->len;
          cs_sip_known_slots[h].index = (guint8) (i + 1);
          cs_sip_known_slots[h].name = known->name;
        }
      g_once_init_leave (&done, 1);
    }
}

int
cs_sip_header_known_index (const char *name, gsize len)
{
  guint64 head = 0, tail = 0;

  if (len == 0 || len > 255)
    return -1;
  memcpy (&head, name, MIN (len, 8));
  if (len > 8)
    memcpy (&tail, name + 8, MIN (len - 8, 8));
  for (guint h = cs_sip_known_hash (head, tail, len);; h = (h + 1) & (CS_SIP_KNOWN_SLOTS - 1))
    {
      const CsSipKnownSlot *slot = &cs_sip_known_slots[h];
      if (slot->index == 0)
        return -1;
      if (slot->len == len && memcmp (slot->name, name, len) == 0)
        return slot->index - 1;
    }
}

const char *
cs_sip_header_known_by_index (int index)
{
  return index >= 0 && index < (int) G_N_ELEMENTS (known_names) ? known_names[index].name : NULL;
}

const char *
cs_sip_header_known_name (const char *name, gsize len)
{
  cs_sip_header_names_init ();
  return cs_sip_header_known_by_index (cs_sip_header_known_index (name, len));
}
