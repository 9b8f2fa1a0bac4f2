/* ps-call-tree.c — call trees with the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §2 (collection model), §3 (the four values,
 * recursion), §4 (percentages); rtl-logfile.md §3 (scope names).
 *
 * Building is O(1) amortised per probe. Each thread keeps running totals of
 * its elapsed and application time; a call records them when it enters, so
 * its inclusive values when it leaves are the totals now minus those at
 * entry, and an interval only touches the top of the stack (its exclusive
 * values). Top-down nodes are found by (parent node, function) in an open
 * addressing table. Nothing here recurses: trees are walked with explicit
 * stacks, and a node's parent always has a smaller id than the node.
 *
 * Computed trees keep compact integer accumulators per node (calls, and
 * total, min and max of the four values) and turn them into PsCallStats a
 * chunk of nodes at a time when they are first read; the bottom-up tree is
 * grown one node's children at a time under a mutex.
 *
 * This file holds the tree object and what it is read through;
 * ps-call-tree-builder.c builds the top-down tree, and
 * ps-call-tree-store.c feeds the builder from a store's spans, reports
 * and samples.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-call-tree-private.h"
#include "ps-error.h"
#include "ps-folded.h"

G_DEFINE_FINAL_TYPE (PsCallTree, ps_call_tree, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* Sums of stats                                                            */

void
call_tree_stats_clear (PsCallStats *stats)
{
  memset (stats, 0, sizeof *stats);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    stats->given_percent[v] = NAN;
}

void
call_tree_stats_sum_init (StatsSum *sum)
{
  memset (sum, 0, sizeof *sum);
  sum->empty = TRUE;
}

static inline gboolean
value_is_inclusive (guint value)
{
  return value == ELAPSED_INCLUSIVE || value == APPLICATION_INCLUSIVE;
}


/* Adds calls, exclusive values and per-call extremes of part, and its
 * inclusive values when with_inclusive (the outermost call of a function) */
void
call_tree_stats_sum_add (StatsSum          *sum,
                         const PsCallStats *part,
                         gboolean           with_inclusive)
{
  sum->stats.calls += part->calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      if (with_inclusive || !value_is_inclusive (v))
        {
          sum->stats.total[v] += effective_total (part, v);
          sum->stats.given_percent[v] += part->given_percent[v];
        }

      if (sum->empty)
        {
          sum->stats.min[v] = part->min[v];
          sum->stats.max[v] = part->max[v];
        }
      else
        {
          /* A column a report did not have stays absent */
          sum->stats.min[v] = isnan (part->min[v]) ? NAN : MIN (sum->stats.min[v], part->min[v]);
          sum->stats.max[v] = isnan (part->max[v]) ? NAN : MAX (sum->stats.max[v], part->max[v]);
        }
    }
  sum->empty = FALSE;
}

void
call_tree_stats_sum_finish (StatsSum    *sum,
                            PsCallStats *out)
{
  *out = sum->stats;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      if (out->calls > 0)
        out->avg[v] = out->total[v] / (double)out->calls;
      else
        out->avg[v] = isnan (out->total[v]) ? NAN : 0;
      if (sum->empty)
        out->given_percent[v] = NAN;
    }
}

static void
stats_from_acc (PsCallStats        *stats,
                const CallAcc      *acc,
                const CallExtremes *all_extremes)
{
  const CallExtremes *extremes = acc->extremes != PS_NONE ? &all_extremes[acc->extremes] : NULL;

  stats->calls = acc->calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      stats->total[v] = (double)acc->total[v];
      if (extremes != NULL)
        {
          stats->min[v] = (double)extremes->min[v];
          stats->max[v] = (double)extremes->max[v];
        }
      else if (acc->calls == 1)
        stats->min[v] = stats->max[v] = stats->total[v];
      else
        stats->min[v] = stats->max[v] = 0;
      stats->avg[v] = acc->calls > 0 ? stats->total[v] / (double)acc->calls : 0;
      stats->given_percent[v] = NAN;
    }
}

