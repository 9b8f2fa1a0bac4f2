/* test-vs-report-csv.c — the Visual Studio report reader against its specification
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §5.4 (the illustrative call tree), §6 (the
 * real caller/callee files and their observed properties), §7 (reader
 * rules) and §8 (test cases 2–11 and 13, named in each test).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "parse-fixture.h"
#include "ps-error.h"
#include "ps-format.h"
#include "ps-loader.h"

/* Loading */

/* Feeds data in pieces of `piece` bytes, or in two pieces split at `split`
 * when piece is 0. */
static PsEventStore *
parse_pieces (const char *data,
              gsize       length,
              gsize       piece,
              gsize       split)
{
  return parse_fixture_pieces (&ps_format_vs_report_csv, (const guint8 *)data, length, piece, split, NULL);
}

static PsEventStore *
parse_bytes (const char *data,
             gsize       length)
{
  return parse_pieces (data, length, MAX (length, 1), 0);
}

static PsEventStore *
parse (const char *text)
{
  return parse_bytes (text, strlen (text));
}

/* The fatal error of a text that is no report; fails if there is none */
static GError *
parse_failing (const char *text)
{
  return parse_fixture_fatal_error (&ps_format_vs_report_csv, text);
}

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "vs-report-csv", name, NULL);
}

/* Loads a real file as the application does: sniffed, in small chunks */
static PsEventStore *
load_file (const char *name)
{
  g_autofree char *path = data_path (name);
  PsEventStore *store = parse_fixture_load_file (path, 4096);

  g_assert_cmpstr (ps_event_store_get_format (store), ==, "vs-report-csv");
  g_assert_null (ps_event_store_get_error (store));
  return store;
}

/* Looking at the result */

static const PsReportRow *
row_at (PsEventStore *store,
        guint32       index)
{
  return ps_event_store_get_report_row (store, index);
}

static const char *
row_function (PsEventStore *store,
              guint32       index)
{
  return ps_event_store_get_string (store, ps_event_store_get_frame (store, row_at (store, index)->frame)->function);
}

static const char *
row_module (PsEventStore *store,
            guint32       index)
{
  return ps_event_store_get_string (store, ps_event_store_get_frame (store, row_at (store, index)->frame)->module);
}

static guint64
row_address (PsEventStore *store,
             guint32       index)
{
  return ps_event_store_get_frame (store, row_at (store, index)->frame)->address;
}

/* The row read from that line of the file, or fails */
static guint32
row_on_line (PsEventStore *store,
             guint64       line)
{
  for (guint i = 0; i < ps_event_store_get_n_report_rows (store); i++)
    if (row_at (store, i)->line == line)
      return i;
  g_error ("no report row from line %" G_GUINT64_FORMAT, line);
  return PS_NONE;
}

static const char *
metadata (PsEventStore *store,
          const char   *key)
{
  return ps_event_store_get_metadata (store, 0, key);
}

/* "CODE@line CODE@line …" */
static char *
warnings (PsEventStore *store)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning w;

      ps_event_store_get_warning (store, i, &w);
      g_string_append_printf (out, "%s%s@%" G_GUINT64_FORMAT, out->len > 0 ? " " : "", w.code, w.line);
    }
  return g_string_free (out, FALSE);
}

#define assert_warnings(store, expected) \
  G_STMT_START { \
    g_autofree char *_w = warnings (store); \
    g_assert_cmpstr (_w, ==, (expected)); \
  } G_STMT_END

static gboolean
find_warning (PsEventStore *store,
              const char   *code,
              PsWarning    *out)
{
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      ps_event_store_get_warning (store, i, out);
      if (g_str_equal (out->code, code))
        return TRUE;
    }
  return FALSE;
}

static void
append_value (GString *out,
              double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    g_string_append (out, " -");
  else
    g_string_append_printf (out, " %s", g_ascii_formatd (buffer, sizeof buffer, "%.17g", value));
}

/* Everything a parse produced, as text: rows, tracks, metadata and
 * (unless left out) warnings */
static char *
dump (PsEventStore *store,
      gboolean      with_warnings)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GArray) entries = ps_event_store_list_metadata (store, 0);

  for (guint i = 0; i < ps_event_store_get_n_report_rows (store); i++)
    {
      const PsReportRow *row = row_at (store, i);

      g_string_append_printf (out, "%" G_GUINT64_FORMAT " k%u l%u p%d t%d [%s|%s|%" G_GINT64_MODIFIER "x] c%"
                              G_GUINT64_FORMAT "/%d",
                              row->line, row->kind, row->level, (int)row->parent, (int)row->track,
                              row_function (store, i), row_module (store, i), row_address (store, i),
                              row->calls, row->has_calls);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        {
          append_value (out, row->total[v]);
          append_value (out, row->min[v]);
          append_value (out, row->avg[v]);
          append_value (out, row->max[v]);
          append_value (out, row->percent[v]);
        }
      g_string_append_c (out, '\n');
    }

  for (guint i = 0; i < ps_event_store_get_n_tracks (store); i++)
    {
      const PsTrack *track = ps_event_store_get_track (store, i);

      g_string_append_printf (out, "track %s %" G_GINT64_FORMAT " kind %u line %" G_GUINT64_FORMAT "\n",
                              ps_event_store_get_string (store, track->name), track->number, track->kind,
                              track->line);
    }

  for (guint i = 0; i < entries->len; i++)
    {
      const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

      g_string_append_printf (out, "%s=%s\n", entry->key, entry->value);
    }

  if (ps_event_store_get_n_sessions (store) > 0)
    g_string_append_printf (out, "session %" G_GUINT64_FORMAT "–%" G_GUINT64_FORMAT "\n",
                            ps_event_store_get_session (store, 0)->first_line,
                            ps_event_store_get_session (store, 0)->last_line);

  for (guint i = 0; with_warnings && i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning w;

      ps_event_store_get_warning (store, i, &w);
      g_string_append_printf (out, "%s@%" G_GUINT64_FORMAT " %d %s\n", w.code, w.line, w.severity, w.message);
    }

  return g_string_free (out, FALSE);
}

/* An independent reader of the real files, to compare with: they have
 * no line ends inside quotes, so a line is a record. */
static GPtrArray *
read_records (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GStrvBuilder) fields = g_strv_builder_new ();
      g_autoptr(GString) field = g_string_new (NULL);
      const char *p = lines[i];
      gsize length = strlen (p);

      if (length > 0 && p[length - 1] == '\r')
        length--;
      if (length == 0)
        continue;

      for (gsize k = 0; k <= length; k++)
        {
          if (k == length || p[k] == ',')
            {
              g_strv_builder_add (fields, field->str);
              g_string_truncate (field, 0);
            }
          else if (p[k] == '"')
            {
              for (k++; k < length && !(p[k] == '"' && (k + 1 >= length || p[k + 1] != '"')); k++)
                {
                  g_string_append_c (field, p[k]);
                  if (p[k] == '"')
                    k++;
                }
            }
          else
            g_string_append_c (field, p[k]);
        }
      g_ptr_array_add (records, g_strv_builder_end (fields));
    }

  return records;
}

static int
column_index (GStrv        header,
              const char  *name)
{
  for (int i = 0; header[i] != NULL; i++)
    if (g_str_equal (header[i], name))
      return i;
  return -1;
}

static const char * const value_names[PS_N_REPORT_VALUES] = {
  "Elapsed Inclusive", "Elapsed Exclusive", "Application Inclusive", "Application Exclusive",
};

/* The file's field as a number, compared with what the store holds */
static void
assert_field_value (GStrv       header,
                    GStrv       fields,
                    const char *column,
                    double      stored)
{
  int index = column_index (header, column);

  g_assert_cmpint (index, >=, 0);
  g_assert_cmpfloat (stored, ==, g_ascii_strtod (fields[index], NULL));
}

/* Real caller/callee files (§6.5) */

static const char * const real_cc_files[] = {
  "l4_cc.csv", "ld5_cc.csv", "lr_cc.csv", "lr2_cc.csv", "lr3_cc.csv",
};

/* Every row of every file equals the file's fields; the groups are built
 * as the Type column says, and the callers add up as §6.5 observed. */
