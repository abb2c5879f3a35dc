/* fuzz-sip.c — SIP message parsing, stream framing, header helpers, multipart bodies */
#include "fuzz-common.h"

#include "sip/cs-sip-headers.h"
#include "sip/cs-sip-message.h"
#include "sip/cs-sip-multipart.h"

#include <string.h>

static void
exercise_header_helpers (const char *value)
{
  CsSipNameAddr na;

  if (cs_sip_name_addr_parse (value, &na))
    {
      g_free (cs_sip_uri_dup_user (na.uri));
      cs_sip_name_addr_clear (&na);
    }
  g_free (cs_sip_uri_dup_user (value));
  g_free (cs_sip_via_dup_branch (value));
  g_free (cs_sip_params_dup_value (value, "tag"));
  g_free (cs_sip_content_type_dup_media_type (value));
  g_free (cs_sip_content_type_dup_param (value, "boundary"));
  cs_sip_header_long_name (value);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsSipMessage *msg;
  gsize framed = 0;
  g_autofree char *text = NULL;

  cs_fuzz_init_once ();
  cs_sip_looks_like (data, size);
  if (cs_sip_message_frame_length (data, size, &framed) == CS_SIP_FRAMING_COMPLETE)
    g_assert (framed <= size);

  msg = cs_sip_message_parse (data, size, NULL);
  if (msg != NULL)
    {
      static const char *const names[]
          = { "Call-ID", "i",          "From",         "To", "Via",
              "v",       "CSeq",       "Content-Type", "c",  "Content-Length",
              "l",       "User-Agent", "Contact",      "m",  "X-Unknown" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          const char *value = cs_sip_message_get_header (msg, names[i]);

          if (value != NULL)
            {
              g_assert (g_utf8_validate (value, -1, NULL));
              exercise_header_helpers (value);
            }
        }
      g_free (cs_sip_message_dup_label (msg));
      if (cs_sip_message_get_call_id (msg) != NULL)
        g_assert (g_utf8_validate (cs_sip_message_get_call_id (msg), -1, NULL));
      cs_sip_message_unref (msg);
    }

  /* The same bytes as a header value and as a multipart body. */
  text = g_strndup ((const char *) data, MIN (size, 4096));
  exercise_header_helpers (text);
  {
    const char *part = NULL;
    gsize part_len = 0;

    if (cs_sip_multipart_find_part ((const char *) data, size, "b1", "application/sdp", &part,
                                    &part_len))
      g_assert (part >= (const char *) data && part + part_len <= (const char *) data + size);
  }
  return 0;
}
