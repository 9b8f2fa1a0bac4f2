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
 *
 * The appending and reading of the events themselves (measurements,
 * spans, marks, samples, counter values) are in ps-event-store-events.c.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "ps-event-store-internal.h"
#include "ps-span-totals.h"
#include "ps-util.h"

static void
measure_block_free (gpointer data)
{
  MeasureBlock *block = data;

  g_free (block->track_table);
  g_free (block);
}

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
        gpointer memory = ps_util_alloc_for_filling (spare->size, TRUE, FALSE);

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
gpointer
store_take_piece (Spare    **slot,
                  gsize      size,
                  gboolean   growing)
{
  gpointer memory = NULL;

  for (guint i = 0; *slot != NULL && memory == NULL && i < SPARE_PIECES; i++)
    if (g_atomic_pointer_get (&(*slot)->pieces[i]) != NULL)
      memory = g_atomic_pointer_exchange (&(*slot)->pieces[i], NULL);
  if (memory == NULL)
    memory = ps_util_alloc_for_filling (size, growing, FALSE);
  if (growing)
    request_spare (slot, size);
  return memory;
}

void
store_spare_release (Spare **slot)
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
  store_spare_release (&array->spare);
  array->length = 0;
}

/* The memory after the last element, up to the end of its chunk: *room
 * elements (at least one) */
guint8 *
store_chunked_array_room (ChunkedArray *array,
                          guint        *room)
{
  guint offset = array->length & CHUNK_MASK;
  guint8 *chunk;

  /* A chunk may be there already, emptied by thinning */
  if (offset == 0 && (array->length >> CHUNK_SHIFT) == array->chunks->len)
    g_ptr_array_add (array->chunks, store_take_piece (&array->spare, array->element_size * CHUNK_SIZE, array->length > 0));
  chunk = g_ptr_array_index (array->chunks, array->length >> CHUNK_SHIFT);
  *room = CHUNK_SIZE - offset;
  return chunk + offset * array->element_size;
}

void
store_chunked_array_append (ChunkedArray *array,
                            gconstpointer elements,
                            guint         n)
{
  const guint8 *from = elements;

  while (n > 0)
    {
      guint room;
      guint8 *to = store_chunked_array_room (array, &room);
      guint count = MIN (room, n);

      memcpy (to, from, count * array->element_size);
      array->length += count;
      from += count * array->element_size;
      n -= count;
    }
}

