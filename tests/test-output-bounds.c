/* test-output-bounds.c — output in proportion to the input, whatever the nesting
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (every command and export target). Deep inputs of every
 * format that nests (RTL scopes, Visual Studio call-tree reports, pmcstat
 * -G callgraphs, hwpmc call chains), names of 100 kB repeated on every
 * call path (pmcstat -G, a saved run) or on every event (a saved run's
 * spans, marks and samples, a PDH counter's readings) and wide PDH
 * headers, read once or twice, are generated here, and every command and
 * export that writes a tree of them is run as a user would: what it
 * writes must stay within a fixed multiple of the input plus a constant,
 * and its peak memory (the child's getrusage) within a constant plus a
 * multiple of the input. What writes to the standard output holds the
 * run and no more of its output than it must (collapsed sorts its
 * lines). JSON is checked to be well formed and its indentation bounded
 * as docs/cli.md says, as it streams by, without holding it. Inputs that never end (/dev/zero, a
 * FIFO) must stop with an error, or be read to their end when they hold a
 * log.
 */
/* wait4 (), for the child's own peak memory */
#define _DEFAULT_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli-test-util.h"
#include "pmclog-writer.h"
#include "ps-event-store-private.h"
#include "ps-native-writer.h"
#include "ps-store-builder.h"
#include "ps-util.h"

/* docs/cli.md: JSON and the --text call tree indent at most 32 levels of
 * two spaces; --text rows are preceded by the table's two */
#define MAX_JSON_INDENT (2 * 32)
#define MAX_TEXT_INDENT (2 + 2 * 32)

/* A run that takes longer than this has hung */
#define RUN_TIMEOUT_MS (60 * 1000)

/* Peak memory allowed: this plus MEMORY_PER_INPUT_BYTE per byte of input,
 * what the store keeps of an item (a counter track, a call path) over the
 * least input it can come from (four bytes of a PDH header) */
#define MEMORY_BASE_BYTES (64 * 1024 * 1024)
#define MEMORY_PER_INPUT_BYTE 64

/* Peak memory at most limit, where it can be measured */
static void
assert_memory_within (const char *what,
                      guint64     peak,
                      guint64     limit)
{
  g_test_message ("%s: peak %" G_GUINT64_FORMAT " KiB, limit %" G_GUINT64_FORMAT " KiB",
                  what, peak / 1024, limit / 1024);
  if (MEASURES_MEMORY)
    g_assert_cmpuint (peak, <=, limit);
}

/* Output allowed besides the multiple of the input */
#define OUTPUT_CONSTANT_BYTES (64 * 1024)

/* The long names of the inputs that repeat one on every call path */
#define LONG_NAME_BYTES (100 * 1000)

/* Running the CLI -------------------------------------------------------- */

/* Well-formed JSON, checked a byte at a time */
typedef struct
{
  GByteArray *closers;      /* the brackets still open, innermost last */
  gboolean    in_string;
  gboolean    escape;
  gboolean    started;      /* the top-level value has begun */
  gboolean    ended;        /* and closed */
  gboolean    broken;
  guint64     broken_at;
  guint64     offset;
  guint       line_indent;  /* leading spaces of the current line so far */
  gboolean    line_start;   /* only spaces on the line so far */
  guint       max_indent;
} JsonCheck;

static void
json_check_init (JsonCheck *check)
{
  memset (check, 0, sizeof *check);
  check->closers = g_byte_array_new ();
  check->line_start = TRUE;
}

static void
json_check_clear (JsonCheck *check)
{
  g_byte_array_unref (check->closers);
}

static void
json_check_fail (JsonCheck *check)
{
  if (!check->broken)
    {
      check->broken = TRUE;
      check->broken_at = check->offset;
    }
}

static void
json_check_feed (JsonCheck  *check,
                 const char *data,
                 gsize       length)
{
  for (gsize i = 0; i < length; i++, check->offset++)
    {
      char c = data[i];

      if (c == '\n')
        {
          check->line_start = TRUE;
          check->line_indent = 0;
        }
      else if (check->line_start && c == ' ')
        {
          check->line_indent++;
          check->max_indent = MAX (check->max_indent, check->line_indent);
        }
      else
        check->line_start = FALSE;

      if (check->in_string)
        {
          if (check->escape)
            check->escape = FALSE;
          else if (c == '\\')
            check->escape = TRUE;
          else if (c == '"')
            check->in_string = FALSE;
          else if ((guchar) c < 0x20)
            json_check_fail (check);
          continue;
        }

      switch (c)
        {
        case '{':
        case '[':
          if (check->ended)
            json_check_fail (check);
          check->started = TRUE;
          g_byte_array_append (check->closers, (const guint8 *) (c == '{' ? "}" : "]"), 1);
          break;
        case '}':
        case ']':
          if (check->closers->len == 0 || check->closers->data[check->closers->len - 1] != (guint8) c)
            json_check_fail (check);
          else
            g_byte_array_set_size (check->closers, check->closers->len - 1);
          if (check->closers->len == 0)
            check->ended = TRUE;
          break;
        case '"':
          if (check->ended)
            json_check_fail (check);
          check->in_string = TRUE;
          break;
        case ' ': case '\n': case '\r': case '\t':
          break;
        default:
          /* Numbers, true, false, null and punctuation, inside the value */
          if (check->closers->len == 0 || strchr ("0123456789-+.eEtrufalsn,:", c) == NULL)
            json_check_fail (check);
          break;
        }
    }
}

static gboolean
json_check_ok (JsonCheck *check)
{
  return !check->broken && check->started && check->ended && !check->in_string;
}

typedef struct
{
  int      status;          /* exit status, or -1 when killed */
  guint64  out_bytes;
  GString *out_head;        /* the first 64 KiB of the standard output */
  GString *err;             /* the first 64 KiB of the standard error */
  guint64  max_rss_bytes;
  JsonCheck json;
  guint    max_text_indent; /* leading spaces of the longest-indented line */
  gint64   wall_us;
} Run;

#define KEPT_BYTES (64 * 1024)

