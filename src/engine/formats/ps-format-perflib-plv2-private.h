/* ps-format-perflib-plv2-private.h — what the PLV2 parser and its
 * reading of samples share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §5 (display values), §8 (the container).
 */
#pragma once

#include <glib.h>

#include "ps-event-store-private.h"
#include "ps-format.h"
#include "ps-parse-kit.h"
#include "ps-perflib-block.h"
#include "ps-perflib-formula.h"
#include "ps-plv2.h"

G_BEGIN_DECLS

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
  PsCounterRaw     kept_raws[KEPT_BATCH_SIZE];

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

/* Defined in one file, used in the other */

void
plv2_ensure_session (Plv2Parser *self);

void
plv2_shape_match_free (ShapeMatch *match);

void
plv2_publish_shape (Plv2Parser *self);

void
plv2_forget_shape (Plv2Parser *self);

void
plv2_read_session (Plv2Parser         *self,
                   const PsPlv2Record *record);

void
plv2_read_registration (Plv2Parser         *self,
                        const PsPlv2Record *record);

void
plv2_read_query (Plv2Parser         *self,
                 const PsPlv2Record *record);

void
plv2_make_signature (Plv2Parser            *self,
                     guint32                generation,
                     const PsPerflibBuffer *buffer,
                     GArray                *signature);

void
plv2_make_plan (Plv2Parser             *self,
                const PsPerflibQuery   *query,
                const PsPerflibBuffer  *buffer,
                guint64                 offset);

void
plv2_compute_columns (const Shape        *shape,
                      const SampleValues *sample,
                      const SampleValues *before,
                      double             *displays,
                      guint8             *computed);

gboolean
plv2_match_shape (const Shape        *shape,
                  const PsPlv2Record *record,
                  SampleValues       *sample);

gboolean
plv2_on_record (const PsPlv2Record *record,
                ShapeMatch        **match,
                gpointer            user_data,
                GError            **error);

gboolean
plv2_on_header (const PsPlv2Header *header,
                gpointer            user_data,
                GError            **error);

void
plv2_on_warning (const char *code,
                 guint64     offset,
                 const char *message,
                 gpointer    user_data);

/* Inline for the hot paths of both files */

/* Warnings before the capture's session is open belong to session 0 */
static inline guint32
warning_session (Plv2Parser *self)
{
  return self->session != PS_NONE ? self->session : 0;
}

G_END_DECLS
