/* gui-fixture.c — what the GUI tests share: a window, the main loop, pixels
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-chart-util.h"
#include "ps-profile-view-private.h"
#include "ps-rtl-view-private.h"
#include "ps-run-page-private.h"
#include "ps-selection-util.h"
#include "ps-util.h"
#include "ps-window-private.h"

/* Test helpers */

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until condition() holds or a minute has passed */
gboolean
iterate_until (gboolean (*condition) (gpointer data),
               gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint wake_id = g_timeout_add (10, wake_up, NULL);
  gboolean done;

  while (!(done = condition (data)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_id);
  return done;
}

void
iterate_for (guint milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;
  guint wake_id = g_timeout_add (10, wake_up, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_id);
}

static gboolean
pane_fraction_is_saved (gpointer data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GVariant) fractions = g_settings_get_value (settings, "pane-fractions");
  double fraction;

  return g_variant_lookup (fractions, data, "d", &fraction);
}

gboolean
wait_for_pane_fraction (const char *name)
{
  return iterate_until (pane_fraction_is_saved, (gpointer)name);
}

static gboolean
page_is_settled (gpointer data)
{
  PsRunPageState state = ps_run_page_get_state (data);

  return state != PS_RUN_PAGE_LOADING && state != PS_RUN_PAGE_EMPTY;
}

void
wait_for_page (PsRunPage *page)
{
  g_assert_true (iterate_until (page_is_settled, page));
}

GtkWidget *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_visible (window))
        return window;
    }
  return NULL;
}

static GtkWidget *
find_descendant (GtkWidget  *widget,
                 gboolean  (*match) (GtkWidget *, const char *),
                 const char *text)
{
  if (match (widget, text))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, match, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_of_type (GtkWidget  *widget,
            const char *type_name)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, g_type_from_name (type_name));
}

static gboolean
is_mapped_of_type (GtkWidget  *widget,
                   const char *type_name)
{
  return gtk_widget_get_mapped (widget) && is_of_type (widget, type_name);
}

GtkWidget *
find_widget_of_type (GtkWidget *widget,
                     GType      type,
                     gboolean   mapped_only)
{
  return find_descendant (widget, mapped_only ? is_mapped_of_type : is_of_type, g_type_name (type));
}

static gboolean
is_label_reading (GtkWidget  *widget,
                  const char *text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static gboolean
is_button_labelled (GtkWidget  *widget,
                    const char *label)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

GtkWidget *
find_dialog_with_text (const char *text)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_visible (window) && find_descendant (window, is_label_reading, text) != NULL)
        return window;
    }
  return NULL;
}

static void
append_label_text (GtkWidget *widget,
                   GString   *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    append_label_text (child, text);
}

char *
collect_label_text (GtkWidget *widget)
{
  GString *text = g_string_new (NULL);

  append_label_text (widget, text);
  return g_string_free (text, FALSE);
}

GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  return find_descendant (widget, is_button_labelled, label);
}

gboolean
click_button (GtkWidget  *window,
              const char *label)
{
  GtkWidget *button = find_button (window, label);

  if (button == NULL)
    return FALSE;
  g_signal_emit_by_name (button, "clicked");
  return TRUE;
}

void
assert_failed_write_keeps (const char    *path,
                           gsize          limit,
                           WriteFileFunc  write,
                           gpointer       data)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *folder_path = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *hidden = g_strconcat (".", base, ".", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  struct rlimit saved, lowered;
  const char *name;
  gboolean written;
  GDir *folder;

  g_assert_true (g_file_set_contents (path, "kept", -1, NULL));
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, SIG_IGN);
  lowered.rlim_cur = limit;
  lowered.rlim_max = saved.rlim_max;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &lowered), ==, 0);
  written = write (file, data, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);

  g_assert_false (written);
  g_assert_error (error, G_IO_ERROR, (gint)g_io_error_from_errno (EFBIG));
  g_assert_true (g_str_has_suffix (error->message, "; the file that was there is unchanged"));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "kept");
  folder = g_dir_open (folder_path, 0, NULL);
  while ((name = g_dir_read_name (folder)) != NULL)
    g_assert_false (g_str_has_prefix (name, hidden));
  g_dir_close (folder);
}

