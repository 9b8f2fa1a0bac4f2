/* ps-event-store.c — one run, held in compact arrays
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Measurements are stored as columns in blocks of 65536 events: track
 * (4 bytes), value (4 bytes), kind and flags (1 byte) and the distance in
 * lines to the previous event (1 byte). A value that does not fit in 32
 * bits, and a line distance that does not fit in a byte, go to small sorted
 * side tables. Every 256 events the absolute line number is kept, so any
 * event's line is found by adding at most 255 distances. Blocks are never
 * reallocated, so a huge run grows without copying.
 */
/* For MADV_POPULATE_WRITE, which is not POSIX */
#define _DEFAULT_SOURCE

#include "config.h"

#include <inttypes.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include <glib/gi18n-lib.h>

#include "ps-event-store.h"
#include "ps-event-store-private.h"
#include "ps-span-totals.h"
#include "ps-util.h"

#define BLOCK_SHIFT       16
#define BLOCK_SIZE        (1u << BLOCK_SHIFT)
#define BLOCK_MASK        (BLOCK_SIZE - 1)
#define CHECKPOINT_SHIFT  8
#define CHECKPOINT_EVERY  (1u << CHECKPOINT_SHIFT)
#define LINE_ESCAPE       255

#define META_KIND_MASK    0x03
#define META_FLAGS_SHIFT  2
#define META_FLAGS_MASK   0x07
#define META_WIDE         0x20

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

static void
measure_block_free (gpointer data)
{
  MeasureBlock *block = data;

  g_free (block->track_table);
  g_free (block);
}

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
 * (frames, stack nodes). Each slot keeps a 32-bit fingerprint of its key
 * (the high half of its 64-bit hash, whose low bits choose the slot) next
 * to the id, so that a probe reads the array only when the fingerprint
 * matches: slot = fingerprint << 32 | (id + 1), 0 is free; at most three
 * quarters full. */
typedef struct
{
  guint64 *slots;
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

G_DEFINE_FINAL_TYPE (PsEventStore, ps_event_store, G_TYPE_OBJECT)

enum {
  APPENDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  guint32 key;
  guint32 value;
} MetadataPair;

/* Memory that appends will fill from start to end. Once an array has
 * grown past its first piece, the next ones are faulted in by one call
 * rather than a page fault for every page the appends reach, which on a
 * large log costs as much as the appends themselves; small inputs do not
 * pay for pages they never use. */
static gpointer
alloc_for_filling (gsize    size,
                   gboolean populate)
{
  gpointer memory = g_malloc (size);

#if defined (__linux__) && defined (MADV_POPULATE_WRITE)
  if (populate)
    {
      const guintptr page = 4096;
      guintptr start = ((guintptr) memory + page - 1) & ~(page - 1);
      guintptr end = ((guintptr) memory + size) & ~(page - 1);

      /* Fails harmlessly on kernels before 5.14: the pages then fault in */
      if (end > start)
        madvise ((gpointer) start, end - start, MADV_POPULATE_WRITE);
    }
#else
  (void) populate;
#endif

  return memory;
}

/* Faulting the pages in is the kernel clearing them: on a day of PLV2
 * counters, a tenth of the appending thread's time, and that thread is
 * the one that bounds a load's time. So once an array has grown past its
 * first piece, its next pieces are made ready on a thread of its own,
 * which mostly runs while the loader's reading thread waits for the
 * appending one. A few are kept ready, as that thread does not always
 * get a core at once when both are busy. */
#define SPARE_PIECES 4

struct _Spare
{
  gint     ref_count;  /* the owner's, and one for each request on its way */
  gsize    size;
  gpointer pieces[SPARE_PIECES];  /* ready, or NULL: set by the helper, taken by the owner */
};

static void
spare_unref (Spare *spare)
{
  if (spare != NULL && g_atomic_int_dec_and_test (&spare->ref_count))
    {
      for (guint i = 0; i < SPARE_PIECES; i++)
        g_free (spare->pieces[i]);
      g_free (spare);
    }
}

static void
prepare_spare (gpointer data,
               gpointer user_data)
{
  Spare *spare = data;

  (void) user_data;
  /* Not for an owner that is gone */
  for (guint i = 0; i < SPARE_PIECES && g_atomic_int_get (&spare->ref_count) > 1; i++)
    if (g_atomic_pointer_get (&spare->pieces[i]) == NULL)
      {
        gpointer memory = alloc_for_filling (spare->size, TRUE);

        if (!g_atomic_pointer_compare_and_exchange (&spare->pieces[i], NULL, memory))
          g_free (memory);
        break;
      }
  spare_unref (spare);
}

/* Asks for one more piece to be made ready, or for all of them the
 * first time */
static void
request_spare (Spare **slot,
               gsize   size)
{
  static GThreadPool *pool = NULL;
  guint n_requests = 1;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (prepare_spare, NULL, 1, FALSE, NULL));

  if (*slot == NULL)
    {
      *slot = g_new0 (Spare, 1);
      (*slot)->ref_count = 1;
      (*slot)->size = size;
      n_requests = SPARE_PIECES;
    }
  for (guint i = 0; i < n_requests; i++)
    {
      g_atomic_int_inc (&(*slot)->ref_count);
      g_thread_pool_push (pool, *slot, NULL);
    }
}

/* A piece of size bytes for appends to fill: a spare one if one is
 * ready; when the array has grown past its first piece, another spare is
 * asked for */
