/* gen-ce-perflog.c — writes constructed Windows CE PerfLog files
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §2.3 (line layout), §3 (grammar), §4.4 (CETK-style
 * descriptions), §6 (example file).
 *
 * The output imitates what PerfLog.dll writes while a CETK performance test
 * runs: per session a header (OS, platform, device, application, tick rate,
 * calibration and CPU-monitor lines), the CPU/MEM monitor markers (ids 103
 * and 102), then test steps that register a marker with a key=value
 * description, log log-normally distributed DUR ticks, re-register the id for
 * the next variant, and let the monitor log CPU/MEM events in between.
 *
 * Used for the parsing benchmark (bench/run-ce-bench, sizes of hundreds of
 * MiB) and for the demo logs (bench/make-demo-logs, a few passes of a plan).
 * The output depends only on the options: the random numbers come from our
 * own generator, never from rand ().
 */
#include "gen-common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_MARKER_ID      103
#define CPU_MARKER_ID      103   /* reserved: automatic CPU monitor (§2.1) */
#define MEM_MARKER_ID      102   /* reserved: automatic memory monitor (§2.1) */
#define FLUSH_MARKER_ID    2     /* companion timer interleaved with writes */
#define UNREGISTERED_ID    42    /* never registered; used by --faults */

/* ------------------------------------------------------------------------ */
/* Test plans                                                                */

typedef enum
{
  STEP_FLUSH_COMPANION = 1 << 0,   /* interleave FlushFileBuffers on id 2 */
  STEP_REGISTER_EACH   = 1 << 1,   /* re-register before every event, like
                                      the disk test (§4.4) */
} StepFlags;

/* One test step: a marker registration followed by its events, once per
 * parameter value. "{}" in the template is replaced by the parameter. */
typedef struct
{
  unsigned        marker_id;
  const char     *template;
  const unsigned *params;           /* 0-terminated; NULL: no parameter */
  double          fixed_seconds;    /* cost of one call */
  double          seconds_per_unit; /* plus this per parameter unit */
  double          sigma;            /* spread of the log-normal noise */
  unsigned        iteration_percent;/* events relative to --iterations */
  double          cpu_load;         /* typical CPU percent during the step */
  unsigned        flags;
} Step;

typedef struct
{
  const char *name;
  const char *app;
  const Step *steps;
  unsigned    n_steps;
} Suite;

static const unsigned file_counts[]  = { 10, 100, 0 };
static const unsigned write_sizes[]  = { 512, 4096, 65536, 0 };
static const unsigned bps_sizes[]    = { 4096, 65536, 262144, 0 };
static const unsigned read_sizes[]   = { 512, 4096, 65536, 0 };
static const unsigned seek_offsets[] = { 1048576, 0 };
static const unsigned sector_counts[]= { 1, 8, 64, 0 };

/* File-system performance test. The throughput figures follow the §6
 * example: a 4096-byte write takes about 10 ms, a 64 KiB write about
 * 100 ms and a 64 KiB read about 50 ms on a CEPC with a FAT volume. */
static const Step fs_steps[] = {
  { 0, "Test=CreateFile,Files={},time=%AVG%", file_counts,
    0.0008, 0.00038, 0.06, 40, 55.0, 0 },
  { 1, "Test=WriteFile,Bytes={},time=%AVG%", write_sizes,
    0.0040, 1.0 / 660000.0, 0.08, 100, 70.0, STEP_FLUSH_COMPANION },
  { 1, "Bytes={},Bps AVG=%Bytes%/%AVG%,Bps MIN=%Bytes%/%MAX%,Test=Write", bps_sizes,
    0.0038, 1.0 / 640000.0, 0.10, 60, 75.0, 0 },
  { 0, "Test=ReadFile,Bytes={},time=%AVG%", read_sizes,
    0.0012, 1.0 / 1350000.0, 0.07, 100, 60.0, 0 },
  { 0, "Bytes={},Bps AVG=%Bytes%/%AVG%,Bps MIN=%Bytes%/%MAX%,Test=Read", bps_sizes,
    0.0011, 1.0 / 1320000.0, 0.09, 60, 62.0, 0 },
  { 3, "Test=SetFilePointer,Offset={},time=%AVG%", seek_offsets,
    0.000018, 0.0, 0.20, 50, 30.0, 0 },
  { 3, "Test=GetFileAttributes,time=%AVG%", NULL,
    0.000045, 0.0, 0.25, 50, 28.0, 0 },
  { 4, "Test=ReadSectors,Sectors={},time=%AVG%", sector_counts,
    0.00025, 0.00009, 0.12, 10, 45.0, STEP_REGISTER_EACH },
  { 0, "Test=DeleteFile,Files={},time=%AVG%", file_counts,
    0.0006, 0.00031, 0.08, 40, 50.0, 0 },
};

