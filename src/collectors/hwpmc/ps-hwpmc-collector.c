/* ps-hwpmc-collector.c — live sampling with FreeBSD's hwpmc(4)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §9.2 (the call sequence), §9.3 (the order: a
 * reader thread drains the pipe from before the log is configured until
 * end of file), §9.4 (what the log holds).
 *
 * The kernel writes its event log into a pipe. A thread reads the pipe
 * and queues the bytes; the main context of the caller of start takes
 * them through one coalesced idle callback and feeds them to the parser
 * of the hwpmc-pmclog format, the code that reads the same log from a
 * file, so a live run and the saved log give the same store. The calls
 * into the kernel go through a PsHwpmcBackend (ps-hwpmc-backend.h).
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-error.h"
#include "ps-file-output.h"
#include "ps-format.h"
#include "ps-hwpmc-collector.h"
#include "ps-store-builder.h"

#define READ_SIZE 65536
/* The file descriptor a held child waits on before exec */
#define HOLD_FD 3

struct _PsHwpmcCollector
{
  GObject               parent_instance;

  const PsHwpmcBackend *backend;

  PsEventStore         *store;
  PsStoreBuilder       *builder;
  PsParser             *parser;
  GMainContext         *context;
  PsCollectorClock     *flush_clock;  /* flushes the kernel's buffers every interval */
  GSubprocess          *subprocess;   /* a command we launched, or NULL */
  int                   release_fd;   /* closing it lets the held command run, or -1 */

  GArray               *pmcs;         /* guint32 pmc ids, allocated */
  GArray               *started;      /* guint32 pmc ids, started */
  gboolean              logging;      /* the log is configured onto the pipe */
  int                   read_fd;
  int                   write_fd;
  GThread              *reader;

  /* Shared with the reader thread */
  GMutex                lock;
  GQueue                chunks;       /* GBytes read and not fed yet */
  GSource              *drain_source;
  gboolean              at_end;
  int                   read_errno;

  guint64               bytes_fed;
  GError               *parse_error;

  /* The raw log as read, when asked for: pmcstat and Perfscope open it */
  PsFileOutput         *log_output;
  char                 *log_path;
  GError               *log_error;

  /* Options */
  char                **events;
  PsHwpmcMode           mode;
  int                   pid;
  guint64               rate;
  gboolean              callchains;
  guint                 interval_ms;
  char                 *command_line;
};

static void ps_hwpmc_collector_iface_init (PsCollectorInterface *iface);

static const PsHwpmcBackend *default_backend;

G_DEFINE_DYNAMIC_TYPE_EXTENDED (PsHwpmcCollector, ps_hwpmc_collector, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (PS_TYPE_COLLECTOR, ps_hwpmc_collector_iface_init))

/* The events (or several, comma-separated) come from a list: the
 * aliases pmc(3) defines on every CPU hwpmc supports, then what the
 * CPU's PMC classes name (PsHwpmcBackend.list_events); any other name
 * hwpmc knows may be typed */
static const PsCollectorOption options[] = {
  { "events", N_("Event"), PS_COLLECTOR_OPTION_OPEN_CHOICE, "instructions" },
  { "mode", N_("Mode"), PS_COLLECTOR_OPTION_CHOICE, "" },
  { "pid", N_("Process ID"), PS_COLLECTOR_OPTION_PID, "" },
  { "command", N_("Command to launch"), PS_COLLECTOR_OPTION_COMMAND, "" },
  { "rate", N_("Sample every N events"), PS_COLLECTOR_OPTION_INT, "65536" },
  { "callchains", N_("Call chains"), PS_COLLECTOR_OPTION_BOOLEAN, "true" },
  { "interval-ms", N_("Log flush interval (ms)"), PS_COLLECTOR_OPTION_INT, "100" },
  { "sysroot", N_("Folder the programs’ symbols are read under"), PS_COLLECTOR_OPTION_STRING, "/" },
  { "log", N_("Also save the raw log to this file (optional)"), PS_COLLECTOR_OPTION_STRING, "" },
};

