/* ps-cli-json.c — JSON output of perfscope-cli
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The commands build a JsonNode tree; this file writes it. json-glib's own
 * generator prints doubles with "%.17g", which turns 0.100707 into
 * 0.10070699999999999. Here a double is written as the shortest decimal
 * text that reads back to the same double (what Python's repr() and
 * JavaScript print), and a whole number without a fraction, by the
 * engine's JSON pieces (ps-export-writer.h). docs/cli.md describes the
 * result for users.
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include "ps-cli.h"
#include "ps-util.h"

#define INDENT_WIDTH 2

static void
append_indent (GString *out,
               guint    level)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < level * INDENT_WIDTH; i++)
    g_string_append_c (out, ' ');
}

static void
append_value (GString  *out,
              JsonNode *node)
{
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      g_string_append_printf (out, "%" PRId64, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      ps_export_append_json_number (out, json_node_get_double (node));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      ps_export_append_json_string (out, json_node_get_string (node));
      break;
    default:
      g_string_append (out, "null");
      break;
    }
}

/* A member of the top-level object written by a function instead of from
 * its node */
typedef struct
{
  const char * const *members;
  PsCliJsonWriteFunc func;
  gpointer           user_data;
} Splice;

static void append_node (GString      *out,
                         JsonNode     *node,
                         guint         level,
                         const Splice *splice);

static void
append_object (GString      *out,
               JsonObject   *object,
               guint         level,
               const Splice *splice)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  gboolean first = TRUE;

  if (json_object_get_size (object) == 0)
    {
      g_string_append (out, "{}");
      return;
    }

  g_string_append_c (out, '{');
  /* Members in insertion order, without a list and a lookup per member */
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      append_indent (out, level + 1);
      ps_export_append_json_string (out, name);
      g_string_append (out, ": ");
      if (splice != NULL && level == 0 && g_strv_contains (splice->members, name))
        splice->func (out, name, level + 1, splice->user_data);
      else
        append_node (out, member, level + 1, NULL);
    }
  append_indent (out, level);
  g_string_append_c (out, '}');
}

static void
append_array (GString   *out,
              JsonArray *array,
              guint      level)
{
  guint length = json_array_get_length (array);

  if (length == 0)
    {
      g_string_append (out, "[]");
      return;
    }

  g_string_append_c (out, '[');
  for (guint i = 0; i < length; i++)
    {
      append_indent (out, level + 1);
      append_node (out, json_array_get_element (array, i), level + 1, NULL);
      if (i + 1 < length)
        g_string_append_c (out, ',');
    }
  append_indent (out, level);
  g_string_append_c (out, ']');
}

static void
append_node (GString      *out,
             JsonNode     *node,
             guint         level,
             const Splice *splice)
{
  if (node == NULL)
    {
      g_string_append (out, "null");
      return;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      append_object (out, json_node_get_object (node), level, splice);
      break;
    case JSON_NODE_ARRAY:
      append_array (out, json_node_get_array (node), level);
      break;
    case JSON_NODE_VALUE:
      append_value (out, node);
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

void
ps_cli_json_print (JsonNode *root)
{
  ps_cli_json_print_spliced (root, NULL, NULL, NULL);
}

void
ps_cli_json_print_spliced (JsonNode           *root,
                           const char * const *members,
                           PsCliJsonWriteFunc  func,
                           gpointer            user_data)
{
  g_autoptr(GString) out = g_string_new (NULL);
  Splice splice = { members, func, user_data };

  append_node (out, root, 0, members != NULL ? &splice : NULL);
  g_string_append_c (out, '\n');

  fputs (out->str, stdout);
  fflush (stdout);
}

void
ps_cli_json_write_out (GString *out,
                       gsize    threshold)
{
  if (out->len < threshold)
    return;
  fwrite (out->str, 1, out->len, stdout);
  g_string_truncate (out, 0);
}

void
ps_cli_json_append_indent (GString *out,
                           guint    level)
{
  append_indent (out, level);
}

void
ps_cli_json_add_double (JsonBuilder *builder,
                        const char  *name,
                        double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
ps_cli_json_add_int (JsonBuilder *builder,
                     const char  *name,
                     gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* ------------------------------------------------------------------------ */
/* Streaming                                                                 */

void
ps_cli_json_stream_init (PsCliJsonStream *stream,
                         GString         *out,
                         guint            level)
{
  memset (stream, 0, sizeof *stream);
  stream->out = out;
  stream->level = level;
}

/* What comes before a value: as append_object () and append_array () put
 * it, a comma after the value before, the line and indentation, and the
 * member's name */
static void
stream_next_value (PsCliJsonStream *stream,
                   const char      *name)
{
  if (stream->depth == 0)
    return;

  if (stream->has_values[stream->depth - 1])
    g_string_append_c (stream->out, ',');
  stream->has_values[stream->depth - 1] = TRUE;
  append_indent (stream->out, stream->level + stream->depth);
  if (name != NULL)
    {
      ps_export_append_json_string (stream->out, name);
      g_string_append (stream->out, ": ");
    }
}

static void
stream_begin (PsCliJsonStream *stream,
              const char      *name,
              char             opening,
              char             closing)
{
  g_return_if_fail (stream->depth < PS_CLI_JSON_STREAM_MAX_DEPTH);

  stream_next_value (stream, name);
  g_string_append_c (stream->out, opening);
  stream->has_values[stream->depth] = FALSE;
  stream->closing[stream->depth] = closing;
  stream->depth++;
}

void
ps_cli_json_stream_begin_object (PsCliJsonStream *stream,
                                 const char      *name)
{
  stream_begin (stream, name, '{', '}');
}

void
ps_cli_json_stream_begin_array (PsCliJsonStream *stream,
                                const char      *name)
{
  stream_begin (stream, name, '[', ']');
}

void
ps_cli_json_stream_end (PsCliJsonStream *stream)
{
  g_return_if_fail (stream->depth > 0);

  stream->depth--;
  /* "{}" and "[]" when empty */
  if (stream->has_values[stream->depth])
    append_indent (stream->out, stream->level + stream->depth);
  g_string_append_c (stream->out, stream->closing[stream->depth]);
}

void
ps_cli_json_stream_string (PsCliJsonStream *stream,
                           const char      *name,
                           const char      *value)
{
  stream_next_value (stream, name);
  ps_export_append_json_string (stream->out, value);
}

void
ps_cli_json_stream_int (PsCliJsonStream *stream,
                        const char      *name,
                        gint64           value)
{
  stream_next_value (stream, name);
  g_string_append_printf (stream->out, "%" PRId64, value);
}

void
ps_cli_json_stream_double (PsCliJsonStream *stream,
                           const char      *name,
                           double           value)
{
  stream_next_value (stream, name);
  /* null when not finite, as append_value () writes such a node */
  ps_export_append_json_number (stream->out, value);
}

void
ps_cli_json_stream_boolean (PsCliJsonStream *stream,
                            const char      *name,
                            gboolean         value)
{
  stream_next_value (stream, name);
  g_string_append (stream->out, value ? "true" : "false");
}

void
ps_cli_json_stream_null (PsCliJsonStream *stream,
                         const char      *name)
{
  stream_next_value (stream, name);
  g_string_append (stream->out, "null");
}
