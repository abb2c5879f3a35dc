/* cs-detail-pane.c — one SIP message in detail: raw text, parsed SDP, frame and hex dump */
#include "cs-detail-pane.h"

#include <glib/gi18n.h>

#include "callscope-engine.h"
#include "cs-display-format.h"
#include "cs-hex-view.h"
#include "cs-status-page.h"

struct _CsDetailPane
{
  CsView parent_instance;

  GtkStack *stack;
  GtkStack *tabs;
  GtkLabel *message_note;
  GtkTextView *message_view;
  GtkStack *sdp_stack;
  GtkGrid *sdp_grid;
  GtkGrid *frame_grid;
  GtkWidget *frame_link; /* the Frame row's value: links to the Packets page */
  CsHexView *hex_view;

  CsSipMessage *message;
};

G_DEFINE_FINAL_TYPE (CsDetailPane, cs_detail_pane, CS_TYPE_VIEW)

/* Raw text */

static char *
rebuild_text (const CsSipMessage *msg)
{
  GString *text = g_string_new (NULL);

  if (cs_sip_message_is_request (msg))
    g_string_append_printf (
        text, "%s %s SIP/2.0\r\n",
        cs_sip_message_get_method_name (msg) ? cs_sip_message_get_method_name (msg) : "?",
        cs_sip_message_get_request_uri (msg) ? cs_sip_message_get_request_uri (msg) : "");
  else
    g_string_append_printf (text, "SIP/2.0 %u %s\r\n", cs_sip_message_get_status_code (msg),
                            cs_sip_message_get_reason (msg) ? cs_sip_message_get_reason (msg) : "");
  const GPtrArray *headers = cs_sip_message_get_headers (msg);
  gsize body_len;
  const char *body = cs_sip_message_get_body (msg, &body_len);

  for (guint i = 0; i < headers->len; i++)
    {
      const CsSipHeader *h = g_ptr_array_index (headers, i);
      g_string_append_printf (text, "%s: %s\r\n", h->name, h->value);
    }
  g_string_append (text, "\r\n");
  if (body != NULL && body_len > 0)
    g_string_append_len (text, body, (gssize) body_len);
  return g_string_free (text, FALSE);
}

char *
cs_detail_dup_sip_text (CsCaptureSet *set, const CsSipMessage *msg, gboolean *exact,
                        gsize *payload_offset, gsize *payload_len)
{
  CsFramePayload frame;

  *exact = FALSE;
  *payload_offset = *payload_len = 0;
  /* One UDP datagram holds the whole message: show its bytes as captured. */
  if (cs_sip_message_get_transport (msg) == CS_SIP_TRANSPORT_UDP
      && cs_sip_message_get_first_frame (msg) == cs_sip_message_get_frame (msg)
      && cs_capture_set_read_payload (set, cs_sip_message_get_frame (msg), &frame) && frame.udp
      && cs_sip_looks_like (frame.payload, frame.payload_len))
    {
      *exact = TRUE;
      *payload_offset = frame.payload_offset;
      *payload_len = frame.payload_len;
      return g_utf8_make_valid ((const char *) frame.payload, (gssize) frame.payload_len);
    }
  return rebuild_text (msg);
}

/* Message tab */

static void
show_message_text (CsDetailPane *self, const char *text, gboolean exact)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->message_view);
  GtkTextIter line_start, line_end;
  int line = 0;
  gboolean in_body = FALSE;

  gtk_text_buffer_set_text (buffer, text, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->message_note), !exact);
  gtk_text_buffer_get_start_iter (buffer, &line_start);
  /* Start line bold, header names accented, body dimmed. */
  for (; !gtk_text_iter_is_end (&line_start); line++)
    {
      g_autofree char *content = NULL;
      line_end = line_start;
      if (!gtk_text_iter_ends_line (&line_end))
        gtk_text_iter_forward_to_line_end (&line_end);
      content = gtk_text_iter_get_text (&line_start, &line_end);
      g_strchomp (content);
      if (line == 0)
        gtk_text_buffer_apply_tag_by_name (buffer, "start-line", &line_start, &line_end);
      else if (in_body)
        gtk_text_buffer_apply_tag_by_name (buffer, "body", &line_start, &line_end);
      else if (content[0] == '\0')
        in_body = TRUE;
      else if (strchr (content, ':') != NULL && !g_ascii_isspace (content[0]))
        {
          GtkTextIter colon = line_start;
          gtk_text_iter_forward_chars (
              &colon, (int) g_utf8_pointer_to_offset (content, strchr (content, ':')));
          gtk_text_buffer_apply_tag_by_name (buffer, "header-name", &line_start, &colon);
        }
      if (!gtk_text_iter_forward_line (&line_start))
        break;
    }
}

