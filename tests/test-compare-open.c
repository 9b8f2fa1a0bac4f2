/* test-compare-open.c — two files given together (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two files dropped at once go where --compare A B, a recent comparison
 * and Compare With… go (ps_window_open_pair ()): runs of one kind are
 * compared in a tab; runs of two kinds open as two run tabs under a banner
 * that says what each file is, with Compare Anyway when both have
 * functions to match.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-compare-page-private.h"
#include "ps-window-private.h"

static gboolean
pair_is_open (gpointer data)
{
  return !ps_window_is_opening_pair (data);
}

static GFile *
data_file (const char *directory,
           const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", directory, name, NULL);

  return g_file_new_for_path (path);
}

static GFile *
demo_file (const char *name)
{
  g_autofree char *path = demo_file_path (name);

  return g_file_new_for_path (path);
}

/* What a drop of the two files does, once their kinds are known */
static void
drop_pair (Fixture *fixture,
           GFile   *file_a,
           GFile   *file_b)
{
  g_autoptr(GSList) files = g_slist_append (g_slist_append (NULL, file_a), file_b);

  _ps_window_drop_files (fixture->window, files);
  g_assert_true (iterate_until (pair_is_open, fixture->window));
  iterate_for (50);
}

static gboolean
pages_are_read (gpointer data)
{
  PsWindow *window = data;

  for (guint i = 0; i < ps_window_get_n_pages (window); i++)
    {
      PsRunPage *page = ps_window_get_page (window, i);

      if (page != NULL && ps_run_page_get_state (page) == PS_RUN_PAGE_LOADING)
        return FALSE;
    }
  return TRUE;
}

static void
assert_run_tab (Fixture *fixture,
                guint    index,
                GFile   *file)
{
  PsRunPage *page = ps_window_get_page (fixture->window, index);

  g_assert_nonnull (page);
  g_assert_true (g_file_equal (ps_run_page_get_file (page), file));
}

/* A counter log and an RTL log: two tabs, A's first and current, and a
 * banner that says why, without a comparison to offer; it stays over both
 * tabs, goes with one of them, and does not make the window wider */
static void
test_different_kinds (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GFile) file_a = demo_file ("perfmon_4cpu.csv");
  g_autoptr(GFile) file_b = demo_file ("soffice_4711.log");
  int width = gtk_widget_get_width (GTK_WIDGET (fixture->window));
  int minimum;

  g_assert_false (ps_window_get_pair_banner_revealed (fixture->window));
  drop_pair (fixture, file_a, file_b);

  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  assert_run_tab (fixture, 0, file_a);
  assert_run_tab (fixture, 1, file_b);
  g_assert_true (ps_window_get_current_page (fixture->window) == ps_window_get_page (fixture->window, 0));
  g_assert_true (ps_window_get_pair_banner_revealed (fixture->window));
  g_assert_cmpstr (ps_window_get_pair_banner_text (fixture->window), ==,
                   "perfmon_4cpu.csv is a Windows performance counter log and soffice_4711.log an OpenOffice "
                   "RTL log: they are opened as two tabs. They have nothing in common to compare.");
  g_assert_false (gtk_widget_get_visible (ps_window_get_pair_banner_button (fixture->window)));
  g_assert_false (gtk_widget_is_sensitive (ps_window_get_pair_banner_button (fixture->window)));
  g_assert_true (iterate_until (pages_are_read, fixture->window));
  iterate_for (100);
  maybe_save_screenshot (fixture, "pair-different-kinds");

  /* Not wider: the window as it was, and it fits a laptop's 1024 pixels */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fixture->window)), ==, width);
  gtk_widget_measure (GTK_WIDGET (fixture->window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 1024);

  /* Over B's tab too */
  _ps_window_show_child (fixture->window, _ps_window_get_nth_child (fixture->window, 1));
  iterate_for (50);
  g_assert_true (ps_window_get_pair_banner_revealed (fixture->window));

  /* Gone with B's tab */
  ps_window_close_page (fixture->window, ps_window_get_page (fixture->window, 1));
  iterate_for (50);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  g_assert_false (ps_window_get_pair_banner_revealed (fixture->window));
}

/* A profiler report and an RTL log share function names: Compare Anyway
 * opens their comparison in a tab of its own, and the banner goes */
static void
test_compare_anyway (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GFile) file_a = data_file ("vs-report-csv", "lr2_cc.csv");
  g_autoptr(GFile) file_b = demo_file ("soffice_4711.log");
  GtkWidget *button = ps_window_get_pair_banner_button (fixture->window);
  GtkWidget *child;

  drop_pair (fixture, file_a, file_b);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  assert_run_tab (fixture, 0, file_a);
  assert_run_tab (fixture, 1, file_b);
  g_assert_true (ps_window_get_pair_banner_revealed (fixture->window));
  g_assert_cmpstr (ps_window_get_pair_banner_text (fixture->window), ==,
                   "lr2_cc.csv is a Visual Studio profiler report and soffice_4711.log an OpenOffice RTL log: "
                   "they are opened as two tabs. Both have functions, which a comparison can match by name.");
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_assert_true (iterate_until (pages_are_read, fixture->window));
  maybe_save_screenshot (fixture, "pair-comparable-kinds");

  g_assert_true (click_button (GTK_WIDGET (fixture->window), "Compare _Anyway"));
  iterate_for (50);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 3);
  child = _ps_window_get_current_child (fixture->window);
  g_assert_true (PS_IS_COMPARE_PAGE (child));
  g_assert_true (g_file_equal (ps_compare_page_get_file (PS_COMPARE_PAGE (child), 0), file_a));
  g_assert_true (g_file_equal (ps_compare_page_get_file (PS_COMPARE_PAGE (child), 1), file_b));
  g_assert_false (ps_window_get_pair_banner_revealed (fixture->window));
  g_assert_false (gtk_widget_is_sensitive (button));
}

