/* ps-timeline-render.c — the rows of a timeline and how they are drawn
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A frame asks the level-of-detail index for each visible row and depth and
 * draws what comes back: at most a few items per pixel column, whatever the
 * number of events. Rectangles of one colour are filled together, and a
 * name is written only into spans wide enough to hold some of it.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ps-chart-util.h"
#include "ps-selection-util.h"
#include "ps-timeline-render.h"
#include "ps-view-util.h"
#include "ps-util.h"

#define N_SPAN_COLORS 10
/* Spans narrower than a pixel, merged, have a colour of their own: one
 * name's colour would say more than is known */
#define DENSE_COLOR   N_SPAN_COLORS
#define N_FILL_COLORS (N_SPAN_COLORS + 1)
#define MIN_LABEL_WIDTH 36.0

/* Model */

static void sample_lane_free (PsSampleLane *lane);
static void forget_label_column (PsTimelineModel *self);

static void
row_free (PsTimelineRow *row)
{
  g_clear_pointer (&row->values, ps_value_lod_unref);
  g_clear_pointer (&row->lane, sample_lane_free);
  if (!row->label_shared)
    g_free (row->label);
  g_free (row->tooltip);
  g_free (row->value_key);
  g_free (row->match_label);
  g_free (row);
}

static PsTimelineRow *
add_row (PsTimelineModel   *self,
         PsTimelineRowKind  kind,
         guint32            track,
         guint              group,
         char              *label)
{
  PsTimelineRow *row = g_new0 (PsTimelineRow, 1);

  row->kind = kind;
  row->track = track;
  row->group = group;
  row->label = label;
  row->unit_scale = 1;
  row->session = G_MAXUINT;
  g_ptr_array_add (self->rows, row);
  return row;
}

/* What matches a chart with the same chart of another run (whose scale it
 * may share): its group's label, its own and its unit */
static void
set_value_key (PsTimelineModel *self,
               PsTimelineRow   *row)
{
  const PsTimelineRow *group = row->group < self->rows->len ? g_ptr_array_index (self->rows, row->group) : NULL;
  const char *group_label = group == NULL ? "" : group->match_label != NULL ? group->match_label : group->label;

  row->value_key = g_strdup_printf ("%s\x1f%s\x1f%s", group_label, row->label,
                                    row->unit != NULL ? row->unit : "");
}

static void
widen_extent (PsTimelineModel *self,
              gint64           begin,
              gint64           end)
{
  self->extent_begin = MIN (self->extent_begin, begin);
  self->extent_end = MAX (self->extent_end, end);
}

static char *
track_label (PsEventStore  *store,
             const PsTrack *track)
{
  const char *raw = ps_event_store_get_string (store, track->name);
  g_autofree char *name = raw != NULL && *raw != '\0' ? ps_util_display_text (raw, -1) : NULL;

  if (track->kind == PS_TRACK_THREAD)
    /* Translators: a timeline row; %s is the thread's id or name */
    return g_strdup_printf (_("Thread %s"), name != NULL ? name : "?");
  /* The counters of many instances share a name ("% Processor Time" of
   * every CPU): their instance tells them apart */
  if (track->kind == PS_TRACK_COUNTER && track->parent != PS_NONE
      && track->parent < ps_event_store_get_n_tracks (store))
    {
      const PsTrack *parent = ps_event_store_get_track (store, track->parent);
      const char *raw_instance = ps_event_store_get_string (store, parent->name);

      if (parent->kind == PS_TRACK_INSTANCE && raw_instance != NULL && *raw_instance != '\0')
        {
          g_autofree char *instance = ps_util_display_text (raw_instance, -1);

          /* Translators: a timeline row of a counter: instance — counter */
          return g_strdup_printf (_("%s — %s"), instance, name != NULL ? name : _("(unnamed)"));
        }
    }
  return g_strdup (name != NULL ? name : _("(unnamed)"));
}

static void
add_span_rows (PsTimelineModel *self)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint group = G_MAXUINT;
  guint group_session = G_MAXUINT;

  if (self->lod == NULL)
    return;

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      guint n_depths = ps_span_lod_get_n_depths (self->lod, t);
      guint64 n_marks = ps_span_lod_get_n_marks (self->lod, t);
      PsTimelineRow *row;

      if (n_depths == 0 && n_marks == 0)
        continue;

      /* One group per session: concatenated logs stay apart */
      if (group == G_MAXUINT || track->session != group_session)
        {
          char *label = n_sessions > 1
            /* Translators: a timeline group; %u is a 1-based number */
            ? g_strdup_printf (_("Threads of session %u"), track->session + 1)
            : g_strdup (_("Threads"));

          group = self->rows->len;
          group_session = track->session;
          add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT, label)->session = n_sessions > 1 ? track->session
                                                                                                 : G_MAXUINT;
        }

      row = add_row (self, PS_TIMELINE_ROW_SPANS, t, group, track_label (store, track));
      row->n_depths = n_depths;
      row->has_marks = n_marks > 0;
      row->tooltip = g_strdup_printf (ngettext ("%s: %" PRIu64 " span, %" PRIu64 " messages",
                                                "%s: %" PRIu64 " spans, %" PRIu64 " messages",
                                                ps_span_lod_get_n_spans (self->lod, t)),
                                      row->label, ps_span_lod_get_n_spans (self->lod, t), n_marks);
    }

  {
    gint64 begin, end;

    /* Spans, marks and every other timed event */
    if (ps_event_store_get_time_range (store, &begin, &end))
      widen_extent (self, begin, end);
  }
}

/* Counter tracks of the store: a chart each, of every counter track or
 * of those in counter_tracks (guint32). The extent is the whole run's
 * either way, so that checking a counter does not move the view. FALSE
 * when cancellable (may be NULL) was cancelled. */
static gboolean
add_counter_rows (PsTimelineModel *self,
                  const GArray    *counter_tracks,
                  GCancellable    *cancellable)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  g_autofree gboolean *wanted = NULL;
  g_autofree GArray **xs = NULL;
  g_autofree GArray **ys = NULL;
  guint n_wanted = 0;
  guint group = G_MAXUINT;
  gint64 begin, end;

  self->counter_rows_begin = self->rows->len;
  if (n_values == 0)
    return TRUE;
  if (ps_event_store_get_time_range (store, &begin, &end))
    widen_extent (self, begin, end);

  wanted = g_new0 (gboolean, n_tracks);
  for (guint t = 0; t < n_tracks; t++)
    if (counter_tracks == NULL)
      wanted[t] = TRUE;
  for (guint i = 0; counter_tracks != NULL && i < counter_tracks->len; i++)
    {
      guint32 t = g_array_index (counter_tracks, guint32, i);

      if (t < n_tracks && !wanted[t])
        wanted[t] = TRUE, n_wanted++;
    }
  if (counter_tracks != NULL && n_wanted == 0)
    return TRUE;

  xs = g_new0 (GArray *, n_tracks);
  ys = g_new0 (GArray *, n_tracks);
  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      double number;

      if (ps_util_stop_at (i, cancellable))
        {
          for (guint32 t = 0; t < n_tracks; t++)
            {
              g_clear_pointer (&xs[t], g_array_unref);
              g_clear_pointer (&ys[t], g_array_unref);
            }
          return FALSE;
        }
      if (value->track >= n_tracks || !wanted[value->track])
        continue;
      if (xs[value->track] == NULL)
        {
          xs[value->track] = g_array_new (FALSE, FALSE, sizeof (gint64));
          ys[value->track] = g_array_new (FALSE, FALSE, sizeof (double));
        }
      number = value->flags & PS_COUNTER_FLAG_MISSING ? NAN : value->value;
      g_array_append_val (xs[value->track], value->time_ns);
      g_array_append_val (ys[value->track], number);
    }

  for (guint32 t = 0; t < n_tracks; t++)
    {
      g_autoptr(GArray) x = g_steal_pointer (&xs[t]);
      g_autoptr(GArray) y = g_steal_pointer (&ys[t]);
      const PsTrack *track = ps_event_store_get_track (store, t);
      PsTimelineRow *row;
      gint64 x_min, x_max;
      double v_min, v_max;
      const char *path;

      if (x == NULL)
        continue;
      if (group == G_MAXUINT)
        {
          group = self->rows->len;
          add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT, g_strdup (_("Counters")));
        }
      row = add_row (self, PS_TIMELINE_ROW_VALUES, t, group, track_label (store, track));
      row->values = ps_value_lod_new ((const gint64 *)(gpointer)x->data, (const double *)(gpointer)y->data, x->len);
      row->unit = g_intern_string (track->unit != 0 ? ps_event_store_get_string (store, track->unit) : "");
      set_value_key (self, row);
      /* A PDH counter's full path (\\Machine\Object(Instance)\Counter) */
      path = track->kind == PS_TRACK_COUNTER ? ps_event_store_get_string (store, track->category) : NULL;
      if (path != NULL && *path != '\0')
        row->tooltip = ps_util_display_text (path, -1);
      if (ps_value_lod_get_range (row->values, &x_min, &x_max, &v_min, &v_max))
        widen_extent (self, x_min, x_max);
    }
  return TRUE;
}

void
ps_timeline_model_set_counter_tracks (PsTimelineModel *self,
                                      const GArray    *counter_tracks)
{
  g_return_if_fail (self != NULL);

  /* Counter rows come last on a time axis (measurements have none) */
  if (self->sequence_axis)
    return;
  g_ptr_array_set_size (self->rows, MIN (self->counter_rows_begin, self->rows->len));
  add_counter_rows (self, counter_tracks, NULL);
  forget_label_column (self);
  ps_timeline_model_layout (self);
}

/* Sampled runs: the rate at which the busiest threads took samples, on up
 * to MAX_SAMPLE_BINS bins over the run, with about 8 samples of the
 * busiest thread in a bin at least (sparser bins are noise) */
#define MAX_SAMPLE_BINS 2000
#define MIN_SAMPLE_BINS 20
#define MAX_SAMPLE_ROWS 24

typedef struct
{
  guint32 track;
  guint64 total;
} TrackTotal;

static int
compare_totals (gconstpointer a,
                gconstpointer b)
{
  const TrackTotal *ta = a;
  const TrackTotal *tb = b;

  if (ta->total != tb->total)
    return ta->total > tb->total ? -1 : 1;
  return ta->track < tb->track ? -1 : ta->track > tb->track;
}

/* The name of a sample source as the rows say it: "CLOCK.HARD", or
 * "Event 2" for one the log does not name; g_free () */
static char *
sample_source_name (PsEventStore *store,
                    guint32       source)
{
  const char *raw = ps_event_store_get_string (store, ps_event_store_get_sample_source (store, source)->name);

  if (raw == NULL || *raw == '\0')
    /* Translators: a sample source the log gives no name */
    return g_strdup_printf (_("Event %u"), source + 1);
  return ps_util_display_text (raw, -1);
}

/* Whether a sample counts in the rows of the model's sample source; the
 * samples of every source set the range the rows cover, so that choosing
 * another source keeps the axis where it is */
static gboolean
sample_counts (const PsTimelineModel *self,
               const PsSample        *sample)
{
  return self->sample_source == PS_NONE || sample->source == self->sample_source;
}

