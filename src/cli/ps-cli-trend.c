/* ps-cli-trend.c — perfscope-cli summarize and trend
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "summarize", "trend". The numbers are those of
 * ps-run-summary.c and ps-trend.c, which the window's trend shows too;
 * nothing is computed here.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-trend.h"
#include "ps-trend-loader.h"
#include "ps-util.h"

/* Enough of a file's start to tell a summary from a log */
#define SNIFF_BYTES 64

/* The trend's least relative change when --min-change is not given */
#define DEFAULT_MIN_CHANGE 0.05

/* The file's modification time, for a run whose log has no time */
static void
set_file_time (GPtrArray  *runs,
               const char *path)
{
  g_autoptr(GFile) file = NULL;

  if (strcmp (path, "-") == 0)
    return;
  file = g_file_new_for_commandline_arg (path);
  ps_trend_set_file_time (runs, file);
}

/* The runs of a log; NULL after saying why on stderr. *partial when it
 * was read only in part. */
static GPtrArray *
summarize_log (const PsCliOptions *options,
               const char         *path,
               gboolean           *partial)
{
  g_autoptr(PsEventStore) store = ps_cli_load_totals (options, path);
  g_autofree char *file_name = NULL;
  const char *origin;
  const char *format;
  GPtrArray *runs;

  if (store == NULL)
    return NULL;

  *partial = ps_cli_report_partial (store, path);
  runs = ps_run_summary_collect (store, NULL);
  file_name = ps_cli_display_basename (path);
  format = ps_cli_run_format (store, &origin);
  for (guint i = 0; i < runs->len; i++)
    {
      PsRunSummary *run = g_ptr_array_index (runs, i);

      run->file = g_strdup (file_name);
      run->format = g_strdup (format);
      run->origin = g_strdup (origin);
      run->complete = ps_event_store_is_complete (store);
    }
  set_file_time (runs, path);
  return runs;
}

/* Whether the file begins as a summary; FALSE for what cannot be opened,
 * which the loader then names */
static gboolean
is_summary_file (const char *path)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) input = NULL;
  char start[SNIFF_BYTES];
  gsize length = 0;

  if (strcmp (path, "-") == 0)
    return FALSE;
  file = g_file_new_for_commandline_arg (path);
  input = g_file_read (file, NULL, NULL);
  if (input == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (input), start, sizeof start, &length, NULL, NULL))
    return FALSE;
  return ps_run_summary_sniff (start, length);
}

/* The runs of a summary file; NULL with error set. Runs in any thread. */
static GPtrArray *
read_summary (const char    *path,
              PsTrendValue   value,
              GError       **error)
{
  g_autofree char *text = NULL;
  gsize length;

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  return ps_run_summary_read_values (text, length, ps_trend_value_flags (value), error);
}

static void
print_read_error (const char   *path,
                  const GError *error)
{
  g_autofree char *name = g_filename_display_name (path);

  ps_cli_print_error (_("Cannot read “%s”: %s"), name, error->message);
}

/* What one file gave the trend */
typedef struct
{
  const char *path;
  gboolean    is_summary;
  GPtrArray  *runs;       /* NULL when it could not be read */
  GError     *error;      /* summaries: why */
  gboolean    partial;
} Input;

static void
read_summary_in_thread (gpointer data,
                        gpointer user_data)
{
  Input *input = data;

  input->runs = read_summary (input->path, *(const PsTrendValue *)user_data, &input->error);
}

/* Every input's runs: summaries read side by side on every processor
 * (a trend may read thousands), logs one after the other, as loading one
 * already takes the memory of its events */
