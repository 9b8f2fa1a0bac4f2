/* ps-counter-chart.c — counter series over time, with a legend and a read-out
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The title and the legend share the top line when the legend fits beside
 * the title; else the legend wraps onto lines of its own below the title,
 * at most MAX_LEGEND_LINES of them, the last ending with "+N more", and
 * the plot moves down to make room; an entry wider than the chart loses
 * its middle. The y axis is in the
 * chart's unit from 0 (or the lowest value, when negative) to a round
 * number above the highest; the x axis is time from the run's start (or a
 * sequence number). Every frame asks each series' PsValueLod for at most a
 * few items per pixel column. Stacked, every STACK_STEP pixels takes each
 * series' reading nearest to it and the areas are drawn on top of each
 * other from the sums; an aggregate series (`_Total`) is a dashed line
 * over them.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-counter-chart-private.h"
#include "ps-picture-export.h"
#include "ps-picture-source.h"
#include "ps-timeline-render.h"
#include "ps-view-util.h"

#define STACK_STEP 2.0
/* Positions sampled to find the highest sum of a stacked chart */
#define STACK_RANGE_SAMPLES 1024
#define MAX_LEGEND_LINES 3
#define SWATCH_WIDTH 12.0
/* Radius of the dot of a reading with no neighbour to join */
#define DOT_RADIUS 2.5

enum {
  PROP_0,
  PROP_TITLE,
  PROP_STACKED,
  PROP_ZOOMED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  VALUE_RANGE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void ps_counter_chart_picture_source_init (PsPictureSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsCounterChart, ps_counter_chart, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_counter_chart_picture_source_init))

static void zoom_toggled_cb (PsCounterChart *self);

static void
series_free (gpointer data)
{
  Series *series = data;

  g_free (series->label);
  g_clear_pointer (&series->values, ps_value_lod_unref);
  if (series->detail_destroy != NULL)
    series->detail_destroy (series->detail_data);
  g_clear_pointer (&series->changes, g_array_unref);
  g_free (series);
}

/* Geometry */

static gboolean
data_range (PsCounterChart *self,
            gint64         *x_min,
            gint64         *x_max,
            double         *v_min,
            double         *v_max)
{
  gboolean any = FALSE;

  *x_min = G_MAXINT64, *x_max = G_MININT64;
  *v_min = G_MAXDOUBLE, *v_max = -G_MAXDOUBLE;
  for (guint i = 0; i < self->series->len; i++)
    {
      Series *series = g_ptr_array_index (self->series, i);
      gint64 a, b;
      double low, high;

      if (!ps_value_lod_get_range (series->values, &a, &b, &low, &high))
        continue;
      *x_min = MIN (*x_min, a);
      *x_max = MAX (*x_max, b);
      if (!isnan (low))
        *v_min = MIN (*v_min, low), *v_max = MAX (*v_max, high);
      any = TRUE;
    }
  if (*v_min > *v_max)
    *v_min = 0, *v_max = 1;
  return any;
}

/* The reading of a series nearest to x, 0 outside its readings or where
 * it has none: what a stacked chart adds up */
double
ps_counter_chart_stacked_value_at (Series *series,
                                   gint64  x)
{
  gint64 x_min, x_max, point_x;
  double low, high, value = NAN;

  if (!ps_value_lod_get_range (series->values, &x_min, &x_max, &low, &high) || x < x_min || x > x_max)
    return 0;
  if (!ps_value_lod_get_point (series->values, ps_value_lod_find (series->values, x), &point_x, &value)
      || isnan (value))
    return 0;
  return value;
}

gboolean
ps_counter_chart_is_stacked (PsCounterChart *self)
{
  return self->stacked && self->series->len > 1;
}

gboolean
ps_counter_chart_is_line_over_stack (PsCounterChart *self,
                                     Series         *series)
{
  return series->aggregate && ps_counter_chart_is_stacked (self);
}

double
ps_counter_chart_stack_sum_at (PsCounterChart *self,
                               gint64          x)
{
  double sum = 0;

  for (guint s = 0; s < self->series->len; s++)
    {
      Series *series = g_ptr_array_index (self->series, s);

      if (!series->aggregate)
        sum += ps_counter_chart_stacked_value_at (series, x);
    }
  return sum;
}

/* The lowest and highest sums of the stacked series over [x_min, x_max]
 * (v_min and v_max come with the range of every series' values, which
 * takes in the aggregates drawn over the stack) */
static void
stacked_range (PsCounterChart *self,
               gint64          x_min,
               gint64          x_max,
               double         *v_min,
               double         *v_max)
{
  for (guint i = 0; i <= STACK_RANGE_SAMPLES; i++)
    {
      gint64 x = x_min + (gint64)((double)(x_max - x_min) * i / STACK_RANGE_SAMPLES);
      double sum = ps_counter_chart_stack_sum_at (self, x);

      *v_min = MIN (*v_min, sum);
      *v_max = MAX (*v_max, sum);
    }
}

char *
ps_counter_chart_dup_legend_label (PsCounterChart *self,
                                   Series         *series)
{
  if (ps_counter_chart_is_line_over_stack (self, series))
    /* Translators: a legend entry of a stacked chart: the total of the
     * other series (the _Total instance), drawn as a line over them */
    return g_strdup_printf (_("%s (line, not stacked)"), series->label);
  return g_strdup (series->label);
}

