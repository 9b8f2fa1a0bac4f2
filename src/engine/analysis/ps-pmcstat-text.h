/* ps-pmcstat-text.h — sampled call stacks as pmcstat -G writes them
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.4 (the callgraph text format).
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

/* pmcstat's default depth (-z) */
#define PS_PMCSTAT_DEFAULT_DEPTH 16

/* The deepest callgraph written: the longest call chain a FreeBSD kernel
 * records (kern.hwpmc.callchaindepth, hwpmc-pmclog.md §9.1). Each line
 * is indented by its depth, so a deeper one would grow with the square of
 * the depth of the chains it came from. */
#define PS_PMCSTAT_MAX_DEPTH 512

/* The callgraph of every sample source with samples, one "@ NAME [N
 * samples]" block each, in the layout of pmcstat -G: for each function
 * that held the sampled pc, its callers (up to `depth` frames in all, 0
 * for the default, at most PS_PMCSTAT_MAX_DEPTH), each line with its
 * percentage of the line above it. A name or an image path longer than
 * PS_UTIL_NAME_MAX_BYTES bytes is cut (ps_util_append_cut_name ()): each
 * is written once per call path.
 * Samples whose sampled pc fell in no mapping ([kernel], [unknown]) are
 * left out of the blocks and of N, like pmcstat leaves them; so are frames
 * of no mapping in the callers. */
GString *ps_pmcstat_text_build (PsEventStore   *store,
                                guint           depth);
/* The same, written to a stream as it is made; wrote_any (may be NULL)
 * tells whether any source had samples */
gboolean ps_pmcstat_text_write (PsEventStore   *store,
                                guint           depth,
                                GOutputStream  *stream,
                                gboolean       *wrote_any,
                                GCancellable   *cancellable,
                                GError        **error);

G_END_DECLS
