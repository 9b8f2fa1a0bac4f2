/* ps-compare-page.h — two runs compared in a tab: the diff table and the
 * runs side by side
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-diff.h"

G_BEGIN_DECLS

#define PS_TYPE_COMPARE_PAGE (ps_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (PsComparePage, ps_compare_page, PS, COMPARE_PAGE, GtkWidget)

GtkWidget  *ps_compare_page_new      (GFile         *file_a,
                                      GFile         *file_b);
/* Each side one session (0-based) of its file, or the whole file (−1):
 * two runs appended to one CE log, or to two */
GtkWidget  *ps_compare_page_new_for_sessions (GFile     *file_a,
                                              int        session_a,
                                              GFile     *file_b,
                                              int        session_b);
GFile      *ps_compare_page_get_file (PsComparePage *self,
                                      guint          side);  /* 0: A, 1: B */
/* The session a side compares, −1 for the whole file */
int         ps_compare_page_get_session (PsComparePage *self,
                                         guint          side);
/* "run-a.log ↔ run-b.log", for the tab */
const char *ps_compare_page_get_title (PsComparePage *self);
/* Loads both runs (again) and compares them when both are read */
void        ps_compare_page_load     (PsComparePage *self);
void        ps_compare_page_cancel   (PsComparePage *self);
/* The comparison shown, NULL until it is computed */
const PsRunDiff *ps_compare_page_get_diff (PsComparePage *self);

G_END_DECLS
