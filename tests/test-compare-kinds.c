/* test-compare-kinds.c — every kind of run compared, at a laptop's size
 * (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Compares two runs of each kind (Visual Studio reports, pmcstat texts,
 * CE PerfLogs, RTL logs, PDH CSV and PerfLib V2 counter logs, hwpmc logs,
 * and runs of two kinds) in a 1024×700 window, and checks what issue 29
 * asks of the page: every cell of the table is the number perfscope-cli
 * diff prints for the same files, each row says why it has its verdict
 * (the test and its p-value, or no test and the size of the change), the
 * least change of rows without a test can be set, the summary counts the
 * verdicts; both runs get exactly half the width (or height, stacked),
 * the table shows at least eight rows in both layouts, the window does
 * not grow, alignment is offered only for runs that both have times, and
 * runs that share no row are said to share none.
 *
 * Second runs of the kinds that have one file here are made from it: an
 * RTL log with every time stretched by a quarter, a PDH log of its first
 * readings, a pmcstat text without its first stack, a copy of an hwpmc
 * log.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "cli-test-util.h"
#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-compare-row.h"
#include "ps-profile-view-private.h"
#include "ps-run-page-private.h"
#include "ps-session.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-window-private.h"

#define LAPTOP_WIDTH  1024
#define LAPTOP_HEIGHT 700
#define MIN_TABLE_ROWS 8

/* Where a run comes from: a file of the tree, or one the test makes */
typedef enum
{
  SOURCE_DEMO,      /* data/demo/NAME */
  SOURCE_TESTS,     /* tests/data/NAME */
  SOURCE_STRETCHED, /* the RTL log data/demo/NAME, every time × 1.25 */
  SOURCE_FIRST,     /* the PDH log data/demo/NAME, its header and first readings */
  SOURCE_TRIMMED,   /* the pmcstat text tests/data/NAME without its first stack */
  SOURCE_COPY,      /* a copy of data/demo/NAME */
} Source;

typedef struct
{
  const char *test;
  Source      source_a;
  const char *name_a;
  Source      source_b;
  const char *name_b;
  gboolean    timed;      /* both runs have times: alignment is offered */
  gboolean    charted;    /* both runs have charts: Same Scale is offered */
  gboolean    unmatched;  /* the runs share no row */
} Kind;

static const Kind kinds[] = {
  { "vs-report", SOURCE_TESTS, "vs-report-csv/lr2_cc.csv", SOURCE_TESTS, "vs-report-csv/lr3_cc.csv",
    FALSE, FALSE, FALSE },
  { "pmcstat", SOURCE_TESTS, "pmcstat-callgraph/shared.txt", SOURCE_TRIMMED, "pmcstat-callgraph/shared.txt",
    FALSE, FALSE, FALSE },
  { "pmcstat-unshared", SOURCE_TESTS, "pmcstat-callgraph/shared.txt", SOURCE_TESTS, "pmcstat-callgraph/shared2.txt",
    FALSE, FALSE, TRUE },
  { "ce", SOURCE_DEMO, "fsperf_CEPC_x86_6_0_3122.log", SOURCE_DEMO, "fsperf_CEPC_x86_6_0_3150.log",
    FALSE, TRUE, FALSE },
  { "rtl", SOURCE_DEMO, "soffice_4711.log", SOURCE_STRETCHED, "soffice_4711.log", TRUE, TRUE, FALSE },
  { "pdh", SOURCE_DEMO, "perfmon_4cpu.csv", SOURCE_FIRST, "perfmon_4cpu.csv", TRUE, TRUE, FALSE },
  { "plv2", SOURCE_DEMO, "processor_4cpu.plv2", SOURCE_TESTS, "perflib-plv2/processor-2cpu.plv2", TRUE, TRUE, FALSE },
  { "hwpmc", SOURCE_DEMO, "pmcstat_freebsd14.pmclog", SOURCE_COPY, "pmcstat_freebsd14.pmclog", TRUE, TRUE, FALSE },
  { "mixed", SOURCE_DEMO, "perfmon_4cpu.csv", SOURCE_DEMO, "soffice_4711.log", TRUE, TRUE, TRUE },
  { "sequence-and-time", SOURCE_DEMO, "dbperf_CEPC_x86_6_0_3122.log", SOURCE_DEMO, "soffice_4711.log",
    FALSE, TRUE, TRUE },
};

static const Kind *
find_kind (const char *test)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (kinds[i].test, test) == 0)
      return &kinds[i];
  g_assert_not_reached ();
}

/* Not inlined: GCC 12's -Wdangling-pointer then takes the text for a
 * pointer to the local that received it, in the release build */
G_GNUC_NO_INLINE static char *
read_source_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* RTL lines start with their time in ms, six digits ("000003 1 { …"),
 * and the log closes "at 002013": each becomes a quarter longer */
