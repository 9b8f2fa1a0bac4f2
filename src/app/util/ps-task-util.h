/* ps-task-util.h — a result computed in a worker thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analyses of a run (the run's tables, the RTL view's scopes and
 * their search, a call tree's search) are computed alike: from data of
 * their own, in a worker thread, and a cancelled one is dropped. The
 * GTask that runs them is written here once; each analysis describes only
 * how it is computed and freed (PsComputation).
 *
 * Every worker thread of the window runs at a lower priority than the
 * window's own (ps_task_run_in_background ()): on two busy cores the
 * window answered input only after waits of 50–150 ms for a core.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Computes a result from data in a worker thread, looking at cancellable
 * as it goes; may return NULL once cancelled. What it returns once
 * cancelled is dropped (freed), as it may be cut short. */
typedef gpointer (*PsComputeFunc) (gpointer      data,
                                   GCancellable *cancellable);

/* An analysis computed in a worker thread, one static description for
 * each: compute makes the result from data, which data_free frees; the
 * result is freed with result_free where nobody takes it; source_tag is
 * the analysis's _async function */
typedef struct
{
  gpointer       source_tag;
  PsComputeFunc  compute;
  GDestroyNotify data_free;
  GDestroyNotify result_free;
} PsComputation;

/* Runs computation on data in a worker thread (the task owns data) and
 * calls callback with the task, whose pointer is the result. Cancelled,
 * the task answers at once with G_IO_ERROR_CANCELLED; the thread stops
 * soon after and its work is dropped. computation is static: the task
 * keeps it. */
void ps_task_compute_in_thread (const PsComputation *computation,
                                gpointer             data,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data);

/* g_task_run_in_thread (), with the thread's priority lowered first
 * (ps_util_lower_thread_priority ()) */
void ps_task_run_in_background (GTask           *task,
                                GTaskThreadFunc  func);

G_END_DECLS
