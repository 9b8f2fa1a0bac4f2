/* ps-rtl-view-links.c — the RTL view's histogram of the selected total,
 * and its links with the other views of the run
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the view (ps-rtl-view.c) because this is what follows a
 * choice: a total selected shows the histogram of its durations, the
 * chart of them along the log (ps-rtl-view-chart.c) and the call tree of
 * its calls; a scope chosen in the table is the session's
 * chosen span, and one chosen on the timeline is selected here, in the
 * totals and in the call tree (docs/selection.md).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-rtl-view-private.h"
#include "ps-selection-util.h"
#include "ps-util.h"

static void highlight_total (PsRtlView *self);

/* The histogram of the selected total's durations */

/* The label under the histogram and the call tree follow its selection:
 * the call tree has only the calls in the selected buckets, and what ran
 * inside them */
/* The calls of the time range selected on the timeline, or NULL */
static GBytes *
time_selection_spans (PsRtlView  *self,
                      char      **description)
{
  const guint8 *selected;
  gint64 begin, end;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  if (self->session == NULL || !ps_session_get_selection (self->session, &begin, &end))
    return NULL;
  selected = ps_session_get_selected_spans (self->session);
  from = _ps_rtl_view_format_duration (begin / 1e9);
  to = _ps_rtl_view_format_duration (end / 1e9);
  /* Translators: the call tree of a time range selected on the timeline;
   * the %s are times from the start of the run */
  *description = g_strdup_printf (_("Only the calls from %s to %s (selected on the timeline), and what ran inside them"),
                                  from, to);
  return g_bytes_new (selected, ps_event_store_get_n_spans (self->analysis->store) + 1);
}

static void
update_histogram_selection (PsRtlView *self)
{
  g_autoptr(PsHistogramSelection) selection = NULL;
  g_autoptr(GBytes) spans = NULL;
  g_autoptr(GArray) highlighted = NULL;
  g_autofree char *label = NULL;
  g_autofree char *description = NULL;
  g_autofree char *lower = NULL;
  g_autofree char *upper = NULL;
  g_autofree char *count = NULL;
  guint8 *selected;
  guint64 n_selected = 0;

  g_object_get (self->histogram_view, "selection", &selection, NULL);
  if (selection == NULL || self->histogram_series == NULL)
    {
      /* No hint to drag over bars where there are none */
      gboolean has_bars = self->histogram_durations != NULL && self->histogram_durations->len > 0;

      gtk_label_set_text (self->histogram_selection_label,
                          has_bars ? _("Drag over the bars to select a range") : "");
      spans = time_selection_spans (self, &description);
      ps_call_tree_view_set_span_selection (self->call_tree_view, spans, description);
      highlight_total (self);
      return;
    }

  highlighted = g_array_new (FALSE, FALSE, sizeof (guint64));
  selected = g_malloc0 (ps_event_store_get_n_spans (self->analysis->store) + 1);
  for (guint i = 0; i < self->histogram_durations->len; i++)
    if (ps_histogram_view_selection_contains (self->histogram_view, g_array_index (self->histogram_durations, double, i)))
      {
        selected[g_array_index (self->histogram_spans, guint64, i)] = 1;
        g_array_append_val (highlighted, g_array_index (self->histogram_spans, guint64, i));
        n_selected++;
      }
  spans = g_bytes_new_take (selected, ps_event_store_get_n_spans (self->analysis->store) + 1);

  lower = _ps_rtl_view_format_duration (selection->lower);
  upper = _ps_rtl_view_format_duration (selection->upper);
  /* Translators: the calls in the range selected on the histogram */
  count = ps_view_format_count (n_selected);
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Selected: %s call from %s to %s",
                                        "Selected: %s calls from %s to %s", n_selected),
                           count, lower, upper);
  gtk_label_set_text (self->histogram_selection_label, label);

  /* Translators: the call tree of the calls selected on a histogram of a
   * scope's durations: "Only the 6 calls of ::Load from 2 ms to 10 ms, …" */
  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "Only the %llu call of %s from %s to %s (selected on the histogram of Totals), and what ran inside it",
                                              "Only the %llu calls of %s from %s to %s (selected on the histogram of Totals), and what ran inside them",
                                              n_selected),
                                 (unsigned long long) n_selected, self->histogram_series->name, lower, upper);
  ps_call_tree_view_set_span_selection (self->call_tree_view, spans, description);

  /* The timeline shows them */
  if (self->session != NULL)
    {
      ps_session_set_highlight (self->session, (const guint64 *)(gpointer)highlighted->data,
                                highlighted->len, label);
      self->highlight_from_totals = TRUE;
    }
}

