/* ps-export-speedscope.c — a run as a speedscope profile
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to speedscope); the speedscope file
 * format schema (https://www.speedscope.app/file-format-schema.json).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ps-call-tree.h"
#include "ps-export-speedscope.h"
#include "ps-export-writer.h"
#include "ps-folded.h"
#include "ps-util.h"

#define SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

/* Frames of the shared table: a span name or a store frame */
typedef enum
{
  FRAME_SPAN_NAME,
  FRAME_STORE_FRAME,
  FRAME_CALL_FUNCTION,
} FrameKind;

typedef struct
{
  PsEventStore   *store;
  PsCallTree     *tree;         /* reports only */
  PsExportWriter *writer;
  GHashTable     *frame_index;  /* (kind << 32 | id) + 1 → index + 1 */
  GArray         *frames;       /* guint64 keys in index order */
  guint           n_profiles;
} Exporter;

static guint
frame_for (Exporter  *self,
           FrameKind  kind,
           guint32    id)
{
  guint64 key = ((guint64)kind << 32) | id;
  gpointer found = g_hash_table_lookup (self->frame_index, GSIZE_TO_POINTER ((gsize)(key + 1)));

  if (found != NULL)
    return (guint)(GPOINTER_TO_SIZE (found) - 1);
  g_array_append_val (self->frames, key);
  g_hash_table_insert (self->frame_index, GSIZE_TO_POINTER ((gsize)(key + 1)),
                       GSIZE_TO_POINTER ((gsize)self->frames->len));
  return self->frames->len - 1;
}

static GString *
begin_profile (Exporter   *self,
               const char *type,
               const char *name,
               const char *unit,
               double      start,
               double      end)
{
  GString *out = ps_export_writer_get_buffer (self->writer);

  g_string_append (out, self->n_profiles++ > 0 ? ",\n  {" : "\n  {");
  g_string_append (out, "\"type\": ");
  ps_export_append_json_string (out, type);
  g_string_append (out, ", \"name\": ");
  ps_export_append_json_string (out, name);
  g_string_append (out, ", \"unit\": ");
  ps_export_append_json_string (out, unit);
  g_string_append (out, ", \"startValue\": ");
  ps_export_append_json_number (out, start);
  g_string_append (out, ", \"endValue\": ");
  ps_export_append_json_number (out, end);
  return out;
}

static char *
track_title (PsEventStore *store,
             guint32       track_index)
{
  const PsTrack *track;
  const char *name;

  if (track_index == PS_NONE || track_index >= ps_event_store_get_n_tracks (store))
    return g_strdup ("All samples");
  track = ps_event_store_get_track (store, track_index);
  name = ps_event_store_get_string (store, track->name);
  /* A thread named by its number only (RTL) needs it once */
  {
    g_autofree char *number = g_strdup_printf ("%" PRId64, track->number);

    if (strcmp (number, name) == 0)
      name = "";
  }
  if (track->kind == PS_TRACK_PROCESS)
    return name[0] != '\0' ? g_strdup_printf ("Process %" PRId64 " (%s)", track->number, name)
                           : g_strdup_printf ("Process %" PRId64, track->number);
  return name[0] != '\0' ? g_strdup_printf ("Thread %" PRId64 " (%s)", track->number, name)
                         : g_strdup_printf ("Thread %" PRId64, track->number);
}

/* Spans -------------------------------------------------------------------- */

typedef struct
{
  gint64 end_ns;
  guint  frame;
} OpenSpan;

static void
append_event (GString *out,
              gboolean first,
              char     type,
              guint    frame,
              gint64   at)
{
  g_string_append_printf (out, "%s{\"type\": \"%c\", \"frame\": %u, \"at\": %" PRId64 "}",
                          first ? "\n    " : ",\n    ", type, frame, at);
}

