/* ps-perflib-counterset.c — PerfLib V2 registration information and
 * counter identifiers decoded from untrusted bytes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §3.8–§3.9 (the counter set's registration, its
 * string buffer, the identifiers of PerfQueryCounterInfo), §6 rules 10–13.
 *
 * Apart from the counter data (ps-perflib-block.c) because these describe
 * the counters rather than carry their readings: a capture reads them once,
 * then every buffer is decoded against them. They are read with the same
 * care: every size is compared with the bytes left before it is used.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-perflib-block-private.h"
#include "ps-util.h"

/* ------------------------------------------------------------------ */
/* Registration information                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  GArray       *counters;
  GArray       *warnings;
  GStringChunk *strings;
  GString      *scratch;
  GHashTable   *by_id;      /* counter id → index + 1 */
} CounterSetPrivate;

static void
counterset_publish (PsPerflibCounterSet *set)
{
  CounterSetPrivate *priv = set->priv;

  g_hash_table_remove_all (priv->by_id);
  for (guint i = 0; i < priv->counters->len; i++)
    {
      guint32 id = g_array_index (priv->counters, PsPerflibCounterInfo, i).counter_id;

      if (!g_hash_table_contains (priv->by_id, GUINT_TO_POINTER (id)))
        g_hash_table_insert (priv->by_id, GUINT_TO_POINTER (id), GUINT_TO_POINTER (i + 1));
    }
  set->counters = (PsPerflibCounterInfo *) (gpointer) priv->counters->data;
  set->n_counters = priv->counters->len;
  set->warnings = (const PsPerflibWarning *) (gpointer) priv->warnings->data;
  set->n_warnings = priv->warnings->len;
}

void
ps_perflib_counterset_free (PsPerflibCounterSet *set)
{
  CounterSetPrivate *priv;

  if (set == NULL)
    return;
  priv = set->priv;
  g_array_unref (priv->counters);
  g_array_unref (priv->warnings);
  g_string_chunk_free (priv->strings);
  g_string_free (priv->scratch, TRUE);
  g_hash_table_unref (priv->by_id);
  g_free (priv);
  g_free (set);
}

const PsPerflibCounterInfo *
ps_perflib_counterset_lookup (const PsPerflibCounterSet *set,
                              guint32                    counter_id)
{
  CounterSetPrivate *priv = set->priv;
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (priv->by_id, GUINT_TO_POINTER (counter_id)));

  return index > 0 && index <= set->n_counters ? &set->counters[index - 1] : NULL;
}

static PsPerflibCounterInfo *
counterset_find (PsPerflibCounterSet *set,
                 guint32              counter_id)
{
  return (PsPerflibCounterInfo *) ps_perflib_counterset_lookup (set, counter_id);
}

static void
read_counter_reg (PsPerflibCounterInfo *info,
                  const guint8         *p,
                  gsize                 offset)
{
  memset (info, 0, sizeof *info);
  info->offset = offset;
  info->counter_id = ps_util_load_le32 (p);
  info->type = ps_util_load_le32 (p + 4);
  info->attrib = ps_util_load_le64 (p + 8);
  info->detail_level = ps_util_load_le32 (p + 16);
  info->default_scale = (gint32) ps_util_load_le32 (p + 20);
  info->base_counter_id = ps_util_load_le32 (p + 24);
  info->perf_time_id = ps_util_load_le32 (p + 28);
  info->perf_freq_id = ps_util_load_le32 (p + 32);
  info->multi_id = ps_util_load_le32 (p + 36);
  info->aggregate_func = ps_util_load_le32 (p + 40);
}

static guint32 *
companion_slot (PsPerflibCounterInfo *info,
                guint                 which)
{
  switch (which)
    {
    case 0: return &info->base_counter_id;
    case 1: return &info->perf_time_id;
    case 2: return &info->perf_freq_id;
    default: return &info->multi_id;
    }
}

