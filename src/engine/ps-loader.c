/* ps-loader.c — load a file into a new event store, off the main thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#ifdef G_OS_UNIX
#include <gio/gfiledescriptorbased.h>
#endif

#include "ps-error.h"
#include "ps-file-window.h"
#include "ps-loader.h"
#include "ps-util.h"

struct _PsLoader
{
  GObject         parent_instance;

  GFile          *file;
  const PsFormat *format;
  GHashTable     *options;  /* for the parser; read by the worker, set before loading */
  double          fraction;
  char           *message;

  /* Shared with the worker thread */
  GMutex          lock;
  guint64         bytes_read;
  guint64         total_size;
  GSource        *progress_source;
  gint64          progress_shown_us;  /* when it was last published, monotonic */
};

G_DEFINE_FINAL_TYPE (PsLoader, ps_loader, G_TYPE_OBJECT)

/* The format a store was read in, on the store (ps_load_get_read_format ()) */
static GQuark
read_format_quark (void)
{
  return g_quark_from_static_string ("ps-loader-read-format");
}

enum {
  PROP_0,
  PROP_FRACTION,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Forgets the progress queued for the main context and not shown yet;
 * the worker queues it under the lock */
static void
drop_progress (PsLoader *self)
{
  g_mutex_lock (&self->lock);
  if (self->progress_source != NULL)
    {
      g_source_destroy (self->progress_source);
      g_clear_pointer (&self->progress_source, g_source_unref);
    }
  g_mutex_unlock (&self->lock);
}

static void
ps_loader_dispose (GObject *object)
{
  PsLoader *self = (PsLoader *)object;

  drop_progress (self);

  G_OBJECT_CLASS (ps_loader_parent_class)->dispose (object);
}

static void
ps_loader_finalize (GObject *object)
{
  PsLoader *self = (PsLoader *)object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->message, g_free);
  g_clear_pointer (&self->options, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (ps_loader_parent_class)->finalize (object);
}

static void
ps_loader_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  PsLoader *self = PS_LOADER (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_loader_class_init (PsLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ps_loader_dispose;
  object_class->finalize = ps_loader_finalize;
  object_class->get_property = ps_loader_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ps_loader_init (PsLoader *self)
{
  g_mutex_init (&self->lock);
}

PsLoader *
ps_loader_new (GFile *file)
{
  PsLoader *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* The file is fixed for the loader's life: a field, not a property */
  self = g_object_new (PS_TYPE_LOADER, NULL);
  self->file = g_object_ref (file);
  return self;
}

GFile *
ps_loader_get_file (PsLoader *self)
{
  g_return_val_if_fail (PS_IS_LOADER (self), NULL);
  return self->file;
}

void
ps_loader_set_format (PsLoader       *self,
                      const PsFormat *format)
{
  g_return_if_fail (PS_IS_LOADER (self));
  self->format = format;
}

void
ps_loader_set_option (PsLoader   *self,
                      const char *key,
                      const char *value)
{
  g_return_if_fail (PS_IS_LOADER (self));

  ps_format_options_set (&self->options, key, value);
}

double
ps_loader_get_fraction (PsLoader *self)
{
  g_return_val_if_fail (PS_IS_LOADER (self), 0);
  return self->fraction;
}

const char *
ps_loader_get_message (PsLoader *self)
{
  g_return_val_if_fail (PS_IS_LOADER (self), NULL);
  return self->message;
}

static void
set_progress (PsLoader   *self,
              double      fraction,
              const char *message)
{
  fraction = CLAMP (fraction, 0.0, 1.0);
  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
  if (g_strcmp0 (message, self->message) != 0)
    {
      g_free (self->message);
      self->message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
    }
}

/* Reads until the buffer is full or the stream ends. On an error the bytes
 * read before it are still counted. */
static gsize
read_full (GInputStream  *stream,
           guint8        *buffer,
           gsize          size,
           GCancellable  *cancellable,
           GError       **error)
{
  gsize bytes_read = 0;

  g_input_stream_read_all (stream, buffer, size, &bytes_read, cancellable, error);
  return bytes_read;
}

/* Read-ahead: a reader thread fills buffers while the caller parses, so
 * the copy from the kernel overlaps with parsing on another core. For a
 * parser in two stages (PsParserStages) the reader thread also scans each
 * buffer, while it is still in its core's cache, and the caller applies
 * the one before. */

#define N_READ_BUFFERS 3

/* A regular file is mapped a chunk at a time instead of read: copying a
 * large log out of the page cache costs about as much as parsing it. The
 * windows are unmapped once they are parsed, so memory stays bounded:
 * by the thread that has less to do, the reading one when it only maps
 * and the applying one when the reading one also scans. They survive
 * the file being truncated meanwhile (ps-file-window.c). The part of the
 * file that does not fill a whole chunk is read as usual, so that a short
 * chunk still means the end. */

typedef struct
{
  const guint8 *data;       /* buffer, or inside window */
  gssize        length;     /* 0 at the end of the stream */
  GError       *error;      /* the read stopped after length bytes */
  gpointer      scanned;    /* the parser's scan of data, owned by the parser */
  guint8       *buffer;     /* for reads, allocated on first use */
  PsFileWindow *window;     /* the mapped chunk, or NULL */
  guint64       offset;     /* of data in the file, for a mapped chunk */
} ReadChunk;

typedef struct
{
  GInputStream *stream;
  PsParser     *parser;      /* scans in this thread, or NULL */
  GCancellable *cancellable;
  gsize         chunk_size;
  GAsyncQueue  *free_chunks;
  GAsyncQueue  *full_chunks;
  gint          stop;
  gint          feed_only;   /* chunks from now on are not scanned */
  GThread      *thread;

  /* Mapping: the file, or -1; where the next chunk starts, and its
   * window, mapped ahead while its pages are read in, or NULL */
  int           fd;
  guint64       map_offset;
  PsFileWindow *next_window;
} ReadAhead;

/* Fills a chunk by mapping the next stretch of the file, or else by
 * reading; after the last mapped chunk the stream is moved to where
 * reading goes on. */
static void
fill_chunk (ReadAhead *ahead,
            ReadChunk *chunk)
{
  if (ahead->fd >= 0)
    {
      /* A page past the chunk for readers that look ahead a little */
      chunk->window = g_steal_pointer (&ahead->next_window);
      if (chunk->window == NULL)
        chunk->window = ps_file_window_map (ahead->fd, ahead->map_offset, ahead->chunk_size, 4096, TRUE);
      if (chunk->window != NULL)
        {
          chunk->data = ps_file_window_get_data (chunk->window);
          chunk->length = (gssize) ahead->chunk_size;
          chunk->offset = ahead->map_offset;
          ahead->map_offset += ahead->chunk_size;
          /* The next chunk's pages are read in on another thread while
           * this one is parsed, not by the thread that will parse it */
          ahead->next_window = ps_file_window_map (ahead->fd, ahead->map_offset, ahead->chunk_size, 4096, FALSE);
          if (ahead->next_window != NULL)
            ps_file_window_populate_in_background (ahead->next_window);
          return;
        }
      ahead->fd = -1;
      if (!g_seekable_seek (G_SEEKABLE (ahead->stream), (goffset) ahead->map_offset, G_SEEK_SET,
                            ahead->cancellable, &chunk->error))
        {
          chunk->length = 0;
          return;
        }
    }

  if (chunk->buffer == NULL)
    chunk->buffer = g_malloc (ahead->chunk_size);
  chunk->data = chunk->buffer;
  chunk->length = read_full (ahead->stream, chunk->buffer, ahead->chunk_size, ahead->cancellable, &chunk->error);
}

static gpointer
read_ahead_thread (gpointer data)
{
  ReadAhead *ahead = data;

  for (;;)
    {
      ReadChunk *chunk = g_async_queue_pop (ahead->free_chunks);

      if (g_atomic_int_get (&ahead->stop))
        {
          g_async_queue_push (ahead->free_chunks, chunk);
          break;
        }

      /* The window parsed before, if the parsing thread left it */
      g_clear_pointer (&chunk->window, ps_file_window_unmap);

      fill_chunk (ahead, chunk);
      if (ahead->parser != NULL && chunk->length > 0 && !g_atomic_int_get (&ahead->feed_only))
        chunk->scanned = ps_parser_scan (ahead->parser, chunk->data, chunk->length);
      g_async_queue_push (ahead->full_chunks, chunk);
      if (chunk->length <= 0 || chunk->error != NULL)
        break;
    }

  return NULL;
}

static void
read_chunk_free (gpointer data)
{
  ReadChunk *chunk = data;

  g_clear_error (&chunk->error);
  g_clear_pointer (&chunk->window, ps_file_window_unmap);
  g_free (chunk->buffer);
  g_free (chunk);
}

static ReadAhead *
read_ahead_start (GInputStream *stream,
                  PsParser     *parser,
                  gsize         chunk_size,
                  GCancellable *cancellable)
{
  ReadAhead *ahead = g_new0 (ReadAhead, 1);

  ahead->stream = stream;
  ahead->parser = parser;
  ahead->cancellable = cancellable;
  ahead->chunk_size = chunk_size;
  ahead->free_chunks = g_async_queue_new_full (read_chunk_free);
  ahead->full_chunks = g_async_queue_new_full (read_chunk_free);
  for (guint i = 0; i < N_READ_BUFFERS; i++)
    g_async_queue_push (ahead->free_chunks, g_new0 (ReadChunk, 1));

  ahead->fd = -1;
#ifdef G_OS_UNIX
  if (G_IS_FILE_DESCRIPTOR_BASED (stream) && G_IS_SEEKABLE (stream) && g_seekable_can_seek (G_SEEKABLE (stream)))
    {
      ahead->fd = g_file_descriptor_based_get_fd (G_FILE_DESCRIPTOR_BASED (stream));
      ahead->map_offset = (guint64) g_seekable_tell (G_SEEKABLE (stream));
    }
#endif
  /* Named in 15 bytes at most, the kernel's limit (GLib drops a longer
   * name), so that top -H and the tests tell the thread */
  ahead->thread = g_thread_new ("perfscope-ahead", read_ahead_thread, ahead);

  return ahead;
}

static ReadChunk *
read_ahead_next (ReadAhead *ahead)
{
  return g_async_queue_pop (ahead->full_chunks);
}

static void
read_ahead_recycle (ReadAhead *ahead,
                    ReadChunk *chunk)
{
  g_clear_error (&chunk->error);
  chunk->scanned = NULL;
  /* The reading thread scans too: unmapping here shortens its part */
  if (ahead->parser != NULL)
    g_clear_pointer (&chunk->window, ps_file_window_unmap);
  g_async_queue_push (ahead->free_chunks, chunk);
}

static void
read_ahead_stop (ReadAhead *ahead)
{
  if (ahead == NULL)
    return;

  g_atomic_int_set (&ahead->stop, 1);
  /* Wake the reader if it waits for a free buffer */
  g_async_queue_push (ahead->free_chunks, g_new0 (ReadChunk, 1));
  g_thread_join (ahead->thread);
  g_clear_pointer (&ahead->next_window, ps_file_window_unmap);
  g_async_queue_unref (ahead->free_chunks);
  g_async_queue_unref (ahead->full_chunks);
  g_free (ahead);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ReadAhead, read_ahead_stop)

/* The limit of events kept (option "max-events"), 0 for none. Input is
 * fed in pieces that end at a line end, each too short to hold the events
 * still allowed (a PDH cell of `"0",` is the densest event any format
 * writes), so that reading stops at the end of the line in which the limit
 * was reached; far from the limit the pieces are LIMIT_PIECE_SIZE. */
#define LIMIT_PIECE_SIZE (64 * 1024)
#define LIMIT_MIN_EVENT_BYTES 4

typedef struct
{
  PsStoreBuilder *builder;
  guint64         max_events;
  guint64         stop_offset;   /* where reading stopped at the limit */
  gboolean        reached;
  gboolean        mid_line;      /* the last byte fed was not a line end */
} EventLimit;

static guint64
limit_remaining (EventLimit *limit)
{
  guint64 n = ps_store_builder_get_n_events (limit->builder);

  return n < limit->max_events ? limit->max_events - n : 0;
}

static gboolean
limit_reached (EventLimit *limit,
               guint64     offset)
{
  if (limit->max_events == 0 || limit_remaining (limit) > 0)
    return FALSE;
  limit->reached = TRUE;
  limit->stop_offset = offset;
  return TRUE;
}

/* The length of the next piece to feed from data under the limit: too
 * short to hold the events still allowed, then to the end of its line */
static gsize
limit_piece_length (EventLimit   *limit,
                    const guint8 *data,
                    gsize         length,
                    gsize         chunk_size)
{
  guint64 remaining = limit_remaining (limit);
  gsize piece = MIN (chunk_size, LIMIT_PIECE_SIZE);
  const guint8 *newline;

  if (remaining < piece / LIMIT_MIN_EVENT_BYTES)
    piece = (gsize) remaining * LIMIT_MIN_EVENT_BYTES - 1;
  if (piece >= length)
    return length;
  newline = memchr (data + piece, '\n', length - piece);
  return newline != NULL ? (gsize) (newline + 1 - data) : length;
}

static gboolean
feed_limited (PsParser      *parser,
              const guint8  *data,
              gsize          length,
              EventLimit    *limit,
              GError       **error)
{
  if (length == 0)
    return TRUE;
  if (!ps_parser_feed (parser, data, length, error))
    return FALSE;
  if (limit != NULL)
    limit->mid_line = data[length - 1] != '\n';
  return TRUE;
}

/* Feeds a buffer in chunk_size pieces, so that tests with small chunks
 * split the whole input; stops early, returning TRUE, when the limit (may
 * be NULL) is reached (limit->reached), after the line it is in */
static gboolean
feed_pieces (PsParser      *parser,
             const guint8  *data,
             gsize          length,
             gsize          chunk_size,
             EventLimit    *limit,
             guint64        offset,
             GError       **error)
{
  gboolean limited = limit != NULL && limit->max_events > 0;

  for (gsize pos = 0, piece; pos < length; pos += piece)
    {
      if (limited && limit_reached (limit, offset + pos))
        {
          /* A text line is finished, so that the last one is whole */
          const guint8 *newline = limit->mid_line ? memchr (data + pos, '\n', length - pos) : NULL;

          if (newline != NULL && !feed_limited (parser, data + pos, newline + 1 - (data + pos), limit, error))
            return FALSE;
          if (newline != NULL)
            limit->stop_offset += newline + 1 - (data + pos);
          return TRUE;
        }
      piece = limited ? limit_piece_length (limit, data + pos, length - pos, chunk_size)
                      : MIN (chunk_size, length - pos);
      if (!feed_limited (parser, data + pos, piece, limit, error))
        return FALSE;
    }
  return TRUE;
}

/* Chunks the reading thread has scanned are applied whole: near the limit
 * it stops scanning, and the chunks after those it scanned already are fed
 * in pieces as the first block is. Near means that the chunks read ahead
 * could hold the events still allowed. */
static void
feed_near_limit (ReadAhead  *ahead,
                 EventLimit *limit)
{
  if (limit->max_events == 0 || g_atomic_int_get (&ahead->feed_only))
    return;
  if (limit_remaining (limit) <= (guint64) (N_READ_BUFFERS + 1) * ahead->chunk_size / LIMIT_MIN_EVENT_BYTES)
    g_atomic_int_set (&ahead->feed_only, 1);
}

/* A chunk from the read-ahead: applied if it was scanned, else fed */
static gboolean
consume_chunk (PsParser   *parser,
               ReadChunk  *chunk,
               gsize       chunk_size,
               EventLimit *limit,
               guint64     offset,
               GError    **error)
{
  if (chunk->scanned != NULL)
    return ps_parser_apply (parser, g_steal_pointer (&chunk->scanned), error);
  return feed_pieces (parser, chunk->data, chunk->length, chunk_size, limit, offset, error);
}

/* Where a parser's fatal error says the input stopped being usable, if
 * it names a place, else where the failing chunk began */
static guint64
failure_offset (PsParser *parser,
                guint64   chunk_offset)
{
  guint64 named = ps_parser_get_error_offset (parser);

  return named != PS_NO_POSITION ? named : chunk_offset;
}

static PsEventStore *
stop_partial (PsEventStore   *store,
              PsStoreBuilder *builder,
              guint64         offset,
              const GError   *error)
{
  ps_store_builder_flush (builder);
  ps_event_store_set_error (store, error);
  ps_event_store_set_bytes_read (store, offset);
  return g_object_ref (store);
}

/* The limit of events was reached: what was read is kept, the parser is
 * finished on it (a scope still open is closed as at the end of the
 * input), and the error says what was not read */
static PsEventStore *
stop_limit (PsParser       *parser,
            PsEventStore   *store,
            PsStoreBuilder *builder,
            EventLimit     *limit,
            gboolean        scanned_ahead,
            guint64         total_size)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *max = ps_util_format_count (limit->max_events);

  /* The read-ahead thread scanned past the last chunk applied */
  if (scanned_ahead)
    ps_parser_stop_scanning (parser);
  ps_parser_finish (parser, NULL);
  ps_store_builder_flush (builder);
  kept = ps_util_format_count (ps_store_builder_get_n_events (builder));
  if (total_size > limit->stop_offset)
    {
      g_autofree char *rest = g_format_size (total_size - limit->stop_offset);

      /* Translators: "Stopped at the limit of 1000000 events kept in
       * memory: 1000512 events were kept, and the rest of the file from
       * byte offset 33554432 (1.2 GB) was not read" */
      error = g_error_new (PS_ERROR, PS_ERROR_LIMIT,
                           _("Stopped at the limit of %s events kept in memory: %s events were kept, "
                             "and the rest of the file from byte offset %llu (%s) was not read"),
                           max, kept, (unsigned long long) limit->stop_offset, rest);
    }
  else
    error = g_error_new (PS_ERROR, PS_ERROR_LIMIT,
                         _("Stopped at the limit of %s events kept in memory: %s events were kept, "
                           "and the rest of the input from byte offset %llu was not read"),
                         max, kept, (unsigned long long) limit->stop_offset);
  ps_event_store_set_error (store, error);
  ps_event_store_set_bytes_read (store, limit->stop_offset);
  return g_object_ref (store);
}

/* An input without an end of its own (a device such as /dev/zero, a FIFO)
 * or read past the size it had when opened is read only while it holds
 * lines: this long without a line end, no format Perfscope reads (text or
 * binary, whose times and addresses take every byte value) goes on, and
 * /dev/zero would be read for ever. Twice the longest line any text
 * format reads (pdh-csv's 64 MiB). */
#define MAX_BYTES_WITHOUT_LINE_END (G_GUINT64_CONSTANT (128) * 1024 * 1024)

typedef struct
{
  guint64 total_size;  /* checked past it; 0 when unknown */
  guint64 line_end;    /* the offset after the last line end seen past it */
} LineEnds;

/* After data, read from offset: TRUE when the input has gone on too long
 * without a line end. The size known at the start counts as a line end:
 * a file that grows is measured from where it ended. */
static gboolean
line_ends_missing (LineEnds     *ends,
                   const guint8 *data,
                   gsize         length,
                   guint64       offset)
{
  if (ends->total_size > 0 && offset + length <= ends->total_size)
    return FALSE;
  ends->line_end = MAX (ends->line_end, ends->total_size);
  for (gsize i = length; i > 0; i--)
    if (data[i - 1] == '\n' || data[i - 1] == '\r')
      {
        ends->line_end = MAX (ends->line_end, offset + i);
        break;
      }
  return offset + length - ends->line_end > MAX_BYTES_WITHOUT_LINE_END;
}

/* The input went on without a line end: what came before stays */
static PsEventStore *
stop_no_line_end (PsParser       *parser,
                  PsEventStore   *store,
                  PsStoreBuilder *builder,
                  const PsFormat *format,
                  LineEnds       *ends,
                  gboolean        scanned_ahead,
                  guint64         offset)
{
  g_autofree char *size = g_format_size (offset - ends->line_end);
  g_autoptr(GError) error = NULL;

  /* Translators: "Reading stopped at byte offset 134217728: 128.0 MB
   * without a line end from byte offset 0 on, which is no log in the
   * format “rtl-logfile”" */
  error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                       _("Reading stopped at byte offset %llu: %s without a line end from byte offset %llu on, "
                         "which is no log in the format “%s”"),
                       (unsigned long long) offset, size, (unsigned long long) ends->line_end, format->name);
  if (scanned_ahead)
    ps_parser_stop_scanning (parser);
  ps_parser_finish (parser, NULL);
  return stop_partial (store, builder, offset, error);
}

/* The file became shorter while a mapped chunk of it was parsed */
static PsEventStore *
stop_cut (PsParser       *parser,
          PsEventStore   *store,
          PsStoreBuilder *builder,
          guint64         offset,
          gsize           length)
{
  g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                         _("The file became shorter while it was being read, within the "
                                           "%zu bytes from byte offset %llu; what came before them is kept"),
                                         length, (unsigned long long) offset);

