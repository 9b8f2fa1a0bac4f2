/* ps-histogram-view.c — the distribution of durations (or other values)
 * as a bar chart
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn with cairo in one pass over at most PS_HISTOGRAM_MAX_AUTO_BINS
 * bars; GTK keeps the render node until something changes, so there is no
 * cache of our own. The x axis shows durations in one unit chosen by the
 * range (ns, µs, ms or s) and names it; values of another unit (percent,
 * bytes, a counter's unit) are shown in it, bytes scaled to KiB, MiB or
 * GiB. The y axis shows counts or totals, also named.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-histogram-view-private.h"
#include "ps-chart-util.h"
#include "ps-picture-export.h"
#include "ps-picture-source.h"
#include "ps-view-util.h"

#define AXIS_GAP 4.0
#define MIN_TICK_SPACING 70.0

struct _PsHistogramView
{
  GtkWidget    parent_instance;

  GArray      *values;        /* double, seconds */
  PsHistogram *histogram;     /* NULL without values */
  gboolean     log_scale;
  gboolean     by_total;
  char        *title;
  char        *unit;          /* of the values: NULL or "s" for durations */

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

enum {
  PROP_0,
  PROP_LOG_SCALE,
  PROP_BY_TOTAL,
  PROP_TITLE,
  PROP_UNIT,
  PROP_SELECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_BOXED_TYPE (PsHistogramSelection, ps_histogram_selection,
                     ps_histogram_selection_copy, ps_histogram_selection_free)

static void ps_histogram_view_picture_source_init (PsPictureSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsHistogramView, ps_histogram_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_histogram_view_picture_source_init))

/* Bars, the median and p95 take the chart kit's blue, orange and red; a
 * selected bar is a darker blue (5), the other run's overlay a darker
 * purple, readable on light and dark backgrounds too */
static const GdkRGBA selected_color = { 0.102, 0.373, 0.706, 1.0 }; /* blue 5 */
static const GdkRGBA overlay_color = { 0.506, 0.239, 0.612, 1.0 };  /* purple 3 */

PsHistogramSelection *
ps_histogram_selection_copy (const PsHistogramSelection *self)
{
  return g_memdup2 (self, sizeof *self);
}

void
ps_histogram_selection_free (PsHistogramSelection *self)
{
  g_free (self);
}

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

