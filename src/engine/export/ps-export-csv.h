/* ps-export-csv.h — tables as comma-separated values (RFC 4180)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to csv).
 *
 * PsCsvWriter writes any table: a header row whose cells carry their unit
 * ("sum (s)"), then rows of text and numbers. Fields holding a comma, a
 * double quote, CR or LF are quoted, quotes doubled; rows end with CRLF.
 * Numbers are in their shortest round-trip form, as in the JSON output;
 * a value that is not finite is an empty field.
 *
 * The tables of a run are the CLI's: the per-series statistics of
 * `stats`, the function summary or the top-down tree of `calltree`, one
 * row of statistics per performance counter or one row per reading.
 */
#pragma once

#include "ps-event-store.h"
#include "ps-call-tree.h"
#include "ps-series.h"

G_BEGIN_DECLS

typedef struct _PsCsvWriter PsCsvWriter;

PsCsvWriter *ps_csv_writer_new        (GOutputStream *stream,
                                       GCancellable  *cancellable);
void         ps_csv_writer_free       (PsCsvWriter   *self);
/* Header cells, then ps_csv_writer_end_row () */
void         ps_csv_writer_add_column (PsCsvWriter   *self,
                                       const char    *name,
                                       const char    *unit);
void         ps_csv_writer_add_text   (PsCsvWriter   *self,
                                       const char    *text);
/* A cell of text cut as ps_util_append_cut_name () cuts a name */
void         ps_csv_writer_add_cut_text (PsCsvWriter *self,
                                       const char    *text);
void         ps_csv_writer_add_number (PsCsvWriter   *self,
                                       double         value);
void         ps_csv_writer_add_int    (PsCsvWriter   *self,
                                       gint64         value);
void         ps_csv_writer_end_row    (PsCsvWriter   *self);
gboolean     ps_csv_writer_finish     (PsCsvWriter   *self,
                                       GError       **error);

/* Appends one field, quoted when it must be (NULL: an empty field) */
void         ps_csv_append_field      (GString       *out,
                                       const char    *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsCsvWriter, ps_csv_writer_free)

typedef enum
{
  PS_EXPORT_CSV_NONE,            /* the run has no table */
  PS_EXPORT_CSV_STATS,           /* measurements and spans: per-series statistics */
  PS_EXPORT_CSV_FUNCTIONS,       /* samples and reports: the function summary */
  PS_EXPORT_CSV_TREE,            /* any call tree: its top-down tree */
  PS_EXPORT_CSV_COUNTERS,        /* performance counters: statistics */
  PS_EXPORT_CSV_COUNTER_POINTS,  /* performance counters: every reading kept */
} PsExportCsvTable;

/* The main table of a run: the function summary of a profiler report or
 * of sampled stacks, else the statistics of measurements and spans, else
 * the counter statistics */
PsExportCsvTable ps_export_csv_main_table (PsEventStore          *store);

/* session, kind, name, app, id, instance, context, threads, unit, count,
 * sum … stddev, self_sum, excluded, flagged: the series of
 * ps_series_collect (). The statistics' header cells name the unit when
 * every series has the same one; the unit column always does. */
gboolean     ps_export_csv_stats      (PsEventStore          *store,
                                       const PsSeriesOptions *options,
                                       GOutputStream         *stream,
                                       GCancellable          *cancellable,
                                       GError               **error);
/* CE PerfLog, as PerfToCsv gives it (ce-perflog.md §4.5, §5): one
 * row per marker description within a session (its instances merged),
 * session, app, description, then a column per description key in the
 * order the keys first appear, holding the key's value with %AVG%, %MIN%,
 * %MAX% and %key% substituted and evaluated, then count, mean, min, max
 * and sum of the durations. Durations only; options as for
 * ps_export_csv_stats (group_by_name is implied). */
gboolean     ps_export_csv_ce_descriptions (PsEventStore          *store,
                                            const PsSeriesOptions *options,
                                            GOutputStream         *stream,
                                            GCancellable          *cancellable,
                                            GError               **error);
/* with_tree FALSE: name, module, calls, the four values and their
 * percentages, functions by elapsed inclusive value (largest first).
 * TRUE: id, parent, depth first, one row per top-down node in depth-first
 * order down to max_depth levels (0: all), parent 0 for the top level. */
gboolean     ps_export_csv_call_tree  (PsCallTree            *tree,
                                       PsCallBasis            basis,
                                       gboolean               with_tree,
                                       guint                  max_depth,
                                       GOutputStream         *stream,
                                       GCancellable          *cancellable,
                                       GError               **error);
/* points FALSE: machine, object, instance, counter, type, unit, count,
 * missing, min, max, mean, first, last, first_time, last_time over every
 * reading. TRUE: machine, object, instance, counter, unit, time, value for
 * every reading kept that has a value, in the order they were read. Times are ns since 1970 (UTC) when
 * every counter's session knows its wall-clock start, else since the
 * run's origin, as in `perfscope-cli counters`. */
gboolean     ps_export_csv_counters   (PsEventStore          *store,
                                       gboolean               points,
                                       GOutputStream         *stream,
                                       GCancellable          *cancellable,
                                       GError               **error);

G_END_DECLS
