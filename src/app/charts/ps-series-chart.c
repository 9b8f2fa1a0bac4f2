/* ps-series-chart.c — a line chart of measured series over the event index
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn with cairo into a render node that is kept until the size, the data
 * or the style changes, so that redraws (e.g. from a tooltip) cost nothing.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>

#include "ps-series-chart.h"
#include "ps-chart-util.h"
#include "ps-util.h"
#include "ps-view-util.h"

#define MIN_CHART_HEIGHT 180
#define NATURAL_CHART_WIDTH 480
#define LABEL_SPACING 6
#define DOT_RADIUS 3.0
#define HOVER_DISTANCE 10.0

typedef struct
{
  char   *label;
  GArray *indexes;   /* guint64 */
  GArray *values;    /* double */
} ChartSeries;

struct _PsSeriesChart
{
  GtkWidget          parent_instance;

  GPtrArray         *series;       /* ChartSeries */
  char              *title;
  PsSeriesChartUnit  unit;
  guint64            x_first;
  guint64            x_last;
  gboolean           has_x_range;
  GtkWidget         *zoom_button;  /* zooms the y axis to the data */
  /* The y range shared with the same chart of another run compared */
  PsChartSharedRange shared_range;

  GskRenderNode     *cache;
  int                cache_width;
  int                cache_height;

  /* Geometry of the last drawing, for tooltips */
  graphene_rect_t    plot;
  double             view_x_first;
  double             view_x_last;
  double             view_y_min;
  double             view_y_max;
  gboolean           view_zoomed;  /* the y axis did not start at 0 */
};

