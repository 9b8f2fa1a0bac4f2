/* ps-rtl-view-private.h — shared by ps-rtl-view*.c and the tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-counter-chart.h"
#include "ps-histogram-view.h"
#include "ps-rtl-view.h"
#include "ps-scope-analysis.h"
#include "ps-scope-row.h"
#include "ps-scope-total-row.h"
#include "ps-session.h"
#include "ps-warning-model.h"

G_BEGIN_DECLS

/* A flat list of matches is only useful up to a point */
#define MAX_SEARCH_RESULTS 10000

/* The columns of the tables, in the order shown */
typedef enum
{
  SCOPE_COLUMN_NAME,
  SCOPE_COLUMN_BEGIN,
  SCOPE_COLUMN_TIME,
  SCOPE_COLUMN_DURATION,
  SCOPE_COLUMN_SELF,
  SCOPE_COLUMN_THREAD,
  SCOPE_COLUMN_LINE,
  SCOPE_COLUMN_STATUS,
  N_SCOPE_COLUMNS
} ScopeColumn;

typedef enum
{
  TOTAL_COLUMN_NAME,
  TOTAL_COLUMN_CONTEXT,
  TOTAL_COLUMN_SESSION,
  TOTAL_COLUMN_THREADS,
  TOTAL_COLUMN_CALLS,
  TOTAL_COLUMN_TOTAL,
  TOTAL_COLUMN_MIN,
  TOTAL_COLUMN_MAX,
  TOTAL_COLUMN_MEAN,
  TOTAL_COLUMN_MEDIAN,
  TOTAL_COLUMN_SELF,
  TOTAL_COLUMN_EXCLUDED,
  N_TOTAL_COLUMNS
} TotalColumn;

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
  PsRunViewSessionHandlers session_handlers;
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
  PsCounterChart      *duration_chart;
  GCancellable        *chart_cancellable; /* the chart's calls being gathered */
  /* The series charted (or being gathered), of chart_scopes */
  PsScopeAnalysis     *chart_scopes;
  const PsSeries      *chart_series;
  PsCallTreeView      *call_tree_view;
  GtkStackPage        *warnings_page;
  GtkLabel            *warnings_overflow_label;
  GtkStack            *warnings_stack;
  GtkColumnView       *warning_view;
};

/* The view (ps-rtl-view.c) */

void ps_rtl_view_update_busy (PsRtlView *self);
/* The scope table shows root, its top rows open when they are few */
void ps_rtl_view_set_scope_root (PsRtlView  *self,
                                 GListModel *root,
                                 gboolean    expand);
void ps_rtl_view_update_scopes_page (PsRtlView *self);
void ps_rtl_view_update_totals_status (PsRtlView *self);
void ps_rtl_view_show_scope_tree (PsRtlView *self);
/* Shows an analysis: the unfiltered one of the run, or a filtered one */
void ps_rtl_view_set_scopes (PsRtlView       *self,
                             PsScopeAnalysis *scopes);
/* The rows of the Totals, for code that looks into them */
GListModel *ps_rtl_view_get_totals (PsRtlView *self);

/* The search and the filters (ps-rtl-view-filters.c) */

void ps_rtl_view_start_search (PsRtlView *self);
void ps_rtl_view_search_changed_cb (PsRtlView      *self,
                                    GtkSearchEntry *entry);
void ps_rtl_view_stop_search_cb (PsRtlView      *self,
                                 GtkSearchEntry *entry);
void ps_rtl_view_filter_changed_cb (PsRtlView   *self,
                                    GtkEditable *editable);
void ps_rtl_view_filter_activate_cb (PsRtlView *self,
                                     GtkEntry  *entry);
void ps_rtl_view_filter_icon_release_cb (GtkEntry            *entry,
                                         GtkEntryIconPosition position,
                                         PsRtlView           *self);
void ps_rtl_view_per_thread_toggled_cb (PsRtlView      *self,
                                        GtkCheckButton *button);
void ps_rtl_view_page_changed_cb (PsRtlView  *self,
                                  GParamSpec *pspec,
                                  GtkStack   *stack);
/* The search filters the totals and the warnings in place */
gboolean ps_rtl_view_total_matches (gpointer item,
                                    gpointer user_data);
gboolean ps_rtl_view_warning_matches (gpointer item,
                                      gpointer user_data);
