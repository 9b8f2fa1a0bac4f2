/* ps-format-pmcstat-callgraph.c — the callgraph text of `pmcstat -G`
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.4 (the `-G` callgraph text format).
 *
 * The file holds one block per PMC: a header `@ NAME [N samples]`, then a
 * forest whose roots are the functions that held the sampled pc and whose
 * children are their callers, one node a line, indented by its depth:
 *
 *   86.17%  [260401]   acpi_cpu_c1 @ /boot/kernel/kernel
 *    100.0%  [260401]    acpi_cpu_idle
 *
 * A node's image is printed only when it differs from the line printed
 * before it in the same tree, so every frame inherits the last image seen.
 * Each block becomes a sample source (merged by PMC name, as the store
 * does), and the tree becomes samples: the part of a node's count that its
 * callers do not account for was sampled with the stack from that node
 * (outermost) down to the root (the sampled function). A sample whose
 * sampled function lies in a kernel image (/boot/…) is a kernel sample.
 *
 * Lines are read through the line reader, so chunks may end anywhere. A
 * malformed node line is a warning with its line number; it is skipped
 * together with the callers indented below it, and the rest of the file
 * still loads. Only an input whose first non-empty line is no block header
 * is a fatal error.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format.h"
#include "ps-parse-kit.h"
#include "ps-line-reader.h"
#include "ps-util.h"

/* pmcstat lines are short; a longer one is surely not callgraph text */
#define MAX_LINE_LENGTH (1024 * 1024)

/* The most samples one line may count: 2^36, two years of a thousand CPUs
 * sampled a thousand times a second. A sample weighs at most 2^32 − 1, so
 * a line gives at most 17 samples of the store, whatever number it holds. */
#define MAX_COUNT (G_GUINT64_CONSTANT (1) << 36)

/* Images of the kernel and its modules (pmcstat -k, §8.1) */
#define KERNEL_IMAGE_PREFIX "/boot/"

/* A distinct path of frames from a sampled function out to a caller, as
 * the trees of any block list it: its stack is interned once, however
 * many blocks repeat the path */
typedef struct
{
  guint32 parent;     /* path id + 1 of the path one frame shorter, 0 at a root */
  guint32 function;   /* string ids of the frame's function and image: the key */
  guint32 image;
  guint32 frame;
  guint32 stack;      /* its stack node, 0 until a sample needs it */
} PathEntry;

/* A direct-mapped cache of the names read, by their bytes: a profile
 * names the same few thousand functions again and again */
#define NAME_CACHE_SIZE 65536u

typedef struct
{
  const char *text;   /* the store's copy, NULL when free */
  gsize       length;
  guint32     id;
} NameCacheEntry;

/* A node of the path from the current tree's root to the line just read */
typedef struct
{
  guint32 path;       /* its PathEntry */
  guint32 frame;
  guint64 count;      /* the node's samples */
  guint64 callers;    /* the samples of its callers read so far */
  guint64 line;
} PathNode;

/* What a node line holds */
typedef struct
{
  guint       depth;
  guint64     count;
  const char *function;
  gsize       function_length;
  const char *image;          /* NULL when the line names none */
  gsize       image_length;
} NodeLine;

typedef struct
{
  PsParser      parent;
  PsEventStore *store;
  PsLineReader *reader;
  GError       *error;          /* a fatal error not yet returned */
  gboolean      failed;

  guint32       session;        /* PS_NONE before the first header */
  guint64       last_line;

  /* The current block */
  guint16       source;
  guint32       pmc_name;       /* string id */
  guint64       header_line;
  guint64       declared;       /* N of the header */
  gboolean      declared_known;
  guint64       listed;         /* the sum of the block's root counts */

  /* The current tree */
  GArray       *path;           /* PathNode, the root first */
  GArray       *paths;          /* PathEntry, of every block */
  PsIdTable     path_index;     /* path ids by (parent, function, image) */
  guint32       last_path;      /* the path of the last line read */
  NameCacheEntry *names;
  guint32       image;          /* string id of the last image printed, 0 if none */
  gboolean      kernel_tree;    /* the root lies in a kernel image */
  gboolean      skipping;       /* below a malformed line: its callers go too */
  guint         skip_depth;

  /* Totals for the metadata */
  GArray       *pmcs;           /* string ids of the PMC names, first seen first */
  GArray       *pmc_declared;   /* guint64 per entry of pmcs */
  guint64       total_declared;
  guint64       total_listed;
  guint         n_blocks;
} PmcParser;

