/* ps-loader.h — load a file into a new event store, off the main thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file is streamed in chunks through a GInputStream into the format's
 * push parser in a worker thread. Progress is published on the thread
 * default main context of the caller through one coalesced idle callback
 * (the "fraction" and "message" properties).
 *
 * Results of load_finish():
 *  - a store that is complete;
 *  - a store with ps_event_store_is_complete() == FALSE and an error
 *    (ps_event_store_get_error()) when reading stopped after some data;
 *  - NULL and a GError when nothing could be loaded (unreadable, unknown
 *    format, cancelled: G_IO_ERROR_CANCELLED).
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"
#include "ps-format.h"

G_BEGIN_DECLS

/* The stretch of a file read or mapped at a time. Each mapping and
 * unmapping of a window costs a system call and a flush of the other
 * core's TLB: 2 MiB windows spend a third less time in the kernel than
 * 1 MiB ones on a 1 GiB log, and a chunk still takes a millisecond to
 * parse, the delay before a cancel stops the work */
#define PS_LOADER_CHUNK_SIZE (2 * 1024 * 1024)

/* An option of the loader itself (ps_loader_set_option (), or the options
 * of ps_load_stream ()): the events to keep at most, as a
 * decimal number. Input the parser is fed is checked every 64 KiB and
 * stops at the end of the line the limit was reached in; a parser in two
 * stages is checked between the chunks the read-ahead scanned. The store
 * keeps what was read, finished as at the end of the input, with a
 * PS_ERROR_LIMIT error saying how many events were kept and from which
 * byte offset the input was not read. "0" or no option: no limit. */
#define PS_LOADER_OPTION_MAX_EVENTS "max-events"

#define PS_TYPE_LOADER (ps_loader_get_type ())
G_DECLARE_FINAL_TYPE (PsLoader, ps_loader, PS, LOADER, GObject)

PsLoader       *ps_loader_new            (GFile               *file);
GFile          *ps_loader_get_file       (PsLoader            *self);
/* Force a format instead of sniffing; NULL to sniff. */
void            ps_loader_set_format     (PsLoader            *self,
                                          const PsFormat      *format);
/* An option for the parser (ps_parser_set_option ()); NULL removes it.
 * Not while loading. */
void            ps_loader_set_option     (PsLoader            *self,
                                          const char          *key,
                                          const char          *value);
double          ps_loader_get_fraction   (PsLoader            *self);
const char     *ps_loader_get_message    (PsLoader            *self);
void            ps_loader_load_async     (PsLoader            *self,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
PsEventStore   *ps_loader_load_finish    (PsLoader            *self,
                                          GAsyncResult        *result,
                                          GError             **error);

/* How ps_load_stream () reads a stream; zero in a field (or a NULL
 * params) for the default */
typedef struct
{
  const PsFormat *format;      /* forced; NULL: sniffed */
  GHashTable     *options;     /* for the parser (string → string) and the
                                * loader (PS_LOADER_OPTION_*) */
  gsize           chunk_size;  /* 0: PS_LOADER_CHUNK_SIZE */
  guint64         total_size;  /* the stream's length, 0 if unknown */
  /* Called with the bytes read so far, in the calling thread */
  void          (*progress) (guint64 bytes, gpointer data);
  gpointer        progress_data;
} PsLoadParams;

/* Parse a stream in the calling thread; used by load_async's worker, the
 * command line and tests */
PsEventStore   *ps_load_stream           (GInputStream        *stream,
                                          const char          *file_name,
                                          const PsLoadParams  *params,
                                          GCancellable        *cancellable,
                                          GError             **error);

/* The format the loader read the store in: the one forced or sniffed, the
 * native format for a saved run (whose store names the format of the
 * run's origin, ps_event_store_get_format ()) */
const PsFormat *ps_load_get_read_format  (PsEventStore        *store);

G_END_DECLS
