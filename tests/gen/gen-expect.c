/* gen-expect.c — the ground truth a scenario records while it builds packets */
#include "gen-expect.h"

#include "gen-capture.h"

#include <string.h>

static void
call_free (gpointer data)
{
  GenExpectCall *c = data;

  g_free (c->call_id);
  g_free (c->from_user);
  g_free (c->to_user);
  g_free (c->from_tag);
  g_array_unref (c->wire);
  g_free (c);
}

static void
non_invite_free (gpointer data)
{
  GenExpectNonInvite *n = data;

  g_free (n->method);
  g_free (n->call_id);
  g_free (n);
}

static void
stream_free (gpointer data)
{
  GenExpectStream *s = data;

  g_array_unref (s->arrivals);
  g_free (s);
}

static void
dtmf_free (gpointer data)
{
  GenExpectDtmf *d = data;

  g_array_unref (d->packet_ids);
  g_free (d);
}

static void
finding_free (gpointer data)
{
  GenExpectFinding *f = data;

  g_array_unref (f->packet_ids);
  g_free (f);
}

GenExpect *
gen_expect_new (void)
{
  GenExpect *e = g_new0 (GenExpect, 1);

  e->methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  e->statuses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  e->calls = g_ptr_array_new_with_free_func (call_free);
  e->non_invite = g_ptr_array_new_with_free_func (non_invite_free);
  e->streams = g_ptr_array_new_with_free_func (stream_free);
  e->dtmf = g_ptr_array_new_with_free_func (dtmf_free);
  e->findings = g_ptr_array_new_with_free_func (finding_free);
  e->legs = g_ptr_array_new_with_free_func (g_free);
  e->findings_known = TRUE;
  return e;
}

void
gen_expect_free (GenExpect *e)
{
  if (e == NULL)
    return;
  g_hash_table_unref (e->methods);
  g_hash_table_unref (e->statuses);
  g_ptr_array_unref (e->calls);
  g_ptr_array_unref (e->non_invite);
  g_ptr_array_unref (e->streams);
  g_ptr_array_unref (e->dtmf);
  g_ptr_array_unref (e->findings);
  g_ptr_array_unref (e->legs);
  g_free (e->keylog);
  g_free (e);
}

