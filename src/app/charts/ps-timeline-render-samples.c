/* ps-timeline-render-samples.c — the rows of a sampled run: its busiest
 * threads' sample rates and a lane of samples per thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the other rows (ps-timeline-render-model.c) and the rest of
 * the drawing (ps-timeline-render.c) because the lanes are their own kind
 * of row, made and drawn their own way: a lane keeps its samples' times
 * and modules together, and a frame counts them per pixel column into one
 * image instead of asking a level-of-detail index.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>

#include "ps-chart-util.h"
#include "ps-selection-util.h"
#include "ps-timeline-render-private.h"
#include "ps-util.h"
#include "ps-view-util.h"

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
  ps_timeline_model_widen_extent (self, begin, end);

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
    ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
                               busiest->len > n_rows
                               /* Translators: a timeline group; %s is an event ("CLOCK.HARD"), %u how many threads it shows */
                               ? g_strdup_printf (ngettext ("Samples of %s of the busiest thread", "Samples of %s of the %u busiest threads",
                                                            n_rows), source_name, n_rows)
                               /* Translators: a timeline group; %s is an event ("CLOCK.HARD") */
                               : g_strdup_printf (_("Samples of %s"), source_name));
  else
    ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
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
      g_autofree char *count = NULL;

      /* Samples per second over each bin */
      for (guint b = 0; b < n_bins; b++)
        rates[b] = rates[b] * 1e9 / (double)width;
      row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_VALUES, total->track, group,
                                       ps_timeline_track_label (store, ps_event_store_get_track (store, total->track)));
      row->values = ps_value_lod_new (x, rates, n_bins);
      row->unit = g_intern_string (_("samples/s"));
      ps_timeline_model_set_value_key (self, row);
      count = ps_view_format_count (total->total);
      if (source_name != NULL)
        /* Translators: a chart's tooltip: a thread, its count of samples
         * ("1,200") of an event, how long a bin is */
        row->tooltip = g_strdup_printf (ngettext ("%s: %s sample of %s, counted in bins of %s",
                                                  "%s: %s samples of %s, counted in bins of %s",
                                                  total->total),
                                        row->label, count, source_name, width_text);
      else
        row->tooltip = g_strdup_printf (ngettext ("%s: %s sample of any event, counted in bins of %s",
                                                  "%s: %s samples of any event, counted in bins of %s",
                                                  total->total),
                                        row->label, count, width_text);
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

void
ps_timeline_sample_lane_free (PsSampleLane *lane)
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
    ps_timeline_model_widen_extent (self, begin, end);

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
  ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
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
      PsTimelineRow *row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_SAMPLES, t, group,
                                                      ps_timeline_track_label (store, ps_event_store_get_track (store, t)));

      g_autofree char *count = NULL;

      row->lane = g_steal_pointer (&lanes[t]);
      count = ps_view_format_count (row->lane->weight);
      if (source_name != NULL)
        /* Translators: a lane's tooltip: a thread, its count of samples
         * ("1,200") of an event */
        row->tooltip = g_strdup_printf (ngettext ("%s: %s sample of %s, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                  "%s: %s samples of %s, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                  row->lane->weight),
                                        row->label, count, source_name);
      else
        row->tooltip = g_strdup_printf (ngettext ("%s: %s sample of any event, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                "%s: %s samples of any event, a tick each in the colour of the module of the function it was taken in (the flame graph’s colours)",
                                                row->lane->weight),
                                      row->label, count);
    }
  return TRUE;

cancelled:
  for (guint t = 0; t < n_tracks; t++)
    ps_timeline_sample_lane_free (lanes[t]);
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
      g_autofree char *count = ps_view_format_count (n_here);

      g_string_append_c (text, '\n');
      /* Translators: samples under the pointer ("1,200"); the nearest is described */
      g_string_append_printf (text, ngettext ("%s sample here; the nearest is shown",
                                              "%s samples here; the nearest is shown", n_here),
                              count);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}


/* A sampled run's busiest threads' rates, then its samples themselves,
 * under which the rates start closed: the rows before sample_rows_end.
 * FALSE when cancellable (may be NULL) was cancelled. */
gboolean
ps_timeline_model_add_all_sample_rows (PsTimelineModel *self,
                                       GCancellable    *cancellable)
{
  guint rates_group = self->rows->len;

  if (!add_sample_rows (self, cancellable) || !add_sample_lanes (self, cancellable))
    return FALSE;
  collapse_rates_under_lanes (self, rates_group);
  self->sample_rows_end = self->rows->len;
  return TRUE;
}

/* With a function's samples highlighted, the lanes fade under a veil and
 * its samples are orange ticks over them, at most one per pixel column */
void
ps_timeline_draw_lane_points (Render *render)
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
      ps_timeline_set_color (cr, &frame->background, 0.7);
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
      ps_timeline_set_color (cr, &color, 1);
      cairo_fill (cr);
    }
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
    color = ps_timeline_fill_colors (frame->dark)[DENSE_COLOR];
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
void
ps_timeline_draw_sample_lanes (Render *render)
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
