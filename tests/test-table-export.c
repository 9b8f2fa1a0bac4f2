/* test-table-export.c — every table of the window as CSV (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 10 ("Tables"): each table is exported through the function the
 * menu and win.export-table use, read back and checked against what the
 * view shows (rows, order, search) and against the CLI's goldens.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-ce-view-private.h"
#include "ps-compare-page-private.h"
#include "ps-counter-node.h"
#include "ps-counters-view-private.h"
#include "ps-marker-row.h"
#include "ps-rtl-view-private.h"
#include "ps-run-page-private.h"
#include "ps-table-export.h"
#include "ps-window-private.h"

#define RTL_MAIN "desktop (ab123456) ::desktop::Desktop::Main"

/* A parsed CSV: rows of fields (RFC 4180) */

typedef struct
{
  GPtrArray *header;  /* char * */
  GPtrArray *rows;    /* GPtrArray of char * */
} Table;

static void
table_free (Table *table)
{
  g_ptr_array_unref (table->header);
  g_ptr_array_unref (table->rows);
  g_free (table);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Table, table_free)

static Table *
parse_csv (const char *text)
{
  Table *table = g_new0 (Table, 1);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  GPtrArray *record = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  const char *p = text;
  gboolean field_started = FALSE;

  while (*p != '\0')
    {
      if (*p == '"' && field->len == 0 && !field_started)
        {
          p++;
          while (*p != '\0')
            {
              if (*p == '"' && p[1] == '"')
                {
                  g_string_append_c (field, '"');
                  p += 2;
                }
              else if (*p == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (field, *p++);
            }
          field_started = TRUE;
        }
      else if (*p == ',')
        {
          g_ptr_array_add (record, g_strdup (field->str));
          g_string_truncate (field, 0);
          field_started = FALSE;
          p++;
        }
      else if (*p == '\r' && p[1] == '\n')
        {
          g_ptr_array_add (record, g_strdup (field->str));
          g_string_truncate (field, 0);
          field_started = FALSE;
          g_ptr_array_add (records, record);
          record = g_ptr_array_new_with_free_func (g_free);
          p += 2;
        }
      else
        {
          /* Rows end with CRLF, never with a lone LF */
          g_assert_cmpint (*p, !=, '\n');
          g_string_append_c (field, *p++);
          field_started = TRUE;
        }
    }
  /* Every row, the last one too, ends with CRLF */
  g_assert_cmpuint (record->len, ==, 0);
  g_assert_cmpuint (field->len, ==, 0);
  g_ptr_array_unref (record);
  g_string_free (field, TRUE);

  g_assert_cmpuint (records->len, >=, 1);
  table->header = g_ptr_array_ref (g_ptr_array_index (records, 0));
  g_ptr_array_remove_index (records, 0);
  table->rows = g_ptr_array_ref (records);
  for (guint i = 0; i < table->rows->len; i++)
    g_assert_cmpuint (((GPtrArray *)g_ptr_array_index (table->rows, i))->len, ==, table->header->len);
  return table;
}

static int
column_index (Table      *table,
              const char *header)
{
  for (guint i = 0; i < table->header->len; i++)
    if (g_str_equal (g_ptr_array_index (table->header, i), header))
      return (int)i;
  return -1;
}

static const char *
cell (Table      *table,
      guint       row,
      const char *header)
{
  int column = column_index (table, header);

  if (column < 0)
    g_error ("No column “%s” in the export", header);
  g_assert_cmpuint (row, <, table->rows->len);
  return g_ptr_array_index ((GPtrArray *)g_ptr_array_index (table->rows, row), column);
}

static double
cell_number (Table      *table,
             guint       row,
             const char *header)
{
  const char *text = cell (table, row, header);
  char *end;
  double value;

  g_assert_cmpstr (text, !=, "");
  value = g_ascii_strtod (text, &end);
  g_assert_cmpstr (end, ==, "");
  return value;
}

/* The first row whose column header has value, or -1 */
static int
find_row (Table      *table,
          const char *header,
          const char *value)
{
  for (guint i = 0; i < table->rows->len; i++)
    if (g_str_equal (cell (table, i, header), value))
      return (int)i;
  return -1;
}

static void
assert_close (double value,
              double expected)
{
  g_assert_cmpfloat_with_epsilon (value, expected, fabs (expected) * 1e-9 + 1e-12);
}

/* Exports view through the testing entry point: a file, read back */
static Table *
export_table (Fixture       *fixture,
              GtkColumnView *view)
{
  g_autofree char *path = g_build_filename (fixture->tmpdir, "table.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  g_assert_true (ps_table_export_is_attached (view));
  g_assert_true (ps_table_export_to_file (view, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("%s", contents);
  return parse_csv (contents);
}

static Table *
load_golden (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "export", name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return parse_csv (contents);
}

static GtkColumnViewColumn *
find_column (GtkColumnView *view,
             const char    *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      const char *shown = gtk_column_view_column_get_title (column);

      /* The title, or the title with the unit the column shows: "Mean (ms)" */
      if (g_strcmp0 (shown, title) == 0
          || (shown != NULL && g_str_has_prefix (shown, title) && g_str_has_prefix (shown + strlen (title), " (")))
        return column;
    }
  return NULL;
}

/* The item of a row as shown, unwrapped from its GtkTreeListRow */
static gpointer
shown_item (GListModel *model,
            guint       position,
            guint      *depth)
{
  g_autoptr(GObject) item = g_list_model_get_item (model, position);

  if (GTK_IS_TREE_LIST_ROW (item))
    {
      if (depth != NULL)
        *depth = gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (item));
      return gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (item));
    }
  if (depth != NULL)
    *depth = 0;
  return g_steal_pointer (&item);
}

static guint
depth_of (Table *table,
          guint  row)
{
  return (guint)g_ascii_strtoull (cell (table, row, "depth"), NULL, 10);
}

/* The CE marker statistics */

static PsCeView *
open_fsperf (Fixture *fixture)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "ce", "fsperf_CEPC_x86_6_0_3122.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  return ps_run_page_get_ce_view (page);
}

