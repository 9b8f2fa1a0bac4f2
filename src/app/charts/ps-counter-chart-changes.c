/* ps-counter-chart-changes.c — where a counter chart's series changed level
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each change of a series (ps-counter-changes.h) is a vertical line in the
 * series' colour at the time the change begins, from a line of labels
 * above the plot down to the axis; a climb or a fall has a bar at the
 * top from there to its last step. Each label gives the relative change and
 * stands over its line; a label that would run into the one before it is
 * left out, its line still there and its tooltip too. The labels' line is
 * only there when some series has a change.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-counter-chart-private.h"
#include "ps-timeline-render.h"
#include "ps-trend-chart.h"
#include "ps-view-util.h"

/* How far from its line, in pixels, the pointer still is on a mark */
#define MARK_HOVER_DISTANCE 4.0
/* The half width of the handle under a label */
#define HANDLE_SIZE 4.0

typedef struct
{
  guint  series;
  guint  change;
  double x;
} Mark;

static const PsCounterChange *
mark_change (PsCounterChart *self,
             const Mark     *mark)
{
  Series *series = g_ptr_array_index (self->series, mark->series);

  return &g_array_index (series->changes, PsCounterChange, mark->change);
}

static int
compare_marks (gconstpointer a,
               gconstpointer b)
{
  const Mark *first = a;
  const Mark *second = b;

  if (first->x != second->x)
    return first->x < second->x ? -1 : 1;
  return (first->series > second->series) - (first->series < second->series);
}

/* The marks within the plot, from left to right */
static GArray *
list_marks (PsCounterChart *self,
            const Layout   *layout)
{
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  double left = layout->plot.origin.x - 0.5;
  double right = layout->plot.origin.x + layout->plot.size.width + 0.5;

  for (guint s = 0; s < self->series->len; s++)
    {
      Series *series = g_ptr_array_index (self->series, s);

      for (guint c = 0; series->changes != NULL && c < series->changes->len; c++)
        {
          Mark mark = { s, c, x_of (layout, (double)g_array_index (series->changes, PsCounterChange, c).time_ns) };

          if (mark.x >= left && mark.x <= right)
            g_array_append_val (marks, mark);
        }
    }
  g_array_sort (marks, compare_marks);
  return marks;
}

gboolean
ps_counter_chart_has_changes (PsCounterChart *self)
{
  for (guint s = 0; s < self->series->len; s++)
    {
      Series *series = g_ptr_array_index (self->series, s);

      if (series->changes != NULL && series->changes->len > 0)
        return TRUE;
    }
  return FALSE;
}

/* A stored value as the chart shows it, with its unit: "9.6 MiB" */
static char *
format_value (PsCounterChart *self,
              double          stored)
{
  return ps_trend_format_number_with_unit (stored * self->scale, self->unit);
}

/* How much a change is: relative ("+38.0 %"), or from a level of zero,
 * of which no relative change can be told, the two levels ("0 → 40.2 %") */
static char *
format_change_size (PsCounterChart        *self,
                    const PsCounterChange *change)
{
  return ps_trend_format_change_size (change->relative_change, change->mean_before * self->scale,
                                      change->mean_after * self->scale, self->unit);
}

void
ps_counter_chart_draw_changes (PsCounterChart *self,
                               cairo_t        *cr,
                               const Layout   *layout)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(GArray) marks = NULL;
  double top = layout->changes_y + layout->text_height / 2.0 + 1;
  double bottom = layout->plot.origin.y + layout->plot.size.height;
  double right = layout->plot.origin.x + layout->plot.size.width + GAP;
  double previous_end = -G_MAXDOUBLE;

  if (layout->changes_y <= 0)
    return;
  marks = list_marks (self, layout);

  for (guint m = 0; m < marks->len; m++)
    {
      const Mark *mark = &g_array_index (marks, Mark, m);
      const PsCounterChange *change = mark_change (self, mark);
      g_autofree char *label = format_change_size (self, change);
      double x = round (mark->x) + 0.5;
      int width;
      double label_x;

      ps_chart_set_source (cr, ps_chart_palette_color (mark->series), 0.9);
      cairo_set_line_width (cr, mark->series == self->emphasized ? 2.5 : 1.5);
      cairo_move_to (cr, x, top + HANDLE_SIZE);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
      /* A handle under the label */
      cairo_move_to (cr, x - HANDLE_SIZE, top);
      cairo_line_to (cr, x + HANDLE_SIZE, top);
      cairo_line_to (cr, x, top + HANDLE_SIZE + 1);
      cairo_close_path (cr);
      cairo_fill (cr);
      /* A climb or a fall: a faint bar under the handle to its last step,
       * faint so as not to read as a value at the top of the axis */
      if (change->n_steps > 1)
        {
          double end = MIN (x_of (layout, (double)change->end_ns), right - GAP);

          ps_chart_set_source (cr, ps_chart_palette_color (mark->series), 0.35);
          cairo_rectangle (cr, x, top, MAX (end - x, 0), 2);
          cairo_fill (cr);
        }

      g_object_unref (ps_chart_text_layout (widget, label, &width, NULL));
      label_x = CLAMP (x - width / 2.0, GAP, right - width);
      if (label_x < previous_end)
        continue;
      ps_chart_set_source (cr, ps_chart_palette_color (mark->series), 1);
      ps_chart_draw_text (widget, cr, label, label_x, layout->changes_y, 0, 0.5);
      previous_end = label_x + width + GAP;
    }
}

