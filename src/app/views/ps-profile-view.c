/* ps-profile-view.c — a run of sampled call stacks (hwpmc, pmcstat -G)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8 (pmcstat's views of a run: one PMC at a time,
 * samples per process, the call graph; kernel-mode samples are the
 * operating system's share).
 *
 * Samples of different events do not add up in meaning, so the view shows
 * one sample source at a time (the one with the most samples first), or
 * all of them on request. The call tree is built from the store in a
 * worker thread with the chosen source, the processes and threads
 * selected in the list and the time range selected on the timeline; the
 * same pass counts the samples of every track for the list. A new choice
 * cancels the build under way. The rows of the list are made once per run
 * and their counts change in place, so a selection survives a change of
 * event or time range.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ps-accessible-util.h"
#include "ps-call-tree-view-private.h"
#include "ps-profile-track-row.h"
#include "ps-profile-view-private.h"
#include "ps-selection-util.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"
#include "ps-warning-model.h"
#include "ps-warning-row.h"

/* Counting samples checks for cancellation this often */
#define CANCEL_CHECK_INTERVAL (1u << 20)
/* Up to this many processes, their threads are shown at once */
#define AUTO_EXPAND_PROCESSES 8

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

/* Samples by what the views say of them */
typedef struct
{
  guint64 samples;
  guint64 kernel;              /* taken in kernel mode */
  guint64 no_stack;            /* with no call stack: in no call tree */
  guint64 unnamed;             /* with a frame without a function name */
} SampleCounts;

typedef struct
{
  PsCallTree  *tree;
  guint        n_tracks;
  guint64     *choice_counts;  /* per track, then the samples of no track:
                                * chosen sources in the time range */
  guint64     *any_counts;     /* the same, of every source in the whole run;
                                * NULL once the list is made (they do not
                                * change with the choices) */
  SampleCounts chosen;         /* the chosen sources, tracks and time range:
                                * what the header and the tree count */
  SampleCounts run;            /* every sample of the run */
} BuildResult;

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

/* --- The view ------------------------------------------------------------- */

struct _PsProfileView
{
  GtkWidget            parent_instance;

  PsRunAnalysis       *analysis;
  PsSession           *session;
  gulong               session_selection_handler;
  gulong               session_focus_handler;
  gboolean             following;         /* rows chosen for the session */
  char                *symbol_folder;

  /* Event choices: a source index per item of the drop-down, PS_NONE for
   * "All events" */
  GArray              *source_choices;
  GtkStringList       *source_names;

  /* The process list */
  GListStore          *track_roots;      /* PsProfileTrackRow */
  GtkSortListModel    *tracks_sorted;    /* GtkTreeListRow */
  GtkMultiSelection   *track_selection;
  GtkSorter           *samples_sorter;
  GtkSorter           *percent_sorter;
  GBytes              *selected_tracks;  /* one byte per track, or NULL: all */
  guint                n_selected_rows;
  gboolean             rows_made;
  gboolean             syncing;

  /* The tree */
  GCancellable        *build_cancellable;
  gboolean             have_counts;
  SampleCounts         chosen;           /* of the tree shown */
  SampleCounts         run;
  gboolean             built_range;
  gint64               built_begin;
  gint64               built_end;

  PsWarningModel      *warnings;
#if !GTK_CHECK_VERSION (4, 10, 0)
  GtkFileChooserNative *folder_chooser;
#endif

  /* Template widgets */
  GtkDropDown         *source_dropdown;
  GtkLabel            *samples_value;
  GtkLabel            *kernel_value;
  GtkLabel            *symbols_value;
  GtkSpinner          *spinner;
  GtkStack            *view_stack;
  GtkPaned            *tracks_paned;
  GtkWidget           *tracks_box;
  GtkWidget           *show_all_button;
  GtkColumnView       *track_view;
  GtkLabel            *scope_label;
  PsCallTreeView      *call_tree_view;
  GtkStackPage        *warnings_page;
  GtkLabel            *quality_label;
  GtkLabel            *warnings_overflow_label;
  GtkStack            *warnings_stack;
  GtkColumnView       *warning_view;
};

enum {
  PROP_0,
  PROP_ANALYSIS,
  PROP_SESSION,
  PROP_SYMBOL_FOLDER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_profile_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsProfileView, ps_profile_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_profile_view_run_view_init))

static PsEventStore *
get_store (PsProfileView *self)
{
  return self->analysis != NULL ? self->analysis->store : NULL;
}

/* The source of the drop-down's choice, PS_NONE for all */
static guint32
chosen_source (PsProfileView *self)
{
  guint position = gtk_drop_down_get_selected (self->source_dropdown);

  if (self->source_choices == NULL || position >= self->source_choices->len)
    return PS_NONE;
  return g_array_index (self->source_choices, guint32, position);
}

static void
update_busy (PsProfileView *self)
{
  gboolean busy = self->build_cancellable != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
}

/* Header */

static void
update_symbols (PsProfileView *self)
{
  if (self->symbol_folder != NULL)
    {
      g_autofree char *display = g_filename_display_name (self->symbol_folder);
      /* Translators: %s is a folder */
      g_autofree char *text = g_strdup_printf (_("Symbols from %s"), display);

      ps_view_set_header_value (self->symbols_value, text, display);
    }
  else
    ps_view_set_header_value (self->symbols_value, _("No symbol folder"),
                              _("Function names come from the log itself; choose a folder with the traced machine’s files to name the rest"));
}

/* The samples the header counts: those the call tree was built from,
 * with or without a call stack */
