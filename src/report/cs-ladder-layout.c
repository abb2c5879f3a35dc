/* cs-ladder-layout.c — the geometry of a ladder diagram: columns, rows, arrows, RTP lanes */
#include "cs-ladder-layout.h"

#include <pango/pangocairo.h>
#include <string.h>

#include "callscope-engine.h"

/* Text measuring: the same font the painter uses, at 96 dpi. */
typedef struct
{
  PangoContext *context;
  PangoLayout *layout;
} CsLadderMeasure;

static void
measure_init (CsLadderMeasure *m)
{
  PangoFontDescription *font = pango_font_description_from_string (CS_LADDER_FONT);

  pango_font_description_set_size (font, (int) (CS_LADDER_FONT_SIZE * PANGO_SCALE));
  m->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  pango_cairo_context_set_resolution (m->context, 96.0);
  m->layout = pango_layout_new (m->context);
  pango_layout_set_font_description (m->layout, font);
  pango_font_description_free (font);
}

static void
measure_clear (CsLadderMeasure *m)
{
  g_clear_object (&m->layout);
  g_clear_object (&m->context);
}

static double
measure_width (CsLadderMeasure *m, const char *text)
{
  int width = 0;

  if (text == NULL)
    return 0;
  pango_layout_set_text (m->layout, text, -1);
  pango_layout_get_pixel_size (m->layout, &width, NULL);
  return width;
}

/* Helpers */

CsLadderQuality
cs_ladder_quality_for_mos (double mos)
{
  if (mos < 0)
    return CS_LADDER_QUALITY_UNKNOWN;
  if (mos >= 4.0)
    return CS_LADDER_QUALITY_GOOD;
  if (mos >= 3.6)
    return CS_LADDER_QUALITY_DEGRADED;
  return CS_LADDER_QUALITY_BAD;
}

gboolean
cs_ladder_time_mode_parse (const char *text, CsLadderTimeMode *mode)
{
  if (g_strcmp0 (text, "absolute") == 0)
    *mode = CS_LADDER_TIME_ABSOLUTE;
  else if (g_strcmp0 (text, "relative") == 0)
    *mode = CS_LADDER_TIME_RELATIVE;
  else if (g_strcmp0 (text, "delta") == 0)
    *mode = CS_LADDER_TIME_DELTA;
  else if (g_strcmp0 (text, "capture") == 0)
    *mode = CS_LADDER_TIME_CAPTURE;
  else
    return FALSE;
  return TRUE;
}

static const char *
format_name (const CsSdpMedia *media, const CsSdpFormat *format, char *buf, gsize len)
{
  const CsCodecInfo *info;

  if (format->encoding != NULL)
    info = cs_codec_lookup_encoding (format->encoding, format->clock_rate);
  else
    info = cs_codec_lookup_static (format->payload_type);
  if (info != NULL)
    return info->name;
  if (format->encoding != NULL)
    return format->encoding;
  g_snprintf (buf, len, "PT %u", format->payload_type);
  return buf;
}

char *
cs_ladder_sdp_summary (const CsSipMessage *msg)
{
  const CsSdpMedia *media = NULL;
  GString *text;
  char addr[CS_ADDR_STRLEN];
  char name[16];
  CsAddr connection;

  if (msg == NULL || cs_sip_message_get_sdp (msg) == NULL
      || cs_sip_message_get_sdp (msg)->media->len == 0)
    return NULL;
  for (guint i = 0; i < cs_sip_message_get_sdp (msg)->media->len && media == NULL; i++)
    if (g_strcmp0 (
            ((CsSdpMedia *) g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, i))->media,
            "audio")
        == 0)
      media = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, i);
  if (media == NULL)
    media = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, 0);
  text = g_string_new (NULL);
  /* The offered codecs, at most three, the preferred first. */
  for (guint i = 0; media->formats != NULL && i < media->formats->len && i < 3; i++)
    {
      const CsSdpFormat *f = &g_array_index (media->formats, CsSdpFormat, i);
      g_string_append_printf (text, "%s%s", i > 0 ? "," : "", format_name (media, f, name, 16));
    }
  if (media->formats != NULL && media->formats->len > 3)
    g_string_append (text, ",…");
  if (text->len == 0)
    g_string_append (text, media->media != NULL ? media->media : "?");
  connection = media->connection.family != 0 ? media->connection
                                             : cs_sip_message_get_sdp (msg)->connection;
  if (connection.family == 6)
    g_string_append_printf (text, "  [%s]:%u", cs_addr_to_string (&connection, addr), media->port);
  else if (connection.family == 4)
    g_string_append_printf (text, "  %s:%u", cs_addr_to_string (&connection, addr), media->port);
  else
    g_string_append_printf (text, "  port %u", media->port);
  g_string_append_printf (text, "  %s", cs_sdp_direction_to_string (media->direction));
  return g_string_free (text, FALSE);
}