static gpointer
take_piece (Spare    **slot,
            gsize      size,
            gboolean   growing)
{
  gpointer memory = NULL;

  for (guint i = 0; *slot != NULL && memory == NULL && i < SPARE_PIECES; i++)
    if (g_atomic_pointer_get (&(*slot)->pieces[i]) != NULL)
      memory = g_atomic_pointer_exchange (&(*slot)->pieces[i], NULL);
  if (memory == NULL)
    memory = alloc_for_filling (size, growing);
  if (growing)
    request_spare (slot, size);
  return memory;
}

static void
spare_release (Spare **slot)
{
  if (*slot == NULL)
    return;
  for (guint i = 0; i < SPARE_PIECES; i++)
    g_free (g_atomic_pointer_exchange (&(*slot)->pieces[i], NULL));
  g_clear_pointer (slot, spare_unref);
}

static void
chunked_array_init (ChunkedArray *array,
                    gsize         element_size)
{
  array->element_size = element_size;
  array->length = 0;
  array->chunks = g_ptr_array_new_with_free_func (g_free);
  array->spare = NULL;
}

static void
chunked_array_clear (ChunkedArray *array)
{
  g_clear_pointer (&array->chunks, g_ptr_array_unref);
  spare_release (&array->spare);
  array->length = 0;
}

/* The memory after the last element, up to the end of its chunk: *room
 * elements (at least one) */
static guint8 *
chunked_array_room (ChunkedArray *array,
                    guint        *room)
{
  guint offset = array->length & CHUNK_MASK;
  guint8 *chunk;

  /* A chunk may be there already, emptied by thinning */
  if (offset == 0 && (array->length >> CHUNK_SHIFT) == array->chunks->len)
    g_ptr_array_add (array->chunks, take_piece (&array->spare, array->element_size * CHUNK_SIZE, array->length > 0));
  chunk = g_ptr_array_index (array->chunks, array->length >> CHUNK_SHIFT);
  *room = CHUNK_SIZE - offset;
  return chunk + offset * array->element_size;
}

static void
chunked_array_append (ChunkedArray *array,
                      gconstpointer elements,
                      guint         n)
{
  const guint8 *from = elements;

  while (n > 0)
    {
      guint room;
      guint8 *to = chunked_array_room (array, &room);
      guint count = MIN (room, n);

      memcpy (to, from, count * array->element_size);
      array->length += count;
      from += count * array->element_size;
      n -= count;
    }
}

/* Lets go of the chunks after the last element and of the spare */
static void
chunked_array_trim (ChunkedArray *array)
{
  guint needed = (guint) ((array->length + CHUNK_SIZE - 1) >> CHUNK_SHIFT);

  if (array->chunks != NULL && array->chunks->len > needed)
    g_ptr_array_remove_range (array->chunks, needed, array->chunks->len - needed);
  spare_release (&array->spare);
}

static gconstpointer
chunked_array_get (const ChunkedArray *array,
                   guint64             index)
{
  const guint8 *chunk;

  g_return_val_if_fail (index < array->length, NULL);
  chunk = g_ptr_array_index (array->chunks, index >> CHUNK_SHIFT);
  return chunk + (index & CHUNK_MASK) * array->element_size;
}

static inline guint64
frame_hash (const PsFrame *frame)
{
  return ps_util_mix64 (frame->address ^ ((guint64)frame->function << 32 | frame->module) * 0x9e3779b97f4a7c15u);
}

static inline guint64
stack_hash (guint32 parent,
            guint32 frame)
{
  return ps_util_mix64 ((guint64)parent << 32 | frame);
}

static void
id_index_clear (IdIndex *index)
{
  g_clear_pointer (&index->slots, g_free);
  index->mask = 0;
  index->used = 0;
}

/* Places an id in the first free slot for its hash */
static inline void
id_index_put (IdIndex *index,
              guint64  hash,
              guint32  id)
{
  guint32 slot = (guint32)hash & index->mask;

  while (index->slots[slot] != 0)
    slot = (slot + 1) & index->mask;
  index->slots[slot] = (hash >> 32) << 32 | (id + 1);
  index->used++;
}

/* Doubles the table when it would be more than three quarters full,
 * placing the ids first … n_ids − 1 again in their order: the keys are
 * read one after the other, only the writes land anywhere. hash_of
 * gives an id's hash. */
static void
id_index_reserve (IdIndex      *index,
                  guint64     (*hash_of) (PsEventStore *self, guint32 id),
                  PsEventStore *self,
                  guint32       first,
                  guint32       n_ids)
{
  guint32 size;

  if (index->slots != NULL && ((guint64)index->used + 1) * 4 <= (guint64)index->mask * 3)
    return;

  size = index->slots == NULL ? 1024 : (index->mask + 1) * 2;
  g_free (index->slots);
  index->slots = g_new0 (guint64, size);
  index->mask = size - 1;
  index->used = 0;
  for (guint32 id = first; id < n_ids; id++)
    id_index_put (index, hash_of (self, id), id);
}

static guint64
frame_hash_of (PsEventStore *self,
               guint32       id)
{
  return frame_hash (&g_array_index (self->frames, PsFrame, id));
}

static guint64
stack_hash_of (PsEventStore *self,
               guint32       id)
{
  const PsStackNode *node = &g_array_index (self->stack_nodes, PsStackNode, id);
  return stack_hash (node->parent, node->frame);
}

