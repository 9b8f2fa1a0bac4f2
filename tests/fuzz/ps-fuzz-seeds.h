/* ps-fuzz-seeds.h — the first inputs of each fuzz target, from the tests'
 * fixtures
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A GPtrArray of GBytes for target (ps_fuzz_targets ()): the fixture files
 * of its format under source_root (the project's top folder); for
 * "perfscope" (native runs), the fixtures of the other formats saved as
 * native runs; for "perflib-block", the SAMPLE buffers, registration entries and queries of
 * the PLV2 fixtures, each behind the byte that chooses its decoder. Each
 * seed is named in names (same order) when names is not NULL. */
GPtrArray *ps_fuzz_seeds (const char  *target,
                          const char  *source_root,
                          GPtrArray  **names);

G_END_DECLS
