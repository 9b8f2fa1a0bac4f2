/* ps-format-perflib-plv2.c — PerfLib V2 captures (PLV2) into the store
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §3 (buffers), §3.8–3.9 (queries, registration),
 * §5 (display values), §8 (the container).
 *
 * The container reader (ps-plv2.c) hands over records; registration
 * records become counter sets, QUERY records the map from a sample's
 * blocks to counter sets, and each SAMPLE buffer, decoded with every
 * check of ps-perflib-block.c, becomes one reading per displayed counter
 * of each instance: the display value computed with the counter type's
 * formula from this sample and the previous one (§5), the raw value and
 * base kept beside it. Counters are tracks MACHINE ← OBJECT ← INSTANCE ←
 * COUNTER, as for PDH logs (see PsTrackKind).
 *
 * Consecutive samples of one query almost always have the same shape:
 * the same blocks, counters and instances. What a reading needs besides
 * its raw value (its series, where its companions are) is worked out once
 * per shape, a "plan", and reused as long as the shape holds.
 *
 * A sample of the plan's shape that follows the one before directly is
 * read as columns: each displayed value in turn, its display value
 * computed inline for the common formulas, its series' statistics updated
 * in place, and only the readings the store keeps built at all. The
 * previous raw values of the series then live in one array for the whole
 * sample; they are written back to the series when a sample takes the
 * general way again.
 *
 * The work is shared between the loader's two threads: the reading thread
 * checks the container and compares each SAMPLE record with the shape
 * last published by the parsing thread, reads its values and computes
 * the display values against the SAMPLE record before it; the parsing
 * thread uses them when its plan is still that shape's, and updates the
 * series and the store.
 *
 * This file holds the records, tracks, plans and the parser; the reading
 * of samples, by columns or the general way, is in
 * ps-format-perflib-plv2-samples.c.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-perflib-plv2-private.h"
#include "ps-util.h"


typedef struct
{
  guint32 set;
  guint32 instance;                 /* INSTANCE track, or PS_NONE for blocks without instances */
  guint32 counter_id;
} SeriesKey;

static guint
series_key_hash (gconstpointer key)
{
  const SeriesKey *k = key;

  return (guint)(k->set * 2654435761u) ^ (k->instance * 40503u) ^ k->counter_id;
}

static gboolean
series_key_equal (gconstpointer a,
                  gconstpointer b)
{
  return memcmp (a, b, sizeof (SeriesKey)) == 0;
}

static void
counter_set_entry_free (gpointer data)
{
  CounterSetEntry *entry = data;

  ps_perflib_counterset_free (entry->set);
  g_hash_table_unref (entry->instances);
  g_hash_table_unref (entry->name_counts);
  g_free (entry);
}


void
plv2_ensure_session (Plv2Parser *self)
{
  if (self->session != PS_NONE)
    return;
  self->session = ps_event_store_add_session (self->store, 0, FALSE);
  ps_event_store_set_metadata (self->store, self->session, "time_unit", "ns");
}

/* ------------------------------------------------------------------------ */
/* Records                                                                   */

static void
shape_clear (gpointer data)
{
  Shape *shape = data;

  g_free (shape->words);
  g_free (shape->mask);
  g_free (shape->value_offsets);
  g_free (shape->value_sizes);
  g_free (shape->columns);
  g_free (shape->order);
}

static void
shape_unref (Shape *shape)
{
  g_atomic_rc_box_release_full (shape, shape_clear);
}

void
plv2_shape_match_free (ShapeMatch *match)
{
  if (match == NULL)
    return;
  g_clear_pointer (&match->shape, shape_unref);
  g_clear_pointer (&match->sample.values, g_atomic_rc_box_release);
  g_free (match->displays);
  g_free (match->computed);
  g_free (match);
}

void
plv2_publish_shape (Plv2Parser *self)
{
  Shape *old;

  g_mutex_lock (&self->shape_lock);
  old = self->published_shape;
  self->published_shape = self->shape != NULL ? g_atomic_rc_box_acquire (self->shape) : NULL;
  g_mutex_unlock (&self->shape_lock);
  g_clear_pointer (&old, shape_unref);
}

void
plv2_forget_shape (Plv2Parser *self)
{
  if (self->shape == NULL)
    return;
  g_clear_pointer (&self->shape, shape_unref);
  plv2_publish_shape (self);
}

