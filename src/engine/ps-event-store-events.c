/* ps-event-store-events.c — the events of a run: measurements, spans,
 * marks, samples and counter values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Measurements are columns in blocks of 65536 events (see
 * ps-event-store.c); the other kinds are packed structs in chunked arrays,
 * appended without moving the old ones.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-event-store-internal.h"
#include "ps-span-totals.h"
#include "ps-util.h"

/* Measurements */

static inline guint64
double_bits (double value)
{
  guint64 bits;
  memcpy (&bits, &value, sizeof bits);
  return bits;
}

static inline double
bits_double (guint64 bits)
{
  double value;
  memcpy (&value, &bits, sizeof value);
  return value;
}

static inline guint32
float_bits (float value)
{
  guint32 bits;
  memcpy (&bits, &value, sizeof bits);
  return bits;
}

static inline float
bits_float (guint32 bits)
{
  float value;
  memcpy (&value, &bits, sizeof value);
  return value;
}

/* Returns TRUE and the 32-bit form if the value fits, else FALSE. */
static gboolean
encode_narrow (const PsMeasurement *m,
               guint32             *narrow,
               guint64             *wide)
{
  switch ((PsMeasureKind)m->kind)
    {
    case PS_MEASURE_DURATION:
      *wide = (guint64)m->value.ticks;
      if (m->value.ticks >= G_MININT32 && m->value.ticks <= G_MAXINT32)
        {
          *narrow = (guint32)(gint32)m->value.ticks;
          return TRUE;
        }
      return FALSE;

    case PS_MEASURE_MEMORY:
      if ((m->flags & PS_MEASURE_FLAG_FRACTIONAL) == 0)
        {
          *wide = m->value.bytes;
          if (m->value.bytes <= G_MAXUINT32)
            {
              *narrow = (guint32)m->value.bytes;
              return TRUE;
            }
          return FALSE;
        }
      G_GNUC_FALLTHROUGH;

    case PS_MEASURE_CPU:
      *wide = double_bits (m->value.number);
      if ((double)(float)m->value.number == m->value.number)
        {
          *narrow = float_bits ((float)m->value.number);
          return TRUE;
        }
      return FALSE;

    case PS_MEASURE_OTHER:
    default:
      *narrow = m->value.other;
      *wide = m->value.other;
      return TRUE;
    }
}

static void
decode_value (PsMeasurement *m,
              guint32        narrow,
              gboolean       is_wide,
              guint64        wide)
{
  switch ((PsMeasureKind)m->kind)
    {
    case PS_MEASURE_DURATION:
      m->value.ticks = is_wide ? (gint64)wide : (gint64)(gint32)narrow;
      break;

    case PS_MEASURE_MEMORY:
      if ((m->flags & PS_MEASURE_FLAG_FRACTIONAL) == 0)
        {
          m->value.bytes = is_wide ? wide : narrow;
          break;
        }
      G_GNUC_FALLTHROUGH;

    case PS_MEASURE_CPU:
      m->value.number = is_wide ? bits_double (wide) : (double)bits_float (narrow);
      break;

    case PS_MEASURE_OTHER:
    default:
      m->value.other = narrow;
      break;
    }
}

/* The block's local index of a track. A track missing from the small cache
 * gets a new entry even if the table has it already: duplicates cost a
 * little space, never a search. */
static inline guint16
block_local_track (PsEventStore *self,
                   MeasureBlock *block,
                   guint32       track)
{
  TrackCacheEntry *entry = &self->track_cache[(track * 2654435761u) >> 22 & (TRACK_CACHE_SIZE - 1)];

  if (entry->local != G_MAXUINT32 && entry->track == track)
    return (guint16)entry->local;

  if (block->n_track_table == block->track_table_size)
    {
      block->track_table_size = MAX (16, block->track_table_size * 2);
      block->track_table = g_renew (guint32, block->track_table, block->track_table_size);
    }
  block->track_table[block->n_track_table] = track;
  entry->track = track;
  entry->local = block->n_track_table++;

  return (guint16)entry->local;
}

