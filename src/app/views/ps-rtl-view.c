/* ps-rtl-view.c — an OpenOffice RTL log: scopes per thread, totals, repairs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3 (derived values) and §5 (the reports of the
 * original tools: the pretty-printed list per thread, the totals per
 * function, include/exclude filters).
 *
 * The unfiltered PsScopeAnalysis comes with the run's PsRunAnalysis; a
 * filter or a search of the scope tree is computed again in a worker
 * thread while a spinner turns. The scope table is a GtkTreeListModel over
 * PsScopeList models, so row objects exist only for expanded nodes. The
 * cells of both tables are made in ps-rtl-view-cells.c. The call-tree page
 * is a PsCallTreeView of the run's call tree. Selecting a row of the
 * totals shows the histogram of its durations below the table.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <string.h>

#include "ps-call-tree-view.h"
#include "ps-histogram-view.h"
#include "ps-rtl-view-private.h"
#include "ps-scope-list.h"
#include "ps-scopes.h"
#include "ps-selection-util.h"
#include "ps-session.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"
#include "ps-warning-model.h"
#include "ps-warning-row.h"

/* A flat list of matches is only useful up to a point */
#define MAX_SEARCH_RESULTS 10000
/* Below this many children in all, the top rows open by themselves */
#define AUTO_EXPAND_BUDGET 400
#define FILTER_DELAY_MS 400

struct _PsRtlView
{
  GtkWidget            parent_instance;

  PsRunAnalysis       *analysis;
  PsScopeAnalysis     *scopes;          /* shown: unfiltered or filtered */
  gboolean             per_thread;

  /* Filters */
  char                *applied_include;
  char                *applied_exclude;
  gboolean             applied_range;     /* the time range of the session */
  gint64               applied_begin;
  gint64               applied_end;
  GCancellable        *filter_cancellable;
  guint                filter_timeout_id;

  /* Search */
  char                *search_text;     /* casefolded, or NULL */
  char                *pending_search;  /* what the worker looks for */
  char                *applied_search;  /* what the scope table shows */
  GCancellable        *search_cancellable;
  guint64              n_search_matches;

  /* Models */
  GtkSortListModel    *scope_sorted;    /* GtkTreeListRow */
  GtkSorter           *scope_row_sorter;
  GListStore          *totals;          /* PsScopeTotalRow */
  GtkFilter           *totals_filter;
  GtkSortListModel    *totals_sorted;
  PsWarningModel      *warnings;
  GtkFilter           *warnings_filter;
  GtkFilterListModel  *warnings_filtered;
  GtkColumnViewColumn *scope_columns[N_SCOPE_COLUMNS];
  GtkColumnViewColumn *total_columns[N_TOTAL_COLUMNS];
  GArray              *histogram_durations; /* double: of the selected total */
  GArray              *histogram_spans;     /* guint64: their spans in the store */
  const PsSeries      *histogram_series;    /* the selected total's, or NULL */
  PsSession           *session;
  gulong               session_selection_handler;
  gulong               session_focus_handler;
  /* The session's highlight is the selected total's calls or those of
   * its histogram's bars */
  gboolean             highlight_from_totals;
  gboolean             totals_stale;    /* rows wait for the page to show */
  gboolean             following;         /* a row chosen by code, not the user */

  /* Template widgets */
  GtkLabel            *process_value;
  GtkLabel            *opened_value;
  GtkLabel            *closed_value;
  GtkLabel            *threads_value;
  GtkLabel            *scopes_value;
  GtkLabel            *messages_value;
  GtkWidget           *filter_bar;
  GtkSearchEntry      *search_entry;
  GtkEntry            *include_entry;
  GtkEntry            *exclude_entry;
  GtkWidget           *scope_filter_box;
  GtkSpinner          *spinner;
  GtkRevealer         *filter_error_revealer;
  GtkLabel            *filter_error_label;
  GtkStack            *view_stack;
  GtkLabel            *scopes_status_label;
  GtkStack            *scopes_stack;
  GtkLabel            *scopes_empty_label;
  GtkColumnView       *scope_view;
  GtkLabel            *totals_status_label;
  GtkCheckButton      *per_thread_check;
  GtkStack            *totals_stack;
  GtkLabel            *totals_empty_label;
  GtkColumnView       *totals_view;
  GtkPaned           *totals_paned;
  GtkWidget           *histogram_box;
  GtkLabel            *histogram_title;
  GtkLabel            *histogram_selection_label;
  PsHistogramView     *histogram_view;
  PsCallTreeView      *call_tree_view;
  GtkStackPage        *warnings_page;
  GtkLabel            *warnings_overflow_label;
  GtkStack            *warnings_stack;
  GtkColumnView       *warning_view;
};

enum {
  PROP_0,
  PROP_ANALYSIS,
  PROP_PER_THREAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_rtl_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsRtlView, ps_rtl_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_rtl_view_run_view_init))

static void start_search (PsRtlView *self);
static void select_chosen_scope (PsRtlView *self);
static void follow_session (PsRtlView *self);
static void highlight_total (PsRtlView *self);
static void scope_selected_cb (PsRtlView *self);
static void call_tree_thread_cb (PsRtlView *self);
static void scope_activate_cb (PsRtlView *self,
                               guint      position);
static void function_selected_cb (PsRtlView      *self,
                                  guint32         function,
                                  PsCallTreeView *view);

/* Search: the totals and the warnings are filtered in place */

static gboolean
contains_folded (const char *text,
                 const char *needle)
{
  g_autofree char *folded = NULL;

  if (text == NULL)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  return strstr (folded, needle) != NULL;
}

static gboolean
total_matches (gpointer item,
               gpointer user_data)
{
  PsRtlView *self = user_data;
  PsScopeTotalRow *row = item;

  if (self->search_text == NULL)
    return TRUE;
  return contains_folded (ps_scope_total_row_get_name (row), self->search_text)
         || contains_folded (ps_scope_total_row_get_context (row), self->search_text);
}

