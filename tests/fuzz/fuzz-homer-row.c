/* fuzz-homer-row.c — a Homer row's columns (addresses, ports, heplify's RTCP JSON) from bytes */
#include "fuzz-common.h"

#include "fleet/cs-homer-query.h"
#include "fleet/cs-homer-row.h"

#include <string.h>

/* The input is split at NUL bytes into the row's text columns; the first byte picks the table. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *values[CS_HOMER_N_COLS] = { "0", "1", "s", "1709287200", "0", "0" };
  int lengths[CS_HOMER_N_COLS] = { 0 };
  char table[2] = { '0', '\0' };
  g_autofree char *text = NULL;
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  CsHomerRow row;
  gsize at = 1;

  cs_fuzz_init_once ();
  if (size < 1)
    return 0;
  table[0] = (char) ('0' + data[0] % CS_HOMER_N_TABLES);
  values[CS_HOMER_COL_TABLE] = table;
  text = g_malloc (size + 1);
  memcpy (text, data, size);
  text[size] = '\0';
  for (guint c = CS_HOMER_COL_SRC_IP; c < CS_HOMER_N_COLS && at <= size; c++)
    {
      values[c] = text + at;
      lengths[c] = (int) strlen (text + at);
      at += (gsize) lengths[c] + 1;
    }
  if (cs_homer_row_parse (values, lengths, &row, &error))
    {
      if (cs_homer_row_to_frame (&row, frame, &error))
        g_assert (frame->len > 14);
      else
        g_assert (error != NULL && error->domain == CS_HOMER_ERROR);
    }
  else
    g_assert (error != NULL && error->domain == CS_HOMER_ERROR);
  return 0;
}
