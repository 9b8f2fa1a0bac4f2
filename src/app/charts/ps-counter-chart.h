/* ps-counter-chart.h — counter series over time, with a legend and a read-out
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several series of one unit on one plot (e.g. the % Processor Time of
 * each CPU, the RSS of several processes), each drawn from its
 * level-of-detail index as a line through a min/max band, so a million
 * readings cost no more than the pixels. Hovering shows every series'
 * value at the pointer, with its unit. Stacked, the series are areas on
 * top of each other and the read-out gives their total too.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-counter-changes.h"
#include "ps-span-lod.h"

G_BEGIN_DECLS

#define PS_TYPE_COUNTER_CHART (ps_counter_chart_get_type ())
G_DECLARE_FINAL_TYPE (PsCounterChart, ps_counter_chart, PS, COUNTER_CHART, GtkWidget)

GtkWidget  *ps_counter_chart_new           (void);
const char *ps_counter_chart_get_title     (PsCounterChart *self);
void        ps_counter_chart_set_title     (PsCounterChart *self,
                                            const char     *title);
/* The title as drawn, with the unit of the values: "Counters (%)" */
char       *ps_counter_chart_dup_title_with_unit (PsCounterChart *self);
/* What the chart says without readings ("No durations", or that they
 * are still being gathered); NULL for "No readings" */
void        ps_counter_chart_set_empty_text (PsCounterChart *self,
                                             const char     *text);
/* Shown values are stored values × scale, in unit ("%", "MiB", "ms") */
void        ps_counter_chart_set_unit      (PsCounterChart *self,
                                            const char     *unit,
                                            double          scale);
/* x in nanoseconds from the run's start, or (sequence) a sequence number */
void        ps_counter_chart_set_sequence_axis (PsCounterChart *self,
                                                gboolean        sequence);
void        ps_counter_chart_clear         (PsCounterChart *self);
/* Returns the series' index; values is referenced */
guint       ps_counter_chart_add_series    (PsCounterChart *self,
                                            const char     *label,
                                            PsValueLod     *values);
/* What the read-out adds in parentheses after the value of the point at
 * index of a series ("raw 1234567, base 9876543"), or NULL for nothing */
typedef char * (*PsCounterChartDetailFunc) (gsize    index,
                                            gpointer user_data);
guint       ps_counter_chart_add_series_full (PsCounterChart          *self,
                                              const char              *label,
                                              PsValueLod              *values,
                                              PsCounterChartDetailFunc detail_func,
                                              gpointer                 user_data,
                                              GDestroyNotify           destroy);
/* Stacked: the series are areas summed from the bottom, in the order they
 * were added (the % Processor Time of each CPU adds up to the machine's);
 * else each is a line of its own */
gboolean    ps_counter_chart_get_stacked   (PsCounterChart *self);
void        ps_counter_chart_set_stacked   (PsCounterChart *self,
                                            gboolean        stacked);
/* An aggregate series is the total of the others (PerfLib's and PDH's
 * `_Total` instance): stacked, it is not added to them, which would
 * count them twice, but drawn as a dashed line over the stack, and the
 * legend and the read-out say so */
void        ps_counter_chart_set_series_aggregate (PsCounterChart *self,
                                                   guint           series,
                                                   gboolean        aggregate);
gboolean    ps_counter_chart_get_series_aggregate (PsCounterChart *self,
                                                   guint           series);
guint       ps_counter_chart_get_n_series  (PsCounterChart *self);
/* The lowest and highest stored value of the series (their sums when
 * stacked); FALSE without one. "value-range-changed" tells when they
 * change. */
gboolean    ps_counter_chart_get_value_range (PsCounterChart *self,
                                              double         *min,
                                              double         *max);
/* The value axis spans the stored values min…max at least (with shared;
 * the union of the same chart of two runs compared: one scale for both),
 * else its values */
void        ps_counter_chart_set_shared_range (PsCounterChart *self,
                                               gboolean        shared,
                                               double          min,
                                               double          max);
/* The x range shown; begin >= end shows all of the data */
void        ps_counter_chart_set_x_range   (PsCounterChart *self,
                                            gint64          begin,
                                            gint64          end);

/* The series chosen in another view (its counter focused on the
 * timeline, its row in the statistics): drawn over the others with a
 * thicker line; G_MAXUINT for none */