static gboolean
warning_matches (gpointer item,
                 gpointer user_data)
{
  PsRtlView *self = user_data;
  PsWarningRow *row = item;

  if (self->search_text == NULL)
    return TRUE;
  return contains_folded (ps_warning_row_get_code (row), self->search_text)
         || contains_folded (ps_warning_row_get_message (row), self->search_text);
}

/* Filling the view */

static void
scope_sort_changed_cb (PsRtlView     *self,
                       GtkSorterChange change,
                       GtkSorter     *sorter)
{
  GtkSorter *wanted = gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE ? self->scope_row_sorter : NULL;

  if (gtk_sort_list_model_get_sorter (self->scope_sorted) != wanted)
    gtk_sort_list_model_set_sorter (self->scope_sorted, wanted);
}

static GListModel *
create_scope_children (gpointer item,
                       gpointer user_data)
{
  return ps_scope_row_create_children (item);
}

static guint
n_children_of (PsScopeRow *row)
{
  PsScopeAnalysis *scopes = ps_scope_row_get_analysis (row);
  PsScopeNode node = { ps_scope_row_get_kind (row), ps_scope_row_get_index (row) };
  guint n;

  if (node.kind != PS_SCOPE_ROW_SESSION)
    return ps_scope_tree_get_n_children (scopes->tree, node);

  {
    g_autoptr(PsScopeList) threads = ps_scope_list_new_session (scopes, node.index);

    n = g_list_model_get_n_items (G_LIST_MODEL (threads));
  }
  return n;
}

/* A few threads with a few children each: show them open */
static void
auto_expand (GtkTreeListModel *tree)
{
  guint n_top = g_list_model_get_n_items (G_LIST_MODEL (tree));
  guint budget = AUTO_EXPAND_BUDGET;

  if (n_top > 8)
    return;

  /* From the bottom, so that the positions above do not move */
  for (guint i = n_top; i-- > 0;)
    {
      g_autoptr(GtkTreeListRow) tree_row = gtk_tree_list_model_get_child_row (tree, i);
      g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);
      guint n_children = n_children_of (row);

      if (n_children > 0 && n_children <= budget)
        {
          gtk_tree_list_row_set_expanded (tree_row, TRUE);
          budget -= n_children;
        }
    }
}

static void
set_scope_root (PsRtlView  *self,
                GListModel *root,
                gboolean    expand)
{
  g_autoptr(GtkTreeListModel) tree = NULL;

  tree = gtk_tree_list_model_new (g_object_ref (root), FALSE, FALSE, create_scope_children, NULL, NULL);
  if (expand)
    auto_expand (tree);
  gtk_sort_list_model_set_model (self->scope_sorted, G_LIST_MODEL (tree));
  /* New rows: the scope chosen on the timeline stays selected */
  select_chosen_scope (self);
}

static void
update_scopes_page (PsRtlView *self)
{
  g_autofree char *status = NULL;
  guint n_rows;

  if (self->applied_search != NULL)
    {
      if (self->n_search_matches > MAX_SEARCH_RESULTS)
        status = g_strdup_printf (_("Showing the first %u of %llu scopes and messages matching “%s”"),
                                  MAX_SEARCH_RESULTS, (unsigned long long) self->n_search_matches,
                                  self->applied_search);
      else
        status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "%llu scope or message matches “%s”",
                                               "%llu scopes and messages match “%s”",
                                               self->n_search_matches),
                                  (unsigned long long) self->n_search_matches, self->applied_search);
    }
  gtk_label_set_text (self->scopes_status_label, status != NULL ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->scopes_status_label), status != NULL);

  n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->scope_sorted));
  if (n_rows == 0)
    {
      g_autofree char *empty = NULL;

      if (self->applied_search != NULL)
        empty = g_strdup_printf (_("No scope or message matches “%s”"), self->applied_search);
      else
        empty = g_strdup (_("No threads in this log"));
      gtk_label_set_text (self->scopes_empty_label, empty);
    }
  gtk_stack_set_visible_child_name (self->scopes_stack, n_rows > 0 ? "table" : "empty");
}

static void
show_scope_tree (PsRtlView *self)
{
  g_autoptr(PsScopeList) top = ps_scope_list_new_top (self->scopes);

  g_clear_pointer (&self->applied_search, g_free);
  set_scope_root (self, G_LIST_MODEL (top), TRUE);
  update_scopes_page (self);
}

static void
update_totals_status (PsRtlView *self)
{
  GPtrArray *series = self->per_thread ? self->scopes->thread_series : self->scopes->series;
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->totals_sorted));
  g_autofree char *text = NULL;

  if (n_shown < series->len)
    text = g_strdup_printf (_("%u of %u rows match the search"), n_shown, series->len);
  else if (self->applied_range)
    /* Translators: the totals of the scopes inside the time range selected on the timeline */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u scope name in the selected time range",
                                         "%u scope names in the selected time range", series->len),
                            series->len);
  else if (self->per_thread)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u scope name and thread", "%u scope names and threads",
                                         series->len),
                            series->len);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u scope name", "%u scope names", series->len),
                            series->len);
  gtk_label_set_text (self->totals_status_label, text);

  if (n_shown == 0)
    gtk_label_set_text (self->totals_empty_label,
                        series->len > 0 ? _("No scope name matches the search")
                                        : ps_scope_tree_is_filtered (self->scopes->tree)
                                          ? _("No scope passes the filters") : _("No scopes in this log"));
  gtk_stack_set_visible_child_name (self->totals_stack, n_shown > 0 ? "table" : "empty");
}