static void
test_real_caller_callee (void)
{
  guint groups_with_callers = 0;

  for (guint f = 0; f < G_N_ELEMENTS (real_cc_files); f++)
    {
      g_autoptr(PsEventStore) store = load_file (real_cc_files[f]);
      g_autoptr(GPtrArray) records = read_records (real_cc_files[f]);
      GStrv header = g_ptr_array_index (records, 0);
      guint32 root = PS_NONE;
      guint n_rows = ps_event_store_get_n_report_rows (store);

      g_test_message ("%s", real_cc_files[f]);
      assert_warnings (store, "");
      g_assert_cmpstr (metadata (store, "report_kind"), ==, "caller-callee");
      g_assert_cmpstr (metadata (store, "collection"), ==, "instrumentation");
      g_assert_cmpstr (metadata (store, "time_unit"), ==, "ticks");
      g_assert_cmpuint (g_strv_length (header), ==, 34);  /* 33 names and the trailing empty one */
      g_assert_cmpuint (n_rows, ==, records->len - 1);

      /* One process in each file */
      g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 1);
      g_assert_cmpuint (ps_event_store_get_track (store, 0)->kind, ==, PS_TRACK_PROCESS);

      for (guint i = 0; i < n_rows; i++)
        {
          GStrv fields = g_ptr_array_index (records, i + 1);
          const PsReportRow *row = row_at (store, i);
          const char *type = fields[column_index (header, "Type")];
          const PsTrack *track = ps_event_store_get_track (store, row->track);

          g_assert_cmpuint (g_strv_length (fields), ==, 34);
          g_assert_cmpuint (row->line, ==, i + 2);
          if (g_str_equal (type, "Root"))
            {
              g_assert_cmpuint (row->kind, ==, PS_REPORT_ROW_FUNCTION);
              g_assert_cmpuint (row->parent, ==, PS_NONE);
              root = i;
            }
          else
            {
              g_assert_cmpuint (row->kind, ==, g_str_equal (type, "Caller") ? PS_REPORT_ROW_CALLER
                                                                             : PS_REPORT_ROW_CALLEE);
              g_assert_cmpuint (row->parent, ==, root);
              g_assert_cmpstr (fields[column_index (header, "Root Function Name")], ==, row_function (store, root));
            }

          g_assert_cmpstr (row_function (store, i), ==, fields[column_index (header, "Function Name")]);
          g_assert_cmpstr (row_module (store, i), ==, fields[column_index (header, "Module Name")]);
          g_assert_cmpuint (row_address (store, i), ==,
                            g_ascii_strtoull (fields[column_index (header, "Function Address")], NULL, 16));
          g_assert_true (row->has_calls);
          g_assert_cmpuint (row->calls, ==, g_ascii_strtoull (fields[column_index (header, "Number of Calls")], NULL, 10));
          g_assert_cmpstr (ps_event_store_get_string (store, track->name), ==,
                           fields[column_index (header, "Process Name")]);
          g_assert_cmpint (track->number, ==, g_ascii_strtoll (fields[column_index (header, "Process ID")], NULL, 10));

          for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
            {
              g_autofree char *total = g_strdup_printf ("%s Time", value_names[v]);
              g_autofree char *percent = g_strdup_printf ("%s Time %%", value_names[v]);
              g_autofree char *min = g_strdup_printf ("Min %s Time", value_names[v]);
              g_autofree char *avg = g_strdup_printf ("Avg %s Time", value_names[v]);
              g_autofree char *max = g_strdup_printf ("Max %s Time", value_names[v]);

              assert_field_value (header, fields, total, row->total[v]);
              assert_field_value (header, fields, percent, row->percent[v]);
              assert_field_value (header, fields, min, row->min[v]);
              assert_field_value (header, fields, avg, row->avg[v]);
              assert_field_value (header, fields, max, row->max[v]);
            }
        }

      /* The callers of each Root sum to it, in time and calls, from the store */
      for (guint r = 0; r < n_rows; r++)
        {
          const PsReportRow *root_row = row_at (store, r);
          double time = 0;
          guint64 calls = 0;
          guint n_callers = 0;

          if (root_row->kind != PS_REPORT_ROW_FUNCTION)
            continue;
          for (guint i = r + 1; i < n_rows && row_at (store, i)->parent == r; i++)
            if (row_at (store, i)->kind == PS_REPORT_ROW_CALLER)
              {
                time += row_at (store, i)->total[PS_REPORT_ELAPSED_INCLUSIVE];
                calls += row_at (store, i)->calls;
                n_callers++;
              }
          if (n_callers == 0)
            continue;
          groups_with_callers++;
          g_assert_cmpfloat (time, ==, root_row->total[PS_REPORT_ELAPSED_INCLUSIVE]);
          g_assert_cmpuint (calls, ==, root_row->calls);
        }
    }

  /* "in all 212 groups of the S11 files that have Caller rows" */
  g_assert_cmpuint (groups_with_callers, ==, 212);
}

/* A handful of rows checked by hand against the file */
static void
test_real_rows (void)
{
  g_autoptr(PsEventStore) l4 = load_file ("l4_cc.csv");
  g_autoptr(PsEventStore) lr = load_file ("lr_cc.csv");
  const PsTrack *track = ps_event_store_get_track (l4, 0);
  guint32 r;

  g_assert_cmpstr (ps_event_store_get_string (l4, track->name), ==, "perfPlay.exe");
  g_assert_cmpint (track->number, ==, 3320);

  /* §6.5: ___wgetmainargs 444315 = 41.72 % */
  r = row_on_line (l4, 16);
  g_assert_cmpstr (row_function (l4, r), ==, "___wgetmainargs");
  g_assert_cmpfloat (row_at (l4, r)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 444315);
  g_assert_cmpfloat (row_at (l4, r)->percent[PS_REPORT_ELAPSED_INCLUSIVE], ==, 41.72);

  /* §6.5: __RTC_CheckEsp 444 = 6 + 6 + 432 and 503 calls = 1 + 2 + 500;
   * its Min is 0 with Avg 0 and Max 39 (integer averages) */
  r = row_on_line (l4, 39);
  g_assert_cmpstr (row_function (l4, r), ==, "__RTC_CheckEsp");
  g_assert_cmpfloat (row_at (l4, r)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 444);
  g_assert_cmpuint (row_at (l4, r)->calls, ==, 503);
  g_assert_cmpfloat (row_at (l4, r)->min[PS_REPORT_ELAPSED_INCLUSIVE], ==, 0);
  g_assert_cmpfloat (row_at (l4, r)->avg[PS_REPORT_ELAPSED_INCLUSIVE], ==, 0);
  g_assert_cmpfloat (row_at (l4, r)->max[PS_REPORT_ELAPSED_INCLUSIVE], ==, 39);
  g_assert_cmpstr (row_function (l4, r + 1), ==, "_wmain");
  g_assert_cmpstr (row_function (l4, r + 2), ==, "DoStuffInLib(void)");
  g_assert_cmpstr (row_function (l4, r + 3), ==, "Fib(int)");
  g_assert_cmpfloat (row_at (l4, r + 1)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 6);
  g_assert_cmpfloat (row_at (l4, r + 2)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 6);
  g_assert_cmpfloat (row_at (l4, r + 3)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 432);
  g_assert_cmpuint (row_at (l4, r + 1)->calls, ==, 1);
  g_assert_cmpuint (row_at (l4, r + 2)->calls, ==, 2);
  g_assert_cmpuint (row_at (l4, r + 3)->calls, ==, 500);
  for (guint i = 1; i <= 3; i++)
    {
      g_assert_cmpuint (row_at (l4, r + i)->kind, ==, PS_REPORT_ROW_CALLER);
      g_assert_cmpuint (row_at (l4, r + i)->parent, ==, r);
    }

  /* Recursion: Fib(int) is its own caller with 400 calls and 0 ticks */
  r = row_on_line (l4, 100);
  g_assert_cmpstr (row_function (l4, r), ==, "Fib(int)");
  g_assert_cmpuint (row_at (l4, r)->calls, ==, 500);
  g_assert_cmpstr (row_function (l4, r + 2), ==, "Fib(int)");
  g_assert_cmpuint (row_at (l4, r + 2)->kind, ==, PS_REPORT_ROW_CALLER);
  g_assert_cmpfloat (row_at (l4, r + 2)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 0);
  g_assert_cmpuint (row_at (l4, r + 2)->calls, ==, 400);
  g_assert_cmpuint (row_at (l4, r + 4)->kind, ==, PS_REPORT_ROW_CALLEE);

  /* The Root quirk: Min Application Inclusive 0 with one call */
  r = row_on_line (l4, 2);
  g_assert_cmpstr (row_function (l4, r), ==, "@_RTC_CheckStackVars@8");
  g_assert_cmpuint (row_address (l4, r), ==, 0x01141453);
  g_assert_cmpfloat (row_at (l4, r)->min[PS_REPORT_APPLICATION_INCLUSIVE], ==, 0);
  g_assert_cmpfloat (row_at (l4, r)->avg[PS_REPORT_APPLICATION_INCLUSIVE], ==, 102);

  /* Large tick counts stay exact */
  r = row_on_line (lr, 67);
  g_assert_cmpstr (row_function (lr, r), ==, "_wmain");
  g_assert_cmpfloat (row_at (lr, r)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 28210612832.0);
}

