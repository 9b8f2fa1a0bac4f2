/* ps-parse-kit.h — what the parsers share: warnings, blanks, the feed
 * guard, UTF-16 decoding (and the narrowing of a sniffed head), the
 * table of ids by key, and the batches of a line parser's two stages
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ps-format.h"
#include "ps-line-reader.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Warnings                                                                  */

/* A warning of @parser's run, of @session (PS_NONE: of the file), at a
 * @line of a text format or at a byte @offset of a binary one, then the
 * printf-style format and its arguments. Macros, as g_warning () is one
 * over g_log (): each says which of the builder's positions it leaves
 * out, and the builder checks the format against its arguments. */
#define ps_parse_warn_at_line(parser, session, severity, code, line, ...) \
  ps_store_builder_warn ((parser)->builder, (severity), (code), \
                         &(PsWarningPlace) { (line), PS_NO_POSITION, (session) }, __VA_ARGS__)
#define ps_parse_warn_at_offset(parser, session, severity, code, offset, ...) \
  ps_store_builder_warn ((parser)->builder, (severity), (code), \
                         &(PsWarningPlace) { 0, (offset), (session) }, __VA_ARGS__)

/* How a binary reader (pmclog, PLV2) tells its caller of a problem it
 * read past: the signature of its callbacks' warning member */
typedef void (*PsReaderWarningFunc) (const char *code,
                                     guint64     offset,
                                     const char *message,
                                     gpointer    user_data);

/* A binary reader's warning at a byte @offset, formatted and passed to
 * @warning; not even formatted when @warning is NULL */
void     ps_parse_reader_warn_valist (PsReaderWarningFunc  warning,
                                      gpointer             user_data,
                                      const char          *code,
                                      guint64              offset,
                                      const char          *format,
                                      va_list              args) G_GNUC_PRINTF (5, 0);

/* ------------------------------------------------------------------------ */
/* Blanks                                                                    */

/* The blanks of every text format are spaces and tabs */
static inline gboolean
ps_parse_is_blank (char c)
{
  return c == ' ' || c == '\t';
}

gboolean ps_parse_is_blank_text (const char  *text,
                                 gsize        length);
/* Moves @text and shortens @length past the leading blanks */
void     ps_parse_trim_leading  (const char **text,
                                 gsize       *length);
/* Leading and trailing blanks */
void     ps_parse_trim          (const char **text,
                                 gsize       *length);

/* 1*DIGIT that fits a guint64 (no sign, no blanks) */
gboolean ps_parse_uint64        (const char  *text,
                                 gsize        length,
                                 guint64     *value);

/* ------------------------------------------------------------------------ */
/* The feed guard of the binary readers                                      */

/* Whether a reader may be fed: FALSE with @error set when it is fed from
 * one of its own callbacks, or again after an error (at @failed_offset).
 * @reader_name is the format's name as the messages show it. */
gboolean ps_parse_check_feed    (const char  *reader_name,
                                 gboolean     in_callback,
                                 gboolean     failed,
                                 guint64      failed_offset,
                                 GError     **error);

/* ------------------------------------------------------------------------ */
/* UTF-16                                                                    */

/* UTF-16 to UTF-8 chunk by chunk: a code unit or a surrogate pair may
 * straddle two chunks. Ill-formed surrogates become U+FFFD. */
typedef struct
{
  gboolean  big_endian;
  gboolean  has_odd_byte;    /* half a code unit left over */
  guint8    odd_byte;
  gunichar2 high_surrogate;  /* 0 if none pending */
  gboolean  replaced;        /* a U+FFFD was written since init */
} PsUtf16Decoder;

void     ps_utf16_decoder_init    (PsUtf16Decoder *self,
                                   gboolean        big_endian);
/* Appends the UTF-8 of @data to @out */
void     ps_utf16_decoder_feed    (PsUtf16Decoder *self,
                                   const guint8   *data,
                                   gsize           length,
                                   GString        *out);
/* What is pending at the end of the input (half a unit, a high
 * surrogate) becomes one U+FFFD appended to @out; returns whether */
gboolean ps_utf16_decoder_finish  (PsUtf16Decoder *self,
                                   GString        *out);