static void
run_free (Run *run)
{
  g_string_free (run->out_head, TRUE);
  g_string_free (run->err, TRUE);
  json_check_clear (&run->json);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

/* Appends what fits of data to kept, up to KEPT_BYTES */
static void
keep (GString    *kept,
      const char *data,
      gsize       length)
{
  if (kept->len < KEPT_BYTES)
    g_string_append_len (kept, data, MIN (length, KEPT_BYTES - kept->len));
}

/* Runs perfscope-cli with args (NULL-terminated), reading its output as
 * it comes: counted and checked, never held whole */
static Run *
run_cli (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) command = g_string_new (NULL);
  const char *cli = g_getenv ("PERFSCOPE_CLI");
  Run *run = g_new0 (Run, 1);
  char buffer[64 * 1024];
  struct rusage usage;
  gint64 start = g_get_monotonic_time ();
  GPid pid;
  int out_fd, err_fd, wait_status;
  struct pollfd fds[2];

  g_assert_nonnull (cli);
  run->out_head = g_string_new (NULL);
  run->err = g_string_new (NULL);
  json_check_init (&run->json);

  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i] != NULL; i++)
    {
      g_ptr_array_add (argv, (char *) args[i]);
      g_string_append_printf (command, " %s", args[i]);
    }
  g_ptr_array_add (argv, NULL);

  g_spawn_async_with_pipes (NULL, (char **) argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &pid, NULL, &out_fd, &err_fd, &error);
  g_assert_no_error (error);

  fds[0].fd = out_fd;
  fds[1].fd = err_fd;
  while (fds[0].fd >= 0 || fds[1].fd >= 0)
    {
      int ready;

      fds[0].events = fds[1].events = POLLIN;
      ready = poll (fds, 2, 1000);
      if (ready < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (ready, >=, 0);
      if (g_get_monotonic_time () - start > RUN_TIMEOUT_MS * G_GINT64_CONSTANT (1000))
        {
          kill (pid, SIGKILL);
          g_test_message ("perfscope-cli%s did not end within %d s", command->str, RUN_TIMEOUT_MS / 1000);
          break;
        }
      for (guint f = 0; f < 2; f++)
        {
          gssize n;

          if (fds[f].fd < 0 || fds[f].revents == 0)
            continue;
          n = read (fds[f].fd, buffer, sizeof buffer);
          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            {
              close (fds[f].fd);
              fds[f].fd = -1;
              continue;
            }
          if (f == 0)
            {
              run->out_bytes += (guint64) n;
              keep (run->out_head, buffer, (gsize) n);
              json_check_feed (&run->json, buffer, (gsize) n);
            }
          else
            keep (run->err, buffer, (gsize) n);
        }
    }
  for (guint f = 0; f < 2; f++)
    if (fds[f].fd >= 0)
      close (fds[f].fd);

  while (wait4 (pid, &wait_status, 0, &usage) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  g_spawn_close_pid (pid);
  run->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  /* Kilobytes on Linux */
  run->max_rss_bytes = (guint64) usage.ru_maxrss * 1024;
  run->max_text_indent = run->json.max_indent;
  run->wall_us = g_get_monotonic_time () - start;

  g_test_message ("perfscope-cli%s: exit %d, %" G_GUINT64_FORMAT " bytes out, peak %" G_GUINT64_FORMAT
                  " KiB, %.2f s; stderr: %.300s",
                  command->str, run->status, run->out_bytes, run->max_rss_bytes / 1024,
                  run->wall_us / 1e6, run->err->str);
  return run;
}

/* Inputs ------------------------------------------------------------------- */

typedef enum
{
  INPUT_RTL,          /* scopes nested `depth` deep */
  INPUT_VS,           /* a call-tree report `depth` levels deep */
  INPUT_PMCSTAT,      /* pmcstat -G: one chain of callers `depth` deep */
  INPUT_HWPMC,        /* hwpmc call chains of `depth` frames, 8 distinct */
  INPUT_PDH_BLANK,    /* a PDH header of `depth` empty columns, and a row */
  INPUT_PDH_PATHS,    /* a PDH header of `depth` short counter paths, and a row */
  INPUT_PDH_HEADER,   /* the same header alone */
  INPUT_PDH_TWO_ROWS, /* the same header, and two rows a second apart */
  INPUT_PMCSTAT_LONG, /* pmcstat -G: a function of a long name and `depth` callers */
  INPUT_NATIVE_LONG,  /* a saved run: `depth` functions, each called by and
                       * calling one of a long name */
  INPUT_NATIVE_EVENTS, /* a saved run: `depth` spans, marks and samples
                        * named by one long name */
  INPUT_NATIVE_APP,   /* a saved CE run: `depth` descriptions of an app of
                       * a long name */
  INPUT_PDH_LONG,     /* a PDH log: a counter of a long path, `depth` rows */
} InputKind;

static void
save_run (PsEventStore *store,
          const char   *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_assert_true (ps_native_save (store, file, NULL, &error));
  g_assert_no_error (error);
}

/* A saved run of samples in which a function of a long name calls each of
 * `n_paths` functions and is called by each, at an address of its own
 * every time: every output that writes a name per call path, per stack or
 * per frame writes it n_paths times */
static void
write_native_long_names (const char *path,
                         guint       n_paths)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autofree char *long_name = g_strnfill (LONG_NAME_BYTES, 'L');
  PsTrack thread = { 0 };
  guint32 long_function, module, long_frame, long_stack, track;
  guint16 source;

  ps_event_store_add_session (store, 1, FALSE);
  thread.kind = PS_TRACK_THREAD;
  thread.parent = PS_NONE;
  thread.number = 1;
  track = ps_event_store_add_track (store, &thread);
  source = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "CLOCK.HARD", -1), 0);
  long_function = ps_event_store_intern (store, long_name, -1);
  module = ps_event_store_intern (store, "/bin/long", -1);
  long_frame = ps_event_store_intern_frame (store, long_function, module, 0x1000);
  long_stack = ps_event_store_intern_stack (store, 0, long_frame);

  for (guint i = 0; i < n_paths; i++)
    {
      char name[16];
      guint32 frame, stack;
      PsSample sample = { 2 * (gint64)i * 1000, 0, 0, 1, PS_SAMPLE_FLAG_NONE, source };

      g_snprintf (name, sizeof name, "c%u", i);
      frame = ps_event_store_intern_frame (store, ps_event_store_intern (store, name, -1), module,
                                           0x100000 + 16 * (guint64)i);
      sample.track = track;
      sample.stack = ps_event_store_intern_stack (store, long_stack, frame);
      ps_store_builder_add_sample (builder, &sample);

      stack = ps_event_store_intern_stack (store, 0, frame);
      frame = ps_event_store_intern_frame (store, long_function, module, 0x200000 + 16 * (guint64)i);
      sample.time_ns += 1000;
      sample.stack = ps_event_store_intern_stack (store, stack, frame);
      ps_store_builder_add_sample (builder, &sample);
    }
  ps_store_builder_flush (builder);

  save_run (store, path);
}

/* A saved run of n_events spans, each in the context of a long name and
 * named by it, n_events marks of that text in a scope of that name, and
 * n_events samples of a sample source of that name: every event writes
 * the name in the outputs that write events one by one */
static void
write_native_long_events (const char *path,
                          guint       n_events)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autofree char *long_name = g_strnfill (LONG_NAME_BYTES, 'L');
  PsTrack thread = { 0 };
  guint32 name, track, stack;
  guint16 source;

  ps_event_store_set_format (store, "rtl-logfile");
  ps_event_store_add_session (store, 1, FALSE);
  thread.kind = PS_TRACK_THREAD;
  thread.parent = PS_NONE;
  thread.number = 1;
  track = ps_event_store_add_track (store, &thread);
  name = ps_event_store_intern (store, long_name, -1);
  source = ps_event_store_add_sample_source (store, name, 0);
  stack = ps_event_store_intern_stack (store, 0,
                                       ps_event_store_intern_frame (store, ps_event_store_intern (store, "f", -1),
                                                                    0, 0x1000));
  for (guint i = 0; i < n_events; i++)
    {
      PsSpan span = { 0 };
      PsMark mark = { 0 };
      PsSample sample = { 0 };
      guint64 index;

      span.begin_ns = (gint64)i * 1000;
      span.end_ns = span.begin_ns + 500;
      span.track = track;
      span.name = name;
      span.parent = PS_NONE;
      index = ps_store_builder_add_span (builder, &span);
      ps_store_builder_set_span_context (builder, index, name);
      mark.time_ns = span.begin_ns + 600;
      mark.track = track;
      mark.text = name;
      mark.name = name;
      mark.span = PS_NONE;
      ps_store_builder_add_mark (builder, &mark);
      sample.time_ns = span.begin_ns + 700;
      sample.track = track;
      sample.stack = stack;
      sample.weight = 1;
      sample.source = source;
      ps_store_builder_add_sample (builder, &sample);
    }
  ps_store_builder_flush (builder);

  save_run (store, path);
}