/* §8 #11: a sampling report is read as samples */
static void
test_real_sampling (void)
{
  g_autoptr(PsEventStore) store = load_file ("pigLatin.csv");
  g_autoptr(GPtrArray) records = read_records ("pigLatin.csv");
  GStrv header = g_ptr_array_index (records, 0);
  guint n_rows = ps_event_store_get_n_report_rows (store);
  const PsReportRow *row;
  guint32 r;

  g_assert_cmpstr (metadata (store, "collection"), ==, "sampling");
  g_assert_cmpstr (metadata (store, "time_unit"), ==, "samples");
  g_assert_cmpstr (metadata (store, "report_kind"), ==, "caller-callee");
  /* The recursive __write group adds up once its self-caller is left out */
  assert_warnings (store, "I-SAMPLING@1");
  g_assert_cmpuint (n_rows, ==, 383);
  g_assert_cmpuint (n_rows, ==, records->len - 1);

  for (guint i = 0; i < n_rows; i++)
    {
      GStrv fields = g_ptr_array_index (records, i + 1);

      row = row_at (store, i);
      g_assert_cmpstr (row_function (store, i), ==, fields[column_index (header, "Function Name")]);
      assert_field_value (header, fields, "Inclusive Samples", row->total[PS_REPORT_ELAPSED_INCLUSIVE]);
      assert_field_value (header, fields, "Exclusive Samples", row->total[PS_REPORT_ELAPSED_EXCLUSIVE]);
      assert_field_value (header, fields, "Inclusive Samples %", row->percent[PS_REPORT_ELAPSED_INCLUSIVE]);
      assert_field_value (header, fields, "Exclusive Samples %", row->percent[PS_REPORT_ELAPSED_EXCLUSIVE]);
      g_assert_false (row->has_calls);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        {
          g_assert_true (isnan (row->min[v]) && isnan (row->avg[v]) && isnan (row->max[v]));
          if (v >= PS_REPORT_APPLICATION_INCLUSIVE)
            g_assert_true (isnan (row->total[v]) && isnan (row->percent[v]));
        }
    }

  row = row_at (store, 0);
  g_assert_cmpstr (row_function (store, 0), ==, "@__security_check_cookie@4");
  g_assert_cmpfloat (row->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 2);
  g_assert_cmpfloat (row->total[PS_REPORT_ELAPSED_EXCLUSIVE], ==, 0);
  g_assert_cmpfloat (row->percent[PS_REPORT_ELAPSED_INCLUSIVE], ==, 1.71);

  /* Unknown frames (§6.2) */
  r = row_on_line (store, 6);
  g_assert_cmpstr (row_function (store, r), ==, "Unknown Frame(s)");
  g_assert_cmpstr (row_module (store, r), ==, "UNKNOWN");
  g_assert_cmpuint (row_address (store, r), ==, 0xBAADF00D);
  g_assert_cmpuint (row_at (store, r)->kind, ==, PS_REPORT_ROW_CALLER);
}

/* The sniffer recognises the real files, and only report headers */
static void
test_sniff (void)
{
  static const char not_report[] = "a,b,c\n1,2,3\n";
  static const char no_values[] = "Function Name,Module Name\n\"f\",\"m\"\n";
  static const char tree[] = "Level,Function Name,Avg Elapsed Inclusive Time\n1,\"main\",1.00\n";
  g_autofree char *utf16 = NULL;
  gsize utf16_length;
  g_autofree char *bom_utf16 = NULL;
  guint score;

  for (guint f = 0; f < G_N_ELEMENTS (real_cc_files); f++)
    {
      g_autofree char *path = data_path (real_cc_files[f]);
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_true (ps_format_sniff ((const guint8 *)contents, MIN (length, PS_FORMAT_SNIFF_SIZE),
                                      real_cc_files[f], &score) == &ps_format_vs_report_csv);
      g_assert_cmpuint (score, >=, 90);
      /* The other formats do not claim it */
      g_assert_cmpuint (ps_format_ce_perflog.sniff ((const guint8 *)contents, length, NULL), <, 10);
      g_assert_cmpuint (ps_format_rtl_logfile.sniff ((const guint8 *)contents, length, NULL), <, 10);
    }

  g_assert_cmpuint (ps_format_vs_report_csv.sniff ((const guint8 *)not_report, strlen (not_report), NULL), ==, 0);
  g_assert_cmpuint (ps_format_vs_report_csv.sniff ((const guint8 *)no_values, strlen (no_values), NULL), ==, 0);
  g_assert_cmpuint (ps_format_vs_report_csv.sniff ((const guint8 *)tree, strlen (tree), NULL), >=, 90);

  utf16 = g_convert (tree, -1, "UTF-16LE", "UTF-8", NULL, &utf16_length, NULL);
  g_assert_nonnull (utf16);
  bom_utf16 = g_malloc (utf16_length + 2);
  memcpy (bom_utf16, "\xFF\xFE", 2);
  memcpy (bom_utf16 + 2, utf16, utf16_length);
  g_assert_cmpuint (ps_format_vs_report_csv.sniff ((const guint8 *)bom_utf16, utf16_length + 2, NULL), >=, 90);
}

/* The illustrative call tree of §5.4 (§8 #2) */

static const char example_tree[] =
  "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,Elapsed Exclusive Time %,"
  "Avg Elapsed Inclusive Time,Avg Elapsed Exclusive Time,Module Name,\n"
  "0,\"demo.exe\",0,100.00,0.00,0.00,0.00,\"\",\n"
  "1,\"main\",1,100.00,17.86,140.00,25.00,\"demo.exe\",\n"
  "2,\"A\",1,53.57,21.43,75.00,30.00,\"demo.exe\",\n"
  "3,\"B\",2,32.14,32.14,22.50,22.50,\"demo.exe\",\n"
  "2,\"C\",1,28.57,21.43,40.00,30.00,\"demo.exe\",\n"
  "3,\"B\",1,7.14,7.14,10.00,10.00,\"demo.exe\",\n";

