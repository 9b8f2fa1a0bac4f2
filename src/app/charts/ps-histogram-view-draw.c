/* ps-histogram-view-draw.c — how the histogram looks: the units of its
 * axes, the geometry of the plot and the drawing of the bars, the ticks,
 * the percentile marks, the overlay and the picture
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the widget (ps-histogram-view.c) because drawing only reads
 * the histogram and the settings, in one pass over at most
 * PS_HISTOGRAM_MAX_AUTO_BINS bars; GTK keeps the render node until
 * something changes, so there is no cache of our own. The tests' look at
 * the plot's geometry is here too.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-histogram-view-private.h"
#include "ps-chart-util.h"
#include "ps-view-util.h"

#define AXIS_GAP 4.0
#define MIN_TICK_SPACING 70.0
/* A log axis' ticks crowd towards its right end: the closest pair at
 * least this far apart, and labels at least LABEL_GAP */
#define MIN_LOG_TICK_SPACING 45.0
#define LABEL_GAP 8.0

/* Bars, the median and p95 take the chart kit's blue, orange and red; a
 * selected bar is a darker blue (5), the other run's overlay a darker
 * purple, readable on light and dark backgrounds too */
static const GdkRGBA selected_color = { 0.102, 0.373, 0.706, 1.0 }; /* blue 5 */
static const GdkRGBA overlay_color = { 0.506, 0.239, 0.612, 1.0 };  /* purple 3 */

/* Units */

/* The unit durations around magnitude seconds are shown in */
static void
pick_time_unit (double       magnitude,
                double      *scale,
                const char **suffix)
{
  magnitude = fabs (magnitude);
  if (magnitude >= 1 || magnitude == 0)
    *scale = 1, *suffix = "s";
  else if (magnitude >= 1e-3)
    *scale = 1e-3, *suffix = "ms";
  else if (magnitude >= 1e-6)
    *scale = 1e-6, *suffix = "µs";
  else
    *scale = 1e-9, *suffix = "ns";
}

gboolean
ps_histogram_view_is_time (PsHistogramView *self)
{
  return self->unit == NULL || g_strcmp0 (self->unit, "s") == 0;
}

/* The unit values around magnitude are shown in: times and bytes scaled
 * to fit, other units as they are ("" for plain numbers) */
static void
pick_unit (PsHistogramView *self,
           double           magnitude,
           double          *scale,
           const char     **suffix)
{
  magnitude = fabs (magnitude);
  if (ps_histogram_view_is_time (self))
    pick_time_unit (magnitude, scale, suffix);
  else if (g_strcmp0 (self->unit, "bytes") == 0)
    *suffix = ps_view_quantity_unit (PS_VIEW_QUANTITY_BYTES, magnitude, scale);
  else if (g_strcmp0 (self->unit, "percent") == 0)
    *scale = 1, *suffix = "%";
  else
    *scale = 1, *suffix = self->unit;
}

/* "12.50 ms", "850 µs", "2.01 s", "9.60 MiB", "61.20 %": by the one rule
 * for digits (ps-view-util.h) */
char *
ps_histogram_view_format_value (PsHistogramView *self,
                                double           value)
{
  double scale;
  const char *suffix;
  g_autofree char *number = NULL;

  pick_unit (self, value, &scale, &suffix);
  number = ps_view_format_number (value / scale);
  if (suffix[0] == '\0')
    return g_steal_pointer (&number);
  return g_strdup_printf ("%s %s", number, suffix);
}

/* Geometry */

static double
bin_value (PsHistogramView      *self,
           const PsHistogramBin *bin)
{
  return self->by_total ? bin->total : (double)bin->count;
}

static double
axis_of (PsHistogramView *self,
         double           seconds)
{
  return self->log_scale ? log10 (seconds) : seconds;
}

static double
x_of (const Layout *layout,
      double        axis)
{
  return layout->plot.origin.x
         + (axis - layout->x_low) / (layout->x_high - layout->x_low) * layout->plot.size.width;
}

static double
y_of (const Layout *layout,
      double        value)
{
  double bottom = layout->plot.origin.y + layout->plot.size.height;

  return bottom - value / layout->y_top * layout->plot.size.height;
}

static void
measure_text (PsHistogramView *self,
              const char      *text,
              int             *width,
              int             *height)
{
  g_autoptr(PangoLayout) layout = ps_chart_text_layout (GTK_WIDGET (self), text, width, height);
}

