/* ps-counters-view-charts.c — the counters view's charts: the points of
 * a checked counter, and one chart per unit of the checked counters
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the tree and the table (ps-counters-view.c,
 * ps-counters-view-stats.c) because the points are the one heavy part:
 * made once per counter and cached, from the kept readings when every
 * reading was kept and there are not too many to scan, else from the
 * store's overview (the mean of each of its buckets), which sees every
 * reading.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>

#include "ps-counter-change-finder.h"
#include "ps-counters-view-private.h"
#include "ps-perflib-block.h"
#include "ps-view-util.h"

/* Past this many kept readings in the run, a checked counter is drawn
 * from its overview instead of scanning them all */
#define MAX_SCANNED_VALUES (G_GUINT64_CONSTANT (4) << 20)
#define MEBIBYTE 1048576.0

/* --- The points of a counter ---------------------------------------------- */

typedef struct
{
  PsEventStore *store;
  PsValueLod   *values;
  GArray       *indices;  /* guint64: the store's reading of each point;
                           * NULL when made from the overview */
} CounterPoints;

static void
counter_points_clear (gpointer data)
{
  CounterPoints *points = data;

  g_clear_object (&points->store);
  g_clear_pointer (&points->values, ps_value_lod_unref);
  g_clear_pointer (&points->indices, g_array_unref);
}

void
ps_counters_view_points_release (gpointer data)
{
  g_rc_box_release_full (data, counter_points_clear);
}

/* Points under construction, while the readings are read */
typedef struct
{
  CounterPoints *points;
  GArray        *x;  /* gint64 */
  GArray        *y;  /* double */
} PointsBuilder;

static PointsBuilder *
points_builder_new (PsEventStore *store)
{
  PointsBuilder *builder = g_new0 (PointsBuilder, 1);

  builder->points = g_rc_box_new0 (CounterPoints);
  builder->points->store = g_object_ref (store);
  builder->x = g_array_new (FALSE, FALSE, sizeof (gint64));
  builder->y = g_array_new (FALSE, FALSE, sizeof (double));
  return builder;
}

static CounterPoints *
points_builder_finish (PointsBuilder *builder)
{
  CounterPoints *points = builder->points;

  points->values = ps_value_lod_new ((const gint64 *)(gpointer)builder->x->data,
                                     (const double *)(gpointer)builder->y->data, builder->x->len);
  g_array_unref (builder->x);
  g_array_unref (builder->y);
  g_free (builder);
  return points;
}

/* The points of every track in tracks (guint32 → PointsBuilder) from the
 * kept readings, read once for all of them */
static void
add_kept_readings (PsEventStore *store,
                   GHashTable   *tracks)
{
  guint64 n_kept = ps_event_store_get_n_counter_values (store);

  for (guint64 i = 0; i < n_kept; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      PointsBuilder *builder = g_hash_table_lookup (tracks, GUINT_TO_POINTER (value->track));
      double number;

      if (builder == NULL)
        continue;
      number = value->flags & PS_COUNTER_FLAG_MISSING ? NAN : value->value;
      g_array_append_val (builder->x, value->time_ns);
      g_array_append_val (builder->y, number);
      g_array_append_val (builder->points->indices, i);
    }
}

/* One point in the middle of every stretch of the overview up to the
 * last with readings: its bucket's mean, or none (a gap in the line) */
static void
add_overview (PsEventStore  *store,
              guint32        track,
              PointsBuilder *builder)
{
  PsCounterOverview overview;
  guint n_stretches;
  guint next = 0;

  if (!ps_event_store_get_counter_overview (store, track, &overview))
    return;
  n_stretches = overview.n_buckets > 0 ? overview.buckets[overview.n_buckets - 1].index + 1 : 0;
  for (guint b = 0; b < n_stretches; b++)
    {
      gint64 time_ns = overview.begin_ns + (gint64)b * overview.bucket_ns + overview.bucket_ns / 2;
      double number = NAN;

      if (overview.buckets[next].index == b)
        number = overview.buckets[next++].mean;

      g_array_append_val (builder->x, time_ns);
      g_array_append_val (builder->y, number);
    }
}

/* The read-out of a PerfLib reading: what the value was computed from */
static char *
describe_point (gsize    index,
                gpointer user_data)
{
  CounterPoints *points = user_data;
  const PsCounterValue *value;
  const PsCounterRaw *raw;
  const PsTrack *track;
  guint64 reading;

  if (points->indices == NULL || index >= points->indices->len)
    return NULL;
  reading = g_array_index (points->indices, guint64, index);
  value = ps_event_store_get_counter_value (points->store, reading);
  raw = ps_event_store_get_counter_raw (points->store, reading);
  if (!(value->flags & PS_COUNTER_FLAG_RAW) || raw == NULL)
    return NULL;
  track = ps_event_store_get_track (points->store, value->track);
  /* Types without a base (timers, rates, raw counts) have only the raw value */
  if ((track->flags & PS_TRACK_FLAG_COUNTER_TYPE) && !ps_perflib_type_needs_base (track->ordinal))
    /* Translators: what a counter's value was computed from, shown after
     * it: "12.5 % (raw 1234567)" */
    return g_strdup_printf (_("raw %" PRId64), raw->raw);
  /* Translators: what a counter's value was computed from, shown after it:
   * "12.5 % (raw 1234567, base 9876543)" */
  return g_strdup_printf (_("raw %" PRId64 ", base %" PRId64), raw->raw, raw->base);
}

