/* ps-collector.c — the collector interface and its plugin loader
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <gmodule.h>

#include "ps-collector.h"
#include "ps-error.h"
#include "ps-host-collector.h"

enum
{
  LOST,
  LATE,
  TARGET_EXITED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];
static GQuark n_lost_quark;
static GQuark n_late_quark;
static GQuark target_exited_quark;

G_DEFINE_INTERFACE (PsCollector, ps_collector, G_TYPE_OBJECT)

static void
ps_collector_default_init (PsCollectorInterface *iface)
{
  n_lost_quark = g_quark_from_static_string ("ps-collector-n-lost");
  n_late_quark = g_quark_from_static_string ("ps-collector-n-late");
  target_exited_quark = g_quark_from_static_string ("ps-collector-target-exited");

  /**
   * PsCollector::lost:
   * @n_lost: the data lost so far (samples or records)
   *
   * Emitted on the collecting main context when the backend lost data.
   */
  signals[LOST] =
    g_signal_new ("lost",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT64);

  /**
   * PsCollector::late:
   * @n_late: the readings taken late so far
   *
   * Emitted on the collecting main context when a reading came later
   * than its time (see PsCollectorClock).
   */
  signals[LATE] =
    g_signal_new ("late",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT64);

  /**
   * PsCollector::target-exited:
   *
   * Emitted on the collecting main context when the process the
   * collector follows (the launched command, the chosen process) has
   * exited: there is nothing more of it to record. The collector keeps
   * running until stopped; callers usually stop it now.
   */
  signals[TARGET_EXITED] =
    g_signal_new ("target-exited",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

const char *
ps_collector_get_name (PsCollector *self)
{
  g_return_val_if_fail (PS_IS_COLLECTOR (self), NULL);
  return PS_COLLECTOR_GET_IFACE (self)->get_name (self);
}

const char *
ps_collector_get_display_name (PsCollector *self)
{
  PsCollectorInterface *iface;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), NULL);
  iface = PS_COLLECTOR_GET_IFACE (self);
  return iface->get_display_name != NULL ? iface->get_display_name (self) : iface->get_name (self);
}

const PsCollectorOption *
ps_collector_list_options (PsCollector *self,
                           guint       *n_options)
{
  PsCollectorInterface *iface;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), NULL);
  g_return_val_if_fail (n_options != NULL, NULL);

  iface = PS_COLLECTOR_GET_IFACE (self);
  *n_options = 0;
  return iface->list_options != NULL ? iface->list_options (self, n_options) : NULL;
}

GHashTable *
ps_collector_new_default_options (PsCollector *self)
{
  GHashTable *options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n_options;
  const PsCollectorOption *list = ps_collector_list_options (self, &n_options);

  for (guint i = 0; i < n_options; i++)
    g_hash_table_insert (options, g_strdup (list[i].key), g_strdup (list[i].default_value));
  return options;
}

const char *
ps_collector_get_option (PsCollector *self,
                         GHashTable  *options,
                         const char  *key)
{
  const char *value;
  const PsCollectorOption *list;
  guint n_options;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), "");
  g_return_val_if_fail (key != NULL, "");

  value = options != NULL ? g_hash_table_lookup (options, key) : NULL;
  if (value != NULL)
    return value;
  list = ps_collector_list_options (self, &n_options);
  for (guint i = 0; i < n_options; i++)
    if (strcmp (list[i].key, key) == 0)
      return list[i].default_value;
  g_return_val_if_reached ("");
}

gboolean
ps_collector_parse_pid (const char  *text,
                        int         *pid,
                        GError     **error)
{
  guint64 number;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (pid != NULL, FALSE);

  *pid = 0;
  if (*text == '\0')
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT, &number, NULL))
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("“%s” is not a process ID"), text);
      return FALSE;
    }
  *pid = (int)number;
  return TRUE;
}

gboolean
ps_collector_parse_command (const char   *text,
                            char       ***argv,
                            GError      **error)
{
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (argv != NULL, FALSE);

  *argv = NULL;
  return *text == '\0' || g_shell_parse_argv (text, NULL, argv, error);
}

