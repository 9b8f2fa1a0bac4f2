/* ps-run-analysis.h — the series of a loaded run, computed off the main thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The series of ps_series_collect() grouped by description (specs:
 * ce-perflog.md §4.5), and each group's instances when they are first
 * asked for (a harness's log registers its markers hundreds of thousands
 * of times, and a table shows those of the groups a person opens); for
 * runs with calls, their call tree (ps-call-tree.h). The views show
 * exactly these numbers, the same ones perfscope-cli prints.
 */
#pragma once

#include <gio/gio.h>

#include "ps-call-tree.h"
#include "ps-event-store.h"
#include "ps-scope-analysis.h"
#include "ps-series.h"

G_BEGIN_DECLS

typedef struct
{
  PsEventStore *store;
  GPtrArray    *groups;      /* PsSeries*, grouped by name */
  /* Only the measurements whose global index lies in [first, last] */
  gboolean      has_range;
  guint64       first;
  guint64       last;
  /* Logs with scopes and messages (RTL): their tree and totals, unfiltered;
   * else NULL */
  PsScopeAnalysis *scopes;
  /* Runs with spans or profiler report rows: their call tree, all threads
   * merged (specs: vs-instrumentation.md §3); NULL for a sampled run,
   * whose view builds the tree of the samples it shows, and else */
  PsCallTree      *call_tree;
  /* Group series of CPU or memory (the CE view's charts) → the changes
   * of their level (GArray of PsCounterChange), found with the series */
  GHashTable      *changes;
  /*< private >*/
  GMutex           members_lock;
  GHashTable      *members;  /* group → GPtrArray of its instances */
} PsRunAnalysis;

#define PS_TYPE_RUN_ANALYSIS (ps_run_analysis_get_type ())

GType          ps_run_analysis_get_type      (void) G_GNUC_CONST;
PsRunAnalysis *ps_run_analysis_new           (PsEventStore        *store);
PsRunAnalysis *ps_run_analysis_ref           (PsRunAnalysis       *self);
void           ps_run_analysis_unref         (PsRunAnalysis       *self);
/* Makes *slot hold analysis (may be NULL) in place of the analysis it
 * held, as g_set_object () does; returns whether it changed */
gboolean       ps_run_analysis_set           (PsRunAnalysis      **slot,
                                              PsRunAnalysis       *analysis);
void           ps_run_analysis_compute_async (PsEventStore        *store,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
PsRunAnalysis *ps_run_analysis_compute_finish (GAsyncResult       *result,
                                               GError            **error);
/* Only the measurement series, of the measurements whose global index lies
 * in [first, last] (a range selected on the timeline); no scopes or call
 * tree. Finish with ps_run_analysis_compute_finish (). */
PsRunAnalysis *ps_run_analysis_new_for_range (PsEventStore        *store,
                                              guint64              first,
                                              guint64              last);
void           ps_run_analysis_compute_range_async (PsEventStore  *store,
                                                    guint64        first,
                                                    guint64        last,
                                                    GCancellable  *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer       user_data);
/* The changes of a CPU or memory group series' level (PsCounterChange),
 * as found with the analysis; NULL for other series */
GArray        *ps_run_analysis_get_changes   (PsRunAnalysis       *self,
                                              const PsSeries      *group);
/* The instance series of one of the groups, in the order of its tracks
 * (ps_series_collect_members ()), made the first time they are asked
 * for and kept with the analysis */
GPtrArray     *ps_run_analysis_get_members   (PsRunAnalysis       *self,
                                              const PsSeries      *group);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsRunAnalysis, ps_run_analysis_unref)

G_END_DECLS
