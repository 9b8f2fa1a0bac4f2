/* test-rtl-logfile.c — the RTL logfile parser against its specification
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §6 (the example file and its expected values) and
 * §7 (every malformed case, numbered as in the table).
 */
#include "config.h"

#include <string.h>

#include "ps-format.h"
#include "ps-loader.h"
#include "ps-scopes.h"
#include "ps-series.h"

#define MS G_GINT64_CONSTANT (1000000)

/* Loading */

static void assert_same_totals (PsEventStore *full,
                                PsEventStore *totals_only);

static PsEventStore *
parse_with (const char *data,
            gsize       length,
            gsize       piece,
            const char *file_name,
            gboolean    totals_only)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (&ps_format_rtl_logfile, builder);
  g_autoptr(GError) error = NULL;

  if (file_name != NULL)
    ps_parser_set_file_name (parser, file_name);
  if (totals_only)
    ps_parser_set_option (parser, PS_FORMAT_OPTION_TOTALS_ONLY, "true");
  for (gsize offset = 0; offset < length; offset += piece)
    g_assert_true (ps_parser_feed (parser, (const guint8 *)data + offset, MIN (piece, length - offset), &error));
  g_assert_true (ps_parser_finish (parser, &error));
  g_assert_no_error (error);
  ps_store_builder_flush (builder);

  return g_steal_pointer (&store);
}

/* Every parse is checked against one that keeps only the totals */
static PsEventStore *
parse_named_split (const char *data,
                   gsize       length,
                   gsize       piece,
                   const char *file_name)
{
  g_autoptr(PsEventStore) store = parse_with (data, length, piece, file_name, FALSE);
  g_autoptr(PsEventStore) totals_only = parse_with (data, length, piece, file_name, TRUE);

  assert_same_totals (store, totals_only);
  return g_steal_pointer (&store);
}

static PsEventStore *
parse_bytes (const char *data,
             gsize       length)
{
  return parse_named_split (data, length, MAX (length, 1), NULL);
}

static PsEventStore *
parse (const char *text)
{
  return parse_bytes (text, strlen (text));
}

static char *
read_data_file (const char *name,
                gsize      *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

/* Looking at the result */

static const char *
str (PsEventStore *store,
     guint32       id)
{
  return ps_event_store_get_string (store, id);
}

/* The index of the n-th span (0-based) with that name, or fails */
static guint64
find_span_nth (PsEventStore *store,
               const char   *name,
               guint         nth)
{
  guint64 n = ps_event_store_get_n_spans (store);

  for (guint64 i = 0; i < n; i++)
    if (strcmp (str (store, ps_event_store_get_span (store, i)->name), name) == 0 && nth-- == 0)
      return i;

  g_error ("no span “%s”", name);
  return 0;
}

static const PsSpan *
find_span (PsEventStore *store,
           const char   *name)
{
  return ps_event_store_get_span (store, find_span_nth (store, name, 0));
}

static const PsMark *
find_mark (PsEventStore *store,
           const char   *text)
{
  guint64 n = ps_event_store_get_n_marks (store);

  for (guint64 i = 0; i < n; i++)
    if (strcmp (str (store, ps_event_store_get_mark (store, i)->text), text) == 0)
      return ps_event_store_get_mark (store, i);

  g_error ("no mark “%s”", text);
  return NULL;
}

static guint
thread_of (PsEventStore *store,
           guint32       track)
{
  return (guint)ps_event_store_get_track (store, track)->number;
}

static gint64
duration_ms (const PsSpan *span)
{
  return (span->end_ns - span->begin_ns) / MS;
}

/* The codes and lines of the warnings: "I-CONTEXT-NOT-OPEN@21 W-LOST@3" */
static char *
warning_list (PsEventStore *store)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_string_append_printf (out, "%s%s@%" G_GUINT64_FORMAT, out->len > 0 ? " " : "", warning.code, warning.line);
    }
  return g_string_free (out, FALSE);
}

static void
assert_warnings (PsEventStore *store,
                 const char   *expected)
{
  g_autofree char *list = warning_list (store);

  g_assert_cmpstr (list, ==, expected);
}

static void
assert_same_series (GPtrArray *a_series,
                    GPtrArray *b_series)
{
  g_assert_cmpuint (a_series->len, ==, b_series->len);
  for (guint i = 0; i < a_series->len; i++)
    {
      PsSeries *a = g_ptr_array_index (a_series, i);
      PsSeries *b = g_ptr_array_index (b_series, i);

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpstr (a->context, ==, b->context);
      g_assert_cmpint (a->logical, ==, b->logical);
      g_assert_cmpuint (a->session, ==, b->session);
      g_assert_cmpuint (a->n_instances, ==, b->n_instances);
      g_assert_cmpmem (a->tracks, a->n_instances * sizeof (guint32), b->tracks, b->n_instances * sizeof (guint32));
      g_assert_cmpmem (&a->stats, sizeof a->stats, &b->stats, sizeof b->stats);
      g_assert_cmpfloat (a->self_sum, ==, b->self_sum);
      g_assert_cmpuint (a->n_excluded, ==, b->n_excluded);
      g_assert_cmpuint (a->n_flagged, ==, b->n_flagged);
    }
}

/* A store that kept only the totals has the same span series, sessions,
 * threads and warnings as one that kept everything, and no spans or
 * messages */
static void
assert_same_totals (PsEventStore *full,
                    PsEventStore *totals_only)
{
  PsSeriesOptions summary = { .durations_summary_only = TRUE };
  g_autoptr(GPtrArray) expected = ps_series_collect (full, &summary);
  g_autoptr(GPtrArray) got = ps_series_collect (totals_only, &summary);
  g_autofree char *expected_warnings = warning_list (full);
  g_autofree char *got_warnings = warning_list (totals_only);

  g_assert_false (ps_event_store_get_spans_summarized (full));
  g_assert_true (ps_event_store_get_spans_summarized (totals_only));
  g_assert_cmpuint (ps_event_store_get_n_spans (totals_only), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_marks (totals_only), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_sessions (totals_only), ==, ps_event_store_get_n_sessions (full));
  g_assert_cmpuint (ps_event_store_get_n_tracks (totals_only), ==, ps_event_store_get_n_tracks (full));
  g_assert_cmpstr (got_warnings, ==, expected_warnings);
  assert_same_series (expected, got);
}

/* Everything the store holds, as text, to compare two parses */
static char *
dump (PsEventStore *store)
{
  GString *out = g_string_new (NULL);
  g_autofree char *warnings = warning_list (store);


  for (guint s = 0; s < ps_event_store_get_n_sessions (store); s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);
      g_autoptr(GArray) metadata = ps_event_store_list_metadata (store, s);

      g_string_append_printf (out, "session %u %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %d\n",
                              s, info->first_line, info->last_line, info->origin_unix_ns, info->implicit);
      for (guint i = 0; i < metadata->len; i++)
        {
          PsMetadataEntry *entry = &g_array_index (metadata, PsMetadataEntry, i);
          g_string_append_printf (out, "  %s=%s\n", entry->key, entry->value);
        }
    }
  for (guint t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      g_string_append_printf (out, "track %u %d %" G_GINT64_FORMAT " %u\n", t, track->kind, track->number, track->session);
    }
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      g_string_append_printf (out, "span %" G_GUINT64_FORMAT " %u [%s] %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT " p%u d%u f%x c[%s]\n",
                              i, span->track, str (store, span->name), span->begin_ns, span->end_ns, span->parent,
                              span->depth, span->flags, str (store, ps_event_store_get_span_context (store, i)));
    }
  for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);
      g_string_append_printf (out, "mark %u %" G_GINT64_FORMAT " l%" G_GUINT64_FORMAT " [%s] [%s] s%u p%u f%x\n",
                              mark->track, mark->time_ns, mark->line, str (store, mark->text), str (store, mark->name),
                              mark->span, mark->position, mark->flags);
    }
  g_string_append_printf (out, "warnings %s\n", warnings);

  return g_string_free (out, FALSE);
}