/* A saved CE run of n_descriptions descriptions of one app of a long
 * name, each measured once: every table of descriptions names the app on
 * each row */
static void
write_native_long_app (const char *path,
                       guint       n_descriptions)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autofree char *long_name = g_strnfill (LONG_NAME_BYTES, 'A');
  guint32 session, app;

  ps_event_store_set_format (store, "ce-perflog");
  session = ps_event_store_add_session (store, 1, FALSE);
  ps_event_store_add_tick_rate (store, session, 0, 1193180);
  app = ps_event_store_intern (store, long_name, -1);
  for (guint i = 0; i < n_descriptions; i++)
    {
      PsTrack track = { 0 };
      PsMeasurement measurement = { 0 };
      char name[64];

      g_snprintf (name, sizeof name, "Test=T%u,time=%%AVG%%", i);
      track.kind = PS_TRACK_MARKER_INSTANCE;
      track.name = ps_event_store_intern (store, name, -1);
      track.category = app;
      track.parent = PS_NONE;
      track.session = session;
      track.ordinal = i;
      measurement.track = ps_event_store_add_track (store, &track);
      measurement.line = i + 1;
      measurement.kind = PS_MEASURE_DURATION;
      measurement.value.ticks = 1000 + i;
      _ps_event_store_append_measurements (store, &measurement, 1);
    }

  save_run (store, path);
}

static char *
write_input (const char *dir,
             InputKind   kind,
             guint       depth)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  char *path = NULL;

  switch (kind)
    {
    case INPUT_RTL:
      /* Each scope ends a millisecond after the one inside it */
      for (guint i = 0; i < depth; i++)
        g_string_append_printf (text, "%06u 1 { f\n", i);
      for (guint i = depth; i > 0; i--)
        g_string_append_printf (text, "%06u 1 } f\n", 2 * depth - i + 1);
      path = g_build_filename (dir, "deep_4711.log", NULL);
      break;

    case INPUT_VS:
      g_string_append (text, "Level,Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,\n");
      for (guint level = 0; level < depth; level++)
        g_string_append_printf (text, "%u,\"f\",1,%u,1,\n", level, depth - level);
      path = g_build_filename (dir, "deep_cc.csv", NULL);
      break;

    case INPUT_PMCSTAT:
      /* hwpmc-pmclog.md §8.4 item 3: a node at depth d is d spaces, its
       * share, " [count] " in twelve characters and d spaces again before
       * its name */
      g_string_append (text, "@ CLOCK.HARD [1 samples]\n\n");
      for (guint d = 0; d < depth; d++)
        {
          for (guint i = 0; i < d; i++)
            g_string_append_c (text, ' ');
          g_string_append (text, "100.0%  [1]       ");
          for (guint i = 0; i < d; i++)
            g_string_append_c (text, ' ');
          g_string_append_printf (text, d == 0 ? "f%u @ /bin/deep\n" : "f%u\n", d);
        }
      g_string_append_c (text, '\n');
      path = g_build_filename (dir, "deep.txt", NULL);
      break;

    case INPUT_PDH_BLANK:
    case INPUT_PDH_PATHS:
    case INPUT_PDH_TWO_ROWS:
    case INPUT_PDH_HEADER:
      g_string_append (text, "\"(PDH-CSV 4.0) (UTC)(0)\"");
      for (guint i = 0; i < depth; i++)
        if (kind == INPUT_PDH_BLANK)
          g_string_append_c (text, ',');
        else
          g_string_append_printf (text, ",a\\%u", i);
      /* A reading of each: what the store keeps of a counter's readings
       * grows with them, from the first on */
      if (kind != INPUT_PDH_HEADER)
        {
          g_string_append (text, "\n\"01/01/2024 00:00:00.000\"");
          for (guint i = 0; i < depth; i++)
            g_string_append (text, ",1");
        }
      /* The second reading lands a thousand buckets of the counter's
       * overview after the first */
      if (kind == INPUT_PDH_TWO_ROWS)
        {
          g_string_append (text, "\n\"01/01/2024 00:00:01.000\"");
          for (guint i = 0; i < depth; i++)
            g_string_append (text, ",2");
        }
      g_string_append_c (text, '\n');
      path = g_build_filename (dir, "wide.csv", NULL);
      break;

    case INPUT_PMCSTAT_LONG:
      /* The sampled function of a long name and its callers
       * (hwpmc-pmclog.md §8.4), each a line of about 25 bytes */
      g_string_append_printf (text, "@ CLOCK.HARD [%u samples]\n\n100.0%%  [%u]    ", depth, depth);
      for (guint i = 0; i < LONG_NAME_BYTES; i++)
        g_string_append_c (text, 'L');
      g_string_append (text, " @ /bin/long\n");
      for (guint i = 0; i < depth; i++)
        g_string_append_printf (text, " 00.01%%  [1]        c%u\n", i);
      g_string_append_c (text, '\n');
      path = g_build_filename (dir, "long.txt", NULL);
      break;

    case INPUT_NATIVE_LONG:
      path = g_build_filename (dir, "long.perfscope", NULL);
      write_native_long_names (path, depth);
      return path;

    case INPUT_NATIVE_EVENTS:
      path = g_build_filename (dir, "events.perfscope", NULL);
      write_native_long_events (path, depth);
      return path;

    case INPUT_NATIVE_APP:
      path = g_build_filename (dir, "app.perfscope", NULL);
      write_native_long_app (path, depth);
      return path;

    case INPUT_PDH_LONG:
      /* A row of about 35 bytes per reading */
      g_string_append (text, "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\host\\");
      for (guint i = 0; i < LONG_NAME_BYTES; i++)
        g_string_append_c (text, 'P');
      g_string_append (text, "\\counter\"\n");
      for (guint i = 0; i < depth; i++)
        g_string_append_printf (text, "\"01/01/2024 %02u:%02u:%02u.000\",\"%u\"\n", i / 3600, i / 60 % 60, i % 60, i);
      path = g_build_filename (dir, "long.csv", NULL);
      break;

    case INPUT_HWPMC:
    default:
      {
        PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000);
        g_autofree guint64 *pcs = g_new (guint64, depth);
        g_autoptr(GBytes) bytes = NULL;

        ps_pmclog_writer_initialize (writer, 1000, 0x80, 1000000000, 1700000000, 0, "GenuineIntel-6-55-4");
        ps_pmclog_writer_pmcallocatedyn (writer, 1000, 0x100, 0x1000, 0x80, 0, "CLOCK.HARD");
        ps_pmclog_writer_map_in (writer, 1000, 7, 0x400000, "/bin/deep");
        for (guint sample = 0; sample < 8; sample++)
          {
            for (guint f = 0; f < depth; f++)
              pcs[f] = 0x400000 + 16 * (guint64) (f + sample);
            ps_pmclog_writer_callchain (writer, 2000 + sample, 7, 700, 0x100, 1, pcs, depth);
          }
        bytes = ps_pmclog_writer_free_to_bytes (writer);
        g_string_append_len (text, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes));
        path = g_build_filename (dir, "deep.pmclog", NULL);
      }
      break;
    }

  g_file_set_contents (path, text->str, (gssize) text->len, &error);
  g_assert_no_error (error);
  return path;
}

