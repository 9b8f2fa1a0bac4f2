/* ps-cli-calltree.c — perfscope-cli calltree: the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "calltree", vs-instrumentation.md §3–§4. The numbers are
 * those of PsCallTree, which the GUI shows too; nothing is computed here.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-call-tree.h"
#include "ps-util.h"

static const char * const value_labels[PS_N_CALL_VALUES] = {
  N_("Elapsed incl."), N_("Elapsed excl."), N_("Application incl."), N_("Application excl."),
};

/* Functions by elapsed inclusive value, largest first */
static gint
compare_functions (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  PsCallTree *tree = user_data;
  const PsCallStats *stats_a = ps_call_tree_get_function_stats (tree, *(const guint32 *)a);
  const PsCallStats *stats_b = ps_call_tree_get_function_stats (tree, *(const guint32 *)b);
  double value_a = stats_a->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE];
  double value_b = stats_b->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE];

  if (value_a != value_b)
    return value_a > value_b ? -1 : 1;
  return *(const guint32 *)a < *(const guint32 *)b ? -1 : *(const guint32 *)a > *(const guint32 *)b;
}

static guint32 *
sorted_functions (PsCallTree *tree,
                  guint      *n_out)
{
  guint n = ps_call_tree_get_n_functions (tree);
  guint32 *order = g_new (guint32, n + 1);

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_functions, tree);
  *n_out = n;
  return order;
}

typedef struct
{
  guint32 node;
  guint   next_child;
} Frame;

/* Streaming the tree: one node per line, its members on that line. A big
 * log has millions of call paths, too many to hold as JSON nodes. */

#define WRITE_OUT_BYTES (1 << 20)

static void
append_member_name (GString    *out,
                    const char *name)
{
  ps_export_append_json_string (out, name);
  g_string_append (out, ": ");
}

static void
append_number_member (GString    *out,
                      const char *name,
                      double      value)
{
  append_member_name (out, name);
  ps_export_append_json_number (out, value);
  g_string_append (out, ", ");
}

/* A member whose text is cut as ps_util_append_cut_name () cuts it */
static void
append_cut_member (GString    *out,
                   const char *member,
                   const char *text)
{
  g_autoptr(GString) cut = g_string_new (NULL);

  ps_util_append_cut_name (cut, text);
  append_member_name (out, member);
  ps_export_append_json_string (out, cut->str);
  g_string_append (out, ", ");
}

/* name, module, calls, the four values, their percentages and per-call
 * minimum, average and maximum, on one line. A tree node's name is cut
 * (docs/cli.md): a name is written once per call path, where a function
 * of the summary is written once. A module is cut in both, as all the
 * functions of a module repeat it. */
static void
append_stats_members (GString           *out,
                      PsCallTree        *tree,
                      guint32            function,
                      gboolean           is_node,
                      const PsCallStats *stats,
                      PsCallBasis        basis)
{
  if (function == PS_NONE)
    {
      append_member_name (out, "name");
      ps_export_append_json_string (out, "<root>");
      g_string_append (out, ", ");
    }
  else if (is_node)
    append_cut_member (out, "name", ps_call_tree_get_function_name (tree, function));
  else
    {
      append_member_name (out, "name");
      ps_export_append_json_string (out, ps_call_tree_get_function_name (tree, function));
      g_string_append (out, ", ");
    }
  if (function != PS_NONE && *ps_call_tree_get_function_module (tree, function) != '\0')
    append_cut_member (out, "module", ps_call_tree_get_function_module (tree, function));
  /* --group-addresses: a module's addresses without a function name */
  if (function != PS_NONE && ps_call_tree_get_n_function_addresses (tree, function) > 0)
    append_number_member (out, "addresses", ps_call_tree_get_n_function_addresses (tree, function));
  append_number_member (out, "calls", (double)stats->calls);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    append_number_member (out, ps_call_value_to_string (v), stats->total[v]);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_autofree char *name = g_strconcat (ps_call_value_to_string (v), "_pct", NULL);

      append_number_member (out, name, ps_call_tree_get_percent (tree, stats, v, basis));
    }
  append_member_name (out, "per_call");
  g_string_append_c (out, '{');
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      append_member_name (out, ps_call_value_to_string (v));
      g_string_append (out, "{\"min\": ");
      ps_export_append_json_number (out, stats->min[v]);
      g_string_append (out, ", \"avg\": ");
      ps_export_append_json_number (out, stats->avg[v]);
      g_string_append (out, ", \"max\": ");
      ps_export_append_json_number (out, stats->max[v]);
      g_string_append (out, v + 1 < PS_N_CALL_VALUES ? "}, " : "}");
    }
  g_string_append_c (out, '}');
}

