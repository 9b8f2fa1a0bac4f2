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
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format.h"
#include "ps-perflib-block.h"
#include "ps-perflib-formula.h"
#include "ps-plv2.h"
#include "ps-util.h"

#define NO_INDEX G_MAXUINT32

/* 100 ns intervals from 1601-01-01 to 1970-01-01 */
#define EPOCH_1601_TO_1970_100NS G_GINT64_CONSTANT (116444736000000000)

typedef struct
{
  PsPerflibGuid        guid;
  PsPerflibCounterSet *set;         /* the latest registration */
  guint32              object;      /* OBJECT track, PS_NONE until used */
  GHashTable          *instances;   /* "id\x1fname" → INSTANCE track + 1 */
  GHashTable          *name_counts; /* name → instances of that name so far */
} CounterSetEntry;

typedef struct
{
  guint32      track;               /* COUNTER track */
  guint32      type;
  const PsPerflibTypeInfo *info;    /* of type, NULL if not in §4.3 */
  gboolean     has_previous;
  guint64      previous_sample;     /* the sample ordinal of previous */
  guint32      previous_generation;
  PsPerflibRaw previous;
} Series;

/* What the container reader gives in one scan (in the loader's reading
 * thread: framing, CRC, sequence), applied in order on the parsing thread.
 * Records point into the scanned bytes, which live until they are
 * applied; records the reader had to reassemble are copied. */
typedef enum
{
  ITEM_HEADER,
  ITEM_RECORD,
  ITEM_WARNING,
} ItemKind;

typedef struct
{
  ItemKind      kind;
  PsPlv2Header  header;
  PsPlv2Record  record;
  guint8       *copy;     /* the record's payload, when copied */
  char         *code;
  guint64       offset;
  char         *message;
} ScanItem;

typedef struct
{
  GArray *items;          /* ScanItem */
  GError *error;          /* the reader stopped, after the items */
} ScanBatch;

/* Where one value of a sample goes and where its companions are */
typedef struct
{
  guint32 series;                   /* NO_INDEX: not displayed */
  guint32 base, time, freq, multi;  /* value indices in the buffer, or NO_INDEX */
  guint32 data_offset;              /* where the raw bytes are in the buffer */
  guint8  data_size;                /* 4 or 8; 0: no numeric value */
} ValuePlan;

/* One sample's clocks and raw values, however they were read */
typedef struct
{
  gint64   perf_time_stamp;
  gint64   perf_time_100nsec;
  gint64   perf_freq;
  gint64   unix_ns;
  guint64 *values;                  /* per buffer value, as the plan lists them */
} SampleValues;

typedef struct
{
  PsParser         parent;
  PsEventStore    *store;
  PsPlv2Reader    *reader;          /* runs in scan () */
  ScanBatch       *scan_batch;      /* what the reader gave in this scan */
  const guint8    *scan_begin;      /* the bytes being scanned */
  const guint8    *scan_end;
  guint32          session;
  PsPerflibOptions options;

  guint32          machine;         /* MACHINE track, PS_NONE without a SESSION machine */
  char            *machine_name;
  GPtrArray       *sets;            /* CounterSetEntry */
  GHashTable      *queries;         /* generation → PsPerflibQuery */
  GHashTable      *series_index;    /* SeriesKey → index + 1 */
  GArray          *series;          /* Series */
  gboolean         has_origin;
  gint64           origin_unix_ns;
  guint64          n_samples;       /* SAMPLE records, failed ones included */
  gboolean         warned_unregistered;
  gboolean         warned_no_time;

  /* The plan of the last sample's shape */
  GArray          *plan_signature;  /* guint32 */
  GArray          *plan;            /* ValuePlan per buffer value */
  GArray          *signature;       /* the current sample's, scratch */
  GArray          *values;          /* guint64 per buffer value, scratch */

  /* The shape of the plan's sample as bytes: a later sample of the same
   * generation and length whose bytes equal these wherever the mask is
   * set (everything but raw values and clocks) has the same blocks,
   * instances, counters and sizes, all validated once already, and is
   * read at the plan's offsets without decoding it again */
  gboolean         decode_every_sample;  /* option "decode-every-sample": no shapes */
  gboolean         has_shape;
  guint32          shape_generation;
  gsize            shape_length;
  guint64         *shape_words;     /* the bytes, 8 at a time, zero-padded */
  guint64         *shape_mask;
} Plv2Parser;

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

