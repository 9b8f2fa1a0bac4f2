/* ps-window.c — the main window: one tab per run
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Actions (open, close, recent files) live in ps-window-actions.c and drag
 * and drop in ps-window-dnd.c; all of them open files through
 * ps_window_open_file(), and two files given together through
 * ps_window_open_pair(), which compares runs of one kind and opens runs of
 * two kinds side by side in tabs, with a banner that says why.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ps-format.h"
#include "ps-record-dialog.h"
#include "ps-record-page.h"
#include "ps-run-page-private.h"
#include "ps-task-util.h"
#include "ps-view-util.h"
#include "ps-window-private.h"

G_DEFINE_FINAL_TYPE (PsWindow, ps_window, ADW_TYPE_APPLICATION_WINDOW)

static void update_pair_banner (PsWindow  *self,
                                GtkWidget *current);

static const char *
child_title (GtkWidget *child)
{
  if (PS_IS_RUN_PAGE (child))
    return ps_run_page_get_title (PS_RUN_PAGE (child));
  if (PS_IS_COMPARE_PAGE (child))
    return ps_compare_page_get_title (PS_COMPARE_PAGE (child));
  if (PS_IS_RECORD_PAGE (child))
    return ps_record_page_get_title (PS_RECORD_PAGE (child));
  if (PS_IS_TREND_PAGE (child))
    return ps_trend_page_get_title (PS_TREND_PAGE (child));
  return NULL;
}

static void
update_title (PsWindow  *self,
              GtkWidget *child)
{
  const char *title = child != NULL ? child_title (child) : NULL;

  gtk_window_set_title (GTK_WINDOW (self), title != NULL ? title : _("Perfscope"));
}

/* The tab of child, NULL when it has none (adw_tab_view_get_page ()
 * insists on a child of the view) */
static AdwTabPage *
tab_of (PsWindow  *self,
        GtkWidget *child)
{
  guint n_pages = self->tab_view != NULL ? adw_tab_view_get_n_pages (self->tab_view) : 0;

  for (guint i = 0; child != NULL && i < n_pages; i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (self->tab_view, i);

      if (adw_tab_page_get_child (tab) == child)
        return tab;
    }
  return NULL;
}

static void
tab_view_pages_changed_cb (PsWindow   *self,
                           GParamSpec *pspec,
                           AdwTabView *tab_view)
{
  guint n_pages;

  /* Pages are also removed while the window is disposed */
  if (self->stack == NULL)
    return;

  n_pages = adw_tab_view_get_n_pages (tab_view);
  gtk_stack_set_visible_child_name (self->stack, n_pages > 0 ? "runs" : "empty");
  update_title (self, _ps_window_get_current_child (self));
  _ps_window_update_actions (self);
  update_pair_banner (self, _ps_window_get_current_child (self));
}

static void
tab_view_selected_cb (PsWindow   *self,
                      GParamSpec *pspec,
                      AdwTabView *tab_view)
{
  GtkWidget *child = _ps_window_get_current_child (self);

  if (self->stack == NULL)
    return;
  update_title (self, child);
  _ps_window_update_actions_for (self, child);
  update_pair_banner (self, child);
}

static void
page_state_changed_cb (PsWindow   *self,
                       GParamSpec *pspec,
                       PsRunPage  *page)
{
  PsRunPageState state = ps_run_page_get_state (page);

  /* Only files that could be read go to the recent list */
  if (state == PS_RUN_PAGE_LOADED || state == PS_RUN_PAGE_PARTIAL)
    _ps_window_add_recent (self, ps_run_page_get_file (page));
}

/* A comparison goes to the recent ones once both runs could be read */
static void
compare_ready_cb (PsWindow      *self,
                  GParamSpec    *pspec,
                  PsComparePage *page)
{
  /* A recent comparison is of two files: sessions, which it cannot
   * name, are opened again from their trend */
  if (ps_compare_page_get_diff (page) != NULL
      && ps_compare_page_get_session (page, 0) < 0 && ps_compare_page_get_session (page, 1) < 0)
    _ps_window_add_recent_comparison (self, ps_compare_page_get_file (page, 0),
                                      ps_compare_page_get_file (page, 1));
}

/* The page of a stack that holds child, as assistive technologies read
 * it; the tab view too shows its pages in a stack of its own, each named
 * after its run */
