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
 * (RFC 4180 quoting, records may span lines), and the rows. Only a file
 * that is not a report at all is a fatal error; everything else is a
 * warning with its line number.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format.h"
#include "ps-parse-kit.h"
#include "ps-util.h"

/* A record (one row with all its fields) longer than this is not a report
 * row: most likely a quote that never closes. */
#define MAX_RECORD_LENGTH (16 * 1024 * 1024)

/* More digits than a report ever writes: such a field is not a number */
#define MAX_NUMBER_DIGITS 40

/* ------------------------------------------------------------------------ */
/* Columns (§6.3, §6.4, §6.5), matched by their exact name                   */

typedef enum
{
  COLUMN_UNKNOWN,
  COLUMN_UNUSED,              /* documented, but nothing in a report row holds it */
  COLUMN_FUNCTION_NAME,
  COLUMN_FUNCTION_ADDRESS,
  COLUMN_MODULE_NAME,
  COLUMN_NUMBER_OF_CALLS,
  COLUMN_PROCESS_NAME,
  COLUMN_PROCESS_ID,
  COLUMN_LEVEL,
  COLUMN_TYPE,
  COLUMN_ROOT_FUNCTION_NAME,
  COLUMN_VALUE,
  N_COLUMN_ROLES,
} ColumnRole;

typedef enum
{
  STAT_TOTAL,
  STAT_PERCENT,
  STAT_AVG,
  STAT_MIN,
  STAT_MAX,
  N_STATS,
} ValueStat;

typedef struct
{
  const char *name;
  guint8      value;      /* PS_REPORT_ELAPSED_INCLUSIVE … */
  guint8      stat;       /* ValueStat */
  gboolean    sampling;   /* a sampling report's column */
} ValueColumn;

#define TIME_COLUMNS(X, slot) \
  { X " Time",        slot, STAT_TOTAL,   FALSE }, \
  { X " Time %",      slot, STAT_PERCENT, FALSE }, \
  { "Avg " X " Time", slot, STAT_AVG,     FALSE }, \
  { "Min " X " Time", slot, STAT_MIN,     FALSE }, \
  { "Max " X " Time", slot, STAT_MAX,     FALSE }

static const ValueColumn value_columns[] = {
  TIME_COLUMNS ("Elapsed Inclusive", PS_REPORT_ELAPSED_INCLUSIVE),
  TIME_COLUMNS ("Elapsed Exclusive", PS_REPORT_ELAPSED_EXCLUSIVE),
  TIME_COLUMNS ("Application Inclusive", PS_REPORT_APPLICATION_INCLUSIVE),
  TIME_COLUMNS ("Application Exclusive", PS_REPORT_APPLICATION_EXCLUSIVE),
  /* Sampling reports (§6.5): samples in the elapsed slots */
  { "Inclusive Samples",   PS_REPORT_ELAPSED_INCLUSIVE, STAT_TOTAL,   TRUE },
  { "Exclusive Samples",   PS_REPORT_ELAPSED_EXCLUSIVE, STAT_TOTAL,   TRUE },
  { "Inclusive Samples %", PS_REPORT_ELAPSED_INCLUSIVE, STAT_PERCENT, TRUE },
  { "Exclusive Samples %", PS_REPORT_ELAPSED_EXCLUSIVE, STAT_PERCENT, TRUE },
};

#undef TIME_COLUMNS

static const struct
{
  const char *name;
  ColumnRole  role;
} named_columns[] = {
  { "Function Name",                 COLUMN_FUNCTION_NAME },
  { "Function Address",              COLUMN_FUNCTION_ADDRESS },
  { "Module Name",                   COLUMN_MODULE_NAME },
  { "Number of Calls",               COLUMN_NUMBER_OF_CALLS },
  { "Process Name",                  COLUMN_PROCESS_NAME },
  { "Process ID",                    COLUMN_PROCESS_ID },
  { "Level",                         COLUMN_LEVEL },
  { "Type",                          COLUMN_TYPE },
  { "Root Function Name",            COLUMN_ROOT_FUNCTION_NAME },
  { "Function Line Number",          COLUMN_UNUSED },
  { "Source File",                   COLUMN_UNUSED },
  { "Module Path",                   COLUMN_UNUSED },
  { "Time Exclusive Probe Overhead", COLUMN_UNUSED },
  { "Time Inclusive Probe Overhead", COLUMN_UNUSED },
};

/* How the sniffer recognises a time or sample column: each of these is part
 * of the name of every column of its kind. */
static const char * const sniff_value_names[] = {
  "Elapsed Inclusive Time", "Elapsed Exclusive Time",
  "Application Inclusive Time", "Application Exclusive Time",
  "Inclusive Samples", "Exclusive Samples",
};

typedef struct
{
  ColumnRole         role;
  const ValueColumn *value;   /* COLUMN_VALUE only */
} Column;

typedef enum
{
  REPORT_FUNCTION_SUMMARY,
  REPORT_CALL_TREE,
  REPORT_CALLER_CALLEE,
} ReportKind;

static const char * const report_kind_names[] = {
  [REPORT_FUNCTION_SUMMARY] = "function-summary",
  [REPORT_CALL_TREE] = "call-tree",
  [REPORT_CALLER_CALLEE] = "caller-callee",
};

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

typedef enum
{
  ENCODING_DETECTING,   /* waiting for enough bytes to see a BOM */
  ENCODING_8BIT,        /* UTF-8, with Windows-1252 fallback per field */
  ENCODING_UTF16LE,
  ENCODING_UTF16BE,
} Encoding;