/* Tag colours follow the theme: accent for header names, dimmed text for the body. */
static void
update_tag_colors (CsDetailPane *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self->message_view));
  GtkTextTagTable *table
      = gtk_text_buffer_get_tag_table (gtk_text_view_get_buffer (self->message_view));
  GdkRGBA accent, fg;

  if (!gtk_style_context_lookup_color (context, "accent_color", &accent)
      && !gtk_style_context_lookup_color (context, "theme_selected_bg_color", &accent))
    return;
  gtk_style_context_get_color (context, &fg);
  /* The selection blue is dark: pulled towards the text colour it stays readable on the dark
   * theme's background as well as on the light one. */
  accent.red = accent.red * 0.6f + fg.red * 0.4f;
  accent.green = accent.green * 0.6f + fg.green * 0.4f;
  accent.blue = accent.blue * 0.6f + fg.blue * 0.4f;
  accent.alpha = 1.0f;
  fg.alpha *= 0.72;
  g_object_set (gtk_text_tag_table_lookup (table, "header-name"), "foreground-rgba", &accent, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "body"), "foreground-rgba", &fg, NULL);
}

/* Tables */

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
add_heading (GtkGrid *grid, int *row, const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  if (*row > 0)
    gtk_widget_set_margin_top (label, 8);
  gtk_grid_attach (grid, label, 0, (*row)++, 2, 1);
}

static void
add_row (GtkGrid *grid, int *row, const char *name, const char *value)
{
  GtkWidget *key = gtk_label_new (name);
  GtkWidget *val = gtk_label_new (value != NULL && *value != '\0' ? value : "—");

  gtk_label_set_xalign (GTK_LABEL (key), 1);
  gtk_label_set_yalign (GTK_LABEL (key), 0);
  gtk_widget_add_css_class (key, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (val), 0);
  gtk_label_set_selectable (GTK_LABEL (val), TRUE);
  gtk_label_set_wrap (GTK_LABEL (val), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (val), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (val, TRUE);
  gtk_widget_add_css_class (val, "numeric");
  gtk_grid_attach (grid, key, 0, *row, 1, 1);
  gtk_grid_attach (grid, val, 1, (*row)++, 1, 1);
}

/* "frame:N" links: the frame in the Packets page (as a double click anywhere else). */
static gboolean
on_frame_link (GtkLabel *label, const char *uri, gpointer data)
{
  guint64 number = 0;

  if (!g_str_has_prefix (uri, "frame:")
      || !g_ascii_string_to_unsigned (uri + 6, 10, 1, G_MAXUINT32, &number, NULL))
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (label), "win.show-frame", "u", (guint32) number);
  return TRUE;
}

/* A Frame row whose numbers open the frames; returns the value label (for tests). */
static GtkWidget *
add_frame_row (GtkGrid *grid, int *row, const char *name, guint32 frame, guint32 first_frame)
{
  g_autofree char *markup = NULL;
  GtkWidget *val;

  if (first_frame != 0 && first_frame != frame)
    /* TRANSLATORS: detail pane, Frame row of a message spread over several frames */
    markup = g_strdup_printf (_ ("<a href=\"frame:%u\">%u</a> (message starts in frame "
                                 "<a href=\"frame:%u\">%u</a>)"),
                              frame, frame, first_frame, first_frame);
  else
    markup = g_strdup_printf ("<a href=\"frame:%u\">%u</a>", frame, frame);
  add_row (grid, row, name, NULL);
  val = gtk_grid_get_child_at (grid, 1, *row - 1);
  gtk_label_set_markup (GTK_LABEL (val), markup);
  gtk_widget_set_tooltip_text (val, _ ("Show in the Packets page"));
  g_signal_connect (val, "activate-link", G_CALLBACK (on_frame_link), NULL);
  return val;
}

static char *
addr_text (const CsAddr *addr)
{
  char buf[CS_ADDR_STRLEN];

  return addr->family != 0 ? g_strdup (cs_addr_to_string (addr, buf)) : NULL;
}

