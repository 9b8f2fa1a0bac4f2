/* ps-record-dialog.h — New Recording: a backend, its options, Record
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-collector.h"

G_BEGIN_DECLS

#define PS_TYPE_RECORD_DIALOG (ps_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (PsRecordDialog, ps_record_dialog, PS, RECORD_DIALOG, GtkWindow)

/* Offers the loaded collectors. Record starts the chosen one into a new
 * store; once it runs, "started" (collector, store, title) is emitted and
 * the dialog closes. A collector that cannot start leaves the dialog
 * open with the reason. */
GtkWidget *ps_record_dialog_new             (GtkWindow      *parent);
/* Testing API: the option widget of a collector option key, or NULL */
GtkWidget *ps_record_dialog_get_option_widget (PsRecordDialog *self,
                                               const char     *key);
/* The value an option's widget gives the collector, or NULL for no such
 * option; free with g_free () */
char      *ps_record_dialog_get_option_value (PsRecordDialog *self,
                                              const char     *key);
/* The entry an open choice shows after "Other…", or NULL */
GtkWidget *ps_record_dialog_get_option_other_entry (PsRecordDialog *self,
                                                    const char     *key);
gboolean   ps_record_dialog_select_backend  (PsRecordDialog *self,
                                             const char     *name);
/* Sets an option's widget as the user would, from the value the collector
 * reads (a process's number selects it in the list); FALSE if it cannot */
gboolean   ps_record_dialog_set_option      (PsRecordDialog *self,
                                             const char     *key,
                                             const char     *value);
void       ps_record_dialog_record          (PsRecordDialog *self);
/* The name of the backend chosen, or NULL */
const char *ps_record_dialog_get_backend    (PsRecordDialog *self);
/* Whether Record can start the backend chosen */
gboolean   ps_record_dialog_can_record      (PsRecordDialog *self);
/* The text under the options: what Record does, or what the sandbox
 * lets the backend see */
const char *ps_record_dialog_get_hint       (PsRecordDialog *self);
/* The text of the error shown, or NULL */
const char *ps_record_dialog_get_error      (PsRecordDialog *self);

G_END_DECLS