enum {
  PROP_0,
  PROP_UNIT,
  PROP_TITLE,
  PROP_ZOOMED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  VALUE_RANGE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_ENUM_TYPE (PsSeriesChartUnit, ps_series_chart_unit,
                    G_DEFINE_ENUM_VALUE (PS_SERIES_CHART_UNIT_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (PS_SERIES_CHART_UNIT_PERCENT, "percent"),
                    G_DEFINE_ENUM_VALUE (PS_SERIES_CHART_UNIT_BYTES, "bytes"),
                    G_DEFINE_ENUM_VALUE (PS_SERIES_CHART_UNIT_SECONDS, "seconds"),
                    G_DEFINE_ENUM_VALUE (PS_SERIES_CHART_UNIT_TICKS, "ticks"))

G_DEFINE_FINAL_TYPE (PsSeriesChart, ps_series_chart, GTK_TYPE_WIDGET)

static void
chart_series_free (gpointer data)
{
  ChartSeries *series = data;

  g_free (series->label);
  g_clear_pointer (&series->indexes, g_array_unref);
  g_clear_pointer (&series->values, g_array_unref);
  g_free (series);
}

static void
invalidate (PsSeriesChart *self)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Units */

static void
unit_scale (PsSeriesChartUnit   unit,
            double              magnitude,
            double             *scale,
            const char        **suffix)
{
  *scale = 1;
  *suffix = "";

  switch (unit)
    {
    case PS_SERIES_CHART_UNIT_PERCENT:
      *suffix = "%";
      break;

    case PS_SERIES_CHART_UNIT_BYTES:
      *suffix = ps_view_quantity_unit (PS_VIEW_QUANTITY_BYTES, magnitude, scale);
      break;

    case PS_SERIES_CHART_UNIT_SECONDS:
      if (magnitude >= 1 || magnitude == 0)
        *suffix = "s";
      else if (magnitude >= 1e-3)
        *scale = 1e-3, *suffix = "ms";
      else if (magnitude >= 1e-6)
        *scale = 1e-6, *suffix = "µs";
      else
        *scale = 1e-9, *suffix = "ns";
      break;

    case PS_SERIES_CHART_UNIT_TICKS:
      /* Translators: the unit of timer values */
      *suffix = _("ticks");
      break;

    case PS_SERIES_CHART_UNIT_NONE:
    default:
      break;
    }
}

char *
ps_series_chart_unit_format (PsSeriesChartUnit unit,
                             double            value)
{
  static const PsViewQuantity quantities[] = {
    [PS_SERIES_CHART_UNIT_NONE] = PS_VIEW_QUANTITY_NONE,
    [PS_SERIES_CHART_UNIT_PERCENT] = PS_VIEW_QUANTITY_PERCENT,
    [PS_SERIES_CHART_UNIT_BYTES] = PS_VIEW_QUANTITY_BYTES,
    [PS_SERIES_CHART_UNIT_SECONDS] = PS_VIEW_QUANTITY_SECONDS,
    [PS_SERIES_CHART_UNIT_TICKS] = PS_VIEW_QUANTITY_TICKS,
  };

  /* The digits of every value on screen follow one rule (ps-view-util.h) */
  return ps_view_format_quantity (unit < G_N_ELEMENTS (quantities) ? quantities[unit] : PS_VIEW_QUANTITY_NONE,
                                  value);
}

/* An axis label: all labels of an axis share the unit of its largest
 * value and as many decimals as the step needs. */
static char *
format_axis_value (PsSeriesChartUnit unit,
                   double            value,
                   double            step,
                   double            magnitude)
{
  g_autofree char *number = NULL;
  const char *suffix;
  double scale;
  int decimals = 0;

  unit_scale (unit, magnitude, &scale, &suffix);
  if (step / scale < 1)
    decimals = (int)ceil (-log10 (step / scale) - 1e-9);
  decimals = CLAMP (decimals, 0, 6);

  if (fabs (value) < step * 1e-6)
    value = 0;

  number = ps_view_format_fixed (value / scale, decimals);
  if (*suffix == '\0')
    return g_steal_pointer (&number);
  return g_strdup_printf ("%s %s", number, suffix);
}

/* Drawing */

static gboolean
get_data_range (PsSeriesChart *self,
                double        *x_first,
                double        *x_last,
                double        *y_min,
                double        *y_max)
{
  gboolean any = FALSE;

  *y_min = G_MAXDOUBLE;
  *y_max = -G_MAXDOUBLE;
  *x_first = G_MAXDOUBLE;
  *x_last = -G_MAXDOUBLE;

  for (guint i = 0; i < self->series->len; i++)
    {
      ChartSeries *series = g_ptr_array_index (self->series, i);

      for (guint j = 0; j < series->values->len; j++)
        {
          double value = g_array_index (series->values, double, j);

          if (!isfinite (value))
            continue;
          *y_min = MIN (*y_min, value);
          *y_max = MAX (*y_max, value);
          any = TRUE;
        }
      if (series->indexes->len > 0)
        {
          *x_first = MIN (*x_first, (double)g_array_index (series->indexes, guint64, 0));
          *x_last = MAX (*x_last, (double)g_array_index (series->indexes, guint64, series->indexes->len - 1));
        }
    }

  if (self->has_x_range)
    {
      *x_first = (double)self->x_first;
      *x_last = (double)self->x_last;
    }

  return any;
}

static void
draw_series (PsSeriesChart     *self,
             cairo_t           *cr,
             const ChartSeries *series,
             const GdkRGBA     *color,
             double             x_first,
             double             x_span,
             double             y_min,
             double             y_span)
{
  const graphene_rect_t *plot = &self->plot;
  guint n = series->values->len;
  int columns = MAX (1, (int)plot->size.width);

#define MAP_X(index) (plot->origin.x + ((double)(index) - x_first) / x_span * plot->size.width)
#define MAP_Y(value) (plot->origin.y + plot->size.height - ((value) - y_min) / y_span * plot->size.height)

  if (n == 0)
    return;

  ps_chart_set_source (cr, color, 1.0);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  if (n > (guint)columns * 2)
    {
      /* More points than pixels: one vertical min/max stroke per column */
      g_autofree double *column_min = g_new (double, columns);
      g_autofree double *column_max = g_new (double, columns);
      int previous = -1;

      for (int c = 0; c < columns; c++)
        {
          column_min[c] = G_MAXDOUBLE;
          column_max[c] = -G_MAXDOUBLE;
        }

      for (guint i = 0; i < n; i++)
        {
          double value = g_array_index (series->values, double, i);
          double x = MAP_X (g_array_index (series->indexes, guint64, i)) - plot->origin.x;
          int c = CLAMP ((int)x, 0, columns - 1);

          column_min[c] = MIN (column_min[c], value);
          column_max[c] = MAX (column_max[c], value);
        }

      cairo_set_line_width (cr, 1.5);
      for (int c = 0; c < columns; c++)
        {
          double x = plot->origin.x + c + 0.5;

          if (column_min[c] > column_max[c])
            continue;
          if (previous >= 0)
            {
              /* Join to the previous column so the line stays continuous */
              cairo_move_to (cr, plot->origin.x + previous + 0.5, MAP_Y (column_max[previous]));
              cairo_line_to (cr, x, MAP_Y (column_min[c]));
            }
          cairo_move_to (cr, x, MAP_Y (column_min[c]) + 0.5);
          cairo_line_to (cr, x, MAP_Y (column_max[c]) - 0.5);
          previous = c;
        }
      cairo_stroke (cr);
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      double x = MAP_X (g_array_index (series->indexes, guint64, i));
      double y = MAP_Y (g_array_index (series->values, double, i));

      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);

  /* Few points: mark each one, so that two samples are not just a line */
  if (n <= (guint)columns / 8)
    {
      for (guint i = 0; i < n; i++)
        {
          double x = MAP_X (g_array_index (series->indexes, guint64, i));
          double y = MAP_Y (g_array_index (series->values, double, i));

          cairo_new_sub_path (cr);
          cairo_arc (cr, x, y, DOT_RADIUS, 0, 2 * G_PI);
        }
      cairo_fill (cr);
    }

#undef MAP_X
#undef MAP_Y
}

/* The zoom button's natural width or height, 0 while it is hidden */
static int
zoom_button_size (PsSeriesChart  *self,
                  GtkOrientation  orientation)
{
  int natural = 0;

  if (gtk_widget_get_visible (self->zoom_button))
    gtk_widget_measure (self->zoom_button, orientation, -1, NULL, &natural, NULL, NULL);
  return natural;
}

static void
draw_chart (PsSeriesChart *self,
            cairo_t       *cr,
            int            width,
            int            height)
{
  GdkRGBA foreground;
  double x_first, x_last, y_min, y_max;
  double y_step, x_step, x_span, y_span, y_magnitude;
  double top, bottom, left, right;
  double label_width = 0;
  gboolean zoomed;
  int text_width, text_height;
  g_autoptr(PangoLayout) probe = NULL;

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  probe = ps_chart_text_layout (GTK_WIDGET (self), "0", &text_width, &text_height);

  if (!get_data_range (self, &x_first, &x_last, &y_min, &y_max))
    {
      ps_chart_set_source (cr, &foreground, 0.55);
      ps_chart_draw_text (GTK_WIDGET (self), cr, _("No samples"), width / 2.0, height / 2.0, 0.5, 0.5);
      self->plot = GRAPHENE_RECT_INIT (0, 0, 0, 0);
      return;
    }

  /* Vertical layout: title and legend line (beside the zoom button),
   * plot, tick labels, axis title */
  top = MAX (text_height, zoom_button_size (self, GTK_ORIENTATION_VERTICAL)) + 2 * LABEL_SPACING;
  bottom = height - (2 * text_height + 2 * LABEL_SPACING);
  right = width - 2 * LABEL_SPACING - text_width * 2;

  ps_chart_shared_range_widen (&self->shared_range, &y_min, &y_max);

  /* Y range: from 0, so that heights compare and a flat line looks flat;
   * percentages keep their natural 0…100 scale. Zoomed, the data's range. */
  zoomed = ps_series_chart_get_zoomed (self);
  if (self->unit == PS_SERIES_CHART_UNIT_PERCENT && y_min >= 0 && y_max <= 100 && !zoomed)
    {
      y_min = 0;
      y_max = 100;
    }
  else if (!zoomed)
    {
      y_min = MIN (y_min, 0);
      y_max = MAX (y_max, 0);
      if (y_min == y_max)
        y_max = 1;
      else if (y_max > 0)
        y_max += (y_max - y_min) * 0.05;
      else
        y_min -= (y_max - y_min) * 0.05;
    }
  else if (y_min == y_max)
    {
      double pad = y_min != 0 ? fabs (y_min) * 0.05 : 1;

      y_min -= pad;
      y_max += pad;
    }
  else
    {
      double pad = (y_max - y_min) * 0.05;

      y_min -= pad;
      y_max += pad;
    }

  /* Steps are round in the unit shown (MiB, ms), not in bytes or seconds */
  {
    const char *suffix;
    double scale;

    unit_scale (self->unit, MAX (fabs (y_min), fabs (y_max)), &scale, &suffix);
    y_step = ps_chart_nice_step ((y_max - y_min) / scale, MAX (2.0, (bottom - top) / 48.0)) * scale;
  }
  y_min = floor (y_min / y_step) * y_step;
  y_max = ceil (y_max / y_step) * y_step;
  y_span = y_max - y_min;
  y_magnitude = MAX (fabs (y_min), fabs (y_max));

  /* The left margin fits the widest y label */
  for (double value = y_min; value <= y_max + y_step * 0.5; value += y_step)
    {
      g_autofree char *text = format_axis_value (self->unit, value, y_step, y_magnitude);
      g_autoptr(PangoLayout) layout = ps_chart_text_layout (GTK_WIDGET (self), text, &text_width, NULL);

      label_width = MAX (label_width, text_width);
    }
  left = LABEL_SPACING + label_width + LABEL_SPACING;

  if (right - left < 20 || bottom - top < 20)
    return;

  self->plot = GRAPHENE_RECT_INIT (left, top, right - left, bottom - top);

  if (x_last <= x_first)
    {
      x_first -= 1;
      x_last += 1;
    }
  x_span = x_last - x_first;
  self->view_x_first = x_first;
  self->view_x_last = x_last;
  self->view_y_min = y_min;
  self->view_y_max = y_max;
  self->view_zoomed = zoomed && y_min != 0;

  cairo_set_line_width (cr, 1.0);

  /* Horizontal grid and y labels */
  for (double value = y_min; value <= y_max + y_step * 0.5; value += y_step)
    {
      g_autofree char *text = format_axis_value (self->unit, value, y_step, y_magnitude);
      double y = round (bottom - (value - y_min) / y_span * (bottom - top)) + 0.5;

      ps_chart_draw_value_line (GTK_WIDGET (self), cr, &foreground, text, left, right, y, LABEL_SPACING);
    }

  /* Vertical grid and x labels: event indexes are whole numbers */
  x_step = MAX (1.0, round (ps_chart_nice_step (x_span, MAX (1.0, (right - left) / 100.0))));
  for (double index = ceil (x_first / x_step) * x_step; index <= x_last; index += x_step)
    {
      g_autofree char *text = g_strdup_printf ("%.0f", index);
      double x = round (left + (index - x_first) / x_span * (right - left)) + 0.5;

      ps_chart_set_source (cr, &foreground, 0.12);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);

      ps_chart_set_source (cr, &foreground, 0.75);
      ps_chart_draw_text (GTK_WIDGET (self), cr, text, x, bottom + LABEL_SPACING / 2.0, 0.5, 0.0);
    }

  /* Axes */
  ps_chart_set_source (cr, &foreground, 0.5);
  cairo_move_to (cr, left + 0.5, top);
  cairo_line_to (cr, left + 0.5, bottom + 0.5);
  cairo_line_to (cr, right, bottom + 0.5);
  cairo_stroke (cr);

  ps_chart_set_source (cr, &foreground, 0.75);
  ps_chart_draw_text (GTK_WIDGET (self), cr, _("Event index"), (left + right) / 2.0, height - LABEL_SPACING / 2.0, 0.5, 1.0);

  /* Title at the left (after the zoom button), legend at the right of the
   * top line; a zoomed axis says so in the title and with a break */
  {
    double title_x = MAX (left, zoom_button_size (self, GTK_ORIENTATION_HORIZONTAL) + 2 * LABEL_SPACING);
    double title_y = (top - LABEL_SPACING - text_height) / 2.0;
    g_autofree char *title = NULL;

    if (zoomed && y_min != 0)
      title = g_strdup_printf ("%s · %s", self->title != NULL ? self->title : "", ps_chart_zoomed_note ());
    else
      title = g_strdup (self->title);
    if (title != NULL)
      {
        ps_chart_set_source (cr, &foreground, 0.9);
        ps_chart_draw_text (GTK_WIDGET (self), cr, title, title_x, title_y, 0.0, 0.0);
      }
    if (zoomed && y_min != 0)
      {
        ps_chart_set_source (cr, &foreground, 0.75);
        ps_chart_draw_axis_break (cr, left + 0.5, bottom - 8);
      }
  }

  {
    double x = right;

    for (guint i = self->series->len; i > 0; i--)
      {
        ChartSeries *series = g_ptr_array_index (self->series, i - 1);
        const GdkRGBA *color = ps_chart_palette_color ((i - 1));
        g_autoptr(PangoLayout) layout = ps_chart_text_layout (GTK_WIDGET (self), series->label, &text_width, &text_height);

        if (x - text_width - 20 < MAX (left, zoom_button_size (self, GTK_ORIENTATION_HORIZONTAL)) + width / 3.0)
          break;

        x -= text_width;
        ps_chart_set_source (cr, &foreground, 0.9);
        cairo_move_to (cr, x, (top - LABEL_SPACING - text_height) / 2.0);
        pango_cairo_show_layout (cr, layout);

        x -= 18;
        ps_chart_set_source (cr, color, 1.0);
        cairo_rectangle (cr, x, (top - LABEL_SPACING) / 2.0 - 2, 12, 4);
        cairo_fill (cr);
        x -= 2 * LABEL_SPACING;
      }
  }

  /* The lines, clipped to the plot */
  cairo_save (cr);
  cairo_rectangle (cr, left - DOT_RADIUS, top - DOT_RADIUS,
                   right - left + 2 * DOT_RADIUS, bottom - top + 2 * DOT_RADIUS);
  cairo_clip (cr);
  for (guint i = 0; i < self->series->len; i++)
    draw_series (self, cr, g_ptr_array_index (self->series, i),
                 ps_chart_palette_color (i),
                 x_first, x_span, y_min, y_span);
  cairo_restore (cr);
}

static void
ps_series_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  PsSeriesChart *self = PS_SERIES_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (width <= 0 || height <= 0)
    return;