static void
test_ce_statistics (Fixture       *fixture,
                    gconstpointer  data)
{
  PsCeView *view = open_fsperf (fixture);
  GtkColumnView *column_view = ps_ce_view_get_marker_view (view);
  GListModel *model = ps_ce_view_get_marker_model (view);
  g_autoptr(Table) golden = load_golden ("fsperf.csv");
  g_autoptr(Table) table = export_table (fixture, column_view);

  /* A tree: its depth first, then the columns as shown, units named */
  g_assert_cmpstr (g_ptr_array_index (table->header, 0), ==, "depth");
  g_assert_cmpstr (g_ptr_array_index (table->header, 1), ==, "Description");
  g_assert_cmpint (column_index (table, "App"), >, 0);
  g_assert_cmpint (column_index (table, "Count"), >, 0);
  g_assert_cmpint (column_index (table, "Min (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Mean (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Total (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Mean (ticks)"), >, 0);
  g_assert_cmpint (column_index (table, "Total (ticks)"), >, 0);
  /* The description keys the table shows as columns */
  g_assert_cmpint (column_index (table, "Bytes"), >, 0);

  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (model));
  g_assert_cmpuint (table->rows->len, ==, 4);
  for (guint i = 0; i < table->rows->len; i++)
    {
      guint depth;
      g_autoptr(PsMarkerRow) row = shown_item (model, i, &depth);
      int golden_row;

      g_assert_cmpstr (cell (table, i, "Description"), ==, ps_marker_row_get_name (row));
      g_assert_cmpuint (depth_of (table, i), ==, depth);

      /* The numbers of `perfscope-cli export --to csv` */
      golden_row = find_row (golden, "name", ps_marker_row_get_name (row));
      g_assert_cmpint (golden_row, >=, 0);
      g_assert_cmpstr (cell (table, i, "Count"), ==, cell (golden, golden_row, "count"));
      g_assert_cmpstr (cell (table, i, "App"), ==, cell (golden, golden_row, "app"));
      assert_close (cell_number (table, i, "Mean (s)"), cell_number (golden, golden_row, "mean"));
      assert_close (cell_number (table, i, "Min (s)"), cell_number (golden, golden_row, "min"));
      assert_close (cell_number (table, i, "Max (s)"), cell_number (golden, golden_row, "max"));
      assert_close (cell_number (table, i, "Total (s)"), cell_number (golden, golden_row, "sum"));
    }
  /* ce-perflog.md §6 */
  {
    int row = find_row (table, "Description", "Test=CreateFile,Files=100,time=%AVG%");

    g_assert_cmpint (row, >=, 0);
    g_assert_cmpstr (cell (table, row, "Total (ticks)"), ==, "136199");
    g_assert_cmpstr (cell (table, row, "Files"), ==, "100");
  }

  /* Sorted by the mean, longest first: the export follows */
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Mean"), GTK_SORT_DESCENDING);
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpuint (table->rows->len, ==, 4);
  g_assert_cmpstr (cell (table, 0, "Description"), ==, "Test=WriteFile,Bytes=65536,time=%AVG%");
  g_assert_cmpstr (cell (table, 3, "Description"), ==, "Test=WriteFile,Bytes=4096,time=%AVG%");
  for (guint i = 1; i < table->rows->len; i++)
    g_assert_cmpfloat (cell_number (table, i - 1, "Mean (s)"), >=, cell_number (table, i, "Mean (s)"));

  /* A hidden column is not exported */
  gtk_column_view_column_set_visible (find_column (column_view, "Median"), FALSE);
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpint (column_index (table, "Median (s)"), ==, -1);
  g_assert_cmpint (column_index (table, "Mean (s)"), >, 0);
}

