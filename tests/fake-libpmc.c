/* fake-libpmc.c — a kernel for the hwpmc collector's tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fake-libpmc.h"

struct _FakeLibpmc
{
  PsHwpmcBackend backend;
  GBytes        *log;
  gsize          cut;
  int            init_error;
  char          *failing_event;
  int            failing_error;
  int            n_cpus;

  GMutex         lock;
  GString       *calls;
  int            log_fd;        /* the kernel's reference on the file, or -1 */
  GThread       *writer;
  gboolean       written;
  guint32        next_pmcid;
  int            attached_pid;
};

static FakeLibpmc *
fake (const PsHwpmcBackend *backend)
{
  return backend->user_data;
}

static void
record_call (FakeLibpmc *self,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
record_call (FakeLibpmc *self,
             const char *format,
             ...)
{
  va_list args;

  g_mutex_lock (&self->lock);
  va_start (args, format);
  g_string_append_vprintf (self->calls, format, args);
  va_end (args);
  g_string_append_c (self->calls, '\n');
  g_mutex_unlock (&self->lock);
}

/* The kernel's log writer: pieces of 1 to 4096 bytes, so that records
 * and headers are split anywhere */
static gpointer
write_log (gpointer user_data)
{
  FakeLibpmc *self = user_data;
  static const gsize piece_sizes[] = { 1, 7, 13, 64, 5, 4096, 333, 2, 1000 };
  gsize size;
  const guint8 *data = g_bytes_get_data (self->log, &size);
  gsize end = MIN (size, self->cut);
  gsize position = 0;

  for (guint i = 0; position < end; i++)
    {
      gsize piece = MIN (piece_sizes[i % G_N_ELEMENTS (piece_sizes)], end - position);
      gssize n = write (self->log_fd, data + position, piece);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      position += (gsize)n;
    }

  g_mutex_lock (&self->lock);
  self->written = TRUE;
  /* A cut log: the file is dropped as when the kernel's write fails */
  if (end < size)
    {
      close (self->log_fd);
      self->log_fd = -1;
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

static int
fake_init (const PsHwpmcBackend *backend)
{
  FakeLibpmc *self = fake (backend);

  record_call (self, "init");
  return self->init_error;
}

static int
fake_get_n_cpus (const PsHwpmcBackend *backend)
{
  return fake (backend)->n_cpus;
}

static int
fake_configure_logfile (const PsHwpmcBackend *backend,
                        int                   fd)
{
  FakeLibpmc *self = fake (backend);

  if (fd >= 0)
    {
      record_call (self, "configure_logfile %s", fd > 2 ? "pipe" : "standard stream");
      if (self->log_fd >= 0)
        return EBUSY;
      /* The kernel's reference: not inherited by children */
      self->log_fd = dup (fd);
      if (self->log_fd < 0)
        return EBADF;
      fcntl (self->log_fd, F_SETFD, FD_CLOEXEC);
      return 0;
    }

  record_call (self, "configure_logfile -1");
  /* The rest of the log is flushed before the file is dropped */
  if (self->writer != NULL)
    g_clear_pointer (&self->writer, g_thread_join);
  if (self->log_fd >= 0)
    {
      close (self->log_fd);
      self->log_fd = -1;
    }
  return 0;
}

static int
fake_allocate (const PsHwpmcBackend *backend,
               const PsHwpmcRequest *request,
               guint32              *pmcid)
{
  FakeLibpmc *self = fake (backend);

  record_call (self, "allocate %s %s cpu %d rate %" G_GUINT64_FORMAT "%s%s", request->event,
               request->mode == PS_HWPMC_MODE_SYSTEM ? "system" : "process", request->cpu, request->rate,
               request->callchains ? " callchains" : "", request->descendants ? " descendants" : "");
  if (g_strcmp0 (request->event, self->failing_event) == 0)
    return self->failing_error;
  if (self->log_fd < 0)
    return EINVAL;
  *pmcid = self->next_pmcid++;
  return 0;
}

static int
fake_attach (const PsHwpmcBackend *backend,
             guint32               pmcid,
             int                   pid)
{
  FakeLibpmc *self = fake (backend);

  record_call (self, "attach 0x%x", pmcid);
  self->attached_pid = pid;
  return 0;
}

static int
fake_start (const PsHwpmcBackend *backend,
            guint32               pmcid)
{
  FakeLibpmc *self = fake (backend);

  record_call (self, "start 0x%x", pmcid);
  if (self->writer == NULL && !self->written)
    self->writer = g_thread_new ("fake-hwpmc", write_log, self);
  return 0;
}

static int
fake_stop (const PsHwpmcBackend *backend,
           guint32               pmcid)
{
  record_call (fake (backend), "stop 0x%x", pmcid);
  return 0;
}

static int
fake_release (const PsHwpmcBackend *backend,
              guint32               pmcid)
{
  record_call (fake (backend), "release 0x%x", pmcid);
  return 0;
}

static int
fake_flush_logfile (const PsHwpmcBackend *backend)
{
  FakeLibpmc *self = fake (backend);

  /* Periodic flushes are not recorded: their number depends on timing */
  return self->log_fd >= 0 || self->written ? 0 : EINVAL;
}

static int
fake_close_logfile (const PsHwpmcBackend *backend)
{
  record_call (fake (backend), "close_logfile");
  return 0;
}

/* Events of a CPU's own class, and an alias's name again, which the
 * collector lists once */
static int
fake_list_events (const PsHwpmcBackend *backend,
                  GPtrArray            *names)
{
  static const char * const events[] = {
    "inst_retired.any", "cpu_clk_unhalted.thread_p", "br_misp_retired.all_branches", "instructions",
  };
  FakeLibpmc *self = fake (backend);

  record_call (self, "list_events");
  if (self->init_error != 0)
    return self->init_error;
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    g_ptr_array_add (names, g_strdup (events[i]));
  return 0;
}

FakeLibpmc *
fake_libpmc_new (GBytes *log)
{
  FakeLibpmc *self = g_new0 (FakeLibpmc, 1);

  self->backend.init = fake_init;
  self->backend.get_n_cpus = fake_get_n_cpus;
  self->backend.configure_logfile = fake_configure_logfile;
  self->backend.allocate = fake_allocate;
  self->backend.attach = fake_attach;
  self->backend.start = fake_start;
  self->backend.stop = fake_stop;
  self->backend.release = fake_release;
  self->backend.flush_logfile = fake_flush_logfile;
  self->backend.close_logfile = fake_close_logfile;
  self->backend.list_events = fake_list_events;
  self->backend.user_data = self;
  self->log = g_bytes_ref (log);
  self->cut = G_MAXSIZE;
  self->n_cpus = 2;
  self->log_fd = -1;
  self->next_pmcid = 0x100;
  self->calls = g_string_new (NULL);
  g_mutex_init (&self->lock);
  return self;
}

void
fake_libpmc_free (FakeLibpmc *self)
{
  if (self->writer != NULL)
    g_thread_join (self->writer);
  if (self->log_fd >= 0)
    close (self->log_fd);
  g_bytes_unref (self->log);
  g_free (self->failing_event);
  g_string_free (self->calls, TRUE);
  g_mutex_clear (&self->lock);
  g_free (self);
}

const PsHwpmcBackend *
fake_libpmc_get_backend (FakeLibpmc *self)
{
  return &self->backend;
}

void
fake_libpmc_set_init_error (FakeLibpmc *self,
                            int         error)
{
  self->init_error = error;
}

void
fake_libpmc_set_failing_event (FakeLibpmc *self,
                               const char *event,
                               int         error)
{
  g_free (self->failing_event);
  self->failing_event = g_strdup (event);
  self->failing_error = error;
}

void
fake_libpmc_set_n_cpus (FakeLibpmc *self,
                        int         n_cpus)
{
  self->n_cpus = n_cpus;
}

void
fake_libpmc_set_cut (FakeLibpmc *self,
                     gsize       length)
{
  self->cut = length;
}

gboolean
fake_libpmc_is_written (FakeLibpmc *self)
{
  gboolean written;

  g_mutex_lock (&self->lock);
  written = self->written;
  g_mutex_unlock (&self->lock);
  return written;
}

char *
fake_libpmc_get_calls (FakeLibpmc *self)
{
  char *calls;

  g_mutex_lock (&self->lock);
  calls = g_strdup (self->calls->str);
  g_mutex_unlock (&self->lock);
  return calls;
}

int
fake_libpmc_get_attached_pid (FakeLibpmc *self)
{
  return self->attached_pid;
}
