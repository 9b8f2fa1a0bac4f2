/* ps-event-store-private.h — what PsStoreBuilder uses to commit batches
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

typedef struct _PsSpanTotals PsSpanTotals;  /* ps-span-totals.h */

/* For parsers that learn a track's name after its first event */
void    _ps_event_store_set_track_name      (PsEventStore        *self,
                                             guint32              track,
                                             guint32              name,
                                             guint32              category);
/* Measurements must arrive in index order, starting at the store's count. */
void    _ps_event_store_append_measurements (PsEventStore        *self,
                                             const PsMeasurement *measurements,
                                             guint                n);
guint32 _ps_event_store_add_other           (PsEventStore        *self,
                                             guint32              kind_name,
                                             guint32              raw_value);
void    _ps_event_store_append_spans        (PsEventStore        *self,
                                             const PsSpan        *spans,
                                             guint                n);
/* Appending in place: the memory after the last span (PsSpan) or mark
 * (PsMark), *n_room of them, is filled by the caller; commit makes the
 * first n of them the store's. Nothing else appends in between. */
gpointer _ps_event_store_get_span_room      (PsEventStore        *self,
                                             guint               *n_room);
void    _ps_event_store_commit_spans        (PsEventStore        *self,
                                             guint                n);
gpointer _ps_event_store_get_mark_room      (PsEventStore        *self,
                                             guint               *n_room);
void    _ps_event_store_commit_marks        (PsEventStore        *self,
                                             guint                n);
void    _ps_event_store_set_span_context (PsEventStore        *self,
                                             guint64              index,
                                             guint32              context);
/* The totals per scope name of the spans a parser read and did not keep
 * (finished, not to be changed afterwards); the store owns them, and
 * ps_event_store_get_spans_summarized () is TRUE from then on */
void    _ps_event_store_set_span_totals     (PsEventStore        *self,
                                             PsSpanTotals        *totals);
PsSpanTotals *_ps_event_store_get_span_totals (PsEventStore      *self);
/* Writable access to a committed span or mark, for parsers that learn
 * the end of a span (or the rest of a message) later. */
PsSpan *_ps_event_store_edit_span           (PsEventStore        *self,
                                             guint64              index);
PsMark *_ps_event_store_edit_mark           (PsEventStore        *self,
                                             guint64              index);
void    _ps_event_store_append_marks        (PsEventStore        *self,
                                             const PsMark        *marks,
                                             guint                n);
void    _ps_event_store_append_samples      (PsEventStore        *self,
                                             const PsSample      *samples,
                                             guint                n);
/* raws: NULL when none of the values is flagged PS_COUNTER_FLAG_RAW */
void    _ps_event_store_append_counter_values (PsEventStore      *self,
                                             const PsCounterValue *values,
                                             const PsCounterRaw  *raws,
                                             guint                n);

/* Asks for the index slot where the stack (parent, frame) is looked for
 * or placed, ahead of ps_event_store_intern_stack (): a parser that knows
 * the stacks it makes next overlaps their cache misses. Only a hint. */
void    _ps_event_store_prefetch_stack      (PsEventStore        *self,
                                             guint32              parent,
                                             guint32              frame);

/* What the native format (ps-native-writer.c, ps-format-native.c) saves
 * and restores besides the public accessors */
guint    _ps_event_store_get_n_strings       (PsEventStore        *self);
/* Whether the string is the one interning its text gives */
gboolean _ps_event_store_string_is_interned  (PsEventStore        *self,
                                             guint32              id);
guint    _ps_event_store_get_n_others        (PsEventStore        *self);
void     _ps_event_store_get_other_ids       (PsEventStore        *self,
                                             guint32              other,
                                             guint32             *kind_name,
                                             guint32             *raw_value);
guint    _ps_event_store_get_n_all_tick_rates (PsEventStore       *self);
void     _ps_event_store_get_tick_rate_entry (PsEventStore        *self,
                                             guint                index,
                                             guint32             *session,
                                             guint64             *from_index,
                                             double              *ticks_per_second);
guint    _ps_event_store_get_n_span_contexts (PsEventStore        *self);
void     _ps_event_store_get_span_context_entry (PsEventStore     *self,
                                             guint                index,
                                             guint64             *span,
                                             guint32             *context);
/* A session as it was, first measurement included */
guint32  _ps_event_store_restore_session     (PsEventStore        *self,
                                             const PsSessionInfo *info);
guint16  _ps_event_store_restore_sample_source (PsEventStore      *self,
                                             guint32              name,
                                             guint32              unit,
                                             guint64              rate);
/* Counter series by track, NULL past the last one */
guint    _ps_event_store_get_n_counter_series (PsEventStore       *self);
const PsCounterSeries *_ps_event_store_get_counter_series (PsEventStore *self,
                                             guint32              track);
/* A copy of series (its buckets included) for the track */
void     _ps_event_store_restore_counter_series (PsEventStore     *self,
                                             guint32              track,
                                             const PsCounterSeries *series);
/* Readings that were kept, appended without touching statistics,
 * overviews or the limit */
void     _ps_event_store_restore_counter_values (PsEventStore     *self,
                                             const PsCounterValue *values,
                                             const PsCounterRaw  *raws,
                                             guint                n);
void     _ps_event_store_restore_totals      (PsEventStore        *self,
                                             guint64              n_counter_readings,
                                             guint                counter_stride,
                                             guint64              n_warnings_raised);
/* Parsers that add many readings at a time may update the series
 * themselves (ps_counter_series_add_value ()), in the order the readings
 * would have reached _ps_event_store_append_counter_values (), and hand
 * over only the readings kept. The series of tracks 0 … n_tracks − 1,
 * valid until readings of a higher track are added: */
PsCounterSeries *_ps_event_store_edit_counter_series (PsEventStore  *self,
                                             guint32              n_tracks);
/* How many more readings are kept before the store thins them (G_MAXUINT64:
 * no limit), and the stride until then: a reading is kept when the
 * n_readings of its series was a multiple of it before the reading */
guint64 _ps_event_store_get_counter_room    (PsEventStore        *self,
                                             guint               *stride);
/* n_readings readings whose series were updated, of which values are the
 * ones kept (at most the room), with their raws or NULL */
void    _ps_event_store_append_kept_counter_values (PsEventStore *self,
                                             const PsCounterValue *values,
                                             const PsCounterRaw  *raws,
                                             guint                n_values,
                                             guint64              n_readings);
/* After a load: lets go of memory kept ready for appends to come */
void    _ps_event_store_trim                (PsEventStore        *self);

G_END_DECLS