/* FALSE when cancellable (may be NULL) was cancelled */
static gboolean
add_sample_rows (PsTimelineModel *self,
                 GCancellable    *cancellable)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_samples = ps_event_store_get_n_samples (store);
  g_autofree guint64 *totals = NULL;
  g_autofree guint *row_of_track = NULL;
  g_autoptr(GArray) busiest = NULL;
  g_autofree double *counts = NULL;
  g_autofree gint64 *x = NULL;
  g_autofree char *source_name = NULL;
  gint64 begin = G_MAXINT64;
  gint64 end = G_MININT64;
  gint64 width;
  guint n_rows;
  guint n_bins;
  guint group;

  if (n_samples == 0 || n_tracks == 0)
    return TRUE;

  totals = g_new0 (guint64, n_tracks);
  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);

      if (ps_util_stop_at (i, cancellable))
        return FALSE;
      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || sample->track >= n_tracks)
        continue;
      if (sample_counts (self, sample))
        totals[sample->track] += sample->weight;
      begin = MIN (begin, sample->time_ns);
      end = MAX (end, sample->time_ns);
    }
  if (begin > end)
    return TRUE;
  widen_extent (self, begin, end);

  busiest = g_array_new (FALSE, FALSE, sizeof (TrackTotal));
  for (guint32 t = 0; t < n_tracks; t++)
    if (totals[t] > 0)
      {
        TrackTotal total = { t, totals[t] };
        g_array_append_val (busiest, total);
      }
  if (busiest->len == 0)
    return TRUE;
  g_array_sort (busiest, compare_totals);
  n_rows = MIN (busiest->len, MAX_SAMPLE_ROWS);

  row_of_track = g_new (guint, n_tracks);
  for (guint t = 0; t < n_tracks; t++)
    row_of_track[t] = G_MAXUINT;
  for (guint r = 0; r < n_rows; r++)
    row_of_track[g_array_index (busiest, TrackTotal, r).track] = r;

  n_bins = (guint)CLAMP (g_array_index (busiest, TrackTotal, 0).total / 8, MIN_SAMPLE_BINS, MAX_SAMPLE_BINS);
  width = MAX ((end - begin) / n_bins + 1, 1);
  counts = g_new0 (double, (gsize)n_rows * n_bins);
  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      guint row;

      if (ps_util_stop_at (i, cancellable))
        return FALSE;
      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || sample->track >= n_tracks || !sample_counts (self, sample))
        continue;
      row = row_of_track[sample->track];
      if (row != G_MAXUINT)
        counts[(gsize)row * n_bins + MIN ((guint64)((sample->time_ns - begin) / width), n_bins - 1)] += sample->weight;
    }

  x = g_new (gint64, n_bins);
  for (guint b = 0; b < n_bins; b++)
    x[b] = begin + (gint64)b * width;

  if (self->sample_source != PS_NONE)
    source_name = sample_source_name (store, self->sample_source);
  group = self->rows->len;
  if (source_name != NULL)
    add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
             busiest->len > n_rows
             /* Translators: a timeline group; %s is an event ("CLOCK.HARD"), %u how many threads it shows */
             ? g_strdup_printf (ngettext ("Samples of %s of the busiest thread", "Samples of %s of the %u busiest threads",
                                          n_rows), source_name, n_rows)
             /* Translators: a timeline group; %s is an event ("CLOCK.HARD") */
             : g_strdup_printf (_("Samples of %s"), source_name));
  else
    add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
             busiest->len > n_rows
             /* Translators: a timeline group; %u is how many threads it shows */
             ? g_strdup_printf (ngettext ("Samples of the busiest thread", "Samples of the %u busiest threads", n_rows), n_rows)
             : g_strdup (_("Samples")));
  for (guint r = 0; r < n_rows; r++)
    {
      const TrackTotal *total = &g_array_index (busiest, TrackTotal, r);
      double *rates = counts + (gsize)r * n_bins;
      PsTimelineRow *row;
      g_autofree char *width_text = ps_util_format_seconds ((double)width / 1e9);

      /* Samples per second over each bin */
      for (guint b = 0; b < n_bins; b++)
        rates[b] = rates[b] * 1e9 / (double)width;
      row = add_row (self, PS_TIMELINE_ROW_VALUES, total->track, group,
                     track_label (store, ps_event_store_get_track (store, total->track)));
      row->values = ps_value_lod_new (x, rates, n_bins);
      row->unit = g_intern_string (_("samples/s"));
      set_value_key (self, row);
      if (source_name != NULL)
        /* Translators: a chart's tooltip: a thread, its samples of an event, how long a bin is */
        row->tooltip = g_strdup_printf (ngettext ("%s: %" PRIu64 " sample of %s, counted in bins of %s",
                                                  "%s: %" PRIu64 " samples of %s, counted in bins of %s",
                                                  total->total),
                                        row->label, total->total, source_name, width_text);
      else
        row->tooltip = g_strdup_printf (ngettext ("%s: %" PRIu64 " sample of any event, counted in bins of %s",
                                                  "%s: %" PRIu64 " samples of any event, counted in bins of %s",
                                                  total->total),
                                        row->label, total->total, width_text);
    }
  return TRUE;
}

/* Sample lanes: a row per thread with a tick per sample, in the colour
 * of the module of the function it was taken in */

struct _PsSampleLane
{
  guint32 *samples;    /* indices of the store's samples, by time */
  /* Read for every pixel column drawn, so kept together rather than
   * looked up in the store's samples of every thread */
  gint64  *times;      /* each one's time */
  guint32 *modules;    /* the module of each one's leaf frame (a string id) */
  guint    n_samples;
  guint64  weight;     /* their summed weight */
};

static void
sample_lane_free (PsSampleLane *lane)
{
  if (lane == NULL)
    return;
  g_free (lane->samples);
  g_free (lane->times);
  g_free (lane->modules);
  g_free (lane);
}

static guint32 sample_module (PsEventStore *store,
                              guint64       index);

static int
compare_sample_times (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  PsEventStore *store = user_data;
  guint32 index_a = *(const guint32 *)a;
  guint32 index_b = *(const guint32 *)b;
  gint64 time_a = ps_event_store_get_sample (store, index_a)->time_ns;
  gint64 time_b = ps_event_store_get_sample (store, index_b)->time_ns;

  if (time_a != time_b)
    return time_a < time_b ? -1 : 1;
  return index_a < index_b ? -1 : index_a > index_b;
}

/* A lane per thread (or process) with timed samples of the model's
 * sample source, the busiest first; a store index of 4 bytes per sample.
 * FALSE when cancellable (may be NULL) was cancelled. */
static gboolean
add_sample_lanes (PsTimelineModel *self,
                  GCancellable    *cancellable)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_samples = ps_event_store_get_n_samples (store);
  g_autofree PsSampleLane **lanes = NULL;
  g_autofree gboolean *unsorted = NULL;
  g_autoptr(GArray) order = NULL;
  g_autofree char *source_name = NULL;
  gint64 begin = G_MAXINT64, end = G_MININT64;
  guint group;

  /* Indices of 4 bytes: a run of more samples than that has no lanes */
  if (n_samples == 0 || n_tracks == 0 || n_samples > G_MAXUINT32)
    return TRUE;

  lanes = g_new0 (PsSampleLane *, n_tracks);
  unsorted = g_new0 (gboolean, n_tracks);
  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);

      if (ps_util_stop_at (i, cancellable))
        goto cancelled;
      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || sample->track >= n_tracks)
        continue;
      begin = MIN (begin, sample->time_ns);
      end = MAX (end, sample->time_ns);
      if (!sample_counts (self, sample))
        continue;
      if (lanes[sample->track] == NULL)
        lanes[sample->track] = g_new0 (PsSampleLane, 1);
      lanes[sample->track]->n_samples++;
      lanes[sample->track]->weight += sample->weight;
    }
  for (guint t = 0; t < n_tracks; t++)
    if (lanes[t] != NULL)
      {
        lanes[t]->samples = g_new (guint32, lanes[t]->n_samples);
        lanes[t]->n_samples = 0;
      }
  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      PsSampleLane *lane;

      if (ps_util_stop_at (i, cancellable))
        goto cancelled;
      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || sample->track >= n_tracks || !sample_counts (self, sample))
        continue;
      lane = lanes[sample->track];
      /* Logs keep the order of their buffers, not always of time */
      if (lane->n_samples > 0
          && ps_event_store_get_sample (store, lane->samples[lane->n_samples - 1])->time_ns > sample->time_ns)
        unsorted[sample->track] = TRUE;
      lane->samples[lane->n_samples++] = (guint32)i;
    }
  if (begin <= end)
    widen_extent (self, begin, end);

  order = g_array_new (FALSE, FALSE, sizeof (TrackTotal));
  for (guint32 t = 0; t < n_tracks; t++)
    if (lanes[t] != NULL)
      {
        TrackTotal total = { t, lanes[t]->weight };

        if (unsorted[t])
          g_qsort_with_data (lanes[t]->samples, lanes[t]->n_samples, sizeof (guint32), compare_sample_times, store);
        lanes[t]->times = g_new (gint64, lanes[t]->n_samples);
        lanes[t]->modules = g_new (guint32, lanes[t]->n_samples);
        for (guint i = 0; i < lanes[t]->n_samples; i++)
          {
            lanes[t]->times[i] = ps_event_store_get_sample (store, lanes[t]->samples[i])->time_ns;
            lanes[t]->modules[i] = sample_module (store, lanes[t]->samples[i]);
          }
        g_array_append_val (order, total);
      }
  if (order->len == 0)
    return TRUE;
  g_array_sort (order, compare_totals);

  if (self->sample_source != PS_NONE)
    source_name = sample_source_name (store, self->sample_source);
  group = self->rows->len;
  add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
           source_name != NULL
           /* Translators: a timeline group; %s is an event ("CLOCK.HARD"), %u a number of threads */
           ? g_strdup_printf (ngettext ("Samples of %s in %u thread, a tick each",
                                        "Samples of %s in %u threads, a tick each", order->len),
                              source_name, order->len)
           /* Translators: a timeline group; %u is a number of threads */
           : g_strdup_printf (ngettext ("Samples of %u thread, a tick each", "Samples of %u threads, a tick each",
                                        order->len),
                              order->len));
  for (guint i = 0; i < order->len; i++)
    {
      guint32 t = g_array_index (order, TrackTotal, i).track;
      PsTimelineRow *row = add_row (self, PS_TIMELINE_ROW_SAMPLES, t, group,
                                    track_label (store, ps_event_store_get_track (store, t)));

      row->lane = g_steal_pointer (&lanes[t]);
      if (source_name != NULL)
        /* Translators: a lane's tooltip: a thread, its samples of an event */
        row->tooltip = g_strdup_printf (ngettext ("%s: %" PRIu64 " sample of %s, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                  "%s: %" PRIu64 " samples of %s, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                  row->lane->weight),
                                        row->label, row->lane->weight, source_name);
      else
        row->tooltip = g_strdup_printf (ngettext ("%s: %" PRIu64 " sample of any event, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                "%s: %" PRIu64 " samples of any event, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                row->lane->weight),
                                      row->label, row->lane->weight);
    }
  return TRUE;

cancelled:
  for (guint t = 0; t < n_tracks; t++)
    sample_lane_free (lanes[t]);
  return FALSE;
}

/* The rates of the busiest threads (a group at rates_group) say less than
 * the lanes after them: they start closed */
static void
collapse_rates_under_lanes (PsTimelineModel *self,
                            guint            rates_group)
{
  PsTimelineRow *group, *first, *last;

  if (rates_group + 1 >= self->rows->len)
    return;
  group = g_ptr_array_index (self->rows, rates_group);
  first = g_ptr_array_index (self->rows, rates_group + 1);
  last = g_ptr_array_index (self->rows, self->rows->len - 1);
  if (group->kind == PS_TIMELINE_ROW_GROUP && first->kind == PS_TIMELINE_ROW_VALUES
      && last->kind == PS_TIMELINE_ROW_SAMPLES)
    group->collapsed = TRUE;
}

/* The first sample of a lane at or after time, from `from` on: in steps
 * that double from `from`, then halve, so that the next pixel column's
 * first sample, a few samples on, takes a few looks */
static guint
lane_lower_bound (const PsSampleLane *lane,
                  guint               from,
                  gint64              time)
{
  const gint64 *times = lane->times;
  guint low = from, high, step = 1;

  if (low >= lane->n_samples || times[low] >= time)
    return low;
  /* The sample at low is before time */
  while (low + step < lane->n_samples && times[low + step] < time)
    {
      low += step;
      step *= 2;
    }
  high = MIN (low + step, lane->n_samples);
  low++;
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (times[mid] < time)
        low = mid + 1;
      else
        high = mid;
    }
  return low;
}

/* The module of the frame a sample was taken in (a string id, 0 for none) */
static guint32
sample_module (PsEventStore *store,
               guint64       index)
{
  const PsSample *sample = ps_event_store_get_sample (store, index);
  const PsStackNode *node = sample->stack != 0 ? ps_event_store_get_stack_node (store, sample->stack) : NULL;

  if (node == NULL || node->frame >= ps_event_store_get_n_frames (store))
    return 0;
  return ps_event_store_get_frame (store, node->frame)->module;
}

void
ps_timeline_sample_color (PsEventStore *store,
                          guint64       sample,
                          gboolean      dark,
                          GdkRGBA      *color)
{
  const char *module = ps_event_store_get_string (store, sample_module (store, sample));

  ps_chart_module_color (module, dark, color);
}

gboolean
ps_timeline_lane_find (const PsTimelineRow *row,
                       PsEventStore        *store,
                       gint64               time,
                       gint64               slop,
                       guint64             *nearest,
                       guint64             *n_samples)
{
  const PsSampleLane *lane;
  guint first, last, at;
  gint64 best_distance = G_MAXINT64;

  g_return_val_if_fail (row != NULL, FALSE);

  lane = row->lane;
  if (lane == NULL || lane->n_samples == 0)
    return FALSE;
  first = lane_lower_bound (lane, 0, time - slop);
  last = lane_lower_bound (lane, first, time + slop + 1);
  if (first == last)
    return FALSE;

  /* The nearest is next to where time would go */
  at = lane_lower_bound (lane, first, time);
  for (guint i = at > first ? at - 1 : at; i <= at && i < last; i++)
    {
      gint64 distance = ABS (lane->times[i] - time);

      if (distance < best_distance)
        {
          best_distance = distance;
          if (nearest != NULL)
            *nearest = lane->samples[i];
        }
    }
  if (n_samples != NULL)
    *n_samples = last - first;
  return TRUE;
}

