/* ps-report-view-private.h — what tests look at inside a PsReportView
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-call-tree-view.h"
#include "ps-report-view.h"

G_BEGIN_DECLS


G_END_DECLS