void
call_tree_stats_from_function_acc (PsCallStats       *stats,
                                   const FunctionAcc *acc)
{
  stats->calls = acc->calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      stats->total[v] = (double)acc->total[v];
      if (acc->calls > 0)
        {
          stats->min[v] = (double)acc->min[v];
          stats->max[v] = (double)acc->max[v];
          stats->avg[v] = stats->total[v] / (double)acc->calls;
        }
      else
        stats->min[v] = stats->max[v] = stats->avg[v] = 0;
      stats->given_percent[v] = NAN;
    }
}

/* ------------------------------------------------------------------------ */
/* Names                                                                    */

/* "module (author) function" (rtl-logfile.md §3: the optional refinement
 * ^(\S+) \(([^)]*)\)(?: (.*))?$). Returns whether name follows it with a
 * non-empty function part. */
static gboolean
split_name (const char  *name,
            gsize       *module_length,
            const char **function)
{
  const char *p = name;
  const char *close;

  while (*p != '\0' && !g_ascii_isspace (*p))
    p++;
  if (p == name || p[0] != ' ' || p[1] != '(')
    return FALSE;

  close = strchr (p + 2, ')');
  if (close == NULL || close[1] != ' ' || close[2] == '\0')
    return FALSE;

  *module_length = p - name;
  *function = close + 2;
  return TRUE;
}

const char *
ps_call_tree_function_of_name (const char *name,
                               gsize      *length)
{
  gsize module_length;
  const char *function;

  g_return_val_if_fail (name != NULL, NULL);

  if (!split_name (name, &module_length, &function))
    function = name;
  if (length != NULL)
    *length = strlen (function);
  return function;
}

const char *
ps_call_tree_module_of_name (const char *name,
                             gsize      *length)
{
  gsize module_length = 0;
  const char *function;

  g_return_val_if_fail (name != NULL, NULL);

  if (!split_name (name, &module_length, &function))
    {
      if (length != NULL)
        *length = 0;
      return NULL;
    }
  if (length != NULL)
    *length = module_length;
  return name;
}

guint
call_tree_function_key_hash (gconstpointer data)
{
  const FunctionKey *key = data;

  return g_str_hash (key->name) * 31 + g_str_hash (key->module);
}

gboolean
call_tree_function_key_equal (gconstpointer a,
                              gconstpointer b)
{
  const FunctionKey *key_a = a;
  const FunctionKey *key_b = b;

  return strcmp (key_a->name, key_b->name) == 0 && strcmp (key_a->module, key_b->module) == 0;
}

/* ------------------------------------------------------------------------ */
/* The tree object                                                          */

static void
ps_call_tree_finalize (GObject *object)
{
  PsCallTree *self = PS_CALL_TREE (object);

  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->functions, g_free);
  g_clear_pointer (&self->function_by_name, g_hash_table_unref);
  g_clear_pointer (&self->function_stats, g_free);
  g_clear_pointer (&self->function_present, g_free);
  g_clear_pointer (&self->links, g_free);
  g_clear_pointer (&self->node_accs, g_free);
  g_clear_pointer (&self->node_extremes, g_free);
  g_clear_pointer (&self->node_given, g_free);
  if (self->node_chunks != NULL)
    for (guint c = 0; c < self->n_node_chunks; c++)
      g_free (self->node_chunks[c]);
  g_clear_pointer (&self->node_chunks, g_free);
  g_clear_pointer (&self->child_offsets, g_free);
  g_clear_pointer (&self->children, g_free);
  g_clear_pointer (&self->outermost_offsets, g_free);
  g_clear_pointer (&self->outermost_nodes, g_free);
  g_clear_pointer (&self->relations, g_free);
  g_clear_pointer (&self->relation_offsets, g_free);
  g_clear_pointer (&self->addresses, g_free);
  g_clear_pointer (&self->address_offsets, g_free);
  g_clear_pointer (&self->address_order, g_free);
  for (guint32 i = 0; i < self->n_callers_nodes; i++)
    g_free (((CallersNode *)g_ptr_array_index (self->callers_chunks, i / CALLERS_CHUNK_SIZE))[i % CALLERS_CHUNK_SIZE].pairs);
  g_clear_pointer (&self->callers_chunks, g_ptr_array_unref);
  g_clear_pointer (&self->callers_stats_chunks, g_ptr_array_unref);
  g_clear_pointer (&self->callers_group_of, g_free);
  g_mutex_clear (&self->callers_mutex);

  G_OBJECT_CLASS (ps_call_tree_parent_class)->finalize (object);
}