/* Lets go of the chunks after the last element and of the spare */
void
store_chunked_array_trim (ChunkedArray *array)
{
  guint needed = (guint) ((array->length + CHUNK_SIZE - 1) >> CHUNK_SHIFT);

  if (array->chunks != NULL && array->chunks->len > needed)
    g_ptr_array_remove_range (array->chunks, needed, array->chunks->len - needed);
  store_spare_release (&array->spare);
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

/* The part of a key's fingerprint that its slot keeps, above the id */
static inline guint32
id_index_tag (const IdIndex *index,
              guint64        hash)
{
  return (guint32)(hash >> 32) & ~index->mask;
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
  index->slots[slot] = id_index_tag (index, hash) | (id + 1);
  index->used++;
}

/* The ids whose keys may be the one of hash, one after the other: start
 * with *slot at (guint32)hash & index->mask, PS_NONE when there are no
 * more. The caller compares the keys. */
static inline guint32
id_index_next (const IdIndex *index,
               guint64        hash,
               guint32       *slot)
{
  guint32 tag = id_index_tag (index, hash);

  for (; index->slots[*slot] != 0; *slot = (*slot + 1) & index->mask)
    {
      guint32 entry = index->slots[*slot];

      if ((entry & ~index->mask) == tag)
        {
          *slot = (*slot + 1) & index->mask;
          return (entry & index->mask) - 1;
        }
    }
  return PS_NONE;
}

static gsize
id_index_bytes (const IdIndex *index)
{
  return index->slots != NULL ? ((gsize)index->mask + 1) * sizeof (guint32) : 0;
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

  /* Empty, or dropped with ids in it (ps_event_store_loaded ()) */
  size = index->slots == NULL ? 1024 : (index->mask + 1) * 2;
  while (((guint64)(n_ids - MIN (first, n_ids)) + 1) * 4 > (guint64)(size - 1) * 3)
    size *= 2;
  g_free (index->slots);
  /* Every page is written, in any order: faulted in at once */
  index->slots = ps_util_alloc_filled ((gsize)size * sizeof (guint32), TRUE);
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
  store_spare_release (&self->spare_block);
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
  chunked_array_clear (&self->counter_raws);
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
  chunked_array_init (&self->counter_raws, sizeof (PsCounterRaw));
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

void
ps_event_store_loaded (PsEventStore *self)
{
  g_return_if_fail (PS_IS_EVENT_STORE (self));
  /* Made again if a stack is interned after all */
  id_index_clear (&self->stack_index);
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
  size += (self->counter_raws.chunks->len * (gsize)CHUNK_SIZE) * sizeof (PsCounterRaw);
  size += self->counter_series->len * sizeof (PsCounterSeries);
  for (guint i = 0; i < self->counter_series->len; i++)
    size += ps_counter_series_get_room (&g_array_index (self->counter_series, PsCounterSeries, i)) * sizeof (PsCounterBucket);
  size += self->wide_values->len * sizeof (WideValue);
  size += self->line_escapes->len * sizeof (LineEscape);
  size += self->others->len * sizeof (OtherValue);
  size += self->tracks->len * sizeof (PsTrack);
  size += self->strings->len * (sizeof (gpointer) * 4 + 16);
  size += self->frames->len * sizeof (PsFrame) + id_index_bytes (&self->frame_index);
  size += self->stack_nodes->len * sizeof (PsStackNode) + id_index_bytes (&self->stack_index);
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

gboolean
ps_event_store_get_session_measurements (PsEventStore *self,
                                         guint32       session,
                                         guint64      *first,
                                         guint64      *end)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (self), FALSE);

  if (session >= self->sessions->len)
    return FALSE;
  *first = g_array_index (self->sessions, PsSessionInfo, session).first_measurement;
  *end = session + 1 < self->sessions->len
         ? g_array_index (self->sessions, PsSessionInfo, session + 1).first_measurement
         : self->n_measurements;
  return *end > *first;
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

/* Stacks and frames */

guint32
ps_event_store_intern_frame (PsEventStore *self,
                             guint32       function,
                             guint32       module,
                             guint64       address)
{
  PsFrame frame = { address, function, module };
  guint64 hash;
  guint32 slot;
  guint32 id;

  g_return_val_if_fail (PS_IS_EVENT_STORE (self), PS_NONE);

  id_index_reserve (&self->frame_index, frame_hash_of, self, 0, self->frames->len);

  hash = frame_hash (&frame);
  slot = (guint32)hash & self->frame_index.mask;
  while ((id = id_index_next (&self->frame_index, hash, &slot)) != PS_NONE)
    {
      const PsFrame *found = &g_array_index (self->frames, PsFrame, id);

      if (found->address == address && found->function == function && found->module == module)
        return id;
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
      guint32 slot = (guint32)hash & self->stack_index.mask;
      guint32 id;

      nodes = (const PsStackNode *)(gpointer)self->stack_nodes->data;
      while ((id = id_index_next (&self->stack_index, hash, &slot)) != PS_NONE)
        if (nodes[id].parent == parent && nodes[id].frame == frame)
          return id;
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
  PsCounterSeries *into = store_counter_series_of (self, track);

  ps_counter_series_clear (into);
  *into = *series;
  if (series->buckets != NULL)
    into->buckets = g_memdup2 (series->buckets, ps_counter_series_get_room (series) * sizeof (PsCounterBucket));
}

void
_ps_event_store_restore_counter_values (PsEventStore         *self,
                                        const PsCounterValue *values,
                                        const PsCounterRaw   *raws,
                                        guint                 n)
{
  store_chunked_array_append (&self->counter_values, values, n);
  store_keep_counter_raws (self, raws, n);
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
