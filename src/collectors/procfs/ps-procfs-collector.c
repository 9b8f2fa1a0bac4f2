/* ps-procfs-collector.c — CPU and memory of a process tree and of the system, from /proc
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sources: proc(5) — /proc/PID/stat (ppid, utime, stime, cutime, cstime,
 * num_threads, starttime, vsize, rss: fields 4, 14–17, 20, 22–24; times in
 * clock ticks of sysconf (_SC_CLK_TCK)), /proc/PID/cmdline, /proc/stat
 * (the "cpu" line) and /proc/meminfo (MemTotal, MemAvailable).
 *
 * At every tick of a PsCollectorClock the collector reads those files on
 * a thread of its own (reading them takes microseconds a process), so
 * that a main loop busy drawing does not make the readings late; the main
 * context of the caller of start then appends them as counters (the model
 * next to PsTrackKind in ps-event-store.h): MACHINE (the host) ← OBJECT
 * "Process" ← INSTANCE (the process's command line; #1, #2… for the same
 * command line again, as Windows names instances, so that two recordings
 * of one program compare counter by counter; the process id of the target
 * is the session's "pid") ← COUNTER; MACHINE ← OBJECT "Process Tree" ←
 * COUNTER for the target and its descendants together; and MACHINE ←
 * OBJECT "System" ← COUNTER. CPU is in percent of one CPU (a busy
 * thread: 100 %) for processes and the tree, in percent of all CPUs for
 * the system. A process's threads are within its own figures.
 *
 * The tree: every reading lists /proc and takes in each process whose
 * parent is in the tree (a process stays in it when its parent ends and
 * it is given to another). /proc/PID/task/TID/children would be cheaper
 * but needs CONFIG_PROC_CHILDREN and misses children while others exit
 * (proc(5)); the listing needs neither, and the stat of a process outside
 * the tree is read once, when its pid first shows. A process whose parent
 * ends before the next reading, leaving it to init, is not seen.
 *
 * The tree's CPU counts what a process used after its last reading too:
 * the kernel adds an ended child's utime + stime + cutime + cstime to
 * its parent's cutime and cstime when the parent reaps it, so the tree's
 * CPU is the change of the sum of utime + stime + cutime + cstime over
 * the processes of the tree, less, for a process that was reaped by one
 * of the tree, the part of it the last reading counted already (no double
 * counting). A process reaped outside the tree (the target itself, by
 * Perfscope) loses its time after its last reading; one too short to be
 * seen at all counts in its parent's figure. A zombie's stat holds its
 * final times: it gives its last reading.
 */
/* O_CLOEXEC and kill () */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-error.h"
#include "ps-store-builder.h"

/* A command line longer than this is cut in the instance name */
#define MAX_COMMAND_LINE 200

/* How long a descendant whose command line cannot be read waits for a
 * name before it is named "[comm]": an exec leaves it without one for
 * microseconds, a process that blanked its arguments for good */
#define NAME_WAIT_US (1 * G_USEC_PER_SEC)

#define PS_TYPE_PROCFS_COLLECTOR (ps_procfs_collector_get_type ())
G_DECLARE_FINAL_TYPE (PsProcfsCollector, ps_procfs_collector, PS, PROCFS_COLLECTOR, GObject)

enum
{
  PROCESS_CPU,
  PROCESS_RSS,
  PROCESS_VSIZE,
  PROCESS_THREADS,
  N_PROCESS_COUNTERS
};

enum
{
  TREE_CPU,
  TREE_RSS,
  TREE_PROCESSES,
  TREE_THREADS,
  SYSTEM_CPU,
  SYSTEM_USED,
  SYSTEM_AVAILABLE,
  N_COUNTERS
};

typedef struct
{
  char    state;
  int     ppid;
  guint64 own_ticks;       /* utime + stime */
  guint64 children_ticks;  /* cutime + cstime */
  guint64 threads;
  guint64 start_ticks;     /* starttime: tells a process from a later one of its pid */
  guint64 vsize;           /* bytes */
  guint64 rss_pages;
  char    comm[64];
} ProcessStat;

