/* ps-report-view-private.h — what tests look at inside a PsReportView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-report-view.h"

G_BEGIN_DECLS

PsCallTreeView *ps_report_view_get_call_tree_view (PsReportView *self);
/* PsWarningRow items */
GListModel     *ps_report_view_get_warning_model  (PsReportView *self);
const char     *ps_report_view_get_visible_page   (PsReportView *self);
const char     *ps_report_view_get_header_value   (PsReportView *self,
                                                   const char   *field);
const char     *ps_report_view_get_warnings_title (PsReportView *self);

G_END_DECLS
