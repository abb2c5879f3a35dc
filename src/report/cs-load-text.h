/* cs-load-text.h — one-line summaries of a load run and of two runs compared */
#pragma once

#include "callscope-engine.h"

G_BEGIN_DECLS

/* The highest offered rate of any interval, calls/s. */
double cs_load_peak_offered (const CsLoadReport *report);
/* "Peak 299 calls/s offered in 1 s intervals · breaks at 13 s at 279 calls/s offered,
 * 215 handled, 313 concurrent (first: retransmissions over 1 % of messages) ·
 * capacity 218 calls/s". */
char *cs_load_headline (const CsLoadReport *report);
/* "run B breaks at 1,150 cps, 22% below run A's 1,480 cps" (or that a run never
 * broke, with its peak). */
char *cs_load_compare_verdict (const CsLoadReport *a, const CsLoadReport *b, const char *name_a,
                               const char *name_b);
/* 1480 → "1,480" (rounded to a whole number). */
char *cs_load_format_thousands (double value);

G_END_DECLS
