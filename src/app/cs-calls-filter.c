/* cs-calls-filter.c — the calls list's filter language: "state:rejected mos<3.5 pdd>3s" */
#include "cs-calls-filter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callscope-engine.h"

G_DEFINE_QUARK (cs - calls - filter - error - quark, cs_calls_filter_error)

#define N_FINDING_KINDS (CS_FINDING_DAMAGED_CAPTURE + 1)

/* Index */

struct _CsCallsIndex
{
  GPtrArray *codecs_by_stream; /* char* (interned) per stream id */
  GHashTable *codecs_by_call;  /* call number → char* "g711U, g729" */
  GArray *kinds_by_call;       /* guint64 per call number */
};

CsCallsIndex *
cs_calls_index_new (GListModel *streams, GListModel *findings)
{
  CsCallsIndex *index = g_new0 (CsCallsIndex, 1);
  guint n_streams = streams != NULL ? g_list_model_get_n_items (streams) : 0;
  guint n_findings = findings != NULL ? g_list_model_get_n_items (findings) : 0;

  index->codecs_by_stream = g_ptr_array_new ();
  index->codecs_by_call = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  index->kinds_by_call = g_array_new (FALSE, TRUE, sizeof (guint64));
  for (guint i = 0; i < n_streams; i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);
      guint id = cs_stream_get_id (stream);

      if (id >= index->codecs_by_stream->len)
        g_ptr_array_set_size (index->codecs_by_stream, id + 1);
      g_ptr_array_index (index->codecs_by_stream, id)
          = (gpointer) g_intern_string (cs_stream_get_codec (stream));
    }
  for (guint i = 0; i < n_findings; i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      guint number = cs_finding_get_call_number (finding);

      if (number == 0)
        continue;
      if (number >= index->kinds_by_call->len)
        g_array_set_size (index->kinds_by_call, number + 1);
      g_array_index (index->kinds_by_call, guint64, number) |= G_GUINT64_CONSTANT (1)
                                                               << cs_finding_get_kind (finding);
    }
  return index;
}

void
cs_calls_index_free (CsCallsIndex *index)
{
  if (index == NULL)
    return;
  g_ptr_array_unref (index->codecs_by_stream);
  g_hash_table_unref (index->codecs_by_call);
  g_array_unref (index->kinds_by_call);
  g_free (index);
}

const char *
cs_calls_index_get_codecs (CsCallsIndex *index, CsCall *call)
{
  guint number = cs_call_get_number (call);
  const GArray *ids = cs_call_get_stream_ids (call);
  GString *text;
  char *codecs;

  codecs = g_hash_table_lookup (index->codecs_by_call, GUINT_TO_POINTER (number));
  if (codecs != NULL)
    return codecs;
  text = g_string_new (NULL);
  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      guint id = g_array_index (ids, guint, i);
      const char *codec = id < index->codecs_by_stream->len
                              ? g_ptr_array_index (index->codecs_by_stream, id)
                              : NULL;
      gboolean seen = FALSE;

      if (codec == NULL)
        continue;
      /* Interned: the same codec is the same pointer. */
      for (guint j = 0; j < i && !seen; j++)
        {
          guint other = g_array_index (ids, guint, j);
          seen = other < index->codecs_by_stream->len
                 && g_ptr_array_index (index->codecs_by_stream, other) == codec;
        }
      if (!seen)
        g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", codec);
    }
  codecs = g_string_free (text, FALSE);
  g_hash_table_insert (index->codecs_by_call, GUINT_TO_POINTER (number), codecs);
  return codecs;
}

guint64
cs_calls_index_get_finding_kinds (CsCallsIndex *index, CsCall *call)
{
  guint number = cs_call_get_number (call);

  if (index == NULL || number >= index->kinds_by_call->len)
    return 0;
  return g_array_index (index->kinds_by_call, guint64, number);
}

/* Terms */

typedef enum
{
  TERM_TEXT,   /* bare word */
  TERM_FIELD,  /* field:text */
  TERM_STATE,  /* state:S */
  TERM_CODE,   /* code:486 / code:4xx */
  TERM_CODEC,  /* codec:X */
  TERM_HAS,    /* has:K */
  TERM_NUMBER, /* field OP number */
} TermKind;

