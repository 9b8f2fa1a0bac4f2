/* ps-hwpmc-backend.h — the libpmc calls the hwpmc collector makes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §9.2 (the call sequence), §9.3 (the order).
 *
 * The collector (ps-hwpmc-collector.c) is portable; it reaches the
 * kernel only through this table. ps-hwpmc-backend-libpmc.c fills it
 * with pmc(3) on systems that have <pmc.h>; the tests fill it with a
 * fake kernel that writes a prepared log into the pipe.
 *
 * Every call returns 0 or an errno value (never -1 and errno: a table
 * may be implemented by another thread's code).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PS_HWPMC_MODE_SYSTEM,   /* sampling, one PMC per CPU (pmc(3) SS) */
  PS_HWPMC_MODE_PROCESS,  /* sampling, attached to a process (pmc(3) TS) */
} PsHwpmcMode;

/* The cpu of a process-mode PMC (PMC_CPU_ANY) */
#define PS_HWPMC_CPU_ANY (-1)

/* What a PMC is allocated for (pmc_allocate ()): an event, in a mode, on
 * a cpu (PS_HWPMC_CPU_ANY in process mode), sampled every rate events,
 * with or without callchains; descendants: following the process's
 * children (process mode) */
typedef struct
{
  const char  *event;
  PsHwpmcMode  mode;
  gboolean     callchains;
  gboolean     descendants;
  int          cpu;
  guint64      rate;
} PsHwpmcRequest;

typedef struct _PsHwpmcBackend PsHwpmcBackend;

struct _PsHwpmcBackend
{
  /* pmc_init (); ENXIO: the hwpmc module is not loaded */
  int  (*init)              (const PsHwpmcBackend *backend);
  /* pmc_ncpu (), once init succeeded */
  int  (*get_n_cpus)        (const PsHwpmcBackend *backend);
  /* pmc_configure_logfile (); fd -1 ends logging (the kernel drops its
   * reference on the file) */
  int  (*configure_logfile) (const PsHwpmcBackend *backend,
                             int                   fd);
  /* pmc_allocate () */
  int  (*allocate)          (const PsHwpmcBackend *backend,
                             const PsHwpmcRequest *request,
                             guint32              *pmcid);
  int  (*attach)            (const PsHwpmcBackend *backend,
                             guint32               pmcid,
                             int                   pid);
  int  (*start)             (const PsHwpmcBackend *backend,
                             guint32               pmcid);
  int  (*stop)              (const PsHwpmcBackend *backend,
                             guint32               pmcid);
  int  (*release)           (const PsHwpmcBackend *backend,
                             guint32               pmcid);
  /* pmc_flush_logfile (): queues the CPUs' partial buffers */
  int  (*flush_logfile)     (const PsHwpmcBackend *backend);
  /* pmc_close_logfile (): writes CLOSELOG and queues every buffer */
  int  (*close_logfile)     (const PsHwpmcBackend *backend);
  /* The events of the CPU's PMC classes (pmc_cpuinfo (), then
   * pmc_event_names_of_class () for each), appended to names (char *);
   * may be called before init. ENXIO: the hwpmc module is not loaded */
  int  (*list_events)       (const PsHwpmcBackend *backend,
                             GPtrArray            *names);

  gpointer user_data;
};

/* The system's libpmc, or NULL where Perfscope was built without it */
const PsHwpmcBackend *ps_hwpmc_backend_get_system (void);

G_END_DECLS