static void
update_totals (PsProfileView *self)
{
  guint64 n_samples = self->have_counts ? self->chosen.samples : 0;
  g_autofree char *count = ps_view_format_count (n_samples);
  /* Translators: a number of samples, "302,186 samples" */
  g_autofree char *samples = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", n_samples),
                                              count);
  g_autofree char *kernel = NULL;
  g_autofree char *kernel_tooltip = NULL;

  if (n_samples > 0)
    {
      guint64 n_kernel = self->chosen.kernel;
      g_autofree char *kernel_count = ps_view_format_count (n_kernel);

      /* Translators: the share of samples taken in kernel mode */
      kernel = g_strdup_printf (_("%.2f %%"), 100.0 * (double) n_kernel / (double) n_samples);
      /* Translators: %s is a number of samples */
      kernel_tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                     "%s sample in kernel mode: the operating system’s share",
                                                     "%s samples in kernel mode: the operating system’s share",
                                                     n_kernel),
                                        kernel_count);
    }

  ps_view_set_header_value (self->samples_value, samples,
                            _("Samples of the chosen event, processes and threads in the time range shown"));
  ps_view_set_header_value (self->kernel_value, kernel, kernel_tooltip);
}

/* "12 of the 1,324 samples have no call stack; the call tree counts the
 * other 1,312" */
static char *
no_stack_note (const SampleCounts *counts)
{
  g_autofree char *without = ps_view_format_count (counts->no_stack);
  g_autofree char *all = ps_view_format_count (counts->samples);
  g_autofree char *rest = ps_view_format_count (counts->samples - counts->no_stack);

  /* Translators: samples for which the log recorded no program counter */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s of the %s samples has no call stack; the call tree counts the other %s",
                                       "%s of the %s samples have no call stack; the call tree counts the other %s",
                                       counts->no_stack),
                          without, all, rest);
}

/* What the call tree counts, in a line above it */
static void
update_scope_label (PsProfileView *self)
{
  g_autofree char *who = NULL;
  g_autofree char *when = NULL;
  g_autofree char *text = NULL;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->track_roots)) == 0)
    /* Translators: a run that does not say which process took a sample */
    who = g_strdup (_("All samples"));
  else if (self->selected_tracks == NULL)
    who = g_strdup (_("All processes and threads"));
  else
    /* Translators: rows selected in the list of processes and threads */
    who = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u selected process or thread",
                                        "%u selected processes and threads",
                                        self->n_selected_rows),
                           self->n_selected_rows);

  if (self->built_range)
    {
      g_autofree char *begin = ps_util_format_seconds (self->built_begin / 1e9);
      g_autofree char *end = ps_util_format_seconds (self->built_end / 1e9);

      /* Translators: the time range selected on the timeline */
      when = g_strdup_printf (_("samples from %s to %s"), begin, end);
    }
  else
    when = g_strdup (_("the whole run"));

  /* Translators: "All processes and threads, the whole run" */
  text = g_strdup_printf (_("%s, %s"), who, when);
  if (self->have_counts && self->chosen.no_stack > 0)
    {
      g_autofree char *note = no_stack_note (&self->chosen);
      g_autofree char *with_note = g_strdup_printf ("%s · %s", text, note);

      g_free (text);
      text = g_steal_pointer (&with_note);
    }
  gtk_label_set_text (self->scope_label, text);
}

/* Process list */

static void
update_track_counts (PsProfileView     *self,
                     const BuildResult *result)
{
  GListModel *roots = G_LIST_MODEL (self->track_roots);
  guint64 total = 0;

  for (guint t = 0; t <= result->n_tracks; t++)
    total += result->choice_counts[t];

  for (guint i = 0; i < g_list_model_get_n_items (roots); i++)
    {
      g_autoptr(PsProfileTrackRow) row = g_list_model_get_item (roots, i);
      GListModel *threads = ps_profile_track_row_get_threads (row);
      guint64 samples = result->choice_counts[ps_profile_track_row_get_track (row)];

      for (guint j = 0; threads != NULL && j < g_list_model_get_n_items (threads); j++)
        {
          g_autoptr(PsProfileTrackRow) thread = g_list_model_get_item (threads, j);
          guint64 thread_samples = result->choice_counts[ps_profile_track_row_get_track (thread)];

          ps_profile_track_row_set_samples (thread, thread_samples, total);
          samples += thread_samples;
        }
      ps_profile_track_row_set_samples (row, samples, total);
    }

  /* Sort again by the new counts */
  self->syncing = TRUE;
  gtk_sorter_changed (self->samples_sorter, GTK_SORTER_CHANGE_DIFFERENT);
  gtk_sorter_changed (self->percent_sorter, GTK_SORTER_CHANGE_DIFFERENT);
  self->syncing = FALSE;
}

static GListModel *
create_thread_model (gpointer item,
                     gpointer user_data)
{
  GListModel *threads = ps_profile_track_row_get_threads (item);

  if (threads == NULL || g_list_model_get_n_items (threads) == 0)
    return NULL;
  return g_object_ref (threads);
}

/* The process a thread is listed under, or PS_NONE when the track is
 * listed on its own */
static guint32
process_of_track (PsEventStore  *store,
                  const PsTrack *track,
                  guint          n_tracks)
{
  if (track->kind == PS_TRACK_THREAD && track->parent < n_tracks
      && ps_event_store_get_track (store, track->parent)->kind == PS_TRACK_PROCESS)
    return track->parent;
  return PS_NONE;
}