/* §6: the example file */

typedef struct
{
  guint       thread;
  const char *name;
  gboolean    logical;
  gint64      begin;
  gint64      end;
  gint64      duration;
  gint64      self;
} ExpectedScope;

static const ExpectedScope example_scopes[] = {
  { 1, "desktop (ab123456) ::desktop::Desktop::Main", FALSE, 3, 2010, 2007, 1037 },
  { 1, "register services", TRUE, 5, 131, 126, 126 },
  { 1, "configmgr (ij778899) ::configmgr::Provider::create", FALSE, 132, 171, 39, 39 },
  { 1, "PERFORMANCE - open documents", FALSE, 655, 1460, 805, 251 },
  { 1, "PERFORMANCE SfxObjectShell::DoLoad", FALSE, 656, 1210, 554, 49 },
  { 1, "sw (ef112233) ::SwDocShell::Load", FALSE, 702, 1207, 505, 449 },
  { 1, "xmloff (gh445566) ::SvXMLImport::startDocument", FALSE, 703, 759, 56, 56 },
  { 2, "ucb (kl001122) ::ucb::Broker::init", FALSE, 133, 191, 58, 58 },
  { 3, "svtools (mn334455) ::svt::ThumbnailRenderer::run", FALSE, 1212, 1845, 633, 633 },
};

static void
check_example (PsEventStore *store)
{
  g_autofree gint64 *self_times = ps_scopes_get_self_times (store);
  const PsSessionInfo *session;
  const PsMark *mark;
  guint64 main_index;

  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 1);
  session = ps_event_store_get_session (store, 0);
  g_assert_false (session->implicit);
  /* 1246545872.402817 s at timer 0 */
  g_assert_cmpint (session->origin_unix_ns, ==, G_GINT64_CONSTANT (1246545872402817000));
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "process_id"), ==, "4711");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "opening_time"), ==, "1246545872.402817");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "timer_at_opening_ms"), ==, "0");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "closing_time_ms"), ==, "2013");

  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 3);
  g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, G_N_ELEMENTS (example_scopes));

  for (guint i = 0; i < G_N_ELEMENTS (example_scopes); i++)
    {
      const ExpectedScope *e = &example_scopes[i];
      guint64 index = find_span_nth (store, e->name, 0);
      const PsSpan *span = ps_event_store_get_span (store, index);

      g_test_message ("%s", e->name);
      g_assert_cmpuint (thread_of (store, span->track), ==, e->thread);
      g_assert_cmpint (!!(span->flags & PS_SPAN_FLAG_LOGICAL), ==, e->logical);
      g_assert_cmpint (span->flags & ~PS_SPAN_FLAG_LOGICAL, ==, 0);
      g_assert_cmpint (span->begin_ns, ==, e->begin * MS);
      g_assert_cmpint (span->end_ns, ==, e->end * MS);
      g_assert_cmpint (duration_ms (span), ==, e->duration);
      g_assert_cmpint (self_times[index], ==, e->self * MS);
    }

  /* The logical scope's context, and the tree */
  main_index = find_span_nth (store, "desktop (ab123456) ::desktop::Desktop::Main", 0);
  g_assert_cmpstr (str (store, ps_event_store_get_span_context (store, find_span_nth (store, "register services", 0))),
                   ==, "desktop (ab123456) ::desktop::Desktop::Main");
  g_assert_cmpuint (find_span (store, "register services")->parent, ==, main_index);
  g_assert_cmpuint (find_span (store, "register services")->depth, ==, 1);
  g_assert_cmpuint (find_span (store, "sw (ef112233) ::SwDocShell::Load")->depth, ==, 3);
  g_assert_cmpuint (find_span (store, "xmloff (gh445566) ::SvXMLImport::startDocument")->depth, ==, 4);
  g_assert_cmpuint (find_span (store, "ucb (kl001122) ::ucb::Broker::init")->parent, ==, PS_NONE);

  /* Messages and where they belong */
  g_assert_cmpuint (ps_event_store_get_n_marks (store), ==, 7);
  mark = find_mark (store, "PERFORMANCE - entering main");
  g_assert_cmpuint (mark->span, ==, PS_NONE);
  g_assert_cmpuint (thread_of (store, mark->track), ==, 1);
  g_assert_cmpuint (mark->line, ==, 4);
  g_assert_cmpuint (mark->position, ==, 0);
  mark = find_mark (store, "splash screen shown");
  g_assert_cmpuint (mark->span, ==, main_index);
  g_assert_cmpint (mark->time_ns, ==, 402 * MS);
  g_assert_cmpuint (mark->flags, ==, 0);
  mark = find_mark (store, "loading \"file:///home/user/report.odt\"");
  g_assert_cmpuint (mark->span, ==, find_span_nth (store, "PERFORMANCE SfxObjectShell::DoLoad", 0));
  mark = find_mark (store, "worker thread started");
  g_assert_cmpuint (mark->span, ==, PS_NONE);
  g_assert_cmpuint (thread_of (store, mark->track), ==, 3);
  mark = find_mark (store, "styles imported: 212");
  g_assert_cmpuint (mark->span, ==, find_span_nth (store, "sw (ef112233) ::SwDocShell::Load", 0));
  g_assert_cmpuint (mark->flags, ==, PS_MARK_FLAG_CONTEXT_NOT_OPEN);
  g_assert_cmpstr (str (store, mark->name), ==, "sw (ef112233)");
  g_assert_cmpuint (mark->line, ==, 21);
  mark = find_mark (store, "PERFORMANCE - document visible");
  g_assert_cmpuint (mark->span, ==, find_span_nth (store, "PERFORMANCE - open documents", 0));
  mark = find_mark (store, "providers registered: 14");
  g_assert_cmpuint (mark->span, ==, find_span_nth (store, "ucb (kl001122) ::ucb::Broker::init", 0));

  /* Absolute begin of Desktop::Main: 1246545872.405817 s */
  g_assert_cmpint (session->origin_unix_ns + find_span (store, "desktop (ab123456) ::desktop::Desktop::Main")->begin_ns,
                   ==, G_GINT64_CONSTANT (1246545872405817000));

  /* No warning but the one flag; 1211 after 1212 (another thread) is normal */
  assert_warnings (store, "I-CONTEXT-NOT-OPEN@21");
}

static void
test_example (void)
{
  gsize length;
  g_autofree char *text = read_data_file ("startup_4711.log", &length);
  g_autoptr(PsEventStore) store = parse_named_split (text, length, length, "startup_4711.log");

  check_example (store);
}

/* The same result whatever the chunks: every split size 1…64 and a few big */
static void
test_example_chunks (void)
{
  gsize length;
  g_autofree char *text = read_data_file ("startup_4711.log", &length);
  g_autoptr(PsEventStore) whole = parse_named_split (text, length, length, "startup_4711.log");
  g_autofree char *expected = dump (whole);

  for (gsize piece = 1; piece <= 64; piece++)
    {
      g_autoptr(PsEventStore) store = parse_named_split (text, length, piece, "startup_4711.log");
      g_autofree char *got = dump (store);

      g_assert_cmpstr (got, ==, expected);
      if (piece == 1 || piece == 7)
        check_example (store);
    }
}

static void
test_example_loader (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "startup_4711.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  /* Sniffed, not forced */
  store = ps_load_stream (G_INPUT_STREAM (stream), "startup_4711.log", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_event_store_get_format (store), ==, "rtl-logfile");
  check_example (store);
}