/* The RTL totals and the scope tree */

static PsRtlView *
open_startup (Fixture    *fixture,
              const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  PsRtlView *view = ps_run_page_get_rtl_view (page);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (iterate_until (run_view_is_idle, view));
  return view;
}

static void
test_rtl_totals (Fixture       *fixture,
                 gconstpointer  data)
{
  PsRtlView *view = open_startup (fixture, "startup_4711.log");
  GtkColumnView *column_view = ps_rtl_view_get_totals_view (view);
  GListModel *model = ps_rtl_view_get_totals_model (view);
  g_autoptr(Table) golden = load_golden ("startup_4711.csv");
  g_autoptr(Table) table = NULL;

  ps_rtl_view_show_page (view, "totals");
  table = export_table (fixture, column_view);

  /* A flat list: no depth */
  g_assert_cmpint (column_index (table, "depth"), ==, -1);
  g_assert_cmpstr (g_ptr_array_index (table->header, 0), ==, "Name");
  g_assert_cmpint (column_index (table, "Calls"), >, 0);
  g_assert_cmpint (column_index (table, "Total (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Exclusive (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Excluded"), >, 0);

  g_assert_cmpuint (table->rows->len, ==, 9);
  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (model));
  for (guint i = 0; i < table->rows->len; i++)
    {
      g_autoptr(PsScopeTotalRow) row = shown_item (model, i, NULL);
      int golden_row = find_row (golden, "name", ps_scope_total_row_get_name (row));

      g_assert_cmpstr (cell (table, i, "Name"), ==, ps_scope_total_row_get_name (row));
      g_assert_cmpint (golden_row, >=, 0);
      g_assert_cmpstr (cell (table, i, "Context"), ==, cell (golden, golden_row, "context"));
      g_assert_cmpstr (cell (table, i, "Calls"), ==, cell (golden, golden_row, "count"));
      assert_close (cell_number (table, i, "Total (s)"), cell_number (golden, golden_row, "sum (s)"));
      assert_close (cell_number (table, i, "Mean (s)"), cell_number (golden, golden_row, "mean (s)"));
      assert_close (cell_number (table, i, "Exclusive (s)"), cell_number (golden, golden_row, "self_sum (s)"));
    }
  {
    int row = find_row (table, "Name", RTL_MAIN);

    g_assert_cmpint (row, >=, 0);
    g_assert_cmpstr (cell (table, row, "Total (s)"), ==, "2.007");
    g_assert_cmpstr (cell (table, row, "Exclusive (s)"), ==, "1.037");
  }

  /* Sorted by total time: the export follows */
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Total"), GTK_SORT_DESCENDING);
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpstr (cell (table, 0, "Name"), ==, RTL_MAIN);
  g_assert_cmpstr (cell (table, 8, "Name"), ==, "configmgr (ij778899) ::configmgr::Provider::create");
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Total"), GTK_SORT_ASCENDING);
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpstr (cell (table, 0, "Name"), ==, "configmgr (ij778899) ::configmgr::Provider::create");

  /* A search: only the matching rows */
  gtk_editable_set_text (ps_run_view_get_search_entry (PS_RUN_VIEW (view)), "LOAD");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_cmpuint (table->rows->len, ==, 2);
  for (guint i = 0; i < table->rows->len; i++)
    {
      g_autoptr(PsScopeTotalRow) row = shown_item (model, i, NULL);
      g_autofree char *name = g_utf8_strdown (cell (table, i, "Name"), -1);

      g_assert_cmpstr (cell (table, i, "Name"), ==, ps_scope_total_row_get_name (row));
      g_assert_nonnull (strstr (name, "load"));
    }
}

