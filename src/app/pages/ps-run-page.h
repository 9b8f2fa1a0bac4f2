/* ps-run-page.h — one run in a tab: loading, errors and the run's views
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

typedef enum
{
  PS_RUN_PAGE_EMPTY,      /* nothing loaded yet */
  PS_RUN_PAGE_LOADING,    /* reading the file, then computing statistics */
  PS_RUN_PAGE_LOADED,     /* the whole file was read */
  PS_RUN_PAGE_PARTIAL,    /* reading stopped after some data: banner + data */
  PS_RUN_PAGE_FAILED,     /* nothing could be read */
  PS_RUN_PAGE_CANCELLED,  /* the user cancelled loading */
} PsRunPageState;

#define PS_TYPE_RUN_PAGE_STATE (ps_run_page_state_get_type ())
GType ps_run_page_state_get_type (void) G_GNUC_CONST;

#define PS_TYPE_RUN_PAGE (ps_run_page_get_type ())
G_DECLARE_FINAL_TYPE (PsRunPage, ps_run_page, PS, RUN_PAGE, GtkWidget)

GtkWidget      *ps_run_page_new        (GFile        *file);
/* A run that has no file (a recording): shown at once under title */
GtkWidget      *ps_run_page_new_for_store (const char   *title,
                                           PsEventStore *store);
/* A run without a file (a recording) was saved as file: it is that
 * file's run from now on (title, reload, comparisons) */
void            ps_run_page_set_saved_file (PsRunPage *self,
                                            GFile     *file);
/* NULL for a run that has no file */
GFile          *ps_run_page_get_file   (PsRunPage    *self);
/* The file's display name, for the tab */
const char     *ps_run_page_get_title  (PsRunPage    *self);
PsRunPageState  ps_run_page_get_state  (PsRunPage    *self);
/* The loaded store, or NULL */
PsEventStore   *ps_run_page_get_store  (PsRunPage    *self);
/* (Re)load the file from the start */
void            ps_run_page_load       (PsRunPage    *self);
void            ps_run_page_cancel     (PsRunPage    *self);
/* Reload the file with its text read in a code page ("WINDOWS-1251"), or
 * NULL or "" to guess it again (PDH logs, docs/cli.md "Counter logs") */
void            ps_run_page_reload_with_encoding (PsRunPage  *self,
                                                  const char *encoding);
/* The code page asked for, or NULL */
const char     *ps_run_page_get_encoding (PsRunPage *self);
/* F9: the side pane of the run's view (the counter tree, the list of
 * threads), shown or hidden; views without one ignore it */
void            ps_run_page_toggle_side_pane (PsRunPage *self);
/* Show a store that is already loaded (e.g. by a test or live collection) */
void            ps_run_page_show_store (PsRunPage    *self,
                                        PsEventStore *store);

/* Two runs compared: with shared, the charts of a that chart the same
 * values as charts of b (the same name, group and unit: a timeline's
 * counters, CE markers' durations, CPU and memory, samples per second)
 * span the union of both charts' ranges, kept up to date as either run
 * (re)loads or charts other counters, so that the same height is the
 * same value in both; charts without a counterpart keep their own
 * scale. Without shared, each chart spans its own values again. A run
 * shares with one other run at a time: sharing with another ends the
 * former sharing. */
void            ps_run_page_set_shared_value_scale (PsRunPage *a,
                                                    PsRunPage *b,
                                                    gboolean   shared);
/* Whether the run is loaded and its timeline is over time: FALSE for runs
 * whose measurements have no timestamps (CE, over their sequence), runs
 * without a timeline (reports, aggregated samples) and runs not read yet.
 * Two runs' visible ranges are in the same unit only when both have it. */
gboolean        ps_run_page_has_time_axis (PsRunPage *self);
/* Whether the run shares its charts' scales with another run */
gboolean        ps_run_page_get_shared_value_scale (PsRunPage *self);

G_END_DECLS
