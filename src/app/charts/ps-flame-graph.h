/* ps-flame-graph.h — an icicle graph of a call tree's top-down tree
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the four values, the call tree) and §4
 * (percentages). The root is at the top; a frame is as wide as its value of
 * the chosen kind (an exclusive kind: the node's own value and that of all
 * its descendants, so that children fit inside their parent). Clicking a
 * frame zooms into it; a breadcrumb bar leads back. Transforms that a good
 * profiler offers (focus on a function, merge a function into its callers,
 * collapse direct recursion) derive a simplified tree inside the widget and
 * can be undone one at a time.
 *
 * With a baseline (a PsCallTreeDiff whose B is the tree shown), the graph
 * is differential: B's frames keep their widths and each is coloured by
 * the change of its share of the run, in percentage points, from A to B:
 * red where B spends more, blue where it spends less, grey within the
 * threshold. A legend above the frames gives the scale.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-call-tree.h"
#include "ps-call-tree-diff.h"

G_BEGIN_DECLS

typedef enum
{
  PS_FLAME_GRAPH_COLOR_BY_MODULE,      /* a stable warm colour per module */
  PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE,  /* pale: little own time, red: all own time */
} PsFlameGraphColorBy;

#define PS_TYPE_FLAME_GRAPH_COLOR_BY (ps_flame_graph_color_by_get_type ())
GType ps_flame_graph_color_by_get_type (void) G_GNUC_CONST;

/* What a differential graph colours by: the change of a frame's own
 * (exclusive) share or of its total (inclusive) share */
typedef enum
{
  PS_FLAME_GRAPH_DIFF_BY_SELF,
  PS_FLAME_GRAPH_DIFF_BY_TOTAL,
} PsFlameGraphDiffBy;

#define PS_TYPE_FLAME_GRAPH_DIFF_BY (ps_flame_graph_diff_by_get_type ())
GType ps_flame_graph_diff_by_get_type (void) G_GNUC_CONST;

typedef enum
{
  PS_FLAME_TRANSFORM_FOCUS,               /* all calls of a function merged as the roots */
  PS_FLAME_TRANSFORM_MERGE,               /* a function removed, its callees go to its caller */
  PS_FLAME_TRANSFORM_COLLAPSE_RECURSION,  /* a function calling itself directly is folded */
} PsFlameTransform;

#define PS_TYPE_FLAME_GRAPH (ps_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (PsFlameGraph, ps_flame_graph, PS, FLAME_GRAPH, GtkWidget)

GtkWidget          *ps_flame_graph_new                (void);
PsCallTree         *ps_flame_graph_get_tree           (PsFlameGraph        *self);
/* A new tree drops the zoom and the transforms */
void                ps_flame_graph_set_tree           (PsFlameGraph        *self,
                                                       PsCallTree          *tree);
PsCallValue         ps_flame_graph_get_value          (PsFlameGraph        *self);
void                ps_flame_graph_set_value          (PsFlameGraph        *self,
                                                       PsCallValue          value);
PsFlameGraphColorBy ps_flame_graph_get_color_by       (PsFlameGraph        *self);
void                ps_flame_graph_set_color_by       (PsFlameGraph        *self,
                                                       PsFlameGraphColorBy  color_by);
/* Frames whose function name does not contain text (case-insensitively)
 * are dimmed; NULL or "" dims none */
void                ps_flame_graph_set_basis          (PsFlameGraph        *self,
                                                       PsCallBasis          basis);
void                ps_flame_graph_set_search         (PsFlameGraph        *self,
                                                       const char          *text);

/* The differential mode. A baseline shows its B tree (set as the tree if
 * it is another one; transforms are kept when it is the same) coloured
 * against A; NULL goes back to the normal colours. Setting another tree
 * drops a baseline whose B it is not. The clock (elapsed or application)
 * follows the value shown. */
void                ps_flame_graph_set_baseline       (PsFlameGraph        *self,
                                                       PsCallTreeDiff      *diff);
PsCallTreeDiff     *ps_flame_graph_get_baseline       (PsFlameGraph        *self);
/* The same with A's tree, against the tree shown now (which must be set) */
void                ps_flame_graph_set_baseline_tree  (PsFlameGraph        *self,
                                                       PsCallTree          *baseline);
PsFlameGraphDiffBy  ps_flame_graph_get_diff_by        (PsFlameGraph        *self);
void                ps_flame_graph_set_diff_by        (PsFlameGraph        *self,
                                                       PsFlameGraphDiffBy   diff_by);
/* Changes smaller than this, in percentage points, are grey (default 1) */
double              ps_flame_graph_get_diff_threshold (PsFlameGraph        *self);
void                ps_flame_graph_set_diff_threshold (PsFlameGraph        *self,
                                                       double               threshold);

/* Transforms, applied in order on the top-down tree; a transform resets
 * the zoom. Functions are those of the tree. */
void                ps_flame_graph_add_transform      (PsFlameGraph        *self,
                                                       PsFlameTransform     transform,
                                                       guint32              function);
guint               ps_flame_graph_get_n_transforms   (PsFlameGraph        *self);
void                ps_flame_graph_undo_transform     (PsFlameGraph        *self);
void                ps_flame_graph_reset_transforms   (PsFlameGraph        *self);

/* Zoom: out one level (to the parent of the frame zoomed into), or back
 * to the whole tree */
void                ps_flame_graph_zoom_out           (PsFlameGraph        *self);
void                ps_flame_graph_zoom_reset         (PsFlameGraph        *self);

/* Outlines every frame of a function of the tree (the one chosen in the
 * call tree's tables); PS_NONE for none */
void                ps_flame_graph_set_marked_function (PsFlameGraph   *self,
                                                        guint32         function);
guint32             ps_flame_graph_get_marked_function (PsFlameGraph   *self);

/* Draws the graph as it is shown (zoom, transforms, search, colours, the
 * differential legend) with the breadcrumb path above the frames into a
 * width × height area at cr's origin, for a picture */
void                ps_flame_graph_draw_picture       (PsFlameGraph        *self,
                                                       cairo_t             *cr,
                                                       int                  width,
                                                       int                  height);

G_END_DECLS
