/* cs-findings-tls.c — TLS sessions the key log did not open: what they are and how to get
 * the key that would */
#include "cs-findings-private.h"

#include "net/cs-tls-stream.h"

void
cs_findings_tls_sessions (const GArray *sessions, GPtrArray *findings)
{
  guint before = findings->len;

  for (guint i = 0; sessions != NULL && i < sessions->len; i++)
    {
      const CsTlsSessionInfo *s = &g_array_index (sessions, CsTlsSessionInfo, i);
      char client[CS_ENDPOINT_STRLEN], server[CS_ENDPOINT_STRLEN], cipher[16];
      g_autofree char *what = NULL;

      if (s->keys_found && s->records_failed == 0 && !s->lost_bytes)
        continue;
      cs_endpoint_to_string (&s->client, client);
      cs_endpoint_to_string (&s->server, server);
      g_snprintf (cipher, sizeof cipher, "suite 0x%04x", s->cipher);
      what = g_strdup_printf ("TLS session %s → %s (%s%s%s%s, %s, %" G_GUINT64_FORMAT
                              " bytes to the server, %" G_GUINT64_FORMAT " back)",
                              client, server, s->sni[0] != '\0' ? "SNI " : "", s->sni,
                              s->sni[0] != '\0' ? ", " : "", cs_tls_version_to_string (s->version),
                              s->cipher_name != NULL ? s->cipher_name : cipher, s->bytes[0],
                              s->bytes[1]);
      if (!s->keys_found)
        cs_findings_add_two (
            findings, CS_FINDING_TLS_NO_KEY, CS_SEVERITY_WARNING, 0, 0, s->first_frame, 0,
            "%s is encrypted and no key opens it%s: SIP over TLS is inside. Give its key log "
            "with --keylog FILE: the client writes one when started with SSLKEYLOGFILE=FILE "
            "(GnuTLS, NSS and OpenSSL-based softphones and browsers), a server through its "
            "TLS stack's key log option",
            what,
            s->cipher != 0 && s->cipher_name == NULL ? " (and callscope cannot decrypt its suite)"
                                                     : "");
      else
        cs_findings_add_two (findings, CS_FINDING_TLS_DECRYPT_FAILED, CS_SEVERITY_ERROR, 0, 0,
                             s->first_failed_frame != 0 ? s->first_failed_frame : s->first_frame, 0,
                             "%s: %u of %u records do not decrypt with the key log's secrets%s; "
                             "SIP in them is not shown",
                             what, s->records_failed, s->records_failed + s->records_decrypted,
                             s->lost_bytes ? " (bytes were missing from the capture)" : "");
    }
  if (findings->len > before)
    g_ptr_array_sort (findings, cs_findings_compare_first_frame);
}
