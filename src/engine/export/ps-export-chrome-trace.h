/* ps-export-chrome-trace.h — a run as Chrome trace event JSON
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON object form of the Trace Event Format, which chrome://tracing
 * and Perfetto open: {"traceEvents": [...], "displayTimeUnit": "ms"},
 * times in microseconds from the run's origin.
 *  - "M" metadata events name every process (process_name) and thread
 *    (thread_name) that has events; a thread without a process track
 *    takes the run's process id (RTL: "process_id") or 1;
 *  - a span is an "X" complete event (ts, dur ≥ 0, cat "scope" or
 *    "logical", args: its context and flags); a span that sticks out of
 *    the span of its thread it began in (it ends later, or a clock that
 *    went back puts its begin earlier) is cut to that span (args:
 *    clipped, and its own times in begin_us and end_us), so that the
 *    events of a thread nest as viewers expect;
 *  - a mark is an "i" instant event of its thread ("s": "t");
 *  - a counter reading with a value is a "C" event of the process,
 *    named by counter, instance and object;
 *  - timed call-stack samples go to "samples" (tid, ts, name: the
 *    sample source, sf, weight) with their stacks in "stackFrames" (one
 *    entry per stack node: name, category: the module, parent), which
 *    chrome://tracing reads; samples without a time (pmcstat -G) and
 *    measurements without one (CE PerfLog) have no place in a trace and
 *    are left out.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

/* Events of the run that a trace holds */
typedef struct
{
  guint64 spans;
  guint64 marks;
  guint64 counter_values;
  guint64 samples;
  guint64 untimed_samples;  /* left out */
} PsChromeTraceCounts;

/* What ps_export_chrome_trace () would write; TRUE when anything */
gboolean ps_export_chrome_trace_count (PsEventStore        *store,
                                       PsChromeTraceCounts *counts);
/* process_name: the name of a process without a track of its own (e.g.
 * the file's base name), or NULL. Only for a run that
 * ps_export_chrome_trace_count () accepts; callers tell the user why
 * another run has nothing to export. FALSE with an error when the stream
 * cannot be written. */
gboolean ps_export_chrome_trace       (PsEventStore        *store,
                                       const char          *process_name,
                                       GOutputStream       *stream,
                                       GCancellable        *cancellable,
                                       GError             **error);

G_END_DECLS
