/* ps-fuzz.h — one input through one parser, as the fuzzers and the
 * regression test give it
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 12 ("Fuzzing"). A target is a format's name (ps_format_lookup ())
 * or "perflib-block", the PerfLib V2 block decoders on their own.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The targets, NULL-terminated */
const char * const *ps_fuzz_targets (void);
gboolean            ps_fuzz_has_target (const char   *target);

/* Makes criticals and warnings fatal: a parser never logs them for bad
 * input, so one is a bug */
void                ps_fuzz_init    (void);

/* Parses the input whole, then again in pieces cut where a generator
 * seeded by the input says, and analyses what was read. Aborts when the
 * two readings disagree; a memory error is the sanitizers' to find. */
void                ps_fuzz_run     (const char   *target,
                                     const guint8 *data,
                                     gsize         size);

G_END_DECLS
