/* cs-cursor.h — the one bounds-checked reader every decoder goes through.
 *
 * Every read checks the remaining length and returns FALSE instead of reading
 * past the end; on failure the cursor is left unchanged. */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

typedef struct
{
  const guint8 *data;
  gsize len;
  gsize pos;
} CsCursor;

static inline void
cs_cursor_init (CsCursor *c, const guint8 *data, gsize len)
{
  c->data = data;
  c->len = data != NULL ? len : 0;
  c->pos = 0;
}

static inline gsize
cs_cursor_remaining (const CsCursor *c)
{
  return c->len - c->pos;
}

static inline const guint8 *
cs_cursor_here (const CsCursor *c)
{
  return c->data + c->pos;
}

static inline gboolean
cs_cursor_has (const CsCursor *c, gsize n)
{
  return n <= c->len - c->pos;
}

static inline gboolean
cs_cursor_skip (CsCursor *c, gsize n)
{
  if (!cs_cursor_has (c, n))
    return FALSE;
  c->pos += n;
  return TRUE;
}

/* Moves to an absolute position within the cursor. */
static inline gboolean
cs_cursor_seek (CsCursor *c, gsize pos)
{
  if (pos > c->len)
    return FALSE;
  c->pos = pos;
  return TRUE;
}

static inline gboolean
cs_cursor_u8 (CsCursor *c, guint8 *out)
{
  if (!cs_cursor_has (c, 1))
    return FALSE;
  *out = c->data[c->pos++];
  return TRUE;
}

static inline gboolean
cs_cursor_peek_u8 (const CsCursor *c, gsize ahead, guint8 *out)
{
  if (!cs_cursor_has (c, ahead + 1))
    return FALSE;
  *out = c->data[c->pos + ahead];
  return TRUE;
}

static inline gboolean
cs_cursor_u16be (CsCursor *c, guint16 *out)
{
  if (!cs_cursor_has (c, 2))
    return FALSE;
  *out = (guint16) ((c->data[c->pos] << 8) | c->data[c->pos + 1]);
  c->pos += 2;
  return TRUE;
}

static inline gboolean
cs_cursor_u16le (CsCursor *c, guint16 *out)
{
  if (!cs_cursor_has (c, 2))
    return FALSE;
  *out = (guint16) (c->data[c->pos] | (c->data[c->pos + 1] << 8));
  c->pos += 2;
  return TRUE;
}

static inline gboolean
cs_cursor_u32be (CsCursor *c, guint32 *out)
{
  if (!cs_cursor_has (c, 4))
    return FALSE;
  const guint8 *p = c->data + c->pos;
  *out = ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
  c->pos += 4;
  return TRUE;
}

static inline gboolean
cs_cursor_u32le (CsCursor *c, guint32 *out)
{
  if (!cs_cursor_has (c, 4))
    return FALSE;
  const guint8 *p = c->data + c->pos;
  *out = ((guint32) p[3] << 24) | ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
  c->pos += 4;
  return TRUE;
}

/* Reads a 32-bit value in the given byte order (big_endian = TRUE for network order). */
static inline gboolean
cs_cursor_u32 (CsCursor *c, gboolean big_endian, guint32 *out)
{
  return big_endian ? cs_cursor_u32be (c, out) : cs_cursor_u32le (c, out);
}

static inline gboolean
cs_cursor_u16 (CsCursor *c, gboolean big_endian, guint16 *out)
{
  return big_endian ? cs_cursor_u16be (c, out) : cs_cursor_u16le (c, out);
}

/* Points *out at the next n bytes (no copy) and advances. */
static inline gboolean
cs_cursor_bytes (CsCursor *c, gsize n, const guint8 **out)
{
  if (!cs_cursor_has (c, n))
    return FALSE;
  *out = c->data + c->pos;
  c->pos += n;
  return TRUE;
}

static inline gboolean
cs_cursor_copy (CsCursor *c, void *dest, gsize n)
{
  if (!cs_cursor_has (c, n))
    return FALSE;
  memcpy (dest, c->data + c->pos, n);
  c->pos += n;
  return TRUE;
}

/* Splits off the next n bytes as a cursor of their own and advances past them. */
static inline gboolean
cs_cursor_sub (CsCursor *c, gsize n, CsCursor *sub)
{
  const guint8 *p;

  if (!cs_cursor_bytes (c, n, &p))
    return FALSE;
  cs_cursor_init (sub, p, n);
  return TRUE;
}

G_END_DECLS
