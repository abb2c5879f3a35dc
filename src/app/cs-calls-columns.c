/* cs-calls-columns.c — the calls list's columns: titles, widths, cell texts, status colours and
 * sort orders */
#include "cs-calls-columns.h"

#include <glib/gi18n.h>

#include "cs-column-chooser.h"
#include "cs-display-format.h"
#include "cs-list-cells.h"
#include "callscope-engine.h"
#include "cs-ladder-layout.h"

typedef char *(*CsCallTextFunc) (const CsCallsColumnContext *context, CsCall *call);

/* How a cell is coloured beyond its text. */
typedef enum
{
  CELL_PLAIN,
  CELL_STATE,    /* coloured by call state, bold */
  CELL_MOS,      /* coloured by MOS */
  CELL_FINDINGS, /* amber when there are findings; tooltip lists their kinds */
} CellStyle;

typedef struct
{
  const char *id;      /* for the column chooser and GSettings; NULL = always shown */
  const char *title;   /* marked with N_ () */
  const char *tooltip; /* marked with N_ (), may be NULL */
  gboolean numeric;    /* right-aligned, tabular figures */
  gboolean expand;     /* takes a share of the room left over */
  int width;           /* fixed width in px, or -1 */
  CellStyle style;
  CsCallTextFunc text;
  GCompareDataFunc compare; /* data: the CsCallsColumnContext */
} CsCallsColumn;

const char *
cs_calls_columns_state_label (CsCallState state)
{
  switch (state)
    {
    case CS_CALL_STATE_SETUP:
      return C_ ("call state", "Setup");
    case CS_CALL_STATE_RINGING:
      return C_ ("call state", "Ringing");
    case CS_CALL_STATE_IN_CALL:
      return C_ ("call state", "In call");
    case CS_CALL_STATE_COMPLETED:
      return C_ ("call state", "Completed");
    case CS_CALL_STATE_CANCELLED:
      return C_ ("call state", "Cancelled");
    case CS_CALL_STATE_REJECTED:
      return C_ ("call state", "Rejected");
    case CS_CALL_STATE_FAILED:
      return C_ ("call state", "Failed");
    default:
      return C_ ("call state", "Unknown");
    }
}

const char *
cs_calls_columns_state_css_class (CsCallState state)
{
  switch (state)
    {
    case CS_CALL_STATE_COMPLETED:
    case CS_CALL_STATE_IN_CALL:
      return "state-good";
    case CS_CALL_STATE_SETUP:
    case CS_CALL_STATE_RINGING:
      return "state-degraded";
    case CS_CALL_STATE_REJECTED:
    case CS_CALL_STATE_FAILED:
      return "state-bad";
    case CS_CALL_STATE_CANCELLED:
    default:
      return "state-unknown";
    }
}

/* Cell texts */

static char *
text_number (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup_printf ("%u", cs_call_get_number (call));
}

static gint64
base_time_ns (const CsCallsColumnContext *context)
{
  g_autoptr (CsCall) first = NULL;

  /* Calls arrive in order of their first message: the first one starts the clock. */
  if (context->calls == NULL || g_list_model_get_n_items (context->calls) == 0)
    return 0;
  first = g_list_model_get_item (context->calls, 0);
  return cs_call_get_start_ns (first);
}

static char *
text_start (const CsCallsColumnContext *context, CsCall *call)
{
  return cs_display_format_seconds (cs_call_get_start_ns (call) - base_time_ns (context));
}

static char *
text_from (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup (cs_call_get_from (call));
}

static char *
text_to (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup (cs_call_get_to (call));
}

static char *
text_method (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup (cs_call_get_method_name (call));
}

static char *
text_call_id (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup (cs_call_get_call_id (call));
}

static char *
text_state (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup (cs_calls_columns_state_label (cs_call_get_state (call)));
}

static char *
text_final (const CsCallsColumnContext *context, CsCall *call)
{
  guint status = cs_call_get_final_status (call);
  const char *reason = cs_call_get_final_reason (call);

  if (status == 0)
    return g_strdup ("—");
  if (reason == NULL || *reason == '\0')
    return g_strdup_printf ("%u", status);
  return g_strdup_printf ("%u %s", status, reason);
}