/* Runs of one kind compare, whatever their formats: two CE logs, a
 * pmcstat text and an hwpmc log (both sampled profiles), a PDH log and a
 * PerfLib capture (both counter logs), and a saved run with any run */
static void
test_same_kind (Fixture       *fixture,
                gconstpointer  data)
{
  struct
  {
    GFile *a;
    GFile *b;
  } pairs[] = {
    { demo_file ("dbperf_CEPC_x86_6_0_3122.log"), demo_file ("fsperf_CEPC_x86_6_0_3122.log") },
    { data_file ("pmcstat-callgraph", "shared.txt"), demo_file ("pmcstat_freebsd14.pmclog") },
    { demo_file ("perfmon_4cpu.csv"), data_file ("perflib-plv2", "processor-2cpu.plv2") },
    { data_file ("native", "counters-1.0.perfscope"), demo_file ("soffice_4711.log") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      GtkWidget *child;

      drop_pair (fixture, pairs[i].a, pairs[i].b);
      g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, i + 1);
      child = _ps_window_get_current_child (fixture->window);
      g_assert_true (PS_IS_COMPARE_PAGE (child));
      g_assert_true (g_file_equal (ps_compare_page_get_file (PS_COMPARE_PAGE (child), 0), pairs[i].a));
      g_assert_true (g_file_equal (ps_compare_page_get_file (PS_COMPARE_PAGE (child), 1), pairs[i].b));
      g_assert_false (ps_window_get_pair_banner_revealed (fixture->window));
      g_object_unref (pairs[i].a);
      g_object_unref (pairs[i].b);
    }
}

/* Two names alike but for their starts, whole in a laptop's header, too
 * long for a narrower one: there each is cut at its end, so that both
 * starts show (dbperf_…, fsperf_…), with the arrow between them, and
 * each has its name in a tooltip */
static void
test_title (Fixture       *fixture,
            gconstpointer  data)
{
  static const char *starts[] = { "dbperf_", "fsperf_" };
  g_autoptr(GFile) a = demo_file ("dbperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GFile) b = demo_file ("fsperf_CEPC_x86_6_0_3122.log");
  PsComparePage *page;

  drop_pair (fixture, a, b);
  page = PS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window));
  fixture_resize_window (fixture, 1024, 700);
  for (guint side = 0; side < 2; side++)
    g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (ps_compare_page_get_title_label (page, side))));
  fixture_resize_window (fixture, 720, 700);
  for (guint side = 0; side < 2; side++)
    {
      GtkLabel *label = ps_compare_page_get_title_label (page, side);
      g_autoptr(PangoLayout) start = gtk_widget_create_pango_layout (GTK_WIDGET (label), starts[side]);
      g_autofree char *name = g_file_get_basename (side == 0 ? a : b);
      int width;

      g_assert_cmpstr (gtk_label_get_text (label), ==, name);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (label)), ==, name);
      g_assert_cmpint (gtk_label_get_ellipsize (label), ==, PANGO_ELLIPSIZE_END);
      g_assert_true (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
      pango_layout_get_pixel_size (start, &width, NULL);
      g_assert_cmpint (width, <, gtk_widget_get_width (GTK_WIDGET (label)));
    }
  /* A's name, then the arrow, then B's, on one line */
  {
    GtkWidget *first = GTK_WIDGET (ps_compare_page_get_title_label (page, 0));
    GtkWidget *arrow = gtk_widget_get_next_sibling (first);
    graphene_rect_t bounds_a, bounds_arrow, bounds_b;

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (arrow)), ==, "↔");
    g_assert_true (gtk_widget_compute_bounds (first, GTK_WIDGET (page), &bounds_a));
    g_assert_true (gtk_widget_compute_bounds (arrow, GTK_WIDGET (page), &bounds_arrow));
    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (ps_compare_page_get_title_label (page, 1)),
                                              GTK_WIDGET (page), &bounds_b));
    g_assert_cmpfloat (bounds_arrow.origin.x, >=, bounds_a.origin.x + bounds_a.size.width);
    g_assert_cmpfloat (bounds_b.origin.x, >=, bounds_arrow.origin.x + bounds_arrow.size.width);
    g_assert_true (gtk_widget_get_mapped (arrow));
  }
}

static gboolean
side_a_failed (gpointer data)
{
  PsComparePage *page = data;

  return ps_run_page_get_state (ps_compare_page_get_run_page (page, 0)) == PS_RUN_PAGE_FAILED;
}

/* A file that cannot be read goes with any run: the comparison says what
 * is wrong with it, as before, and the Close button of that side closes
 * the comparison's tab */
static void
test_unreadable (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GFile) missing = data_file ("ce", "no-such-file.log");
  g_autoptr(GFile) file_b = demo_file ("soffice_4711.log");
  PsComparePage *page;

  drop_pair (fixture, missing, file_b);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  g_assert_true (PS_IS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window)));
  g_assert_false (ps_window_get_pair_banner_revealed (fixture->window));

  page = PS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window));
  g_assert_true (iterate_until (side_a_failed, page));
  gtk_widget_activate_action (GTK_WIDGET (ps_compare_page_get_run_page (page, 0)), "run.close", NULL);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/compare-open/different-kinds", test_different_kinds);
  ADD_TEST ("/compare-open/compare-anyway", test_compare_anyway);
  ADD_TEST ("/compare-open/same-kind", test_same_kind);
  ADD_TEST ("/compare-open/unreadable", test_unreadable);
  ADD_TEST ("/compare-open/title", test_title);

  return gui_test_run ();
}