/* The calls of the selected total, on the timeline, while the totals
 * page owns the highlight */
static void
highlight_total (PsRtlView *self)
{
  g_autofree char *description = NULL;

  if (self->session == NULL || !self->highlight_from_totals)
    return;
  if (self->histogram_series == NULL || self->histogram_spans == NULL || self->histogram_spans->len == 0)
    {
      ps_session_clear_highlight (self->session);
      self->highlight_from_totals = FALSE;
      return;
    }
  /* Translators: what the timeline highlights; %s is a scope name */
  description = g_strdup_printf (_("Calls of %s"), self->histogram_series->name);
  ps_session_set_highlight (self->session, (const guint64 *)(gpointer)self->histogram_spans->data,
                            self->histogram_spans->len, description);
}

void
ps_rtl_view_histogram_selection_changed_cb (PsRtlView       *self,
                                            GParamSpec      *pspec,
                                            PsHistogramView *view)
{
  update_histogram_selection (self);
}

/* With a time range selected on the timeline, the histogram has only the
 * calls inside it. Returns whether it filtered. */
static gboolean
keep_time_selection (PsRtlView *self)
{
  guint kept = 0;

  if (self->session == NULL || !ps_session_get_selection (self->session, NULL, NULL))
    return FALSE;
  for (guint i = 0; i < self->histogram_spans->len; i++)
    {
      guint64 span = g_array_index (self->histogram_spans, guint64, i);

      if (!ps_session_span_in_selection (self->session, span))
        continue;
      g_array_index (self->histogram_spans, guint64, kept) = span;
      g_array_index (self->histogram_durations, double, kept) = g_array_index (self->histogram_durations, double, i);
      kept++;
    }
  g_array_set_size (self->histogram_spans, kept);
  g_array_set_size (self->histogram_durations, kept);
  return TRUE;
}

void
ps_rtl_view_totals_selection_changed_cb (PsRtlView          *self,
                                         GParamSpec         *pspec,
                                         GtkSingleSelection *selection)
{
  PsScopeTotalRow *row = gtk_single_selection_get_selected_item (selection);
  const PsSeries *series;
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  g_autofree char *count = NULL;
  gboolean in_range;

  /* A total the user chose lights up its calls on the timeline */
  if (!self->following)
    self->highlight_from_totals = row != NULL || self->highlight_from_totals;

  g_clear_pointer (&self->histogram_durations, g_array_unref);
  g_clear_pointer (&self->histogram_spans, g_array_unref);
  self->histogram_series = NULL;
  if (row == NULL || self->scopes == NULL)
    {
      ps_histogram_view_clear (self->histogram_view);
      ps_rtl_view_show_duration_chart (self, NULL, NULL);
      gtk_widget_set_visible (self->histogram_box, FALSE);
      update_histogram_selection (self);
      return;
    }

  series = ps_scope_total_row_get_series (row);
  self->histogram_series = series;
  self->histogram_durations = ps_scope_analysis_get_durations (self->scopes, series, &self->histogram_spans);
  in_range = keep_time_selection (self);
  ps_histogram_view_set_values (self->histogram_view,
                                (const double *)(gpointer)self->histogram_durations->data,
                                self->histogram_durations->len);

  if (*ps_scope_total_row_get_context (row) != '\0')
    /* Translators: a scope name and its context */
    name = g_strdup_printf (_("%s in %s"), ps_scope_total_row_get_name (row), ps_scope_total_row_get_context (row));
  else
    name = g_strdup (ps_scope_total_row_get_name (row));
  count = ps_view_format_count (self->histogram_durations->len);
  if (in_range)
    /* Translators: the title of a histogram of a scope's durations, limited
     * to the time range selected on the timeline */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Duration of %s: %s call in the selected time range",
                                          "Durations of %s: %s calls in the selected time range",
                                          self->histogram_durations->len),
                             name, count);
  else
    /* Translators: the title of a histogram of a scope's durations; the
     * second %s is a count ("1,200") */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Duration of %s: %s call",
                                          "Durations of %s: %s calls", self->histogram_durations->len),
                             name, count);
  ps_rtl_view_show_duration_chart (self, series, name);
  gtk_label_set_text (self->histogram_title, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->histogram_title), title);
  ps_histogram_view_set_title (self->histogram_view, title);
  update_histogram_selection (self);
  gtk_widget_set_visible (self->histogram_box, TRUE);
}

