/* test-profile-view.c — the view of sampled runs (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run built here through PsStoreBuilder, two events and two processes:
 *
 *   CLOCK.HARD   alpha (100): thread 101 "main"  main→compute  6 user   0–5 ms
 *                                                main→syscall  2 kernel 6–7 ms
 *                             thread 102 "worker" worker→compute 3 user 10–12 ms
 *                beta (200):  thread 201          main→libc.so.7+0x4000
 *                                                              4 user  20–23 ms
 *   INST_RETIRED alpha, thread 101:               main→compute  5 user  1–5 ms
 *
 * the pmcstat -G text of tests/data/pmcstat-callgraph and a small hwpmc
 * log made by tests/pmclog-writer.c, through the real loader. Checks what the user sees: the event chooser, the totals, the
 * process list, the call tree under every choice, the data-quality page
 * and the reload with a symbol folder.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "pmclog-writer.h"
#include "ps-application.h"
#include "ps-call-tree-view-private.h"
#include "ps-format.h"
#include "ps-profile-track-row.h"
#include "ps-profile-view-private.h"
#include "ps-run-page-private.h"
#include "ps-store-builder.h"
#include "ps-util.h"
#include "ps-warning-row.h"
#include "ps-window-private.h"

#define MS G_GINT64_CONSTANT (1000000)

/* The run described at the top */

typedef struct
{
  PsEventStore   *store;
  PsStoreBuilder *builder;
  guint32         frames[8];
} Builder;

static guint32
add_track (PsEventStore *store,
           PsTrackKind   kind,
           const char   *name,
           gint64        number,
           guint32       parent)
{
  PsTrack track = { 0 };

  track.kind = kind;
  track.name = ps_event_store_intern (store, name, -1);
  track.number = number;
  track.parent = parent;
  return ps_event_store_add_track (store, &track);
}

static guint32
add_frame (PsEventStore *store,
           const char   *function,
           const char   *module,
           guint64       address)
{
  return ps_event_store_intern_frame (store, ps_event_store_intern (store, function, -1),
                                      ps_event_store_intern (store, module, -1), address);
}

/* Stack from the outermost caller to the sampled function */
static guint32
make_stack (PsEventStore *store,
            guint32       outer,
            guint32       inner)
{
  return ps_event_store_intern_stack (store, ps_event_store_intern_stack (store, 0, outer), inner);
}

static void
add_samples (PsStoreBuilder *builder,
             guint32         track,
             guint32         stack,
             guint16         source,
             guint16         flags,
             gint64          first_ms,
             guint           n)
{
  for (guint i = 0; i < n; i++)
    {
      PsSample sample = { 0 };

      sample.time_ns = (first_ms + i) * MS;
      sample.track = track;
      sample.stack = stack;
      sample.weight = 1;
      sample.flags = flags;
      sample.source = source;
      ps_store_builder_add_sample (builder, &sample);
    }
}

static PsEventStore *
build_store (void)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 session = ps_event_store_add_session (store, 1, FALSE);
  guint32 alpha, main_thread, worker, beta, beta_thread;
  guint32 main_frame, compute, syscall, worker_frame, read_frame;
  guint16 clock, instructions;

  ps_event_store_set_format (store, "hwpmc-pmclog");
  clock = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "CLOCK.HARD", -1), 0);
  instructions = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "INST_RETIRED", -1), 65536);

  alpha = add_track (store, PS_TRACK_PROCESS, "alpha", 100, PS_NONE);
  main_thread = add_track (store, PS_TRACK_THREAD, "main", 101, alpha);
  worker = add_track (store, PS_TRACK_THREAD, "worker", 102, alpha);
  beta = add_track (store, PS_TRACK_PROCESS, "beta", 200, PS_NONE);
  beta_thread = add_track (store, PS_TRACK_THREAD, "", 201, beta);

  main_frame = add_frame (store, "main", "/usr/bin/alpha", 0x1000);
  compute = add_frame (store, "compute", "/usr/bin/alpha", 0x2000);
  syscall = add_frame (store, "syscall", "/boot/kernel/kernel", 0xffff0000);
  worker_frame = add_frame (store, "worker", "/usr/bin/alpha", 0x3000);
  /* libc has no symbols: an offset in it */
  read_frame = ps_event_store_intern_frame (store, 0, ps_event_store_intern (store, "/lib/libc.so.7", -1), 0x4000);

  add_samples (builder, main_thread, make_stack (store, main_frame, compute), clock, PS_SAMPLE_FLAG_NONE, 0, 6);
  add_samples (builder, main_thread, make_stack (store, main_frame, syscall), clock, PS_SAMPLE_FLAG_KERNEL, 6, 2);
  add_samples (builder, worker, make_stack (store, worker_frame, compute), clock, PS_SAMPLE_FLAG_NONE, 10, 3);
  add_samples (builder, beta_thread, make_stack (store, main_frame, read_frame), clock, PS_SAMPLE_FLAG_NONE, 20, 4);
  add_samples (builder, main_thread, make_stack (store, main_frame, compute), instructions, PS_SAMPLE_FLAG_NONE, 1, 5);

  ps_event_store_set_metadata (store, session, "samples", "20");
  ps_event_store_set_metadata (store, session, "samples_with_unresolved_frames", "4");
  ps_store_builder_warn (builder, PS_SEVERITY_WARNING, "W-PMCLOG-NO-SYMBOLS", &(PsWarningPlace) { 0, PS_NO_POSITION, session },
                         "No function names for /lib/libc.so.7 (not found under the sysroot): 4 samples (20.0 %%) have frames in it");
  ps_store_builder_warn (builder, PS_SEVERITY_WARNING, "W-PMCLOG-DROPPED", &(PsWarningPlace) { 0, PS_NO_POSITION, session },
                         "The kernel dropped samples 3 times: its buffers were full, so at least that many samples are missing");
  ps_store_builder_flush (builder);
  g_assert_cmpuint (beta_thread, ==, 4);
  return store;
}

/* Waiting */

static gboolean
view_is_ready (gpointer data)
{
  PsProfileView *view = data;

  return !ps_run_view_is_busy (PS_RUN_VIEW (view))
         && ps_call_tree_view_get_tree (ps_run_view_get_call_tree_view (PS_RUN_VIEW (view))) != NULL;
}

static void
wait_for_view (PsProfileView *view)
{
  iterate_for (20);
  g_assert_true (iterate_until (view_is_ready, view));
}

static PsProfileView *
show_built_store (Fixture    *fixture,
                  PsRunPage **page_out)
{
  g_autoptr(PsEventStore) store = build_store ();
  g_autoptr(GFile) file = write_temp_file (fixture, "built.pmclog", "", 0);
  PsRunPage *page = PS_RUN_PAGE (ps_run_page_new (file));
  PsProfileView *view;

  _ps_window_add_tab (fixture->window, GTK_WIDGET (page), "built", NULL);
  ps_run_page_show_store (page, store);
  wait_for_page (page);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);

  view = ps_run_page_get_profile_view (page);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  wait_for_view (view);
  if (page_out != NULL)
    *page_out = page;
  return view;
}

