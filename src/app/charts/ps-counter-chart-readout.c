/* ps-counter-chart-readout.c — what a counter chart says: the read-out of
 * every series at a place, and the accessible description
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The read-out follows the pointer, or the keyboard's cursor moved along
 * the plot with the arrow keys; over a change mark the tooltip tells of
 * the change instead (ps-counter-chart-changes.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-counter-chart-private.h"
#include "ps-timeline-render.h"
#include "ps-view-util.h"

/* Past this many series the read-out lists the highest readings only */
#define MAX_READOUT_SERIES 16

typedef struct
{
  guint  series;
  gsize  index;   /* of the reading nearest to the read-out */
  double value;
} Reading;

/* Highest first, missing readings last, then in the order of the series */
static int
compare_readings (gconstpointer a,
                  gconstpointer b)
{
  const Reading *first = a;
  const Reading *second = b;

  if (isnan (first->value) || isnan (second->value))
    {
      if (isnan (first->value) != isnan (second->value))
        return isnan (first->value) ? 1 : -1;
    }
  else if (first->value != second->value)
    return first->value > second->value ? -1 : 1;
  return (first->series > second->series) - (first->series < second->series);
}

char *
ps_counter_chart_describe_at (PsCounterChart *self,
                              double          x)
{
  g_autofree char *where = NULL;
  g_autoptr(GArray) readings = NULL;
  GString *text;
  g_auto(Layout) layout = { 0 };
  gint64 position;
  guint n_left_out = 0;

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  if (!ps_counter_chart_compute_layout (self, &layout) || x < layout.plot.origin.x
      || x > layout.plot.origin.x + layout.plot.size.width)
    return NULL;

  position = x_at (&layout, x);
  where = ps_timeline_format_position (self->sequence_axis, (double)position,
                                       self->sequence_axis ? 1 : MAX ((double)(layout.x_end - layout.x_begin) / 1000, 1));
  text = g_string_new (where);
  /* Every series, in order; past MAX_READOUT_SERIES the highest readings
   * and how many were left out (a tooltip of 64 lines is no read-out) */
  readings = g_array_sized_new (FALSE, FALSE, sizeof (Reading), self->series->len);
  for (guint i = 0; i < self->series->len; i++)
    {
      Series *series = g_ptr_array_index (self->series, i);
      Reading reading = { i, ps_value_lod_find (series->values, position), NAN };

      /* The reading nearest to the pointer */
      ps_value_lod_get_point (series->values, reading.index, NULL, &reading.value);
      g_array_append_val (readings, reading);
    }
  if (readings->len > MAX_READOUT_SERIES)
    {
      g_array_sort (readings, compare_readings);
      n_left_out = readings->len - MAX_READOUT_SERIES;
      g_array_set_size (readings, MAX_READOUT_SERIES);
    }
  for (guint r = 0; r < readings->len; r++)
    {
      const Reading *reading = &g_array_index (readings, Reading, r);
      Series *series = g_ptr_array_index (self->series, reading->series);
      g_autofree char *detail = NULL;

      if (isnan (reading->value))
        {
          g_string_append_printf (text, "\n%s: –", series->label);
          continue;
        }
      {
        g_autofree char *number = ps_view_format_number (reading->value * self->scale);

        g_string_append_printf (text, "\n%s: %s", series->label, number);
      }
      if (self->unit != NULL && *self->unit != '\0')
        g_string_append_printf (text, " %s", self->unit);
      if (series->detail_func != NULL)
        detail = series->detail_func (reading->index, series->detail_data);
      if (detail != NULL)
        g_string_append_printf (text, " (%s)", detail);
      if (ps_counter_chart_is_line_over_stack (self, series))
        /* Translators: after the reading of the total of the other series
         * of a stacked chart (the _Total instance), drawn as a line */
        g_string_append_printf (text, " %s", _("(line, not in the total below)"));
    }
  if (n_left_out > 0)
    {
      g_autofree char *more = ps_counter_chart_more_text (n_left_out);

      g_string_append_printf (text, "\n%s", more);
    }
  if (ps_counter_chart_is_stacked (self))
    {
      g_autofree char *number = ps_view_format_number (ps_counter_chart_stack_sum_at (self, position) * self->scale);

      /* Translators: the sum of the series of a stacked chart, "Total: 57.30 %" */
      g_string_append_printf (text, _("\nTotal: %s %s"), number, self->unit != NULL ? self->unit : "");
    }
  return g_string_free (text, FALSE);
}

