/* ps-counters-view-private.h — what tests look at inside a PsCountersView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-counter-chart.h"
#include "ps-counter-node.h"
#include "ps-counters-view.h"

G_BEGIN_DECLS

/* The tree as shown: GtkTreeListRow items whose item is a PsCounterNode;
 * a GtkSingleSelection */
GtkSelectionModel *ps_counters_view_get_tree_selection (PsCountersView *self);
/* The counter whose path (the log's column header) is path, or NULL */
PsCounterNode  *ps_counters_view_find_counter      (PsCountersView *self,
                                                    const char     *path);
/* The counters checked, in the order of the tree */
GPtrArray      *ps_counters_view_list_checked      (PsCountersView *self);
/* Checks or unchecks the counter of the selected row of the tree, as
 * Space does */
void            ps_counters_view_toggle_selected   (PsCountersView *self);
/* Brings the charts and the table up to date with the checks now, instead
 * of at the next idle */
void            ps_counters_view_update_now        (PsCountersView *self);
guint           ps_counters_view_get_n_charts      (PsCountersView *self);
PsCounterChart *ps_counters_view_get_chart         (PsCountersView *self,
                                                    guint           index);
/* The counter (track) of a series of a chart, or PS_NONE */
guint32         ps_counters_view_get_series_track  (PsCountersView *self,
                                                    guint           chart,
                                                    guint           series);
/* PsCounterNode items of the statistics table, sorted as shown */
GListModel     *ps_counters_view_get_stats_model   (PsCountersView *self);
GtkColumnView  *ps_counters_view_get_stats_view    (PsCountersView *self);
/* The text of a cell as the table shows it; column is the column's title */
char           *ps_counters_view_get_stats_cell_text (PsCountersView *self,
                                                      PsCounterNode  *node,
                                                      const char     *column);
/* The line above the statistics saying which readings they are of (a
 * range selected on the timeline), or NULL when it is hidden: they are of
 * every reading */
const char     *ps_counters_view_get_range_notice  (PsCountersView *self);

G_END_DECLS
