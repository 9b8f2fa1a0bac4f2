/* ps-procfs-collector.c — CPU and memory of a process and of the system, from /proc
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sources: proc(5) — /proc/PID/stat (utime, stime: fields 14 and 15, in
 * clock ticks of sysconf (_SC_CLK_TCK)), /proc/PID/status (VmRSS, VmSize),
 * /proc/stat (the "cpu" line) and /proc/meminfo (MemTotal, MemAvailable).
 *
 * Every interval the collector reads those files on the main context of
 * the caller of start (reading them takes microseconds) and appends the
 * readings as counters (the model next to PsTrackKind in
 * ps-event-store.h): MACHINE (the host) ← OBJECT "Process" ← INSTANCE
 * (the process's name, as Windows' Process counter set names instances,
 * so that two recordings of one program compare counter by counter; the
 * process id is the session's "pid") ←
 * COUNTER, and MACHINE ← OBJECT "System" ← COUNTER. A process's CPU is in
 * percent of one CPU (a busy thread: 100 %), the system's in percent of
 * all CPUs.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-error.h"
#include "ps-store-builder.h"

#define DEFAULT_INTERVAL_MS 100

#define PS_TYPE_PROCFS_COLLECTOR (ps_procfs_collector_get_type ())
G_DECLARE_FINAL_TYPE (PsProcfsCollector, ps_procfs_collector, PS, PROCFS_COLLECTOR, GObject)

enum
{
  PROCESS_CPU,
  PROCESS_RSS,
  PROCESS_VSIZE,
  SYSTEM_CPU,
  SYSTEM_USED,
  SYSTEM_AVAILABLE,
  N_COUNTERS
};

struct _PsProcfsCollector
{
  GObject         parent_instance;

  PsEventStore   *store;
  PsStoreBuilder *builder;
  GMainContext   *context;
  GSource        *timer;
  GSubprocess    *subprocess;    /* a command we launched, or NULL */

  guint           interval_ms;
  long            clock_ticks;   /* sysconf (_SC_CLK_TCK) */
  gint64          start_us;      /* monotonic time of time 0 */
  gint64          last_sample_us;
  guint32         session;

  int             pid;           /* 0: no process */
  gboolean        process_gone;
  gboolean        sample_system;

  guint32         tracks[N_COUNTERS];   /* PS_NONE when not sampled */

  gboolean        have_process_ticks;
  guint64         process_ticks;
  gint64          process_ticks_us;
  gboolean        have_system_ticks;
  guint64         system_busy;
  guint64         system_total;
};

static void ps_procfs_collector_iface_init (PsCollectorInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (PsProcfsCollector, ps_procfs_collector, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (PS_TYPE_COLLECTOR, ps_procfs_collector_iface_init))

static const PsCollectorOption options[] = {
  { "pid", N_("Process ID"), PS_COLLECTOR_OPTION_PID, "" },
  { "command", N_("Command to launch"), PS_COLLECTOR_OPTION_COMMAND, "" },
  { "interval-ms", N_("Interval (ms)"), PS_COLLECTOR_OPTION_INT, "100" },
  { "system", N_("Whole system"), PS_COLLECTOR_OPTION_BOOLEAN, "true" },
};

/* /proc readers */

typedef struct
{
  char    comm[64];
  char    state;
  guint64 ticks;   /* utime + stime */
} ProcessStat;

static gboolean
read_process_stat (int          pid,
                   ProcessStat *out)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  const char *open_paren;
  const char *close_paren;
  gsize length;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  /* The name may hold spaces and parentheses: it ends at the last ')' */
  open_paren = strchr (contents, '(');
  close_paren = strrchr (contents, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren)
    return FALSE;
  length = MIN ((gsize)(close_paren - open_paren - 1), sizeof out->comm - 1);
  memcpy (out->comm, open_paren + 1, length);
  out->comm[length] = '\0';

  /* fields[0] is field 3 (state); utime and stime are fields 14 and 15 */
  fields = g_strsplit (g_strstrip ((char *)close_paren + 1), " ", 0);
  if (g_strv_length (fields) < 13)
    return FALSE;
  out->state = fields[0][0];
  out->ticks = g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10);
  return TRUE;
}

/* The kB value of "key:" lines of /proc/PID/status or /proc/meminfo, in
 * bytes; keys and values have room for n entries */
static gboolean
read_kb_fields (const char         *path,
                const char * const *keys,
                guint64            *values,
                guint               n)
{
  g_autofree char *contents = NULL;
  guint n_found = 0;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  for (const char *line = contents; line != NULL && *line != '\0'; )
    {
      const char *end = strchr (line, '\n');

      for (guint i = 0; i < n; i++)
        {
          gsize key_length = strlen (keys[i]);

          if (strncmp (line, keys[i], key_length) == 0 && line[key_length] == ':')
            {
              values[i] = g_ascii_strtoull (line + key_length + 1, NULL, 10) * 1024;
              n_found++;
            }
        }
      line = end != NULL ? end + 1 : NULL;
    }
  return n_found == n;
}

