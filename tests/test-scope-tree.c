/* test-scope-tree.c — the per-thread tree of scopes and messages
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The example of rtl-logfile.md §6 as a tree, with and without
 * include/exclude filters, and constructed stores for the corners: a
 * dropped scope with messages, messages after the last scope, several
 * sessions.
 */
#include "config.h"

#include "ps-loader.h"
#include "ps-scope-tree.h"
#include "ps-store-builder.h"

#define MS (G_GINT64_CONSTANT (1000000))

static PsEventStore *
load_example (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "startup_4711.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), "startup_4711.log", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_event_store_get_format (store), ==, "rtl-logfile");

  return store;
}

/* "scope name" for a span, "| text" for a message, "thread N" */
static char *
describe (PsScopeTree *tree,
          PsScopeNode  node)
{
  PsEventStore *store = ps_scope_tree_get_store (tree);

  switch (node.kind)
    {
    case PS_SCOPE_NODE_SPAN:
      return g_strdup (ps_event_store_get_string (store, ps_event_store_get_span (store, node.index)->name));
    case PS_SCOPE_NODE_MARK:
      return g_strconcat ("| ", ps_event_store_get_string (store, ps_event_store_get_mark (store, node.index)->text), NULL);
    case PS_SCOPE_NODE_THREAD:
      return g_strdup_printf ("thread %" G_GINT64_FORMAT, ps_event_store_get_track (store, node.index)->number);
    default:
      g_assert_not_reached ();
      return NULL;
    }
}

static void
assert_children (PsScopeTree       *tree,
                 PsScopeNode        node,
                 const char * const expected[])
{
  guint n_expected = g_strv_length ((char **)expected);
  guint n = ps_scope_tree_get_n_children (tree, node);

  for (guint i = 0; i < MIN (n, n_expected); i++)
    {
      PsScopeNode child = ps_scope_tree_get_child (tree, node, i);
      g_autofree char *text = describe (tree, child);
      PsScopeNode parent = ps_scope_tree_get_parent (tree, child);

      g_assert_cmpstr (text, ==, expected[i]);
      /* Every child names its node as parent */
      g_assert_cmpuint (parent.kind, ==, node.kind);
      g_assert_cmpuint (parent.index, ==, node.index);
    }
  g_assert_cmpuint (n, ==, n_expected);
}

/* The child of node whose description is text */
static PsScopeNode
find_child (PsScopeTree *tree,
            PsScopeNode  node,
            const char  *text)
{
  for (guint i = 0; i < ps_scope_tree_get_n_children (tree, node); i++)
    {
      PsScopeNode child = ps_scope_tree_get_child (tree, node, i);
      g_autofree char *child_text = describe (tree, child);

      if (g_str_equal (child_text, text))
        return child;
    }

  g_error ("no child “%s”", text);
  return node;
}

static guint
find_root (PsScopeTree *tree,
           gint64       thread_id)
{
  PsEventStore *store = ps_scope_tree_get_store (tree);

  for (guint r = 0; r < ps_scope_tree_get_n_roots (tree); r++)
    if (ps_event_store_get_track (store, ps_scope_tree_get_root (tree, r)->track)->number == thread_id)
      return r;

  g_error ("no thread %" G_GINT64_FORMAT, thread_id);
  return 0;
}

#define MAIN "desktop (ab123456) ::desktop::Desktop::Main"
#define OPEN_DOCUMENTS "PERFORMANCE - open documents"
#define DO_LOAD "PERFORMANCE SfxObjectShell::DoLoad"
#define SW_LOAD "sw (ef112233) ::SwDocShell::Load"
#define XMLOFF "xmloff (gh445566) ::SvXMLImport::startDocument"

