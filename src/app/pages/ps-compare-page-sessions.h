/* ps-compare-page-sessions.h — a side of a comparison that is one session
 * of its file
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A CE PerfLog appended to run after run holds each run as a session. A
 * side of a comparison may be one of them (session ≥ 0, 0-based; −1: the
 * whole file): its run page loads the whole file and shows that session,
 * and the comparison counts only that session's values
 * (PsRunDiffOptions session_a, session_b). Sessions are numbered from 1
 * where the user reads them, as in the session list of the CE view.
 */
#pragma once

#include "ps-run-page.h"

G_BEGIN_DECLS

/* The side's name: the file's ("nightly.log"), or the session's
 * ("nightly.log — session 9 of 14"; "… — session 9" until the file is
 * read); g_free () */
char     *ps_compare_side_dup_name       (PsRunPage  *page,
                                          int         session);
/* The session alone, "session 9 of 14" ("session 9" until the file is
 * read), where both sides are sessions of one file named elsewhere;
 * NULL for a whole file. g_free () */
char     *ps_compare_side_dup_session    (PsRunPage  *page,
                                          int         session);
/* Whether both sides are sessions of one file */
gboolean  ps_compare_side_same_file      (PsRunPage  *page_a,
                                          int         session_a,
                                          PsRunPage  *page_b,
                                          int         session_b);
/* The tab's title: "a.log ↔ b.log", "nightly.log: sessions 9 ↔ 10" for
 * two sessions of one file; g_free () */
char     *ps_compare_side_dup_tab_title  (PsRunPage  *page_a,
                                          int         session_a,
                                          PsRunPage  *page_b,
                                          int         session_b);
/* Once the page is read and shown, its CE view shows that session and
 * its timeline the session's measurements */
void      ps_compare_side_show_session   (PsRunPage  *page,
                                          int         session);
/* When the file was read without that session, why there is nothing to
 * compare ("“a.log” has no session 9: it has 3."); else NULL. g_free () */
char     *ps_compare_side_dup_missing    (PsRunPage  *page,
                                          int         session);

G_END_DECLS