void
plv2_read_session (Plv2Parser         *self,
                   const PsPlv2Record *record)
{
  g_autofree char *text = g_utf8_make_valid ((const char *)record->body, (gssize)record->body_size);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *equals = strchr (lines[i], '=');
      g_autofree char *key = NULL;

      if (equals == NULL || equals == lines[i])
        continue;
      key = g_strndup (lines[i], equals - lines[i]);
      ps_event_store_set_metadata (self->store, self->session, g_strstrip (key), equals + 1);
      if (g_str_equal (key, "machine") && equals[1] != '\0' && self->machine_name == NULL)
        self->machine_name = g_strdup (equals + 1);
    }
}

static CounterSetEntry *
lookup_set (Plv2Parser          *self,
            const PsPerflibGuid *guid,
            guint32             *index)
{
  for (guint i = 0; i < self->sets->len; i++)
    {
      CounterSetEntry *entry = g_ptr_array_index (self->sets, i);

      if (ps_perflib_guid_equal (&entry->guid, guid))
        {
          if (index != NULL)
            *index = i;
          return entry;
        }
    }
  return NULL;
}

void
plv2_read_registration (Plv2Parser         *self,
                        const PsPlv2Record *record)
{
  g_autoptr(PsPerflibCounterSet) set = NULL;
  g_autoptr(GError) error = NULL;
  PsPlv2RegIter iter;
  PsPlv2RegEntry reg;
  CounterSetEntry *entry;
  PsPerflibGuid guid;
  gboolean have_structure = FALSE;

  /* The structure (code 1) first, whatever the order of the entries */
  ps_plv2_reg_iter_init (&iter, record);
  while (ps_plv2_reg_iter_next (&iter, &reg, NULL))
    if (reg.request_code == PS_PERFLIB_REG_COUNTERSET_STRUCT && reg.win32_status == 0 && !have_structure)
      {
        have_structure = TRUE;
        if (!ps_perflib_counterset_decode (reg.data, reg.data_size, &set, &error))
          ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-REGISTRATION", record->offset,
                                   _("Counter set registration at byte offset %" PRIu64 ": %s"),
                                   record->offset, error->message);
        g_clear_error (&error);
      }
  if (set == NULL)
    {
      ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-REGISTRATION", record->offset,
                               _("Counter set registration at byte offset %" PRIu64 " has no usable structure "
                                 "(request code 1); its counters cannot be read"), record->offset);
      return;
    }

  ps_plv2_reg_iter_init (&iter, record);
  while (ps_plv2_reg_iter_next (&iter, &reg, NULL))
    {
      if (reg.request_code == PS_PERFLIB_REG_COUNTERSET_STRUCT || reg.win32_status != 0)
        continue;
      if (!ps_perflib_counterset_apply (set, reg.request_code, reg.data, reg.data_size, &error))
        ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-REGISTRATION", record->offset,
                                 _("Counter set registration at byte offset %" PRIu64 ", request code %u: %s"),
                                 record->offset, reg.request_code, error->message);
      g_clear_error (&error);
    }
  for (guint i = 0; i < set->n_warnings; i++)
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-REGISTRATION", record->offset,
                             _("Counter set registration at byte offset %" PRIu64 ": %s"),
                             record->offset, set->warnings[i].message);

  /* A later registration replaces the earlier one from here on (§8.4) */
  ps_perflib_guid_read (&guid, record->guid);
  entry = lookup_set (self, &guid, NULL);
  if (entry == NULL)
    {
      entry = g_new0 (CounterSetEntry, 1);
      entry->guid = guid;
      entry->object = PS_NONE;
      entry->instances = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      entry->name_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_ptr_array_add (self->sets, entry);
    }
  ps_perflib_counterset_free (entry->set);
  entry->set = g_steal_pointer (&set);
  /* Plans point into registrations: make them again */
  g_array_set_size (self->plan_signature, 0);
  plv2_forget_shape (self);
}