void
_ps_event_store_append_measurements (PsEventStore        *self,
                                     const PsMeasurement *measurements,
                                     guint                n)
{
  /* Locals, not fields, in the loop: the byte stores into the block may
   * alias the fields, which the compiler would then load again for every
   * event */
  guint64 index = self->n_measurements;
  guint64 last_line = self->last_line;
  MeasureBlock *block = NULL;
  guint32 last_track = PS_NONE;  /* the track looked up last … */
  guint16 last_local = 0;        /* … and its index in the block */
  guint8 last_kind = G_MAXUINT8; /* the kind flagged last on that track */
  static const guint16 kind_flags[] = {
    [PS_MEASURE_DURATION] = PS_TRACK_FLAG_HAS_DURATION,
    [PS_MEASURE_CPU] = PS_TRACK_FLAG_HAS_CPU,
    [PS_MEASURE_MEMORY] = PS_TRACK_FLAG_HAS_MEMORY,
    [PS_MEASURE_OTHER] = PS_TRACK_FLAG_HAS_OTHER,
  };

  if ((index & BLOCK_MASK) != 0)
    block = g_ptr_array_index (self->measure_blocks, self->measure_blocks->len - 1);

  for (guint i = 0; i < n; i++, index++)
    {
      const PsMeasurement *m = &measurements[i];
      guint offset = index & BLOCK_MASK;
      guint32 narrow = 0;
      guint64 wide = 0;
      guint8 meta;

      if (offset == 0)
        {
          block = store_take_piece (&self->spare_block, sizeof (MeasureBlock), index > 0);
          block->track_table = NULL;
          block->n_track_table = 0;
          block->track_table_size = 0;
          g_ptr_array_add (self->measure_blocks, block);
          for (guint c = 0; c < TRACK_CACHE_SIZE; c++)
            self->track_cache[c].local = G_MAXUINT32;
          last_track = PS_NONE;
        }

      meta = (m->kind & META_KIND_MASK) | ((m->flags & META_FLAGS_MASK) << META_FLAGS_SHIFT);
      if (!encode_narrow (m, &narrow, &wide))
        {
          WideValue value = { index, wide };

          g_array_append_val (self->wide_values, value);
          meta |= META_WIDE;
        }

      /* Nothing was looked up since the last track: its cache entry holds */
      if (m->track != last_track || last_track == PS_NONE)
        {
          last_local = block_local_track (self, block, m->track);
          last_track = m->track;
          last_kind = G_MAXUINT8;
        }
      /* The track's flag of the kind: once a run of events of one kind
       * on one track */
      if G_UNLIKELY (m->kind != last_kind)
        {
          /* Not ps_event_store_add_track_flags (): its checks would run
           * at every change of track */
          if (m->track < self->tracks->len)
            g_array_index (self->tracks, PsTrack, m->track).flags |= kind_flags[m->kind & 3];
          last_kind = m->kind;
        }
      block->track_local[offset] = last_local;
      block->value[offset] = narrow;
      block->meta[offset] = meta;

      if ((offset & (CHECKPOINT_EVERY - 1)) == 0)
        {
          block->checkpoint_line[offset >> CHECKPOINT_SHIFT] = m->line;
          block->line_delta[offset] = 0;
        }
      else if (m->line >= last_line && m->line - last_line < LINE_ESCAPE)
        {
          block->line_delta[offset] = (guint8)(m->line - last_line);
        }
      else
        {
          LineEscape escape = { index, m->line };

          g_array_append_val (self->line_escapes, escape);
          block->line_delta[offset] = LINE_ESCAPE;
        }

      last_line = m->line;
    }

  self->n_measurements = index;
  self->last_line = last_line;
}

guint32
_ps_event_store_add_other (PsEventStore *self,
                           guint32       kind_name,
                           guint32       raw_value)
{
  OtherValue other = { kind_name, raw_value };

  g_array_append_val (self->others, other);
  return self->others->len - 1;
}

guint64
ps_event_store_get_n_measurements (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->n_measurements;
}

