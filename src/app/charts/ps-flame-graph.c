/* ps-flame-graph.c — an icicle graph of a call tree's top-down tree
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the four values, the call tree) and §4
 * (percentages of the tooltips).
 *
 * The widget keeps its own compact copy of the top-down tree (one small
 * struct per node, children as linked lists), so that transforms can derive
 * a simplified tree from it: each transform reads a node array and writes a
 * new one, parents always before their children, so every pass is a plain
 * loop over indexes and nothing recurses. The frames of the zoomed subtree
 * are laid out again only when the width, the zoom or the tree changes, and
 * frames narrower than a pixel are left out with their whole subtree, so a
 * layout has at most width × depth frames whatever the size of the tree.
 *
 * A differential graph (a baseline) carries A's values in each node next to
 * B's, taken from the diff when the base is built; transforms merge them
 * like B's, so a focused or merged graph still compares like with like
 * (A's nodes that B lacks are not in the base: a focus leaves them out).
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ps-flame-graph-private.h"
#include "ps-accessible-util.h"
#include "ps-chart-util.h"
#include "ps-picture-export.h"
#include "ps-picture-source.h"
#include "ps-selection-util.h"
#include "ps-util.h"
#include "ps-view-util.h"

#define FRAME_HEIGHT     20    /* px per row, gap included */
#define MIN_FRAME_WIDTH  1.0   /* narrower frames are not drawn */
#define MIN_LABEL_WIDTH  40.0  /* narrower frames have no label: "::…" tells nothing */
#define MAX_CRUMBS       6     /* the root, "…" and the last ones */
#define NO_NODE          G_MAXUINT32
#define LEGEND_HEIGHT    40    /* px above the frames in a differential graph */
#define LEGEND_BAR_WIDTH 240.0
/* A tree of more nodes is copied in a worker: a big run's copy would hold
 * the window still for seconds */
#define SYNC_BASE_NODES  50000

typedef struct
{
  guint32 function;       /* PS_NONE for the root */
  guint32 parent;         /* NO_NODE for the root */
  guint32 first_child;
  guint32 last_child;
  guint32 next_sibling;
  guint32 prev_sibling;
  guint32 depth;          /* root 0 */
  guint64 calls;
  /* Inclusive kinds: the node's inclusive values; exclusive kinds: its own */
  double  total[PS_N_CALL_VALUES];
  /* As drawn: inclusive kinds as total, exclusive kinds summed over the
   * node and all its descendants */
  double  width[PS_N_CALL_VALUES];
  /* A differential graph: A's values of the node, like total, 0 when A
   * does not have it */
  double  baseline[PS_N_CALL_VALUES];
  /* The callees of A's node that B does not have: their total share of
   * A, elapsed and application */
  double  only_in_a_share[2];
  gboolean in_baseline;
} FlameNode;

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
} Frame;

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
  GArray              *frames;        /* Frame */
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

enum {
  PROP_0,
  PROP_TREE,
  PROP_VALUE,
  PROP_COLOR_BY,
  PROP_BASELINE,
  PROP_DIFF_BY,
  PROP_DIFF_THRESHOLD,
  N_PROPS
};

enum {
  FRAME_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ENUM_TYPE (PsFlameGraphColorBy, ps_flame_graph_color_by,
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_COLOR_BY_MODULE, "module"),
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE, "self-share"))

G_DEFINE_ENUM_TYPE (PsFlameGraphDiffBy, ps_flame_graph_diff_by,
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_DIFF_BY_SELF, "self"),
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_DIFF_BY_TOTAL, "total"))

static void ps_flame_graph_picture_source_init (PsPictureSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsFlameGraph, ps_flame_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_flame_graph_picture_source_init))

static PsCallDiffClock diff_clock  (PsFlameGraph       *self);
static void            node_shares (PsFlameGraph       *self,
                                    guint32             node,
                                    PsFlameGraphDiffBy  diff_by,
                                    double             *a_share,
                                    double             *b_share);

/* The frames start below the legend of a differential graph */
static inline int
frames_top (PsFlameGraph *self)
{
  return self->diff != NULL ? LEGEND_HEIGHT : 0;
}

/* --- Node arrays ---------------------------------------------------------- */

static inline FlameNode *
node_at (GArray  *nodes,
         guint32  index)
{
  return &g_array_index (nodes, FlameNode, index);
}

static guint32
append_node (GArray  *nodes,
             guint32  parent,
             guint32  function)
{
  FlameNode node = { 0 };
  guint32 index = nodes->len;

  node.function = function;
  node.parent = parent;
  node.first_child = node.last_child = node.next_sibling = node.prev_sibling = NO_NODE;
  node.depth = parent != NO_NODE ? node_at (nodes, parent)->depth + 1 : 0;
  g_array_append_val (nodes, node);

  if (parent != NO_NODE)
    {
      FlameNode *parent_node = node_at (nodes, parent);

      if (parent_node->last_child != NO_NODE)
        {
          node_at (nodes, parent_node->last_child)->next_sibling = index;
          node_at (nodes, index)->prev_sibling = parent_node->last_child;
        }
      else
        parent_node->first_child = index;
      parent_node->last_child = index;
    }
  return index;
}

/* The child of parent for function, created on first use: nodes of one
 * function under one parent are merged */
static guint32
child_for_function (GArray     *nodes,
                    GHashTable *children,
                    guint32     parent,
                    guint32     function)
{
  gint64 key = ((gint64) parent << 32) | function;
  gpointer found = g_hash_table_lookup (children, &key);
  gint64 *stored_key;
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  index = append_node (nodes, parent, function);
  stored_key = g_new (gint64, 1);
  *stored_key = key;
  g_hash_table_insert (children, stored_key, GUINT_TO_POINTER (index + 1));
  return index;
}

static gboolean
is_exclusive (PsCallValue value)
{
  return value == PS_CALL_VALUE_ELAPSED_EXCLUSIVE || value == PS_CALL_VALUE_APPLICATION_EXCLUSIVE;
}

/* Children come after their parent, so one backward pass sums subtrees */
static void
compute_widths (GArray *nodes)
{
  /* A report may lack a column (NAN): such frames have no width */
  for (guint32 i = 0; i < nodes->len; i++)
    for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
      node_at (nodes, i)->width[v] = isfinite (node_at (nodes, i)->total[v]) ? MAX (node_at (nodes, i)->total[v], 0) : 0;

  for (guint32 i = nodes->len; i-- > 1;)
    {
      FlameNode *node = node_at (nodes, i);
      FlameNode *parent = node_at (nodes, node->parent);

      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        if (is_exclusive (v))
          parent->width[v] += node->width[v];
    }
}

static void
add_values (FlameNode         *node,
            const double      *total,
            guint64            calls,
            gboolean           inclusive_too)
{
  node->calls += calls;
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    if (inclusive_too || is_exclusive (v))
      node->total[v] += total[v];
}

/* A node of one array merged into one of another: its values, and A's */
static void
merge_values (FlameNode       *node,
              const FlameNode *from,
              guint64          calls,
              gboolean         inclusive_too)
{
  add_values (node, from->total, calls, inclusive_too);
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    if (inclusive_too || is_exclusive (v))
      node->baseline[v] += from->baseline[v];
  if (inclusive_too)
    {
      node->only_in_a_share[0] += from->only_in_a_share[0];
      node->only_in_a_share[1] += from->only_in_a_share[1];
      node->in_baseline |= from->in_baseline;
    }
}

/* A's values of a node of B */
static void
set_baseline_values (FlameNode      *node,
                     PsCallTreeDiff *diff,
                     guint32         tree_node)
{
  PsCallTree *a = ps_call_tree_diff_get_a (diff);
  guint32 a_node = ps_call_tree_diff_get_a_node (diff, tree_node);
  PsCallDiffNode entry;

  if (a_node != PS_NONE)
    {
      const PsCallStats *stats = ps_call_tree_get_node_stats (a, a_node);

      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        node->baseline[v] = isfinite (stats->total[v]) ? stats->total[v] : 0;
      node->in_baseline = TRUE;
    }
  if (ps_call_tree_diff_get_n_only_in_a (diff, tree_node) > 0)
    {
      ps_call_tree_diff_get_node (diff, tree_node, PS_CALL_DIFF_ELAPSED, &entry);
      node->only_in_a_share[0] = entry.only_in_a_total_share;
      ps_call_tree_diff_get_node (diff, tree_node, PS_CALL_DIFF_APPLICATION, &entry);
      node->only_in_a_share[1] = entry.only_in_a_total_share;
    }
}

/* The tree's top-down tree, depth first with an explicit stack; with a
 * diff (whose B is tree), A's values too */
static GArray *
build_base (PsCallTree     *tree,
            PsCallTreeDiff *diff)
{
  GArray *nodes = g_array_new (FALSE, FALSE, sizeof (FlameNode));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  guint32 root = append_node (nodes, NO_NODE, PS_NONE);
  const PsCallStats *root_stats = ps_call_tree_get_node_stats (tree, PS_CALL_NODE_ROOT);
  guint32 pair[2] = { PS_CALL_NODE_ROOT, root };

  add_values (node_at (nodes, root), root_stats->total, 0, TRUE);
  if (diff != NULL)
    set_baseline_values (node_at (nodes, root), diff, PS_CALL_NODE_ROOT);
  g_array_append_val (stack, pair);

  while (stack->len > 0)
    {
      guint32 *top = &g_array_index (stack, guint32, (stack->len - 1) * 2);
      guint32 tree_node = top[0];
      guint32 out = top[1];
      guint n_children = ps_call_tree_get_n_children (tree, tree_node);

      g_array_set_size (stack, stack->len - 1);
      for (guint i = 0; i < n_children; i++)
        {
          guint32 child = ps_call_tree_get_child (tree, tree_node, i);
          const PsCallStats *stats = ps_call_tree_get_node_stats (tree, child);
          guint32 out_child = append_node (nodes, out, ps_call_tree_get_node_function (tree, child));
          guint32 child_pair[2] = { child, out_child };

          add_values (node_at (nodes, out_child), stats->total, stats->calls, TRUE);
          if (diff != NULL)
            set_baseline_values (node_at (nodes, out_child), diff, child);
          g_array_append_val (stack, child_pair);
        }
    }

  compute_widths (nodes);
  return nodes;
}

/* One transform: in is read in index order (parents first), each node is
 * mapped to a node of the new array, or to none (focus: outside the
 * function's calls) */
