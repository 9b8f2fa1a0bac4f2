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
 * cells of both tables are made in ps-rtl-view-cells.c, the search and the
 * filters in ps-rtl-view-filters.c. The call-tree page is a
 * PsCallTreeView of the run's call tree. Selecting a row of the totals
 * shows the histogram of its durations below the table, beside the chart
 * of them along the log (ps-rtl-view-chart.c); that and the links with
 * the other views are in ps-rtl-view-links.c.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "ps-rtl-view-private.h"
#include "ps-scope-list.h"
#include "ps-table-export.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"
#include "ps-warning-model.h"

enum {
  PROP_0,
  PROP_PER_THREAD,
  N_PROPS,

  /* PsRunView's */
  PROP_ANALYSIS = N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_rtl_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsRtlView, ps_rtl_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_rtl_view_run_view_init))

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

/* For ps_view_auto_expand (): a few threads with a few children each
 * are shown open */
static guint
n_children_of (gpointer item)
{
  PsScopeRow *row = item;
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

void
ps_rtl_view_set_scope_root (PsRtlView  *self,
                            GListModel *root,
                            gboolean    expand)
{
  g_autoptr(GtkTreeListModel) tree = NULL;

  tree = gtk_tree_list_model_new (g_object_ref (root), FALSE, FALSE, create_scope_children, NULL, NULL);
  if (expand)
    ps_view_auto_expand (tree, n_children_of);
  gtk_sort_list_model_set_model (self->scope_sorted, G_LIST_MODEL (tree));
  /* New rows: the scope chosen on the timeline stays selected */
  ps_rtl_view_select_chosen_scope (self);
}

void
ps_rtl_view_update_scopes_page (PsRtlView *self)
{
  g_autofree char *status = NULL;
  guint n_rows;

  if (self->applied_search != NULL)
    {
      g_autofree char *matches = ps_view_format_count (self->n_search_matches);

      if (self->n_search_matches > MAX_SEARCH_RESULTS)
        {
          g_autofree char *shown = ps_view_format_count (MAX_SEARCH_RESULTS);

          /* Translators: two counts ("1,000", "1,200") and the search */
          status = g_strdup_printf (_("Showing the first %s of %s scopes and messages matching “%s”"),
                                    shown, matches, self->applied_search);
        }
      else
        status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "%s scope or message matches “%s”",
                                               "%s scopes and messages match “%s”",
                                               self->n_search_matches),
                                  matches, self->applied_search);
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

void
ps_rtl_view_show_scope_tree (PsRtlView *self)
{
  g_autoptr(PsScopeList) top = ps_scope_list_new_top (self->scopes);

  g_clear_pointer (&self->applied_search, g_free);
  ps_rtl_view_set_scope_root (self, G_LIST_MODEL (top), TRUE);
  ps_rtl_view_update_scopes_page (self);
}

void
ps_rtl_view_update_totals_status (PsRtlView *self)
{
  GPtrArray *series = self->per_thread ? self->scopes->thread_series : self->scopes->series;
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->totals_sorted));
  g_autofree char *count = ps_view_format_count (series->len);
  g_autofree char *text = NULL;

  if (n_shown < series->len)
    {
      g_autofree char *shown = ps_view_format_count (n_shown);

      /* Translators: two counts ("1,000", "1,200") */
      text = g_strdup_printf (_("%s of %s rows match the search"), shown, count);
    }
  else if (self->applied_range)
    /* Translators: the totals of the scopes inside the time range selected on the timeline */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s scope name in the selected time range",
                                         "%s scope names in the selected time range", series->len),
                            count);
  else if (self->per_thread)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s scope name and thread", "%s scope names and threads",
                                         series->len),
                            count);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s scope name", "%s scope names", series->len),
                            count);
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
  ps_rtl_view_update_totals_status (self);
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
GListModel *
ps_rtl_view_get_totals (PsRtlView *self)
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
  ps_rtl_view_get_totals (self);
}

/* "9", or with filters "2 of 9" and the tooltip; the counts as
 * ps_view_format_count () writes them */
static void
set_count (GtkLabel   *label,
           gboolean    filtered,
           const char *shown,
           const char *all,
           const char *tooltip)
{
  /* Translators: what the filters keep, of all: two counts ("1,711") */
  g_autofree char *text = filtered ? g_strdup_printf (_("%s of %s"), shown, all) : NULL;

  gtk_label_set_text (label, filtered ? text : all);
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
  g_autofree char *shown_spans = ps_view_format_count (scopes->n_shown_spans);
  g_autofree char *all_spans = ps_view_format_count (n_spans);
  g_autofree char *shown_marks = ps_view_format_count (scopes->n_shown_marks);
  g_autofree char *all_marks = ps_view_format_count (n_marks);
  /* Translators: two counts ("1,711") */
  g_autofree char *spans_tooltip = g_strdup_printf (_("The filters keep %s of %s scopes"), shown_spans, all_spans);
  g_autofree char *marks_tooltip =
    /* Translators: two counts ("1,711") */
    g_strdup_printf (_("The filters keep %s of %s messages: those written in a scope they keep, or whose own record matches"),
                     shown_marks, all_marks);

  set_count (self->scopes_value, filtered, shown_spans, all_spans, spans_tooltip);
  set_count (self->messages_value, filtered, shown_marks, all_marks, marks_tooltip);
}

void
ps_rtl_view_update_busy (PsRtlView *self)
{
  ps_view_show_busy_spinner (self->spinner,
                             self->filter_cancellable != NULL ? _("Applying the filters…")
                             : self->search_cancellable != NULL ? _("Searching…") : NULL);
}

