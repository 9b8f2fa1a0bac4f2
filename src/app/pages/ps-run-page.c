/* ps-run-page.c — one run in a tab: loading, errors and the run's views
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading happens in two steps off the main thread: PsLoader reads the file
 * into an event store (its "fraction" and "message" drive the progress
 * bar), then PsRunAnalysis computes the series. Only then do the views see
 * the data. A result that arrives for a load that was cancelled or
 * replaced is dropped: the page compares it with its current loader.
 *
 * Every load passes the application's symbol folder to the loader (option
 * "sysroot"; formats that do not resolve symbols ignore it), and a run of
 * samples is read again when that folder changes.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-accessible-util.h"
#include "ps-ce-view-private.h"
#include "ps-counter-chart.h"
#include "ps-counters-view-private.h"
#include "ps-format.h"
#include "ps-loader.h"
#include "ps-profile-view-private.h"
#include "ps-ready-clock.h"
#include "ps-report-view.h"
#include "ps-run-analysis.h"
#include "ps-run-page-private.h"
#include "ps-save-location.h"
#include "ps-session.h"
#include "ps-timeline-view.h"
#include "ps-view-util.h"
#include "ps-wrap-box.h"

struct _PsRunPage
{
  GtkWidget       parent_instance;

  GFile          *file;
  char           *title;
  PsRunPageState  state;
  PsLoader       *loader;
  GCancellable   *cancellable;
  PsEventStore   *store;
  PsSession      *session;
  GBinding       *fraction_binding;
  GBinding       *message_binding;
  char           *sysroot;          /* the loader's "sysroot" of the last load */
  char           *encoding;         /* the code page asked for (PS_FORMAT_OPTION_ENCODING), or NULL to guess */
  GApplication   *watched_application;
  /* The run compared with this one whose charts share their value scales
   * with this one's (ps_run_page_set_shared_value_scale ()), or NULL */
  PsRunPage      *scale_partner;
  guint           share_charts_id;  /* the charts' scales shared again */
  /* Waits, from the analysis on, for the first frame that shows the
   * tables and the drawn timeline: then the page is ready */
  GdkFrameClock  *ready_clock;
  gulong          after_paint_id;
  gboolean        ready;

  /* Template widgets */
  GtkStack       *stack;
  GtkLabel       *loading_title;
  GtkProgressBar *progress_bar;
  GtkLabel       *error_label;
  GtkLabel       *cancelled_label;
  GtkRevealer    *banner_revealer;
  GtkLabel       *banner_label;
  GtkStack       *lower_stack;     /* the views, or "Computing statistics…" */
  /* The views of each kind of run, made when first needed: building all
   * five for every file kept the main thread 60–90 ms as it opened */
  GtkBox         *views_box;
  PsCeView       *ce_view;
  PsRtlView      *rtl_view;
  PsReportView   *report_view;
  PsProfileView  *profile_view;
  PsCountersView *counters_view;
  GtkPaned       *paned;
  GtkWidget      *timeline_window;
  PsTimelineView *timeline_view;
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_TITLE,
  PROP_STATE,
  PROP_STORE,
  N_PROPS
};

