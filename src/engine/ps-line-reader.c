/* ps-line-reader.c — split a byte stream into lines, chunk by chunk
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For UTF-16 input the text is decoded to UTF-8 first; line offsets then
 * count bytes of the decoded text.
 */
#include "config.h"

#include <string.h>

#include "ps-line-reader.h"
#include "ps-parse-kit.h"

#define DEFAULT_MAX_LINE (512u * 1024u * 1024u)
#define DETECT_BYTES     4

struct _PsLineReader
{
  PsLineFunc     func;
  PsLineFastFunc fast_func;
  gpointer       user_data;

  gboolean       detect_encoding;
  gboolean       encoding_known;
  PsTextEncoding encoding;
  guint8         head[DETECT_BYTES];  /* first bytes kept until the encoding is known */
  guint          head_length;

  /* UTF-16 decoding state across chunks */
  PsUtf16Decoder utf16;
  GString       *decoded;

  gsize          max_line_length;
  gboolean       lf_only;
  GByteArray    *carry;               /* start of a line that continues in the next chunk */
  gboolean       carry_truncated;
  gboolean       skip_lf;             /* the last chunk ended in CR: a leading LF belongs to it */

  guint64        n_lines;
  guint64        consumed;            /* bytes before the current chunk */
  guint64        line_offset;         /* offset of the current line's start */
};

PsLineReader *
ps_line_reader_new (PsLineFunc func,
                    gpointer   user_data)
{
  PsLineReader *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_new0 (PsLineReader, 1);
  self->func = func;
  self->user_data = user_data;
  self->encoding = PS_TEXT_ENCODING_8BIT;
  self->encoding_known = TRUE;
  self->max_line_length = DEFAULT_MAX_LINE;
  self->carry = g_byte_array_new ();

  return self;
}

void
ps_line_reader_free (PsLineReader *self)
{
  if (self == NULL)
    return;

  g_byte_array_unref (self->carry);
  if (self->decoded != NULL)
    g_string_free (g_steal_pointer (&self->decoded), TRUE);
  g_free (self);
}

void
ps_line_reader_set_detect_encoding (PsLineReader *self,
                                    gboolean      detect)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->consumed == 0 && self->head_length == 0);

  self->detect_encoding = !!detect;
  self->encoding_known = !detect;
}

void
ps_line_reader_set_max_line_length (PsLineReader *self,
                                    gsize         max_length)
{
  g_return_if_fail (self != NULL);
  self->max_line_length = MAX (max_length, 1);
}

void
ps_line_reader_set_lf_only (PsLineReader *self,
                            gboolean      lf_only)
{
  g_return_if_fail (self != NULL);
  self->lf_only = !!lf_only;
}

void
ps_line_reader_set_fast_func (PsLineReader   *self,
                              PsLineFastFunc  fast_func)
{
  g_return_if_fail (self != NULL);
  self->fast_func = fast_func;
}

PsTextEncoding
ps_line_reader_get_encoding (PsLineReader *self)
{
  g_return_val_if_fail (self != NULL, PS_TEXT_ENCODING_8BIT);
  return self->encoding;
}

guint64
ps_line_reader_get_n_lines (PsLineReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_lines;
}

static void
emit (PsLineReader *self,
      const char   *text,
      gsize         length,
      gboolean      terminated,
      gboolean      truncated)
{
  PsLine line;

  /* Only LF ends a line: one CR before it (or at the end of the input)
   * belongs to the line end. */
  if (self->lf_only && length > 0 && text[length - 1] == '\r')
    {
      length--;
      terminated = TRUE;
    }

  line.text = text;
  line.length = length;
  line.number = ++self->n_lines;
  line.offset = self->line_offset;
  line.terminated = terminated;
  line.truncated = truncated;

  self->func (&line, self->user_data);
}

static void
carry_append (PsLineReader *self,
              const guint8 *data,
              gsize         length)
{
  gsize room = self->max_line_length - MIN (self->carry->len, self->max_line_length);

  if (length > room)
    {
      length = room;
      self->carry_truncated = TRUE;
    }
  if (length > 0)
    g_byte_array_append (self->carry, data, length);
}

