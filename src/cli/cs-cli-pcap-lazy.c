/* cs-cli-pcap-lazy.c — libpcap for callscope-cli, loaded on first use.
 *
 * The front end needs libpcap only for --filter, live capture and link-type names in
 * exports, but linking it loads libpcap and its eight dependencies (D-Bus, systemd,
 * gcrypt, ...) and resolves their symbols in every run: ~1.9 M instructions and nine
 * more mappings before main, more than a whole small report costs to write. So the front
 * end is linked without it and these definitions of the functions the engine calls open
 * the library the first time one of them runs. Without libpcap they fail the way libpcap
 * reports failures (NULL, -1, an error text), so the callers' error paths apply. */
#include <dlfcn.h>
#include <glib.h>
#include <pcap/pcap.h>
#include <string.h>

#define CS_PCAP_UNAVAILABLE "libpcap is not available"

typedef struct
{
  pcap_t *(*create) (const char *, char *);
  int (*set_snaplen) (pcap_t *, int);
  int (*set_promisc) (pcap_t *, int);
  int (*set_immediate_mode) (pcap_t *, int);
  int (*set_buffer_size) (pcap_t *, int);
  int (*set_tstamp_precision) (pcap_t *, int);
  int (*activate) (pcap_t *);
  pcap_t *(*open_dead) (int, int);
  void (*close) (pcap_t *);
  int (*dispatch) (pcap_t *, int, pcap_handler, u_char *);
  void (*breakloop) (pcap_t *);
  int (*stats) (pcap_t *, struct pcap_stat *);
  int (*setfilter) (pcap_t *, struct bpf_program *);
  int (*setnonblock) (pcap_t *, int, char *);
  char *(*geterr) (pcap_t *);
  int (*compile) (pcap_t *, struct bpf_program *, const char *, int, bpf_u_int32);
  void (*freecode) (struct bpf_program *);
  int (*offline_filter) (const struct bpf_program *, const struct pcap_pkthdr *, const u_char *);
  int (*datalink) (pcap_t *);
  const char *(*datalink_val_to_name) (int);
  const char *(*datalink_val_to_description) (int);
  int (*findalldevs) (pcap_if_t **, char *);
  void (*freealldevs) (pcap_if_t *);
  int (*get_selectable_fd) (pcap_t *);
} CsPcapApi;

static CsPcapApi cs_pcap_api;

/* Every entry or none: a library missing one of them is not used at all. */
static gboolean
cs_pcap_resolve (void *lib)
{
  struct
  {
    const char *name;
    void **slot;
  } entries[] = {
#define CS_PCAP_ENTRY(field) { "pcap_" #field, (void **) &cs_pcap_api.field }
    CS_PCAP_ENTRY (create),
    CS_PCAP_ENTRY (set_snaplen),
    CS_PCAP_ENTRY (set_promisc),
    CS_PCAP_ENTRY (set_immediate_mode),
    CS_PCAP_ENTRY (set_buffer_size),
    CS_PCAP_ENTRY (set_tstamp_precision),
    CS_PCAP_ENTRY (activate),
    CS_PCAP_ENTRY (open_dead),
    CS_PCAP_ENTRY (close),
    CS_PCAP_ENTRY (dispatch),
    CS_PCAP_ENTRY (breakloop),
    CS_PCAP_ENTRY (stats),
    CS_PCAP_ENTRY (setfilter),
    CS_PCAP_ENTRY (setnonblock),
    CS_PCAP_ENTRY (geterr),
    CS_PCAP_ENTRY (compile),
    CS_PCAP_ENTRY (freecode),
    CS_PCAP_ENTRY (offline_filter),
    CS_PCAP_ENTRY (datalink),
    CS_PCAP_ENTRY (datalink_val_to_name),
    CS_PCAP_ENTRY (datalink_val_to_description),
    CS_PCAP_ENTRY (findalldevs),
    CS_PCAP_ENTRY (freealldevs),
    CS_PCAP_ENTRY (get_selectable_fd),
#undef CS_PCAP_ENTRY
  };

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    if ((*entries[i].slot = dlsym (lib, entries[i].name)) == NULL)
      {
        memset (&cs_pcap_api, 0, sizeof cs_pcap_api);
        return FALSE;
      }
  return TRUE;
}

/* The API, or NULL when no libpcap can be opened (looked up once, thread-safe). */
static const CsPcapApi *
cs_pcap (void)
{
  static gsize loaded;

  if (g_once_init_enter (&loaded))
    {
      /* the soname of the distribution's libpcap first, then upstream's, then any */
      static const char *const names[] = { "libpcap.so.0.8", "libpcap.so.1", "libpcap.so" };
      gboolean ok = FALSE;

      for (guint i = 0; !ok && i < G_N_ELEMENTS (names); i++)
        {
          void *lib = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);

          ok = lib != NULL && cs_pcap_resolve (lib);
          if (lib != NULL && !ok)
            dlclose (lib);
        }
      g_once_init_leave (&loaded, ok ? 1 : 2);
    }
  return loaded == 1 ? &cs_pcap_api : NULL;
}

