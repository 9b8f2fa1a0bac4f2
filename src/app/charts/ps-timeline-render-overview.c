/* ps-timeline-render-overview.c — how busy each column of the whole-run
 * strip is
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The strip above a timeline shows where the run's time went: the time its
 * spans covered and its values' points, per column. The model counts the
 * whole run once at a fine width when it is made; each width the strip is
 * drawn at is summed from that count. ps-timeline-render.c draws it.
 */
#include "config.h"

#include <math.h>

#include "ps-timeline-render-private.h"
#include "ps-util.h"

/* Adds count points spread evenly over [from, to) columns, partial
 * columns by their share, what lies past the last column left out (the
 * last points of the run stand for the time after them); the whole
 * columns inside go to even, summed into busy once every row is spread */
static void
spread_evenly (double *busy,
               double *even,
               guint   columns,
               double  from,
               double  to,
               double  count)
{
  double density = count / (to - from);
  double first, last;

  from = CLAMP (from, 0, columns), to = CLAMP (to, 0, columns);
  if (to <= from)
    return;
  first = floor (from), last = floor (to);
  if (first == last)
    {
      busy[(guint)first] += density * (to - from);
      return;
    }
  busy[(guint)first] += density * (first + 1 - from);
  if (last < columns)
    busy[(guint)last] += density * (to - last);
  even[(guint)first + 1] += density;
  even[(guint)last] -= density;
}

/* A row of values in columns: each item's points count from where they
 * lie until the row's next point, so that readings taken at a steady pace
 * fill the strip evenly. Counted in the column each lies in, they drew one
 * line every few pixels, in a pattern that changed with the width. A point
 * followed by a gap longer than twice the row's mean one counts over one
 * mean gap: a pause in the readings stays empty (unless it is most of the
 * row's time, which makes the mean long). A row of one item counts over
 * the run's spacing. */
static void
spread_points (const GArray *value_items,
               guint         n,
               gint64        begin,
               double        ns_per_pixel,
               guint         columns,
               double        spacing,
               double       *busy,
               double       *even)
{
  const PsValueLodItem *items = (const PsValueLodItem *)(void *)value_items->data;
  double usual = n > 1 ? MAX ((double)(items[n - 1].x_begin - items[0].x_begin) / ns_per_pixel / (n - 1), 1.0)
                       : spacing;

  for (guint i = 0; i < n; i++)
    {
      double from = ((double)items[i].x_begin - begin) / ns_per_pixel;
      double to = i + 1 < n ? ((double)items[i + 1].x_begin - begin) / ns_per_pixel : from + usual;

      if (to - from > 2 * usual)
        to = MAX (from + usual, ((double)items[i].x_end - begin) / ns_per_pixel);
      spread_evenly (busy, even, columns, from, MAX (to, from + 1), (double)items[i].n_points);
    }
}

/* Adds to busy how busy each of columns columns of [begin, end) is: the
 * time its spans covered and its values' points. Goes over every row: a
 * CE log has one per marker instance, hundreds of thousands. FALSE when
 * cancelled. */