  if (self->cache == NULL || self->cache_width != width || self->cache_height != height)
    {
      g_autoptr(GtkSnapshot) cache_snapshot = gtk_snapshot_new ();
      cairo_t *cr;

      g_clear_pointer (&self->cache, gsk_render_node_unref);
      cr = gtk_snapshot_append_cairo (cache_snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      draw_chart (self, cr, width, height);
      cairo_destroy (cr);

      self->cache = gtk_snapshot_free_to_node (g_steal_pointer (&cache_snapshot));
      self->cache_width = width;
      self->cache_height = height;
    }

  if (self->cache != NULL)
    gtk_snapshot_append_node (snapshot, self->cache);
  gtk_widget_snapshot_child (widget, self->zoom_button, snapshot);
}

static void
ps_series_chart_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  PsSeriesChart *self = PS_SERIES_CHART (widget);
  int button_width = zoom_button_size (self, GTK_ORIENTATION_HORIZONTAL);
  int button_height = zoom_button_size (self, GTK_ORIENTATION_VERTICAL);

  gtk_widget_allocate (self->zoom_button, MIN (button_width, width), MIN (button_height, height), -1,
                       gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, 0)));
}

static void
ps_series_chart_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  ps_chart_measure (orientation, 200, NATURAL_CHART_WIDTH, MIN_CHART_HEIGHT, MIN_CHART_HEIGHT, minimum, natural);
}