char *
ps_counter_chart_dup_title_with_unit (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  if (self->unit != NULL && *self->unit != '\0')
    return g_strdup_printf ("%s (%s)", self->title != NULL ? self->title : "", self->unit);
  return g_strdup (self->title != NULL ? self->title : "");
}

static char *
chart_title (PsCounterChart *self,
             const Layout   *layout)
{
  g_autofree char *title = ps_counter_chart_dup_title_with_unit (self);

  if (layout->zoomed)
    return g_strdup_printf ("%s · %s", title, ps_chart_zoomed_note ());
  return g_steal_pointer (&title);
}

/* Where the title starts: after the zoom button, which a picture leaves out */
static double
title_x (PsCounterChart *self)
{
  int natural = 0;

  if (!self->drawing_picture && gtk_widget_get_visible (self->zoom_button))
    gtk_widget_measure (self->zoom_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural > 0 ? GAP + natural + GAP : GAP;
}

char *
ps_counter_chart_more_text (guint n_more)
{
  /* Translators: the end of a chart's legend when it has too many series */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "+%u more", "+%u more", n_more), n_more);
}

static int
text_width (GtkWidget  *widget,
            const char *text)
{
  int width;

  g_object_unref (ps_chart_text_layout (widget, text, &width, NULL));
  return width;
}

/* Places the title and the legend entries; returns the bottom of the last
 * line. One line when every entry fits right of the title (right-aligned
 * as before), else lines below the title from the left. */
static double
layout_legend (PsCounterChart *self,
               double          width,
               Layout         *layout)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double line_height = MAX (layout->text_height, 4) + 4;
  g_autofree char *title = chart_title (self, layout);
  g_autofree double *widths = g_new (double, MAX (self->series->len, 1));
  double title_left = title_x (self);
  double title_width = text_width (widget, title);
  double total = 0, x, y;
  guint line = 0;

  layout->legend = g_array_new (FALSE, FALSE, sizeof (LegendEntry));
  layout->n_more = 0;
  layout->title_area = GRAPHENE_RECT_INIT (title_left, GAP, title_width, layout->text_height);
  layout->legend_area = GRAPHENE_RECT_INIT (width - GAP, GAP, 0, 0);
  if (self->series->len == 0)
    return GAP + layout->text_height;

  for (guint i = 0; i < self->series->len; i++)
    {
      g_autofree char *label = ps_counter_chart_dup_legend_label (self, g_ptr_array_index (self->series, i));

      widths[i] = SWATCH_WIDTH + 4 + text_width (widget, label);
      total += widths[i] + (i > 0 ? 2 * GAP : 0);
    }

  /* Beside the title */
  if (title_left + title_width + 4 * GAP + total <= width - GAP)
    {
      x = width - GAP - total;
      y = GAP + layout->text_height / 2.0;
      layout->legend_area = GRAPHENE_RECT_INIT (x, GAP, total, layout->text_height);
      for (guint i = 0; i < self->series->len; i++)
        {
          LegendEntry entry = { i, x, y };

          g_array_append_val (layout->legend, entry);
          x += widths[i] + 2 * GAP;
        }
      return GAP + layout->text_height;
    }

  /* Below it, wrapped, with "+N more" at the end of the last line when
   * the entries do not all fit */
  x = GAP;
  y = GAP + layout->text_height + 4 + line_height / 2.0;
  for (guint i = 0; i < self->series->len; i++)
    {
      double right = width - GAP;

      if (x > GAP && x + widths[i] > right && line + 1 < MAX_LEGEND_LINES)
        {
          line++;
          x = GAP;
          y += line_height;
        }
      /* The last line keeps room for "+N more" after each entry, unless
       * the entry is the last one */
      if (line + 1 >= MAX_LEGEND_LINES && x > GAP)
        {
          g_autofree char *more = ps_counter_chart_more_text (self->series->len - i);
          gboolean last = i + 1 == self->series->len;
          double room = last ? 0 : 2 * GAP + text_width (widget, more);

          if (x + widths[i] + room > right)
            {
              layout->n_more = self->series->len - i;
              break;
            }
        }
      g_array_append_val (layout->legend, ((LegendEntry) { i, x, y }));
      x += widths[i] + 2 * GAP;
    }
  layout->more_x = x;
  layout->more_y = y;
  {
    double top = GAP + layout->text_height + 4;
    double bottom = y + line_height / 2.0;

    layout->legend_area = GRAPHENE_RECT_INIT (GAP, top, MAX (width - 2 * GAP, 1), bottom - top);
    return bottom;
  }
}

void
ps_counter_chart_layout_clear (Layout *layout)
{
  g_clear_pointer (&layout->legend, g_array_unref);
}