  ps_parser_finish (parser, NULL);
  return stop_partial (store, builder, offset, error);
}

/* Reads the stream as params say; *format is the format forced or, on
 * return, the one sniffed; *empty whether the input had no byte, *named
 * whether its first bytes are the format's as it sniffs them */
static PsEventStore *
load_stream (GInputStream        *stream,
             const char          *file_name,
             const PsLoadParams  *params,
             const PsFormat     **format_inout,
             gboolean            *empty,
             gboolean            *named,
             GCancellable        *cancellable,
             GError             **error)
{
  const PsFormat *format = *format_inout;
  GHashTable *options = params->options;
  gsize chunk_size = params->chunk_size != 0 ? params->chunk_size : PS_LOADER_CHUNK_SIZE;
  guint64 total_size = params->total_size;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsStoreBuilder) builder = NULL;
  g_autoptr(PsParser) parser = NULL;
  g_autoptr(ReadAhead) ahead = NULL;
  g_autofree guint8 *first = NULL;
  g_autoptr(GError) local_error = NULL;
  EventLimit limit = { NULL, 0, 0, FALSE, FALSE };
  LineEnds line_ends = { total_size, 0 };
  guint64 offset = 0;
  gsize first_size;
  gboolean staged;
  gsize n;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  /* The first read must be large enough to sniff the format. */
  first_size = MAX (chunk_size, PS_FORMAT_SNIFF_SIZE);
  first = g_malloc (first_size);

  n = read_full (stream, first, first_size, cancellable, &local_error);
  if (local_error != NULL
      && (n == 0 || g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  *empty = n == 0;
  *named = format == NULL || (n > 0 && format->sniff (first, MIN (n, PS_FORMAT_SNIFF_SIZE), file_name) > 0);

  if (format == NULL)
    {
      if (n == 0)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT,
                       _("“%s” is empty"), file_name ? file_name : _("The input"));
          return NULL;
        }

      /* As much as the error below says */
      format = ps_format_sniff (first, MIN (n, PS_FORMAT_SNIFF_SIZE), file_name, NULL);
      if (format == NULL)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT,
                       _("“%s” is not in any format Perfscope reads (looked at the first %zu bytes)"),
                       file_name ? file_name : _("The input"), (gsize)MIN (n, PS_FORMAT_SNIFF_SIZE));
          return NULL;
        }
      *format_inout = format;
    }

  store = ps_event_store_new ();
  builder = ps_store_builder_new (store);
  parser = ps_format_new_parser (format, builder);
  if (file_name != NULL)
    ps_parser_set_file_name (parser, file_name);
  ps_parser_set_options (parser, options);
  limit.builder = builder;
  if (options != NULL && g_hash_table_contains (options, PS_LOADER_OPTION_MAX_EVENTS))
    limit.max_events = g_ascii_strtoull (g_hash_table_lookup (options, PS_LOADER_OPTION_MAX_EVENTS), NULL, 10);

  if (local_error != NULL)
    {
      /* The stream failed inside the first block: keep what it gave. */
      g_autoptr(GError) parse_error = NULL;

      g_prefix_error (&local_error, _("Reading stopped at byte offset %zu: "), n);
      if (feed_pieces (parser, first, n, chunk_size, NULL, 0, &parse_error))
        ps_parser_finish (parser, NULL);
      return stop_partial (store, builder, n, local_error);
    }

  /* A short first read means the stream has ended. A parser in two
   * stages scans in the read-ahead thread, in order: only after the
   * first block. */
  staged = ps_parser_has_stages (parser);
  if (n == first_size && !staged)
    ahead = read_ahead_start (stream, NULL, chunk_size, cancellable);

  if (!feed_pieces (parser, first, n, chunk_size, &limit, 0, &local_error))
    return stop_partial (store, builder, failure_offset (parser, offset), local_error);
  if (limit.reached)
    return stop_limit (parser, store, builder, &limit, FALSE, total_size);

  if (line_ends_missing (&line_ends, first, n, 0))
    {
      g_clear_pointer (&ahead, read_ahead_stop);
      return stop_no_line_end (parser, store, builder, format, &line_ends, FALSE, n);
    }

  if (n == first_size && staged)
    ahead = read_ahead_start (stream, parser, chunk_size, cancellable);
  if (ahead != NULL && staged)
    feed_near_limit (ahead, &limit);
  offset = n;
  g_clear_pointer (&first, g_free);
  if (params->progress != NULL)
    params->progress (offset, params->progress_data);

  while (ahead != NULL)
    {
      ReadChunk *chunk;
      gssize length;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      chunk = read_ahead_next (ahead);
      length = chunk->length;

      if (g_error_matches (chunk->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&chunk->error));
          read_ahead_recycle (ahead, chunk);
          return NULL;
        }

      if (length > 0 && !limit_reached (&limit, offset)
          && !consume_chunk (parser, chunk, chunk_size, &limit, offset, &local_error))
        {
          read_ahead_recycle (ahead, chunk);
          return stop_partial (store, builder, failure_offset (parser, offset), local_error);
        }
      if (limit.reached)
        {
          read_ahead_recycle (ahead, chunk);
          /* The reading thread must not scan while the parser stops */
          g_clear_pointer (&ahead, read_ahead_stop);
          return stop_limit (parser, store, builder, &limit, staged, total_size);
        }
      /* Cut while it was parsed: the end of it read as zeros */
      if (chunk->window != NULL && ps_file_window_was_cut (chunk->window))
        {
          read_ahead_recycle (ahead, chunk);
          return stop_cut (parser, store, builder, offset, (gsize) length);
        }

      if (length > 0 && line_ends_missing (&line_ends, chunk->data, (gsize) length, offset))
        {
          read_ahead_recycle (ahead, chunk);
          g_clear_pointer (&ahead, read_ahead_stop);
          return stop_no_line_end (parser, store, builder, format, &line_ends, staged, offset + (guint64) length);
        }

      offset += length;
      if (params->progress != NULL && length > 0)
        params->progress (offset, params->progress_data);

      if (chunk->error != NULL)
        {
          /* Keep what was read: finish the parser on what it has. */
          g_propagate_error (&local_error, g_steal_pointer (&chunk->error));
          read_ahead_recycle (ahead, chunk);
          g_prefix_error (&local_error, _("Reading stopped at byte offset %llu: "), (unsigned long long) offset);
          ps_parser_finish (parser, NULL);
          return stop_partial (store, builder, offset, local_error);
        }
      read_ahead_recycle (ahead, chunk);
      if (staged)
        feed_near_limit (ahead, &limit);

      if ((gsize)length < chunk_size)
        break;
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (!ps_parser_finish (parser, &local_error))
    {
      ps_event_store_set_error (store, local_error);
      offset = failure_offset (parser, offset);
    }
  ps_store_builder_flush (builder);
  ps_event_store_set_bytes_read (store, offset);

  (void)total_size;
  return g_steal_pointer (&store);
}

