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
 * worker thread (ps-profile-view-build.c) with the chosen source, the
 * processes and threads selected in the list and the time range selected
 * on the timeline; the same pass counts the samples of every track for the
 * list. A new choice cancels the build under way. The rows of the list
 * (ps-profile-view-tracks.c) are made once per run and their counts change
 * in place, so a selection survives a change of event or time range.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-call-tree-view-private.h"
#include "ps-profile-track-row.h"
#include "ps-profile-view-private.h"
#include "ps-selection-util.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"

/* --- The view ------------------------------------------------------------- */

enum {
  PROP_0,
  PROP_SESSION,
  PROP_SYMBOL_FOLDER,
  N_PROPS,

  /* PsRunView's */
  PROP_ANALYSIS = N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_profile_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsProfileView, ps_profile_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_profile_view_run_view_init))

guint32
ps_profile_view_chosen_source (PsProfileView *self)
{
  guint position = gtk_drop_down_get_selected (self->source_dropdown);

  if (self->source_choices == NULL || position >= self->source_choices->len)
    return PS_NONE;
  return g_array_index (self->source_choices, guint32, position);
}

/* The spinner turns while a new tree replaces the one shown. Without one,
 * the call tree's place says it is computed, and nothing moves: an
 * animation has GTK draw the whole window at every frame, which costs a
 * core where it draws in software (llvmpipe) */
void
ps_profile_view_update_busy (PsProfileView *self)
{
  gboolean busy = self->build_cancellable != NULL
                  && ps_call_tree_view_get_tree (self->call_tree_view) != NULL;

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
 * with or without a call stack; none until they are counted */
void
ps_profile_view_update_totals (PsProfileView *self)
{
  guint64 n_samples = self->have_counts ? self->chosen.samples : 0;
  g_autofree char *count = ps_view_format_count (n_samples);
  g_autofree char *samples = NULL;
  g_autofree char *kernel = NULL;
  g_autofree char *kernel_tooltip = NULL;

  if (self->have_counts)
    /* Translators: a number of samples, "302,186 samples" */
    samples = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", n_samples), count);

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
void
ps_profile_view_update_scope_label (PsProfileView *self)
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

/* Choices */

/* The chosen event is the session's: the timeline shows its samples */
static void
share_source (PsProfileView *self)
{
  if (self->session != NULL && ps_run_view_get_store (PS_RUN_VIEW (self)) != NULL)
    ps_session_set_sample_source (self->session, ps_profile_view_chosen_source (self));
}

static void
source_selected_cb (PsProfileView *self)
{
  if (self->syncing)
    return;
  share_source (self);
  ps_profile_view_rebuild (self);
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

  if (ps_run_view_get_store (PS_RUN_VIEW (self)) == NULL || n_tracks == 0)
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
void
ps_profile_view_track_selection_changed_cb (PsProfileView *self)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
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
      ps_profile_view_update_scope_label (self);
      return;
    }

  g_clear_pointer (&self->selected_tracks, g_bytes_unref);
  self->selected_tracks = g_steal_pointer (&tracks);
  self->n_selected_rows = n_rows;
  ps_profile_view_rebuild (self);
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
  ps_profile_view_rebuild (self);
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
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
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
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  guint32 source = ps_profile_view_chosen_source (self);
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
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  guint32 source = ps_profile_view_chosen_source (self);
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
void
ps_profile_view_update_quality_summary (PsProfileView *self)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
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
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  g_autofree char *title = NULL;

  ps_profile_view_update_quality_summary (self);

  ps_run_view_list_warnings (PS_RUN_VIEW (self), &self->warnings, store,
                             self->warnings_stack, self->warnings_overflow_label);
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings));
  /* The page is the run's data quality, with the count of its warnings */
  if (ps_event_store_get_n_warnings_raised (store) > 0)
    {
      g_autofree char *count = ps_view_format_count (ps_event_store_get_n_warnings_raised (store));

      /* Translators: a page title with the number of warnings ("1,200") */
      title = g_strdup_printf (_("_Data Quality (%s)"), count);
    }
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
  ps_run_view_unfollow_session (&self->session, &self->session_handlers);

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
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SYMBOL_FOLDER:
      g_value_set_string (value, self->symbol_folder);
      break;
    default:
      if (!ps_run_view_get_property (object, value, pspec))
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

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         PS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SYMBOL_FOLDER] =
    g_param_spec_string ("symbol-folder", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ANALYSIS, "analysis");

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
  /* Data Quality's summary is selectable, above the warnings */
  ps_selection_stack_focus_past_labels (self->view_stack);

  self->syncing = TRUE;
  gtk_drop_down_set_model (self->source_dropdown, G_LIST_MODEL (self->source_names));
  self->syncing = FALSE;
  ps_profile_view_add_track_columns (self);
  ps_warning_columns_add (self->warning_view);
  /* The list beside the tree: under a third of the width, at most 440 px */
  ps_view_place_paned (self->tracks_paned, "profile-tracks", 0.3, 440);
  update_symbols (self);
  ps_profile_view_update_totals (self);
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
  ps_run_analysis_set (&self->analysis, analysis);

  ps_call_tree_view_set_tree (self->call_tree_view, NULL);
  self->have_counts = FALSE;
  ps_profile_view_update_totals (self);
  if (self->analysis != NULL)
    {
      update_sources (self);
      update_quality (self);
      ps_profile_view_show_page (self, "calltree");
      ps_profile_view_rebuild (self);
    }
  else
    ps_profile_view_update_busy (self);

  g_object_notify (G_OBJECT (self), "analysis");
}

void
ps_profile_view_set_session (PsProfileView *self,
                             PsSession     *session)
{
  g_return_if_fail (PS_IS_PROFILE_VIEW (self));
  g_return_if_fail (session == NULL || PS_IS_SESSION (session));

  if (self->session == session)
    return;

  ps_run_view_follow_session (PS_RUN_VIEW (self), &self->session, &self->session_handlers, session,
                              G_CALLBACK (session_selection_changed_cb), G_CALLBACK (follow_session), NULL);
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

  if (!ps_view_set_folder_setting (&self->symbol_folder, folder))
    return;

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
