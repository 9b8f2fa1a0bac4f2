/* ps-record-page.h — a run being recorded, drawn as it grows
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-collector.h"
#include "ps-counter-chart.h"
#include "ps-timeline-view.h"

G_BEGIN_DECLS

#define PS_TYPE_RECORD_PAGE (ps_record_page_get_type ())
G_DECLARE_FINAL_TYPE (PsRecordPage, ps_record_page, PS, RECORD_PAGE, GtkWidget)

/* The page of a collector that was started into store. Its timeline and
 * charts follow the store ten times a second while anything new came in.
 * Stop (the button, the "record.stop" action or ps_record_page_stop)
 * ends the recording; "finished" is then emitted with the error, if the
 * backend failed, and the page shows no more than the final state: the
 * window replaces it with the run. */
GtkWidget    *ps_record_page_new          (PsCollector  *collector,
                                           PsEventStore *store,
                                           const char   *title);
const char   *ps_record_page_get_title    (PsRecordPage *self);
PsEventStore *ps_record_page_get_store    (PsRecordPage *self);
gboolean      ps_record_page_is_recording (PsRecordPage *self);
void          ps_record_page_stop         (PsRecordPage *self);

/* Testing API */
guint           ps_record_page_get_n_refreshes (PsRecordPage *self);
/* The 100 ms ticks so far; each redraws when readings came in */
guint           ps_record_page_get_n_ticks     (PsRecordPage *self);
const char     *ps_record_page_get_status      (PsRecordPage *self);
/* The charts shown, in order */
GPtrArray      *ps_record_page_get_charts      (PsRecordPage *self);
PsTimelineView *ps_record_page_get_timeline_view (PsRecordPage *self);

G_END_DECLS