/* A process of the tree */
typedef struct
{
  int       pid;
  int       ppid;
  guint64   start_ticks;
  char      comm[64];
  char     *command_line;
  guint32   tracks[N_PROCESS_COUNTERS];
  guint64   own_ticks;     /* at the last reading; 0 for one born since */
  guint64   total_ticks;   /* own + children, likewise */
  gboolean  counted;       /* the ticks are the base of the next figures */
  gboolean  present;       /* read in this reading */
  gboolean  final;         /* read as a zombie: its series has ended */
  gboolean  unnamed;       /* its command line not read yet: no series yet */
  gint64    unnamed_since; /* the reading that first found it so, µs */
} Member;

/* A track to add to the store, by the main context */
typedef struct
{
  PsTrackKind  kind;
  guint32      parent;   /* local id or PS_NONE */
  char        *name;
  gint64       number;
  char        *unit;
  char        *path;
} TrackSpec;

static void
track_spec_clear (gpointer data)
{
  TrackSpec *spec = data;

  g_free (spec->name);
  g_free (spec->unit);
  g_free (spec->path);
}

struct _PsProcfsCollector
{
  GObject           parent_instance;

  PsEventStore     *store;
  PsStoreBuilder   *builder;
  GMainContext     *context;
  PsCollectorClock *clock;
  GSubprocess      *subprocess;    /* a command we launched, or NULL */

  /* The readings are taken on a thread of their own, so that a busy main
   * loop (a window drawing) does not delay them; tracks and readings wait
   * in pending_* until the main context (context) puts them in the store.
   * Track ids here are the collector's own (local) until then. */
  GThread          *thread;
  GMainContext     *worker_context;
  GMainLoop        *worker_loop;
  GMutex            pending_lock;
  GArray           *pending_tracks;    /* TrackSpec */
  GArray           *pending_values;    /* PsCounterValue, track: a local id */
  gboolean          drain_scheduled;
  guint32           n_local_tracks;
  GArray           *track_ids;         /* local id → the store's track */

  guint             interval_ms;
  long              clock_ticks;   /* sysconf (_SC_CLK_TCK) */
  long              page_size;
  gint64            start_us;      /* monotonic time of time 0 */
  gint64            last_reading_us;
  guint32           session;
  char             *machine_name;
  guint32           machine_track;
  guint32           process_object;

  int               pid;           /* the target; 0: no process */
  gboolean          follow_children;
  gboolean          target_gone;
  gboolean          sample_system;

  GHashTable       *members;       /* pid → Member, alive at the last reading */
  GHashTable       *outsiders;     /* pid → the listing that last saw it */
  GHashTable       *instance_names; /* command line → instances of it so far */
  guint             listing;

  guint32           tracks[N_COUNTERS];   /* PS_NONE when not sampled */

  gboolean          have_system_ticks;
  guint64           system_busy;
  guint64           system_total;
};

static void ps_procfs_collector_iface_init (PsCollectorInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (PsProcfsCollector, ps_procfs_collector, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (PS_TYPE_COLLECTOR, ps_procfs_collector_iface_init))

static const PsCollectorOption options[] = {
  { "pid", N_("Process ID"), PS_COLLECTOR_OPTION_PID, "" },
  { "command", N_("Command to launch"), PS_COLLECTOR_OPTION_COMMAND, "" },
  { "children", N_("Child processes too"), PS_COLLECTOR_OPTION_BOOLEAN, "true" },
  { "interval-ms", N_("Interval (ms)"), PS_COLLECTOR_OPTION_INT, "100" },
  { "system", N_("Whole system"), PS_COLLECTOR_OPTION_BOOLEAN, "true" },
};

/* /proc readers */

/* A small file read whole into buffer (NUL-terminated); its length, or
 * -1. Reads of /proc files are atomic up to a page. */
static gssize
read_small_file (const char *path,
                 char       *buffer,
                 gsize       size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gssize length;

  if (fd < 0)
    return -1;
  do
    length = read (fd, buffer, size - 1);
  while (length < 0 && errno == EINTR);
  close (fd);
  if (length < 0)
    return -1;
  buffer[length] = '\0';
  return length;
}

static gboolean
read_process_stat (int          pid,
                   ProcessStat *out)
{
  char path[64];
  char contents[1024];
  const char *open_paren;
  const char *close_paren;
  const char *cursor;
  guint64 fields[22];
  gsize length;

  g_snprintf (path, sizeof path, "/proc/%d/stat", pid);
  if (read_small_file (path, contents, sizeof contents) <= 0)
    return FALSE;

  /* The name may hold spaces and parentheses: it ends at the last ')' */
  open_paren = strchr (contents, '(');
  close_paren = strrchr (contents, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren || close_paren[1] != ' ')
    return FALSE;
  length = MIN ((gsize)(close_paren - open_paren - 1), sizeof out->comm - 1);
  memcpy (out->comm, open_paren + 1, length);
  out->comm[length] = '\0';
  out->state = close_paren[2];

  /* fields[i] is field i + 4 (proc(5) numbers them from 1; 3 is the state) */
  cursor = close_paren + 3;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      char *end;

      while (*cursor == ' ')
        cursor++;
      /* Signed fields (cutime, priority…) are never negative for what is read here */
      fields[i] = g_ascii_strtoull (cursor[0] == '-' ? cursor + 1 : cursor, &end, 10);
      if (end == cursor || (cursor[0] == '-' && end == cursor + 1))
        return FALSE;
      cursor = end;
    }
  out->ppid = (int)fields[0];
  out->own_ticks = fields[10] + fields[11];
  out->children_ticks = fields[12] + fields[13];
  out->threads = fields[16];
  out->start_ticks = fields[18];
  out->vsize = fields[19];
  out->rss_pages = fields[20];
  return TRUE;
}

