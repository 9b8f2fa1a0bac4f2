/* not-a-collector.c — a shared module without g_io_module_load: the
 * broken plugin of test-collector-procfs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
int not_a_collector (void);

int
not_a_collector (void)
{
  return 42;
}
