/* test-export.c — perfscope-cli export --to csv, speedscope, chrome-trace
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export) and exit codes.
 *
 * Every export of the small fixtures is compared with a golden file in
 * tests/data/export (PERFSCOPE_UPDATE_GOLDEN=1 rewrites them); speedscope
 * files are checked against the required members and types of the
 * published schema (https://www.speedscope.app/file-format-schema.json),
 * Chrome traces against the Trace Event Format (members of every event,
 * B/E pairs and X events nested per thread, dur ≥ 0, counters, stack
 * frames). CSV tables are parsed back and compared with the JSON of the
 * command they mirror.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cli-test-util.h"
#include "ps-export-csv.h"
#include "ps-util.h"

#define SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

static char *
data_path (const char *folder,
           const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", folder, name, NULL);
}

/* CSV ----------------------------------------------------------------------- */

/* Rows of an RFC 4180 text, each a GStrv */
static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  g_autoptr(GPtrArray) row = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) field = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      if (*p == '"')
        {
          for (p++; ; p++)
            {
              g_assert_true (*p != '\0');  /* a closing quote */
              if (*p == '"' && p[1] == '"')
                {
                  g_string_append_c (field, '"');
                  p++;
                }
              else if (*p == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (field, *p);
            }
        }
      while (*p != '\0' && *p != ',' && *p != '\r' && *p != '\n')
        g_string_append_c (field, *p++);
      g_ptr_array_add (row, g_strdup (field->str));
      g_string_truncate (field, 0);
      if (*p == ',')
        {
          p++;
          continue;
        }
      /* The end of a row is CRLF */
      g_assert_cmpint (*p, ==, '\r');
      g_assert_cmpint (p[1], ==, '\n');
      p += 2;
      g_ptr_array_add (row, NULL);
      g_ptr_array_add (rows, g_ptr_array_steal (row, NULL));
      row = g_ptr_array_new_with_free_func (g_free);
    }
  g_assert_cmpuint (row->len, ==, 0);
  return rows;
}

static guint
column_of (GStrv        header,
           const char  *name)
{
  for (guint i = 0; header[i] != NULL; i++)
    if (strcmp (header[i], name) == 0)
      return i;
  g_error ("no column “%s”", name);
  return 0;
}

static void
test_csv_writer (void)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(PsCsvWriter) csv = ps_csv_writer_new (stream, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *text = NULL;
  static const char expected[] =
    "name,sum (s),note\r\n"
    "\"a,b\",0.1,\"say \"\"hi\"\"\"\r\n"
    "\"two\nlines\",,\r\n"
    "-3,1e+300,plain\r\n";

  ps_csv_writer_add_column (csv, "name", NULL);
  ps_csv_writer_add_column (csv, "sum", "s");
  ps_csv_writer_add_column (csv, "note", "");
  ps_csv_writer_end_row (csv);
  ps_csv_writer_add_text (csv, "a,b");
  ps_csv_writer_add_number (csv, 0.1);
  ps_csv_writer_add_text (csv, "say \"hi\"");
  ps_csv_writer_end_row (csv);
  ps_csv_writer_add_text (csv, "two\nlines");
  ps_csv_writer_add_number (csv, NAN);
  ps_csv_writer_add_text (csv, NULL);
  ps_csv_writer_end_row (csv);
  ps_csv_writer_add_int (csv, -3);
  ps_csv_writer_add_number (csv, 1e300);
  ps_csv_writer_add_text (csv, "plain");
  ps_csv_writer_end_row (csv);
  g_assert_true (ps_csv_writer_finish (csv, &error));
  g_assert_no_error (error);
  g_output_stream_close (stream, NULL, NULL);

  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)));
  g_assert_cmpstr (text, ==, expected);

  /* And back */
  rows = parse_csv (text);
  g_assert_cmpuint (rows->len, ==, 4);
  g_assert_cmpstr (((GStrv)g_ptr_array_index (rows, 1))[0], ==, "a,b");
  g_assert_cmpstr (((GStrv)g_ptr_array_index (rows, 1))[2], ==, "say \"hi\"");
  g_assert_cmpstr (((GStrv)g_ptr_array_index (rows, 2))[0], ==, "two\nlines");
  g_assert_cmpstr (((GStrv)g_ptr_array_index (rows, 2))[1], ==, "");
}

static double
csv_number (const char *text)
{
  char *end = NULL;
  double value;

  if (*text == '\0')
    return NAN;
  value = g_ascii_strtod (text, &end);
  g_assert_cmpint (*end, ==, '\0');
  return value;
}

static void
assert_same_number (double      csv_value,
                    JsonObject *object,
                    const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  g_assert_nonnull (node);
  if (JSON_NODE_HOLDS_NULL (node))
    g_assert_true (isnan (csv_value));
  else
    g_assert_cmpfloat (csv_value, ==, json_node_get_double (node));
}