/* The command line with spaces between its arguments, cut to
 * MAX_COMMAND_LINE bytes; NULL for a process without one (a kernel
 * thread, a process that is ending) */
static char *
read_command_line (int pid)
{
  char path[64];
  char contents[MAX_COMMAND_LINE + 2];
  gssize length;

  g_snprintf (path, sizeof path, "/proc/%d/cmdline", pid);
  length = read_small_file (path, contents, sizeof contents);
  while (length > 0 && contents[length - 1] == '\0')
    length--;
  if (length <= 0)
    return NULL;
  for (gssize i = 0; i < length; i++)
    if (contents[i] == '\0' || contents[i] == '\n' || contents[i] == '\t')
      contents[i] = ' ';
  if (length > MAX_COMMAND_LINE)
    {
      g_autofree char *valid = NULL;

      /* Cut on a character, not inside one */
      contents[MAX_COMMAND_LINE] = '\0';
      valid = g_utf8_make_valid (contents, -1);
      while (g_str_has_suffix (valid, "\357\277\275"))
        valid[strlen (valid) - 3] = '\0';
      return g_strconcat (valid, "…", NULL);
    }
  return g_utf8_make_valid (contents, length);
}

/* The kB value of "key:" lines of /proc/meminfo, in bytes; keys and
 * values have room for n entries */
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
           gint64             number,
           const char        *unit,
           const char        *path)
{
  TrackSpec spec = { kind, parent, g_strdup (name), number, g_strdup (unit), g_strdup (path) };

  g_mutex_lock (&self->pending_lock);
  g_array_append_val (self->pending_tracks, spec);
  g_mutex_unlock (&self->pending_lock);
  return self->n_local_tracks++;
}

static guint32
add_counter (PsProcfsCollector *self,
             guint32            parent,
             const char        *object_path,
             const char        *name,
             const char        *unit)
{
  g_autofree char *path = g_strdup_printf ("\\\\%s\\%s\\%s", self->machine_name, object_path, name);

  return add_track (self, PS_TRACK_COUNTER, parent, name, 0, unit, path);
}

/* A process's instance and counters, named after its command line */
static void
add_member_tracks (PsProcfsCollector *self,
                   Member            *member)
{
  guint n_before = GPOINTER_TO_UINT (g_hash_table_lookup (self->instance_names, member->command_line));
  g_autofree char *object_path = NULL;
  guint32 instance;

  g_hash_table_insert (self->instance_names, g_strdup (member->command_line), GUINT_TO_POINTER (n_before + 1));
  if (self->process_object == PS_NONE)
    self->process_object = add_track (self, PS_TRACK_OBJECT, self->machine_track, "Process", 0, NULL, NULL);
  instance = add_track (self, PS_TRACK_INSTANCE, self->process_object, member->command_line, n_before, NULL, NULL);
  object_path = n_before > 0 ? g_strdup_printf ("Process(%s#%u)", member->command_line, n_before)
                             : g_strdup_printf ("Process(%s)", member->command_line);
  member->tracks[PROCESS_CPU] = add_counter (self, instance, object_path, "% Processor Time", "%");
  member->tracks[PROCESS_RSS] = add_counter (self, instance, object_path, "Resident Set Size", "bytes");
  member->tracks[PROCESS_VSIZE] = add_counter (self, instance, object_path, "Virtual Bytes", "bytes");
  member->tracks[PROCESS_THREADS] = add_counter (self, instance, object_path, "Thread Count", NULL);
}

