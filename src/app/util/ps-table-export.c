/* ps-table-export.c — any table of the window as CSV
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 10 ("Tables"). The CSV is the engine's (ps-export-csv.h): RFC 4180,
 * CRLF line ends, numbers in their shortest round-trip form.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ps-export-csv.h"
#include "ps-file-output.h"
#include "ps-table-export.h"
#include "ps-save-location.h"
#include "ps-view-util.h"

#define COLUMN_KEY "ps-table-export-column"
#define VIEW_KEY "ps-table-export-view"

typedef struct
{
  char                   *name;
  char                   *unit;
  PsTableExportValueFunc  func;
  gpointer                user_data;
  GDestroyNotify          destroy;
} ColumnInfo;

typedef struct
{
  char                   *suggested_name;
  guint                   priority;
  PsTableExportWriteFunc  write;
  gpointer                user_data;
} ViewInfo;

static void
column_info_free (gpointer data)
{
  ColumnInfo *info = data;

  if (info->destroy != NULL)
    info->destroy (info->user_data);
  g_free (info->name);
  g_free (info->unit);
  g_free (info);
}

static void
view_info_free (gpointer data)
{
  ViewInfo *info = data;

  g_free (info->suggested_name);
  g_free (info);
}

void
ps_table_export_set_column (GtkColumnViewColumn    *column,
                            const char             *name,
                            const char             *unit,
                            PsTableExportValueFunc  func,
                            gpointer                user_data,
                            GDestroyNotify          destroy)
{
  ColumnInfo *info;

  g_return_if_fail (GTK_IS_COLUMN_VIEW_COLUMN (column));
  g_return_if_fail (func != NULL);

  info = g_new0 (ColumnInfo, 1);
  info->name = g_strdup (name);
  info->unit = g_strdup (unit);
  info->func = func;
  info->user_data = user_data;
  info->destroy = destroy;
  g_object_set_data_full (G_OBJECT (column), COLUMN_KEY, info, column_info_free);
}

void
ps_table_export_set_column_unit (GtkColumnViewColumn *column,
                                 const char          *unit)
{
  ColumnInfo *info = g_object_get_data (G_OBJECT (column), COLUMN_KEY);

  g_return_if_fail (info != NULL);

  g_free (info->unit);
  info->unit = g_strdup (unit);
}

void
ps_table_export_set_column_header (GtkColumnViewColumn *column,
                                   const char          *name,
                                   const char          *unit)
{
  ColumnInfo *info = g_object_get_data (G_OBJECT (column), COLUMN_KEY);

  g_return_if_fail (info != NULL);

  g_free (info->name);
  info->name = g_strdup (name);
  g_free (info->unit);
  info->unit = g_strdup (unit);
}

static void
add_value (PsCsvWriter  *csv,
           const GValue *value)
{
  if (!G_IS_VALUE (value))
    {
      ps_csv_writer_add_text (csv, NULL);
      return;
    }

  switch (G_VALUE_TYPE (value))
    {
    case G_TYPE_DOUBLE:
      ps_csv_writer_add_number (csv, g_value_get_double (value));
      break;
    case G_TYPE_FLOAT:
      ps_csv_writer_add_number (csv, g_value_get_float (value));
      break;
    case G_TYPE_INT:
      ps_csv_writer_add_int (csv, g_value_get_int (value));
      break;
    case G_TYPE_UINT:
      ps_csv_writer_add_int (csv, g_value_get_uint (value));
      break;
    case G_TYPE_INT64:
      ps_csv_writer_add_int (csv, g_value_get_int64 (value));
      break;
    case G_TYPE_UINT64:
      /* Past G_MAXINT64 only as a double */
      if (g_value_get_uint64 (value) > G_MAXINT64)
        ps_csv_writer_add_number (csv, (double)g_value_get_uint64 (value));
      else
        ps_csv_writer_add_int (csv, (gint64)g_value_get_uint64 (value));
      break;
    case G_TYPE_BOOLEAN:
      ps_csv_writer_add_text (csv, g_value_get_boolean (value) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      ps_csv_writer_add_text (csv, g_value_get_string (value));
      break;
    default:
      {
        GValue text = G_VALUE_INIT;

        g_value_init (&text, G_TYPE_STRING);
        if (g_value_transform (value, &text))
          ps_csv_writer_add_text (csv, g_value_get_string (&text));
        else
          ps_csv_writer_add_text (csv, NULL);
        g_value_unset (&text);
      }
      break;
    }
}

/* The columns written: the visible ones with a getter, in the order shown */
static GPtrArray *
exported_columns (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  GPtrArray *exported = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column)
          && g_object_get_data (G_OBJECT (column), COLUMN_KEY) != NULL)
        g_ptr_array_add (exported, g_steal_pointer (&column));
    }

  return exported;
}

