/* ps-compare-page-diff.c — the comparison of the two runs, computed in a
 * worker
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Once both runs are read, ps_run_diff_new () compares their stores in a
 * worker thread, which also builds the differential call tree and keeps
 * every series' values by row; the result fills the header, the table,
 * the flame graph and the line on what the verdicts rest on, or says
 * plainly that the runs share no row. Apart from the table and the runs
 * (ps-compare-page-table.c, ps-compare-page-runs.c), which show what it
 * computes.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "ps-compare-page-private.h"
#include "ps-compare-page-sessions.h"
#include "ps-compare-row.h"
#include "ps-format.h"
#include "ps-series.h"
#include "ps-task-util.h"

/* The comparison */

static char *
describe_match (PsRunDiffMatch matched)
{
  g_autoptr(GPtrArray) ways = g_ptr_array_new ();

  if (matched == PS_RUN_DIFF_MATCH_NONE)
    return g_strdup (_("The runs have nothing in common: every row is in one run only"));
  if (matched & PS_RUN_DIFF_MATCH_SERIES)
    g_ptr_array_add (ways, _("series names"));
  if (matched & PS_RUN_DIFF_MATCH_FUNCTIONS)
    g_ptr_array_add (ways, _("function names"));
  if (matched & PS_RUN_DIFF_MATCH_COUNTERS)
    g_ptr_array_add (ways, _("counter paths"));
  g_ptr_array_add (ways, NULL);

  {
    g_autofree char *joined = g_strjoinv (", ", (char **)ways->pdata);

    /* Translators: %s lists how the rows of two runs were matched */
    return g_strdup_printf (_("Rows matched by %s"), joined);
  }
}

static const char *
format_display_name (PsEventStore *store)
{
  const PsFormat *format = ps_format_lookup (ps_event_store_get_format (store));

  return format != NULL && format->display_name != NULL ? _(format->display_name) : ps_event_store_get_format (store);
}

static void
set_chip (GtkLabel   *label,
          const char *text,
          guint       count,
          gboolean    hide_zero)
{
  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), count > 0 || !hide_zero);
  if (count == 0)
    gtk_widget_add_css_class (GTK_WIDGET (label), "zero");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "zero");
}

/* Whether any row is present in both runs */
static gboolean
has_matched_rows (const PsRunDiff *diff)
{
  for (guint i = 0; diff != NULL && i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      if (row->has_a && row->has_b)
        return TRUE;
    }
  return FALSE;
}

void
ps_compare_page_update_header (PsComparePage *self)
{
  g_autofree char *details = NULL;
  guint n_regressions = 0, n_improvements = 0, n_changed = 0, n_one_side = 0;
  gboolean can_regress = FALSE;

  if (self->diff == NULL)
    {
      gtk_label_set_text (self->details_label, _("Loading both runs…"));
      gtk_widget_set_visible (GTK_WIDGET (self->regressions_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->improvements_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->changed_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->one_side_label), FALSE);
      return;
    }

  {
    g_autofree char *match = describe_match (self->diff->matched);

    /* Translators: A: file (format) · B: file (format) · how rows were matched */
    details = g_strdup_printf (_("A: %s (%s) · B: %s (%s) · %s"),
                               self->side_names[0],
                               format_display_name (self->diffed_stores[0]),
                               self->side_names[1],
                               format_display_name (self->diffed_stores[1]),
                               match);
    gtk_label_set_text (self->details_label, details);
  }

  /* The pills count the verdicts of the rows; counters only change,
   * they neither regress nor improve */
  for (guint i = 0; i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (self->diff->rows, i);

      if (!row->has_a || !row->has_b)
        {
          n_one_side++;
          continue;
        }
      can_regress |= row->lower_is_better;
      if (row->change == PS_RUN_DIFF_REGRESSION)
        n_regressions++;
      else if (row->change == PS_RUN_DIFF_IMPROVEMENT)
        n_improvements++;
      else if (row->change == PS_RUN_DIFF_CHANGED)
        n_changed++;
    }

  {
    g_autofree char *regressions =
      g_strdup_printf (ngettext ("%u regression", "%u regressions", n_regressions), n_regressions);
    g_autofree char *improvements =
      g_strdup_printf (ngettext ("%u improvement", "%u improvements", n_improvements), n_improvements);
    g_autofree char *changed =
      /* Translators: rows that changed, neither better nor worse (counters) */
      g_strdup_printf (ngettext ("%u changed", "%u changed", n_changed), n_changed);
    g_autofree char *one_side =
      g_strdup_printf (ngettext ("%u in one run only", "%u in one run only", n_one_side), n_one_side);

    /* Runs that share no row, or only counters, have none to count */
    set_chip (self->regressions_label, regressions, n_regressions, !can_regress);
    set_chip (self->improvements_label, improvements, n_improvements, !can_regress);
    set_chip (self->changed_label, changed, n_changed, TRUE);
    set_chip (self->one_side_label, one_side, n_one_side, TRUE);
  }
}