static void
test_example_tree (void)
{
  static const char * const names[] = { "demo.exe", "main", "A", "B", "C", "B" };
  static const guint levels[] = { 0, 1, 2, 3, 2, 3 };
  static const guint32 parents[] = { PS_NONE, 0, 1, 2, 1, 4 };
  static const guint64 calls[] = { 0, 1, 1, 2, 1, 1 };
  static const double avg_inclusive[] = { 0, 140, 75, 22.5, 40, 10 };
  static const double avg_exclusive[] = { 0, 25, 30, 22.5, 30, 10 };
  static const double inclusive_percent[] = { 100, 100, 53.57, 32.14, 28.57, 7.14 };
  static const double exclusive_percent[] = { 0, 17.86, 21.43, 32.14, 21.43, 7.14 };
  g_autoptr(PsEventStore) store = parse (example_tree);

  assert_warnings (store, "");
  g_assert_cmpstr (metadata (store, "report_kind"), ==, "call-tree");
  g_assert_cmpstr (metadata (store, "collection"), ==, "instrumentation");
  g_assert_cmpstr (metadata (store, "time_unit"), ==, "ms");
  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, 6);
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 0);

  for (guint i = 0; i < 6; i++)
    {
      const PsReportRow *row = row_at (store, i);

      g_assert_cmpuint (row->kind, ==, PS_REPORT_ROW_TREE);
      g_assert_cmpuint (row->line, ==, i + 2);
      g_assert_cmpstr (row_function (store, i), ==, names[i]);
      g_assert_cmpstr (row_module (store, i), ==, i == 0 ? "" : "demo.exe");
      g_assert_cmpuint (row->level, ==, levels[i]);
      g_assert_cmpuint (row->parent, ==, parents[i]);
      g_assert_cmpuint (row->track, ==, PS_NONE);
      g_assert_true (row->has_calls);
      g_assert_cmpuint (row->calls, ==, calls[i]);
      g_assert_cmpfloat (row->avg[PS_REPORT_ELAPSED_INCLUSIVE], ==, avg_inclusive[i]);
      g_assert_cmpfloat (row->avg[PS_REPORT_ELAPSED_EXCLUSIVE], ==, avg_exclusive[i]);
      g_assert_cmpfloat (row->percent[PS_REPORT_ELAPSED_INCLUSIVE], ==, inclusive_percent[i]);
      g_assert_cmpfloat (row->percent[PS_REPORT_ELAPSED_EXCLUSIVE], ==, exclusive_percent[i]);
      /* Columns the export does not have */
      g_assert_true (isnan (row->total[PS_REPORT_ELAPSED_INCLUSIVE]));
      g_assert_true (isnan (row->min[PS_REPORT_ELAPSED_INCLUSIVE]));
      g_assert_true (isnan (row->max[PS_REPORT_ELAPSED_INCLUSIVE]));
      for (guint v = PS_REPORT_APPLICATION_INCLUSIVE; v < PS_N_REPORT_VALUES; v++)
        g_assert_true (isnan (row->avg[v]) && isnan (row->percent[v]));
    }

  /* The same frame for both B rows; their totals are B's 55 ms (§5.4) */
  g_assert_cmpuint (row_at (store, 3)->frame, ==, row_at (store, 5)->frame);
  g_assert_cmpfloat (row_at (store, 3)->avg[0] * row_at (store, 3)->calls
                     + row_at (store, 5)->avg[0] * row_at (store, 5)->calls, ==, 55);
}

/* §8 #3: with and without the trailing comma, in the header and the rows */
static void
test_trailing_comma (void)
{
  static const char * const variants[] = {
    "Function Name,Elapsed Inclusive Time,Number of Calls,\n\"f\",10,1,\n\"g\",20,2,\n",
    "Function Name,Elapsed Inclusive Time,Number of Calls\n\"f\",10,1\n\"g\",20,2\n",
    "Function Name,Elapsed Inclusive Time,Number of Calls,\n\"f\",10,1\n\"g\",20,2\n",
    "Function Name,Elapsed Inclusive Time,Number of Calls\n\"f\",10,1,\n\"g\",20,2,\n",
    "Function Name,Elapsed Inclusive Time,Number of Calls,\n\"f\",10,1,\n\"g\",20,2",
  };
  g_autoptr(PsEventStore) first = parse (variants[0]);
  g_autofree char *expected = dump (first, TRUE);

  g_assert_cmpuint (ps_event_store_get_n_report_rows (first), ==, 2);
  g_assert_cmpstr (metadata (first, "report_kind"), ==, "function-summary");
  g_assert_cmpstr (metadata (first, "time_unit"), ==, "ticks");
  g_assert_cmpuint (row_at (first, 1)->kind, ==, PS_REPORT_ROW_FUNCTION);
  g_assert_cmpuint (row_at (first, 1)->parent, ==, PS_NONE);
  g_assert_cmpfloat (row_at (first, 1)->total[0], ==, 20);
  g_assert_cmpuint (row_at (first, 1)->calls, ==, 2);
  assert_warnings (first, "");

  for (guint i = 1; i < G_N_ELEMENTS (variants); i++)
    {
      g_autoptr(PsEventStore) store = parse (variants[i]);
      g_autofree char *text = dump (store, TRUE);

      g_assert_cmpstr (text, ==, expected);
    }
}

/* §8 #4: BOM and CRLF, LF without BOM, UTF-16 with a BOM */

static const char encoding_text[] =
  "Level,Function Name,Elapsed Inclusive Time,Module Name,\n"
  "1,\"main\",100,\"Größe.exe\",\n"
  "2,\"Straße::Länge<€>\",60,\"Größe.exe\",\n"
  "2,\"𝄞 clef\",40,\"Größe.exe\",\n";

static char *
to_utf16 (const char *text,
          const char *encoding,
          const char *bom,
          gsize      *length)
{
  g_autofree char *converted = NULL;
  gsize converted_length;
  char *out;

  converted = g_convert (text, -1, encoding, "UTF-8", NULL, &converted_length, NULL);
  g_assert_nonnull (converted);
  out = g_malloc (converted_length + 2);
  memcpy (out, bom, 2);
  memcpy (out + 2, converted, converted_length);
  *length = converted_length + 2;
  return out;
}

static void
test_encodings (void)
{
  g_autoptr(PsEventStore) plain = parse (encoding_text);
  g_autofree char *expected = dump (plain, FALSE);
  g_autofree char *crlf = NULL;
  g_autofree char *utf16le = NULL;
  g_autofree char *utf16be = NULL;
  g_auto(GStrv) lines = g_strsplit (encoding_text, "\n", -1);
  gsize length;

  assert_warnings (plain, "");
  g_assert_cmpstr (row_function (plain, 1), ==, "Straße::Länge<€>");
  g_assert_cmpstr (row_function (plain, 2), ==, "𝄞 clef");
  g_assert_cmpstr (row_module (plain, 0), ==, "Größe.exe");

  /* UTF-8 BOM and CRLF */
  {
    g_autofree char *joined = g_strjoinv ("\r\n", lines);
    g_autoptr(PsEventStore) store = NULL;
    g_autofree char *text = NULL;

    crlf = g_strconcat ("\xEF\xBB\xBF", joined, NULL);
    store = parse (crlf);
    text = dump (store, TRUE);
    g_assert_cmpstr (text, ==, expected);
  }

  /* UTF-16LE with BOM (VSPerfReport /U) and UTF-16BE */
  {
    g_autoptr(PsEventStore) store = NULL;
    g_autofree char *text = NULL;
    PsWarning w;

    utf16le = to_utf16 (crlf + 3, "UTF-16LE", "\xFF\xFE", &length);
    store = parse_bytes (utf16le, length);
    text = dump (store, FALSE);
    g_assert_cmpstr (text, ==, expected);
    assert_warnings (store, "I-UTF16@0");
    g_assert_true (find_warning (store, "I-UTF16", &w));
    g_assert_nonnull (strstr (w.message, "UTF-16LE"));
  }
  {
    g_autoptr(PsEventStore) store = NULL;
    g_autofree char *text = NULL;

    utf16be = to_utf16 (encoding_text, "UTF-16BE", "\xFE\xFF", &length);
    store = parse_bytes (utf16be, length);
    text = dump (store, FALSE);
    g_assert_cmpstr (text, ==, expected);
  }

  /* UTF-16LE without a BOM */
  {
    g_autoptr(PsEventStore) store = NULL;
    g_autofree char *no_bom = g_convert (encoding_text, -1, "UTF-16LE", "UTF-8", NULL, &length, NULL);
    g_autofree char *text = NULL;

    g_assert_cmpuint (ps_format_vs_report_csv.sniff ((const guint8 *)no_bom, length, NULL), >=, 90);
    store = parse_bytes (no_bom, length);
    text = dump (store, FALSE);
    g_assert_cmpstr (text, ==, expected);
    assert_warnings (store, "I-UTF16@0");
  }

  /* Not UTF-8: Windows-1252, per field (§7 rule 1) */
  {
    g_autoptr(PsEventStore) store = parse ("Function Name,Elapsed Inclusive Time,Module Name\n"
                                           "\"ok\",1,\"a.exe\"\n"
                                           "\"Caf\xE9 \x80\x96\",2,\"Größe.exe\"\n");

    g_assert_cmpstr (row_function (store, 1), ==, "Café €–");
    g_assert_cmpstr (row_module (store, 1), ==, "Größe.exe");
    assert_warnings (store, "I-CP1252@3");
  }
}