static void
ps_event_store_finalize (GObject *object)
{
  PsEventStore *self = (PsEventStore *)object;

  g_clear_pointer (&self->format, g_free);
  g_clear_object (&self->file);
  g_clear_error (&self->error);
  g_clear_pointer (&self->string_ids, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_ptr_array_unref);
  g_clear_pointer (&self->string_chunk, g_string_chunk_free);
  g_clear_pointer (&self->sessions, g_array_unref);
  g_clear_pointer (&self->metadata, g_ptr_array_unref);
  g_clear_pointer (&self->tick_rates, g_array_unref);
  g_clear_pointer (&self->session_rates, g_ptr_array_unref);
  g_clear_pointer (&self->first_rates, g_array_unref);
  g_clear_pointer (&self->tracks, g_array_unref);
  g_clear_pointer (&self->measure_blocks, g_ptr_array_unref);
  spare_release (&self->spare_block);
  g_clear_pointer (&self->wide_values, g_array_unref);
  g_clear_pointer (&self->line_escapes, g_array_unref);
  g_clear_pointer (&self->others, g_array_unref);
  chunked_array_clear (&self->spans);
  g_clear_pointer (&self->span_contexts, g_array_unref);
  g_clear_pointer (&self->span_totals, ps_span_totals_free);
  chunked_array_clear (&self->marks);
  chunked_array_clear (&self->samples);
  g_clear_pointer (&self->sample_sources, g_array_unref);
  chunked_array_clear (&self->counter_values);
  for (guint i = 0; i < self->counter_series->len; i++)
    ps_counter_series_clear (&g_array_index (self->counter_series, PsCounterSeries, i));
  g_clear_pointer (&self->counter_series, g_array_unref);
  id_index_clear (&self->frame_index);
  g_clear_pointer (&self->frames, g_array_unref);
  id_index_clear (&self->stack_index);
  g_clear_pointer (&self->stack_nodes, g_array_unref);
  g_clear_pointer (&self->report_rows, g_array_unref);
  g_clear_pointer (&self->warnings, g_array_unref);
  g_clear_pointer (&self->warning_text, g_string_chunk_free);

  G_OBJECT_CLASS (ps_event_store_parent_class)->finalize (object);
}

static void
ps_event_store_class_init (PsEventStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_event_store_finalize;

  /**
   * PsEventStore::appended:
   *
   * Emitted on the main thread after live collection committed a batch.
   */
  signals[APPENDED] =
    g_signal_new ("appended",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
ps_event_store_init (PsEventStore *self)
{
  PsStackNode root = { 0, PS_NONE };

  self->string_chunk = g_string_chunk_new (64 * 1024);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_ptr_array_new ();
  self->sessions = g_array_new (FALSE, TRUE, sizeof (PsSessionInfo));
  self->metadata = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  self->tick_rates = g_array_new (FALSE, FALSE, sizeof (TickRate));
  self->session_rates = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  self->first_rates = g_array_new (FALSE, FALSE, sizeof (guint));
  self->tracks = g_array_new (FALSE, TRUE, sizeof (PsTrack));
  self->measure_blocks = g_ptr_array_new_with_free_func (measure_block_free);
  self->wide_values = g_array_new (FALSE, FALSE, sizeof (WideValue));
  self->line_escapes = g_array_new (FALSE, FALSE, sizeof (LineEscape));
  self->others = g_array_new (FALSE, FALSE, sizeof (OtherValue));
  chunked_array_init (&self->spans, sizeof (PsSpan));
  self->span_contexts = g_array_new (FALSE, FALSE, sizeof (SpanContext));
  chunked_array_init (&self->marks, sizeof (PsMark));
  chunked_array_init (&self->samples, sizeof (PsSample));
  self->sample_sources = g_array_new (FALSE, TRUE, sizeof (PsSampleSource));
  chunked_array_init (&self->counter_values, sizeof (PsCounterValue));
  self->counter_series = g_array_new (FALSE, FALSE, sizeof (PsCounterSeries));
  self->max_counter_values = PS_EVENT_STORE_DEFAULT_MAX_COUNTER_VALUES;
  self->counter_stride = 1;
  self->frames = g_array_new (FALSE, FALSE, sizeof (PsFrame));
  self->stack_nodes = g_array_new (FALSE, FALSE, sizeof (PsStackNode));
  self->report_rows = g_array_new (FALSE, FALSE, sizeof (PsReportRow));
  g_array_append_val (self->stack_nodes, root);
  self->warnings = g_array_new (FALSE, FALSE, sizeof (StoredWarning));
  self->warning_text = g_string_chunk_new (16 * 1024);

  /* id 0 is always the empty string */
  ps_event_store_intern (self, "", 0);
}

PsEventStore *
ps_event_store_new (void)
{
  return g_object_new (PS_TYPE_EVENT_STORE, NULL);
}

const char *
ps_event_store_get_format (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return self->format;
}

void
ps_event_store_set_format (PsEventStore *self,
                           const char   *format_name)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_free (self->format);
  self->format = g_strdup (format_name);
}

GFile *
ps_event_store_get_file (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return self->file;
}

void
ps_event_store_set_file (PsEventStore *self,
                         GFile        *file)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_set_object (&self->file, file);
}

gboolean
ps_event_store_is_complete (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), FALSE);
  return self->error == NULL;
}

const GError *
ps_event_store_get_error (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  return self->error;
}

void
ps_event_store_set_error (PsEventStore *self,
                          const GError *error)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_clear_error (&self->error);
  if (error != NULL)
    self->error = g_error_copy (error);
}

guint64
ps_event_store_get_bytes_read (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->bytes_read;
}

