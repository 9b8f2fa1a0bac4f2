/* test-cli.c — perfscope-cli run as a user would
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (commands, exit codes, JSON fields), ce-perflog.md §6
 * (the example file and its expected statistics). The binary comes from
 * the PERFSCOPE_CLI environment variable set by tests/meson.build.
 */
#define _GNU_SOURCE

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cli-test-util.h"
#include "ps-loader.h"
#include "ps-native-writer.h"
#include "ps-perflib-block.h"
#include "ps-plv2.h"

#ifdef __linux__
# include <fcntl.h>
# include <signal.h>
# include <stdlib.h>
# include <sys/ioctl.h>
# include <termios.h>
# include <unistd.h>
#endif

#define EXAMPLE_LOG "fsperf_CEPC_x86_6_0_3122.log"

/* Golden numbers are written with 12 significant digits */
#define RELATIVE_TOLERANCE 1e-9

#define TICKS_PER_SECOND 1193180.0

static const char *
cli_path (void)
{
  const char *path = g_getenv ("PERFSCOPE_CLI");

  g_assert_nonnull (path);
  return path;
}

static char *
example_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "ce", EXAMPLE_LOG, NULL);
}

static JsonNode *
load_golden (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "cli", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);

  return cli_test_parse_json (text);
}

/* Writes a constructed log with CR LF line ends into a temporary directory */
static char *
write_temp_log (const char         *dir,
                const char         *name,
                const char * const *lines)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (text, "%s\r\n", lines[i]);
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);

  return path;
}

/* Structural comparison. Numbers agree within RELATIVE_TOLERANCE; in the
 * expected tree the strings "<number>" and "<string>" match any number
 * or string. Objects must have the same members. */
static gboolean
json_matches (JsonNode   *expected,
              JsonNode   *actual,
              const char *where)
{
  JsonNodeType type = json_node_get_node_type (expected);

  if (type == JSON_NODE_VALUE && json_node_get_value_type (expected) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (expected);

      if (g_strcmp0 (text, "<number>") == 0)
        {
          GType actual_type = JSON_NODE_HOLDS_VALUE (actual) ? json_node_get_value_type (actual) : G_TYPE_INVALID;

          if (actual_type != G_TYPE_INT64 && actual_type != G_TYPE_DOUBLE)
            {
              g_test_message ("%s: expected a number", where);
              return FALSE;
            }
          return TRUE;
        }
      if (g_strcmp0 (text, "<string>") == 0)
        {
          if (!JSON_NODE_HOLDS_VALUE (actual) || json_node_get_value_type (actual) != G_TYPE_STRING)
            {
              g_test_message ("%s: expected a string", where);
              return FALSE;
            }
          return TRUE;
        }
    }

  if (json_node_get_node_type (actual) != type)
    {
      g_test_message ("%s: expected node type %d, got %d", where, type, json_node_get_node_type (actual));
      return FALSE;
    }

  switch (type)
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *e = json_node_get_object (expected);
        JsonObject *a = json_node_get_object (actual);
        g_autoptr(GList) expected_members = json_object_get_members (e);
        g_autoptr(GList) actual_members = json_object_get_members (a);
        gboolean ok = TRUE;

        for (const GList *l = actual_members; l != NULL; l = l->next)
          if (!json_object_has_member (e, l->data))
            {
              g_test_message ("%s: unexpected member “%s”", where, (const char *)l->data);
              ok = FALSE;
            }
        for (const GList *l = expected_members; l != NULL; l = l->next)
          {
            g_autofree char *inner = g_strdup_printf ("%s.%s", where, (const char *)l->data);

            if (!json_object_has_member (a, l->data))
              {
                g_test_message ("%s: missing", inner);
                ok = FALSE;
                continue;
              }
            if (!json_matches (json_object_get_member (e, l->data), json_object_get_member (a, l->data), inner))
              ok = FALSE;
          }
        return ok;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *e = json_node_get_array (expected);
        JsonArray *a = json_node_get_array (actual);
        gboolean ok = TRUE;

        if (json_array_get_length (e) != json_array_get_length (a))
          {
            g_test_message ("%s: expected %u elements, got %u", where,
                            json_array_get_length (e), json_array_get_length (a));
            return FALSE;
          }
        for (guint i = 0; i < json_array_get_length (e); i++)
          {
            g_autofree char *inner = g_strdup_printf ("%s[%u]", where, i);

            if (!json_matches (json_array_get_element (e, i), json_array_get_element (a, i), inner))
              ok = FALSE;
          }
        return ok;
      }

    case JSON_NODE_VALUE:
      {
        GType e_type = json_node_get_value_type (expected);
        GType a_type = json_node_get_value_type (actual);
        gboolean e_number = e_type == G_TYPE_INT64 || e_type == G_TYPE_DOUBLE;
        gboolean a_number = a_type == G_TYPE_INT64 || a_type == G_TYPE_DOUBLE;

        if (e_number && a_number)
          {
            double e_value = json_node_get_double (expected);
            double a_value = json_node_get_double (actual);
            double scale = MAX (fabs (e_value), 1e-300);

            if (fabs (e_value - a_value) / scale > RELATIVE_TOLERANCE)
              {
                g_test_message ("%s: expected %.17g, got %.17g", where, e_value, a_value);
                return FALSE;
              }
            return TRUE;
          }
        if (e_type != a_type)
          {
            g_test_message ("%s: expected value type %s, got %s", where, g_type_name (e_type), g_type_name (a_type));
            return FALSE;
          }
        if (e_type == G_TYPE_STRING && g_strcmp0 (json_node_get_string (expected), json_node_get_string (actual)) != 0)
          {
            g_test_message ("%s: expected “%s”, got “%s”", where,
                            json_node_get_string (expected), json_node_get_string (actual));
            return FALSE;
          }
        if (e_type == G_TYPE_BOOLEAN && json_node_get_boolean (expected) != json_node_get_boolean (actual))
          {
            g_test_message ("%s: expected %d, got %d", where,
                            json_node_get_boolean (expected), json_node_get_boolean (actual));
            return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

static void
assert_matches_golden (const char *golden_name,
                       const char *output)
{
  g_autoptr(JsonNode) expected = load_golden (golden_name);
  g_autoptr(JsonNode) actual = cli_test_parse_json (output);

  if (!json_matches (expected, actual, "$"))
    {
      g_test_message ("output:\n%s", output);
      g_test_fail ();
    }
}

/* The series of a stats output whose name and instance match, or NULL */
static JsonObject *
find_series (JsonNode   *root,
             const char *name,
             gint64      instance)
{
  JsonArray *series = json_object_get_array_member (json_node_get_object (root), "series");

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);

      if (g_strcmp0 (json_object_get_string_member (object, "name"), name) == 0
          && json_object_get_int_member (object, "instance") == instance)
        return object;
    }

  return NULL;
}

static void
assert_close (double actual,
              double expected)
{
  g_assert_cmpfloat_with_epsilon (actual, expected, fabs (expected) * RELATIVE_TOLERANCE);
}

static void
assert_usage_error (CliResult *result)
{
  g_assert_cmpint (result->status, ==, 2);
  g_assert_cmpstr (result->out, ==, "");
  /* The message comes with a hint where to look */
  g_assert_nonnull (strstr (result->err, "--help"));
}

/* info */

static void
test_info_golden (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("info", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  assert_matches_golden ("info-fsperf.json", result->out);
}

static void
test_info_several (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("info", path, path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *array;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  array = json_node_get_array (root);
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *info = json_array_get_object_element (array, i);

      g_assert_cmpstr (json_object_get_string_member (info, "file"), ==, EXAMPLE_LOG);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (info, "counts"), "measurements"), ==, 13);
    }
}

/* "-" is the standard input, once */
static void
test_info_stdin (void)
{
  g_autofree char *path = example_path ();
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(CliResult) from_stdin = NULL;
  g_autoptr(CliResult) from_file = NULL;
  g_autoptr(CliResult) twice = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *info;
  const char * const info_args[] = { "info", "-", NULL };
  const char * const diff_args[] = { "diff", "-", "-", NULL };

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  input = g_bytes_new (contents, length);
  from_stdin = cli_test_run_argv_with_input (info_args, input);
  g_assert_cmpint (from_stdin->status, ==, 0);
  root = cli_test_parse_json (from_stdin->out);
  info = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (info, "file"), ==, "-");
  g_assert_cmpstr (json_object_get_string_member (info, "format"), ==, "ce-perflog");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (info, "counts"), "measurements"), ==, 13);

  /* The same statistics as from the file */
  {
    const char * const stats_args[] = { "stats", "-", NULL };
    g_autoptr(CliResult) stats = cli_test_run_argv_with_input (stats_args, input);

    from_file = cli_test_run ("stats", path, NULL);
    g_assert_cmpint (stats->status, ==, 0);
    g_assert_cmpint (from_file->status, ==, 0);
    g_assert_nonnull (strstr (from_file->out, "\"series\""));
    g_assert_cmpstr (strstr (stats->out, "\"series\""), ==, strstr (from_file->out, "\"series\""));
  }

  /* Refused before reading anything: given no input, so that writing to
   * a process that has ended cannot kill the test (SIGPIPE) */
  twice = cli_test_run_argv (diff_args);
  assert_usage_error (twice);
  g_assert_nonnull (strstr (twice->err, "standard input"));
}

static void
test_info_text (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("info", "--text", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, EXAMPLE_LOG));
  g_assert_nonnull (strstr (result->out, "ce-perflog"));
  g_assert_true (g_regex_match_simple ("RESOLUTION +1193180", result->out, 0, 0));
  g_assert_true (g_regex_match_simple ("Measurements +13", result->out, 0, 0));
  g_assert_true (g_regex_match_simple ("Size: +.*1528 bytes", result->out, 0, 0));
  /* Not JSON */
  g_assert_null (strstr (result->out, "{"));
}

static void
test_info_warnings (void)
{
  static const char * const lines[] = {
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]",
    "## PERF ## REGISTERED APP [t] PROCCESSID [0x1]",
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND",
    "## PERF ## APP [t] EVT [7] DUR [5]",
    NULL,
  };
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp_log (dir, "unregistered.log", lines);
  g_autoptr(CliResult) result = cli_test_run ("info", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *info;
  JsonArray *warnings;
  gboolean found = FALSE;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  info = json_node_get_object (root);
  warnings = json_object_get_array_member (info, "warnings");
  g_assert_cmpint (json_object_get_int_member (info, "warnings_total"), ==, json_array_get_length (warnings));
  for (guint i = 0; i < json_array_get_length (warnings); i++)
    {
      JsonObject *warning = json_array_get_object_element (warnings, i);

      g_assert_true (json_object_has_member (warning, "message"));
      g_assert_true (json_object_has_member (warning, "severity"));
      if (g_strcmp0 (json_object_get_string_member (warning, "code"), "W-UNREGISTERED") == 0)
        {
          g_assert_cmpint (json_object_get_int_member (warning, "line"), ==, 4);
          found = TRUE;
        }
    }
  g_assert_true (found);

  g_unlink (path);
  g_rmdir (dir);
}

/* RTL logfile: the example of rtl-logfile.md §6 */

static char *
rtl_example_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "rtl", "startup_4711.log", NULL);
}

static void
test_rtl_info_golden (void)
{
  g_autofree char *path = rtl_example_path ();
  g_autoptr(CliResult) result = cli_test_run ("info", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  assert_matches_golden ("info-startup.json", result->out);
}

static void
test_rtl_stats_golden (void)
{
  g_autofree char *path = rtl_example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", path, NULL);
  g_autoptr(CliResult) text = cli_test_run ("stats", "--text", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  assert_matches_golden ("stats-startup.json", result->out);

  /* Seconds with six decimals, self time, the logical scope's context */
  g_assert_cmpint (text->status, ==, 0);
  g_assert_true (g_regex_match_simple ("Self \\(s\\)", text->out, 0, 0));
  g_assert_true (g_regex_match_simple ("^ +0 +1 +1 +2\\.007000 .* 1\\.037000 +0 +0 +desktop \\(ab123456\\) ::desktop::Desktop::Main *$",
                                       text->out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("register services +desktop \\(ab123456\\) ::desktop::Desktop::Main$",
                                       text->out, G_REGEX_MULTILINE, 0));
}

static JsonObject *
find_span_series (JsonNode   *root,
                  const char *name,
                  gint64      thread)
{
  JsonArray *series = json_object_get_array_member (json_node_get_object (root), "series");

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);
      JsonArray *threads = json_object_get_array_member (object, "threads");

      if (g_strcmp0 (json_object_get_string_member (object, "name"), name) == 0
          && (thread < 0 || json_array_get_int_element (threads, 0) == thread))
        return object;
    }

  return NULL;
}

static void
test_rtl_stats_per_thread_and_filters (void)
{
  static const char * const lines[] = {
    "000010 1 { sw (ab000001) ::SwA",
    "000011 2 { sw (ab000001) ::SwA",
    "000020 1 } sw (ab000001) ::SwA",
    "000041 2 } sw (ab000001) ::SwA",
    "000050 1 { sch (cd000002) ::SchB",
    "000060 1 } sch (cd000002) ::SchB",
    NULL,
  };
  static const char * const filter_lines[] = {
    "# the drawing module is not of interest",
    "",
    "^sch\\b",
    NULL,
  };
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp_log (dir, "soffice_77.log", lines);
  g_autofree char *exclude_path = write_temp_log (dir, "exclude.txt", filter_lines);
  g_autoptr(CliResult) all = cli_test_run ("stats", path, NULL);
  g_autoptr(CliResult) per_thread = cli_test_run ("stats", "--per-thread", path, NULL);
  g_autoptr(CliResult) excluded = cli_test_run ("stats", "--exclude-file", exclude_path, path, NULL);
  g_autoptr(CliResult) included = cli_test_run ("stats", "--include", "\\(cd000002\\)", path, NULL);
  g_autoptr(CliResult) bad = cli_test_run ("stats", "--include", "(unclosed", path, NULL);
  g_autoptr(CliResult) wrong_command = cli_test_run ("info", "--per-thread", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *series;

  g_assert_cmpint (all->status, ==, 0);
  root = cli_test_parse_json (all->out);
  series = find_span_series (root, "sw (ab000001) ::SwA", -1);
  g_assert_nonnull (series);
  g_assert_cmpint (json_object_get_int_member (series, "count"), ==, 2);
  assert_close (json_object_get_double_member (series, "sum"), 0.040);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (series, "threads")), ==, 2);
  g_clear_pointer (&root, json_node_unref);

  g_assert_cmpint (per_thread->status, ==, 0);
  root = cli_test_parse_json (per_thread->out);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (root), "per_thread"));
  assert_close (json_object_get_double_member (find_span_series (root, "sw (ab000001) ::SwA", 1), "sum"), 0.010);
  assert_close (json_object_get_double_member (find_span_series (root, "sw (ab000001) ::SwA", 2), "sum"), 0.030);
  g_clear_pointer (&root, json_node_unref);

  g_assert_cmpint (excluded->status, ==, 0);
  root = cli_test_parse_json (excluded->out);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (root), "filtered"));
  g_assert_nonnull (find_span_series (root, "sw (ab000001) ::SwA", -1));
  g_assert_null (find_span_series (root, "sch (cd000002) ::SchB", -1));
  g_clear_pointer (&root, json_node_unref);

  g_assert_cmpint (included->status, ==, 0);
  root = cli_test_parse_json (included->out);
  g_assert_null (find_span_series (root, "sw (ab000001) ::SwA", -1));
  g_assert_nonnull (find_span_series (root, "sch (cd000002) ::SchB", -1));

  assert_usage_error (bad);
  g_assert_nonnull (strstr (bad->err, "(unclosed"));
  assert_usage_error (wrong_command);

  g_unlink (path);
  g_unlink (exclude_path);
  g_rmdir (dir);
}

