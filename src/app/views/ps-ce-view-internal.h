/* ps-ce-view-internal.h — what the CE view's widget (ps-ce-view.c), its
 * marker table's cells and columns (ps-ce-view-cells.c) and its links
 * with the other views (ps-ce-view-links.c) share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from ps-ce-view-private.h, which is what the tests look at.
 */
#pragma once

#include "ps-ce-description.h"
#include "ps-ce-view.h"
#include "ps-histogram-view.h"
#include "ps-marker-row.h"
#include "ps-counter-chart.h"
#include "ps-warning-model.h"

G_BEGIN_DECLS

typedef enum
{
  MARKER_COLUMN_DESCRIPTION,
  MARKER_COLUMN_KEY,          /* one description key, expanded */
  MARKER_COLUMN_APP,
  MARKER_COLUMN_ID,
  MARKER_COLUMN_INSTANCE,
  MARKER_COLUMN_COUNT,
  MARKER_COLUMN_MIN,
  MARKER_COLUMN_MAX,
  MARKER_COLUMN_MEAN,
  MARKER_COLUMN_MEDIAN,
  MARKER_COLUMN_P95,
  MARKER_COLUMN_STDDEV,
  MARKER_COLUMN_TOTAL,
  MARKER_COLUMN_MEAN_TICKS,
  MARKER_COLUMN_TOTAL_TICKS,
} MarkerColumn;

typedef struct
{
  MarkerColumn   column;
  char          *key;
  /* How the cells show their numbers: in unit, stored values divided by
   * scale (the durations, and a description value of kind value_kind) */
  PsCeValueKind  value_kind;
  double         scale;
  char          *unit;
} ColumnInfo;

#define CELL_INFO_KEY "ps-cell-info"

struct _PsCeView
{
  GtkWidget            parent_instance;

  PsRunAnalysis       *analysis;
  PsRunAnalysis       *shown;           /* the analysis, or that of the
                                         * range selected on the timeline */
  PsSession           *run_session;
  PsRunViewSessionHandlers session_handlers;
  gboolean             following;       /* choosing what the session chose */
  GArray              *histogram_values;  /* double: the histogram's */
  GArray              *histogram_indexes; /* guint64: the measurement of
                                         * each of them */
  double               pending_value;   /* to select in the histogram when
                                         * its values come, or NAN */
  GCancellable        *range_cancellable;
  guint                session;
  GListStore          *marker_groups;   /* PsMarkerRow */
  GtkSortListModel    *marker_sorted;   /* GtkTreeListRow */
  GPtrArray           *key_columns;     /* GtkColumnViewColumn */
  PsWarningModel      *warnings;

  GCancellable        *histogram_cancellable;

  /* Template widgets */
  GtkPaned            *markers_paned;
  GtkWidget           *histogram_box;
  GtkLabel            *histogram_title;
  PsHistogramView     *histogram_view;
  GtkWidget           *range_box;
  GtkLabel            *range_label;
  GtkWidget           *session_box;
  GtkDropDown         *session_dropdown;
  GtkLabel            *os_value;
  GtkLabel            *build_value;
  GtkLabel            *platform_value;
  GtkLabel            *cpu_value;
  GtkLabel            *device_value;
  GtkLabel            *app_value;
  GtkLabel            *resolution_value;
  GtkStack            *view_stack;
  GtkStackPage        *warnings_page;
  GtkStack            *markers_stack;
  GtkColumnView       *marker_view;
  GtkGrid             *cpu_summary;
  GtkGrid             *memory_summary;
  PsCounterChart      *cpu_chart;
  PsCounterChart      *memory_chart;
  GtkLabel            *warnings_overflow_label;
  GtkStack            *warnings_stack;
  GtkColumnView       *warning_view;
};

/* The marker table's cells and columns (ps-ce-view-cells.c) */
double               ps_ce_view_marker_duration        (PsMarkerRow  *row,
                                                        MarkerColumn  column);
char                *ps_ce_view_format_exact           (PsViewQuantity unit,
                                                        double         value);
gboolean             ps_ce_view_description_number     (PsMarkerRow   *row,
                                                        const char    *key,
                                                        PsCeValueKind  kind,
                                                        double        *number);
GtkColumnViewColumn *ps_ce_view_make_marker_column     (const char   *title,
                                                        MarkerColumn  column,
                                                        const char   *key);
void                 ps_ce_view_add_marker_columns     (PsCeView *self);
GListModel          *ps_ce_view_create_marker_children (gpointer item,
                                                        gpointer user_data);

/* Filling the view (ps-ce-view.c) */
char *ps_ce_view_series_label      (const PsSeries *series);
void  ps_ce_view_range_selected_cb (PsCeView *self);

/* Links with the other views of the run (ps-ce-view-links.c) */
void ps_ce_view_focus_selected_marker          (PsCeView *self);
void ps_ce_view_histogram_selection_changed_cb (PsCeView *self);
void ps_ce_view_select_pending_value           (PsCeView *self);
void ps_ce_view_reveal_log_session             (PsCeView *self);

G_END_DECLS