typedef enum
{
  CSV_FIELD_START,
  CSV_UNQUOTED,
  CSV_QUOTED,
  CSV_QUOTE_IN_QUOTED,  /* a '"' inside quotes: closing, or the first of "" */
} CsvState;

typedef struct
{
  gsize    start;       /* in the record buffer */
  gsize    length;
  gboolean quoted;
} Field;

/* A row of a call tree that may still get children */
typedef struct
{
  guint64 level;
  guint32 row;
} OpenRow;

typedef struct
{
  PsParser      parent;
  PsEventStore *store;

  /* Encoding */
  Encoding      encoding;
  guint8        head[3];          /* the first bytes, while detecting */
  guint         n_head;
  guint         bom_length;
  PsUtf16Decoder utf16;
  GString      *decoded;          /* UTF-16 chunks as UTF-8 */

  /* Tokenizer */
  CsvState      state;
  gboolean      after_cr;         /* the previous byte was a CR */
  guint64       line;             /* the line of the next byte */
  guint64       record_line;      /* where the current record began */
  guint64       quote_line;       /* where the current quoted field began */
  GString      *record;           /* the fields' text, one after another */
  GArray       *fields;           /* Field */
  gsize         field_start;
  gboolean      field_quoted;
  gboolean      failed;           /* a fatal error was returned */

  /* Header */
  gboolean      have_header;
  Column       *columns;
  guint         n_columns;
  int           role_column[N_COLUMN_ROLES];  /* first column of a role, or -1 */
  ReportKind    kind;
  gboolean      sampling;
  guint32       session;

  /* Rows */
  guint         n_row_fields;     /* fields of the current row, trailing empty one dropped */
  gboolean      any_fractional_time;
  gboolean      reported_cp1252;
  guint64       last_line;
  GHashTable   *process_tracks;   /* "pid\nname" → track + 1 */
  GString      *key;

  /* Caller/callee: the current group (§6.5) */
  guint32       root_row;         /* PS_NONE before the first Root row */
  guint64       root_line;
  guint32       root_function;    /* string ids of the Root row */
  guint32       root_module;
  gboolean      root_has_pid;
  gint64        root_pid;
  guint         n_callers;
  gboolean      callers_time_known;
  double        callers_time;
  gboolean      callers_calls_known;
  guint64       callers_calls;
  guint         callers_decimals; /* most decimals among the summed values */
  GHashTable   *root_keys;        /* "name\naddress\npid" → first line */

  /* Call tree: the open path (§7 rule 7) */
  GArray       *open_rows;        /* OpenRow */
} VsParser;

/* ------------------------------------------------------------------------ */
/* Text                                                                      */

/* A field's text as UTF-8: in the record buffer when it is valid UTF-8,
 * else converted from Windows-1252 (§7 rule 1) into `owned`. */
typedef struct
{
  const char *text;
  gsize       length;
  char       *owned;
} FieldText;

static void
field_text_clear (FieldText *text)
{
  g_clear_pointer (&text->owned, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FieldText, field_text_clear)

static const Field *
row_field (VsParser *self,
           int       column)
{
  if (column < 0 || (guint)column >= self->n_row_fields)
    return NULL;
  return &g_array_index (self->fields, Field, column);
}

/* FALSE, with an empty text, when the row has no such field */
static gboolean
get_text (VsParser  *self,
          int        column,
          FieldText *out)
{
  const Field *field = row_field (self, column);
  const char *text;
  GString *decoded;

  out->owned = NULL;
  if (field == NULL)
    {
      out->text = "";
      out->length = 0;
      return FALSE;
    }

  text = self->record->str + field->start;
  if (g_utf8_validate_len (text, field->length, NULL))
    {
      out->text = text;
      out->length = field->length;
      return TRUE;
    }

  decoded = g_string_sized_new (field->length + field->length / 2);
  ps_util_append_cp1252 (decoded, text, field->length);
  out->length = decoded->len;
  out->owned = g_string_free (decoded, FALSE);
  out->text = out->owned;

  if (!self->reported_cp1252)
    {
      self->reported_cp1252 = TRUE;
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-CP1252", self->record_line,
                             PS_NO_POSITION, self->session,
                             _("Text that is not UTF-8 was read as Windows-1252 (first on this line)"));
    }

  return TRUE;
}

/* A NUL-terminated copy for messages */
static char *
field_display (VsParser *self,
               int       column)
{
  g_auto(FieldText) text = { 0 };

  get_text (self, column, &text);
  return g_strndup (text.text, text.length);
}

static const char *
column_name_of_value (guint value,
                      guint stat,
                      gboolean sampling)
{
  for (guint i = 0; i < G_N_ELEMENTS (value_columns); i++)
    if (value_columns[i].value == value && value_columns[i].stat == stat
        && value_columns[i].sampling == sampling)
      return value_columns[i].name;
  return "";
}

/* ------------------------------------------------------------------------ */
/* Numbers (§7 rule 4)                                                       */

typedef enum
{
  NUMBER_EMPTY,
  NUMBER_OK,
  NUMBER_BAD,
} NumberStatus;

typedef struct
{
  gboolean negative;
  gboolean hex;
  guint64  hex_value;
  char     digits[MAX_NUMBER_DIGITS];  /* integer digits, then fraction digits */
  guint    n_int;
  guint    n_frac;
} Number;

/* The length of a grouping space at p ("\xC2\xA0" NBSP, U+202F, U+2009,
 * a Windows-1252 NBSP byte, space, apostrophe), or 0 */
static gsize
grouping_space_length (const char *p,
                       const char *end)
{
  guchar c = (guchar)p[0];

  if (c == ' ' || c == '\'' || c == 0xA0)
    return 1;
  if (c == 0xC2 && end - p >= 2 && (guchar)p[1] == 0xA0)
    return 2;
  if (c == 0xE2 && end - p >= 3 && (guchar)p[1] == 0x80
      && ((guchar)p[2] == 0xAF || (guchar)p[2] == 0x89))
    return 3;
  return 0;
}

