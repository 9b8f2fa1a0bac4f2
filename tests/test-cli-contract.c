/* test-cli-contract.c — perfscope-cli's contract on real and damaged files
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (exit status, "complete", counts, formats). A script that
 * trusts the exit status and the JSON gets the truth: a damaged PLV2
 * capture is read in part, stats has the counters of a counter log, a log
 * in a Windows code page is read in it, --max-events stops where it says,
 * a format forced on a file it reads nothing of is an error, a time zone
 * cut off is said to be, blank cells are no readings, an export with
 * nothing to write fails whatever its target, and a saved run is named
 * perfscope. The PDH logs are written here with the features of real ones
 * (Windows-1251, "(PDH-CSV 4.0) (RTZ 2 (", blank " " cells, 2600 columns,
 * tabs) or are the constructed files of tests/data/pdh-csv.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cli-test-util.h"
#include "ps-loader.h"
#include "ps-native-writer.h"

/* The wide TSV: counters, rows, and every BLANK_EVERY-th cell blank */
#define WIDE_COLUMNS 2600
#define WIDE_ROWS 12
#define BLANK_EVERY 7

static char *
pdh_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", name, NULL);
}

static char *
demo_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
}

static JsonObject *
object_of (JsonNode *root)
{
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_get_object (root);
}

static gint64
count_of (JsonObject *info,
          const char *member)
{
  return json_object_get_int_member (json_object_get_object_member (info, "counts"), member);
}

static gboolean
has_warning (JsonObject *info,
             const char *code)
{
  JsonArray *warnings = json_object_get_array_member (info, "warnings");

  for (guint i = 0; i < json_array_get_length (warnings); i++)
    if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (warnings, i), "code"), code) == 0)
      return TRUE;
  return FALSE;
}

/* The readings with a value that `counters` lists, in all */
static gint64
counters_total (const char *path,
                const char *option)
{
  g_autoptr(CliResult) result = cli_test_run ("counters", path, option, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *series;
  gint64 total = 0;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  series = json_object_get_array_member (object_of (root), "series");
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *one = json_array_get_object_element (series, i);

      g_assert_cmpint (json_array_get_length (json_object_get_array_member (one, "points")), ==,
                       json_object_get_int_member (one, "count"));
      total += json_object_get_int_member (one, "count");
    }
  return total;
}

static void
write_file (const char *path,
            GString    *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text->str, (gssize) text->len, &error);
  g_assert_no_error (error);
}

/* A Russian Performance Monitor log as relog writes it in TSV: Windows-1251,
 * the zone cut off, 2600 counters, blank cells */
static char *
write_wide_tsv (const char *dir,
                guint64    *n_values,
                guint64    *n_blank)
{
  g_autoptr(GString) text = g_string_new ("\"(PDH-TSV 4.0) (RTZ 2 (\"");
  g_autofree char *header = NULL;
  g_autofree char *encoded = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, "wide-cp1251.tsv", NULL);
  gsize length = 0;

  for (guint c = 0; c < WIDE_COLUMNS; c++)
    g_string_append_printf (text, "\t\"\\\\SRV01\\Процессор(%u)\\%% загруженности процессора\"", c);
  g_string_append (text, "\r\n");
  *n_values = *n_blank = 0;
  for (guint r = 0; r < WIDE_ROWS; r++)
    {
      g_string_append_printf (text, "\"12/02/2026 10:00:%02u.000\"", r);
      for (guint c = 0; c < WIDE_COLUMNS; c++)
        {
          if ((r * WIDE_COLUMNS + c) % BLANK_EVERY == 0)
            {
              g_string_append (text, "\t\" \"");
              (*n_blank)++;
            }
          else
            {
              g_string_append_printf (text, "\t\"%u.5\"", (r + c) % 100);
              (*n_values)++;
            }
        }
      g_string_append (text, "\r\n");
    }

  encoded = g_convert (text->str, (gssize) text->len, "WINDOWS-1251", "UTF-8", NULL, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, encoded, (gssize) length, &error);
  g_assert_no_error (error);
  return path;
}

