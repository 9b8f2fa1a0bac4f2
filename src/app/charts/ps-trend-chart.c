/* ps-trend-chart.c — one row's value per run, with its change points
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". The runs stand side by side in trend order, one
 * band each; a row's value in a run is a point in its band, joined to
 * the next. A change point is a vertical line between the last run
 * before it and its first run after, labelled with the relative change
 * of the means and its significance; the mean of each stretch between
 * change points is a dashed line across it. The value axis spans the
 * data, not 0, and says so with a break, as a zoomed series chart does.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-chart-util.h"
#include "ps-trend-chart.h"
#include "ps-view-util.h"

#define MIN_CHART_HEIGHT 220
#define NATURAL_CHART_WIDTH 440
#define LABEL_SPACING 6
#define DOT_RADIUS 3.5
#define HOVER_DISTANCE 10.0
#define LINE_HOVER_DISTANCE 5.0

struct _PsTrendChart
{
  GtkWidget         parent_instance;

  const PsTrend    *trend;
  const PsTrendRow *row;
  char             *value_title;
  char             *runs_title;
  char            **run_labels;   /* the part of each run's name that tells it apart */
  int               selected;     /* index into the row's values, -1 none */

  /* Geometry of the last drawing, for clicks and tooltips */
  graphene_rect_t   plot;
  double            y_min;
  double            y_max;
};

enum {
  RUN_ACTIVATED,
  CHANGE_POINT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PsTrendChart, ps_trend_chart, GTK_TYPE_WIDGET)

/* Better, worse and neither, as the comparison's change column shows them */
static const GdkRGBA regression_color = { 0.878, 0.106, 0.141, 1.0 };
static const GdkRGBA improvement_color = { 0.180, 0.620, 0.345, 1.0 };
static const GdkRGBA changed_color = { 0.102, 0.373, 0.706, 1.0 };
static const GdkRGBA line_color = { 0.208, 0.518, 0.894, 1.0 };

/* Units */

/* What a row's unit measures, and the factor to that quantity's base unit */
static PsViewQuantity
unit_quantity (const char *unit,
               double     *factor)
{
  *factor = 1;
  if (g_strcmp0 (unit, "s") == 0)
    return PS_VIEW_QUANTITY_SECONDS;
  if (g_strcmp0 (unit, "ms") == 0)
    return *factor = 1e-3, PS_VIEW_QUANTITY_SECONDS;
  if (g_strcmp0 (unit, "ns") == 0)
    return *factor = 1e-9, PS_VIEW_QUANTITY_SECONDS;
  if (g_strcmp0 (unit, "bytes") == 0)
    return PS_VIEW_QUANTITY_BYTES;
  if (g_strcmp0 (unit, "percent") == 0)
    return PS_VIEW_QUANTITY_PERCENT;
  if (g_strcmp0 (unit, "ticks") == 0)
    return PS_VIEW_QUANTITY_TICKS;
  return PS_VIEW_QUANTITY_NONE;
}

/* The unit values up to magnitude are shown in, and what a stored value
 * is divided by for it */
static const char *
shown_unit (const char *unit,
            double      magnitude,
            double     *scale)
{
  double factor;
  PsViewQuantity quantity = unit_quantity (unit, &factor);
  const char *shown = ps_view_quantity_unit (quantity, magnitude * factor, scale);

  *scale /= factor;
  return quantity == PS_VIEW_QUANTITY_NONE && unit != NULL ? ps_view_unit_name (unit) : shown;
}

/* The values' range on the chart's axis: a little beyond the values, and
 * never empty */
static void
value_range (const PsTrendRow *row,
             double           *y_min,
             double           *y_max)
{
  double pad;

  *y_min = G_MAXDOUBLE, *y_max = -G_MAXDOUBLE;
  for (guint i = 0; i < row->n_values; i++)
    {
      *y_min = MIN (*y_min, row->values[i]);
      *y_max = MAX (*y_max, row->values[i]);
    }
  if (*y_min == *y_max)
    pad = *y_min != 0 ? fabs (*y_min) * 0.05 : 1;
  else
    pad = (*y_max - *y_min) * 0.08;
  *y_min -= pad, *y_max += pad;
}