static void
count_key (GHashTable *table, const char *key, gsize len)
{
  char *k = g_strndup (key, len);
  gpointer old = g_hash_table_lookup (table, k);

  g_hash_table_replace (table, k, GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
}

void
gen_expect_sip_message (GenExpect *e, const char *text)
{
  e->sip_messages++;
  if (g_str_has_prefix (text, "SIP/2.0 "))
    count_key (e->statuses, text + 8, 3);
  else
    count_key (e->methods, text, strcspn (text, " "));
}

GenExpectCall *
gen_expect_add_call (GenExpect *e, const char *call_id, const char *from_user, const char *to_user,
                     const char *from_tag)
{
  GenExpectCall *c = g_new0 (GenExpectCall, 1);

  c->call_id = g_strdup (call_id);
  c->from_user = g_strdup (from_user);
  c->to_user = g_strdup (to_user);
  c->from_tag = g_strdup (from_tag);
  c->state = "setup";
  c->invite_ns = c->provisional_ns = c->answer_ns = c->bye_ns = -1;
  c->wire = g_array_new (FALSE, FALSE, sizeof (GenExpectMessage));
  g_ptr_array_add (e->calls, c);
  return c;
}

GenExpectNonInvite *
gen_expect_add_non_invite (GenExpect *e, const char *method, const char *call_id)
{
  GenExpectNonInvite *n = g_new0 (GenExpectNonInvite, 1);

  n->method = g_strdup (method);
  n->call_id = g_strdup (call_id);
  n->request_ns = n->first_response_ns = -1;
  g_ptr_array_add (e->non_invite, n);
  return n;
}

GenExpectStream *
gen_expect_add_stream (GenExpect *e, guint32 ssrc, const CsEndpoint *src, const CsEndpoint *dst,
                       guint8 payload_type, gboolean associated)
{
  GenExpectStream *s = g_new0 (GenExpectStream, 1);

  s->ssrc = ssrc;
  s->src = *src;
  s->dst = *dst;
  s->payload_type = payload_type;
  s->associated = associated;
  s->arrivals = g_array_new (FALSE, FALSE, sizeof (GenExpectArrival));
  g_ptr_array_add (e->streams, s);
  return s;
}

void
gen_expect_stream_packet (GenExpectStream *s, guint packet, gint64 index, gboolean duplicate)
{
  GenExpectArrival a = { packet, index, duplicate };

  g_array_append_val (s->arrivals, a);
  s->packets++;
  if (duplicate)
    s->duplicates++;
  if (!s->have_first)
    {
      s->have_first = TRUE;
      s->first_index = index;
      s->max_index = index;
    }
  s->max_index = MAX (s->max_index, index);
}

void
gen_expect_call_message (GenExpectCall *c, guint packet, const GenExpectMessage *message)
{
  GenExpectMessage m = *message;

  m.packet = packet;
  g_array_append_val (c->wire, m);
}

static gboolean
message_is (const GenExpectMessage *m, const char *method, guint status)
{
  return m->status == status && (method == NULL || strcmp (m->method, method) == 0);
}

guint
gen_expect_call_packet (const GenExpectCall *c, const char *method, guint status, guint nth)
{
  for (guint i = 0; i < c->wire->len; i++)
    {
      const GenExpectMessage *m = &g_array_index (c->wire, GenExpectMessage, i);

      if (!m->copy && message_is (m, method, status) && nth-- == 0)
        return m->packet;
    }
  return G_MAXUINT;
}

GenExpectCall *
gen_expect_call (GenExpect *e, guint i)
{
  g_assert (i < e->calls->len);
  return g_ptr_array_index (e->calls, i);
}

GenExpectStream *
gen_expect_stream (GenExpect *e, guint i)
{
  g_assert (i < e->streams->len);
  return g_ptr_array_index (e->streams, i);
}

GenExpectFinding *
gen_expect_call_finding (GenExpect *e, const char *kind, const char *severity, GenExpectCall *call,
                         const char *method, guint status)
{
  GenExpectFinding *f = gen_expect_add_finding (e, kind, severity, call, NULL);

  gen_expect_finding_messages (f, call, method, status, TRUE);
  return f;
}

void
gen_expect_finding_messages (GenExpectFinding *f, const GenExpectCall *c, const char *method,
                             guint status, gboolean copies)
{
  for (guint i = 0; i < c->wire->len; i++)
    {
      const GenExpectMessage *m = &g_array_index (c->wire, GenExpectMessage, i);

      if (message_is (m, method, status) && (copies || !m->copy))
        gen_expect_finding_frame (f, m->packet);
    }
}

void
gen_expect_finding_copies (GenExpectFinding *f, const GenExpectCall *c)
{
  for (guint i = 0; i < c->wire->len; i++)
    if (g_array_index (c->wire, GenExpectMessage, i).copy)
      gen_expect_finding_frame (f, g_array_index (c->wire, GenExpectMessage, i).packet);
}

guint
gen_expect_stream_first (const GenExpectStream *s)
{
  g_assert (s->arrivals->len > 0);
  return g_array_index (s->arrivals, GenExpectArrival, 0).packet;
}

guint
gen_expect_stream_last (const GenExpectStream *s)
{
  g_assert (s->arrivals->len > 0);
  return g_array_index (s->arrivals, GenExpectArrival, s->arrivals->len - 1).packet;
}

guint
gen_expect_stream_nth (const GenExpectStream *s, guint n)
{
  g_assert (n < s->arrivals->len);
  return g_array_index (s->arrivals, GenExpectArrival, n).packet;
}

guint
gen_expect_call_first (const GenExpectCall *c)
{
  g_assert (c->wire->len > 0);
  return g_array_index (c->wire, GenExpectMessage, 0).packet;
}

guint
gen_expect_call_last (const GenExpectCall *c)
{
  g_assert (c->wire->len > 0);
  return g_array_index (c->wire, GenExpectMessage, c->wire->len - 1).packet;
}

/* A gap: a packet arriving more than one ahead of every sequence offset seen so far. */
void
gen_expect_finding_after_gaps (GenExpectFinding *f, const GenExpectStream *s, guint max)
{
  gint64 highest = G_MININT64;

  for (guint i = 0, n = 0; i < s->arrivals->len; i++)
    {
      const GenExpectArrival *a = &g_array_index (s->arrivals, GenExpectArrival, i);

      if (i > 0 && a->index > highest + 1 && n++ < max)
        gen_expect_finding_frame (f, a->packet);
      highest = MAX (highest, a->index);
    }
}

/* Duplicates, and packets arriving after a later sequence offset did. */
void
gen_expect_finding_disordered (GenExpectFinding *f, const GenExpectStream *s)
{
  gint64 highest = G_MININT64;

  for (guint i = 0; i < s->arrivals->len; i++)
    {
      const GenExpectArrival *a = &g_array_index (s->arrivals, GenExpectArrival, i);

      if (a->duplicate || (i > 0 && a->index < highest))
        gen_expect_finding_frame (f, a->packet);
      highest = MAX (highest, a->index);
    }
}

void
gen_expect_call_response (GenExpectCall *c, gint64 t, guint status)
{
  if ((status == 180 || status == 183) && c->provisional_ns < 0)
    c->provisional_ns = t;
  if (status >= 200 && status < 300 && c->answer_ns < 0)
    c->answer_ns = t;
  if (status >= 200 && c->final_status == 0)
    c->final_status = status;
}

GenExpectDtmf *
gen_expect_add_dtmf (GenExpect *e, char digit, const char *source)
{
  GenExpectDtmf *d = g_new0 (GenExpectDtmf, 1);

  d->digit = digit;
  d->source = source;
  d->packet_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (e->dtmf, d);
  return d;
}

void
gen_expect_findings_known (GenExpect *e)
{
  e->findings_known = TRUE;
}

GenExpectFinding *
gen_expect_add_finding (GenExpect *e, const char *kind, const char *severity, GenExpectCall *call,
                        GenExpectStream *stream)
{
  GenExpectFinding *f = g_new0 (GenExpectFinding, 1);

  f->kind = kind;
  f->severity = severity;
  f->call = call;
  f->stream = stream;
  f->packet_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  e->findings_known = TRUE;
  g_ptr_array_add (e->findings, f);
  return f;
}

void
gen_expect_finding_frame (GenExpectFinding *f, guint packet_id)
{
  g_array_append_val (f->packet_ids, packet_id);
}

void
gen_expect_set_keylog (GenExpect *e, const char *text)
{
  g_free (e->keylog);
  e->keylog = g_strdup (text);
}

void
gen_expect_add_leg (GenExpect *e, GenExpectCall *a, GenExpectCall *b, const char *reason)
{
  GenExpectLeg *leg = g_new0 (GenExpectLeg, 1);

  leg->a = a;
  leg->b = b;
  leg->reason = reason;
  g_ptr_array_add (e->legs, leg);
}

static void
append_json_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if ((guint8) *p < 0x20)
        g_string_append_printf (out, "\\u%04x", (guint8) *p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static gint
compare_str_ptr (gconstpointer a, gconstpointer b, gpointer unused)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
append_counts (GString *out, const char *name, GHashTable *table)
{
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (table, NULL);
  guint n = g_hash_table_size (table);

  g_qsort_with_data (keys, n, sizeof (gpointer), compare_str_ptr, NULL);
  g_string_append_printf (out, "  \"%s\": {", name);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, i ? ", " : "");
      append_json_string (out, keys[i]);
      g_string_append_printf (out, ": %u", GPOINTER_TO_UINT (g_hash_table_lookup (table, keys[i])));
    }
  g_string_append (out, "},\n");
}