/* The span series (perfscope-cli stats) of the example */
static void
test_example_series (void)
{
  gsize length;
  g_autofree char *text = read_data_file ("startup_4711.log", &length);
  g_autoptr(PsEventStore) store = parse_bytes (text, length);
  g_autoptr(GPtrArray) series = ps_series_collect (store, NULL);
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(GPtrArray) filtered = NULL;
  PsSeriesOptions options = { 0 };
  const PsSeries *main_series = NULL;
  const PsSeries *logical = NULL;

  g_assert_cmpuint (series->len, ==, G_N_ELEMENTS (example_scopes));
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *s = g_ptr_array_index (series, i);

      g_assert_cmpint (s->kind, ==, PS_SERIES_SPAN);
      g_assert_cmpstr (s->unit, ==, "s");
      if (strcmp (s->name, "desktop (ab123456) ::desktop::Desktop::Main") == 0)
        main_series = s;
      if (strcmp (s->name, "register services") == 0)
        logical = s;
    }
  g_assert_nonnull (main_series);
  g_assert_cmpuint (main_series->stats.count, ==, 1);
  g_assert_cmpfloat_with_epsilon (main_series->stats.sum, 2.007, 1e-12);
  g_assert_cmpfloat_with_epsilon (main_series->self_sum, 1.037, 1e-12);
  g_assert_null (main_series->context);
  g_assert_nonnull (logical);
  g_assert_true (logical->logical);
  g_assert_cmpstr (logical->context, ==, "desktop (ab123456) ::desktop::Desktop::Main");

  /* Filters keep begin and end together; they see "context : { name" for
   * logical scopes (rtl-logfile.md §5) */
  g_assert_true (ps_scope_filter_add (filter, TRUE, "\\(ab123456\\)|^sw\\b", NULL));
  g_assert_true (ps_scope_filter_add (filter, FALSE, ": \\{ register", NULL));
  options.span_filter = filter;
  filtered = ps_series_collect (store, &options);
  g_assert_cmpuint (filtered->len, ==, 2);
  g_assert_cmpstr (((PsSeries *)g_ptr_array_index (filtered, 0))->name, ==, "desktop (ab123456) ::desktop::Desktop::Main");
  g_assert_cmpstr (((PsSeries *)g_ptr_array_index (filtered, 1))->name, ==, "sw (ef112233) ::SwDocShell::Load");
  /* Self time is the scope's own, whatever the filter hides */
  g_assert_cmpfloat_with_epsilon (((PsSeries *)g_ptr_array_index (filtered, 0))->self_sum, 1.037, 1e-12);
}

/* A name spread over several threads: totals across threads and per thread */
static void
test_series_threads (void)
{
  g_autoptr(PsEventStore) store = parse ("000010 1 { A\n"
                                         "000011 2 { A\n"
                                         "000020 1 } A\n"
                                         "000041 2 } A\n"
                                         "000050 1 { A\n"
                                         "000060 1 { B\n"
                                         "000070 1 } B\n"
                                         "000080 1 } A\n");
  g_autoptr(GPtrArray) all = ps_series_collect (store, NULL);
  g_autoptr(GPtrArray) per_thread = NULL;
  PsSeriesOptions options = { 0 };
  const PsSeries *a;

  g_assert_cmpuint (all->len, ==, 2);
  a = g_ptr_array_index (all, 0);
  g_assert_cmpstr (a->name, ==, "A");
  g_assert_cmpuint (a->stats.count, ==, 3);
  g_assert_cmpfloat_with_epsilon (a->stats.sum, 0.070, 1e-12);
  g_assert_cmpfloat_with_epsilon (a->stats.min, 0.010, 1e-12);
  g_assert_cmpfloat_with_epsilon (a->stats.max, 0.030, 1e-12);
  g_assert_cmpfloat_with_epsilon (a->stats.median, 0.030, 1e-12);
  g_assert_cmpfloat_with_epsilon (a->self_sum, 0.060, 1e-12);
  g_assert_cmpuint (a->n_instances, ==, 2);

  options.spans_per_thread = TRUE;
  per_thread = ps_series_collect (store, &options);
  g_assert_cmpuint (per_thread->len, ==, 3);
  a = g_ptr_array_index (per_thread, 0);
  g_assert_cmpuint (a->stats.count, ==, 2);
  g_assert_cmpfloat_with_epsilon (a->stats.sum, 0.040, 1e-12);
  a = g_ptr_array_index (per_thread, 1);
  g_assert_cmpuint (thread_of (store, a->tracks[0]), ==, 2);
  g_assert_cmpfloat_with_epsilon (a->stats.sum, 0.030, 1e-12);
}

/* §7: malformed and edge-case inputs */

static void
test_empty (void)  /* #1 */
{
  g_autoptr(PsEventStore) empty = parse ("");
  g_autoptr(PsEventStore) blank = parse ("\n\n\r\n\n");

  g_assert_cmpuint (ps_event_store_get_n_sessions (empty), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_spans (blank), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_marks (blank), ==, 0);
  assert_warnings (blank, "");
}

static void
test_no_header (void)  /* #2, #3, #4 */
{
  const char *records = "000001 1 { a\n000002 1 } a\n";
  g_autoptr(PsEventStore) no_header = parse_named_split (records, strlen (records), 100, "soffice_4711.log");
  g_autoptr(PsEventStore) no_pid = parse_named_split (records, strlen (records), 100, "soffice.log.nopid");
  g_autoptr(PsEventStore) only_pid = NULL;
  g_autoptr(PsEventStore) mismatch = NULL;
  const char *pid_only = "Process id is 4711\n000001 1 { a\n000002 1 } a\n";
  const char *pid_other = "Process id is 99\n000001 1 { a\n000002 1 } a\n";

  g_assert_cmpuint (ps_event_store_get_n_sessions (no_header), ==, 1);
  g_assert_true (ps_event_store_get_session (no_header, 0)->implicit);
  g_assert_cmpint (ps_event_store_get_session (no_header, 0)->origin_unix_ns, ==, 0);
  g_assert_cmpstr (ps_event_store_get_metadata (no_header, 0, "process_id"), ==, "4711");
  g_assert_cmpint (duration_ms (find_span (no_header, "a")), ==, 1);
  assert_warnings (no_header, "");

  g_assert_null (ps_event_store_get_metadata (no_pid, 0, "process_id"));

  only_pid = parse_named_split (pid_only, strlen (pid_only), 100, "soffice_4711.log");
  g_assert_false (ps_event_store_get_session (only_pid, 0)->implicit);
  g_assert_cmpint (ps_event_store_get_session (only_pid, 0)->origin_unix_ns, ==, 0);
  g_assert_cmpstr (ps_event_store_get_metadata (only_pid, 0, "process_id"), ==, "4711");
  assert_warnings (only_pid, "");

  mismatch = parse_named_split (pid_other, strlen (pid_other), 100, "soffice_4711.log");
  g_assert_cmpstr (ps_event_store_get_metadata (mismatch, 0, "process_id"), ==, "99");
  assert_warnings (mismatch, "W-PID-MISMATCH@1");
}

static void
test_epoch_forms (void)  /* #5 */
{
  g_autoptr(PsEventStore) comma = parse ("opening log file 1246545872,5 seconds past January 1st 1970\n"
                                         "corresponding to 250 ms after timer start\n"
                                         "000300 1 | : x\n");
  g_autoptr(PsEventStore) whole = parse ("opening log file 1246545872 seconds past January 1st 1970\n"
                                         "corresponding to 0 ms after timer start\n");

  g_assert_cmpint (ps_event_store_get_session (comma, 0)->origin_unix_ns, ==,
                   G_GINT64_CONSTANT (1246545872500000000) - 250 * MS);
  g_assert_cmpint (ps_event_store_get_session (whole, 0)->origin_unix_ns, ==, G_GINT64_CONSTANT (1246545872000000000));
  assert_warnings (comma, "");
}

