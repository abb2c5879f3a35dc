/* cs-cli-frames.c — frames: the packet list of a scope; frame: one frame's protocol tree and
 * bytes (the Packets page of the window, on the command line) */
#include <glib.h>
#include <stdlib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "callscope-engine.h"
#include "cs-json-writer.h"
#include "cs-report-table.h"

typedef enum
{
  CS_FRAMES_TEXT,
  CS_FRAMES_CSV,
  CS_FRAMES_JSON,
} CsFramesFormat;

static gboolean
cs_cli_frames_format (const char *text, gboolean csv_allowed, CsFramesFormat *format)
{
  if (text == NULL || g_strcmp0 (text, "text") == 0)
    *format = CS_FRAMES_TEXT;
  else if (g_strcmp0 (text, "json") == 0)
    *format = CS_FRAMES_JSON;
  else if (csv_allowed && g_strcmp0 (text, "csv") == 0)
    *format = CS_FRAMES_CSV;
  else
    return FALSE;
  return TRUE;
}

/* The frames of --call, --stream or --finding, else every frame the --filter kept. */
static GArray *
cs_cli_frames_scope (CsAnalysis *analysis, const char *call, int stream, int finding,
                     const char *command)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  int given = (call != NULL) + (stream != 0) + (finding != 0);

  if (given > 1)
    {
      cs_cli_usage_error (command, "give one of --call, --stream and --finding");
      return NULL;
    }
  if (call != NULL)
    {
      CsCall *found = cs_analysis_find_call (analysis, call);

      if (found == NULL)
        {
          g_autofree char *message = g_strdup_printf ("no call '%s' in the capture", call);

          cs_cli_usage_error (command, message);
          return NULL;
        }
      return cs_frame_scope_call (analysis, found);
    }
  if (stream != 0)
    {
      CsStream *found = stream > 0 ? cs_analysis_lookup_stream (analysis, (guint) stream) : NULL;

      if (found == NULL)
        {
          cs_cli_usage_error (command, "no such --stream (see `callscope-cli streams`)");
          return NULL;
        }
      return cs_frame_scope_stream (found);
    }
  if (finding != 0)
    {
      GListModel *findings = cs_analysis_get_findings (analysis);
      g_autoptr (CsFinding) item = NULL;

      if (finding < 0 || (guint) finding > g_list_model_get_n_items (findings))
        {
          cs_cli_usage_error (command, "no such --finding (1-based, see `callscope-cli findings`)");
          return NULL;
        }
      item = g_list_model_get_item (findings, (guint) finding - 1);
      return cs_frame_scope_finding (item);
    }
  return cs_frame_scope_kept (set);
}

static void
cs_cli_frames_write (CsFrameDissector *dissector, const GArray *frames, CsFramesFormat format,
                     FILE *out)
{
  CsJsonWriter *json = NULL;

  if (format == CS_FRAMES_JSON)
    {
      json = cs_json_writer_new (out, TRUE);
      cs_json_begin_array (json);
    }
  else if (format == CS_FRAMES_CSV)
    fputs ("No.,Time,Source,Destination,Protocol,Length,Info\n", out);
  for (guint i = 0; i < frames->len; i++)
    {
      guint32 number = g_array_index (frames, guint32, i);
      g_autoptr (CsProtoTree) row = cs_frame_dissector_summary (dissector, number);
      CsFrame frame;
      char time[32], length[16], no[16];

      if (row == NULL || cs_frame_dissector_bytes (dissector, number, &frame) == NULL)
        continue;
      g_snprintf (time, sizeof time, "%.6f", cs_frame_dissector_relative_time (dissector, &frame));
      g_snprintf (length, sizeof length, "%u", frame.origlen);
      g_snprintf (no, sizeof no, "%u", number);
      if (format == CS_FRAMES_JSON)
        {
          cs_json_begin_object (json);
          cs_json_key (json, "number");
          cs_json_uint (json, number);
          cs_json_key (json, "time");
          cs_json_double (json, cs_frame_dissector_relative_time (dissector, &frame), 9);
          cs_json_key (json, "source");
          cs_json_string (json, cs_proto_tree_get_source (row));
          cs_json_key (json, "destination");
          cs_json_string (json, cs_proto_tree_get_destination (row));
          cs_json_key (json, "protocol");
          cs_json_string (json, cs_proto_tree_get_protocol (row));
          cs_json_key (json, "length");
          cs_json_uint (json, frame.origlen);
          cs_json_key (json, "info");
          cs_json_string (json, cs_proto_tree_get_info (row));
          cs_json_end_object (json);
        }
      else if (format == CS_FRAMES_CSV)
        {
          cs_csv_number (out, no, FALSE);
          cs_csv_number (out, time, FALSE);
          cs_csv_field (out, cs_proto_tree_get_source (row), FALSE);
          cs_csv_field (out, cs_proto_tree_get_destination (row), FALSE);
          cs_csv_field (out, cs_proto_tree_get_protocol (row), FALSE);
          cs_csv_number (out, length, FALSE);
          cs_csv_field (out, cs_proto_tree_get_info (row), TRUE);
        }
      else
        fprintf (out, "%7u %11s %-15s → %-15s %-8s %5u %s\n", number, time,
                 cs_proto_tree_get_source (row), cs_proto_tree_get_destination (row),
                 cs_proto_tree_get_protocol (row), frame.origlen, cs_proto_tree_get_info (row));
    }
  if (json != NULL)
    {
      cs_json_end_array (json);
      cs_json_writer_free (json);
      fputc ('\n', out);
    }
}