static void
fill_totals (PsRtlView *self)
{
  GPtrArray *series = self->per_thread ? self->scopes->thread_series : self->scopes->series;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  GtkSelectionModel *selection = gtk_column_view_get_model (self->totals_view);
  PsScopeTotalRow *selected = GTK_IS_SINGLE_SELECTION (selection)
                              ? gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)) : NULL;
  g_autofree char *selected_name = selected != NULL ? g_strdup (ps_scope_total_row_get_name (selected)) : NULL;
  g_autofree char *selected_context = selected != NULL ? g_strdup (ps_scope_total_row_get_context (selected)) : NULL;
  const PsSeries *selected_series = selected != NULL ? ps_scope_total_row_get_series (selected) : NULL;
  guint32 selected_track = selected_series != NULL && selected_series->n_instances == 1
                           ? selected_series->tracks[0] : PS_NONE;

  for (guint i = 0; i < series->len; i++)
    g_ptr_array_add (rows, ps_scope_total_row_new (self->scopes, g_ptr_array_index (series, i)));

  g_list_store_splice (self->totals, 0, g_list_model_get_n_items (G_LIST_MODEL (self->totals)),
                       rows->pdata, rows->len);

  /* The same scope stays selected when a filter or a time range changes
   * the numbers */
  if (selected_name != NULL && GTK_IS_SINGLE_SELECTION (selection))
    {
      GListModel *shown = G_LIST_MODEL (self->totals_sorted);

      for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
        {
          g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (shown, i);
          const PsSeries *row_series = ps_scope_total_row_get_series (row);

          if (g_strcmp0 (ps_scope_total_row_get_name (row), selected_name) == 0
              && g_strcmp0 (ps_scope_total_row_get_context (row), selected_context) == 0
              && (!self->per_thread || (row_series->n_instances == 1 && row_series->tracks[0] == selected_track)))
            {
              gboolean following = self->following;

              self->following = TRUE;
              gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), i);
              self->following = following;
              break;
            }
        }
    }
  update_totals_status (self);
}

/* The table makes a row's widgets as its rows come in, shown or not: a
 * hidden Totals page gets its rows when it shows (totals_map_cb ()), so
 * that a big log's first view is not held up by a table no one sees */
static void
update_totals (PsRtlView *self)
{
  self->totals_stale = !gtk_widget_get_mapped (GTK_WIDGET (self->totals_view));
  if (!self->totals_stale)
    fill_totals (self);
}

/* The rows of the Totals, for code that looks into them */
static GListModel *
get_totals (PsRtlView *self)
{
  if (self->totals_stale)
    {
      self->totals_stale = FALSE;
      fill_totals (self);
    }
  return G_LIST_MODEL (self->totals_sorted);
}

static void
totals_map_cb (PsRtlView *self)
{
  get_totals (self);
}

/* "9", or with filters "2 of 9" and the tooltip */
static void
set_count (GtkLabel   *label,
           gboolean    filtered,
           guint64     shown,
           guint64     all,
           const char *tooltip)
{
  g_autofree char *text = NULL;

  if (filtered)
    /* Translators: what the filters keep, of all */
    text = g_strdup_printf (_("%llu of %llu"), (unsigned long long) shown, (unsigned long long) all);
  else
    text = g_strdup_printf ("%" PRIu64, all);

  gtk_label_set_text (label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), filtered ? tooltip : NULL);
}

/* The header's counts say how much the filters keep */
static void
update_counts (PsRtlView *self)
{
  PsScopeAnalysis *scopes = self->scopes;
  gboolean filtered = ps_scope_tree_is_filtered (scopes->tree);
  guint64 n_spans = ps_event_store_get_n_spans (scopes->store);
  guint64 n_marks = ps_event_store_get_n_marks (scopes->store);
  g_autofree char *spans_tooltip =
    g_strdup_printf (_("The filters keep %llu of %llu scopes"),
                     (unsigned long long) scopes->n_shown_spans, (unsigned long long) n_spans);
  g_autofree char *marks_tooltip =
    g_strdup_printf (_("The filters keep %llu of %llu messages: those written in a scope they keep, or whose own record matches"),
                     (unsigned long long) scopes->n_shown_marks, (unsigned long long) n_marks);

  set_count (self->scopes_value, filtered, scopes->n_shown_spans, n_spans, spans_tooltip);
  set_count (self->messages_value, filtered, scopes->n_shown_marks, n_marks, marks_tooltip);
}

static void
update_busy (PsRtlView *self)
{
  ps_view_show_busy_spinner (self->spinner,
                             self->filter_cancellable != NULL ? _("Applying the filters…")
                             : self->search_cancellable != NULL ? _("Searching…") : NULL);
}

/* Shows an analysis: the unfiltered one of the run, or a filtered one */
static void
set_scopes (PsRtlView       *self,
            PsScopeAnalysis *scopes)
{
  if (self->scopes == scopes)
    return;

  g_clear_pointer (&self->scopes, ps_scope_analysis_unref);
  self->scopes = ps_scope_analysis_ref (scopes);

  update_totals (self);
  update_counts (self);

  if (self->search_text != NULL)
    {
      /* Keep the old rows until the new matches are in */
      start_search (self);
    }
  else
    show_scope_tree (self);
}

/* Search of the scope tree, in a worker */

static void
search_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PsRtlView) self = user_data;
  g_autoptr(PsScopeSearch) search = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsScopeList) matches = NULL;
  GTask *task = G_TASK (result);

  search = ps_scope_analysis_search_finish (result, &error);
  if (search == NULL || g_task_get_cancellable (task) != self->search_cancellable)
    return;

  g_clear_object (&self->search_cancellable);
  update_busy (self);

  g_free (self->applied_search);
  self->applied_search = g_steal_pointer (&self->pending_search);
  self->n_search_matches = search->n_matches;

  matches = ps_scope_list_new_nodes (self->scopes, search->nodes);
  set_scope_root (self, G_LIST_MODEL (matches), FALSE);
  update_scopes_page (self);
}

