/* ps-counters-view-stats.c — the counters view's statistics table: its
 * values, its columns, and the statistics of a range selected on the
 * timeline
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the tree and the charts (ps-counters-view.c,
 * ps-counters-view-charts.c) because the table only reads the checked
 * counters: one row per counter, its statistics in the counter's unit,
 * those of every reading or, once a worker has computed them, those of
 * the range selected on the timeline.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-counter-range.h"
#include "ps-counters-view-private.h"
#include "ps-table-export.h"
#include "ps-task-util.h"
#include "ps-view-util.h"

/* Values */

/* A value with its unit, with one precision down a column: "42.96 %",
 * "1.00 %", "850 /sec", "9.6 MiB", "520.000 µs" */
static char *
format_value (double      value,
              const char *unit)
{
  g_autofree char *number = NULL;

  if (isnan (value))
    return g_strdup ("–");
  if (g_strcmp0 (unit, "bytes") == 0)
    return ps_view_format_quantity (PS_VIEW_QUANTITY_BYTES, value);
  if (g_strcmp0 (unit, "s") == 0)
    return ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, value);
  if (g_strcmp0 (unit, "ms") == 0)
    return ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, value / 1000);
  number = ps_view_format_number (value);
  if (unit == NULL || *unit == '\0')
    return g_steal_pointer (&number);
  /* Translators: a number and its unit, "5.20 ms" */
  return g_strdup_printf (C_("value with unit", "%s %s"), number, ps_view_unit_name (unit));
}

const char *
ps_counters_view_ancestor_label (PsCounterNode *node,
                                 PsTrackKind    kind)
{
  PsCounterNode *ancestor = ps_counter_node_get_ancestor (node, kind);

  return ancestor != NULL ? ps_counter_node_get_label (ancestor) : "";
}

/* The statistics the table shows of a counter: of the range selected on
 * the timeline once they are computed, else of every reading; NULL
 * without any reading */
static const PsCounterStats *
shown_stats (PsCountersView *self,
             PsCounterNode  *node)
{
  guint32 track = ps_counter_node_get_track (node);

  if (self->range_stats != NULL)
    return track < self->range_n_tracks ? &self->range_stats[track] : NULL;
  return ps_event_store_get_counter_stats (ps_counter_node_get_store (node), track);
}

static double
stats_number (PsCountersView *self,
              PsCounterNode  *node,
              StatsColumn     column)
{
  const PsCounterStats *stats = shown_stats (self, node);

  if (stats == NULL)
    return column == STATS_COUNT || column == STATS_MISSING ? 0 : NAN;
  switch (column)
    {
    case STATS_COUNT:
      return (double)stats->n_values;
    case STATS_MISSING:
      return (double)stats->n_missing;
    case STATS_MIN:
      return stats->min;
    case STATS_MAX:
      return stats->max;
    case STATS_MEAN:
      return stats->n_values > 0 ? stats->sum / (double)stats->n_values : NAN;
    case STATS_LAST:
      return stats->last;
    default:
      return NAN;
    }
}

char *
ps_counters_view_stats_cell_text (PsCountersView *self,
                                  PsCounterNode  *node,
                                  StatsColumn     column)
{
  switch (column)
    {
    case STATS_MACHINE:
      return g_strdup (ps_counters_view_ancestor_label (node, PS_TRACK_MACHINE));
    case STATS_OBJECT:
      return g_strdup (ps_counters_view_ancestor_label (node, PS_TRACK_OBJECT));
    case STATS_INSTANCE:
      return g_strdup (ps_counters_view_ancestor_label (node, PS_TRACK_INSTANCE));
    case STATS_COUNTER:
      return g_strdup (ps_counter_node_get_label (node));
    case STATS_UNIT:
      return g_strdup (ps_view_unit_name (ps_counter_node_get_unit (node)));
    case STATS_COUNT:
    case STATS_MISSING:
      return ps_view_format_count ((guint64)stats_number (self, node, column));
    case STATS_MIN:
    case STATS_MAX:
    case STATS_MEAN:
    case STATS_LAST:
      return format_value (stats_number (self, node, column), ps_counter_node_get_unit (node));
    case N_STATS_COLUMNS:
    default:
      return NULL;
    }
}

/* The statistics of a range selected on the timeline are computed in a
 * worker: a day of counters is millions of readings to go through. A
 * newer range cancels the computation of the one before; the table and
 * its notice change together, when the new numbers are there. */

typedef struct
{
  PsEventStore *store;
  gint64        begin_ns;
  gint64        end_ns;
} RangeStatsTask;