/* A PDH log of `columns` counters and `rows` rows, all with values */
static char *
write_plain_csv (const char *dir,
                 const char *name,
                 guint       columns,
                 guint       rows)
{
  g_autoptr(GString) text = g_string_new ("\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\"");
  char *path = g_build_filename (dir, name, NULL);

  for (guint c = 0; c < columns; c++)
    g_string_append_printf (text, ",\"\\\\HOST\\Processor(%u)\\%% Processor Time\"", c);
  g_string_append (text, "\r\n");
  for (guint r = 0; r < rows; r++)
    {
      g_string_append_printf (text, "\"03/04/2024 01:%02u:%02u.000\"", r / 60, r % 60);
      for (guint c = 0; c < columns; c++)
        g_string_append_printf (text, ",\"%u.25\"", (r * 7 + c) % 100);
      g_string_append (text, "\r\n");
    }
  write_file (path, text);
  return path;
}

/* 1. A CRC error in a sample record: the samples before it, exit 3 */
static void
test_damaged_plv2 (void)
{
  g_autofree char *source = demo_path ("processor_4cpu.plv2");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-contract-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "damaged.plv2", NULL);
  g_autofree char *data = NULL;
  g_autoptr(CliResult) whole = NULL;
  g_autoptr(CliResult) damaged = NULL;
  g_autoptr(JsonNode) whole_root = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *info, *failure;
  JsonArray *warnings;
  gint64 crc_offset = -1;
  gsize length;

  g_assert_true (g_file_get_contents (source, &data, &length, &error));
  whole = cli_test_run ("info", source, NULL);
  g_assert_cmpint (whole->status, ==, 0);
  whole_root = cli_test_parse_json (whole->out);

  /* A bit of a payload two thirds in: a sample record's */
  data[length * 2 / 3] ^= 0x10;
  g_file_set_contents (path, data, (gssize) length, &error);
  g_assert_no_error (error);

  damaged = cli_test_run ("info", path, NULL);
  g_assert_cmpint (damaged->status, ==, 3);
  g_assert_nonnull (strstr (damaged->err, "read only in part"));
  root = cli_test_parse_json (damaged->out);
  info = object_of (root);
  g_assert_false (json_object_get_boolean_member (info, "complete"));
  warnings = json_object_get_array_member (info, "warnings");
  for (guint i = 0; i < json_array_get_length (warnings); i++)
    {
      JsonObject *warning = json_array_get_object_element (warnings, i);

      if (g_strcmp0 (json_object_get_string_member (warning, "code"), "W-PLV2-CRC") == 0)
        crc_offset = json_object_get_int_member (warning, "offset");
    }
  g_assert_cmpint (crc_offset, >, 0);
  g_assert_cmpint (crc_offset, <=, (gint64) (length * 2 / 3));
  failure = json_object_get_object_member (info, "error");
  g_assert_cmpint (json_object_get_int_member (failure, "offset"), ==, crc_offset);
  g_assert_nonnull (strstr (json_object_get_string_member (failure, "message"), "CRC-32"));
  /* The samples before it */
  g_assert_cmpint (count_of (info, "counter_readings"), >, 0);
  g_assert_cmpint (count_of (info, "counter_readings"), <, count_of (object_of (whole_root), "counter_readings"));

  /* Every command says so */
  {
    g_autoptr(CliResult) counters = cli_test_run ("counters", path, NULL);
    g_autoptr(CliResult) stats = cli_test_run ("stats", path, NULL);

    g_assert_cmpint (counters->status, ==, 3);
    g_assert_cmpint (stats->status, ==, 3);
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* 2. stats of a counter log: a series of kind counter per counter, over
 * its readings with a value */
static void
test_stats_counters (void)
{
  g_autofree char *path = pdh_path ("logman-pdt.csv");
  g_autoptr(CliResult) result = cli_test_run ("stats", path, NULL);
  g_autoptr(CliResult) text = cli_test_run ("stats", "--text", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *series;
  JsonObject *cpu = NULL;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  series = json_object_get_array_member (object_of (root), "series");
  g_assert_cmpuint (json_array_get_length (series), ==, 6);
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *one = json_array_get_object_element (series, i);

      g_assert_cmpstr (json_object_get_string_member (one, "kind"), ==, "counter");
      if (g_strcmp0 (json_object_get_string_member (one, "name"), "\\\\WS01\\Processor(_Total)\\% Processor Time") == 0)
        cpu = one;
    }
  /* " ", 11.296813511113458, -1 (the row of 9.75 is short, and skipped):
   * two values, one blank */
  g_assert_nonnull (cpu);
  g_assert_cmpstr (json_object_get_string_member (cpu, "unit"), ==, "%");
  g_assert_cmpstr (json_object_get_string_member (cpu, "machine"), ==, "WS01");
  g_assert_cmpstr (json_object_get_string_member (cpu, "object"), ==, "Processor");
  g_assert_cmpstr (json_object_get_string_member (cpu, "instance"), ==, "_Total");
  g_assert_cmpint (json_object_get_int_member (cpu, "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (cpu, "excluded"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (cpu, "min"), ==, -1);
  g_assert_cmpfloat (json_object_get_double_member (cpu, "max"), ==, 11.296813511113458);
  /* Nearest rank: of two values the smaller */
  g_assert_cmpfloat (json_object_get_double_member (cpu, "median"), ==, -1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cpu, "sum"), 11.296813511113458 - 1, 1e-12);

  g_assert_cmpint (text->status, ==, 0);
  g_assert_null (strstr (text->out, "No measured series"));
  g_assert_nonnull (strstr (text->out, "Counters (%)"));
  g_assert_nonnull (strstr (text->out, "Median (%)"));
}

/* 3, 6, 7. Windows-1251 guessed, --encoding, a zone cut off, blank cells,
 * 2600 columns of TSV */
static void
test_code_page_zone_blanks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-contract-XXXXXX", NULL);
  guint64 n_values, n_blank;
  g_autofree char *path = write_wide_tsv (dir, &n_values, &n_blank);
  g_autoptr(CliResult) info = cli_test_run ("info", path, NULL);
  g_autoptr(CliResult) koi8 = cli_test_run ("counters", "--encoding", "KOI8-R", path, NULL);
  g_autoptr(CliResult) bad_encoding = cli_test_run ("info", "--encoding", "NO-SUCH-PAGE", path, NULL);
  g_autoptr(CliResult) wide_encoding = cli_test_run ("info", "--encoding", "UTF-16LE", path, NULL);
  g_autoptr(CliResult) placed = cli_test_run ("counters", "--utc-offset", "+03:00", path, NULL);
  g_autoptr(CliResult) unplaced = cli_test_run ("counters", path, NULL);
  g_autoptr(CliResult) bad_offset = cli_test_run ("info", "--utc-offset", "+3 hours", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) placed_root = NULL;
  g_autoptr(JsonNode) unplaced_root = NULL;
  JsonObject *object, *metadata, *first;

  g_assert_cmpint (info->status, ==, 0);
  root = cli_test_parse_json (info->out);
  object = object_of (root);
  metadata = json_object_get_object_member (object, "metadata");
  g_assert_cmpstr (json_object_get_string_member (metadata, "encoding"), ==, "Windows-1251");
  g_assert_true (has_warning (object, "I-CP1251"));
  /* Cut off: said so, what is there kept, not called typeperf's */
  g_assert_cmpstr (json_object_get_string_member (metadata, "time_zone"), ==, "RTZ 2 (");
  g_assert_true (has_warning (object, "I-PDH-ZONE-CUT"));
  g_assert_false (has_warning (object, "I-PDH-NO-TIME-ZONE"));
  g_assert_cmpint (json_object_get_int_member (object, "tracks"), >=, WIDE_COLUMNS);
  /* Blank cells are no readings, as for counters */
  g_assert_cmpint (count_of (object, "counter_readings"), ==, (gint64) n_values);
  g_assert_cmpint (count_of (object, "counter_values"), ==, (gint64) n_values);
  g_assert_cmpint (counters_total (path, NULL), ==, (gint64) n_values);
  g_assert_cmpuint (n_blank, >, 0);

  /* The names in Cyrillic, and in the code page asked for */
  unplaced_root = cli_test_parse_json (unplaced->out);
  first = json_array_get_object_element (json_object_get_array_member (object_of (unplaced_root), "series"), 0);
  g_assert_cmpstr (json_object_get_string_member (first, "object"), ==, "Процессор");
  g_assert_cmpstr (json_object_get_string_member (first, "counter"), ==, "% загруженности процессора");
  g_assert_cmpstr (json_object_get_string_member (object_of (unplaced_root), "time_base"), ==, "run");
  g_assert_cmpint (koi8->status, ==, 0);
  g_assert_null (strstr (koi8->out, "Процессор"));
  g_assert_cmpint (bad_encoding->status, ==, 2);
  g_assert_nonnull (strstr (bad_encoding->err, "NO-SUCH-PAGE"));
  g_assert_cmpint (wide_encoding->status, ==, 2);

  /* The offset given places the local times: 10:00:00 at UTC+3 */
  g_assert_cmpint (placed->status, ==, 0);
  placed_root = cli_test_parse_json (placed->out);
  g_assert_cmpstr (json_object_get_string_member (object_of (placed_root), "time_base"), ==, "unix");
  first = json_array_get_object_element (json_object_get_array_member (object_of (placed_root), "series"), 1);
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (json_object_get_array_member (first, "points"), 0), 0),
                   ==, G_GINT64_CONSTANT (1796194800) * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpint (bad_offset->status, ==, 2);

  g_unlink (path);
  g_rmdir (dir);
}