/* Statistics without filters need only the totals, which the RTL parser
 * sums up as it reads without keeping the scopes; with an event limit the
 * store keeps them all. Both give the same output, repairs included. */
static void
test_rtl_stats_totals_only (void)
{
  static const char * const lines[] = {
    "opening log file 1246545872.402817 seconds past January 1st 1970",
    "corresponding to 0 ms after timer start",
    "Process id is 88",
    "000001 1 { sw (ab000001) ::SwA",
    "000002 1 | sw (ab000001) ::SwA : { load start: doc",
    "000003 1 { sc (cd000002) ::ScB",
    "000007 1 | sw (ab000001) ::SwA : } load start: doc",
    "000009 1 } sc (cd000002) ::ScB",
    "000004 2 { sc (cd000002) ::ScB",
    "000010 2 { xx (ef000003) ::Never",
    "000012 2 } sc (cd000002) ::ScB",
    "000013 2 } nothing open",
    "000020 1 } sw (ab000001) ::SwA",
    "000015 1 { sw (ab000001) ::SwA",
    "000016 1 | : a message",
    "000018 1 } sw (ab000001) ::SwA",
    "000030 3 { sc (cd000002) ::ScB",
    "closing log file at 000040",
    "opening log file 1246545900.5 seconds past January 1st 1970",
    "000001 9 { sw (ab000001) ::SwA",
    "000003 9 } sw (ab000001) ::SwA",
    NULL,
  };
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp_log (dir, "soffice_88.log", lines);
  g_autoptr(CliResult) totals = cli_test_run ("stats", path, NULL);
  g_autoptr(CliResult) kept = cli_test_run ("stats", "--max-events", "1000000", path, NULL);
  g_autoptr(CliResult) totals_text = cli_test_run ("stats", "--text", path, NULL);
  g_autoptr(CliResult) kept_text = cli_test_run ("stats", "--text", "--max-events", "1000000", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *series;

  g_assert_cmpint (totals->status, ==, 0);
  g_assert_cmpint (kept->status, ==, 0);
  g_assert_cmpstr (totals->out, ==, kept->out);
  g_assert_cmpstr (totals->err, ==, kept->err);
  g_assert_cmpint (totals_text->status, ==, 0);
  g_assert_cmpstr (totals_text->out, ==, kept_text->out);

  root = cli_test_parse_json (totals->out);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (root), "complete"));
  /* The first session's: two on thread 1, of 19 ms and 3 ms (the second
   * session's scope on thread 9 has a series of its own) */
  series = find_span_series (root, "sw (ab000001) ::SwA", -1);
  g_assert_nonnull (series);
  g_assert_cmpint (json_object_get_int_member (series, "count"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (series, "sum"), ==, 0.022);
  /* The logical scope ended under ScB, which counts in its self time */
  series = find_span_series (root, "load start: doc", -1);
  g_assert_nonnull (series);
  g_assert_cmpfloat (json_object_get_double_member (series, "sum"), ==, 0.005);
  g_assert_cmpfloat (json_object_get_double_member (series, "self_sum"), ==, -0.001);

  g_unlink (path);
  g_rmdir (dir);
}

/* stats */

static void
test_stats_golden (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  assert_matches_golden ("stats-fsperf.json", result->out);
}

static void
test_stats_spec_table (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", "--json", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *series;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);

  /* ce-perflog.md §6: the 119318/121004 samples are not part of the
   * 4096-byte instance */
  series = find_series (root, "Test=WriteFile,Bytes=4096,time=%AVG%", 1);
  g_assert_nonnull (series);
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "s");
  g_assert_cmpint (json_object_get_int_member (series, "count"), ==, 2);
  assert_close (json_object_get_double_member (series, "sum"), 24341 / TICKS_PER_SECOND);
  assert_close (json_object_get_double_member (series, "mean"), 24341 / 2.0 / TICKS_PER_SECOND);
  assert_close (json_object_get_double_member (series, "min"), 11931 / TICKS_PER_SECOND);
  assert_close (json_object_get_double_member (series, "max"), 12410 / TICKS_PER_SECOND);

  series = find_series (root, "Test=WriteFile,Bytes=65536,time=%AVG%", 2);
  g_assert_nonnull (series);
  g_assert_cmpint (json_object_get_int_member (series, "id"), ==, 1);
  assert_close (json_object_get_double_member (json_object_get_object_member (series, "ticks"), "sum"), 240322);

  series = find_series (root, "Test=CreateFile,Files=100,time=%AVG%", 1);
  g_assert_nonnull (series);
  assert_close (json_object_get_double_member (json_object_get_object_member (series, "ticks"), "mean"), 136199 / 3.0);
  g_assert_cmpstr (json_object_get_string_member (series, "expanded"), ==, "Test=CreateFile,Files=100,time=0.038049");
}

/* Doubles are written in their shortest round-trip form */
static void
test_stats_number_text (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  /* 119318 / 1193180 is 0.1 exactly in decimal */
  g_assert_nonnull (strstr (result->out, "\"min\": 0.1,"));
  g_assert_nonnull (strstr (result->out, "\"mean\": 12170.5,"));
  g_assert_nonnull (strstr (result->out, "\"sum\": 24341,"));
  /* No %.17g noise such as 0.10000000000000001 */
  g_assert_null (strstr (result->out, "0000000000"));
  g_assert_null (strstr (result->out, "9999999999"));
}

static void
test_stats_text (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", "--text", path, NULL);
  g_auto(GStrv) lines = NULL;
  gboolean found = FALSE;

  g_assert_cmpint (result->status, ==, 0);
  /* Units are in the headers */
  g_assert_nonnull (strstr (result->out, "Mean (s)"));
  g_assert_nonnull (strstr (result->out, "Mean (percent)"));
  g_assert_nonnull (strstr (result->out, "Mean (bytes)"));
  g_assert_nonnull (strstr (result->out, "Sum (ticks)"));

  lines = g_strsplit (result->out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cells = NULL;

      if (strstr (lines[i], "Test=WriteFile,Bytes=4096,time=%AVG%") == NULL)
        continue;
      found = TRUE;
      cells = g_regex_split_simple (" +", g_strstrip (lines[i]), 0, 0);
      /* Session, app, id, instance, count, sum, min, max, mean */
      g_assert_cmpuint (g_strv_length (cells), >=, 9);
      g_assert_cmpstr (cells[0], ==, "0");
      g_assert_cmpstr (cells[1], ==, "fsperf");
      g_assert_cmpstr (cells[2], ==, "1");
      g_assert_cmpstr (cells[3], ==, "1");
      g_assert_cmpstr (cells[4], ==, "2");
      g_assert_cmpstr (cells[5], ==, "0.020400");
      g_assert_cmpstr (cells[8], ==, "0.010200");
      g_assert_true (g_strv_contains ((const char * const *)cells, "24341"));
      g_assert_true (g_strv_contains ((const char * const *)cells, "Test=WriteFile,Bytes=4096,time=0.010200"));
    }
  g_assert_true (found);
  g_assert_true (g_regex_match_simple ("fsperf +103 +1 +2 +149\\.375 +61\\.250 +88\\.125 +74\\.688", result->out, 0, 0));
  g_assert_true (g_regex_match_simple ("fsperf +102 +1 +2 +20217856 +10059776 +10158080 +10108928", result->out, 0, 0));
}

static const char * const repeated_lines[] = {
  "## PERF ## OSVERSION=[6.0] BUILD=[3122]",
  "## PERF ## REGISTERED APP [disk] PROCCESSID [0x2]",
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND",
  "## PERF ## REGISTERED MARKER [Test=Disk,time=%AVG%] AS [5] BY APP [disk]",
  "## PERF ## APP [disk] EVT [5] DUR [100]",
  "## PERF ## REGISTERED MARKER [Test=Disk,time=%AVG%] AS [5] BY APP [disk]",
  "## PERF ## APP [disk] EVT [5] DUR [200]",
  "## PERF ## REGISTERED MARKER [Test=Disk,time=%AVG%] AS [5] BY APP [disk]",
  "## PERF ## APP [disk] EVT [5] DUR [600]",
  "## PERF ## APP [disk] EVT [5] DUR [-3]",
  NULL,
};

static void
test_stats_group_by_name (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp_log (dir, "disk.log", repeated_lines);
  g_autoptr(CliResult) plain = cli_test_run ("stats", path, NULL);
  g_autoptr(CliResult) grouped = cli_test_run ("stats", path, "--group-by-name", NULL);
  g_autoptr(CliResult) text = cli_test_run ("stats", "--group-by-name", "--text", path, NULL);
  g_autoptr(JsonNode) plain_root = NULL;
  g_autoptr(JsonNode) grouped_root = NULL;
  JsonArray *series;
  JsonObject *group;

  g_assert_cmpint (plain->status, ==, 0);
  plain_root = cli_test_parse_json (plain->out);
  series = json_object_get_array_member (json_node_get_object (plain_root), "series");
  g_assert_cmpuint (json_array_get_length (series), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *instance = json_array_get_object_element (series, i);

      g_assert_cmpint (json_object_get_int_member (instance, "instance"), ==, i + 1);
      g_assert_cmpint (json_object_get_int_member (instance, "count"), ==, 1);
    }

  g_assert_cmpint (grouped->status, ==, 0);
  grouped_root = cli_test_parse_json (grouped->out);
  series = json_object_get_array_member (json_node_get_object (grouped_root), "series");
  g_assert_cmpuint (json_array_get_length (series), ==, 1);
  group = json_array_get_object_element (series, 0);
  g_assert_cmpstr (json_object_get_string_member (group, "name"), ==, "Test=Disk,time=%AVG%");
  g_assert_cmpint (json_object_get_int_member (group, "instance"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (group, "instances"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (group, "count"), ==, 3);
  /* 100, 200 and 600 ticks at 1000 Hz; the negative value is left out */
  assert_close (json_object_get_double_member (group, "sum"), 0.9);
  assert_close (json_object_get_double_member (group, "mean"), 0.3);
  assert_close (json_object_get_double_member (group, "median"), 0.2);
  g_assert_cmpint (json_object_get_int_member (group, "excluded"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (group, "expanded"), ==, "Test=Disk,time=0.300000");

  g_assert_cmpint (text->status, ==, 0);
  g_assert_nonnull (strstr (text->out, "Instances"));
  g_assert_true (g_regex_match_simple ("disk +5 +3 +3 +0\\.900000", text->out, 0, 0));

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_stats_include_negative (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp_log (dir, "disk.log", repeated_lines);
  g_autoptr(CliResult) result = cli_test_run ("stats", "--include-negative", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *last;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  last = find_series (root, "Test=Disk,time=%AVG%", 3);
  g_assert_nonnull (last);
  g_assert_cmpint (json_object_get_int_member (last, "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (last, "excluded"), ==, 0);
  assert_close (json_object_get_double_member (last, "min"), -0.003);
  assert_close (json_object_get_double_member (json_object_get_object_member (last, "ticks"), "sum"), 597);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_stats_tick_rate (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", "--tick-rate", "1000", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *series;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  series = find_series (root, "Test=WriteFile,Bytes=4096,time=%AVG%", 1);
  g_assert_nonnull (series);
  assert_close (json_object_get_double_member (series, "mean"), 12.1705);
  g_assert_cmpstr (json_object_get_string_member (series, "expanded"), ==, "Test=WriteFile,Bytes=4096,time=12.170500");
}

/* ce-perflog.md §7 #5: without RESOLUTION durations stay in ticks */
static void
test_stats_no_resolution (void)
{
  static const char * const lines[] = {
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]",
    "## PERF ## REGISTERED APP [t] PROCCESSID [0x1]",
    "## PERF ## REGISTERED MARKER [Test=A,time=%AVG%] AS [1] BY APP [t]",
    "## PERF ## APP [t] EVT [1] DUR [40]",
    "## PERF ## APP [t] EVT [1] DUR [60]",
    NULL,
  };
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = write_temp_log (dir, "nores.log", lines);
  g_autoptr(CliResult) result = cli_test_run ("stats", path, NULL);
  g_autoptr(CliResult) override = cli_test_run ("stats", path, "--tick-rate", "100", NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) override_root = NULL;
  JsonObject *series;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  series = find_series (root, "Test=A,time=%AVG%", 1);
  g_assert_nonnull (series);
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "ticks");
  g_assert_false (json_object_has_member (series, "ticks"));
  assert_close (json_object_get_double_member (series, "mean"), 50);
  g_assert_cmpstr (json_object_get_string_member (series, "expanded"), ==, "Test=A,time=%AVG%");

  g_assert_cmpint (override->status, ==, 0);
  override_root = cli_test_parse_json (override->out);
  series = find_series (override_root, "Test=A,time=%AVG%", 1);
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "s");
  assert_close (json_object_get_double_member (series, "mean"), 0.5);

  g_unlink (path);
  g_rmdir (dir);
}

/* formats */

static void
test_formats (void)
{
  g_autoptr(CliResult) result = cli_test_run ("formats", NULL);
  g_autoptr(CliResult) text = cli_test_run ("formats", "--text", NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *formats;
  gboolean found = FALSE;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  formats = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (formats); i++)
    {
      JsonObject *format = json_array_get_object_element (formats, i);

      g_assert_true (json_object_has_member (format, "display_name"));
      g_assert_true (json_object_has_member (format, "description"));
      if (g_strcmp0 (json_object_get_string_member (format, "name"), "ce-perflog") == 0)
        {
          JsonArray *extensions = json_object_get_array_member (format, "extensions");

          g_assert_cmpuint (json_array_get_length (extensions), >=, 1);
          g_assert_cmpstr (json_array_get_string_element (extensions, 0), ==, "log");
          found = TRUE;
        }
    }
  g_assert_true (found);

  g_assert_cmpint (text->status, ==, 0);
  g_assert_true (g_regex_match_simple ("^ce-perflog +", text->out, G_REGEX_MULTILINE, 0));
}

/* --format forces a format on content that would not be recognised */
static void
test_format_forced (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(CliResult) sniffed = NULL;
  g_autoptr(CliResult) forced = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, "just some notes\nnothing to see\n", -1, &error);
  g_assert_no_error (error);

  sniffed = cli_test_run ("info", path, NULL);
  g_assert_cmpint (sniffed->status, ==, 1);

  /* Nothing of it is a CE PerfLog: not one, and why (docs/cli.md, status 1) */
  forced = cli_test_run ("info", "--format", "ce-perflog", path, NULL);
  g_assert_cmpint (forced->status, ==, 1);
  g_assert_cmpstr (forced->out, ==, "");
  g_assert_nonnull (strstr (forced->err, "Not a “ce-perflog” file: 2 lines without “## PERF ##” were ignored"));

  g_unlink (path);
  g_rmdir (dir);
}

/* Exit 1: the file cannot be read or is no known format */

static void
test_exit_missing_file (void)
{
  g_autoptr(CliResult) info = cli_test_run ("info", "/nonexistent/perfscope/missing.log", NULL);
  g_autoptr(CliResult) stats = cli_test_run ("stats", "/nonexistent/perfscope/missing.log", NULL);

  g_assert_cmpint (info->status, ==, 1);
  g_assert_nonnull (strstr (info->err, "missing.log"));
  g_assert_cmpint (stats->status, ==, 1);
  g_assert_nonnull (strstr (stats->err, "missing.log"));
  g_assert_cmpstr (stats->out, ==, "");
}

static void
test_exit_not_a_log (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "picture.log", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.log", NULL);
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
  g_autoptr(CliResult) result = NULL;
  g_autoptr(CliResult) empty_result = NULL;
  g_autoptr(CliResult) directory = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *)png, sizeof png, &error);
  g_assert_no_error (error);
  g_file_set_contents (empty, "", 0, &error);
  g_assert_no_error (error);

  result = cli_test_run ("stats", path, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "picture.log"));
  g_assert_cmpstr (result->out, ==, "");

  empty_result = cli_test_run ("info", empty, NULL);
  g_assert_cmpint (empty_result->status, ==, 1);
  g_assert_nonnull (strstr (empty_result->err, "empty.log"));

  directory = cli_test_run ("info", dir, NULL);
  g_assert_cmpint (directory->status, ==, 1);

  g_unlink (path);
  g_unlink (empty);
  g_rmdir (dir);
}

/* One unreadable file among several: the others are still described */
static void
test_exit_info_mixed (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("info", path, "/nonexistent/perfscope/missing.log", NULL);
  g_autoptr(JsonNode) root = NULL;

  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "missing.log"));
  root = cli_test_parse_json (result->out);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (root)), ==, 1);
}