static void
test_text_lines (void)  /* #6, #7, #9, #10 */
{
  g_autoptr(PsEventStore) store = parse ("some banner\n"                     /* 1: before any record */
                                         "000001 1 | ctx : first line\n"      /* 2 */
                                         "second line\n"                      /* 3: continuation */
                                         "00a123 1 { x\n"                     /* 4: damaged prefix */
                                         "000002 1 { scope\n"                 /* 5 */
                                         "name goes on\n"                     /* 6: continues the name */
                                         "000003 1 } scope\n"                 /* 7: another name: orphan */
                                         "4294967296 1 { y\n"                 /* 8: too large */
                                         "000004 1 } scope\n"                 /* 9 */
                                         "name goes on\n");                   /* 10 */
  const PsMark *mark = find_mark (store, "first line\nsecond line\n00a123 1 { x");
  const PsSpan *span = find_span (store, "scope\nname goes on");

  g_assert_cmpuint (mark->flags, ==, PS_MARK_FLAG_CONTINUED | PS_MARK_FLAG_CONTEXT_NOT_OPEN);
  g_assert_cmpuint (mark->line, ==, 2);
  g_assert_cmpuint (span->flags, ==, PS_SPAN_FLAG_CONTINUED);
  g_assert_cmpint (duration_ms (span), ==, 2);
  g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, 1);
  assert_warnings (store, "W-STRAY-TEXT@1 I-CONTEXT-NOT-OPEN@2 W-DAMAGED-PREFIX@4 W-ORPHAN-END@7 W-DAMAGED-PREFIX@8");
}

static void
test_untimed (void)  /* #8 */
{
  g_autoptr(PsEventStore) store = parse ("000100 7 { LogBridge () queryInterface\n"
                                         "| : ( LogBridge com.sun.star.uno.XInterface,\n"
                                         "type)\n"
                                         "000105 7 } LogBridge () queryInterface return : 0x1234\n"
                                         "{ raw\n");
  const PsMark *mark = find_mark (store, "( LogBridge com.sun.star.uno.XInterface,\ntype)");
  const PsSpan *bridge = find_span (store, "LogBridge () queryInterface");
  const PsSpan *raw = find_span (store, "raw");

  g_assert_cmpuint (mark->flags, ==, PS_MARK_FLAG_UNTIMED | PS_MARK_FLAG_CONTINUED);
  g_assert_cmpint (mark->time_ns, ==, 100 * MS);
  g_assert_cmpuint (thread_of (store, mark->track), ==, 7);
  g_assert_cmpuint (mark->span, ==, find_span_nth (store, "LogBridge () queryInterface", 0));
  /* #26: paired although the end says more */
  g_assert_cmpuint (bridge->flags, ==, PS_SPAN_FLAG_NAME_MISMATCH);
  g_assert_cmpint (duration_ms (bridge), ==, 5);
  /* A begin without prefix takes the previous record's time and thread */
  g_assert_cmpint (raw->begin_ns, ==, 105 * MS);
  g_assert_cmpuint (raw->flags, ==, PS_SPAN_FLAG_UNTIMED | PS_SPAN_FLAG_UNTERMINATED);
  assert_warnings (store, "I-NAME-MISMATCH@4 W-UNTERMINATED@5");
}

static void
test_prefix_forms (void)  /* #11, #12, #13, #39 */
{
  g_autoptr(PsEventStore) store = parse ("42 0 { short\r\n"
                                         "000043\t0  } short\r\n"
                                         "  000044 0 { indented\r\n"
                                         "000046 0 } indented\r");

  g_assert_cmpint (duration_ms (find_span (store, "short")), ==, 1);
  g_assert_cmpuint (find_span (store, "short")->flags, ==, 0);
  g_assert_cmpuint (thread_of (store, find_span (store, "short")->track), ==, 0);
  g_assert_cmpint (duration_ms (find_span (store, "indented")), ==, 2);
  /* A lone CR at the very end is a line end, not a cut-off record */
  g_assert_cmpuint (find_span (store, "indented")->flags, ==, 0);
  assert_warnings (store, "W-LEADING-SPACE@3");
}

static void
test_bytes (void)  /* #14, #15 */
{
  const char text[] = "\xEF\xBB\xBF" "000001 1 { caf\xE9 \xC3\xA9t\xE9\n"
                      "000002 1 | caf\xE9 \xC3\xA9t\xE9 : na\xEFve\n"
                      "000003 1 } caf\xE9 \xC3\xA9t\xE9\n";
  g_autoptr(PsEventStore) store = parse_bytes (text, sizeof text - 1);
  const PsSpan *span = find_span (store, "caf\xE9 \xC3\xA9t\xE9");

  g_assert_cmpint (duration_ms (span), ==, 2);
  g_assert_cmpuint (find_mark (store, "na\xEFve")->span, ==, 0);
  assert_warnings (store, "");
}

static void
test_nul (void)  /* #16 */
{
  const char text[] = "000001 1 { outer\n"
                      "000002 1 | outer : a very long messa\0" "000003 1 { inner\n"
                      "000004 1 } inner\n"
                      "000005 1 } outer\n";
  g_autoptr(PsEventStore) store = parse_bytes (text, sizeof text - 1);
  const PsMark *mark = find_mark (store, "a very long messa");

  g_assert_cmpuint (mark->flags, ==, PS_MARK_FLAG_TRUNCATED);
  g_assert_cmpuint (mark->line, ==, 2);
  g_assert_cmpint (duration_ms (find_span (store, "inner")), ==, 1);
  g_assert_cmpuint (find_span (store, "inner")->parent, ==, 0);
  g_assert_cmpint (duration_ms (find_span (store, "outer")), ==, 4);
  assert_warnings (store, "W-TRUNCATED-NUL@2");
}

static void
test_lost (void)  /* #17 */
{
  g_autoptr(PsEventStore) store = parse ("000100 1 { a\n"
                                         "000123 1 000124 1 } a\n");
  const PsMark *lost;

  g_assert_cmpuint (ps_event_store_get_n_marks (store), ==, 1);
  lost = ps_event_store_get_mark (store, 0);
  g_assert_cmpuint (lost->flags, ==, PS_MARK_FLAG_LOST);
  g_assert_cmpint (lost->time_ns, ==, 123 * MS);
  g_assert_cmpuint (lost->span, ==, 0);
  g_assert_cmpint (duration_ms (find_span (store, "a")), ==, 24);
  assert_warnings (store, "W-LOST@2");
}

static void
test_interrupted (void)  /* #18 */
{
  g_autoptr(PsEventStore) store = parse ("000400 3 { sw (xy111111) ::SwFoo::Bar\n"
                                         "000500 3 | sw (xy111111) ::SwFoo::Bar : 000501 1 { sc (zz222222) ::ScBaz::Init\n"
                                         "rows read: 1200\n"
                                         "000502 1 } sc (zz222222) ::ScBaz::Init\n"
                                         "000600 3 } sw (xy111111) ::SwFoo::Bar\n");
  const PsMark *mark = find_mark (store, "rows read: 1200");
  const PsSpan *inner = find_span (store, "sc (zz222222) ::ScBaz::Init");

  g_assert_cmpuint (mark->flags, ==, PS_MARK_FLAG_INTERRUPTED | PS_MARK_FLAG_REASSEMBLED);
  g_assert_cmpint (mark->time_ns, ==, 500 * MS);
  g_assert_cmpuint (mark->line, ==, 2);
  g_assert_cmpuint (thread_of (store, mark->track), ==, 3);
  g_assert_cmpuint (mark->span, ==, find_span_nth (store, "sw (xy111111) ::SwFoo::Bar", 0));
  g_assert_cmpuint (thread_of (store, inner->track), ==, 1);
  g_assert_cmpint (duration_ms (inner), ==, 1);
  g_assert_cmpuint (inner->flags, ==, 0);
  g_assert_cmpint (duration_ms (find_span (store, "sw (xy111111) ::SwFoo::Bar")), ==, 200);
  assert_warnings (store, "W-INTERRUPTED@2 I-REASSEMBLED@3");
}

