/* ps-task-util.c — a result computed in a worker thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-task-util.h"
#include "ps-util.h"

/* A task's data: what it computes, and from what */
typedef struct
{
  const PsComputation *computation;
  gpointer             data;
} Work;

static void
work_free (gpointer data)
{
  Work *work = data;

  if (work->computation->data_free != NULL)
    work->computation->data_free (work->data);
  g_free (work);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Work *work = task_data;
  const PsComputation *computation = work->computation;
  gpointer result;

  if (g_task_return_error_if_cancelled (task))
    return;

  result = computation->compute (work->data, cancellable);
  /* What a computation returns once cancelled may be cut short (a search
   * stops where it was): never given as the result */
  if (g_task_return_error_if_cancelled (task))
    {
      if (result != NULL && computation->result_free != NULL)
        computation->result_free (result);
      return;
    }
  if (result == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "No result");
  else
    g_task_return_pointer (task, result, computation->result_free);
}

void
ps_task_compute_in_thread (const PsComputation *computation,
                           gpointer             data,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Work *work = g_new0 (Work, 1);

  work->computation = computation;
  work->data = data;
  g_task_set_source_tag (task, computation->source_tag);
  g_task_set_task_data (task, work, work_free);
  g_task_set_return_on_cancel (task, TRUE);
  ps_task_run_in_background (task, compute_thread);
}

/* The function a task runs in the background, beside its data */
typedef struct
{
  GTaskThreadFunc func;
} Background;

static GQuark
background_quark (void)
{
  return g_quark_from_static_string ("ps-task-background");
}

static void
background_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  const Background *background = g_object_get_qdata (G_OBJECT (task), background_quark ());

  /* GLib's worker threads are shared and kept: lowered once, a thread
   * stays so for the next tasks, all of them background work too */
  ps_util_lower_thread_priority ();
  background->func (task, source_object, task_data, cancellable);
}

void
ps_task_run_in_background (GTask           *task,
                           GTaskThreadFunc  func)
{
  Background *background;

  g_return_if_fail (G_IS_TASK (task));

  background = g_new (Background, 1);
  background->func = func;
  g_object_set_qdata_full (G_OBJECT (task), background_quark (), background, g_free);
  g_task_run_in_thread (task, background_thread);
}
