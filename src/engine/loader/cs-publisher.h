/* cs-publisher.h — how fast a window sees a load's results: the GUI's pace, kept out of the
 * loader. A load fills its analysis and, without a publisher, publishes it all at once when it
 * is done (cs_loader_load, cs_loader_load_finish). A window attaches a publisher to its loader
 * instead: while the load runs it copies the calls found so far a few times a second and shows
 * the copies from idles within a time budget; when the load is done it puts the real calls in
 * their places, at once or in slices. Only the app uses it; the CLI never pays for it. */
#pragma once

#include <glib-object.h>

#include "cs-loader.h"

G_BEGIN_DECLS

#define CS_TYPE_PUBLISHER (cs_publisher_get_type ())
G_DECLARE_FINAL_TYPE (CsPublisher, cs_publisher, CS, PUBLISHER, GObject)

/* A publisher on the calling thread's main context (its idles run there). */
CsPublisher *cs_publisher_new (void);
/* Watches the loader's background loads (cs_loader_load_async) from now on; the loader keeps
 * a reference to the publisher. */
void cs_publisher_attach (CsPublisher *self, CsLoader *loader);
/* TRUE: when the load is done, the real calls take their rows in slices from idles within a
 * time budget, and the analysis's "published" turns TRUE after the last one; FALSE (the
 * default): at once. Read by cs_loader_load_finish. */
void cs_publisher_set_in_slices (CsPublisher *self, gboolean in_slices);

G_END_DECLS
