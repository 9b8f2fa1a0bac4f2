/* ps-scope-row.h — one row of the scope tree: a session, thread, scope or message
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Made by PsScopeList in get_item only, i.e. for the rows of expanded
 * nodes; the data stays in the event store. The values sorters need are
 * properties.
 */
#pragma once

#include <gio/gio.h>

#include "ps-scope-analysis.h"

G_BEGIN_DECLS

typedef enum
{
  PS_SCOPE_ROW_THREAD = PS_SCOPE_NODE_THREAD,   /* index: a track */
  PS_SCOPE_ROW_SPAN = PS_SCOPE_NODE_SPAN,       /* index: a span */
  PS_SCOPE_ROW_MARK = PS_SCOPE_NODE_MARK,       /* index: a mark */
  PS_SCOPE_ROW_SESSION,                         /* index: a session */
} PsScopeRowKind;

/* No value (a message's duration, a scope's line): sorts first */
#define PS_SCOPE_ROW_NO_TIME G_MININT64

#define PS_TYPE_SCOPE_ROW (ps_scope_row_get_type ())
G_DECLARE_FINAL_TYPE (PsScopeRow, ps_scope_row, PS, SCOPE_ROW, GObject)

PsScopeRow      *ps_scope_row_new             (PsScopeAnalysis *analysis,
                                               PsScopeRowKind   kind,
                                               guint32          index);
PsScopeAnalysis *ps_scope_row_get_analysis    (PsScopeRow      *self);
PsScopeRowKind   ps_scope_row_get_kind        (PsScopeRow      *self);
guint32          ps_scope_row_get_index       (PsScopeRow      *self);
guint32          ps_scope_row_get_session     (PsScopeRow      *self);
/* "Thread 1", "Session 2", a scope's name or a message's text, valid UTF-8 */
const char      *ps_scope_row_get_name        (PsScopeRow      *self);
/* The whole record: "context : { name" for a logical scope, "name : text"
 * for a message; NULL for threads and sessions */
char            *ps_scope_row_dup_record_text (PsScopeRow      *self);
/* Nanoseconds from the session's timer start, PS_SCOPE_ROW_NO_TIME if none */
gint64           ps_scope_row_get_begin_ns    (PsScopeRow      *self);
/* Scopes: end − begin (a bound when not measured); threads: the time of
 * their top-level scopes; PS_SCOPE_ROW_NO_TIME for the rest */
gint64           ps_scope_row_get_duration_ns (PsScopeRow      *self);
gint64           ps_scope_row_get_self_ns     (PsScopeRow      *self);
/* Wall-clock time of the beginning, ns since 1970, 0 if unknown */
gint64           ps_scope_row_get_wall_ns     (PsScopeRow      *self);
/* The thread id, -1 for a session */
gint64           ps_scope_row_get_thread_id   (PsScopeRow      *self);
/* Messages: the file line, else 0 */
guint64          ps_scope_row_get_line        (PsScopeRow      *self);
/* PsSpanFlags or PsMarkFlags */
guint            ps_scope_row_get_flags       (PsScopeRow      *self);
/* Whether a scope's duration counts (PS_SPAN_FLAGS_NOT_MEASURED); for a
 * thread, whether all its top-level scopes count */
gboolean         ps_scope_row_is_measured     (PsScopeRow      *self);
/* Scopes and messages under a thread; threads under a session */
guint64          ps_scope_row_get_n_spans     (PsScopeRow      *self);
guint64          ps_scope_row_get_n_marks     (PsScopeRow      *self);

G_END_DECLS