/* The samples the call tree counts */
static double
tree_total (PsProfileView *view)
{
  wait_for_view (view);
  return ps_call_tree_get_elapsed_total (ps_call_tree_view_get_tree (ps_run_view_get_call_tree_view (PS_RUN_VIEW (view))));
}

static char *
dropdown_item (GtkDropDown *dropdown,
               guint        position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (dropdown), position);

  return g_strdup (gtk_string_object_get_string (item));
}

/* The row of the process list with that label, and its position */
static PsProfileTrackRow *
find_row (PsProfileView *view,
          const char    *label,
          guint         *position)
{
  GListModel *model = G_LIST_MODEL (ps_profile_view_get_track_selection (view));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);
      g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (tree_row);

      if (g_str_equal (ps_profile_track_row_get_label (row), label))
        {
          if (position != NULL)
            *position = i;
          return row;
        }
    }
  g_assert_not_reached ();
}

/* Tests */

/* The page is ready once the view has the call tree of the chosen event;
 * while it is computed, the view says so and counts no samples yet,
 * rather than that the run has none */
static void
test_computing (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(PsEventStore) store = build_store ();
  g_autoptr(GFile) file = write_temp_file (fixture, "built.pmclog", "", 0);
  PsRunPage *page = PS_RUN_PAGE (ps_run_page_new (file));
  g_autoptr(PsRunAnalysis) analysis = NULL;
  PsCallTreeView *call_tree_view;
  PsProfileView *view;

  _ps_window_add_tab (fixture->window, GTK_WIDGET (page), "built", NULL);
  ps_run_page_show_store (page, store);
  g_assert_true (iterate_until ((gboolean (*) (gpointer))ps_run_page_is_ready, page));
  view = ps_run_page_get_profile_view (page);
  call_tree_view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (view));
  g_assert_false (ps_run_view_is_busy (PS_RUN_VIEW (view)));
  g_assert_nonnull (ps_call_tree_view_get_tree (call_tree_view));
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "15 samples");

  /* A new analysis: the build runs in a worker, its result comes through
   * the main loop */
  analysis = ps_run_analysis_new (store);
  ps_profile_view_set_analysis (view, analysis);
  g_assert_true (ps_run_view_is_busy (PS_RUN_VIEW (view)));
  g_assert_null (ps_call_tree_view_get_tree (call_tree_view));
  g_assert_cmpstr (ps_call_tree_view_get_empty_text (call_tree_view), ==, "Computing the call tree…");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "–");
  /* Nothing moves meanwhile (an animation redraws the whole window) */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view->spinner)));

  wait_for_view (view);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "15 samples");
  g_assert_cmpfloat (tree_total (view), ==, 15);

  /* Another event: its tree replaces the one shown, which stays until
   * then, beside a spinner */
  gtk_drop_down_set_selected (ps_profile_view_get_source_dropdown (view), 1);
  g_assert_true (ps_run_view_is_busy (PS_RUN_VIEW (view)));
  g_assert_nonnull (ps_call_tree_view_get_tree (call_tree_view));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view->spinner)));
  g_assert_cmpfloat (tree_total (view), ==, 5);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view->spinner)));
}

static void
test_sources (Fixture       *fixture,
              gconstpointer  data)
{
  PsProfileView *view = show_built_store (fixture, NULL);
  GtkDropDown *dropdown = ps_profile_view_get_source_dropdown (view);
  g_autofree char *first = dropdown_item (dropdown, 0);
  g_autofree char *second = dropdown_item (dropdown, 1);
  g_autofree char *all = dropdown_item (dropdown, 2);

  /* Both events with their samples, then all of them; the one with the
   * most samples is chosen */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 3);
  g_assert_cmpstr (first, ==, "CLOCK.HARD — 15 samples");
  g_assert_cmpstr (second, ==, "INST_RETIRED — 5 samples");
  g_assert_cmpstr (all, ==, "All events");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);

  /* 2 of 15 samples in kernel mode */
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "15 samples");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, "13.33 %");
  g_assert_cmpfloat (tree_total (view), ==, 15);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "range"), ==, "All processes and threads, the whole run");

  /* The other event: its own samples, none in the kernel */
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpfloat (tree_total (view), ==, 5);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "5 samples");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, "0.00 %");
  g_assert_cmpuint (ps_profile_track_row_get_samples (find_row (view, "alpha (100)", NULL)), ==, 5);
  g_assert_cmpuint (ps_profile_track_row_get_samples (find_row (view, "beta (200)", NULL)), ==, 0);

  /* All events add up */
  gtk_drop_down_set_selected (dropdown, 2);
  g_assert_cmpfloat (tree_total (view), ==, 20);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "20 samples");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, "10.00 %");

  maybe_save_screenshot (fixture, "profile-built");
}

static void
test_tracks (Fixture       *fixture,
             gconstpointer  data)
{
  PsProfileView *view = show_built_store (fixture, NULL);
  GtkSelectionModel *selection = ps_profile_view_get_track_selection (view);
  GtkDropDown *dropdown = ps_profile_view_get_source_dropdown (view);
  const char *expected[][3] = {
    { "alpha (100)", "11", "73.33" },
    { "Thread 101 (main)", "8", "53.33" },
    { "Thread 102 (worker)", "3", "20.00" },
    { "beta (200)", "4", "26.67" },
    { "Thread 201", "4", "26.67" },
  };
  PsProfileTrackRow *row;
  guint position;

  /* Processes with their threads open below them, most samples first */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (selection), i);
      g_autoptr(PsProfileTrackRow) item = gtk_tree_list_row_get_item (tree_row);

      g_assert_cmpstr (ps_profile_track_row_get_label (item), ==, expected[i][0]);
      g_assert_cmpstr (ps_profile_track_row_get_samples_text (item), ==, expected[i][1]);
      g_assert_cmpstr (ps_profile_track_row_get_percent_text (item), ==, expected[i][2]);
      g_assert_cmpuint (gtk_tree_list_row_get_depth (tree_row), ==, ps_profile_track_row_is_process (item) ? 0 : 1);
    }

  /* One thread: its samples alone */
  row = find_row (view, "Thread 102 (worker)", &position);
  gtk_selection_model_select_item (selection, position, TRUE);
  g_assert_cmpfloat (tree_total (view), ==, 3);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "3 samples");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "range"), ==, "1 selected process or thread, the whole run");
  {
    PsCallTree *tree = ps_call_tree_view_get_tree (ps_run_view_get_call_tree_view (PS_RUN_VIEW (view)));

    g_assert_cmpuint (ps_call_tree_lookup_function (tree, "worker"), !=, PS_NONE);
    g_assert_cmpuint (ps_call_tree_lookup_function (tree, "read"), ==, PS_NONE);
  }
  maybe_save_screenshot (fixture, "profile-thread");

  /* A process: all its threads */
  find_row (view, "beta (200)", &position);
  gtk_selection_model_select_item (selection, position, TRUE);
  g_assert_cmpfloat (tree_total (view), ==, 4);

  /* Both: they add up */
  find_row (view, "Thread 102 (worker)", &position);
  gtk_selection_model_select_item (selection, position, FALSE);
  g_assert_cmpfloat (tree_total (view), ==, 7);

  /* The selection stays while the event changes; the counts follow it */
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpfloat (tree_total (view), ==, 0);
  g_assert_cmpuint (ps_profile_track_row_get_samples (row), ==, 0);
  g_assert_cmpuint (ps_profile_track_row_get_samples (find_row (view, "Thread 101 (main)", NULL)), ==, 5);
  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_cmpfloat (tree_total (view), ==, 7);
  find_row (view, "Thread 102 (worker)", &position);
  g_assert_true (gtk_selection_model_is_selected (selection, position));
  find_row (view, "beta (200)", &position);
  g_assert_true (gtk_selection_model_is_selected (selection, position));
  find_row (view, "alpha (100)", &position);
  g_assert_false (gtk_selection_model_is_selected (selection, position));

  /* Show all */
  ps_profile_view_show_all_tracks (view);
  g_assert_cmpfloat (tree_total (view), ==, 15);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "15 samples");
}

