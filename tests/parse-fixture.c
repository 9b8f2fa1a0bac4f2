/* parse-fixture.c — feeding test input to a format's parser
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "parse-fixture.h"
#include "ps-loader.h"

void
parse_fixture_pieces_into (PsEventStore   *store,
                           const PsFormat *format,
                           const guint8   *data,
                           gsize           length,
                           gsize           piece,
                           gsize           split,
                           const char     *option)
{
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (format, builder);
  g_autoptr(GError) error = NULL;

  if (option != NULL)
    ps_parser_set_option (parser, option, "1");
  if (piece == 0)
    {
      g_assert_true (ps_parser_feed (parser, data, split, &error));
      g_assert_true (ps_parser_feed (parser, data + split, length - split, &error));
    }
  else
    for (gsize offset = 0; offset < length; offset += piece)
      {
        g_assert_true (ps_parser_feed (parser, data + offset, MIN (piece, length - offset), &error));
        g_assert_no_error (error);
      }
  g_assert_true (ps_parser_finish (parser, &error));
  g_assert_no_error (error);
  ps_store_builder_flush (builder);
}

PsEventStore *
parse_fixture_pieces (const PsFormat *format,
                      const guint8   *data,
                      gsize           length,
                      gsize           piece,
                      gsize           split,
                      const char     *option)
{
  PsEventStore *store = ps_event_store_new ();

  parse_fixture_pieces_into (store, format, data, length, piece, split, option);
  return store;
}

GError *
parse_fixture_fatal_error (const PsFormat *format,
                           const char     *text)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (format, builder);
  GError *error = NULL;

  if (ps_parser_feed (parser, (const guint8 *)text, strlen (text), &error))
    g_assert_false (ps_parser_finish (parser, &error));
  g_assert_nonnull (error);
  return error;
}

PsEventStore *
parse_fixture_load_file (const char *path,
                         gsize       chunk_size)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), name, &(PsLoadParams) { .chunk_size = chunk_size }, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_true (ps_event_store_is_complete (store));
  return store;
}