/* ------------------------------------------------------------------------ */
/* Text                                                                      */

/* Interns text as UTF-8; bytes that are not UTF-8 become U+FFFD */
static guint32
intern_text (PsEventStore *store,
             const char   *text,
             gsize         length)
{
  g_autofree char *copy = NULL;
  g_autofree char *valid = NULL;

  if (g_utf8_validate_len (text, length, NULL))
    return ps_event_store_intern (store, text, length);

  copy = g_strndup (text, length);
  valid = g_utf8_make_valid (copy, -1);
  return ps_event_store_intern (store, valid, -1);
}

/* "86.17%", "100.0%", "05.23%": digits with at most one dot, then '%' */
static gboolean
is_percentage (const char *text,
               gsize       length)
{
  guint n_digits = 0, n_dots = 0;

  if (length < 2 || text[length - 1] != '%')
    return FALSE;
  for (gsize i = 0; i + 1 < length; i++)
    {
      if (g_ascii_isdigit (text[i]))
        n_digits++;
      else if (text[i] == '.' && n_dots == 0)
        n_dots++;
      else
        return FALSE;
    }

  return n_digits > 0;
}

/* The header `@ NAME [N samples]`: the name, and N when it is readable */
static gboolean
parse_header (const char  *text,
              gsize        length,
              const char **name,
              gsize       *name_length,
              guint64     *declared,
              gboolean    *declared_known)
{
  static const char suffix[] = " samples]";
  const char *p;
  gsize n;

  if (length < 1 || text[0] != '@')
    return FALSE;

  p = text + 1;
  n = length - 1;
  ps_parse_trim (&p, &n);
  *name = p;
  *name_length = n;
  *declared_known = FALSE;

  if (n >= sizeof suffix - 1 && memcmp (p + n - (sizeof suffix - 1), suffix, sizeof suffix - 1) == 0)
    {
      gsize digits_end = n - (sizeof suffix - 1);
      gsize open = digits_end;

      while (open > 0 && p[open - 1] != '[')
        open--;
      if (open > 0 && ps_parse_uint64 (p + open, digits_end - open, declared))
        {
          const char *name_text = p;
          gsize name_n = open - 1;

          ps_parse_trim (&name_text, &name_n);
          *name = name_text;
          *name_length = name_n;
          *declared_known = TRUE;
        }
    }

  return TRUE;
}

/* A node line (§8.4 item 3). On failure, *problem says what was expected;
 * out->depth is set even then, so the callers below can be skipped. */