/* Nothing came of the input: no track or event, and no session unless
 * reading failed (a parser may open one before its first record) */
static gboolean
nothing_read (PsEventStore *store)
{
  return (ps_event_store_get_n_sessions (store) == 0 || ps_event_store_get_error (store) != NULL)
         && ps_event_store_get_n_tracks (store) == 0
         && ps_event_store_get_n_spans (store) == 0
         && ps_event_store_get_n_samples (store) == 0
         && ps_event_store_get_n_counter_readings (store) == 0
         && ps_event_store_get_n_marks (store) == 0
         && ps_event_store_get_n_measurements (store) == 0
         && ps_event_store_get_n_report_rows (store) == 0;
}

PsEventStore *
ps_load_stream (GInputStream        *stream,
                const char          *file_name,
                const PsLoadParams  *params,
                GCancellable        *cancellable,
                GError             **error)
{
  static const PsLoadParams no_params = { 0 };
  const PsFormat *read_format;
  g_autoptr(PsEventStore) store = NULL;
  const GError *failure;
  gboolean empty = FALSE;
  gboolean named = FALSE;
  const char *why;

  if (params == NULL)
    params = &no_params;
  read_format = params->format;
  store = load_stream (stream, file_name, params, &read_format, &empty, &named, cancellable, error);
  if (store == NULL)
    return NULL;
  ps_event_store_loaded (store);
  g_object_set_qdata (G_OBJECT (store), read_format_quark (), (gpointer) read_format);

  /* A file of which nothing could be read in a format forced on it, and
   * whose first bytes are not the format's either, is no file of the
   * format. One that begins as the format does but is damaged or cut
   * early is a run read in part, or an empty one. */
  failure = ps_event_store_get_error (store);
  if (named || !nothing_read (store))
    return g_steal_pointer (&store);

  if (failure != NULL && failure->domain != PS_ERROR)
    {
      /* An input that could not be read is not to blame on the format */
      g_propagate_error (error, g_error_copy (failure));
      return NULL;
    }
  if (empty)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT,
                   _("“%s” is empty"), file_name ? file_name : _("The input"));
      return NULL;
    }
  if (failure != NULL)
    why = failure->message;
  else if (ps_event_store_get_n_warnings (store) > 0)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, 0, &warning);
      why = warning.message;
    }
  else
    why = _("nothing in it is of this format");
  /* Translators: "Not a “ce-perflog” file: 2 lines without “## PERF ##”
   * were ignored"; the first %s is a format's name */
  g_set_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT, _("Not a “%s” file: %s"), read_format->name, why);
  return NULL;
}

