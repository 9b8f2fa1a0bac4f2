/* ps-cli-diff.c — perfscope-cli diff: the comparison of two runs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". The rows, how they are matched and the p-values
 * and verdicts are those of ps_run_diff_new (); nothing is computed here.
 * Members beyond the contract's: per side "p95" and "total", per row
 * "context" (logical scopes), "a_name" (renamed rows), "delta_total",
 * "ratio_total", "change", "basis", "reason" and "noise_floor"; at the
 * top "format_a", "format_b", "matched", "alpha", "threshold",
 * "min_change" and "noise_fraction".
 *
 * `--session-a N` and `--session-b N` compare one session of a file (the
 * runs appended to one CE log) instead of the whole file; "session_a" and
 * "session_b" say which, null for a whole file.
 *
 * `--to csv` writes every row as the comparison page's table export does,
 * `--to markdown` the page's summary for a bug report
 * (ps-compare-export.h), to -o FILE or the standard output.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-compare-export.h"
#include "ps-run-diff.h"
#include "ps-util.h"

/* A run's name: its file's, and the session compared when it is one */
static char *
dup_side_name (const char *path,
               gint64      session)
{
  g_autofree char *name = ps_cli_display_basename (path);

  if (session < 0)
    return g_steal_pointer (&name);
  /* Translators: one session of a log compared, "nightly.log, session 8";
   * sessions are counted from 0, as perfscope-cli info and stats count them */
  return g_strdup_printf (_("%s, session %" PRId64), name, session);
}

static void
add_session (JsonBuilder *builder,
             const char  *member,
             gint64       session)
{
  json_builder_set_member_name (builder, member);
  if (session >= 0)
    json_builder_add_int_value (builder, session);
  else
    json_builder_add_null_value (builder);
}

static void
write_side (PsCliJsonStream *stream,
            const char      *member,
            gboolean         present,
            const PsStats   *stats)
{
  if (!present)
    {
      ps_cli_json_stream_null (stream, member);
      return;
    }

  ps_cli_json_stream_begin_object (stream, member);
  ps_cli_json_stream_int (stream, "count", (gint64)stats->count);
  ps_cli_json_stream_double (stream, "mean", stats->mean);
  ps_cli_json_stream_double (stream, "median", stats->median);
  ps_cli_json_stream_double (stream, "p95", stats->p95);
  ps_cli_json_stream_double (stream, "total", stats->sum);
  ps_cli_json_stream_end (stream);
}

static void
write_row (PsCliJsonStream *stream,
           gpointer         item,
           gpointer         user_data)
{
  const PsRunDiffRow *row = item;

  ps_cli_json_stream_begin_object (stream, NULL);
  ps_cli_json_stream_string (stream, "name", row->name);
  if (row->a_name != NULL)
    ps_cli_json_stream_string (stream, "a_name", row->a_name);
  if (row->context != NULL)
    ps_cli_json_stream_string (stream, "context", row->context);
  ps_cli_json_stream_string (stream, "kind", row->kind);
  ps_cli_json_stream_string (stream, "unit", row->unit);
  write_side (stream, "a", row->has_a, &row->a);
  write_side (stream, "b", row->has_b, &row->b);
  ps_cli_json_stream_double (stream, "delta_mean", row->delta_mean);
  ps_cli_json_stream_double (stream, "ratio_mean", row->ratio_mean);
  ps_cli_json_stream_double (stream, "delta_total", row->delta_total);
  ps_cli_json_stream_double (stream, "ratio_total", row->ratio_total);
  ps_cli_json_stream_double (stream, "p_value", row->p_value);
  ps_cli_json_stream_string (stream, "change", ps_run_diff_change_to_string (row->change));
  ps_cli_json_stream_string (stream, "basis", ps_run_diff_basis_to_string (row->basis));
  ps_cli_json_stream_string (stream, "reason", ps_run_diff_reason_to_string (row->reason));
  ps_cli_json_stream_double (stream, "noise_floor", row->noise_floor);
  ps_cli_json_stream_end (stream);
}

/* Rows are written as they are walked, like the series of stats: a
 * comparison of runs with many counters has a row for each */
static void
write_rows (GString    *out,
            const char *member,
            guint       level,
            gpointer    user_data)
{
  PsRunDiff *diff = user_data;

  g_assert (g_str_equal (member, "rows"));
  ps_cli_json_stream_array (out, level, diff->rows, write_row, NULL);
}