char *
ps_timeline_describe_samples (const PsTimelineModel *model,
                              const PsTimelineRow   *row,
                              gint64                 time,
                              gint64                 slop)
{
  PsEventStore *store = model->store;
  guint64 index = 0, n_here = 0;
  const PsSample *sample;
  const PsStackNode *node;
  const PsSampleSource *source;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *when = NULL;
  g_autofree char *event = NULL;

  if (!ps_timeline_lane_find (row, store, time, slop, &index, &n_here))
    return NULL;

  sample = ps_event_store_get_sample (store, index);
  node = sample->stack != 0 ? ps_event_store_get_stack_node (store, sample->stack) : NULL;
  if (node != NULL && node->frame < ps_event_store_get_n_frames (store))
    {
      const char *module = ps_event_store_get_string (store, ps_event_store_get_frame (store, node->frame)->module);
      g_autoptr(GString) name = g_string_new (NULL);
      g_autofree char *display = NULL;

      ps_event_store_append_frame_name (store, node->frame, name);
      display = ps_util_display_text (name->str, -1);
      g_string_append (text, display);
      if (module != NULL && *module != '\0')
        {
          g_autofree char *display_module = ps_util_display_text (module, -1);

          /* Translators: the module of the function a sample was taken in */
          g_string_append_printf (text, _(" in %s"), display_module);
        }
    }
  else
    g_string_append (text, _("A sample without a call stack"));

  when = ps_timeline_format_x (model, (double)sample->time_ns, 1000);
  source = sample->source < ps_event_store_get_n_sample_sources (store)
           ? ps_event_store_get_sample_source (store, sample->source) : NULL;
  event = ps_util_display_text (source != NULL ? ps_event_store_get_string (store, source->name) : "", -1);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, (sample->flags & PS_SAMPLE_FLAG_KERNEL)
                                /* Translators: a sample's tooltip: its event and time */
                                ? _("A sample of %s at %s, in kernel mode")
                                : _("A sample of %s at %s, in user mode"),
                          event, when);
  g_string_append_c (text, '\n');
  g_string_append (text, row->label);
  if (n_here > 1)
    {
      g_string_append_c (text, '\n');
      /* Translators: samples under the pointer; the nearest is described */
      g_string_append_printf (text, ngettext ("%" PRIu64 " sample here; the nearest is shown",
                                              "%" PRIu64 " samples here; the nearest is shown", n_here),
                              n_here);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
add_series_rows (PsTimelineModel        *self,
                 const PsTimelineSeries *series,
                 guint                   n_series)
{
  gboolean per_session = ps_event_store_get_n_sessions (self->store) > 1;
  guint group = G_MAXUINT;
  guint32 group_category = PS_NONE;
  guint32 group_session = G_MAXUINT;
  /* The last row's series label and row */
  const char *last_label = NULL;
  PsTimelineRow *last_row = NULL;

  for (guint i = 0; i < n_series; i++)
    {
      const PsTimelineSeries *one = &series[i];
      const PsTrack *track = ps_event_store_get_track (self->store, one->track);
      guint32 category = track != NULL ? track->category : 0;
      guint32 session = track != NULL && per_session ? track->session : G_MAXUINT;
      PsTimelineRow *row;
      gint64 x_min, x_max;
      double v_min, v_max;

      if (one->n_points == 0)
        {
          if (one->points_release != NULL)
            one->points_release (one->points_owner);
          else if (one->take_points)
            {
              g_free ((gpointer)one->x);
              g_free ((gpointer)one->values);
            }
          continue;
        }
      /* CE: one group per application, and per session in appended
       * logs, where each session registers its applications anew */
      if (group == G_MAXUINT || category != group_category || session != group_session)
        {
          const char *raw = ps_event_store_get_string (self->store, category);
          char *name = raw != NULL && *raw != '\0' ? ps_util_display_text (raw, -1) : g_strdup (_("Markers"));
          PsTimelineRow *group_row;

          group = self->rows->len;
          group_category = category;
          group_session = session;
          if (session == G_MAXUINT)
            group_row = add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT, name);
          else
            {
              /* Translators: an application's rows, or a thread, of one
               * of the runs appended to one log */
              group_row = add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
                                   g_strdup_printf (_("%s (session %u)"), name, session + 1));
              group_row->match_label = name;
            }
          group_row->session = session;
        }
      /* The instances of one marker, one after another: their text once,
       * which also spares the label column hashing each row's */
      if (last_row != NULL && last_row->group == group && g_strcmp0 (one->label, last_label) == 0)
        {
          row = add_row (self, PS_TIMELINE_ROW_VALUES, one->track, group, last_row->label);
          row->label_shared = TRUE;
        }
      else
        row = add_row (self, PS_TIMELINE_ROW_VALUES, one->track, group, ps_util_display_text (one->label, -1));
      last_label = one->label;
      last_row = row;
      if (one->points_release != NULL)
        row->values = ps_value_lod_new_in_block (one->x, one->values, one->n_points, one->points_owner,
                                                 one->points_release);
      else if (one->take_points)
        row->values = ps_value_lod_new_take ((gint64 *)one->x, (double *)one->values, one->n_points);
      else
        row->values = ps_value_lod_new (one->x, one->values, one->n_points);
      row->unit = g_intern_string (one->unit != NULL ? one->unit : "");
      row->unit_scale = one->unit_scale > 0 ? one->unit_scale : 1;
      set_value_key (self, row);
      /* Its tooltip is written when asked for (ps_timeline_row_tooltip ()):
       * a CE log has a row per marker instance */
      row->counts_values = TRUE;
      if (ps_value_lod_get_range (row->values, &x_min, &x_max, &v_min, &v_max))
        widen_extent (self, x_min, x_max);
    }
}

gboolean
ps_timeline_store_has_sequence_axis (PsEventStore *store)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);

  return ps_event_store_get_n_measurements (store) > 0 && ps_event_store_get_n_spans (store) == 0;
}

PsTimelineModel *
ps_timeline_model_new (PsEventStore           *store,
                       PsSpanLod              *lod,
                       const PsTimelineSeries *series,
                       guint                   n_series,
                       gboolean                sequence_axis)
{
  return ps_timeline_model_new_full (store, lod, series, n_series, sequence_axis, NULL, PS_NONE, NULL);
}

static PsTimelineModel *
model_alloc (PsEventStore *store,
             PsSpanLod    *lod,
             gboolean      sequence_axis,
             guint32       sample_source)
{
  PsTimelineModel *self = g_new0 (PsTimelineModel, 1);

  self->store = g_object_ref (store);
  self->lod = lod != NULL ? ps_span_lod_ref (lod) : NULL;
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)row_free);
  self->sequence_axis = sequence_axis;
  self->extent_begin = G_MAXINT64;
  self->extent_end = G_MININT64;
  self->sample_source = sample_source < ps_event_store_get_n_sample_sources (store) ? sample_source : PS_NONE;
  return self;
}

/* A sampled run's busiest threads' rates, then its samples themselves,
 * under which the rates start closed: the rows before sample_rows_end.
 * FALSE when cancellable (may be NULL) was cancelled. */
static gboolean
add_all_sample_rows (PsTimelineModel *self,
                     GCancellable    *cancellable)
{
  guint rates_group = self->rows->len;

  if (!add_sample_rows (self, cancellable) || !add_sample_lanes (self, cancellable))
    return FALSE;
  collapse_rates_under_lanes (self, rates_group);
  self->sample_rows_end = self->rows->len;
  return TRUE;
}

PsTimelineModel *
ps_timeline_model_new_samples (PsEventStore *store,
                               guint32       sample_source,
                               GCancellable *cancellable)
{
  PsTimelineModel *self;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = model_alloc (store, NULL, FALSE, sample_source);
  if (!add_all_sample_rows (self, cancellable))
    {
      ps_timeline_model_free (self);
      return NULL;
    }
  return self;
}

/* Whether the row after a group (r + 1 < end) is of that kind */
static gboolean
group_leads_to (GPtrArray         *rows,
                guint              r,
                guint              end,
                PsTimelineRowKind  kind)
{
  const PsTimelineRow *row = g_ptr_array_index (rows, r);

  return row->kind == PS_TIMELINE_ROW_GROUP && r + 1 < end
         && ((const PsTimelineRow *)g_ptr_array_index (rows, r + 1))->kind == kind;
}

void
ps_timeline_model_take_sample_rows (PsTimelineModel *self,
                                    PsTimelineModel *samples)
{
  guint old_end, new_end;

  g_return_if_fail (self != NULL);
  g_return_if_fail (samples != NULL && samples->store == self->store);

  old_end = MIN (self->sample_rows_end, self->rows->len);
  new_end = MIN (samples->sample_rows_end, samples->rows->len);
  /* A group of rates or of lanes stays open or closed as the user left it */
  for (guint r = 0; r + 1 < new_end; r++)
    for (guint o = 0; o + 1 < old_end; o++)
      {
        PsTimelineRow *row = g_ptr_array_index (samples->rows, r);
        const PsTimelineRow *next = g_ptr_array_index (samples->rows, r + 1);

        if (row->kind == PS_TIMELINE_ROW_GROUP && group_leads_to (self->rows, o, old_end, next->kind))
          row->collapsed = ((const PsTimelineRow *)g_ptr_array_index (self->rows, o))->collapsed;
      }

  g_ptr_array_remove_range (self->rows, 0, old_end);
  for (guint r = new_end; r > 0; r--)
    g_ptr_array_insert (self->rows, 0, g_ptr_array_steal_index (samples->rows, r - 1));
  /* The rows after them point to their groups by index */
  for (guint r = new_end; r < self->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->rows, r);

      if (row->group != G_MAXUINT)
        row->group = row->group - old_end + new_end;
    }
  self->counter_rows_begin = self->counter_rows_begin - old_end + new_end;
  self->sample_rows_end = new_end;
  self->sample_source = samples->sample_source;
  if (samples->extent_begin <= samples->extent_end)
    widen_extent (self, samples->extent_begin, samples->extent_end);
  ps_timeline_model_free (samples);
  ps_timeline_model_layout (self);
}

PsTimelineModel *
ps_timeline_model_new_full (PsEventStore           *store,
                            PsSpanLod              *lod,
                            const PsTimelineSeries *series,
                            guint                   n_series,
                            gboolean                sequence_axis,
                            const GArray           *counter_tracks,
                            guint32                 sample_source,
                            GCancellable           *cancellable)
{
  PsTimelineModel *self;
  const PsSessionInfo *session;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = model_alloc (store, lod, sequence_axis, sample_source);

  session = ps_event_store_get_n_sessions (store) > 0 ? ps_event_store_get_session (store, 0) : NULL;
  if (session != NULL && !sequence_axis)
    self->origin_unix_ns = session->origin_unix_ns;

  if (!sequence_axis)
    {
      /* A sampled run's samples before its lifetimes */
      if (!add_all_sample_rows (self, cancellable))
        {
          ps_timeline_model_free (self);
          return NULL;
        }
      add_span_rows (self);
      if (!add_counter_rows (self, counter_tracks, cancellable))
        {
          ps_timeline_model_free (self);
          return NULL;
        }
    }
  add_series_rows (self, series, n_series);

  if (self->extent_begin > self->extent_end)
    self->extent_begin = 0, self->extent_end = 1;
  if (self->extent_end == self->extent_begin)
    self->extent_end++;

  ps_timeline_model_layout (self);
  return self;
}

void
ps_timeline_model_free (PsTimelineModel *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->store);
  g_clear_pointer (&self->lod, ps_span_lod_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_object (&self->labels_context);
  forget_label_column (self);
  g_free (self->overview_busy);
  g_free (self);
}

void
ps_timeline_model_layout (PsTimelineModel *self)
{
  double y = 0;

  /* Rows may have come or gone: the overview counts them again */
  g_clear_pointer (&self->overview_busy, g_free);

  for (guint i = 0; i < self->rows->len; i++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->rows, i);

      row->hidden = row->group != G_MAXUINT &&
                    ((PsTimelineRow *)g_ptr_array_index (self->rows, row->group))->collapsed;
      row->y = y;
      switch (row->kind)
        {
        case PS_TIMELINE_ROW_GROUP:
          row->height = PS_TIMELINE_GROUP_HEIGHT;
          break;
        case PS_TIMELINE_ROW_SPANS:
          row->height = (row->has_marks ? PS_TIMELINE_MARK_HEIGHT : 0)
                        + MAX (row->n_depths, 1) * PS_TIMELINE_SPAN_HEIGHT + PS_TIMELINE_ROW_GAP;
          break;
        case PS_TIMELINE_ROW_SAMPLES:
          row->height = PS_TIMELINE_LANE_HEIGHT + PS_TIMELINE_LANE_GAP;
          break;
        case PS_TIMELINE_ROW_VALUES:
        default:
          row->height = PS_TIMELINE_VALUES_HEIGHT + PS_TIMELINE_ROW_GAP;
          break;
        }
      if (row->hidden)
        row->height = 0;
      y += row->height;
    }
  self->rows_height = y;
}

int
ps_timeline_model_row_at (PsTimelineModel *self,
                          double           y)
{
  guint low = 0, high = self->rows->len;

  if (y < 0)
    return -1;
  /* Rows are placed top to bottom: the last one starting at or above y */
  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      PsTimelineRow *row = g_ptr_array_index (self->rows, mid);

      if (row->y <= y)
        low = mid + 1;
      else
        high = mid;
    }
  while (low > 0)
    {
      PsTimelineRow *row = g_ptr_array_index (self->rows, low - 1);

      if (!row->hidden && row->height > 0)
        return y < row->y + row->height ? (int)low - 1 : -1;
      low--;
    }
  return -1;
}

double
ps_timeline_row_depth_y (const PsTimelineRow *row,
                         guint                depth)
{
  return row->y + (row->has_marks ? PS_TIMELINE_MARK_HEIGHT : 0) + depth * PS_TIMELINE_SPAN_HEIGHT;
}

