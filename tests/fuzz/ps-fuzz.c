/* ps-fuzz.c — one input through one parser, as the fuzzers and the
 * regression test give it
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 12 ("Fuzzing"). Each input is read twice, as the loader reads a
 * file: fed whole, then fed in pieces of random size (1 byte to 8 KiB)
 * where a parser in two stages scans up to three pieces ahead of applying
 * them, as the read-ahead thread does. Whatever a parser makes of bad
 * bytes, it makes the same of them wherever the pieces end: the two
 * stores must hold the same events and warnings. Then the analyses every
 * view runs (statistics, the call tree, the scopes' self times) walk the
 * store, so that what a parser accepted never breaks what reads it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps-call-tree.h"
#include "ps-event-store.h"
#include "ps-format.h"
#include "ps-fuzz.h"
#include "ps-perflib-block.h"
#include "ps-scopes.h"
#include "ps-series.h"
#include "ps-store-builder.h"

#define PERFLIB_BLOCK "perflib-block"
#define MAX_PIECE     8192
#define MAX_AHEAD     3

static const char * const targets[] = {
  "ce-perflog", "rtl-logfile", "hwpmc-pmclog", "perflib-plv2", PERFLIB_BLOCK,
  "pdh-csv", "vs-report-csv", "pmcstat-callgraph", "perfscope", NULL,
};

const char * const *
ps_fuzz_targets (void)
{
  return targets;
}

gboolean
ps_fuzz_has_target (const char *target)
{
  return g_strv_contains (targets, target);
}

/* The message, then abort (): libFuzzer keeps the input of an abort, not
 * of the breakpoint trap GLib's fatal messages raise */
static GLogWriterOutput
fatal_writer (GLogLevelFlags   level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  GLogWriterOutput output = g_log_writer_default (level, fields, n_fields, user_data);

  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    abort ();
  return output;
}

void
ps_fuzz_init (void)
{
  g_log_set_writer_func (fatal_writer, NULL, NULL);
}

/* What two readings of one input must agree on */
typedef struct
{
  guint64  measurements, spans, marks, samples, counter_values, report_rows;
  guint    tracks, sessions, warnings;
  guint64  warnings_raised;
  gboolean complete;
} Summary;

static void
summarize (PsEventStore *store,
           Summary      *summary)
{
  memset (summary, 0, sizeof *summary);
  summary->measurements = ps_event_store_get_n_measurements (store);
  summary->spans = ps_event_store_get_n_spans (store);
  summary->marks = ps_event_store_get_n_marks (store);
  summary->samples = ps_event_store_get_n_samples (store);
  summary->counter_values = ps_event_store_get_n_counter_values (store);
  summary->report_rows = ps_event_store_get_n_report_rows (store);
  summary->tracks = ps_event_store_get_n_tracks (store);
  summary->sessions = ps_event_store_get_n_sessions (store);
  summary->warnings = ps_event_store_get_n_warnings (store);
  summary->warnings_raised = ps_event_store_get_n_warnings_raised (store);
  summary->complete = ps_event_store_is_complete (store);
}

static void
print_summary (const char    *label,
               PsEventStore  *store,
               const Summary *s)
{
  const GError *error = ps_event_store_get_error (store);

  fprintf (stderr,
           "%s: %" G_GUINT64_FORMAT " measurements, %" G_GUINT64_FORMAT " spans, %" G_GUINT64_FORMAT
           " marks, %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " counter values, %"
           G_GUINT64_FORMAT " report rows, %u tracks, %u sessions, %u warnings (%" G_GUINT64_FORMAT
           " raised), %s\n",
           label, s->measurements, s->spans, s->marks, s->samples, s->counter_values, s->report_rows,
           s->tracks, s->sessions, s->warnings, s->warnings_raised, s->complete ? "complete" : "partial");
  if (error != NULL)
    fprintf (stderr, "  error: %s\n", error->message);
  for (guint i = 0; i < MIN (s->warnings, 20); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      fprintf (stderr, "  %s line %" G_GUINT64_FORMAT ": %s\n", warning.code, warning.line, warning.message);
    }
}

/* xorshift64*: the pieces' sizes, from the input itself so that a
 * finding replays */
static guint64
next_random (guint64 *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * G_GUINT64_CONSTANT (2685821657736338717);
}

/* 1 byte to MAX_PIECE, at most left */
static gsize
piece_size (guint64 *random_state,
            gsize    left)
{
  gsize size = 1 + next_random (random_state) % MAX_PIECE;

  return MIN (size, left);
}

static guint64
seed_of (const guint8 *data,
         gsize         size)
{
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);

  for (gsize i = 0; i < size; i++)
    hash = (hash ^ data[i]) * G_GUINT64_CONSTANT (1099511628211);
  return hash != 0 ? hash : 1;
}

/* The analyses of the views, over whatever was read */
static void
analyse (PsEventStore *store)
{
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  PsSeriesOptions series_options = { 0 };

  series = ps_series_collect (store, &series_options);
  series_options.group_by_name = TRUE;
  g_clear_pointer (&series, g_ptr_array_unref);
  series = ps_series_collect (store, &series_options);

  tree = ps_call_tree_new_for_store (store, NULL, &error);
  if (ps_event_store_get_n_spans (store) > 0)
    g_free (ps_scopes_get_self_times (store));
}

