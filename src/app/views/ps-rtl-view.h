/* ps-rtl-view.h — an OpenOffice RTL log: scopes per thread, totals, repairs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3 and §5: the per-thread indented tree of
 * scopes with their durations and self times and the messages in place,
 * the totals per scope name (across threads or per thread), include and
 * exclude regular expressions applied to whole scopes, and the list of
 * what the parser repaired, each with its line.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-analysis.h"
#include "ps-run-view.h"
#include "ps-session.h"

G_BEGIN_DECLS

#define PS_TYPE_RTL_VIEW (ps_rtl_view_get_type ())
G_DECLARE_FINAL_TYPE (PsRtlView, ps_rtl_view, PS, RTL_VIEW, GtkWidget)

GtkWidget     *ps_rtl_view_new            (void);
void           ps_rtl_view_set_analysis   (PsRtlView     *self,
                                           PsRunAnalysis *analysis);
/* The totals table: one row per scope name, or per scope name and thread */
gboolean       ps_rtl_view_get_per_thread (PsRtlView     *self);
void           ps_rtl_view_set_per_thread (PsRtlView     *self,
                                           gboolean       per_thread);
/* The run's view state: a time range selected in it filters the histogram
 * and the call tree; the histogram's selection and the call tree's
 * function are highlighted in it */
void           ps_rtl_view_set_session    (PsRtlView     *self,
                                           PsSession     *session);
/* "scopes", "totals", "calltree" or "warnings" */
void           ps_rtl_view_show_page      (PsRtlView     *self,
                                           const char    *name);

G_END_DECLS