static void
ps_series_chart_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ps_series_chart_parent_class)->css_changed (widget, change);

  /* Colours and fonts come from the style */
  invalidate (PS_SERIES_CHART (widget));
}

/* The nearest sample of a series to an event index, or -1 */
static gssize
nearest_sample (const ChartSeries *series,
                double             index)
{
  guint low = 0, high = series->indexes->len;

  if (high == 0)
    return -1;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if ((double)g_array_index (series->indexes, guint64, middle) < index)
        low = middle + 1;
      else
        high = middle;
    }

  if (low == series->indexes->len)
    return low - 1;
  if (low > 0 && index - (double)g_array_index (series->indexes, guint64, low - 1)
                 < (double)g_array_index (series->indexes, guint64, low) - index)
    return low - 1;
  return low;
}

static gboolean
ps_series_chart_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_mode,
                               GtkTooltip *tooltip)
{
  PsSeriesChart *self = PS_SERIES_CHART (widget);
  const graphene_rect_t *plot = &self->plot;
  g_autoptr(GString) text = NULL;
  double x_span = self->view_x_last - self->view_x_first;
  double index;

  if (plot->size.width <= 0 || x_span <= 0
      || x < plot->origin.x - HOVER_DISTANCE || x > plot->origin.x + plot->size.width + HOVER_DISTANCE
      || y < plot->origin.y || y > plot->origin.y + plot->size.height)
    return FALSE;

  index = self->view_x_first + (x - plot->origin.x) / plot->size.width * x_span;
  text = g_string_new (NULL);

  for (guint i = 0; i < self->series->len; i++)
    {
      ChartSeries *series = g_ptr_array_index (self->series, i);
      gssize sample = nearest_sample (series, index);
      guint64 sample_index;
      double sample_x;
      g_autofree char *value = NULL;

      if (sample < 0)
        continue;

      sample_index = g_array_index (series->indexes, guint64, sample);
      sample_x = plot->origin.x + ((double)sample_index - self->view_x_first) / x_span * plot->size.width;
      if (fabs (sample_x - x) > HOVER_DISTANCE)
        continue;

      value = ps_series_chart_unit_format (self->unit, g_array_index (series->values, double, sample));
      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* Translators: chart tooltip: series name, event index, value with unit */
      g_string_append_printf (text, _("%s — event %llu: %s"),
                              series->label, (unsigned long long) sample_index, value);
    }

  if (text->len == 0)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
update_accessible (PsSeriesChart *self)
{
  guint64 n_samples = 0;
  g_autofree char *description = NULL;

  for (guint i = 0; i < self->series->len; i++)
    n_samples += ((ChartSeries *)g_ptr_array_index (self->series, i))->values->len;

  /* Translators: accessible description of a chart */
  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u series, %llu samples",
                                              "%u series, %llu samples",
                                              self->series->len),
                                 self->series->len, (unsigned long long) n_samples);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, self->title != NULL ? self->title : _("Chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void
zoom_toggled_cb (PsSeriesChart *self)
{
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOMED]);
}