static void
cs_pcap_set_unavailable (char *errbuf)
{
  if (errbuf != NULL)
    g_strlcpy (errbuf, CS_PCAP_UNAVAILABLE, PCAP_ERRBUF_SIZE);
}

pcap_t *
pcap_create (const char *source, char *errbuf)
{
  const CsPcapApi *api = cs_pcap ();

  if (api == NULL)
    {
      cs_pcap_set_unavailable (errbuf);
      return NULL;
    }
  return api->create (source, errbuf);
}

pcap_t *
pcap_open_dead (int linktype, int snaplen)
{
  const CsPcapApi *api = cs_pcap ();

  return api != NULL ? api->open_dead (linktype, snaplen) : NULL;
}

int
pcap_findalldevs (pcap_if_t **devices, char *errbuf)
{
  const CsPcapApi *api = cs_pcap ();

  if (api == NULL)
    {
      *devices = NULL;
      cs_pcap_set_unavailable (errbuf);
      return PCAP_ERROR;
    }
  return api->findalldevs (devices, errbuf);
}

const char *
pcap_datalink_val_to_name (int dlt)
{
  const CsPcapApi *api = cs_pcap ();

  return api != NULL ? api->datalink_val_to_name (dlt) : NULL;
}

const char *
pcap_datalink_val_to_description (int dlt)
{
  const CsPcapApi *api = cs_pcap ();

  return api != NULL ? api->datalink_val_to_description (dlt) : NULL;
}

int
pcap_offline_filter (const struct bpf_program *program, const struct pcap_pkthdr *header,
                     const u_char *data)
{
  const CsPcapApi *api = cs_pcap ();

  /* a program exists only once the library compiled it; without one nothing matches */
  return api != NULL ? api->offline_filter (program, header, data) : 0;
}

void
pcap_freealldevs (pcap_if_t *devices)
{
  const CsPcapApi *api = cs_pcap ();

  if (api != NULL && devices != NULL)
    api->freealldevs (devices);
}

void
pcap_freecode (struct bpf_program *program)
{
  const CsPcapApi *api = cs_pcap ();

  if (api != NULL)
    api->freecode (program);
}

/* The rest take a handle, which only the library itself can have made (pcap_create,
 * pcap_open_dead), so the API is there. */
#define CS_PCAP_FORWARD(ret, name, params, args)                                                   \
  ret pcap_##name params                                                                           \
  {                                                                                                \
    return cs_pcap ()->name args;                                                                  \
  }
#define CS_PCAP_FORWARD_VOID(name, params, args)                                                   \
  void pcap_##name params                                                                          \
  {                                                                                                \
    cs_pcap ()->name args;                                                                         \
  }

CS_PCAP_FORWARD (int, set_snaplen, (pcap_t * p, int v), (p, v))
CS_PCAP_FORWARD (int, set_promisc, (pcap_t * p, int v), (p, v))
CS_PCAP_FORWARD (int, set_immediate_mode, (pcap_t * p, int v), (p, v))
CS_PCAP_FORWARD (int, set_buffer_size, (pcap_t * p, int v), (p, v))
CS_PCAP_FORWARD (int, set_tstamp_precision, (pcap_t * p, int v), (p, v))
CS_PCAP_FORWARD (int, activate, (pcap_t * p), (p))
CS_PCAP_FORWARD_VOID (close, (pcap_t * p), (p))
CS_PCAP_FORWARD (int, dispatch, (pcap_t * p, int n, pcap_handler callback, u_char *user),
                 (p, n, callback, user))
CS_PCAP_FORWARD_VOID (breakloop, (pcap_t * p), (p))
CS_PCAP_FORWARD (int, stats, (pcap_t * p, struct pcap_stat *stats), (p, stats))
CS_PCAP_FORWARD (int, setfilter, (pcap_t * p, struct bpf_program *program), (p, program))
CS_PCAP_FORWARD (int, setnonblock, (pcap_t * p, int v, char *errbuf), (p, v, errbuf))
CS_PCAP_FORWARD (char *, geterr, (pcap_t * p), (p))
CS_PCAP_FORWARD (int, compile,
                 (pcap_t * p, struct bpf_program *program, const char *text, int optimize,
                  bpf_u_int32 netmask),
                 (p, program, text, optimize, netmask))
CS_PCAP_FORWARD (int, datalink, (pcap_t * p), (p))
CS_PCAP_FORWARD (int, get_selectable_fd, (pcap_t * p), (p))