void
ps_event_store_set_bytes_read (PsEventStore *self,
                               guint64       bytes)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  self->bytes_read = bytes;
}

gsize
ps_event_store_get_memory_size (PsEventStore *self)
{
  gsize size = 0;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  size += self->measure_blocks->len * sizeof (MeasureBlock);
  for (guint i = 0; i < self->measure_blocks->len; i++)
    size += ((MeasureBlock *)g_ptr_array_index (self->measure_blocks, i))->track_table_size * sizeof (guint32);
  size += (self->spans.chunks->len * (gsize)CHUNK_SIZE) * sizeof (PsSpan);
  size += self->span_contexts->len * sizeof (SpanContext);
  size += (self->marks.chunks->len * (gsize)CHUNK_SIZE) * sizeof (PsMark);
  size += (self->samples.chunks->len * (gsize)CHUNK_SIZE) * sizeof (PsSample);
  size += (self->counter_values.chunks->len * (gsize)CHUNK_SIZE) * sizeof (PsCounterValue);
  size += self->counter_series->len * sizeof (PsCounterSeries);
  for (guint i = 0; i < self->counter_series->len; i++)
    size += ps_counter_series_get_room (&g_array_index (self->counter_series, PsCounterSeries, i)) * sizeof (PsCounterBucket);
  size += self->wide_values->len * sizeof (WideValue);
  size += self->line_escapes->len * sizeof (LineEscape);
  size += self->others->len * sizeof (OtherValue);
  size += self->tracks->len * sizeof (PsTrack);
  size += self->strings->len * (sizeof (gpointer) * 4 + 16);
  size += self->frames->len * sizeof (PsFrame) + (self->frame_index.mask + 1) * sizeof (guint64);
  size += self->stack_nodes->len * sizeof (PsStackNode) + (self->stack_index.mask + 1) * sizeof (guint64);
  size += self->report_rows->len * sizeof (PsReportRow);
  size += self->warnings->len * (sizeof (StoredWarning) + 64);

  return size;
}

/* Strings */

guint32
ps_event_store_intern (PsEventStore *self,
                       const char   *text,
                       gssize        length)
{
  gpointer found;
  const char *stored;
  char stack_copy[256];
  g_autofree char *heap_copy = NULL;
  const char *key;
  guint32 id;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  if (text == NULL)
    return 0;
  if (length < 0)
    length = strlen (text);

  /* The hash table needs a NUL-terminated key for the lookup. */
  if ((gsize)length < sizeof stack_copy)
    {
      memcpy (stack_copy, text, length);
      stack_copy[length] = '\0';
      key = stack_copy;
    }
  else
    {
      heap_copy = g_strndup (text, length);
      key = heap_copy;
    }

  found = g_hash_table_lookup (self->string_ids, key);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  stored = g_string_chunk_insert_len (self->string_chunk, text, length);
  id = self->strings->len;
  g_ptr_array_add (self->strings, (gpointer)stored);
  g_hash_table_insert (self->string_ids, (gpointer)stored, GUINT_TO_POINTER (id + 1));

  return id;
}

guint32
ps_event_store_add_text (PsEventStore *self,
                         const char   *text,
                         gssize        length)
{
  const char *stored;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  if (text == NULL)
    return 0;
  if (length < 0)
    length = strlen (text);
  if (length == 0)
    return 0;

  stored = g_string_chunk_insert_len (self->string_chunk, text, length);
  g_ptr_array_add (self->strings, (gpointer)stored);
  return self->strings->len - 1;
}

const char *
ps_event_store_get_string (PsEventStore *self,
                           guint32       id)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), "");

  if (id >= self->strings->len)
    return "";
  return g_ptr_array_index (self->strings, id);
}

/* Sessions and metadata */

guint32
ps_event_store_add_session (PsEventStore *self,
                            guint64       first_line,
                            gboolean      implicit)
{
  PsSessionInfo info = { 0 };

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  info.first_line = first_line;
  info.last_line = first_line;
  info.first_measurement = self->n_measurements;
  info.implicit = !!implicit;
  g_array_append_val (self->sessions, info);
  g_ptr_array_add (self->metadata, g_array_new (FALSE, FALSE, sizeof (MetadataPair)));

  return self->sessions->len - 1;
}

guint
ps_event_store_get_n_sessions (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->sessions->len;
}

const PsSessionInfo *
ps_event_store_get_session (PsEventStore *self,
                            guint32       session)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (session < self->sessions->len, NULL);
  return &g_array_index (self->sessions, PsSessionInfo, session);
}

void
ps_event_store_set_session_end (PsEventStore *self,
                                guint32       session,
                                guint64       last_line)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (session < self->sessions->len);
  g_array_index (self->sessions, PsSessionInfo, session).last_line = last_line;
}

void
ps_event_store_set_session_origin (PsEventStore *self,
                                   guint32       session,
                                   gint64        origin_unix_ns)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (session < self->sessions->len);
  g_array_index (self->sessions, PsSessionInfo, session).origin_unix_ns = origin_unix_ns;
}

void
ps_event_store_set_metadata (PsEventStore *self,
                             guint32       session,
                             const char   *key,
                             const char   *value)
{
  GArray *pairs;
  MetadataPair pair;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (session < self->sessions->len);
  g_return_if_fail (key != NULL);

  pairs = g_ptr_array_index (self->metadata, session);
  pair.key = ps_event_store_intern (self, key, -1);
  pair.value = ps_event_store_intern (self, value ? value : "", -1);

  for (guint i = 0; i < pairs->len; i++)
    {
      MetadataPair *existing = &g_array_index (pairs, MetadataPair, i);

      if (existing->key == pair.key)
        {
          existing->value = pair.value;
          return;
        }
    }

  g_array_append_val (pairs, pair);
}