static void
assert_scopes_as_shown (Table      *table,
                        GListModel *model)
{
  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (model));
  for (guint i = 0; i < table->rows->len; i++)
    {
      guint depth;
      g_autoptr(PsScopeRow) row = shown_item (model, i, &depth);

      g_assert_cmpstr (cell (table, i, "Name"), ==, ps_scope_row_get_name (row));
      g_assert_cmpuint (depth_of (table, i), ==, depth);
    }
}

static void
test_rtl_scopes (Fixture       *fixture,
                 gconstpointer  data)
{
  PsRtlView *view = open_startup (fixture, "startup_4711.log");
  GtkColumnView *column_view = ps_rtl_view_get_scope_view (view);
  GListModel *model = ps_rtl_view_get_scope_model (view);
  g_autoptr(Table) table = export_table (fixture, column_view);
  guint n_collapsed;
  int row;

  g_assert_cmpstr (g_ptr_array_index (table->header, 0), ==, "depth");
  g_assert_cmpstr (g_ptr_array_index (table->header, 1), ==, "Name");
  g_assert_cmpint (column_index (table, "Begin (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Duration (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Exclusive (s)"), >, 0);
  g_assert_cmpint (column_index (table, "Line"), >, 0);
  assert_scopes_as_shown (table, model);
  n_collapsed = table->rows->len;

  /* A row opened: its children are exported below it, one level deeper */
  row = -1;
  for (guint i = 0; i < g_list_model_get_n_items (model) && row < 0; i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);

      if (gtk_tree_list_row_is_expandable (tree_row) && !gtk_tree_list_row_get_expanded (tree_row))
        {
          gtk_tree_list_row_set_expanded (tree_row, TRUE);
          row = (int)i;
        }
    }
  g_assert_cmpint (row, >=, 0);
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpuint (table->rows->len, >, n_collapsed);
  g_assert_cmpuint (depth_of (table, row + 1), ==, depth_of (table, row) + 1);
  assert_scopes_as_shown (table, model);

  /* The main scope of the log: 2.007 s, 1.037 s of its own */
  row = find_row (table, "Name", RTL_MAIN);
  if (row < 0)
    {
      /* Under its thread: open every row until it is shown */
      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);

          gtk_tree_list_row_set_expanded (tree_row, TRUE);
        }
      g_clear_pointer (&table, table_free);
      table = export_table (fixture, column_view);
      row = find_row (table, "Name", RTL_MAIN);
    }
  g_assert_cmpint (row, >=, 0);
  g_assert_cmpstr (cell (table, row, "Duration (s)"), ==, "2.007");
  g_assert_cmpstr (cell (table, row, "Exclusive (s)"), ==, "1.037");

  /* A search: the matching scopes and messages only */
  gtk_editable_set_text (ps_run_view_get_search_entry (PS_RUN_VIEW (view)), "LOAD");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpuint (table->rows->len, ==, 3);
  assert_scopes_as_shown (table, model);
  g_assert_cmpstr (cell (table, 0, "Name"), ==, "PERFORMANCE SfxObjectShell::DoLoad");
}

/* The call tree: top-down as an indented tree, the flat function list */

static void
assert_calls_as_shown (Table      *table,
                       GListModel *model)
{
  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (model));
  for (guint i = 0; i < table->rows->len; i++)
    {
      guint depth;
      g_autoptr(PsCallNodeRow) row = shown_item (model, i, &depth);

      g_assert_cmpstr (cell (table, i, "Function"), ==, ps_call_node_row_get_name (row));
      g_assert_cmpuint (depth_of (table, i), ==, depth);
    }
}

