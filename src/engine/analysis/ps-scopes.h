/* ps-scopes.h — nested scopes (spans): self times, filters, totals
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3 (derived values) and §5 (the reports of the
 * original tools: totals per scope name, include/exclude filters).
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

/* Include and exclude regular expressions (Perl syntax, matched on the raw
 * bytes). A scope is kept if it matches at least one include expression,
 * or there is none, and no exclude expression. A scope is matched on the
 * text of its begin record: its name, or for a logical scope
 * "context : { name". Filters apply to whole scopes, so a begin and its end
 * are never separated. */
typedef struct _PsScopeFilter PsScopeFilter;

PsScopeFilter *ps_scope_filter_new         (void);
void           ps_scope_filter_free        (PsScopeFilter  *self);
gboolean       ps_scope_filter_add         (PsScopeFilter  *self,
                                            gboolean        include,
                                            const char     *pattern,
                                            GError        **error);
/* One expression per line; blank lines and lines starting with "#" are
 * skipped (the files of the original tool's -i and -e options). */
gboolean       ps_scope_filter_add_file    (PsScopeFilter  *self,
                                            gboolean        include,
                                            const char     *path,
                                            GError        **error);
gboolean       ps_scope_filter_is_empty    (PsScopeFilter  *self);
/* Keeps only the scopes that lie wholly inside [begin_ns, end_ns], and
 * the messages written in it */
void           ps_scope_filter_set_time_range (PsScopeFilter *self,
                                            gint64          begin_ns,
                                            gint64          end_ns);
gboolean       ps_scope_filter_get_time_range (PsScopeFilter *self,
                                            gint64         *begin_ns,
                                            gint64         *end_ns);
/* Whether a time lies in the range (TRUE without one) */
gboolean       ps_scope_filter_match_time  (PsScopeFilter  *self,
                                            gint64          time_ns);
gboolean       ps_scope_filter_match_text  (PsScopeFilter  *self,
                                            const char     *text,
                                            gssize          length);
/* Whether the span is kept; remembers the answer per name and context. */
gboolean       ps_scope_filter_match_span  (PsScopeFilter  *self,
                                            PsEventStore   *store,
                                            guint64         index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsScopeFilter, ps_scope_filter_free)

/* A span whose duration counts: ended normally (flags outside
 * PS_SPAN_FLAGS_NOT_MEASURED) and not negative. */
gboolean       ps_span_is_measured         (const PsSpan   *span);

/* Calls func for every span with its self time: its duration minus the
 * durations of its measured children (rtl-logfile.md §4.1). Spans come in
 * the order they end per track, not in store order. */
typedef void (*PsSelfTimeFunc) (guint64       index,
                                const PsSpan *span,
                                gint64        self_ns,
                                gpointer      user_data);

void           ps_scopes_foreach_self_time (PsEventStore   *store,
                                            PsSelfTimeFunc  func,
                                            gpointer        user_data);
/* The same; stops, returning FALSE, when cancellable (may be NULL) is
 * cancelled meanwhile: func has then seen only some of the spans */
gboolean       ps_scopes_foreach_self_time_cancellable (PsEventStore   *store,
                                            PsSelfTimeFunc  func,
                                            gpointer        user_data,
                                            GCancellable   *cancellable);
/* The self time of every span, indexed like the store's spans; g_free() */
gint64        *ps_scopes_get_self_times    (PsEventStore   *store);

G_END_DECLS