static void
show_sdp (CsDetailPane *self, const CsSipMessage *msg)
{
  const CsSdp *sdp = cs_sip_message_get_sdp (msg);
  int row = 0;

  clear_grid (self->sdp_grid);
  if (sdp == NULL)
    {
      gtk_stack_set_visible_child_name (self->sdp_stack, "none");
      return;
    }
  gtk_stack_set_visible_child_name (self->sdp_stack, "table");
  add_heading (self->sdp_grid, &row, _ ("Session"));
  {
    g_autofree char *origin_addr = addr_text (&sdp->origin_address);
    g_autofree char *origin
        = g_strdup_printf ("%s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %s",
                           sdp->origin_username ? sdp->origin_username : "-", sdp->session_id,
                           sdp->session_version, origin_addr ? origin_addr : "");
    g_autofree char *connection = addr_text (&sdp->connection);
    add_row (self->sdp_grid, &row, _ ("Origin"), origin);
    add_row (self->sdp_grid, &row, _ ("Name"), sdp->session_name);
    add_row (self->sdp_grid, &row, _ ("Connection"), connection);
    add_row (self->sdp_grid, &row, _ ("Direction"), cs_sdp_direction_to_string (sdp->direction));
    if (sdp->malformed != NULL)
      add_row (self->sdp_grid, &row, _ ("Problem"), sdp->malformed);
  }
  for (guint m = 0; m < sdp->media->len; m++)
    {
      const CsSdpMedia *media = g_ptr_array_index (sdp->media, m);
      g_autofree char *title = g_strdup_printf (_ ("Media %u: %s"), m + 1, media->media);
      g_autofree char *connection = addr_text (&media->connection);
      g_autofree char *port
          = g_strdup_printf ("%u%s", media->port, media->port == 0 ? _ (" (disabled)") : "");
      g_autofree char *ptime = media->ptime > 0 ? g_strdup_printf ("%u ms", media->ptime) : NULL;
      g_autofree char *rtcp = media->rtcp_mux        ? g_strdup ("rtcp-mux")
                              : media->rtcp_port > 0 ? g_strdup_printf ("%u", media->rtcp_port)
                                                     : NULL;

      add_heading (self->sdp_grid, &row, title);
      add_row (self->sdp_grid, &row, _ ("Port"), port);
      add_row (self->sdp_grid, &row, _ ("Protocol"), media->proto);
      add_row (self->sdp_grid, &row, _ ("Connection"), connection);
      add_row (self->sdp_grid, &row, _ ("Direction"),
               cs_sdp_direction_to_string (media->direction));
      add_row (self->sdp_grid, &row, _ ("Packet time"), ptime);
      add_row (self->sdp_grid, &row, _ ("RTCP"), rtcp);
      for (guint f = 0; media->formats != NULL && f < media->formats->len; f++)
        {
          const CsSdpFormat *format = &g_array_index (media->formats, CsSdpFormat, f);
          g_autofree char *name = g_strdup_printf (_ ("Format %u"), format->payload_type);
          g_autofree char *value
              = format->encoding != NULL
                    ? g_strdup_printf ("%s/%u%s%s", format->encoding, format->clock_rate,
                                       format->fmtp != NULL ? "  " : "",
                                       format->fmtp != NULL ? format->fmtp : "")
                    : g_strdup (_ ("static payload type"));
          add_row (self->sdp_grid, &row, name, value);
        }
    }
}

/* Frame tab */

static void
show_frame (CsDetailPane *self, const CsSipMessage *msg)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  CsCaptureSet *set = analysis != NULL ? cs_analysis_get_capture_set (analysis) : NULL;
  CsFrame frame_copy;
  const CsFrame *frame
      = set != NULL && cs_capture_set_get_frame (set, cs_sip_message_get_frame (msg), &frame_copy)
            ? &frame_copy
            : NULL;
  const guint8 *data = frame != NULL ? cs_capture_set_frame_data (set, frame) : NULL;
  char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];
  g_autofree char *time = NULL, *offset = NULL, *length = NULL, *file = NULL;
  gboolean exact;
  gsize payload_offset = 0, payload_len = 0;
  g_autofree char *text = cs_detail_dup_sip_text (set, msg, &exact, &payload_offset, &payload_len);
  int row = 0;

  clear_grid (self->frame_grid);
  self->frame_link = NULL;
  time = cs_display_format_timestamp (cs_sip_message_get_ts_ns (msg));
  self->frame_link
      = add_frame_row (self->frame_grid, &row, _ ("Frame"), cs_sip_message_get_frame (msg),
                       cs_sip_message_get_first_frame (msg));
  add_row (self->frame_grid, &row, _ ("Time"), time);
  add_row (self->frame_grid, &row, _ ("Source"),
           cs_endpoint_to_string (cs_sip_message_get_src (msg), src));
  add_row (self->frame_grid, &row, _ ("Destination"),
           cs_endpoint_to_string (cs_sip_message_get_dst (msg), dst));
  add_row (self->frame_grid, &row, _ ("Transport"),
           cs_sip_transport_to_string (cs_sip_message_get_transport (msg)));
  if (frame != NULL)
    {
      CsCapture *capture = cs_capture_set_get_file (set, frame->file);
      file = capture != NULL ? g_path_get_basename (cs_capture_get_path (capture)) : NULL;
      g_autofree char *position = g_strdup_printf (
          "%" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x)", frame->offset, frame->offset);
      /* TRANSLATORS: a byte offset in a capture file, e.g. "1234 (0x4d2) in call.pcap" */
      offset = g_strdup_printf (_ ("%s in %s"), position, file ? file : "?");
      length = g_strdup_printf (_ ("%u bytes captured, %u on the wire"), frame->caplen,
                                frame->origlen);
      add_row (self->frame_grid, &row, _ ("Byte offset"), offset);
      add_row (self->frame_grid, &row, _ ("Length"), length);
    }
  if (exact && payload_len > 0)
    {
      g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT, payload_len);
      g_autofree char *at = g_strdup_printf ("%" G_GSIZE_FORMAT, payload_offset);
      g_autofree char *payload
          = g_strdup_printf (_ ("%s bytes at frame offset %s (underlined below)"), size, at);
      add_row (self->frame_grid, &row, _ ("SIP payload"), payload);
    }
  cs_hex_view_set_data (self->hex_view, data, frame != NULL ? frame->caplen : 0, payload_offset,
                        payload_len);
}