static void
name_stack_page (GtkWidget  *child,
                 const char *name)
{
  GtkWidget *stack = gtk_widget_get_parent (child);

  if (GTK_IS_STACK (stack))
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_stack_get_page (GTK_STACK (stack), child)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

/* A tab's whole title, read by assistive technologies too, and the
 * file's path as its tooltip */
static void
set_tab_title (AdwTabPage *tab,
               const char *title,
               const char *tooltip)
{
  g_autofree char *markup = g_markup_escape_text (tooltip != NULL ? tooltip : "", -1);

  adw_tab_page_set_title (tab, title);
  name_stack_page (adw_tab_page_get_child (tab), title);
  /* The tooltip of a tab is markup */
  adw_tab_page_set_tooltip (tab, markup);
}

/* "tab.close" of what a tab shows: activated anywhere inside it (the Close
 * button of a run that could not be read, alone or as a side of a
 * comparison), it closes the tab */
static void
close_tab_of_child (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkWidget *child = user_data;
  GtkWidget *window = gtk_widget_get_ancestor (child, PS_TYPE_WINDOW);

  if (window != NULL)
    _ps_window_close_child (PS_WINDOW (window), child);
}

/* A tab for page at position (-1: last) */
static AdwTabPage *
insert_tab (PsWindow   *self,
            GtkWidget  *page,
            const char *title,
            const char *tooltip,
            int         position)
{
  static const GActionEntry tab_actions[] = {
    { .name = "close", .activate = close_tab_of_child },
  };
  g_autoptr(GSimpleActionGroup) actions = g_simple_action_group_new ();
  AdwTabPage *tab = position < 0 ? adw_tab_view_append (self->tab_view, page)
                                 : adw_tab_view_insert (self->tab_view, page, position);

  /* The group belongs to the page, which it points to */
  g_action_map_add_action_entries (G_ACTION_MAP (actions), tab_actions, G_N_ELEMENTS (tab_actions), page);
  gtk_widget_insert_action_group (page, "tab", G_ACTION_GROUP (actions));
  set_tab_title (tab, title, tooltip);
  return tab;
}

AdwTabPage *
_ps_window_add_tab (PsWindow   *self,
                    GtkWidget  *child,
                    const char *title,
                    const char *tooltip)
{
  AdwTabPage *tab = insert_tab (self, child, title, tooltip, -1);

  adw_tab_view_set_selected_page (self->tab_view, tab);
  return tab;
}

static PsRunPage *
find_page (PsWindow *self,
           GFile    *file)
{
  guint n_pages = _ps_window_get_n_children (self);

  for (guint i = 0; i < n_pages; i++)
    {
      GtkWidget *child = _ps_window_get_nth_child (self, i);

      GFile *child_file = PS_IS_RUN_PAGE (child) ? ps_run_page_get_file (PS_RUN_PAGE (child)) : NULL;

      if (child_file != NULL && g_file_equal (child_file, file))
        return PS_RUN_PAGE (child);
    }

  return NULL;
}

void
ps_window_open_file (PsWindow *self,
                     GFile    *file)
{
  PsRunPage *page;

  g_return_if_fail (PS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  /* A folder (perfscope nightly/, one dropped) is a folder of runs */
  if (_ps_window_is_local_folder (file))
    {
      ps_window_open_trend (self, &file, 1);
      return;
    }

  page = find_page (self, file);
  if (page != NULL)
    {
      PsRunPageState state = ps_run_page_get_state (page);

      adw_tab_view_set_selected_page (self->tab_view, tab_of (self, GTK_WIDGET (page)));
      if (state == PS_RUN_PAGE_FAILED || state == PS_RUN_PAGE_CANCELLED)
        ps_run_page_load (page);
      return;
    }

  page = PS_RUN_PAGE (ps_run_page_new (file));
  g_signal_connect_object (page, "notify::state", G_CALLBACK (page_state_changed_cb),
                           self, G_CONNECT_SWAPPED);

  {
    g_autofree char *path = ps_view_file_display_path (file);

    _ps_window_add_tab (self, GTK_WIDGET (page), ps_run_page_get_title (page), path);
  }

  ps_run_page_load (page);
}

gboolean
_ps_window_is_local_folder (GFile *file)
{
  return g_file_is_native (file) && g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY;
}

PsComparePage *
ps_window_compare_files (PsWindow *self,
                         GFile    *file_a,
                         GFile    *file_b)
{
  return ps_window_compare_sessions (self, file_a, -1, file_b, -1);
}

PsComparePage *
ps_window_compare_sessions (PsWindow *self,
                            GFile    *file_a,
                            int       session_a,
                            GFile    *file_b,
                            int       session_b)
{
  PsComparePage *page;
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;
  g_autofree char *tooltip = NULL;

  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file_a), NULL);
  g_return_val_if_fail (G_IS_FILE (file_b), NULL);

  page = PS_COMPARE_PAGE (ps_compare_page_new_for_sessions (file_a, session_a, file_b, session_b));
  g_signal_connect_object (page, "notify::ready", G_CALLBACK (compare_ready_cb),
                           self, G_CONNECT_SWAPPED);

  path_a = ps_view_file_display_path (file_a);
  path_b = ps_view_file_display_path (file_b);
  tooltip = g_strdup_printf ("%s\n%s", path_a, path_b);
  _ps_window_add_tab (self, GTK_WIDGET (page), ps_compare_page_get_title (page), tooltip);

  ps_compare_page_load (page);
  return page;
}

