/* ps-counters-view.h — a run of performance counters: the counter tree,
 * charts of the checked counters by unit, their statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For PDH CSV/TSV logs and PerfLib V2 captures: machines, objects,
 * instances and counters as a tree with a check button each, searched by
 * name; one chart for each unit of the checked counters, overlaid or
 * stacked; a table of their statistics over every reading; and the
 * warnings of the run.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-analysis.h"
#include "ps-run-view.h"
#include "ps-session.h"

G_BEGIN_DECLS

#define PS_TYPE_COUNTERS_VIEW (ps_counters_view_get_type ())
G_DECLARE_FINAL_TYPE (PsCountersView, ps_counters_view, PS, COUNTERS_VIEW, GtkWidget)

GtkWidget     *ps_counters_view_new          (void);
/* Lists the run's counters and checks the default ones: the first
 * processor-time counter (any language) of every instance, else the first
 * counter */
void           ps_counters_view_set_analysis (PsCountersView *self,
                                              PsRunAnalysis  *analysis);
void           ps_counters_view_set_session  (PsCountersView *self,
                                              PsSession      *session);
/* Several series of a chart as areas summed, or as lines */
gboolean       ps_counters_view_get_stacked  (PsCountersView *self);
void           ps_counters_view_set_stacked  (PsCountersView *self,
                                              gboolean        stacked);
/* Shows or hides the counter tree (F9) */
void           ps_counters_view_toggle_side_pane (PsCountersView *self);
/* "counters" or "warnings" */
void           ps_counters_view_show_page    (PsCountersView *self,
                                              const char     *name);

G_END_DECLS
