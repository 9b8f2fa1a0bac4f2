/* test-trend.c — run summaries, their JSON, and trends of them
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "summarize", "trend".
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-error.h"
#include "ps-trend.h"

static PsRunSummaryRow *
row_new (const char *kind,
         const char *name,
         const char *context,
         const char *unit,
         double      median)
{
  PsRunSummaryRow *row = g_new0 (PsRunSummaryRow, 1);

  row->kind = g_intern_string (kind);
  row->name = g_strdup (name);
  row->context = g_strdup (context);
  row->unit = g_intern_string (unit);
  row->count = 3;
  row->median = median;
  row->p95 = NAN;
  row->mean = median * 1.5;
  row->total = 3 * row->mean;
  return row;
}

static PsRunSummary *
run_new (const char *file,
         gint64      session,
         const char *version,
         const char *build)
{
  PsRunSummary *run = g_new0 (PsRunSummary, 1);

  run->file = g_strdup (file);
  run->format = g_strdup ("ce-perflog");
  run->complete = TRUE;
  run->session = session;
  run->version = g_strdup (version);
  run->build = g_strdup (build);
  run->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_row_free);
  return run;
}

/* What is written reads back the same, to the bit */
static void
test_round_trip (void)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  g_autoptr(GPtrArray) read = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) again = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  PsRunSummary *first = run_new ("a \"quoted\" \\ log ✓.log", 0, "6.0", NULL);
  PsRunSummary *second = run_new ("a \"quoted\" \\ log ✓.log", 1, NULL, "3122");
  const PsRunSummaryRow *row;

  first->has_time = TRUE;
  first->time_unix_ns = G_GINT64_CONSTANT (1700000000123456000);
  first->origin = g_strdup ("ce-perflog");
  g_ptr_array_add (first->rows, row_new ("duration", "Test=Write,\ttab\nline", NULL, "s", 0.1));
  g_ptr_array_add (first->rows, row_new ("span", "scope", "ctx 😀", "s", 1e-300));
  g_ptr_array_add (second->rows, row_new ("counter", "\\\\host\\cpu", NULL, "", -2.5e22));
  g_ptr_array_add (runs, first);
  g_ptr_array_add (runs, second);

  ps_run_summary_write (runs, text);
  g_assert_true (ps_run_summary_sniff (text->str, 40));
  read = ps_run_summary_read (text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (read->len, ==, 2);

  first = g_ptr_array_index (read, 0);
  g_assert_cmpstr (first->file, ==, "a \"quoted\" \\ log ✓.log");
  g_assert_cmpstr (first->format, ==, "ce-perflog");
  g_assert_cmpstr (first->origin, ==, "ce-perflog");
  g_assert_true (first->complete);
  g_assert_cmpint (first->session, ==, 0);
  g_assert_true (first->has_time);
  g_assert_cmpint (first->time_unix_ns, ==, G_GINT64_CONSTANT (1700000000123456000));
  g_assert_false (first->time_from_file);
  g_assert_cmpstr (first->version, ==, "6.0");
  g_assert_null (first->build);
  g_assert_cmpuint (first->rows->len, ==, 2);
  row = g_ptr_array_index (first->rows, 0);
  g_assert_true (row->kind == g_intern_static_string ("duration"));
  g_assert_cmpstr (row->name, ==, "Test=Write,\ttab\nline");
  g_assert_null (row->context);
  g_assert_cmpfloat (row->median, ==, 0.1);
  g_assert_true (isnan (row->p95));
  g_assert_cmpfloat (row->mean, ==, 0.1 * 1.5);
  g_assert_cmpfloat (row->total, ==, 3 * (0.1 * 1.5));
  g_assert_cmpuint (row->count, ==, 3);
  row = g_ptr_array_index (first->rows, 1);
  g_assert_cmpstr (row->context, ==, "ctx 😀");
  g_assert_cmpfloat (row->median, ==, 1e-300);

  second = g_ptr_array_index (read, 1);
  g_assert_false (second->has_time);
  g_assert_cmpstr (second->build, ==, "3122");
  row = g_ptr_array_index (second->rows, 0);
  g_assert_cmpstr (row->name, ==, "\\\\host\\cpu");
  g_assert_cmpfloat (row->median, ==, -2.5e22);

  /* The first run's file members stand for all */
  ps_run_summary_write (read, again);
  g_assert_cmpstr (again->str, ==, text->str);
}

