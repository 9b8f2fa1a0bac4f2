/* ps-compare-page-private.h — what the compare page's files share
 * (ps-compare-page-table.c, ps-compare-page-runs.c, ps-compare-page-diff.c,
 * ps-compare-page-export.c), and what tests look at inside a PsComparePage
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-compare-page.h"
#include "ps-compare-row.h"
#include "ps-flame-graph.h"
#include "ps-histogram-view.h"
#include "ps-run-page.h"
#include "ps-session.h"

G_BEGIN_DECLS

typedef enum
{
  PS_COMPARE_FILTER_ALL,
  PS_COMPARE_FILTER_REGRESSIONS,
  PS_COMPARE_FILTER_IMPROVEMENTS,
  PS_COMPARE_FILTER_CHANGED,     /* any significant change */
  PS_COMPARE_FILTER_ONE_SIDE,    /* rows of one run only */
} PsCompareFilter;

/* The columns of the table, in the order shown. The change next to the
 * name: what the user looks for first */
typedef enum
{
  COL_NAME,
  COL_CHANGE,
  COL_WHY,
  COL_KIND,
  COL_A_COUNT,
  COL_A_MEAN,
  COL_A_MEDIAN,
  COL_A_P95,
  COL_A_TOTAL,
  COL_B_COUNT,
  COL_B_MEAN,
  COL_B_MEDIAN,
  COL_B_P95,
  COL_B_TOTAL,
  COL_DELTA_MEAN,
  COL_RATIO,
  COL_P_VALUE,
  N_COLUMNS
} Column;

struct _PsComparePage
{
  GtkWidget        parent_instance;

  GFile           *files[2];
  int              chosen_sessions[2]; /* the session of each side, −1: the whole file */
  char            *side_names[2];      /* "a.log", "nightly.log — session 9 of 14" */
  char            *title;
  PsRunPage       *run_pages[2];
  PsSession       *sessions[2];
  gulong           range_handlers[2];
  gulong           selection_handlers[2];
  gboolean         syncing;
  gboolean         user_stacked;       /* the layout the user chose */
  gboolean         narrow;             /* a run does not fit half the page */
  gboolean         forcing_layout;     /* the page, not the user, toggles */
  guint            narrow_idle;
  double           offset_ms;
  PsEventStore    *aligned_stores[2];  /* whose marks the dropdowns list */
  GArray          *align_times[2];     /* gint64 ns per dropdown item: 0 for the start */
  gboolean         filling_align;      /* the dropdowns are being filled */

  GCancellable    *cancellable;
  PsEventStore    *diffed_stores[2];   /* of the diff computed or being computed */
  PsRunDiff       *diff;
  gboolean         ready;
  GHashTable      *renames;            /* A name → B name, matched by hand */
  gboolean         can_match;          /* the selected row is of A only */
  PsCallTreeDiff  *call_diff;          /* NULL unless both runs have a call tree */
  GHashTable      *values[2];          /* row key → GArray of double, per run */
  /* The thresholds of the verdicts; min_change is the user's */
  PsRunDiffOptions options;
  gboolean         list_unmatched;     /* rows of runs that share none, listed anyway */

  GListStore      *rows;
  GtkCustomFilter *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;
  PsCompareFilter  filter_mode;
  PsCompareRow    *chosen_row;          /* the row the user selected, shown or filtered out */
  gboolean         refiltering;         /* the filter changes: the selection is the page's */
  char            *search;             /* casefolded, NULL for none */
  GtkColumnViewColumn *column_widgets[N_COLUMNS];

  /* Template widgets */
  GtkPaned        *paned;
  GtkLabel        *title_labels[2];
  GtkLabel        *details_label;
  GtkLabel        *regressions_label;
  GtkLabel        *improvements_label;
  GtkLabel        *changed_label;
  GtkLabel        *one_side_label;
  GtkToggleButton *filter_all;
  GtkToggleButton *filter_regressions;
  GtkToggleButton *filter_improvements;
  GtkToggleButton *filter_changed;
  GtkToggleButton *filter_one_side;
  GtkSearchEntry  *search_entry;
  GtkLabel        *status_label;
  GtkWidget       *min_change_box;
  GtkSpinButton   *min_change_spin;
  GtkWidget       *table_toolbar;
  GtkStack        *table_stack;
  GtkLabel        *unmatched_label;
  GtkButton       *unmatched_button;
  GtkStack        *rows_stack;          /* the rows, or why none is shown */
  GtkLabel        *empty_label;
  GtkScrolledWindow *table_window;
  GtkLabel        *basis_label;
  GtkSpinner      *spinner;
  GtkLabel        *busy_label;
  GtkLabel        *failed_label;
  GtkColumnView   *column_view;
  GtkStack        *view_stack;
  GtkStackSwitcher *view_switcher;
  PsFlameGraph    *flame_graph;
  GtkLabel        *flame_label;
  GtkBox          *histogram_box;
  GtkLabel        *histogram_label;
  PsHistogramView *histogram_view;
  GMenuModel      *row_menu;
  GtkPopover      *row_popover;           /* the table's context menu */
  GtkSpinButton   *offset_spin;
  GtkWidget       *align_box;
  GtkLabel        *align_label;
  GtkDropDown     *align_a_dropdown;
  GtkDropDown     *align_b_dropdown;
  GtkToggleButton *side_by_side_button;
  GtkToggleButton *stacked_button;
  GtkToggleButton *same_scale_button;
  GtkBox          *runs_box;
  GtkBox          *run_a_box;
  GtkBox          *run_b_box;
  GtkLabel        *run_a_label;
  GtkLabel        *run_b_label;
};