const char *
ps_event_store_get_metadata (PsEventStore *self,
                             guint32       session,
                             const char   *key)
{
  GArray *pairs;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (session >= self->sessions->len)
    return NULL;

  pairs = g_ptr_array_index (self->metadata, session);
  for (guint i = 0; i < pairs->len; i++)
    {
      const MetadataPair *pair = &g_array_index (pairs, MetadataPair, i);

      if (strcmp (ps_event_store_get_string (self, pair->key), key) == 0)
        return ps_event_store_get_string (self, pair->value);
    }

  return NULL;
}

GArray *
ps_event_store_list_metadata (PsEventStore *self,
                              guint32       session)
{
  GArray *entries;
  GArray *pairs;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);

  entries = g_array_new (FALSE, FALSE, sizeof (PsMetadataEntry));
  if (session >= self->sessions->len)
    return entries;

  pairs = g_ptr_array_index (self->metadata, session);
  for (guint i = 0; i < pairs->len; i++)
    {
      const MetadataPair *pair = &g_array_index (pairs, MetadataPair, i);
      PsMetadataEntry entry = {
        ps_event_store_get_string (self, pair->key),
        ps_event_store_get_string (self, pair->value),
      };

      g_array_append_val (entries, entry);
    }

  return entries;
}

/* Tick rates */

/* A session's rates by from_index, NULL if it has none */
static GArray *
rates_of_session (PsEventStore *self,
                  guint32       session)
{
  return session < self->session_rates->len ? g_ptr_array_index (self->session_rates, session) : NULL;
}

static inline guint64
rate_from (PsEventStore *self,
           GArray       *rates,
           guint         k)
{
  return g_array_index (self->tick_rates, TickRate, g_array_index (rates, guint, k)).from_index;
}

/* The number of a session's rates whose from_index is at most index: the
 * position after the last of them */
static guint
rates_up_to (PsEventStore *self,
             GArray       *rates,
             guint64       index)
{
  guint low = 0, high = rates->len;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (rate_from (self, rates, middle) <= index)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

void
ps_event_store_add_tick_rate (PsEventStore *self,
                              guint32       session,
                              guint64       from_index,
                              double        ticks_per_second)
{
  TickRate rate = { session, from_index, ticks_per_second };
  guint added;
  GArray *rates;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (ticks_per_second > 0);
  g_return_if_fail (session < self->sessions->len);

  added = self->tick_rates->len;
  g_array_append_val (self->tick_rates, rate);

  while (self->session_rates->len <= session)
    {
      g_ptr_array_add (self->session_rates, g_array_new (FALSE, FALSE, sizeof (guint)));
      g_array_append_val (self->first_rates, added);
    }
  rates = g_ptr_array_index (self->session_rates, session);
  if (rates->len == 0)
    g_array_index (self->first_rates, guint, session) = added;
  /* In file order from_index only grows: the end, without a search */
  if (rates->len == 0 || rate_from (self, rates, rates->len - 1) <= from_index)
    g_array_append_val (rates, added);
  else
    g_array_insert_val (rates, rates_up_to (self, rates, from_index), added);
}

double
ps_event_store_get_tick_rate (PsEventStore *self,
                              guint32       session,
                              guint64       index)
{
  GArray *rates;
  guint up_to;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  rates = rates_of_session (self, session);
  if (rates == NULL || rates->len == 0)
    return 0;

  /* The latest rate in effect at index; before any, the first added */
  up_to = rates_up_to (self, rates, index);
  if (up_to > 0)
    return g_array_index (self->tick_rates, TickRate, g_array_index (rates, guint, up_to - 1)).ticks_per_second;
  return g_array_index (self->tick_rates, TickRate,
                        g_array_index (self->first_rates, guint, session)).ticks_per_second;
}

guint
ps_event_store_get_n_tick_rates (PsEventStore *self,
                                 guint32       session)
{
  GArray *rates;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  rates = rates_of_session (self, session);
  return rates != NULL ? rates->len : 0;
}

/* Tracks */

guint32
ps_event_store_add_track (PsEventStore  *self,
                          const PsTrack *track)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), PS_NONE);
  g_return_val_if_fail (track != NULL, PS_NONE);

  g_array_append_vals (self->tracks, track, 1);
  return self->tracks->len - 1;
}

guint
ps_event_store_get_n_tracks (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->tracks->len;
}

const PsTrack *
ps_event_store_get_track (PsEventStore *self,
                          guint32       track)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (track < self->tracks->len, NULL);
  return &g_array_index (self->tracks, PsTrack, track);
}

void
ps_event_store_add_track_flags (PsEventStore *self,
                                guint32       track,
                                guint16       flags)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (track < self->tracks->len);
  g_array_index (self->tracks, PsTrack, track).flags |= flags;
}

