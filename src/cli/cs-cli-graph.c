/* cs-cli-graph.c — graph: one stream's jitter, delta, skew, MOS or bitrate as PNG/SVG/PDF */
#include <glib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "callscope-engine.h"
#include "cs-graph-render.h"

#define CS_CLI_GRAPH_DEFAULT_WIDTH 1000
#define CS_CLI_GRAPH_DEFAULT_HEIGHT 360

/* The findings about this stream, marked at their first frame. */
static void
add_finding_markers (CsGraph *graph, CsAnalysis *analysis, guint stream_id)
{
  GListModel *findings = cs_analysis_get_findings (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      const GArray *frames = cs_finding_get_frames (finding);

      if (cs_finding_get_stream_id (finding) == stream_id && frames != NULL && frames->len > 0)
        cs_graph_add_finding_marker (graph, stream_id, g_array_index (frames, guint32, 0));
    }
}

int
cs_cli_cmd_graph (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  int stream_id = 0, width = CS_CLI_GRAPH_DEFAULT_WIDTH, height = CS_CLI_GRAPH_DEFAULT_HEIGHT;
  int jitter_buffer_ms = CS_JITTER_BUFFER_DEFAULT_DELAY_MS;
  g_autofree char *kind_text = NULL;
  GOptionEntry extra[] = {
    { "stream", 's', 0, G_OPTION_ARG_INT, &stream_id, "Stream id (see 'streams')", "ID" },
    { "kind", 'k', 0, G_OPTION_ARG_STRING, &kind_text,
      "jitter (default), delta, skew, mos or bitrate", "KIND" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Width in px (default 1000)", "PX" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Height in px (default 360)", "PX" },
    { "jitter-buffer", 0, 0, G_OPTION_ARG_INT, &jitter_buffer_ms,
      "Fixed jitter buffer for MOS, ms (default 50)", "MS" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  CsGraphKind kind = CS_GRAPH_KIND_JITTER;
  g_autoptr (CsAnalysis) analysis = NULL;
  CsStream *stream = NULL; /* the analysis keeps it */
  g_autoptr (CsGraph) graph = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL;
  CsJitterBufferConfig jb;
  CsGraphRenderOptions options;
  int status = CS_EXIT_OK;

  if (!cs_cli_parse (argc, argv, "FILE --stream ID [--kind KIND] -o out.png|.svg|.pdf", extra,
                     &opts))
    return CS_EXIT_USAGE;
  if (kind_text != NULL && !cs_graph_kind_parse (kind_text, &kind))
    status = cs_cli_usage_error (argv[0], "unknown --kind (use jitter, delta, skew, mos, bitrate)");
  else if (stream_id <= 0)
    status = cs_cli_usage_error (argv[0], "--stream ID is required");
  else if (opts.output == NULL || g_strcmp0 (opts.output, "-") == 0)
    status = cs_cli_usage_error (argv[0], "-o out.png|.svg|.pdf is required");
  else if (!g_str_has_suffix (opts.output, ".png") && !g_str_has_suffix (opts.output, ".svg")
           && !g_str_has_suffix (opts.output, ".pdf"))
    status = cs_cli_usage_error (argv[0], "the output must end in .png, .svg or .pdf");
  else if (width < 200 || height < 120 || width > 20000 || height > 20000)
    status = cs_cli_usage_error (argv[0], "--width/--height out of range (200..20000, 120..20000)");
  else if (jitter_buffer_ms < 0 || jitter_buffer_ms > 10000)
    status = cs_cli_usage_error (argv[0], "--jitter-buffer out of range (0..10000)");
  if (status != CS_EXIT_OK)
    {
      cs_cli_options_clear (&opts);
      return status;
    }

  analysis = cs_cli_load (&opts, &status);
  if (analysis == NULL)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  stream = cs_analysis_lookup_stream (analysis, (guint) stream_id);
  if (stream == NULL)
    {
      g_printerr ("callscope-cli: no stream %d in the capture (see 'callscope-cli streams')\n",
                  stream_id);
      cs_cli_options_clear (&opts);
      return CS_EXIT_USAGE;
    }

  cs_jitter_buffer_config_init_default (&jb);
  jb.delay_ms = (guint) jitter_buffer_ms;
  /* Time zero is the capture's first packet, as in Wireshark's time column. */
  graph = cs_graph_new (kind, cs_analysis_get_stats (analysis)->first_ns);
  cs_graph_add_stream (graph, stream, &jb);
  add_finding_markers (graph, analysis, (guint) stream_id);
  cs_graph_render_options_init (&options, graph, width, height);
  {
    static const char *const names[CS_GRAPH_N_KINDS]
        = { "jitter", "delta", "skew", "MOS per 5 s", "bitrate" };
    title = g_strdup_printf ("Stream %d (%s) — %s%s%s%s", stream_id, cs_stream_get_codec (stream),
                             names[kind], kind == CS_GRAPH_KIND_MOS ? "" : " (",
                             kind == CS_GRAPH_KIND_MOS ? "" : cs_graph_kind_unit (kind),
                             kind == CS_GRAPH_KIND_MOS ? "" : ")");
    options.title = title;
  }
  if (!cs_graph_render_to_file (graph, &options, NULL, opts.output, &error))
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      status = CS_EXIT_UNREADABLE;
    }
  else
    status = cs_cli_damage_status (analysis);
  cs_cli_options_clear (&opts);
  return status;
}
