/* ps-report-export.h — a run's summary for a bug report, from the window
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-page.h"

G_BEGIN_DECLS

/* The summary of the page's run (ps-export-report.h) as Markdown, with
 * no pictures: what Copy Report puts on the clipboard */
char     *ps_report_export_markdown  (PsRunPage  *page);
/* The summary written to file: HTML for a name ending in .html or .htm,
 * else Markdown; the run's timeline as it is on screen goes beside it as
 * NAME-timeline.png, and the report shows it. The report replaces an
 * existing file only once complete. */
gboolean  ps_report_export_to_file   (PsRunPage  *page,
                                      GFile      *file,
                                      GError    **error);
/* Export Report…: the file dialog, then ps_report_export_to_file (),
 * errors in a dialog over parent */
void      ps_report_export_run_dialog (PsRunPage *page,
                                       GtkWindow *parent);

G_END_DECLS