static void
read_inputs (const PsCliOptions *options,
             Input              *inputs,
             guint               n_inputs)
{
  GThreadPool *pool = NULL;
  PsTrendValue value = options->trend_value;
  guint n_summaries = 0;

  for (guint i = 0; i < n_inputs; i++)
    {
      inputs[i].is_summary = is_summary_file (inputs[i].path);
      n_summaries += inputs[i].is_summary;
    }

  if (n_summaries > 1)
    pool = g_thread_pool_new (read_summary_in_thread, &value, (gint)CLAMP (g_get_num_processors (), 1, 16),
                              FALSE, NULL);
  for (guint i = 0; i < n_inputs; i++)
    {
      if (!inputs[i].is_summary)
        continue;
      if (pool != NULL)
        g_thread_pool_push (pool, &inputs[i], NULL);
      else
        read_summary_in_thread (&inputs[i], &value);
    }
  /* Waits for every summary */
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);

  for (guint i = 0; i < n_inputs; i++)
    {
      Input *input = &inputs[i];

      if (!input->is_summary)
        input->runs = summarize_log (options, input->path, &input->partial);
      else if (input->runs == NULL)
        print_read_error (input->path, input->error);
      else
        for (guint r = 0; r < input->runs->len; r++)
          input->partial |= !((PsRunSummary *)g_ptr_array_index (input->runs, r))->complete;
    }
}

