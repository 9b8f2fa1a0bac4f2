/* ps-flame-graph-private.h — what the flame graph's widget, its node
 * arrays (ps-flame-graph-tree.c) and its drawing (ps-flame-graph-draw.c)
 * share, and what the tests look into
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "ps-flame-graph.h"
#include "ps-picture-source.h"

G_BEGIN_DECLS

#define FRAME_HEIGHT     20    /* px per row, gap included */
#define NO_NODE          G_MAXUINT32
#define LEGEND_HEIGHT    40    /* px above the frames in a differential graph */

/* A node of the graph's own tree. A big tree has millions: the values
 * of a differential graph's baseline are apart (FlameBaseline), in the
 * same array only when there is a baseline, and the widths of inclusive
 * kinds are their totals, not kept twice (node_width ()). */
typedef struct
{
  guint32 function;       /* PS_NONE for the root */
  guint32 parent;         /* NO_NODE for the root */
  guint32 first_child;
  guint32 last_child;
  guint32 next_sibling;
  guint32 prev_sibling;
  guint32 depth;          /* root 0 */
  gboolean in_baseline;   /* a differential graph: A has the node */
  guint64 calls;
  /* Inclusive kinds: the node's inclusive values; exclusive kinds: its own */
  double  total[PS_N_CALL_VALUES];
  /* As drawn, the exclusive kinds (elapsed, application): summed over the
   * node and all its descendants */
  double  exclusive_width[2];
} FlameNode;

/* A differential graph's node: follows its FlameNode in the array */
typedef struct
{
  /* A's values of the node, like total, 0 when A does not have it */
  double  baseline[PS_N_CALL_VALUES];
  /* The callees of A's node that B does not have: their total share of
   * A, elapsed and application */
  double  only_in_a_share[2];
} FlameBaseline;

typedef struct
{
  PsFlameTransform kind;
  guint32          function;
} Transform;

typedef struct
{
  guint32 node;
  guint32 depth;
  double  x;
  double  width;
} FlameFrame;

struct _PsFlameGraph
{
  GtkWidget            parent_instance;

  PsCallTree          *tree;
  PsCallValue          value;
  PsCallBasis          basis;         /* of the tooltips' percentages */
  PsFlameGraphColorBy  color_by;

  PsCallTreeDiff      *diff;          /* the baseline, or NULL */
  PsFlameGraphDiffBy   diff_by;
  double               diff_threshold;  /* pp */
  double               diff_scale;    /* pp at the ends of the legend, 0: to do */

  GArray              *base;          /* FlameNode: the tree's top-down tree */
  GCancellable        *base_cancellable; /* while a worker copies the tree */
  gboolean             base_deferred; /* a big tree not copied until the
                                       * graph is first shown */
  guint32              sync_base_nodes; /* bigger trees are copied in a worker */
  GArray              *nodes;         /* FlameNode: base after the transforms */
  char                *summary;       /* for a screen reader, of nodes and value; NULL to make */
  GArray              *transforms;    /* Transform, in the order applied */
  guint32              zoom_node;     /* in nodes */
  guint32              focus_node;    /* the keyboard's frame, in nodes */
  guint                n_rows;        /* drawn rows at the current zoom */

  char                *search_text;   /* casefolded, or NULL */
  guint8              *matches;       /* per function, with a search */
  guint32              marked_function; /* chosen in another view, or PS_NONE */
  gboolean             drawing_picture;

  /* Layout of the last width */
  GArray              *frames;        /* FlameFrame */
  int                  layout_width;  /* -1: to do */

  GtkWidget           *crumbs;        /* breadcrumb bar */
  GtkWidget           *crumb_buttons; /* the part rebuilt on zoom */
  GtkWidget           *transform_label;
  GtkWidget           *undo_button;
  GtkWidget           *reset_button;
  GtkWidget           *value_dropdown;
  GtkWidget           *color_dropdown;
  GtkWidget           *diff_dropdown;
  GtkWidget           *menu;          /* the frames' context menu, or NULL */
  int                  crumbs_height;
};

/* The frames start below the legend of a differential graph */
static inline int
frames_top (PsFlameGraph *self)
{
  return self->diff != NULL ? LEGEND_HEIGHT : 0;
}

/* A node array's elements are a FlameNode, and its FlameBaseline in a
 * differential graph (ps_flame_graph_nodes_new ()) */
static inline FlameNode *
node_at (GArray  *nodes,
         guint32  index)
{
  return (FlameNode *)(gpointer)(nodes->data + (gsize)index * g_array_get_element_size (nodes));
}

/* The node's baseline values, or NULL when the array has none */
static inline FlameBaseline *
baseline_at (GArray  *nodes,
             guint32  index)
{
  if (g_array_get_element_size (nodes) < sizeof (FlameNode) + sizeof (FlameBaseline))
    return NULL;
  return (FlameBaseline *)(gpointer)((guint8 *)node_at (nodes, index) + sizeof (FlameNode));
}

static inline gboolean
is_exclusive (PsCallValue value)
{
  return value == PS_CALL_VALUE_ELAPSED_EXCLUSIVE || value == PS_CALL_VALUE_APPLICATION_EXCLUSIVE;
}

/* A node's width as drawn for a kind of value: an inclusive value as
 * its total (none when a report lacks it, NAN), an exclusive one summed
 * over its subtree */
static inline double
node_width (const FlameNode *node,
            PsCallValue      value)
{
  if (is_exclusive (value))
    return node->exclusive_width[value == PS_CALL_VALUE_APPLICATION_EXCLUSIVE];
  return isfinite (node->total[value]) ? MAX (node->total[value], 0) : 0;
}