void
plv2_read_query (Plv2Parser         *self,
                 const PsPlv2Record *record)
{
  g_autoptr(PsPerflibQuery) query = NULL;
  g_autoptr(GError) error = NULL;

  /* The reader has warned (W-PLV2-GENERATION): the consumer skips it (§8.4 rule 2) */
  if (record->flags & PS_PLV2_RECORD_FLAG_OUT_OF_ORDER)
    return;
  if (!ps_perflib_query_decode (record->body, record->body_size, &query, &error))
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-QUERY", record->offset,
                             _("Query at byte offset %" PRIu64 ": %s"), record->offset, error->message);
  if (query == NULL)
    return;
  for (guint i = 0; i < query->n_warnings; i++)
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-QUERY", record->offset,
                             _("Query at byte offset %" PRIu64 ": %s"), record->offset, query->warnings[i].message);
  g_hash_table_replace (self->queries, GUINT_TO_POINTER (record->generation), g_steal_pointer (&query));
  g_array_set_size (self->plan_signature, 0);
  plv2_forget_shape (self);
}

/* ------------------------------------------------------------------------ */
/* Tracks                                                                    */

static const char *
counter_set_name (const PsPerflibCounterSet *set)
{
  if (set->name != NULL && *set->name != '\0')
    return set->name;
  if (set->english_name != NULL && *set->english_name != '\0')
    return set->english_name;
  return NULL;
}

static guint32
object_track (Plv2Parser      *self,
              CounterSetEntry *entry)
{
  PsTrack track = { 0 };
  g_autofree char *guid = NULL;
  const char *name = counter_set_name (entry->set);

  if (entry->object != PS_NONE)
    return entry->object;

  if (self->machine == PS_NONE && self->machine_name != NULL)
    {
      PsTrack machine = { 0 };

      machine.name = ps_event_store_intern (self->store, self->machine_name, -1);
      machine.parent = PS_NONE;
      machine.session = self->session;
      machine.kind = PS_TRACK_MACHINE;
      self->machine = ps_event_store_add_track (self->store, &machine);
    }

  if (name == NULL)
    guid = ps_perflib_guid_to_string (&entry->guid);
  track.name = ps_event_store_intern (self->store, name != NULL ? name : guid, -1);
  track.parent = self->machine;
  track.session = self->session;
  track.kind = PS_TRACK_OBJECT;
  entry->object = ps_event_store_add_track (self->store, &track);
  return entry->object;
}

/* Instances are told apart by name and id; like PDH, a second instance of
 * a name gets #1, a third #2, … */
static guint32
instance_track (Plv2Parser              *self,
                CounterSetEntry         *entry,
                const PsPerflibInstance *instance,
                guint64                  offset)
{
  g_autofree char *key = g_strdup_printf ("%u\x1f%s", instance->instance_id, instance->name);
  gpointer found = g_hash_table_lookup (entry->instances, key);
  PsTrack track = { 0 };
  guint n_named;
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  n_named = GPOINTER_TO_UINT (g_hash_table_lookup (entry->name_counts, instance->name));
  g_hash_table_replace (entry->name_counts, g_strdup (instance->name), GUINT_TO_POINTER (n_named + 1));

  track.name = ps_event_store_intern (self->store, instance->name, -1);
  track.parent = object_track (self, entry);
  track.session = self->session;
  track.number = n_named;
  track.ordinal = instance->instance_id;
  track.line = offset;
  track.kind = PS_TRACK_INSTANCE;
  index = ps_event_store_add_track (self->store, &track);
  g_hash_table_insert (entry->instances, g_steal_pointer (&key), GUINT_TO_POINTER (index + 1));
  return index;
}

static const char *
unit_of (guint32          type,
         PsPerflibOptions options)
{
  const char *id = ps_perflib_type_get_unit_id (type, options);

  if (g_str_equal (id, "percent") || g_str_equal (id, "percent_of_component"))
    return "%";
  if (g_str_equal (id, "per_second"))
    return "/sec";
  if (g_str_equal (id, "seconds"))
    return "s";
  return NULL;
}