static gboolean
find_wide (GArray  *wide_values,
           guint64  index,
           guint64 *bits)
{
  guint lo = 0;
  guint hi = wide_values->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const WideValue *value = &g_array_index (wide_values, WideValue, mid);

      if (value->index == index)
        {
          *bits = value->bits;
          return TRUE;
        }
      if (value->index < index)
        lo = mid + 1;
      else
        hi = mid;
    }

  return FALSE;
}

static guint64
find_line_escape (GArray  *escapes,
                  guint64  index)
{
  guint lo = 0;
  guint hi = escapes->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const LineEscape *escape = &g_array_index (escapes, LineEscape, mid);

      if (escape->index == index)
        return escape->line;
      if (escape->index < index)
        lo = mid + 1;
      else
        hi = mid;
    }

  return 0;
}

void
ps_event_store_get_measurement (PsEventStore  *self,
                                guint64        index,
                                PsMeasurement *out)
{
  const MeasureBlock *block;
  guint offset;
  guint checkpoint;
  guint64 line;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (out != NULL);
  g_return_if_fail (index < self->n_measurements);

  block = g_ptr_array_index (self->measure_blocks, index >> BLOCK_SHIFT);
  offset = index & BLOCK_MASK;
  checkpoint = offset & ~(CHECKPOINT_EVERY - 1);

  line = block->checkpoint_line[checkpoint >> CHECKPOINT_SHIFT];
  for (guint i = checkpoint + 1; i <= offset; i++)
    {
      if (block->line_delta[i] == LINE_ESCAPE)
        line = find_line_escape (self->line_escapes, (index & ~(guint64)BLOCK_MASK) + i);
      else
        line += block->line_delta[i];
    }

  ps_event_store_get_measurement_value (self, index, out);
  out->line = line;
}

void
ps_event_store_get_measurement_value (PsEventStore  *self,
                                      guint64        index,
                                      PsMeasurement *out)
{
  const MeasureBlock *block;
  guint offset;
  guint64 wide = 0;
  guint8 meta;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (out != NULL);
  g_return_if_fail (index < self->n_measurements);

  block = g_ptr_array_index (self->measure_blocks, index >> BLOCK_SHIFT);
  offset = index & BLOCK_MASK;
  meta = block->meta[offset];
  out->index = index;
  out->line = 0;
  out->track = block->track_table[block->track_local[offset]];
  out->kind = meta & META_KIND_MASK;
  out->flags = (meta >> META_FLAGS_SHIFT) & META_FLAGS_MASK;
  if (meta & META_WIDE)
    find_wide (self->wide_values, index, &wide);
  decode_value (out, block->value[offset], (meta & META_WIDE) != 0, wide);
}

void
ps_event_store_get_measurement_page (PsEventStore      *self,
                                     guint64            page,
                                     PsMeasurementPage *out)
{
  const MeasureBlock *block;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (out != NULL);
  g_return_if_fail (page < self->measure_blocks->len);

  block = g_ptr_array_index (self->measure_blocks, page);
  *out = (PsMeasurementPage) {
    .first = page << BLOCK_SHIFT,
    .n_measurements = (guint)MIN ((guint64)BLOCK_SIZE, self->n_measurements - (page << BLOCK_SHIFT)),
    .track_index = block->track_local,
    .tracks = block->track_table,
    .n_tracks = block->n_track_table,
    .meta = block->meta,
    .values = block->value,
  };
}

void
ps_event_store_get_other (PsEventStore  *self,
                          guint32        other,
                          const char   **kind_name,
                          const char   **raw_value)
{
  const OtherValue *value;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (other < self->others->len);

  value = &g_array_index (self->others, OtherValue, other);
  if (kind_name)
    *kind_name = ps_event_store_get_string (self, value->kind_name);
  if (raw_value)
    *raw_value = ps_event_store_get_string (self, value->raw_value);
}