enum {
  READY,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ENUM_TYPE (PsRunPageState, ps_run_page_state,
                    G_DEFINE_ENUM_VALUE (PS_RUN_PAGE_EMPTY, "empty"),
                    G_DEFINE_ENUM_VALUE (PS_RUN_PAGE_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (PS_RUN_PAGE_LOADED, "loaded"),
                    G_DEFINE_ENUM_VALUE (PS_RUN_PAGE_PARTIAL, "partial"),
                    G_DEFINE_ENUM_VALUE (PS_RUN_PAGE_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (PS_RUN_PAGE_CANCELLED, "cancelled"))

static void ps_run_page_save_source_init (PsSaveSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsRunPage, ps_run_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_SAVE_SOURCE, ps_run_page_save_source_init))

/* The view in *slot, made hidden at the end of the page's views when it
 * was not yet */
static gpointer
ensure_view (PsRunPage *self,
             GType      type,
             gpointer  *slot)
{
  if (*slot == NULL)
    {
      *slot = g_object_new (type, "vexpand", TRUE, "visible", FALSE, NULL);
      gtk_box_append (self->views_box, *slot);
      /* As the page's own parts (ps_run_page_init ()) */
      ps_view_whole_text_in_tooltips (*slot);
      ps_accessible_name_scrolling (*slot);
      ps_accessible_name_parts (*slot);
    }
  return *slot;
}

static PsCeView *
ce_view (PsRunPage *self)
{
  return ensure_view (self, PS_TYPE_CE_VIEW, (gpointer *)&self->ce_view);
}

static PsRtlView *
rtl_view (PsRunPage *self)
{
  return ensure_view (self, PS_TYPE_RTL_VIEW, (gpointer *)&self->rtl_view);
}

static PsReportView *
report_view (PsRunPage *self)
{
  return ensure_view (self, PS_TYPE_REPORT_VIEW, (gpointer *)&self->report_view);
}

static PsProfileView *
profile_view (PsRunPage *self)
{
  return ensure_view (self, PS_TYPE_PROFILE_VIEW, (gpointer *)&self->profile_view);
}

static PsCountersView *
counters_view (PsRunPage *self)
{
  return ensure_view (self, PS_TYPE_COUNTERS_VIEW, (gpointer *)&self->counters_view);
}

static gboolean is_report_store (PsEventStore *store);
static gboolean is_profile_store (PsEventStore *store);
static gboolean is_rtl_store (PsEventStore *store);
static gboolean is_counters_store (PsEventStore *store);

/* The view of the store's kind of run: CE PerfLog's is the default */
static gpointer
run_view_of_store (PsRunPage *self)
{
  if (is_report_store (self->store))
    return report_view (self);
  if (is_profile_store (self->store))
    return profile_view (self);
  if (is_rtl_store (self->store))
    return rtl_view (self);
  if (is_counters_store (self->store))
    return counters_view (self);
  return ce_view (self);
}

/* Shows the one view, and hides the others made before */
static void
show_view (PsRunPage *self,
           gpointer   view)
{
  gpointer views[] = { self->ce_view, self->rtl_view, self->report_view, self->profile_view, self->counters_view };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (views[i] != NULL)
      gtk_widget_set_visible (views[i], views[i] == view);
}

static void
set_state (PsRunPage      *self,
           PsRunPageState  state)
{
  static const char *pages[] = {
    [PS_RUN_PAGE_EMPTY] = "loading",
    [PS_RUN_PAGE_LOADING] = "loading",
    [PS_RUN_PAGE_LOADED] = "view",
    [PS_RUN_PAGE_PARTIAL] = "view",
    [PS_RUN_PAGE_FAILED] = "error",
    [PS_RUN_PAGE_CANCELLED] = "cancelled",
  };

  gtk_stack_set_visible_child_name (self->stack, pages[state]);
  if (state == PS_RUN_PAGE_FAILED || state == PS_RUN_PAGE_CANCELLED)
    gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY, FALSE, -1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.cancel", state == PS_RUN_PAGE_LOADING);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.reload", state != PS_RUN_PAGE_LOADING && self->file != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.show-warnings",
                                 state == PS_RUN_PAGE_LOADED || state == PS_RUN_PAGE_PARTIAL);

  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
set_store (PsRunPage    *self,
           PsEventStore *store)
{
  if (g_set_object (&self->store, store))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
}

static void
drop_loader (PsRunPage *self)
{
  g_clear_pointer (&self->fraction_binding, g_binding_unbind);
  g_clear_pointer (&self->message_binding, g_binding_unbind);
  g_clear_object (&self->loader);
}

static void
stop_loading (PsRunPage *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  drop_loader (self);
}

static void
show_error (PsRunPage    *self,
            const GError *error)
{
  gtk_label_set_text (self->error_label, error->message);
  set_state (self, PS_RUN_PAGE_FAILED);
  ps_ready_clock_finish (error);
}

static gboolean
is_rtl_store (PsEventStore *store)
{
  return g_strcmp0 (ps_event_store_get_format (store), ps_format_rtl_logfile.name) == 0;
}

/* Profiler reports give aggregated values instead of events */
static gboolean
is_report_store (PsEventStore *store)
{
  return ps_event_store_get_n_report_rows (store) > 0;
}

static gboolean
has_time_extent (PsEventStore *store)
{
  gint64 begin, end;

  return ps_event_store_get_time_range (store, &begin, &end) && end > begin;
}

/* Sampled call stacks (hwpmc, pmcstat -G) */
static gboolean
is_profile_store (PsEventStore *store)
{
  return !is_report_store (store) && ps_event_store_get_n_samples (store) > 0;
}

/* Performance counters (PDH logs, PerfLib captures) and nothing else */
static gboolean
is_counters_store (PsEventStore *store)
{
  gboolean counters = FALSE;

  if (ps_event_store_get_n_measurements (store) > 0 || ps_event_store_get_n_spans (store) > 0
      || ps_event_store_get_n_samples (store) > 0 || ps_event_store_get_n_report_rows (store) > 0)
    return FALSE;
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store) && !counters; t++)
    counters = ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER;
  return counters;
}

static void
stop_waiting_for_ready (PsRunPage *self)
{
  /* A window that went away took its frame clock's handlers with it */
  if (self->ready_clock != NULL && g_signal_handler_is_connected (self->ready_clock, self->after_paint_id))
    g_signal_handler_disconnect (self->ready_clock, self->after_paint_id);
  self->after_paint_id = 0;
  g_clear_object (&self->ready_clock);
}