/* The CSV of stats has the numbers of `perfscope-cli stats`, exactly */
static void
check_stats_csv (const char *folder,
                 const char *name)
{
  g_autofree char *path = data_path (folder, name);
  g_autoptr(CliResult) csv = cli_test_run ("export", path, "--to", "csv", NULL);
  g_autoptr(CliResult) stats = cli_test_run ("stats", path, NULL);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *series;
  GStrv header;
  static const char * const members[] = {
    "sum", "min", "max", "mean", "median", "p90", "p95", "p99", "stddev",
  };

  g_assert_cmpint (csv->status, ==, 0);
  g_assert_cmpint (stats->status, ==, 0);
  rows = parse_csv (csv->out);
  root = cli_test_parse_json (stats->out);
  series = json_object_get_array_member (json_node_get_object (root), "series");
  g_assert_cmpuint (json_array_get_length (series), >, 0);
  g_assert_cmpuint (rows->len, ==, json_array_get_length (series) + 1);
  header = g_ptr_array_index (rows, 0);

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);
      GStrv row = g_ptr_array_index (rows, i + 1);

      g_assert_cmpstr (row[column_of (header, "name")], ==, json_object_get_string_member (object, "name"));
      g_assert_cmpstr (row[column_of (header, "kind")], ==, json_object_get_string_member (object, "kind"));
      g_assert_cmpstr (row[column_of (header, "unit")], ==, json_object_get_string_member (object, "unit"));
      g_assert_cmpint ((gint64)csv_number (row[column_of (header, "count")]), ==,
                       json_object_get_int_member (object, "count"));
      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        {
          guint column = G_MAXUINT;

          /* "sum (s)" when every series has the unit s, else "sum" */
          for (guint c = 0; header[c] != NULL; c++)
            if (strcmp (header[c], members[m]) == 0
                || (g_str_has_prefix (header[c], members[m]) && header[c][strlen (members[m])] == ' '))
              column = c;
          g_assert_cmpuint (column, !=, G_MAXUINT);
          assert_same_number (csv_number (row[column]), object, members[m]);
        }
      if (json_object_has_member (object, "self_sum"))
        assert_same_number (csv_number (row[column_of (header, "self_sum (s)")]), object, "self_sum");
    }
}

static void
test_csv_stats (void)
{
  check_stats_csv ("ce", "fsperf_CEPC_x86_6_0_3122.log");
  check_stats_csv ("rtl", "startup_4711.log");
  check_stats_csv ("rtl", "calltree_4711.log");
}

/* The function table has the numbers of `perfscope-cli calltree` */
static void
check_calltree_csv (const char *path)
{
  g_autoptr(CliResult) csv = cli_test_run ("export", path, "--to", "csv", NULL);
  g_autoptr(CliResult) tree_csv = cli_test_run ("export", path, "--to", "csv", "--tree", NULL);
  g_autoptr(CliResult) calltree = cli_test_run ("calltree", path, NULL);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) tree_rows = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *top;
  JsonArray *functions;
  GStrv header;
  const char *unit;
  static const char * const values[] = {
    "elapsed_inclusive", "elapsed_exclusive", "application_inclusive", "application_exclusive",
  };

  g_assert_cmpint (csv->status, ==, 0);
  g_assert_cmpint (calltree->status, ==, 0);
  rows = parse_csv (csv->out);
  root = cli_test_parse_json (calltree->out);
  top = json_node_get_object (root);
  unit = json_object_get_string_member (top, "unit");
  functions = json_object_get_array_member (top, "functions");
  g_assert_cmpuint (rows->len, ==, json_array_get_length (functions) + 1);
  header = g_ptr_array_index (rows, 0);

  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *object = json_array_get_object_element (functions, i);
      GStrv row = g_ptr_array_index (rows, i + 1);

      g_assert_cmpstr (row[column_of (header, "name")], ==, json_object_get_string_member (object, "name"));
      assert_same_number (csv_number (row[column_of (header, "calls")]), object, "calls");
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          g_autofree char *column = g_strdup_printf ("%s (%s)", values[v], unit);
          g_autofree char *pct = g_strconcat (values[v], "_pct", NULL);
          g_autofree char *pct_column = g_strconcat (pct, " (%)", NULL);

          assert_same_number (csv_number (row[column_of (header, column)]), object, values[v]);
          assert_same_number (csv_number (row[column_of (header, pct_column)]), object, pct);
        }
    }

  /* The tree: ids in depth-first order, parents before their children,
   * depth one more than the parent's; the top level sums to the total */
  g_assert_cmpint (tree_csv->status, ==, 0);
  tree_rows = parse_csv (tree_csv->out);
  g_assert_cmpuint (tree_rows->len, >, 1);
  {
    GStrv tree_header = g_ptr_array_index (tree_rows, 0);
    g_autofree char *column = g_strdup_printf ("elapsed_inclusive (%s)", unit);
    g_autoptr(GArray) depths = g_array_new (FALSE, TRUE, sizeof (gint64));
    double top_sum = 0;

    g_array_set_size (depths, tree_rows->len);
    for (guint r = 1; r < tree_rows->len; r++)
      {
        GStrv row = g_ptr_array_index (tree_rows, r);
        gint64 id = (gint64)csv_number (row[column_of (tree_header, "id")]);
        gint64 parent = (gint64)csv_number (row[column_of (tree_header, "parent")]);
        gint64 depth = (gint64)csv_number (row[column_of (tree_header, "depth")]);

        g_assert_cmpint (id, ==, r);
        g_assert_cmpint (parent, <, id);
        g_assert_cmpint (depth, ==, parent == 0 ? 1 : g_array_index (depths, gint64, parent) + 1);
        g_array_index (depths, gint64, id) = depth;
        if (parent == 0)
          top_sum += csv_number (row[column_of (tree_header, column)]);
      }
    g_assert_cmpfloat_with_epsilon (top_sum,
                                    json_object_get_double_member (json_object_get_object_member (top, "total"), "elapsed"),
                                    1e-6 * MAX (top_sum, 1));
  }
}

/* --group-by-name on CE PerfLog: PerfToCsv's table, a row per description
 * with its keys as columns and the placeholders evaluated: "Bps AVG" is
 * Bytes over the mean duration, "time" the mean itself */
