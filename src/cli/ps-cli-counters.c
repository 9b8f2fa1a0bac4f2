/* ps-cli-counters.c — perfscope-cli counters: performance counter series
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "counters"; the store model of counters is described next
 * to PsTrackKind in ps-event-store.h. One series per COUNTER track, named
 * by its ancestors (instance, object, machine). "points" are the
 * readings the store kept, with their display values (computed by the
 * format: PerfLib readings with their counter type's formula); readings
 * without a value are left out. The statistics are the store's, over
 * every reading, kept or not.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-counter-name.h"
#include "ps-util.h"

/* Write the JSON out once this much is pending */
#define WRITE_OUT_BYTES (256 * 1024)

/* The points of up to this many counters are gathered at once, up to
 * this many points in all: the store keeps a row of readings together,
 * so one counter's points lie a row apart, each a cache miss of its own,
 * while the same point of neighbouring counters shares one */
#define GATHER_MAX_TRACKS 32
#define GATHER_MAX_POINTS (1u << 20)

typedef struct
{
  gint64 time_ns;
  double value;
} Point;

/* The counters of a run, each named and written in turn, never all at
 * once: a PDH header of a million counter paths would otherwise hold a
 * million names and arrays of points */
typedef struct
{
  PsEventStore *store;
  gboolean      absolute_times;
  GPtrArray    *tracks;      /* GUINT_TO_POINTER (track) of each counter, in track order */
  guint64      *first_point; /* per track, the index in points of its first */
  guint64      *points;      /* indices of the store's readings with a value, by track */

  /* The points of the counters at positions [gathered_begin, gathered_end)
   * of tracks, one after the other; gathered_first[i] is where those of
   * gathered_begin + i begin */
  guint         next_position;
  guint         gathered_begin;
  guint         gathered_end;
  gsize         gathered_first[GATHER_MAX_TRACKS + 1];
  Point        *gathered;
  gsize         gathered_room;
} Counters;

static void
counters_clear (Counters *counters)
{
  g_clear_pointer (&counters->tracks, g_ptr_array_unref);
  g_clear_pointer (&counters->first_point, g_free);
  g_clear_pointer (&counters->points, g_free);
  g_clear_pointer (&counters->gathered, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Counters, counters_clear)

/* The counter tracks, and the readings with a value of each, in the
 * order of the store: a count per track, then a place for each reading */
static void
counters_init (Counters     *counters,
               PsEventStore *store,
               gboolean      absolute_times)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  guint64 n_points = 0;

  counters->store = store;
  counters->absolute_times = absolute_times;
  counters->tracks = g_ptr_array_new ();
  counters->first_point = g_new0 (guint64, (gsize)n_tracks + 1);

  for (guint32 t = 0; t < n_tracks; t++)
    if (ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER)
      g_ptr_array_add (counters->tracks, GUINT_TO_POINTER (t));

  /* first_point[t + 1]: how many points track t has */
  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track < n_tracks && !(value->flags & PS_COUNTER_FLAG_MISSING)
          && ps_event_store_get_track (store, value->track)->kind == PS_TRACK_COUNTER)
        {
          counters->first_point[value->track + 1]++;
          n_points++;
        }
    }
  for (guint32 t = 0; t < n_tracks; t++)
    counters->first_point[t + 1] += counters->first_point[t];

  /* Each reading to the next place of its track, which first_point[t]
   * counts up to the first of track t + 1; then moved back by one */
  counters->points = g_new (guint64, MAX (n_points, 1));
  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track < n_tracks && !(value->flags & PS_COUNTER_FLAG_MISSING)
          && ps_event_store_get_track (store, value->track)->kind == PS_TRACK_COUNTER)
        counters->points[counters->first_point[value->track]++] = i;
    }
  memmove (counters->first_point + 1, counters->first_point, (gsize)n_tracks * sizeof (guint64));
  counters->first_point[0] = 0;
}

/* The store's statistics of a track, NaN without readings */
static PsCounterStats
counter_stats (PsEventStore *store,
               guint32       track)
{
  PsCounterStats stats = { 0 };

  if (ps_event_store_get_counter_stats (store, track) != NULL)
    return *ps_event_store_get_counter_stats (store, track);
  stats.min = stats.max = stats.last = NAN;
  return stats;
}

static double
stats_mean (const PsCounterStats *stats)
{
  return stats->n_values > 0 ? stats->sum / (double)stats->n_values : NAN;
}

/* JSON */

static guint64
n_points_of (Counters *counters,
             guint     position)
{
  guint32 track = GPOINTER_TO_UINT (g_ptr_array_index (counters->tracks, position));

  return counters->first_point[track + 1] - counters->first_point[track];
}

/* The points of the counters from position on, as many as fit; a counter
 * with more points than fit at all is written straight from the store
 * (gathered_end stays at position) */