/* A time range selected on the timeline: the histogram counts the calls
 * inside it, and the call tree has only them */
void
ps_rtl_view_time_selection_changed_cb (PsRtlView *self)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->totals_view);

  self->following = TRUE;
  if (GTK_IS_SINGLE_SELECTION (model))
    ps_rtl_view_totals_selection_changed_cb (self, NULL, GTK_SINGLE_SELECTION (model));
  else
    update_histogram_selection (self);
  self->following = FALSE;
  /* The tables follow, computed again in a worker */
  ps_rtl_view_apply_filters (self);
}

void
ps_rtl_view_function_selected_cb (PsRtlView      *self,
                                  guint32         function,
                                  PsCallTreeView *view)
{
  PsCallTree *tree = ps_call_tree_view_get_tree (view);
  const char *name;
  g_autofree char *description = NULL;

  if (self->session == NULL || tree == NULL || self->following)
    return;
  if (function == PS_NONE)
    {
      if (!self->highlight_from_totals)
        ps_session_clear_highlight (self->session);
      return;
    }
  name = ps_call_tree_get_function_name (tree, function);
  /* Translators: what the timeline highlights; %s is a function */
  description = g_strdup_printf (_("Calls of %s"), name);
  self->highlight_from_totals = FALSE;
  ps_session_highlight_function (self->session, name, ps_call_tree_get_function_module (tree, function),
                                 description);
}

/* Links with the other views of the run (docs/selection.md): a scope
 * chosen in the table is the session's chosen span, which the timeline
 * shows; one chosen on the timeline is selected here, in the totals and
 * in the call tree's callers and callees */

static PsScopeRow *
selected_scope (PsRtlView *self)
{
  return ps_selection_get_selected_row_item (self->scope_view);
}

/* The tracks of a session's threads */
static GArray *
session_threads (PsRtlView *self,
                 guint32    session)
{
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint r = 0; r < ps_scope_tree_get_n_roots (self->scopes->tree); r++)
    {
      const PsScopeRoot *root = ps_scope_tree_get_root (self->scopes->tree, r);

      if (root->session == session)
        g_array_append_val (tracks, root->track);
    }
  return tracks;
}

void
ps_rtl_view_scope_selected_cb (PsRtlView *self)
{
  g_autoptr(PsScopeRow) row = NULL;
  guint32 index;

  if (self->following || self->session == NULL || self->scopes == NULL || (row = selected_scope (self)) == NULL)
    return;
  index = ps_scope_row_get_index (row);
  switch ((int)ps_scope_row_get_kind (row))
    {
    case PS_SCOPE_ROW_SPAN:
      ps_session_set_selected_span (self->session, index);
      break;
    case PS_SCOPE_ROW_THREAD:
      ps_session_set_focus_track (self->session, index);
      break;
    case PS_SCOPE_ROW_MARK:
      ps_session_set_selected_mark (self->session, index);
      break;
    case PS_SCOPE_ROW_SESSION:
    default:
      {
        g_autoptr(GArray) tracks = session_threads (self, index);

        ps_session_set_focus_tracks (self->session, (const guint32 *)(gpointer)tracks->data, tracks->len);
      }
      break;
    }
}

/* Enter on a scope zooms the timeline to it */
void
ps_rtl_view_scope_activate_cb (PsRtlView *self,
                               guint      position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (self->scope_sorted), position);
  g_autoptr(PsScopeRow) row = tree_row != NULL ? gtk_tree_list_row_get_item (tree_row) : NULL;
  const PsSpan *span;
  gint64 margin;

  if (row == NULL || self->session == NULL || ps_scope_row_get_kind (row) != PS_SCOPE_ROW_SPAN)
    return;
  span = ps_event_store_get_span (self->analysis->store, ps_scope_row_get_index (row));
  margin = MAX ((span->end_ns - span->begin_ns) / 20, 1);
  ps_session_set_selected_span (self->session, ps_scope_row_get_index (row));
  ps_session_set_visible_range (self->session, span->begin_ns - margin, MAX (span->end_ns, span->begin_ns) + margin);
}

static gboolean
row_is_node (GtkTreeListRow *tree_row,
             PsScopeNode     node)
{
  g_autoptr(PsScopeRow) row = tree_row != NULL ? gtk_tree_list_row_get_item (tree_row) : NULL;

  return row != NULL && (guint32)ps_scope_row_get_kind (row) == node.kind && ps_scope_row_get_index (row) == node.index;
}

