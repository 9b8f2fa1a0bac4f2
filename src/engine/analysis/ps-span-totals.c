/* ps-span-totals.c — spans summed up per scope name, as they end
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3, §5; cli.md "stats"
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-span-totals.h"
#include "ps-util.h"

typedef struct
{
  guint32 session;
  guint32 track;    /* PS_NONE across threads */
  guint32 name;
  guint32 context;
} GroupKey;

/* Open addressing: a span looks its group up once, and millions of spans
 * come by, so a GHashTable's indirections would dominate */
typedef struct
{
  GroupKey key;
  guint    group;   /* index among the groups; PS_NONE for a free slot */
} GroupSlot;

/* What every span of a group touches, in one cache line */
typedef struct
{
  guint64  track_bits;     /* tracks below 64 it has, as bits */
  guint64  first_span;
  gint64   self_ns;
  guint64  n_excluded;
  guint64  n_flagged;
  /* Without KEEP_VALUES: the durations while all are whole milliseconds,
   * else NULL (they are doubles in the group's values then). RTL times
   * have a resolution of 1 ms, so a whole log fits, in half the memory. */
  guint32 *whole_ms;
  guint32  n_whole_ms;
  guint32  whole_ms_size;
} Tally;

/* The rest of a group */
typedef struct
{
  PsSpanGroup public;
  guint       tracks_size;
  gboolean    all_whole_ms;  /* KEEP_VALUES: whether the values all are */
} Group;

struct _PsSpanTotals
{
  PsSpanTotalsFlags flags;
  GArray           *groups;      /* Group */
  GArray           *tallies;     /* Tally, one per group */
  GroupSlot        *slots;
  guint             mask;
  GroupKey          last_key;
  guint             last_group;  /* PS_NONE if none */
  gboolean          finished;
};

#define NS_PER_MS G_GINT64_CONSTANT (1000000)

static inline gboolean
group_key_equal (const GroupKey *a,
                 const GroupKey *b)
{
  return a->name == b->name && a->context == b->context && a->track == b->track && a->session == b->session;
}

static inline guint64
group_key_hash (const GroupKey *key)
{
  guint64 h = ((guint64)key->name << 32 | key->context) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= ((guint64)key->track << 32 | key->session) * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F);
  return h ^ (h >> 29);
}

static void
slots_grow (PsSpanTotals *self)
{
  guint n_slots = self->slots != NULL ? (self->mask + 1) * 2 : 256;
  GroupSlot *slots = g_new (GroupSlot, n_slots);

  for (guint i = 0; i < n_slots; i++)
    slots[i].group = PS_NONE;
  for (guint i = 0; self->slots != NULL && i <= self->mask; i++)
    {
      guint j;

      if (self->slots[i].group == PS_NONE)
        continue;
      for (j = group_key_hash (&self->slots[i].key) & (n_slots - 1); slots[j].group != PS_NONE; j = (j + 1) & (n_slots - 1))
        ;
      slots[j] = self->slots[i];
    }

  g_free (self->slots);
  self->slots = slots;
  self->mask = n_slots - 1;
}

PsSpanTotals *
ps_span_totals_new (PsSpanTotalsFlags flags)
{
  PsSpanTotals *self = g_new0 (PsSpanTotals, 1);

  self->flags = flags;
  self->groups = g_array_new (FALSE, FALSE, sizeof (Group));
  self->tallies = g_array_new (FALSE, FALSE, sizeof (Tally));
  self->last_group = PS_NONE;
  slots_grow (self);
  return self;
}

void
ps_span_totals_free (PsSpanTotals *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *group = &g_array_index (self->groups, Group, i);

      g_free (group->public.tracks);
      g_clear_pointer (&group->public.values, g_array_unref);
      g_clear_pointer (&group->public.indexes, g_array_unref);
      g_free (g_array_index (self->tallies, Tally, i).whole_ms);
    }
  g_array_unref (self->groups);
  g_array_unref (self->tallies);
  g_free (self->slots);
  g_free (self);
}

