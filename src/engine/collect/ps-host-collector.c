/* ps-host-collector.c — recording a program of the system from inside Flatpak
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inside a Flatpak sandbox /proc lists only the sandbox's processes, so
 * procfs cannot see the user's programs. This backend records them where
 * they run: it starts the perfscope-cli installed on the system through
 * the Flatpak portal (`flatpak-spawn --host perfscope-cli record …`,
 * which needs the permission --talk-name=org.freedesktop.Flatpak), with
 * the run saved in Perfscope's own format to a file in the application's
 * cache folder, a folder the sandbox and the system see at the same
 * path. Stop sends SIGINT, which flatpak-spawn passes on; when the
 * program on the host ends, the saved run is read into the store. The
 * readings come all at once at the end: the host program gives nothing
 * before.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ps-error.h"
#include "ps-format.h"
#include "ps-host-collector.h"
#include "ps-store-builder.h"

#define READ_SIZE 65536

struct _PsHostCollector
{
  GObject       parent_instance;

  PsEventStore *store;        /* while recording */
  GSubprocess  *subprocess;   /* flatpak-spawn, while it runs */
  GCancellable *cancellable;  /* of the wait for it */
  char         *output_path;  /* where the host saves the run */
  GTask        *stop_task;    /* a stop waiting for the host to end */
  gboolean      ended;        /* the run was read */
};

static void ps_host_collector_iface_init (PsCollectorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsHostCollector, ps_host_collector, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_COLLECTOR, ps_host_collector_iface_init))

static const PsCollectorOption options[] = {
  { "pid", N_("Process ID on your system"), PS_COLLECTOR_OPTION_HOST_PID, "" },
  { "command", N_("Command to launch on your system"), PS_COLLECTOR_OPTION_COMMAND, "" },
  { "children", N_("Child processes too"), PS_COLLECTOR_OPTION_BOOLEAN, "true" },
  { "interval-ms", N_("Interval (ms)"), PS_COLLECTOR_OPTION_INT, "100" },
};

/* flatpak-spawn --host, passing the program's output and the end of the
 * sandbox's bus on to it (--watch-bus: the host program ends with
 * Perfscope) */
static GSubprocess *
spawn_on_host (const char * const  *host_argv,
               GSubprocessFlags     flags,
               GError             **error)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer)"flatpak-spawn");
  g_ptr_array_add (argv, (gpointer)"--host");
  g_ptr_array_add (argv, (gpointer)"--watch-bus");
  for (guint i = 0; host_argv[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)host_argv[i]);
  g_ptr_array_add (argv, NULL);
  return g_subprocess_newv ((const char * const *)argv->pdata, flags, error);
}

static const char *
ps_host_collector_get_name (PsCollector *collector)
{
  return PS_HOST_COLLECTOR_NAME;
}

static const char *
ps_host_collector_get_display_name (PsCollector *collector)
{
  return _("Processes of your system (perfscope-cli outside Flatpak)");
}

static const PsCollectorOption *
ps_host_collector_list_options (PsCollector *collector,
                                guint       *n_options)
{
  *n_options = G_N_ELEMENTS (options);
  return options;
}

/* The sandbox, the portal and the program on the host all have to be
 * there: asks the host for perfscope-cli's version */
static gboolean
ps_host_collector_check_available (PsCollector  *collector,
                                   GError      **error)
{
  const char *version_argv[] = { "perfscope-cli", "--version", NULL };
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) spawn_error = NULL;
  g_autofree char *errors = NULL;

  if (!ps_collectors_in_flatpak ())
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("Perfscope does not run in a Flatpak sandbox here: record with procfs"));
      return FALSE;
    }

  subprocess = spawn_on_host (version_argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &spawn_error);
  if (subprocess != NULL && g_subprocess_communicate_utf8 (subprocess, NULL, NULL, NULL, &errors, &spawn_error)
      && g_subprocess_get_if_exited (subprocess) && g_subprocess_get_exit_status (subprocess) == 0)
    return TRUE;

  g_debug ("perfscope-cli on the host: %s", spawn_error != NULL ? spawn_error->message : errors);
  g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                       _("Perfscope cannot run perfscope-cli on your system: it is not installed outside Flatpak, "
                         "or this Perfscope may not start programs there (the permission "
                         "--talk-name=org.freedesktop.Flatpak). To record a program of your system, install "
                         "Perfscope from your distribution and run “perfscope-cli record --pid PID -o "
                         "run.perfscope” in a terminal, then open the saved run here."));
  return FALSE;
}