static void
start_search (PsRtlView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);

  if (self->scopes == NULL)
    return;

  g_free (self->pending_search);
  self->pending_search = g_strdup (text);
  self->search_cancellable = g_cancellable_new ();
  ps_scope_analysis_search_async (self->scopes, text, MAX_SEARCH_RESULTS, self->search_cancellable,
                                  search_cb, g_object_ref (self));
  update_busy (self);
}

static void
search_changed_cb (PsRtlView      *self,
                   GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search_text, g_free);
  if (*text != '\0')
    self->search_text = g_utf8_casefold (text, -1);

  gtk_filter_changed (self->totals_filter, GTK_FILTER_CHANGE_DIFFERENT);
  gtk_filter_changed (self->warnings_filter, GTK_FILTER_CHANGE_DIFFERENT);

  if (self->scopes == NULL)
    return;

  update_totals_status (self);
  if (self->search_text != NULL)
    start_search (self);
  else
    {
      g_cancellable_cancel (self->search_cancellable);
      g_clear_object (&self->search_cancellable);
      update_busy (self);
      show_scope_tree (self);
    }
}

static void
stop_search_cb (PsRtlView      *self,
                GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

/* Filters, in a worker */

/* Each line of an entry is one expression (a filter file can be pasted);
 * within a line, "|" separates alternatives */
static gboolean
add_expressions (PsScopeFilter  *filter,
                 gboolean        include,
                 const char     *text,
                 GError        **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (*lines[i] == '\0')
        continue;
      if (!ps_scope_filter_add (filter, include, lines[i], error))
        return FALSE;
    }

  return TRUE;
}

/* The filter of the entries, or NULL with the error shown */
static PsScopeFilter *
build_filter (PsRtlView *self)
{
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(GError) include_error = NULL;
  g_autoptr(GError) exclude_error = NULL;
  const char *include = gtk_editable_get_text (GTK_EDITABLE (self->include_entry));
  const char *exclude = gtk_editable_get_text (GTK_EDITABLE (self->exclude_entry));
  g_autoptr(GString) message = g_string_new (NULL);

  gint64 begin, end;

  add_expressions (filter, TRUE, include, &include_error);
  add_expressions (filter, FALSE, exclude, &exclude_error);
  if (self->session != NULL && ps_session_get_selection (self->session, &begin, &end))
    ps_scope_filter_set_time_range (filter, begin, end);

  if (include_error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->include_entry), "error");
      /* Translators: %s is why a regular expression could not be used */
      g_string_append_printf (message, _("Include: %s"), include_error->message);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->include_entry), "error");

  if (exclude_error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->exclude_entry), "error");
      if (message->len > 0)
        g_string_append_c (message, '\n');
      /* Translators: %s is why a regular expression could not be used */
      g_string_append_printf (message, _("Exclude: %s"), exclude_error->message);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->exclude_entry), "error");

  gtk_label_set_text (self->filter_error_label, message->str);
  gtk_revealer_set_reveal_child (self->filter_error_revealer, message->len > 0);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->include_entry), GTK_ACCESSIBLE_STATE_INVALID,
                               include_error != NULL ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->exclude_entry), GTK_ACCESSIBLE_STATE_INVALID,
                               exclude_error != NULL ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);

  if (message->len > 0)
    return NULL;
  return g_steal_pointer (&filter);
}

static void
filter_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PsRtlView) self = user_data;
  g_autoptr(PsScopeAnalysis) scopes = NULL;
  g_autoptr(GError) error = NULL;

  scopes = ps_scope_analysis_compute_finish (result, &error);
  if (scopes == NULL || g_task_get_cancellable (G_TASK (result)) != self->filter_cancellable)
    return;

  g_clear_object (&self->filter_cancellable);
  set_scopes (self, scopes);
  update_busy (self);
}

static void
apply_filters (PsRtlView *self)
{
  const char *include = gtk_editable_get_text (GTK_EDITABLE (self->include_entry));
  const char *exclude = gtk_editable_get_text (GTK_EDITABLE (self->exclude_entry));
  g_autoptr(PsScopeFilter) filter = NULL;
  gboolean has_range;
  gint64 begin = 0, end = 0;

  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);

  if (self->analysis == NULL || self->analysis->scopes == NULL)
    return;

  filter = build_filter (self);
  if (filter == NULL)
    {
      update_busy (self);
      return;
    }

  /* Nothing new to compute */
  has_range = ps_scope_filter_get_time_range (filter, &begin, &end);
  if (g_strcmp0 (include, self->applied_include) == 0 && g_strcmp0 (exclude, self->applied_exclude) == 0
      && has_range == self->applied_range && (!has_range || (begin == self->applied_begin && end == self->applied_end)))
    {
      update_busy (self);
      return;
    }

  g_free (self->applied_include);
  g_free (self->applied_exclude);
  self->applied_include = g_strdup (include);
  self->applied_exclude = g_strdup (exclude);
  self->applied_range = has_range;
  self->applied_begin = begin;
  self->applied_end = end;

  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);

  if (ps_scope_filter_is_empty (filter))
    {
      set_scopes (self, self->analysis->scopes);
      update_busy (self);
      return;
    }

  self->filter_cancellable = g_cancellable_new ();
  ps_scope_analysis_compute_async (self->analysis->store, g_steal_pointer (&filter), self->filter_cancellable,
                                   filter_cb, g_object_ref (self));
  update_busy (self);
}

static gboolean
filter_timeout_cb (gpointer user_data)
{
  PsRtlView *self = user_data;

  self->filter_timeout_id = 0;
  apply_filters (self);
  return G_SOURCE_REMOVE;
}

static void
filter_changed_cb (PsRtlView *self,
                   GtkEditable *editable)
{
  g_autoptr(PsScopeFilter) filter = NULL;

  gtk_entry_set_icon_from_icon_name (GTK_ENTRY (editable), GTK_ENTRY_ICON_SECONDARY,
                                     *gtk_editable_get_text (editable) != '\0' ? "edit-clear-symbolic" : NULL);
  gtk_entry_set_icon_tooltip_text (GTK_ENTRY (editable), GTK_ENTRY_ICON_SECONDARY, _("Clear"));

  /* Errors show at once; a valid filter is applied after a pause in typing */
  filter = build_filter (self);
  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);
  if (filter != NULL)
    self->filter_timeout_id = g_timeout_add (FILTER_DELAY_MS, filter_timeout_cb, self);
}