static void
test_example (void)
{
  g_autoptr(PsEventStore) store = load_example ();
  g_autoptr(PsScopeTree) tree = ps_scope_tree_new (store, NULL);
  const PsScopeRoot *root;
  PsScopeNode thread1, main_scope, open_documents, do_load, sw_load, register_services, message;

  g_assert_false (ps_scope_tree_is_filtered (tree));
  g_assert_cmpuint (ps_scope_tree_get_n_roots (tree), ==, 3);

  /* Thread 1: the rtl-logfile.md §6 table rows of thread 1, messages in
   * place */
  root = ps_scope_tree_get_root (tree, find_root (tree, 1));
  g_assert_cmpuint (root->n_spans, ==, 7);
  g_assert_cmpuint (root->n_marks, ==, 5);
  g_assert_cmpint (root->begin_ns, ==, 0);
  g_assert_cmpint (root->end_ns, ==, 2010 * MS);
  g_assert_cmpint (root->scoped_ns, ==, 2007 * MS);
  g_assert_cmpuint (root->n_unmeasured, ==, 0);
  g_assert_cmpuint (root->session, ==, 0);

  thread1 = ps_scope_tree_get_root_node (tree, find_root (tree, 1));
  g_assert_cmpuint (thread1.kind, ==, PS_SCOPE_NODE_THREAD);
  assert_children (tree, thread1, (const char *[]) { "| PERFORMANCE - entering main", MAIN, NULL });

  main_scope = find_child (tree, thread1, MAIN);
  assert_children (tree, main_scope, (const char *[]) {
    "register services",
    "configmgr (ij778899) ::configmgr::Provider::create",
    "| splash screen shown",
    OPEN_DOCUMENTS,
    NULL });

  register_services = find_child (tree, main_scope, "register services");
  g_assert_true (ps_event_store_get_span (store, register_services.index)->flags & PS_SPAN_FLAG_LOGICAL);
  g_assert_cmpuint (ps_scope_tree_get_n_children (tree, register_services), ==, 0);

  open_documents = find_child (tree, main_scope, OPEN_DOCUMENTS);
  assert_children (tree, open_documents, (const char *[]) { DO_LOAD, "| PERFORMANCE - document visible", NULL });

  do_load = find_child (tree, open_documents, DO_LOAD);
  assert_children (tree, do_load, (const char *[]) { "| loading \"file:///home/user/report.odt\"", SW_LOAD, NULL });

  /* "styles imported" named a scope that was not open: it went to the
   * innermost open one, after the child that had ended before it */
  sw_load = find_child (tree, do_load, SW_LOAD);
  assert_children (tree, sw_load, (const char *[]) { XMLOFF, "| styles imported: 212", NULL });
  message = find_child (tree, sw_load, "| styles imported: 212");
  g_assert_cmpuint (message.kind, ==, PS_SCOPE_NODE_MARK);
  g_assert_cmpuint (ps_event_store_get_mark (store, message.index)->line, ==, 21);
  g_assert_cmpuint (ps_scope_tree_get_n_children (tree, message), ==, 0);

  /* Threads 2 and 3 */
  assert_children (tree, ps_scope_tree_get_root_node (tree, find_root (tree, 2)),
                   (const char *[]) { "ucb (kl001122) ::ucb::Broker::init", NULL });
  assert_children (tree, find_child (tree, ps_scope_tree_get_root_node (tree, find_root (tree, 2)),
                                     "ucb (kl001122) ::ucb::Broker::init"),
                   (const char *[]) { "| providers registered: 14", NULL });
  assert_children (tree, ps_scope_tree_get_root_node (tree, find_root (tree, 3)),
                   (const char *[]) { "| worker thread started", "svtools (mn334455) ::svt::ThumbnailRenderer::run", NULL });
  root = ps_scope_tree_get_root (tree, find_root (tree, 3));
  g_assert_cmpint (root->begin_ns, ==, 705 * MS);
  g_assert_cmpint (root->end_ns, ==, 1845 * MS);
  g_assert_cmpint (root->scoped_ns, ==, 633 * MS);

  /* Every span and mark is in the tree exactly once */
  {
    guint64 n_spans = 0, n_marks = 0;

    for (guint r = 0; r < ps_scope_tree_get_n_roots (tree); r++)
      {
        n_spans += ps_scope_tree_get_root (tree, r)->n_spans;
        n_marks += ps_scope_tree_get_root (tree, r)->n_marks;
      }
    g_assert_cmpuint (n_spans, ==, ps_event_store_get_n_spans (store));
    g_assert_cmpuint (n_marks, ==, ps_event_store_get_n_marks (store));
  }
}

/* Dropped scopes hand their children (scopes and messages) to the nearest
 * kept ancestor, in file order */