char *
cs_ladder_layout_format_time (const CsLadderLayout *layout, guint row, CsLadderTimeMode mode)
{
  const CsLadderRow *r;
  gint64 ns;

  g_return_val_if_fail (row < layout->rows->len, NULL);
  r = &g_array_index (layout->rows, CsLadderRow, row);
  switch (mode)
    {
    case CS_LADDER_TIME_ABSOLUTE:
      {
        gint64 s = r->ts_ns / G_GINT64_CONSTANT (1000000000);
        guint us = (guint) ((r->ts_ns % G_GINT64_CONSTANT (1000000000)) / 1000);
        g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (s);
        g_autofree char *text = NULL;
        gint64 previous_hour = row == 0 ? -1
                                        : g_array_index (layout->rows, CsLadderRow, row - 1).ts_ns
                                              / G_GINT64_CONSTANT (3600000000000);

        if (utc == NULL)
          return g_strdup ("?");
        /* The hour once, then what changes: the column stays readable at its width. */
        if (previous_hour != r->ts_ns / G_GINT64_CONSTANT (3600000000000))
          {
            text = g_date_time_format (utc, "%H:%M:%S");
            return g_strdup_printf ("%s.%03u", text, us / 1000);
          }
        text = g_date_time_format (utc, "%M:%S");
        return g_strdup_printf ("%s.%06u", text, us);
      }
    case CS_LADDER_TIME_CAPTURE:
      return g_strdup_printf ("%.6f", (double) (r->ts_ns - layout->capture_ns) / 1e9);
    case CS_LADDER_TIME_DELTA:
      ns = row == 0 ? 0 : r->ts_ns - g_array_index (layout->rows, CsLadderRow, row - 1).ts_ns;
      return g_strdup_printf ("+%.6f", (double) ns / 1e9);
    case CS_LADDER_TIME_RELATIVE:
    default:
      return g_strdup_printf ("%.6f", (double) (r->ts_ns - layout->first_ns) / 1e9);
    }
}

char *
cs_ladder_layout_format_utc (const CsLadderLayout *layout, guint row)
{
  const CsLadderRow *r;
  g_autoptr (GDateTime) utc = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (row < layout->rows->len, NULL);
  r = &g_array_index (layout->rows, CsLadderRow, row);
  utc = g_date_time_new_from_unix_utc (r->ts_ns / G_GINT64_CONSTANT (1000000000));
  if (utc == NULL)
    return g_strdup ("?");
  text = g_date_time_format (utc, "%Y-%m-%d %H:%M:%S");
  return g_strdup_printf ("%s.%06u UTC", text,
                          (guint) ((r->ts_ns % G_GINT64_CONSTANT (1000000000)) / 1000));
}

/* Columns */

static guint
column_for (CsLadderLayout *layout, GHashTable *index, const CsEndpoint *ep)
{
  gpointer found;
  CsLadderColumn column = { 0 };
  char buf[CS_ENDPOINT_STRLEN];

  if (g_hash_table_lookup_extended (index, ep, NULL, &found))
    return GPOINTER_TO_UINT (found);
  column.endpoint = *ep;
  if (ep->port == 0)
    column.title = g_strdup (cs_addr_to_string (&ep->addr, buf));
  else
    column.title = g_strdup (cs_endpoint_to_string (ep, buf));
  g_array_append_val (layout->columns, column);
  g_hash_table_insert (index, g_memdup2 (ep, sizeof *ep),
                       GUINT_TO_POINTER (layout->columns->len - 1));
  return layout->columns->len - 1;
}