static GArray *
apply_transform (GArray          *in,
                 const Transform *transform)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (FlameNode));
  g_autoptr(GHashTable) children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autofree guint32 *map = g_new (guint32, in->len);
  g_autofree gboolean *inside = g_new0 (gboolean, in->len);
  guint32 root = append_node (out, NO_NODE, PS_NONE);

  map[0] = root;
  if (transform->kind != PS_FLAME_TRANSFORM_FOCUS)
    merge_values (node_at (out, root), node_at (in, 0), 0, TRUE);

  for (guint32 i = 1; i < in->len; i++)
    {
      const FlameNode *node = node_at (in, i);
      guint32 parent_out = map[node->parent];
      gboolean is_function = node->function == transform->function;

      map[i] = NO_NODE;
      switch (transform->kind)
        {
        case PS_FLAME_TRANSFORM_FOCUS:
          inside[i] = inside[node->parent] || is_function;
          if (!inside[i])
            continue;
          if (is_function && !inside[node->parent])
            parent_out = root;
          break;

        case PS_FLAME_TRANSFORM_MERGE:
          /* Its own time goes to its caller, whose inclusive values hold
           * it already */
          if (is_function)
            {
              map[i] = parent_out;
              merge_values (node_at (out, parent_out), node, 0, FALSE);
              continue;
            }
          break;

        case PS_FLAME_TRANSFORM_COLLAPSE_RECURSION:
          if (is_function && node_at (in, node->parent)->function == transform->function)
            {
              map[i] = parent_out;
              merge_values (node_at (out, parent_out), node, node->calls, FALSE);
              continue;
            }
          break;

        default:
          g_assert_not_reached ();
        }

      if (parent_out == NO_NODE)
        continue;
      map[i] = child_for_function (out, children, parent_out, node->function);
      merge_values (node_at (out, map[i]), node, node->calls, TRUE);
    }

  /* Focus: the root holds the calls of the function */
  if (transform->kind == PS_FLAME_TRANSFORM_FOCUS)
    for (guint32 child = node_at (out, root)->first_child; child != NO_NODE; child = node_at (out, child)->next_sibling)
      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        if (!is_exclusive (v))
          {
            node_at (out, root)->total[v] += node_at (out, child)->total[v];
            node_at (out, root)->baseline[v] += node_at (out, child)->baseline[v];
          }
  node_at (out, root)->in_baseline = node_at (in, 0)->in_baseline;

  compute_widths (out);
  return out;
}

static gboolean
is_below (GArray  *nodes,
          guint32  node,
          guint32  ancestor)
{
  for (; node != NO_NODE; node = node_at (nodes, node)->parent)
    if (node == ancestor)
      return TRUE;
  return FALSE;
}

/* --- Text ------------------------------------------------------------------ */

/* Free with g_free () */
static char *
node_name (PsFlameGraph *self,
           guint32       node)
{
  guint32 function = node_at (self->nodes, node)->function;

  if (function == PS_NONE)
    {
      /* After a focus, the root holds the calls of that function */
      for (guint i = self->transforms->len; i-- > 0;)
        {
          const Transform *transform = &g_array_index (self->transforms, Transform, i);

          if (transform->kind == PS_FLAME_TRANSFORM_FOCUS)
            {
              g_autofree char *name = ps_util_display_text (ps_call_tree_get_function_name (self->tree, transform->function), -1);

              /* Translators: the root of the flame graph after "Focus on Function" */
              return g_strdup_printf (_("All calls of %s"), name);
            }
        }
      return g_strdup (_("All calls"));
    }
  return ps_util_display_text (ps_call_tree_get_function_name (self->tree, function), -1);
}

static char *
format_value (PsFlameGraph *self,
              double        value)
{
  PsCallUnit unit = ps_call_tree_get_unit (self->tree);

  if (!isfinite (value))
    return g_strdup ("–");
  if (unit == PS_CALL_UNIT_NS)
    {
      double ms = value / 1e6;
      /* The call tree's digits: whole, or to the microsecond */
      g_autofree char *number = ps_view_format_fixed (ms, fmod (ms, 1.0) == 0 ? 0 : 3);

      /* Translators: a time in milliseconds, "1,064.922 ms" */
      return g_strdup_printf (_("%s ms"), number);
    }
  else
    {
      g_autofree char *number = ps_view_format_number_whole (value);

      return g_strdup_printf (C_("value with unit", "%s %s"), number, ps_call_unit_to_string (unit));
    }
}

static const char *
value_title (PsCallValue value)
{
  switch (value)
    {
    case PS_CALL_VALUE_ELAPSED_INCLUSIVE:
      return _("Elapsed inclusive");
    case PS_CALL_VALUE_ELAPSED_EXCLUSIVE:
      return _("Elapsed exclusive");
    case PS_CALL_VALUE_APPLICATION_INCLUSIVE:
      return _("Application inclusive");
    case PS_CALL_VALUE_APPLICATION_EXCLUSIVE:
    case PS_N_CALL_VALUES:
    default:
      return _("Application exclusive");
    }
}

/* "+2.50 pp"; free with g_free () */
static char *
format_change (double change)
{
  if (change <= -0.005)
    /* Translators: a fall of a share in percentage points, with a minus sign */
    return g_strdup_printf (_("−%.2f pp"), -change);
  /* Translators: a change of a share in percentage points */
  return g_strdup_printf (_("+%.2f pp"), fabs (change) < 0.005 ? 0.0 : change);
}

static char *
format_ratio (double a_share,
              double b_share)
{
  if (a_share > 0)
    /* Translators: the ratio of the shares of B and A ("×1.50") */
    return g_strdup_printf (_("×%.2f"), b_share / a_share);
  if (b_share > 0)
    return g_strdup (_("new in B"));
  return g_strdup ("–");
}

static void
append_diff_tooltip (PsFlameGraph *self,
                     guint32       node,
                     GString      *text)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  const PsFlameGraphDiffBy measures[] = { PS_FLAME_GRAPH_DIFF_BY_SELF, PS_FLAME_GRAPH_DIFF_BY_TOTAL };
  double only_in_a = flame_node->only_in_a_share[diff_clock (self) == PS_CALL_DIFF_APPLICATION];

  g_string_append_printf (text, "\n\n<b>%s</b>", _("Baseline A → this run B (share of each run)"));
  for (guint i = 0; i < G_N_ELEMENTS (measures); i++)
    {
      double a_share, b_share;
      g_autofree char *change = NULL;
      g_autofree char *ratio = NULL;

      node_shares (self, node, measures[i], &a_share, &b_share);
      change = format_change (b_share - a_share);
      ratio = format_ratio (a_share, b_share);
      g_string_append (text, "\n");
      if (measures[i] == self->diff_by)
        g_string_append (text, "<b>");
      g_string_append_printf (text,
                              measures[i] == PS_FLAME_GRAPH_DIFF_BY_SELF
                              /* Translators: "Exclusive: A 30.00 % → B 50.00 %, +20.00 pp (×1.67)" */
                              ? _("Exclusive: A %.2f %% → B %.2f %%, %s (%s)")
                              : _("Inclusive: A %.2f %% → B %.2f %%, %s (%s)"),
                              a_share, b_share, change, ratio);
      if (measures[i] == self->diff_by)
        g_string_append (text, "</b>");
    }
  if (!flame_node->in_baseline)
    g_string_append_printf (text, "\n%s", _("Not in the baseline: new in B"));
  if (only_in_a > 0)
    g_string_append_printf (text, _("\nCallees only in the baseline: %.2f %% of A"), only_in_a);
}

static char *
node_tooltip_markup (PsFlameGraph *self,
                     guint32       node)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *name = node_name (self, node);
  g_autofree char *escaped_name = g_markup_escape_text (name, -1);
  PsCallStats stats = { 0 };

  g_string_append_printf (text, "<b>%s</b>", escaped_name);
  if (flame_node->function != PS_NONE)
    {
      const char *module = ps_call_tree_get_function_module (self->tree, flame_node->function);
      g_autofree char *escaped_module = g_markup_escape_text (module, -1);

      if (*module != '\0')
        /* Translators: the module of a function */
        g_string_append_printf (text, "\n%s %s", _("Module:"), escaped_module);
      if (ps_call_tree_get_n_function_addresses (self->tree, flame_node->function) > 0)
        {
          guint n_addresses = ps_call_tree_get_n_function_addresses (self->tree, flame_node->function);
          g_autofree char *count = ps_view_format_count (n_addresses);

          g_string_append_c (text, '\n');
          /* Translators: %s is a number of code addresses */
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                     "The module’s code without function names: %s address in the run",
                                                     "The module’s code without function names: %s addresses in the run",
                                                     n_addresses),
                                  count);
        }
      /* Samples count no calls */
      if (ps_call_tree_get_unit (self->tree) != PS_CALL_UNIT_SAMPLES)
        g_string_append_printf (text, "\n%s %" PRIu64, _("Calls:"), flame_node->calls);
    }

  memcpy (stats.total, flame_node->total, sizeof stats.total);
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    stats.given_percent[v] = NAN;
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_autofree char *value = format_value (self, flame_node->total[v]);
      double percent = ps_call_tree_get_percent (self->tree, &stats, v, self->basis);

      /* Translators: "Elapsed inclusive: 75.000 ms (50.00 %)" */
      g_string_append_printf (text, _("\n%s: %s (%.2f %%)"), value_title (v), value, percent);
    }
  if (self->diff != NULL)
    append_diff_tooltip (self, node, text);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* --- Colours --------------------------------------------------------------- */

/* A light text colour means a dark style: darker frames under it */
static gboolean
is_dark (const GdkRGBA *foreground)
{
  return 0.299 * foreground->red + 0.587 * foreground->green + 0.114 * foreground->blue > 0.5;
}

/* --- Differential colours ------------------------------------------------ */

/* The clock of the value shown */
static PsCallDiffClock
diff_clock (PsFlameGraph *self)
{
  return self->value == PS_CALL_VALUE_APPLICATION_INCLUSIVE || self->value == PS_CALL_VALUE_APPLICATION_EXCLUSIVE
         ? PS_CALL_DIFF_APPLICATION : PS_CALL_DIFF_ELAPSED;
}