/* The processes and threads that took samples of any event, once per run */
static void
make_track_rows (PsProfileView     *self,
                 const BuildResult *result)
{
  PsEventStore *store = get_store (self);
  g_autoptr(GtkTreeListModel) tree = NULL;
  guint n_tracks = result->n_tracks;
  g_autofree guint64 *listed_counts = g_new0 (guint64, n_tracks);
  g_autofree PsProfileTrackRow **process_rows = g_new0 (PsProfileTrackRow *, n_tracks);  /* borrowed */

  self->rows_made = TRUE;

  /* A process is listed when it or one of its threads took samples */
  for (guint32 t = 0; t < n_tracks; t++)
    {
      guint32 process = process_of_track (store, ps_event_store_get_track (store, t), n_tracks);

      listed_counts[process != PS_NONE ? process : t] += result->any_counts[t];
    }

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      g_autoptr(PsProfileTrackRow) row = NULL;

      if (listed_counts[t] == 0 || (track->kind != PS_TRACK_PROCESS && track->kind != PS_TRACK_THREAD)
          || process_of_track (store, track, n_tracks) != PS_NONE)
        continue;
      row = ps_profile_track_row_new (store, t);
      if (track->kind == PS_TRACK_PROCESS)
        process_rows[t] = row;
      g_list_store_append (self->track_roots, row);
    }

  /* Threads under their processes, after the processes were made */
  for (guint32 t = 0; t < n_tracks; t++)
    {
      guint32 process = process_of_track (store, ps_event_store_get_track (store, t), n_tracks);
      g_autoptr(PsProfileTrackRow) row = NULL;

      if (process == PS_NONE || result->any_counts[t] == 0)
        continue;
      row = ps_profile_track_row_new (store, t);
      g_list_store_append (ps_profile_track_row_get_threads_store (process_rows[process]), row);
    }

  tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->track_roots)), FALSE,
                                  g_list_model_get_n_items (G_LIST_MODEL (self->track_roots)) <= AUTO_EXPAND_PROCESSES,
                                  create_thread_model, NULL, NULL);
  self->syncing = TRUE;
  gtk_sort_list_model_set_model (self->tracks_sorted, G_LIST_MODEL (tree));
  self->syncing = FALSE;

  /* Samples that no process took (pmcstat -G names none) need no list */
  gtk_widget_set_visible (self->tracks_box, g_list_model_get_n_items (G_LIST_MODEL (self->track_roots)) > 0);
}

/* Building */

static void rebuild (PsProfileView *self);
static void update_quality_summary (PsProfileView *self);

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
  update_busy (self);

  if (result == NULL)
    {
      ps_call_tree_view_set_tree (self->call_tree_view, NULL);
      self->have_counts = FALSE;
      update_totals (self);
      gtk_label_set_text (self->scope_label, error->message);
      return;
    }

  if (!self->rows_made && result->any_counts != NULL)
    make_track_rows (self, result);
  update_track_counts (self, result);
  ps_call_tree_view_set_tree (self->call_tree_view, result->tree);
  self->have_counts = TRUE;
  self->chosen = result->chosen;
  self->run = result->run;
  update_totals (self);
  update_scope_label (self);
  update_quality_summary (self);
}

static void
rebuild (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  g_autoptr(GTask) task = NULL;
  Build *build;
  guint32 source;

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);

  if (store == NULL)
    {
      update_busy (self);
      return;
    }

  build = g_new0 (Build, 1);
  build->store = g_object_ref (store);
  build->count_every_source = !self->rows_made;
  source = chosen_source (self);
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
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, build, (GDestroyNotify)build_free);
  g_task_run_in_thread (task, build_thread);
  update_busy (self);
}

/* Choices */

/* The chosen event is the session's: the timeline shows its samples */
static void
share_source (PsProfileView *self)
{
  if (self->session != NULL && get_store (self) != NULL)
    ps_session_set_sample_source (self->session, chosen_source (self));
}

static void
source_selected_cb (PsProfileView *self)
{
  if (self->syncing)
    return;
  share_source (self);
  rebuild (self);
}

static void
mark_row (guint8            *tracks,
          PsProfileTrackRow *row)
{
  GListModel *threads = ps_profile_track_row_get_threads (row);

  tracks[ps_profile_track_row_get_track (row)] = 1;
  for (guint i = 0; threads != NULL && i < g_list_model_get_n_items (threads); i++)
    {
      g_autoptr(PsProfileTrackRow) thread = g_list_model_get_item (threads, i);

      tracks[ps_profile_track_row_get_track (thread)] = 1;
    }
}

/* Links with the other views of the run (docs/selection.md): the threads
 * chosen in the list are focused on the timeline, a thread chosen there is
 * selected here, and a function of the call tree shows where it was
 * sampled */

static void
focus_selected_tracks (PsProfileView *self)
{
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize n_tracks = 0;
  const guint8 *marks = self->selected_tracks != NULL ? g_bytes_get_data (self->selected_tracks, &n_tracks) : NULL;

  if (self->session == NULL)
    return;
  for (guint32 t = 0; t < n_tracks; t++)
    if (marks[t])
      g_array_append_val (tracks, t);
  ps_session_set_focus_tracks (self->session, (const guint32 *)(gpointer)tracks->data, tracks->len);
}

/* The position of a track's row in the list as shown, opening its
 * process; GTK_INVALID_LIST_POSITION when it has none */
static guint
open_track_row (PsProfileView *self,
                guint32        track)
{
  GListModel *shown = G_LIST_MODEL (self->track_selection);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (shown, i);
      g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (tree_row);
      GListModel *threads = ps_profile_track_row_get_threads (row);

      if (ps_profile_track_row_get_track (row) == track)
        return i;
      for (guint t = 0; threads != NULL && t < g_list_model_get_n_items (threads); t++)
        {
          g_autoptr(PsProfileTrackRow) thread = g_list_model_get_item (threads, t);

          if (ps_profile_track_row_get_track (thread) == track)
            gtk_tree_list_row_set_expanded (tree_row, TRUE);
        }
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
follow_session (PsProfileView *self)
{
  guint n_tracks;
  const guint32 *tracks = ps_session_get_focus_tracks (self->session, &n_tracks);
  gboolean first = TRUE;

  if (get_store (self) == NULL || n_tracks == 0)
    return;
  /* The list's selection stands for these tracks already */
  if (self->selected_tracks != NULL)
    {
      gsize size;
      const guint8 *marks = g_bytes_get_data (self->selected_tracks, &size);
      gboolean all = TRUE;

      for (guint i = 0; i < n_tracks && all; i++)
        all = tracks[i] < size && marks[tracks[i]];
      if (all)
        return;
    }
  self->following = TRUE;
  for (guint i = 0; i < n_tracks; i++)
    {
      guint position = open_track_row (self, tracks[i]);

      if (position == GTK_INVALID_LIST_POSITION)
        continue;
      gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->track_selection), position, first);
      if (first)
        ps_selection_scroll_to_row (self->track_view, position);
      first = FALSE;
    }
  self->following = FALSE;
}