/* The layout at a size: the widget's, or a picture's */
static gboolean
compute_layout_at_size (PsCounterChart *self,
                        int             width,
                        int             height,
                        Layout         *layout)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gint64 x_min, x_max;
  double v_min, v_max, left = 0, top, plot_height;
  int tick_width;

  memset (layout, 0, sizeof *layout);
  if (!data_range (self, &x_min, &x_max, &v_min, &v_max))
    return FALSE;

  if (self->x_begin < self->x_end)
    layout->x_begin = self->x_begin, layout->x_end = self->x_end;
  else if (x_max > x_min)
    layout->x_begin = x_min, layout->x_end = x_max;
  else
    {
      /* One reading: in the middle, a second (or a step) either side */
      gint64 pad = self->sequence_axis ? 1 : G_GINT64_CONSTANT (1000000000);

      layout->x_begin = x_min - pad, layout->x_end = x_min + pad;
    }
  if (ps_counter_chart_is_stacked (self))
    stacked_range (self, x_min, x_max, &v_min, &v_max);
  ps_chart_shared_range_widen (&self->shared_range, &v_min, &v_max);

  /* From 0, so that heights compare; zoomed, the data's range */
  v_min *= self->scale;
  v_max *= self->scale;
  if (ps_counter_chart_get_zoomed (self) && v_max > v_min)
    {
      double pad = (v_max - v_min) * 0.05;

      v_min = v_min >= 0 ? MAX (v_min - pad, 0) : v_min - pad;
      v_max += pad;
    }
  else
    v_min = MIN (v_min, 0);
  if (v_max <= v_min)
    v_max = v_min + 1;

  g_object_unref (ps_chart_text_layout (widget, "0", NULL, &layout->text_height));
  top = layout_legend (self, width, layout) + GAP;
  /* The labels of the change marks, on a line of their own */
  if (ps_counter_chart_has_changes (self))
    layout->changes_y = top + layout->text_height / 2.0, top += layout->text_height + GAP;
  plot_height = MAX (height - top - (layout->text_height + 2 * GAP), 1);

  /* Four steps, or fewer where the plot is too short for the values'
   * labels to stand apart */
  layout->y_step = ps_chart_nice_step (v_max - v_min, CLAMP (plot_height / (layout->text_height * 1.5), 1, 4));
  layout->y_low = floor (v_min / layout->y_step + 1e-9) * layout->y_step;
  layout->y_high = ceil (v_max / layout->y_step - 1e-9) * layout->y_step;
  layout->zoomed = layout->y_low > 0;
  for (double value = layout->y_low; value <= layout->y_high + layout->y_step * 1e-9; value += layout->y_step)
    {
      g_autofree char *text = ps_chart_format_tick (value, layout->y_step);

      g_object_unref (ps_chart_text_layout (widget, text, &tick_width, NULL));
      left = MAX (left, tick_width);
    }
  left += 2 * GAP;
  layout->plot = GRAPHENE_RECT_INIT (left, top, MAX (width - left - GAP * 2, 1), plot_height);
  return TRUE;
}

gboolean
ps_counter_chart_compute_layout (PsCounterChart *self,
                                 Layout         *layout)
{
  return compute_layout_at_size (self, gtk_widget_get_width (GTK_WIDGET (self)),
                                 gtk_widget_get_height (GTK_WIDGET (self)), layout);
}

static double
y_of (const Layout *layout,
      double        shown)
{
  return layout->plot.origin.y + layout->plot.size.height
         - (shown - layout->y_low) / (layout->y_high - layout->y_low) * layout->plot.size.height;
}

/* Drawing */

static void
draw_axes (PsCounterChart *self,
           cairo_t        *cr,
           const Layout   *layout,
           const GdkRGBA  *foreground)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double bottom = layout->plot.origin.y + layout->plot.size.height;
  double right = layout->plot.origin.x + layout->plot.size.width;
  double x_step = ps_chart_time_axis_step ((double)(layout->x_end - layout->x_begin), layout->plot.size.width,
                                           self->sequence_axis);
  double last_end = -G_MAXDOUBLE;

  /* Horizontal grid with the values, right-aligned left of the plot */
  for (double value = layout->y_low; value <= layout->y_high + layout->y_step * 1e-9; value += layout->y_step)
    {
      g_autofree char *text = ps_chart_format_tick (value, layout->y_step);
      double y = round (y_of (layout, value)) + 0.5;

      ps_chart_set_source (cr, foreground, 0.12);
      cairo_move_to (cr, layout->plot.origin.x, y);
      cairo_line_to (cr, right, y);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      ps_chart_set_source (cr, foreground, 0.75);
      ps_chart_draw_text (widget, cr, text, layout->plot.origin.x - GAP, y, 1, 0.5);
    }

  /* Times below */
  for (double tick = ceil ((double)layout->x_begin / x_step) * x_step; tick <= (double)layout->x_end; tick += x_step)
    {
      double x = round (x_of (layout, tick)) + 0.5;
      g_autofree char *text = ps_timeline_format_position (self->sequence_axis, tick, x_step);
      double text_x;
      int text_width;

      ps_chart_set_source (cr, foreground, 0.3);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + 4);
      cairo_stroke (cr);
      /* Centred on its tick; the first and the last kept within the
       * plot's width rather than past its ends */
      g_object_unref (ps_chart_text_layout (widget, text, &text_width, NULL));
      text_x = MAX (MIN (x - text_width / 2.0, right - text_width), layout->plot.origin.x);
      if (text_x - 4 > last_end)
        {
          ps_chart_set_source (cr, foreground, 0.75);
          last_end = text_x + ps_chart_draw_text (widget, cr, text, text_x, bottom + GAP, 0, 0);
        }
    }

  ps_chart_set_source (cr, foreground, 0.4);
  cairo_rectangle (cr, layout->plot.origin.x, bottom, layout->plot.size.width, 1);
  cairo_fill (cr);
  if (layout->zoomed)
    {
      ps_chart_set_source (cr, foreground, 0.75);
      ps_chart_draw_axis_break (cr, layout->plot.origin.x + 0.5, bottom - 8);
    }
}