/* After each frame painted since the analysis was installed: ready once
 * the timeline has drawn its rows, or has none to draw, and the view has
 * done its own work on the run (a sampled run's call tree, …): its end
 * shows, so a frame follows it */
static void
after_paint_cb (GdkFrameClock *frame_clock,
                PsRunPage     *self)
{
  gboolean timeline_shown = gtk_widget_get_mapped (GTK_WIDGET (self->timeline_view))
                            && gtk_widget_get_visible (self->timeline_window);

  /* The timeline shown while the statistics are computed: its rows are
   * the first a person sees */
  if (self->state == PS_RUN_PAGE_LOADING)
    {
      if (timeline_shown && ps_timeline_view_has_drawn_model (self->timeline_view))
        ps_ready_clock_mark ("first-rows");
      return;
    }
  if (self->state != PS_RUN_PAGE_LOADED && self->state != PS_RUN_PAGE_PARTIAL)
    return;
  if (timeline_shown && !ps_timeline_view_has_drawn_model (self->timeline_view))
    return;
  if (self->store != NULL && ps_run_view_is_busy (run_view_of_store (self)))
    return;
  ps_ready_clock_mark ("timeline");
  stop_waiting_for_ready (self);
  self->ready = TRUE;
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY, FALSE, -1);
  g_signal_emit (self, signals[READY], 0);
  ps_ready_clock_finish (NULL);
}

static void
wait_for_ready (PsRunPage *self)
{
  GdkFrameClock *frame_clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  stop_waiting_for_ready (self);
  if (frame_clock == NULL)
    return;
  self->ready_clock = g_object_ref (frame_clock);
  self->after_paint_id = g_signal_connect (frame_clock, "after-paint", G_CALLBACK (after_paint_cb), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
analysis_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PsRunPage) self = user_data;
  g_autoptr(PsRunAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;
  const GError *read_error;

  analysis = ps_run_analysis_compute_finish (result, &error);

  /* Cancelled, replaced by another load, or the page is gone */
  if (analysis == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (analysis != NULL && analysis->store != self->store)
    return;

  g_clear_object (&self->cancellable);

  if (analysis == NULL)
    {
      show_error (self, error);
      return;
    }

  gtk_stack_set_visible_child_name (self->lower_stack, "views");

  /* Each kind of run has its view (run_view_of_store ()) */
  {
    gpointer view = run_view_of_store (self);
    gboolean report = PS_IS_REPORT_VIEW (view);
    gboolean profile = PS_IS_PROFILE_VIEW (view);
    gboolean rtl = PS_IS_RTL_VIEW (view);
    gboolean counters = PS_IS_COUNTERS_VIEW (view);

    if (report)
      ps_report_view_set_analysis (report_view (self), analysis);
    else if (profile)
      {
        ps_profile_view_set_symbol_folder (profile_view (self), self->sysroot);
        ps_profile_view_set_analysis (profile_view (self), analysis);
      }
    else if (rtl)
      ps_rtl_view_set_analysis (rtl_view (self), analysis);
    else if (counters)
      ps_counters_view_set_analysis (counters_view (self), analysis);
    else
      ps_ce_view_set_analysis (ce_view (self), analysis);
    /* The view's tables have their rows: the first ones, unless the
     * timeline had drawn its own meanwhile */
    ps_ready_clock_mark ("first-rows");
    /* Everything with a time or a sequence has a timeline over its views;
     * a CE run's may be on its way already (start_analysis ()) */
    if (self->session == NULL)
      self->session = ps_session_new (self->store);
    /* A counter run's timeline shows the checked counters: the session
     * knows them before the timeline builds its rows */
    if (counters)
      ps_counters_view_set_session (counters_view (self), self->session);
    ps_timeline_view_set_session (self->timeline_view, report ? NULL : self->session, analysis);
    /* Aggregated samples (pmcstat -G) have no times to show */
    gtk_widget_set_visible (self->timeline_window, !report && (!profile || has_time_extent (self->store)));
    if (rtl)
      ps_rtl_view_set_session (rtl_view (self), self->session);
    else if (profile)
      ps_profile_view_set_session (profile_view (self), self->session);
    else if (!report && !counters)
      ps_ce_view_link_session (ce_view (self), self->session);

    show_view (self, view);
  }

  read_error = ps_event_store_get_error (self->store);
  if (read_error != NULL)
    {
      g_autofree char *text =
        /* Translators: %s is the error that stopped reading, with its position */
        g_strdup_printf (_("The file could not be read to the end: %s. Showing the data read before the error."),
                         read_error->message);

      gtk_label_set_text (self->banner_label, text);
      gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
      set_state (self, PS_RUN_PAGE_PARTIAL);
    }
  else
    {
      gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
      set_state (self, PS_RUN_PAGE_LOADED);
    }
  ps_ready_clock_mark ("analysis");
  wait_for_ready (self);
}

static void
start_analysis (PsRunPage    *self,
                PsEventStore *store)
{
  set_store (self, store);

  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();

  gtk_progress_bar_set_text (self->progress_bar, _("Computing statistics…"));
  gtk_progress_bar_set_fraction (self->progress_bar, 1.0);
  set_state (self, PS_RUN_PAGE_LOADING);

  /* The timeline of a CE run (its charts) or of an RTL run (its scopes)
   * comes from the store alone: it is made while the statistics are, and
   * shown as soon as it is, above "Computing statistics…" where the
   * views come (a 1 GiB RTL log takes seconds to analyse). Nothing there
   * moves: an animation has GTK draw the whole window at every frame,
   * a fifth of a core where it draws in software */
  g_clear_object (&self->session);
  if (ps_timeline_store_has_sequence_axis (store)
      || (ps_event_store_get_n_spans (store) > 0 && ps_event_store_get_n_report_rows (store) == 0))
    {
      self->session = ps_session_new (store);
      ps_timeline_view_set_session (self->timeline_view, self->session, NULL);
      gtk_widget_set_visible (self->timeline_window, TRUE);
      gtk_stack_set_visible_child_name (self->lower_stack, "computing");
      gtk_stack_set_visible_child_name (self->stack, "view");
      wait_for_ready (self);
    }

  ps_run_analysis_compute_async (store, self->cancellable, analysis_cb, g_object_ref (self));
  /* The view of the run's kind, made while the statistics are computed
   * rather than when they arrive */
  run_view_of_store (self);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PsRunPage) self = user_data;
  PsLoader *loader = PS_LOADER (object);
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = ps_loader_load_finish (loader, result, &error);

  /* A load that was cancelled or replaced in the meantime */
  if (loader != self->loader)
    return;

  drop_loader (self);
  ps_ready_clock_mark ("store");

  if (store == NULL)
    {
      g_clear_object (&self->cancellable);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          set_state (self, PS_RUN_PAGE_CANCELLED);
          ps_ready_clock_finish (error);
        }
      else
        show_error (self, error);
      return;
    }

  start_analysis (self, store);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ps_run_page_cancel (PS_RUN_PAGE (widget));
}