/* pmc(3)'s event aliases, portable across CPUs */
static const struct
{
  const char *name;
  const char *label;
} event_aliases[] = {
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "instructions", N_("instructions — instructions retired") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "cycles", N_("cycles — processor cycles") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "unhalted-cycles", N_("unhalted-cycles — cycles the processor was not halted") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "branches", N_("branches — branch instructions retired") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "branch-mispredicts", N_("branch-mispredicts — branches mispredicted") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "dc-misses", N_("dc-misses — data cache misses") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "ic-misses", N_("ic-misses — instruction cache misses") },
  /* Translators: an hwpmc event; the name before the dash stays as it is */
  { "interrupts", N_("interrupts — hardware interrupts") },
};

/* --- The pipe --------------------------------------------------------------- */

static void feed_pending (PsHwpmcCollector *self);

static gboolean
on_drain (gpointer user_data)
{
  PsHwpmcCollector *self = user_data;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->drain_source, g_source_unref);
  g_mutex_unlock (&self->lock);

  feed_pending (self);
  return G_SOURCE_REMOVE;
}

/* Called with the lock held */
static void
schedule_drain (PsHwpmcCollector *self)
{
  if (self->drain_source != NULL)
    return;
  self->drain_source = g_idle_source_new ();
  /* Above drawing's priority, which a busy window keeps pending */
  g_source_set_priority (self->drain_source, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->drain_source, on_drain, self, NULL);
  g_source_set_static_name (self->drain_source, "[perfscope] hwpmc log");
  g_source_attach (self->drain_source, self->context);
}

/* The reader thread: from before the log is configured until the kernel
 * and we have both closed the write end (§9.3) */
static gpointer
read_pipe (gpointer user_data)
{
  PsHwpmcCollector *self = user_data;
  g_autofree guint8 *buffer = g_malloc (READ_SIZE);

  for (;;)
    {
      gssize n = read (self->read_fd, buffer, READ_SIZE);
      int saved_errno = errno;

      if (n < 0 && saved_errno == EINTR)
        continue;

      g_mutex_lock (&self->lock);
      if (n > 0)
        g_queue_push_tail (&self->chunks, g_bytes_new (buffer, (gsize)n));
      else
        {
          self->at_end = TRUE;
          self->read_errno = n < 0 ? saved_errno : 0;
        }
      schedule_drain (self);
      g_mutex_unlock (&self->lock);

      if (n <= 0)
        break;
    }
  return NULL;
}

/* Feeds what the reader thread has read to the parser, on the main context */
static void
feed_pending (PsHwpmcCollector *self)
{
  GQueue pending = G_QUEUE_INIT;
  GBytes *bytes;
  gboolean fed = FALSE;

  g_mutex_lock (&self->lock);
  pending = self->chunks;
  g_queue_init (&self->chunks);
  g_mutex_unlock (&self->lock);

  while ((bytes = g_queue_pop_head (&pending)) != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (bytes, &size);

      /* After a fatal error the log cannot be read further: what came
       * before it stays */
      if (self->log_output != NULL && self->log_error == NULL)
        g_output_stream_write_all (ps_file_output_get_stream (self->log_output), data, size, NULL, NULL,
                                   &self->log_error);
      if (self->parse_error == NULL && self->parser != NULL)
        {
          if (!ps_parser_feed (self->parser, data, size, &self->parse_error) && self->parse_error == NULL)
            g_set_error_literal (&self->parse_error, PS_ERROR, PS_ERROR_PARSE, _("The hwpmc log cannot be read"));
          self->bytes_fed += size;
          fed = TRUE;
        }
      g_bytes_unref (bytes);
    }

  if (self->builder != NULL && (ps_store_builder_flush (self->builder) > 0 || fed))
    ps_event_store_emit_appended (self->store);
}

/* On the clock's times: a flush that comes late only shows the samples
 * later, as the kernel keeps them meanwhile */
static void
flush_log (gpointer user_data,
           gint64   now_us)
{
  PsHwpmcCollector *self = user_data;
  int status = self->backend->flush_logfile (self->backend);

  /* A pending write error of the kernel (EPIPE) shows at the end of the
   * log; the recording goes on */
  if (status != 0)
    g_debug ("pmc_flush_logfile: %s", g_strerror (status));
}