static const char *const companion_names[] = { "BaseCounterId", "PerfTimeId", "PerfFreqId", "MultiId" };

/* specs: perflib-v2.md §6 rule 10 — companions must name another
 * existing counter, and the links must not form a cycle. A bad link is
 * cleared (PS_PERF_NO_COUNTER) so later code can follow links blindly. */
static void
counterset_check_companions (PsPerflibCounterSet *set)
{
  CounterSetPrivate *priv = set->priv;
  guint n = priv->counters->len;
  g_autofree guint8 *colour = NULL;
  g_autofree guint *stack = NULL;
  g_autofree guint *next_edge = NULL;

  counterset_publish (set);
  for (guint i = 0; i < n; i++)
    {
      PsPerflibCounterInfo *info = &g_array_index (priv->counters, PsPerflibCounterInfo, i);

      for (guint which = 0; which < 4; which++)
        {
          guint32 *slot = companion_slot (info, which);

          if (*slot == PS_PERF_NO_COUNTER)
            continue;
          if (*slot == info->counter_id || counterset_find (set, *slot) == NULL)
            {
              ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_COMPANION, info->offset,
                                      *slot == info->counter_id
                                        ? _("Counter %u at byte offset %" PRIu64 ": %s names the counter itself; ignored")
                                        : _("Counter %u at byte offset %" PRIu64 ": %s names counter %u, which is not registered; ignored"),
                                      info->counter_id, (guint64) info->offset, companion_names[which], *slot);
              *slot = PS_PERF_NO_COUNTER;
            }
        }
    }

  /* Iterative depth-first search: 0 unvisited, 1 on the stack, 2 done. An
   * edge to a counter on the stack closes a cycle: clear that edge. */
  colour = g_new0 (guint8, n);
  stack = g_new (guint, n);
  next_edge = g_new0 (guint, n);
  for (guint root = 0; root < n; root++)
    {
      guint depth = 0;

      if (colour[root] != 0)
        continue;
      stack[depth++] = root;
      colour[root] = 1;
      next_edge[root] = 0;
      while (depth > 0)
        {
          guint current = stack[depth - 1];
          PsPerflibCounterInfo *info = &g_array_index (priv->counters, PsPerflibCounterInfo, current);
          guint32 *slot;
          guint target;

          if (next_edge[current] >= 4)
            {
              colour[current] = 2;
              depth--;
              continue;
            }
          slot = companion_slot (info, next_edge[current]);
          next_edge[current]++;
          if (*slot == PS_PERF_NO_COUNTER)
            continue;
          target = (guint) (counterset_find (set, *slot) - set->counters);
          if (colour[target] == 1)
            {
              ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_COMPANION_CYCLE, info->offset,
                                      _("Counter %u at byte offset %" PRIu64 ": %s %u closes a cycle of companion counters; ignored"),
                                      info->counter_id, (guint64) info->offset,
                                      companion_names[next_edge[current] - 1], *slot);
              *slot = PS_PERF_NO_COUNTER;
            }
          else if (colour[target] == 0)
            {
              colour[target] = 1;
              next_edge[target] = 0;
              stack[depth++] = target;
            }
        }
    }
}

static PsPerflibCounterSet *
counterset_new (void)
{
  PsPerflibCounterSet *set = g_new0 (PsPerflibCounterSet, 1);
  CounterSetPrivate *priv = g_new0 (CounterSetPrivate, 1);

  set->priv = priv;
  priv->counters = g_array_new (FALSE, TRUE, sizeof (PsPerflibCounterInfo));
  priv->warnings = ps_perflib_warnings_new ();
  priv->strings = g_string_chunk_new (256);
  priv->scratch = g_string_new (NULL);
  priv->by_id = g_hash_table_new (NULL, NULL);
  counterset_publish (set);
  return set;
}

