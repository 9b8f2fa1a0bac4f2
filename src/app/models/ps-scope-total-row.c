/* ps-scope-total-row.c — one row of the totals table: a scope name's statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include "ps-row-properties.h"
#include "ps-scope-total-row.h"
#include "ps-util.h"

struct _PsScopeTotalRow
{
  GObject          parent_instance;

  PsScopeAnalysis *analysis;
  PsSeries        *series;   /* owned by analysis */
  char            *name;
  char            *context;
  char            *threads;
  gint64           first_thread;  /* the lowest thread id, -1 if none */
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_CONTEXT,
  PROP_SESSION,
  PROP_N_THREADS,
  PROP_FIRST_THREAD,
  PROP_CALLS,
  PROP_TOTAL,
  PROP_MIN,
  PROP_MAX,
  PROP_MEAN,
  PROP_MEDIAN,
  PROP_SELF,
  PROP_EXCLUDED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PsScopeTotalRow, ps_scope_total_row, G_TYPE_OBJECT)

static void
ps_scope_total_row_finalize (GObject *object)
{
  PsScopeTotalRow *self = PS_SCOPE_TOTAL_ROW (object);

  g_clear_pointer (&self->analysis, ps_scope_analysis_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->context, g_free);
  g_clear_pointer (&self->threads, g_free);

  G_OBJECT_CLASS (ps_scope_total_row_parent_class)->finalize (object);
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  gint64 id_a = *(const gint64 *)a;
  gint64 id_b = *(const gint64 *)b;

  return (id_a > id_b) - (id_a < id_b);
}

static void
ps_scope_total_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PsScopeTotalRow *self = PS_SCOPE_TOTAL_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_CONTEXT:
      g_value_set_string (value, self->context);
      break;
    case PROP_SESSION:
      g_value_set_uint (value, self->series->session);
      break;
    case PROP_N_THREADS:
      g_value_set_uint (value, self->series->n_instances);
      break;
    case PROP_FIRST_THREAD:
      g_value_set_int64 (value, self->first_thread);
      break;
    case PROP_CALLS:
      g_value_set_uint64 (value, ps_scope_total_row_get_calls (self));
      break;
    case PROP_TOTAL:
      g_value_set_double (value, ps_scope_total_row_get_total (self));
      break;
    case PROP_MIN:
      g_value_set_double (value, ps_scope_total_row_get_min (self));
      break;
    case PROP_MAX:
      g_value_set_double (value, ps_scope_total_row_get_max (self));
      break;
    case PROP_MEAN:
      g_value_set_double (value, ps_scope_total_row_get_mean (self));
      break;
    case PROP_MEDIAN:
      g_value_set_double (value, ps_scope_total_row_get_median (self));
      break;
    case PROP_SELF:
      g_value_set_double (value, ps_scope_total_row_get_self (self));
      break;
    case PROP_EXCLUDED:
      g_value_set_uint64 (value, ps_scope_total_row_get_excluded (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
count_property (const char *name)
{
  return g_param_spec_uint64 (name, NULL, NULL, 0, G_MAXUINT64, 0,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
ps_scope_total_row_class_init (PsScopeTotalRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_scope_total_row_finalize;
  object_class->get_property = ps_scope_total_row_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONTEXT] =
    g_param_spec_string ("context", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SESSION] =
    g_param_spec_uint ("session", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_THREADS] =
    g_param_spec_uint ("n-threads", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FIRST_THREAD] =
    g_param_spec_int64 ("first-thread", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CALLS] = count_property ("calls");
  properties[PROP_TOTAL] = ps_row_double_property ("total");
  properties[PROP_MIN] = ps_row_double_property ("min");
  properties[PROP_MAX] = ps_row_double_property ("max");
  properties[PROP_MEAN] = ps_row_double_property ("mean");
  properties[PROP_MEDIAN] = ps_row_double_property ("median");
  properties[PROP_SELF] = ps_row_double_property ("self");
  properties[PROP_EXCLUDED] = count_property ("excluded");

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ps_scope_total_row_init (PsScopeTotalRow *self)
{
}

PsScopeTotalRow *
ps_scope_total_row_new (PsScopeAnalysis *analysis,
                        PsSeries        *series)
{
  PsScopeTotalRow *self;
  g_autoptr(GArray) ids = NULL;
  GString *threads;

  g_return_val_if_fail (analysis != NULL, NULL);
  g_return_val_if_fail (series != NULL, NULL);

  self = g_object_new (PS_TYPE_SCOPE_TOTAL_ROW, NULL);
  self->analysis = ps_scope_analysis_ref (analysis);
  self->series = series;
  self->name = ps_util_display_text (series->name, -1);
  self->context = ps_util_display_text (series->context != NULL ? series->context : "", -1);

  /* The thread ids in numeric order */
  ids = g_array_sized_new (FALSE, FALSE, sizeof (gint64), series->n_instances);
  for (guint i = 0; i < series->n_instances; i++)
    g_array_append_val (ids, ps_event_store_get_track (analysis->store, series->tracks[i])->number);
  g_array_sort (ids, compare_ids);
  threads = g_string_new (NULL);
  for (guint i = 0; i < ids->len; i++)
    {
      if (i > 0)
        g_string_append (threads, ", ");
      g_string_append_printf (threads, "%" PRId64, g_array_index (ids, gint64, i));
    }
  self->threads = g_string_free (threads, FALSE);
  self->first_thread = ids->len > 0 ? g_array_index (ids, gint64, 0) : -1;

  return self;
}

const PsSeries *
ps_scope_total_row_get_series (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), NULL);
  return self->series;
}

const char *
ps_scope_total_row_get_name (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), NULL);
  return self->name;
}

const char *
ps_scope_total_row_get_context (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), NULL);
  return self->context;
}

const char *
ps_scope_total_row_get_threads (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), NULL);
  return self->threads;
}

guint64
ps_scope_total_row_get_calls (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->stats.count;
}

double
ps_scope_total_row_get_total (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->stats.sum;
}

double
ps_scope_total_row_get_min (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->stats.min;
}

double
ps_scope_total_row_get_max (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->stats.max;
}

double
ps_scope_total_row_get_mean (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->stats.mean;
}

double
ps_scope_total_row_get_median (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->stats.median;
}

double
ps_scope_total_row_get_self (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->self_sum;
}

guint64
ps_scope_total_row_get_excluded (PsScopeTotalRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_TOTAL_ROW (self), 0);
  return self->series->n_excluded;
}