static gboolean
write_table (GtkColumnView *view,
             GOutputStream *stream,
             GError       **error)
{
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(GPtrArray) columns = exported_columns (view);
  g_autoptr(PsCsvWriter) csv = ps_csv_writer_new (stream, NULL);
  gboolean is_tree = FALSE;
  guint n_rows = rows != NULL ? g_list_model_get_n_items (rows) : 0;

  if (n_rows > 0)
    {
      g_autoptr(GObject) first = g_list_model_get_item (rows, 0);

      is_tree = GTK_IS_TREE_LIST_ROW (first);
    }
  else if (rows != NULL)
    is_tree = g_list_model_get_item_type (rows) == GTK_TYPE_TREE_LIST_ROW;

  if (is_tree)
    ps_csv_writer_add_column (csv, "depth", NULL);
  for (guint i = 0; i < columns->len; i++)
    {
      GtkColumnViewColumn *column = g_ptr_array_index (columns, i);
      ColumnInfo *info = g_object_get_data (G_OBJECT (column), COLUMN_KEY);
      const char *name = info->name != NULL ? info->name : gtk_column_view_column_get_title (column);

      ps_csv_writer_add_column (csv, name != NULL ? name : "", info->unit);
    }
  ps_csv_writer_end_row (csv);

  for (guint row = 0; row < n_rows; row++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (rows, row);
      g_autoptr(GObject) item = NULL;

      if (GTK_IS_TREE_LIST_ROW (object))
        {
          ps_csv_writer_add_int (csv, gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (object)));
          item = gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (object));
        }
      else
        {
          if (is_tree)
            ps_csv_writer_add_int (csv, 0);
          item = g_steal_pointer (&object);
        }

      for (guint i = 0; i < columns->len; i++)
        {
          ColumnInfo *info = g_object_get_data (g_ptr_array_index (columns, i), COLUMN_KEY);
          GValue value = G_VALUE_INIT;

          if (item != NULL)
            info->func (item, &value, info->user_data);
          add_value (csv, &value);
          if (G_IS_VALUE (&value))
            g_value_unset (&value);
        }
      ps_csv_writer_end_row (csv);
    }

  return ps_csv_writer_finish (csv, error);
}

char *
ps_table_export_to_string (GtkColumnView *view,
                           GError       **error)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  GMemoryOutputStream *memory = G_MEMORY_OUTPUT_STREAM (stream);
  ViewInfo *info;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);

  info = g_object_get_data (G_OBJECT (view), VIEW_KEY);
  if (info != NULL && info->write != NULL)
    {
      GString *out = g_string_new (NULL);

      info->write (view, out, info->user_data);
      return g_string_free (out, FALSE);
    }

  if (!write_table (view, stream, error))
    return NULL;
  /* A terminating NUL, not part of the text */
  if (!g_output_stream_write_all (stream, "", 1, NULL, NULL, error)
      || !g_output_stream_close (stream, NULL, error))
    return NULL;
  return g_memory_output_stream_steal_data (memory);
}

gboolean
ps_table_export_to_file (GtkColumnView *view,
                         GFile         *file,
                         GError       **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  text = ps_table_export_to_string (view, error);
  if (text == NULL)
    return FALSE;
  /* A failed export leaves the old file whole (ps-file-output.h) */
  return ps_file_output_replace_contents (file, text, strlen (text), NULL, error);
}

/* The save dialog */

static void
show_export_error (GtkColumnView *view,
                   GFile         *file,
                   const GError  *error)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));
  g_autofree char *name = ps_view_file_display_path (file);
  g_autofree char *message = g_strdup_printf (_("Could not export the table to “%s”"), name);

  ps_view_show_error (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, message, error->message);
}

static void
export_to (GtkColumnView *view,
           GFile         *file)
{
  g_autoptr(GError) error = NULL;

  if (!ps_table_export_to_file (view, file, &error))
    show_export_error (view, file, error);
  else
    ps_view_announce_saved (GTK_WIDGET (view), file);
}

static GtkFileFilter *
create_csv_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_filter_add_mime_type (filter, "text/csv");
  return filter;
}

static char *
suggested_file_name (GtkColumnView *view)
{
  ViewInfo *info = g_object_get_data (G_OBJECT (view), VIEW_KEY);

  return ps_save_location_name (GTK_WIDGET (view),
                                info != NULL && info->suggested_name != NULL ? info->suggested_name : "table",
                                "csv");
}

static void
file_chosen_cb (GFile    *file,
                gpointer  user_data)
{
  export_to (GTK_COLUMN_VIEW (user_data), file);
}

