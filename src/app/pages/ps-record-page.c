/* ps-record-page.c — a run being recorded, drawn as it grows
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collector commits batches into the store on the main context and
 * says so with the store's "appended"; the page redraws on a 100 ms tick
 * when something came in since the last one, so a fast backend costs at
 * most ten redraws a second and a slow one no more than it sends. The
 * charts are kept from tick to tick (only their series are replaced),
 * so nothing is laid out again while the readings grow. Where each
 * counter's level changed is found again in a worker every few seconds
 * at most, and once more when the recording stops; each tick marks the
 * changes last found.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "ps-counter-change-finder.h"
#include "ps-counter-name.h"
#include "ps-host-collector.h"
#include "ps-record-page.h"
#include "ps-session.h"
#include "ps-span-lod.h"
#include "ps-view-util.h"

#define REFRESH_INTERVAL_MS 100
#define CHANGES_INTERVAL_US (3 * G_USEC_PER_SEC)
#define MEBIBYTE            (1024.0 * 1024.0)

struct _PsRecordPage
{
  GtkWidget       parent_instance;

  PsCollector    *collector;
  PsEventStore   *store;
  PsSession      *session;
  char           *title;
  char           *status;
  gint64          started_us;
  gint64          stopped_us;
  guint           tick_id;
  gulong          appended_handler;
  gulong          lost_handler;
  gulong          late_handler;
  gulong          exited_handler;
  gulong          focus_handler;
  gboolean        target_exited;
  gboolean        dirty;        /* the store grew since the last refresh */
  gboolean        recording;
  gboolean        stopping;
  guint           n_refreshes;
  guint           n_ticks;
  GPtrArray      *charts;       /* PsCounterChart, in charts_box */
  GArray         *chart_keys;   /* ChartKey of each chart */
  GHashTable     *changes;      /* track → GArray of PsCounterChange, as last found */
  GCancellable   *changes_cancellable;  /* while they are found… */
  GArray         *changes_tracks;       /* …for these tracks (guint32) */
  gint64          changes_us;   /* when they were last asked for */

  /* Template widgets */
  GtkWidget      *box;
  GtkPaned       *paned;
  GtkLabel       *title_label;
  GtkLabel       *status_label;
  GtkLabel       *lost_label;
  GtkButton      *stop_button;
  GtkBox         *charts_box;
  GtkWidget      *waiting_label;
  PsTimelineView *timeline_view;
};

/* The readings of one chart: the counters of one object in one unit
 * (the system's memory in bytes), or one counter of every instance of an
 * object (each process's CPU), so that a tree of many processes makes a
 * chart per counter, not per process */
typedef struct
{
  guint32 parent;    /* the object */
  guint32 unit;
  guint32 counter;   /* the counter's name for instances, else 0 */
} ChartKey;

G_DEFINE_FINAL_TYPE (PsRecordPage, ps_record_page, GTK_TYPE_WIDGET)

enum {
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
format_elapsed (gint64 elapsed_us)
{
  guint64 tenths = (guint64)MAX (elapsed_us, 0) / 100000;
  guint64 seconds = tenths / 10;

  if (seconds >= 3600)
    return g_strdup_printf ("%" G_GUINT64_FORMAT ":%02u:%02u.%u", seconds / 3600,
                            (guint)(seconds / 60 % 60), (guint)(seconds % 60), (guint)(tenths % 10));
  return g_strdup_printf ("%u:%02u.%u", (guint)(seconds / 60), (guint)(seconds % 60), (guint)(tenths % 10));
}

static guint64
count_events (PsEventStore *store)
{
  return ps_event_store_get_n_counter_readings (store) + ps_event_store_get_n_samples (store)
         + ps_event_store_get_n_spans (store) + ps_event_store_get_n_marks (store)
         + ps_event_store_get_n_measurements (store);
}

static void
update_status (PsRecordPage *self)
{
  gint64 now = self->recording ? g_get_monotonic_time () : self->stopped_us;
  g_autofree char *elapsed = format_elapsed (now - self->started_us);
  guint64 n_events = count_events (self->store);
  g_autofree char *count = ps_view_format_count (n_events);
  g_autofree char *events = NULL;

  /* Translators: %s is a number of events, already formatted */
  events = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events", (gulong)MIN (n_events, G_MAXULONG)),
                            count);
  g_free (self->status);
  if (self->stopping && self->target_exited)
    /* Translators: the status of a recording whose process ended: elapsed time, events */
    self->status = g_strdup_printf (_("The process exited after %s · %s"), elapsed, events);
  else if (self->stopping)
    /* Translators: the status of a recording: elapsed time, events */
    self->status = g_strdup_printf (_("Stopping after %s · %s"), elapsed, events);
  else
    /* Translators: the status of a recording: elapsed time, events */
    self->status = g_strdup_printf (_("Recording for %s · %s"), elapsed, events);
  gtk_label_set_text (self->status_label, self->status);
}

