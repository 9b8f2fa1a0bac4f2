/* ps-profile-view-private.h — the rows of the process list, and what
 * tests look at inside a PsProfileView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-profile-view.h"
#include "ps-run-page.h"

G_BEGIN_DECLS

/* A process or a thread of the process list, with its samples of the
 * chosen event. Made once per run; the counts change in place when the
 * event or the time range does, so the list keeps its selection. */
#define PS_TYPE_PROFILE_TRACK_ROW (ps_profile_track_row_get_type ())
G_DECLARE_FINAL_TYPE (PsProfileTrackRow, ps_profile_track_row, PS, PROFILE_TRACK_ROW, GObject)

guint32      ps_profile_track_row_get_track    (PsProfileTrackRow *self);
gboolean     ps_profile_track_row_is_process   (PsProfileTrackRow *self);
/* "dd (1234)", "Thread 100234 (main)" */
const char  *ps_profile_track_row_get_label    (PsProfileTrackRow *self);
/* Of the chosen event in the time range; a process counts its threads' */
guint64      ps_profile_track_row_get_samples  (PsProfileTrackRow *self);
double       ps_profile_track_row_get_percent  (PsProfileTrackRow *self);
/* "1,234", "12.3" as the cells show them */
const char  *ps_profile_track_row_get_samples_text (PsProfileTrackRow *self);
const char  *ps_profile_track_row_get_percent_text (PsProfileTrackRow *self);
/* The threads of a process (PsProfileTrackRow), NULL for a thread */
GListModel  *ps_profile_track_row_get_threads  (PsProfileTrackRow *self);

/* Tests */

PsCallTreeView *ps_profile_view_get_call_tree_view (PsProfileView *self);
/* The event chooser: its items (GtkStringObject) and the chosen one */
GtkDropDown    *ps_profile_view_get_source_dropdown (PsProfileView *self);
/* The process list as shown: GtkTreeListRow items whose item is a
 * PsProfileTrackRow; a GtkMultiSelection */
GtkSelectionModel *ps_profile_view_get_track_selection (PsProfileView *self);
/* PsWarningRow items */
GListModel     *ps_profile_view_get_warning_model  (PsProfileView *self);
const char     *ps_profile_view_get_visible_page   (PsProfileView *self);
/* "samples", "kernel", "symbols", "range", "quality" */
const char     *ps_profile_view_get_header_value   (PsProfileView *self,
                                                    const char    *field);
/* A tree is being built */
gboolean        ps_profile_view_is_busy            (PsProfileView *self);
/* Drops the selection of the process list: every process counts */
void            ps_profile_view_show_all_tracks    (PsProfileView *self);

/* ps-run-page.c: the page's profile view */
PsProfileView  *ps_run_page_get_profile_view       (PsRunPage     *page);

G_END_DECLS
