/* fuzz-wiretap.c — files in no format the mapped reader knows go to libwiretap and come back
 * as a pcapng copy: whatever wiretap makes of hostile bytes, the copy must index with every
 * frame inside it (or fail with an error), never crash or hang.
 *
 * Input: the file's bytes (pcap/pcapng magics are bent so the fallback is what runs). */
#include "fuzz-common.h"

#include "capture/cs-capture.h"

#include <string.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree guint8 *copy = NULL;
  CsCapture *capture;
  GError *error = NULL;

  cs_fuzz_init_once ();
  if (size < 4)
    return 0;
  copy = g_memdup2 (data, size);
  /* a pcap or pcapng header would take the mapped reader: make it another format's */
  if ((copy[0] == 0xd4 && copy[1] == 0xc3) || (copy[0] == 0xa1 && copy[1] == 0xb2)
      || (copy[0] == 0x0a && copy[1] == 0x0d) || (copy[0] == 0x4d && copy[1] == 0x3c))
    copy[0] ^= 0x40;
  capture = cs_capture_open (cs_fuzz_bytes_to_path (copy, size), &error);
  if (capture != NULL)
    {
      GArray *frames = g_array_new (FALSE, FALSE, sizeof (CsFrame));

      cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error);
      for (guint i = 0; i < frames->len; i++)
        g_assert (cs_capture_frame_data (capture, &g_array_index (frames, CsFrame, i)) != NULL);
      g_array_unref (frames);
      cs_capture_free (capture);
    }
  else
    g_assert (error != NULL);
  g_clear_error (&error);
  return 0;
}