static char *
format_ms (double ms)
{
  if (ms < 0)
    return g_strdup ("—");
  if (ms < 1000)
    return g_strdup_printf ("%.0f ms", ms);
  return g_strdup_printf ("%.2f s", ms / 1000.0);
}

static char *
text_pdd (const CsCallsColumnContext *context, CsCall *call)
{
  return format_ms (cs_call_get_pdd_ms (call));
}

static char *
text_setup (const CsCallsColumnContext *context, CsCall *call)
{
  return format_ms (cs_call_get_setup_ms (call));
}

static char *
text_duration (const CsCallsColumnContext *context, CsCall *call)
{
  double s = cs_call_get_duration_s (call);

  return s < 0 ? g_strdup ("—") : g_strdup_printf ("%.1f s", s);
}

static char *
text_messages (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup_printf ("%u", cs_call_get_n_messages (call));
}

static guint
n_streams (CsCall *call)
{
  const GArray *ids = cs_call_get_stream_ids (call);

  return ids != NULL ? ids->len : 0;
}

static char *
text_streams (const CsCallsColumnContext *context, CsCall *call)
{
  return g_strdup_printf ("%u", n_streams (call));
}

static char *
text_codec (const CsCallsColumnContext *context, CsCall *call)
{
  CsCallsIndex *index = cs_calls_column_context_get_index (context);

  return g_strdup (index != NULL ? cs_calls_index_get_codecs (index, call) : "");
}

static char *
text_mos (const CsCallsColumnContext *context, CsCall *call)
{
  double mos = cs_call_get_mos (call);

  return mos < 0 ? g_strdup ("—") : g_strdup_printf ("%.2f", mos);
}

static char *
text_findings (const CsCallsColumnContext *context, CsCall *call)
{
  guint n = cs_call_get_n_findings (call);

  return n == 0 ? g_strdup ("—") : g_strdup_printf ("%u", n);
}

/* Sorting */

static int
compare_uint (guint64 a, guint64 b)
{
  return (a > b) - (a < b);
}

static int
compare_double (double a, double b)
{
  return (a > b) - (a < b);
}

#define CALL_A ((CsCall *) a)
#define CALL_B ((CsCall *) b)

static int
compare_number (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_number (CALL_A), cs_call_get_number (CALL_B));
}

static int
compare_start (gconstpointer a, gconstpointer b, gpointer data)
{
  gint64 ta = cs_call_get_start_ns (CALL_A), tb = cs_call_get_start_ns (CALL_B);

  if (ta != tb)
    return (ta > tb) - (ta < tb);
  return compare_number (a, b, data);
}

/* "1002" before "10010", any case, without allocating: 100,000 rows sort in a blink. */
static int
compare_natural (const char *a, const char *b)
{
  a = a != NULL ? a : "";
  b = b != NULL ? b : "";
  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *ea = a, *eb = b;
          while (*a == '0')
            a++;
          while (*b == '0')
            b++;
          for (ea = a; g_ascii_isdigit (*ea); ea++)
            ;
          for (eb = b; g_ascii_isdigit (*eb); eb++)
            ;
          if (ea - a != eb - b)
            return ea - a < eb - b ? -1 : 1;
          for (; a < ea; a++, b++)
            if (*a != *b)
              return *a < *b ? -1 : 1;
          continue;
        }
      if (g_ascii_tolower (*a) != g_ascii_tolower (*b))
        return (guchar) g_ascii_tolower (*a) < (guchar) g_ascii_tolower (*b) ? -1 : 1;
      a++, b++;
    }
  return (*a != '\0') - (*b != '\0');
}

static int
compare_from (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_natural (cs_call_get_from (CALL_A), cs_call_get_from (CALL_B));
}

static int
compare_to (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_natural (cs_call_get_to (CALL_A), cs_call_get_to (CALL_B));
}

static int
compare_method (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_natural (cs_call_get_method_name (CALL_A), cs_call_get_method_name (CALL_B));
}

static int
compare_call_id (gconstpointer a, gconstpointer b, gpointer data)
{
  return g_strcmp0 (cs_call_get_call_id (CALL_A), cs_call_get_call_id (CALL_B));
}

static int
compare_state (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_state (CALL_A), cs_call_get_state (CALL_B));
}

static int
compare_final (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_final_status (CALL_A), cs_call_get_final_status (CALL_B));
}