/* Charts */

/* The points of each of nodes that has none yet: from the kept readings,
 * all read in one pass, or from the overviews when the readings were
 * thinned or are too many to read */
static void
ensure_points (PsCountersView *self,
               GPtrArray      *nodes)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  g_autoptr(GHashTable) missing = g_hash_table_new (NULL, NULL);
  gboolean from_readings = ps_event_store_get_counter_stride (store) <= 1
                           && ps_event_store_get_n_counter_values (store) <= MAX_SCANNED_VALUES;
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < nodes->len; i++)
    {
      guint32 track = ps_counter_node_get_track (g_ptr_array_index (nodes, i));
      PointsBuilder *builder;

      if (g_hash_table_contains (self->points, GUINT_TO_POINTER (track))
          || g_hash_table_contains (missing, GUINT_TO_POINTER (track)))
        continue;
      builder = points_builder_new (store);
      if (from_readings)
        builder->points->indices = g_array_new (FALSE, FALSE, sizeof (guint64));
      else
        add_overview (store, track, builder);
      g_hash_table_insert (missing, GUINT_TO_POINTER (track), builder);
    }
  if (from_readings && g_hash_table_size (missing) > 0)
    add_kept_readings (store, missing);

  g_hash_table_iter_init (&iter, missing);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (self->points, key, points_builder_finish (value));
}

void
ps_counters_view_apply_range (PsCountersView *self)
{
  gint64 begin = 0, end = 0;

  if (self->session != NULL)
    ps_session_get_visible_range (self->session, &begin, &end);
  /* The session's first range, [0, 1), stands until the timeline has
   * indexed the run: show all of the data meanwhile */
  if (end - begin <= 1)
    begin = end = 0;
  for (guint i = 0; i < self->charts->len; i++)
    ps_counter_chart_set_x_range (g_ptr_array_index (self->charts, i), begin, end);
}

/* A series is named by what tells it apart from the others of its chart:
 * the instance when they are all the same counter of one object */
static char *
series_label (PsCounterNode *node,
              gboolean       one_counter)
{
  const char *instance = ps_counters_view_ancestor_label (node, PS_TRACK_INSTANCE);
  const char *object = ps_counters_view_ancestor_label (node, PS_TRACK_OBJECT);

  if (one_counter)
    return g_strdup (*instance != '\0' ? instance : object);
  if (*instance != '\0')
    /* Translators: a series of a chart: counter (instance) */
    return g_strdup_printf (_("%s (%s)"), ps_counter_node_get_label (node), instance);
  return g_strdup_printf ("%s\\%s", object, ps_counter_node_get_label (node));
}

/* The counter of each node */
static GArray *
node_tracks (GPtrArray *nodes)
{
  GArray *tracks = g_array_sized_new (FALSE, FALSE, sizeof (guint32), nodes->len);

  for (guint i = 0; i < nodes->len; i++)
    g_array_index (g_array_set_size (tracks, i + 1), guint32, i) = ps_counter_node_get_track (g_ptr_array_index (nodes, i));
  return tracks;
}

static void
add_chart (PsCountersView *self,
           GPtrArray      *nodes)
{
  PsCounterNode *first = g_ptr_array_index (nodes, 0);
  const char *unit = ps_counter_node_get_unit (first);
  const char *counter = ps_counter_node_get_label (first);
  const char *object = ps_counters_view_ancestor_label (first, PS_TRACK_OBJECT);
  gboolean one_counter = TRUE;
  double highest = 0;
  g_autofree char *title = NULL;
  g_autoptr(GArray) tracks = NULL;
  PsCounterChart *chart = PS_COUNTER_CHART (ps_counter_chart_new ());

  for (guint i = 0; i < nodes->len; i++)
    {
      PsCounterNode *node = g_ptr_array_index (nodes, i);
      const PsCounterStats *stats = ps_event_store_get_counter_stats (ps_counter_node_get_store (node),
                                                                      ps_counter_node_get_track (node));

      if (g_strcmp0 (ps_counter_node_get_label (node), counter) != 0
          || g_strcmp0 (ps_counters_view_ancestor_label (node, PS_TRACK_OBJECT), object) != 0)
        one_counter = FALSE;
      if (stats != NULL && stats->n_values > 0)
        highest = MAX (highest, fabs (stats->max));
    }

  if (one_counter)
    /* Translators: a chart's title: object — counter */
    title = g_strdup_printf (_("%s — %s"), object, counter);
  else if (*unit != '\0')
    /* The chart adds its unit: "Counters (%)" */
    title = g_strdup (_("Counters"));
  else
    title = g_strdup (_("Counters without a unit"));
  ps_counter_chart_set_title (chart, title);
  /* Bytes are easier to read in MiB */
  if (g_strcmp0 (unit, "bytes") == 0 && highest >= MEBIBYTE)
    ps_counter_chart_set_unit (chart, C_("byte unit", "MiB"), 1 / MEBIBYTE);
  else
    ps_counter_chart_set_unit (chart, unit, 1);
  ps_counter_chart_set_stacked (chart, self->stacked);

  for (guint i = 0; i < nodes->len; i++)
    {
      PsCounterNode *node = g_ptr_array_index (nodes, i);
      CounterPoints *points = g_hash_table_lookup (self->points,
                                                   GUINT_TO_POINTER (ps_counter_node_get_track (node)));
      g_autofree char *label = series_label (node, one_counter);
      guint series = ps_counter_chart_add_series_full (chart, label, points->values, describe_point,
                                                       g_rc_box_acquire (points), ps_counters_view_points_release);

      /* _Total is its instances' total: stacked on them it would count
       * them twice */
      ps_counter_chart_set_series_aggregate (chart, series, ps_counter_node_is_aggregate (node));
    }
  /* Which counter each series is, for the one chosen in another view,
   * and where its level changed, marked once found */
  tracks = node_tracks (nodes);
  g_object_set_data_full (G_OBJECT (chart), "ps-series-tracks", g_array_ref (tracks), (GDestroyNotify)g_array_unref);
  ps_counter_chart_find_changes (chart, ps_run_view_get_store (PS_RUN_VIEW (self)), (const guint32 *)(gpointer)tracks->data, tracks->len);

  gtk_widget_set_vexpand (GTK_WIDGET (chart), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (chart), -1, 180);
  gtk_box_append (self->charts_box, GTK_WIDGET (chart));
  g_ptr_array_add (self->charts, chart);
}

