/* ps-format-vs-report-csv.c — CSV reports of the Visual Studio profiler
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §6 (the report files: CSV conventions §6.2,
 * call tree §6.3, function summary §6.4, caller/callee §6.5) and §7 (the
 * reader rules); the test cases of §8.
 *
 * What VSPerfReport and the IDE's "Export Report Data" write: a header of
 * column names, then one row per function, call path or caller/callee
 * relation. Each row becomes a PsReportRow with the values as given; the
 * unit is not in the file and is guessed from the numbers (§7 rule 5).
 *
 * The bytes go through three stages, each of which keeps its state between
 * chunks, so that the result never depends on where the chunks end: the
 * encoding (a BOM decides; UTF-16 is decoded to UTF-8), the CSV tokenizer
 * (RFC 4180 quoting, records may span lines), and the rows (their reading
 * is in ps-format-vs-report-rows.c). Only a file that is not a report at
 * all is a fatal error; everything else is a warning with its line number.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-vs-report-csv-private.h"

/* A record (one row with all its fields) longer than this is not a report
 * row: most likely a quote that never closes. */
#define MAX_RECORD_LENGTH (16 * 1024 * 1024)

/* How the sniffer recognises a time or sample column: each of these is part
 * of the name of every column of its kind. */
static const char * const sniff_value_names[] = {
  "Elapsed Inclusive Time", "Elapsed Exclusive Time",
  "Application Inclusive Time", "Application Exclusive Time",
  "Inclusive Samples", "Exclusive Samples",
};

/* ------------------------------------------------------------------------ */
/* Tokenizer (RFC 4180, §6.2, §7 rule 2)                                     */

static void
end_field (VsParser *self)
{
  Field field = { self->field_start, self->record->len - self->field_start, self->field_quoted };

  g_array_append_val (self->fields, field);
  self->field_start = self->record->len;
  self->field_quoted = FALSE;
}

static gboolean
end_record (VsParser  *self,
            gboolean   terminated,
            GError   **error)
{
  gboolean ok = TRUE;

  end_field (self);

  /* A blank line is no record */
  if (!(self->fields->len == 1 && field_is_empty_unquoted (&g_array_index (self->fields, Field, 0))))
    {
      if (!self->have_header)
        {
          ok = vs_read_header (self, error);
          if (!ok)
            self->failed = TRUE;
        }
      else
        vs_read_row (self, terminated);
    }

  g_string_truncate (self->record, 0);
  g_array_set_size (self->fields, 0);
  self->field_start = 0;
  self->field_quoted = FALSE;
  self->state = CSV_FIELD_START;
  self->record_line = self->line;

  return ok;
}

static gboolean
csv_feed (VsParser    *self,
          const char  *data,
          gsize        length,
          GError     **error)
{
  const char *p = data;
  const char *end = data + length;

  while (p < end)
    {
      const char *run = p;
      char c;

      switch (self->state)
        {
        case CSV_FIELD_START:
          if (*p == '"')
            {
              self->state = CSV_QUOTED;
              self->field_quoted = TRUE;
              self->quote_line = self->line;
              self->after_cr = FALSE;
              p++;
              break;
            }
          G_GNUC_FALLTHROUGH;

        case CSV_UNQUOTED:
          while (p < end && *p != ',' && *p != '\r' && *p != '\n')
            p++;
          if (p > run)
            {
              g_string_append_len (self->record, run, p - run);
              self->state = CSV_UNQUOTED;
              self->after_cr = FALSE;
            }
          if (p == end)
            break;

          c = *p++;
          if (c == ',')
            {
              end_field (self);
              self->state = CSV_FIELD_START;
              self->after_cr = FALSE;
            }
          else if (c == '\n' && self->after_cr)
            self->after_cr = FALSE;  /* the LF of a CR LF: the record ended at the CR */
          else
            {
              self->line++;
              self->after_cr = (c == '\r');
              if (!end_record (self, TRUE, error))
                return FALSE;
            }
          break;

        case CSV_QUOTED:
          while (p < end && *p != '"' && *p != '\r' && *p != '\n')
            p++;
          if (p > run)
            {
              g_string_append_len (self->record, run, p - run);
              self->after_cr = FALSE;
            }
          if (p == end)
            break;

          c = *p++;
          if (c == '"')
            {
              self->state = CSV_QUOTE_IN_QUOTED;
              self->after_cr = FALSE;
            }
          else
            {
              /* A line end inside quotes is part of the field */
              g_string_append_c (self->record, c);
              if (c == '\r' || !self->after_cr)
                self->line++;
              self->after_cr = (c == '\r');
            }
          break;

        case CSV_QUOTE_IN_QUOTED:
          if (*p == '"')
            {
              g_string_append_c (self->record, '"');
              self->state = CSV_QUOTED;
              p++;
            }
          else
            self->state = CSV_UNQUOTED;  /* text after the closing quote joins the field */
          break;

        default:
          g_assert_not_reached ();
        }

      if G_UNLIKELY (self->record->len + self->fields->len * sizeof (Field) > MAX_RECORD_LENGTH)
        {
          self->failed = TRUE;
          if (self->have_header)
            ps_event_store_set_session_end (self->store, self->session, self->last_line);
          if (self->state == CSV_QUOTED)
            g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                         _("The quoted field begun on line %llu runs on for more than %u MiB; "
                           "expected a closing double quote"),
                         (unsigned long long) self->quote_line, MAX_RECORD_LENGTH / (1024 * 1024));
          else
            g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                         _("The row on line %llu is longer than %u MiB; expected rows of a report"),
                         (unsigned long long) self->record_line, MAX_RECORD_LENGTH / (1024 * 1024));
          return FALSE;
        }
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Encoding (§7 rule 1)                                                      */