gboolean
ps_collector_parse_target (const char   *pid_text,
                           const char   *command_text,
                           int          *pid,
                           char       ***argv,
                           GError      **error)
{
  g_return_val_if_fail (pid_text != NULL && command_text != NULL, FALSE);

  if (*pid_text != '\0' && *command_text != '\0')
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("Give either a process ID or a command, not both"));
      return FALSE;
    }
  return ps_collector_parse_pid (pid_text, pid, error)
         && ps_collector_parse_command (command_text, argv, error);
}

gboolean
ps_collector_parse_interval (const char  *text,
                             guint       *interval_ms,
                             GError     **error)
{
  guint64 number;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (interval_ms != NULL, FALSE);

  if (!g_ascii_string_to_unsigned (text, 10, 1, 3600 * 1000, &number, NULL))
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The interval must be a number of milliseconds from 1 to 3600000, not “%s”"), text);
      return FALSE;
    }
  *interval_ms = (guint)number;
  return TRUE;
}

gboolean
ps_collector_parse_boolean (const char *text)
{
  g_return_val_if_fail (text != NULL, FALSE);
  return g_ascii_strcasecmp (text, "false") != 0 && strcmp (text, "0") != 0;
}

gboolean
ps_collector_task_return_if_recording (GTask    *task,
                                       gboolean  recording)
{
  g_return_val_if_fail (G_IS_TASK (task), TRUE);

  if (recording)
    {
      g_task_return_new_error (task, PS_ERROR, PS_ERROR_FAILED, _("The collector is recording already"));
      return TRUE;
    }
  return g_task_return_error_if_cancelled (task);
}

gboolean
ps_collector_task_return_if_not_recording (GTask    *task,
                                           gboolean  recording)
{
  g_return_val_if_fail (G_IS_TASK (task), TRUE);

  if (!recording)
    {
      g_task_return_new_error (task, PS_ERROR, PS_ERROR_FAILED, _("The collector is not recording"));
      return TRUE;
    }
  return FALSE;
}

gboolean
ps_collector_check_available (PsCollector  *self,
                              GError      **error)
{
  PsCollectorInterface *iface;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), FALSE);
  iface = PS_COLLECTOR_GET_IFACE (self);
  return iface->check_available == NULL || iface->check_available (self, error);
}

void
ps_collector_choice_free (PsCollectorChoice *choice)
{
  if (choice == NULL)
    return;
  g_free (choice->value);
  g_free (choice->label);
  g_free (choice);
}

void
ps_collector_add_choice (GPtrArray  *choices,
                         const char *value,
                         const char *label)
{
  PsCollectorChoice *choice;

  g_return_if_fail (choices != NULL);
  g_return_if_fail (value != NULL && label != NULL);

  choice = g_new0 (PsCollectorChoice, 1);
  choice->value = g_strdup (value);
  choice->label = g_strdup (label);
  g_ptr_array_add (choices, choice);
}

GPtrArray *
ps_collector_list_choices (PsCollector *self,
                           const char  *key)
{
  PsCollectorInterface *iface;
  GPtrArray *choices;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  choices = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_collector_choice_free);
  iface = PS_COLLECTOR_GET_IFACE (self);
  if (iface->list_choices != NULL)
    iface->list_choices (self, key, choices);
  return choices;
}

gboolean
ps_collectors_in_flatpak (void)
{
  const char *info = g_getenv (PS_FLATPAK_INFO_ENV);

  if (info != NULL)
    return *info != '\0' && g_file_test (info, G_FILE_TEST_EXISTS);
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

const char *
ps_collectors_get_default_name (void)
{
  if (ps_collectors_in_flatpak ())
    return PS_HOST_COLLECTOR_NAME;
#if defined(G_OS_WIN32)
  return "perflib";
#elif defined(__FreeBSD__)
  return "hwpmc";
#else
  return "procfs";
#endif
}

void
ps_collector_start_async (PsCollector         *self,
                          PsEventStore        *store,
                          GHashTable          *options,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (PS_IS_COLLECTOR (self));
  g_return_if_fail (PS_IS_EVENT_STORE (store));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  PS_COLLECTOR_GET_IFACE (self)->start_async (self, store, options, cancellable, callback, user_data);
}

/* The finish of a collector that leaves its own NULL */
static gboolean
propagate_boolean (PsCollector   *self,
                   GAsyncResult  *result,
                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
ps_collector_start_finish (PsCollector   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  PsCollectorInterface *iface;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), FALSE);
  iface = PS_COLLECTOR_GET_IFACE (self);
  return (iface->start_finish != NULL ? iface->start_finish : propagate_boolean) (self, result, error);
}

