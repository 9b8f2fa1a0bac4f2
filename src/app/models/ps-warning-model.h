/* ps-warning-model.h — the warnings of a run as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Items (PsWarningRow) are made in get_item only; the warnings stay in
 * the event store. They come in the order of their line (or byte offset)
 * in the file, those about the whole file first.
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_TYPE_WARNING_MODEL (ps_warning_model_get_type ())
G_DECLARE_FINAL_TYPE (PsWarningModel, ps_warning_model, PS, WARNING_MODEL, GObject)

PsWarningModel *ps_warning_model_new (PsEventStore *store);

G_END_DECLS