static void
draw_series (PsCounterChart *self,
             cairo_t        *cr,
             const Layout   *layout,
             guint           index,
             GArray         *items)
{
  Series *series = g_ptr_array_index (self->series, index);
  const GdkRGBA *color = ps_chart_palette_color (index);
  double x_per_pixel = (double)(layout->x_end - layout->x_begin) / layout->plot.size.width;
  gboolean pen_up = TRUE;
  guint n;

  g_array_set_size (items, 0);
  n = ps_value_lod_query (series->values, layout->x_begin, layout->x_end, x_per_pixel, items);

  /* The band of each column's readings */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (items, PsValueLodItem, i);
      double x0 = x_of (layout, (double)item->x_begin);
      double x1 = x_of (layout, (double)item->x_end);
      double top, bottom;

      if (item->n_points < 2 || isnan (item->min))
        continue;
      top = y_of (layout, item->max * self->scale);
      bottom = y_of (layout, item->min * self->scale);
      cairo_rectangle (cr, floor (x0), top, MAX (x1 - x0, 1), MAX (bottom - top, 1));
    }
  ps_chart_set_source (cr, color, 0.3);
  cairo_fill (cr);

  /* The line, broken where values are missing */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (items, PsValueLodItem, i);

      if (isnan (item->first) || isnan (item->last))
        {
          pen_up = TRUE;
          continue;
        }
      if (pen_up)
        cairo_move_to (cr, x_of (layout, (double)item->x_begin), y_of (layout, item->first * self->scale));
      else
        cairo_line_to (cr, x_of (layout, (double)item->x_begin), y_of (layout, item->first * self->scale));
      cairo_line_to (cr, x_of (layout, (double)item->x_end), y_of (layout, item->last * self->scale));
      pen_up = FALSE;
    }
  ps_chart_set_source (cr, color, 1);
  cairo_set_line_width (cr, index == self->emphasized ? 3.5 : 1.5);
  cairo_stroke (cr);

  /* A reading with no neighbour to join draws no line: a dot */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (items, PsValueLodItem, i);
      gboolean alone_before = i == 0 || isnan (g_array_index (items, PsValueLodItem, i - 1).last);
      gboolean alone_after = i + 1 == n || isnan (g_array_index (items, PsValueLodItem, i + 1).first);
      double x0, x1, y0, y1;

      if (isnan (item->first) || isnan (item->last) || !alone_before || !alone_after)
        continue;
      x0 = x_of (layout, (double)item->x_begin), x1 = x_of (layout, (double)item->x_end);
      y0 = y_of (layout, item->first * self->scale), y1 = y_of (layout, item->last * self->scale);
      if (fabs (x1 - x0) >= 2 * DOT_RADIUS || fabs (y1 - y0) >= 2 * DOT_RADIUS)
        continue;
      cairo_new_sub_path (cr);
      cairo_arc (cr, (x0 + x1) / 2, (y0 + y1) / 2, DOT_RADIUS, 0, 2 * G_PI);
    }
  cairo_fill (cr);
}

/* The pixel of column c of the stacked areas: every STACK_STEP pixels,
 * the last one on the plot's right edge */
static double
stack_column_x (const Layout *layout,
                guint         c)
{
  return MIN (layout->plot.origin.x + c * STACK_STEP, layout->plot.origin.x + layout->plot.size.width);
}

/* A path along the tops of the columns' sums, left to right */
static void
trace_stack_top (PsCounterChart *self,
                 cairo_t        *cr,
                 const Layout   *layout,
                 const double   *sums,
                 guint           n_columns)
{
  for (guint c = 0; c < n_columns; c++)
    {
      double pixel = stack_column_x (layout, c);

      if (c == 0)
        cairo_move_to (cr, pixel, y_of (layout, sums[c] * self->scale));
      else
        cairo_line_to (cr, pixel, y_of (layout, sums[c] * self->scale));
    }
}

/* The areas of the series on top of each other, sampled every STACK_STEP
 * pixels */
static void
draw_stacked (PsCounterChart *self,
              cairo_t        *cr,
              const Layout   *layout)
{
  guint n_columns = (guint)(layout->plot.size.width / STACK_STEP) + 2;
  g_autofree double *below = g_new0 (double, n_columns);
  g_autofree double *above = g_new0 (double, n_columns);

  for (guint s = 0; s < self->series->len; s++)
    {
      Series *series = g_ptr_array_index (self->series, s);
      const GdkRGBA *color = ps_chart_palette_color (s);

      if (series->aggregate)
        continue;
      for (guint c = 0; c < n_columns; c++)
        above[c] = below[c] + ps_counter_chart_stacked_value_at (series, x_at (layout, stack_column_x (layout, c)));

      /* The area between the sums below and with this series */
      trace_stack_top (self, cr, layout, above, n_columns);
      for (guint c = n_columns; c-- > 0;)
        cairo_line_to (cr, stack_column_x (layout, c), y_of (layout, below[c] * self->scale));
      cairo_close_path (cr);
      ps_chart_set_source (cr, color, 0.6);
      cairo_fill (cr);

      /* Its top edge */
      trace_stack_top (self, cr, layout, above, n_columns);
      ps_chart_set_source (cr, color, 1);
      cairo_set_line_width (cr, s == self->emphasized ? 3.5 : 1.5);
      cairo_stroke (cr);

      memcpy (below, above, n_columns * sizeof (double));
    }
}

