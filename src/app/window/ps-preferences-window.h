/* ps-preferences-window.h — the Preferences window
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PS_TYPE_PREFERENCES_WINDOW (ps_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (PsPreferencesWindow, ps_preferences_window, PS, PREFERENCES_WINDOW, AdwPreferencesWindow)

/* application: a PsApplication, whose properties "symbol-folder" and
 * "automatic-max-events" the window reads and sets; settings: the
 * application's, or NULL without the schema (the widgets are then
 * insensitive) */
GtkWidget *ps_preferences_window_new (GtkApplication *application,
                                      GSettings      *settings);

/* Tests */
GtkSpinButton *ps_preferences_window_get_recent_spin  (PsPreferencesWindow *self);
GtkSpinButton *ps_preferences_window_get_events_spin  (PsPreferencesWindow *self);
GtkDropDown   *ps_preferences_window_get_basis_dropdown (PsPreferencesWindow *self);
GtkDropDown   *ps_preferences_window_get_scale_dropdown (PsPreferencesWindow *self);
GtkListBox    *ps_preferences_window_get_folder_list  (PsPreferencesWindow *self);

G_END_DECLS