static const unsigned key_depths[]   = { 1, 4, 0 };
static const unsigned value_bytes[]  = { 16, 256, 4096, 0 };
static const unsigned string_chars[] = { 32, 260, 0 };
static const unsigned value_counts[] = { 10, 100, 0 };

/* Registry performance test: calls of tens to hundreds of microseconds */
static const Step registry_steps[] = {
  { 0, "Test=RegCreateKeyEx - new key,Depth={},time=%AVG%", key_depths,
    0.00021, 0.00004, 0.12, 100, 35.0, 0 },
  { 1, "Test=RegOpenKeyEx,Depth={},time=%AVG%", key_depths,
    0.000052, 0.000011, 0.15, 100, 25.0, 0 },
  { 2, "Test=RegSetValueEx - REG_DWORD,time=%AVG%", NULL,
    0.000094, 0.0, 0.14, 100, 30.0, 0 },
  { 2, "Test=RegSetValueEx - REG_BINARY,Bytes={},time=%AVG%", value_bytes,
    0.000105, 0.000000031, 0.14, 100, 32.0, 0 },
  { 3, "Test=RegQueryValueEx - REG_DWORD,time=%AVG%", NULL,
    0.000038, 0.0, 0.18, 100, 22.0, 0 },
  { 3, "Test=RegQueryValueEx - REG_SZ,Chars={},time=%AVG%", string_chars,
    0.000044, 0.00000009, 0.18, 100, 22.0, 0 },
  { 4, "Test=RegEnumValue,Values={},time=%AVG%", value_counts,
    0.000030, 0.000021, 0.10, 60, 40.0, 0 },
  { 5, "Test=RegFlushKey,time=%AVG%", NULL,
    0.0062, 0.0, 0.22, 20, 65.0, 0 },
  { 6, "Test=RegDeleteValue,time=%AVG%", NULL,
    0.000071, 0.0, 0.15, 100, 28.0, 0 },
  { 6, "Test=RegDeleteKey,Depth={},time=%AVG%", key_depths,
    0.00017, 0.000035, 0.12, 60, 33.0, 0 },
};

static const unsigned record_counts[] = { 100, 1000, 0 };
static const unsigned prop_counts[]   = { 4, 16, 0 };

/* Database (CEDB) performance test, a short one */
static const Step db_steps[] = {
  { 0, "Test=CeCreateDatabaseEx2,time=%AVG%", NULL,
    0.0031, 0.0, 0.10, 30, 50.0, 0 },
  { 1, "Test=CeWriteRecordProps,Props={},time=%AVG%", prop_counts,
    0.00042, 0.00005, 0.12, 100, 60.0, 0 },
  { 2, "Test=CeSeekDatabaseEx,Records={},time=%AVG%", record_counts,
    0.00011, 0.0000008, 0.15, 100, 45.0, 0 },
  { 3, "Test=CeReadRecordPropsEx,Props={},time=%AVG%", prop_counts,
    0.00019, 0.00002, 0.12, 100, 40.0, 0 },
  { 1, "Test=CeDeleteRecord,time=%AVG%", NULL,
    0.00035, 0.0, 0.14, 60, 52.0, 0 },
};

static const Suite suites[] = {
  { "fs",       "fsperf",  fs_steps,       G_N_ELEMENTS (fs_steps) },
  { "registry", "regperf", registry_steps, G_N_ELEMENTS (registry_steps) },
  { "db",       "dbperf",  db_steps,       G_N_ELEMENTS (db_steps) },
};

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

#define MAX_SCALES 8

typedef struct
{
  const char  *output_path;
  const Suite *suite;
  const char  *app;
  const char  *os_version;
  const char  *build;
  const char  *platform;
  const char  *cpu;
  const char  *devname;
  uint64_t     size_limit;        /* 0: no limit (needs --passes) */
  unsigned     passes;            /* 0: repeat the plan until the size */
  uint64_t     seed;
  unsigned     sessions;
  unsigned     iterations;        /* events per registration, on average */
  unsigned     monitor_every;     /* events between CPU/MEM samples */
  unsigned     resolution;        /* ticks per second */
  gboolean     lf_only;
  gboolean     faults;
  /* --scale: durations of the descriptions that contain scale_text[i]
   * are scale_factor[i] times as long (a later build, slower or faster) */
  const char  *scale_text[MAX_SCALES];
  double       scale_factor[MAX_SCALES];
  unsigned     n_scales;
} Options;

