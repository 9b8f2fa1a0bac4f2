/* ps-compare-page-private.h — what tests look at inside a PsComparePage
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-compare-page.h"
#include "ps-flame-graph.h"
#include "ps-histogram-view.h"
#include "ps-run-page.h"

G_BEGIN_DECLS

typedef enum
{
  PS_COMPARE_FILTER_ALL,
  PS_COMPARE_FILTER_REGRESSIONS,
  PS_COMPARE_FILTER_IMPROVEMENTS,
  PS_COMPARE_FILTER_CHANGED,     /* any significant change */
  PS_COMPARE_FILTER_ONE_SIDE,    /* rows of one run only */
} PsCompareFilter;

/* TRUE once the table shows a computed comparison */
/* A value of the table as its cells show it: ps_compare_export_format_value ()
 * with whole counts grouped as in the rest of the window; g_free () */
char          *ps_compare_page_format_value   (double          value,
                                               const char     *unit,
                                               gboolean        is_signed);
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