void
ps_collector_stop_async (PsCollector         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (PS_IS_COLLECTOR (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  PS_COLLECTOR_GET_IFACE (self)->stop_async (self, cancellable, callback, user_data);
}

gboolean
ps_collector_stop_finish (PsCollector   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  PsCollectorInterface *iface;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), FALSE);
  iface = PS_COLLECTOR_GET_IFACE (self);
  return (iface->stop_finish != NULL ? iface->stop_finish : propagate_boolean) (self, result, error);
}

static guint64
get_count (PsCollector *self,
           GQuark       quark)
{
  guint64 *count = g_object_get_qdata (G_OBJECT (self), quark);

  return count != NULL ? *count : 0;
}

static void
add_count (PsCollector *self,
           GQuark       quark,
           guint        signal,
           guint64      n)
{
  guint64 *total;

  if (n == 0)
    return;

  total = g_object_get_qdata (G_OBJECT (self), quark);
  if (total == NULL)
    {
      total = g_new0 (guint64, 1);
      g_object_set_qdata_full (G_OBJECT (self), quark, total, g_free);
    }
  *total += n;
  g_signal_emit (self, signals[signal], 0, *total);
}

guint64
ps_collector_get_n_lost (PsCollector *self)
{
  g_return_val_if_fail (PS_IS_COLLECTOR (self), 0);
  return get_count (self, n_lost_quark);
}

void
ps_collector_add_lost (PsCollector *self,
                       guint64      n_lost)
{
  g_return_if_fail (PS_IS_COLLECTOR (self));
  add_count (self, n_lost_quark, LOST, n_lost);
}

guint64
ps_collector_get_n_late (PsCollector *self)
{
  g_return_val_if_fail (PS_IS_COLLECTOR (self), 0);
  return get_count (self, n_late_quark);
}

void
ps_collector_add_late (PsCollector *self,
                       guint64      n_late)
{
  g_return_if_fail (PS_IS_COLLECTOR (self));
  add_count (self, n_late_quark, LATE, n_late);
}

char *
ps_collector_describe_late_lost (guint64     n_late,
                                 const char *late_count,
                                 guint64     n_lost,
                                 const char *lost_count)
{
  g_autofree char *late = NULL;
  g_autofree char *lost = NULL;

  g_return_val_if_fail (late_count != NULL && lost_count != NULL, NULL);

  if (n_late + n_lost == 0)
    return NULL;
  /* Translators: %s is a number, already formatted; readings that came after their time */
  late = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s reading late", "%s readings late",
                                       (gulong)MIN (n_late, G_MAXULONG)),
                          late_count);
  /* Translators: %s is a number, already formatted; the backend could not keep up */
  lost = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s reading lost", "%s readings lost",
                                       (gulong)MIN (n_lost, G_MAXULONG)),
                          lost_count);
  if (n_late > 0 && n_lost > 0)
    /* Translators: "3 readings late and 1 reading lost" */
    return g_strdup_printf (_("%s and %s"), late, lost);
  return g_strdup (n_late > 0 ? late : lost);
}

/* The reading clock */

struct _PsCollectorClock
{
  GSource              *source;
  GMainContext         *owner;       /* where start was called: the store's */
  /* Its collector not owned (the clock lives inside it), its store owned;
   * no store: the clock keeps time only */
  PsCollectorRecording  recording;
  gint64                interval_us;
  gint64                start_us;
  guint64               next_slot;   /* the reading due at start + next_slot × interval */
  PsCollectorReadFunc   read;
  gpointer              user_data;

  guint64               n_readings;
  guint64               n_late;
  guint64               n_lost;
  gint64                first_us;
  gint64                last_us;
};

/* A warning and a count, for the context that owns the store and the
 * collector's signals: the clock may run on a thread of its own */
typedef struct
{
  PsCollectorRecording  recording;   /* its collector and store owned */
  const char           *code;
  char                 *message;
  guint64               n_lost;
  guint64               n_late;
} Notice;

static void
notice_free (gpointer data)
{
  Notice *notice = data;

  g_object_unref (notice->recording.collector);
  g_object_unref (notice->recording.store);
  g_free (notice->message);
  g_free (notice);
}

