/* sipp-periods.h — loadtest's intervals against SIPp's periods (--sipp-stat): calls
 * started and UAC retransmissions per period, calls in progress at each period's end */
#pragma once

#include "sipp-json.h"

/* What the UAC put on the wire, from tshark: times of its first INVITE per Call-ID,
 * and of every INVITE or BYE it sent. */
typedef struct
{
  GArray *first_invites; /* double epoch */
  GArray *requests;      /* double epoch, INVITE and BYE copies from the UAC */
} UacWire;

/* FALSE when tshark is missing. */
gboolean uac_wire (const char *pcap, guint16 uac_port, UacWire *wire);
void uac_wire_clear (UacWire *wire);
/* Calls started and the UAC's INVITE/BYE retransmissions per SIPp period (rows of its
 * -trace_stat); wire NULL compares totals only. */
void check_periods (JsonArray *intervals, GPtrArray *rows, const UacWire *wire);
/* Calls in progress at each period's end against CurrentCall, zero at the end. */
void check_concurrency (JsonArray *intervals, GPtrArray *rows);
