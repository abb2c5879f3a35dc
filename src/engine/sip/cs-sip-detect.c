/* cs-sip-detect.c — is this a SIP start line? (fast: runs on every UDP payload) */
#include "cs-sip-message-private.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* RFC 3261 token characters: alphanumerics and -.!%*_+`'~ */
#define T(c) [c] = 1
const guint8 cs_sip_token_chars[256] = {
  T ('-'), T ('.'), T ('!'), T ('%'), T ('*'), T ('_'), T ('+'), T ('`'), T ('\''),
  T ('~'), T ('0'), T ('1'), T ('2'), T ('3'), T ('4'), T ('5'), T ('6'), T ('7'),
  T ('8'), T ('9'), T ('a'), T ('b'), T ('c'), T ('d'), T ('e'), T ('f'), T ('g'),
  T ('h'), T ('i'), T ('j'), T ('k'), T ('l'), T ('m'), T ('n'), T ('o'), T ('p'),
  T ('q'), T ('r'), T ('s'), T ('t'), T ('u'), T ('v'), T ('w'), T ('x'), T ('y'),
  T ('z'), T ('A'), T ('B'), T ('C'), T ('D'), T ('E'), T ('F'), T ('G'), T ('H'),
  T ('I'), T ('J'), T ('K'), T ('L'), T ('M'), T ('N'), T ('O'), T ('P'), T ('Q'),
  T ('R'), T ('S'), T ('T'), T ('U'), T ('V'), T ('W'), T ('X'), T ('Y'), T ('Z'),
};
#undef T

/* TRUE when line (n bytes, without its CR/LF) is a strict SIP start line. */
gboolean
cs_sip_is_strict_start_line (const guint8 *line, gsize n)
{
  gsize i = 0;

  if (n >= 8 && cs_sip_is_version (line) && line[7] == ' ')
    {
      if (n < 11 || !g_ascii_isdigit (line[8]) || !g_ascii_isdigit (line[9])
          || !g_ascii_isdigit (line[10]))
        return FALSE;
      return n == 11 || line[11] == ' ';
    }
  while (i < n && cs_sip_is_token_char (line[i]))
    i++;
  if (i == 0 || i >= n || line[i] != ' ')
    return FALSE;
  gsize uri_start = ++i;
#ifdef __SSE2__
  /* the URI ends at a byte <= ' ' or DEL: 16 bytes at a time */
  const __m128i space = _mm_set1_epi8 (' '), del = _mm_set1_epi8 (0x7f);
  for (; i + 16 <= n; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (line + i));
      __m128i low = _mm_cmpeq_epi8 (_mm_min_epu8 (v, space), v);
      guint stop = (guint) _mm_movemask_epi8 (_mm_or_si128 (low, _mm_cmpeq_epi8 (v, del)));
      if (stop != 0)
        {
          i += (gsize) __builtin_ctz (stop);
          break;
        }
    }
#endif
  while (i < n && line[i] > ' ' && line[i] != 0x7f)
    i++;
  if (i == uri_start || i >= n || line[i] != ' ')
    return FALSE;
  i++;
  return n - i == SIP_VERSION_LEN && cs_sip_is_version (line + i);
}

/* Length of the first line's content (CR stripped); *has_eol tells whether a LF ended it. */
gsize
cs_sip_first_line_length (const guint8 *data, gsize len, gboolean *has_eol)
{
  const guint8 *eol = memchr (data, '\n', len);
  gsize n = eol != NULL ? (gsize) (eol - data) : len;

  *has_eol = eol != NULL;
  if (n > 0 && data[n - 1] == '\r')
    n--;
  return n;
}

gboolean
cs_sip_looks_like (const guint8 *data, gsize len)
{
  /* the shortest start lines, "SIP/2.0 200\n" and "A b SIP/2.0\n", are 12 bytes; the
   * first byte rules out RTP (0x80…) and binary protocols before any scan */
  if (data == NULL || len < 12 || !cs_sip_is_token_char (data[0]))
    return FALSE;
  /* cs_sip_first_line_length without its call: this runs on every UDP payload */
  const guint8 *eol = memchr (data, '\n', len);
  if (eol == NULL)
    return FALSE;
  gsize n = (gsize) (eol - data);
  if (n > 0 && data[n - 1] == '\r')
    n--;
  return cs_sip_is_strict_start_line (data, n);
}

/* Looser than cs_sip_looks_like: what deserves a message with ->malformed rather than
 * NULL (a bad status code, odd spacing, a start line cut by the end of data). */
gboolean
cs_sip_starts_like_sip (const guint8 *line, gsize n)
{
  if (n >= 8 && cs_sip_is_version (line) && line[7] == ' ')
    return TRUE;
  return n >= 9 && cs_sip_is_token_char (line[0]) && line[n - 8] == ' '
         && cs_sip_is_version (line + n - SIP_VERSION_LEN);
}
