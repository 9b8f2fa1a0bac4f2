/* ps-table-export.h — any table of the window as CSV
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 10 ("Tables"). A view registers, per column of a GtkColumnView,
 * how to read a row's value as text or as a number and the unit of that
 * number; the export then writes exactly the rows the column view shows
 * (its model with the filters, the search and the sort applied), in the
 * order shown, through the engine's CSV writer. Numbers are plain numbers
 * in their unit, not the display strings; header cells are the titles of
 * the visible columns as shown, with the unit ("Mean (s)"). A tree is
 * written as shown: the rows that are visible (the children of expanded
 * rows only), each with its depth in a first "depth" column, 0 for the
 * top level.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets value to the cell of item in one column: initialised as a string,
 * a double or an integer type; left unset for an empty field. The item is
 * the row object, not the GtkTreeListRow around it. */
typedef void (*PsTableExportValueFunc) (GObject  *item,
                                        GValue   *value,
                                        gpointer  user_data);

/* name: the header cell (NULL: the column's title); unit: of the numbers
 * in the column, NULL for text. The column is left out of the export
 * while it is hidden. */
void           ps_table_export_set_column (GtkColumnViewColumn    *column,
                                           const char             *name,
                                           const char             *unit,
                                           PsTableExportValueFunc  func,
                                           gpointer                user_data,
                                           GDestroyNotify          destroy);
/* Changes the unit of a column already registered (a series with other
 * units selected) */
void           ps_table_export_set_column_unit (GtkColumnViewColumn *column,
                                                const char          *unit);
/* Changes the header cell of a column already registered: name and unit */
void           ps_table_export_set_column_header (GtkColumnViewColumn *column,
                                                  const char          *name,
                                                  const char          *unit);

/* Appends the CSV of a table that has its own writer */
typedef void (*PsTableExportWriteFunc) (GtkColumnView *view,
                                        GString       *out,
                                        gpointer       user_data);

/* Offers "Export Table as CSV…" on view: a menu on right click on a row
 * or on the header, on Shift+F10 and on the Menu key; the table.export-csv
 * action. priority: of the tables shown, win.export-table exports the one
 * with the highest when no table has the focus, 0 for never.
 * suggested_name: the file name the save dialog offers, without ".csv"
 * (NULL: "table"). */
void           ps_table_export_attach     (GtkColumnView *view,
                                           const char    *suggested_name,
                                           guint          priority);
/* The same, for a table whose CSV another module writes (the comparison
 * table, with the columns of its own export) */
void           ps_table_export_attach_with_writer (GtkColumnView          *view,
                                                   const char             *suggested_name,
                                                   guint                   priority,
                                                   PsTableExportWriteFunc  write,
                                                   gpointer                user_data);
gboolean       ps_table_export_is_attached (GtkColumnView *view);

/* The table that has the focus in root, else the main table shown in it
 * (NULL: none) */
GtkColumnView *ps_table_export_find       (GtkWidget     *root);

/* The CSV of view as it is shown */
char          *ps_table_export_to_string  (GtkColumnView *view,
                                           GError       **error);
/* Writes it to file, replacing it through a temporary file */
gboolean       ps_table_export_to_file    (GtkColumnView *view,
                                           GFile         *file,
                                           GError       **error);
/* Asks where, then writes */
void           ps_table_export_run_dialog (GtkColumnView *view);

G_END_DECLS