/* RTP goes to the SIP column of the same address (the phone), else a media-only column. */
static guint
media_column_for (CsLadderLayout *layout, GHashTable *index, const CsEndpoint *ep)
{
  CsEndpoint addr_only = { ep->addr, 0 };

  for (guint i = 0; i < layout->columns->len; i++)
    {
      CsLadderColumn *c = &g_array_index (layout->columns, CsLadderColumn, i);
      if (cs_addr_equal (&c->endpoint.addr, &ep->addr))
        return i;
    }
  return column_for (layout, index, &addr_only);
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const CsLadderRow *ra = a, *rb = b;

  if (ra->ts_ns != rb->ts_ns)
    return ra->ts_ns < rb->ts_ns ? -1 : 1;
  if (ra->frame != rb->frame)
    return ra->frame < rb->frame ? -1 : 1;
  if (ra->kind != rb->kind)
    return ra->kind == CS_LADDER_ROW_MESSAGE ? -1 : 1;
  if (ra->leg != rb->leg)
    return ra->leg < rb->leg ? -1 : 1;
  return ra->message_index < rb->message_index ? -1 : ra->message_index > rb->message_index;
}

static void
add_message_rows (CsLadderLayout *layout, GHashTable *index, guint leg, CsCall *call)
{
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);
      CsLadderRow row = { 0 };

      row.kind = CS_LADDER_ROW_MESSAGE;
      row.ts_ns = cs_sip_message_get_ts_ns (msg);
      row.frame = cs_sip_message_get_frame (msg);
      row.leg = leg;
      row.from_col = column_for (layout, index, cs_sip_message_get_src (msg));
      row.to_col = column_for (layout, index, cs_sip_message_get_dst (msg));
      {
        g_autofree char *label = cs_sip_message_dup_label (msg);

        row.label = cs_text_inert_dup (label); /* the reason phrase is the capture's */
      }
      {
        g_autofree char *detail = cs_ladder_sdp_summary (msg);

        row.detail = cs_text_inert_dup (detail); /* codec names are the capture's too */
      }
      row.status = cs_sip_message_is_request (msg) ? 0 : cs_sip_message_get_status_code (msg);
      row.is_request = cs_sip_message_is_request (msg);
      row.retransmission = cs_call_message_is_retransmission (call, i);
      row.sighting = cs_call_message_is_sighting (call, i);
      row.message = cs_sip_message_ref (msg);
      row.message_index = i;
      g_array_append_val (layout->rows, row);
    }
}

static void
add_stream_rows (CsLadderLayout *layout, GHashTable *index, guint leg, CsCall *call,
                 GListModel *streams)
{
  const GArray *ids = cs_call_get_stream_ids (call);

  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      CsStream *stream = cs_streams_lookup (streams, g_array_index (ids, guint, i));
      const CsRtpStats *stats;
      const CsMos *mos;
      CsLadderRow row = { 0 };
      double loss_pct;

      if (stream == NULL)
        continue;
      stats = cs_stream_get_stats (stream);
      mos = cs_stream_get_mos (stream);
      loss_pct = stats->expected > 0 ? 100.0 * stats->lost / stats->expected : 0;
      row.kind = CS_LADDER_ROW_STREAM;
      row.ts_ns = stats->first_ns;
      row.frame = stats->first_frame;
      row.leg = leg;
      row.from_col = media_column_for (layout, index, cs_stream_get_src (stream));
      row.to_col = media_column_for (layout, index, cs_stream_get_dst (stream));
      row.label = g_strdup_printf ("RTP %s", cs_stream_get_codec (stream));
      if (mos->mos >= 0)
        row.detail
            = g_strdup_printf ("#%u · %u pkts · loss %.1f%% · MOS %.2f", cs_stream_get_id (stream),
                               stats->packets, loss_pct, mos->mos);
      else
        row.detail = g_strdup_printf ("#%u · %u pkts · loss %.1f%%", cs_stream_get_id (stream),
                                      stats->packets, loss_pct);
      row.quality = cs_ladder_quality_for_mos (mos->mos);
      row.stream = g_object_ref (stream);
      g_array_append_val (layout->rows, row);
    }
}

/* y at a time: rows are not evenly spaced in time, so interpolate between the arrows of the
 * rows just before and just after it. */
static double
y_for_time (const CsLadderLayout *layout, gint64 ts_ns)
{
  guint lo = 0, hi = layout->rows->len;
  const CsLadderRow *prev, *next;
  double y_prev, y_next, fraction;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (layout->rows, CsLadderRow, mid).ts_ns <= ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  prev = &g_array_index (layout->rows, CsLadderRow, lo - 1);
  if (lo == layout->rows->len)
    return prev->y + prev->height;
  next = &g_array_index (layout->rows, CsLadderRow, lo);
  y_prev = prev->y + CS_LADDER_ARROW_Y;
  y_next = next->y + CS_LADDER_ARROW_Y;
  fraction = next->ts_ns > prev->ts_ns
                 ? (double) (ts_ns - prev->ts_ns) / (double) (next->ts_ns - prev->ts_ns)
                 : 0;
  return y_prev + fraction * (y_next - y_prev);
}

