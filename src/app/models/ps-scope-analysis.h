/* ps-scope-analysis.h — what the RTL view shows, computed off the main thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3 and §5: the per-thread tree of scopes and
 * messages, the totals per scope name (across threads and per thread) and
 * the self time of every scope, all under one include/exclude filter. The
 * numbers are those of ps_series_collect(), which perfscope-cli prints.
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"
#include "ps-scope-tree.h"
#include "ps-series.h"

G_BEGIN_DECLS

typedef struct
{
  PsEventStore *store;
  PsScopeTree  *tree;
  GPtrArray    *series;         /* PsSeries* of kind PS_SERIES_SPAN, across threads */
  GPtrArray    *thread_series;  /* the same, one per scope name and thread */
  gint64       *self_times;     /* per span of the store; a scope's own property,
                                 * so the filter does not change it */
  guint64       n_shown_spans;  /* spans the filter kept */
  guint64       n_shown_marks;  /* marks the filter kept */
} PsScopeAnalysis;

/* A search result: a span or a mark (PsScopeNode) */
typedef struct
{
  GArray  *nodes;      /* PsScopeNode, in file order, at most max_results */
  guint64  n_matches;  /* all of them */
} PsScopeSearch;

#define PS_TYPE_SCOPE_ANALYSIS (ps_scope_analysis_get_type ())

GType            ps_scope_analysis_get_type       (void) G_GNUC_CONST;
/* Runs in any thread. filter may be NULL; it is used, not kept. */
PsScopeAnalysis *ps_scope_analysis_new            (PsEventStore        *store,
                                                   PsScopeFilter       *filter);
/* The same, NULL when cancellable (may be NULL) is cancelled meanwhile */
PsScopeAnalysis *ps_scope_analysis_new_cancellable (PsEventStore       *store,
                                                   PsScopeFilter       *filter,
                                                   GCancellable        *cancellable);
PsScopeAnalysis *ps_scope_analysis_ref            (PsScopeAnalysis     *self);
void             ps_scope_analysis_unref          (PsScopeAnalysis     *self);
/* The filter is taken (transfer full) and freed in the worker thread */
void             ps_scope_analysis_compute_async  (PsEventStore        *store,
                                                   PsScopeFilter       *filter,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
PsScopeAnalysis *ps_scope_analysis_compute_finish (GAsyncResult        *result,
                                                   GError             **error);

/* The shown scopes whose name, and the messages whose text, contain text,
 * without regard to case. Runs in any thread. */
PsScopeSearch   *ps_scope_analysis_search         (PsScopeAnalysis     *self,
                                                   const char          *text,
                                                   guint                max_results,
                                                   GCancellable        *cancellable);
void             ps_scope_analysis_search_async   (PsScopeAnalysis     *self,
                                                   const char          *text,
                                                   guint                max_results,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
PsScopeSearch   *ps_scope_analysis_search_finish  (GAsyncResult        *result,
                                                   GError             **error);
void             ps_scope_search_free             (PsScopeSearch       *search);

/* The measured durations of a span series of this analysis, in seconds
 * (GArray of double): its values, or when they were not kept or
 * span_indexes is given, those of the store's spans of its name and
 * context on its threads in store order, with their indexes in the store
 * (GArray of guint64) in *span_indexes. As many as series->stats.count. */
GArray          *ps_scope_analysis_get_durations  (PsScopeAnalysis     *self,
                                                   const PsSeries      *series,
                                                   GArray             **span_indexes);

/* Why calls of a span series were left out of its statistics
 * (rtl-logfile.md §4.3): each call is counted under its first reason */
typedef struct
{
  guint64 unterminated;      /* no end record */
  guint64 closed_by_parent;  /* a logical scope still open when its parent ended */
  guint64 clock_back;        /* the clock went back inside */
  guint64 negative;          /* ended before it began */
} PsScopeExclusions;

/* Counts the calls of a span series of this analysis that
 * ps_scope_analysis_get_durations() leaves out, by reason. Runs in any
 * thread. */
void             ps_scope_analysis_count_exclusions (PsScopeAnalysis   *self,
                                                     const PsSeries    *series,
                                                     PsScopeExclusions *exclusions);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsScopeAnalysis, ps_scope_analysis_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsScopeSearch, ps_scope_search_free)

G_END_DECLS
