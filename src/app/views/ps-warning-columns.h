/* ps-warning-columns.h — the columns of a table of PsWarningRow items
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Severity (icon and word), line (or byte offset), code and message, as
 * the CE view shows them.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ps_warning_columns_add (GtkColumnView *view);

G_END_DECLS
