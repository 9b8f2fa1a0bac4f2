/* ps-collector.h — live collection backends, loaded as GIO modules
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A collector records a live run into a PsEventStore. Collectors are
 * plugins: GIO modules that implement PS_TYPE_COLLECTOR on the
 * "perfscope-collector" extension point (extension name: the backend,
 * e.g. "procfs"). ps_collectors_load () loads the installed ones and
 * those of $PERFSCOPE_COLLECTOR_DIR; a module that cannot be loaded costs
 * one warning and is skipped.
 *
 * Threading: a collector writes the store only from the main context
 * that was the thread-default one when start was called, through a
 * PsStoreBuilder, and calls ps_event_store_emit_appended () after each
 * committed batch, so views on that context can follow the run.
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_COLLECTOR_EXTENSION_POINT_NAME "perfscope-collector"
/* Development: a folder of collector modules loaded before the installed ones */
#define PS_COLLECTOR_DIR_ENV "PERFSCOPE_COLLECTOR_DIR"

typedef enum
{
  PS_COLLECTOR_OPTION_STRING,
  PS_COLLECTOR_OPTION_INT,
  PS_COLLECTOR_OPTION_BOOLEAN,   /* "true" or "false" */
  PS_COLLECTOR_OPTION_PID,       /* a process id; empty for none */
  PS_COLLECTOR_OPTION_COMMAND,   /* a command line, split as the shell would */
} PsCollectorOptionType;

/* What start_async understands in its options table (string keys and
 * string values). label is translated; default_value may be "" */
typedef struct
{
  const char            *key;
  const char            *label;
  PsCollectorOptionType  type;
  const char            *default_value;
} PsCollectorOption;

#define PS_TYPE_COLLECTOR (ps_collector_get_type ())
G_DECLARE_INTERFACE (PsCollector, ps_collector, PS, COLLECTOR, GObject)

struct _PsCollectorInterface
{
  GTypeInterface parent_iface;

  const char              *(*get_name)         (PsCollector          *self);
  const char              *(*get_display_name) (PsCollector          *self);
  const PsCollectorOption *(*list_options)     (PsCollector          *self,
                                                guint                *n_options);
  void                     (*start_async)      (PsCollector          *self,
                                                PsEventStore         *store,
                                                GHashTable           *options,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
  gboolean                 (*start_finish)     (PsCollector          *self,
                                                GAsyncResult         *result,
                                                GError              **error);
  void                     (*stop_async)       (PsCollector          *self,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
  gboolean                 (*stop_finish)      (PsCollector          *self,
                                                GAsyncResult         *result,
                                                GError              **error);
};

const char              *ps_collector_get_name         (PsCollector          *self);
const char              *ps_collector_get_display_name (PsCollector          *self);
const PsCollectorOption *ps_collector_list_options     (PsCollector          *self,
                                                        guint                *n_options);
/* Begins collecting into store (which should be new and empty); the
 * result tells whether the target could be opened. options: string →
 * string, keys from list_options (defaults for missing keys); NULL for
 * all defaults. */
void                     ps_collector_start_async      (PsCollector          *self,
                                                        PsEventStore         *store,
                                                        GHashTable           *options,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean                 ps_collector_start_finish     (PsCollector          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
/* Ends collecting; the last batch is committed before the result */
void                     ps_collector_stop_async       (PsCollector          *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean                 ps_collector_stop_finish      (PsCollector          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/* Lost data: samples or records the backend could not take or keep.
 * Collectors call ps_collector_add_lost (), which emits "lost" with the
 * new total. */
guint64                  ps_collector_get_n_lost       (PsCollector          *self);
void                     ps_collector_add_lost         (PsCollector          *self,
                                                        guint64               n_lost);

/* The process the collector follows has exited: emits "target-exited" */
void                     ps_collector_emit_target_exited (PsCollector     *self);

/* The options table with every option's default, to be changed by the caller */
GHashTable              *ps_collector_new_default_options (PsCollector       *self);

/* Registers the extension point (idempotent; called by ps_collectors_load) */
GIOExtensionPoint       *ps_collectors_ensure_extension_point (void);
/* Loads the modules of $PERFSCOPE_COLLECTOR_DIR, then those of dir
 * (NULL: the installed folder); a module name already loaded is skipped.
 * Returns the number of modules loaded by this call. */
guint                    ps_collectors_load            (const char           *dir);
/* The names of the registered collectors, sorted; free with g_strfreev () */
char                   **ps_collectors_list_names      (void);
/* A new collector of that backend, or NULL with error */
PsCollector             *ps_collectors_create          (const char           *name,
                                                        GError              **error);

G_END_DECLS
