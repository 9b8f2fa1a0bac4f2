/* ps-event-store.h — one run, held in compact arrays
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store never allocates per event: measurements live in column blocks
 * (about 8 bytes an event), the other kinds in chunked arrays of packed
 * structs of at most 32 bytes. Strings are interned once and referred to by
 * a guint32 id; id 0 is always the empty string. Indexes that may be absent
 * use PS_NONE.
 *
 * Parsers never write here directly: they go through PsStoreBuilder
 * (ps-store-builder.h), which appends in batches.
 */
#pragma once

#include <gio/gio.h>

#include "ps-counter-series.h"

G_BEGIN_DECLS

#define PS_NONE           G_MAXUINT32
#define PS_NO_POSITION    G_MAXUINT64

typedef enum
{
  PS_TRACK_MARKER_INSTANCE,  /* CE PerfLog: one registration of (app, marker id) */
  PS_TRACK_PROCESS,
  PS_TRACK_THREAD,
  PS_TRACK_COUNTER,
  PS_TRACK_CPU,
  PS_TRACK_OTHER,
  PS_TRACK_MACHINE,          /* a computer of performance counters */
  PS_TRACK_OBJECT,           /* a counter object (counter set); parent: its machine or PS_NONE */
  PS_TRACK_INSTANCE,         /* an instance of a multi-instance object; parent: its object */
} PsTrackKind;

/* Performance counters (PDH CSV/TSV logs, PerfLib V2 captures) form a tree
 * of tracks linked by `parent`: MACHINE (name: the computer) ← OBJECT
 * (name: the object) ← INSTANCE (name: the instance without parent and
 * index; category: the parent instance, "explorer" of
 * Thread(explorer/0), 0 if none; number: the #index, 0 when not written)
 * ← COUNTER (name: the counter; category: the original counter path;
 * unit: the counter's unit, for PDH logs inferred from its name; number:
 * the file's column; parent: its instance, or its object for
 * single-instance objects). Readings are PsCounterValues of the COUNTER
 * track with their display values; PerfLib readings keep their raw value
 * and base too (PsCounterRaw, beside them). Every reading counts in the
 * track's statistics and overview (ps_event_store_get_counter_stats,
 * _get_counter_overview); the readings themselves are kept up to a limit,
 * beyond which every second, fourth, … reading of each track is kept (see
 * ps_event_store_set_max_counter_values). */

typedef enum
{
  PS_TRACK_FLAG_NONE        = 0,
  PS_TRACK_FLAG_IMPLICIT    = 1 << 0,  /* created by an event, never declared */
  PS_TRACK_FLAG_HAS_DURATION = 1 << 1, /* received measurements of that kind */
  PS_TRACK_FLAG_HAS_CPU     = 1 << 2,
  PS_TRACK_FLAG_HAS_MEMORY  = 1 << 3,
  PS_TRACK_FLAG_HAS_OTHER   = 1 << 4,
  PS_TRACK_FLAG_COUNTER_TYPE = 1 << 5, /* COUNTER: ordinal is the PerfLib counter type word */
} PsTrackFlags;

typedef struct
{
  guint32 name;       /* string id: display name (CE: the marker description) */
  guint32 category;   /* string id: owner (CE: application; thread: process name) */
  guint32 parent;     /* track index or PS_NONE */
  guint32 session;    /* session index */
  gint64  number;     /* CE: marker id; process: pid; thread: tid */
  guint32 ordinal;    /* CE: 1-based registration number of (session, app, id) */
  guint32 unit;       /* string id of the unit of the track's values, 0 if none */
  guint64 line;       /* line (text formats) or byte offset (binary) where declared, 0 if unknown */
  guint16 kind;       /* PsTrackKind */
  guint16 flags;      /* PsTrackFlags */
} PsTrack;

typedef struct
{
  guint64 first_line;
  guint64 last_line;
  guint64 first_measurement;  /* global index of the first measurement at or after the session start */
  gint64  origin_unix_ns;     /* wall-clock time of time 0, or 0 if unknown */
  gboolean implicit;          /* opened by data before any header */
} PsSessionInfo;

