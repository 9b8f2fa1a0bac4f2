/* ps-export-writer.c — buffered text output for the exporters
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ps-export-writer.h"
#include "ps-number.h"
#include "ps-util.h"

/* Larger integers are written in exponent form */
#define MAX_EXACT_INTEGER 9007199254740992.0

struct _PsExportWriter
{
  GOutputStream *stream;
  GCancellable  *cancellable;
  GString       *buffer;
  GError        *error;
};

PsExportWriter *
ps_export_writer_new (GOutputStream *stream,
                      GCancellable  *cancellable)
{
  PsExportWriter *self = g_new0 (PsExportWriter, 1);

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), NULL);

  self->stream = g_object_ref (stream);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  self->buffer = g_string_sized_new (PS_EXPORT_WRITER_CHUNK + 4096);
  return self;
}

void
ps_export_writer_free (PsExportWriter *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->stream);
  g_clear_object (&self->cancellable);
  g_string_free (self->buffer, TRUE);
  g_clear_error (&self->error);
  g_free (self);
}

GString *
ps_export_writer_get_buffer (PsExportWriter *self)
{
  return self->buffer;
}

static void
write_buffer (PsExportWriter *self)
{
  if (self->error == NULL && self->buffer->len > 0)
    g_output_stream_write_all (self->stream, self->buffer->str, self->buffer->len,
                               NULL, self->cancellable, &self->error);
  g_string_truncate (self->buffer, 0);
}

void
ps_export_writer_flush_some (PsExportWriter *self)
{
  if (self->buffer->len >= PS_EXPORT_WRITER_CHUNK)
    write_buffer (self);
}

gboolean
ps_export_writer_failed (PsExportWriter *self)
{
  return self->error != NULL;
}

gboolean
ps_export_writer_finish (PsExportWriter *self,
                         GError        **error)
{
  write_buffer (self);
  if (self->error == NULL)
    g_output_stream_flush (self->stream, self->cancellable, &self->error);
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  return TRUE;
}

void
ps_export_append_json_string (GString    *out,
                              const char *text)
{
  g_autofree char *valid = NULL;

  if (text == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = ps_util_display_text (text, -1);

  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      const char *run = p;
      guchar c;

      /* Characters that need no escape go in one copy, however many */
      while ((guchar)*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f)
        p++;
      if (p > run)
        g_string_append_len (out, run, p - run);
      if (*p == '\0')
        break;

      c = (guchar)*p;
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char)c);
        }
    }
  g_string_append_c (out, '"');
}

/* The digits of a whole number, without printf's parsing of a format */
static int
format_integer (gint64  value,
                char   *buffer)
{
  char reversed[24];
  guint64 magnitude = value < 0 ? (guint64)0 - (guint64)value : (guint64)value;
  int n = 0, length = 0;

  do
    {
      reversed[n++] = (char)('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude != 0);
  if (value < 0)
    buffer[length++] = '-';
  while (n > 0)
    buffer[length++] = reversed[--n];
  return length;
}

int
ps_export_format_integer (gint64  value,
                          char   *buffer)
{
  return format_integer (value, buffer);
}

void
ps_export_append_integer (GString *out,
                          gint64   value)
{
  char buffer[PS_NUMBER_BUF];

  g_string_append_len (out, buffer, format_integer (value, buffer));
}

int
ps_export_format_json_number (double  value,
                              char   *buffer)
{
  if (!isfinite (value))
    {
      memcpy (buffer, "null", 4);
      return 4;
    }
  /* 0 and -0 alike */
  if (value == floor (value) && fabs (value) < MAX_EXACT_INTEGER)
    return format_integer ((gint64)value, buffer);
  return ps_number_format_double (value, buffer);
}

void
ps_export_append_json_number (GString *out,
                              double   value)
{
  char buffer[PS_NUMBER_BUF];

  g_string_append_len (out, buffer, ps_export_format_json_number (value, buffer));
}