static char *
stretch_rtl (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *closing = strstr (line, "closing log file at ");

      if (i > 0)
        g_string_append_c (out, '\n');
      if (g_ascii_isdigit (line[0]) && strlen (line) > 6 && line[6] == ' ')
        g_string_append_printf (out, "%06" G_GINT64_FORMAT "%s",
                                g_ascii_strtoll (line, NULL, 10) * 5 / 4, line + 6);
      else if (closing != NULL)
        {
          const char *number = closing + strlen ("closing log file at ");

          g_string_append_len (out, line, number - line);
          g_string_append_printf (out, "%06" G_GINT64_FORMAT, g_ascii_strtoll (number, NULL, 10) * 5 / 4);
        }
      else
        g_string_append (out, line);
    }
  return g_string_free (out, FALSE);
}

/* The header and the first 100 readings */
static char *
first_readings (const char *text)
{
  const char *end = text;

  for (guint n = 0; n < 101 && end != NULL; n++)
    {
      end = strchr (end, '\n');
      if (end != NULL)
        end++;
    }
  g_assert_nonnull (end);
  return g_strndup (text, end - text);
}

/* The event's header, then the stacks after the first (a blank line
 * ends each) */
static char *
without_first_stack (const char *text)
{
  const char *first = strstr (text, "\n\n");
  const char *second = first != NULL ? strstr (first + 2, "\n\n") : NULL;

  g_autofree char *header = NULL;

  g_assert_nonnull (second);
  header = g_strndup (text, first - text + 1);
  return g_strconcat (header, second + 1, NULL);
}

static GFile *
source_file (Fixture    *fixture,
             Source      source,
             const char *name,
             const char *side)
{
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
  g_autofree char *tests = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autofree char *base = g_path_get_basename (name);
  g_autofree char *made_name = g_strconcat (side, "-", base, NULL);
  g_autofree char *text = NULL;
  g_autofree char *made = NULL;
  gsize length;

  switch (source)
    {
    case SOURCE_DEMO:
      return g_file_new_for_path (demo);
    case SOURCE_TESTS:
      return g_file_new_for_path (tests);
    case SOURCE_STRETCHED:
      text = read_source_text (demo);
      made = stretch_rtl (text);
      break;
    case SOURCE_FIRST:
      text = read_source_text (demo);
      made = first_readings (text);
      break;
    case SOURCE_TRIMMED:
      text = read_source_text (tests);
      made = without_first_stack (text);
      break;
    case SOURCE_COPY:
    default:
      {
        g_autoptr(GError) error = NULL;

        g_file_get_contents (demo, &made, &length, &error);
        g_assert_no_error (error);
        return write_temp_file (fixture, made_name, made, length);
      }
    }
  return write_temp_file (fixture, made_name, made, -1);
}

/* The window and its content */

static gboolean
page_is_ready (gpointer data)
{
  return ps_compare_page_is_ready (PS_COMPARE_PAGE (data));
}

static gboolean
runs_are_read (gpointer data)
{
  PsComparePage *page = data;

  for (guint side = 0; side < 2; side++)
    {
      PsRunPage *run = ps_compare_page_get_run_page (page, side);

      if (ps_run_page_get_state (run) != PS_RUN_PAGE_LOADED && ps_run_page_get_state (run) != PS_RUN_PAGE_PARTIAL)
        return FALSE;
    }
  return ps_compare_page_is_ready (page);
}

static PsComparePage *
open_kind (Fixture    *fixture,
           const Kind *kind,
           GFile     **files)
{
  PsComparePage *page;

  files[0] = source_file (fixture, kind->source_a, kind->name_a, "a");
  files[1] = source_file (fixture, kind->source_b, kind->name_b, "b");
  fixture_resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  page = ps_window_compare_files (fixture->window, files[0], files[1]);
  g_assert_true (PS_IS_COMPARE_PAGE (page));
  g_assert_true (iterate_until (runs_are_read, page));
  iterate_for (500);
  return page;
}

/* The window may not grow for its content: as wide and as high as asked */
static void
assert_window_fits (Fixture *fixture)
{
  int minimum;

  gtk_widget_measure (GTK_WIDGET (fixture->window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  if (minimum > LAPTOP_WIDTH || gtk_widget_get_width (GTK_WIDGET (fixture->window)) > LAPTOP_WIDTH)
    report_wide_widgets (GTK_WIDGET (fixture->window), LAPTOP_WIDTH);
  g_assert_cmpint (minimum, <=, LAPTOP_WIDTH);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fixture->window)), <=, LAPTOP_WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (fixture->window)), <=, LAPTOP_HEIGHT);
}

static graphene_rect_t
bounds_in (GtkWidget *widget,
           GtkWidget *target)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, target, &bounds));
  return bounds;
}

/* Each run has exactly half of the runs' area, along the layout's
 * direction, and the same size across it, inside the page */