static void
test_csv_ce_descriptions (void)
{
  /* The bundled demo: its descriptions have computed keys (Bps AVG) */
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "fsperf_CEPC_x86_6_0_3122.log", NULL);
  g_autoptr(CliResult) csv = cli_test_run ("export", path, "--to", "csv", "--group-by-name", NULL);
  g_autoptr(CliResult) stats = cli_test_run ("stats", path, "--group-by-name", NULL);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *series;
  GStrv header;
  int bytes = -1, bps_avg = -1, time_column = -1, mean = -1, count = -1;
  guint n_duration_series = 0;
  guint n_checked = 0;

  g_assert_cmpint (csv->status, ==, 0);
  rows = parse_csv (csv->out);
  header = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (header[0], ==, "session");
  g_assert_cmpstr (header[2], ==, "description");
  for (int c = 0; header[c] != NULL; c++)
    {
      if (g_str_equal (header[c], "Bytes"))
        bytes = c;
      else if (g_str_equal (header[c], "Bps AVG"))
        bps_avg = c;
      else if (g_str_equal (header[c], "time"))
        time_column = c;
      else if (g_str_equal (header[c], "mean (s)"))
        mean = c;
      else if (g_str_equal (header[c], "count"))
        count = c;
    }
  g_assert_cmpint (bytes, >, 2);
  g_assert_cmpint (bps_avg, >, 2);
  g_assert_cmpint (time_column, >, 2);
  g_assert_cmpint (mean, >, count);

  /* One row per duration series of stats --group-by-name */
  root = cli_test_parse_json (stats->out);
  series = json_object_get_array_member (json_node_get_object (root), "series");
  for (guint i = 0; i < json_array_get_length (series); i++)
    if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (series, i), "kind"), "duration") == 0)
      n_duration_series++;
  g_assert_cmpuint (rows->len, ==, n_duration_series + 1);

  for (guint r = 1; r < rows->len; r++)
    {
      GStrv row = g_ptr_array_index (rows, r);
      double row_mean = g_ascii_strtod (row[mean], NULL);

      g_assert_cmpfloat (row_mean, >, 0);
      if (*row[bps_avg] != '\0')
        {
          double expected = g_ascii_strtod (row[bytes], NULL) / row_mean;

          g_assert_cmpfloat_with_epsilon (g_ascii_strtod (row[bps_avg], NULL), expected, expected * 1e-5);
          n_checked++;
        }
      if (*row[time_column] != '\0')
        g_assert_cmpfloat_with_epsilon (g_ascii_strtod (row[time_column], NULL), row_mean, 1e-6);
    }
  g_assert_cmpuint (n_checked, >, 0);
}

static void
test_csv_calltree (void)
{
  g_autofree char *simple = data_path ("pmcstat-callgraph", "simple.txt");
  g_autofree char *rtl = data_path ("rtl", "calltree_4711.log");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-export-XXXXXX", NULL);
  g_autofree char *pmclog = cli_test_write_pmclog (dir);

  check_calltree_csv (simple);
  check_calltree_csv (pmclog);
  g_remove (pmclog);
  g_rmdir (dir);
  (void)rtl;
}

/* Counters: one row per counter, or every reading with --points, with the
 * numbers of `perfscope-cli counters` */
static void
test_csv_counters (void)
{
  g_autofree char *path = data_path ("perflib-plv2", "processor-2cpu.plv2");
  g_autoptr(CliResult) csv = cli_test_run ("export", path, "--to", "csv", NULL);
  g_autoptr(CliResult) points = cli_test_run ("export", path, "--to", "csv", "--points", NULL);
  g_autoptr(CliResult) counters = cli_test_run ("counters", path, NULL);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) point_rows = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *series;
  GStrv header, point_header;
  guint n_points = 0;

  g_assert_cmpint (csv->status, ==, 0);
  g_assert_cmpint (points->status, ==, 0);
  rows = parse_csv (csv->out);
  point_rows = parse_csv (points->out);
  root = cli_test_parse_json (counters->out);
  series = json_object_get_array_member (json_node_get_object (root), "series");
  g_assert_cmpuint (rows->len, ==, json_array_get_length (series) + 1);
  header = g_ptr_array_index (rows, 0);
  point_header = g_ptr_array_index (point_rows, 0);
  g_assert_cmpstr (point_header[column_of (point_header, "time (ns since 1970)")], ==, "time (ns since 1970)");

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);
      GStrv row = g_ptr_array_index (rows, i + 1);
      JsonArray *json_points = json_object_get_array_member (object, "points");
      guint matched = 0;

      g_assert_cmpstr (row[column_of (header, "counter")], ==, json_object_get_string_member (object, "counter"));
      g_assert_cmpstr (row[column_of (header, "instance")], ==, json_object_get_string_member (object, "instance"));
      g_assert_cmpstr (row[column_of (header, "type")], ==, json_object_get_string_member (object, "type"));
      assert_same_number (csv_number (row[column_of (header, "min")]), object, "min");
      assert_same_number (csv_number (row[column_of (header, "max")]), object, "max");
      assert_same_number (csv_number (row[column_of (header, "mean")]), object, "mean");
      assert_same_number (csv_number (row[column_of (header, "last")]), object, "last");

      /* The points of this counter, in order */
      for (guint r = 1; r < point_rows->len; r++)
        {
          GStrv point = g_ptr_array_index (point_rows, r);
          JsonArray *expected;

          if (strcmp (point[column_of (point_header, "counter")], row[column_of (header, "counter")]) != 0
              || strcmp (point[column_of (point_header, "instance")], row[column_of (header, "instance")]) != 0)
            continue;
          g_assert_cmpuint (matched, <, json_array_get_length (json_points));
          expected = json_array_get_array_element (json_points, matched++);
          g_assert_cmpint ((gint64)g_ascii_strtoll (point[column_of (point_header, "time (ns since 1970)")], NULL, 10),
                           ==, json_array_get_int_element (expected, 0));
          g_assert_cmpfloat (csv_number (point[column_of (point_header, "value")]), ==,
                             json_array_get_double_element (expected, 1));
        }
      g_assert_cmpuint (matched, ==, json_array_get_length (json_points));
      n_points += matched;
    }
  g_assert_cmpuint (point_rows->len, ==, n_points + 1);
}

/* speedscope ---------------------------------------------------------------- */

static JsonNode *
required (JsonObject *object,
          const char *member,
          JsonNodeType type)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    g_error ("required member “%s” missing", member);
  g_assert_cmpint (json_node_get_node_type (node), ==, type);
  return node;
}