const char *
ps_trend_row_shown_unit (const PsTrendRow *row)
{
  double y_min, y_max, scale;

  g_return_val_if_fail (row != NULL, NULL);

  if (row->n_values == 0)
    return shown_unit (row->unit, 0, &scale);
  value_range (row, &y_min, &y_max);
  return shown_unit (row->unit, MAX (fabs (y_min), fabs (y_max)), &scale);
}

char *
ps_trend_format_value (double      value,
                       const char *unit)
{
  double factor;
  PsViewQuantity quantity = unit_quantity (unit, &factor);
  g_autofree char *number = NULL;

  if (quantity != PS_VIEW_QUANTITY_NONE || unit == NULL || *unit == '\0')
    return ps_view_format_quantity (quantity, value * factor);
  number = ps_view_format_number (value);
  /* Translators: a number and its unit, "5.20 ms" */
  return g_strdup_printf (C_("value with unit", "%s %s"), number, ps_view_unit_name (unit));
}

char *
ps_trend_format_change (double relative_change)
{
  if (isinf (relative_change))
    return g_strdup (relative_change > 0 ? "+∞ %" : "−∞ %");
  /* Translators: a relative change in percent, signed: "+19.9 %" */
  return g_strdup_printf (_("%s%.1f %%"), relative_change < 0 ? "−" : "+", fabs (100 * relative_change));
}

char *
ps_trend_format_number_with_unit (double      value,
                                  const char *unit)
{
  g_autofree char *number = ps_view_format_number (value);

  if (unit == NULL || *unit == '\0')
    return g_steal_pointer (&number);
  /* Translators: a number and its unit, "5.20 ms" */
  return g_strdup_printf (C_("value with unit", "%s %s"), number, unit);
}

char *
ps_trend_format_change_size (double      relative_change,
                             double      shown_before,
                             double      shown_after,
                             const char *unit)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  if (isfinite (relative_change))
    return ps_trend_format_change (relative_change);
  before = ps_trend_format_number_with_unit (shown_before, unit);
  after = ps_trend_format_number_with_unit (shown_after, unit);
  /* Translators: the size of a change from a level of zero, on a change
   * mark of a chart: the levels before and after, "0 → 40.2 %" */
  return g_strdup_printf (_("%s → %s"), before, after);
}

char *
ps_trend_format_p_value (double p_value)
{
  /* Both in the locale's digits: "p < 0,001" beside "p = 0,013" */
  if (p_value < 0.001)
    return g_strdup_printf ("p < %.3f", 0.001);
  return g_strdup_printf ("p = %.3f", p_value);
}

const char *
ps_trend_change_class (const PsTrendRow *row,
                       double            relative_change)
{
  if (!row->lower_is_better || relative_change == 0)
    return "changed";
  return relative_change > 0 ? "regression" : "improvement";
}

const char *
ps_trend_change_word (const PsTrendRow *row,
                      double            relative_change)
{
  const char *kind = ps_trend_change_class (row, relative_change);

  /* Translators: what a change of a row where lower is better is */
  if (strcmp (kind, "regression") == 0)
    return _("worse");
  if (strcmp (kind, "improvement") == 0)
    return _("better");
  /* Translators: a change of a counter, which is neither better nor worse */
  return _("changed");
}

static const GdkRGBA *
change_color (const PsTrendRow *row,
              double            relative_change)
{
  const char *kind = ps_trend_change_class (row, relative_change);

  if (strcmp (kind, "regression") == 0)
    return &regression_color;
  if (strcmp (kind, "improvement") == 0)
    return &improvement_color;
  return &changed_color;
}

char *
ps_trend_format_run (const PsRunSummary *run)
{
  const char *file = run->file != NULL ? run->file : "";

  if (run->session < 0)
    return g_strdup (file);
  {
    g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, run->session + 1);

    /* Translators: a run of a trend that is one session of a log: "nightly.log, session 14" */
    return g_strdup_printf (_("%s, session %s"), file, number);
  }
}

/* Each run's name without what every run's name shares: run-1.log …
 * run-20.log are "1" … "20" */
