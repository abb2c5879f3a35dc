/* cs-capture-filter.c — BPF through libpcap: pcap_compile on a dead handle per link type */
#include "cs-capture-filter.h"
#include "base/cs-error.h"

#include <pcap/pcap.h>

typedef struct
{
  guint16 linktype;
  gboolean compiled; /* FALSE: the expression does not apply to this link type */
  struct bpf_program program;
} CsCompiledFilter;

struct _CsCaptureFilter
{
  GArray *programs; /* CsCompiledFilter */
};

static gboolean
cs_compile_for_linktype (const char *bpf, guint16 linktype, struct bpf_program *program,
                         char **message)
{
  pcap_t *dead = pcap_open_dead (cs_linktype_to_dlt (linktype), CS_CAPTURE_MAX_CAPLEN);
  gboolean ok;

  if (dead == NULL)
    {
      *message = g_strdup ("cannot create a libpcap handle");
      return FALSE;
    }
  ok = pcap_compile (dead, program, bpf, 1, PCAP_NETMASK_UNKNOWN) == 0;
  if (!ok)
    *message = g_strdup (pcap_geterr (dead));
  pcap_close (dead);
  return ok;
}

CsCaptureFilter *
cs_capture_filter_new (const char *bpf, const guint16 *linktypes, guint n_linktypes, GError **error)
{
  CsCaptureFilter *filter;
  char *first_message = NULL;
  guint n_compiled = 0;

  g_return_val_if_fail (bpf != NULL, NULL);

  filter = g_new0 (CsCaptureFilter, 1);
  filter->programs = g_array_new (FALSE, TRUE, sizeof (CsCompiledFilter));
  for (guint i = 0; i < MAX (n_linktypes, 1u); i++)
    {
      CsCompiledFilter entry = { 0 };
      char *message = NULL;

      entry.linktype = n_linktypes > 0 ? linktypes[i] : 1 /* LINKTYPE_ETHERNET */;
      entry.compiled = cs_compile_for_linktype (bpf, entry.linktype, &entry.program, &message);
      if (entry.compiled)
        n_compiled++;
      else if (first_message == NULL)
        first_message = message;
      else
        g_free (message);
      g_array_append_val (filter->programs, entry);
    }

  if (n_compiled == 0)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FILTER, "invalid filter \"%s\": %s",
                   bpf, first_message != NULL ? first_message : "no link type");
      g_free (first_message);
      cs_capture_filter_free (filter);
      return NULL;
    }
  g_free (first_message);
  return filter;
}

void
cs_capture_filter_free (CsCaptureFilter *filter)
{
  if (filter == NULL)
    return;
  for (guint i = 0; i < filter->programs->len; i++)
    {
      CsCompiledFilter *entry = &g_array_index (filter->programs, CsCompiledFilter, i);

      if (entry->compiled)
        pcap_freecode (&entry->program);
    }
  g_array_free (filter->programs, TRUE);
  g_free (filter);
}

gboolean
cs_capture_filter_matches (const CsCaptureFilter *filter, const CsFrame *frame, const guint8 *data)
{
  for (guint i = 0; i < filter->programs->len; i++)
    {
      const CsCompiledFilter *entry = &g_array_index (filter->programs, CsCompiledFilter, i);
      struct pcap_pkthdr header;

      if (entry->linktype != frame->linktype)
        continue;
      if (!entry->compiled || data == NULL)
        return FALSE;
      header.ts.tv_sec = (time_t) (frame->ts_ns / 1000000000);
      header.ts.tv_usec = (suseconds_t) (frame->ts_ns % 1000000000 / 1000);
      header.caplen = frame->caplen;
      header.len = frame->origlen;
      return pcap_offline_filter (&entry->program, &header, data) != 0;
    }
  return FALSE;
}
