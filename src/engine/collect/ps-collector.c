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

enum
{
  LOST,
  TARGET_EXITED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];
static GQuark n_lost_quark;

G_DEFINE_INTERFACE (PsCollector, ps_collector, G_TYPE_OBJECT)

static void
ps_collector_default_init (PsCollectorInterface *iface)
{
  n_lost_quark = g_quark_from_static_string ("ps-collector-n-lost");

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

guint64
ps_collector_get_n_lost (PsCollector *self)
{
  guint64 *n_lost;

  g_return_val_if_fail (PS_IS_COLLECTOR (self), 0);
  n_lost = g_object_get_qdata (G_OBJECT (self), n_lost_quark);
  return n_lost != NULL ? *n_lost : 0;
}

void
ps_collector_add_lost (PsCollector *self,
                       guint64      n_lost)
{
  guint64 *total;

  g_return_if_fail (PS_IS_COLLECTOR (self));
  if (n_lost == 0)
    return;

  total = g_object_get_qdata (G_OBJECT (self), n_lost_quark);
  if (total == NULL)
    {
      total = g_new0 (guint64, 1);
      g_object_set_qdata_full (G_OBJECT (self), n_lost_quark, total, g_free);
    }
  *total += n_lost;
  g_signal_emit (self, signals[LOST], 0, *total);
}

void
ps_collector_emit_target_exited (PsCollector *self)
{
  g_return_if_fail (PS_IS_COLLECTOR (self));
  g_signal_emit (self, signals[TARGET_EXITED], 0);
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
