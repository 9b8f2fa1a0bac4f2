/* ps-store-builder.c — batched appends to an event store
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "ps-store-builder.h"
#include "ps-event-store-private.h"

#define BATCH_SIZE 4096

/* Measurements are read again when the batch is committed: a batch this
 * size (32 KiB) is still in the first-level cache then */
#define MEASUREMENT_BATCH_SIZE 1024
#define COUNTER_BATCH_SIZE 256

/* Spans and marks are written in place, in the store's memory after its
 * last one (_ps_event_store_get_span_room ()), and committed with the
 * other batches: n of the room's size are written */
typedef struct
{
  guint64  n_committed;
  guint8  *memory;       /* NULL until room is asked for */
  guint    size;
  guint    n;
} Room;

typedef gpointer (*RoomFunc)   (PsEventStore *store,
                                guint        *n_room);
typedef void     (*CommitFunc) (PsEventStore *store,
                                guint         n);

struct _PsStoreBuilder
{
  PsEventStore  *store;
  guint64        n_committed;   /* measurements already in the store */

  PsMeasurement  measurements[MEASUREMENT_BATCH_SIZE];
  guint          n_measurements;

  Room           spans;
  Room           marks;

  GArray        *samples;
  /* A capture of thousands of counters adds a reading every few
   * nanoseconds: plain arrays, no GArray call per reading, small enough
   * (6 KiB, and 4 KiB of raws) to stay in the first-level cache until they
   * are committed */
  PsCounterValue counter_values[COUNTER_BATCH_SIZE];
  PsCounterRaw   counter_raws[COUNTER_BATCH_SIZE];  /* read only when has_raws */
  guint          n_counter_values;
  gboolean       has_raws;        /* a reading of the batch has raws */
};

PsStoreBuilder *
ps_store_builder_new (PsEventStore *store)
{
  PsStoreBuilder *self;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = g_new0 (PsStoreBuilder, 1);
  self->store = g_object_ref (store);
  self->n_committed = ps_event_store_get_n_measurements (store);
  self->spans.n_committed = ps_event_store_get_n_spans (store);
  self->marks.n_committed = ps_event_store_get_n_marks (store);
  self->samples = g_array_new (FALSE, FALSE, sizeof (PsSample));

  return self;
}

void
ps_store_builder_free (PsStoreBuilder *self)
{
  if (self == NULL)
    return;

  ps_store_builder_flush (self);
  _ps_event_store_trim (self->store);
  g_clear_object (&self->store);
  g_array_unref (self->samples);
  g_free (self);
}

PsEventStore *
ps_store_builder_get_store (PsStoreBuilder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->store;
}

static void
room_commit (PsStoreBuilder *self,
             Room           *room,
             CommitFunc      commit)
{
  if (room->n > 0)
    commit (self->store, room->n);
  room->n_committed += room->n;
  /* Room is asked for again by the next one */
  room->memory = NULL;
  room->size = 0;
  room->n = 0;
}

/* The place of the next element, whose index is room->n_committed +
 * room->n before the call */
static inline gpointer
room_next (PsStoreBuilder *self,
           Room           *room,
           gsize           element_size,
           RoomFunc        get_room)
{
  /* Committed at the end of the store's chunk, or with a full batch */
  if (G_UNLIKELY (room->n == room->size))
    {
      if (room->n > 0)
        ps_store_builder_flush (self);
      room->memory = get_room (self->store, &room->size);
      room->size = MIN (room->size, BATCH_SIZE);
    }
  return room->memory + (gsize) room->n++ * element_size;
}

/* An element written but not committed yet */
static gpointer
room_edit (Room    *room,
           guint64  index,
           gsize    element_size)
{
  g_return_val_if_fail (index - room->n_committed < room->n, NULL);
  return room->memory + (gsize) (index - room->n_committed) * element_size;
}

static void
flush_measurements (PsStoreBuilder *self)
{
  if (self->n_measurements == 0)
    return;

  /* The store flags each track with the kinds it receives */
  _ps_event_store_append_measurements (self->store, self->measurements, self->n_measurements);
  self->n_committed += self->n_measurements;
  self->n_measurements = 0;
}