/* 3, 6. The constructed files: Windows-1252 guessed; a zone cut off to
 * nothing, in UTF-8 */
static void
test_western_and_cut_to_nothing (void)
{
  g_autofree char *spanish = pdh_path ("cp1252-spanish.csv");
  g_autofree char *chinese = pdh_path ("utf8-cut-zone.csv");
  g_autoptr(CliResult) western = cli_test_run ("info", spanish, NULL);
  g_autoptr(CliResult) cut = cli_test_run ("info", chinese, NULL);
  g_autoptr(CliResult) placed = cli_test_run ("info", "--utc-offset", "+08:00", chinese, NULL);
  g_autoptr(JsonNode) western_root = cli_test_parse_json (western->out);
  g_autoptr(JsonNode) cut_root = cli_test_parse_json (cut->out);
  g_autoptr(JsonNode) placed_root = cli_test_parse_json (placed->out);
  JsonObject *object;

  object = object_of (western_root);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object, "metadata"), "encoding"),
                   ==, "Windows-1252");
  g_assert_true (has_warning (object, "I-CP1252"));
  g_assert_false (has_warning (object, "W-ENCODING-GUESS"));

  object = object_of (cut_root);
  g_assert_true (has_warning (object, "I-PDH-ZONE-CUT"));
  g_assert_false (has_warning (object, "I-PDH-NO-TIME-ZONE"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object, "metadata"), "time_zone_cut"),
                   ==, "true");
  /* Two readings of four are blank */
  g_assert_cmpint (count_of (object, "counter_readings"), ==, 2);
  g_assert_cmpint (counters_total (chinese, NULL), ==, 2);

  object = object_of (placed_root);
  g_assert_true (has_warning (object, "I-PDH-UTC-OFFSET"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object, "metadata"),
                                                  "time_zone_bias_minutes"), ==, "-480");
}

