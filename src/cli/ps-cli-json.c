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
#include "ps-number.h"
#include "ps-util.h"

#define INDENT_WIDTH 2

/* A new line, indented by level but never past PS_CLI_MAX_INDENT_LEVEL:
 * a tree a million levels deep would otherwise be mostly spaces, in
 * proportion to the square of its depth */
static void
append_indent (GString *out,
               guint    level)
{
  static const char spaces[] = "                                                                ";
  gsize width = (gsize)MIN (level, PS_CLI_MAX_INDENT_LEVEL) * INDENT_WIDTH;

  g_string_append_c (out, '\n');
  for (; width > sizeof spaces - 1; width -= sizeof spaces - 1)
    g_string_append_len (out, spaces, sizeof spaces - 1);
  g_string_append_len (out, spaces, width);
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

/* What comes before a value: a comma after the value before, the line
 * and indentation, and the member's name. Returns the value's level. */
static guint
stream_next_value (PsCliJsonStream *stream,
                   const char      *name)
{
  if (stream->depth == 0)
    return stream->level;

  if (stream->has_values[stream->depth - 1])
    g_string_append_c (stream->out, ',');
  stream->has_values[stream->depth - 1] = TRUE;
  append_indent (stream->out, stream->level + stream->depth);
  if (name != NULL)
    {
      ps_export_append_json_string (stream->out, name);
      g_string_append (stream->out, ": ");
    }
  return stream->level + stream->depth;
}

/* Room for room more bytes and a NUL at the end of out; returns where
 * they begin. The text written there counts once stream_commit () is
 * called with its end. */
static inline char *
stream_reserve (GString *out,
                gsize    room)
{
  if (G_UNLIKELY (out->len + room >= out->allocated_len))
    {
      gsize length = out->len;

      g_string_set_size (out, length + room);
      out->len = length;
    }
  return out->str + out->len;
}

static inline void
stream_commit (GString *out,
               char    *end)
{
  out->len = (gsize)(end - out->str);
  *end = '\0';
}

/* Whether text needs no escape in JSON and is ASCII (UTF-8 needs no check) */
static inline gboolean
is_plain_ascii (const char *text,
                gsize      *length)
{
  const char *p = text;

  while ((guchar)*p >= 0x20 && (guchar)*p < 0x7f && *p != '"' && *p != '\\')
    p++;
  *length = (gsize)(p - text);
  return *p == '\0';
}

/* stream_next_value () written in one piece with room bytes more after
 * it, as every member of a stats series is: returns where the value
 * goes, for stream_commit () */
static char *
stream_begin_value (PsCliJsonStream *stream,
                    const char      *name,
                    gsize            room)
{
  gsize name_length = 0;
  gsize width;
  char *p;

  if (stream->depth == 0 || (name != NULL && !is_plain_ascii (name, &name_length)))
    {
      stream_next_value (stream, name);
      return stream_reserve (stream->out, room);
    }

  width = (gsize)MIN (stream->level + stream->depth, PS_CLI_MAX_INDENT_LEVEL) * INDENT_WIDTH;
  p = stream_reserve (stream->out, 2 + width + name_length + 4 + room);
  if (stream->has_values[stream->depth - 1])
    *p++ = ',';
  stream->has_values[stream->depth - 1] = TRUE;
  *p++ = '\n';
  memset (p, ' ', width);
  p += width;
  if (name != NULL)
    {
      *p++ = '"';
      memcpy (p, name, name_length);
      p += name_length;
      memcpy (p, "\": ", 3);
      p += 3;
    }
  return p;
}

void
ps_cli_json_stream_literal (PsCliJsonStream *stream,
                            const char      *name,
                            const char      *text,
                            gsize            length)
{
  char *p = stream_begin_value (stream, name, length);

  memcpy (p, text, length);
  stream_commit (stream->out, p + length);
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
  gsize length;
  char *p;

  /* Most names and descriptions are plain ASCII: one copy between the quotes */
  if (value != NULL && is_plain_ascii (value, &length))
    {
      p = stream_begin_value (stream, name, length + 2);
      *p++ = '"';
      memcpy (p, value, length);
      p += length;
      *p++ = '"';
      stream_commit (stream->out, p);
      return;
    }
  stream_commit (stream->out, stream_begin_value (stream, name, 0));
  ps_export_append_json_string (stream->out, value);
}

void
ps_cli_json_stream_cut_string (PsCliJsonStream *stream,
                               const char      *name,
                               const char      *value)
{
  g_autoptr(GString) cut = NULL;

  /* memchr stops at the first NUL: a name short enough is not cut */
  if (memchr (value, '\0', PS_UTIL_NAME_MAX_BYTES + 1) != NULL)
    {
      ps_cli_json_stream_string (stream, name, value);
      return;
    }
  cut = g_string_new (NULL);
  ps_util_append_cut_name (cut, value);
  ps_cli_json_stream_string (stream, name, cut->str);
}

GString *
ps_cli_json_stream_raw (PsCliJsonStream *stream,
                        const char      *name)
{
  stream_next_value (stream, name);
  return stream->out;
}

void
ps_cli_json_stream_int (PsCliJsonStream *stream,
                        const char      *name,
                        gint64           value)
{
  char *p = stream_begin_value (stream, name, PS_NUMBER_BUF);

  stream_commit (stream->out, p + ps_export_format_integer (value, p));
}

void
ps_cli_json_stream_double (PsCliJsonStream *stream,
                           const char      *name,
                           double           value)
{
  char *p = stream_begin_value (stream, name, PS_NUMBER_BUF);

  /* null when not finite */
  stream_commit (stream->out, p + ps_export_format_json_number (value, p));
}

void
ps_cli_json_stream_boolean (PsCliJsonStream *stream,
                            const char      *name,
                            gboolean         value)
{
  if (value)
    ps_cli_json_stream_literal (stream, name, "true", 4);
  else
    ps_cli_json_stream_literal (stream, name, "false", 5);
}

void
ps_cli_json_stream_null (PsCliJsonStream *stream,
                         const char      *name)
{
  ps_cli_json_stream_literal (stream, name, "null", 4);
}

/* An array of many items is written out while it is made, in pieces of
 * about this size */
#define ARRAY_WRITE_OUT_BYTES (1 << 20)

void
ps_cli_json_stream_array (GString           *out,
                          guint              level,
                          GPtrArray         *items,
                          PsCliJsonItemFunc  func,
                          gpointer           user_data)
{
  PsCliJsonStream stream;

  ps_cli_json_stream_init (&stream, out, level);
  ps_cli_json_stream_begin_array (&stream, NULL);
  for (guint i = 0; i < items->len; i++)
    {
      func (&stream, g_ptr_array_index (items, i), user_data);
      ps_cli_json_write_out (out, ARRAY_WRITE_OUT_BYTES);
    }
  ps_cli_json_stream_end (&stream);
}

/* Items written on two threads: blocks of ITEMS_PER_BLOCK, each claimed
 * by whichever thread is free, into one of N_BLOCK_SLOTS strings, and
 * written out in order by the calling thread */
#define ITEMS_PER_BLOCK 256
#define N_BLOCK_SLOTS   8

typedef struct
{
  GPtrArray         *items;
  PsCliJsonItemFunc  func;
  guint              level;
  guint              n_blocks;
  GString           *slots[N_BLOCK_SLOTS];
  gboolean           done[N_BLOCK_SLOTS];
  GMutex             lock;
  GCond              cond;
  guint              next_block;     /* the first not claimed */
  guint              n_written;      /* blocks written out */
} Blocks;

/* The items of block into its slot, as they would follow in the array */
static void
blocks_format (Blocks   *blocks,
               guint     block,
               gpointer  user_data)
{
  GString *out = blocks->slots[block % N_BLOCK_SLOTS];
  guint first = block * ITEMS_PER_BLOCK;
  guint end = MIN (first + ITEMS_PER_BLOCK, blocks->items->len);
  PsCliJsonStream stream;

  g_string_truncate (out, 0);
  ps_cli_json_stream_init (&stream, out, blocks->level);
  stream.depth = 1;
  stream.has_values[0] = first > 0;
  stream.closing[0] = ']';
  for (guint i = first; i < end; i++)
    blocks->func (&stream, g_ptr_array_index (blocks->items, i), user_data);
}

/* Claims the next block whose slot is free, or returns FALSE when none is
 * left; called with the lock held */
static gboolean
blocks_claim (Blocks *blocks,
              guint  *block)
{
  if (blocks->next_block >= blocks->n_blocks || blocks->next_block >= blocks->n_written + N_BLOCK_SLOTS)
    return FALSE;
  *block = blocks->next_block++;
  return TRUE;
}

typedef struct
{
  Blocks   *blocks;
  gpointer  user_data;
} BlocksWorker;

static gpointer
blocks_worker (gpointer data)
{
  BlocksWorker *worker = data;
  Blocks *blocks = worker->blocks;

  g_mutex_lock (&blocks->lock);
  while (blocks->next_block < blocks->n_blocks)
    {
      guint block;

      if (!blocks_claim (blocks, &block))
        {
          g_cond_wait (&blocks->cond, &blocks->lock);
          continue;
        }
      g_mutex_unlock (&blocks->lock);
      blocks_format (blocks, block, worker->user_data);
      g_mutex_lock (&blocks->lock);
      blocks->done[block % N_BLOCK_SLOTS] = TRUE;
      g_cond_broadcast (&blocks->cond);
    }
  g_mutex_unlock (&blocks->lock);
  return NULL;
}

void
ps_cli_json_stream_array_parallel (GString           *out,
                                   guint              level,
                                   GPtrArray         *items,
                                   PsCliJsonItemFunc  func,
                                   gpointer           user_data,
                                   gpointer           worker_user_data)
{
  Blocks blocks = { 0 };
  BlocksWorker worker = { &blocks, worker_user_data };
  PsCliJsonStream stream;
  GThread *thread;

  blocks.n_blocks = (items->len + ITEMS_PER_BLOCK - 1) / ITEMS_PER_BLOCK;
  if (blocks.n_blocks < 2)
    {
      ps_cli_json_stream_array (out, level, items, func, user_data);
      return;
    }

  ps_cli_json_stream_init (&stream, out, level);
  ps_cli_json_stream_begin_array (&stream, NULL);
  ps_cli_json_write_out (out, 0);

  blocks.items = items;
  blocks.func = func;
  blocks.level = level;
  for (guint i = 0; i < N_BLOCK_SLOTS; i++)
    blocks.slots[i] = g_string_sized_new (ARRAY_WRITE_OUT_BYTES / 4);
  g_mutex_init (&blocks.lock);
  g_cond_init (&blocks.cond);
  thread = g_thread_new ("perfscope-json", blocks_worker, &worker);

  /* This thread writes the blocks out in order, and formats one itself
   * whenever the next to write is not ready */
  g_mutex_lock (&blocks.lock);
  while (blocks.n_written < blocks.n_blocks)
    {
      guint slot = blocks.n_written % N_BLOCK_SLOTS;
      guint block;

      if (blocks.done[slot])
        {
          g_mutex_unlock (&blocks.lock);
          fwrite (blocks.slots[slot]->str, 1, blocks.slots[slot]->len, stdout);
          g_mutex_lock (&blocks.lock);
          blocks.done[slot] = FALSE;
          blocks.n_written++;
          g_cond_broadcast (&blocks.cond);
        }
      else if (blocks_claim (&blocks, &block))
        {
          g_mutex_unlock (&blocks.lock);
          blocks_format (&blocks, block, user_data);
          g_mutex_lock (&blocks.lock);
          blocks.done[block % N_BLOCK_SLOTS] = TRUE;
        }
      else
        g_cond_wait (&blocks.cond, &blocks.lock);
    }
  g_mutex_unlock (&blocks.lock);

  g_thread_join (thread);
  g_mutex_clear (&blocks.lock);
  g_cond_clear (&blocks.cond);
  for (guint i = 0; i < N_BLOCK_SLOTS; i++)
    g_string_free (blocks.slots[i], TRUE);

  stream.has_values[0] = TRUE;
  ps_cli_json_stream_end (&stream);
}

/* A member of the top-level object written by a function instead of from
 * its node */
typedef struct
{
  const char * const *members;
  PsCliJsonWriteFunc func;
  gpointer           user_data;
} Splice;

static void
write_value (PsCliJsonStream *stream,
             const char      *name,
             JsonNode        *node)
{
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      ps_cli_json_stream_int (stream, name, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      ps_cli_json_stream_double (stream, name, json_node_get_double (node));
      break;
    case G_TYPE_BOOLEAN:
      ps_cli_json_stream_boolean (stream, name, json_node_get_boolean (node));
      break;
    case G_TYPE_STRING:
      ps_cli_json_stream_string (stream, name, json_node_get_string (node));
      break;
    default:
      ps_cli_json_stream_null (stream, name);
      break;
    }
}

/* A node as the value of the member name (NULL in an array); the splice
 * applies to the members of the top-level object */
static void
write_node (PsCliJsonStream *stream,
            const char      *name,
            JsonNode        *node,
            const Splice    *splice)
{
  if (node == NULL)
    {
      ps_cli_json_stream_null (stream, name);
      return;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *member_name;
        JsonNode *member;
        gboolean top = stream->depth == 0;

        ps_cli_json_stream_begin_object (stream, name);
        /* Members in insertion order, without a list and a lookup per member */
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &member_name, &member))
          {
            if (splice != NULL && top && g_strv_contains (splice->members, member_name))
              splice->func (stream->out, member_name, stream_next_value (stream, member_name), splice->user_data);
            else
              write_node (stream, member_name, member, NULL);
          }
        ps_cli_json_stream_end (stream);
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        ps_cli_json_stream_begin_array (stream, name);
        for (guint i = 0; i < length; i++)
          write_node (stream, NULL, json_array_get_element (array, i), NULL);
        ps_cli_json_stream_end (stream);
      }
      break;
    case JSON_NODE_VALUE:
      write_value (stream, name, node);
      break;
    case JSON_NODE_NULL:
    default:
      ps_cli_json_stream_null (stream, name);
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
  PsCliJsonStream stream;

  ps_cli_json_stream_init (&stream, out, 0);
  write_node (&stream, NULL, root, members != NULL ? &splice : NULL);
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