/* Shows an analysis: the unfiltered one of the run, or a filtered one */
void
ps_rtl_view_set_scopes (PsRtlView       *self,
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
      ps_rtl_view_start_search (self);
    }
  else
    ps_rtl_view_show_scope_tree (self);
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
  threads = ps_view_format_count (n_threads);
  ps_view_set_header_value (self->threads_value, threads, NULL);
}

static void
update_warnings (PsRtlView *self)
{
  ps_run_view_list_warnings (PS_RUN_VIEW (self), &self->warnings, self->analysis->store,
                             self->warnings_stack, self->warnings_overflow_label);
  gtk_filter_list_model_set_model (self->warnings_filtered, G_LIST_MODEL (self->warnings));
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
         || self->chart_cancellable != NULL
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
  g_cancellable_cancel (self->chart_cancellable);
  g_clear_object (&self->chart_cancellable);
  g_clear_pointer (&self->chart_scopes, ps_scope_analysis_unref);
  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_RTL_VIEW);

  ps_run_view_unfollow_session (&self->session, &self->session_handlers);
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
    case PROP_PER_THREAD:
      g_value_set_boolean (value, self->per_thread);
      break;
    default:
      if (!ps_run_view_get_property (object, value, pspec))
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

  properties[PROP_PER_THREAD] =
    g_param_spec_boolean ("per-thread", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ANALYSIS, "analysis");

  g_type_ensure (PS_TYPE_CALL_TREE_VIEW);
  g_type_ensure (PS_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (PS_TYPE_COUNTER_CHART);

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
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, duration_chart);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warnings_page);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warnings_overflow_label);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warnings_stack);
  gtk_widget_class_bind_template_child (widget_class, PsRtlView, warning_view);
  gtk_widget_class_bind_template_callback_full (widget_class, "search_changed_cb", G_CALLBACK (ps_rtl_view_search_changed_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "stop_search_cb", G_CALLBACK (ps_rtl_view_stop_search_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "filter_changed_cb", G_CALLBACK (ps_rtl_view_filter_changed_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "filter_activate_cb", G_CALLBACK (ps_rtl_view_filter_activate_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "filter_icon_release_cb", G_CALLBACK (ps_rtl_view_filter_icon_release_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "per_thread_toggled_cb", G_CALLBACK (ps_rtl_view_per_thread_toggled_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "page_changed_cb", G_CALLBACK (ps_rtl_view_page_changed_cb));

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
  ps_rtl_view_init_duration_chart (self);

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
                           G_CALLBACK (ps_rtl_view_scope_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->scope_view, "activate", G_CALLBACK (ps_rtl_view_scope_activate_cb), self);

  self->totals = g_list_store_new (PS_TYPE_SCOPE_TOTAL_ROW);
  self->totals_filter = GTK_FILTER (gtk_custom_filter_new (ps_rtl_view_total_matches, self, NULL));
  totals_filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->totals)),
                                               g_object_ref (self->totals_filter));
  self->totals_sorted = gtk_sort_list_model_new (G_LIST_MODEL (totals_filtered),
                                                 g_object_ref (gtk_column_view_get_sorter (self->totals_view)));
  ps_view_set_column_model (self->totals_view, G_LIST_MODEL (self->totals_sorted));
  ps_table_export_attach (self->totals_view, "totals", 1);
  g_signal_connect_object (gtk_column_view_get_model (self->totals_view), "notify::selected-item",
                           G_CALLBACK (ps_rtl_view_totals_selection_changed_cb), self, G_CONNECT_SWAPPED);
  /* The totals and the histogram of the selected one share the page */
  ps_view_place_paned (self->totals_paned, "rtl-totals", 0.5, 0);
  g_signal_connect_object (self->call_tree_view, "function-selected",
                           G_CALLBACK (ps_rtl_view_function_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call_tree_view, "notify::thread",
                           G_CALLBACK (ps_rtl_view_call_tree_thread_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->histogram_view, "notify::selection",
                           G_CALLBACK (ps_rtl_view_histogram_selection_changed_cb), self, G_CONNECT_SWAPPED);

  self->warnings_filter = GTK_FILTER (gtk_custom_filter_new (ps_rtl_view_warning_matches, self, NULL));
  self->warnings_filtered = gtk_filter_list_model_new (NULL, g_object_ref (self->warnings_filter));
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings_filtered));

  g_signal_connect_swapped (self->totals_view, "activate", G_CALLBACK (totals_activate_cb), self);
  g_signal_connect_swapped (self->totals_view, "map", G_CALLBACK (totals_map_cb), self);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->view_stack));
  ps_rtl_view_update_busy (self);
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

  ps_run_analysis_set (&self->analysis, analysis);

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
          ps_rtl_view_set_scopes (self, self->analysis->scopes);
          ps_rtl_view_apply_filters (self);
        }

      if (self->scopes != NULL && ps_scope_tree_get_n_roots (self->scopes->tree) > 0)
        ps_rtl_view_show_page (self, "scopes");
      else if (ps_event_store_get_n_warnings (self->analysis->store) > 0)
        ps_rtl_view_show_page (self, "warnings");
    }

  ps_rtl_view_update_busy (self);
  g_object_notify (G_OBJECT (self), "analysis");
}

void
ps_rtl_view_set_session (PsRtlView *self,
                         PsSession *session)
{
  g_return_if_fail (PS_IS_RTL_VIEW (self));

  if (self->session == session)
    return;
  ps_run_view_follow_session (PS_RUN_VIEW (self), &self->session, &self->session_handlers, session,
                              G_CALLBACK (ps_rtl_view_time_selection_changed_cb),
                              G_CALLBACK (ps_rtl_view_follow_session), NULL);
  self->highlight_from_totals = FALSE;
  ps_rtl_view_time_selection_changed_cb (self);
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
  return ps_rtl_view_get_totals (self);
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