/* ------------------------------------------------------------------------ */
/* The simulated test run                                                    */

typedef struct
{
  const Options *options;
  Writer        *writer;
  Rng            rng;
  uint64_t       session_limit;   /* stop the session before this offset */
  gboolean       size_reached;

  /* "## PERF ## APP [app] EVT [id] DUR [" for every id */
  char          *dur_prefix[MAX_MARKER_ID + 1];
  size_t         dur_prefix_length[MAX_MARKER_ID + 1];

  uint64_t       events;          /* events of the whole file */
  unsigned       until_monitor;
  double         cpu_percent;
  double         cpu_target;
  uint64_t       mem_bytes;
  unsigned       last_marker_id;  /* of the last DUR event */
  gboolean       unregistered_done;
  gboolean       bad_value_done;
} Run;

/* Room kept for a closing line so that the file never exceeds the size */
#define LINE_RESERVE 256

static gboolean
run_has_room (Run    *run,
              size_t  line_length)
{
  if (run->session_limit == 0)
    return TRUE;
  if (run->writer->written + line_length > run->session_limit)
    {
      run->size_reached = TRUE;
      return FALSE;
    }
  return TRUE;
}

static char *
expand_template (const char *template,
                 unsigned    parameter)
{
  GString *text = g_string_new (NULL);
  const char *p = template;
  const char *hole;

  while ((hole = strstr (p, "{}")) != NULL)
    {
      g_string_append_len (text, p, hole - p);
      g_string_append_printf (text, "%u", parameter);
      p = hole + 2;
    }
  g_string_append (text, p);
  return g_string_free (text, FALSE);
}

static gboolean
run_register (Run        *run,
              unsigned    marker_id,
              const char *description)
{
  const char *app = run->options->app;

  if (!run_has_room (run, strlen (description) + strlen (app) + 64))
    return FALSE;
  writer_line (run->writer, "## PERF ## REGISTERED MARKER [%s] AS [%u] BY APP [%s]",
               description, marker_id, app);
  return TRUE;
}

static void
run_monitor_sample (Run *run)
{
  const Options *options = run->options;
  double cpu;
  int64_t mem_step;

  /* CPU: mean-reverting walk towards the current step's load */
  run->cpu_percent += 0.35 * (run->cpu_target - run->cpu_percent) + 6.0 * rng_normal (&run->rng);
  cpu = CLAMP (run->cpu_percent, 0.5, 100.0);
  writer_line (run->writer, "## PERF ## APP [%s] EVT [%u] CPU [%.6f]",
               options->app, CPU_MARKER_ID, cpu);

  /* MEM: free-memory figure moving in 4 KiB pages, kept in a band */
  mem_step = (int64_t) llround (rng_normal (&run->rng) * 6.0) * 4096;
  if ((int64_t) run->mem_bytes + mem_step < 8 * 1024 * 1024 ||
      run->mem_bytes + (uint64_t) mem_step > 24u * 1024 * 1024)
    mem_step = -mem_step;
  run->mem_bytes += (uint64_t) mem_step;
  writer_line (run->writer, "## PERF ## APP [%s] EVT [%u] MEM [%" G_GUINT64_FORMAT "]",
               options->app, MEM_MARKER_ID, run->mem_bytes);

  run->until_monitor = rng_range (&run->rng, options->monitor_every / 2 + 1,
                                  options->monitor_every + options->monitor_every / 2);
}

static uint64_t
run_draw_ticks (Run    *run,
                double  median_seconds,
                double  sigma)
{
  double seconds = rng_lognormal (&run->rng, median_seconds, sigma);
  double ticks;

  /* Occasional outliers: a flash erase, a preempted thread */
  if (rng_uniform (&run->rng) < 0.004)
    seconds *= 2.0 + 6.0 * rng_uniform (&run->rng);

  ticks = seconds * run->options->resolution;
  return ticks < 1.0 ? 1 : (uint64_t) llround (ticks);
}