static void
ps_call_tree_class_init (PsCallTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_call_tree_finalize;
}

static void
ps_call_tree_init (PsCallTree *self)
{
  g_mutex_init (&self->callers_mutex);
  self->callers_chunks = g_ptr_array_new_with_free_func (g_free);
  self->callers_stats_chunks = g_ptr_array_new_with_free_func (g_free);
}

/* --- Units, bases, values ----------------------------------------------- */

PsCallUnit
ps_call_tree_get_unit (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_CALL_UNIT_NS);
  return self->unit;
}

const char *
ps_call_unit_to_string (PsCallUnit unit)
{
  switch (unit)
    {
    case PS_CALL_UNIT_NS:
      return "ns";
    case PS_CALL_UNIT_SAMPLES:
      return "samples";
    case PS_CALL_UNIT_TICKS:
      return "ticks";
    case PS_CALL_UNIT_MS:
      return "ms";
    default:
      g_return_val_if_reached (NULL);
    }
}

const char *
ps_call_basis_to_string (PsCallBasis basis)
{
  switch (basis)
    {
    case PS_CALL_BASIS_S1:
      return "s1";
    case PS_CALL_BASIS_VIEW:
      return "view";
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
ps_call_basis_from_string (const char  *text,
                           PsCallBasis *basis)
{
  g_return_val_if_fail (text != NULL, FALSE);

  if (g_ascii_strcasecmp (text, "s1") == 0)
    *basis = PS_CALL_BASIS_S1;
  else if (g_ascii_strcasecmp (text, "view") == 0)
    *basis = PS_CALL_BASIS_VIEW;
  else
    return FALSE;
  return TRUE;
}

const char *
ps_call_value_to_string (PsCallValue value)
{
  switch (value)
    {
    case PS_CALL_VALUE_ELAPSED_INCLUSIVE:
      return "elapsed_inclusive";
    case PS_CALL_VALUE_ELAPSED_EXCLUSIVE:
      return "elapsed_exclusive";
    case PS_CALL_VALUE_APPLICATION_INCLUSIVE:
      return "application_inclusive";
    case PS_CALL_VALUE_APPLICATION_EXCLUSIVE:
      return "application_exclusive";
    case PS_N_CALL_VALUES:
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
ps_call_tree_is_report (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), FALSE);
  return self->is_report;
}

gboolean
ps_call_tree_has_os_events (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), FALSE);
  return self->has_os_events;
}

gboolean
ps_call_tree_has_top_down (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), FALSE);
  return self->has_top_down;
}

double
ps_call_tree_get_elapsed_total (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->elapsed_total;
}

double
ps_call_tree_get_application_total (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->application_total;
}

double
ps_call_tree_get_percent (PsCallTree        *self,
                          const PsCallStats *stats,
                          PsCallValue        value,
                          PsCallBasis        basis)
{
  double total;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NAN);
  g_return_val_if_fail (stats != NULL, NAN);
  g_return_val_if_fail (value < PS_N_CALL_VALUES, NAN);

  if (!isnan (stats->given_percent[value]))
    return stats->given_percent[value];

  if (basis == PS_CALL_BASIS_S1
      && (value == APPLICATION_INCLUSIVE || value == APPLICATION_EXCLUSIVE))
    total = self->application_total;
  else
    total = self->elapsed_total;

  if (isnan (stats->total[value]) || isnan (total))
    return NAN;
  if (total == 0)
    return 0;
  return 100.0 * stats->total[value] / total;
}