static void
add_tracks (PsProcfsCollector *self)
{
  self->machine_name = g_strdup (g_get_host_name ());
  self->machine_track = add_track (self, PS_TRACK_MACHINE, PS_NONE, self->machine_name, 0, NULL, NULL);

  for (guint i = 0; i < N_COUNTERS; i++)
    self->tracks[i] = PS_NONE;

  if (self->pid > 0 && self->follow_children)
    {
      guint32 object = add_track (self, PS_TRACK_OBJECT, self->machine_track, "Process Tree", 0, NULL, NULL);

      self->tracks[TREE_CPU] = add_counter (self, object, "Process Tree", "% Processor Time", "%");
      self->tracks[TREE_RSS] = add_counter (self, object, "Process Tree", "Resident Set Size", "bytes");
      self->tracks[TREE_PROCESSES] = add_counter (self, object, "Process Tree", "Process Count", NULL);
      self->tracks[TREE_THREADS] = add_counter (self, object, "Process Tree", "Thread Count", NULL);
    }

  if (self->sample_system)
    {
      guint32 object = add_track (self, PS_TRACK_OBJECT, self->machine_track, "System", 0, NULL, NULL);

      self->tracks[SYSTEM_CPU] = add_counter (self, object, "System", "% Processor Time", "%");
      self->tracks[SYSTEM_USED] = add_counter (self, object, "System", "Used Bytes", "bytes");
      self->tracks[SYSTEM_AVAILABLE] = add_counter (self, object, "System", "Available Bytes", "bytes");
    }
}

/* Sampling */

static void
add_reading (PsProcfsCollector *self,
             guint32            track,
             gint64             time_ns,
             double             value)
{
  PsCounterValue reading = { 0 };

  if (track == PS_NONE)
    return;
  reading.time_ns = time_ns;
  reading.track = track;
  reading.value = value;
  g_mutex_lock (&self->pending_lock);
  g_array_append_val (self->pending_values, reading);
  g_mutex_unlock (&self->pending_lock);
}

static void
member_free (gpointer data)
{
  Member *member = data;

  g_free (member->command_line);
  g_free (member);
}

static Member *
add_member (PsProcfsCollector *self,
            int                pid,
            const ProcessStat *stat,
            gboolean           counted,
            gint64             now_us)
{
  Member *member = g_new0 (Member, 1);
  gboolean kernel_thread, ended_target;

  member->pid = pid;
  member->ppid = stat->ppid;
  member->start_ticks = stat->start_ticks;
  g_strlcpy (member->comm, stat->comm, sizeof member->comm);
  member->command_line = read_command_line (pid);
  /* Born since the last reading, everything it used is new (base 0);
   * there at the start, its first reading is the base */
  member->counted = counted;
  /* A descendant whose command line cannot be read yet (in an exec,
   * between the switch to the new program's memory and the setting of
   * its arguments) or any more (ending: a zombie) has no series until it
   * can be named: "[comm]" would stand apart from the same program seen
   * running. So also at the first reading, which may find the command or
   * a child of it in its exec. A kernel thread (no memory, not a zombie)
   * and a recorded process that has ended are named "[comm]" at once. */
  kernel_thread = stat->vsize == 0 && stat->state != 'Z';
  ended_target = pid == self->pid && stat->state == 'Z';
  member->unnamed = member->command_line == NULL && !kernel_thread && !ended_target;
  member->unnamed_since = now_us;
  if (member->command_line == NULL)
    member->command_line = g_strdup_printf ("[%s]", stat->comm);
  if (member->unnamed)
    for (guint i = 0; i < N_PROCESS_COUNTERS; i++)
      member->tracks[i] = PS_NONE;
  else
    add_member_tracks (self, member);
  g_hash_table_insert (self->members, GINT_TO_POINTER (pid), member);
  return member;
}

typedef struct
{
  int         pid;
  ProcessStat stat;
} Found;

/* Lists /proc: processes whose parent is in the tree join it. A pid
 * outside is read once and remembered while it shows. */
