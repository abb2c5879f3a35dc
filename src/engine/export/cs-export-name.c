/* cs-export-name.c — file names from capture text: nothing in a Call-ID can climb out of the
 * folder, hide as a dot file, pass for an option or reorder what a file manager shows */
#include "cs-export-name.h"

#include <string.h>

#include "calls/cs-call.h"

char *
cs_export_safe_file_name (const char *text, gsize max_bytes)
{
  GString *out = g_string_new (NULL);
  gsize start = 0;

  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;
      gboolean keep = g_ascii_isalnum (c) || strchr ("._-+@=", c) != NULL;

      if (keep)
        g_string_append_c (out, (char) c);
      else if (out->len > 0 && out->str[out->len - 1] != '_')
        g_string_append_c (out, '_');
    }
  /* no dot file, no option, no filler at either end */
  while (start < out->len && strchr ("._-", out->str[start]) != NULL)
    start++;
  g_string_erase (out, 0, (gssize) start);
  if (out->len > max_bytes)
    g_string_truncate (out, max_bytes);
  while (out->len > 0 && strchr ("._-", out->str[out->len - 1]) != NULL)
    g_string_truncate (out, out->len - 1);
  if (out->len == 0)
    g_string_assign (out, "capture");
  return g_string_free (out, FALSE);
}

char *
cs_export_suggest_file_name (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                             gboolean redact, const char *stem, const char *extension)
{
  g_autofree char *safe_stem = cs_export_safe_file_name (stem, CS_EXPORT_NAME_MAX);
  g_autofree char *safe_ext = cs_export_safe_file_name (extension, 16);

  if (n_calls == 1)
    {
      GListModel *calls = cs_analysis_get_calls (analysis);

      for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
        {
          g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
          g_autofree char *id = NULL;

          if (cs_call_get_number (call) != call_numbers[0])
            continue;
          if (redact)
            return g_strdup_printf ("call-%u-redacted.%s", call_numbers[0], safe_ext);
          id = cs_export_safe_file_name (cs_call_get_call_id (call), CS_EXPORT_NAME_MAX);
          return g_strdup_printf ("call-%u-%s.%s", call_numbers[0], id, safe_ext);
        }
    }
  return g_strdup_printf ("%s%s.%s", safe_stem, redact ? "-redacted" : "", safe_ext);
}