typedef enum
{
  PS_MEASURE_DURATION,  /* value.ticks: timer ticks (gint64) */
  PS_MEASURE_CPU,       /* value.number: percent */
  PS_MEASURE_MEMORY,    /* value.bytes, or value.number with PS_MEASURE_FLAG_FRACTIONAL */
  PS_MEASURE_OTHER,     /* value.other: see ps_event_store_get_other() */
} PsMeasureKind;

typedef enum
{
  PS_MEASURE_FLAG_NONE         = 0,
  PS_MEASURE_FLAG_NEGATIVE     = 1 << 0, /* NEG-DUR: kept, left out of default statistics */
  PS_MEASURE_FLAG_OUT_OF_RANGE = 1 << 1, /* CPU outside 0…100 */
  PS_MEASURE_FLAG_FRACTIONAL   = 1 << 2, /* MEM given with a fraction: value.number */
} PsMeasureFlags;

typedef struct
{
  guint64 index;   /* global event index: the position of the event in the run */
  guint64 line;    /* line number (1-based) or 0 if unknown */
  guint32 track;
  guint8  kind;    /* PsMeasureKind */
  guint8  flags;   /* PsMeasureFlags */
  union {
    gint64  ticks;
    double  number;
    guint64 bytes;
    guint32 other;
  } value;
} PsMeasurement;

typedef enum
{
  PS_SPAN_FLAG_NONE             = 0,
  PS_SPAN_FLAG_LOGICAL          = 1 << 0, /* RTL: opened and closed by messages */
  PS_SPAN_FLAG_UNTERMINATED     = 1 << 1, /* no end seen: end_ns is a lower bound */
  PS_SPAN_FLAG_CLOSED_BY_PARENT = 1 << 2, /* logical scope ended with its physical parent */
  PS_SPAN_FLAG_NAME_MISMATCH    = 1 << 3, /* paired although the end named it differently */
  PS_SPAN_FLAG_CLOCK_BACK       = 1 << 4, /* the clock went back inside: duration unreliable */
  PS_SPAN_FLAG_TRUNCATED        = 1 << 5, /* closed by an end record cut off at the end of the file */
  PS_SPAN_FLAG_UNTIMED          = 1 << 6, /* begin record without time: took the previous record's */
  PS_SPAN_FLAG_CONTINUED        = 1 << 7, /* the name went on over more lines */
} PsSpanFlags;

/* Spans whose duration does not belong in statistics */
#define PS_SPAN_FLAGS_NOT_MEASURED \
  (PS_SPAN_FLAG_UNTERMINATED | PS_SPAN_FLAG_CLOSED_BY_PARENT | PS_SPAN_FLAG_CLOCK_BACK)

/* A time interval on a track, e.g. an RTL scope or a VS call. Spans are
 * stored in the order they began; a parent always comes before its
 * children. 32 bytes. */
typedef struct
{
  gint64  begin_ns;
  gint64  end_ns;
  guint32 track;
  guint32 name;     /* string id */
  guint32 parent;   /* span index or PS_NONE */
  guint16 depth;
  guint16 flags;    /* PsSpanFlags */
} PsSpan;

typedef enum
{
  PS_MARK_FLAG_NONE             = 0,
  PS_MARK_FLAG_UNTIMED          = 1 << 0, /* no time of its own: took the previous record's */
  PS_MARK_FLAG_CONTINUED        = 1 << 1, /* the text went on over more lines */
  PS_MARK_FLAG_INTERRUPTED      = 1 << 2, /* another record was written into it */
  PS_MARK_FLAG_REASSEMBLED      = 1 << 3, /* its text was found on a later line */
  PS_MARK_FLAG_TRUNCATED        = 1 << 4, /* cut off (NUL byte, or end of file) */
  PS_MARK_FLAG_CONTEXT_NOT_OPEN = 1 << 5, /* named a scope that was not open */
  PS_MARK_FLAG_NO_SEPARATOR     = 1 << 6, /* no " : " between name and text */
  PS_MARK_FLAG_LOST             = 1 << 7, /* a record whose text the writer dropped */
} PsMarkFlags;