static guint32
counter_track (Plv2Parser                 *self,
               CounterSetEntry            *entry,
               guint32                     instance,
               const PsPerflibCounterInfo *info,
               guint64                     offset)
{
  PsTrack track = { 0 };
  const char *name = info->name != NULL && *info->name != '\0' ? info->name : info->english_name;
  g_autofree char *fallback = NULL;
  g_autofree char *path = NULL;
  const char *object_name = ps_event_store_get_string (self->store,
                                                       ps_event_store_get_track (self->store,
                                                                                 object_track (self, entry))->name);
  const char *unit = unit_of (info->type, self->options);

  if (name == NULL || *name == '\0')
    name = fallback = g_strdup_printf (_("Counter %u"), info->counter_id);
  /* Raw counts named as a share ("% of Maximum Frequency") */
  if (unit == NULL && name[0] == '%')
    unit = "%";
  /* The path as Performance Monitor writes it */
  if (instance != PS_NONE)
    {
      const PsTrack *up = ps_event_store_get_track (self->store, instance);
      const char *instance_name = ps_event_store_get_string (self->store, up->name);

      path = up->number > 0
             ? g_strdup_printf ("\\\\%s\\%s(%s#%" PRId64 ")\\%s", self->machine_name != NULL ? self->machine_name : "",
                                object_name, instance_name, up->number, name)
             : g_strdup_printf ("\\\\%s\\%s(%s)\\%s", self->machine_name != NULL ? self->machine_name : "",
                                object_name, instance_name, name);
    }
  else
    path = g_strdup_printf ("\\\\%s\\%s\\%s", self->machine_name != NULL ? self->machine_name : "", object_name, name);

  track.name = ps_event_store_intern (self->store, name, -1);
  track.category = ps_event_store_intern (self->store, path, -1);
  track.parent = instance != PS_NONE ? instance : object_track (self, entry);
  track.session = self->session;
  track.number = info->counter_id;
  track.ordinal = info->type;
  track.unit = unit != NULL ? ps_event_store_intern (self->store, unit, -1) : 0;
  track.line = offset;
  track.kind = PS_TRACK_COUNTER;
  track.flags = PS_TRACK_FLAG_COUNTER_TYPE;
  return ps_event_store_add_track (self->store, &track);
}

static guint32
series_for (Plv2Parser                 *self,
            guint32                     set_index,
            CounterSetEntry            *entry,
            guint32                     instance,
            const PsPerflibCounterInfo *info,
            guint64                     offset)
{
  SeriesKey key = { set_index, instance, info->counter_id };
  gpointer found = g_hash_table_lookup (self->series_index, &key);
  Series series = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  series.track = counter_track (self, entry, instance, info, offset);
  series.type = info->type;
  series.info = ps_perflib_type_get_info (info->type);
  g_array_append_val (self->series, series);
  g_hash_table_insert (self->series_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->series->len));
  return self->series->len - 1;
}

/* ------------------------------------------------------------------------ */
/* Plans                                                                     */

/* The shape of a sample: everything a plan depends on */
void
plv2_make_signature (Plv2Parser            *self,
                     guint32                generation,
                     const PsPerflibBuffer *buffer,
                     GArray                *signature)
{
  g_array_set_size (signature, 0);
  g_array_append_val (signature, generation);
  g_array_append_val (signature, buffer->n_blocks);
  for (guint b = 0; b < buffer->n_blocks; b++)
    {
      const PsPerflibBlock *block = &buffer->blocks[b];
      guint32 fields[5] = { block->status, block->type, block->position, block->n_values, block->n_instances };

      g_array_append_vals (signature, fields, G_N_ELEMENTS (fields));
      /* No ids, no array: not even a pointer into it */
      if (block->n_counter_ids > 0)
        g_array_append_vals (signature, buffer->counter_ids + block->first_counter_id, block->n_counter_ids);
      for (guint i = 0; i < block->n_instances; i++)
        {
          const PsPerflibInstance *instance = &buffer->instances[block->first_instance + i];
          guint32 name = ps_event_store_intern (self->store, instance->name, -1);

          g_array_append_val (signature, instance->instance_id);
          g_array_append_val (signature, name);
        }
    }
}

static guint32
counter_id_of (const PsPerflibBuffer     *buffer,
               const PsPerflibValue      *value,
               const PsPerflibIdentifier *spec)
{
  if (value->counter_id != PS_PERF_NO_COUNTER)
    return value->counter_id;
  return spec != NULL ? spec->counter_id : PS_PERF_NO_COUNTER;
}

/* §5.2: the base of a type that needs one and names none is the next
 * counter in registration order, if that is a base */
static guint32
base_id_of (const PsPerflibCounterSet  *set,
            const PsPerflibCounterInfo *info)
{
  if (info->base_counter_id != PS_PERF_NO_COUNTER)
    return info->base_counter_id;
  if (info->type == PS_PERF_PRECISION_SYSTEM_TIMER && info->perf_time_id != PS_PERF_NO_COUNTER)
    return info->perf_time_id;
  if (!ps_perflib_type_needs_base (info->type))
    return PS_PERF_NO_COUNTER;
  for (guint i = 0; i + 1 < set->n_counters; i++)
    if (set->counters[i].counter_id == info->counter_id)
      return ps_perflib_type_is_base (set->counters[i + 1].type) ? set->counters[i + 1].counter_id
                                                                   : PS_PERF_NO_COUNTER;
  return PS_PERF_NO_COUNTER;
}