/* Two files given together */

/* A session of a log opened from a trend: shown once its tab is ready */
static void
show_session (PsRunPage *page,
              guint      session)
{
  PsCeView *view = ps_run_page_get_ce_view (page);

  if (view != NULL)
    ps_ce_view_set_session (view, session);
}

static void
session_page_ready_cb (PsRunPage *page,
                       gpointer   data)
{
  g_signal_handlers_disconnect_by_func (page, session_page_ready_cb, data);
  show_session (page, GPOINTER_TO_UINT (data));
}

static void
trend_open_run_cb (PsWindow    *self,
                   GFile       *file,
                   int          session,
                   PsTrendPage *trend)
{
  PsRunPage *page;

  ps_window_open_file (self, file);
  page = find_page (self, file);
  if (page == NULL || session < 0)
    return;
  if (ps_run_page_is_ready (page))
    show_session (page, (guint)session);
  else
    g_signal_connect (page, "ready", G_CALLBACK (session_page_ready_cb), GUINT_TO_POINTER ((guint)session));
}

static void
trend_compare_runs_cb (PsWindow    *self,
                       GFile       *file_before,
                       int          session_before,
                       GFile       *file_after,
                       int          session_after,
                       PsTrendPage *trend)
{
  /* Sessions of one log, or of two, each compared as the run it was */
  ps_window_compare_sessions (self, file_before, session_before, file_after, session_after);
}

PsTrendPage *
ps_window_open_trend (PsWindow      *self,
                      GFile * const *files,
                      guint          n_files)
{
  PsTrendPage *page;
  g_autofree char *tooltip = NULL;

  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (files != NULL && n_files > 0, NULL);

  /* The same runs again: the tab they have */
  for (guint i = 0; i < _ps_window_get_n_children (self); i++)
    {
      GtkWidget *child = _ps_window_get_nth_child (self, i);

      if (PS_IS_TREND_PAGE (child) && ps_trend_page_has_files (PS_TREND_PAGE (child), files, n_files))
        {
          adw_tab_view_set_selected_page (self->tab_view, tab_of (self, child));
          return PS_TREND_PAGE (child);
        }
    }

  page = PS_TREND_PAGE (ps_trend_page_new (files, n_files));
  g_signal_connect_object (page, "open-run", G_CALLBACK (trend_open_run_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "compare-runs", G_CALLBACK (trend_compare_runs_cb), self, G_CONNECT_SWAPPED);
  tooltip = ps_trend_page_get_description (page);
  _ps_window_add_tab (self, GTK_WIDGET (page), ps_trend_page_get_title (page), tooltip);

  ps_trend_page_load (page);
  return page;
}

/* What kind of run a format reads: runs of one kind compare */
typedef enum
{
  RUN_KIND_ANY,       /* a saved run, or a file whose format is unknown */
  RUN_KIND_CE,
  RUN_KIND_RTL,
  RUN_KIND_REPORT,
  RUN_KIND_PROFILE,   /* sampled call stacks: hwpmc logs, pmcstat text */
  RUN_KIND_COUNTERS,  /* PDH logs, PerfLib captures */
} RunKind;

static RunKind
kind_of_format (const PsFormat *format)
{
  if (format == &ps_format_ce_perflog)
    return RUN_KIND_CE;
  if (format == &ps_format_rtl_logfile)
    return RUN_KIND_RTL;
  if (format == &ps_format_vs_report_csv)
    return RUN_KIND_REPORT;
  if (format == &ps_format_hwpmc_pmclog || format == &ps_format_pmcstat_callgraph)
    return RUN_KIND_PROFILE;
  if (format == &ps_format_pdh_csv || format == &ps_format_perflib_plv2)
    return RUN_KIND_COUNTERS;
  /* A saved run keeps the kind it was read from, but only reading it
   * tells which: it may be compared with any run */
  return RUN_KIND_ANY;
}

/* A kind of run as the banner names it */
static const char *
kind_phrase (RunKind kind)
{
  switch (kind)
    {
    case RUN_KIND_CE:
      /* Translators: what a file is, in "a.log is a Windows CE performance log and b.csv a …" */
      return _("a Windows CE performance log");
    case RUN_KIND_RTL:
      /* Translators: what a file is, in "a.log is an OpenOffice RTL log and b.csv a …" */
      return _("an OpenOffice RTL log");
    case RUN_KIND_REPORT:
      /* Translators: what a file is, in "a.csv is a Visual Studio profiler report and b.log a …" */
      return _("a Visual Studio profiler report");
    case RUN_KIND_PROFILE:
      /* Translators: what a file is, in "a.txt is a FreeBSD sampled profile and b.log a …" */
      return _("a FreeBSD sampled profile");
    case RUN_KIND_COUNTERS:
      /* Translators: what a file is, in "a.csv is a Windows performance counter log and b.log a …" */
      return _("a Windows performance counter log");
    case RUN_KIND_ANY:
    default:
      return "";
    }
}

/* Call trees: their functions match by name across kinds (the engine's
 * comparison matches functions when the runs have no series in common) */
static gboolean
kind_has_functions (RunKind kind)
{
  return kind == RUN_KIND_RTL || kind == RUN_KIND_REPORT || kind == RUN_KIND_PROFILE;
}

typedef struct
{
  GFile   *files[2];
  RunKind  kinds[2];
} PairData;

static void
pair_data_free (PairData *data)
{
  g_clear_object (&data->files[0]);
  g_clear_object (&data->files[1]);
  g_free (data);
}

/* The kind of a file, as its first bytes (and its name) tell the loader */
static RunKind
sniff_kind (GFile        *file,
            GCancellable *cancellable)
{
  return kind_of_format (ps_format_sniff_file (file, cancellable));
}

static void
sniff_pair_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  PairData *data = task_data;

  for (guint i = 0; i < 2; i++)
    data->kinds[i] = sniff_kind (data->files[i], cancellable);
  g_task_return_boolean (task, TRUE);
}