/* The aggregates of a stacked chart, dashed lines over the stack */
static void
draw_lines_over_stack (PsCounterChart *self,
                       cairo_t        *cr,
                       const Layout   *layout,
                       GArray         *items)
{
  static const double dashes[] = { 6.0, 3.0 };

  for (guint s = 0; s < self->series->len; s++)
    {
      Series *series = g_ptr_array_index (self->series, s);

      if (!series->aggregate)
        continue;
      cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
      draw_series (self, cr, layout, s, items);
      cairo_set_dash (cr, NULL, 0, 0);
    }
}

/* A label that would run past the chart's right edge (a long scope name
 * of an RTL log) loses its middle to "…" there */
static void
draw_legend_label (GtkWidget  *widget,
                   cairo_t    *cr,
                   const char *label,
                   double      x,
                   double      y,
                   double      right)
{
  g_autoptr(PangoLayout) text = NULL;
  int width, height;

  text = ps_chart_text_layout (widget, label, &width, &height);
  if (x + width > right && right > x)
    {
      pango_layout_set_width (text, (int)((right - x) * PANGO_SCALE));
      pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_MIDDLE);
      pango_layout_get_pixel_size (text, NULL, &height);
    }
  cairo_move_to (cr, round (x), round (y - height * 0.5));
  pango_cairo_show_layout (cr, text);
}

static void
draw_legend (PsCounterChart *self,
             cairo_t        *cr,
             const Layout   *layout,
             const GdkRGBA  *foreground)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autofree char *title = chart_title (self, layout);

  for (guint e = 0; e < layout->legend->len; e++)
    {
      const LegendEntry *entry = &g_array_index (layout->legend, LegendEntry, e);
      Series *series = g_ptr_array_index (self->series, entry->series);
      g_autofree char *label = ps_counter_chart_dup_legend_label (self, series);

      ps_chart_set_source (cr, ps_chart_palette_color (entry->series), 1);
      if (ps_counter_chart_is_line_over_stack (self, series))
        {
          /* A dashed line, as drawn over the stack */
          cairo_rectangle (cr, entry->x, entry->y - 1, SWATCH_WIDTH * 0.4, 2);
          cairo_rectangle (cr, entry->x + SWATCH_WIDTH * 0.6, entry->y - 1, SWATCH_WIDTH * 0.4, 2);
        }
      else if (entry->series == self->emphasized)
        cairo_rectangle (cr, entry->x, entry->y - 4, SWATCH_WIDTH, 8);
      else
        cairo_rectangle (cr, entry->x, entry->y - 2, SWATCH_WIDTH, 4);
      cairo_fill (cr);
      ps_chart_set_source (cr, foreground, 0.85);
      draw_legend_label (widget, cr, label, entry->x + SWATCH_WIDTH + 4, entry->y,
                         layout->plot.origin.x + layout->plot.size.width + GAP);
    }
  if (layout->n_more > 0)
    {
      g_autofree char *more = ps_counter_chart_more_text (layout->n_more);

      ps_chart_set_source (cr, foreground, 0.6);
      ps_chart_draw_text (widget, cr, more, layout->more_x, layout->more_y, 0, 0.5);
    }

  ps_chart_set_source (cr, foreground, 1);
  ps_chart_draw_text (widget, cr, title, layout->title_area.origin.x,
                      layout->title_area.origin.y + layout->text_height / 2.0, 0, 0.5);
}

static void
draw_hover (PsCounterChart *self,
            cairo_t        *cr,
            const Layout   *layout,
            const GdkRGBA  *foreground)
{
  double x = self->hover_x;

  if (x < layout->plot.origin.x || x > layout->plot.origin.x + layout->plot.size.width)
    return;
  ps_chart_set_source (cr, foreground, 0.5);
  cairo_rectangle (cr, round (x), layout->plot.origin.y, 1, layout->plot.size.height);
  cairo_fill (cr);
}

