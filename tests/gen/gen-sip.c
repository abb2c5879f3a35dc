/* gen-sip.c — SIP user agents and dialogs that write real SIP onto the wire */
#include "gen-sip.h"

#include <stdlib.h>
#include <string.h>

#define ALLOW "INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, UPDATE, REFER, NOTIFY, MESSAGE"

void
gen_ua_init (GenUa *ua, const char *name, const char *user, const char *ip, guint16 port,
             const char *agent)
{
  memset (ua, 0, sizeof *ua);
  g_strlcpy (ua->name, name, sizeof ua->name);
  g_strlcpy (ua->user, user, sizeof ua->user);
  gen_endpoint (&ua->sip, ip, port);
  ua->agent = agent;
}

char *
gen_random_hex (GenRand *rand, guint digits)
{
  GString *s = g_string_new (NULL);

  while (s->len < digits)
    g_string_append_printf (s, "%016" G_GINT64_MODIFIER "x", gen_rand_next (rand));
  g_string_truncate (s, digits);
  return g_string_free (s, FALSE);
}

const char *
gen_sip_reason (guint status)
{
  switch (status)
    {
    case 100:
      return "Trying";
    case 180:
      return "Ringing";
    case 183:
      return "Session Progress";
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 302:
      return "Moved Temporarily";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 481:
      return "Call/Transaction Does Not Exist";
    case 486:
      return "Busy Here";
    case 487:
      return "Request Terminated";
    case 488:
      return "Not Acceptable Here";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
    }
}

static void
default_sink (GenDialog *d, gint64 t, GenSide from, const char *text, gsize len, gpointer unused)
{
  if (d->tcp != NULL)
    gen_tcp_send (d->tcp, t, from, (const guint8 *) text, len);
  else
    gen_send_udp (d->cap, t, &d->ends[from], &d->ends[!from], (const guint8 *) text, len);
}

GenDialog *
gen_dialog_new (GenCapture *cap, const GenUa *caller, const GenUa *callee, const CsEndpoint *remote,
                gboolean is_call)
{
  GenDialog *d = g_new0 (GenDialog, 1);
  g_autofree char *id = gen_random_hex (&cap->rand, 20);
  char host[CS_ADDR_STRLEN];

  d->cap = cap;
  d->ua[GEN_CALLER] = caller;
  d->ua[GEN_CALLEE] = callee;
  d->ends[0] = caller->sip;
  d->ends[1] = *remote;
  d->is_call = is_call;
  d->call_id = g_strdup_printf ("%s@%s", id, cs_addr_to_string (&caller->sip.addr, host));
  d->from_tag = gen_random_hex (&cap->rand, 10);
  d->cseq[0] = (guint32) gen_rand_range (&cap->rand, 1, 300);
  d->cseq[1] = (guint32) gen_rand_range (&cap->rand, 1, 300);
  d->transport = "UDP";
  d->sink = default_sink;
  return d;
}

void
gen_dialog_free (GenDialog *d)
{
  if (d == NULL)
    return;
  g_free (d->call_id);
  g_free (d->from_tag);
  g_free (d->to_tag);
  g_free (d->last_text[0]);
  g_free (d->last_text[1]);
  g_free (d);
}

void
gen_dialog_set_call_id (GenDialog *d, const char *call_id)
{
  g_free (d->call_id);
  d->call_id = g_strdup (call_id);
}

void
gen_dialog_set_from_tag (GenDialog *d, const char *tag)
{
  g_free (d->from_tag);
  d->from_tag = g_strdup (tag);
}

void
gen_dialog_set_to_tag (GenDialog *d, const char *tag)
{
  g_free (d->to_tag);
  d->to_tag = g_strdup (tag);
}

void
gen_dialog_use_tcp (GenDialog *d, GenTcpConn *conn)
{
  d->tcp = conn;
  d->transport = "TCP";
}

void
gen_dialog_set_state (GenDialog *d, const char *state)
{
  g_return_if_fail (d->expect != NULL);
  d->expect->state = state;
}

static void
append_addr_spec (GString *s, const char *user, const CsEndpoint *ep)
{
  char buf[CS_ENDPOINT_STRLEN];

  g_string_append_printf (s, "sip:%s@%s", user, cs_endpoint_to_string (ep, buf));
}

