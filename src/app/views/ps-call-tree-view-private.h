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

typedef enum
{
  MODE_TOP_DOWN,
  MODE_BOTTOM_UP,
  MODE_FUNCTIONS,
  MODE_FLAME_GRAPH,
  N_MODES
} Mode;

static const char * const mode_names[N_MODES] = { "top-down", "bottom-up", "functions", "flame-graph" };

struct _PsCallTreeView
{
  GtkWidget            parent_instance;

  PsCallTree          *tree;              /* shown */
  PsCallTree          *run_tree;          /* of the whole run, as set */
  PsEventStore        *store;
  Mode                 mode;
  PsCallBasis          basis;
  PsCallFormat         format;
  int                  module_width;      /* of the longest module name, 0: none */
  gboolean             syncing;           /* toggles and drop-downs set from code */

  /* Threads and tick rate: rebuilt from the store */
  GtkStringList       *thread_names;
  GArray              *thread_tracks;     /* guint32 per choice after "All threads" */
  /* The store's time range, found with the threads: a scan of every event */
  gint64               time_begin;
  gint64               time_end;
  GCancellable        *threads_cancellable;
  double               ticks_per_second;  /* 0: the report's ticks */
  GBytes              *span_selection;    /* PsCallTreeOptions.span_selection, or NULL */
  GCancellable        *build_cancellable;
  char                *build_error;
  gboolean             tree_coming;       /* ps_call_tree_view_set_tree_coming () */

  /* Search */
  char                *search_text;       /* as typed, or NULL */
  PsCallSearch        *search;            /* what the table shows, or NULL */
  GCancellable        *search_cancellable;

  /* Models */
  GtkSortListModel    *sorted;            /* GtkTreeListRow */
  GtkSortListModel    *callers_sorted;    /* PsCallNodeRow */
  GtkSortListModel    *callees_sorted;
  guint32              relations_function;
  GtkColumnViewColumn *columns[N_CALL_COLUMNS];
  GtkColumnViewColumn *callers_columns[N_CALL_COLUMNS];
  GtkColumnViewColumn *callees_columns[N_CALL_COLUMNS];

  /* Template widgets */
  GtkToggleButton     *top_down_button;
  GtkToggleButton     *bottom_up_button;
  GtkToggleButton     *functions_button;
  GtkToggleButton     *flame_button;
  GtkWidget           *thread_box;
  GtkDropDown         *thread_dropdown;
  GtkWidget           *basis_box;
  GtkDropDown         *basis_dropdown;
  GtkLabel            *given_label;
  GtkSpinner          *spinner;
  GtkSearchEntry      *search_entry;
  GtkWidget           *notice_box;
  GtkWidget           *selection_box;
  GtkLabel            *selection_label;
  GtkLabel            *notice_label;
  GtkMenuButton       *tick_rate_button;
  GtkPopover          *tick_rate_popover;
  GtkSpinButton       *tick_rate_spin;
  GtkWidget           *tick_rate_reset_button;
  GtkLabel            *status_label;
  GtkStack            *content_stack;
  GtkStack            *main_stack;
  GtkPaned            *paned;
  GtkColumnView       *column_view;
  PsFlameGraph        *flame_graph;
  /* The callers and callees, shown while a function is chosen */
  GtkWidget           *relations_box;
  gboolean             relations_wanted;
  guint                relations_scroll_id;  /* tick callback on column_view */
  guint                relations_measure_id; /* tick callback on the view */
  int                  relations_tree_height; /* column_view's, at the last frame */
  guint                relations_settled;     /* frames it has kept that height */
  int                  relations_shown_minimum; /* the split's, when they were last shown */
  GtkLabel            *callers_function_label;
  GtkColumnView       *callers_view;
  GtkLabel            *callees_function_label;
  GtkColumnView       *callees_view;
  GtkLabel            *empty_label;
};

/* The view (ps-call-tree-view.c) */

void ps_call_tree_view_update_busy (PsCallTreeView *self);
/* Shows a tree, keeping the function selected when it has it */
void ps_call_tree_view_show_tree (PsCallTreeView *self,
                                  PsCallTree     *tree);

/* The format, the columns, the toolbar, the notice and the status
 * (ps-call-tree-view-status.c) */

/* One unit for the whole tree, named in every header */
void ps_call_tree_view_update_format (PsCallTreeView *self);
/* The module column as wide as the longest name needs, within bounds */
void ps_call_tree_view_update_module_width (PsCallTreeView *self);
/* Headers that name the unit; the columns of the values the tree has */
void ps_call_tree_view_update_columns (PsCallTreeView       *self,
                                       GtkColumnViewColumn **columns,
                                       gboolean              in_tree);
void ps_call_tree_view_sync_mode_buttons (PsCallTreeView *self);
void ps_call_tree_view_update_toolbar (PsCallTreeView *self);
void ps_call_tree_view_update_notice (PsCallTreeView *self);
void ps_call_tree_view_update_basis_tooltip (PsCallTreeView *self);
void ps_call_tree_view_update_status (PsCallTreeView *self);

/* Trees of one thread or from a tick rate (ps-call-tree-view-trees.c) */

/* The thread chosen, or PS_NONE for all */
guint32 ps_call_tree_view_selected_track (PsCallTreeView *self);
/* The tree of the thread or the tick rate chosen, built in a worker;
 * the old tree stays until the new one is there */
void ps_call_tree_view_rebuild (PsCallTreeView *self);
/* The threads that have spans, found in a worker */
void ps_call_tree_view_list_threads (PsCallTreeView *self);

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
/* What the view says in place of the table when it has no rows */
const char          *ps_call_tree_view_get_empty_text    (PsCallTreeView *self);
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