void
ps_measurement_iter_init (PsMeasurementIter *iter,
                          PsEventStore      *store)
{
  g_return_if_fail (iter != NULL);
  g_return_if_fail (PS_IS_EVENT_STORE (store));

  iter->store = store;
  iter->index = 0;
  iter->line = 0;
  iter->wide_pos = 0;
  iter->line_escape_pos = 0;
}

/* The position of the first entry of a side table (WideValue or
 * LineEscape, both sorted by the event index they begin with) at index
 * or after */
static gsize
side_table_lower_bound (GArray  *table,
                        guint64  index)
{
  guint element_size = g_array_get_element_size (table);
  gsize lo = 0;
  gsize hi = table->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      guint64 at;

      memcpy (&at, table->data + mid * element_size, sizeof at);
      if (at < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
ps_measurement_iter_init_at (PsMeasurementIter *iter,
                             PsEventStore      *store,
                             guint64            index)
{
  ps_measurement_iter_init (iter, store);
  index = MIN (index, store->n_measurements);
  if (index == 0)
    return;

  iter->index = index;
  iter->wide_pos = side_table_lower_bound (store->wide_values, index);
  iter->line_escape_pos = side_table_lower_bound (store->line_escapes, index);
  /* The next line is the one before plus its distance, except at a
   * checkpoint */
  if (index < store->n_measurements && (index & (CHECKPOINT_EVERY - 1)) != 0)
    {
      PsMeasurement before;

      ps_event_store_get_measurement (store, index - 1, &before);
      iter->line = before.line;
    }
}

/* The line of the measurement at the iterator, from the one before */
static inline void
iter_step_line (PsMeasurementIter  *iter,
                const MeasureBlock *block,
                guint               offset)
{
  PsEventStore *self = iter->store;

  if ((offset & (CHECKPOINT_EVERY - 1)) == 0)
    iter->line = block->checkpoint_line[offset >> CHECKPOINT_SHIFT];
  else if (block->line_delta[offset] == LINE_ESCAPE)
    {
      while (iter->line_escape_pos < self->line_escapes->len &&
             g_array_index (self->line_escapes, LineEscape, iter->line_escape_pos).index < iter->index)
        iter->line_escape_pos++;
      iter->line = g_array_index (self->line_escapes, LineEscape, iter->line_escape_pos).line;
    }
  else
    iter->line += block->line_delta[offset];
}

gboolean
ps_measurement_iter_next (PsMeasurementIter *iter,
                          PsMeasurement     *out)
{
  PsEventStore *self = iter->store;
  const MeasureBlock *block;
  guint offset;
  guint64 wide = 0;
  guint8 meta;

  if (iter->index >= self->n_measurements)
    return FALSE;

  block = g_ptr_array_index (self->measure_blocks, iter->index >> BLOCK_SHIFT);
  offset = iter->index & BLOCK_MASK;
  iter_step_line (iter, block, offset);

  meta = block->meta[offset];
  out->index = iter->index;
  out->line = iter->line;
  out->track = block->track_table[block->track_local[offset]];
  out->kind = meta & META_KIND_MASK;
  out->flags = (meta >> META_FLAGS_SHIFT) & META_FLAGS_MASK;
  if (meta & META_WIDE)
    {
      while (iter->wide_pos < self->wide_values->len &&
             g_array_index (self->wide_values, WideValue, iter->wide_pos).index < iter->index)
        iter->wide_pos++;
      wide = g_array_index (self->wide_values, WideValue, iter->wide_pos).bits;
    }
  decode_value (out, block->value[offset], (meta & META_WIDE) != 0, wide);

  iter->index++;
  return TRUE;
}

/* A page is a block's values */
G_STATIC_ASSERT (PS_EVENT_STORE_VALUE_PAGE_SHIFT == BLOCK_SHIFT);

const guint32 *
ps_event_store_get_value_page (PsEventStore *self,
                               guint64       page)
{
  const MeasureBlock *block;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (page < self->measure_blocks->len, NULL);

  block = g_ptr_array_index (self->measure_blocks, page);
  return block->value;
}

gboolean
ps_measurement_iter_next_of (PsMeasurementIter *iter,
                             const guint8      *wanted,
                             guint              n_wanted,
                             PsMeasurement     *out)
{
  PsEventStore *self = iter->store;

  while (iter->index < self->n_measurements)
    {
      const MeasureBlock *block = g_ptr_array_index (self->measure_blocks, iter->index >> BLOCK_SHIFT);
      guint offset = iter->index & BLOCK_MASK;
      guint end = (guint)MIN ((guint64)BLOCK_SIZE, self->n_measurements - (iter->index - offset));

      for (; offset < end; offset++)
        {
          guint32 track = block->track_table[block->track_local[offset]];

          if (track < n_wanted && wanted[track])
            return ps_measurement_iter_next (iter, out);
          /* Passed over: only its line, which the next one's follows */
          iter_step_line (iter, block, offset);
          iter->index++;
        }
    }
  return FALSE;
}

/* Other event kinds */

static inline gboolean
time_in_limit (gint64 time_ns)
{
  return time_ns >= -PS_TIME_LIMIT_NS && time_ns <= PS_TIME_LIMIT_NS;
}

/* Holds the time fields (gint64, at the given offsets) of n elements of
 * size bytes within ±PS_TIME_LIMIT_NS; with a copy made first (returned)
 * when *copy is there and some time is not within already */
static void
hold_in_time_limit (guint8       *elements,
                    guint         n,
                    gsize         size,
                    const gsize  *offsets,
                    guint         n_offsets,
                    guint8      **copy)
{
  for (guint i = 0; i < n; i++)
    for (guint f = 0; f < n_offsets; f++)
      {
        gsize at = (gsize) i * size + offsets[f];
        gint64 time_ns;

        memcpy (&time_ns, elements + at, sizeof time_ns);
        if (G_LIKELY (time_in_limit (time_ns)))
          continue;
        if (copy != NULL && *copy == NULL)
          elements = *copy = g_memdup2 (elements, (gsize) n * size);
        time_ns = CLAMP (time_ns, -PS_TIME_LIMIT_NS, PS_TIME_LIMIT_NS);
        memcpy (elements + at, &time_ns, sizeof time_ns);
      }
}

/* A copy of n elements whose times are held in the limit, or NULL when
 * every time is within already */
static gpointer
held_in_time_limit (gconstpointer  elements,
                    guint          n,
                    gsize          size,
                    const gsize   *offsets,
                    guint          n_offsets)
{
  guint8 *held = NULL;

  hold_in_time_limit ((guint8 *) elements, n, size, offsets, n_offsets, &held);
  return held;
}

static const gsize span_times[] = { G_STRUCT_OFFSET (PsSpan, begin_ns), G_STRUCT_OFFSET (PsSpan, end_ns) };
static const gsize mark_times[] = { G_STRUCT_OFFSET (PsMark, time_ns) };

void
_ps_event_store_append_spans (PsEventStore *self,
                              const PsSpan *spans,
                              guint         n)
{
  g_autofree PsSpan *held = held_in_time_limit (spans, n, sizeof (PsSpan), span_times, G_N_ELEMENTS (span_times));

  store_chunked_array_append (&self->spans, held != NULL ? held : spans, n);
}

gpointer
_ps_event_store_get_span_room (PsEventStore *self,
                               guint        *n_room)
{
  return store_chunked_array_room (&self->spans, n_room);
}

/* Makes the first n elements of the room the array's */
static void
chunked_array_commit (ChunkedArray *array,
                      guint         n,
                      const gsize  *time_offsets,
                      guint         n_time_offsets)
{
  guint room;
  guint8 *first = store_chunked_array_room (array, &room);

  g_return_if_fail (n <= room);

  hold_in_time_limit (first, n, array->element_size, time_offsets, n_time_offsets, NULL);
  array->length += n;
}

void
_ps_event_store_commit_spans (PsEventStore *self,
                              guint         n)
{
  chunked_array_commit (&self->spans, n, span_times, G_N_ELEMENTS (span_times));
}

void
_ps_event_store_append_marks (PsEventStore *self,
                              const PsMark *marks,
                              guint         n)
{
  g_autofree PsMark *held = held_in_time_limit (marks, n, sizeof (PsMark), mark_times, G_N_ELEMENTS (mark_times));

  store_chunked_array_append (&self->marks, held != NULL ? held : marks, n);
}

gpointer
_ps_event_store_get_mark_room (PsEventStore *self,
                               guint        *n_room)
{
  return store_chunked_array_room (&self->marks, n_room);
}

void
_ps_event_store_commit_marks (PsEventStore *self,
                              guint         n)
{
  chunked_array_commit (&self->marks, n, mark_times, G_N_ELEMENTS (mark_times));
}

void
_ps_event_store_append_samples (PsEventStore   *self,
                                const PsSample *samples,
                                guint           n)
{
  static const gsize times[] = { G_STRUCT_OFFSET (PsSample, time_ns) };
  g_autofree PsSample *held = held_in_time_limit (samples, n, sizeof (PsSample), times, G_N_ELEMENTS (times));

  store_chunked_array_append (&self->samples, held != NULL ? held : samples, n);
  for (guint i = 0; i < n; i++)
    if (samples[i].source < self->sample_sources->len)
      g_array_index (self->sample_sources, PsSampleSource, samples[i].source).n_samples += samples[i].weight;
}

PsCounterSeries *
store_counter_series_of (PsEventStore *self,
                         guint32       track)
{
  /* Up to this track only: the array's room grows by doubling anyway,
   * and room never used is never written, so it takes no memory (a
   * header of many counters adds them one at a time) */
  if (track >= self->counter_series->len)
    {
      guint old_len = self->counter_series->len;

      g_array_set_size (self->counter_series, track + 1);
      for (guint i = old_len; i < self->counter_series->len; i++)
        ps_counter_series_init (&g_array_index (self->counter_series, PsCounterSeries, i));
    }
  return &g_array_index (self->counter_series, PsCounterSeries, track);
}

/* Called after n readings were kept: their raws, or zeros for raws NULL
 * once the store has any. The raws stay as long as the readings, so that
 * a reading's index is its raw's too. */
void
store_keep_counter_raws (PsEventStore       *self,
                         const PsCounterRaw *raws,
                         guint               n)
{
  ChunkedArray *array = &self->counter_raws;
  guint64 zeros_until = self->counter_values.length - (raws != NULL ? n : 0);

  if (raws == NULL && array->length == 0)
    return;
  /* The readings before the first with raws, and those without, get zeros */
  while (array->length < zeros_until)
    {
      guint room;
      guint8 *to = store_chunked_array_room (array, &room);
      guint count = (guint)MIN ((guint64)room, zeros_until - array->length);

      memset (to, 0, count * sizeof (PsCounterRaw));
      array->length += count;
    }
  if (raws != NULL)
    store_chunked_array_append (array, raws, n);
}

/* Keeps every second reading of those kept so far, in each track */
static void
thin_counter_values (PsEventStore *self)
{
  g_autofree guint8 *odd = g_new0 (guint8, MAX (self->counter_series->len, 1));
  gboolean has_raws = self->counter_raws.length > 0;
  guint64 kept = 0;

  for (guint64 i = 0; i < self->counter_values.length; i++)
    {
      const PsCounterValue *value = chunked_array_get (&self->counter_values, i);
      guint32 track = value->track < self->counter_series->len ? value->track : 0;

      if (!odd[track])
        {
          if (kept != i)
            {
              memcpy ((gpointer)chunked_array_get (&self->counter_values, kept), value, sizeof *value);
              if (has_raws)
                memcpy ((gpointer)chunked_array_get (&self->counter_raws, kept),
                        chunked_array_get (&self->counter_raws, i), sizeof (PsCounterRaw));
            }
          kept++;
        }
      odd[track] ^= 1;
    }
  /* The chunks emptied stay for the readings to come: they fill up again
   * before the next thinning, and memory made ready once is not cleared
   * again. _ps_event_store_trim () lets go of them after the load. */
  self->counter_values.length = kept;
  if (has_raws)
    self->counter_raws.length = kept;

  if (self->counter_stride == 1)
    {
      g_autofree char *limit = ps_util_format_count (self->max_counter_values);
      g_autofree char *message = NULL;

      /* Translators: %s is a number of counter readings */
      message = g_strdup_printf (_("More than %s counter readings: the statistics and charts of the whole run "
                                   "use all of them, but only every second, fourth, … reading of each counter "
                                   "is kept for zooming in and for the values listed"), limit);
      ps_event_store_add_warning (self, PS_SEVERITY_INFO, "counter-readings-thinned", 0, 0, 0, message);
    }
  self->counter_stride *= 2;
}

void
_ps_event_store_append_counter_values (PsEventStore         *self,
                                       const PsCounterValue *values,
                                       const PsCounterRaw   *raws,
                                       guint                 n)
{
  for (guint i = 0; i < n; i++)
    {
      const PsCounterValue *value = &values[i];
      PsCounterSeries *series = store_counter_series_of (self, value->track);
      guint64 ordinal = series->n_readings;

      ps_counter_series_add (series, value->time_ns, value->value, (value->flags & PS_COUNTER_FLAG_MISSING) != 0);
      self->n_counter_readings++;
      if ((ordinal & (self->counter_stride - 1)) != 0)
        continue;
      store_chunked_array_append (&self->counter_values, value, 1);
      store_keep_counter_raws (self, raws != NULL ? &raws[i] : NULL, 1);
      if (self->max_counter_values != 0 && self->counter_values.length > self->max_counter_values)
        thin_counter_values (self);
    }
}

void
_ps_event_store_trim (PsEventStore *self)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));

  store_chunked_array_trim (&self->spans);
  store_chunked_array_trim (&self->marks);
  store_chunked_array_trim (&self->samples);
  store_chunked_array_trim (&self->counter_values);
  store_chunked_array_trim (&self->counter_raws);
  store_spare_release (&self->spare_block);
}

