/* test-cli-trend.c — perfscope-cli summarize and trend, run as a user would
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "summarize", "trend". Twenty nightly CE PerfLogs are
 * written by the test: "Test=Write" takes 10 ms a call until the 13th
 * run and 12 ms from then on; "Test=Read" stays at 5 ms. Appended into
 * one log they are its sessions, which diff compares one with another
 * as it compares the files they were.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <utime.h>

#include "cli-test-util.h"
#include "seeded-noise.h"

#define N_RUNS     20
#define STEP_RUN   12   /* 0-based: run-13.log is the first slower one */
#define N_CALLS    30

typedef struct
{
  char      *dir;        /* the logs, run-1.log … run-20.log */
  char      *summaries;  /* their summaries, made by a test that needs them */
  GPtrArray *files;      /* every file written, to remove */
} Fixture;

/* One run's log: build 1001 + run, timer at 1 MHz */
static char *
run_log (guint run)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (run + 1);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "## PERF ## OSVERSION=[6.0] BUILD=[%u]\r\n", 1001 + run);
  g_string_append (text, "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n"
                         "## PERF ## REGISTERED APP [bench] PROCCESSID [0x1]\r\n"
                         "## PERF ## RESOLUTION [1000000] TICKS PER SECOND\r\n"
                         "## PERF ## REGISTERED MARKER [Test=Write] AS [0] BY APP [bench]\r\n"
                         "## PERF ## REGISTERED MARKER [Test=Read] AS [1] BY APP [bench]\r\n");
  for (guint i = 0; i < N_CALLS; i++)
    {
      g_string_append_printf (text, "## PERF ## APP [bench] EVT [0] DUR [%.0f]\r\n",
                              seeded_noise_normal (rand, run < STEP_RUN ? 10000 : 12000, 100));
      g_string_append_printf (text, "## PERF ## APP [bench] EVT [1] DUR [%.0f]\r\n", seeded_noise_normal (rand, 5000, 50));
    }
  return g_string_free (text, FALSE);
}

static char *
fixture_write (Fixture    *fixture,
               const char *dir,
               const char *name,
               const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  g_ptr_array_add (fixture->files, g_strdup (path));
  return path;
}

/* The file names sort as text in another order than as numbers:
 * run-10.log before run-2.log */
static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("perfscope-trend-XXXXXX", NULL);
  fixture->summaries = g_dir_make_tmp ("perfscope-trend-summaries-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->files = g_ptr_array_new_with_free_func (g_free);

  for (guint run = 0; run < N_RUNS; run++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u.log", run + 1);
      g_autofree char *text = run_log (run);
      g_autofree char *path = fixture_write (fixture, fixture->dir, name, text);
      /* The newest file is the first run: --by time reverses the trend */
      struct utimbuf times = { 1700000000 + 86400 * (N_RUNS - run), 1700000000 + 86400 * (N_RUNS - run) };

      g_assert_cmpint (g_utime (path, &times), ==, 0);
    }
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  for (guint i = 0; i < fixture->files->len; i++)
    g_remove (g_ptr_array_index (fixture->files, i));
  g_rmdir (fixture->dir);
  g_rmdir (fixture->summaries);
  g_free (fixture->dir);
  g_free (fixture->summaries);
  g_ptr_array_unref (fixture->files);
}

static char *
log_path (Fixture *fixture,
          guint    run)
{
  g_autofree char *name = g_strdup_printf ("run-%u.log", run + 1);

  return g_build_filename (fixture->dir, name, NULL);
}

/* The row of that name in the output's rows, or NULL */
static JsonObject *
find_row (JsonObject *root,
          const char *name)
{
  JsonArray *rows = json_object_get_array_member (root, "rows");

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (g_strcmp0 (json_object_get_string_member (row, "name"), name) == 0)
        return row;
    }
  return NULL;
}

/* The one change point of Test=Write, from run `before` to run `after`
 * (indexes in the trend, file names) */