typedef enum
{
  FIELD_FROM,
  FIELD_TO,
  FIELD_CALL_ID,
  FIELD_USER_AGENT,
  FIELD_METHOD,
  FIELD_MOS,
  FIELD_PDD,
  FIELD_SETUP,
  FIELD_RING,
  FIELD_DURATION,
  FIELD_MESSAGES,
  FIELD_STREAMS,
  FIELD_FINDINGS,
  FIELD_RETRANSMISSIONS,
  FIELD_CODE,
  FIELD_NUMBER,
} Field;

typedef enum
{
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_EQ,
  OP_NE,
} Op;

typedef struct
{
  TermKind kind;
  gboolean negate;
  Field field;
  Op op;
  double number;
  char *text;    /* lowercased needle (TERM_TEXT, TERM_FIELD, TERM_CODEC) */
  guint64 kinds; /* TERM_HAS: finding kinds; 0 for has:media */
  gboolean has_retransmissions;
  CsCallState state;
  guint code_low, code_high;
} Term;

struct _CsCallsFilter
{
  GPtrArray *groups; /* GArray of Term per "or" group */
};

typedef struct
{
  const char *name;
  Field field;
  gboolean numeric;
  gboolean is_time; /* seconds, units accepted */
} FieldName;

static const FieldName field_names[] = {
  { "from", FIELD_FROM, FALSE, FALSE },
  { "to", FIELD_TO, FALSE, FALSE },
  { "callid", FIELD_CALL_ID, FALSE, FALSE },
  { "call-id", FIELD_CALL_ID, FALSE, FALSE },
  { "ua", FIELD_USER_AGENT, FALSE, FALSE },
  { "user-agent", FIELD_USER_AGENT, FALSE, FALSE },
  { "method", FIELD_METHOD, FALSE, FALSE },
  { "mos", FIELD_MOS, TRUE, FALSE },
  { "pdd", FIELD_PDD, TRUE, TRUE },
  { "setup", FIELD_SETUP, TRUE, TRUE },
  { "ring", FIELD_RING, TRUE, TRUE },
  { "duration", FIELD_DURATION, TRUE, TRUE },
  { "messages", FIELD_MESSAGES, TRUE, FALSE },
  { "streams", FIELD_STREAMS, TRUE, FALSE },
  { "findings", FIELD_FINDINGS, TRUE, FALSE },
  { "retransmissions", FIELD_RETRANSMISSIONS, TRUE, FALSE },
  { "retrans", FIELD_RETRANSMISSIONS, TRUE, FALSE },
  { "code", FIELD_CODE, TRUE, FALSE },
  { "number", FIELD_NUMBER, TRUE, FALSE },
};

static const FieldName *
lookup_field (const char *name, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (field_names); i++)
    if (strlen (field_names[i].name) == len
        && g_ascii_strncasecmp (field_names[i].name, name, len) == 0)
      return &field_names[i];
  return NULL;
}

static void
term_clear (gpointer data)
{
  g_free (((Term *) data)->text);
}

static gboolean
parse_number (const char *text, gboolean is_time, double *value)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text)
    return FALSE;
  if (is_time && g_ascii_strcasecmp (end, "ms") == 0)
    v /= 1000.0;
  else if (is_time && g_ascii_strcasecmp (end, "m") == 0)
    v *= 60.0;
  else if (is_time && g_ascii_strcasecmp (end, "h") == 0)
    v *= 3600.0;
  else if (!(is_time && g_ascii_strcasecmp (end, "s") == 0) && *end != '\0')
    return FALSE;
  *value = v;
  return TRUE;
}

static gboolean
parse_state (const char *text, CsCallState *state)
{
  for (int s = CS_CALL_STATE_SETUP; s <= CS_CALL_STATE_FAILED; s++)
    if (g_ascii_strcasecmp (text, cs_call_state_to_string (s)) == 0
        || (s == CS_CALL_STATE_IN_CALL && g_ascii_strcasecmp (text, "incall") == 0)
        || (s == CS_CALL_STATE_CANCELLED && g_ascii_strcasecmp (text, "canceled") == 0))
      {
        *state = s;
        return TRUE;
      }
  return FALSE;
}