static char *
y_title (PsHistogramView *self,
         const Layout    *layout)
{
  if (!self->by_total)
    /* Translators: the y axis of a histogram */
    return g_strdup (_("count"));
  if (ps_histogram_view_is_time (self))
    /* Translators: the y axis of a histogram by total time; %s is a unit, "ms" */
    return g_strdup_printf (_("total time (%s)"), layout->y_unit);
  if (layout->y_unit[0] == '\0')
    /* Translators: the y axis of a histogram by total, of plain numbers */
    return g_strdup (_("total"));
  /* Translators: the y axis of a histogram by total; %s is a unit, "MiB" */
  return g_strdup_printf (_("total (%s)"), layout->y_unit);
}

/* The x axis' title, naming its unit */
static char *
x_title (PsHistogramView *self,
         const Layout    *layout)
{
  if (ps_histogram_view_is_time (self))
    return self->log_scale
           /* Translators: the x axis of a histogram on a logarithmic
            * scale, whose labels each have their unit ("500 µs", "2 ms") */
           ? g_strdup (_("duration (logarithmic)"))
           /* Translators: the x axis of a histogram; %s is a unit, "ms" */
           : g_strdup_printf (_("duration (%s)"), layout->x_unit);
  if (layout->x_unit[0] == '\0')
    return self->log_scale
           /* Translators: the x axis of a histogram of plain numbers */
           ? g_strdup (_("value (logarithmic)"))
           /* Translators: the x axis of a histogram of plain numbers */
           : g_strdup (_("value"));
  return self->log_scale
         /* Translators: the x axis of a histogram; %s is a unit, "%" or "MiB" */
         ? g_strdup_printf (_("value (%s, logarithmic)"), layout->x_unit)
         /* Translators: the x axis of a histogram; %s is a unit, "%" or "MiB" */
         : g_strdup_printf (_("value (%s)"), layout->x_unit);
}

static char *
y_tick_text (PsHistogramView *self,
             const Layout    *layout,
             double           value)
{
  if (!self->by_total)
    return ps_chart_format_tick (value, layout->y_step);
  return ps_chart_format_tick (value / layout->y_unit_scale, layout->y_step / layout->y_unit_scale);
}

gboolean
ps_histogram_view_compute_layout (PsHistogramView *self,
                                  int              width,
                                  int              height,
                                  Layout          *layout)
{
  const PsHistogram *histogram = self->histogram;
  double max_value = 0;
  double left, top, bottom, right;
  int text_width, text_height;
  int widest = 0;

  if (histogram == NULL || histogram->n_bins == 0)
    return FALSE;

  measure_text (self, "0", &text_width, &text_height);
  layout->text_height = text_height;

  /* x: the bins' range, in a unit fitting its top */
  layout->x_low = axis_of (self, histogram->bins[0].lower);
  layout->x_high = axis_of (self, histogram->bins[histogram->n_bins - 1].upper);
  pick_unit (self, MAX (fabs (histogram->bins[0].lower), fabs (histogram->bins[histogram->n_bins - 1].upper)),
             &layout->x_unit_scale, &layout->x_unit);

  /* y: from 0 to a round number above the highest bar */
  for (guint i = 0; i < histogram->n_bins; i++)
    max_value = MAX (max_value, bin_value (self, &histogram->bins[i]));
  if (self->overlay != NULL)
    for (guint i = 0; i < self->overlay->n_bins; i++)
      max_value = MAX (max_value, bin_value (self, &self->overlay->bins[i]));
  if (self->by_total)
    pick_unit (self, max_value, &layout->y_unit_scale, &layout->y_unit);
  else
    layout->y_unit_scale = 1, layout->y_unit = NULL;
  if (max_value <= 0)
    max_value = self->by_total ? layout->y_unit_scale : 1;
  layout->y_step = ps_chart_nice_step (max_value, 4);
  if (!self->by_total)
    layout->y_step = MAX (layout->y_step, 1);
  layout->y_top = ceil (max_value / layout->y_step - 1e-9) * layout->y_step;

  for (double value = 0; value <= layout->y_top * (1 + 1e-9); value += layout->y_step)
    {
      g_autofree char *text = y_tick_text (self, layout, value);

      measure_text (self, text, &text_width, NULL);
      widest = MAX (widest, text_width);
    }

  /* Left: the rotated y title and the tick labels; top: the median and
   * p95 labels; bottom: the tick labels and the x title */
  left = 6 + text_height + AXIS_GAP + widest + AXIS_GAP + 4;
  top = text_height + 2 * AXIS_GAP;
  bottom = 4 + text_height + AXIS_GAP + text_height + 4;
  right = 16;

  layout->plot = GRAPHENE_RECT_INIT (left, top, MAX (width - left - right, 1), MAX (height - top - bottom, 1));
  return TRUE;
}

