/* cs-call-legs.c — which calls are legs of one another, and the evidence that says so */
#include "cs-call-legs.h"

#include "cs-stream.h"
#include "sip/cs-sip-headers.h"

#include <string.h>

/* Legs of one call overlap in time; header evidence allows this much slack either side. */
#define CS_LEG_SLACK_NS (G_GINT64_CONSTANT (5) * G_TIME_SPAN_SECOND * 1000)
/* The INVITE a REFER asks for follows it within Timer B (64·T1). */
#define CS_LEG_REFER_WINDOW_NS (G_GINT64_CONSTANT (32) * G_TIME_SPAN_SECOND * 1000)
/* Calls sharing one Call-ID beyond this many are a reused Call-ID, not hops of one call. */
#define CS_LEG_MAX_SAME_CALL_ID 16
/* An SSRC on the streams of more calls than this is a constant of some device, no evidence. */
#define CS_LEG_MAX_SSRC_CALLS 8

static const char *const reason_names[] = {
  [CS_LEG_REASON_CORRELATION_HEADER] = "correlation-header",
  [CS_LEG_REASON_REPLACES] = "replaces",
  [CS_LEG_REASON_REFER] = "refer",
  [CS_LEG_REASON_SAME_CALL_ID] = "same-call-id",
  [CS_LEG_REASON_DIVERSION] = "diversion",
  [CS_LEG_REASON_MEDIA] = "media",
};

const char *
cs_leg_reason_to_string (CsLegReason reason)
{
  return (guint) reason < G_N_ELEMENTS (reason_names) ? reason_names[reason] : "unknown";
}

void
cs_call_link_free (CsCallLink *link)
{
  if (link == NULL)
    return;
  g_free (link->evidence);
  g_free (link);
}

typedef struct
{
  GPtrArray *calls;      /* CsCall* (refs): the INVITE dialogs */
  GHashTable *by_id;     /* Call-ID → GPtrArray of CsCall* (borrowed) */
  GHashTable *by_callee; /* To user → GPtrArray of CsCall* */
  GHashTable *links;     /* pair key → CsCallLink* (owned) */
} CsLegSearch;

static guint64
pair_key (guint a, guint b)
{
  return a < b ? ((guint64) a << 32) | b : ((guint64) b << 32) | a;
}

static void
index_add (GHashTable *index, const char *key, CsCall *call)
{
  GPtrArray *list;

  if (key == NULL || *key == '\0')
    return;
  list = g_hash_table_lookup (index, key);
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (index, g_strdup (key), list);
    }
  g_ptr_array_add (list, call);
}

static gboolean
calls_overlap (CsCall *a, CsCall *b, gint64 slack)
{
  return cs_call_get_start_ns (a) <= cs_call_get_end_ns (b) + slack
         && cs_call_get_start_ns (b) <= cs_call_get_end_ns (a) + slack;
}

/* Records the link unless the pair already has one (the first reason found stays). */
static void
add_link (CsLegSearch *s, CsCall *a, CsCall *b, CsLegReason reason, guint32 frame, char *evidence)
{
  guint na = cs_call_get_number (a), nb = cs_call_get_number (b);
  guint64 key = pair_key (na, nb);
  CsCallLink *link;

  if (na == nb || g_hash_table_contains (s->links, &key))
    {
      g_free (evidence);
      return;
    }
  link = g_new0 (CsCallLink, 1);
  link->call_a = MIN (na, nb);
  link->call_b = MAX (na, nb);
  link->reason = reason;
  link->frame = frame;
  link->evidence = evidence;
  g_hash_table_insert (s->links, g_memdup2 (&key, sizeof key), link);
}

/* The calls with this Call-ID that overlap `call` in time. */
static void
link_by_call_id (CsLegSearch *s, CsCall *call, const char *call_id, CsLegReason reason,
                 const CsSipMessage *msg, const char *what)
{
  GPtrArray *list = call_id != NULL ? g_hash_table_lookup (s->by_id, call_id) : NULL;

  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      CsCall *other = g_ptr_array_index (list, i);

      if (other != call && calls_overlap (call, other, CS_LEG_SLACK_NS))
        add_link (s, call, other, reason, cs_sip_message_get_frame (msg),
                  g_strdup_printf ("%s names call %u's Call-ID", what, cs_call_get_number (other)));
    }
}

/* Headers B2BUAs use to carry the other leg's Call-ID: any "…Call-ID" header but Call-ID
 * itself (X-Call-ID, X-Orig-Call-ID, P-Related-Call-ID …), and X-CID. */