static gboolean
is_time (PsHistogramView *self)
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
  if (is_time (self))
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
static char *
format_value (PsHistogramView *self,
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
  if (is_time (self))
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
  if (is_time (self))
    return self->log_scale
           /* Translators: the x axis of a histogram; %s is a unit, "ms" */
           ? g_strdup_printf (_("duration (%s, logarithmic)"), layout->x_unit)
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

static gboolean
compute_layout (PsHistogramView *self,
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
static int
bin_at_x (PsHistogramView *self,
          double           x)
{
  Layout layout;
  double axis, seconds;
  int bin;

  if (!compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)),
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

/* Drawing */

static void
draw_x_ticks (PsHistogramView *self,
              cairo_t         *cr,
              const Layout    *layout,
              const GdkRGBA   *foreground)
{
  double bottom = layout->plot.origin.y + layout->plot.size.height;
  double last_label_end = -G_MAXDOUBLE;
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (double));  /* seconds */
  double step;

  if (self->log_scale)
    {
      /* Powers of ten; with few of them, 2× and 5× too */
      int first = (int)floor (layout->x_low);
      int last = (int)ceil (layout->x_high);
      gboolean fine = last - first <= 2;

      for (int power = first; power <= last; power++)
        for (guint m = 0; m < 3; m++)
          {
            static const double multiples[] = { 1, 2, 5 };
            double seconds = multiples[m] * pow (10, power);

            if (m > 0 && !fine)
              continue;
            if (log10 (seconds) >= layout->x_low - 1e-9 && log10 (seconds) <= layout->x_high + 1e-9)
              g_array_append_val (ticks, seconds);
          }
      step = 0;
    }
  else
    {
      double low = layout->x_low / layout->x_unit_scale;
      double high = layout->x_high / layout->x_unit_scale;

      step = ps_chart_axis_step (high - low, layout->plot.size.width, MIN_TICK_SPACING);
      for (double tick = ceil (low / step - 1e-9) * step; tick <= high + step * 1e-9; tick += step)
        {
          double seconds = tick * layout->x_unit_scale;

          g_array_append_val (ticks, seconds);
        }
    }

  for (guint i = 0; i < ticks->len; i++)
    {
      double seconds = g_array_index (ticks, double, i);
      double x = round (x_of (layout, axis_of (self, seconds))) + 0.5;
      g_autofree char *text = NULL;
      int text_width;

      ps_chart_set_source (cr, foreground, 0.5);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + AXIS_GAP);
      cairo_stroke (cr);

      /* %g keeps 0.001 and 200 short on a log axis */
      text = self->log_scale ? g_strdup_printf ("%g", seconds / layout->x_unit_scale)
                             : ps_chart_format_tick (seconds / layout->x_unit_scale, step);
      measure_text (self, text, &text_width, NULL);
      /* Labels that would run into the previous one are left out */
      if (x - text_width / 2.0 < last_label_end + 8)
        continue;
      ps_chart_set_source (cr, foreground, 0.8);
      ps_chart_draw_text (GTK_WIDGET (self), cr, text, x, bottom + AXIS_GAP, 0.5, 0);
      last_label_end = x + text_width / 2.0;
    }

  g_array_unref (ticks);
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

  value = format_value (self, seconds);
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
static PsHistogram *
histogram_on_bins (const PsHistogram *shape,
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
    text = g_strdup (is_time (self) ? _("No durations") : _("No values"));

  ps_chart_set_source (cr, foreground, 0.55);
  ps_chart_draw_text (GTK_WIDGET (self), cr, text, width / 2.0, height / 2.0, 0.5, 0.5);
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

static void
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

  if (!compute_layout (self, width, height, &layout))
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

static void
ps_histogram_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ps_histogram_view_draw (self, cr, width, height);
  cairo_destroy (cr);
}

static void
ps_histogram_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  /* Its height has room for the marks' labels, four bars and both axes */
  ps_chart_measure (orientation, 240, 480, 160, 280, minimum, natural);
}

/* Accessibility */