static void
range_stats_task_free (gpointer data)
{
  RangeStatsTask *task_data = data;

  g_clear_object (&task_data->store);
  g_free (task_data);
}

static void
range_stats_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  RangeStatsTask *range = task_data;
  GError *error = NULL;
  PsCounterStats *stats = ps_counter_range_stats (range->store, range->begin_ns, range->end_ns, cancellable, &error);

  if (stats == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, stats, g_free);
}

/* A time of the run on the clock, in the zone the file gives (named as
 * the timeline names it), the date too when the range spans two days;
 * NULL for a run without a clock */
static char *
format_clock_time (PsCountersView *self,
                   gint64          time_ns,
                   gboolean        with_date,
                   gboolean        with_zone)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  const PsSessionInfo *session = ps_event_store_get_n_sessions (store) > 0 ? ps_event_store_get_session (store, 0) : NULL;
  int offset_minutes;
  char *text;
  g_autofree char *zone_name = NULL;
  g_autofree char *zone = NULL;

  if (session == NULL || session->origin_unix_ns == 0)
    return NULL;
  ps_view_run_utc_offset (store, 0, &offset_minutes);
  text = ps_view_format_wall_time (session->origin_unix_ns + time_ns, offset_minutes,
                                   with_date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S");
  zone_name = ps_view_format_zone (offset_minutes);
  zone = g_strconcat (" ", zone_name, NULL);
  /* "from 01:08:20.000 to 01:25:00.000 UTC−08:00": the zone once */
  if (!with_zone && g_str_has_suffix (text, zone))
    text[strlen (text) - strlen (zone)] = '\0';
  return text;
}

/* The table's rows bound again and sorted again for new numbers, the
 * focused counter kept selected */
static void
refresh_stats_rows (PsCountersView *self)
{
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->checked));
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_rows; i++)
    g_ptr_array_add (rows, g_list_model_get_item (G_LIST_MODEL (self->checked), i));
  self->following = TRUE;
  g_list_store_splice (self->checked, 0, n_rows, rows->pdata, rows->len);
  self->following = FALSE;
  ps_counters_view_follow_session (self);
}

static void
update_range_notice (PsCountersView *self)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *from_start = NULL;
  g_autofree char *to_start = NULL;
  g_autofree char *when = NULL;
  g_autofree char *text = NULL;
  guint stride;

  if (self->range_stats == NULL)
    {
      gtk_widget_set_visible (self->range_box, FALSE);
      return;
    }
  /* The axis counts from the start of the run */
  from_start = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, (double)self->range_begin_ns / 1e9);
  to_start = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, (double)self->range_end_ns / 1e9);
  {
    g_autofree char *begin_day = format_clock_time (self, self->range_begin_ns, TRUE, FALSE);
    g_autofree char *end_day = format_clock_time (self, self->range_end_ns, TRUE, FALSE);
    gboolean with_date = begin_day != NULL && end_day != NULL
                         && strncmp (begin_day, end_day, strlen ("YYYY-MM-DD")) != 0;

    from = format_clock_time (self, self->range_begin_ns, with_date, FALSE);
    to = format_clock_time (self, self->range_end_ns, with_date, TRUE);
  }
  if (from != NULL && to != NULL)
    /* Translators: when the readings of the statistics are, on the clock
     * and from the start of the run: "01:08:20.000 to 01:25:00.000
     * UTC−08:00 (500 s to 1,500 s into the run)" */
    when = g_strdup_printf (_("%s to %s (%s to %s into the run)"), from, to, from_start, to_start);
  else
    /* Translators: when the readings of the statistics are, from the start
     * of the run: "500 s to 1,500 s into the run" */
    when = g_strdup_printf (_("%s to %s into the run"), from_start, to_start);

  stride = ps_event_store_get_counter_stride (ps_run_view_get_store (PS_RUN_VIEW (self)));
  if (stride > 1)
    /* Translators: the statistics table shows the readings of a time range
     * selected on the timeline ("01:08:20.000 to 01:25:00.000 UTC−08:00
     * (500 s to 1,500 s into the run)"), of a run that keeps one reading
     * in %u (always more than 1) */
    text = g_strdup_printf (_("Statistics of the readings from %s, the range selected on the timeline; the run keeps one reading in %u, and these are of the readings kept"),
                            when, stride);
  else
    /* Translators: the statistics table shows the readings of a time range
     * selected on the timeline: "01:08:20.000 to 01:25:00.000 UTC−08:00
     * (500 s to 1,500 s into the run)" */
    text = g_strdup_printf (_("Statistics of the readings from %s, the range selected on the timeline"), when);
  gtk_label_set_text (self->range_label, text);
  /* The whole text, where the lines have no room for it */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_label), text);
  gtk_widget_set_visible (self->range_box, TRUE);
}