static gboolean
is_correlation_header (const char *name)
{
  gsize len = strlen (name);

  if (cs_sip_header_name_equal (name, "Call-ID"))
    return FALSE;
  if (g_ascii_strcasecmp (name, "X-CID") == 0)
    return TRUE;
  return len > 7 && g_ascii_strcasecmp (name + len - 7, "Call-ID") == 0;
}

/* "abc@h;to-tag=1;from-tag=2" → "abc@h" */
static char *
dup_replaces_call_id (const char *value)
{
  return g_strstrip (g_strndup (value, strcspn (value, ";")));
}

/* The Replaces header inside a Refer-To URI ("<sip:c@h?Replaces=abc%40h%3Bto-tag%3D1>"),
 * unescaped; NULL when none. */
static char *
dup_refer_to_replaces (const char *uri)
{
  const char *headers = strchr (uri, '?');
  g_autofree char *escaped = NULL;
  g_autofree char *value = NULL;

  for (const char *p = headers; p != NULL; p = strchr (p + 1, '&'))
    if (g_ascii_strncasecmp (p + 1, "Replaces=", 9) == 0)
      {
        escaped = g_strndup (p + 10, strcspn (p + 10, "&>"));
        break;
      }
  if (escaped == NULL)
    return NULL;
  value = g_uri_unescape_string (escaped, NULL);
  return value != NULL ? dup_replaces_call_id (value) : NULL;
}

/* User part of the address in a header value (name-addr or addr-spec). */
static char *
dup_value_user (const char *value)
{
  CsSipNameAddr na;
  char *user;

  if (value == NULL || !cs_sip_name_addr_parse (value, &na))
    return NULL;
  user = cs_sip_uri_dup_user (na.uri);
  cs_sip_name_addr_clear (&na);
  return user;
}

static void
scan_header_evidence (CsLegSearch *s, CsCall *call, const CsSipMessage *msg)
{
  const GPtrArray *headers = cs_sip_message_get_headers (msg);

  for (guint h = 0; headers != NULL && h < headers->len; h++)
    {
      const CsSipHeader *header = g_ptr_array_index (headers, h);
      g_autofree char *what = NULL;

      if (header->value == NULL)
        continue;
      if (is_correlation_header (header->name))
        {
          what = g_strdup_printf ("%s: %s", header->name, header->value);
          link_by_call_id (s, call, header->value, CS_LEG_REASON_CORRELATION_HEADER, msg, what);
        }
      else if (cs_sip_header_name_equal (header->name, "Replaces"))
        {
          g_autofree char *id = dup_replaces_call_id (header->value);

          what = g_strdup_printf ("Replaces: %s", header->value);
          link_by_call_id (s, call, id, CS_LEG_REASON_REPLACES, msg, what);
        }
      else if (cs_sip_header_name_equal (header->name, "Refer-To"))
        {
          g_autofree char *id = dup_refer_to_replaces (header->value);

          what = g_strdup_printf ("REFER's Refer-To with Replaces=%s", id != NULL ? id : "");
          if (id != NULL)
            link_by_call_id (s, call, id, CS_LEG_REASON_REFER, msg, what);
        }
    }
}

/* A REFER of call asks for an INVITE to its Refer-To target: an INVITE of another call to
 * that user, with Referred-By naming the REFER's referrer, sent soon after. */
static void
scan_refer (CsLegSearch *s, CsCall *call, const CsSipMessage *refer)
{
  g_autofree char *target = dup_value_user (cs_sip_message_get_header (refer, "Refer-To"));
  const char *by_value = cs_sip_message_get_header (refer, "Referred-By");
  g_autofree char *referrer = by_value != NULL ? dup_value_user (by_value)
                                               : g_strdup (cs_sip_message_get_from_user (refer));
  gint64 t = cs_sip_message_get_ts_ns (refer);

  if (target == NULL || referrer == NULL)
    return;
  for (guint i = 0; i < s->calls->len; i++)
    {
      CsCall *other = g_ptr_array_index (s->calls, i);
      CsSipMessage *invite = cs_call_get_message (other, 0);
      g_autofree char *by = NULL;
      g_autofree char *ruri_user = NULL;

      if (other == call || cs_call_get_start_ns (other) < t
          || cs_call_get_start_ns (other) > t + CS_LEG_REFER_WINDOW_NS)
        continue;
      if (!cs_sip_message_is_request (invite)
          || cs_sip_message_get_method (invite) != CS_SIP_METHOD_INVITE)
        continue;
      by = dup_value_user (cs_sip_message_get_header (invite, "Referred-By"));
      ruri_user = cs_sip_uri_dup_user (cs_sip_message_get_request_uri (invite));
      if (by != NULL && g_strcmp0 (by, referrer) == 0 && g_strcmp0 (ruri_user, target) == 0)
        add_link (s, call, other, CS_LEG_REASON_REFER, cs_sip_message_get_frame (invite),
                  g_strdup_printf ("INVITE to %s with Referred-By %s, %.3f s after call %u's REFER "
                                   "(frame %u)",
                                   target, referrer, (cs_call_get_start_ns (other) - t) / 1e9,
                                   cs_call_get_number (call), cs_sip_message_get_frame (refer)));
    }
}