/* The bin under x, clamped to the bins; -1 without bins */
int
ps_histogram_view_bin_at_x (PsHistogramView *self,
                            double           x)
{
  Layout layout;
  double axis, seconds;
  int bin;

  if (!ps_histogram_view_compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)),
                                         gtk_widget_get_height (GTK_WIDGET (self)), &layout))
    return -1;

  axis = layout.x_low + (x - layout.plot.origin.x) / layout.plot.size.width * (layout.x_high - layout.x_low);
  axis = CLAMP (axis, layout.x_low, layout.x_high);
  seconds = self->log_scale ? pow (10, axis) : axis;
  seconds = CLAMP (seconds, self->histogram->bins[0].lower,
                   self->histogram->bins[self->histogram->n_bins - 1].upper);
  bin = ps_histogram_bin_of (self->histogram, seconds);
  if (bin < 0)
    bin = x < layout.plot.origin.x + layout.plot.size.width / 2 ? 0 : (int)self->histogram->n_bins - 1;
  return bin;
}

/* Ticks of the x axis */

static void
clear_tick (gpointer data)
{
  PsHistogramTick *tick = data;

  g_free (tick->text);
}

/* The label of a tick at value (in the axis' unit), a multiple of step:
 * on a logarithmic axis of durations, which can span from nanoseconds to
 * seconds, each label has its own unit ("500 µs", "2 ms"); otherwise a
 * number in the unit the axis' title names */
static char *
tick_text (PsHistogramView *self,
           const Layout    *layout,
           double           value,
           double           step)
{
  double seconds, scale;
  const char *suffix;
  g_autofree char *number = NULL;

  if (!self->log_scale || !ps_histogram_view_is_time (self))
    return ps_chart_format_tick (value, step);
  seconds = value * layout->x_unit_scale;
  /* 1000 µs computed as 0.000999… is 1 ms */
  pick_time_unit (seconds * (1 + 1e-9), &scale, &suffix);
  number = ps_chart_format_tick (seconds / scale, step * layout->x_unit_scale / scale);
  return g_strdup_printf ("%s %s", number, suffix);
}

/* A tick at value (in the axis' unit) with its label centred under it,
 * the first and the last kept within the plot's width rather than past
 * its ends */
static void
append_tick (PsHistogramView *self,
             const Layout    *layout,
             GArray          *ticks,
             double           value,
             double           step)
{
  double left = layout->plot.origin.x;
  double right = left + layout->plot.size.width;
  PsHistogramTick tick;

  tick.value = value * layout->x_unit_scale;
  tick.x = round (x_of (layout, axis_of (self, tick.value))) + 0.5;
  tick.text = tick_text (self, layout, value, step);
  measure_text (self, tick.text, &tick.text_width, NULL);
  tick.text_x = MAX (MIN (tick.x - tick.text_width / 2.0, right - tick.text_width), left);
  g_array_append_val (ticks, tick);
}

/* Whether every label of ticks stands clear of the one before, and the
 * ticks are at least min_spacing apart */
static gboolean
ticks_fit (GArray *ticks,
           double  min_spacing)
{
  for (guint i = 1; i < ticks->len; i++)
    {
      const PsHistogramTick *before = &g_array_index (ticks, PsHistogramTick, i - 1);
      const PsHistogramTick *tick = &g_array_index (ticks, PsHistogramTick, i);

      if (tick->x - before->x < min_spacing || tick->text_x < before->text_x + before->text_width + LABEL_GAP)
        return FALSE;
    }
  return TRUE;
}

/* The ticks of a log axis between low and high (in the axis' unit) in the
 * decade from 10^decade, at one of its densities, sparsest first: level 0
 * to 3 a power of ten every 10, 5, 2 or 1 decades; 4: 1, 2 and 5; 5 on:
 * every multiple of 1, 0.5, 0.2, 0.1, 0.05… × 10^decade, as a linear axis
 * would have them, which a range under a decade needs to show more than
 * one label. FALSE when there would be more than max_count. */