static void
place_lanes (CsLadderLayout *layout)
{
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      CsLadderLane lane = { 0 };

      if (r->kind != CS_LADDER_ROW_STREAM)
        continue;
      lane.row = i;
      lane.from_col = r->from_col;
      lane.to_col = r->to_col;
      lane.y_start = r->y + r->height * 0.5;
      lane.y_end
          = MAX (lane.y_start + 4, y_for_time (layout, cs_stream_get_stats (r->stream)->last_ns));
      lane.quality = r->quality;
      /* Lanes of one column that overlap in time sit side by side. */
      for (guint j = 0; j < layout->lanes->len; j++)
        {
          const CsLadderLane *o = &g_array_index (layout->lanes, CsLadderLane, j);
          if (o->from_col == lane.from_col && o->y_end > lane.y_start && o->slot >= lane.slot)
            lane.slot = o->slot + 1;
        }
      g_array_append_val (layout->lanes, lane);
    }
}

/* Distances between neighbouring columns: wide enough for every label spanning them. */
static void
place_columns (CsLadderLayout *layout)
{
  guint n = layout->columns->len;
  g_autofree double *gap = g_new0 (double, MAX (n, 1));
  CsLadderMeasure m;
  double x;

  measure_init (&m);
  for (guint i = 0; i + 1 < n; i++)
    gap[i] = CS_LADDER_MIN_GAP;
  for (guint i = 0; i < n; i++)
    {
      CsLadderColumn *c = &g_array_index (layout->columns, CsLadderColumn, i);
      double w = MAX (measure_width (&m, c->title), measure_width (&m, c->subtitle));
      if (i + 1 < n)
        gap[i] = MAX (gap[i], w + 24);
    }
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      guint lo = MIN (r->from_col, r->to_col), hi = MAX (r->from_col, r->to_col);
      double need = MAX (measure_width (&m, r->label), measure_width (&m, r->detail) * 0.92) + 40;

      if (lo == hi)
        continue;
      /* Spread what is missing over the gaps the arrow crosses. */
      {
        double have = 0;
        for (guint g = lo; g < hi; g++)
          have += gap[g];
        if (have < need)
          for (guint g = lo; g < hi; g++)
            gap[g] += (need - have) / (hi - lo);
      }
    }
  measure_clear (&m);
  x = CS_LADDER_TIME_WIDTH + CS_LADDER_MIN_GAP / 2;
  for (guint i = 0; i < n; i++)
    {
      g_array_index (layout->columns, CsLadderColumn, i).x = x;
      if (i + 1 < n)
        x += gap[i];
    }
  layout->width = x + CS_LADDER_MIN_GAP / 2 + CS_LADDER_MARGIN;
}

/* The first User-Agent/Server each endpoint sent names its column. */
static void
name_columns (CsLadderLayout *layout, GHashTable *index)
{
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      CsLadderColumn *c;

      if (r->message == NULL || cs_sip_message_get_user_agent (r->message) == NULL
          || cs_sip_message_get_user_agent (r->message)[0] == '\0')
        continue;
      c = &g_array_index (layout->columns, CsLadderColumn, r->from_col);
      if (c->subtitle == NULL)
        {
          g_autofree char *agent = cs_text_inert_dup (cs_sip_message_get_user_agent (r->message));

          c->subtitle = g_utf8_substring (agent, 0, MIN (40, g_utf8_strlen (agent, -1)));
        }
    }
}

static int
compare_calls_by_start (gconstpointer a, gconstpointer b)
{
  CsCall *ca = *(CsCall **) a, *cb = *(CsCall **) b;
  gint64 ta = cs_call_get_start_ns (ca), tb = cs_call_get_start_ns (cb);

  if (ta != tb)
    return ta < tb ? -1 : 1;
  return (int) cs_call_get_number (ca) - (int) cs_call_get_number (cb);
}