/* Renders and sends one message; the start line is in s already. */
static void
finish_and_send (GenDialog *d, GString *s, gint64 t, GenSide from, const GenTxn *txn,
                 gboolean response, gboolean with_to_tag, gboolean with_contact, const char *extra,
                 const char *content_type, const char *body)
{
  /* From/To follow the request's direction, whoever sends. */
  GenSide req_side = response ? !from : from;
  const GenUa *from_ua = d->ua[req_side];
  const GenUa *to_ua = d->ua[!req_side];
  const char *from_tag = req_side == GEN_CALLER ? d->from_tag : d->to_tag;
  const char *to_tag = req_side == GEN_CALLER ? d->to_tag : d->from_tag;
  char buf[CS_ENDPOINT_STRLEN];
  gsize body_len = body != NULL ? strlen (body) : 0;
  guint first_packet; /* the message's (first) packet: its frame in findings */

  g_string_append_printf (s, "Via: SIP/2.0/%s %s;branch=%s%s\r\n", d->transport,
                          cs_endpoint_to_string (&d->ends[req_side], buf), txn->branch,
                          req_side == GEN_CALLER ? ";rport" : "");
  if (!response)
    g_string_append (s, "Max-Forwards: 70\r\n");
  g_string_append_printf (s, "From: \"%s\" <sip:%s@%s>;tag=%s\r\n", from_ua->name, from_ua->user,
                          GEN_DOMAIN, from_tag);
  g_string_append_printf (s, "To: <sip:%s@%s>", to_ua->user, GEN_DOMAIN);
  if (with_to_tag && to_tag != NULL)
    g_string_append_printf (s, ";tag=%s", to_tag);
  g_string_append (s, "\r\n");
  if (!d->omit_call_id)
    g_string_append_printf (s, "Call-ID: %s\r\n", d->call_id);
  if (d->bad_cseq)
    g_string_append_printf (s, "CSeq: %uX %s\r\n", txn->cseq, txn->method);
  else
    g_string_append_printf (s, "CSeq: %u %s\r\n", txn->cseq, txn->method);
  if (with_contact)
    {
      g_string_append (s, "Contact: <");
      append_addr_spec (s, d->ua[from]->user, &d->ua[from]->sip);
      g_string_append_printf (s, ";transport=%s>\r\n", d->transport);
    }
  if (strcmp (txn->method, "INVITE") == 0 && (!response || with_contact))
    g_string_append (s, "Allow: " ALLOW "\r\nSupported: replaces, timer\r\n");
  g_string_append_printf (s, "%s: %s\r\n", response ? "Server" : "User-Agent", d->ua[from]->agent);
  if (extra != NULL)
    g_string_append (s, extra);
  if (content_type != NULL)
    g_string_append_printf (s, "Content-Type: %s\r\n", content_type);
  g_string_append_printf (s, "Content-Length: %d\r\n\r\n", (int) body_len + d->content_length_lie);
  if (body != NULL)
    g_string_append (s, body);
  d->omit_call_id = FALSE;
  d->bad_cseq = FALSE;
  d->content_length_lie = 0;

  gen_expect_sip_message (d->cap->expect, s->str);
  if (d->expect != NULL)
    d->expect->messages++;
  else if (txn->non_invite != NULL)
    txn->non_invite->messages++;
  g_free (d->last_text[from]);
  d->last_text[from] = g_strdup (s->str);
  d->last_non_invite[from] = txn->non_invite;
  first_packet = d->cap->packets->len;
  d->sink (d, t, from, s->str, s->len, d->sink_data);
  if (d->expect != NULL)
    {
      GenExpectMessage m = { 0 };

      m.status = response ? (guint) atoi (s->str + 8) : 0;
      g_strlcpy (m.method, txn->method, sizeof m.method);
      m.side = from;
      m.initial = txn->initial_invite;
      gen_expect_call_message (d->expect, first_packet, &m);
      d->last_message[from] = m;
    }
}

