/* Every RTP stream tshark lists (`-z rtp,streams`, with and without its RTP
 * heuristic) is found by callscope with the same packets and lost, max delta
 * within 0.01 ms and jitter within 1 % or 0.01 ms. */
#include "golden-common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  char *src, *dst, *ssrc;
  gint64 packets, lost;
  double min_delta, mean_delta, max_delta, min_jitter, mean_jitter, max_jitter;
} TsharkStream;

static void
tshark_stream_free (TsharkStream *s)
{
  g_free (s->src);
  g_free (s->dst);
  g_free (s->ssrc);
  g_free (s);
}

/* One row of tshark's RTP Streams table; the payload column may hold spaces
 * ("g711A, CN"), so the row is read around the "(x.y%)" loss column. */
static TsharkStream *
tshark_stream_parse (const char *line)
{
  g_auto (GStrv) tokens = g_strsplit_set (line, " \t", -1);
  g_autoptr (GPtrArray) t = g_ptr_array_new ();
  TsharkStream *s;
  guint pct = 0;

  for (guint i = 0; tokens[i] != NULL; i++)
    if (*tokens[i] != '\0')
      g_ptr_array_add (t, tokens[i]);
  for (guint i = 9; i < t->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (t, i), "(")
        && g_str_has_suffix (g_ptr_array_index (t, i), "%)"))
      pct = i;
  if (pct == 0 || pct + 6 >= t->len)
    return NULL;
  s = g_new0 (TsharkStream, 1);
  s->src = g_strdup_printf ("%s:%s", (char *) t->pdata[2], (char *) t->pdata[3]);
  s->dst = g_strdup_printf ("%s:%s", (char *) t->pdata[4], (char *) t->pdata[5]);
  s->ssrc = g_ascii_strup (t->pdata[6], -1);
  s->packets = g_ascii_strtoll (t->pdata[pct - 2], NULL, 10);
  s->lost = g_ascii_strtoll (t->pdata[pct - 1], NULL, 10);
  s->min_delta = g_ascii_strtod (t->pdata[pct + 1], NULL);
  s->mean_delta = g_ascii_strtod (t->pdata[pct + 2], NULL);
  s->max_delta = g_ascii_strtod (t->pdata[pct + 3], NULL);
  s->min_jitter = g_ascii_strtod (t->pdata[pct + 4], NULL);
  s->mean_jitter = g_ascii_strtod (t->pdata[pct + 5], NULL);
  s->max_jitter = g_ascii_strtod (t->pdata[pct + 6], NULL);
  return s;
}

static void
tshark_streams_load (const char *path, GPtrArray *out)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean in_table = FALSE;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      TsharkStream *s;

      if (strstr (lines[i], "Start time") != NULL)
        {
          in_table = TRUE;
          continue;
        }
      if (g_str_has_prefix (lines[i], "====="))
        in_table = FALSE;
      if (in_table && (s = tshark_stream_parse (lines[i])) != NULL)
        {
          gboolean dup = FALSE;

          for (guint j = 0; j < out->len; j++)
            {
              TsharkStream *o = g_ptr_array_index (out, j);
              dup |= !strcmp (o->src, s->src) && !strcmp (o->dst, s->dst)
                     && !strcmp (o->ssrc, s->ssrc);
            }
          if (dup)
            tshark_stream_free (s);
          else
            g_ptr_array_add (out, s);
        }
    }
}

static JsonObject *
find_stream (JsonArray *streams, const TsharkStream *want)
{
  for (guint i = 0; i < json_array_get_length (streams); i++)
    {
      JsonObject *s = json_array_get_object_element (streams, i);
      g_autofree char *ssrc = g_ascii_strup (json_object_get_string_member (s, "ssrc"), -1);

      if (!strcmp (json_object_get_string_member (s, "src"), want->src)
          && !strcmp (json_object_get_string_member (s, "dst"), want->dst)
          && !strcmp (ssrc, want->ssrc))
        return s;
    }
  return NULL;
}

static void
assert_close (const char *what, double got, double want, double rel, double abs_tol)
{
  double tol = MAX (abs_tol, fabs (want) * rel);

  if (fabs (got - want) > tol)
    g_test_message ("%s: tshark %.3f, callscope %.3f", what, want, got);
  g_assert_cmpfloat_with_epsilon (got, want, tol + 1e-9);
}

static void
test_sample_streams (gconstpointer data)
{
  const char *name = data;
  const char *dir = golden_samples_dir ();
  g_autofree char *capture = g_build_filename (dir, name, NULL);
  g_autofree char *txt = g_strconcat (name, ".txt", NULL);
  g_autofree char *plain = g_build_filename (dir, "tshark", txt, NULL);
  g_autofree char *heur = g_build_filename (dir, "tshark-heuristic", txt, NULL);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func ((GDestroyNotify) tshark_stream_free);
  g_autoptr (JsonNode) report = NULL;
  JsonArray *streams;
  int status = -1;

  tshark_streams_load (plain, want);
  tshark_streams_load (heur, want);
  if (want->len == 0)
    {
      g_test_skip ("tshark lists no RTP stream");
      return;
    }
  report = golden_report (capture, &status);
  g_assert_cmpint (status, ==, 0);
  streams = json_object_get_array_member (json_node_get_object (report), "streams");
  for (guint i = 0; i < want->len; i++)
    {
      const TsharkStream *w = g_ptr_array_index (want, i);
      JsonObject *got = find_stream (streams, w);

      g_test_message ("stream %s -> %s %s", w->src, w->dst, w->ssrc);
      g_assert_nonnull (got);
      g_assert_cmpint (json_object_get_int_member (got, "packets"), ==, w->packets);
      g_assert_cmpint (json_object_get_int_member (got, "lost"), ==, w->lost);
      assert_close ("max delta", json_object_get_double_member (got, "max_delta_ms"), w->max_delta,
                    0, 0.01);
      assert_close ("min delta", json_object_get_double_member (got, "min_delta_ms"), w->min_delta,
                    0, 0.01);
      assert_close ("mean delta", json_object_get_double_member (got, "mean_delta_ms"),
                    w->mean_delta, 0, 0.01);
      assert_close ("mean jitter", json_object_get_double_member (got, "mean_jitter_ms"),
                    w->mean_jitter, 0.01, 0.01);
      assert_close ("max jitter", json_object_get_double_member (got, "max_jitter_ms"),
                    w->max_jitter, 0.01, 0.01);
    }
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) names = NULL;

  g_test_init (&argc, &argv, NULL);
  names = golden_sample_names ();
  if (names == NULL)
    {
      g_print ("1..0 # SKIP ../shared/samples not present\n");
      return 0;
    }
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_strdup_printf ("/golden/samples/rtp-streams/%s", name);

      g_test_add_data_func (path, name, test_sample_streams);
    }
  return g_test_run ();
}
