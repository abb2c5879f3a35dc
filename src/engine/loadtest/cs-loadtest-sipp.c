/* cs-loadtest-sipp.c — the periods of a SIPp -trace_stat file */
#include "cs-loadtest-sipp.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

/* A statistics file is small (one row per period); refuse anything unreasonable. */
#define CS_LOAD_SIPP_STAT_MAX_BYTES (256u << 20)

static gboolean
cs_load_parse_current_time (const char *field, gint64 *ns)
{
  const char *epoch = strrchr (field, '\t');
  char *end = NULL;
  double seconds;

  epoch = epoch != NULL ? epoch + 1 : field;
  seconds = g_ascii_strtod (epoch, &end);
  if (end == epoch || !(seconds > 0) || !isfinite (seconds) || seconds > 1e11)
    return FALSE;
  *ns = (gint64) llround (seconds * 1e9);
  return TRUE;
}

GArray *
cs_load_read_sipp_edges (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) names = NULL;
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (gint64));
  gsize length = 0;
  int column = -1;

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  if (length > CS_LOAD_SIPP_STAT_MAX_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: too large for a SIPp statistics file (%" G_GSIZE_FORMAT " bytes)", path,
                   length);
      return NULL;
    }
  lines = g_strsplit (text, "\n", -1);
  names = g_strsplit (lines[0] != NULL ? lines[0] : "", ";", -1);
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (g_strstrip (names[i]), "CurrentTime") == 0)
      column = (int) i;
  if (column < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s, line 1: no CurrentTime column (not a SIPp -trace_stat file)", path);
      return NULL;
    }
  for (guint l = 1; lines[l] != NULL; l++)
    {
      g_auto (GStrv) fields = NULL;
      gint64 ns;

      if (strchr (lines[l], ';') == NULL)
        continue;
      fields = g_strsplit (lines[l], ";", column + 2);
      if ((int) g_strv_length (fields) <= column
          || !cs_load_parse_current_time (fields[column], &ns))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s, line %u: CurrentTime is not \"date<TAB>time<TAB>epoch\"", path, l + 1);
          return NULL;
        }
      g_array_append_val (edges, ns);
    }
  if (edges->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: no rows after the header",
                   path);
      return NULL;
    }
  return g_steal_pointer (&edges);
}