static gboolean
is_number (JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  return JSON_NODE_HOLDS_VALUE (node) && (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE);
}

static gboolean
is_integer (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64;
}

static gboolean
is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static double
required_number (JsonObject *object,
                 const char *member)
{
  JsonNode *node = required (object, member, JSON_NODE_VALUE);

  g_assert_true (is_number (node));
  return json_node_get_double (node);
}

static const char *
required_string (JsonObject *object,
                 const char *member)
{
  JsonNode *node = required (object, member, JSON_NODE_VALUE);

  g_assert_true (is_string (node));
  return json_node_get_string (node);
}

/* The required members and types of the published schema: File
 * ($schema, shared.frames, profiles), Frame (name; file, line, col
 * optional), EventedProfile (type, name, unit, startValue, endValue,
 * events of type O/C, frame, at), SampledProfile (type, name, unit,
 * startValue, endValue, samples, weights); unit is one of the schema's
 * ValueUnit. Beyond the schema: frames in range, events balanced and in
 * time order within [startValue, endValue], one weight per sample. */
static void
check_speedscope (const char *text)
{
  g_autoptr(JsonNode) root = cli_test_parse_json (text);
  JsonObject *file, *shared;
  JsonArray *frames, *profiles;
  guint n_frames;
  static const char * const units[] = {
    "none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes", NULL,
  };

  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  file = json_node_get_object (root);
  g_assert_cmpstr (required_string (file, "$schema"), ==, SPEEDSCOPE_SCHEMA);
  shared = json_node_get_object (required (file, "shared", JSON_NODE_OBJECT));
  frames = json_node_get_array (required (shared, "frames", JSON_NODE_ARRAY));
  profiles = json_node_get_array (required (file, "profiles", JSON_NODE_ARRAY));
  if (json_object_has_member (file, "name"))
    required_string (file, "name");
  if (json_object_has_member (file, "exporter"))
    required_string (file, "exporter");
  if (json_object_has_member (file, "activeProfileIndex"))
    g_assert_cmpfloat (required_number (file, "activeProfileIndex"), <, json_array_get_length (profiles));

  n_frames = json_array_get_length (frames);
  for (guint i = 0; i < n_frames; i++)
    {
      JsonNode *node = json_array_get_element (frames, i);
      JsonObject *frame;

      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      frame = json_node_get_object (node);
      required_string (frame, "name");
      if (json_object_has_member (frame, "file"))
        required_string (frame, "file");
      if (json_object_has_member (frame, "line"))
        required_number (frame, "line");
      if (json_object_has_member (frame, "col"))
        required_number (frame, "col");
    }

  g_assert_cmpuint (json_array_get_length (profiles), >, 0);
  for (guint p = 0; p < json_array_get_length (profiles); p++)
    {
      JsonObject *profile = json_array_get_object_element (profiles, p);
      const char *type = required_string (profile, "type");
      double start, end;

      required_string (profile, "name");
      g_assert_true (g_strv_contains (units, required_string (profile, "unit")));
      start = required_number (profile, "startValue");
      end = required_number (profile, "endValue");
      g_assert_cmpfloat (start, <=, end);

      if (strcmp (type, "evented") == 0)
        {
          JsonArray *events = json_node_get_array (required (profile, "events", JSON_NODE_ARRAY));
          g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (gint64));
          double last = start;

          for (guint e = 0; e < json_array_get_length (events); e++)
            {
              JsonObject *event = json_array_get_object_element (events, e);
              const char *event_type = required_string (event, "type");
              double at = required_number (event, "at");
              JsonNode *frame_node = required (event, "frame", JSON_NODE_VALUE);
              gint64 frame;

              g_assert_true (is_integer (frame_node));
              frame = json_node_get_int (frame_node);
              g_assert_cmpint (frame, >=, 0);
              g_assert_cmpint (frame, <, n_frames);
              g_assert_cmpfloat (at, >=, last);
              g_assert_cmpfloat (at, <=, end);
              last = at;
              if (strcmp (event_type, "O") == 0)
                g_array_append_val (open, frame);
              else
                {
                  g_assert_cmpstr (event_type, ==, "C");
                  g_assert_cmpuint (open->len, >, 0);
                  g_assert_cmpint (g_array_index (open, gint64, open->len - 1), ==, frame);
                  g_array_set_size (open, open->len - 1);
                }
            }
          g_assert_cmpuint (open->len, ==, 0);
        }
      else
        {
          JsonArray *samples = json_node_get_array (required (profile, "samples", JSON_NODE_ARRAY));
          JsonArray *weights = json_node_get_array (required (profile, "weights", JSON_NODE_ARRAY));
          double total = 0;

          g_assert_cmpstr (type, ==, "sampled");
          g_assert_cmpuint (json_array_get_length (samples), ==, json_array_get_length (weights));
          for (guint s = 0; s < json_array_get_length (samples); s++)
            {
              JsonNode *sample = json_array_get_element (samples, s);
              JsonNode *weight = json_array_get_element (weights, s);

              g_assert_true (JSON_NODE_HOLDS_ARRAY (sample));
              for (guint f = 0; f < json_array_get_length (json_node_get_array (sample)); f++)
                {
                  JsonNode *index = json_array_get_element (json_node_get_array (sample), f);

                  g_assert_true (is_integer (index));
                  g_assert_cmpint (json_node_get_int (index), >=, 0);
                  g_assert_cmpint (json_node_get_int (index), <, n_frames);
                }
              g_assert_true (is_number (weight));
              g_assert_cmpfloat (json_node_get_double (weight), >=, 0);
              total += json_node_get_double (weight);
            }
          g_assert_cmpfloat_with_epsilon (total, end - start, 1e-9 * MAX (total, 1));
        }
    }
}

/* Chrome trace -------------------------------------------------------------- */

typedef struct
{
  double begin;
  double end;
} Interval;

static gint
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const Interval *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  /* The longer (the parent) first */
  return x->end > y->end ? -1 : x->end < y->end;
}

