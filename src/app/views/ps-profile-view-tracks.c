/* ps-profile-view-tracks.c — the profile view's list of processes and
 * threads: its rows, their counts and their cells
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8 (samples per process).
 *
 * Apart from the view (ps-profile-view.c) because the rows are made once
 * per run and only their counts change, in place, after each build, so
 * that a selection survives a change of event or time range.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-accessible-util.h"
#include "ps-profile-track-row.h"
#include "ps-profile-view-private.h"
#include "ps-table-export.h"
#include "ps-view-util.h"

/* Up to this many processes, their threads are shown at once */
#define AUTO_EXPAND_PROCESSES 8

/* Process list */

void
ps_profile_view_update_track_counts (PsProfileView     *self,
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
void
ps_profile_view_make_track_rows (PsProfileView     *self,
                                 const BuildResult *result)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
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

/* Cells of the process list */

/* A process's or thread's whole name, made when asked for */
static char *
name_tooltip (gpointer item,
              guint    column,
              gpointer user_data)
{
  g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (item);

  return g_strdup (ps_profile_track_row_get_label (row));
}

static void
name_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = ps_view_cell_label_new (FALSE);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  ps_view_cell_set_tooltip (label, list_item, 0, name_tooltip, NULL);
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

void
ps_profile_view_add_track_columns (PsProfileView *self)
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
                           G_CALLBACK (ps_profile_view_track_selection_changed_cb), self, G_CONNECT_SWAPPED);
}
