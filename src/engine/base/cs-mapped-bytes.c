/* cs-mapped-bytes.c — a refcounted block of read-only bytes (a mapped capture file) */
#include "cs-mapped-bytes.h"

#include <sys/mman.h>

static CsMappedBytes *
mapped_bytes_new (const guint8 *data, gsize size, gboolean mapped)
{
  CsMappedBytes *bytes = g_new (CsMappedBytes, 1);

  bytes->data = data;
  bytes->size = size;
  bytes->mapped = mapped;
  g_atomic_ref_count_init (&bytes->ref_count);
  return bytes;
}

CsMappedBytes *
cs_mapped_bytes_new_mmap (const guint8 *data, gsize size)
{
  return mapped_bytes_new (data, size, TRUE);
}

CsMappedBytes *
cs_mapped_bytes_new_take (guint8 *data, gsize size)
{
  return mapped_bytes_new (data, size, FALSE);
}

CsMappedBytes *
cs_mapped_bytes_ref (CsMappedBytes *bytes)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_atomic_ref_count_inc (&bytes->ref_count);
  return bytes;
}

void
cs_mapped_bytes_unref (CsMappedBytes *bytes)
{
  if (bytes == NULL || !g_atomic_ref_count_dec (&bytes->ref_count))
    return;
  if (bytes->mapped)
    munmap ((void *) bytes->data, bytes->size);
  else
    g_free ((gpointer) bytes->data);
  g_free (bytes);
}

const guint8 *
cs_mapped_bytes_get_data (const CsMappedBytes *bytes)
{
  return bytes->data;
}

gsize
cs_mapped_bytes_get_size (const CsMappedBytes *bytes)
{
  return bytes->size;
}
