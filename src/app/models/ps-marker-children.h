/* ps-marker-children.h — the instances of a group row of the marker table
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A list model of PsMarkerRow that makes each row when it is first asked
 * for: a description registered a hundred thousand times expands without
 * a hundred thousand objects, and its row tells whether it can expand
 * without making any.
 */
#pragma once

#include <gio/gio.h>

#include "ps-run-analysis.h"

G_BEGIN_DECLS

#define PS_TYPE_MARKER_CHILDREN (ps_marker_children_get_type ())
G_DECLARE_FINAL_TYPE (PsMarkerChildren, ps_marker_children, PS, MARKER_CHILDREN, GObject)

/* The instance series of group, in its order, that analysis has */
PsMarkerChildren *ps_marker_children_new (PsRunAnalysis  *analysis,
                                          const PsSeries *group);

G_END_DECLS