static void
assert_step (JsonObject *root,
             guint       after,
             const char *after_file,
             const char *before_file,
             const char *change,
             double      relative_change)
{
  JsonObject *row = find_row (root, "Test=Write");
  JsonArray *points;
  JsonObject *point;

  g_assert_cmpint (json_object_get_int_member (root, "n_runs"), ==, N_RUNS);
  g_assert_cmpint (json_object_get_int_member (root, "n_rows"), ==, 2);
  /* Test=Read has no change: only the rows that changed are listed */
  g_assert_cmpint (json_object_get_int_member (root, "n_changed"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "rows")), ==, 1);
  g_assert_nonnull (row);
  g_assert_cmpstr (json_object_get_string_member (row, "kind"), ==, "duration");
  g_assert_cmpstr (json_object_get_string_member (row, "unit"), ==, "s");
  g_assert_cmpint (json_object_get_int_member (row, "runs"), ==, N_RUNS);

  points = json_object_get_array_member (row, "change_points");
  g_assert_cmpuint (json_array_get_length (points), ==, 1);
  point = json_array_get_object_element (points, 0);
  g_assert_cmpint (json_object_get_int_member (point, "run"), ==, after);
  g_assert_cmpstr (json_object_get_string_member (point, "file"), ==, after_file);
  g_assert_cmpint (json_object_get_int_member (point, "run_before"), ==, after - 1);
  g_assert_cmpstr (json_object_get_string_member (point, "file_before"), ==, before_file);
  g_assert_cmpstr (json_object_get_string_member (point, "change"), ==, change);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (point, "relative_change"), relative_change, 0.01);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (row, "largest_change"), fabs (relative_change), 0.01);
  g_assert_cmpfloat (json_object_get_double_member (point, "p_value"), <, 1e-6);
  g_assert_cmpfloat (json_object_get_double_member (point, "p_value"), >=, 0);
}

static void
test_by_name (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(CliResult) result = cli_test_run ("trend", "--by", "name", fixture->dir, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
  JsonObject *object = json_node_get_object (root);
  JsonArray *runs = json_object_get_array_member (object, "runs");

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (object, "by"), ==, "name");
  g_assert_cmpstr (json_object_get_string_member (object, "value"), ==, "median");
  g_assert_cmpfloat (json_object_get_double_member (object, "min_change"), ==, 0.05);
  /* Numbers in names as numbers */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 1), "file"), ==, "run-2.log");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 19), "file"), ==, "run-20.log");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 0), "build"), ==, "1001");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 0), "version"), ==, "6.0");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 0), "format"), ==, "ce-perflog");
  /* CE logs have no time: the file's */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 0), "time_source"), ==, "file");
  assert_step (object, STEP_RUN, "run-13.log", "run-12.log", "regression", 0.2);
}

static void
test_by_version (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(CliResult) result = cli_test_run ("trend", "--by", "version", fixture->dir, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);

  g_assert_cmpint (result->status, ==, 0);
  assert_step (json_node_get_object (root), STEP_RUN, "run-13.log", "run-12.log", "regression", 0.2);
}

/* The files' times run backwards: the change is then an improvement of
 * 12 ms to 10 ms, after the 8th run */
static void
test_by_time (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(CliResult) result = cli_test_run ("trend", fixture->dir, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
  JsonArray *runs = json_object_get_array_member (json_node_get_object (root), "runs");

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 0), "file"), ==, "run-20.log");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 0), "time"), ==,
                   "2023-11-15T22:13:20Z");
  assert_step (json_node_get_object (root), N_RUNS - STEP_RUN, "run-12.log", "run-13.log", "improvement",
               10.0 / 12 - 1);
}

static void
test_fail_on_regression (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(CliResult) failed = cli_test_run ("trend", "--by", "name", "--fail-on-regression", "10", fixture->dir, NULL);
  g_autoptr(CliResult) passed = cli_test_run ("trend", "--by", "name", "--fail-on-regression", "25", fixture->dir, NULL);
  /* In time order the newest run is after an improvement */
  g_autoptr(CliResult) improved = cli_test_run ("trend", "--fail-on-regression", "10", fixture->dir, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (failed->out);
  JsonObject *object = json_node_get_object (root);

  g_assert_cmpint (failed->status, ==, 4);
  g_assert_cmpfloat (json_object_get_double_member (object, "fail_on_regression"), ==, 0.1);
  g_assert_cmpint (json_object_get_int_member (object, "newest_regressions"), ==, 1);
  g_assert_true (json_object_get_boolean_member (find_row (object, "Test=Write"), "newest_regression"));
  g_assert_cmpint (passed->status, ==, 0);
  g_assert_cmpint (improved->status, ==, 0);
}

/* A step under --min-change is no change */
static void
test_min_change (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(CliResult) result = cli_test_run ("trend", "--by", "name", "--min-change", "25", fixture->dir, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "n_changed"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (root), "rows")), ==, 0);
}