/* A banner that is not shown is hidden once it has slid up, so that
 * assistive technologies do not find its empty label and buttons */
static void
pair_banner_revealed_cb (PsWindow    *self,
                         GParamSpec  *pspec,
                         GtkRevealer *revealer)
{
  if (!gtk_revealer_get_reveal_child (revealer) && !gtk_revealer_get_child_revealed (revealer))
    gtk_widget_set_visible (GTK_WIDGET (revealer), FALSE);
}

static void
reveal_pair_banner (PsWindow *self,
                    gboolean  reveal)
{
  if (reveal)
    gtk_widget_set_visible (GTK_WIDGET (self->pair_banner), TRUE);
  gtk_revealer_set_reveal_child (self->pair_banner, reveal);
}

static void
clear_pair (PsWindow *self)
{
  g_clear_object (&self->pair_files[0]);
  g_clear_object (&self->pair_files[1]);
  reveal_pair_banner (self, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-pair", FALSE);
}

/* The banner is over the pair's tabs, and goes with either of them */
static void
update_pair_banner (PsWindow  *self,
                    GtkWidget *current)
{
  GFile *file = PS_IS_RUN_PAGE (current) ? ps_run_page_get_file (PS_RUN_PAGE (current)) : NULL;

  if (self->pair_files[0] == NULL)
    return;
  if (find_page (self, self->pair_files[0]) == NULL || find_page (self, self->pair_files[1]) == NULL)
    {
      clear_pair (self);
      return;
    }
  reveal_pair_banner (self, file != NULL && (g_file_equal (file, self->pair_files[0])
                                             || g_file_equal (file, self->pair_files[1])));
}

/* Runs of two kinds: a tab each, A's current, and the banner */
static void
open_as_two_tabs (PsWindow *self,
                  PairData *data)
{
  g_autofree char *name_a = ps_view_file_display_name (data->files[0]);
  g_autofree char *name_b = ps_view_file_display_name (data->files[1]);
  g_autofree char *kinds = NULL;
  g_autofree char *text = NULL;
  gboolean comparable = kind_has_functions (data->kinds[0]) && kind_has_functions (data->kinds[1]);
  PsRunPage *page_a;

  ps_window_open_file (self, data->files[1]);
  ps_window_open_file (self, data->files[0]);
  page_a = find_page (self, data->files[0]);
  /* A's tab before B's, as the pair was given */
  if (page_a != NULL)
    {
      PsRunPage *page_b = find_page (self, data->files[1]);
      int index_b = page_b != NULL ? _ps_window_get_child_index (self, GTK_WIDGET (page_b)) : -1;

      if (index_b >= 0 && _ps_window_get_child_index (self, GTK_WIDGET (page_a)) > index_b)
        adw_tab_view_reorder_page (self->tab_view, tab_of (self, GTK_WIDGET (page_a)), index_b);
    }

  g_set_object (&self->pair_files[0], data->files[0]);
  g_set_object (&self->pair_files[1], data->files[1]);
  /* Translators: the banner over two files given together (dropped, or
   * --compare A B); the second %s of each pair is what the file is ("a
   * Windows performance counter log", "an OpenOffice RTL log") */
  kinds = g_strdup_printf (_("%s is %s and %s %s: they are opened as two tabs."),
                           name_a, kind_phrase (data->kinds[0]), name_b, kind_phrase (data->kinds[1]));
  text = g_strdup_printf ("%s %s", kinds,
                          comparable
                          ? _("Both have functions, which a comparison can match by name.")
                          : _("They have nothing in common to compare."));
  gtk_label_set_text (self->pair_banner_label, text);
  gtk_widget_set_visible (self->pair_banner_button, comparable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-pair", comparable);
  update_pair_banner (self, _ps_window_get_current_child (self));
}

static void
open_pair_of_kinds (PsWindow *self,
                    PairData *data)
{
  if (data->kinds[0] == data->kinds[1] || data->kinds[0] == RUN_KIND_ANY || data->kinds[1] == RUN_KIND_ANY)
    ps_window_compare_files (self, data->files[0], data->files[1]);
  else
    open_as_two_tabs (self, data);
}

static void
pair_sniffed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  PsWindow *self = PS_WINDOW (object);
  PairData *data = g_task_get_task_data (G_TASK (result));

  self->n_opening_pairs--;
  if (!g_task_propagate_boolean (G_TASK (result), NULL) || self->tab_view == NULL)
    return;
  open_pair_of_kinds (self, data);
}

void
ps_window_open_pair (PsWindow *self,
                     GFile    *file_a,
                     GFile    *file_b)
{
  g_autoptr(GTask) task = NULL;
  PairData *data;

  g_return_if_fail (PS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file_a));
  g_return_if_fail (G_IS_FILE (file_b));

  data = g_new0 (PairData, 1);
  data->files[0] = g_object_ref (file_a);
  data->files[1] = g_object_ref (file_b);

  /* Local files' first bytes are read at once, so that the tabs are there
   * when a drop or the command line returns; those of files elsewhere
   * (a network share) in a thread */
  if (g_file_is_native (file_a) && g_file_is_native (file_b))
    {
      for (guint i = 0; i < 2; i++)
        data->kinds[i] = sniff_kind (data->files[i], NULL);
      open_pair_of_kinds (self, data);
      pair_data_free (data);
      return;
    }

  if (self->pair_cancellable == NULL)
    self->pair_cancellable = g_cancellable_new ();
  self->n_opening_pairs++;
  task = g_task_new (self, self->pair_cancellable, pair_sniffed_cb, NULL);
  g_task_set_source_tag (task, ps_window_open_pair);
  g_task_set_task_data (task, data, (GDestroyNotify)pair_data_free);
  ps_task_run_in_background (task, sniff_pair_thread);
}

