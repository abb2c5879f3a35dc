/* cs-finding-groups.h — identical findings together: one row per kind, severity and text,
 * with the findings (calls, streams) it stands for */
#pragma once

#include <gio/gio.h>

#include "cs-finding.h"

G_BEGIN_DECLS

typedef struct
{
  CsFinding *first;   /* a reference: its kind, severity and text are the group's */
  GPtrArray *members; /* CsFinding references, in the model's order (first among them) */
} CsFindingGroup;

/* The findings of model (CsFinding items) grouped by kind, severity and text, in the order
 * of each group's first finding; frees its groups. */
GPtrArray *cs_finding_groups_new (GListModel *findings);
/* "1–3, 5, 8–12": the call numbers of a group's members (0 = none left out), ascending,
 * at most max_ranges ranges then "… (N more)". */
char *cs_finding_group_calls_text (const CsFindingGroup *group, guint max_ranges);

G_END_DECLS
