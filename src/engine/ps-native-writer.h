/* ps-native-writer.h — save a run in Perfscope's own format
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format is described in docs/formats/native-format.md and read back by the
 * "perfscope" format (formats/ps-format-native.c). Everything the event
 * store holds is written, so the run reopened from the file is the same.
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

/* The first eight bytes of every native file */
#define PS_NATIVE_MAGIC         "PSRUN\0\r\n"
#define PS_NATIVE_MAGIC_LENGTH  8
#define PS_NATIVE_VERSION_MAJOR 1
#define PS_NATIVE_VERSION_MINOR 0
#define PS_NATIVE_HEADER_SIZE   32
#define PS_NATIVE_SECTION_HEADER_SIZE 32
/* A section's payload is never longer than this */
#define PS_NATIVE_MAX_PAYLOAD   (G_GUINT64_CONSTANT (256) << 20)

/* Section types: four ASCII letters read as a little-endian word */
#define PS_NATIVE_SECTION(a, b, c, d) \
  ((guint32)(a) | (guint32)(b) << 8 | (guint32)(c) << 16 | (guint32)(d) << 24)

enum
{
  PS_NATIVE_RUN      = PS_NATIVE_SECTION ('R', 'U', 'N', ' '),
  PS_NATIVE_STRINGS  = PS_NATIVE_SECTION ('S', 'T', 'R', 'S'),
  PS_NATIVE_SESSIONS = PS_NATIVE_SECTION ('S', 'E', 'S', 'S'),
  PS_NATIVE_TICKS    = PS_NATIVE_SECTION ('T', 'I', 'C', 'K'),
  PS_NATIVE_TRACKS   = PS_NATIVE_SECTION ('T', 'R', 'A', 'K'),
  PS_NATIVE_OTHERS   = PS_NATIVE_SECTION ('O', 'T', 'H', 'R'),
  PS_NATIVE_FRAMES   = PS_NATIVE_SECTION ('F', 'R', 'A', 'M'),
  PS_NATIVE_STACKS   = PS_NATIVE_SECTION ('S', 'T', 'A', 'K'),
  PS_NATIVE_SOURCES  = PS_NATIVE_SECTION ('S', 'R', 'C', 'S'),
  PS_NATIVE_REPORT   = PS_NATIVE_SECTION ('R', 'R', 'O', 'W'),
  PS_NATIVE_WARNINGS = PS_NATIVE_SECTION ('W', 'A', 'R', 'N'),
  PS_NATIVE_SERIES   = PS_NATIVE_SECTION ('C', 'S', 'E', 'R'),
  PS_NATIVE_OVERVIEWS = PS_NATIVE_SECTION ('C', 'O', 'V', 'W'),
  PS_NATIVE_MEASURES = PS_NATIVE_SECTION ('M', 'E', 'A', 'S'),
  PS_NATIVE_SPANS    = PS_NATIVE_SECTION ('S', 'P', 'A', 'N'),
  PS_NATIVE_CONTEXTS = PS_NATIVE_SECTION ('S', 'C', 'T', 'X'),
  PS_NATIVE_MARKS    = PS_NATIVE_SECTION ('M', 'A', 'R', 'K'),
  PS_NATIVE_SAMPLES  = PS_NATIVE_SECTION ('S', 'A', 'M', 'P'),
  PS_NATIVE_COUNTERS = PS_NATIVE_SECTION ('C', 'V', 'A', 'L'),
  PS_NATIVE_TOTALS   = PS_NATIVE_SECTION ('T', 'O', 'T', 'L'),
  PS_NATIVE_END      = PS_NATIVE_SECTION ('E', 'N', 'D', ' '),
};

/* The CRC-32 (zlib's) that the header and every section carry */
guint32  ps_native_crc32        (const guint8   *data,
                                 gsize           length);

/* Writes the run to a stream, from the calling thread. The store must not
 * change meanwhile. */
gboolean ps_native_write_stream (PsEventStore   *store,
                                 GOutputStream  *stream,
                                 GCancellable   *cancellable,
                                 GError        **error);
/* Writes the run through a PsFileOutput (ps-file-output.h): file is
 * replaced only once the new one is complete, and any failure leaves it
 * as it was. */
gboolean ps_native_save         (PsEventStore   *store,
                                 GFile          *file,
                                 GCancellable   *cancellable,
                                 GError        **error);
/* The same in a worker thread; the store must not change until it ends */
void     ps_native_save_async   (PsEventStore        *store,
                                 GFile               *file,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data);
gboolean ps_native_save_finish  (GAsyncResult        *result,
                                 GError             **error);

/* For a recording that could not be saved where the user asked: saves it
 * under a new name made of stem and the time in the folder
 * ps_native_unsaved_folder () gives (the user's cache folder), and returns
 * that file */
GFile   *ps_native_save_unsaved (PsEventStore   *store,
                                 const char     *stem,
                                 GError        **error);
char    *ps_native_unsaved_folder (void);

G_END_DECLS