/* A tree node, up to its "children": [ */
static void
append_node_start (GString     *out,
                   PsCallTree  *tree,
                   guint32      node,
                   PsCallBasis  basis)
{
  PsCallStats stats;

  /* Copied: the whole tree is written, and made stats would stay */
  ps_call_tree_copy_node_stats (tree, node, &stats);
  g_string_append_c (out, '{');
  append_stats_members (out, tree, ps_call_tree_get_node_function (tree, node), TRUE, &stats, basis);
  g_string_append (out, ", ");
  append_member_name (out, "children");
  g_string_append_c (out, '[');
}

typedef struct
{
  PsCallTree  *tree;
  PsCallBasis  basis;
  guint        max_depth;
} TreeWriter;

/* The functions, largest elapsed inclusive value first, one a line */
static void
write_functions (GString    *out,
                 guint       level,
                 TreeWriter *writer)
{
  g_autofree guint32 *order = NULL;
  guint n;

  order = sorted_functions (writer->tree, &n);
  if (n == 0)
    {
      g_string_append (out, "[]");
      return;
    }
  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      ps_cli_json_append_indent (out, level + 1);
      g_string_append_c (out, '{');
      append_stats_members (out, writer->tree, order[i], FALSE,
                            ps_call_tree_get_function_stats (writer->tree, order[i]), writer->basis);
      g_string_append (out, i + 1 < n ? "}," : "}");
      ps_cli_json_write_out (out, WRITE_OUT_BYTES);
    }
  ps_cli_json_append_indent (out, level);
  g_string_append_c (out, ']');
}

/* The top-down tree as nested objects, to max_depth levels below the root
 * (0: no limit); iterative, so any depth fits */
static void
write_tree (GString    *out,
            guint       level,
            TreeWriter *writer)
{
  PsCallTree *tree = writer->tree;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  Frame root = { PS_CALL_NODE_ROOT, 0 };

  if (!ps_call_tree_has_top_down (tree))
    {
      g_string_append (out, "null");
      return;
    }

  append_node_start (out, tree, PS_CALL_NODE_ROOT, writer->basis);
  g_array_append_val (stack, root);

  while (stack->len > 0)
    {
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      guint depth = stack->len;  /* of the children of top */
      Frame child;

      if (top->next_child >= ps_call_tree_get_n_children (tree, top->node) ||
          (writer->max_depth > 0 && depth > writer->max_depth))
        {
          if (top->next_child > 0)
            ps_cli_json_append_indent (out, level + depth - 1);
          g_string_append (out, "]}");
          g_array_set_size (stack, stack->len - 1);
          /* A deep tree closes as many nodes as it opened */
          ps_cli_json_write_out (out, WRITE_OUT_BYTES);
          continue;
        }

      if (top->next_child > 0)
        g_string_append_c (out, ',');
      child.node = ps_call_tree_get_child (tree, top->node, top->next_child++);
      child.next_child = 0;
      ps_cli_json_append_indent (out, level + depth);
      append_node_start (out, tree, child.node, writer->basis);
      g_array_append_val (stack, child);
      ps_cli_json_write_out (out, WRITE_OUT_BYTES);
    }
}

