/* ps-format-pdh-csv.c — PDH CSV/TSV counter logs (Performance Monitor, logman, relog, typeperf)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 (the text logs) and §9.5 (the cases a reader
 * must survive).
 *
 * Line 1 is a header: the format cell "(PDH-CSV 4.0) (<time zone>)(<bias>)"
 * and one counter path per column; every further line is a sample, a local
 * timestamp and one already computed (cooked) value per counter. The lines
 * come through PsLineReader (any chunk split, CR LF or LF, UTF-8 BOM and
 * UTF-16 decoded). 8-bit text is UTF-8 until a line is not: that line and
 * every one after it are then read in the code page its letters make
 * plain, Windows-1251 when they run in words of Cyrillic letters, else
 * Windows-1252, or in the one the "encoding" option names.
 *
 * Store model (also in ps-event-store.h next to PsTrackKind):
 *
 *   PS_TRACK_MACHINE   name: the computer ("HOST" of \\HOST\…); none for
 *                      paths without a computer
 *   PS_TRACK_OBJECT    name: the object ("Processor", "MSSQL$INST:Buffer
 *                      Manager"); parent: its machine or PS_NONE
 *   PS_TRACK_INSTANCE  name: the instance without parent and index
 *                      ("svchost"); category: the parent instance
 *                      ("explorer" of Thread(explorer/0)), 0 if none;
 *                      number: the #index (0 when not written);
 *                      parent: its object
 *   PS_TRACK_COUNTER   name: the counter ("% Processor Time"); category:
 *                      the original counter path, as the header writes it;
 *                      unit: inferred from the counter's name ("%", "/sec",
 *                      "bytes", "ms", …; 0 when nothing fits) because the
 *                      file has no counter types; number: the column
 *                      (1-based; the timestamp is column 0); parent: its
 *                      instance, or its object for single-instance objects
 *
 * Every cell of a row becomes a PsCounterValue of its column's counter
 * track with its display value (the file holds nothing else); a blank or
 * non-numeric cell is PS_COUNTER_FLAG_MISSING with a NaN.
 * Times are nanoseconds from the first sample; the session origin is that
 * sample's wall-clock time in UTC (local time + bias). typeperf writes no
 * time zone: the origin is then unknown (0) and the first sample's local
 * time is kept as the "first_sample_local" metadata.
 *
 * Only a file without the PDH header is a fatal error; everything else is
 * a warning with its line number. Lines that are not quoted records
 * (typeperf's messages on stdout) are skipped and counted.
 *
 * What a line costs stays in proportion to it: its fields are read one
 * after the other, never all held at once; a column without a counter
 * path holds no counter (a header of ten million empty columns is ten
 * million commas, not ten million tracks), and a header is read up to
 * MAX_COUNTERS counters. What a counter path names, the unit inferred
 * from it and the tracks it becomes are in ps-format-pdh-counters.c.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-pdh-csv-private.h"
#include "ps-number.h"
#include "ps-util.h"

/* One header of 5,000 counters is far below this; a longer line is no
 * PDH record */
#define MAX_LINE_LENGTH (64u * 1024u * 1024u)

/* The counters of a header read at most: far more than a machine has
 * (5,000 threads of 12 counters each are 60,000), and few enough that
 * their tracks take a few hundred MB at worst */
#define MAX_COUNTERS (1u << 20)

/* ------------------------------------------------------------------------ */
/* Text                                                                      */

/* Plain ASCII, eight bytes at a time: most lines are, and need no
 * further check of their UTF-8 */
static gboolean
is_ascii (const char *text,
          gsize       length)
{
  const guint64 high_bits = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 seen = 0;
  gsize i = 0;

  for (; i + 8 <= length; i += 8)
    {
      guint64 word;

      memcpy (&word, text + i, sizeof word);
      seen |= word;
    }
  for (; i < length; i++)
    seen |= (guchar)text[i];
  return (seen & high_bits) == 0;
}

/* A letter of Windows-1251 or -1252 above ASCII: Cyrillic letters are
 * 0xC0 to 0xFF with Ё and ё, accented Latin ones there too */
static inline gboolean
is_high_letter (guchar c)
{
  return c >= 0xC0 || c == 0xA8 || c == 0xB8;
}

/* The code page of a line that is not UTF-8, from how its letters above
 * ASCII stand: Cyrillic words are runs of them, while accented Latin
 * letters mostly stand alone among ASCII ones ("Número", "Mémoire").
 * *plain is FALSE when the line does not make it plain (letters in twos,
 * as in "Größe" or "МБ"; a few words of three): then Windows-1252, as
 * Windows itself writes most of these logs. */