/* Forgets what is pending */
void     ps_utf16_decoder_reset   (PsUtf16Decoder *self);

/* The first bytes of a text file, as a sniffer reads them: UTF-16 (with a
 * BOM, or a NUL next to the first ASCII character) narrowed to its low
 * bytes, anything else '?', into *@narrow (to free); a UTF-8 BOM skipped.
 * Returns the text, *@text_length its length. */
const char *ps_parse_sniff_text (const guint8  *data,
                                 gsize          length,
                                 char         **narrow,
                                 gsize         *text_length);

/* ------------------------------------------------------------------------ */
/* Ids by key                                                                */

/* An open-addressing table of ids (guint32) into an array that holds the
 * keys, so that a key is found again without a copy of it: slot = id + 1,
 * 0 is free; linear probing, at most half full. The caller hashes its key
 * and compares the candidates:
 *
 *   for (slot = ps_id_table_first_slot (&table, hash);
 *        (id = ps_id_table_id_at (&table, slot)) != PS_ID_TABLE_FREE;
 *        slot = ps_id_table_next_slot (&table, slot))
 *     if (key_of (id) == key)
 *       return id;
 *   ps_id_table_insert_at (&table, slot, new_id, hash_of_id, user_data);
 */
typedef struct
{
  guint32 *slots;
  guint32  mask;
  guint32  n_ids;
} PsIdTable;

#define PS_ID_TABLE_FREE G_MAXUINT32

/* The hash of the key of @id, the same as the caller's for that key */
typedef guint (*PsIdTableHashFunc) (guint32  id,
                                    gpointer user_data);

/* @size: the first number of slots, a power of two */
void ps_id_table_init      (PsIdTable         *self,
                            guint32            size);
void ps_id_table_clear     (PsIdTable         *self);
/* Puts @id at the free @slot the probe ended on; the table then grows
 * when more than half full, hashing each id again with @hash_of_id */
void ps_id_table_insert_at (PsIdTable         *self,
                            guint32            slot,
                            guint32            id,
                            PsIdTableHashFunc  hash_of_id,
                            gpointer           user_data);

static inline guint32
ps_id_table_first_slot (const PsIdTable *self,
                        guint            hash)
{
  return hash & self->mask;
}

static inline guint32
ps_id_table_next_slot (const PsIdTable *self,
                       guint32          slot)
{
  return (slot + 1) & self->mask;
}

/* The id at @slot, or PS_ID_TABLE_FREE */
static inline guint32
ps_id_table_id_at (const PsIdTable *self,
                   guint32          slot)
{
  return self->slots[slot] - 1;
}

/* ------------------------------------------------------------------------ */
/* The batches of a line parser's two stages                                 */

/* What a text parser's scanning stage (PsParserStages) hands its applying
 * one goes in batches of its own type, each with a PsKeptLines at
 * @lines_offset. The batch being filled while the line reader runs is
 * @filling, where the reader's callbacks find it; NULL otherwise. */
typedef struct
{
  PsBatchPool *pool;
  gsize        lines_offset;
  gpointer     filling;
} PsLineBatches;

void     ps_line_batches_init      (PsLineBatches   *self,
                                    gpointer       (*batch_new) (void),
                                    GDestroyNotify   batch_free,
                                    gsize            lines_offset);
/* Frees every batch, applied or not */
void     ps_line_batches_clear     (PsLineBatches   *self);
/* A batch with the lines of @data that @reader handed over, @data kept
 * in place (ps_kept_lines_scan ()) */
gpointer ps_line_batches_scan      (PsLineBatches   *self,
                                    PsLineReader    *reader,
                                    const guint8    *data,
                                    gsize            length);
/* A batch with the last line, if it had no line end
 * (ps_line_reader_finish ()) */
gpointer ps_line_batches_finish    (PsLineBatches   *self,
                                    PsLineReader    *reader);
/* Once applied: the batch's kept lines are emptied and it goes back to
 * the pool; the parser has emptied the rest */
void     ps_line_batches_give_back (PsLineBatches   *self,
                                    gpointer         batch);

G_END_DECLS
