/* ps-timeline-render-private.h — what the timeline's rows
 * (ps-timeline-render-model.c), its sample lanes
 * (ps-timeline-render-samples.c) and its drawing (ps-timeline-render.c)
 * share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-timeline-render.h"

G_BEGIN_DECLS

#define N_SPAN_COLORS 10
/* Spans narrower than a pixel, merged, have a colour of their own: one
 * name's colour would say more than is known */
#define DENSE_COLOR   N_SPAN_COLORS
#define N_FILL_COLORS (N_SPAN_COLORS + 1)

/* Where a row's label starts and how much room it leaves after it, and
 * the same for the axis' and the overview's names above the rows */
#define ROW_LABEL_START    14.0
#define ROW_LABEL_END      6.0
#define HEADER_LABEL_START 6.0
#define HEADER_LABEL_END   4.0

typedef struct
{
  GArray *rects[N_FILL_COLORS];   /* x, y, width, height of each colour */
} RectBatch;

typedef struct
{
  PsTimelineModel       *model;
  const PsTimelineFrame *frame;
  cairo_t               *cr;
  PsTimelineStats       *stats;
  GArray                *items;        /* PsSpanLodItem */
  GArray                *mark_items;   /* PsMarkLodItem */
  GArray                *value_items;  /* PsValueLodItem */
  PangoLayout           *layout;
  RectBatch              batch;
  double                 plot_left;
  double                 plot_right;
  double                 rows_top;   /* the rows' y = 0 on the surface */
  guint                  first_row;  /* none before it reaches below the header */
  double                 ns_per_pixel;
  double                 text_height;
} Render;

/* The rows (ps-timeline-render-model.c) */
PsTimelineRow *ps_timeline_model_add_row       (PsTimelineModel   *self,
                                                PsTimelineRowKind  kind,
                                                guint32            track,
                                                guint              group,
                                                char              *label);
void           ps_timeline_model_set_value_key (PsTimelineModel   *self,
                                                PsTimelineRow     *row);
void           ps_timeline_model_widen_extent  (PsTimelineModel   *self,
                                                gint64             begin,
                                                gint64             end);
/* A model without rows, to which ps_timeline_model_finish () gives its
 * extent and layout once its rows are added */
PsTimelineModel *ps_timeline_model_alloc       (PsEventStore      *store,
                                                PsSpanLod         *lod,
                                                gboolean           sequence_axis,
                                                guint32            sample_source);
void           ps_timeline_model_finish        (PsTimelineModel   *self);

/* Rows of value series added a part at a time: a CE log's hundreds of
 * thousands of charts are handed over a few thousand at a time, so that
 * their descriptions are never all held at once. What the next part
 * needs of the rows before it: */
typedef struct
{
  guint          group;           /* the last group row, or G_MAXUINT */
  guint32        group_category;
  guint32        group_session;
  char          *last_label;      /* the last series' label and row */
  PsTimelineRow *last_row;
  GHashTable    *texts;           /* the rows' texts and chart keys, each */
  GHashTable    *keys;            /* owned by the first row that has it */
} PsTimelineSeriesRows;

void           ps_timeline_series_rows_init    (PsTimelineSeriesRows   *rows);
void           ps_timeline_series_rows_clear   (PsTimelineSeriesRows   *rows);
/* Takes the points of each series (the measurements' charts of a CE run) */
void           ps_timeline_model_add_series_rows (PsTimelineModel        *self,
                                                  PsTimelineSeriesRows   *rows,
                                                  const PsTimelineSeries *series,
                                                  guint                   n_series);
char          *ps_timeline_track_label         (PsEventStore      *store,
                                                const PsTrack     *track);
const char    *ps_timeline_model_axis_name     (const PsTimelineModel *model);
const char    *ps_timeline_overview_name       (void);

/* A sampled run's rows (ps-timeline-render-samples.c) */
void           ps_timeline_sample_lane_free    (PsSampleLane      *lane);
gboolean       ps_timeline_model_add_all_sample_rows (PsTimelineModel *self,
                                                      GCancellable    *cancellable);
void           ps_timeline_draw_lane_points    (Render            *render);
void           ps_timeline_draw_sample_lanes   (Render            *render);

/* The whole-run strip (ps-timeline-render-overview.c): how busy each of
 * columns columns of the run's extent is, kept in the model for the next
 * frame of the same width; items and value_items are scratch arrays */
const double  *ps_timeline_model_overview_busy (PsTimelineModel  *model,
                                                guint             columns,
                                                GArray           *items,
                                                GArray           *value_items);

/* The drawing (ps-timeline-render.c) */
/* The fill colours of spans in the light or the dark style, the last one
 * (DENSE_COLOR) that of merged spans */
const GdkRGBA *ps_timeline_fill_colors         (gboolean           dark);
void           ps_timeline_set_color           (cairo_t           *cr,
                                                const GdkRGBA     *color,
                                                double             alpha);

G_END_DECLS