static void
update_accessible (PsHistogramView *self)
{
  g_autofree char *description = NULL;
  const PsHistogram *histogram = self->histogram;

  if (histogram == NULL || histogram->n_bins == 0)
    description = g_strdup (is_time (self) ? _("No durations") : _("No values"));
  else
    {
      g_autofree char *median = format_value (self, histogram->median);
      g_autofree char *p95 = format_value (self, histogram->p95);
      g_autofree char *selected = NULL;

      if (self->has_selection)
        {
          g_autofree char *lower = format_value (self, histogram->bins[self->selection_first].lower);
          g_autofree char *upper = format_value (self, histogram->bins[self->selection_last].upper);

          /* Translators: the selected range of a histogram, after its description */
          selected = g_strdup_printf (_("; selected from %s to %s"), lower, upper);
        }
      /* Translators: accessible description of a histogram; the last %s
       * is the selection, or nothing */
      description = g_strdup_printf (is_time (self)
                                     ? _("%llu durations in %u bins, median %s, 95th percentile %s%s")
                                     /* Translators: as the description of a histogram of
                                      * durations, for other values */
                                     : _("%llu values in %u bins, median %s, 95th percentile %s%s"),
                                     (unsigned long long) histogram->n_values, histogram->n_bins,
                                     median, p95, selected != NULL ? selected : "");
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->title != NULL ? self->title : _("Histogram of durations"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

/* Selection */

static void
set_selection (PsHistogramView *self,
               gboolean         has_selection,
               guint            first,
               guint            last)
{
  if (self->has_selection == has_selection
      && (!has_selection || (self->selection_first == first && self->selection_last == last)))
    return;

  self->has_selection = has_selection;
  self->selection_first = has_selection ? first : 0;
  self->selection_last = has_selection ? last : 0;
  /* Escape goes on to the window when there is nothing to clear */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.unselect", has_selection);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

/* Selects from the anchor to the cursor */
static void
select_to_cursor (PsHistogramView *self)
{
  int anchor = self->anchor_bin >= 0 ? self->anchor_bin : self->cursor_bin;

  set_selection (self, TRUE, MIN (anchor, self->cursor_bin), MAX (anchor, self->cursor_bin));
}

static void
rebuild (PsHistogramView *self)
{
  PsHistogramScale scale = self->log_scale ? PS_HISTOGRAM_LOG : PS_HISTOGRAM_LINEAR;

  g_clear_pointer (&self->histogram, ps_histogram_free);
  g_clear_pointer (&self->overlay, ps_histogram_free);
  if (self->overlay_values != NULL && self->overlay_values->len > 0)
    {
      /* Both samples on the bins of their union, so that bars compare */
      g_autoptr(GArray) both = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(PsHistogram) shape = NULL;

      if (self->values != NULL)
        g_array_append_vals (both, self->values->data, self->values->len);
      g_array_append_vals (both, self->overlay_values->data, self->overlay_values->len);
      shape = ps_histogram_new ((const double *)both->data, NULL, both->len, scale, 0);
      if (shape->n_bins > 0)
        {
          self->overlay = histogram_on_bins (shape, (const double *)self->overlay_values->data,
                                             self->overlay_values->len);
          self->histogram = histogram_on_bins (shape,
                                               self->values != NULL ? (const double *)self->values->data : NULL,
                                               self->values != NULL ? self->values->len : 0);
        }
    }
  else if (self->values != NULL && self->values->len > 0)
    self->histogram = ps_histogram_new ((const double *)self->values->data, NULL, self->values->len,
                                        scale, 0);

  /* Bins of another layout are other ranges */
  self->anchor_bin = -1;
  self->cursor_bin = -1;
  self->hover_bin = -1;
  set_selection (self, FALSE, 0, 0);
  /* Arrows move the focus on when there are no bins */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.move-cursor",
                                 self->histogram != NULL && self->histogram->n_bins > 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
}

/* Input */

/* "histogram.move-cursor" (delta, extend): moves the cursor by delta bins
 * and selects its bin, or with extend the bins from the anchor to it */
static void
move_cursor_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);
  int delta;
  gboolean extend;
  int n_bins;

  if (self->histogram == NULL || self->histogram->n_bins == 0)
    return;
  n_bins = (int)self->histogram->n_bins;

  g_variant_get (parameter, "(ib)", &delta, &extend);
  if (self->cursor_bin < 0)
    self->cursor_bin = delta > 0 ? 0 : n_bins - 1;
  else
    self->cursor_bin = (int)CLAMP ((gint64)self->cursor_bin + delta, 0, n_bins - 1);

  if (!extend || self->anchor_bin < 0)
    self->anchor_bin = extend && self->has_selection ? (int)self->selection_first : self->cursor_bin;
  select_to_cursor (self);
  gtk_widget_queue_draw (widget);
}

static void
unselect_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);

  self->anchor_bin = -1;
  ps_histogram_view_unselect (self);
}

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               PsHistogramView *self)
{
  int bin = bin_at_x (self, x);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (bin < 0)
    return;
  self->anchor_bin = bin;
  self->cursor_bin = bin;
  select_to_cursor (self);
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           offset_x,
                double           offset_y,
                PsHistogramView *self)
{
  double start_x, start_y;
  int bin;

  if (!gtk_gesture_drag_get_start_point (gesture, &start_x, &start_y))
    return;
  bin = bin_at_x (self, start_x + offset_x);
  if (bin < 0 || bin == self->cursor_bin)
    return;
  self->cursor_bin = bin;
  select_to_cursor (self);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           PsHistogramView          *self)
{
  Layout layout;
  int bin = -1;

  if (compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)),
                      gtk_widget_get_height (GTK_WIDGET (self)), &layout)
      && graphene_rect_contains_point (&layout.plot, &GRAPHENE_POINT_INIT (x, y)))
    bin = bin_at_x (self, x);

  if (bin != self->hover_bin)
    {
      self->hover_bin = bin;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *controller,
          PsHistogramView          *self)
{
  if (self->hover_bin != -1)
    {
      self->hover_bin = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);
  const PsHistogram *histogram = self->histogram;
  const PsHistogramBin *bin;
  Layout layout;
  int index;
  g_autofree char *lower = NULL;
  g_autofree char *upper = NULL;
  g_autofree char *total = NULL;
  g_autofree char *text = NULL;

  if (!compute_layout (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &layout))
    return FALSE;
  if (keyboard_mode)
    index = self->cursor_bin;
  else if (graphene_rect_contains_point (&layout.plot, &GRAPHENE_POINT_INIT (x, y)))
    index = bin_at_x (self, x);
  else
    index = -1;
  if (index < 0)
    return FALSE;

  bin = &histogram->bins[index];
  lower = format_value (self, bin->lower);
  upper = format_value (self, bin->upper);
  total = format_value (self, bin->total);
  text = g_strdup_printf (is_time (self)
                          ? g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: a bar of a histogram: its range, how
                                          * many durations fell in it, of all, and their sum */
                                         "%s to %s%s\n%llu duration (%.2f %%)\nTotal time %s",
                                         "%s to %s%s\n%llu durations (%.2f %%)\nTotal time %s",
                                         bin->count)
                          : g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: a bar of a histogram of values other
                                          * than durations: its range, how many values fell in
                                          * it, of all, and their sum */
                                         "%s to %s%s\n%llu value (%.2f %%)\nTotal %s",
                                         "%s to %s%s\n%llu values (%.2f %%)\nTotal %s",
                                         bin->count),
                          lower, upper,
                          (guint)index == histogram->n_bins - 1 ? _(" (inclusive)") : "",
                          (unsigned long long) bin->count,
                          histogram->n_values > 0 ? 100.0 * (double)bin->count / (double)histogram->n_values : 0.0,
                          total);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ps_histogram_view_state_flags_changed (GtkWidget     *widget,
                                       GtkStateFlags  previous_state)
{
  /* The cursor shows with the focus */
  if ((gtk_widget_get_state_flags (widget) ^ previous_state) & (GTK_STATE_FLAG_FOCUSED | GTK_STATE_FLAG_FOCUS_VISIBLE))
    gtk_widget_queue_draw (widget);

  GTK_WIDGET_CLASS (ps_histogram_view_parent_class)->state_flags_changed (widget, previous_state);
}

