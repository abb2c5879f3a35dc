/* fuzz-loader.c — the whole pipeline on one file: index, decode, reassembly,
 * SIP/SDP, calls, RTP metrics, findings, and the JSON and text reports. Small
 * caps make the eviction paths run too. */
#include "fuzz-common.h"

#include "loader/cs-loader.h"
#include "cs-report.h"

#include <stdio.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static FILE *sink;
  const char *paths[2] = { NULL, NULL };
  g_autoptr (CsLoader) loader = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;
  GError *error = NULL;
  CsLimits limits = {
    .max_calls = 40,
    .max_messages_per_call = 16,
    .max_streams = 24,
    .max_ip_datagrams = 8,
    .max_ip_bytes = 64 * 1024,
    .max_tcp_streams = 8,
    .max_tcp_bytes_per_stream = 16 * 1024,
    .max_orphan_messages = 8,
    .max_method_names = 6,
  };

  cs_fuzz_init_once ();
  /* the mapped reader's own parser: libwiretap has fuzz-wiretap */
  g_setenv ("CALLSCOPE_NO_WIRETAP", "1", FALSE);
  if (sink == NULL)
    sink = fopen ("/dev/null", "w");
  paths[0] = cs_fuzz_bytes_to_path (data, size);
  loader = cs_loader_new ();
  cs_loader_set_threads (loader, 1);
  cs_loader_set_limits (loader, &limits);
  analysis = cs_loader_load (loader, paths, NULL, &error);
  if (analysis == NULL)
    {
      g_assert (error != NULL);
      g_error_free (error);
      return 0;
    }
  g_assert (g_list_model_get_n_items (cs_analysis_get_calls (analysis)) <= limits.max_calls);
  g_assert (g_list_model_get_n_items (cs_analysis_get_streams (analysis)) <= limits.max_streams);
  cs_report_write (analysis, CS_REPORT_FORMAT_JSON, sink);
  cs_report_write (analysis, CS_REPORT_FORMAT_TEXT, sink);
  cs_report_write_table (analysis, CS_TABLE_STREAMS, CS_REPORT_FORMAT_CSV, sink);
  cs_report_write_table (analysis, CS_TABLE_FINDINGS, CS_REPORT_FORMAT_CSV, sink);
  return 0;
}
