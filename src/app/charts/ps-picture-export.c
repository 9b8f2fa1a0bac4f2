/* ps-picture-export.c — a view as an SVG or PNG picture
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <cairo.h>
#ifdef CAIRO_HAS_SVG_SURFACE
#include <cairo-svg.h>
#endif
#include <glib/gi18n.h>

#include "ps-file-output.h"
#include "ps-picture-export.h"
#include "ps-picture-source.h"
#include "ps-save-location.h"
#include "ps-view-util.h"
#include "ps-chart-util.h"

/* Larger pictures are refused rather than failing to allocate */
#define MAX_PICTURE_SIDE 16384

typedef struct
{
  int         width;
  int         height;
} SizePreset;

static const SizePreset size_presets[] = {
  { 1280, 720 },
  { 1920, 1080 },
  { 2560, 1440 },
  { 3840, 2160 },
};

gboolean
ps_picture_export_supports (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  return PS_IS_PICTURE_SOURCE (widget);
}

void
ps_picture_export_draw (GtkWidget *widget,
                        cairo_t   *cr,
                        int        width,
                        int        height)
{
  GdkRGBA foreground;
  gboolean dark;

  g_return_if_fail (ps_picture_export_supports (widget));
  g_return_if_fail (cr != NULL);

  /* The views draw on the window's "view" background, which a picture
   * has to carry itself: the light or dark one, as the text's colour says */
  ps_chart_get_foreground (widget, &foreground);
  dark = 0.299 * foreground.red + 0.587 * foreground.green + 0.114 * foreground.blue > 0.5;
  cairo_save (cr);
  if (dark)
    cairo_set_source_rgb (cr, 0.118, 0.118, 0.118);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  ps_picture_source_draw_picture (PS_PICTURE_SOURCE (widget), cr, width, height);
  cairo_restore (cr);
}

typedef struct
{
  GOutputStream *stream;
  GError        *error;
} WriteClosure;

static cairo_status_t
write_cb (void                *user_data,
          const unsigned char *data,
          unsigned int         length)
{
  WriteClosure *closure = user_data;

  if (closure->error != NULL)
    return CAIRO_STATUS_WRITE_ERROR;
  if (!g_output_stream_write_all (closure->stream, data, length, NULL, NULL, &closure->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t
draw_picture (GtkWidget       *widget,
              PsPictureFormat  format,
              int              width,
              int              height,
              WriteClosure    *closure)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (format == PS_PICTURE_FORMAT_SVG)
    {
#ifdef CAIRO_HAS_SVG_SURFACE
      surface = cairo_svg_surface_create_for_stream (write_cb, closure, width, height);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE (1, 16, 0)
      /* A pixel of the view is a pixel of the drawing, not a point */
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
#endif
#else
      return CAIRO_STATUS_SURFACE_TYPE_MISMATCH;
#endif
    }
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

  cr = cairo_create (surface);
  ps_picture_export_draw (widget, cr, width, height);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == PS_PICTURE_FORMAT_PNG)
    {
      cairo_surface_flush (surface);
      status = cairo_surface_write_to_png_stream (surface, write_cb, closure);
    }
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return status;
}

gboolean
ps_picture_export_to_file (GtkWidget        *widget,
                           GFile            *file,
                           PsPictureFormat   format,
                           int               width,
                           int               height,
                           GError          **error)
{
  g_autoptr(PsFileOutput) output = NULL;
  WriteClosure closure = { NULL, NULL };
  cairo_status_t status;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (format == PS_PICTURE_FORMAT_PNG || format == PS_PICTURE_FORMAT_SVG, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!ps_picture_export_supports (widget))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("This view cannot be exported as a picture"));
      return FALSE;
    }
  if (width < 1 || height < 1 || width > MAX_PICTURE_SIDE || height > MAX_PICTURE_SIDE)
    {
      /* Translators: a picture's size was out of range; %d × %d is the size asked for, %d the largest side */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A picture of %d × %d pixels cannot be made: each side must be between 1 and %d pixels"),
                   width, height, MAX_PICTURE_SIDE);
      return FALSE;
    }

  output = ps_file_output_open (file, NULL, error);
  if (output == NULL)
    return FALSE;

  closure.stream = ps_file_output_get_stream (output);
  status = draw_picture (widget, format, width, height, &closure);
  if (status == CAIRO_STATUS_SUCCESS && closure.error == NULL)
    {
      if (ps_file_output_commit (output, NULL, error))
        return TRUE;
    }
  else if (closure.error != NULL)
    g_propagate_error (error, closure.error);
  else
    /* Translators: %s is cairo's reason, in English */
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The picture could not be drawn: %s"),
                 cairo_status_to_string (status));
  /* Freeing the output leaves a file that was there as it was */
  ps_file_output_note_kept (output, error);
  return FALSE;
}