void
_ps_event_store_set_track_name (PsEventStore *self,
                                guint32       track,
                                guint32       name,
                                guint32       category)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (track < self->tracks->len);
  g_array_index (self->tracks, PsTrack, track).name = name;
  g_array_index (self->tracks, PsTrack, track).category = category;
}

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
          block = take_piece (&self->spare_block, sizeof (MeasureBlock), index > 0);
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
  guint64 wide = 0;
  guint8 meta;

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

  meta = block->meta[offset];
  out->index = index;
  out->line = line;
  out->track = block->track_table[block->track_local[offset]];
  out->kind = meta & META_KIND_MASK;
  out->flags = (meta >> META_FLAGS_SHIFT) & META_FLAGS_MASK;
  if (meta & META_WIDE)
    find_wide (self->wide_values, index, &wide);
  decode_value (out, block->value[offset], (meta & META_WIDE) != 0, wide);
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

  chunked_array_append (&self->spans, held != NULL ? held : spans, n);
}

gpointer
_ps_event_store_get_span_room (PsEventStore *self,
                               guint        *n_room)
{
  return chunked_array_room (&self->spans, n_room);
}

/* Makes the first n elements of the room the array's */
static void
chunked_array_commit (ChunkedArray *array,
                      guint         n,
                      const gsize  *time_offsets,
                      guint         n_time_offsets)
{
  guint room;
  guint8 *first = chunked_array_room (array, &room);

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

  chunked_array_append (&self->marks, held != NULL ? held : marks, n);
}

gpointer
_ps_event_store_get_mark_room (PsEventStore *self,
                               guint        *n_room)
{
  return chunked_array_room (&self->marks, n_room);
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

  chunked_array_append (&self->samples, held != NULL ? held : samples, n);
  for (guint i = 0; i < n; i++)
    if (samples[i].source < self->sample_sources->len)
      g_array_index (self->sample_sources, PsSampleSource, samples[i].source).n_samples += samples[i].weight;
}

static PsCounterSeries *
counter_series_of (PsEventStore *self,
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

/* Keeps every second reading of those kept so far, in each track */
static void
thin_counter_values (PsEventStore *self)
{
  g_autofree guint8 *odd = g_new0 (guint8, MAX (self->counter_series->len, 1));
  guint64 kept = 0;

  for (guint64 i = 0; i < self->counter_values.length; i++)
    {
      const PsCounterValue *value = chunked_array_get (&self->counter_values, i);
      guint32 track = value->track < self->counter_series->len ? value->track : 0;

      if (!odd[track])
        {
          if (kept != i)
            memcpy ((gpointer)chunked_array_get (&self->counter_values, kept), value, sizeof *value);
          kept++;
        }
      odd[track] ^= 1;
    }
  /* The chunks emptied stay for the readings to come: they fill up again
   * before the next thinning, and memory made ready once is not cleared
   * again. _ps_event_store_trim () lets go of them after the load. */
  self->counter_values.length = kept;

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
                                       guint                 n)
{
  for (guint i = 0; i < n; i++)
    {
      const PsCounterValue *value = &values[i];
      PsCounterSeries *series = counter_series_of (self, value->track);
      guint64 ordinal = series->n_readings;

      ps_counter_series_add (series, value->time_ns, value->value, (value->flags & PS_COUNTER_FLAG_MISSING) != 0);
      self->n_counter_readings++;
      if ((ordinal & (self->counter_stride - 1)) != 0)
        continue;
      chunked_array_append (&self->counter_values, value, 1);
      if (self->max_counter_values != 0 && self->counter_values.length > self->max_counter_values)
        thin_counter_values (self);
    }
}

void
_ps_event_store_trim (PsEventStore *self)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));

  chunked_array_trim (&self->spans);
  chunked_array_trim (&self->marks);
  chunked_array_trim (&self->samples);
  chunked_array_trim (&self->counter_values);
  spare_release (&self->spare_block);
}

PsCounterSeries *
_ps_event_store_edit_counter_series (PsEventStore *self,
                                     guint32       n_tracks)
{
  if (n_tracks == 0)
    return (PsCounterSeries *)(gpointer)self->counter_series->data;
  return counter_series_of (self, n_tracks - 1) - (n_tracks - 1);
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
                                            guint                 n_values,
                                            guint64               n_readings)
{
  self->n_counter_readings += n_readings;
  if (n_values == 0)
    return;
  g_return_if_fail (self->max_counter_values == 0
                    || self->counter_values.length + n_values <= self->max_counter_values);
  chunked_array_append (&self->counter_values, values, n_values);
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

/* Stacks and frames */

guint32
ps_event_store_intern_frame (PsEventStore *self,
                             guint32       function,
                             guint32       module,
                             guint64       address)
{
  PsFrame frame = { address, function, module };
  guint64 hash;
  guint32 fingerprint;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), PS_NONE);

  id_index_reserve (&self->frame_index, frame_hash_of, self, 0, self->frames->len);

  hash = frame_hash (&frame);
  fingerprint = (guint32)(hash >> 32);
  for (guint32 slot = (guint32)hash & self->frame_index.mask;
       self->frame_index.slots[slot] != 0;
       slot = (slot + 1) & self->frame_index.mask)
    {
      guint64 entry = self->frame_index.slots[slot];
      const PsFrame *found;

      if ((guint32)(entry >> 32) != fingerprint)
        continue;
      found = &g_array_index (self->frames, PsFrame, (guint32)entry - 1);
      if (found->address == address && found->function == function && found->module == module)
        return (guint32)entry - 1;
    }

  id_index_put (&self->frame_index, hash, self->frames->len);
  g_array_append_val (self->frames, frame);

  return self->frames->len - 1;
}

const PsFrame *
ps_event_store_get_frame (PsEventStore *self,
                          guint32       frame)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (frame < self->frames->len, NULL);
  return &g_array_index (self->frames, PsFrame, frame);
}