int
ps_timeline_row_depth_at (const PsTimelineRow *row,
                          double               y)
{
  double top = ps_timeline_row_depth_y (row, 0);
  int depth;

  if (row->kind != PS_TIMELINE_ROW_SPANS || y < top)
    return -1;
  depth = (int)floor ((y - top) / PS_TIMELINE_SPAN_HEIGHT);
  return depth < (int)row->n_depths ? depth : -1;
}

/* The label column */

/* Where a row's label starts and how much room it leaves after it, and
 * the same for the axis' and the overview's names above the rows */
#define ROW_LABEL_START    14.0
#define ROW_LABEL_END      6.0
#define HEADER_LABEL_START 6.0
#define HEADER_LABEL_END   4.0

static const char *
axis_name (const PsTimelineModel *model)
{
  return model->sequence_axis
         /* Translators: the timeline's x axis for data without timestamps */
         ? _("Sequence (no timestamps)")
         /* Translators: the timeline's x axis */
         : _("Time from start");
}

static const char *
overview_name (void)
{
  /* Translators: the strip above the timeline that shows the whole run */
  return _("Whole run");
}

/* In Pango units, as pango_layout_set_width () takes them */
static int
text_width (PangoLayout *layout,
            const char  *text)
{
  int width;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_size (layout, &width, NULL);
  return width;
}

static void
forget_label_column (PsTimelineModel *self)
{
  g_clear_object (&self->label_context);
  g_clear_pointer (&self->row_labels, g_ptr_array_unref);
  g_clear_pointer (&self->label_cuts, g_hash_table_unref);
}

static PangoLayout *
label_layout (PangoContext *pango)
{
  PangoLayout *layout = pango_layout_new (pango);

  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

/* What is measured holds for this context as it is now, else is measured
 * again: its font may have changed */
static void
measure_label_column (PsTimelineModel *self,
                      PangoContext    *pango)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autoptr(GHashTable) measured = NULL;
  const char *last = NULL;
  int widest;

  if (self->label_context == pango && self->label_serial == pango_context_get_serial (pango))
    return;
  forget_label_column (self);
  self->label_context = g_object_ref (pango);
  self->label_serial = pango_context_get_serial (pango);
  layout = label_layout (pango);
  widest = MAX (text_width (layout, axis_name (self)), text_width (layout, overview_name ()));
  self->label_natural_width = HEADER_LABEL_START + HEADER_LABEL_END + (double)widest / PANGO_SCALE;
  /* Each text once: rows repeat them, those of one marker one after
   * another at one address, which is compared without hashing */
  measured = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint r = 0; r < self->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (self->rows, r);

      /* A group's heading spans the whole width */
      if (row->kind == PS_TIMELINE_ROW_GROUP || row->label == last)
        continue;
      last = row->label;
      if (g_hash_table_add (measured, (gpointer)row->label))
        self->label_natural_width = MAX (self->label_natural_width,
                                         ROW_LABEL_START + ROW_LABEL_END
                                         + (double)text_width (layout, row->label) / PANGO_SCALE);
    }
}

double
ps_timeline_model_label_width (PsTimelineModel *self,
                               PangoContext    *pango,
                               int              width)
{
  g_return_val_if_fail (self != NULL, PS_TIMELINE_LABEL_WIDTH);
  g_return_val_if_fail (PANGO_IS_CONTEXT (pango), PS_TIMELINE_LABEL_WIDTH);

  measure_label_column (self, pango);
  /* Whole pixels, so that the column's edge is sharp */
  return ceil (CLAMP (self->label_natural_width, PS_TIMELINE_LABEL_WIDTH,
                      MAX (PS_TIMELINE_LABEL_WIDTH, floor (width * PS_TIMELINE_LABEL_MAX_SHARE))));
}

/* text with keep of its n_chars characters: those of its start, of its
 * end, or half of each, and "…" for the others. With difference (a
 * character's index) past the start, head_share of them from the start
 * and the rest from just before difference on, where it differs from the
 * label it is most like. */
static char *
cut_text_at (const char         *text,
             glong               n_chars,
             glong               keep,
             PangoEllipsizeMode  mode,
             glong               difference,
             double              head_share)
{
  glong n_start = (glong)(keep * head_share);
  g_autofree char *head = NULL;
  g_autofree char *tail = NULL;
  glong n_head = mode == PANGO_ELLIPSIZE_END ? keep
                 : mode == PANGO_ELLIPSIZE_START ? 0
                 : (keep + 1) / 2;

  if (difference > n_start)
    {
      glong from = MAX (n_start, MIN (difference - 2, n_chars - (keep - n_start)));
      g_autofree char *middle = g_utf8_substring (text, from, from + keep - n_start);

      head = g_utf8_substring (text, 0, n_start);
      g_strchomp (head);
      return g_strconcat (head, from > n_start ? "…" : "", middle,
                          from + keep - n_start < n_chars ? "…" : "", NULL);
    }
  head = g_utf8_substring (text, 0, n_head);
  tail = g_utf8_substring (text, n_chars - (keep - n_head), n_chars);
  /* No space next to the "…" */
  g_strchomp (head);
  g_strchug (tail);
  return g_strconcat (head, "…", tail, NULL);
}

/* The longest cut of text, by mode or around difference (-1: none; see
 * cut_text_at ()), that is at most max_width (Pango units) wide; text
 * itself when it fits */
static char *
cut_text (PangoLayout        *layout,
          const char         *text,
          int                 max_width,
          PangoEllipsizeMode  mode,
          glong               difference,
          double              head_share)
{
  glong n_chars = g_utf8_strlen (text, -1);
  glong fits = 0, fails = n_chars;

  if (text_width (layout, text) <= max_width)
    return g_strdup (text);
  /* Characters kept: fits does, fails does not */
  while (fails - fits > 1)
    {
      glong keep = fits + (fails - fits) / 2;
      g_autofree char *cut = cut_text_at (text, n_chars, keep, mode, difference, head_share);

      if (text_width (layout, cut) <= max_width)
        fits = keep;
      else
        fails = keep;
    }
  return cut_text_at (text, n_chars, fits, mode, difference, head_share);
}

/* How many rows are drawn as text: by more. text stays with its cuts
 * while drawn is used. */
static void
count_drawn (GHashTable *drawn,
             const char *text,
             int         by)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (drawn, text));

  g_hash_table_replace (drawn, (gpointer)text, GUINT_TO_POINTER (n + by));
}

/* The label of rows with the same text: its place to cut, found once,
 * and its cuts, made when first asked for. A run of CE logs has hundreds
 * of thousands of marker instances but only some hundred descriptions. */
typedef struct
{
  const char        *text;
  PangoEllipsizeMode preferred;
  glong              difference;
  gboolean           at_two_addresses;
  guint              n_rows;
  /* Every other cut is drawn already: so it stays, as rows only ever
   * take cuts that are not */
  gboolean           exhausted;
  /* Its preferred cut is the text itself */
  gboolean           uncut;
  /* By mode (modes[] of cut_row_labels ()), then by head share */
  char              *cuts[6];
} LabelCuts;

static void
label_cuts_free (gpointer data)
{
  LabelCuts *cuts = data;

  for (guint i = 0; i < G_N_ELEMENTS (cuts->cuts); i++)
    g_free (cuts->cuts[i]);
  g_free (cuts);
}

/* Each row's label as drawn in a column label_width wide. A label that
 * must be cut is cut where it differs from the others
 * (ps_view_ellipsize_mode_among ()); when it then still reads like
 * another row's, the other places are tried, and last its start with
 * the part where it differs from the label it is most like
 * ("Test=Writ…s=512,ti…" and "Test=Writ…s=4096,t…"). */
static void
cut_row_labels (PsTimelineModel *self,
                PangoContext    *pango,
                double           label_width)
{
  static const PangoEllipsizeMode modes[] = {
    PANGO_ELLIPSIZE_MIDDLE, PANGO_ELLIPSIZE_END, PANGO_ELLIPSIZE_START,
  };
  /* Of the characters kept, those of the start in the last tries */
  static const double head_shares[] = { 1 / 3.0, 1 / 2.0, 2 / 3.0 };
  g_autoptr(PangoLayout) layout = label_layout (pango);
  g_autoptr(GHashTable) drawn = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *by_text;
  /* Per text: the first row's label, and a second one at another address */
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autofree LabelCuts **row_cuts = g_new0 (LabelCuts *, MAX (self->rows->len, 1));
  g_autofree PangoEllipsizeMode *preferred = NULL;
  g_autofree gsize *differs_at = NULL;
  const char *last_label = NULL;
  LabelCuts *last_cuts = NULL;
  int max_width = (int)((label_width - ROW_LABEL_START - ROW_LABEL_END) * PANGO_SCALE);

  g_clear_pointer (&self->row_labels, g_ptr_array_unref);
  g_clear_pointer (&self->label_cuts, g_hash_table_unref);
  self->row_labels = g_ptr_array_sized_new (self->rows->len);
  self->label_cuts = by_text = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, label_cuts_free);
  self->row_labels_width = label_width;

  /* Each text takes part in the comparison once, or twice when rows at
   * two addresses have it: that is all ps_view_ellipsize_mode_among ()
   * tells apart */
  for (guint r = 0; r < self->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (self->rows, r);
      LabelCuts *cuts;

      if (row->kind == PS_TIMELINE_ROW_GROUP)
        continue;
      /* The rows of one marker follow each other with one address */
      if (row->label == last_label)
        {
          last_cuts->n_rows++;
          row_cuts[r] = last_cuts;
          continue;
        }
      cuts = g_hash_table_lookup (by_text, row->label);
      if (cuts == NULL)
        {
          cuts = g_new0 (LabelCuts, 1);
          cuts->text = row->label;
          g_hash_table_insert (by_text, (gpointer)row->label, cuts);
          g_ptr_array_add (texts, (gpointer)row->label);
        }
      else if (!cuts->at_two_addresses && row->label != cuts->text)
        {
          cuts->at_two_addresses = TRUE;
          g_ptr_array_add (texts, (gpointer)row->label);
        }
      cuts->n_rows++;
      row_cuts[r] = cuts;
      last_label = row->label;
      last_cuts = cuts;
    }
  preferred = g_new0 (PangoEllipsizeMode, MAX (texts->len, 1));
  differs_at = g_new0 (gsize, MAX (texts->len, 1));
  ps_view_ellipsize_modes_among ((const char * const *)texts->pdata, texts->len, preferred, differs_at);
  for (guint i = 0; i < texts->len; i++)
    {
      const char *text = g_ptr_array_index (texts, i);
      LabelCuts *cuts = g_hash_table_lookup (by_text, text);
      gsize at = differs_at[i];

      if (cuts->text != text)
        continue;
      cuts->preferred = preferred[i];
      /* A character's start */
      while (at > 0 && (text[at] & 0xc0) == 0x80)
        at--;
      cuts->difference = g_utf8_pointer_to_offset (text, text + at);
    }

  for (guint r = 0; r < self->rows->len; r++)
    {
      LabelCuts *cuts = row_cuts[r];
      const char *text = NULL;

      if (cuts != NULL)
        {
          guint m = cuts->preferred == PANGO_ELLIPSIZE_END ? 1 : cuts->preferred == PANGO_ELLIPSIZE_START ? 2 : 0;

          /* All rows of the text are counted with its first */
          if (cuts->cuts[m] == NULL)
            {
              cuts->cuts[m] = cut_text (layout, cuts->text, max_width, cuts->preferred, -1, 0);
              cuts->uncut = strcmp (cuts->cuts[m], cuts->text) == 0;
              count_drawn (drawn, cuts->cuts[m], (int)cuts->n_rows);
            }
          text = cuts->cuts[m];
        }
      g_ptr_array_add (self->row_labels, (gpointer)text);
    }
  for (guint r = 0; r < self->rows->len; r++)
    {
      const char *text = g_ptr_array_index (self->row_labels, r);
      LabelCuts *cuts = row_cuts[r];

      /* Each row comes here with its text's preferred cut: whether that
       * is the text itself is known without comparing them */
      if (text == NULL || cuts->exhausted || cuts->uncut
          || GPOINTER_TO_UINT (g_hash_table_lookup (drawn, text)) < 2)
        continue;
      cuts->exhausted = TRUE;
      for (guint m = 0; m < G_N_ELEMENTS (modes) + G_N_ELEMENTS (head_shares); m++)
        {
          const char *other;

          if (m < G_N_ELEMENTS (modes) && modes[m] == cuts->preferred)
            continue;
          if (cuts->cuts[m] == NULL)
            cuts->cuts[m] = m >= G_N_ELEMENTS (modes)
                            ? cut_text (layout, cuts->text, max_width, PANGO_ELLIPSIZE_END, cuts->difference,
                                        head_shares[m - G_N_ELEMENTS (modes)])
                            : cut_text (layout, cuts->text, max_width, modes[m], -1, 0);
          other = cuts->cuts[m];
          if (!g_hash_table_contains (drawn, other))
            {
              count_drawn (drawn, text, -1);
              count_drawn (drawn, other, 1);
              g_ptr_array_index (self->row_labels, r) = (gpointer)other;
              cuts->exhausted = FALSE;
              break;
            }
        }
    }
}

const char *
ps_timeline_model_row_label (PsTimelineModel *self,
                             PangoContext    *pango,
                             double           label_width,
                             guint            row)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (PANGO_IS_CONTEXT (pango), NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);

  measure_label_column (self, pango);
  if (self->row_labels == NULL || self->row_labels_width != label_width
      || self->row_labels->len != self->rows->len)
    cut_row_labels (self, pango, label_width);
  return g_ptr_array_index (self->row_labels, row);
}