/* --- The dialog ------------------------------------------------------------ */

typedef struct
{
  GtkWidget *window;
  GtkWidget *view;           /* a reference */
  GtkWidget *format_dropdown;
  GtkWidget *size_dropdown;
  GtkWidget *width_spin;
  GtkWidget *height_spin;
  int        shown_width;
  int        shown_height;
  gboolean   updating;
} ExportDialog;

static void
export_dialog_free (ExportDialog *dialog)
{
  g_clear_object (&dialog->view);
  g_free (dialog);
}

static PsPictureFormat
chosen_format (ExportDialog *dialog)
{
  return gtk_drop_down_get_selected (GTK_DROP_DOWN (dialog->format_dropdown)) == 1 ? PS_PICTURE_FORMAT_SVG
                                                                                   : PS_PICTURE_FORMAT_PNG;
}

static void
show_error (ExportDialog *dialog,
            GFile        *file,
            const GError *error)
{
  ps_view_show_write_error (GTK_WINDOW (dialog->window), _("Could Not Export the Picture"), file, error);
}

static void
export_to (ExportDialog *dialog,
           GFile        *file)
{
  g_autoptr(GError) error = NULL;
  int width = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (dialog->width_spin));
  int height = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (dialog->height_spin));

  if (!ps_picture_export_to_file (dialog->view, file, chosen_format (dialog), width, height, &error))
    {
      show_error (dialog, file, error);
      return;
    }
  ps_view_announce_saved (dialog->view, file);
  gtk_window_destroy (GTK_WINDOW (dialog->window));
}

static char *
suggested_name (ExportDialog *dialog)
{
  return ps_save_location_name (dialog->view, ps_picture_source_get_picture_name (PS_PICTURE_SOURCE (dialog->view)),
                                chosen_format (dialog) == PS_PICTURE_FORMAT_SVG ? "svg" : "png");
}

static GtkFileFilter *
create_filter (ExportDialog *dialog)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  if (chosen_format (dialog) == PS_PICTURE_FORMAT_SVG)
    {
      gtk_file_filter_set_name (filter, _("SVG Drawings"));
      gtk_file_filter_add_mime_type (filter, "image/svg+xml");
      gtk_file_filter_add_suffix (filter, "svg");
    }
  else
    {
      gtk_file_filter_set_name (filter, _("PNG Images"));
      gtk_file_filter_add_mime_type (filter, "image/png");
      gtk_file_filter_add_suffix (filter, "png");
    }
  return filter;
}

static void
file_chosen_cb (GFile    *file,
                gpointer  user_data)
{
  ExportDialog *dialog = g_object_get_data (G_OBJECT (user_data), "ps-export-dialog");

  /* Unless the dialog was closed in the meantime */
  if (dialog != NULL)
    export_to (dialog, file);
}

