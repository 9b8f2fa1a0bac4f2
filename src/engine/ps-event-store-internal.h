/* ps-event-store-internal.h — the event store's layout, shared by its
 * source files
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ps-event-store.c holds the store object, its strings, sessions, tracks,
 * stacks, warnings and report rows; ps-event-store-events.c the
 * measurements, spans, marks, samples and counter values.
 */
#pragma once

#include <glib.h>

#include "ps-event-store.h"
#include "ps-event-store-private.h"

G_BEGIN_DECLS

#define BLOCK_SHIFT       16
#define BLOCK_SIZE        (1u << BLOCK_SHIFT)
#define BLOCK_MASK        (BLOCK_SIZE - 1)
#define CHECKPOINT_SHIFT  8
#define CHECKPOINT_EVERY  (1u << CHECKPOINT_SHIFT)
#define LINE_ESCAPE       255

#define META_KIND_MASK    PS_MEASUREMENT_META_KIND_MASK
#define META_FLAGS_SHIFT  PS_MEASUREMENT_META_FLAGS_SHIFT
#define META_FLAGS_MASK   PS_MEASUREMENT_META_FLAGS_MASK
#define META_WIDE         PS_MEASUREMENT_META_WIDE

#define CHUNK_SHIFT       14
#define CHUNK_SIZE        (1u << CHUNK_SHIFT)
#define CHUNK_MASK        (CHUNK_SIZE - 1)

/* Tracks are stored per block as a 16-bit index into the block's own table
 * of track numbers: a block holds BLOCK_SIZE events, so the index always
 * fits, and a few tracks usually fill a whole block. 8 bytes an event. */
typedef struct
{
  guint16  track_local[BLOCK_SIZE];
  guint32  value[BLOCK_SIZE];
  guint8   meta[BLOCK_SIZE];
  guint8   line_delta[BLOCK_SIZE];
  guint64  checkpoint_line[BLOCK_SIZE / CHECKPOINT_EVERY];
  guint32 *track_table;
  guint    n_track_table;
  guint    track_table_size;
} MeasureBlock;

/* Recently used tracks of the block being filled: track → local index */
#define TRACK_CACHE_SIZE 1024

typedef struct
{
  guint32 track;
  guint32 local;   /* G_MAXUINT32: empty */
} TrackCacheEntry;

typedef struct
{
  guint64 index;
  guint64 bits;
} WideValue;

typedef struct
{
  guint64 index;
  guint64 line;
} LineEscape;

typedef struct
{
  guint32 kind_name;
  guint32 raw_value;
} OtherValue;

typedef struct
{
  guint32 session;
  guint64 from_index;
  double  ticks_per_second;
} TickRate;

typedef struct
{
  guint32    code;
  const char *message;
  guint64    line;
  guint64    offset;
  guint32    session;
  PsSeverity severity;
} StoredWarning;

typedef struct
{
  guint64 index;
  guint32 context;
} SpanContext;

/* The next piece of an array that keeps growing, made ready on another
 * thread (take_piece ()) */
typedef struct _Spare Spare;

/* Fixed-size chunks of packed structs: appending never moves old ones. */
typedef struct
{
  gsize      element_size;
  guint64    length;
  GPtrArray *chunks;
  Spare     *spare;
} ChunkedArray;

/* An open-addressing index of ids into an array that holds the keys
 * (frames, stack nodes), at most three quarters full. A slot is 32 bits:
 * with 2^k slots, its low k bits hold id + 1 (0 is free) and the bits
 * above them the same bits of a 32-bit fingerprint of its key (the high
 * half of its 64-bit hash, whose low bits choose the slot). A probe reads
 * the array only when those bits match: the fewer slots, the more of the
 * fingerprint a slot keeps, and a table of 16 Mi slots still keeps 8
 * bits of it, where a slot of id and whole fingerprint took twice the
 * room. */
typedef struct
{
  guint32 *slots;
  guint32  mask;
  guint32  used;
} IdIndex;

struct _PsEventStore
{
  GObject parent_instance;

  char        *format;
  GFile       *file;
  GError      *error;
  guint64      bytes_read;

  GStringChunk *string_chunk;
  GHashTable   *string_ids;   /* const char* (in string_chunk) → id + 1 */
  GPtrArray    *strings;      /* id → const char* */

  GArray       *sessions;     /* PsSessionInfo */
  GPtrArray    *metadata;     /* per session: GArray of {guint32 key, guint32 value} */
  GArray       *tick_rates;   /* TickRate, in the order they were added */
  /* Per session: GArray of guint, indexes into tick_rates ordered by
   * from_index (those added later after equal ones), so that the rate of a
   * measurement is a binary search, not a walk over every rate */
  GPtrArray    *session_rates;
  GArray       *first_rates;  /* per session: guint, its first rate added */
  GArray       *tracks;       /* PsTrack */

  GPtrArray    *measure_blocks;
  Spare        *spare_block;
  TrackCacheEntry track_cache[TRACK_CACHE_SIZE];
  guint64       n_measurements;
  guint64       last_line;
  GArray       *wide_values;  /* WideValue, sorted by index */
  GArray       *line_escapes; /* LineEscape, sorted by index */
  GArray       *others;       /* OtherValue */

  ChunkedArray  spans;
  GArray       *span_contexts; /* SpanContext, sorted by index */
  PsSpanTotals *span_totals;   /* spans summed up instead of kept, or NULL */
  ChunkedArray  marks;
  ChunkedArray  samples;
  GArray       *sample_sources; /* PsSampleSource */
  ChunkedArray  counter_values;
  ChunkedArray  counter_raws;    /* PsCounterRaw of each kept reading; empty until one has any */
  GArray       *counter_series;  /* PsCounterSeries per track, grown on demand */
  guint64       n_counter_readings;
  guint64       max_counter_values;
  guint         counter_stride;  /* a power of two */

  GArray       *frames;       /* PsFrame */
  IdIndex       frame_index;
  GArray       *stack_nodes;  /* PsStackNode; node 0 is the empty stack */
  GArray       *report_rows;  /* PsReportRow */
  IdIndex       stack_index;

  GArray       *warnings;     /* StoredWarning */
  GStringChunk *warning_text;
  guint64       n_warnings_raised;
};


/* Defined in one file, used in the other */

gpointer
store_take_piece (Spare    **slot,
                  gsize      size,
                  gboolean   growing);

void
store_spare_release (Spare **slot);

guint8 *
store_chunked_array_room (ChunkedArray *array,
                          guint        *room);

void
store_chunked_array_append (ChunkedArray *array,
                            gconstpointer elements,
                            guint         n);

void
store_chunked_array_trim (ChunkedArray *array);

PsCounterSeries *
store_counter_series_of (PsEventStore *self,
                         guint32       track);

void
store_keep_counter_raws (PsEventStore       *self,
                         const PsCounterRaw *raws,
                         guint               n);

/* Inline for the hot paths of both files */

static inline gconstpointer
chunked_array_get (const ChunkedArray *array,
                   guint64             index)
{
  const guint8 *chunk;

  g_return_val_if_fail (index < array->length, NULL);
  chunk = g_ptr_array_index (array->chunks, index >> CHUNK_SHIFT);
  return chunk + (index & CHUNK_MASK) * array->element_size;
}

G_END_DECLS
