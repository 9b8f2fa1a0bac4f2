/* ps-call-tree-store.c — the call tree of a store's spans, report rows
 * and samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §2 (collection model); rtl-logfile.md §3
 * (scope names).
 *
 * Spans become calls in the order they began, report rows become given
 * relations and samples become stacks; the builder of
 * ps-call-tree-builder.c does the rest.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-call-tree-private.h"
#include "ps-error.h"
#include "ps-folded.h"

/* ------------------------------------------------------------------------ */
/* Spans, reports and samples of a store                                    */

typedef struct
{
  guint32 span;
  gint64  end_ns;    /* clamped into its parent */
} OpenSpan;

/* The function of a span name, interned once per name */
static guint32
span_function (PsCallTreeBuilder *builder,
               PsEventStore      *store,
               GHashTable        *functions,
               guint32            name)
{
  gpointer known = g_hash_table_lookup (functions, GUINT_TO_POINTER (name));
  const char *text;
  const char *module;
  const char *function_name;
  gsize module_length, function_length;
  g_autofree char *module_copy = NULL;
  g_autofree char *function_copy = NULL;
  guint32 function;

  if (known != NULL)
    return GPOINTER_TO_UINT (known) - 1;

  text = ps_event_store_get_string (store, name);
  function_name = ps_call_tree_function_of_name (text, &function_length);
  module = ps_call_tree_module_of_name (text, &module_length);
  function_copy = g_strndup (function_name, function_length);
  if (module != NULL)
    module_copy = g_strndup (module, module_length);

  function = ps_call_tree_builder_intern_function (builder, function_copy, module_copy);
  g_hash_table_insert (functions, GUINT_TO_POINTER (name), GUINT_TO_POINTER (function + 1));
  return function;
}

static PsCallTree *new_for_spans (PsEventStore  *store,
                                  guint32        track,
                                  PsScopeFilter *filter,
                                  const guint8  *selection,
                                  GCancellable  *cancellable);

PsCallTree *
ps_call_tree_new_for_spans (PsEventStore  *store,
                            guint32        track,
                            PsScopeFilter *filter)
{
  return new_for_spans (store, track, filter, NULL, NULL);
}

/* selection: NULL, or one byte per span of the store; then only the
 * selected spans and what ran inside them count, the selected spans as
 * the top calls. NULL when cancelled. */