static PsCallValue
diff_value (PsFlameGraph       *self,
            PsFlameGraphDiffBy  diff_by)
{
  gboolean application = diff_clock (self) == PS_CALL_DIFF_APPLICATION;

  if (diff_by == PS_FLAME_GRAPH_DIFF_BY_SELF)
    return application ? PS_CALL_VALUE_APPLICATION_EXCLUSIVE : PS_CALL_VALUE_ELAPSED_EXCLUSIVE;
  return application ? PS_CALL_VALUE_APPLICATION_INCLUSIVE : PS_CALL_VALUE_ELAPSED_INCLUSIVE;
}

/* A node's share of A and of B, in percent of each run's total */
static void
node_shares (PsFlameGraph       *self,
             guint32             node,
             PsFlameGraphDiffBy  diff_by,
             double             *a_share,
             double             *b_share)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  PsCallValue value = diff_value (self, diff_by);

  *a_share = ps_call_tree_diff_share (ps_call_tree_diff_get_a (self->diff), diff_clock (self), flame_node->baseline[value]);
  *b_share = ps_call_tree_diff_share (self->tree, diff_clock (self), flame_node->total[value]);
}

/* In percentage points, B − A */
static double
node_change (PsFlameGraph *self,
             guint32       node)
{
  double a_share, b_share;

  node_shares (self, node, self->diff_by, &a_share, &b_share);
  return b_share - a_share;
}

/* 1, 2 or 5 × 10^k at or above value */
static double
nice_ceiling (double value)
{
  double magnitude = pow (10, floor (log10 (value)));

  if (value <= magnitude * 1.0000001)
    return magnitude;
  if (value <= 2 * magnitude)
    return 2 * magnitude;
  if (value <= 5 * magnitude)
    return 5 * magnitude;
  return 10 * magnitude;
}

/* The change at the ends of the colour scale: the largest one of the
 * tree, rounded up, and at least twice the threshold so that the scale
 * has colours beyond the grey */
static double
get_diff_scale (PsFlameGraph *self)
{
  if (self->diff_scale <= 0)
    {
      double largest = 0;

      for (guint32 i = 0; self->nodes != NULL && i < self->nodes->len; i++)
        largest = MAX (largest, fabs (node_change (self, i)));
      self->diff_scale = MIN (nice_ceiling (MAX (largest, MAX (2 * self->diff_threshold, 1.0))), 100.0);
    }
  return self->diff_scale;
}

static void
invalidate_diff_scale (PsFlameGraph *self)
{
  self->diff_scale = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Grey within the threshold, then from pale to deep red (more in B) or
 * blue (less in B) as the change reaches the end of the scale */
static void
change_color (PsFlameGraph *self,
              double        change,
              gboolean      dark,
              GdkRGBA      *color)
{
  double magnitude = fabs (change);
  double scale = get_diff_scale (self);
  float t, hue, saturation, brightness, red, green, blue;

  if (magnitude == 0 || magnitude < self->diff_threshold)
    {
      *color = dark ? (GdkRGBA) { 0.40, 0.40, 0.41, 1.0 } : (GdkRGBA) { 0.82, 0.82, 0.83, 1.0 };
      return;
    }

  t = scale > self->diff_threshold ? (float) CLAMP ((magnitude - self->diff_threshold) / (scale - self->diff_threshold), 0.0, 1.0) : 1.0f;
  hue = change > 0 ? 0.0f : 0.6f;
  /* Deep but light enough for the labels' dark text */
  saturation = 0.22f + 0.5f * t;
  brightness = dark ? 0.50f + 0.2f * t : 0.98f - 0.06f * t;
  gtk_hsv_to_rgb (hue, saturation, brightness, &red, &green, &blue);
  *color = (GdkRGBA) { red, green, blue, 1.0 };
}

static void
node_color (PsFlameGraph  *self,
            guint32        node,
            gboolean       dark,
            GdkRGBA       *color)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  float hue, saturation, brightness, red, green, blue;

  if (self->diff != NULL)
    {
      change_color (self, node_change (self, node), dark, color);
      return;
    }

  if (flame_node->function == PS_NONE)
    {
      *color = dark ? (GdkRGBA) { 0.32, 0.30, 0.29, 1.0 } : (GdkRGBA) { 0.85, 0.83, 0.81, 1.0 };
      return;
    }

  if (self->color_by == PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE)
    {
      PsCallValue inclusive = is_exclusive (self->value) ? self->value - 1 : self->value;
      double share = flame_node->total[inclusive] > 0
                     ? CLAMP (flame_node->total[inclusive + 1] / flame_node->total[inclusive], 0.0, 1.0) : 0.0;

      /* Pale yellow (calls others) to red (all its own time) */
      hue = 0.15f - 0.15f * (float) share;
      saturation = 0.15f + 0.7f * (float) share;
      brightness = dark ? 0.62f : 0.98f - 0.08f * (float) share;
    }
  else
    {
      /* The module's colour, as the timeline's sample lanes have it */
      ps_chart_module_color (ps_call_tree_get_function_module (self->tree, flame_node->function), dark, color);
      return;
    }

  gtk_hsv_to_rgb (hue, saturation, brightness, &red, &green, &blue);
  *color = (GdkRGBA) { red, green, blue, 1.0 };
}

static gboolean
node_matches (PsFlameGraph *self,
              guint32       node)
{
  guint32 function = node_at (self->nodes, node)->function;

  return self->matches == NULL || (function != PS_NONE && self->matches[function]);
}

/* --- Layout ---------------------------------------------------------------- */

static void
count_rows (PsFlameGraph *self)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 deepest = 0;

  self->n_rows = 0;
  if (self->nodes == NULL)
    return;

  g_array_append_val (stack, self->zoom_node);
  while (stack->len > 0)
    {
      guint32 node = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      deepest = MAX (deepest, node_at (self->nodes, node)->depth);
      for (guint32 child = node_at (self->nodes, node)->first_child; child != NO_NODE;
           child = node_at (self->nodes, child)->next_sibling)
        g_array_append_val (stack, child);
    }
  self->n_rows = deepest + 1;
}

static void
ensure_layout (PsFlameGraph *self,
               int           width)
{
  g_autoptr(GArray) stack = NULL;
  double units_per_px, zoom_width;

  if (self->layout_width == width)
    return;
  self->layout_width = width;
  g_array_set_size (self->frames, 0);
  if (self->nodes == NULL || width <= 0)
    return;

  /* The callers of the zoomed frame stay above it, full width */
  for (guint32 node = self->zoom_node; node != NO_NODE; node = node_at (self->nodes, node)->parent)
    {
      Frame frame = { node, node_at (self->nodes, node)->depth, 0, width };

      if (node != self->zoom_node)
        g_array_append_val (self->frames, frame);
    }

  zoom_width = node_at (self->nodes, self->zoom_node)->width[self->value];
  units_per_px = zoom_width > 0 ? zoom_width / width : 0;

  stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_array_append_val (stack, ((Frame) { self->zoom_node, node_at (self->nodes, self->zoom_node)->depth, 0, width }));
  while (stack->len > 0)
    {
      Frame frame = g_array_index (stack, Frame, stack->len - 1);
      double x = frame.x;
      double end = frame.x + frame.width;

      g_array_set_size (stack, stack->len - 1);
      g_array_append_val (self->frames, frame);
      if (units_per_px <= 0)
        continue;

      for (guint32 child = node_at (self->nodes, frame.node)->first_child; child != NO_NODE && x < end;
           child = node_at (self->nodes, child)->next_sibling)
        {
          /* Reports may give children more than their parent: clip */
          double child_width = MIN (node_at (self->nodes, child)->width[self->value] / units_per_px, end - x);

          if (child_width >= MIN_FRAME_WIDTH)
            g_array_append_val (stack, ((Frame) { child, frame.depth + 1, x, child_width }));
          x += MAX (child_width, 0);
        }
    }
}