static void
write_member (GString    *out,
              const char *member,
              guint       level,
              gpointer    user_data)
{
  if (strcmp (member, "functions") == 0)
    write_functions (out, level, user_data);
  else
    write_tree (out, level, user_data);
}

static JsonNode *
calltree_to_json (PsCallTree   *tree,
                  PsEventStore *store,
                  const char   *path,
                  gint64        thread,
                  PsCallBasis   basis)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  ps_cli_add_run_members (builder, store, path, FALSE);
  json_builder_set_member_name (builder, "unit");
  json_builder_add_string_value (builder, ps_call_unit_to_string (ps_call_tree_get_unit (tree)));
  json_builder_set_member_name (builder, "basis");
  json_builder_add_string_value (builder, ps_call_basis_to_string (basis));
  /* Reports give their own percentages, shown as given (vs-instrumentation.md §4) */
  json_builder_set_member_name (builder, "percentages");
  json_builder_add_string_value (builder, ps_call_tree_is_report (tree) ? "given" : "computed");
  json_builder_set_member_name (builder, "os_events");
  json_builder_add_boolean_value (builder, ps_call_tree_has_os_events (tree));
  json_builder_set_member_name (builder, "thread");
  if (thread >= 0)
    json_builder_add_int_value (builder, thread);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "total");
  json_builder_begin_object (builder);
  ps_cli_json_add_double (builder, "elapsed", ps_call_tree_get_elapsed_total (tree));
  ps_cli_json_add_double (builder, "application", ps_call_tree_get_application_total (tree));
  json_builder_end_object (builder);

  /* Written by write_member () */
  json_builder_set_member_name (builder, "functions");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "tree");
  json_builder_add_null_value (builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Text --------------------------------------------------------------------- */

static char *
format_value (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup ("–");
  if (value == floor (value) && fabs (value) < 1e15)
    return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.0f", value));
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.2f", value));
}

static char *
format_percent (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup ("–");
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.2f", value));
}

static char **
header_cells (const char *first,
              const char *unit)
{
  GPtrArray *cells = g_ptr_array_new ();

  g_ptr_array_add (cells, g_strdup (first));
  g_ptr_array_add (cells, g_strdup (_("Calls")));
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      /* Translators: a column header with its unit, "Elapsed incl. (ns)" */
      g_ptr_array_add (cells, g_strdup_printf (_("%s (%s)"), _(value_labels[v]), unit));
      g_ptr_array_add (cells, g_strdup ("%"));
    }
  g_ptr_array_add (cells, NULL);
  return (char **)g_ptr_array_free (cells, FALSE);
}

static char **
row_cells (PsCallTree        *tree,
           char              *first,
           const PsCallStats *stats,
           PsCallBasis        basis)
{
  GPtrArray *cells = g_ptr_array_new ();

  g_ptr_array_add (cells, first);
  g_ptr_array_add (cells, g_strdup_printf ("%" PRIu64, stats->calls));
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_ptr_array_add (cells, format_value (stats->total[v]));
      g_ptr_array_add (cells, format_percent (ps_call_tree_get_percent (tree, stats, v, basis)));
    }
  g_ptr_array_add (cells, NULL);
  return (char **)g_ptr_array_free (cells, FALSE);
}

/* The first cell of a function row: its name, and how many addresses it
 * stands for when it is a module's addresses */
