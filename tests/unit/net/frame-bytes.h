/* frame-bytes.h — big-endian writers for the frames and datagrams tests build by hand */
#pragma once

#include <glib.h>

static inline void
put8 (GByteArray *b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

static inline void
put16 (GByteArray *b, guint16 v)
{
  put8 (b, v >> 8);
  put8 (b, v & 0xff);
}

static inline void
put32 (GByteArray *b, guint32 v)
{
  put16 (b, v >> 16);
  put16 (b, v & 0xffff);
}

static inline void
put_bytes (GByteArray *b, const void *p, gsize n)
{
  g_byte_array_append (b, p, (guint) n);
}