static gboolean
append_log_ticks (PsHistogramView *self,
                  const Layout    *layout,
                  int              decade,
                  guint            level,
                  double           low,
                  double           high,
                  guint            max_count,
                  GArray          *ticks)
{
  double power = pow (10, decade);

  if (level < 4)
    {
      static const int every[] = { 10, 5, 2, 1 };

      if (decade % every[level] == 0 && power >= low * (1 - 1e-9) && power <= high * (1 + 1e-9))
        append_tick (self, layout, ticks, power, power);
    }
  else if (level == 4)
    {
      static const double multiples[] = { 1, 2, 5 };

      for (guint m = 0; m < G_N_ELEMENTS (multiples); m++)
        if (multiples[m] * power >= low * (1 - 1e-9) && multiples[m] * power <= high * (1 + 1e-9))
          append_tick (self, layout, ticks, multiples[m] * power, power);
    }
  else
    {
      static const double fractions[] = { 1, 0.5, 0.2 };
      double step = fractions[(level - 5) % 3] * pow (10, -(int)((level - 5) / 3)) * power;
      double from = MAX (low, power);
      double to = MIN (high * (1 + 1e-9), 10 * power * (1 - 1e-9));

      for (double k = ceil (from / step - 1e-9); k * step <= to; k++)
        {
          if (ticks->len >= max_count)
            return FALSE;
          append_tick (self, layout, ticks, k * step, step);
        }
    }
  return ticks->len <= max_count;
}

#define N_LOG_LEVELS (5 + 3 * 12)

/* The ticks of a log axis with each decade's own density (levels[0] for
 * the first decade), if their labels stand clear of each other */
static GArray *
fitting_log_ticks (PsHistogramView *self,
                   const Layout    *layout,
                   const guint     *levels,
                   int              first_decade,
                   int              last_decade,
                   double           low,
                   double           high,
                   guint            max_count,
                   gboolean        *fits)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (PsHistogramTick));

  g_array_set_clear_func (ticks, clear_tick);
  *fits = TRUE;
  for (int decade = first_decade; decade <= last_decade && *fits; decade++)
    *fits = append_log_ticks (self, layout, decade, levels[decade - first_decade], low, high, max_count, ticks);
  *fits = *fits && ticks_fit (ticks, MIN_LOG_TICK_SPACING);
  return ticks;
}

/* The densest ticks of a log axis whose labels stand clear of each other:
 * decades over a wide range, 1-2-5 or steps within a decade over a narrow
 * one. The ticks crowd towards each decade's end, so where one decade has
 * room for finer steps than the others (the wider part of a range over
 * 75 to 180 ms: 80, 90, 100, 120, 140…), it has them. */
static GArray *
log_ticks (PsHistogramView *self,
           const Layout    *layout)
{
  double low = pow (10, layout->x_low) / layout->x_unit_scale;
  double high = pow (10, layout->x_high) / layout->x_unit_scale;
  guint max_count = (guint)(layout->plot.size.width / MIN_LOG_TICK_SPACING) + 2;
  int first_decade = (int)floor (log10 (low) + 1e-9);
  int last_decade = (int)floor (log10 (high) + 1e-9);
  guint n_decades = (guint)(last_decade - first_decade + 1);
  g_autofree guint *levels = g_new0 (guint, n_decades);
  GArray *ticks = NULL;
  guint level;

  for (level = 0; level < N_LOG_LEVELS; level++)
    {
      GArray *candidate;
      gboolean fits;

      for (guint i = 0; i < n_decades; i++)
        levels[i] = level;
      candidate = fitting_log_ticks (self, layout, levels, first_decade, last_decade, low, high, max_count, &fits);
      /* When not even the sparsest fits, the labels in the way are left
       * out by the caller */
      if (!fits && level > 0)
        {
          g_array_unref (candidate);
          break;
        }
      g_clear_pointer (&ticks, g_array_unref);
      ticks = candidate;
      if (!fits)
        return ticks;
    }
  level = level > 0 ? level - 1 : 0;
  for (guint i = 0; i < n_decades; i++)
    levels[i] = level;

  if (level < 5)
    return ticks;
  for (guint i = 0; i < n_decades; i++)
    while (levels[i] + 1 < N_LOG_LEVELS)
      {
        GArray *candidate;
        gboolean fits;

        levels[i]++;
        candidate = fitting_log_ticks (self, layout, levels, first_decade, last_decade, low, high, max_count, &fits);
        if (!fits)
          {
            levels[i]--;
            g_array_unref (candidate);
            break;
          }
        g_array_unref (ticks);
        ticks = candidate;
      }
  return ticks;
}

