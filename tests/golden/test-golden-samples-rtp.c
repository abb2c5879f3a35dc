/* The RTP streams callscope finds are exactly those tshark lists (`-z rtp,streams` with and
 * without its RTP heuristic): none missing, none invented, none where tshark lists none; each
 * with the same packets and lost, min/mean/max delta within 0.01 ms and min/mean/max jitter
 * within 1 % or 0.01 ms. The streams callscope binds to a call by SDP are those tshark lists
 * without the heuristic (it follows the SDP too), but for the exceptions named below. */
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

/* Where callscope differs from tshark on purpose, by capture and stream. */
typedef struct
{
  const char *capture, *src, *dst, *ssrc;
  const char *reason;
} Exception;

static const Exception unbound_exceptions[] = {
  { "SIP_CALL_RTP_G711", "200.57.7.202:30000", "200.57.7.196:40362", "0X00002E3D",
    "announced by MGCP (frames 2945-2946), which callscope does not read: found as a stream "
    "no SDP announced instead" },
};

static const Exception *
unbound_exception (const char *capture, const TsharkStream *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (unbound_exceptions); i++)
    {
      const Exception *e = &unbound_exceptions[i];

      if (!strcmp (e->capture, capture) && !strcmp (e->src, s->src) && !strcmp (e->dst, s->dst)
          && !strcmp (e->ssrc, s->ssrc))
        return e;
    }
  return NULL;
}

static gboolean
listed (GPtrArray *streams, const char *src, const char *dst, const char *ssrc)
{
  for (guint i = 0; i < streams->len; i++)
    {
      const TsharkStream *s = g_ptr_array_index (streams, i);

      if (!strcmp (s->src, src) && !strcmp (s->dst, dst) && !g_ascii_strcasecmp (s->ssrc, ssrc))
        return TRUE;
    }
  return FALSE;
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
  g_autofree char *plain_path = g_build_filename (dir, "tshark", txt, NULL);
  g_autofree char *heur_path = g_build_filename (dir, "tshark-heuristic", txt, NULL);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func ((GDestroyNotify) tshark_stream_free);
  g_autoptr (GPtrArray) plain
      = g_ptr_array_new_with_free_func ((GDestroyNotify) tshark_stream_free);
  g_autoptr (JsonNode) report = NULL;
  JsonArray *streams;
  int status = -1;

  tshark_streams_load (plain_path, want);
  tshark_streams_load (heur_path, want);
  tshark_streams_load (plain_path, plain);
  report = golden_report (capture, &status);
  g_assert_cmpint (status, ==, 0);
  streams = json_object_get_array_member (json_node_get_object (report), "streams");
  /* none invented (and none at all where tshark lists none) */
  for (guint i = 0; i < json_array_get_length (streams); i++)
    {
      JsonObject *s = json_array_get_object_element (streams, i);

      if (!listed (want, json_object_get_string_member (s, "src"),
                   json_object_get_string_member (s, "dst"),
                   json_object_get_string_member (s, "ssrc")))
        g_test_message ("callscope finds %s -> %s %s, tshark does not",
                        json_object_get_string_member (s, "src"),
                        json_object_get_string_member (s, "dst"),
                        json_object_get_string_member (s, "ssrc"));
    }
  g_assert_cmpuint (json_array_get_length (streams), ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      const TsharkStream *w = g_ptr_array_index (want, i);
      JsonObject *got = find_stream (streams, w);
      const Exception *unbound = unbound_exception (name, w);
      gboolean bound_by_sdp = listed (plain, w->src, w->dst, w->ssrc) && unbound == NULL;

      g_test_message ("stream %s -> %s %s", w->src, w->dst, w->ssrc);
      g_assert_nonnull (got);
      if (unbound != NULL)
        {
          g_test_message ("differs from tshark on purpose: %s", unbound->reason);
          g_assert_true (listed (plain, w->src, w->dst, w->ssrc)); /* the exception applies */
        }
      g_assert_cmpint (json_object_get_boolean_member (got, "associated"), ==, bound_by_sdp);
      g_assert_cmpint (json_object_get_int_member (got, "packets"), ==, w->packets);
      g_assert_cmpint (json_object_get_int_member (got, "lost"), ==, w->lost);
      assert_close ("max delta", json_object_get_double_member (got, "max_delta_ms"), w->max_delta,
                    0, 0.01);
      assert_close ("min delta", json_object_get_double_member (got, "min_delta_ms"), w->min_delta,
                    0, 0.01);
      assert_close ("mean delta", json_object_get_double_member (got, "mean_delta_ms"),
                    w->mean_delta, 0, 0.01);
      /* tshark prints a min jitter of -1 when no packet had a clock to compute it from (a
       * dynamic payload type without SDP); callscope reports 0 then, for all three */
      if (w->min_jitter < 0)
        {
          g_test_message ("no jitter: the payload type's clock rate is unknown");
          g_assert_cmpint (golden_int (got, "clock_rate"), ==, 0);
          g_assert_cmpfloat (w->mean_jitter, ==, 0);
          g_assert_cmpfloat (w->max_jitter, ==, 0);
        }
      assert_close ("min jitter", json_object_get_double_member (got, "min_jitter_ms"),
                    MAX (w->min_jitter, 0), 0.01, 0.01);
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