static gboolean
deliver_notice (gpointer data)
{
  Notice *notice = data;

  ps_event_store_add_warning (notice->recording.store, PS_SEVERITY_WARNING, notice->code, 0, PS_NO_POSITION,
                              notice->recording.session, notice->message);
  ps_collector_add_lost (notice->recording.collector, notice->n_lost);
  ps_collector_add_late (notice->recording.collector, notice->n_late);
  return G_SOURCE_REMOVE;
}

static void
tell_owner (PsCollectorClock *clock,
            const char       *code,
            char             *message,
            guint64           n_lost,
            guint64           n_late)
{
  Notice *notice = g_new0 (Notice, 1);

  notice->recording = clock->recording;
  g_object_ref (notice->recording.collector);
  g_object_ref (notice->recording.store);
  notice->code = code;
  notice->message = message;
  notice->n_lost = n_lost;
  notice->n_late = n_late;
  g_main_context_invoke_full (clock->owner, G_PRIORITY_HIGH, deliver_notice, notice, notice_free);
}

static void
schedule_next (PsCollectorClock *clock)
{
  g_source_set_ready_time (clock->source, clock->start_us + (gint64)clock->next_slot * clock->interval_us);
}

static gboolean
clock_dispatch (GSource     *source,
                GSourceFunc  callback,
                gpointer     user_data)
{
  PsCollectorClock *clock = user_data;
  gint64 now_us = g_get_monotonic_time ();
  gint64 due_us = clock->start_us + (gint64)clock->next_slot * clock->interval_us;
  /* The reading fills the time it is nearest to; those before it that
   * passed while nothing could read stay empty, so that no two readings
   * come closer than half an interval */
  guint64 n_missed = now_us > due_us ? (guint64)((now_us - due_us + clock->interval_us / 2) / clock->interval_us) : 0;
  gint64 delay_us;

  if (n_missed > 0 && clock->recording.store != NULL)
    {
      g_autofree char *message = NULL;
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_missed);

      clock->n_lost += n_missed;
      /* Translators: the readings of a live recording that could not be
       * taken; a count, a time in seconds, then milliseconds */
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%s reading lost at %.3f s: the recorder could not read for %.0f ms (interval %.0f ms)",
                                              "%s readings lost at %.3f s: the recorder could not read for %.0f ms (interval %.0f ms)",
                                              (gulong)MIN (n_missed, G_MAXULONG)),
                                 count, (double)(due_us - clock->start_us) / G_USEC_PER_SEC,
                                 (double)(now_us - due_us) / 1000.0, (double)clock->interval_us / 1000.0);
      tell_owner (clock, "W-READING-LOST", g_steal_pointer (&message), n_missed, 0);
    }
  clock->next_slot += n_missed;
  due_us += (gint64)n_missed * clock->interval_us;

  delay_us = now_us - due_us;
  if (delay_us >= MAX (clock->interval_us / 4, 1000) && clock->recording.store != NULL)
    {
      g_autofree char *message = NULL;

      clock->n_late++;
      /* Translators: a reading of a live recording came late; the first
       * number is its time in seconds, the others milliseconds */
      message = g_strdup_printf (_("Reading at %.3f s came %.1f ms late (interval %.0f ms)"),
                                 (double)(due_us - clock->start_us) / G_USEC_PER_SEC,
                                 (double)delay_us / 1000.0, (double)clock->interval_us / 1000.0);
      tell_owner (clock, "W-READING-LATE", g_steal_pointer (&message), 0, 1);
    }

  clock->next_slot++;
  schedule_next (clock);
  ps_collector_clock_count_reading (clock, now_us);
  clock->read (clock->user_data, now_us);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs clock_funcs = {
  NULL, NULL, clock_dispatch, NULL, NULL, NULL,
};

