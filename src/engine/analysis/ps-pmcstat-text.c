/* ps-pmcstat-text.c — sampled call stacks as pmcstat -G writes them
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.4.
 *
 * pmcstat's callgraph is inverted: its roots are the functions that held
 * the sampled pc, their children the callers. The samples of each source
 * add up per stack first (ps_folded_sum_stacks ()); each distinct stack
 * then adds its weight along its path from the leaf up, at most `depth`
 * frames.
 */
#include "config.h"

#include <inttypes.h>

#include "ps-export-writer.h"
#include "ps-folded.h"
#include "ps-pmcstat-text.h"
#include "ps-util.h"

typedef struct
{
  guint32 frame;
  guint32 first_child;  /* node index, 0 for none (node 0 is the root) */
  guint32 next_sibling;
  guint64 count;
} Node;

typedef struct
{
  PsEventStore *store;
  GArray       *nodes;     /* Node; node 0 holds the roots */
  GHashTable   *children;  /* (parent << 32 | frame) → node */
} Tree;

static guint
key_hash (gconstpointer key)
{
  guint64 value = *(const guint64 *)key;
  return (guint)(value ^ (value >> 29) ^ (value >> 47)) * 2654435761u;
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return *(const guint64 *)a == *(const guint64 *)b;
}

static guint32
tree_child (Tree    *tree,
            guint32  parent,
            guint32  frame)
{
  guint64 key = (guint64)parent << 32 | frame;
  gpointer found = g_hash_table_lookup (tree->children, &key);
  Node node = { frame, 0, 0, 0 };
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found);

  index = tree->nodes->len;
  node.next_sibling = g_array_index (tree->nodes, Node, parent).first_child;
  g_array_append_val (tree->nodes, node);
  g_array_index (tree->nodes, Node, parent).first_child = index;
  g_hash_table_insert (tree->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index));
  return index;
}

/* The placeholders of pcs no mapping holds have neither module nor address */
static gboolean
frame_is_mapped (PsEventStore *store,
                 guint32       frame_id)
{
  const PsFrame *frame = ps_event_store_get_frame (store, frame_id);
  const char *function = ps_event_store_get_string (store, frame->function);

  return frame->module != 0 || frame->address != 0 || function == NULL || function[0] != '[';
}

static void
append_frame_name (Tree    *tree,
                   guint32  frame_id,
                   GString *out)
{
  const PsFrame *frame = ps_event_store_get_frame (tree->store, frame_id);

  /* pmcstat prints the address of a pc without a symbol; a name is
   * written once per call path, so a long one is cut */
  if (frame->function == 0)
    g_string_append_printf (out, "0x%" PRIx64 "", frame->address);
  else
    ps_util_append_cut_name (out, ps_event_store_get_string (tree->store, frame->function));
}

/* Children by descending count, then by name: the same text every time */
static int
compare_nodes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  Tree *tree = user_data;
  const Node *na = &g_array_index (tree->nodes, Node, *(const guint32 *)a);
  const Node *nb = &g_array_index (tree->nodes, Node, *(const guint32 *)b);
  const PsFrame *fa, *fb;
  int order;

  if (na->count != nb->count)
    return na->count > nb->count ? -1 : 1;
  fa = ps_event_store_get_frame (tree->store, na->frame);
  fb = ps_event_store_get_frame (tree->store, nb->frame);
  /* Names are interned: one name at many addresses is compared by its id,
   * not once per comparison over all its bytes */
  if (fa->function != fb->function)
    {
      order = g_strcmp0 (ps_event_store_get_string (tree->store, fa->function),
                         ps_event_store_get_string (tree->store, fb->function));
      if (order != 0)
        return order;
    }
  return fa->address < fb->address ? -1 : fa->address > fb->address;
}

static GArray *
sorted_children (Tree    *tree,
                 guint32  parent)
{
  GArray *children = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 child = g_array_index (tree->nodes, Node, parent).first_child;
       child != 0;
       child = g_array_index (tree->nodes, Node, child).next_sibling)
    g_array_append_val (children, child);
  g_array_sort_with_data (children, compare_nodes, tree);
  return children;
}

/* One node line and its callers (§8.4 item 3); depth ≤ the frame limit,
 * so the recursion stays shallow */