/* A group for a span of a new key, at slot i */
static G_GNUC_NO_INLINE guint
add_group (PsSpanTotals      *self,
           const GroupKey    *key,
           const PsEndedSpan *span,
           guint              i)
{
  Group group = { 0 };
  Tally tally = { 0 };

  group.public.session = key->session;
  group.public.track = key->track;
  group.public.name = key->name;
  group.public.context = key->context;
  group.public.logical = (span->flags & PS_SPAN_FLAG_LOGICAL) != 0;
  tally.first_span = span->index;
  if (self->flags & PS_SPAN_TOTALS_KEEP_VALUES)
    {
      group.public.values = g_array_new (FALSE, FALSE, sizeof (double));
      group.public.indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
      group.all_whole_ms = TRUE;
    }
  else
    {
      tally.whole_ms_size = 16;
      tally.whole_ms = g_new (guint32, tally.whole_ms_size);
    }
  g_array_append_val (self->groups, group);
  g_array_append_val (self->tallies, tally);

  self->slots[i].key = *key;
  self->slots[i].group = self->groups->len - 1;
  if (self->groups->len * 2 > self->mask)
    slots_grow (self);
  return self->groups->len - 1;
}

/* The group of a span, made on first sight */
static inline guint
find_group (PsSpanTotals      *self,
            const PsEndedSpan *span)
{
  GroupKey key;
  guint i;

  key.session = span->session;
  key.track = (self->flags & PS_SPAN_TOTALS_PER_THREAD) ? span->track : PS_NONE;
  key.name = span->name;
  key.context = (span->flags & PS_SPAN_FLAG_LOGICAL) ? span->context : 0;

  if (self->last_group != PS_NONE && group_key_equal (&key, &self->last_key))
    return self->last_group;

  for (i = group_key_hash (&key) & self->mask; self->slots[i].group != PS_NONE; i = (i + 1) & self->mask)
    if (group_key_equal (&self->slots[i].key, &key))
      break;

  self->last_key = key;
  self->last_group = self->slots[i].group != PS_NONE ? self->slots[i].group : add_group (self, &key, span, i);
  return self->last_group;
}

/* A thread the group may not have yet (below 64, its bit said it has not) */
static void
group_add_track (PsSpanTotals *self,
                 guint         index,
                 guint32       track)
{
  Group *group = &g_array_index (self->groups, Group, index);
  PsSpanGroup *public = &group->public;

  if (track >= 64)
    {
      for (guint i = 0; i < public->n_tracks; i++)
        if (public->tracks[i] == track)
          return;
    }

  if (public->n_tracks == group->tracks_size)
    {
      group->tracks_size = MAX (4, group->tracks_size * 2);
      public->tracks = g_renew (guint32, public->tracks, group->tracks_size);
    }
  public->tracks[public->n_tracks++] = track;
}

static inline gboolean
is_whole_ms (gint64 duration_ns)
{
  return duration_ns % NS_PER_MS == 0 && duration_ns / NS_PER_MS <= G_MAXUINT32;
}

/* A duration that is not whole milliseconds, or one kept with its span */
static G_GNUC_NO_INLINE void
group_add_value (PsSpanTotals *self,
                 guint         index,
                 gint64        duration_ns,
                 guint64       span_index)
{
  Group *group = &g_array_index (self->groups, Group, index);
  Tally *tally = &g_array_index (self->tallies, Tally, index);
  double value;

  if (tally->whole_ms != NULL)
    {
      /* From now on in doubles */
      group->public.values = g_array_sized_new (FALSE, FALSE, sizeof (double), tally->n_whole_ms + 1);
      for (guint i = 0; i < tally->n_whole_ms; i++)
        {
          value = (double)((gint64)tally->whole_ms[i] * NS_PER_MS) / 1e9;
          g_array_append_val (group->public.values, value);
        }
      g_clear_pointer (&tally->whole_ms, g_free);
      tally->n_whole_ms = 0;
    }
  else if (group->all_whole_ms && !is_whole_ms (duration_ns))
    group->all_whole_ms = FALSE;

  value = (double)duration_ns / 1e9;
  g_array_append_val (group->public.values, value);
  if (group->public.indexes != NULL)
    g_array_append_val (group->public.indexes, span_index);
}

guint
ps_span_totals_lookup (PsSpanTotals      *self,
                       const PsEndedSpan *span)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (!self->finished, 0);

  return find_group (self, span);
}

void
ps_span_totals_add (PsSpanTotals      *self,
                    const PsEndedSpan *span)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->finished);

  ps_span_totals_add_to (self, find_group (self, span), span);
}

