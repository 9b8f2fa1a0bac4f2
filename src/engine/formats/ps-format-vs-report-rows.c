/* ps-format-vs-report-rows.c — what a record of a Visual Studio CSV
 * report says: its fields as text and as numbers, the header, the rows
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §6.3–§6.5 (the columns and the rows of the
 * three reports) and §7 (the reader rules: numbers rule 4, units rule 5,
 * Min ≤ Avg ≤ Max rule 6, the call tree rule 7).
 *
 * Apart from the reader (ps-format-vs-report-csv.c), which decodes the
 * bytes and cuts them into records, because this is the meaning of a
 * record once it is whole: the tokenizer hands each one over, the header
 * first, and never looks into a field.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-vs-report-csv-private.h"
#include "ps-util.h"

/* More digits than a report ever writes: such a field is not a number */
#define MAX_NUMBER_DIGITS 40

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

static const char * const report_kind_names[] = {
  [REPORT_FUNCTION_SUMMARY] = "function-summary",
  [REPORT_CALL_TREE] = "call-tree",
  [REPORT_CALLER_CALLEE] = "caller-callee",
};

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
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-CP1252", self->record_line,
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

  ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-BAD-NUMBER", self->record_line,
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

gboolean
vs_read_header (VsParser  *self,
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

          ps_parse_warn_at_line (&self->parent, PS_NONE, PS_SEVERITY_WARNING, "W-DUPLICATE-COLUMN", self->record_line,
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
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-SAMPLING", self->record_line,
                           _("This is a report of sampling data: its values are numbers of samples, "
                             "read into the elapsed inclusive and exclusive columns"));
  if (unknown->len > 0)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-UNKNOWN-COLUMNS", self->record_line,
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
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-MIN-AVG-MAX", row->line,
                                 _("“%s” (%s) is greater than “%s” (%s)"),
                                 column_name_of_value (v, STAT_MIN, FALSE), min,
                                 column_name_of_value (v, STAT_AVG, FALSE), avg);
        }
      if (!isnan (row->avg[v]) && !isnan (row->max[v]) && row->avg[v] > row->max[v])
        {
          g_clear_pointer (&avg, g_free);
          avg = ps_util_format_double (row->avg[v]);
          max = ps_util_format_double (row->max[v]);
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-MIN-AVG-MAX", row->line,
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
void
vs_close_group (VsParser *self)
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
            ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-CALLERS-SUM", self->root_line,
                                   _("The Caller rows of “%s” add up to %s inclusive samples; its Root row gives %s"),
                                   name, sum, total);
          else
            ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-CALLERS-SUM", self->root_line,
                                   _("The Caller rows of “%s” add up to an elapsed inclusive time of %s; "
                                     "its Root row gives %s"),
                                   name, sum, total);
        }
    }

  if (self->callers_calls_known && root->has_calls && self->callers_calls != root->calls)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-CALLERS-SUM", self->root_line,
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

    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-BAD-TYPE", self->record_line,
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

      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-ROOT-MISMATCH", self->record_line,
                             _("The row names the root function “%s” but follows the Root row of “%s” (line %llu); "
                               "it is kept in that group"),
                             shown, root_name, (unsigned long long) self->root_line);
    }

  if (has_pid && self->root_has_pid && pid != self->root_pid)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-ROOT-MISMATCH", self->record_line,
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

      vs_close_group (self);

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
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-DUPLICATE-ROOT", row->line,
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
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-NO-ROOT", row->line,
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
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-LEVEL-JUMP", row->line,
                           _("Level %llu below a row of level %llu (line %llu); expected at most %llu. "
                             "The row is attached to that row"),
                           (unsigned long long) level, (unsigned long long) top->level,
                           (unsigned long long) ps_event_store_get_report_row (self->store, top->row)->line,
                           (unsigned long long) top->level + 1);
  else if (top == NULL && level > 1)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-LEVEL-JUMP", row->line,
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

          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-CHILD-EXCEEDS", row->line,
                                 _("“%s” has a greater “%s” (%s) than its parent on line %llu (%s)"),
                                 name, column, child_text, (unsigned long long) parent->line, parent_text);
        }
    }

  g_array_append_val (self->open_rows, open);
}

void
vs_read_row (VsParser *self,
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
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-TRUNCATED", self->record_line,
                           _("The last line ends after %u of %u fields; the missing values are left empty"),
                           n, self->n_columns);
  else if (n != self->n_columns)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-FIELD-COUNT", self->record_line,
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
