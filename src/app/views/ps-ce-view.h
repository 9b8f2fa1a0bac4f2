/* ps-ce-view.h — the statistics of a CE PerfLog run
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.5 and §5: a session header, per-group and
 * per-instance timer statistics, CPU and memory summaries with their
 * series, and the warnings with line numbers.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-analysis.h"
#include "ps-run-view.h"
#include "ps-session.h"

G_BEGIN_DECLS

#define PS_TYPE_CE_VIEW (ps_ce_view_get_type ())
G_DECLARE_FINAL_TYPE (PsCeView, ps_ce_view, PS, CE_VIEW, GtkWidget)

GtkWidget     *ps_ce_view_new          (void);
void           ps_ce_view_set_analysis (PsCeView      *self,
                                        PsRunAnalysis *analysis);
guint          ps_ce_view_get_session  (PsCeView      *self);
void           ps_ce_view_set_session  (PsCeView      *self,
                                        guint          session);
/* "markers", "cpu-memory" or "warnings" */
void           ps_ce_view_show_page    (PsCeView      *self,
                                        const char    *name);
/* The run's view state: a range of measurements selected on the timeline
 * limits the tables and charts to it */
void           ps_ce_view_link_session (PsCeView      *self,
                                        PsSession     *session);
/* Selects the marker (description group) of that name; FALSE when there
 * is none */
gboolean       ps_ce_view_select_marker (PsCeView     *self,
                                         const char   *name);

G_END_DECLS