/* The total of 30 calls steps from 0.3 s to 0.36 s */
static void
test_value_total (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(CliResult) result = cli_test_run ("trend", "--by", "name", "--value", "total", fixture->dir, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
  JsonObject *point;

  g_assert_cmpint (result->status, ==, 0);
  assert_step (json_node_get_object (root), STEP_RUN, "run-13.log", "run-12.log", "regression", 0.2);
  point = json_array_get_object_element (json_object_get_array_member (find_row (json_node_get_object (root), "Test=Write"),
                                                                       "change_points"), 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (point, "mean_before"), 0.3, 0.003);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (point, "mean_after"), 0.36, 0.003);
}

static void
test_summarize (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = log_path (fixture, 0);
  g_autoptr(CliResult) result = cli_test_run ("summarize", path, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
  JsonObject *object = json_node_get_object (root);
  JsonArray *runs = json_object_get_array_member (object, "runs");
  JsonObject *run = json_array_get_object_element (runs, 0);
  JsonArray *rows = json_object_get_array_member (run, "rows");
  JsonObject *row = json_array_get_object_element (rows, 0);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpint (json_object_get_int_member (object, "perfscope_summary"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (object, "file"), ==, "run-1.log");
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "ce-perflog");
  g_assert_true (json_object_get_boolean_member (object, "complete"));
  g_assert_cmpuint (json_array_get_length (runs), ==, 1);
  g_assert_true (json_object_get_null_member (run, "session"));
  g_assert_cmpstr (json_object_get_string_member (run, "version"), ==, "6.0");
  g_assert_cmpstr (json_object_get_string_member (run, "build"), ==, "1001");
  g_assert_cmpstr (json_object_get_string_member (run, "time"), ==, "2023-12-04T22:13:20Z");
  g_assert_cmpstr (json_object_get_string_member (run, "time_source"), ==, "file");
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (row, "kind"), ==, "duration");
  g_assert_cmpstr (json_object_get_string_member (row, "name"), ==, "Test=Write");
  g_assert_true (json_object_get_null_member (row, "context"));
  g_assert_cmpstr (json_object_get_string_member (row, "unit"), ==, "s");
  g_assert_cmpint (json_object_get_int_member (row, "count"), ==, N_CALLS);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (row, "median"), 0.01, 0.0002);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (row, "mean"), 0.01, 0.0002);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (row, "total"),
                                  N_CALLS * json_object_get_double_member (row, "mean"), 1e-12);
  g_assert_cmpfloat (json_object_get_double_member (row, "p95"), >, json_object_get_double_member (row, "median"));
}

/* Half of the runs as summaries made with -o, half as logs: the same trend */
static void
test_mixed_summaries (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CliResult) from_logs = cli_test_run ("trend", "--by", "name", fixture->dir, NULL);
  g_autoptr(CliResult) mixed = NULL;
  g_autoptr(JsonNode) logs_root = cli_test_parse_json (from_logs->out);
  g_autoptr(JsonNode) mixed_root = NULL;
  JsonNode *logs_rows, *mixed_rows;

  g_ptr_array_add (args, g_strdup ("trend"));
  g_ptr_array_add (args, g_strdup ("--by"));
  g_ptr_array_add (args, g_strdup ("name"));
  for (guint run = 0; run < N_RUNS; run++)
    {
      g_autofree char *path = log_path (fixture, run);

      if (run % 2 == 0)
        {
          g_autofree char *name = g_strdup_printf ("run-%u.log", run + 1);
          char *summary = g_build_filename (fixture->summaries, name, NULL);
          g_autoptr(CliResult) made = cli_test_run ("summarize", path, "-o", summary, NULL);

          g_assert_cmpint (made->status, ==, 0);
          g_assert_cmpstr (made->out, ==, "");
          g_ptr_array_add (fixture->files, g_strdup (summary));
          g_ptr_array_add (args, summary);
        }
      else
        g_ptr_array_add (args, g_steal_pointer (&path));
    }
  g_ptr_array_add (args, NULL);

  mixed = cli_test_run_argv ((const char * const *)args->pdata);
  g_assert_cmpint (mixed->status, ==, 0);
  mixed_root = cli_test_parse_json (mixed->out);
  logs_rows = json_object_get_member (json_node_get_object (logs_root), "rows");
  mixed_rows = json_object_get_member (json_node_get_object (mixed_root), "rows");
  g_assert_true (json_node_equal (logs_rows, mixed_rows));
  assert_step (json_node_get_object (mixed_root), STEP_RUN, "run-13.log", "run-12.log", "regression", 0.2);
}