/* §8 #5: what names may contain; a record may span lines */
static void
test_names (void)
{
  g_autoptr(PsEventStore) store = parse ("Function Name,Elapsed Inclusive Time,Module Name\r\n"
                                         "\"Fib(int,double)\",10,\"a.exe\"\r\n"
                                         "\"say \"\"hi\"\"\",20,\"a.exe\"\r\n"
                                         "\"std::vector<int,std::allocator<int> >::push_back\",30,\"a.exe\"\r\n"
                                         "\"IEnumerator`1.get_Current()\",40,\"a.exe\"\r\n"
                                         "\"Größe::Ω\",50,\"a.exe\"\r\n"
                                         "\"two\r\nlines\",60,\"a.exe\"\r\n"
                                         "\"after\",oops,\"a.exe\"\r\n"
                                         "\"\"\"\",70,\"\"\r\n");
  PsWarning w;

  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, 8);
  g_assert_cmpstr (row_function (store, 0), ==, "Fib(int,double)");
  g_assert_cmpstr (row_function (store, 1), ==, "say \"hi\"");
  g_assert_cmpstr (row_function (store, 2), ==, "std::vector<int,std::allocator<int> >::push_back");
  g_assert_cmpstr (row_function (store, 3), ==, "IEnumerator`1.get_Current()");
  g_assert_cmpstr (row_function (store, 4), ==, "Größe::Ω");
  g_assert_cmpstr (row_function (store, 5), ==, "two\r\nlines");
  g_assert_cmpstr (row_function (store, 6), ==, "after");
  g_assert_cmpstr (row_function (store, 7), ==, "\"");
  g_assert_cmpstr (row_module (store, 7), ==, "");
  for (guint i = 0; i < 6; i++)
    g_assert_cmpfloat (row_at (store, i)->total[0], ==, 10 * (i + 1));

  /* Lines count the line end inside the quotes */
  g_assert_cmpuint (row_at (store, 5)->line, ==, 7);
  g_assert_cmpuint (row_at (store, 6)->line, ==, 9);
  g_assert_cmpuint (row_at (store, 7)->line, ==, 10);
  g_assert_true (isnan (row_at (store, 6)->total[0]));
  assert_warnings (store, "W-BAD-NUMBER@9");
  g_assert_true (find_warning (store, "W-BAD-NUMBER", &w));
  g_assert_nonnull (strstr (w.message, "“oops”"));
  g_assert_nonnull (strstr (w.message, "Elapsed Inclusive Time"));
}

/* §8 #6 and §7 rule 4: grouped, quoted, German, space-grouped numbers */
static void
test_numbers (void)
{
  g_autoptr(PsEventStore) store = parse (
    "Function Name,Number of Calls,Elapsed Inclusive Time,Avg Elapsed Inclusive Time,Function Address,"
    "Elapsed Inclusive Time %\n"
    "\"a\",\"2,893,824\",\"18,160.51\",401.92,0x012F1456,91.25\n"
    "\"b\",\"1.234.567\",\"18.160,51\",\"0,5\",0x0,\"8,75\"\n"
    "\"c\",\"1 234\",\"1 234,5\",\"1\xC2\xA0" "234\",12,100 %\n"
    "\"d\",7,\"80,000,000,000\",\"1,234\",,\n"
    "\"e\",x,\"1..2\",-3.5,0xZZ,\n"
    "\"f\",2.5,1e5,\"1,2,3\",0x1,\n");

  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, 6);

  g_assert_cmpuint (row_at (store, 0)->calls, ==, 2893824);
  g_assert_cmpfloat (row_at (store, 0)->total[0], ==, 18160.51);
  g_assert_cmpfloat (row_at (store, 0)->avg[0], ==, 401.92);
  g_assert_cmpuint (row_address (store, 0), ==, 0x012F1456);
  g_assert_cmpfloat (row_at (store, 0)->percent[0], ==, 91.25);

  g_assert_cmpuint (row_at (store, 1)->calls, ==, 1234567);
  g_assert_cmpfloat (row_at (store, 1)->total[0], ==, 18160.51);
  g_assert_cmpfloat (row_at (store, 1)->avg[0], ==, 0.5);
  g_assert_cmpuint (row_address (store, 1), ==, 0);
  g_assert_cmpfloat (row_at (store, 1)->percent[0], ==, 8.75);

  g_assert_cmpuint (row_at (store, 2)->calls, ==, 1234);
  g_assert_cmpfloat (row_at (store, 2)->total[0], ==, 1234.5);
  g_assert_cmpfloat (row_at (store, 2)->avg[0], ==, 1234);
  g_assert_cmpuint (row_address (store, 2), ==, 12);
  g_assert_cmpfloat (row_at (store, 2)->percent[0], ==, 100);

  /* Huge values (§8 #13); a quoted comma and three digits is grouping */
  g_assert_cmpuint (row_at (store, 3)->calls, ==, 7);
  g_assert_cmpfloat (row_at (store, 3)->total[0], ==, 80000000000.0);
  g_assert_cmpfloat (row_at (store, 3)->avg[0], ==, 1234);
  g_assert_true (isnan (row_at (store, 3)->percent[0]));

  /* What is not a number is reported and left empty */
  g_assert_false (row_at (store, 4)->has_calls);
  g_assert_true (isnan (row_at (store, 4)->total[0]));
  g_assert_cmpfloat (row_at (store, 4)->avg[0], ==, -3.5);
  g_assert_cmpuint (row_address (store, 4), ==, 0);
  g_assert_false (row_at (store, 5)->has_calls);
  g_assert_true (isnan (row_at (store, 5)->total[0]));
  g_assert_cmpfloat (row_at (store, 5)->avg[0], ==, 123);

  assert_warnings (store, "W-BAD-NUMBER@6 W-BAD-NUMBER@6 W-BAD-NUMBER@6 W-BAD-NUMBER@7 W-BAD-NUMBER@7");
  g_assert_cmpstr (metadata (store, "time_unit"), ==, "ms");
}

/* §7 rule 5: whole numbers are ticks, decimals milliseconds */
static void
test_units (void)
{
  g_autoptr(PsEventStore) ticks = parse ("Function Name,Elapsed Inclusive Time,Elapsed Inclusive Time %\n"
                                         "\"f\",444315,41.72\n");
  g_autoptr(PsEventStore) ms = parse ("Function Name,Elapsed Inclusive Time,Avg Elapsed Inclusive Time\n"
                                      "\"f\",444315,3\n\"g\",10,140.00\n");
  g_autoptr(PsEventStore) samples = parse ("Function Name,Inclusive Samples,Exclusive Samples\n\"f\",3,1\n");

  g_assert_cmpstr (metadata (ticks, "time_unit"), ==, "ticks");
  g_assert_cmpstr (metadata (ms, "time_unit"), ==, "ms");
  g_assert_cmpstr (metadata (samples, "time_unit"), ==, "samples");
  g_assert_cmpstr (metadata (samples, "collection"), ==, "sampling");
  g_assert_cmpfloat (row_at (samples, 0)->total[PS_REPORT_ELAPSED_INCLUSIVE], ==, 3);
  g_assert_cmpfloat (row_at (samples, 0)->total[PS_REPORT_ELAPSED_EXCLUSIVE], ==, 1);
  assert_warnings (samples, "I-SAMPLING@1");
}