static void
choose_file (ExportDialog *dialog)
{
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = create_filter (dialog);
  g_autoptr(GFile) folder = ps_save_location_folder (dialog->view);
  g_autofree char *name = suggested_name (dialog);

  g_list_store_append (filters, filter);
  ps_save_location_choose_file (GTK_WINDOW (dialog->window),
                                &(PsSaveDialogOptions) {
                                  .title = _("Export Picture"),
                                  .accept_label = _("_Export"),
                                  .initial_folder = folder,
                                  .initial_name = name,
                                  .filters = G_LIST_MODEL (filters),
                                },
                                file_chosen_cb, g_object_ref (dialog->window), g_object_unref);
}

static void
export_clicked_cb (GtkButton    *button,
                   ExportDialog *dialog)
{
  choose_file (dialog);
}

static void
cancel_clicked_cb (GtkButton    *button,
                   ExportDialog *dialog)
{
  gtk_window_destroy (GTK_WINDOW (dialog->window));
}

/* The first entry of the sizes is the view's own size, the last "Custom" */
static void
size_selected_cb (ExportDialog *dialog)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (dialog->size_dropdown));
  int width, height;

  if (selected == 0)
    width = dialog->shown_width, height = dialog->shown_height;
  else if (selected - 1 < G_N_ELEMENTS (size_presets))
    width = size_presets[selected - 1].width, height = size_presets[selected - 1].height;
  else
    return;

  dialog->updating = TRUE;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (dialog->width_spin), width);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (dialog->height_spin), height);
  dialog->updating = FALSE;
}

/* A size typed in is a custom one, unless it is one of the list */
static void
size_edited_cb (ExportDialog *dialog)
{
  int width = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (dialog->width_spin));
  int height = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (dialog->height_spin));
  guint selected = G_N_ELEMENTS (size_presets) + 1;

  if (dialog->updating)
    return;
  if (width == dialog->shown_width && height == dialog->shown_height)
    selected = 0;
  else
    for (guint i = 0; i < G_N_ELEMENTS (size_presets); i++)
      if (size_presets[i].width == width && size_presets[i].height == height)
        selected = i + 1;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dialog->size_dropdown), selected);
}

static GtkWidget *
add_row (GtkGrid    *grid,
         int         row,
         const char *label_text,
         GtkWidget  *child)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (label_text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), child);
  gtk_widget_set_hexpand (child, TRUE);
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, child, 1, row, 1, 1);
  return child;
}

static GtkWidget *
size_spin_new (int value)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (1, MAX_PICTURE_SIDE, 1);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  return spin;
}