/* The row of node among the children of parent_row (NULL: the top), or
 * NULL; expands parent_row. Below a thread or a scope the children are
 * those of the scope tree, in its order: found there without a row per
 * child. */
static GtkTreeListRow *
child_row_of (PsScopeTree      *scope_tree,
              GtkTreeListModel *tree,
              GtkTreeListRow   *parent_row,
              PsScopeNode       node)
{
  guint n;

  if (parent_row != NULL)
    {
      g_autoptr(PsScopeRow) parent = gtk_tree_list_row_get_item (parent_row);
      PsScopeNode parent_node = { ps_scope_row_get_kind (parent), ps_scope_row_get_index (parent) };

      gtk_tree_list_row_set_expanded (parent_row, TRUE);
      if (parent_node.kind == PS_SCOPE_NODE_THREAD || parent_node.kind == PS_SCOPE_NODE_SPAN)
        for (guint i = 0; i < ps_scope_tree_get_n_children (scope_tree, parent_node); i++)
          {
            PsScopeNode child = ps_scope_tree_get_child (scope_tree, parent_node, i);

            if (child.kind == node.kind && child.index == node.index)
              {
                GtkTreeListRow *row = gtk_tree_list_row_get_child_row (parent_row, i);

                if (row_is_node (row, node))
                  return row;
                g_clear_object (&row);
                break;
              }
          }
    }
  n = parent_row != NULL ? g_list_model_get_n_items (gtk_tree_list_row_get_children (parent_row))
                         : g_list_model_get_n_items (gtk_tree_list_model_get_model (tree));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) child = parent_row != NULL ? gtk_tree_list_row_get_child_row (parent_row, i)
                                                           : gtk_tree_list_model_get_child_row (tree, i);

      if (row_is_node (child, node))
        return g_steal_pointer (&child);
    }
  return NULL;
}

/* The node the session chose: its scope, its message or its thread, and
 * the thread's track; FALSE when it chose none */
static gboolean
chosen_node (PsRtlView   *self,
             PsScopeNode *node,
             guint32     *track)
{
  PsEventStore *store = self->analysis->store;
  guint64 span = ps_session_get_selected_span (self->session);
  guint64 mark = ps_session_get_selected_mark (self->session);

  if (span != PS_SESSION_NO_SPAN)
    {
      /* The nearest scope the filters keep */
      while (span != PS_SESSION_NO_SPAN && !ps_scope_tree_shows_span (self->scopes->tree, span))
        {
          guint32 parent = ps_event_store_get_span (store, span)->parent;

          span = parent != PS_NONE ? parent : PS_SESSION_NO_SPAN;
        }
      *track = ps_event_store_get_span (store, ps_session_get_selected_span (self->session))->track;
      *node = span != PS_SESSION_NO_SPAN ? (PsScopeNode) { PS_SCOPE_NODE_SPAN, (guint32)span }
                                         : (PsScopeNode) { PS_SCOPE_NODE_THREAD, *track };
      return TRUE;
    }
  if (mark != PS_SESSION_NO_MARK)
    {
      *track = ps_event_store_get_mark (store, mark)->track;
      *node = ps_scope_tree_shows_mark (self->scopes->tree, mark) ? (PsScopeNode) { PS_SCOPE_NODE_MARK, (guint32)mark }
                                                                  : (PsScopeNode) { PS_SCOPE_NODE_THREAD, *track };
      return TRUE;
    }
  *track = ps_session_get_focus_track (self->session);
  *node = (PsScopeNode) { PS_SCOPE_NODE_THREAD, *track };
  return *track != PS_NONE;
}

/* The row of a node of the scope tree in the table shown, opening the rows
 * above it; NULL when it is not shown (a search lists other rows) */
static GtkTreeListRow *
open_row_of (PsRtlView   *self,
             guint32      track,
             PsScopeNode  node)
{
  GtkTreeListModel *tree = GTK_TREE_LIST_MODEL (gtk_sort_list_model_get_model (self->scope_sorted));
  PsScopeTree *scope_tree = self->scopes->tree;
  PsEventStore *store = self->analysis->store;
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (PsScopeNode));
  g_autoptr(GtkTreeListRow) row = NULL;

  if (tree == NULL)
    return NULL;
  /* A search shows its matches flat */
  if (self->applied_search != NULL)
    return child_row_of (scope_tree, tree, NULL, node);

  for (;;)
    {
      g_array_prepend_val (path, node);
      if (node.kind == PS_SCOPE_NODE_THREAD)
        break;
      node = ps_scope_tree_get_parent (scope_tree, node);
    }
  if (ps_event_store_get_n_sessions (store) > 1)
    {
      PsScopeNode session = { PS_SCOPE_ROW_SESSION, ps_event_store_get_track (store, track)->session };

      g_array_prepend_val (path, session);
    }
  for (guint i = 0; i < path->len; i++)
    {
      GtkTreeListRow *next = child_row_of (scope_tree, tree, row, g_array_index (path, PsScopeNode, i));

      if (next == NULL)
        return NULL;
      g_clear_object (&row);
      row = next;
    }
  return g_steal_pointer (&row);
}

