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

typedef struct
{
  gint64 time_ns;
  double value;
} Point;

typedef struct
{
  guint32        track;
  PsCounterName  name;
  GArray        *points;     /* Point */
  PsCounterStats stats;
} CounterSeries;

static void
counter_series_free (gpointer data)
{
  CounterSeries *series = data;

  ps_counter_name_clear (&series->name);
  g_array_unref (series->points);
  g_free (series);
}

static CounterSeries *
counter_series_new (PsEventStore *store,
                    guint32       index,
                    gboolean      absolute_times)
{
  CounterSeries *series = g_new0 (CounterSeries, 1);

  series->track = index;
  ps_counter_name_init (&series->name, store, index, absolute_times);
  series->points = g_array_new (FALSE, FALSE, sizeof (Point));
  if (ps_event_store_get_counter_stats (store, index) != NULL)
    series->stats = *ps_event_store_get_counter_stats (store, index);
  else
    series->stats.min = series->stats.max = series->stats.last = NAN;
  return series;
}

/* The series in track order, with their points and statistics */
static GPtrArray *
collect_series (PsEventStore *store,
                gboolean      absolute_times)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (counter_series_free);
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  g_autofree guint32 *series_of_track = g_new (guint32, MAX (n_tracks, 1));

  for (guint32 t = 0; t < n_tracks; t++)
    {
      series_of_track[t] = PS_NONE;
      if (ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER)
        {
          series_of_track[t] = all->len;
          g_ptr_array_add (all, counter_series_new (store, t, absolute_times));
        }
    }

  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      CounterSeries *series;
      Point point;

      if (value->track >= n_tracks || series_of_track[value->track] == PS_NONE)
        continue;
      series = g_ptr_array_index (all, series_of_track[value->track]);

      if (value->flags & PS_COUNTER_FLAG_MISSING)
        continue;
      point.time_ns = value->time_ns + series->name.origin_ns;
      point.value = value->value;
      g_array_append_val (series->points, point);
    }

  return all;
}

static double
series_mean (const CounterSeries *series)
{
  return series->stats.n_values > 0 ? series->stats.sum / (double)series->stats.n_values : NAN;
}

/* JSON */

static void
append_member (GString    *out,
               guint       level,
               const char *name,
               gboolean    first)
{
  if (!first)
    g_string_append_c (out, ',');
  ps_cli_json_append_indent (out, level);
  ps_export_append_json_string (out, name);
  g_string_append (out, ": ");
}

static void
append_string_member (GString    *out,
                      guint       level,
                      const char *name,
                      const char *value)
{
  append_member (out, level, name, FALSE);
  ps_export_append_json_string (out, value);  /* NULL gives null */
}

static void
append_number_member (GString    *out,
                      guint       level,
                      const char *name,
                      double      value)
{
  append_member (out, level, name, FALSE);
  ps_export_append_json_number (out, value);  /* not finite gives null */
}

static void
append_series (GString             *out,
               guint                level,
               const CounterSeries *series)
{
  g_string_append_c (out, '{');
  append_member (out, level + 1, "object", TRUE);
  ps_export_append_json_string (out, series->name.object);
  append_string_member (out, level + 1, "counter", series->name.counter);
  append_string_member (out, level + 1, "instance", series->name.instance);
  /* PDH text logs never name the counter type */
  append_string_member (out, level + 1, "type", series->name.type);
  append_string_member (out, level + 1, "machine", series->name.machine);
  append_string_member (out, level + 1, "unit", series->name.unit);
  append_string_member (out, level + 1, "path", series->name.path);

  append_member (out, level + 1, "points", FALSE);
  if (series->points->len == 0)
    g_string_append (out, "[]");
  else
    {
      g_string_append_c (out, '[');
      for (guint i = 0; i < series->points->len; i++)
        {
          const Point *point = &g_array_index (series->points, Point, i);

          if (i > 0)
            g_string_append_c (out, ',');
          ps_cli_json_append_indent (out, level + 2);
          g_string_append_printf (out, "[%" PRId64 ", ", point->time_ns);
          ps_export_append_json_number (out, point->value);
          g_string_append_c (out, ']');
          ps_cli_json_write_out (out, WRITE_OUT_BYTES);
        }
      ps_cli_json_append_indent (out, level + 1);
      g_string_append_c (out, ']');
    }

  append_member (out, level + 1, "count", FALSE);
  g_string_append_printf (out, "%" PRIu64, series->stats.n_values);
  append_member (out, level + 1, "missing", FALSE);
  g_string_append_printf (out, "%" PRIu64, series->stats.n_missing);
  append_number_member (out, level + 1, "min", series->stats.min);
  append_number_member (out, level + 1, "max", series->stats.max);
  append_number_member (out, level + 1, "mean", series_mean (series));
  append_number_member (out, level + 1, "last", series->stats.last);
  ps_cli_json_append_indent (out, level);
  g_string_append_c (out, '}');
}

