/* ps-export-chrome-trace.c — a run as Chrome trace event JSON
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to chrome-trace); the Trace Event
 * Format (Chromium's "Trace Event Format" document: "X", "i", "C", "M"
 * events, "stackFrames" and "samples").
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "ps-export-chrome-trace.h"
#include "ps-export-writer.h"
#include "ps-folded.h"
#include "ps-util.h"

/* Deeper parent chains than this are a broken store */
#define MAX_ANCESTORS 64

typedef struct
{
  PsEventStore   *store;
  PsExportWriter *writer;
  gint64          default_pid;
  gint64         *pid_of_track;   /* per track */
  gboolean        first_event;
  GString        *cut;            /* a name being cut */
} Exporter;

static GString *
next_event (Exporter *self)
{
  GString *out = ps_export_writer_get_buffer (self->writer);

  g_string_append (out, self->first_event ? "\n  {" : ",\n  {");
  self->first_event = FALSE;
  return out;
}

static void
end_event (Exporter *self)
{
  g_string_append_c (ps_export_writer_get_buffer (self->writer), '}');
  ps_export_writer_flush_some (self->writer);
}

/* Nanoseconds as microseconds: exact to the nanosecond */
static void
append_us (GString *out,
           gint64   ns)
{
  ps_export_append_json_number (out, (double)ns / 1000.0);
}

/* name cut after PS_UTIL_NAME_MAX_BYTES (ps-util.h): every name here is
 * written once per event, or once per track of events */
static const char *
cut_name (Exporter   *self,
          const char *name)
{
  /* Most names are short: written as they are, without a copy */
  if (memchr (name, '\0', PS_UTIL_NAME_MAX_BYTES + 1) != NULL)
    return name;
  g_string_truncate (self->cut, 0);
  ps_util_append_cut_name (self->cut, name);
  return self->cut->str;
}

static void
append_name (Exporter   *self,
             GString    *out,
             const char *name)
{
  ps_export_append_json_string (out, cut_name (self, name));
}

/* The members every event has, its name as it is given */
static void
append_common_as_is (GString    *out,
                     const char *ph,
                     const char *name,
                     gint64      ts_ns,
                     gint64      pid,
                     gint64      tid)
{
  g_string_append_printf (out, "\"ph\": \"%s\", \"name\": ", ph);
  ps_export_append_json_string (out, name);
  g_string_append (out, ", \"ts\": ");
  append_us (out, ts_ns);
  g_string_append_printf (out, ", \"pid\": %" PRId64 ", \"tid\": %" PRId64, pid, tid);
}

static void
append_common (Exporter   *self,
               GString    *out,
               const char *ph,
               const char *name,
               gint64      ts_ns,
               gint64      pid,
               gint64      tid)
{
  append_common_as_is (out, ph, cut_name (self, name), ts_ns, pid, tid);
}

static gint64
thread_id (PsEventStore *store,
           guint32       track)
{
  const PsTrack *t;

  if (track >= ps_event_store_get_n_tracks (store))
    return 0;
  t = ps_event_store_get_track (store, track);
  return t->kind == PS_TRACK_THREAD ? t->number : 0;
}

static gint64
run_pid (PsEventStore *store)
{
  const char *text = ps_event_store_get_n_sessions (store) > 0
                     ? ps_event_store_get_metadata (store, 0, "process_id") : NULL;
  guint64 number;

  if (text != NULL && g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT32, &number, NULL))
    return (gint64)number;
  return 1;
}

/* Every track's process: its own or its nearest process ancestor's */
static gint64 *
compute_pids (PsEventStore *store,
              gint64        default_pid)
{
  guint n = ps_event_store_get_n_tracks (store);
  gint64 *pids = g_new (gint64, MAX (n, 1));

  for (guint32 t = 0; t < n; t++)
    {
      guint32 up = t;

      pids[t] = default_pid;
      for (guint depth = 0; up != PS_NONE && up < n && depth < MAX_ANCESTORS; depth++)
        {
          const PsTrack *track = ps_event_store_get_track (store, up);

          if (track->kind == PS_TRACK_PROCESS)
            {
              pids[t] = track->number;
              break;
            }
          up = track->parent;
        }
    }
  return pids;
}