GArray *
ps_histogram_view_compute_x_ticks (PsHistogramView *self,
                                   const Layout    *layout)
{
  g_autoptr(GArray) ticks = NULL;
  double last_label_end = -G_MAXDOUBLE;

  if (self->log_scale)
    ticks = log_ticks (self, layout);
  else
    {
      double low = layout->x_low / layout->x_unit_scale;
      double high = layout->x_high / layout->x_unit_scale;
      double step = ps_chart_axis_step (high - low, layout->plot.size.width, MIN_TICK_SPACING);

      ticks = g_array_new (FALSE, FALSE, sizeof (PsHistogramTick));
      g_array_set_clear_func (ticks, clear_tick);
      for (double tick = ceil (low / step - 1e-9) * step; tick <= high + step * 1e-9; tick += step)
        append_tick (self, layout, ticks, tick, step);
    }

  /* Labels that would run into the previous one are left out */
  for (guint i = 0; i < ticks->len; i++)
    {
      PsHistogramTick *tick = &g_array_index (ticks, PsHistogramTick, i);

      if (tick->text_x < last_label_end + LABEL_GAP)
        g_clear_pointer (&tick->text, g_free);
      else
        last_label_end = tick->text_x + tick->text_width;
    }
  return g_steal_pointer (&ticks);
}

/* Drawing */

static void
draw_x_ticks (PsHistogramView *self,
              cairo_t         *cr,
              const Layout    *layout,
              const GdkRGBA   *foreground)
{
  double bottom = layout->plot.origin.y + layout->plot.size.height;
  g_autoptr(GArray) ticks = ps_histogram_view_compute_x_ticks (self, layout);

  for (guint i = 0; i < ticks->len; i++)
    {
      const PsHistogramTick *tick = &g_array_index (ticks, PsHistogramTick, i);

      ps_chart_set_source (cr, foreground, 0.5);
      cairo_move_to (cr, tick->x, bottom);
      cairo_line_to (cr, tick->x, bottom + AXIS_GAP);
      cairo_stroke (cr);

      if (tick->text == NULL)
        continue;
      ps_chart_set_source (cr, foreground, 0.8);
      ps_chart_draw_text (GTK_WIDGET (self), cr, tick->text, tick->text_x, bottom + AXIS_GAP, 0, 0);
    }
}

static void
draw_y_ticks (PsHistogramView *self,
              cairo_t         *cr,
              const Layout    *layout,
              const GdkRGBA   *foreground)
{
  double left = layout->plot.origin.x;
  double right = left + layout->plot.size.width;

  for (double value = 0; value <= layout->y_top * (1 + 1e-9); value += layout->y_step)
    {
      double y = round (y_of (layout, value)) + 0.5;
      g_autofree char *text = y_tick_text (self, layout, value);

      /* Grid line */
      ps_chart_set_source (cr, foreground, 0.1);
      cairo_move_to (cr, left, y);
      cairo_line_to (cr, right, y);
      cairo_stroke (cr);

      ps_chart_set_source (cr, foreground, 0.8);
      ps_chart_draw_text (GTK_WIDGET (self), cr, text, left - AXIS_GAP, y, 1, 0.5);
    }
}

/* A dashed vertical line at a percentile, labelled above the plot: the
 * median's label to the left of its line and the p95's to the right, so
 * that they do not cover each other; a label that would leave the widget
 * goes to the other side, and one that would run into the label before
 * it (to its left, ending at after_x) moves right. Returns where its label
 * ends, or after_x without one. */
static double
draw_marker (PsHistogramView *self,
             cairo_t         *cr,
             const Layout    *layout,
             int              width,
             double           seconds,
             const char      *name,
             const GdkRGBA   *color,
             gboolean         label_left,
             double           after_x)
{
  static const double dashes[] = { 4, 3 };
  double top = layout->plot.origin.y;
  double bottom = top + layout->plot.size.height;
  g_autofree char *value = NULL;
  g_autofree char *text = NULL;
  int text_width, text_height;
  double x, label_x;

  if (self->log_scale && seconds <= 0)
    return after_x;
  x = x_of (layout, axis_of (self, seconds));
  if (x < layout->plot.origin.x - 0.5 || x > layout->plot.origin.x + layout->plot.size.width + 0.5)
    return after_x;
  x = round (x) + 0.5;

  cairo_save (cr);
  ps_chart_set_source (cr, color, 1);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, x, top - AXIS_GAP);
  cairo_line_to (cr, x, bottom);
  cairo_stroke (cr);
  cairo_restore (cr);

  value = ps_histogram_view_format_value (self, seconds);
  /* Translators: a marker on a histogram, "median 12.5 ms" */
  text = g_strdup_printf (C_("histogram marker", "%s %s"), name, value);
  measure_text (self, text, &text_width, &text_height);

  label_x = label_left ? x - 3 - text_width : x + 3;
  if (label_x < 0)
    label_x = x + 3;
  else if (label_x + text_width > width)
    label_x = x - 3 - text_width;
  label_x = MAX (label_x, after_x + 8);

  ps_chart_set_source (cr, color, 1);
  ps_chart_draw_text (GTK_WIDGET (self), cr, text, label_x, top - AXIS_GAP, 0, 1);
  return label_x + text_width;
}