/* Exit 2: bad usage */

static void
test_usage_errors (void)
{
  g_autofree char *path = example_path ();
  const char *cases[][5] = {
    { NULL },                                           /* no command */
    { "frobnicate", path, NULL },                       /* unknown command */
    { "info", NULL },                                   /* no file */
    { "stats", NULL },
    { "stats", path, path, NULL },                      /* one file only */
    { "formats", path, NULL },
    { "info", "--bogus-option", path, NULL },
    { "info", "--format", "no-such-format", path, NULL },
    { "info", "--json", "--text", path, NULL },
    { "stats", "--tick-rate", "fast", path, NULL },
    { "stats", "--tick-rate", "0", path, NULL },
    { "info", "--group-by-name", path, NULL },
    { "counters", NULL },                               /* no file */
    { "counters", path, path, NULL },                   /* one file only */
    { "diff", path, NULL },                             /* two files */
    { "diff", path, path, path, NULL },
    { "stats", "--rename", "a=b", path, NULL },         /* diff only */
    { "diff", "--rename", "nothing", path, NULL },       /* no "=" */
    { "diff", "--min-change=abc", path, path, NULL },   /* not a number */
    { "diff", "--min-change=-5", path, path, NULL },    /* negative */
    { "diff", "--noise-floor=101", path, path, NULL },  /* above 100 % */
    { "diff", "--noise-floor=", path, path, NULL },
    { "stats", "--min-change=5", path, NULL },          /* diff only */
    { "stats", "--noise-floor", "5", path, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CliResult) result = cli_test_run_argv (cases[i]);

      g_test_message ("case %u: %s", i, cases[i][0] ? cases[i][0] : "(none)");
      assert_usage_error (result);
    }
}

static void
test_usage_unknown_format (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("stats", "--format", "pdf", path, NULL);

  assert_usage_error (result);
  g_assert_nonnull (strstr (result->err, "pdf"));
  /* The message lists what is known */
  g_assert_nonnull (strstr (result->err, "ce-perflog"));
}

/* record -o: the run is saved in the native format, and info reopens it
 * (sniffed, no --format) with the same counters */
static void
test_record_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-record-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "run.perfscope", NULL);
  g_autoptr(CliResult) recorded = NULL;
  g_autoptr(CliResult) counters = NULL;
  g_autoptr(CliResult) info = NULL;
  g_autoptr(JsonNode) recorded_root = NULL;
  g_autoptr(JsonNode) counters_root = NULL;
  g_autoptr(JsonNode) info_root = NULL;
  JsonArray *recorded_series, *reopened_series;
  JsonObject *counts;

  recorded = cli_test_run ("record", "--backend", "procfs", "--interval-ms", "50", "--duration", "0.5",
                           "-o", out, NULL);
  g_assert_cmpint (recorded->status, ==, 0);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));

  info = cli_test_run ("info", out, NULL);
  g_assert_cmpint (info->status, ==, 0);
  info_root = cli_test_parse_json (info->out);
  /* A saved run, and the format of origin kept */
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (info_root), "format"), ==, "perfscope");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (info_root), "origin"), ==, "procfs");
  g_assert_true (json_object_get_boolean_member (json_node_get_object (info_root), "complete"));
  counts = json_object_get_object_member (json_node_get_object (info_root), "counts");
  g_assert_nonnull (counts);

  /* The counters of the saved run are those printed while recording */
  counters = cli_test_run ("counters", out, NULL);
  g_assert_cmpint (counters->status, ==, 0);
  recorded_root = cli_test_parse_json (recorded->out);
  counters_root = cli_test_parse_json (counters->out);
  recorded_series = json_object_get_array_member (json_node_get_object (recorded_root), "series");
  reopened_series = json_object_get_array_member (json_node_get_object (counters_root), "series");
  g_assert_cmpuint (json_array_get_length (recorded_series), >, 0);
  g_assert_cmpuint (json_array_get_length (recorded_series), ==, json_array_get_length (reopened_series));
  for (guint i = 0; i < json_array_get_length (recorded_series); i++)
    {
      g_autofree char *a = json_to_string (json_array_get_element (recorded_series, i), FALSE);
      g_autofree char *b = json_to_string (json_array_get_element (reopened_series, i), FALSE);

      g_assert_cmpstr (a, ==, b);
    }

  g_unlink (out);
  g_rmdir (dir);

  /* A folder that does not exist is refused before recording starts */
  {
    g_autofree char *missing = g_build_filename (dir, "gone", "run.perfscope", NULL);
    g_autoptr(CliResult) refused = cli_test_run ("record", "--backend", "procfs", "--duration", "60", "-o", missing, NULL);

    g_assert_cmpint (refused->status, ==, 1);
    g_assert_nonnull (strstr (refused->err, "cannot be written"));
  }
}

/* record: a backend this build has no plugin for is a usage error that
 * names the loaded ones */
static void
test_record_unknown_backend (void)
{
  g_autoptr(CliResult) result = cli_test_run ("record", "--backend", "no-such-backend", "--duration", "1", NULL);

  assert_usage_error (result);
  g_assert_nonnull (strstr (result->err, "no-such-backend"));
  g_assert_nonnull (strstr (result->err, "procfs"));
}

#ifdef __linux__
/* Whether a thread of pid named name runs within 20 s */
static gboolean
wait_for_thread (pid_t       pid,
                 const char *name)
{
  g_autofree char *task_path = g_strdup_printf ("/proc/%d/task", (int)pid);

  for (guint attempt = 0; attempt < 2000; attempt++)
    {
      g_autoptr(GDir) tasks = g_dir_open (task_path, 0, NULL);
      const char *task;

      while (tasks != NULL && (task = g_dir_read_name (tasks)) != NULL)
        {
          g_autofree char *comm_path = g_build_filename (task_path, task, "comm", NULL);
          g_autofree char *comm = NULL;

          if (g_file_get_contents (comm_path, &comm, NULL, NULL) && g_str_equal (g_strchomp (comm), name))
            return TRUE;
        }
      g_usleep (10 * 1000);
    }
  return FALSE;
}

/* A recorder stopped for 400 ms (SIGSTOP, as a machine too busy to run
 * it would) loses the readings due meanwhile: it says so once, of
 * readings, and at the end the interval it achieved, in the user's
 * locale (a decimal comma in French) */
static void
test_record_stalled (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                                       | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GRegex) interval = g_regex_new ("toutes les ([0-9]+),([0-9]) ms en moyenne", 0, 0, NULL);
  g_autofree char *localedir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  pid_t pid;

  /* The translations of the build tree, as meson devenv finds them */
  g_subprocess_launcher_setenv (launcher, "PERFSCOPE_LOCALEDIR", localedir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "fr", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "fr_FR.UTF-8", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, cli_path (), "record", "--backend", "procfs",
                                         "--interval-ms", "20", "--duration", "1.2", NULL);
  g_assert_no_error (error);
  pid = (pid_t) atoi (g_subprocess_get_identifier (process));
  /* Stopped once its readings run (a busy machine may take longer than
   * the stop to start it) */
  g_assert_true (wait_for_thread (pid, "perfscope-proc"));
  g_usleep (400 * 1000);
  g_assert_cmpint (kill (pid, SIGSTOP), ==, 0);
  g_usleep (400 * 1000);
  g_assert_cmpint (kill (pid, SIGCONT), ==, 0);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_nonnull (strstr (err, "Des relevés ont été perdus"));
  g_assert_true (g_regex_match (interval, err, 0, NULL));
}
#endif

/* record --command: the recording ends when the command exits, not at
 * the end of its (long) duration; the command's output goes to stderr */
static void
test_record_command_exits (void)
{
  g_autoptr(CliResult) result = NULL;
  g_autoptr(JsonNode) root = NULL;
  gint64 started = g_get_monotonic_time ();
  double elapsed_s;

  result = cli_test_run ("record", "--backend", "procfs", "--command", "sh -c 'echo from-the-command; sleep 0.4'",
                         "--interval-ms", "50", "--duration", "60", NULL);
  elapsed_s = (g_get_monotonic_time () - started) / 1e6;
  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpfloat (elapsed_s, <, 30.0);
  /* What the command prints is not in the JSON (which names the command) */
  g_assert_nonnull (strstr (result->err, "from-the-command\n"));
  g_assert_null (strstr (result->out, "from-the-command\n"));
  g_assert_true (result->out[0] == '{');

  root = cli_test_parse_json (result->out);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "format"), ==, "procfs");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (root), "series")), >, 0);
}

/* record: a busy child recorded by PID for one second */
static void
test_record_procfs (void)
{
  const char *busy_argv[] = {
    "sh", "-c",
    /* A minute at most, should the test die first */
    "end=$(($(date +%s) + 60)); while [ \"$(date +%s)\" -lt \"$end\" ]; do i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done; done",
    NULL
  };
  g_autoptr(GSubprocess) busy = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CliResult) result = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *instance = NULL;
  JsonArray *series;
  gboolean found_cpu = FALSE, found_rss = FALSE, found_system = FALSE;

  /* Its output is not the test's: a test that fails is not waited for */
  busy = g_subprocess_newv (busy_argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  g_assert_no_error (error);
  /* The process's command line, so that recordings of one program
   * compare */
  instance = g_strjoinv (" ", (char **)busy_argv);

  result = cli_test_run ("record", "--backend", "procfs", "--pid", g_subprocess_get_identifier (busy),
                         "--interval-ms", "100", "--duration", "1", NULL);
  g_subprocess_force_exit (busy);
  g_assert_cmpint (result->status, ==, 0);

  root = cli_test_parse_json (result->out);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "format"), ==, "procfs");
  series = json_object_get_array_member (json_node_get_object (root), "series");
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *one = json_array_get_object_element (series, i);
      const char *object = json_object_get_string_member (one, "object");
      const char *counter = json_object_get_string_member (one, "counter");

      /* The shell's subshells and its date commands are its tree; one
       * caught while it exits, with its command line gone, is named by
       * its program in brackets */
      if (g_strcmp0 (object, "Process") == 0
          && g_strcmp0 (json_object_get_string_member (one, "instance"), instance) != 0)
        {
          const char *other = json_object_get_string_member (one, "instance");

          g_test_message ("another process of the tree: %s", other);
          g_assert_true (g_str_has_prefix (other, instance) || g_str_has_prefix (other, "date +%s")
                         || g_strcmp0 (other, "[date]") == 0 || g_strcmp0 (other, "[sh]") == 0);
          continue;
        }
      if (g_strcmp0 (object, "Process") == 0 && g_strcmp0 (counter, "% Processor Time") == 0)
        {
          found_cpu = TRUE;
          g_assert_cmpstr (json_object_get_string_member (one, "unit"), ==, "%");
          /* about ten intervals in a second */
          g_assert_cmpint (json_object_get_int_member (one, "count"), >=, 5);
          /* Near 100 % on a free machine; test-collector-procfs checks
           * the figure against the kernel's accounting */
          g_assert_cmpfloat (json_object_get_double_member (one, "mean"), >=, 20.0);
        }
      else if (g_strcmp0 (object, "Process") == 0 && g_strcmp0 (counter, "Resident Set Size") == 0)
        {
          found_rss = TRUE;
          g_assert_cmpstr (json_object_get_string_member (one, "unit"), ==, "bytes");
          g_assert_cmpfloat (json_object_get_double_member (one, "min"), >, 0.0);
        }
      else if (g_strcmp0 (object, "System") == 0 && g_strcmp0 (counter, "% Processor Time") == 0)
        {
          found_system = TRUE;
          g_assert_cmpfloat (json_object_get_double_member (one, "max"), <=, 100.0);
        }
    }
  g_assert_true (found_cpu);
  g_assert_true (found_rss);
  g_assert_true (found_system);
}

/* The instances of object in the series of a record's JSON, joined by
 * "|" in the order printed, each once */
static char *
record_instances (JsonNode   *root,
                  const char *object)
{
  JsonArray *series = json_object_get_array_member (json_node_get_object (root), "series");
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) list = NULL;

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *one = json_array_get_object_element (series, i);
      const char *instance = json_object_get_null_member (one, "instance") ? "" : json_object_get_string_member (one, "instance");

      if (g_strcmp0 (json_object_get_string_member (one, "object"), object) == 0
          && g_hash_table_add (seen, (gpointer)instance))
        g_strv_builder_add (names, instance);
    }
  list = g_strv_builder_end (names);
  return g_strjoinv ("|", list);
}

/* record --command: the processes the command starts have their own
 * series, and the tree one of them all; --no-children records the
 * command alone. The children live for many readings, so that a busy
 * machine that delays some still takes one of each */