static void
find_new_members (PsProcfsCollector *self,
                  gboolean           counted,
                  gint64             now_us)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Found));
  GHashTableIter iter;
  gpointer value;
  const char *entry;
  gboolean grew;

  if (dir == NULL)
    return;
  self->listing++;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      char *end = NULL;
      long pid = strtol (entry, &end, 10);
      Found process;

      if (end == entry || *end != '\0' || pid <= 0 || pid > G_MAXINT)
        continue;
      if (g_hash_table_contains (self->members, GINT_TO_POINTER (pid)))
        continue;
      if (g_hash_table_contains (self->outsiders, GINT_TO_POINTER (pid)))
        {
          g_hash_table_insert (self->outsiders, GINT_TO_POINTER (pid), GUINT_TO_POINTER (self->listing));
          continue;
        }
      process.pid = (int)pid;
      if (read_process_stat (process.pid, &process.stat))
        g_array_append_val (found, process);
    }

  /* A parent may be new too: until nothing joins */
  do
    {
      grew = FALSE;
      for (guint i = 0; i < found->len; i++)
        {
          Found *process = &g_array_index (found, Found, i);

          if (process->pid == 0 || !g_hash_table_contains (self->members, GINT_TO_POINTER (process->stat.ppid)))
            continue;
          add_member (self, process->pid, &process->stat, counted, now_us);
          process->pid = 0;
          grew = TRUE;
        }
    }
  while (grew);

  for (guint i = 0; i < found->len; i++)
    {
      Found *process = &g_array_index (found, Found, i);

      if (process->pid != 0)
        g_hash_table_insert (self->outsiders, GINT_TO_POINTER (process->pid), GUINT_TO_POINTER (self->listing));
    }
  /* A pid that went may come back as another process */
  g_hash_table_iter_init (&iter, self->outsiders);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (GPOINTER_TO_UINT (value) != self->listing)
      g_hash_table_iter_remove (&iter);
}

/* Whether the first of member's ancestors still read is in the tree: it
 * reaped member, and its cutime and cstime hold member's time now */
