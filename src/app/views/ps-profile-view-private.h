/* ps-profile-view-private.h — what the profile view's files share
 * (ps-profile-view-build.c, ps-profile-view-tracks.c), and what tests
 * look at inside a PsProfileView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-profile-view.h"
#include "ps-run-analysis.h"
#include "ps-session.h"
#include "ps-warning-model.h"

G_BEGIN_DECLS

/* Samples by what the views say of them */
typedef struct
{
  guint64 samples;
  guint64 kernel;              /* taken in kernel mode */
  guint64 no_stack;            /* with no call stack: in no call tree */
  guint64 unnamed;             /* with a frame without a function name */
} SampleCounts;

typedef struct
{
  PsCallTree  *tree;
  guint        n_tracks;
  guint64     *choice_counts;  /* per track, then the samples of no track:
                                * chosen sources in the time range */
  guint64     *any_counts;     /* the same, of every source in the whole run;
                                * NULL once the list is made (they do not
                                * change with the choices) */
  SampleCounts chosen;         /* the chosen sources, tracks and time range:
                                * what the header and the tree count */
  SampleCounts run;            /* every sample of the run */
} BuildResult;

struct _PsProfileView
{
  GtkWidget            parent_instance;

  PsRunAnalysis       *analysis;
  PsSession           *session;
  PsRunViewSessionHandlers session_handlers;
  gboolean             following;         /* rows chosen for the session */
  char                *symbol_folder;

  /* Event choices: a source index per item of the drop-down, PS_NONE for
   * "All events" */
  GArray              *source_choices;
  GtkStringList       *source_names;

  /* The process list */
  GListStore          *track_roots;      /* PsProfileTrackRow */
  GtkSortListModel    *tracks_sorted;    /* GtkTreeListRow */
  GtkMultiSelection   *track_selection;
  GtkSorter           *samples_sorter;
  GtkSorter           *percent_sorter;
  GBytes              *selected_tracks;  /* one byte per track, or NULL: all */
  guint                n_selected_rows;
  gboolean             rows_made;
  gboolean             syncing;

  /* The tree */
  GCancellable        *build_cancellable;
  gboolean             have_counts;
  SampleCounts         chosen;           /* of the tree shown */
  SampleCounts         run;
  gboolean             built_range;
  gint64               built_begin;
  gint64               built_end;

  PsWarningModel      *warnings;
#if !GTK_CHECK_VERSION (4, 10, 0)
  GtkFileChooserNative *folder_chooser;
#endif

  /* Template widgets */
  GtkDropDown         *source_dropdown;
  GtkLabel            *samples_value;
  GtkLabel            *kernel_value;
  GtkLabel            *symbols_value;
  GtkSpinner          *spinner;
  GtkStack            *view_stack;
  GtkPaned            *tracks_paned;
  GtkWidget           *tracks_box;
  GtkWidget           *show_all_button;
  GtkColumnView       *track_view;
  GtkLabel            *scope_label;
  PsCallTreeView      *call_tree_view;
  GtkStackPage        *warnings_page;
  GtkLabel            *quality_label;
  GtkLabel            *warnings_overflow_label;
  GtkStack            *warnings_stack;
  GtkColumnView       *warning_view;
};

/* The view (ps-profile-view.c) */

void ps_profile_view_update_busy (PsProfileView *self);
/* The source of the drop-down's choice, PS_NONE for all */
guint32 ps_profile_view_chosen_source (PsProfileView *self);
/* The samples the header counts */
void ps_profile_view_update_totals (PsProfileView *self);
/* What the call tree counts, in a line above it */
void ps_profile_view_update_scope_label (PsProfileView *self);
/* The summary above the warnings: what the numbers of the run lack */
void ps_profile_view_update_quality_summary (PsProfileView *self);
/* The call tree of the processes and threads selected */
void ps_profile_view_track_selection_changed_cb (PsProfileView *self);

/* The list of processes and threads (ps-profile-view-tracks.c) */

/* The rows' counts of a build, in place */
void ps_profile_view_update_track_counts (PsProfileView     *self,
                                          const BuildResult *result);
/* The processes and threads that took samples of any event, once per run */
void ps_profile_view_make_track_rows (PsProfileView     *self,
                                      const BuildResult *result);
void ps_profile_view_add_track_columns (PsProfileView *self);

/* The call tree (ps-profile-view-build.c) */

/* The call tree of the choices, built again in a worker */
void ps_profile_view_rebuild (PsProfileView *self);

/* Tests */

/* The event chooser: its items (GtkStringObject) and the chosen one */
GtkDropDown    *ps_profile_view_get_source_dropdown (PsProfileView *self);
/* The process list as shown: GtkTreeListRow items whose item is a
 * PsProfileTrackRow; a GtkMultiSelection */
GtkSelectionModel *ps_profile_view_get_track_selection (PsProfileView *self);
/* Drops the selection of the process list: every process counts */
void            ps_profile_view_show_all_tracks    (PsProfileView *self);

G_END_DECLS