/* ", \"name\": (to - from) / unit" with three decimals, null when either time is missing */
static void
append_span (GString *out, const char *name, gint64 from_ns, gint64 to_ns, double unit_ns)
{
  g_string_append_printf (out, ", \"%s\": ", name);
  if (from_ns < 0 || to_ns < 0)
    g_string_append (out, "null");
  else
    g_string_append_printf (out, "%.3f", (double) (to_ns - from_ns) / unit_ns);
}

static void
append_final (GString *out, guint status)
{
  if (status == 0)
    g_string_append (out, "null");
  else
    g_string_append_printf (out, "%u", status);
}

static gint
compare_frames (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* "findings": each with its call and stream as indexes into "calls" and "streams" (-1: none),
 * a non-INVITE exchange by method and Call-ID, and its frames ascending as the report lists
 * them. */
static void
append_findings (GString *out, GenExpect *e, GenCapture *cap)
{
  g_string_append (out, ",\n  \"findings\": [");
  for (guint i = 0; i < e->findings->len; i++)
    {
      GenExpectFinding *f = g_ptr_array_index (e->findings, i);
      g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint));
      guint call = 0, stream = 0;

      for (guint j = 0; j < f->packet_ids->len; j++)
        g_array_append_val (
            frames, gen_capture_packet (cap, g_array_index (f->packet_ids, guint, j))->frame);
      g_array_sort (frames, compare_frames);
      g_assert_true (f->call == NULL || g_ptr_array_find (e->calls, f->call, &call));
      g_assert_true (f->stream == NULL || g_ptr_array_find (e->streams, f->stream, &stream));
      g_string_append_printf (out,
                              "%s{\"kind\": \"%s\", \"severity\": \"%s\", \"call\": %d, "
                              "\"stream\": %d, ",
                              i ? ",\n    " : "\n    ", f->kind, f->severity,
                              f->call != NULL ? (int) call : -1,
                              f->stream != NULL ? (int) stream : -1);
      if (f->exchange != NULL)
        {
          g_string_append (out, "\"exchange\": {\"method\": ");
          append_json_string (out, f->exchange->method);
          g_string_append (out, ", \"call_id\": ");
          append_json_string (out, f->exchange->call_id);
          g_string_append (out, "}, ");
        }
      if (f->disputed != NULL)
        {
          g_string_append (out, "\"disputed\": ");
          append_json_string (out, f->disputed);
          g_string_append (out, ", ");
        }
      g_string_append (out, "\"frames\": [");
      for (guint j = 0; j < frames->len; j++)
        g_string_append_printf (out, "%s%u", j ? ", " : "", g_array_index (frames, guint, j));
      g_string_append (out, "]}");
    }
  g_string_append (out, e->findings->len ? "\n  ]" : "]");
}

