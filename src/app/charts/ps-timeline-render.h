/* ps-timeline-render.h — the rows of a timeline and how they are drawn
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PsTimelineModel lists the rows of a run's timeline: group headers
 * (collapsible), threads with their marks and their spans nested by depth,
 * and value charts (counters over time; CE measurements, which have no
 * timestamps, over their sequence number). ps_timeline_render() draws a
 * frame of it with cairo from level-of-detail queries, so the work per
 * frame is bounded by the pixels, not by the events. It needs no widget:
 * PsTimelineView draws with it in its snapshot, bench-timeline-render into
 * an image surface.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>
#include <gdk/gdk.h>

#include "ps-event-store.h"
#include "ps-series-points.h"
#include "ps-span-lod.h"

G_BEGIN_DECLS

typedef enum
{
  PS_TIMELINE_ROW_GROUP,   /* a heading over the rows below it */
  PS_TIMELINE_ROW_SPANS,   /* a thread: marks on top, spans by depth */
  PS_TIMELINE_ROW_VALUES,  /* a line chart of a value series */
  PS_TIMELINE_ROW_SAMPLES, /* a thread's samples, a tick each */
} PsTimelineRowKind;

/* The samples of one thread in time order (ps-timeline-render-samples.c) */
typedef struct _PsSampleLane PsSampleLane;

/* A CE log has a row per marker instance, hundreds of thousands of
 * them: the fields are ordered so that none leaves a gap, and the flags
 * are bits */
typedef struct
{
  PsTimelineRowKind kind;
  guint32     track;        /* PS_NONE for groups */
  guint       group;        /* the row index of its group, or G_MAXUINT */
  /* Groups: the log session whose rows it holds, G_MAXUINT when the run
   * has one session or the group is not one session's */
  guint       session;
  char       *label;        /* owned, unless label_shared */
  char       *tooltip;      /* longer description of the row, or NULL */
  /* Values rows */
  PsValueLod *values;
  const char *unit;         /* shown on the chart: "ms", "%", "MiB"; interned */
  /* The changes of its level (PsCounterChange), once found
   * (ps_timeline_row_get_changes ()) */
  GArray     *changes;
  double      unit_scale;   /* stored value × unit_scale = shown value */
  char       *value_key;    /* its group's label, its own and its unit:
                             * the same chart in another run has the same;
                             * owned, unless value_key_shared */
  /* Sample rows */
  PsSampleLane *lane;
  /* Groups: what charts in it are matched by with the same charts of
   * another run or session (value_key), when that is not its label: the
   * label without its session */
  char       *match_label;
  /* Layout (ps_timeline_model_layout) */
  double      y;            /* from the top of the rows area */
  double      height;
  /* Span rows */
  guint       n_depths;
  /* label is an earlier row's: the rows of a CE log's marker instances
   * repeat a few texts hundreds of thousands of times, each kept once by
   * the first row that has it (rows are freed together) */
  guint       label_shared : 1;
  /* Its tooltip counts its values (ps_timeline_row_tooltip ()) */
  guint       counts_values : 1;
  /* value_key is an earlier row's: another instance of its marker */
  guint       value_key_shared : 1;
  guint       has_marks : 1;    /* span rows */
  /* CE: its chart holds the points of several instances of its marker
   * (chart_tracks), and its tooltip says which a point is */
  guint       several_instances : 1;
  guint       collapsed : 1;    /* groups */
  guint       hidden : 1;       /* in a collapsed group (layout) */
} PsTimelineRow;

