/* test-export-dialog.c — File → Export under Xvfb: formats, selection, a background export */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "cs-export-dialog.h"
#include "loader/cs-loader.h"

static CsAnalysis *
load_demo (void)
{
  const char *path = g_getenv ("CS_DEMO_CAPTURE");
  g_autoptr (CsLoader) loader = cs_loader_new ();
  const char *files[2] = { path, NULL };

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  return cs_loader_load (loader, files, NULL, NULL);
}

static CsCall *
call_number (CsAnalysis *analysis, guint number)
{
  g_autoptr (CsCall) call = g_list_model_get_item (cs_analysis_get_calls (analysis), number - 1);

  g_assert_cmpuint (cs_call_get_number (call), ==, number);
  return call;
}

/* Runs the export and waits until the dialog closes itself (done) or 20 s pass. */
static void
run_export (CsExportDialog *dialog, const char *path)
{
  GtkWidget *weak = GTK_WIDGET (dialog);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &weak);
  cs_export_dialog_start (dialog, path);
  while (weak != NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (weak);
}

static void
test_export_selected_call (void)
{
  g_autoptr (CsAnalysis) analysis = load_demo ();
  g_autoptr (GPtrArray) selected = g_ptr_array_new ();
  g_autofree char *path = NULL;
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (CsAnalysis) again = NULL;
  const char *files[2] = { NULL, NULL };
  CsExportDialog *dialog;
  int fd;

  if (analysis == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  g_ptr_array_add (selected, call_number (analysis, 5));
  dialog = cs_export_dialog_new (NULL, analysis, selected);
  g_assert_cmpint (cs_export_dialog_get_kind (dialog), ==, CS_EXPORT_KIND_HTML);
  cs_export_dialog_set_kind (dialog, CS_EXPORT_KIND_PCAPNG);
  /* one call: its number and its Call-ID, which has no character unsafe in a name */
  {
    g_autofree char *expected
        = g_strdup_printf ("call-5-%s.pcapng", cs_call_get_call_id (call_number (analysis, 5)));

    g_assert_cmpstr (cs_export_dialog_suggested_name (dialog), ==, expected);
    cs_export_dialog_set_redact (dialog, TRUE);
    g_assert_cmpstr (cs_export_dialog_suggested_name (dialog), ==, "call-5-redacted.pcapng");
    cs_export_dialog_set_redact (dialog, FALSE);
  }
  gtk_window_present (GTK_WINDOW (dialog));
  if (g_getenv ("CS_EXPORT_DIALOG_SHOT") != NULL) /* time to take a screenshot */
    {
      gint64 until = g_get_monotonic_time () + 4 * G_USEC_PER_SEC;

      /* CS_EXPORT_DIALOG_SHOT=redact: with the privacy choices shown */
      cs_export_dialog_set_redact (dialog,
                                   g_strcmp0 (g_getenv ("CS_EXPORT_DIALOG_SHOT"), "redact") == 0);
      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
      cs_export_dialog_set_redact (dialog, FALSE);
    }
  fd = g_file_open_tmp ("cs-export-dialog-XXXXXX.pcapng", &path, NULL);
  close (fd);
  run_export (dialog, path);
  files[0] = path;
  again = cs_loader_load (loader, files, NULL, NULL);
  g_assert_nonnull (again);
  /* Only the selected call (all calls would give 11). */
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (again)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_streams (again)), ==, 2);
  g_unlink (path);
}

static void
test_export_html_all_calls (void)
{
  g_autoptr (CsAnalysis) analysis = load_demo ();
  g_autofree char *path = NULL;
  g_autofree char *html = NULL;
  CsExportDialog *dialog;
  guint sections = 0;
  int fd;

  if (analysis == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  dialog = cs_export_dialog_new (NULL, analysis, NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  fd = g_file_open_tmp ("cs-export-dialog-XXXXXX.html", &path, NULL);
  close (fd);
  run_export (dialog, path);
  g_assert_true (g_file_get_contents (path, &html, NULL, NULL));
  for (const char *p = html; (p = strstr (p, "<section class=\"call\"")) != NULL; p++)
    sections++;
  g_assert_cmpuint (sections, ==, g_list_model_get_n_items (cs_analysis_get_calls (analysis)));
  g_unlink (path);
}

/* The capture's addresses, in text, that no redacted output may hold. */
static GPtrArray *
original_addresses (CsAnalysis *analysis)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GListModel *streams = cs_analysis_get_streams (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) s = g_list_model_get_item (streams, i);
      char text[CS_ADDR_STRLEN];

      g_ptr_array_add (out, g_strdup (cs_addr_to_string (&cs_stream_get_src (s)->addr, text)));
    }
  return out;
}

static void
test_export_redacted (void)
{
  g_autoptr (CsAnalysis) analysis = load_demo ();
  g_autoptr (GPtrArray) originals = NULL;
  CsExportKind kinds[] = { CS_EXPORT_KIND_HTML, CS_EXPORT_KIND_CALLS_CSV, CS_EXPORT_KIND_PCAPNG };

  if (analysis == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  originals = original_addresses (analysis);
  g_assert_cmpuint (originals->len, >, 0);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      CsExportDialog *dialog = cs_export_dialog_new (NULL, analysis, NULL);
      g_autofree char *path = NULL;
      g_autofree char *bytes = NULL;
      gsize len;
      int fd;

      cs_export_dialog_set_kind (dialog, kinds[k]);
      cs_export_dialog_set_redact (dialog, TRUE);
      /* redaction applies to every format; the voice choice to the capture, silence first */
      g_assert_cmphex (cs_export_dialog_get_flags (dialog), ==,
                       CS_EXPORT_REDACT | CS_EXPORT_SILENCE_VOICE);
      g_assert_true (
          g_str_has_suffix (cs_export_dialog_suggested_name (dialog), "-redacted.html")
          || g_str_has_suffix (cs_export_dialog_suggested_name (dialog), "-redacted.csv")
          || g_str_has_suffix (cs_export_dialog_suggested_name (dialog), "-redacted.pcapng"));
      gtk_window_present (GTK_WINDOW (dialog));
      fd = g_file_open_tmp ("cs-export-dialog-XXXXXX", &path, NULL);
      close (fd);
      run_export (dialog, path);
      g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
      g_assert_cmpuint (len, >, 0);
      for (guint i = 0; i < originals->len; i++)
        if (g_strstr_len (bytes, (gssize) len, g_ptr_array_index (originals, i)) != NULL)
          g_error ("%s still in the redacted %u export", (char *) g_ptr_array_index (originals, i),
                   kinds[k]);
      g_unlink (path);
    }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export-dialog/selected-call", test_export_selected_call);
  g_test_add_func ("/export-dialog/html-all-calls", test_export_html_all_calls);
  g_test_add_func ("/export-dialog/redacted", test_export_redacted);
  return g_test_run ();
}