static CodePage
guess_code_page (const char *text,
                 gsize       length,
                 gboolean   *plain)
{
  guint64 n_letters = 0, n_alone = 0, n_in_words = 0;
  gsize run = 0;

  for (gsize i = 0; i <= length; i++)
    {
      if (i < length && is_high_letter ((guchar)text[i]))
        {
          run++;
          n_letters++;
          continue;
        }
      if (run == 1)
        n_alone++;
      /* Three letters or more in a row */
      if (run >= 3)
        n_in_words += run;
      run = 0;
    }

  if (n_in_words >= 6 && 10 * n_in_words >= 6 * n_letters)
    {
      *plain = TRUE;
      return CODE_PAGE_1251;
    }
  *plain = n_alone == n_letters;
  return CODE_PAGE_1252;
}

static void
field_reader_init (FieldReader *reader,
                   const char  *text,
                   gsize        length,
                   char         separator)
{
  reader->text = text;
  reader->length = length;
  reader->pos = 0;
  reader->separator = separator;
  reader->done = FALSE;
}

/* The next field, FALSE after the last. Its text is *field, *field_length
 * bytes (not NUL-terminated): a view into the line, or into `scratch`
 * when it had to be unquoted. A field in double quotes may hold the
 * separator and doubled quotes (§7.2, §9.5 #6); text after a closing
 * quote joins the field. field may be NULL to pass a field over. */
static gboolean
read_field (FieldReader  *reader,
            GString      *scratch,
            const char  **field,
            gsize        *field_length)
{
  const char *text = reader->text;
  gsize p = reader->pos;
  gsize start, stop;
  const char *end;

  if (reader->done)
    return FALSE;

  if (p < reader->length && text[p] == '"')
    {
      const char *closing = memchr (text + p + 1, '"', reader->length - p - 1);
      gsize after = closing != NULL ? (gsize)(closing - text) + 1 : reader->length;

      if (after >= reader->length || text[after] == reader->separator)
        {
          /* "value": the text between the quotes, as it is */
          start = p + 1;
          stop = closing != NULL ? (gsize)(closing - text) : reader->length;
          p = after;
        }
      else
        {
          /* Doubled quotes, or text after the closing quote */
          g_string_truncate (scratch, 0);
          for (p++; p < reader->length; p++)
            {
              if (text[p] != '"')
                g_string_append_c (scratch, text[p]);
              else if (p + 1 < reader->length && text[p + 1] == '"')
                {
                  g_string_append_c (scratch, '"');
                  p++;
                }
              else
                {
                  p++;
                  break;
                }
            }
          end = memchr (text + p, reader->separator, reader->length - p);
          stop = end != NULL ? (gsize)(end - text) : reader->length;
          g_string_append_len (scratch, text + p, stop - p);
          p = stop;
          if (field != NULL)
            {
              *field = scratch->str;
              *field_length = scratch->len;
            }
          goto separator;
        }
    }
  else
    {
      end = memchr (text + p, reader->separator, reader->length - p);
      start = p;
      stop = end != NULL ? (gsize)(end - text) : reader->length;
      p = stop;
    }
  if (field != NULL)
    {
      *field = text + start;
      *field_length = stop - start;
    }

separator:
  /* The separator: another field follows, maybe empty */
  if (p >= reader->length)
    reader->done = TRUE;
  else
    p++;
  reader->pos = p;
  return TRUE;
}