PsCounterSeries *
_ps_event_store_edit_counter_series (PsEventStore *self,
                                     guint32       n_tracks)
{
  if (n_tracks == 0)
    return (PsCounterSeries *)(gpointer)self->counter_series->data;
  return store_counter_series_of (self, n_tracks - 1) - (n_tracks - 1);
}

guint64
_ps_event_store_get_counter_room (PsEventStore *self,
                                  guint        *stride)
{
  *stride = self->counter_stride;
  if (self->max_counter_values == 0)
    return G_MAXUINT64;
  return self->counter_values.length < self->max_counter_values
         ? self->max_counter_values - self->counter_values.length : 0;
}

void
_ps_event_store_append_kept_counter_values (PsEventStore         *self,
                                            const PsCounterValue *values,
                                            const PsCounterRaw   *raws,
                                            guint                 n_values,
                                            guint64               n_readings)
{
  self->n_counter_readings += n_readings;
  if (n_values == 0)
    return;
  g_return_if_fail (self->max_counter_values == 0
                    || self->counter_values.length + n_values <= self->max_counter_values);
  store_chunked_array_append (&self->counter_values, values, n_values);
  store_keep_counter_raws (self, raws, n_values);
}

guint64
ps_event_store_get_n_spans (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->spans.length;
}