static void
test_record_tree (void)
{
  g_autoptr(CliResult) tree = NULL;
  g_autoptr(CliResult) alone = NULL;
  g_autoptr(CliResult) misplaced = NULL;
  g_autoptr(JsonNode) tree_root = NULL;
  g_autoptr(JsonNode) alone_root = NULL;
  g_autofree char *tree_instances = NULL;
  g_autofree char *alone_instances = NULL;
  g_autofree char *tree_objects = NULL;

  tree = cli_test_run ("record", "--backend", "procfs", "--command", "sh -c 'sleep 1.5 & sleep 1.5 & wait'",
                       "--interval-ms", "50", "--duration", "30", NULL);
  g_assert_cmpint (tree->status, ==, 0);
  tree_root = cli_test_parse_json (tree->out);
  tree_instances = record_instances (tree_root, "Process");
  g_test_message ("the processes: %s", tree_instances);
  {
    g_auto(GStrv) instances = g_strsplit (tree_instances, "|", -1);
    const char *shell = "sh -c sleep 1.5 & sleep 1.5 & wait";

    g_assert_true (g_strv_contains ((const char * const *)instances, shell));
    g_assert_true (g_strv_contains ((const char * const *)instances, "sleep 1.5"));
    g_assert_true (g_strv_contains ((const char * const *)instances, "sleep 1.5#1"));
    /* A child read between its fork and its exec still has the shell's
     * command line: it is an entry of its own ("…#1"), never a third sleep */
    for (guint i = 0; instances[i] != NULL; i++)
      if (!g_str_equal (instances[i], "sleep 1.5") && !g_str_equal (instances[i], "sleep 1.5#1"))
        g_assert_true (g_str_has_prefix (instances[i], shell));
  }
  tree_objects = record_instances (tree_root, "Process Tree");
  /* One object of counters without instances */
  g_assert_cmpstr (tree_objects, ==, "");

  alone = cli_test_run ("record", "--backend", "procfs", "--command", "sh -c 'sleep 0.3 & sleep 0.3 & wait'",
                        "--no-children", "--interval-ms", "50", "--duration", "30", NULL);
  g_assert_cmpint (alone->status, ==, 0);
  alone_root = cli_test_parse_json (alone->out);
  alone_instances = record_instances (alone_root, "Process");
  g_assert_cmpstr (alone_instances, ==, "sh -c sleep 0.3 & sleep 0.3 & wait");
  g_assert_null (strstr (alone->out, "Process Tree"));

  misplaced = cli_test_run ("info", "--no-children", "x.log", NULL);
  g_assert_cmpint (misplaced->status, ==, 2);
  g_assert_nonnull (strstr (misplaced->err, "--no-children"));
}


/* diff ----------------------------------------------------------------- */

static char *
diff_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "diff", name, NULL);
}

static JsonObject *
find_diff_row (JsonArray  *rows,
               const char *name)
{
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (g_strcmp0 (json_object_get_string_member (row, "name"), name) == 0)
        return row;
    }
  g_assert_not_reached ();
}

static void
assert_diff_side (JsonObject *row,
                  const char *side,
                  gint64      count,
                  double      mean,
                  double      median)
{
  JsonObject *object = json_object_get_object_member (row, side);

  g_assert_nonnull (object);
  g_assert_cmpint (json_object_get_int_member (object, "count"), ==, count);
  assert_close (json_object_get_double_member (object, "mean"), mean);
  assert_close (json_object_get_double_member (object, "median"), median);
  g_assert_true (json_object_has_member (object, "p95"));
  g_assert_true (json_object_has_member (object, "total"));
}

/* tests/data/diff: Open 10…13 ms → 20…23 ms, Save the same, Load 50…54 →
 * 40…44, OldName/NewName and OnlyA/OnlyB on one side each (README.md) */
static void
test_diff_json (void)
{
  g_autofree char *a = diff_path ("run-a.log");
  g_autofree char *b = diff_path ("run-b.log");
  g_autoptr(CliResult) result = cli_test_run ("diff", a, b, NULL);
  g_autoptr(CliResult) renamed = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) renamed_root = NULL;
  JsonObject *object;
  JsonArray *rows;
  JsonObject *row;

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->err, ==, "");
  root = cli_test_parse_json (result->out);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "a"), ==, "run-a.log");
  g_assert_cmpstr (json_object_get_string_member (object, "b"), ==, "run-b.log");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (object, "matched"), 0), ==, "series");
  assert_close (json_object_get_double_member (object, "alpha"), 0.05);
  assert_close (json_object_get_double_member (object, "threshold"), 0.05);
  assert_close (json_object_get_double_member (object, "min_change"), 0.10);
  assert_close (json_object_get_double_member (object, "noise_fraction"), 0.01);
  rows = json_object_get_array_member (object, "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 7);

  row = find_diff_row (rows, "Open");
  g_assert_cmpstr (json_object_get_string_member (row, "kind"), ==, "duration");
  g_assert_cmpstr (json_object_get_string_member (row, "unit"), ==, "s");
  assert_diff_side (row, "a", 4, 0.0115, 0.011);
  assert_diff_side (row, "b", 4, 0.0215, 0.021);
  assert_close (json_object_get_double_member (row, "delta_mean"), 0.010);
  assert_close (json_object_get_double_member (row, "ratio_mean"), 0.0215 / 0.0115);
  /* Exact: 4 against 4 apart, 2 / C(8,4) */
  assert_close (json_object_get_double_member (row, "p_value"), 2.0 / 70.0);
  g_assert_cmpstr (json_object_get_string_member (row, "change"), ==, "regression");
  g_assert_cmpstr (json_object_get_string_member (row, "basis"), ==, "mann-whitney");
  g_assert_cmpstr (json_object_get_string_member (row, "reason"), ==, "significant");
  g_assert_true (json_object_get_null_member (row, "noise_floor"));

  row = find_diff_row (rows, "Load");
  assert_diff_side (row, "a", 5, 0.052, 0.052);
  assert_diff_side (row, "b", 5, 0.042, 0.042);
  assert_close (json_object_get_double_member (row, "p_value"), 2.0 / 252.0);
  g_assert_cmpstr (json_object_get_string_member (row, "change"), ==, "improvement");

  row = find_diff_row (rows, "Save");
  assert_close (json_object_get_double_member (row, "p_value"), 1.0);
  g_assert_cmpstr (json_object_get_string_member (row, "change"), ==, "unchanged");
  g_assert_cmpstr (json_object_get_string_member (row, "reason"), ==, "not-significant");

  /* One side only: the other is null, so are delta, ratio and p */
  row = find_diff_row (rows, "OnlyA");
  assert_diff_side (row, "a", 1, 0.007, 0.007);
  g_assert_true (json_object_get_null_member (row, "b"));
  g_assert_true (json_object_get_null_member (row, "delta_mean"));
  g_assert_true (json_object_get_null_member (row, "ratio_mean"));
  g_assert_true (json_object_get_null_member (row, "p_value"));
  g_assert_cmpstr (json_object_get_string_member (row, "basis"), ==, "none");
  g_assert_cmpstr (json_object_get_string_member (row, "reason"), ==, "one-side");
  row = find_diff_row (rows, "OnlyB");
  g_assert_true (json_object_get_null_member (row, "a"));
  assert_diff_side (row, "b", 2, 0.0085, 0.008);

  /* --rename puts OldName and NewName in one row */
  renamed = cli_test_run ("diff", "--rename", "OldName=NewName", a, b, NULL);
  g_assert_cmpint (renamed->status, ==, 0);
  renamed_root = cli_test_parse_json (renamed->out);
  rows = json_object_get_array_member (json_node_get_object (renamed_root), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 6);
  row = find_diff_row (rows, "NewName");
  g_assert_cmpstr (json_object_get_string_member (row, "a_name"), ==, "OldName");
  assert_diff_side (row, "a", 2, 0.0055, 0.005);
  assert_diff_side (row, "b", 2, 0.0075, 0.007);
  assert_close (json_object_get_double_member (row, "p_value"), 1.0 / 3.0);
}

static void
test_diff_text (void)
{
  g_autofree char *a = diff_path ("run-a.log");
  g_autofree char *b = diff_path ("run-b.log");
  g_autoptr(CliResult) result = cli_test_run ("diff", "--text", a, b, NULL);
  g_auto(GStrv) lines = NULL;
  gboolean open_seen = FALSE;

  g_assert_cmpint (result->status, ==, 0);
  g_assert_true (g_str_has_prefix (result->out, "A: run-a.log (ce-perflog)\nB: run-b.log (ce-perflog)\nMatched: series by name\n"));
  g_assert_nonnull (strstr (result->out, "a test at α = 0.05 and a change of 5 % or more"));
  g_assert_nonnull (strstr (result->out, "a change of 10 % or more and at least the noise floor, 1 % of the largest value"));
  g_assert_nonnull (strstr (result->out, "Mean A"));
  g_assert_nonnull (strstr (result->out, "Ratio total"));
  g_assert_nonnull (strstr (result->out, "Basis"));
  g_assert_nonnull (strstr (result->out, "Why"));
  lines = g_strsplit (result->out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_suffix (lines[i], " Open"))
        {
          g_auto(GStrv) cells = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
          g_autoptr(GPtrArray) words = g_ptr_array_new ();

          for (guint c = 0; cells[c] != NULL; c++)
            if (*cells[c] != '\0')
              g_ptr_array_add (words, cells[c]);
          /* Kind Unit CountA CountB MeanA MeanB MedianA MedianB P95A P95B
           * TotalA TotalB Δ RatioMean RatioTotal p Change Basis ("U test")
           * Why NoiseFloor Name */
          g_assert_cmpuint (words->len, ==, 22);
          g_assert_cmpstr (g_ptr_array_index (words, 0), ==, "duration");
          g_assert_cmpstr (g_ptr_array_index (words, 4), ==, "0.0115");
          g_assert_cmpstr (g_ptr_array_index (words, 5), ==, "0.0215");
          g_assert_cmpstr (g_ptr_array_index (words, 13), ==, "1.86957");
          g_assert_cmpstr (g_ptr_array_index (words, 14), ==, "1.86957");
          g_assert_cmpstr (g_ptr_array_index (words, 16), ==, "regression");
          g_assert_cmpstr (g_ptr_array_index (words, 17), ==, "U");
          g_assert_cmpstr (g_ptr_array_index (words, 18), ==, "test");
          g_assert_cmpstr (g_ptr_array_index (words, 19), ==, "significant");
          g_assert_cmpstr (g_ptr_array_index (words, 20), ==, "–");
          open_seen = TRUE;
        }
    }
  g_assert_true (open_seen);
  g_assert_nonnull (strstr (result->out, "only in A"));
  g_assert_nonnull (strstr (result->out, "only in B"));
}

/* The cells of a CSV line without quotes, which these rows do not need */
static char **
csv_row_find (char       **lines,
              const char  *name)
{
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);

      if (g_strcmp0 (cells[0], name) == 0)
        return g_steal_pointer (&cells);
    }
  return NULL;
}

static void
test_diff_export (void)
{
  g_autofree char *a = diff_path ("run-a.log");
  g_autofree char *b = diff_path ("run-b.log");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (dir, "diff.csv", NULL);
  g_autofree char *written = NULL;
  g_autoptr(CliResult) csv = cli_test_run ("diff", a, b, "--to", "csv", NULL);
  g_autoptr(CliResult) to_file = cli_test_run ("diff", a, b, "--to", "csv", "-o", output, NULL);
  g_autoptr(CliResult) markdown = cli_test_run ("diff", a, b, "--to", "markdown", NULL);
  g_autoptr(CliResult) html = cli_test_run ("diff", a, b, "--to", "html", NULL);
  g_autoptr(CliResult) text = cli_test_run ("diff", a, b, "--to", "csv", "--text", NULL);
  g_autoptr(CliResult) output_alone = cli_test_run ("diff", a, b, "-o", output, NULL);
  g_autoptr(CliResult) stats_output = cli_test_run ("stats", a, "-o", output, NULL);
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) open = NULL;
  g_auto(GStrv) only_a = NULL;
  g_auto(GStrv) header = NULL;

  g_assert_cmpint (csv->status, ==, 0);
  g_assert_cmpstr (csv->err, ==, "");
  /* RFC 4180 lines: a header, the 7 rows of the JSON, the final CRLF */
  lines = g_strsplit (csv->out, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 9);
  header = g_strsplit (lines[0], ",", -1);
  g_assert_cmpstr (header[0], ==, "name");
  g_assert_cmpstr (header[6], ==, "a_mean (s)");
  g_assert_cmpstr (header[17], ==, "p_value");
  g_assert_cmpstr (header[18], ==, "change");
  g_assert_cmpstr (header[19], ==, "basis");
  g_assert_cmpstr (header[20], ==, "reason");
  g_assert_cmpstr (header[21], ==, "noise_floor (s)");

  open = csv_row_find (lines, "Open");
  g_assert_nonnull (open);
  g_assert_cmpuint (g_strv_length (open), ==, 22);
  g_assert_cmpstr (open[19], ==, "mann-whitney");
  g_assert_cmpstr (open[20], ==, "significant");
  g_assert_cmpstr (open[21], ==, "");
  g_assert_cmpstr (open[3], ==, "duration");
  g_assert_cmpstr (open[5], ==, "4");
  assert_close (g_ascii_strtod (open[6], NULL), 0.0115);
  assert_close (g_ascii_strtod (open[11], NULL), 0.0215);
  assert_close (g_ascii_strtod (open[15], NULL), 0.010);
  assert_close (g_ascii_strtod (open[17], NULL), 2.0 / 70.0);
  g_assert_cmpstr (open[18], ==, "regression");
  /* A side a row does not have is empty */
  only_a = csv_row_find (lines, "OnlyA");
  g_assert_nonnull (only_a);
  g_assert_cmpstr (only_a[5], ==, "1");
  g_assert_cmpstr (only_a[10], ==, "");
  g_assert_cmpstr (only_a[18], ==, "only-a");
  g_assert_cmpstr (only_a[19], ==, "none");
  g_assert_cmpstr (only_a[20], ==, "one-side");

  /* -o writes the same bytes and nothing to the standard output */
  g_assert_cmpint (to_file->status, ==, 0);
  g_assert_cmpstr (to_file->out, ==, "");
  g_assert_true (g_file_get_contents (output, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, csv->out);
  g_remove (output);

  g_assert_cmpint (markdown->status, ==, 0);
  g_assert_true (g_str_has_prefix (markdown->out, "## Comparison: run-a.log → run-b.log\n"));
  g_assert_nonnull (strstr (markdown->out, "Regressions: 1, improvements: 1, other changes: 0, unchanged: 1, in one run only: 4."));
  g_assert_nonnull (strstr (markdown->out, "| Open | 11.500 ms | 21.500 ms | +10.000 ms | 1.87× | 0.029 | Mann–Whitney test (means) | 4 / 4 |"));
  g_assert_nonnull (strstr (markdown->out, "- OnlyA: only in A (count 1, mean 7.000 ms)"));

  /* Usage: a target diff does not write, --to with --text, -o without --to */
  g_assert_cmpint (html->status, ==, 2);
  g_assert_nonnull (strstr (html->err, "html"));
  g_assert_cmpstr (html->out, ==, "");
  g_assert_cmpint (text->status, ==, 2);
  g_assert_cmpint (output_alone->status, ==, 2);
  g_assert_cmpint (stats_output->status, ==, 2);
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  g_rmdir (dir);
}

