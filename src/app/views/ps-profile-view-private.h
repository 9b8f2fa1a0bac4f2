/* ps-profile-view-private.h — what tests look at inside a PsProfileView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-profile-view.h"

G_BEGIN_DECLS

/* Tests */

/* The event chooser: its items (GtkStringObject) and the chosen one */
GtkDropDown    *ps_profile_view_get_source_dropdown (PsProfileView *self);
/* The process list as shown: GtkTreeListRow items whose item is a
 * PsProfileTrackRow; a GtkMultiSelection */
GtkSelectionModel *ps_profile_view_get_track_selection (PsProfileView *self);
/* Drops the selection of the process list: every process counts */
void            ps_profile_view_show_all_tracks    (PsProfileView *self);

G_END_DECLS