static gboolean
parse_node_line (const char  *text,
                 gsize        length,
                 NodeLine    *out,
                 const char **problem)
{
  const char *p = text;
  const char *end = text + length;
  const char *token;
  const char *image_mark = NULL;

  memset (out, 0, sizeof *out);

  while (p < end && *p == ' ')
    p++;
  out->depth = (guint)MIN ((gsize)(p - text), G_MAXUINT);

  token = p;
  while (p < end && !ps_parse_is_blank (*p))
    p++;
  if (!is_percentage (token, p - token))
    {
      *problem = _("expected a percentage such as “86.17%” at the start of a callgraph line");
      return FALSE;
    }

  while (p < end && ps_parse_is_blank (*p))
    p++;
  token = p;
  while (p < end && !ps_parse_is_blank (*p))
    p++;
  if (p - token < 3 || token[0] != '[' || p[-1] != ']'
      || !ps_parse_uint64 (token + 1, (p - token) - 2, &out->count))
    {
      *problem = _("expected a sample count in brackets such as “[1318]” after the percentage");
      return FALSE;
    }

  while (p < end && ps_parse_is_blank (*p))
    p++;

  /* The image follows " @ " (absent when it is the previous line's) */
  for (const char *at = p; at < end && (at = memchr (at, '@', end - at)) != NULL; at++)
    if (at > p && at[-1] == ' ' && at + 1 < end && at[1] == ' ')
      {
        image_mark = at - 1;
        break;
      }

  out->function = p;
  out->function_length = (image_mark != NULL ? image_mark : end) - p;
  ps_parse_trim (&out->function, &out->function_length);
  if (out->function_length == 0)
    {
      *problem = _("expected a function name or address after the sample count");
      return FALSE;
    }

  if (image_mark != NULL)
    {
      out->image = image_mark + 3;
      out->image_length = end - out->image;
      ps_parse_trim (&out->image, &out->image_length);
      if (out->image_length == 0)
        out->image = NULL;
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Trees to samples                                                          */

/* The samples of the path's last node that none of its callers took */
static void
emit_samples (PmcParser *self)
{
  const PathNode *node = &g_array_index (self->path, PathNode, self->path->len - 1);
  guint64 remaining = node->count > node->callers ? node->count - node->callers : 0;
  PsSample sample = { 0 };

  if (remaining == 0)
    return;

  /* Store stacks go from the outermost caller down to the sampled function */
  sample.stack = g_array_index (self->paths, PathEntry, node->path).stack;
  if (sample.stack == 0)
    {
      for (guint i = self->path->len; i > 0; i--)
        sample.stack = ps_event_store_intern_stack (self->store, sample.stack,
                                                    g_array_index (self->path, PathNode, i - 1).frame);
      g_array_index (self->paths, PathEntry, node->path).stack = sample.stack;
    }
  sample.time_ns = 0;
  sample.track = PS_NONE;
  sample.source = self->source;
  /* Counts of a whole run: no sample has a time */
  sample.flags = PS_SAMPLE_FLAG_UNTIMED | (self->kernel_tree ? PS_SAMPLE_FLAG_KERNEL : PS_SAMPLE_FLAG_NONE);

  /* A weight is 32 bits wide */
  while (remaining > 0)
    {
      sample.weight = (guint32)MIN (remaining, (guint64)G_MAXUINT32);
      ps_store_builder_add_sample (self->parent.builder, &sample);
      remaining -= sample.weight;
    }
}

/* Closes the nodes of the path deeper than `depth`, innermost first */
static void
close_path (PmcParser *self,
            guint      depth)
{
  while (self->path->len > depth)
    {
      guint64 count = g_array_index (self->path, PathNode, self->path->len - 1).count;

      emit_samples (self);
      g_array_set_size (self->path, self->path->len - 1);
      if (self->path->len > 0)
        g_array_index (self->path, PathNode, self->path->len - 1).callers += count;
    }
}

static void
end_tree (PmcParser *self)
{
  close_path (self, 0);
  self->image = 0;
  self->kernel_tree = FALSE;
  self->skipping = FALSE;
}

static void
end_block (PmcParser *self)
{
  end_tree (self);

  if (self->session == PS_NONE)
    return;

  if (self->declared_known && self->listed > self->declared)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-TOTAL", self->header_line,
                           _("The trees of “%s” list %llu samples, more than the %llu the header announces"),
                           ps_event_store_get_string (self->store, self->pmc_name),
                           (unsigned long long) self->listed, (unsigned long long) self->declared);

  self->total_listed += self->listed;
  self->listed = 0;
}

static void
add_pmc_total (PmcParser *self,
               guint32    name,
               guint64    declared)
{
  for (guint i = 0; i < self->pmcs->len; i++)
    if (g_array_index (self->pmcs, guint32, i) == name)
      {
        g_array_index (self->pmc_declared, guint64, i) += declared;
        return;
      }

  g_array_append_val (self->pmcs, name);
  g_array_append_val (self->pmc_declared, declared);
}

static void
begin_block (PmcParser  *self,
             const char *name,
             gsize       name_length,
             guint64     declared,
             gboolean    declared_known,
             guint64     line)
{
  end_block (self);

  if (self->session == PS_NONE)
    self->session = ps_event_store_add_session (self->store, line, FALSE);

  if (name_length == 0)
    {
      name = "unknown";
      name_length = strlen (name);
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-HEADER", line,
                             _("The block header names no event; expected “@ EVENT [N samples]”"));
    }
  else if (!declared_known)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-HEADER", line,
                           _("The block header gives no sample count; expected “@ EVENT [N samples]”"));

  self->pmc_name = intern_text (self->store, name, name_length);
  self->source = ps_event_store_add_sample_source (self->store, self->pmc_name, 0);
  self->header_line = line;
  self->declared = declared_known ? declared : 0;
  self->declared_known = declared_known;
  self->listed = 0;
  self->n_blocks++;
  self->total_declared += self->declared;
  add_pmc_total (self, self->pmc_name, self->declared);
}

