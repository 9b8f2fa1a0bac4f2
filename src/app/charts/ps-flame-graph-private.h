/* ps-flame-graph-private.h — for the tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-flame-graph.h"

G_BEGIN_DECLS

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