static gboolean
reaped_in_tree (PsProcfsCollector *self,
                const Member      *member)
{
  int ppid = member->ppid;

  for (guint depth = 0; depth < g_hash_table_size (self->members); depth++)
    {
      const Member *parent = g_hash_table_lookup (self->members, GINT_TO_POINTER (ppid));

      if (parent == NULL)
        return FALSE;
      if (parent->present)
        return TRUE;
      ppid = parent->ppid;
    }
  return FALSE;
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
sample_processes (PsProcfsCollector *self,
                  gint64             now_us,
                  gint64             time_ns)
{
  double wall_seconds = self->last_reading_us != 0 ? (double)(now_us - self->last_reading_us) / G_USEC_PER_SEC : 0;
  gint64 tree_ticks = 0;
  guint64 tree_rss = 0, tree_threads = 0, n_alive = 0;
  g_autoptr(GPtrArray) ended = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  if (self->follow_children)
    find_new_members (self, self->last_reading_us != 0, now_us);

  g_hash_table_iter_init (&iter, self->members);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Member *member = value;
      ProcessStat stat;
      gboolean zombie;
      guint64 total;

      member->present = read_process_stat (member->pid, &stat) && stat.start_ticks == member->start_ticks
                        && stat.state != 'X';
      if (!member->present)
        {
          g_ptr_array_add (ended, member);
          continue;
        }

      /* A new program in the process (exec), or a name not read yet: a
       * new instance from here. Without a command line (in the middle of
       * the exec, or ending) it is read again next time, or named
       * "[comm]" once it has waited long enough. */
      if ((member->unnamed || strcmp (stat.comm, member->comm) != 0) && stat.state != 'Z')
        {
          g_autofree char *command_line = read_command_line (member->pid);

          if (command_line == NULL && member->unnamed && now_us - member->unnamed_since >= NAME_WAIT_US)
            command_line = g_strdup_printf ("[%s]", stat.comm);
          if (command_line != NULL)
            {
              g_strlcpy (member->comm, stat.comm, sizeof member->comm);
              if (member->unnamed || strcmp (command_line, member->command_line) != 0)
                {
                  g_free (member->command_line);
                  member->command_line = g_steal_pointer (&command_line);
                  member->unnamed = FALSE;
                  add_member_tracks (self, member);
                }
            }
        }
      member->ppid = stat.ppid;

      total = stat.own_ticks + stat.children_ticks;
      if (member->counted)
        tree_ticks += (gint64)total - (gint64)member->total_ticks;
      if (wall_seconds > 0 && member->counted && !member->final)
        {
          double cpu_seconds = (double)(stat.own_ticks - MIN (member->own_ticks, stat.own_ticks)) / (double)self->clock_ticks;

          add_reading (self, member->tracks[PROCESS_CPU], time_ns, 100.0 * cpu_seconds / wall_seconds);
        }
      member->own_ticks = stat.own_ticks;
      member->total_ticks = total;
      member->counted = TRUE;

      /* A zombie has its final times and nothing else: its last reading */
      zombie = stat.state == 'Z';
      if (!zombie)
        {
          add_reading (self, member->tracks[PROCESS_RSS], time_ns, (double)(stat.rss_pages * (guint64)self->page_size));
          add_reading (self, member->tracks[PROCESS_VSIZE], time_ns, (double)stat.vsize);
          add_reading (self, member->tracks[PROCESS_THREADS], time_ns, (double)stat.threads);
          tree_rss += stat.rss_pages * (guint64)self->page_size;
          tree_threads += stat.threads;
          n_alive++;
        }
      else
        member->final = TRUE;
    }

  /* Ended processes: what a reaper in the tree took in is counted once.
   * A zombie stays until it is reaped, its parent counts it then. */
  for (guint i = 0; i < ended->len; i++)
    {
      Member *member = g_ptr_array_index (ended, i);

      if (member->counted && reaped_in_tree (self, member))
        tree_ticks -= (gint64)member->total_ticks;
    }
  for (guint i = 0; i < ended->len; i++)
    {
      Member *member = g_ptr_array_index (ended, i);

      g_hash_table_remove (self->members, GINT_TO_POINTER (member->pid));
    }

  if (self->tracks[TREE_CPU] != PS_NONE)
    {
      if (wall_seconds > 0)
        add_reading (self, self->tracks[TREE_CPU], time_ns,
                     100.0 * (double)MAX (tree_ticks, 0) / (double)self->clock_ticks / wall_seconds);
      add_reading (self, self->tracks[TREE_RSS], time_ns, (double)tree_rss);
      add_reading (self, self->tracks[TREE_PROCESSES], time_ns, (double)n_alive);
      add_reading (self, self->tracks[TREE_THREADS], time_ns, (double)tree_threads);
    }

  if (n_alive == 0 && !self->target_gone)
    {
      GSource *idle = g_idle_source_new ();

      self->target_gone = TRUE;
      /* Said on the next turn of the main loop: whoever stops the
       * recording then does not do so inside a reading. Above the
       * priority of drawing, which a busy machine keeps always pending,
       * so that the end is not put off for as long as the window draws */
      g_source_set_priority (idle, G_PRIORITY_DEFAULT);
      g_source_set_callback (idle, emit_target_exited, g_object_ref (self), g_object_unref);
      g_source_attach (idle, self->context);
      g_source_unref (idle);
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
        add_reading (self, self->tracks[SYSTEM_CPU], time_ns,
                     100.0 * (double)(busy - MIN (busy, self->system_busy)) / (double)(total - self->system_total));
      self->have_system_ticks = TRUE;
      self->system_busy = busy;
      self->system_total = total;
    }

  if (read_kb_fields ("/proc/meminfo", meminfo_keys, memory, G_N_ELEMENTS (memory)))
    {
      add_reading (self, self->tracks[SYSTEM_USED], time_ns, (double)(memory[0] - MIN (memory[0], memory[1])));
      add_reading (self, self->tracks[SYSTEM_AVAILABLE], time_ns, (double)memory[1]);
    }
}

/* Empty arrays for the tracks and readings to come */
static void
new_pending (PsProcfsCollector *self)
{
  self->pending_tracks = g_array_new (FALSE, FALSE, sizeof (TrackSpec));
  g_array_set_clear_func (self->pending_tracks, track_spec_clear);
  self->pending_values = g_array_new (FALSE, FALSE, sizeof (PsCounterValue));
}

/* On the main context: the tracks and readings taken so far go into
 * the store */