/* specs: perflib-v2.md §3.9, §6 rule 10 */
gboolean
ps_perflib_counterset_decode (const guint8          *data,
                              gsize                  length,
                              PsPerflibCounterSet  **out_set,
                              GError               **error)
{
  g_autoptr(PsPerflibCounterSet) set = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  CounterSetPrivate *priv;
  GError *local_error = NULL;
  guint32 n_fit;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (out_set != NULL)
    *out_set = NULL;
  if (length < COUNTERSET_REG_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad counterset registration at byte offset 0: expected a 32-byte PERF_COUNTERSET_REG_INFO, found %" PRIu64 " bytes"),
                   (guint64) length);
      return FALSE;
    }

  set = counterset_new ();
  priv = set->priv;
  ps_perflib_guid_read (&set->guid, data);
  set->counterset_type = ps_util_load_le32 (data + 16);
  set->detail_level = ps_util_load_le32 (data + 20);
  set->num_counters = ps_util_load_le32 (data + 24);
  set->instance_type = ps_util_load_le32 (data + 28);

  n_fit = (guint32) MIN ((guint64) (length - COUNTERSET_REG_SIZE) / COUNTER_REG_SIZE, (guint64) MAX_REG_COUNTERS);
  if (set->num_counters > MAX_REG_COUNTERS)
    local_error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                               _("Bad counterset registration at byte offset 24: NumCounters is %u, expected at most %u"),
                               set->num_counters, MAX_REG_COUNTERS);
  else if (set->num_counters > n_fit)
    local_error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                               _("Bad counterset registration at byte offset 24: NumCounters is %u, but %" PRIu64 " bytes hold only %u PERF_COUNTER_REG_INFO"),
                               set->num_counters, (guint64) length, n_fit);
  else
    n_fit = set->num_counters;

  for (guint32 i = 0; i < n_fit; i++)
    {
      gsize offset = COUNTERSET_REG_SIZE + (gsize) i * COUNTER_REG_SIZE;
      PsPerflibCounterInfo info;

      read_counter_reg (&info, data + offset, offset);
      if (!g_hash_table_add (seen, GUINT_TO_POINTER (info.counter_id)))
        {
          ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_DUPLICATE_COUNTER, offset,
                                  _("Counter %u at byte offset %" PRIu64 " is registered twice; the first registration is kept"),
                                  info.counter_id, (guint64) offset);
          continue;
        }
      g_array_append_val (priv->counters, info);
    }

  counterset_check_companions (set);
  counterset_publish (set);
  if (out_set != NULL)
    *out_set = g_steal_pointer (&set);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

/* specs: perflib-v2.md §6 rule 12 — a single NUL-terminated string */
static const char *
decode_single_string (PsPerflibCounterSet  *set,
                      const guint8         *data,
                      gsize                 length,
                      GError              **error)
{
  CounterSetPrivate *priv = set->priv;
  gssize units = ps_perflib_find_utf16_nul (data, length / 2);

  if (units < 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad registration string at byte offset 0: no UTF-16 NUL within its %" PRIu64 " bytes"),
                   (guint64) length);
      return NULL;
    }
  if (ps_perflib_utf16le_to_utf8 (priv->scratch, data, (gsize) units))
    ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_UTF16, 0,
                            _("Registration string at byte offset 0 is not well-formed UTF-16; replaced characters with U+FFFD"));
  return g_string_chunk_insert_const (priv->strings, priv->scratch->str);
}