/* Companions come from the same instance of the same sample (§5.2) */
static guint32
find_companion (GHashTable *values,
                guint32     set,
                guint32     instance,
                guint32     counter_id)
{
  SeriesKey key = { set, instance, counter_id };
  gpointer found;

  if (counter_id == PS_PERF_NO_COUNTER)
    return NO_INDEX;
  found = g_hash_table_lookup (values, &key);
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : NO_INDEX;
}

void
plv2_make_plan (Plv2Parser             *self,
                const PsPerflibQuery   *query,
                const PsPerflibBuffer  *buffer,
                guint64                 offset)
{
  g_autoptr(GHashTable) values = g_hash_table_new_full (series_key_hash, series_key_equal, g_free, NULL);
  g_autofree guint32 *set_of_value = g_new (guint32, MAX (buffer->n_values, 1));
  g_autofree guint32 *instance_of_value = g_new (guint32, MAX (buffer->n_values, 1));
  g_autofree guint32 *id_of_value = g_new (guint32, MAX (buffer->n_values, 1));

  g_array_set_size (self->plan, buffer->n_values);
  self->plan_serial++;

  /* Who each value is */
  for (guint b = 0; b < buffer->n_blocks; b++)
    {
      const PsPerflibBlock *block = &buffer->blocks[b];
      const PsPerflibIdentifier *spec = ps_perflib_query_get_for_block (query, block->position);
      CounterSetEntry *entry = NULL;
      guint32 set_index = NO_INDEX;

      if (spec != NULL)
        {
          entry = lookup_set (self, &spec->counterset_guid, &set_index);
          if (entry == NULL && !self->warned_unregistered)
            {
              g_autofree char *text = ps_perflib_guid_to_string (&spec->counterset_guid);

              self->warned_unregistered = TRUE;
              ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-UNREGISTERED", offset,
                                       _("Sample at byte offset %" PRIu64 ": counter set %s has no registration "
                                         "before it; its values are skipped"), offset, text);
            }
        }

      for (guint v = 0; v < block->n_values; v++)
        {
          guint index = block->first_value + v;
          const PsPerflibValue *value = &buffer->values[index];
          guint32 instance = PS_NONE;

          set_of_value[index] = set_index;
          id_of_value[index] = counter_id_of (buffer, value, spec);
          if (entry != NULL && value->instance != PS_PERFLIB_NO_INSTANCE)
            instance = instance_track (self, entry, &buffer->instances[value->instance],
                                       offset + buffer->instances[value->instance].offset);
          instance_of_value[index] = instance;
          if (set_index != NO_INDEX && block->status == 0)
            {
              SeriesKey key = { set_index, instance, id_of_value[index] };

              /* For duplicates, the first occurrence is the companion */
              if (!g_hash_table_contains (values, &key))
                g_hash_table_insert (values, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index + 1));
            }
        }
    }

  /* Where each one goes, and its companions */
  for (guint index = 0; index < buffer->n_values; index++)
    {
      ValuePlan *plan = &g_array_index (self->plan, ValuePlan, index);
      CounterSetEntry *entry;
      const PsPerflibCounterInfo *info;
      guint32 set = set_of_value[index];
      guint32 instance = instance_of_value[index];

      plan->series = plan->base = plan->time = plan->freq = plan->multi = NO_INDEX;
      plan->data_offset = (guint32)buffer->values[index].data_offset;
      plan->data_size = buffer->values[index].has_value ? (guint8)buffer->values[index].data_size : 0;
      if (set == NO_INDEX)
        continue;
      entry = g_ptr_array_index (self->sets, set);
      info = ps_perflib_counterset_lookup (entry->set, id_of_value[index]);
      if (info == NULL || ps_perflib_type_get_display (info->type) == PS_PERFLIB_DISPLAY_HIDDEN
          || ps_perflib_type_get_display (info->type) == PS_PERFLIB_DISPLAY_TEXT)
        continue;

      plan->series = series_for (self, set, entry, instance, info, offset + buffer->values[index].offset);
      plan->base = find_companion (values, set, instance, base_id_of (entry->set, info));
      plan->time = find_companion (values, set, instance, info->perf_time_id);
      plan->freq = find_companion (values, set, instance, info->perf_freq_id);
      plan->multi = find_companion (values, set, instance, info->multi_id);
      if (plan->multi == NO_INDEX && (info->type & PS_PERF_MULTI_COUNTER))
        {
          const PsPerflibCounterInfo *base = ps_perflib_counterset_lookup (entry->set, base_id_of (entry->set, info));

          if (base != NULL && base->type == PS_PERF_COUNTER_MULTI_BASE)
            plan->multi = plan->base;
        }
    }
}