static void
append_leg_call (GString *out, const char *key, const GenExpectCall *c)
{
  g_string_append_printf (out, "\"%s\": {\"call_id\": ", key);
  append_json_string (out, c->call_id);
  g_string_append (out, ", \"from_user\": ");
  append_json_string (out, c->from_user);
  g_string_append (out, "}");
}

/* "legs", only when the scenario has some: the other scenarios' truth keeps its bytes. */
static void
append_legs (GString *out, GPtrArray *legs)
{
  if (legs->len == 0)
    return;
  g_string_append (out, ",\n  \"legs\": [");
  for (guint i = 0; i < legs->len; i++)
    {
      GenExpectLeg *leg = g_ptr_array_index (legs, i);

      g_string_append (out, i ? ",\n    {" : "\n    {");
      append_leg_call (out, "a", leg->a);
      g_string_append (out, ", ");
      append_leg_call (out, "b", leg->b);
      g_string_append_printf (out, ", \"reason\": \"%s\"}", leg->reason);
    }
  g_string_append (out, "\n  ]");
}

char *
gen_expect_to_json (GenExpect *e, const char *scenario, GenCapture *cap)
{
  GString *out = g_string_new ("{\n  \"scenario\": ");
  char buf[CS_ENDPOINT_STRLEN];

  append_json_string (out, scenario);
  g_string_append_printf (out, ",\n  \"frames\": %u,\n", cap->packets->len - e->frames_cut);
  if (e->exit_status != 0)
    g_string_append_printf (out, "  \"exit_status\": %d,\n", e->exit_status);
  g_string_append_printf (out, "  \"sip_messages\": %u,\n", e->sip_messages);
  append_counts (out, "sip_methods", e->methods);
  append_counts (out, "sip_statuses", e->statuses);

  g_string_append (out, "  \"calls\": [");
  for (guint i = 0; i < e->calls->len; i++)
    {
      GenExpectCall *c = g_ptr_array_index (e->calls, i);

      g_string_append (out, i ? ",\n    {" : "\n    {");
      g_string_append (out, "\"call_id\": ");
      append_json_string (out, c->call_id);
      g_string_append (out, ", \"from_tag\": ");
      append_json_string (out, c->from_tag);
      g_string_append (out, ", \"from_user\": ");
      append_json_string (out, c->from_user);
      g_string_append (out, ", \"to_user\": ");
      append_json_string (out, c->to_user);
      g_string_append_printf (out, ", \"state\": \"%s\", \"final_status\": ", c->state);
      append_final (out, c->final_status);
      append_span (out, "pdd_ms", c->invite_ns, c->provisional_ns, 1e6);
      append_span (out, "setup_ms", c->invite_ns, c->answer_ns, 1e6);
      append_span (out, "ring_ms", c->provisional_ns, c->answer_ns, 1e6);
      append_span (out, "duration_s", c->answer_ns, c->bye_ns, 1e9);
      g_string_append_printf (out, ", \"messages\": %u, \"retransmissions\": %u", c->messages,
                              c->retransmissions);
      if (c->sightings > 0)
        g_string_append_printf (out, ", \"sightings\": %u", c->sightings);
      g_string_append (out, "}");
    }
  g_string_append (out, e->calls->len ? "\n  ],\n" : "],\n");

  g_string_append (out, "  \"non_invite\": [");
  for (guint i = 0; i < e->non_invite->len; i++)
    {
      GenExpectNonInvite *n = g_ptr_array_index (e->non_invite, i);

      g_string_append (out, i ? ",\n    {" : "\n    {");
      g_string_append (out, "\"method\": ");
      append_json_string (out, n->method);
      g_string_append (out, ", \"call_id\": ");
      append_json_string (out, n->call_id);
      g_string_append (out, ", \"final_status\": ");
      append_final (out, n->final_status);
      g_string_append_printf (out, ", \"messages\": %u, \"retransmissions\": %u", n->messages,
                              n->retransmissions);
      if (n->first_response_ns >= 0)
        append_span (out, "first_response_ms", n->request_ns, n->first_response_ns, 1e6);
      if (n->state != NULL)
        {
          g_string_append (out, ", \"state\": ");
          append_json_string (out, n->state);
        }
      g_string_append (out, "}");
    }
  g_string_append (out, e->non_invite->len ? "\n  ],\n" : "],\n");

  g_string_append (out, "  \"streams\": [");
  for (guint i = 0; i < e->streams->len; i++)
    {
      GenExpectStream *s = g_ptr_array_index (e->streams, i);
      gint64 expected = s->have_first ? s->max_index - s->first_index + 1 : 0;

      g_string_append (out, i ? ",\n    {" : "\n    {");
      g_string_append_printf (out, "\"ssrc\": \"0x%08X\", ", s->ssrc);
      g_string_append_printf (out, "\"src\": \"%s\", ", cs_endpoint_to_string (&s->src, buf));
      g_string_append_printf (out, "\"dst\": \"%s\", ", cs_endpoint_to_string (&s->dst, buf));
      g_string_append_printf (
          out,
          "\"payload_type\": %u, \"packets\": %u, \"expected\": %" G_GINT64_FORMAT
          ", \"lost\": %" G_GINT64_FORMAT ", \"duplicates\": %u, \"associated\": %s, "
          "\"protection\": \"%s\"",
          s->payload_type, s->packets, expected, expected - (gint64) s->packets, s->duplicates,
          s->associated ? "true" : "false", s->protection != NULL ? s->protection : "clear");
      if (s->srtp_suite != NULL)
        g_string_append_printf (out, ", \"srtp_suite\": \"%s\"", s->srtp_suite);
      if (s->srtp_key[0] != '\0')
        g_string_append_printf (out, ", \"srtp_key\": \"%s\"", s->srtp_key);
      g_string_append (out, "}");
    }
  g_string_append (out, e->streams->len ? "\n  ],\n" : "],\n");

  g_string_append (out, "  \"dtmf\": [");
  for (guint i = 0; i < e->dtmf->len; i++)
    {
      GenExpectDtmf *d = g_ptr_array_index (e->dtmf, i);

      g_string_append (out, i ? ",\n    {" : "\n    {");
      g_string_append_printf (out, "\"digit\": \"%c\", \"source\": \"%s\", \"frames\": [", d->digit,
                              d->source);
      for (guint j = 0; j < d->packet_ids->len; j++)
        {
          GenPacket *p = gen_capture_packet (cap, g_array_index (d->packet_ids, guint, j));
          g_string_append_printf (out, "%s%u", j ? ", " : "", p->frame);
        }
      g_string_append (out, "]}");
    }
  g_string_append (out, e->dtmf->len ? "\n  ]" : "]");
  if (e->limits != NULL)
    {
      g_string_append (out, ",\n  \"limits\": ");
      append_json_string (out, e->limits);
    }
  if (e->keylog != NULL)
    {
      g_string_append (out, ",\n  \"keylog\": ");
      append_json_string (out, e->keylog);
    }
  if (e->findings_known)
    append_findings (out, e, cap);
  append_legs (out, e->legs);
  g_string_append (out, "\n}\n");
  return g_string_free (out, FALSE);
}