static char *
function_row_name (PsCallTree *tree,
                   guint32     function)
{
  g_autofree char *name = ps_util_display_text (ps_call_tree_get_function_name (tree, function), -1);
  guint n_addresses = ps_call_tree_get_n_function_addresses (tree, function);

  if (n_addresses == 0)
    return g_steal_pointer (&name);
  /* Translators: a module standing for its code without function names,
   * "libc.so.7 [412 addresses]" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s [%u address]", "%s [%u addresses]", n_addresses),
                          name, n_addresses);
}

/* The first cell of a tree row: the name (cut, as in the JSON tree)
 * indented by its depth (1 for the root's children), the indentation no
 * deeper than PS_CLI_MAX_INDENT_LEVEL; a deeper row names its depth
 * instead */
static char *
tree_row_name (PsCallTree *tree,
               guint32     node,
               guint       depth)
{
  g_autoptr(GString) cut = g_string_new (NULL);
  g_autofree char *name = NULL;
  guint indent = MIN (depth - 1, PS_CLI_MAX_INDENT_LEVEL);
  GString *cell;

  ps_util_append_cut_name (cut, ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, node)));
  name = ps_util_display_text (cut->str, (gssize)cut->len);
  cell = g_string_sized_new (2 * indent + strlen (name) + 16);
  for (guint i = 0; i < 2 * indent; i++)
    g_string_append_c (cell, ' ');
  if (depth - 1 > PS_CLI_MAX_INDENT_LEVEL)
    g_string_append_printf (cell, "[%u] ", depth);
  g_string_append (cell, name);
  return g_string_free (cell, FALSE);
}

/* The rows of the top-down tree, depth first, to max_depth levels (0: no
 * limit): measured into the table's column widths, or printed to out */
static void
walk_tree_rows (PsCallTree  *tree,
                PsCallBasis  basis,
                guint        max_depth,
                PsCliTable  *table,
                FILE        *out)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  Frame root = { PS_CALL_NODE_ROOT, 0 };

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      guint depth = stack->len;
      g_auto(GStrv) cells = NULL;
      PsCallStats stats;
      Frame child;

      if (top->next_child >= ps_call_tree_get_n_children (tree, top->node) ||
          (max_depth > 0 && depth > max_depth))
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      child.node = ps_call_tree_get_child (tree, top->node, top->next_child++);
      child.next_child = 0;
      /* Copied, as for the JSON tree */
      ps_call_tree_copy_node_stats (tree, child.node, &stats);
      cells = row_cells (tree, tree_row_name (tree, child.node, depth), &stats, basis);
      if (out != NULL)
        ps_cli_table_print_row (table, out, "  ", cells);
      else
        ps_cli_table_measure_row (table, cells);
      g_array_append_val (stack, child);
    }
}

static void
print_text (PsCallTree  *tree,
            PsCallBasis  basis,
            guint        max_depth)
{
  const char *unit = ps_call_unit_to_string (ps_call_tree_get_unit (tree));
  g_autofree guint32 *order = NULL;
  g_autoptr(PsCliTable) functions = ps_cli_table_new (2 + 2 * PS_N_CALL_VALUES);
  guint n;

  if (ps_call_tree_is_report (tree))
    printf ("%s\n", _("Percentages as the report gives them"));
  else if (basis == PS_CALL_BASIS_S1)
    printf ("%s\n", _("Percentages: elapsed over the elapsed total, application over the application total (basis s1)"));
  else
    printf ("%s\n", _("Percentages: all over the elapsed total (basis view)"));
  {
    g_autofree char *elapsed = format_value (ps_call_tree_get_elapsed_total (tree));
    g_autofree char *application = format_value (ps_call_tree_get_application_total (tree));

    /* Translators: the totals with their unit, "Elapsed total: 140 ns; …" */
    printf (_("Elapsed total: %s %s; application total: %s %s"), elapsed, unit, application, unit);
    printf ("\n");
  }
  if (!ps_call_tree_has_os_events (tree) && !ps_call_tree_is_report (tree))
    printf ("%s\n", _("No operating-system events in this run: application time equals elapsed time."));
  printf ("\n%s\n", _("Functions"));

  ps_cli_table_set_alignment (functions, "lrrrrrrrrr");
  ps_cli_table_add_row_strv_take (functions, header_cells (_("Function"), unit));
  order = sorted_functions (tree, &n);
  for (guint i = 0; i < n; i++)
    ps_cli_table_add_row_strv_take (functions,
                                    row_cells (tree, function_row_name (tree, order[i]),
                                               ps_call_tree_get_function_stats (tree, order[i]), basis));
  ps_cli_table_print (functions, stdout, "  ");

  if (ps_call_tree_has_top_down (tree))
    {
      g_autoptr(PsCliTable) table = ps_cli_table_new (2 + 2 * PS_N_CALL_VALUES);
      g_auto(GStrv) header = header_cells (_("Call path"), unit);

      printf ("\n%s\n", _("Call tree"));
      ps_cli_table_set_alignment (table, "lrrrrrrrrr");
      /* A row per call path, too many to hold: measured, then printed */
      ps_cli_table_measure_row (table, header);
      walk_tree_rows (tree, basis, max_depth, table, NULL);
      ps_cli_table_print_row (table, stdout, "  ", header);
      walk_tree_rows (tree, basis, max_depth, table, stdout);
    }
}