const PsFormat *
ps_load_get_read_format (PsEventStore *store)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  return g_object_get_qdata (G_OBJECT (store), read_format_quark ());
}

/* The file's name as messages show it, and as the parsers and the errors
 * of ps_load_stream () take it (perfscope-cli passes the same): UTF-8,
 * whatever the bytes of the name on disk */
static char *
display_basename (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return basename != NULL ? g_filename_display_name (basename) : g_file_get_uri (file);
}

static gboolean
publish_progress (gpointer data)
{
  PsLoader *self = data;
  g_autofree char *message = NULL;
  g_autofree char *done = NULL;
  g_autofree char *total = NULL;
  g_autofree char *name = NULL;
  guint64 bytes_read;
  guint64 total_size;

  g_mutex_lock (&self->lock);
  bytes_read = self->bytes_read;
  total_size = self->total_size;
  g_clear_pointer (&self->progress_source, g_source_unref);
  self->progress_shown_us = g_get_monotonic_time ();
  g_mutex_unlock (&self->lock);

  name = display_basename (self->file);
  done = g_format_size (bytes_read);
  if (total_size > 0)
    {
      total = g_format_size (total_size);
      /* Translators: "Reading run.log: 120.0 MB of 1.0 GB" */
      message = g_strdup_printf (_("Reading %s: %s of %s"), name, done, total);
      set_progress (self, (double)bytes_read / (double)total_size, message);
    }
  else
    {
      message = g_strdup_printf (_("Reading %s: %s"), name, done);
      set_progress (self, 0, message);
    }

  return G_SOURCE_REMOVE;
}