/* --- Functions ---------------------------------------------------------- */

guint
ps_call_tree_get_n_functions (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->n_functions;
}

const char *
ps_call_tree_get_function_name (PsCallTree *self,
                                guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);
  return self->functions[function].name;
}

const char *
ps_call_tree_get_function_module (PsCallTree *self,
                                  guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);
  return self->functions[function].module;
}

const PsCallStats *
ps_call_tree_get_function_stats (PsCallTree *self,
                                 guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);
  return &self->function_stats[function];
}

guint32
ps_call_tree_lookup_function (PsCallTree *self,
                              const char *name)
{
  gpointer id;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (name != NULL, PS_NONE);

  id = g_hash_table_lookup (self->function_by_name, name);
  return id != NULL ? GPOINTER_TO_UINT (id) - 1 : PS_NONE;
}

/* --- Addresses ---------------------------------------------------------- */

guint
ps_call_tree_get_n_function_addresses (PsCallTree *self,
                                       guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);

  if (self->address_offsets == NULL || function >= self->n_functions)
    return 0;
  return self->address_offsets[function + 1] - self->address_offsets[function];
}

static const AddressAcc *
function_address (PsCallTree *self,
                  guint32     function,
                  guint       index)
{
  if (index >= ps_call_tree_get_n_function_addresses (self, function))
    return NULL;
  return &self->addresses[self->address_order[self->address_offsets[function] + index]];
}

const char *
ps_call_tree_get_function_address_name (PsCallTree *self,
                                        guint32     function,
                                        guint       index)
{
  const AddressAcc *address;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);

  address = function_address (self, function, index);
  g_return_val_if_fail (address != NULL, NULL);
  return address->name;
}

void
ps_call_tree_get_function_address_stats (PsCallTree  *self,
                                         guint32      function,
                                         guint        index,
                                         PsCallStats *stats)
{
  const AddressAcc *address;
  FunctionAcc acc;

  g_return_if_fail (PS_IS_CALL_TREE (self));
  g_return_if_fail (stats != NULL);

  address = function_address (self, function, index);
  call_tree_stats_clear (stats);
  g_return_if_fail (address != NULL);

  /* Sampled: no calls, so no per-call values */
  function_acc_init (&acc);
  memcpy (acc.total, address->total, sizeof acc.total);
  call_tree_stats_from_function_acc (stats, &acc);
}

/* --- Top-down tree ------------------------------------------------------- */

guint
ps_call_tree_get_n_nodes (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->n_nodes;
}

guint
ps_call_tree_get_n_children (PsCallTree *self,
                             guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->child_offsets[node + 1] - self->child_offsets[node];
}

guint32
ps_call_tree_get_child (PsCallTree *self,
                        guint32     node,
                        guint       index)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (node < self->n_nodes, PS_NONE);
  g_return_val_if_fail (index < self->child_offsets[node + 1] - self->child_offsets[node], PS_NONE);
  return self->children[self->child_offsets[node] + index];
}

guint32
ps_call_tree_get_parent (PsCallTree *self,
                         guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (node < self->n_nodes, PS_NONE);
  return self->links[node].parent;
}

guint32
ps_call_tree_get_node_function (PsCallTree *self,
                                guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (node < self->n_nodes, PS_NONE);
  return self->links[node].function;
}

guint
ps_call_tree_get_node_depth (PsCallTree *self,
                             guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->links[node].depth;
}

/* Computed trees make the stats of a chunk of nodes when one of them is
 * first read; two threads may race to make it, the first one wins. */
