/* ps-window.h — the main window: one tab per run
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ps-compare-page.h"
#include "ps-record-page.h"
#include "ps-run-page.h"
#include "ps-trend-page.h"

G_BEGIN_DECLS

#define PS_TYPE_WINDOW (ps_window_get_type ())
G_DECLARE_FINAL_TYPE (PsWindow, ps_window, PS, WINDOW, AdwApplicationWindow)

PsWindow  *ps_window_new              (GtkApplication *application);
/* The one way files get opened: file dialog, drag and drop, Open Recent
 * and the command line all end here. A file already open is shown again
 * (and reloaded if it failed or was cancelled); a local folder opens as a
 * trend of its runs (ps_window_open_trend ()). */
void       ps_window_open_file        (PsWindow      *self,
                                       GFile         *file);
/* Compares two runs in a tab of their own: --compare A B, two files
 * dropped at once, and Compare With… all end here. Each run loads as an
 * opened file does. */
PsComparePage *ps_window_compare_files (PsWindow     *self,
                                        GFile        *file_a,
                                        GFile        *file_b);
/* The same, each side one session (0-based) of its file or the whole
 * file (−1): two sessions of an appended CE log across a change point */
PsComparePage *ps_window_compare_sessions (PsWindow  *self,
                                           GFile     *file_a,
                                           int        session_a,
                                           GFile     *file_b,
                                           int        session_b);
/* Two files given together: two dropped at once, --compare A B, a recent
 * comparison, Compare With…. Runs of one kind (as their formats tell:
 * CE logs, RTL logs, profiler reports, sampled profiles, counter logs;
 * a saved run goes with any) are compared (ps_window_compare_files ());
 * runs of two kinds open as two tabs, under a banner that says so and,
 * when they have something to compare, offers to compare them anyway.
 * The formats of local files are read at once; of others in a thread,
 * and the tabs come a moment later. */
void           ps_window_open_pair     (PsWindow     *self,
                                        GFile        *file_a,
                                        GFile        *file_b);
/* A trend of the runs of files and folders in a tab of its own: Open
 * Trend… and --trend. A point of it opens its run here (a session of a
 * log shown in the log's tab), a change point the comparison of the runs
 * on each side, sessions of a log as sessions (ps_window_compare_sessions ()). The same files and folders
 * again, in any order, show the tab they have. */
PsTrendPage   *ps_window_open_trend    (PsWindow      *self,
                                        GFile * const *files,
                                        guint          n_files);
/* How many tabs hold a recording only in memory (going on, or stopped and
 * not saved): closing the window asks first */
guint          ps_window_get_n_unsaved_recordings (PsWindow *self);
/* New Recording: the dialog of the loaded collectors, over the window */
GtkWidget *ps_window_show_record_dialog (PsWindow    *self);
/* A started collector's run in a tab of its own, drawn as it grows; once
 * stopped, the tab becomes the run's (ps_run_page_new_for_store) */
PsRecordPage *ps_window_add_recording (PsWindow      *self,
                                       PsCollector   *collector,
                                       PsEventStore  *store,
                                       const char    *title);
/* The current tab when it shows one run, else NULL */
PsRunPage *ps_window_get_current_page (PsWindow      *self);
guint      ps_window_get_n_pages      (PsWindow      *self);
/* NULL when that tab is a comparison */
PsRunPage *ps_window_get_page         (PsWindow      *self,
                                       guint          index);
void       ps_window_close_page       (PsWindow      *self,
                                       PsRunPage     *page);

/* A toast that says file was saved (or exported) there, with a button
 * that shows its folder; views ask for it with ps_view_announce_saved () */
void       ps_window_show_saved       (PsWindow      *self,
                                       GFile         *file);

/* Keeps the window's size and maximized state for the next window; done
 * on close and on Quit */
void       ps_window_save_state       (PsWindow      *self);

G_END_DECLS