static NumberStatus
scan_number (const char *text,
             gsize       length,
             gboolean    quoted,
             Number     *out)
{
  const char *p = text;
  const char *end;
  guint n_digits = 0;
  guint n_dots = 0, n_commas = 0;
  char last_separator = 0;
  guint last_separator_at = 0;
  guint decimal_at;
  gboolean after_digit = FALSE;

  memset (out, 0, sizeof *out);
  ps_parse_trim (&p, &length);
  end = p + length;
  if (p == end)
    return NUMBER_EMPTY;

  if (*p == '-' || *p == '+')
    out->negative = (*p++ == '-');
  /* Percentages may carry their sign */
  if (end > p && end[-1] == '%')
    {
      end--;
      while (end > p && ps_parse_is_blank (end[-1]))
        end--;
    }
  if (p == end)
    return NUMBER_BAD;

  if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      if (end - p - 2 > 16)
        return NUMBER_BAD;
      out->hex = TRUE;
      for (p += 2; p < end; p++)
        {
          int digit = g_ascii_xdigit_value (*p);

          if (digit < 0)
            return NUMBER_BAD;
          out->hex_value = out->hex_value << 4 | (guint64)digit;
        }
      return NUMBER_OK;
    }

  /* Digits with separators between them: "2,893,824", "18.160,51", "1 234" */
  while (p < end)
    {
      gsize space = 0;

      if (*p >= '0' && *p <= '9')
        {
          if (n_digits == MAX_NUMBER_DIGITS)
            return NUMBER_BAD;
          out->digits[n_digits++] = *p++;
          after_digit = TRUE;
          continue;
        }

      if (!after_digit)
        return NUMBER_BAD;
      after_digit = FALSE;

      if (*p == '.' || *p == ',')
        {
          if (*p == '.')
            n_dots++;
          else
            n_commas++;
          last_separator = *p++;
          last_separator_at = n_digits;
        }
      else if ((space = grouping_space_length (p, end)) > 0)
        p += space;
      else
        return NUMBER_BAD;
    }

  if (!after_digit)
    return NUMBER_BAD;

  /* Which separator is the decimal one: the last, when both kinds appear;
   * a single one alone is decimal, except a quoted comma followed by
   * exactly three digits ("1,234"); one kind repeated is grouping. */
  decimal_at = n_digits;
  if (n_dots > 0 && n_commas > 0)
    {
      if ((last_separator == '.' ? n_dots : n_commas) != 1)
        return NUMBER_BAD;
      decimal_at = last_separator_at;
    }
  else if (n_dots == 1)
    decimal_at = last_separator_at;
  else if (n_commas == 1 && !(quoted && last_separator_at > 0 && n_digits - last_separator_at == 3))
    decimal_at = last_separator_at;

  out->n_int = decimal_at;
  out->n_frac = n_digits - decimal_at;
  return NUMBER_OK;
}

static double
number_to_double (const Number *number)
{
  char buffer[MAX_NUMBER_DIGITS + 4];
  gsize n = 0;
  double value;

  if (number->hex)
    value = (double)number->hex_value;
  else
    {
      if (number->n_int == 0)
        buffer[n++] = '0';
      memcpy (buffer + n, number->digits, number->n_int);
      n += number->n_int;
      if (number->n_frac > 0)
        {
          buffer[n++] = '.';
          memcpy (buffer + n, number->digits + number->n_int, number->n_frac);
          n += number->n_frac;
        }
      buffer[n] = '\0';
      value = g_ascii_strtod (buffer, NULL);
    }

  return number->negative ? -value : value;
}

/* A whole number ≥ 0 ("1.00" is one); FALSE if it is not one or too large */
static gboolean
number_to_uint64 (const Number *number,
                  guint64      *value)
{
  guint64 result = 0;

  if (number->hex)
    {
      *value = number->hex_value;
      return !number->negative || number->hex_value == 0;
    }

  for (guint i = 0; i < number->n_frac; i++)
    if (number->digits[number->n_int + i] != '0')
      return FALSE;

  for (guint i = 0; i < number->n_int; i++)
    {
      guint digit = number->digits[i] - '0';

      if (result > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      result = result * 10 + digit;
    }

  if (number->negative && result != 0)
    return FALSE;

  *value = result;
  return TRUE;
}

static void
warn_bad_number (VsParser   *self,
                 int         column,
                 const char *column_name,
                 const char *expected)
{
  g_autofree char *shown = field_display (self, column);

  ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-BAD-NUMBER", self->record_line,
                         PS_NO_POSITION, self->session,
                         _("“%s” in column “%s” is not a number; expected %s. The value is left empty"),
                         shown, column_name, expected);
}

/* A field as a number; NUMBER_BAD has been warned about */
static NumberStatus
read_number (VsParser   *self,
             int         column,
             const char *column_name,
             const char *expected,
             Number     *number)
{
  const Field *field = row_field (self, column);
  NumberStatus status;

  if (field == NULL)
    return NUMBER_EMPTY;

  status = scan_number (self->record->str + field->start, field->length, field->quoted, number);
  if (status == NUMBER_BAD)
    warn_bad_number (self, column, column_name, expected);
  return status;
}

