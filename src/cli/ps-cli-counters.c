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
#include "ps-counter-changes.h"
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
  gboolean      changes;     /* --changes */
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

static void
write_time (PsCliJsonStream *stream,
            const char      *member,
            gint64           time_ns)
{
  ps_export_append_integer (ps_cli_json_stream_raw (stream, member), time_ns);
}

/* --changes: where the counter's level changed along its time, a step or
 * a climb or fall (ps-counter-changes.h) */
static void
write_changes (PsCliJsonStream *stream,
               PsEventStore    *store,
               guint32          track,
               gint64           origin_ns)
{
  PsCounterOverview overview;
  PsChangePointOptions options;
  g_autoptr(GArray) changes = NULL;

  ps_cli_json_stream_begin_array (stream, "changes");
  ps_change_point_options_init (&options);
  if (ps_event_store_get_counter_overview (store, track, &overview))
    changes = ps_counter_changes_find (&overview, &options);
  for (guint i = 0; changes != NULL && i < changes->len; i++)
    {
      const PsCounterChange *change = &g_array_index (changes, PsCounterChange, i);

      ps_cli_json_stream_begin_object (stream, NULL);
      write_time (stream, "time_ns", change->time_ns + origin_ns);
      write_time (stream, "end_ns", change->end_ns + origin_ns);
      g_string_append_printf (ps_cli_json_stream_raw (stream, "steps"), "%u", change->n_steps);
      ps_cli_json_stream_double (stream, "mean_before", change->mean_before);
      ps_cli_json_stream_double (stream, "mean_after", change->mean_after);
      ps_cli_json_stream_double (stream, "relative_change", change->relative_change);
      ps_cli_json_stream_double (stream, "p_value", change->point.p_value);
      write_time (stream, "before_begin_ns", change->before_begin_ns + origin_ns);
      write_time (stream, "after_end_ns", change->after_end_ns + origin_ns);
      ps_cli_json_stream_end (stream);
    }
  ps_cli_json_stream_end (stream);
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
  if (counters->changes)
    write_changes (stream, counters->store, track, name.origin_ns);
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
  counters.changes = options->counter_changes;
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

static int
run_counters (const PsCliOptions  *options,
              char               **files)
{
  const char *file = files[0];
  g_autoptr(PsEventStore) store = NULL;

  if (options->counter_changes && options->text)
    return ps_cli_usage_error (_("--changes is written in JSON only"));
  store = ps_cli_load (options, file);
  if (store == NULL)
    return PS_CLI_EXIT_UNREADABLE;

  return ps_cli_counters_print (options, store, file, ps_cli_report_partial (store, file));
}

/* stats: a series of kind "counter" per counter track ------------------- */

void
ps_cli_counter_series_append (PsEventStore *store,
                              GPtrArray    *series)
{
  g_auto(Counters) counters = { 0 };
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean thinned = ps_event_store_get_counter_stride (store) > 1;

  counters_init (&counters, store, FALSE);
  for (guint i = 0; i < counters.tracks->len; i++)
    {
      guint32 track = GPOINTER_TO_UINT (g_ptr_array_index (counters.tracks, i));
      const PsTrack *info = ps_event_store_get_track (store, track);
      PsCounterStats stats = counter_stats (store, track);
      PsSeries *one = g_new0 (PsSeries, 1);
      PsCounterName name;

      g_array_set_size (values, 0);
      for (guint64 p = counters.first_point[track]; p < counters.first_point[track + 1]; p++)
        g_array_append_val (values, ps_event_store_get_counter_value (store, counters.points[p])->value);
      ps_stats_compute ((double *) (gpointer) values->data, values->len, &one->stats);
      /* Past the readings kept one by one, the store's own figures are
       * still over every reading; the percentiles are of those kept */
      if (thinned && stats.n_values > 0)
        {
          one->stats.count = stats.n_values;
          one->stats.sum = stats.sum;
          one->stats.min = stats.min;
          one->stats.max = stats.max;
          one->stats.mean = stats_mean (&stats);
        }

      ps_counter_name_init (&name, store, track, FALSE);
      one->name = g_strdup (name.path != NULL ? name.path : name.counter);
      one->unit = name.unit != NULL ? name.unit : "";
      ps_counter_name_clear (&name);
      one->kind = PS_SERIES_COUNTER;
      one->session = info->session != PS_NONE ? info->session : 0;
      one->first_track = track;
      one->tracks = &one->first_track;
      one->n_instances = 1;
      one->first_line = info->line;
      /* Readings without a value are left out of the statistics */
      one->n_excluded = stats.n_missing;
      g_ptr_array_add (series, one);
    }
}

/* The statistics, null without a value */
static void
write_counter_stats (PsCliJsonStream *stream,
                     const PsStats   *stats)
{
  const struct { const char *name; double value; } members[] = {
    { "sum", stats->sum }, { "min", stats->min }, { "max", stats->max }, { "mean", stats->mean },
    { "median", stats->median }, { "p90", stats->p90 }, { "p95", stats->p95 }, { "p99", stats->p99 },
    { "stddev", stats->stddev },
  };

  ps_cli_json_stream_int (stream, "count", (gint64) stats->count);
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    ps_cli_json_stream_double (stream, members[i].name, stats->count > 0 ? members[i].value : NAN);
}

void
ps_cli_counter_series_write (PsCliJsonStream *stream,
                             PsEventStore    *store,
                             const PsSeries  *series)
{
  PsCounterName name;

  ps_counter_name_init (&name, store, series->first_track, FALSE);
  ps_cli_json_stream_begin_object (stream, NULL);
  ps_cli_json_stream_string (stream, "name", series->name);
  ps_cli_json_stream_string (stream, "kind", ps_series_kind_to_string (series->kind));
  ps_cli_json_stream_string (stream, "unit", series->unit);
  ps_cli_json_stream_int (stream, "session", series->session);
  ps_cli_json_stream_string (stream, "machine", name.machine);
  ps_cli_json_stream_string (stream, "object", name.object);
  ps_cli_json_stream_string (stream, "instance", name.instance);
  ps_cli_json_stream_string (stream, "counter", name.counter);
  write_counter_stats (stream, &series->stats);
  ps_cli_json_stream_int (stream, "excluded", (gint64) series->n_excluded);
  ps_cli_json_stream_int (stream, "flagged", (gint64) series->n_flagged);
  ps_cli_json_stream_end (stream);
  ps_counter_name_clear (&name);
}

void
ps_cli_counter_series_print (GPtrArray *series)
{
  static const char * const stat_labels[] = {
    N_("Sum"), N_("Min"), N_("Max"), N_("Mean"), N_("Median"),
    N_("P90"), N_("P95"), N_("P99"), N_("Stddev"),
  };
  g_autoptr(GHashTable) done = g_hash_table_new (g_str_hash, g_str_equal);

  /* A table per unit, in the order of its first series */
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *first = g_ptr_array_index (series, i);
      g_autoptr(PsCliTable) table = NULL;
      GPtrArray *cells;

      if (first->kind != PS_SERIES_COUNTER || g_hash_table_contains (done, first->unit))
        continue;
      g_hash_table_add (done, (gpointer) first->unit);

      /* Session, Count, Sum … Stddev, Excluded, Name */
      table = ps_cli_table_new (2 + G_N_ELEMENTS (stat_labels) + 2);
      ps_cli_table_set_alignment (table, "rrrrrrrrrrrrl");
      cells = g_ptr_array_new ();
      g_ptr_array_add (cells, g_strdup (_("Session")));
      g_ptr_array_add (cells, g_strdup (_("Count")));
      for (guint l = 0; l < G_N_ELEMENTS (stat_labels); l++)
        g_ptr_array_add (cells, first->unit[0] != '\0'
                                /* Translators: a column header with its unit, "Mean (s)" */
                                ? g_strdup_printf (_("%s (%s)"), _(stat_labels[l]), first->unit)
                                : g_strdup (_(stat_labels[l])));
      g_ptr_array_add (cells, g_strdup (_("Excluded")));
      g_ptr_array_add (cells, g_strdup (_("Name")));
      g_ptr_array_add (cells, NULL);
      ps_cli_table_add_row_strv_take (table, (char **) g_ptr_array_free (cells, FALSE));

      for (guint j = i; j < series->len; j++)
        {
          const PsSeries *one = g_ptr_array_index (series, j);
          const PsStats *stats = &one->stats;
          const double numbers[] = {
            stats->sum, stats->min, stats->max, stats->mean, stats->median,
            stats->p90, stats->p95, stats->p99, stats->stddev,
          };

          if (one->kind != PS_SERIES_COUNTER || strcmp (one->unit, first->unit) != 0)
            continue;
          cells = g_ptr_array_new ();
          g_ptr_array_add (cells, g_strdup_printf ("%u", one->session));
          g_ptr_array_add (cells, g_strdup_printf ("%" PRIu64, stats->count));
          for (guint v = 0; v < G_N_ELEMENTS (numbers); v++)
            g_ptr_array_add (cells, ps_cli_table_format_number (stats->count > 0 ? numbers[v] : NAN));
          g_ptr_array_add (cells, g_strdup_printf ("%" PRIu64, one->n_excluded));
          g_ptr_array_add (cells, ps_util_display_text (one->name, -1));
          g_ptr_array_add (cells, NULL);
          ps_cli_table_add_row_strv_take (table, (char **) g_ptr_array_free (cells, FALSE));
        }

      if (g_hash_table_size (done) > 1)
        printf ("\n");
      printf ("%s (%s)\n", _("Counters"), first->unit[0] != '\0' ? first->unit : _("no unit"));
      ps_cli_table_print (table, stdout, "  ");
    }
}

static const PsCliOption changes = {
  .long_name = "changes", .offset = G_STRUCT_OFFSET (PsCliOptions, counter_changes),
  .description = N_("counters: where each counter's level changed along its time, a step or a climb (JSON only)"),
};

static const PsCliOption * const counters_options[] = {
  PS_CLI_READ_OPTIONS,
  PS_CLI_PRINT_OPTIONS,
  &changes,
  NULL,
};

const PsCliCommand ps_cli_counters_command = {
  .name = "counters",
  .files = "FILE",
  .summary = N_("performance counter series: points [time_ns, value] (missing samples "
                "left out), unit, min, max, mean and last"),
  .files_error = N_("counters needs exactly one FILE"),
  .min_files = 1,
  .max_files = 1,
  .options = counters_options,
  .run = run_counters,
};
