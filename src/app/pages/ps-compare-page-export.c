/* ps-compare-page-export.c — a comparison written out, and rows matched
 * by hand
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The actions of the table's menu: Export as CSV… and Copy Markdown
 * Summary write the shown rows as perfscope-cli diff does
 * (ps-compare-export.h), and Match With… pairs a row of A only with a row
 * of B only, the runs then compared again with that rename. Apart from
 * the table (ps-compare-page-table.c) as what leaves the page or changes
 * the comparison, not what it shows.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-compare-row.h"
#include "ps-file-output.h"
#include "ps-save-location.h"
#include "ps-view-util.h"

#define MARKDOWN_MAX_ROWS 10

/* Export */

static GPtrArray *
shown_rows (PsComparePage *self)
{
  GListModel *model = G_LIST_MODEL (self->sorted);
  guint n_items = g_list_model_get_n_items (model);
  GPtrArray *rows = g_ptr_array_new_full (n_items, g_object_unref);

  for (guint i = 0; i < n_items; i++)
    g_ptr_array_add (rows, g_list_model_get_item (model, i));
  return rows;
}

static void
append_shown_csv (PsComparePage *self,
                  GString       *out)
{
  g_autoptr(GPtrArray) items = shown_rows (self);
  g_autofree const PsRunDiffRow **rows = g_new0 (const PsRunDiffRow *, items->len + 1);

  for (guint i = 0; i < items->len; i++)
    rows[i] = ps_compare_row_get_row (g_ptr_array_index (items, i));
  ps_compare_export_csv (out, rows, items->len);
}

/* The table's menu and win.export-table write the same CSV as Export */
void
ps_compare_page_write_table_csv (GtkColumnView *view,
                                 GString       *out,
                                 gpointer       user_data)
{
  append_shown_csv (PS_COMPARE_PAGE (user_data), out);
}

char *
ps_compare_page_dup_csv (PsComparePage *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);

  append_shown_csv (self, out);
  return g_string_free (out, FALSE);
}

char *
ps_compare_page_dup_markdown (PsComparePage *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);

  if (self->diff != NULL)
    ps_compare_export_markdown (out,
                                self->side_names[0],
                                self->side_names[1],
                                self->diff->matched,
                                (const PsRunDiffRow * const *)self->diff->rows->pdata,
                                self->diff->rows->len,
                                MARKDOWN_MAX_ROWS);
  return g_string_free (out, FALSE);
}

typedef struct
{
  PsComparePage *page;
  GFile         *file;
} CsvSave;

static void
save_csv_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  CsvSave *save = user_data;
  g_autoptr(GError) error = NULL;

  if (!ps_file_output_replace_contents_finish (result, &error))
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (save->page));

      if (GTK_IS_WINDOW (root))
        ps_view_show_write_error (GTK_WINDOW (root), _("Could Not Export the Comparison"), save->file, error);
    }
  else
    ps_view_announce_saved (GTK_WIDGET (save->page), save->file);
  g_object_unref (save->page);
  g_object_unref (save->file);
  g_free (save);
}

static void
save_csv_to (PsComparePage *self,
             GFile         *file)
{
  char *csv = ps_compare_page_dup_csv (self);
  g_autoptr(GBytes) contents = g_bytes_new_take (csv, strlen (csv));
  CsvSave *save = g_new0 (CsvSave, 1);

  save->page = g_object_ref (self);
  save->file = g_object_ref (file);
  ps_file_output_replace_contents_async (file, contents, NULL, save_csv_cb, save);
}

static void
csv_file_chosen_cb (GFile    *file,
                    gpointer  user_data)
{
  save_csv_to (PS_COMPARE_PAGE (user_data), file);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);
  g_autoptr(GFile) folder = ps_save_location_folder (widget);
  g_autofree char *name = ps_save_location_name (widget, NULL, "csv");
  GtkRoot *root = gtk_widget_get_root (widget);

  ps_save_location_choose_file (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                &(PsSaveDialogOptions) {
                                  .title = _("Export Comparison as CSV"),
                                  .accept_label = _("_Export"),
                                  .initial_folder = folder,
                                  .initial_name = name,
                                },
                                csv_file_chosen_cb, g_object_ref (self), g_object_unref);
}

static void
copy_markdown_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  g_autofree char *markdown = ps_compare_page_dup_markdown (PS_COMPARE_PAGE (widget));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), markdown);
}