static void
invalidate_layout (PsFlameGraph *self)
{
  self->layout_width = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static const Frame *
frame_at (PsFlameGraph *self,
          int           width,
          double        x,
          double        y)
{
  guint depth;

  y -= frames_top (self);
  if (x < 0 || y < 0 || x >= width)
    return NULL;

  ensure_layout (self, width);
  depth = (guint) (y / FRAME_HEIGHT);
  for (guint i = 0; i < self->frames->len; i++)
    {
      const Frame *frame = &g_array_index (self->frames, Frame, i);

      if (frame->depth == depth && x >= frame->x && x < frame->x + frame->width)
        return frame;
    }
  return NULL;
}

static const Frame *
frame_of_node (PsFlameGraph *self,
               int           width,
               guint32       node)
{
  ensure_layout (self, width);
  for (guint i = 0; i < self->frames->len; i++)
    if (g_array_index (self->frames, Frame, i).node == node)
      return &g_array_index (self->frames, Frame, i);
  return NULL;
}

/* --- Drawing --------------------------------------------------------------- */

/* The legend of a differential graph, one line above the frames:
 *   title   less in B [blue ··· grey ··· red] more in B   note
 *                      −20 pp      0      +20 pp                     */
typedef struct
{
  double bar_x;
  double bar_width;
} LegendGeometry;

#define LEGEND_BAR_Y      7.0
#define LEGEND_BAR_HEIGHT 12.0
#define LEGEND_GAP        10.0

static char *
legend_title (PsFlameGraph *self)
{
  return g_strdup (self->diff_by == PS_FLAME_GRAPH_DIFF_BY_SELF
                   ? _("Change in exclusive time, A → B")
                   : _("Change in inclusive time, A → B"));
}

static int
text_width (PangoLayout *layout,
            const char  *markup)
{
  int width;

  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
legend_geometry (PsFlameGraph   *self,
                 PangoLayout    *layout,
                 int             width,
                 LegendGeometry *geometry)
{
  g_autofree char *title = legend_title (self);
  g_autofree char *title_markup = g_markup_printf_escaped ("<b>%s</b>", title);
  double x = 8;

  pango_layout_set_width (layout, -1);
  x += text_width (layout, title_markup) + 2 * LEGEND_GAP;
  x += text_width (layout, _("less in B")) + LEGEND_GAP;
  geometry->bar_x = x;
  geometry->bar_width = CLAMP (width - x - 120, 80, LEGEND_BAR_WIDTH);
}

static void
show_text_at (cairo_t     *cr,
              PangoLayout *layout,
              const char  *markup,
              double       x,
              double       center_y,
              double       align)  /* 0: x is the left, 0.5 the middle, 1 the right */
{
  int text_width, text_height;

  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  cairo_move_to (cr, round (x - align * text_width), round (center_y - text_height / 2.0));
  pango_cairo_show_layout (cr, layout);
}

static void
draw_legend (PsFlameGraph  *self,
             cairo_t       *cr,
             int            width,
             const GdkRGBA *foreground,
             gboolean       dark)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoLayout) small = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoAttrList) small_attrs = pango_attr_list_new ();
  g_autofree char *title = legend_title (self);
  g_autofree char *title_markup = g_markup_printf_escaped ("<b>%s</b>", title);
  g_autofree char *low = NULL, *high = NULL, *threshold = NULL, *note = NULL, *note_markup = NULL;
  double scale = get_diff_scale (self);
  double bar_center = LEGEND_BAR_Y + LEGEND_BAR_HEIGHT / 2;
  double x, end;
  LegendGeometry geometry;

  pango_attr_list_insert (small_attrs, pango_attr_scale_new (0.82));
  pango_layout_set_attributes (small, small_attrs);
  legend_geometry (self, layout, width, &geometry);
  end = geometry.bar_x + geometry.bar_width;

  /* A band of its own, set off from the frames */
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.04);
  cairo_rectangle (cr, 0, 0, width, LEGEND_HEIGHT - 4);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.15);
  cairo_rectangle (cr, 0, LEGEND_HEIGHT - 5, width, 1);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha);
  show_text_at (cr, layout, title_markup, 8, bar_center, 0);
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha * 0.75);
  show_text_at (cr, layout, _("less in B"), geometry.bar_x - LEGEND_GAP, bar_center, 1);
  show_text_at (cr, layout, _("more in B"), end + LEGEND_GAP, bar_center, 0);

  /* The scale, a pixel column at a time, in the frames' own colours */
  for (x = 0; x < geometry.bar_width; x++)
    {
      double change = -scale + 2 * scale * (x + 0.5) / geometry.bar_width;
      GdkRGBA color;

      change_color (self, change, dark, &color);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_rectangle (cr, geometry.bar_x + x, LEGEND_BAR_Y, 1, LEGEND_BAR_HEIGHT);
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.35);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, geometry.bar_x - 0.5, LEGEND_BAR_Y - 0.5, geometry.bar_width + 1, LEGEND_BAR_HEIGHT + 1);
  cairo_stroke (cr);

  /* Ticks at the ends, at zero and at the threshold */
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.6);
  for (int tick = -2; tick <= 2; tick++)
    {
      double change = tick == 0 ? 0 : (abs (tick) == 1 ? self->diff_threshold : scale) * (tick < 0 ? -1 : 1);
      double tick_x = round (geometry.bar_x + geometry.bar_width * (change + scale) / (2 * scale)) + 0.5;

      if (abs (tick) == 1 && (self->diff_threshold <= 0 || self->diff_threshold >= scale))
        continue;
      cairo_move_to (cr, tick_x, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT);
      cairo_line_to (cr, tick_x, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 3);
      cairo_stroke (cr);
    }

  /* Translators: the ends of the colour scale of a differential flame
   * graph, in percentage points */
  low = g_strdup_printf (_("−%g pp"), scale);
  high = g_strdup_printf (_("+%g pp"), scale);
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha * 0.75);
  show_text_at (cr, small, low, geometry.bar_x, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 10, 0);
  show_text_at (cr, small, "0", geometry.bar_x + geometry.bar_width / 2, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 10, 0.5);
  show_text_at (cr, small, high, end, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 10, 1);

  /* Translators: after the colour scale: its unit and the grey band */
  threshold = g_strdup_printf ("%g", self->diff_threshold);
  note = g_strdup_printf (_("pp of total · grey within ±%s pp"), threshold);
  note_markup = g_markup_escape_text (note, -1);
  x = end + LEGEND_GAP + text_width (layout, _("more in B")) + 2 * LEGEND_GAP;
  if (x < width)
    {
      pango_layout_set_width (layout, (int) ((width - x - 8) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha * 0.6);
      show_text_at (cr, layout, note_markup, x, bar_center, 0);
    }
}

void
_ps_flame_graph_draw (PsFlameGraph *self,
                      cairo_t      *cr,
                      int           width,
                      int           height)
{
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA foreground;
  gboolean dark, focused;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->nodes == NULL)
    return;

  ensure_layout (self, width);
  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  dark = is_dark (&foreground);
  focused = gtk_widget_has_focus (GTK_WIDGET (self));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);

  for (guint i = 0; i < self->frames->len; i++)
    {
      const Frame *frame = &g_array_index (self->frames, Frame, i);
      double y = frames_top (self) + frame->depth * FRAME_HEIGHT;
      gboolean matches = node_matches (self, frame->node);
      double alpha = matches ? 1.0 : 0.25;
      GdkRGBA fill;

      if (y > height)
        continue;

      node_color (self, frame->node, dark, &fill);
      cairo_set_source_rgba (cr, fill.red, fill.green, fill.blue, alpha);
      /* A pixel of gap to the right and below separates the frames */
      cairo_rectangle (cr, frame->x, y, MAX (frame->width - 1, 1), FRAME_HEIGHT - 1);
      cairo_fill (cr);

      if (frame->width >= MIN_LABEL_WIDTH)
        {
          g_autofree char *name = node_name (self, frame->node);
          int text_height;

          pango_layout_set_text (layout, name, -1);
          pango_layout_set_width (layout, (int) ((frame->width - 8) * PANGO_SCALE));
          pango_layout_get_pixel_size (layout, NULL, &text_height);
          cairo_save (cr);
          cairo_rectangle (cr, frame->x, y, frame->width - 1, FRAME_HEIGHT - 1);
          cairo_clip (cr);
          cairo_move_to (cr, frame->x + 4, y + (FRAME_HEIGHT - 1 - text_height) / 2.0);
          cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue,
                                 foreground.alpha * (matches ? 1.0 : 0.45));
          pango_cairo_show_layout (cr, layout);
          cairo_restore (cr);
        }

      /* Every frame of the function chosen in the table or another view,
       * on screen */
      if (!self->drawing_picture && self->marked_function != PS_NONE && node_at (self->nodes, frame->node)->function == self->marked_function)
        {
          GdkRGBA accent;

          ps_selection_accent_color (dark, &accent);
          gdk_cairo_set_source_rgba (cr, &accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, frame->x + 1, y + 1, MAX (frame->width - 3, 1), FRAME_HEIGHT - 3);
          cairo_stroke (cr);
        }

      if (focused && frame->node == self->focus_node)
        {
          cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, foreground.alpha);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, frame->x + 1, y + 1, MAX (frame->width - 3, 1), FRAME_HEIGHT - 3);
          cairo_stroke (cr);
        }
    }

  if (self->diff != NULL)
    draw_legend (self, cr, width, &foreground, dark);
}

static void
ps_flame_graph_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget) - self->crumbs_height;

  gtk_widget_snapshot_child (widget, self->crumbs, snapshot);

  if (self->nodes != NULL && width > 0 && height > 0)
    {
      cairo_t *cr;

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, self->crumbs_height));
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      _ps_flame_graph_draw (self, cr, width, height);
      cairo_destroy (cr);
      gtk_snapshot_restore (snapshot);
    }
  else if (self->base_cancellable != NULL && width > 0 && height > 0)
    {
      GdkRGBA foreground;
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, self->crumbs_height, width, height));

      ps_chart_get_foreground (widget, &foreground);
      ps_chart_set_source (cr, &foreground, 0.6);
      ps_chart_draw_text (widget, cr, _("Laying out the calls…"), width / 2.0, self->crumbs_height + height / 2.0, 0.5, 0.5);
      cairo_destroy (cr);
    }

  if (self->menu != NULL)
    gtk_widget_snapshot_child (widget, self->menu, snapshot);
}

/* The breadcrumb bar of a picture: the path to the frame zoomed into on
 * the left, the last transform and what the widths and colours show on
 * the right, as the bar's buttons and drop-downs say */
static char *
picture_crumbs_text (PsFlameGraph *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GString *text = g_string_new (NULL);

  if (self->nodes != NULL)
    for (guint32 node = self->zoom_node; node != NO_NODE; node = node_at (self->nodes, node)->parent)
      g_array_prepend_val (path, node);
  for (guint i = 0; i < path->len; i++)
    {
      g_autofree char *name = node_name (self, g_array_index (path, guint32, i));

      if (i > 0)
        g_string_append (text, " › ");
      g_string_append (text, name);
    }
  return g_string_free (text, FALSE);
}

static char *
picture_settings_text (PsFlameGraph *self)
{
  GtkWidget *dropdowns[] = { self->value_dropdown, self->diff != NULL ? self->diff_dropdown : self->color_dropdown };
  GString *text = g_string_new (NULL);

  if (gtk_widget_get_visible (self->transform_label))
    g_string_append (text, gtk_label_get_text (GTK_LABEL (self->transform_label)));
  for (guint i = 0; i < G_N_ELEMENTS (dropdowns); i++)
    {
      GtkStringObject *item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (dropdowns[i]));

      if (item == NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, " · ");
      g_string_append (text, gtk_string_object_get_string (item));
    }
  return g_string_free (text, FALSE);
}

void
ps_flame_graph_draw_picture (PsFlameGraph *self,
                             cairo_t      *cr,
                             int           width,
                             int           height)
{
  g_autofree char *crumbs = NULL;
  g_autofree char *settings = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA foreground;
  int text_height, settings_width = 0, header_height;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (cr != NULL);

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  crumbs = picture_crumbs_text (self);
  settings = picture_settings_text (self);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), settings);
  pango_layout_get_pixel_size (layout, &settings_width, &text_height);
  header_height = text_height + 12;

  cairo_save (cr);
  cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, foreground.alpha * 0.6);
  cairo_move_to (cr, MAX (width - 8 - settings_width, width / 2), 6);
  pango_layout_set_width (layout, (int) (MIN (settings_width, width / 2 - 8) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_text (layout, crumbs, -1);
  pango_layout_set_width (layout, (int) (MAX (width - 24 - MIN (settings_width, width / 2), 1) * PANGO_SCALE));
  cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, foreground.alpha);
  cairo_move_to (cr, 8, 6);
  pango_cairo_show_layout (cr, layout);

  if (height > header_height)
    {
      cairo_translate (cr, 0, header_height);
      cairo_rectangle (cr, 0, 0, width, height - header_height);
      cairo_clip (cr);
      /* The picture is of the graph: the outlines of what is chosen on
       * screen are left out */
      self->drawing_picture = TRUE;
      _ps_flame_graph_draw (self, cr, width, height - header_height);
      self->drawing_picture = FALSE;
    }
  cairo_restore (cr);
}