static void
gather_points (Counters *counters,
               guint     position)
{
  guint64 total = 0;
  guint end = position;
  guint n;

  counters->gathered_begin = position;
  counters->gathered_end = position;
  while (end < counters->tracks->len && end - position < GATHER_MAX_TRACKS
         && total + n_points_of (counters, end) <= GATHER_MAX_POINTS)
    {
      counters->gathered_first[end - position] = (gsize)total;
      total += n_points_of (counters, end);
      end++;
    }
  counters->gathered_first[end - position] = (gsize)total;
  n = end - position;
  if (total > counters->gathered_room)
    {
      g_free (counters->gathered);
      counters->gathered = g_new (Point, total);
      counters->gathered_room = (gsize)total;
    }

  /* Point p of each counter in turn: neighbours in the store */
  for (guint64 p = 0;; p++)
    {
      gboolean any = FALSE;

      for (guint i = 0; i < n; i++)
        {
          guint32 track = GPOINTER_TO_UINT (g_ptr_array_index (counters->tracks, position + i));
          guint64 first = counters->first_point[track];

          if (p < counters->first_point[track + 1] - first)
            {
              const PsCounterValue *value = ps_event_store_get_counter_value (counters->store, counters->points[first + p]);
              Point *point = &counters->gathered[counters->gathered_first[i] + p];

              point->time_ns = value->time_ns;
              point->value = value->value;
              any = TRUE;
            }
        }
      if (!any)
        break;
    }
  counters->gathered_end = end;
}

static void
append_point (GString *out,
              gint64   time_ns,
              double   value)
{
  g_string_append_c (out, '[');
  ps_export_append_integer (out, time_ns);
  g_string_append (out, ", ");
  ps_export_append_json_number (out, value);
  g_string_append_c (out, ']');
}

/* One counter: its name, its points as [time, value] a line, its
 * statistics */
static void
write_counter (PsCliJsonStream *stream,
               gpointer         item,
               gpointer         user_data)
{
  Counters *counters = user_data;
  guint32 track = GPOINTER_TO_UINT (item);
  PsCounterStats stats = counter_stats (counters->store, track);
  PsCounterName name;
  guint position;

  ps_counter_name_init (&name, counters->store, track, counters->absolute_times);
  ps_cli_json_stream_begin_object (stream, NULL);
  ps_cli_json_stream_string (stream, "object", name.object);
  ps_cli_json_stream_string (stream, "counter", name.counter);
  ps_cli_json_stream_string (stream, "instance", name.instance);
  /* PDH text logs never name the counter type */
  ps_cli_json_stream_string (stream, "type", name.type);
  ps_cli_json_stream_string (stream, "machine", name.machine);
  ps_cli_json_stream_string (stream, "unit", name.unit);
  ps_cli_json_stream_string (stream, "path", name.path);

  ps_cli_json_stream_begin_array (stream, "points");
  position = counters->next_position++;
  if (position >= counters->gathered_end || position < counters->gathered_begin)
    gather_points (counters, position);
  if (position < counters->gathered_end)
    {
      gsize first = counters->gathered_first[position - counters->gathered_begin];
      gsize last = counters->gathered_first[position - counters->gathered_begin + 1];

      for (gsize p = first; p < last; p++)
        {
          GString *out = ps_cli_json_stream_raw (stream, NULL);

          append_point (out, counters->gathered[p].time_ns + name.origin_ns, counters->gathered[p].value);
          ps_cli_json_write_out (out, WRITE_OUT_BYTES);
        }
    }
  else
    for (guint64 p = counters->first_point[track]; p < counters->first_point[track + 1]; p++)
      {
        const PsCounterValue *value = ps_event_store_get_counter_value (counters->store, counters->points[p]);
        GString *out = ps_cli_json_stream_raw (stream, NULL);

        append_point (out, value->time_ns + name.origin_ns, value->value);
        ps_cli_json_write_out (out, WRITE_OUT_BYTES);
      }
  ps_cli_json_stream_end (stream);

  g_string_append_printf (ps_cli_json_stream_raw (stream, "count"), "%" PRIu64, stats.n_values);
  g_string_append_printf (ps_cli_json_stream_raw (stream, "missing"), "%" PRIu64, stats.n_missing);
  ps_cli_json_stream_double (stream, "min", stats.min);
  ps_cli_json_stream_double (stream, "max", stats.max);
  ps_cli_json_stream_double (stream, "mean", stats_mean (&stats));
  ps_cli_json_stream_double (stream, "last", stats.last);
  ps_cli_json_stream_end (stream);
  ps_counter_name_clear (&name);
}

static void
write_series (GString    *out,
              const char *member,
              guint       level,
              gpointer    user_data)
{
  Counters *counters = user_data;

  ps_cli_json_stream_array (out, level, counters->tracks, write_counter, counters);
}

