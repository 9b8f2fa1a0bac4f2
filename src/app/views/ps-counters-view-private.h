/* ps-counters-view-private.h — what the counters view's files share
 * (ps-counters-view-charts.c, ps-counters-view-stats.c), and what tests
 * look at inside a PsCountersView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-counter-chart.h"
#include "ps-counter-node.h"
#include "ps-counters-view.h"
#include "ps-run-analysis.h"
#include "ps-session.h"
#include "ps-warning-model.h"

G_BEGIN_DECLS

/* The columns of the statistics table, in the order shown */
typedef enum
{
  STATS_MACHINE,
  STATS_OBJECT,
  STATS_INSTANCE,
  STATS_COUNTER,
  STATS_UNIT,
  STATS_COUNT,
  STATS_MISSING,
  STATS_MIN,
  STATS_MAX,
  STATS_MEAN,
  STATS_LAST,
  N_STATS_COLUMNS
} StatsColumn;

/* What a column's factory, sorter and export are given */
typedef struct
{
  PsCountersView *view;
  StatsColumn     column;
} StatsColumnData;

struct _PsCountersView
{
  GtkWidget           parent_instance;

  PsRunAnalysis      *analysis;
  PsSession          *session;
  PsRunViewSessionHandlers session_handlers;
  gboolean            following;     /* rows chosen for the session */
  gboolean            stacked;

  GListStore         *roots;        /* PsCounterNode */
  GPtrArray          *counters;     /* PsCounterNode, every counter in tree order */
  GtkCustomFilter    *filter;
  char               *search;       /* casefolded, NULL for none */
  GtkTreeListModel   *tree;
  GtkSingleSelection *tree_selection;
  GHashTable         *points;       /* track → CounterPoints */
  GListStore         *checked;      /* PsCounterNode: the table's rows */
  GtkSortListModel   *checked_sorted;
  GPtrArray          *charts;       /* PsCounterChart, borrowed from charts_box */
  guint               update_id;
  StatsColumnData     stats_columns[N_STATS_COLUMNS];

  /* The statistics of the range selected on the timeline, by track, once
   * computed; NULL: the table shows those of every reading */
  PsCounterStats     *range_stats;
  guint               range_n_tracks;
  gint64              range_begin_ns;
  gint64              range_end_ns;
  GCancellable       *range_cancellable;  /* while they are computed… */
  gint64              pending_begin_ns;   /* …for this range */
  gint64              pending_end_ns;

  PsWarningModel     *warnings;

  /* Template widgets */
  GtkLabel           *machine_value;
  GtkLabel           *counters_value;
  GtkLabel           *readings_value;
  GtkLabel           *started_value;
  GtkLabel           *duration_value;
  GtkLabel           *interval_value;
  GtkStack           *view_stack;
  GtkPaned           *tree_paned;
  GtkPaned           *chart_paned;
  GtkSearchEntry     *search_entry;
  GtkListView        *counter_list;
  GtkLabel           *selection_label;
  GtkToggleButton    *overlaid_button;
  GtkToggleButton    *stacked_button;
  GtkStack           *chart_stack;
  GtkBox             *charts_box;
  GtkColumnView      *stats_view;
  GtkWidget          *range_box;
  GtkLabel           *range_label;
  GtkStackPage       *warnings_page;
  GtkLabel           *quality_label;
  GtkLabel           *warnings_overflow_label;
  GtkStack           *warnings_stack;
  GtkColumnView      *warning_view;
};

/* The tree and the links (ps-counters-view.c) */

/* The session's choices shown: its counter chosen, its range selected */
void         ps_counters_view_follow_session      (PsCountersView *self);
void         ps_counters_view_apply_time_selection (PsCountersView *self);
void         ps_counters_view_stats_selected_cb   (PsCountersView *self);

/* The charts (ps-counters-view-charts.c) */

/* A GDestroyNotify of the points of a counter */
void         ps_counters_view_points_release      (gpointer        data);
/* The charts shown again for the checked counters, now */
void         ps_counters_view_update_charts       (PsCountersView *self);
/* The charts again at the next idle */
void         ps_counters_view_counter_checked_cb  (PsCountersView *self);
/* The range of the session on every chart */
void         ps_counters_view_apply_range         (PsCountersView *self);
void         ps_counters_view_share_checked_tracks (PsCountersView *self,
                                                    GPtrArray      *checked);

/* The statistics table (ps-counters-view-stats.c) */

/* The label of a node's ancestor of a kind, "" without one */
const char  *ps_counters_view_ancestor_label      (PsCounterNode  *node,
                                                   PsTrackKind     kind);
char        *ps_counters_view_stats_cell_text     (PsCountersView *self,
                                                   PsCounterNode  *node,
                                                   StatsColumn     column);
const char  *ps_counters_view_stats_column_title  (StatsColumn     column);
void         ps_counters_view_add_stats_columns   (PsCountersView *self);
/* The statistics follow the range selected on the timeline */
void         ps_counters_view_update_range_stats  (PsCountersView *self);
void         ps_counters_view_cancel_range_stats  (PsCountersView *self);

/* For the tests */

/* The tree as shown: GtkTreeListRow items whose item is a PsCounterNode;
 * a GtkSingleSelection */
GtkSelectionModel *ps_counters_view_get_tree_selection (PsCountersView *self);
/* The counter whose path (the log's column header) is path, or NULL */
PsCounterNode  *ps_counters_view_find_counter      (PsCountersView *self,
                                                    const char     *path);
/* The counters checked, in the order of the tree */
GPtrArray      *ps_counters_view_list_checked      (PsCountersView *self);
/* Checks or unchecks the counter of the selected row of the tree, as
 * Space does */
void            ps_counters_view_toggle_selected   (PsCountersView *self);
/* Brings the charts and the table up to date with the checks now, instead
 * of at the next idle */
void            ps_counters_view_update_now        (PsCountersView *self);
guint           ps_counters_view_get_n_charts      (PsCountersView *self);
PsCounterChart *ps_counters_view_get_chart         (PsCountersView *self,
                                                    guint           index);
/* The counter (track) of a series of a chart, or PS_NONE */
guint32         ps_counters_view_get_series_track  (PsCountersView *self,
                                                    guint           chart,
                                                    guint           series);
/* PsCounterNode items of the statistics table, sorted as shown */
GListModel     *ps_counters_view_get_stats_model   (PsCountersView *self);
GtkColumnView  *ps_counters_view_get_stats_view    (PsCountersView *self);
/* The text of a cell as the table shows it; column is the column's title */
char           *ps_counters_view_get_stats_cell_text (PsCountersView *self,
                                                      PsCounterNode  *node,
                                                      const char     *column);
/* The line above the statistics saying which readings they are of (a
 * range selected on the timeline), or NULL when it is hidden: they are of
 * every reading */
const char     *ps_counters_view_get_range_notice  (PsCountersView *self);

G_END_DECLS
