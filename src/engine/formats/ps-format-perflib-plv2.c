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
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-event-store-private.h"
#include "ps-format.h"
#include "ps-parse-kit.h"
#include "ps-perflib-block.h"
#include "ps-perflib-formula.h"
#include "ps-plv2.h"
#include "ps-util.h"

#define NO_INDEX G_MAXUINT32

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

/* A displayed value of the plan as the column loop reads it */
typedef struct
{
  guint32 index;                    /* in the plan and the sample's values */
  guint32 base;                     /* index of its base with a value, or NO_INDEX */
  guint32 track;                    /* COUNTER track */
  guint8  formula;                  /* PsPerflibFormula computed inline, or COLUMN_GENERAL */
  guint8  clock;                    /* PsPerflibTimeSource of the timed formulas */
} Column;

#define COLUMN_GENERAL G_MAXUINT8

/* How far ahead the column loop asks for a series' memory */
#define COLUMN_PREFETCH 8

/* Readings of the column loop kept by the store, committed together */
#define KEPT_BATCH_SIZE 256

/* The shape of the plan's sample as bytes: a later sample of the same
 * generation and length whose bytes equal these wherever the mask is set
 * (everything but raw values and clocks) has the same blocks, instances,
 * counters and sizes, all validated once already, and is read at the
 * plan's offsets without decoding it again. Immutable, shared with the
 * reading thread (g_atomic_rc_box). */
typedef struct
{
  guint32  generation;
  gsize    length;
  guint64 *words;                   /* the bytes, 8 at a time, zero-padded */
  guint64 *mask;
  guint    n_values;                /* the plan's */
  guint32 *value_offsets;
  guint8  *value_sizes;             /* 4, 8, or 0: no value */
  /* The plan's displayed values; none if a series occurs twice in it (it
   * is computed against itself in the same sample, the general way) */
  Column  *columns;
  guint32 *order;                   /* the columns by formula, for compute_columns () */
  guint    n_columns;
  guint32  n_tracks;                /* 1 + the highest track of the columns */
} Shape;

/* One sample's clocks and raw values, however they were read */
typedef struct
{
  gint64   perf_time_stamp;
  gint64   perf_time_100nsec;
  gint64   perf_freq;
  gint64   unix_ns;
  guint64 *values;                  /* per buffer value, as the plan lists them */
} SampleValues;

/* A SAMPLE record compared with the shape by the reading thread */
typedef struct
{
  Shape        *shape;              /* the shape it was compared with */
  gboolean      matches;
  SampleValues  sample;             /* if it matches */
  /* If the SAMPLE record before it matched the same shape: the display
   * value of each column against that one, where computed inline */
  double       *displays;
  guint8       *computed;
} ShapeMatch;

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
  ShapeMatch   *match;    /* a SAMPLE record's, or NULL */
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