/* Coordinates */

static double
frame_label_width (const PsTimelineFrame *frame)
{
  return frame->label_width > 0 ? frame->label_width : PS_TIMELINE_LABEL_WIDTH;
}

double
ps_timeline_frame_plot_width (const PsTimelineFrame *frame)
{
  return MAX (frame->width - frame_label_width (frame), 1);
}

double
ps_timeline_frame_x_of (const PsTimelineFrame *frame,
                        double                 x_value)
{
  return frame_label_width (frame)
         + (x_value - (double)frame->begin) / (double)(frame->end - frame->begin) * ps_timeline_frame_plot_width (frame);
}

double
ps_timeline_frame_value_at (const PsTimelineFrame *frame,
                            double                 x_pixel)
{
  return (double)frame->begin
         + (x_pixel - frame_label_width (frame)) / ps_timeline_frame_plot_width (frame) * (double)(frame->end - frame->begin);
}

/* Colours */

/* GNOME palette hues, lighter ones for the light style and darker ones for
 * the dark style, so black or white text stays readable on them */
static const GdkRGBA light_colors[N_FILL_COLORS] = {
  { 0.600, 0.757, 0.945, 1 }, /* blue 1 */
  { 0.561, 0.941, 0.643, 1 }, /* green 1 */
  { 0.976, 0.941, 0.420, 1 }, /* yellow 1 */
  { 1.000, 0.745, 0.435, 1 }, /* orange 1 */
  { 0.965, 0.380, 0.318, 1 }, /* red 1 */
  { 0.863, 0.541, 0.867, 1 }, /* purple 1 */
  { 0.804, 0.671, 0.561, 1 }, /* brown 1 */
  { 0.475, 0.851, 0.925, 1 }, /* teal-ish */
  { 0.780, 0.860, 0.500, 1 }, /* lime */
  { 0.960, 0.640, 0.780, 1 }, /* pink */
  { 0.690, 0.710, 0.750, 1 }, /* many short spans */
};

static const GdkRGBA dark_colors[N_FILL_COLORS] = {
  { 0.102, 0.373, 0.706, 1 }, /* blue 5 */
  { 0.149, 0.635, 0.412, 1 }, /* green 5 */
  { 0.612, 0.541, 0.000, 1 },
  { 0.776, 0.275, 0.000, 1 }, /* orange 5 */
  { 0.647, 0.114, 0.176, 1 }, /* red 5 */
  { 0.380, 0.208, 0.514, 1 }, /* purple 5 */
  { 0.388, 0.271, 0.024, 1 }, /* brown 5 */
  { 0.000, 0.447, 0.522, 1 },
  { 0.345, 0.459, 0.110, 1 },
  { 0.612, 0.208, 0.420, 1 },
  { 0.380, 0.400, 0.440, 1 }, /* many short spans */
};

static guint
color_index (guint32 name)
{
  /* Names are small consecutive ids: mix them so neighbours differ */
  return (name * 2654435761u >> 16) % N_SPAN_COLORS;
}

void
ps_timeline_span_color (guint32   name,
                        gboolean  dark,
                        GdkRGBA  *color)
{
  *color = (dark ? dark_colors : light_colors)[color_index (name)];
}

/* Text */

char *
ps_timeline_format_position (gboolean sequence_axis,
                             double   value,
                             double   step)
{
  g_autofree char *number = NULL;
  double seconds, unit_seconds, magnitude;
  const char *unit;
  int decimals;

  if (sequence_axis)
    return g_strdup_printf ("#%.0f", value);

  seconds = value / 1e9;
  magnitude = MAX (fabs (seconds), step / 1e9);
  if (magnitude >= 1)
    unit_seconds = 1, unit = "s";
  else if (magnitude >= 1e-3)
    unit_seconds = 1e-3, unit = "ms";
  else if (magnitude >= 1e-6)
    unit_seconds = 1e-6, unit = "µs";
  else
    unit_seconds = 1e-9, unit = "ns";

  decimals = step <= 0 ? 3 : (int)ceil (-log10 (step / 1e9 / unit_seconds) - 1e-9);
  decimals = CLAMP (decimals, 0, 9);
  if (fabs (seconds) < step / 1e9 * 1e-6)
    seconds = 0;
  /* Digits grouped as in the tables: "1,200 s" */
  number = ps_view_format_fixed (seconds / unit_seconds, decimals);
  return g_strdup_printf ("%s %s", number, unit);
}

char *
ps_timeline_format_x (const PsTimelineModel *model,
                      double                 value,
                      double                 step)
{
  return ps_timeline_format_position (model->sequence_axis, value, step);
}

char *
ps_timeline_format_wall (const PsTimelineModel *model,
                         gint64                 value)
{
  int offset_minutes;

  if (model->origin_unix_ns == 0 || model->sequence_axis)
    return NULL;
  /* In the zone the file gives (a PDH log's), else UTC, named either way */
  ps_view_run_utc_offset (model->store, 0, &offset_minutes);
  return ps_view_format_wall_time (model->origin_unix_ns + value, offset_minutes, "%Y-%m-%d %H:%M:%S");
}

static PangoLayout *
new_layout (const PsTimelineFrame *frame)
{
  PangoLayout *layout = pango_layout_new (frame->pango);

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

static void
draw_layout_text (cairo_t     *cr,
                  PangoLayout *layout,
                  const char  *text,
                  double       x,
                  double       y,
                  double       max_width,
                  double       x_align,
                  double       y_align)
{
  int width, height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, max_width > 0 ? (int)(max_width * PANGO_SCALE) : -1);
  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, round (x - width * x_align), round (y - height * y_align));
  pango_cairo_show_layout (cr, layout);
}

static void
set_color (cairo_t       *cr,
           const GdkRGBA *color,
           double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

/* Spans */

typedef struct
{
  GArray *rects[N_FILL_COLORS];   /* x, y, width, height of each colour */
} RectBatch;

static void
batch_init (RectBatch *batch)
{
  for (guint i = 0; i < N_FILL_COLORS; i++)
    batch->rects[i] = g_array_new (FALSE, FALSE, sizeof (double) * 4);
}

static void
batch_clear (RectBatch *batch)
{
  for (guint i = 0; i < N_FILL_COLORS; i++)
    g_array_unref (batch->rects[i]);
}

static void
batch_add (RectBatch *batch,
           guint      color,
           double     x,
           double     y,
           double     width,
           double     height)
{
  /* Whole pixels: cairo fills pixel-aligned boxes without rasterizing */
  double left = floor (x), right = MAX (ceil (x + width), left + 1);
  double rect[4] = { left, round (y), right - left, round (height) };
  GArray *rects = batch->rects[color];

  /* A box of the same colour that this one touches on the same row grows
   * instead: zoomed out, runs of merged spans become one box */
  if (rects->len > 0)
    {
      double *last = &g_array_index (rects, double, (rects->len - 1) * 4);

      if (last[1] == rect[1] && last[3] == rect[3] && rect[0] >= last[0] && rect[0] <= last[0] + last[2])
        {
          last[2] = MAX (last[0] + last[2], rect[0] + rect[2]) - last[0];
          return;
        }
    }
  g_array_append_vals (rects, rect, 1);
}

static void
batch_fill (RectBatch *batch,
            cairo_t   *cr,
            gboolean   dark,
            double     alpha)
{
  const GdkRGBA *colors = dark ? dark_colors : light_colors;

  for (guint c = 0; c < N_FILL_COLORS; c++)
    {
      GArray *rects = batch->rects[c];

      if (rects->len == 0)
        continue;
      for (guint i = 0; i < rects->len; i++)
        {
          const double *rect = &g_array_index (rects, double, i * 4);

          cairo_rectangle (cr, rect[0], rect[1], rect[2], rect[3]);
        }
      set_color (cr, &colors[c], alpha);
      cairo_fill (cr);
      g_array_set_size (rects, 0);
    }
}

typedef struct
{
  PsTimelineModel       *model;
  const PsTimelineFrame *frame;
  cairo_t               *cr;
  PsTimelineStats       *stats;
  GArray                *items;        /* PsSpanLodItem */
  GArray                *mark_items;   /* PsMarkLodItem */
  GArray                *value_items;  /* PsValueLodItem */
  PangoLayout           *layout;
  RectBatch              batch;
  double                 plot_left;
  double                 plot_right;
  double                 rows_top;   /* the rows' y = 0 on the surface */
  guint                  first_row;  /* none before it reaches below the header */
  double                 ns_per_pixel;
  double                 text_height;
} Render;

/* The visible pixels of [begin, end]: at least one pixel wide */
static gboolean
span_pixels (Render *render,
             gint64  begin,
             gint64  end,
             double *x0,
             double *x1)
{
  double left = ps_timeline_frame_x_of (render->frame, (double)begin);
  double right = ps_timeline_frame_x_of (render->frame, (double)end);

  left = MAX (left, render->plot_left - 1);
  right = MIN (right, render->plot_right + 1);
  if (right < left)
    return FALSE;
  if (right - left < 1)
    right = left + 1;
  *x0 = left;
  *x1 = right;
  return TRUE;
}

/* The layout of a span's name ellipsized to width, made once per name and
 * width (in steps of 8 pixels): shaping text is the costliest part of a
 * frame, and most names come back frame after frame */
static PangoLayout *
span_label (Render  *render,
            guint32  name,
            double   width)
{
  PsTimelineModel *model = render->model;
  int steps = (int)floor (width / 8);
  guint64 key = ((guint64)name << 20) | (guint64)MIN (steps, 0xfffff);
  PangoLayout *layout;
  const char *text;

  if (model->labels == NULL || model->labels_context != render->frame->pango)
    {
      g_clear_pointer (&model->labels, g_hash_table_unref);
      g_set_object (&model->labels_context, render->frame->pango);
      model->labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
    }
  /* Scrolling through a long run meets many names: start over now and then */
  if (g_hash_table_size (model->labels) > 20000)
    g_hash_table_remove_all (model->labels);

  layout = g_hash_table_lookup (model->labels, &key);
  if (layout != NULL)
    return layout;

  text = ps_event_store_get_string (model->store, name);
  if (text == NULL)
    return NULL;
  layout = new_layout (render->frame);
  if (g_utf8_validate (text, -1, NULL))
    pango_layout_set_text (layout, text, -1);
  else
    {
      g_autofree char *converted = ps_util_display_text (text, -1);

      pango_layout_set_text (layout, converted, -1);
    }
  pango_layout_set_width (layout, steps * 8 * PANGO_SCALE);
  g_hash_table_insert (model->labels, g_memdup2 (&key, sizeof key), layout);
  return layout;
}

static void
draw_span_depth (Render              *render,
                 PsSpanLod           *lod,
                 const PsTimelineRow *row,
                 guint                depth,
                 double               y,
                 gboolean             labels,
                 double               alpha)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  guint n;

  g_array_set_size (render->items, 0);
  n = ps_span_lod_query (lod, row->track, depth, frame->begin, frame->end,
                         render->ns_per_pixel, render->items);
  if (n == 0)
    return;

  for (guint i = 0; i < n; i++)
    {
      const PsSpanLodItem *item = &g_array_index (render->items, PsSpanLodItem, i);
      double x0, x1;

      if (!span_pixels (render, item->begin_ns, item->end_ns, &x0, &x1))
        continue;
      /* A gap of a pixel between neighbours shows where one span ends */
      batch_add (&render->batch, (item->flags & PS_SPAN_LOD_ITEM_MERGED) ? DENSE_COLOR : color_index (item->name), x0, y,
                 x1 - x0 > 3 ? x1 - x0 - 1 : x1 - x0, PS_TIMELINE_SPAN_HEIGHT - 1);
      if (render->stats != NULL)
        {
          render->stats->n_items++;
          render->stats->n_spans += item->n_spans;
          if (item->flags & PS_SPAN_LOD_ITEM_MERGED)
            render->stats->n_merged++;
        }
    }
  batch_fill (&render->batch, cr, frame->dark, alpha);

  if (!labels)
    return;

  /* Names in the spans that have room for some of them */
  set_color (cr, frame->dark ? &(GdkRGBA){ 1, 1, 1, 1 } : &(GdkRGBA){ 0, 0, 0, 1 }, alpha < 1 ? 0.6 : 0.9);
  for (guint i = 0; i < n; i++)
    {
      const PsSpanLodItem *item = &g_array_index (render->items, PsSpanLodItem, i);
      PangoLayout *layout;
      double x0, x1;
      int height;

      if (item->flags & PS_SPAN_LOD_ITEM_MERGED)
        continue;
      if (!span_pixels (render, item->begin_ns, item->end_ns, &x0, &x1) || x1 - x0 < MIN_LABEL_WIDTH)
        continue;
      x0 = floor (MAX (x0, render->plot_left));
      x1 = ceil (MIN (x1, render->plot_right));
      if (x1 - x0 < MIN_LABEL_WIDTH)
        continue;
      layout = span_label (render, item->name, x1 - x0 - 6);
      if (layout == NULL)
        continue;
      /* Whole-pixel clips keep glyphs on cairo's fast path */
      pango_layout_get_pixel_size (layout, NULL, &height);
      cairo_save (cr);
      cairo_rectangle (cr, x0, y, x1 - x0, PS_TIMELINE_SPAN_HEIGHT);
      cairo_clip (cr);
      cairo_move_to (cr, x0 + 3, round (y + (PS_TIMELINE_SPAN_HEIGHT - 1 - height) / 2));
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
      if (render->stats != NULL)
        render->stats->n_labels++;
    }
}

