/* ps-format.c — the registry of file formats
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ps-format.h"

/* A format must be at least this sure to be chosen by sniffing. */
#define MIN_SNIFF_SCORE 10

static const PsFormat * const formats[] = {
  &ps_format_ce_perflog,
  &ps_format_rtl_logfile,
  &ps_format_vs_report_csv,
  &ps_format_hwpmc_pmclog,
  &ps_format_pmcstat_callgraph,
  &ps_format_pdh_csv,
  &ps_format_perflib_plv2,
  &ps_format_native,
};

const PsFormat * const *
ps_format_list (guint *n_formats)
{
  if (n_formats)
    *n_formats = G_N_ELEMENTS (formats);
  return formats;
}

const PsFormat *
ps_format_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (formats[i]->name, name) == 0)
      return formats[i];

  return NULL;
}

const PsFormat *
ps_format_sniff (const guint8 *data,
                 gsize         length,
                 const char   *file_name,
                 guint        *score)
{
  const PsFormat *best = NULL;
  guint best_score = 0;

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      guint s = formats[i]->sniff (data, length, file_name);

      if (s > best_score)
        {
          best = formats[i];
          best_score = s;
        }
    }

  if (score)
    *score = best_score;

  return best_score >= MIN_SNIFF_SCORE ? best : NULL;
}

const PsFormat *
ps_format_sniff_file (GFile        *file,
                      GCancellable *cancellable)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autofree guint8 *head = NULL;
  g_autofree char *name = NULL;
  gsize length = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  stream = g_file_read (file, cancellable, NULL);
  if (stream == NULL)
    return NULL;
  head = g_malloc (PS_FORMAT_SNIFF_SIZE);
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), head, PS_FORMAT_SNIFF_SIZE, &length, cancellable, NULL)
      || length == 0)
    return NULL;
  name = g_file_get_basename (file);
  return ps_format_sniff (head, length, name, NULL);
}

PsParser *
ps_format_new_parser (const PsFormat *format,
                      PsStoreBuilder *builder)
{
  PsParser *parser;

  g_return_val_if_fail (format != NULL, NULL);
  g_return_val_if_fail (builder != NULL, NULL);

  parser = format->parser_new (builder);
  parser->builder = builder;
  parser->error_offset = PS_NO_POSITION;
  ps_event_store_set_format (ps_store_builder_get_store (builder), format->name);

  return parser;
}

void
ps_parser_set_file_name (PsParser   *parser,
                         const char *file_name)
{
  g_return_if_fail (parser != NULL);

  g_free (parser->file_name);
  parser->file_name = g_strdup (file_name);
}

gboolean
ps_parser_feed (PsParser      *parser,
                const guint8  *data,
                gsize          length,
                GError       **error)
{
  g_return_val_if_fail (parser != NULL, FALSE);
  return parser->klass->feed (parser, data, length, error);
}

gboolean
ps_parser_finish (PsParser  *parser,
                  GError   **error)
{
  g_return_val_if_fail (parser != NULL, FALSE);
  return parser->klass->finish (parser, error);
}

void
ps_parser_set_error_offset (PsParser *parser,
                            guint64   offset)
{
  g_return_if_fail (parser != NULL);
  parser->error_offset = offset;
}

guint64
ps_parser_get_error_offset (PsParser *parser)
{
  g_return_val_if_fail (parser != NULL, PS_NO_POSITION);
  return parser->error_offset;
}

void
ps_format_options_set (GHashTable **options,
                       const char  *key,
                       const char  *value)
{
  g_return_if_fail (options != NULL);
  g_return_if_fail (key != NULL);

  if (*options == NULL)
    *options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (value == NULL)
    g_hash_table_remove (*options, key);
  else
    g_hash_table_insert (*options, g_strdup (key), g_strdup (value));
}

void
ps_parser_set_option (PsParser   *parser,
                      const char *key,
                      const char *value)
{
  g_return_if_fail (parser != NULL);

  ps_format_options_set (&parser->options, key, value);
}

void
ps_parser_set_options (PsParser   *parser,
                       GHashTable *options)
{
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (parser != NULL);

  if (options == NULL)
    return;
  g_hash_table_iter_init (&iter, options);
  while (g_hash_table_iter_next (&iter, &key, &value))
    ps_parser_set_option (parser, key, value);
}

const char *
ps_parser_get_option (PsParser   *parser,
                      const char *key)
{
  g_return_val_if_fail (parser != NULL, NULL);

  return parser->options != NULL ? g_hash_table_lookup (parser->options, key) : NULL;
}

void
ps_parser_free (PsParser *parser)
{
  if (parser != NULL)
    {
      g_clear_pointer (&parser->file_name, g_free);
      g_clear_pointer (&parser->options, g_hash_table_unref);
      parser->klass->free (parser);
    }
}

gboolean
ps_parser_has_stages (PsParser *parser)
{
  g_return_val_if_fail (parser != NULL, FALSE);
  return parser->stages != NULL;
}

gpointer
ps_parser_scan (PsParser     *parser,
                const guint8 *data,
                gsize         length)
{
  g_return_val_if_fail (parser != NULL && parser->stages != NULL, NULL);
  return parser->stages->scan (parser, data, length);
}

gboolean
ps_parser_apply (PsParser  *parser,
                 gpointer   scanned,
                 GError   **error)
{
  g_return_val_if_fail (parser != NULL && parser->stages != NULL, FALSE);
  return parser->stages->apply (parser, scanned, error);
}

void
ps_parser_stop_scanning (PsParser *parser)
{
  g_return_if_fail (parser != NULL);
  if (parser->stages != NULL && parser->stages->stop_scanning != NULL)
    parser->stages->stop_scanning (parser);
}

struct _PsBatchPool
{
  gpointer     (*batch_new) (void);
  GAsyncQueue   *free;
  GMutex         lock;
  GPtrArray     *all;
};

PsBatchPool *
ps_batch_pool_new (gpointer      (*batch_new) (void),
                   GDestroyNotify  batch_free)
{
  PsBatchPool *self = g_new0 (PsBatchPool, 1);

  self->batch_new = batch_new;
  self->free = g_async_queue_new ();
  g_mutex_init (&self->lock);
  self->all = g_ptr_array_new_with_free_func (batch_free);
  return self;
}

gpointer
ps_batch_pool_take (PsBatchPool *self)
{
  gpointer batch = g_async_queue_try_pop (self->free);

  if (batch == NULL)
    {
      batch = self->batch_new ();
      g_mutex_lock (&self->lock);
      g_ptr_array_add (self->all, batch);
      g_mutex_unlock (&self->lock);
    }
  return batch;
}

void
ps_batch_pool_give_back (PsBatchPool *self,
                         gpointer     batch)
{
  g_async_queue_push (self->free, batch);
}

void
ps_batch_pool_free (PsBatchPool *self)
{
  if (self == NULL)
    return;
  g_async_queue_unref (self->free);
  g_ptr_array_unref (self->all);
  g_mutex_clear (&self->lock);
  g_free (self);
}