/* The twenty logs appended into one, appended.log; its path */
static char *
write_appended (Fixture *fixture)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint run = 0; run < N_RUNS; run++)
    {
      g_autofree char *one = run_log (run);

      g_string_append (text, one);
    }
  return fixture_write (fixture, fixture->summaries, "appended.log", text->str);
}

/* The twenty logs appended into one: twenty sessions, twenty runs */
static void
test_appended_log (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autoptr(CliResult) result = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *runs;

  path = write_appended (fixture);

  result = cli_test_run ("trend", path, NULL);
  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  runs = json_object_get_array_member (json_node_get_object (root), "runs");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (runs, 13), "session"), ==, 13);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (runs, 13), "build"), ==, "1014");
  assert_step (json_node_get_object (root), STEP_RUN, "appended.log", "appended.log", "regression", 0.2);
}

/* The rows of diff on two sessions of the appended log are those of
 * diff on the two files they were, to the last digit */
static void
test_diff_sessions (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autofree char *before = log_path (fixture, STEP_RUN - 1);
  g_autofree char *after = log_path (fixture, STEP_RUN);
  g_autoptr(CliResult) sessions = NULL;
  g_autoptr(CliResult) files = NULL;
  g_autoptr(CliResult) table = NULL;
  g_autoptr(CliResult) beyond = NULL;
  g_autoptr(JsonNode) sessions_root = NULL;
  g_autoptr(JsonNode) files_root = NULL;
  JsonObject *object;
  JsonArray *rows, *file_rows;

  path = write_appended (fixture);

  sessions = cli_test_run ("diff", "--session-a", "11", "--session-b=12", path, path, NULL);
  files = cli_test_run ("diff", before, after, NULL);
  g_assert_cmpint (sessions->status, ==, 0);
  g_assert_cmpint (files->status, ==, 0);
  sessions_root = cli_test_parse_json (sessions->out);
  files_root = cli_test_parse_json (files->out);
  object = json_node_get_object (sessions_root);
  g_assert_cmpint (json_object_get_int_member (object, "session_a"), ==, 11);
  g_assert_cmpint (json_object_get_int_member (object, "session_b"), ==, 12);
  g_assert_cmpstr (json_object_get_string_member (object, "a"), ==, "appended.log");
  g_assert_true (json_object_get_null_member (json_node_get_object (files_root), "session_a"));
  g_assert_true (json_object_get_null_member (json_node_get_object (files_root), "session_b"));

  /* CPU and memory are in neither: the same rows, the same numbers */
  rows = json_object_get_array_member (object, "rows");
  file_rows = json_object_get_array_member (json_node_get_object (files_root), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);
  g_assert_cmpuint (json_array_get_length (file_rows), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(JsonNode) row = json_node_copy (json_array_get_element (rows, i));
      g_autoptr(JsonNode) file_row = json_node_copy (json_array_get_element (file_rows, i));

      g_assert_true (json_node_equal (row, file_row));
    }
  {
    JsonObject *row = find_row (object, "Test=Write");

    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (row, "a"), "count"), ==, N_CALLS);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (row, "b"), "count"), ==, N_CALLS);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (row, "ratio_mean"), 1.2, 0.01);
    g_assert_cmpstr (json_object_get_string_member (row, "change"), ==, "regression");
    g_assert_cmpstr (json_object_get_string_member (row, "reason"), ==, "significant");
    g_assert_cmpfloat (json_object_get_double_member (row, "p_value"), <, 1e-6);
    g_assert_cmpstr (json_object_get_string_member (find_row (object, "Test=Read"), "change"), ==, "unchanged");
  }

  table = cli_test_run ("diff", "--text", "--session-a", "11", "--session-b", "12", path, path, NULL);
  g_assert_cmpint (table->status, ==, 0);
  g_assert_true (g_str_has_prefix (table->out, "A: appended.log, session 11 (ce-perflog)\n"
                                                "B: appended.log, session 12 (ce-perflog)\n"));

  /* Sessions 0 to 19 */
  beyond = cli_test_run ("diff", "--session-b", "20", path, path, NULL);
  g_assert_cmpint (beyond->status, ==, 2);
  g_assert_nonnull (strstr (beyond->err, "no session 20"));
  g_assert_nonnull (strstr (beyond->err, "0 to 19"));
}