static void
ps_flame_graph_picture_source_draw (PsPictureSource *source,
                                    cairo_t         *cr,
                                    int              width,
                                    int              height)
{
  ps_flame_graph_draw_picture (PS_FLAME_GRAPH (source), cr, width, height);
}

static const char *
ps_flame_graph_picture_source_name (PsPictureSource *source)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (source);

  return self->diff != NULL ? "differential-flame-graph" : "flame-graph";
}

static void
ps_flame_graph_picture_source_init (PsPictureSourceInterface *iface)
{
  iface->draw_picture = ps_flame_graph_picture_source_draw;
  iface->get_picture_name = ps_flame_graph_picture_source_name;
}

/* --- Breadcrumbs, zoom and focus ------------------------------------------ */

#define N_HOTTEST 3

/* What the graph shows, for a screen reader: the root's total and the
 * frames with the most time of their own, with their shares of it */
static char *
summary (PsFlameGraph *self)
{
  guint32 hottest[N_HOTTEST];
  double hottest_own[N_HOTTEST];
  guint n_hottest = 0;
  double root_width;
  g_autofree char *total = NULL;
  GString *text;

  if (self->nodes == NULL || self->nodes->len == 0)
    return g_strdup (_("No calls"));

  root_width = node_at (self->nodes, 0)->width[self->value];
  for (guint32 i = 1; i < self->nodes->len; i++)
    {
      const FlameNode *node = node_at (self->nodes, i);
      double own = node->width[self->value];
      guint slot;

      for (guint32 child = node->first_child; child != NO_NODE; child = node_at (self->nodes, child)->next_sibling)
        own -= node_at (self->nodes, child)->width[self->value];
      if (!(own > 0))
        continue;
      for (slot = n_hottest; slot > 0 && hottest_own[slot - 1] < own; slot--)
        if (slot < N_HOTTEST)
          {
            hottest[slot] = hottest[slot - 1];
            hottest_own[slot] = hottest_own[slot - 1];
          }
      if (slot < N_HOTTEST)
        {
          hottest[slot] = i;
          hottest_own[slot] = own;
          n_hottest = MIN (n_hottest + 1, N_HOTTEST);
        }
    }

  total = format_value (self, root_width);
  text = g_string_new (NULL);
  /* Translators: the start of the flame graph's summary for a screen reader */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s in %u frame.", "%s in %u frames.",
                                             self->nodes->len - 1),
                          total, self->nodes->len - 1);
  for (guint i = 0; i < n_hottest; i++)
    {
      g_autofree char *name = node_name (self, hottest[i]);
      g_autofree char *share = ps_view_format_fixed (root_width > 0 ? 100 * hottest_own[i] / root_width : 0, 1);

      g_string_append_c (text, ' ');
      if (i == 0)
        /* Translators: the frame with the most time of its own and its
         * share of the whole graph, in the flame graph's summary */
        g_string_append_printf (text, _("Most of its own: %s, %s %%"), name, share);
      else
        /* Translators: the next frames of the flame graph's summary */
        g_string_append_printf (text, _("then %s, %s %%"), name, share);
      g_string_append_c (text, i + 1 < n_hottest ? ';' : '.');
    }
  return g_string_free (text, FALSE);
}

static void
update_accessible (PsFlameGraph *self)
{
  g_autofree char *description = NULL;
  g_autofree char *focus = NULL;

  if (self->summary == NULL)
    self->summary = summary (self);
  if (self->nodes != NULL && self->focus_node != NO_NODE)
    {
      g_autofree char *name = node_name (self, self->focus_node);
      g_autofree char *value = format_value (self, node_at (self->nodes, self->focus_node)->width[self->value]);

      /* Translators: the frame the keyboard is on: "::main, 140.000 ms" */
      focus = g_strdup_printf (_("%s, %s"), name, value);
    }
  /* Translators: the flame graph's description for a screen reader: its
   * summary, the frame the keyboard is on, and how to use it */
  description = g_strdup_printf (_("%s Selected: %s. Enter zooms into a frame, Escape zooms out, the menu key opens the transforms."),
                                 self->summary, focus != NULL ? focus : _("none"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void zoom_to (PsFlameGraph *self,
                     guint32       node);

static void
crumb_clicked_cb (GtkButton    *button,
                  PsFlameGraph *self)
{
  guint32 node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "flame-node"));

  if (self->nodes != NULL && node < self->nodes->len)
    zoom_to (self, node);
}

static void
add_crumb (PsFlameGraph *self,
           guint32       node,
           gboolean      current)
{
  g_autofree char *name = node_name (self, node);
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *button = gtk_button_new ();

  if (gtk_widget_get_first_child (self->crumb_buttons) != NULL)
    {
      GtkWidget *separator = gtk_label_new ("›");

      gtk_widget_add_css_class (separator, "dim-label");
      gtk_box_append (GTK_BOX (self->crumb_buttons), separator);
    }

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 32);
  gtk_button_set_child (GTK_BUTTON (button), label);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, current ? _("The frame zoomed into") : _("Zoom out to this frame"));
  if (current)
    gtk_widget_add_css_class (label, "heading");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_object_set_data (G_OBJECT (button), "flame-node", GUINT_TO_POINTER (node));
  g_signal_connect (button, "clicked", G_CALLBACK (crumb_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->crumb_buttons), button);
}

static void
update_crumbs (PsFlameGraph *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkWidget *child;
  guint n_transforms = self->transforms->len;

  while ((child = gtk_widget_get_first_child (self->crumb_buttons)) != NULL)
    gtk_box_remove (GTK_BOX (self->crumb_buttons), child);

  if (self->nodes != NULL)
    {
      for (guint32 node = self->zoom_node; node != NO_NODE; node = node_at (self->nodes, node)->parent)
        g_array_prepend_val (path, node);

      for (guint i = 0; i < path->len; i++)
        {
          /* Deep zooms show the root, "…" and the last frames */
          if (path->len > MAX_CRUMBS && i > 0 && i < path->len - (MAX_CRUMBS - 2))
            {
              if (i == 1)
                {
                  GtkWidget *more = gtk_label_new ("› …");

                  gtk_widget_add_css_class (more, "dim-label");
                  gtk_box_append (GTK_BOX (self->crumb_buttons), more);
                }
              continue;
            }
          add_crumb (self, g_array_index (path, guint32, i), i == path->len - 1);
        }
    }

  if (n_transforms > 0)
    {
      const Transform *last = &g_array_index (self->transforms, Transform, n_transforms - 1);
      g_autofree char *name = ps_util_display_text (ps_call_tree_get_function_name (self->tree, last->function), -1);
      g_autofree char *text = NULL;

      switch (last->kind)
        {
        case PS_FLAME_TRANSFORM_FOCUS:
          /* Translators: the last transform of the flame graph */
          text = g_strdup_printf (_("Focused on %s"), name);
          break;
        case PS_FLAME_TRANSFORM_MERGE:
          text = g_strdup_printf (_("Merged %s"), name);
          break;
        case PS_FLAME_TRANSFORM_COLLAPSE_RECURSION:
        default:
          text = g_strdup_printf (_("Collapsed recursion of %s"), name);
          break;
        }
      if (n_transforms > 1)
        {
          g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u more transform)",
                                                                 "%s (and %u more transforms)", n_transforms - 1),
                                                    text, n_transforms - 1);
          g_free (text);
          text = g_steal_pointer (&count);
        }
      gtk_label_set_text (GTK_LABEL (self->transform_label), text);
    }
  gtk_widget_set_visible (self->transform_label, n_transforms > 0);
  gtk_widget_set_visible (self->undo_button, n_transforms > 0);
  gtk_widget_set_visible (self->reset_button, n_transforms > 0);
}

static void
update_actions (PsFlameGraph *self)
{
  gboolean has_function = self->nodes != NULL && self->focus_node != NO_NODE
                          && node_at (self->nodes, self->focus_node)->function != PS_NONE;
  gboolean has_transforms = self->transforms->len > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-in", self->nodes != NULL && self->focus_node != NO_NODE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-out", self->nodes != NULL && self->zoom_node != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-reset", self->nodes != NULL && self->zoom_node != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.focus-function", has_function);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.merge-function", has_function);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.collapse-recursion", has_function);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.undo-transform", has_transforms);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.reset-transforms", has_transforms);
}

static void
set_focus_node (PsFlameGraph *self,
                guint32       node)
{
  if (self->focus_node == node)
    return;
  self->focus_node = node;
  update_accessible (self);
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_to (PsFlameGraph *self,
         guint32       node)
{
  if (self->zoom_node == node)
    return;

  self->zoom_node = node;
  count_rows (self);
  update_crumbs (self);
  update_actions (self);
  invalidate_layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
activate_node (PsFlameGraph *self,
               guint32       node)
{
  guint32 function = node_at (self->nodes, node)->function;

  set_focus_node (self, node);
  zoom_to (self, node);
  if (function != PS_NONE)
    g_signal_emit (self, signals[FRAME_ACTIVATED], 0, function);
}

/* --- Input ----------------------------------------------------------------- */

static void
popup_menu_at (PsFlameGraph *self,
               double        x,
               double        y)
{
  if (self->menu == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();
      g_autoptr(GMenu) zoom_section = g_menu_new ();
      g_autoptr(GMenu) transform_section = g_menu_new ();
      g_autoptr(GMenu) undo_section = g_menu_new ();
      g_autoptr(GMenu) export_section = g_menu_new ();

      g_menu_append (zoom_section, _("_Zoom In"), "flame.zoom-in");
      g_menu_append (zoom_section, _("Zoom _Out"), "flame.zoom-out");
      g_menu_append (zoom_section, _("Show _All"), "flame.zoom-reset");
      g_menu_append (transform_section, _("_Focus on Function"), "flame.focus-function");
      g_menu_append (transform_section, _("_Merge Function"), "flame.merge-function");
      g_menu_append (transform_section, _("_Collapse Recursion"), "flame.collapse-recursion");
      g_menu_append (undo_section, _("_Undo Transform"), "flame.undo-transform");
      g_menu_append (undo_section, _("_Reset Transforms"), "flame.reset-transforms");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (zoom_section));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (transform_section));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (undo_section));
      g_menu_append (export_section, _("Export _Picture…"), "picture.export");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (export_section));

      self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      ps_view_menu_quiets_tooltips (GTK_POPOVER (self->menu));
    }

  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            PsFlameGraph    *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  const Frame *frame = frame_at (self, width, x, y - self->crumbs_height);

  if (y < self->crumbs_height || self->nodes == NULL)
    return;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (frame == NULL)
    {
      /* Below the frames the menu still offers the picture */
      if (button == GDK_BUTTON_SECONDARY)
        popup_menu_at (self, x, y);
      return;
    }

  if (button == GDK_BUTTON_SECONDARY)
    {
      set_focus_node (self, frame->node);
      popup_menu_at (self, x, y);
    }
  else if (button == GDK_BUTTON_PRIMARY)
    activate_node (self, frame->node);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