static void
new_txn (GenDialog *d, GenTxn *txn, GenSide side, const char *method, guint32 cseq)
{
  g_autofree char *branch = gen_random_hex (&d->cap->rand, 16);

  memset (txn, 0, sizeof *txn);
  g_strlcpy (txn->method, method, sizeof txn->method);
  txn->cseq = cseq;
  g_snprintf (txn->branch, sizeof txn->branch, "z9hG4bK%s", branch);
}

static void
send_request (GenDialog *d, gint64 t, GenSide side, GenTxn *txn, const char *extra,
              const char *content_type, const char *body)
{
  g_autoptr (GString) s = g_string_new (NULL);
  gboolean in_dialog = d->to_tag != NULL && d->is_call;
  gboolean contact = strcmp (txn->method, "INVITE") == 0 || strcmp (txn->method, "SUBSCRIBE") == 0
                     || strcmp (txn->method, "NOTIFY") == 0
                     || strcmp (txn->method, "REGISTER") == 0;

  g_string_append_printf (s, "%s ", txn->method);
  if (strcmp (txn->method, "REGISTER") == 0)
    g_string_append (s, "sip:" GEN_DOMAIN);
  else if (in_dialog)
    append_addr_spec (s, d->ua[!side]->user, &d->ua[!side]->sip);
  else
    g_string_append_printf (s, "sip:%s@%s", d->ua[!side]->user, GEN_DOMAIN);
  g_string_append (s, " SIP/2.0\r\n");
  finish_and_send (d, s, t, side, txn, FALSE, TRUE, contact, extra, content_type, body);
}

void
gen_dialog_request (GenDialog *d, gint64 t, GenSide side, const char *method, const char *extra,
                    const char *content_type, const char *body)
{
  GenTxn *txn = &d->txn[side];

  /* outside a call only NOTIFY lives in a dialog; a new REGISTER has no To-tag */
  if (!d->is_call && strcmp (method, "NOTIFY") != 0)
    g_clear_pointer (&d->to_tag, g_free);
  new_txn (d, txn, side, method, ++d->cseq[side]);
  if (d->is_call && d->expect == NULL)
    {
      d->expect = gen_expect_add_call (d->cap->expect, d->call_id, d->ua[GEN_CALLER]->user,
                                       d->ua[GEN_CALLEE]->user, d->from_tag);
      txn->initial_invite = TRUE;
    }
  else if (!d->is_call)
    /* outside calls the truth is per transaction: REGISTER 401, then REGISTER 200 */
    {
      txn->non_invite = gen_expect_add_non_invite (d->cap->expect, method, d->call_id);
      txn->non_invite->request_ns = t;
    }
  if (strcmp (method, "INVITE") == 0 && side == GEN_CALLER)
    d->invite_txn = *txn;
  if (txn->initial_invite)
    d->expect->invite_ns = t;
  else if (d->expect != NULL && strcmp (method, "BYE") == 0 && d->expect->bye_ns < 0)
    d->expect->bye_ns = t;
  send_request (d, t, side, txn, extra, content_type, body);
}

void
gen_dialog_ack (GenDialog *d, gint64 t, gboolean for_2xx)
{
  GenTxn ack;

  if (for_2xx)
    new_txn (d, &ack, GEN_CALLER, "ACK", d->invite_txn.cseq);
  else
    {
      ack = d->invite_txn;
      g_strlcpy (ack.method, "ACK", sizeof ack.method);
    }
  ack.initial_invite = FALSE;
  send_request (d, t, GEN_CALLER, &ack, NULL, NULL, NULL);
}

void
gen_dialog_cancel (GenDialog *d, gint64 t)
{
  GenTxn cancel = d->invite_txn;
  g_autofree char *saved_to_tag = g_steal_pointer (&d->to_tag);

  /* CANCEL matches the INVITE: same branch and CSeq number, no To-tag */
  g_strlcpy (cancel.method, "CANCEL", sizeof cancel.method);
  cancel.initial_invite = FALSE;
  d->txn[GEN_CALLER] = cancel;
  send_request (d, t, GEN_CALLER, &cancel, NULL, NULL, NULL);
  d->to_tag = g_steal_pointer (&saved_to_tag);
}