/* specs: perflib-v2.md §3.9 (string-buffer block), §6 rule 11 */
static gboolean
apply_string_buffer (PsPerflibCounterSet   *set,
                     PsPerflibRegInfoType   request_code,
                     const guint8          *data,
                     gsize                  length,
                     GError               **error)
{
  CounterSetPrivate *priv = set->priv;
  guint32 size;
  guint32 n_entries;
  gsize strings_start;

  if (length < STRING_BUFFER_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad string buffer at byte offset 0: expected an 8-byte PERF_STRING_BUFFER_HEADER, found %" PRIu64 " bytes"),
                   (guint64) length);
      return FALSE;
    }
  size = ps_util_load_le32 (data);
  n_entries = ps_util_load_le32 (data + 4);
  if (size < STRING_BUFFER_SIZE || size > length)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad string buffer at byte offset 0: dwSize is %u, expected 8 to %" PRIu64),
                   size, (guint64) length);
      return FALSE;
    }
  if (n_entries > (size - STRING_BUFFER_SIZE) / STRING_ENTRY_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad string buffer at byte offset 4: dwCounters is %u, but dwSize %u holds at most %u entries"),
                   n_entries, size, (size - STRING_BUFFER_SIZE) / STRING_ENTRY_SIZE);
      return FALSE;
    }

  strings_start = STRING_BUFFER_SIZE + (gsize) n_entries * STRING_ENTRY_SIZE;
  for (guint32 i = 0; i < n_entries; i++)
    {
      gsize entry_offset = STRING_BUFFER_SIZE + (gsize) i * STRING_ENTRY_SIZE;
      guint32 counter_id = ps_util_load_le32 (data + entry_offset);
      guint32 string_offset = ps_util_load_le32 (data + entry_offset + 4);
      PsPerflibCounterInfo *info;
      gssize units;
      const char *text;

      if (string_offset == 0xFFFFFFFFu)
        continue;
      /* Needs room for at least the NUL: [strings_start, size − 2] */
      if (string_offset < strings_start || size < 2 || string_offset > size - 2)
        {
          ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_STRING, entry_offset,
                                  _("String entry at byte offset %" PRIu64 " (counter %u): dwOffset %u is outside the strings area %" PRIu64 "–%u; skipped"),
                                  (guint64) entry_offset, counter_id, string_offset, (guint64) strings_start, size);
          continue;
        }
      units = ps_perflib_find_utf16_nul (data + string_offset, (size - string_offset) / 2);
      if (units < 0)
        {
          ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_STRING, string_offset,
                                  _("String at byte offset %u (counter %u) has no NUL before the end of the block; skipped"),
                                  string_offset, counter_id);
          continue;
        }
      if (ps_perflib_utf16le_to_utf8 (priv->scratch, data + string_offset, (gsize) units))
        ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_UTF16, string_offset,
                                _("String at byte offset %u is not well-formed UTF-16; replaced characters with U+FFFD"),
                                string_offset);
      info = counterset_find (set, counter_id);
      if (info == NULL)
        {
          ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_UNKNOWN_STRING_ID, entry_offset,
                                  _("String entry at byte offset %" PRIu64 " names counter %u, which is not registered; skipped"),
                                  (guint64) entry_offset, counter_id);
          continue;
        }
      text = g_string_chunk_insert_const (priv->strings, priv->scratch->str);
      if (request_code == PS_PERFLIB_REG_COUNTER_NAME_STRINGS)
        info->name = text;
      else if (request_code == PS_PERFLIB_REG_COUNTER_HELP_STRINGS)
        info->help = text;
      else
        info->english_name = text;
    }
  return TRUE;
}