/* --- The held command ------------------------------------------------------ */

static gboolean
launch_held (PsHwpmcCollector   *self,
             const char * const *argv,
             GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GPtrArray) held_argv = g_ptr_array_new ();
  int fds[2];

  /* The shell waits for the end of HOLD_FD, then becomes the command
   * (same pid): the PMCs attached to it follow the exec. A child_setup
   * function cannot wait: spawning returns only after the exec. */
  g_ptr_array_add (held_argv, (gpointer)"/bin/sh");
  g_ptr_array_add (held_argv, (gpointer)"-c");
  g_ptr_array_add (held_argv, (gpointer)"read -r _ <&" G_STRINGIFY (HOLD_FD) "; exec " G_STRINGIFY (HOLD_FD) "<&-; exec \"$@\"");
  g_ptr_array_add (held_argv, (gpointer)"perfscope-hold");
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (held_argv, (gpointer)argv[i]);
  g_ptr_array_add (held_argv, NULL);

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    return FALSE;
  g_subprocess_launcher_take_fd (launcher, fds[0], HOLD_FD);
  self->subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *)held_argv->pdata, error);
  if (self->subprocess == NULL)
    {
      close (fds[1]);
      return FALSE;
    }
  self->release_fd = fds[1];
  self->pid = atoi (g_subprocess_get_identifier (self->subprocess));
  return TRUE;
}

/* --- Options ---------------------------------------------------------------- */

static gboolean
ps_hwpmc_collector_check_available (PsCollector  *collector,
                                    GError      **error)
{
  if (PS_HWPMC_COLLECTOR (collector)->backend == NULL)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("hwpmc is not available on this system: Perfscope was built without libpmc (FreeBSD)"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_options (PsHwpmcCollector  *self,
               GHashTable        *table,
               char            ***command,
               GError           **error)
{
  PsCollector *collector = PS_COLLECTOR (self);
  const char *events = ps_collector_get_option (collector, table, "events");
  const char *mode = ps_collector_get_option (collector, table, "mode");
  const char *rate = ps_collector_get_option (collector, table, "rate");
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) parts = g_strsplit (events, ",", 0);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *name = g_strstrip (parts[i]);

      if (*name != '\0')
        g_ptr_array_add (names, g_strdup (name));
    }
  if (names->len == 0)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED, _("No event to sample: give one or more event names"));
      return FALSE;
    }
  g_ptr_array_add (names, NULL);
  self->events = (char **)g_ptr_array_free (g_steal_pointer (&names), FALSE);

  if (!g_ascii_string_to_unsigned (rate, 10, 1, G_MAXUINT64, &self->rate, NULL))
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The sampling rate must be a number of events above 0, not “%s”"), rate);
      return FALSE;
    }
  if (!ps_collector_parse_interval (ps_collector_get_option (collector, table, "interval-ms"), &self->interval_ms, error))
    return FALSE;
  self->callchains = ps_collector_parse_boolean (ps_collector_get_option (collector, table, "callchains"));

  if (!ps_collector_parse_target (ps_collector_get_option (collector, table, "pid"),
                                  ps_collector_get_option (collector, table, "command"),
                                  &self->pid, command, error))
    return FALSE;

  if (strcmp (mode, "system") == 0)
    self->mode = PS_HWPMC_MODE_SYSTEM;
  else if (strcmp (mode, "process") == 0)
    self->mode = PS_HWPMC_MODE_PROCESS;
  else if (*mode == '\0')
    self->mode = self->pid > 0 || *command != NULL ? PS_HWPMC_MODE_PROCESS : PS_HWPMC_MODE_SYSTEM;
  else
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("The mode must be “system” or “process”, not “%s”"), mode);
      return FALSE;
    }

  if (self->mode == PS_HWPMC_MODE_PROCESS && self->pid == 0 && *command == NULL)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED, _("Process mode needs a process ID or a command"));
      return FALSE;
    }
  if (self->mode == PS_HWPMC_MODE_SYSTEM && (self->pid > 0 || *command != NULL))
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("System mode samples every process: give no process ID or command"));
      return FALSE;
    }
  return TRUE;
}

