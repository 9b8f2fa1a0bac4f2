/* ps-run-summary.h — the few numbers per row that a trend of runs needs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "summarize" (the JSON) and "trend". A run is summed up
 * in one row per measured series, scope, function and counter, named as
 * perfscope-cli stats and diff name them:
 *  - series (CE PerfLog markers, RTL scopes): ps_series_collect () with
 *    group_by_name, one row per (kind, unit, context, name). Series of
 *    one name in several applications of a session are pooled: count,
 *    mean and total are theirs together; median and p95, which cannot be
 *    pooled from statistics, are then NaN.
 *  - functions, for profiles and runs without series: the call tree of
 *    ps_call_tree_diff_tree_for_store (), pooled by name over modules.
 *    Sampled trees: count is the samples with the function on their
 *    stack, total and mean its share of the run's samples (unit
 *    "percent"); timed trees: count the calls, total the elapsed
 *    inclusive time in the tree's unit, mean per call. Trees hold no
 *    per-call values: median and p95 are NaN.
 *  - counters: one row per counter path and unit, over the readings with
 *    a value.
 * A log of several sessions with series (a CE PerfLog appended run after
 * run) is one run per session that has any; any other store one run.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

/* The version of the summary's JSON this engine writes and reads */
#define PS_RUN_SUMMARY_VERSION 1

typedef struct
{
  const char *kind;     /* interned: "duration", "cpu", "memory", "span", "counter", "function", … */
  char       *name;
  char       *context;  /* spans: the context of a logical scope, else NULL */
  const char *unit;     /* interned: a run has few */
  guint64     count;
  double      median;   /* NaN where not known */
  double      p95;
  double      mean;
  double      total;
} PsRunSummaryRow;

typedef struct
{
  char      *file;          /* the file's name, for people */
  char      *format;        /* the format read ("perfscope" for a saved run) */
  char      *origin;        /* a saved run's format of origin, else NULL */
  gboolean   complete;      /* the file was read whole */
  gint64     session;       /* 0-based, for one session of a log; -1 for the whole store */
  gboolean   has_time;
  gint64     time_unix_ns;  /* when the run began, if has_time */
  gboolean   time_from_file; /* the time is the file's modification, the log having none */
  char      *version;       /* the version of what was measured, or NULL (CE: OSVERSION) */
  char      *build;         /* its build, or NULL (CE: BUILD) */
  GPtrArray *rows;          /* PsRunSummaryRow* */
} PsRunSummary;

/* The runs of a store (PsRunSummary*, freed with the array), with rows,
 * session, time, version and build filled in; file, format and origin
 * are the caller's to set. NULL when cancellable (may be NULL) was
 * cancelled. */
GPtrArray    *ps_run_summary_collect    (PsEventStore       *store,
                                         GCancellable       *cancellable);
void          ps_run_summary_free       (PsRunSummary       *summary);
void          ps_run_summary_row_free   (PsRunSummaryRow    *row);
/* Whether a row's value is better lower: everything but counters */
gboolean      ps_run_summary_kind_lower_is_better (const char *kind);

/* The runs of one file as the summary's JSON (cli.md "summarize"): the
 * first run's file, format, origin and completeness, then every run */
void          ps_run_summary_write      (GPtrArray          *runs,
                                         GString            *out);
/* Whether text (the start of a file is enough) is a summary's JSON */
gboolean      ps_run_summary_sniff      (const char         *text,
                                         gsize               length);
/* The runs of a summary's JSON, each with the file's members; NULL with
 * error set (PS_ERROR_PARSE, naming the byte offset) when it is not one,
 * PS_ERROR_UNSUPPORTED_VERSION for a later version. Members it does not
 * know are skipped. */
GPtrArray    *ps_run_summary_read       (const char         *text,
                                         gsize               length,
                                         GError            **error);

typedef enum
{
  PS_RUN_SUMMARY_VALUE_MEDIAN = 1 << 0,
  PS_RUN_SUMMARY_VALUE_P95    = 1 << 1,
  PS_RUN_SUMMARY_VALUE_MEAN   = 1 << 2,
  PS_RUN_SUMMARY_VALUE_TOTAL  = 1 << 3,
  PS_RUN_SUMMARY_VALUE_ALL    = 0xF,
} PsRunSummaryValue;

/* The same, with only the row values in the PsRunSummaryValue flags
 * `values` converted and the others NaN: a trend of thousands of
 * summaries needs one or two */
GPtrArray    *ps_run_summary_read_values (const char        *text,
                                          gsize              length,
                                          guint              values,
                                          GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsRunSummary, ps_run_summary_free)

G_END_DECLS
