/* ps-hwpmc-backend-libpmc.c — the hwpmc collector's calls into pmc(3)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §9.1–§9.2. Built only where <pmc.h> exists
 * (FreeBSD); pmc_allocate () takes the sampling rate as its sixth
 * argument since FreeBSD 12.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <pmc.h>

#include "ps-hwpmc-backend.h"

/* libpmc reports errors in errno */
static int
result (int status)
{
  if (status == 0)
    return 0;
  return errno != 0 ? errno : EIO;
}

static int
libpmc_init (const PsHwpmcBackend *backend)
{
  errno = 0;
  return result (pmc_init ());
}

static int
libpmc_get_n_cpus (const PsHwpmcBackend *backend)
{
  return pmc_ncpu ();
}

static int
libpmc_configure_logfile (const PsHwpmcBackend *backend,
                          int                   fd)
{
  errno = 0;
  return result (pmc_configure_logfile (fd));
}

static int
libpmc_allocate (const PsHwpmcBackend *backend,
                 const PsHwpmcRequest *request,
                 guint32              *pmcid)
{
  uint32_t flags = 0;
  pmc_id_t id = 0;
  int status;

  if (request->callchains)
    flags |= PMC_F_CALLCHAIN;
  if (request->descendants)
    flags |= PMC_F_DESCENDANTS;

  errno = 0;
  status = pmc_allocate (request->event, request->mode == PS_HWPMC_MODE_SYSTEM ? PMC_MODE_SS : PMC_MODE_TS, flags,
                         request->cpu == PS_HWPMC_CPU_ANY ? PMC_CPU_ANY : request->cpu, &id, request->rate);
  if (status == 0)
    *pmcid = id;
  return result (status);
}

static int
libpmc_attach (const PsHwpmcBackend *backend,
               guint32               pmcid,
               int                   pid)
{
  errno = 0;
  return result (pmc_attach (pmcid, pid));
}

static int
libpmc_start (const PsHwpmcBackend *backend,
              guint32               pmcid)
{
  errno = 0;
  return result (pmc_start (pmcid));
}

static int
libpmc_stop (const PsHwpmcBackend *backend,
             guint32               pmcid)
{
  errno = 0;
  return result (pmc_stop (pmcid));
}

static int
libpmc_release (const PsHwpmcBackend *backend,
                guint32               pmcid)
{
  errno = 0;
  return result (pmc_release (pmcid));
}

static int
libpmc_flush_logfile (const PsHwpmcBackend *backend)
{
  errno = 0;
  return result (pmc_flush_logfile ());
}

static int
libpmc_close_logfile (const PsHwpmcBackend *backend)
{
  errno = 0;
  return result (pmc_close_logfile ());
}

static int
libpmc_list_events (const PsHwpmcBackend *backend,
                    GPtrArray            *names)
{
  const struct pmc_cpuinfo *cpuinfo = NULL;

  errno = 0;
  if (pmc_init () != 0 || pmc_cpuinfo (&cpuinfo) != 0)
    return result (-1);

  for (unsigned int c = 0; c < cpuinfo->pm_nclass; c++)
    {
      const char **event_names = NULL;
      int n_events = 0;

      /* A class libpmc has no table for (the PMU classes of newer CPUs,
       * named by pmc_pmu_* instead) adds nothing */
      if (pmc_event_names_of_class (cpuinfo->pm_classes[c].pm_class, &event_names, &n_events) != 0)
        continue;
      for (int e = 0; e < n_events; e++)
        g_ptr_array_add (names, g_strdup (event_names[e]));
      /* The array is libpmc's malloc (3); the names are its own */
      free (event_names);
    }
  return 0;
}

static const PsHwpmcBackend libpmc_backend = {
  .init = libpmc_init,
  .get_n_cpus = libpmc_get_n_cpus,
  .configure_logfile = libpmc_configure_logfile,
  .allocate = libpmc_allocate,
  .attach = libpmc_attach,
  .start = libpmc_start,
  .stop = libpmc_stop,
  .release = libpmc_release,
  .flush_logfile = libpmc_flush_logfile,
  .close_logfile = libpmc_close_logfile,
  .list_events = libpmc_list_events,
};

const PsHwpmcBackend *
ps_hwpmc_backend_get_system (void)
{
  return &libpmc_backend;
}