/* Commands ----------------------------------------------------------------- */

typedef enum
{
  CHECK_NONE = 0,
  CHECK_JSON = 1 << 0,           /* well-formed JSON when it exits with 0 */
  CHECK_JSON_INDENT = 1 << 1,    /* indented no deeper than MAX_JSON_INDENT */
  CHECK_TEXT_INDENT = 1 << 2,    /* indented no deeper than MAX_TEXT_INDENT */
} Checks;

typedef struct
{
  const char *name;
  const char *args[8];   /* "@" stands for the input */
  guint       k;         /* output ≤ k × input + OUTPUT_CONSTANT_BYTES */
  Checks      checks;
} Command;

/* k is what the target writes per node of a tree, over the least input
 * a node can come from: 8 bytes, one address of an hwpmc call chain */
static const Command commands[] = {
  { "calltree", { "calltree", "@" }, 128, CHECK_JSON | CHECK_JSON_INDENT },
  { "calltree-text", { "calltree", "--text", "@" }, 48, CHECK_TEXT_INDENT },
  { "info", { "info", "@" }, 2, CHECK_JSON },
  { "stats", { "stats", "@" }, 2, CHECK_JSON },
  { "stats-text", { "stats", "--text", "@" }, 2, CHECK_NONE },
  { "speedscope", { "export", "@", "--to", "speedscope" }, 16, CHECK_JSON },
  { "chrome-trace", { "export", "@", "--to", "chrome-trace" }, 16, CHECK_JSON },
  { "csv", { "export", "@", "--to", "csv" }, 8, CHECK_NONE },
  { "csv-tree", { "export", "@", "--to", "csv", "--tree" }, 16, CHECK_NONE },
  { "collapsed", { "export", "@", "--to", "collapsed" }, 8, CHECK_NONE },
  { "pmcstat-callgraph", { "export", "@", "--to", "pmcstat-callgraph" }, 8, CHECK_NONE },
  /* Indented by depth, as pmcstat -G is: cut at 512 levels */
  { "pmcstat-callgraph-deep", { "export", "@", "--to", "pmcstat-callgraph", "--depth", "1000000" }, 80, CHECK_NONE },
  { "markdown", { "export", "@", "--to", "markdown" }, 2, CHECK_NONE },
  { "html", { "export", "@", "--to", "html" }, 2, CHECK_NONE },
  { "diff", { "diff", "@", "@" }, 64, CHECK_JSON },
  { "diff-csv", { "diff", "@", "@", "--to", "csv" }, 64, CHECK_NONE },
  { "diff-markdown", { "diff", "@", "@", "--to", "markdown" }, 2, CHECK_NONE },
  /* A JSON object of about 300 bytes per counter, from 4 bytes of header */
  { "counters", { "counters", "@" }, 128, CHECK_JSON },
  { "counters-text", { "counters", "--text", "@" }, 128, CHECK_NONE },
  { "csv-points", { "export", "@", "--to", "csv", "--points" }, 16, CHECK_NONE },
};

/* The commands of trees, and those of counters */
#define TREE_COMMANDS "calltree calltree-text info stats stats-text speedscope chrome-trace csv csv-tree " \
                      "collapsed pmcstat-callgraph pmcstat-callgraph-deep markdown html diff diff-csv diff-markdown"
#define COUNTER_COMMANDS "info counters counters-text csv csv-points chrome-trace markdown html"

typedef struct
{
  InputKind   kind;
  const char *name;
  guint       depth;
  const char *commands;  /* the names of the commands run, space-separated */
  guint       min_k;     /* k of every command is at least this */
} Input;

/* A name repeated on every call path is cut after 1024 bytes, and "…"
 * follows (docs/cli.md): 1027 bytes and what goes with them per caller
 * line of pmcstat -G (about 25 bytes) or per call path of the saved run
 * (about 60 bytes: a frame, a stack node and a sample, with its name) */
#define LONG_NAME_K 64

/* Ten thousand levels for every command; the deeper ones for those a
 * deep tree costs most, as long as they take well under a second */
static const Input inputs[] = {
  { INPUT_RTL, "rtl", 10000, TREE_COMMANDS, 0 },
  { INPUT_RTL, "rtl", 100000, "calltree speedscope", 0 },
  { INPUT_RTL, "rtl", 1000000, "stats", 0 },
  { INPUT_VS, "vs-report", 10000, TREE_COMMANDS, 0 },
  { INPUT_VS, "vs-report", 100000, "speedscope", 0 },
  { INPUT_PMCSTAT, "pmcstat", 2000, TREE_COMMANDS, 0 },
  { INPUT_HWPMC, "hwpmc", 4000, TREE_COMMANDS, 0 },
  { INPUT_PMCSTAT_LONG, "pmcstat-long-name", 10000, TREE_COMMANDS, LONG_NAME_K },
  { INPUT_NATIVE_LONG, "saved-long-name", 10000, TREE_COMMANDS, LONG_NAME_K },
  /* A name written on every event, or a description's row, is cut too:
   * two cut names (a span's and its context, a mark's text and scope)
   * of about 2 KiB for a span and a mark, 72 bytes, and one for a
   * sample of 24 bytes */
  { INPUT_NATIVE_EVENTS, "saved-long-events", 10000, TREE_COMMANDS, LONG_NAME_K },
  { INPUT_PDH_LONG, "pdh-long-path", 10000, COUNTER_COMMANDS, LONG_NAME_K },
  { INPUT_PDH_BLANK, "pdh-blank", 4000000, COUNTER_COMMANDS " diff", 0 },
  { INPUT_PDH_PATHS, "pdh-paths", 100000, COUNTER_COMMANDS, 0 },
  /* diff holds about 800 bytes per counter besides the two runs, its rows
   * of both, 80 times a short path and its reading: at 100 000 counters
   * that is within 2 % of the limit */
  { INPUT_PDH_PATHS, "pdh-paths", 50000, "diff", 0 },
  /* Two readings of 2 bytes each per counter: a chrome-trace C event
   * of about 120 bytes for each */
  { INPUT_PDH_TWO_ROWS, "pdh-two-rows", 100000, "info counters counters-text csv csv-points markdown html", 0 },
  { INPUT_PDH_TWO_ROWS, "pdh-two-rows", 100000, "chrome-trace", 32 },
};

typedef struct
{
  const Input   *input;
  const Command *command;
} Case;