typedef struct
{
  PsEventStore *store;
  PsSpanLod    *lod;
  GPtrArray    *rows;           /* PsTimelineRow* */
  gboolean      sequence_axis;  /* x is a measurement's sequence number */
  gint64        origin_unix_ns; /* wall-clock time of x = 0, or 0 */
  gint64        extent_begin;   /* x range of the whole run */
  gint64        extent_end;
  double        rows_height;    /* of all visible rows */
  guint32       sample_source;  /* whose samples the sample rows show (a
                                 * source of the store), PS_NONE: every one's */
  /* CE runs: the track whose row charts each track's values — the first
   * instance of its marker, which a harness registers again on every
   * pass, one row for all of them — and each track's first and last
   * sequence number (2 per track; first G_MAXINT64: none), both held by
   * points. NULL elsewhere: a row per track. */
  const guint32 *chart_tracks;
  const gint64  *track_extents;
  guint         n_chart_tracks;
  /*< private >*/
  /* CE runs: the points of the charts; NULL elsewhere */
  PsSeriesPoints *points;
  guint         sample_rows_end;    /* the rows before it are the samples' */
  guint         counter_rows_begin; /* the first counter row (or group) */
  GHashTable   *labels;         /* span name and width → PangoLayout */
  PangoContext *labels_context; /* the context they were made with */
  /* The label column (ps_timeline_model_label_width ()): the widest of
   * its texts, and each row's label as drawn in a column of
   * row_labels_width, measured with label_context at label_serial */
  PangoContext *label_context;
  guint         label_serial;
  double        label_natural_width;
  /* The rows' labels, each address once, and each row's among them
   * (G_MAXUINT32: a group's heading): found once for a set of rows
   * (ps_timeline_model_index_labels ()), so that measuring and cutting
   * the column goes over a few hundred texts, not every row */
  GPtrArray    *label_texts;    /* const char * */
  guint32      *row_text;
  guint         n_row_text;     /* the rows it was found for */
  const char  **text_drawn;     /* per label_texts: its label as drawn in
                                 * row_labels_width; owned by label_cuts */
  GHashTable   *label_cuts;     /* a row's text → its cuts */
  double        row_labels_width;
  /* The overview's busyness per column of the whole run, for
   * overview_columns columns over the extent it was counted over; NULL
   * until drawn and after the rows change (ps_timeline_model_layout ()) */
  double       *overview_busy;
  guint         overview_columns;
  gint64        overview_begin;
  gint64        overview_end;
  /* The same at PS_TIMELINE_OVERVIEW_FINE columns, counted where the
   * model is made (ps_timeline_model_count_overview ()), from which the
   * overview of any narrower width is summed; NULL when not counted and
   * after the rows change */
  double       *overview_fine;
  gint64        overview_fine_begin;
  gint64        overview_fine_end;
} PsTimelineModel;

/* Columns of the overview counted with the model: its width in pixels
 * is far below, so that summing them per pixel places each point within
 * a tenth of a pixel of where counting it at that width would */
#define PS_TIMELINE_OVERVIEW_FINE 8192

/* A value series to chart: x (nanoseconds, or sequence numbers) and values */
typedef struct
{
  guint32       track;
  const char   *label;
  const char   *unit;
  double        unit_scale;
  const gint64 *x;
  /* Or x in 32 bits, for points in a block (points_release) */
  const guint32 *x_narrow;
  const double *values;
  /* Or values in 32 bits, for points in a block: value i is the number
   * in a store's value pages at x_i, divided by divisor
   * (ps_value_lod_new_in_block ()) */
  const guint32 *const *value_pages;
  double        divisor;
  gsize         n_points;
  /* x and values were g_malloc ()ed for the model, which frees them */
  gboolean      take_points;
  /* Or they lie in a block shared with other series: a reference to what
   * holds it, which the model gives to points_release when done */
  gpointer       points_owner;
  GDestroyNotify points_release;
} PsTimelineSeries;

/* The timeline of a run over time: spans and marks come from lod (may be
 * NULL for runs without them), counter tracks and samples from the store */
PsTimelineModel *ps_timeline_model_new     (PsEventStore *store,
                                            PsSpanLod    *lod);
/* Whether the timeline of a store is over the sequence of its
 * measurements (CE runs: measurements without timestamps, no spans),
 * as ps_series_points_suit () tells the run's statistics */
gboolean         ps_timeline_store_has_sequence_axis (PsEventStore *store);
/* CE runs (ps_timeline_store_has_sequence_axis ()): a chart per marker
 * and kind over the measurements' sequence numbers, its instances' points
 * together, in the order the CE view lists its markers; NULL when
 * cancelled. Any thread. */
PsTimelineModel *ps_timeline_model_new_measurements (PsEventStore *store,
                                                     PsSpanLod    *lod,
                                                     GCancellable *cancellable);
/* The track of the row that charts track's values: itself, but on a CE
 * run the first instance of its marker (chart_tracks) */
guint32          ps_timeline_model_chart_track (const PsTimelineModel *self,
                                                guint32                track);
/* The sequence numbers of a CE run's track's first and last measurement;
 * FALSE elsewhere, and for a track without measurements */
gboolean         ps_timeline_model_get_track_extent (const PsTimelineModel *self,
                                                     guint32                track,
                                                     gint64                *first,
                                                     gint64                *last);
/* The tracks charted by the row of chart_track (itself alone where the
 * model has a row per track), in order; g_free () */
guint32         *ps_timeline_model_get_chart_members (const PsTimelineModel *self,
                                                      guint32                chart_track,
                                                      guint                 *n_members);
/* Charts of the counter tracks in counter_tracks (guint32) only, or of
 * every one when it is NULL (a run of thousands of counters shows those
 * checked in its counters view); the sample rows (a sampled run's
 * samples-per-second charts and lanes) of sample_source alone, or of
 * every source with PS_NONE (ps_timeline_model_new () passes NULL and
 * PS_NONE). NULL only when cancellable (may be NULL) was cancelled. */
PsTimelineModel *ps_timeline_model_new_full (PsEventStore *store,
                                             PsSpanLod    *lod,
                                             const GArray *counter_tracks,
                                             guint32       sample_source,
                                             GCancellable *cancellable);
