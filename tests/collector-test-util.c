/* collector-test-util.c — driving a collector from a test
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "collector-test-util.h"
#include "ps-error.h"

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

gboolean
collector_test_start (PsCollector   *collector,
                      PsEventStore  *store,
                      GHashTable    *options,
                      GError       **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Wait wait = { loop, NULL };
  gboolean started;

  ps_collector_start_async (collector, store, options, NULL, on_done, &wait);
  g_main_loop_run (loop);
  started = ps_collector_start_finish (collector, wait.result, error);
  g_object_unref (wait.result);
  return started;
}

gboolean
collector_test_stop (PsCollector  *collector,
                     GError      **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Wait wait = { loop, NULL };
  gboolean stopped;

  ps_collector_stop_async (collector, NULL, on_done, &wait);
  g_main_loop_run (loop);
  stopped = ps_collector_stop_finish (collector, wait.result, error);
  g_object_unref (wait.result);
  return stopped;
}

static gboolean
on_timeout (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

void
collector_test_run_for (guint duration_ms)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_timeout_add (duration_ms, on_timeout, loop);
  g_main_loop_run (loop);
}

typedef struct
{
  gboolean  (*done) (gpointer user_data);
  gpointer    user_data;
  GMainLoop  *loop;
} Poll;

static gboolean
on_poll (gpointer user_data)
{
  Poll *poll = user_data;

  if (!poll->done (poll->user_data))
    return G_SOURCE_CONTINUE;
  g_main_loop_quit (poll->loop);
  return G_SOURCE_REMOVE;
}

void
collector_test_run_until (gboolean (*done) (gpointer user_data),
                          gpointer   user_data)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Poll poll = { done, user_data, loop };

  g_timeout_add (5, on_poll, &poll);
  g_main_loop_run (loop);
}

typedef struct
{
  guint64  (*count) (PsEventStore *store);
  guint64   *n_live;
} Live;

static void
on_appended (PsEventStore *store,
             gpointer      user_data)
{
  Live *live = user_data;

  *live->n_live = live->count (store);
}

PsEventStore *
collector_test_record (PsCollector   *collector,
                       GHashTable    *options,
                       gboolean     (*done) (gpointer user_data),
                       gpointer       user_data,
                       guint64      (*count) (PsEventStore *store),
                       guint64       *n_live)
{
  g_autoptr(GError) error = NULL;
  PsEventStore *store = ps_event_store_new ();
  Live live = { count, n_live };

  *n_live = 0;
  g_signal_connect (store, "appended", G_CALLBACK (on_appended), &live);
  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);

  collector_test_run_until (done, user_data);
  /* What the collector still holds is taken on the next iterations */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_signal_handlers_disconnect_by_func (store, on_appended, &live);

  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);
  return store;
}

void
collector_test_assert_start_fails (PsCollector *collector,
                                   GHashTable  *options,
                                   const char  *message)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (collector_test_start (collector, store, options, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_FAILED);
  if (strstr (error->message, message) == NULL)
    g_error ("“%s” does not hold “%s”", error->message, message);
  /* A start that failed leaves the store untouched */
  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 0);
}

void
collector_test_assert_not_available (const char *name,
                                     guint       n_options,
                                     const char *message)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;
  guint n_listed;

  ps_collectors_load (NULL);
  collector = ps_collectors_create (name, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_collector_get_name (collector), ==, name);
  g_assert_nonnull (ps_collector_list_options (collector, &n_listed));
  g_assert_cmpuint (n_listed, ==, n_options);
  g_assert_false (collector_test_start (collector, store, NULL, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, message);
}

/* A type module for a collector linked into the program */

#define TEST_TYPE_MODULE (test_module_get_type ())
G_DECLARE_FINAL_TYPE (TestModule, test_module, TEST, MODULE, GTypeModule)

struct _TestModule
{
  GTypeModule   parent_instance;

  void        (*register_types) (GTypeModule *module);
};

G_DEFINE_FINAL_TYPE (TestModule, test_module, G_TYPE_TYPE_MODULE)

static gboolean
test_module_load (GTypeModule *module)
{
  TEST_MODULE (module)->register_types (module);
  return TRUE;
}

static void
test_module_unload (GTypeModule *module)
{
}

static void
test_module_class_init (TestModuleClass *klass)
{
  G_TYPE_MODULE_CLASS (klass)->load = test_module_load;
  G_TYPE_MODULE_CLASS (klass)->unload = test_module_unload;
}

static void
test_module_init (TestModule *self)
{
}

void
collector_test_ensure_module (void (*register_types) (GTypeModule *module))
{
  static TestModule *module;

  if (module != NULL)
    return;
  module = g_object_new (TEST_TYPE_MODULE, NULL);
  module->register_types = register_types;
  g_assert_true (g_type_module_use (G_TYPE_MODULE (module)));
}