/* The next field as a string of its own in out */
static gboolean
read_field_string (FieldReader *reader,
                   GString     *scratch,
                   GString     *out)
{
  const char *field;
  gsize length;

  if (!read_field (reader, scratch, &field, &length))
    return FALSE;
  g_string_truncate (out, 0);
  g_string_append_len (out, field, length);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Header (§7.2 "Header cell 1", "Header cells 2..n")                       */

/* "(PDH-CSV " or "(PDH-TSV " at the start: TRUE, with the separator */
static gboolean
has_signature (const char *text,
               gsize       length,
               char       *separator)
{
  if (length < 9 || strncmp (text, "(PDH-", 5) != 0 || text[8] != ' ')
    return FALSE;
  if (strncmp (text + 5, "CSV", 3) == 0)
    *separator = ',';
  else if (strncmp (text + 5, "TSV", 3) == 0)
    *separator = '\t';
  else
    return FALSE;
  return TRUE;
}

static gboolean
parse_integer (const char *text,
               gsize       length,
               gint64     *out)
{
  g_autofree char *copy = g_strndup (text, length);

  g_strstrip (copy);
  return g_ascii_string_to_signed (copy, 10, -24 * 60, 24 * 60, out, NULL);
}

/* "(PDH-CSV 4.0) (Pacific Daylight Time)(420)", or typeperf's "(PDH-CSV
 * 4.0)". Performance Monitor on a machine whose zone's name is not in
 * English writes the name only up to its first such letter, and nothing
 * after it: "(PDH-CSV 4.0) (" on a Chinese machine, "(PDH-CSV 4.0) (RTZ 2 ("
 * on a Russian one. Returns the part of such a cut name that is there, in
 * *cut (maybe empty), or NULL in *cut when the cell has no zone at all. */
static void
read_format_cell (PdhParser  *self,
                  const char *cell,
                  gsize       length,
                  char      **cut)
{
  const char *end = cell + length;
  const char *version = cell + 9;
  const char *version_end = memchr (version, ')', end - version);
  const char *first_close;
  const char *last_open = NULL;
  g_autofree char *format = g_strndup (cell + 1, 7);

  *cut = NULL;
  ps_event_store_set_metadata (self->store, self->session, "pdh_format", format);
  if (version_end == NULL)
    return;
  {
    g_autofree char *text = g_strndup (version, version_end - version);

    ps_event_store_set_metadata (self->store, self->session, "pdh_version", g_strstrip (text));
  }
  first_close = version_end;

  /* The bias: the integer inside the last "(…)" at the end of the cell */
  while (end > first_close + 1 && ps_parse_is_blank (end[-1]))
    end--;
  if (end[-1] == ')')
    for (const char *q = end - 1; q > first_close; q--)
      if (*q == '(')
        {
          last_open = q;
          break;
        }

  if (last_open != NULL && parse_integer (last_open + 1, end - 1 - (last_open + 1), &self->bias_minutes))
    {
      g_autofree char *bias = g_strdup_printf ("%" PRId64, self->bias_minutes);
      /* The name: from the first ") (" to that last "(", without its ")" */
      const char *name = first_close + 1;
      const char *name_end = last_open;

      self->has_bias = TRUE;
      ps_event_store_set_metadata (self->store, self->session, "time_zone_bias_minutes", bias);

      while (name < name_end && ps_parse_is_blank (*name))
        name++;
      if (name < name_end && *name == '(')
        name++;
      while (name_end > name && ps_parse_is_blank (name_end[-1]))
        name_end--;
      if (name_end > name && name_end[-1] == ')')
        name_end--;
      if (name_end > name)
        {
          g_autofree char *zone = g_strndup (name, name_end - name);

          ps_event_store_set_metadata (self->store, self->session, "time_zone", zone);
        }
    }
  else
    {
      /* Text after the version that is no zone and bias: a zone cut off */
      const char *name = first_close + 1;

      int depth = 0;

      for (const char *q = name; q < end; q++)
        depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
      while (name < end && ps_parse_is_blank (*name))
        name++;
      /* A "(" that is not closed: "(Somewhere)(soon)" is only no bias */
      if (name < end && *name == '(' && depth > 0)
        {
          *cut = g_strndup (name + 1, end - (name + 1));
          if ((*cut)[0] != '\0')
            ps_event_store_set_metadata (self->store, self->session, "time_zone", *cut);
          ps_event_store_set_metadata (self->store, self->session, "time_zone_cut", "true");
        }
    }
}

/* The "utc-offset" option, when given: UTC = local − offset */
static void
apply_utc_offset (PdhParser *self,
                  guint64    line)
{
  g_autofree char *bias = NULL;
  gint64 minutes = self->utc_offset_minutes;

  self->has_bias = TRUE;
  self->bias_minutes = -minutes;
  bias = g_strdup_printf ("%" PRId64, self->bias_minutes);
  ps_event_store_set_metadata (self->store, self->session, "time_zone_bias_minutes", bias);
  ps_event_store_set_metadata (self->store, self->session, "utc_offset_given", "true");
  /* Translators: "UTC+03:00" */
  ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-PDH-UTC-OFFSET", line,
                         _("The recording machine’s times are taken as UTC%c%02" PRId64 ":%02" PRId64
                           ", as given, instead of what the header says of its time zone"),
                         minutes < 0 ? '-' : '+', ABS (minutes) / 60, ABS (minutes) % 60);
}