/* The sample rows alone, of another sample source (PS_NONE: every one),
 * built off the main thread for ps_timeline_model_take_sample_rows ().
 * NULL only when cancellable (may be NULL) was cancelled. */
PsTimelineModel *ps_timeline_model_new_samples (PsEventStore       *store,
                                               guint32             sample_source,
                                               GCancellable       *cancellable);
/* Puts the sample rows of samples (ps_timeline_model_new_samples () of
 * the same store) in place of the model's, their groups open or closed as
 * the model's were, and frees samples; the other rows are kept */
void             ps_timeline_model_take_sample_rows (PsTimelineModel *self,
                                                     PsTimelineModel *samples);
/* Rebuilds the counter rows alone, for other counter tracks */
void             ps_timeline_model_set_counter_tracks (PsTimelineModel *self,
                                                       const GArray    *counter_tracks);
void             ps_timeline_model_free    (PsTimelineModel        *self);
/* Places the rows after a group was collapsed or expanded */
void             ps_timeline_model_layout  (PsTimelineModel        *self);
/* Counts how busy the whole run is for the overview, at
 * PS_TIMELINE_OVERVIEW_FINE columns: where the model is made, off the
 * main thread, since it goes over every row. FALSE when cancelled */
gboolean         ps_timeline_model_count_overview (PsTimelineModel *self,
                                                   GCancellable    *cancellable);
/* The row at y (from the top of the rows area), or -1 */
int              ps_timeline_model_row_at  (PsTimelineModel        *self,
                                            double                  y);
/* The changes of the level of a CE chart (a marker instance's durations,
 * an application's CPU or memory) along the sequence of measurements
 * (ps_counter_changes_find_in_points ()), found the first time they are
 * asked for, when the row is first drawn, and kept; empty for other rows */
GArray          *ps_timeline_row_get_changes (PsTimelineRow      *row);
/* The depth of a span row at y, or -1 for its mark strip or outside */
int              ps_timeline_row_depth_at  (const PsTimelineRow    *row,
                                            double                  y);
double           ps_timeline_row_depth_y   (const PsTimelineRow    *row,
                                            guint                   depth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsTimelineModel, ps_timeline_model_free)

/* Geometry, in pixels */
#define PS_TIMELINE_OVERVIEW_HEIGHT 40.0
#define PS_TIMELINE_AXIS_HEIGHT     26.0
#define PS_TIMELINE_HEADER_HEIGHT   (PS_TIMELINE_OVERVIEW_HEIGHT + PS_TIMELINE_AXIS_HEIGHT)
/* The label column left of the rows is as wide as its labels, at least
 * PS_TIMELINE_LABEL_WIDTH and at most PS_TIMELINE_LABEL_MAX_SHARE of the
 * view's width (ps_timeline_model_label_width ()) */
#define PS_TIMELINE_LABEL_WIDTH     160.0
#define PS_TIMELINE_LABEL_MAX_SHARE 0.3
#define PS_TIMELINE_SPAN_HEIGHT     18.0
#define PS_TIMELINE_MARK_HEIGHT     10.0
#define PS_TIMELINE_GROUP_HEIGHT    24.0
#define PS_TIMELINE_VALUES_HEIGHT   60.0
#define PS_TIMELINE_ROW_GAP         6.0
#define PS_TIMELINE_LANE_HEIGHT     14.0
#define PS_TIMELINE_LANE_GAP        4.0
/* The strip at the bottom with the line about the cursor's span: the rows
 * end above it, and scroll that much further */
#define PS_TIMELINE_STATUS_HEIGHT   24.0

typedef struct
{
  int           width;
  int           height;
  double        label_width;    /* of the label column; 0 for
                                 * PS_TIMELINE_LABEL_WIDTH */
  double        scroll_y;       /* of the rows area */
  gint64        begin;          /* the visible x range */
  gint64        end;
  gboolean      has_selection;
  gint64        selection_begin;
  gint64        selection_end;
  PsSpanLod    *highlight;      /* spans drawn highlighted, or NULL */
  guint64       cursor_span;    /* outlined, or PS_SPAN_LOD_NO_SPAN */
  int           cursor_row;     /* the keyboard's row, or -1 */
  const char   *status;         /* a line about the cursor's span, shown at
                                 * the bottom, or NULL */
  /* What the user chose in another view (PsSession): the rows of these
   * tracks are marked; a track's highlighted points (CE measurements,
   * samples of a function) come from points_of_track (NULL: none) */
  const guint32 *focus_tracks;
  guint         n_focus_tracks;
  PsValueLod *(*points_of_track) (gpointer data,
                                  guint32  track);
  gpointer      points_data;
  gboolean      has_highlight_points;  /* the other samples' lanes fade */
  /* A chosen message (mark) of a thread: marked over its strip */
  gboolean      has_chosen_mark;
  guint32       chosen_mark_track;
  gint64        chosen_mark_time;
  /* A chosen point of a chart (a CE measurement): ringed */
  gboolean      has_chosen_point;
  guint32       chosen_point_track;
  gint64        chosen_point_x;
  /* value_key → PsTimelineValueRange: charts span these values at least,
   * so that the same chart of two runs compared has one scale; NULL: each
   * its own values */
  GHashTable   *shared_ranges;
  gboolean      focused;
  PangoContext *pango;
  GdkRGBA       foreground;
  GdkRGBA       background;
  GdkRGBA       accent;
  gboolean      dark;
} PsTimelineFrame;

