/* ps-line-reader.h — split a byte stream into lines, chunk by chunk
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Accepts CR LF, LF and lone CR line ends, mixed in one stream (or LF
 * only, on request); a CR at the end of a chunk waits for the next one. Lines that lie inside one
 * chunk are handed over without a copy. Optionally detects UTF-16 (LE/BE,
 * with or without BOM) and a UTF-8 BOM in the first bytes and hands the
 * text over as UTF-8 (specs: ce-perflog.md §7 #25–#27).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PS_TEXT_ENCODING_8BIT,      /* bytes as they are (UTF-8, Latin-1, ANSI) */
  PS_TEXT_ENCODING_UTF8_BOM,  /* UTF-8 with a byte order mark, skipped */
  PS_TEXT_ENCODING_UTF16LE,
  PS_TEXT_ENCODING_UTF16BE,
} PsTextEncoding;

typedef struct
{
  const char *text;        /* not NUL-terminated; may contain NUL bytes */
  gsize       length;      /* without the line end */
  guint64     number;      /* 1-based */
  guint64     offset;      /* byte offset of the line's start in the input */
  gboolean    terminated;  /* ended by a line end (FALSE only for the last line) */
  gboolean    truncated;   /* longer than the maximum; the rest was dropped */
} PsLine;

typedef void (*PsLineFunc) (const PsLine *line,
                            gpointer      user_data);

/* What a parser's fast path is offered: the bytes of the current chunk
 * from the start of a line on */
typedef struct
{
  const char *data;         /* not NUL-terminated */
  gsize       available;    /* the bytes from data to the end of the chunk */
  guint64     line_number;  /* of the line that starts at data, 1-based */
  guint64     offset;       /* byte offset of data in the input */
} PsLineRun;

/* A parser's fast path for its most common lines: called at the start of
 * a line with all bytes available in the current chunk. It takes as many
 * whole lines of the run as it recognises — each *including* its "\n" or
 * "\r\n" — sets *n_lines to their number and returns their bytes, or
 * returns 0 to have the line handed to the PsLineFunc as usual. It must
 * never take a line whose end it has not seen, nor one ended by a lone
 * "\r". */
typedef gsize (*PsLineFastFunc) (const PsLineRun *run,
                                 guint64         *n_lines,
                                 gpointer         user_data);

typedef struct _PsLineReader PsLineReader;

PsLineReader  *ps_line_reader_new              (PsLineFunc      func,
                                                gpointer        user_data);
void           ps_line_reader_free             (PsLineReader   *self);
/* Decode UTF-16 / skip a UTF-8 BOM, decided on the first bytes. Default: off. */
void           ps_line_reader_set_detect_encoding (PsLineReader *self,
                                                gboolean        detect);
/* Lines longer than this are cut (PsLine.truncated). Default: 512 MiB. */
void           ps_line_reader_set_max_line_length (PsLineReader *self,
                                                gsize           max_length);
/* Only LF ends a line; a CR before it, or at the very end, is dropped
 * from the line, and a lone CR elsewhere is text. Default: off (CR LF,
 * LF and lone CR all end lines). */
void           ps_line_reader_set_lf_only      (PsLineReader   *self,
                                                gboolean        lf_only);
/* Optional; used only for 8-bit input (after encoding detection). */
void           ps_line_reader_set_fast_func    (PsLineReader   *self,
                                                PsLineFastFunc  fast_func);
PsTextEncoding ps_line_reader_get_encoding     (PsLineReader   *self);
void           ps_line_reader_feed             (PsLineReader   *self,
                                                const guint8   *data,
                                                gsize           length);
/* Hands over the last line if it had no line end. */
void           ps_line_reader_finish           (PsLineReader   *self);
/* Forgets the start of a line carried into the next chunk: finish ()
 * then hands over nothing. */
void           ps_line_reader_drop_carry       (PsLineReader   *self);
guint64        ps_line_reader_get_n_lines      (PsLineReader   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsLineReader, ps_line_reader_free)

/* Lines a parser's scanning stage keeps for its applying one (PsParserStages):
 * a line inside the chunk being scanned stays where it is, as the chunk
 * stays valid until it is applied; any other (carried over from the
 * chunk before, or decoded) is copied. */
typedef struct
{
  const char *chunk;          /* the bytes scanned, or NULL */
  gsize       chunk_length;
  GArray     *lines;          /* KeptLine */
  GByteArray *arena;          /* the copied text */
} PsKeptLines;

void          ps_kept_lines_init  (PsKeptLines  *self);
void          ps_kept_lines_clear (PsKeptLines  *self);
/* Empties it and forgets the chunk, keeping its memory */
void          ps_kept_lines_reset (PsKeptLines  *self);
/* Feeds @data to @reader as the chunk whose lines are kept in place */
void          ps_kept_lines_scan  (PsKeptLines  *self,
                                   PsLineReader *reader,
                                   const guint8 *data,
                                   gsize         length);
/* Keeps a line handed over while the chunk was scanned; returns its index */
guint         ps_kept_lines_add   (PsKeptLines  *self,
                                   const PsLine *line);
const PsLine *ps_kept_lines_get   (PsKeptLines  *self,
                                   guint         index);

G_END_DECLS
