/* ps-ready-clock.c — when a run opened from the command line became ready
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* clock_gettime () and getrusage () */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include "ps-ready-clock.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>
#ifdef G_OS_UNIX
#include <sys/resource.h>
#endif

/* What the timeout asks for; its lateness beyond this is the stall */
#define TICK_MS 10

typedef struct
{
  const char *name;
  double      wall_s;
  double      cpu_s;
  guint64     rss_kib;   /* resident memory then */
  guint64     peak_kib;  /* the most resident memory until then */
} Milestone;

/* A stall beyond LONG_STALL_MS, listed so that a benchmark can tell which
 * step of the load it fell in */
typedef struct
{
  double at_s;    /* when it ended, from the start */
  double ms;
  double cpu_ms;  /* of it, the main thread's own work */
} Stall;

#define LONG_STALL_MS 50
#define MAX_LONG_STALLS 32

typedef struct
{
  GApplication *application;
  gint64        started_us;
  gint64        last_tick_us;
  gint64        last_tick_cpu_us;     /* the main thread's CPU time then */
  gint64        longest_stall_cpu_us;
  gint64        longest_stall_us;
  gint64        longest_stall_at_us;  /* when it ended, from the start */
  guint64       n_ticks;
  GArray       *stalls;               /* Stall, the long ones in order */
  guint         tick_id;
  GArray       *milestones;           /* Milestone */
  gboolean      finished;
} ReadyClock;

static ReadyClock *clock_state;

static double
cpu_seconds (void)
{
#ifdef CLOCK_PROCESS_CPUTIME_ID
  struct timespec now;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now) == 0)
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
#endif
  return 0;
}

/* On a busy machine a stall's wall time includes waiting for a core; the
 * main thread's own CPU time is the work that held it up */
static gint64
main_thread_cpu_us (void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
  struct timespec now;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now) == 0)
    return (gint64)now.tv_sec * G_USEC_PER_SEC + now.tv_nsec / 1000;
#endif
  return 0;
}

static guint64
current_rss_kib (void)
{
  g_autofree char *statm = NULL;
  guint64 pages = 0;

  /* Linux: the second number is the resident pages */
  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL)
      && sscanf (statm, "%*s %" G_GUINT64_FORMAT, &pages) == 1)
    return pages * (guint64)sysconf (_SC_PAGESIZE) / 1024;
  return 0;
}

static guint64
peak_rss_kib (void)
{
#ifdef G_OS_UNIX
  struct rusage usage;

  /* Linux gives kilobytes */
  if (getrusage (RUSAGE_SELF, &usage) == 0)
    return (guint64)usage.ru_maxrss;
#endif
  return 0;
}

/* The main loop dispatches this at the priority of input events: the time
 * beyond TICK_MS since the last dispatch is how long an event arriving
 * just after it would have waited */
static gboolean
tick_cb (gpointer user_data)
{
  ReadyClock *self = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 stall = now - self->last_tick_us - TICK_MS * 1000;
  gint64 cpu = main_thread_cpu_us ();
  gint64 stall_cpu = cpu - self->last_tick_cpu_us;

  if (stall > self->longest_stall_us)
    {
      self->longest_stall_us = stall;
      self->longest_stall_at_us = now - self->started_us;
    }
  self->longest_stall_cpu_us = MAX (self->longest_stall_cpu_us, stall_cpu);
  if (stall > LONG_STALL_MS * 1000 && self->stalls->len < MAX_LONG_STALLS)
    {
      Stall entry = { (double)(now - self->started_us) / 1e6, (double)stall / 1e3, (double)stall_cpu / 1e3 };

      g_array_append_val (self->stalls, entry);
    }
  self->last_tick_us = now;
  self->last_tick_cpu_us = cpu;
  self->n_ticks++;
  return G_SOURCE_CONTINUE;
}

