/* ps-compare-page-sessions.c — a side of a comparison that is one session
 * of its file
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the compare page says and shows of a side that is one session of
 * an appended CE log (ps-compare-page-sessions.h); the diff keeps to that
 * session itself (ps-run-diff.h).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-ce-view.h"
#include "ps-compare-page-sessions.h"
#include "ps-run-page-private.h"
#include "ps-session.h"

/* The sessions of the page's file once it is read, else 0 */
static guint
n_sessions_read (PsRunPage *page)
{
  PsEventStore *store = ps_run_page_get_store (page);

  return store != NULL ? ps_event_store_get_n_sessions (store) : 0;
}

char *
ps_compare_side_dup_name (PsRunPage *page,
                          int        session)
{
  g_autofree char *which = NULL;

  g_return_val_if_fail (PS_IS_RUN_PAGE (page), NULL);

  if (session < 0)
    return g_strdup (ps_run_page_get_title (page));
  which = ps_compare_side_dup_session (page, session);
  /* Translators: a log and one of its sessions, a side of a comparison:
   * "nightly.log — session 9 of 14" */
  return g_strdup_printf (C_("a session of a log", "%1$s — %2$s"), ps_run_page_get_title (page), which);
}

char *
ps_compare_side_dup_session (PsRunPage *page,
                             int        session)
{
  guint n_sessions;

  g_return_val_if_fail (PS_IS_RUN_PAGE (page), NULL);

  if (session < 0)
    return NULL;
  n_sessions = n_sessions_read (page);
  if ((guint)session < n_sessions)
    /* Translators: a session of a log, a side of a comparison: "session 9
     * of 14", after the log's name or alone where both sides are
     * sessions of one log ("session 8 of 14 ↔ session 9 of 14") */
    return g_strdup_printf (_("session %1$u of %2$u"), (guint)session + 1, n_sessions);
  /* Translators: the same before the log is read: "session 9" */
  return g_strdup_printf (_("session %u"), (guint)session + 1);
}

gboolean
ps_compare_side_same_file (PsRunPage *page_a,
                           int        session_a,
                           PsRunPage *page_b,
                           int        session_b)
{
  g_return_val_if_fail (PS_IS_RUN_PAGE (page_a) && PS_IS_RUN_PAGE (page_b), FALSE);

  return session_a >= 0 && session_b >= 0
         && g_file_equal (ps_run_page_get_file (page_a), ps_run_page_get_file (page_b));
}

char *
ps_compare_side_dup_tab_title (PsRunPage *page_a,
                               int        session_a,
                               PsRunPage *page_b,
                               int        session_b)
{
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;

  g_return_val_if_fail (PS_IS_RUN_PAGE (page_a) && PS_IS_RUN_PAGE (page_b), NULL);

  if (ps_compare_side_same_file (page_a, session_a, page_b, session_b))
    /* Translators: a tab comparing two sessions of one log:
     * "nightly.log: sessions 9 ↔ 10" */
    return g_strdup_printf (_("%1$s: sessions %2$u ↔ %3$u"), ps_run_page_get_title (page_a),
                            (guint)session_a + 1, (guint)session_b + 1);
  name_a = ps_compare_side_dup_name (page_a, session_a);
  name_b = ps_compare_side_dup_name (page_b, session_b);
  return g_strdup_printf ("%s ↔ %s", name_a, name_b);
}

/* The CE view on the session, and the timeline on its rows and
 * measurements, also when it is the session the view starts on */
static void
show_now (PsRunPage *page,
          guint      session)
{
  PsCeView *view = ps_run_page_get_ce_view (page);
  PsSession *shown = ps_run_page_get_session (page);

  if (session >= n_sessions_read (page))
    return;
  if (view != NULL)
    ps_ce_view_set_session (view, session);
  if (shown != NULL)
    ps_session_set_log_session (shown, session);
}

static void
page_ready_cb (PsRunPage *page,
               gpointer   data)
{
  show_now (page, GPOINTER_TO_UINT (data));
}

void
ps_compare_side_show_session (PsRunPage *page,
                              int        session)
{
  g_return_if_fail (PS_IS_RUN_PAGE (page));

  if (session < 0)
    return;
  /* Every load: the page may be reloaded */
  g_signal_connect (page, "ready", G_CALLBACK (page_ready_cb), GUINT_TO_POINTER ((guint)session));
  if (ps_run_page_is_ready (page))
    show_now (page, (guint)session);
}

char *
ps_compare_side_dup_missing (PsRunPage *page,
                             int        session)
{
  guint n_sessions;

  g_return_val_if_fail (PS_IS_RUN_PAGE (page), NULL);

  n_sessions = n_sessions_read (page);
  if (session < 0 || ps_run_page_get_store (page) == NULL || (guint)session < n_sessions)
    return NULL;
  /* Translators: a side of a comparison is a session the log does not
   * have (any more): "“nightly.log” has no session 9: it has 3." */
  return g_strdup_printf (ngettext ("“%1$s” has no session %2$u: it has %3$u.",
                                    "“%1$s” has no session %2$u: it has %3$u.", n_sessions),
                          ps_run_page_get_title (page), (guint)session + 1, n_sessions);
}