/* 4. --max-events stops at the end of the line the limit was reached in */
static void
test_max_events (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-contract-XXXXXX", NULL);
  /* 252 readings: 63 rows of 4 */
  g_autofree char *small = write_plain_csv (dir, "small.csv", 4, 63);
  guint64 n_values, n_blank;
  g_autofree char *wide = write_wide_tsv (dir, &n_values, &n_blank);
  static const struct
  {
    const char *max;
    gint64      kept;      /* counter readings */
    gboolean    complete;
  } cases[] = {
    { "1", 4, FALSE },
    { "5", 8, FALSE },
    { "100", 100, FALSE },
    { "101", 104, FALSE },
    { "248", 248, FALSE },
    { "252", 252, TRUE },
    { "1000", 252, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CliResult) result = cli_test_run ("info", "--max-events", cases[i].max, small, NULL);
      g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
      JsonObject *info = object_of (root);

      g_test_message ("--max-events %s: %s", cases[i].max, result->err);
      g_assert_cmpint (result->status, ==, cases[i].complete ? 0 : 3);
      g_assert_cmpint (json_object_get_boolean_member (info, "complete"), ==, cases[i].complete);
      g_assert_cmpint (count_of (info, "counter_readings"), ==, cases[i].kept);
      if (!cases[i].complete)
        {
          g_autofree char *kept = g_strdup_printf ("%" G_GINT64_FORMAT " events were kept", cases[i].kept);
          const char *message = json_object_get_string_member (json_object_get_object_member (info, "error"), "message");

          g_assert_nonnull (strstr (message, kept));
        }
    }

  /* A row of 2600 counters is kept whole; 100 and 3000 stop in the
   * first and second rows, however short the file */
  {
    static const char * const limits[] = { "5", "100", "3000" };
    static const gint64 rows[] = { 1, 1, 2 };

    for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
      {
        g_autoptr(CliResult) result = cli_test_run ("info", "--max-events", limits[i], wide, NULL);
        g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
        JsonObject *info = object_of (root);

        g_assert_cmpint (result->status, ==, 3);
        g_assert_false (json_object_get_boolean_member (info, "complete"));
        g_assert_cmpint (count_of (info, "counter_readings"), <, rows[i] * WIDE_COLUMNS);
        g_assert_cmpint (count_of (info, "counter_readings"), >, (rows[i] - 1) * WIDE_COLUMNS);
      }
  }

  g_unlink (small);
  g_unlink (wide);
  g_rmdir (dir);
}