static void
add_matched (JsonBuilder    *builder,
             PsRunDiffMatch  matched)
{
  g_autofree char *text = ps_run_diff_match_to_string (matched);
  g_auto(GStrv) names = g_strsplit (text, ",", -1);

  json_builder_set_member_name (builder, "matched");
  json_builder_begin_array (builder);
  for (guint i = 0; matched != PS_RUN_DIFF_MATCH_NONE && names[i] != NULL; i++)
    json_builder_add_string_value (builder, names[i]);
  json_builder_end_array (builder);
}

/* "format_a", and for a saved run "origin_a", the format it was saved
 * from, as info names them */
static void
add_format (JsonBuilder  *builder,
            PsEventStore *store,
            const char   *side)
{
  const char *origin;
  const char *format = ps_cli_run_format (store, &origin);
  g_autofree char *format_member = g_strconcat ("format_", side, NULL);
  g_autofree char *origin_member = g_strconcat ("origin_", side, NULL);

  json_builder_set_member_name (builder, format_member);
  json_builder_add_string_value (builder, format);
  if (origin != NULL)
    {
      json_builder_set_member_name (builder, origin_member);
      json_builder_add_string_value (builder, origin);
    }
}

/* Everything but the rows, which write_rows () writes in place of the
 * null member */
static JsonNode *
diff_to_json (PsEventStore           *store_a,
              const char             *path_a,
              PsEventStore           *store_b,
              const char             *path_b,
              const PsRunDiffOptions *options,
              PsRunDiff              *diff)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *name_a = ps_cli_display_basename (path_a);
  g_autofree char *name_b = ps_cli_display_basename (path_b);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  json_builder_add_string_value (builder, name_a);
  json_builder_set_member_name (builder, "b");
  json_builder_add_string_value (builder, name_b);
  add_session (builder, "session_a", options->session_a);
  add_session (builder, "session_b", options->session_b);
  add_format (builder, store_a, "a");
  add_format (builder, store_b, "b");
  json_builder_set_member_name (builder, "complete");
  json_builder_add_boolean_value (builder, ps_event_store_is_complete (store_a) && ps_event_store_is_complete (store_b));
  add_matched (builder, diff->matched);
  ps_cli_json_add_double (builder, "alpha", options->alpha);
  ps_cli_json_add_double (builder, "threshold", options->threshold);
  ps_cli_json_add_double (builder, "min_change", options->min_change);
  ps_cli_json_add_double (builder, "noise_fraction", options->noise_fraction);

  /* Written by write_rows () */
  json_builder_set_member_name (builder, "rows");
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Text ------------------------------------------------------------------ */

static char *
format_side (gboolean present,
             double   value)
{
  return present ? ps_cli_table_format_number (value) : g_strdup ("–");
}

static const char *
change_label (PsRunDiffChange change)
{
  switch (change)
    {
    case PS_RUN_DIFF_REGRESSION:  return _("regression");
    case PS_RUN_DIFF_IMPROVEMENT: return _("improvement");
    case PS_RUN_DIFF_CHANGED:     return _("changed");
    case PS_RUN_DIFF_UNCHANGED:
    default:                      return "";
    }
}

/* Short words for the text table */
static const char *
basis_label (PsRunDiffBasis basis)
{
  switch (basis)
    {
    /* Translators: the basis of a verdict: a Mann–Whitney U test */
    case PS_RUN_DIFF_BASIS_TEST:       return _("U test");
    /* Translators: the basis of a verdict: a test of the shares of samples */
    case PS_RUN_DIFF_BASIS_PROPORTION: return _("shares");
    /* Translators: the basis of a verdict: one value per run, no test */
    case PS_RUN_DIFF_BASIS_SIZE:       return _("size");
    case PS_RUN_DIFF_BASIS_NONE:
    default:                           return "–";
    }
}

static const char *
reason_label (PsRunDiffReason reason)
{
  switch (reason)
    {
    case PS_RUN_DIFF_REASON_SIGNIFICANT:     return _("significant");
    case PS_RUN_DIFF_REASON_NOT_SIGNIFICANT: return _("not significant");
    case PS_RUN_DIFF_REASON_SMALL:           return _("small");
    case PS_RUN_DIFF_REASON_LARGE:           return _("large");
    /* Translators: a change under the noise floor */
    case PS_RUN_DIFF_REASON_NOISE:           return _("noise");
    case PS_RUN_DIFF_REASON_NO_VALUE:        return _("no value");
    case PS_RUN_DIFF_REASON_ONE_SIDE:
    default:                                 return _("one run");
    }
}