static void
function_selected_cb (PsProfileView  *self,
                      guint32         function,
                      PsCallTreeView *view)
{
  PsCallTree *tree = ps_call_tree_view_get_tree (view);
  g_autofree char *description = NULL;
  const char *name;

  if (self->session == NULL || tree == NULL)
    return;
  if (function == PS_NONE)
    {
      ps_session_highlight_function (self->session, NULL, NULL, NULL);
      return;
    }
  name = ps_call_tree_get_function_name (tree, function);
  /* Translators: what the timeline highlights; %s is a function, or a
   * module whose addresses have no function names */
  description = g_strdup_printf (_("Samples in %s"), name);
  /* A module's row stands for its addresses */
  if (ps_call_tree_get_n_function_addresses (tree, function) > 0)
    ps_session_highlight_module_addresses (self->session, ps_call_tree_get_function_module (tree, function),
                                           description);
  else
    ps_session_highlight_function (self->session, name, ps_call_tree_get_function_module (tree, function),
                                   description);
}

/* A process counts with all its threads */
static void
track_selection_changed_cb (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  g_autoptr(GtkBitset) selected = NULL;
  g_autoptr(GBytes) tracks = NULL;
  GtkBitsetIter iter;
  guint position;
  guint n_rows = 0;
  guint n_tracks;
  guint8 *marks;

  if (self->syncing || store == NULL)
    return;

  n_tracks = ps_event_store_get_n_tracks (store);
  marks = g_new0 (guint8, MAX (n_tracks, 1));
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->track_selection));
  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &position);
       more; more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (self->track_selection), position);
      g_autoptr(PsProfileTrackRow) row = tree_row != NULL ? gtk_tree_list_row_get_item (tree_row) : NULL;

      if (row == NULL)
        continue;
      mark_row (marks, row);
      n_rows++;
    }

  if (n_rows > 0)
    tracks = g_bytes_new_take (marks, MAX (n_tracks, 1));
  else
    g_free (marks);

  gtk_widget_set_sensitive (self->show_all_button, n_rows > 0);
  if (tracks == NULL && self->selected_tracks == NULL)
    return;
  if (tracks != NULL && self->selected_tracks != NULL && g_bytes_equal (tracks, self->selected_tracks))
    {
      self->n_selected_rows = n_rows;
      update_scope_label (self);
      return;
    }

  g_clear_pointer (&self->selected_tracks, g_bytes_unref);
  self->selected_tracks = g_steal_pointer (&tracks);
  self->n_selected_rows = n_rows;
  rebuild (self);
  if (!self->following)
    focus_selected_tracks (self);
}

static void
show_all_clicked_cb (PsProfileView *self)
{
  ps_profile_view_show_all_tracks (self);
}

static void
session_selection_changed_cb (PsProfileView *self)
{
  gint64 begin = 0, end = 0;
  gboolean range = self->session != NULL && ps_session_get_selection (self->session, &begin, &end);

  if (range == self->built_range && (!range || (begin == self->built_begin && end == self->built_end)))
    return;
  rebuild (self);
}

/* Symbol folder */

static void
apply_symbol_folder (PsProfileView *self,
                     GFile         *folder)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkApplication *application = GTK_IS_WINDOW (root) ? gtk_window_get_application (GTK_WINDOW (root)) : NULL;
  g_autofree char *path = g_file_get_path (folder);

  if (application == NULL)
    application = GTK_APPLICATION (g_application_get_default ());
  if (path == NULL || application == NULL
      || g_object_class_find_property (G_OBJECT_GET_CLASS (application), "symbol-folder") == NULL)
    return;

  /* The application's property, which the run page follows to reload the
   * run with it */
  g_object_set (application, "symbol-folder", path, NULL);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
folder_chosen_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PsProfileView) self = user_data;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (folder != NULL)
    apply_symbol_folder (self, folder);
}
#else
static void
folder_chooser_response_cb (PsProfileView        *self,
                            int                   response,
                            GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (folder != NULL)
        apply_symbol_folder (self, folder);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_clear_object (&self->folder_chooser);
}
#endif

static void
choose_symbol_folder_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  PsProfileView *self = PS_PROFILE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
  g_autoptr(GFile) current = self->symbol_folder != NULL ? g_file_new_for_path (self->symbol_folder) : NULL;

#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _("Choose Symbol Folder"));
  gtk_file_dialog_set_accept_label (dialog, _("_Choose"));
  if (current != NULL)
    gtk_file_dialog_set_initial_folder (dialog, current);
  gtk_file_dialog_select_folder (dialog, parent, NULL, folder_chosen_cb, g_object_ref (self));
#else
  if (self->folder_chooser != NULL)
    return;
  self->folder_chooser = gtk_file_chooser_native_new (_("Choose Symbol Folder"), parent,
                                                      GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                      _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->folder_chooser), TRUE);
  if (current != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->folder_chooser), current, NULL);
  g_signal_connect_object (self->folder_chooser, "response",
                           G_CALLBACK (folder_chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->folder_chooser));
#endif
}

/* Filling the view */

/* An event name as a label: a name that is not text (a garbled PMC name)
 * shows its control characters as replacement characters */
static char *
source_display_name (const char *raw)
{
  g_autofree char *text = ps_util_display_text (raw, -1);
  GString *name = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_string_append_unichar (name, g_unichar_iscntrl (c) ? 0xFFFD : c);
    }
  return g_string_free (name, FALSE);
}