static void
drain (PsProcfsCollector *self)
{
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(GArray) values = NULL;

  g_mutex_lock (&self->pending_lock);
  tracks = g_steal_pointer (&self->pending_tracks);
  values = g_steal_pointer (&self->pending_values);
  new_pending (self);
  self->drain_scheduled = FALSE;
  g_mutex_unlock (&self->pending_lock);

  for (guint i = 0; i < tracks->len; i++)
    {
      const TrackSpec *spec = &g_array_index (tracks, TrackSpec, i);
      PsTrack track = { 0 };
      guint32 id;

      track.name = ps_event_store_intern (self->store, spec->name, -1);
      track.category = spec->path != NULL ? ps_event_store_intern (self->store, spec->path, -1) : 0;
      track.unit = spec->unit != NULL ? ps_event_store_intern (self->store, spec->unit, -1) : 0;
      track.parent = spec->parent != PS_NONE ? g_array_index (self->track_ids, guint32, spec->parent) : PS_NONE;
      track.session = self->session;
      track.number = spec->number;
      track.kind = spec->kind;
      id = ps_event_store_add_track (self->store, &track);
      g_array_append_val (self->track_ids, id);
    }
  for (guint i = 0; i < values->len; i++)
    {
      PsCounterValue *value = &g_array_index (values, PsCounterValue, i);

      value->track = g_array_index (self->track_ids, guint32, value->track);
      ps_store_builder_add_counter_value (self->builder, value);
    }
  if (ps_store_builder_flush (self->builder) > 0)
    ps_event_store_emit_appended (self->store);
}

static gboolean
drain_cb (gpointer user_data)
{
  PsProcfsCollector *self = user_data;

  /* Unless the recording was stopped in the meantime, which drained */
  if (self->store != NULL)
    drain (self);
  return G_SOURCE_REMOVE;
}

static void
sample (gpointer user_data,
        gint64   now_us)
{
  PsProcfsCollector *self = user_data;
  gint64 time_ns = (now_us - self->start_us) * 1000;
  gboolean schedule;

  if (self->pid > 0 && !self->target_gone)
    sample_processes (self, now_us, time_ns);
  if (self->sample_system)
    sample_system (self, time_ns);
  self->last_reading_us = now_us;

  /* The first reading, taken in start before the worker exists, is
   * drained by start itself; self->thread cannot tell it apart, as the
   * worker may read before g_thread_new () has returned */
  g_mutex_lock (&self->pending_lock);
  schedule = !self->drain_scheduled && self->worker_context != NULL;
  self->drain_scheduled = TRUE;
  g_mutex_unlock (&self->pending_lock);
  if (schedule)
    {
      GSource *idle = g_idle_source_new ();

      g_source_set_priority (idle, G_PRIORITY_HIGH);
      g_source_set_callback (idle, drain_cb, g_object_ref (self), g_object_unref);
      g_source_attach (idle, self->context);
      g_source_unref (idle);
    }
}

static gpointer
run_worker (gpointer user_data)
{
  PsProcfsCollector *self = user_data;

  g_main_context_push_thread_default (self->worker_context);
  g_main_loop_run (self->worker_loop);
  g_main_context_pop_thread_default (self->worker_context);
  return NULL;
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
  self->follow_children = ps_collector_parse_boolean (ps_collector_get_option (collector, table, "children"));
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

static gboolean
ps_procfs_collector_check_available (PsCollector  *collector,
                                     GError      **error)
{
  ProcessStat stat;

  if (!read_process_stat (getpid (), &stat))
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("procfs is not available: /proc cannot be read on this system"));
      return FALSE;
    }
  return TRUE;
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
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
      int output = dup (STDERR_FILENO);

      /* What the command prints goes with the recorder's messages, not
       * into what the recorder writes on its standard output */
      if (output >= 0)
        g_subprocess_launcher_take_stdout_fd (launcher, output);
      self->subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *)command, &error);
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
  self->page_size = sysconf (_SC_PAGESIZE);
  if (self->page_size <= 0)
    self->page_size = 4096;
  self->session = ps_event_store_add_session (store, 0, FALSE);
  self->start_us = g_get_monotonic_time ();
  self->last_reading_us = 0;
  self->target_gone = FALSE;
  self->process_object = PS_NONE;
  ps_event_store_set_format (store, "procfs");
  ps_event_store_set_session_origin (store, self->session, g_get_real_time () * 1000);
  interval_text = g_strdup_printf ("%u", self->interval_ms);
  ps_event_store_set_metadata (store, self->session, "collector", "procfs");
  ps_event_store_set_metadata (store, self->session, "interval_ms", interval_text);
  if (command != NULL)
    ps_event_store_set_metadata (store, self->session, "command", ps_collector_get_option (collector, table, "command"));
  if (self->pid > 0)
    {
      g_autofree char *pid_text = g_strdup_printf ("%d", self->pid);

      ps_event_store_set_metadata (store, self->session, "pid", pid_text);
      ps_event_store_set_metadata (store, self->session, "children", self->follow_children ? "true" : "false");
    }
  add_tracks (self);
  if (self->pid > 0)
    add_member (self, self->pid, &stat, FALSE, self->start_us);

  /* The first reading is the base of the first CPU figures */
  sample (self, self->start_us);
  drain (self);
  self->worker_context = g_main_context_new ();
  self->worker_loop = g_main_loop_new (self->worker_context, FALSE);
  self->clock = ps_collector_clock_new (&(PsCollectorRecording) { collector, store, self->session },
                                        self->interval_ms, self->start_us, self->worker_context, sample, self);
  ps_collector_clock_count_reading (self->clock, self->start_us);
  /* Named in 15 bytes at most, the kernel's limit (GLib drops a longer
   * name), so that top -H and the tests tell the thread */
  self->thread = g_thread_new ("perfscope-proc", run_worker, self);

  g_task_return_boolean (task, TRUE);
}

