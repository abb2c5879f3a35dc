/* cs-error.c — error domains */
#include "cs-error.h"

G_DEFINE_QUARK (cs - capture - error - quark, cs_capture_error)
G_DEFINE_QUARK (cs - decode - error - quark, cs_decode_error)
G_DEFINE_QUARK (cs - sip - error - quark, cs_sip_error)
G_DEFINE_QUARK (cs - sdp - error - quark, cs_sdp_error)
G_DEFINE_QUARK (cs - loader - error - quark, cs_loader_error)
