/* cs-json-writer-private.h — the JSON writer's state and byte helpers, shared by
 * cs-json-writer.c and the raw output of cs-json-raw.c */
#pragma once

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "callscope-engine.h"
#include "cs-json-writer.h"

G_BEGIN_DECLS

#define CS_JSON_MAX_DEPTH 64
/* Output collects here and goes to the FILE in large writes: per-call stdio locking
 * (fputc, fputs) was most of the writer's time on large reports. Nothing else writes to
 * the FILE while a writer is open. */
#define CS_JSON_BUFFER_SIZE (64 * 1024)
/* Most a separator, a newline and the deepest indentation take, plus the slack
 * cs_json_indent_at writes past the indentation (whole words). */
#define CS_JSON_MAX_PREFIX (2 + 2 * CS_JSON_MAX_DEPTH + 16)

struct _CsJsonWriter
{
  FILE *out; /* NULL: a piece, collected in `piece` */
  GByteArray *piece;
  guint threads;
  gboolean pretty;
  guint depth;
  gboolean first[CS_JSON_MAX_DEPTH]; /* no element written yet at this depth */
  gboolean after_key;
  gsize used;
  char buf[CS_JSON_BUFFER_SIZE];
};

/* Writes out what the buffer holds (to the FILE, or to the piece). */
void cs_json_flush (CsJsonWriter *w);

/* Copies n (1..24) bytes with a few overlapping fixed-size moves: keys and numbers are
 * short, and a memcpy call costs more than the copy. */
static inline void
cs_json_copy_short (char *dst, const char *src, gsize n)
{
  if (n >= 8)
    {
      memcpy (dst, src, 8);
      if (n > 16)
        memcpy (dst + 8, src + 8, 8);
      memcpy (dst + n - 8, src + n - 8, 8);
    }
  else if (n >= 4)
    {
      memcpy (dst, src, 4);
      memcpy (dst + n - 4, src + n - 4, 4);
    }
  else
    {
      dst[0] = src[0];
      dst[n / 2] = src[n / 2];
      dst[n - 1] = src[n - 1];
    }
}

#define CS_JSON_ONES G_GUINT64_CONSTANT (0x0101010101010101)
#define CS_JSON_HIGHS (CS_JSON_ONES * 0x80)

/* Whether any of the 8 bytes is a control character, '"', '\\' or not ASCII: the
 * usual "has a byte below n" / "has a zero byte" word tests, exact for "any". */
static inline gboolean
cs_json_word_is_special (guint64 x)
{
  guint64 quote = x ^ (CS_JSON_ONES * '"');
  guint64 backslash = x ^ (CS_JSON_ONES * '\\');
  guint64 control = (x - CS_JSON_ONES * 0x20) & ~x;

  return ((control | ((quote - CS_JSON_ONES) & ~quote) | ((backslash - CS_JSON_ONES) & ~backslash)
           | x)
          & CS_JSON_HIGHS)
         != 0;
}

static inline gboolean
cs_json_byte_is_special (guchar c)
{
  return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
}

#ifdef __SSE2__
/* Whether any of the 16 bytes is special: a signed compare with 0x20 finds both the
 * control characters and the bytes from 0x80 (negative). */
static inline gboolean
cs_json_block_is_special (__m128i x)
{
  __m128i bad = _mm_or_si128 (_mm_cmplt_epi8 (x, _mm_set1_epi8 (0x20)),
                              _mm_or_si128 (_mm_cmpeq_epi8 (x, _mm_set1_epi8 ('"')),
                                            _mm_cmpeq_epi8 (x, _mm_set1_epi8 ('\\'))));

  return _mm_movemask_epi8 (bad) != 0;
}

/* cs_json_copy_plain for len >= 16: 16 bytes at a time, the last block overlapping the
 * previous one (nothing read or written outside [0, len)). */
static inline gboolean
cs_json_copy_plain_sse2 (char *dst, const char *s, gsize len)
{
  gsize i = 0;
  __m128i x;

  for (; i + 16 <= len; i += 16)
    {
      x = _mm_loadu_si128 ((const __m128i *) (s + i));
      if (cs_json_block_is_special (x))
        return FALSE;
      _mm_storeu_si128 ((__m128i *) (dst + i), x);
    }
  if (i == len)
    return TRUE;
  x = _mm_loadu_si128 ((const __m128i *) (s + len - 16));
  _mm_storeu_si128 ((__m128i *) (dst + len - 16), x);
  return !cs_json_block_is_special (x);
}
#endif

/* Copies s[0..len) to dst when it is all printable ASCII without '"' and '\\' (checked
 * 8 bytes at a time while copying); FALSE, with dst garbage, when it is not. */
static inline gboolean
cs_json_copy_plain (char *dst, const char *s, gsize len)
{
  gsize i = 0;
  guint64 x;

  if (len < 8)
    {
      guint32 head, tail;

      if (len < 4)
        {
          for (; i < len; i++)
            {
              if (cs_json_byte_is_special ((guchar) s[i]))
                return FALSE;
              dst[i] = s[i];
            }
          return TRUE;
        }
      /* 4 to 7 bytes: two overlapping 4-byte words checked as one */
      memcpy (&head, s, 4);
      memcpy (&tail, s + len - 4, 4);
      if (cs_json_word_is_special (head | (guint64) tail << 32))
        return FALSE;
      memcpy (dst, &head, 4);
      memcpy (dst + len - 4, &tail, 4);
      return TRUE;
    }
#ifdef __SSE2__
  if (len >= 16)
    return cs_json_copy_plain_sse2 (dst, s, len);
#endif
  for (; i + 8 <= len; i += 8)
    {
      memcpy (&x, s + i, sizeof x);
      if (cs_json_word_is_special (x))
        return FALSE;
      memcpy (dst + i, &x, sizeof x);
    }
  /* the last bytes as one word overlapping the previous one */
  memcpy (&x, s + len - 8, sizeof x);
  memcpy (dst + len - 8, &x, sizeof x);
  return !cs_json_word_is_special (x);
}

/* "%.Nf" of value at p (room for CS_FIXED_BUF_SIZE); whole numbers (most times in ms
 * are) without the general formatter: their digits and N zeros are exactly printf's. */
static inline gsize
cs_json_fixed (char *p, double value, int decimals)
{
  guint64 whole;
  char digits[24];
  char *end = digits + sizeof digits, *start;
  gsize n;

  if (!(value >= 0 && value < 1e15) || signbit (value) || decimals < 0 || decimals > 9)
    return cs_fixed_format (p, value, decimals);
  whole = (guint64) value;
  if ((double) whole != value)
    return cs_fixed_format (p, value, decimals);
  start = cs_decimal_digits_before (end, whole, 1);
  n = (gsize) (end - start);
  cs_json_copy_short (p, start, n);
  if (decimals > 0)
    {
      p[n] = '.';
      memcpy (p + n + 1, "000000000", 9); /* CS_FIXED_BUF_SIZE leaves room for all nine */
      n += 1 + (gsize) decimals;
    }
  p[n] = '\0';
  return n;
}

G_END_DECLS