static void
test_call_tree (Fixture       *fixture,
                gconstpointer  data)
{
  PsRtlView *rtl_view = open_startup (fixture, "calltree_4711.log");
  PsCallTreeView *view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (rtl_view));
  GtkColumnView *column_view = ps_call_tree_view_get_column_view (view);
  GListModel *model = ps_call_tree_view_get_model (view);
  g_autoptr(Table) golden = load_golden ("calltree_4711.tree.csv");
  g_autoptr(Table) table = NULL;
  int row, golden_row;

  ps_rtl_view_show_page (rtl_view, "calltree");
  g_assert_true (iterate_until (widget_is_drawn, view));
  g_assert_true (iterate_until (call_tree_is_idle, view));
  g_assert_cmpstr (ps_call_tree_view_get_mode (view), ==, "top-down");

  /* Every row open: the whole tree, as the golden has it */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);

      gtk_tree_list_row_set_expanded (tree_row, TRUE);
    }
  table = export_table (fixture, column_view);
  g_assert_cmpstr (g_ptr_array_index (table->header, 0), ==, "depth");
  g_assert_cmpstr (g_ptr_array_index (table->header, 1), ==, "Function");
  g_assert_cmpint (column_index (table, "Calls"), >, 0);
  g_assert_cmpint (column_index (table, "Elapsed inclusive (ms)"), >, 0);
  g_assert_cmpint (column_index (table, "Elapsed inclusive (%)"), >, 0);
  g_assert_cmpint (column_index (table, "Application exclusive (ms)"), >, 0);
  assert_calls_as_shown (table, model);
  g_assert_cmpuint (table->rows->len, ==, golden->rows->len);

  /* The golden's values in ns, the table's in ms */
  for (guint i = 0; i < golden->rows->len; i++)
    {
      guint golden_depth = (guint)g_ascii_strtoull (cell (golden, i, "depth"), NULL, 10);

      g_assert_cmpstr (cell (table, i, "Function"), ==, cell (golden, i, "name"));
      g_assert_cmpuint (depth_of (table, i) + 1, ==, golden_depth);
      g_assert_cmpstr (cell (table, i, "Calls"), ==, cell (golden, i, "calls"));
      assert_close (cell_number (table, i, "Elapsed inclusive (ms)"),
                    cell_number (golden, i, "elapsed_inclusive (ns)") / 1e6);
      assert_close (cell_number (table, i, "Elapsed exclusive (ms)"),
                    cell_number (golden, i, "elapsed_exclusive (ns)") / 1e6);
      assert_close (cell_number (table, i, "Elapsed inclusive (%)"),
                    cell_number (golden, i, "elapsed_inclusive_pct (%)"));
    }
  row = find_row (table, "Function", "::main");
  golden_row = find_row (golden, "name", "::main");
  g_assert_cmpint (row, >=, 0);
  g_assert_cmpint (golden_row, >=, 0);
  g_assert_cmpstr (cell (table, row, "Elapsed inclusive (ms)"), ==, "140");

  /* The flat function list */
  ps_call_tree_view_set_mode (view, "functions");
  g_assert_true (iterate_until (call_tree_is_idle, view));
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  assert_calls_as_shown (table, model);
  for (guint i = 0; i < table->rows->len; i++)
    g_assert_cmpuint (depth_of (table, i), ==, 0);
}

/* The counters' statistics */

static gboolean
counters_have_stats (gpointer data)
{
  return g_list_model_get_n_items (ps_counters_view_get_stats_model (data)) > 0;
}

static void
test_counters (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "perflib-plv2", "processor-2cpu.plv2", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCountersView *view = ps_run_page_get_counters_view (page);
  GtkColumnView *column_view = ps_counters_view_get_stats_view (view);
  GListModel *model = ps_counters_view_get_stats_model (view);
  g_autoptr(Table) golden = load_golden ("processor-2cpu.csv");
  g_autoptr(Table) table = NULL;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  ps_counters_view_update_now (view);
  g_assert_true (iterate_until (counters_have_stats, view));
  table = export_table (fixture, column_view);

  g_assert_cmpint (column_index (table, "Counter"), >=, 0);
  g_assert_cmpint (column_index (table, "Unit"), >=, 0);
  g_assert_cmpint (column_index (table, "Count"), >=, 0);
  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (model));
  g_assert_cmpuint (table->rows->len, >, 0);

  for (guint i = 0; i < table->rows->len; i++)
    {
      g_autoptr(PsCounterNode) node = shown_item (model, i, NULL);
      const char *unit = cell (table, i, "Unit");
      g_autofree char *min_header = g_strdup_printf ("Min (%s)", unit);
      g_autofree char *mean_header = g_strdup_printf ("Mean (%s)", unit);
      int golden_row = -1;

      g_assert_cmpstr (cell (table, i, "Counter"), ==, ps_counter_node_get_label (node));
      /* The counters shown share their unit: the headers name it */
      g_assert_cmpint (column_index (table, min_header), >, 0);
      for (guint j = 0; j < golden->rows->len && golden_row < 0; j++)
        if (g_str_equal (cell (golden, j, "counter"), cell (table, i, "Counter"))
            && g_str_equal (cell (golden, j, "instance"), cell (table, i, "Instance")))
          golden_row = (int)j;
      g_assert_cmpint (golden_row, >=, 0);
      g_assert_cmpstr (unit, ==, cell (golden, golden_row, "unit"));
      g_assert_cmpstr (cell (table, i, "Count"), ==, cell (golden, golden_row, "count"));
      g_assert_cmpstr (cell (table, i, "Missing"), ==, cell (golden, golden_row, "missing"));
      assert_close (cell_number (table, i, min_header), cell_number (golden, golden_row, "min"));
      assert_close (cell_number (table, i, mean_header), cell_number (golden, golden_row, "mean"));
    }
}