static char **
make_run_labels (const PsTrend *trend)
{
  guint n = trend->runs->len;
  char **labels = g_new0 (char *, n + 1);
  const char *first;
  gsize prefix, suffix, first_length;
  gboolean one_file = TRUE;

  if (n == 0)
    return labels;
  first = ((PsRunSummary *)g_ptr_array_index (trend->runs, 0))->file;
  first = first != NULL ? first : "";
  first_length = strlen (first);
  prefix = first_length;
  suffix = first_length;
  for (guint i = 1; i < n; i++)
    {
      const PsRunSummary *run = g_ptr_array_index (trend->runs, i);
      const char *file = run->file != NULL ? run->file : "";
      gsize length = strlen (file);
      gsize p = 0, s = 0;

      while (p < prefix && p < length && file[p] == first[p])
        p++;
      while (s < suffix && s < length && s < first_length && file[length - 1 - s] == first[first_length - 1 - s])
        s++;
      prefix = p;
      suffix = s;
      one_file &= g_strcmp0 (file, first) == 0;
    }
  /* Cut between characters, not inside one */
  while (prefix > 0 && (first[prefix] & 0xC0) == 0x80)
    prefix--;

  for (guint i = 0; i < n; i++)
    {
      const PsRunSummary *run = g_ptr_array_index (trend->runs, i);
      const char *file = run->file != NULL ? run->file : "";
      gsize length = strlen (file);

      if (one_file && run->session >= 0)
        labels[i] = g_strdup_printf ("%" G_GINT64_FORMAT, run->session + 1);
      else if (n > 1 && prefix + suffix < length)
        {
          gsize end = length - suffix;

          while (end < length && (file[end] & 0xC0) == 0x80)
            end++;
          labels[i] = g_strndup (file + prefix, end - prefix);
        }
      else
        labels[i] = g_strdup (file);
    }
  return labels;
}

/* Geometry */

static double
run_x (PsTrendChart *self,
       double        run)
{
  guint n_runs = self->trend->runs->len;

  return self->plot.origin.x + (run + 0.5) / MAX (n_runs, 1) * self->plot.size.width;
}

static double
value_y (PsTrendChart *self,
         double        value)
{
  double span = self->y_max > self->y_min ? self->y_max - self->y_min : 1;

  return self->plot.origin.y + self->plot.size.height - (value - self->y_min) / span * self->plot.size.height;
}

/* A change point's line: halfway between the run before and its own */
static double
change_x (PsTrendChart        *self,
          const PsChangePoint *point)
{
  guint before = ps_trend_row_get_run_before (self->row, point);

  return (run_x (self, before) + run_x (self, point->index)) / 2;
}

static gboolean
has_plot (PsTrendChart *self)
{
  return self->row != NULL && self->row->n_values > 0 && self->plot.size.width > 0;
}

/* Drawing */

static void
draw_mean (PsTrendChart  *self,
           cairo_t       *cr,
           const GdkRGBA *color,
           double         mean,
           double         x_from,
           double         x_to)
{
  double dashes[] = { 5, 3 };

  ps_chart_set_source (cr, color, 0.8);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, x_from, round (value_y (self, mean)) + 0.5);
  cairo_line_to (cr, x_to, round (value_y (self, mean)) + 0.5);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static char *
change_label (const PsTrendRow    *row,
              const PsChangePoint *point)
{
  g_autofree char *change = ps_trend_format_change (point->relative_change);
  g_autofree char *p_value = ps_trend_format_p_value (point->p_value);

  /* Translators: a change point's label on a trend chart: "+19.9 % · p < 0.001" */
  return g_strdup_printf (_("%s · %s"), change, p_value);
}