static void
assert_equal_halves (PsComparePage *page,
                     gboolean       stacked)
{
  GtkWidget *halves[2] = { ps_compare_page_get_run_half (page, 0), ps_compare_page_get_run_half (page, 1) };
  graphene_rect_t a = bounds_in (halves[0], GTK_WIDGET (page));
  graphene_rect_t b = bounds_in (halves[1], GTK_WIDGET (page));
  int page_width = gtk_widget_get_width (GTK_WIDGET (page));

  g_test_message ("halves: A %.0f×%.0f at %.0f,%.0f, B %.0f×%.0f at %.0f,%.0f; page %d wide", a.size.width,
                  a.size.height, a.origin.x, a.origin.y, b.size.width, b.size.height, b.origin.x, b.origin.y,
                  page_width);
  g_assert_cmpfloat (fabs (a.size.width - b.size.width), <=, 1);
  g_assert_cmpfloat (fabs (a.size.height - b.size.height), <=, 1);
  g_assert_cmpfloat (a.origin.x, >=, 0);
  g_assert_cmpfloat (b.origin.x + b.size.width, <=, page_width);
  if (stacked)
    {
      g_assert_cmpfloat (a.size.width, >=, page_width - 2);
      g_assert_cmpfloat (b.origin.y, >=, a.origin.y + a.size.height - 1);
    }
  else
    {
      g_assert_cmpfloat (a.size.width, <=, page_width / 2.0 + 1);
      g_assert_cmpfloat (b.origin.x, >=, a.origin.x + a.size.width - 1);
    }
  /* A run page is at most as wide as its half: wider, it scrolls inside it */
  for (guint side = 0; side < 2; side++)
    {
      GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (ps_compare_page_get_run_page (page, side)),
                                                     GTK_TYPE_SCROLLED_WINDOW);
      graphene_rect_t shown = bounds_in (scrolled, GTK_WIDGET (page));
      graphene_rect_t half = side == 0 ? a : b;

      g_assert_cmpfloat (shown.origin.x, >=, half.origin.x);
      g_assert_cmpfloat (shown.origin.x + shown.size.width, <=, half.origin.x + half.size.width);
    }
}

/* The table's rows that lie whole in the part of its scrolled window
 * under the column titles */
static guint
visible_table_rows (PsComparePage *page)
{
  GtkWidget *window = GTK_WIDGET (ps_compare_page_get_table_window (page));
  GtkWidget *view = GTK_WIDGET (ps_compare_page_get_column_view (page));
  GtkWidget *header = gtk_widget_get_first_child (view);
  GtkWidget *list = gtk_widget_get_next_sibling (header);
  double top, bottom = gtk_widget_get_height (window);
  guint n_rows = 0;

  g_assert_true (GTK_IS_LIST_VIEW (list) || g_str_equal (G_OBJECT_TYPE_NAME (list), "GtkColumnListView"));
  top = bounds_in (header, window).origin.y + bounds_in (header, window).size.height;
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      graphene_rect_t bounds;

      if (!gtk_widget_get_mapped (row) || !gtk_widget_compute_bounds (row, window, &bounds) || bounds.size.height < 1)
        continue;
      if (bounds.origin.y >= top - 0.5 && bounds.origin.y + bounds.size.height <= bottom + 0.5)
        n_rows++;
    }
  return n_rows;
}

static void
assert_layout (Fixture       *fixture,
               PsComparePage *page,
               const Kind    *kind,
               gboolean       stacked)
{
  ps_compare_page_set_stacked (page, stacked);
  iterate_for (300);
  assert_window_fits (fixture);
  /* Side by side only where both runs fit their half; else stacked */
  if (!stacked && ps_compare_page_get_stacked (page))
    {
      int widest = 0;

      for (guint side = 0; side < 2; side++)
        {
          int minimum;

          gtk_widget_measure (GTK_WIDGET (ps_compare_page_get_run_page (page, side)), GTK_ORIENTATION_HORIZONTAL, -1,
                              &minimum, NULL, NULL, NULL);
          widest = MAX (widest, minimum);
        }
      g_test_message ("stacked: a run page needs %d px, half the page is %d", widest,
                      gtk_widget_get_width (GTK_WIDGET (page)) / 2);
      g_assert_cmpint (widest, >, gtk_widget_get_width (GTK_WIDGET (page)) / 2 - 2);
      stacked = TRUE;
    }
  assert_equal_halves (page, stacked);
  if (g_str_equal (ps_compare_page_get_table_state (page), "table"))
    {
      guint n_shown = g_list_model_get_n_items (ps_compare_page_get_rows (page));
      guint n_visible = visible_table_rows (page);

      g_test_message ("%s: %u of %u rows visible", stacked ? "stacked" : "side by side", n_visible, n_shown);
      g_assert_cmpuint (n_visible, >=, MIN (MIN_TABLE_ROWS, n_shown));
    }
}

/* The table against the engine and the CLI */

