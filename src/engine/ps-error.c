/* ps-error.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ps-error.h"

G_DEFINE_QUARK (ps-error-quark, ps_error)