static const PsCallStats *
tree_node_stats (PsCallTree *self,
                 guint32     node)
{
  guint c;
  PsCallStats *chunk;

  if (node == PS_CALL_NODE_ROOT)
    return &self->root_stats;
  if (self->node_given != NULL)
    return &self->node_given[node];

  c = node / STATS_CHUNK_SIZE;
  chunk = g_atomic_pointer_get (&self->node_chunks[c]);
  if (chunk == NULL)
    {
      guint32 first = c * STATS_CHUNK_SIZE;
      guint32 n = MIN (STATS_CHUNK_SIZE, self->n_nodes - first);
      PsCallStats *made = g_new (PsCallStats, n);

      for (guint32 i = 0; i < n; i++)
        stats_from_acc (&made[i], &self->node_accs[first + i], self->node_extremes);

      if (g_atomic_pointer_compare_and_exchange (&self->node_chunks[c], NULL, made))
        chunk = made;
      else
        {
          g_free (made);
          chunk = g_atomic_pointer_get (&self->node_chunks[c]);
        }
    }

  return &chunk[node % STATS_CHUNK_SIZE];
}

const PsCallStats *
ps_call_tree_get_node_stats (PsCallTree *self,
                             guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);
  return tree_node_stats (self, node);
}

void
ps_call_tree_copy_node_stats (PsCallTree  *self,
                              guint32      node,
                              PsCallStats *stats)
{
  const PsCallStats *chunk;

  g_return_if_fail (PS_IS_CALL_TREE (self));
  g_return_if_fail (node < self->n_nodes);
  g_return_if_fail (stats != NULL);

  if (node == PS_CALL_NODE_ROOT || self->node_given != NULL)
    {
      *stats = *tree_node_stats (self, node);
      return;
    }
  /* Made already: the same values */
  chunk = g_atomic_pointer_get (&self->node_chunks[node / STATS_CHUNK_SIZE]);
  if (chunk != NULL)
    *stats = chunk[node % STATS_CHUNK_SIZE];
  else
    stats_from_acc (stats, &self->node_accs[node], self->node_extremes);
}

/* The outermost top-down nodes of every function, in node order */
static void
tree_ensure_outermost_index (PsCallTree *self)
{
  if (g_once_init_enter (&self->outermost_once))
    {
      guint32 *offsets = g_new0 (guint32, (gsize)self->n_functions + 1);
      guint32 *nodes;
      guint32 n_outermost = 0;
      g_autofree guint32 *cursor = NULL;

      for (guint32 n = 1; n < self->n_nodes; n++)
        if (self->links[n].flags & NODE_FLAG_OUTERMOST)
          {
            offsets[self->links[n].function + 1]++;
            n_outermost++;
          }
      for (guint f = 0; f < self->n_functions; f++)
        offsets[f + 1] += offsets[f];

      nodes = g_new (guint32, MAX (n_outermost, 1));
      cursor = g_memdup2 (offsets, sizeof (guint32) * (self->n_functions + 1));
      for (guint32 n = 1; n < self->n_nodes; n++)
        if (self->links[n].flags & NODE_FLAG_OUTERMOST)
          nodes[cursor[self->links[n].function]++] = n;

      self->outermost_offsets = offsets;
      self->outermost_nodes = nodes;
      g_once_init_leave (&self->outermost_once, 1);
    }
}

/* --- Callers and callees ------------------------------------------------ */

static int
compare_relations (gconstpointer a,
                   gconstpointer b)
{
  double value_a = effective_total (&((const PsCallRelation *)a)->stats, ELAPSED_INCLUSIVE);
  double value_b = effective_total (&((const PsCallRelation *)b)->stats, ELAPSED_INCLUSIVE);

  /* Largest first, absent values last */
  if (isnan (value_a) || isnan (value_b))
    return !!isnan (value_a) - !!isnan (value_b);
  return (value_a < value_b) - (value_a > value_b);
}