static int
run_summarize (const PsCliOptions  *options,
               char               **files)
{
  const char *path = files[0];
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean partial;

  runs = summarize_log (options, path, &partial);
  if (runs == NULL)
    return PS_CLI_EXIT_UNREADABLE;

  ps_run_summary_write (runs, text);
  if (!ps_cli_write_text (options, text))
    return PS_CLI_EXIT_UNREADABLE;
  return partial ? PS_CLI_EXIT_PARTIAL : PS_CLI_EXIT_OK;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The regular files of a folder, by name; FALSE after saying why */
static gboolean
add_folder (GPtrArray  *paths,
            const char *folder)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (folder, 0, &error);
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  const char *name;

  if (dir == NULL)
    {
      g_autofree char *display = g_filename_display_name (folder);

      ps_cli_print_error (_("Cannot read “%s”: %s"), display, error->message);
      return FALSE;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      char *path = g_build_filename (folder, name, NULL);

      if (name[0] != '.' && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (found, path);
      else
        g_free (path);
    }
  g_ptr_array_sort (found, compare_paths);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (paths, g_ptr_array_index (found, i));
  return TRUE;
}

/* Output */

static const char *
change_word (const PsTrendRow    *row,
             const PsChangePoint *point)
{
  if (!row->lower_is_better)
    return "changed";
  return point->relative_change > 0 ? "regression" : "improvement";
}

static char *
format_run_time (const PsRunSummary *run)
{
  g_autoptr(GDateTime) seconds = NULL;

  if (!run->has_time)
    return NULL;
  seconds = g_date_time_new_from_unix_utc (run->time_unix_ns / G_GINT64_CONSTANT (1000000000));
  return seconds != NULL ? g_date_time_format_iso8601 (seconds) : NULL;
}

static void
stream_optional_string (PsCliJsonStream *stream,
                        const char      *name,
                        const char      *value)
{
  if (value != NULL)
    ps_cli_json_stream_string (stream, name, value);
  else
    ps_cli_json_stream_null (stream, name);
}

static void
write_run (PsCliJsonStream *stream,
           gpointer         item,
           gpointer         user_data)
{
  const PsRunSummary *run = item;
  g_autofree char *time = format_run_time (run);

  ps_cli_json_stream_begin_object (stream, NULL);
  stream_optional_string (stream, "file", run->file);
  if (run->session >= 0)
    ps_cli_json_stream_int (stream, "session", run->session);
  else
    ps_cli_json_stream_null (stream, "session");
  stream_optional_string (stream, "format", run->format);
  stream_optional_string (stream, "time", time);
  stream_optional_string (stream, "time_source", time == NULL ? NULL : run->time_from_file ? "file" : "log");
  stream_optional_string (stream, "version", run->version);
  stream_optional_string (stream, "build", run->build);
  ps_cli_json_stream_boolean (stream, "complete", run->complete);
  ps_cli_json_stream_end (stream);
}

typedef struct
{
  PsTrend *trend;
  double   fail_on_regression;   /* NaN without --fail-on-regression */
} Output;

static void
write_change_point (PsCliJsonStream     *stream,
                    const PsTrend       *trend,
                    const PsTrendRow    *row,
                    const PsChangePoint *point)
{
  guint before = ps_trend_row_get_run_before (row, point);

  ps_cli_json_stream_begin_object (stream, NULL);
  ps_cli_json_stream_int (stream, "run", point->index);
  stream_optional_string (stream, "file", ((PsRunSummary *)g_ptr_array_index (trend->runs, point->index))->file);
  ps_cli_json_stream_int (stream, "run_before", before);
  stream_optional_string (stream, "file_before", ((PsRunSummary *)g_ptr_array_index (trend->runs, before))->file);
  ps_cli_json_stream_int (stream, "runs_before", (gint64)point->n_before);
  ps_cli_json_stream_int (stream, "runs_after", (gint64)point->n_after);
  ps_cli_json_stream_double (stream, "mean_before", point->mean_before);
  ps_cli_json_stream_double (stream, "mean_after", point->mean_after);
  ps_cli_json_stream_double (stream, "median_before", point->median_before);
  ps_cli_json_stream_double (stream, "median_after", point->median_after);
  ps_cli_json_stream_double (stream, "relative_change", point->relative_change);
  ps_cli_json_stream_double (stream, "p_value", point->p_value);
  ps_cli_json_stream_string (stream, "change", change_word (row, point));
  ps_cli_json_stream_end (stream);
}

static void
write_row (PsCliJsonStream *stream,
           gpointer         item,
           gpointer         user_data)
{
  const Output *output = user_data;
  const PsTrendRow *row = item;

  ps_cli_json_stream_begin_object (stream, NULL);
  ps_cli_json_stream_string (stream, "kind", row->kind);
  ps_cli_json_stream_string (stream, "name", row->name);
  stream_optional_string (stream, "context", row->context);
  ps_cli_json_stream_string (stream, "unit", row->unit);
  ps_cli_json_stream_int (stream, "runs", row->n_values);
  ps_cli_json_stream_double (stream, "largest_change", row->largest_change);
  if (!isnan (output->fail_on_regression))
    ps_cli_json_stream_boolean (stream, "newest_regression",
                                ps_trend_row_get_newest_regression (output->trend, row, output->fail_on_regression) != NULL);
  ps_cli_json_stream_begin_array (stream, "change_points");
  for (guint i = 0; i < row->change_points->len; i++)
    write_change_point (stream, output->trend, row, &g_array_index (row->change_points, PsChangePoint, i));
  ps_cli_json_stream_end (stream);
  ps_cli_json_stream_end (stream);
}

static void
write_member (GString    *out,
              const char *member,
              guint       level,
              gpointer    user_data)
{
  Output *output = user_data;

  if (g_str_equal (member, "runs"))
    ps_cli_json_stream_array (out, level, output->trend->runs, write_run, NULL);
  else
    {
      /* Only the rows that changed */
      g_autoptr(GPtrArray) changed = g_ptr_array_new ();

      g_assert (g_str_equal (member, "rows"));
      for (guint i = 0; i < ps_trend_count_changed (output->trend); i++)
        g_ptr_array_add (changed, g_ptr_array_index (output->trend->rows, i));
      ps_cli_json_stream_array (out, level, changed, write_row, output);
    }
}

static void
print_json (const PsTrendOptions *trend_options,
            double                min_change,
            Output               *output,
            guint                 n_regressions)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  static const char * const streamed[] = { "runs", "rows", NULL };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "by");
  json_builder_add_string_value (builder, ps_trend_order_to_string (trend_options->order));
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, ps_trend_value_to_string (trend_options->value));
  ps_cli_json_add_double (builder, "min_change", min_change);
  ps_cli_json_add_double (builder, "max_p_value", trend_options->detection.max_p_value);
  ps_cli_json_add_int (builder, "window", trend_options->detection.window);
  if (!isnan (output->fail_on_regression))
    {
      ps_cli_json_add_double (builder, "fail_on_regression", output->fail_on_regression);
      ps_cli_json_add_int (builder, "newest_regressions", n_regressions);
    }
  ps_cli_json_add_int (builder, "n_runs", output->trend->runs->len);
  ps_cli_json_add_int (builder, "n_rows", output->trend->rows->len);
  ps_cli_json_add_int (builder, "n_changed", ps_trend_count_changed (output->trend));
  json_builder_set_member_name (builder, "runs");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "rows");
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  ps_cli_json_print_spliced (root, streamed, write_member, output);
}

