/* ps-compare-export.c — a comparison of two runs as CSV and as Markdown
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff" (the meaning of each number); issue 8 ("Export").
 * The CSV is for spreadsheets: machine numbers (ps_util_format_double),
 * fixed English headers like the CLI's JSON members. The Markdown is for
 * people: numbers in their units, headings translated.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ps-compare-export.h"
#include "ps-export-csv.h"
#include "ps-util.h"

static char *
format_plain_number (double magnitude)
{
  if (magnitude >= 100)
    return ps_util_format_count ((guint64)llround (magnitude));
  return g_strdup_printf ("%.2f", magnitude);
}

char *
ps_compare_export_format_value (double      value,
                                const char *unit,
                                gboolean    is_signed)
{
  double magnitude = fabs (value);
  g_autofree char *text = NULL;
  const char *sign = "";

  if (isnan (value))
    return g_strdup ("–");
  if (is_signed && value > 0)
    sign = "+";
  else if (value < 0)
    sign = "−";

  if (unit == NULL)
    unit = "";
  if (strcmp (unit, "s") == 0)
    text = ps_util_format_seconds (magnitude);
  else if (strcmp (unit, "ns") == 0)
    text = ps_util_format_seconds (magnitude / 1e9);
  else if (strcmp (unit, "bytes") == 0)
    text = ps_util_format_bytes (magnitude);
  else if (strcmp (unit, "percent") == 0)
    text = g_strdup_printf ("%.2f %%", magnitude);
  else
    {
      g_autofree char *number = format_plain_number (magnitude);

      text = unit[0] != '\0' ? g_strconcat (number, " ", unit, NULL) : g_steal_pointer (&number);
    }

  return g_strconcat (sign, text, NULL);
}

char *
ps_compare_export_format_ratio (double ratio)
{
  if (isnan (ratio) || isinf (ratio))
    return g_strdup ("–");
  return g_strdup_printf ("%.2f×", ratio);
}

char *
ps_compare_export_format_p_value (double p_value)
{
  if (isnan (p_value))
    return g_strdup ("–");
  /* Both in the locale's digits, as a person reads them beside each
   * other: "< 0,001" and "0,464" */
  if (p_value < 0.001)
    return g_strdup_printf ("< %.3f", 0.001);
  return g_strdup_printf ("%.3f", p_value);
}

char *
ps_compare_export_format_basis (const PsRunDiffRow *row)
{
  g_return_val_if_fail (row != NULL, NULL);

  switch (row->basis)
    {
    case PS_RUN_DIFF_BASIS_TEST:
      /* Translators: the basis of a verdict; the values compared are the means */
      return g_strdup (_("Mann–Whitney test (means)"));
    case PS_RUN_DIFF_BASIS_PROPORTION:
      return g_strdup (_("test of sample shares"));
    case PS_RUN_DIFF_BASIS_SIZE:
      return g_strdup (ps_run_diff_row_compares_totals (row)
                       /* Translators: a verdict without a test, from the size of the change of a total */
                       ? _("no test: one value per run (totals)")
                       /* Translators: a verdict without a test, from the size of the change of a mean */
                       : _("no test: one value per run"));
    case PS_RUN_DIFF_BASIS_NONE:
    default:
      return g_strdup ("–");
    }
}

char *
ps_compare_export_format_reason (const PsRunDiffRow *row)
{
  g_return_val_if_fail (row != NULL, NULL);

  switch (row->reason)
    {
    case PS_RUN_DIFF_REASON_SIGNIFICANT:     return g_strdup (_("significant"));
    case PS_RUN_DIFF_REASON_NOT_SIGNIFICANT: return g_strdup (_("not significant"));
    case PS_RUN_DIFF_REASON_SMALL:           return g_strdup (_("change too small"));
    case PS_RUN_DIFF_REASON_LARGE:           return g_strdup (_("large change"));
    case PS_RUN_DIFF_REASON_NOISE:           return g_strdup (_("under the noise floor"));
    case PS_RUN_DIFF_REASON_NO_VALUE:        return g_strdup (_("no value to compare"));
    case PS_RUN_DIFF_REASON_ONE_SIDE:
    default:                                 return g_strdup (_("in one run only"));
    }
}

/* CSV */

static void
append_csv_number (GString *out,
                   double   value)
{
  g_autofree char *text = NULL;

  g_string_append_c (out, ',');
  if (isnan (value) || isinf (value))
    return;
  text = ps_util_format_double (value);
  g_string_append (out, text);
}

static void
append_csv_side (GString       *out,
                 gboolean       present,
                 const PsStats *stats)
{
  if (!present)
    {
      g_string_append (out, ",,,,,");
      return;
    }
  g_string_append_printf (out, ",%" PRIu64, (guint64)stats->count);
  append_csv_number (out, stats->mean);
  append_csv_number (out, stats->median);
  append_csv_number (out, stats->p95);
  append_csv_number (out, stats->sum);
}