static void
ps_histogram_view_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ps_histogram_view_parent_class)->css_changed (widget, change);
  /* Text colour and font */
  gtk_widget_queue_draw (widget);
}

/* GObject */

static void
picture_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);

  ps_picture_export_popup_menu (widget, &self->picture_menu, parameter);
}

static void
ps_histogram_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);

  if (self->picture_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->picture_menu));
}

static void
ps_histogram_view_dispose (GObject *object)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  g_clear_pointer (&self->picture_menu, gtk_widget_unparent);

  G_OBJECT_CLASS (ps_histogram_view_parent_class)->dispose (object);
}

static void
ps_histogram_view_finalize (GObject *object)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  g_clear_pointer (&self->values, g_array_unref);
  g_clear_pointer (&self->histogram, ps_histogram_free);
  g_clear_pointer (&self->overlay_values, g_array_unref);
  g_clear_pointer (&self->overlay, ps_histogram_free);
  g_clear_pointer (&self->bars_label, g_free);
  g_clear_pointer (&self->overlay_label, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->unit, g_free);

  G_OBJECT_CLASS (ps_histogram_view_parent_class)->finalize (object);
}

static void
ps_histogram_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOG_SCALE:
      g_value_set_boolean (value, self->log_scale);
      break;
    case PROP_BY_TOTAL:
      g_value_set_boolean (value, self->by_total);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_UNIT:
      g_value_set_string (value, self->unit);
      break;
    case PROP_SELECTION:
      if (self->has_selection)
        {
          PsHistogramSelection selection = {
            .first_bin = self->selection_first,
            .last_bin = self->selection_last,
            .lower = self->histogram->bins[self->selection_first].lower,
            .upper = self->histogram->bins[self->selection_last].upper,
          };

          g_value_set_boxed (value, &selection);
        }
      else
        g_value_set_boxed (value, NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_histogram_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOG_SCALE:
      ps_histogram_view_set_log_scale (self, g_value_get_boolean (value));
      break;
    case PROP_BY_TOTAL:
      ps_histogram_view_set_by_total (self, g_value_get_boolean (value));
      break;
    case PROP_TITLE:
      ps_histogram_view_set_title (self, g_value_get_string (value));
      break;
    case PROP_UNIT:
      ps_histogram_view_set_unit (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_move_binding (GtkWidgetClass *widget_class,
                  guint           keyval,
                  guint           keypad_keyval,
                  int             delta)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, "histogram.move-cursor", "(ib)", delta, FALSE);
  gtk_widget_class_add_binding_action (widget_class, keyval, GDK_SHIFT_MASK, "histogram.move-cursor", "(ib)", delta, TRUE);
  gtk_widget_class_add_binding_action (widget_class, keypad_keyval, 0, "histogram.move-cursor", "(ib)", delta, FALSE);
  gtk_widget_class_add_binding_action (widget_class, keypad_keyval, GDK_SHIFT_MASK, "histogram.move-cursor", "(ib)", delta, TRUE);
}