void
ps_span_totals_add_to (PsSpanTotals      *self,
                       guint              index,
                       const PsEndedSpan *span)
{
  Tally *tally;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->finished);
  g_return_if_fail (index < self->tallies->len);

  tally = &g_array_index (self->tallies, Tally, index);
  if (span->track >= 64 || !(tally->track_bits & (G_GUINT64_CONSTANT (1) << span->track)))
    {
      if (span->track < 64)
        tally->track_bits |= G_GUINT64_CONSTANT (1) << span->track;
      group_add_track (self, index, span->track);
    }
  tally->first_span = MIN (tally->first_span, span->index);

  /* ps_span_is_measured() */
  if ((span->flags & PS_SPAN_FLAGS_NOT_MEASURED) != 0 || span->duration_ns < 0)
    {
      tally->n_excluded++;
      return;
    }
  if (span->flags & (PS_SPAN_FLAG_NAME_MISMATCH | PS_SPAN_FLAG_TRUNCATED))
    tally->n_flagged++;

  tally->self_ns = ps_util_add_saturated (tally->self_ns, span->self_ns);
  if (G_LIKELY (tally->whole_ms != NULL && is_whole_ms (span->duration_ns)))
    {
      if (G_UNLIKELY (tally->n_whole_ms == tally->whole_ms_size))
        {
          tally->whole_ms_size *= 2;
          tally->whole_ms = g_renew (guint32, tally->whole_ms, tally->whole_ms_size);
        }
      tally->whole_ms[tally->n_whole_ms++] = (guint32)(span->duration_ns / NS_PER_MS);
    }
  else
    group_add_value (self, index, span->duration_ns, span->index);
}

static gint
compare_track (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  guint32 track_a = *(const guint32 *)a;
  guint32 track_b = *(const guint32 *)b;

  (void)user_data;
  return track_a < track_b ? -1 : track_a > track_b;
}

/* Kept values that are all whole milliseconds get the statistics they
 * would have had without being kept */
static void
compute_kept_whole_ms (const GArray *values,
                       PsStats      *out)
{
  g_autofree guint32 *ms = g_new (guint32, values->len + 1);

  for (guint i = 0; i < values->len; i++)
    ms[i] = (guint32)llround (g_array_index (values, double, i) * 1000.0);
  ps_stats_compute_ms (ms, values->len, out);
}

static gboolean
group_finish (Group        *group,
              Tally        *tally,
              gboolean      keep_values,
              GCancellable *cancellable)
{
  PsSpanGroup *public = &group->public;

  public->first_span = tally->first_span;
  public->self_ns = tally->self_ns;
  public->n_excluded = tally->n_excluded;
  public->n_flagged = tally->n_flagged;
  /* Threads in the order they appeared in the log */
  g_qsort_with_data (public->tracks, public->n_tracks, sizeof (guint32), compare_track, NULL);

  if (tally->whole_ms != NULL)
    {
      ps_stats_compute_ms (tally->whole_ms, tally->n_whole_ms, &public->stats);
      g_clear_pointer (&tally->whole_ms, g_free);
      return TRUE;
    }
  if (public->values == NULL || public->values->len == 0)
    {
      memset (&public->stats, 0, sizeof public->stats);
      return TRUE;
    }
  if (!keep_values)
    {
      gboolean done = ps_stats_compute_cancellable ((double *)(gpointer)public->values->data,
                                                    public->values->len, &public->stats, cancellable);

      g_clear_pointer (&public->values, g_array_unref);
      return done;
    }
  if (group->all_whole_ms)
    {
      compute_kept_whole_ms (public->values, &public->stats);
      return TRUE;
    }

  {
    g_autofree double *copy = g_memdup2 (public->values->data, public->values->len * sizeof (double));

    return ps_stats_compute_cancellable (copy, public->values->len, &public->stats, cancellable);
  }
}

gboolean
ps_span_totals_finish (PsSpanTotals *self,
                       GCancellable *cancellable)
{
  gboolean keep_values;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);

  self->finished = TRUE;
  g_clear_pointer (&self->slots, g_free);
  keep_values = (self->flags & PS_SPAN_TOTALS_KEEP_VALUES) != 0;
  for (guint i = 0; i < self->groups->len; i++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (!group_finish (&g_array_index (self->groups, Group, i), &g_array_index (self->tallies, Tally, i),
                         keep_values, cancellable))
        return FALSE;
    }
  return TRUE;
}

gboolean
ps_span_totals_is_finished (PsSpanTotals *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->finished;
}

guint
ps_span_totals_get_n_groups (PsSpanTotals *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->groups->len;
}

const PsSpanGroup *
ps_span_totals_get_group (PsSpanTotals *self,
                          guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->groups->len, NULL);

  return &g_array_index (self->groups, Group, index).public;
}