/* A value with its unit, for the text table */
static char *
format_with_unit (double      value,
                  const char *unit)
{
  g_autofree char *number = ps_cli_table_format_number (value);

  return *unit != '\0' ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
}

static void
print_text (const PsTrendOptions *trend_options,
            Output               *output,
            guint                 n_regressions)
{
  const PsTrend *trend = output->trend;
  guint n_changed = ps_trend_count_changed (trend);
  g_autoptr(PsCliTable) table = NULL;

  /* Translators: "20 runs by time, median per run: 3 of 500 rows changed"; the
   * plural is that of the rows */
  printf (ngettext ("%u runs by %s, %s per run: %u of %u row changed",
                    "%u runs by %s, %s per run: %u of %u rows changed", trend->rows->len),
          trend->runs->len, ps_trend_order_to_string (trend_options->order),
          ps_trend_value_to_string (trend_options->value), n_changed, trend->rows->len);
  printf ("\n");
  if (!isnan (output->fail_on_regression))
    {
      /* Translators: "The newest run is after a regression of at least 10% in 2 rows" */
      printf (ngettext ("The newest run is after a regression of at least %g%% in %u row",
                        "The newest run is after a regression of at least %g%% in %u rows", n_regressions),
              100 * output->fail_on_regression, n_regressions);
      printf ("\n");
    }
  if (n_changed == 0)
    return;

  table = ps_cli_table_new (9);
  ps_cli_table_set_alignment (table, "llllrrrrl");
  ps_cli_table_add_row (table, _("Kind"), _("Name"), _("Run before"), _("Run after"), _("Mean before"),
                        _("Mean after"), _("Change (%)"), _("p-value"), _("Change"), NULL);
  for (guint i = 0; i < n_changed; i++)
    {
      const PsTrendRow *row = g_ptr_array_index (trend->rows, i);

      for (guint c = 0; c < row->change_points->len; c++)
        {
          const PsChangePoint *point = &g_array_index (row->change_points, PsChangePoint, c);
          const PsRunSummary *after = g_ptr_array_index (trend->runs, point->index);
          const PsRunSummary *before = g_ptr_array_index (trend->runs, ps_trend_row_get_run_before (row, point));
          g_autofree char *name = ps_util_display_text (row->name, -1);

          ps_cli_table_add_row_take (table,
                                     g_strdup (row->kind),
                                     ps_cli_table_format_cut_text (name),
                                     ps_cli_table_format_cut_text (before->file != NULL ? before->file : ""),
                                     ps_cli_table_format_cut_text (after->file != NULL ? after->file : ""),
                                     format_with_unit (point->mean_before, row->unit),
                                     format_with_unit (point->mean_after, row->unit),
                                     g_strdup_printf ("%+.1f", 100 * point->relative_change),
                                     g_strdup_printf ("%.2g", point->p_value),
                                     g_strdup (change_word (row, point)),
                                     NULL);
        }
    }
  printf ("\n");
  ps_cli_table_print (table, stdout, "");
}