/* --- Start and stop --------------------------------------------------------- */

static void
release_held_command (PsHwpmcCollector *self)
{
  if (self->release_fd >= 0)
    {
      close (self->release_fd);
      self->release_fd = -1;
    }
}

/* Undoes what start did, in the order of §9.3, and reads the log to its
 * end. Safe at any point of start and more than once. */
static void
stop_collecting (PsHwpmcCollector *self)
{
  int status;

  g_clear_pointer (&self->flush_clock, ps_collector_clock_free);

  for (guint i = 0; i < self->started->len; i++)
    if ((status = self->backend->stop (self->backend, g_array_index (self->started, guint32, i))) != 0)
      g_debug ("pmc_stop: %s", g_strerror (status));
  g_array_set_size (self->started, 0);

  if (self->logging)
    {
      if ((status = self->backend->flush_logfile (self->backend)) != 0)
        g_debug ("pmc_flush_logfile: %s", g_strerror (status));
      if ((status = self->backend->close_logfile (self->backend)) != 0)
        g_debug ("pmc_close_logfile: %s", g_strerror (status));
    }

  for (guint i = 0; i < self->pmcs->len; i++)
    if ((status = self->backend->release (self->backend, g_array_index (self->pmcs, guint32, i))) != 0)
      g_debug ("pmc_release: %s", g_strerror (status));
  g_array_set_size (self->pmcs, 0);

  if (self->logging)
    {
      if ((status = self->backend->configure_logfile (self->backend, -1)) != 0)
        g_debug ("pmc_configure_logfile (-1): %s", g_strerror (status));
      self->logging = FALSE;
    }

  if (self->subprocess != NULL)
    {
      /* A launched command lives as long as its recording */
      g_subprocess_force_exit (self->subprocess);
      release_held_command (self);
      g_subprocess_wait (self->subprocess, NULL, NULL);
      g_clear_object (&self->subprocess);
    }
  release_held_command (self);

  /* With the kernel's reference and ours gone, the reader sees the end */
  if (self->write_fd >= 0)
    {
      close (self->write_fd);
      self->write_fd = -1;
    }
  if (self->reader != NULL)
    g_clear_pointer (&self->reader, g_thread_join);
  if (self->read_fd >= 0)
    {
      close (self->read_fd);
      self->read_fd = -1;
    }

  g_mutex_lock (&self->lock);
  if (self->drain_source != NULL)
    {
      g_source_destroy (self->drain_source);
      g_clear_pointer (&self->drain_source, g_source_unref);
    }
  g_mutex_unlock (&self->lock);
}

/* Commits the saved log, or (discard) leaves the file as it was */
static void
close_log (PsHwpmcCollector *self,
           gboolean          discard)
{
  if (self->log_output == NULL)
    return;
  if (!discard && self->log_error == NULL)
    ps_file_output_commit (self->log_output, NULL, &self->log_error);
  if (!discard && self->log_error != NULL)
    ps_file_output_note_kept (self->log_output, &self->log_error);
  g_clear_pointer (&self->log_output, ps_file_output_free);
}

static void
clear_run (PsHwpmcCollector *self)
{
  close_log (self, TRUE);
  g_clear_pointer (&self->log_path, g_free);
  g_clear_error (&self->log_error);
  g_queue_clear_full (&self->chunks, (GDestroyNotify)g_bytes_unref);
  g_clear_pointer (&self->parser, ps_parser_free);
  g_clear_pointer (&self->builder, ps_store_builder_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->store);
  g_clear_pointer (&self->events, g_strfreev);
  g_clear_pointer (&self->command_line, g_free);
  g_clear_error (&self->parse_error);
  self->at_end = FALSE;
  self->read_errno = 0;
  self->bytes_fed = 0;
  self->pid = 0;
}

