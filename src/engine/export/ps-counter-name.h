/* ps-counter-name.h — what a counter track is called in the outputs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "counters". The counters command and the CSV export name
 * a counter by its track and the MACHINE, OBJECT and INSTANCE tracks
 * above it, and write its times from the Unix epoch when every counter's
 * session knows its wall-clock start.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

typedef struct
{
  const char *machine;    /* NULL if none */
  const char *object;     /* NULL if none */
  char       *instance;   /* "parent/name#index" as PDH writes it, or NULL */
  const char *counter;
  const char *unit;       /* NULL if none */
  const char *path;       /* NULL if none */
  const char *type;       /* the PerfLib counter type, NULL if unknown */
  gint64      origin_ns;  /* added to the track's times: the session's
                           * wall-clock start with absolute times, else 0 */
} PsCounterName;

/* Strings point into the store; clear with ps_counter_name_clear () */
void     ps_counter_name_init          (PsCounterName *self,
                                        PsEventStore  *store,
                                        guint32        track,
                                        gboolean       absolute_times);
void     ps_counter_name_clear         (PsCounterName *self);
/* Whether every counter track's session knows its wall-clock start */
gboolean ps_counter_name_origins_known (PsEventStore  *store);

G_END_DECLS