static void
reload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ps_run_page_load (PS_RUN_PAGE (widget));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  /* The tab that shows the run closes, be it the run's own or that of
   * a comparison the run is a side of (ps-window.c: "tab.close") */
  gtk_widget_activate_action (widget, "tab.close", NULL);
}

static void
show_warnings_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PsRunPage *self = PS_RUN_PAGE (widget);

  if (self->store != NULL)
    ps_run_view_show_page (PS_RUN_VIEW (run_view_of_store (self)), "warnings");
}

static void
dismiss_banner_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  gtk_revealer_set_reveal_child (PS_RUN_PAGE (widget)->banner_revealer, FALSE);
}

/* Same scale */

/* The charts of both runs that chart the same values span the union of
 * their ranges; the others their own */
static void
share_value_scales (PsRunPage *a,
                    PsRunPage *b)
{
  g_autoptr(GHashTable) ranges_a = ps_timeline_view_get_value_ranges (a->timeline_view);
  g_autoptr(GHashTable) ranges_b = ps_timeline_view_get_value_ranges (b->timeline_view);
  g_autoptr(GHashTable) shared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, ranges_a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const PsTimelineValueRange *range_a = value;
      const PsTimelineValueRange *range_b = g_hash_table_lookup (ranges_b, key);
      PsTimelineValueRange both;

      if (range_b == NULL)
        continue;
      both.min = MIN (range_a->min, range_b->min);
      both.max = MAX (range_a->max, range_b->max);
      g_hash_table_insert (shared, g_strdup (key), g_memdup2 (&both, sizeof both));
    }
  ps_timeline_view_set_shared_value_ranges (a->timeline_view, shared);
  ps_timeline_view_set_shared_value_ranges (b->timeline_view, shared);
}

/* The charts of the run's view that have a value axis, by what matches
 * them with the same chart of another run: a CE run's CPU and memory
 * charts, a counter run's chart of each unit (or counter). A table of
 * key → PsCounterChart. */
static GHashTable *
collect_charts (PsRunPage *self)
{
  GHashTable *charts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* A view not made has no charts */
  if (self->ce_view != NULL)
    {
      PsCounterChart *ce_charts[] = {
        ps_ce_view_get_cpu_chart (self->ce_view),
        ps_ce_view_get_memory_chart (self->ce_view),
      };

      for (guint i = 0; i < G_N_ELEMENTS (ce_charts); i++)
        {
          const char *title = ps_counter_chart_get_title (ce_charts[i]);

          g_hash_table_insert (charts, g_strdup_printf ("ce\x1f%s", title != NULL ? title : ""), ce_charts[i]);
        }
    }
  for (guint i = 0; self->counters_view != NULL && i < ps_counters_view_get_n_charts (self->counters_view); i++)
    {
      PsCounterChart *chart = ps_counters_view_get_chart (self->counters_view, i);
      const char *title = ps_counter_chart_get_title (chart);

      g_hash_table_insert (charts, g_strdup_printf ("counters\x1f%s", title != NULL ? title : ""), chart);
    }
  return charts;
}

