/* ps-trend-chart.h — one row's value per run, with its change points
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-trend.h"

G_BEGIN_DECLS

#define PS_TYPE_TREND_CHART (ps_trend_chart_get_type ())
G_DECLARE_FINAL_TYPE (PsTrendChart, ps_trend_chart, PS, TREND_CHART, GtkWidget)

GtkWidget *ps_trend_chart_new          (void);
/* The row of the trend to draw (both kept by the caller until the next
 * call; NULL for none); value_title names the value per run ("Median"),
 * runs_title the runs' axis ("20 runs by time") */
void       ps_trend_chart_set_row      (PsTrendChart     *self,
                                        const PsTrend    *trend,
                                        const PsTrendRow *row,
                                        const char       *value_title,
                                        const char       *runs_title);
/* The point chosen with the keyboard or a click: an index into the row's
 * values, -1 for none */
int        ps_trend_chart_get_selected (PsTrendChart     *self);
void       ps_trend_chart_set_selected (PsTrendChart     *self,
                                        int               value_index);
/* Where a point (an index into the row's values) or a change point (an
 * index into the row's change points) is drawn; FALSE when it is not */
gboolean   ps_trend_chart_get_point_position        (PsTrendChart *self,
                                                     guint         value_index,
                                                     double       *x,
                                                     double       *y);
gboolean   ps_trend_chart_get_change_point_position (PsTrendChart *self,
                                                     guint         change_point,
                                                     double       *x,
                                                     double       *y);
/* What a click at (x, y) does: a point opens its run ("run-activated"), a
 * change point's line its comparison ("change-point-activated") */
void       ps_trend_chart_click        (PsTrendChart *self,
                                        double        x,
                                        double        y);
/* The tooltip at (x, y): of a point, its run and value; of a change
 * point, the runs on each side and their means; NULL elsewhere */
char      *ps_trend_chart_get_tooltip_text (PsTrendChart *self,
                                            double        x,
                                            double        y);

/* A run as the chart and the page name it: its file, and for one session
 * of a log the session, counted from 1 ("nightly.log, session 14") */
char      *ps_trend_format_run         (const PsRunSummary *run);
/* The unit a row's values are shown in, on its chart's axis and beside
 * them: "ms" for durations of some milliseconds */
const char *ps_trend_row_shown_unit    (const PsTrendRow   *row);
/* A row's value with its unit: "12.0 ms", "1.50 MiB", "42 ticks" */
char      *ps_trend_format_value       (double              value,
                                        const char         *unit);
/* A relative change as a signed percentage: "+19.9 %" */
char      *ps_trend_format_change      (double              relative_change);
/* A number as ps_view_format_number () writes it, then unit as it is
 * (none when NULL or empty): "9.6 MiB" */
char      *ps_trend_format_number_with_unit (double          value,
                                             const char     *unit);
/* How much a change of a level along a run is (a change mark's label):
 * relative ("+38.0 %"), or from a level of zero, of which no relative
 * change can be told, the two levels as shown, with their unit
 * ("0 % → 40.2 %") */
char      *ps_trend_format_change_size (double              relative_change,
                                        double              shown_before,
                                        double              shown_after,
                                        const char         *unit);
/* A change point's p-value for people: "p < 0.001", "p = 0.004" */
char      *ps_trend_format_p_value     (double              p_value);
/* "regression", "improvement" or "changed", for styles */
const char *ps_trend_change_class      (const PsTrendRow   *row,
                                        double              relative_change);

/* The same for people: "worse", "better", "changed" */
const char *ps_trend_change_word       (const PsTrendRow   *row,
                                        double              relative_change);

G_END_DECLS