static void
test_case (gconstpointer data)
{
  const Case *test = data;
  g_autofree char *dir = g_dir_make_tmp ("perfscope-bounds-XXXXXX", NULL);
  g_autofree char *path = write_input (dir, test->input->kind, test->input->depth);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(Run) run = NULL;
  GStatBuf info;
  guint64 input_bytes, limit;

  g_assert_cmpint (g_stat (path, &info), ==, 0);

  /* A command reads the input as often as it is named (diff: twice) */
  g_ptr_array_add (args, (char *) "--quiet");
  input_bytes = 0;
  for (guint i = 0; test->command->args[i] != NULL; i++)
    if (strcmp (test->command->args[i], "@") == 0)
      {
        g_ptr_array_add (args, path);
        input_bytes += (guint64) info.st_size;
      }
    else
      g_ptr_array_add (args, (char *) test->command->args[i]);
  g_ptr_array_add (args, NULL);
  run = run_cli ((const char * const *) args->pdata);

  /* Written whole (0), or nothing the target holds (1): never killed,
   * and no sanitizer found anything (whose exit status is 1 too) */
  g_assert_cmpint (run->status, >=, 0);
  g_assert_cmpint (run->status, <=, 1);
  g_assert_null (strstr (run->err->str, "Sanitizer"));
  g_assert_null (strstr (run->err->str, "runtime error"));

  limit = MAX (test->command->k, test->input->min_k) * input_bytes + OUTPUT_CONSTANT_BYTES;
  g_test_message ("%" G_GUINT64_FORMAT " bytes in, %" G_GUINT64_FORMAT " out (%.2f times), limit %" G_GUINT64_FORMAT,
                  input_bytes, run->out_bytes, (double) run->out_bytes / (double) input_bytes, limit);
  g_assert_cmpuint (run->out_bytes, <=, limit);
  assert_memory_within (test->command->name, run->max_rss_bytes, MEMORY_BASE_BYTES + MEMORY_PER_INPUT_BYTE * input_bytes);

  if (run->status == 0 && (test->command->checks & CHECK_JSON))
    {
      if (!json_check_ok (&run->json))
        g_test_message ("JSON broken at byte %" G_GUINT64_FORMAT, run->json.broken_at);
      g_assert_true (json_check_ok (&run->json));
    }
  if (run->status == 0 && (test->command->checks & CHECK_JSON_INDENT))
    g_assert_cmpuint (run->max_text_indent, <=, MAX_JSON_INDENT);
  if (run->status == 0 && (test->command->checks & CHECK_TEXT_INDENT))
    {
      g_assert_cmpuint (run->max_text_indent, <=, MAX_TEXT_INDENT);
      /* The rows below the indentation's end name their depth */
      if (test->input->kind == INPUT_RTL || test->input->kind == INPUT_VS)
        g_assert_nonnull (strstr (run->out_head->str, "\n" "                                                                  [34] f "));
    }

  g_remove (path);
  g_rmdir (dir);
}

/* Long names -------------------------------------------------------------- */

/* The cut itself: at most 1024 bytes, at a character boundary, "…" after;
 * what is not UTF-8 shown as Latin-1 */
static void
test_name_cut (void)
{
  g_autofree char *kept = g_strnfill (1024, 'a');
  g_autofree char *kept_cut = g_strconcat (kept, "…", NULL);
  g_autofree char *just_over = g_strnfill (1025, 'a');
  g_autofree char *long_name = g_strnfill (LONG_NAME_BYTES, 'a');
  struct
  {
    const char *what;
    const char *name;
    const char *expected;
  } cases[] = {
    { "1024 bytes, whole", kept, kept },
    { "1025 bytes", just_over, kept_cut },
    { "a long one", long_name, kept_cut },
    { "empty", "", "" },
  };
  g_autoptr(GString) euros = g_string_new (NULL);
  g_autoptr(GString) split = g_string_new (NULL);
  g_autoptr(GString) latin1 = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new ("before ");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) cut = g_string_new (NULL);

      ps_util_append_cut_name (cut, cases[i].name);
      g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", cases[i].what, cut->len);
      g_assert_cmpstr (cut->str, ==, cases[i].expected);
    }

  /* "€" is 3 bytes: 341 of them are 1023; appended to what out holds */
  for (guint i = 0; i < 400; i++)
    g_string_append (euros, "€");
  ps_util_append_cut_name (out, euros->str);
  g_assert_true (g_str_has_prefix (out->str, "before €"));
  g_assert_cmpuint (out->len, ==, strlen ("before ") + 341 * 3 + strlen ("…"));
  g_assert_true (g_utf8_validate (out->str, -1, NULL));
  g_assert_true (g_str_has_suffix (out->str, "€€…"));

  /* A two-byte character across byte 1024 is left out whole */
  for (guint i = 0; i < 1023; i++)
    g_string_append_c (split, 'a');
  g_string_append (split, "ééé");
  g_string_truncate (out, 0);
  ps_util_append_cut_name (out, split->str);
  g_assert_cmpuint (out->len, ==, 1023 + strlen ("…"));
  g_assert_true (g_str_has_suffix (out->str, "a…"));

  /* Latin-1 bytes: shown as their characters, two bytes each */
  for (guint i = 0; i < 2000; i++)
    g_string_append_c (latin1, (char)0xE9);
  g_string_truncate (out, 0);
  ps_util_append_cut_name (out, latin1->str);
  g_assert_true (g_utf8_validate (out->str, -1, NULL));
  g_assert_cmpuint (out->len, ==, 512 * 2 + strlen ("…"));
  g_assert_true (g_str_has_prefix (out->str, "ééé"));
  g_assert_true (g_str_has_suffix (out->str, "é…"));
}

