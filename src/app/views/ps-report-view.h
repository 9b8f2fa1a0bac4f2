/* ps-report-view.h — a profiler report: its call tree and its repairs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §6 and §7: a Visual Studio profiler report
 * (function summary, call tree or caller/callee CSV) gives aggregated
 * values instead of events. The view shows what kind of report it is, its
 * values on the call-tree page (as the report gives them) and the warnings
 * of the reader, each with its line.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-analysis.h"
#include "ps-run-view.h"

G_BEGIN_DECLS

#define PS_TYPE_REPORT_VIEW (ps_report_view_get_type ())
G_DECLARE_FINAL_TYPE (PsReportView, ps_report_view, PS, REPORT_VIEW, GtkWidget)

GtkWidget     *ps_report_view_new          (void);
void           ps_report_view_set_analysis (PsReportView  *self,
                                            PsRunAnalysis *analysis);
/* "calltree" or "warnings" */
void           ps_report_view_show_page    (PsReportView  *self,
                                            const char    *name);

G_END_DECLS