static gboolean
count_busy (PsTimelineModel *model,
            gint64           begin,
            gint64           end,
            guint            columns,
            double          *busy,
            GArray          *items,
            GArray          *value_items,
            GCancellable    *cancellable)
{
  double ns_per_pixel = (double)(end - begin) / columns;
  g_autofree double *even = g_new0 (double, (gsize)columns + 1);
  guint64 n_points = 0;
  double level = 0, spacing;

  /* The mean spacing of the run's points: what a row of one item (a
   * marker instance of one event), which has no gap of its own, counts
   * over. In one column, one event of a CE log of a hundred stood as high
   * as the hundred. */
  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_VALUES)
        n_points += ps_value_lod_get_n_points (row->values);
    }
  spacing = MAX ((double)columns / MAX (n_points, 1), 1.0);

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (ps_util_stop_at (r, cancellable))
        return FALSE;
      g_array_set_size (items, 0);
      g_array_set_size (value_items, 0);
      if (row->kind == PS_TIMELINE_ROW_SPANS && row->n_depths > 0)
        {
          guint n = ps_span_lod_query (model->lod, row->track, 0, begin, end, ns_per_pixel, items);

          /* Each column gets the time its spans covered */
          for (guint i = 0; i < n; i++)
            {
              const PsSpanLodItem *item = &g_array_index (items, PsSpanLodItem, i);
              double from = ((double)item->begin_ns - begin) / ns_per_pixel;
              double to = ((double)item->end_ns - begin) / ns_per_pixel;
              double share = item->total_ns / MAX (to - from, 1.0);

              for (guint c = (guint)CLAMP (from, 0, columns - 1); c <= (guint)CLAMP (to, 0, columns - 1); c++)
                busy[c] += share;
            }
        }
      else if (row->kind == PS_TIMELINE_ROW_VALUES)
        {
          guint n = ps_value_lod_query_counts (row->values, begin, end, ns_per_pixel, value_items);

          if (n > 0)
            spread_points (value_items, n, begin, ns_per_pixel, columns, spacing, busy, even);
        }
    }
  for (guint c = 0; c < columns; c++)
    {
      level += even[c];
      busy[c] += level;
    }
  return TRUE;
}

gboolean
ps_timeline_model_count_overview (PsTimelineModel *self,
                                  GCancellable    *cancellable)
{
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
  g_autoptr(GArray) value_items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  g_autofree double *fine = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  g_clear_pointer (&self->overview_fine, g_free);
  if (self->extent_end <= self->extent_begin)
    return TRUE;
  fine = g_new0 (double, PS_TIMELINE_OVERVIEW_FINE);
  if (!count_busy (self, self->extent_begin, self->extent_end, PS_TIMELINE_OVERVIEW_FINE, fine,
                   items, value_items, cancellable))
    return FALSE;
  self->overview_fine = g_steal_pointer (&fine);
  self->overview_fine_begin = self->extent_begin;
  self->overview_fine_end = self->extent_end;
  return TRUE;
}

/* How busy each of columns columns of the whole run is. Counted once for
 * a width; from the fine count made with the model when it counted this
 * extent, a fine column going to the pixel its start lies in */
const double *
ps_timeline_model_overview_busy (PsTimelineModel *model,
                                 guint            columns,
                                 GArray          *items,
                                 GArray          *value_items)
{
  gint64 begin = model->extent_begin, end = model->extent_end;
  double *busy;

  if (model->overview_busy != NULL && model->overview_columns == columns
      && model->overview_begin == begin && model->overview_end == end)
    return model->overview_busy;

  g_clear_pointer (&model->overview_busy, g_free);
  busy = g_new0 (double, columns);
  if (model->overview_fine != NULL && columns <= PS_TIMELINE_OVERVIEW_FINE
      && model->overview_fine_begin == begin && model->overview_fine_end == end)
    {
      /* A fine column across two columns is shared between them by how
       * much of it each has: whole, some columns got one fine column more
       * than others, and stood out as stripes */
      for (guint i = 0; i < PS_TIMELINE_OVERVIEW_FINE; i++)
        {
          guint64 start = (guint64)i * columns, end = start + columns;
          guint c = (guint)(start / PS_TIMELINE_OVERVIEW_FINE);
          guint64 boundary = (guint64)(c + 1) * PS_TIMELINE_OVERVIEW_FINE;

          if (end <= boundary || c + 1 >= columns)
            busy[c] += model->overview_fine[i];
          else
            {
              double in_first = (double)(boundary - start) / columns;

              busy[c] += model->overview_fine[i] * in_first;
              busy[c + 1] += model->overview_fine[i] * (1 - in_first);
            }
        }
    }
  else
    count_busy (model, begin, end, columns, busy, items, value_items, NULL);
  model->overview_busy = busy;
  model->overview_columns = columns;
  model->overview_begin = begin;
  model->overview_end = end;
  return busy;
}