guint
ps_store_builder_flush (PsStoreBuilder *self)
{
  guint n;

  g_return_val_if_fail (self != NULL, 0);

  n = self->n_measurements + self->spans.n + self->marks.n
      + self->samples->len + self->n_counter_values;

  flush_measurements (self);
  room_commit (self, &self->spans, _ps_event_store_commit_spans);
  room_commit (self, &self->marks, _ps_event_store_commit_marks);
  if (self->samples->len > 0)
    _ps_event_store_append_samples (self->store, (const PsSample *)(gpointer)self->samples->data, self->samples->len);
  if (self->n_counter_values > 0)
    _ps_event_store_append_counter_values (self->store, self->counter_values,
                                           self->has_raws ? self->counter_raws : NULL, self->n_counter_values);
  g_array_set_size (self->samples, 0);
  self->n_counter_values = 0;
  self->has_raws = FALSE;

  return n;
}

guint64
ps_store_builder_get_n_events (PsStoreBuilder *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_committed + self->n_measurements
         + self->spans.n_committed + self->spans.n
         + self->marks.n_committed + self->marks.n
         + ps_event_store_get_n_samples (self->store) + self->samples->len
         + ps_event_store_get_n_counter_values (self->store) + self->n_counter_values;
}

guint64
ps_store_builder_get_n_measurements (PsStoreBuilder *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_committed + self->n_measurements;
}

static inline PsMeasurement *
next_measurement (PsStoreBuilder *self,
                  guint32         track,
                  guint64         line,
                  PsMeasureKind   kind,
                  guint8          flags)
{
  PsMeasurement *m;

  if G_UNLIKELY (self->n_measurements == MEASUREMENT_BATCH_SIZE)
    flush_measurements (self);

  m = &self->measurements[self->n_measurements];
  m->index = self->n_committed + self->n_measurements;
  m->line = line;
  m->track = track;
  m->kind = kind;
  m->flags = flags;
  self->n_measurements++;

  return m;
}

guint64
ps_store_builder_add_duration (PsStoreBuilder *self,
                               guint32         track,
                               guint64         line,
                               gint64          ticks,
                               guint8          flags)
{
  PsMeasurement *m = next_measurement (self, track, line, PS_MEASURE_DURATION, flags);
  m->value.ticks = ticks;
  return m->index;
}

guint64
ps_store_builder_add_cpu (PsStoreBuilder *self,
                          guint32         track,
                          guint64         line,
                          double          percent,
                          guint8          flags)
{
  PsMeasurement *m = next_measurement (self, track, line, PS_MEASURE_CPU, flags);
  m->value.number = percent;
  return m->index;
}

guint64
ps_store_builder_add_memory (PsStoreBuilder *self,
                             guint32         track,
                             guint64         line,
                             guint64         bytes,
                             guint8          flags)
{
  PsMeasurement *m = next_measurement (self, track, line, PS_MEASURE_MEMORY,
                                       flags & ~PS_MEASURE_FLAG_FRACTIONAL);
  m->value.bytes = bytes;
  return m->index;
}

guint64
ps_store_builder_add_memory_number (PsStoreBuilder *self,
                                    guint32         track,
                                    guint64         line,
                                    double          value,
                                    guint8          flags)
{
  PsMeasurement *m = next_measurement (self, track, line, PS_MEASURE_MEMORY,
                                       flags | PS_MEASURE_FLAG_FRACTIONAL);
  m->value.number = value;
  return m->index;
}

guint64
ps_store_builder_add_other (PsStoreBuilder *self,
                            guint32         track,
                            guint64         line,
                            const char     *kind_name,
                            gssize          kind_length,
                            const char     *raw_value,
                            gssize          raw_length)
{
  guint32 kind_id = ps_event_store_intern (self->store, kind_name, kind_length);
  guint32 raw_id = ps_event_store_intern (self->store, raw_value, raw_length);
  PsMeasurement *m = next_measurement (self, track, line, PS_MEASURE_OTHER, 0);

  m->value.other = _ps_event_store_add_other (self->store, kind_id, raw_id);
  return m->index;
}