/* 5. A format forced on a file it reads nothing of: exit 1, "not a …
 * file: why" */
static void
test_forced_format (void)
{
  g_autofree char *path = demo_path ("perfmon_4cpu.csv");
  static const char * const formats[] = {
    "vs-report-csv", "pmcstat-callgraph", "hwpmc-pmclog", "rtl-logfile", "ce-perflog", "perflib-plv2", "perfscope",
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *option = g_strdup_printf ("--format=%s", formats[i]);
      g_autofree char *expected = g_strdup_printf ("Not a “%s” file: ", formats[i]);
      g_autoptr(CliResult) info = cli_test_run ("info", option, path, NULL);
      g_autoptr(CliResult) stats = cli_test_run ("stats", option, path, NULL);

      g_test_message ("%s: %s", formats[i], info->err);
      g_assert_cmpint (info->status, ==, 1);
      g_assert_cmpstr (info->out, ==, "");
      g_assert_nonnull (strstr (info->err, expected));
      g_assert_nonnull (strstr (info->err, "perfmon_4cpu.csv"));
      g_assert_cmpint (stats->status, ==, 1);
    }

  /* The right one still reads it */
  {
    g_autoptr(CliResult) right = cli_test_run ("info", "--format=pdh-csv", path, NULL);

    g_assert_cmpint (right->status, ==, 0);
  }
}

/* 8. An export with nothing to write: status 1 whatever the target, and
 * -o OUT left as it was */
static void
test_export_nothing (void)
{
  g_autofree char *path = demo_path ("perfmon_4cpu.csv");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-contract-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.txt", NULL);
  static const char * const targets[] = { "collapsed", "pmcstat-callgraph", "speedscope" };

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr(CliResult) to_stdout = cli_test_run ("export", "--to", targets[i], path, NULL);
      g_autoptr(CliResult) to_file = NULL;
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;

      g_file_set_contents (out, "kept\n", -1, &error);
      g_assert_no_error (error);
      to_file = cli_test_run ("export", "--to", targets[i], "-o", out, path, NULL);

      g_test_message ("%s: %s", targets[i], to_stdout->err);
      g_assert_cmpint (to_stdout->status, ==, 1);
      g_assert_cmpstr (to_stdout->out, ==, "");
      g_assert_nonnull (strstr (to_stdout->err, "has nothing to export as"));
      g_assert_cmpint (to_file->status, ==, 1);
      g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "kept\n");
    }

  /* A run with call stacks still exports */
  {
    g_autofree char *pmclog = demo_path ("pmcstat_freebsd14.pmclog");
    g_autoptr(CliResult) collapsed = cli_test_run ("export", "--to", "collapsed", pmclog, NULL);

    g_assert_cmpint (collapsed->status, ==, 0);
    g_assert_cmpuint (strlen (collapsed->out), >, 0);
  }

  g_unlink (out);
  g_rmdir (dir);
}