/* pmcstat prints an address when no symbol matched (§8.4): "0x" and at
 * most 16 hexadecimal digits; 0 for anything else */
static guint64
function_address (const char *function,
                  gsize       length)
{
  guint64 value = 0;

  if (length <= 2 || length > 18 || function[0] != '0' || (function[1] != 'x' && function[1] != 'X'))
    return 0;

  for (gsize i = 2; i < length; i++)
    {
      int digit = g_ascii_xdigit_value (function[i]);

      if (digit < 0)
        return 0;
      value = value << 4 | (guint64)digit;
    }
  return value;
}

static inline guint32
path_hash (guint32 parent,
           guint32 function,
           guint32 image)
{
  return (guint32)ps_util_mix64 (((guint64)parent << 32 | function) ^ ((guint64)image << 48) ^ image);
}

static guint
path_hash_of_id (guint32  id,
                 gpointer user_data)
{
  PmcParser *self = user_data;
  const PathEntry *path = &g_array_index (self->paths, PathEntry, id);

  return path_hash (path->parent, path->function, path->image);
}

/* The id of the path one frame longer than parent (id + 1, 0 for none) */
static guint32
path_intern (PmcParser  *self,
             guint32     parent,
             guint32     function,
             guint32     image,
             const char *name,
             gsize       name_length)
{
  PathEntry entry = { parent, function, image, 0, 0 };
  guint32 next = self->last_path + 1;
  guint32 k;
  guint32 id;

  /* A block that repeats an earlier one lists its paths in the order
   * they were made: try the path after the last one first */
  if (next < self->paths->len)
    {
      const PathEntry *found = &g_array_index (self->paths, PathEntry, next);

      if (found->parent == parent && found->function == function && found->image == image)
        return self->last_path = next;
    }

  for (k = ps_id_table_first_slot (&self->path_index, path_hash (parent, function, image));
       (id = ps_id_table_id_at (&self->path_index, k)) != PS_ID_TABLE_FREE;
       k = ps_id_table_next_slot (&self->path_index, k))
    {
      const PathEntry *found = &g_array_index (self->paths, PathEntry, id);

      if (found->parent == parent && found->function == function && found->image == image)
        return self->last_path = id;
    }

  entry.frame = ps_event_store_intern_frame (self->store, function, image, function_address (name, name_length));
  g_array_append_val (self->paths, entry);
  ps_id_table_insert_at (&self->path_index, k, self->paths->len - 1, path_hash_of_id, self);
  return self->last_path = self->paths->len - 1;
}