/* A time of the x axis to about a thousandth of span */
static char *
format_time (PsCounterChart *self,
             gint64          time_ns,
             double          span)
{
  return ps_timeline_format_position (self->sequence_axis, (double)time_ns,
                                      self->sequence_axis ? 1 : MAX (span / 1000, 1));
}

static void
append_tooltip (PsCounterChart        *self,
                GString               *text,
                const Series          *series,
                const PsCounterChange *change,
                double                 span)
{
  g_autofree char *begin = format_time (self, change->time_ns, span);
  g_autofree char *before = format_value (self, change->mean_before);
  g_autofree char *after = format_value (self, change->mean_after);
  g_autofree char *relative = format_change_size (self, change);
  g_autofree char *p_value = ps_trend_format_p_value (change->point.p_value);

  if (text->len > 0)
    g_string_append (text, "\n\n");
  if (change->n_steps > 1)
    {
      g_autofree char *end = format_time (self, change->end_ns, span);

      /* Translators: a change mark's tooltip, a counter whose level moved
       * gradually: the series, when it began and when it ended */
      g_string_append_printf (text, _("%s changed gradually from %s to %s"), series->label, begin, end);
    }
  else
    /* Translators: a change mark's tooltip: the series and when its level changed */
    g_string_append_printf (text, _("%s changed at %s"), series->label, begin);
  /* Translators: a change mark's tooltip: the means of the readings before
   * and after the change, with their unit, then the relative change and
   * its significance, "+38.0 % (p < 0.001)" */
  g_string_append_printf (text, _("\nMean before: %s\nMean after: %s\nChange: %s (%s)"),
                          before, after, relative, p_value);
}

char *
ps_counter_chart_describe_change_at (PsCounterChart *self,
                                     double          x)
{
  g_auto(Layout) layout = { 0 };
  g_autoptr(GArray) marks = NULL;
  GString *text;

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  if (!ps_counter_chart_compute_layout (self, &layout) || layout.changes_y <= 0)
    return NULL;
  marks = list_marks (self, &layout);
  text = g_string_new (NULL);
  for (guint m = 0; m < marks->len; m++)
    {
      const Mark *mark = &g_array_index (marks, Mark, m);

      if (fabs (mark->x - x) <= MARK_HOVER_DISTANCE)
        append_tooltip (self, text, g_ptr_array_index (self->series, mark->series), mark_change (self, mark),
                        (double)(layout.x_end - layout.x_begin));
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

void
ps_counter_chart_append_changes (PsCounterChart *self,
                                 GString        *text)
{
  for (guint s = 0; s < self->series->len; s++)
    {
      Series *series = g_ptr_array_index (self->series, s);
      gint64 x_min, x_max;
      double low, high;

      if (series->changes == NULL || !ps_value_lod_get_range (series->values, &x_min, &x_max, &low, &high))
        continue;
      for (guint c = 0; c < series->changes->len; c++)
        {
          const PsCounterChange *change = &g_array_index (series->changes, PsCounterChange, c);
          g_autofree char *when = format_time (self, change->time_ns, (double)(x_max - x_min));
          g_autofree char *relative = format_change_size (self, change);
          g_autofree char *p_value = ps_trend_format_p_value (change->point.p_value);

          /* Translators: accessible description of a change mark of a
           * counter chart: the series, the relative change, when it began
           * and its significance */
          g_string_append_printf (text, _("%s changed by %s at %s (%s). "), series->label, relative, when, p_value);
        }
    }
}

void
ps_counter_chart_set_series_changes (PsCounterChart *self,
                                     guint           series,
                                     GArray         *changes)
{
  Series *entry;

  g_return_if_fail (PS_IS_COUNTER_CHART (self));
  g_return_if_fail (series < self->series->len);

  entry = g_ptr_array_index (self->series, series);
  g_clear_pointer (&entry->changes, g_array_unref);
  if (changes != NULL)
    {
      entry->changes = g_array_copy (changes);
      ps_counter_changes_snap_to_readings (entry->changes, entry->values);
    }
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GArray *
ps_counter_chart_get_series_changes (PsCounterChart *self,
                                     guint           series)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);
  g_return_val_if_fail (series < self->series->len, NULL);

  return ((Series *)g_ptr_array_index (self->series, series))->changes;
}

gboolean
ps_counter_chart_get_change_x (PsCounterChart *self,
                               guint           series,
                               guint           change,
                               double         *x,
                               double         *top)
{
  g_auto(Layout) layout = { 0 };
  Series *entry;

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), FALSE);
  g_return_val_if_fail (series < self->series->len, FALSE);

  entry = g_ptr_array_index (self->series, series);
  if (entry->changes == NULL || change >= entry->changes->len
      || !ps_counter_chart_compute_layout (self, &layout) || layout.changes_y <= 0)
    return FALSE;
  *x = x_of (&layout, (double)g_array_index (entry->changes, PsCounterChange, change).time_ns);
  if (top != NULL)
    *top = layout.changes_y + layout.text_height / 2.0 + 1;
  return *x >= layout.plot.origin.x - 0.5 && *x <= layout.plot.origin.x + layout.plot.size.width + 0.5;
}