static void
test_time_range (Fixture       *fixture,
                 gconstpointer  data)
{
  PsRunPage *page;
  PsProfileView *view = show_built_store (fixture, &page);
  PsSession *session = ps_run_view_get_session (PS_RUN_VIEW (view));

  g_assert_nonnull (session);
  g_assert_true (session == ps_run_page_get_session (page));

  /* 0–6 ms: the six user samples of main */
  ps_session_set_selection (session, 0, 6 * MS);
  g_assert_cmpfloat (tree_total (view), ==, 6);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, "0.00 %");
  g_assert_cmpuint (ps_profile_track_row_get_samples (find_row (view, "alpha (100)", NULL)), ==, 6);
  g_assert_cmpuint (ps_profile_track_row_get_samples (find_row (view, "beta (200)", NULL)), ==, 0);
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "range"), "samples from 0 s to 6.000 ms"));

  /* 5–22 ms: one of main, its two kernel samples, worker's three, two of beta */
  ps_session_set_selection (session, 5 * MS, 22 * MS);
  g_assert_cmpfloat (tree_total (view), ==, 8);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, "25.00 %");
  /* Data Quality says what the header counts of the run's 20 samples */
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "quality"),
                            "The header and the call tree count the 8 samples of CLOCK.HARD, in the time range selected on the timeline, 25.00 % of them with frames without a function name; the line above and the warnings below count all 20 samples of the run."));

  /* A selected process stays selected when the counts reorder the list */
  {
    GtkSelectionModel *selection = ps_profile_view_get_track_selection (view);
    guint position;

    ps_session_clear_selection (session);
    g_assert_cmpfloat (tree_total (view), ==, 15);
    find_row (view, "beta (200)", &position);
    g_assert_cmpuint (position, ==, 3);
    gtk_selection_model_select_item (selection, position, TRUE);
    g_assert_cmpfloat (tree_total (view), ==, 4);

    ps_session_set_selection (session, 20 * MS, 30 * MS);
    g_assert_cmpfloat (tree_total (view), ==, 4);
    find_row (view, "beta (200)", &position);
    g_assert_cmpuint (position, ==, 0);
    g_assert_true (gtk_selection_model_is_selected (selection, position));
    {
      g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (selection);

      g_assert_cmpuint (gtk_bitset_get_size (selected), ==, 1);
    }
  }

  ps_session_clear_selection (session);
  g_assert_cmpfloat (tree_total (view), ==, 4);
  ps_profile_view_show_all_tracks (view);
  g_assert_cmpfloat (tree_total (view), ==, 15);
}

static void
test_warnings (Fixture       *fixture,
               gconstpointer  data)
{
  PsRunPage *page;
  PsProfileView *view = show_built_store (fixture, &page);
  GListModel *warnings = ps_run_view_get_warning_model (PS_RUN_VIEW (view));
  g_autoptr(PsWarningRow) first = NULL;
  g_autoptr(PsWarningRow) second = NULL;
  const char *quality = ps_run_view_get_header_value (PS_RUN_VIEW (view), "quality");

  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (view)), ==, "calltree");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "run.show-warnings", NULL));
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (view)), ==, "warnings");

  g_assert_cmpuint (g_list_model_get_n_items (warnings), ==, 2);
  first = g_list_model_get_item (warnings, 0);
  second = g_list_model_get_item (warnings, 1);
  g_assert_cmpstr (ps_warning_row_get_code (first), ==, "W-PMCLOG-NO-SYMBOLS");
  g_assert_nonnull (strstr (ps_warning_row_get_message (first), "/lib/libc.so.7"));
  g_assert_cmpstr (ps_warning_row_get_code (second), ==, "W-PMCLOG-DROPPED");

  /* The summary: the module without symbols and its samples, the loss */
  g_assert_nonnull (strstr (quality, "1 module has no symbols. 4 of the run’s 20 samples (20.00 %) have frames without a function name"));
  /* The header counts one event of two: the summary says so */
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "15 samples");
  g_assert_nonnull (strstr (quality, "The header and the call tree count the 15 samples of CLOCK.HARD, 26.67 % of them with frames without a function name; the line above and the warnings below count all 20 samples of the run."));
  g_assert_nonnull (strstr (quality, "Samples were lost"));
  g_assert_null (strstr (quality, "outside every known mapping"));

  maybe_save_screenshot (fixture, "profile-warnings");
}

static PsProfileView *
open_pmcstat (Fixture    *fixture,
              GFile      *file,
              PsRunPage **page_out)
{
  PsRunPage *page = open_and_wait (fixture, file);
  PsProfileView *view = ps_run_page_get_profile_view (page);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_ce_view (page))));
  wait_for_view (view);
  if (page_out != NULL)
    *page_out = page;
  return view;
}

/* A count as the window writes it in the tests' C locale: digits in
 * threes with commas, "262,077" */
static char *
grouped (guint64 count)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  GString *text = g_string_new (NULL);
  gsize length = strlen (digits);

  for (gsize i = 0; i < length; i++)
    {
      if (i > 0 && (length - i) % 3 == 0)
        g_string_append_c (text, ',');
      g_string_append_c (text, digits[i]);
    }
  return g_string_free (text, FALSE);
}