/* The charts of both runs that have a counterpart span the union of
 * both's values; the others their own */
static void
share_chart_scales (PsRunPage *a,
                    PsRunPage *b)
{
  g_autoptr(GHashTable) charts_a = collect_charts (a);
  g_autoptr(GHashTable) charts_b = collect_charts (b);
  GHashTableIter iter;
  gpointer key, value;

  g_clear_handle_id (&a->share_charts_id, g_source_remove);
  g_clear_handle_id (&b->share_charts_id, g_source_remove);
  g_hash_table_iter_init (&iter, charts_a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      PsCounterChart *chart_a = value;
      PsCounterChart *chart_b = g_hash_table_lookup (charts_b, key);
      double min_a, max_a, min_b, max_b;

      if (chart_b != NULL && ps_counter_chart_get_value_range (chart_a, &min_a, &max_a)
          && ps_counter_chart_get_value_range (chart_b, &min_b, &max_b))
        {
          ps_counter_chart_set_shared_range (chart_a, TRUE, MIN (min_a, min_b), MAX (max_a, max_b));
          ps_counter_chart_set_shared_range (chart_b, TRUE, MIN (min_a, min_b), MAX (max_a, max_b));
          g_hash_table_remove (charts_b, key);
        }
      else
        ps_counter_chart_set_shared_range (chart_a, FALSE, 0, 0);
    }
  g_hash_table_iter_init (&iter, charts_b);
  while (g_hash_table_iter_next (&iter, &key, &value))
    ps_counter_chart_set_shared_range (value, FALSE, 0, 0);
}

