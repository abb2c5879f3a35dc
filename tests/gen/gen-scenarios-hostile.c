/* gen-scenarios-hostile.c — SIP written to attack whoever reads the reports: spreadsheet
 * formulas, markup, terminal escapes, bidi overrides and an 8 KB header, all in fields that
 * reach the calls, findings, HTML, SVG, PDF and text outputs */
#include "gen-scenarios.h"

#include <string.h>

#define T0 (GEN_EPOCH + GEN_MS (100))

/* Values the reports must show as inert text (tests/golden/test-golden-hostile.py). */
#define HOSTILE_FORMULA "=1+2*cmd"
#define HOSTILE_PLUS "+4930123456"
#define HOSTILE_MINUS "-2+3"
#define HOSTILE_SCRIPT "<script>alert('x')</script>"
#define HOSTILE_SVG "\"><svg/onload=alert(1)>"
#define HOSTILE_ESCAPE "\x1b[2J\x1b]0;owned\x07"
#define HOSTILE_BIDI "\xe2\x80\xaegnp.exe" /* U+202E RIGHT-TO-LEFT OVERRIDE */

void
gen_scn_hostile_text (GenCapture *cap)
{
  GenCast cast;
  GenUa formula, plus, minus, escape;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *offer = NULL;
  g_autofree char *long_value = g_strnfill (8192, 'A');
  g_autofree char *extra = NULL;
  gint64 t = T0;

  gen_cast_init (&cast);
  /* a spreadsheet formula calls a phone number */
  gen_ua_init (&formula, HOSTILE_BIDI, HOSTILE_FORMULA, "10.0.0.10", 5060,
               "Evil " HOSTILE_ESCAPE " agent");
  gen_ua_init (&plus, HOSTILE_SCRIPT, HOSTILE_PLUS, "10.0.0.20", 5060, "Fine/1.0");
  gen_plan_init (&plan, t, &formula, &plus, &cast.proxy);
  t = gen_call_clean (cap, &plan, GEN_S (2)) + GEN_MS (100);

  /* rejected with markup in the reason phrase, an SVG breakout as Call-ID, 8 KB header */
  gen_ua_init (&minus, "Mallory", HOSTILE_MINUS, "10.0.0.30", 5060, "Mallory/1.0");
  gen_ua_init (&escape, "Eve " HOSTILE_ESCAPE, "eve", "10.0.0.40", 5060, "Eve/1.0");
  gen_plan_init (&plan, t, &minus, &escape, &cast.proxy);
  gen_call_init (&c, cap, &plan);
  gen_dialog_set_call_id (c.d, HOSTILE_SVG "@evil.example");
  offer = gen_call_offer (&c, "sendrecv");
  extra = g_strdup_printf ("Subject: " HOSTILE_SCRIPT "\r\nX-Long: %s\r\n", long_value);
  gen_dialog_request (c.d, t, GEN_CALLER, "INVITE", extra, "application/sdp", offer);
  gen_dialog_respond_invite (c.d, t + GEN_MS (10), 100, NULL, NULL);
  c.d->reason = HOSTILE_SCRIPT " " HOSTILE_ESCAPE HOSTILE_BIDI;
  gen_dialog_respond_invite (c.d, t + GEN_MS (900), 486, NULL, NULL);
  gen_dialog_ack (c.d, t + GEN_MS (905), FALSE);
  gen_dialog_set_state (c.d, "rejected");
  gen_expect_call_finding (cap->expect, "failed-call", "warning", c.d->expect, "INVITE", 486);
  gen_call_clear (&c);
}