guint32
ps_event_store_intern_stack (PsEventStore *self,
                             guint32       parent,
                             guint32       frame)
{
  PsStackNode node = { parent, frame };
  const PsStackNode *nodes;
  guint64 hash;
  guint32 fingerprint;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  g_return_val_if_fail (parent < self->stack_nodes->len, 0);

  /* Node 0, the empty stack, is never in the index */
  id_index_reserve (&self->stack_index, stack_hash_of, self, 1, self->stack_nodes->len);

  hash = stack_hash (parent, frame);
  /* The node made last has no children yet: a stack that grows by new
   * frames (a new call chain) is never looked for, only placed, and
   * what comes next does not wait for the probe */
  if (parent == 0 || parent != self->stack_nodes->len - 1)
    {
      fingerprint = (guint32)(hash >> 32);
      nodes = (const PsStackNode *)(gpointer)self->stack_nodes->data;
      for (guint32 slot = (guint32)hash & self->stack_index.mask;
           self->stack_index.slots[slot] != 0;
           slot = (slot + 1) & self->stack_index.mask)
        {
          guint64 entry = self->stack_index.slots[slot];
          guint32 id;

          if ((guint32)(entry >> 32) != fingerprint)
            continue;
          id = (guint32)entry - 1;
          if (nodes[id].parent == parent && nodes[id].frame == frame)
            return id;
        }
    }

  id_index_put (&self->stack_index, hash, self->stack_nodes->len);
  g_array_append_val (self->stack_nodes, node);

  return self->stack_nodes->len - 1;
}

void
_ps_event_store_prefetch_stack (PsEventStore *self,
                                guint32       parent,
                                guint32       frame)
{
  if (self->stack_index.slots != NULL)
    __builtin_prefetch (&self->stack_index.slots[(guint32)stack_hash (parent, frame) & self->stack_index.mask], 1);
}

const PsStackNode *
ps_event_store_get_stack_node (PsEventStore *self,
                               guint32       stack)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (stack < self->stack_nodes->len, NULL);
  return &g_array_index (self->stack_nodes, PsStackNode, stack);
}

void
ps_event_store_append_frame_name (PsEventStore *self,
                                  guint32       frame_id,
                                  GString      *out)
{
  const PsFrame *frame;
  const char *module;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (frame_id < self->frames->len);

  frame = &g_array_index (self->frames, PsFrame, frame_id);
  if (frame->function != 0)
    {
      g_string_append (out, ps_event_store_get_string (self, frame->function));
      return;
    }

  module = frame->module != 0 ? ps_event_store_get_string (self, frame->module) : NULL;
  if (module != NULL && module[0] != '\0')
    {
      const char *base = strrchr (module, '/');

      g_string_append (out, base != NULL && base[1] != '\0' ? base + 1 : module);
      g_string_append_printf (out, "+0x%" PRIx64 "", frame->address);
    }
  else
    g_string_append_printf (out, "0x%" PRIx64 "", frame->address);
}

guint
ps_event_store_get_n_stack_nodes (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->stack_nodes->len;
}

guint
ps_event_store_get_n_frames (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->frames->len;
}

gboolean
ps_event_store_get_time_range (PsEventStore *self,
                               gint64       *begin_ns,
                               gint64       *end_ns)
{
  gint64 begin = G_MAXINT64;
  gint64 end = G_MININT64;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), FALSE);

  for (guint64 i = 0; i < self->spans.length; i++)
    {
      const PsSpan *span = chunked_array_get (&self->spans, i);
      begin = MIN (begin, span->begin_ns);
      end = MAX (end, span->end_ns);
    }
  for (guint64 i = 0; i < self->marks.length; i++)
    {
      const PsMark *mark = chunked_array_get (&self->marks, i);
      begin = MIN (begin, mark->time_ns);
      end = MAX (end, mark->time_ns);
    }
  for (guint64 i = 0; i < self->samples.length; i++)
    {
      const PsSample *sample = chunked_array_get (&self->samples, i);

      if (sample->flags & PS_SAMPLE_FLAG_UNTIMED)
        continue;
      begin = MIN (begin, sample->time_ns);
      end = MAX (end, sample->time_ns);
    }
  for (guint64 i = 0; i < self->counter_values.length; i++)
    {
      const PsCounterValue *value = chunked_array_get (&self->counter_values, i);
      begin = MIN (begin, value->time_ns);
      end = MAX (end, value->time_ns);
    }
  /* Readings that were not kept */
  for (guint i = 0; i < self->counter_series->len; i++)
    {
      const PsCounterStats *stats = &g_array_index (self->counter_series, PsCounterSeries, i).stats;

      if (stats->n_values == 0)
        continue;
      begin = MIN (begin, stats->first_ns);
      end = MAX (end, stats->last_ns);
    }

  if (begin > end)
    return FALSE;

  if (begin_ns)
    *begin_ns = begin;
  if (end_ns)
    *end_ns = end;
  return TRUE;
}

/* Warnings */

void
ps_event_store_add_warning (PsEventStore *self,
                            PsSeverity    severity,
                            const char   *code,
                            guint64       line,
                            guint64       offset,
                            guint32       session,
                            const char   *message)
{
  StoredWarning warning;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (code != NULL);

  self->n_warnings_raised++;
  if (self->warnings->len >= PS_EVENT_STORE_MAX_WARNINGS)
    return;

  warning.code = ps_event_store_intern (self, code, -1);
  warning.message = g_string_chunk_insert (self->warning_text, message ? message : "");
  warning.line = line;
  warning.offset = offset;
  warning.session = session;
  warning.severity = severity;
  g_array_append_val (self->warnings, warning);
}