static const char *
matched_label (PsRunDiffMatch matched)
{
  if (matched == PS_RUN_DIFF_MATCH_NONE)
    return _("nothing in common");
  if (matched == (PS_RUN_DIFF_MATCH_SERIES | PS_RUN_DIFF_MATCH_COUNTERS))
    return _("series and counters by name");
  if (matched == (PS_RUN_DIFF_MATCH_FUNCTIONS | PS_RUN_DIFF_MATCH_COUNTERS))
    return _("call tree functions and counters by name");
  if (matched & PS_RUN_DIFF_MATCH_SERIES)
    return _("series by name");
  if (matched & PS_RUN_DIFF_MATCH_FUNCTIONS)
    return _("call tree functions by name");
  return _("counters by path");
}

static char **
row_cells (const PsRunDiffRow *row)
{
  GPtrArray *cells = g_ptr_array_new ();
  g_autofree char *name = ps_util_display_text (row->name, -1);

  g_ptr_array_add (cells, g_strdup (row->kind));
  g_ptr_array_add (cells, g_strdup (row->unit));
  g_ptr_array_add (cells, row->has_a ? g_strdup_printf ("%" PRIu64, row->a.count) : g_strdup ("–"));
  g_ptr_array_add (cells, row->has_b ? g_strdup_printf ("%" PRIu64, row->b.count) : g_strdup ("–"));
  g_ptr_array_add (cells, format_side (row->has_a, row->a.mean));
  g_ptr_array_add (cells, format_side (row->has_b, row->b.mean));
  g_ptr_array_add (cells, format_side (row->has_a, row->a.median));
  g_ptr_array_add (cells, format_side (row->has_b, row->b.median));
  g_ptr_array_add (cells, format_side (row->has_a, row->a.p95));
  g_ptr_array_add (cells, format_side (row->has_b, row->b.p95));
  g_ptr_array_add (cells, format_side (row->has_a, row->a.sum));
  g_ptr_array_add (cells, format_side (row->has_b, row->b.sum));
  g_ptr_array_add (cells, ps_cli_table_format_number (row->delta_mean));
  g_ptr_array_add (cells, ps_cli_table_format_number (row->ratio_mean));
  g_ptr_array_add (cells, ps_cli_table_format_number (row->ratio_total));
  g_ptr_array_add (cells, ps_cli_table_format_number (row->p_value));
  if (!row->has_a || !row->has_b)
    g_ptr_array_add (cells, g_strdup (row->has_a ? _("only in A") : _("only in B")));
  else
    g_ptr_array_add (cells, g_strdup (change_label (row->change)));
  g_ptr_array_add (cells, g_strdup (basis_label (row->basis)));
  g_ptr_array_add (cells, g_strdup (reason_label (row->reason)));
  g_ptr_array_add (cells, ps_cli_table_format_number (row->noise_floor));
  if (row->a_name != NULL)
    {
      g_autofree char *a_name = ps_util_display_text (row->a_name, -1);

      /* Translators: a renamed row, "new name (A: old name)" */
      g_ptr_array_add (cells, g_strdup_printf (_("%s (A: %s)"), name, a_name));
    }
  else
    g_ptr_array_add (cells, g_steal_pointer (&name));
  g_ptr_array_add (cells, NULL);
  return (char **)g_ptr_array_free (cells, FALSE);
}

static void
print_diff_text (PsEventStore           *store_a,
                 const char             *path_a,
                 PsEventStore           *store_b,
                 const char             *path_b,
                 const PsRunDiffOptions *options,
                 PsRunDiff              *diff)
{
  g_autofree char *name_a = dup_side_name (path_a, options->session_a);
  g_autofree char *name_b = dup_side_name (path_b, options->session_b);
  g_autoptr(PsCliTable) table = NULL;
  const char *origin_a, *origin_b;
  static const char * const labels[] = {
    N_("Kind"), N_("Unit"), N_("Count A"), N_("Count B"),
    N_("Mean A"), N_("Mean B"), N_("Median A"), N_("Median B"),
    N_("P95 A"), N_("P95 B"), N_("Total A"), N_("Total B"),
    N_("Δ Mean"), N_("Ratio mean"), N_("Ratio total"), N_("p"), N_("Change"),
    N_("Basis"), N_("Why"), N_("Noise floor"), N_("Name"),
  };
  g_auto(GStrv) header = g_new0 (char *, G_N_ELEMENTS (labels) + 1);

  /* Translators: the files and formats of the two runs compared */
  printf (_("A: %s (%s)\nB: %s (%s)\n"), name_a, ps_cli_run_format (store_a, &origin_a),
          name_b, ps_cli_run_format (store_b, &origin_b));
  /* Translators: %s says how rows were matched, e.g. "series by name" */
  printf (_("Matched: %s\n"), matched_label (diff->matched));
  /* Translators: how verdicts are reached; the numbers are the
   * significance level and percentages */
  printf (_("Verdicts: with several values per run, a test at α = %g and a change of %g %% or more; "
            "with one value per run, no test: a change of %g %% or more and at least the noise floor, "
            "%g %% of the largest value of its kind and unit\n"),
          options->alpha, 100 * options->threshold, 100 * options->min_change, 100 * options->noise_fraction);

  if (diff->rows->len == 0)
    {
      printf ("%s\n", _("No rows to compare"));
      return;
    }
  printf ("\n");

  table = ps_cli_table_new (G_N_ELEMENTS (labels));
  ps_cli_table_set_alignment (table, "llrrrrrrrrrrrrrrlllrl");
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    header[i] = g_strdup (_(labels[i]));

  /* The rows are measured, then printed, rather than held twice */
  ps_cli_table_measure_row (table, header);
  for (guint i = 0; i < diff->rows->len; i++)
    {
      g_auto(GStrv) cells = row_cells (g_ptr_array_index (diff->rows, i));

      ps_cli_table_measure_row (table, cells);
    }
  ps_cli_table_print_row (table, stdout, "  ", header);
  for (guint i = 0; i < diff->rows->len; i++)
    {
      g_auto(GStrv) cells = row_cells (g_ptr_array_index (diff->rows, i));

      ps_cli_table_print_row (table, stdout, "  ", cells);
    }
}