static void
test_pmcstat (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph", "simple.txt", NULL);
  g_autoptr(GFile) file = NULL;
  PsRunPage *page;
  PsProfileView *view;
  PsEventStore *store;
  GtkDropDown *dropdown;
  guint64 n_samples = 0, n_kernel = 0;
  g_autofree char *item = NULL;
  g_autofree char *expected_item = NULL;
  g_autofree char *expected_samples = NULL;
  g_autofree char *expected_kernel = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS) || ps_format_lookup ("pmcstat-callgraph") == NULL)
    {
      g_test_skip ("no pmcstat -G reader or test data");
      return;
    }

  file = g_file_new_for_path (path);
  view = open_pmcstat (fixture, file, &page);
  store = ps_run_page_get_store (page);
  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);

      n_samples += sample->weight;
      if (sample->flags & PS_SAMPLE_FLAG_KERNEL)
        n_kernel += sample->weight;
    }
  g_assert_cmpuint (n_samples, >, 0);

  /* One event: no "All events" */
  dropdown = ps_profile_view_get_source_dropdown (view);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 1);
  item = dropdown_item (dropdown, 0);
  {
    g_autofree char *count = grouped (n_samples);

    expected_item = g_strdup_printf ("CLOCK.HARD — %s samples", count);
    expected_samples = g_strdup_printf ("%s samples", count);
  }
  g_assert_cmpstr (item, ==, expected_item);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, expected_samples);
  expected_kernel = g_strdup_printf ("%.2f %%", 100.0 * n_kernel / n_samples);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, expected_kernel);
  g_assert_cmpfloat (tree_total (view), ==, n_samples);
  {
    PsCallTree *tree = ps_call_tree_view_get_tree (ps_run_view_get_call_tree_view (PS_RUN_VIEW (view)));
    guint32 function = ps_call_tree_lookup_function (tree, "acpi_cpu_c1");

    /* The flat profile: the sampled function's own samples */
    g_assert_cmpuint (function, !=, PS_NONE);
    g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, function)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], ==, 260401);
  }

  /* pmcstat -G names no processes: no list, and no timeline of untimed samples */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (ps_profile_view_get_track_selection (view))), ==, 0);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "range"), ==, "All samples, the whole run");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "symbols"), ==, "No symbol folder");

  /* The file's header counts more than its graph lists: Data Quality says
   * which the views count */
  {
    g_autofree char *declared = grouped (302186);
    g_autofree char *listed = grouped (n_samples);
    g_autofree char *expected_quality = g_strdup_printf ("The file’s header counts %s samples; its call graph lists %s of them (%.2f %%), and those are what Perfscope counts.",
                                                         declared, listed, 100.0 * n_samples / 302186);

    g_assert_cmpuint (n_samples, ==, 262077);
    g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "quality"), expected_quality));
  }

  maybe_save_screenshot (fixture, "profile-pmcstat");
}

/* dd.txt: four blocks of two events, one named in bytes that are not
 * text; functions without symbols printed as addresses */
static void
test_pmcstat_events (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph", "dd.txt", NULL);
  g_autoptr(GFile) file = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *all = NULL;
  PsProfileView *view;
  GtkDropDown *dropdown;

  if (!g_file_test (path, G_FILE_TEST_EXISTS) || ps_format_lookup ("pmcstat-callgraph") == NULL)
    {
      g_test_skip ("no pmcstat -G reader or test data");
      return;
    }

  file = g_file_new_for_path (path);
  view = open_pmcstat (fixture, file, NULL);
  dropdown = ps_profile_view_get_source_dropdown (view);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 3);
  first = dropdown_item (dropdown, 0);
  second = dropdown_item (dropdown, 1);
  all = dropdown_item (dropdown, 2);
  g_assert_cmpstr (first, ==, "CLOCK.HARD — 254 samples");
  g_assert_true (g_str_has_suffix (second, " — 66 samples"));
  g_assert_null (strchr (second, '\003'));
  g_assert_cmpstr (all, ==, "All events");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "254 samples");
  g_assert_cmpfloat (tree_total (view), ==, 254);

  gtk_drop_down_set_selected (dropdown, 2);
  g_assert_cmpfloat (tree_total (view), ==, 320);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "320 samples");

  /* The modules whose functions are only addresses */
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "quality"), "no symbols for"));
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "quality"), "/bin/dd"));
}

static gboolean
page_reloaded (gpointer data)
{
  gpointer *state = data;
  PsRunPage *page = state[0];
  PsEventStore *store = ps_run_page_get_store (page);

  return store != NULL && store != state[1] && ps_run_page_get_state (page) == PS_RUN_PAGE_LOADED;
}

static void
test_symbol_folder (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph", "simple.txt", NULL);
  g_autofree char *ce_path = g_test_build_filename (G_TEST_DIST, "data", "ce", "fsperf_CEPC_x86_6_0_3122.log", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *display = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) other_file = NULL;
  PsRunPage *page;
  PsRunPage *other_page;
  PsProfileView *view;
  PsEventStore *before;
  PsEventStore *other_before;
  gpointer state[2];

  if (!g_file_get_contents (path, &contents, NULL, NULL) || ps_format_lookup ("pmcstat-callgraph") == NULL)
    {
      g_test_skip ("no pmcstat -G reader or test data");
      return;
    }

  /* A sampled run and one that is not */
  file = write_temp_file (fixture, "run.txt", contents, -1);
  other_file = g_file_new_for_path (ce_path);
  other_page = open_and_wait (fixture, other_file);
  other_before = ps_run_page_get_store (other_page);
  g_assert_nonnull (other_before);
  view = open_pmcstat (fixture, file, &page);
  before = ps_run_page_get_store (page);
  g_assert_null (ps_application_get_symbol_folder (fixture->app));

  /* The application's folder: the sampled run is read again with it */
  ps_application_set_symbol_folder (fixture->app, fixture->tmpdir);
  g_assert_cmpstr (ps_application_get_symbol_folder (fixture->app), ==, fixture->tmpdir);
  state[0] = page;
  state[1] = before;
  g_assert_true (iterate_until (page_reloaded, state));
  wait_for_view (view);
  g_assert_cmpstr (ps_profile_view_get_symbol_folder (view), ==, fixture->tmpdir);
  display = g_filename_display_name (fixture->tmpdir);
  expected = g_strdup_printf ("Symbols from %s", display);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "symbols"), ==, expected);
  g_assert_true (ps_run_page_get_store (other_page) == other_before);

  /* The same folder again reloads nothing */
  before = ps_run_page_get_store (page);
  ps_application_set_symbol_folder (fixture->app, fixture->tmpdir);
  iterate_for (100);
  g_assert_true (ps_run_page_get_store (page) == before);

  /* Runs opened later are read with it */
  {
    g_autoptr(GFile) later_file = write_temp_file (fixture, "later.txt", contents, -1);
    PsProfileView *later_view = open_pmcstat (fixture, later_file, NULL);

    g_assert_cmpstr (ps_profile_view_get_symbol_folder (later_view), ==, fixture->tmpdir);
    g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (later_view), "symbols"), ==, expected);
  }

  /* Back to none */
  ps_application_set_symbol_folder (fixture->app, NULL);
  state[1] = before;
  g_assert_true (iterate_until (page_reloaded, state));
  wait_for_view (view);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "symbols"), ==, "No symbol folder");
}

