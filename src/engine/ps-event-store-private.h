/* ps-event-store-private.h — what PsStoreBuilder uses to commit batches
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

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
void    _ps_event_store_set_span_context (PsEventStore        *self,
                                             guint64              index,
                                             guint32              context);
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
void    _ps_event_store_append_counter_values (PsEventStore      *self,
                                             const PsCounterValue *values,
                                             guint                n);

G_END_DECLS