/* ps-compare-page.c: the page is ready (notifies :ready), and each
 * side's name in the header and above its run */
void        ps_compare_page_set_ready (PsComparePage *self,
                                       gboolean       ready);
void        ps_compare_page_update_side_names (PsComparePage *self);

/* ps-compare-page-table.c: the rows, their cells, filters and columns */
const char *ps_compare_page_kind_label (const char *kind);
char       *ps_compare_page_format_share (double share);
void        ps_compare_page_update_status (PsComparePage *self);
gboolean    ps_compare_page_filter_row_cb (gpointer item,
                                           gpointer user_data);
void        ps_compare_page_filter_toggled_cb (PsComparePage   *self,
                                               GtkToggleButton *button);
void        ps_compare_page_search_changed_cb (PsComparePage  *self,
                                               GtkSearchEntry *entry);
void        ps_compare_page_add_columns (PsComparePage *self);

/* ps-compare-page-runs.c: the runs side by side, in step, on one scale,
 * aligned at a mark, and the row selected in both */
void        ps_compare_page_sync_range (PsComparePage *self,
                                        guint          from);
void        ps_compare_page_watch_session (PsComparePage *self,
                                           guint          side);
void        ps_compare_page_update_same_scale (PsComparePage *self);
void        ps_compare_page_offset_changed_cb (PsComparePage *self,
                                               GtkSpinButton *spin);
void        ps_compare_page_align_changed_cb (PsComparePage *self);
void        ps_compare_page_set_align_factories (GtkDropDown *dropdown);
void        ps_compare_page_update_align (PsComparePage *self);
void        ps_compare_page_layout_toggled_cb (PsComparePage   *self,
                                               GtkToggleButton *button);
void        ps_compare_page_apply_layout (PsComparePage *self);
void        ps_compare_page_measure (GtkWidget      *widget,
                                     GtkOrientation  orientation,
                                     int             for_size,
                                     int            *minimum,
                                     int            *natural);
void        ps_compare_page_size_allocate (GtkWidget *widget,
                                           int        width,
                                           int        height,
                                           int        baseline);
char       *ps_compare_page_values_key (const char *kind,
                                        const char *context,
                                        const char *name);
/* The runs, the histogram and Match With… follow the selected row */
void        ps_compare_page_follow_selected_row (PsComparePage *self);
void        ps_compare_page_selected_row_changed_cb (PsComparePage *self);

/* ps-compare-page-diff.c: the comparison, computed in a worker once
 * both runs are read */
gboolean    ps_compare_page_is_read (PsRunPageState state);
void        ps_compare_page_update_header (PsComparePage *self);
void        ps_compare_page_unmatched_clicked_cb (PsComparePage *self);
void        ps_compare_page_min_change_changed_cb (PsComparePage *self,
                                                   GtkSpinButton *spin);
void        ps_compare_page_show_busy (PsComparePage *self,
                                       const char    *text);
void        ps_compare_page_update_flame_graph (PsComparePage *self);
void        ps_compare_page_start_diff (PsComparePage *self);
void        ps_compare_page_run_state_changed_cb (PsComparePage *self);

/* ps-compare-page-export.c: the table written out, and rows matched by hand */
void        ps_compare_page_write_table_csv (GtkColumnView *view,
                                             GString       *out,
                                             gpointer       user_data);
/* Installs the actions of the table's menu (compare.*): Match With…,
 * Undo Matches, Export as CSV… and Copy Markdown Summary */
void        ps_compare_page_install_export_actions (GtkWidgetClass *widget_class);

/* A value of the table as its cells show it: by the window's rule for
 * digits, whole where it is whole ("140 ms", "11.50 ms", "10.68 MiB",
 * "33,540 ticks"), with the unit in the user's language; g_free () */
char          *ps_compare_page_format_value   (double          value,
                                               const char     *unit,
                                               gboolean        is_signed);
/* The Δ Mean column's text: ps_compare_page_format_value (), signed, but
 * in percentage points for percentages ("−1.57 pp"), and no change in the
 * unit of the row's larger mean ("0 ms"); g_free () */
char          *ps_compare_page_format_delta   (double          delta,
                                               const char     *unit,
                                               double          mean);
/* TRUE once the table shows a computed comparison */
gboolean       ps_compare_page_is_ready       (PsComparePage  *self);
PsRunPage     *ps_compare_page_get_run_page   (PsComparePage  *self,
                                               guint           side);
