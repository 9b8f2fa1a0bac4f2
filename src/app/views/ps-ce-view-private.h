/* ps-ce-view-private.h — what tests look at inside a PsCeView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-ce-view.h"
#include "ps-histogram-view.h"
#include "ps-counter-chart.h"

G_BEGIN_DECLS

/* The marker table's model as shown: GtkTreeListRow items whose item is a
 * PsMarkerRow (groups at the top level, instances as children). */
GListModel    *ps_ce_view_get_marker_model  (PsCeView *self);
PsCounterChart *ps_ce_view_get_cpu_chart    (PsCeView *self);
PsCounterChart *ps_ce_view_get_memory_chart (PsCeView *self);
GtkColumnView *ps_ce_view_get_marker_view   (PsCeView *self);

G_END_DECLS
