/* test-trend-loader.c — the runs of many files read for a trend
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". A folder of two CE logs (one of two sessions), a
 * summary of one of them, a file that is not a run and one that is not
 * there: every run is read, each with the file it came from, the others
 * are problems; a cancel stops the reading.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ps-trend-loader.h"

/* A CE log of one session, measuring build; g_free () */
static char *
session_log (guint build)
{
  return g_strdup_printf ("## PERF ## OSVERSION=[6.0] BUILD=[%u]\r\n"
                          "## PERF ## REGISTERED APP [bench] PROCCESSID [0x1]\r\n"
                          "## PERF ## RESOLUTION [1000000] TICKS PER SECOND\r\n"
                          "## PERF ## REGISTERED MARKER [Test=Write] AS [0] BY APP [bench]\r\n"
                          "## PERF ## APP [bench] EVT [0] DUR [%u]\r\n"
                          "## PERF ## APP [bench] EVT [0] DUR [%u]\r\n",
                          build, 1000 + build, 1002 + build);
}

typedef struct
{
  char  *dir;
  GFile *folder;
} Fixture;

static void
write_file (Fixture    *fixture,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (fixture->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *one = session_log (1);
  g_autofree char *second = session_log (2);
  g_autofree char *third = session_log (3);
  g_autofree char *hidden = session_log (9);
  g_autofree char *two = g_strconcat (second, third, NULL);

  fixture->dir = g_dir_make_tmp ("perfscope-test-trend-loader-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->folder = g_file_new_for_path (fixture->dir);
  write_file (fixture, "a.log", one);
  write_file (fixture, "b.log", two);
  write_file (fixture, "c.txt", "not a run\n");
  write_file (fixture, ".hidden.log", hidden);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (fixture->dir);
  g_clear_object (&fixture->folder);
  g_free (fixture->dir);
}

static void
count_progress (double      fraction,
                const char *file_name,
                gpointer    user_data)
{
  double *last = user_data;

  /* Never backwards, never past the end */
  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static const char *
run_file_name (PsTrendInputs *inputs,
               guint          index,
               char         **owned)
{
  GFile *file = g_hash_table_lookup (inputs->files, g_ptr_array_index (inputs->runs, index));

  g_assert_nonnull (file);
  *owned = g_file_get_basename (file);
  return *owned;
}

static void
test_folder (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GFile) missing = g_file_get_child (fixture->folder, "missing.log");
  GFile *files[] = { fixture->folder, missing };
  g_autoptr(PsTrendInputs) inputs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name0 = NULL, *name1 = NULL, *name2 = NULL;
  const PsTrendProblem *problem;
  double last = 0;

  inputs = ps_trend_inputs_read (files, G_N_ELEMENTS (files), NULL, count_progress, &last, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (last, ==, 1.0);

  /* a.log, then b.log's two sessions; the hidden file is left out */
  g_assert_cmpuint (inputs->runs->len, ==, 3);
  g_assert_cmpstr (run_file_name (inputs, 0, &name0), ==, "a.log");
  g_assert_cmpstr (run_file_name (inputs, 1, &name1), ==, "b.log");
  g_assert_cmpstr (run_file_name (inputs, 2, &name2), ==, "b.log");
  g_assert_cmpint (((PsRunSummary *)g_ptr_array_index (inputs->runs, 0))->session, ==, -1);
  g_assert_cmpint (((PsRunSummary *)g_ptr_array_index (inputs->runs, 2))->session, ==, 1);
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (inputs->runs, 2))->build, ==, "3");
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (inputs->runs, 1))->file, ==, "b.log");
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (inputs->runs, 1))->format, ==, "ce-perflog");
  /* CE logs have no time: the file's */
  g_assert_true (((PsRunSummary *)g_ptr_array_index (inputs->runs, 0))->time_from_file);

  /* c.txt and the file that is not there, each with its reason */
  g_assert_cmpuint (inputs->problems->len, ==, 2);
  problem = g_ptr_array_index (inputs->problems, 0);
  g_assert_false (problem->partial);
  g_assert_nonnull (strstr (problem->message, "c.txt"));
  problem = g_ptr_array_index (inputs->problems, 1);
  g_assert_true (g_file_equal (problem->file, missing));
}

/* A summary's runs are read whole, with the summary as their file */
static void
test_summary (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GFile) log = g_file_get_child (fixture->folder, "b.log");
  g_autoptr(GFile) summary = g_file_get_child (fixture->folder, "b.json");
  g_autoptr(PsTrendInputs) from_log = ps_trend_inputs_read (&log, 1, NULL, NULL, NULL, NULL);
  g_autoptr(PsTrendInputs) from_summary = NULL;
  g_autoptr(GString) json = g_string_new (NULL);
  g_autofree char *name = NULL;
  const PsRunSummaryRow *row;

  ps_run_summary_write (from_log->runs, json);
  write_file (fixture, "b.json", json->str);
  from_summary = ps_trend_inputs_read (&summary, 1, NULL, NULL, NULL, NULL);
  g_assert_cmpuint (from_summary->runs->len, ==, 2);
  g_assert_cmpuint (from_summary->problems->len, ==, 0);
  g_assert_cmpstr (run_file_name (from_summary, 1, &name), ==, "b.json");
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (from_summary->runs, 1))->file, ==, "b.log");
  row = g_ptr_array_index (((PsRunSummary *)g_ptr_array_index (from_summary->runs, 1))->rows, 0);
  g_assert_cmpstr (row->name, ==, "Test=Write");
  g_assert_cmpfloat_with_epsilon (row->median, 0.001003, 1e-9);
}

static void
test_cancelled (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  PsTrendInputs *inputs;

  g_cancellable_cancel (cancellable);
  inputs = ps_trend_inputs_read (&fixture->folder, 1, cancellable, NULL, NULL, &error);
  g_assert_null (inputs);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/trend-loader/folder", Fixture, NULL, fixture_setup, test_folder, fixture_teardown);
  g_test_add ("/trend-loader/summary", Fixture, NULL, fixture_setup, test_summary, fixture_teardown);
  g_test_add ("/trend-loader/cancelled", Fixture, NULL, fixture_setup, test_cancelled, fixture_teardown);
  return g_test_run ();
}
