/* ps-folded.c — folded call stacks
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs have millions of samples but few distinct stacks: the weights are
 * summed by stack id first (ps_folded_sum_stacks ()), and each distinct
 * stack is turned into text once. The texts are sorted, and equal ones
 * (frames that print alike) merged.
 */
#include "config.h"

#include <inttypes.h>

#include <stdlib.h>
#include <string.h>

#include "ps-folded.h"
#include "ps-util.h"

/* Write to the stream in pieces of about this size */
#define WRITE_CHUNK_SIZE (64 * 1024)

typedef struct
{
  char    *text;
  guint64  weight;
} FoldedLine;

void
ps_folded_append_frame_name (PsEventStore *store,
                             guint32       frame_id,
                             GString      *out)
{
  const PsFrame *frame;
  gsize start;

  g_return_if_fail (PS_IS_EVENT_STORE (store));
  g_return_if_fail (out != NULL);

  frame = ps_event_store_get_frame (store, frame_id);
  g_return_if_fail (frame != NULL);

  /* A function's name is read no further than the cut */
  if (frame->function != 0)
    {
      ps_util_append_cut_name (out, ps_event_store_get_string (store, frame->function));
      return;
    }

  start = out->len;
  ps_event_store_append_frame_name (store, frame_id, out);
  if (out->len - start > PS_UTIL_NAME_MAX_BYTES)
    {
      g_autofree char *whole = g_strndup (out->str + start, out->len - start);

      g_string_truncate (out, start);
      ps_util_append_cut_name (out, whole);
    }
}

void
ps_folded_append_frame (PsEventStore *store,
                        guint32       frame_id,
                        GString      *out)
{
  gsize start;

  g_return_if_fail (PS_IS_EVENT_STORE (store));
  g_return_if_fail (out != NULL);

  if (ps_event_store_get_frame (store, frame_id) == NULL)
    {
      g_string_append (out, "[unknown]");
      return;
    }

  start = out->len;
  ps_folded_append_frame_name (store, frame_id, out);
  /* Characters that would break the line apart */
  for (gsize i = start; i < out->len; i++)
    if (out->str[i] == ';' || out->str[i] == '\n' || out->str[i] == '\r')
      out->str[i] = '_';
}

/* The entry of a sample: its bit, or G_MAXSIZE for none */
static inline gsize
sample_bit (const PsSample     *sample,
            guint               n_nodes,
            guint               n_modes,
            PsSampleFilterFunc  filter,
            gpointer            user_data)
{
  guint32 kernel;

  if (sample->stack >= n_nodes || (filter != NULL && !filter (sample, user_data)))
    return G_MAXSIZE;
  kernel = n_modes == 2 && (sample->flags & PS_SAMPLE_FLAG_KERNEL) != 0;
  return (gsize)sample->stack * n_modes + kernel;
}

/* Two walks over the samples: the first marks the entries that exist,
 * the second adds each sample's weight to its entry, found by counting
 * the bits before its own (a count kept per word of 64 bits, and the
 * word's own bits below). */