static void
test_diff_missing_file (void)
{
  g_autofree char *a = diff_path ("run-a.log");
  g_autoptr(CliResult) second = cli_test_run ("diff", a, "/nonexistent/perfscope/missing-b.log", NULL);
  g_autoptr(CliResult) first = cli_test_run ("diff", "/nonexistent/perfscope/missing-a.log", a, NULL);

  g_assert_cmpint (second->status, ==, 1);
  g_assert_cmpstr (second->out, ==, "");
  g_assert_nonnull (strstr (second->err, "missing-b.log"));
  g_assert_cmpint (first->status, ==, 1);
  g_assert_cmpstr (first->out, ==, "");
  g_assert_nonnull (strstr (first->err, "missing-a.log"));
}

/* Every kind of run: the verdict of each row, its basis and reason */

static char *
data_path (const char *folder,
           const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", folder, name, NULL);
}

static char *
demo_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
}

/* The JSON of `diff a b [option]`, which must succeed */
static JsonNode *
run_diff (const char *a,
          const char *b,
          const char *option)
{
  g_autoptr(CliResult) result = cli_test_run ("diff", a, b, option, NULL);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->err, ==, "");
  return cli_test_parse_json (result->out);
}

static JsonArray *
diff_rows (JsonNode *root)
{
  return json_object_get_array_member (json_node_get_object (root), "rows");
}

static void
assert_diff_verdict (JsonObject *row,
                     const char *change,
                     const char *basis,
                     const char *reason)
{
  g_assert_cmpstr (json_object_get_string_member (row, "change"), ==, change);
  g_assert_cmpstr (json_object_get_string_member (row, "basis"), ==, basis);
  g_assert_cmpstr (json_object_get_string_member (row, "reason"), ==, reason);
}

/* A run against itself: every row unchanged on the basis given, with a
 * p-value of 1 when there is a test */
static void
assert_diff_all_unchanged (JsonNode   *root,
                           const char *basis,
                           const char *reason)
{
  JsonArray *rows = diff_rows (root);

  g_assert_cmpuint (json_array_get_length (rows), >, 0);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      assert_diff_verdict (row, "unchanged", basis, reason);
      if (strcmp (basis, "size") == 0)
        g_assert_true (json_object_get_null_member (row, "p_value"));
      else
        g_assert_cmpfloat (json_object_get_double_member (row, "p_value"), ==, 1.0);
    }
}

static const char *
diff_matched (JsonNode *root)
{
  JsonArray *matched = json_object_get_array_member (json_node_get_object (root), "matched");

  g_assert_cmpuint (json_array_get_length (matched), ==, 1);
  return json_array_get_string_element (matched, 0);
}

/* The real VS reports lr2 → lr3: one value per function, no test; the
 * thresholds from the command line */
static void
test_diff_vs_reports (void)
{
  g_autofree char *a = data_path ("vs-report-csv", "lr2_cc.csv");
  g_autofree char *b = data_path ("vs-report-csv", "lr3_cc.csv");
  g_autoptr(JsonNode) root = run_diff (a, b, NULL);
  g_autoptr(JsonNode) wide = run_diff (a, b, "--min-change=700");
  g_autoptr(JsonNode) no_floor = run_diff (a, b, "--noise-floor=0");
  g_autoptr(CliResult) text = cli_test_run ("diff", "--text", a, b, NULL);
  JsonObject *row;

  g_assert_cmpstr (diff_matched (root), ==, "functions");
  row = find_diff_row (diff_rows (root), "_wmainCRTStartup");
  g_assert_cmpstr (json_object_get_string_member (row, "unit"), ==, "ticks");
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (row, "a"), "total"), ==, 481558);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (row, "b"), "total"), ==, 3354029);
  assert_diff_verdict (row, "regression", "size", "large");
  g_assert_true (json_object_get_null_member (row, "p_value"));
  assert_close (json_object_get_double_member (row, "noise_floor"), 33540.29);
  row = find_diff_row (diff_rows (root), "GetTickCount");
  assert_diff_verdict (row, "unchanged", "size", "noise");
  row = find_diff_row (diff_rows (root), "__CIsin");
  assert_diff_verdict (row, "regression", "size", "large");
  assert_diff_verdict (find_diff_row (diff_rows (root), "__controlfp_s"), "unchanged", "size", "small");

  /* 597 % more is under 700 %; without a noise floor 51 ticks in 243 are
   * a change */
  assert_close (json_object_get_double_member (json_node_get_object (wide), "min_change"), 7.0);
  assert_diff_verdict (find_diff_row (diff_rows (wide), "_wmainCRTStartup"), "unchanged", "size", "small");
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (no_floor), "noise_fraction"), ==, 0);
  assert_diff_verdict (find_diff_row (diff_rows (no_floor), "GetTickCount"), "regression", "size", "large");

  g_assert_cmpint (text->status, ==, 0);
  g_assert_true (g_regex_match_simple ("regression +size +large +33540.3 +_wmainCRTStartup\n", text->out, 0, 0));
  g_assert_true (g_regex_match_simple (" +size +noise +33540.3 +GetTickCount\n", text->out, 0, 0));
}

/* pmcstat -G text: shares of the samples, with real p-values (R's
 * prop.test (c(173, 100), c(232, 260), correct = FALSE)) */
static void
test_diff_pmcstat (void)
{
  g_autofree char *a = data_path ("pmcstat-callgraph", "shared.txt");
  g_autofree char *b = diff_path ("shared-changed.txt");
  g_autoptr(JsonNode) root = run_diff (a, b, NULL);
  g_autoptr(JsonNode) same = run_diff (a, a, NULL);
  g_autoptr(CliResult) text = cli_test_run ("diff", "--text", a, b, NULL);
  JsonObject *row, *side;

  g_assert_cmpstr (diff_matched (root), ==, "functions");
  row = find_diff_row (diff_rows (root), "randomdev_encrypt");
  g_assert_cmpstr (json_object_get_string_member (row, "unit"), ==, "percent");
  side = json_object_get_object_member (row, "a");
  g_assert_cmpint (json_object_get_int_member (side, "count"), ==, 173);
  assert_close (json_object_get_double_member (side, "mean"), 100.0 * 173 / 232);
  assert_close (json_object_get_double_member (side, "total"), 100.0 * 173 / 232);
  g_assert_true (json_object_get_null_member (side, "median"));
  assert_diff_verdict (row, "improvement", "two-proportion", "significant");
  assert_close (json_object_get_double_member (row, "p_value"), 8.6502392866382305e-16);
  row = find_diff_row (diff_rows (root), "acpi_timer_get_timecount");
  assert_diff_verdict (row, "regression", "two-proportion", "significant");
  row = find_diff_row (diff_rows (root), "cpu_idleclock");
  assert_diff_verdict (row, "unchanged", "two-proportion", "not-significant");
  assert_close (json_object_get_double_member (row, "p_value"), 0.73047183850312591);

  assert_diff_all_unchanged (same, "two-proportion", "not-significant");
  /* The count is the function's samples, never 0 beside them */
  g_assert_cmpint (text->status, ==, 0);
  g_assert_true (g_regex_match_simple ("^  function +percent +173 +100 +74.569 +38.4615 .* improvement +shares +significant +– +randomdev_encrypt$",
                                       text->out, G_REGEX_MULTILINE, 0));
}

/* The demo hwpmc log against itself: its functions (modules without
 * symbols), not its processes */
static void
test_diff_hwpmc (void)
{
  g_autofree char *path = demo_path ("pmcstat_freebsd14.pmclog");
  g_autoptr(JsonNode) root = run_diff (path, path, NULL);
  JsonObject *row;

  g_assert_cmpstr (diff_matched (root), ==, "functions");
  assert_diff_all_unchanged (root, "two-proportion", "not-significant");
  row = find_diff_row (diff_rows (root), "libc.so.7");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (row, "a"), "count"), >, 0);
}

/* CE, RTL, PDH and PLV2 logs */
static void
test_diff_logs (void)
{
  g_autofree char *ce = demo_path ("dbperf_CEPC_x86_6_0_3122.log");
  g_autofree char *ce_changed = diff_path ("dbperf-changed.log");
  g_autofree char *rtl = data_path ("rtl", "calltree_4711.log");
  g_autofree char *rtl_slower = diff_path ("calltree-slower.log");
  g_autofree char *rtl_demo = demo_path ("soffice_4711.log");
  g_autofree char *pdh = demo_path ("perfmon_4cpu.csv");
  g_autofree char *plv2_a = diff_path ("processor-2cpu-seed7.plv2");
  g_autofree char *plv2_b = diff_path ("processor-2cpu-seed8.plv2");
  g_autoptr(JsonNode) ce_root = run_diff (ce, ce_changed, NULL);
  g_autoptr(JsonNode) rtl_root = run_diff (rtl, rtl_slower, NULL);
  g_autoptr(JsonNode) rtl_same = run_diff (rtl_demo, rtl_demo, NULL);
  g_autoptr(JsonNode) pdh_same = run_diff (pdh, pdh, NULL);
  g_autoptr(JsonNode) plv2_root = run_diff (plv2_a, plv2_b, NULL);
  JsonArray *rows;
  JsonObject *row;

  /* CE: 1.5 times slower over 15 events; the one event of marker 42
   * three times longer, against 1 % of the largest mean duration */
  g_assert_cmpstr (diff_matched (ce_root), ==, "series");
  row = find_diff_row (diff_rows (ce_root), "Test=CeSeekDatabaseEx,Records=1000,time=%AVG%");
  assert_diff_verdict (row, "regression", "mann-whitney", "significant");
  assert_diff_verdict (find_diff_row (diff_rows (ce_root), "Test=CeDeleteRecord,time=%AVG%"),
                       "improvement", "mann-whitney", "significant");
  row = find_diff_row (diff_rows (ce_root), "");
  assert_diff_verdict (row, "regression", "size", "large");
  assert_close (json_object_get_double_member (row, "noise_floor"), 0.01 * 10743 / TICKS_PER_SECOND);
  assert_diff_verdict (find_diff_row (diff_rows (ce_root), "CPU: dbperf"), "unchanged", "mann-whitney", "not-significant");

  /* RTL: main 140 → 200 ms and C 40 → 50 once each; B's three calls
   * twice as long, which three values per run cannot show; worker the same */
  g_assert_cmpstr (diff_matched (rtl_root), ==, "series");
  rows = diff_rows (rtl_root);
  g_assert_cmpuint (json_array_get_length (rows), ==, 5);
  row = find_diff_row (rows, "demo (ab000001) ::main");
  assert_diff_verdict (row, "regression", "size", "large");
  assert_close (json_object_get_double_member (row, "noise_floor"), 0.002);
  assert_diff_verdict (find_diff_row (rows, "demo (ab000001) ::C"), "regression", "size", "large");
  assert_diff_verdict (find_diff_row (rows, "demo (ab000001) ::B"), "unchanged", "mann-whitney", "not-significant");
  assert_diff_verdict (find_diff_row (rows, "demo (ab000001) ::worker"), "unchanged", "size", "small");
  for (guint i = 0; i < json_array_get_length (diff_rows (rtl_same)); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (diff_rows (rtl_same), i), "change"),
                     ==, "unchanged");

  g_assert_cmpstr (diff_matched (pdh_same), ==, "counters");
  g_assert_cmpuint (json_array_get_length (diff_rows (pdh_same)), ==, 26);
  assert_diff_all_unchanged (pdh_same, "mann-whitney", "not-significant");

  g_assert_cmpstr (diff_matched (plv2_root), ==, "counters");
  row = find_diff_row (diff_rows (plv2_root), "\\\\GEN-PLV2\\Processor Information(0,0)\\% Processor Time");
  assert_diff_verdict (row, "changed", "mann-whitney", "significant");
  row = find_diff_row (diff_rows (plv2_root), "\\\\GEN-PLV2\\Processor Information(_Total)\\% Processor Time");
  assert_diff_verdict (row, "unchanged", "mann-whitney", "not-significant");
}

/* Saved runs compare as the files they were read from: the same rows */
static void
test_diff_saved_runs (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  const char *pairs[][4] = {
    { "vs-report-csv", "lr2_cc.csv", "vs-report-csv", "lr3_cc.csv" },
    { "pmcstat-callgraph", "shared.txt", "diff", "shared-changed.txt" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *a = data_path (pairs[i][0], pairs[i][1]);
      g_autofree char *b = data_path (pairs[i][2], pairs[i][3]);
      g_autofree char *saved_a = g_build_filename (dir, "a.perfscope", NULL);
      g_autofree char *saved_b = g_build_filename (dir, "b.perfscope", NULL);
      const char *sources[] = { a, b };
      const char *targets[] = { saved_a, saved_b };
      g_autoptr(JsonNode) original = run_diff (a, b, NULL);
      g_autoptr(JsonNode) saved = NULL;
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) original_rows = json_node_new (JSON_NODE_ARRAY);
      g_autoptr(JsonNode) saved_rows = json_node_new (JSON_NODE_ARRAY);
      g_autofree char *original_text = NULL;
      g_autofree char *saved_text = NULL;

      for (guint side = 0; side < 2; side++)
        {
          g_autoptr(GFile) source = g_file_new_for_path (sources[side]);
          g_autoptr(GFile) file = g_file_new_for_path (targets[side]);
          g_autoptr(GError) error = NULL;
          g_autoptr(GFileInputStream) stream = g_file_read (source, NULL, &error);
          g_autoptr(PsEventStore) store = NULL;

          g_assert_no_error (error);
          store = ps_load_stream (G_INPUT_STREAM (stream), sources[side], NULL, NULL, &error);
          g_assert_no_error (error);
          g_assert_true (ps_native_save (store, file, NULL, &error));
          g_assert_no_error (error);
        }

      saved = run_diff (saved_a, saved_b, NULL);
      g_assert_cmpstr (diff_matched (saved), ==, "functions");
      json_node_set_array (original_rows, diff_rows (original));
      json_node_set_array (saved_rows, diff_rows (saved));
      json_generator_set_root (generator, original_rows);
      original_text = json_generator_to_data (generator, NULL);
      json_generator_set_root (generator, saved_rows);
      saved_text = json_generator_to_data (generator, NULL);
      g_assert_cmpstr (saved_text, ==, original_text);

      g_remove (saved_a);
      g_remove (saved_b);
    }
  g_rmdir (dir);
}