static PsRunDiff *
engine_diff (PsComparePage *page,
             double         min_change)
{
  PsRunDiffOptions options;

  ps_run_diff_options_init (&options);
  if (min_change > 0)
    options.min_change = min_change;
  return ps_run_diff_new (ps_run_page_get_store (ps_compare_page_get_run_page (page, 0)),
                          ps_run_page_get_store (ps_compare_page_get_run_page (page, 1)), &options);
}

/* The shown row of that name and kind present on those sides; FALSE when
 * none or several are */
static gboolean
find_shown (PsComparePage *page,
            const char    *name,
            const char    *kind,
            gboolean       has_a,
            gboolean       has_b,
            guint         *position)
{
  GListModel *rows = ps_compare_page_get_rows (page);
  guint n_found = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);
      const PsRunDiffRow *row = ps_compare_row_get_row (item);

      if (g_strcmp0 (row->name, name) == 0 && g_strcmp0 (row->kind, kind) == 0 && row->has_a == has_a
          && row->has_b == has_b)
        {
          *position = i;
          n_found++;
        }
    }
  return n_found == 1;
}

static double
json_number (JsonObject *object,
             const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  g_assert_nonnull (node);
  return JSON_NODE_HOLDS_NULL (node) ? NAN : json_node_get_double (node);
}

static void
assert_cell (PsComparePage *page,
             guint          position,
             const char    *column,
             const char    *expected)
{
  g_autofree char *cell = ps_compare_page_get_cell_text (page, position, column);

  g_assert_cmpstr (cell, ==, expected);
}

static void
assert_value_cell (PsComparePage *page,
                   guint          position,
                   const char    *column,
                   double         value,
                   const char    *unit)
{
  g_autofree char *expected = ps_compare_page_format_value (value, unit, FALSE);

  assert_cell (page, position, column, expected);
}

static void
assert_side_cells (PsComparePage *page,
                   guint          position,
                   const char    *side,
                   JsonObject    *stats,
                   const char    *unit)
{
  g_autofree char *count_id = g_strconcat (side, "-count", NULL);
  g_autofree char *mean_id = g_strconcat (side, "-mean", NULL);
  g_autofree char *total_id = g_strconcat (side, "-total", NULL);
  g_autofree char *count = NULL;

  if (stats == NULL)
    {
      assert_cell (page, position, count_id, "–");
      assert_cell (page, position, mean_id, "–");
      return;
    }
  count = ps_view_format_count ((guint64)json_object_get_int_member (stats, "count"));
  assert_cell (page, position, count_id, count);
  assert_value_cell (page, position, mean_id, json_number (stats, "mean"), unit);
  assert_value_cell (page, position, total_id, json_number (stats, "total"), unit);
}

static const char *
change_text (const char *change,
             gboolean    has_a,
             gboolean    has_b)
{
  if (!has_b)
    return "Only in A";
  if (!has_a)
    return "Only in B";
  if (g_str_equal (change, "regression"))
    return "Regression";
  if (g_str_equal (change, "improvement"))
    return "Improvement";
  if (g_str_equal (change, "changed"))
    return "Changed";
  return "Unchanged";
}

/* Every row perfscope-cli diff prints is a row of the table, with the
 * same numbers in its cells and the same verdict */
static void
assert_table_is_cli_diff (PsComparePage *page,
                          GFile        **files)
{
  g_autofree char *path_a = g_file_get_path (files[0]);
  g_autofree char *path_b = g_file_get_path (files[1]);
  g_autoptr(CliResult) result = cli_test_run ("diff", path_a, path_b, NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *rows;
  guint n_checked = 0;

  g_assert_cmpint (result->status, ==, 0);
  root = cli_test_parse_json (result->out);
  rows = json_object_get_array_member (json_node_get_object (root), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, g_list_model_get_n_items (ps_compare_page_get_rows (page)));
  g_assert_cmpuint (json_array_get_length (rows), ==, ps_compare_page_get_diff (page)->rows->len);

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *json = json_array_get_object_element (rows, i);
      const char *name = json_object_get_string_member (json, "name");
      const char *kind = json_object_get_string_member (json, "kind");
      const char *unit = json_object_get_string_member (json, "unit");
      gboolean has_a = !JSON_NODE_HOLDS_NULL (json_object_get_member (json, "a"));
      gboolean has_b = !JSON_NODE_HOLDS_NULL (json_object_get_member (json, "b"));
      g_autofree char *ratio = NULL;
      g_autofree char *p_value = NULL;
      g_autofree char *delta = NULL;
      g_autoptr(PsCompareRow) item = NULL;
      const PsRunDiffRow *row;
      guint position = 0;

      /* Rows of one name in several contexts are told apart by them */
      if (json_object_has_member (json, "context") && !JSON_NODE_HOLDS_NULL (json_object_get_member (json, "context")))
        continue;
      if (!find_shown (page, name, kind, has_a, has_b, &position))
        continue;
      item = g_list_model_get_item (ps_compare_page_get_rows (page), position);
      row = ps_compare_row_get_row (item);

      assert_cell (page, position, "change", change_text (json_object_get_string_member (json, "change"), has_a, has_b));
      assert_side_cells (page, position, "a", has_a ? json_object_get_object_member (json, "a") : NULL, unit);
      assert_side_cells (page, position, "b", has_b ? json_object_get_object_member (json, "b") : NULL, unit);
      ratio = ps_compare_export_format_ratio (json_number (json, "ratio_mean"));
      assert_cell (page, position, "ratio", ratio);
      /* No change in the unit of the larger mean */
      delta = ps_compare_page_format_delta (json_number (json, "delta_mean"), unit,
                                            MAX (has_a ? fabs (json_number (json_object_get_object_member (json, "a"), "mean")) : 0,
                                                 has_b ? fabs (json_number (json_object_get_object_member (json, "b"), "mean")) : 0));
      assert_cell (page, position, "delta-mean", delta);
      p_value = ps_compare_export_format_p_value (json_number (json, "p_value"));
      assert_cell (page, position, "p-value", p_value);
      /* The verdict's basis and reason, where the CLI gives them */
      if (json_object_has_member (json, "basis"))
        g_assert_cmpstr (json_object_get_string_member (json, "basis"), ==, ps_run_diff_basis_to_string (row->basis));
      if (json_object_has_member (json, "reason"))
        g_assert_cmpstr (json_object_get_string_member (json, "reason"), ==, ps_run_diff_reason_to_string (row->reason));
      n_checked++;
    }
  g_test_message ("%u of %u rows checked against perfscope-cli diff", n_checked, json_array_get_length (rows));
  g_assert_cmpuint (n_checked, >, 0);
}

