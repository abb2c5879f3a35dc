/* fuzz-hep.c — HEP v1/v2/v3 decapsulation, and HEP3 encode → decode round trips */
#include "fuzz-common.h"

#include "net/cs-hep.h"
#include "sip/cs-sip-message.h"

#include <string.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsHepPacket hep;
  GError *error = NULL;

  cs_fuzz_init_once ();
  cs_hep_looks_like (data, size);
  memset (&hep, 0, sizeof hep);
  if (!cs_hep_decode (data, size, &hep, &error))
    {
      g_assert (error != NULL);
      g_error_free (error);
      return 0;
    }
  g_assert (hep.payload_len == 0
            || (hep.payload >= data && hep.payload + hep.payload_len <= data + size));
  if (hep.correlation_id != NULL)
    g_assert ((const guint8 *) hep.correlation_id >= data
              && (const guint8 *) hep.correlation_id + hep.correlation_id_len <= data + size);
  if (hep.payload_type == CS_HEP_PROTO_SIP)
    {
      CsSipMessage *msg = cs_sip_message_parse (hep.payload, hep.payload_len, NULL);

      if (msg != NULL)
        cs_sip_message_unref (msg);
    }
  /* What we decoded must survive our own encoder. */
  if (hep.src.addr.family == hep.dst.addr.family)
    {
      GByteArray *encoded = cs_hep3_encode (&hep);

      if (encoded != NULL)
        {
          CsHepPacket again;

          memset (&again, 0, sizeof again);
          g_assert (cs_hep_decode (encoded->data, encoded->len, &again, NULL));
          g_assert (again.payload_len == hep.payload_len);
          g_assert (hep.payload_len == 0
                    || memcmp (again.payload, hep.payload, hep.payload_len) == 0);
          g_byte_array_unref (encoded);
        }
    }
  return 0;
}
