/* cs-fixed-format.h — numbers as text without printf, byte-identical to it */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* The buffer the text is written to; longer printf results are cut to it (as
 * g_ascii_formatd with a buffer of this size does). */
#define CS_FIXED_BUF_SIZE G_ASCII_DTOSTR_BUF_SIZE
#define CS_FIXED_MAX_DECIMALS 9

/* Writes `value` as the C locale's "%.Nf" with N = decimals (clamped to 0..9) into
 * buf (CS_FIXED_BUF_SIZE bytes, NUL-terminated) and returns the text's length. */
gsize cs_fixed_format (char *buf, double value, int decimals);

/* "00" "01" … "99" */
extern const char cs_decimal_pairs[201];

/* Writes `value` in decimal, at least min_digits digits (zero-padded), backwards
 * ending before `end`; returns where the text starts (at most 20 digits). */
static inline char *
cs_decimal_digits_before (char *end, guint64 value, guint min_digits)
{
  char *p = end;

  while (value >= 100)
    {
      p -= 2;
      memcpy (p, cs_decimal_pairs + 2 * (value % 100), 2);
      value /= 100;
    }
  if (value >= 10)
    {
      p -= 2;
      memcpy (p, cs_decimal_pairs + 2 * value, 2);
    }
  else
    *--p = (char) ('0' + value);
  while ((guint) (end - p) < min_digits)
    *--p = '0';
  return p;
}

G_END_DECLS
