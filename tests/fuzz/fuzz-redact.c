/* fuzz-redact.c — redaction of hostile frames and text: observe, seal, rewrite; nothing reads
 * past its input, every rewritten frame decodes again */
#include "fuzz-common.h"

#include "export/cs-redact.h"
#include "net/cs-decode.h"

#include <string.h>

#define CS_FUZZ_MAX_FRAMES 8

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const guint linktypes[]
      = { CS_LINKTYPE_ETHERNET, CS_LINKTYPE_RAW, CS_LINKTYPE_LINUX_SLL, CS_LINKTYPE_NULL };
  CsRedactor *r;
  const guint8 *frames[CS_FUZZ_MAX_FRAMES];
  gsize lens[CS_FUZZ_MAX_FRAMES];
  guint n = 0;
  guint linktype;

  cs_fuzz_init_once ();
  if (size < 1)
    return 0;
  linktype = linktypes[data[0] % G_N_ELEMENTS (linktypes)];
  /* the input as up to eight frames, cut at 0xff 0xff (the same flow reassembled: TCP,
   * fragments), each an exact-size copy so a read past it is caught */
  for (gsize start = 1, p = 1; p <= size && n < CS_FUZZ_MAX_FRAMES; p++)
    if (p == size || (p + 1 < size && data[p] == 0xff && data[p + 1] == 0xff))
      {
        frames[n] = g_memdup2 (data + start, p - start);
        lens[n++] = p - start;
        start = p + 2;
        p++;
      }
  r = cs_redactor_new ();
  for (guint i = 0; i < n; i++)
    cs_redactor_observe_frame (r, i + 1, linktype, frames[i], lens[i]);
  cs_redactor_observe_sip (r, (const char *) data, size);
  if (cs_redactor_seal (r, NULL))
    {
      for (guint i = 0; i < n; i++)
        {
          gsize origlen = lens[i];
          GByteArray *out
              = cs_redactor_rewrite_frame (r, i + 1, linktype, frames[i], lens[i], &origlen);
          CsPacket pkt;

          g_assert (out != NULL && origlen >= out->len);
          /* what the redactor wrote must decode without a read past its end */
          cs_decode_frame (linktype, out->data, out->len, &pkt);
          g_byte_array_unref (out);
        }
      g_byte_array_unref (cs_redactor_rewrite_sip (r, (const char *) data, size));
    }
  cs_redactor_free (r);
  for (guint i = 0; i < n; i++)
    g_free ((gpointer) frames[i]);
  return 0;
}
