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
  PS_COLLECTOR_OPTION_CHOICE,    /* one of the values ps_collector_list_choices () gives */
  PS_COLLECTOR_OPTION_OPEN_CHOICE, /* one of them, or any other text the backend reads */
  PS_COLLECTOR_OPTION_HOST_PID,  /* a process id of the system outside the sandbox; empty for none */
} PsCollectorOptionType;

/* What start_async understands in its options table (string keys and
 * string values). label is marked with N_() in Perfscope's text domain and
 * translated where it is shown; default_value may be "" */
typedef struct
{
  const char            *key;
  const char            *label;
  PsCollectorOptionType  type;
  const char            *default_value;
} PsCollectorOption;

/* A value a choice option may take, and what it means, translated */
typedef struct
{
  char *value;
  char *label;
} PsCollectorChoice;

void                     ps_collector_choice_free      (PsCollectorChoice    *choice);
/* Appends a choice of value and label to choices (of PsCollectorChoice) */
void                     ps_collector_add_choice       (GPtrArray            *choices,
                                                        const char           *value,
                                                        const char           *label);

#define PS_TYPE_COLLECTOR (ps_collector_get_type ())
G_DECLARE_INTERFACE (PsCollector, ps_collector, PS, COLLECTOR, GObject)

/* start_finish and stop_finish may be left NULL when start_async and
 * stop_async return a boolean GTask whose source object is the
 * collector: the wrappers then propagate that boolean. */
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
  gboolean                 (*check_available)  (PsCollector          *self,
                                                GError              **error);
  /* Appends to choices (of PsCollectorChoice) what the option key may be */
  void                     (*list_choices)     (PsCollector          *self,
                                                const char           *key,
                                                GPtrArray            *choices);
};

const char              *ps_collector_get_name         (PsCollector          *self);
const char              *ps_collector_get_display_name (PsCollector          *self);
const PsCollectorOption *ps_collector_list_options     (PsCollector          *self,
                                                        guint                *n_options);
/* Whether the backend can record on this system, else FALSE with why;
 * TRUE for a collector that does not say */
gboolean                 ps_collector_check_available  (PsCollector          *self,
                                                        GError              **error);
/* The values a choice option may take, as the backend reports them
 * (PsCollectorChoice, the default first where it is one of them); empty
 * for an option that is not a choice. Free with g_ptr_array_unref (). */
GPtrArray               *ps_collector_list_choices     (PsCollector          *self,
                                                        const char           *key);
/* The backend that suits the system best: procfs on Linux, hwpmc on
 * FreeBSD, perflib on Windows; inside a Flatpak sandbox, "host" (the
 * system's processes through perfscope-cli installed outside it) */
const char              *ps_collectors_get_default_name (void);
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

/* Readings taken later than their time: ps_collector_add_late () emits
 * "late" with the new total */
guint64                  ps_collector_get_n_late       (PsCollector          *self);
void                     ps_collector_add_late         (PsCollector          *self,
                                                        guint64               n_late);

/* "3 readings late and 1 reading lost", or either alone, with the counts
 * as the caller wrote them (late_count, lost_count); NULL when both are 0 */
char                    *ps_collector_describe_late_lost (guint64     n_late,
                                                          const char *late_count,
                                                          guint64     n_lost,
                                                          const char *lost_count);

/* The process the collector follows has exited: emits "target-exited" */
void                     ps_collector_emit_target_exited (PsCollector     *self);
/* Whether "target-exited" was emitted: for whoever connects to it late */
gboolean                 ps_collector_has_target_exited  (PsCollector     *self);

/* The options table with every option's default, to be changed by the caller */
GHashTable              *ps_collector_new_default_options (PsCollector       *self);

/* For implementations. The value of key in options (may be NULL), else
 * the default list_options gives for it */
const char              *ps_collector_get_option       (PsCollector          *self,
                                                        GHashTable           *options,
                                                        const char           *key);
/* Option values as the option types read them, with errors that name
 * the value. A PID or command option may be empty: *pid 0, *argv NULL. */
gboolean                 ps_collector_parse_pid        (const char           *text,
                                                        int                  *pid,
                                                        GError              **error);
gboolean                 ps_collector_parse_command    (const char           *text,
                                                        char               ***argv,
                                                        GError              **error);
/* Either a process ID or a command, or neither */
gboolean                 ps_collector_parse_target     (const char           *pid_text,
                                                        const char           *command_text,
                                                        int                  *pid,
                                                        char               ***argv,
                                                        GError              **error);
/* Milliseconds from 1 to 3600000 */
gboolean                 ps_collector_parse_interval   (const char           *text,
                                                        guint                *interval_ms,
                                                        GError              **error);
/* Anything but "false" (any case) and "0" is true */
gboolean                 ps_collector_parse_boolean    (const char           *text);

/* For start_async: returns TRUE after returning an error on task when the
 * collector is recording already or the task's cancellable is cancelled */
