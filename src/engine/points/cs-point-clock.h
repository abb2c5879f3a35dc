/* cs-point-clock.h — several capture points in one timeline: each file of a capture set is a
 * point (an SBC, a proxy, a media server…) with its own clock. The same SIP datagram captured
 * at two points on the hop it travels is the same bytes between the same endpoints; the time
 * differences of such copies give each point's clock offset (corrected for the direction the
 * message went) and the one-way delay between the points. */
#pragma once

#include "base/cs-addr.h"
#include "capture/cs-capture-set.h"

G_BEGIN_DECLS

/* One hop (the pair of endpoints a message travels between) seen at two points a < b. */
typedef struct
{
  guint a, b;               /* file indices in the capture set */
  CsEndpoint x, y;          /* the hop's endpoints, x before y in cs_endpoint_compare order */
  guint n_forward;          /* copies of x → y messages seen at both points */
  guint n_backward;         /* … of y → x messages */
  gint64 offset_ns;         /* clock of b minus clock of a */
  gint64 one_way_ns;        /* delay from a to b for x → y messages (negative: b sees them first);
                             * 0 when only one direction was seen */
  gint64 spread_ns;         /* median distance of a copy's difference from offset ± delay */
  gboolean both_directions; /* else the offset still holds the one-way delay */
  guint32 hop;              /* private: the estimate's hop index */
} CsPointLink;

/* A SIP datagram that left one point of a hop and never reached the other one. */
typedef struct
{
  guint from, to; /* the points: where it was seen, where it should have been */
  guint64 offset; /* of its record in file `from` */
  gint64 ts_ns;   /* when `from` saw it, on the reference clock */
  guint32 frame;  /* its frame number once the files are merged (cs_point_clock_number) */
  CsEndpoint src, dst;
} CsPointLoss;

typedef struct
{
  guint n_points;
  gint64 *offset_ns; /* per file: its clock minus the reference point's */
  gint64 *spread_ns; /* per file: the spreads of the links chaining it to the reference */
  guint *reference;  /* per file: the point its offset is measured from (itself: no link) */
  guint *n_messages; /* per file: SIP datagrams read for the estimate */
  GArray *links;     /* CsPointLink, by (a, b), then most copies first */
  GArray *losses;    /* CsPointLoss, by time */
} CsPointClock;

/* Reads the SIP datagrams of every file (per_file[f]: its frames as indexed, not yet merged)
 * and estimates every point's clock offset; a file sharing no message with the others keeps
 * offset 0 and is its own reference. */
CsPointClock *cs_point_clock_estimate (CsCaptureSet *set, GArray *const *per_file, guint n_files);
void cs_point_clock_free (CsPointClock *clock);
/* Fills the losses' frame numbers from the merged set. */
void cs_point_clock_number (CsPointClock *clock, CsCaptureSet *set);

/* cs_capture_set_set_clock_align's function: estimates with cs_point_clock_estimate, fills
 * offsets and hands the estimate to *(CsPointClock **) user_data (freed by the caller). */
void cs_point_clock_align (CsCaptureSet *set, GArray *const *per_file, guint n_files,
                           gint64 *offsets, gpointer user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPointClock, cs_point_clock_free)

G_END_DECLS
