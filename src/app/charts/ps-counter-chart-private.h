/* ps-counter-chart-private.h — what the counter chart's drawing, its
 * read-out and its change marks share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-chart-util.h"
#include "ps-counter-chart.h"

G_BEGIN_DECLS

#define GAP 6.0

typedef struct
{
  char                    *label;
  PsValueLod              *values;
  PsCounterChartDetailFunc detail_func;
  gpointer                 detail_data;
  GDestroyNotify           detail_destroy;
  GArray                  *changes;  /* PsCounterChange, NULL for none */
  gboolean                 aggregate; /* the others' total: a line over
                                       * the stack, not in it */
} Series;

struct _PsCounterChart
{
  GtkWidget  parent_instance;

  GPtrArray *series;        /* Series */
  char      *title;
  char      *empty_text;    /* shown without readings; NULL: "No readings" */
  char      *unit;
  double     scale;
  gboolean   sequence_axis;
  gboolean   stacked;
  gint64     x_begin;
  gint64     x_end;         /* x_begin >= x_end: all of the data */
  double     hover_x;       /* widget x of the pointer or the keyboard's
                             * read-out, or -1 */
  guint      emphasized;    /* the series chosen in another view, or G_MAXUINT */
  gboolean   has_selection; /* a range selected on the timeline */
  gint64     selection_begin;
  gint64     selection_end;
  GtkWidget *picture_menu;  /* the context menu, once shown */
  GtkWidget *zoom_button;   /* zooms the value axis to the data */
  gboolean   drawing_picture;  /* no button on a picture */
  /* The value range shared with the same chart of another run compared */
  PsChartSharedRange shared_range;
};

typedef struct
{
  guint  series;
  double x;      /* of the swatch's left edge */
  double y;      /* of the line's middle */
} LegendEntry;

typedef struct
{
  graphene_rect_t plot;
  graphene_rect_t title_area;
  graphene_rect_t legend_area;  /* empty when there is no series */
  GArray         *legend;       /* LegendEntry, of the series shown */
  guint           n_more;       /* series left out of the legend */
  double          more_x;       /* where "+N more" starts */
  double          more_y;
  double          changes_y;    /* the middle of the change marks' labels,
                                 * above the plot; 0 without a change */
  gint64          x_begin;
  gint64          x_end;
  double          y_low;     /* shown units */
  double          y_high;
  double          y_step;
  int             text_height;
  gboolean        zoomed;    /* the value axis does not start at 0 */
} Layout;

void     ps_counter_chart_layout_clear     (Layout         *layout);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Layout, ps_counter_chart_layout_clear)

/* The widget's layout; FALSE without readings */
gboolean ps_counter_chart_compute_layout   (PsCounterChart *self,
                                            Layout         *layout);
/* The widget x of an x of the data, and back */
static inline double
x_of (const Layout *layout,
      double        x)
{
  return layout->plot.origin.x
         + (x - (double)layout->x_begin) / (double)(layout->x_end - layout->x_begin) * layout->plot.size.width;
}

static inline gint64
x_at (const Layout *layout,
      double        pixel)
{
  return layout->x_begin
         + (gint64)((pixel - layout->plot.origin.x) / layout->plot.size.width * (double)(layout->x_end - layout->x_begin));
}

gboolean ps_counter_chart_is_stacked       (PsCounterChart *self);
double   ps_counter_chart_stacked_value_at (Series         *series,
                                            gint64          x);
/* The sum of the series in the stack at x (the aggregates left out) */
double   ps_counter_chart_stack_sum_at     (PsCounterChart *self,
                                            gint64          x);
/* An aggregate series of a stacked chart, drawn as a line over the stack */
gboolean ps_counter_chart_is_line_over_stack (PsCounterChart *self,
                                              Series         *series);
/* The series' name in the legend: stacked, an aggregate's says it is a
 * line over the stack, not in it */
char    *ps_counter_chart_dup_legend_label (PsCounterChart *self,
                                            Series         *series);
char    *ps_counter_chart_more_text        (guint           n_more);

/* The read-out (ps-counter-chart-readout.c) */
gboolean ps_counter_chart_query_tooltip    (GtkWidget      *widget,
                                            int             x,
                                            int             y,
                                            gboolean        keyboard,
                                            GtkTooltip     *tooltip);
void     ps_counter_chart_motion_cb        (PsCounterChart *self,
                                            double          x,
                                            double          y);
void     ps_counter_chart_leave_cb         (PsCounterChart *self);
void     ps_counter_chart_move_action      (GtkWidget      *widget,
                                            const char     *action_name,
                                            GVariant       *parameter);
void     ps_counter_chart_hide_readout_action (GtkWidget   *widget,
                                               const char  *action_name,
                                               GVariant    *parameter);
/* The accessible name and description: the title, the series with their
 * ranges and their changes */
void     ps_counter_chart_update_accessible (PsCounterChart *self);

/* The change marks (ps-counter-chart-changes.c) */
gboolean ps_counter_chart_has_changes      (PsCounterChart *self);
/* The marks over the plot and their labels above it */
void     ps_counter_chart_draw_changes     (PsCounterChart *self,
                                            cairo_t        *cr,
                                            const Layout   *layout);
/* "% Processor Time changed by +38.0 % at 2:03.0 (p < 0.001). " for each
 * change, for the accessible description */
void     ps_counter_chart_append_changes   (PsCounterChart *self,
                                            GString        *text);

G_END_DECLS