/* The run the host saved, into the store: in pieces, as the loader reads */
static gboolean
read_saved_run (PsHostCollector  *self,
                GError          **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (self->output_path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, error);
  g_autoptr(PsStoreBuilder) builder = NULL;
  g_autoptr(PsParser) parser = NULL;
  g_autofree guint8 *buffer = NULL;
  guint64 n_read = 0;
  gssize n;

  if (stream == NULL)
    return FALSE;
  builder = ps_store_builder_new (self->store);
  parser = ps_format_new_parser (&ps_format_native, builder);
  buffer = g_malloc (READ_SIZE);
  while ((n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, READ_SIZE, NULL, error)) > 0)
    {
      if (!ps_parser_feed (parser, buffer, (gsize)n, error))
        break;
      n_read += (guint64)n;
    }
  if (n == 0 && !ps_parser_finish (parser, error))
    n = -1;
  ps_store_builder_flush (builder);
  ps_event_store_set_bytes_read (self->store, n_read);
  return n == 0;
}

/* The host's perfscope-cli puts the run in place of the empty file
 * only once it is whole */
static gboolean
host_saved_run (PsHostCollector *self)
{
  GStatBuf info;

  return g_stat (self->output_path, &info) == 0 && info.st_size > 0;
}

static void
host_ended_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PsHostCollector) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) stop_task = NULL;
  g_autofree char *errors = NULL;
  g_autoptr(GBytes) stderr_bytes = NULL;

  if (!g_subprocess_communicate_finish (G_SUBPROCESS (object), result, NULL, &stderr_bytes, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (self->store == NULL)
    return;

  /* What the host program said went wrong, if it saved nothing */
  if (stderr_bytes != NULL && g_bytes_get_size (stderr_bytes) > 0)
    errors = g_utf8_make_valid (g_bytes_get_data (stderr_bytes, NULL), (gssize)g_bytes_get_size (stderr_bytes));
  g_clear_error (&error);
  if (!host_saved_run (self))
    g_set_error (&error, PS_ERROR, PS_ERROR_FAILED, _("perfscope-cli on your system recorded nothing: %s"),
                 errors != NULL && *errors != '\0' ? g_strstrip (errors) : _("it said nothing"));
  else if (!read_saved_run (self, &error))
    g_prefix_error (&error, _("The run recorded on your system cannot be read: "));
  if (error != NULL)
    ps_event_store_set_error (self->store, error);
  g_unlink (self->output_path);
  ps_event_store_emit_appended (self->store);
  self->ended = TRUE;
  g_clear_object (&self->subprocess);

  stop_task = g_steal_pointer (&self->stop_task);
  if (stop_task != NULL)
    {
      g_clear_object (&self->store);
      g_task_return_boolean (stop_task, TRUE);
    }
  else
    /* The command or the process ended on its own: so does the recording */
    ps_collector_emit_target_exited (PS_COLLECTOR (self));
}

static char *
new_output_path (GError **error)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "perfscope", "host-recordings", NULL);
  g_autofree char *template = NULL;
  char *path;
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), _("Cannot make the folder “%s”: %s"),
                   dir, g_strerror (saved_errno));
      return NULL;
    }
  template = g_build_filename (dir, "run-XXXXXX.perfscope", NULL);
  fd = g_mkstemp (template);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), _("Cannot make a file in “%s”: %s"),
                   dir, g_strerror (saved_errno));
      return NULL;
    }
  /* Empty until the host puts the run saved in its place */
  close (fd);
  path = g_steal_pointer (&template);
  return path;
}