static void
free_array (gpointer data)
{
  g_array_unref (data);
}

static void
check_chrome_trace (const char *text)
{
  g_autoptr(JsonNode) root = cli_test_parse_json (text);
  g_autoptr(GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_array);
  g_autoptr(GHashTable) complete = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_array);
  JsonObject *trace;
  JsonArray *events;
  GHashTableIter iter;
  gpointer value;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  trace = json_node_get_object (root);
  events = json_node_get_array (required (trace, "traceEvents", JSON_NODE_ARRAY));
  if (json_object_has_member (trace, "displayTimeUnit"))
    {
      const char *unit = required_string (trace, "displayTimeUnit");

      g_assert_true (strcmp (unit, "ms") == 0 || strcmp (unit, "ns") == 0);
    }
  g_assert_cmpuint (json_array_get_length (events), >, 0);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *ph = required_string (event, "ph");
      const char *name = required_string (event, "name");
      double ts = required_number (event, "ts");
      JsonNode *pid = required (event, "pid", JSON_NODE_VALUE);
      JsonNode *tid = required (event, "tid", JSON_NODE_VALUE);
      g_autofree char *thread = NULL;

      g_assert_cmpuint (strlen (ph), ==, 1);
      g_assert_true (is_integer (pid));
      g_assert_true (is_integer (tid));
      if (json_object_has_member (event, "cat"))
        required_string (event, "cat");
      if (json_object_has_member (event, "args"))
        required (event, "args", JSON_NODE_OBJECT);
      thread = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, json_node_get_int (pid), json_node_get_int (tid));

      switch (ph[0])
        {
        case 'X':
          {
            Interval interval = { ts, ts + required_number (event, "dur") };
            GArray *list = g_hash_table_lookup (complete, thread);

            g_assert_cmpfloat (required_number (event, "dur"), >=, 0);
            if (list == NULL)
              {
                list = g_array_new (FALSE, FALSE, sizeof (Interval));
                g_hash_table_insert (complete, g_strdup (thread), list);
              }
            g_array_append_val (list, interval);
          }
          break;
        case 'B':
        case 'E':
          {
            GArray *stack = g_hash_table_lookup (open, thread);

            if (stack == NULL)
              {
                stack = g_array_new (FALSE, FALSE, sizeof (double));
                g_hash_table_insert (open, g_strdup (thread), stack);
              }
            if (ph[0] == 'B')
              g_array_append_val (stack, ts);
            else
              {
                g_assert_cmpuint (stack->len, >, 0);
                g_assert_cmpfloat (ts, >=, g_array_index (stack, double, stack->len - 1));
                g_array_set_size (stack, stack->len - 1);
              }
          }
          break;
        case 'i':
        case 'I':
        case 'R':
          if (json_object_has_member (event, "s"))
            {
              const char *scope = required_string (event, "s");

              g_assert_true (strcmp (scope, "g") == 0 || strcmp (scope, "p") == 0 || strcmp (scope, "t") == 0);
            }
          break;
        case 'C':
          {
            JsonObject *args = json_node_get_object (required (event, "args", JSON_NODE_OBJECT));
            g_autoptr(GList) members = json_object_get_members (args);

            g_assert_nonnull (members);
            for (GList *m = members; m != NULL; m = m->next)
              g_assert_true (is_number (json_object_get_member (args, m->data)));
          }
          break;
        case 'M':
          {
            JsonObject *args = json_node_get_object (required (event, "args", JSON_NODE_OBJECT));

            g_assert_true (strcmp (name, "process_name") == 0 || strcmp (name, "thread_name") == 0
                           || strcmp (name, "process_sort_index") == 0 || strcmp (name, "thread_sort_index") == 0);
            if (g_str_has_suffix (name, "_name"))
              required_string (args, "name");
          }
          break;
        default:
          g_error ("unexpected event phase “%s”", ph);
        }
    }

  /* Every B has its E */
  g_hash_table_iter_init (&iter, open);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_assert_cmpuint (((GArray *)value)->len, ==, 0);

  /* X events of a thread nest: each lies within the one it begins in */
  g_hash_table_iter_init (&iter, complete);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *list = value;
      g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (double));

      g_array_sort (list, compare_intervals);
      for (guint i = 0; i < list->len; i++)
        {
          Interval *interval = &g_array_index (list, Interval, i);

          while (stack->len > 0 && g_array_index (stack, double, stack->len - 1) <= interval->begin)
            g_array_set_size (stack, stack->len - 1);
          if (stack->len > 0)
            g_assert_cmpfloat (interval->end, <=, g_array_index (stack, double, stack->len - 1));
          g_array_append_val (stack, interval->end);
        }
    }

  /* Samples name stack frames that exist, whose parents exist */
  if (json_object_has_member (trace, "samples"))
    {
      JsonArray *samples = json_node_get_array (required (trace, "samples", JSON_NODE_ARRAY));
      JsonObject *stack_frames = json_node_get_object (required (trace, "stackFrames", JSON_NODE_OBJECT));
      g_autoptr(GList) ids = json_object_get_members (stack_frames);

      for (guint i = 0; i < json_array_get_length (samples); i++)
        {
          JsonObject *sample = json_array_get_object_element (samples, i);
          JsonNode *sf = required (sample, "sf", JSON_NODE_VALUE);
          g_autofree char *key = NULL;

          required_number (sample, "ts");
          g_assert_true (is_integer (required (sample, "tid", JSON_NODE_VALUE)));
          required_string (sample, "name");
          key = is_string (sf) ? g_strdup (json_node_get_string (sf))
                               : g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (sf));
          g_assert_true (json_object_has_member (stack_frames, key));
        }
      for (GList *id = ids; id != NULL; id = id->next)
        {
          JsonObject *frame = json_object_get_object_member (stack_frames, id->data);

          required_string (frame, "name");
          if (json_object_has_member (frame, "parent"))
            g_assert_true (json_object_has_member (stack_frames, required_string (frame, "parent")));
        }
    }
}