/* An hwpmc log is read again with the folder: the loader passed it on */
static void
test_hwpmc_sysroot (Fixture       *fixture,
                    gconstpointer  data)
{
  const guint64 tsc0 = 1000000;
  const guint32 clock_pmc = 0x00010100u;
  guint64 pcs[2] = { 0x1000, 0x2000 };
  PsPmclogWriter *writer;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GFile) file = NULL;
  PsRunPage *page;
  PsProfileView *view;
  PsEventStore *before;
  gpointer state[2];

  if (ps_format_lookup ("hwpmc-pmclog") == NULL)
    {
      g_test_skip ("no hwpmc reader");
      return;
    }

  writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000u);
  ps_pmclog_writer_initialize (writer, tsc0, 0x80, G_GUINT64_CONSTANT (2000000000), 1700000000, 0,
                               "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, tsc0, clock_pmc, 0x1000, 0x80, 0, "CLOCK.HARD");
  for (guint i = 0; i < 10; i++)
    ps_pmclog_writer_callchain (writer, tsc0 + i * 100, 5, 500, clock_pmc, PS_PMCLOG_CC_USER, pcs, 2);
  ps_pmclog_writer_closelog (writer, tsc0 + 2000);
  bytes = ps_pmclog_writer_free_to_bytes (writer);
  file = write_temp_file (fixture, "run.pmclog", g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  page = open_and_wait (fixture, file);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  view = ps_run_page_get_profile_view (page);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  wait_for_view (view);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "10 samples");
  before = ps_run_page_get_store (page);
  g_assert_null (ps_event_store_get_metadata (before, 0, "sysroot"));

  ps_application_set_symbol_folder (fixture->app, fixture->tmpdir);
  state[0] = page;
  state[1] = before;
  g_assert_true (iterate_until (page_reloaded, state));
  wait_for_view (view);
  g_assert_cmpstr (ps_event_store_get_metadata (ps_run_page_get_store (page), 0, "sysroot"), ==, fixture->tmpdir);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "10 samples");

  maybe_save_screenshot (fixture, "profile-hwpmc");
}

/* An hwpmc log without symbols: a program, libc and the kernel mapped;
 * six user samples in libc (four addresses) called from the program, two
 * kernel samples over the program, one sample without a call stack; a
 * millisecond apart from 1.3 ms on */
#define UNNAMED_TSC_HZ  G_GUINT64_CONSTANT (2000000000)
#define UNNAMED_APP     G_GUINT64_CONSTANT (0x400000)
#define UNNAMED_LIBC    G_GUINT64_CONSTANT (0x800600000)
#define UNNAMED_KERNEL  G_GUINT64_CONSTANT (0xffffffff80200000)

static GFile *
write_unnamed_log (Fixture *fixture)
{
  const guint64 tsc0 = 1000000;
  const guint32 clock_pmc = 0x00010100u;
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000u);
  g_autoptr(GBytes) bytes = NULL;
  /* Off the whole milliseconds, where the timeline's grid lines are */
  guint64 tsc = tsc0 + UNNAMED_TSC_HZ / 1000 + UNNAMED_TSC_HZ / 10000 * 3;

  ps_pmclog_writer_initialize (writer, tsc0, 0x80, UNNAMED_TSC_HZ, 1700000000, 0, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, tsc0, clock_pmc, 0x1000, 0x80, 0, "CLOCK.HARD");
  ps_pmclog_writer_map_in (writer, tsc0, PS_PMCLOG_KERNEL_PID, UNNAMED_KERNEL, "/boot/kernel/kernel");
  ps_pmclog_writer_proc_create (writer, tsc0, 5, 0, "app");
  ps_pmclog_writer_thr_create (writer, tsc0, 500, 5, 0, "main");
  ps_pmclog_writer_procexec (writer, tsc0, 5, 0xFFFFFFFF, 0, 0, "/usr/bin/app");
  ps_pmclog_writer_map_in (writer, tsc0, 5, UNNAMED_APP, "/usr/bin/app");
  ps_pmclog_writer_map_in (writer, tsc0, 5, UNNAMED_LIBC, "/lib/libc.so.7");
  for (guint i = 0; i < 6; i++, tsc += UNNAMED_TSC_HZ / 1000)
    {
      guint64 pcs[3] = { UNNAMED_LIBC + 0x100 + 0x10 * (i % 3), UNNAMED_LIBC + 0x180, UNNAMED_APP + 0x10 };

      ps_pmclog_writer_callchain (writer, tsc, 5, 500, clock_pmc, PS_PMCLOG_CC_USER, pcs, 3);
    }
  for (guint i = 0; i < 2; i++, tsc += UNNAMED_TSC_HZ / 1000)
    {
      guint64 pcs[2] = { UNNAMED_KERNEL + 0x50, UNNAMED_APP + 0x20 };

      ps_pmclog_writer_callchain (writer, tsc, 5, 500, clock_pmc, 0, pcs, 2);
    }
  ps_pmclog_writer_callchain (writer, tsc, 5, 500, clock_pmc, PS_PMCLOG_CC_USER, NULL, 0);
  ps_pmclog_writer_closelog (writer, tsc + UNNAMED_TSC_HZ / 1000);
  bytes = ps_pmclog_writer_free_to_bytes (writer);
  return write_temp_file (fixture, "unnamed.pmclog", g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* The log above, opened, its call tree built; NULL (the test skipped)
 * without an hwpmc reader */
static PsRunPage *
open_unnamed_log (Fixture *fixture)
{
  g_autoptr(GFile) file = NULL;
  PsRunPage *page;

  if (ps_format_lookup ("hwpmc-pmclog") == NULL)
    {
      g_test_skip ("no hwpmc reader");
      return NULL;
    }
  file = write_unnamed_log (fixture);
  page = open_and_wait (fixture, file);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  wait_for_view (ps_run_page_get_profile_view (page));
  return page;
}

/* Data Quality shown while the keyboard focus is in the call tree: the
 * focus goes to the warnings past the summary, which is not selected
 * (GtkStack gave the summary the focus, all its text selected) */
static void
test_quality_focus (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRunPage *page = open_unnamed_log (fixture);
  PsProfileView *view;
  PsCallTreeView *tree_view;
  GtkWidget *focus;
  int start = 0, end = 0;

  if (page == NULL)
    return;
  view = ps_run_page_get_profile_view (page);
  tree_view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (view));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (ps_call_tree_view_get_column_view (tree_view))));
  ps_run_view_show_page (PS_RUN_VIEW (view), "warnings");
  iterate_for (100);

  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_nonnull (focus);
  g_test_message ("focus on a %s", G_OBJECT_TYPE_NAME (focus));
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (view)));
  g_assert_false (GTK_IS_LABEL (focus));
  g_assert_cmpstr (gtk_label_get_text (view->quality_label), !=, "");
  g_assert_false (gtk_label_get_selection_bounds (view->quality_label, &start, &end) && end > start);
}