static const char *
track_name (PsEventStore *store,
            guint32       track)
{
  const PsTrack *info = track < ps_event_store_get_n_tracks (store) ? ps_event_store_get_track (store, track) : NULL;

  return info != NULL ? ps_event_store_get_string (store, info->name) : "";
}

/* A counter of an instance is named by its instance as the outputs name
 * it (a process's command line, #1 for the second of that name), any
 * other by itself */
static char *
series_label (PsEventStore *store,
              guint32       track)
{
  PsCounterName name;
  char *label;

  ps_counter_name_init (&name, store, track, FALSE);
  label = g_strdup (name.instance != NULL ? name.instance : name.counter);
  ps_counter_name_clear (&name);
  return label;
}

static guint
find_chart (PsRecordPage   *self,
            const ChartKey *key)
{
  for (guint i = 0; i < self->chart_keys->len; i++)
    {
      const ChartKey *other = &g_array_index (self->chart_keys, ChartKey, i);

      if (other->parent == key->parent && other->unit == key->unit && other->counter == key->counter)
        return i;
    }
  return G_MAXUINT;
}

/* The index of the chart of key, made on first sight */
static guint
ensure_chart (PsRecordPage   *self,
              const ChartKey *key)
{
  guint index = find_chart (self, key);
  PsCounterChart *chart;

  if (index != G_MAXUINT)
    return index;

  chart = PS_COUNTER_CHART (ps_counter_chart_new ());
  gtk_widget_set_size_request (GTK_WIDGET (chart), -1, 160);
  gtk_widget_set_vexpand (GTK_WIDGET (chart), TRUE);
  gtk_box_append (self->charts_box, GTK_WIDGET (chart));
  g_ptr_array_add (self->charts, chart);
  g_array_append_val (self->chart_keys, *key);
  gtk_widget_set_visible (self->waiting_label, FALSE);

  return self->charts->len - 1;
}

/* Every chart drawn again from the store's readings: a live run keeps
 * every reading, and is small enough to be read whole at each tick */