/* A launched command lives as long as its recording, with the processes
 * it started */
static void
end_launched_tree (PsProcfsCollector *self)
{
  GHashTableIter iter;
  gpointer value;

  if (self->subprocess == NULL)
    return;

  g_hash_table_iter_init (&iter, self->members);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Member *member = value;
      ProcessStat stat;

      /* Not another process that took the pid since */
      if (member->pid != self->pid && read_process_stat (member->pid, &stat)
          && stat.start_ticks == member->start_ticks)
        kill (member->pid, SIGKILL);
    }
  g_subprocess_force_exit (self->subprocess);
  g_clear_object (&self->subprocess);
}

static void
stop_collecting (PsProcfsCollector *self)
{
  if (self->thread != NULL)
    {
      g_main_loop_quit (self->worker_loop);
      g_clear_pointer (&self->thread, g_thread_join);
    }
  /* The readings taken, then what the clock achieved, while the store is
   * still there */
  if (self->store != NULL)
    drain (self);
  g_clear_pointer (&self->clock, ps_collector_clock_free);
  g_clear_pointer (&self->worker_loop, g_main_loop_unref);
  g_clear_pointer (&self->worker_context, g_main_context_unref);
  end_launched_tree (self);
  g_clear_pointer (&self->builder, ps_store_builder_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->machine_name, g_free);
  g_hash_table_remove_all (self->members);
  g_hash_table_remove_all (self->outsiders);
  g_hash_table_remove_all (self->instance_names);
  g_array_set_size (self->track_ids, 0);
  self->n_local_tracks = 0;
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

  /* The series end at the last reading the clock took: one taken now
   * would cover a sliver of an interval, too short for the kernel's
   * clock ticks to measure */
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
  iface->check_available = ps_procfs_collector_check_available;
}

static void
ps_procfs_collector_dispose (GObject *object)
{
  stop_collecting (PS_PROCFS_COLLECTOR (object));
  G_OBJECT_CLASS (ps_procfs_collector_parent_class)->dispose (object);
}

static void
ps_procfs_collector_finalize (GObject *object)
{
  PsProcfsCollector *self = PS_PROCFS_COLLECTOR (object);

  g_hash_table_unref (self->members);
  g_hash_table_unref (self->outsiders);
  g_hash_table_unref (self->instance_names);
  g_array_unref (self->pending_tracks);
  g_array_unref (self->pending_values);
  g_array_unref (self->track_ids);
  g_mutex_clear (&self->pending_lock);
  G_OBJECT_CLASS (ps_procfs_collector_parent_class)->finalize (object);
}

static void
ps_procfs_collector_class_init (PsProcfsCollectorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ps_procfs_collector_dispose;
  G_OBJECT_CLASS (klass)->finalize = ps_procfs_collector_finalize;
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
  self->process_object = PS_NONE;
  self->members = g_hash_table_new_full (NULL, NULL, NULL, member_free);
  self->outsiders = g_hash_table_new (NULL, NULL);
  self->instance_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_mutex_init (&self->pending_lock);
  new_pending (self);
  self->track_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* The GIO module */

PS_COLLECTOR_DEFINE_MODULE (ps_procfs_collector_register_type, PS_TYPE_PROCFS_COLLECTOR, "procfs")