static void
write_span_profile (Exporter *self,
                    guint32   track,
                    guint64   first_span,
                    guint64   n_spans_of_track)
{
  PsEventStore *store = self->store;
  guint64 n_spans = ps_event_store_get_n_spans (store);
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (OpenSpan));
  g_autofree char *title = track_title (store, track);
  gint64 start = G_MAXINT64, end = G_MININT64;
  guint64 seen = 0;
  gboolean first = TRUE;
  gint64 last_at = G_MININT64;  /* events go forward in time */
  GString *out;

  /* The extent first: startValue and endValue come before the events */
  for (guint64 i = first_span; i < n_spans && seen < n_spans_of_track; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (span->track != track)
        continue;
      seen++;
      start = MIN (start, span->begin_ns);
      end = MAX (end, MAX (span->begin_ns, span->end_ns));
    }

  out = begin_profile (self, "evented", title, "nanoseconds", (double)start, (double)end);
  g_string_append (out, ", \"events\": [");

  seen = 0;
  for (guint64 i = first_span; i < n_spans && seen < n_spans_of_track; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      OpenSpan entry;
      gint64 begin_ns;

      if (span->track != track)
        continue;
      seen++;

      /* Spans begin in order: close those that ended by now */
      while (open->len > 0 && g_array_index (open, OpenSpan, open->len - 1).end_ns <= span->begin_ns)
        {
          OpenSpan *top = &g_array_index (open, OpenSpan, open->len - 1);

          append_event (out, FALSE, 'C', top->frame, top->end_ns);
          last_at = top->end_ns;
          g_array_set_size (open, open->len - 1);
        }

      /* A begin that went back in time (a clock step) opens where the
       * events are */
      begin_ns = MAX (span->begin_ns, last_at);
      entry.frame = frame_for (self, FRAME_SPAN_NAME, span->name);
      entry.end_ns = MAX (span->end_ns, begin_ns);
      if (open->len > 0)
        entry.end_ns = MIN (entry.end_ns, g_array_index (open, OpenSpan, open->len - 1).end_ns);
      append_event (out, first, 'O', entry.frame, begin_ns);
      last_at = begin_ns;
      first = FALSE;
      g_array_append_val (open, entry);
      ps_export_writer_flush_some (self->writer);
      if (ps_export_writer_failed (self->writer))
        return;
    }
  while (open->len > 0)
    {
      OpenSpan *top = &g_array_index (open, OpenSpan, open->len - 1);

      append_event (out, FALSE, 'C', top->frame, top->end_ns);
      g_array_set_size (open, open->len - 1);
    }
  g_string_append (out, "\n  ]}");
}

static void
write_span_profiles (Exporter *self)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_spans = ps_event_store_get_n_spans (store);
  g_autofree guint64 *count = g_new0 (guint64, n_tracks + 1);
  g_autofree guint64 *first = g_new0 (guint64, n_tracks + 1);

  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (span->track >= n_tracks)
        continue;
      if (count[span->track]++ == 0)
        first[span->track] = i;
    }
  for (guint32 t = 0; t < n_tracks && !ps_export_writer_failed (self->writer); t++)
    if (count[t] > 0)
      write_span_profile (self, t, first[t], count[t]);
}

/* Samples ------------------------------------------------------------------ */

typedef struct
{
  guint32 track;
  guint   source;
} SampleFilter;

static gboolean
sample_matches (const PsSample *sample,
                gpointer        user_data)
{
  const SampleFilter *filter = user_data;

  return sample->track == filter->track && sample->source == filter->source;
}

/* The frames of a stack, outermost first, as indexes of the shared table */
static void
stack_frames (Exporter *self,
              guint32   stack,
              GArray   *frames)
{
  guint n_nodes = ps_event_store_get_n_stack_nodes (self->store);

  g_array_set_size (frames, 0);
  for (guint32 node = stack; node != 0 && node < n_nodes && frames->len < n_nodes;)
    {
      const PsStackNode *stack_node = ps_event_store_get_stack_node (self->store, node);
      guint frame = frame_for (self, FRAME_STORE_FRAME, stack_node->frame);

      g_array_append_val (frames, frame);
      node = stack_node->parent;
    }
}

