/* ps-run-page-private.h — what tests look at inside a PsRunPage
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-ce-view.h"
#include "ps-counters-view.h"
#include "ps-profile-view.h"
#include "ps-report-view.h"
#include "ps-rtl-view.h"
#include "ps-run-page.h"
#include "ps-session.h"
#include "ps-timeline-view.h"

G_BEGIN_DECLS

PsCeView   *ps_run_page_get_ce_view          (PsRunPage *self);
PsRtlView  *ps_run_page_get_rtl_view         (PsRunPage *self);
PsReportView *ps_run_page_get_report_view    (PsRunPage *self);
PsProfileView *ps_run_page_get_profile_view  (PsRunPage *self);
PsCountersView *ps_run_page_get_counters_view (PsRunPage *self);
PsTimelineView *ps_run_page_get_timeline_view (PsRunPage *self);
/* The divider between the timeline and the run's tables */
GtkPaned   *ps_run_page_get_paned            (PsRunPage *self);
/* The run's view state; NULL until it is loaded */
PsSession  *ps_run_page_get_session          (PsRunPage *self);
/* The text of the error state, or NULL */
const char *ps_run_page_get_error_message    (PsRunPage *self);
gboolean    ps_run_page_get_banner_revealed  (PsRunPage *self);
const char *ps_run_page_get_banner_text      (PsRunPage *self);
/* The name of the visible state page: "loading", "computing" (the
 * timeline above "Computing statistics…"), "error", "cancelled", "view" */
const char *ps_run_page_get_visible_state    (PsRunPage *self);
/* Whether the page was ready ("ready" was emitted) since its last load */
gboolean    ps_run_page_is_ready             (PsRunPage *self);

G_END_DECLS
