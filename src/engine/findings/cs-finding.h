/* cs-finding.h — a problem found in a capture, pointing at the frames that show it */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  CS_SEVERITY_INFO,
  CS_SEVERITY_WARNING,
  CS_SEVERITY_ERROR,
} CsSeverity;

typedef enum
{
  CS_FINDING_ONE_WAY_AUDIO,
  CS_FINDING_NO_MEDIA,
  CS_FINDING_LATE_MEDIA,
  CS_FINDING_LOSS_BURST,
  CS_FINDING_HIGH_JITTER,
  CS_FINDING_DELTA_SPIKE,
  CS_FINDING_SEQUENCE_ERRORS,
  CS_FINDING_SSRC_CHANGE,
  CS_FINDING_CODEC_MISMATCH,
  CS_FINDING_PTIME_MISMATCH,
  CS_FINDING_NAT_MISMATCH,
  CS_FINDING_RTP_AFTER_BYE,
  CS_FINDING_SLOW_PDD,
  CS_FINDING_FAILED_CALL,
  CS_FINDING_UNANSWERED,
  CS_FINDING_MISSING_ACK,
  CS_FINDING_RETRANSMISSIONS,
  CS_FINDING_SHORT_CALL,
  CS_FINDING_MALFORMED_SIP,
  CS_FINDING_DROPPED_STATE,
  CS_FINDING_ENCRYPTED_TRAFFIC, /* IPsec ESP with real encryption: its calls cannot be seen */
  CS_FINDING_DAMAGED_CAPTURE,
  CS_FINDING_SRTP_NO_KEY,         /* an SRTP stream without a key: measured, never played */
  CS_FINDING_SRTP_AUTH_FAILED,    /* SRTP packets the key does not authenticate */
  CS_FINDING_SRTP_KEY_LIFETIME,   /* SRTP packets past their master key's lifetime */
  CS_FINDING_TLS_NO_KEY,          /* a TLS session no key log opened: SIP may be inside */
  CS_FINDING_TLS_DECRYPT_FAILED,  /* TLS records the key log's secrets do not open */
  CS_FINDING_LOST_BETWEEN_POINTS, /* SIP one capture point saw leave, the next never saw */
  CS_FINDING_UNANSWERED_REQUEST,  /* a REGISTER, OPTIONS… without final response by Timer F */
} CsFindingKind;

#define CS_TYPE_FINDING (cs_finding_get_type ())
G_DECLARE_FINAL_TYPE (CsFinding, cs_finding, CS, FINDING, GObject)

/* "one-way-audio", "loss-burst", … (stable names used in reports and filters) */
const char *cs_finding_kind_to_string (CsFindingKind kind);
const char *cs_severity_to_string (CsSeverity severity); /* "info", "warning", "error" */

CsFinding *cs_finding_new (CsFindingKind kind, CsSeverity severity, guint call_number,
                           guint stream_id, const GArray *frames, const char *text);
/* The same from n_frames frames (ascending, copied) and text, taken: freed with the
 * finding unless text_is_static (a string that lives as long as the program). */
CsFinding *cs_finding_new_take (CsFindingKind kind, CsSeverity severity, guint call_number,
                                guint stream_id, const guint32 *frames, guint n_frames, char *text,
                                gboolean text_is_static);
/* The same with text a GRefString reference, taken (findings that say the same share one). */
CsFinding *cs_finding_new_ref_text (CsFindingKind kind, CsSeverity severity, guint call_number,
                                    guint stream_id, const guint32 *frames, guint n_frames,
                                    char *text);
CsFindingKind cs_finding_get_kind (CsFinding *self);
CsSeverity cs_finding_get_severity (CsFinding *self);
guint cs_finding_get_call_number (CsFinding *self); /* 0 = no call */
guint cs_finding_get_stream_id (CsFinding *self);   /* 0 = no stream */
/* Frame numbers involved (guint32), ascending: a read-only view (data and len; do not
 * ref or resize it). */
const GArray *cs_finding_get_frames (CsFinding *self);
const char *cs_finding_get_text (CsFinding *self);

G_END_DECLS