static void
read_header (PdhParser  *self,
             const char *text,
             gsize       length,
             guint64     line)
{
  /* The first field of each counter path, by the path's string id */
  g_autoptr(GArray) first_field = g_array_new (FALSE, TRUE, sizeof (guint));
  FieldReader reader;
  guint64 n_blank = 0, first_blank = 0;
  guint64 n_beyond = 0, first_beyond = 0;
  g_autofree char *cut_zone = NULL;
  guint field;

  self->have_header = TRUE;
  self->header_line = line;
  self->session = ps_event_store_add_session (self->store, line, FALSE);
  self->last_line = line;

  field_reader_init (&reader, text, length, self->separator);
  read_field_string (&reader, self->scratch, self->field);
  read_format_cell (self, self->field->str, self->field->len, &cut_zone);
  if (self->has_utc_offset)
    apply_utc_offset (self, line);
  else if (cut_zone != NULL)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-PDH-ZONE-CUT", line,
                           _("The header’s time zone is cut off after “(%s”, as Performance Monitor writes a "
                             "zone named in letters other than English ones, and its offset from UTC is missing; "
                             "times are the recording machine’s local time and the run’s wall-clock start is "
                             "unknown unless the offset is given (perfscope-cli --utc-offset)"),
                           cut_zone);
  else if (!self->has_bias)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-PDH-NO-TIME-ZONE", line,
                           _("The header names no time zone (typeperf); times are the recording machine’s "
                             "local time and the run’s wall-clock start is unknown"));
  ps_event_store_set_metadata (self->store, self->session, "time_unit", "ms");

  for (field = 1; read_field_string (&reader, self->scratch, self->field); field++)
    {
      const char *path = self->field->str;
      Column column = { field, PS_NONE, FALSE };
      guint32 path_id;
      guint first;

      /* Its values would be values of nothing */
      if (ps_parse_is_blank_text (path, self->field->len))
        {
          if (n_blank++ == 0)
            first_blank = field + 1;
          continue;
        }
      if (self->columns->len >= MAX_COUNTERS)
        {
          if (n_beyond++ == 0)
            first_beyond = field + 1;
          continue;
        }

      column.track = pdh_add_counter_column (self, field, path, self->field->len);
      g_array_append_val (self->columns, column);

      /* The counter track's category is its path */
      path_id = ps_event_store_get_track (self->store, column.track)->category;
      if (path_id >= first_field->len)
        g_array_set_size (first_field, MAX (path_id + 1, first_field->len * 2));
      first = g_array_index (first_field, guint, path_id);
      if (first != 0)
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-DUPLICATE", line,
                               _("Column %u repeats the counter path of column %u (“%s”); both are kept"),
                               field + 1, first, path);
      else
        g_array_index (first_field, guint, path_id) = field + 1;
    }
  self->n_fields = field;

  if (n_blank > 0)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-NO-PATH", line,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "%llu column has no counter path (column %llu); its values are not read",
                                        "%llu columns have no counter path (the first is column %llu); "
                                        "their values are not read",
                                        (gulong) MIN (n_blank, G_MAXULONG)),
                           (unsigned long long) n_blank, (unsigned long long) first_blank);
  if (n_beyond > 0)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-COLUMNS", line,
                           _("The header names more than %u counters; the %llu from column %llu on are not read"),
                           MAX_COUNTERS, (unsigned long long) n_beyond, (unsigned long long) first_beyond);
  self->row_numbers = g_new (double, MAX (self->columns->len, 1));
  self->row_status = g_new (guint8, MAX (self->columns->len, 1));

  if (self->columns->len == 0)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-NO-COUNTERS", line,
                           _("The header names no counter paths; the samples hold no values"));
}

/* ------------------------------------------------------------------------ */
/* Rows (§7.2 "Data rows")                                                   */

static gboolean
read_digits (const char **p,
             const char  *end,
             guint        min_digits,
             guint        max_digits,
             guint       *out)
{
  guint n = 0, value = 0;

  while (*p < end && n < max_digits && g_ascii_isdigit (**p))
    {
      value = value * 10 + (guint)(**p - '0');
      (*p)++;
      n++;
    }
  *out = value;
  return n >= min_digits;
}

static gboolean
expect_char (const char **p,
             const char  *end,
             char         c)
{
  if (*p >= end || **p != c)
    return FALSE;
  (*p)++;
  return TRUE;
}

