/* ps-profile-view-build.c — the profile view's call tree, built in a
 * worker from the chosen event, processes, threads and time range
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8 (one PMC at a time; kernel-mode samples are
 * the operating system's share).
 *
 * Apart from the view (ps-profile-view.c) because it is the one pass
 * over the samples: the same pass counts the samples of every track for
 * the list, and a new choice cancels the build under way.
 */
#include "config.h"

#include "ps-profile-view-private.h"
#include "ps-task-util.h"

/* Counting samples checks for cancellation this often */
#define CANCEL_CHECK_INTERVAL (1u << 20)

/* --- Building a tree in a worker ------------------------------------------- */

typedef struct
{
  PsEventStore *store;
  guint8       *sources;       /* one byte per source, NULL: all */
  guint8       *tracks;        /* one byte per track, NULL: all */
  gboolean      count_every_source; /* the list is still to be made */
  gboolean      time_range;
  gint64        begin_ns;
  gint64        end_ns;
} Build;

static void
build_free (Build *build)
{
  g_clear_object (&build->store);
  g_free (build->sources);
  g_free (build->tracks);
  g_free (build);
}

static void
build_result_free (BuildResult *result)
{
  g_clear_object (&result->tree);
  g_free (result->choice_counts);
  g_free (result->any_counts);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BuildResult, build_result_free)

/* One byte per stack node: whether a frame of the stack has no function
 * name (parents have smaller ids than their children) */
static guint8 *
unnamed_stacks (PsEventStore *store)
{
  guint n_nodes = ps_event_store_get_n_stack_nodes (store);
  guint n_frames = ps_event_store_get_n_frames (store);
  g_autofree guint8 *frame_unnamed = g_new0 (guint8, MAX (n_frames, 1));
  guint8 *unnamed = g_new0 (guint8, MAX (n_nodes, 1));

  for (guint32 f = 0; f < n_frames; f++)
    frame_unnamed[f] = ps_call_tree_frame_is_address (store, f);
  for (guint32 id = 1; id < n_nodes; id++)
    {
      const PsStackNode *node = ps_event_store_get_stack_node (store, id);

      unnamed[id] = (node->frame < n_frames && frame_unnamed[node->frame])
                    || (node->parent < id && unnamed[node->parent]);
    }
  return unnamed;
}

static void
count_sample (SampleCounts   *counts,
              const PsSample *sample,
              gboolean        no_stack,
              gboolean        unnamed)
{
  counts->samples += sample->weight;
  if (sample->flags & PS_SAMPLE_FLAG_KERNEL)
    counts->kernel += sample->weight;
  if (no_stack)
    counts->no_stack += sample->weight;
  if (unnamed)
    counts->unnamed += sample->weight;
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Build *build = task_data;
  g_autoptr(BuildResult) result = g_new0 (BuildResult, 1);
  guint64 n_samples = ps_event_store_get_n_samples (build->store);
  guint n_stack_nodes = ps_event_store_get_n_stack_nodes (build->store);
  g_autofree guint8 *stack_unnamed = unnamed_stacks (build->store);
  PsCallTreeOptions options = { 0 };
  GError *error = NULL;

  result->n_tracks = ps_event_store_get_n_tracks (build->store);
  result->choice_counts = g_new0 (guint64, result->n_tracks + 1);
  if (build->count_every_source)
    result->any_counts = g_new0 (guint64, result->n_tracks + 1);

  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (build->store, i);
      guint track = sample->track < result->n_tracks ? sample->track : result->n_tracks;
      gboolean no_stack = sample->stack == 0 || sample->stack >= n_stack_nodes;
      gboolean unnamed = !no_stack && stack_unnamed[sample->stack];

      if (i % CANCEL_CHECK_INTERVAL == 0 && g_task_return_error_if_cancelled (task))
        return;

      count_sample (&result->run, sample, no_stack, unnamed);
      if (result->any_counts != NULL)
        result->any_counts[track] += sample->weight;
      if (build->sources != NULL && !build->sources[sample->source])
        continue;
      if (build->time_range && (sample->time_ns < build->begin_ns || sample->time_ns >= build->end_ns))
        continue;
      result->choice_counts[track] += sample->weight;
      /* As the call tree chooses them (ps_call_tree_new_for_store ()) */
      if (build->tracks == NULL || (sample->track < result->n_tracks && build->tracks[sample->track]))
        count_sample (&result->chosen, sample, no_stack, unnamed);
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  options.track = PS_NONE;
  options.sources = build->sources;
  options.tracks = build->tracks;
  options.time_range = build->time_range;
  options.begin_ns = build->begin_ns;
  options.end_ns = build->end_ns;
  options.cancellable = cancellable;
  /* A module without symbols is one row, not one per address */
  options.group_addresses = TRUE;
  result->tree = ps_call_tree_new_for_store (build->store, &options, &error);
  if (result->tree == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify)build_result_free);
}

/* Building */

static void
build_cb (GObject      *object,
          GAsyncResult *async_result,
          gpointer      user_data)
{
  g_autoptr(PsProfileView) self = user_data;
  GTask *task = G_TASK (async_result);
  g_autoptr(BuildResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = g_task_propagate_pointer (task, &error);
  /* Replaced by a newer build, or the view let go of the run */
  if (g_task_get_cancellable (task) != self->build_cancellable)
    return;
  g_clear_object (&self->build_cancellable);
  ps_profile_view_update_busy (self);
  ps_call_tree_view_set_tree_coming (self->call_tree_view, FALSE);

  if (result == NULL)
    {
      ps_call_tree_view_set_tree (self->call_tree_view, NULL);
      self->have_counts = FALSE;
      ps_profile_view_update_totals (self);
      gtk_label_set_text (self->scope_label, error->message);
      return;
    }

  if (!self->rows_made && result->any_counts != NULL)
    ps_profile_view_make_track_rows (self, result);
  ps_profile_view_update_track_counts (self, result);
  ps_call_tree_view_set_tree (self->call_tree_view, result->tree);
  self->have_counts = TRUE;
  self->chosen = result->chosen;
  self->run = result->run;
  ps_profile_view_update_totals (self);
  ps_profile_view_update_scope_label (self);
  ps_profile_view_update_quality_summary (self);
}

void
ps_profile_view_rebuild (PsProfileView *self)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  g_autoptr(GTask) task = NULL;
  Build *build;
  guint32 source;

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);

  if (store == NULL)
    {
      ps_profile_view_update_busy (self);
      return;
    }

  build = g_new0 (Build, 1);
  build->store = g_object_ref (store);
  build->count_every_source = !self->rows_made;
  source = ps_profile_view_chosen_source (self);
  if (source != PS_NONE)
    {
      build->sources = g_new0 (guint8, MAX (ps_event_store_get_n_sample_sources (store), 1));
      build->sources[source] = 1;
    }
  if (self->selected_tracks != NULL)
    {
      gsize size;
      gconstpointer data = g_bytes_get_data (self->selected_tracks, &size);

      build->tracks = g_memdup2 (data, size);
    }
  if (self->session != NULL)
    build->time_range = ps_session_get_selection (self->session, &build->begin_ns, &build->end_ns);
  self->built_range = build->time_range;
  self->built_begin = build->begin_ns;
  self->built_end = build->end_ns;

  self->build_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->build_cancellable, build_cb, g_object_ref (self));
  g_task_set_source_tag (task, ps_profile_view_rebuild);
  g_task_set_task_data (task, build, (GDestroyNotify)build_free);
  ps_task_run_in_background (task, build_thread);
  ps_profile_view_update_busy (self);
  ps_call_tree_view_set_tree_coming (self->call_tree_view, TRUE);
}