/* The stored values a chart's height spans at least */
typedef struct
{
  double min;
  double max;
} PsTimelineValueRange;

/* Statistics of one frame, for tests and benchmarks */
typedef struct
{
  guint64 n_items;    /* span items drawn */
  guint64 n_merged;   /* of them merged */
  guint64 n_spans;    /* spans they stand for */
  guint64 n_labels;
  guint64 n_marks;
  guint64 n_points;   /* value items */
} PsTimelineStats;

void    ps_timeline_render          (PsTimelineModel       *model,
                                     const PsTimelineFrame *frame,
                                     cairo_t               *cr,
                                     PsTimelineStats       *stats);

/* The longer description of a row, or NULL */
char    *ps_timeline_row_tooltip     (const PsTimelineRow *row);
/* The stored values from the bottom to the top of a values row: from zero
 * (or its lowest value, below zero) to its highest value, widened to the
 * row's range in shared_ranges (may be NULL; see PsTimelineFrame); FALSE
 * for other rows and charts without a value */
gboolean ps_timeline_row_value_range (const PsTimelineRow *row,
                                      GHashTable          *shared_ranges,
                                      double              *v_min,
                                      double              *v_max);

/* The width of the label column of a view width pixels wide: that of its
 * widest label (row labels and the header's), within the bounds above */
double  ps_timeline_model_label_width (PsTimelineModel     *self,
                                       PangoContext        *pango,
                                       int                  width);
/* Finds which rows share a label, once for its rows: where the model is
 * made, off the main thread, rather than at its first frame */
void        ps_timeline_model_index_labels (PsTimelineModel *self);
/* The text drawn as the label of row (an index of rows) in a label column
 * label_width wide: the whole label, or, where it does not fit, the label
 * cut where it tells the row apart from the other rows
 * (ps_view_ellipsize_mode_among ()), with "…" for what was left out;
 * NULL for a group. It lasts until the labels are cut for another width. */
const char *ps_timeline_model_row_label (PsTimelineModel     *self,
                                         PangoContext        *pango,
                                         double               label_width,
                                         guint                row);

/* x ↔ pixels in the plot (right of the labels) */
double  ps_timeline_frame_x_of      (const PsTimelineFrame *frame,
                                     double                 x_value);
double  ps_timeline_frame_value_at  (const PsTimelineFrame *frame,
                                     double                 x_pixel);
double  ps_timeline_frame_plot_width (const PsTimelineFrame *frame);

/* Sample lanes. The samples of a lane's row at a time, ± slop: how many,
 * and the one nearest to the time (an index of the store's samples);
 * FALSE when none */
gboolean ps_timeline_lane_find     (const PsTimelineRow   *row,
                                    PsEventStore          *store,
                                    gint64                 time,
                                    gint64                 slop,
                                    guint64               *nearest,
                                    guint64               *n_samples);
/* What a tooltip on a lane at a time says: the sample's leaf frame, its
 * module, when it was taken, its event and mode; NULL when no sample is
 * there */
char    *ps_timeline_describe_samples (const PsTimelineModel *model,
                                    const PsTimelineRow   *row,
                                    gint64                 time,
                                    gint64                 slop);
/* The colour of a sample in its lane: that of the module of its leaf frame */
void     ps_timeline_sample_color  (PsEventStore          *store,
                                    guint64                sample,
                                    gboolean               dark,
                                    GdkRGBA               *color);

/* The colour of a span's name (string id) */
void    ps_timeline_span_color      (guint32                name,
                                     gboolean               dark,
                                     GdkRGBA               *color);

/* "12.34561 s" for a time, "#1204" on a sequence axis: digits as the step
 * needs */
char   *ps_timeline_format_x        (const PsTimelineModel *model,
                                     double                 value,
                                     double                 step);
char   *ps_timeline_format_position (gboolean               sequence_axis,
                                     double                 value,
                                     double                 step);
/* The wall-clock time of x, "14:03:22.125", or NULL without an origin */
char   *ps_timeline_format_wall     (const PsTimelineModel *model,
                                     gint64                 value);

G_END_DECLS