/* The regressions and improvements a summary lists of each */
#define MARKDOWN_MAX_ROWS 20

static gboolean
export_diff (const PsCliOptions *options,
             const char         *file_a,
             const char         *file_b,
             PsRunDiff          *diff)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const PsRunDiffRow * const *rows = (const PsRunDiffRow * const *)diff->rows->pdata;

  if (strcmp (options->export_target, "csv") == 0)
    ps_compare_export_csv (text, rows, diff->rows->len);
  else
    {
      g_autofree char *name_a = dup_side_name (file_a, options->session_a);
      g_autofree char *name_b = dup_side_name (file_b, options->session_b);

      ps_compare_export_markdown (text, name_a, name_b, diff->matched, rows, diff->rows->len,
                                  MARKDOWN_MAX_ROWS);
    }

  return ps_cli_write_text (options, text);
}

/* A session asked for that the file does not have is a usage error, as a
 * --thread the log does not have is */
static gboolean
check_session (PsEventStore *store,
               const char   *file,
               gint64        session)
{
  guint n_sessions = ps_event_store_get_n_sessions (store);
  g_autofree char *name = NULL;

  if (session < 0 || session < (gint64)n_sessions)
    return TRUE;
  name = ps_cli_display_basename (file);
  if (n_sessions == 0)
    ps_cli_usage_error (_("“%s” has no sessions"), name);
  else
    /* Translators: the sessions of a log are counted from 0: "“a.log” has no session 5: it has sessions 0 to 3" */
    ps_cli_usage_error (_("“%s” has no session %" PRId64 ": it has sessions 0 to %u"), name, session, n_sessions - 1);
  return FALSE;
}

static int
run_diff (const PsCliOptions  *options,
          char               **files)
{
  const char *file_a = files[0];
  const char *file_b = files[1];
  g_autoptr(PsEventStore) store_a = NULL;
  g_autoptr(PsEventStore) store_b = NULL;
  g_autoptr(PsRunDiff) diff = NULL;
  PsRunDiffOptions diff_options;
  gboolean partial;

  if (options->export_target != NULL
      && strcmp (options->export_target, "csv") != 0 && strcmp (options->export_target, "markdown") != 0)
    return ps_cli_usage_error (_("diff writes --to csv or --to markdown, not “%s”"), options->export_target);
  if (options->export_target != NULL && options->text)
    return ps_cli_usage_error (_("--text and --to do not go together"));
  if (options->export_output != NULL && options->export_target == NULL)
    return ps_cli_usage_error (_("-o applies to diff --to only"));

  store_a = ps_cli_load (options, file_a);
  if (store_a == NULL)
    return PS_CLI_EXIT_UNREADABLE;
  store_b = ps_cli_load (options, file_b);
  if (store_b == NULL)
    return PS_CLI_EXIT_UNREADABLE;
  if (!check_session (store_a, file_a, options->session_a) || !check_session (store_b, file_b, options->session_b))
    return PS_CLI_EXIT_USAGE;

  ps_run_diff_options_init (&diff_options);
  diff_options.tick_rate_override = options->tick_rate;
  diff_options.renames = options->renames;
  if (!isnan (options->min_change))
    diff_options.min_change = options->min_change;
  if (!isnan (options->noise_fraction))
    diff_options.noise_fraction = options->noise_fraction;
  diff_options.session_a = options->session_a;
  diff_options.session_b = options->session_b;
  diff = ps_run_diff_new (store_a, store_b, &diff_options);

  if (options->export_target != NULL)
    {
      if (!export_diff (options, file_a, file_b, diff))
        return PS_CLI_EXIT_UNREADABLE;
    }
  else if (options->text)
    print_diff_text (store_a, file_a, store_b, file_b, &diff_options, diff);
  else
    {
      g_autoptr(JsonNode) root = diff_to_json (store_a, file_a, store_b, file_b, &diff_options, diff);

      static const char * const streamed[] = { "rows", NULL };

      ps_cli_json_print_spliced (root, streamed, write_rows, diff);
    }

  /* Both are named when both were read in part */
  partial = ps_cli_report_partial (store_a, file_a);
  partial = ps_cli_report_partial (store_b, file_b) || partial;
  return partial ? PS_CLI_EXIT_PARTIAL : PS_CLI_EXIT_OK;
}