/* intern_text () through the cache of names */
static guint32
intern_name (PmcParser  *self,
             const char *text,
             gsize       length)
{
  guint64 hash = length;
  NameCacheEntry *entry;
  gsize i = 0;

  /* Eight bytes at a time */
  for (; i + 8 <= length; i += 8)
    {
      guint64 word;

      memcpy (&word, text + i, 8);
      hash = (hash ^ word) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
      hash ^= hash >> 29;
    }
  for (; i < length; i++)
    hash = (hash ^ (guchar)text[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  entry = &self->names[ps_util_mix64 (hash) & (NAME_CACHE_SIZE - 1)];
  if (entry->text != NULL && entry->length == length && memcmp (entry->text, text, length) == 0)
    return entry->id;

  entry->id = intern_text (self->store, text, length);
  entry->text = ps_event_store_get_string (self->store, entry->id);
  entry->length = strlen (entry->text);
  return entry->id;
}

static inline gboolean
stored_text_is (PmcParser  *self,
                guint32     id,
                const char *text,
                gsize       length)
{
  const char *stored = ps_event_store_get_string (self->store, id);

  return strncmp (stored, text, length) == 0 && stored[length] == '\0';
}

/* Whether a line names the path after the last one (see path_intern ()),
 * told from its text without interning its names */
static gboolean
path_is_next (PmcParser      *self,
              guint32         parent,
              const NodeLine *node)
{
  const PathEntry *next;

  if (self->last_path + 1 >= self->paths->len)
    return FALSE;
  next = &g_array_index (self->paths, PathEntry, self->last_path + 1);
  if (next->parent != parent)
    return FALSE;
  if (node->image != NULL ? !stored_text_is (self, next->image, node->image, node->image_length)
                          : next->image != self->image)
    return FALSE;
  return stored_text_is (self, next->function, node->function, node->function_length);
}

static void
read_node_line (PmcParser    *self,
                const PsLine *line)
{
  const char *problem = NULL;
  NodeLine node;
  PathNode path_node = { 0 };
  guint32 function;
  guint32 parent_path;

  if (!parse_node_line (line->text, line->length, &node, &problem))
    {
      /* The callers of a node we could not read cannot be placed */
      if (!(self->skipping && node.depth > self->skip_depth))
        {
          self->skipping = TRUE;
          self->skip_depth = node.depth;
        }
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-LINE", line->number,
                             _("Not a callgraph line: %s; the line and the callers below it are skipped"), problem);
      return;
    }

  if (self->skipping)
    {
      if (node.depth > self->skip_depth)
        return;
      self->skipping = FALSE;
    }

  if (node.count > MAX_COUNT)
    {
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-COUNT", line->number,
                             _("The count of %llu samples is more than a run takes; expected at most %llu, "
                               "and it counts as %llu"),
                             (unsigned long long) node.count, (unsigned long long) MAX_COUNT,
                             (unsigned long long) MAX_COUNT);
      node.count = MAX_COUNT;
    }

  close_path (self, node.depth);

  if (node.depth > self->path->len)
    {
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-DEPTH", line->number,
                             _("The line is indented %u levels, but its callee is at level %u; expected at most %u; "
                               "the line and the callers below it are skipped"),
                             node.depth, self->path->len > 0 ? self->path->len - 1 : 0, self->path->len);
      self->skipping = TRUE;
      self->skip_depth = node.depth;
      return;
    }

  if (node.depth == 0)
    {
      /* Each root begins a tree of its own, even without the empty line */
      self->image = 0;
      self->kernel_tree = node.image != NULL && node.image_length >= strlen (KERNEL_IMAGE_PREFIX)
                          && memcmp (node.image, KERNEL_IMAGE_PREFIX, strlen (KERNEL_IMAGE_PREFIX)) == 0;
      self->listed += node.count;
    }
  else
    {
      const PathNode *callee = &g_array_index (self->path, PathNode, self->path->len - 1);
      guint64 left_to_callers = callee->count - MIN (callee->callers, callee->count);

      if (node.count > left_to_callers)
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMC-COUNT", line->number,
                               _("The caller has %llu samples, more than the %llu of its callee (line %llu) left to its callers"),
                               (unsigned long long) node.count, (unsigned long long) left_to_callers,
                               (unsigned long long) callee->line);
    }

  parent_path = self->path->len > 0 ? g_array_index (self->path, PathNode, self->path->len - 1).path + 1 : 0;
  if (path_is_next (self, parent_path, &node))
    {
      path_node.path = ++self->last_path;
      self->image = g_array_index (self->paths, PathEntry, path_node.path).image;
    }
  else
    {
      if (node.image != NULL)
        self->image = intern_name (self, node.image, node.image_length);

      function = intern_name (self, node.function, node.function_length);
      path_node.path = path_intern (self, parent_path, function, self->image, node.function, node.function_length);
    }
  path_node.frame = g_array_index (self->paths, PathEntry, path_node.path).frame;
  path_node.count = node.count;
  path_node.line = line->number;
  g_array_append_val (self->path, path_node);
}