/* Every start of a summary cut short is an error naming where, never a
 * crash; members this version does not know are skipped */
static void
test_damaged (void)
{
  static const char whole[] =
    "\xEF\xBB\xBF{\"perfscope_summary\": 1, \"later\": {\"a\": [1, -2.5e3, true, false, null, \"\\u00e9\\ud83d\\ude00\"]},"
    " \"file\": \"x\", \"runs\": [{\"rows\": [{\"kind\": \"duration\", \"name\": \"n\", \"new\": [[]], \"median\": 2}]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = ps_run_summary_read (whole, strlen (whole), &error);
  static const char * const bad[] = {
    "",
    "[]",
    "{}",
    "{\"perfscope_summary\": 2}",
    "{\"perfscope_summary\": 1, \"runs\": [{\"rows\": [{\"name\": \"no kind\"}]}]}",
    "{\"perfscope_summary\": 1, \"runs\": [{\"time\": \"yesterday\"}]}",
    "{\"perfscope_summary\": 1, \"file\": \"\\x\"}",
    "{\"perfscope_summary\": 1, \"file\": \"\xff\"}",
    "{\"perfscope_summary\": 1, \"file\": \"a\nb\"}",
    "{\"perfscope_summary\": 1, \"runs\": [{\"rows\": [{\"kind\": \"d\", \"name\": \"n\", \"median\": 1e}]}]}",
    "{\"perfscope_summary\": 1, \"runs\": [{\"rows\": [{\"kind\": \"d\", \"name\": \"n\", \"median\": .5}]}]}",
    "{\"perfscope_summary\": 1} trailing",
  };

  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpfloat (((PsRunSummaryRow *)g_ptr_array_index (((PsRunSummary *)g_ptr_array_index (runs, 0))->rows, 0))->median,
                     ==, 2);

  for (gsize length = 0; length < strlen (whole); length++)
    {
      g_autoptr(GError) cut_error = NULL;
      g_autoptr(GPtrArray) cut = ps_run_summary_read (whole, length, &cut_error);

      g_assert_null (cut);
      g_assert_error (cut_error, PS_ERROR, PS_ERROR_PARSE);
      g_assert_nonnull (strstr (cut_error->message, "byte offset"));
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;
      g_autoptr(GPtrArray) none = ps_run_summary_read (bad[i], strlen (bad[i]), &bad_error);

      g_assert_null (none);
      g_assert_nonnull (bad_error);
    }

  /* Nesting without end is refused early */
  {
    g_autoptr(GString) deep = g_string_new ("{\"perfscope_summary\": 1, \"x\": ");
    g_autoptr(GError) deep_error = NULL;
    g_autoptr(GPtrArray) none = NULL;

    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    none = ps_run_summary_read (deep->str, deep->len, &deep_error);
    g_assert_null (none);
    g_assert_error (deep_error, PS_ERROR, PS_ERROR_PARSE);
  }

  g_assert_false (ps_run_summary_sniff ("{\"file\": 1}", 11));
  g_assert_false (ps_run_summary_sniff ("## PERF ##", 10));
  g_assert_true (ps_run_summary_sniff ("\n  {\n  \"perfscope_summary\": 1", 30));
}

/* Runs in order of version and build, numbers as numbers; rows matched by
 * kind, unit, context and name */