static void
filter_activate_cb (PsRtlView *self,
                    GtkEntry  *entry)
{
  apply_filters (self);
}

static void
filter_icon_release_cb (GtkEntry             *entry,
                        GtkEntryIconPosition  position,
                        PsRtlView            *self)
{
  if (position == GTK_ENTRY_ICON_SECONDARY)
    {
      gtk_editable_set_text (GTK_EDITABLE (entry), "");
      apply_filters (self);
    }
}

static void
per_thread_toggled_cb (PsRtlView      *self,
                       GtkCheckButton *button)
{
  ps_rtl_view_set_per_thread (self, gtk_check_button_get_active (button));
}

/* The filters are about scopes: not shown with the warnings. The call
 * tree has a search of its own, which gets the keys typed there. */
static void
page_changed_cb (PsRtlView  *self,
                 GParamSpec *pspec,
                 GtkStack   *stack)
{
  const char *page = gtk_stack_get_visible_child_name (stack);
  gboolean call_tree = g_strcmp0 (page, "calltree") == 0;

  gtk_widget_set_visible (self->scope_filter_box, g_strcmp0 (page, "warnings") != 0);
  gtk_widget_set_visible (self->filter_bar, !call_tree);
  gtk_search_entry_set_key_capture_widget (self->search_entry, call_tree ? NULL : GTK_WIDGET (self->view_stack));
}

/* Activating a row of the totals lists its calls in the scope tree */
static void
totals_activate_cb (PsRtlView     *self,
                    guint          position,
                    GtkColumnView *view)
{
  g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (G_LIST_MODEL (self->totals_sorted), position);

  if (row == NULL)
    return;

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), ps_scope_total_row_get_name (row));
  ps_rtl_view_show_page (self, "scopes");
}

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
  guint8 *selected;
  guint64 n_selected = 0;

  g_object_get (self->histogram_view, "selection", &selection, NULL);
  if (selection == NULL || self->histogram_series == NULL)
    {
      gtk_label_set_text (self->histogram_selection_label, _("Drag over the bars to select a range"));
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
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Selected: %llu call from %s to %s",
                                        "Selected: %llu calls from %s to %s", n_selected),
                           (unsigned long long) n_selected, lower, upper);
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

static void
histogram_selection_changed_cb (PsRtlView       *self,
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

static void
totals_selection_changed_cb (PsRtlView          *self,
                             GParamSpec         *pspec,
                             GtkSingleSelection *selection)
{
  PsScopeTotalRow *row = gtk_single_selection_get_selected_item (selection);
  const PsSeries *series;
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
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
  if (in_range)
    /* Translators: the title of a histogram of a scope's durations, limited
     * to the time range selected on the timeline */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Duration of %s: %u call in the selected time range",
                                          "Durations of %s: %u calls in the selected time range",
                                          self->histogram_durations->len),
                             name, self->histogram_durations->len);
  else
    /* Translators: the title of a histogram of a scope's durations */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Duration of %s: %u call",
                                          "Durations of %s: %u calls", self->histogram_durations->len),
                             name, self->histogram_durations->len);
  gtk_label_set_text (self->histogram_title, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->histogram_title), title);
  ps_histogram_view_set_title (self->histogram_view, title);
  update_histogram_selection (self);
  gtk_widget_set_visible (self->histogram_box, TRUE);
}

/* Header and warnings */

static void
update_header (PsRtlView *self)
{
  PsEventStore *store = self->analysis->store;
  guint n_sessions = ps_event_store_get_n_sessions (store);
  g_autoptr(GString) pids = g_string_new (NULL);
  g_autofree char *opened = NULL;
  g_autofree char *opened_tooltip = NULL;
  g_autofree char *closed = NULL;
  g_autofree char *closed_tooltip = NULL;
  g_autofree char *threads = NULL;
  guint n_threads = 0;

  /* The process ids of the sessions, each once */
  for (guint s = 0; s < n_sessions; s++)
    {
      const char *pid = ps_event_store_get_metadata (store, s, "process_id");
      gboolean seen = FALSE;

      for (guint earlier = 0; earlier < s && !seen; earlier++)
        seen = g_strcmp0 (ps_event_store_get_metadata (store, earlier, "process_id"), pid) == 0;
      if (pid == NULL || *pid == '\0' || seen)
        continue;

      if (pids->len > 0)
        g_string_append (pids, ", ");
      g_string_append (pids, pid);
    }
  ps_view_set_header_value (self->process_value, pids->str, NULL);

  if (n_sessions > 0)
    {
      const PsSessionInfo *first = ps_event_store_get_session (store, 0);
      const char *closing_ms = ps_event_store_get_metadata (store, n_sessions - 1, "closing_time_ms");

      if (first->origin_unix_ns != 0)
        {
          opened = _ps_rtl_view_format_date_time (first->origin_unix_ns);
          opened_tooltip = _ps_rtl_view_format_iso_utc (first->origin_unix_ns);
        }
      else
        opened_tooltip = g_strdup (_("The log has no opening line with the wall-clock time"));

      if (n_sessions > 1)
        {
          g_autofree char *with_sessions =
            /* Translators: %s is a date and time, %u the number of runs appended to the log */
            g_strdup_printf (_("%s (%u sessions)"), opened != NULL ? opened : "–", n_sessions);

          g_free (opened);
          opened = g_steal_pointer (&with_sessions);
        }

      if (closing_ms != NULL && *closing_ms != '\0')
        {
          g_autofree char *duration = _ps_rtl_view_format_duration (g_ascii_strtod (closing_ms, NULL) / 1e3);

          /* Translators: %s is the time on the log's timer when it was closed */
          closed = g_strdup_printf (_("at %s"), duration);
          /* Translators: %s is a number of milliseconds from the close line */
          closed_tooltip = g_strdup_printf (_("The close line gives %s ms on the log’s timer"), closing_ms);
        }
      else
        {
          closed = g_strdup (_("No close line"));
          closed_tooltip = g_strdup (_("The log ends without its closing line: the application may not have ended normally"));
        }
    }
  ps_view_set_header_value (self->opened_value, opened, opened_tooltip);
  ps_view_set_header_value (self->closed_value, closed, closed_tooltip);

  if (self->analysis->scopes != NULL)
    n_threads = ps_scope_tree_get_n_roots (self->analysis->scopes->tree);
  threads = g_strdup_printf ("%u", n_threads);
  ps_view_set_header_value (self->threads_value, threads, NULL);
}