/* 9. A saved run is of format perfscope, with its origin */
static void
test_saved_run (void)
{
  g_autofree char *source = pdh_path ("logman-pdt.csv");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-contract-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.perfscope", NULL);
  g_autoptr(GFile) source_file = g_file_new_for_path (source);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (source_file, NULL, NULL);
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CliResult) info = NULL;
  g_autoptr(CliResult) text = NULL;
  g_autoptr(CliResult) stats = NULL;
  g_autoptr(CliResult) original = cli_test_run ("info", source, NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) stats_root = NULL;
  g_autoptr(JsonNode) original_root = cli_test_parse_json (original->out);
  JsonObject *object;

  store = ps_load_stream (G_INPUT_STREAM (stream), "logman-pdt.csv", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ps_native_save (store, file, NULL, &error));
  g_assert_no_error (error);

  info = cli_test_run ("info", path, NULL);
  g_assert_cmpint (info->status, ==, 0);
  root = cli_test_parse_json (info->out);
  object = object_of (root);
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "perfscope");
  g_assert_cmpstr (json_object_get_string_member (object, "origin"), ==, "pdh-csv");
  g_assert_false (json_object_has_member (object_of (original_root), "origin"));
  g_assert_cmpint (count_of (object, "counter_readings"), ==, count_of (object_of (original_root), "counter_readings"));

  stats = cli_test_run ("stats", path, NULL);
  stats_root = cli_test_parse_json (stats->out);
  g_assert_cmpstr (json_object_get_string_member (object_of (stats_root), "format"), ==, "perfscope");
  g_assert_cmpstr (json_object_get_string_member (object_of (stats_root), "origin"), ==, "pdh-csv");

  text = cli_test_run ("info", "--text", path, NULL);
  g_assert_nonnull (strstr (text->out, "perfscope"));
  g_assert_nonnull (strstr (text->out, "pdh-csv"));

  /* diff names the two runs' formats as info does */
  {
    g_autoptr(CliResult) diff = cli_test_run ("diff", path, source, NULL);
    g_autoptr(CliResult) diff_text = cli_test_run ("diff", "--text", path, source, NULL);
    g_autoptr(JsonNode) diff_root = cli_test_parse_json (diff->out);
    JsonObject *diff_object = json_node_get_object (diff_root);

    g_assert_cmpstr (json_object_get_string_member (diff_object, "format_a"), ==, "perfscope");
    g_assert_cmpstr (json_object_get_string_member (diff_object, "origin_a"), ==, "pdh-csv");
    g_assert_cmpstr (json_object_get_string_member (diff_object, "format_b"), ==, "pdh-csv");
    g_assert_false (json_object_has_member (diff_object, "origin_b"));
    g_assert_nonnull (strstr (diff_text->out, "A: saved.perfscope (perfscope)\n"));
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* info streamed: several files are an array of what could be read */
static void
test_info_several (void)
{
  g_autofree char *a = pdh_path ("logman-pdt.csv");
  g_autofree char *b = pdh_path ("relog-ist.tsv");
  g_autoptr(CliResult) both = cli_test_run ("info", a, "/nonexistent/perfscope.csv", b, NULL);
  g_autoptr(CliResult) none = cli_test_run ("info", "/nonexistent/one.csv", "/nonexistent/two.csv", NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (both->out);

  g_assert_cmpint (both->status, ==, 1);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (root)), ==, 2);
  g_assert_cmpint (none->status, ==, 1);
  g_assert_cmpstr (none->out, ==, "[]\n");
}

/* A leak from 01:03 and a step at 01:05:30 in a PDH log read once a
 * second from 01:00, with a little noise: counters --changes places the
 * climb at 01:03 and the step at 01:05:30, each to a stretch of the
 * overview; the steady counter has none; with --text it is a usage error */
