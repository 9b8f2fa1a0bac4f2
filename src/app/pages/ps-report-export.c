/* ps-report-export.c — a run's summary for a bug report, from the window
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words and numbers come from the engine (ps-export-report.h), the
 * same as `perfscope-cli export --to markdown|html`; the window adds the
 * picture of the timeline as the user sees it.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ps-export-report.h"
#include "ps-file-output.h"
#include "ps-picture-export.h"
#include "ps-report-export.h"
#include "ps-run-page-private.h"
#include "ps-timeline-view.h"
#include "ps-save-location.h"
#include "ps-view-util.h"

/* The smallest picture of the timeline, for a run page not on screen */
#define MIN_PICTURE_WIDTH  800
#define MIN_PICTURE_HEIGHT 300

static GString *
build_report (PsRunPage                   *page,
              PsExportReportFormat         format,
              const PsExportReportPicture *pictures,
              guint                        n_pictures)
{
  PsExportReportOptions options = { 0 };

  options.format = format;
  options.file_name = ps_run_page_get_title (page);
  options.pictures = pictures;
  options.n_pictures = n_pictures;
  return ps_export_report_build (ps_run_page_get_store (page), &options);
}

char *
ps_report_export_markdown (PsRunPage *page)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (page), NULL);
  g_return_val_if_fail (ps_run_page_get_store (page) != NULL, NULL);

  return g_string_free (build_report (page, PS_EXPORT_REPORT_MARKDOWN, NULL, 0), FALSE);
}

/* The timeline, when the run has one on its page */
static GtkWidget *
shown_timeline (PsRunPage *page)
{
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  GtkWidget *window = timeline != NULL ? gtk_widget_get_parent (GTK_WIDGET (timeline)) : NULL;

  if (timeline == NULL || ps_timeline_view_get_model (timeline) == NULL)
    return NULL;
  /* Its scrolled window is hidden for runs without a time axis */
  for (; window != NULL && !GTK_IS_SCROLLED_WINDOW (window); window = gtk_widget_get_parent (window))
    ;
  if (window != NULL && !gtk_widget_get_visible (window))
    return NULL;
  return GTK_WIDGET (timeline);
}

gboolean
ps_report_export_to_file (PsRunPage  *page,
                          GFile      *file,
                          GError    **error)
{
  g_autofree char *basename = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *picture_name = NULL;
  g_autoptr(GString) report = NULL;
  PsExportReportPicture picture = { 0 };
  PsExportReportFormat format = PS_EXPORT_REPORT_MARKDOWN;
  GtkWidget *timeline;
  guint n_pictures = 0;
  char *dot;

  g_return_val_if_fail (PS_IS_RUN_PAGE (page), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (ps_run_page_get_store (page) != NULL, FALSE);

  basename = g_file_get_basename (file);
  dot = basename != NULL ? strrchr (basename, '.') : NULL;
  if (dot != NULL && (g_ascii_strcasecmp (dot, ".html") == 0 || g_ascii_strcasecmp (dot, ".htm") == 0))
    format = PS_EXPORT_REPORT_HTML;
  stem = ps_view_file_name_stem (basename != NULL ? basename : "report");

  timeline = shown_timeline (page);
  if (timeline != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autoptr(GFile) picture_file = NULL;

      picture_name = g_strconcat (stem, "-timeline.png", NULL);
      picture_file = parent != NULL ? g_file_get_child (parent, picture_name) : g_file_new_for_path (picture_name);
      if (!ps_picture_export_to_file (timeline, picture_file, PS_PICTURE_FORMAT_PNG,
                                      MAX (gtk_widget_get_width (timeline), MIN_PICTURE_WIDTH),
                                      MAX (gtk_widget_get_height (timeline), MIN_PICTURE_HEIGHT), error))
        return FALSE;
      /* Translators: the caption of the timeline's picture in a report */
      picture.caption = _("The run’s timeline");
      picture.file = picture_name;
      n_pictures = 1;
    }

  report = build_report (page, format, &picture, n_pictures);
  return ps_file_output_replace_contents (file, report->str, report->len, NULL, error);
}


static void
file_chosen_cb (GFile    *file,
                gpointer  user_data)
{
  PsRunPage *page = user_data;
  g_autoptr(GError) error = NULL;

  if (!ps_report_export_to_file (page, file, &error))
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));

      ps_view_show_write_error (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                _("Could Not Export the Report"), file, error);
    }
  else
    ps_view_announce_saved (GTK_WIDGET (page), file);
}

void
ps_report_export_run_dialog (PsRunPage *page,
                             GtkWindow *parent)
{
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) markdown = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) html = gtk_file_filter_new ();
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (PS_IS_RUN_PAGE (page));

  gtk_file_filter_set_name (markdown, _("Markdown Reports"));
  gtk_file_filter_add_suffix (markdown, "md");
  gtk_file_filter_set_name (html, _("HTML Reports"));
  gtk_file_filter_add_suffix (html, "html");
  g_list_store_append (filters, markdown);
  g_list_store_append (filters, html);

  folder = ps_save_location_folder (GTK_WIDGET (page));
  name = ps_save_location_name (GTK_WIDGET (page), "report", "md");

  ps_save_location_choose_file (parent,
                                &(PsSaveDialogOptions) {
                                  .title = _("Export Report"),
                                  .accept_label = _("_Export"),
                                  .initial_folder = folder,
                                  .initial_name = name,
                                  .filters = G_LIST_MODEL (filters),
                                },
                                file_chosen_cb, g_object_ref (page), g_object_unref);
}
