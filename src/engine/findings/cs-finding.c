/* cs-finding.c — a problem found in a capture */
#include "cs-finding.h"

#include <string.h>

typedef enum
{
  CS_FINDING_TEXT_OWNED,  /* g_free */
  CS_FINDING_TEXT_STATIC, /* lives as long as the program */
  CS_FINDING_TEXT_REF,    /* a GRefString reference */
} CsFindingText;

struct _CsFinding
{
  GObject parent_instance;
  CsFindingKind kind;
  CsSeverity severity;
  guint call_number;
  guint stream_id;
  /* A read-only GArray view (data and len only) of the frames: data points at
   * inline_frames for up to two frames, as most findings have, else at its own block. */
  GArray frames;
  guint32 inline_frames[2];
  CsFindingText text_owner;
  char *text;
};

G_DEFINE_FINAL_TYPE (CsFinding, cs_finding, G_TYPE_OBJECT)

static void
cs_finding_finalize (GObject *object)
{
  CsFinding *self = CS_FINDING (object);

  if (self->frames.data != (gchar *) self->inline_frames)
    g_free (self->frames.data);
  if (self->text_owner == CS_FINDING_TEXT_OWNED)
    g_free (self->text);
  else if (self->text_owner == CS_FINDING_TEXT_REF)
    g_ref_string_release (self->text);
  G_OBJECT_CLASS (cs_finding_parent_class)->finalize (object);
}

static void
cs_finding_class_init (CsFindingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_finding_finalize;
}

static void
cs_finding_init (CsFinding *self)
{
}

const char *
cs_finding_kind_to_string (CsFindingKind kind)
{
  static const char *const names[] = {
    [CS_FINDING_ONE_WAY_AUDIO] = "one-way-audio",
    [CS_FINDING_NO_MEDIA] = "no-media",
    [CS_FINDING_LATE_MEDIA] = "late-media",
    [CS_FINDING_LOSS_BURST] = "loss-burst",
    [CS_FINDING_HIGH_JITTER] = "high-jitter",
    [CS_FINDING_DELTA_SPIKE] = "delta-spike",
    [CS_FINDING_SEQUENCE_ERRORS] = "sequence-errors",
    [CS_FINDING_SSRC_CHANGE] = "ssrc-change",
    [CS_FINDING_CODEC_MISMATCH] = "codec-mismatch",
    [CS_FINDING_PTIME_MISMATCH] = "ptime-mismatch",
    [CS_FINDING_NAT_MISMATCH] = "nat-mismatch",
    [CS_FINDING_RTP_AFTER_BYE] = "rtp-after-bye",
    [CS_FINDING_SLOW_PDD] = "slow-pdd",
    [CS_FINDING_FAILED_CALL] = "failed-call",
    [CS_FINDING_UNANSWERED] = "unanswered-invite",
    [CS_FINDING_MISSING_ACK] = "missing-ack",
    [CS_FINDING_RETRANSMISSIONS] = "retransmissions",
    [CS_FINDING_SHORT_CALL] = "short-call",
    [CS_FINDING_MALFORMED_SIP] = "malformed-sip",
    [CS_FINDING_DROPPED_STATE] = "dropped-state",
    [CS_FINDING_ENCRYPTED_TRAFFIC] = "encrypted-traffic",
    [CS_FINDING_DAMAGED_CAPTURE] = "damaged-capture",
    [CS_FINDING_SRTP_NO_KEY] = "srtp-no-key",
    [CS_FINDING_SRTP_AUTH_FAILED] = "srtp-auth-failed",
    [CS_FINDING_SRTP_KEY_LIFETIME] = "srtp-key-lifetime",
    [CS_FINDING_TLS_NO_KEY] = "tls-no-key",
    [CS_FINDING_TLS_DECRYPT_FAILED] = "tls-decrypt-failed",
    [CS_FINDING_LOST_BETWEEN_POINTS] = "lost-between-points",
    [CS_FINDING_UNANSWERED_REQUEST] = "unanswered-request",
  };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "unknown";
}

const char *
cs_severity_to_string (CsSeverity severity)
{
  switch (severity)
    {
    case CS_SEVERITY_INFO:
      return "info";
    case CS_SEVERITY_WARNING:
      return "warning";
    case CS_SEVERITY_ERROR:
      return "error";
    }
  return "unknown";
}

static CsFinding *
cs_finding_new_owned (CsFindingKind kind, CsSeverity severity, guint call_number, guint stream_id,
                      const guint32 *frames, guint n_frames, char *text, CsFindingText text_owner)
{
  /* no properties: straight to the instance (g_object_new would walk its varargs first) */
  CsFinding *self = (CsFinding *) g_object_new_with_properties (CS_TYPE_FINDING, 0, NULL, NULL);

  self->kind = kind;
  self->severity = severity;
  self->call_number = call_number;
  self->stream_id = stream_id;
  self->frames.data = n_frames <= G_N_ELEMENTS (self->inline_frames)
                          ? (gchar *) self->inline_frames
                          : g_new (gchar, n_frames * sizeof (guint32));
  if (n_frames > 0)
    memcpy (self->frames.data, frames, n_frames * sizeof (guint32));
  self->frames.len = n_frames;
  self->text = text;
  self->text_owner = text != NULL ? text_owner : CS_FINDING_TEXT_STATIC;
  return self;
}

CsFinding *
cs_finding_new_take (CsFindingKind kind, CsSeverity severity, guint call_number, guint stream_id,
                     const guint32 *frames, guint n_frames, char *text, gboolean text_is_static)
{
  return cs_finding_new_owned (kind, severity, call_number, stream_id, frames, n_frames, text,
                               text_is_static ? CS_FINDING_TEXT_STATIC : CS_FINDING_TEXT_OWNED);
}

CsFinding *
cs_finding_new_ref_text (CsFindingKind kind, CsSeverity severity, guint call_number,
                         guint stream_id, const guint32 *frames, guint n_frames, char *text)
{
  return cs_finding_new_owned (kind, severity, call_number, stream_id, frames, n_frames, text,
                               CS_FINDING_TEXT_REF);
}

CsFinding *
cs_finding_new (CsFindingKind kind, CsSeverity severity, guint call_number, guint stream_id,
                const GArray *frames, const char *text)
{
  return cs_finding_new_take (kind, severity, call_number, stream_id,
                              frames != NULL ? (const guint32 *) frames->data : NULL,
                              frames != NULL ? frames->len : 0, g_strdup (text), FALSE);
}

CsFindingKind
cs_finding_get_kind (CsFinding *self)
{
  return self->kind;
}

CsSeverity
cs_finding_get_severity (CsFinding *self)
{
  return self->severity;
}

guint
cs_finding_get_call_number (CsFinding *self)
{
  return self->call_number;
}

guint
cs_finding_get_stream_id (CsFinding *self)
{
  return self->stream_id;
}

const GArray *
cs_finding_get_frames (CsFinding *self)
{
  return &self->frames;
}

const char *
cs_finding_get_text (CsFinding *self)
{
  return self->text;
}