static void
test_exclude (void)
{
  g_autoptr(PsEventStore) store = load_example ();
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(PsScopeTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  PsScopeNode thread1, main_scope, sw_load;

  ps_scope_filter_add (filter, FALSE, "^PERFORMANCE", &error);
  g_assert_no_error (error);
  tree = ps_scope_tree_new (store, filter);
  g_assert_true (ps_scope_tree_is_filtered (tree));

  /* Messages go with their scope, or by their own record, "name : text":
   * "entering main" and "document visible" match ^PERFORMANCE, and so does
   * "PERFORMANCE SfxObjectShell::DoLoad : loading …" */
  thread1 = ps_scope_tree_get_root_node (tree, find_root (tree, 1));
  assert_children (tree, thread1, (const char *[]) { MAIN, NULL });
  main_scope = find_child (tree, thread1, MAIN);
  assert_children (tree, main_scope, (const char *[]) {
    "register services",
    "configmgr (ij778899) ::configmgr::Provider::create",
    "| splash screen shown",
    SW_LOAD,
    NULL });
  sw_load = find_child (tree, main_scope, SW_LOAD);
  assert_children (tree, sw_load, (const char *[]) { XMLOFF, "| styles imported: 212", NULL });

  g_assert_cmpuint (ps_scope_tree_get_root (tree, find_root (tree, 1))->n_spans, ==, 5);
  g_assert_cmpuint (ps_scope_tree_get_root (tree, find_root (tree, 1))->n_marks, ==, 2);
  assert_children (tree, ps_scope_tree_get_root_node (tree, find_root (tree, 3)),
                   (const char *[]) { "| worker thread started", "svtools (mn334455) ::svt::ThumbnailRenderer::run", NULL });
  for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
    {
      const char *text = ps_event_store_get_string (store, ps_event_store_get_mark (store, i)->text);

      g_assert_cmpint (ps_scope_tree_shows_mark (tree, i), ==,
                       !g_str_has_prefix (text, "PERFORMANCE") && !g_str_has_prefix (text, "loading"));
    }

  /* A dropped scope has no children of its own */
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const char *name = ps_event_store_get_string (store, ps_event_store_get_span (store, i)->name);
      PsScopeNode node = { PS_SCOPE_NODE_SPAN, (guint32)i };

      g_assert_cmpint (ps_scope_tree_shows_span (tree, i), ==, !g_str_has_prefix (name, "PERFORMANCE"));
      if (!ps_scope_tree_shows_span (tree, i))
        g_assert_cmpuint (ps_scope_tree_get_n_children (tree, node), ==, 0);
    }
}

/* With an include filter only the matching scopes stay, with the messages
 * written in them or matching themselves */
