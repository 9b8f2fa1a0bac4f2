/* ps-span-totals.h — spans summed up per scope name, as they end
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The totals per scope name of docs/cli.md "stats" and rtl-logfile.md
 * §4.3 and §5: one group per session, scope name and context (and thread,
 * if asked), with the statistics of its measured durations, their self
 * time and the spans left out. ps-series.c fills one by walking a store;
 * the RTL parser fills one as the scopes end when it keeps only the totals
 * (PS_FORMAT_OPTION_TOTALS_ONLY), and the store keeps it instead of the
 * spans. Whole-millisecond durations give the same totals in any order.
 */
#pragma once

#include "ps-event-store.h"
#include "ps-stats.h"

G_BEGIN_DECLS

/* A span with everything about it final */
typedef struct
{
  guint64 index;        /* in the store */
  gint64  duration_ns;  /* end − begin */
  gint64  self_ns;      /* the duration less its measured children's */
  guint32 session;
  guint32 track;
  guint32 name;         /* string id */
  guint32 context;      /* logical scopes: string id of their context, else 0 */
  guint16 flags;        /* PsSpanFlags */
} PsEndedSpan;

typedef enum
{
  PS_SPAN_TOTALS_PER_THREAD  = 1 << 0,  /* a group per thread as well */
  PS_SPAN_TOTALS_KEEP_VALUES = 1 << 1,  /* keep every duration and its span */
} PsSpanTotalsFlags;

typedef struct
{
  guint32  session;
  guint32  track;        /* PS_NONE unless per thread */
  guint32  name;         /* string id */
  guint32  context;      /* string id; 0 for physical scopes */
  gboolean logical;      /* opened by a message (its first span was) */
  guint64  first_span;   /* the lowest index among its spans */
  guint32 *tracks;       /* the threads it occurred on; ascending once finished */
  guint    n_tracks;
  guint64  n_excluded;   /* spans not measured (ps_span_is_measured()) */
  guint64  n_flagged;    /* measured ones whose end was repaired */
  gint64   self_ns;      /* self time of the measured ones (saturating sum) */
  PsStats  stats;        /* their durations in seconds; once finished */
  /* KEEP_VALUES only: each measured duration in seconds and its span's
   * index, in the order they were added */
  GArray  *values;       /* double */
  GArray  *indexes;      /* guint64 */
} PsSpanGroup;

typedef struct _PsSpanTotals PsSpanTotals;

PsSpanTotals      *ps_span_totals_new          (PsSpanTotalsFlags   flags);
void               ps_span_totals_free         (PsSpanTotals       *self);
void               ps_span_totals_add          (PsSpanTotals       *self,
                                                const PsEndedSpan  *span);
/* The same in two steps, for callers that know which spans share a
 * group: the group of a span (made on first sight), and adding a span to
 * the group a span of the same key was given */
guint              ps_span_totals_lookup       (PsSpanTotals       *self,
                                                const PsEndedSpan  *span);
void               ps_span_totals_add_to       (PsSpanTotals       *self,
                                                guint               group,
                                                const PsEndedSpan  *span);
/* Computes every group's statistics and lets go of what they were computed
 * from (unless kept). FALSE if cancellable (may be NULL) was cancelled
 * meanwhile; the statistics are incomplete then. Nothing may be added
 * afterwards. */
gboolean           ps_span_totals_finish       (PsSpanTotals       *self,
                                                GCancellable       *cancellable);
gboolean           ps_span_totals_is_finished  (PsSpanTotals       *self);
/* Groups in the order they were first seen */
guint              ps_span_totals_get_n_groups (PsSpanTotals       *self);
const PsSpanGroup *ps_span_totals_get_group    (PsSpanTotals       *self,
                                                guint               index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsSpanTotals, ps_span_totals_free)

G_END_DECLS