int
cs_cli_cmd_frames (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autofree char *call = NULL;
  int stream = 0, finding = 0;
  GOptionEntry extra[] = {
    { "call", 'c', 0, G_OPTION_ARG_STRING, &call, "The frames of a call (number or Call-ID)",
      "CALL" },
    { "stream", 's', 0, G_OPTION_ARG_INT, &stream, "The frames of a stream (its id)", "ID" },
    { "finding", 0, 0, G_OPTION_ARG_INT, &finding,
      "The frames of a finding (1-based, in the order `findings` lists them)", "N" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GArray) frames = NULL;
  g_autoptr (CsFrameDissector) dissector = NULL;
  CsFramesFormat format;
  int status = CS_EXIT_OK;
  FILE *out;

  if (!cs_cli_parse (argc, argv, "FILE... [--call CALL | --stream ID | --finding N | --filter BPF]",
                     extra, &opts))
    return CS_EXIT_USAGE;
  if (!cs_cli_frames_format (opts.format, TRUE, &format))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "unknown --format (use text, csv or json)");
    }
  analysis = cs_cli_load (&opts, &status);
  if (analysis != NULL)
    frames = cs_cli_frames_scope (analysis, call, stream, finding, argv[0]);
  if (frames == NULL)
    {
      cs_cli_options_clear (&opts);
      return analysis == NULL ? status : CS_EXIT_USAGE;
    }
  out = cs_cli_open_output (&opts);
  if (out == NULL)
    {
      cs_cli_options_clear (&opts);
      return CS_EXIT_UNREADABLE;
    }
  dissector = cs_frame_dissector_new (analysis);
  cs_cli_frames_write (dissector, frames, format, out);
  status = cs_cli_close_output (out, TRUE) ? cs_cli_damage_status (analysis) : CS_EXIT_UNREADABLE;
  cs_cli_options_clear (&opts);
  return status;
}