static int
compare_pdd (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_double (cs_call_get_pdd_ms (CALL_A), cs_call_get_pdd_ms (CALL_B));
}

static int
compare_setup (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_double (cs_call_get_setup_ms (CALL_A), cs_call_get_setup_ms (CALL_B));
}

static int
compare_duration (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_double (cs_call_get_duration_s (CALL_A), cs_call_get_duration_s (CALL_B));
}

static int
compare_messages (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_n_messages (CALL_A), cs_call_get_n_messages (CALL_B));
}

static int
compare_streams (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (n_streams (CALL_A), n_streams (CALL_B));
}

static int
compare_codec (gconstpointer a, gconstpointer b, gpointer data)
{
  const CsCallsColumnContext *context = data;

  CsCallsIndex *index = cs_calls_column_context_get_index (context);

  if (index == NULL)
    return 0;
  return g_strcmp0 (cs_calls_index_get_codecs (index, CALL_A),
                    cs_calls_index_get_codecs (index, CALL_B));
}

static int
compare_mos (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_double (cs_call_get_mos (CALL_A), cs_call_get_mos (CALL_B));
}

static int
compare_findings (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_n_findings (CALL_A), cs_call_get_n_findings (CALL_B));
}

/* Fixed widths fit the (bold) header and typical values; From, To and Call-ID share what
 * is left, so the columns always fill the list. */
static const CsCallsColumn columns[] = {
  { NULL, N_ ("#"), N_ ("Call number, in order of the first message"), TRUE, FALSE, 44, CELL_PLAIN,
    text_number, compare_number },
  { "start", N_ ("Start"), N_ ("Seconds since the first call began"), TRUE, FALSE, 76, CELL_PLAIN,
    text_start, compare_start },
  { "from", N_ ("From"), NULL, FALSE, TRUE, -1, CELL_PLAIN, text_from, compare_from },
  { "to", N_ ("To"), NULL, FALSE, TRUE, -1, CELL_PLAIN, text_to, compare_to },
  { "method", N_ ("Method"), NULL, FALSE, FALSE, 96, CELL_PLAIN, text_method, compare_method },
  { "call-id", N_ ("Call-ID"), NULL, FALSE, TRUE, -1, CELL_PLAIN, text_call_id, compare_call_id },
  { "state", N_ ("State"), NULL, FALSE, FALSE, 100, CELL_STATE, text_state, compare_state },
  { "final", N_ ("Final"), N_ ("Final response"), FALSE, FALSE, 110, CELL_PLAIN, text_final,
    compare_final },
  { "pdd", N_ ("PDD"), N_ ("Post-dial delay: INVITE to the first 180/183"), TRUE, FALSE, 72,
    CELL_PLAIN, text_pdd, compare_pdd },
  { "setup-time", N_ ("Setup"), N_ ("INVITE to 200 OK"), TRUE, FALSE, 70, CELL_PLAIN, text_setup,
    compare_setup },
  { "duration", N_ ("Duration"), N_ ("200 OK to BYE"), TRUE, FALSE, 80, CELL_PLAIN, text_duration,
    compare_duration },
  { "messages", N_ ("Messages"), N_ ("SIP messages in the call"), TRUE, FALSE, 80, CELL_PLAIN,
    text_messages, compare_messages },
  { "streams", N_ ("Streams"), N_ ("RTP streams bound to the call"), TRUE, FALSE, 72, CELL_PLAIN,
    text_streams, compare_streams },
  { "codec", N_ ("Codec"), N_ ("Codecs of the call's RTP streams"), FALSE, FALSE, 110, CELL_PLAIN,
    text_codec, compare_codec },
  { "mos", N_ ("MOS"), N_ ("Estimated MOS of the worst direction"), TRUE, FALSE, 64, CELL_MOS,
    text_mos, compare_mos },
  { "findings", N_ ("Findings"), N_ ("Problems found in the call"), TRUE, FALSE, 84, CELL_FINDINGS,
    text_findings, compare_findings },
};

/* Cells */

/* What a column's cells and sorter read: the column and the view's context. */
typedef struct
{
  const CsCallsColumn *column;
  const CsCallsColumnContext *context;
} CsCallsCell;

static char *
cell_text (gpointer item, gpointer data)
{
  const CsCallsCell *cell = data;

  return cell->column->text (cell->context, item);
}