/* Matching renamed rows by hand */

void
ps_compare_page_match_rows (PsComparePage *self,
                            const char    *a_name,
                            const char    *b_name)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  g_return_if_fail (a_name != NULL && b_name != NULL);

  g_hash_table_replace (self->renames, g_strdup (a_name), g_strdup (b_name));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.clear-matches", TRUE);
  if (self->diffed_stores[0] != NULL && self->diffed_stores[1] != NULL)
    {
      ps_compare_page_set_ready (self, FALSE);
      ps_compare_page_start_diff (self);
    }
}

static void
clear_matches_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);

  g_hash_table_remove_all (self->renames);
  gtk_widget_action_set_enabled (widget, "compare.clear-matches", FALSE);
  if (self->diffed_stores[0] != NULL && self->diffed_stores[1] != NULL)
    {
      ps_compare_page_set_ready (self, FALSE);
      ps_compare_page_start_diff (self);
    }
}

static void
match_activated_cb (GtkListBox    *list,
                    GtkListBoxRow *list_row,
                    GtkWindow     *dialog)
{
  PsComparePage *self = g_object_get_data (G_OBJECT (dialog), "ps-page");
  const char *a_name = g_object_get_data (G_OBJECT (dialog), "ps-a-name");
  const char *b_name = g_object_get_data (G_OBJECT (list_row), "ps-b-name");

  ps_compare_page_match_rows (self, a_name, b_name);
  gtk_window_destroy (dialog);
}

static void
match_clicked_cb (GtkWindow *dialog)
{
  GtkListBox *list = g_object_get_data (G_OBJECT (dialog), "ps-list");
  GtkListBoxRow *list_row = gtk_list_box_get_selected_row (list);

  if (list_row != NULL)
    match_activated_cb (list, list_row, dialog);
}

/* "Match With…": a row of A only is paired with a row of B only, chosen
 * from a list of those */
static void
match_with_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);
  PsCompareRow *item = gtk_single_selection_get_selected_item (self->selection);
  const PsRunDiffRow *row = item != NULL ? ps_compare_row_get_row (item) : NULL;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *dialog, *header, *cancel, *match, *box, *label, *scrolled, *list;
  g_autofree char *text = NULL;

  if (row == NULL || !row->has_a || row->has_b || self->diff == NULL)
    return;

  dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (dialog), _("Match With"));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 420, 420);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);

  header = gtk_header_bar_new ();
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  match = gtk_button_new_with_mnemonic (_("_Match"));
  gtk_widget_add_css_class (match, "suggested-action");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), match);
  gtk_window_set_titlebar (GTK_WINDOW (dialog), header);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  /* Translators: %s is the name of a row of run A only */
  text = g_strdup_printf (_("Which row of run B is “%s” of run A, renamed?"), row->name);
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);

  list = gtk_list_box_new ();
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Rows of run B only"), -1);
  for (guint i = 0; i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *other = g_ptr_array_index (self->diff->rows, i);
      GtkWidget *list_row, *name;

      if (!other->has_b || other->has_a)
        continue;
      name = gtk_label_new (other->name);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_tooltip_text (name, other->name);
      gtk_widget_set_margin_start (name, 6);
      gtk_widget_set_margin_end (name, 6);
      gtk_widget_set_margin_top (name, 6);
      gtk_widget_set_margin_bottom (name, 6);
      list_row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (list_row), name);
      g_object_set_data_full (G_OBJECT (list_row), "ps-b-name", g_strdup (other->name), g_free);
      gtk_list_box_append (GTK_LIST_BOX (list), list_row);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_window_set_child (GTK_WINDOW (dialog), box);

  g_object_set_data_full (G_OBJECT (dialog), "ps-page", g_object_ref (self), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "ps-a-name", g_strdup (row->name), g_free);
  g_object_set_data (G_OBJECT (dialog), "ps-list", list);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), dialog);
  g_signal_connect_swapped (match, "clicked", G_CALLBACK (match_clicked_cb), dialog);
  g_signal_connect (list, "row-activated", G_CALLBACK (match_activated_cb), dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
ps_compare_page_install_export_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "compare.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "compare.copy-markdown", NULL, copy_markdown_action);
  gtk_widget_class_install_action (widget_class, "compare.match-with", NULL, match_with_action);
  gtk_widget_class_install_action (widget_class, "compare.clear-matches", NULL, clear_matches_action);
}