/* Golden files ------------------------------------------------------------- */

typedef struct
{
  const char *folder;       /* in tests/data, or NULL for the generated hwpmc log */
  const char *file;
  const char *target;
  const char *option;       /* --tree, --points or NULL */
  const char *golden;       /* in tests/data/export */
} Golden;

static const Golden goldens[] = {
  { "ce", "fsperf_CEPC_x86_6_0_3122.log", "csv", NULL, "fsperf.csv" },
  { "rtl", "startup_4711.log", "csv", NULL, "startup_4711.csv" },
  { "rtl", "startup_4711.log", "speedscope", NULL, "startup_4711.speedscope.json" },
  { "rtl", "startup_4711.log", "chrome-trace", NULL, "startup_4711.trace.json" },
  { "rtl", "calltree_4711.log", "csv", "--tree", "calltree_4711.tree.csv" },
  { "rtl", "calltree_4711.log", "speedscope", NULL, "calltree_4711.speedscope.json" },
  { "rtl", "calltree_4711.log", "chrome-trace", NULL, "calltree_4711.trace.json" },
  { NULL, "pmcstat.out", "csv", NULL, "hwpmc.csv" },
  { NULL, "pmcstat.out", "speedscope", NULL, "hwpmc.speedscope.json" },
  { NULL, "pmcstat.out", "chrome-trace", NULL, "hwpmc.trace.json" },
  { "perflib-plv2", "processor-2cpu.plv2", "csv", NULL, "processor-2cpu.csv" },
  { "perflib-plv2", "processor-2cpu.plv2", "csv", "--points", "processor-2cpu.points.csv" },
  { "perflib-plv2", "processor-2cpu.plv2", "chrome-trace", NULL, "processor-2cpu.trace.json" },
  { "pdh-csv", "logman-pdt.csv", "csv", NULL, "logman-pdt.csv" },
  { "pdh-csv", "logman-pdt.csv", "chrome-trace", NULL, "logman-pdt.trace.json" },
  { "export", "clock-back_4711.log", "speedscope", NULL, "clock-back_4711.speedscope.json" },
  { "export", "clock-back_4711.log", "chrome-trace", NULL, "clock-back_4711.trace.json" },
  { "vs-report-csv", "lr2_cc.csv", "csv", NULL, "lr2_cc.csv" },
  { "pmcstat-callgraph", "simple.txt", "csv", NULL, "simple.csv" },
  { "pmcstat-callgraph", "simple.txt", "csv", "--tree", "simple.tree.csv" },
  { "pmcstat-callgraph", "simple.txt", "speedscope", NULL, "simple.speedscope.json" },
};

static void
test_goldens (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-export-XXXXXX", NULL);
  g_autofree char *pmclog = cli_test_write_pmclog (dir);
  gboolean update = g_strcmp0 (g_getenv ("PERFSCOPE_UPDATE_GOLDEN"), "1") == 0;

  for (guint i = 0; i < G_N_ELEMENTS (goldens); i++)
    {
      const Golden *golden = &goldens[i];
      g_autofree char *path = golden->folder != NULL ? data_path (golden->folder, golden->file) : g_strdup (pmclog);
      g_autofree char *golden_path = data_path ("export", golden->golden);
      g_autofree char *output = g_build_filename (dir, golden->golden, NULL);
      g_autofree char *expected = NULL;
      g_autofree char *written = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(CliResult) result = NULL;
      g_autoptr(CliResult) to_file = NULL;
      const char *args[] = { "export", path, "--to", golden->target, golden->option, NULL };
      const char *file_args[] = { "export", path, "--to", golden->target, "-o", output, golden->option, NULL };

      g_test_message ("%s → %s", golden->file, golden->golden);
      result = cli_test_run_argv (args);
      g_assert_cmpint (result->status, ==, 0);
      g_assert_cmpstr (result->err, ==, "");

      if (strcmp (golden->target, "speedscope") == 0)
        check_speedscope (result->out);
      else if (strcmp (golden->target, "chrome-trace") == 0)
        check_chrome_trace (result->out);
      else
        g_ptr_array_unref (parse_csv (result->out));

      if (update)
        {
          g_file_set_contents (golden_path, result->out, -1, &error);
          g_assert_no_error (error);
        }
      g_file_get_contents (golden_path, &expected, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (result->out, ==, expected);

      /* -o writes the same bytes */
      to_file = cli_test_run_argv (file_args);
      g_assert_cmpint (to_file->status, ==, 0);
      g_assert_cmpstr (to_file->out, ==, "");
      g_file_get_contents (output, &written, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (written, ==, expected);
      g_remove (output);
    }

  g_remove (pmclog);
  g_rmdir (dir);
}

/* Folded stacks in (pmcstat -G), through speedscope, folded stacks out: the
 * expected folded stacks of the fixtures */
static void
test_speedscope_round_trip (void)
{
  const char * const names[] = { "simple", "shared", "shared2", "dd", "iperf3" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autofree char *file = g_strconcat (names[n], ".txt", NULL);
      g_autofree char *expected_name = g_strconcat (names[n], "-collapsed.txt", NULL);
      g_autofree char *path = data_path ("pmcstat-callgraph", file);
      g_autofree char *expected_path = g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph",
                                                              "expected-collapsed", expected_name, NULL);
      g_autoptr(CliResult) result = cli_test_run ("export", path, "--to", "speedscope", NULL);
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GHashTable) folded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree char *expected_text = NULL;
      g_auto(GStrv) lines = NULL;
      g_autoptr(GError) error = NULL;
      JsonArray *frames, *profiles;
      GHashTableIter iter;
      gpointer key, value;

      g_assert_cmpint (result->status, ==, 0);
      check_speedscope (result->out);
      root = cli_test_parse_json (result->out);
      frames = json_object_get_array_member (json_object_get_object_member (json_node_get_object (root), "shared"), "frames");
      profiles = json_object_get_array_member (json_node_get_object (root), "profiles");

      for (guint p = 0; p < json_array_get_length (profiles); p++)
        {
          JsonObject *profile = json_array_get_object_element (profiles, p);
          JsonArray *samples = json_object_get_array_member (profile, "samples");
          JsonArray *weights = json_object_get_array_member (profile, "weights");

          for (guint s = 0; s < json_array_get_length (samples); s++)
            {
              JsonArray *stack = json_array_get_array_element (samples, s);
              g_autoptr(GString) line = g_string_new (NULL);
              guint64 sum;

              for (guint f = 0; f < json_array_get_length (stack); f++)
                {
                  JsonObject *frame = json_array_get_object_element (frames, json_array_get_int_element (stack, f));
                  g_autofree char *frame_name = g_strdup (json_object_get_string_member (frame, "name"));

                  /* Folded text cannot hold these */
                  g_strdelimit (frame_name, ";\r\n", '_');
                  g_string_append_printf (line, "%s%s", f > 0 ? ";" : "", frame_name);
                }
              sum = GPOINTER_TO_SIZE (g_hash_table_lookup (folded, line->str))
                    + (guint64)json_array_get_int_element (weights, s);
              g_hash_table_replace (folded, g_strdup (line->str), GSIZE_TO_POINTER (sum));
            }
        }

      g_file_get_contents (expected_path, &expected_text, NULL, &error);
      g_assert_no_error (error);
      lines = g_strsplit (expected_text, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          char *space = strrchr (lines[l], ' ');

          if (lines[l][0] == '\0')
            continue;
          g_assert_nonnull (space);
          *space = '\0';
          g_hash_table_insert (expected, g_strdup (lines[l]),
                               GSIZE_TO_POINTER ((gsize)g_ascii_strtoull (space + 1, NULL, 10)));
        }

      g_assert_cmpuint (g_hash_table_size (folded), ==, g_hash_table_size (expected));
      g_hash_table_iter_init (&iter, expected);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_assert_true (g_hash_table_contains (folded, key));
          g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (folded, key)), ==, GPOINTER_TO_SIZE (value));
        }
    }
}