static PsCallTree *
new_for_spans (PsEventStore  *store,
               guint32        track,
               PsScopeFilter *filter,
               const guint8  *selection,
               GCancellable  *cancellable)
{
  g_autoptr(PsCallTreeBuilder) builder = NULL;
  g_autofree guint8 *inside = NULL;    /* with a selection: in a selected span */
  g_autoptr(GHashTable) functions = NULL;
  g_autoptr(GPtrArray) stacks = NULL;  /* per track: GArray of OpenSpan */
  g_autofree guint32 *up = NULL;       /* nearest kept ancestor, or PS_NONE */
  g_autofree guint8 *kept = NULL;
  g_autofree gint64 *last_time = NULL;
  guint64 n_spans;
  guint n_tracks;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_spans = ps_event_store_get_n_spans (store);
  n_tracks = ps_event_store_get_n_tracks (store);
  g_return_val_if_fail (n_spans < G_MAXUINT32, NULL);

  builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  call_tree_builder_set_mode (builder, MODE_COMPUTED);
  /* A kept span makes one node at most */
  call_tree_builder_reserve_nodes (builder, (guint32)n_spans + 1);
  functions = g_hash_table_new (NULL, NULL);
  stacks = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  for (guint t = 0; t < n_tracks; t++)
    g_ptr_array_add (stacks, g_array_new (FALSE, FALSE, sizeof (OpenSpan)));
  up = g_new (guint32, n_spans + 1);
  kept = g_new0 (guint8, n_spans + 1);
  if (selection != NULL)
    inside = g_new0 (guint8, n_spans + 1);
  last_time = g_new (gint64, n_tracks + 1);
  for (guint t = 0; t < n_tracks; t++)
    last_time[t] = G_MININT64;

  /* Spans come in the order they began, each after its parent: a span
   * ends every open span of its track above its nearest kept ancestor. */
  for (guint32 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      GArray *stack;
      gint64 begin, end, parent_end;
      OpenSpan open;

      if (ps_util_stop_at (i, cancellable))
        return NULL;

      if (span->parent == PS_NONE || span->parent >= i)
        up[i] = PS_NONE;
      else
        up[i] = kept[span->parent] ? span->parent : up[span->parent];

      if (inside != NULL)
        {
          inside[i] = selection[i] != 0 ||
                      (span->parent != PS_NONE && span->parent < i && inside[span->parent]);
          if (!inside[i])
            continue;
        }
      if (span->track >= n_tracks || (track != PS_NONE && span->track != track))
        continue;
      if (!ps_scope_filter_match_span (filter, store, i))
        continue;
      kept[i] = 1;

      stack = g_ptr_array_index (stacks, span->track);
      while (stack->len > 0 && g_array_index (stack, OpenSpan, stack->len - 1).span != up[i])
        {
          OpenSpan *top = &g_array_index (stack, OpenSpan, stack->len - 1);

          last_time[span->track] = MAX (last_time[span->track], top->end_ns);
          ps_call_tree_builder_leave (builder, span->track, last_time[span->track]);
          g_array_set_size (stack, stack->len - 1);
        }

      /* Times of a thread never go back; a child stays inside its parent */
      parent_end = stack->len > 0 ? g_array_index (stack, OpenSpan, stack->len - 1).end_ns : G_MAXINT64;
      begin = MIN (MAX (span->begin_ns, last_time[span->track]), parent_end);
      end = CLAMP (span->end_ns, begin, parent_end);

      ps_call_tree_builder_enter (builder, span->track, span_function (builder, store, functions, span->name), begin);
      last_time[span->track] = begin;
      open.span = i;
      open.end_ns = end;
      g_array_append_val (stack, open);
    }

  for (guint t = 0; t < n_tracks; t++)
    {
      GArray *stack = g_ptr_array_index (stacks, t);

      for (guint k = stack->len; k-- > 0;)
        {
          last_time[t] = MAX (last_time[t], g_array_index (stack, OpenSpan, k).end_ns);
          ps_call_tree_builder_leave (builder, t, last_time[t]);
        }
    }

  return ps_call_tree_builder_end (g_steal_pointer (&builder));
}

static void
stats_from_report_row (PsCallStats       *stats,
                       const PsReportRow *row,
                       double             factor)
{
  stats->calls = row->has_calls ? row->calls : 0;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      stats->total[v] = row->total[v] * factor;
      stats->min[v] = row->min[v] * factor;
      stats->avg[v] = row->avg[v] * factor;
      stats->max[v] = row->max[v] * factor;
      stats->given_percent[v] = row->percent[v];
    }
}

static guint32
report_function (PsCallTreeBuilder *builder,
                 PsEventStore      *store,
                 guint32            frame_id)
{
  const PsFrame *frame;

  /* A row without a frame (PS_NONE): a function without a name */
  if (frame_id >= ps_event_store_get_n_frames (store))
    return ps_call_tree_builder_intern_function (builder, "", NULL);
  frame = ps_event_store_get_frame (store, frame_id);
  if (frame->function == 0 && frame->module != 0)
    {
      g_autoptr(GString) name = g_string_new (NULL);

      /* An unnamed frame: "module+0xoffset" */
      ps_event_store_append_frame_name (store, frame_id, name);
      return ps_call_tree_builder_intern_function (builder, name->str,
                                                   ps_event_store_get_string (store, frame->module));
    }
  return ps_call_tree_builder_intern_function (builder,
                                               ps_event_store_get_string (store, frame->function),
                                               ps_event_store_get_string (store, frame->module));
}

