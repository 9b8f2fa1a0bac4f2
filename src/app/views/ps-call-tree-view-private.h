/* ps-call-tree-view-private.h — shared by ps-call-tree-view*.c and the tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-node-row.h"
#include "ps-call-tree-view.h"
#include "ps-flame-graph.h"

G_BEGIN_DECLS

/* The columns of the three tables, in the order shown: the function, its
 * module, the calls, then each value of PsCallValue followed by its
 * percentage */
typedef enum
{
  CALL_COLUMN_FUNCTION,
  CALL_COLUMN_MODULE,
  CALL_COLUMN_CALLS,
  CALL_COLUMN_FIRST_VALUE,
  N_CALL_COLUMNS = CALL_COLUMN_FIRST_VALUE + 2 * PS_N_CALL_VALUES
} CallColumn;

#define CALL_COLUMN_VALUE(value)   ((CallColumn) (CALL_COLUMN_FIRST_VALUE + 2 * (value)))
#define CALL_COLUMN_PERCENT(value) ((CallColumn) (CALL_COLUMN_FIRST_VALUE + 2 * (value) + 1))

/* How the values of a tree are printed: value × scale with the decimals,
 * in the unit that every header names */
typedef struct
{
  double      scale;
  int         decimals;
  const char *unit;      /* translated: "ms", "ticks", "samples" */
  gboolean    samples;   /* sampled: the elapsed values are inclusive and exclusive samples */
} PsCallFormat;

/* ps-call-tree-view.c, for the cells */
PsCallBasis          _ps_call_tree_view_get_basis      (PsCallTreeView *self);
const PsCallFormat  *_ps_call_tree_view_get_format     (PsCallTreeView *self);
/* The text the main table's search matched, or NULL */
const char          *_ps_call_tree_view_get_applied_search (PsCallTreeView *self);

/* ps-call-tree-view-cells.c */
/* in_tree: the items are GtkTreeListRow (the main table), else PsCallNodeRow */
GtkColumnViewColumn *_ps_call_tree_view_column_new     (PsCallTreeView *self,
                                                        CallColumn      column,
                                                        gboolean        in_tree);
/* "Elapsed incl. (ms)", "%" */
char                *_ps_call_tree_view_column_title   (const PsCallFormat *format,
                                                        CallColumn          column);
/* A cell's text (never NULL) and, if tooltip is not NULL, its tooltip */
char                *_ps_call_tree_view_cell_text      (PsCallTreeView *self,
                                                        PsCallNodeRow  *row,
                                                        CallColumn      column,
                                                        char          **tooltip);
/* A value in the format, without its unit; "–" for NAN */
char                *_ps_call_tree_view_format_value   (const PsCallFormat *format,
                                                        double              value);
void                 _ps_call_tree_view_update_export_header (const PsCallFormat  *format,
                                                              const char          *unit,
                                                              GtkColumnViewColumn *view_column,
                                                              CallColumn           column);

/* Tests */

/* The main table's model as shown: GtkTreeListRow items whose item is a
 * PsCallNodeRow */
GListModel          *ps_call_tree_view_get_model        (PsCallTreeView *self);
GtkColumnView       *ps_call_tree_view_get_column_view  (PsCallTreeView *self);
GtkColumnViewColumn *ps_call_tree_view_get_column       (PsCallTreeView *self,
                                                         CallColumn      column);
/* PsCallNodeRow items, sorted as shown */
GListModel          *ps_call_tree_view_get_callers_model (PsCallTreeView *self);
GListModel          *ps_call_tree_view_get_callees_model (PsCallTreeView *self);
GtkColumnView       *ps_call_tree_view_get_callers_view  (PsCallTreeView *self);
GtkColumnView       *ps_call_tree_view_get_callees_view  (PsCallTreeView *self);
/* Types the text into the search entry and starts the search at once */
void                 ps_call_tree_view_set_search        (PsCallTreeView *self,
                                                          const char     *text);
/* Shows the function in the Functions list and selects it, as activating
 * a caller or callee does; FALSE if the tree has no such function */
gboolean             ps_call_tree_view_select_function   (PsCallTreeView *self,
                                                          guint32         function);
/* The function whose callers and callees are shown, or PS_NONE */
guint32              ps_call_tree_view_get_selected_function (PsCallTreeView *self);
/* The text of a cell as the table shows it */
char                *ps_call_tree_view_get_cell_text     (PsCallTreeView *self,
                                                          PsCallNodeRow  *row,
                                                          CallColumn      column);
/* A search, a tree for a thread or a tick rate is still being computed */
gboolean             ps_call_tree_view_is_busy           (PsCallTreeView *self);
/* The notice line, or NULL when it is hidden */
const char          *ps_call_tree_view_get_notice        (PsCallTreeView *self);
const char          *ps_call_tree_view_get_status        (PsCallTreeView *self);
/* The percentage line of a report ("as the report gives them"), or NULL
 * when the basis can be chosen */
const char          *ps_call_tree_view_get_percent_label (PsCallTreeView *self);
/* The thread choices: "All threads" first; FALSE when hidden */
gboolean             ps_call_tree_view_has_thread_choice (PsCallTreeView *self);
GListModel          *ps_call_tree_view_get_threads       (PsCallTreeView *self);
void                 ps_call_tree_view_select_thread     (PsCallTreeView *self,
                                                          guint           position);
/* Rebuilds the tree with a tick rate (0: back to ticks) */
void                 ps_call_tree_view_set_ticks_per_second (PsCallTreeView *self,
                                                          double          ticks_per_second);
/* The flame graph of the "flame-graph" mode */
PsFlameGraph        *ps_call_tree_view_get_flame_graph   (PsCallTreeView *self);
/* Whether the mode's toggle can be used */
gboolean             ps_call_tree_view_is_mode_available (PsCallTreeView *self,
                                                          const char     *mode);

G_END_DECLS