/* The unit every row has, or NULL when they differ */
static const char *
common_unit (const PsRunDiffRow * const *rows,
             guint                       n_rows)
{
  const char *unit = n_rows > 0 ? rows[0]->unit : NULL;

  for (guint i = 1; i < n_rows && unit != NULL; i++)
    if (g_strcmp0 (rows[i]->unit, unit) != 0)
      unit = NULL;
  return unit != NULL && unit[0] != '\0' ? unit : NULL;
}

void
ps_compare_export_csv (GString                    *out,
                       const PsRunDiffRow * const *rows,
                       guint                       n_rows)
{
  static const char *valued[] = {
    "a_mean", "a_median", "a_p95", "a_total",
    "b_mean", "b_median", "b_p95", "b_total",
    "delta_mean",
  };
  const char *unit = common_unit (rows, n_rows);

  g_return_if_fail (out != NULL);
  g_return_if_fail (rows != NULL || n_rows == 0);

  g_string_append (out, "name,a_name,context,kind,unit,a_count");
  for (guint i = 0; i < G_N_ELEMENTS (valued); i++)
    {
      /* b_count comes between A's and B's values */
      if (i == 4)
        g_string_append (out, ",b_count");
      g_string_append_printf (out, ",%s", valued[i]);
      if (unit != NULL)
        g_string_append_printf (out, " (%s)", unit);
    }
  g_string_append (out, ",ratio_mean,p_value,change,basis,reason,noise_floor");
  if (unit != NULL)
    g_string_append_printf (out, " (%s)", unit);
  g_string_append (out, "\r\n");

  for (guint i = 0; i < n_rows; i++)
    {
      const PsRunDiffRow *row = rows[i];

      ps_csv_append_field (out, row->name);
      g_string_append_c (out, ',');
      ps_csv_append_field (out, row->a_name);
      g_string_append_c (out, ',');
      ps_csv_append_field (out, row->context);
      g_string_append_c (out, ',');
      ps_csv_append_field (out, row->kind);
      g_string_append_c (out, ',');
      ps_csv_append_field (out, row->unit);
      append_csv_side (out, row->has_a, &row->a);
      append_csv_side (out, row->has_b, &row->b);
      append_csv_number (out, row->delta_mean);
      append_csv_number (out, row->ratio_mean);
      append_csv_number (out, row->p_value);
      g_string_append_c (out, ',');
      if (row->has_a && row->has_b)
        g_string_append (out, ps_run_diff_change_to_string (row->change));
      else
        g_string_append (out, row->has_a ? "only-a" : "only-b");
      g_string_append_printf (out, ",%s,%s", ps_run_diff_basis_to_string (row->basis),
                              ps_run_diff_reason_to_string (row->reason));
      /* Only a verdict on the size of a change has a noise floor */
      append_csv_number (out, row->basis == PS_RUN_DIFF_BASIS_SIZE ? row->noise_floor : NAN);
      g_string_append (out, "\r\n");
    }
}

/* Markdown */

static int
compare_ratio_descending (gconstpointer a,
                          gconstpointer b)
{
  double ratio_a = ps_run_diff_row_get_compared_ratio (*(const PsRunDiffRow **)a);
  double ratio_b = ps_run_diff_row_get_compared_ratio (*(const PsRunDiffRow **)b);

  return (ratio_a < ratio_b) - (ratio_a > ratio_b);
}

static int
compare_ratio_ascending (gconstpointer a,
                         gconstpointer b)
{
  return compare_ratio_descending (b, a);
}

/* Pipes would end a cell */
static void
append_markdown_cell (GString    *out,
                      const char *text)
{
  g_string_append (out, "| ");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '|' || *p == '\\' || *p == '*' || *p == '_' || *p == '`')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p == '\n' ? ' ' : *p);
    }
  g_string_append_c (out, ' ');
}

static void
append_markdown_table (GString   *out,
                       const char *heading,
                       GPtrArray *rows,
                       guint      max_rows)
{
  guint n_shown = MIN (rows->len, max_rows);

  if (rows->len == 0)
    return;

  g_string_append_printf (out, "\n### %s\n\n", heading);
  /* A and B are what the verdict compares: means, or totals (the basis
   * says which) */
  g_string_append_printf (out, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
                          _("Name"), _("A"), _("B"), _("Δ"),
                          _("Ratio"), _("p-value"), _("Basis"), _("Count A / B"));
  g_string_append (out, "|---|---:|---:|---:|---:|---:|---|---:|\n");
  for (guint i = 0; i < n_shown; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (rows, i);
      gboolean totals = ps_run_diff_row_compares_totals (row);
      g_autofree char *a_value = ps_compare_export_format_value (totals ? row->a.sum : row->a.mean, row->unit, FALSE);
      g_autofree char *b_value = ps_compare_export_format_value (totals ? row->b.sum : row->b.mean, row->unit, FALSE);
      g_autofree char *delta = ps_compare_export_format_value (totals ? row->delta_total : row->delta_mean, row->unit, TRUE);
      g_autofree char *ratio = ps_compare_export_format_ratio (ps_run_diff_row_get_compared_ratio (row));
      g_autofree char *p_value = ps_compare_export_format_p_value (row->p_value);
      g_autofree char *basis = ps_compare_export_format_basis (row);
      g_autofree char *a_count = ps_util_format_count (row->a.count);
      g_autofree char *b_count = ps_util_format_count (row->b.count);
      g_autofree char *counts = g_strdup_printf ("%s / %s", a_count, b_count);
      g_autofree char *name = row->a_name != NULL
        /* Translators: a renamed row: its name in B, then in A */
        ? g_strdup_printf (_("%s (was %s)"), row->name, row->a_name)
        : g_strdup (row->name);

      append_markdown_cell (out, name);
      append_markdown_cell (out, a_value);
      append_markdown_cell (out, b_value);
      append_markdown_cell (out, delta);
      append_markdown_cell (out, ratio);
      append_markdown_cell (out, p_value);
      append_markdown_cell (out, basis);
      append_markdown_cell (out, counts);
      g_string_append (out, "|\n");
    }
  if (rows->len > n_shown)
    {
      g_autofree char *more =
        /* Translators: %u is a number of rows left out of a summary */
        g_strdup_printf (ngettext ("… and %u more.", "… and %u more.",
                                      rows->len - n_shown),
                         rows->len - n_shown);

      g_string_append_printf (out, "\n%s\n", more);
    }
}