/* Draws everything but the read-out's line, which follows the pointer */
static void
draw_chart (PsCounterChart *self,
            cairo_t        *cr,
            int             width,
            int             height,
            Layout         *layout,
            const GdkRGBA  *foreground)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(GArray) items = NULL;

  if (!compute_layout_at_size (self, width, height, layout))
    {
      ps_chart_set_source (cr, foreground, 0.6);
      ps_chart_draw_message (widget, cr, self->empty_text != NULL ? self->empty_text : _("No readings"), width, height);
      return;
    }

  draw_axes (self, cr, layout, foreground);
  items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  cairo_save (cr);
  cairo_rectangle (cr, layout->plot.origin.x, layout->plot.origin.y - 1, layout->plot.size.width, layout->plot.size.height + 2);
  cairo_clip (cr);
  /* The range selected on the timeline, behind the series */
  if (self->has_selection)
    {
      double x0 = x_of (layout, (double)self->selection_begin);
      double x1 = x_of (layout, (double)self->selection_end);

      ps_chart_set_source (cr, foreground, 0.12);
      cairo_rectangle (cr, x0, layout->plot.origin.y, MAX (x1 - x0, 1), layout->plot.size.height);
      cairo_fill (cr);
    }
  /* The series chosen in another view is drawn last, over the others */
  if (ps_counter_chart_is_stacked (self))
    {
      draw_stacked (self, cr, layout);
      draw_lines_over_stack (self, cr, layout, items);
    }
  else
    {
      for (guint i = 0; i < self->series->len; i++)
        if (i != self->emphasized)
          draw_series (self, cr, layout, i, items);
      if (self->emphasized < self->series->len)
        draw_series (self, cr, layout, self->emphasized, items);
    }
  cairo_restore (cr);
  ps_counter_chart_draw_changes (self, cr, layout);
  draw_legend (self, cr, layout, foreground);
}

static void
ps_counter_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  PsCounterChart *self = PS_COUNTER_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA foreground;
  g_auto(Layout) layout = { 0 };
  cairo_t *cr;

  ps_chart_get_foreground (widget, &foreground);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_chart (self, cr, width, height, &layout, &foreground);
  if (layout.legend != NULL)
    draw_hover (self, cr, &layout, &foreground);
  cairo_destroy (cr);
  gtk_widget_snapshot_child (widget, self->zoom_button, snapshot);
}

void
ps_counter_chart_draw_picture (PsCounterChart *self,
                               cairo_t        *cr,
                               int             width,
                               int             height)
{
  GdkRGBA foreground;
  g_auto(Layout) layout = { 0 };

  g_return_if_fail (PS_IS_COUNTER_CHART (self));
  g_return_if_fail (cr != NULL);

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  self->drawing_picture = TRUE;
  draw_chart (self, cr, width, height, &layout, &foreground);
  self->drawing_picture = FALSE;
}

static void
ps_counter_chart_picture_source_draw (PsPictureSource *source,
                                      cairo_t         *cr,
                                      int              width,
                                      int              height)
{
  ps_counter_chart_draw_picture (PS_COUNTER_CHART (source), cr, width, height);
}

static const char *
ps_counter_chart_picture_source_name (PsPictureSource *source)
{
  return "counters";
}

static void
ps_counter_chart_picture_source_init (PsPictureSourceInterface *iface)
{
  iface->draw_picture = ps_counter_chart_picture_source_draw;
  iface->get_picture_name = ps_counter_chart_picture_source_name;
}

/* GObject */

static void
picture_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PsCounterChart *self = PS_COUNTER_CHART (widget);

  ps_picture_export_popup_menu (widget, &self->picture_menu, parameter);
}

static void
ps_counter_chart_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  PsCounterChart *self = PS_COUNTER_CHART (widget);

  int button_width = 0, button_height = 0, text_height = 0;

  if (self->picture_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->picture_menu));
  /* On the title line, left of the title */
  gtk_widget_measure (self->zoom_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &button_width, NULL, NULL);
  gtk_widget_measure (self->zoom_button, GTK_ORIENTATION_VERTICAL, -1, NULL, &button_height, NULL, NULL);
  g_object_unref (ps_chart_text_layout (widget, "0", NULL, &text_height));
  gtk_widget_allocate (self->zoom_button, MIN (button_width, width), MIN (button_height, height), -1,
                       gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (GAP, MAX (GAP + text_height / 2.0 - button_height / 2.0, 0))));
}

static void
zoom_toggled_cb (PsCounterChart *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOMED]);
}

static void
ps_counter_chart_dispose (GObject *object)
{
  PsCounterChart *self = PS_COUNTER_CHART (object);

  g_clear_pointer (&self->picture_menu, gtk_widget_unparent);
  g_clear_pointer (&self->zoom_button, gtk_widget_unparent);

  G_OBJECT_CLASS (ps_counter_chart_parent_class)->dispose (object);
}

static void
ps_counter_chart_finalize (GObject *object)
{
  PsCounterChart *self = PS_COUNTER_CHART (object);

  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_free (self->title);
  g_free (self->empty_text);
  g_free (self->unit);

  G_OBJECT_CLASS (ps_counter_chart_parent_class)->finalize (object);
}