gboolean
ps_export_chrome_trace_count (PsEventStore        *store,
                              PsChromeTraceCounts *counts)
{
  guint64 n_samples, n_values;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);

  memset (counts, 0, sizeof *counts);
  counts->spans = ps_event_store_get_n_spans (store);
  counts->marks = ps_event_store_get_n_marks (store);
  n_values = ps_event_store_get_n_counter_values (store);
  for (guint64 i = 0; i < n_values; i++)
    if (!(ps_event_store_get_counter_value (store, i)->flags & PS_COUNTER_FLAG_MISSING))
      counts->counter_values++;
  n_samples = ps_event_store_get_n_samples (store);
  for (guint64 i = 0; i < n_samples; i++)
    {
      if (ps_event_store_get_sample (store, i)->flags & PS_SAMPLE_FLAG_UNTIMED)
        counts->untimed_samples++;
      else
        counts->samples++;
    }
  return counts->spans + counts->marks + counts->counter_values + counts->samples > 0;
}

static gboolean
in_default_process (Exporter *self,
                    guint32   track)
{
  return track >= ps_event_store_get_n_tracks (self->store) || self->pid_of_track[track] == self->default_pid;
}

static gboolean
uses_default_pid (Exporter *self)
{
  PsEventStore *store = self->store;
  guint64 n;

  n = ps_event_store_get_n_spans (store);
  for (guint64 i = 0; i < n; i++)
    if (in_default_process (self, ps_event_store_get_span (store, i)->track))
      return TRUE;
  n = ps_event_store_get_n_marks (store);
  for (guint64 i = 0; i < n; i++)
    if (in_default_process (self, ps_event_store_get_mark (store, i)->track))
      return TRUE;
  n = ps_event_store_get_n_counter_values (store);
  for (guint64 i = 0; i < n; i++)
    if (in_default_process (self, ps_event_store_get_counter_value (store, i)->track))
      return TRUE;
  return FALSE;
}

static void
write_metadata (Exporter   *self,
                const char *process_name)
{
  PsEventStore *store = self->store;
  guint n = ps_event_store_get_n_tracks (store);
  g_autoptr(GHashTable) named = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gboolean default_named = FALSE;
  GString *out;

  for (guint32 t = 0; t < n; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      const char *name = ps_event_store_get_string (store, track->name);

      if (track->kind == PS_TRACK_PROCESS)
        {
          g_autofree char *fallback = NULL;

          if (g_hash_table_contains (named, &track->number))
            continue;
          g_hash_table_add (named, g_memdup2 (&track->number, sizeof track->number));
          if (name[0] == '\0')
            name = fallback = g_strdup_printf ("%" PRId64, track->number);
          out = next_event (self);
          append_common (self, out, "M", "process_name", 0, track->number, 0);
          g_string_append (out, ", \"args\": {\"name\": ");
          append_name (self, out, name);
          g_string_append_c (out, '}');
          end_event (self);
        }
      else if (track->kind == PS_TRACK_THREAD)
        {
          g_autofree char *fallback = NULL;

          if (self->pid_of_track[t] == self->default_pid)
            default_named = TRUE;
          fallback = g_strdup_printf ("%" PRId64, track->number);
          /* A thread named by its number only (RTL) */
          if (name[0] == '\0' || strcmp (name, fallback) == 0)
            {
              g_free (fallback);
              name = fallback = g_strdup_printf ("Thread %" PRId64, track->number);
            }
          out = next_event (self);
          append_common (self, out, "M", "thread_name", 0, self->pid_of_track[t], track->number);
          g_string_append (out, ", \"args\": {\"name\": ");
          append_name (self, out, name);
          g_string_append_c (out, '}');
          end_event (self);
        }
    }

  /* The process of threads, counters and marks without a process track,
   * when any event is there */
  if (!g_hash_table_contains (named, &self->default_pid)
      && (default_named || uses_default_pid (self)))
    {
      out = next_event (self);
      append_common (self, out, "M", "process_name", 0, self->default_pid, 0);
      g_string_append (out, ", \"args\": {\"name\": ");
      append_name (self, out, process_name != NULL ? process_name : "Run");
      g_string_append_c (out, '}');
      end_event (self);
    }
}