/* Bad thresholds are usage errors that name the option */
static void
test_diff_threshold_usage (void)
{
  g_autofree char *a = diff_path ("run-a.log");
  g_autoptr(CliResult) min_change = cli_test_run ("diff", "--min-change", "ten", a, a, NULL);
  g_autoptr(CliResult) noise_floor = cli_test_run ("diff", "--noise-floor=150", a, a, NULL);
  g_autoptr(CliResult) other = cli_test_run ("stats", "--noise-floor=1", a, NULL);

  assert_usage_error (min_change);
  g_assert_nonnull (strstr (min_change->err, "--min-change needs a percentage of 0 or more, not “ten”"));
  assert_usage_error (noise_floor);
  g_assert_nonnull (strstr (noise_floor->err, "--noise-floor needs a percentage from 0 to 100, not “150”"));
  assert_usage_error (other);
  g_assert_nonnull (strstr (other->err, "diff command only"));
}

/* calltree ------------------------------------------------------------- */

static char *
calltree_example_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "rtl", "calltree_4711.log", NULL);
}

static JsonObject *
find_named (JsonArray  *array,
            const char *name)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member (object, "name"), name) == 0)
        return object;
    }
  return NULL;
}

static double
member_ms (JsonObject *object,
           const char *name)
{
  return json_object_get_double_member (object, name) / 1e6;
}

/* A percentage rounded to two decimals, as the spec's tables give them */
static double
rounded (double value)
{
  return round (value * 100) / 100;
}

static JsonObject *
tree_child (JsonObject *node,
            const char *name)
{
  return find_named (json_object_get_array_member (node, "children"), name);
}

/* The worked example of vs-instrumentation.md §5 as an RTL log: the
 * elapsed values of the spec, application = elapsed (no OS events) */
static void
test_calltree_worked_example (void)
{
  g_autofree char *path = calltree_example_path ();
  g_autoptr(CliResult) result = cli_test_run ("calltree", "--thread", "1", "--basis", "view", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *top, *total, *function, *tree, *main_node, *a, *ab, *cb, *per_call;
  JsonArray *functions;
  static const struct
  {
    const char *name;
    gint64      calls;
    double      ei, ee, ei_pct, ee_pct;
  } expected[] = {
    { "::main", 1, 140, 25, 100.00, 17.86 },
    { "::A",    1, 75,  30, 53.57,  21.43 },
    { "::B",    3, 55,  55, 39.29,  39.29 },
    { "::C",    1, 40,  30, 28.57,  21.43 },
  };

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  top = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "rtl-logfile");
  g_assert_cmpstr (json_object_get_string_member (top, "unit"), ==, "ns");
  g_assert_cmpstr (json_object_get_string_member (top, "basis"), ==, "view");
  g_assert_cmpstr (json_object_get_string_member (top, "percentages"), ==, "computed");
  g_assert_false (json_object_get_boolean_member (top, "os_events"));
  g_assert_cmpint (json_object_get_int_member (top, "thread"), ==, 1);
  total = json_object_get_object_member (top, "total");
  g_assert_cmpfloat (member_ms (total, "elapsed"), ==, 140);
  g_assert_cmpfloat (member_ms (total, "application"), ==, 140);

  functions = json_object_get_array_member (top, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, 4);
  /* Largest elapsed inclusive first */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (functions, 0), "name"), ==, "::main");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (functions, 3), "name"), ==, "::C");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      function = find_named (functions, expected[i].name);
      g_assert_nonnull (function);
      g_assert_cmpstr (json_object_get_string_member (function, "module"), ==, "demo");
      g_assert_cmpint (json_object_get_int_member (function, "calls"), ==, expected[i].calls);
      g_assert_cmpfloat (member_ms (function, "elapsed_inclusive"), ==, expected[i].ei);
      g_assert_cmpfloat (member_ms (function, "elapsed_exclusive"), ==, expected[i].ee);
      g_assert_cmpfloat (member_ms (function, "application_inclusive"), ==, expected[i].ei);
      g_assert_cmpfloat (member_ms (function, "application_exclusive"), ==, expected[i].ee);
      g_assert_cmpfloat (rounded (json_object_get_double_member (function, "elapsed_inclusive_pct")), ==, expected[i].ei_pct);
      g_assert_cmpfloat (rounded (json_object_get_double_member (function, "elapsed_exclusive_pct")), ==, expected[i].ee_pct);
      g_assert_cmpfloat (rounded (json_object_get_double_member (function, "application_inclusive_pct")), ==, expected[i].ei_pct);
    }

  /* B per call: 30, 15 and 10 ms */
  function = find_named (functions, "::B");
  per_call = json_object_get_object_member (json_object_get_object_member (function, "per_call"), "elapsed_inclusive");
  g_assert_cmpfloat (json_object_get_double_member (per_call, "min") / 1e6, ==, 10);
  g_assert_cmpfloat (json_object_get_double_member (per_call, "max") / 1e6, ==, 30);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (per_call, "avg") / 1e6, 55.0 / 3, 1e-9);

  /* The tree of vs-instrumentation.md §5.4 */
  tree = json_object_get_object_member (top, "tree");
  g_assert_cmpstr (json_object_get_string_member (tree, "name"), ==, "<root>");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (tree, "children")), ==, 1);
  main_node = tree_child (tree, "::main");
  a = tree_child (main_node, "::A");
  ab = tree_child (a, "::B");
  cb = tree_child (tree_child (main_node, "::C"), "::B");
  g_assert_cmpfloat (member_ms (main_node, "elapsed_inclusive"), ==, 140);
  g_assert_cmpfloat (member_ms (a, "elapsed_exclusive"), ==, 30);
  g_assert_cmpint (json_object_get_int_member (ab, "calls"), ==, 2);
  g_assert_cmpfloat (member_ms (ab, "elapsed_inclusive"), ==, 45);
  g_assert_cmpfloat (rounded (json_object_get_double_member (ab, "elapsed_inclusive_pct")), ==, 32.14);
  g_assert_cmpint (json_object_get_int_member (cb, "calls"), ==, 1);
  g_assert_cmpfloat (member_ms (cb, "elapsed_inclusive"), ==, 10);
  g_assert_cmpfloat (rounded (json_object_get_double_member (cb, "elapsed_inclusive_pct")), ==, 7.14);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (ab, "children")), ==, 0);
}

static void
test_calltree_threads_depth_text (void)
{
  g_autofree char *path = calltree_example_path ();
  g_autoptr(CliResult) all = cli_test_run ("calltree", path, NULL);
  g_autoptr(CliResult) shallow = cli_test_run ("calltree", "--depth", "1", path, NULL);
  g_autoptr(CliResult) missing = cli_test_run ("calltree", "--thread", "9", path, NULL);
  g_autoptr(CliResult) bad_basis = cli_test_run ("calltree", "--basis", "total", path, NULL);
  g_autoptr(CliResult) text = cli_test_run ("calltree", "--text", "--thread", "1", path, NULL);
  g_autoptr(CliResult) no_stacks = NULL;
  g_autofree char *ce_path = example_path ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) shallow_root = NULL;
  JsonObject *top, *tree, *main_node;

  /* Both threads merged by call path: 140 ms + 10 ms */
  g_assert_cmpint (all->status, ==, 0);
  root = cli_test_parse_json (all->out);
  top = json_node_get_object (root);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (top, "thread")));
  g_assert_cmpfloat (member_ms (json_object_get_object_member (top, "total"), "elapsed"), ==, 150);
  tree = json_object_get_object_member (top, "tree");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (tree, "children")), ==, 2);
  g_assert_cmpfloat (rounded (json_object_get_double_member (tree_child (tree, "::worker"), "elapsed_inclusive_pct")), ==, 6.67);

  /* One level below the root; the functions list stays complete */
  g_assert_cmpint (shallow->status, ==, 0);
  shallow_root = cli_test_parse_json (shallow->out);
  tree = json_object_get_object_member (json_node_get_object (shallow_root), "tree");
  main_node = tree_child (tree, "::main");
  g_assert_nonnull (main_node);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (main_node, "children")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (shallow_root), "functions")), ==, 5);

  assert_usage_error (missing);
  g_assert_nonnull (strstr (missing->err, "9"));
  assert_usage_error (bad_basis);

  /* Units in the headers, the note about OS events, the indented tree */
  g_assert_cmpint (text->status, ==, 0);
  g_assert_nonnull (strstr (text->out, "Elapsed incl. (ns)"));
  g_assert_nonnull (strstr (text->out, "application time equals elapsed time"));
  g_assert_true (g_regex_match_simple ("^ +::main +1 +140000000 +100\\.00 +25000000 +17\\.86 ", text->out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +    ::B +2 +45000000 +32\\.14 ", text->out, G_REGEX_MULTILINE, 0));

  /* A CE log has no call stacks */
  no_stacks = cli_test_run ("calltree", ce_path, NULL);
  g_assert_cmpint (no_stacks->status, ==, 1);
  g_assert_nonnull (strstr (no_stacks->err, "call stacks"));
}


/* A Visual Studio caller/callee report: its Root rows as given, in ticks,
 * or in ns with --tick-rate */
static void
test_calltree_vs_report (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "vs-report-csv", "lr2_cc.csv", NULL);
  g_autoptr(CliResult) ticks = cli_test_run ("calltree", path, NULL);
  g_autoptr(CliResult) ns = cli_test_run ("calltree", "--tick-rate", "1000000", path, NULL);
  g_autoptr(JsonNode) ticks_root = NULL;
  g_autoptr(JsonNode) ns_root = NULL;
  JsonObject *top, *function, *per_call;

  g_assert_cmpint (ticks->status, ==, 0);
  ticks_root = cli_test_parse_json (ticks->out);
  top = json_node_get_object (ticks_root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "vs-report-csv");
  g_assert_cmpstr (json_object_get_string_member (top, "unit"), ==, "ticks");
  g_assert_cmpstr (json_object_get_string_member (top, "percentages"), ==, "given");
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (top, "tree")));
  /* "Root","_printf",269754,269754,…,56.00,56.00,… */
  function = find_named (json_object_get_array_member (top, "functions"), "_printf");
  g_assert_nonnull (function);
  g_assert_cmpint (json_object_get_int_member (function, "calls"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_inclusive"), ==, 269754);
  g_assert_cmpfloat (json_object_get_double_member (function, "application_exclusive"), ==, 269754);
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_inclusive_pct"), ==, 56.00);
  /* ___security_init_cookie: 12895 and 11401 ticks, 2.68 % and 2.37 % */
  function = find_named (json_object_get_array_member (top, "functions"), "___security_init_cookie");
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_inclusive"), ==, 12895);
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_exclusive"), ==, 11401);
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_inclusive_pct"), ==, 2.68);
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_exclusive_pct"), ==, 2.37);

  g_assert_cmpint (ns->status, ==, 0);
  ns_root = cli_test_parse_json (ns->out);
  top = json_node_get_object (ns_root);
  g_assert_cmpstr (json_object_get_string_member (top, "unit"), ==, "ns");
  function = find_named (json_object_get_array_member (top, "functions"), "___security_init_cookie");
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_inclusive"), ==, 12895000);
  g_assert_cmpfloat (json_object_get_double_member (function, "elapsed_inclusive_pct"), ==, 2.68);
  per_call = json_object_get_object_member (json_object_get_object_member (function, "per_call"), "elapsed_exclusive");
  g_assert_cmpfloat (json_object_get_double_member (per_call, "max"), ==, 11401000);
}


/* pmcstat -G callgraphs and export ------------------------------------- */

static char *
pmcstat_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph", name, NULL);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static void
assert_same_line_set (const char *expected,
                      const char *actual)
{
  g_auto(GStrv) expected_lines = g_strsplit (expected, "\n", -1);
  g_auto(GStrv) actual_lines = g_strsplit (actual, "\n", -1);
  g_autoptr(GPtrArray) a = g_ptr_array_new ();
  g_autoptr(GPtrArray) b = g_ptr_array_new ();

  for (guint i = 0; expected_lines[i] != NULL; i++)
    if (expected_lines[i][0] != '\0')
      g_ptr_array_add (a, expected_lines[i]);
  for (guint i = 0; actual_lines[i] != NULL; i++)
    if (actual_lines[i][0] != '\0')
      g_ptr_array_add (b, actual_lines[i]);
  g_ptr_array_sort (a, compare_strings);
  g_ptr_array_sort (b, compare_strings);

  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
}

static void
test_export_collapsed (void)
{
  const char * const names[] = { "simple", "shared", "shared2", "dd", "iperf3" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *file_name = g_strconcat (names[i], ".txt", NULL);
      g_autofree char *expected_name = g_strconcat (names[i], "-collapsed.txt", NULL);
      g_autofree char *path = pmcstat_path (file_name);
      g_autofree char *expected_path = g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph",
                                                              "expected-collapsed", expected_name, NULL);
      g_autofree char *expected = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(CliResult) result = cli_test_run ("export", path, "--to", "collapsed", NULL);

      g_file_get_contents (expected_path, &expected, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (result->status, ==, 0);
      g_assert_cmpstr (result->err, ==, "");
      assert_same_line_set (expected, result->out);
    }
}

static void
test_export_output_and_source (void)
{
  g_autofree char *path = pmcstat_path ("dd.txt");
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *out_path = g_build_filename (dir, "dd.folded", NULL);
  g_autofree char *written = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CliResult) to_stdout = cli_test_run ("export", path, "--to", "collapsed", NULL);
  g_autoptr(CliResult) to_file = cli_test_run ("export", "--to", "collapsed", "-o", out_path, path, NULL);
  g_autoptr(CliResult) one_source = cli_test_run ("export", path, "--to", "collapsed", "--source", "CLOCK.HARD", NULL);
  g_autoptr(CliResult) no_source = cli_test_run ("export", path, "--to", "collapsed", "--source", "INSTRUCTIONS", NULL);

  g_assert_cmpint (to_file->status, ==, 0);
  g_assert_cmpstr (to_file->out, ==, "");
  g_file_get_contents (out_path, &written, NULL, &error);
  g_assert_no_error (error);
  /* The same bytes as on stdout: sorted, so deterministic */
  g_assert_cmpint (to_stdout->status, ==, 0);
  g_assert_cmpstr (written, ==, to_stdout->out);

  /* The first three blocks only: cpu_activeclock twice, not three times */
  g_assert_cmpint (one_source->status, ==, 0);
  g_assert_nonnull (strstr (one_source->out, "fork_exit;sched_idletd;cpu_idle;cpu_activeclock;spinlock_exit 2\n"));
  g_assert_nonnull (strstr (to_stdout->out, "fork_exit;sched_idletd;cpu_idle;cpu_activeclock;spinlock_exit 3\n"));

  assert_usage_error (no_source);
  g_assert_nonnull (strstr (no_source->err, "INSTRUCTIONS"));
  g_assert_nonnull (strstr (no_source->err, "CLOCK.HARD"));

  g_unlink (out_path);
  g_rmdir (dir);
}