GtkWidget *
ps_picture_export_dialog_new (GtkWidget *widget)
{
  ExportDialog *dialog;
  GtkWidget *grid, *box, *buttons, *cancel, *export, *root;
  g_autoptr(GPtrArray) sizes = g_ptr_array_new_with_free_func (g_free);
  const char *formats[] = { _("PNG image"), _("SVG drawing"), NULL };

  g_return_val_if_fail (ps_picture_export_supports (widget), NULL);

  dialog = g_new0 (ExportDialog, 1);
  dialog->view = g_object_ref (widget);
  dialog->shown_width = MAX (gtk_widget_get_width (widget), 1);
  dialog->shown_height = MAX (gtk_widget_get_height (widget), 1);

  dialog->window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (dialog->window), _("Export Picture"));
  gtk_window_set_modal (GTK_WINDOW (dialog->window), TRUE);
  gtk_window_set_resizable (GTK_WINDOW (dialog->window), FALSE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog->window), TRUE);
  root = GTK_WIDGET (gtk_widget_get_root (widget));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (dialog->window), GTK_WINDOW (root));
  g_object_set_data_full (G_OBJECT (dialog->window), "ps-export-dialog", dialog,
                          (GDestroyNotify) export_dialog_free);

  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);

  dialog->format_dropdown = gtk_drop_down_new_from_strings (formats);
  add_row (GTK_GRID (grid), 0, _("_Format"), dialog->format_dropdown);

  /* Translators: the view's size on screen, in pixels */
  g_ptr_array_add (sizes, g_strdup_printf (_("As shown (%d × %d)"), dialog->shown_width, dialog->shown_height));
  for (guint i = 0; i < G_N_ELEMENTS (size_presets); i++)
    g_ptr_array_add (sizes, g_strdup_printf ("%d × %d", size_presets[i].width, size_presets[i].height));
  g_ptr_array_add (sizes, g_strdup (_("Custom")));
  g_ptr_array_add (sizes, NULL);
  dialog->size_dropdown = gtk_drop_down_new_from_strings ((const char * const *) sizes->pdata);
  add_row (GTK_GRID (grid), 1, _("_Size"), dialog->size_dropdown);

  dialog->width_spin = size_spin_new (dialog->shown_width);
  /* Translators: the width of the picture to export, in pixels */
  add_row (GTK_GRID (grid), 2, _("_Width (px)"), dialog->width_spin);
  dialog->height_spin = size_spin_new (dialog->shown_height);
  add_row (GTK_GRID (grid), 3, _("_Height (px)"), dialog->height_spin);

  g_signal_connect_swapped (dialog->size_dropdown, "notify::selected", G_CALLBACK (size_selected_cb), dialog);
  g_signal_connect_swapped (dialog->width_spin, "value-changed", G_CALLBACK (size_edited_cb), dialog);
  g_signal_connect_swapped (dialog->height_spin, "value-changed", G_CALLBACK (size_edited_cb), dialog);

  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  export = gtk_button_new_with_mnemonic (_("_Export…"));
  gtk_widget_add_css_class (export, "suggested-action");
  g_signal_connect (cancel, "clicked", G_CALLBACK (cancel_clicked_cb), dialog);
  g_signal_connect (export, "clicked", G_CALLBACK (export_clicked_cb), dialog);
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), export);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (dialog->window), box);
  gtk_window_set_default_widget (GTK_WINDOW (dialog->window), export);

  return dialog->window;
}

/* --- On the views ---------------------------------------------------------- */

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_window_present (GTK_WINDOW (ps_picture_export_dialog_new (widget)));
}

void
ps_picture_export_install_action (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "picture.export", NULL, export_action);
}

void
ps_picture_export_install_menu (GtkWidgetClass              *widget_class,
                                GtkWidgetActionActivateFunc  activate)
{
  gtk_widget_class_install_action (widget_class, "picture.menu", "(dd)", activate);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "picture.menu", "(dd)", -1.0, -1.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "picture.menu", "(dd)", -1.0, -1.0);
}

static void
secondary_pressed_cb (GtkGestureClick *gesture,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkWidget       *widget)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_activate_action (widget, "picture.menu", "(dd)", x, y);
}

void
ps_picture_export_add_context_click (GtkWidget *widget)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (secondary_pressed_cb), widget);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));
  /* The view's read-out tooltip goes when the pointer does */
  ps_view_tooltip_follows_pointer (widget);
}

void
ps_picture_export_popup_menu (GtkWidget  *widget,
                              GtkWidget **menu,
                              GVariant   *parameter)
{
  double x = -1, y = -1;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (menu != NULL);

  if (parameter != NULL)
    g_variant_get (parameter, "(dd)", &x, &y);
  if (x < 0 || y < 0)
    {
      x = gtk_widget_get_width (widget) / 2.0;
      y = gtk_widget_get_height (widget) / 2.0;
    }

  if (*menu == NULL)
    {
      g_autoptr(GMenu) model = g_menu_new ();

      g_menu_append (model, _("Export _Picture…"), "picture.export");
      *menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (model));
      gtk_popover_set_has_arrow (GTK_POPOVER (*menu), FALSE);
      gtk_widget_set_halign (*menu, GTK_ALIGN_START);
      gtk_widget_set_parent (*menu, widget);
      ps_view_menu_quiets_tooltips (GTK_POPOVER (*menu));
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (*menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (*menu));
}