static void
write_sample_profile (Exporter     *self,
                      SampleFilter *filter,
                      gboolean      name_source)
{
  g_autoptr(GArray) stacks = ps_folded_sum_stacks (self->store, FALSE, sample_matches, filter, NULL);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *title = track_title (self->store, filter->track);
  guint64 total = 0;
  guint n_written = 0;
  GString *out;

  for (guint i = 0; i < stacks->len; i++)
    if (g_array_index (stacks, PsStackWeight, i).stack != 0)
      total += g_array_index (stacks, PsStackWeight, i).weight;
  if (total == 0)
    return;

  if (name_source)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (self->store, (guint16)filter->source);
      char *with_source = g_strdup_printf ("%s — %s", title,
                                           ps_event_store_get_string (self->store, source->name));

      g_free (title);
      title = with_source;
    }

  out = begin_profile (self, "sampled", title, "none", 0, (double)total);
  g_string_append (out, ", \"samples\": [");
  for (guint i = 0; i < stacks->len; i++)
    {
      const PsStackWeight *entry = &g_array_index (stacks, PsStackWeight, i);

      if (entry->stack == 0 || entry->weight == 0)
        continue;
      stack_frames (self, entry->stack, frames);
      g_string_append (out, n_written++ > 0 ? ",\n    [" : "\n    [");
      for (guint f = frames->len; f > 0; f--)
        g_string_append_printf (out, f < frames->len ? ", %u" : "%u", g_array_index (frames, guint, f - 1));
      g_string_append_c (out, ']');
      ps_export_writer_flush_some (self->writer);
    }
  g_string_append (out, "\n  ], \"weights\": [");
  n_written = 0;
  for (guint i = 0; i < stacks->len; i++)
    {
      const PsStackWeight *entry = &g_array_index (stacks, PsStackWeight, i);

      if (entry->stack == 0 || entry->weight == 0)
        continue;
      g_string_append_printf (out, "%s%" PRIu64, n_written++ > 0 ? ", " : "", entry->weight);
      ps_export_writer_flush_some (self->writer);
    }
  g_string_append (out, "]}");
}

static void
write_sample_profiles (Exporter *self)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint n_sources = MAX (ps_event_store_get_n_sample_sources (store), 1);
  guint64 n_samples = ps_event_store_get_n_samples (store);
  /* Which (source, track) pairs have samples; index n_tracks: no track */
  g_autofree guint8 *used = g_new0 (guint8, (gsize)n_sources * (n_tracks + 1));

  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      guint track = sample->track < n_tracks ? sample->track : n_tracks;

      if (sample->source < n_sources)
        used[(gsize)sample->source * (n_tracks + 1) + track] = 1;
    }

  for (guint s = 0; s < n_sources; s++)
    for (guint t = 0; t <= n_tracks && !ps_export_writer_failed (self->writer); t++)
      if (used[(gsize)s * (n_tracks + 1) + t])
        {
          SampleFilter filter = { t < n_tracks ? t : PS_NONE, s };

          write_sample_profile (self, &filter, n_sources > 1);
        }
}

/* Reports ------------------------------------------------------------------ */

/* A node's own time: its total, or for a report that gave only averages
 * the average times the calls */
static double
node_weight (const PsCallStats *stats)
{
  double total = stats->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE];

  if (isfinite (total))
    return total;
  total = stats->avg[PS_CALL_VALUE_ELAPSED_EXCLUSIVE] * (double)stats->calls;
  return isfinite (total) ? total : 0;
}

typedef struct
{
  guint32 node;
  guint   next_child;
} TreeFrame;

/* A node's own weight on the evented profile's axis, which never goes
 * back */
static double
own_weight (PsCallTree *tree,
            guint32     node)
{
  double weight = node_weight (ps_call_tree_get_node_stats (tree, node));

  return weight > 0 ? weight : 0;
}

/* Every node's weight with its descendants', by node id: which subtrees
 * have any */
