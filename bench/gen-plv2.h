/* gen-plv2.h — a synthetic PLV2 capture of a Processor Information query
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §8 (the container), §3 (the buffers it carries)
 *
 * The generator's code, apart from its main (), so that a test can write a
 * small capture in memory and read it back.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint   n_counters;    /* 0: the Processor Information counterset as registered */
  guint   n_instances;   /* CPUs; "_Total" comes on top */
  guint64 n_samples;
  guint   interval_ms;
  guint64 seed;
} GenPlv2Options;

/* Writes some of the capture; FALSE stops the generator */
typedef gboolean (*GenPlv2WriteFunc) (const guint8 *bytes,
                                      gsize         length,
                                      gpointer      user_data);

void     gen_plv2_options_init (GenPlv2Options       *options);
/* The number of counters a capture with these options registers */
guint    gen_plv2_n_counters   (const GenPlv2Options *options);
gboolean gen_plv2_write        (const GenPlv2Options *options,
                                GenPlv2WriteFunc      write,
                                gpointer              user_data,
                                GError              **error);

G_END_DECLS