static void
ps_histogram_view_class_init (PsHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_histogram_view_dispose;
  object_class->finalize = ps_histogram_view_finalize;
  object_class->get_property = ps_histogram_view_get_property;
  object_class->set_property = ps_histogram_view_set_property;

  widget_class->snapshot = ps_histogram_view_snapshot;
  widget_class->measure = ps_histogram_view_measure;
  widget_class->size_allocate = ps_histogram_view_size_allocate;
  widget_class->state_flags_changed = ps_histogram_view_state_flags_changed;
  widget_class->css_changed = ps_histogram_view_css_changed;

  properties[PROP_LOG_SCALE] =
    g_param_spec_boolean ("log-scale", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BY_TOTAL] =
    g_param_spec_boolean ("by-total", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Of the values: NULL or "s" for durations in seconds, "bytes",
   * "percent", or any other unit, printed as it is ("" for none) */
  properties[PROP_UNIT] =
    g_param_spec_string ("unit", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* NULL when nothing is selected */
  properties[PROP_SELECTION] =
    g_param_spec_boxed ("selection", NULL, NULL, PS_TYPE_HISTOGRAM_SELECTION,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "histogram.move-cursor", "(ib)", move_cursor_action);
  gtk_widget_class_install_action (widget_class, "histogram.unselect", NULL, unselect_action);
  add_move_binding (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, -1);
  add_move_binding (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, 1);
  add_move_binding (widget_class, GDK_KEY_Home, GDK_KEY_KP_Home, -PS_HISTOGRAM_MAX_AUTO_BINS);
  add_move_binding (widget_class, GDK_KEY_End, GDK_KEY_KP_End, PS_HISTOGRAM_MAX_AUTO_BINS);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "histogram.unselect", NULL);
  ps_picture_export_install_action (widget_class);
  ps_picture_export_install_menu (widget_class, picture_menu_action);

  gtk_widget_class_set_css_name (widget_class, "histogramview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ps_histogram_view_init (PsHistogramView *self)
{
  GtkGesture *drag;
  GtkEventController *motion;

  self->anchor_bin = -1;
  self->cursor_bin = -1;
  self->hover_bin = -1;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  ps_picture_export_add_context_click (GTK_WIDGET (self));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.move-cursor", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.unselect", FALSE);

  update_accessible (self);
}

GtkWidget *
ps_histogram_view_new (void)
{
  return g_object_new (PS_TYPE_HISTOGRAM_VIEW, NULL);
}

void
ps_histogram_view_set_values (PsHistogramView *self,
                              const double    *values,
                              gsize            count)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (values != NULL || count == 0);

  g_clear_pointer (&self->values, g_array_unref);
  self->values = g_array_sized_new (FALSE, FALSE, sizeof (double), count);
  g_array_append_vals (self->values, values, count);
  rebuild (self);
}

void
ps_histogram_view_clear (PsHistogramView *self)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  g_clear_pointer (&self->values, g_array_unref);
  g_clear_pointer (&self->overlay_values, g_array_unref);
  rebuild (self);
}