static PsCallTree *
new_for_report (PsEventStore            *store,
                const PsCallTreeOptions *options)
{
  g_autoptr(PsCallTreeBuilder) builder = NULL;
  g_autofree guint32 *node_of_row = NULL;
  g_autofree guint32 *function_of_row = NULL;
  const char *unit_name = ps_event_store_get_metadata (store, 0, "time_unit");
  PsCallUnit unit = PS_CALL_UNIT_TICKS;
  double factor = 1;
  guint n_rows = ps_event_store_get_n_report_rows (store);

  if (g_strcmp0 (unit_name, "ms") == 0)
    unit = PS_CALL_UNIT_MS;
  else if (g_strcmp0 (unit_name, "samples") == 0)
    unit = PS_CALL_UNIT_SAMPLES;
  else if (g_strcmp0 (unit_name, "ns") == 0)
    unit = PS_CALL_UNIT_NS;

  if (unit == PS_CALL_UNIT_TICKS && options != NULL && options->ticks_per_second > 0)
    {
      factor = 1e9 / options->ticks_per_second;
      unit = PS_CALL_UNIT_NS;
    }

  builder = ps_call_tree_builder_new (unit);
  call_tree_builder_set_mode (builder, MODE_REPORT);
  node_of_row = g_new (guint32, n_rows);
  function_of_row = g_new (guint32, n_rows);

  for (guint32 i = 0; i < n_rows; i++)
    {
      const PsReportRow *row = ps_event_store_get_report_row (store, i);
      guint32 function = report_function (builder, store, row->frame);
      PsCallStats stats;
      guint32 parent;

      node_of_row[i] = PS_NONE;
      function_of_row[i] = PS_NONE;
      stats_from_report_row (&stats, row, factor);

      switch (row->kind)
        {
        case PS_REPORT_ROW_TREE:
          parent = row->parent < i && node_of_row[row->parent] != PS_NONE ? node_of_row[row->parent] : PS_CALL_NODE_ROOT;
          node_of_row[i] = ps_call_tree_builder_add_node (builder, parent, function, &stats);
          break;
        case PS_REPORT_ROW_FUNCTION:
          ps_call_tree_builder_set_function (builder, function, &stats);
          function_of_row[i] = function;
          break;
        case PS_REPORT_ROW_CALLER:
        case PS_REPORT_ROW_CALLEE:
          if (row->parent < i && function_of_row[row->parent] != PS_NONE)
            call_tree_builder_add_relation (builder, function_of_row[row->parent], function,
                                            row->kind == PS_REPORT_ROW_CALLER, &stats);
          break;
        default:
          break;
        }
    }

  return ps_call_tree_builder_end (g_steal_pointer (&builder));
}

static gboolean
sample_counts (const PsSample          *sample,
               guint32                  track,
               const PsCallTreeOptions *options)
{
  if (options == NULL)
    return track == PS_NONE || sample->track == track;
  if (options->tracks != NULL)
    {
      if (sample->track == PS_NONE || !options->tracks[sample->track])
        return FALSE;
    }
  else if (track != PS_NONE && sample->track != track)
    return FALSE;
  if (options->sources != NULL && !options->sources[sample->source])
    return FALSE;
  if (options->time_range && (sample->time_ns < options->begin_ns || sample->time_ns >= options->end_ns))
    return FALSE;
  return TRUE;
}

typedef struct
{
  guint32                  track;
  const PsCallTreeOptions *options;
} SampleSelection;

static gboolean
sample_selected (const PsSample *sample,
                 gpointer        user_data)
{
  const SampleSelection *selection = user_data;

  return sample_counts (sample, selection->track, selection->options);
}

/* Whether a frame has no function name: an offset in a module, or in
 * pmcstat -G text a name that is a hexadecimal address */
static gboolean
frame_is_address (PsEventStore  *store,
                  const PsFrame *frame)
{
  const char *name;

  if (frame->function == 0)
    return TRUE;
  name = ps_event_store_get_string (store, frame->function);
  if (name == NULL || name[0] != '0' || (name[1] != 'x' && name[1] != 'X') || name[2] == '\0')
    return FALSE;
  for (const char *p = name + 2; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

gboolean
ps_call_tree_frame_is_address (PsEventStore *store,
                               guint32       frame)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);

  if (frame >= ps_event_store_get_n_frames (store))
    return FALSE;
  return frame_is_address (store, ps_event_store_get_frame (store, frame));
}

/* The function of a sampled frame; with group_addresses, an address is
 * one of the addresses of its module's function, and *address_plus_one
 * is set to its index + 1 */