void
_ps_window_compare_pair (PsWindow *self)
{
  g_autoptr(GFile) file_a = NULL;
  g_autoptr(GFile) file_b = NULL;

  if (self->pair_files[0] == NULL)
    return;
  file_a = g_object_ref (self->pair_files[0]);
  file_b = g_object_ref (self->pair_files[1]);
  clear_pair (self);
  ps_window_compare_files (self, file_a, file_b);
}

void
_ps_window_dismiss_pair (PsWindow *self)
{
  clear_pair (self);
}

gboolean
ps_window_get_pair_banner_revealed (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), FALSE);
  return gtk_revealer_get_reveal_child (self->pair_banner);
}

const char *
ps_window_get_pair_banner_text (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->pair_banner_label);
}

GtkWidget *
ps_window_get_pair_banner_button (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  return self->pair_banner_button;
}

gboolean
ps_window_is_opening_pair (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), FALSE);
  return self->n_opening_pairs > 0;
}

/* A recording saved: its tab is named after the file, and the actions
 * that need a file (Compare With…) are offered */
static void
page_file_changed_cb (PsWindow   *self,
                      GParamSpec *pspec,
                      PsRunPage  *page)
{
  AdwTabPage *tab = tab_of (self, GTK_WIDGET (page));
  GFile *file = ps_run_page_get_file (page);
  g_autofree char *path = file != NULL ? ps_view_file_display_path (file) : NULL;

  if (tab != NULL)
    set_tab_title (tab, ps_run_page_get_title (page), path);
  if (_ps_window_get_current_child (self) == GTK_WIDGET (page))
    {
      update_title (self, GTK_WIDGET (page));
      _ps_window_update_actions (self);
    }
}

/* A stopped recording: its tab shows the run from now on, in the same
 * place, and the current tab stays the current one */
static void
recording_finished_cb (PsWindow     *self,
                       GError       *error,
                       PsRecordPage *record_page)
{
  int index = _ps_window_get_child_index (self, GTK_WIDGET (record_page));
  gboolean current = GTK_WIDGET (record_page) == _ps_window_get_current_child (self);
  const char *title = ps_record_page_get_title (record_page);
  GtkWidget *page;
  AdwTabPage *tab;

  if (index < 0)
    return;

  page = ps_run_page_new_for_store (title, ps_record_page_get_store (record_page));
  g_signal_connect_object (page, "notify::file", G_CALLBACK (page_file_changed_cb),
                           self, G_CONNECT_SWAPPED);
  tab = insert_tab (self, page, title, title, index + 1);
  _ps_window_remove_child (self, GTK_WIDGET (record_page));
  if (current)
    adw_tab_view_set_selected_page (self->tab_view, tab);
}