static void
test_truncated_end (void)  /* #19, #20 */
{
  g_autoptr(PsEventStore) closed = parse ("000001 1 { a\n000002 1 } a\nclosing log file at 000003");
  g_autoptr(PsEventStore) cut = parse ("001212 3 { svtools (mn334455) ::svt::ThumbnailRenderer::run\n"
                                       "001845 3 } svtools (mn33");
  const PsSpan *span;

  assert_warnings (closed, "");
  g_assert_cmpstr (ps_event_store_get_metadata (closed, 0, "closing_time_ms"), ==, "3");

  span = find_span (cut, "svtools (mn334455) ::svt::ThumbnailRenderer::run");
  g_assert_cmpuint (span->flags, ==, PS_SPAN_FLAG_TRUNCATED);
  g_assert_cmpint (duration_ms (span), ==, 633);
  assert_warnings (cut, "W-TRUNCATED-EOF@2");
}

static void
test_concatenated (void)  /* #21, #22 */
{
  g_autoptr(PsEventStore) store = parse ("opening log file 100.000000 seconds past January 1st 1970\n"
                                         "corresponding to 0 ms after timer start\n"
                                         "Process id is 1\n"
                                         "000001 1 { a\n"
                                         "000002 1 } a\n"
                                         "closing log file at 000003opening log file 200.000000 seconds past January 1st 1970\n"
                                         "corresponding to 10 ms after timer start\n"
                                         "Process id is 2\n"
                                         "000011 1 { b\n"
                                         "opening log file 300.000000 seconds past January 1st 1970\n"
                                         "000001 1 { c\n"
                                         "000004 1 } c\n");
  const PsSpan *b;

  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 3);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "process_id"), ==, "1");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 1, "process_id"), ==, "2");
  g_assert_cmpint (ps_event_store_get_session (store, 1)->origin_unix_ns, ==, G_GINT64_CONSTANT (200000000000) - 10 * MS);
  g_assert_cmpuint (ps_event_store_get_session (store, 1)->first_line, ==, 6);
  g_assert_cmpuint (ps_event_store_get_session (store, 2)->first_line, ==, 10);
  /* Each session has its own threads */
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 3);
  g_assert_cmpuint (ps_event_store_get_track (store, find_span (store, "c")->track)->session, ==, 2);
  b = find_span (store, "b");
  g_assert_cmpuint (b->flags, ==, PS_SPAN_FLAG_UNTERMINATED);
  g_assert_cmpint (duration_ms (find_span (store, "c")), ==, 3);
  assert_warnings (store, "W-CONCAT@6 W-UNTERMINATED@9 W-CONCAT@10");
}

static void
test_pairing (void)  /* #23, #24, #25 */
{
  g_autoptr(PsEventStore) store = parse ("000010 1 } never begun\n"
                                         "000020 1 { outer\n"
                                         "000030 1 { inner\n"
                                         "000045 1 } outer\n"
                                         "000050 1 { open\n"
                                         "000060 2 { other\n"
                                         "000070 1 | : last of thread 1\n"
                                         "closing log file at 000100");
  const PsSpan *inner = find_span (store, "inner");
  const PsSpan *open = find_span (store, "open");
  const PsSpan *other = find_span (store, "other");
  g_autoptr(GPtrArray) series = ps_series_collect (store, NULL);

  g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, 4);
  g_assert_cmpuint (find_span (store, "outer")->flags, ==, 0);
  g_assert_cmpint (duration_ms (find_span (store, "outer")), ==, 25);
  g_assert_cmpuint (inner->flags, ==, PS_SPAN_FLAG_UNTERMINATED);
  g_assert_cmpint (duration_ms (inner), ==, 15);   /* lower bound: up to the outer end */
  g_assert_cmpuint (open->flags, ==, PS_SPAN_FLAG_UNTERMINATED);
  g_assert_cmpint (duration_ms (open), ==, 50);    /* up to the close time */
  g_assert_cmpint (duration_ms (other), ==, 40);
  assert_warnings (store, "W-ORPHAN-END@1 W-UNTERMINATED@3 W-UNTERMINATED@5 W-UNTERMINATED@6");

  /* Unterminated scopes are left out of the statistics, and counted */
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *s = g_ptr_array_index (series, i);

      if (strcmp (s->name, "outer") == 0)
        {
          g_assert_cmpuint (s->stats.count, ==, 1);
          g_assert_cmpfloat_with_epsilon (s->self_sum, 0.025, 1e-12);
        }
      else
        {
          g_assert_cmpuint (s->stats.count, ==, 0);
          g_assert_cmpuint (s->n_excluded, ==, 1);
        }
    }
}

static void
test_unterminated_without_close (void)  /* #24 without close line */
{
  g_autoptr(PsEventStore) store = parse ("000010 1 { a\n"
                                         "000030 1 | : later\n"
                                         "000090 2 | : other thread\n");

  g_assert_cmpint (duration_ms (find_span (store, "a")), ==, 20);
  g_assert_cmpuint (find_span (store, "a")->flags, ==, PS_SPAN_FLAG_UNTERMINATED);
}

static void
test_logical (void)  /* #27, #28, #29, #38 */
{
  g_autoptr(PsEventStore) store = parse ("000001 1 { phys\n"
                                         "000002 1 | ctx : { load start: doc\n"
                                         "000005 1 | ctx : } load end: doc\n"
                                         "000006 1 | ctx : } nothing open\n"
                                         "000007 1 | phys : { phase\n"
                                         "000008 1 | phys : {} is notation\n"
                                         "000009 1 } phys\n");
  const PsSpan *load = find_span (store, "load start: doc");
  const PsSpan *phase = find_span (store, "phase");

  g_assert_cmpuint (load->flags, ==, PS_SPAN_FLAG_LOGICAL | PS_SPAN_FLAG_NAME_MISMATCH);
  g_assert_cmpint (duration_ms (load), ==, 3);
  g_assert_cmpstr (str (store, ps_event_store_get_span_context (store, find_span_nth (store, "load start: doc", 0))), ==, "ctx");
  g_assert_cmpuint (phase->flags, ==, PS_SPAN_FLAG_LOGICAL | PS_SPAN_FLAG_CLOSED_BY_PARENT);
  g_assert_cmpint (phase->end_ns, ==, 9 * MS);
  /* Attached to the scope it names, not to the logical one open inside */
  g_assert_cmpuint (find_mark (store, "{} is notation")->span, ==, find_span_nth (store, "phys", 0));
  g_assert_cmpuint (find_span (store, "phys")->flags, ==, 0);
  assert_warnings (store, "I-NAME-MISMATCH@3 W-ORPHAN-LOGICAL-END@4 W-CLOSED-BY-PARENT@5");
}

/* The totals per scope name, here of the spans kept, are the same when the
 * parser sums the scopes up as they end (parse () checks): a logical scope
 * that ends while a scope it contains is still open waits for that one,
 * whose duration counts in its self time, not in its parent's */