static guint32
sample_function (PsCallTreeBuilder *builder,
                 PsEventStore      *store,
                 guint32            frame_id,
                 gboolean           group_addresses,
                 guint32           *address_plus_one)
{
  const PsFrame *frame = ps_event_store_get_frame (store, frame_id);
  const char *module;
  const char *base;
  g_autoptr(GString) name = NULL;
  AddressAcc address = { 0 };
  guint32 function;

  if (!group_addresses || !frame_is_address (store, frame))
    {
      /* An address in no module is named by its value */
      if (frame->function == 0 && frame->module == 0)
        {
          name = g_string_new (NULL);
          ps_event_store_append_frame_name (store, frame_id, name);
          return ps_call_tree_builder_intern_function (builder, name->str, NULL);
        }
      return report_function (builder, store, frame_id);
    }

  module = frame->module != 0 ? ps_event_store_get_string (store, frame->module) : "";
  base = strrchr (module, '/');
  base = base != NULL && base[1] != '\0' ? base + 1 : module;
  /* Addresses in no module are those of the pcs no mapping had */
  function = ps_call_tree_builder_intern_function (builder, base[0] != '\0' ? base : "[unknown]", module);

  name = g_string_new (NULL);
  ps_event_store_append_frame_name (store, frame_id, name);
  if (builder->addresses == NULL)
    builder->addresses = g_array_new (FALSE, FALSE, sizeof (AddressAcc));
  address.function = function;
  address.name = g_string_chunk_insert_const (builder->strings, name->str);
  g_array_append_val (builder->addresses, address);
  *address_plus_one = builder->addresses->len;
  return function;
}

/* Adds a sample's weight to the addresses on its stack (leaf first; 0 for
 * a frame that is no address): inclusive once per sample, exclusive to
 * the sampled one */
static void
add_sample_addresses (PsCallTreeBuilder *builder,
                      const guint32     *addresses,
                      guint              depth,
                      guint64            weight,
                      gboolean           kernel)
{
  gint64 amount = (gint64)MIN (weight, (guint64)G_MAXINT64);

  if (++builder->address_serial == 0)
    {
      for (guint a = 0; a < builder->addresses->len; a++)
        g_array_index (builder->addresses, AddressAcc, a).mark = 0;
      builder->address_serial = 1;
    }

  for (guint i = 0; i < depth; i++)
    {
      AddressAcc *address;

      if (addresses[i] == 0)
        continue;
      address = &g_array_index (builder->addresses, AddressAcc, addresses[i] - 1);
      if (i == 0)
        {
          address->total[ELAPSED_EXCLUSIVE] += amount;
          if (!kernel)
            address->total[APPLICATION_EXCLUSIVE] += amount;
        }
      if (address->mark == builder->address_serial)
        continue;
      address->mark = builder->address_serial;
      address->total[ELAPSED_INCLUSIVE] += amount;
      if (!kernel)
        address->total[APPLICATION_INCLUSIVE] += amount;
    }
}

/* How the tree nodes of sampled stacks are made. While every function
 * has one frame, tree nodes and stack nodes correspond one to one: a
 * stack node without a tree node needs a new one, and the builder's
 * table is made only when that stops. Which nodes are the outermost of
 * their function is told once all are made (call_tree_links_mark_outermost ()). */
typedef struct
{
  gboolean indexed;
  guint8  *function_has_frame;
  guint    function_has_frame_size;
} PathFunctions;

/* A frame got its function */
static void
path_functions_frame (PathFunctions     *path,
                      PsCallTreeBuilder *builder,
                      guint32            function)
{
  if (path->indexed)
    return;
  if (function >= path->function_has_frame_size)
    {
      guint size = MAX (function + 1, path->function_has_frame_size * 2);

      path->function_has_frame = g_renew (guint8, path->function_has_frame, size);
      memset (path->function_has_frame + path->function_has_frame_size, 0, size - path->function_has_frame_size);
      path->function_has_frame_size = size;
    }
  if (path->function_has_frame[function])
    {
      /* Two frames of one function: their nodes below one parent are one */
      call_tree_builder_index_nodes (builder, 1);
      path->indexed = TRUE;
      g_clear_pointer (&path->function_has_frame, g_free);
      return;
    }
  path->function_has_frame[function] = 1;
}

