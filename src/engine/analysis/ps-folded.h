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
 * "module+0xADDRESS" (the module's base name) or "0xADDRESS", cut after
 * PS_UTIL_NAME_MAX_BYTES bytes with "…" (ps-util.h). Characters that
 * would break a line apart (';', CR, LF) become '_'. Frames that print
 * alike (the same function in two modules) share one line.
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
/* A distinct call stack of samples with their summed weight */
typedef struct
{
  guint32 stack;
  guint32 kernel;   /* 1 for kernel-mode samples when split by mode, else 0 */
  guint64 weight;
} PsStackWeight;

/* TRUE when a sample is to be counted */
typedef gboolean (*PsSampleFilterFunc) (const PsSample *sample,
                                        gpointer        user_data);

/* The distinct stacks of the samples `filter` accepts (every sample when
 * NULL), each with the summed weight of its samples; with `split_kernel`,
 * one entry per stack and mode. Runs have millions of samples but few
 * distinct stacks, so callers walk each stack once. Ordered by stack id,
 * user mode first: the same whatever the order of the samples. Entries
 * whose samples all weigh 0 are kept; samples whose stack id is not in
 * the store are left out. Returns an array of PsStackWeight, or NULL
 * when cancellable (may be NULL), looked at every 65 536 samples, was
 * cancelled. */
GArray   *ps_folded_sum_stacks  (PsEventStore      *store,
                                 gboolean           split_kernel,
                                 PsSampleFilterFunc filter,
                                 gpointer           user_data,
                                 GCancellable      *cancellable);

/* The same entries, in the same order, kept in 8 bytes an entry and a
 * bit per stack node (and mode): which stacks have samples is a bitmap,
 * and their weights follow one another in its order. For a caller that
 * walks them once while it makes much else (a call tree): at 1 GiB of
 * pmclog, 2.5 million entries take 20 MB instead of 40, and the sum
 * needs no index of stack ids (58 MB by stack and mode). */
typedef struct
{
  guint    n_modes;   /* 2 when split by mode, else 1 */
  gsize    n_bits;    /* stack nodes × n_modes */
  guint64 *present;   /* bit stack × n_modes + kernel: the entry exists */
  guint64 *weights;   /* an entry's, in the order of the bits */
  gsize    n_entries;
} PsStackWeights;

PsStackWeights *ps_stack_weights_new  (PsEventStore      *store,
                                       gboolean           split_kernel,
                                       PsSampleFilterFunc filter,
                                       gpointer           user_data,
                                       GCancellable      *cancellable);
void            ps_stack_weights_free (PsStackWeights    *weights);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsStackWeights, ps_stack_weights_free)

/* Walks the entries in order: init, then next until it returns FALSE */
typedef struct
{
  const PsStackWeights *weights;
  gsize                 word;
  guint64               bits;    /* the word's bits not yet given */
  gsize                 entry;
} PsStackWeightsIter;

void     ps_stack_weights_iter_init (PsStackWeightsIter   *iter,
                                     const PsStackWeights *weights);
gboolean ps_stack_weights_iter_next (PsStackWeightsIter   *iter,
                                     PsStackWeight        *entry);

/* Appends the folded text of one frame: its name cut as
 * ps_folded_append_frame_name () cuts it, ';', CR and LF made '_' */
void      ps_folded_append_frame (PsEventStore  *store,
                                 guint32         frame,
                                 GString        *out);
/* Appends the name of a frame as ps_event_store_append_frame_name ()
 * gives it, cut as ps_util_append_cut_name () cuts a name: for outputs
 * that write a frame once per stack or call path */
void      ps_folded_append_frame_name (PsEventStore *store,
                                       guint32       frame,
                                       GString      *out);

G_END_DECLS