static void
update_sources (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  guint n_sources = ps_event_store_get_n_sample_sources (store);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint best = 0;
  guint64 best_samples = 0;

  g_array_set_size (self->source_choices, 0);
  for (guint16 s = 0; s < n_sources; s++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, s);
      g_autofree char *name = source_display_name (ps_event_store_get_string (store, source->name));
      g_autofree char *count = ps_view_format_count (source->n_samples);
      guint32 index = s;

      if (*name == '\0')
        {
          g_free (name);
          /* Translators: a sample source the log gives no name */
          name = g_strdup_printf (_("Event %u"), s + 1);
        }
      if (source->n_samples > best_samples)
        {
          best = s;
          best_samples = source->n_samples;
        }
      g_ptr_array_add (names, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            /* Translators: an event and its samples, "CLOCK.HARD — 302,186 samples" */
                                                            "%s — %s sample", "%s — %s samples",
                                                            source->n_samples),
                                               name, count));
      g_array_append_val (self->source_choices, index);
    }
  /* Samples of different events only add up when asked for */
  if (n_sources != 1)
    {
      guint32 all = PS_NONE;

      g_ptr_array_add (names, g_strdup (_("All events")));
      g_array_append_val (self->source_choices, all);
    }
  g_ptr_array_add (names, NULL);

  self->syncing = TRUE;
  gtk_string_list_splice (self->source_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->source_names)),
                          (const char * const *)names->pdata);
  gtk_drop_down_set_selected (self->source_dropdown, best);
  self->syncing = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->source_dropdown), self->source_choices->len > 1);
  share_source (self);
}

static guint64
metadata_u64 (PsEventStore *store,
              const char   *key,
              gboolean     *found)
{
  const char *value = ps_event_store_get_n_sessions (store) > 0 ? ps_event_store_get_metadata (store, 0, key) : NULL;

  if (found != NULL)
    *found = value != NULL;
  return value != NULL ? g_ascii_strtoull (value, NULL, 10) : 0;
}

/* "of CLOCK.HARD, of the selected processes and threads, in the time
 * range selected on the timeline", or NULL when every sample counts */
static char *
describe_choice (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  guint32 source = chosen_source (self);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  if (source != PS_NONE && ps_event_store_get_n_sample_sources (store) > 1)
    {
      g_autofree char *name = source_display_name (ps_event_store_get_string (store, ps_event_store_get_sample_source (store, source)->name));

      /* Translators: the samples of one event, "of CLOCK.HARD" */
      g_ptr_array_add (parts, g_strdup_printf (_("of %s"), name));
    }
  if (self->selected_tracks != NULL)
    g_ptr_array_add (parts, g_strdup (_("of the selected processes and threads")));
  if (self->built_range)
    g_ptr_array_add (parts, g_strdup (_("in the time range selected on the timeline")));
  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (", ", (char **) parts->pdata);
}

/* The samples of the chosen event that the file's header counted (pmcstat
 * -G: "@ CLOCK.HARD [302186 samples]"), or 0 when the file does not say */
static guint64
declared_samples (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  guint32 source = chosen_source (self);
  g_autofree char *key = NULL;

  if (ps_event_store_get_n_sessions (store) == 0 || ps_event_store_get_metadata (store, 0, "samples_listed") == NULL)
    return 0;
  /* Each event's count is kept apart when the file has several */
  if (source != PS_NONE && ps_event_store_get_n_sample_sources (store) > 1)
    key = g_strconcat ("samples.", ps_event_store_get_string (store, ps_event_store_get_sample_source (store, source)->name), NULL);
  else
    key = g_strdup ("samples");
  return metadata_u64 (store, key, NULL);
}

/* The summary above the warnings: what the numbers of the run lack, and
 * how the samples the header counts relate to those of the run */