typedef enum
{
  MOVE_UP,
  MOVE_DOWN,
  MOVE_LEFT,
  MOVE_RIGHT,
} Move;

/* The arrow keys: up to the caller, down to the first callee drawn,
 * left and right to the siblings drawn */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  const FlameNode *node;
  guint32 target = NO_NODE;
  gboolean inside_zoom;

  if (self->nodes == NULL)
    return;
  if (self->focus_node == NO_NODE)
    {
      set_focus_node (self, self->zoom_node);
      return;
    }

  node = node_at (self->nodes, self->focus_node);
  /* Siblings only inside the zoomed frame: outside it they are not drawn */
  inside_zoom = self->focus_node != self->zoom_node && is_below (self->nodes, self->focus_node, self->zoom_node);
  switch ((Move) g_variant_get_int32 (parameter))
    {
    case MOVE_UP:
      target = node->parent;
      break;
    case MOVE_DOWN:
      /* The first child wide enough to be drawn */
      for (guint32 child = node->first_child; child != NO_NODE; child = node_at (self->nodes, child)->next_sibling)
        if (frame_of_node (self, gtk_widget_get_width (widget), child) != NULL)
          {
            target = child;
            break;
          }
      break;
    case MOVE_LEFT:
      for (guint32 sibling = inside_zoom ? node->prev_sibling : NO_NODE; sibling != NO_NODE;
           sibling = node_at (self->nodes, sibling)->prev_sibling)
        if (frame_of_node (self, gtk_widget_get_width (widget), sibling) != NULL)
          {
            target = sibling;
            break;
          }
      break;
    case MOVE_RIGHT:
    default:
      for (guint32 sibling = inside_zoom ? node->next_sibling : NO_NODE; sibling != NO_NODE;
           sibling = node_at (self->nodes, sibling)->next_sibling)
        if (frame_of_node (self, gtk_widget_get_width (widget), sibling) != NULL)
          {
            target = sibling;
            break;
          }
      break;
    }

  if (target != NO_NODE)
    set_focus_node (self, target);
  else
    gtk_widget_error_bell (widget);
}

static gboolean
ps_flame_graph_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  const Frame *frame;
  g_autofree char *markup = NULL;

  /* Not over the frames' menu */
  if (self->nodes == NULL || (self->menu != NULL && gtk_widget_get_visible (self->menu)))
    return FALSE;

  if (keyboard_mode)
    frame = self->focus_node != NO_NODE ? frame_of_node (self, width, self->focus_node) : NULL;
  else
    frame = frame_at (self, width, x, y - self->crumbs_height);
  if (frame == NULL)
    return FALSE;

  markup = node_tooltip_markup (self, frame->node);
  gtk_tooltip_set_markup (tooltip, markup);
  /* No tip area: on GTK 4.8 a tip area in a scrolled viewport kept the
   * tooltip from showing at all; motion queries again anyway */
  return TRUE;
}

/* --- Actions --------------------------------------------------------------- */

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);

  if (self->nodes != NULL && self->focus_node != NO_NODE)
    activate_node (self, self->focus_node);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ps_flame_graph_zoom_out (PS_FLAME_GRAPH (widget));
}

static void
zoom_reset_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ps_flame_graph_zoom_reset (PS_FLAME_GRAPH (widget));
}

static void
transform_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  PsFlameTransform kind;
  guint32 function;

  if (self->nodes == NULL || self->focus_node == NO_NODE)
    return;
  function = node_at (self->nodes, self->focus_node)->function;
  if (function == PS_NONE)
    return;

  if (g_str_equal (action_name, "flame.focus-function"))
    kind = PS_FLAME_TRANSFORM_FOCUS;
  else if (g_str_equal (action_name, "flame.merge-function"))
    kind = PS_FLAME_TRANSFORM_MERGE;
  else
    kind = PS_FLAME_TRANSFORM_COLLAPSE_RECURSION;
  ps_flame_graph_add_transform (self, kind, function);
}

static void
undo_transform_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ps_flame_graph_undo_transform (PS_FLAME_GRAPH (widget));
}

static void
reset_transforms_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  ps_flame_graph_reset_transforms (PS_FLAME_GRAPH (widget));
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  const Frame *frame;

  if (self->nodes == NULL)
    return;
  if (self->focus_node == NO_NODE)
    set_focus_node (self, self->zoom_node);
  frame = frame_of_node (self, gtk_widget_get_width (widget), self->focus_node);
  if (frame != NULL)
    popup_menu_at (self, frame->x + MIN (frame->width / 2, 40), frames_top (self) + frame->depth * FRAME_HEIGHT + self->crumbs_height + FRAME_HEIGHT);
}

/* --- Layout of the widget -------------------------------------------------- */

static void
ps_flame_graph_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int crumbs_minimum, crumbs_natural;

  gtk_widget_measure (self->crumbs, orientation, -1, &crumbs_minimum, &crumbs_natural, NULL, NULL);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = crumbs_minimum;
      *natural = MAX (crumbs_natural, 400);
    }
  else
    {
      *minimum = crumbs_natural + frames_top (self) + 4 * FRAME_HEIGHT;
      *natural = crumbs_natural + frames_top (self) + MAX (self->n_rows, 4) * FRAME_HEIGHT;
    }
}

static void
ps_flame_graph_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int crumbs_height;

  gtk_widget_measure (self->crumbs, GTK_ORIENTATION_VERTICAL, width, NULL, &crumbs_height, NULL, NULL);
  gtk_widget_allocate (self->crumbs, width, crumbs_height, -1, NULL);
  if (self->crumbs_height != crumbs_height)
    {
      self->crumbs_height = crumbs_height;
      gtk_widget_queue_draw (widget);
    }
  if (self->layout_width != width)
    self->layout_width = -1;

  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

static void
focus_changed_cb (PsFlameGraph *self)
{
  if (gtk_widget_has_focus (GTK_WIDGET (self)) && self->nodes != NULL && self->focus_node == NO_NODE)
    set_focus_node (self, self->zoom_node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* --- GObject --------------------------------------------------------------- */

static void
ps_flame_graph_dispose (GObject *object)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  g_clear_pointer (&self->crumbs, gtk_widget_unparent);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_cancellable_cancel (self->base_cancellable);
  g_clear_object (&self->base_cancellable);
  g_clear_object (&self->tree);
  g_clear_object (&self->diff);

  G_OBJECT_CLASS (ps_flame_graph_parent_class)->dispose (object);
}

static void
ps_flame_graph_finalize (GObject *object)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  g_clear_pointer (&self->base, g_array_unref);
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->transforms, g_array_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->matches, g_free);

  G_OBJECT_CLASS (ps_flame_graph_parent_class)->finalize (object);
}