static void
free_open (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

typedef struct
{
  gint64 begin_ns;
  gint64 end_ns;
} Extent;

/* The extent of a span on its thread, cut to the span of that thread it
 * began in: viewers want the X events of a thread nested. Spans come in
 * the order they began in the file; a clock that went back can put a
 * begin before the enclosing span's. open_ends holds the extents of the
 * spans still open on each (pid, tid), innermost last. */
static Extent
nested_extent (GPtrArray    *open_ends,
               guint         slot,
               const PsSpan *span,
               gboolean     *clipped)
{
  GArray *open = g_ptr_array_index (open_ends, slot);
  Extent extent = { span->begin_ns, MAX (span->end_ns, span->begin_ns) };

  if (open == NULL)
    {
      open = g_array_new (FALSE, FALSE, sizeof (Extent));
      g_ptr_array_index (open_ends, slot) = open;
    }
  while (open->len > 0 && g_array_index (open, Extent, open->len - 1).end_ns <= span->begin_ns)
    g_array_set_size (open, open->len - 1);
  *clipped = FALSE;
  if (open->len > 0)
    {
      const Extent *outer = &g_array_index (open, Extent, open->len - 1);

      if (extent.begin_ns < outer->begin_ns)
        {
          extent.begin_ns = outer->begin_ns;
          extent.end_ns = MAX (extent.end_ns, extent.begin_ns);
          *clipped = TRUE;
        }
      if (extent.end_ns > outer->end_ns)
        {
          extent.end_ns = outer->end_ns;
          *clipped = TRUE;
        }
    }
  g_array_append_val (open, extent);
  return extent;
}

static void
write_spans (Exporter *self)
{
  PsEventStore *store = self->store;
  guint64 n = ps_event_store_get_n_spans (store);
  guint n_tracks = ps_event_store_get_n_tracks (store);
  /* One slot per (pid, tid): tracks of several sessions may share one;
   * the last slot for spans without a track */
  g_autoptr(GPtrArray) open_ends = g_ptr_array_new_full (n_tracks + 1, free_open);
  g_autoptr(GHashTable) slot_of_thread = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree guint *slot_of_track = g_new (guint, n_tracks + 1);

  g_ptr_array_set_size (open_ends, n_tracks + 1);
  for (guint32 t = 0; t < n_tracks; t++)
    {
      g_autofree char *key = g_strdup_printf ("%" PRId64 "/%" PRId64, self->pid_of_track[t], thread_id (store, t));
      gpointer found;

      if (g_hash_table_lookup_extended (slot_of_thread, key, NULL, &found))
        slot_of_track[t] = GPOINTER_TO_UINT (found);
      else
        {
          slot_of_track[t] = t;
          g_hash_table_insert (slot_of_thread, g_steal_pointer (&key), GUINT_TO_POINTER (t));
        }
    }
  slot_of_track[n_tracks] = n_tracks;

  for (guint64 i = 0; i < n && !ps_export_writer_failed (self->writer); i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      guint32 context = ps_event_store_get_span_context (store, i);
      gint64 pid = span->track < n_tracks ? self->pid_of_track[span->track] : self->default_pid;
      gboolean clipped;
      Extent extent = nested_extent (open_ends, slot_of_track[MIN (span->track, n_tracks)], span, &clipped);
      GString *out = next_event (self);

      append_common (self, out, "X", ps_event_store_get_string (store, span->name), extent.begin_ns,
                     pid, thread_id (store, span->track));
      g_string_append (out, ", \"dur\": ");
      append_us (out, extent.end_ns - extent.begin_ns);
      g_string_append (out, (span->flags & PS_SPAN_FLAG_LOGICAL) ? ", \"cat\": \"logical\"" : ", \"cat\": \"scope\"");
      if (context != 0 || clipped || (span->flags & ~PS_SPAN_FLAG_LOGICAL) != 0)
        {
          gboolean first = TRUE;

          g_string_append (out, ", \"args\": {");
          if (context != 0)
            {
              g_string_append (out, "\"context\": ");
              append_name (self, out, ps_event_store_get_string (store, context));
              first = FALSE;
            }
          if (span->flags & PS_SPAN_FLAG_UNTERMINATED)
            {
              g_string_append (out, first ? "\"unterminated\": true" : ", \"unterminated\": true");
              first = FALSE;
            }
          if (span->flags & PS_SPAN_FLAG_CLOCK_BACK)
            {
              g_string_append (out, first ? "\"clock_back\": true" : ", \"clock_back\": true");
              first = FALSE;
            }
          if (span->flags & PS_SPAN_FLAG_CLOSED_BY_PARENT)
            {
              g_string_append (out, first ? "\"closed_by_parent\": true" : ", \"closed_by_parent\": true");
              first = FALSE;
            }
          /* Cut to the span it began in: its own times */
          if (clipped)
            {
              g_string_append (out, first ? "\"clipped\": true, \"begin_us\": " : ", \"clipped\": true, \"begin_us\": ");
              append_us (out, span->begin_ns);
              g_string_append (out, ", \"end_us\": ");
              append_us (out, span->end_ns);
            }
          g_string_append_c (out, '}');
        }
      end_event (self);
    }
}

static void
write_marks (Exporter *self)
{
  PsEventStore *store = self->store;
  guint64 n = ps_event_store_get_n_marks (store);
  guint n_tracks = ps_event_store_get_n_tracks (store);

  for (guint64 i = 0; i < n && !ps_export_writer_failed (self->writer); i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);
      gint64 pid = mark->track < n_tracks ? self->pid_of_track[mark->track] : self->default_pid;
      GString *out = next_event (self);

      append_common (self, out, "i", ps_event_store_get_string (store, mark->text), mark->time_ns,
                     pid, thread_id (store, mark->track));
      g_string_append (out, ", \"s\": \"t\", \"cat\": \"mark\"");
      if (mark->name != 0)
        {
          g_string_append (out, ", \"args\": {\"scope\": ");
          append_name (self, out, ps_event_store_get_string (store, mark->name));
          g_string_append_c (out, '}');
        }
      end_event (self);
    }
}

