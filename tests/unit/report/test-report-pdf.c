/* test-report-pdf.c — the PDF report renders (poppler), with the page count it reports and a
 * page per call section */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "loader/cs-loader.h"
#include "cs-report-pdf.h"

static char *
demo_capture (void)
{
  const char *dir = g_getenv ("G_TEST_BUILDDIR");
  char *path = g_build_filename (dir != NULL ? dir : ".", "gen", "callscope-demo.pcapng", NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_clear_pointer (&path, g_free);
  return path;
}

static char *
run (const char *const *argv)
{
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  return out;
}

static void
test_pdf_renders_every_call (void)
{
  g_autofree char *path = demo_capture ();
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *pdf = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *pdftoppm = g_find_program_in_path ("pdftoppm");
  g_autofree char *pdftotext = g_find_program_in_path ("pdftotext");
  g_autofree char *head = NULL;
  const char *files[2] = { NULL, NULL };
  GListModel *calls;
  guint n_pages = 0, n_calls, pngs = 0;
  FILE *out;

  if (path == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  files[0] = path;
  analysis = cs_loader_load (loader, files, NULL, &error);
  g_assert_no_error (error);
  calls = cs_analysis_get_calls (analysis);
  n_calls = g_list_model_get_n_items (calls);
  dir = g_dir_make_tmp ("cs-report-pdf-XXXXXX", &error);
  g_assert_no_error (error);
  pdf = g_build_filename (dir, "report.pdf", NULL);
  out = fopen (pdf, "wb");
  g_assert_nonnull (out);
  g_assert_true (cs_report_pdf_write (analysis, NULL, 0, out, &n_pages, NULL, NULL, &error));
  g_assert_no_error (error);
  fclose (out);
  /* The summary, then each call on pages of its own. */
  g_assert_cmpuint (n_pages, >=, 1 + n_calls);
  {
    g_autofree char *bytes = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (pdf, &bytes, &len, NULL));
    head = g_strndup (bytes, 5);
    g_assert_cmpstr (head, ==, "%PDF-");
  }
  if (pdftoppm == NULL || pdftotext == NULL)
    {
      g_test_skip ("poppler-utils (pdftoppm, pdftotext) not installed");
      return;
    }
  prefix = g_build_filename (dir, "page", NULL);
  {
    const char *argv[] = { "pdftoppm", "-r", "20", "-png", pdf, prefix, NULL };
    g_autofree char *ignored = run (argv);
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      if (g_str_has_suffix (name, ".png"))
        {
          g_autofree char *png = g_build_filename (dir, name, NULL);
          gsize size = 0;
          g_autofree char *data = NULL;

          g_assert_true (g_file_get_contents (png, &data, &size, NULL));
          g_assert_cmpuint (size, >, 1000); /* something was drawn */
          g_unlink (png);
          pngs++;
        }
  }
  g_assert_cmpuint (pngs, ==, n_pages);
  {
    const char *argv[] = { "pdftotext", "-layout", pdf, "-", NULL };
    g_autofree char *text = run (argv);

    for (guint i = 0; i < n_calls; i++)
      {
        g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
        g_autofree char *heading = g_strdup_printf ("Call %u: %s", cs_call_get_number (call),
                                                    cs_call_get_method_name (call));

        g_assert_nonnull (strstr (text, heading));
      }
    g_assert_nonnull (strstr (text, "Calls, worst first"));
  }
  g_unlink (pdf);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-pdf/renders-every-call", test_pdf_renders_every_call);
  return g_test_run ();
}