static void
update_quality_summary (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  guint n_no_symbols = 0;
  guint n_dropped = 0;
  guint n_unmapped = 0;
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autofree char *run_count = NULL;
  guint64 declared;

  if (store == NULL || !self->have_counts)
    {
      gtk_label_set_text (self->quality_label, "");
      return;
    }

  run_count = ps_view_format_count (self->run.samples);
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      if (g_strcmp0 (warning.code, "W-PMCLOG-NO-SYMBOLS") == 0)
        n_no_symbols++;
      else if (g_strcmp0 (warning.code, "W-PMCLOG-DROPPED") == 0)
        n_dropped++;
      else if (g_strcmp0 (warning.code, "W-PMCLOG-UNMAPPED") == 0)
        n_unmapped++;
    }

  if (n_no_symbols > 0)
    g_string_append_printf (summary, g_dngettext (GETTEXT_PACKAGE,
                                                  "%u module has no symbols.",
                                                  "%u modules have no symbols.",
                                                  n_no_symbols),
                            n_no_symbols);
  else
    {
      /* Text formats (pmcstat -G) print an address where they had no
       * symbol: name the modules of such frames */
      g_autoptr(GHashTable) modules = g_hash_table_new (NULL, NULL);
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint32 f = 0; f < ps_event_store_get_n_frames (store); f++)
        {
          const PsFrame *frame = ps_event_store_get_frame (store, f);

          if (frame->module == 0 || !ps_call_tree_frame_is_address (store, f)
              || !g_hash_table_add (modules, GUINT_TO_POINTER (frame->module)))
            continue;
          if (names->len > 0)
            g_string_append (names, ", ");
          g_string_append (names, ps_event_store_get_string (store, frame->module));
        }
      if (names->len > 0)
        /* Translators: %s is a list of files */
        g_string_append_printf (summary, _("The log has no symbols for %s."), names->str);
    }
  if (summary->len > 0)
    {
      g_autofree char *count = ps_view_format_count (self->run.unnamed);

      /* Translators: after "3 modules have no symbols."; the second %s
       * is the number of samples of the run */
      g_string_append_c (summary, ' ');
      g_string_append_printf (summary, g_dngettext (GETTEXT_PACKAGE,
                                                    "%s of the run’s %s samples (%.2f %%) has frames without a function name; each module is one row of the call tree. Choose a symbol folder to name them.",
                                                    "%s of the run’s %s samples (%.2f %%) have frames without a function name; each module is one row of the call tree. Choose a symbol folder to name them.",
                                                    self->run.unnamed),
                              count, run_count, 100.0 * (double) self->run.unnamed / (double) MAX (self->run.samples, 1));
    }
  if (n_dropped > 0)
    {
      if (summary->len > 0)
        g_string_append_c (summary, '\n');
      g_string_append (summary, _("Samples were lost: the kernel’s buffers were full (see W-PMCLOG-DROPPED below)."));
    }
  if (n_unmapped > 0)
    {
      if (summary->len > 0)
        g_string_append_c (summary, '\n');
      g_string_append (summary, _("Some samples have addresses outside every known mapping; they show as [kernel] or [unknown] (W-PMCLOG-UNMAPPED)."));
    }
  if (summary->len == 0)
    g_string_append_printf (summary, g_dngettext (GETTEXT_PACKAGE,
                                                  "%s sample read; none reported lost or unnamed.",
                                                  "%s samples read; none reported lost or unnamed.",
                                                  self->run.samples),
                            run_count);

  /* The header and the tree count fewer samples than the run has */
  if (self->chosen.samples != self->run.samples)
    {
      g_autofree char *choice = describe_choice (self);
      g_autofree char *chosen_count = ps_view_format_count (self->chosen.samples);

      g_string_append_c (summary, '\n');
      /* Translators: the first %s is a number of samples, the second
       * says which ("of CLOCK.HARD"), the last is the run's samples */
      g_string_append_printf (summary, _("The header and the call tree count the %s samples %s, %.2f %% of them with frames without a function name; the line above and the warnings below count all %s samples of the run."),
                              chosen_count, choice != NULL ? choice : "",
                              100.0 * (double) self->chosen.unnamed / (double) MAX (self->chosen.samples, 1), run_count);
    }
  if (self->chosen.no_stack > 0)
    {
      g_autofree char *note = no_stack_note (&self->chosen);

      g_string_append_c (summary, '\n');
      /* Translators: %s says how many samples have no call stack */
      g_string_append_printf (summary, _("%s."), note);
    }
  declared = declared_samples (self);
  if (declared > 0 && declared != self->chosen.samples && !self->built_range && self->selected_tracks == NULL)
    {
      g_autofree char *declared_count = ps_view_format_count (declared);
      g_autofree char *listed_count = ps_view_format_count (self->chosen.samples);

      g_string_append_c (summary, '\n');
      /* Translators: pmcstat -G text: "@ CLOCK.HARD [302186 samples]"
       * above a call graph that lists fewer */
      g_string_append_printf (summary, _("The file’s header counts %s samples; its call graph lists %s of them (%.2f %%), and those are what Perfscope counts."),
                              declared_count, listed_count, 100.0 * (double) self->chosen.samples / (double) declared);
    }
  gtk_label_set_text (self->quality_label, summary->str);
}

/* The warnings of the run and the title of their page */
static void
update_quality (PsProfileView *self)
{
  PsEventStore *store = get_store (self);
  g_autofree char *title = NULL;

  update_quality_summary (self);

  g_clear_object (&self->warnings);
  self->warnings = ps_warning_model_new (store);
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings));
  ps_view_update_warnings_page (store, self->warnings_page, self->warnings_stack,
                                self->warnings_overflow_label);
  /* The page is the run's data quality, with the count of its warnings */
  if (ps_event_store_get_n_warnings_raised (store) > 0)
    /* Translators: a page title with the number of warnings */
    title = g_strdup_printf (_("_Data Quality (%llu)"),
                             (unsigned long long) ps_event_store_get_n_warnings_raised (store));
  else
    title = g_strdup (_("_Data Quality"));
  gtk_stack_page_set_title (self->warnings_page, title);
}

static void
clear_tracks (PsProfileView *self)
{
  self->syncing = TRUE;
  gtk_sort_list_model_set_model (self->tracks_sorted, NULL);
  self->syncing = FALSE;
  g_list_store_remove_all (self->track_roots);
  g_clear_pointer (&self->selected_tracks, g_bytes_unref);
  self->n_selected_rows = 0;
  self->rows_made = FALSE;
  gtk_widget_set_sensitive (self->show_all_button, FALSE);
}

/* Cells of the process list */

static void
name_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = ps_view_cell_label_new (FALSE);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
name_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *label = gtk_tree_expander_get_child (expander);

  gtk_tree_expander_set_list_row (expander, tree_row);
  gtk_label_set_text (GTK_LABEL (label), ps_profile_track_row_get_label (row));
  gtk_widget_set_tooltip_text (label, ps_profile_track_row_get_label (row));
}

static void
name_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

static void
number_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item)
{
  gtk_list_item_set_child (list_item, ps_view_cell_label_new (TRUE));
}

static void
number_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  const char *property = user_data;
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (tree_row);
  GBinding *binding;

  binding = g_object_bind_property (row, property, gtk_list_item_get_child (list_item), "label",
                                    G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (list_item), "ps-binding", binding);
}

static void
number_unbind_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item)
{
  GBinding *binding = g_object_steal_data (G_OBJECT (list_item), "ps-binding");

  if (binding != NULL)
    g_binding_unbind (binding);
}

/* A column of a count of the rows, owned by @view; sorted by the samples,
 * as the share is of the same total */
static GtkColumnViewColumn *
append_count_column (GtkColumnView *view,
                     const char    *title,
                     const char    *property)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_numeric_sorter_new (gtk_property_expression_new (PS_TYPE_PROFILE_TRACK_ROW, NULL, "samples")));
  g_autoptr(GtkColumnViewColumn) column = NULL;

  g_signal_connect (factory, "setup", G_CALLBACK (number_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (number_bind_cb), (gpointer) property);
  g_signal_connect (factory, "unbind", G_CALLBACK (number_unbind_cb), NULL);
  column = gtk_column_view_column_new (title, g_steal_pointer (&factory));
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (view, column);
  return column;
}