static void
handle_line (const PsLine *line,
             gpointer      user_data)
{
  PmcParser *self = user_data;
  const char *name;
  gsize name_length;
  guint64 declared;
  gboolean declared_known;

  if (self->failed)
    return;

  if (G_UNLIKELY (line->truncated))
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-LONGLINE", line->number,
                           _("The line is longer than %u MiB; the rest of it was dropped"), MAX_LINE_LENGTH / (1024 * 1024));

  if (ps_parse_is_blank_text (line->text, line->length))
    {
      end_tree (self);
      return;
    }

  if (parse_header (line->text, line->length, &name, &name_length, &declared, &declared_known))
    {
      begin_block (self, name, name_length, declared, declared_known, line->number);
      self->last_line = line->number;
      return;
    }

  if (self->session == PS_NONE)
    {
      self->failed = TRUE;
      g_set_error (&self->error, PS_ERROR, PS_ERROR_PARSE,
                   _("Line %llu: expected the block header “@ EVENT [N samples]” of pmcstat -G output"),
                   (unsigned long long) line->number);
      return;
    }

  read_node_line (self, line);
  self->last_line = line->number;
}

/* ------------------------------------------------------------------------ */
/* The parser                                                                */

static gboolean
take_error (PmcParser  *self,
            GError    **error)
{
  if (self->error == NULL)
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&self->error));
  return FALSE;
}

static gboolean
pmc_feed (PsParser      *parser,
          const guint8  *data,
          gsize          length,
          GError       **error)
{
  PmcParser *self = (PmcParser *)parser;

  if (self->failed)
    return take_error (self, error);

  ps_line_reader_feed (self->reader, data, length);
  return take_error (self, error);
}

static void
set_metadata (PmcParser *self)
{
  g_autoptr(GString) names = g_string_new (NULL);
  char number[32];

  for (guint i = 0; i < self->pmcs->len; i++)
    {
      if (i > 0)
        g_string_append (names, ", ");
      g_string_append (names, ps_event_store_get_string (self->store, g_array_index (self->pmcs, guint32, i)));
    }

  ps_event_store_set_metadata (self->store, self->session, "pmcs", names->str);
  g_snprintf (number, sizeof number, "%" PRIu64, self->total_declared);
  ps_event_store_set_metadata (self->store, self->session, "samples", number);
  g_snprintf (number, sizeof number, "%" PRIu64, self->total_listed);
  ps_event_store_set_metadata (self->store, self->session, "samples_listed", number);
  g_snprintf (number, sizeof number, "%u", self->n_blocks);
  ps_event_store_set_metadata (self->store, self->session, "blocks", number);
  ps_event_store_set_metadata (self->store, self->session, "time_unit", "samples");

  /* The header counts of each PMC, when there are several */
  if (self->pmcs->len > 1)
    for (guint i = 0; i < self->pmcs->len; i++)
      {
        g_autofree char *key = g_strdup_printf ("samples.%s", ps_event_store_get_string (self->store, g_array_index (self->pmcs, guint32, i)));

        g_snprintf (number, sizeof number, "%" PRIu64, g_array_index (self->pmc_declared, guint64, i));
        ps_event_store_set_metadata (self->store, self->session, key, number);
      }
}

static gboolean
pmc_finish (PsParser  *parser,
            GError   **error)
{
  PmcParser *self = (PmcParser *)parser;

  if (self->failed)
    return take_error (self, error);

  ps_line_reader_finish (self->reader);
  if (self->failed)
    return take_error (self, error);

  if (self->session == PS_NONE)
    {
      self->failed = TRUE;
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Line 1: the input is empty; expected the block header “@ EVENT [N samples]” of pmcstat -G output"));
      return FALSE;
    }

  end_block (self);
  set_metadata (self);
  ps_event_store_set_session_end (self->store, self->session, self->last_line);
  ps_store_builder_flush (parser->builder);

  return TRUE;
}

