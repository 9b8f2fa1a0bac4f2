/* ps-error.h — the Perfscope error domain
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PS_ERROR (ps_error_quark ())

typedef enum
{
  PS_ERROR_FAILED,
  /* No registered format recognised the content. */
  PS_ERROR_UNKNOWN_FORMAT,
  /* A format name given by the user does not exist. */
  PS_ERROR_NO_SUCH_FORMAT,
  /* The content stopped being parseable: the message says where. */
  PS_ERROR_PARSE,
  /* The content ended in the middle of a record. */
  PS_ERROR_TRUNCATED,
  /* The input is larger or deeper than this build can hold. */
  PS_ERROR_TOO_LARGE,
  /* The run has no data of the kind asked for (e.g. no call stacks). */
  PS_ERROR_NO_DATA,
  /* A known format, but a version or variant this build does not read. */
  PS_ERROR_UNSUPPORTED_VERSION,
  /* Reading stopped at the limit of events kept in memory. */
  PS_ERROR_LIMIT,
} PsErrorCode;

GQuark ps_error_quark (void);

G_END_DECLS
