/* fake-libpmc.h — a kernel for the hwpmc collector's tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Implements the libpmc calls of src/collectors/hwpmc/ps-hwpmc-backend.h
 * as hwpmc-pmclog.md §9.2 describes them, without a kernel: when the
 * first PMC starts, a thread of its own writes a prepared log into the
 * file given to configure_logfile, in pieces of changing sizes, as the
 * kernel writes its buffers. configure_logfile (-1) waits for the rest
 * of the log to be written, then drops the file. Every call is recorded.
 */
#pragma once

#include <glib.h>

#include "ps-hwpmc-backend.h"

G_BEGIN_DECLS

typedef struct _FakeLibpmc FakeLibpmc;

/* log: the bytes the kernel writes once sampling starts */
FakeLibpmc           *fake_libpmc_new                (GBytes      *log);
void                  fake_libpmc_free               (FakeLibpmc  *self);
const PsHwpmcBackend *fake_libpmc_get_backend        (FakeLibpmc  *self);

/* pmc_init () fails with error (an errno value), and so does listing
 * the events (which lists four, "instructions" among them, otherwise) */
void                  fake_libpmc_set_init_error     (FakeLibpmc  *self,
                                                      int          error);
/* pmc_allocate () of that event fails with error */
void                  fake_libpmc_set_failing_event  (FakeLibpmc  *self,
                                                      const char  *event,
                                                      int          error);
/* pmc_ncpu () (default 2) */
void                  fake_libpmc_set_n_cpus         (FakeLibpmc  *self,
                                                      int          n_cpus);
/* The kernel drops the file after writing length bytes of the log */
void                  fake_libpmc_set_cut            (FakeLibpmc  *self,
                                                      gsize        length);
/* TRUE once the writer thread has written all it will write */
gboolean              fake_libpmc_is_written         (FakeLibpmc  *self);
/* The calls so far, one a line: "init", "configure_logfile pipe",
 * "allocate instructions system cpu 0 rate 1000 callchains", … */
char                 *fake_libpmc_get_calls          (FakeLibpmc  *self);
/* The pid the PMCs were attached to, or 0 */
int                   fake_libpmc_get_attached_pid   (FakeLibpmc  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakeLibpmc, fake_libpmc_free)

G_END_DECLS