/* Groups the stats of top-down nodes by a function */
typedef struct
{
  GHashTable *index;   /* function → position + 1 */
  GArray     *keys;    /* guint32 */
  GArray     *sums;    /* StatsSum */
} RelationGroups;

static void
relation_groups_init (RelationGroups *groups)
{
  groups->index = g_hash_table_new (NULL, NULL);
  groups->keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  groups->sums = g_array_new (FALSE, FALSE, sizeof (StatsSum));
}

static void
relation_groups_add (RelationGroups    *groups,
                     guint32            function,
                     const PsCallStats *stats)
{
  gpointer found = g_hash_table_lookup (groups->index, GUINT_TO_POINTER (function));
  guint position;

  if (found == NULL)
    {
      StatsSum sum;

      call_tree_stats_sum_init (&sum);
      position = groups->keys->len;
      g_array_append_val (groups->keys, function);
      g_array_append_val (groups->sums, sum);
      g_hash_table_insert (groups->index, GUINT_TO_POINTER (function), GUINT_TO_POINTER (position + 1));
    }
  else
    position = GPOINTER_TO_UINT (found) - 1;

  call_tree_stats_sum_add (&g_array_index (groups->sums, StatsSum, position), stats, TRUE);
}

static GArray *
relation_groups_finish (RelationGroups *groups)
{
  GArray *result = g_array_sized_new (FALSE, FALSE, sizeof (PsCallRelation), groups->keys->len);

  for (guint i = 0; i < groups->keys->len; i++)
    {
      PsCallRelation relation;

      relation.function = g_array_index (groups->keys, guint32, i);
      call_tree_stats_sum_finish (&g_array_index (groups->sums, StatsSum, i), &relation.stats);
      g_array_append_val (result, relation);
    }

  g_hash_table_unref (groups->index);
  g_array_unref (groups->keys);
  g_array_unref (groups->sums);
  g_array_sort (result, compare_relations);
  return result;
}

static GArray *
given_relations (PsCallTree *self,
                 guint32     function,
                 gboolean    callers)
{
  GArray *result = g_array_new (FALSE, FALSE, sizeof (PsCallRelation));

  for (guint32 i = self->relation_offsets[function]; i < self->relation_offsets[function + 1]; i++)
    {
      const GivenRelation *given = &self->relations[i];
      PsCallRelation relation;

      if (given->is_caller != callers)
        continue;
      relation.function = given->other;
      relation.stats = given->stats;
      g_array_append_val (result, relation);
    }

  g_array_sort (result, compare_relations);
  return result;
}

GArray *
ps_call_tree_get_callers (PsCallTree *self,
                          guint32     function)
{
  RelationGroups groups;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  if (self->has_given_relations)
    return given_relations (self, function, TRUE);

  tree_ensure_outermost_index (self);
  relation_groups_init (&groups);
  if (self->has_top_down)
    for (guint32 i = self->outermost_offsets[function]; i < self->outermost_offsets[function + 1]; i++)
      {
        guint32 node = self->outermost_nodes[i];
        guint32 parent = self->links[node].parent;

        relation_groups_add (&groups,
                             parent == PS_CALL_NODE_ROOT ? PS_NONE : self->links[parent].function,
                             tree_node_stats (self, node));
      }

  return relation_groups_finish (&groups);
}

GArray *
ps_call_tree_get_callees (PsCallTree *self,
                          guint32     function)
{
  RelationGroups groups;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  if (self->has_given_relations)
    return given_relations (self, function, FALSE);

  tree_ensure_outermost_index (self);
  relation_groups_init (&groups);
  if (self->has_top_down)
    for (guint32 i = self->outermost_offsets[function]; i < self->outermost_offsets[function + 1]; i++)
      {
        guint32 node = self->outermost_nodes[i];

        for (guint32 k = self->child_offsets[node]; k < self->child_offsets[node + 1]; k++)
          {
            guint32 child = self->children[k];

            relation_groups_add (&groups, self->links[child].function, tree_node_stats (self, child));
          }
      }

  return relation_groups_finish (&groups);
}