/* A whole number ≥ 0 of a named column: FALSE if absent, empty or bad */
static gboolean
read_count (VsParser   *self,
            ColumnRole  role,
            const char *column_name,
            guint64    *value)
{
  int column = self->role_column[role];
  Number number;

  if (read_number (self, column, column_name, _("a whole number such as “503” or “2,893,824”"), &number) != NUMBER_OK)
    return FALSE;
  if (!number_to_uint64 (&number, value))
    {
      warn_bad_number (self, column, column_name, _("a whole number such as “503” or “2,893,824”"));
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The header                                                                */

static gboolean
field_is_empty_unquoted (const Field *field)
{
  return field->length == 0 && !field->quoted;
}

static void
add_column_name (GString    *list,
                 const char *name,
                 gsize       length)
{
  if (list->len > 0)
    g_string_append (list, ", ");
  g_string_append (list, "“");
  g_string_append_len (list, name, length);
  g_string_append (list, "”");
}

static gboolean
read_header (VsParser  *self,
             GError   **error)
{
  guint n = self->fields->len;
  gboolean seen_value[PS_N_REPORT_VALUES][N_STATS][2] = { { { FALSE } } };
  gboolean has_time = FALSE, has_samples = FALSE;
  g_autoptr(GString) unknown = g_string_new (NULL);

  /* A header that ends with a comma (§6.2) names one empty column more */
  if (n > 1 && field_is_empty_unquoted (&g_array_index (self->fields, Field, n - 1)))
    n--;

  self->n_columns = n;
  self->n_row_fields = n;
  self->columns = g_new0 (Column, n);
  for (guint r = 0; r < N_COLUMN_ROLES; r++)
    self->role_column[r] = -1;

  for (guint i = 0; i < n; i++)
    {
      g_auto(FieldText) text = { 0 };
      const char *name;
      gsize length;
      Column *column = &self->columns[i];
      gboolean duplicate = FALSE;

      get_text (self, (int)i, &text);
      name = text.text;
      length = text.length;
      ps_parse_trim (&name, &length);

      column->role = COLUMN_UNKNOWN;
      for (guint k = 0; k < G_N_ELEMENTS (named_columns) && column->role == COLUMN_UNKNOWN; k++)
        if (strlen (named_columns[k].name) == length && memcmp (named_columns[k].name, name, length) == 0)
          column->role = named_columns[k].role;
      for (guint k = 0; k < G_N_ELEMENTS (value_columns) && column->role == COLUMN_UNKNOWN; k++)
        if (strlen (value_columns[k].name) == length && memcmp (value_columns[k].name, name, length) == 0)
          {
            column->role = COLUMN_VALUE;
            column->value = &value_columns[k];
          }

      if (column->role == COLUMN_UNKNOWN)
        {
          if (length > 0)
            add_column_name (unknown, name, length);
          continue;
        }

      /* The first of two columns with the same name counts */
      if (column->role == COLUMN_VALUE)
        {
          gboolean *seen = &seen_value[column->value->value][column->value->stat][column->value->sampling];

          duplicate = *seen;
          *seen = TRUE;
        }
      else if (column->role != COLUMN_UNUSED)
        {
          duplicate = self->role_column[column->role] >= 0;
          if (!duplicate)
            self->role_column[column->role] = (int)i;
        }

      if (duplicate)
        {
          g_autofree char *shown = g_strndup (name, length);

          ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-DUPLICATE-COLUMN",
                                 self->record_line, PS_NO_POSITION, PS_NONE,
                                 _("The column “%s” appears more than once; only the first is read"), shown);
          column->role = COLUMN_UNUSED;
          column->value = NULL;
        }

      if (column->role == COLUMN_VALUE)
        {
          if (column->value->sampling)
            has_samples = TRUE;
          else
            has_time = TRUE;
        }
    }

  if (self->role_column[COLUMN_FUNCTION_NAME] < 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Line %llu is not the header of a Visual Studio profiler report: "
                     "expected column names with “Function Name” among them"),
                   (unsigned long long) self->record_line);
      return FALSE;
    }
  if (!has_time && !has_samples)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The header on line %llu has no time or sample column: expected one such as "
                     "“Elapsed Inclusive Time”, “Avg Elapsed Inclusive Time” or “Inclusive Samples”"),
                   (unsigned long long) self->record_line);
      return FALSE;
    }

  /* An instrumentation report is read by its times; sample columns next to
   * them would fill the same slots, so they are left out. */
  self->sampling = !has_time;
  for (guint i = 0; i < n; i++)
    {
      Column *column = &self->columns[i];

      if (column->role == COLUMN_VALUE && column->value->sampling != self->sampling)
        column->role = COLUMN_UNUSED;
    }

  if (self->role_column[COLUMN_LEVEL] >= 0)
    self->kind = REPORT_CALL_TREE;
  else if (self->role_column[COLUMN_TYPE] >= 0)
    self->kind = REPORT_CALLER_CALLEE;
  else
    self->kind = REPORT_FUNCTION_SUMMARY;

  self->have_header = TRUE;
  self->session = ps_event_store_add_session (self->store, self->record_line, FALSE);
  self->last_line = self->record_line;
  ps_event_store_set_metadata (self->store, self->session, "report_kind", report_kind_names[self->kind]);
  ps_event_store_set_metadata (self->store, self->session, "collection",
                               self->sampling ? "sampling" : "instrumentation");
  /* §7 rule 5: the unit is not in the file. Whole numbers are ticks until
   * a value with decimals says milliseconds (read_values ()). */
  ps_event_store_set_metadata (self->store, self->session, "time_unit", self->sampling ? "samples" : "ticks");

  if (self->sampling)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-SAMPLING", self->record_line,
                           PS_NO_POSITION, self->session,
                           _("This is a report of sampling data: its values are numbers of samples, "
                             "read into the elapsed inclusive and exclusive columns"));
  if (unknown->len > 0)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-UNKNOWN-COLUMNS", self->record_line,
                           PS_NO_POSITION, self->session,
                           _("Columns that are not read: %s"), unknown->str);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Rows                                                                      */