static void
test_totals_while_parsing (void)
{
  g_autoptr(PsEventStore) nested = parse ("000001 1 { a\n"
                                          "000002 1 { b\n"
                                          "000005 1 } b\n"
                                          "000006 1 { b\n"
                                          "000010 1 } b\n"
                                          "000010 2 { b\n"
                                          "000011 2 } b\n"
                                          "000020 1 } a\n");
  g_autoptr(PsEventStore) crossed = parse ("000001 1 { a\n"
                                           "000002 1 | a : { outer\n"
                                           "000003 1 { inner\n"
                                           "000006 1 | a : } outer\n"
                                           "000009 1 } inner\n"
                                           "000010 1 } a\n");
  g_autoptr(PsEventStore) chained = parse ("000001 1 { a\n"
                                           "000002 1 | a : { one\n"
                                           "000003 1 | a : { two\n"
                                           "000004 1 { p\n"
                                           "000005 1 | a : } one\n"
                                           "000006 1 | a : } two\n"
                                           "000008 1 } p\n"
                                           "000009 1 } a\n");
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions summary = { .durations_summary_only = TRUE };
  PsSeries *a, *b, *outer;
  static const struct { const char *name; double sum; double self_sum; } chain[] = {
    { "a", 0.008, 0.005 }, { "one", 0.003, 0.0 }, { "two", 0.003, -0.001 }, { "p", 0.004, 0.004 },
  };

  series = ps_series_collect (nested, &summary);
  g_assert_cmpuint (series->len, ==, 2);
  a = g_ptr_array_index (series, 0);
  b = g_ptr_array_index (series, 1);
  g_assert_cmpstr (a->name, ==, "a");
  g_assert_cmpfloat (a->stats.sum, ==, 0.019);
  g_assert_cmpfloat (a->self_sum, ==, 0.012);
  g_assert_cmpstr (b->name, ==, "b");
  g_assert_cmpuint (b->stats.count, ==, 3);
  g_assert_cmpfloat (b->stats.sum, ==, 0.008);
  g_assert_cmpfloat (b->self_sum, ==, 0.008);
  g_assert_cmpuint (b->n_instances, ==, 2);
  g_clear_pointer (&series, g_ptr_array_unref);

  series = ps_series_collect (crossed, &summary);
  outer = g_ptr_array_index (series, 1);
  g_assert_cmpstr (outer->name, ==, "outer");
  g_assert_cmpfloat (outer->stats.sum, ==, 0.004);
  /* inner (6 ms) began inside it */
  g_assert_cmpfloat (outer->self_sum, ==, -0.002);
  a = g_ptr_array_index (series, 0);
  g_assert_cmpfloat (a->self_sum, ==, 0.005);
  g_clear_pointer (&series, g_ptr_array_unref);

  /* one and two each ended under their child */
  series = ps_series_collect (chained, &summary);
  g_assert_cmpuint (series->len, ==, G_N_ELEMENTS (chain));
  for (guint i = 0; i < G_N_ELEMENTS (chain); i++)
    {
      PsSeries *s = g_ptr_array_index (series, i);

      g_assert_cmpstr (s->name, ==, chain[i].name);
      g_assert_cmpfloat (s->stats.sum, ==, chain[i].sum);
      g_assert_cmpfloat (s->self_sum, ==, chain[i].self_sum);
    }
}

static void
test_threads_out_of_order (void)  /* #30, #31 */
{
  g_autoptr(PsEventStore) store = parse ("000100 1 { a\n"
                                         "000099 2 { b\n"
                                         "000098 3 { c\n"
                                         "000120 2 } b\n"
                                         "000110 1 { a2\n"
                                         "000119 3 } c\n"
                                         "000115 1 } a2\n"
                                         "000101 3 | : late\n"
                                         "000130 1 } a\n");

  g_assert_cmpint (duration_ms (find_span (store, "a")), ==, 30);
  g_assert_cmpint (duration_ms (find_span (store, "b")), ==, 21);
  g_assert_cmpint (duration_ms (find_span (store, "a2")), ==, 5);
  g_assert_cmpuint (find_span (store, "a2")->parent, ==, 0);
  g_assert_cmpint (duration_ms (find_span (store, "c")), ==, 21);
  /* ".. | late" goes back on thread 3 itself */
  assert_warnings (store, "W-CLOCK-BACK@8");
}

static void
test_clock (void)  /* #32, #33, #34 */
{
  g_autoptr(PsEventStore) back = parse ("000100 1 { around\n"
                                        "000200 1 { inner\n"
                                        "000050 1 } inner\n"
                                        "000060 1 { after\n"
                                        "000070 1 } after\n"
                                        "000080 1 } around\n");
  g_autoptr(PsEventStore) wrap = parse ("4294967290 1 { w\n"
                                        "000005 1 } w\n");
  g_autoptr(PsEventStore) underflow = parse ("000005 1 { u\n"
                                             "4294967290 1 } u\n");
  g_autoptr(GPtrArray) series = ps_series_collect (back, NULL);

  g_assert_cmpuint (find_span (back, "inner")->flags, ==, PS_SPAN_FLAG_CLOCK_BACK);
  g_assert_cmpint (duration_ms (find_span (back, "inner")), ==, -150);
  g_assert_cmpuint (find_span (back, "around")->flags, ==, PS_SPAN_FLAG_CLOCK_BACK);
  g_assert_cmpuint (find_span (back, "after")->flags, ==, 0);
  g_assert_cmpint (duration_ms (find_span (back, "after")), ==, 10);
  assert_warnings (back, "W-CLOCK-BACK@3");
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *s = g_ptr_array_index (series, i);

      g_assert_cmpuint (s->stats.count, ==, strcmp (s->name, "after") == 0 ? 1 : 0);
    }

  g_assert_cmpint (duration_ms (find_span (wrap, "w")), ==, 11);
  g_assert_cmpuint (find_span (wrap, "w")->flags, ==, 0);
  assert_warnings (wrap, "I-WRAP@2");

  g_assert_cmpint (duration_ms (find_span (underflow, "u")), ==, -11);
  g_assert_cmpuint (find_span (underflow, "u")->flags, ==, PS_SPAN_FLAG_CLOCK_BACK);
  assert_warnings (underflow, "W-CLOCK-BACK@2");
}

static void
test_message_forms (void)  /* #35, #36, #37 */
{
  g_autoptr(PsEventStore) store = parse ("000001 1 {\n"
                                         "000002 1 | no separator here\n"
                                         "000003 1 | named :\n"
                                         "000004 1 | :\n"
                                         "000005 1 |  : two spaces\n"
                                         "000006 1 } \n");
  const PsMark *mark;

  g_assert_cmpint (duration_ms (find_span (store, "")), ==, 5);
  g_assert_cmpuint (find_span (store, "")->flags, ==, 0);
  mark = find_mark (store, "no separator here");
  g_assert_cmpuint (mark->flags, ==, PS_MARK_FLAG_NO_SEPARATOR);
  g_assert_cmpstr (str (store, mark->name), ==, "");
  mark = ps_event_store_get_mark (store, 1);
  g_assert_cmpstr (str (store, mark->name), ==, "named");
  g_assert_cmpstr (str (store, mark->text), ==, "");
  mark = ps_event_store_get_mark (store, 2);
  g_assert_cmpstr (str (store, mark->name), ==, "");
  g_assert_cmpstr (str (store, mark->text), ==, "");
  mark = find_mark (store, "two spaces");
  g_assert_cmpstr (str (store, mark->name), ==, "");
  assert_warnings (store, "W-NOSEP@2 I-CONTEXT-NOT-OPEN@3");
}

static void
test_long_line (void)  /* #41 */
{
  gsize name_length = 100 * 1024;
  g_autofree char *name = g_malloc (name_length + 1);
  g_autofree char *text = NULL;

  memset (name, 'n', name_length);
  name[name_length] = '\0';
  text = g_strdup_printf ("000001 1 { %s\n000002 1 } %s\n", name, name);

  for (gsize piece = 1000; piece <= 1000000; piece *= 1000)
    {
      g_autoptr(PsEventStore) store = parse_named_split (text, strlen (text), piece, NULL);

      g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, 1);
      g_assert_cmpuint (strlen (str (store, ps_event_store_get_span (store, 0)->name)), ==, name_length);
      g_assert_cmpint (duration_ms (ps_event_store_get_span (store, 0)), ==, 1);
      assert_warnings (store, "");
    }
}

/* Every repair at once, split at every size: the result never depends on
 * where the chunks end, and the fast path and the general one agree. */
static const char torture[] =
  "\xEF\xBB\xBF" "opening log file 1246545872.402817 seconds past January 1st 1970\n"
  "corresponding to 7 ms after timer start\n"
  "Process id is 4711\n"
  "stray\n"
  "000010 1 { a\n"
  "000011 1 | a : { logical\n"
  "000012 2 { b\n"
  "000013 1 | a : message\n"
  "continued\n"
  "000014 2 | b : 000015 1 { c\n"
  "text of b\n"
  "000016 1 } c\n"
  "000017 1 000018 1 | : after lost\n"
  "000019 1 | a : } logical\n"
  "000020 1 | no sep\n"
  "000021 2 } b return : 1\n"
  "| : untimed\n"
  "000022 1 } nothing\n"
  "000023 1 | : cut\0" "000024 1 { d\r\n"
  "000020 1 } d\n"
  "  000025 3 { e\n"
  "000026 3 { f\n"
  "000027 3 } e\n"
  "000027 3 { h\n"
  "000027 3 }x damaged\n"
  "000028 1 } a\n"
  "closing log file at 000030opening log file 1246545900.5 seconds past January 1st 1970\n"
  "000001 9 { g\n"
  "000002 9 } g";

