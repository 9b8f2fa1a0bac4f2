/* ps-parse-kit.c — what the parsers share: warnings, blanks, the feed
 * guard, UTF-16 decoding (and the narrowing of a sniffed head), the
 * table of ids by key, and the batches of a line parser's two stages
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each parser used to carry its own copy of these; one copy keeps their
 * behaviour the same for every format.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ps-error.h"
#include "ps-parse-kit.h"

/* ------------------------------------------------------------------------ */
/* Warnings                                                                  */

void
ps_parse_reader_warn_valist (PsReaderWarningFunc  warning,
                             gpointer             user_data,
                             const char          *code,
                             guint64              offset,
                             const char          *format,
                             va_list              args)
{
  g_autofree char *message = NULL;

  if (warning == NULL)
    return;

  message = g_strdup_vprintf (format, args);
  warning (code, offset, message, user_data);
}

/* ------------------------------------------------------------------------ */
/* Blanks                                                                    */

gboolean
ps_parse_is_blank_text (const char *text,
                        gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (!ps_parse_is_blank (text[i]))
      return FALSE;
  return TRUE;
}

void
ps_parse_trim_leading (const char **text,
                       gsize       *length)
{
  while (*length > 0 && ps_parse_is_blank (**text))
    {
      (*text)++;
      (*length)--;
    }
}

void
ps_parse_trim (const char **text,
               gsize       *length)
{
  ps_parse_trim_leading (text, length);
  while (*length > 0 && ps_parse_is_blank ((*text)[*length - 1]))
    (*length)--;
}

