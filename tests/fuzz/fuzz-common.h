/* fuzz-common.h — what every fuzz target shares: the libFuzzer entry point,
 * strict GLib logging, and a reader that splits one input into many records. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stddef.h>

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A g_critical or g_warning is a bug when the input is hostile: make it abort. */
void cs_fuzz_init_once (void);

/* Writes the bytes into an in-memory file (memfd) and returns a path that opens
 * it ("/proc/self/fd/N"); the same file is reused by the next call. */
const char *cs_fuzz_bytes_to_path (const uint8_t *data, size_t size);

/* Walks an input as records: each record is a 16-bit little-endian length
 * (clamped to what is left) followed by that many bytes. */
typedef struct
{
  const uint8_t *data;
  size_t size;
  size_t pos;
} CsFuzzRecords;

static inline void
cs_fuzz_records_init (CsFuzzRecords *r, const uint8_t *data, size_t size)
{
  r->data = data;
  r->size = size;
  r->pos = 0;
}

/* FALSE when the input is used up. */
static inline gboolean
cs_fuzz_records_next (CsFuzzRecords *r, const uint8_t **rec, size_t *len)
{
  size_t n;

  if (r->size - r->pos < 2)
    return FALSE;
  n = (size_t) r->data[r->pos] | ((size_t) r->data[r->pos + 1] << 8);
  r->pos += 2;
  n = MIN (n, r->size - r->pos);
  *rec = r->data + r->pos;
  *len = n;
  r->pos += n;
  return TRUE;
}

/* One byte of the input as a small number (0 when used up). */
static inline guint
cs_fuzz_records_byte (CsFuzzRecords *r)
{
  return r->pos < r->size ? r->data[r->pos++] : 0;
}

G_END_DECLS