/* One DUR line, the hot path: memcpy of a cached prefix and the digits */
static gboolean
run_duration (Run      *run,
              unsigned  marker_id,
              uint64_t  ticks)
{
  Writer *writer = run->writer;
  size_t length = run->dur_prefix_length[marker_id] + 20 + 1 + writer->eol_length;

  if (!run_has_room (run, length + LINE_RESERVE))
    return FALSE;

  writer_reserve (writer, length);
  writer_append (writer, run->dur_prefix[marker_id], run->dur_prefix_length[marker_id]);
  writer_append_uint (writer, ticks, 1);
  writer_append (writer, "]", 1);
  writer_end_line (writer);
  run->events++;
  run->last_marker_id = marker_id;

  if (--run->until_monitor == 0)
    run_monitor_sample (run);

  /* The deliberate faults of --faults (§7 #9 and #13) */
  if (run->options->faults)
    {
      if (!run->unregistered_done && run->events == 25)
        {
          writer_line (writer, "## PERF ## APP [%s] EVT [%u] DUR [%u]",
                       run->options->app, UNREGISTERED_ID, 3581u);
          run->unregistered_done = TRUE;
        }
      else if (!run->bad_value_done && run->events == 60)
        {
          writer_line (writer, "## PERF ## APP [%s] EVT [%u] DUR [12a4]",
                       run->options->app, marker_id);
          run->bad_value_done = TRUE;
        }
    }
  return TRUE;
}

static unsigned
run_event_count (Run        *run,
                 const Step *step)
{
  unsigned mean = MAX (1u, run->options->iterations * step->iteration_percent / 100u);
  unsigned low = MAX (1u, mean - mean / 5);

  return rng_range (&run->rng, low, mean + mean / 5);
}

static gboolean
run_step_variant (Run        *run,
                  const Step *step,
                  unsigned    parameter)
{
  g_autofree char *description = expand_template (step->template, parameter);
  g_autofree char *flush_description = NULL;
  double median_seconds = step->fixed_seconds + step->seconds_per_unit * parameter;
  double flush_seconds = 0.0;
  unsigned n_events = run_event_count (run, step);

  for (unsigned i = 0; i < run->options->n_scales; i++)
    if (strstr (description, run->options->scale_text[i]) != NULL)
      median_seconds *= run->options->scale_factor[i];
  run->cpu_target = step->cpu_load;

  if (!(step->flags & STEP_REGISTER_EACH) &&
      !run_register (run, step->marker_id, description))
    return FALSE;

  if (step->flags & STEP_FLUSH_COMPANION)
    {
      flush_description = g_strdup_printf ("Test=FlushFileBuffers,Bytes=%u,time=%%AVG%%", parameter);
      flush_seconds = 0.0025 + parameter / 4000000.0;
      if (!run_register (run, FLUSH_MARKER_ID, flush_description))
        return FALSE;
    }

  for (unsigned i = 0; i < n_events; i++)
    {
      if ((step->flags & STEP_REGISTER_EACH) &&
          !run_register (run, step->marker_id, description))
        return FALSE;

      if (!run_duration (run, step->marker_id,
                         run_draw_ticks (run, median_seconds, step->sigma)))
        return FALSE;

      /* The flush timer runs around every eighth write, so its events
       * interleave with those of the write marker */
      if ((step->flags & STEP_FLUSH_COMPANION) && i % 8 == 7 &&
          !run_duration (run, FLUSH_MARKER_ID, run_draw_ticks (run, flush_seconds, 0.15)))
        return FALSE;
    }

  return TRUE;
}

static gboolean
run_plan (Run *run)
{
  const Suite *suite = run->options->suite;

  for (unsigned s = 0; s < suite->n_steps; s++)
    {
      const Step *step = &suite->steps[s];

      if (step->params == NULL)
        {
          if (!run_step_variant (run, step, 0))
            return FALSE;
          continue;
        }

      for (const unsigned *p = step->params; *p != 0; p++)
        if (!run_step_variant (run, step, *p))
          return FALSE;
    }

  return TRUE;
}