/* The child of node for function, made if new */
static inline guint32
path_functions_child (PathFunctions     *path,
                      PsCallTreeBuilder *builder,
                      guint32            node,
                      guint32            function)
{
  if (path->indexed)
    return call_tree_builder_child (builder, node, function, FALSE);
  return call_tree_builder_append_child (builder, node, function, FALSE);
}

/* With grouped addresses: whether frame, called from the frame above
 * (PS_NONE at the root), is an address of the same module's function as
 * its caller, an address too: one call of the module */
static inline gboolean
continues_caller (const guint32 *address_of_frame,
                  const guint32 *function_of_frame,
                  guint32        frame,
                  guint32        above)
{
  return above != PS_NONE && address_of_frame[frame] != 0 && address_of_frame[above] != 0
         && function_of_frame[above] == function_of_frame[frame];
}

/* The call tree of samples. Stack nodes of the store map to tree nodes (a
 * stack node's tree node is the child of its parent's for its frame's
 * function), so each stack node is looked at once, and a distinct stack
 * adds its weight to one node. With group_addresses, an address whose
 * caller is an address of the same module's function is in its caller's
 * node: consecutive addresses of one module are one call of it. */
static PsCallTree *
new_for_samples_by_node (PsEventStore         *store,
                         const PsStackWeights *weights,
                         gboolean              group_addresses,
                         GCancellable         *cancellable)
{
  g_autoptr(PsCallTreeBuilder) builder = ps_call_tree_builder_new (PS_CALL_UNIT_SAMPLES);
  guint n_frames = ps_event_store_get_n_frames (store);
  guint n_stacks = ps_event_store_get_n_stack_nodes (store);
  /* frame → function + 1, 0 until seen */
  g_autofree guint32 *function_of_frame = g_new0 (guint32, MAX (n_frames, 1));
  /* frame → address + 1, 0 for a named frame */
  g_autofree guint32 *address_of_frame = group_addresses ? g_new0 (guint32, MAX (n_frames, 1)) : NULL;
  /* stack node → tree node + 1, 0 until made */
  g_autofree guint32 *node_of_stack = g_new0 (guint32, MAX (n_stacks, 1));
  g_autoptr(GArray) path_up = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) addresses = g_array_new (FALSE, FALSE, sizeof (guint32));
  PathFunctions path = { FALSE, NULL, 0 };
  PsStackWeightsIter iter;
  PsStackWeight entry;
  PsCallTree *tree = NULL;

  call_tree_builder_set_mode (builder, MODE_COMPUTED);
  /* A stack node makes one tree node at most */
  call_tree_builder_reserve_nodes (builder, n_stacks + 1);

  ps_stack_weights_iter_init (&iter, weights);
  for (guint64 w = 0; ps_stack_weights_iter_next (&iter, &entry); w++)
    {
      guint32 id = entry.stack;
      guint32 node = PS_CALL_NODE_ROOT;
      guint32 above = PS_NONE;  /* the frame of the node above the path, if any */

      if (ps_util_stop_at (w + 1, cancellable))
        goto out;

      /* Up to the nearest stack node that has its tree node; functions
       * are made leaf first, as a walk from the sampled frame meets them */
      g_array_set_size (path_up, 0);
      while (id != 0 && id < n_stacks && node_of_stack[id] == 0)
        {
          const PsStackNode *stack_node = ps_event_store_get_stack_node (store, id);

          if (stack_node->frame >= n_frames)
            break;
          if (function_of_frame[stack_node->frame] == 0)
            {
              guint32 function = sample_function (builder, store, stack_node->frame, group_addresses,
                                                  group_addresses ? &address_of_frame[stack_node->frame] : NULL);

              function_of_frame[stack_node->frame] = function + 1;
              path_functions_frame (&path, builder, function);
            }
          g_array_append_val (path_up, id);
          /* Parents have smaller ids; anything else would loop */
          if (stack_node->parent >= id)
            {
              id = 0;
              break;
            }
          id = stack_node->parent;
        }
      /* A broken chain of stack nodes starts at the root where it broke */
      if (id != 0 && id < n_stacks && node_of_stack[id] != 0)
        {
          node = node_of_stack[id] - 1;
          above = ps_event_store_get_stack_node (store, id)->frame;
        }

      for (guint i = path_up->len; i > 0; i--)
        {
          guint32 up = g_array_index (path_up, guint32, i - 1);
          guint32 frame = ps_event_store_get_stack_node (store, up)->frame;

          if (!group_addresses || !continues_caller (address_of_frame, function_of_frame, frame, above))
            node = path_functions_child (&path, builder, node, function_of_frame[frame] - 1);
          node_of_stack[up] = node + 1;
          above = frame;
        }

      if (node != PS_CALL_NODE_ROOT)
        call_tree_builder_add_sample_at_node (builder, node, entry.weight, entry.kernel != 0);

      /* The addresses' own values: every stack node of the sample has its
       * function (and address) by now */
      if (group_addresses && builder->addresses != NULL)
        {
          gboolean has_address = FALSE;

          g_array_set_size (addresses, 0);
          for (id = entry.stack; id != 0 && id < n_stacks;)
            {
              const PsStackNode *stack_node = ps_event_store_get_stack_node (store, id);

              if (stack_node->frame >= n_frames)
                break;
              g_array_append_val (addresses, address_of_frame[stack_node->frame]);
              has_address |= address_of_frame[stack_node->frame] != 0;
              if (stack_node->parent >= id)
                break;
              id = stack_node->parent;
            }
          if (has_address)
            add_sample_addresses (builder, (const guint32 *)(gpointer)addresses->data, addresses->len,
                                  entry.weight, entry.kernel != 0);
        }
    }

  call_tree_links_make_children ((const NodeLink *)(gpointer)builder->links->data, builder->links->len,
                                 &builder->child_offsets, &builder->children);
  call_tree_links_mark_outermost ((NodeLink *)(gpointer)builder->links->data, builder->function_keys->len,
                                  builder->child_offsets, builder->children);
  call_tree_builder_sum_sampled_nodes (builder);
  tree = ps_call_tree_builder_end (g_steal_pointer (&builder));

