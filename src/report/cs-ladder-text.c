/* cs-ladder-text.c — a ladder diagram as plain text, for terminals, tickets and diffs */
#include "cs-ladder-text.h"

#include <string.h>

#define MIN_GAP 24

typedef struct
{
  gunichar *cells;
  guint width;
} Line;

static void
line_init (Line *line, guint width)
{
  line->width = width;
  line->cells = g_new (gunichar, width);
  for (guint i = 0; i < width; i++)
    line->cells[i] = ' ';
}

static void
line_put (Line *line, guint at, const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0' && at < line->width; p = g_utf8_next_char (p))
    line->cells[at++] = g_utf8_get_char (p);
}

/* Appends the line without trailing blanks, then a newline; frees the cells. */
static void
line_flush (Line *line, GString *out)
{
  guint end = line->width;

  while (end > 0 && line->cells[end - 1] == ' ')
    end--;
  for (guint i = 0; i < end; i++)
    g_string_append_unichar (out, line->cells[i]);
  g_string_append_c (out, '\n');
  g_free (line->cells);
}

static guint
text_len (const char *text)
{
  return text != NULL ? (guint) g_utf8_strlen (text, -1) : 0;
}

static char *
row_label (const CsLadderRow *r)
{
  if (r->sighting)
    return g_strdup_printf ("%s (seen again)", r->label);
  return r->retransmission ? g_strdup_printf ("%s (retransmission)", r->label)
                           : g_strdup (r->label);
}

/* Character position of every column, wide enough for titles and labels. */
static guint *
place_columns (const CsLadderLayout *layout, guint time_width, guint *total)
{
  guint n = layout->columns->len;
  g_autofree guint *gap = g_new0 (guint, MAX (n, 1));
  guint *pos = g_new0 (guint, MAX (n, 1));
  guint first_half = 0;

  for (guint i = 0; i + 1 < n; i++)
    {
      const CsLadderColumn *a = &g_array_index (layout->columns, CsLadderColumn, i);
      const CsLadderColumn *b = &g_array_index (layout->columns, CsLadderColumn, i + 1);
      guint need = (MAX (text_len (a->title), text_len (a->subtitle))
                    + MAX (text_len (b->title), text_len (b->subtitle)))
                       / 2
                   + 3;
      gap[i] = MAX (MIN_GAP, need);
    }
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      guint lo = MIN (r->from_col, r->to_col), hi = MAX (r->from_col, r->to_col);
      g_autofree char *label = row_label (r);
      guint need = text_len (label) + 6, have = 0;

      if (lo == hi)
        continue;
      for (guint g = lo; g < hi; g++)
        have += gap[g];
      if (have < need)
        for (guint g = lo; g < hi; g++)
          gap[g] += (need - have + (hi - lo) - 1) / (hi - lo);
    }
  if (n > 0)
    {
      const CsLadderColumn *c = &g_array_index (layout->columns, CsLadderColumn, 0);
      first_half = (MAX (text_len (c->title), text_len (c->subtitle)) + 1) / 2;
    }
  pos[0] = time_width + MAX (first_half, 2);
  for (guint i = 1; i < n; i++)
    pos[i] = pos[i - 1] + gap[i - 1];
  *total = (n > 0 ? pos[n - 1] : time_width) + 60;
  return pos;
}

static void
put_centered (Line *line, guint centre, const char *text)
{
  guint len = text_len (text);

  line_put (line, centre >= len / 2 ? centre - len / 2 : 0, text);
}

static void
put_lifelines (Line *line, const guint *pos, guint n)
{
  for (guint c = 0; c < n; c++)
    line->cells[pos[c]] = '|';
}

static void
put_arrow (Line *line, const CsLadderRow *r, const guint *pos)
{
  guint a = pos[r->from_col], b = pos[r->to_col];
  g_autofree char *label = row_label (r);
  gunichar fill = r->kind == CS_LADDER_ROW_STREAM ? '=' : '-';

  if (a == b)
    {
      g_autofree char *self = g_strdup_printf ("<-' %s", label);
      line_put (line, a + 1, self);
      return;
    }
  for (guint i = MIN (a, b) + 1; i < MAX (a, b); i++)
    line->cells[i] = fill;
  if (b > a)
    line->cells[b - 1] = '>';
  else
    line->cells[b + 1] = '<';
  {
    guint len = text_len (label);
    guint lo = MIN (a, b) + 2, hi = MAX (a, b) - 2;
    guint start = (lo + hi) / 2 >= len / 2 ? (lo + hi) / 2 - len / 2 : lo;

    start = MAX (start, lo);
    line->cells[start - 1] = ' ';
    line_put (line, start, label);
    if (start + len < line->width)
      line->cells[start + len] = ' ';
  }
}

char *
cs_ladder_text_render (const CsLadderLayout *layout, CsLadderTimeMode mode)
{
  GString *out = g_string_new (NULL);
  guint n = layout->columns->len;
  guint time_width = 12, width = 0;
  g_autofree guint *pos = NULL;
  Line line;

  for (guint i = 0; i < layout->rows->len; i++)
    {
      g_autofree char *time = cs_ladder_layout_format_time (layout, i, mode);
      time_width = MAX (time_width, text_len (time) + 3);
    }
  pos = place_columns (layout, time_width, &width);
  for (guint leg = 0; layout->calls->len > 1 && leg < layout->calls->len; leg++)
    {
      CsCall *call = g_ptr_array_index (layout->calls, leg);
      g_autofree char *id = cs_text_inert_dup (cs_call_get_call_id (call));
      const char *why = layout->leg_reasons != NULL ? g_hash_table_lookup (
                            layout->leg_reasons, GUINT_TO_POINTER (cs_call_get_number (call)))
                                                    : NULL;
      g_autofree char *inert_why = why != NULL ? cs_text_inert_dup (why) : NULL;

      g_string_append_printf (out, "Leg %u: call %u, Call-ID %s%s%s\n", leg + 1,
                              cs_call_get_number (call), id, why != NULL ? " — " : "",
                              why != NULL ? inert_why : "");
    }
  line_init (&line, width);
  line_put (&line, 0, "Time");
  for (guint c = 0; c < n; c++)
    put_centered (&line, pos[c], g_array_index (layout->columns, CsLadderColumn, c).title);
  line_flush (&line, out);
  line_init (&line, width);
  for (guint c = 0; c < n; c++)
    put_centered (&line, pos[c], g_array_index (layout->columns, CsLadderColumn, c).subtitle);
  line_flush (&line, out);
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
      g_autofree char *time = cs_ladder_layout_format_time (layout, i, mode);

      line_init (&line, width);
      line_put (&line, 0, time);
      if (layout->calls->len > 1)
        {
          g_autofree char *leg = g_strdup_printf ("%u", r->leg + 1);
          line_put (&line, time_width - 2, leg);
        }
      put_lifelines (&line, pos, n);
      put_arrow (&line, r, pos);
      line_flush (&line, out);
      if (r->detail != NULL)
        {
          guint lo = MIN (pos[r->from_col], pos[r->to_col]);
          line_init (&line, width + text_len (r->detail));
          put_lifelines (&line, pos, n);
          line_put (&line, lo + 2, r->detail);
          line_flush (&line, out);
        }
    }
  if (layout->rows->len == 0)
    g_string_append (out, "(no messages)\n");
  return g_string_free (out, FALSE);
}