/* The track of a thread id, or PS_NONE */
static guint32
find_thread (PsEventStore *store,
             gint64        thread)
{
  guint n = ps_event_store_get_n_tracks (store);

  for (guint t = 0; t < n; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_THREAD && track->number == thread)
        return t;
    }
  return PS_NONE;
}

static int
run_calltree (const PsCliOptions  *options,
              char               **files)
{
  const char *file = files[0];
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  PsCallTreeOptions tree_options = { PS_NONE, NULL, 0 };
  gboolean partial;

  store = ps_cli_load (options, file);
  if (store == NULL)
    return PS_CLI_EXIT_UNREADABLE;
  partial = ps_cli_report_partial (store, file);

  if (options->thread >= 0)
    {
      tree_options.track = find_thread (store, options->thread);
      if (tree_options.track == PS_NONE)
        return ps_cli_usage_error (_("“%s” has no thread %" PRId64), file, options->thread);
    }
  tree_options.filter = options->scope_filter;
  tree_options.ticks_per_second = options->tick_rate;
  tree_options.group_addresses = options->group_addresses;

  tree = ps_call_tree_new_for_store (store, &tree_options, &error);
  if (tree == NULL)
    {
      ps_cli_print_error (_("“%s” has no call stacks: %s"), file, error->message);
      return PS_CLI_EXIT_UNREADABLE;
    }

  if (options->text)
    print_text (tree, options->basis, options->depth);
  else
    {
      g_autoptr(JsonNode) root = calltree_to_json (tree, store, file, options->thread, options->basis);
      TreeWriter writer = { tree, options->basis, options->depth };

      static const char * const streamed[] = { "functions", "tree", NULL };

      ps_cli_json_print_spliced (root, streamed, write_member, &writer);
    }

  return partial ? PS_CLI_EXIT_PARTIAL : PS_CLI_EXIT_OK;
}

static gboolean
parse_thread (PsCliOptions *options,
              const char   *value,
              GError      **error)
{
  guint64 number;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT64, &number, NULL))
    {
      ps_cli_set_usage_error (error, _("--thread needs a thread id, not “%s”"), value);
      return FALSE;
    }
  options->thread = (gint64) number;
  return TRUE;
}

static const PsCliOption thread = {
  .long_name = "thread", .value_name = N_("ID"), .parse = parse_thread,
  .description = N_("calltree: only the thread with this id"),
};

static const PsCliOption group_addresses = {
  .long_name = "group-addresses", .offset = G_STRUCT_OFFSET (PsCliOptions, group_addresses),
  .description = N_("calltree: one function per module for the addresses without a function name"),
};

static const PsCliOption * const calltree_options[] = {
  PS_CLI_READ_OPTIONS,
  PS_CLI_PRINT_OPTIONS,
  &thread,
  &ps_cli_option_basis,
  &ps_cli_option_depth,
  &group_addresses,
  PS_CLI_SCOPE_FILTER_OPTIONS,
  NULL,
};

const PsCliCommand ps_cli_calltree_command = {
  .name = "calltree",
  .files = "FILE",
  .summary = N_("call tree and function summary with the four instrumentation values"),
  .files_error = N_("calltree needs exactly one FILE"),
  .min_files = 1,
  .max_files = 1,
  .options = calltree_options,
  .run = run_calltree,
};
