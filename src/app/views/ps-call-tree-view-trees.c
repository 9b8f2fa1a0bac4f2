/* ps-call-tree-view-trees.c — the trees the call-tree page builds
 * itself: the tree of one thread, a report converted from ticks, and
 * the list of threads to choose from
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the view (ps-call-tree-view.c) because each is a pass over
 * the run's spans, made in a worker: the rows shown stay until the new
 * tree is there, and a newer choice cancels the one before.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-call-tree-view-private.h"
#include "ps-task-util.h"
#include "ps-util.h"

/* Trees of one thread or from a tick rate, in a worker */

typedef struct
{
  PsEventStore      *store;
  GBytes            *span_selection;  /* kept alive for options */
  PsCallTreeOptions  options;
} BuildData;

static void
build_data_free (gpointer data)
{
  BuildData *build = data;

  g_clear_object (&build->store);
  g_clear_pointer (&build->span_selection, g_bytes_unref);
  g_free (build);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *build = task_data;
  g_autoptr(GError) error = NULL;
  PsCallTree *tree;

  if (g_task_return_error_if_cancelled (task))
    return;

  tree = ps_call_tree_new_for_store (build->store, &build->options, &error);
  if (tree == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, tree, g_object_unref);
}

static void
build_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(PsCallTreeView) self = user_data;
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  tree = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_task_get_cancellable (G_TASK (result)) != self->build_cancellable
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->build_cancellable);
  g_clear_pointer (&self->build_error, g_free);
  if (tree != NULL)
    ps_call_tree_view_show_tree (self, tree);
  else
    /* Translators: %s says why a call tree could not be built */
    self->build_error = g_strdup_printf (_("The call tree could not be built: %s"), error->message);
  ps_call_tree_view_update_notice (self);
  ps_call_tree_view_update_busy (self);
}

guint32
ps_call_tree_view_selected_track (PsCallTreeView *self)
{
  guint position = gtk_drop_down_get_selected (self->thread_dropdown);

  if (self->thread_tracks == NULL || position == 0 || position == GTK_INVALID_LIST_POSITION
      || position - 1 >= self->thread_tracks->len)
    return PS_NONE;
  return g_array_index (self->thread_tracks, guint32, position - 1);
}

/* The old tree stays until the new one is there */
void
ps_call_tree_view_rebuild (PsCallTreeView *self)
{
  g_autoptr(GTask) task = NULL;
  BuildData *build;

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
  g_clear_pointer (&self->build_error, g_free);

  if (ps_call_tree_view_selected_track (self) == PS_NONE && self->ticks_per_second <= 0 && self->span_selection == NULL)
    {
      ps_call_tree_view_show_tree (self, self->run_tree);
      ps_call_tree_view_update_notice (self);
      ps_call_tree_view_update_busy (self);
      return;
    }
  if (self->store == NULL)
    return;

  build = g_new0 (BuildData, 1);
  build->store = g_object_ref (self->store);
  build->options.track = ps_call_tree_view_selected_track (self);
  build->options.filter = NULL;
  build->options.ticks_per_second = self->ticks_per_second;
  if (self->span_selection != NULL)
    {
      build->span_selection = g_bytes_ref (self->span_selection);
      build->options.span_selection = g_bytes_get_data (build->span_selection, NULL);
    }

  self->build_cancellable = g_cancellable_new ();
  /* A rebuild started meanwhile stops this one's walk over the spans (the
   * task keeps the cancellable) */
  build->options.cancellable = self->build_cancellable;
  task = g_task_new (NULL, self->build_cancellable, build_cb, g_object_ref (self));
  g_task_set_source_tag (task, ps_call_tree_view_rebuild);
  g_task_set_task_data (task, build, build_data_free);
  ps_task_run_in_background (task, build_thread);
  ps_call_tree_view_update_busy (self);
}

/* The threads that have spans, in a worker (a pass over the spans) */

typedef struct
{
  GArray *tracks;
  gint64  begin;
  gint64  end;       /* not past begin: no time range */
} ThreadsFound;

static void
threads_found_free (gpointer data)
{
  ThreadsFound *found = data;

  g_array_unref (found->tracks);
  g_free (found);
}