static void
print_json (PsEventStore *store,
            const char   *path,
            Counters     *counters)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  static const char * const streamed[] = { "series", NULL };

  json_builder_begin_object (builder);
  ps_cli_add_run_members (builder, store, path, FALSE);
  /* "unix": points are in ns since 1970 (UTC); "run": since the first sample */
  json_builder_set_member_name (builder, "time_base");
  json_builder_add_string_value (builder, counters->absolute_times ? "unix" : "run");
  /* 1: every reading is a point; n: every n-th reading of each counter */
  json_builder_set_member_name (builder, "points_stride");
  json_builder_add_int_value (builder, ps_event_store_get_counter_stride (store));
  json_builder_set_member_name (builder, "series");
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  ps_cli_json_print_spliced (root, streamed, write_series, counters);
}

/* Text */

static char *
display_or_dash (const char *text)
{
  return text != NULL ? ps_util_display_text (text, -1) : g_strdup ("–");
}

static char **
counter_row (Counters *counters,
             guint32   track)
{
  PsCounterStats stats = counter_stats (counters->store, track);
  PsCounterName name;
  char **cells = g_new0 (char *, 12);

  ps_counter_name_init (&name, counters->store, track, counters->absolute_times);
  cells[0] = display_or_dash (name.machine);
  cells[1] = display_or_dash (name.object);
  cells[2] = display_or_dash (name.instance);
  cells[3] = display_or_dash (name.counter);
  cells[4] = display_or_dash (name.unit);
  cells[5] = g_strdup_printf ("%" PRIu64, stats.n_values);
  cells[6] = g_strdup_printf ("%" PRIu64, stats.n_missing);
  cells[7] = ps_cli_table_format_number (stats.min);
  cells[8] = ps_cli_table_format_number (stats.max);
  cells[9] = ps_cli_table_format_number (stats_mean (&stats));
  cells[10] = ps_cli_table_format_number (stats.last);
  ps_counter_name_clear (&name);
  return cells;
}

static void
print_text (PsEventStore *store,
            Counters     *counters)
{
  g_autoptr(PsCliTable) table = ps_cli_table_new (11);
  g_autofree char *start = NULL;
  guint n = counters->tracks->len;
  char *header[] = {
    _("Machine"), _("Object"), _("Instance"), _("Counter"), _("Unit"),
    _("Count"), _("Missing"), _("Min"), _("Max"), _("Mean"), _("Last"), NULL,
  };

  ps_cli_table_set_alignment (table, "lllllrrrrrr");
  /* A row per counter, too many to hold: measured, then printed */
  ps_cli_table_measure_row (table, header);
  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) cells = counter_row (counters, GPOINTER_TO_UINT (g_ptr_array_index (counters->tracks, i)));

      ps_cli_table_measure_row (table, cells);
    }

  /* Translators: a title; %u is a number of counters */
  printf (g_dngettext (GETTEXT_PACKAGE, "%u counter", "%u counters", n), n);
  if (ps_event_store_get_n_sessions (store) > 0)
    {
      const char *zone = ps_event_store_get_metadata (store, 0, "time_zone");
      const char *first = ps_event_store_get_metadata (store, 0, "first_sample_local");

      if (first != NULL)
        start = zone != NULL ? g_strdup_printf (_(", from %s (%s)"), first, zone) : g_strdup_printf (_(", from %s"), first);
    }
  printf ("%s\n", start != NULL ? start : "");
  ps_cli_table_print_row (table, stdout, "  ", header);
  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) cells = counter_row (counters, GPOINTER_TO_UINT (g_ptr_array_index (counters->tracks, i)));

      ps_cli_table_print_row (table, stdout, "  ", cells);
    }
}

int
ps_cli_counters_print (const PsCliOptions *options,
                       PsEventStore       *store,
                       const char         *path,
                       gboolean            partial)
{
  g_auto(Counters) counters = { 0 };

  counters_init (&counters, store, ps_counter_name_origins_known (store));
  if (counters.tracks->len == 0)
    {
      g_autofree char *name = g_filename_display_name (path);

      /* A partial read has said why already */
      if (!partial)
        ps_cli_print_error (_("“%s” has no performance counters"), name);
      return PS_CLI_EXIT_UNREADABLE;
    }

  if (options->text)
    print_text (store, &counters);
  else
    print_json (store, path, &counters);

  return partial ? PS_CLI_EXIT_PARTIAL : PS_CLI_EXIT_OK;
}

int
ps_cli_counters (const PsCliOptions *options,
                 const char         *file)
{
  g_autoptr(PsEventStore) store = NULL;

  store = ps_cli_load (options, file);
  if (store == NULL)
    return PS_CLI_EXIT_UNREADABLE;

  return ps_cli_counters_print (options, store, file, ps_cli_report_partial (store, file));
}