static gboolean
has_matched (PsComparePage *page)
{
  const PsRunDiff *diff = ps_compare_page_get_diff (page);

  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      if (row->has_a && row->has_b)
        return TRUE;
    }
  return FALSE;
}

/* The same rows with the same verdicts, on the same grounds */
static void
assert_same_verdicts (const PsRunDiff *shown,
                      const PsRunDiff *expected)
{
  g_assert_cmpint (shown->matched, ==, expected->matched);
  g_assert_cmpuint (shown->rows->len, ==, expected->rows->len);
  for (guint i = 0; i < expected->rows->len; i++)
    {
      const PsRunDiffRow *want = g_ptr_array_index (expected->rows, i);
      const PsRunDiffRow *have = g_ptr_array_index (shown->rows, i);

      g_assert_cmpstr (have->name, ==, want->name);
      g_assert_cmpint (have->change, ==, want->change);
      g_assert_cmpint (have->basis, ==, want->basis);
      g_assert_cmpint (have->reason, ==, want->reason);
      g_assert_true ((isnan (have->p_value) && isnan (want->p_value)) || have->p_value == want->p_value);
    }
}

/* Whether a row of both runs can be better or worse (not counters) */
static gboolean
can_regress (const PsRunDiff *diff)
{
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      if (row->has_a && row->has_b && row->lower_is_better)
        return TRUE;
    }
  return FALSE;
}

/* The page's verdicts are the engine's, and each row says why in words
 * that follow from its basis and reason */