static gboolean
allocate_pmcs (PsHwpmcCollector  *self,
               GError           **error)
{
  int n_cpus = self->mode == PS_HWPMC_MODE_SYSTEM ? self->backend->get_n_cpus (self->backend) : 1;

  for (guint e = 0; self->events[e] != NULL; e++)
    {
      PsHwpmcRequest request = {
        .event = self->events[e],
        .mode = self->mode,
        .callchains = self->callchains,
        .descendants = self->mode == PS_HWPMC_MODE_PROCESS,
        .cpu = PS_HWPMC_CPU_ANY,
        .rate = self->rate,
      };
      guint n_allocated = 0;
      int last_status = ENXIO;

      for (int cpu = 0; cpu < MAX (n_cpus, 1); cpu++)
        {
          guint32 pmcid = 0;
          int status;

          if (self->mode == PS_HWPMC_MODE_SYSTEM)
            request.cpu = cpu;
          status = self->backend->allocate (self->backend, &request, &pmcid);
          /* A CPU that is absent or disabled has no PMC: the others are sampled */
          if (status == ENXIO && self->mode == PS_HWPMC_MODE_SYSTEM)
            continue;
          if (status != 0)
            {
              last_status = status;
              n_allocated = 0;
              break;
            }
          g_array_append_val (self->pmcs, pmcid);
          n_allocated++;

          if (self->mode == PS_HWPMC_MODE_PROCESS
              && (status = self->backend->attach (self->backend, pmcid, self->pid)) != 0)
            {
              g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                           _("Cannot attach the PMC of event “%s” to process %d: %s"),
                           self->events[e], self->pid, g_strerror (status));
              return FALSE;
            }
        }

      if (n_allocated == 0)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                       _("Cannot allocate a PMC for event “%s”: %s"), self->events[e], g_strerror (last_status));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
start_collecting (PsHwpmcCollector    *self,
                  PsEventStore        *store,
                  GHashTable          *table,
                  GError             **error)
{
  g_auto(GStrv) command = NULL;
  int fds[2];
  int status;

  if (!parse_options (self, table, &command, error))
    return FALSE;

  if (!ps_hwpmc_collector_check_available (PS_COLLECTOR (self), error))
    return FALSE;

  /* A file that cannot be written is said before anything is recorded;
   * it replaces the old one only once the log is complete */
  if (*ps_collector_get_option (PS_COLLECTOR (self), table, "log") != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (ps_collector_get_option (PS_COLLECTOR (self), table, "log"));
      g_autoptr(GError) log_error = NULL;

      self->log_path = g_file_get_parse_name (file);
      self->log_output = ps_file_output_open (file, NULL, &log_error);
      if (self->log_output == NULL)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("Cannot save the hwpmc log to “%s”: %s"),
                       self->log_path, log_error->message);
          return FALSE;
        }
    }
  if ((status = self->backend->init (self->backend)) != 0)
    {
      if (status == ENXIO)
        g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                     _("hwpmc is not available: %s (load the hwpmc module with “kldload hwpmc”)"),
                     g_strerror (status));
      else
        g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("hwpmc is not available: %s"), g_strerror (status));
      return FALSE;
    }

  self->context = g_main_context_ref_thread_default ();

  /* The reader drains the pipe from before the log is configured */
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    return FALSE;
  self->read_fd = fds[0];
  self->write_fd = fds[1];
  self->reader = g_thread_new ("perfscope-hwpmc", read_pipe, self);

  if ((status = self->backend->configure_logfile (self->backend, self->write_fd)) != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("Cannot send the hwpmc log to a pipe: %s"), g_strerror (status));
      return FALSE;
    }
  self->logging = TRUE;

  if (command != NULL && !launch_held (self, (const char * const *)command, error))
    return FALSE;

  if (!allocate_pmcs (self, error))
    return FALSE;

  for (guint i = 0; i < self->pmcs->len; i++)
    {
      guint32 pmcid = g_array_index (self->pmcs, guint32, i);

      if ((status = self->backend->start (self->backend, pmcid)) != 0)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("Cannot start sampling: %s"), g_strerror (status));
          return FALSE;
        }
      g_array_append_val (self->started, pmcid);
    }
  release_held_command (self);

  /* The store sees nothing of a start that fails; the bytes the reader
   * has queued meanwhile are fed from the next iteration of the context */
  self->store = g_object_ref (store);
  self->builder = ps_store_builder_new (store);
  self->parser = ps_format_new_parser (&ps_format_hwpmc_pmclog, self->builder);
  ps_parser_set_option (self->parser, "sysroot", ps_collector_get_option (PS_COLLECTOR (self), table, "sysroot"));

  if (command != NULL)
    self->command_line = g_strdup (ps_collector_get_option (PS_COLLECTOR (self), table, "command"));

  self->flush_clock = ps_collector_clock_new (NULL, self->interval_ms, g_get_monotonic_time (), self->context,
                                             flush_log, self);
  return TRUE;
}