static void
write_series (GString    *out,
              const char *member,
              guint       level,
              gpointer    user_data)
{
  GPtrArray *all = user_data;

  if (all->len == 0)
    {
      g_string_append (out, "[]");
      return;
    }

  g_string_append_c (out, '[');
  for (guint i = 0; i < all->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      ps_cli_json_append_indent (out, level + 1);
      append_series (out, level + 1, g_ptr_array_index (all, i));
      ps_cli_json_write_out (out, WRITE_OUT_BYTES);
    }
  ps_cli_json_append_indent (out, level);
  g_string_append_c (out, ']');
}

static void
print_json (PsEventStore *store,
            const char   *path,
            GPtrArray    *all,
            gboolean      absolute_times)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  static const char * const streamed[] = { "series", NULL };

  json_builder_begin_object (builder);
  ps_cli_add_run_members (builder, store, path, FALSE);
  /* "unix": points are in ns since 1970 (UTC); "run": since the first sample */
  json_builder_set_member_name (builder, "time_base");
  json_builder_add_string_value (builder, absolute_times ? "unix" : "run");
  /* 1: every reading is a point; n: every n-th reading of each counter */
  json_builder_set_member_name (builder, "points_stride");
  json_builder_add_int_value (builder, ps_event_store_get_counter_stride (store));
  json_builder_set_member_name (builder, "series");
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  ps_cli_json_print_spliced (root, streamed, write_series, all);
}

/* Text */

static char *
display_or_dash (const char *text)
{
  return text != NULL ? ps_util_display_text (text, -1) : g_strdup ("–");
}

static void
print_text (PsEventStore *store,
            GPtrArray    *all)
{
  g_autoptr(PsCliTable) table = ps_cli_table_new (11);
  g_autofree char *start = NULL;

  ps_cli_table_set_alignment (table, "lllllrrrrrr");
  ps_cli_table_add_row (table, _("Machine"), _("Object"), _("Instance"), _("Counter"), _("Unit"),
                        _("Count"), _("Missing"), _("Min"), _("Max"), _("Mean"), _("Last"), NULL);

  for (guint i = 0; i < all->len; i++)
    {
      const CounterSeries *series = g_ptr_array_index (all, i);

      ps_cli_table_add_row_take (table,
                                 display_or_dash (series->name.machine),
                                 display_or_dash (series->name.object),
                                 display_or_dash (series->name.instance),
                                 display_or_dash (series->name.counter),
                                 display_or_dash (series->name.unit),
                                 g_strdup_printf ("%" PRIu64, series->stats.n_values),
                                 g_strdup_printf ("%" PRIu64, series->stats.n_missing),
                                 ps_cli_table_format_number (series->stats.min),
                                 ps_cli_table_format_number (series->stats.max),
                                 ps_cli_table_format_number (series_mean (series)),
                                 ps_cli_table_format_number (series->stats.last),
                                 NULL);
    }

  /* Translators: a title; %u is a number of counters */
  printf (g_dngettext (GETTEXT_PACKAGE, "%u counter", "%u counters", all->len), all->len);
  if (ps_event_store_get_n_sessions (store) > 0)
    {
      const char *zone = ps_event_store_get_metadata (store, 0, "time_zone");
      const char *first = ps_event_store_get_metadata (store, 0, "first_sample_local");

      if (first != NULL)
        start = zone != NULL ? g_strdup_printf (_(", from %s (%s)"), first, zone) : g_strdup_printf (_(", from %s"), first);
    }
  printf ("%s\n", start != NULL ? start : "");
  ps_cli_table_print (table, stdout, "  ");
}

int
ps_cli_counters_print (const PsCliOptions *options,
                       PsEventStore       *store,
                       const char         *path,
                       gboolean            partial)
{
  g_autoptr(GPtrArray) all = NULL;
  gboolean absolute_times;

  absolute_times = ps_counter_name_origins_known (store);
  all = collect_series (store, absolute_times);
  if (all->len == 0)
    {
      g_autofree char *name = g_filename_display_name (path);

      /* A partial read has said why already */
      if (!partial)
        ps_cli_print_error (_("“%s” has no performance counters"), name);
      return PS_CLI_EXIT_UNREADABLE;
    }

  if (options->text)
    print_text (store, all);
  else
    print_json (store, path, all, absolute_times);

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