/* A point in time with a text, e.g. an RTL message. 40 bytes. */
typedef struct
{
  gint64  time_ns;
  guint64 line;
  guint32 track;
  guint32 text;     /* string id */
  guint32 name;     /* string id: what the record named (RTL: a scope), 0 if nothing */
  guint32 span;     /* the span it belongs to, or PS_NONE for the track itself */
  guint32 position; /* spans begun before it: places it among them in file order */
  guint16 flags;    /* PsMarkFlags */
  guint16 reserved;
} PsMark;

typedef enum
{
  PS_SAMPLE_FLAG_NONE   = 0,
  PS_SAMPLE_FLAG_KERNEL = 1 << 0,
  PS_SAMPLE_FLAG_UNTIMED = 1 << 1, /* aggregated: time_ns means nothing (pmcstat -G) */
} PsSampleFlags;

/* A sampled call stack. 24 bytes. */
typedef struct
{
  gint64  time_ns;
  guint32 track;    /* the thread (or process) it was taken in, PS_NONE if unknown */
  guint32 stack;    /* stack node id; 0 is the empty stack */
  guint32 weight;
  guint16 flags;    /* PsSampleFlags */
  guint16 source;   /* what took it: a sample source index */
} PsSample;

/* What takes samples: a hardware or software counter that interrupts
 * every `rate` events (hwpmc: a PMC, merged by event name). Rare. */
typedef struct
{
  guint32 name;     /* string id: the event, e.g. "CLOCK.HARD" */
  guint32 unit;     /* string id of what the rate counts, 0 if unknown */
  guint64 rate;     /* events per sample, 0 if unknown */
  guint64 n_samples; /* samples taken (sum of weights), kept by the store */
} PsSampleSource;

typedef enum
{
  PS_COUNTER_FLAG_NONE    = 0,
  PS_COUNTER_FLAG_RAW     = 1 << 0, /* raw and base hold what the provider reported (PerfLib) */
  PS_COUNTER_FLAG_MISSING = 1 << 1, /* no display value: a blank sample, the first of a rate, … */
} PsCounterFlags;

/* A counter reading: when, of which counter, and its display value.
 * 24 bytes: a PDH log of a few hundred counters adds that many readings a
 * row, and the store keeps millions of them. */
typedef struct
{
  gint64  time_ns;
  guint32 track;
  guint16 flags;    /* PsCounterFlags */
  guint16 status;   /* the format's reason for a missing value or a note on it, 0 if none */
  double  value;    /* NaN when PS_COUNTER_FLAG_MISSING */
} PsCounterValue;

/* What a provider reported for a reading flagged PS_COUNTER_FLAG_RAW
 * (PerfLib): the raw value and base the display value was computed from.
 * A store keeps these beside its readings only once one of them has any. */
typedef struct
{
  gint64  raw;
  gint64  base;
} PsCounterRaw;

typedef struct
{
  guint32 parent;   /* stack node id, 0 for the root */
  guint32 frame;    /* frame id */
} PsStackNode;

/* A code location. A named frame has its function's start address (or 0);
 * an unnamed one (function 0) has the offset from its module's load
 * address, and is shown as "module+0xoffset"
 * (ps_event_store_append_frame_name ()). */
typedef struct
{
  guint64 address;
  guint32 function; /* string id, 0 when unnamed */
  guint32 module;   /* string id: the module's path, 0 if unknown */
} PsFrame;

typedef enum
{
  PS_REPORT_ROW_TREE,      /* a call path of a call-tree report */
  PS_REPORT_ROW_FUNCTION,  /* a function of a summary, or a caller/callee Root row */
  PS_REPORT_ROW_CALLER,    /* a caller of the FUNCTION row `parent` */
  PS_REPORT_ROW_CALLEE,    /* a callee of the FUNCTION row `parent` */
} PsReportRowKind;

/* Index of the four instrumentation values in PsReportRow's arrays
 * (vs-instrumentation.md §3); sampling reports use the first two for
 * inclusive and exclusive samples. */