PsRecordPage *
ps_window_add_recording (PsWindow     *self,
                         PsCollector  *collector,
                         PsEventStore *store,
                         const char   *title)
{
  GtkWidget *page;

  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (PS_IS_COLLECTOR (collector), NULL);
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  page = ps_record_page_new (collector, store, title);
  g_signal_connect_object (page, "finished", G_CALLBACK (recording_finished_cb),
                           self, G_CONNECT_SWAPPED);
  _ps_window_add_tab (self, page, title, title);

  return PS_RECORD_PAGE (page);
}

static void
recording_started_cb (PsWindow     *self,
                      PsCollector  *collector,
                      PsEventStore *store,
                      const char   *title)
{
  ps_window_add_recording (self, collector, store, title);
}

GtkWidget *
ps_window_show_record_dialog (PsWindow *self)
{
  GtkWidget *dialog;

  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);

  dialog = ps_record_dialog_new (GTK_WINDOW (self));
  g_signal_connect_object (dialog, "started", G_CALLBACK (recording_started_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));

  return dialog;
}

GtkWidget *
_ps_window_get_current_child (PsWindow *self)
{
  AdwTabPage *tab = self->tab_view != NULL ? adw_tab_view_get_selected_page (self->tab_view) : NULL;

  return tab != NULL ? adw_tab_page_get_child (tab) : NULL;
}

guint
_ps_window_get_n_children (PsWindow *self)
{
  return adw_tab_view_get_n_pages (self->tab_view);
}

GtkWidget *
_ps_window_get_nth_child (PsWindow *self,
                          guint     index)
{
  return adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, index));
}

int
_ps_window_get_child_index (PsWindow  *self,
                            GtkWidget *child)
{
  AdwTabPage *tab = tab_of (self, child);

  return tab != NULL ? adw_tab_view_get_page_position (self->tab_view, tab) : -1;
}

void
_ps_window_show_child (PsWindow  *self,
                       GtkWidget *child)
{
  AdwTabPage *tab = tab_of (self, child);

  if (tab != NULL)
    adw_tab_view_set_selected_page (self->tab_view, tab);
}

PsRunPage *
ps_window_get_current_page (PsWindow *self)
{
  GtkWidget *child;

  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);

  child = _ps_window_get_current_child (self);
  return PS_IS_RUN_PAGE (child) ? PS_RUN_PAGE (child) : NULL;
}

guint
ps_window_get_n_pages (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), 0);
  return _ps_window_get_n_children (self);
}

PsRunPage *
ps_window_get_page (PsWindow *self,
                    guint     index)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (index < ps_window_get_n_pages (self), NULL);

  {
    GtkWidget *child = _ps_window_get_nth_child (self, index);

    return PS_IS_RUN_PAGE (child) ? PS_RUN_PAGE (child) : NULL;
  }
}

static void
cancel_child (GtkWidget *child)
{
  if (PS_IS_RUN_PAGE (child))
    ps_run_page_cancel (PS_RUN_PAGE (child));
  else if (PS_IS_COMPARE_PAGE (child))
    ps_compare_page_cancel (PS_COMPARE_PAGE (child));
  else if (PS_IS_TREND_PAGE (child))
    ps_trend_page_cancel (PS_TREND_PAGE (child));
}

void
_ps_window_remove_child (PsWindow  *self,
                         GtkWidget *child)
{
  AdwTabPage *tab = tab_of (self, child);

  if (tab == NULL)
    return;

  /* Closed without a question (tab_view_close_page_cb ()) */
  self->removing_child = child;
  adw_tab_view_close_page (self->tab_view, tab);
  self->removing_child = NULL;
}

/* A recording lives in memory only, until it is saved */
static gboolean
holds_unsaved_recording (GtkWidget *child)
{
  if (PS_IS_RECORD_PAGE (child))
    return TRUE;
  return PS_IS_RUN_PAGE (child) && ps_run_page_get_file (PS_RUN_PAGE (child)) == NULL
         && ps_run_page_get_store (PS_RUN_PAGE (child)) != NULL;
}

guint
ps_window_get_n_unsaved_recordings (PsWindow *self)
{
  guint n_unsaved = 0;

  g_return_val_if_fail (PS_IS_WINDOW (self), 0);

  for (guint i = 0; i < _ps_window_get_n_children (self); i++)
    if (holds_unsaved_recording (_ps_window_get_nth_child (self, i)))
      n_unsaved++;
  return n_unsaved;
}

typedef struct
{
  PsWindow  *window;
  GtkWidget *child;
} CloseQuestion;

