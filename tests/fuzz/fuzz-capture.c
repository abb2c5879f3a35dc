/* fuzz-capture.c — the pcap and pcapng readers: open, index, read every frame */
#include "fuzz-common.h"

#include "capture/cs-capture-set.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *path;
  CsCaptureSet *set;
  GError *error = NULL;
  guint64 sum = 0;

  cs_fuzz_init_once ();
  /* the mapped reader's own parser: libwiretap has fuzz-wiretap */
  g_setenv ("CALLSCOPE_NO_WIRETAP", "1", FALSE);
  path = cs_fuzz_bytes_to_path (data, size);
  set = cs_capture_set_new ();
  if (cs_capture_set_add_file (set, path, &error))
    {
      CsCapture *capture = cs_capture_set_get_file (set, 0);

      cs_capture_set_index (set, NULL, NULL, NULL, &error);
      /* Every frame the index keeps must lie inside the file. */
      for (guint32 n = 1; n <= cs_capture_set_get_n_frames (set); n++)
        {
          CsFrame frame_copy;
          const CsFrame *frame
              = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;
          const guint8 *bytes = cs_capture_set_frame_data (set, frame);

          g_assert (bytes != NULL || frame->caplen == 0);
          g_assert (frame->offset + frame->caplen <= cs_capture_get_size (capture));
          if (frame->caplen > 0)
            sum += bytes[0] + bytes[frame->caplen - 1];
          if (cs_capture_get_frame_comment (capture, frame) != NULL)
            sum++;
          sum += cs_linktype_name (frame->linktype)[0];
        }
      if (cs_capture_get_comment (capture) != NULL)
        sum++;
    }
  /* Every error names the file. */
  if (error != NULL)
    g_assert (strstr (error->message, path) != NULL);
  g_clear_error (&error);
  cs_capture_set_free (set);
  return sum == G_MAXUINT64;
}