/* After the reader has seen the end of the log: the last bytes, the
 * parser's end, and why the log ended early if it did */
static void
finish_run (PsHwpmcCollector *self)
{
  g_autoptr(GError) finish_error = NULL;

  feed_pending (self);

  if (self->parse_error == NULL && !ps_parser_finish (self->parser, &finish_error))
    self->parse_error = g_steal_pointer (&finish_error);
  if (self->parse_error == NULL && self->read_errno != 0)
    g_set_error (&self->parse_error, PS_ERROR, PS_ERROR_TRUNCATED,
                 _("Reading the hwpmc log failed after %" PRIu64 " bytes: %s"),
                 self->bytes_fed, g_strerror (self->read_errno));
  /* The parser makes the session when the log begins */
  if (ps_event_store_get_n_sessions (self->store) > 0)
    {
      g_autofree char *events = g_strjoinv (",", self->events);
      g_autofree char *rate = g_strdup_printf ("%" G_GUINT64_FORMAT, self->rate);

      ps_event_store_set_metadata (self->store, 0, "collector", "hwpmc");
      ps_event_store_set_metadata (self->store, 0, "events", events);
      ps_event_store_set_metadata (self->store, 0, "mode", self->mode == PS_HWPMC_MODE_SYSTEM ? "system" : "process");
      ps_event_store_set_metadata (self->store, 0, "rate", rate);
      if (self->command_line != NULL)
        ps_event_store_set_metadata (self->store, 0, "command", self->command_line);
    }

  close_log (self, FALSE);
  if (self->log_error != NULL && ps_event_store_get_n_sessions (self->store) > 0)
    {
      /* Translators: the first %s is a file name, the second why it could not be written */
      g_autofree char *message = g_strdup_printf (_("The raw log could not be saved to “%s”: %s"),
                                                  self->log_path, self->log_error->message);

      ps_event_store_add_warning (self->store, PS_SEVERITY_WARNING, "W-LOG-NOT-SAVED", 0, 0, 0, message);
    }
  else if (self->log_path != NULL && ps_event_store_get_n_sessions (self->store) > 0)
    ps_event_store_set_metadata (self->store, 0, "log", self->log_path);

  /* What came before a cut or damaged record stays in the run */
  if (self->parse_error != NULL)
    ps_event_store_set_error (self->store, self->parse_error);
  ps_store_builder_flush (self->builder);
  ps_event_store_set_bytes_read (self->store, self->bytes_fed);
  ps_event_store_emit_appended (self->store);
}

/* --- PsCollector -------------------------------------------------------------- */

static const char *
ps_hwpmc_collector_get_name (PsCollector *collector)
{
  return "hwpmc";
}

static const char *
ps_hwpmc_collector_get_display_name (PsCollector *collector)
{
  return _("Sampled call stacks with hardware counters (FreeBSD hwpmc)");
}

static const PsCollectorOption *
ps_hwpmc_collector_list_options (PsCollector *collector,
                                 guint       *n_options)
{
  *n_options = G_N_ELEMENTS (options);
  return options;
}

