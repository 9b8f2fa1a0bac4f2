/* ps-series-chart.h — a line chart of measured series over the event index
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CE PerfLog has no timestamps (specs: ce-perflog.md §4.5), so x is the
 * global event index and y the value, in the chart's unit. One line per
 * series; many points are reduced to a min/max band per pixel column.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  PS_SERIES_CHART_UNIT_NONE,
  PS_SERIES_CHART_UNIT_PERCENT,
  PS_SERIES_CHART_UNIT_BYTES,
  PS_SERIES_CHART_UNIT_SECONDS,
  PS_SERIES_CHART_UNIT_TICKS,
} PsSeriesChartUnit;

#define PS_TYPE_SERIES_CHART_UNIT (ps_series_chart_unit_get_type ())
GType ps_series_chart_unit_get_type (void) G_GNUC_CONST;

#define PS_TYPE_SERIES_CHART (ps_series_chart_get_type ())
G_DECLARE_FINAL_TYPE (PsSeriesChart, ps_series_chart, PS, SERIES_CHART, GtkWidget)

GtkWidget        *ps_series_chart_new          (void);
PsSeriesChartUnit ps_series_chart_get_unit     (PsSeriesChart     *self);
void              ps_series_chart_set_unit     (PsSeriesChart     *self,
                                                PsSeriesChartUnit  unit);
const char       *ps_series_chart_get_title    (PsSeriesChart     *self);
void              ps_series_chart_set_title    (PsSeriesChart     *self,
                                                const char        *title);
void              ps_series_chart_clear        (PsSeriesChart     *self);
/* indexes: guint64 global event indexes, ascending; values: double in the
 * chart's unit; both the same length. The arrays are referenced. */
void              ps_series_chart_add_series   (PsSeriesChart     *self,
                                                const char        *label,
                                                GArray            *indexes,
                                                GArray            *values);
guint             ps_series_chart_get_n_series (PsSeriesChart     *self);
/* The lowest and highest value of the series; FALSE without one.
 * "value-range-changed" tells when the series change. */
gboolean          ps_series_chart_get_value_range (PsSeriesChart  *self,
                                                   double         *min,
                                                   double         *max);
/* The y axis spans min…max at least (with shared; the union of the same
 * chart of two runs compared: one scale for both), else its values */
void              ps_series_chart_set_shared_range (PsSeriesChart *self,
                                                    gboolean       shared,
                                                    double         min,
                                                    double         max);
/* The x range to show, e.g. the whole session, so that charts line up.
 * first > last resets it to the range of the data. */
void              ps_series_chart_set_x_range  (PsSeriesChart     *self,
                                                guint64            first,
                                                guint64            last);

/* Zoomed: the value axis spans the data's range (and the title says
 * so); else it starts at 0, or spans 0…100 % for percentages. A toggle
 * at the chart's top left changes it. */
gboolean          ps_series_chart_get_zoomed   (PsSeriesChart     *self);
void              ps_series_chart_set_zoomed   (PsSeriesChart     *self,
                                                gboolean           zoomed);
GtkWidget        *ps_series_chart_get_zoom_button (PsSeriesChart  *self);
/* What the title of the last drawing added because the axis did not
 * start at 0, NULL when it did */
const char       *ps_series_chart_get_axis_note (PsSeriesChart    *self);

/* Testing API: the plot's area in the widget and the ranges its axes
 * spanned at the last drawing, x from left to right, y from bottom to
 * top; FALSE before a drawing with data */
gboolean          ps_series_chart_get_axes     (PsSeriesChart     *self,
                                                graphene_rect_t   *plot,
                                                double            *x_first,
                                                double            *x_last,
                                                double            *y_min,
                                                double            *y_max);

/* A value with its unit, e.g. "61.25 %", "9.6 MiB", "38 ms" */
char             *ps_series_chart_unit_format  (PsSeriesChartUnit  unit,
                                                double             value);

G_END_DECLS