#define ADD_STRUCT(array, item)                          \
  G_STMT_START {                                         \
    g_array_append_vals ((array), (item), 1);            \
    if ((array)->len >= BATCH_SIZE)                      \
      ps_store_builder_flush (self);                     \
  } G_STMT_END

guint64
ps_store_builder_add_span (PsStoreBuilder *self,
                           const PsSpan   *span)
{
  guint64 index = self->spans.n_committed + self->spans.n;
  PsSpan *next = room_next (self, &self->spans, sizeof (PsSpan), _ps_event_store_get_span_room);

  *next = *span;
  return index;
}

guint64
ps_store_builder_get_n_spans (PsStoreBuilder *self)
{
  return self->spans.n_committed + self->spans.n;
}

PsSpan *
ps_store_builder_edit_span (PsStoreBuilder *self,
                            guint64         index)
{
  if (index >= self->spans.n_committed)
    return room_edit (&self->spans, index, sizeof (PsSpan));
  return _ps_event_store_edit_span (self->store, index);
}

void
ps_store_builder_set_span_context (PsStoreBuilder *self,
                                   guint64         index,
                                   guint32         context)
{
  _ps_event_store_set_span_context (self->store, index, context);
}

void
ps_store_builder_set_span_totals (PsStoreBuilder *self,
                                  PsSpanTotals   *totals)
{
  ps_store_builder_flush (self);
  _ps_event_store_set_span_totals (self->store, totals);
}

guint64
ps_store_builder_add_mark (PsStoreBuilder *self,
                           const PsMark   *mark)
{
  guint64 index = self->marks.n_committed + self->marks.n;
  PsMark *next = room_next (self, &self->marks, sizeof (PsMark), _ps_event_store_get_mark_room);

  *next = *mark;
  return index;
}

PsMark *
ps_store_builder_edit_mark (PsStoreBuilder *self,
                            guint64         index)
{
  if (index >= self->marks.n_committed)
    return room_edit (&self->marks, index, sizeof (PsMark));
  return _ps_event_store_edit_mark (self->store, index);
}

void
ps_store_builder_add_sample (PsStoreBuilder *self,
                             const PsSample *sample)
{
  ADD_STRUCT (self->samples, sample);
}

void
ps_store_builder_add_counter_value (PsStoreBuilder       *self,
                                    const PsCounterValue *value)
{
  ps_store_builder_add_raw_counter_value (self, value, NULL);
}

void
ps_store_builder_add_raw_counter_value (PsStoreBuilder       *self,
                                        const PsCounterValue *value,
                                        const PsCounterRaw   *raw)
{
  /* The raws of a batch are filled in only from its first reading with any */
  if (raw != NULL && !self->has_raws)
    {
      memset (self->counter_raws, 0, self->n_counter_values * sizeof (PsCounterRaw));
      self->has_raws = TRUE;
    }
  if (self->has_raws)
    self->counter_raws[self->n_counter_values] = raw != NULL ? *raw : (PsCounterRaw) { 0 };
  self->counter_values[self->n_counter_values++] = *value;
  if (self->n_counter_values == COUNTER_BATCH_SIZE)
    ps_store_builder_flush (self);
}

guint32
ps_store_builder_add_report_row (PsStoreBuilder    *self,
                                 const PsReportRow *row)
{
  g_return_val_if_fail (self != NULL, PS_NONE);

  /* Few, and referred to by index while the report is read: no batch */
  return ps_event_store_add_report_row (self->store, row);
}

void
ps_store_builder_warn (PsStoreBuilder       *self,
                       PsSeverity            severity,
                       const char           *code,
                       const PsWarningPlace *place,
                       const char           *format,
                       ...)
{
  g_autofree char *message = NULL;
  va_list args;

  g_return_if_fail (self != NULL);
  g_return_if_fail (place != NULL);

  /* Past the kept maximum only the count matters: skip the formatting. */
  if (ps_event_store_get_n_warnings (self->store) < PS_EVENT_STORE_MAX_WARNINGS)
    {
      va_start (args, format);
      message = g_strdup_vprintf (format, args);
      va_end (args);
    }
  ps_event_store_add_warning (self->store, severity, code, place->line, place->offset, place->session, message);
}