static void
draw_chart (PsTrendChart *self,
            cairo_t      *cr,
            int           width,
            int           height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const PsTrendRow *row = self->row;
  GdkRGBA foreground;
  g_autoptr(PangoLayout) probe = NULL;
  int text_width, text_height;
  double y_min, y_max, y_step, scale;
  double top, bottom, left, right, label_width = 0;
  guint n_runs, label_step;
  const char *unit;
  g_autofree char *axis_title = NULL;

  ps_chart_get_foreground (widget, &foreground);
  probe = ps_chart_text_layout (widget, "0", &text_width, &text_height);
  self->plot = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (row == NULL || row->n_values == 0)
    {
      ps_chart_set_source (cr, &foreground, 0.55);
      ps_chart_draw_text (widget, cr, row == NULL ? _("Choose a row to see its value in every run")
                                                  : _("No run has a value of this row"),
                          width / 2.0, height / 2.0, 0.5, 0.5);
      return;
    }
  n_runs = self->trend->runs->len;

  value_range (row, &y_min, &y_max);

  /* Title line, change labels line, plot, run labels, axis title */
  top = 2 * (text_height + LABEL_SPACING) + LABEL_SPACING;
  bottom = height - (2 * text_height + 2 * LABEL_SPACING);
  right = width - LABEL_SPACING - text_width * 2;

  unit = shown_unit (row->unit, MAX (fabs (y_min), fabs (y_max)), &scale);
  y_step = ps_chart_nice_step ((y_max - y_min) / scale, MAX (2.0, (bottom - top) / 48.0)) * scale;
  y_min = floor (y_min / y_step) * y_step;
  y_max = ceil (y_max / y_step) * y_step;
  for (double value = y_min; value <= y_max + y_step * 0.5; value += y_step)
    {
      g_autofree char *text = ps_chart_format_tick (value / scale, y_step / scale);
      g_autoptr(PangoLayout) layout = ps_chart_text_layout (widget, text, &text_width, NULL);

      label_width = MAX (label_width, text_width);
    }
  left = 2 * LABEL_SPACING + label_width;
  if (right - left < 40 || bottom - top < 40)
    return;

  self->plot = GRAPHENE_RECT_INIT (left, top, right - left, bottom - top);
  self->y_min = y_min;
  self->y_max = y_max;

  /* Horizontal grid and value labels, in the unit of the axis title */
  cairo_set_line_width (cr, 1.0);
  for (double value = y_min; value <= y_max + y_step * 0.5; value += y_step)
    {
      g_autofree char *text = ps_chart_format_tick (value / scale, y_step / scale);
      double y = round (value_y (self, value)) + 0.5;

      ps_chart_set_source (cr, &foreground, 0.12);
      cairo_move_to (cr, left, y);
      cairo_line_to (cr, right, y);
      cairo_stroke (cr);
      ps_chart_set_source (cr, &foreground, 0.75);
      ps_chart_draw_text (widget, cr, text, left - LABEL_SPACING, y, 1.0, 0.5);
    }

  /* Run labels: as many as fit side by side */
  {
    double widest = 0;
    double band = (right - left) / MAX (n_runs, 1);

    for (guint i = 0; i < n_runs; i++)
      {
        g_autoptr(PangoLayout) layout = ps_chart_text_layout (widget, self->run_labels[i], &text_width, NULL);

        widest = MAX (widest, text_width);
      }
    label_step = MAX (1, (guint)ceil ((widest + 2 * LABEL_SPACING) / band));
    for (guint i = 0; i < n_runs; i += label_step)
      {
        double x = round (run_x (self, i)) + 0.5;

        ps_chart_set_source (cr, &foreground, 0.5);
        cairo_move_to (cr, x, bottom);
        cairo_line_to (cr, x, bottom + 4);
        cairo_stroke (cr);
        ps_chart_set_source (cr, &foreground, 0.75);
        ps_chart_draw_text (widget, cr, self->run_labels[i], x, bottom + LABEL_SPACING / 2.0 + 2, 0.5, 0.0);
      }
  }

  /* Axes, the break of an axis that does not start at 0 */
  ps_chart_set_source (cr, &foreground, 0.5);
  cairo_move_to (cr, left + 0.5, top);
  cairo_line_to (cr, left + 0.5, bottom + 0.5);
  cairo_line_to (cr, right, bottom + 0.5);
  cairo_stroke (cr);
  if (y_min > 0 || y_max < 0)
    ps_chart_draw_axis_break (cr, left + 0.5, bottom - 8);

  /* Axis titles */
  axis_title = ps_view_title_with_unit (self->value_title != NULL ? self->value_title : "", unit);
  if (y_min > 0 || y_max < 0)
    {
      g_autofree char *plain = g_steal_pointer (&axis_title);

      axis_title = g_strdup_printf ("%s · %s", plain, ps_chart_zoomed_note ());
    }
  ps_chart_set_source (cr, &foreground, 0.9);
  ps_chart_draw_text (widget, cr, axis_title, LABEL_SPACING, LABEL_SPACING, 0.0, 0.0);
  ps_chart_set_source (cr, &foreground, 0.75);
  ps_chart_draw_text (widget, cr, self->runs_title != NULL ? self->runs_title : "", (left + right) / 2.0, height - LABEL_SPACING / 2.0, 0.5, 1.0);

  /* The means of the stretches between change points */
  for (guint c = 0; c <= row->change_points->len; c++)
    {
      const PsChangePoint *before = c > 0 ? &g_array_index (row->change_points, PsChangePoint, c - 1) : NULL;
      const PsChangePoint *after = c < row->change_points->len ? &g_array_index (row->change_points, PsChangePoint, c) : NULL;
      double from = before != NULL ? change_x (self, before) : run_x (self, row->runs[0]) - DOT_RADIUS;
      double to = after != NULL ? change_x (self, after) : run_x (self, row->runs[row->n_values - 1]) + DOT_RADIUS;

      if (after != NULL)
        draw_mean (self, cr, &foreground, after->mean_before, from, to);
      else if (before != NULL)
        draw_mean (self, cr, &foreground, before->mean_after, from, to);
    }

  /* The values, joined */
  cairo_save (cr);
  cairo_rectangle (cr, left - DOT_RADIUS, top - DOT_RADIUS, right - left + 2 * DOT_RADIUS, bottom - top + 2 * DOT_RADIUS);
  cairo_clip (cr);
  ps_chart_set_source (cr, &line_color, 0.6);
  cairo_set_line_width (cr, 1.5);
  for (guint i = 0; i < row->n_values; i++)
    {
      if (i == 0)
        cairo_move_to (cr, run_x (self, row->runs[i]), value_y (self, row->values[i]));
      else
        cairo_line_to (cr, run_x (self, row->runs[i]), value_y (self, row->values[i]));
    }
  cairo_stroke (cr);
  ps_chart_set_source (cr, &line_color, 1.0);
  for (guint i = 0; i < row->n_values; i++)
    {
      cairo_new_sub_path (cr);
      cairo_arc (cr, run_x (self, row->runs[i]), value_y (self, row->values[i]),
                 (right - left) / MAX (n_runs, 1) < 3 * DOT_RADIUS ? 1.5 : DOT_RADIUS, 0, 2 * G_PI);
    }
  cairo_fill (cr);
  cairo_restore (cr);

  /* The change points, labelled above the plot; a label that would run
   * into the previous one goes on the title's line, if that is free there */
  {
    double previous_end[2] = { -G_MAXDOUBLE, -G_MAXDOUBLE };
    int title_width;
    g_autoptr(PangoLayout) title_layout = ps_chart_text_layout (widget, axis_title, &title_width, NULL);

    previous_end[1] = LABEL_SPACING + title_width + 2 * LABEL_SPACING;
    for (guint c = 0; c < row->change_points->len; c++)
      {
        const PsChangePoint *point = &g_array_index (row->change_points, PsChangePoint, c);
        const GdkRGBA *color = change_color (row, point->relative_change);
        double x = round (change_x (self, point)) + 0.5;
        g_autofree char *label = change_label (row, point);
        g_autoptr(PangoLayout) layout = ps_chart_text_layout (widget, label, &text_width, NULL);
        double label_x = CLAMP (x - text_width / 2.0, LABEL_SPACING, width - LABEL_SPACING - text_width);
        guint line = label_x >= previous_end[0] ? 0 : label_x >= previous_end[1] ? 1 : 0;

        ps_chart_set_source (cr, color, 1.0);
        cairo_set_line_width (cr, 2.0);
        cairo_move_to (cr, x, top - 2);
        cairo_line_to (cr, x, bottom);
        cairo_stroke (cr);
        /* A handle to click on at the top */
        cairo_move_to (cr, x - 5, top - 8);
        cairo_line_to (cr, x + 5, top - 8);
        cairo_line_to (cr, x, top - 2);
        cairo_close_path (cr);
        cairo_fill (cr);

        ps_chart_draw_text (widget, cr, label, label_x,
                            line == 0 ? top - 10 : LABEL_SPACING, 0.0, line == 0 ? 1.0 : 0.0);
        previous_end[line] = label_x + text_width + 2 * LABEL_SPACING;
      }
  }

  /* The point chosen, ringed; with the focus, the ring is the focus */
  if (self->selected >= 0 && (guint)self->selected < row->n_values)
    {
      double x = run_x (self, row->runs[self->selected]);
      double y = value_y (self, row->values[self->selected]);

      ps_chart_set_source (cr, &foreground, gtk_widget_has_focus (widget) ? 1.0 : 0.6);
      cairo_set_line_width (cr, 2.0);
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, DOT_RADIUS + 3, 0, 2 * G_PI);
      cairo_stroke (cr);
    }
}