void
ps_histogram_view_set_overlay (PsHistogramView *self,
                               const double    *values,
                               gsize            count,
                               const char      *bars_label,
                               const char      *overlay_label)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (values != NULL || count == 0);

  g_clear_pointer (&self->overlay_values, g_array_unref);
  if (values != NULL)
    {
      self->overlay_values = g_array_sized_new (FALSE, FALSE, sizeof (double), count);
      g_array_append_vals (self->overlay_values, values, count);
    }
  g_free (self->bars_label);
  self->bars_label = g_strdup (bars_label);
  g_free (self->overlay_label);
  self->overlay_label = g_strdup (overlay_label);
  rebuild (self);
}

const PsHistogram *
ps_histogram_view_get_overlay (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->overlay;
}

const PsHistogram *
ps_histogram_view_get_histogram (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->histogram;
}

gboolean
ps_histogram_view_get_log_scale (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->log_scale;
}

void
ps_histogram_view_set_log_scale (PsHistogramView *self,
                                 gboolean         log_scale)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  log_scale = !!log_scale;
  if (self->log_scale == log_scale)
    return;
  self->log_scale = log_scale;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_SCALE]);
}

gboolean
ps_histogram_view_get_by_total (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->by_total;
}

void
ps_histogram_view_set_by_total (PsHistogramView *self,
                                gboolean         by_total)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  by_total = !!by_total;
  if (self->by_total == by_total)
    return;
  self->by_total = by_total;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_TOTAL]);
}

const char *
ps_histogram_view_get_title (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->title;
}

void
ps_histogram_view_set_title (PsHistogramView *self,
                             const char      *title)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
ps_histogram_view_get_unit (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->unit;
}

void
ps_histogram_view_set_unit (PsHistogramView *self,
                            const char      *unit)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (g_strcmp0 (self->unit, unit) == 0)
    return;
  g_free (self->unit);
  self->unit = g_strdup (unit);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

gboolean
ps_histogram_view_get_selection (PsHistogramView *self,
                                 guint           *first_bin,
                                 guint           *last_bin)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);

  if (first_bin != NULL)
    *first_bin = self->selection_first;
  if (last_bin != NULL)
    *last_bin = self->selection_last;
  return self->has_selection;
}

void
ps_histogram_view_select_bins (PsHistogramView *self,
                               guint            first_bin,
                               guint            last_bin)
{
  guint n_bins;

  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (self->histogram == NULL || self->histogram->n_bins == 0)
    return;
  n_bins = self->histogram->n_bins;
  if (first_bin > last_bin)
    {
      guint swap = first_bin;

      first_bin = last_bin;
      last_bin = swap;
    }
  first_bin = MIN (first_bin, n_bins - 1);
  last_bin = MIN (last_bin, n_bins - 1);

  self->anchor_bin = (int)first_bin;
  self->cursor_bin = (int)last_bin;
  set_selection (self, TRUE, first_bin, last_bin);
}

void
ps_histogram_view_unselect (PsHistogramView *self)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  set_selection (self, FALSE, 0, 0);
}

gboolean
ps_histogram_view_selection_contains (PsHistogramView *self,
                                      double           seconds)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);

  return self->has_selection
         && ps_histogram_range_contains (self->histogram, self->selection_first,
                                         self->selection_last, seconds);
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

  if (!compute_layout (self, width, height, &layout))
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

  if (!compute_layout (self, 400, 300, &layout))
    return NULL;
  return orientation == GTK_ORIENTATION_HORIZONTAL ? x_title (self, &layout) : y_title (self, &layout);
}

double
ps_histogram_view_get_y_top (PsHistogramView *self)
{
  Layout layout;

  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), 0);

  if (!compute_layout (self, 400, 300, &layout))
    return 0;
  return layout.y_top;
}

void
ps_histogram_view_get_bar_color (gboolean  selected,
                                 GdkRGBA  *color)
{
  *color = selected ? selected_color : *ps_chart_palette_color (PS_CHART_COLOR_BLUE);
}
