/* ps-compare-export.h — a comparison of two runs as CSV and as Markdown
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The comparison page exports the rows it shows; `perfscope-cli diff
 * --to csv|markdown` all of a PsRunDiff's rows. Issue 8 ("Export").
 */
#pragma once

#include <glib.h>

#include "ps-run-diff.h"

G_BEGIN_DECLS

/* A value in its unit, for people: "12.300 ms" (unit "s"), "9.6 MiB"
 * ("bytes"), "42.50 %" ("percent"), "1,204 ticks"; "–" for NaN. With
 * signed, a "+" or "−" in front (deltas). */
char *ps_compare_export_format_value (double      value,
                                      const char *unit,
                                      gboolean    is_signed);
/* "1.74×", "–" for NaN */
char *ps_compare_export_format_ratio (double      ratio);
/* "0.029", "< 0.001", "–" for NaN */
char *ps_compare_export_format_p_value (double    p_value);

/* What a row's verdict rests on, for people: "Mann–Whitney test (means)",
 * "test of sample shares", "no test: one value per run (totals)", …; "–"
 * on one side only */
char *ps_compare_export_format_basis (const PsRunDiffRow *row);
/* Why the row has its verdict: "significant", "change too small", "under
 * the noise floor", … */
char *ps_compare_export_format_reason (const PsRunDiffRow *row);

/* Appends a header line and one line per row, in the order given. Numbers
 * are locale-independent and in the unit of the row (the "unit" column);
 * when all rows share a unit, the headers of the values name it too
 * ("a_mean (s)"). Sides a row does not have are empty. After "change"
 * come the verdict's "basis" and "reason" (ps_run_diff_basis_to_string (),
 * ps_run_diff_reason_to_string ()) and "noise_floor" (SIZE rows). */
void  ps_compare_export_csv          (GString             *out,
                                      const PsRunDiffRow * const *rows,
                                      guint                n_rows);

/* Appends a Markdown summary for a bug report: the files, how rows were
 * matched, the count of each change, then tables of at most max_rows
 * regressions (largest ratio first) and improvements (smallest first)
 * with the values their verdicts compare (means, or totals of functions
 * with one value per run) in their units and the basis of each verdict,
 * then the rows on one side only. */
void  ps_compare_export_markdown     (GString             *out,
                                      const char          *name_a,
                                      const char          *name_b,
                                      PsRunDiffMatch       matched,
                                      const PsRunDiffRow * const *rows,
                                      guint                n_rows,
                                      guint                max_rows);

G_END_DECLS