/* ------------------------------------------------------------------------ */
/* Parser                                                                    */

static void
read_options (Plv2Parser *self)
{
  const char *wrap = ps_parser_get_option (&self->parent, "wrap-32");
  const char *normalize = ps_parser_get_option (&self->parent, "normalize-multi-inverse");
  const char *decode = ps_parser_get_option (&self->parent, "decode-every-sample");

  self->options = PS_PERFLIB_OPTIONS_NONE;
  if (wrap != NULL && (g_str_equal (wrap, "1") || g_ascii_strcasecmp (wrap, "true") == 0))
    self->options |= PS_PERFLIB_OPTIONS_WRAP_32;
  if (normalize != NULL && (g_str_equal (normalize, "1") || g_ascii_strcasecmp (normalize, "true") == 0))
    self->options |= PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE;
  /* Samples are read at the offsets of the one before when their shape is
   * the same, and the common types computed on a short path; this decodes
   * each sample in full and computes every value the general way instead
   * (a check, slower) */
  self->decode_every_sample = decode != NULL && (g_str_equal (decode, "1") || g_ascii_strcasecmp (decode, "true") == 0);
}

static void
scan_item_clear (gpointer data)
{
  ScanItem *item = data;

  g_free (item->copy);
  g_clear_pointer (&item->match, plv2_shape_match_free);
  g_free (item->code);
  g_free (item->message);
}

static ScanBatch *
scan_batch_new (void)
{
  ScanBatch *batch = g_new0 (ScanBatch, 1);

  batch->items = g_array_new (FALSE, TRUE, sizeof (ScanItem));
  g_array_set_clear_func (batch->items, scan_item_clear);
  return batch;
}

static void
scan_batch_free (ScanBatch *batch)
{
  g_array_unref (batch->items);
  g_clear_error (&batch->error);
  g_free (batch);
}

static gboolean
scan_header (const PsPlv2Header *header,
             gpointer            user_data,
             GError            **error)
{
  Plv2Parser *self = user_data;
  ScanItem item = { ITEM_HEADER };

  item.header = *header;
  g_array_append_val (self->scan_batch->items, item);
  return TRUE;
}

static gboolean
scan_record (const PsPlv2Record *record,
             gpointer            user_data,
             GError            **error)
{
  Plv2Parser *self = user_data;
  ScanItem item = { ITEM_RECORD };

  item.record = *record;
  if (record->payload_size > 0
      && (record->payload < self->scan_begin || record->payload + record->payload_size > self->scan_end))
    {
      item.copy = g_memdup2 (record->payload, record->payload_size);
      item.record.payload = item.copy;
      item.record.body = item.copy + (record->body - record->payload);
    }
  /* Compared here, in the reading thread, while the bytes are in its cache */
  if (self->scan_shape != NULL && (record->type & ~PS_PLV2_MUST_UNDERSTAND) == PS_PLV2_RECORD_SAMPLE
      && record->win32_status == 0 && record->generation == self->scan_shape->generation
      && record->body_size == self->scan_shape->length)
    {
      ShapeMatch *match = g_new0 (ShapeMatch, 1);

      Shape *shape = self->scan_shape;

      match->shape = g_atomic_rc_box_acquire (shape);
      /* Shared with the next sample's computing, on this thread, as its
       * previous values */
      match->sample.values = g_atomic_rc_box_alloc (sizeof (guint64) * MAX (shape->n_values, 1));
      match->matches = plv2_match_shape (shape, &item.record, &match->sample);
      if (!match->matches)
        g_clear_pointer (&match->sample.values, g_atomic_rc_box_release);
      else if (self->scan_previous_shape == shape && shape->n_columns > 0)
        {
          /* The work of the column loop that needs no series: here, on
           * this thread's core */
          match->displays = g_new (double, shape->n_columns);
          match->computed = g_new (guint8, shape->n_columns);
          plv2_compute_columns (shape, &match->sample, &self->scan_previous, match->displays, match->computed);
        }
      item.match = match;
    }
  /* What the next SAMPLE record is computed against */
  if ((record->type & ~PS_PLV2_MUST_UNDERSTAND) == PS_PLV2_RECORD_SAMPLE)
    {
      if (item.match != NULL && item.match->matches)
        {
          if (self->scan_previous_shape != item.match->shape)
            {
              g_clear_pointer (&self->scan_previous_shape, shape_unref);
              self->scan_previous_shape = g_atomic_rc_box_acquire (item.match->shape);
            }
          g_clear_pointer (&self->scan_previous.values, g_atomic_rc_box_release);
          self->scan_previous = item.match->sample;
          self->scan_previous.values = g_atomic_rc_box_acquire (item.match->sample.values);
        }
      else
        {
          g_clear_pointer (&self->scan_previous_shape, shape_unref);
          g_clear_pointer (&self->scan_previous.values, g_atomic_rc_box_release);
        }
    }
  g_array_append_val (self->scan_batch->items, item);
  return TRUE;
}