static void
assert_verdicts (PsComparePage *page)
{
  g_autoptr(PsRunDiff) expected = engine_diff (page, 0);
  const PsRunDiff *shown = ps_compare_page_get_diff (page);
  GListModel *rows = ps_compare_page_get_rows (page);
  guint n_regressions = 0, n_improvements = 0, n_size = 0;

  assert_same_verdicts (shown, expected);
  for (guint i = 0; i < expected->rows->len; i++)
    {
      const PsRunDiffRow *want = g_ptr_array_index (expected->rows, i);

      if (want->has_a && want->has_b && want->change == PS_RUN_DIFF_REGRESSION)
        n_regressions++;
      if (want->has_a && want->has_b && want->change == PS_RUN_DIFF_IMPROVEMENT)
        n_improvements++;
      if (want->basis == PS_RUN_DIFF_BASIS_SIZE)
        n_size++;
    }

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);
      const PsRunDiffRow *row = ps_compare_row_get_row (item);
      g_autofree char *why = ps_compare_page_get_cell_text (page, i, "why");
      g_autofree char *change_tooltip = ps_compare_page_get_cell_tooltip (page, i, "change");
      g_autofree char *p_tooltip = ps_compare_page_get_cell_tooltip (page, i, "p-value");

      /* Every row says why, and the Change cell's tooltip says the same */
      g_assert_nonnull (why);
      g_assert_cmpuint (strlen (why), >, 0);
      g_assert_cmpstr (change_tooltip, ==, why);
      /* An empty p-value is explained */
      g_assert_nonnull (p_tooltip);
      if (!row->has_a || !row->has_b)
        g_assert_nonnull (strstr (why, row->has_a ? "Only in run A" : "Only in run B"));
      else if (row->basis == PS_RUN_DIFF_BASIS_SIZE)
        {
          g_assert_true (g_str_has_prefix (why, "No test: one value per run"));
          if (row->reason == PS_RUN_DIFF_REASON_NOISE)
            {
              g_autofree char *noise_floor = ps_compare_page_format_value (row->noise_floor, row->unit, FALSE);

              g_assert_nonnull (strstr (why, noise_floor));
            }
          if (row->reason == PS_RUN_DIFF_REASON_LARGE)
            g_assert_nonnull (strstr (why, "≥ 10 %"));
        }
      else if (row->basis == PS_RUN_DIFF_BASIS_TEST || row->basis == PS_RUN_DIFF_BASIS_PROPORTION)
        {
          g_autofree char *p = ps_compare_export_format_p_value (row->p_value);

          g_assert_nonnull (strstr (why, row->basis == PS_RUN_DIFF_BASIS_TEST ? "Mann–Whitney" : "two-proportion"));
          g_assert_nonnull (strstr (why, p));
          if (row->reason == PS_RUN_DIFF_REASON_NOT_SIGNIFICANT)
            g_assert_nonnull (strstr (why, "not significant"));
        }
      else if (!isnan (row->p_value))
        {
          g_autofree char *p = ps_compare_export_format_p_value (row->p_value);

          g_assert_nonnull (strstr (why, p));
        }
    }

  /* The summary counts the verdicts */
  {
    g_autofree char *regressions = g_strdup_printf (n_regressions == 1 ? "%u regression" : "%u regressions", n_regressions);
    g_autofree char *improvements = g_strdup_printf (n_improvements == 1 ? "%u improvement" : "%u improvements",
                                                     n_improvements);
    g_autofree char *labels = collect_label_text (GTK_WIDGET (page));

    /* Counters only change: their runs neither regress nor improve */
    if (has_matched (page) && can_regress (expected))
      {
        g_assert_nonnull (strstr (labels, regressions));
        g_assert_nonnull (strstr (labels, improvements));
      }
    else
      g_assert_null (strstr (labels, "0 regressions"));
  }
  /* The least change is offered, and the note under the table shown, for
   * rows without a test only */
  g_assert_cmpint (ps_compare_page_get_min_change_visible (page), ==, n_size > 0);
  g_assert_cmpint (ps_compare_page_get_basis_note (page) != NULL, ==, n_size > 0);
}

/* Tests */

/* The two files compared, kept for the CLI */
typedef struct
{
  GFile *files[2];
} Files;

static void
files_clear (Files *files)
{
  g_clear_object (&files->files[0]);
  g_clear_object (&files->files[1]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Files, files_clear)

static void
test_kind (Fixture       *fixture,
           gconstpointer  data)
{
  const Kind *kind = data;
  g_auto(Files) files = { { NULL, NULL } };
  PsComparePage *page = open_kind (fixture, kind, files.files);
  g_autofree char *shot = NULL;

  g_assert_cmpint (has_matched (page), ==, !kind->unmatched);
  /* Runs that share no row are said to, in words, before any table */
  if (kind->unmatched)
    {
      const char *text = ps_compare_page_get_unmatched_text (page);
      g_autofree char *base_a = g_file_get_basename (files.files[0]);
      g_autofree char *base_b = g_file_get_basename (files.files[1]);

      g_assert_cmpstr (ps_compare_page_get_table_state (page), ==, "unmatched");
      g_assert_nonnull (strstr (text, base_a));
      g_assert_nonnull (strstr (text, base_b));
      g_assert_nonnull (strstr (text, "nothing to compare"));
      shot = g_strdup_printf ("compare-%s-unmatched", kind->test);
      maybe_save_screenshot (fixture, shot);
      g_clear_pointer (&shot, g_free);
      assert_layout (fixture, page, kind, FALSE);
      /* The rows of each run, when asked for */
      g_assert_true (click_button (GTK_WIDGET (page), "List the _Rows of Each Run"));
      iterate_for (200);
    }
  g_assert_cmpstr (ps_compare_page_get_table_state (page), ==, "table");

  /* Alignment only for runs that both have times; one scale for the
   * charts of runs that both have charts, on at first, and off when the
   * toggle is */
  g_assert_cmpint (ps_compare_page_get_align_visible (page), ==, kind->timed);
  g_assert_cmpint (ps_compare_page_get_same_scale_visible (page), ==, kind->charted);
  for (guint side = 0; side < 2; side++)
    g_assert_cmpint (ps_run_page_get_shared_value_scale (ps_compare_page_get_run_page (page, side)), ==, kind->charted);
  if (kind->charted)
    {
      ps_compare_page_set_same_scale (page, FALSE);
      g_assert_false (ps_run_page_get_shared_value_scale (ps_compare_page_get_run_page (page, 0)));
      g_assert_false (ps_run_page_get_shared_value_scale (ps_compare_page_get_run_page (page, 1)));
      ps_compare_page_set_same_scale (page, TRUE);
      g_assert_true (ps_run_page_get_shared_value_scale (ps_compare_page_get_run_page (page, 0)));
    }

  assert_verdicts (page);
  assert_table_is_cli_diff (page, files.files);

  assert_layout (fixture, page, kind, FALSE);
  shot = g_strdup_printf ("compare-%s", kind->test);
  maybe_save_screenshot (fixture, shot);
  g_clear_pointer (&shot, g_free);
  assert_layout (fixture, page, kind, TRUE);
  shot = g_strdup_printf ("compare-%s-stacked", kind->test);
  maybe_save_screenshot (fixture, shot);

  /* A row selected selects its items in the runs: the window stays */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page)), 0);
  iterate_for (300);
  assert_layout (fixture, page, kind, FALSE);
}

