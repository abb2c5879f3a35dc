/* cs-tls-keylog.h — NSS key log files (what SSLKEYLOGFILE makes browsers, GnuTLS, OpenSSL
 * and others write): TLS secrets by the session's client random */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CS_TLS_KEYLOG_ERROR (cs_tls_keylog_error_quark ())
GQuark cs_tls_keylog_error_quark (void);

typedef enum
{
  CS_TLS_KEYLOG_ERROR_READ,  /* the file cannot be read */
  CS_TLS_KEYLOG_ERROR_EMPTY, /* not one usable line: not a key log */
} CsTlsKeylogError;

typedef enum
{
  CS_TLS_SECRET_MASTER,           /* CLIENT_RANDOM: TLS 1.2 master secret (48 bytes) */
  CS_TLS_SECRET_CLIENT_HANDSHAKE, /* TLS 1.3 CLIENT_HANDSHAKE_TRAFFIC_SECRET */
  CS_TLS_SECRET_SERVER_HANDSHAKE, /* SERVER_HANDSHAKE_TRAFFIC_SECRET */
  CS_TLS_SECRET_CLIENT_TRAFFIC,   /* CLIENT_TRAFFIC_SECRET_0 */
  CS_TLS_SECRET_SERVER_TRAFFIC,   /* SERVER_TRAFFIC_SECRET_0 */
  CS_TLS_SECRET_EXPORTER,         /* EXPORTER_SECRET */
  CS_TLS_N_SECRETS
} CsTlsSecretKind;

#define CS_TLS_MAX_SECRET 64

typedef struct
{
  guint8 secret[CS_TLS_N_SECRETS][CS_TLS_MAX_SECRET];
  guint8 length[CS_TLS_N_SECRETS]; /* 0: not in the log */
} CsTlsSecrets;

typedef struct _CsTlsKeylog CsTlsKeylog;

CsTlsKeylog *cs_tls_keylog_new (void);
/* Reads a key log file: FALSE with an error when it cannot be read or holds no usable line. */
gboolean cs_tls_keylog_load_file (CsTlsKeylog *log, const char *path, GError **error);
/* Adds the lines of text (a file's or a pcapng Decryption Secrets Block's). Lines that are
 * not `LABEL HEX_CLIENT_RANDOM HEX_SECRET` are counted, not fatal; '#' lines are comments.
 * Returns how many lines were usable. */
guint cs_tls_keylog_add_text (CsTlsKeylog *log, const char *text, gsize len);
CsTlsKeylog *cs_tls_keylog_ref (CsTlsKeylog *log);
void cs_tls_keylog_unref (CsTlsKeylog *log);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTlsKeylog, cs_tls_keylog_unref)

/* The secrets logged for a session's 32-byte client random, or NULL. */
const CsTlsSecrets *cs_tls_keylog_lookup (const CsTlsKeylog *log, const guint8 *client_random);
guint cs_tls_keylog_get_n_sessions (const CsTlsKeylog *log);
/* Lines that were neither comments nor usable, and the number of the first of them (0: none). */
guint cs_tls_keylog_get_bad_lines (const CsTlsKeylog *log, guint *first_bad_line);

G_END_DECLS
