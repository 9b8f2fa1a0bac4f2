/* ps-chart-util.h — what the cairo-drawn views share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chart kit: the size and the cairo context of a chart's snapshot, the
 * text colour of the widget's style (so that the light and dark styles and
 * high contrast apply), text placed by alignment, axis steps and ticks,
 * the series palette and the zoom toggle.
 * With PsPictureSource (ps-picture-source.h), the interface by which
 * picture export draws a chart, it is what the charts share.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The series palette (GNOME palette, 3rd shades): readable on light and
 * dark backgrounds. Series take the colours in this order. */
typedef enum
{
  PS_CHART_COLOR_BLUE,
  PS_CHART_COLOR_ORANGE,
  PS_CHART_COLOR_GREEN,
  PS_CHART_COLOR_PURPLE,
  PS_CHART_COLOR_RED,
  PS_CHART_COLOR_BROWN,
  PS_CHART_N_COLORS,
} PsChartColor;

/* The colour of the index'th series (index modulo PS_CHART_N_COLORS) */
const GdkRGBA *ps_chart_palette_color (guint index);
/* The colour of a module in the views of call stacks: the flame graph
 * colours a frame by its function's module, the timeline's sample lanes a
 * sample by the module of the function it was taken in, and the same module
 * has the same colour in both. A warm colour (reds, oranges, yellows) from
 * a stable hash of the module's path (NULL or "" for none); darker under
 * the dark style. */
void         ps_chart_module_color   (const char     *module,
                                      gboolean        dark,
                                      GdkRGBA        *color);

/* A chart class's minimum and natural size, fixed: its
 * GtkWidgetClass.measure gives them (for its class_init) */
void         ps_chart_class_set_size (GtkWidgetClass *widget_class,
                                      int             minimum_width,
                                      int             natural_width,
                                      int             minimum_height,
                                      int             natural_height);

/* For a chart's GtkWidgetClass.snapshot: a cairo context over the whole
 * widget, whose size is put in *@width and *@height; NULL when the widget
 * has no area to draw on. The caller destroys the context. */
cairo_t     *ps_chart_append_cairo   (GtkWidget      *widget,
                                      GtkSnapshot    *snapshot,
                                      int            *width,
                                      int            *height);

void         ps_chart_get_foreground (GtkWidget     *widget,
                                      GdkRGBA       *color);
/* The colour with its alpha multiplied by alpha */
void         ps_chart_set_source     (cairo_t       *cr,
                                      const GdkRGBA *color,
                                      double         alpha);
/* A layout of the widget's font and its size in pixels */
PangoLayout *ps_chart_text_layout    (GtkWidget     *widget,
                                      const char    *text,
                                      int           *width,
                                      int           *height);
/* Draws text with the point (x, y) at (x_align, y_align) of its box (0 0:
 * top left, 1 1: bottom right) on whole pixels; returns its width */
int          ps_chart_draw_text      (GtkWidget     *widget,
                                      cairo_t       *cr,
                                      const char    *text,
                                      double         x,
                                      double         y,
                                      double         x_align,
                                      double         y_align);
/* Draws a message in the middle of a chart of width × height that has
 * nothing to show, on as many centred lines as it needs within the width */
void         ps_chart_draw_message   (GtkWidget     *widget,
                                      cairo_t       *cr,
                                      const char    *text,
                                      int            width,
                                      int            height);
/* A tick value without float noise: as many decimals as the step needs */
char        *ps_chart_format_tick    (double         value,
                                      double         step);
/* A step of 1, 2 or 5 × 10ⁿ that cuts range into about target_count parts */
double       ps_chart_nice_step      (double         range,
                                      double         target_count);
/* The nice step of an axis length pixels long over range, with ticks at
 * least min_spacing pixels apart */
double       ps_chart_axis_step      (double         range,
                                      double         length,
                                      double         min_spacing);
/* The step of the time axis that the timeline and the counter charts under
 * it share (labels at least 110 px apart), or of the sequence axis of a
 * run without times (whole numbers) */
double       ps_chart_time_axis_step (double         range,
                                      double         length,
                                      gboolean       sequence_axis);

/* The toggle a chart shows at its top left to zoom its value axis to the
 * data's range, which starts at 0 otherwise; a child of chart, which
 * allocates and draws it. Its "active" is the zoom. */
GtkWidget   *ps_chart_zoom_button_new (GtkWidget     *chart);
/* What the title of a zoomed chart adds: "axis zoomed, not from 0" */
const char  *ps_chart_zoomed_note     (void);
/* Two slanted strokes across the value axis at (x, y): the axis is
 * broken there, it does not start at 0 */
void         ps_chart_draw_axis_break (cairo_t       *cr,
                                       double         x,
                                       double         y);

/* The value range a chart shares with the same chart of another run
 * compared: its axis spans at least min to max while shared */
typedef struct
{
  gboolean shared;
  double   min;
  double   max;
} PsChartSharedRange;

/* Sets it; FALSE when nothing changed (nothing to redraw) */
gboolean     ps_chart_shared_range_set    (PsChartSharedRange *range,
                                           gboolean            shared,
                                           double              min,
                                           double              max);
/* Widens [*min, *max] to the shared range, if shared */
void         ps_chart_shared_range_widen  (const PsChartSharedRange *range,
                                           double             *min,
                                           double             *max);

G_END_DECLS