static gboolean
read_system_ticks (guint64 *busy,
                   guint64 *total)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  guint64 values[8] = { 0 };
  guint n_fields;

  if (!g_file_get_contents ("/proc/stat", &contents, NULL, NULL) || !g_str_has_prefix (contents, "cpu "))
    return FALSE;
  if (strchr (contents, '\n') != NULL)
    *strchr (contents, '\n') = '\0';
  fields = g_strsplit_set (contents + 4, " ", 0);

  /* user nice system idle iowait irq softirq steal (guest is within user) */
  n_fields = 0;
  for (guint i = 0; fields[i] != NULL && n_fields < G_N_ELEMENTS (values); i++)
    if (*fields[i] != '\0')
      values[n_fields++] = g_ascii_strtoull (fields[i], NULL, 10);
  if (n_fields < 4)
    return FALSE;

  *total = 0;
  for (guint i = 0; i < n_fields; i++)
    *total += values[i];
  *busy = *total - values[3] - values[4];
  return TRUE;
}

/* Tracks */

static guint32
add_track (PsProcfsCollector *self,
           PsTrackKind        kind,
           guint32            parent,
           const char        *name,
           const char        *unit,
           const char        *path)
{
  PsTrack track = { 0 };

  track.name = ps_event_store_intern (self->store, name, -1);
  track.category = path != NULL ? ps_event_store_intern (self->store, path, -1) : 0;
  track.unit = unit != NULL ? ps_event_store_intern (self->store, unit, -1) : 0;
  track.parent = parent;
  track.session = self->session;
  track.kind = kind;
  return ps_event_store_add_track (self->store, &track);
}

static guint32
add_counter (PsProcfsCollector *self,
             guint32            parent,
             const char        *machine,
             const char        *object_path,
             const char        *name,
             const char        *unit)
{
  g_autofree char *path = g_strdup_printf ("\\\\%s\\%s\\%s", machine, object_path, name);

  return add_track (self, PS_TRACK_COUNTER, parent, name, unit, path);
}

static void
add_tracks (PsProcfsCollector *self,
            const char        *process_name)
{
  const char *machine_name = g_get_host_name ();
  guint32 machine = add_track (self, PS_TRACK_MACHINE, PS_NONE, machine_name, NULL, NULL);

  for (guint i = 0; i < N_COUNTERS; i++)
    self->tracks[i] = PS_NONE;

  if (self->pid > 0)
    {
      g_autofree char *object_path = g_strdup_printf ("Process(%s)", process_name);
      g_autofree char *pid_text = g_strdup_printf ("%d", self->pid);
      guint32 object = add_track (self, PS_TRACK_OBJECT, machine, "Process", NULL, NULL);
      guint32 instance = add_track (self, PS_TRACK_INSTANCE, object, process_name, NULL, NULL);

      ps_event_store_set_metadata (self->store, self->session, "pid", pid_text);

      self->tracks[PROCESS_CPU] = add_counter (self, instance, machine_name, object_path, "% Processor Time", "%");
      self->tracks[PROCESS_RSS] = add_counter (self, instance, machine_name, object_path, "Resident Set Size", "bytes");
      self->tracks[PROCESS_VSIZE] = add_counter (self, instance, machine_name, object_path, "Virtual Bytes", "bytes");
    }

  if (self->sample_system)
    {
      guint32 object = add_track (self, PS_TRACK_OBJECT, machine, "System", NULL, NULL);

      self->tracks[SYSTEM_CPU] = add_counter (self, object, machine_name, "System", "% Processor Time", "%");
      self->tracks[SYSTEM_USED] = add_counter (self, object, machine_name, "System", "Used Bytes", "bytes");
      self->tracks[SYSTEM_AVAILABLE] = add_counter (self, object, machine_name, "System", "Available Bytes", "bytes");
    }
}

/* Sampling */

static void
add_reading (PsProcfsCollector *self,
             guint              counter,
             gint64             time_ns,
             double             value)
{
  PsCounterValue reading = { 0 };

  reading.time_ns = time_ns;
  reading.track = self->tracks[counter];
  reading.value = value;
  ps_store_builder_add_counter_value (self->builder, &reading);
}

static gboolean
emit_target_exited (gpointer user_data)
{
  PsProcfsCollector *self = user_data;

  /* Unless the recording was stopped in the meantime */
  if (self->store != NULL)
    ps_collector_emit_target_exited (PS_COLLECTOR (self));
  return G_SOURCE_REMOVE;
}