static void
test_include (void)
{
  g_autoptr(PsEventStore) store = load_example ();
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(PsScopeTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  PsScopeNode thread1, thread3;

  ps_scope_filter_add (filter, TRUE, "SwDocShell|Thumbnail", &error);
  g_assert_no_error (error);
  tree = ps_scope_tree_new (store, filter);

  thread1 = ps_scope_tree_get_root_node (tree, find_root (tree, 1));
  assert_children (tree, thread1, (const char *[]) { SW_LOAD, NULL });
  assert_children (tree, find_child (tree, thread1, SW_LOAD), (const char *[]) { "| styles imported: 212", NULL });
  g_assert_cmpint (ps_scope_tree_get_root (tree, find_root (tree, 1))->scoped_ns, ==, 505 * MS);
  g_assert_cmpuint (ps_scope_tree_get_root (tree, find_root (tree, 1))->n_marks, ==, 1);

  /* A thread left without scopes or messages stays a root, empty */
  g_assert_cmpuint (ps_scope_tree_get_n_roots (tree), ==, 3);
  assert_children (tree, ps_scope_tree_get_root_node (tree, find_root (tree, 2)), (const char *[]) { NULL });
  g_assert_cmpuint (ps_scope_tree_get_root (tree, find_root (tree, 2))->n_spans, ==, 0);
  g_assert_cmpuint (ps_scope_tree_get_root (tree, find_root (tree, 2))->n_marks, ==, 0);
  thread3 = ps_scope_tree_get_root_node (tree, find_root (tree, 3));
  assert_children (tree, thread3, (const char *[]) { "svtools (mn334455) ::svt::ThumbnailRenderer::run", NULL });

  /* A message whose own record matches stays without its scope */
  {
    g_autoptr(PsScopeFilter) messages = ps_scope_filter_new ();
    g_autoptr(PsScopeTree) messages_tree = NULL;

    ps_scope_filter_add (messages, TRUE, "Broker::init : providers", &error);
    g_assert_no_error (error);
    messages_tree = ps_scope_tree_new (store, messages);
    assert_children (messages_tree, ps_scope_tree_get_root_node (messages_tree, find_root (messages_tree, 2)),
                     (const char *[]) { "| providers registered: 14", NULL });
    g_assert_cmpuint (ps_scope_tree_get_root (messages_tree, find_root (messages_tree, 2))->n_spans, ==, 0);
  }

  /* A logical scope is matched on "context : { name" (rtl-logfile.md §5) */
  {
    g_autoptr(PsScopeFilter) logical = ps_scope_filter_new ();
    g_autoptr(PsScopeTree) logical_tree = NULL;

    ps_scope_filter_add (logical, TRUE, "Desktop::Main : \\{ register", &error);
    g_assert_no_error (error);
    logical_tree = ps_scope_tree_new (store, logical);
    thread1 = ps_scope_tree_get_root_node (logical_tree, find_root (logical_tree, 1));
    g_assert_cmpuint (ps_scope_tree_get_root (logical_tree, find_root (logical_tree, 1))->n_spans, ==, 1);
    find_child (logical_tree, thread1, "register services");
  }
}

static guint32
add_thread (PsEventStore *store,
            guint32       session,
            gint64        id)
{
  PsTrack track = { 0 };

  track.kind = PS_TRACK_THREAD;
  track.parent = PS_NONE;
  track.session = session;
  track.number = id;
  return ps_event_store_add_track (store, &track);
}

static guint64
add_span (PsStoreBuilder *builder,
          guint32         track,
          guint32         parent,
          const char     *name,
          gint64          begin_ms,
          gint64          end_ms,
          guint16         flags)
{
  PsEventStore *store = ps_store_builder_get_store (builder);
  PsSpan span = { 0 };

  span.begin_ns = begin_ms * MS;
  span.end_ns = end_ms * MS;
  span.track = track;
  span.name = ps_event_store_intern (store, name, -1);
  span.parent = parent;
  span.depth = parent == PS_NONE ? 0 : ps_store_builder_edit_span (builder, parent)->depth + 1;
  span.flags = flags;
  return ps_store_builder_add_span (builder, &span);
}

static void
add_mark (PsStoreBuilder *builder,
          guint32         track,
          guint32         span,
          const char     *text,
          gint64          time_ms,
          guint64         line)
{
  PsEventStore *store = ps_store_builder_get_store (builder);
  PsMark mark = { 0 };

  mark.time_ns = time_ms * MS;
  mark.line = line;
  mark.track = track;
  mark.text = ps_event_store_intern (store, text, -1);
  mark.span = span;
  mark.position = (guint32)ps_store_builder_get_n_spans (builder);
  ps_store_builder_add_mark (builder, &mark);
}

/* Two sessions, a message after the last scope, an unterminated scope (not
 * counted in the thread's scoped time) and a nested chain of dropped
 * scopes */
/* A time range keeps the scopes wholly inside it and the messages written
 * in it: 650–1300 ms holds DoLoad (656–1210) with SwDocShell::Load and
 * startDocument, not "open documents" (655–1460) nor the thumbnail
 * renderer (1212–1845) */
static void
test_time_range (void)
{
  g_autoptr(PsEventStore) store = load_example ();
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(PsScopeTree) tree = NULL;
  guint n_spans = 0, n_marks = 0;
  gint64 begin, end;

  g_assert_true (ps_scope_filter_is_empty (filter));
  g_assert_false (ps_scope_filter_get_time_range (filter, NULL, NULL));
  ps_scope_filter_set_time_range (filter, 1300 * G_GINT64_CONSTANT (1000000), 650 * G_GINT64_CONSTANT (1000000));
  g_assert_false (ps_scope_filter_is_empty (filter));
  g_assert_true (ps_scope_filter_get_time_range (filter, &begin, &end));
  g_assert_cmpint (begin, ==, 650 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (end, ==, 1300 * G_GINT64_CONSTANT (1000000));
  g_assert_true (ps_scope_filter_match_time (filter, 700 * G_GINT64_CONSTANT (1000000)));
  g_assert_false (ps_scope_filter_match_time (filter, 1301 * G_GINT64_CONSTANT (1000000)));

  tree = ps_scope_tree_new (store, filter);
  g_assert_true (ps_scope_tree_is_filtered (tree));
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const char *name = ps_event_store_get_string (store, ps_event_store_get_span (store, i)->name);
      gboolean inside = g_str_equal (name, "PERFORMANCE SfxObjectShell::DoLoad") || g_str_equal (name, SW_LOAD)
                        || g_str_equal (name, XMLOFF);

      g_assert_cmpint (ps_scope_tree_shows_span (tree, i), ==, inside);
      n_spans += inside;
    }
  g_assert_cmpuint (n_spans, ==, 3);
  for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
    {
      gint64 time = ps_event_store_get_mark (store, i)->time_ns;
      gboolean inside = time >= 650 * G_GINT64_CONSTANT (1000000) && time <= 1300 * G_GINT64_CONSTANT (1000000);

      g_assert_cmpint (ps_scope_tree_shows_mark (tree, i), ==, inside);
      n_marks += inside;
    }
  g_assert_cmpuint (n_marks, ==, 4);

  /* With an expression too, both apply */
  {
    g_autoptr(GError) error = NULL;

    ps_scope_filter_add (filter, FALSE, "^PERFORMANCE", &error);
    g_assert_no_error (error);
    g_clear_pointer (&tree, ps_scope_tree_unref);
    tree = ps_scope_tree_new (store, filter);
    for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
      {
        const char *name = ps_event_store_get_string (store, ps_event_store_get_span (store, i)->name);

        g_assert_cmpint (ps_scope_tree_shows_span (tree, i), ==,
                         g_str_equal (name, SW_LOAD) || g_str_equal (name, XMLOFF));
      }
  }
}

static void
test_constructed (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 session0 = ps_event_store_add_session (store, 1, FALSE);
  guint32 session1 = ps_event_store_add_session (store, 20, FALSE);
  guint32 a = add_thread (store, session0, 7);
  guint32 b = add_thread (store, session1, 7);
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(GError) error = NULL;
  guint64 outer, drop1, drop2, inner;

  outer = add_span (builder, a, PS_NONE, "outer", 0, 100, 0);
  drop1 = add_span (builder, a, (guint32)outer, "drop one", 10, 90, 0);
  add_mark (builder, a, (guint32)drop1, "in drop one", 11, 4);
  drop2 = add_span (builder, a, (guint32)drop1, "drop two", 20, 80, 0);
  inner = add_span (builder, a, (guint32)drop2, "inner", 30, 40, 0);
  add_mark (builder, a, (guint32)inner, "drop me not: in a kept scope", 35, 6);
  add_mark (builder, a, (guint32)drop2, "in drop two", 50, 7);
  add_mark (builder, a, (guint32)drop2, "drop note", 60, 8);
  add_span (builder, a, PS_NONE, "open", 120, 130, PS_SPAN_FLAG_UNTERMINATED);
  add_mark (builder, a, PS_NONE, "last words", 140, 10);
  add_span (builder, b, PS_NONE, "second run", 0, 5, 0);
  ps_store_builder_flush (builder);

  {
    g_autoptr(PsScopeTree) tree = ps_scope_tree_new (store, NULL);
    PsScopeNode root_a = ps_scope_tree_get_root_node (tree, 0);

    g_assert_cmpuint (ps_scope_tree_get_n_roots (tree), ==, 2);
    g_assert_cmpuint (ps_scope_tree_get_root (tree, 0)->session, ==, 0);
    g_assert_cmpuint (ps_scope_tree_get_root (tree, 1)->session, ==, 1);
    assert_children (tree, root_a, (const char *[]) { "outer", "open", "| last words", NULL });
    /* The unterminated scope's lower bound does not count */
    g_assert_cmpint (ps_scope_tree_get_root (tree, 0)->scoped_ns, ==, 100 * MS);
    g_assert_cmpuint (ps_scope_tree_get_root (tree, 0)->n_unmeasured, ==, 1);
    g_assert_cmpint (ps_scope_tree_get_root (tree, 0)->end_ns, ==, 140 * MS);
    assert_children (tree, ps_scope_tree_get_root_node (tree, 1), (const char *[]) { "second run", NULL });
  }

  ps_scope_filter_add (filter, FALSE, "^drop", &error);
  g_assert_no_error (error);
  {
    g_autoptr(PsScopeTree) tree = ps_scope_tree_new (store, filter);
    PsScopeNode root_a = ps_scope_tree_get_root_node (tree, 0);
    PsScopeNode outer_node = find_child (tree, root_a, "outer");

    /* "drop note" matches and lost its scope; the one in "inner" stays */
    assert_children (tree, outer_node, (const char *[]) { "| in drop one", "inner", "| in drop two", NULL });
    assert_children (tree, find_child (tree, outer_node, "inner"), (const char *[]) { "| drop me not: in a kept scope", NULL });
    g_assert_cmpuint (ps_scope_tree_get_root (tree, 0)->n_spans, ==, 3);
    g_assert_cmpuint (ps_scope_tree_get_root (tree, 0)->n_marks, ==, 4);
  }
}

static void
test_empty_store (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsScopeTree) tree = ps_scope_tree_new (store, NULL);

  g_assert_cmpuint (ps_scope_tree_get_n_roots (tree), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scope-tree/example", test_example);
  g_test_add_func ("/scope-tree/exclude", test_exclude);
  g_test_add_func ("/scope-tree/include", test_include);
  g_test_add_func ("/scope-tree/time-range", test_time_range);
  g_test_add_func ("/scope-tree/constructed", test_constructed);
  g_test_add_func ("/scope-tree/empty-store", test_empty_store);

  return g_test_run ();
}