PsCollectorClock *
ps_collector_clock_new (const PsCollectorRecording *recording,
                        guint                       interval_ms,
                        gint64                      start_us,
                        GMainContext               *context,
                        PsCollectorReadFunc         read,
                        gpointer                    user_data)
{
  PsCollectorClock *clock;

  g_return_val_if_fail (recording == NULL || PS_IS_COLLECTOR (recording->collector), NULL);
  g_return_val_if_fail (recording == NULL || PS_IS_EVENT_STORE (recording->store), NULL);
  g_return_val_if_fail (interval_ms > 0, NULL);
  g_return_val_if_fail (read != NULL, NULL);

  clock = g_new0 (PsCollectorClock, 1);
  clock->owner = g_main_context_ref_thread_default ();
  if (recording != NULL)
    {
      clock->recording = *recording;
      g_object_ref (clock->recording.store);
    }
  clock->interval_us = (gint64)interval_ms * 1000;
  clock->start_us = start_us;
  clock->next_slot = 1;
  clock->read = read;
  clock->user_data = user_data;

  clock->source = g_source_new (&clock_funcs, sizeof (GSource));
  g_source_set_callback (clock->source, NULL, clock, NULL);
  g_source_set_static_name (clock->source, "[perfscope] collector clock");
  g_source_set_priority (clock->source, G_PRIORITY_HIGH);
  schedule_next (clock);
  g_source_attach (clock->source, context);
  return clock;
}

void
ps_collector_clock_count_reading (PsCollectorClock *clock,
                                  gint64            now_us)
{
  g_return_if_fail (clock != NULL);

  if (clock->n_readings == 0)
    clock->first_us = now_us;
  clock->last_us = now_us;
  clock->n_readings++;
}

guint64
ps_collector_clock_get_n_readings (PsCollectorClock *clock)
{
  g_return_val_if_fail (clock != NULL, 0);
  return clock->n_readings;
}

double
ps_collector_clock_get_achieved_interval_ms (PsCollectorClock *clock)
{
  g_return_val_if_fail (clock != NULL, 0);
  if (clock->n_readings < 2)
    return 0;
  return (double)(clock->last_us - clock->first_us) / 1000.0 / (double)(clock->n_readings - 1);
}

static void
set_metadata_number (PsCollectorClock *clock,
                     const char       *key,
                     guint64           value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

  ps_event_store_set_metadata (clock->recording.store, clock->recording.session, key, text);
}

void
ps_collector_clock_free (PsCollectorClock *clock)
{
  char achieved[G_ASCII_DTOSTR_BUF_SIZE];

  if (clock == NULL)
    return;

  g_source_destroy (clock->source);
  g_source_unref (clock->source);
  if (clock->recording.store != NULL)
    {
      if (clock->n_readings >= 2)
        {
          g_ascii_formatd (achieved, sizeof achieved, "%.3f", ps_collector_clock_get_achieved_interval_ms (clock));
          ps_event_store_set_metadata (clock->recording.store, clock->recording.session, "interval_achieved_ms", achieved);
        }
      set_metadata_number (clock, "readings", clock->n_readings);
      set_metadata_number (clock, "readings_late", clock->n_late);
      set_metadata_number (clock, "readings_lost", clock->n_lost);
    }
  g_main_context_unref (clock->owner);
  g_clear_object (&clock->recording.store);
  g_free (clock);
}

void
ps_collector_emit_target_exited (PsCollector *self)
{
  g_return_if_fail (PS_IS_COLLECTOR (self));
  g_object_set_qdata (G_OBJECT (self), target_exited_quark, GINT_TO_POINTER (TRUE));
  g_signal_emit (self, signals[TARGET_EXITED], 0);
}

gboolean
ps_collector_has_target_exited (PsCollector *self)
{
  g_return_val_if_fail (PS_IS_COLLECTOR (self), FALSE);
  return g_object_get_qdata (G_OBJECT (self), target_exited_quark) != NULL;
}

/* Plugins */

GIOExtensionPoint *
ps_collectors_ensure_extension_point (void)
{
  static gsize point;

  if (g_once_init_enter (&point))
    {
      GIOExtensionPoint *registered = g_io_extension_point_register (PS_COLLECTOR_EXTENSION_POINT_NAME);

      g_io_extension_point_set_required_type (registered, PS_TYPE_COLLECTOR);
      g_once_init_leave (&point, (gsize)registered);
    }
  return (GIOExtensionPoint *)point;
}

/* Module basenames loaded so far: a development folder overrides the
 * installed module of the same name. Modules are never unloaded. */
static GHashTable *loaded_names;
G_LOCK_DEFINE_STATIC (loaded_names);

/* GIO's own loader only prints to stderr and cannot be told to skip a
 * module; opening it once by hand tells a broken module apart first. */