static void
ps_trend_chart_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  int width, height;
  cairo_t *cr = ps_chart_append_cairo (widget, snapshot, &width, &height);

  if (cr == NULL)
    return;
  /* A few hundred points at most: drawn again each frame */
  draw_chart (PS_TREND_CHART (widget), cr, width, height);
  cairo_destroy (cr);
}

/* Hits */

static double
point_distance (PsTrendChart *self,
                guint         index,
                double        x,
                double        y)
{
  return hypot (run_x (self, self->row->runs[index]) - x, value_y (self, self->row->values[index]) - y);
}

static double
change_point_distance (PsTrendChart *self,
                       guint         index,
                       double        x,
                       double        y)
{
  return fabs (change_x (self, &g_array_index (self->row->change_points, PsChangePoint, index)) - x);
}

/* The nearest of n things to (x, y) by distance, within limit, or -1 */
static int
nearest (PsTrendChart *self,
         guint         n,
         double      (*distance) (PsTrendChart *self,
                                  guint         index,
                                  double        x,
                                  double        y),
         double        limit,
         double        x,
         double        y)
{
  int found = -1;

  for (guint i = 0; i < n; i++)
    {
      double d = distance (self, i, x, y);

      if (d <= limit)
        {
          limit = d;
          found = (int)i;
        }
    }
  return found;
}

