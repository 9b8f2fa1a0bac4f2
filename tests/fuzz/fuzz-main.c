/* fuzz-main.c — the libFuzzer entry point of one target
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built once per target with PS_FUZZ_TARGET defined (tests/fuzz/meson.build).
 */
#include "config.h"

#include <stdint.h>
#include <stddef.h>

#include "ps-fuzz.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  (void)argc;
  (void)argv;
  ps_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  ps_fuzz_run (PS_FUZZ_TARGET, data, size);
  return 0;
}
