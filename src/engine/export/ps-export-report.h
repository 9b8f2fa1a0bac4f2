/* ps-export-report.h — a summary of a run for a bug report
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to markdown|html).
 *
 * A report holds what a reader of a bug report wants to see first: the
 * run (file, format, when it started and how long it lasted, the
 * machine's metadata, what was read), its main numbers (the series of
 * `stats` by total time, the functions of `calltree` by inclusive and by
 * exclusive value, or the performance counters of `counters`), the data
 * quality notes (warnings grouped by code, a partial read's error) and,
 * when given, references to pictures.
 *
 * Markdown is written for GitHub and GitLab: pipe tables with numbers in
 * right-aligned columns, a unit on every value, and names with their
 * Markdown metacharacters escaped. HTML is a standalone HTML5 document
 * with a little inline CSS; it is also well-formed XML (void elements are
 * self-closed), every text escaped. Both hold the same text and numbers.
 * Numbers do not depend on the locale; the report's words are English,
 * like the other export formats.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_EXPORT_REPORT_DEFAULT_TOP 10

typedef enum
{
  PS_EXPORT_REPORT_MARKDOWN,
  PS_EXPORT_REPORT_HTML,
} PsExportReportFormat;

/* A picture the report refers to: an image file written next to it */
typedef struct
{
  const char *caption;
  const char *file;     /* a file name or relative URL */
} PsExportReportPicture;

typedef struct
{
  PsExportReportFormat         format;
  const char                  *file_name;           /* the run's name in the title, or NULL */
  guint                        top;                 /* rows of each table, 0 for the default */
  double                       tick_rate_override;  /* > 0: instead of the log's timer rate */
  const PsExportReportPicture *pictures;            /* may be NULL */
  guint                        n_pictures;
} PsExportReportOptions;

/* The whole report; options may be NULL (Markdown, default top) */
GString  *ps_export_report_build (PsEventStore                *store,
                                  const PsExportReportOptions *options);

/* The target name of a format ("markdown", "html") and back; FALSE for
 * an unknown name */
const char *ps_export_report_format_to_string (PsExportReportFormat  format);
gboolean    ps_export_report_format_from_string (const char          *name,
                                                 PsExportReportFormat *format);

G_END_DECLS