/* The comparison table: the CSV of its own Export */

static gboolean
compare_page_is_ready (gpointer data)
{
  return ps_compare_page_is_ready (PS_COMPARE_PAGE (data));
}

static void
test_compare (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path_a = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-a.log", NULL);
  g_autofree char *path_b = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-b.log", NULL);
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);
  GtkColumnView *column_view;
  GListModel *rows;
  g_autoptr(Table) table = NULL;
  g_autofree char *csv = NULL;
  guint n_all;

  g_assert_true (iterate_until (compare_page_is_ready, page));
  iterate_for (50);
  column_view = ps_compare_page_get_column_view (page);
  rows = ps_compare_page_get_rows (page);
  table = export_table (fixture, column_view);
  csv = ps_compare_page_dup_csv (page);
  {
    g_autoptr(Table) same = parse_csv (csv);

    g_assert_cmpuint (same->header->len, ==, table->header->len);
    g_assert_cmpuint (same->rows->len, ==, table->rows->len);
  }
  g_assert_cmpint (column_index (table, "name"), >=, 0);
  g_assert_cmpint (column_index (table, "unit"), >=, 0);
  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (rows));
  g_assert_cmpuint (table->rows->len, >, 0);
  n_all = table->rows->len;

  /* Sorted by name, descending: the export follows */
  ps_compare_page_sort_by (page, "name", GTK_SORT_DESCENDING);
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  for (guint i = 1; i < table->rows->len; i++)
    g_assert_cmpint (g_utf8_collate (cell (table, i - 1, "name"), cell (table, i, "name")), >=, 0);

  /* A search: the matching rows only */
  ps_compare_page_set_search (page, "LOAD");
  g_clear_pointer (&table, table_free);
  table = export_table (fixture, column_view);
  g_assert_cmpuint (table->rows->len, ==, g_list_model_get_n_items (rows));
  g_assert_cmpuint (table->rows->len, <, n_all);
  for (guint i = 0; i < table->rows->len; i++)
    {
      g_autofree char *name = g_utf8_strdown (cell (table, i, "name"), -1);

      g_assert_nonnull (strstr (name, "load"));
    }

  /* win.export-table prefers it to the tables of the two runs beside it */
  g_assert_true (ps_table_export_find (GTK_WIDGET (fixture->window)) == column_view);
}

/* The menu shown on the table, or NULL */
static GtkPopoverMenu *
shown_table_menu (GtkWidget *view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (view);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child) && gtk_widget_get_visible (child))
      return GTK_POPOVER_MENU (child);
  return NULL;
}

static void
assert_table_menu (GtkWidget *view)
{
  GtkPopoverMenu *menu = shown_table_menu (view);
  GMenuModel *model;
  g_autofree char *label = NULL;
  g_autofree char *action = NULL;

  g_assert_nonnull (menu);
  model = gtk_popover_menu_get_menu_model (menu);
  g_assert_cmpint (g_menu_model_get_n_items (model), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_true (g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action));
  g_assert_cmpstr (label, ==, "Export Table as CSV…");
  g_assert_cmpstr (action, ==, "table.export-csv");
  gtk_popover_popdown (GTK_POPOVER (menu));
  iterate_for (50);
  g_assert_null (shown_table_menu (view));
}