out:
  g_free (path.function_has_frame);
  return tree;
}

/* Samples with the same stack and mode add up first: a profile has far
 * fewer distinct stacks than samples, and each stack is walked once. */
static PsCallTree *
new_for_samples (PsEventStore            *store,
                 guint32                  track,
                 const PsCallTreeOptions *options)
{
  GCancellable *cancellable = options != NULL ? options->cancellable : NULL;
  SampleSelection selection = { track, options };
  g_autoptr(PsStackWeights) weights = NULL;

  /* In stack order: the same result whatever the sample order */
  weights = ps_stack_weights_new (store, TRUE, sample_selected, &selection, cancellable);
  if (weights == NULL)
    return NULL;
  return new_for_samples_by_node (store, weights, options != NULL && options->group_addresses, cancellable);
}

PsCallTree *
ps_call_tree_new_for_store (PsEventStore            *store,
                            const PsCallTreeOptions *options,
                            GError                 **error)
{
  guint32 track = options != NULL ? options->track : PS_NONE;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (ps_event_store_get_n_report_rows (store) > 0)
    return new_for_report (store, options);
  if (ps_event_store_get_n_samples (store) > 0)
    {
      PsCallTree *tree = new_for_samples (store, track, options);

      if (tree == NULL)
        g_cancellable_set_error_if_cancelled (options != NULL ? options->cancellable : NULL, error);
      return tree;
    }
  if (ps_event_store_get_n_spans (store) > 0)
    {
      GCancellable *cancellable = options != NULL ? options->cancellable : NULL;
      PsCallTree *tree = new_for_spans (store, track, options != NULL ? options->filter : NULL,
                                        options != NULL ? options->span_selection : NULL, cancellable);

      if (tree == NULL)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      return tree;
    }

  g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                       _("The run has no call stacks: no profiler report, scopes or samples"));
  return NULL;
}