static guint
count_occurrences (const char *text,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* Every output that writes a name once per call path, stack or frame
 * writes a long one cut; the function summary keeps it whole */
static void
test_long_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-bounds-XXXXXX", NULL);
  g_autofree char *saved = write_input (dir, INPUT_NATIVE_LONG, 3);
  g_autofree char *whole = g_strnfill (LONG_NAME_BYTES, 'L');
  g_autofree char *longest_kept = g_strnfill (1024, 'L');
  g_autofree char *cut = g_strconcat (longest_kept, "…", NULL);
  g_autofree char *past_cut = g_strnfill (1025, 'L');
  struct
  {
    const char *args[6];
    guint       n_cut;   /* the name cut, this many times */
    guint       n_whole; /* and whole, in a list of functions */
  } cases[] = {
    /* LONG;c0 … LONG;c2 and c0;LONG … c2;LONG */
    { { "export", "--to", "collapsed", NULL }, 6, 0 },
    /* LONG under each of c0 … c2, and as a root at each of its three
     * sampled addresses, c0 … c2 under them */
    { { "export", "--to", "pmcstat-callgraph", NULL }, 6, 0 },
    /* As a node under each c, and above them; whole in the functions */
    { { "calltree", "--text", NULL }, 4, 1 },
    { { "export", "--to", "csv", "--tree", NULL }, 4, 0 },
    /* The function summary */
    { { "export", "--to", "csv", NULL }, 0, 1 },
    /* A frame for each address: one as caller, three as callees */
    { { "export", "--to", "speedscope", NULL }, 4, 0 },
    /* A stack node for each */
    { { "export", "--to", "chrome-trace", NULL }, 4, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[8] = { "--quiet", NULL };
      g_autoptr(CliResult) result = NULL;
      guint n = 1;

      for (guint a = 0; cases[i].args[a] != NULL; a++)
        args[n++] = cases[i].args[a];
      args[n] = saved;
      result = cli_test_run_argv (args);
      {
        g_autofree char *command = g_strjoinv (" ", (char **)cases[i].args);

        g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", command, strlen (result->out));
      }
      g_assert_cmpint (result->status, ==, 0);
      g_assert_cmpuint (count_occurrences (result->out, cut), ==, cases[i].n_cut);
      g_assert_cmpuint (count_occurrences (result->out, whole), ==, cases[i].n_whole);
      if (cases[i].n_whole == 0)
        g_assert_null (strstr (result->out, past_cut));
    }

  /* calltree JSON: whole in the functions, cut in the tree */
  {
    g_autoptr(CliResult) result = cli_test_run ("--quiet", "calltree", saved, NULL);
    g_autoptr(JsonNode) root = NULL;
    JsonObject *object;
    JsonArray *functions, *children;
    guint n_whole = 0;

    g_assert_cmpint (result->status, ==, 0);
    root = cli_test_parse_json (result->out);
    object = json_node_get_object (root);
    functions = json_object_get_array_member (object, "functions");
    for (guint f = 0; f < json_array_get_length (functions); f++)
      if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (functions, f), "name"), whole) == 0)
        n_whole++;
    g_assert_cmpuint (n_whole, ==, 1);
    children = json_object_get_array_member (json_object_get_object_member (object, "tree"), "children");
    g_assert_cmpuint (json_array_get_length (children), ==, 4);
    for (guint c = 0; c < json_array_get_length (children); c++)
      {
        JsonObject *child = json_array_get_object_element (children, c);
        const char *name = json_object_get_string_member (child, "name");
        JsonArray *grandchildren = json_object_get_array_member (child, "children");

        if (g_str_has_prefix (name, "L"))
          {
            g_assert_cmpstr (name, ==, cut);
            continue;
          }
        g_assert_true (g_str_has_prefix (name, "c"));
        g_assert_cmpuint (json_array_get_length (grandchildren), ==, 1);
        g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (grandchildren, 0), "name"), ==, cut);
      }
    g_assert_cmpuint (count_occurrences (result->out, cut), ==, 4);
  }

  g_remove (saved);
  g_rmdir (dir);
}

/* text cut as docs/cli.md says */
static char *
cut_name (const char *text)
{
  GString *cut = g_string_new (NULL);

  ps_util_append_cut_name (cut, text);
  return g_string_free (cut, FALSE);
}

static CliResult *
run_ok (const char * const *args)
{
  const char *all[10] = { "--quiet", NULL };
  CliResult *result;
  guint n = 1;

  for (guint a = 0; args[a] != NULL && n < G_N_ELEMENTS (all) - 1; a++)
    all[n++] = args[a];
  result = cli_test_run_argv (all);
  g_assert_cmpint (result->status, ==, 0);
  return result;
}

/* The members of the trace's events of phase ph, with the sample
 * events as phase "sample" */
static GPtrArray *
trace_events (JsonObject *trace,
              const char *ph)
{
  GPtrArray *events = g_ptr_array_new ();
  JsonArray *array;

  if (strcmp (ph, "sample") == 0)
    array = json_object_get_array_member (trace, "samples");
  else
    array = json_object_get_array_member (trace, "traceEvents");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *event = json_array_get_object_element (array, i);

      if (strcmp (ph, "sample") == 0 || g_strcmp0 (json_object_get_string_member_with_default (event, "ph", ""), ph) == 0)
        g_ptr_array_add (events, event);
    }
  return events;
}

/* Every output that writes a name on each event writes it cut: the
 * spans, marks and samples of chrome-trace with their contexts and
 * scopes, its counter readings, the rows of csv --points; and so do the
 * rows of descriptions, for the app each names. A counter's row of
 * statistics names it whole. */
static void
test_long_event_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-bounds-XXXXXX", NULL);
  g_autofree char *events = write_input (dir, INPUT_NATIVE_EVENTS, 3);
  g_autofree char *app = write_input (dir, INPUT_NATIVE_APP, 3);
  g_autofree char *pdh = write_input (dir, INPUT_PDH_LONG, 3);
  g_autofree char *long_l = g_strnfill (LONG_NAME_BYTES, 'L');
  g_autofree char *long_a = g_strnfill (LONG_NAME_BYTES, 'A');
  g_autofree char *long_p = g_strnfill (LONG_NAME_BYTES, 'P');
  g_autofree char *cut_l = cut_name (long_l);
  g_autofree char *cut_a = cut_name (long_a);
  g_autofree char *cut_p = cut_name (long_p);
  g_autofree char *past_cut_l = g_strnfill (PS_UTIL_NAME_MAX_BYTES + 1, 'L');
  g_autofree char *past_cut_a = g_strnfill (PS_UTIL_NAME_MAX_BYTES + 1, 'A');
  g_autofree char *past_cut_p = g_strnfill (PS_UTIL_NAME_MAX_BYTES + 1, 'P');
  g_autofree char *title = g_strconcat ("counter — ", long_p, NULL);
  g_autofree char *cut_title = cut_name (title);

  /* Spans with their contexts, marks with their scopes, samples */
  {
    const char *args[] = { "export", events, "--to", "chrome-trace", NULL };
    g_autoptr(CliResult) result = run_ok (args);
    g_autoptr(JsonNode) root = cli_test_parse_json (result->out);
    JsonObject *trace = json_node_get_object (root);
    g_autoptr(GPtrArray) spans = trace_events (trace, "X");
    g_autoptr(GPtrArray) marks = trace_events (trace, "i");
    g_autoptr(GPtrArray) samples = trace_events (trace, "sample");

    g_assert_cmpuint (spans->len, ==, 3);
    g_assert_cmpuint (marks->len, ==, 3);
    g_assert_cmpuint (samples->len, ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        JsonObject *span = g_ptr_array_index (spans, i);
        JsonObject *mark = g_ptr_array_index (marks, i);

        g_assert_cmpstr (json_object_get_string_member (span, "name"), ==, cut_l);
        g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (span, "args"), "context"), ==, cut_l);
        g_assert_cmpstr (json_object_get_string_member (mark, "name"), ==, cut_l);
        g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (mark, "args"), "scope"), ==, cut_l);
        g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (samples, i), "name"), ==, cut_l);
      }
    g_assert_null (strstr (result->out, past_cut_l));
  }

  /* Counter readings: on the trace, with the counter's title; a row
   * each with its path in csv --points; the path whole in the row of
   * statistics */
  {
    const char *trace_args[] = { "export", pdh, "--to", "chrome-trace", NULL };
    const char *points_args[] = { "export", pdh, "--to", "csv", "--points", NULL };
    const char *stats_args[] = { "export", pdh, "--to", "csv", NULL };
    g_autoptr(CliResult) trace_result = run_ok (trace_args);
    g_autoptr(CliResult) points = run_ok (points_args);
    g_autoptr(CliResult) stats = run_ok (stats_args);
    g_autoptr(JsonNode) root = cli_test_parse_json (trace_result->out);
    g_autoptr(GPtrArray) readings = trace_events (json_node_get_object (root), "C");

    g_assert_cmpuint (readings->len, ==, 3);
    for (guint i = 0; i < readings->len; i++)
      {
        JsonObject *reading = g_ptr_array_index (readings, i);

        g_assert_cmpstr (json_object_get_string_member (reading, "name"), ==, cut_title);
        /* The only counter of its title */
        g_assert_false (json_object_has_member (reading, "id"));
      }
    g_assert_null (strstr (trace_result->out, past_cut_p));
    g_assert_cmpuint (count_occurrences (points->out, cut_p), ==, 3);
    g_assert_null (strstr (points->out, past_cut_p));
    g_assert_cmpuint (count_occurrences (stats->out, long_p), ==, 1);
  }

  /* The app of each description */
  {
    const char *commands[][6] = {
      { "stats", app, NULL },
      { "stats", "--text", app, NULL },
      { "stats", "--group-by-name", app, NULL },
      { "export", app, "--to", "csv", NULL },
      { "export", app, "--to", "csv", "--group-by-name", NULL },
    };

    for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
      {
        g_autoptr(CliResult) result = run_ok (commands[c]);

        g_test_message ("%s %s: %" G_GSIZE_FORMAT " bytes", commands[c][0], commands[c][1], strlen (result->out));
        g_assert_cmpuint (count_occurrences (result->out, cut_a), ==, 3);
        g_assert_null (strstr (result->out, past_cut_a));
      }
  }

  g_remove (events);
  g_remove (app);
  g_remove (pdh);
  g_rmdir (dir);
}