static gboolean
write_table (GFile    *file,
             gpointer  view,
             GError  **error)
{
  return ps_table_export_to_file (view, file, error);
}

/* An export that fails half-way (the process's file size limit stands in
 * for a full disk) leaves the file that was there, and nothing beside it */
static void
test_write_failure (Fixture       *fixture,
                    gconstpointer  data)
{
  PsCeView *view = open_fsperf (fixture);
  GtkColumnView *marker_view = ps_ce_view_get_marker_view (view);
  g_autofree char *path = g_build_filename (fixture->tmpdir, "kept.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *table = ps_table_export_to_string (marker_view, NULL);

  g_assert_cmpuint (strlen (table), >, 256);
  assert_failed_write_keeps (path, 256, write_table, marker_view);

  /* With room again, the export replaces it */
  g_assert_true (ps_table_export_to_file (marker_view, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, table);
}

/* Right click, Shift+F10 and the Menu key open the table's menu */
static void
test_table_menu (Fixture       *fixture,
                 gconstpointer  data)
{
  PsCeView *view = open_fsperf (fixture);
  GtkWidget *column_view = GTK_WIDGET (ps_ce_view_get_marker_view (view));
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (column_view);
  gboolean clicked = FALSE;
  guint n_keys = 0;

  g_assert_true (iterate_until (widget_is_drawn, column_view));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller)
          && gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == GDK_BUTTON_SECONDARY)
        {
          g_assert_null (shown_table_menu (column_view));
          g_signal_emit_by_name (controller, "pressed", 1, 20.0, 20.0);
          iterate_for (50);
          assert_table_menu (column_view);
          clicked = TRUE;
        }
      else if (GTK_IS_SHORTCUT_CONTROLLER (controller))
        {
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

              if (!g_str_equal (trigger, "<Shift>F10") && !g_str_equal (trigger, "Menu"))
                continue;
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0,
                                                           column_view, NULL));
              iterate_for (50);
              assert_table_menu (column_view);
              n_keys++;
            }
        }
    }
  g_assert_true (clicked);
  g_assert_cmpuint (n_keys, ==, 2);
}

/* Ctrl+Shift+E and the table it exports */

static void
test_action (Fixture       *fixture,
             gconstpointer  data)
{
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (fixture->app), "win.export-table");
  PsRtlView *view;
  GtkColumnView *shown;

  g_assert_nonnull (accels);
  g_assert_true (g_strv_contains ((const char * const *)accels, "<Shift><Control>e")
                 || g_strv_contains ((const char * const *)accels, "<Control><Shift>e"));

  /* Without a table that has the focus: the current page's main table */
  view = open_startup (fixture, "startup_4711.log");
  ps_rtl_view_show_page (view, "totals");
  iterate_for (100);
  gtk_window_set_focus (GTK_WINDOW (fixture->window), NULL);
  shown = ps_table_export_find (GTK_WIDGET (fixture->window));
  g_assert_true (shown == ps_rtl_view_get_totals_view (view));

  /* With the focus in a table: that one */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (ps_rtl_view_get_totals_view (view))));
  g_assert_true (ps_table_export_find (GTK_WIDGET (fixture->window)) == ps_rtl_view_get_totals_view (view));

  /* The action asks where to save */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.export-table", NULL));
  iterate_for (200);
  {
    GtkWidget *dialog = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);

    if (dialog != NULL)
      {
        g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Export Table as CSV");
        gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
        iterate_for (100);
      }
  }

  /* The table's own menu item does too */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (ps_rtl_view_get_scope_view (view)), "table.export-csv", NULL));
  iterate_for (200);
  {
    GtkWidget *dialog = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);

    if (dialog != NULL)
      {
        g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Export Table as CSV");
        gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
        iterate_for (100);
      }
  }
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/table-export/ce-statistics", test_ce_statistics);
  ADD_TEST ("/table-export/rtl-totals", test_rtl_totals);
  ADD_TEST ("/table-export/rtl-scopes", test_rtl_scopes);
  ADD_TEST ("/table-export/call-tree", test_call_tree);
  ADD_TEST ("/table-export/counters", test_counters);
  ADD_TEST ("/table-export/compare", test_compare);
  ADD_TEST ("/table-export/action", test_action);
  ADD_TEST ("/table-export/table-menu", test_table_menu);
  ADD_TEST ("/table-export/write-failure", test_write_failure);

  return gui_test_run ();
}