static const char *
mos_css_class (double mos)
{
  switch (cs_ladder_quality_for_mos (mos))
    {
    case CS_LADDER_QUALITY_GOOD:
      return "state-good";
    case CS_LADDER_QUALITY_DEGRADED:
      return "state-degraded";
    case CS_LADDER_QUALITY_BAD:
      return "state-bad";
    default:
      return "state-unknown";
    }
}

static char *
findings_tooltip (const CsCallsColumnContext *context, CsCall *call)
{
  guint64 kinds
      = cs_calls_index_get_finding_kinds (cs_calls_column_context_get_index (context), call);
  GString *text = g_string_new (NULL);

  for (guint k = 0; k < 64; k++)
    if (kinds & (G_GUINT64_CONSTANT (1) << k))
      g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "",
                              cs_finding_kind_to_string ((CsFindingKind) k));
  return g_string_free (text, text->len == 0);
}

static void
cell_style (GtkLabel *label, gpointer item, gpointer data)
{
  const CsCallsCell *cell = data;
  CsCall *call = item;

  switch (cell->column->style)
    {
    case CELL_STATE:
      cs_list_cell_set_status (label, cs_calls_columns_state_css_class (cs_call_get_state (call)),
                               FALSE);
      break;
    case CELL_MOS:
      cs_list_cell_set_status (label, mos_css_class (cs_call_get_mos (call)), FALSE);
      break;
    case CELL_FINDINGS:
      cs_list_cell_set_status (label, cs_call_get_n_findings (call) > 0 ? "state-degraded" : NULL,
                               FALSE);
      cs_list_cell_set_tooltip (label, findings_tooltip (cell->context, call));
      break;
    case CELL_PLAIN:
    default:
      break;
    }
}

static int
cell_compare (gconstpointer a, gconstpointer b, gpointer data)
{
  const CsCallsCell *cell = data;

  return cell->column->compare (a, b, (gpointer) cell->context);
}

GPtrArray *
cs_calls_columns_new_view_columns (const CsCallsColumnContext *context)
{
  GPtrArray *view_columns = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const CsCallsColumn *column = &columns[i];
      CsCallsCell *cell = g_new (CsCallsCell, 1);
      /* Long URIs and Call-IDs are ellipsized: the tooltip keeps the whole text. The findings
       * cell lists the kinds of its findings instead. */
      CsListCellTooltip tooltip = column->style == CELL_FINDINGS ? CS_LIST_CELL_TOOLTIP_SET
                                  : column->numeric              ? CS_LIST_CELL_TOOLTIP_NONE
                                                                 : CS_LIST_CELL_TOOLTIP_TEXT;
      CsListColumn list_column = {
        .title = _ (column->title),
        .width = column->width,
        .expand = column->expand,
        .numeric = column->numeric,
        .bold = column->style == CELL_STATE,
        .tooltip = tooltip,
        .text = cell_text,
        .style = column->style != CELL_PLAIN ? cell_style : NULL,
        .compare = cell_compare,
        .data = cell,
        .data_free = g_free,
      };
      GtkColumnViewColumn *view_column;

      cell->column = column;
      cell->context = context;
      view_column = cs_list_column_new (&list_column);
      if (column->id != NULL)
        cs_column_chooser_set_column_id (view_column, column->id);
      g_ptr_array_add (view_columns, view_column);
    }
  {
    /* Room at the end of the header for the column chooser button that floats there. */
    GtkColumnViewColumn *spacer = gtk_column_view_column_new (NULL, NULL);

    gtk_column_view_column_set_fixed_width (spacer, 32);
    g_ptr_array_add (view_columns, spacer);
  }
  return view_columns;
}

CsCallsIndex *
cs_calls_column_context_get_index (const CsCallsColumnContext *context)
{
  /* the index is a cache of the context's models: rebuilding it changes nothing they say */
  CsCallsColumnContext *cache = (CsCallsColumnContext *) context;

  if (context->index_stale)
    {
      g_clear_pointer (&cache->index, cs_calls_index_free);
      if (context->streams != NULL && context->findings != NULL)
        cache->index = cs_calls_index_new (context->streams, context->findings);
      cache->index_stale = FALSE;
    }
  return context->index;
}