static guint32
intern_field (VsParser *self,
              int       column)
{
  g_auto(FieldText) text = { 0 };

  if (!get_text (self, column, &text))
    return 0;
  return ps_event_store_intern (self->store, text.text, text.length);
}

/* The process track of the row, PS_NONE when the report names none */
static guint32
process_track (VsParser *self,
               gboolean  has_pid,
               gint64    pid)
{
  g_auto(FieldText) name = { 0 };
  gpointer found;
  PsTrack track = { 0 };
  char number[32];

  if (self->role_column[COLUMN_PROCESS_NAME] < 0 && self->role_column[COLUMN_PROCESS_ID] < 0)
    return PS_NONE;

  get_text (self, self->role_column[COLUMN_PROCESS_NAME], &name);

  g_string_truncate (self->key, 0);
  if (has_pid)
    g_string_append_printf (self->key, "%" PRId64, pid);
  g_string_append_c (self->key, '\n');
  g_string_append_len (self->key, name.text, name.length);

  found = g_hash_table_lookup (self->process_tracks, self->key->str);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  if (name.length > 0)
    track.name = ps_event_store_intern (self->store, name.text, name.length);
  else if (has_pid)
    {
      g_snprintf (number, sizeof number, "%" PRId64, pid);
      track.name = ps_event_store_intern (self->store, number, -1);
    }
  track.parent = PS_NONE;
  track.session = self->session;
  track.number = has_pid ? pid : -1;
  track.ordinal = g_hash_table_size (self->process_tracks) + 1;
  track.line = self->record_line;
  track.kind = PS_TRACK_PROCESS;

  {
    guint32 index = ps_event_store_add_track (self->store, &track);

    g_hash_table_insert (self->process_tracks, g_strdup (self->key->str), GUINT_TO_POINTER (index + 1));
    return index;
  }
}

/* The values of the row's time or sample columns; notes the decimals seen */
static void
read_values (VsParser    *self,
             PsReportRow *row,
             guint        decimals[PS_N_REPORT_VALUES])
{
  for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
    {
      row->total[v] = NAN;
      row->min[v] = NAN;
      row->avg[v] = NAN;
      row->max[v] = NAN;
      row->percent[v] = NAN;
      decimals[v] = 0;
    }

  for (guint i = 0; i < self->n_row_fields && i < self->n_columns; i++)
    {
      const ValueColumn *info = self->columns[i].value;
      Number number;
      double value;

      if (self->columns[i].role != COLUMN_VALUE)
        continue;
      if (read_number (self, (int)i, info->name, _("a number such as “444315”, “401.92” or “18,160.51”"),
                       &number) != NUMBER_OK)
        continue;

      value = number_to_double (&number);
      switch (info->stat)
        {
        case STAT_TOTAL:   row->total[info->value] = value; break;
        case STAT_PERCENT: row->percent[info->value] = value; break;
        case STAT_AVG:     row->avg[info->value] = value; break;
        case STAT_MIN:     row->min[info->value] = value; break;
        case STAT_MAX:     row->max[info->value] = value; break;
        default:           g_assert_not_reached ();
        }

      if (info->stat != STAT_PERCENT && number.n_frac > 0 && !self->any_fractional_time && !self->sampling)
        {
          self->any_fractional_time = TRUE;
          ps_event_store_set_metadata (self->store, self->session, "time_unit", "ms");
        }
      if (info->stat == STAT_TOTAL)
        decimals[info->value] = number.n_frac;
    }
}

/* §7 rule 6: Min ≤ Avg ≤ Max is not enforced, only reported. A Min of 0 is
 * the documented quirk of Caller/Callee rows and of the application Min of
 * Root rows (§6.5), never a violation. */
static void
check_min_avg_max (VsParser          *self,
                   const PsReportRow *row)
{
  for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
    {
      g_autofree char *min = NULL, *avg = NULL, *max = NULL;

      if (!isnan (row->min[v]) && !isnan (row->avg[v]) && row->min[v] != 0 && row->min[v] > row->avg[v])
        {
          min = ps_util_format_double (row->min[v]);
          avg = ps_util_format_double (row->avg[v]);
          ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-MIN-AVG-MAX", row->line,
                                 PS_NO_POSITION, self->session,
                                 _("“%s” (%s) is greater than “%s” (%s)"),
                                 column_name_of_value (v, STAT_MIN, FALSE), min,
                                 column_name_of_value (v, STAT_AVG, FALSE), avg);
        }
      if (!isnan (row->avg[v]) && !isnan (row->max[v]) && row->avg[v] > row->max[v])
        {
          g_clear_pointer (&avg, g_free);
          avg = ps_util_format_double (row->avg[v]);
          max = ps_util_format_double (row->max[v]);
          ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-MIN-AVG-MAX", row->line,
                                 PS_NO_POSITION, self->session,
                                 _("“%s” (%s) is greater than “%s” (%s)"),
                                 column_name_of_value (v, STAT_AVG, FALSE), avg,
                                 column_name_of_value (v, STAT_MAX, FALSE), max);
        }
    }
}

/* Caller/callee: the end of a group. The Caller rows of a Root must add up
 * to it in elapsed inclusive time and calls (§6.5, §7 rule 6). Recursion
 * needs no exception in instrumentation reports: the Caller row of the
 * function itself has its calls but an inclusive time of 0 (Fib(int) in
 * l4_cc.csv). Sampling reports give that row the samples the outer callers
 * already hold, so it is left out of the sum there (__write in
 * pigLatin.csv). */