static void
update_warnings (PsRtlView *self)
{
  PsEventStore *store = self->analysis->store;

  g_clear_object (&self->warnings);
  self->warnings = ps_warning_model_new (store);
  gtk_filter_list_model_set_model (self->warnings_filtered, G_LIST_MODEL (self->warnings));
  ps_view_update_warnings_page (store, self->warnings_page, self->warnings_stack,
                                self->warnings_overflow_label);
}

static void
update_time_column (PsRtlView *self)
{
  PsEventStore *store = self->analysis->store;
  gboolean known = FALSE;

  for (guint s = 0; s < ps_event_store_get_n_sessions (store) && !known; s++)
    known = ps_event_store_get_session (store, s)->origin_unix_ns != 0;
  gtk_column_view_column_set_visible (self->scope_columns[SCOPE_COLUMN_TIME], known);
  gtk_column_view_column_set_visible (self->total_columns[TOTAL_COLUMN_SESSION],
                                      ps_event_store_get_n_sessions (store) > 1);
}

/* Actions */

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PsRtlView *self = PS_RTL_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* PsRunView */

static gboolean
run_view_is_busy (PsRunView *view)
{
  PsRtlView *self = PS_RTL_VIEW (view);
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  return self->filter_cancellable != NULL || self->search_cancellable != NULL || self->filter_timeout_id != 0
         || gtk_sort_list_model_get_pending (self->scope_sorted) > 0
         || (*search != '\0' && g_strcmp0 (search, self->applied_search) != 0)
         || (*search == '\0' && self->applied_search != NULL);
}

static void
ps_rtl_view_run_view_init (PsRunViewInterface *iface)
{
  static const PsViewLabelField header_fields[] = {
    { "process", G_STRUCT_OFFSET (PsRtlView, process_value) },
    { "opened", G_STRUCT_OFFSET (PsRtlView, opened_value) },
    { "closed", G_STRUCT_OFFSET (PsRtlView, closed_value) },
    { "threads", G_STRUCT_OFFSET (PsRtlView, threads_value) },
    { "scopes", G_STRUCT_OFFSET (PsRtlView, scopes_value) },
    { "messages", G_STRUCT_OFFSET (PsRtlView, messages_value) },
  };

  PS_RUN_VIEW_BIND_PARTS (iface, PsRtlView, warnings_filtered, header_fields, run_view_is_busy);
  iface->histogram_view_offset = G_STRUCT_OFFSET (PsRtlView, histogram_view);
  iface->call_tree_view_offset = G_STRUCT_OFFSET (PsRtlView, call_tree_view);
  iface->search_entry_offset = G_STRUCT_OFFSET (PsRtlView, search_entry);
  iface->session_offset = G_STRUCT_OFFSET (PsRtlView, session);
}

/* GObject */

static void
ps_rtl_view_dispose (GObject *object)
{
  PsRtlView *self = PS_RTL_VIEW (object);

  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_RTL_VIEW);

  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->session_selection_handler, self->session);
      g_clear_signal_handler (&self->session_focus_handler, self->session);
    }
  g_clear_object (&self->session);
  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_pointer (&self->scopes, ps_scope_analysis_unref);
  g_clear_object (&self->scope_sorted);
  g_clear_object (&self->scope_row_sorter);
  g_clear_object (&self->totals);
  g_clear_object (&self->totals_filter);
  g_clear_object (&self->totals_sorted);
  g_clear_object (&self->warnings);
  g_clear_object (&self->warnings_filter);
  g_clear_object (&self->warnings_filtered);

  G_OBJECT_CLASS (ps_rtl_view_parent_class)->dispose (object);
}

static void
ps_rtl_view_finalize (GObject *object)
{
  PsRtlView *self = PS_RTL_VIEW (object);

  g_free (self->applied_include);
  g_free (self->applied_exclude);
  g_free (self->search_text);
  g_free (self->pending_search);
  g_free (self->applied_search);
  g_clear_pointer (&self->histogram_durations, g_array_unref);
  g_clear_pointer (&self->histogram_spans, g_array_unref);

  G_OBJECT_CLASS (ps_rtl_view_parent_class)->finalize (object);
}