/* §8 #7: level sequences */
static void
test_levels (void)
{
  static const guint32 parents[] = { PS_NONE, 0, 1, 2, 1, 4, 0 };
  g_autoptr(PsEventStore) good = parse ("Level,Function Name,Elapsed Inclusive Time\n"
                                        "0,\"p\",100\n1,\"a\",90\n2,\"b\",50\n3,\"c\",20\n"
                                        "2,\"d\",30\n3,\"e\",10\n1,\"f\",10\n");
  g_autoptr(PsEventStore) jump = parse ("Level,Function Name,Elapsed Inclusive Time\n"
                                        "1,\"main\",100\n"
                                        "3,\"deep\",50\n"
                                        "4,\"deeper\",10\n"
                                        "2,\"A\",40\n"
                                        "1,\"other\",5\n"
                                        "2,\"B\",3\n");
  g_autoptr(PsEventStore) exceeds = parse ("Level,Function Name,Elapsed Inclusive Time\n"
                                           "1,\"main\",100\n2,\"big\",120\n");
  g_autoptr(PsEventStore) bad_level = parse ("Level,Function Name,Elapsed Inclusive Time\n"
                                             "1,\"main\",100\nx,\"what\",10\n1,\"next\",3\n");
  PsWarning w;

  assert_warnings (good, "");
  for (guint i = 0; i < G_N_ELEMENTS (parents); i++)
    g_assert_cmpuint (row_at (good, i)->parent, ==, parents[i]);

  /* A jump of more than one: reported, attached to the deepest open row */
  assert_warnings (jump, "W-LEVEL-JUMP@3");
  g_assert_true (find_warning (jump, "W-LEVEL-JUMP", &w));
  g_assert_cmpint (w.severity, ==, PS_SEVERITY_WARNING);
  g_assert_cmpuint (row_at (jump, 0)->parent, ==, PS_NONE);
  g_assert_cmpuint (row_at (jump, 1)->parent, ==, 0);
  g_assert_cmpuint (row_at (jump, 1)->level, ==, 3);
  g_assert_cmpuint (row_at (jump, 2)->parent, ==, 1);
  g_assert_cmpuint (row_at (jump, 3)->parent, ==, 0);
  /* Several roots at level 1 without a level-0 row */
  g_assert_cmpuint (row_at (jump, 4)->parent, ==, PS_NONE);
  g_assert_cmpuint (row_at (jump, 5)->parent, ==, 4);

  /* A child above its parent is information only (§7 rule 6) */
  assert_warnings (exceeds, "I-CHILD-EXCEEDS@3");
  g_assert_true (find_warning (exceeds, "I-CHILD-EXCEEDS", &w));
  g_assert_cmpint (w.severity, ==, PS_SEVERITY_INFO);
  g_assert_cmpuint (row_at (exceeds, 1)->parent, ==, 0);

  /* A level that is not a number: reported, the row goes below the last */
  assert_warnings (bad_level, "W-BAD-NUMBER@3");
  g_assert_cmpuint (row_at (bad_level, 1)->parent, ==, 0);
  g_assert_cmpuint (row_at (bad_level, 1)->level, ==, 2);
  g_assert_cmpuint (row_at (bad_level, 2)->parent, ==, PS_NONE);
}

/* §8 #7: 10,000 levels deep, and back to the top at once */
static void
test_deep_tree (void)
{
  const guint depth = 10000;
  g_autoptr(GString) text = g_string_new ("Level,Function Name,Number of Calls,Elapsed Inclusive Time,\n");
  g_autoptr(PsEventStore) store = NULL;
  guint32 node;
  guint steps = 0;

  for (guint level = 0; level < depth; level++)
    g_string_append_printf (text, "%u,\"f%u\",1,%u,\n", level, level, depth - level);
  g_string_append (text, "1,\"last\",1,1,\n");

  store = parse (text->str);
  assert_warnings (store, "");
  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, depth + 1);
  for (guint i = 1; i < depth; i++)
    {
      g_assert_cmpuint (row_at (store, i)->parent, ==, i - 1);
      g_assert_cmpuint (row_at (store, i)->level, ==, i);
    }
  g_assert_cmpuint (row_at (store, depth)->parent, ==, 0);

  for (node = depth - 1; node != PS_NONE; node = row_at (store, node)->parent)
    steps++;
  g_assert_cmpuint (steps, ==, depth);
}

/* §8 #8: caller/callee groups */
static void
test_caller_callee (void)
{
  g_autoptr(PsEventStore) store = parse (
    "Type,Function Name,Elapsed Inclusive Time,Number of Calls,Module Name,Function Address,"
    "Root Function Name,Process Name,Process ID,\n"
    "\"Root\",\"main\",100,1,\"a.exe\",0x1000,\"main\",\"a.exe\",42,\n"                          /* 2: entry point */
    "\"Callee\",\"work\",60,3,\"a.exe\",0x2000,\"main\",\"a.exe\",42,\n"
    "\"Root\",\"work\",60,3,\"a.exe\",0x2000,\"work\",\"a.exe\",42,\n"                           /* 4: a leaf */
    "\"Caller\",\"main\",60,3,\"a.exe\",0x1000,\"work\",\"a.exe\",42,\n"
    "\"Root\",\"helper\",10,2,\"a.exe\",0x3000,\"helper\",\"a.exe\",42,\n"                       /* 6 */
    "\"Caller\",\"Unknown Frame(s)\",10,2,\"UNKNOWN\",0xBAADF00D,\"helper\",\"a.exe\",42,\n"
    "\"Root\",\"helper\",7,1,\"b.dll\",0x4000,\"helper\",\"a.exe\",42,\n"                        /* 8: same name */
    "\"Caller\",\"work\",5,1,\"a.exe\",0x2000,\"helper\",\"a.exe\",42,\n"
    "\"Root\",\"leaf\",30,4,\"a.exe\",0x5000,\"leaf\",\"b.exe\",43,\n"                           /* 10 */
    "\"Caller\",\"x\",10,1,\"a.exe\",0x6000,\"leaf\",\"b.exe\",43,\n"
    "\"Caller\",\"y\",20,2,\"a.exe\",0x7000,\"leaf\",\"b.exe\",43,\n");
  g_autoptr(PsEventStore) numeric = parse ("Type,Function Name,Elapsed Inclusive Time,Number of Calls,\n"
                                           "0,\"main\",100,1,\n"
                                           "2,\"work\",60,3,\n"
                                           "0,\"work\",60,3,\n"
                                           "1,\"main\",60,3,\n");
  g_autoptr(PsEventStore) broken = parse ("Type,Function Name,Elapsed Inclusive Time,Root Function Name,Process ID,\n"
                                          "\"Caller\",\"orphan\",1,\"x\",1,\n"
                                          "\"Root\",\"f\",10,\"f\",1,\n"
                                          "\"Caller\",\"g\",10,\"h\",1,\n"
                                          "\"Sibling\",\"g\",1,\"f\",1,\n"
                                          "\"Callee\",\"k\",1,\"f\",2,\n"
                                          "\"Root\",\"f\",5,\"f\",1,\n");
  PsWarning w;

  g_assert_cmpstr (metadata (store, "report_kind"), ==, "caller-callee");
  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, 11);
  g_assert_cmpuint (row_at (store, 0)->kind, ==, PS_REPORT_ROW_FUNCTION);
  g_assert_cmpuint (row_at (store, 1)->kind, ==, PS_REPORT_ROW_CALLEE);
  g_assert_cmpuint (row_at (store, 1)->parent, ==, 0);
  g_assert_cmpuint (row_at (store, 3)->kind, ==, PS_REPORT_ROW_CALLER);
  g_assert_cmpuint (row_at (store, 3)->parent, ==, 2);

  /* Two Root rows of one name in different modules are different functions */
  g_assert_cmpstr (row_function (store, 4), ==, row_function (store, 6));
  g_assert_cmpuint (row_at (store, 4)->frame, !=, row_at (store, 6)->frame);
  g_assert_cmpstr (row_module (store, 6), ==, "b.dll");
  g_assert_cmpuint (row_at (store, 7)->parent, ==, 6);
  g_assert_cmpuint (row_address (store, 5), ==, 0xBAADF00D);

  /* One process track per (name, id) */
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 2);
  g_assert_cmpuint (row_at (store, 0)->track, ==, 0);
  g_assert_cmpuint (row_at (store, 10)->track, ==, 1);
  g_assert_cmpint (ps_event_store_get_track (store, 1)->number, ==, 43);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_track (store, 1)->name), ==, "b.exe");

  /* Callers that do not add up: in time (line 8), in calls (line 10) */
  assert_warnings (store, "W-CALLERS-SUM@8 W-CALLERS-SUM@10");
  g_assert_true (find_warning (store, "W-CALLERS-SUM", &w));
  g_assert_nonnull (strstr (w.message, "“helper”"));
  g_assert_nonnull (strstr (w.message, " 5;"));
  g_assert_nonnull (strstr (w.message, " 7"));

  /* Type 0/1/2 as the documentation has it */
  assert_warnings (numeric, "");
  g_assert_cmpuint (row_at (numeric, 0)->kind, ==, PS_REPORT_ROW_FUNCTION);
  g_assert_cmpuint (row_at (numeric, 1)->kind, ==, PS_REPORT_ROW_CALLEE);
  g_assert_cmpuint (row_at (numeric, 2)->kind, ==, PS_REPORT_ROW_FUNCTION);
  g_assert_cmpuint (row_at (numeric, 3)->kind, ==, PS_REPORT_ROW_CALLER);
  g_assert_cmpuint (row_at (numeric, 3)->parent, ==, 2);
  g_assert_cmpstr (metadata (numeric, "report_kind"), ==, "caller-callee");

  /* Ticks add up exactly, even beyond 32 bits; milliseconds within their rounding */
  {
    g_autoptr(PsEventStore) huge = parse ("Type,Function Name,Elapsed Inclusive Time,\n"
                                          "\"Root\",\"f\",80000000000,\n\"Caller\",\"g\",79999999999,\n");
    g_autoptr(PsEventStore) rounded = parse ("Type,Function Name,Elapsed Inclusive Time,\n"
                                             "\"Root\",\"f\",10.00,\n\"Caller\",\"a\",3.33,\n"
                                             "\"Caller\",\"b\",3.33,\n\"Caller\",\"c\",3.33,\n"
                                             "\"Root\",\"g\",10.00,\n\"Caller\",\"a\",9.90,\n");

    assert_warnings (huge, "W-CALLERS-SUM@2");
    assert_warnings (rounded, "W-CALLERS-SUM@6");
  }

  /* Rows that fit no group */
  assert_warnings (broken, "W-NO-ROOT@2 W-ROOT-MISMATCH@4 W-BAD-TYPE@5 W-ROOT-MISMATCH@6 W-DUPLICATE-ROOT@7");
  g_assert_cmpuint (ps_event_store_get_n_report_rows (broken), ==, 4);
  g_assert_cmpuint (row_at (broken, 1)->parent, ==, 0);
  g_assert_cmpuint (row_at (broken, 2)->parent, ==, 0);
  g_assert_cmpuint (row_at (broken, 3)->kind, ==, PS_REPORT_ROW_FUNCTION);
}