static void
ps_flame_graph_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_TREE:
      g_value_set_object (value, self->tree);
      break;
    case PROP_VALUE:
      g_value_set_uint (value, self->value);
      break;
    case PROP_COLOR_BY:
      g_value_set_enum (value, self->color_by);
      break;
    case PROP_BASELINE:
      g_value_set_object (value, self->diff);
      break;
    case PROP_DIFF_BY:
      g_value_set_enum (value, self->diff_by);
      break;
    case PROP_DIFF_THRESHOLD:
      g_value_set_double (value, self->diff_threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_flame_graph_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_TREE:
      ps_flame_graph_set_tree (self, g_value_get_object (value));
      break;
    case PROP_VALUE:
      ps_flame_graph_set_value (self, g_value_get_uint (value));
      break;
    case PROP_COLOR_BY:
      ps_flame_graph_set_color_by (self, g_value_get_enum (value));
      break;
    case PROP_BASELINE:
      ps_flame_graph_set_baseline (self, g_value_get_object (value));
      break;
    case PROP_DIFF_BY:
      ps_flame_graph_set_diff_by (self, g_value_get_enum (value));
      break;
    case PROP_DIFF_THRESHOLD:
      ps_flame_graph_set_diff_threshold (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_flame_graph_class_init (PsFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_flame_graph_dispose;
  object_class->finalize = ps_flame_graph_finalize;
  object_class->get_property = ps_flame_graph_get_property;
  object_class->set_property = ps_flame_graph_set_property;

  widget_class->snapshot = ps_flame_graph_snapshot;
  widget_class->measure = ps_flame_graph_measure;
  widget_class->size_allocate = ps_flame_graph_size_allocate;
  widget_class->query_tooltip = ps_flame_graph_query_tooltip;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL,
                         PS_TYPE_CALL_TREE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* A PsCallValue */
  properties[PROP_VALUE] =
    g_param_spec_uint ("value", NULL, NULL,
                       0, PS_N_CALL_VALUES - 1, PS_CALL_VALUE_ELAPSED_INCLUSIVE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_BY] =
    g_param_spec_enum ("color-by", NULL, NULL,
                       PS_TYPE_FLAME_GRAPH_COLOR_BY, PS_FLAME_GRAPH_COLOR_BY_MODULE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASELINE] =
    g_param_spec_object ("baseline", NULL, NULL,
                         PS_TYPE_CALL_TREE_DIFF,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DIFF_BY] =
    g_param_spec_enum ("diff-by", NULL, NULL,
                       PS_TYPE_FLAME_GRAPH_DIFF_BY, PS_FLAME_GRAPH_DIFF_BY_SELF,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* In percentage points */
  properties[PROP_DIFF_THRESHOLD] =
    g_param_spec_double ("diff-threshold", NULL, NULL,
                         0, 100, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The function of a frame clicked or entered (not for the root) */
  signals[FRAME_ACTIVATED] =
    g_signal_new ("frame-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "flame.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "flame.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "flame.zoom-reset", NULL, zoom_reset_action);
  gtk_widget_class_install_action (widget_class, "flame.focus-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "flame.merge-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "flame.collapse-recursion", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "flame.undo-transform", NULL, undo_transform_action);
  gtk_widget_class_install_action (widget_class, "flame.reset-transforms", NULL, reset_transforms_action);
  gtk_widget_class_install_action (widget_class, "flame.menu", NULL, menu_action);
  gtk_widget_class_install_action (widget_class, "flame.move", "i", move_action);
  ps_picture_export_install_action (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "flame.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "flame.undo-transform", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "flame.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "flame.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "flame.move", "i", MOVE_UP);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "flame.move", "i", MOVE_DOWN);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "flame.move", "i", MOVE_LEFT);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "flame.move", "i", MOVE_RIGHT);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  /* A group: the breadcrumbs and the drop-downs are inside it */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
value_selected_cb (PsFlameGraph *self,
                   GParamSpec   *pspec,
                   GtkDropDown  *dropdown)
{
  ps_flame_graph_set_value (self, gtk_drop_down_get_selected (dropdown));
}

static void
color_selected_cb (PsFlameGraph *self,
                   GParamSpec   *pspec,
                   GtkDropDown  *dropdown)
{
  ps_flame_graph_set_color_by (self, gtk_drop_down_get_selected (dropdown));
}

static void
diff_by_selected_cb (PsFlameGraph *self,
                     GParamSpec   *pspec,
                     GtkDropDown  *dropdown)
{
  ps_flame_graph_set_diff_by (self, gtk_drop_down_get_selected (dropdown));
}

static void
ps_flame_graph_init (PsFlameGraph *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();
  const char *value_names[PS_N_CALL_VALUES + 1] = { NULL };
  const char *color_names[] = { _("Colour by module"), _("Colour by exclusive time"), NULL };
  const char *diff_names[] = { _("Change in exclusive time"), _("Change in inclusive time"), NULL };
  GtkWidget *spacer;

  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    value_names[v] = value_title (v);
  self->value = PS_CALL_VALUE_ELAPSED_INCLUSIVE;
  self->color_by = PS_FLAME_GRAPH_COLOR_BY_MODULE;
  self->sync_base_nodes = SYNC_BASE_NODES;
  self->diff_by = PS_FLAME_GRAPH_DIFF_BY_SELF;
  self->diff_threshold = 1.0;
  self->transforms = g_array_new (FALSE, FALSE, sizeof (Transform));
  self->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  self->layout_width = -1;
  self->zoom_node = 0;
  self->focus_node = NO_NODE;
  self->marked_function = PS_NONE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  ps_view_tooltip_follows_pointer (GTK_WIDGET (self));
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_changed_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  /* The breadcrumb bar: the frames above the one zoomed into, and the
   * transforms */
  self->crumbs = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->crumbs, "flame-breadcrumbs");
  gtk_widget_set_margin_start (self->crumbs, 6);
  gtk_widget_set_margin_end (self->crumbs, 6);
  gtk_widget_set_margin_top (self->crumbs, 3);
  gtk_widget_set_margin_bottom (self->crumbs, 3);
  self->crumb_buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_box_append (GTK_BOX (self->crumbs), self->crumb_buttons);
  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (self->crumbs), spacer);
  self->transform_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->transform_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->transform_label, "dim-label");
  gtk_box_append (GTK_BOX (self->crumbs), self->transform_label);
  self->undo_button = gtk_button_new_with_label (_("Undo Transform"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->undo_button), "flame.undo-transform");
  gtk_widget_set_tooltip_text (self->undo_button, _("Undo the last transform (Ctrl+Z)"));
  gtk_box_append (GTK_BOX (self->crumbs), self->undo_button);
  self->reset_button = gtk_button_new_with_label (_("Reset Transforms"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->reset_button), "flame.reset-transforms");
  gtk_widget_set_tooltip_text (self->reset_button, _("Show the call tree as recorded"));
  gtk_box_append (GTK_BOX (self->crumbs), self->reset_button);
  self->value_dropdown = gtk_drop_down_new_from_strings (value_names);
  gtk_widget_set_tooltip_text (self->value_dropdown, _("What the width of a frame shows; an exclusive value also counts the callees’ exclusive values, so that they fit inside"));
  ps_accessible_name_drop_down (GTK_DROP_DOWN (self->value_dropdown), _("Frame width"));
  g_signal_connect_swapped (self->value_dropdown, "notify::selected", G_CALLBACK (value_selected_cb), self);
  gtk_box_append (GTK_BOX (self->crumbs), self->value_dropdown);
  self->color_dropdown = gtk_drop_down_new_from_strings (color_names);
  gtk_widget_set_tooltip_text (self->color_dropdown, _("A warm colour per module, or from pale (calls others) to red (all its time exclusive)"));
  ps_accessible_name_drop_down (GTK_DROP_DOWN (self->color_dropdown), _("Frame colour"));
  g_signal_connect_swapped (self->color_dropdown, "notify::selected", G_CALLBACK (color_selected_cb), self);
  gtk_box_append (GTK_BOX (self->crumbs), self->color_dropdown);
  self->diff_dropdown = gtk_drop_down_new_from_strings (diff_names);
  gtk_widget_set_tooltip_text (self->diff_dropdown, _("Colour each frame by the change of its own or of its total share of the run, from the baseline (A) to this run (B): red for more, blue for less"));
  ps_accessible_name_drop_down (GTK_DROP_DOWN (self->diff_dropdown), _("Compare by"));
  g_signal_connect_swapped (self->diff_dropdown, "notify::selected", G_CALLBACK (diff_by_selected_cb), self);
  gtk_box_append (GTK_BOX (self->crumbs), self->diff_dropdown);
  gtk_widget_set_visible (self->diff_dropdown, FALSE);
  gtk_widget_set_parent (self->crumbs, GTK_WIDGET (self));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame graph of the calls"),
                                  -1);
  update_crumbs (self);
  update_actions (self);
}

/* --- Public API ------------------------------------------------------------ */

GtkWidget *
ps_flame_graph_new (void)
{
  return g_object_new (PS_TYPE_FLAME_GRAPH, NULL);
}

PsCallTree *
ps_flame_graph_get_tree (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), NULL);
  return self->tree;
}

static void
update_matches (PsFlameGraph *self)
{
  g_clear_pointer (&self->matches, g_free);
  if (self->tree == NULL || self->search_text == NULL)
    return;

  self->matches = g_new0 (guint8, ps_call_tree_get_n_functions (self->tree));
  for (guint32 f = 0; f < ps_call_tree_get_n_functions (self->tree); f++)
    {
      g_autofree char *name = g_utf8_casefold (ps_call_tree_get_function_name (self->tree, f), -1);

      self->matches[f] = strstr (name, self->search_text) != NULL;
    }
}

static void tree_changed (PsFlameGraph *self);

typedef struct
{
  PsCallTree     *tree;
  PsCallTreeDiff *diff;
} BaseJob;

static void
base_job_free (gpointer data)
{
  BaseJob *job = data;

  g_object_unref (job->tree);
  g_clear_object (&job->diff);
  g_free (job);
}

/* The tree and the diff are not changed once made, and their lazily made
 * parts are made thread-safely, so a worker may read them */
static void
build_base_thread (GTask        *task,
                   gpointer      source,
                   gpointer      data,
                   GCancellable *cancellable)
{
  BaseJob *job = data;

  g_task_return_pointer (task, build_base (job->tree, job->diff), (GDestroyNotify)g_array_unref);
}

static void
base_built_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (source);
  GArray *base = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Cancelled: the tree changed meanwhile, or the widget went away */
  if (g_task_get_cancellable (G_TASK (result)) != self->base_cancellable)
    {
      g_clear_pointer (&base, g_array_unref);
      return;
    }
  g_clear_object (&self->base_cancellable);
  self->base = base;
  tree_changed (self);
}

/* The tree or the baseline changed: copy the tree again, keeping the
 * transforms; a big tree in a worker, drawn when its copy is done */
static void
rebuild_base (PsFlameGraph *self)
{
  g_cancellable_cancel (self->base_cancellable);
  g_clear_object (&self->base_cancellable);
  g_clear_pointer (&self->base, g_array_unref);
  if (self->tree != NULL && ps_call_tree_has_top_down (self->tree))
    {
      if (ps_call_tree_get_n_nodes (self->tree) <= self->sync_base_nodes)
        self->base = build_base (self->tree, self->diff);
      else
        {
          BaseJob *job = g_new0 (BaseJob, 1);
          g_autoptr(GTask) task = NULL;

          job->tree = g_object_ref (self->tree);
          job->diff = self->diff != NULL ? g_object_ref (self->diff) : NULL;
          self->base_cancellable = g_cancellable_new ();
          task = g_task_new (self, self->base_cancellable, base_built_cb, NULL);
          g_task_set_source_tag (task, rebuild_base);
          g_task_set_task_data (task, job, base_job_free);
          g_task_run_in_thread (task, build_base_thread);
        }
    }
  tree_changed (self);
}

gboolean
_ps_flame_graph_is_laying_out (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), FALSE);
  return self->base_cancellable != NULL;
}

void
_ps_flame_graph_set_sync_limit (PsFlameGraph *self,
                                guint32       n_nodes)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  self->sync_base_nodes = n_nodes;
}

/* A differential graph offers self or total instead of the normal colours */
static void
update_diff_controls (PsFlameGraph *self)
{
  gtk_widget_set_visible (self->color_dropdown, self->diff == NULL);
  gtk_widget_set_visible (self->diff_dropdown, self->diff != NULL);
}