static void
pmc_free (PsParser *parser)
{
  PmcParser *self = (PmcParser *)parser;

  ps_line_reader_free (self->reader);
  g_clear_error (&self->error);
  g_array_unref (self->path);
  g_array_unref (self->paths);
  ps_id_table_clear (&self->path_index);
  g_free (self->names);
  g_array_unref (self->pmcs);
  g_array_unref (self->pmc_declared);
  g_clear_object (&self->store);
  g_free (self);
}

static const PsParserClass pmc_parser_class = {
  pmc_feed,
  pmc_finish,
  pmc_free,
};

static PsParser *
pmc_parser_new (PsStoreBuilder *builder)
{
  PmcParser *self = g_new0 (PmcParser, 1);

  self->parent.klass = &pmc_parser_class;
  self->parent.builder = builder;
  self->store = g_object_ref (ps_store_builder_get_store (builder));
  self->session = PS_NONE;
  self->path = g_array_new (FALSE, FALSE, sizeof (PathNode));
  self->paths = g_array_new (FALSE, FALSE, sizeof (PathEntry));
  ps_id_table_init (&self->path_index, 1024);
  self->names = g_new0 (NameCacheEntry, NAME_CACHE_SIZE);
  self->pmcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->pmc_declared = g_array_new (FALSE, FALSE, sizeof (guint64));

  self->reader = ps_line_reader_new (handle_line, self);
  ps_line_reader_set_detect_encoding (self->reader, TRUE);
  ps_line_reader_set_max_line_length (self->reader, MAX_LINE_LENGTH);

  return &self->parent;
}

/* ------------------------------------------------------------------------ */
/* Sniffing                                                                  */

/* The next line of data at *p (without its line end), or FALSE at the end;
 * a last line without line end counts only when the data is all there is */
static gboolean
next_line (const char **p,
           const char  *end,
           const char **line,
           gsize       *length)
{
  const char *q = *p;

  if (q >= end)
    return FALSE;
  *line = q;
  while (q < end && *q != '\n' && *q != '\r')
    q++;
  *length = q - *line;
  if (q < end && *q == '\r')
    q++;
  if (q < end && *q == '\n')
    q++;
  *p = q;
  return TRUE;
}

static guint
pmc_sniff (const guint8 *data,
           gsize         length,
           const char   *file_name)
{
  const char *p = (const char *)data;
  const char *end = p + length;
  const char *line, *name;
  gsize line_length, name_length;
  guint64 declared;
  gboolean declared_known;
  NodeLine node;
  const char *problem;

  if (length >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
    p += 3;

  do
    if (!next_line (&p, end, &line, &line_length))
      return 0;
  while (ps_parse_is_blank_text (line, line_length));

  if (!parse_header (line, line_length, &name, &name_length, &declared, &declared_known)
      || !declared_known || name_length == 0 || line[1] != ' ')
    return 0;

  /* Then, after empty lines, a root node; a header alone is less sure */
  do
    if (!next_line (&p, end, &line, &line_length))
      return 70;
  while (ps_parse_is_blank_text (line, line_length));

  if (parse_node_line (line, line_length, &node, &problem) && node.depth == 0)
    return 95;
  return line[0] == '@' ? 70 : 20;
}

static const char * const pmc_extensions[] = { "txt", "graph", NULL };

const PsFormat ps_format_pmcstat_callgraph = {
  "pmcstat-callgraph",
  N_("pmcstat callgraph (pmcstat -G)"),
  N_("The callgraph text that FreeBSD’s pmcstat writes with -G: per PMC, the sampled functions "
     "with their callers and sample counts"),
  pmc_extensions,
  NULL,
  pmc_sniff,
  pmc_parser_new,
};