static double *
subtree_weights (PsCallTree *tree)
{
  double *sums = g_new0 (double, MAX (ps_call_tree_get_n_nodes (tree), 1));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (TreeFrame));
  TreeFrame root = { PS_CALL_NODE_ROOT, 0 };

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      TreeFrame *top = &g_array_index (stack, TreeFrame, stack->len - 1);
      TreeFrame child = { 0, 0 };

      if (top->next_child < ps_call_tree_get_n_children (tree, top->node))
        {
          child.node = ps_call_tree_get_child (tree, top->node, top->next_child++);
          g_array_append_val (stack, child);
          continue;
        }
      if (top->node != PS_CALL_NODE_ROOT)
        {
          sums[top->node] += own_weight (tree, top->node);
          sums[ps_call_tree_get_parent (tree, top->node)] += sums[top->node];
        }
      g_array_set_size (stack, stack->len - 1);
    }
  return sums;
}

static void
append_report_event (GString *out,
                     gboolean first,
                     char     type,
                     guint    frame,
                     double   at)
{
  g_string_append_printf (out, "%s{\"type\": \"%c\", \"frame\": %u, \"at\": ",
                          first ? "\n    " : ",\n    ", type, frame);
  ps_export_append_json_number (out, at);
  g_string_append_c (out, '}');
}

/* The events of the call tree, each call path opening, taking its own
 * weight, holding its callees and closing, one after the other; the
 * paths whose subtree weighs nothing are left out, as a sample of no
 * weight would be. Without out, only the end of the last event: the
 * profile's endValue, added up in the same order. */
static double
walk_report_events (Exporter     *self,
                    const double *sums,
                    GString      *out)
{
  PsCallTree *tree = self->tree;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (TreeFrame));
  TreeFrame root = { PS_CALL_NODE_ROOT, 0 };
  double at = 0;
  gboolean first = TRUE;

  /* Depth-first with an explicit stack, so that any depth fits */
  g_array_append_val (stack, root);
  while (stack->len > 0 && !ps_export_writer_failed (self->writer))
    {
      TreeFrame *top = &g_array_index (stack, TreeFrame, stack->len - 1);
      TreeFrame child = { 0, 0 };

      if (top->next_child >= ps_call_tree_get_n_children (tree, top->node))
        {
          if (out != NULL && top->node != PS_CALL_NODE_ROOT)
            {
              append_report_event (out, FALSE, 'C',
                                   frame_for (self, FRAME_CALL_FUNCTION, ps_call_tree_get_node_function (tree, top->node)),
                                   at);
              ps_export_writer_flush_some (self->writer);
            }
          g_array_set_size (stack, stack->len - 1);
          continue;
        }

      child.node = ps_call_tree_get_child (tree, top->node, top->next_child++);
      if (!(sums[child.node] > 0))
        continue;
      if (out != NULL)
        {
          append_report_event (out, first, 'O',
                               frame_for (self, FRAME_CALL_FUNCTION, ps_call_tree_get_node_function (tree, child.node)),
                               at);
          first = FALSE;
          ps_export_writer_flush_some (self->writer);
        }
      /* Its own weight before its callees', as the report lists them */
      at += own_weight (tree, child.node);
      g_array_append_val (stack, child);
    }
  return at;
}

/* A report's call tree as an evented profile: the file grows with the
 * number of call paths. As samples, each repeating its whole path, it
 * would grow with the square of their depth. */
static void
write_report_profile (Exporter   *self,
                      const char *name)
{
  PsCallTree *tree = self->tree;
  g_autofree double *sums = subtree_weights (tree);
  const char *unit;
  GString *out;

  switch (ps_call_tree_get_unit (tree))
    {
    case PS_CALL_UNIT_NS: unit = "nanoseconds"; break;
    case PS_CALL_UNIT_MS: unit = "milliseconds"; break;
    default:              unit = "none"; break;
    }

  out = begin_profile (self, "evented", name != NULL ? name : "Call tree", unit, 0,
                       walk_report_events (self, sums, NULL));
  g_string_append (out, ", \"events\": [");
  walk_report_events (self, sums, out);
  g_string_append (out, "\n  ]}");
}

/* The file ----------------------------------------------------------------- */

