/* ps-export-speedscope.h — a run as a speedscope profile
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file format of https://www.speedscope.app/file-format-schema.json:
 * "$schema", "shared": {"frames": [{"name", "file"?}]} and "profiles":
 *  - spans (RTL scopes, instrumented calls): one "evented" profile per
 *    thread in nanoseconds, an "O" and a "C" event per span at its begin
 *    and end; a span that outlasts its parent is cut at the parent's end,
 *    so that the events nest as the format requires;
 *  - sampled call stacks: one "sampled" profile per thread (and per sample
 *    source when there are several), unit "none", the samples of each
 *    distinct stack merged into one with their summed weight;
 *  - profiler reports: one "sampled" profile of the top-down call tree,
 *    each call path weighted by its elapsed exclusive value.
 * The output is written as it is made: the profiles first, the frames
 * they name after them.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

/* Whether the run has something a speedscope profile holds: spans,
 * samples or a report with a top-down call tree */
gboolean ps_export_speedscope_can_export (PsEventStore  *store);
/* name: the profile group's name (e.g. the file's base name), or NULL.
 * Only for a run that ps_export_speedscope_can_export () accepts; callers
 * tell the user why another run has nothing to export. Profile names are
 * file content, in English whatever the locale. FALSE with an error when
 * the stream cannot be written. */
gboolean ps_export_speedscope            (PsEventStore  *store,
                                          const char    *name,
                                          GOutputStream *stream,
                                          GCancellable  *cancellable,
                                          GError       **error);

G_END_DECLS