typedef struct
{
  GtkWidget *window;
  int        width;
  int        height;
} AskedSize;

static gboolean
window_has_asked_size (gpointer data)
{
  const AskedSize *asked = data;
  int width = gtk_widget_get_width (asked->window);
  int height = gtk_widget_get_height (asked->window);

  return width <= asked->width && width >= asked->width - 40 && height <= asked->height && height >= asked->height - 40;
}

gboolean
fixture_ask_window_size (Fixture *fixture,
                         int      width,
                         int      height)
{
  AskedSize asked = { GTK_WIDGET (fixture->window), width, height };

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), width, height);
  return iterate_until (window_has_asked_size, &asked);
}

void
fixture_resize_window (Fixture *fixture,
                       int      width,
                       int      height)
{
  g_assert_true (fixture_ask_window_size (fixture, width, height));
  iterate_for (100);
}

gboolean
report_wide_widgets (GtkWidget *widget,
                     int        limit)
{
  gboolean child_too_wide = FALSE;
  int minimum, natural;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  if (MAX (minimum, natural) <= limit)
    return FALSE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (report_wide_widgets (child, limit))
      child_too_wide = TRUE;
  /* Too wide together: each child's share */
  if (!child_too_wide)
    for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
      {
        int child_minimum, child_natural;

        gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_minimum, &child_natural, NULL, NULL);
        g_test_message ("  with %s at least %d px, naturally %d%s%s", G_OBJECT_TYPE_NAME (child), child_minimum,
                        child_natural, GTK_IS_LABEL (child) ? ": " : "",
                        GTK_IS_LABEL (child) ? gtk_label_get_text (GTK_LABEL (child)) : "");
      }
  if (!child_too_wide || minimum > limit)
    g_test_message ("too wide: %s (%s) at least %d px, naturally %d%s%s", G_OBJECT_TYPE_NAME (widget),
                    gtk_widget_get_name (widget), minimum, natural, GTK_IS_LABEL (widget) ? ": " : "",
                    GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget)) : "");
  return TRUE;
}

gboolean
widget_is_drawn (gpointer data)
{
  GtkWidget *widget = data;

  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0
         && gtk_widget_get_height (widget) > 0;
}

GFile *
write_temp_file (Fixture    *fixture,
                 const char *name,
                 const char *contents,
                 gssize      length)
{
  g_autofree char *path = g_build_filename (fixture->tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);

  return g_file_new_for_path (path);
}

PsRunPage *
open_and_wait (Fixture *fixture,
               GFile   *file)
{
  PsRunPage *page;

  ps_window_open_file (fixture->window, file);
  page = ps_window_get_current_page (fixture->window);
  g_assert_nonnull (page);
  g_assert_true (g_file_equal (ps_run_page_get_file (page), file));
  wait_for_page (page);

  return page;
}

/* Draws a widget that paints itself (a chart, the timeline, the flame
 * graph) as its state is now: the widget's own snapshot, not the last frame
 * the window happened to show, which lags behind when the machine is busy */
GdkTexture *
render_widget (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GBytes) bytes = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  int stride;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  /* Drawn by cairo, not the window's renderer: a GL renderer keeps textures
   * of nodes by their address, and a new node at a freed one's address
   * would come back as the old picture */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MAX (width, 1), MAX (height, 1));
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  stride = cairo_image_surface_get_stride (surface);
  bytes = g_bytes_new (cairo_image_surface_get_data (surface), (gsize)stride * MAX (height, 1));
  cairo_surface_destroy (surface);

  return gdk_memory_texture_new (MAX (width, 1), MAX (height, 1),
                                 GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, stride);
}

/* The opaque pixels of texture in x0…x1 × y0…y1 within tolerance of color
 * in every channel */
static guint
count_pixels_within (GdkTexture    *texture,
                     int            x0,
                     int            y0,
                     int            x1,
                     int            y1,
                     const GdkRGBA *color,
                     double         tolerance)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize)width * 4;
  g_autofree guchar *data = g_malloc (stride * height);
  guint n = 0;

  /* GDK_MEMORY_DEFAULT: B G R A, premultiplied */
  gdk_texture_download (texture, data, stride);
  for (int y = MAX (y0, 0); y <= MIN (y1, height - 1); y++)
    for (int x = MAX (x0, 0); x <= MIN (x1, width - 1); x++)
      {
        const guchar *p = data + y * stride + x * 4;
        double alpha = p[3] / 255.0;

        n += alpha > 0.5
             && fabs (p[2] / 255.0 / alpha - color->red) < tolerance
             && fabs (p[1] / 255.0 / alpha - color->green) < tolerance
             && fabs (p[0] / 255.0 / alpha - color->blue) < tolerance;
      }
  return n;
}