/* --- Bottom-up tree ----------------------------------------------------- */

static inline CallersNode *
callers_node (PsCallTree *self,
              guint32     id)
{
  return &((CallersNode *)g_ptr_array_index (self->callers_chunks, id / CALLERS_CHUNK_SIZE))[id % CALLERS_CHUNK_SIZE];
}

static inline PsCallStats *
callers_stats (PsCallTree *self,
               guint32     id)
{
  return &((PsCallStats *)g_ptr_array_index (self->callers_stats_chunks, id / CALLERS_CHUNK_SIZE))[id % CALLERS_CHUNK_SIZE];
}

/* A new node with consecutive ids for siblings; chunks never move, so
 * pointers to nodes and stats stay valid */
static guint32
callers_node_new (PsCallTree *self,
                  guint32     function)
{
  guint32 id = self->n_callers_nodes;
  CallersNode *node;

  if (id / CALLERS_CHUNK_SIZE >= self->callers_chunks->len)
    {
      g_ptr_array_add (self->callers_chunks, g_new0 (CallersNode, CALLERS_CHUNK_SIZE));
      g_ptr_array_add (self->callers_stats_chunks, g_new0 (PsCallStats, CALLERS_CHUNK_SIZE));
    }
  self->n_callers_nodes++;

  node = callers_node (self, id);
  node->function = function;
  return id;
}

static void
callers_expand_root (PsCallTree  *self,
                     CallersNode *root)
{
  tree_ensure_outermost_index (self);

  root->first_child = self->n_callers_nodes;
  for (guint32 f = 0; f < self->n_functions; f++)
    {
      guint32 id;
      CallersNode *node;
      guint32 first, n;

      if (!self->function_present[f])
        continue;

      id = callers_node_new (self, f);
      node = callers_node (self, id);
      *callers_stats (self, id) = self->function_stats[f];

      first = self->outermost_offsets[f];
      n = self->outermost_offsets[f + 1] - first;
      node->n_pairs = n;
      node->pairs = g_new (guint32, 2 * (gsize)MAX (n, 1));
      for (guint32 i = 0; i < n; i++)
        node->pairs[2 * i] = node->pairs[2 * i + 1] = self->outermost_nodes[first + i];
      root->n_children++;
    }
}

/* The children of a bottom-up node: its pairs grouped by the function of
 * the ancestor's parent, each with the sum of the source nodes' stats */