static void
write_node (Tree           *tree,
            guint32         index,
            guint           level,
            guint64         parent_count,
            guint32        *previous_module,
            PsExportWriter *writer)
{
  const Node *node = &g_array_index (tree->nodes, Node, index);
  const PsFrame *frame = ps_event_store_get_frame (tree->store, node->frame);
  GString *out = ps_export_writer_get_buffer (writer);
  g_autoptr(GArray) children = NULL;
  char count_field[32];
  int length;

  if (ps_export_writer_failed (writer))
    return;

  for (guint i = 0; i < level; i++)
    g_string_append_c (out, ' ');
  if (node->count == parent_count)
    g_string_append (out, "100.0%");
  else
    {
      char percent[G_ASCII_DTOSTR_BUF_SIZE];

      /* "%05.2f": "05.23%", "86.17%" — in the C locale */
      g_ascii_formatd (percent, sizeof percent, "%05.2f", 100.0 * (double)node->count / (double)parent_count);
      g_string_append (out, percent);
      g_string_append_c (out, '%');
    }
  g_string_append_c (out, ' ');
  length = g_snprintf (count_field, sizeof count_field, " [%" PRIu64 "] ", node->count);
  g_string_append (out, count_field);
  for (int i = length; i < 12; i++)
    g_string_append_c (out, ' ');
  for (guint i = 0; i < level; i++)
    g_string_append_c (out, ' ');
  append_frame_name (tree, node->frame, out);
  if (frame->module != *previous_module && frame->module != 0)
    {
      g_string_append (out, " @ ");
      ps_util_append_cut_name (out, ps_event_store_get_string (tree->store, frame->module));
    }
  *previous_module = frame->module;
  g_string_append_c (out, '\n');
  ps_export_writer_flush_some (writer);

  children = sorted_children (tree, index);
  for (guint i = 0; i < children->len; i++)
    write_node (tree, g_array_index (children, guint32, i), level + 1, node->count, previous_module, writer);
}

static gboolean
sample_of_source (const PsSample *sample,
                  gpointer        user_data)
{
  return sample->source == *(const guint16 *)user_data && sample->stack != 0;
}

/* The block of one sample source; FALSE when it has no samples */
static gboolean
write_source (PsEventStore   *store,
              guint16         source,
              guint           depth,
              PsExportWriter *writer)
{
  g_autoptr(GArray) stacks = ps_folded_sum_stacks (store, FALSE, sample_of_source, &source, NULL);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) roots = NULL;
  Tree tree = { store, NULL, NULL };
  Node root = { 0, 0, 0, 0 };
  guint64 total = 0;

  tree.nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  tree.children = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  g_array_append_val (tree.nodes, root);

  for (guint s = 0; s < stacks->len; s++)
    {
      const PsStackWeight *entry = &g_array_index (stacks, PsStackWeight, s);
      guint32 parent = 0;

      if (entry->weight == 0)
        continue;

      /* From the sampled function up through its callers */
      g_array_set_size (frames, 0);
      for (guint32 id = entry->stack; id != 0 && frames->len < depth; )
        {
          const PsStackNode *node = ps_event_store_get_stack_node (store, id);

          if (frames->len == 0 || frame_is_mapped (store, node->frame))
            g_array_append_val (frames, node->frame);
          if (node->parent >= id)
            break;
          id = node->parent;
        }
      if (!frame_is_mapped (store, g_array_index (frames, guint32, 0)))
        continue;

      total += entry->weight;
      for (guint f = 0; f < frames->len; f++)
        {
          parent = tree_child (&tree, parent, g_array_index (frames, guint32, f));
          g_array_index (tree.nodes, Node, parent).count += entry->weight;
        }
    }

  if (total > 0)
    {
      const PsSampleSource *info = ps_event_store_get_sample_source (store, source);

      g_string_append_printf (ps_export_writer_get_buffer (writer), "@ %s [%" PRIu64 " samples]\n\n",
                              ps_event_store_get_string (store, info->name), total);
      roots = sorted_children (&tree, 0);
      for (guint i = 0; i < roots->len; i++)
        {
          guint32 previous_module = 0;

          write_node (&tree, g_array_index (roots, guint32, i), 0, total, &previous_module, writer);
          g_string_append_c (ps_export_writer_get_buffer (writer), '\n');
        }
    }

  g_array_unref (tree.nodes);
  g_hash_table_unref (tree.children);
  return total > 0;
}

gboolean
ps_pmcstat_text_write (PsEventStore   *store,
                       guint           depth,
                       GOutputStream  *stream,
                       gboolean       *wrote_any,
                       GCancellable   *cancellable,
                       GError        **error)
{
  g_autoptr(PsExportWriter) writer = NULL;
  gboolean any = FALSE;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (depth == 0)
    depth = PS_PMCSTAT_DEFAULT_DEPTH;
  depth = MIN (depth, PS_PMCSTAT_MAX_DEPTH);
  writer = ps_export_writer_new (stream, cancellable);
  for (guint source = 0; source < ps_event_store_get_n_sample_sources (store); source++)
    if (write_source (store, (guint16)source, depth, writer))
      any = TRUE;
  if (wrote_any != NULL)
    *wrote_any = any;
  return ps_export_writer_finish (writer, error);
}

GString *
ps_pmcstat_text_build (PsEventStore *store,
                       guint         depth)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  GMemoryOutputStream *memory = G_MEMORY_OUTPUT_STREAM (stream);

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), g_string_new (NULL));

  /* Writing to memory does not fail */
  ps_pmcstat_text_write (store, depth, stream, NULL, NULL, NULL);
  return g_string_new_len (g_memory_output_stream_get_data (memory),
                           (gssize)g_memory_output_stream_get_data_size (memory));
}