guint
count_pixels_near (GdkTexture    *texture,
                   int            x0,
                   int            y0,
                   int            x1,
                   int            y1,
                   const GdkRGBA *color)
{
  return count_pixels_within (texture, x0, y0, x1, y1, color, 0.08);
}

guint
count_pixels_drawn_with (GdkTexture    *texture,
                         int            x0,
                         int            y0,
                         int            x1,
                         int            y1,
                         const GdkRGBA *color)
{
  /* Over any background, color at its alpha lands within 1 − alpha of it */
  return count_pixels_within (texture, x0, y0, x1, y1, color, 0.08 + (1 - CLAMP (color->alpha, 0.5, 1.0)));
}

gboolean
widget_is_dark (GtkWidget *widget)
{
  GdkRGBA foreground;

  ps_chart_get_foreground (widget, &foreground);
  return 0.299 * foreground.red + 0.587 * foreground.green + 0.114 * foreground.blue > 0.5;
}

gboolean
timeline_view_is_ready (gpointer view)
{
  return ps_timeline_view_get_model (view) != NULL && widget_is_drawn (view);
}

gboolean
timeline_row_in_view (PsTimelineView *view,
                      guint32         track)
{
  double y = ps_timeline_view_get_row_y (view, track);

  return y >= PS_TIMELINE_HEADER_HEIGHT && y + 20 <= gtk_widget_get_height (GTK_WIDGET (view));
}

guint
timeline_focus_bar_pixels (PsTimelineView *view,
                           guint32         track)
{
  g_autoptr(GdkTexture) texture = NULL;
  double y;
  GdkRGBA accent;

  iterate_for (50);
  y = ps_timeline_view_get_row_y (view, track);
  if (y < PS_TIMELINE_HEADER_HEIGHT)
    return 0;
  ps_selection_accent_color (widget_is_dark (GTK_WIDGET (view)), &accent);
  texture = render_widget (GTK_WIDGET (view));
  return count_pixels_near (texture, 0, (int)y + 1, 3, (int)y + 20, &accent);
}

char *
demo_file_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
}

RunViews
open_run_views (Fixture    *fixture,
                const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  RunViews run;

  run.page = open_and_wait (fixture, file);
  g_assert_cmpint (ps_run_page_get_state (run.page), >=, PS_RUN_PAGE_LOADED);
  run.timeline = ps_run_page_get_timeline_view (run.page);
  run.session = ps_timeline_view_get_session (run.timeline);
  run.store = ps_run_page_get_store (run.page);
  g_assert_nonnull (run.session);
  g_assert_true (iterate_until (timeline_view_is_ready, run.timeline));
  return run;
}

PsRecordPage *
window_current_record_page (PsWindow *window)
{
  GtkWidget *child = _ps_window_get_current_child (window);

  return PS_IS_RECORD_PAGE (child) ? PS_RECORD_PAGE (child) : NULL;
}

gboolean
window_shows_record_page (gpointer window)
{
  return window_current_record_page (window) != NULL;
}

gboolean
current_run_page_loaded (gpointer window)
{
  PsRunPage *page = ps_window_get_current_page (window);

  return page != NULL && ps_run_page_get_state (page) == PS_RUN_PAGE_LOADED;
}

guint64
find_span (PsEventStore *store,
           const char   *name,
           gint64        begin_ns)
{
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (span->begin_ns == begin_ns && g_str_has_suffix (ps_event_store_get_string (store, span->name), name))
        return i;
    }
  g_assert_not_reached ();
}

GdkTexture *
grab_timeline (PsTimelineView *view)
{
  iterate_for (50);
  return render_widget (GTK_WIDGET (view));
}

/* For iterate_until (): a run's view has computed what it shows */
gboolean
run_view_is_idle (gpointer view)
{
  return !ps_run_view_is_busy (PS_RUN_VIEW (view));
}

