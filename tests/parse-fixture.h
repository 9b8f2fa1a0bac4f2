/* parse-fixture.h — feeding test input to a format's parser
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-format.h"

G_BEGIN_DECLS

/* The store of `length` bytes fed to a new parser of `format` in pieces
 * of `piece` bytes, or, when piece is 0, in two pieces split at `split`;
 * with the parser option `option` set to "1" when not NULL. Fails the
 * test on any error. */
PsEventStore *parse_fixture_pieces (const PsFormat *format,
                                    const guint8   *data,
                                    gsize           length,
                                    gsize           piece,
                                    gsize           split,
                                    const char     *option);
/* The same into store, which must be empty */
void          parse_fixture_pieces_into (PsEventStore   *store,
                                         const PsFormat *format,
                                         const guint8   *data,
                                         gsize           length,
                                         gsize           piece,
                                         gsize           split,
                                         const char     *option);
/* The store of the file at path as the loader reads it: its format
 * sniffed, in chunks of chunk_size bytes (0: the loader's own). Fails the
 * test on any error; the store is complete. */
PsEventStore *parse_fixture_load_file (const char     *path,
                                       gsize           chunk_size);
/* The fatal error of `text` for a parser of `format`; fails the test if
 * there is none */
GError       *parse_fixture_fatal_error (const PsFormat *format,
                                         const char     *text);

G_END_DECLS
