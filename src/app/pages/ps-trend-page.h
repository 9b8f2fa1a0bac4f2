/* ps-trend-page.h — many runs in order, and where each row changed
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-trend-chart.h"

G_BEGIN_DECLS

#define PS_TYPE_TREND_PAGE (ps_trend_page_get_type ())
G_DECLARE_FINAL_TYPE (PsTrendPage, ps_trend_page, PS, TREND_PAGE, GtkWidget)

/* The runs of files and folders (ps-trend-loader.h) */
GtkWidget     *ps_trend_page_new       (GFile * const *files,
                                        guint          n_files);
/* Whether it trends these files and folders, in any order: opened again,
 * they show this page */
gboolean       ps_trend_page_has_files (PsTrendPage   *self,
                                        GFile * const *files,
                                        guint          n_files);
const char    *ps_trend_page_get_title (PsTrendPage   *self);
/* What the tab's tooltip says: the files' and folders' paths */
char          *ps_trend_page_get_description (PsTrendPage *self);
/* Reads the files in a thread, then trends them */
void           ps_trend_page_load      (PsTrendPage   *self);
void           ps_trend_page_cancel    (PsTrendPage   *self);
/* The runs' order, value and least change (a fraction), trended again */
void           ps_trend_page_set_options (PsTrendPage        *self,
                                          PsTrendOrder        order,
                                          PsTrendValue        value,
                                          double              min_change);

/* Tests: the trend shown (NULL before one), whether files are being read
 * or the runs trended, the visible state ("loading", "error", "view") */
const PsTrend *ps_trend_page_get_trend (PsTrendPage   *self);
gboolean       ps_trend_page_is_busy   (PsTrendPage   *self);
const char    *ps_trend_page_get_visible_state (PsTrendPage *self);
PsTrendChart  *ps_trend_page_get_chart (PsTrendPage   *self);
GtkListBox    *ps_trend_page_get_change_list (PsTrendPage *self);
/* Tests: the list of rows, its selection, and the text of a cell (0: name,
 * 1: kind, 2: unit, 3: runs, 4: largest change) */
guint          ps_trend_page_get_n_rows (PsTrendPage  *self);
void           ps_trend_page_select_row (PsTrendPage  *self,
                                         guint         position);
guint          ps_trend_page_get_selected_row (PsTrendPage *self);
char          *ps_trend_page_get_cell_text (PsTrendPage *self,
                                            guint        position,
                                            guint        column);
/* Tests: the files that could not be read, as the page lists them, or NULL */
const char    *ps_trend_page_get_problems_text (PsTrendPage *self);
const char    *ps_trend_page_get_hint_text     (PsTrendPage *self);

G_END_DECLS