static void
range_stats_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  PsCountersView *self = PS_COUNTERS_VIEW (object);
  RangeStatsTask *range = g_task_get_task_data (G_TASK (result));
  PsCounterStats *stats = g_task_propagate_pointer (G_TASK (result), NULL);

  /* A newer range, or none, took its place */
  if (stats == NULL || g_task_get_cancellable (G_TASK (result)) != self->range_cancellable)
    {
      g_free (stats);
      return;
    }
  g_clear_object (&self->range_cancellable);
  g_free (self->range_stats);
  self->range_stats = stats;
  self->range_n_tracks = ps_event_store_get_n_tracks (range->store);
  self->range_begin_ns = range->begin_ns;
  self->range_end_ns = range->end_ns;
  update_range_notice (self);
  refresh_stats_rows (self);
}

void
ps_counters_view_cancel_range_stats (PsCountersView *self)
{
  if (self->range_cancellable != NULL)
    g_cancellable_cancel (self->range_cancellable);
  g_clear_object (&self->range_cancellable);
}

/* The statistics follow the range selected on the timeline: those of its
 * readings, or of every reading again when it is cleared */
void
ps_counters_view_update_range_stats (PsCountersView *self)
{
  gint64 begin = 0, end = 0;
  g_autoptr(GTask) task = NULL;
  RangeStatsTask *range;

  if (self->analysis != NULL && self->session != NULL && ps_session_get_selection (self->session, &begin, &end)
      && self->range_cancellable != NULL && begin == self->pending_begin_ns && end == self->pending_end_ns)
    return;
  ps_counters_view_cancel_range_stats (self);
  if (self->analysis == NULL || self->session == NULL || !ps_session_get_selection (self->session, &begin, &end))
    {
      if (self->range_stats != NULL)
        {
          g_clear_pointer (&self->range_stats, g_free);
          self->range_n_tracks = 0;
          update_range_notice (self);
          refresh_stats_rows (self);
        }
      return;
    }
  if (self->range_stats != NULL && begin == self->range_begin_ns && end == self->range_end_ns)
    return;

  range = g_new0 (RangeStatsTask, 1);
  range->store = g_object_ref (ps_run_view_get_store (PS_RUN_VIEW (self)));
  range->begin_ns = begin;
  range->end_ns = end;
  self->range_cancellable = g_cancellable_new ();
  self->pending_begin_ns = begin;
  self->pending_end_ns = end;
  task = g_task_new (self, self->range_cancellable, range_stats_done_cb, NULL);
  g_task_set_source_tag (task, ps_counters_view_update_range_stats);
  g_task_set_task_data (task, range, range_stats_task_free);
  ps_task_run_in_background (task, range_stats_thread);
}

/* The statistics table */

/* The counter's whole path */
static char *
stats_counter_tooltip (gpointer item,
                       guint    column,
                       gpointer user_data)
{
  PsEventStore *store = ps_counter_node_get_store (item);

  return g_strdup (ps_event_store_get_string (store,
                                              ps_event_store_get_track (store, ps_counter_node_get_track (item))->category));
}

static void
stats_setup_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  StatsColumn column = ((StatsColumnData *)user_data)->column;
  GtkWidget *label = ps_view_cell_label_new (column >= STATS_COUNT);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column == STATS_COUNTER)
    ps_view_cell_set_tooltip (label, list_item, column, stats_counter_tooltip, NULL);
  gtk_list_item_set_child (list_item, label);
}

static void
stats_bind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  StatsColumnData *data = user_data;
  StatsColumn column = data->column;
  PsCounterNode *node = gtk_list_item_get_item (list_item);
  g_autofree char *text = ps_counters_view_stats_cell_text (data->view, node, column);
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
}

static int
stats_compare (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  StatsColumnData *data = user_data;
  StatsColumn column = data->column;
  PsCounterNode *first = (PsCounterNode *)a;
  PsCounterNode *second = (PsCounterNode *)b;

  if (column < STATS_COUNT)
    {
      g_autofree char *first_text = ps_counters_view_stats_cell_text (data->view, first, column);
      g_autofree char *second_text = ps_counters_view_stats_cell_text (data->view, second, column);

      return g_utf8_collate (first_text, second_text);
    }
  else
    {
      double x = stats_number (data->view, first, column);
      double y = stats_number (data->view, second, column);

      /* Counters without values last */
      if (isnan (x) || isnan (y))
        return isnan (x) - isnan (y);
      return (x > y) - (x < y);
    }
}

