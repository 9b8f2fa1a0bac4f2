/* ps-rtl-view-private.h — shared by ps-rtl-view*.c and the tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-histogram-view.h"
#include "ps-rtl-view.h"
#include "ps-scope-analysis.h"
#include "ps-scope-row.h"
#include "ps-scope-total-row.h"

G_BEGIN_DECLS

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
/* The message shown for a bad regular expression, or NULL */
const char      *ps_rtl_view_get_filter_error     (PsRtlView  *self);

G_END_DECLS