PsStackWeights *
ps_stack_weights_new (PsEventStore       *store,
                      gboolean            split_kernel,
                      PsSampleFilterFunc  filter,
                      gpointer            user_data,
                      GCancellable       *cancellable)
{
  g_autoptr(PsStackWeights) weights = NULL;
  g_autofree gsize *before = NULL;  /* bits set in the words before each */
  guint n_nodes;
  guint64 n_samples;
  gsize n_words;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_nodes = ps_event_store_get_n_stack_nodes (store);
  n_samples = ps_event_store_get_n_samples (store);
  weights = g_new0 (PsStackWeights, 1);
  weights->n_modes = split_kernel ? 2 : 1;
  weights->n_bits = (gsize)n_nodes * weights->n_modes;
  n_words = (weights->n_bits + 63) / 64;
  weights->present = g_new0 (guint64, MAX (n_words, 1));

  for (guint64 i = 0; i < n_samples; i++)
    {
      gsize bit;

      if (ps_util_stop_at (i, cancellable))
        return NULL;
      bit = sample_bit (ps_event_store_get_sample (store, i), n_nodes, weights->n_modes, filter, user_data);
      if (bit != G_MAXSIZE)
        weights->present[bit / 64] |= G_GUINT64_CONSTANT (1) << (bit % 64);
    }

  before = g_new (gsize, MAX (n_words, 1));
  for (gsize w = 0; w < n_words; w++)
    {
      before[w] = weights->n_entries;
      weights->n_entries += (gsize)__builtin_popcountll (weights->present[w]);
    }
  weights->weights = g_new0 (guint64, MAX (weights->n_entries, 1));

  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      gsize bit;
      guint64 below;

      if (ps_util_stop_at (i, cancellable))
        return NULL;
      bit = sample_bit (sample, n_nodes, weights->n_modes, filter, user_data);
      if (bit == G_MAXSIZE)
        continue;
      below = weights->present[bit / 64] & ((G_GUINT64_CONSTANT (1) << (bit % 64)) - 1);
      weights->weights[before[bit / 64] + (gsize)__builtin_popcountll (below)] += sample->weight;
    }

  return g_steal_pointer (&weights);
}

void
ps_stack_weights_free (PsStackWeights *weights)
{
  if (weights == NULL)
    return;
  g_free (weights->present);
  g_free (weights->weights);
  g_free (weights);
}

void
ps_stack_weights_iter_init (PsStackWeightsIter   *iter,
                            const PsStackWeights *weights)
{
  g_return_if_fail (iter != NULL && weights != NULL);

  iter->weights = weights;
  iter->word = 0;
  iter->bits = weights->n_bits > 0 ? weights->present[0] : 0;
  iter->entry = 0;
}

gboolean
ps_stack_weights_iter_next (PsStackWeightsIter *iter,
                            PsStackWeight      *entry)
{
  const PsStackWeights *weights = iter->weights;
  gsize n_words = (weights->n_bits + 63) / 64;
  gsize bit;

  while (iter->bits == 0)
    {
      if (++iter->word >= n_words)
        return FALSE;
      iter->bits = weights->present[iter->word];
    }
  bit = iter->word * 64 + (gsize)__builtin_ctzll (iter->bits);
  iter->bits &= iter->bits - 1;

  entry->stack = (guint32)(bit / weights->n_modes);
  entry->kernel = (guint32)(bit % weights->n_modes);
  entry->weight = weights->weights[iter->entry++];
  return TRUE;
}

GArray *
ps_folded_sum_stacks (PsEventStore       *store,
                      gboolean            split_kernel,
                      PsSampleFilterFunc  filter,
                      gpointer            user_data,
                      GCancellable       *cancellable)
{
  g_autoptr(PsStackWeights) weights = NULL;
  PsStackWeightsIter iter;
  PsStackWeight entry;
  GArray *stacks;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  weights = ps_stack_weights_new (store, split_kernel, filter, user_data, cancellable);
  if (weights == NULL)
    return NULL;
  stacks = g_array_sized_new (FALSE, FALSE, sizeof (PsStackWeight), (guint)weights->n_entries);
  ps_stack_weights_iter_init (&iter, weights);
  while (ps_stack_weights_iter_next (&iter, &entry))
    g_array_append_val (stacks, entry);
  return stacks;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (((const FoldedLine *)a)->text, ((const FoldedLine *)b)->text);
}

typedef struct
{
  guint   source;
  guint32 track;
} Selection;

static gboolean
sample_selected (const PsSample *sample,
                 gpointer        user_data)
{
  const Selection *selection = user_data;

  if (sample->stack == 0 || sample->weight == 0)
    return FALSE;
  if (selection->source != PS_FOLDED_ALL_SOURCES && sample->source != selection->source)
    return FALSE;
  return selection->track == PS_NONE || sample->track == selection->track;
}