void
ps_table_export_run_dialog (GtkColumnView *view)
{
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = create_csv_filter ();
  g_autoptr(GFile) folder = ps_save_location_folder (GTK_WIDGET (view));
  g_autofree char *name = suggested_file_name (view);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));

  g_list_store_append (filters, filter);
  ps_save_location_choose_file (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                &(PsSaveDialogOptions) {
                                  .title = _("Export Table as CSV"),
                                  .accept_label = _("_Export"),
                                  .initial_folder = folder,
                                  .initial_name = name,
                                  .filters = G_LIST_MODEL (filters),
                                },
                                file_chosen_cb, g_object_ref (view), g_object_unref);
}

/* The menu on the table */

static void
export_csv_activate (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  ps_table_export_run_dialog (GTK_COLUMN_VIEW (user_data));
}

static gboolean
unparent_popover_idle (gpointer user_data)
{
  GtkWidget *popover = user_data;

  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
  g_object_unref (popover);
  return G_SOURCE_REMOVE;
}

static void
popover_closed_cb (GtkPopover *popover)
{
  /* After the activated item's action has run */
  g_idle_add (unparent_popover_idle, g_object_ref (popover));
}

/* The table goes while its menu is open (its page closed): a child left
 * on a GtkColumnView is an error when it is finalized */
static void
view_destroyed_cb (GtkWidget *popover)
{
  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
}

static void
popup_menu (GtkColumnView *view,
            double         x,
            double         y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *popover;

  g_menu_append (menu, _("Export Table as CSV…"), "table.export-csv");
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (popover, GTK_WIDGET (view));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  ps_view_menu_quiets_tooltips (GTK_POPOVER (popover));
  if (x >= 0 && y >= 0)
    gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int)x, (int)y, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (popover_closed_cb), NULL);
  g_signal_connect_object (view, "destroy", G_CALLBACK (view_destroyed_cb), popover, G_CONNECT_SWAPPED);
  gtk_popover_popup (GTK_POPOVER (popover));
}

static void
secondary_pressed_cb (GtkGestureClick *gesture,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkColumnView   *view)
{
  popup_menu (view, x, y);
}

static gboolean
menu_key_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  popup_menu (GTK_COLUMN_VIEW (widget), -1, -1);
  return TRUE;
}

void
ps_table_export_attach (GtkColumnView *view,
                        const char    *suggested_name,
                        guint          priority)
{
  ps_table_export_attach_with_writer (view, suggested_name, priority, NULL, NULL);
}

void
ps_table_export_attach_with_writer (GtkColumnView          *view,
                                    const char             *suggested_name,
                                    guint                   priority,
                                    PsTableExportWriteFunc  write,
                                    gpointer                user_data)
{
  static const GActionEntry entries[] = {
    { .name = "export-csv", .activate = export_csv_activate },
  };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  ViewInfo *info = g_new0 (ViewInfo, 1);

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  info->suggested_name = g_strdup (suggested_name);
  info->priority = priority;
  info->write = write;
  info->user_data = user_data;
  g_object_set_data_full (G_OBJECT (view), VIEW_KEY, info, view_info_free);

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), view);
  gtk_widget_insert_action_group (GTK_WIDGET (view), "table", G_ACTION_GROUP (group));

  /* Rows and the header alike; the rows' own gestures still select */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (secondary_pressed_cb), view, 0);
  gtk_widget_add_controller (GTK_WIDGET (view), GTK_EVENT_CONTROLLER (click));

  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK),
                                                          gtk_callback_action_new (menu_key_cb, NULL, NULL)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                                          gtk_callback_action_new (menu_key_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (view), shortcuts);
}

gboolean
ps_table_export_is_attached (GtkColumnView *view)
{
  return g_object_get_data (G_OBJECT (view), VIEW_KEY) != NULL;
}

/* The shown table of the highest priority below widget */
static void
find_main_table (GtkWidget      *widget,
                 GtkColumnView **best,
                 guint          *best_priority)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_COLUMN_VIEW (widget))
    {
      ViewInfo *info = g_object_get_data (G_OBJECT (widget), VIEW_KEY);

      if (info != NULL && info->priority > *best_priority)
        {
          *best = GTK_COLUMN_VIEW (widget);
          *best_priority = info->priority;
        }
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    find_main_table (child, best, best_priority);
}

GtkColumnView *
ps_table_export_find (GtkWidget *root)
{
  GtkWidget *focus = GTK_IS_ROOT (root) ? gtk_root_get_focus (GTK_ROOT (root)) : NULL;
  GtkColumnView *best = NULL;
  guint best_priority = 0;

  for (GtkWidget *widget = focus; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      if (GTK_IS_COLUMN_VIEW (widget) && ps_table_export_is_attached (GTK_COLUMN_VIEW (widget)))
        return GTK_COLUMN_VIEW (widget);
    }

  /* The table of the page shown: mapped, as a hidden stack page is not */
  find_main_table (root, &best, &best_priority);
  return best;
}
