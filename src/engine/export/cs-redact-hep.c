/* cs-redact-hep.c — HEP packets inside a capture (agent → collector traffic): the carried
 * packet's addresses and text, the agent's password, node name and MACs, rebuilt with
 * their new lengths */
#include "cs-redact-private.h"

#include <string.h>

#include "net/cs-hep.h"
#include "rtp/cs-rtp.h"

#define HEP3_HEADER 6
#define HEP2_FIXED 8 /* version, length, family, protocol, ports */

/* HEP3 chunk types of vendor 0 (HEP3 rev. 12) whose values are numbers, flags or times. */
static gboolean
cs_hep3_chunk_is_number (guint16 type)
{
  switch (type)
    {
    case 0x0001: /* IP family */
    case 0x0002: /* IP protocol */
    case 0x0007: /* source port */
    case 0x0008: /* destination port */
    case 0x0009: /* seconds */
    case 0x000a: /* microseconds */
    case 0x000b: /* protocol type */
    case 0x000c: /* capture agent id */
    case 0x000d: /* keep-alive timer */
    case 0x0012: /* VLAN */
    case 0x0016: /* Ethernet type */
    case 0x0017: /* TCP flags */
    case 0x0018: /* IP TOS */
    case 0x0020: /* MOS */
    case 0x0021: /* R-factor */
    case 0x0023: /* jitter */
      return TRUE;
    default:
      return FALSE;
    }
}

/* RTCP carried by HEP: SDES items (CNAME often is user@address) keep their length. */
static GByteArray *
cs_redact_hep_rtcp (CsRedactor *r, const guint8 *data, gsize len)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, data, (guint) len);
  cs_redact_rtcp_sdes (r, out->data, out->len);
  return out;
}

static GByteArray *
cs_redact_hep_payload (CsRedactor *r, guint8 proto_type, const guint8 *data, gsize len)
{
  GByteArray *out;

  if (proto_type == CS_HEP_PROTO_RTCP)
    return cs_redact_hep_rtcp (r, data, len);
  if (proto_type == CS_HEP_PROTO_SIP || proto_type == 0)
    return cs_redact_sip_text (r, data, len, NULL);
  /* QoS reports and logs: JSON or text with addresses and Call-IDs */
  out = cs_redact_sip_text (r, data, len, NULL);
  return out;
}

static void
cs_map_addr_bytes (CsRedactor *r, guint8 *value, gsize len)
{
  CsAddr addr, mapped;

  if (len == 4)
    cs_addr_set_v4 (&addr, value);
  else if (len == 16)
    cs_addr_set_v6 (&addr, value);
  else
    return;
  cs_redactor_map_addr (r, &addr, &mapped);
  if (!r->observing)
    memcpy (value, mapped.bytes, len);
}

static GByteArray *
cs_redact_hep3 (CsRedactor *r, const guint8 *data, gsize len)
{
  GByteArray *out = g_byte_array_new ();
  guint8 proto_type = 0;

  /* the protocol type decides how the payload chunk is read: find it first */
  for (gsize pos = HEP3_HEADER; pos + 6 <= len;)
    {
      gsize chunk_len = cs_get_u16 (data + pos + 4);

      if (chunk_len < 6 || pos + chunk_len > len)
        break;
      if (cs_get_u16 (data + pos) == 0 && cs_get_u16 (data + pos + 2) == 0x000b && chunk_len == 7)
        proto_type = data[pos + 6];
      pos += chunk_len;
    }
  g_byte_array_append (out, data, HEP3_HEADER);
  for (gsize pos = HEP3_HEADER; pos < len;)
    {
      guint16 vendor, type;
      gsize chunk_len, value_len;
      const guint8 *value;
      g_autoptr (GByteArray) fresh = NULL;
      guint8 head[6];

      if (pos + 6 > len || (chunk_len = cs_get_u16 (data + pos + 4)) < 6 || pos + chunk_len > len)
        {
          /* a cut or lying chunk: its bytes are kept only with their letters blanked */
          g_autofree char *rest = cs_redact_blank ((const char *) data + pos, len - pos);

          g_byte_array_append (out, (const guint8 *) rest, (guint) (len - pos));
          break;
        }
      vendor = cs_get_u16 (data + pos);
      type = cs_get_u16 (data + pos + 2);
      value = data + pos + 6;
      value_len = chunk_len - 6;
      fresh = g_byte_array_new ();
      g_byte_array_append (fresh, value, (guint) value_len);
      if (vendor == 0 && (type == 0x0003 || type == 0x0004 || type == 0x0005 || type == 0x0006))
        cs_map_addr_bytes (r, fresh->data, fresh->len);
      else if (vendor == 0 && (type == 0x0014 || type == 0x0015) && value_len == 6)
        cs_redact_map_mac (r, fresh->data);
      else if (vendor == 0 && type == 0x000f)
        {
          g_byte_array_unref (fresh);
          fresh = cs_redact_hep_payload (r, proto_type, value, value_len);
        }
      else if (vendor == 0 && type == 0x0011)
        {
          g_byte_array_unref (fresh);
          fresh = cs_redact_call_id (r, value, value_len);
        }
      else if (vendor == 0 && type == 0x0010)
        cs_redact_zero (fresh); /* compressed: unreadable here, so unkept */
      else if (vendor != 0 || !cs_hep3_chunk_is_number (type))
        {
          /* the password (14), the node name, and anything else that may be text */
          g_autofree char *words = cs_redact_map_words (r, (const char *) fresh->data, fresh->len);

          if (!r->observing && fresh->len > 0)
            memcpy (fresh->data, words, fresh->len);
        }
      if (fresh->len + 6 > G_MAXUINT16)
        g_byte_array_set_size (fresh, G_MAXUINT16 - 6);
      cs_put_u16 (head, vendor);
      cs_put_u16 (head + 2, type);
      cs_put_u16 (head + 4, (guint16) (fresh->len + 6));
      g_byte_array_append (out, head, 6);
      g_byte_array_append (out, fresh->data, fresh->len);
      pos += chunk_len;
    }
  cs_put_u16 (out->data + 4, (guint16) MIN (out->len, G_MAXUINT16));
  return out;
}

/* HEP v1/v2: a fixed header with the addresses, then the packet. */
static GByteArray *
cs_redact_hep2 (CsRedactor *r, const guint8 *data, gsize len)
{
  GByteArray *out = g_byte_array_new ();
  gsize header = data[1];
  gsize addr_len = data[2] == 10 ? 16 : 4;
  g_autoptr (GByteArray) payload = NULL;

  g_byte_array_append (out, data, (guint) MIN (header, len));
  if (header < HEP2_FIXED + 2 * addr_len || header > len)
    return out;
  cs_map_addr_bytes (r, out->data + HEP2_FIXED, addr_len);
  cs_map_addr_bytes (r, out->data + HEP2_FIXED + addr_len, addr_len);
  payload = cs_redact_sip_text (r, data + header, len - header, NULL);
  g_byte_array_append (out, payload->data, payload->len);
  return out;
}

GByteArray *
cs_redact_hep (CsRedactor *r, const guint8 *data, gsize len)
{
  if (len >= HEP3_HEADER && memcmp (data, "HEP3", 4) == 0)
    return cs_redact_hep3 (r, data, MIN (len, (gsize) cs_get_u16 (data + 4)));
  return cs_redact_hep2 (r, data, len);
}