/* Runs that share no row are not a comparison: the page says so plainly
 * instead of listing every row as "only in A" or "only in B" */
static void
update_unmatched (PsComparePage *self)
{
  g_autofree char *text = NULL;
  const char *format_a = format_display_name (self->diffed_stores[0]);
  const char *format_b = format_display_name (self->diffed_stores[1]);

  if (g_strcmp0 (ps_event_store_get_format (self->diffed_stores[0]),
                 ps_event_store_get_format (self->diffed_stores[1])) != 0)
    /* Translators: run A's file and format, then run B's */
    text = g_strdup_printf (_("A: %s — %s\nB: %s — %s\n"
                              "No series, function or counter of one run is in the other, "
                              "so there is nothing to compare."),
                            self->side_names[0], format_a, self->side_names[1], format_b);
  else
    /* Translators: run A's file and format, then run B's file */
    text = g_strdup_printf (_("A: %s — %s\nB: %s — the same format\n"
                              "No series, function or counter of one run is in the other, "
                              "so there is nothing to compare."),
                            self->side_names[0], format_a, self->side_names[1]);
  gtk_label_set_text (self->unmatched_label, text);
}

void
ps_compare_page_unmatched_clicked_cb (PsComparePage *self)
{
  self->list_unmatched = TRUE;
  gtk_stack_set_visible_child_name (self->table_stack, "table");
  gtk_widget_set_visible (self->table_toolbar, TRUE);
}

/* Under the table, what the verdicts of rows with one value per run rest
 * on: the least change and the noise floor of each kind of row */
static void
update_basis_note (PsComparePage *self)
{
  g_autoptr(GString) floors = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *limit = ps_compare_page_format_share (self->options.min_change);
  g_autofree char *fraction = ps_compare_page_format_share (self->options.noise_fraction);
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  guint n_size = 0;

  for (guint i = 0; self->diff != NULL && i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (self->diff->rows, i);
      g_autofree char *key = NULL;
      g_autofree char *floor_text = NULL;

      if (row->basis != PS_RUN_DIFF_BASIS_SIZE)
        continue;
      n_size++;
      key = g_strdup_printf ("%s\x1f%s", row->kind, row->unit);
      if (isnan (row->noise_floor) || g_hash_table_contains (seen, key))
        continue;
      g_hash_table_add (seen, g_steal_pointer (&key));
      floor_text = ps_compare_page_format_value (row->noise_floor, row->unit, FALSE);
      if (floors->len > 0)
        g_string_append (floors, ", ");
      /* Translators: a noise floor, then the kind of rows it is for ("Function") */
      g_string_append_printf (floors, _("%s (%s)"), floor_text, ps_compare_page_kind_label (row->kind));
    }

  gtk_widget_set_visible (self->min_change_box, n_size > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->basis_label), n_size > 0);
  if (n_size == 0)
    return;
  if (floors->len > 0)
    {
      /* Translators: %u rows; the least change; then noise floors with the kinds of rows they are for */
      text = g_strdup_printf (ngettext ("No test for %u row with one value per run: a change counts from %s "
                                        "and from the noise floor, %s",
                                        "No test for %u rows with one value per run: a change counts from %s "
                                        "and from the noise floor, %s", n_size),
                              n_size, limit, floors->str);
      /* Translators: %s is a share ("1 %") */
      tooltip = g_strdup_printf (_("The noise floor is %s of the largest value of the row’s kind in either run: "
                                   "a smaller change is noise, however large its ratio"), fraction);
    }
  else
    /* Translators: %u rows; the least change */
    text = g_strdup_printf (ngettext ("No test for %u row with one value per run: a change counts from %s",
                                      "No test for %u rows with one value per run: a change counts from %s",
                                      n_size),
                            n_size, limit);
  gtk_label_set_text (self->basis_label, text);
  {
    g_autofree char *whole = tooltip != NULL ? g_strdup_printf ("%s.\n%s.", text, tooltip) : g_strdup_printf ("%s.", text);

    gtk_widget_set_tooltip_text (GTK_WIDGET (self->basis_label), whole);
  }
}