gboolean
ps_counter_chart_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard,
                                GtkTooltip *tooltip)
{
  PsCounterChart *self = PS_COUNTER_CHART (widget);
  double at = keyboard ? self->hover_x : x;
  /* A change mark there tells of its change rather than of the readings */
  g_autofree char *text = ps_counter_chart_describe_change_at (self, at);

  if (text == NULL)
    text = ps_counter_chart_describe_at (self, at);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
ps_counter_chart_motion_cb (PsCounterChart *self,
                            double          x,
                            double          y)
{
  self->hover_x = x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_counter_chart_leave_cb (PsCounterChart *self)
{
  self->hover_x = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Keyboard: the arrows move the read-out along the plot, Home and End
 * jump to its ends, Escape hides it; the accessible description reads it */
static void
move_readout (PsCounterChart *self,
              double          step)
{
  graphene_rect_t plot;
  g_autofree char *readout = NULL;

  if (!ps_counter_chart_get_plot (self, &plot))
    return;
  if (self->hover_x < plot.origin.x || self->hover_x > plot.origin.x + plot.size.width)
    self->hover_x = step >= 0 ? plot.origin.x : plot.origin.x + plot.size.width;
  else
    self->hover_x = CLAMP (self->hover_x + step, plot.origin.x, plot.origin.x + plot.size.width);
  readout = ps_counter_chart_describe_change_at (self, self->hover_x);
  if (readout == NULL)
    readout = ps_counter_chart_describe_at (self, self->hover_x);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, readout != NULL ? readout : "",
                                  -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_counter_chart_move_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *parameter)
{
  move_readout (PS_COUNTER_CHART (widget), g_variant_get_double (parameter));
}

void
ps_counter_chart_hide_readout_action (GtkWidget  *widget,
                                      const char *action_name,
                                      GVariant   *parameter)
{
  PsCounterChart *self = PS_COUNTER_CHART (widget);

  self->hover_x = -1;
  ps_counter_chart_update_accessible (self);
  gtk_widget_queue_draw (widget);
}

double
ps_counter_chart_get_readout_x (PsCounterChart *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), -1);

  return self->hover_x;
}

/* Accessibility: the title, and the series with their ranges and their
 * changes */
char *
ps_counter_chart_get_description (PsCounterChart *self)
{
  GString *description = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_COUNTER_CHART (self), NULL);

  for (guint i = 0; i < self->series->len; i++)
    {
      Series *series = g_ptr_array_index (self->series, i);
      gint64 x_min, x_max;
      double low, high;
      g_autofree char *lowest = NULL;
      g_autofree char *highest = NULL;

      if (!ps_value_lod_get_range (series->values, &x_min, &x_max, &low, &high))
        continue;
      lowest = ps_view_format_number (low * self->scale);
      highest = ps_view_format_number (high * self->scale);
      /* Translators: accessible description of a counter series: name,
       * number of readings, lowest and highest value with the unit */
      g_string_append_printf (description, _("%s: %zu readings from %s to %s %s. "),
                              series->label, ps_value_lod_get_n_points (series->values),
                              lowest, highest, self->unit != NULL ? self->unit : "");
    }
  ps_counter_chart_append_changes (self, description);
  return g_string_free (description, FALSE);
}

void
ps_counter_chart_update_accessible (PsCounterChart *self)
{
  g_autofree char *description = ps_counter_chart_get_description (self);
  g_autofree char *title = ps_counter_chart_dup_title_with_unit (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, *title != '\0' ? title : _("Counters"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}