/* A profiler report with a call tree (vs-instrumentation.md §5.4): one
 * evented profile walking the tree, each call path holding its exclusive
 * time before its callees' */
static void
test_speedscope_report (void)
{
  static const char report[] =
    "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,Elapsed Exclusive Time %,"
    "Avg Elapsed Inclusive Time,Avg Elapsed Exclusive Time,Module Name,\n"
    "0,\"demo.exe\",0,100.00,0.00,0.00,0.00,\"\",\n"
    "1,\"main\",1,100.00,17.86,140.00,25.00,\"demo.exe\",\n"
    "2,\"A\",1,53.57,21.43,75.00,30.00,\"demo.exe\",\n"
    "3,\"B\",2,32.14,32.14,22.50,22.50,\"demo.exe\",\n"
    "2,\"C\",1,28.57,21.43,40.00,30.00,\"demo.exe\",\n"
    "3,\"B\",1,7.14,7.14,10.00,10.00,\"demo.exe\",\n";
  /* Each path's open and close, in order */
  static const struct { const char *type; const char *path; double at; } expected[] = {
    { "O", "demo.exe", 0 },
    { "O", "demo.exe;main", 0 },
    { "O", "demo.exe;main;A", 25 },
    { "O", "demo.exe;main;A;B", 55 },
    { "C", "demo.exe;main;A;B", 100 },
    { "C", "demo.exe;main;A", 100 },
    { "O", "demo.exe;main;C", 100 },
    { "O", "demo.exe;main;C;B", 130 },
    { "C", "demo.exe;main;C;B", 140 },
    { "C", "demo.exe;main;C", 140 },
    { "C", "demo.exe;main", 140 },
    { "C", "demo.exe", 140 },
  };
  g_autofree char *dir = g_dir_make_tmp ("perfscope-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "demo_cc.csv", NULL);
  g_autoptr(CliResult) result = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) open = g_ptr_array_new ();
  JsonArray *frames, *profiles, *events;
  JsonObject *profile;

  g_file_set_contents (path, report, -1, &error);
  g_assert_no_error (error);
  result = cli_test_run ("export", path, "--to", "speedscope", NULL);
  g_assert_cmpint (result->status, ==, 0);
  check_speedscope (result->out);

  root = cli_test_parse_json (result->out);
  frames = json_object_get_array_member (json_object_get_object_member (json_node_get_object (root), "shared"), "frames");
  profiles = json_object_get_array_member (json_node_get_object (root), "profiles");
  g_assert_cmpuint (json_array_get_length (profiles), ==, 1);
  profile = json_array_get_object_element (profiles, 0);
  g_assert_cmpstr (json_object_get_string_member (profile, "type"), ==, "evented");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (profile, "endValue"), 140, 1e-9);
  events = json_object_get_array_member (profile, "events");
  g_assert_cmpuint (json_array_get_length (events), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      gint64 frame = json_object_get_int_member (event, "frame");
      const char *name = json_object_get_string_member (json_array_get_object_element (frames, (guint)frame), "name");
      g_autoptr(GString) text = g_string_new (NULL);

      g_assert_cmpstr (json_object_get_string_member (event, "type"), ==, expected[i].type);
      if (strcmp (expected[i].type, "O") == 0)
        g_ptr_array_add (open, (gpointer) name);
      for (guint f = 0; f < open->len; f++)
        g_string_append_printf (text, "%s%s", f > 0 ? ";" : "", (const char *) g_ptr_array_index (open, f));
      g_assert_cmpstr (text->str, ==, expected[i].path);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (event, "at"), expected[i].at, 1e-9);
      if (strcmp (expected[i].type, "C") == 0)
        g_ptr_array_set_size (open, (guint)open->len - 1);
    }

  g_remove (path);
  g_rmdir (dir);
}