/* Sorted, merged lines (FoldedLine, texts owned) */
static GArray *
build_lines (PsEventStore *store,
             guint         source,
             guint32       track)
{
  Selection selection = { source, track };
  g_autoptr(GArray) stacks = ps_folded_sum_stacks (store, FALSE, sample_selected, &selection, NULL);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GString) text = g_string_new (NULL);
  GArray *lines = g_array_sized_new (FALSE, FALSE, sizeof (FoldedLine), stacks->len);
  guint n_merged = 0;

  for (guint i = 0; i < stacks->len; i++)
    {
      const PsStackWeight *entry = &g_array_index (stacks, PsStackWeight, i);
      guint32 id = entry->stack;
      FoldedLine line;

      /* Stack nodes lead from the innermost frame to the outermost */
      g_array_set_size (frames, 0);
      while (id != 0)
        {
          const PsStackNode *node = ps_event_store_get_stack_node (store, id);

          if (node == NULL)
            break;
          g_array_append_val (frames, node->frame);
          /* Parents have smaller ids; anything else would loop */
          if (node->parent >= id)
            break;
          id = node->parent;
        }

      g_string_truncate (text, 0);
      for (guint f = frames->len; f > 0; f--)
        {
          if (f < frames->len)
            g_string_append_c (text, ';');
          ps_folded_append_frame (store, g_array_index (frames, guint32, f - 1), text);
        }

      line.text = g_strndup (text->str, text->len);
      line.weight = entry->weight;
      g_array_append_val (lines, line);
    }

  if (lines->len > 1)
    qsort (lines->data, lines->len, sizeof (FoldedLine), compare_lines);

  for (guint i = 0; i < lines->len; i++)
    {
      FoldedLine *line = &g_array_index (lines, FoldedLine, i);

      if (n_merged > 0 && strcmp (g_array_index (lines, FoldedLine, n_merged - 1).text, line->text) == 0)
        {
          g_array_index (lines, FoldedLine, n_merged - 1).weight += line->weight;
          g_free (line->text);
        }
      else
        g_array_index (lines, FoldedLine, n_merged++) = *line;
    }
  g_array_set_size (lines, n_merged);

  return lines;
}

static void
free_lines (GArray *lines)
{
  for (guint i = 0; i < lines->len; i++)
    g_free (g_array_index (lines, FoldedLine, i).text);
  g_array_unref (lines);
}

static void
append_line (GString          *out,
             const FoldedLine *line)
{
  g_string_append (out, line->text);
  g_string_append_printf (out, " %" PRIu64 "\n", line->weight);
}

GString *
ps_folded_build (PsEventStore *store,
                 guint         source,
                 guint32       track)
{
  GArray *lines;
  GString *out;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  lines = build_lines (store, source, track);
  out = g_string_new (NULL);
  for (guint i = 0; i < lines->len; i++)
    append_line (out, &g_array_index (lines, FoldedLine, i));
  free_lines (lines);

  return out;
}

gboolean
ps_folded_write (PsEventStore  *store,
                 guint          source,
                 guint32        track,
                 GOutputStream *stream,
                 guint64       *n_lines,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GString) out = NULL;
  GArray *lines;
  gboolean ok = TRUE;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  lines = build_lines (store, source, track);
  if (n_lines != NULL)
    *n_lines = lines->len;

  out = g_string_sized_new (WRITE_CHUNK_SIZE + 4096);
  for (guint i = 0; i < lines->len && ok; i++)
    {
      append_line (out, &g_array_index (lines, FoldedLine, i));
      if (out->len >= WRITE_CHUNK_SIZE || i + 1 == lines->len)
        {
          ok = g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error);
          g_string_truncate (out, 0);
        }
    }
  free_lines (lines);

  return ok;
}
