/* cs-mapped-bytes.h — a refcounted block of read-only bytes (a mapped capture file) that
 * parsed SIP messages point back into, so that it outlives them all */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsMappedBytes CsMappedBytes;

/* Takes a read-only mmap of size bytes: munmap'ed when the last reference goes. */
CsMappedBytes *cs_mapped_bytes_new_mmap (const guint8 *data, gsize size);
/* Takes a g_malloc'ed block: g_free'd when the last reference goes. */
CsMappedBytes *cs_mapped_bytes_new_take (guint8 *data, gsize size);
CsMappedBytes *cs_mapped_bytes_ref (CsMappedBytes *bytes);
void cs_mapped_bytes_unref (CsMappedBytes *bytes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsMappedBytes, cs_mapped_bytes_unref)

const guint8 *cs_mapped_bytes_get_data (const CsMappedBytes *bytes);
gsize cs_mapped_bytes_get_size (const CsMappedBytes *bytes);

/* TRUE when the len bytes at p lie inside the block; *offset is where they start. */
static inline gboolean cs_mapped_bytes_contains (const CsMappedBytes *bytes, const guint8 *p,
                                                 gsize len, guint64 *offset);

struct _CsMappedBytes
{
  const guint8 *data;
  gsize size;
  gatomicrefcount ref_count;
  gboolean mapped; /* munmap, else g_free */
};

static inline gboolean
cs_mapped_bytes_contains (const CsMappedBytes *bytes, const guint8 *p, gsize len, guint64 *offset)
{
  /* unsigned: a pointer before the block gives a huge difference */
  guintptr at = (guintptr) p - (guintptr) bytes->data;

  if (at >= bytes->size || len > bytes->size - at)
    return FALSE;
  *offset = at;
  return TRUE;
}

G_END_DECLS
