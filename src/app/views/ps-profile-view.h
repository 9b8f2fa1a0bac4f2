/* ps-profile-view.h — a run of sampled call stacks (hwpmc, pmcstat -G)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8 (what pmcstat shows of a run: samples per
 * event, per process and thread, as a call graph). One event (sample
 * source) at a time, the processes and threads that took its samples, the
 * call tree of the chosen ones in the time range selected on the
 * timeline, and the run's data quality: lost samples, modules without
 * symbols.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-analysis.h"
#include "ps-run-view.h"
#include "ps-session.h"

G_BEGIN_DECLS

#define PS_TYPE_PROFILE_VIEW (ps_profile_view_get_type ())
G_DECLARE_FINAL_TYPE (PsProfileView, ps_profile_view, PS, PROFILE_VIEW, GtkWidget)

GtkWidget     *ps_profile_view_new               (void);
void           ps_profile_view_set_analysis      (PsProfileView *self,
                                                  PsRunAnalysis *analysis);
/* The run's view state: a time range selected in it limits the samples
 * that count */
void           ps_profile_view_set_session       (PsProfileView *self,
                                                  PsSession     *session);
/* The folder the run was read with (the loader's "sysroot"), or NULL:
 * what the header says about symbols */
const char    *ps_profile_view_get_symbol_folder (PsProfileView *self);
void           ps_profile_view_set_symbol_folder (PsProfileView *self,
                                                  const char    *folder);
/* Shows or hides the list of threads (F9) */
void           ps_profile_view_toggle_side_pane (PsProfileView *self);
/* "calltree" or "warnings" */
void           ps_profile_view_show_page         (PsProfileView *self,
                                                  const char    *name);

G_END_DECLS