CsLadderLayout *
cs_ladder_layout_new (CsCall *const *calls, guint n_calls, GListModel *streams)
{
  CsLadderLayout *layout = g_new0 (CsLadderLayout, 1);
  g_autoptr (GHashTable) index = g_hash_table_new_full (
      (GHashFunc) cs_endpoint_hash, (GEqualFunc) cs_endpoint_equal, g_free, NULL);
  double y = 0;

  layout->calls = g_ptr_array_new_with_free_func (g_object_unref);
  layout->columns = g_array_new (FALSE, TRUE, sizeof (CsLadderColumn));
  layout->rows = g_array_new (FALSE, TRUE, sizeof (CsLadderRow));
  layout->lanes = g_array_new (FALSE, TRUE, sizeof (CsLadderLane));
  for (guint i = 0; i < n_calls; i++)
    g_ptr_array_add (layout->calls, g_object_ref (calls[i]));
  g_ptr_array_sort (layout->calls, compare_calls_by_start);

  /* Messages first, so that SIP endpoints own the columns media is mapped onto. */
  for (guint leg = 0; leg < layout->calls->len; leg++)
    add_message_rows (layout, index, leg, g_ptr_array_index (layout->calls, leg));
  for (guint leg = 0; leg < layout->calls->len; leg++)
    add_stream_rows (layout, index, leg, g_ptr_array_index (layout->calls, leg), streams);
  g_array_sort (layout->rows, compare_rows);
  for (guint i = 0; i < layout->rows->len; i++)
    {
      CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      r->y = y;
      r->height = CS_LADDER_ROW_HEIGHT + (r->detail != NULL ? CS_LADDER_SDP_HEIGHT : 0);
      y += r->height;
    }
  layout->rows_height = y;
  layout->first_ns = layout->rows->len > 0 ? g_array_index (layout->rows, CsLadderRow, 0).ts_ns : 0;
  layout->capture_ns = layout->first_ns;
  name_columns (layout, index);
  place_columns (layout);
  place_lanes (layout);
  return layout;
}

void
cs_ladder_layout_free (CsLadderLayout *layout)
{
  if (layout == NULL)
    return;
  for (guint i = 0; i < layout->columns->len; i++)
    {
      CsLadderColumn *c = &g_array_index (layout->columns, CsLadderColumn, i);
      g_free (c->title);
      g_free (c->subtitle);
    }
  for (guint i = 0; i < layout->rows->len; i++)
    {
      CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      g_free (r->label);
      g_free (r->detail);
      g_clear_pointer (&r->message, cs_sip_message_unref);
      g_clear_object (&r->stream);
    }
  g_array_unref (layout->columns);
  g_array_unref (layout->rows);
  g_array_unref (layout->lanes);
  g_ptr_array_unref (layout->calls);
  g_clear_pointer (&layout->leg_reasons, g_hash_table_unref);
  g_free (layout);
}

void
cs_ladder_layout_set_leg_reasons (CsLadderLayout *layout, GHashTable *reasons)
{
  if (reasons != NULL)
    g_hash_table_ref (reasons);
  g_clear_pointer (&layout->leg_reasons, g_hash_table_unref);
  layout->leg_reasons = reasons;
}