static void
close_group (VsParser *self)
{
  const PsReportRow *root;
  const char *name;

  if (self->root_row == PS_NONE || self->n_callers == 0)
    return;

  root = ps_event_store_get_report_row (self->store, self->root_row);
  name = ps_event_store_get_string (self->store, self->root_function);

  if (self->callers_time_known && !isnan (root->total[PS_REPORT_ELAPSED_INCLUSIVE]))
    {
      /* Each value is rounded to its decimals: allow that much per row */
      double tolerance = self->callers_decimals == 0
                         ? 0.0
                         : 0.5 * pow (10.0, -(double)self->callers_decimals) * (self->n_callers + 1);
      double given = root->total[PS_REPORT_ELAPSED_INCLUSIVE];

      tolerance += 1e-12 * fabs (given);  /* sums of doubles beyond 2^53 */
      if (fabs (self->callers_time - given) > tolerance)
        {
          g_autofree char *sum = ps_util_format_double (self->callers_time);
          g_autofree char *total = ps_util_format_double (given);

          if (self->sampling)
            ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-CALLERS-SUM", self->root_line,
                                   PS_NO_POSITION, self->session,
                                   _("The Caller rows of “%s” add up to %s inclusive samples; its Root row gives %s"),
                                   name, sum, total);
          else
            ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-CALLERS-SUM", self->root_line,
                                   PS_NO_POSITION, self->session,
                                   _("The Caller rows of “%s” add up to an elapsed inclusive time of %s; "
                                     "its Root row gives %s"),
                                   name, sum, total);
        }
    }

  if (self->callers_calls_known && root->has_calls && self->callers_calls != root->calls)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-CALLERS-SUM", self->root_line,
                           PS_NO_POSITION, self->session,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "The Caller rows of “%s” add up to %llu call; its Root row gives %llu",
                                        "The Caller rows of “%s” add up to %llu calls; its Root row gives %llu",
                                        self->callers_calls),
                           name, (unsigned long long) self->callers_calls, (unsigned long long) root->calls);
}

typedef enum
{
  TYPE_ROOT,
  TYPE_CALLER,
  TYPE_CALLEE,
  TYPE_INVALID,
} RowType;

static RowType
read_type (VsParser *self)
{
  static const char * const words[] = { "Root", "Caller", "Callee" };
  static const char * const numbers[] = { "0", "1", "2" };
  g_auto(FieldText) text = { 0 };
  const char *type;
  gsize length;

  get_text (self, self->role_column[COLUMN_TYPE], &text);
  type = text.text;
  length = text.length;
  ps_parse_trim (&type, &length);

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if ((length == strlen (words[i]) && g_ascii_strncasecmp (type, words[i], length) == 0)
        || (length == 1 && type[0] == numbers[i][0]))
      return (RowType)i;

  {
    g_autofree char *shown = g_strndup (type, length);

    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-BAD-TYPE", self->record_line,
                           PS_NO_POSITION, self->session,
                           _("Type “%s” is not one of “Root”, “Caller”, “Callee” (or 0, 1, 2); the row is skipped"),
                           shown);
  }
  return TYPE_INVALID;
}

/* A Caller/Callee row's Root Function Name and Process ID must be those of
 * the group it is in; a mismatch is reported and the row stays there. */
static void
check_group_member (VsParser *self,
                    gboolean  has_pid,
                    gint64    pid)
{
  const char *root_name = ps_event_store_get_string (self->store, self->root_function);
  int column = self->role_column[COLUMN_ROOT_FUNCTION_NAME];
  g_auto(FieldText) text = { 0 };

  if (column >= 0 && get_text (self, column, &text)
      && (text.length != strlen (root_name) || memcmp (text.text, root_name, text.length) != 0))
    {
      g_autofree char *shown = g_strndup (text.text, text.length);

      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-ROOT-MISMATCH", self->record_line,
                             PS_NO_POSITION, self->session,
                             _("The row names the root function “%s” but follows the Root row of “%s” (line %llu); "
                               "it is kept in that group"),
                             shown, root_name, (unsigned long long) self->root_line);
    }

  if (has_pid && self->root_has_pid && pid != self->root_pid)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-ROOT-MISMATCH", self->record_line,
                           PS_NO_POSITION, self->session,
                           _("The row is of process %lld but its Root row (line %llu) is of process %lld; "
                             "it is kept in that group"),
                           (long long) pid, (unsigned long long) self->root_line, (long long) self->root_pid);
}