/* The overlay's bins as a step outline over the bars, and the legend
 * naming both samples at the top right of the plot */
static void
draw_overlay (PsHistogramView *self,
              cairo_t         *cr,
              const Layout    *layout,
              const GdkRGBA   *foreground)
{
  const PsHistogram *overlay = self->overlay;
  double bottom = layout->plot.origin.y + layout->plot.size.height;
  double right = layout->plot.origin.x + layout->plot.size.width;
  double y_text = layout->plot.origin.y + 2;
  const char *labels[2] = { self->bars_label, self->overlay_label };
  const GdkRGBA *colors[2] = { ps_chart_palette_color (PS_CHART_COLOR_BLUE), &overlay_color };
  int widths[2] = { 0, 0 };
  double x;

  cairo_save (cr);
  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  ps_chart_set_source (cr, &overlay_color, 0.95);
  cairo_move_to (cr, x_of (layout, axis_of (self, overlay->bins[0].lower)), bottom);
  for (guint i = 0; i < overlay->n_bins; i++)
    {
      const PsHistogramBin *bin = &overlay->bins[i];
      double y = bin->count > 0 ? MIN (y_of (layout, bin_value (self, bin)), bottom - 1) : bottom;

      cairo_line_to (cr, x_of (layout, axis_of (self, bin->lower)), y);
      cairo_line_to (cr, x_of (layout, axis_of (self, bin->upper)), y);
    }
  cairo_line_to (cr, x_of (layout, axis_of (self, overlay->bins[overlay->n_bins - 1].upper)), bottom);
  cairo_stroke (cr);
  cairo_restore (cr);

  /* Legend: a swatch and a name per sample, right-aligned */
  for (guint i = 0; i < 2; i++)
    if (labels[i] != NULL)
      measure_text (self, labels[i], &widths[i], NULL);
  x = right - 4;
  for (int i = 1; i >= 0; i--)
    {
      double swatch = layout->text_height * 0.7;

      if (labels[i] == NULL)
        continue;
      x -= widths[i];
      ps_chart_set_source (cr, foreground, 0.9);
      ps_chart_draw_text (GTK_WIDGET (self), cr, labels[i], x, y_text, 0, 0);
      x -= swatch + 4;
      ps_chart_set_source (cr, colors[i], 0.9);
      if (i == 1)
        {
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, x + 1, y_text + (layout->text_height - swatch) / 2 + 1, swatch - 2, swatch - 2);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1);
        }
      else
        {
          cairo_rectangle (cr, x, y_text + (layout->text_height - swatch) / 2, swatch, swatch);
          cairo_fill (cr);
        }
      x -= 12;
    }
}

/* A histogram of values on the bins of another one (its stats its own) */
PsHistogram *
ps_histogram_view_histogram_on_bins (const PsHistogram *shape,
                                     const double      *values,
                                     gsize              count)
{
  PsHistogram *histogram = ps_histogram_new (values, NULL, count, shape->scale, 0);

  g_free (histogram->bins);
  histogram->n_bins = shape->n_bins;
  histogram->bins = g_new0 (PsHistogramBin, shape->n_bins);
  for (guint i = 0; i < shape->n_bins; i++)
    {
      histogram->bins[i].lower = shape->bins[i].lower;
      histogram->bins[i].upper = shape->bins[i].upper;
    }
  for (gsize i = 0; i < count; i++)
    {
      int bin = ps_histogram_bin_of (shape, values[i]);

      if (bin < 0)
        continue;
      histogram->bins[bin].count++;
      histogram->bins[bin].weight += 1;
      histogram->bins[bin].total += values[i];
    }
  return histogram;
}

