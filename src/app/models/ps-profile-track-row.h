/* ps-profile-track-row.h — a process or a thread of the profile view's list
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"

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

/* The view's side: made once per run for a track of a store, then given
 * its samples of the chosen event out of `total` */
PsProfileTrackRow *ps_profile_track_row_new    (PsEventStore      *store,
                                                guint32            track);
void         ps_profile_track_row_set_samples  (PsProfileTrackRow *self,
                                                guint64            samples,
                                                guint64            total);
/* The threads of a process, to add to; NULL for a thread */
GListStore  *ps_profile_track_row_get_threads_store (PsProfileTrackRow *self);

G_END_DECLS