typedef struct
{
  PsLoader     *loader;
  GMainContext *context;
} ProgressTarget;

/* How often the progress is published at most: each change redraws the
 * window, which costs a core tens of milliseconds when it is drawn in
 * software (llvmpipe, a virtual machine without a GPU); four times a
 * second still shows the reading move. */
#define PROGRESS_INTERVAL_US (250 * G_TIME_SPAN_MILLISECOND)

/* Called in the worker: publish through one coalesced timeout, at once
 * when the last was long enough ago. */
static void
worker_progress (guint64  bytes,
                 gpointer data)
{
  ProgressTarget *target = data;
  PsLoader *self = target->loader;

  g_mutex_lock (&self->lock);
  self->bytes_read = bytes;
  if (self->progress_source == NULL)
    {
      gint64 wait_us = MAX (self->progress_shown_us + PROGRESS_INTERVAL_US - g_get_monotonic_time (), 0);

      /* Rounded up: never sooner than the interval */
      self->progress_source = g_timeout_source_new ((guint)((wait_us + G_TIME_SPAN_MILLISECOND - 1) / G_TIME_SPAN_MILLISECOND));
      g_source_set_priority (self->progress_source, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (self->progress_source, publish_progress, g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->progress_source, "[perfscope] loader progress");
      g_source_attach (self->progress_source, target->context);
    }
  g_mutex_unlock (&self->lock);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  PsLoader *self = source_object;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *name = NULL;
  GError *error = NULL;
  ProgressTarget target = { self, g_task_get_context (task) };

  /* The asynchronous load is the window's: its reading and parsing
   * threads (which inherit this) leave the window's thread a core */
  ps_util_lower_thread_priority ();
  name = display_basename (self->file);

  stream = g_file_read (self->file, cancellable, &error);
  if (stream == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
  g_mutex_lock (&self->lock);
  self->total_size = info ? (guint64)g_file_info_get_size (info) : 0;
  g_mutex_unlock (&self->lock);

  store = ps_load_stream (G_INPUT_STREAM (stream), name,
                          &(PsLoadParams) {
                            .format = self->format,
                            .options = self->options,
                            .total_size = self->total_size,
                            .progress = worker_progress,
                            .progress_data = &target,
                          },
                          cancellable, &error);
  if (store == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  ps_event_store_set_file (store, self->file);
  g_task_return_pointer (task, g_steal_pointer (&store), g_object_unref);
}

void
ps_loader_load_async (PsLoader            *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *name = NULL;
  g_autofree char *message = NULL;

  g_return_if_fail (PS_IS_LOADER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  name = display_basename (self->file);
  message = g_strdup_printf (_("Opening %s"), name);
  set_progress (self, 0, message);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ps_loader_load_async);
  g_task_set_check_cancellable (task, TRUE);
  /* Cancelled, the load answers at once: the worker stops at its next
   * chunk (or after the parser's last step) and its store is dropped */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_worker);
}

PsEventStore *
ps_loader_load_finish (PsLoader      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  PsEventStore *store;

  g_return_val_if_fail (PS_IS_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  /* The worker has finished: progress still queued is out of date */
  drop_progress (self);

  store = g_task_propagate_pointer (G_TASK (result), error);
  if (store != NULL)
    set_progress (self, 1.0, NULL);

  return store;
}