void
ps_compare_export_markdown (GString                    *out,
                            const char                 *name_a,
                            const char                 *name_b,
                            PsRunDiffMatch              matched,
                            const PsRunDiffRow * const *rows,
                            guint                       n_rows,
                            guint                       max_rows)
{
  g_autoptr(GPtrArray) regressions = g_ptr_array_new ();
  g_autoptr(GPtrArray) improvements = g_ptr_array_new ();
  g_autoptr(GPtrArray) changed = g_ptr_array_new ();
  g_autoptr(GPtrArray) one_side = g_ptr_array_new ();
  g_autofree char *match = ps_run_diff_match_to_string (matched);
  guint n_unchanged = 0;

  g_return_if_fail (out != NULL);
  g_return_if_fail (rows != NULL || n_rows == 0);

  for (guint i = 0; i < n_rows; i++)
    {
      const PsRunDiffRow *row = rows[i];

      if (!row->has_a || !row->has_b)
        g_ptr_array_add (one_side, (gpointer)row);
      else if (row->change == PS_RUN_DIFF_REGRESSION)
        g_ptr_array_add (regressions, (gpointer)row);
      else if (row->change == PS_RUN_DIFF_IMPROVEMENT)
        g_ptr_array_add (improvements, (gpointer)row);
      else if (row->change == PS_RUN_DIFF_CHANGED)
        g_ptr_array_add (changed, (gpointer)row);
      else
        n_unchanged++;
    }
  g_ptr_array_sort (regressions, compare_ratio_descending);
  g_ptr_array_sort (improvements, compare_ratio_ascending);
  g_ptr_array_sort (changed, compare_ratio_descending);

  /* Translators: the heading of a comparison summary; %s are file names */
  g_string_append_printf (out, _("## Comparison: %s → %s"), name_a, name_b);
  g_string_append (out, "\n\n");
  /* Translators: %s is how rows were matched: "series", "functions", "counters" or "none" */
  g_string_append_printf (out, _("Rows matched by: %s."), match);
  g_string_append_c (out, ' ');
  /* Translators: counts of the rows of a comparison by change */
  g_string_append_printf (out, _("Regressions: %u, improvements: %u, other changes: %u, unchanged: %u, in one run only: %u."),
                          regressions->len, improvements->len, changed->len, n_unchanged, one_side->len);
  g_string_append (out, "\n");

  append_markdown_table (out, _("Regressions"), regressions, max_rows);
  append_markdown_table (out, _("Improvements"), improvements, max_rows);
  append_markdown_table (out, _("Other Changes"), changed, max_rows);

  if (one_side->len > 0)
    {
      g_string_append_printf (out, "\n### %s\n\n", _("In One Run Only"));
      for (guint i = 0; i < one_side->len; i++)
        {
          const PsRunDiffRow *row = g_ptr_array_index (one_side, i);
          const PsStats *stats = row->has_a ? &row->a : &row->b;
          g_autofree char *mean = ps_compare_export_format_value (stats->mean, row->unit, FALSE);
          g_autofree char *total = ps_compare_export_format_value (stats->sum, row->unit, FALSE);
          g_autofree char *count = ps_util_format_count (stats->count);

          g_string_append_printf (out, "- %s: ", row->name);
          /* Functions of trees in different units have a share, no mean */
          if (isnan (stats->mean))
            g_string_append_printf (out,
                                    row->has_a
                                    /* Translators: a row only in run A: its count and total */
                                    ? _("only in A (count %s, total %s)")
                                    /* Translators: a row only in run B: its count and total */
                                    : _("only in B (count %s, total %s)"),
                                    count, total);
          else
            g_string_append_printf (out,
                                    row->has_a
                                    /* Translators: a row only in run A: its count and mean */
                                    ? _("only in A (count %s, mean %s)")
                                    /* Translators: a row only in run B: its count and mean */
                                    : _("only in B (count %s, mean %s)"),
                                    count, mean);
          g_string_append_c (out, '\n');
        }
    }
}