/* Days since 1970-01-01 of a proleptic Gregorian date */
static gint64
days_from_civil (gint64 year,
                 guint  month,
                 guint  day)
{
  gint64 era, year_of_era, day_of_year, day_of_era;

  year -= month <= 2;
  era = (year >= 0 ? year : year - 399) / 400;
  year_of_era = year - era * 400;
  day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/* "MM/DD/YYYY HH:MM:SS.mmm" as nanoseconds since 1970 in the same (local)
 * time; fewer or more fraction digits, or none, are accepted */
static gboolean
parse_timestamp (const char *text,
                 gsize       length,
                 gint64     *out)
{
  const char *p = text;
  const char *end = text + length;
  guint month, day, year, hour, minute, second;
  gint64 fraction_ns = 0;
  gint64 seconds;

  while (p < end && ps_parse_is_blank (*p))
    p++;
  while (end > p && ps_parse_is_blank (end[-1]))
    end--;

  if (!read_digits (&p, end, 1, 2, &month) || !expect_char (&p, end, '/')
      || !read_digits (&p, end, 1, 2, &day) || !expect_char (&p, end, '/')
      || !read_digits (&p, end, 4, 4, &year) || !expect_char (&p, end, ' ')
      || !read_digits (&p, end, 1, 2, &hour) || !expect_char (&p, end, ':')
      || !read_digits (&p, end, 2, 2, &minute) || !expect_char (&p, end, ':')
      || !read_digits (&p, end, 2, 2, &second))
    return FALSE;

  if (p < end && *p == '.')
    {
      gint64 scale = 100000000;

      p++;
      if (p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++)
        {
          fraction_ns += (*p - '0') * scale;
          scale /= 10;
        }
    }
  if (p != end)
    return FALSE;

  if (year < 1 || month < 1 || month > 12 || day < 1
      || day > (guint)g_date_get_days_in_month ((GDateMonth)month, (GDateYear)year)
      || hour > 23 || minute > 59 || second > 60)
    return FALSE;

  seconds = days_from_civil (year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  /* Nanoseconds since 1970 in 64 bits reach from 1677 to 2262; a day
   * spare for the time zone's bias */
  if (seconds >= G_MAXINT64 / G_GINT64_CONSTANT (1000000000) - 86400
      || seconds <= G_MININT64 / G_GINT64_CONSTANT (1000000000) + 86400)
    return FALSE;
  *out = seconds * G_GINT64_CONSTANT (1000000000) + fraction_ns;
  return TRUE;
}

typedef enum
{
  VALUE_OK,
  VALUE_BLANK,     /* " " or "": the spec's missing value */
  VALUE_BAD,       /* anything else that is not a finite decimal number */
} ValueStatus;

/* A decimal number with '.' as separator, optional sign and exponent
 * (§7.2, §9.5 #8); no "NaN", "inf" or hexadecimal */
static ValueStatus
parse_value (const char *text,
             gsize       length,
             double     *out)
{
  const char *p = text;
  const char *end = text + length;

  while (p < end && ps_parse_is_blank (*p))
    p++;
  while (end > p && ps_parse_is_blank (end[-1]))
    end--;
  if (p == end)
    return VALUE_BLANK;

  if (!ps_number_parse_double (p, (gsize)(end - p), out) || !isfinite (*out))
    return VALUE_BAD;
  return VALUE_OK;
}

static void
clear_row_bad (PdhParser *self)
{
  for (guint i = 0; i < self->row_bad->len; i++)
    g_free (g_array_index (self->row_bad, BadValue, i).text);
  g_array_set_size (self->row_bad, 0);
}

/* One pass over the fields: the values of the columns are read as they
 * come and kept aside until the count of fields and the time say that
 * the row is one */
static void
read_row (PdhParser  *self,
          const char *text,
          gsize       length,
          guint64     line)
{
  gint64 local_ns, utc_ns, time_ns;
  FieldReader reader;
  const char *field;
  gsize field_length;
  guint n_fields;
  guint next_column = 0;
  guint n_columns = self->columns->len;
  const Column *columns = (const Column *)(gpointer)self->columns->data;
  guint next_field = n_columns > 0 ? columns[0].field : G_MAXUINT;

  field_reader_init (&reader, text, length, self->separator);
  read_field_string (&reader, self->scratch, self->field);

  for (n_fields = 1; read_field (&reader, self->scratch, &field, &field_length); n_fields++)
    {
      ValueStatus status;

      if (n_fields != next_field)
        continue;
      status = parse_value (field, field_length, &self->row_numbers[next_column]);
      self->row_status[next_column] = (guint8)status;
      if (status == VALUE_BAD && !columns[next_column].warned)
        {
          BadValue bad = { next_column, g_strndup (field, field_length) };

          g_array_append_val (self->row_bad, bad);
        }
      next_column++;
      next_field = next_column < n_columns ? columns[next_column].field : G_MAXUINT;
    }

  if (n_fields != self->n_fields)
    {
      clear_row_bad (self);
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-FIELDS", line,
                             _("The row has %u fields, the header %u; the row was skipped"),
                             n_fields, self->n_fields);
      return;
    }

  if (!parse_timestamp (self->field->str, self->field->len, &local_ns))
    {
      clear_row_bad (self);
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-TIME", line,
                             _("“%s” is not a time; expected MM/DD/YYYY HH:MM:SS.mmm. The row was skipped"),
                             self->field->str);
      return;
    }

  utc_ns = local_ns + (self->has_bias ? self->bias_minutes * 60 * G_GINT64_CONSTANT (1000000000) : 0);
  if (!self->have_origin)
    {
      self->have_origin = TRUE;
      self->origin_utc_ns = utc_ns;
      self->last_time_ns = 0;
      if (self->has_bias)
        ps_event_store_set_session_origin (self->store, self->session, utc_ns);
      {
        g_autofree char *first = g_strndup (self->field->str, self->field->len);

        ps_event_store_set_metadata (self->store, self->session, "first_sample_local", g_strstrip (first));
      }
    }
  time_ns = utc_ns - self->origin_utc_ns;

  /* DST fall-back repeats an hour; the values are kept in file order */
  if (time_ns < self->last_time_ns)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-TIME-BACK", line,
                           _("The time goes back by %.3f s (a change of daylight saving time?)"),
                           (double)(self->last_time_ns - time_ns) / 1e9);
  self->last_time_ns = time_ns;

  for (guint c = 0, bad = 0; c < n_columns; c++)
    {
      Column *column = &g_array_index (self->columns, Column, c);
      PsCounterValue value = { 0 };

      value.time_ns = time_ns;
      value.track = column->track;
      if (self->row_status[c] == VALUE_OK)
        value.value = self->row_numbers[c];
      else
        {
          value.flags = PS_COUNTER_FLAG_MISSING;
          value.value = NAN;
          if (self->row_status[c] == VALUE_BAD && !column->warned)
            {
              const BadValue *report = &g_array_index (self->row_bad, BadValue, bad++);

              column->warned = TRUE;
              ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-VALUE", line,
                                     _("Column %u: “%s” is not a number; taken as a missing value "
                                       "(first such value of the column)"),
                                     column->field + 1, report->text);
            }
        }
      ps_store_builder_add_counter_value (self->parent.builder, &value);
    }
  clear_row_bad (self);

  self->n_rows++;
  self->last_line = line;
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                     */