static void
close_question_free (gpointer data)
{
  CloseQuestion *question = data;

  g_object_unref (question->window);
  g_object_unref (question->child);
  g_free (question);
}

enum { CLOSE_CANCEL, CLOSE_DISCARD, CLOSE_SAVE };

static void
close_answered_cb (int      choice,
                   gpointer user_data)
{
  CloseQuestion *question = user_data;

  if (_ps_window_get_child_index (question->window, question->child) < 0)
    return;
  if (choice == CLOSE_DISCARD)
    {
      if (PS_IS_RECORD_PAGE (question->child))
        ps_record_page_stop (PS_RECORD_PAGE (question->child));
      _ps_window_remove_child (question->window, question->child);
    }
  else if (choice == CLOSE_SAVE && PS_IS_RUN_PAGE (question->child))
    _ps_window_save_page_as (question->window, PS_RUN_PAGE (question->child), TRUE);
}

/* Closing the tab of a recording that was not saved loses it: the user
 * is asked first */
static void
ask_before_closing (PsWindow  *self,
                    GtkWidget *child)
{
  const char *stop_buttons[] = { _("_Cancel"), _("Stop and _Discard"), NULL };
  const char *save_buttons[] = { _("_Cancel"), _("_Discard"), _("_Save As…"), NULL };
  PsViewQuestion ask = { .destructive = CLOSE_DISCARD };
  const char *title;
  g_autofree char *message = NULL;
  CloseQuestion *question;

  question = g_new0 (CloseQuestion, 1);
  question->window = g_object_ref (self);
  question->child = g_object_ref (child);
  if (PS_IS_RECORD_PAGE (child))
    {
      title = ps_record_page_get_title (PS_RECORD_PAGE (child));
      /* Translators: %s is a recording's title */
      message = g_strdup_printf (_("Stop and Discard “%s”?"), title);
      ask.detail = _("The recording is still going on. Closing its tab stops it, and what was recorded is lost.");
      ask.buttons = stop_buttons;
    }
  else
    {
      title = ps_run_page_get_title (PS_RUN_PAGE (child));
      /* Translators: %s is a recording's title */
      message = g_strdup_printf (_("Save “%s” Before Closing?"), title);
      ask.detail = _("The recording is only in this window. If you do not save it, it is lost.");
      ask.buttons = save_buttons;
    }
  ask.message = message;
  ps_view_ask (GTK_WINDOW (self), &ask, close_answered_cb, question, close_question_free);
}

/* Every tab closes through here: its close button, Ctrl+W, the pages'
 * own Close buttons and _ps_window_remove_child () */
static gboolean
tab_view_close_page_cb (PsWindow   *self,
                        AdwTabPage *tab,
                        AdwTabView *tab_view)
{
  GtkWidget *child = adw_tab_page_get_child (tab);
  gboolean now = child == self->removing_child || !holds_unsaved_recording (child);

  /* Stop the worker now rather than when the last reference goes */
  if (now)
    cancel_child (child);
  adw_tab_view_close_page_finish (tab_view, tab, now);
  if (!now)
    ask_before_closing (self, child);
  return GDK_EVENT_STOP;
}

void
_ps_window_close_child (PsWindow  *self,
                        GtkWidget *child)
{
  AdwTabPage *tab = tab_of (self, child);

  if (tab != NULL)
    adw_tab_view_close_page (self->tab_view, tab);
}

/* A right click on a tab, or its menu key: the menu is about this tab */
static void
tab_view_setup_menu_cb (PsWindow   *self,
                        AdwTabPage *tab,
                        AdwTabView *tab_view)
{
  /* Called with NULL when the menu closes, after its item's action ran */
  if (tab == NULL)
    return;
  adw_tab_view_set_selected_page (tab_view, tab);
  g_menu_remove_all (self->tab_menu);
  _ps_window_fill_tab_menu (self, self->tab_menu, adw_tab_page_get_child (tab));
}

void
ps_window_close_page (PsWindow  *self,
                      PsRunPage *page)
{
  g_return_if_fail (PS_IS_WINDOW (self));
  g_return_if_fail (PS_IS_RUN_PAGE (page));

  _ps_window_close_child (self, GTK_WIDGET (page));
}

const char *
ps_window_get_visible_state (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

static void
toast_dismissed_cb (PsWindow *self,
                    AdwToast *toast)
{
  if (self->toast == toast)
    self->toast = NULL;
}

void
ps_window_show_saved (PsWindow *self,
                      GFile    *file)
{
  g_autofree char *name = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  g_autofree char *uri = NULL;
  AdwToast *toast;

  g_return_if_fail (PS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  name = ps_view_file_display_name (file);
  /* A toast's title is Pango markup */
  escaped = g_markup_escape_text (name, -1);
  /* Translators: a toast after a run, a table, a picture or a report was
   * written; %s is the file's name */
  title = g_strdup_printf (_("Saved as %s"), escaped);
  uri = g_file_get_uri (file);
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("Open Folder"));
  adw_toast_set_action_name (toast, "win.open-folder");
  adw_toast_set_action_target_value (toast, g_variant_new_string (uri));
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), self, G_CONNECT_SWAPPED);
  self->toast = toast;
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