static void
respond_to (GenDialog *d, gint64 t, GenSide request_side, const GenTxn *txn, guint status,
            const char *extra, const char *content_type, const char *body)
{
  g_autoptr (GString) s = g_string_new (NULL);
  gboolean invite = strcmp (txn->method, "INVITE") == 0;
  gboolean contact
      = (invite || strcmp (txn->method, "SUBSCRIBE") == 0) && status > 100 && status < 300;

  if (status > 100 && d->to_tag == NULL && request_side == GEN_CALLER)
    d->to_tag = gen_random_hex (&d->cap->rand, 10);
  g_string_append_printf (s, "SIP/2.0 %u %s\r\n", status,
                          d->reason != NULL ? d->reason : gen_sip_reason (status));
  d->reason = NULL;
  /* in-dialog requests carry the To-tag in every response, 100 included */
  finish_and_send (d, s, t, !request_side, txn, TRUE, status > 100 || !txn->initial_invite, contact,
                   extra, content_type, body);
  if (txn->initial_invite && d->expect != NULL)
    gen_expect_call_response (d->expect, t, status);
  if (txn->non_invite != NULL && txn->non_invite->first_response_ns < 0)
    txn->non_invite->first_response_ns = t;
  if (status >= 200 && txn->non_invite != NULL && txn->non_invite->final_status == 0)
    txn->non_invite->final_status = status;
}

void
gen_dialog_respond (GenDialog *d, gint64 t, GenSide request_side, guint status, const char *extra,
                    const char *content_type, const char *body)
{
  respond_to (d, t, request_side, &d->txn[request_side], status, extra, content_type, body);
}

void
gen_dialog_respond_invite (GenDialog *d, gint64 t, guint status, const char *content_type,
                           const char *body)
{
  respond_to (d, t, GEN_CALLER, &d->invite_txn, status, NULL, content_type, body);
}

void
gen_dialog_retransmit (GenDialog *d, gint64 t, GenSide side)
{
  const char *text = d->last_text[side];
  guint first_packet;

  g_return_if_fail (text != NULL);
  gen_expect_sip_message (d->cap->expect, text);
  if (d->expect != NULL)
    {
      d->expect->messages++;
      d->expect->retransmissions++;
    }
  else if (d->last_non_invite[side] != NULL)
    {
      d->last_non_invite[side]->messages++;
      d->last_non_invite[side]->retransmissions++;
    }
  first_packet = d->cap->packets->len;
  d->sink (d, t, side, text, strlen (text), d->sink_data);
  if (d->expect != NULL)
    {
      GenExpectMessage m = d->last_message[side];

      m.copy = TRUE;
      gen_expect_call_message (d->expect, first_packet, &m);
    }
}

char *
gen_sdp (const GenUa *ua, const CsAddr *media_addr, guint16 port, const guint8 *pts, guint n_pts,
         const char *direction, guint64 session_id, guint version)
{
  GString *s = g_string_new ("v=0\r\n");
  char addr[CS_ADDR_STRLEN];
  const char *ip = media_addr->family == 6 ? "IP6" : "IP4";

  cs_addr_to_string (media_addr, addr);
  g_string_append_printf (s, "o=%s %" G_GUINT64_FORMAT " %u IN %s %s\r\n", ua->user, session_id,
                          version, ip, addr);
  g_string_append (s, "s=callscope test\r\n");
  g_string_append_printf (s, "c=IN %s %s\r\nt=0 0\r\n", ip, addr);
  g_string_append_printf (s, "m=audio %u RTP/AVP", port);
  for (guint i = 0; i < n_pts; i++)
    g_string_append_printf (s, " %u", pts[i]);
  g_string_append (s, "\r\n");
  for (guint i = 0; i < n_pts; i++)
    {
      if (pts[i] == 0)
        g_string_append (s, "a=rtpmap:0 PCMU/8000\r\n");
      else if (pts[i] == 8)
        g_string_append (s, "a=rtpmap:8 PCMA/8000\r\n");
      else if (pts[i] == 101)
        g_string_append (s, "a=rtpmap:101 telephone-event/8000\r\na=fmtp:101 0-16\r\n");
    }
  g_string_append_printf (s, "a=ptime:20\r\na=%s\r\n", direction);
  return g_string_free (s, FALSE);
}
