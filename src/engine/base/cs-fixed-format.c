/* cs-fixed-format.c — doubles as "%.Nf" text without printf, byte-identical to it
 *
 * printf rounds the exact binary value to N decimals, ties to even. Here the value is
 * scaled by 10^N in one multiplication (error at most half an ulp of the product) and
 * rounded to an integer. That integer is printf's whenever the product is small enough
 * for the error to stay far below the distance to the nearest .5; values closer to a
 * tie, large values, NaN and infinities go to g_ascii_formatd. */
#include "cs-fixed-format.h"

#include <math.h>

/* Below 2^40 an ulp of the product is at most 2^-13: far inside the tie margin. */
#define CS_FIXED_MAX_SCALED 1e12
#define CS_FIXED_TIE_MARGIN (1.0 / 1024)

const char cs_decimal_pairs[201] = "0001020304050607080910111213141516171819"
                                   "2021222324252627282930313233343536373839"
                                   "4041424344454647484950515253545556575859"
                                   "6061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";

static const double cs_fixed_scale[CS_FIXED_MAX_DECIMALS + 1]
    = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
/* 10^n up to the 13 digits a scaled value below CS_FIXED_MAX_SCALED (rounded) can have */
static const guint64 cs_fixed_pow10[13] = { 1,
                                            10,
                                            100,
                                            1000,
                                            10000,
                                            100000,
                                            1000000,
                                            10000000,
                                            100000000,
                                            1000000000,
                                            G_GUINT64_CONSTANT (10000000000),
                                            G_GUINT64_CONSTANT (100000000000),
                                            G_GUINT64_CONSTANT (1000000000000) };

static gsize
cs_fixed_slow (char *buf, double value, int decimals)
{
  static const char *const formats[CS_FIXED_MAX_DECIMALS + 1]
      = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f", "%.9f" };

  /* Locale-independent: a decimal comma would break JSON and CSV. */
  g_ascii_formatd (buf, CS_FIXED_BUF_SIZE, formats[decimals], value);
  return strlen (buf);
}

/* `scaled` = |value| × 10^decimals, already rounded to an integer (below 2^41). The
 * length is known first, so the digits go straight to their places. */
static gsize
cs_fixed_digits (char *buf, guint64 scaled, int decimals, gboolean negative)
{
  guint64 whole = scaled / cs_fixed_pow10[decimals];
  gsize whole_len = 1;
  gsize len;
  char *p;

  while (whole_len < 13 && whole >= cs_fixed_pow10[whole_len])
    whole_len++;
  len = (negative ? 1 : 0) + whole_len + (decimals > 0 ? 1 + (gsize) decimals : 0);
  p = buf + len;
  *p = '\0';
  if (decimals > 0)
    {
      p = cs_decimal_digits_before (p, scaled % cs_fixed_pow10[decimals], (guint) decimals);
      *--p = '.';
    }
  p = cs_decimal_digits_before (p, whole, 1);
  if (negative)
    *--p = '-';
  return len;
}

gsize
cs_fixed_format (char *buf, double value, int decimals)
{
  double scaled, whole, fraction;

  decimals = CLAMP (decimals, 0, CS_FIXED_MAX_DECIMALS);
  scaled = fabs (value) * cs_fixed_scale[decimals];
  /* NaN fails the comparison too */
  if (!(scaled < CS_FIXED_MAX_SCALED))
    return cs_fixed_slow (buf, value, decimals);
  whole = (double) (guint64) scaled; /* floor: 0 <= scaled < 2^40 */
  fraction = scaled - whole;         /* exact */
  if (fabs (fraction - 0.5) <= CS_FIXED_TIE_MARGIN)
    return cs_fixed_slow (buf, value, decimals);
  /* printf keeps the sign of negative values that round to zero ("-0.000") */
  return cs_fixed_digits (buf, (guint64) whole + (fraction > 0.5), decimals, signbit (value));
}