typedef struct
{
  PsParser         parent;
  PsEventStore    *store;
  PsPlv2Reader    *reader;          /* runs in scan () */
  ScanBatch       *scan_batch;      /* what the reader gave in this scan */
  Shape           *scan_shape;      /* the published shape during this scan */
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

  /* The last sample whose readings were added, and under which plan */
  guint64          plan_serial;      /* counts make_plan () */
  guint64          previous_serial;  /* 0: none */
  guint64          previous_ordinal;
  guint32          previous_generation;
  SampleValues     previous_sample;  /* values in previous_values or previous_match */
  GArray          *previous_values;  /* guint64 per buffer value */
  ShapeMatch      *previous_match;   /* the reading thread's, if its values are those */
  /* The last sample was read as columns: the series' previous raw values
   * are those of previous_sample, not yet written to them */
  gboolean         previous_pending;

  /* The column loop's display values, when the reading thread did not
   * compute them */
  double          *displays;
  guint8          *computed;
  guint            n_displays;
  PsCounterValue   kept[KEPT_BATCH_SIZE];

  /* In the reading thread: the last SAMPLE record it scanned, if it
   * matched scan_previous_shape */
  Shape           *scan_previous_shape;
  SampleValues     scan_previous;

  gboolean         decode_every_sample;  /* option "decode-every-sample": no shapes */
  Shape           *shape;           /* of the plan's sample, or NULL */
  /* The same, for the reading thread to compare the samples it scans */
  GMutex           shape_lock;
  Shape           *published_shape;

  gboolean         stopped;         /* reading stopped early (ps_parser_stop_scanning ()) */
  char            *damage;          /* the damage that ended the capture early, or NULL */
  guint64          damage_offset;

  /* Scans not applied yet: the loader may stop before it applies them,
   * and they are the parser's to free */
  GMutex           batches_lock;
  GHashTable      *pending_batches; /* ScanBatch * set */
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

/* Warnings before the capture's session is open belong to session 0 */
static inline guint32
warning_session (Plv2Parser *self)
{
  return self->session != PS_NONE ? self->session : 0;
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

static void
shape_match_free (ShapeMatch *match)
{
  if (match == NULL)
    return;
  g_clear_pointer (&match->shape, shape_unref);
  g_clear_pointer (&match->sample.values, g_atomic_rc_box_release);
  g_free (match->displays);
  g_free (match->computed);
  g_free (match);
}

static void
publish_shape (Plv2Parser *self)
{
  Shape *old;

  g_mutex_lock (&self->shape_lock);
  old = self->published_shape;
  self->published_shape = self->shape != NULL ? g_atomic_rc_box_acquire (self->shape) : NULL;
  g_mutex_unlock (&self->shape_lock);
  g_clear_pointer (&old, shape_unref);
}

static void
forget_shape (Plv2Parser *self)
{
  if (self->shape == NULL)
    return;
  g_clear_pointer (&self->shape, shape_unref);
  publish_shape (self);
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
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-QUERY", record->offset,
                             _("Query at byte offset %" PRIu64 ": %s"), record->offset, error->message);
  if (query == NULL)
    return;
  for (guint i = 0; i < query->n_warnings; i++)
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-QUERY", record->offset,
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
/* Samples                                                                   */

static gint64
sample_unix_ns (Plv2Parser            *self,
                const PsPlv2Record    *record,
                const PsPerflibBuffer *buffer)
{
  gint64 unix_ns;

  if (buffer != NULL && buffer->perf_time_100nsec_valid)
    return buffer->perf_time_100nsec_unix_ns;
  if (buffer != NULL && buffer->system_time_valid)
    return buffer->system_time_unix_ns;
  /* Only after 1970 */
  if (record->has_utc && ps_perflib_filetime_to_unix_ns (record->utc, &unix_ns) && unix_ns > 0)
    return unix_ns;
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

/* The raw values of the plan's value `index` in a sample: the value,
 * its companions and the sample's clocks */
static void
fill_raw (const ValuePlan    *plans,
          guint               index,
          const SampleValues *sample,
          PsPerflibRaw       *raw)
{
  const ValuePlan *plan = &plans[index];

  memset (raw, 0, sizeof *raw);
  raw->fields = PS_PERFLIB_RAW_SYSTEM_TIME | PS_PERFLIB_RAW_TIME_100NS;
  raw->perf_time = sample->perf_time_stamp;
  raw->perf_freq = sample->perf_freq;
  raw->perf_time_100ns = sample->perf_time_100nsec;
  if (plan->data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_VALUE;
      raw->value_size = plan->data_size;
      raw->value = sample->values[index];
    }
  if (plan->base != NO_INDEX && plans[plan->base].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_BASE;
      raw->base = sample->values[plan->base];
    }
  if (plan->time != NO_INDEX && plans[plan->time].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_OBJECT_TIME;
      raw->object_time = sample->values[plan->time];
    }
  if (plan->freq != NO_INDEX && plans[plan->freq].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_OBJECT_FREQ;
      raw->object_freq = sample->values[plan->freq];
    }
  if (plan->multi != NO_INDEX && plans[plan->multi].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_MULTI;
      raw->multi = sample->values[plan->multi];
    }
}

/* After samples read as columns: the series' previous raw values from
 * the last of them, for the general way */
static void
write_back_previous (Plv2Parser *self)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;

  if (!self->previous_pending)
    return;
  self->previous_pending = FALSE;
  for (guint index = 0; index < self->plan->len; index++)
    {
      Series *series;

      if (plans[index].series == NO_INDEX)
        continue;
      series = &g_array_index (self->series, Series, plans[index].series);
      fill_raw (plans, index, &self->previous_sample, &series->previous);
      series->has_previous = TRUE;
      series->previous_sample = self->previous_ordinal;
      series->previous_generation = self->previous_generation;
    }
}

/* The sample's readings were added under the current plan: its values are
 * the previous ones of the next sample read as columns. They are in
 * self->values, or in the reading thread's match, which is then kept. */
static void
note_sample_added (Plv2Parser         *self,
                   const PsPlv2Record *record,
                   guint64             ordinal,
                   const SampleValues *sample,
                   ShapeMatch        **match)
{
  guint64 *values;

  g_clear_pointer (&self->previous_match, shape_match_free);
  if (match != NULL && *match != NULL && sample->values == (*match)->sample.values)
    {
      self->previous_match = g_steal_pointer (match);
      values = self->previous_match->sample.values;
    }
  else
    {
      GArray *swap = self->previous_values;

      g_assert (sample->values == (guint64 *)(gpointer)self->values->data);
      self->previous_values = self->values;
      self->values = swap;
      values = (guint64 *)(gpointer)self->previous_values->data;
    }
  self->previous_sample = *sample;
  self->previous_sample.values = values;
  self->previous_serial = self->plan_serial;
  self->previous_ordinal = ordinal;
  self->previous_generation = record->generation;
}

/* The display value of a reading: by fast_reading () if `fast` and it
 * can, else by the counter type's formula with all its checks; NAN where
 * the formula gives none */
static double
compute_display (Plv2Parser         *self,
                 const Series       *series,
                 const PsPerflibRaw *previous,
                 const PsPerflibRaw *raw,
                 gboolean            fast,
                 PsPerflibStatus    *status)
{
  double display;

  status->result = PS_PERFLIB_RESULT_OK;
  if (fast && fast_reading (series->info, previous, raw, &display))
    return display;
  if (!ps_perflib_compute_with_info (series->info, series->type, previous, raw, self->options,
                                     &display, status))
    return NAN;
  return display;
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
  gint64 time_ns = ps_util_sub_saturated (sample->unix_ns, self->origin_unix_ns);

  write_back_previous (self);
  for (guint index = 0; index < self->plan->len; index++)
    {
      const ValuePlan *plan = &plans[index];
      PsCounterValue reading = { 0 };
      PsPerflibStatus status;
      PsPerflibRaw raw;
      const PsPerflibRaw *previous;
      Series *series;
      double display;

      if (plan->series == NO_INDEX)
        continue;
      series = &g_array_index (self->series, Series, plan->series);
      fill_raw (plans, index, sample, &raw);

      previous = series->has_previous && series->previous_sample + 1 == ordinal
                 && series->previous_generation == record->generation ? &series->previous : NULL;
      display = compute_display (self, series, previous, &raw, !self->decode_every_sample, &status);

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

/* A reading of the column loop that is not computed inline */
static G_GNUC_NO_INLINE double
column_general (Plv2Parser         *self,
                const Column       *column,
                const SampleValues *sample,
                guint16            *status)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;
  const Series *series = &g_array_index (self->series, Series, plans[column->index].series);
  PsPerflibRaw raw, previous;
  PsPerflibStatus result;
  double display;

  fill_raw (plans, column->index, sample, &raw);
  fill_raw (plans, column->index, &self->previous_sample, &previous);
  display = compute_display (self, series, &previous, &raw, TRUE, &result);
  *status = (guint16)result.result;
  return display;
}

static void
commit_kept (Plv2Parser *self,
             guint       n_kept,
             guint64     n_readings)
{
  _ps_event_store_append_kept_counter_values (self->store, self->kept, n_kept, n_readings);
}

/* The display values of a sample of the shape against the sample just
 * before, of the same shape, for the columns whose formula is computed
 * inline; computed[i] FALSE for the others and where a condition fails.
 * In either thread. */
static void
compute_columns (const Shape        *shape,
                 const SampleValues *sample,
                 const SampleValues *before,
                 double             *displays,
                 guint8             *computed)
{
  const Column *columns = shape->columns;
  const guint64 *values = sample->values;
  const guint64 *previous_values = before->values;
  /* The clocks' differences, as the formulas check and convert them */
  gboolean has_100ns = sample->perf_time_100nsec > before->perf_time_100nsec;
  gboolean has_ticks = before->perf_freq > 0 && sample->perf_freq > 0 && before->perf_freq == sample->perf_freq
                       && sample->perf_time_stamp > before->perf_time_stamp;
  double delta_100ns = (double)((guint64)sample->perf_time_100nsec - (guint64)before->perf_time_100nsec);
  double delta_ticks = (double)((guint64)sample->perf_time_stamp - (guint64)before->perf_time_stamp);
  double delta_ticks_seconds = delta_ticks / (double)sample->perf_freq;

  for (guint k = 0; k < shape->n_columns; k++)
    {
      guint i = shape->order[k];
      const Column *column = &columns[i];
      guint64 value = values[column->index];
      guint64 previous = previous_values[column->index];
      gboolean ok = FALSE;
      double display = 0;

      switch (column->formula)
        {
        case PS_PERFLIB_FORMULA_RAW:
          display = (double)value;
          ok = TRUE;
          break;

        case PS_PERFLIB_FORMULA_FRACTION:
          if (values[column->base] != 0)
            {
              display = 100.0 * (double)value / (double)values[column->base];
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_DELTA:
          if (value >= previous)
            {
              display = (double)(value - previous);
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_AVERAGE_BULK:
          if (value >= previous && values[column->base] > previous_values[column->base])
            {
              display = (double)(value - previous) / (double)(values[column->base] - previous_values[column->base]);
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_PRECISION:
        case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
          if (value >= previous && values[column->base] > previous_values[column->base])
            {
              display = 100.0 * (double)(value - previous)
                        / (double)(values[column->base] - previous_values[column->base]);
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_RATE:
        case PS_PERFLIB_FORMULA_QUEUELEN:
        case PS_PERFLIB_FORMULA_TIMER:
        case PS_PERFLIB_FORMULA_TIMER_INV:
          if (value >= previous && (column->clock == PS_PERFLIB_TIME_100NS ? has_100ns : has_ticks))
            {
              double delta_value = (double)(value - previous);
              double delta_time = column->clock == PS_PERFLIB_TIME_100NS ? delta_100ns : delta_ticks;

              if (column->formula == PS_PERFLIB_FORMULA_RATE)
                display = delta_value / delta_ticks_seconds;
              else if (column->formula == PS_PERFLIB_FORMULA_QUEUELEN)
                display = delta_value / delta_time;
              else if (column->formula == PS_PERFLIB_FORMULA_TIMER)
                display = 100.0 * delta_value / delta_time;
              else
                display = 100.0 * (1.0 - delta_value / delta_time);
              ok = TRUE;
            }
          break;

        default:
          break;
        }
      displays[i] = display;
      computed[i] = (guint8)ok;
    }
}

/* A reading of a column of a sample with the given values */
static inline void
set_column_reading (PsCounterValue *reading,
                    const Column   *column,
                    const guint64  *values,
                    gint64          time_ns,
                    double          display,
                    guint16         status)
{
  reading->time_ns = time_ns;
  reading->track = column->track;
  reading->flags = PS_COUNTER_FLAG_RAW | (isnan (display) ? PS_COUNTER_FLAG_MISSING : 0);
  reading->status = status;
  reading->value = display;
  reading->raw = (gint64)values[column->index];
  reading->base = column->base != NO_INDEX ? (gint64)values[column->base] : 0;
}

/* A sample of the plan's shape right after one of the same plan: its
 * readings column by column (see the top of the file), with the display
 * values the reading thread computed if it could */
static void
add_columns (Plv2Parser         *self,
             const PsPlv2Record *record,
             guint64             ordinal,
             const SampleValues *sample,
             const ShapeMatch   *match)
{
  const Shape *shape = self->shape;
  const Column *columns = shape->columns;
  guint n_columns = shape->n_columns;
  const guint64 *values = sample->values;
  gint64 time_ns = sample->unix_ns - self->origin_unix_ns;
  const double *displays;
  const guint8 *computed;
  PsCounterSeries *all_series;
  gboolean direct;
  guint64 room;
  guint64 stride_mask;
  guint stride;
  guint n_kept = 0;

  if (match != NULL && match->shape == shape && match->displays != NULL)
    {
      displays = match->displays;
      computed = match->computed;
    }
  else
    {
      if (self->n_displays < n_columns)
        {
          self->n_displays = n_columns;
          self->displays = g_renew (double, self->displays, n_columns);
          self->computed = g_renew (guint8, self->computed, n_columns);
        }
      compute_columns (shape, sample, &self->previous_sample, self->displays, self->computed);
      displays = self->displays;
      computed = self->computed;
    }

  /* Readings still in the builder reach the series first */
  ps_store_builder_flush (self->parent.builder);
  room = _ps_event_store_get_counter_room (self->store, &stride);
  stride_mask = (guint64)stride - 1;
  /* Near the store's limit, it thins them as each reading comes */
  direct = room >= n_columns;
  all_series = _ps_event_store_edit_counter_series (self->store, shape->n_tracks);

  for (guint i = 0; i < n_columns; i++)
    {
      const Column *column = &columns[i];
      guint16 status = PS_PERFLIB_RESULT_OK;
      double display = displays[i];

      if G_UNLIKELY (!computed[i])
        display = column_general (self, column, sample, &status);

      if G_LIKELY (direct)
        {
          PsCounterSeries *series = &all_series[column->track];

#ifdef __GNUC__
          /* The series of a few columns on, each in a different place; and
           * closer, where a series will store the bucket it fills, if this
           * reading begins another */
          if G_LIKELY (i + 2 * COLUMN_PREFETCH < n_columns)
            {
              const PsCounterSeries *ahead = &all_series[columns[i + 2 * COLUMN_PREFETCH].track];

              __builtin_prefetch (ahead, 1, 3);
              __builtin_prefetch ((const guint8 *)ahead + 64, 1, 3);
            }
          if G_LIKELY (i + COLUMN_PREFETCH < n_columns)
            {
              const PsCounterSeries *ahead = &all_series[columns[i + COLUMN_PREFETCH].track];

              if (ahead->current_count != 0 && time_ns >= ahead->begin_ns
                  && (((guint64)time_ns - (guint64)ahead->begin_ns) >> ahead->shift) != ahead->current_index)
                __builtin_prefetch (&ahead->buckets[ahead->n_used], 1, 3);
            }
#endif
          if ((series->n_readings & stride_mask) == 0)
            {
              set_column_reading (&self->kept[n_kept++], column, values, time_ns, display, status);
              if (n_kept == KEPT_BATCH_SIZE)
                {
                  commit_kept (self, n_kept, 0);
                  n_kept = 0;
                }
            }
          if G_UNLIKELY (isnan (display))
            ps_counter_series_add (series, time_ns, display, TRUE);
          else
            ps_counter_series_add_value (series, time_ns, display);
        }
      else
        {
          PsCounterValue reading;

          set_column_reading (&reading, column, values, time_ns, display, status);
          ps_store_builder_add_counter_value (self->parent.builder, &reading);
        }
    }
  if (direct)
    commit_kept (self, n_kept, n_columns);

  self->previous_pending = TRUE;
}


/* The columns of the current plan, for its shape. The formulas computed
 * inline take the same conditions and arithmetic as ps_perflib_compute ()
 * in the same order, given a previous sample of the same plan, whose
 * values therefore have the same sizes and companions. */
static void
make_columns (Plv2Parser *self,
              Shape      *shape)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;
  g_autofree guint8 *seen = g_new0 (guint8, MAX (self->series->len, 1));

  shape->columns = g_new (Column, MAX (self->plan->len, 1));
  shape->n_columns = 0;
  shape->n_tracks = 0;
  for (guint index = 0; index < self->plan->len; index++)
    {
      const ValuePlan *plan = &plans[index];
      const Series *series;
      const PsPerflibTypeInfo *info;
      Column column;
      gboolean has_base;

      if (plan->series == NO_INDEX)
        continue;
      /* A series twice in a sample is computed against itself in the same
       * sample the general way */
      if (seen[plan->series])
        {
          shape->n_columns = 0;
          return;
        }
      seen[plan->series] = TRUE;
      series = &g_array_index (self->series, Series, plan->series);
      info = series->info;
      has_base = plan->base != NO_INDEX && plans[plan->base].data_size != 0;

      column.index = index;
      column.base = has_base ? plan->base : NO_INDEX;
      column.track = series->track;
      column.formula = COLUMN_GENERAL;
      column.clock = info != NULL ? info->time_source : PS_PERFLIB_TIME_NONE;
      shape->n_tracks = MAX (shape->n_tracks, series->track + 1);
      if (info != NULL && plan->data_size != 0 && !info->needs_multi)
        switch (info->formula)
          {
          case PS_PERFLIB_FORMULA_RAW:
            column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_DELTA:
            if (info->time_source == PS_PERFLIB_TIME_NONE)
              column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_FRACTION:
          case PS_PERFLIB_FORMULA_AVERAGE_BULK:
          case PS_PERFLIB_FORMULA_PRECISION:
          case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
            if (has_base && (info->time_source == PS_PERFLIB_TIME_NONE
                             || info->time_source == PS_PERFLIB_TIME_BASE_COUNTER))
              column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_RATE:
            if (info->time_source == PS_PERFLIB_TIME_SYSTEM_TICKS)
              column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_QUEUELEN:
          case PS_PERFLIB_FORMULA_TIMER:
          case PS_PERFLIB_FORMULA_TIMER_INV:
            if (info->time_source == PS_PERFLIB_TIME_100NS
                || info->time_source == PS_PERFLIB_TIME_SYSTEM_TICKS)
              column.formula = info->formula;
            break;
          default:
            break;
          }
      shape->columns[shape->n_columns++] = column;
    }

  /* Computed formula by formula, each in one run: the branches of each
   * column are those of the one before */
  shape->order = g_new (guint32, MAX (shape->n_columns, 1));
  {
    guint n_ordered = 0;

    for (guint formula = 0; formula <= G_MAXUINT8; formula++)
      for (guint i = 0; i < shape->n_columns; i++)
        if (shape->columns[i].formula == formula)
          shape->order[n_ordered++] = i;
    g_assert (n_ordered == shape->n_columns);
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
  Shape *shape;
  guint8 *mask;

  if (self->shape != NULL && self->shape->generation == record->generation
      && self->shape->length == record->body_size)
    return;
  forget_shape (self);
  if (self->decode_every_sample)
    return;
  if (!buffer->complete || buffer->n_warnings > 0 || !buffer->perf_time_100nsec_valid
      || !buffer->system_time_valid || buffer->length != record->body_size)
    return;

  shape = g_atomic_rc_box_new0 (Shape);
  shape->words = g_new0 (guint64, n_words);
  memcpy (shape->words, record->body, record->body_size);
  mask = g_malloc (n_words * 8);
  memset (mask, 0xff, record->body_size);
  memset (mask + record->body_size, 0, n_words * 8 - record->body_size);
  /* PerfTimeStamp, PerfTime100NSec; SystemTime */
  memset (mask + 8, 0, 16);
  memset (mask + 32, 0, 16);
  shape->n_values = self->plan->len;
  shape->value_offsets = g_new (guint32, MAX (self->plan->len, 1));
  shape->value_sizes = g_new (guint8, MAX (self->plan->len, 1));
  for (guint i = 0; i < self->plan->len; i++)
    {
      const ValuePlan *plan = &g_array_index (self->plan, ValuePlan, i);

      if (plan->data_size != 0)
        memset (mask + plan->data_offset, 0, plan->data_size);
      shape->value_offsets[i] = plan->data_offset;
      shape->value_sizes[i] = plan->data_size == 4 || plan->data_size == 8 ? plan->data_size : 0;
    }
  shape->mask = (guint64 *)(gpointer)mask;
  for (gsize w = 0; w < n_words; w++)
    shape->words[w] &= shape->mask[w];
  shape->generation = record->generation;
  shape->length = record->body_size;
  make_columns (self, shape);
  self->shape = shape;
  publish_shape (self);
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

/* The sample read at the shape's offsets into sample->values (as many as
 * the shape has values), if it has the shape. In either thread. */
static gboolean
match_shape (const Shape        *shape,
             const PsPlv2Record *record,
             SampleValues       *sample)
{
  const guint8 *data = record->body;
  gsize n_words = (record->body_size + 7) / 8;
  gsize whole = record->body_size / 8;
  guint64 differ = 0;
  gint64 filetime;

  if (shape == NULL || record->generation != shape->generation || record->body_size != shape->length)
    return FALSE;

  /* Equal or not does not depend on the byte order: words as they lie */
  for (gsize w = 0; w < whole; w++)
    {
      guint64 word;

      memcpy (&word, data + 8 * w, 8);
      differ |= (word ^ shape->words[w]) & shape->mask[w];
    }
  if (whole < n_words)
    {
      guint64 tail = 0;

      memcpy (&tail, data + 8 * whole, record->body_size - 8 * whole);
      differ |= (tail ^ shape->words[whole]) & shape->mask[whole];
    }
  if (differ != 0 || !system_time_plausible (data + 32))
    return FALSE;

  /* The decoder's rule for PerfTime100NSec (a FILETIME) */
  filetime = (gint64)ps_util_load_le64 (data + 16);
  if (!ps_perflib_filetime_to_unix_ns (filetime, &sample->unix_ns))
    return FALSE;

  sample->perf_time_stamp = (gint64)ps_util_load_le64 (data + 8);
  sample->perf_time_100nsec = filetime;
  sample->perf_freq = (gint64)ps_util_load_le64 (data + 24);
  for (guint i = 0; i < shape->n_values; i++)
    {
      guint32 offset = shape->value_offsets[i];

      if (shape->value_sizes[i] == 8)
        sample->values[i] = ps_util_load_le64 (data + offset);
      else if (shape->value_sizes[i] == 4)
        sample->values[i] = ps_util_load_le32 (data + offset);
      else
        sample->values[i] = 0;
    }
  return TRUE;
}

/* The sample read at the plan's offsets, if it has the plan's shape:
 * as the reading thread found it when it compared it with this shape
 * (the values are then the match's) */
static gboolean
read_with_shape (Plv2Parser         *self,
                 const PsPlv2Record *record,
                 const ShapeMatch   *match,
                 SampleValues       *sample)
{
  if (self->shape == NULL)
    return FALSE;
  if (match != NULL && match->shape == self->shape)
    {
      *sample = match->sample;
      return match->matches;
    }
  g_array_set_size (self->values, self->plan->len);
  sample->values = (guint64 *)(gpointer)self->values->data;
  return match_shape (self->shape, record, sample);
}

static void
read_sample (Plv2Parser         *self,
             const PsPlv2Record *record,
             ShapeMatch        **match)
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
      ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-NO-QUERY", record->offset,
                               _("Sample at byte offset %" PRIu64 ": no query of generation %u before it; skipped"),
                               record->offset, record->generation);
      return;
    }

  /* Most samples: the shape of the one before */
  if (self->has_origin && read_with_shape (self, record, *match, &sample))
    {
      if (self->previous_serial == self->plan_serial && self->previous_ordinal + 1 == ordinal
          && self->shape->n_columns > 0)
        add_columns (self, record, ordinal, &sample, *match);
      else
        add_readings (self, record, ordinal, &sample);
      note_sample_added (self, record, ordinal, &sample, match);
      return;
    }

  /* The plan may change: the series' previous values by the current one */
  write_back_previous (self);

  if (!ps_perflib_buffer_decode (record->body, record->body_size, &buffer, &error))
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_ERROR, "E-PLV2-BLOCK", buffer_offset,
                             _("Sample %" PRIu64 ", whose data begins at byte offset %" PRIu64
                               " of the file (the offsets that follow count from there): %s; the blocks before the damage are kept"),
                             ordinal, buffer_offset, error->message);
  if (buffer == NULL)
    return;
  for (guint i = 0; i < buffer->n_warnings; i++)
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-BLOCK", buffer_offset + buffer->warnings[i].offset,
                             _("Sample %" PRIu64 ", whose data begins at byte offset %" PRIu64
                               " of the file (the offsets that follow count from there): %s"),
                             ordinal, buffer_offset, buffer->warnings[i].message);

  unix_ns = sample_unix_ns (self, record, buffer);
  if (unix_ns == G_MININT64)
    {
      if (!self->warned_no_time)
        ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-NO-TIME", buffer_offset,
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
  note_sample_added (self, record, ordinal, &sample, NULL);
}

static gboolean
on_record (const PsPlv2Record *record,
           ShapeMatch        **match,
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
      read_sample (self, record, match);
      break;
    case PS_PLV2_RECORD_ANNOTATION:
      {
        g_autofree char *text = g_utf8_make_valid ((const char *)record->body, (gssize)record->body_size);

        ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-ANNOTATION", record->offset, _("Annotation: %s"), text);
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
  ps_parse_warn_at_offset (&self->parent, warning_session (self), g_strv_contains (fatal, code) ? PS_SEVERITY_ERROR : PS_SEVERITY_WARNING,
                           code, offset, "%s", message);
  if (g_strv_contains (fatal, code) && self->damage == NULL)
    {
      self->damage = g_strdup (message);
      self->damage_offset = offset;
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
  g_clear_pointer (&item->match, shape_match_free);
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
      match->matches = match_shape (shape, &item.record, &match->sample);
      if (!match->matches)
        g_clear_pointer (&match->sample.values, g_atomic_rc_box_release);
      else if (self->scan_previous_shape == shape && shape->n_columns > 0)
        {
          /* The work of the column loop that needs no series: here, on
           * this thread's core */
          match->displays = g_new (double, shape->n_columns);
          match->computed = g_new (guint8, shape->n_columns);
          compute_columns (shape, &match->sample, &self->scan_previous, match->displays, match->computed);
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
          ok = on_header (&item->header, self, error);
          break;
        case ITEM_RECORD:
          ok = on_record (&item->record, &item->match, self, error);
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
  g_clear_pointer (&self->previous_match, shape_match_free);
  forget_shape (self);
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