/* The row of the main table whose function reads name, or NULL */
static GtkTreeListRow *
find_tree_row (PsCallTreeView *tree_view,
               const char     *name)
{
  GListModel *model = ps_call_tree_view_get_model (tree_view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);
      g_autoptr(PsCallNodeRow) row = gtk_tree_list_row_get_item (tree_row);

      if (g_str_equal (ps_call_node_row_get_name (row), name))
        return g_steal_pointer (&tree_row);
    }
  return NULL;
}

static gboolean
search_done (gpointer data)
{
  return !ps_call_tree_view_is_busy (data);
}

/* One row per module with its count of distinct addresses, opening to
 * them; the header, the tree, the functions, the process list and the
 * data-quality summary agree on the samples, and say why where they
 * differ (a sample without a call stack) */
static void
test_unnamed_modules (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GtkTreeListRow) libc_row = NULL;
  PsRunPage *page;
  PsProfileView *view;
  PsCallTreeView *tree_view;
  PsCallTree *tree;
  GListModel *model;
  const char *modules[][2] = { { "libc.so.7 (4 addresses)", "6" }, { "app (2 addresses)", "0" },
                               { "kernel (1 address)", "2" } };
  double exclusive = 0;
  guint position;

  page = open_unnamed_log (fixture);
  if (page == NULL)
    return;
  view = ps_run_page_get_profile_view (page);
  tree_view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (view));
  tree = ps_call_tree_view_get_tree (tree_view);

  /* 9 samples: 8 in the tree, one without a stack; 2 in the kernel */
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "samples"), ==, "9 samples");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "kernel"), ==, "22.22 %");
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 8);
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "range"),
                            "1 of the 9 samples has no call stack; the call tree counts the other 8"));
  g_assert_cmpuint (ps_profile_track_row_get_samples (find_row (view, "app (pid 5)", NULL)), ==, 9);
  g_assert_nonnull (strstr (ps_call_tree_view_get_status (tree_view), "3 modules without names (7 addresses)"));

  /* The functions: a row per module, with their own samples adding up to
   * the tree's total */
  ps_call_tree_view_set_mode (tree_view, "functions");
  model = ps_call_tree_view_get_model (tree_view);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (modules); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = find_tree_row (tree_view, modules[i][0]);
      g_autoptr(PsCallNodeRow) row = NULL;
      g_autofree char *text = NULL;

      g_assert_nonnull (tree_row);
      g_assert_true (gtk_tree_list_row_is_expandable (tree_row));
      row = gtk_tree_list_row_get_item (tree_row);
      text = ps_call_tree_view_get_cell_text (tree_view, row, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE));
      g_assert_cmpstr (text, ==, modules[i][1]);
      exclusive += ps_call_node_row_get_stats (row)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE];
    }
  g_assert_cmpfloat (exclusive, ==, ps_call_tree_get_elapsed_total (tree));

  /* libc opens to its four addresses, whose own samples add up to its */
  libc_row = find_tree_row (tree_view, "libc.so.7 (4 addresses)");
  position = gtk_tree_list_row_get_position (libc_row);
  gtk_tree_list_row_set_expanded (libc_row, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3 + 4);
  {
    const char *names[] = { "libc.so.7+0x100", "libc.so.7+0x110", "libc.so.7+0x120", "libc.so.7+0x180" };
    double address_exclusive = 0;

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autoptr(GtkTreeListRow) tree_row = find_tree_row (tree_view, names[i]);
        g_autoptr(PsCallNodeRow) row = NULL;

        g_assert_nonnull (tree_row);
        g_assert_cmpuint (gtk_tree_list_row_get_depth (tree_row), ==, 1);
        g_assert_cmpuint (gtk_tree_list_row_get_position (tree_row), >, position);
        g_assert_cmpuint (gtk_tree_list_row_get_position (tree_row), <=, position + 4);
        g_assert_false (gtk_tree_list_row_is_expandable (tree_row));
        row = gtk_tree_list_row_get_item (tree_row);
        g_assert_cmpint (ps_call_node_row_get_kind (row), ==, PS_CALL_NODE_ROW_ADDRESS);
        g_assert_cmpstr (ps_call_node_row_get_module (row), ==, "/lib/libc.so.7");
        address_exclusive += ps_call_node_row_get_stats (row)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE];
        /* Each of the three leaves twice; the caller in all six */
        g_assert_cmpfloat (ps_call_node_row_get_stats (row)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, i < 3 ? 2 : 6);
      }
    g_assert_cmpfloat (address_exclusive, ==, 6);
  }
  /* An address selected: callers and callees are its module's */
  {
    g_autoptr(GtkTreeListRow) tree_row = find_tree_row (tree_view, "libc.so.7+0x110");
    GtkSelectionModel *selection = gtk_column_view_get_model (ps_call_tree_view_get_column_view (tree_view));
    GListModel *callers = ps_call_tree_view_get_callers_model (tree_view);
    g_autoptr(PsCallNodeRow) caller = NULL;

    gtk_selection_model_select_item (selection, gtk_tree_list_row_get_position (tree_row), TRUE);
    g_assert_cmpuint (ps_call_tree_view_get_selected_function (tree_view), ==,
                      ps_call_tree_lookup_function (tree, "libc.so.7"));
    g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 1);
    caller = g_list_model_get_item (callers, 0);
    g_assert_cmpstr (ps_call_node_row_get_name (caller), ==, "app");
  }
  maybe_save_screenshot (fixture, "profile-unnamed-modules");

  /* A search for an address finds its module */
  ps_call_tree_view_set_search (tree_view, "0x110");
  g_assert_true (iterate_until (search_done, tree_view));
  g_assert_cmpuint (g_list_model_get_n_items (ps_call_tree_view_get_model (tree_view)), ==, 1);
  {
    g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (ps_call_tree_view_get_model (tree_view), 0);
    g_autoptr(PsCallNodeRow) row = gtk_tree_list_row_get_item (tree_row);

    g_assert_cmpstr (ps_call_node_row_get_name (row), ==, "libc.so.7 (4 addresses)");
  }
  ps_call_tree_view_set_search (tree_view, NULL);
  g_assert_true (iterate_until (search_done, tree_view));

  /* The top-down tree: app → libc (its two frames one call) and app → kernel */
  ps_call_tree_view_set_mode (tree_view, "top-down");
  {
    guint32 app = PS_NONE;

    for (guint i = 0; i < ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT); i++)
      if (g_str_equal (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, i))), "app"))
        app = ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, i);
    g_assert_cmpuint (app, !=, PS_NONE);
    g_assert_cmpuint (ps_call_tree_get_n_children (tree, app), ==, 2);
    for (guint i = 0; i < 2; i++)
      g_assert_cmpuint (ps_call_tree_get_n_children (tree, ps_call_tree_get_child (tree, app, i)), ==, 0);
  }

  /* Data quality: the modules, the share without names, the sample
   * without a stack */
  {
    const char *quality = ps_run_view_get_header_value (PS_RUN_VIEW (view), "quality");

    g_assert_nonnull (strstr (quality, "3 modules have no symbols. 8 of the run’s 9 samples (88.89 %) have frames without a function name"));
    g_assert_nonnull (strstr (quality, "1 of the 9 samples has no call stack; the call tree counts the other 8."));
    g_assert_null (strstr (quality, "The header and the call tree count"));
  }
}