static void
test_export_usage (void)
{
  g_autofree char *path = pmcstat_path ("simple.txt");
  g_autofree char *log = example_path ();
  const char *streamed[] = { "csv", "speedscope" };
  g_autoptr(CliResult) no_target = cli_test_run ("export", path, NULL);
  g_autoptr(CliResult) unknown = cli_test_run ("export", path, "--to", "svg", NULL);
  g_autoptr(CliResult) no_file = cli_test_run ("export", "--to", "collapsed", NULL);
  g_autoptr(CliResult) wrong_command = cli_test_run ("info", path, "--to", "collapsed", NULL);
  g_autoptr(CliResult) thread = cli_test_run ("export", "--thread", "3", path, "--to", "collapsed", NULL);
  g_autoptr(CliResult) no_samples = cli_test_run ("export", log, "--to", "collapsed", NULL);
  g_autoptr(CliResult) missing = cli_test_run ("export", "missing.txt", "--to", "collapsed", NULL);

  /* The other targets (tests/test-export.c checks what they write) */
  for (guint i = 0; i < G_N_ELEMENTS (streamed); i++)
    {
      g_autoptr(CliResult) result = cli_test_run ("export", path, "--to", streamed[i], NULL);

      g_assert_cmpint (result->status, ==, 0);
      g_assert_cmpstr (result->err, ==, "");
      g_assert_cmpuint (strlen (result->out), >, 0);
    }

  assert_usage_error (no_target);
  g_assert_nonnull (strstr (no_target->err, "collapsed"));
  assert_usage_error (unknown);
  g_assert_nonnull (strstr (unknown->err, "svg"));
  assert_usage_error (no_file);
  assert_usage_error (wrong_command);
  assert_usage_error (thread);

  /* A run without samples: nothing to write, said on stderr, status 1 as
   * for every target the run has nothing for */
  g_assert_cmpint (no_samples->status, ==, 1);
  g_assert_cmpstr (no_samples->out, ==, "");
  g_assert_nonnull (strstr (no_samples->err, "no sampled call stacks"));

  g_assert_cmpint (missing->status, ==, 1);
  g_assert_nonnull (strstr (missing->err, "missing.txt"));
}

static void
test_pmcstat_info_and_calltree (void)
{
  g_autofree char *path = pmcstat_path ("dd.txt");
  g_autofree char *simple = pmcstat_path ("simple.txt");
  g_autoptr(CliResult) info = cli_test_run ("info", path, NULL);
  g_autoptr(CliResult) info_text = cli_test_run ("info", "--text", path, NULL);
  g_autoptr(CliResult) calltree = cli_test_run ("calltree", simple, NULL);
  g_autoptr(JsonNode) info_root = NULL;
  g_autoptr(JsonNode) calltree_root = NULL;
  JsonObject *top, *source, *total;
  JsonArray *sources;

  g_assert_cmpint (info->status, ==, 0);
  info_root = cli_test_parse_json (info->out);
  top = json_node_get_object (info_root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "pmcstat-callgraph");
  g_assert_true (json_object_get_boolean_member (top, "complete"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "counts"), "samples"), ==, 22);
  sources = json_object_get_array_member (top, "sample_sources");
  g_assert_nonnull (sources);
  g_assert_cmpuint (json_array_get_length (sources), ==, 2);
  source = json_array_get_object_element (sources, 0);
  g_assert_cmpstr (json_object_get_string_member (source, "name"), ==, "CLOCK.HARD");
  g_assert_cmpint (json_object_get_int_member (source, "samples"), ==, 254);
  source = json_array_get_object_element (sources, 1);
  g_assert_cmpint (json_object_get_int_member (source, "samples"), ==, 66);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (top, "metadata"), "samples"), ==, "320");

  g_assert_cmpint (info_text->status, ==, 0);
  g_assert_true (g_regex_match_simple ("^ +CLOCK\\.HARD +254", info_text->out, G_REGEX_MULTILINE, 0));

  g_assert_cmpint (calltree->status, ==, 0);
  calltree_root = cli_test_parse_json (calltree->out);
  top = json_node_get_object (calltree_root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "pmcstat-callgraph");
  g_assert_cmpstr (json_object_get_string_member (top, "unit"), ==, "samples");
  total = json_object_get_object_member (top, "total");
  g_assert_cmpint (json_object_get_int_member (total, "elapsed"), ==, 262077);
  /* Kernel samples only: no application samples */
  g_assert_cmpint (json_object_get_int_member (total, "application"), ==, 0);
  g_assert_nonnull (find_named (json_object_get_array_member (top, "functions"), "acpi_cpu_c1"));
}

/* Counts the nodes named `name` in a tree, and those of them whose
 * parent has that name too */
static void
count_named_nodes (JsonObject *node,
                   const char *name,
                   gboolean    parent_named,
                   guint      *n_named,
                   guint      *n_repeated)
{
  JsonArray *children = json_object_get_array_member (node, "children");
  gboolean named = g_strcmp0 (json_object_get_string_member (node, "name"), name) == 0;

  *n_named += named;
  *n_repeated += named && parent_named;
  for (guint i = 0; i < json_array_get_length (children); i++)
    count_named_nodes (json_array_get_object_element (children, i), name, named, n_named, n_repeated);
}

/* iperf3.txt prints frames without symbols as addresses: three in
 * iperf3 (one below the other), two in libc */
static void
test_pmcstat_group_addresses (void)
{
  g_autofree char *path = pmcstat_path ("iperf3.txt");
  g_autoptr(CliResult) plain = cli_test_run ("calltree", path, NULL);
  g_autoptr(CliResult) grouped = cli_test_run ("calltree", "--group-addresses", path, NULL);
  g_autoptr(CliResult) text = cli_test_run ("calltree", "--text", "--group-addresses", path, NULL);
  g_autoptr(CliResult) misplaced = cli_test_run ("stats", "--group-addresses", path, NULL);
  g_autoptr(JsonNode) plain_root = NULL;
  g_autoptr(JsonNode) grouped_root = NULL;
  JsonArray *functions;
  JsonObject *iperf3, *libc, *node;
  double exclusive = 0;
  guint n_named = 0, n_repeated = 0;

  g_assert_cmpint (plain->status, ==, 0);
  plain_root = cli_test_parse_json (plain->out);
  functions = json_object_get_array_member (json_node_get_object (plain_root), "functions");
  g_assert_nonnull (find_named (functions, "0x20210f"));
  g_assert_null (find_named (functions, "iperf3"));
  g_assert_null (strstr (plain->out, "\"addresses\""));

  g_assert_cmpint (grouped->status, ==, 0);
  grouped_root = cli_test_parse_json (grouped->out);
  functions = json_object_get_array_member (json_node_get_object (grouped_root), "functions");
  g_assert_null (find_named (functions, "0x20210f"));
  iperf3 = find_named (functions, "iperf3");
  g_assert_nonnull (iperf3);
  g_assert_cmpstr (json_object_get_string_member (iperf3, "module"), ==, "/usr/local/bin/iperf3");
  g_assert_cmpint (json_object_get_int_member (iperf3, "addresses"), ==, 3);
  libc = find_named (functions, "libc.so.7");
  g_assert_nonnull (libc);
  g_assert_cmpint (json_object_get_int_member (libc, "addresses"), ==, 2);
  g_assert_false (json_object_has_member (find_named (functions, "amd64_syscall"), "addresses"));
  /* The same samples: the exclusive values still add up to the total */
  for (guint i = 0; i < json_array_get_length (functions); i++)
    exclusive += json_object_get_double_member (json_array_get_object_element (functions, i), "elapsed_exclusive");
  g_assert_cmpfloat (exclusive, ==, 118);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (grouped_root), "total"),
                                               "elapsed"), ==, 118);
  /* iperf3's three addresses on one stack are one call of it: no
   * iperf3 node has an iperf3 child */
  node = json_object_get_object_member (json_node_get_object (grouped_root), "tree");
  count_named_nodes (node, "iperf3", FALSE, &n_named, &n_repeated);
  g_assert_cmpuint (n_named, >, 0);
  g_assert_cmpuint (n_repeated, ==, 0);

  g_assert_cmpint (text->status, ==, 0);
  g_assert_true (g_regex_match_simple ("^  iperf3 \\[3 addresses\\] +0 +4 ", text->out, G_REGEX_MULTILINE, 0));

  g_assert_cmpint (misplaced->status, ==, 2);
  g_assert_nonnull (strstr (misplaced->err, "--group-addresses"));
}

/* counters ------------------------------------------------------------- */

static char *
pdh_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", name, NULL);
}

static JsonObject *
find_counter_series (JsonArray  *series,
             const char *path)
{
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);

      if (g_strcmp0 (json_object_get_string_member (object, "path"), path) == 0)
        return object;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
assert_point (JsonArray *points,
              guint      index,
              gint64     time_ns,
              double     value)
{
  JsonArray *point = json_array_get_array_element (points, index);

  g_assert_cmpuint (json_array_get_length (point), ==, 2);
  g_assert_cmpint (json_array_get_int_element (point, 0), ==, time_ns);
  g_assert_cmpfloat (json_array_get_double_element (point, 1), ==, value);
}

/* perflib-v2.md §7.2: a logman log, bias 420 (PDT): the points are in ns
 * since 1970 UTC; missing samples are left out */
static void
test_counters_pdh (void)
{
  g_autofree char *path = pdh_path ("logman-pdt.csv");
  g_autoptr(CliResult) result = cli_test_run ("counters", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  const gint64 start = G_GINT64_CONSTANT (1718470800000000000);  /* 06/15/2024 17:00:00 UTC */
  JsonObject *top, *series;
  JsonArray *all, *points;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  top = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "pdh-csv");
  g_assert_true (json_object_get_boolean_member (top, "complete"));
  g_assert_cmpstr (json_object_get_string_member (top, "time_base"), ==, "unix");
  all = json_object_get_array_member (top, "series");
  g_assert_cmpuint (json_array_get_length (all), ==, 6);

  series = json_array_get_object_element (all, 0);
  g_assert_cmpstr (json_object_get_string_member (series, "path"), ==, "\\\\WS01\\Processor(_Total)\\% Processor Time");
  g_assert_cmpstr (json_object_get_string_member (series, "object"), ==, "Processor");
  g_assert_cmpstr (json_object_get_string_member (series, "counter"), ==, "% Processor Time");
  g_assert_cmpstr (json_object_get_string_member (series, "instance"), ==, "_Total");
  g_assert_cmpstr (json_object_get_string_member (series, "machine"), ==, "WS01");
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "%");
  /* PDH text logs have no counter types */
  g_assert_true (json_object_get_null_member (series, "type"));
  points = json_object_get_array_member (series, "points");
  g_assert_cmpuint (json_array_get_length (points), ==, 2);
  assert_point (points, 0, start + G_GINT64_CONSTANT (1000000000), 11.296813511113458);
  assert_point (points, 1, start + G_GINT64_CONSTANT (2500000000), -1);
  g_assert_cmpint (json_object_get_int_member (series, "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (series, "missing"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (series, "min"), ==, -1);
  g_assert_cmpfloat (json_object_get_double_member (series, "max"), ==, 11.296813511113458);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (series, "mean"), (11.296813511113458 - 1) / 2, 1e-12);
  g_assert_cmpfloat (json_object_get_double_member (series, "last"), ==, -1);

  series = find_counter_series (all, "\\\\WS01\\Memory\\Available MBytes");
  g_assert_true (json_object_get_null_member (series, "instance"));
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "MB");
  points = json_object_get_array_member (series, "points");
  g_assert_cmpuint (json_array_get_length (points), ==, 3);
  assert_point (points, 0, start, 8123);
  assert_point (points, 2, start + G_GINT64_CONSTANT (2500000000), 1.5e10);

  /* Instances as PDH writes them */
  series = find_counter_series (all, "\\\\WS01\\Thread(explorer/0)\\Context Switches/sec");
  g_assert_cmpstr (json_object_get_string_member (series, "instance"), ==, "explorer/0");
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "/sec");
  series = find_counter_series (all, "\\\\WS01\\Process(svchost#3)\\Working Set");
  g_assert_cmpstr (json_object_get_string_member (series, "instance"), ==, "svchost#3");

  /* Every value missing but one ("n/a", a short row) */
  series = find_counter_series (all, "\\\\WS01\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (series, "points")), ==, 1);
  g_assert_cmpint (json_object_get_int_member (series, "missing"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (series, "mean"), ==, 0.00052);
}

/* A PLV2 capture (bench/gen-plv2 --counters 4 --instances 2 --samples 5
 * --seed 7): every series named with its PerfLib type, and the display
 * values those of the formula (perflib-v2.md §4.3) over the raw values,
 * read here from the capture with the decoders directly */
typedef struct
{
  GArray *idle;   /* guint64: % Processor Time's raw value of CPU 0,0 per sample */
  GArray *time;   /* gint64: PerfTime100NSec per sample */
} RawProcessorTime;

static gboolean
collect_raw_processor_time (const PsPlv2Record *record,
                            gpointer            user_data,
                            GError            **error)
{
  RawProcessorTime *raw = user_data;
  g_autoptr(PsPerflibBuffer) buffer = NULL;

  if ((record->type & ~PS_PLV2_MUST_UNDERSTAND) != PS_PLV2_RECORD_SAMPLE)
    return TRUE;
  g_assert_true (ps_perflib_buffer_decode (record->body, record->body_size, &buffer, NULL));
  g_array_append_val (raw->time, buffer->perf_time_100nsec);
  /* One counterset block (dwType 6), instance by instance: the first value
   * of the first instance is the first registered counter */
  g_assert_cmpuint (buffer->n_blocks, ==, 1);
  g_assert_cmpstr (buffer->instances[buffer->values[0].instance].name, ==, "0,0");
  g_array_append_val (raw->idle, buffer->values[0].value);
  return TRUE;
}

static void
test_counters_plv2 (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "perflib-plv2", "processor-2cpu.plv2", NULL);
  g_autoptr(CliResult) result = cli_test_run ("counters", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  RawProcessorTime raw = { g_array_new (FALSE, FALSE, sizeof (guint64)), g_array_new (FALSE, FALSE, sizeof (gint64)) };
  PsPlv2Callbacks callbacks = { NULL, collect_raw_processor_time, NULL };
  g_autoptr(PsPlv2Reader) reader = ps_plv2_reader_new (&callbacks, &raw);
  JsonObject *top, *series;
  JsonArray *all, *points;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_true (ps_plv2_reader_feed (reader, (const guint8 *)contents, length, NULL));
  g_assert_true (ps_plv2_reader_finish (reader, NULL));
  g_assert_cmpuint (raw.idle->len, ==, 5);

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  top = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "perflib-plv2");
  g_assert_cmpstr (json_object_get_string_member (top, "time_base"), ==, "unix");
  g_assert_cmpint (json_object_get_int_member (top, "points_stride"), ==, 1);
  all = json_object_get_array_member (top, "series");
  /* 4 counters × CPUs 0,0 and 0,1 and _Total */
  g_assert_cmpuint (json_array_get_length (all), ==, 12);

  series = find_counter_series (all, "\\\\GEN-PLV2\\Processor Information(0,0)\\% Processor Time");
  g_assert_cmpstr (json_object_get_string_member (series, "type"), ==, "PERF_100NSEC_TIMER_INV");
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "%");
  g_assert_cmpstr (json_object_get_string_member (series, "instance"), ==, "0,0");
  g_assert_cmpstr (json_object_get_string_member (series, "machine"), ==, "GEN-PLV2");
  /* A rate: no value for the first sample */
  g_assert_cmpint (json_object_get_int_member (series, "missing"), ==, 1);
  points = json_object_get_array_member (series, "points");
  g_assert_cmpuint (json_array_get_length (points), ==, 4);
  for (guint i = 1; i < 5; i++)
    {
      JsonArray *point = json_array_get_array_element (points, i - 1);
      gint64 d0 = g_array_index (raw.time, gint64, i - 1);
      gint64 d1 = g_array_index (raw.time, gint64, i);
      double n = (double)(g_array_index (raw.idle, guint64, i) - g_array_index (raw.idle, guint64, i - 1));
      double expected = 100.0 * (1.0 - n / (double)(d1 - d0));

      /* PerfTime100NSec is 100 ns since 1601 */
      g_assert_cmpint (json_array_get_int_element (point, 0), ==,
                       (d1 - G_GINT64_CONSTANT (116444736000000000)) * 100);
      g_assert_cmpfloat_with_epsilon (json_array_get_double_element (point, 1), expected, 1e-9);
      g_assert_cmpfloat (json_array_get_double_element (point, 1), >=, 0);
      g_assert_cmpfloat (json_array_get_double_element (point, 1), <=, 100);
    }

  series = find_counter_series (all, "\\\\GEN-PLV2\\Processor Information(_Total)\\Interrupts/sec");
  g_assert_cmpstr (json_object_get_string_member (series, "type"), ==, "PERF_COUNTER_COUNTER");
  g_assert_cmpstr (json_object_get_string_member (series, "unit"), ==, "/sec");
  g_assert_cmpint (json_object_get_int_member (series, "count"), ==, 4);

  g_array_unref (raw.idle);
  g_array_unref (raw.time);
}