const char *
ps_counters_view_stats_column_title (StatsColumn column)
{
  switch (column)
    {
    case STATS_MACHINE:
      return _("Machine");
    case STATS_OBJECT:
      return _("Object");
    case STATS_INSTANCE:
      return _("Instance");
    case STATS_COUNTER:
      return _("Counter");
    case STATS_UNIT:
      return _("Unit");
    case STATS_COUNT:
      /* Translators: a column title: readings with a value */
      return _("Count");
    case STATS_MISSING:
      /* Translators: a column title: readings without a value */
      return _("Missing");
    case STATS_MIN:
      return _("Min");
    case STATS_MAX:
      return _("Max");
    case STATS_MEAN:
      return _("Mean");
    case STATS_LAST:
      return _("Last");
    case N_STATS_COLUMNS:
    default:
      return "";
    }
}

/* The export's value of a cell: statistics in the counter's unit */
static void
stats_export_value (GObject  *item,
                    GValue   *value,
                    gpointer  user_data)
{
  StatsColumnData *data = user_data;
  StatsColumn column = data->column;
  PsCounterNode *node = PS_COUNTER_NODE (item);
  double number;

  if (column < STATS_COUNT)
    {
      g_value_init (value, G_TYPE_STRING);
      g_value_take_string (value, ps_counters_view_stats_cell_text (data->view, node, column));
      return;
    }

  number = stats_number (data->view, node, column);
  if (column == STATS_COUNT || column == STATS_MISSING)
    {
      g_value_init (value, G_TYPE_UINT64);
      g_value_set_uint64 (value, (guint64)number);
    }
  else if (!isnan (number))
    {
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, number);
    }
}

/* The headers of the statistics name the unit when every counter shown
 * has the same one; the Unit column always does */
static void
update_stats_export_units (PsCountersView *self)
{
  GListModel *rows = G_LIST_MODEL (self->checked_sorted);
  GListModel *columns;
  g_autofree char *unit = NULL;
  gboolean same = TRUE;

  /* Also while the view is disposed of */
  if (self->stats_view == NULL)
    return;

  for (guint i = 0; i < g_list_model_get_n_items (rows) && same; i++)
    {
      g_autoptr(PsCounterNode) node = g_list_model_get_item (rows, i);
      const char *node_unit = ps_counter_node_get_unit (node);

      if (i == 0)
        unit = g_strdup (node_unit);
      else
        same = g_strcmp0 (unit, node_unit) == 0;
    }

  columns = gtk_column_view_get_columns (self->stats_view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      StatsColumn stats_column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column), "ps-stats-column"));

      if (stats_column >= STATS_MIN && stats_column <= STATS_LAST)
        ps_table_export_set_column_unit (column, same ? unit : NULL);
    }
}

void
ps_counters_view_add_stats_columns (PsCountersView *self)
{
  for (StatsColumn column = 0; column < N_STATS_COLUMNS; column++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) view_column = NULL;
      g_autoptr(GtkSorter) sorter = NULL;
      StatsColumnData *data = &self->stats_columns[column];

      data->view = self;
      data->column = column;
      g_signal_connect (factory, "setup", G_CALLBACK (stats_setup_cb), data);
      g_signal_connect (factory, "bind", G_CALLBACK (stats_bind_cb), data);
      view_column = gtk_column_view_column_new (ps_counters_view_stats_column_title (column), g_steal_pointer (&factory));
      sorter = GTK_SORTER (gtk_custom_sorter_new (stats_compare, data, NULL));
      gtk_column_view_column_set_sorter (view_column, sorter);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      if (column == STATS_COUNTER)
        gtk_column_view_column_set_expand (view_column, TRUE);
      g_object_set_data (G_OBJECT (view_column), "ps-stats-column", GUINT_TO_POINTER (column));
      ps_table_export_set_column (view_column, NULL, NULL, stats_export_value, data, NULL);
      gtk_column_view_append_column (self->stats_view, view_column);
    }

  self->checked_sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->checked)),
                                                  g_object_ref (gtk_column_view_get_sorter (self->stats_view)));
  ps_view_set_column_model (self->stats_view, G_LIST_MODEL (self->checked_sorted));
  g_signal_connect_object (gtk_column_view_get_model (self->stats_view), "notify::selected-item",
                           G_CALLBACK (ps_counters_view_stats_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->checked_sorted, "items-changed",
                           G_CALLBACK (update_stats_export_units), self, G_CONNECT_SWAPPED);
  ps_table_export_attach (self->stats_view, "counter-statistics", 1);
}