void
ps_compare_page_min_change_changed_cb (PsComparePage *self,
                                       GtkSpinButton *spin)
{
  double min_change = gtk_spin_button_get_value (spin) / 100.0;

  if (min_change == self->options.min_change)
    return;
  self->options.min_change = min_change;
  /* The verdicts of rows without a test follow the new least change */
  if (self->diffed_stores[0] != NULL && self->diffed_stores[1] != NULL)
    {
      ps_compare_page_set_ready (self, FALSE);
      ps_compare_page_start_diff (self);
    }
}

void
ps_compare_page_show_busy (PsComparePage *self,
                           const char    *text)
{
  gtk_label_set_text (self->busy_label, text);
  gtk_spinner_set_spinning (self->spinner, TRUE);
  gtk_stack_set_visible_child_name (self->table_stack, "busy");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-csv", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.copy-markdown", FALSE);
}

typedef struct
{
  PsEventStore    *stores[2];
  GHashTable      *renames;   /* a copy: the page's may change meanwhile */
  PsRunDiffOptions options;   /* the thresholds; no renames, no cancellable */
} DiffTaskData;

static void
diff_task_data_free (DiffTaskData *data)
{
  g_clear_object (&data->stores[0]);
  g_clear_object (&data->stores[1]);
  g_clear_pointer (&data->renames, g_hash_table_unref);
  g_free (data);
}

/* What the worker hands back */
typedef struct
{
  PsRunDiff      *diff;
  PsCallTreeDiff *call_diff;
  GHashTable     *values[2];
} DiffResult;

static void
diff_result_free (DiffResult *result)
{
  g_clear_pointer (&result->diff, ps_run_diff_free);
  g_clear_object (&result->call_diff);
  g_clear_pointer (&result->values[0], g_hash_table_unref);
  g_clear_pointer (&result->values[1], g_hash_table_unref);
  g_free (result);
}

/* The readings of every counter track that have a value, by the row the
 * diff makes of the track (its path) */
static void
collect_counter_values (PsEventStore *store,
                        gint64        session,
                        GHashTable   *values)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_readings = ps_event_store_get_n_counter_values (store);
  g_autofree GArray **by_track = g_new0 (GArray *, MAX (n_tracks, 1));

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      g_autofree char *path = NULL;
      g_autofree char *key = NULL;

      if (track->kind != PS_TRACK_COUNTER || (session >= 0 && track->session != session))
        continue;
      path = ps_run_diff_dup_counter_path (store, track);
      key = ps_compare_page_values_key ("counter", NULL, path);
      by_track[t] = g_hash_table_lookup (values, key);
      if (by_track[t] == NULL)
        {
          by_track[t] = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (values, g_steal_pointer (&key), by_track[t]);
        }
    }

  for (guint64 i = 0; i < n_readings; i++)
    {
      const PsCounterValue *reading = ps_event_store_get_counter_value (store, i);

      if (reading->track < n_tracks && by_track[reading->track] != NULL
          && !(reading->flags & PS_COUNTER_FLAG_MISSING) && !isnan (reading->value))
        g_array_append_val (by_track[reading->track], reading->value);
    }
}

/* Every series' and counter's values, as ps_run_diff_new () pools them
 * into rows */
