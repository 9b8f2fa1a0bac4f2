/* ps-session.h — what the views of one run look at together
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One per run page. The timeline sets the visible and the selected time
 * range; a histogram's bucket range and a function chosen in the call tree
 * set the highlighted spans. Every view listens and follows: a selected
 * time range filters the histogram and the call tree, highlighted spans
 * are drawn over the others in the timeline.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-event-store.h"
#include "ps-span-lod.h"

G_BEGIN_DECLS

#define PS_TYPE_SESSION (ps_session_get_type ())

G_DECLARE_FINAL_TYPE (PsSession, ps_session, PS, SESSION, GObject)

PsSession    *ps_session_new                 (PsEventStore  *store);
PsEventStore *ps_session_get_store           (PsSession     *self);

/* The level-of-detail index of the run's spans and marks, built in a
 * worker thread on first use; NULL until it is ready ("notify::lod"). */
PsSpanLod    *ps_session_get_lod             (PsSession     *self);
void          ps_session_ensure_lod          (PsSession     *self);

/* The part of the run the timeline shows; begin < end. The timeline sets
 * it to the whole run once it has indexed the run. */
void          ps_session_get_visible_range   (PsSession     *self,
                                              gint64        *begin_ns,
                                              gint64        *end_ns);
void          ps_session_set_visible_range   (PsSession     *self,
                                              gint64         begin_ns,
                                              gint64         end_ns);

/* The selected time range; FALSE when nothing is selected */
gboolean      ps_session_get_selection       (PsSession     *self,
                                              gint64        *begin_ns,
                                              gint64        *end_ns);
void          ps_session_set_selection       (PsSession     *self,
                                              gint64         begin_ns,
                                              gint64         end_ns);
void          ps_session_clear_selection     (PsSession     *self);
/* One byte per span of the store, non-zero for the spans that lie wholly
 * inside the selected range (what the call tree counts), or NULL when
 * nothing is selected. Computed once per selection. */
const guint8 *ps_session_get_selected_spans  (PsSession     *self);
/* Whether the span lies wholly inside the selected range (TRUE when
 * nothing is selected) */
gboolean      ps_session_span_in_selection   (PsSession     *self,
                                              guint64        span);

/* Spans drawn highlighted: the spans of a histogram's bucket range or the
 * calls of a function; description says which ("calls of Foo"). */
void          ps_session_set_highlight       (PsSession     *self,
                                              const guint64 *spans,
                                              gsize          n_spans,
                                              const char    *description);
void          ps_session_clear_highlight     (PsSession     *self);
/* Highlights the calls of a function of the run's call tree: the spans
 * whose name it reads as that function and module (module may be NULL);
 * function NULL clears */
void          ps_session_highlight_function  (PsSession     *self,
                                              const char    *function,
                                              const char    *module,
                                              const char    *description);
/* The highlighted spans' index, NULL when there are none (or while it is
 * being built) */
PsSpanLod    *ps_session_get_highlight       (PsSession     *self);
const char   *ps_session_get_highlight_description (PsSession *self);

/* The counter tracks the timeline charts: the ones checked in a counter
 * run's view ("counter-tracks-changed"). NULL (the default) for every
 * counter track: other runs chart all of theirs. */
GArray       *ps_session_get_counter_tracks  (PsSession     *self);
void          ps_session_set_counter_tracks  (PsSession     *self,
                                              const guint32 *tracks,
                                              guint          n_tracks,
                                              gboolean       every_track);
/* A live run's store received counter readings: what charts them is
 * redrawn as if the set of tracks had changed */
void          ps_session_counters_appended   (PsSession     *self);

G_END_DECLS