static gboolean
check_module (const char  *path,
              GError     **error)
{
  GModule *module;
  gpointer load = NULL;
  gboolean is_gio_module;

  module = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED, "%s", g_module_error ());
      return FALSE;
    }
  is_gio_module = g_module_symbol (module, "g_io_module_load", &load) && load != NULL;
  g_module_close (module);
  if (!is_gio_module)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("it is not a GIO module (no g_io_module_load function)"));
      return FALSE;
    }
  return TRUE;
}

static int
compare_name_pointers (gconstpointer a,
                       gconstpointer b)
{
  return strcmp (*(char * const *)a, *(char * const *)b);
}

static guint
load_directory (const char *dir)
{
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint n_loaded = 0;

  listing = g_dir_open (dir, 0, NULL);
  if (listing == NULL)
    return 0;

  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, "." G_MODULE_SUFFIX))
      g_ptr_array_add (names, g_strdup (name));
  /* Load order does not depend on the file system */
  g_ptr_array_sort (names, compare_name_pointers);

  for (guint i = 0; i < names->len; i++)
    {
      const char *basename = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, basename, NULL);
      g_autoptr(GError) error = NULL;
      GIOModule *module;
      gboolean seen;

      G_LOCK (loaded_names);
      if (loaded_names == NULL)
        loaded_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      seen = g_hash_table_contains (loaded_names, basename);
      if (!seen)
        g_hash_table_add (loaded_names, g_strdup (basename));
      G_UNLOCK (loaded_names);
      if (seen)
        continue;

      if (!check_module (path, &error))
        {
          g_warning ("Skipping the collector module “%s”: %s", path, error->message);
          continue;
        }

      module = g_io_module_new (path);
      if (!g_type_module_use (G_TYPE_MODULE (module)))
        {
          g_warning ("Skipping the collector module “%s”: it could not be loaded", path);
          /* A GTypeModule is never finalized; keep the reference */
          continue;
        }
      /* In use for the life of the process: its types stay registered */
      n_loaded++;
    }

  return n_loaded;
}

guint
ps_collectors_load (const char *dir)
{
  const char *development_dir = g_getenv (PS_COLLECTOR_DIR_ENV);
  guint n_loaded = 0;

  ps_collectors_ensure_extension_point ();

  if (development_dir != NULL && *development_dir != '\0')
    {
      g_auto(GStrv) dirs = g_strsplit (development_dir, G_SEARCHPATH_SEPARATOR_S, 0);

      for (guint i = 0; dirs[i] != NULL; i++)
        if (*dirs[i] != '\0')
          n_loaded += load_directory (dirs[i]);
    }
  n_loaded += load_directory (dir != NULL ? dir : PS_COLLECTORDIR);

  /* The sandbox's /proc shows none of the user's programs: they are
   * recorded on the host */
  if (ps_collectors_in_flatpak ()
      && g_io_extension_point_get_extension_by_name (ps_collectors_ensure_extension_point (),
                                                     PS_HOST_COLLECTOR_NAME) == NULL)
    g_io_extension_point_implement (PS_COLLECTOR_EXTENSION_POINT_NAME, PS_TYPE_HOST_COLLECTOR,
                                    PS_HOST_COLLECTOR_NAME, 10);
  return n_loaded;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return strcmp (*(char * const *)a, *(char * const *)b);
}

char **
ps_collectors_list_names (void)
{
  GIOExtensionPoint *point = ps_collectors_ensure_extension_point ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  char **names;

  for (GList *l = g_io_extension_point_get_extensions (point); l != NULL; l = l->next)
    g_strv_builder_add (builder, g_io_extension_get_name (l->data));
  names = g_strv_builder_end (builder);
  g_qsort_with_data (names, g_strv_length (names), sizeof (char *), compare_names, NULL);
  return names;
}

PsCollector *
ps_collectors_create (const char  *name,
                      GError     **error)
{
  GIOExtensionPoint *point = ps_collectors_ensure_extension_point ();
  GIOExtension *extension;

  g_return_val_if_fail (name != NULL, NULL);

  extension = g_io_extension_point_get_extension_by_name (point, name);
  if (extension == NULL)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_NO_SUCH_FORMAT,
                   _("No collector named “%s” is installed"), name);
      return NULL;
    }
  return g_object_new (g_io_extension_get_type (extension), NULL);
}