static void
ps_hwpmc_collector_list_choices (PsCollector *collector,
                                 const char  *key,
                                 GPtrArray   *choices)
{
  PsHwpmcCollector *self = PS_HWPMC_COLLECTOR (collector);

  if (strcmp (key, "mode") == 0)
    {
      ps_collector_add_choice (choices, "", _("Automatic: one process when one is given, else the whole system"));
      ps_collector_add_choice (choices, "system", _("Whole system: every CPU, every process"));
      ps_collector_add_choice (choices, "process", _("One process and the processes it starts"));
    }
  else if (strcmp (key, "events") == 0)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < G_N_ELEMENTS (event_aliases); i++)
        {
          ps_collector_add_choice (choices, event_aliases[i].name, _(event_aliases[i].label));
          g_hash_table_add (seen, (gpointer)event_aliases[i].name);
        }
      /* Without hwpmc the aliases are all there is to offer */
      if (self->backend != NULL && self->backend->list_events != NULL
          && self->backend->list_events (self->backend, names) == 0)
        for (guint i = 0; i < names->len; i++)
          {
            const char *name = g_ptr_array_index (names, i);

            if (g_hash_table_add (seen, (gpointer)name))
              ps_collector_add_choice (choices, name, name);
          }
    }
}

static void
ps_hwpmc_collector_start_async (PsCollector         *collector,
                                PsEventStore        *store,
                                GHashTable          *table,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  PsHwpmcCollector *self = PS_HWPMC_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, ps_hwpmc_collector_start_async);

  if (ps_collector_task_return_if_recording (task, self->store != NULL))
    return;

  if (!start_collecting (self, store, table, &error))
    {
      stop_collecting (self);
      clear_run (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
ps_hwpmc_collector_stop_async (PsCollector         *collector,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  PsHwpmcCollector *self = PS_HWPMC_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, ps_hwpmc_collector_stop_async);

  if (ps_collector_task_return_if_not_recording (task, self->store != NULL))
    return;

  stop_collecting (self);
  finish_run (self);
  clear_run (self);
  g_task_return_boolean (task, TRUE);
}

static void
ps_hwpmc_collector_iface_init (PsCollectorInterface *iface)
{
  iface->get_name = ps_hwpmc_collector_get_name;
  iface->get_display_name = ps_hwpmc_collector_get_display_name;
  iface->list_options = ps_hwpmc_collector_list_options;
  iface->start_async = ps_hwpmc_collector_start_async;
  iface->stop_async = ps_hwpmc_collector_stop_async;
  iface->check_available = ps_hwpmc_collector_check_available;
  iface->list_choices = ps_hwpmc_collector_list_choices;
}

static void
ps_hwpmc_collector_dispose (GObject *object)
{
  PsHwpmcCollector *self = PS_HWPMC_COLLECTOR (object);

  if (self->store != NULL)
    {
      stop_collecting (self);
      clear_run (self);
    }
  G_OBJECT_CLASS (ps_hwpmc_collector_parent_class)->dispose (object);
}

static void
ps_hwpmc_collector_finalize (GObject *object)
{
  PsHwpmcCollector *self = PS_HWPMC_COLLECTOR (object);

  g_clear_pointer (&self->pmcs, g_array_unref);
  g_clear_pointer (&self->started, g_array_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (ps_hwpmc_collector_parent_class)->finalize (object);
}

static void
ps_hwpmc_collector_class_init (PsHwpmcCollectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ps_hwpmc_collector_dispose;
  object_class->finalize = ps_hwpmc_collector_finalize;
}

static void
ps_hwpmc_collector_class_finalize (PsHwpmcCollectorClass *klass)
{
}

static void
ps_hwpmc_collector_init (PsHwpmcCollector *self)
{
  self->backend = default_backend != NULL ? default_backend : ps_hwpmc_backend_get_system ();
  self->pmcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->started = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->read_fd = -1;
  self->write_fd = -1;
  self->release_fd = -1;
  g_mutex_init (&self->lock);
  g_queue_init (&self->chunks);
}

void
ps_hwpmc_collector_register (GTypeModule *module)
{
  ps_hwpmc_collector_register_type (module);
}

void
ps_hwpmc_collector_set_backend (PsHwpmcCollector     *self,
                                const PsHwpmcBackend *backend)
{
  g_return_if_fail (PS_IS_HWPMC_COLLECTOR (self));
  g_return_if_fail (self->store == NULL);

  self->backend = backend;
}

void
ps_hwpmc_collector_set_default_backend (const PsHwpmcBackend *backend)
{
  default_backend = backend;
}

#ifndef PS_HAVE_LIBPMC
const PsHwpmcBackend *
ps_hwpmc_backend_get_system (void)
{
  return NULL;
}
#endif