static void
ps_rtl_view_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PsRtlView *self = PS_RTL_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      g_value_set_boxed (value, self->analysis);
      break;
    case PROP_PER_THREAD:
      g_value_set_boolean (value, self->per_thread);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_rtl_view_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  PsRtlView *self = PS_RTL_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      ps_rtl_view_set_analysis (self, g_value_get_boxed (value));
      break;
    case PROP_PER_THREAD:
      ps_rtl_view_set_per_thread (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_rtl_view_class_init (PsRtlViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_rtl_view_dispose;
  object_class->finalize = ps_rtl_view_finalize;
  object_class->get_property = ps_rtl_view_get_property;
  object_class->set_property = ps_rtl_view_set_property;

  properties[PROP_ANALYSIS] =
    g_param_spec_boxed ("analysis", NULL, NULL,
                        PS_TYPE_RUN_ANALYSIS,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PER_THREAD] =
    g_param_spec_boolean ("per-thread", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PS_TYPE_CALL_TREE_VIEW);
  g_type_ensure (PS_TYPE_HISTOGRAM_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-rtl-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, process_value);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, opened_value);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, closed_value);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, threads_value);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, scopes_value);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, messages_value);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, include_entry);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, exclude_entry);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, scope_filter_box);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, spinner);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, filter_error_revealer);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, filter_error_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, scopes_status_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, scopes_stack);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, scopes_empty_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, scope_view);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, totals_status_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, per_thread_check);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, totals_stack);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, totals_empty_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, totals_view);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, totals_paned);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, histogram_box);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, histogram_title);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, histogram_selection_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, histogram_view);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warnings_page);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warnings_overflow_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warnings_stack);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warning_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_icon_release_cb);
  gtk_widget_class_bind_template_callback (widget_class, per_thread_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_changed_cb);

  gtk_widget_class_install_action (widget_class, "rtl.focus-search", NULL, focus_search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "rtl.focus-search", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rtlview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_rtl_view_init (PsRtlView *self)
{
  GtkFilterListModel *totals_filtered;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  /* Translators: the view of a run, for a screen reader */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scopes and call tree of the log"), -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  /* The default scale of the Preferences; the Logarithmic check follows
   * (bound both ways in the template) */
  ps_histogram_view_set_log_scale (self->histogram_view, ps_view_default_log_scale ());

  for (ScopeColumn column = 0; column < N_SCOPE_COLUMNS; column++)
    {
      self->scope_columns[column] = _ps_rtl_view_scope_column_new (self, column);
      gtk_column_view_append_column (self->scope_view, self->scope_columns[column]);
      g_object_unref (self->scope_columns[column]);
    }
  for (TotalColumn column = 0; column < N_TOTAL_COLUMNS; column++)
    {
      self->total_columns[column] = _ps_rtl_view_total_column_new (column);
      gtk_column_view_append_column (self->totals_view, self->total_columns[column]);
      g_object_unref (self->total_columns[column]);
    }
  ps_warning_columns_add (self->warning_view);

  /* Children sort among their siblings and stay under their parent. The
   * sorter is only set while a column sorts: a sort model fetches every
   * row, which file order does not need. */
  self->scope_row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->scope_view))));
  self->scope_sorted = gtk_sort_list_model_new (NULL, NULL);
  g_signal_connect_object (gtk_column_view_get_sorter (self->scope_view), "changed",
                           G_CALLBACK (scope_sort_changed_cb), self, G_CONNECT_SWAPPED);
  ps_view_set_column_model (self->scope_view, G_LIST_MODEL (self->scope_sorted));
  ps_table_export_attach (self->scope_view, "scopes", 1);
  g_signal_connect_object (gtk_column_view_get_model (self->scope_view), "notify::selected-item",
                           G_CALLBACK (scope_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->scope_view, "activate", G_CALLBACK (scope_activate_cb), self);

  self->totals = g_list_store_new (PS_TYPE_SCOPE_TOTAL_ROW);
  self->totals_filter = GTK_FILTER (gtk_custom_filter_new (total_matches, self, NULL));
  totals_filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->totals)),
                                               g_object_ref (self->totals_filter));
  self->totals_sorted = gtk_sort_list_model_new (G_LIST_MODEL (totals_filtered),
                                                 g_object_ref (gtk_column_view_get_sorter (self->totals_view)));
  ps_view_set_column_model (self->totals_view, G_LIST_MODEL (self->totals_sorted));
  ps_table_export_attach (self->totals_view, "totals", 1);
  g_signal_connect_object (gtk_column_view_get_model (self->totals_view), "notify::selected-item",
                           G_CALLBACK (totals_selection_changed_cb), self, G_CONNECT_SWAPPED);
  /* The totals and the histogram of the selected one share the page */
  ps_view_place_paned (self->totals_paned, "rtl-totals", 0.5, 0);
  g_signal_connect_object (self->call_tree_view, "function-selected",
                           G_CALLBACK (function_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call_tree_view, "notify::thread",
                           G_CALLBACK (call_tree_thread_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->histogram_view, "notify::selection",
                           G_CALLBACK (histogram_selection_changed_cb), self, G_CONNECT_SWAPPED);

  self->warnings_filter = GTK_FILTER (gtk_custom_filter_new (warning_matches, self, NULL));
  self->warnings_filtered = gtk_filter_list_model_new (NULL, g_object_ref (self->warnings_filter));
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings_filtered));

  g_signal_connect_swapped (self->totals_view, "activate", G_CALLBACK (totals_activate_cb), self);
  g_signal_connect_swapped (self->totals_view, "map", G_CALLBACK (totals_map_cb), self);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->view_stack));
  update_busy (self);
}

GtkWidget *
ps_rtl_view_new (void)
{
  return g_object_new (PS_TYPE_RTL_VIEW, NULL);
}

