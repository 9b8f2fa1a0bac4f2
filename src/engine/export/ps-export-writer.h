/* ps-export-writer.h — buffered text output for the exporters
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exporters write runs of millions of events: they append to a small
 * buffer that goes to the stream whenever it holds PS_EXPORT_WRITER_CHUNK
 * bytes, so that the output never sits in memory as a whole. The first
 * write error is kept and returned by ps_export_writer_finish (); appends
 * after it do nothing.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PS_EXPORT_WRITER_CHUNK (64 * 1024)

typedef struct _PsExportWriter PsExportWriter;

PsExportWriter *ps_export_writer_new           (GOutputStream  *stream,
                                                GCancellable   *cancellable);
void            ps_export_writer_free          (PsExportWriter *self);
/* The buffer to append to; call ps_export_writer_flush_some () after */
GString        *ps_export_writer_get_buffer    (PsExportWriter *self);
/* Writes the buffer out once it holds a chunk */
void            ps_export_writer_flush_some    (PsExportWriter *self);
gboolean        ps_export_writer_failed        (PsExportWriter *self);
/* Writes what is left; FALSE with the first error */
gboolean        ps_export_writer_finish        (PsExportWriter *self,
                                                GError        **error);

/* JSON pieces: a string (NULL gives null; bytes that are not UTF-8 are
 * read as Latin-1) and a number in its shortest round-trip form (null
 * when not finite) */
void            ps_export_append_json_string   (GString        *out,
                                                const char     *text);
void            ps_export_append_json_number   (GString        *out,
                                                double          value);
/* A whole number's digits, as "%" PRId64 prints them, without printf */
void            ps_export_append_integer       (GString        *out,
                                                gint64          value);
/* The text the two functions above append, into a buffer of
 * PS_NUMBER_BUF bytes (ps-number.h), for a writer that builds a line
 * itself; return its length, with nothing written after it */
int             ps_export_format_json_number   (double          value,
                                                char           *buffer);
int             ps_export_format_integer       (gint64          value,
                                                char           *buffer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsExportWriter, ps_export_writer_free)

G_END_DECLS