/* "counter (instance) — object", the name of a counter's "C" events,
 * cut as every name here is */
static char *
counter_title (PsEventStore *store,
               guint32       index)
{
  const PsTrack *track = ps_event_store_get_track (store, index);
  g_autoptr(GString) title = g_string_new (ps_event_store_get_string (store, track->name));
  GString *cut = g_string_new (NULL);
  guint32 up = track->parent;
  const char *instance = NULL, *object = NULL;

  for (guint depth = 0; up != PS_NONE && up < ps_event_store_get_n_tracks (store) && depth < MAX_ANCESTORS; depth++)
    {
      const PsTrack *ancestor = ps_event_store_get_track (store, up);

      if (ancestor->kind == PS_TRACK_INSTANCE && instance == NULL)
        instance = ps_event_store_get_string (store, ancestor->name);
      else if (ancestor->kind == PS_TRACK_OBJECT && object == NULL)
        object = ps_event_store_get_string (store, ancestor->name);
      up = ancestor->parent;
    }
  if (instance != NULL && *instance != '\0')
    g_string_append_printf (title, " (%s)", instance);
  if (object != NULL && *object != '\0')
    g_string_append_printf (title, " — %s", object);
  ps_util_append_cut_name (cut, title->str);
  return g_string_free (cut, FALSE);
}

/* A "C" event's name is its counter's: viewers draw one counter per name
 * and process. Counters whose titles are the same, cut or not, are kept
 * apart by an "id", the track's, which joins the name (Trace Event
 * Format, "Counter Events"); the others have none, so that their names
 * show as they are. */
static void
write_counters (Exporter *self)
{
  PsEventStore *store = self->store;
  guint64 n = ps_event_store_get_n_counter_values (store);
  guint n_tracks = ps_event_store_get_n_tracks (store);
  g_autoptr(GPtrArray) titles = g_ptr_array_new_full (n_tracks, g_free);
  g_autofree guint8 *with_id = g_new0 (guint8, MAX (n_tracks, 1));
  g_autoptr(GHashTable) track_of_title = g_hash_table_new (g_str_hash, g_str_equal);

  g_ptr_array_set_size (titles, n_tracks);
  for (guint64 i = 0; i < n; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      char *title;
      gpointer other;

      if ((value->flags & PS_COUNTER_FLAG_MISSING) || value->track >= n_tracks
          || g_ptr_array_index (titles, value->track) != NULL)
        continue;
      title = counter_title (store, value->track);
      g_ptr_array_index (titles, value->track) = title;
      if (g_hash_table_lookup_extended (track_of_title, title, NULL, &other))
        with_id[GPOINTER_TO_UINT (other)] = with_id[value->track] = 1;
      else
        g_hash_table_insert (track_of_title, title, GUINT_TO_POINTER (value->track));
    }

  for (guint64 i = 0; i < n && !ps_export_writer_failed (self->writer); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      GString *out;

      if ((value->flags & PS_COUNTER_FLAG_MISSING) || value->track >= n_tracks)
        continue;

      out = next_event (self);
      append_common_as_is (out, "C", g_ptr_array_index (titles, value->track), value->time_ns,
                           self->pid_of_track[value->track], 0);
      if (with_id[value->track])
        g_string_append_printf (out, ", \"id\": \"%u\"", value->track);
      g_string_append (out, ", \"cat\": \"counter\", \"args\": {\"value\": ");
      ps_export_append_json_number (out, value->value);
      g_string_append_c (out, '}');
      end_event (self);
    }
}

