/* collector-test-util.h — driving a collector from a test
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Start and stop run to their end on the thread-default main context, so
 * a test reads as a sequence; a collector linked into the test program is
 * registered through a type module of its own.
 */
#pragma once

#include <gio/gio.h>

#include "ps-collector.h"

G_BEGIN_DECLS

/* ps_collector_start_async () and its result */
gboolean     collector_test_start      (PsCollector    *collector,
                                        PsEventStore   *store,
                                        GHashTable     *options,
                                        GError        **error);
/* ps_collector_stop_async () and its result */
gboolean     collector_test_stop       (PsCollector    *collector,
                                        GError        **error);
/* Runs the thread-default main context for duration_ms */
void         collector_test_run_for    (guint           duration_ms);
/* Runs the thread-default main context until done (user_data) is TRUE,
 * asking every 5 ms */
void         collector_test_run_until  (gboolean      (*done) (gpointer user_data),
                                        gpointer        user_data);
/* Records into a new store: starts collector, runs the thread-default
 * main context until done (user_data) is TRUE and while it has work
 * pending, then stops. *n_live is count (store) after the last "appended"
 * before stop, 0 without one. */
PsEventStore *collector_test_record    (PsCollector    *collector,
                                        GHashTable     *options,
                                        gboolean      (*done) (gpointer user_data),
                                        gpointer        user_data,
                                        guint64       (*count) (PsEventStore *store),
                                        guint64        *n_live);
/* Starting collector with options fails with PS_ERROR_FAILED and a
 * message that holds message, leaving the store untouched */
void         collector_test_assert_start_fails (PsCollector *collector,
                                                GHashTable  *options,
                                                const char  *message);
/* The installed or built module of the collector name loads, has
 * n_options options and cannot start, saying message: for a build without
 * the system's interface */
void         collector_test_assert_not_available (const char *name,
                                                  guint       n_options,
                                                  const char *message);
/* A type module in use for the life of the program that registers the
 * dynamic types of a collector linked in, with register_types; created
 * on the first call */
void         collector_test_ensure_module (void       (*register_types) (GTypeModule *module));

G_END_DECLS