static void
test_trend (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  g_autoptr(PsTrend) trend = NULL;
  PsTrendOptions options;
  const PsTrendRow *row;
  const PsChangePoint *point;

  /* Builds 1 … 30, given backwards; at build 21 "write" doubles */
  for (guint b = 30; b >= 1; b--)
    {
      g_autofree char *build = g_strdup_printf ("6.0.%u", b);
      PsRunSummary *run = run_new ("same.log", -1, NULL, build);

      g_ptr_array_add (run->rows, row_new ("duration", "write", NULL, "s", (b >= 21 ? 2 : 1) + 0.01 * (b % 3)));
      /* Another unit or context is another row */
      g_ptr_array_add (run->rows, row_new ("duration", "write", NULL, "ticks", 1000 + b % 2));
      g_ptr_array_add (run->rows, row_new ("span", "write", "ctx", "s", 1 + 0.01 * (b % 2)));
      /* Counters that rise are no regression */
      g_ptr_array_add (run->rows, row_new ("counter", "queue", NULL, "", b >= 21 ? 50 : 10));
      g_ptr_array_add (runs, run);
    }
  /* One without a version goes last */
  g_ptr_array_add (runs, run_new ("other.log", -1, NULL, NULL));

  ps_trend_options_init (&options);
  options.order = PS_TREND_BY_VERSION;
  options.detection.min_magnitude = 0.05;
  trend = ps_trend_new (runs, &options);

  g_assert_cmpuint (trend->runs->len, ==, 31);
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (trend->runs, 1))->build, ==, "6.0.2");
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (trend->runs, 9))->build, ==, "6.0.10");
  g_assert_cmpstr (((PsRunSummary *)g_ptr_array_index (trend->runs, 30))->file, ==, "other.log");
  g_assert_cmpuint (trend->rows->len, ==, 4);

  /* The counter quintupled, the duration doubled: largest first */
  row = g_ptr_array_index (trend->rows, 0);
  g_assert_cmpstr (row->kind, ==, "counter");
  g_assert_false (row->lower_is_better);
  g_assert_cmpfloat_with_epsilon (row->largest_change, 4, 1e-9);
  g_assert_null (ps_trend_row_get_newest_regression (trend, row, 0.1));

  row = g_ptr_array_index (trend->rows, 1);
  g_assert_cmpstr (row->name, ==, "write");
  g_assert_cmpstr (row->unit, ==, "s");
  g_assert_null (row->context);
  g_assert_cmpuint (row->n_values, ==, 30);
  g_assert_cmpuint (row->change_points->len, ==, 1);
  point = &g_array_index (row->change_points, PsChangePoint, 0);
  g_assert_cmpuint (point->index, ==, 20);
  g_assert_cmpuint (point->before_start, ==, 0);
  /* The run without a version has no value: the newest run is not after
   * the change */
  g_assert_cmpuint (point->after_end, ==, 31);
  g_assert_null (ps_trend_row_get_newest_regression (trend, row, 0.1));

  /* The others did not change, and keep their order */
  g_assert_cmpstr (((PsTrendRow *)g_ptr_array_index (trend->rows, 2))->unit, ==, "ticks");
  g_assert_cmpuint (((PsTrendRow *)g_ptr_array_index (trend->rows, 2))->change_points->len, ==, 0);
  g_assert_cmpstr (((PsTrendRow *)g_ptr_array_index (trend->rows, 3))->context, ==, "ctx");
  g_assert_cmpfloat (((PsTrendRow *)g_ptr_array_index (trend->rows, 3))->largest_change, ==, 0);
}

/* The newest run after a rise of a row where lower is better */
static void
test_newest_regression (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  g_autoptr(PsTrend) trend = NULL;
  PsTrendOptions options;
  const PsTrendRow *row;

  for (guint r = 0; r < 12; r++)
    {
      g_autofree char *file = g_strdup_printf ("night-%u.log", r + 1);
      PsRunSummary *run = run_new (file, -1, NULL, NULL);
      PsRunSummaryRow *summary_row = row_new ("function", "parse", NULL, "percent", NAN);

      /* Functions have no median: their total goes into the trend */
      summary_row->total = r < 8 ? 10 + 0.1 * (r % 2) : 13 + 0.1 * (r % 2);
      g_ptr_array_add (run->rows, summary_row);
      g_ptr_array_add (runs, run);
    }

  ps_trend_options_init (&options);
  options.order = PS_TREND_BY_NAME;
  trend = ps_trend_new (runs, &options);
  row = g_ptr_array_index (trend->rows, 0);
  g_assert_cmpuint (row->change_points->len, ==, 1);
  g_assert_cmpuint (g_array_index (row->change_points, PsChangePoint, 0).index, ==, 8);
  g_assert_nonnull (ps_trend_row_get_newest_regression (trend, row, 0.25));
  g_assert_null (ps_trend_row_get_newest_regression (trend, row, 0.35));
  g_assert_cmpfloat_with_epsilon (ps_trend_row_value (g_ptr_array_index (((PsRunSummary *)g_ptr_array_index (trend->runs, 0))->rows, 0),
                                                      PS_TREND_VALUE_P95), 10, 1e-12);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trend/summary-round-trip", test_round_trip);
  g_test_add_func ("/trend/summary-damaged", test_damaged);
  g_test_add_func ("/trend/order-and-match", test_trend);
  g_test_add_func ("/trend/newest-regression", test_newest_regression);

  return g_test_run ();
}