/* The comma-separated entries of a Diversion or History-Info value, their users. */
static GPtrArray *
dup_entry_users (const char *value)
{
  GPtrArray *users = g_ptr_array_new_with_free_func (g_free);
  gboolean quoted = FALSE, bracketed = FALSE;
  const char *start = value;

  for (const char *p = value;; p++)
    {
      if (*p == '"')
        quoted = !quoted;
      else if (*p == '<' && !quoted)
        bracketed = TRUE;
      else if (*p == '>' && !quoted)
        bracketed = FALSE;
      if (*p == '\0' || (*p == ',' && !quoted && !bracketed))
        {
          g_autofree char *entry = g_strndup (start, p - start);
          char *user = dup_value_user (g_strstrip (entry));

          if (user != NULL)
            g_ptr_array_add (users, user);
          if (*p == '\0')
            break;
          start = p + 1;
        }
    }
  return users;
}

/* An INVITE diverted from a user (Diversion, or an earlier History-Info entry) is a leg of
 * the call to that user from the same caller that was being set up when it was sent. */
static void
scan_diversion (CsLegSearch *s, CsCall *call, const CsSipMessage *invite)
{
  static const char *const names[] = { "Diversion", "History-Info" };
  gint64 t = cs_sip_message_get_ts_ns (invite);

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      const char *value = cs_sip_message_get_header (invite, names[n]);
      g_autoptr (GPtrArray) users = value != NULL ? dup_entry_users (value) : NULL;

      for (guint u = 0; users != NULL && u < users->len; u++)
        {
          const char *user = g_ptr_array_index (users, u);
          GPtrArray *list = g_hash_table_lookup (s->by_callee, user);

          if (g_strcmp0 (user, cs_call_get_to (call)) == 0)
            continue; /* History-Info's own entry: the current target */
          for (guint i = 0; list != NULL && i < list->len; i++)
            {
              CsCall *other = g_ptr_array_index (list, i);

              if (other == call
                  || g_strcmp0 (cs_call_get_from (other), cs_call_get_from (call)) != 0
                  || t < cs_call_get_start_ns (other) || t > cs_call_get_end_ns (other))
                continue;
              add_link (s, call, other, CS_LEG_REASON_DIVERSION, cs_sip_message_get_frame (invite),
                        g_strdup_printf ("%s names %s, the callee of call %u, %.3f s after its "
                                         "INVITE",
                                         names[n], user, cs_call_get_number (other),
                                         (t - cs_call_get_start_ns (other)) / 1e9));
            }
        }
    }
}

/* The first INVITE request of a call, NULL when none is stored. */
static CsSipMessage *
first_invite (CsCall *call)
{
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      if (cs_sip_message_is_request (msg)
          && cs_sip_message_get_method (msg) == CS_SIP_METHOD_INVITE)
        return msg;
    }
  return NULL;
}

/* Calls with one Call-ID (and different From-tags) at the same time, whose INVITEs crossed
 * different hops: one call through a B2BUA that keeps the Call-ID. */
static void
scan_same_call_id (CsLegSearch *s, GPtrArray *list)
{
  if (list->len < 2 || list->len > CS_LEG_MAX_SAME_CALL_ID)
    return;
  for (guint i = 0; i < list->len; i++)
    for (guint j = i + 1; j < list->len; j++)
      {
        CsCall *a = g_ptr_array_index (list, i), *b = g_ptr_array_index (list, j);
        CsSipMessage *ia = first_invite (a), *ib = first_invite (b);
        char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];

        if (ia == NULL || ib == NULL || !calls_overlap (a, b, 0))
          continue;
        if (cs_endpoint_equal (cs_sip_message_get_src (ia), cs_sip_message_get_src (ib))
            && cs_endpoint_equal (cs_sip_message_get_dst (ia), cs_sip_message_get_dst (ib)))
          continue; /* the same hop: a new call reusing the Call-ID */
        cs_endpoint_to_string (cs_sip_message_get_src (ib), src);
        cs_endpoint_to_string (cs_sip_message_get_dst (ib), dst);
        add_link (s, a, b, CS_LEG_REASON_SAME_CALL_ID, cs_sip_message_get_frame (ib),
                  g_strdup_printf ("the same Call-ID on another hop (%s → %s) at the same time",
                                   src, dst));
      }
}