/* API */

GtkWidget *
cs_detail_pane_new (void)
{
  return g_object_new (CS_TYPE_DETAIL_PANE, NULL);
}

/* Frames are read back from the view's analysis: another one shows nothing until told. */
static void
cs_detail_pane_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  cs_detail_pane_set_message (CS_DETAIL_PANE (view), NULL);
}

void
cs_detail_pane_set_message (CsDetailPane *self, CsSipMessage *msg)
{
  CsAnalysis *analysis;
  CsCaptureSet *set;
  gboolean exact;
  gsize offset, len;
  g_autofree char *text = NULL;

  g_return_if_fail (CS_IS_DETAIL_PANE (self));

  if (msg != NULL)
    cs_sip_message_ref (msg);
  g_clear_pointer (&self->message, cs_sip_message_unref);
  self->message = msg;
  if (msg == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  analysis = cs_view_get_analysis (CS_VIEW (self));
  set = analysis != NULL ? cs_analysis_get_capture_set (analysis) : NULL;
  text = cs_detail_dup_sip_text (set, msg, &exact, &offset, &len);
  update_tag_colors (self);
  show_message_text (self, text, exact);
  show_sdp (self, msg);
  show_frame (self, msg);
  gtk_stack_set_visible_child_name (self->stack, "detail");
}

void
cs_detail_pane_show_tab (CsDetailPane *self, const char *name)
{
  g_return_if_fail (CS_IS_DETAIL_PANE (self));
  gtk_stack_set_visible_child_name (self->tabs, name);
}

const char *
cs_detail_pane_get_visible_tab (CsDetailPane *self)
{
  g_return_val_if_fail (CS_IS_DETAIL_PANE (self), NULL);
  return gtk_stack_get_visible_child_name (self->tabs);
}

char *
cs_detail_pane_dup_message_text (CsDetailPane *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->message_view);
  GtkTextIter a, b;

  gtk_text_buffer_get_bounds (buffer, &a, &b);
  return gtk_text_buffer_get_text (buffer, &a, &b, FALSE);
}

char *
cs_detail_pane_dup_hex_text (CsDetailPane *self)
{
  return cs_hex_view_dup_text (self->hex_view);
}

/* GObject */

static void
cs_detail_pane_dispose (GObject *object)
{
  CsDetailPane *self = CS_DETAIL_PANE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_DETAIL_PANE);
  g_clear_pointer (&self->message, cs_sip_message_unref);
  G_OBJECT_CLASS (cs_detail_pane_parent_class)->dispose (object);
}

static void
cs_detail_pane_class_init (CsDetailPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_detail_pane_dispose;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_detail_pane_analysis_changed;
  g_type_ensure (CS_TYPE_STATUS_PAGE);
  g_type_ensure (CS_TYPE_HEX_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-detail-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, stack);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, tabs);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, message_note);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, message_view);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, sdp_stack);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, sdp_grid);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, frame_grid);
  gtk_widget_class_bind_template_child (widget_class, CsDetailPane, hex_view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_detail_pane_init (CsDetailPane *self)
{
  GtkTextBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_label_set_text (self->message_note,
                      _ ("This message spans several frames (TCP or IP fragments): shown as "
                         "parsed, header by header."));
  buffer = gtk_text_view_get_buffer (self->message_view);
  gtk_text_buffer_create_tag (buffer, "start-line", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buffer, "header-name", "weight", PANGO_WEIGHT_SEMIBOLD, NULL);
  gtk_text_buffer_create_tag (buffer, "body", NULL);
}

GtkLabel *
cs_detail_pane_get_frame_link (CsDetailPane *self)
{
  g_return_val_if_fail (CS_IS_DETAIL_PANE (self), NULL);
  return self->frame_link != NULL ? GTK_LABEL (self->frame_link) : NULL;
}