static void
unshare_charts (PsRunPage *self)
{
  g_autoptr(GHashTable) charts = collect_charts (self);
  GHashTableIter iter;
  gpointer value;

  g_clear_handle_id (&self->share_charts_id, g_source_remove);
  g_hash_table_iter_init (&iter, charts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    ps_counter_chart_set_shared_range (value, FALSE, 0, 0);
}

static gboolean
share_charts_idle_cb (gpointer user_data)
{
  PsRunPage *self = user_data;

  self->share_charts_id = 0;
  if (self->scale_partner != NULL)
    share_chart_scales (self, self->scale_partner);
  return G_SOURCE_REMOVE;
}

/* Charts are made and filled a series at a time by the runs' views:
 * their scales are shared once the views are done, at the next idle */
static guint n_sharing_pages;
static gulong counter_chart_hook;

static gboolean
chart_values_changed_hook (GSignalInvocationHint *hint,
                           guint                  n_params,
                           const GValue          *params,
                           gpointer               data)
{
  GtkWidget *page = gtk_widget_get_ancestor (g_value_get_object (&params[0]), PS_TYPE_RUN_PAGE);
  PsRunPage *self = page != NULL ? PS_RUN_PAGE (page) : NULL;

  if (self != NULL && self->scale_partner != NULL && self->share_charts_id == 0)
    self->share_charts_id = g_idle_add (share_charts_idle_cb, self);
  return TRUE;
}

static void
watch_charts (gboolean watch)
{
  if (watch && n_sharing_pages++ == 0)
    {
      g_autoptr(GTypeClass) counter_class = g_type_class_ref (PS_TYPE_COUNTER_CHART);

      counter_chart_hook = g_signal_add_emission_hook (g_signal_lookup ("value-range-changed", PS_TYPE_COUNTER_CHART),
                                                       0, chart_values_changed_hook, NULL, NULL);
    }
  else if (!watch && --n_sharing_pages == 0)
    {
      g_signal_remove_emission_hook (g_signal_lookup ("value-range-changed", PS_TYPE_COUNTER_CHART), counter_chart_hook);
      counter_chart_hook = 0;
    }
}

static void
unshare_value_scales (PsRunPage *self)
{
  PsRunPage *partner = self->scale_partner;

  if (partner == NULL)
    return;
  g_clear_weak_pointer (&self->scale_partner);
  g_clear_weak_pointer (&partner->scale_partner);
  ps_timeline_view_set_shared_value_ranges (self->timeline_view, NULL);
  ps_timeline_view_set_shared_value_ranges (partner->timeline_view, NULL);
  unshare_charts (self);
  unshare_charts (partner);
  watch_charts (FALSE);
}

/* A run (re)loaded, other counters or events charted: the union again */
static void
value_ranges_changed_cb (PsRunPage *self)
{
  if (self->scale_partner != NULL)
    share_value_scales (self, self->scale_partner);
}

/* The title and the labels that name the run */
static void
set_title (PsRunPage  *self,
           const char *title)
{
  g_autofree char *cancelled_text = NULL;

  g_free (self->title);
  self->title = g_strdup (title);
  /* Translators: %s is a file name */
  cancelled_text = g_strdup_printf (_("“%s” was not loaded."), title);
  gtk_label_set_text (self->cancelled_label, cancelled_text);
  gtk_label_set_text (self->loading_title, title);
  /* A screen reader enters the run by its name */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

static void
set_title_from_file (PsRunPage *self)
{
  g_autofree char *title = ps_view_file_display_name (self->file);

  set_title (self, title);
}

static void
ps_run_page_constructed (GObject *object)
{
  PsRunPage *self = PS_RUN_PAGE (object);

  G_OBJECT_CLASS (ps_run_page_parent_class)->constructed (object);

  /* A recorded run has no file: ps_run_page_new_for_store () names it */
  if (self->file != NULL)
    set_title_from_file (self);
}

static void
ps_run_page_dispose (GObject *object)
{
  PsRunPage *self = PS_RUN_PAGE (object);

  stop_loading (self);
  stop_waiting_for_ready (self);
  unshare_value_scales (self);
  g_clear_weak_pointer (&self->watched_application);
  gtk_widget_dispose_template (GTK_WIDGET (self), PS_TYPE_RUN_PAGE);
  g_clear_object (&self->session);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (ps_run_page_parent_class)->dispose (object);
}

static void
ps_run_page_finalize (GObject *object)
{
  PsRunPage *self = PS_RUN_PAGE (object);

  g_clear_object (&self->file);
  g_free (self->title);
  g_free (self->sysroot);
  g_free (self->encoding);

  G_OBJECT_CLASS (ps_run_page_parent_class)->finalize (object);
}

static void
ps_run_page_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PsRunPage *self = PS_RUN_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_run_page_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  PsRunPage *self = PS_RUN_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_run_page_class_init (PsRunPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = ps_run_page_constructed;
  object_class->dispose = ps_run_page_dispose;
  object_class->finalize = ps_run_page_finalize;
  object_class->get_property = ps_run_page_get_property;
  object_class->set_property = ps_run_page_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       PS_TYPE_RUN_PAGE_STATE, PS_RUN_PAGE_EMPTY,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL,
                         PS_TYPE_EVENT_STORE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PsRunPage::ready:
   *
   * Once per load: the first frame after the analysis was installed that
   * shows the run's tables and its drawn timeline has been painted.
   */
  signals[READY] =
    g_signal_new ("ready",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (PS_TYPE_TIMELINE_VIEW);
  /* The views' headers */
  g_type_ensure (PS_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-run-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, stack);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, loading_title);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, cancelled_label);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, banner_label);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, lower_stack);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, views_box);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, paned);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, timeline_window);
  gtk_widget_class_bind_template_child (widget_class, PsRunPage, timeline_view);

  gtk_widget_class_install_action (widget_class, "run.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "run.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "run.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "run.show-warnings", NULL, show_warnings_action);
  gtk_widget_class_install_action (widget_class, "run.dismiss-banner", NULL, dismiss_banner_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "run.cancel", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "runpage");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_run_page_init (PsRunPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The timeline above the tables: at the share where the user last put
   * the divider, else at 38 % of the page, at every size */
  ps_view_place_paned (self->paned, "run-page", 0.38, 0);
  /* The views scroll only when the timeline is down to its minimum */
  ps_view_paned_fit_end (self->paned);
  /* The views' header values and status lines, cut when narrow */
  ps_view_whole_text_in_tooltips (GTK_WIDGET (self));
  set_state (self, PS_RUN_PAGE_EMPTY);
  /* Busy until the views show the run (PsRunPage::ready) */
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY, TRUE, -1);
  ps_accessible_name_stack_page (self->stack, "loading", _("Loading"));
  ps_accessible_name_stack_page (self->stack, "error", _("Could Not Open the File"));
  ps_accessible_name_stack_page (self->stack, "cancelled", _("Loading Cancelled"));
  ps_accessible_name_stack_page (self->stack, "view", _("Views of the run"));
  ps_accessible_name_stack_page (self->lower_stack, "views", _("Views of the run"));
  ps_accessible_name_stack_page (self->lower_stack, "computing", _("Computing statistics…"));
  /* Translators: for a screen reader; F8 moves the divider */
  ps_accessible_name_paned (self->paned, _("Timeline above the tables"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress_bar),
                                  /* Translators: for a screen reader */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Loading progress"), -1);
  ps_accessible_hide_empty (self->banner_label);
  ps_accessible_hide_empty (self->error_label);
  ps_accessible_name_scrolling (GTK_WIDGET (self));
  ps_accessible_name_parts (GTK_WIDGET (self));
  g_signal_connect_object (self->timeline_view, "value-ranges-changed",
                           G_CALLBACK (value_ranges_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
ps_run_page_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (PS_TYPE_RUN_PAGE, "file", file, NULL);
}

GtkWidget *
ps_run_page_new_for_store (const char   *title,
                           PsEventStore *store)
{
  PsRunPage *self;

  g_return_val_if_fail (title != NULL, NULL);
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = g_object_new (PS_TYPE_RUN_PAGE, NULL);
  set_title (self, title);
  ps_run_page_show_store (self, store);

  return GTK_WIDGET (self);
}

void
ps_run_page_set_saved_file (PsRunPage *self,
                            GFile     *file)
{
  g_return_if_fail (PS_IS_RUN_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->file == NULL);

  self->file = g_object_ref (file);
  set_title_from_file (self);
  /* Reading it again is possible now */
  set_state (self, self->state);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

GFile *
ps_run_page_get_file (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->file;
}

const char *
ps_run_page_get_title (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->title;
}

static GFile *
save_source_get_file (PsSaveSource *source)
{
  return PS_RUN_PAGE (source)->file;
}

/* Its file's name, or the title of a run that has no file (a recording) */
static char *
save_source_get_name (PsSaveSource *source)
{
  PsRunPage *self = PS_RUN_PAGE (source);

  if (self->file != NULL)
    return ps_save_location_file_name (self->file);
  return ps_save_location_clean_name (self->title);
}

static void
ps_run_page_save_source_init (PsSaveSourceInterface *iface)
{
  iface->get_file = save_source_get_file;
  iface->get_name = save_source_get_name;
}

PsRunPageState
ps_run_page_get_state (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), PS_RUN_PAGE_EMPTY);
  return self->state;
}

PsEventStore *
ps_run_page_get_store (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->store;
}

/* A run of samples names its functions again with the new folder */
static void
symbol_folder_changed_cb (PsRunPage *self)
{
  g_autofree char *folder = NULL;

  if (self->watched_application == NULL || self->store == NULL || !is_profile_store (self->store))
    return;
  if (self->state != PS_RUN_PAGE_LOADED && self->state != PS_RUN_PAGE_PARTIAL)
    return;

  g_object_get (self->watched_application, "symbol-folder", &folder, NULL);
  if (g_strcmp0 (folder, self->sysroot) != 0)
    ps_run_page_load (self);
}

/* The application of the window the page is in, else the default one,
 * when it is Perfscope's: its properties "symbol-folder" and "max-events"
 * say how runs are read (the page does not know its type) */
static GApplication *
find_application (PsRunPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GApplication *application = NULL;

  if (GTK_IS_WINDOW (root))
    application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (root)));
  if (application == NULL)
    application = g_application_get_default ();
  if (application == NULL
      || g_object_class_find_property (G_OBJECT_GET_CLASS (application), "symbol-folder") == NULL
      || g_object_class_find_property (G_OBJECT_GET_CLASS (application), "max-events") == NULL)
    return NULL;
  return application;
}