static gboolean
parse_code (const char *text, guint *low, guint *high)
{
  gsize len = strlen (text);

  if (len == 3 && g_ascii_isdigit (text[0]) && g_ascii_tolower (text[1]) == 'x'
      && g_ascii_tolower (text[2]) == 'x')
    {
      *low = (text[0] - '0') * 100;
      *high = *low + 99;
      return TRUE;
    }
  if (len == 3 && g_ascii_isdigit (text[0]) && g_ascii_isdigit (text[1])
      && g_ascii_isdigit (text[2]))
    {
      *low = *high = (guint) atoi (text);
      return TRUE;
    }
  return FALSE;
}

static gboolean
parse_has (const char *text, Term *term)
{
  gsize len = strlen (text);

  if (g_ascii_strcasecmp (text, "media") == 0 || g_ascii_strcasecmp (text, "rtp") == 0)
    return TRUE;
  if (g_ascii_strncasecmp (text, "retrans", MIN (len, 7)) == 0 && len >= 5)
    term->has_retransmissions = TRUE;
  for (guint k = 0; k < N_FINDING_KINDS; k++)
    if (len > 0 && g_ascii_strncasecmp (cs_finding_kind_to_string (k), text, len) == 0)
      term->kinds |= G_GUINT64_CONSTANT (1) << k;
  return term->kinds != 0 || term->has_retransmissions;
}

/* Parses one term [start, end) of text into term; FALSE with a message on mistakes. */
static gboolean
parse_term (const char *word, Term *term, GError **error)
{
  const char *p = word;
  const char *colon, *op;
  const FieldName *field;
  gsize name_len;

  if (*p == '!' || (*p == '-' && p[1] != '\0' && !g_ascii_isdigit (p[1])))
    {
      term->negate = TRUE;
      p++;
    }
  if (*p == '\0')
    {
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   "“%s” negates nothing", word);
      return FALSE;
    }
  op = strpbrk (p, "<>=!");
  colon = strchr (p, ':');
  if (op != NULL && (colon == NULL || op < colon))
    {
      name_len = op - p;
      field = lookup_field (p, name_len);
      if (field == NULL || !field->numeric)
        {
          g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                       "“%.*s” cannot be compared: use mos, pdd, setup, ring, duration, messages, "
                       "streams, findings, retransmissions or code",
                       (int) name_len, p);
          return FALSE;
        }
      if (g_str_has_prefix (op, "<="))
        term->op = OP_LE, op += 2;
      else if (g_str_has_prefix (op, ">="))
        term->op = OP_GE, op += 2;
      else if (g_str_has_prefix (op, "!="))
        term->op = OP_NE, op += 2;
      else if (g_str_has_prefix (op, "=="))
        term->op = OP_EQ, op += 2;
      else if (*op == '<')
        term->op = OP_LT, op++;
      else if (*op == '>')
        term->op = OP_GT, op++;
      else if (*op == '=')
        term->op = OP_EQ, op++;
      else
        {
          g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                       "“%s”: expected <, <=, >, >=, = or !=", word);
          return FALSE;
        }
      if (!parse_number (op, field->is_time, &term->number))
        {
          g_set_error (
              error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
              field->is_time ? "“%s” is not a time (e.g. 3s, 500ms)" : "“%s” is not a number", op);
          return FALSE;
        }
      term->kind = TERM_NUMBER;
      term->field = field->field;
      return TRUE;
    }
  if (colon == NULL)
    {
      term->kind = TERM_TEXT;
      term->text = g_utf8_casefold (p, -1);
      return TRUE;
    }
  name_len = colon - p;
  colon++;
  if (*colon == '\0')
    {
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   "“%s” needs a value after the colon", word);
      return FALSE;
    }
  if (name_len == 5 && g_ascii_strncasecmp (p, "state", 5) == 0)
    {
      term->kind = TERM_STATE;
      if (parse_state (colon, &term->state))
        return TRUE;
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   "unknown state “%s”: use setup, ringing, in-call, completed, cancelled, "
                   "rejected or failed",
                   colon);
      return FALSE;
    }
  if (name_len == 4 && g_ascii_strncasecmp (p, "code", 4) == 0)
    {
      term->kind = TERM_CODE;
      if (parse_code (colon, &term->code_low, &term->code_high))
        return TRUE;
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   "“%s” is not a status code (e.g. 486 or 4xx)", colon);
      return FALSE;
    }
  if (name_len == 3 && g_ascii_strncasecmp (p, "has", 3) == 0)
    {
      term->kind = TERM_HAS;
      if (parse_has (colon, term))
        return TRUE;
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   "no finding kind starts with “%s” (e.g. one-way, loss, jitter, slow-pdd, "
                   "media)",
                   colon);
      return FALSE;
    }
  if (name_len == 5 && g_ascii_strncasecmp (p, "codec", 5) == 0)
    {
      term->kind = TERM_CODEC;
      term->text = g_utf8_casefold (colon, -1);
      return TRUE;
    }
  field = lookup_field (p, name_len);
  if (field == NULL || field->numeric)
    {
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   field != NULL ? "“%.*s” is a number: compare it, e.g. %.*s>3"
                                 : "unknown field “%.*s”: use from, to, callid, ua, method, "
                                   "state, code, codec or has",
                   (int) name_len, p, (int) name_len, p);
      return FALSE;
    }
  term->kind = TERM_FIELD;
  term->field = field->field;
  term->text = g_utf8_casefold (colon, -1);
  return TRUE;
}