static void
draw_marks (Render              *render,
            const PsTimelineRow *row,
            double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  guint n;

  g_array_set_size (render->mark_items, 0);
  n = ps_span_lod_query_marks (render->model->lod, row->track, frame->begin, frame->end,
                               render->ns_per_pixel, render->mark_items);
  for (guint i = 0; i < n; i++)
    {
      const PsMarkLodItem *item = &g_array_index (render->mark_items, PsMarkLodItem, i);
      double x = ps_timeline_frame_x_of (frame, (double)item->time_ns);

      if (x < render->plot_left - 1 || x > render->plot_right + 1)
        continue;
      cairo_rectangle (cr, floor (x), y + 1, 1, PS_TIMELINE_MARK_HEIGHT - 2);
    }
  set_color (cr, &frame->foreground, 0.7);
  cairo_fill (cr);
  if (render->stats != NULL)
    render->stats->n_marks += n;
}

static void
draw_span_row (Render              *render,
               const PsTimelineRow *row,
               double               y)
{
  const PsTimelineFrame *frame = render->frame;
  double alpha = frame->highlight != NULL ? 0.35 : 1.0;

  if (row->has_marks)
    draw_marks (render, row, y);

  for (guint depth = 0; depth < row->n_depths; depth++)
    {
      double depth_y = y + ps_timeline_row_depth_y (row, depth) - row->y;

      if (depth_y + PS_TIMELINE_SPAN_HEIGHT < PS_TIMELINE_HEADER_HEIGHT || depth_y > frame->height)
        continue;
      draw_span_depth (render, render->model->lod, row, depth, depth_y, frame->highlight == NULL, alpha);
      if (frame->highlight != NULL && depth < ps_span_lod_get_n_depths (frame->highlight, row->track))
        draw_span_depth (render, frame->highlight, row, depth, depth_y, TRUE, 1.0);
    }
}

/* Values */

char *
ps_timeline_row_tooltip (const PsTimelineRow *row)
{
  gsize n_points;

  g_return_val_if_fail (row != NULL, NULL);

  if (!row->counts_values || row->values == NULL)
    return g_strdup (row->tooltip);
  n_points = ps_value_lod_get_n_points (row->values);
  return g_strdup_printf (ngettext ("%s: %zu value", "%s: %zu values", n_points), row->label, n_points);
}

gboolean
ps_timeline_row_value_range (const PsTimelineRow *row,
                             GHashTable          *shared_ranges,
                             double              *v_min,
                             double              *v_max)
{
  gint64 x_min, x_max;
  const PsTimelineValueRange *shared;

  g_return_val_if_fail (row != NULL, FALSE);

  if (row->kind != PS_TIMELINE_ROW_VALUES || row->values == NULL
      || !ps_value_lod_get_range (row->values, &x_min, &x_max, v_min, v_max) || isnan (*v_min))
    return FALSE;
  *v_min = MIN (*v_min, 0);
  shared = shared_ranges != NULL && row->value_key != NULL ? g_hash_table_lookup (shared_ranges, row->value_key) : NULL;
  if (shared != NULL)
    {
      *v_min = MIN (*v_min, shared->min);
      *v_max = MAX (*v_max, shared->max);
    }
  if (*v_max <= *v_min)
    *v_max = *v_min + 1;
  return TRUE;
}

/* The values a chart's height spans in this frame */
static gboolean
row_value_range (const Render        *render,
                 const PsTimelineRow *row,
                 double              *v_min,
                 double              *v_max)
{
  return ps_timeline_row_value_range (row, render->frame->shared_ranges, v_min, v_max);
}

static void
draw_values_row (Render              *render,
                 const PsTimelineRow *row,
                 double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double v_min, v_max, top, bottom;
  gboolean first = TRUE;
  guint n;

  if (!row_value_range (render, row, &v_min, &v_max))
    return;
  top = y + 4;
  bottom = y + PS_TIMELINE_VALUES_HEIGHT - 1;

#define VALUE_Y(v) (bottom - ((v) - v_min) / (v_max - v_min) * (bottom - top))

  g_array_set_size (render->value_items, 0);
  n = ps_value_lod_query (row->values, frame->begin, frame->end, render->ns_per_pixel, render->value_items);

  /* Envelope: the min…max of each column, filled */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
      double x0 = ps_timeline_frame_x_of (frame, (double)item->x_begin);
      double x1 = ps_timeline_frame_x_of (frame, (double)item->x_end);

      if (isnan (item->min) || item->n_points < 2)
        continue;
      cairo_rectangle (cr, floor (x0), VALUE_Y (item->max), MAX (x1 - x0, 1), MAX (VALUE_Y (item->min) - VALUE_Y (item->max), 1));
    }
  cairo_save (cr);
  cairo_rectangle (cr, render->plot_left, y, render->plot_right - render->plot_left, PS_TIMELINE_VALUES_HEIGHT);
  cairo_clip (cr);
  set_color (cr, &frame->accent, 0.35);
  cairo_fill (cr);

  /* The line through first and last values */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
      double x0 = ps_timeline_frame_x_of (frame, (double)item->x_begin);
      double x1 = ps_timeline_frame_x_of (frame, (double)item->x_end);

      if (isnan (item->first) || isnan (item->last))
        {
          first = TRUE;
          continue;
        }
      if (first)
        cairo_move_to (cr, x0, VALUE_Y (item->first));
      else
        cairo_line_to (cr, x0, VALUE_Y (item->first));
      cairo_line_to (cr, x1, VALUE_Y (item->last));
      first = FALSE;
    }
  set_color (cr, &frame->accent, 1);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  cairo_restore (cr);
  if (render->stats != NULL)
    render->stats->n_points += n;

  /* The scale: the top value with its unit */
  {
    double top_value = v_max * row->unit_scale;
    g_autofree char *text = NULL;

    /* Memory in KiB, MiB, GiB rather than a long number of bytes */
    if (g_strcmp0 (row->unit, "bytes") == 0 && top_value >= 1024 && top_value < (double)G_MAXUINT64)
      text = g_format_size_full ((guint64)top_value, G_FORMAT_SIZE_IEC_UNITS);
    else
      {
        g_autofree char *number = ps_view_format_number (top_value);

        text = g_strdup_printf (C_("value with unit", "%s %s"), number, row->unit);
      }

    set_color (cr, &frame->foreground, 0.7);
    draw_layout_text (cr, render->layout, text, render->plot_right - 4, top, -1, 1, 0);
  }
#undef VALUE_Y
}

/* What another view chose */

static gboolean
is_focus_track (const PsTimelineFrame *frame,
                guint32                track)
{
  for (guint i = 0; i < frame->n_focus_tracks; i++)
    if (frame->focus_tracks[i] == track)
      return TRUE;
  return FALSE;
}

/* The y of a value on a chart whose row is at row_y, as draw_values_row ()
 * places it */
static double
chart_y (double row_y,
         double value,
         double v_min,
         double v_max)
{
  double top = row_y + 4, bottom = row_y + PS_TIMELINE_VALUES_HEIGHT - 1;

  return bottom - (value - v_min) / (v_max - v_min) * (bottom - top);
}

/* A chart's highlighted points: on a sequence axis (CE) a dot on the line
 * for each measurement, at most one per pixel column and value; on a time
 * axis (samples of a function) a tick in a strip along the bottom */
static void
draw_row_points (Render              *render,
                 const PsTimelineRow *row,
                 double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  PsValueLod *points;
  double v_min, v_max, bottom = y + PS_TIMELINE_VALUES_HEIGHT - 1;
  GdkRGBA color;
  guint n;

  if (frame->points_of_track == NULL || row->track == PS_NONE
      || (points = frame->points_of_track (frame->points_data, row->track)) == NULL
      || !row_value_range (render, row, &v_min, &v_max))
    return;
  ps_selection_points_color (frame->dark, &color);

  g_array_set_size (render->value_items, 0);
  n = ps_value_lod_query (points, frame->begin, frame->end, render->ns_per_pixel, render->value_items);
  cairo_save (cr);
  cairo_rectangle (cr, render->plot_left, y, render->plot_right - render->plot_left, PS_TIMELINE_VALUES_HEIGHT);
  cairo_clip (cr);
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
      double x = floor (ps_timeline_frame_x_of (frame, (double)item->x_begin)) + 0.5;

      if (!render->model->sequence_axis)
        cairo_rectangle (cr, x - 0.5, bottom - 8, MAX (1, ps_timeline_frame_x_of (frame, (double)item->x_end) - x + 0.5), 8);
      else if (!isnan (item->min))
        {
          /* The lowest and the highest value of the column */
          double y_low = chart_y (y, item->min, v_min, v_max);
          double y_high = chart_y (y, item->max, v_min, v_max);

          cairo_new_sub_path (cr);
          cairo_arc (cr, x, y_low, 3, 0, 2 * G_PI);
          if (y_low - y_high >= 3)
            {
              cairo_new_sub_path (cr);
              cairo_arc (cr, x, y_high, 3, 0, 2 * G_PI);
            }
        }
    }
  set_color (cr, &color, 1);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* With a function's samples highlighted, the lanes fade under a veil and
 * its samples are orange ticks over them, at most one per pixel column */
static void
draw_lane_points (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  GdkRGBA color;

  if (!frame->has_highlight_points || frame->points_of_track == NULL)
    return;
  ps_selection_points_color (frame->dark, &color);
  for (guint r = render->first_row; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      double y = render->rows_top + row->y;
      PsValueLod *points;
      guint n;

      if (y > frame->height)
        break;
      if (row->kind != PS_TIMELINE_ROW_SAMPLES || row->hidden || y + row->height < PS_TIMELINE_HEADER_HEIGHT
          || y > frame->height)
        continue;
      set_color (cr, &frame->background, 0.7);
      cairo_rectangle (cr, render->plot_left, y, render->plot_right - render->plot_left, PS_TIMELINE_LANE_HEIGHT);
      cairo_fill (cr);
      if ((points = frame->points_of_track (frame->points_data, row->track)) == NULL)
        continue;
      g_array_set_size (render->value_items, 0);
      n = ps_value_lod_query (points, frame->begin, frame->end, render->ns_per_pixel, render->value_items);
      for (guint i = 0; i < n; i++)
        {
          const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
          double x0 = floor (ps_timeline_frame_x_of (frame, (double)item->x_begin));
          double x1 = ps_timeline_frame_x_of (frame, (double)item->x_end);

          if (x1 < render->plot_left || x0 > render->plot_right)
            continue;
          cairo_rectangle (cr, MAX (x0, render->plot_left), y, MAX (x1 - x0, 1), PS_TIMELINE_LANE_HEIGHT);
        }
      set_color (cr, &color, 1);
      cairo_fill (cr);
    }
}

/* A ring around the chosen point of a chart */
static void
draw_chosen_point (Render              *render,
                   const PsTimelineRow *row,
                   double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double v_min, v_max, value, x, point_y;
  gint64 point_x;
  gsize index;

  if (!frame->has_chosen_point || frame->chosen_point_track != row->track || row->kind != PS_TIMELINE_ROW_VALUES
      || !row_value_range (render, row, &v_min, &v_max))
    return;
  index = ps_value_lod_find (row->values, frame->chosen_point_x);
  if (!ps_value_lod_get_point (row->values, index, &point_x, &value) || point_x != frame->chosen_point_x
      || isnan (value))
    return;
  x = ps_timeline_frame_x_of (frame, (double)point_x);
  if (x < render->plot_left - 6 || x > render->plot_right + 6)
    return;
  point_y = chart_y (y, value, v_min, v_max);
  set_color (cr, &frame->foreground, 1);
  cairo_set_line_width (cr, 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, point_y, 6, 0, 2 * G_PI);
  cairo_stroke (cr);
}

/* The chosen message: a bar of the accent colour over the thread's strip
 * of messages, and a line down through its scopes */
static void
draw_chosen_mark (Render              *render,
                  const PsTimelineRow *row,
                  double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double x;

  if (!frame->has_chosen_mark || frame->chosen_mark_track != row->track || !row->has_marks)
    return;
  x = floor (ps_timeline_frame_x_of (frame, (double)frame->chosen_mark_time));
  if (x < render->plot_left - 2 || x > render->plot_right + 2)
    return;
  set_color (cr, &frame->accent, 0.6);
  cairo_rectangle (cr, x, y, 1, row->height - PS_TIMELINE_ROW_GAP);
  cairo_fill (cr);
  set_color (cr, &frame->accent, 1);
  cairo_rectangle (cr, x - 1, y, 3, PS_TIMELINE_MARK_HEIGHT);
  cairo_fill (cr);
}

/* A focused row: tinted across, with a bar of the accent colour at the
 * left of its label */
static void
draw_focus_band (Render              *render,
                 const PsTimelineRow *row,
                 double               y)
{
  const PsTimelineFrame *frame = render->frame;

  if (row->kind == PS_TIMELINE_ROW_GROUP || !is_focus_track (frame, row->track))
    return;
  set_color (render->cr, &frame->accent, 0.10);
  cairo_rectangle (render->cr, render->plot_left, y, render->plot_right - render->plot_left,
                   row->height - PS_TIMELINE_ROW_GAP);
  cairo_fill (render->cr);
}