/* The transforms changed: derive the tree again from the base */
static void
tree_changed (PsFlameGraph *self)
{
  self->diff_scale = 0;
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->summary, g_free);
  if (self->base != NULL)
    {
      self->nodes = g_array_ref (self->base);
      for (guint i = 0; i < self->transforms->len; i++)
        {
          GArray *derived = apply_transform (self->nodes, &g_array_index (self->transforms, Transform, i));

          g_array_unref (self->nodes);
          self->nodes = derived;
        }
    }

  self->zoom_node = 0;
  self->focus_node = NO_NODE;
  if (self->nodes != NULL && gtk_widget_has_focus (GTK_WIDGET (self)))
    self->focus_node = 0;
  count_rows (self);
  update_crumbs (self);
  update_actions (self);
  update_accessible (self);
  invalidate_layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ps_flame_graph_set_tree (PsFlameGraph *self,
                         PsCallTree   *tree)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (tree == NULL || PS_IS_CALL_TREE (tree));

  if (!g_set_object (&self->tree, tree))
    return;

  if (self->diff != NULL && ps_call_tree_diff_get_b (self->diff) != tree)
    {
      g_clear_object (&self->diff);
      update_diff_controls (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
    }
  g_array_set_size (self->transforms, 0);
  update_matches (self);
  rebuild_base (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

void
ps_flame_graph_set_baseline (PsFlameGraph   *self,
                             PsCallTreeDiff *diff)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (diff == NULL || PS_IS_CALL_TREE_DIFF (diff));

  if (!g_set_object (&self->diff, diff))
    return;

  if (diff != NULL && ps_call_tree_diff_get_b (diff) != self->tree)
    {
      g_set_object (&self->tree, ps_call_tree_diff_get_b (diff));
      g_array_set_size (self->transforms, 0);
      update_matches (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
    }
  update_diff_controls (self);
  rebuild_base (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
}

PsCallTreeDiff *
ps_flame_graph_get_baseline (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), NULL);
  return self->diff;
}

void
ps_flame_graph_set_baseline_tree (PsFlameGraph *self,
                                  PsCallTree   *baseline)
{
  g_autoptr(PsCallTreeDiff) diff = NULL;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (baseline == NULL || PS_IS_CALL_TREE (baseline));
  g_return_if_fail (baseline == NULL || self->tree != NULL);

  if (baseline != NULL)
    diff = ps_call_tree_diff_new (baseline, self->tree);
  ps_flame_graph_set_baseline (self, diff);
}

PsFlameGraphDiffBy
ps_flame_graph_get_diff_by (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_FLAME_GRAPH_DIFF_BY_SELF);
  return self->diff_by;
}

void
ps_flame_graph_set_diff_by (PsFlameGraph       *self,
                            PsFlameGraphDiffBy  diff_by)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (diff_by <= PS_FLAME_GRAPH_DIFF_BY_TOTAL);

  if (self->diff_by == diff_by)
    return;
  self->diff_by = diff_by;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->diff_dropdown)) != diff_by)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->diff_dropdown), diff_by);
  invalidate_diff_scale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_BY]);
}

double
ps_flame_graph_get_diff_threshold (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), 1.0);
  return self->diff_threshold;
}

void
ps_flame_graph_set_diff_threshold (PsFlameGraph *self,
                                   double        threshold)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (threshold >= 0 && threshold <= 100);

  if (self->diff_threshold == threshold)
    return;
  self->diff_threshold = threshold;
  invalidate_diff_scale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_THRESHOLD]);
}

PsCallValue
ps_flame_graph_get_value (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_CALL_VALUE_ELAPSED_INCLUSIVE);
  return self->value;
}

void
ps_flame_graph_set_value (PsFlameGraph *self,
                          PsCallValue   value)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (value < PS_N_CALL_VALUES);

  if (self->value == value)
    return;
  self->value = value;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->value_dropdown)) != value)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->value_dropdown), value);
  /* The clock of the comparison may have changed */
  self->diff_scale = 0;
  g_clear_pointer (&self->summary, g_free);
  update_accessible (self);
  invalidate_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE]);
}

PsFlameGraphColorBy
ps_flame_graph_get_color_by (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_FLAME_GRAPH_COLOR_BY_MODULE);
  return self->color_by;
}

void
ps_flame_graph_set_color_by (PsFlameGraph        *self,
                             PsFlameGraphColorBy  color_by)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (color_by <= PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE);

  if (self->color_by == color_by)
    return;
  self->color_by = color_by;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->color_dropdown)) != color_by)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->color_dropdown), color_by);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_BY]);
}

/* The basis of the percentages in the tooltips (the call-tree view's) */
void
ps_flame_graph_set_basis (PsFlameGraph *self,
                          PsCallBasis   basis)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  self->basis = basis;
}

void
ps_flame_graph_set_search (PsFlameGraph *self,
                           const char   *text)
{
  g_autofree char *stripped = NULL;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_clear_pointer (&self->search_text, g_free);
  if (*stripped != '\0')
    self->search_text = g_utf8_casefold (stripped, -1);
  update_matches (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_flame_graph_add_transform (PsFlameGraph     *self,
                              PsFlameTransform  transform,
                              guint32           function)
{
  Transform added = { transform, function };

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (transform <= PS_FLAME_TRANSFORM_COLLAPSE_RECURSION);
  g_return_if_fail (self->tree != NULL && function < ps_call_tree_get_n_functions (self->tree));

  g_array_append_val (self->transforms, added);
  tree_changed (self);
}

guint
ps_flame_graph_get_n_transforms (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), 0);
  return self->transforms->len;
}

void
ps_flame_graph_undo_transform (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->transforms->len == 0)
    return;
  g_array_set_size (self->transforms, self->transforms->len - 1);
  tree_changed (self);
}

void
ps_flame_graph_reset_transforms (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->transforms->len == 0)
    return;
  g_array_set_size (self->transforms, 0);
  tree_changed (self);
}

void
ps_flame_graph_zoom_out (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->nodes == NULL || self->zoom_node == 0)
    return;
  set_focus_node (self, self->zoom_node);
  zoom_to (self, node_at (self->nodes, self->zoom_node)->parent);
}

void
ps_flame_graph_zoom_reset (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->nodes == NULL)
    return;
  zoom_to (self, 0);
}

/* --- Tests (ps-flame-graph-private.h) ------------------------------------- */

static guint32
node_by_path (PsFlameGraph  *self,
              const char   **path)
{
  guint32 node = 0;

  if (self->nodes == NULL)
    return NO_NODE;

  for (guint i = 0; path != NULL && path[i] != NULL; i++)
    {
      guint32 child;

      for (child = node_at (self->nodes, node)->first_child; child != NO_NODE;
           child = node_at (self->nodes, child)->next_sibling)
        if (g_strcmp0 (ps_call_tree_get_function_name (self->tree, node_at (self->nodes, child)->function), path[i]) == 0)
          break;
      if (child == NO_NODE)
        return NO_NODE;
      node = child;
    }
  return node;
}

gboolean
_ps_flame_graph_get_frame (PsFlameGraph  *self,
                           int            width,
                           const char   **path,
                           double        *x,
                           double        *y,
                           double        *frame_width,
                           double        *frame_height)
{
  guint32 node = node_by_path (self, path);
  const Frame *frame;

  if (node == NO_NODE || (frame = frame_of_node (self, width, node)) == NULL)
    return FALSE;

  *x = frame->x;
  *y = frames_top (self) + frame->depth * FRAME_HEIGHT;
  *frame_width = frame->width;
  *frame_height = FRAME_HEIGHT;
  return TRUE;
}

char *
_ps_flame_graph_get_tooltip (PsFlameGraph  *self,
                             const char   **path)
{
  guint32 node = node_by_path (self, path);

  return node == NO_NODE ? NULL : node_tooltip_markup (self, node);
}

void
_ps_flame_graph_get_function_color (PsFlameGraph *self,
                                    guint32       function,
                                    GdkRGBA      *color)
{
  GdkRGBA foreground;

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  for (guint32 i = 0; self->nodes != NULL && i < self->nodes->len; i++)
    if (node_at (self->nodes, i)->function == function)
      {
        node_color (self, i, is_dark (&foreground), color);
        return;
      }
  *color = (GdkRGBA) { 0, 0, 0, 0 };
}

void
_ps_flame_graph_click (PsFlameGraph *self,
                       int           width,
                       double        x,
                       double        y)
{
  const Frame *frame = frame_at (self, width, x, y);

  if (frame != NULL)
    activate_node (self, frame->node);
}

static char *
node_path (PsFlameGraph *self,
           guint32       start)
{
  g_autoptr(GString) path = g_string_new (NULL);

  for (guint32 node = start; self->nodes != NULL && node != 0; node = node_at (self->nodes, node)->parent)
    {
      g_string_prepend (path, ps_call_tree_get_function_name (self->tree, node_at (self->nodes, node)->function));
      if (node_at (self->nodes, node)->parent != 0)
        g_string_prepend (path, "/");
    }
  return g_string_free (g_steal_pointer (&path), FALSE);
}

char *
_ps_flame_graph_get_zoom_path (PsFlameGraph *self)
{
  return node_path (self, self->zoom_node);
}

char *
_ps_flame_graph_get_focus_path (PsFlameGraph *self)
{
  return self->focus_node != NO_NODE ? node_path (self, self->focus_node) : NULL;
}

double
_ps_flame_graph_get_node_value (PsFlameGraph  *self,
                                const char   **path,
                                PsCallValue    value)
{
  guint32 node = node_by_path (self, path);

  return node != NO_NODE ? node_at (self->nodes, node)->width[value] : NAN;
}

double
_ps_flame_graph_get_top_sum (PsFlameGraph *self,
                             PsCallValue   value)
{
  double sum = 0;

  if (self->nodes == NULL)
    return NAN;
  for (guint32 child = node_at (self->nodes, 0)->first_child; child != NO_NODE;
       child = node_at (self->nodes, child)->next_sibling)
    sum += node_at (self->nodes, child)->width[value];
  return sum;
}

guint
_ps_flame_graph_get_n_children (PsFlameGraph  *self,
                                const char   **path)
{
  guint32 node = node_by_path (self, path);
  guint n = 0;

  if (node == NO_NODE)
    return 0;
  for (guint32 child = node_at (self->nodes, node)->first_child; child != NO_NODE;
       child = node_at (self->nodes, child)->next_sibling)
    n++;
  return n;
}

int
_ps_flame_graph_get_draw_top (PsFlameGraph *self)
{
  return self->crumbs_height;
}

gboolean
_ps_flame_graph_get_legend_bar (PsFlameGraph *self,
                                int           width,
                                double       *x,
                                double       *y,
                                double       *bar_width,
                                double       *bar_height,
                                double       *scale)
{
  g_autoptr(PangoLayout) layout = NULL;
  LegendGeometry geometry;

  if (self->diff == NULL || self->nodes == NULL)
    return FALSE;

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  legend_geometry (self, layout, width, &geometry);
  *x = geometry.bar_x;
  *y = LEGEND_BAR_Y;
  *bar_width = geometry.bar_width;
  *bar_height = LEGEND_BAR_HEIGHT;
  *scale = get_diff_scale (self);
  return TRUE;
}

void
ps_flame_graph_set_marked_function (PsFlameGraph *self,
                                    guint32       function)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->marked_function == function)
    return;
  self->marked_function = function;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint32
ps_flame_graph_get_marked_function (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_NONE);

  return self->marked_function;
}