static void
test_torture_chunks (void)
{
  gsize length = sizeof torture - 1;
  g_autoptr(PsEventStore) whole = parse_named_split (torture, length, length, "soffice_4711.log");
  g_autofree char *expected = dump (whole);

  g_test_message ("%s", expected);
  g_assert_cmpuint (ps_event_store_get_n_sessions (whole), ==, 2);
  g_assert_cmpuint (ps_event_store_get_n_spans (whole), ==, 9);
  /* Line 25 ("}x") is no record: the text of scope h, which never ends */
  assert_warnings (whole,
                   "W-STRAY-TEXT@4 W-INTERRUPTED@10 I-REASSEMBLED@11 W-LOST@13 W-NOSEP@15 "
                   "I-NAME-MISMATCH@16 W-ORPHAN-END@18 W-TRUNCATED-NUL@19 W-CLOCK-BACK@20 "
                   "W-LEADING-SPACE@21 W-UNTERMINATED@22 W-DAMAGED-PREFIX@25 W-UNTERMINATED@24 "
                   "W-CONCAT@27 W-TRUNCATED-EOF@29");

  for (gsize piece = 1; piece <= 64; piece++)
    {
      g_autoptr(PsEventStore) store = parse_named_split (torture, length, piece, "soffice_4711.log");
      g_autofree char *got = dump (store);

      g_assert_cmpstr (got, ==, expected);
    }
}

/* The fast path (records scanned in blocks, on a thread of their own when
 * the input comes in large pieces) and the general path agree on every
 * line. The input has long runs of plain records, which the fast path
 * takes, in every shape it accepts — field widths from 1 to 10 digits,
 * thread 0 and ids beyond the small-id table, names of every length
 * around the 8-byte words it compares, empty names and messages, 32-bit
 * wrap-around — between clusters of lines it must leave to the general
 * path: tabs and several spaces, leading blanks, CR LF, NUL bytes, lost
 * and interrupted records, continuations, untimed records, damaged
 * prefixes, logical scopes, orphan ends. */

static const char * const mixed_names[] = {
  "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh12345678", "abcdefgh123456789",
  "sw (ab123456) ::SwDocShell::Load", "sw (ab123456) ::SwDocShell::Save",
  "sc (cd789012) ::ScDocShell::ConvertFrom", "sc (cd789012) ::ScDocShell::ConvertTo",
  "PERFORMANCE SfxObjectShell::DoLoad", "xmloff (gh445566) ::SvXMLImport::startDocument",
};

/* Thread ids: 0, small ones, and ones beyond SMALL_THREAD_IDS */
static const guint32 mixed_threads[] = { 0, 1, 2, 7, 255, 256, 4000000000u };

typedef struct
{
  guint32      time;
  guint        depth;
  const char  *open[64];
} MixedThread;

/* One plain record of a random thread: a begin, an end or a message */
static void
append_plain_record (GString     *out,
                     GRand       *rand,
                     MixedThread *threads)
{
  guint t = g_rand_int_range (rand, 0, G_N_ELEMENTS (mixed_threads));
  MixedThread *thread = &threads[t];
  guint choice = g_rand_int_range (rand, 0, 10);
  thread->time += g_rand_int_range (rand, 0, 5);
  /* Widths from 1 to 10 digits: %u of a small time, %06u, %08u, %010u;
   * leading zeros in a thread id */
  if (choice & 1)
    g_string_append_printf (out, "%06u %u ", thread->time, mixed_threads[t]);
  else if (choice == 4)
    g_string_append_printf (out, "%08u %03u ", thread->time, mixed_threads[t]);
  else if (choice == 2)
    g_string_append_printf (out, "%010u %u ", thread->time, mixed_threads[t]);
  else
    g_string_append_printf (out, "%u %u ", thread->time, mixed_threads[t]);

  if (thread->depth > 0 && (choice < 4 || thread->depth == G_N_ELEMENTS (thread->open)))
    g_string_append_printf (out, "} %s\n", thread->open[--thread->depth]);
  else if (choice < 8)
    {
      const char *name = mixed_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (mixed_names))];

      thread->open[thread->depth++] = name;
      g_string_append_printf (out, "{ %s\n", name);
    }
  else if (choice == 8 && thread->depth > 0)
    g_string_append_printf (out, "| %s : rows read: %u\n", thread->open[g_rand_int_range (rand, 0, thread->depth)],
                            g_rand_int_range (rand, 0, 5000));
  else if (choice == 8)
    g_string_append (out, "| : text without a scope\n");
  else
    g_string_append_printf (out, "| %s :\n", mixed_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (mixed_names))]);
}

/* Appends a line with every "@" replaced by a time */
static void
append_with_time (GString    *out,
                  const char *line,
                  gsize       length,
                  guint32     time)
{
  for (gsize i = 0; i < length; i++)
    {
      if (line[i] == '@')
        g_string_append_printf (out, "%06u", time);
      else
        g_string_append_c (out, line[i]);
    }
}

static char *
mixed_log (gsize *length)
{
#define IRREGULAR(text) { text, sizeof (text) - 1 }
  static const struct { const char *text; gsize length; } irregular[] = {
    IRREGULAR ("@\t1\t{ tabbed\n"),
    IRREGULAR ("@  1  } tabbed\n"),
    IRREGULAR ("  @ 2 { leading blanks\n"),
    IRREGULAR ("@ 2 } leading blanks\r\n"),
    IRREGULAR ("@ 1 | a : cut short\0@ 1 { after the NUL\n"),
    IRREGULAR ("@ 2 @ 2 | : after a lost record\n"),
    IRREGULAR ("@ 7 | abcdefg : @ 7 { interrupted\ntext of the interrupted message\n@ 7 } interrupted\n"),
    IRREGULAR ("a continuation of the record before\n"),
    IRREGULAR ("| : ( LogBridge 1,2 )\n"),
    IRREGULAR ("12345678901 1 { eleven digits\n"),
    IRREGULAR ("@ 1 | no separator here\n"),
    IRREGULAR ("@ 1 | abcdefg : { logical phase\n"),
    IRREGULAR ("@ 1 | abcdefg : } logical phase\n"),
    IRREGULAR ("@ 256 } never begun\n"),
    IRREGULAR ("@ 1 | : 42 starts with a digit\n"),
  };
#undef IRREGULAR
  g_autoptr(GRand) rand = g_rand_new_with_seed (4711);
  GString *out = g_string_new ("opening log file 1246545872.402817 seconds past January 1st 1970\n"
                               "corresponding to 0 ms after timer start\n"
                               "Process id is 4711\n");
  MixedThread threads[G_N_ELEMENTS (mixed_threads)] = { { 0 } };

  /* Thread 255 runs into the 32-bit wrap-around, thread 2 a step back */
  threads[4].time = G_MAXUINT32 - 3000;

  for (guint cluster = 0; cluster < 64; cluster++)
    {
      guint n_plain = g_rand_int_range (rand, 100, 900);

      for (guint i = 0; i < n_plain; i++)
        append_plain_record (out, rand, threads);

      for (guint i = 0; i < 3; i++)
        {
          guint which = g_rand_int_range (rand, 0, G_N_ELEMENTS (irregular));

          append_with_time (out, irregular[which].text, irregular[which].length, threads[1].time);
        }

      if (cluster == 32)
        {
          threads[2].time -= MIN (threads[2].time, 100);
          g_string_append_printf (out, "%06u 2 | : the clock went back\n", threads[2].time);
        }
    }
  g_string_append (out, "closing log file at 999999");

  *length = out->len;
  return g_string_free (out, FALSE);
}

