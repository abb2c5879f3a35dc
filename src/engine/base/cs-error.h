/* cs-error.h — one GError domain per engine module */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CS_CAPTURE_ERROR (cs_capture_error_quark ())
#define CS_DECODE_ERROR (cs_decode_error_quark ())
#define CS_SIP_ERROR (cs_sip_error_quark ())
#define CS_SDP_ERROR (cs_sdp_error_quark ())
#define CS_LOADER_ERROR (cs_loader_error_quark ())

typedef enum
{
  CS_CAPTURE_ERROR_OPEN,      /* cannot open or map the file */
  CS_CAPTURE_ERROR_FORMAT,    /* not a pcap/pcapng file (bad magic, bad header) */
  CS_CAPTURE_ERROR_TRUNCATED, /* file ends inside a record */
  CS_CAPTURE_ERROR_CORRUPT,   /* a record that cannot be right (length lies, bad block) */
  CS_CAPTURE_ERROR_FILTER,    /* BPF filter does not compile */
} CsCaptureError;

typedef enum
{
  CS_SIP_ERROR_NOT_SIP,
  CS_SIP_ERROR_MALFORMED,
} CsSipError;

typedef enum
{
  CS_SDP_ERROR_MALFORMED,
} CsSdpError;

typedef enum
{
  CS_LOADER_ERROR_NO_FILES,
  CS_LOADER_ERROR_CANCELLED,
} CsLoaderError;

GQuark cs_capture_error_quark (void);
GQuark cs_decode_error_quark (void);
GQuark cs_sip_error_quark (void);
GQuark cs_sdp_error_quark (void);
GQuark cs_loader_error_quark (void);

G_END_DECLS