static void
ps_series_chart_dispose (GObject *object)
{
  PsSeriesChart *self = PS_SERIES_CHART (object);

  g_clear_pointer (&self->zoom_button, gtk_widget_unparent);

  G_OBJECT_CLASS (ps_series_chart_parent_class)->dispose (object);
}

static void
ps_series_chart_finalize (GObject *object)
{
  PsSeriesChart *self = PS_SERIES_CHART (object);

  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->cache, gsk_render_node_unref);

  G_OBJECT_CLASS (ps_series_chart_parent_class)->finalize (object);
}

static void
ps_series_chart_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PsSeriesChart *self = PS_SERIES_CHART (object);

  switch (prop_id)
    {
    case PROP_UNIT:
      g_value_set_enum (value, self->unit);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_ZOOMED:
      g_value_set_boolean (value, ps_series_chart_get_zoomed (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_series_chart_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PsSeriesChart *self = PS_SERIES_CHART (object);

  switch (prop_id)
    {
    case PROP_UNIT:
      ps_series_chart_set_unit (self, g_value_get_enum (value));
      break;
    case PROP_TITLE:
      ps_series_chart_set_title (self, g_value_get_string (value));
      break;
    case PROP_ZOOMED:
      ps_series_chart_set_zoomed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_series_chart_class_init (PsSeriesChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_series_chart_dispose;
  object_class->finalize = ps_series_chart_finalize;
  object_class->get_property = ps_series_chart_get_property;
  object_class->set_property = ps_series_chart_set_property;

  widget_class->snapshot = ps_series_chart_snapshot;
  widget_class->measure = ps_series_chart_measure;
  widget_class->size_allocate = ps_series_chart_size_allocate;
  widget_class->css_changed = ps_series_chart_css_changed;
  widget_class->query_tooltip = ps_series_chart_query_tooltip;

  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL,
                       PS_TYPE_SERIES_CHART_UNIT, PS_SERIES_CHART_UNIT_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The value axis spans the data's range rather than starting at 0 */
  properties[PROP_ZOOMED] =
    g_param_spec_boolean ("zoomed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PsSeriesChart::value-range-changed:
   *
   * The chart has other values (ps_series_chart_get_value_range ()).
   */
  signals[VALUE_RANGE_CHANGED] =
    g_signal_new ("value-range-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "serieschart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ps_series_chart_init (PsSeriesChart *self)
{
  self->series = g_ptr_array_new_with_free_func (chart_series_free);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  self->zoom_button = ps_chart_zoom_button_new (GTK_WIDGET (self));
  gtk_widget_set_visible (self->zoom_button, FALSE);
  g_signal_connect_swapped (self->zoom_button, "toggled", G_CALLBACK (zoom_toggled_cb), self);
  ps_view_tooltip_follows_pointer (GTK_WIDGET (self));
  update_accessible (self);
}

GtkWidget *
ps_series_chart_new (void)
{
  return g_object_new (PS_TYPE_SERIES_CHART, NULL);
}

PsSeriesChartUnit
ps_series_chart_get_unit (PsSeriesChart *self)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), PS_SERIES_CHART_UNIT_NONE);
  return self->unit;
}

void
ps_series_chart_set_unit (PsSeriesChart     *self,
                          PsSeriesChartUnit  unit)
{
  g_return_if_fail (PS_IS_SERIES_CHART (self));

  if (self->unit == unit)
    return;

  self->unit = unit;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

const char *
ps_series_chart_get_title (PsSeriesChart *self)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), NULL);
  return self->title;
}

void
ps_series_chart_set_title (PsSeriesChart *self,
                           const char    *title)
{
  g_return_if_fail (PS_IS_SERIES_CHART (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  invalidate (self);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

void
ps_series_chart_clear (PsSeriesChart *self)
{
  g_return_if_fail (PS_IS_SERIES_CHART (self));

  g_ptr_array_set_size (self->series, 0);
  self->has_x_range = FALSE;
  gtk_widget_set_visible (self->zoom_button, FALSE);
  invalidate (self);
  update_accessible (self);
  g_signal_emit (self, signals[VALUE_RANGE_CHANGED], 0);
}

void
ps_series_chart_add_series (PsSeriesChart *self,
                            const char    *label,
                            GArray        *indexes,
                            GArray        *values)
{
  ChartSeries *series;

  g_return_if_fail (PS_IS_SERIES_CHART (self));
  g_return_if_fail (indexes != NULL && values != NULL);
  g_return_if_fail (indexes->len == values->len);

  series = g_new0 (ChartSeries, 1);
  series->label = g_strdup (label != NULL ? label : "");
  series->indexes = g_array_ref (indexes);
  series->values = g_array_ref (values);
  g_ptr_array_add (self->series, series);
  gtk_widget_set_visible (self->zoom_button, TRUE);

  invalidate (self);
  update_accessible (self);
  g_signal_emit (self, signals[VALUE_RANGE_CHANGED], 0);
}

gboolean
ps_series_chart_get_value_range (PsSeriesChart *self,
                                 double        *min,
                                 double        *max)
{
  double x_first, x_last;

  g_return_val_if_fail (PS_IS_SERIES_CHART (self), FALSE);

  return get_data_range (self, &x_first, &x_last, min, max);
}

void
ps_series_chart_set_shared_range (PsSeriesChart *self,
                                  gboolean       shared,
                                  double         min,
                                  double         max)
{
  g_return_if_fail (PS_IS_SERIES_CHART (self));

  if (ps_chart_shared_range_set (&self->shared_range, shared, min, max))
    invalidate (self);
}

guint
ps_series_chart_get_n_series (PsSeriesChart *self)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), 0);
  return self->series->len;
}

void
ps_series_chart_set_x_range (PsSeriesChart *self,
                             guint64        first,
                             guint64        last)
{
  g_return_if_fail (PS_IS_SERIES_CHART (self));

  self->has_x_range = first <= last;
  self->x_first = first;
  self->x_last = last;
  invalidate (self);
}

gboolean
ps_series_chart_get_axes (PsSeriesChart   *self,
                          graphene_rect_t *plot,
                          double          *x_first,
                          double          *x_last,
                          double          *y_min,
                          double          *y_max)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), FALSE);

  if (self->plot.size.width <= 0)
    return FALSE;
  *plot = self->plot;
  *x_first = self->view_x_first;
  *x_last = self->view_x_last;
  *y_min = self->view_y_min;
  *y_max = self->view_y_max;
  return TRUE;
}

gboolean
ps_series_chart_get_zoomed (PsSeriesChart *self)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), FALSE);
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->zoom_button));
}

void
ps_series_chart_set_zoomed (PsSeriesChart *self,
                            gboolean       zoomed)
{
  g_return_if_fail (PS_IS_SERIES_CHART (self));

  /* The button's "toggled" redraws and notifies */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->zoom_button), zoomed);
}

GtkWidget *
ps_series_chart_get_zoom_button (PsSeriesChart *self)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), NULL);
  return self->zoom_button;
}

const char *
ps_series_chart_get_axis_note (PsSeriesChart *self)
{
  g_return_val_if_fail (PS_IS_SERIES_CHART (self), NULL);

  return self->plot.size.width > 0 && self->view_zoomed ? ps_chart_zoomed_note () : NULL;
}