/* The filters of the entries and the time range, applied in a worker */
void ps_rtl_view_apply_filters (PsRtlView *self);

/* The histogram and the links with the other views (ps-rtl-view-links.c) */

void ps_rtl_view_select_chosen_scope (PsRtlView *self);
void ps_rtl_view_scope_selected_cb (PsRtlView *self);
void ps_rtl_view_scope_activate_cb (PsRtlView *self,
                                    guint      position);
void ps_rtl_view_totals_selection_changed_cb (PsRtlView          *self,
                                              GParamSpec         *pspec,
                                              GtkSingleSelection *selection);
void ps_rtl_view_function_selected_cb (PsRtlView      *self,
                                       guint32         function,
                                       PsCallTreeView *view);
void ps_rtl_view_call_tree_thread_cb (PsRtlView *self);
void ps_rtl_view_histogram_selection_changed_cb (PsRtlView       *self,
                                                 GParamSpec      *pspec,
                                                 PsHistogramView *view);
void ps_rtl_view_time_selection_changed_cb (PsRtlView *self);
/* What the session chose, shown here */
void ps_rtl_view_follow_session (PsRtlView *self);

/* The chart of the selected total's durations along the log
 * (ps-rtl-view-chart.c) */

void ps_rtl_view_init_duration_chart (PsRtlView *self);
/* Charts the calls of series (of the shown analysis; NULL for none),
 * named label, once a worker has gathered them */
void ps_rtl_view_show_duration_chart (PsRtlView      *self,
                                      const PsSeries *series,
                                      const char     *label);

/* ps-rtl-view.c: the text the scope table's search matched, or NULL */
const char          *_ps_rtl_view_get_applied_search (PsRtlView       *self);

/* ps-rtl-view-cells.c */
/* "2.007 s", "505 ms", "12.5 ms", "850 µs" */
char                *_ps_rtl_view_format_duration    (double           seconds);
/* "2009-07-02 14:44:32.405" in local time; "2009-07-02T14:44:32.405817Z" */
char                *_ps_rtl_view_format_date_time   (gint64           unix_ns);
char                *_ps_rtl_view_format_iso_utc     (gint64           unix_ns);
GtkColumnViewColumn *_ps_rtl_view_scope_column_new   (PsRtlView       *view,
                                                      ScopeColumn      column);
GtkColumnViewColumn *_ps_rtl_view_total_column_new   (TotalColumn      column);
/* A cell's text (NULL if empty), its tooltip and whether it is dimmed */
char                *_ps_rtl_view_scope_cell_text    (PsScopeRow      *row,
                                                      ScopeColumn      column,
                                                      char           **tooltip,
                                                      gboolean        *dim);
char                *_ps_rtl_view_total_cell_text    (PsScopeTotalRow *row,
                                                      TotalColumn      column,
                                                      char           **tooltip);

/* Tests */

/* The scope table's model as shown: GtkTreeListRow items whose item is a
 * PsScopeRow */
GListModel      *ps_rtl_view_get_scope_model      (PsRtlView  *self);
GtkColumnView   *ps_rtl_view_get_scope_view       (PsRtlView  *self);
/* PsScopeTotalRow items, filtered and sorted as shown */
GListModel      *ps_rtl_view_get_totals_model     (PsRtlView  *self);
GtkColumnView   *ps_rtl_view_get_totals_view      (PsRtlView  *self);
/* The analysis shown, under the filters that were applied */
PsScopeAnalysis *ps_rtl_view_get_scopes           (PsRtlView  *self);
GtkEditable     *ps_rtl_view_get_include_entry    (PsRtlView  *self);
GtkEditable     *ps_rtl_view_get_exclude_entry    (PsRtlView  *self);
/* The text of a cell as the table shows it; column is the column's title */
char            *ps_rtl_view_get_scope_cell_text  (PsRtlView  *self,
                                                   PsScopeRow *row,
                                                   const char *column);
char            *ps_rtl_view_get_totals_cell_text (PsRtlView       *self,
                                                   PsScopeTotalRow *row,
                                                   const char      *column);
/* The chart of the selected total's durations along the log */
PsCounterChart  *ps_rtl_view_get_duration_chart   (PsRtlView  *self);
/* The message shown for a bad regular expression, or NULL */
const char      *ps_rtl_view_get_filter_error     (PsRtlView  *self);

G_END_DECLS
