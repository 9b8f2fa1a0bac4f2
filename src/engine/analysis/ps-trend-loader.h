/* ps-trend-loader.h — the runs of many files, for a trend
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". Files and folders (every regular file of a
 * folder whose name does not start with ".", by name; not its
 * subfolders) are read one after the other, in the calling thread: logs
 * of any format with only their totals kept (PS_FORMAT_OPTION_TOTALS_ONLY),
 * then summed up (ps_run_summary_collect (): one run per session of an
 * appended CE log), and the JSON summaries of perfscope-cli summarize
 * with every value. A file that cannot be read is a problem of the
 * result, not an error: the others still make the trend.
 */
#pragma once

#include <gio/gio.h>

#include "ps-run-summary.h"

G_BEGIN_DECLS

typedef struct
{
  GFile *file;
  char  *message;   /* why it could not be read, or was read only in part */
  gboolean partial; /* read in part: its runs are in the result */
} PsTrendProblem;

typedef struct
{
  GPtrArray  *runs;      /* PsRunSummary*, in the order of the files */
  /* GFile*, one per run: the file it was read from (a summary's own
   * file, not the log it summed up) */
  GHashTable *files;     /* PsRunSummary* → GFile* */
  GPtrArray  *problems;  /* PsTrendProblem*, in the order of the files */
} PsTrendInputs;

/* Called in the reading thread: the fraction of the work done (by files,
 * and by bytes within a log) and the name of the file being read */
typedef void (*PsTrendProgressFunc) (double      fraction,
                                     const char *file_name,
                                     gpointer    user_data);

/* The runs of files (folders expanded); NULL with G_IO_ERROR_CANCELLED
 * when cancellable was cancelled. progress may be NULL. */
PsTrendInputs *ps_trend_inputs_read (GFile * const        *files,
                                     guint                 n_files,
                                     GCancellable         *cancellable,
                                     PsTrendProgressFunc   progress,
                                     gpointer              progress_data,
                                     GError              **error);
void           ps_trend_inputs_free (PsTrendInputs        *inputs);
/* Gives the runs (PsRunSummary*) whose log has no time the file's
 * modification time (time_from_file) */
void           ps_trend_set_file_time (GPtrArray          *runs,
                                       GFile              *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsTrendInputs, ps_trend_inputs_free)

G_END_DECLS