static void
run_header (Run *run)
{
  const Options *options = run->options;
  const char *app = options->app;
  unsigned pid = 0x00000002u | (rng_range (&run->rng, 0x0100, 0x3fff) << 16) |
                 (rng_range (&run->rng, 0x00, 0x3f) << 8);

  writer_line (run->writer, "## PERF ## OSVERSION=[%s] BUILD=[%s]", options->os_version, options->build);
  writer_line (run->writer, "## PERF ## PLATFORM=[%s] CPU=[%s]", options->platform, options->cpu);
  writer_line (run->writer, "## PERF ## DEVNAME=[%s]", options->devname);
  writer_line (run->writer, "## PERF ## REGISTERED APP [%s] PROCCESSID [0x%08x]", app, pid);
  writer_line (run->writer, "## PERF ## RESOLUTION [%u] TICKS PER SECOND", options->resolution);
  for (unsigned i = 0; i < 3; i++)
    writer_line (run->writer, "## PERF ## APP [%s] CAL [%u]", app, rng_range (&run->rng, 11, 16));
  writer_line (run->writer, "## PERF ## APP [%s] CPU CAL [%u]", app, rng_range (&run->rng, 2300, 2450));
  writer_line (run->writer, "## PERF ## APP [%s] CPU MON [%s] FREQ [1000]", app, app);
  writer_line (run->writer, "## PERF ## REGISTERED MARKER [CPU: %s] AS [%u] BY APP [%s]",
               app, CPU_MARKER_ID, app);
  writer_line (run->writer, "## PERF ## REGISTERED MARKER [MEM: %s] AS [%u] BY APP [%s]",
               app, MEM_MARKER_ID, app);

  run->cpu_percent = 20.0 + 20.0 * rng_uniform (&run->rng);
  run->mem_bytes = (10u * 1024 * 1024 + rng_range (&run->rng, 0, 512) * 4096u);
  run_monitor_sample (run);
}