static void
draw_empty (PsHistogramView *self,
            cairo_t         *cr,
            int              width,
            int              height,
            const GdkRGBA   *foreground)
{
  g_autofree char *text = NULL;

  if (self->histogram != NULL && self->histogram->underflow > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%llu value is zero or less: a logarithmic axis cannot show it",
                                         "All %llu values are zero or less: a logarithmic axis cannot show them",
                                         self->histogram->underflow),
                            (unsigned long long) self->histogram->underflow);
  else
    text = g_strdup (ps_histogram_view_get_empty_text (self));

  /* A reason can be a sentence longer than the chart is wide */
  ps_chart_set_source (cr, foreground, 0.55);
  ps_chart_draw_message (GTK_WIDGET (self), cr, text, width, height);
}

void
ps_histogram_view_draw_picture (PsHistogramView *self,
                                cairo_t         *cr,
                                int              width,
                                int              height)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (cr != NULL);

  ps_histogram_view_draw (self, cr, width, height);
}

static void
ps_histogram_view_picture_source_draw (PsPictureSource *source,
                                       cairo_t         *cr,
                                       int              width,
                                       int              height)
{
  ps_histogram_view_draw_picture (PS_HISTOGRAM_VIEW (source), cr, width, height);
}

static const char *
ps_histogram_view_picture_source_name (PsPictureSource *source)
{
  return "histogram";
}

void
ps_histogram_view_picture_source_init (PsPictureSourceInterface *iface)
{
  iface->draw_picture = ps_histogram_view_picture_source_draw;
  iface->get_picture_name = ps_histogram_view_picture_source_name;
}

void
ps_histogram_view_draw (PsHistogramView *self,
                        cairo_t         *cr,
                        int              width,
                        int              height)
{
  const PsHistogram *histogram = self->histogram;
  Layout layout;
  GdkRGBA foreground;
  double bottom, left;
  g_autofree char *x_text = NULL;
  g_autofree char *y_text = NULL;
  int text_width;

  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  cairo_set_line_width (cr, 1);

  if (!ps_histogram_view_compute_layout (self, width, height, &layout))
    {
      draw_empty (self, cr, width, height, &foreground);
      return;
    }
  bottom = layout.plot.origin.y + layout.plot.size.height;
  left = layout.plot.origin.x;

  draw_y_ticks (self, cr, &layout, &foreground);

  /* The selected range behind the bars */
  if (self->has_selection)
    {
      double x0 = x_of (&layout, axis_of (self, histogram->bins[self->selection_first].lower));
      double x1 = x_of (&layout, axis_of (self, histogram->bins[self->selection_last].upper));

      ps_chart_set_source (cr, &selected_color, 0.08);
      cairo_rectangle (cr, x0, layout.plot.origin.y, x1 - x0, layout.plot.size.height);
      cairo_fill (cr);
    }

  /* Bars: a pixel apart when there is room for it */
  for (guint i = 0; i < histogram->n_bins; i++)
    {
      const PsHistogramBin *bin = &histogram->bins[i];
      double x0 = x_of (&layout, axis_of (self, bin->lower));
      double x1 = x_of (&layout, axis_of (self, bin->upper));
      double y = y_of (&layout, bin_value (self, bin));
      gboolean selected = self->has_selection && i >= self->selection_first && i <= self->selection_last;
      double alpha;

      if (bin->count == 0)
        continue;
      if (x1 - x0 >= 4)
        x1 -= 1;
      /* Something to see for a bar of a single value among thousands */
      y = MIN (y, bottom - 1);

      if (selected)
        alpha = 1;
      else if (self->has_selection)
        alpha = 0.35;
      else
        alpha = 0.85;
      if ((int)i == self->hover_bin)
        alpha = MIN (1, alpha + 0.15);
      ps_chart_set_source (cr, selected ? &selected_color : ps_chart_palette_color (PS_CHART_COLOR_BLUE), alpha);
      cairo_rectangle (cr, x0, y, MAX (x1 - x0, 1), bottom - y);
      cairo_fill (cr);
    }

  if (self->overlay != NULL)
    draw_overlay (self, cr, &layout, &foreground);

  /* Axes */
  ps_chart_set_source (cr, &foreground, 0.5);
  cairo_move_to (cr, left - 0.5, layout.plot.origin.y);
  cairo_line_to (cr, left - 0.5, bottom + 0.5);
  cairo_line_to (cr, left + layout.plot.size.width, bottom + 0.5);
  cairo_stroke (cr);
  draw_x_ticks (self, cr, &layout, &foreground);

  {
    double median_end = draw_marker (self, cr, &layout, width, histogram->median,
                                     C_("histogram marker", "median"), ps_chart_palette_color (PS_CHART_COLOR_ORANGE), TRUE, -G_MAXDOUBLE);

    draw_marker (self, cr, &layout, width, histogram->p95,
                 C_("histogram marker", "p95"), ps_chart_palette_color (PS_CHART_COLOR_RED), FALSE, median_end);
  }

  /* Axis titles, with their units */
  ps_chart_set_source (cr, &foreground, 0.8);
  x_text = x_title (self, &layout);
  text_width = ps_chart_draw_text (GTK_WIDGET (self), cr, x_text, left + layout.plot.size.width / 2,
                          height - 4, 0.5, 1);

  y_text = y_title (self, &layout);
  cairo_save (cr);
  cairo_translate (cr, 6, layout.plot.origin.y + layout.plot.size.height / 2);
  cairo_rotate (cr, -G_PI / 2);
  ps_chart_draw_text (GTK_WIDGET (self), cr, y_text, 0, 0, 0.5, 0);
  cairo_restore (cr);

  /* What a log axis leaves out is said, never dropped silently */
  if (histogram->underflow > 0)
    {
      g_autofree char *note = NULL;
      int note_width;

      note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%llu value ≤ 0 not shown",
                                           "%llu values ≤ 0 not shown",
                                           histogram->underflow),
                              (unsigned long long) histogram->underflow);
      measure_text (self, note, &note_width, NULL);
      /* Next to the x title if there is room, else above it at the right */
      ps_chart_set_source (cr, ps_chart_palette_color (PS_CHART_COLOR_RED), 1);
      if (left + note_width + 12 < left + layout.plot.size.width / 2 - text_width / 2.0)
        ps_chart_draw_text (GTK_WIDGET (self), cr, note, left, height - 4, 0, 1);
      else
        ps_chart_draw_text (GTK_WIDGET (self), cr, note, left + layout.plot.size.width, layout.plot.origin.y, 1, 0);
    }

  /* The keyboard's cursor */
  if (self->cursor_bin >= 0 && gtk_widget_has_visible_focus (GTK_WIDGET (self)))
    {
      const PsHistogramBin *bin = &histogram->bins[self->cursor_bin];
      double x0 = x_of (&layout, axis_of (self, bin->lower));
      double x1 = x_of (&layout, axis_of (self, bin->upper));
      static const double dots[] = { 2, 2 };

      cairo_save (cr);
      ps_chart_set_source (cr, &foreground, 0.8);
      cairo_set_dash (cr, dots, G_N_ELEMENTS (dots), 0);
      cairo_rectangle (cr, round (x0) + 0.5, layout.plot.origin.y + 0.5,
                       MAX (round (x1 - x0) - 1, 1), layout.plot.size.height - 1);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
}

