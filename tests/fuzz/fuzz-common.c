/* fuzz-common.c — helpers shared by the fuzz targets (libFuzzer and smoke builds) */
#include "fuzz-common.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

void
cs_fuzz_init_once (void)
{
  static gboolean done;

  if (done)
    return;
  done = TRUE;
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_FATAL_MASK);
}

const char *
cs_fuzz_bytes_to_path (const uint8_t *data, size_t size)
{
  static int fd = -1;
  static char path[64];
  size_t done = 0;

  if (fd < 0)
    {
      fd = memfd_create ("cs-fuzz-capture", MFD_CLOEXEC);
      if (fd < 0)
        g_error ("memfd_create failed");
      g_snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
    }
  if (ftruncate (fd, 0) != 0)
    g_error ("ftruncate failed");
  while (done < size)
    {
      ssize_t n = pwrite (fd, data + done, size - done, (off_t) done);

      if (n <= 0)
        g_error ("pwrite failed");
      done += (size_t) n;
    }
  return path;
}
