/* ps-trend-row.c — a row of a trend, as an item of the Trend page's list
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "ps-trend-row.h"

struct _PsTrendRowItem
{
  GObject           parent_instance;
  const PsTrendRow *row;
};

G_DEFINE_FINAL_TYPE (PsTrendRowItem, ps_trend_row, G_TYPE_OBJECT)

static void
ps_trend_row_class_init (PsTrendRowItemClass *klass)
{
}

static void
ps_trend_row_init (PsTrendRowItem *self)
{
}

PsTrendRowItem *
ps_trend_row_new (const PsTrendRow *row)
{
  PsTrendRowItem *self = g_object_new (PS_TYPE_TREND_ROW, NULL);

  self->row = row;
  return self;
}

const PsTrendRow *
ps_trend_row_get_row (PsTrendRowItem *self)
{
  g_return_val_if_fail (PS_IS_TREND_ROW (self), NULL);
  return self->row;
}

const PsChangePoint *
ps_trend_row_get_largest (PsTrendRowItem *self)
{
  const PsChangePoint *largest = NULL;

  g_return_val_if_fail (PS_IS_TREND_ROW (self), NULL);

  for (guint i = 0; i < self->row->change_points->len; i++)
    {
      const PsChangePoint *point = &g_array_index (self->row->change_points, PsChangePoint, i);

      if (largest == NULL || fabs (point->relative_change) > fabs (largest->relative_change))
        largest = point;
    }
  return largest;
}