/* typeperf names no time zone: points from the first sample */
static void
test_counters_run_times (void)
{
  g_autofree char *path = pdh_path ("typeperf-stdout.csv");
  g_autoptr(CliResult) result = cli_test_run ("counters", "--json", path, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *top, *series;
  JsonArray *points;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  top = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (top, "time_base"), ==, "run");
  series = json_array_get_object_element (json_object_get_array_member (top, "series"), 1);
  g_assert_cmpstr (json_object_get_string_member (series, "counter"), ==, "Pages/sec");
  points = json_object_get_array_member (series, "points");
  assert_point (points, 0, 0, 0);
  assert_point (points, 1, 1002000000, 3);
}

static void
test_counters_text (void)
{
  g_autofree char *path = pdh_path ("logman-pdt.csv");
  g_autoptr(CliResult) result = cli_test_run ("counters", "--text", path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_true (g_str_has_prefix (result->out, "6 counters, from 06/15/2024 10:00:00.000 (Pacific Daylight Time)\n"));
  g_assert_true (g_regex_match_simple ("^ +Machine +Object +Instance +Counter +Unit +Count +Missing +Min +Max +Mean +Last$",
                                       result->out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +WS01 +Processor +_Total +% Processor Time +% +2 +1 +-1 +11\\.2968 +5\\.14841 +-1$",
                                       result->out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +WS01 +Memory +– +Available MBytes +MB +3 +0 ",
                                       result->out, G_REGEX_MULTILINE, 0));
}

/* A run without counter tracks: exit 1, said on stderr */
static void
test_counters_none (void)
{
  g_autofree char *path = example_path ();
  g_autoptr(CliResult) result = cli_test_run ("counters", path, NULL);
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *plain = g_build_filename (dir, "plain.csv", NULL);
  g_autoptr(CliResult) forced = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (result->status, ==, 1);
  g_assert_cmpstr (result->out, ==, "");
  g_assert_nonnull (strstr (result->err, "no performance counters"));

  /* Not a PDH log, even when forced */
  g_file_set_contents (plain, "\"Time\",\"Value\"\r\n\"1\",\"2\"\r\n", -1, &error);
  g_assert_no_error (error);
  forced = cli_test_run ("counters", "--format", "pdh-csv", plain, NULL);
  g_assert_cmpint (forced->status, ==, 1);
  g_assert_nonnull (strstr (forced->err, "not a PDH log"));
  g_remove (plain);
  g_rmdir (dir);
}

static void
test_pmclog (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-cli-XXXXXX", NULL);
  g_autofree char *path = cli_test_write_pmclog (dir);
  g_autoptr(CliResult) info = cli_test_run ("info", "--sysroot", dir, path, NULL);
  g_autoptr(CliResult) calltree = cli_test_run ("calltree", path, NULL);
  g_autoptr(CliResult) folded = cli_test_run ("export", path, "--to", "collapsed", NULL);
  g_autoptr(CliResult) callgraph = cli_test_run ("export", path, "--to", "pmcstat-callgraph", "--depth", "1", NULL);
  g_autoptr(CliResult) bad_width = cli_test_run ("info", "--address-width", "6", path, NULL);
  g_autoptr(CliResult) bad_sysroot = cli_test_run ("info", "--sysroot", path, path, NULL);
  g_autoptr(JsonNode) info_root = NULL;
  g_autoptr(JsonNode) calltree_root = NULL;
  JsonObject *top, *total, *metadata;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (info->status, ==, 0);
  info_root = cli_test_parse_json (info->out);
  top = json_node_get_object (info_root);
  g_assert_cmpstr (json_object_get_string_member (top, "format"), ==, "hwpmc-pmclog");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "counts"), "samples"), ==, 3);
  metadata = json_object_get_object_member (top, "metadata");
  g_assert_cmpstr (json_object_get_string_member (metadata, "sysroot"), ==, dir);
  g_assert_cmpstr (json_object_get_string_member (metadata, "cpuid"), ==, "GenuineIntel-6-55-4");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (top, "sample_sources"), 0), "name"),
                   ==, "CLOCK.HARD");
  /* 1 GHz: the samples are 1, 2 and 3 µs after INITIALIZE */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "time_range_ns"), "begin"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "time_range_ns"), "end"), ==, 3000);

  g_assert_cmpint (calltree->status, ==, 0);
  calltree_root = cli_test_parse_json (calltree->out);
  top = json_node_get_object (calltree_root);
  g_assert_cmpstr (json_object_get_string_member (top, "unit"), ==, "samples");
  total = json_object_get_object_member (top, "total");
  g_assert_cmpint (json_object_get_int_member (total, "elapsed"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (total, "application"), ==, 2);
  g_assert_nonnull (find_named (json_object_get_array_member (top, "functions"), "dd+0x123"));

  g_assert_cmpint (folded->status, ==, 0);
  lines = g_strsplit (folded->out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[0], ==, "dd+0x456;dd+0x123 2");
  g_assert_cmpstr (lines[1], ==, "dd+0x456;kernel+0x100010 1");

  g_assert_cmpint (callgraph->status, ==, 0);
  g_assert_cmpstr (callgraph->out, ==,
                   "@ CLOCK.HARD [3 samples]\n"
                   "\n"
                   "66.67%  [2]        0x123 @ /bin/dd\n"
                   "\n"
                   "33.33%  [1]        0x100010 @ /boot/kernel/kernel\n"
                   "\n");

  assert_usage_error (bad_width);
  assert_usage_error (bad_sysroot);

  g_remove (path);
  g_rmdir (dir);
}

static void
test_help_and_version (void)
{
  g_autoptr(CliResult) help = cli_test_run ("--help", NULL);
  g_autoptr(CliResult) short_help = cli_test_run ("-h", NULL);
  g_autoptr(CliResult) version = cli_test_run ("--version", NULL);

  g_assert_cmpint (help->status, ==, 0);
  g_assert_nonnull (strstr (help->out, "stats"));
  g_assert_nonnull (strstr (help->out, "--group-by-name"));
  g_assert_nonnull (strstr (help->out, "--tick-rate"));
  g_assert_cmpint (short_help->status, ==, 0);
  g_assert_cmpstr (short_help->out, ==, help->out);
  g_assert_cmpint (version->status, ==, 0);
  g_assert_true (g_str_has_prefix (version->out, "perfscope-cli "));
}

/* Exit 3: the file was read only in part. The CE parser never stops on
 * content, so only an I/O error after some data gives a partial store. A
 * pseudo-terminal makes one: the CLI reads the slave side, and once it has
 * taken the data, closing the master makes its next read fail with EIO. */
static void
test_exit_partial (void)
{
#ifdef __linux__
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [Test=A] AS [1] BY APP [t]\r\n"
    "## PERF ## APP [t] EVT [1] DUR [40]\r\n";
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonNode) root = NULL;
  struct termios raw;
  const char *slave_name;
  JsonObject *info;
  JsonObject *error_object;
  int master, slave;
  int pending = -1;

  master = posix_openpt (O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt (master) != 0 || unlockpt (master) != 0 || (slave_name = ptsname (master)) == NULL)
    {
      g_test_skip ("No pseudo-terminal to produce a read error with");
      if (master >= 0)
        close (master);
      return;
    }

  /* Raw, so that the terminal passes the bytes through unchanged */
  slave = open (slave_name, O_RDWR | O_NOCTTY);
  g_assert_cmpint (slave, >=, 0);
  g_assert_cmpint (tcgetattr (slave, &raw), ==, 0);
  cfmakeraw (&raw);
  g_assert_cmpint (tcsetattr (slave, TCSANOW, &raw), ==, 0);
  g_assert_cmpint (write (master, log, sizeof log - 1), ==, (gssize)(sizeof log - 1));

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              cli_path (), "info", "--quiet", slave_name, NULL);
  g_assert_no_error (error);

  /* Wait until the CLI has read everything, then hang up */
  for (guint i = 0; i < 1000; i++)
    {
      g_assert_cmpint (ioctl (slave, FIONREAD, &pending), ==, 0);
      if (pending == 0)
        break;
      g_usleep (10 * 1000);
    }
  g_assert_cmpint (pending, ==, 0);
  g_usleep (50 * 1000);
  close (master);
  close (slave);

  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 3);

  root = cli_test_parse_json (out);
  info = json_node_get_object (root);
  g_assert_false (json_object_get_boolean_member (info, "complete"));
  error_object = json_object_get_object_member (info, "error");
  g_assert_nonnull (error_object);
  g_assert_nonnull (json_object_get_string_member (error_object, "message"));
  g_assert_cmpint (json_object_get_int_member (error_object, "offset"), ==, sizeof log - 1);
  /* What was read is still described */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (info, "counts"), "measurements"), ==, 1);
  g_assert_nonnull (strstr (err, "in part"));
#else
  g_test_skip ("A partial read is produced with a Linux pseudo-terminal");
#endif
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/info/golden", test_info_golden);
  g_test_add_func ("/cli/info/several", test_info_several);
  g_test_add_func ("/cli/info/text", test_info_text);
  g_test_add_func ("/cli/info/stdin", test_info_stdin);
  g_test_add_func ("/cli/info/warnings", test_info_warnings);
  g_test_add_func ("/cli/stats/golden", test_stats_golden);
  g_test_add_func ("/cli/stats/spec-table", test_stats_spec_table);
  g_test_add_func ("/cli/stats/number-text", test_stats_number_text);
  g_test_add_func ("/cli/stats/text", test_stats_text);
  g_test_add_func ("/cli/stats/group-by-name", test_stats_group_by_name);
  g_test_add_func ("/cli/stats/include-negative", test_stats_include_negative);
  g_test_add_func ("/cli/stats/tick-rate", test_stats_tick_rate);
  g_test_add_func ("/cli/stats/no-resolution", test_stats_no_resolution);
  g_test_add_func ("/cli/rtl/info-golden", test_rtl_info_golden);
  g_test_add_func ("/cli/rtl/stats-golden", test_rtl_stats_golden);
  g_test_add_func ("/cli/rtl/per-thread-and-filters", test_rtl_stats_per_thread_and_filters);
  g_test_add_func ("/cli/rtl/stats-totals-only", test_rtl_stats_totals_only);
  g_test_add_func ("/cli/calltree/worked-example", test_calltree_worked_example);
  g_test_add_func ("/cli/calltree/threads-depth-text", test_calltree_threads_depth_text);
  g_test_add_func ("/cli/calltree/vs-report", test_calltree_vs_report);
  g_test_add_func ("/cli/formats", test_formats);
  g_test_add_func ("/cli/format/forced", test_format_forced);
  g_test_add_func ("/cli/exit/missing-file", test_exit_missing_file);
  g_test_add_func ("/cli/exit/not-a-log", test_exit_not_a_log);
  g_test_add_func ("/cli/exit/info-mixed", test_exit_info_mixed);
  g_test_add_func ("/cli/exit/partial", test_exit_partial);
  g_test_add_func ("/cli/usage/errors", test_usage_errors);
  g_test_add_func ("/cli/usage/unknown-format", test_usage_unknown_format);
  g_test_add_func ("/cli/usage/help-version", test_help_and_version);
  g_test_add_func ("/cli/export/collapsed", test_export_collapsed);
  g_test_add_func ("/cli/export/output-and-source", test_export_output_and_source);
  g_test_add_func ("/cli/export/usage", test_export_usage);
  g_test_add_func ("/cli/pmcstat/info-calltree", test_pmcstat_info_and_calltree);
  g_test_add_func ("/cli/pmcstat/group-addresses", test_pmcstat_group_addresses);
  g_test_add_func ("/cli/hwpmc", test_pmclog);
  g_test_add_func ("/cli/counters/pdh", test_counters_pdh);
  g_test_add_func ("/cli/counters/plv2", test_counters_plv2);
  g_test_add_func ("/cli/counters/run-times", test_counters_run_times);
  g_test_add_func ("/cli/counters/text", test_counters_text);
  g_test_add_func ("/cli/counters/none", test_counters_none);
  g_test_add_func ("/cli/record/unknown-backend", test_record_unknown_backend);
  g_test_add_func ("/cli/record/procfs", test_record_procfs);
  g_test_add_func ("/cli/record/command-exits", test_record_command_exits);
  g_test_add_func ("/cli/record/tree", test_record_tree);
  g_test_add_func ("/cli/record/save", test_record_save);
#ifdef __linux__
  g_test_add_func ("/cli/record/stalled", test_record_stalled);
#endif
  g_test_add_func ("/cli/diff/json", test_diff_json);
  g_test_add_func ("/cli/diff/text", test_diff_text);
  g_test_add_func ("/cli/diff/export", test_diff_export);
  g_test_add_func ("/cli/diff/missing-file", test_diff_missing_file);
  g_test_add_func ("/cli/diff/vs-reports", test_diff_vs_reports);
  g_test_add_func ("/cli/diff/pmcstat", test_diff_pmcstat);
  g_test_add_func ("/cli/diff/hwpmc", test_diff_hwpmc);
  g_test_add_func ("/cli/diff/logs", test_diff_logs);
  g_test_add_func ("/cli/diff/saved-runs", test_diff_saved_runs);
  g_test_add_func ("/cli/diff/threshold-usage", test_diff_threshold_usage);

  return g_test_run ();
}