AdwToast *
ps_window_get_toast (PsWindow *self)
{
  g_return_val_if_fail (PS_IS_WINDOW (self), NULL);
  return self->toast;
}

/* The window's size and state, for the next window (GNOME Text Editor's
 * editor-window.c does the same on close-request). The size is the last
 * unmaximized one: GTK keeps it as the default size. */
void
ps_window_save_state (PsWindow *self)
{
  int width = 0, height = 0;

  g_return_if_fail (PS_IS_WINDOW (self));

  if (self->settings == NULL)
    return;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  /* Within the schema's range, which refuses a smaller one */
  if (width >= 360 && height >= 294)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);
}

static void
restore_state (PsWindow *self)
{
  if (self->settings == NULL)
    return;

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
window_close_answered_cb (int      choice,
                          gpointer user_data)
{
  PsWindow *self = user_data;

  if (choice != CLOSE_DISCARD)
    return;
  self->closing_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
ps_window_close_request (GtkWindow *window)
{
  PsWindow *self = PS_WINDOW (window);
  guint n_unsaved = ps_window_get_n_unsaved_recordings (self);

  if (n_unsaved > 0 && !self->closing_confirmed)
    {
      const char *buttons[] = { _("_Cancel"), _("Close _Without Saving"), NULL };
      g_autofree char *detail = NULL;

      detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "A recording is only in this window. Closing it loses the recording; "
                                             "save it with Save As… first.",
                                             "%u recordings are only in this window. Closing it loses them; "
                                             "save each with Save As… first.", n_unsaved),
                                n_unsaved);
      gtk_window_present (window);
      ps_view_ask (window,
                   &(PsViewQuestion) {
                     .message = g_dngettext (GETTEXT_PACKAGE, "Close Without Saving the Recording?",
                                             "Close Without Saving the Recordings?", n_unsaved),
                     .detail = detail,
                     .buttons = buttons,
                     .destructive = CLOSE_DISCARD,
                   },
                   window_close_answered_cb, g_object_ref (self), g_object_unref);
      return TRUE;
    }

  ps_window_save_state (self);
  return GTK_WINDOW_CLASS (ps_window_parent_class)->close_request (window);
}

static void
ps_window_dispose (GObject *object)
{
  PsWindow *self = PS_WINDOW (object);

  /* Cancel the loaders of all pages */
  if (self->tab_view != NULL)
    {
      guint n_pages = _ps_window_get_n_children (self);

      for (guint i = 0; i < n_pages; i++)
        cancel_child (_ps_window_get_nth_child (self, i));

      /* GtkWindow drops its children itself (no dispose_template for a
       * window); their signals must not reach a half-disposed window. */
      g_signal_handlers_disconnect_by_data (self->tab_view, self);
      self->tab_view = NULL;
      self->stack = NULL;
    }
  g_clear_object (&self->tab_menu);
  g_cancellable_cancel (self->pair_cancellable);
  g_clear_object (&self->pair_cancellable);
  g_clear_object (&self->pair_files[0]);
  g_clear_object (&self->pair_files[1]);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ps_window_parent_class)->dispose (object);
}

static void
ps_window_class_init (PsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = ps_window_close_request;

  g_type_ensure (PS_TYPE_RUN_PAGE);
  g_type_ensure (PS_TYPE_COMPARE_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, empty_state);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, tab_bar);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, pair_banner);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, pair_banner_label);
  gtk_widget_class_bind_template_child (widget_class, PsWindow, pair_banner_button);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_pages_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_close_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_setup_menu_cb);

  _ps_window_class_init_actions (widget_class);
}

static void
ps_window_init (PsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->tab_menu = g_menu_new ();
  name_stack_page (self->empty_state, _("Welcome"));
  name_stack_page (gtk_stack_get_child_by_name (self->stack, "runs"), _("Open Runs"));
  g_signal_connect_object (self->pair_banner, "notify::child-revealed", G_CALLBACK (pair_banner_revealed_cb),
                           self, G_CONNECT_SWAPPED);
  adw_tab_view_set_menu_model (self->tab_view, G_MENU_MODEL (self->tab_menu));

  _ps_window_init_actions (self);
  restore_state (self);
  _ps_window_init_dnd (self);
  _ps_window_update_actions (self);
  /* Until two runs of different kinds are opened together */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-pair", FALSE);
}

PsWindow *
ps_window_new (GtkApplication *application)
{
  return g_object_new (PS_TYPE_WINDOW,
                       "application", application,
                       NULL);
}