gboolean
ps_perflib_counterset_apply (PsPerflibCounterSet   *set,
                             PsPerflibRegInfoType   request_code,
                             const guint8          *data,
                             gsize                  length,
                             GError               **error)
{
  CounterSetPrivate *priv;
  const char *text;
  gboolean ok = TRUE;

  g_return_val_if_fail (set != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  priv = set->priv;
  switch (request_code)
    {
    case PS_PERFLIB_REG_COUNTER_STRUCT:
      {
        PsPerflibCounterInfo info;
        PsPerflibCounterInfo *existing;

        if (length < COUNTER_REG_SIZE)
          {
            g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                         _("Bad counter registration at byte offset 0: expected a 48-byte PERF_COUNTER_REG_INFO, found %" PRIu64 " bytes"),
                         (guint64) length);
            return FALSE;
          }
        read_counter_reg (&info, data, 0);
        existing = counterset_find (set, info.counter_id);
        if (existing != NULL)
          {
            info.name = existing->name;
            info.help = existing->help;
            info.english_name = existing->english_name;
            *existing = info;
          }
        else
          g_array_append_val (priv->counters, info);
        counterset_check_companions (set);
        counterset_publish (set);
      }
      break;

    case PS_PERFLIB_REG_COUNTERSET_NAME_STRING:
    case PS_PERFLIB_REG_COUNTERSET_HELP_STRING:
    case PS_PERFLIB_REG_PROVIDER_NAME:
    case PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME:
      text = decode_single_string (set, data, length, error);
      if (text == NULL)
        return FALSE;
      if (request_code == PS_PERFLIB_REG_COUNTERSET_NAME_STRING)
        set->name = text;
      else if (request_code == PS_PERFLIB_REG_COUNTERSET_HELP_STRING)
        set->help = text;
      else if (request_code == PS_PERFLIB_REG_PROVIDER_NAME)
        set->provider_name = text;
      else
        set->english_name = text;
      break;

    case PS_PERFLIB_REG_COUNTER_NAME_STRINGS:
    case PS_PERFLIB_REG_COUNTER_HELP_STRINGS:
    case PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES:
      ok = apply_string_buffer (set, request_code, data, length, error);
      break;

    case PS_PERFLIB_REG_PROVIDER_GUID:
      if (length < 16)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                       _("Bad provider GUID at byte offset 0: expected 16 bytes, found %" PRIu64),
                       (guint64) length);
          return FALSE;
        }
      ps_perflib_guid_read (&set->provider_guid, data);
      set->has_provider_guid = TRUE;
      break;

    case PS_PERFLIB_REG_COUNTERSET_STRUCT:
    default:
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Registration request code %u cannot be added to a counterset"),
                   (guint) request_code);
      return FALSE;
    }

  counterset_publish (set);
  return ok;
}

/* ------------------------------------------------------------------ */
/* Counter identifiers (PerfQueryCounterInfo)                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  GArray       *identifiers;
  GArray       *warnings;
  GStringChunk *strings;
  guint        *by_index;   /* block position → identifier */
} QueryPrivate;

void
ps_perflib_query_free (PsPerflibQuery *query)
{
  QueryPrivate *priv;

  if (query == NULL)
    return;
  priv = query->priv;
  g_array_unref (priv->identifiers);
  g_array_unref (priv->warnings);
  g_string_chunk_free (priv->strings);
  g_free (priv->by_index);
  g_free (priv);
  g_free (query);
}

const PsPerflibIdentifier *
ps_perflib_query_get_for_block (const PsPerflibQuery *query,
                                guint                 position)
{
  QueryPrivate *priv = query->priv;

  if (position >= query->n_identifiers)
    return NULL;
  if (query->index_valid)
    return &query->identifiers[priv->by_index[position]];
  return &query->identifiers[position];
}

