/* ps-marker-row.c — one row of the marker table: a group or an instance
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ps-ce-description.h"
#include "ps-marker-row.h"
#include "ps-row-properties.h"
#include "ps-util.h"
#include "ps-view-util.h"

struct _PsMarkerRow
{
  GObject        parent_instance;

  PsRunAnalysis *analysis;
  PsSeries      *series;      /* owned by analysis */
  char          *name;
  char          *expanded_name;
  GArray        *expanded_items;  /* PsCeDescriptionItem */
  guint          is_group : 1;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_APP,
  PROP_ID,
  PROP_INSTANCE,
  PROP_COUNT,
  PROP_MIN,
  PROP_MAX,
  PROP_MEAN,
  PROP_MEDIAN,
  PROP_P95,
  PROP_STDDEV,
  PROP_TOTAL,
  PROP_MEAN_TICKS,
  PROP_TOTAL_TICKS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PsMarkerRow, ps_marker_row, G_TYPE_OBJECT)

static void
ps_marker_row_finalize (GObject *object)
{
  PsMarkerRow *self = PS_MARKER_ROW (object);

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->expanded_name, g_free);
  g_clear_pointer (&self->expanded_items, g_array_unref);

  G_OBJECT_CLASS (ps_marker_row_parent_class)->finalize (object);
}

static void
ps_marker_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  PsMarkerRow *self = PS_MARKER_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, ps_marker_row_get_name (self));
      break;
    case PROP_APP:
      g_value_set_string (value, ps_marker_row_get_app (self));
      break;
    case PROP_ID:
      g_value_set_int64 (value, self->series->id);
      break;
    case PROP_INSTANCE:
      g_value_set_uint (value, self->series->instance);
      break;
    case PROP_COUNT:
      g_value_set_uint64 (value, ps_marker_row_get_count (self));
      break;
    case PROP_MIN:
      g_value_set_double (value, ps_marker_row_get_min (self));
      break;
    case PROP_MAX:
      g_value_set_double (value, ps_marker_row_get_max (self));
      break;
    case PROP_MEAN:
      g_value_set_double (value, ps_marker_row_get_mean (self));
      break;
    case PROP_MEDIAN:
      g_value_set_double (value, ps_marker_row_get_median (self));
      break;
    case PROP_P95:
      g_value_set_double (value, ps_marker_row_get_p95 (self));
      break;
    case PROP_STDDEV:
      g_value_set_double (value, ps_marker_row_get_stddev (self));
      break;
    case PROP_TOTAL:
      g_value_set_double (value, ps_marker_row_get_total (self));
      break;
    case PROP_MEAN_TICKS:
      g_value_set_double (value, ps_marker_row_get_mean_ticks (self));
      break;
    case PROP_TOTAL_TICKS:
      g_value_set_double (value, ps_marker_row_get_total_ticks (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_marker_row_class_init (PsMarkerRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ps_marker_row_finalize;
  object_class->get_property = ps_marker_row_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_APP] = g_param_spec_string ("app", NULL, NULL, NULL, flags);
  properties[PROP_ID] = g_param_spec_int64 ("id", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_INSTANCE] = g_param_spec_uint ("instance", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_COUNT] = g_param_spec_uint64 ("count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_MIN] = ps_row_double_property ("min");
  properties[PROP_MAX] = ps_row_double_property ("max");
  properties[PROP_MEAN] = ps_row_double_property ("mean");
  properties[PROP_MEDIAN] = ps_row_double_property ("median");
  properties[PROP_P95] = ps_row_double_property ("p95");
  properties[PROP_STDDEV] = ps_row_double_property ("stddev");
  properties[PROP_TOTAL] = ps_row_double_property ("total");
  properties[PROP_MEAN_TICKS] = ps_row_double_property ("mean-ticks");
  properties[PROP_TOTAL_TICKS] = ps_row_double_property ("total-ticks");

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ps_marker_row_init (PsMarkerRow *self)
{
}

PsMarkerRow *
ps_marker_row_new (PsRunAnalysis *analysis,
                   PsSeries      *series,
                   gboolean       is_group)
{
  PsMarkerRow *self;

  g_return_val_if_fail (analysis != NULL, NULL);
  g_return_val_if_fail (series != NULL, NULL);

  self = g_object_new (PS_TYPE_MARKER_ROW, NULL);
  self->analysis = ps_run_analysis_ref (analysis);
  self->series = series;
  self->is_group = !!is_group;

  return self;
}

const PsSeries *
ps_marker_row_get_series (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), NULL);
  return self->series;
}

PsRunAnalysis *
ps_marker_row_get_analysis (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), NULL);
  return self->analysis;
}

gboolean
ps_marker_row_is_group (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), FALSE);
  return self->is_group;
}

const char *
ps_marker_row_get_name (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), NULL);

  if (self->name == NULL)
    self->name = ps_view_series_name (self->series->name);

  return self->name;
}

static PsCeDescriptionStats
description_stats (PsMarkerRow *self)
{
  PsCeDescriptionStats stats = { 0 };

  stats.have_seconds = self->series->has_seconds && self->series->stats.count > 0;
  stats.mean_s = self->series->stats.mean;
  stats.min_s = self->series->stats.min;
  stats.max_s = self->series->stats.max;

  return stats;
}

const char *
ps_marker_row_get_expanded_name (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), NULL);

  if (self->expanded_name == NULL)
    {
      PsCeDescriptionStats stats = description_stats (self);
      g_autofree char *expanded = ps_ce_description_expand_to_string (self->series->name, &stats);

      self->expanded_name = ps_view_series_name (expanded);
    }

  return self->expanded_name;
}

const char *
ps_marker_row_get_description_value (PsMarkerRow *self,
                                     const char  *key)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), NULL);

  if (self->expanded_items == NULL)
    {
      PsCeDescriptionStats stats = description_stats (self);

      self->expanded_items = ps_ce_description_expand (self->series->name, &stats);
    }

  for (guint i = 0; i < self->expanded_items->len; i++)
    {
      const PsCeDescriptionItem *item = &g_array_index (self->expanded_items, PsCeDescriptionItem, i);

      if (g_strcmp0 (item->key, key) == 0)
        return item->value;
    }

  return NULL;
}

const char *
ps_marker_row_get_app (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), NULL);
  return self->series->app;
}

guint64
ps_marker_row_get_count (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.count;
}

gboolean
ps_marker_row_has_seconds (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), FALSE);
  return self->series->has_seconds;
}

double
ps_marker_row_get_min (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.min;
}

double
ps_marker_row_get_max (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.max;
}

double
ps_marker_row_get_mean (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.mean;
}

double
ps_marker_row_get_median (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.median;
}

double
ps_marker_row_get_p95 (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.p95;
}

double
ps_marker_row_get_stddev (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.stddev;
}

double
ps_marker_row_get_total (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->stats.sum;
}

double
ps_marker_row_get_mean_ticks (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->ticks != NULL ? self->series->ticks_stats.mean : 0;
}

double
ps_marker_row_get_total_ticks (PsMarkerRow *self)
{
  g_return_val_if_fail (PS_IS_MARKER_ROW (self), 0);
  return self->series->ticks != NULL ? self->series->ticks_stats.sum : 0;
}