CsCallsFilter *
cs_calls_filter_new (const char *text, guint *error_start, guint *error_end, GError **error)
{
  g_autoptr (CsCallsFilter) filter = g_new0 (CsCallsFilter, 1);
  GArray *group = NULL;
  const char *p = text != NULL ? text : "";

  filter->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  while (*p != '\0')
    {
      const char *start, *end;
      g_autofree char *word = NULL;
      Term term = { 0 };

      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      start = p;
      while (*p != '\0' && !g_ascii_isspace (*p))
        p++;
      end = p;
      word = g_strndup (start, end - start);
      if (g_ascii_strcasecmp (word, "or") == 0 || strcmp (word, "|") == 0
          || strcmp (word, "||") == 0)
        {
          if (group == NULL || group->len == 0)
            {
              g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                           "“%s” needs a term on each side", word);
              goto fail;
            }
          group = NULL;
          continue;
        }
      if (!parse_term (word, &term, error))
        {
          term_clear (&term);
          goto fail;
        }
      if (group == NULL)
        {
          group = g_array_new (FALSE, TRUE, sizeof (Term));
          g_array_set_clear_func (group, term_clear);
          g_ptr_array_add (filter->groups, group);
        }
      g_array_append_val (group, term);
      continue;
    fail:
      if (error_start != NULL)
        *error_start = (guint) g_utf8_pointer_to_offset (text, start);
      if (error_end != NULL)
        *error_end = (guint) g_utf8_pointer_to_offset (text, end);
      return NULL;
    }
  if (group != NULL && group->len == 0)
    g_ptr_array_remove (filter->groups, group);
  if (filter->groups->len > 0 && group == NULL)
    {
      gsize len = strlen (text);
      g_set_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX,
                   "“or” needs a term after it");
      if (error_start != NULL)
        *error_start = (guint) g_utf8_strlen (text, len);
      if (error_end != NULL)
        *error_end = (guint) g_utf8_strlen (text, len);
      return NULL;
    }
  return g_steal_pointer (&filter);
}

void
cs_calls_filter_free (CsCallsFilter *filter)
{
  if (filter == NULL)
    return;
  g_ptr_array_unref (filter->groups);
  g_free (filter);
}

gboolean
cs_calls_filter_is_empty (CsCallsFilter *filter)
{
  return filter == NULL || filter->groups->len == 0;
}

/* Matching */

/* Needles are casefolded; ASCII needles are searched without allocating. */
static gboolean
contains (const char *haystack, const char *needle)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;
  for (const char *n = needle; *n != '\0'; n++)
    if ((guchar) *n >= 0x80)
      {
        folded = g_utf8_casefold (haystack, -1);
        return strstr (folded, needle) != NULL;
      }
  return strcasestr (haystack, needle) != NULL;
}