static int
run_trend (const PsCliOptions  *options,
           char               **arguments)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  g_autoptr(PsTrend) trend = NULL;
  g_autofree Input *inputs = NULL;
  PsTrendOptions trend_options;
  Output output;
  double min_change = isnan (options->min_change) ? DEFAULT_MIN_CHANGE : options->min_change;
  gboolean unreadable = FALSE, partial = FALSE;
  guint n_regressions = 0;

  for (guint i = 0; arguments[i] != NULL; i++)
    {
      if (strcmp (arguments[i], "-") != 0 && g_file_test (arguments[i], G_FILE_TEST_IS_DIR))
        unreadable |= !add_folder (paths, arguments[i]);
      else
        g_ptr_array_add (paths, g_strdup (arguments[i]));
    }

  inputs = g_new0 (Input, MAX (paths->len, 1));
  for (guint i = 0; i < paths->len; i++)
    inputs[i].path = g_ptr_array_index (paths, i);
  read_inputs (options, inputs, paths->len);

  /* In the order given, whatever order they were read in */
  for (guint i = 0; i < paths->len; i++)
    {
      Input *input = &inputs[i];

      g_clear_error (&input->error);
      if (input->runs == NULL)
        {
          unreadable = TRUE;
          continue;
        }
      partial |= input->partial;
      g_ptr_array_set_free_func (input->runs, NULL);
      g_ptr_array_extend_and_steal (runs, g_steal_pointer (&input->runs));
    }

  ps_trend_options_init (&trend_options);
  trend_options.order = options->trend_order;
  trend_options.value = options->trend_value;
  trend_options.detection.min_magnitude = min_change;
  trend = ps_trend_new (g_steal_pointer (&runs), &trend_options);

  output.trend = trend;
  output.fail_on_regression = options->fail_on_regression;
  if (!isnan (options->fail_on_regression))
    for (guint i = 0; i < trend->rows->len; i++)
      n_regressions += ps_trend_row_get_newest_regression (trend, g_ptr_array_index (trend->rows, i),
                                                           options->fail_on_regression) != NULL;

  if (options->text)
    print_text (&trend_options, &output, n_regressions);
  else
    print_json (&trend_options, min_change, &output, n_regressions);

  /* The gate first: a nightly job fails on the regression whatever else */
  if (n_regressions > 0)
    return PS_CLI_EXIT_REGRESSION;
  if (unreadable)
    return PS_CLI_EXIT_UNREADABLE;
  if (partial)
    return PS_CLI_EXIT_PARTIAL;
  return PS_CLI_EXIT_OK;
}

static const PsCliOption * const summarize_options[] = {
  PS_CLI_READ_OPTIONS,
  &ps_cli_option_output,
  NULL,
};

const PsCliCommand ps_cli_summarize_command = {
  .name = "summarize",
  .files = "FILE",
  .summary = N_("a small summary of the run for trend: per row its count, median, "
                "p95, mean and total (-o OUT)"),
  .files_error = N_("summarize needs exactly one FILE"),
  .min_files = 1,
  .max_files = 1,
  .options = summarize_options,
  .run = run_summarize,
};

static gboolean
parse_by (PsCliOptions *options,
          const char   *value,
          GError      **error)
{
  if (!ps_trend_order_from_string (value, &options->trend_order))
    {
      ps_cli_set_usage_error (error, _("--by is time, version or name, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_value (PsCliOptions *options,
             const char   *value,
             GError      **error)
{
  if (!ps_trend_value_from_string (value, &options->trend_value))
    {
      ps_cli_set_usage_error (error, _("--value is median, p95 or total, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_fail_on_regression (PsCliOptions *options,
                          const char   *value,
                          GError      **error)
{
  if (!ps_cli_parse_percent (value, G_MAXDOUBLE, &options->fail_on_regression))
    {
      ps_cli_set_usage_error (error, _("--fail-on-regression needs a percentage of 0 or more, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

static const PsCliOption by = {
  .long_name = "by", .value_name = N_("time|version|name"), .parse = parse_by,
  .description = N_("trend: put the runs in order of their time (the default), of the version and build they measured, or of file name"),
};

static const PsCliOption value = {
  .long_name = "value", .value_name = N_("median|p95|total"), .parse = parse_value,
  .description = N_("trend: each run’s value of a row: its median (the default), p95 or total"),
};

static const PsCliOption fail_on_regression = {
  .long_name = "fail-on-regression", .value_name = N_("PERCENT"), .parse = parse_fail_on_regression,
  .description = N_("trend: exit with status 4 when the newest run is after a rise of at least PERCENT in a row where lower is better"),
};

static const PsCliOption * const trend_options[] = {
  PS_CLI_READ_OPTIONS,
  PS_CLI_PRINT_OPTIONS,
  &by,
  &value,
  &ps_cli_option_min_change,
  &fail_on_regression,
  NULL,
};

const PsCliCommand ps_cli_trend_command = {
  .name = "trend",
  .files = "FILE…|DIR",
  .summary = N_("many runs (logs or summaries) in order (--by time, version or name) "
                "and the change points of each row’s median, p95 or total "
                "(--value; --min-change PERCENT, --fail-on-regression PERCENT)"),
  .files_error = N_("trend needs at least one FILE or folder"),
  .min_files = 1,
  .max_files = G_MAXUINT,
  .options = trend_options,
  .run = run_trend,
};