static void
threads_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  PsEventStore *store = task_data;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_spans = ps_event_store_get_n_spans (store);
  g_autofree guint8 *has_spans = g_new0 (guint8, n_tracks + 1);
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  ThreadsFound *found;

  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (i % 65536 == 0 && g_cancellable_is_cancelled (cancellable))
        {
          g_array_unref (tracks);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
          return;
        }
      if (span->track < n_tracks)
        has_spans[span->track] = TRUE;
    }

  for (guint32 t = 0; t < n_tracks; t++)
    if (has_spans[t] && ps_event_store_get_track (store, t)->kind == PS_TRACK_THREAD)
      g_array_append_val (tracks, t);

  found = g_new0 (ThreadsFound, 1);
  found->tracks = tracks;
  if (!ps_event_store_get_time_range (store, &found->begin, &found->end))
    found->begin = found->end = 0;
  g_task_return_pointer (task, found, threads_found_free);
}

static char *
thread_label (PsEventStore *store,
              guint32       track_index)
{
  const PsTrack *track = ps_event_store_get_track (store, track_index);
  const char *name = ps_event_store_get_string (store, track->name);
  g_autofree char *number = g_strdup_printf ("%lld", (long long) track->number);
  g_autofree char *label = NULL;

  /* Translators: a thread with the id the log gives it */
  label = g_strdup_printf (_("Thread %s"), number);
  if (name != NULL && *name != '\0' && !g_str_equal (name, number))
    {
      g_autofree char *display = ps_util_display_text (name, -1);
      g_autofree char *named = NULL;

      /* Translators: a thread and its name, "Thread 12 (worker)" */
      named = g_strdup_printf (_("%s (%s)"), label, display);
      g_free (label);
      label = g_steal_pointer (&named);
    }

  if (ps_event_store_get_n_sessions (store) > 1)
    /* Translators: an application's rows, or a thread, of one
     * of the runs appended to one log */
    return g_strdup_printf (_("%s (session %u)"), label, track->session + 1);
  return g_steal_pointer (&label);
}

static void
threads_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PsCallTreeView) self = user_data;
  ThreadsFound *found;
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  found = g_task_propagate_pointer (G_TASK (result), &error);
  if (found == NULL || g_task_get_cancellable (G_TASK (result)) != self->threads_cancellable)
    {
      g_clear_pointer (&found, threads_found_free);
      return;
    }
  g_clear_object (&self->threads_cancellable);
  tracks = g_array_ref (found->tracks);
  self->time_begin = found->begin;
  self->time_end = found->end;
  threads_found_free (found);

  /* One thread is all threads */
  if (tracks->len < 2)
    return;

  g_ptr_array_add (names, g_strdup (_("All threads")));
  for (guint i = 0; i < tracks->len; i++)
    g_ptr_array_add (names, thread_label (self->store, g_array_index (tracks, guint32, i)));
  g_ptr_array_add (names, NULL);

  g_clear_pointer (&self->thread_tracks, g_array_unref);
  self->thread_tracks = g_steal_pointer (&tracks);
  self->syncing = TRUE;
  gtk_string_list_splice (self->thread_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)),
                          (const char * const *)names->pdata);
  gtk_drop_down_set_selected (self->thread_dropdown, 0);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->thread_box, TRUE);
  ps_call_tree_view_update_busy (self);
  ps_call_tree_view_update_notice (self);
}

void
ps_call_tree_view_list_threads (PsCallTreeView *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->threads_cancellable);
  g_clear_object (&self->threads_cancellable);
  g_clear_pointer (&self->thread_tracks, g_array_unref);
  self->time_begin = self->time_end = 0;

  self->syncing = TRUE;
  gtk_string_list_splice (self->thread_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)), NULL);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->thread_box, FALSE);

  if (self->store == NULL || ps_event_store_get_n_spans (self->store) == 0)
    return;

  self->threads_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->threads_cancellable, threads_cb, g_object_ref (self));
  g_task_set_source_tag (task, ps_call_tree_view_list_threads);
  g_task_set_task_data (task, g_object_ref (self->store), g_object_unref);
  ps_task_run_in_background (task, threads_thread);
}