static void
feed_8bit (PsLineReader *self,
           const guint8 *data,
           gsize         length,
           gboolean      allow_fast)
{
  PsLineFastFunc fast_func = allow_fast ? self->fast_func : NULL;
  gsize pos = 0;

  if (self->skip_lf && length > 0)
    {
      self->skip_lf = FALSE;
      if (data[0] == '\n')
        {
          pos = 1;
          self->line_offset = self->consumed + 1;
        }
    }

  while (pos < length)
    {
      const guint8 *lf;
      gsize segment_end;
      const guint8 *cr;
      gsize end;
      gsize eol_length;

      if (fast_func != NULL && self->carry->len == 0 && !self->carry_truncated)
        {
          PsLineRun run = { (const char *)data + pos, length - pos, self->n_lines + 1, self->consumed + pos };
          guint64 n_taken = 0;
          gsize used = fast_func (&run, &n_taken, self->user_data);

          if (used > 0)
            {
              g_assert (used <= length - pos && n_taken > 0);
              self->n_lines += n_taken;
              pos += used;
              self->line_offset = self->consumed + pos;
              continue;
            }
        }

      lf = memchr (data + pos, '\n', length - pos);
      segment_end = lf ? (gsize)(lf - data) : length;
      cr = self->lf_only ? NULL : memchr (data + pos, '\r', segment_end - pos);

      if (cr != NULL)
        {
          end = cr - data;
          eol_length = 1;
          if (end + 1 < length)
            {
              if (data[end + 1] == '\n')
                eol_length = 2;
            }
          else
            self->skip_lf = TRUE;
        }
      else if (lf != NULL)
        {
          end = lf - data;
          eol_length = 1;
        }
      else
        {
          carry_append (self, data + pos, length - pos);
          break;
        }

      if (self->carry->len > 0 || self->carry_truncated)
        {
          carry_append (self, data + pos, end - pos);
          emit (self, (const char *)self->carry->data, self->carry->len, TRUE, self->carry_truncated);
          g_byte_array_set_size (self->carry, 0);
          self->carry_truncated = FALSE;
        }
      else if (end - pos > self->max_line_length)
        emit (self, (const char *)data + pos, self->max_line_length, TRUE, TRUE);
      else
        emit (self, (const char *)data + pos, end - pos, TRUE, FALSE);

      pos = end + eol_length;
      self->line_offset = self->consumed + pos;
    }

  self->consumed += length;
}

static void
feed_utf16 (PsLineReader *self,
            const guint8 *data,
            gsize         length)
{
  if (self->decoded == NULL)
    self->decoded = g_string_sized_new (length + length / 2 + 8);
  g_string_truncate (self->decoded, 0);

  self->utf16.big_endian = self->encoding == PS_TEXT_ENCODING_UTF16BE;
  ps_utf16_decoder_feed (&self->utf16, data, length, self->decoded);
  feed_8bit (self, (const guint8 *) self->decoded->str, self->decoded->len, FALSE);
}

static void
feed_decoded (PsLineReader *self,
              const guint8 *data,
              gsize         length)
{
  if (self->encoding == PS_TEXT_ENCODING_UTF16LE || self->encoding == PS_TEXT_ENCODING_UTF16BE)
    feed_utf16 (self, data, length);
  else
    feed_8bit (self, data, length, TRUE);
}

