/* gui-fixture.h — what the GUI tests share: a window, the main loop, pixels
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-application.h"
#include "ps-record-page.h"
#include "ps-run-page.h"
#include "ps-timeline-view.h"
#include "ps-window.h"

G_BEGIN_DECLS

typedef struct
{
  PsApplication *app;
  PsWindow      *window;
  char          *tmpdir;
} Fixture;

/* Sets up the environment of a GUI test program (a temporary
 * XDG_DATA_HOME, settings in memory, no portals) and GTK. FALSE when there
 * is no display: the program then prints a TAP skip and should return 0.
 * A test program's main () is gui_test_init (), its list of tests, and
 * return gui_test_run (). */
gboolean    gui_test_init          (int          *argc,
                                    char       ***argv);
/* Runs the tests and removes what gui_test_init () made; main's status */
int         gui_test_run           (void);
void        gui_test_remove_tree   (const char   *path);

void        fixture_setup          (Fixture       *fixture,
                                    gconstpointer  data);
void        fixture_teardown       (Fixture       *fixture,
                                    gconstpointer  data);

/* Runs the main loop until condition() holds or a minute has passed */
gboolean    iterate_until          (gboolean (*condition) (gpointer data),
                                    gpointer   data);
void        iterate_for            (guint         milliseconds);
/* Iterates until a split moved by hand has been saved under name in
 * "pane-fractions" (a moment after it settled) */
gboolean    wait_for_pane_fraction (const char   *name);
/* Names (g_test_message ()) the widgets in widget that are wider than
 * limit, at least or naturally, while none of their children is: where a
 * too wide window comes from. FALSE when widget is not too wide. */
gboolean    report_wide_widgets    (GtkWidget    *widget,
                                    int           limit);
/* Asks the window for width×height and waits until it has that size, less
 * its shadow's margins at most; FALSE when it does not get it in time */
gboolean    fixture_ask_window_size (Fixture     *fixture,
                                     int          width,
                                     int          height);
/* The same, which must succeed, and then laid out at that size */
void        fixture_resize_window  (Fixture      *fixture,
                                    int           width,
                                    int           height);
void        wait_for_page          (PsRunPage    *page);
gboolean    widget_is_drawn        (gpointer      data);
/* A shown toplevel of type (a dialog, a window other than the main one), or NULL */
GtkWidget  *find_toplevel          (GType         type);
/* A shown toplevel with a label that reads text (a message dialog, whatever
 * GTK makes it of), or NULL */
GtkWidget  *find_dialog_with_text  (const char   *text);
/* The first widget of that type in widget (widget itself included), depth
 * first, or NULL; with mapped_only, the first one on screen */
GtkWidget  *find_widget_of_type    (GtkWidget    *widget,
                                    GType         type,
                                    gboolean      mapped_only);
/* The text of every label in widget, one a line; g_free () */
char       *collect_label_text     (GtkWidget    *widget);
/* The button in widget whose label is label (mnemonic included), or NULL */
GtkWidget  *find_button            (GtkWidget    *widget,
                                    const char   *label);
/* Clicks the button of window whose label is label (mnemonic included);
 * FALSE when it has none */
gboolean    click_button           (GtkWidget    *window,
                                    const char   *label);

GFile      *write_temp_file        (Fixture      *fixture,
                                    const char   *name,
                                    const char   *contents,
                                    gssize        length);
PsRunPage  *open_and_wait          (Fixture      *fixture,
                                    GFile        *file);
GdkTexture *render_widget          (GtkWidget    *widget);
/* How many pixels of the texture in x0…x1 × y0…y1 (inclusive, clipped to
 * the texture) are opaque and within 0.08 of color in every channel */
guint       count_pixels_near      (GdkTexture    *texture,
                                    int            x0,
                                    int            y0,
                                    int            x1,
                                    int            y1,
                                    const GdkRGBA *color);
/* The same for pixels drawn with color at its alpha (a style's
 * foreground: libadwaita's is 80 % opaque) over any background: within
 * 0.08 + (1 − alpha) of it, alpha taken as 0.5 at least */
guint       count_pixels_drawn_with (GdkTexture   *texture,
                                     int            x0,
                                     int            y0,
                                     int            x1,
                                     int            y1,
                                     const GdkRGBA *color);
/* Writes over path, which holds "kept", with the process's file size limit
 * at limit bytes (a full disk's stand-in): write (file, data, error) must
 * fail with EFBIG, saying the old file is unchanged, and leave it and no
 * hidden file beside it */
typedef gboolean (*WriteFileFunc) (GFile    *file,
                                   gpointer  data,
                                   GError  **error);
void        assert_failed_write_keeps (const char    *path,
                                       gsize          limit,
                                       WriteFileFunc  write,
                                       gpointer       data);
/* Whether the widget is drawn in the dark style (a light foreground) */
gboolean    widget_is_dark         (GtkWidget    *widget);
/* The timeline has its rows and is drawn (for iterate_until) */
gboolean    timeline_view_is_ready (gpointer      view);
/* Whether the first row of the track lies in the timeline's rows area,
 * 20 pixels of it at least */
gboolean    timeline_row_in_view   (PsTimelineView *view,
                                    guint32         track);
/* The pixels of the accent colour in the marker bar at the left of the
 * track's label: over 30 when it is focused, 0 when not (or not in view) */
guint       timeline_focus_bar_pixels (PsTimelineView *view,
                                       guint32         track);

/* A run opened with its timeline drawn */
typedef struct
{
  PsRunPage      *page;
  PsTimelineView *timeline;
  PsSession      *session;
  PsEventStore   *store;
} RunViews;

/* The path of a demo log of the source tree (data/demo); g_free () */
char       *demo_file_path         (const char   *name);
/* Opens path and waits until the run is loaded and its timeline drawn */
RunViews    open_run_views         (Fixture      *fixture,
                                    const char   *path);
/* Whether the window's current tab is a run page that has loaded its
 * file (for iterate_until, with the window) */
gboolean    current_run_page_loaded (gpointer     window);
/* The window's current tab if it is a recording, else NULL */
PsRecordPage *window_current_record_page (PsWindow *window);
/* Whether the window's current tab is a recording (for iterate_until) */
gboolean    window_shows_record_page (gpointer    window);
/* The span of the store whose name ends with name and that begins at
 * begin_ns; fails the test when there is none */
guint64     find_span              (PsEventStore *store,
                                    const char   *name,
                                    gint64        begin_ns);
/* The timeline as it draws now, once pending frames are done */
GdkTexture *grab_timeline          (PsTimelineView *view);
/* Whether a view has done its work in the background (for iterate_until) */
gboolean    run_view_is_idle       (gpointer      view);
gboolean    call_tree_is_idle      (gpointer      view);
/* Whether the session has highlighted points (for iterate_until) */
gboolean    session_has_highlight_points (gpointer session);

/* With PERFSCOPE_TEST_SCREENSHOTS=DIR, keeps pictures of the window */
void        maybe_save_screenshot  (Fixture      *fixture,
                                    const char   *name);

#define ADD_TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

G_END_DECLS