static void
warn (Plv2Parser *self,
      PsSeverity  severity,
      const char *code,
      guint64     offset,
      const char *format,
      ...) G_GNUC_PRINTF (5, 6);

static void
warn (Plv2Parser *self,
      PsSeverity  severity,
      const char *code,
      guint64     offset,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  ps_store_builder_warn_valist (self->parent.builder, severity, code, 0, offset,
                                self->session != PS_NONE ? self->session : 0, format, args);
  va_end (args);
}

static void
ensure_session (Plv2Parser *self)
{
  if (self->session != PS_NONE)
    return;
  self->session = ps_event_store_add_session (self->store, 0, FALSE);
  ps_event_store_set_metadata (self->store, self->session, "time_unit", "ns");
}

/* ------------------------------------------------------------------------ */
/* Records                                                                   */

static void
forget_shape (Plv2Parser *self)
{
  self->has_shape = FALSE;
  g_clear_pointer (&self->shape_words, g_free);
  g_clear_pointer (&self->shape_mask, g_free);
}

static void
read_session (Plv2Parser         *self,
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

static void
read_registration (Plv2Parser         *self,
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
          warn (self, PS_SEVERITY_WARNING, "W-PLV2-REGISTRATION", record->offset,
                _("Counter set registration at byte offset %" PRIu64 ": %s"),
                record->offset, error->message);
        g_clear_error (&error);
      }
  if (set == NULL)
    {
      warn (self, PS_SEVERITY_WARNING, "W-PLV2-REGISTRATION", record->offset,
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
        warn (self, PS_SEVERITY_WARNING, "W-PLV2-REGISTRATION", record->offset,
              _("Counter set registration at byte offset %" PRIu64 ", request code %u: %s"),
              record->offset, reg.request_code, error->message);
      g_clear_error (&error);
    }
  for (guint i = 0; i < set->n_warnings; i++)
    warn (self, PS_SEVERITY_INFO, "I-PLV2-REGISTRATION", record->offset,
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
  forget_shape (self);
}

static void
read_query (Plv2Parser         *self,
            const PsPlv2Record *record)
{
  g_autoptr(PsPerflibQuery) query = NULL;
  g_autoptr(GError) error = NULL;

  /* The reader has warned (W-PLV2-GENERATION): the consumer skips it (§8.4 rule 2) */
  if (record->flags & PS_PLV2_RECORD_FLAG_OUT_OF_ORDER)
    return;
  if (!ps_perflib_query_decode (record->body, record->body_size, &query, &error))
    warn (self, PS_SEVERITY_WARNING, "W-PLV2-QUERY", record->offset,
          _("Query at byte offset %" PRIu64 ": %s"), record->offset, error->message);
  if (query == NULL)
    return;
  for (guint i = 0; i < query->n_warnings; i++)
    warn (self, PS_SEVERITY_INFO, "I-PLV2-QUERY", record->offset,
          _("Query at byte offset %" PRIu64 ": %s"), record->offset, query->warnings[i].message);
  g_hash_table_replace (self->queries, GUINT_TO_POINTER (record->generation), g_steal_pointer (&query));
  g_array_set_size (self->plan_signature, 0);
  forget_shape (self);
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
static void
make_signature (Plv2Parser            *self,
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

static void
make_plan (Plv2Parser             *self,
           const PsPerflibQuery   *query,
           const PsPerflibBuffer  *buffer,
           guint64                 offset)
{
  g_autoptr(GHashTable) values = g_hash_table_new_full (series_key_hash, series_key_equal, g_free, NULL);
  g_autofree guint32 *set_of_value = g_new (guint32, MAX (buffer->n_values, 1));
  g_autofree guint32 *instance_of_value = g_new (guint32, MAX (buffer->n_values, 1));
  g_autofree guint32 *id_of_value = g_new (guint32, MAX (buffer->n_values, 1));

  g_array_set_size (self->plan, buffer->n_values);

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
              warn (self, PS_SEVERITY_WARNING, "W-PLV2-UNREGISTERED", offset,
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
/* Samples                                                                   */

static gint64
sample_unix_ns (Plv2Parser            *self,
                const PsPlv2Record    *record,
                const PsPerflibBuffer *buffer)
{
  if (buffer != NULL && buffer->perf_time_100nsec_valid)
    return buffer->perf_time_100nsec_unix_ns;
  if (buffer != NULL && buffer->system_time_valid)
    return buffer->system_time_unix_ns;
  if (record->has_utc && record->utc > EPOCH_1601_TO_1970_100NS)
    return (record->utc - EPOCH_1601_TO_1970_100NS) * 100;
  return G_MININT64;
}

/* The most common types on the usual path (a previous sample, counters
 * and clocks that moved forward), the same arithmetic as
 * ps_perflib_compute () in the same order; FALSE for everything else,
 * which takes the general way with all its checks */
static inline gboolean
fast_reading (const PsPerflibTypeInfo *info,
              const PsPerflibRaw      *previous,
              const PsPerflibRaw      *current,
              double                  *value)
{
  double delta_value, delta_time;

  if (info == NULL || (current->fields & PS_PERFLIB_RAW_VALUE) == 0)
    return FALSE;

  switch (info->formula)
    {
    case PS_PERFLIB_FORMULA_RAW:
      *value = (double) current->value;
      return TRUE;

    case PS_PERFLIB_FORMULA_TIMER:
    case PS_PERFLIB_FORMULA_TIMER_INV:
      if (info->time_source != PS_PERFLIB_TIME_100NS || previous == NULL
          || (previous->fields & PS_PERFLIB_RAW_VALUE) == 0
          || current->value < previous->value || current->perf_time_100ns <= previous->perf_time_100ns)
        return FALSE;
      delta_value = (double) (current->value - previous->value);
      delta_time = (double) ((guint64) current->perf_time_100ns - (guint64) previous->perf_time_100ns);
      *value = info->formula == PS_PERFLIB_FORMULA_TIMER ? 100.0 * delta_value / delta_time
                                                         : 100.0 * (1.0 - delta_value / delta_time);
      return TRUE;

    case PS_PERFLIB_FORMULA_RATE:
      if (info->time_source != PS_PERFLIB_TIME_SYSTEM_TICKS || previous == NULL
          || (previous->fields & PS_PERFLIB_RAW_VALUE) == 0
          || previous->perf_freq <= 0 || current->perf_freq != previous->perf_freq
          || current->value < previous->value || current->perf_time <= previous->perf_time)
        return FALSE;
      delta_value = (double) (current->value - previous->value);
      delta_time = (double) ((guint64) current->perf_time - (guint64) previous->perf_time);
      *value = delta_value / (delta_time / (double) current->perf_freq);
      return TRUE;

    default:
      return FALSE;
    }
}

/* The readings of one sample: each displayed value with its companions
 * through its counter type's formula, against the series' previous raw
 * values when they come from the sample just before, of the same
 * generation (§8.4) */
static void
add_readings (Plv2Parser         *self,
              const PsPlv2Record *record,
              guint64             ordinal,
              const SampleValues *sample)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;
  gint64 time_ns = sample->unix_ns - self->origin_unix_ns;

  for (guint index = 0; index < self->plan->len; index++)
    {
      const ValuePlan *plan = &plans[index];
      PsCounterValue reading = { 0 };
      PsPerflibStatus status;
      PsPerflibRaw raw = { 0 };
      const PsPerflibRaw *previous;
      Series *series;
      double display;

      if (plan->series == NO_INDEX)
        continue;
      series = &g_array_index (self->series, Series, plan->series);

      raw.fields = PS_PERFLIB_RAW_SYSTEM_TIME | PS_PERFLIB_RAW_TIME_100NS;
      raw.perf_time = sample->perf_time_stamp;
      raw.perf_freq = sample->perf_freq;
      raw.perf_time_100ns = sample->perf_time_100nsec;
      if (plan->data_size != 0)
        {
          raw.fields |= PS_PERFLIB_RAW_VALUE;
          raw.value_size = plan->data_size;
          raw.value = sample->values[index];
        }
      if (plan->base != NO_INDEX && plans[plan->base].data_size != 0)
        {
          raw.fields |= PS_PERFLIB_RAW_BASE;
          raw.base = sample->values[plan->base];
        }
      if (plan->time != NO_INDEX && plans[plan->time].data_size != 0)
        {
          raw.fields |= PS_PERFLIB_RAW_OBJECT_TIME;
          raw.object_time = sample->values[plan->time];
        }
      if (plan->freq != NO_INDEX && plans[plan->freq].data_size != 0)
        {
          raw.fields |= PS_PERFLIB_RAW_OBJECT_FREQ;
          raw.object_freq = sample->values[plan->freq];
        }
      if (plan->multi != NO_INDEX && plans[plan->multi].data_size != 0)
        {
          raw.fields |= PS_PERFLIB_RAW_MULTI;
          raw.multi = sample->values[plan->multi];
        }

      previous = series->has_previous && series->previous_sample + 1 == ordinal
                 && series->previous_generation == record->generation ? &series->previous : NULL;
      status.result = PS_PERFLIB_RESULT_OK;
      if ((self->decode_every_sample || !fast_reading (series->info, previous, &raw, &display))
          && !ps_perflib_compute_with_info (series->info, series->type, previous, &raw, self->options,
                                            &display, &status))
        display = NAN;

      reading.time_ns = time_ns;
      reading.track = series->track;
      reading.flags = PS_COUNTER_FLAG_RAW | (isnan (display) ? PS_COUNTER_FLAG_MISSING : 0);
      reading.status = (guint16)status.result;
      reading.value = display;
      reading.raw = (gint64)raw.value;
      reading.base = (gint64)raw.base;
      ps_store_builder_add_counter_value (self->parent.builder, &reading);

      series->previous = raw;
      series->has_previous = TRUE;
      series->previous_sample = ordinal;
      series->previous_generation = record->generation;
    }
}

/* After a sample was decoded and planned: its shape, if it had no fault
 * at all (a sample with warnings is always decoded, so that they are
 * given again) */
static void
remember_shape (Plv2Parser            *self,
                const PsPlv2Record    *record,
                const PsPerflibBuffer *buffer)
{
  gsize n_words = (record->body_size + 7) / 8;
  guint8 *mask;

  if (self->has_shape && self->shape_generation == record->generation && self->shape_length == record->body_size)
    return;
  forget_shape (self);
  if (self->decode_every_sample)
    return;
  if (!buffer->complete || buffer->n_warnings > 0 || !buffer->perf_time_100nsec_valid
      || !buffer->system_time_valid || buffer->length != record->body_size)
    return;

  self->shape_words = g_new0 (guint64, n_words);
  memcpy (self->shape_words, record->body, record->body_size);
  mask = g_malloc (n_words * 8);
  memset (mask, 0xff, record->body_size);
  memset (mask + record->body_size, 0, n_words * 8 - record->body_size);
  /* PerfTimeStamp, PerfTime100NSec; SystemTime */
  memset (mask + 8, 0, 16);
  memset (mask + 32, 0, 16);
  for (guint i = 0; i < self->plan->len; i++)
    {
      const ValuePlan *plan = &g_array_index (self->plan, ValuePlan, i);

      if (plan->data_size != 0)
        memset (mask + plan->data_offset, 0, plan->data_size);
    }
  self->shape_mask = (guint64 *)(gpointer)mask;
  for (gsize w = 0; w < n_words; w++)
    self->shape_words[w] &= self->shape_mask[w];
  self->has_shape = TRUE;
  self->shape_generation = record->generation;
  self->shape_length = record->body_size;
}

/* A SYSTEMTIME the decoder accepts without a warning */
static gboolean
system_time_plausible (const guint8 *p)
{
  static const guint8 days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  guint year = ps_util_load_le16 (p);
  guint month = ps_util_load_le16 (p + 2);
  guint day = ps_util_load_le16 (p + 6);
  guint hour = ps_util_load_le16 (p + 8);
  guint minute = ps_util_load_le16 (p + 10);
  guint second = ps_util_load_le16 (p + 12);
  guint milliseconds = ps_util_load_le16 (p + 14);
  gboolean leap;

  if (year < 1601 || year > 9999 || month < 1 || month > 12 || day < 1
      || hour > 23 || minute > 59 || second > 59 || milliseconds > 999)
    return FALSE;
  leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= days[month - 1] + (month == 2 && leap ? 1u : 0u);
}

/* The sample read at the plan's offsets, if it has the plan's shape */
static gboolean
read_with_shape (Plv2Parser         *self,
                 const PsPlv2Record *record,
                 SampleValues       *sample)
{
  const guint8 *data = record->body;
  gsize n_words = (record->body_size + 7) / 8;
  gsize whole = record->body_size / 8;
  guint64 differ = 0;
  gint64 filetime;

  if (!self->has_shape || record->generation != self->shape_generation || record->body_size != self->shape_length)
    return FALSE;

  /* Equal or not does not depend on the byte order: words as they lie */
  for (gsize w = 0; w < whole; w++)
    {
      guint64 word;

      memcpy (&word, data + 8 * w, 8);
      differ |= (word ^ self->shape_words[w]) & self->shape_mask[w];
    }
  if (whole < n_words)
    {
      guint64 tail = 0;

      memcpy (&tail, data + 8 * whole, record->body_size - 8 * whole);
      differ |= (tail ^ self->shape_words[whole]) & self->shape_mask[whole];
    }
  if (differ != 0 || !system_time_plausible (data + 32))
    return FALSE;

  /* The decoder's rule for PerfTime100NSec (a FILETIME) */
  filetime = (gint64)ps_util_load_le64 (data + 16);
  if (filetime < 0 || filetime - EPOCH_1601_TO_1970_100NS > G_MAXINT64 / 100)
    return FALSE;

  sample->perf_time_stamp = (gint64)ps_util_load_le64 (data + 8);
  sample->perf_time_100nsec = filetime;
  sample->perf_freq = (gint64)ps_util_load_le64 (data + 24);
  sample->unix_ns = (filetime - EPOCH_1601_TO_1970_100NS) * 100;
  g_array_set_size (self->values, self->plan->len);
  sample->values = (guint64 *)(gpointer)self->values->data;
  for (guint i = 0; i < self->plan->len; i++)
    {
      const ValuePlan *plan = &g_array_index (self->plan, ValuePlan, i);

      if (plan->data_size == 8)
        sample->values[i] = ps_util_load_le64 (data + plan->data_offset);
      else if (plan->data_size == 4)
        sample->values[i] = ps_util_load_le32 (data + plan->data_offset);
      else
        sample->values[i] = 0;
    }
  return TRUE;
}

static void
read_sample (Plv2Parser         *self,
             const PsPlv2Record *record)
{
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;
  const PsPerflibQuery *query;
  guint64 buffer_offset = record->offset + PS_PLV2_RECORD_HEADER_SIZE + 16;
  guint64 ordinal = ++self->n_samples;
  SampleValues sample;
  gint64 unix_ns;

  if (record->win32_status != 0 || record->body_size == 0)
    return;  /* breaks delta chains: ordinals move on */

  query = g_hash_table_lookup (self->queries, GUINT_TO_POINTER (record->generation));
  if (query == NULL)
    {
      /* A generation no QUERY defined: the reader has warned already */
      if (record->flags & PS_PLV2_RECORD_FLAG_NO_QUERY)
        return;
      warn (self, PS_SEVERITY_WARNING, "W-PLV2-NO-QUERY", record->offset,
            _("Sample at byte offset %" PRIu64 ": no query of generation %u before it; skipped"),
            record->offset, record->generation);
      return;
    }

  /* Most samples: the shape of the one before */
  if (self->has_origin && read_with_shape (self, record, &sample))
    {
      add_readings (self, record, ordinal, &sample);
      return;
    }

  if (!ps_perflib_buffer_decode (record->body, record->body_size, &buffer, &error))
    warn (self, PS_SEVERITY_ERROR, "E-PLV2-BLOCK", buffer_offset,
          _("Sample %" PRIu64 ", whose data begins at byte offset %" PRIu64
            " of the file (the offsets that follow count from there): %s; the blocks before the damage are kept"),
          ordinal, buffer_offset, error->message);
  if (buffer == NULL)
    return;
  for (guint i = 0; i < buffer->n_warnings; i++)
    warn (self, PS_SEVERITY_INFO, "I-PLV2-BLOCK", buffer_offset + buffer->warnings[i].offset,
          _("Sample %" PRIu64 ", whose data begins at byte offset %" PRIu64
            " of the file (the offsets that follow count from there): %s"),
          ordinal, buffer_offset, buffer->warnings[i].message);

  unix_ns = sample_unix_ns (self, record, buffer);
  if (unix_ns == G_MININT64)
    {
      if (!self->warned_no_time)
        warn (self, PS_SEVERITY_WARNING, "W-PLV2-NO-TIME", buffer_offset,
              _("Sample %" PRIu64 " has no valid time (PerfTime100NSec, SystemTime and the "
                "writer’s time are all out of range); samples without a time are skipped"), ordinal);
      self->warned_no_time = TRUE;
      return;
    }
  if (!self->has_origin)
    {
      self->has_origin = TRUE;
      self->origin_unix_ns = unix_ns;
      ps_event_store_set_session_origin (self->store, self->session, unix_ns);
    }

  make_signature (self, record->generation, buffer, self->signature);
  if (self->signature->len != self->plan_signature->len
      || memcmp (self->signature->data, self->plan_signature->data, self->signature->len * sizeof (guint32)) != 0
      || self->plan->len != buffer->n_values)
    {
      make_plan (self, query, buffer, buffer_offset);
      forget_shape (self);
      g_array_set_size (self->plan_signature, 0);
      g_array_append_vals (self->plan_signature, self->signature->data, self->signature->len);
    }

  remember_shape (self, record, buffer);

  sample.perf_time_stamp = buffer->perf_time_stamp;
  sample.perf_time_100nsec = buffer->perf_time_100nsec;
  sample.perf_freq = buffer->perf_freq;
  sample.unix_ns = unix_ns;
  g_array_set_size (self->values, buffer->n_values);
  sample.values = (guint64 *)(gpointer)self->values->data;
  for (guint index = 0; index < buffer->n_values; index++)
    sample.values[index] = buffer->values[index].value;
  add_readings (self, record, ordinal, &sample);
}

static gboolean
on_record (const PsPlv2Record *record,
           gpointer            user_data,
           GError            **error)
{
  Plv2Parser *self = user_data;

  ensure_session (self);
  switch (record->type & ~PS_PLV2_MUST_UNDERSTAND)
    {
    case PS_PLV2_RECORD_SESSION:
      read_session (self, record);
      break;
    case PS_PLV2_RECORD_COUNTERSET_REG:
      read_registration (self, record);
      break;
    case PS_PLV2_RECORD_QUERY:
      read_query (self, record);
      break;
    case PS_PLV2_RECORD_SAMPLE:
      read_sample (self, record);
      break;
    case PS_PLV2_RECORD_ANNOTATION:
      {
        g_autofree char *text = g_utf8_make_valid ((const char *)record->body, (gssize)record->body_size);

        warn (self, PS_SEVERITY_INFO, "I-PLV2-ANNOTATION", record->offset, _("Annotation: %s"), text);
      }
      break;
    default:
      break;
    }
  return TRUE;
}

static gboolean
on_header (const PsPlv2Header *header,
           gpointer            user_data,
           GError            **error)
{
  Plv2Parser *self = user_data;
  g_autofree char *bias = g_strdup_printf ("%d", header->tz_bias_minutes);

  ensure_session (self);
  ps_event_store_set_metadata (self->store, self->session, "time_zone_bias_minutes", bias);
  return TRUE;
}

static void
on_warning (const char *code,
            guint64     offset,
            const char *message,
            gpointer    user_data)
{
  Plv2Parser *self = user_data;

  /* Damage that ends the capture early is an error; the rest is noted */
  static const char * const fatal[] = { "W-PLV2-CRC", "W-PLV2-SEQUENCE", "W-PLV2-LENGTH", NULL };

  ensure_session (self);
  warn (self, g_strv_contains (fatal, code) ? PS_SEVERITY_ERROR : PS_SEVERITY_WARNING,
        code, offset, "%s", message);
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
  ps_plv2_reader_feed (self->reader, data, length, &batch->error);
  self->scan_batch = NULL;
  self->scan_begin = self->scan_end = NULL;
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

  for (guint i = 0; i < batch->items->len && ok; i++)
    {
      const ScanItem *item = &g_array_index (batch->items, ScanItem, i);

      switch (item->kind)
        {
        case ITEM_HEADER:
          ok = on_header (&item->header, self, error);
          break;
        case ITEM_RECORD:
          ok = on_record (&item->record, self, error);
          break;
        case ITEM_WARNING:
          on_warning (item->code, item->offset, item->message, self);
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
      if (!ps_plv2_reader_has_end (self->reader) && ok)
        warn (self, PS_SEVERITY_INFO, "I-PLV2-NO-END", PS_NO_POSITION,
              _("The capture has no END record: the recorder did not close it (still running, or stopped "
                "abruptly); all %" PRIu64 " samples were read"), self->n_samples);
    }
  return ok;
}

static void
plv2_free (PsParser *parser)
{
  Plv2Parser *self = (Plv2Parser *) parser;

  g_clear_pointer (&self->reader, ps_plv2_reader_free);
  g_free (self->machine_name);
  g_ptr_array_unref (self->sets);
  g_hash_table_unref (self->queries);
  g_hash_table_unref (self->series_index);
  g_array_unref (self->series);
  g_array_unref (self->plan_signature);
  g_array_unref (self->plan);
  g_array_unref (self->signature);
  g_array_unref (self->values);
  forget_shape (self);
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