enum
{
  PS_REPORT_ELAPSED_INCLUSIVE,
  PS_REPORT_ELAPSED_EXCLUSIVE,
  PS_REPORT_APPLICATION_INCLUSIVE,
  PS_REPORT_APPLICATION_EXCLUSIVE,
  PS_N_REPORT_VALUES,
};

/* One row of a profiler report that gives aggregated values instead of
 * events (a Visual Studio profiler CSV). Values are in the unit of the
 * run's "time_unit" metadata ("ticks", "ms" or "samples"); NAN where the
 * report has no such column. Rare (thousands per run), so not packed. */
typedef struct
{
  guint64 line;
  guint32 frame;      /* function, module, address */
  guint32 parent;     /* TREE: parent row or PS_NONE at the top level;
                       * CALLER/CALLEE: its FUNCTION row */
  guint32 track;      /* the process track, PS_NONE if the report named none */
  guint16 kind;       /* PsReportRowKind */
  guint16 level;      /* TREE: the report's Level column */
  guint64 calls;      /* Number of Calls, 0 if not given */
  gboolean has_calls;
  double  total[PS_N_REPORT_VALUES];
  double  min[PS_N_REPORT_VALUES];
  double  avg[PS_N_REPORT_VALUES];
  double  max[PS_N_REPORT_VALUES];
  double  percent[PS_N_REPORT_VALUES];
} PsReportRow;

typedef enum
{
  PS_SEVERITY_INFO,
  PS_SEVERITY_WARNING,
  PS_SEVERITY_ERROR,
} PsSeverity;

typedef struct
{
  const char *code;     /* e.g. "W-UNREGISTERED" */
  const char *message;  /* translated, UTF-8 */
  guint64     line;     /* 1-based, 0 if not a text position */
  guint64     offset;   /* byte offset in the file, PS_NO_POSITION if unknown */
  guint32     session;  /* session index or PS_NONE */
  PsSeverity  severity;
} PsWarning;

typedef struct
{
  const char *key;
  const char *value;
} PsMetadataEntry;

/* The times of spans, marks and samples lie within ±PS_TIME_LIMIT_NS of
 * the run's origin (±73 years): the store holds a time beyond to the
 * limit, so that differences and sums of a few of them fit in 64 bits
 * whatever the input said */
#define PS_TIME_LIMIT_NS (G_GINT64_CONSTANT (1) << 61)

#define PS_TYPE_EVENT_STORE (ps_event_store_get_type ())
G_DECLARE_FINAL_TYPE (PsEventStore, ps_event_store, PS, EVENT_STORE, GObject)

PsEventStore  *ps_event_store_new                (void);

/* Identity of the run */
const char    *ps_event_store_get_format         (PsEventStore   *self);
void           ps_event_store_set_format         (PsEventStore   *self,
                                                  const char     *format_name);
GFile         *ps_event_store_get_file           (PsEventStore   *self);
void           ps_event_store_set_file           (PsEventStore   *self,
                                                  GFile          *file);
gboolean       ps_event_store_is_complete        (PsEventStore   *self);
/* The fatal error that stopped reading after some data, or NULL. */
const GError  *ps_event_store_get_error          (PsEventStore   *self);
void           ps_event_store_set_error          (PsEventStore   *self,
                                                  const GError   *error);
guint64        ps_event_store_get_bytes_read     (PsEventStore   *self);
void           ps_event_store_set_bytes_read     (PsEventStore   *self,
                                                  guint64         bytes);
/* The store is read, no longer written: what only helped to write it is
 * let go (the index of stacks by parent and frame, 134 MiB of a pmclog
 * of 1 GiB) */
void           ps_event_store_loaded             (PsEventStore   *self);
/* Approximate heap bytes the store holds. */
gsize          ps_event_store_get_memory_size    (PsEventStore   *self);

/* Strings */
guint32        ps_event_store_intern             (PsEventStore   *self,
                                                  const char     *text,
                                                  gssize          length);
const char    *ps_event_store_get_string         (PsEventStore   *self,
                                                  guint32         id);
/* Stores a text that is likely unique (a message) without interning it:
 * a new id every time, and no entry in the intern table. */
guint32        ps_event_store_add_text           (PsEventStore   *self,
                                                  const char     *text,
                                                  gssize          length);