static void
fail (PdhParser  *self,
      GError     *error)
{
  self->failed = TRUE;
  g_clear_error (&self->error);
  self->error = error;
}

/* The code page of the lines from this one on, which is not UTF-8 */
static void
choose_code_page (PdhParser  *self,
                  const char *text,
                  gsize       length,
                  guint64     line)
{
  guint32 session = self->have_header ? self->session : PS_NONE;
  gboolean plain;

  if (self->iconv != (GIConv) -1)
    {
      self->code_page = CODE_PAGE_ICONV;
      ps_parse_warn_at_line (&self->parent, session, PS_SEVERITY_INFO, "I-ENCODING", line,
                             _("Text that is not UTF-8 was read as %s, as asked, from this line on"),
                             self->encoding);
      return;
    }

  self->code_page = guess_code_page (text, length, &plain);
  if (self->code_page == CODE_PAGE_1251)
    {
      self->iconv = g_iconv_open ("UTF-8", "WINDOWS-1251");
      self->code_page = self->iconv != (GIConv) -1 ? CODE_PAGE_ICONV : CODE_PAGE_1252;
      plain = self->iconv != (GIConv) -1;
    }
  if (self->code_page == CODE_PAGE_ICONV)
    {
      self->encoding = g_strdup ("Windows-1251");
      ps_parse_warn_at_line (&self->parent, session, PS_SEVERITY_INFO, "I-CP1251", line,
                             _("Text that is not UTF-8 was read as Windows-1251 (Cyrillic) from this line on, "
                               "as its words are written in Cyrillic letters"));
    }
  else if (plain)
    ps_parse_warn_at_line (&self->parent, session, PS_SEVERITY_INFO, "I-CP1252", line,
                           _("Text that is not UTF-8 was read as Windows-1252 from this line on"));
  else
    ps_parse_warn_at_line (&self->parent, session, PS_SEVERITY_WARNING, "W-ENCODING-GUESS", line,
                           _("Text that is not UTF-8 was read as Windows-1252 from this line on, though its "
                             "letters could be of another code page; name the log’s code page to read it in that one"));
}

/* A line of the code page in UTF-8, into self->decoded */
static void
decode (PdhParser  *self,
        const char *text,
        gsize       length)
{
  g_string_truncate (self->decoded, 0);
  switch (self->code_page)
    {
    case CODE_PAGE_ICONV:
      {
        g_autofree char *converted = NULL;
        gsize converted_length = 0;

        /* A byte the code page does not have stops the conversion: then
         * the slow way, each such byte a replacement character */
        converted = g_convert_with_iconv (text, (gssize) length, self->iconv, NULL, &converted_length, NULL);
        if (converted == NULL)
          converted = g_convert_with_fallback (text, (gssize) length, "UTF-8", self->encoding, "\xEF\xBF\xBD",
                                               NULL, &converted_length, NULL);
        if (converted != NULL)
          g_string_append_len (self->decoded, converted, (gssize) converted_length);
        else
          {
            g_autofree char *valid = g_utf8_make_valid (text, (gssize) length);

            g_string_append (self->decoded, valid);
          }
      }
      break;
    case CODE_PAGE_1252:
    case CODE_PAGE_1251:
    case CODE_PAGE_UTF8:
    default:
      ps_util_append_cp1252 (self->decoded, text, length);
      break;
    }
}