static gint64
stream_overlap_ns (const CsRtpStats *a, const CsRtpStats *b)
{
  return MIN (a->last_ns, b->last_ns) - MAX (a->first_ns, b->first_ns);
}

/* One SSRC on a stream of each leg, on different flows, for most of the shorter one's time:
 * a media relay passing the packets on. */
static void
scan_media (CsLegSearch *s, GListModel *streams)
{
  g_autoptr (GHashTable) by_ssrc = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                          (GDestroyNotify) g_ptr_array_unref);
  GHashTable *numbers = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n = streams != NULL ? g_list_model_get_n_items (streams) : 0;
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < n; i++)
    {
      CsStream *stream = g_list_model_get_item (streams, i);
      GPtrArray *list;

      if (!cs_stream_is_associated (stream))
        {
          g_object_unref (stream);
          continue;
        }
      list = g_hash_table_lookup (by_ssrc, GUINT_TO_POINTER (cs_stream_get_ssrc (stream)));
      if (list == NULL)
        {
          list = g_ptr_array_new_with_free_func (g_object_unref);
          g_hash_table_insert (by_ssrc, GUINT_TO_POINTER (cs_stream_get_ssrc (stream)), list);
        }
      g_ptr_array_add (list, stream);
    }
  for (guint i = 0; i < s->calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (s->calls, i);

      g_hash_table_insert (numbers, GUINT_TO_POINTER (cs_call_get_number (call)), call);
    }
  g_hash_table_iter_init (&iter, by_ssrc);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GPtrArray *list = value;
      g_autoptr (GHashTable) calls = g_hash_table_new (g_direct_hash, g_direct_equal);

      for (guint i = 0; i < list->len; i++)
        g_hash_table_add (
            calls, GUINT_TO_POINTER (cs_stream_get_call_number (g_ptr_array_index (list, i))));
      if (g_hash_table_size (calls) < 2 || g_hash_table_size (calls) > CS_LEG_MAX_SSRC_CALLS)
        continue;
      for (guint i = 0; i < list->len; i++)
        for (guint j = i + 1; j < list->len; j++)
          {
            CsStream *x = g_ptr_array_index (list, i), *y = g_ptr_array_index (list, j);
            const CsRtpStats *sx = cs_stream_get_stats (x), *sy = cs_stream_get_stats (y);
            CsCall *cx
                = g_hash_table_lookup (numbers, GUINT_TO_POINTER (cs_stream_get_call_number (x)));
            CsCall *cy
                = g_hash_table_lookup (numbers, GUINT_TO_POINTER (cs_stream_get_call_number (y)));
            gint64 shorter = MIN (sx->last_ns - sx->first_ns, sy->last_ns - sy->first_ns);
            char fx[CS_ENDPOINT_STRLEN], tx[CS_ENDPOINT_STRLEN];
            char fy[CS_ENDPOINT_STRLEN], ty[CS_ENDPOINT_STRLEN];

            if (cx == NULL || cy == NULL || cx == cy)
              continue;
            if (cs_endpoint_equal (cs_stream_get_src (x), cs_stream_get_src (y))
                && cs_endpoint_equal (cs_stream_get_dst (x), cs_stream_get_dst (y)))
              continue; /* one flow split between calls: ports shared, nothing relayed */
            if (stream_overlap_ns (sx, sy) * 2 < shorter || shorter <= 0)
              continue;
            cs_endpoint_to_string (cs_stream_get_src (x), fx);
            cs_endpoint_to_string (cs_stream_get_dst (x), tx);
            cs_endpoint_to_string (cs_stream_get_src (y), fy);
            cs_endpoint_to_string (cs_stream_get_dst (y), ty);
            add_link (s, cx, cy, CS_LEG_REASON_MEDIA, 0,
                      g_strdup_printf ("SSRC 0x%08X on stream %u (%s → %s) and stream %u (%s → "
                                       "%s) at the same time",
                                       cs_stream_get_ssrc (x), cs_stream_get_id (x), fx, tx,
                                       cs_stream_get_id (y), fy, ty));
          }
    }
  g_hash_table_unref (numbers);
}

