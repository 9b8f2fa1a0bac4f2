/* ps-ready-clock.h — when a run opened from the command line became ready
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For bench/run-window-bench (perfscope --bench-exit-when-ready FILE): the
 * run page marks the milestones of its load — store, first rows, analysis,
 * timeline, ready — and at "ready" the clock prints them as one JSON line
 * on standard error and quits the application. Meanwhile a 10 ms timeout
 * at the priority of input events measures how late the main loop answers
 * (bench/README.md, "run-window-bench"). Without ps_ready_clock_start ()
 * every call does nothing.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void     ps_ready_clock_start      (GApplication *application);
gboolean ps_ready_clock_is_running (void);
/* The first time of each milestone counts */
void     ps_ready_clock_mark       (const char   *milestone);
/* Marks "ready" (or the error that ended the load), prints the line and
 * quits the application; only the first call counts */
void     ps_ready_clock_finish     (const GError *error);

G_END_DECLS