static void
write_frames (Exporter *self)
{
  GString *out = ps_export_writer_get_buffer (self->writer);
  g_autoptr(GString) name = g_string_new (NULL);

  g_string_append (out, "\n],\n\"shared\": {\"frames\": [");
  for (guint i = 0; i < self->frames->len; i++)
    {
      guint64 key = g_array_index (self->frames, guint64, i);
      guint32 id = (guint32)key;
      const char *file = NULL;

      g_string_truncate (name, 0);
      switch ((FrameKind)(key >> 32))
        {
        case FRAME_SPAN_NAME:
          g_string_append (name, ps_event_store_get_string (self->store, id));
          break;
        case FRAME_STORE_FRAME:
          {
            const PsFrame *frame = ps_event_store_get_frame (self->store, id);

            /* A frame per address: a function sampled at many addresses
             * repeats its name, so a long one is cut (ps-util.h) */
            ps_folded_append_frame_name (self->store, id, name);
            if (frame != NULL && frame->module != 0)
              file = ps_event_store_get_string (self->store, frame->module);
          }
          break;
        case FRAME_CALL_FUNCTION:
        default:
          g_string_append (name, ps_call_tree_get_function_name (self->tree, id));
          file = ps_call_tree_get_function_module (self->tree, id);
          break;
        }

      g_string_append (out, i > 0 ? ",\n  {\"name\": " : "\n  {\"name\": ");
      ps_export_append_json_string (out, name->str);
      /* Every frame of a module repeats it */
      if (file != NULL && *file != '\0')
        {
          g_string_truncate (name, 0);
          ps_util_append_cut_name (name, file);
          g_string_append (out, ", \"file\": ");
          ps_export_append_json_string (out, name->str);
        }
      g_string_append_c (out, '}');
      ps_export_writer_flush_some (self->writer);
    }
  g_string_append (out, "\n]}\n}\n");
}

/* Reports: their call tree, when it has a top-down tree */
static PsCallTree *
report_tree (PsEventStore *store)
{
  PsCallTree *tree;

  if (ps_event_store_get_n_report_rows (store) == 0)
    return NULL;
  tree = ps_call_tree_new_for_store (store, NULL, NULL);
  if (tree != NULL && !ps_call_tree_has_top_down (tree))
    g_clear_object (&tree);
  return tree;
}

gboolean
ps_export_speedscope_can_export (PsEventStore *store)
{
  g_autoptr(PsCallTree) tree = NULL;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);

  if (ps_event_store_get_n_spans (store) > 0 || ps_event_store_get_n_samples (store) > 0)
    return TRUE;
  tree = report_tree (store);
  return tree != NULL;
}

gboolean
ps_export_speedscope (PsEventStore  *store,
                      const char    *name,
                      GOutputStream *stream,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(PsExportWriter) writer = NULL;
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GHashTable) frame_index = NULL;
  g_autoptr(GArray) frames = NULL;
  Exporter self = { 0 };
  GString *out;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  if (ps_event_store_get_n_spans (store) == 0 && ps_event_store_get_n_samples (store) == 0)
    {
      tree = report_tree (store);
      /* Callers check first and say why in their own words */
      g_return_val_if_fail (tree != NULL, FALSE);
    }

  writer = ps_export_writer_new (stream, cancellable);
  frame_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  frames = g_array_new (FALSE, FALSE, sizeof (guint64));
  self.store = store;
  self.tree = tree;
  self.writer = writer;
  self.frame_index = frame_index;
  self.frames = frames;

  out = ps_export_writer_get_buffer (writer);
  g_string_append (out, "{\"$schema\": \"" SPEEDSCOPE_SCHEMA "\",\n\"exporter\": \"perfscope\",\n");
  if (name != NULL)
    {
      g_string_append (out, "\"name\": ");
      ps_export_append_json_string (out, name);
      g_string_append (out, ",\n");
    }
  g_string_append (out, "\"activeProfileIndex\": 0,\n\"profiles\": [");

  if (tree != NULL)
    write_report_profile (&self, name);
  else
    {
      write_span_profiles (&self);
      write_sample_profiles (&self);
    }
  write_frames (&self);

  return ps_export_writer_finish (writer, error);
}
