/* ps-window-private.h — shared by ps-window*.c and the tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-window.h"

G_BEGIN_DECLS

struct _PsWindow
{
  AdwApplicationWindow  parent_instance;

  GtkRecentManager     *recent_manager;
  GSettings            *settings;   /* recent comparisons; NULL without the schema */

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkWidget            *empty_state;   /* the welcome page, an AdwStatusPage */
  GtkWidget            *recent_group;
  GtkListBox           *recent_list;
  AdwTabView           *tab_view;
  AdwTabBar            *tab_bar;
  GMenu                *tab_menu;       /* of the tab whose menu is open */
  GtkWidget            *removing_child; /* closed without a question */
  GMenu                *recent_menu;
  GtkRevealer          *pair_banner;
  GtkLabel             *pair_banner_label;
  GtkWidget            *pair_banner_button;

  /* Two files of different kinds given together, open as two tabs: the
   * banner says so while one of them is the current tab */
  GFile                *pair_files[2];
  GCancellable         *pair_cancellable;  /* finding pairs' kinds */
  guint                 n_opening_pairs;

  /* The toast shown now, for the tests (weak) */
  AdwToast             *toast;

  /* The user chose to close the window without its unsaved recordings */
  gboolean              closing_confirmed;
};

/* The group that marks our entries in the recent files list */
#define PS_RECENT_GROUP "perfscope"
#define PS_RECENT_MAX_ITEMS 10  /* without the recent-files-limit setting */
#define PS_WELCOME_RECENT_ITEMS 5  /* the recent files the welcome page lists */

/* Where the demo logs are: $PERFSCOPE_DEMODIR (meson devenv and the tests
 * set it to the source tree's data/demo), else where they are installed */
#define PS_DEMO_DIR_ENV "PERFSCOPE_DEMODIR"


/* ps-window.c: the tabs' pages (runs, comparisons, recordings) */
guint       _ps_window_get_n_children     (PsWindow       *self);
GtkWidget  *_ps_window_get_nth_child      (PsWindow       *self,
                                           guint           index);
/* -1 when child has no tab */
int         _ps_window_get_child_index    (PsWindow       *self,
                                           GtkWidget      *child);
void        _ps_window_show_child         (PsWindow       *self,
                                           GtkWidget      *child);
/* A tab for child, last, made the current one */
AdwTabPage *_ps_window_add_tab            (PsWindow       *self,
                                           GtkWidget      *child,
                                           const char     *title,
                                           const char     *tooltip);

/* ps-window-actions.c */
void        _ps_window_class_init_actions (GtkWidgetClass *widget_class);
void        _ps_window_init_actions       (PsWindow       *self);
void        _ps_window_update_actions     (PsWindow       *self);
/* The actions for child, the current page */
void        _ps_window_update_actions_for (PsWindow       *self,
                                           GtkWidget      *child);
/* The menu of page's tab: Save As…, Compare With File…, Compare With
 * (run), Close Tab */
void        _ps_window_fill_tab_menu      (PsWindow       *self,
                                           GMenu          *menu,
                                           GtkWidget      *page);
void        _ps_window_add_recent         (PsWindow       *self,
                                           GFile          *file);
/* A comparison opened: its pair first among the recent comparisons */
void        _ps_window_add_recent_comparison (PsWindow    *self,
                                              GFile       *file_a,
                                              GFile       *file_b);
/* Open Recent and the welcome page's list of recent files */
void        _ps_window_update_recent_menu (PsWindow       *self);
/* The folder of the demo logs; g_free () */
char       *_ps_window_get_demo_dir       (void);

/* Save As… once the file is chosen: the run in the native format, in a
 * thread; a recording is that file from then on */
void        _ps_window_save_page_to       (PsWindow       *self,
                                           PsRunPage      *page,
                                           GFile          *file);
/* Save As…: asks where, then saves; close_after: the tab closes once its
 * run is saved */
void        _ps_window_save_page_as       (PsWindow       *self,
                                           PsRunPage      *page,
                                           gboolean        close_after);

/* ps-window.c: a tab, run or comparison. A tab whose recording is only in
 * memory (going on, or stopped and not saved) closes once the user says
 * so: Discard, or Save As… */
void        _ps_window_close_child        (PsWindow       *self,
                                           GtkWidget      *child);
/* The same without asking */
void        _ps_window_remove_child       (PsWindow       *self,
                                           GtkWidget      *child);

GtkWidget  *_ps_window_get_current_child  (PsWindow       *self);

/* Compare Anyway: the files of the banner compared; the banner goes */
void        _ps_window_compare_pair       (PsWindow       *self);
void        _ps_window_dismiss_pair       (PsWindow       *self);

/* A local folder, whose runs open as a trend (a remote file is not asked,
 * which could take long, and opens as a file does) */
gboolean    _ps_window_is_local_folder    (GFile          *file);

/* ps-window-dnd.c */
void        _ps_window_init_dnd           (PsWindow       *self);
/* What a drop of these files (GFile) does */
void        _ps_window_drop_files         (PsWindow       *self,
                                           GSList         *files);

/* Tests: "empty" or "runs" */
const char *ps_window_get_visible_state   (PsWindow       *self);
/* Tests: the banner over two runs of different kinds opened together */
gboolean    ps_window_get_pair_banner_revealed (PsWindow  *self);
const char *ps_window_get_pair_banner_text     (PsWindow  *self);
GtkWidget  *ps_window_get_pair_banner_button   (PsWindow  *self);
/* Tests: the toast shown now, or NULL */
AdwToast   *ps_window_get_toast                (PsWindow  *self);
/* Tests: whether the kinds of a pair given together are being found */
gboolean    ps_window_is_opening_pair          (PsWindow  *self);

G_END_DECLS