static gboolean
parse_rename (PsCliOptions *options,
              const char   *value,
              GError      **error)
{
  const char *equals = strchr (value, '=');

  if (equals == NULL || equals == value || equals[1] == '\0')
    {
      ps_cli_set_usage_error (error, _("--rename needs A_NAME=B_NAME, not “%s”"), value);
      return FALSE;
    }
  if (options->renames == NULL)
    options->renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_insert (options->renames, g_strndup (value, equals - value), g_strdup (equals + 1));
  return TRUE;
}

static gboolean
parse_noise_floor (PsCliOptions *options,
                   const char   *value,
                   GError      **error)
{
  if (!ps_cli_parse_percent (value, 100, &options->noise_fraction))
    {
      ps_cli_set_usage_error (error, _("--noise-floor needs a percentage from 0 to 100, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_session (const char  *option,
               const char  *value,
               gint64      *session,
               GError     **error)
{
  guint64 number;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT32 - 1, &number, NULL))
    {
      /* Translators: %s is the option, --session-a or --session-b */
      ps_cli_set_usage_error (error, _("%s needs a session number from 0, not “%s”"), option, value);
      return FALSE;
    }
  *session = (gint64)number;
  return TRUE;
}

static gboolean
parse_session_a (PsCliOptions *options,
                 const char   *value,
                 GError      **error)
{
  return parse_session ("--session-a", value, &options->session_a, error);
}

static gboolean
parse_session_b (PsCliOptions *options,
                 const char   *value,
                 GError      **error)
{
  return parse_session ("--session-b", value, &options->session_b, error);
}

static const PsCliOption rename_option = {
  .long_name = "rename", .value_name = N_("A_NAME=B_NAME"), .parse = parse_rename,
  .description = N_("diff: match the row A_NAME of the first run with B_NAME of the second (repeatable)"),
};

static const PsCliOption noise_floor = {
  .long_name = "noise-floor", .value_name = N_("PERCENT"), .parse = parse_noise_floor,
  .description = N_("diff: a row with one value per run changes by at least this percentage of the largest value of its kind and unit, else it is noise (1)"),
};

static const PsCliOption session_a_option = {
  .long_name = "session-a", .value_name = N_("N"), .parse = parse_session_a,
  .description = N_("diff: compare only session N of FILE_A (counted from 0, as info and stats count them), not the whole file"),
};

static const PsCliOption session_b_option = {
  .long_name = "session-b", .value_name = N_("N"), .parse = parse_session_b,
  .description = N_("diff: compare only session N of FILE_B"),
};

static const PsCliOption * const diff_options[] = {
  PS_CLI_READ_OPTIONS,
  PS_CLI_PRINT_OPTIONS,
  &rename_option,
  &ps_cli_option_min_change,
  &noise_floor,
  &session_a_option,
  &session_b_option,
  &ps_cli_option_to,
  &ps_cli_option_output,
  NULL,
};

const PsCliCommand ps_cli_diff_command = {
  .name = "diff",
  .files = "FILE_A FILE_B",
  .summary = N_("compare two runs: series, functions or counters matched by name, "
                "each with a verdict and its basis: a Mann–Whitney p-value, a test of "
                "sample shares, or the size of a change of one value per run "
                "(--min-change PERCENT, --noise-floor PERCENT; --rename A_NAME=B_NAME; "
                "--session-a N, --session-b N: one session of a file; "
                "--to csv or --to markdown, -o OUT)"),
  .files_error = N_("diff needs exactly two FILEs"),
  .min_files = 2,
  .max_files = 2,
  .options = diff_options,
  .run = run_diff,
};