/* Counters whose titles are the same once cut stay two counters on the
 * trace: viewers draw one per name, and each of these has an "id" of its
 * own, the name and id together naming it (Trace Event Format); a
 * counter that alone has its title has no id */
static void
test_counter_ids (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-bounds-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "twins.csv", NULL);
  g_autofree char *prefix = g_strnfill (2 * PS_UTIL_NAME_MAX_BYTES, 'C');
  g_autofree char *text = g_strdup_printf ("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\host\\Obj\\%sa\",\"\\\\host\\Obj\\%sb\","
                                           "\"\\\\host\\Obj\\short\"\n"
                                           "\"01/01/2024 00:00:00.000\",\"1\",\"2\",\"3\"\n"
                                           "\"01/01/2024 00:00:01.000\",\"4\",\"5\",\"6\"\n", prefix, prefix);
  const char *args[] = { "export", path, "--to", "chrome-trace", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(CliResult) result = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) readings = NULL;
  g_autoptr(GHashTable) tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *cut = NULL;
  const char *long_ids[2] = { NULL, NULL };
  guint n_long = 0;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  {
    g_autofree char *title = g_strconcat (prefix, "a — Obj", NULL);

    cut = cut_name (title);
  }
  result = run_ok (args);
  root = cli_test_parse_json (result->out);
  readings = trace_events (json_node_get_object (root), "C");
  g_assert_cmpuint (readings->len, ==, 6);

  /* Each counter as a viewer tells them apart: process, name and id,
   * with the values it drew */
  for (guint i = 0; i < readings->len; i++)
    {
      JsonObject *reading = g_ptr_array_index (readings, i);
      const char *name = json_object_get_string_member (reading, "name");
      const char *id = json_object_get_string_member_with_default (reading, "id", NULL);
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%s/%s", json_object_get_int_member (reading, "pid"),
                                              name, id != NULL ? id : "-");
      const char *values = g_hash_table_lookup (tracks, key);
      double value = json_object_get_double_member (json_object_get_object_member (reading, "args"), "value");

      if (values == NULL)
        {
          values = "";
          if (strcmp (name, cut) == 0)
            {
              g_assert_nonnull (id);
              g_assert_cmpuint (n_long, <, 2);
              long_ids[n_long++] = id;
            }
          else
            {
              g_assert_cmpstr (name, ==, "short — Obj");
              g_assert_null (id);
            }
        }
      g_hash_table_replace (tracks, g_strdup (key), g_strdup_printf ("%s%g ", values, value));
    }
  g_assert_cmpuint (g_hash_table_size (tracks), ==, 3);
  g_assert_cmpuint (n_long, ==, 2);
  g_assert_cmpstr (long_ids[0], !=, long_ids[1]);
  /* Each drew its own readings */
  {
    GHashTableIter iter;
    gpointer key, values;
    guint seen = 0;

    g_hash_table_iter_init (&iter, tracks);
    while (g_hash_table_iter_next (&iter, &key, &values))
      {
        const char *drawn = values;

        g_assert_true (strcmp (drawn, "1 4 ") == 0 || strcmp (drawn, "2 5 ") == 0 || strcmp (drawn, "3 6 ") == 0);
        seen |= 1u << (drawn[0] - '1');
      }
    g_assert_cmpuint (seen, ==, 7);
  }

  g_remove (path);
  g_rmdir (dir);
}

/* The standard output ------------------------------------------------------ */

typedef struct
{
  InputKind   kind;
  guint       depth;
  const char *name;
  const char *args[6];     /* "@" stands for the input */
  guint       held_16ths;  /* of the output it may hold */
} StdoutCase;

/* What a command that writes to the standard output may hold besides the
 * run (what `info` takes on the same input): collapsed sorts its lines,
 * so it holds its output once; the others stream all of it. Before, the
 * first two held their output as text once more, and counters a name and
 * an array of points per counter. */
static const StdoutCase stdout_cases[] = {
  { INPUT_NATIVE_LONG, 100000, "collapsed", { "export", "@", "--to", "collapsed" }, 20 },
  { INPUT_NATIVE_LONG, 100000, "pmcstat-callgraph", { "export", "@", "--to", "pmcstat-callgraph" }, 4 },
  { INPUT_PDH_HEADER, 500000, "counters", { "counters", "@" }, 1 },
  { INPUT_PDH_HEADER, 500000, "counters-text", { "counters", "--text", "@" }, 1 },
};

/* Room for the stdio and JSON buffers and for the allocator */
#define STDOUT_SLACK_BYTES (8 * 1024 * 1024)

static void
test_stdout (gconstpointer data)
{
  const StdoutCase *test = data;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  const char *info_args[] = { "--quiet", "info", NULL, NULL };
  const char *args[8] = { "--quiet", NULL };
  g_autoptr(Run) info = NULL;
  g_autoptr(Run) run = NULL;
  guint64 limit;

  /* Memory is all this measures, and hundreds of megabytes of output
   * take minutes under the sanitizers */
  if (!MEASURES_MEMORY)
    {
      g_test_skip ("peak memory is not measured under AddressSanitizer");
      return;
    }

  dir = g_dir_make_tmp ("perfscope-bounds-XXXXXX", NULL);
  path = write_input (dir, test->kind, test->depth);
  info_args[2] = path;
  for (guint i = 0; test->args[i] != NULL; i++)
    args[1 + i] = strcmp (test->args[i], "@") == 0 ? path : test->args[i];
  info = run_cli (info_args);
  run = run_cli (args);
  g_assert_cmpint (info->status, ==, 0);
  g_assert_cmpint (run->status, ==, 0);
  /* Enough output that holding it would show */
  g_assert_cmpuint (run->out_bytes, >, 32 * 1024 * 1024);

  limit = info->max_rss_bytes + run->out_bytes * test->held_16ths / 16 + STDOUT_SLACK_BYTES;
  assert_memory_within (test->name, run->max_rss_bytes, limit);

  g_remove (path);
  g_rmdir (dir);
}

