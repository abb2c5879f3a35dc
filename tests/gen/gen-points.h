/* gen-points.h — one network captured at three points with their own clocks (gen-points.c) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes DIR/points-a.pcapng, points-b.pcapng, points-c.pcapng and points.truth.json. */
gboolean gen_points_write (const char *dir, GError **error);

G_END_DECLS