guint
cs_ladder_layout_row_at (const CsLadderLayout *layout, double y)
{
  guint lo = 0, hi = layout->rows->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, mid);
      if (r->y + r->height <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
cs_ladder_layout_lane_span (const CsLadderLayout *layout, const CsLadderLane *lane, double *left,
                            double *right)
{
  int side = lane->to_col >= lane->from_col ? 1 : -1;
  double x = g_array_index (layout->columns, CsLadderColumn, lane->from_col).x
             + side * (3 + lane->slot * (CS_LADDER_LANE_WIDTH + 2));

  *left = side > 0 ? x : x - CS_LADDER_LANE_WIDTH;
  *right = *left + CS_LADDER_LANE_WIDTH;
}

int
cs_ladder_layout_lane_at (const CsLadderLayout *layout, double x, double y, double slack)
{
  int found = -1;

  for (guint i = 0; i < layout->lanes->len; i++)
    {
      const CsLadderLane *lane = &g_array_index (layout->lanes, CsLadderLane, i);
      double left, right;

      cs_ladder_layout_lane_span (layout, lane, &left, &right);
      if (x >= left - slack && x <= right + slack && y >= lane->y_start - slack
          && y <= lane->y_end + slack)
        found = (int) i;
    }
  return found;
}

gint64
cs_ladder_layout_time_at (const CsLadderLayout *layout, double y)
{
  guint lo = 0, hi = layout->rows->len;
  const CsLadderRow *prev, *next;
  double y_prev, y_next;

  if (hi == 0)
    return 0;
  /* the first row whose arrow is below y */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (layout->rows, CsLadderRow, mid).y + CS_LADDER_ARROW_Y <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return g_array_index (layout->rows, CsLadderRow, 0).ts_ns;
  prev = &g_array_index (layout->rows, CsLadderRow, lo - 1);
  if (lo == layout->rows->len)
    return prev->ts_ns;
  next = &g_array_index (layout->rows, CsLadderRow, lo);
  y_prev = prev->y + CS_LADDER_ARROW_Y;
  y_next = next->y + CS_LADDER_ARROW_Y;
  if (y_next <= y_prev)
    return prev->ts_ns;
  return prev->ts_ns
         + (gint64) ((double) (next->ts_ns - prev->ts_ns) * (y - y_prev) / (y_next - y_prev));
}

const CsRtpPacket *
cs_ladder_layout_lane_packet (const CsLadderLayout *layout, guint lane, double y)
{
  const CsLadderLane *l;
  const GArray *packets;
  gint64 ts_ns;
  guint lo = 0, hi;

  if (lane >= layout->lanes->len)
    return NULL;
  l = &g_array_index (layout->lanes, CsLadderLane, lane);
  packets = cs_stream_get_packets (g_array_index (layout->rows, CsLadderRow, l->row).stream);
  if (packets == NULL || packets->len == 0)
    return NULL;
  /* the lane's top, down to its stream's bar, is the stream's first packet */
  if (y
      <= MAX (l->y_start, g_array_index (layout->rows, CsLadderRow, l->row).y + CS_LADDER_ARROW_Y))
    return &g_array_index (packets, CsRtpPacket, 0);
  ts_ns = cs_ladder_layout_time_at (layout, MIN (y, l->y_end));
  /* packets are in capture order: the first arriving at or after ts_ns, or the one before */
  hi = packets->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (packets, CsRtpPacket, mid).arrival_ns < ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == packets->len
      || (lo > 0
          && ts_ns - g_array_index (packets, CsRtpPacket, lo - 1).arrival_ns
                 < g_array_index (packets, CsRtpPacket, lo).arrival_ns - ts_ns))
    lo--;
  return &g_array_index (packets, CsRtpPacket, lo);
}

int
cs_ladder_layout_find_message (const CsLadderLayout *layout, guint leg, guint message_index)
{
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      if (r->kind == CS_LADDER_ROW_MESSAGE && r->leg == leg && r->message_index == message_index)
        return (int) i;
    }
  return -1;
}

guint
cs_ladder_layout_next_message (const CsLadderLayout *layout, guint row, int direction)
{
  gint64 i = (gint64) row + (direction < 0 ? -1 : 1);

  for (; i >= 0 && i < (gint64) layout->rows->len; i += direction < 0 ? -1 : 1)
    if (g_array_index (layout->rows, CsLadderRow, i).kind == CS_LADDER_ROW_MESSAGE)
      return (guint) i;
  return row;
}

/* Related calls (B2BUA legs): the engine's links (calls/cs-call-legs.h), each leg with why */

/* A ref to the call numbered so in calls (a few legs: no index), NULL when none. */
static CsCall *
call_by_number (GListModel *calls, guint number)
{
  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      CsCall *call = g_list_model_get_item (calls, i);

      if (cs_call_get_number (call) == number)
        return call;
      g_object_unref (call);
    }
  return NULL;
}

GPtrArray *
cs_ladder_find_related_calls (GListModel *calls, GListModel *streams, CsCall *call,
                              GHashTable **reasons)
{
  GPtrArray *related = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) links = NULL;
  g_autoptr (GPtrArray) brought = NULL;
  g_autoptr (GArray) legs = g_array_new (FALSE, FALSE, sizeof (guint));

  if (reasons != NULL)
    *reasons = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_ptr_array_add (related, g_object_ref (call));
  if (calls == NULL || cs_call_get_method (call) != CS_SIP_METHOD_INVITE)
    return related;
  links = cs_call_links_find (calls, streams);
  brought = cs_call_links_legs_of (links, cs_call_get_number (call), legs);
  for (guint i = 0; i < legs->len; i++)
    {
      const CsCallLink *link = g_ptr_array_index (brought, i);
      g_autoptr (CsCall) leg = call_by_number (calls, g_array_index (legs, guint, i));

      if (leg == NULL)
        continue;
      g_ptr_array_add (related, g_object_ref (leg));
      if (reasons != NULL)
        g_hash_table_insert (
            *reasons, GUINT_TO_POINTER (cs_call_get_number (leg)),
            g_strdup_printf ("%s: %s", cs_leg_reason_to_string (link->reason), link->evidence));
    }
  g_ptr_array_sort (related, compare_calls_by_start);
  return related;
}