/* Setting the least change compares the runs again with it: the rows
 * without a test follow it, as ps_run_diff_new () with that least change */
static void
test_least_change (Fixture       *fixture,
                   gconstpointer  data)
{
  g_auto(Files) files = { { NULL, NULL } };
  PsComparePage *page = open_kind (fixture, find_kind ("vs-report"), files.files);
  g_autoptr(PsRunDiff) expected = engine_diff (page, 10.0);
  const PsRunDiff *shown;

  /* A least change of 1000 % leaves fewer changes than 10 % */
  {
    g_autoptr(PsRunDiff) by_default = engine_diff (page, 0);
    guint n_changed_by_default = 0, n_changed = 0;

    for (guint i = 0; i < expected->rows->len; i++)
      {
        n_changed_by_default += ((PsRunDiffRow *)g_ptr_array_index (by_default->rows, i))->change != PS_RUN_DIFF_UNCHANGED;
        n_changed += ((PsRunDiffRow *)g_ptr_array_index (expected->rows, i))->change != PS_RUN_DIFF_UNCHANGED;
      }
    g_test_message ("%u changes from 10 %%, %u from 1000 %%", n_changed_by_default, n_changed);
    g_assert_cmpuint (n_changed, <, n_changed_by_default);
  }
  ps_compare_page_set_min_change (page, 1000);
  g_assert_false (ps_compare_page_is_ready (page));
  g_assert_true (iterate_until (page_is_ready, page));
  shown = ps_compare_page_get_diff (page);
  assert_same_verdicts (shown, expected);
  /* The note under the table gives the least change in force */
  if (ps_compare_page_get_basis_note (page) != NULL)
    g_assert_nonnull (strstr (ps_compare_page_get_basis_note (page), "1000 %"));
}

/* B's call tree of a pmcstat comparison has its rows, shown in its half */
static void
test_profile_call_trees (Fixture       *fixture,
                         gconstpointer  data)
{
  g_auto(Files) files = { { NULL, NULL } };
  PsComparePage *page = open_kind (fixture, find_kind ("pmcstat-unshared"), files.files);

  for (guint side = 0; side < 2; side++)
    {
      PsProfileView *profile = ps_run_page_get_profile_view (ps_compare_page_get_run_page (page, side));
      PsCallTreeView *tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (profile));
      GtkWidget *view = GTK_WIDGET (ps_call_tree_view_get_column_view (tree));

      g_assert_true (iterate_until (call_tree_is_idle, tree));
      iterate_for (200);
      g_test_message ("run %c: %u call tree rows, the table %d px high", 'A' + side,
                      g_list_model_get_n_items (ps_call_tree_view_get_model (tree)), gtk_widget_get_height (view));
      g_assert_cmpuint (g_list_model_get_n_items (ps_call_tree_view_get_model (tree)), >, 0);
      g_assert_true (gtk_widget_get_mapped (view));
      /* Room for its column titles and a few rows */
      g_assert_cmpint (gtk_widget_get_height (view), >=, 80);
    }
}

/* The calls of a row's function highlighted in both runs, or FALSE */
static gboolean
both_highlight (gpointer data)
{
  PsComparePage *page = data;

  for (guint side = 0; side < 2; side++)
    {
      PsRunPage *run = ps_compare_page_get_run_page (page, side);
      PsSession *session = ps_run_page_get_session (run);
      PsEventStore *store = ps_run_page_get_store (run);
      PsSpanLod *highlight = ps_session_get_highlight (session);
      guint64 n_spans = 0;

      if (highlight == NULL)
        return FALSE;
      for (guint32 track = 0; track < ps_event_store_get_n_tracks (store); track++)
        n_spans += ps_span_lod_get_n_spans (highlight, track);
      if (n_spans == 0)
        return FALSE;
    }
  return TRUE;
}

/* A scope row of an RTL comparison highlights the calls of its function
 * in both runs: the scope's name is "module (author) function", which
 * read whole as a function matched no call and faded every scope */