/* Sessions and metadata (insertion order kept; setting a key again replaces it) */
guint32        ps_event_store_add_session        (PsEventStore   *self,
                                                  guint64         first_line,
                                                  gboolean        implicit);
guint          ps_event_store_get_n_sessions     (PsEventStore   *self);
const PsSessionInfo *ps_event_store_get_session  (PsEventStore   *self,
                                                  guint32         session);
/* The measurements of a session, first up to (not including) end, in
 * the order of the store; FALSE when it has none */
gboolean       ps_event_store_get_session_measurements (PsEventStore *self,
                                                        guint32       session,
                                                        guint64      *first,
                                                        guint64      *end);
void           ps_event_store_set_session_end    (PsEventStore   *self,
                                                  guint32         session,
                                                  guint64         last_line);
void           ps_event_store_set_session_origin (PsEventStore   *self,
                                                  guint32         session,
                                                  gint64          origin_unix_ns);
void           ps_event_store_set_metadata       (PsEventStore   *self,
                                                  guint32         session,
                                                  const char     *key,
                                                  const char     *value);
const char    *ps_event_store_get_metadata       (PsEventStore   *self,
                                                  guint32         session,
                                                  const char     *key);
/* Returns the entries of a session in insertion order; free the array only. */
GArray        *ps_event_store_list_metadata      (PsEventStore   *self,
                                                  guint32         session);

/* Timer tick rates: a session's rate can change at a measurement index.
 * Measurements before the first recorded change use the first rate. */
void           ps_event_store_add_tick_rate      (PsEventStore   *self,
                                                  guint32         session,
                                                  guint64         from_index,
                                                  double          ticks_per_second);
/* 0 when the session has no known rate */
double         ps_event_store_get_tick_rate      (PsEventStore   *self,
                                                  guint32         session,
                                                  guint64         index);
guint          ps_event_store_get_n_tick_rates   (PsEventStore   *self,
                                                  guint32         session);

/* Tracks */
guint32        ps_event_store_add_track          (PsEventStore   *self,
                                                  const PsTrack  *track);
guint          ps_event_store_get_n_tracks       (PsEventStore   *self);
const PsTrack *ps_event_store_get_track          (PsEventStore   *self,
                                                  guint32         track);
void           ps_event_store_add_track_flags    (PsEventStore   *self,
                                                  guint32         track,
                                                  guint16         flags);

/* Measurements */
guint64        ps_event_store_get_n_measurements (PsEventStore   *self);
void           ps_event_store_get_measurement    (PsEventStore   *self,
                                                  guint64         index,
                                                  PsMeasurement  *out);
/* The values of the measurements as the store keeps them in 32 bits, a
 * page of 2^PS_EVENT_STORE_VALUE_PAGE_SHIFT measurements at a time: page
 * p holds those from index p << PS_EVENT_STORE_VALUE_PAGE_SHIFT. For a
 * duration of 0 to G_MAXINT32 ticks the value is its tick count (others
 * are kept in other ways; ps_event_store_get_measurement () reads them
 * all). A loaded store's pages stay where they are while it lives. */
#define PS_EVENT_STORE_VALUE_PAGE_SHIFT 16
const guint32 *ps_event_store_get_value_page     (PsEventStore   *self,
                                                  guint64         page);
/* The value of the measurement of that index among the pages */
static inline guint32
ps_event_store_value_in_pages (const guint32 *const *pages,
                               guint64               index)
{
  return pages[index >> PS_EVENT_STORE_VALUE_PAGE_SHIFT][index & ((1u << PS_EVENT_STORE_VALUE_PAGE_SHIFT) - 1)];
}
/* A measurement as ps_event_store_get_measurement () gives it but for
 * its line (0), which takes reading the lines before it */
void           ps_event_store_get_measurement_value (PsEventStore  *self,
                                                     guint64        index,
                                                     PsMeasurement *out);

/* The measurements of one page as the store keeps them, for a walk over
 * many that needs neither their lines nor most of their values:
 * measurement i of the page (index first + i, where first is
 * page << PS_EVENT_STORE_VALUE_PAGE_SHIFT) is on track tracks[track_index[i]], of the kind and flags that
 * ps_measurement_meta_kind () and _flags () read from meta[i], with
 * values[i] as in ps_event_store_get_value_page (). */