static GHashTable *
collect_values (PsEventStore *store,
                gint64        session,
                GCancellable *cancellable)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
  PsSeriesOptions options = { 0 };
  g_autoptr(GPtrArray) all_series = NULL;

  options.group_by_name = TRUE;
  options.cancellable = cancellable;
  all_series = ps_series_collect (store, &options);
  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);
      g_autofree char *key = NULL;
      GArray *array;

      if (session >= 0 && series->session != session)
        continue;
      key = ps_compare_page_values_key (ps_series_kind_to_string (series->kind), series->context, series->name);
      array = g_hash_table_lookup (values, key);
      if (array == NULL)
        {
          array = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (values, g_steal_pointer (&key), array);
        }
      g_array_append_vals (array, series->values->data, series->values->len);
    }
  collect_counter_values (store, session, values);
  return values;
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DiffTaskData *data = task_data;
  DiffResult *result = g_new0 (DiffResult, 1);
  PsRunDiffOptions options;

  options = data->options;
  options.renames = data->renames;
  options.cancellable = cancellable;
  result->diff = ps_run_diff_new (data->stores[0], data->stores[1], &options);

  /* The trees as the run pages show them: a module without symbols is
   * one frame named after it */
  if (result->diff != NULL)
    result->call_diff = ps_call_tree_diff_new_for_stores (data->stores[0], data->stores[1], cancellable);

  for (guint side = 0; side < 2 && !g_cancellable_is_cancelled (cancellable); side++)
    result->values[side] = collect_values (data->stores[side], side == 0 ? options.session_a : options.session_b,
                                           cancellable);

  if (g_task_return_error_if_cancelled (task))
    diff_result_free (result);
  else
    g_task_return_pointer (task, result, (GDestroyNotify)diff_result_free);
}

static void
diff_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);
  DiffTaskData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  DiffResult *computed;
  PsRunDiff *diff;

  computed = g_task_propagate_pointer (G_TASK (result), &error);
  if (computed == NULL)
    return;  /* cancelled */

  /* Replaced by a later comparison, or the page was closed meanwhile */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result)))
      || data->stores[0] != self->diffed_stores[0] || data->stores[1] != self->diffed_stores[1])
    {
      diff_result_free (computed);
      return;
    }

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->diff, ps_run_diff_free);
  diff = self->diff = g_steal_pointer (&computed->diff);
  for (guint side = 0; side < 2; side++)
    {
      g_clear_pointer (&self->values[side], g_hash_table_unref);
      self->values[side] = g_steal_pointer (&computed->values[side]);
    }
  if (computed->call_diff != self->call_diff)
    {
      g_clear_object (&self->call_diff);
      self->call_diff = g_steal_pointer (&computed->call_diff);
      ps_compare_page_update_flame_graph (self);
    }
  diff_result_free (computed);

  {
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; i < diff->rows->len; i++)
      g_ptr_array_add (items, ps_compare_row_new (g_ptr_array_index (diff->rows, i)));
    g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                         items->pdata, items->len);
  }

  ps_compare_page_set_ready (self, TRUE);
  gtk_spinner_set_spinning (self->spinner, FALSE);
  /* Filters and search are for a table, which runs sharing no row have
   * not until the user asks for it */
  if (!has_matched_rows (diff) && !self->list_unmatched)
    {
      update_unmatched (self);
      gtk_stack_set_visible_child_name (self->table_stack, "unmatched");
      gtk_widget_set_visible (self->table_toolbar, FALSE);
    }
  else
    {
      gtk_stack_set_visible_child_name (self->table_stack, "table");
      gtk_widget_set_visible (self->table_toolbar, TRUE);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-csv", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.copy-markdown", TRUE);
  ps_compare_page_update_header (self);
  update_basis_note (self);
  ps_compare_page_update_status (self);
}

/* The differential flame graph, next to the table, when both runs have
 * a call tree */