const PsSpan *
ps_event_store_get_span (PsEventStore *self,
                         guint64       index)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return chunked_array_get (&self->spans, index);
}

guint64
ps_event_store_get_n_marks (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->marks.length;
}

PsSpan *
_ps_event_store_edit_span (PsEventStore *self,
                           guint64       index)
{
  return (PsSpan *)chunked_array_get (&self->spans, index);
}

PsMark *
_ps_event_store_edit_mark (PsEventStore *self,
                           guint64       index)
{
  return (PsMark *)chunked_array_get (&self->marks, index);
}

void
_ps_event_store_set_span_context (PsEventStore *self,
                                  guint64       index,
                                  guint32       context)
{
  SpanContext entry = { index, context };

  g_return_if_fail (self->span_contexts->len == 0
                    || g_array_index (self->span_contexts, SpanContext, self->span_contexts->len - 1).index < index);
  g_array_append_val (self->span_contexts, entry);
}

void
_ps_event_store_set_span_totals (PsEventStore *self,
                                 PsSpanTotals *totals)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (totals == NULL || ps_span_totals_is_finished (totals));

  g_clear_pointer (&self->span_totals, ps_span_totals_free);
  self->span_totals = totals;
}

gboolean
ps_event_store_get_spans_summarized (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), FALSE);

  return self->span_totals != NULL;
}