void
ps_histogram_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);
  int width, height;
  cairo_t *cr = ps_chart_append_cairo (widget, snapshot, &width, &height);

  if (cr == NULL)
    return;
  ps_histogram_view_draw (self, cr, width, height);
  cairo_destroy (cr);
}

/* Testing API (ps-histogram-view-private.h) */

gboolean
ps_histogram_view_get_plot_area (PsHistogramView *self,
                                 int              width,
                                 int              height,
                                 graphene_rect_t *area)
{
  Layout layout;

  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);

  if (!ps_histogram_view_compute_layout (self, width, height, &layout))
    return FALSE;
  *area = layout.plot;
  return TRUE;
}

char *
ps_histogram_view_dup_axis_title (PsHistogramView *self,
                                  GtkOrientation   orientation)
{
  Layout layout;

  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);

  if (!ps_histogram_view_compute_layout (self, 400, 300, &layout))
    return NULL;
  return orientation == GTK_ORIENTATION_HORIZONTAL ? x_title (self, &layout) : y_title (self, &layout);
}

GArray *
ps_histogram_view_get_x_ticks (PsHistogramView *self,
                               int              width,
                               int              height)
{
  Layout layout;

  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);

  if (!ps_histogram_view_compute_layout (self, width, height, &layout))
    return NULL;
  return ps_histogram_view_compute_x_ticks (self, &layout);
}

double
ps_histogram_view_get_y_top (PsHistogramView *self)
{
  Layout layout;

  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), 0);

  if (!ps_histogram_view_compute_layout (self, 400, 300, &layout))
    return 0;
  return layout.y_top;
}

void
ps_histogram_view_get_bar_color (gboolean  selected,
                                 GdkRGBA  *color)
{
  *color = selected ? selected_color : *ps_chart_palette_color (PS_CHART_COLOR_BLUE);
}