void
ps_rtl_view_set_analysis (PsRtlView     *self,
                          PsRunAnalysis *analysis)
{
  g_return_if_fail (PS_IS_RTL_VIEW (self));

  if (self->analysis == analysis)
    return;

  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);
  g_clear_pointer (&self->applied_include, g_free);
  g_clear_pointer (&self->applied_exclude, g_free);
  self->applied_range = FALSE;

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  if (analysis != NULL)
    self->analysis = ps_run_analysis_ref (analysis);

  if (self->analysis != NULL)
    {
      update_header (self);
      update_warnings (self);
      update_time_column (self);
      ps_call_tree_view_set_store (self->call_tree_view, self->analysis->store);
      ps_call_tree_view_set_tree (self->call_tree_view, self->analysis->call_tree);

      if (self->analysis->scopes != NULL)
        {
          /* The filters typed in stay */
          self->applied_include = g_strdup ("");
          self->applied_exclude = g_strdup ("");
          g_clear_pointer (&self->scopes, ps_scope_analysis_unref);
          set_scopes (self, self->analysis->scopes);
          apply_filters (self);
        }

      if (self->scopes != NULL && ps_scope_tree_get_n_roots (self->scopes->tree) > 0)
        ps_rtl_view_show_page (self, "scopes");
      else if (ps_event_store_get_n_warnings (self->analysis->store) > 0)
        ps_rtl_view_show_page (self, "warnings");
    }

  update_busy (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

/* A time range selected on the timeline: the histogram counts the calls
 * inside it, and the call tree has only them */
static void
time_selection_changed_cb (PsRtlView *self)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->totals_view);

  self->following = TRUE;
  if (GTK_IS_SINGLE_SELECTION (model))
    totals_selection_changed_cb (self, NULL, GTK_SINGLE_SELECTION (model));
  else
    update_histogram_selection (self);
  self->following = FALSE;
  /* The tables follow, computed again in a worker */
  apply_filters (self);
}

static void
function_selected_cb (PsRtlView      *self,
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

static void
scope_selected_cb (PsRtlView *self)
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
static void
scope_activate_cb (PsRtlView *self,
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
static void
select_chosen_scope (PsRtlView *self)
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
  GListModel *shown = get_totals (self);
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
static void
call_tree_thread_cb (PsRtlView *self)
{
  guint32 thread = ps_call_tree_view_get_thread (self->call_tree_view);

  if (self->session != NULL && !self->following && thread != PS_NONE)
    ps_session_set_focus_track (self->session, thread);
}

static void
follow_session (PsRtlView *self)
{
  guint64 span = ps_session_get_selected_span (self->session);

  if (self->analysis == NULL || self->scopes == NULL)
    return;
  select_chosen_scope (self);
  if (span != PS_SESSION_NO_SPAN)
    {
      select_total_of_span (self, span);
      show_function_of_span (self, span);
    }
}

void
ps_rtl_view_set_session (PsRtlView *self,
                         PsSession *session)
{
  g_return_if_fail (PS_IS_RTL_VIEW (self));

  if (self->session == session)
    return;
  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->session_selection_handler, self->session);
      g_clear_signal_handler (&self->session_focus_handler, self->session);
    }
  g_set_object (&self->session, session);
  self->highlight_from_totals = FALSE;
  if (session != NULL)
    {
      self->session_selection_handler = g_signal_connect_swapped (session, "selection-changed",
                                                                  G_CALLBACK (time_selection_changed_cb), self);
      self->session_focus_handler = g_signal_connect_swapped (session, "focus-changed",
                                                              G_CALLBACK (follow_session), self);
    }
  time_selection_changed_cb (self);
}

gboolean
ps_rtl_view_get_per_thread (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), FALSE);
  return self->per_thread;
}

void
ps_rtl_view_set_per_thread (PsRtlView *self,
                            gboolean   per_thread)
{
  g_return_if_fail (PS_IS_RTL_VIEW (self));

  per_thread = !!per_thread;
  if (self->per_thread == per_thread)
    return;

  self->per_thread = per_thread;
  gtk_check_button_set_active (self->per_thread_check, per_thread);
  gtk_column_view_column_set_title (self->total_columns[TOTAL_COLUMN_THREADS],
                                    per_thread ? _("Thread") : _("Threads"));
  if (self->scopes != NULL)
    update_totals (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PER_THREAD]);
}

void
ps_rtl_view_show_page (PsRtlView  *self,
                       const char *name)
{
  g_return_if_fail (PS_IS_RTL_VIEW (self));
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

/* Shared with ps-rtl-view-cells.c (ps-rtl-view-private.h) */

const char *
_ps_rtl_view_get_applied_search (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return self->applied_search;
}

/* Testing API (ps-rtl-view-private.h) */

GListModel *
ps_rtl_view_get_scope_model (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return G_LIST_MODEL (self->scope_sorted);
}

GtkColumnView *
ps_rtl_view_get_scope_view (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return self->scope_view;
}

GListModel *
ps_rtl_view_get_totals_model (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return get_totals (self);
}

GtkColumnView *
ps_rtl_view_get_totals_view (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return self->totals_view;
}

PsScopeAnalysis *
ps_rtl_view_get_scopes (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return self->scopes;
}

GtkEditable *
ps_rtl_view_get_include_entry (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return GTK_EDITABLE (self->include_entry);
}

GtkEditable *
ps_rtl_view_get_exclude_entry (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);
  return GTK_EDITABLE (self->exclude_entry);
}

static int
find_column_by_title (GtkColumnViewColumn **columns,
                      guint                 n_columns,
                      const char           *title)
{
  for (guint i = 0; i < n_columns; i++)
    if (g_strcmp0 (gtk_column_view_column_get_title (columns[i]), title) == 0)
      return i;
  return -1;
}

char *
ps_rtl_view_get_scope_cell_text (PsRtlView  *self,
                                 PsScopeRow *row,
                                 const char *column)
{
  g_autofree char *tooltip = NULL;
  gboolean dim;
  int index;

  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);

  index = find_column_by_title (self->scope_columns, N_SCOPE_COLUMNS, column);
  g_return_val_if_fail (index >= 0, NULL);

  return _ps_rtl_view_scope_cell_text (row, index, &tooltip, &dim);
}

char *
ps_rtl_view_get_totals_cell_text (PsRtlView       *self,
                                  PsScopeTotalRow *row,
                                  const char      *column)
{
  g_autofree char *tooltip = NULL;
  int index;

  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);

  index = find_column_by_title (self->total_columns, N_TOTAL_COLUMNS, column);
  g_return_val_if_fail (index >= 0, NULL);

  return _ps_rtl_view_total_cell_text (row, index, &tooltip);
}

const char *
ps_rtl_view_get_filter_error (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->filter_error_revealer))
    return NULL;
  return gtk_label_get_text (self->filter_error_label);
}

