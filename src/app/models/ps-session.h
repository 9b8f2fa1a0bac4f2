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
 *
 * What the user chose in one view reaches the others through the same
 * object: the focused track (a marker, thread, counter or process chosen
 * in a table or on the timeline), the selected span (a scope), the
 * highlighted measurements (a CE marker's instances in a histogram's
 * buckets), the event whose samples a sampled run's views count, and
 * the session of an appended log chosen. Times are the run's own: for
 * CE PerfLog, whose measurements have no times, the measurement sequence
 * is the axis (docs/selection.md).
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
/* The whole run as the timeline found it when it indexed the run;
 * FALSE until then */
void          ps_session_set_whole_range     (PsSession     *self,
                                              gint64         begin_ns,
                                              gint64         end_ns);
gboolean      ps_session_get_whole_range     (PsSession     *self,
                                              gint64        *begin_ns,
                                              gint64        *end_ns);

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

/* The track the user chose (a CE marker, a thread, a counter, a process):
 * the timeline shows its row and marks it, tables select its row.
 * PS_NONE: none. "focus-changed" is emitted on a change. */
void          ps_session_set_focus_track     (PsSession     *self,
                                              guint32        track);
/* The first focused track, or PS_NONE */
guint32       ps_session_get_focus_track     (PsSession     *self);
/* Several tracks at once: the instances of a CE marker group, the
 * threads of a process or the rows chosen in a list (copied; the order
 * is kept, duplicates are dropped) */
void          ps_session_set_focus_tracks    (PsSession     *self,
                                              const guint32 *tracks,
                                              guint          n_tracks);
const guint32 *ps_session_get_focus_tracks   (PsSession     *self,
                                              guint         *n_tracks);
gboolean      ps_session_is_focus_track      (PsSession     *self,
                                              guint32        track);

/* The span the user chose (a scope in a table or on the timeline), or
 * PS_SESSION_NO_SPAN; "focus-changed" too. One span, mark or
 * measurement is chosen at a time; choosing one focuses its track unless it is focused already, and
 * focusing tracks without it drops the choice. */
#define PS_SESSION_NO_SPAN G_MAXUINT64
void          ps_session_set_selected_span   (PsSession     *self,
                                              guint64        span);
guint64       ps_session_get_selected_span   (PsSession     *self);

/* The message (mark) the user chose: an RTL message in the scope table
 * or on the timeline, or PS_SESSION_NO_MARK; "focus-changed" too */
#define PS_SESSION_NO_MARK G_MAXUINT64
void          ps_session_set_selected_mark   (PsSession     *self,
                                              guint64        mark);
guint64       ps_session_get_selected_mark   (PsSession     *self);

/* The measurement the user chose (a point of a CE marker's chart), by
 * its index in the store, or PS_SESSION_NO_MEASUREMENT; "focus-changed"
 * too */
#define PS_SESSION_NO_MEASUREMENT G_MAXUINT64
void          ps_session_set_selected_measurement (PsSession     *self,
                                                   guint64        measurement);
guint64       ps_session_get_selected_measurement (PsSession     *self);

/* Measurements drawn highlighted (by their index in the store: a CE
 * marker's instances in a histogram's buckets), in ascending order; NULL
 * with *n_measurements 0 when there are none.
 * "highlight-measurements-changed" is emitted on a change. */
void          ps_session_set_highlight_measurements (PsSession     *self,
                                                     const guint64 *measurements,
                                                     gsize          n_measurements,
                                                     const char    *description);
const guint64 *ps_session_get_highlight_measurements (PsSession   *self,
                                                      gsize       *n_measurements);
const char   *ps_session_get_highlight_measurements_description (PsSession *self);

/* Highlights the samples whose stack holds an address (a frame without a
 * function name) of the module: what the call tree's row of a module's
 * addresses stands for (PsCallTreeOptions.group_addresses); clears the
 * other highlights */
void          ps_session_highlight_module_addresses (PsSession  *self,
                                                     const char *module,
                                                     const char *description);

/* The highlighted measurements, or the samples of the highlighted
 * function (ps_session_highlight_function () on a run of samples) of the
 * chosen sample source, as points per track: x is the measurement's
 * sequence number and the value its duration, or x is the sample's time
 * and the value 1. A CE marker's measurements are all its first
 * instance's (ps_series_group_leaders ()), as its timeline row charts
 * them. Built in a worker ("notify::highlight-points"); NULL for a track
 * without any. */
PsValueLod   *ps_session_get_highlight_points (PsSession    *self,
                                               guint32       track);
/* What the highlighted points are ("Samples in libc.so.7"), or NULL */
const char   *ps_session_get_highlight_points_description (PsSession *self);
/* The x range of every highlighted point; FALSE when there are none */
gboolean      ps_session_get_highlight_points_extent (PsSession *self,
                                                      gint64    *begin,
                                                      gint64    *end);

/* The sample source (the event) whose samples the views of a sampled run
 * count: the one chosen in the profile view's event chooser, or PS_NONE
 * (the default, and what a source the store lacks reads as) for every
 * event. The timeline's sample lanes and charts, and the highlighted
 * samples of a function, are of that source. "sample-source-changed" is
 * emitted on a change. */
guint32       ps_session_get_sample_source   (PsSession     *self);
void          ps_session_set_sample_source   (PsSession     *self,
                                              guint32        source);

/* The session of an appended log (a CE log's runs, one after another)
 * that a view chose: the views that show time (the timeline) show its
 * rows and its part of the run, the other sessions' rows closed.
 * G_MAXUINT (the default): no one session. "log-session-changed" is
 * emitted on a change. */
guint         ps_session_get_log_session     (PsSession     *self);
void          ps_session_set_log_session     (PsSession     *self,
                                              guint          log_session);

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