/* Selects the scope, message or thread the session chose, without
 * telling the session again */
void
ps_rtl_view_select_chosen_scope (PsRtlView *self)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->scope_view);
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(PsScopeRow) selected = NULL;
  PsScopeNode node;
  guint32 track;
  guint position;

  if (self->session == NULL || self->scopes == NULL || !GTK_IS_SINGLE_SELECTION (selection)
      || !chosen_node (self, &node, &track))
    return;
  /* Already there */
  selected = selected_scope (self);
  if (selected != NULL && ps_scope_row_get_index (selected) == node.index
      && (guint32)ps_scope_row_get_kind (selected) == node.kind)
    return;

  self->following = TRUE;
  row = open_row_of (self, track, node);
  position = row == NULL ? GTK_INVALID_LIST_POSITION
             : gtk_sort_list_model_get_sorter (self->scope_sorted) == NULL ? gtk_tree_list_row_get_position (row)
             : ps_selection_find_item (G_LIST_MODEL (self->scope_sorted), row);
  /* Not shown (a search or the filters leave it out): no other row stands
   * for it */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), position);
  if (position != GTK_INVALID_LIST_POSITION)
    ps_selection_scroll_to_row (self->scope_view, position);
  self->following = FALSE;
}

/* The total of the chosen span's name (and thread, per thread) */
static void
select_total_of_span (PsRtlView *self,
                      guint64    span)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->totals_view);
  GListModel *shown = ps_rtl_view_get_totals (self);
  const PsSpan *s = ps_event_store_get_span (self->analysis->store, span);
  g_autofree char *name = ps_util_display_text (ps_event_store_get_string (self->analysis->store, s->name), -1);

  if (!GTK_IS_SINGLE_SELECTION (selection))
    return;
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (shown, i);
      const PsSeries *series = ps_scope_total_row_get_series (row);
      gboolean on_thread = !self->per_thread;

      for (guint t = 0; t < series->n_instances && !on_thread; t++)
        on_thread = series->tracks[t] == s->track;
      if (on_thread && g_strcmp0 (ps_scope_total_row_get_name (row), name) == 0)
        {
          if (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection)) != i)
            {
              self->following = TRUE;
              gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), i);
              self->following = FALSE;
              ps_selection_scroll_to_row (self->totals_view, i);
            }
          return;
        }
    }
}

/* The function of the chosen span in the call tree: its callers and
 * callees, and its row in the Functions list */
static void
show_function_of_span (PsRtlView *self,
                       guint64    span)
{
  PsCallTree *tree = ps_call_tree_view_get_tree (self->call_tree_view);
  const char *name = ps_event_store_get_string (self->analysis->store,
                                                ps_event_store_get_span (self->analysis->store, span)->name);
  gsize length = 0;
  const char *function_part;
  g_autofree char *function_name = NULL;
  guint32 function;

  if (tree == NULL || name == NULL)
    return;
  function_part = ps_call_tree_function_of_name (name, &length);
  function_name = g_strndup (function_part, length);
  function = ps_call_tree_lookup_function (tree, function_name);
  if (function == PS_NONE)
    return;
  self->following = TRUE;
  ps_call_tree_view_show_function (self->call_tree_view, function);
  self->following = FALSE;
}

/* The thread whose call tree is shown is focused on the timeline */
void
ps_rtl_view_call_tree_thread_cb (PsRtlView *self)
{
  guint32 thread = ps_call_tree_view_get_thread (self->call_tree_view);

  if (self->session != NULL && !self->following && thread != PS_NONE)
    ps_session_set_focus_track (self->session, thread);
}

void
ps_rtl_view_follow_session (PsRtlView *self)
{
  guint64 span = ps_session_get_selected_span (self->session);

  if (self->analysis == NULL || self->scopes == NULL)
    return;
  ps_rtl_view_select_chosen_scope (self);
  if (span != PS_SESSION_NO_SPAN)
    {
      select_total_of_span (self, span);
      show_function_of_span (self, span);
    }
}