static void
test_fast_path_agrees (void)
{
  gsize length;
  g_autofree char *text = mixed_log (&length);
  /* In one piece: the long runs of plain records are tokens */
  g_autoptr(PsEventStore) whole = parse_named_split (text, length, length, "soffice_4711.log");
  g_autofree char *expected = dump (whole);
  g_autofree char *warnings = warning_list (whole);
  static const gsize pieces[] = { 4096, 1000, 61, 300 * 1024 };
  static const gsize chunks[] = { 4096, 64 * 1024, 300 * 1024 };
  const PsSpan *span;
  guint64 n_wrapped = 0;

  g_assert_cmpuint (length, >, 1024 * 1024);
  g_assert_cmpuint (ps_event_store_get_n_spans (whole), >, 10000);
  g_assert_nonnull (strstr (warnings, "I-WRAP@"));
  g_assert_nonnull (strstr (warnings, "W-CLOCK-BACK@"));
  g_assert_nonnull (strstr (warnings, "W-TRUNCATED-NUL@"));
  g_assert_nonnull (strstr (warnings, "W-INTERRUPTED@"));
  g_assert_nonnull (strstr (warnings, "W-LEADING-SPACE@"));
  g_assert_nonnull (strstr (warnings, "W-DAMAGED-PREFIX@"));

  /* Scopes across the wrap-around keep their few milliseconds */
  for (guint64 i = 0; i < ps_event_store_get_n_spans (whole); i++)
    {
      span = ps_event_store_get_span (whole, i);
      if (thread_of (whole, span->track) == 255 && span->begin_ns < (gint64)G_MAXUINT32 * MS
          && span->end_ns > (gint64)G_MAXUINT32 * MS)
        {
          /* Not the 2³² ms a wrong unwrapping would give */
          g_assert_cmpint (duration_ms (span), >=, 0);
          g_assert_cmpint (duration_ms (span), <, 1000000);
          n_wrapped++;
        }
    }
  g_assert_cmpuint (n_wrapped, >, 0);

  /* In smaller pieces, with runs cut short or none at all: the same store */
  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      g_autoptr(PsEventStore) store = parse_named_split (text, length, pieces[i], "soffice_4711.log");
      g_autofree char *got = dump (store);

      g_assert_cmpstr (got, ==, expected);
    }

  /* Through the loader, which scans each chunk on its reading thread
   * while it applies the one before: the same store */
  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, length, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = ps_load_stream (stream, "soffice_4711.log",
                                                      &(PsLoadParams) {
                                                        .chunk_size = chunks[i],
                                                        .total_size = length,
                                                      },
                                                      NULL, &error);
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      got = dump (store);
      g_assert_cmpstr (got, ==, expected);
    }

  /* The same pipeline keeping only the totals: those of the store */
  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, length, NULL);
      g_autoptr(GHashTable) options = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = NULL;

      ps_format_options_set (&options, PS_FORMAT_OPTION_TOTALS_ONLY, "true");
      store = ps_load_stream (stream, "soffice_4711.log",
                              &(PsLoadParams) { .options = options, .chunk_size = chunks[i], .total_size = length },
                              NULL, &error);
      g_assert_no_error (error);
      assert_same_totals (whole, store);
    }
}

/* #42: a million scopes in bounded memory — the store's own arrays and
 * nothing per event besides */
static void
test_million_scopes (void)
{
  const guint n_scopes = 1000000;
  const guint n_threads = 4;
  const guint depth = 50;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (&ps_format_rtl_logfile, builder);
  g_autoptr(GString) chunk = g_string_sized_new (1 << 20);
  guint32 time = 0;
  guint made = 0;
  gsize bytes = 0;
  gsize memory;

  /* Each thread nests `depth` scopes and unwinds them, in turn */
  while (made < n_scopes)
    {
      for (guint t = 0; t < n_threads && made < n_scopes; t++)
        {
          guint n = MIN (depth, n_scopes - made);

          for (guint d = 0; d < n; d++)
            g_string_append_printf (chunk, "%06u %u { mod (ab%06u) ::Class%u::Function%u\n", time++, t + 1, d, d % 7, d);
          g_string_append_printf (chunk, "%06u %u | mod (ab%06u) ::Class%u::Function%u : at depth %u\n",
                                  time, t + 1, n - 1, (n - 1) % 7, n - 1, n);
          for (guint d = n; d-- > 0;)
            g_string_append_printf (chunk, "%06u %u } mod (ab%06u) ::Class%u::Function%u\n", time++, t + 1, d, d % 7, d);
          made += n;
        }

      if (chunk->len > (1 << 20) - 8192 || made >= n_scopes)
        {
          g_assert_true (ps_parser_feed (parser, (const guint8 *)chunk->str, chunk->len, NULL));
          bytes += chunk->len;
          g_string_truncate (chunk, 0);
        }
    }
  g_assert_true (ps_parser_finish (parser, NULL));
  ps_store_builder_flush (builder);

  g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, n_scopes);
  g_assert_cmpuint (ps_event_store_get_n_marks (store), ==, n_scopes / depth);
  g_assert_cmpuint (ps_event_store_get_n_warnings_raised (store), ==, 0);
  g_assert_cmpint (duration_ms (ps_event_store_get_span (store, 0)), ==, 99);

  /* 32 bytes a scope, 40 a message, the strings (a few hundred names and
   * the 20 000 message texts) and the last chunks' slack */
  memory = ps_event_store_get_memory_size (store);
  g_test_message ("%zu bytes of log, %zu bytes in the store", bytes, memory);
  g_assert_cmpuint (memory, <, (gsize)n_scopes * 32 + (n_scopes / depth) * 40 + 4 * 1024 * 1024);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rtl/example", test_example);
  g_test_add_func ("/rtl/example/chunks", test_example_chunks);
  g_test_add_func ("/rtl/example/loader", test_example_loader);
  g_test_add_func ("/rtl/example/series", test_example_series);
  g_test_add_func ("/rtl/series/threads", test_series_threads);
  g_test_add_func ("/rtl/malformed/empty", test_empty);
  g_test_add_func ("/rtl/malformed/no-header", test_no_header);
  g_test_add_func ("/rtl/malformed/epoch-forms", test_epoch_forms);
  g_test_add_func ("/rtl/malformed/text-lines", test_text_lines);
  g_test_add_func ("/rtl/malformed/untimed", test_untimed);
  g_test_add_func ("/rtl/malformed/prefix-forms", test_prefix_forms);
  g_test_add_func ("/rtl/malformed/bytes", test_bytes);
  g_test_add_func ("/rtl/malformed/nul", test_nul);
  g_test_add_func ("/rtl/malformed/lost", test_lost);
  g_test_add_func ("/rtl/malformed/interrupted", test_interrupted);
  g_test_add_func ("/rtl/malformed/truncated-end", test_truncated_end);
  g_test_add_func ("/rtl/malformed/concatenated", test_concatenated);
  g_test_add_func ("/rtl/malformed/pairing", test_pairing);
  g_test_add_func ("/rtl/malformed/unterminated-without-close", test_unterminated_without_close);
  g_test_add_func ("/rtl/malformed/logical", test_logical);
  g_test_add_func ("/rtl/malformed/threads-out-of-order", test_threads_out_of_order);
  g_test_add_func ("/rtl/totals-while-parsing", test_totals_while_parsing);
  g_test_add_func ("/rtl/malformed/clock", test_clock);
  g_test_add_func ("/rtl/malformed/message-forms", test_message_forms);
  g_test_add_func ("/rtl/malformed/long-line", test_long_line);
  g_test_add_func ("/rtl/torture-chunks", test_torture_chunks);
  g_test_add_func ("/rtl/fast-path-agrees", test_fast_path_agrees);
  g_test_add_func ("/rtl/million-scopes", test_million_scopes);

  return g_test_run ();
}