/* The timeline's model, once the view has one */
static gboolean
timeline_has_model (gpointer data)
{
  return ps_timeline_view_get_model (data) != NULL && gtk_widget_get_width (data) > 0;
}

/* A pixel of an ARGB32 surface, unpremultiplied */
static void
surface_rgba (cairo_surface_t *surface,
              int              x,
              int              y,
              GdkRGBA         *rgba)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  double alpha = ((pixel >> 24) & 0xff) / 255.0;

  rgba->alpha = alpha;
  rgba->red = alpha > 0 ? ((pixel >> 16) & 0xff) / 255.0 / alpha : 0;
  rgba->green = alpha > 0 ? ((pixel >> 8) & 0xff) / 255.0 / alpha : 0;
  rgba->blue = alpha > 0 ? (pixel & 0xff) / 255.0 / alpha : 0;
}

static gboolean
rgba_near (const GdkRGBA *a,
           const GdkRGBA *b)
{
  return fabs (a->red - b->red) <= 3.0 / 255 && fabs (a->green - b->green) <= 3.0 / 255
         && fabs (a->blue - b->blue) <= 3.0 / 255 && fabs (a->alpha - b->alpha) <= 3.0 / 255;
}

/* The timeline has a lane per thread with a tick where each sample is, in
 * the colour of its leaf's module (as the flame graph colours it), and
 * nothing between them; its tooltip names the sample's leaf frame */
static void
test_sample_lane (Fixture       *fixture,
                  gconstpointer  data)
{
  PsRunPage *page;
  PsTimelineView *timeline;
  PsTimelineModel *model;
  PsEventStore *store;
  const PsTimelineRow *lane = NULL;
  const PsTimelineRow *rates_group = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  GtkAdjustment *vadjustment;
  int width, height;
  double foot;
  guint n_lanes = 0, n_ticks = 0;

  page = open_unnamed_log (fixture);
  if (page == NULL)
    return;
  timeline = ps_run_page_get_timeline_view (page);
  g_assert_true (iterate_until (timeline_has_model, timeline));
  model = ps_timeline_view_get_model (timeline);
  store = ps_run_page_get_store (page);

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_SAMPLES)
        {
          n_lanes++;
          lane = row;
        }
      else if (row->kind == PS_TIMELINE_ROW_GROUP && rates_group == NULL)
        rates_group = row;
    }
  /* One thread took samples: one lane; the rate charts above it closed */
  g_assert_cmpuint (n_lanes, ==, 1);
  g_assert_nonnull (lane);
  g_assert_cmpstr (lane->label, ==, "Thread main (tid 500)");
  g_assert_nonnull (strstr (lane->tooltip, "9 samples"));
  g_assert_true (rates_group->collapsed);
  g_assert_false (lane->hidden);

  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  height = gtk_widget_get_height (GTK_WIDGET (timeline));
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (timeline));
  foot = PS_TIMELINE_HEADER_HEIGHT - gtk_adjustment_get_value (vadjustment) + lane->y + PS_TIMELINE_LANE_HEIGHT;
  g_assert_cmpfloat (foot, <, height);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  ps_timeline_view_draw_picture (timeline, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      /* The last one may be at the right edge: in the last pixel */
      double x = MIN (floor (ps_timeline_view_x_of (timeline, sample->time_ns)), width - 1);
      double x_between = floor (ps_timeline_view_x_of (timeline, sample->time_ns + 500000));
      GdkRGBA expected, seen, between;
      g_autofree char *tooltip = NULL;

      g_assert_cmpfloat (x, >=, PS_TIMELINE_LABEL_WIDTH);
      g_assert_cmpfloat (x, <, width);
      ps_timeline_sample_color (store, i, FALSE, &expected);
      surface_rgba (surface, (int) x, (int) foot - 2, &seen);
      g_assert_true (rgba_near (&seen, &expected));
      /* Half a millisecond later: the lane's blank */
      surface_rgba (surface, (int) x_between, (int) foot - 2, &between);
      g_assert_false (rgba_near (&between, &expected));
      n_ticks++;

      tooltip = ps_timeline_view_describe_at (timeline, x + 0.5, foot - 4);
      g_assert_nonnull (tooltip);
      if (sample->stack == 0)
        g_assert_nonnull (strstr (tooltip, "A sample without a call stack"));
      else
        {
          g_autoptr(GString) leaf = g_string_new (NULL);

          ps_event_store_append_frame_name (store, ps_event_store_get_stack_node (store, sample->stack)->frame, leaf);
          g_assert_true (g_str_has_prefix (tooltip, leaf->str));
        }
      g_assert_nonnull (strstr (tooltip, "A sample of CLOCK.HARD at "));
      g_assert_nonnull (strstr (tooltip, sample->flags & PS_SAMPLE_FLAG_KERNEL ? "kernel mode" : "user mode"));
    }
  g_assert_cmpuint (n_ticks, ==, 9);
  cairo_surface_destroy (surface);

  /* The libc samples and the kernel ones differ in colour */
  {
    GdkRGBA libc, kernel;

    ps_timeline_sample_color (store, 0, FALSE, &libc);
    ps_timeline_sample_color (store, 6, FALSE, &kernel);
    g_assert_false (rgba_near (&libc, &kernel));
  }
}