static void
add_caller_callee_row (VsParser    *self,
                       PsReportRow *row,
                       guint        decimals,
                       gboolean     has_pid,
                       gint64       pid,
                       guint64      address)
{
  RowType type = read_type (self);
  const PsFrame *frame;

  if (type == TYPE_INVALID)
    return;

  if (type == TYPE_ROOT)
    {
      gpointer first_line;

      close_group (self);

      row->kind = PS_REPORT_ROW_FUNCTION;
      self->root_row = ps_store_builder_add_report_row (self->parent.builder, row);
      frame = ps_event_store_get_frame (self->store, row->frame);
      self->root_line = row->line;
      self->root_function = frame->function;
      self->root_module = frame->module;
      self->root_has_pid = has_pid;
      self->root_pid = pid;
      self->n_callers = 0;
      self->callers_time_known = TRUE;
      self->callers_time = 0;
      self->callers_calls_known = TRUE;
      self->callers_calls = 0;
      self->callers_decimals = decimals;

      /* Groups are keyed by (Root Function Name, the Root's address,
       * Process ID) (§6.5 [OURS]): the same key twice is reported. */
      g_string_truncate (self->key, 0);
      g_string_append_printf (self->key, "%u\n%" PRIu64 "\n", frame->function, address);
      if (has_pid)
        g_string_append_printf (self->key, "%" PRId64, pid);
      if (g_hash_table_lookup_extended (self->root_keys, self->key->str, NULL, &first_line))
        ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-DUPLICATE-ROOT", row->line,
                               PS_NO_POSITION, self->session,
                               _("A second Root row for “%s” at address 0x%08llx in the same process "
                                 "(the first is on line %llu); the groups are kept apart"),
                               ps_event_store_get_string (self->store, frame->function),
                               (unsigned long long) address,
                               (unsigned long long) GPOINTER_TO_SIZE (first_line));
      else
        g_hash_table_insert (self->root_keys, g_strdup (self->key->str), GSIZE_TO_POINTER ((gsize)row->line));
      return;
    }

  if (self->root_row == PS_NONE)
    {
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-NO-ROOT", row->line,
                             PS_NO_POSITION, self->session,
                             _("A %s row before any Root row belongs to no function; it is skipped"),
                             type == TYPE_CALLER ? "Caller" : "Callee");
      return;
    }

  check_group_member (self, has_pid, pid);

  row->kind = type == TYPE_CALLER ? PS_REPORT_ROW_CALLER : PS_REPORT_ROW_CALLEE;
  row->parent = self->root_row;
  ps_store_builder_add_report_row (self->parent.builder, row);

  if (type == TYPE_CALLER)
    {
      gboolean recursive;

      frame = ps_event_store_get_frame (self->store, row->frame);
      recursive = frame->function == self->root_function && frame->module == self->root_module;
      self->n_callers++;
      if (isnan (row->total[PS_REPORT_ELAPSED_INCLUSIVE]))
        self->callers_time_known = FALSE;
      else if (!(recursive && self->sampling))
        self->callers_time += row->total[PS_REPORT_ELAPSED_INCLUSIVE];
      if (row->has_calls)
        self->callers_calls += row->calls;
      else
        self->callers_calls_known = FALSE;
      self->callers_decimals = MAX (self->callers_decimals, decimals);
    }
}

/* The value a call-tree child is compared with its parent by: the elapsed
 * inclusive total if both have it, else its percentage. */
static gboolean
comparable_inclusive (const PsReportRow *child,
                      const PsReportRow *parent,
                      double            *child_value,
                      double            *parent_value,
                      gboolean          *is_percent)
{
  if (!isnan (child->total[PS_REPORT_ELAPSED_INCLUSIVE]) && !isnan (parent->total[PS_REPORT_ELAPSED_INCLUSIVE]))
    {
      *child_value = child->total[PS_REPORT_ELAPSED_INCLUSIVE];
      *parent_value = parent->total[PS_REPORT_ELAPSED_INCLUSIVE];
      *is_percent = FALSE;
      return TRUE;
    }
  if (!isnan (child->percent[PS_REPORT_ELAPSED_INCLUSIVE]) && !isnan (parent->percent[PS_REPORT_ELAPSED_INCLUSIVE]))
    {
      *child_value = child->percent[PS_REPORT_ELAPSED_INCLUSIVE];
      *parent_value = parent->percent[PS_REPORT_ELAPSED_INCLUSIVE];
      *is_percent = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* Call tree (§6.3, §7 rule 7): a row's parent is the last row one level up.
 * The open path is an explicit stack, so any depth is fine. */
static void
add_call_tree_row (VsParser    *self,
                   PsReportRow *row)
{
  guint64 level;
  OpenRow open;
  const OpenRow *top;
  double child_value, parent_value;
  gboolean is_percent;
  NumberStatus status;
  Number number;

  /* Without a usable level the row can only go below the deepest open row */
  status = read_number (self, self->role_column[COLUMN_LEVEL], "Level", _("a level such as “0” or “3”"), &number);
  if (status == NUMBER_OK && !number_to_uint64 (&number, &level))
    {
      warn_bad_number (self, self->role_column[COLUMN_LEVEL], "Level", _("a level such as “0” or “3”"));
      status = NUMBER_BAD;
    }
  else if (status == NUMBER_EMPTY)
    warn_bad_number (self, self->role_column[COLUMN_LEVEL], "Level", _("a level such as “0” or “3”"));
  if (status != NUMBER_OK)
    level = self->open_rows->len > 0
            ? g_array_index (self->open_rows, OpenRow, self->open_rows->len - 1).level + 1
            : 0;

  while (self->open_rows->len > 0
         && g_array_index (self->open_rows, OpenRow, self->open_rows->len - 1).level >= level)
    g_array_set_size (self->open_rows, self->open_rows->len - 1);

  top = self->open_rows->len > 0 ? &g_array_index (self->open_rows, OpenRow, self->open_rows->len - 1) : NULL;
  if (top != NULL && level > top->level + 1)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-LEVEL-JUMP", row->line,
                           PS_NO_POSITION, self->session,
                           _("Level %llu below a row of level %llu (line %llu); expected at most %llu. "
                             "The row is attached to that row"),
                           (unsigned long long) level, (unsigned long long) top->level,
                           (unsigned long long) ps_event_store_get_report_row (self->store, top->row)->line,
                           (unsigned long long) top->level + 1);
  else if (top == NULL && level > 1)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-LEVEL-JUMP", row->line,
                           PS_NO_POSITION, self->session,
                           _("The tree starts at level %llu; expected 0 or 1. The row is kept at the top"),
                           (unsigned long long) level);

  row->kind = PS_REPORT_ROW_TREE;
  row->level = (guint16)MIN (level, G_MAXUINT16);
  row->parent = top != NULL ? top->row : PS_NONE;

  open.level = level;
  open.row = ps_store_builder_add_report_row (self->parent.builder, row);

  /* §7 rule 6: a child above its parent is reported, not corrected */
  if (top != NULL)
    {
      const PsReportRow *parent = ps_event_store_get_report_row (self->store, top->row);

      if (comparable_inclusive (row, parent, &child_value, &parent_value, &is_percent)
          && child_value > parent_value)
        {
          g_autofree char *name = field_display (self, self->role_column[COLUMN_FUNCTION_NAME]);
          g_autofree char *child_text = ps_util_format_double (child_value);
          g_autofree char *parent_text = ps_util_format_double (parent_value);
          const char *column = column_name_of_value (PS_REPORT_ELAPSED_INCLUSIVE,
                                                     is_percent ? STAT_PERCENT : STAT_TOTAL, self->sampling);

          ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-CHILD-EXCEEDS", row->line,
                                 PS_NO_POSITION, self->session,
                                 _("“%s” has a greater “%s” (%s) than its parent on line %llu (%s)"),
                                 name, column, child_text, (unsigned long long) parent->line, parent_text);
        }
    }

  g_array_append_val (self->open_rows, open);
}