static gboolean
feed_decoded (VsParser      *self,
              const guint8  *data,
              gsize          length,
              GError       **error)
{
  if (length == 0)
    return TRUE;

  if (self->encoding == ENCODING_UTF16LE || self->encoding == ENCODING_UTF16BE)
    {
      g_string_truncate (self->decoded, 0);
      ps_utf16_decoder_feed (&self->utf16, data, length, self->decoded);
      return csv_feed (self, self->decoded->str, self->decoded->len, error);
    }

  return csv_feed (self, (const char *) data, length, error);
}

/* Decides the encoding from the first bytes once they suffice (or at the
 * end of the input): a BOM, else a NUL byte next to ASCII (UTF-16 without
 * BOM), else 8-bit text */
static void
detect_encoding (VsParser *self,
                 gboolean  at_end)
{
  const guint8 *h = self->head;
  guint n = self->n_head;

  if (n < 2)
    {
      if (at_end)
        self->encoding = ENCODING_8BIT;
      return;
    }

  if (h[0] == 0xFF && h[1] == 0xFE)
    {
      self->encoding = ENCODING_UTF16LE;
      self->bom_length = 2;
    }
  else if (h[0] == 0xFE && h[1] == 0xFF)
    {
      self->encoding = ENCODING_UTF16BE;
      self->bom_length = 2;
    }
  else if (h[0] == 0xEF && h[1] == 0xBB)
    {
      if (n < 3 && !at_end)
        return;
      self->encoding = ENCODING_8BIT;
      self->bom_length = n >= 3 && h[2] == 0xBF ? 3 : 0;
    }
  else if (h[0] != 0 && h[1] == 0)
    self->encoding = ENCODING_UTF16LE;
  else if (h[0] == 0 && h[1] != 0)
    self->encoding = ENCODING_UTF16BE;
  else
    self->encoding = ENCODING_8BIT;

  if (self->encoding == ENCODING_UTF16LE || self->encoding == ENCODING_UTF16BE)
    {
      ps_utf16_decoder_init (&self->utf16, self->encoding == ENCODING_UTF16BE);
      ps_parse_warn_at_line (&self->parent, PS_NONE, PS_SEVERITY_INFO, "I-UTF16", 0,
                             "%s", self->encoding == ENCODING_UTF16LE
                               ? _("The file is UTF-16LE text; it was decoded")
                               : _("The file is UTF-16BE text; it was decoded"));
    }
}

/* ------------------------------------------------------------------------ */
/* The parser                                                                */

static gboolean
vs_feed (PsParser      *parser,
         const guint8  *data,
         gsize          length,
         GError       **error)
{
  VsParser *self = (VsParser *) parser;

  if (self->failed)
    return TRUE;  /* the fatal error has been returned already */

  if (self->encoding == ENCODING_DETECTING)
    {
      gsize taken = 0;

      while (self->encoding == ENCODING_DETECTING && taken < length)
        {
          self->head[self->n_head++] = data[taken++];
          detect_encoding (self, FALSE);
        }
      if (self->encoding == ENCODING_DETECTING)
        return TRUE;

      if (!feed_decoded (self, self->head + self->bom_length, self->n_head - self->bom_length, error))
        return FALSE;
      data += taken;
      length -= taken;
    }

  return feed_decoded (self, data, length, error);
}