PsSpanTotals *
_ps_event_store_get_span_totals (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);

  return self->span_totals;
}

guint32
ps_event_store_get_span_context (PsEventStore *self,
                                 guint64       index)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  hi = self->span_contexts->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SpanContext *entry = &g_array_index (self->span_contexts, SpanContext, mid);

      if (entry->index == index)
        return entry->context;
      if (entry->index < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return 0;
}

const PsMark *
ps_event_store_get_mark (PsEventStore *self,
                         guint64       index)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return chunked_array_get (&self->marks, index);
}

guint64
ps_event_store_get_n_samples (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->samples.length;
}

const PsSample *
ps_event_store_get_sample (PsEventStore *self,
                           guint64       index)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return chunked_array_get (&self->samples, index);
}

guint16
ps_event_store_add_sample_source (PsEventStore *self,
                                  guint32       name,
                                  guint64       rate)
{
  PsSampleSource source = { name, 0, rate, 0 };

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  for (guint i = 0; i < self->sample_sources->len; i++)
    if (g_array_index (self->sample_sources, PsSampleSource, i).name == name)
      return i;
  g_return_val_if_fail (self->sample_sources->len <= G_MAXUINT16, G_MAXUINT16);

  g_array_append_val (self->sample_sources, source);
  return self->sample_sources->len - 1;
}