/* The export's value of a cell: the samples and their share in % */
static void
track_export_value (GObject  *item,
                    GValue   *value,
                    gpointer  user_data)
{
  PsProfileTrackRow *row = PS_PROFILE_TRACK_ROW (item);
  const char *property = user_data;

  if (g_str_equal (property, "label"))
    {
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_profile_track_row_get_label (row));
    }
  else if (g_str_equal (property, "samples"))
    {
      g_value_init (value, G_TYPE_UINT64);
      g_value_set_uint64 (value, ps_profile_track_row_get_samples (row));
    }
  else
    {
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, ps_profile_track_row_get_percent (row));
    }
}

static void
add_track_columns (PsProfileView *self)
{
  g_autoptr(GtkListItemFactory) name_factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) name_column = NULL;
  GtkColumnViewColumn *samples_column;  /* the default order */
  GtkColumnViewColumn *percent_column;
  g_autoptr(GtkSorter) name_sorter = NULL;

  g_signal_connect (name_factory, "setup", G_CALLBACK (name_setup_cb), NULL);
  g_signal_connect (name_factory, "bind", G_CALLBACK (name_bind_cb), NULL);
  g_signal_connect (name_factory, "unbind", G_CALLBACK (name_unbind_cb), NULL);
  name_column = gtk_column_view_column_new (_("Process / Thread"), g_steal_pointer (&name_factory));
  gtk_column_view_column_set_expand (name_column, TRUE);
  gtk_column_view_column_set_resizable (name_column, TRUE);
  name_sorter = GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (PS_TYPE_PROFILE_TRACK_ROW, NULL, "label")));
  gtk_column_view_column_set_sorter (name_column, name_sorter);
  gtk_column_view_append_column (self->track_view, name_column);
  ps_accessible_name_table (self->track_view);

  /* Translators: a column title: a count of samples */
  samples_column = append_count_column (self->track_view, _("Samples"), "samples-text");
  /* Translators: a column title: the share of the chosen event's samples */
  percent_column = append_count_column (self->track_view, _("%"), "percent-text");
  ps_table_export_set_column (name_column, NULL, NULL, track_export_value, (gpointer) "label", NULL);
  ps_table_export_set_column (samples_column, NULL, "samples", track_export_value, (gpointer) "samples", NULL);
  ps_table_export_set_column (percent_column, _("Share"), "%", track_export_value, (gpointer) "percent", NULL);
  self->samples_sorter = g_object_ref (gtk_column_view_column_get_sorter (samples_column));
  self->percent_sorter = g_object_ref (gtk_column_view_column_get_sorter (percent_column));

  /* Most samples first; children sort among their siblings */
  self->tracks_sorted = gtk_sort_list_model_new (NULL,
                                                 GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->track_view)))));
  self->track_selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->tracks_sorted)));
  gtk_column_view_set_model (self->track_view, GTK_SELECTION_MODEL (self->track_selection));
  gtk_column_view_sort_by_column (self->track_view, samples_column, GTK_SORT_DESCENDING);
  ps_table_export_attach (self->track_view, "threads", 0);
  g_signal_connect_object (self->track_selection, "selection-changed",
                           G_CALLBACK (track_selection_changed_cb), self, G_CONNECT_SWAPPED);
}

/* PsRunView */

static gboolean
run_view_is_busy (PsRunView *view)
{
  PsProfileView *self = PS_PROFILE_VIEW (view);

  return self->build_cancellable != NULL || ps_call_tree_view_is_busy (self->call_tree_view);
}

static void
ps_profile_view_run_view_init (PsRunViewInterface *iface)
{
  static const PsViewLabelField header_fields[] = {
    { "samples", G_STRUCT_OFFSET (PsProfileView, samples_value) },
    { "kernel", G_STRUCT_OFFSET (PsProfileView, kernel_value) },
    { "symbols", G_STRUCT_OFFSET (PsProfileView, symbols_value) },
    { "range", G_STRUCT_OFFSET (PsProfileView, scope_label) },
    { "quality", G_STRUCT_OFFSET (PsProfileView, quality_label) },
  };

  PS_RUN_VIEW_BIND_PARTS (iface, PsProfileView, warnings, header_fields, run_view_is_busy);
  iface->call_tree_view_offset = G_STRUCT_OFFSET (PsProfileView, call_tree_view);
  iface->session_offset = G_STRUCT_OFFSET (PsProfileView, session);
}

/* GObject */

static void
ps_profile_view_dispose (GObject *object)
{
  PsProfileView *self = PS_PROFILE_VIEW (object);

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
#if !GTK_CHECK_VERSION (4, 10, 0)
  if (self->folder_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->folder_chooser));
  g_clear_object (&self->folder_chooser);
#endif
  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->session_selection_handler, self->session);
      g_clear_signal_handler (&self->session_focus_handler, self->session);
    }
  g_clear_object (&self->session);

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_PROFILE_VIEW);

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_object (&self->warnings);
  g_clear_object (&self->tracks_sorted);
  g_clear_object (&self->track_selection);
  g_clear_object (&self->samples_sorter);
  g_clear_object (&self->percent_sorter);
  g_clear_object (&self->track_roots);
  g_clear_pointer (&self->selected_tracks, g_bytes_unref);
  g_clear_object (&self->source_names);
  g_clear_pointer (&self->source_choices, g_array_unref);

  G_OBJECT_CLASS (ps_profile_view_parent_class)->dispose (object);
}

static void
ps_profile_view_finalize (GObject *object)
{
  PsProfileView *self = PS_PROFILE_VIEW (object);

  g_free (self->symbol_folder);

  G_OBJECT_CLASS (ps_profile_view_parent_class)->finalize (object);
}

