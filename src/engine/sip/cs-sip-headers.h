/* cs-sip-headers.h — SIP header names (long and compact forms) and value helpers:
 * name-addr (From/To/Contact), URI user part, header parameters, Via branch,
 * Content-Type media type and parameters. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Long form of a header name: "i" → "Call-ID" (compact forms of RFC 3261 §7.3.3 and
 * extensions, case-insensitive); any other name is returned as given. */
const char *cs_sip_header_long_name (const char *name);
/* The constant spelling of a common header name when name (len bytes) is exactly it
 * ("Via", "Call-ID", "i", …), else NULL. Case-sensitive. */
const char *cs_sip_header_known_name (const char *name, gsize len);
/* Header names compare case-insensitively, a compact form equal to its long form. */
gboolean cs_sip_header_name_equal (const char *a, const char *b);

/* Copies n bytes of packet text into a NUL-terminated string that is valid UTF-8:
 * NUL bytes become spaces and invalid sequences U+FFFD, so it can go to a UI as is. */
char *cs_sip_dup_text (const char *text, gsize n);

/* Value of parameter `name` (case-insensitive) in a ";a=b;c=\"d\"" list; quotes are
 * removed. "" for a parameter without value, NULL when absent. Stops at a ',' outside
 * quotes (the next header value). */
char *cs_sip_params_dup_value (const char *params, const char *name);

/* name-addr / addr-spec of From, To, Contact, Refer-To… */
typedef struct
{
  char *display; /* display name, unquoted and unescaped; NULL when none */
  char *uri;     /* "sip:1001@10.0.0.1:5060;transport=udp" (without <>) */
  char *params;  /* header parameters after the address: ";tag=abc;x=y", or NULL */
  char *tag;     /* tag parameter, NULL when absent */
} CsSipNameAddr;

/* FALSE (and *out cleared) when value is not a name-addr or addr-spec: an unterminated
 * quoted string, '<' without '>', or nothing at all. */
gboolean cs_sip_name_addr_parse (const char *value, CsSipNameAddr *out);
void cs_sip_name_addr_clear (CsSipNameAddr *na);

/* User part of a sip:, sips: or tel: URI ("sip:1001:pw@host" → "1001", "tel:+331;x=y" →
 * "+331"), NULL when the URI has no user part or another scheme. */
char *cs_sip_uri_dup_user (const char *uri);

/* branch parameter of the first via-parm of a Via value ("SIP/2.0/UDP h;branch=z9…, …"). */
char *cs_sip_via_dup_branch (const char *via_value);

/* "Application/SDP ; charset=x" → "application/sdp"; NULL when empty. */
char *cs_sip_content_type_dup_media_type (const char *value);
/* Parameter of a Content-Type value, unquoted ("boundary"), NULL when absent. */
char *cs_sip_content_type_dup_param (const char *value, const char *name);

G_END_DECLS