static void
scan_warning (const char *code,
              guint64     offset,
              const char *message,
              gpointer    user_data)
{
  Plv2Parser *self = user_data;
  ScanItem item = { ITEM_WARNING };

  item.code = g_strdup (code);
  item.offset = offset;
  item.message = g_strdup (message);
  g_array_append_val (self->scan_batch->items, item);
}

static gpointer
plv2_scan (PsParser     *parser,
           const guint8 *data,
           gsize         length)
{
  Plv2Parser *self = (Plv2Parser *) parser;
  ScanBatch *batch = scan_batch_new ();

  if (self->reader == NULL)
    {
      static const PsPlv2Callbacks callbacks = { scan_header, scan_record, scan_warning };

      read_options (self);
      self->reader = ps_plv2_reader_new (&callbacks, self);
    }
  self->scan_batch = batch;
  self->scan_begin = data;
  self->scan_end = data + length;
  g_mutex_lock (&self->shape_lock);
  self->scan_shape = self->published_shape != NULL ? g_atomic_rc_box_acquire (self->published_shape) : NULL;
  g_mutex_unlock (&self->shape_lock);
  ps_plv2_reader_feed (self->reader, data, length, &batch->error);
  g_clear_pointer (&self->scan_shape, shape_unref);
  self->scan_batch = NULL;
  self->scan_begin = self->scan_end = NULL;
  g_mutex_lock (&self->batches_lock);
  g_hash_table_add (self->pending_batches, batch);
  g_mutex_unlock (&self->batches_lock);
  return batch;
}

static gboolean
plv2_apply (PsParser  *parser,
            gpointer   scanned,
            GError   **error)
{
  Plv2Parser *self = (Plv2Parser *) parser;
  ScanBatch *batch = scanned;
  gboolean ok = TRUE;

  g_mutex_lock (&self->batches_lock);
  g_hash_table_steal (self->pending_batches, batch);
  g_mutex_unlock (&self->batches_lock);

  for (guint i = 0; i < batch->items->len && ok; i++)
    {
      ScanItem *item = &g_array_index (batch->items, ScanItem, i);

      switch (item->kind)
        {
        case ITEM_HEADER:
          ok = plv2_on_header (&item->header, self, error);
          break;
        case ITEM_RECORD:
          ok = plv2_on_record (&item->record, &item->match, self, error);
          break;
        case ITEM_WARNING:
          plv2_on_warning (item->code, item->offset, item->message, self);
          break;
        }
    }
  if (ok && batch->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&batch->error));
      ok = FALSE;
    }
  scan_batch_free (batch);
  return ok;
}

static gboolean
plv2_feed (PsParser      *parser,
           const guint8  *data,
           gsize          length,
           GError       **error)
{
  return plv2_apply (parser, plv2_scan (parser, data, length), error);
}

static void
plv2_stop_scanning (PsParser *parser)
{
  Plv2Parser *self = (Plv2Parser *) parser;

  if (self->reader != NULL)
    ps_plv2_reader_stop (self->reader);
  self->stopped = TRUE;
}