void
ps_run_page_reload_with_encoding (PsRunPage  *self,
                                  const char *encoding)
{
  g_return_if_fail (PS_IS_RUN_PAGE (self));

  g_free (self->encoding);
  self->encoding = encoding != NULL && encoding[0] != '\0' ? g_strdup (encoding) : NULL;
  ps_run_page_load (self);
}

const char *
ps_run_page_get_encoding (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->encoding;
}

void
ps_run_page_load (PsRunPage *self)
{
  GApplication *application;

  g_return_if_fail (PS_IS_RUN_PAGE (self));

  /* A recorded run has nothing to read again */
  if (self->file == NULL)
    return;

  stop_loading (self);
  stop_waiting_for_ready (self);
  self->ready = FALSE;
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY, TRUE, -1);
  set_store (self, NULL);
  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);

  self->cancellable = g_cancellable_new ();
  self->loader = ps_loader_new (self->file);

  application = find_application (self);
  if (application != NULL && application != self->watched_application)
    {
      g_set_weak_pointer (&self->watched_application, application);
      g_signal_connect_object (application, "notify::symbol-folder",
                               G_CALLBACK (symbol_folder_changed_cb), self, G_CONNECT_SWAPPED);
    }
  g_clear_pointer (&self->sysroot, g_free);
  if (application != NULL)
    g_object_get (application, "symbol-folder", &self->sysroot, NULL);
  if (self->sysroot != NULL)
    ps_loader_set_option (self->loader, "sysroot", self->sysroot);
  if (self->encoding != NULL)
    ps_loader_set_option (self->loader, PS_FORMAT_OPTION_ENCODING, self->encoding);
  if (application != NULL)
    {
      guint64 most = 0;
      g_autofree char *max_events = NULL;

      g_object_get (application, "max-events", &most, NULL);
      max_events = g_strdup_printf ("%" G_GUINT64_FORMAT, most);

      ps_loader_set_option (self->loader, PS_LOADER_OPTION_MAX_EVENTS, max_events);
    }
  self->fraction_binding = g_object_bind_property (self->loader, "fraction",
                                                   self->progress_bar, "fraction",
                                                   G_BINDING_SYNC_CREATE);
  self->message_binding = g_object_bind_property (self->loader, "message",
                                                  self->progress_bar, "text",
                                                  G_BINDING_SYNC_CREATE);
  if (ps_loader_get_message (self->loader) == NULL)
    gtk_progress_bar_set_text (self->progress_bar, _("Reading…"));

  set_state (self, PS_RUN_PAGE_LOADING);
  ps_ready_clock_mark ("open");
  ps_loader_load_async (self->loader, self->cancellable, load_cb, g_object_ref (self));
}