static void
test_counter_changes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-changes-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "leak.csv", NULL);
  g_autoptr(GString) text = g_string_new ("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\","
                                          "\"\\\\HOST\\Process(app)\\Private Bytes\","
                                          "\"\\\\HOST\\Processor(_Total)\\% Processor Time\","
                                          "\"\\\\HOST\\Memory\\Available MBytes\"\r\n");
  g_autoptr(CliResult) result = NULL;
  g_autoptr(CliResult) as_text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *series;
  gint64 start_ns = 0;

  for (guint second = 0; second < 600; second++)
    {
      /* ±0.4 % of noise, a pattern of period 7 */
      double wobble = ((int)(second * 5 % 7) - 3) / 7.5;
      double memory = 100 + (second >= 180 ? (second - 180) / 10.0 : 0) + wobble * 0.5;
      double cpu = (second >= 330 ? 60 : 20) + wobble * 3;

      g_string_append_printf (text, "\"12/01/2025 01:%02u:%02u.000\",\"%.3f\",\"%.3f\",\"%.3f\"\r\n",
                              second / 60, second % 60, memory * 1048576, cpu, 4000 + wobble);
    }
  write_file (path, text);

  result = cli_test_run ("counters", "--changes", path, NULL);
  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  series = json_object_get_array_member (object_of (root), "series");
  g_assert_cmpuint (json_array_get_length (series), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *one = json_array_get_object_element (series, i);
      JsonArray *changes = json_object_get_array_member (one, "changes");
      const char *counter = json_object_get_string_member (one, "counter");
      JsonObject *change;
      gint64 time_ns;

      start_ns = json_array_get_int_element (json_array_get_array_element (json_object_get_array_member (one, "points"), 0), 0);
      if (g_str_equal (counter, "Available MBytes"))
        {
          g_assert_cmpuint (json_array_get_length (changes), ==, 0);
          continue;
        }
      g_assert_cmpuint (json_array_get_length (changes), ==, 1);
      change = json_array_get_object_element (changes, 0);
      time_ns = json_object_get_int_member (change, "time_ns") - start_ns;
      g_test_message ("%s: at %.1f s, %" G_GINT64_FORMAT " steps, %+.3f", counter, time_ns / 1e9,
                      json_object_get_int_member (change, "steps"),
                      json_object_get_double_member (change, "relative_change"));
      if (g_str_equal (counter, "Private Bytes"))
        {
          g_assert_cmpint (llabs (time_ns - G_GINT64_CONSTANT (180000000000)), <=, G_GINT64_CONSTANT (3000000000));
          g_assert_cmpint (json_object_get_int_member (change, "steps"), >, 1);
          g_assert_cmpfloat (json_object_get_double_member (change, "relative_change"), >, 0.3);
        }
      else
        {
          g_assert_cmpint (llabs (time_ns - G_GINT64_CONSTANT (330000000000)), <=, G_GINT64_CONSTANT (2000000000));
          g_assert_cmpint (json_object_get_int_member (change, "steps"), ==, 1);
          g_assert_cmpint (json_object_get_int_member (change, "end_ns"), ==, json_object_get_int_member (change, "time_ns"));
          g_assert_cmpfloat_with_epsilon (json_object_get_double_member (change, "relative_change"), 2.0, 0.1);
          g_assert_cmpfloat (json_object_get_double_member (change, "p_value"), <=, 0.01);
        }
      g_assert_cmpfloat (json_object_get_double_member (change, "mean_after"), >,
                         json_object_get_double_member (change, "mean_before"));
    }

  as_text = cli_test_run ("counters", "--changes", "--text", path, NULL);
  g_assert_cmpint (as_text->status, ==, 2);
  g_assert_nonnull (strstr (as_text->err, "--changes is written in JSON only"));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-contract/damaged-plv2", test_damaged_plv2);
  g_test_add_func ("/cli-contract/stats-counters", test_stats_counters);
  g_test_add_func ("/cli-contract/code-page-zone-blanks", test_code_page_zone_blanks);
  g_test_add_func ("/cli-contract/western-and-cut-to-nothing", test_western_and_cut_to_nothing);
  g_test_add_func ("/cli-contract/max-events", test_max_events);
  g_test_add_func ("/cli-contract/forced-format", test_forced_format);
  g_test_add_func ("/cli-contract/export-nothing", test_export_nothing);
  g_test_add_func ("/cli-contract/saved-run", test_saved_run);
  g_test_add_func ("/cli-contract/info-several", test_info_several);
  g_test_add_func ("/cli-contract/counter-changes", test_counter_changes);

  return g_test_run ();
}