GtkColumnView *ps_compare_page_get_column_view (PsComparePage *self);
/* The header's name of run side (0: A, 1: B), beside the arrow */
GtkLabel      *ps_compare_page_get_title_label (PsComparePage *self,
                                                guint          side);
/* The rows shown (PsCompareRow), filtered and sorted as on screen */
GListModel    *ps_compare_page_get_rows       (PsComparePage  *self);
void           ps_compare_page_set_filter     (PsComparePage  *self,
                                               PsCompareFilter filter);
void           ps_compare_page_set_search     (PsComparePage  *self,
                                               const char     *text);
/* Sorts by the column of that id ("name", "a-mean", "ratio", …) */
void           ps_compare_page_sort_by        (PsComparePage  *self,
                                               const char     *column_id,
                                               GtkSortType     order);
/* The text of the cell of that column in the shown row at position */
char          *ps_compare_page_get_cell_text  (PsComparePage  *self,
                                               guint           position,
                                               const char     *column_id);
/* The tooltip of that cell: the reason of the row's verdict (Change,
 * Why), what the p-value rests on or why there is none; else NULL */
char          *ps_compare_page_get_cell_tooltip (PsComparePage *self,
                                               guint           position,
                                               const char     *column_id);
/* The least change of rows with one value per run, in percent, as the
 * Least Change spin sets it: the runs are compared again */
void           ps_compare_page_set_min_change (PsComparePage  *self,
                                               double          percent);
gboolean       ps_compare_page_get_min_change_visible (PsComparePage *self);
/* The line under the table on rows without a test (the least change and
 * the noise floors), NULL when it is hidden */
const char    *ps_compare_page_get_basis_note (PsComparePage  *self);
/* Whether "Align at" and "B offset" are shown (runs that both have times) */
gboolean       ps_compare_page_get_align_visible (PsComparePage *self);
gboolean       ps_compare_page_get_same_scale_visible (PsComparePage *self);
/* Same Scale on or off, as a click would */
void           ps_compare_page_set_same_scale (PsComparePage  *self,
                                               gboolean        same);
/* What the table's place shows: "busy", "failed", "unmatched" (runs that
 * share no row, said in words) or "table" */
const char    *ps_compare_page_get_table_state (PsComparePage *self);
const char    *ps_compare_page_get_unmatched_text (PsComparePage *self);
/* What the table's place says when the filter and the search leave no
 * row ("Every row is in both runs"), NULL while it shows rows */
const char    *ps_compare_page_get_empty_text (PsComparePage *self);
/* A run's half of the runs' area: its label and its scrolled run page */
GtkWidget     *ps_compare_page_get_run_half   (PsComparePage  *self,
                                               guint           side);
/* The table's scrolled window */
GtkScrolledWindow *ps_compare_page_get_table_window (PsComparePage *self);
void           ps_compare_page_set_offset_ms  (PsComparePage  *self,
                                               double          offset_ms);
double         ps_compare_page_get_offset_ms  (PsComparePage  *self);
/* The "Align at" dropdown of a side (0: A, 1: B): item 0 is the run's
 * start, then each mark text once */
GtkDropDown   *ps_compare_page_get_align_dropdown (PsComparePage *self,
                                               guint           side);
/* Chooses the first mark with that text (NULL: the run's start) in the
 * side's dropdown, as a click would; FALSE when it has no such mark or
 * the dropdowns are insensitive */
gboolean       ps_compare_page_align_at       (PsComparePage  *self,
                                               guint           side,
                                               const char     *text);
void           ps_compare_page_set_stacked    (PsComparePage  *self,
                                               gboolean        stacked);
/* Whether the runs are shown one under the other: as the user chose, or
 * because they are too wide for half the page */
gboolean       ps_compare_page_get_stacked    (PsComparePage  *self);
const char    *ps_compare_page_get_header_text (PsComparePage *self);
/* What Export as CSV… writes and Copy Markdown Summary copies */
char          *ps_compare_page_dup_csv        (PsComparePage  *self);
char          *ps_compare_page_dup_markdown   (PsComparePage  *self);

/* The differential flame graph (B against A) and whether the page offers
 * it (both runs have a call tree) */
PsFlameGraph  *ps_compare_page_get_flame_graph (PsComparePage *self);
gboolean       ps_compare_page_has_flame_graph (PsComparePage *self);
/* "table" or "flame" */
void           ps_compare_page_show_view      (PsComparePage  *self,
                                               const char     *name);
const char    *ps_compare_page_get_visible_view (PsComparePage *self);
/* The histograms of the selected row: B's bars, A's outline */
PsHistogramView *ps_compare_page_get_histogram_view (PsComparePage *self);
gboolean       ps_compare_page_get_histogram_visible (PsComparePage *self);
/* What "Match With…" does: A's row a_name and B's row b_name become one
 * row, the runs compared again with that rename */
/* Whether Match With… is offered for the selected row */
gboolean       ps_compare_page_can_match      (PsComparePage  *self);
void           ps_compare_page_match_rows     (PsComparePage  *self,
                                               const char     *a_name,
                                               const char     *b_name);

G_END_DECLS