static void
ps_counter_chart_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PsCounterChart *self = PS_COUNTER_CHART (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STACKED:
      g_value_set_boolean (value, self->stacked);
      break;
    case PROP_ZOOMED:
      g_value_set_boolean (value, ps_counter_chart_get_zoomed (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_counter_chart_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PsCounterChart *self = PS_COUNTER_CHART (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      ps_counter_chart_set_title (self, g_value_get_string (value));
      break;
    case PROP_STACKED:
      ps_counter_chart_set_stacked (self, g_value_get_boolean (value));
      break;
    case PROP_ZOOMED:
      ps_counter_chart_set_zoomed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A chart made and filled before it was put in a window (a counter view
 * makes them so) says it has values once there, where a run compared
 * with another finds it to share its scale */
static void
ps_counter_chart_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ps_counter_chart_parent_class)->root (widget);
  g_signal_emit (widget, signals[VALUE_RANGE_CHANGED], 0);
}

static void
ps_counter_chart_class_init (PsCounterChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_counter_chart_dispose;
  object_class->finalize = ps_counter_chart_finalize;
  object_class->get_property = ps_counter_chart_get_property;
  object_class->set_property = ps_counter_chart_set_property;

  widget_class->snapshot = ps_counter_chart_snapshot;
  ps_chart_class_set_size (widget_class, 240, 600, 140, 220);
  widget_class->size_allocate = ps_counter_chart_size_allocate;
  widget_class->query_tooltip = ps_counter_chart_query_tooltip;
  widget_class->root = ps_counter_chart_root;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STACKED] =
    g_param_spec_boolean ("stacked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The value axis spans the data's range rather than starting at 0 */
  properties[PROP_ZOOMED] =
    g_param_spec_boolean ("zoomed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PsCounterChart::value-range-changed:
   *
   * The chart has other values (ps_counter_chart_get_value_range ()), or
   * was put in a window.
   */
  signals[VALUE_RANGE_CHANGED] =
    g_signal_new ("value-range-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "chart.move", "d", ps_counter_chart_move_action);
  gtk_widget_class_install_action (widget_class, "chart.hide-readout", NULL, ps_counter_chart_hide_readout_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "chart.move", "d", -1.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "chart.move", "d", 1.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK, "chart.move", "d", -20.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK, "chart.move", "d", 20.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "chart.move", "d", -1e6);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_End, 0, "chart.move", "d", 1e6);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "chart.hide-readout", NULL);
  ps_picture_export_install_action (widget_class);
  ps_picture_export_install_menu (widget_class, picture_menu_action);
  gtk_widget_class_set_css_name (widget_class, "counterchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ps_counter_chart_init (PsCounterChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->series = g_ptr_array_new_with_free_func (series_free);
  self->scale = 1;
  self->hover_x = -1;
  self->emphasized = G_MAXUINT;
  g_signal_connect_swapped (motion, "enter", G_CALLBACK (ps_counter_chart_motion_cb), self);
  g_signal_connect_swapped (motion, "motion", G_CALLBACK (ps_counter_chart_motion_cb), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (ps_counter_chart_leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  ps_picture_export_add_context_click (GTK_WIDGET (self));
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  self->zoom_button = ps_chart_zoom_button_new (GTK_WIDGET (self));
  gtk_widget_set_visible (self->zoom_button, FALSE);
  g_signal_connect_swapped (self->zoom_button, "toggled", G_CALLBACK (zoom_toggled_cb), self);
  ps_counter_chart_update_accessible (self);
}

GtkWidget *
ps_counter_chart_new (void)
{
  return g_object_new (PS_TYPE_COUNTER_CHART, NULL);
}

const char *
ps_counter_chart_get_title (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  return self->title;
}

void
ps_counter_chart_set_title (PsCounterChart *self,
                            const char     *title)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

void
ps_counter_chart_set_empty_text (PsCounterChart *self,
                                 const char     *text)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  if (g_strcmp0 (self->empty_text, text) == 0)
    return;
  g_free (self->empty_text);
  self->empty_text = g_strdup (text);
  if (self->series->len == 0)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_counter_chart_set_unit (PsCounterChart *self,
                           const char     *unit,
                           double          scale)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  g_free (self->unit);
  self->unit = g_strdup (unit);
  self->scale = scale > 0 ? scale : 1;
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_counter_chart_set_sequence_axis (PsCounterChart *self,
                                    gboolean        sequence)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  self->sequence_axis = sequence;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_counter_chart_clear (PsCounterChart *self)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  g_ptr_array_set_size (self->series, 0);
  gtk_widget_set_visible (self->zoom_button, FALSE);
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VALUE_RANGE_CHANGED], 0);
}

guint
ps_counter_chart_add_series (PsCounterChart *self,
                             const char     *label,
                             PsValueLod     *values)
{
  return ps_counter_chart_add_series_full (self, label, values, NULL, NULL, NULL);
}

guint
ps_counter_chart_add_series_full (PsCounterChart          *self,
                                  const char              *label,
                                  PsValueLod              *values,
                                  PsCounterChartDetailFunc detail_func,
                                  gpointer                 user_data,
                                  GDestroyNotify           destroy)
{
  Series *series;

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), 0);
  g_return_val_if_fail (values != NULL, 0);

  series = g_new0 (Series, 1);
  series->label = g_strdup (label);
  series->values = ps_value_lod_ref (values);
  series->detail_func = detail_func;
  series->detail_data = user_data;
  series->detail_destroy = destroy;
  g_ptr_array_add (self->series, series);
  gtk_widget_set_visible (self->zoom_button, TRUE);
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VALUE_RANGE_CHANGED], 0);
  return self->series->len - 1;
}

gboolean
ps_counter_chart_get_value_range (PsCounterChart *self,
                                  double         *min,
                                  double         *max)
{
  gint64 x_min, x_max;

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);

  if (!data_range (self, &x_min, &x_max, min, max))
    return FALSE;
  if (ps_counter_chart_is_stacked (self))
    stacked_range (self, x_min, x_max, min, max);
  return TRUE;
}