static gboolean
vs_finish (PsParser  *parser,
           GError   **error)
{
  VsParser *self = (VsParser *) parser;

  if (self->failed)
    return TRUE;

  if (self->encoding == ENCODING_DETECTING)
    {
      detect_encoding (self, TRUE);
      if (!feed_decoded (self, self->head + self->bom_length, self->n_head - self->bom_length, error))
        return FALSE;
    }

  /* Half a UTF-16 character at the end */
  g_string_truncate (self->decoded, 0);
  if (ps_utf16_decoder_finish (&self->utf16, self->decoded))
    {
      if (!csv_feed (self, self->decoded->str, self->decoded->len, error))
        return FALSE;
    }

  if (self->state == CSV_QUOTED)
    ps_parse_warn_at_line (&self->parent, self->have_header ? self->session : PS_NONE,
                           PS_SEVERITY_WARNING, "W-UNCLOSED-QUOTE", self->quote_line,
                           _("The file ends inside the quoted field begun on this line; expected a closing double quote"));

  if (self->record->len > 0 || self->fields->len > 0 || self->state != CSV_FIELD_START)
    if (!end_record (self, FALSE, error))
      return FALSE;

  if (!self->have_header)
    {
      self->failed = TRUE;
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Line 1: the input is empty; expected the header of a Visual Studio profiler report "
                     "with a “Function Name” column"));
      return FALSE;
    }

  if (self->kind == REPORT_CALLER_CALLEE)
    vs_close_group (self);

  ps_event_store_set_session_end (self->store, self->session, self->last_line);
  ps_store_builder_flush (parser->builder);

  return TRUE;
}

static void
vs_free (PsParser *parser)
{
  VsParser *self = (VsParser *) parser;

  g_string_free (self->decoded, TRUE);
  g_string_free (self->record, TRUE);
  g_string_free (self->key, TRUE);
  g_array_unref (self->fields);
  g_array_unref (self->open_rows);
  g_hash_table_unref (self->process_tracks);
  g_hash_table_unref (self->root_keys);
  g_free (self->columns);
  g_free (self);
}

static const PsParserClass vs_parser_class = {
  vs_feed,
  vs_finish,
  vs_free,
};

static PsParser *
vs_parser_new (PsStoreBuilder *builder)
{
  VsParser *self = g_new0 (VsParser, 1);

  self->parent.klass = &vs_parser_class;
  self->parent.builder = builder;
  self->store = ps_store_builder_get_store (builder);
  self->encoding = ENCODING_DETECTING;
  self->decoded = g_string_new (NULL);
  self->record = g_string_new (NULL);
  self->key = g_string_new (NULL);
  self->fields = g_array_new (FALSE, FALSE, sizeof (Field));
  self->open_rows = g_array_new (FALSE, FALSE, sizeof (OpenRow));
  self->process_tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->root_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->state = CSV_FIELD_START;
  self->line = 1;
  self->record_line = 1;
  self->session = PS_NONE;
  self->root_row = PS_NONE;

  return &self->parent;
}

/* Sniffing: the first line is a header with "Function Name" and a time or
 * sample column, in 8-bit text or UTF-16 with a BOM. */
static guint
vs_sniff (const guint8 *data,
          gsize         length,
          const char   *file_name)
{
  g_autofree char *narrow = NULL;
  gsize n;
  const char *text = ps_parse_sniff_text (data, length, &narrow, &n);
  const char *line_end;

  line_end = memchr (text, '\n', n);
  if (line_end != NULL)
    n = line_end - text;

  if (g_strstr_len (text, n, "Function Name") == NULL || memchr (text, ',', n) == NULL)
    return 0;

  for (guint i = 0; i < G_N_ELEMENTS (sniff_value_names); i++)
    if (g_strstr_len (text, n, sniff_value_names[i]) != NULL)
      return 95;

  /* Functions without values: some other tool's CSV */
  return 0;
}

static const char * const vs_extensions[] = { "csv", "CSV", NULL };
static const char * const vs_mime_types[] = { "text/csv", NULL };

const PsFormat ps_format_vs_report_csv = {
  "vs-report-csv",
  N_("Visual Studio profiler report"),
  N_("CSV reports of the Visual Studio profiler (VSPerfReport or “Export Report Data”): "
     "function summary, call tree or caller/callee, instrumentation or sampling"),
  vs_extensions,
  vs_mime_types,
  vs_sniff,
  vs_parser_new,
};
