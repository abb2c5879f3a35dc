/* cs-cli-ladder.c — ladder FILE --call CALL [-o out.png|.svg|.pdf|.txt] */
#include <glib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "cs-ladder-render.h"
#include "cs-ladder-text.h"

/* "4", "4,7" or Call-IDs, several --call options allowed; related legs on request. */
static GPtrArray *
lookup_calls (CsAnalysis *analysis, char **specs, gboolean related, GHashTable **reasons,
              GError **error)
{
  g_autoptr (GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      g_auto (GStrv) parts = g_strsplit (specs[i], ",", -1);

      for (guint p = 0; parts[p] != NULL; p++)
        {
          char *spec = g_strstrip (parts[p]);
          CsCall *call;

          if (*spec == '\0')
            continue;
          call = cs_analysis_find_call (analysis, spec);
          if (call == NULL)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "no call \"%s\" (give a call number from 'calls' or a Call-ID)", spec);
              return NULL;
            }
          if (!g_ptr_array_find (calls, call, NULL))
            g_ptr_array_add (calls, g_object_ref (call));
        }
    }
  if (related && calls->len > 0)
    {
      g_autoptr (GPtrArray) legs = cs_ladder_find_related_calls (
          cs_analysis_get_calls (analysis), cs_analysis_get_streams (analysis),
          g_ptr_array_index (calls, 0), reasons);

      for (guint i = 0; i < legs->len; i++)
        if (!g_ptr_array_find (calls, g_ptr_array_index (legs, i), NULL))
          g_ptr_array_add (calls, g_object_ref (g_ptr_array_index (legs, i)));
    }
  return g_steal_pointer (&calls);
}

int
cs_cli_cmd_ladder (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_auto (GStrv) call_specs = NULL;
  g_autofree char *time_text = NULL;
  gboolean related = FALSE;
  GOptionEntry extra[] = {
    { "call", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &call_specs,
      "Call number or Call-ID (repeat, or separate with commas, to merge calls)", "CALL" },
    { "time", 0, 0, G_OPTION_ARG_STRING, &time_text,
      "Time column: relative (default), absolute, delta or capture", "MODE" },
    { "related", 'r', 0, G_OPTION_ARG_NONE, &related,
      "Add the call's other legs (by evidence: X-Call-ID style headers, Replaces, REFER, "
      "Diversion, one SSRC on both), each named with why",
      NULL },
    { NULL },
  };
  CsLadderTimeMode mode = CS_LADDER_TIME_RELATIVE;
  CsLadderFormat format = CS_LADDER_FORMAT_TEXT;
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GPtrArray) calls = NULL;
  g_autoptr (CsLadderLayout) layout = NULL;
  g_autoptr (GHashTable) reasons = NULL;
  g_autoptr (GError) error = NULL;
  int status = CS_EXIT_OK;

  if (!cs_cli_parse (argc, argv, "FILE --call CALL [-o out.png|.svg|.pdf|.txt]", extra, &opts))
    return CS_EXIT_USAGE;
  if (call_specs == NULL)
    status = cs_cli_usage_error (argv[0], "--call CALL is required");
  else if (time_text != NULL && !cs_ladder_time_mode_parse (time_text, &mode))
    status
        = cs_cli_usage_error (argv[0], "unknown --time (use relative, absolute, delta or capture)");
  else if (opts.output != NULL && !cs_ladder_format_from_path (opts.output, &format))
    status = cs_cli_usage_error (argv[0], "-o must end in .png, .svg, .pdf or .txt");
  if (status != CS_EXIT_OK)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  analysis = cs_cli_load (&opts, &status);
  if (analysis != NULL)
    calls = lookup_calls (analysis, call_specs, related, &reasons, &error);
  if (analysis != NULL && calls == NULL)
    status = cs_cli_usage_error (argv[0], error->message);
  else if (analysis != NULL)
    {
      layout = cs_ladder_layout_new ((CsCall *const *) calls->pdata, calls->len,
                                     cs_analysis_get_streams (analysis));
      cs_ladder_layout_set_leg_reasons (layout, reasons);
      layout->capture_ns = cs_analysis_get_stats (analysis)->first_ns;
      if (opts.output == NULL)
        {
          g_autofree char *text = cs_ladder_text_render (layout, mode);
          fputs (text, stdout);
          status = cs_cli_damage_status (analysis);
        }
      else if (!cs_ladder_export (layout, mode, opts.output, format, &error))
        {
          g_printerr ("callscope-cli ladder: %s\n", error->message);
          status = CS_EXIT_UNREADABLE;
        }
      else
        status = cs_cli_damage_status (analysis);
    }
  cs_cli_options_clear (&opts);
  return status;
}