static void
cs_cli_frame_write_json (const CsProtoTree *tree, const guint8 *data, const CsFrame *frame,
                         guint32 number, FILE *out)
{
  CsJsonWriter *json = cs_json_writer_new (out, TRUE);
  g_autofree char *hex = cs_dissect_hex (data, frame->caplen);
  gboolean in_layer = FALSE;

  cs_json_begin_object (json);
  cs_json_key (json, "number");
  cs_json_uint (json, number);
  cs_json_key (json, "layers");
  cs_json_begin_array (json);
  for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
    {
      const CsProtoNode *node = cs_proto_tree_get_node (tree, i);

      if (node->depth == 0)
        {
          if (in_layer)
            {
              cs_json_end_array (json);
              cs_json_end_object (json);
            }
          cs_json_begin_object (json);
          cs_json_key (json, "name");
          cs_json_string (json, node->name);
          cs_json_key (json, "title");
          cs_json_string (json, node->label);
          cs_json_key (json, "offset");
          cs_json_uint (json, node->offset);
          cs_json_key (json, "length");
          cs_json_uint (json, node->length);
          cs_json_key (json, "fields");
          cs_json_begin_array (json);
          in_layer = TRUE;
          continue;
        }
      cs_json_begin_object (json);
      cs_json_key (json, "name");
      cs_json_string (json, node->name);
      cs_json_key (json, "value");
      cs_json_string (json, node->value);
      cs_json_key (json, "offset");
      cs_json_uint (json, node->offset);
      cs_json_key (json, "length");
      cs_json_uint (json, node->length);
      cs_json_key (json, "label");
      cs_json_string (json, node->label);
      cs_json_key (json, "depth");
      cs_json_uint (json, node->depth);
      if (node->computed)
        {
          cs_json_key (json, "computed");
          cs_json_bool (json, TRUE);
        }
      cs_json_end_object (json);
    }
  if (in_layer)
    {
      cs_json_end_array (json);
      cs_json_end_object (json);
    }
  cs_json_end_array (json);
  cs_json_key (json, "bytes");
  cs_json_string (json, hex);
  cs_json_end_object (json);
  cs_json_writer_free (json);
  fputc ('\n', out);
}

static void
cs_cli_frame_write_text (const CsProtoTree *tree, const guint8 *data, const CsFrame *frame,
                         FILE *out)
{
  g_autofree char *dump = cs_hex_format (data, frame->caplen);

  for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
    {
      const CsProtoNode *node = cs_proto_tree_get_node (tree, i);

      fprintf (out, "%*s%s", node->depth * 4, "", node->label);
      if (node->depth > 0 && node->name[0] != '\0')
        fprintf (out, "  [%s]", node->name);
      fputc ('\n', out);
    }
  fputc ('\n', out);
  fputs (dump, out);
}

/* `frame FILE... N`: the last argument is the frame number. */
int
cs_cli_cmd_frame (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsFrameDissector) dissector = NULL;
  g_autoptr (CsProtoTree) tree = NULL;
  CsFramesFormat format;
  guint n_files;
  guint64 number = 0;
  char *end = NULL;
  int status = CS_EXIT_OK;
  FILE *out;
  CsFrame frame;
  const guint8 *data;

  if (!cs_cli_parse (argc, argv, "FILE... N", NULL, &opts))
    return CS_EXIT_USAGE;
  n_files = opts.files != NULL ? g_strv_length (opts.files) : 0;
  if (n_files >= 2)
    number = g_ascii_strtoull (opts.files[n_files - 1], &end, 10);
  if (n_files < 2 || end == NULL || *end != '\0' || number == 0 || number > G_MAXUINT32)
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "give the capture files, then a frame number (1-based)");
    }
  g_clear_pointer (&opts.files[n_files - 1], g_free);
  if (!cs_cli_frames_format (opts.format, FALSE, &format))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "unknown --format (use text or json)");
    }
  analysis = cs_cli_load (&opts, &status);
  if (analysis == NULL)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  dissector = cs_frame_dissector_new (analysis);
  tree = cs_frame_dissector_tree (dissector, (guint32) number);
  data = cs_frame_dissector_bytes (dissector, (guint32) number, &frame);
  if (tree == NULL || data == NULL)
    {
      g_autofree char *message
          = g_strdup_printf ("no frame %" G_GUINT64_FORMAT " (the capture has %u)", number,
                             cs_capture_set_get_n_frames (cs_analysis_get_capture_set (analysis)));

      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], message);
    }
  out = cs_cli_open_output (&opts);
  if (out == NULL)
    {
      cs_cli_options_clear (&opts);
      return CS_EXIT_UNREADABLE;
    }
  if (format == CS_FRAMES_JSON)
    cs_cli_frame_write_json (tree, data, &frame, (guint32) number, out);
  else
    cs_cli_frame_write_text (tree, data, &frame, out);
  status = cs_cli_close_output (out, TRUE) ? cs_cli_damage_status (analysis) : CS_EXIT_UNREADABLE;
  cs_cli_options_clear (&opts);
  return status;
}