/* Sample lanes */

/* Samples of a pixel column whose modules are compared for its colour:
 * evenly spread over the column when it has more */
#define LANE_COLOR_PROBES 32

typedef struct
{
  guint   n;          /* samples in the column */
  guint32 module;     /* the module they share (string id + 1), or 0 */
} LaneColumn;

/* Counts a lane's samples per pixel column of the visible range and finds
 * the module each column's samples share; returns the most in a column.
 * Two binary searches a column: bounded by the pixels, not the samples. */
static guint
count_lane_columns (Render              *render,
                    const PsSampleLane  *lane,
                    LaneColumn          *columns,
                    guint                n_columns)
{
  const PsTimelineFrame *frame = render->frame;
  guint from = lane_lower_bound (lane, 0, frame->begin);
  guint peak = 0;

  for (guint c = 0; c < n_columns && from < lane->n_samples; c++)
    {
      gint64 column_end = frame->begin + (gint64)ceil ((c + 1) * render->ns_per_pixel);
      /* The last column holds the samples at the range's end */
      guint to = lane_lower_bound (lane, from, c + 1 == n_columns ? frame->end + 1 : MIN (column_end, frame->end + 1));
      guint n = to - from;
      guint32 module;

      columns[c].n = n;
      columns[c].module = 0;
      if (n == 0)
        continue;
      module = lane->modules[from] + 1;
      for (guint p = 1; p < MIN (n, LANE_COLOR_PROBES) && module != 0; p++)
        {
          guint i = n <= LANE_COLOR_PROBES ? from + p : from + (guint)((guint64)p * (n - 1) / (LANE_COLOR_PROBES - 1));

          if (lane->modules[i] + 1 != module)
            module = 0;
        }
      columns[c].module = module;
      peak = MAX (peak, n);
      from = to;
    }
  return peak;
}

/* The height of a tick of n samples where a column has at most peak */
static int
tick_height (guint n,
             guint peak)
{
  return (int)round (PS_TIMELINE_LANE_HEIGHT * (0.3 + 0.7 * log2 (1 + n) / log2 (1 + peak)));
}

/* A colour as a premultiplied ARGB32 pixel */
static guint32
argb_pixel (const GdkRGBA *color,
            double         alpha)
{
  double a = CLAMP (color->alpha * alpha, 0, 1);

  return (guint32)(a * 255 + 0.5) << 24
         | (guint32)(CLAMP (color->red, 0, 1) * a * 255 + 0.5) << 16
         | (guint32)(CLAMP (color->green, 0, 1) * a * 255 + 0.5) << 8
         | (guint32)(CLAMP (color->blue, 0, 1) * a * 255 + 0.5);
}

/* The pixel of a column's colour: its module's, grey when mixed */
static guint32
lane_column_pixel (Render     *render,
                   GHashTable *pixels,
                   guint32     module)
{
  const PsTimelineFrame *frame = render->frame;
  gpointer found = g_hash_table_lookup (pixels, GUINT_TO_POINTER (module));
  GdkRGBA color;

  /* Opaque pixels, so never 0 once made */
  if (found != NULL)
    return GPOINTER_TO_UINT (found);
  if (module == 0)
    color = (frame->dark ? dark_colors : light_colors)[DENSE_COLOR];
  else
    {
      const char *name = ps_event_store_get_string (render->model->store, module - 1);

      ps_chart_module_color (name, frame->dark, &color);
    }
  g_hash_table_insert (pixels, GUINT_TO_POINTER (module), GUINT_TO_POINTER (argb_pixel (&color, 1)));
  return argb_pixel (&color, 1);
}

/* Every visible lane: a column with samples is a tick from the lane's
 * foot, as high as the log of its count over the most any visible column
 * has (one sample alone: full height when no column has more), in the
 * colour of the module its samples share, grey when they differ. The
 * ticks are written as pixels into one image: thousands of boxes a pixel
 * wide would cost more to fill than to count. */
static void
draw_sample_lanes (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  guint n_columns = (guint)MAX (render->plot_right - render->plot_left, 1);
  g_autoptr(GPtrArray) lanes = g_ptr_array_new ();
  g_autoptr(GArray) tops = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree LaneColumn *columns = NULL;
  g_autoptr(GHashTable) pixels = g_hash_table_new (NULL, NULL);   /* module + 1 → pixel */
  cairo_surface_t *image;
  guint32 *data;
  int stride, image_top, image_height;
  guint32 ground;
  guint peak = 0;
  guint32 last_module = G_MAXUINT32, last_pixel = 0;
  int heights[64] = { 0 };   /* by count, made when first needed */

  for (guint r = render->first_row; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      int y = (int)round (render->rows_top + row->y);

      if (y > frame->height)
        break;
      if (row->kind != PS_TIMELINE_ROW_SAMPLES || row->hidden || row->lane == NULL
          || y + row->height < PS_TIMELINE_HEADER_HEIGHT || y > frame->height)
        continue;
      g_ptr_array_add (lanes, (gpointer)row);
      g_array_append_val (tops, y);
    }
  if (lanes->len == 0)
    return;

  columns = g_new0 (LaneColumn, (gsize)n_columns * lanes->len);
  for (guint l = 0; l < lanes->len; l++)
    {
      const PsTimelineRow *row = g_ptr_array_index (lanes, l);

      peak = MAX (peak, count_lane_columns (render, row->lane, columns + (gsize)l * n_columns, n_columns));
    }

  /* The image covers the visible lanes, below the header */
  image_top = MAX (g_array_index (tops, int, 0), (int)PS_TIMELINE_HEADER_HEIGHT);
  image_height = MIN (g_array_index (tops, int, lanes->len - 1) + (int)PS_TIMELINE_LANE_HEIGHT, frame->height) - image_top;
  if (image_height <= 0)
    return;
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int)n_columns, image_height);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  cairo_surface_flush (image);
  data = (guint32 *)(gpointer)cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image) / 4;
  /* The lanes' ground, so that an idle stretch reads as idle */
  ground = argb_pixel (&frame->foreground, 0.08);

  for (guint l = 0; l < lanes->len; l++)
    {
      const LaneColumn *lane_columns = columns + (gsize)l * n_columns;
      int foot = g_array_index (tops, int, l) + (int)PS_TIMELINE_LANE_HEIGHT - image_top;

      if (foot - 1 >= 0 && foot - 1 < image_height)
        for (guint c = 0; c < n_columns; c++)
          data[(gsize)(foot - 1) * stride + c] = ground;

      for (guint c = 0; c < n_columns && peak > 0; c++)
        {
          const LaneColumn *column = &lane_columns[c];
          guint32 pixel;
          int height;
          guint width;

          if (column->n == 0)
            continue;
          /* Neighbouring columns mostly share a module */
          if (column->module != last_module)
            {
              last_module = column->module;
              last_pixel = lane_column_pixel (render, pixels, column->module);
            }
          pixel = last_pixel;
          if (column->n < G_N_ELEMENTS (heights))
            {
              if (heights[column->n] == 0)
                heights[column->n] = tick_height (column->n, peak);
              height = heights[column->n];
            }
          else
            height = tick_height (column->n, peak);
          /* A lone tick two pixels wide, to be seen */
          width = (c + 1 < n_columns && lane_columns[c + 1].n > 0) ? 1 : 2;
          for (int y = MAX (foot - height, 0); y < MIN (foot, image_height); y++)
            for (guint x = c; x < MIN (c + width, n_columns); x++)
              data[(gsize)y * stride + x] = pixel;
        }
    }
  cairo_surface_mark_dirty (image);

  cairo_save (cr);
  cairo_set_source_surface (cr, image, render->plot_left, image_top);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, render->plot_left, image_top, n_columns, image_height);
  cairo_fill (cr);
  cairo_restore (cr);
  cairo_surface_destroy (image);
}

/* Axis, overview, labels */

static gboolean
has_status (const PsTimelineFrame *frame)
{
  return frame->status != NULL && *frame->status != '\0';
}

/* The length of the selected range, written on the axis over its middle:
 * its text (g_free) and where its box goes, or NULL without a selection */
static char *
selection_label (Render *render,
                 double *box_x,
                 double *box_width)
{
  const PsTimelineFrame *frame = render->frame;
  char *length;
  double x0, x1;
  int width;

  if (!frame->has_selection)
    return NULL;
  x0 = CLAMP (ps_timeline_frame_x_of (frame, (double)frame->selection_begin), render->plot_left, render->plot_right);
  x1 = CLAMP (ps_timeline_frame_x_of (frame, (double)frame->selection_end), render->plot_left, render->plot_right);
  if (render->model->sequence_axis)
    length = g_strdup_printf (ngettext ("%" PRId64 " measurement", "%" PRId64 " measurements",
                                        frame->selection_end - frame->selection_begin),
                              frame->selection_end - frame->selection_begin);
  else
    length = ps_util_format_seconds ((frame->selection_end - frame->selection_begin) / 1e9);
  pango_layout_set_text (render->layout, length, -1);
  pango_layout_set_width (render->layout, -1);
  pango_layout_get_pixel_size (render->layout, &width, NULL);
  *box_x = CLAMP ((x0 + x1) / 2 - width / 2.0 - 4, render->plot_left, render->plot_right - width - 8);
  *box_width = width + 8;
  return length;
}

static void
draw_axis (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  double top = PS_TIMELINE_OVERVIEW_HEIGHT;
  double range = (double)(frame->end - frame->begin);
  double step = ps_chart_time_axis_step (range, render->plot_right - render->plot_left, model->sequence_axis);
  double last_end = -G_MAXDOUBLE;
  double labels_end = render->plot_right;
  double selection_x = 0, selection_width = 0;
  g_autofree char *selection = selection_label (render, &selection_x, &selection_width);

  set_color (cr, &frame->foreground, 0.25);
  cairo_rectangle (cr, 0, top + PS_TIMELINE_AXIS_HEIGHT - 1, frame->width, 1);
  cairo_fill (cr);

  /* The wall-clock time of the left edge takes the axis' right end */
  {
    g_autofree char *wall = ps_timeline_format_wall (model, frame->begin);

    if (wall != NULL)
      {
        int width;

        pango_layout_set_text (render->layout, wall, -1);
        pango_layout_set_width (render->layout, -1);
        pango_layout_get_pixel_size (render->layout, &width, NULL);
        labels_end = render->plot_right - width - 12;
        /* Not under the selection's length */
        if (selection == NULL || selection_x + selection_width < labels_end + 8)
          {
            set_color (cr, &frame->foreground, 0.6);
            draw_layout_text (cr, render->layout, wall, render->plot_right - 4, top + 3, -1, 1, 0);
          }
      }
  }

  for (double tick = ceil ((double)frame->begin / step) * step; tick <= (double)frame->end; tick += step)
    {
      double x = round (ps_timeline_frame_x_of (frame, tick)) + 0.5;
      g_autofree char *text = ps_timeline_format_x (model, tick, step);

      /* A box a pixel wide: cheaper than a stroke */
      set_color (cr, &frame->foreground, 0.12);
      cairo_rectangle (cr, x - 0.5, top + PS_TIMELINE_AXIS_HEIGHT - 6, 1, frame->height - top - PS_TIMELINE_AXIS_HEIGHT + 6);
      cairo_fill (cr);
      if (x + 3 > last_end)
        {
          int width;

          pango_layout_set_text (render->layout, text, -1);
          pango_layout_set_width (render->layout, -1);
          pango_layout_get_pixel_size (render->layout, &width, NULL);
          if (x + 3 + width > labels_end)
            continue;
          /* The selection's length is written there: no label runs into it */
          if (selection != NULL && x + 3 < selection_x + selection_width + 8 && x + 3 + width > selection_x - 8)
            continue;
          set_color (cr, &frame->foreground, 0.8);
          draw_layout_text (cr, render->layout, text, x + 3, top + 3, -1, 0, 0);
          last_end = x + 3 + width + 8;
        }
    }

  /* What the axis measures, in the label column */
  set_color (cr, &frame->foreground, 0.7);
  draw_layout_text (cr, render->layout, axis_name (model), HEADER_LABEL_START, top + 3,
                    render->plot_left - HEADER_LABEL_START - HEADER_LABEL_END, 0, 0);
}

/* How busy each of columns columns of the whole run is: the time its
 * spans covered and its values' points. Counted once for a width, as it
 * goes over every row: a CE log has one per marker instance, hundreds of
 * thousands, and drawing each frame counted them all again */
