/* ps-folded.h — folded call stacks ("frame;frame;frame count")
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text flame-graph tools read (Brendan Gregg's FlameGraph, inferno):
 * one line per distinct call stack, its frames outermost first separated
 * by ';', then a space and the summed weight of the samples that had that
 * stack. Lines are sorted by their bytes, so the output is deterministic.
 *
 * A frame's text is its function name; a frame without one is
 * "module+0xADDRESS" (the module's base name) or "0xADDRESS". Characters
 * that would break a line apart (';', CR, LF) become '_'. Frames that
 * print alike (the same function in two modules) share one line.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

/* Pass as `source` for the samples of every sample source */
#define PS_FOLDED_ALL_SOURCES G_MAXUINT

/* The folded stacks of the samples of a store, limited to one sample
 * source (or PS_FOLDED_ALL_SOURCES) and one track (or PS_NONE for all).
 * Samples with an empty stack are left out. */
GString  *ps_folded_build       (PsEventStore   *store,
                                 guint           source,
                                 guint32         track);
/* The same, written to a stream; returns the number of lines in
 * n_lines (may be NULL). */
gboolean  ps_folded_write       (PsEventStore   *store,
                                 guint           source,
                                 guint32         track,
                                 GOutputStream  *stream,
                                 guint64        *n_lines,
                                 GCancellable   *cancellable,
                                 GError        **error);
/* Appends the folded text of one frame */
void      ps_folded_append_frame (PsEventStore  *store,
                                 guint32         frame,
                                 GString        *out);

G_END_DECLS
