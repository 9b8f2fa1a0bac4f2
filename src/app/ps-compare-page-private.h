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
gboolean       ps_compare_page_is_ready       (PsComparePage  *self);
PsRunPage     *ps_compare_page_get_run_page   (PsComparePage  *self,
                                               guint           side);
GtkColumnView *ps_compare_page_get_column_view (PsComparePage *self);
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