gboolean                 ps_collector_task_return_if_recording     (GTask    *task,
                                                                    gboolean  recording);
/* For stop_async: returns TRUE after returning an error on task when the
 * collector is not recording */
gboolean                 ps_collector_task_return_if_not_recording (GTask    *task,
                                                                    gboolean  recording);

/* Defines g_io_module_load (), which registers the collector's dynamic
 * type with register_type and implements the extension point as name,
 * and the rest of a GIO module's entry points */
#define PS_COLLECTOR_DEFINE_MODULE(register_type, type, name)                           \
  void                                                                                  \
  g_io_module_load (GIOModule *module)                                                  \
  {                                                                                     \
    register_type (G_TYPE_MODULE (module));                                             \
    g_io_extension_point_implement (PS_COLLECTOR_EXTENSION_POINT_NAME, type, name, 10); \
  }                                                                                     \
                                                                                        \
  void                                                                                  \
  g_io_module_unload (GIOModule *module)                                                \
  {                                                                                     \
  }                                                                                     \
                                                                                        \
  char **                                                                               \
  g_io_module_query (void)                                                              \
  {                                                                                     \
    char *extension_points[] = { (char *)PS_COLLECTOR_EXTENSION_POINT_NAME, NULL };     \
                                                                                        \
    return g_strdupv (extension_points);                                                \
  }

/* A reading clock: calls read at start + k × interval on a main context,
 * so that the interval holds on average however late one reading comes.
 * A reading that comes a quarter of an interval or more after its time
 * (and at least 1 ms) is late; one that comes half an interval or more
 * after it fills the next time instead, and the times it passed stay
 * empty and count as lost: readings are never bunched. Each
 * late or lost reading is a warning of the store's session
 * ("W-READING-LATE", "W-READING-LOST") and counts through
 * ps_collector_add_late () and ps_collector_add_lost (), on the
 * thread-default context of the caller of ps_collector_clock_new (), while
 * the clock itself may run on another thread's context (context), so
 * that a busy main loop does not delay the readings. read gets the
 * monotonic time of the reading in microseconds. Free the clock where it
 * was made, once its context no longer runs. A clock made for no
 * recording keeps time only: for work whose lateness loses nothing
 * (hwpmc's log flushes, the kernel keeping the samples meanwhile), with
 * neither warnings nor counts nor metadata. */
typedef struct _PsCollectorClock PsCollectorClock;
typedef void (*PsCollectorReadFunc) (gpointer user_data,
                                     gint64   now_us);

/* What a clock's readings are for: the collector that counts those late
 * and lost, and the session of the store that has them as warnings */
typedef struct
{
  PsCollector  *collector;
  PsEventStore *store;
  guint32       session;
} PsCollectorRecording;

/* Starts the clock of recording (NULL: it keeps time only); the first
 * call of read comes one interval after start_us (the caller takes the
 * reading at start_us itself and tells it with
 * ps_collector_clock_count_reading ()) */
PsCollectorClock        *ps_collector_clock_new        (const PsCollectorRecording *recording,
                                                        guint                       interval_ms,
                                                        gint64                      start_us,
                                                        GMainContext               *context,
                                                        PsCollectorReadFunc         read,
                                                        gpointer                    user_data);
/* A reading taken at now_us outside the clock's calls (the first one) */
void                     ps_collector_clock_count_reading (PsCollectorClock  *clock,
                                                        gint64                now_us);
/* Stops the clock and writes what it achieved into the session's
 * metadata: "interval_achieved_ms" (the mean time between the first and
 * the last reading), "readings", "readings_late" and "readings_lost" */
void                     ps_collector_clock_free       (PsCollectorClock     *clock);
guint64                  ps_collector_clock_get_n_readings (PsCollectorClock *clock);
/* The mean time between readings so far, in ms; 0 before the second */
double                   ps_collector_clock_get_achieved_interval_ms (PsCollectorClock *clock);

/* Whether Perfscope runs in a Flatpak sandbox: /.flatpak-info exists,
 * or, where $PERFSCOPE_FLATPAK_INFO is set (tests), the file it names
 * (none when empty) */
#define PS_FLATPAK_INFO_ENV "PERFSCOPE_FLATPAK_INFO"
gboolean                 ps_collectors_in_flatpak      (void);

/* Registers the extension point (idempotent; called by ps_collectors_load) */
GIOExtensionPoint       *ps_collectors_ensure_extension_point (void);
/* Loads the modules of $PERFSCOPE_COLLECTOR_DIR, then those of dir
 * (NULL: the installed folder); a module name already loaded is skipped.
 * Inside a Flatpak sandbox the "host" backend is registered too.
 * Returns the number of modules loaded by this call. */
guint                    ps_collectors_load            (const char           *dir);
/* The names of the registered collectors, sorted; free with g_strfreev () */
char                   **ps_collectors_list_names      (void);
/* A new collector of that backend, or NULL with error */
PsCollector             *ps_collectors_create          (const char           *name,
                                                        GError              **error);

G_END_DECLS
