/* test-report-html.c — the HTML report parses, is self-contained, and holds every call and
 * finding of the capture, worst first */
#include <stdio.h>
#include <string.h>

#include "findings/cs-finding.h"
#include "loader/cs-loader.h"
#include "cs-report-html.h"
#include "cs-svg-inline.h"

typedef struct
{
  GHashTable *ids;  /* every id="" */
  GString *text;    /* text content outside <style> */
  guint svgs;       /* <svg> elements */
  guint external;   /* src= attributes or href= not starting with '#' */
  GPtrArray *order; /* section ids of calls in document order */
  gboolean in_style;
} Parsed;

static void
start_element (GMarkupParseContext *context, const char *name, const char **attr_names,
               const char **attr_values, gpointer user_data, GError **error)
{
  Parsed *p = user_data;

  if (strcmp (name, "svg") == 0)
    p->svgs++;
  p->in_style = strcmp (name, "style") == 0;
  for (guint i = 0; attr_names[i] != NULL; i++)
    {
      if (strcmp (attr_names[i], "id") == 0)
        {
          g_hash_table_add (p->ids, g_strdup (attr_values[i]));
          if (strcmp (name, "section") == 0 && g_str_has_prefix (attr_values[i], "call-"))
            g_ptr_array_add (p->order, g_strdup (attr_values[i]));
        }
      if (strcmp (attr_names[i], "src") == 0
          || (g_str_has_suffix (attr_names[i], "href") && attr_values[i][0] != '#'))
        p->external++;
    }
}

static void
end_element (GMarkupParseContext *context, const char *name, gpointer user_data, GError **error)
{
  ((Parsed *) user_data)->in_style = FALSE;
}

static void
text (GMarkupParseContext *context, const char *t, gsize len, gpointer user_data, GError **error)
{
  Parsed *p = user_data;

  if (!p->in_style)
    g_string_append_len (p->text, t, (gssize) len);
}

static char *
demo_capture (void)
{
  const char *dir = g_getenv ("G_TEST_BUILDDIR");
  char *path = g_build_filename (dir != NULL ? dir : ".", "gen", "callscope-demo.pcapng", NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_clear_pointer (&path, g_free);
  return path;
}

static CsAnalysis *
load (const char *path)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  const char *files[] = { path, NULL };
  CsAnalysis *analysis = cs_loader_load (loader, files, NULL, &error);

  g_assert_no_error (error);
  return analysis;
}

static char *
write_html (CsAnalysis *analysis, const guint *numbers, guint n)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&buf, &size);

  g_assert_true (cs_report_html_write (analysis, numbers, n, out, NULL, NULL));
  fclose (out);
  return buf;
}

static void
parse (const char *html, Parsed *p)
{
  static const GMarkupParser parser = { start_element, end_element, text, NULL, NULL };
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  const char *root = strstr (html, "<html");

  p->ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->text = g_string_new (NULL);
  p->order = g_ptr_array_new_with_free_func (g_free);
  g_assert_nonnull (root); /* after <!DOCTYPE html> */
  context = g_markup_parse_context_new (&parser, 0, p, NULL);
  g_markup_parse_context_parse (context, root, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
}

static void
parsed_clear (Parsed *p)
{
  g_hash_table_unref (p->ids);
  g_string_free (p->text, TRUE);
  g_ptr_array_unref (p->order);
}

static void
test_every_call_and_finding (void)
{
  g_autofree char *path = demo_capture ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autofree char *html = NULL;
  GListModel *calls, *findings;
  Parsed p = { 0 };

  if (path == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  analysis = load (path);
  html = write_html (analysis, NULL, 0);
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  parse (html, &p);
  calls = cs_analysis_get_calls (analysis);
  findings = cs_analysis_get_findings (analysis);
  g_assert_cmpuint (g_list_model_get_n_items (calls), >=, 10);
  g_assert_cmpuint (p.order->len, ==, g_list_model_get_n_items (calls));
  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
      g_autofree char *id = g_strdup_printf ("call-%u", cs_call_get_number (call));

      g_assert_true (g_hash_table_contains (p.ids, id));
      g_assert_nonnull (strstr (p.text->str, cs_call_get_call_id (call)));
    }
  g_assert_cmpuint (g_list_model_get_n_items (findings), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) f = g_list_model_get_item (findings, i);
      const GArray *frames = cs_finding_get_frames (f);
      g_autofree char *first = g_strdup_printf ("%u", g_array_index (frames, guint32, 0));

      g_assert_nonnull (strstr (p.text->str, cs_finding_get_text (f)));
      g_assert_nonnull (strstr (p.text->str, first));
    }
  /* A ladder per call with messages, jitter and MOS graphs for calls with media. */
  g_assert_cmpuint (p.svgs, >=, g_list_model_get_n_items (calls));
  g_assert_cmpuint (p.external, ==, 0);
  g_assert_null (strstr (html, "<?xml"));
  /* Worst first: the first section is the call with an error finding. */
  {
    g_autoptr (GPtrArray) worst = cs_report_calls_worst_first (analysis, NULL, 0);
    g_autofree char *first
        = g_strdup_printf ("call-%u", cs_call_get_number (g_ptr_array_index (worst, 0)));
    g_autoptr (GPtrArray) fs = cs_report_call_findings (analysis, g_ptr_array_index (worst, 0));
    gboolean has_error = FALSE;

    g_assert_cmpstr (g_ptr_array_index (p.order, 0), ==, first);
    for (guint i = 0; i < fs->len; i++)
      has_error |= cs_finding_get_severity (g_ptr_array_index (fs, i)) == CS_SEVERITY_ERROR;
    g_assert_true (has_error);
  }
  parsed_clear (&p);
}

static void
test_selected_calls_only (void)
{
  g_autofree char *path = demo_capture ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autofree char *html = NULL;
  guint numbers[] = { 4, 7 };
  Parsed p = { 0 };

  if (path == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  analysis = load (path);
  html = write_html (analysis, numbers, 2);
  parse (html, &p);
  g_assert_cmpuint (p.order->len, ==, 2);
  /* 7 was rejected (486): it ranks before the clean call 4. */
  g_assert_cmpstr (g_ptr_array_index (p.order, 0), ==, "call-7");
  g_assert_cmpstr (g_ptr_array_index (p.order, 1), ==, "call-4");
  g_assert_false (g_hash_table_contains (p.ids, "call-5"));
  parsed_clear (&p);
}

static void
test_svg_ids_prefixed (void)
{
  const char *svg = "<?xml version=\"1.0\"?>\n<svg width=\"1\"><defs><g id=\"glyph0-1\"/>"
                    "<clipPath id=\"clip1\"/></defs><use xlink:href=\"#glyph0-1\"/>"
                    "<g clip-path=\"url(#clip1)\"/></svg>";
  g_autofree char *out = cs_svg_inline_fixup (svg, strlen (svg), "c3-");

  g_assert_cmpstr (out, ==,
                   "<svg class=\"cs-figure\" width=\"1\"><defs><g id=\"c3-glyph0-1\"/>"
                   "<clipPath id=\"c3-clip1\"/></defs><use xlink:href=\"#c3-glyph0-1\"/>"
                   "<g clip-path=\"url(#c3-clip1)\"/></svg>");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-html/every-call-and-finding", test_every_call_and_finding);
  g_test_add_func ("/report-html/selected-calls", test_selected_calls_only);
  g_test_add_func ("/report-html/svg-ids-prefixed", test_svg_ids_prefixed);
  return g_test_run ();
}