/* Inputs without an end ---------------------------------------------------- */

static const char * const all_formats[] = {
  "ce-perflog", "rtl-logfile", "vs-report-csv", "pmcstat-callgraph", "pdh-csv",
  "hwpmc-pmclog", "perflib-plv2", "perfscope",
};

/* Memory for an input that never ends: the longest line a text format
 * keeps (64 MiB), what it holds while cutting it, and the CLI itself */
#define UNENDED_MEMORY_BYTES (512 * 1024 * 1024)

/* /dev/zero forced into each format: reading stops with an error,
 * instead of going on for ever; nothing of it is of the format (status 1) */
static void
test_dev_zero (void)
{
  if (!g_file_test ("/dev/zero", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/zero");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++)
    {
      const char *args[] = { "--quiet", "info", "--format", all_formats[i], "/dev/zero", NULL };
      g_autoptr(Run) run = run_cli (args);

      /* Not of the format, and why */
      g_test_message ("%s: %s", all_formats[i], run->err->str);
      g_assert_cmpint (run->status, ==, 1);
      g_assert_nonnull (strstr (run->err->str, "Not a “"));
      g_assert_cmpuint (run->out_head->len, ==, 0);
      assert_memory_within (all_formats[i], run->max_rss_bytes, UNENDED_MEMORY_BYTES);
    }
}

typedef struct
{
  char       *path;     /* the FIFO */
  GBytes     *data;     /* written once, or NULL: zeros until the reader goes */
  guint64     written;
} FifoWriter;

/* Writes into the FIFO once a reader has opened it; gives up after the
 * run's timeout if none comes */
static gpointer
fifo_writer_thread (gpointer user_data)
{
  FifoWriter *writer = user_data;
  gint64 deadline = g_get_monotonic_time () + RUN_TIMEOUT_MS * G_GINT64_CONSTANT (1000);
  static const char zeros[64 * 1024];
  int fd;

  /* Non-blocking, the open fails while no reader is there */
  while ((fd = open (writer->path, O_WRONLY | O_NONBLOCK)) < 0)
    {
      if (errno != ENXIO || g_get_monotonic_time () > deadline)
        return NULL;
      g_usleep (10 * 1000);
    }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);

  if (writer->data != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (writer->data, &length);

      while (writer->written < length)
        {
          gssize n = write (fd, data + writer->written, length - writer->written);

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            break;
          writer->written += (guint64) n;
        }
    }
  else
    for (;;)
      {
        gssize n = write (fd, zeros, sizeof zeros);

        if (n < 0 && errno == EINTR)
          continue;
        /* EPIPE once the reader has stopped */
        if (n <= 0)
          break;
        writer->written += (guint64) n;
      }
  close (fd);
  return NULL;
}

/* A FIFO is a stream: a log written into it is read to its end, the same
 * as from a file; zeros written into it stop the reading with an error */
static void
test_fifo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-bounds-XXXXXX", NULL);
  g_autofree char *file_dir = g_build_filename (dir, "file", NULL);
  g_autofree char *fifo_dir = g_build_filename (dir, "fifo", NULL);
  g_autofree char *log = NULL;
  g_autofree char *fifo = g_build_filename (fifo_dir, "deep_4711.log", NULL);
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (file_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (fifo_dir, 0700), ==, 0);
  log = write_input (file_dir, INPUT_RTL, 1000);
  g_file_get_contents (log, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  /* A log, with its format detected and forced */
  for (guint forced = 0; forced < 2; forced++)
    {
      const char *file_args[] = { "--quiet", "stats", log, NULL, NULL, NULL };
      const char *fifo_args[] = { "--quiet", "stats", fifo, NULL, NULL, NULL };
      FifoWriter writer = { fifo, g_bytes_new_static (contents, length), 0 };
      GThread *thread;
      g_autoptr(Run) from_file = NULL;
      g_autoptr(Run) from_fifo = NULL;

      if (forced)
        {
          file_args[3] = fifo_args[3] = "--format";
          file_args[4] = fifo_args[4] = "rtl-logfile";
        }
      from_file = run_cli (file_args);
      thread = g_thread_new ("fifo-writer", fifo_writer_thread, &writer);
      from_fifo = run_cli (fifo_args);
      g_thread_join (thread);
      g_bytes_unref (writer.data);

      g_assert_cmpint (from_fifo->status, ==, 0);
      g_assert_cmpuint (writer.written, ==, length);
      g_assert_cmpuint (from_fifo->out_bytes, ==, from_file->out_bytes);
      g_assert_cmpstr (from_fifo->out_head->str, ==, from_file->out_head->str);
    }

  /* Zeros, until the reader gives up */
  {
    const char *args[] = { "--quiet", "info", "--format", "rtl-logfile", fifo, NULL };
    FifoWriter writer = { fifo, NULL, 0 };
    GThread *thread = g_thread_new ("fifo-writer", fifo_writer_thread, &writer);
    g_autoptr(Run) run = run_cli (args);

    g_thread_join (thread);
    g_assert_cmpint (run->status, ==, 1);
    g_assert_nonnull (strstr (run->err->str, "without a line end"));
    assert_memory_within ("zeros through a FIFO", run->max_rss_bytes, UNENDED_MEMORY_BYTES);
    /* It stopped, so the writer stopped: not long after the limit */
    g_assert_cmpuint (writer.written, >=, 128 * 1024 * 1024);
  }

  g_remove (fifo);
  g_remove (log);
  g_rmdir (fifo_dir);
  g_rmdir (file_dir);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);

  g_test_init (&argc, &argv, NULL);
  signal (SIGPIPE, SIG_IGN);

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
      {
        Case *test;
        g_autofree char *name = NULL;

        g_auto(GStrv) names = g_strsplit (inputs[i].commands, " ", -1);

        if (!g_strv_contains ((const char * const *) names, commands[c].name))
          continue;
        test = g_new0 (Case, 1);
        test->input = &inputs[i];
        test->command = &commands[c];
        g_ptr_array_add (cases, test);
        name = g_strdup_printf ("/output-bounds/%s-%u/%s", inputs[i].name, inputs[i].depth, commands[c].name);
        g_test_add_data_func (name, test, test_case);
      }
  for (guint i = 0; i < G_N_ELEMENTS (stdout_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/output-bounds/stdout/%s", stdout_cases[i].name);

      g_test_add_data_func (name, &stdout_cases[i], test_stdout);
    }
  g_test_add_func ("/output-bounds/name-cut", test_name_cut);
  g_test_add_func ("/output-bounds/long-names", test_long_names);
  g_test_add_func ("/output-bounds/long-event-names", test_long_event_names);
  g_test_add_func ("/output-bounds/counter-ids", test_counter_ids);
  g_test_add_func ("/output-bounds/dev-zero", test_dev_zero);
  g_test_add_func ("/output-bounds/fifo", test_fifo);

  return g_test_run ();
}