static void
test_text (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(CliResult) result = cli_test_run ("trend", "--text", "--by", "name", "--fail-on-regression", "10",
                                              fixture->dir, NULL);
  g_auto(GStrv) lines = g_strsplit (result->out, "\n", -1);

  g_test_message ("%s", result->out);
  g_assert_cmpint (result->status, ==, 4);
  g_assert_cmpstr (lines[0], ==, "20 runs by name, median per run: 1 of 2 rows changed");
  g_assert_cmpstr (lines[1], ==, "The newest run is after a regression of at least 10% in 1 row");
  g_assert_true (g_str_has_prefix (lines[3], "Kind"));
  g_assert_nonnull (strstr (lines[4], "Test=Write"));
  g_assert_nonnull (strstr (lines[4], "run-12.log"));
  g_assert_nonnull (strstr (lines[4], "run-13.log"));
  g_assert_nonnull (strstr (lines[4], " s "));
  g_assert_nonnull (strstr (lines[4], "+19.9"));
  g_assert_nonnull (strstr (lines[4], "regression"));
  g_assert_null (lines[5] != NULL && *lines[5] != '\0' ? lines[5] : NULL);
}

/* What cannot be read is named and left out; the gate still closes */
static void
test_unreadable (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *damaged = fixture_write (fixture, fixture->summaries, "damaged.json",
                                            "{\"perfscope_summary\": 1, \"runs\": [{\"rows\": [{\"kind\": ");
  g_autofree char *later = fixture_write (fixture, fixture->summaries, "later.json",
                                          "{\"perfscope_summary\": 2, \"runs\": []}");
  g_autofree char *missing = g_build_filename (fixture->dir, "missing.log", NULL);
  g_autoptr(CliResult) result = cli_test_run ("trend", "--by", "name", fixture->dir, damaged, later, missing, NULL);
  g_autoptr(CliResult) gated = cli_test_run ("trend", "--by", "name", "--fail-on-regression", "10",
                                             fixture->dir, damaged, NULL);
  g_autoptr(JsonNode) root = cli_test_parse_json (result->out);

  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "damaged.json"));
  g_assert_nonnull (strstr (result->err, "byte offset 53"));
  g_assert_nonnull (strstr (result->err, "later.json"));
  g_assert_nonnull (strstr (result->err, "version 2"));
  g_assert_nonnull (strstr (result->err, "missing.log"));
  assert_step (json_node_get_object (root), STEP_RUN, "run-13.log", "run-12.log", "regression", 0.2);
  g_assert_cmpint (gated->status, ==, 4);
}

static void
test_usage (void)
{
  const char * const bad[][6] = {
    { "trend", "--by", "date", "x", NULL },
    { "trend", "--value", "mean", "x", NULL },
    { "trend", "--fail-on-regression", "-1", "x", NULL },
    { "trend", "--noise-floor", "1", "x", NULL },
    { "stats", "--by", "name", "x", NULL },
    { "diff", "--fail-on-regression", "5", "a", "b", NULL },
    { "diff", "--session-a", "-1", "a", "b", NULL },
    { "diff", "--session-b", "x", "a", "b", NULL },
    { "stats", "--session-a", "0", "a", NULL },
    { "summarize", "a", "b", NULL },
    { "summarize", NULL },
    { "trend", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(CliResult) result = cli_test_run_argv (bad[i]);

      g_assert_cmpint (result->status, ==, 2);
      g_assert_nonnull (strstr (result->err, "--help"));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/cli-trend/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("by-name", test_by_name);
  ADD ("by-version", test_by_version);
  ADD ("by-time", test_by_time);
  ADD ("fail-on-regression", test_fail_on_regression);
  ADD ("min-change", test_min_change);
  ADD ("value-total", test_value_total);
  ADD ("summarize", test_summarize);
  ADD ("mixed-summaries", test_mixed_summaries);
  ADD ("appended-log", test_appended_log);
  ADD ("diff-sessions", test_diff_sessions);
  ADD ("text", test_text);
  ADD ("unreadable", test_unreadable);
#undef ADD
  g_test_add_func ("/cli-trend/usage", test_usage);

  return g_test_run ();
}