static void
handle_line (const PsLine *line,
             gpointer      user_data)
{
  PdhParser *self = user_data;
  const char *text = line->text;
  gsize length = line->length;

  if (self->failed)
    return;

  /* A code page once a line is not UTF-8 (§7.2 "Encoding") */
  if (ps_line_reader_get_encoding (self->reader) == PS_TEXT_ENCODING_8BIT && !is_ascii (text, length))
    {
      if (self->code_page == CODE_PAGE_UTF8 && !g_utf8_validate_len (text, length, NULL))
        choose_code_page (self, text, length, line->number);
      if (self->code_page != CODE_PAGE_UTF8)
        {
          decode (self, text, length);
          text = self->decoded->str;
          length = self->decoded->len;
        }
    }

  if (line->truncated)
    {
      if (!self->have_header)
        {
          fail (self, g_error_new (PS_ERROR, PS_ERROR_PARSE,
                                   _("Line %llu is longer than %u MiB; expected the header of a PDH log"),
                                   (unsigned long long)line->number, MAX_LINE_LENGTH / (1024 * 1024)));
          return;
        }
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-LONG-LINE", line->number,
                             _("The line is longer than %u MiB; it was skipped"), MAX_LINE_LENGTH / (1024 * 1024));
      return;
    }

  /* typeperf's blank line before the header, trailing blank lines */
  if (ps_parse_is_blank_text (text, length))
    return;

  if (!self->have_header)
    {
      const char *cell = text;
      gsize cell_length = length;
      char separator = ',';

      if (cell_length > 0 && cell[0] == '"')
        {
          cell++;
          cell_length--;
        }
      if (!has_signature (cell, cell_length, &separator))
        {
          g_autofree char *start = g_utf8_make_valid (text, MIN (length, 40));

          fail (self, g_error_new (PS_ERROR, PS_ERROR_PARSE,
                                   _("Line %llu: not a PDH log; expected a header beginning with "
                                     "\"(PDH-CSV 4.0)\" or \"(PDH-TSV 4.0)\", found “%s”"),
                                   (unsigned long long)line->number, start));
          return;
        }
      self->separator = separator;
      read_header (self, text, length, line->number);
      return;
    }

  /* typeperf's messages ("Exiting, please wait...") are no quoted records */
  if (text[0] != '"')
    {
      if (self->n_skipped++ == 0)
        self->first_skipped_line = line->number;
      return;
    }

  read_row (self, text, length, line->number);
}

/* ------------------------------------------------------------------------ */
/* The parser                                                                */

/* The options, before the first line */
static gboolean
start (PdhParser  *self,
       GError    **error)
{
  const char *encoding = ps_parser_get_option (&self->parent, PS_FORMAT_OPTION_ENCODING);
  const char *offset = ps_parser_get_option (&self->parent, PS_FORMAT_OPTION_UTC_OFFSET);

  self->started = TRUE;
  if (encoding != NULL)
    {
      self->iconv = g_iconv_open ("UTF-8", encoding);
      if (self->iconv == (GIConv) -1)
        {
          self->failed = TRUE;
          g_set_error (error, PS_ERROR, PS_ERROR_PARSE, _("The encoding “%s” is not known"), encoding);
          return FALSE;
        }
      self->encoding = g_strdup (encoding);
    }
  if (offset != NULL)
    self->has_utc_offset = g_ascii_string_to_signed (offset, 10, -24 * 60, 24 * 60, &self->utc_offset_minutes, NULL);
  return TRUE;
}

static gboolean
pdh_feed (PsParser      *parser,
          const guint8  *data,
          gsize          length,
          GError       **error)
{
  PdhParser *self = (PdhParser *) parser;

  if (self->failed && self->error == NULL)
    return TRUE;  /* the fatal error has been returned already */
  if (!self->started && !start (self, error))
    return FALSE;

  ps_line_reader_feed (self->reader, data, length);

  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  return TRUE;
}