typedef struct
{
  guint64        first;
  guint          n_measurements;
  const guint16 *track_index;
  const guint32 *tracks;
  guint          n_tracks;
  const guint8  *meta;
  const guint32 *values;
} PsMeasurementPage;

void           ps_event_store_get_measurement_page  (PsEventStore      *self,
                                                     guint64            page,
                                                     PsMeasurementPage *out);

#define PS_MEASUREMENT_META_KIND_MASK   0x03
#define PS_MEASUREMENT_META_FLAGS_SHIFT 2
#define PS_MEASUREMENT_META_FLAGS_MASK  0x07
/* The value is not in values[i] but kept in full */
#define PS_MEASUREMENT_META_WIDE        0x20

static inline PsMeasureKind
ps_measurement_meta_kind (guint8 meta)
{
  return (PsMeasureKind)(meta & PS_MEASUREMENT_META_KIND_MASK);
}

static inline guint8
ps_measurement_meta_flags (guint8 meta)
{
  return (meta >> PS_MEASUREMENT_META_FLAGS_SHIFT) & PS_MEASUREMENT_META_FLAGS_MASK;
}

/* Undocumented CE event kinds: the kind name and the raw value text. */
void           ps_event_store_get_other          (PsEventStore   *self,
                                                  guint32         other,
                                                  const char    **kind_name,
                                                  const char    **raw_value);

typedef struct
{
  /*< private >*/
  PsEventStore *store;
  guint64       index;
  guint64       line;
  gsize         wide_pos;
  gsize         line_escape_pos;
} PsMeasurementIter;

void           ps_measurement_iter_init          (PsMeasurementIter *iter,
                                                  PsEventStore      *store);
/* From the measurement of that index on (none past the last) */
void           ps_measurement_iter_init_at       (PsMeasurementIter *iter,
                                                  PsEventStore      *store,
                                                  guint64            index);
gboolean       ps_measurement_iter_next          (PsMeasurementIter *iter,
                                                  PsMeasurement     *out);
/* The next measurement of a track marked in wanted (wanted[track] != 0
 * for track < n_wanted): the others are passed over without being read,
 * which takes a fraction of the time of reading them */
gboolean       ps_measurement_iter_next_of       (PsMeasurementIter *iter,
                                                  const guint8      *wanted,
                                                  guint              n_wanted,
                                                  PsMeasurement     *out);

/* Other event kinds */
guint64        ps_event_store_get_n_spans        (PsEventStore   *self);
/* Whether the spans were summed up per name while loading instead of
 * being kept (PS_FORMAT_OPTION_TOTALS_ONLY): the store then has no spans
 * and no messages, and ps_series_collect () gives the span series only
 * without filters and across threads */
gboolean       ps_event_store_get_spans_summarized (PsEventStore *self);
const PsSpan  *ps_event_store_get_span           (PsEventStore   *self,
                                                  guint64         index);
/* The context a span was opened in (RTL logical scopes: the scope name of
 * the message that opened it), a string id; 0 if none. */
guint32        ps_event_store_get_span_context   (PsEventStore   *self,
                                                  guint64         index);
guint64        ps_event_store_get_n_marks        (PsEventStore   *self);
const PsMark  *ps_event_store_get_mark           (PsEventStore   *self,
                                                  guint64         index);
guint64        ps_event_store_get_n_samples      (PsEventStore   *self);
const PsSample *ps_event_store_get_sample        (PsEventStore   *self,
                                                  guint64         index);
/* Sample sources: at most G_MAXUINT16 + 1; a name already added gives
 * its existing index. */
guint16        ps_event_store_add_sample_source  (PsEventStore   *self,
                                                  guint32         name,
                                                  guint64         rate);
guint          ps_event_store_get_n_sample_sources (PsEventStore *self);
const PsSampleSource *ps_event_store_get_sample_source (PsEventStore *self,
                                                  guint16         source);