void
ps_ready_clock_start (GApplication *application)
{
  g_return_if_fail (G_IS_APPLICATION (application));

  if (clock_state != NULL)
    return;

  clock_state = g_new0 (ReadyClock, 1);
  clock_state->application = application;
  clock_state->started_us = g_get_monotonic_time ();
  clock_state->last_tick_us = clock_state->started_us;
  clock_state->last_tick_cpu_us = main_thread_cpu_us ();
  clock_state->milestones = g_array_new (FALSE, FALSE, sizeof (Milestone));
  clock_state->stalls = g_array_new (FALSE, FALSE, sizeof (Stall));
  clock_state->tick_id = g_timeout_add (TICK_MS, tick_cb, clock_state);
  /* Until ready the application has no window some of the time */
  g_application_hold (application);
}

gboolean
ps_ready_clock_is_running (void)
{
  return clock_state != NULL && !clock_state->finished;
}

void
ps_ready_clock_mark (const char *milestone)
{
  Milestone mark;

  if (!ps_ready_clock_is_running ())
    return;

  for (guint i = 0; i < clock_state->milestones->len; i++)
    if (g_str_equal (g_array_index (clock_state->milestones, Milestone, i).name, milestone))
      return;

  /* Stalls count from the opening of the file on: before it, starting
   * GTK has no input to answer */
  if (g_str_equal (milestone, "open"))
    {
      clock_state->last_tick_us = g_get_monotonic_time ();
      clock_state->last_tick_cpu_us = main_thread_cpu_us ();
      clock_state->longest_stall_us = 0;
      clock_state->longest_stall_cpu_us = 0;
      clock_state->longest_stall_at_us = 0;
      g_array_set_size (clock_state->stalls, 0);
    }
  mark.name = g_intern_string (milestone);
  mark.wall_s = (double)(g_get_monotonic_time () - clock_state->started_us) / 1e6;
  mark.cpu_s = cpu_seconds ();
  mark.rss_kib = current_rss_kib ();
  mark.peak_kib = peak_rss_kib ();
  g_array_append_val (clock_state->milestones, mark);
}

void
ps_ready_clock_finish (const GError *error)
{
  g_autoptr(GString) line = NULL;
  ReadyClock *self = clock_state;

  if (!ps_ready_clock_is_running ())
    return;

  /* The wait since the last tick counts too */
  tick_cb (self);
  ps_ready_clock_mark (error == NULL ? "ready" : "failed");
  self->finished = TRUE;
  g_clear_handle_id (&self->tick_id, g_source_remove);

  /* One line of JSON; the names are the page's own, plain ASCII */
  line = g_string_new ("{\"ready\":");
  g_string_append (line, error == NULL ? "true" : "false");
  g_string_append (line, ",\"milestones\":{");
  for (guint i = 0; i < self->milestones->len; i++)
    {
      const Milestone *mark = &g_array_index (self->milestones, Milestone, i);

      g_string_append_printf (line, "%s\"%s\":{\"wall_s\":%.3f,\"cpu_s\":%.3f,\"rss_kib\":%" G_GUINT64_FORMAT
                              ",\"peak_kib\":%" G_GUINT64_FORMAT "}",
                              i > 0 ? "," : "", mark->name, mark->wall_s, mark->cpu_s, mark->rss_kib, mark->peak_kib);
    }
  g_string_append_printf (line, "},\"longest_stall_ms\":%.1f,\"longest_stall_at_s\":%.3f,\"longest_stall_cpu_ms\":%.1f,"
                          "\"ticks\":%" G_GUINT64_FORMAT ",\"peak_rss_kib\":%" G_GUINT64_FORMAT ",\"long_stalls\":[",
                          (double)MAX (self->longest_stall_us, 0) / 1e3,
                          (double)self->longest_stall_at_us / 1e6,
                          (double)self->longest_stall_cpu_us / 1e3, self->n_ticks, peak_rss_kib ());
  for (guint i = 0; i < self->stalls->len; i++)
    {
      const Stall *entry = &g_array_index (self->stalls, Stall, i);

      g_string_append_printf (line, "%s{\"at_s\":%.3f,\"ms\":%.1f,\"cpu_ms\":%.1f}", i > 0 ? "," : "",
                              entry->at_s, entry->ms, entry->cpu_ms);
    }
  g_string_append (line, "]}\n");
  fputs (line->str, stderr);
  fflush (stderr);

  if (error != NULL)
    g_printerr ("perfscope: %s\n", error->message);
  g_application_release (self->application);
  g_application_quit (self->application);
}