static void
sample_process (PsProcfsCollector *self,
                gint64             now_us,
                gint64             time_ns)
{
  g_autofree char *status_path = NULL;
  static const char * const status_keys[] = { "VmRSS", "VmSize" };
  guint64 memory[2];
  ProcessStat stat;

  /* A zombie has no memory left to show and uses no CPU */
  if (!read_process_stat (self->pid, &stat) || stat.state == 'Z' || stat.state == 'X')
    {
      self->process_gone = TRUE;
      /* Said on the next turn of the main loop: whoever stops the
       * recording then does not do so inside a sample */
      {
        GSource *idle = g_idle_source_new ();

        g_source_set_callback (idle, emit_target_exited, g_object_ref (self), g_object_unref);
        g_source_attach (idle, self->context);
        g_source_unref (idle);
      }
      return;
    }

  if (self->have_process_ticks && now_us > self->process_ticks_us)
    {
      double cpu_seconds = (double)(stat.ticks - self->process_ticks) / (double)self->clock_ticks;
      double wall_seconds = (double)(now_us - self->process_ticks_us) / G_USEC_PER_SEC;

      add_reading (self, PROCESS_CPU, time_ns, 100.0 * cpu_seconds / wall_seconds);
    }
  self->have_process_ticks = TRUE;
  self->process_ticks = stat.ticks;
  self->process_ticks_us = now_us;

  status_path = g_strdup_printf ("/proc/%d/status", self->pid);
  if (read_kb_fields (status_path, status_keys, memory, G_N_ELEMENTS (memory)))
    {
      add_reading (self, PROCESS_RSS, time_ns, (double)memory[0]);
      add_reading (self, PROCESS_VSIZE, time_ns, (double)memory[1]);
    }
}

static void
sample_system (PsProcfsCollector *self,
               gint64             time_ns)
{
  static const char * const meminfo_keys[] = { "MemTotal", "MemAvailable" };
  guint64 memory[2];
  guint64 busy, total;

  if (read_system_ticks (&busy, &total))
    {
      if (self->have_system_ticks && total > self->system_total)
        add_reading (self, SYSTEM_CPU, time_ns,
                     100.0 * (double)(busy - MIN (busy, self->system_busy)) / (double)(total - self->system_total));
      self->have_system_ticks = TRUE;
      self->system_busy = busy;
      self->system_total = total;
    }

  if (read_kb_fields ("/proc/meminfo", meminfo_keys, memory, G_N_ELEMENTS (memory)))
    {
      add_reading (self, SYSTEM_USED, time_ns, (double)(memory[0] - MIN (memory[0], memory[1])));
      add_reading (self, SYSTEM_AVAILABLE, time_ns, (double)memory[1]);
    }
}

static void
sample (PsProcfsCollector *self)
{
  gint64 now_us = g_get_monotonic_time ();
  gint64 time_ns = (now_us - self->start_us) * 1000;
  gint64 interval_us = (gint64)self->interval_ms * 1000;

  /* Intervals the main loop was too busy to sample in */
  if (self->last_sample_us != 0 && now_us - self->last_sample_us >= 2 * interval_us)
    ps_collector_add_lost (PS_COLLECTOR (self), (guint64)((now_us - self->last_sample_us) / interval_us - 1));
  self->last_sample_us = now_us;

  if (self->pid > 0 && !self->process_gone)
    sample_process (self, now_us, time_ns);
  if (self->sample_system)
    sample_system (self, time_ns);

  if (ps_store_builder_flush (self->builder) > 0)
    ps_event_store_emit_appended (self->store);
}

static gboolean
on_timer (gpointer user_data)
{
  sample (user_data);
  return G_SOURCE_CONTINUE;
}

/* Options */

static gboolean
parse_options (PsProcfsCollector  *self,
               GHashTable         *table,
               char             ***command,
               GError            **error)
{
  PsCollector *collector = PS_COLLECTOR (self);

  if (!ps_collector_parse_interval (ps_collector_get_option (collector, table, "interval-ms"), &self->interval_ms, error)
      || !ps_collector_parse_target (ps_collector_get_option (collector, table, "pid"),
                                     ps_collector_get_option (collector, table, "command"),
                                     &self->pid, command, error))
    return FALSE;

  self->sample_system = ps_collector_parse_boolean (ps_collector_get_option (collector, table, "system"));
  if (self->pid == 0 && *command == NULL && !self->sample_system)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("Nothing to record: no process, no command and not the whole system"));
      return FALSE;
    }
  return TRUE;
}

/* PsCollector */

static const char *
ps_procfs_collector_get_name (PsCollector *collector)
{
  return "procfs";
}