static const double *
overview_busy (Render *render,
               guint   columns)
{
  PsTimelineModel *model = render->model;
  gint64 begin = model->extent_begin, end = model->extent_end;
  double *busy;
  double ns_per_pixel;

  if (model->overview_busy != NULL && model->overview_columns == columns
      && model->overview_begin == begin && model->overview_end == end)
    return model->overview_busy;

  g_clear_pointer (&model->overview_busy, g_free);
  busy = g_new0 (double, columns);
  ns_per_pixel = (double)(end - begin) / columns;
  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      g_array_set_size (render->items, 0);
      g_array_set_size (render->value_items, 0);
      if (row->kind == PS_TIMELINE_ROW_SPANS && row->n_depths > 0)
        {
          guint n = ps_span_lod_query (model->lod, row->track, 0, begin, end,
                                       ns_per_pixel, render->items);

          /* Each column gets the time its spans covered */
          for (guint i = 0; i < n; i++)
            {
              const PsSpanLodItem *item = &g_array_index (render->items, PsSpanLodItem, i);
              double from = ((double)item->begin_ns - begin) / ns_per_pixel;
              double to = ((double)item->end_ns - begin) / ns_per_pixel;
              double share = item->total_ns / MAX (to - from, 1.0);

              for (guint c = (guint)CLAMP (from, 0, columns - 1); c <= (guint)CLAMP (to, 0, columns - 1); c++)
                busy[c] += share;
            }
        }
      else if (row->kind == PS_TIMELINE_ROW_VALUES)
        {
          guint n = ps_value_lod_query_counts (row->values, begin, end, ns_per_pixel, render->value_items);

          for (guint i = 0; i < n; i++)
            {
              const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
              double c = ((double)item->x_begin - begin) / ns_per_pixel;

              if (c >= 0 && c < columns)
                busy[(guint)c] += item->n_points;
            }
        }
    }
  model->overview_busy = busy;
  model->overview_columns = columns;
  model->overview_begin = begin;
  model->overview_end = end;
  return busy;
}

/* The whole run in the top strip: where the time went, and which part is
 * shown below */
static void
draw_overview (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  PsTimelineFrame whole = *frame;
  double width = render->plot_right - render->plot_left;
  guint columns = (guint)MAX (width, 1);
  const double *busy = overview_busy (render, columns);
  double max_busy = 0;
  double top = 2, height = PS_TIMELINE_OVERVIEW_HEIGHT - 6;

  whole.begin = model->extent_begin;
  whole.end = model->extent_end;

  for (guint c = 0; c < columns; c++)
    max_busy = MAX (max_busy, busy[c]);

  set_color (cr, &frame->foreground, 0.05);
  cairo_rectangle (cr, render->plot_left, top, width, height);
  cairo_fill (cr);
  if (max_busy > 0)
    {
      for (guint c = 0; c < columns; c++)
        if (busy[c] > 0)
          {
            double h = MAX (round (busy[c] / max_busy * height), 1);

            cairo_rectangle (cr, render->plot_left + c, top + height - h, 1, h);
          }
      set_color (cr, &frame->accent, 0.55);
      cairo_fill (cr);
    }

  /* The visible part */
  {
    double x0 = ps_timeline_frame_x_of (&whole, (double)frame->begin);
    double x1 = ps_timeline_frame_x_of (&whole, (double)frame->end);

    x0 = CLAMP (x0, render->plot_left, render->plot_right);
    x1 = CLAMP (x1, render->plot_left, render->plot_right);
    if (x1 - x0 < 3)
      x0 = (x0 + x1) / 2 - 1.5, x1 = x0 + 3;
    set_color (cr, &frame->accent, 0.10);
    cairo_rectangle (cr, x0, top, x1 - x0, height);
    cairo_fill (cr);
    set_color (cr, &frame->accent, 1);
    cairo_set_line_width (cr, 1.5);
    cairo_rectangle (cr, x0 + 0.75, top + 0.75, x1 - x0 - 1.5, height - 1.5);
    cairo_stroke (cr);
  }

  set_color (cr, &frame->foreground, 0.7);
  draw_layout_text (cr, render->layout, overview_name (), HEADER_LABEL_START, top + height / 2,
                    render->plot_left - HEADER_LABEL_START - HEADER_LABEL_END, 0, 0.5);
}

static void
draw_selection (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double x0, x1, top = PS_TIMELINE_OVERVIEW_HEIGHT;
  /* The status strip stays readable */
  double bottom = frame->height - (has_status (frame) ? PS_TIMELINE_STATUS_HEIGHT : 0);

  if (!frame->has_selection)
    return;
  x0 = ps_timeline_frame_x_of (frame, (double)frame->selection_begin);
  x1 = ps_timeline_frame_x_of (frame, (double)frame->selection_end);
  x0 = CLAMP (x0, render->plot_left, render->plot_right);
  x1 = CLAMP (x1, render->plot_left, render->plot_right);

  /* Dim what is outside */
  set_color (cr, &frame->background, 0.55);
  cairo_rectangle (cr, render->plot_left, top, x0 - render->plot_left, bottom - top);
  cairo_rectangle (cr, x1, top, render->plot_right - x1, bottom - top);
  cairo_fill (cr);

  set_color (cr, &frame->accent, 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, round (x0) + 0.5, top);
  cairo_line_to (cr, round (x0) + 0.5, bottom);
  cairo_move_to (cr, round (x1) - 0.5, top);
  cairo_line_to (cr, round (x1) - 0.5, bottom);
  cairo_stroke (cr);

  /* Its length on the axis, where draw_axis () left room */
  {
    double box_x, box_width;
    g_autofree char *length = selection_label (render, &box_x, &box_width);

    set_color (cr, &frame->accent, 1);
    cairo_rectangle (cr, box_x, top + PS_TIMELINE_AXIS_HEIGHT - render->text_height - 6, box_width, render->text_height + 4);
    cairo_fill (cr);
    cairo_set_source_rgb (cr, 1, 1, 1);
    draw_layout_text (cr, render->layout, length, box_x + 4, top + PS_TIMELINE_AXIS_HEIGHT - render->text_height - 4, -1, 0, 0);
  }
}

static void
draw_cursor (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  const PsSpan *span;
  const PsTimelineRow *row = NULL;
  double x0, x1, y;

  if (frame->cursor_span == PS_SPAN_LOD_NO_SPAN || model->lod == NULL)
    return;
  span = ps_event_store_get_span (model->store, frame->cursor_span);
  if (span == NULL)
    return;
  for (guint r = 0; r < model->rows->len && row == NULL; r++)
    {
      const PsTimelineRow *candidate = g_ptr_array_index (model->rows, r);

      if (candidate->kind == PS_TIMELINE_ROW_SPANS && candidate->track == span->track && !candidate->hidden)
        row = candidate;
    }
  if (row == NULL)
    return;
  y = render->rows_top + ps_timeline_row_depth_y (row, span->depth);
  if (!span_pixels (render, span->begin_ns, MAX (span->end_ns, span->begin_ns), &x0, &x1))
    return;
  set_color (cr, frame->focused ? &frame->accent : &frame->foreground, 1);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, x0 + 1, y + 1, MAX (x1 - x0 - 2, 1), PS_TIMELINE_SPAN_HEIGHT - 3);
  cairo_stroke (cr);
}

/* What the cursor is on, readable without a pointer (tooltips need one) */
static void
draw_status (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double height = PS_TIMELINE_STATUS_HEIGHT;
  double top = frame->height - height;

  if (!has_status (frame))
    return;
  /* A strip of its own, under the rows */
  set_color (cr, &frame->background, 1);
  cairo_rectangle (cr, render->plot_left, top, render->plot_right - render->plot_left, height);
  cairo_fill (cr);
  set_color (cr, &frame->foreground, 0.15);
  cairo_rectangle (cr, render->plot_left, top, render->plot_right - render->plot_left, 1);
  cairo_fill (cr);
  set_color (cr, &frame->accent, 1);
  cairo_rectangle (cr, render->plot_left, top, 3, height);
  cairo_fill (cr);
  set_color (cr, &frame->foreground, 1);
  draw_layout_text (cr, render->layout, frame->status, render->plot_left + 8, top + height / 2,
                    render->plot_right - render->plot_left - 12, 0, 0.5);
}

static void
draw_labels (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  double label_width = render->plot_left;

  /* The label column covers what scrolled under it */
  set_color (cr, &frame->background, 1);
  cairo_rectangle (cr, 0, PS_TIMELINE_HEADER_HEIGHT, label_width, frame->height);
  cairo_fill (cr);
  set_color (cr, &frame->foreground, 0.15);
  cairo_rectangle (cr, label_width - 1, PS_TIMELINE_OVERVIEW_HEIGHT, 1, frame->height);
  cairo_fill (cr);

  for (guint r = render->first_row; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      double y = render->rows_top + row->y;

      if (y > frame->height)
        break;
      if (row->hidden || y + row->height < PS_TIMELINE_HEADER_HEIGHT || y > frame->height)
        continue;
      if ((int)r == frame->cursor_row && frame->focused)
        {
          set_color (cr, &frame->accent, 0.2);
          cairo_rectangle (cr, 0, y, label_width - 1, MIN (row->height, PS_TIMELINE_GROUP_HEIGHT));
          cairo_fill (cr);
        }
      if (row->kind == PS_TIMELINE_ROW_GROUP)
        {
          g_autofree char *text = g_strdup_printf ("%s %s", row->collapsed ? "▸" : "▾", row->label);

          set_color (cr, &frame->foreground, 0.06);
          cairo_rectangle (cr, 0, y, frame->width, row->height);
          cairo_fill (cr);
          set_color (cr, &frame->foreground, 1);
          pango_layout_set_attributes (render->layout, NULL);
          draw_layout_text (cr, render->layout, text, 6, y + row->height / 2, frame->width - 12, 0, 0.5);
        }
      else
        {
          if (is_focus_track (frame, row->track))
            {
              set_color (cr, &frame->accent, 0.18);
              cairo_rectangle (cr, 0, y, label_width - 1, row->height - PS_TIMELINE_ROW_GAP);
              cairo_fill (cr);
              set_color (cr, &frame->accent, 1);
              cairo_rectangle (cr, 0, y, 4, row->height - PS_TIMELINE_ROW_GAP);
              cairo_fill (cr);
            }
          set_color (cr, &frame->foreground, 0.85);
          draw_layout_text (cr, render->layout, ps_timeline_model_row_label (model, frame->pango, label_width, r),
                            ROW_LABEL_START, y + 2, label_width - ROW_LABEL_START - ROW_LABEL_END, 0, 0);
        }
    }
}

/* The first row whose bottom may reach below the header (a pixel early,
 * for the loops that round): rows lie top to bottom, each from where the
 * one above ends, and a CE log has hundreds of thousands of them, of
 * which a frame draws a few */
static guint
first_row_in_view (const PsTimelineModel *model,
                   double                 rows_top)
{
  guint low = 0, high = model->rows->len;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      const PsTimelineRow *row = g_ptr_array_index (model->rows, mid);

      if (rows_top + row->y + row->height < PS_TIMELINE_HEADER_HEIGHT - 1)
        low = mid + 1;
      else
        high = mid;
    }
  return low;
}

void
ps_timeline_render (PsTimelineModel       *model,
                    const PsTimelineFrame *frame,
                    cairo_t               *cr,
                    PsTimelineStats       *stats)
{
  Render render = { 0 };
  int text_height;

  g_return_if_fail (model != NULL);
  g_return_if_fail (frame->end > frame->begin);

  render.model = model;
  render.frame = frame;
  render.cr = cr;
  render.stats = stats;
  render.items = g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
  render.mark_items = g_array_new (FALSE, FALSE, sizeof (PsMarkLodItem));
  render.value_items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  render.layout = new_layout (frame);
  render.plot_left = frame_label_width (frame);
  render.plot_right = frame->width;
  render.rows_top = PS_TIMELINE_HEADER_HEIGHT - frame->scroll_y;
  render.first_row = first_row_in_view (model, render.rows_top);
  render.ns_per_pixel = (double)(frame->end - frame->begin) / ps_timeline_frame_plot_width (frame);
  pango_layout_set_text (render.layout, "0", -1);
  pango_layout_get_pixel_size (render.layout, NULL, &text_height);
  render.text_height = text_height;
  batch_init (&render.batch);
  if (stats != NULL)
    memset (stats, 0, sizeof *stats);

  /* Rows, clipped below the header and above the status */
  cairo_save (cr);
  cairo_rectangle (cr, 0, PS_TIMELINE_HEADER_HEIGHT, frame->width, frame->height - PS_TIMELINE_HEADER_HEIGHT);
  cairo_clip (cr);
  cairo_save (cr);
  if (has_status (frame))
    {
      cairo_rectangle (cr, 0, 0, frame->width, frame->height - PS_TIMELINE_STATUS_HEIGHT);
      cairo_clip (cr);
    }
  for (guint r = render.first_row; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      double y = render.rows_top + row->y;

      if (y > frame->height)
        break;
      if (row->hidden || y + row->height < PS_TIMELINE_HEADER_HEIGHT || y > frame->height)
        continue;
      draw_focus_band (&render, row, y);
      if (row->kind == PS_TIMELINE_ROW_SPANS)
        {
          draw_span_row (&render, row, y);
          draw_chosen_mark (&render, row, y);
        }
      else if (row->kind == PS_TIMELINE_ROW_VALUES)
        {
          draw_values_row (&render, row, y);
          draw_row_points (&render, row, y);
          draw_chosen_point (&render, row, y);
        }
    }
  draw_sample_lanes (&render);
  draw_lane_points (&render);
  draw_cursor (&render);
  cairo_restore (cr);
  draw_labels (&render);
  draw_status (&render);
  cairo_restore (cr);

  draw_overview (&render);
  draw_axis (&render);
  draw_selection (&render);

  batch_clear (&render.batch);
  g_object_unref (render.layout);
  g_array_unref (render.items);
  g_array_unref (render.mark_items);
  g_array_unref (render.value_items);
}