/* §8 #9 and §7 rule 6: the documented quirks are no violations */
static void
test_min_avg_max (void)
{
  g_autoptr(PsEventStore) store = parse (
    "Type,Function Name,Elapsed Inclusive Time,Min Elapsed Inclusive Time,Avg Elapsed Inclusive Time,"
    "Max Elapsed Inclusive Time,Min Application Inclusive Time,Avg Application Inclusive Time,"
    "Max Application Inclusive Time,Number of Calls,\n"
    "\"Root\",\"f\",43077,43077,43077,43077,0,43077,43077,1,\n"
    "\"Caller\",\"main\",43077,0,43077,43077,0,43077,43077,1,\n"
    "\"Callee\",\"g\",43095,0,43095,43095,0,43095,43095,1,\n"
    "\"Root\",\"h\",10,5,4,6,1,2,3,2,\n"
    "\"Root\",\"k\",14,1,7,6,1,2,3,2,\n");
  PsWarning w;

  assert_warnings (store, "W-MIN-AVG-MAX@5 W-MIN-AVG-MAX@6");
  g_assert_true (find_warning (store, "W-MIN-AVG-MAX", &w));
  g_assert_nonnull (strstr (w.message, "“Min Elapsed Inclusive Time” (5)"));
  g_assert_nonnull (strstr (w.message, "“Avg Elapsed Inclusive Time” (4)"));
  g_assert_cmpfloat (row_at (store, 3)->min[0], ==, 5);
  g_assert_cmpfloat (row_at (store, 2)->total[0], >, row_at (store, 0)->total[0]);
}

/* §8 #10: few columns, unknown columns, another order */
static void
test_columns (void)
{
  g_autoptr(PsEventStore) canonical = parse (
    "Function Name,Elapsed Inclusive Time,Elapsed Exclusive Time,Number of Calls,Module Name,\n"
    "\"main\",140,25,1,\"demo.exe\",\n\"B\",55,55,3,\"demo.exe\",\n");
  g_autoptr(PsEventStore) reordered = parse (
    "Module Name,Number of Calls,Elapsed Exclusive Time,Function Name,Elapsed Inclusive Time\n"
    "\"demo.exe\",1,25,\"main\",140\n\"demo.exe\",3,55,\"B\",55\n");
  g_autoptr(PsEventStore) extra = parse (
    "Colour,Function Name,Elapsed Inclusive Time,Weight,Elapsed Exclusive Time,Number of Calls,Module Name,"
    "Source File,Time Inclusive Probe Overhead\n"
    "red,\"main\",140,3,25,1,\"demo.exe\",\"main.c\",5\n"
    "blue,\"B\",55,\"4\",55,3,\"demo.exe\",\"\",0\n");
  g_autofree char *expected = dump (canonical, TRUE);
  g_autofree char *text = dump (reordered, TRUE);
  g_autofree char *extra_text = dump (extra, FALSE);
  g_autofree char *canonical_text = dump (canonical, FALSE);
  PsWarning w;

  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpstr (extra_text, ==, canonical_text);
  assert_warnings (extra, "I-UNKNOWN-COLUMNS@1");
  g_assert_true (find_warning (extra, "I-UNKNOWN-COLUMNS", &w));
  g_assert_nonnull (strstr (w.message, "“Colour”, “Weight”"));
  g_assert_null (strstr (w.message, "Source File"));

  /* A column twice: the first counts */
  {
    g_autoptr(PsEventStore) twice = parse ("Function Name,Elapsed Inclusive Time,Elapsed Inclusive Time\n"
                                           "\"f\",1,2\n");

    assert_warnings (twice, "W-DUPLICATE-COLUMN@1");
    g_assert_cmpfloat (row_at (twice, 0)->total[0], ==, 1);
  }
}

/* Rows with too few or too many fields, and a truncated last line */
static void
test_field_count (void)
{
  static const char header[] = "Level,Function Name,Number of Calls,Avg Elapsed Inclusive Time,\n"
                               "1,\"main\",1,140.00,\n";
  g_autofree char *cut = g_strconcat (header, "2,\"A\",1", NULL);
  g_autofree char *cut_quote = g_strconcat (header, "2,\"A", NULL);
  g_autofree char *complete = g_strconcat (header, "2,\"A\",1,75.00", NULL);
  g_autofree char *counts = g_strconcat (header, "2,\"A\",1\n2,\"B\",1,2.00,x,y\n", NULL);
  g_autoptr(PsEventStore) truncated = parse (cut);
  g_autoptr(PsEventStore) unclosed = parse (cut_quote);
  g_autoptr(PsEventStore) whole = parse (complete);
  g_autoptr(PsEventStore) wrong = parse (counts);

  assert_warnings (truncated, "W-TRUNCATED@3");
  g_assert_cmpuint (ps_event_store_get_n_report_rows (truncated), ==, 2);
  g_assert_cmpstr (row_function (truncated, 1), ==, "A");
  g_assert_cmpuint (row_at (truncated, 1)->parent, ==, 0);
  g_assert_cmpuint (row_at (truncated, 1)->calls, ==, 1);
  g_assert_true (isnan (row_at (truncated, 1)->avg[0]));

  assert_warnings (unclosed, "W-UNCLOSED-QUOTE@3 W-TRUNCATED@3");
  g_assert_cmpstr (row_function (unclosed, 1), ==, "A");
  g_assert_false (row_at (unclosed, 1)->has_calls);

  /* A last line without its line end is no fault */
  assert_warnings (whole, "");
  g_assert_cmpfloat (row_at (whole, 1)->avg[0], ==, 75);

  assert_warnings (wrong, "W-FIELD-COUNT@3 W-FIELD-COUNT@4");
  g_assert_true (isnan (row_at (wrong, 1)->avg[0]));
  g_assert_cmpfloat (row_at (wrong, 2)->avg[0], ==, 2);
}