void
ps_run_page_cancel (PsRunPage *self)
{
  g_return_if_fail (PS_IS_RUN_PAGE (self));

  if (self->state != PS_RUN_PAGE_LOADING)
    return;

  /* The worker stops at its next chunk; its late result is ignored */
  stop_loading (self);
  set_store (self, NULL);
  set_state (self, PS_RUN_PAGE_CANCELLED);
}

void
ps_run_page_show_store (PsRunPage    *self,
                        PsEventStore *store)
{
  g_return_if_fail (PS_IS_RUN_PAGE (self));
  g_return_if_fail (PS_IS_EVENT_STORE (store));

  stop_loading (self);
  start_analysis (self, store);
}

void
ps_run_page_toggle_side_pane (PsRunPage *self)
{
  g_return_if_fail (PS_IS_RUN_PAGE (self));

  if (self->store == NULL || (self->state != PS_RUN_PAGE_LOADED && self->state != PS_RUN_PAGE_PARTIAL))
    return;
  if (is_profile_store (self->store))
    ps_profile_view_toggle_side_pane (profile_view (self));
  else if (!is_report_store (self->store) && !is_rtl_store (self->store) && is_counters_store (self->store))
    ps_counters_view_toggle_side_pane (counters_view (self));
}

void
ps_run_page_set_shared_value_scale (PsRunPage *a,
                                    PsRunPage *b,
                                    gboolean   shared)
{
  g_return_if_fail (PS_IS_RUN_PAGE (a));
  g_return_if_fail (PS_IS_RUN_PAGE (b));
  g_return_if_fail (a != b);

  if (!shared)
    {
      if (a->scale_partner == b)
        unshare_value_scales (a);
      return;
    }
  if (a->scale_partner != b)
    {
      unshare_value_scales (a);
      unshare_value_scales (b);
      g_set_weak_pointer (&a->scale_partner, b);
      g_set_weak_pointer (&b->scale_partner, a);
      watch_charts (TRUE);
    }
  share_value_scales (a, b);
  share_chart_scales (a, b);
}

gboolean
ps_run_page_has_time_axis (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), FALSE);

  return (self->state == PS_RUN_PAGE_LOADED || self->state == PS_RUN_PAGE_PARTIAL) && self->store != NULL
         && gtk_widget_get_visible (self->timeline_window) && !ps_timeline_store_has_sequence_axis (self->store);
}

gboolean
ps_run_page_get_shared_value_scale (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), FALSE);
  return self->scale_partner != NULL;
}

/* Testing API (ps-run-page-private.h) */

PsCeView *
ps_run_page_get_ce_view (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return ce_view (self);
}

PsTimelineView *
ps_run_page_get_timeline_view (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->timeline_view;
}

GtkPaned *
ps_run_page_get_paned (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->paned;
}

PsSession *
ps_run_page_get_session (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->session;
}

PsRtlView *
ps_run_page_get_rtl_view (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return rtl_view (self);
}

/* Declared in ps-profile-view-private.h, with the view's testing API */
PsProfileView *
ps_run_page_get_profile_view (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return profile_view (self);
}

PsCountersView *
ps_run_page_get_counters_view (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return counters_view (self);
}

PsReportView *
ps_run_page_get_report_view (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return report_view (self);
}

const char *
ps_run_page_get_error_message (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return self->state == PS_RUN_PAGE_FAILED ? gtk_label_get_text (self->error_label) : NULL;
}

gboolean
ps_run_page_get_banner_revealed (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), FALSE);
  return gtk_revealer_get_reveal_child (self->banner_revealer);
}

const char *
ps_run_page_get_banner_text (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  return gtk_label_get_text (self->banner_label);
}

gboolean
ps_run_page_is_ready (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), FALSE);
  return self->ready;
}

const char *
ps_run_page_get_visible_state (PsRunPage *self)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (self), NULL);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "view") == 0
      && g_strcmp0 (gtk_stack_get_visible_child_name (self->lower_stack), "computing") == 0)
    return "computing";
  return gtk_stack_get_visible_child_name (self->stack);
}