/* Exit codes and messages ------------------------------------------------- */

static void
test_usage_and_no_data (void)
{
  g_autofree char *pdh = data_path ("pdh-csv", "logman-pdt.csv");
  g_autofree char *ce = data_path ("ce", "fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *pmcstat = data_path ("pmcstat-callgraph", "simple.txt");
  g_autofree char *rtl = data_path ("rtl", "startup_4711.log");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-export-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (dir, "out.json", NULL);
  g_autoptr(CliResult) unknown = cli_test_run ("export", rtl, "--to", "svg", NULL);
  g_autoptr(CliResult) tree_elsewhere = cli_test_run ("export", rtl, "--to", "speedscope", "--tree", NULL);
  g_autoptr(CliResult) both = cli_test_run ("export", rtl, "--to", "csv", "--tree", "--points", NULL);
  g_autoptr(CliResult) points_elsewhere = cli_test_run ("stats", rtl, "--points", NULL);
  g_autoptr(CliResult) counters_speedscope = cli_test_run ("export", pdh, "--to", "speedscope", "-o", output, NULL);
  g_autoptr(CliResult) ce_trace = cli_test_run ("export", ce, "--to", "chrome-trace", NULL);
  g_autoptr(CliResult) untimed_trace = cli_test_run ("export", pmcstat, "--to", "chrome-trace", NULL);
  g_autoptr(CliResult) no_counters = cli_test_run ("export", rtl, "--to", "csv", "--points", NULL);
  g_autoptr(CliResult) missing = cli_test_run ("export", "missing.log", "--to", "csv", NULL);

  g_assert_cmpint (unknown->status, ==, 2);
  g_assert_nonnull (strstr (unknown->err, "svg"));
  g_assert_nonnull (strstr (unknown->err, "chrome-trace"));
  g_assert_cmpstr (unknown->out, ==, "");
  g_assert_cmpint (tree_elsewhere->status, ==, 2);
  g_assert_cmpint (both->status, ==, 2);
  g_assert_cmpint (points_elsewhere->status, ==, 2);

  /* Nothing the target holds: status 1, a message, no file */
  g_assert_cmpint (counters_speedscope->status, ==, 1);
  g_assert_nonnull (strstr (counters_speedscope->err, "speedscope"));
  g_assert_nonnull (strstr (counters_speedscope->err, "neither spans"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  g_assert_cmpint (ce_trace->status, ==, 1);
  g_assert_cmpstr (ce_trace->out, ==, "");
  g_assert_nonnull (strstr (ce_trace->err, "chrome-trace"));
  g_assert_cmpint (untimed_trace->status, ==, 1);
  g_assert_nonnull (strstr (untimed_trace->err, "no times"));
  g_assert_cmpint (no_counters->status, ==, 1);
  g_assert_nonnull (strstr (no_counters->err, "no performance counters"));
  g_assert_cmpint (missing->status, ==, 1);

  g_rmdir (dir);
}

/* Numbers ------------------------------------------------------------------- */

/* The definition: "%.15g", "%.16g" or "%.17g", the first that reads back;
 * a subnormal, whose fifteen digits are more than it holds, from "%.1g"
 * on ("5e-324") */
static char *
shortest_by_reading_back (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  for (int precision = fpclassify (value) == FP_SUBNORMAL ? 1 : 15; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  return g_strdup (buffer);
}

static void
check_shortest (double value)
{
  g_autofree char *expected = shortest_by_reading_back (value);
  g_autofree char *text = ps_util_format_double (value);

  g_assert_cmpstr (text, ==, expected);
}

/* Short decimals (multiples of a millisecond and the like) take a quicker
 * way than other values: both give the definition's text */
static void
test_shortest_number (void)
{
  static const double powers[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10 };
  static const double edges[] = {
    0.0001, 0.00012, 0.000099, 9.999e-05, 0.1, 0.3, 1.5, 2.675, 0.001, 1.001, 123456789012345.0,
    12345678901234.5, 99999999999999.9, 999999999999999.0, 1e15, 1e16, 0.1 + 0.2, 1.0 / 3.0,
    4.35, 0.000123456789, 1234.000000001, 1e-10, 5e-324, 1.7976931348623157e308,
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      check_shortest (edges[i]);
      check_shortest (-edges[i]);
    }

  /* Whole numbers of thousandths (durations in ms as seconds) and other
   * short decimals, near and past the fifteen digits */
  for (guint i = 0; i < 200000; i++)
    {
      double digits = (double)g_rand_int_range (rand, 1, G_MAXINT32) * (i % 3 == 0 ? g_rand_int_range (rand, 1, 1000000) : 1);
      double value = digits / powers[g_rand_int_range (rand, 0, G_N_ELEMENTS (powers))];

      check_shortest (value);
      check_shortest (-value);
    }

  /* Any double, means and deviations alike */
  for (guint i = 0; i < 100000; i++)
    {
      double value = g_rand_double (rand) * powers[g_rand_int_range (rand, 0, G_N_ELEMENTS (powers))];

      check_shortest (value);
      check_shortest (value * 1e-6);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/csv/writer", test_csv_writer);
  g_test_add_func ("/export/csv/stats", test_csv_stats);
  g_test_add_func ("/export/csv/ce-descriptions", test_csv_ce_descriptions);
  g_test_add_func ("/export/csv/calltree", test_csv_calltree);
  g_test_add_func ("/export/csv/counters", test_csv_counters);
  g_test_add_func ("/export/goldens", test_goldens);
  g_test_add_func ("/export/speedscope/round-trip", test_speedscope_round_trip);
  g_test_add_func ("/export/speedscope/report", test_speedscope_report);
  g_test_add_func ("/export/usage", test_usage_and_no_data);
  g_test_add_func ("/export/number/shortest", test_shortest_number);

  return g_test_run ();
}
