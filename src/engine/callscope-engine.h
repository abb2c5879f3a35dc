/* callscope-engine.h — the engine's public API: what src/audio, src/report, src/cli and
 * src/app may use. Everything else under src/engine is the engine's own (the layers and
 * the data flow: docs/architecture.md). */
#pragma once

/* base: addresses, errors, caps on state, number formatting */
#include "base/cs-addr.h"
#include "base/cs-error.h"
#include "base/cs-fixed-format.h"
#include "base/cs-limits.h"
#include "base/cs-prefetch.h"
#include "base/cs-text-inert.h"

/* capture: files, sets of files merged by time, BPF filters, totals */
#include "capture/cs-capture-filter.h"
#include "capture/cs-capture-set.h"
#include "capture/cs-capture-stats.h"
#include "capture/cs-capture.h"

/* net: what a frame's layers carry */
#include "net/cs-frame-payload.h"
#include "net/cs-tls-keylog.h"
#include "net/cs-tls-stream.h"

/* sip: messages, methods, SDP */
#include "sip/cs-sdp.h"
#include "sip/cs-sip-message.h"
#include "sip/cs-sip-method.h"

/* rtp: packets, RTCP, events, codecs, clock rates */
#include "rtp/cs-codec.h"
#include "rtp/cs-dtmf.h"
#include "rtp/cs-rtcp.h"
#include "rtp/cs-rtp-clock-map.h"
#include "rtp/cs-rtp.h"
#include "rtp/cs-srtp-key.h"
#include "rtp/cs-srtp-session.h"

/* quality: stream statistics, series, jitter buffer, MOS */
#include "quality/cs-jitter-buffer.h"
#include "quality/cs-mos.h"
#include "quality/cs-rtp-metrics.h"
#include "quality/cs-rtp-series.h"

/* calls: calls, transactions, streams, RTCP and DTMF per call */
#include "calls/cs-call-dtmf.h"
#include "calls/cs-call-legs.h"
#include "calls/cs-call.h"
#include "calls/cs-stream-rtcp.h"
#include "calls/cs-stream-srtp.h"
#include "calls/cs-stream.h"
#include "calls/cs-transaction.h"

/* findings */
#include "findings/cs-finding.h"
#include "findings/cs-finding-groups.h"

/* loader: loading, the analysis it fills, its list models, the publisher pacing a window */
#include "loader/cs-analysis.h"
#include "loader/cs-call-list.h"
#include "loader/cs-loader.h"
#include "loader/cs-object-list.h"
#include "loader/cs-publisher.h"

/* export: trimmed pcapng captures, redaction */
#include "export/cs-export-name.h"
#include "export/cs-export-pcapng.h"

/* loadtest: load-test statistics, the breaking point */
#include "loadtest/cs-loadtest.h"
#include "loadtest/cs-loadtest-sipp.h"

/* live: live capture, HEP listener and sender */
#include "live/cs-hep-listener.h"
#include "live/cs-hep-sender.h"
#include "live/cs-live-pcap.h"
#include "live/cs-live-session.h"

/* fleet: a Homer 7 store opened as a capture */
#include "fleet/cs-homer-load.h"
#include "fleet/cs-homer-query.h"

/* dissect: a frame's protocol tree by display-filter name, the list columns, the frames of
 * a call, stream, finding or time range */
#include "dissect/cs-dissect.h"
#include "dissect/cs-frame-dissector.h"
#include "dissect/cs-frame-scope.h"
#include "dissect/cs-hex-format.h"
#include "dissect/cs-proto-tree.h"