static void
callers_expand (PsCallTree *self,
                guint32     id)
{
  CallersNode *node = callers_node (self, id);
  g_autoptr(GArray) groups = NULL;   /* guint32 functions, in order first seen */
  g_autoptr(GArray) counts = NULL;   /* guint32 */
  g_autoptr(GArray) sums = NULL;     /* StatsSum */

  if (node->expanded)
    return;
  node->expanded = TRUE;

  if (id == PS_CALL_NODE_ROOT)
    {
      callers_expand_root (self, node);
      return;
    }

  if (self->callers_group_of == NULL)
    {
      self->callers_group_of = g_new (guint32, MAX (self->n_functions, 1));
      memset (self->callers_group_of, 0xff, sizeof (guint32) * MAX (self->n_functions, 1));
    }

  groups = g_array_new (FALSE, FALSE, sizeof (guint32));
  counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  sums = g_array_new (FALSE, FALSE, sizeof (StatsSum));
  for (guint32 i = 0; i < node->n_pairs; i++)
    {
      guint32 ancestor = node->pairs[2 * i + 1];
      guint32 parent = self->links[ancestor].parent;
      guint32 function;
      guint32 group;

      if (parent == PS_CALL_NODE_ROOT || parent == PS_NONE)
        continue;
      function = self->links[parent].function;
      group = self->callers_group_of[function];
      if (group == PS_NONE)
        {
          StatsSum sum;
          guint32 zero = 0;

          call_tree_stats_sum_init (&sum);
          group = self->callers_group_of[function] = groups->len;
          g_array_append_val (groups, function);
          g_array_append_val (counts, zero);
          g_array_append_val (sums, sum);
        }
      g_array_index (counts, guint32, group)++;
      call_tree_stats_sum_add (&g_array_index (sums, StatsSum, group), tree_node_stats (self, node->pairs[2 * i]), TRUE);
    }

  node->first_child = self->n_callers_nodes;
  node->n_children = groups->len;
  for (guint g = 0; g < groups->len; g++)
    {
      guint32 child_id = callers_node_new (self, g_array_index (groups, guint32, g));
      CallersNode *child = callers_node (self, child_id);

      call_tree_stats_sum_finish (&g_array_index (sums, StatsSum, g), callers_stats (self, child_id));
      child->pairs = g_new (guint32, 2 * (gsize)g_array_index (counts, guint32, g));
    }

  for (guint32 i = 0; i < node->n_pairs; i++)
    {
      guint32 ancestor = node->pairs[2 * i + 1];
      guint32 parent = self->links[ancestor].parent;
      CallersNode *child;

      if (parent == PS_CALL_NODE_ROOT || parent == PS_NONE)
        continue;
      child = callers_node (self, node->first_child + self->callers_group_of[self->links[parent].function]);
      child->pairs[2 * child->n_pairs] = node->pairs[2 * i];
      child->pairs[2 * child->n_pairs + 1] = parent;
      child->n_pairs++;
    }

  for (guint g = 0; g < groups->len; g++)
    self->callers_group_of[g_array_index (groups, guint32, g)] = PS_NONE;
  g_clear_pointer (&node->pairs, g_free);
}

guint
ps_call_tree_get_n_callers_children (PsCallTree *self,
                                     guint32     node)
{
  guint n;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);

  g_mutex_lock (&self->callers_mutex);
  if (node >= self->n_callers_nodes)
    {
      g_mutex_unlock (&self->callers_mutex);
      g_return_val_if_reached (0);
    }
  callers_expand (self, node);
  n = callers_node (self, node)->n_children;
  g_mutex_unlock (&self->callers_mutex);

  return n;
}

guint32
ps_call_tree_get_callers_child (PsCallTree *self,
                                guint32     node,
                                guint       index)
{
  CallersNode *parent;
  guint32 child = PS_NONE;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);

  g_mutex_lock (&self->callers_mutex);
  if (node < self->n_callers_nodes)
    {
      callers_expand (self, node);
      parent = callers_node (self, node);
      if (index < parent->n_children)
        child = parent->first_child + index;
    }
  g_mutex_unlock (&self->callers_mutex);

  g_return_val_if_fail (child != PS_NONE, PS_NONE);
  return child;
}

guint32
ps_call_tree_get_callers_node_function (PsCallTree *self,
                                        guint32     node)
{
  guint32 function = PS_NONE;
  gboolean valid;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);

  g_mutex_lock (&self->callers_mutex);
  valid = node < self->n_callers_nodes;
  if (valid)
    function = callers_node (self, node)->function;
  g_mutex_unlock (&self->callers_mutex);

  g_return_val_if_fail (valid, PS_NONE);
  return function;
}

const PsCallStats *
ps_call_tree_get_callers_node_stats (PsCallTree *self,
                                     guint32     node)
{
  const PsCallStats *stats = NULL;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);

  g_mutex_lock (&self->callers_mutex);
  if (node < self->n_callers_nodes)
    stats = callers_stats (self, node);
  g_mutex_unlock (&self->callers_mutex);

  g_return_val_if_fail (stats != NULL, NULL);
  return stats;
}