gboolean
ps_parse_uint64 (const char *text,
                 gsize       length,
                 guint64    *value)
{
  guint64 v = 0;

  if (length == 0)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      guint digit;

      if (!g_ascii_isdigit (text[i]))
        return FALSE;
      digit = (guint)(text[i] - '0');
      if (v > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      v = v * 10 + digit;
    }

  *value = v;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The feed guard                                                            */

gboolean
ps_parse_check_feed (const char  *reader_name,
                     gboolean     in_callback,
                     gboolean     failed,
                     guint64      failed_offset,
                     GError     **error)
{
  if (in_callback)
    {
      /* TRANSLATORS: %s is a format, e.g. "PLV2" */
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The %s reader was fed from its own callback"), reader_name);
      return FALSE;
    }
  if (failed)
    {
      /* TRANSLATORS: %s is a format, e.g. "PLV2" */
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The %s reader stopped at byte offset %" PRIu64 " after an earlier error"),
                   reader_name, failed_offset);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* UTF-16                                                                    */

void
ps_utf16_decoder_init (PsUtf16Decoder *self,
                       gboolean        big_endian)
{
  *self = (PsUtf16Decoder) { .big_endian = big_endian };
}

void
ps_utf16_decoder_reset (PsUtf16Decoder *self)
{
  self->has_odd_byte = FALSE;
  self->high_surrogate = 0;
}

static inline void
append_unichar (GString  *out,
                gunichar  c)
{
  if (c < 0x80)
    g_string_append_c (out, (char) c);
  else
    g_string_append_unichar (out, c);
}

static void
append_replacement (PsUtf16Decoder *self,
                    GString        *out)
{
  self->replaced = TRUE;
  g_string_append_len (out, "\xEF\xBF\xBD", 3);  /* U+FFFD */
}

static inline void
append_unit (PsUtf16Decoder *self,
             GString        *out,
             gunichar2       unit)
{
  if (self->high_surrogate != 0)
    {
      gunichar2 high = self->high_surrogate;

      self->high_surrogate = 0;
      if (unit >= 0xDC00 && unit <= 0xDFFF)
        {
          append_unichar (out, 0x10000 + (((gunichar) high - 0xD800) << 10) + (unit - 0xDC00));
          return;
        }
      append_replacement (self, out);
    }

  if (unit >= 0xD800 && unit <= 0xDBFF)
    self->high_surrogate = unit;
  else if (unit >= 0xDC00 && unit <= 0xDFFF)
    append_replacement (self, out);
  else
    append_unichar (out, unit);
}

static inline gunichar2
make_unit (const PsUtf16Decoder *self,
           guint8                first,
           guint8                second)
{
  return self->big_endian ? (gunichar2) (first << 8 | second) : (gunichar2) (second << 8 | first);
}

void
ps_utf16_decoder_feed (PsUtf16Decoder *self,
                       const guint8   *data,
                       gsize           length,
                       GString        *out)
{
  gsize i = 0;

  if (self->has_odd_byte && length > 0)
    {
      append_unit (self, out, make_unit (self, self->odd_byte, data[0]));
      self->has_odd_byte = FALSE;
      i = 1;
    }

  for (; i + 1 < length; i += 2)
    append_unit (self, out, make_unit (self, data[i], data[i + 1]));

  if (i < length)
    {
      self->odd_byte = data[i];
      self->has_odd_byte = TRUE;
    }
}

gboolean
ps_utf16_decoder_finish (PsUtf16Decoder *self,
                         GString        *out)
{
  if (self->high_surrogate == 0 && !self->has_odd_byte)
    return FALSE;

  ps_utf16_decoder_reset (self);
  append_replacement (self, out);
  return TRUE;
}

const char *
ps_parse_sniff_text (const guint8  *data,
                     gsize          length,
                     char         **narrow,
                     gsize         *text_length)
{
  const char *text = (const char *) data;
  gsize n = length;

  *narrow = NULL;
  if (length >= 2 && ((data[0] == 0xFF && data[1] == 0xFE) || (data[0] == 0xFE && data[1] == 0xFF)
                      || (data[0] != 0 && data[1] == 0) || (data[0] == 0 && data[1] != 0)))
    {
      gsize low = (data[0] == 0xFF || data[1] == 0) ? 0 : 1;
      gsize start = (data[0] == 0xFF || data[0] == 0xFE) ? 2 : 0;

      *narrow = g_malloc (length / 2 + 1);
      n = 0;
      for (gsize i = start; i + 1 < length; i += 2)
        (*narrow)[n++] = data[i + 1 - low] == 0 ? (char)data[i + low] : '?';
      text = *narrow;
    }
  else if (length >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
    {
      text += 3;
      n -= 3;
    }

  *text_length = n;
  return text;
}

/* ------------------------------------------------------------------------ */
/* Ids by key                                                                */

void
ps_id_table_init (PsIdTable *self,
                  guint32    size)
{
  g_assert (size >= 2 && (size & (size - 1)) == 0);

  self->slots = g_new0 (guint32, size);
  self->mask = size - 1;
  self->n_ids = 0;
}

void
ps_id_table_clear (PsIdTable *self)
{
  g_clear_pointer (&self->slots, g_free);
  self->mask = 0;
  self->n_ids = 0;
}

void
ps_id_table_insert_at (PsIdTable         *self,
                       guint32            slot,
                       guint32            id,
                       PsIdTableHashFunc  hash_of_id,
                       gpointer           user_data)
{
  guint32 old_size = self->mask + 1;
  guint32 *old_slots = self->slots;

  self->slots[slot] = id + 1;
  self->n_ids++;
  /* Linear probing stays short while at most half full */
  if ((guint64) self->n_ids * 2 <= old_size)
    return;

  self->slots = g_new0 (guint32, (gsize) old_size * 2);
  self->mask = old_size * 2 - 1;
  for (guint32 i = 0; i < old_size; i++)
    if (old_slots[i] != 0)
      {
        guint32 k = ps_id_table_first_slot (self, hash_of_id (old_slots[i] - 1, user_data));

        while (self->slots[k] != 0)
          k = ps_id_table_next_slot (self, k);
        self->slots[k] = old_slots[i];
      }
  g_free (old_slots);
}

/* ------------------------------------------------------------------------ */
/* The batches of a line parser's two stages                                 */

/* The text parsers with two stages (CE, RTL) scan into their batches
 * alike: take one, show it to the reader's callbacks, feed the reader,
 * hand it on; only what a batch holds besides its kept lines is theirs. */

void
ps_line_batches_init (PsLineBatches   *self,
                      gpointer       (*batch_new) (void),
                      GDestroyNotify   batch_free,
                      gsize            lines_offset)
{
  self->pool = ps_batch_pool_new (batch_new, batch_free);
  self->lines_offset = lines_offset;
  self->filling = NULL;
}

void
ps_line_batches_clear (PsLineBatches *self)
{
  g_clear_pointer (&self->pool, ps_batch_pool_free);
}

/* The kept lines of one of the parser's batches */
static PsKeptLines *
line_batches_lines_of (PsLineBatches *self,
                       gpointer       batch)
{
  return (PsKeptLines *) ((guint8 *) batch + self->lines_offset);
}

gpointer
ps_line_batches_scan (PsLineBatches *self,
                      PsLineReader  *reader,
                      const guint8  *data,
                      gsize          length)
{
  gpointer batch = ps_batch_pool_take (self->pool);

  self->filling = batch;
  ps_kept_lines_scan (line_batches_lines_of (self, batch), reader, data, length);
  self->filling = NULL;

  return batch;
}

gpointer
ps_line_batches_finish (PsLineBatches *self,
                        PsLineReader  *reader)
{
  gpointer batch = ps_batch_pool_take (self->pool);

  self->filling = batch;
  ps_line_reader_finish (reader);
  self->filling = NULL;

  return batch;
}

void
ps_line_batches_give_back (PsLineBatches *self,
                           gpointer       batch)
{
  ps_kept_lines_reset (line_batches_lines_of (self, batch));
  ps_batch_pool_give_back (self->pool, batch);
}