static void
run_file (Run *run)
{
  const Options *options = run->options;
  unsigned passes = 0;

  for (unsigned session = 0; session < options->sessions; session++)
    {
      if (options->size_limit > 0)
        run->session_limit = options->size_limit / options->sessions * (session + 1);
      run->size_reached = FALSE;

      run_header (run);
      for (passes = 0; options->passes == 0 || passes < options->passes; passes++)
        if (!run_plan (run))
          break;
    }

  /* §7 #31: an incomplete last line, as when the device lost power */
  if (options->faults)
    {
      unsigned id = run->last_marker_id;

      writer_reserve (run->writer, run->dur_prefix_length[id] + 4);
      writer_append (run->writer, run->dur_prefix[id], run->dur_prefix_length[id]);
      writer_append (run->writer, "4521", 4);
    }
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

static void
print_usage (FILE *stream)
{
  fprintf (stream,
           "Usage: gen-ce-perflog (--size SIZE | --passes N) [OPTION...] -o FILE\n"
           "\n"
           "Writes a constructed Windows CE PerfLog (\"## PERF ##\") file.\n"
           "\n"
           "  --size SIZE        stop before the file exceeds SIZE (1G, 500M, 100M, 64K;\n"
           "                     binary units)\n"
           "  --passes N         run the test plan N times per session\n"
           "  --suite NAME       fs (default), registry or db\n"
           "  --seed N           random seed (default 1); same seed, same file\n"
           "  --sessions N       appended runs, each with its own header (default 1)\n"
           "  --iterations N     mean events per marker registration (default 200)\n"
           "  --monitor-every N  mean events between CPU/MEM samples (default 64)\n"
           "  --resolution N     ticks per second (default 1193180)\n"
           "  --app NAME         application string (default: the suite's)\n"
           "  --build N          OS build (default 3122)\n"
           "  --platform NAME    platform (default CEPC); also the device name\n"
           "  --cpu NAME         CPU (default x86)\n"
           "  --faults           add an unregistered marker event, a bad DUR value and\n"
           "                     an incomplete last line\n"
           "  --scale TEXT:F     durations of descriptions containing TEXT are F times\n"
           "                     as long (repeatable, up to 8)\n"
           "  --lf               LF line ends (default CR LF)\n"
           "  -o FILE            output file, \"-\" for standard output\n");
}

int
main (int    argc,
      char **argv)
{
  Options options = {
    .suite = &suites[0],
    .os_version = "6.0",
    .build = "3122",
    .platform = "CEPC",
    .cpu = "x86",
    .seed = 1,
    .sessions = 1,
    .iterations = 200,
    .monitor_every = 64,
    .resolution = 1193180,
  };
  Writer writer;
  Run run = { 0 };
  gint64 started;
  double elapsed;
  gboolean ok;

  g_set_prgname ("gen-ce-perflog");

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *next = i + 1 < argc ? argv[i + 1] : NULL;
      gboolean takes_value = TRUE;

      if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          print_usage (stdout);
          return 0;
        }
      else if (strcmp (arg, "--lf") == 0)
        {
          options.lf_only = TRUE;
          takes_value = FALSE;
        }
      else if (strcmp (arg, "--faults") == 0)
        {
          options.faults = TRUE;
          takes_value = FALSE;
        }
      else if (next == NULL)
        return usage_error ("missing value or unknown option", arg);
      else if (strcmp (arg, "-o") == 0 || strcmp (arg, "--output") == 0)
        options.output_path = next;
      else if (strcmp (arg, "--scale") == 0)
        {
          const char *colon = strrchr (next, ':');
          char *end = NULL;
          double factor = colon != NULL ? g_ascii_strtod (colon + 1, &end) : 0.0;

          if (colon == NULL || colon == next || end == colon + 1 || *end != '\0'
              || !(factor > 0.0) || options.n_scales == MAX_SCALES)
            return usage_error ("bad --scale (TEXT:FACTOR, at most 8)", next);
          options.scale_text[options.n_scales] = g_strndup (next, (gsize)(colon - next));
          options.scale_factor[options.n_scales++] = factor;
        }
      else if (strcmp (arg, "--size") == 0)
        {
          if (!parse_size (next, &options.size_limit))
            return usage_error ("bad size", next);
        }
      else if (strcmp (arg, "--passes") == 0)
        {
          if (!parse_count (next, 1000000, &options.passes))
            return usage_error ("bad number of passes", next);
        }
      else if (strcmp (arg, "--suite") == 0)
        {
          options.suite = NULL;
          for (unsigned s = 0; s < G_N_ELEMENTS (suites); s++)
            if (strcmp (suites[s].name, next) == 0)
              options.suite = &suites[s];
          if (options.suite == NULL)
            return usage_error ("unknown suite (fs, registry, db)", next);
        }
      else if (strcmp (arg, "--seed") == 0)
        {
          if (!parse_uint (next, G_MAXUINT64, &options.seed))
            return usage_error ("bad seed", next);
        }
      else if (strcmp (arg, "--sessions") == 0)
        {
          if (!parse_count (next, 1000, &options.sessions))
            return usage_error ("bad number of sessions", next);
        }
      else if (strcmp (arg, "--iterations") == 0)
        {
          if (!parse_count (next, 10000000, &options.iterations))
            return usage_error ("bad number of iterations", next);
        }
      else if (strcmp (arg, "--monitor-every") == 0)
        {
          if (!parse_count (next, 10000000, &options.monitor_every))
            return usage_error ("bad monitor interval", next);
        }
      else if (strcmp (arg, "--resolution") == 0)
        {
          if (!parse_count (next, G_MAXUINT32, &options.resolution))
            return usage_error ("bad resolution", next);
        }
      else if (strcmp (arg, "--app") == 0)
        options.app = next;
      else if (strcmp (arg, "--build") == 0)
        options.build = next;
      else if (strcmp (arg, "--platform") == 0)
        options.platform = next;
      else if (strcmp (arg, "--cpu") == 0)
        options.cpu = next;
      else
        return usage_error ("unknown option", arg);

      if (takes_value)
        i++;
    }

  if (options.output_path == NULL)
    return usage_error ("no output file (-o FILE)", NULL);
  if (options.size_limit == 0 && options.passes == 0)
    return usage_error ("give --size or --passes", NULL);
  if (options.app == NULL)
    options.app = options.suite->app;
  if (strlen (options.app) > 32 || strchr (options.app, ']') != NULL)
    return usage_error ("application names have at most 32 characters and no \"]\"", options.app);
  options.devname = options.platform;

  if (!writer_open (&writer, options.output_path, options.lf_only ? "\n" : "\r\n"))
    return 1;

  run.options = &options;
  run.writer = &writer;
  rng_init (&run.rng, options.seed);
  for (unsigned id = 0; id <= MAX_MARKER_ID; id++)
    {
      run.dur_prefix[id] = g_strdup_printf ("## PERF ## APP [%s] EVT [%u] DUR [", options.app, id);
      run.dur_prefix_length[id] = strlen (run.dur_prefix[id]);
    }
  run.until_monitor = options.monitor_every;

  started = g_get_monotonic_time ();
  run_file (&run);
  ok = writer_close (&writer);
  elapsed = (double) (g_get_monotonic_time () - started) / 1e6;
  if (!ok)
    return 1;

  fprintf (stderr, "gen-ce-perflog: %s: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
           " lines, %" G_GUINT64_FORMAT " DUR events, %u session(s), %.1f s\n",
           options.output_path, writer.written, writer.lines, run.events,
           options.sessions, elapsed);

  for (unsigned id = 0; id <= MAX_MARKER_ID; id++)
    g_free (run.dur_prefix[id]);
  return 0;
}