static const char *
ps_procfs_collector_get_display_name (PsCollector *collector)
{
  return _("Process and system CPU and memory (procfs)");
}

static const PsCollectorOption *
ps_procfs_collector_list_options (PsCollector *collector,
                                  guint       *n_options)
{
  *n_options = G_N_ELEMENTS (options);
  return options;
}

static void
ps_procfs_collector_start_async (PsCollector         *collector,
                                 PsEventStore        *store,
                                 GHashTable          *table,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  PsProcfsCollector *self = PS_PROCFS_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) command = NULL;
  g_autofree char *interval_text = NULL;
  ProcessStat stat = { 0 };

  g_task_set_source_tag (task, ps_procfs_collector_start_async);

  if (ps_collector_task_return_if_recording (task, self->store != NULL))
    return;

  self->clock_ticks = sysconf (_SC_CLK_TCK);
  if (self->clock_ticks <= 0)
    self->clock_ticks = 100;

  if (!parse_options (self, table, &command, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (command != NULL)
    {
      self->subprocess = g_subprocess_newv ((const char * const *)command, G_SUBPROCESS_FLAGS_NONE, &error);
      if (self->subprocess == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      self->pid = atoi (g_subprocess_get_identifier (self->subprocess));
    }

  if (self->pid > 0 && !read_process_stat (self->pid, &stat))
    {
      g_task_return_new_error (task, PS_ERROR, PS_ERROR_FAILED,
                               _("No process with ID %d can be read in /proc"), self->pid);
      g_clear_object (&self->subprocess);
      self->pid = 0;
      return;
    }

  self->store = g_object_ref (store);
  self->builder = ps_store_builder_new (store);
  self->context = g_main_context_ref_thread_default ();
  self->session = ps_event_store_add_session (store, 0, FALSE);
  self->start_us = g_get_monotonic_time ();
  ps_event_store_set_format (store, "procfs");
  ps_event_store_set_session_origin (store, self->session, g_get_real_time () * 1000);
  interval_text = g_strdup_printf ("%u", self->interval_ms);
  ps_event_store_set_metadata (store, self->session, "collector", "procfs");
  ps_event_store_set_metadata (store, self->session, "interval_ms", interval_text);
  if (command != NULL)
    ps_event_store_set_metadata (store, self->session, "command", ps_collector_get_option (collector, table, "command"));
  add_tracks (self, stat.comm);

  /* The first reading is the base of the first CPU figure */
  sample (self);
  self->timer = g_timeout_source_new (self->interval_ms);
  g_source_set_callback (self->timer, on_timer, self, NULL);
  g_source_set_static_name (self->timer, "[perfscope] procfs sampling");
  g_source_set_priority (self->timer, G_PRIORITY_HIGH);
  g_source_attach (self->timer, self->context);

  g_task_return_boolean (task, TRUE);
}

static void
stop_collecting (PsProcfsCollector *self)
{
  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }
  if (self->subprocess != NULL)
    {
      /* A launched command lives as long as its recording */
      g_subprocess_force_exit (self->subprocess);
      g_clear_object (&self->subprocess);
    }
  g_clear_pointer (&self->builder, ps_store_builder_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->store);
}

static void
ps_procfs_collector_stop_async (PsCollector         *collector,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  PsProcfsCollector *self = PS_PROCFS_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, ps_procfs_collector_stop_async);

  if (ps_collector_task_return_if_not_recording (task, self->store != NULL))
    return;

  /* The readings up to now */
  sample (self);
  stop_collecting (self);
  g_task_return_boolean (task, TRUE);
}

static void
ps_procfs_collector_iface_init (PsCollectorInterface *iface)
{
  iface->get_name = ps_procfs_collector_get_name;
  iface->get_display_name = ps_procfs_collector_get_display_name;
  iface->list_options = ps_procfs_collector_list_options;
  iface->start_async = ps_procfs_collector_start_async;
  iface->stop_async = ps_procfs_collector_stop_async;
}

static void
ps_procfs_collector_dispose (GObject *object)
{
  stop_collecting (PS_PROCFS_COLLECTOR (object));
  G_OBJECT_CLASS (ps_procfs_collector_parent_class)->dispose (object);
}

static void
ps_procfs_collector_class_init (PsProcfsCollectorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ps_procfs_collector_dispose;
}

static void
ps_procfs_collector_class_finalize (PsProcfsCollectorClass *klass)
{
}

static void
ps_procfs_collector_init (PsProcfsCollector *self)
{
  for (guint i = 0; i < N_COUNTERS; i++)
    self->tracks[i] = PS_NONE;
}

/* The GIO module */

PS_COLLECTOR_DEFINE_MODULE (ps_procfs_collector_register_type, PS_TYPE_PROCFS_COLLECTOR, "procfs")