guint
ps_event_store_get_n_sample_sources (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->sample_sources->len;
}

const PsSampleSource *
ps_event_store_get_sample_source (PsEventStore *self,
                                  guint16       source)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (source < self->sample_sources->len, NULL);
  return &g_array_index (self->sample_sources, PsSampleSource, source);
}

guint64
ps_event_store_get_n_counter_values (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->counter_values.length;
}

const PsCounterValue *
ps_event_store_get_counter_value (PsEventStore *self,
                                  guint64       index)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return chunked_array_get (&self->counter_values, index);
}

const PsCounterRaw *
ps_event_store_get_counter_raw (PsEventStore *self,
                                guint64       index)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (index < self->counter_values.length, NULL);
  if (self->counter_raws.length == 0)
    return NULL;
  return chunked_array_get (&self->counter_raws, index);
}

guint64
ps_event_store_get_n_counter_readings (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  return self->n_counter_readings;
}

const PsCounterStats *
ps_event_store_get_counter_stats (PsEventStore *self,
                                  guint32       track)
{
  const PsCounterSeries *series;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);

  if (track >= self->counter_series->len)
    return NULL;
  series = &g_array_index (self->counter_series, PsCounterSeries, track);
  return series->n_readings > 0 ? &series->stats : NULL;
}

gboolean
ps_event_store_get_counter_overview (PsEventStore      *self,
                                     guint32            track,
                                     PsCounterOverview *overview)
{
  PsCounterSeries *series;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), FALSE);
  g_return_val_if_fail (overview != NULL, FALSE);

  memset (overview, 0, sizeof *overview);
  if (track >= self->counter_series->len)
    return FALSE;
  series = &g_array_index (self->counter_series, PsCounterSeries, track);
  if (series->buckets == NULL)
    return FALSE;
  ps_counter_series_get_overview (series, overview);
  return TRUE;
}

void
ps_event_store_set_max_counter_values (PsEventStore *self,
                                       guint64       max_values)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));

  self->max_counter_values = max_values;
}

guint64
ps_event_store_get_max_counter_values (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  return self->max_counter_values;
}

guint
ps_event_store_get_counter_stride (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 1);

  return self->counter_stride;
}