static void
ps_profile_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PsProfileView *self = PS_PROFILE_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      g_value_set_boxed (value, self->analysis);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SYMBOL_FOLDER:
      g_value_set_string (value, self->symbol_folder);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_profile_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PsProfileView *self = PS_PROFILE_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      ps_profile_view_set_analysis (self, g_value_get_boxed (value));
      break;
    case PROP_SESSION:
      ps_profile_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_SYMBOL_FOLDER:
      ps_profile_view_set_symbol_folder (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_profile_view_class_init (PsProfileViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_profile_view_dispose;
  object_class->finalize = ps_profile_view_finalize;
  object_class->get_property = ps_profile_view_get_property;
  object_class->set_property = ps_profile_view_set_property;

  properties[PROP_ANALYSIS] =
    g_param_spec_boxed ("analysis", NULL, NULL,
                        PS_TYPE_RUN_ANALYSIS,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         PS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SYMBOL_FOLDER] =
    g_param_spec_string ("symbol-folder", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PS_TYPE_CALL_TREE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-profile-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, source_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, samples_value);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, kernel_value);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, symbols_value);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, spinner);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, tracks_paned);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, tracks_box);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, show_all_button);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, track_view);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, scope_label);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, warnings_page);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, quality_label);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, warnings_overflow_label);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, warnings_stack);
  gtk_widget_class_bind_template_child (widget_class, PsProfileView, warning_view);
  gtk_widget_class_bind_template_callback (widget_class, source_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_all_clicked_cb);

  gtk_widget_class_install_action (widget_class, "profile.choose-symbol-folder", NULL,
                                   choose_symbol_folder_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "profileview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_profile_view_init (PsProfileView *self)
{
  self->source_choices = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->source_names = gtk_string_list_new (NULL);
  self->track_roots = g_list_store_new (PS_TYPE_PROFILE_TRACK_ROW);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  /* Translators: the view of a run, for a screen reader */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Samples and their call tree"), -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->syncing = TRUE;
  gtk_drop_down_set_model (self->source_dropdown, G_LIST_MODEL (self->source_names));
  self->syncing = FALSE;
  add_track_columns (self);
  ps_warning_columns_add (self->warning_view);
  /* The list beside the tree: under a third of the width, at most 440 px */
  ps_view_place_paned (self->tracks_paned, "profile-tracks", 0.3, 440);
  update_symbols (self);
  update_totals (self);
  g_signal_connect_object (self->call_tree_view, "function-selected",
                           G_CALLBACK (function_selected_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
ps_profile_view_new (void)
{
  return g_object_new (PS_TYPE_PROFILE_VIEW, NULL);
}

void
ps_profile_view_set_analysis (PsProfileView *self,
                              PsRunAnalysis *analysis)
{
  g_return_if_fail (PS_IS_PROFILE_VIEW (self));

  if (self->analysis == analysis)
    return;

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
  clear_tracks (self);
  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  if (analysis != NULL)
    self->analysis = ps_run_analysis_ref (analysis);

  ps_call_tree_view_set_tree (self->call_tree_view, NULL);
  self->have_counts = FALSE;
  update_totals (self);
  if (self->analysis != NULL)
    {
      update_sources (self);
      update_quality (self);
      ps_profile_view_show_page (self, "calltree");
      rebuild (self);
    }
  else
    update_busy (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

void
ps_profile_view_set_session (PsProfileView *self,
                             PsSession     *session)
{
  g_return_if_fail (PS_IS_PROFILE_VIEW (self));
  g_return_if_fail (session == NULL || PS_IS_SESSION (session));

  if (self->session == session)
    return;

  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->session_selection_handler, self->session);
      g_clear_signal_handler (&self->session_focus_handler, self->session);
    }
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      self->session_selection_handler = g_signal_connect_swapped (session, "selection-changed",
                                                                  G_CALLBACK (session_selection_changed_cb), self);
      self->session_focus_handler = g_signal_connect_swapped (session, "focus-changed",
                                                              G_CALLBACK (follow_session), self);
    }
  share_source (self);
  session_selection_changed_cb (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

const char *
ps_profile_view_get_symbol_folder (PsProfileView *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_VIEW (self), NULL);
  return self->symbol_folder;
}

void
ps_profile_view_set_symbol_folder (PsProfileView *self,
                                   const char    *folder)
{
  g_return_if_fail (PS_IS_PROFILE_VIEW (self));

  if (folder != NULL && folder[0] == '\0')
    folder = NULL;
  if (g_strcmp0 (self->symbol_folder, folder) == 0)
    return;

  g_free (self->symbol_folder);
  self->symbol_folder = g_strdup (folder);
  update_symbols (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYMBOL_FOLDER]);
}

/* F9: the list of threads beside the view, shown or hidden */
void
ps_profile_view_toggle_side_pane (PsProfileView *self)
{
  GtkWidget *side;

  g_return_if_fail (PS_IS_PROFILE_VIEW (self));

  side = gtk_paned_get_start_child (self->tracks_paned);
  gtk_widget_set_visible (side, !gtk_widget_get_visible (side));
}

void
ps_profile_view_show_page (PsProfileView *self,
                           const char    *name)
{
  g_return_if_fail (PS_IS_PROFILE_VIEW (self));
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

void
ps_profile_view_show_all_tracks (PsProfileView *self)
{
  g_return_if_fail (PS_IS_PROFILE_VIEW (self));
  gtk_selection_model_unselect_all (GTK_SELECTION_MODEL (self->track_selection));
}

/* Testing API (ps-profile-view-private.h) */

GtkDropDown *
ps_profile_view_get_source_dropdown (PsProfileView *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_VIEW (self), NULL);
  return self->source_dropdown;
}

GtkSelectionModel *
ps_profile_view_get_track_selection (PsProfileView *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_VIEW (self), NULL);
  return GTK_SELECTION_MODEL (self->track_selection);
}

