/* cs-sdp-block.c — SDP descriptions as one block: the per-thread parse scratch, freezing
 * it into its allocation, and the questions asked of a frozen description */
#include "cs-sdp-private.h"

#include "base/cs-error.h"

#include <string.h>

const char cs_sdp_audio[] = "audio";
const char *cs_sdp_interned_encodings[3];

static void
intern_encodings_once (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      cs_sdp_interned_encodings[0] = g_intern_static_string ("PCMU");
      cs_sdp_interned_encodings[1] = g_intern_static_string ("PCMA");
      cs_sdp_interned_encodings[2] = g_intern_static_string ("telephone-event");
      g_once_init_leave (&done, 1);
    }
}

static void
scratch_free (gpointer data)
{
  SdpScratch *s = data;

  g_free (s->formats);
  g_free (s->strings);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);
/* the same pointer without g_private_get's call; the GPrivate frees it at thread end */
static _Thread_local SdpScratch *thread_scratch;

/* a thread keeps at most this much string scratch between descriptions */
#define STRINGS_KEEP (64 * 1024)

/* Room for strings_room bytes of strings: every string is a piece of one line of the
 * text plus a NUL, at most two per line, so twice the text's length is enough and they
 * never move; 16 more for the 16-byte copies of short strings. */
SdpScratch *
cs_sdp_scratch_get (gsize strings_room)
{
  SdpScratch *s = thread_scratch;

  if (G_UNLIKELY (s == NULL))
    {
      intern_encodings_once ();
      s = g_new0 (SdpScratch, 1);
      g_private_set (&scratch_key, s);
      thread_scratch = s;
    }
  strings_room += 16;
  if (s->strings_size < strings_room || s->strings_size > MAX (STRINGS_KEEP, strings_room))
    {
      g_free (s->strings);
      s->strings_size = MAX (strings_room, 1024);
      s->strings = g_malloc (s->strings_size);
    }
  s->n_media = 0;
  s->formats_len = 0;
  s->strings_used = 0;
  return s;
}

void
cs_sdp_free (CsSdp *sdp)
{
  g_free (sdp); /* one allocation, see sdp_freeze */
}

static inline char *
relocate (char *p, const SdpScratch *s, char *to)
{
  /* one unsigned compare: NULL and literals give an offset >= strings_used */
  guintptr at = (guintptr) p - (guintptr) s->strings;

  return at < s->strings_used ? to + at : p;
}

/* One block: the CsSdp, the media view (GPtrArray's public part, then pdata), the
 * blocks, their format views (GArray's public part), the formats, then the strings. */
static gsize
sdp_frozen_size (const SdpScratch *s)
{
  guint n = s->n_media;

  return sizeof (CsSdp) + sizeof (GPtrArray) + n * sizeof (gpointer)
         + n * (sizeof (CsSdpMedia) + sizeof (GArray)) + s->formats_len * sizeof (CsSdpFormat)
         + s->strings_used;
}

static CsSdp *
sdp_freeze (const CsSdp *parsed, const SdpScratch *s, void *block)
{
  guint n = s->n_media, n_formats = s->formats_len;
  CsSdp *sdp = block;
  GPtrArray *media_view = (GPtrArray *) (sdp + 1);
  CsSdpMedia *media = (CsSdpMedia *) ((gpointer *) (media_view + 1) + n);
  GArray *format_views = (GArray *) (media + n);
  CsSdpFormat *formats = (CsSdpFormat *) (format_views + n);
  char *strings = (char *) (formats + n_formats);

  G_STATIC_ASSERT (sizeof (CsSdp) % 8 == 0 && sizeof (CsSdpMedia) % 8 == 0);
  G_STATIC_ASSERT (sizeof (CsSdpFormat) % 8 == 0 && sizeof (GArray) % 8 == 0);
  G_STATIC_ASSERT (sizeof (GPtrArray) % 8 == 0);
  *sdp = *parsed;
  memcpy (strings, s->strings, s->strings_used);
  sdp->origin_username = relocate (sdp->origin_username, s, strings);
  sdp->session_name = relocate (sdp->session_name, s, strings);
  sdp->media = media_view;
  media_view->pdata = (gpointer *) (media_view + 1);
  media_view->len = n;
  for (guint i = 0; i < n_formats; i++)
    {
      formats[i] = s->formats[i];
      formats[i].encoding = relocate (formats[i].encoding, s, strings);
      formats[i].fmtp = relocate (formats[i].fmtp, s, strings);
    }
  for (guint i = 0; i < n; i++)
    {
      media[i] = s->media[i];
      media[i].media = relocate (media[i].media, s, strings);
      media[i].proto = relocate (media[i].proto, s, strings);
      for (guint c = 0; c < CS_SDP_MAX_CRYPTO; c++)
        media[i].crypto[c] = relocate (media[i].crypto[c], s, strings);
      format_views[i].data = (gchar *) (formats + s->first_format[i]);
      format_views[i].len = s->n_formats[i];
      media[i].formats = &format_views[i];
      media_view->pdata[i] = &media[i];
    }
  return sdp;
}

gsize
cs_sdp_scratch_frozen_size (void)
{
  return sdp_frozen_size (thread_scratch);
}

CsSdp *
cs_sdp_freeze_to (const CsSdp *parsed, void *block)
{
  return sdp_freeze (parsed, thread_scratch, block);
}

CsSdp *
cs_sdp_parse (const char *text, gsize len, GError **error)
{
  CsSdp parsed;
  gsize size = cs_sdp_parse_pending (text, len, &parsed);

  if (size == 0)
    {
      g_set_error_literal (error, CS_SDP_ERROR, CS_SDP_ERROR_MALFORMED, "not SDP: no v= line");
      return NULL;
    }
  return cs_sdp_freeze_to (&parsed, g_malloc (size));
}

const char *
cs_sdp_direction_to_string (CsSdpDirection dir)
{
  switch (dir)
    {
    case CS_SDP_SENDRECV:
      return "sendrecv";
    case CS_SDP_SENDONLY:
      return "sendonly";
    case CS_SDP_RECVONLY:
      return "recvonly";
    case CS_SDP_INACTIVE:
      return "inactive";
    default:
      return "unknown";
    }
}

const CsSdpFormat *
cs_sdp_media_find_format (const CsSdpMedia *media, guint8 payload_type)
{
  if (media == NULL || media->formats == NULL)
    return NULL;
  for (guint i = 0; i < media->formats->len; i++)
    {
      const CsSdpFormat *format = &g_array_index (media->formats, CsSdpFormat, i);
      if (format->payload_type == payload_type)
        return format;
    }
  return NULL;
}

gboolean
cs_sdp_media_is_hold (const CsSdpMedia *media)
{
  static const guint8 zeros[16] = { 0 };

  if (media == NULL)
    return FALSE;
  if (media->direction == CS_SDP_SENDONLY || media->direction == CS_SDP_INACTIVE)
    return TRUE;
  return media->connection.family != 0
         && memcmp (media->connection.bytes, zeros, sizeof zeros) == 0;
}