static gboolean
plv2_finish (PsParser  *parser,
             GError   **error)
{
  Plv2Parser *self = (Plv2Parser *) parser;
  gboolean ok;

  if (self->reader == NULL)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE, _("Empty file: expected a PLV2 capture header"));
      return FALSE;
    }
  {
    ScanBatch *batch = scan_batch_new ();

    self->scan_batch = batch;
    ok = ps_plv2_reader_finish (self->reader, &batch->error);
    self->scan_batch = NULL;
    ok = plv2_apply (parser, batch, error) && ok;
  }
  ps_store_builder_flush (self->parent.builder);
  if (self->session != PS_NONE)
    {
      g_autofree char *samples = g_strdup_printf ("%" PRIu64, self->n_samples);

      ps_event_store_set_metadata (self->store, self->session, "samples", samples);
      if (!ps_plv2_reader_has_end (self->reader) && ok && !self->stopped && self->damage == NULL)
        ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-NO-END", PS_NO_POSITION,
                                 _("The capture has no END record: the recorder did not close it (still running, or stopped "
                                   "abruptly); all %" PRIu64 " samples were read"), self->n_samples);
    }
  /* The records after damage cannot be trusted (perflib-v2.md §8.2): the
   * capture was read only up to it, as a cut one is */
  if (ok && self->damage != NULL)
    {
      ps_parser_set_error_offset (parser, self->damage_offset);
      /* The reader's message names the record, its offset and what was kept */
      g_set_error_literal (error, PS_ERROR, PS_ERROR_PARSE, self->damage);
      ok = FALSE;
    }
  return ok;
}

static void
plv2_free (PsParser *parser)
{
  Plv2Parser *self = (Plv2Parser *) parser;

  g_clear_pointer (&self->reader, ps_plv2_reader_free);
  g_free (self->machine_name);
  g_free (self->damage);
  g_ptr_array_unref (self->sets);
  g_hash_table_unref (self->queries);
  g_hash_table_unref (self->series_index);
  g_array_unref (self->series);
  g_array_unref (self->plan_signature);
  g_array_unref (self->plan);
  g_array_unref (self->signature);
  g_array_unref (self->values);
  g_array_unref (self->previous_values);
  g_free (self->displays);
  g_free (self->computed);
  g_clear_pointer (&self->scan_previous_shape, shape_unref);
  g_clear_pointer (&self->scan_previous.values, g_atomic_rc_box_release);
  g_clear_pointer (&self->previous_match, plv2_shape_match_free);
  plv2_forget_shape (self);
  g_mutex_clear (&self->shape_lock);
  g_hash_table_unref (self->pending_batches);
  g_mutex_clear (&self->batches_lock);
  g_free (self);
}

static const PsParserClass plv2_parser_class = {
  plv2_feed,
  plv2_finish,
  plv2_free,
};

static const PsParserStages plv2_parser_stages = {
  plv2_scan,
  plv2_apply,
  plv2_stop_scanning,
};

static PsParser *
plv2_parser_new (PsStoreBuilder *builder)
{
  Plv2Parser *self = g_new0 (Plv2Parser, 1);

  self->parent.klass = &plv2_parser_class;
  self->parent.stages = &plv2_parser_stages;
  self->parent.builder = builder;
  self->store = ps_store_builder_get_store (builder);
  self->session = PS_NONE;
  self->machine = PS_NONE;
  self->sets = g_ptr_array_new_with_free_func (counter_set_entry_free);
  self->queries = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)ps_perflib_query_free);
  self->series_index = g_hash_table_new_full (series_key_hash, series_key_equal, g_free, NULL);
  self->series = g_array_new (FALSE, FALSE, sizeof (Series));
  self->plan_signature = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->plan = g_array_new (FALSE, FALSE, sizeof (ValuePlan));
  self->signature = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->values = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->previous_values = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_mutex_init (&self->shape_lock);
  g_mutex_init (&self->batches_lock);
  self->pending_batches = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) scan_batch_free, NULL);
  return &self->parent;
}

static guint
plv2_sniff (const guint8 *data,
            gsize         length,
            const char   *file_name)
{
  return ps_plv2_sniff (data, length);
}

static const char * const plv2_extensions[] = { "plv2", NULL };
static const char * const plv2_mime_types[] = { "application/x-perfscope-plv2", NULL };

const PsFormat ps_format_perflib_plv2 = {
  "perflib-plv2",
  N_("PerfLib V2 capture"),
  N_("Windows performance counters captured through the PerfLib V2 consumer API (PLV2 container)"),
  plv2_extensions,
  plv2_mime_types,
  plv2_sniff,
  plv2_parser_new,
};
