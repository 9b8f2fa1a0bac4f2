/* ps-warning-row.h — one warning of a run, as a list item
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_TYPE_WARNING_ROW (ps_warning_row_get_type ())
G_DECLARE_FINAL_TYPE (PsWarningRow, ps_warning_row, PS, WARNING_ROW, GObject)

PsWarningRow *ps_warning_row_new          (PsEventStore    *store,
                                           const PsWarning *warning);
PsSeverity    ps_warning_row_get_severity (PsWarningRow    *self);
const char   *ps_warning_row_get_code     (PsWarningRow    *self);
const char   *ps_warning_row_get_message  (PsWarningRow    *self);
guint64       ps_warning_row_get_line     (PsWarningRow    *self);
guint64       ps_warning_row_get_offset   (PsWarningRow    *self);

G_END_DECLS