static void
refresh_charts (PsRecordPage *self)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  g_autofree GArray **xs = g_new0 (GArray *, n_tracks + 1);
  g_autofree GArray **ys = g_new0 (GArray *, n_tracks + 1);
  g_autofree guint *chart_of = g_new (guint, n_tracks + 1);
  g_autoptr(GArray) highest = g_array_new (FALSE, TRUE, sizeof (double));
  guint series;

  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      double number = value->flags & PS_COUNTER_FLAG_MISSING ? NAN : value->value;

      if (value->track >= n_tracks)
        continue;
      if (xs[value->track] == NULL)
        {
          xs[value->track] = g_array_new (FALSE, FALSE, sizeof (gint64));
          ys[value->track] = g_array_new (FALSE, FALSE, sizeof (double));
        }
      g_array_append_val (xs[value->track], value->time_ns);
      g_array_append_val (ys[value->track], number);
    }

  /* Each counter's chart, and the highest reading of every chart */
  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      const PsTrack *parent = track->parent < n_tracks ? ps_event_store_get_track (store, track->parent) : NULL;
      const PsCounterStats *stats;
      ChartKey key = { track->parent, track->unit, 0 };

      if (parent != NULL && parent->kind == PS_TRACK_INSTANCE)
        {
          key.parent = parent->parent;
          key.counter = track->name;
        }

      if (xs[t] == NULL)
        continue;
      chart_of[t] = ensure_chart (self, &key);
      g_array_set_size (highest, self->charts->len);
      stats = ps_event_store_get_counter_stats (store, t);
      if (stats != NULL && stats->n_values > 0)
        g_array_index (highest, double, chart_of[t]) = MAX (g_array_index (highest, double, chart_of[t]),
                                                            MAX (fabs (stats->min), fabs (stats->max)));
    }

  /* Charts keep their place; each gets its series again, and its unit:
   * the highest reading picks MiB or bytes (the chart adds the unit to
   * the title) */
  for (guint c = 0; c < self->charts->len; c++)
    {
      PsCounterChart *chart = g_ptr_array_index (self->charts, c);
      const ChartKey *key = &g_array_index (self->chart_keys, ChartKey, c);
      const char *unit = key->unit != 0 ? ps_event_store_get_string (store, key->unit) : "";

      ps_counter_chart_clear (chart);
      ps_counter_chart_set_emphasized (chart, G_MAXUINT);
      if (key->counter != 0)
        {
          /* Translators: a chart's title: an object (Process) and a counter */
          g_autofree char *title = g_strdup_printf (_("%s · %s"), track_name (store, key->parent),
                                                    ps_event_store_get_string (store, key->counter));

          ps_counter_chart_set_title (chart, title);
        }
      else
        ps_counter_chart_set_title (chart, track_name (store, key->parent));
      if (g_strcmp0 (unit, "bytes") == 0 && c < highest->len && g_array_index (highest, double, c) >= MEBIBYTE)
        ps_counter_chart_set_unit (chart, C_("byte unit", "MiB"), 1 / MEBIBYTE);
      else
        ps_counter_chart_set_unit (chart, unit, 1);
    }

  for (guint32 t = 0; t < n_tracks; t++)
    {
      g_autoptr(GArray) x = g_steal_pointer (&xs[t]);
      g_autoptr(GArray) y = g_steal_pointer (&ys[t]);
      g_autoptr(PsValueLod) values = NULL;
      g_autofree char *series_name = NULL;

      if (x == NULL)
        continue;
      values = ps_value_lod_new ((const gint64 *)(gpointer)x->data, (const double *)(gpointer)y->data, x->len);
      series_name = series_label (store, t);
      series = ps_counter_chart_add_series (g_ptr_array_index (self->charts, chart_of[t]), series_name, values);
      ps_counter_chart_set_series_changes (g_ptr_array_index (self->charts, chart_of[t]), series,
                                           g_hash_table_lookup (self->changes, GUINT_TO_POINTER (t)));
      /* The counter chosen on the timeline, over the others */
      if (ps_session_is_focus_track (self->session, t))
        ps_counter_chart_set_emphasized (g_ptr_array_index (self->charts, chart_of[t]), series);
    }
}

static void
changes_found_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PsRecordPage) self = user_data;
  g_autoptr(GPtrArray) changes = ps_counter_changes_find_finish (result, NULL);
  GArray *tracks = self->changes_tracks;

  /* Cancelled: a newer question or the page's end */
  if (changes == NULL || self->store == NULL)
    return;
  g_clear_object (&self->changes_cancellable);
  g_hash_table_remove_all (self->changes);
  for (guint i = 0; i < changes->len; i++)
    if (g_ptr_array_index (changes, i) != NULL)
      g_hash_table_insert (self->changes, GUINT_TO_POINTER (g_array_index (tracks, guint32, i)),
                           g_array_ref (g_ptr_array_index (changes, i)));
  refresh_charts (self);
}

/* The changes of every counter with readings, unless they are being found
 * or were asked for less than CHANGES_INTERVAL_US ago (now: the last) */
static void
find_changes (PsRecordPage *self,
              gboolean      now)
{
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 now_us = g_get_monotonic_time ();

  if (!now && (self->changes_cancellable != NULL || now_us - self->changes_us < CHANGES_INTERVAL_US))
    return;
  if (self->changes_cancellable != NULL)
    g_cancellable_cancel (self->changes_cancellable);
  g_clear_object (&self->changes_cancellable);
  self->changes_us = now_us;
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (self->store); t++)
    {
      const PsCounterStats *stats = ps_event_store_get_counter_stats (self->store, t);

      if (stats != NULL && stats->n_values > 0)
        g_array_append_val (tracks, t);
    }
  self->changes_cancellable = g_cancellable_new ();
  g_clear_pointer (&self->changes_tracks, g_array_unref);
  self->changes_tracks = tracks;
  ps_counter_changes_find_async (self->store, (const guint32 *)(gpointer)tracks->data, tracks->len,
                                 self->changes_cancellable, changes_found_cb, g_object_ref (self));
}