/* The value nearest to (x, y) within HOVER_DISTANCE, or -1 */
static int
point_at (PsTrendChart *self,
          double        x,
          double        y)
{
  if (!has_plot (self))
    return -1;
  return nearest (self, self->row->n_values, point_distance, HOVER_DISTANCE, x, y);
}

/* The change point whose line is at x, above the runs' labels, or -1 */
static int
change_point_at (PsTrendChart *self,
                 double        x,
                 double        y)
{
  if (!has_plot (self) || y > self->plot.origin.y + self->plot.size.height)
    return -1;
  return nearest (self, self->row->change_points->len, change_point_distance, LINE_HOVER_DISTANCE, x, y);
}

static char *
run_tooltip (PsTrendChart *self,
             guint         value_index)
{
  const PsRunSummary *run = g_ptr_array_index (self->trend->runs, self->row->runs[value_index]);
  g_autofree char *name = ps_trend_format_run (run);
  g_autofree char *value = ps_trend_format_value (self->row->values[value_index], self->row->unit);
  g_autofree char *time = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  /* Translators: a point's tooltip on a trend chart: "Run 13 of 20: run-13.log" */
  g_string_append_printf (text, _("Run %u of %u: %s"), self->row->runs[value_index] + 1, self->trend->runs->len, name);
  g_string_append_printf (text, "\n%s: %s", self->value_title != NULL ? self->value_title : "", value);
  if (run->version != NULL && run->build != NULL)
    /* Translators: the version and build of a run: "Version 6.0, build 3122" */
    g_string_append_printf (text, _("\nVersion %s, build %s"), run->version, run->build);
  else if (run->version != NULL)
    g_string_append_printf (text, _("\nVersion %s"), run->version);
  else if (run->build != NULL)
    g_string_append_printf (text, _("\nBuild %s"), run->build);
  if (run->has_time)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (run->time_unix_ns / G_GINT64_CONSTANT (1000000000));

      time = when != NULL ? g_date_time_format (when, "%Y-%m-%d %H:%M:%S UTC") : NULL;
      if (time != NULL)
        /* Translators: when a run of a trend began, or, for a log without times, when its file was modified */
        g_string_append_printf (text, run->time_from_file ? _("\nFile modified %s") : _("\nBegan %s"), time);
    }
  g_string_append_printf (text, "\n%s", _("Click or press Enter to open this run"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
change_point_tooltip (PsTrendChart *self,
                      guint         index)
{
  const PsChangePoint *point = &g_array_index (self->row->change_points, PsChangePoint, index);
  const PsRunSummary *before = g_ptr_array_index (self->trend->runs, ps_trend_row_get_run_before (self->row, point));
  const PsRunSummary *after = g_ptr_array_index (self->trend->runs, point->index);
  g_autofree char *before_name = ps_trend_format_run (before);
  g_autofree char *after_name = ps_trend_format_run (after);
  g_autofree char *mean_before = ps_trend_format_value (point->mean_before, self->row->unit);
  g_autofree char *mean_after = ps_trend_format_value (point->mean_after, self->row->unit);
  g_autofree char *change = ps_trend_format_change (point->relative_change);
  g_autofree char *p_value = ps_trend_format_p_value (point->p_value);

  /* Translators: a change point's tooltip: the runs on each side, the means of the
   * runs before and after, the change and its p-value */
  return g_strdup_printf (_("Change between %s and %s\n"
                            "Mean of the %u runs before: %s\n"
                            "Mean of the %u runs after: %s\n"
                            "Change: %s (%s, %s)\n"
                            "Click to compare the two runs"),
                          before_name, after_name, (guint)point->n_before, mean_before, (guint)point->n_after,
                          mean_after, change, ps_trend_change_word (self->row, point->relative_change), p_value);
}

char *
ps_trend_chart_get_tooltip_text (PsTrendChart *self,
                                 double        x,
                                 double        y)
{
  int found;

  g_return_val_if_fail (PS_IS_TREND_CHART (self), NULL);

  if ((found = point_at (self, x, y)) >= 0)
    return run_tooltip (self, (guint)found);
  if ((found = change_point_at (self, x, y)) >= 0)
    return change_point_tooltip (self, (guint)found);
  return NULL;
}

static gboolean
ps_trend_chart_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  PsTrendChart *self = PS_TREND_CHART (widget);
  g_autofree char *text = NULL;

  if (keyboard_mode)
    text = has_plot (self) && self->selected >= 0 ? run_tooltip (self, (guint)self->selected) : NULL;
  else
    text = ps_trend_chart_get_tooltip_text (self, x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
ps_trend_chart_click (PsTrendChart *self,
                      double        x,
                      double        y)
{
  int found;

  g_return_if_fail (PS_IS_TREND_CHART (self));

  if ((found = point_at (self, x, y)) >= 0)
    {
      ps_trend_chart_set_selected (self, found);
      g_signal_emit (self, signals[RUN_ACTIVATED], 0, self->row->runs[found]);
    }
  else if ((found = change_point_at (self, x, y)) >= 0)
    g_signal_emit (self, signals[CHANGE_POINT_ACTIVATED], 0, (guint)found);
}

static void
released_cb (PsTrendChart    *self,
             int              n_press,
             double           x,
             double           y,
             GtkGestureClick *gesture)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  ps_trend_chart_click (self, x, y);
}

static gboolean
key_pressed_cb (PsTrendChart          *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  int n = self->row != NULL ? (int)self->row->n_values : 0;
  int selected = self->selected;

  if (n == 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      selected = selected < 0 ? n - 1 : MAX (selected - 1, 0);
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      selected = selected < 0 ? 0 : MIN (selected + 1, n - 1);
      break;
    case GDK_KEY_Home:
      selected = 0;
      break;
    case GDK_KEY_End:
      selected = n - 1;
      break;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      if (selected < 0)
        return FALSE;
      g_signal_emit (self, signals[RUN_ACTIVATED], 0, self->row->runs[selected]);
      return TRUE;
    default:
      return FALSE;
    }
  ps_trend_chart_set_selected (self, selected);
  return TRUE;
}

static void
update_accessible (PsTrendChart *self)
{
  g_autofree char *label = NULL;

  if (self->row == NULL)
    label = g_strdup (_("Trend chart"));
  else
    /* Translators: the accessible name of a trend chart: "Median of Test=Write in 20 runs, 1 change point" */
    label = g_strdup_printf (ngettext ("%s of %s in %u runs, %u change point",
                                       "%s of %s in %u runs, %u change points", self->row->change_points->len),
                             self->value_title != NULL ? self->value_title : "", self->row->name,
                             self->row->n_values, self->row->change_points->len);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static void
focus_changed_cb (PsTrendChart *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ps_trend_chart_finalize (GObject *object)
{
  PsTrendChart *self = PS_TREND_CHART (object);

  g_free (self->value_title);
  g_free (self->runs_title);
  g_strfreev (self->run_labels);

  G_OBJECT_CLASS (ps_trend_chart_parent_class)->finalize (object);
}

static void
ps_trend_chart_class_init (PsTrendChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ps_trend_chart_finalize;
  widget_class->snapshot = ps_trend_chart_snapshot;
  ps_chart_class_set_size (widget_class, 240, NATURAL_CHART_WIDTH, MIN_CHART_HEIGHT, MIN_CHART_HEIGHT);
  widget_class->query_tooltip = ps_trend_chart_query_tooltip;

  /* A run's point was clicked or chosen with Enter: its index in the trend */
  signals[RUN_ACTIVATED] =
    g_signal_new ("run-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* A change point's line was clicked: its index in the row */
  signals[CHANGE_POINT_ACTIVATED] =
    g_signal_new ("change-point-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "trendchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ps_trend_chart_init (PsTrendChart *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();

  self->selected = -1;
  self->run_labels = g_new0 (char *, 1);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  g_signal_connect_swapped (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_changed_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
  update_accessible (self);
}

GtkWidget *
ps_trend_chart_new (void)
{
  return g_object_new (PS_TYPE_TREND_CHART, NULL);
}

void
ps_trend_chart_set_row (PsTrendChart     *self,
                        const PsTrend    *trend,
                        const PsTrendRow *row,
                        const char       *value_title,
                        const char       *runs_title)
{
  g_return_if_fail (PS_IS_TREND_CHART (self));
  g_return_if_fail (row == NULL || trend != NULL);

  if (trend != self->trend)
    {
      g_strfreev (self->run_labels);
      self->run_labels = trend != NULL ? make_run_labels (trend) : g_new0 (char *, 1);
    }
  self->trend = trend;
  self->row = row;
  g_free (self->value_title);
  self->value_title = g_strdup (value_title);
  g_free (self->runs_title);
  self->runs_title = g_strdup (runs_title);
  self->selected = -1;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
ps_trend_chart_get_selected (PsTrendChart *self)
{
  g_return_val_if_fail (PS_IS_TREND_CHART (self), -1);
  return self->selected;
}

void
ps_trend_chart_set_selected (PsTrendChart *self,
                             int           value_index)
{
  g_return_if_fail (PS_IS_TREND_CHART (self));

  if (self->row == NULL || value_index < 0 || (guint)value_index >= self->row->n_values)
    value_index = -1;
  if (self->selected == value_index)
    return;
  self->selected = value_index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

gboolean
ps_trend_chart_get_point_position (PsTrendChart *self,
                                   guint         value_index,
                                   double       *x,
                                   double       *y)
{
  g_return_val_if_fail (PS_IS_TREND_CHART (self), FALSE);

  if (!has_plot (self) || value_index >= self->row->n_values)
    return FALSE;
  *x = run_x (self, self->row->runs[value_index]);
  *y = value_y (self, self->row->values[value_index]);
  return TRUE;
}

gboolean
ps_trend_chart_get_change_point_position (PsTrendChart *self,
                                          guint         change_point,
                                          double       *x,
                                          double       *y)
{
  g_return_val_if_fail (PS_IS_TREND_CHART (self), FALSE);

  if (!has_plot (self) || change_point >= self->row->change_points->len)
    return FALSE;
  *x = change_x (self, &g_array_index (self->row->change_points, PsChangePoint, change_point));
  *y = self->plot.origin.y + self->plot.size.height / 2;
  return TRUE;
}