gboolean
call_tree_is_idle (gpointer view)
{
  return !ps_call_tree_view_is_busy (view);
}

gboolean
session_has_highlight_points (gpointer session)
{
  return ps_session_get_highlight_points_extent (session, NULL, NULL);
}

/* The whole window as it was last shown */
static GdkTexture *
render_window (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* With PERFSCOPE_TEST_SCREENSHOTS=DIR, keeps pictures of the window */
void
maybe_save_screenshot (Fixture    *fixture,
                       const char *name)
{
  const char *dir = g_getenv ("PERFSCOPE_TEST_SCREENSHOTS");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  iterate_for (300);
  texture = render_window (GTK_WIDGET (fixture->window));
  file_name = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file_name, NULL);
  gdk_texture_save_to_png (texture, path);
}

/* Fixture */

void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmpdir = g_dir_make_tmp ("perfscope-test-gui-XXXXXX", &error);
  g_assert_no_error (error);

  /* Every test starts from the default settings: the memory backend
   * keeps them as long as the process */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_reset (settings, "symbol-folder");
    g_settings_reset (settings, "symbol-folders");
    g_settings_reset (settings, "recent-comparisons");
    g_settings_reset (settings, "recent-files-limit");
    g_settings_reset (settings, "percentage-basis");
    g_settings_reset (settings, "histogram-scale");
    /* A window closed by a test keeps its size: the next starts at 1360×800 */
    g_settings_reset (settings, "window-width");
    g_settings_reset (settings, "window-height");
    g_settings_reset (settings, "window-maximized");
    g_settings_reset (settings, "pane-fractions");
  }

  fixture->app = ps_application_new ("io.github.perfscope.Perfscope.Test", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (fixture->app), NULL, &error);
  g_assert_no_error (error);

  fixture->window = ps_window_new (GTK_APPLICATION (fixture->app));
  gtk_window_present (GTK_WINDOW (fixture->window));
  g_assert_true (iterate_until (widget_is_drawn, fixture->window));
}

void
gui_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_remove (child);
    }
  g_rmdir (path);
}

static gboolean
object_is_gone (gpointer data)
{
  gpointer *pointer = data;

  return *pointer == NULL;
}

static int
exit_at_once (GApplication *application,
              GVariantDict *options,
              gpointer      user_data)
{
  return EXIT_SUCCESS;
}

/* Ends the application the way the program does, then checks that nothing
 * holds it any more. g_application_register () emitted startup, from which
 * GtkApplication holds itself (its "app" action group) until shutdown; only
 * g_application_run () emits shutdown and takes the application's objects
 * off the D-Bus session bus, where the next test exports its own under the
 * same application id. Run with an exit status from handle-local-options,
 * it does just that: no activation, no main loop (the windows are closed). */
void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  GList *windows;
  gpointer app = fixture->app;

  /* The main window and whatever else the test left open on the
   * application, hidden first: a tooltip GTK was about to show learns
   * that its window went away, before the window's surface is freed */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (fixture->app)); l != NULL; l = l->next)
    {
      /* Their pages closed first, so that no loader finishes meanwhile
       * and puts its file in the next test's recent files */
      while (PS_IS_WINDOW (l->data) && _ps_window_get_n_children (l->data) > 0)
        _ps_window_remove_child (l->data, _ps_window_get_nth_child (l->data, 0));
      gtk_widget_set_visible (l->data, FALSE);
    }
  iterate_for (50);
  while ((windows = gtk_application_get_windows (GTK_APPLICATION (fixture->app))) != NULL)
    gtk_window_destroy (windows->data);
  iterate_for (50);

  g_signal_connect (fixture->app, "handle-local-options", G_CALLBACK (exit_at_once), NULL);
  g_assert_cmpint (g_application_run (G_APPLICATION (fixture->app), 0, NULL), ==, EXIT_SUCCESS);

  g_object_add_weak_pointer (app, &app);
  g_clear_object (&fixture->app);
  /* A loader thread still running lets go of its page when it returns */
  if (app != NULL && !iterate_until (object_is_gone, &app))
    g_error ("The application of the test is still referenced (%u references) after its windows were closed",
             G_OBJECT (app)->ref_count);

  gui_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

