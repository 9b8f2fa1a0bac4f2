/* ps-histogram-view-private.h — what the histogram's widget and its
 * drawing (ps-histogram-view-draw.c) share, and what the tests look at
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-histogram-view.h"
#include "ps-picture-source.h"

G_BEGIN_DECLS

struct _PsHistogramView
{
  GtkWidget    parent_instance;

  GArray      *values;        /* double, seconds */
  PsHistogram *histogram;     /* NULL without values */
  gboolean     log_scale;
  gboolean     by_total;
  char        *title;
  char        *unit;          /* of the values: NULL or "s" for durations */
  char        *empty_text;    /* why there are no values; NULL: "No durations" */

  /* A second sample drawn over the bars as an outline, on the same bins
   * (run A under run B in a comparison), and the legend naming both */
  GArray      *overlay_values; /* double, seconds; NULL for none */
  PsHistogram *overlay;
  char        *bars_label;
  char        *overlay_label;

  /* Selection: bins first..last, the anchor a drag or Shift started from,
   * and the keyboard's cursor */
  gboolean     has_selection;
  guint        selection_first;
  guint        selection_last;
  int          anchor_bin;    /* -1 if none */
  int          cursor_bin;    /* -1 if none */
  int          hover_bin;     /* -1 if none */
  GtkWidget   *picture_menu;  /* the context menu, once shown */
};

typedef struct
{
  graphene_rect_t plot;
  double          x_low;        /* the axis at the plot's left and right edges */
  double          x_high;       /* (logarithms on a log scale) */
  double          x_unit_scale; /* values per shown x unit */
  const char     *x_unit;
  double          y_top;        /* count or seconds at the plot's top */
  double          y_step;
  double          y_unit_scale; /* by total: values per shown y unit */
  const char     *y_unit;
  int             text_height;
} Layout;

/* A tick of the x axis and its label, as drawn */
typedef struct
{
  double  value;      /* seconds, or a value of the view's unit */
  double  x;          /* the tick's line */
  char   *text;       /* NULL: the label would run into the one before */
  double  text_x;     /* the label's left edge: centred on the tick, kept
                       * within the plot */
  int     text_width;
} PsHistogramTick;

/* Units, geometry and drawing (ps-histogram-view-draw.c) */

/* Whether the values are durations */
gboolean ps_histogram_view_is_time (PsHistogramView *self);
/* "12.50 ms", "850 µs", "9.60 MiB": a value in the unit of the x axis */
char *ps_histogram_view_format_value (PsHistogramView *self,
                                      double           value);
/* The geometry of the plot at that size; FALSE with nothing to draw */
gboolean ps_histogram_view_compute_layout (PsHistogramView *self,
                                           int              width,
                                           int              height,
                                           Layout          *layout);
/* The ticks of the x axis of that layout, left to right (PsHistogramTick,
 * freed with the array) */
GArray *ps_histogram_view_compute_x_ticks (PsHistogramView *self,
                                           const Layout    *layout);
/* The bin under x, clamped to the bins; -1 without bins */
int ps_histogram_view_bin_at_x (PsHistogramView *self,
                                double           x);
/* A histogram of values on the bins of another one (its stats its own) */
PsHistogram *ps_histogram_view_histogram_on_bins (const PsHistogram *shape,
                                                  const double      *values,
                                                  gsize              count);
void ps_histogram_view_snapshot (GtkWidget   *widget,
                                 GtkSnapshot *snapshot);
void ps_histogram_view_picture_source_init (PsPictureSourceInterface *iface);

/* For the tests */

/* Draws the view as its snapshot does, at the given size */
void     ps_histogram_view_draw          (PsHistogramView *self,
                                          cairo_t         *cr,
                                          int              width,
                                          int              height);
/* Where the bars go at that size: the bins span its width, and a bar of
 * the highest tick reaches its top; FALSE with nothing to draw */
gboolean ps_histogram_view_get_plot_area (PsHistogramView *self,
                                          int              width,
                                          int              height,
                                          graphene_rect_t *area);
/* The title of the x (horizontal) or y axis, with its unit, as drawn;
 * NULL with nothing to draw */
char    *ps_histogram_view_dup_axis_title (PsHistogramView *self,
                                           GtkOrientation   orientation);
/* The x axis' ticks at that size, as drawn (PsHistogramTick); NULL with
 * nothing to draw */
GArray  *ps_histogram_view_get_x_ticks   (PsHistogramView *self,
                                          int              width,
                                          int              height);
/* The top of the value axis (count, or total in seconds) */
double   ps_histogram_view_get_y_top     (PsHistogramView *self);
/* The colour of a bar */
void     ps_histogram_view_get_bar_color (gboolean         selected,
                                          GdkRGBA         *color);

G_END_DECLS