/* The readings kept, in the order they were added */
guint64        ps_event_store_get_n_counter_values (PsEventStore *self);
const PsCounterValue *ps_event_store_get_counter_value (PsEventStore *self,
                                                  guint64         index);
/* The raw value and base of the reading kept at index, NULL when the
 * store holds none (no reading of it was flagged PS_COUNTER_FLAG_RAW) */
const PsCounterRaw *ps_event_store_get_counter_raw (PsEventStore *self,
                                                  guint64         index);
/* All readings added, kept or not */
guint64        ps_event_store_get_n_counter_readings (PsEventStore *self);
/* Statistics and overview of a COUNTER track over all its readings; NULL
 * and FALSE for a track without any */
const PsCounterStats *ps_event_store_get_counter_stats (PsEventStore *self,
                                                  guint32         track);
gboolean       ps_event_store_get_counter_overview (PsEventStore *self,
                                                  guint32         track,
                                                  PsCounterOverview *overview);
/* How many readings are kept one by one (default
 * PS_EVENT_STORE_DEFAULT_MAX_COUNTER_VALUES, 0: no limit). Past it, every
 * track keeps one reading in 2, then in 4, … (the stride) and a warning
 * says so; statistics and overviews still see every reading. */
#define PS_EVENT_STORE_DEFAULT_MAX_COUNTER_VALUES (G_GUINT64_CONSTANT (8) << 20)

void           ps_event_store_set_max_counter_values (PsEventStore *self,
                                                  guint64         max_values);
guint64        ps_event_store_get_max_counter_values (PsEventStore *self);
guint          ps_event_store_get_counter_stride (PsEventStore *self);

/* Stacks and frames, shared by samples and spans; both are interned. */
guint32        ps_event_store_intern_frame       (PsEventStore   *self,
                                                  guint32         function,
                                                  guint32         module,
                                                  guint64         address);
const PsFrame *ps_event_store_get_frame          (PsEventStore   *self,
                                                  guint32         frame);
guint32        ps_event_store_intern_stack       (PsEventStore   *self,
                                                  guint32         parent,
                                                  guint32         frame);
const PsStackNode *ps_event_store_get_stack_node (PsEventStore   *self,
                                                  guint32         stack);
/* The function's name, or "module+0xoffset" (the module's base name) for
 * an unnamed frame, or "0xaddress" without a module */
void           ps_event_store_append_frame_name  (PsEventStore   *self,
                                                  guint32         frame,
                                                  GString        *out);
/* Node 0, the empty stack, included */
guint          ps_event_store_get_n_stack_nodes  (PsEventStore   *self);
guint          ps_event_store_get_n_frames       (PsEventStore   *self);

/* Report rows (profiler reports), in file order */
guint32        ps_event_store_add_report_row     (PsEventStore   *self,
                                                  const PsReportRow *row);
guint          ps_event_store_get_n_report_rows  (PsEventStore   *self);
const PsReportRow *ps_event_store_get_report_row (PsEventStore   *self,
                                                  guint32         index);

/* Time range covered by timed events, FALSE if there are none */
gboolean       ps_event_store_get_time_range     (PsEventStore   *self,
                                                  gint64         *begin_ns,
                                                  gint64         *end_ns);

/* Warnings. Every warning is counted per code; the first
 * PS_EVENT_STORE_MAX_WARNINGS are kept with their text. */
#define PS_EVENT_STORE_MAX_WARNINGS 10000

void           ps_event_store_add_warning        (PsEventStore   *self,
                                                  PsSeverity      severity,
                                                  const char     *code,
                                                  guint64         line,
                                                  guint64         offset,
                                                  guint32         session,
                                                  const char     *message);
guint          ps_event_store_get_n_warnings     (PsEventStore   *self);
void           ps_event_store_get_warning        (PsEventStore   *self,
                                                  guint           index,
                                                  PsWarning      *out);
/* How many warnings were raised in all, kept or not */
guint64        ps_event_store_get_n_warnings_raised (PsEventStore *self);

/* Emitted on the main thread by live collection after a batch was committed */
void           ps_event_store_emit_appended      (PsEventStore   *self);

G_END_DECLS