static void
read_row (VsParser *self,
          gboolean  terminated)
{
  guint n = self->fields->len;
  PsReportRow row = { 0 };
  guint decimals[PS_N_REPORT_VALUES];
  guint64 address = 0;
  guint64 value;
  gboolean has_pid = FALSE;
  gint64 pid = 0;

  /* Every data line ends with a comma (§6.2): drop that empty field, also
   * when the header had none */
  if (n == self->n_columns + 1 && field_is_empty_unquoted (&g_array_index (self->fields, Field, n - 1)))
    n--;

  if (n < self->n_columns && !terminated)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-TRUNCATED", self->record_line,
                           PS_NO_POSITION, self->session,
                           _("The last line ends after %u of %u fields; the missing values are left empty"),
                           n, self->n_columns);
  else if (n != self->n_columns)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-FIELD-COUNT", self->record_line,
                           PS_NO_POSITION, self->session,
                           n < self->n_columns
                             ? _("The row has %u fields; expected %u as the header has. The missing values are left empty")
                             : _("The row has %u fields; expected %u as the header has. The extra fields are ignored"),
                           n, self->n_columns);
  self->n_row_fields = MIN (n, self->n_columns);

  row.line = self->record_line;
  row.parent = PS_NONE;
  row.level = 0;

  if (self->role_column[COLUMN_FUNCTION_ADDRESS] >= 0)
    {
      Number number;

      if (read_number (self, self->role_column[COLUMN_FUNCTION_ADDRESS], "Function Address",
                       _("an address such as “0x012F1456”"), &number) == NUMBER_OK)
        {
          if (number_to_uint64 (&number, &value))
            address = value;
          else
            warn_bad_number (self, self->role_column[COLUMN_FUNCTION_ADDRESS], "Function Address",
                             _("an address such as “0x012F1456”"));
        }
    }

  row.frame = ps_event_store_intern_frame (self->store,
                                           intern_field (self, self->role_column[COLUMN_FUNCTION_NAME]),
                                           intern_field (self, self->role_column[COLUMN_MODULE_NAME]),
                                           address);

  if (read_count (self, COLUMN_PROCESS_ID, "Process ID", &value))
    {
      if (value <= G_MAXINT64)
        {
          has_pid = TRUE;
          pid = (gint64)value;
        }
    }
  row.track = process_track (self, has_pid, pid);

  read_values (self, &row, decimals);
  if (read_count (self, COLUMN_NUMBER_OF_CALLS, "Number of Calls", &value))
    {
      row.calls = value;
      row.has_calls = TRUE;
    }

  check_min_avg_max (self, &row);

  switch (self->kind)
    {
    case REPORT_CALLER_CALLEE:
      add_caller_callee_row (self, &row, decimals[PS_REPORT_ELAPSED_INCLUSIVE], has_pid, pid, address);
      break;
    case REPORT_CALL_TREE:
      add_call_tree_row (self, &row);
      break;
    case REPORT_FUNCTION_SUMMARY:
    default:
      row.kind = PS_REPORT_ROW_FUNCTION;
      ps_store_builder_add_report_row (self->parent.builder, &row);
      break;
    }

  self->last_line = self->record_line;
}

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
          ok = read_header (self, error);
          if (!ok)
            self->failed = TRUE;
        }
      else
        read_row (self, terminated);
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
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-UTF16", 0, PS_NO_POSITION, PS_NONE,
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
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-UNCLOSED-QUOTE", self->quote_line,
                           PS_NO_POSITION, self->have_header ? self->session : PS_NONE,
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
    close_group (self);

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
  const char *text = (const char *) data;
  gsize n = length;
  const char *line_end;

  /* UTF-16, with a BOM or with a NUL next to the first ASCII character:
   * keep the low bytes */
  if (length >= 2 && ((data[0] == 0xFF && data[1] == 0xFE) || (data[0] == 0xFE && data[1] == 0xFF)
                      || (data[0] != 0 && data[1] == 0) || (data[0] == 0 && data[1] != 0)))
    {
      gsize low = (data[0] == 0xFF || data[1] == 0) ? 0 : 1;
      gsize start = (data[0] == 0xFF || data[0] == 0xFE) ? 2 : 0;

      narrow = g_malloc (length / 2 + 1);
      n = 0;
      for (gsize i = start; i + 1 < length; i += 2)
        narrow[n++] = data[i + 1 - low] == 0 ? (char)data[i + low] : '?';
      text = narrow;
    }
  else if (length >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
    {
      text += 3;
      n -= 3;
    }

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