static void
refresh (PsRecordPage *self)
{
  self->dirty = FALSE;
  self->n_refreshes++;
  refresh_charts (self);
  find_changes (self, !self->recording);
  ps_session_counters_appended (self->session);
  /* The whole run stays in view as it grows */
  ps_timeline_view_reset_zoom (self->timeline_view);
}

static gboolean
tick_cb (gpointer user_data)
{
  PsRecordPage *self = user_data;

  self->n_ticks++;
  if (self->dirty)
    refresh (self);
  update_status (self);

  return G_SOURCE_CONTINUE;
}

static void
appended_cb (PsRecordPage *self)
{
  self->dirty = TRUE;
}

/* Readings that came late or were lost, as the collector counted them */
static void
update_timing_label (PsRecordPage *self)
{
  guint64 n_lost = ps_collector_get_n_lost (self->collector);
  guint64 n_late = ps_collector_get_n_late (self->collector);
  g_autofree char *lost_count = ps_view_format_count (n_lost);
  g_autofree char *late_count = ps_view_format_count (n_late);
  g_autofree char *text = ps_collector_describe_late_lost (n_late, late_count, n_lost, lost_count);

  gtk_label_set_text (self->lost_label, text != NULL ? text : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->lost_label),
                               _("The collector could not keep up with its interval: the system was too busy. "
                                 "Each late or lost reading is in the run’s Warnings."));
  gtk_widget_set_visible (GTK_WIDGET (self->lost_label), n_lost > 0 || n_late > 0);
}

/* The launched command or the chosen process exited: so does the
 * recording, with everything up to then */
static void
target_exited_cb (PsRecordPage *self)
{
  self->target_exited = TRUE;
  ps_record_page_stop (self);
}

static gboolean
target_exited_idle (gpointer user_data)
{
  g_autoptr(PsRecordPage) self = user_data;

  target_exited_cb (self);
  return G_SOURCE_REMOVE;
}

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PsRecordPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!ps_collector_stop_finish (PS_COLLECTOR (object), result, &error))
    {
      /* What was recorded stays; the run says why it ended */
      if (ps_event_store_get_error (self->store) == NULL)
        ps_event_store_set_error (self->store, error);
    }

  self->recording = FALSE;
  self->stopping = FALSE;
  self->stopped_us = g_get_monotonic_time ();
  g_clear_handle_id (&self->tick_id, g_source_remove);
  refresh (self);
  update_status (self);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), FALSE);

  g_signal_emit (self, signals[FINISHED], 0, error);
}

void
ps_record_page_stop (PsRecordPage *self)
{
  g_return_if_fail (PS_IS_RECORD_PAGE (self));

  if (!self->recording || self->stopping)
    return;

  self->stopping = TRUE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.stop", FALSE);
  update_status (self);
  ps_collector_stop_async (self->collector, NULL, stop_cb, g_object_ref (self));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  ps_record_page_stop (PS_RECORD_PAGE (widget));
}

static void
ps_record_page_dispose (GObject *object)
{
  PsRecordPage *self = PS_RECORD_PAGE (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->changes_cancellable != NULL)
    g_cancellable_cancel (self->changes_cancellable);
  g_clear_object (&self->changes_cancellable);
  /* A tab closed while recording: the backend stops, nobody waits */
  if (self->collector != NULL && self->recording && !self->stopping)
    {
      self->stopping = TRUE;
      ps_collector_stop_async (self->collector, NULL, NULL, NULL);
    }
  if (self->store != NULL)
    g_clear_signal_handler (&self->appended_handler, self->store);
  if (self->collector != NULL)
    {
      g_clear_signal_handler (&self->lost_handler, self->collector);
      g_clear_signal_handler (&self->late_handler, self->collector);
      g_clear_signal_handler (&self->exited_handler, self->collector);
    }
  if (self->session != NULL)
    g_clear_signal_handler (&self->focus_handler, self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), PS_TYPE_RECORD_PAGE);
  g_clear_object (&self->session);
  g_clear_object (&self->collector);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (ps_record_page_parent_class)->dispose (object);
}