/* The node arrays (ps-flame-graph-tree.c) */

/* An empty node array, with room for the baseline's values or not */
GArray      *ps_flame_graph_nodes_new           (gboolean         with_baseline,
                                                 guint            reserve);

/* The tree's top-down tree; with a diff (whose B is tree), A's values too */
GArray      *ps_flame_graph_build_base          (PsCallTree      *tree,
                                                 PsCallTreeDiff  *diff);
/* The nodes of in after one transform, in a new array */
GArray      *ps_flame_graph_apply_transform     (GArray          *in,
                                                 const Transform *transform);
gboolean     ps_flame_graph_is_below            (GArray          *nodes,
                                                 guint32          node,
                                                 guint32          ancestor);

/* The frames' text, colours and layout (ps-flame-graph-draw.c) */

/* Free with g_free () */
char        *ps_flame_graph_node_name           (PsFlameGraph    *self,
                                                 guint32          node);
char        *ps_flame_graph_format_value        (PsFlameGraph    *self,
                                                 double           value);
const char  *ps_flame_graph_value_title         (PsCallValue      value);
char        *ps_flame_graph_node_tooltip_markup (PsFlameGraph    *self,
                                                 guint32          node);
/* The depth drawn at the current zoom */
void         ps_flame_graph_count_rows          (PsFlameGraph    *self);
void         ps_flame_graph_invalidate_layout   (PsFlameGraph    *self);
void         ps_flame_graph_invalidate_diff_scale (PsFlameGraph  *self);
/* The frame at a point of _ps_flame_graph_draw ()'s area, or NULL */
const FlameFrame *ps_flame_graph_frame_at      (PsFlameGraph    *self,
                                                 int              width,
                                                 double           x,
                                                 double           y);
/* The frame of a node, or NULL when it is not drawn */
const FlameFrame *ps_flame_graph_frame_of_node (PsFlameGraph    *self,
                                                 int              width,
                                                 guint32          node);
void         ps_flame_graph_snapshot            (GtkWidget       *widget,
                                                 GtkSnapshot     *snapshot);
void         ps_flame_graph_picture_source_init (PsPictureSourceInterface *iface);

/* The widget (ps-flame-graph.c) */

/* A frame clicked or entered: focused, zoomed into, announced */
void         ps_flame_graph_activate_node       (PsFlameGraph    *self,
                                                 guint32          node);

/* For the tests */

/* Whether a worker copies the tree: nothing is drawn yet */
gboolean  _ps_flame_graph_is_laying_out    (PsFlameGraph  *self);
/* Trees of more nodes than n_nodes are copied in a worker */
void      _ps_flame_graph_set_sync_limit   (PsFlameGraph  *self,
                                            guint32        n_nodes);
/* Draws the frames (not the breadcrumb bar) as snapshot does, into a
 * width × height area at the origin */
void      _ps_flame_graph_draw             (PsFlameGraph  *self,
                                            cairo_t       *cr,
                                            int            width,
                                            int            height);
/* The frame of the node at the end of a path of function names from the
 * root ("::main", "::A"), in the coordinates of _ps_flame_graph_draw () at
 * that width; FALSE when there is no such node or it is not drawn */
gboolean  _ps_flame_graph_get_frame        (PsFlameGraph  *self,
                                            int            width,
                                            const char   **path,
                                            double        *x,
                                            double        *y,
                                            double        *frame_width,
                                            double        *frame_height);
/* The tooltip markup of the node at the end of a path, or NULL; g_free () */
char     *_ps_flame_graph_get_tooltip      (PsFlameGraph  *self,
                                            const char   **path);
/* The fill colour of frames of that function, without search dimming */
void      _ps_flame_graph_get_function_color (PsFlameGraph *self,
                                            guint32        function,
                                            GdkRGBA       *color);
/* A click at a point of _ps_flame_graph_draw ()'s area, as the pointer's */
void      _ps_flame_graph_click            (PsFlameGraph  *self,
                                            int            width,
                                            double         x,
                                            double         y);
/* The frame the keyboard is on, as a path of function names ("" for the
 * root, NULL for none); free with g_free () */
char     *_ps_flame_graph_get_focus_path   (PsFlameGraph  *self);
/* The node zoomed into, as a path of function names ("" for the root);
 * free with g_free () */
char     *_ps_flame_graph_get_zoom_path    (PsFlameGraph  *self);
/* The derived tree: a node's value of a kind (as its width: exclusive
 * kinds summed over the subtree) by path; NAN when there is no such node */
double    _ps_flame_graph_get_node_value   (PsFlameGraph  *self,
                                            const char   **path,
                                            PsCallValue    value);
/* The sum of the root's children's values of a kind */
double    _ps_flame_graph_get_top_sum      (PsFlameGraph  *self,
                                            PsCallValue    value);
/* Where _ps_flame_graph_draw ()'s area starts in the widget (below the
 * breadcrumb bar) */
int       _ps_flame_graph_get_draw_top     (PsFlameGraph  *self);
/* The legend's colour bar of a differential graph in the coordinates of
 * _ps_flame_graph_draw () at that width, and the change at its ends (±,
 * in pp); FALSE without a baseline */
gboolean  _ps_flame_graph_get_legend_bar   (PsFlameGraph  *self,
                                            int            width,
                                            double        *x,
                                            double        *y,
                                            double        *bar_width,
                                            double        *bar_height,
                                            double        *scale);
guint     _ps_flame_graph_get_n_children   (PsFlameGraph  *self,
                                            const char   **path);

G_END_DECLS