void
ps_counter_chart_set_shared_range (PsCounterChart *self,
                                   gboolean        shared,
                                   double          min,
                                   double          max)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  if (ps_chart_shared_range_set (&self->shared_range, shared, min, max))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ps_counter_chart_get_n_series (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), 0);

  return self->series->len;
}

void
ps_counter_chart_set_x_range (PsCounterChart *self,
                              gint64          begin,
                              gint64          end)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  self->x_begin = begin;
  self->x_end = end;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_counter_chart_get_color (PsCounterChart *self,
                            guint           series,
                            GdkRGBA        *color)
{
  *color = *ps_chart_palette_color (series);
}

/* The layout as drawn, for the getters below; FALSE before there is data */
static gboolean
get_layout (PsCounterChart *self,
            Layout         *layout)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);

  return ps_counter_chart_compute_layout (self, layout);
}

gboolean
ps_counter_chart_get_plot (PsCounterChart  *self,
                           graphene_rect_t *plot)
{
  g_auto(Layout) layout = { 0 };

  if (!get_layout (self, &layout))
    return FALSE;
  *plot = layout.plot;
  return TRUE;
}

gboolean
ps_counter_chart_get_axes (PsCounterChart *self,
                           gint64         *x_begin,
                           gint64         *x_end,
                           double         *y_low,
                           double         *y_high)
{
  g_auto(Layout) layout = { 0 };

  if (!get_layout (self, &layout))
    return FALSE;
  *x_begin = layout.x_begin;
  *x_end = layout.x_end;
  *y_low = layout.y_low;
  *y_high = layout.y_high;
  return TRUE;
}

gboolean
ps_counter_chart_get_legend_area (PsCounterChart  *self,
                                  graphene_rect_t *title,
                                  graphene_rect_t *legend,
                                  guint           *n_shown)
{
  g_auto(Layout) layout = { 0 };

  if (!get_layout (self, &layout))
    return FALSE;
  if (title != NULL)
    *title = layout.title_area;
  if (legend != NULL)
    *legend = layout.legend_area;
  if (n_shown != NULL)
    *n_shown = layout.legend->len;
  return TRUE;
}

gboolean
ps_counter_chart_get_stacked (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);

  return self->stacked;
}

void
ps_counter_chart_set_stacked (PsCounterChart *self,
                              gboolean        stacked)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  stacked = !!stacked;
  if (self->stacked == stacked)
    return;
  self->stacked = stacked;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STACKED]);
  /* Summed, the series reach higher */
  g_signal_emit (self, signals[VALUE_RANGE_CHANGED], 0);
}

void
ps_counter_chart_set_series_aggregate (PsCounterChart *self,
                                       guint           series,
                                       gboolean        aggregate)
{
  Series *found;

  g_return_if_fail (PS_IS_COUNTER_CHART (self));
  g_return_if_fail (series < self->series->len);

  found = g_ptr_array_index (self->series, series);
  if (found->aggregate == !!aggregate)
    return;
  found->aggregate = !!aggregate;
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* Left out of the stack, the sums are lower */
  g_signal_emit (self, signals[VALUE_RANGE_CHANGED], 0);
}

gboolean
ps_counter_chart_get_series_aggregate (PsCounterChart *self,
                                       guint           series)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);
  g_return_val_if_fail (series < self->series->len, FALSE);

  return ((Series *) g_ptr_array_index (self->series, series))->aggregate;
}

void
ps_counter_chart_set_emphasized (PsCounterChart *self,
                                 guint           series)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  if (self->emphasized == series)
    return;
  self->emphasized = series;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ps_counter_chart_get_emphasized (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), G_MAXUINT);

  return self->emphasized;
}

void
ps_counter_chart_set_selection (PsCounterChart *self,
                                gboolean        has_selection,
                                gint64          begin,
                                gint64          end)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  if (self->has_selection == has_selection
      && (!has_selection || (self->selection_begin == begin && self->selection_end == end)))
    return;
  self->has_selection = has_selection;
  self->selection_begin = begin;
  self->selection_end = end;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
ps_counter_chart_get_selection (PsCounterChart *self,
                                gint64         *begin,
                                gint64         *end)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);

  if (begin != NULL)
    *begin = self->selection_begin;
  if (end != NULL)
    *end = self->selection_end;
  return self->has_selection;
}

gboolean
ps_counter_chart_get_zoomed (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);

  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->zoom_button));
}

void
ps_counter_chart_set_zoomed (PsCounterChart *self,
                             gboolean        zoomed)
{
  g_return_if_fail (PS_IS_COUNTER_CHART (self));

  /* The button's "toggled" redraws and notifies */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->zoom_button), zoomed);
}

GtkWidget *
ps_counter_chart_get_zoom_button (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  return self->zoom_button;
}

const char *
ps_counter_chart_get_axis_note (PsCounterChart *self)
{
  g_auto(Layout) layout = { 0 };

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  if (!ps_counter_chart_compute_layout (self, &layout) || !layout.zoomed)
    return NULL;
  return ps_chart_zoomed_note ();
}