static void
ps_record_page_finalize (GObject *object)
{
  PsRecordPage *self = PS_RECORD_PAGE (object);

  g_free (self->title);
  g_free (self->status);
  g_ptr_array_unref (self->charts);
  g_array_unref (self->chart_keys);
  g_hash_table_unref (self->changes);
  g_clear_pointer (&self->changes_tracks, g_array_unref);

  G_OBJECT_CLASS (ps_record_page_parent_class)->finalize (object);
}

static void
ps_record_page_class_init (PsRecordPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_record_page_dispose;
  object_class->finalize = ps_record_page_finalize;

  /**
   * PsRecordPage::finished:
   * @error: (nullable): why the backend failed, or %NULL
   *
   * The recording ended; the store holds everything it recorded.
   */
  signals[FINISHED] =
    g_signal_new ("finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);

  g_type_ensure (PS_TYPE_TIMELINE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-record-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, box);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, paned);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, lost_label);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, stop_button);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, charts_box);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, PsRecordPage, timeline_view);
  gtk_widget_class_install_action (widget_class, "record.stop", NULL, stop_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_record_page_init (PsRecordPage *self)
{
  self->charts = g_ptr_array_new ();
  self->chart_keys = g_array_new (FALSE, FALSE, sizeof (ChartKey));
  self->changes = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
  gtk_widget_init_template (GTK_WIDGET (self));
  ps_view_place_paned (self->paned, NULL, 0.4, 320);
  ps_view_whole_text_in_tooltips (GTK_WIDGET (self));
}

GtkWidget *
ps_record_page_new (PsCollector  *collector,
                    PsEventStore *store,
                    const char   *title)
{
  PsRecordPage *self;

  g_return_val_if_fail (PS_IS_COLLECTOR (collector), NULL);
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  self = g_object_new (PS_TYPE_RECORD_PAGE, NULL);
  self->collector = g_object_ref (collector);
  self->store = g_object_ref (store);
  self->title = g_strdup (title);
  self->recording = TRUE;
  self->started_us = g_get_monotonic_time ();
  self->dirty = TRUE;
  gtk_label_set_text (self->title_label, title);

  self->session = ps_session_new (store);
  ps_timeline_view_set_session (self->timeline_view, self->session, NULL);
  self->focus_handler = g_signal_connect_swapped (self->session, "focus-changed", G_CALLBACK (refresh_charts), self);

  self->appended_handler = g_signal_connect_swapped (store, "appended", G_CALLBACK (appended_cb), self);
  self->lost_handler = g_signal_connect_swapped (collector, "lost", G_CALLBACK (update_timing_label), self);
  self->late_handler = g_signal_connect_swapped (collector, "late", G_CALLBACK (update_timing_label), self);
  self->exited_handler = g_signal_connect_swapped (collector, "target-exited", G_CALLBACK (target_exited_cb), self);
  self->tick_id = g_timeout_add (REFRESH_INTERVAL_MS, tick_cb, self);
  update_status (self);
  if (g_strcmp0 (ps_collector_get_name (collector), PS_HOST_COLLECTOR_NAME) == 0)
    gtk_label_set_text (GTK_LABEL (self->waiting_label),
                        _("Recording on your system with perfscope-cli: the readings come when it stops."));
  /* A short command may have ended while the page was being made */
  if (ps_collector_has_target_exited (collector))
    {
      self->target_exited = TRUE;
      /* Above drawing's priority, which a busy machine keeps pending */
      g_idle_add_full (G_PRIORITY_DEFAULT, target_exited_idle, g_object_ref (self), NULL);
    }

  return GTK_WIDGET (self);
}

const char *
ps_record_page_get_title (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), NULL);
  return self->title;
}

PsEventStore *
ps_record_page_get_store (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), NULL);
  return self->store;
}

gboolean
ps_record_page_is_recording (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), FALSE);
  return self->recording;
}

guint
ps_record_page_get_n_refreshes (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), 0);
  return self->n_refreshes;
}

guint
ps_record_page_get_n_ticks (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), 0);
  return self->n_ticks;
}

const char *
ps_record_page_get_status (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), NULL);
  return self->status;
}

GPtrArray *
ps_record_page_get_charts (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), NULL);
  return self->charts;
}

PsTimelineView *
ps_record_page_get_timeline_view (PsRecordPage *self)
{
  g_return_val_if_fail (PS_IS_RECORD_PAGE (self), NULL);
  return self->timeline_view;
}