void        ps_counter_chart_set_emphasized (PsCounterChart *self,
                                             guint           series);
guint       ps_counter_chart_get_emphasized (PsCounterChart *self);
/* The range selected on the timeline, shaded behind the series */
void        ps_counter_chart_set_selection (PsCounterChart *self,
                                            gboolean        has_selection,
                                            gint64          begin,
                                            gint64          end);
/* FALSE without a range; begin and end may be NULL */
gboolean    ps_counter_chart_get_selection (PsCounterChart *self,
                                            gint64         *begin,
                                            gint64         *end);
/* Zoomed: the value axis spans the data's range (the title says so and
 * the axis shows a break); else it starts at 0. A toggle at the chart's
 * top left changes it. */
gboolean    ps_counter_chart_get_zoomed    (PsCounterChart *self);
void        ps_counter_chart_set_zoomed    (PsCounterChart *self,
                                            gboolean        zoomed);
GtkWidget  *ps_counter_chart_get_zoom_button (PsCounterChart *self);
/* What the title adds because the value axis does not start at 0, NULL
 * when it does */
const char *ps_counter_chart_get_axis_note (PsCounterChart *self);

/* The colour of a series */
void        ps_counter_chart_get_color     (PsCounterChart *self,
                                            guint           series,
                                            GdkRGBA        *color);
/* The plot's area in the widget, FALSE before there is data */
gboolean    ps_counter_chart_get_plot      (PsCounterChart  *self,
                                            graphene_rect_t *plot);
/* The ranges the axes span over the plot: x from left to right, the
 * shown values (stored × scale) from bottom to top; FALSE before there
 * is data */
gboolean    ps_counter_chart_get_axes      (PsCounterChart  *self,
                                            gint64          *x_begin,
                                            gint64          *x_end,
                                            double          *y_low,
                                            double          *y_high);
/* Where the title and the legend are drawn (they never overlap, and the
 * plot starts below both) and how many series the legend names; the
 * others are summed up as "+N more". FALSE without readings. */
gboolean    ps_counter_chart_get_legend_area (PsCounterChart  *self,
                                              graphene_rect_t *title,
                                              graphene_rect_t *legend,
                                              guint           *n_shown);
/* Where the read-out is (the pointer, or the keyboard's cursor moved with
 * the arrow keys), -1 when hidden */
double      ps_counter_chart_get_readout_x (PsCounterChart *self);
/* The read-out at widget x: every series' value there, one per line;
 * NULL outside the plot */
char       *ps_counter_chart_describe_at   (PsCounterChart *self,
                                            double          x);
/* The changes of a series' level along its time (ps-counter-changes.h),
 * each marked at the time it begins with a line in the series' colour
 * and labelled above the plot with its relative change; NULL for none.
 * The chart keeps a copy, in which each change begins at the first
 * reading of the series at or after its time (the first of its bucket of
 * the overview) as long as that is before its next step. */
void        ps_counter_chart_set_series_changes (PsCounterChart *self,
                                                 guint           series,
                                                 GArray         *changes);
GArray     *ps_counter_chart_get_series_changes (PsCounterChart *self,
                                                 guint           series);
/* The widget x of the mark of a change of a series, and where its line
 * starts below the labels (top may be NULL); FALSE when it is outside the
 * plot or there is none */
gboolean    ps_counter_chart_get_change_x  (PsCounterChart *self,
                                            guint           series,
                                            guint           change,
                                            double         *x,
                                            double         *top);
/* What the tooltip says at widget x of the changes marked there: the
 * series and when, the means before and after with their unit, the
 * relative change and its p-value; NULL without a mark there */
char       *ps_counter_chart_describe_change_at (PsCounterChart *self,
                                                 double          x);
/* The accessible description: each series with its range of values,
 * then each change marked */
char       *ps_counter_chart_get_description (PsCounterChart *self);
/* Draws the chart as it is shown (range, series, legend, axes with their
 * units) into a width × height area at cr's origin, for a picture; the
 * read-out's line, which follows the pointer, is left out */
void        ps_counter_chart_draw_picture  (PsCounterChart *self,
                                            cairo_t        *cr,
                                            int             width,
                                            int             height);

G_END_DECLS