void
ps_compare_page_update_flame_graph (PsComparePage *self)
{
  gboolean has_graph = self->call_diff != NULL;

  if (has_graph)
    {
      g_autofree char *text = NULL;
      guint only_b = ps_call_tree_diff_get_n_only_in_b_nodes (self->call_diff);
      guint only_a = ps_call_tree_diff_get_n_only_in_a_nodes (self->call_diff);

      ps_flame_graph_set_baseline (self->flame_graph, self->call_diff);
      /* Translators: above the differential flame graph; the numbers are
       * call paths found in one run only */
      text = g_strdup_printf (_("Run B’s calls, coloured by the change of their share of the run against A: "
                                "red spends more, blue less. %u call paths only in B, %u only in A."),
                              only_b, only_a);
      gtk_label_set_text (self->flame_label, text);
    }
  else
    {
      ps_flame_graph_set_baseline (self->flame_graph, NULL);
      ps_flame_graph_set_tree (self->flame_graph, NULL);
      gtk_stack_set_visible_child_name (self->view_stack, "table");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), has_graph);
}

void
ps_compare_page_start_diff (PsComparePage *self)
{
  g_autoptr(GTask) task = NULL;
  DiffTaskData *data = g_new0 (DiffTaskData, 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  for (guint side = 0; side < 2; side++)
    {
      g_set_object (&self->diffed_stores[side], ps_run_page_get_store (self->run_pages[side]));
      data->stores[side] = g_object_ref (self->diffed_stores[side]);
    }
  data->options = self->options;
  if (g_hash_table_size (self->renames) > 0)
    {
      GHashTableIter iter;
      gpointer key, value;

      data->renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_iter_init (&iter, self->renames);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_insert (data->renames, g_strdup (key), g_strdup (value));
    }

  ps_compare_page_show_busy (self, _("Comparing the runs…"));
  task = g_task_new (self, self->cancellable, diff_cb, NULL);
  g_task_set_source_tag (task, ps_compare_page_start_diff);
  g_task_set_task_data (task, data, (GDestroyNotify)diff_task_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  ps_task_run_in_background (task, diff_thread);
}

gboolean
ps_compare_page_is_read (PsRunPageState state)
{
  return state == PS_RUN_PAGE_LOADED || state == PS_RUN_PAGE_PARTIAL;
}

void
ps_compare_page_run_state_changed_cb (PsComparePage *self)
{
  PsRunPageState states[2];

  for (guint side = 0; side < 2; side++)
    {
      states[side] = ps_run_page_get_state (self->run_pages[side]);
      ps_compare_page_watch_session (self, side);
    }
  ps_compare_page_update_align (self);
  ps_compare_page_update_side_names (self);

  /* A run that could not be read, or a session its file does not have:
   * nothing to compare */
  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *text = NULL;

      if (states[side] == PS_RUN_PAGE_FAILED)
        /* Translators: %s is a file name */
        text = g_strdup_printf (_("“%s” could not be read, so there is nothing to compare. Its error is shown below."),
                                ps_run_page_get_title (self->run_pages[side]));
      else if (states[side] == PS_RUN_PAGE_CANCELLED)
        /* Translators: %s is a file name */
        text = g_strdup_printf (_("Loading “%s” was cancelled, so there is nothing to compare."),
                                ps_run_page_get_title (self->run_pages[side]));
      else if (ps_compare_page_is_read (states[side]))
        text = ps_compare_side_dup_missing (self->run_pages[side], self->chosen_sessions[side]);

      if (text != NULL)
        {
          g_cancellable_cancel (self->cancellable);
          g_clear_object (&self->cancellable);
          gtk_spinner_set_spinning (self->spinner, FALSE);
          gtk_label_set_text (self->failed_label, text);
          gtk_stack_set_visible_child_name (self->table_stack, "failed");
          return;
        }
    }

  if (ps_compare_page_is_read (states[0]) && ps_compare_page_is_read (states[1]))
    {
      if (ps_run_page_get_store (self->run_pages[0]) != self->diffed_stores[0]
          || ps_run_page_get_store (self->run_pages[1]) != self->diffed_stores[1])
        {
          ps_compare_page_set_ready (self, FALSE);
          ps_compare_page_start_diff (self);
        }
      /* Both timelines start from the same range */
      ps_compare_page_sync_range (self, 0);
      return;
    }

  ps_compare_page_set_ready (self, FALSE);
  ps_compare_page_show_busy (self, _("Loading both runs…"));
}