/* The timeline charts the checked counters only: a run can have
 * thousands */
void
ps_counters_view_share_checked_tracks (PsCountersView *self,
                                       GPtrArray      *checked)
{
  g_autoptr(GArray) tracks = NULL;

  if (self->session == NULL || self->analysis == NULL)
    return;
  tracks = node_tracks (checked);
  ps_session_set_counter_tracks (self->session, (const guint32 *)(gpointer)tracks->data, tracks->len, FALSE);
}

void
ps_counters_view_update_charts (PsCountersView *self)
{
  g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (self);
  g_autoptr(GPtrArray) units = g_ptr_array_new ();   /* const char *, in order of first use */
  g_autofree char *selection = NULL;
  GtkWidget *child;

  g_clear_handle_id (&self->update_id, g_source_remove);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->charts_box))) != NULL)
    gtk_box_remove (self->charts_box, child);
  g_ptr_array_set_size (self->charts, 0);

  for (guint i = 0; i < checked->len; i++)
    {
      const char *unit = ps_counter_node_get_unit (g_ptr_array_index (checked, i));

      if (!g_ptr_array_find_with_equal_func (units, unit, g_str_equal, NULL))
        g_ptr_array_add (units, (gpointer)unit);
    }
  /* Every chart's points in one pass over the readings */
  ensure_points (self, checked);
  for (guint u = 0; u < units->len; u++)
    {
      g_autoptr(GPtrArray) nodes = g_ptr_array_new ();

      for (guint i = 0; i < checked->len; i++)
        if (g_str_equal (ps_counter_node_get_unit (g_ptr_array_index (checked, i)), g_ptr_array_index (units, u)))
          g_ptr_array_add (nodes, g_ptr_array_index (checked, i));
      add_chart (self, nodes);
    }
  ps_counters_view_apply_range (self);
  ps_counters_view_apply_time_selection (self);
  ps_counters_view_share_checked_tracks (self, checked);
  gtk_stack_set_visible_child_name (self->chart_stack, checked->len > 0 ? "charts" : "empty");

  /* The table: the checked counters */
  self->following = TRUE;
  g_list_store_splice (self->checked, 0, g_list_model_get_n_items (G_LIST_MODEL (self->checked)),
                       checked->pdata, checked->len);
  self->following = FALSE;
  ps_counters_view_follow_session (self);

  /* Each number chooses its own plural: "64 counters checked, in 1 chart" */
  {
    g_autofree char *counters = ps_view_format_count (checked->len);
    g_autofree char *n_counters = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s counter checked",
                                                                "%s counters checked", checked->len),
                                                   counters);
    g_autofree char *n_charts = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "in %u chart", "in %u charts",
                                                              units->len),
                                                 units->len);

    /* Translators: "64 counters checked", "in 2 charts" */
    selection = units->len > 1 ? g_strdup_printf (_("%s, %s"), n_counters, n_charts) : g_steal_pointer (&n_counters);
  }
  gtk_label_set_text (self->selection_label, checked->len > 0 ? selection : _("No counter checked"));
}

static gboolean
update_idle_cb (gpointer user_data)
{
  PsCountersView *self = user_data;

  self->update_id = 0;
  ps_counters_view_update_charts (self);
  return G_SOURCE_REMOVE;
}

void
ps_counters_view_counter_checked_cb (PsCountersView *self)
{
  if (self->update_id == 0)
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, update_idle_cb, self, NULL);
}