static void
test_scope_row_highlights (Fixture       *fixture,
                           gconstpointer  data)
{
  g_auto(Files) files = { { NULL, NULL } };
  PsComparePage *page = open_kind (fixture, find_kind ("rtl"), files.files);
  GListModel *rows = ps_compare_page_get_rows (page);
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < g_list_model_get_n_items (rows) && position == GTK_INVALID_LIST_POSITION; i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);
      const PsRunDiffRow *row = ps_compare_row_get_row (item);

      if (g_strcmp0 (row->kind, "span") == 0 && row->has_a && row->has_b
          && g_str_has_suffix (row->name, "::webdav_ucp::DAVResourceAccess::GET"))
        position = i;
    }
  g_assert_cmpuint (position, !=, GTK_INVALID_LIST_POSITION);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (rows), position);
  g_assert_true (iterate_until (both_highlight, page));
  for (guint side = 0; side < 2; side++)
    g_assert_cmpstr (ps_session_get_highlight_description (ps_run_page_get_session (ps_compare_page_get_run_page (page, side))),
                     ==, "Calls of ::webdav_ucp::DAVResourceAccess::GET");
}

/* A CE run is charted over its sequence, an RTL run over time: zooming
 * one does not hand its range, in the other unit, to the other */
static void
test_sequence_and_time (Fixture       *fixture,
                        gconstpointer  data)
{
  g_auto(Files) files = { { NULL, NULL } };
  PsComparePage *page = open_kind (fixture, find_kind ("sequence-and-time"), files.files);
  PsRunPage *run_a = ps_compare_page_get_run_page (page, 0);
  PsRunPage *run_b = ps_compare_page_get_run_page (page, 1);
  PsTimelineView *timeline_a = ps_run_page_get_timeline_view (run_a);
  gint64 a_before[2], a_after[2], b_before[2], b_after[2];

  g_assert_true (iterate_until (timeline_view_is_ready, timeline_a));
  g_assert_true (iterate_until (timeline_view_is_ready, ps_run_page_get_timeline_view (run_b)));
  ps_session_get_visible_range (ps_run_page_get_session (run_a), &a_before[0], &a_before[1]);
  ps_session_get_visible_range (ps_run_page_get_session (run_b), &b_before[0], &b_before[1]);
  ps_timeline_view_zoom (timeline_a, 4.0, gtk_widget_get_width (GTK_WIDGET (timeline_a)) / 2.0);
  iterate_for (100);
  ps_session_get_visible_range (ps_run_page_get_session (run_a), &a_after[0], &a_after[1]);
  ps_session_get_visible_range (ps_run_page_get_session (run_b), &b_after[0], &b_after[1]);
  g_test_message ("A (sequence) %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT " → %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT
                  ", B (ns) %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT " → %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT,
                  a_before[0], a_before[1], a_after[0], a_after[1], b_before[0], b_before[1], b_after[0], b_after[1]);
  g_assert_cmpint (a_after[1] - a_after[0], <, a_before[1] - a_before[0]);
  g_assert_cmpint (b_after[0], ==, b_before[0]);
  g_assert_cmpint (b_after[1], ==, b_before[1]);
  g_assert_false (ps_compare_page_get_align_visible (page));
}

/* A mark with a long text chosen to align at does not widen the window */
static void
test_align_long_mark (Fixture       *fixture,
                      gconstpointer  data)
{
  g_auto(Files) files = { { NULL, NULL } };
  PsComparePage *page = open_kind (fixture, find_kind ("rtl"), files.files);
  PsEventStore *store = ps_run_page_get_store (ps_compare_page_get_run_page (page, 0));
  const char *longest = NULL;

  g_assert_true (ps_compare_page_get_align_visible (page));
  for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
    {
      const char *text = ps_event_store_get_string (store, ps_event_store_get_mark (store, i)->text);

      if (text != NULL && (longest == NULL || strlen (text) > strlen (longest)))
        longest = text;
    }
  g_assert_nonnull (longest);
  g_test_message ("longest mark: %zu bytes", strlen (longest));
  g_assert_cmpuint (strlen (longest), >, 40);
  g_assert_true (ps_compare_page_align_at (page, 0, longest));
  g_assert_true (ps_compare_page_align_at (page, 1, longest));
  iterate_for (300);
  /* Both runs are the same log, B a quarter slower: B's mark is later */
  g_assert_cmpfloat (ps_compare_page_get_offset_ms (page), >, 0);
  assert_window_fits (fixture);
  assert_equal_halves (page, ps_compare_page_get_stacked (page));
}


int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compare-kinds/%s", kinds[i].test);

      g_test_add (path, Fixture, &kinds[i], fixture_setup, test_kind, fixture_teardown);
    }
  ADD_TEST ("/compare-kinds/least-change", test_least_change);
  ADD_TEST ("/compare-kinds/profile-call-trees", test_profile_call_trees);
  ADD_TEST ("/compare-kinds/scope-row-highlights", test_scope_row_highlights);
  ADD_TEST ("/compare-kinds/align-long-mark", test_align_long_mark);
  ADD_TEST ("/compare-kinds/zoom-sequence-and-time", test_sequence_and_time);

  return gui_test_run ();
}