static void
write_samples (Exporter *self)
{
  PsEventStore *store = self->store;
  guint64 n = ps_event_store_get_n_samples (store);
  guint n_nodes = ps_event_store_get_n_stack_nodes (store);
  g_autofree guint8 *used = g_new0 (guint8, MAX (n_nodes, 1));
  g_autoptr(GString) name = g_string_new (NULL);
  GString *out = ps_export_writer_get_buffer (self->writer);
  gboolean first = TRUE;

  g_string_append (out, "\n],\n\"samples\": [");
  for (guint64 i = 0; i < n && !ps_export_writer_failed (self->writer); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      const PsSampleSource *source;

      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || sample->stack == 0 || sample->stack >= n_nodes)
        continue;
      source = sample->source < ps_event_store_get_n_sample_sources (store)
               ? ps_event_store_get_sample_source (store, sample->source) : NULL;

      g_string_append (out, first ? "\n  {\"tid\": " : ",\n  {\"tid\": ");
      first = FALSE;
      g_string_append_printf (out, "%" PRId64 ", \"ts\": ", thread_id (store, sample->track));
      append_us (out, sample->time_ns);
      g_string_append (out, ", \"name\": ");
      append_name (self, out, source != NULL ? ps_event_store_get_string (store, source->name) : "sample");
      g_string_append_printf (out, ", \"sf\": %u, \"weight\": %u}", sample->stack, sample->weight);
      ps_export_writer_flush_some (self->writer);

      /* The stack and its ancestors go to stackFrames */
      for (guint32 node = sample->stack; node != 0 && node < n_nodes && !used[node];)
        {
          used[node] = 1;
          node = ps_event_store_get_stack_node (store, node)->parent;
        }
    }

  g_string_append (out, "\n],\n\"stackFrames\": {");
  first = TRUE;
  for (guint32 node = 1; node < n_nodes && !ps_export_writer_failed (self->writer); node++)
    {
      const PsStackNode *stack_node;
      const PsFrame *frame;

      if (!used[node])
        continue;
      stack_node = ps_event_store_get_stack_node (store, node);
      frame = ps_event_store_get_frame (store, stack_node->frame);
      /* A frame is written once per stack node it is in: a long name is
       * cut (ps-util.h), and so is its module's */
      g_string_truncate (name, 0);
      ps_folded_append_frame_name (store, stack_node->frame, name);
      g_string_append_printf (out, "%s\"%u\": {\"name\": ", first ? "\n  " : ",\n  ", node);
      first = FALSE;
      ps_export_append_json_string (out, name->str);
      g_string_append (out, ", \"category\": ");
      if (frame != NULL && frame->module != 0)
        {
          const char *module = ps_event_store_get_string (store, frame->module);
          const char *base = strrchr (module, '/');

          g_string_truncate (name, 0);
          ps_util_append_cut_name (name, base != NULL ? base + 1 : module);
          ps_export_append_json_string (out, name->str);
        }
      else
        ps_export_append_json_string (out, "unknown");
      if (stack_node->parent != 0)
        g_string_append_printf (out, ", \"parent\": \"%u\"", stack_node->parent);
      g_string_append_c (out, '}');
      ps_export_writer_flush_some (self->writer);
    }
  g_string_append (out, "\n}");
}

gboolean
ps_export_chrome_trace (PsEventStore  *store,
                        const char    *process_name,
                        GOutputStream *stream,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(PsExportWriter) writer = NULL;
  g_autofree gint64 *pids = NULL;
  PsChromeTraceCounts counts;
  Exporter self = { 0 };
  GString *out;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  /* Callers check first and say why in their own words */
  g_return_val_if_fail (ps_export_chrome_trace_count (store, &counts), FALSE);

  writer = ps_export_writer_new (stream, cancellable);
  self.store = store;
  self.writer = writer;
  self.default_pid = run_pid (store);
  self.pid_of_track = pids = compute_pids (store, self.default_pid);
  self.first_event = TRUE;
  self.cut = g_string_new (NULL);

  out = ps_export_writer_get_buffer (writer);
  g_string_append (out, "{\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"exporter\": \"perfscope\", \"format\": ");
  ps_export_append_json_string (out, ps_event_store_get_format (store));
  g_string_append (out, "},\n\"traceEvents\": [");

  write_metadata (&self, process_name);
  write_spans (&self);
  write_marks (&self);
  write_counters (&self);
  if (counts.samples > 0)
    write_samples (&self);
  else
    g_string_append (ps_export_writer_get_buffer (writer), "\n]");
  g_string_append (ps_export_writer_get_buffer (writer), "\n}\n");
  g_string_free (self.cut, TRUE);

  return ps_export_writer_finish (writer, error);
}