/* Warnings of the toolkit, not of Perfscope, that a test run may meet
 * and that must not end it */
static gboolean
is_toolkit_quirk (const char *log_domain,
                  const char *message)
{
  if (message == NULL)
    return FALSE;
  /* Xvfb runs often come without a D-Bus session; GtkApplication warns */
  if (strstr (message, "session bus") != NULL)
    return TRUE;
  /* GTK 4.8 warns of a widget drawn in a frame in which its allocation
   * was queued again; seen as /app-ui/split-positions-kept opened its
   * second run (and libadwaita's tab bar appeared), on a session bus and
   * on a busy machine. The next frame draws it allocated. */
  if (g_strcmp0 (log_domain, "Gtk") == 0 && strstr (message, "without a current allocation") != NULL)
    return TRUE;
  return FALSE;
}

/* Messages logged with g_log () ask this before they end the test */
static gboolean
allow_toolkit_quirks (const char     *log_domain,
                      GLogLevelFlags  log_level,
                      const char     *message,
                      gpointer        user_data)
{
  return !is_toolkit_quirk (log_domain, message);
}

/* GTK logs through the structured API, which never asks the handler
 * above: g_log_writer_default () aborts on any warning once g_test_init ()
 * made warnings fatal. This writer prints a toolkit quirk as it is and
 * leaves every other message to the default writer. */
static GLogWriterOutput
write_toolkit_quirks_unfatal (GLogLevelFlags   log_level,
                              const GLogField *fields,
                              gsize            n_fields,
                              gpointer         user_data)
{
  const char *domain = NULL;
  const char *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0)
        domain = fields[i].value;
      else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0)
        message = fields[i].value;
    }
  if ((log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)) != 0 && is_toolkit_quirk (domain, message))
    {
      g_autofree char *line = g_log_writer_format_fields (log_level & ~G_LOG_FLAG_FATAL, fields, n_fields, FALSE);

      g_printerr ("%s (not fatal: a known toolkit warning)\n", line);
      return G_LOG_WRITER_HANDLED;
    }
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

/* The temporary XDG_DATA_HOME of the test program, removed by gui_test_run () */
static char *test_data_home;

gboolean
gui_test_init (int    *argc,
               char ***argv)
{
  test_data_home = g_dir_make_tmp ("perfscope-test-gui-data-XXXXXX", NULL);

  /* Keep the recent files of these runs out of the user's list.
   * (G_TEST_OPTION_ISOLATE_DIRS would do more, but librsvg then fails to
   * load the symbolic icon.) */
  g_assert_nonnull (test_data_home);
  g_setenv ("XDG_DATA_HOME", test_data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  /* On a desktop's session bus, GTK 4.10 and later would ask the portal
   * for file dialogs: a window on the user's screen, not in the test's */
  if (gtk_get_major_version () > 4 || gtk_get_minor_version () >= 10)
    {
      const char *debug = g_getenv ("GDK_DEBUG");
      g_autofree char *flags = debug != NULL && debug[0] != '\0'
                               ? g_strconcat (debug, ",no-portals", NULL)
                               : g_strdup ("no-portals");

      g_setenv ("GDK_DEBUG", flags, TRUE);
    }
  /* The catalogues of the build, for the runs of a test in a language
   * (tests/meson.build sets where they are), as main () binds them */
  if (g_getenv ("PERFSCOPE_LOCALEDIR") != NULL)
    {
      bindtextdomain (GETTEXT_PACKAGE, ps_util_localedir ());
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }
  g_log_set_writer_func (write_toolkit_quirks_unfatal, NULL, NULL);
  g_test_init (argc, argv, NULL);
  g_test_log_set_fatal_handler (allow_toolkit_quirks, NULL);

  if (!gtk_init_check ())
    {
      /* TAP: skip the whole program */
      g_print ("1..0 # SKIP no display: run under xvfb-run\n");
      gui_test_remove_tree (test_data_home);
      g_clear_pointer (&test_data_home, g_free);
      return FALSE;
    }
  return TRUE;
}

int
gui_test_run (void)
{
  int status = g_test_run ();

  gui_test_remove_tree (test_data_home);
  g_clear_pointer (&test_data_home, g_free);
  return status;
}