static const char *
text_field (CsCall *call, Field field)
{
  switch (field)
    {
    case FIELD_FROM:
      return cs_call_get_from (call);
    case FIELD_TO:
      return cs_call_get_to (call);
    case FIELD_CALL_ID:
      return cs_call_get_call_id (call);
    case FIELD_USER_AGENT:
      return cs_call_get_user_agent (call);
    case FIELD_METHOD:
      return cs_call_get_method_name (call);
    default:
      return NULL;
    }
}

/* FALSE in *known when the call has no such value (no PDD, no media …). */
static double
number_field (CsCall *call, Field field, gboolean *known)
{
  double v;

  *known = TRUE;
  switch (field)
    {
    case FIELD_MOS:
      v = cs_call_get_mos (call);
      *known = v >= 0;
      return v;
    case FIELD_PDD:
      v = cs_call_get_pdd_ms (call);
      *known = v >= 0;
      return v / 1000.0;
    case FIELD_SETUP:
      v = cs_call_get_setup_ms (call);
      *known = v >= 0;
      return v / 1000.0;
    case FIELD_RING:
      v = cs_call_get_ring_ms (call);
      *known = v >= 0;
      return v / 1000.0;
    case FIELD_DURATION:
      v = cs_call_get_duration_s (call);
      *known = v >= 0;
      return v;
    case FIELD_MESSAGES:
      return cs_call_get_n_messages (call);
    case FIELD_STREAMS:
      {
        const GArray *ids = cs_call_get_stream_ids (call);
        return ids != NULL ? ids->len : 0;
      }
    case FIELD_FINDINGS:
      return cs_call_get_n_findings (call);
    case FIELD_RETRANSMISSIONS:
      return cs_call_get_retransmissions (call);
    case FIELD_CODE:
      v = cs_call_get_final_status (call);
      *known = v > 0;
      return v;
    case FIELD_NUMBER:
    default:
      return cs_call_get_number (call);
    }
}

static gboolean
compare (double a, Op op, double b)
{
  /* Values are shown with limited precision; equality allows for it. */
  gboolean equal = fabs (a - b) < 1e-9 * MAX (1.0, fabs (b));

  switch (op)
    {
    case OP_LT:
      return a < b && !equal;
    case OP_LE:
      return a < b || equal;
    case OP_GT:
      return a > b && !equal;
    case OP_GE:
      return a > b || equal;
    case OP_EQ:
      return equal;
    case OP_NE:
    default:
      return !equal;
    }
}

static gboolean
term_matches (const Term *t, CsCall *call, CsCallsIndex *index)
{
  switch (t->kind)
    {
    case TERM_TEXT:
      return contains (cs_call_get_from (call), t->text)
             || contains (cs_call_get_to (call), t->text)
             || contains (cs_call_get_call_id (call), t->text)
             || contains (cs_call_get_user_agent (call), t->text);
    case TERM_FIELD:
      return contains (text_field (call, t->field), t->text);
    case TERM_STATE:
      return cs_call_get_state (call) == t->state;
    case TERM_CODE:
      {
        guint code = cs_call_get_final_status (call);
        return code >= t->code_low && code <= t->code_high;
      }
    case TERM_CODEC:
      return index != NULL && contains (cs_calls_index_get_codecs (index, call), t->text);
    case TERM_HAS:
      if (t->kinds == 0 && !t->has_retransmissions)
        {
          const GArray *ids = cs_call_get_stream_ids (call);
          return ids != NULL && ids->len > 0;
        }
      return (t->has_retransmissions && cs_call_get_retransmissions (call) > 0)
             || (cs_calls_index_get_finding_kinds (index, call) & t->kinds) != 0;
    case TERM_NUMBER:
    default:
      {
        gboolean known;
        double v = number_field (call, t->field, &known);
        return known && compare (v, t->op, t->number);
      }
    }
}

gboolean
cs_calls_filter_match (CsCallsFilter *filter, CsCall *call, CsCallsIndex *index)
{
  if (cs_calls_filter_is_empty (filter))
    return TRUE;
  for (guint g = 0; g < filter->groups->len; g++)
    {
      GArray *group = g_ptr_array_index (filter->groups, g);
      gboolean all = TRUE;

      for (guint i = 0; i < group->len && all; i++)
        {
          const Term *t = &g_array_index (group, Term, i);
          all = term_matches (t, call, index) != t->negate;
        }
      if (all)
        return TRUE;
    }
  return FALSE;
}