/* A file that is not a report is a fatal error on its first line */
static void
test_not_a_report (void)
{
  g_autoptr(GError) plain = parse_failing ("a,b,c\n1,2,3\n");
  g_autoptr(GError) no_values = parse_failing ("Function Name,Module Name\n\"f\",\"m\"\n");
  g_autoptr(GError) empty = parse_failing ("");
  g_autoptr(GError) unterminated = parse_failing ("Name,Value");

  g_assert_error (plain, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (plain->message, "Line 1 "));
  g_assert_nonnull (strstr (plain->message, "“Function Name”"));
  g_assert_error (no_values, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (no_values->message, "line 1"));
  g_assert_error (empty, PS_ERROR, PS_ERROR_PARSE);
  g_assert_error (unterminated, PS_ERROR, PS_ERROR_PARSE);

  /* Through the loader: the format forced on a file it reads nothing of
   * is an error, with the parser's reason (docs/cli.md, exit status 1) */
  {
    static const char text[] = "Time,Value\n1,2\n";
    g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, strlen (text), NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(PsEventStore) store = ps_load_stream (stream, "x.csv",
                                                    &(PsLoadParams) { .format = &ps_format_vs_report_csv }, NULL,
                                                    &error);

    g_assert_null (store);
    g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
    g_assert_true (g_str_has_prefix (error->message, "Not a “vs-report-csv” file: "));
    g_assert_nonnull (strstr (error->message, "“Function Name”"));
  }
}

/* A quote that never closes stops reading, keeping the rows before it */
static void
test_runaway_quote (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (&ps_format_vs_report_csv, builder);
  g_autoptr(GError) error = NULL;
  static const char start[] = "Function Name,Elapsed Inclusive Time\n\"f\",1.5\n\"g\",2\n\"never closed,3\n";
  g_autofree char *filler = g_strnfill (1024 * 1024, 'x');
  gboolean ok = ps_parser_feed (parser, (const guint8 *)start, strlen (start), &error);

  for (guint i = 0; ok && i < 32; i++)
    ok = ps_parser_feed (parser, (const guint8 *)filler, 1024 * 1024, &error);

  g_assert_false (ok);
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "line 4"));
  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, 2);
  g_assert_cmpstr (metadata (store, "time_unit"), ==, "ms");
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->last_line, ==, 3);
}

/* The result never depends on where the chunks end */

static const char chunk_text[] =
  "\xEF\xBB\xBF" "Level,Function Name,Number of Calls,Elapsed Inclusive Time,Avg Elapsed Inclusive Time,"
  "Module Name,Process Name,Process ID,\r\n"
  "0,\"demo.exe\",0,\"2,000\",0.00,\"\",\"demo.exe\",7,\r\n"
  "1,\"say \"\"hi\"\", Größe\",1,\"2,000\",\"18,160.51\",\"demo.exe\",\"demo.exe\",7,\r\n"
  "3,\"jump\r\nover\",2,400,x,\"demo.exe\",\"demo.exe\",7,\r\n"
  "2,\"€\",1,\"1.000,5\",3.50,\"d\xE9mo.exe\",\"demo.exe\",7,\n"
  "1,\"tail\",1,5,5,\"demo.exe\",\"other.exe\",8";

static void
assert_same_at_every_split (const char *data,
                            gsize       length)
{
  g_autoptr(PsEventStore) whole = parse_bytes (data, length);
  g_autofree char *expected = dump (whole, TRUE);

  for (gsize split = 0; split <= length; split++)
    {
      g_autoptr(PsEventStore) store = parse_pieces (data, length, 0, split);
      g_autofree char *text = dump (store, TRUE);

      g_assert_cmpstr (text, ==, expected);
    }

  for (gsize piece = 1; piece <= 7; piece++)
    {
      g_autoptr(PsEventStore) store = parse_pieces (data, length, piece, 0);
      g_autofree char *text = dump (store, TRUE);

      g_assert_cmpstr (text, ==, expected);
    }
}

static void
test_chunks (void)
{
  gsize length = strlen (chunk_text);
  g_autoptr(PsEventStore) store = parse (chunk_text);
  g_autofree char *valid = NULL;
  g_autofree char *utf16 = NULL;
  gsize utf16_length;

  /* What the file holds, once */
  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, 5);
  g_assert_cmpstr (row_function (store, 1), ==, "say \"hi\", Größe");
  g_assert_cmpfloat (row_at (store, 1)->avg[0], ==, 18160.51);
  g_assert_cmpfloat (row_at (store, 0)->total[0], ==, 2000);
  g_assert_cmpstr (row_function (store, 2), ==, "jump\r\nover");
  g_assert_cmpuint (row_at (store, 2)->parent, ==, 1);
  g_assert_cmpuint (row_at (store, 3)->line, ==, 6);
  g_assert_cmpuint (row_at (store, 3)->parent, ==, 1);
  g_assert_cmpfloat (row_at (store, 3)->total[0], ==, 1000.5);
  g_assert_cmpstr (row_module (store, 3), ==, "démo.exe");
  g_assert_cmpuint (row_at (store, 4)->track, ==, 1);
  assert_warnings (store, "W-BAD-NUMBER@4 W-LEVEL-JUMP@4 I-CP1252@6");
  g_assert_cmpstr (metadata (store, "time_unit"), ==, "ms");

  assert_same_at_every_split (chunk_text, length);

  /* The same in UTF-16LE, split at odd offsets too (the cp1252 byte made valid first) */
  valid = g_strdup (chunk_text + 3);
  *strchr (valid, '\xE9') = 'e';
  utf16 = to_utf16 (valid, "UTF-16LE", "\xFF\xFE", &utf16_length);
  assert_same_at_every_split (utf16, utf16_length);
}

/* §8 #13: a million rows */
static void
test_million_rows (void)
{
  const guint n = 1000000;
  g_autoptr(GString) text = g_string_sized_new (n * 40);
  g_autoptr(PsEventStore) store = NULL;

  g_string_append (text, "Function Name,Elapsed Inclusive Time,Number of Calls,Module Name,\r\n");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "\"f%u\",%" G_GUINT64_FORMAT ",%u,\"m.dll\",\r\n",
                            i % 1000, G_GUINT64_CONSTANT (80000000000) + i, i);

  store = parse_pieces (text->str, text->len, 1 << 20, 0);
  assert_warnings (store, "");
  g_assert_cmpuint (ps_event_store_get_n_report_rows (store), ==, n);
  g_assert_cmpfloat (row_at (store, n - 1)->total[0], ==, 80000000000.0 + (n - 1));
  g_assert_cmpuint (row_at (store, n - 1)->calls, ==, n - 1);
  g_assert_cmpuint (row_at (store, n - 1)->line, ==, n + 1);
  g_assert_cmpstr (row_function (store, n - 1), ==, "f999");
  g_assert_cmpuint (row_at (store, 1000)->frame, ==, row_at (store, 0)->frame);
  g_assert_cmpstr (metadata (store, "time_unit"), ==, "ticks");
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->last_line, ==, n + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/vs-report-csv/real/caller-callee", test_real_caller_callee);
  g_test_add_func ("/vs-report-csv/real/rows", test_real_rows);
  g_test_add_func ("/vs-report-csv/real/sampling", test_real_sampling);
  g_test_add_func ("/vs-report-csv/sniff", test_sniff);
  g_test_add_func ("/vs-report-csv/example-tree", test_example_tree);
  g_test_add_func ("/vs-report-csv/trailing-comma", test_trailing_comma);
  g_test_add_func ("/vs-report-csv/encodings", test_encodings);
  g_test_add_func ("/vs-report-csv/names", test_names);
  g_test_add_func ("/vs-report-csv/numbers", test_numbers);
  g_test_add_func ("/vs-report-csv/units", test_units);
  g_test_add_func ("/vs-report-csv/levels", test_levels);
  g_test_add_func ("/vs-report-csv/deep-tree", test_deep_tree);
  g_test_add_func ("/vs-report-csv/caller-callee", test_caller_callee);
  g_test_add_func ("/vs-report-csv/min-avg-max", test_min_avg_max);
  g_test_add_func ("/vs-report-csv/columns", test_columns);
  g_test_add_func ("/vs-report-csv/field-count", test_field_count);
  g_test_add_func ("/vs-report-csv/not-a-report", test_not_a_report);
  g_test_add_func ("/vs-report-csv/runaway-quote", test_runaway_quote);
  g_test_add_func ("/vs-report-csv/chunks", test_chunks);
  g_test_add_func ("/vs-report-csv/million-rows", test_million_rows);

  return g_test_run ();
}