/* perfscope --sysroot DIR (-s DIR): the folder, made absolute */
static void
test_sysroot_option (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autofree char *expected = g_canonicalize_filename ("sysroot/of/host", NULL);
  int status = 0;

  g_variant_dict_insert (options, "sysroot", "^ay", "sysroot/of/host");
  g_signal_emit_by_name (fixture->app, "handle-local-options", options, &status);
  g_assert_cmpint (status, ==, -1);
  g_assert_cmpstr (ps_application_get_symbol_folder (fixture->app), ==, expected);
  g_assert_true (g_path_is_absolute (ps_application_get_symbol_folder (fixture->app)));
}

/* The folder is kept in the settings, and the next start takes it */
static void
test_symbol_folder_kept (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(PsApplication) next = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(GError) error = NULL;

  ps_application_set_symbol_folder (fixture->app, fixture->tmpdir);
  saved = g_settings_get_string (settings, "symbol-folder");
  g_assert_cmpstr (saved, ==, fixture->tmpdir);

  next = ps_application_new ("io.github.perfscope.Perfscope.Test2", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (next), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_application_get_symbol_folder (next), ==, fixture->tmpdir);

  /* None chosen: an empty string, and none at the next start */
  ps_application_set_symbol_folder (fixture->app, NULL);
  g_clear_pointer (&saved, g_free);
  saved = g_settings_get_string (settings, "symbol-folder");
  g_assert_cmpstr (saved, ==, "");
}

/* The demo log's counts have their digits grouped wherever the call tree
 * writes them, as the header and the process list do, even in a locale
 * without a thousands separator (the tests run in C.UTF-8) */
/* The counts of the engine's warnings are grouped on screen as every
 * count of the window is, "1,388 samples"; the places and the names in
 * them are not, and the store keeps the text the CLI prints */
static void
test_warning_counts (Fixture       *fixture,
                     gconstpointer  data)
{
  static const struct {
    const char *text;
    const char *shown;
  } cases[] = {
    { "No function names for /lib/libc.so.7 (no symbol folder was chosen): 1388 samples (78.5 %) have frames in it",
      "No function names for /lib/libc.so.7 (no symbol folder was chosen): 1,388 samples (78.5 %) have frames in it" },
    { "the 1234567 records (20000 samples) before it are kept", "the 1,234,567 records (20,000 samples) before it are kept" },
    { "샘플 1388개(78.5 %)", "샘플 1,388개(78.5 %)" },
    { "it was still open when the scope around it ended on line 1078 (at least 32 ms)",
      "it was still open when the scope around it ended on line 1078 (at least 32 ms)" },
    { "Damaged record 3 at byte offset 123456: bad", "Damaged record 3 at byte offset 123456: bad" },
    { "fork (pid 12345)", "fork (pid 12345)" },
    { "flags 0x00001234 and 1234.5 ms", "flags 0x00001234 and 1234.5 ms" },
    { "Scope “12345 name” and \"4096 bytes\" kept, 4096 bytes", "Scope “12345 name” and \"4096 bytes\" kept, 4,096 bytes" },
    { "fsperf_3122 log of 2026-12-04 12:00", "fsperf_3122 log of 2026-12-04 12:00" },
    { "999 samples", "999 samples" },
    /* Numbers that name a thing, followed by a word */
    { "Counter 1848 at byte offset 96: 4096 bytes", "Counter 1848 at byte offset 96: 4,096 bytes" },
    { "The row is of process 6360 but its Root row is of process 6361; kept",
      "The row is of process 6360 but its Root row is of process 6361; kept" },
    { "Marker id 1234 is above the documented maximum", "Marker id 1234 is above the documented maximum" },
  };
  g_autofree char *path = demo_file_path ("pmcstat_freebsd14.pmclog");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = NULL;
  PsProfileView *view = open_pmcstat (fixture, file, &page);
  GListModel *warnings = ps_run_view_get_warning_model (PS_RUN_VIEW (view));
  g_autofree char *shown = NULL;
  gboolean found = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = ps_view_group_counts (cases[i].text);

      g_assert_cmpstr (text, ==, cases[i].shown);
    }

  /* The store keeps the engine's text */
  for (guint i = 0; i < g_list_model_get_n_items (warnings); i++)
    {
      g_autoptr(PsWarningRow) row = g_list_model_get_item (warnings, i);

      if (strstr (ps_warning_row_get_message (row), "/lib/libc.so.7") != NULL)
        {
          g_assert_nonnull (strstr (ps_warning_row_get_message (row), ": 1388 samples (78.5 %)"));
          found = TRUE;
        }
    }
  g_assert_true (found);

  /* The Data Quality page shows it grouped */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "run.show-warnings", NULL));
  iterate_for (200);
  shown = collect_label_text (GTK_WIDGET (view->warning_view));
  g_test_message ("warnings shown: %s", shown);
  g_assert_nonnull (strstr (shown, "/lib/libc.so.7 (no symbol folder was chosen): 1,388 samples (78.5 %) have frames in it"));
  g_assert_null (strstr (shown, "1388 samples"));
  maybe_save_screenshot (fixture, "profile-warning-counts");
}

static void
test_demo_counts (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("pmcstat_freebsd14.pmclog");
  RunViews run = open_run_views (fixture, path);
  PsProfileView *profile_view = ps_run_page_get_profile_view (run.page);
  PsCallTreeView *tree_view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (profile_view));
  const char *status;

  g_assert_true (iterate_until (run_view_is_idle, profile_view));
  g_assert_true (iterate_until (call_tree_is_idle, tree_view));
  status = ps_call_tree_view_get_status (tree_view);
  g_test_message ("status: %s", status);
  g_assert_nonnull (strstr (status, "14 modules without names (20,403 addresses)"));
  g_assert_nonnull (strstr (status, "elapsed total 1,324 samples"));
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/profile-view/sources", test_sources);
  ADD_TEST ("/profile-view/computing", test_computing);
  ADD_TEST ("/profile-view/tracks", test_tracks);
  ADD_TEST ("/profile-view/time-range", test_time_range);
  ADD_TEST ("/profile-view/warnings", test_warnings);
  ADD_TEST ("/profile-view/pmcstat", test_pmcstat);
  ADD_TEST ("/profile-view/pmcstat-events", test_pmcstat_events);
  ADD_TEST ("/profile-view/symbol-folder", test_symbol_folder);
  ADD_TEST ("/profile-view/hwpmc-sysroot", test_hwpmc_sysroot);
  ADD_TEST ("/profile-view/unnamed-modules", test_unnamed_modules);
  ADD_TEST ("/profile-view/quality-focus", test_quality_focus);
  ADD_TEST ("/profile-view/sample-lane", test_sample_lane);
  ADD_TEST ("/profile-view/sysroot-option", test_sysroot_option);
  ADD_TEST ("/profile-view/symbol-folder-kept", test_symbol_folder_kept);
  ADD_TEST ("/profile-view/demo-counts", test_demo_counts);
  ADD_TEST ("/profile-view/warning-counts", test_warning_counts);

  return gui_test_run ();
}
