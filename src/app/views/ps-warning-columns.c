/* ps-warning-columns.c — the columns of a table of PsWarningRow items
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "ps-view-util.h"
#include "ps-warning-columns.h"
#include "ps-warning-row.h"

typedef enum
{
  WARNING_COLUMN_SEVERITY,
  WARNING_COLUMN_LINE,
  WARNING_COLUMN_CODE,
  WARNING_COLUMN_MESSAGE,
} WarningColumn;

/* The whole message, which the cell may cut short */
static char *
message_tooltip (gpointer item,
                 guint    column,
                 gpointer user_data)
{
  return ps_view_group_counts (ps_warning_row_get_message (PS_WARNING_ROW (item)));
}

static void
warning_cell_setup (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    gpointer                  user_data)
{
  WarningColumn column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = ps_view_cell_label_new (column == WARNING_COLUMN_LINE);

  if (column == WARNING_COLUMN_CODE)
    gtk_widget_add_css_class (label, "monospace");
  if (column == WARNING_COLUMN_MESSAGE)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      ps_view_cell_set_tooltip (label, list_item, column, message_tooltip, NULL);
    }

  if (column == WARNING_COLUMN_SEVERITY)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      /* The severity's word follows: the icon is not read */
      gtk_box_append (GTK_BOX (box), g_object_new (GTK_TYPE_IMAGE,
                                                   "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                                   NULL));
      gtk_box_append (GTK_BOX (box), label);
      gtk_list_item_set_child (list_item, box);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
warning_cell_bind (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   gpointer                  user_data)
{
  WarningColumn column = GPOINTER_TO_UINT (user_data);
  PsWarningRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  switch (column)
    {
    case WARNING_COLUMN_SEVERITY:
      {
        static const char *icons[] = {
          "dialog-information-symbolic", "dialog-warning-symbolic", "dialog-error-symbolic",
        };
        static const char *css_classes[] = { "dim-label", "warning", "error" };
        PsSeverity severity = MIN (ps_warning_row_get_severity (row), PS_SEVERITY_ERROR);
        GtkWidget *image = gtk_widget_get_first_child (child);
        const char *names[] = { css_classes[severity], NULL };

        gtk_image_set_from_icon_name (GTK_IMAGE (image), icons[severity]);
        gtk_widget_set_css_classes (image, names);
        switch (severity)
          {
          case PS_SEVERITY_INFO:
            text = g_strdup (C_("severity", "Info"));
            break;
          case PS_SEVERITY_WARNING:
            text = g_strdup (C_("severity", "Warning"));
            break;
          case PS_SEVERITY_ERROR:
          default:
            text = g_strdup (C_("severity", "Error"));
            break;
          }
        child = gtk_widget_get_last_child (child);
      }
      break;

    case WARNING_COLUMN_LINE:
      if (ps_warning_row_get_line (row) > 0)
        text = g_strdup_printf ("%" PRIu64, ps_warning_row_get_line (row));
      else if (ps_warning_row_get_offset (row) != PS_NO_POSITION)
        /* Translators: a position in a binary file */
        text = g_strdup_printf (_("byte 0x%llx"), (unsigned long long) ps_warning_row_get_offset (row));
      else
        text = g_strdup ("–");
      break;

    case WARNING_COLUMN_CODE:
      text = g_strdup (ps_warning_row_get_code (row));
      break;

    case WARNING_COLUMN_MESSAGE:
      /* The engine's text, which the CLI prints, with its counts grouped */
      text = message_tooltip (row, column, NULL);
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_label_set_text (GTK_LABEL (child), text != NULL ? text : "");
}

void
ps_warning_columns_add (GtkColumnView *view)
{
  static const struct {
    const char    *title;
    WarningColumn  column;
  } columns[] = {
    { N_("Severity"), WARNING_COLUMN_SEVERITY },
    { N_("Line"), WARNING_COLUMN_LINE },
    { N_("Code"), WARNING_COLUMN_CODE },
    { N_("Message"), WARNING_COLUMN_MESSAGE },
  };

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_signal_connect (factory, "setup", G_CALLBACK (warning_cell_setup),
                        GUINT_TO_POINTER (columns[i].column));
      g_signal_connect (factory, "bind", G_CALLBACK (warning_cell_bind),
                        GUINT_TO_POINTER (columns[i].column));

      column = gtk_column_view_column_new (_(columns[i].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, columns[i].column == WARNING_COLUMN_MESSAGE);
      gtk_column_view_append_column (view, column);
    }
}
