/* ps-store-builder.h — how parsers and collectors append to a store
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Events are collected in a small batch and committed to the store by
 * ps_store_builder_flush() (called automatically when the batch is full
 * and by the loader at the end). A builder is used from one thread.
 */
#pragma once

#include <stdarg.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

typedef struct _PsStoreBuilder PsStoreBuilder;
typedef struct _PsSpanTotals PsSpanTotals;  /* ps-span-totals.h */

PsStoreBuilder *ps_store_builder_new              (PsEventStore   *store);
void            ps_store_builder_free             (PsStoreBuilder *self);
PsEventStore   *ps_store_builder_get_store        (PsStoreBuilder *self);

/* Commit the pending batch; returns the number of events committed. */
guint           ps_store_builder_flush            (PsStoreBuilder *self);

/* Every event in the store and pending: measurements, spans, marks,
 * samples and counter readings (ps_loader's limit counts these) */
guint64         ps_store_builder_get_n_events     (PsStoreBuilder *self);

/* Measurements return their global event index. */
guint64         ps_store_builder_get_n_measurements (PsStoreBuilder *self);
guint64         ps_store_builder_add_duration     (PsStoreBuilder *self,
                                                   guint32         track,
                                                   guint64         line,
                                                   gint64          ticks,
                                                   guint8          flags);
guint64         ps_store_builder_add_cpu          (PsStoreBuilder *self,
                                                   guint32         track,
                                                   guint64         line,
                                                   double          percent,
                                                   guint8          flags);
guint64         ps_store_builder_add_memory       (PsStoreBuilder *self,
                                                   guint32         track,
                                                   guint64         line,
                                                   guint64         bytes,
                                                   guint8          flags);
/* A memory figure given with a fraction (sets PS_MEASURE_FLAG_FRACTIONAL). */
guint64         ps_store_builder_add_memory_number (PsStoreBuilder *self,
                                                   guint32         track,
                                                   guint64         line,
                                                   double          value,
                                                   guint8          flags);
guint64         ps_store_builder_add_other        (PsStoreBuilder *self,
                                                   guint32         track,
                                                   guint64         line,
                                                   const char     *kind_name,
                                                   gssize          kind_length,
                                                   const char     *raw_value,
                                                   gssize          raw_length);

/* Spans and marks return their index in the store. A span's end, or a
 * mark's text, may be completed later through the edit functions, whether
 * the event is still in the batch or already committed. */
guint64         ps_store_builder_add_span         (PsStoreBuilder *self,
                                                   const PsSpan   *span);
guint64         ps_store_builder_get_n_spans      (PsStoreBuilder *self);
PsSpan         *ps_store_builder_edit_span        (PsStoreBuilder *self,
                                                   guint64         index);
void            ps_store_builder_set_span_context (PsStoreBuilder *self,
                                                   guint64         index,
                                                   guint32         context);
/* Hands the store the totals of the spans read, gathered as they ended
 * instead of being added (finished; the store owns them then), after
 * committing the batch: see ps_event_store_get_spans_summarized () */
void            ps_store_builder_set_span_totals  (PsStoreBuilder *self,
                                                   PsSpanTotals   *totals);
guint64         ps_store_builder_add_mark         (PsStoreBuilder *self,
                                                   const PsMark   *mark);
PsMark         *ps_store_builder_edit_mark        (PsStoreBuilder *self,
                                                   guint64         index);
void            ps_store_builder_add_sample       (PsStoreBuilder *self,
                                                   const PsSample *sample);
void            ps_store_builder_add_counter_value (PsStoreBuilder *self,
                                                   const PsCounterValue *value);
/* A reading with what its provider reported (raw: NULL for none) */
void            ps_store_builder_add_raw_counter_value (PsStoreBuilder *self,
                                                   const PsCounterValue *value,
                                                   const PsCounterRaw *raw);

/* Report rows (profiler reports) go to the store at once: a row's index
 * is its children's parent. Returns that index. */
guint32         ps_store_builder_add_report_row   (PsStoreBuilder *self,
                                                   const PsReportRow *row);

/* Where a warning points: a line of a text format (0: none), a byte
 * offset (PS_NO_POSITION: none), and the session (PS_NONE: the file) */
typedef struct
{
  guint64 line;
  guint64 offset;
  guint32 session;
} PsWarningPlace;

/* printf-style warning; the message should be translated by the caller's
 * format. Parsers warn through ps_parse_warn_at_line () and
 * ps_parse_warn_at_offset () (ps-parse-kit.h). */
void            ps_store_builder_warn             (PsStoreBuilder       *self,
                                                   PsSeverity            severity,
                                                   const char           *code,
                                                   const PsWarningPlace *place,
                                                   const char           *format,
                                                   ...) G_GNUC_PRINTF (5, 6);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsStoreBuilder, ps_store_builder_free)

G_END_DECLS