guint
ps_event_store_get_n_warnings (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->warnings->len;
}

void
ps_event_store_get_warning (PsEventStore *self,
                            guint         index,
                            PsWarning    *out)
{
  const StoredWarning *warning;

  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_return_if_fail (index < self->warnings->len);
  g_return_if_fail (out != NULL);

  warning = &g_array_index (self->warnings, StoredWarning, index);
  out->code = ps_event_store_get_string (self, warning->code);
  out->message = warning->message;
  out->line = warning->line;
  out->offset = warning->offset;
  out->session = warning->session;
  out->severity = warning->severity;
}

guint64
ps_event_store_get_n_warnings_raised (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);
  return self->n_warnings_raised;
}

void
ps_event_store_emit_appended (PsEventStore *self)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  g_signal_emit (self, signals[APPENDED], 0);
}

/* Report rows */

guint32
ps_event_store_add_report_row (PsEventStore      *self,
                               const PsReportRow *row)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), PS_NONE);
  g_return_val_if_fail (row != NULL, PS_NONE);

  g_array_append_val (self->report_rows, *row);
  return self->report_rows->len - 1;
}

guint
ps_event_store_get_n_report_rows (PsEventStore *self)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), 0);

  return self->report_rows->len;
}

const PsReportRow *
ps_event_store_get_report_row (PsEventStore *self,
                               guint32       index)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), NULL);
  g_return_val_if_fail (index < self->report_rows->len, NULL);

  return &g_array_index (self->report_rows, PsReportRow, index);
}

/* The native format's view of the store */

guint
_ps_event_store_get_n_strings (PsEventStore *self)
{
  return self->strings->len;
}

gboolean
_ps_event_store_string_is_interned (PsEventStore *self,
                                    guint32       id)
{
  g_return_val_if_fail (id < self->strings->len, FALSE);
  return g_hash_table_lookup (self->string_ids, g_ptr_array_index (self->strings, id)) == GUINT_TO_POINTER (id + 1);
}

guint
_ps_event_store_get_n_others (PsEventStore *self)
{
  return self->others->len;
}

void
_ps_event_store_get_other_ids (PsEventStore *self,
                               guint32       other,
                               guint32      *kind_name,
                               guint32      *raw_value)
{
  const OtherValue *value = &g_array_index (self->others, OtherValue, other);

  *kind_name = value->kind_name;
  *raw_value = value->raw_value;
}

guint
_ps_event_store_get_n_all_tick_rates (PsEventStore *self)
{
  return self->tick_rates->len;
}

void
_ps_event_store_get_tick_rate_entry (PsEventStore *self,
                                     guint         index,
                                     guint32      *session,
                                     guint64      *from_index,
                                     double       *ticks_per_second)
{
  const TickRate *rate = &g_array_index (self->tick_rates, TickRate, index);

  *session = rate->session;
  *from_index = rate->from_index;
  *ticks_per_second = rate->ticks_per_second;
}

guint
_ps_event_store_get_n_span_contexts (PsEventStore *self)
{
  return self->span_contexts->len;
}

void
_ps_event_store_get_span_context_entry (PsEventStore *self,
                                        guint         index,
                                        guint64      *span,
                                        guint32      *context)
{
  const SpanContext *entry = &g_array_index (self->span_contexts, SpanContext, index);

  *span = entry->index;
  *context = entry->context;
}

guint32
_ps_event_store_restore_session (PsEventStore        *self,
                                 const PsSessionInfo *info)
{
  g_array_append_vals (self->sessions, info, 1);
  g_ptr_array_add (self->metadata, g_array_new (FALSE, FALSE, sizeof (MetadataPair)));
  return self->sessions->len - 1;
}

guint16
_ps_event_store_restore_sample_source (PsEventStore *self,
                                       guint32       name,
                                       guint32       unit,
                                       guint64       rate)
{
  PsSampleSource source = { name, unit, rate, 0 };

  g_return_val_if_fail (self->sample_sources->len <= G_MAXUINT16, G_MAXUINT16);
  g_array_append_val (self->sample_sources, source);
  return self->sample_sources->len - 1;
}

guint
_ps_event_store_get_n_counter_series (PsEventStore *self)
{
  return self->counter_series->len;
}

const PsCounterSeries *
_ps_event_store_get_counter_series (PsEventStore *self,
                                    guint32       track)
{
  if (track >= self->counter_series->len)
    return NULL;
  return &g_array_index (self->counter_series, PsCounterSeries, track);
}

void
_ps_event_store_restore_counter_series (PsEventStore          *self,
                                        guint32                track,
                                        const PsCounterSeries *series)
{
  PsCounterSeries *into = counter_series_of (self, track);

  ps_counter_series_clear (into);
  *into = *series;
  if (series->buckets != NULL)
    into->buckets = g_memdup2 (series->buckets, ps_counter_series_get_room (series) * sizeof (PsCounterBucket));
}

void
_ps_event_store_restore_counter_values (PsEventStore         *self,
                                        const PsCounterValue *values,
                                        guint                 n)
{
  chunked_array_append (&self->counter_values, values, n);
}

void
_ps_event_store_restore_totals (PsEventStore *self,
                                guint64       n_counter_readings,
                                guint         counter_stride,
                                guint64       n_warnings_raised)
{
  self->n_counter_readings = n_counter_readings;
  self->counter_stride = counter_stride;
  self->n_warnings_raised = n_warnings_raised;
}