typedef struct
{
  const guint8 *data;
  gsize         length;
  gpointer      scanned;
} Piece;

/* Whole without random_state, else in pieces. A failed feed stops
 * without finishing, as the loader stops. */
static PsEventStore *
read_input (const PsFormat *format,
            const guint8   *data,
            gsize           size,
            guint64        *random_state)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (format, builder);
  g_autoptr(GError) error = NULL;
  gboolean staged = ps_parser_has_stages (parser);
  gboolean ok = TRUE;
  Piece ahead[MAX_AHEAD];
  guint n_ahead = 0;
  gsize pos = 0;

  ps_event_store_set_format (store, format->name);
  /* RTL logs name their process in the file name */
  ps_parser_set_file_name (parser, "fuzz_4711.log");

  if (random_state == NULL)
    ok = ps_parser_feed (parser, data, size, &error);
  else
    {
      /* The first piece is fed, as the loader feeds its first block */
      gsize first = piece_size (random_state, size);

      ok = ps_parser_feed (parser, data, first, &error);
      pos = first;
      while (ok && (pos < size || n_ahead > 0))
        {
          if (pos < size && n_ahead < MAX_AHEAD && (n_ahead == 0 || next_random (random_state) % 2 == 0))
            {
              gsize length = piece_size (random_state, size - pos);

              if (!staged)
                ok = ps_parser_feed (parser, data + pos, length, &error);
              else
                {
                  ahead[n_ahead].data = data + pos;
                  ahead[n_ahead].length = length;
                  ahead[n_ahead].scanned = ps_parser_scan (parser, data + pos, length);
                  n_ahead++;
                }
              pos += length;
            }
          else
            {
              /* As the loader: a piece without a scan is fed */
              if (ahead[0].scanned != NULL)
                ok = ps_parser_apply (parser, ahead[0].scanned, &error);
              else
                ok = ps_parser_feed (parser, ahead[0].data, ahead[0].length, &error);
              memmove (ahead, ahead + 1, (n_ahead - 1) * sizeof (Piece));
              n_ahead--;
            }
        }
      /* Scans never applied are the parser's to free */
    }

  if (ok && !ps_parser_finish (parser, &error))
    ok = FALSE;
  if (!ok)
    ps_event_store_set_error (store, error);
  ps_store_builder_flush (builder);
  return g_steal_pointer (&store);
}

static void
run_format (const PsFormat *format,
            const guint8   *data,
            gsize           size)
{
  g_autoptr(PsEventStore) whole = read_input (format, data, size, NULL);
  g_autoptr(PsEventStore) pieces = NULL;
  guint64 random_state = seed_of (data, size);
  Summary a, b;

  pieces = read_input (format, data, size, &random_state);
  summarize (whole, &a);
  summarize (pieces, &b);
  if (memcmp (&a, &b, sizeof a) != 0)
    {
      print_summary ("whole", whole, &a);
      print_summary ("in pieces", pieces, &b);
      fprintf (stderr, "%s read the input differently in pieces\n", format->name);
      abort ();
    }

  analyse (whole);
}

/* The first byte chooses the decoder; the rest is its buffer */
static void
run_perflib_block (const guint8 *data,
                   gsize         size)
{
  g_autoptr(GError) error = NULL;

  if (size < 2)
    return;

  switch (data[0] % 4)
    {
    case 0:
      {
        PsPerflibBuffer *buffer = NULL;

        ps_perflib_buffer_decode (data + 1, size - 1, &buffer, &error);
        g_clear_pointer (&buffer, ps_perflib_buffer_free);
      }
      break;

    case 1:
    case 2:
      {
        PsPerflibCounterSet *set = NULL;
        /* 2: a counterset in the first half, another request's result after */
        gsize split = data[0] % 4 == 1 ? size - 1 : (size - 1) / 2;

        ps_perflib_counterset_decode (data + 1, split, &set, &error);
        if (set != NULL && split < size - 1)
          {
            g_clear_error (&error);
            ps_perflib_counterset_apply (set, (PsPerflibRegInfoType)(2 + data[1] % 9),
                                         data + 1 + split, size - 1 - split, &error);
            for (guint32 id = 0; id < 8; id++)
              ps_perflib_counterset_lookup (set, id);
          }
        g_clear_pointer (&set, ps_perflib_counterset_free);
      }
      break;

    default:
      {
        PsPerflibQuery *query = NULL;

        ps_perflib_query_decode (data + 1, size - 1, &query, &error);
        if (query != NULL)
          for (guint position = 0; position < 8; position++)
            ps_perflib_query_get_for_block (query, position);
        g_clear_pointer (&query, ps_perflib_query_free);
      }
      break;
    }
}

void
ps_fuzz_run (const char   *target,
             const guint8 *data,
             gsize         size)
{
  const PsFormat *format;

  if (strcmp (target, PERFLIB_BLOCK) == 0)
    {
      run_perflib_block (data, size);
      return;
    }

  format = ps_format_lookup (target);
  g_assert (format != NULL);
  run_format (format, data, size);
}