/* specs: perflib-v2.md §3.8, §6 rule 13 */
gboolean
ps_perflib_query_decode (const guint8     *data,
                         gsize             length,
                         PsPerflibQuery  **out_query,
                         GError          **error)
{
  g_autoptr(PsPerflibQuery) query = NULL;
  g_autoptr(GString) scratch = g_string_new (NULL);
  QueryPrivate *priv;
  GError *local_error = NULL;
  gsize pos = 0;
  guint n;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (out_query != NULL)
    *out_query = NULL;

  query = g_new0 (PsPerflibQuery, 1);
  priv = g_new0 (QueryPrivate, 1);
  query->priv = priv;
  priv->identifiers = g_array_new (FALSE, TRUE, sizeof (PsPerflibIdentifier));
  priv->warnings = ps_perflib_warnings_new ();
  priv->strings = g_string_chunk_new (256);

  while (pos < length)
    {
      const guint8 *p = data + pos;
      PsPerflibIdentifier identifier = { 0 };

      if (length - pos < IDENTIFIER_SIZE)
        {
          local_error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                                     _("Bad counter identifier at byte offset %" PRIu64 ": expected a 40-byte PERF_COUNTER_IDENTIFIER, only %" PRIu64 " bytes left"),
                                     (guint64) pos, (guint64) (length - pos));
          break;
        }
      identifier.offset = pos;
      ps_perflib_guid_read (&identifier.counterset_guid, p);
      identifier.status = ps_util_load_le32 (p + 16);
      identifier.size = ps_util_load_le32 (p + 20);
      identifier.counter_id = ps_util_load_le32 (p + 24);
      identifier.instance_id = ps_util_load_le32 (p + 28);
      identifier.index = ps_util_load_le32 (p + 32);
      if (identifier.size < IDENTIFIER_SIZE || identifier.size > length - pos)
        {
          local_error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                                     _("Bad counter identifier at byte offset %" PRIu64 ": Size is %u, expected 40 to %" PRIu64 " (the bytes left)"),
                                     (guint64) pos, identifier.size, (guint64) (length - pos));
          break;
        }
      if (!is_aligned8 (identifier.size))
        ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, pos,
                                _("PERF_COUNTER_IDENTIFIER at byte offset %" PRIu64 " has Size %u, not a multiple of 8"),
                                (guint64) pos, identifier.size);
      if (identifier.size > IDENTIFIER_SIZE)
        {
          gssize units = ps_perflib_find_utf16_nul (p + IDENTIFIER_SIZE, (identifier.size - IDENTIFIER_SIZE) / 2);

          if (units < 0)
            {
              local_error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                                         _("Bad counter identifier at byte offset %" PRIu64 ": no NUL-terminated instance name within its Size %u"),
                                         (guint64) pos, identifier.size);
              break;
            }
          if (ps_perflib_utf16le_to_utf8 (scratch, p + IDENTIFIER_SIZE, (gsize) units))
            ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_UTF16, pos + IDENTIFIER_SIZE,
                                    _("Instance name at byte offset %" PRIu64 " is not well-formed UTF-16; replaced characters with U+FFFD"),
                                    (guint64) (pos + IDENTIFIER_SIZE));
          identifier.instance_name = g_string_chunk_insert_const (priv->strings, scratch->str);
        }
      g_array_append_val (priv->identifiers, identifier);
      pos += identifier.size;
    }

  /* Index values must be a permutation of 0..n−1 (§3.1 [OURS]) */
  n = priv->identifiers->len;
  priv->by_index = g_new (guint, MAX (n, 1));
  query->index_valid = TRUE;
  for (guint i = 0; i < n; i++)
    priv->by_index[i] = G_MAXUINT;
  for (guint i = 0; i < n && query->index_valid; i++)
    {
      const PsPerflibIdentifier *identifier = &g_array_index (priv->identifiers, PsPerflibIdentifier, i);

      if (identifier->index >= n || priv->by_index[identifier->index] != G_MAXUINT)
        {
          ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_INDEX, identifier->offset,
                                  _("Counter identifier at byte offset %" PRIu64 " has Index %u: the Index values are not a permutation of 0–%u; blocks are matched in storage order"),
                                  (guint64) identifier->offset, identifier->index, n - 1);
          query->index_valid = FALSE;
        }
      else
        priv->by_index[identifier->index] = i;
    }

  query->identifiers = (PsPerflibIdentifier *) (gpointer) priv->identifiers->data;
  query->n_identifiers = priv->identifiers->len;
  query->warnings = (const PsPerflibWarning *) (gpointer) priv->warnings->data;
  query->n_warnings = priv->warnings->len;
  if (out_query != NULL)
    *out_query = g_steal_pointer (&query);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}