static gint
compare_links (gconstpointer pa, gconstpointer pb)
{
  const CsCallLink *a = *(const CsCallLink *const *) pa, *b = *(const CsCallLink *const *) pb;

  if (a->call_a != b->call_a)
    return a->call_a < b->call_a ? -1 : 1;
  return a->call_b < b->call_b ? -1 : a->call_b > b->call_b;
}

GPtrArray *
cs_call_links_find (GListModel *calls, GListModel *streams)
{
  CsLegSearch s = { 0 };
  guint n = calls != NULL ? g_list_model_get_n_items (calls) : 0;
  GPtrArray *links = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_call_link_free);
  GHashTableIter iter;
  gpointer value;

  s.calls = g_ptr_array_new_with_free_func (g_object_unref);
  s.by_id
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  s.by_callee
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  s.links = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      CsCall *call = g_list_model_get_item (calls, i);

      if (cs_call_get_method (call) != CS_SIP_METHOD_INVITE || cs_call_get_n_messages (call) == 0)
        {
          g_object_unref (call);
          continue;
        }
      g_ptr_array_add (s.calls, call);
      index_add (s.by_id, cs_call_get_call_id (call), call);
      index_add (s.by_callee, cs_call_get_to (call), call);
    }
  /* In the order of the reasons: a pair keeps the first that holds. */
  for (guint i = 0; i < s.calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (s.calls, i);

      for (guint m = 0; m < cs_call_get_n_messages (call); m++)
        {
          CsSipMessage *msg = cs_call_get_message (call, m);
          CsSipMethod method = cs_sip_message_get_method (msg);

          if (!cs_sip_message_is_request (msg) || cs_call_message_is_retransmission (call, m)
              || (method != CS_SIP_METHOD_INVITE && method != CS_SIP_METHOD_REFER))
            continue;
          scan_header_evidence (&s, call, msg);
          if (method == CS_SIP_METHOD_REFER)
            scan_refer (&s, call, msg);
        }
    }
  g_hash_table_iter_init (&iter, s.by_id);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    scan_same_call_id (&s, value);
  for (guint i = 0; i < s.calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (s.calls, i);
      CsSipMessage *invite = first_invite (call);

      if (invite != NULL)
        scan_diversion (&s, call, invite);
    }
  scan_media (&s, streams);

  g_hash_table_iter_init (&iter, s.links);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (links, value);
  g_hash_table_steal_all (s.links);
  g_hash_table_unref (s.links);
  g_ptr_array_sort (links, compare_links);
  g_hash_table_unref (s.by_id);
  g_hash_table_unref (s.by_callee);
  g_ptr_array_unref (s.calls);
  return links;
}

GPtrArray *
cs_call_links_legs_of (const GPtrArray *links, guint call_number, GArray *legs)
{
  GPtrArray *brought = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  g_hash_table_add (seen, GUINT_TO_POINTER (call_number));
  g_array_append_val (queue, call_number);
  for (guint q = 0; q < queue->len; q++)
    {
      guint at = g_array_index (queue, guint, q);

      for (guint i = 0; links != NULL && i < links->len; i++)
        {
          const CsCallLink *link = g_ptr_array_index (links, i);
          guint other = link->call_a == at ? link->call_b : link->call_b == at ? link->call_a : 0;

          if (other == 0 || g_hash_table_contains (seen, GUINT_TO_POINTER (other)))
            continue;
          g_hash_table_add (seen, GUINT_TO_POINTER (other));
          g_array_append_val (queue, other);
          g_array_append_val (order, other);
          g_ptr_array_add (brought, (gpointer) link);
        }
    }
  /* In order of call number, the links along. */
  for (guint i = 1; i < order->len; i++)
    for (guint j = i;
         j > 0 && g_array_index (order, guint, j - 1) > g_array_index (order, guint, j); j--)
      {
        guint t = g_array_index (order, guint, j);
        gpointer l = brought->pdata[j];

        g_array_index (order, guint, j) = g_array_index (order, guint, j - 1);
        g_array_index (order, guint, j - 1) = t;
        brought->pdata[j] = brought->pdata[j - 1];
        brought->pdata[j - 1] = l;
      }
  if (legs != NULL)
    g_array_append_vals (legs, order->data, order->len);
  return brought;
}