static const char *
encoding_name (PdhParser *self)
{
  switch (ps_line_reader_get_encoding (self->reader))
    {
    case PS_TEXT_ENCODING_UTF16LE: return "UTF-16LE";
    case PS_TEXT_ENCODING_UTF16BE: return "UTF-16BE";
    case PS_TEXT_ENCODING_UTF8_BOM:
    case PS_TEXT_ENCODING_8BIT:
    default:
      break;
    }
  switch (self->code_page)
    {
    case CODE_PAGE_1252:   return "Windows-1252";
    case CODE_PAGE_ICONV:  return self->encoding;
    case CODE_PAGE_1251:
    case CODE_PAGE_UTF8:
    default:               return "UTF-8";
    }
}

static gboolean
pdh_finish (PsParser  *parser,
            GError   **error)
{
  PdhParser *self = (PdhParser *) parser;

  if (self->failed && self->error == NULL)
    return TRUE;
  if (!self->started && !start (self, error))
    return FALSE;

  ps_line_reader_finish (self->reader);
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }

  if (!self->have_header)
    {
      self->failed = TRUE;
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Line 1: the input is empty; not a PDH log (expected a header beginning with "
                     "\"(PDH-CSV 4.0)\" or \"(PDH-TSV 4.0)\")"));
      return FALSE;
    }

  if (self->n_skipped > 0)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-PDH-SKIPPED", self->first_skipped_line,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "%llu line that is no quoted record (such as typeperf’s "
                                        "messages) was skipped, the first on this line",
                                        "%llu lines that are no quoted records (such as typeperf’s "
                                        "messages) were skipped, the first on this line",
                                        (gulong)MIN (self->n_skipped, G_MAXULONG)),
                           (unsigned long long)self->n_skipped);

  ps_event_store_set_metadata (self->store, self->session, "encoding", encoding_name (self));
  ps_event_store_set_session_end (self->store, self->session, self->last_line);
  ps_store_builder_flush (parser->builder);

  return TRUE;
}

static void
pdh_free (PsParser *parser)
{
  PdhParser *self = (PdhParser *) parser;

  ps_line_reader_free (self->reader);
  g_clear_error (&self->error);
  if (self->iconv != (GIConv) -1)
    g_iconv_close (self->iconv);
  g_free (self->encoding);
  g_string_free (self->decoded, TRUE);
  g_string_free (self->field, TRUE);
  g_string_free (self->scratch, TRUE);
  clear_row_bad (self);
  g_array_unref (self->row_bad);
  g_free (self->row_numbers);
  g_free (self->row_status);
  g_array_unref (self->columns);
  ps_id_table_clear (&self->track_index);
  g_free (self);
}

static const PsParserClass pdh_parser_class = {
  pdh_feed,
  pdh_finish,
  pdh_free,
};

static PsParser *
pdh_parser_new (PsStoreBuilder *builder)
{
  PdhParser *self = g_new0 (PdhParser, 1);

  self->parent.klass = &pdh_parser_class;
  self->parent.builder = builder;
  self->store = ps_store_builder_get_store (builder);
  ps_id_table_init (&self->track_index, 64);
  self->reader = ps_line_reader_new (handle_line, self);
  ps_line_reader_set_detect_encoding (self->reader, TRUE);
  ps_line_reader_set_max_line_length (self->reader, MAX_LINE_LENGTH);
  self->decoded = g_string_new (NULL);
  self->field = g_string_new (NULL);
  self->scratch = g_string_new (NULL);
  self->row_bad = g_array_new (FALSE, FALSE, sizeof (BadValue));
  self->columns = g_array_new (FALSE, FALSE, sizeof (Column));
  self->session = PS_NONE;
  self->iconv = (GIConv) -1;

  return &self->parent;
}

/* Sniffing: the first line that is not blank begins with the signature,
 * in 8-bit text, after a UTF-8 BOM, or in UTF-16 */
static guint
pdh_sniff (const guint8 *data,
           gsize         length,
           const char   *file_name)
{
  g_autofree char *narrow = NULL;
  gsize n;
  const char *text = ps_parse_sniff_text (data, length, &narrow, &n);
  gsize p = 0;
  char separator;

  while (p < n && (text[p] == '\r' || text[p] == '\n' || ps_parse_is_blank (text[p])))
    p++;
  if (p < n && text[p] == '"')
    p++;

  return has_signature (text + p, n - p, &separator) ? 100 : 0;
}

static const char * const pdh_extensions[] = { "csv", "tsv", "CSV", "TSV", NULL };
static const char * const pdh_mime_types[] = { "text/csv", "text/tab-separated-values", NULL };

const PsFormat ps_format_pdh_csv = {
  "pdh-csv",
  N_("Windows performance counter log (CSV/TSV)"),
  N_("Counter logs of Performance Monitor, logman, relog and typeperf in PDH’s comma- or "
     "tab-separated text format, with already computed values"),
  pdh_extensions,
  pdh_mime_types,
  pdh_sniff,
  pdh_parser_new,
};