/* Decides the encoding on the first bytes; returns how many to skip (a BOM). */
static gsize
detect (PsLineReader *self,
        const guint8 *head,
        gsize         length)
{
  if (length >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    {
      self->encoding = PS_TEXT_ENCODING_UTF8_BOM;
      return 3;
    }
  if (length >= 2 && head[0] == 0xFF && head[1] == 0xFE)
    {
      self->encoding = PS_TEXT_ENCODING_UTF16LE;
      return 2;
    }
  if (length >= 2 && head[0] == 0xFE && head[1] == 0xFF)
    {
      self->encoding = PS_TEXT_ENCODING_UTF16BE;
      return 2;
    }
  if (length >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0)
    self->encoding = PS_TEXT_ENCODING_UTF16LE;
  else if (length >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0)
    self->encoding = PS_TEXT_ENCODING_UTF16BE;
  else
    self->encoding = PS_TEXT_ENCODING_8BIT;

  return 0;
}

static void
finish_detection (PsLineReader *self)
{
  gsize skip = detect (self, self->head, self->head_length);

  self->encoding_known = TRUE;
  /* A skipped UTF-8 BOM still counts for the byte offsets; UTF-16 offsets
   * count bytes of the decoded text. */
  if (self->encoding == PS_TEXT_ENCODING_UTF8_BOM)
    self->consumed += skip;
  self->line_offset = self->consumed;
  if (self->head_length > skip)
    feed_decoded (self, self->head + skip, self->head_length - skip);
}

void
ps_line_reader_feed (PsLineReader *self,
                     const guint8 *data,
                     gsize         length)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || length == 0);

  if (!self->encoding_known)
    {
      gsize take = MIN (length, DETECT_BYTES - self->head_length);

      memcpy (self->head + self->head_length, data, take);
      self->head_length += take;
      data += take;
      length -= take;
      if (self->head_length < DETECT_BYTES)
        return;
      finish_detection (self);
    }

  if (length > 0)
    feed_decoded (self, data, length);
}

void
ps_line_reader_drop_carry (PsLineReader *self)
{
  g_return_if_fail (self != NULL);

  g_byte_array_set_size (self->carry, 0);
  self->carry_truncated = FALSE;
  self->skip_lf = FALSE;
  ps_utf16_decoder_reset (&self->utf16);
}

void
ps_line_reader_finish (PsLineReader *self)
{
  g_return_if_fail (self != NULL);

  if (!self->encoding_known)
    finish_detection (self);

  if (self->decoded != NULL)
    {
      g_string_truncate (self->decoded, 0);
      if (ps_utf16_decoder_finish (&self->utf16, self->decoded))
        feed_8bit (self, (const guint8 *) self->decoded->str, self->decoded->len, FALSE);
    }

  if (self->carry->len > 0 || self->carry_truncated)
    {
      emit (self, (const char *)self->carry->data, self->carry->len, FALSE, self->carry_truncated);
      g_byte_array_set_size (self->carry, 0);
      self->carry_truncated = FALSE;
    }
}

/* Kept lines */

typedef struct
{
  PsLine line;
  gssize arena_offset;  /* where the text is in the arena, or -1: in the chunk */
} KeptLine;

void
ps_kept_lines_init (PsKeptLines *self)
{
  self->chunk = NULL;
  self->chunk_length = 0;
  self->lines = g_array_new (FALSE, FALSE, sizeof (KeptLine));
  self->arena = g_byte_array_new ();
}

void
ps_kept_lines_clear (PsKeptLines *self)
{
  g_clear_pointer (&self->lines, g_array_unref);
  g_clear_pointer (&self->arena, g_byte_array_unref);
}

void
ps_kept_lines_reset (PsKeptLines *self)
{
  self->chunk = NULL;
  self->chunk_length = 0;
  g_array_set_size (self->lines, 0);
  g_byte_array_set_size (self->arena, 0);
}

void
ps_kept_lines_scan (PsKeptLines  *self,
                    PsLineReader *reader,
                    const guint8 *data,
                    gsize         length)
{
  self->chunk = (const char *) data;
  self->chunk_length = length;
  ps_line_reader_feed (reader, data, length);
}

guint
ps_kept_lines_add (PsKeptLines  *self,
                   const PsLine *line)
{
  KeptLine kept = { *line, -1 };
  guintptr start = (guintptr) line->text - (guintptr) self->chunk;

  if (self->chunk == NULL || start >= self->chunk_length || line->length > self->chunk_length - start)
    {
      kept.arena_offset = self->arena->len;
      kept.line.text = NULL;
      if (line->length > 0)
        g_byte_array_append (self->arena, (const guint8 *) line->text, line->length);
    }
  g_array_append_val (self->lines, kept);
  return self->lines->len - 1;
}

const PsLine *
ps_kept_lines_get (PsKeptLines *self,
                   guint        index)
{
  KeptLine *kept = &g_array_index (self->lines, KeptLine, index);

  if (kept->arena_offset >= 0)
    kept->line.text = kept->line.length > 0 ? (const char *) self->arena->data + kept->arena_offset : "";
  return &kept->line;
}