static void
ps_host_collector_start_async (PsCollector         *collector,
                               PsEventStore        *store,
                               GHashTable          *table,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  PsHostCollector *self = PS_HOST_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) command = NULL;
  g_autoptr(GError) error = NULL;
  const char *pid_text = ps_collector_get_option (collector, table, "pid");
  const char *command_text = ps_collector_get_option (collector, table, "command");
  guint interval_ms;
  int pid;

  g_task_set_source_tag (task, ps_host_collector_start_async);
  if (ps_collector_task_return_if_recording (task, self->store != NULL))
    return;

  if (!ps_collector_parse_target (pid_text, command_text, &pid, &command, &error)
      || !ps_collector_parse_interval (ps_collector_get_option (collector, table, "interval-ms"), &interval_ms, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (pid == 0 && command == NULL)
    {
      g_task_return_new_error (task, PS_ERROR, PS_ERROR_FAILED,
                               _("Give the ID of a process of your system or a command to launch there"));
      return;
    }

  g_clear_pointer (&self->output_path, g_free);
  self->output_path = new_output_path (&error);
  if (self->output_path == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_ptr_array_add (argv, g_strdup ("perfscope-cli"));
  g_ptr_array_add (argv, g_strdup ("record"));
  g_ptr_array_add (argv, g_strdup ("--backend=procfs"));
  g_ptr_array_add (argv, g_strdup_printf ("--interval-ms=%u", interval_ms));
  if (pid > 0)
    g_ptr_array_add (argv, g_strdup_printf ("--pid=%d", pid));
  else
    g_ptr_array_add (argv, g_strdup_printf ("--command=%s", command_text));
  if (!ps_collector_parse_boolean (ps_collector_get_option (collector, table, "children")))
    g_ptr_array_add (argv, g_strdup ("--no-children"));
  g_ptr_array_add (argv, g_strdup_printf ("--output=%s", self->output_path));
  g_ptr_array_add (argv, NULL);

  self->subprocess = spawn_on_host ((const char * const *)argv->pdata,
                                    G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (self->subprocess == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->store = g_object_ref (store);
  self->ended = FALSE;
  self->cancellable = g_cancellable_new ();
  g_subprocess_communicate_async (self->subprocess, NULL, self->cancellable, host_ended_cb, g_object_ref (self));
  g_task_return_boolean (task, TRUE);
}

static void
ps_host_collector_stop_async (PsCollector         *collector,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  PsHostCollector *self = PS_HOST_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, ps_host_collector_stop_async);
  if (ps_collector_task_return_if_not_recording (task, self->store != NULL))
    return;
  if (self->stop_task != NULL)
    {
      g_task_return_new_error (task, PS_ERROR, PS_ERROR_FAILED, _("The collector is stopping already"));
      return;
    }

  if (self->ended)
    {
      g_clear_object (&self->store);
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* perfscope-cli saves the run on SIGINT, as after Ctrl+C */
  self->stop_task = g_steal_pointer (&task);
  g_subprocess_send_signal (self->subprocess, SIGINT);
}

static void
ps_host_collector_iface_init (PsCollectorInterface *iface)
{
  iface->get_name = ps_host_collector_get_name;
  iface->get_display_name = ps_host_collector_get_display_name;
  iface->list_options = ps_host_collector_list_options;
  iface->start_async = ps_host_collector_start_async;
  iface->stop_async = ps_host_collector_stop_async;
  iface->check_available = ps_host_collector_check_available;
}

static void
ps_host_collector_dispose (GObject *object)
{
  PsHostCollector *self = PS_HOST_COLLECTOR (object);

  /* A recording nobody waits for: the host program ends with it */
  if (self->subprocess != NULL)
    g_subprocess_send_signal (self->subprocess, SIGTERM);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->subprocess);
  g_clear_object (&self->store);
  g_clear_object (&self->stop_task);
  G_OBJECT_CLASS (ps_host_collector_parent_class)->dispose (object);
}

static void
ps_host_collector_finalize (GObject *object)
{
  PsHostCollector *self = PS_HOST_COLLECTOR (object);

  g_free (self->output_path);
  G_OBJECT_CLASS (ps_host_collector_parent_class)->finalize (object);
}

static void
ps_host_collector_class_init (PsHostCollectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ps_host_collector_dispose;
  object_class->finalize = ps_host_collector_finalize;
}

static void
ps_host_collector_init (PsHostCollector *self)
{
}
