/* ps-file-window.c — mapped stretches of a file that survive truncation
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mapping a large log instead of copying it out of the page cache halves
 * the cost of reading it. But a mapped file that another program
 * truncates (a logger starting over, a rotation by copy and truncate)
 * makes every access past its new end raise SIGBUS, which would end the
 * program. So every window is registered, and a SIGBUS handler puts a
 * page of zeros over a vanished page of a window and notes it: the
 * access is repeated and reads zeros, and the loader, which asks
 * ps_file_window_was_cut () after each window, stops with a clear message
 * and keeps what it read before. A SIGBUS anywhere else goes on to the
 * handler that was there before, or to the default action.
 */
#define _DEFAULT_SOURCE

#include "config.h"

#include "ps-file-window.h"

#ifdef G_OS_UNIX
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Windows in use at once: a few per file being loaded */
#define MAX_WINDOWS 64

/* The pages read ahead in one call where the system can (Linux) */
#ifdef MAP_POPULATE
#define WINDOW_POPULATE_FLAGS MAP_POPULATE
#else
#define WINDOW_POPULATE_FLAGS 0
#endif

struct _PsFileWindow
{
  guint8  *mapping;
  gsize    mapping_length;
  guint8  *data;
  guint    slot;
};

typedef struct
{
  volatile gsize begin;       /* 0: free */
  volatile gsize end;
  volatile gint  cut;
} Slot;

static Slot slots[MAX_WINDOWS];
static GMutex slots_lock;
static struct sigaction previous_action;
static gsize page_size;

static void
on_sigbus (int        signal_number,
           siginfo_t *info,
           void      *context)
{
  gsize address = (gsize) info->si_addr;

  for (guint i = 0; i < MAX_WINDOWS; i++)
    {
      gsize begin = slots[i].begin;

      if (begin != 0 && address >= begin && address < slots[i].end)
        {
          gsize page = address & ~(page_size - 1);

          /* mmap is a plain system call on the systems that have SIGBUS
           * for truncated mappings, safe in a handler in practice */
          if (mmap ((void *) page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
              != MAP_FAILED)
            {
              slots[i].cut = 1;
              return;
            }
          break;
        }
    }

  /* Not ours */
  if (previous_action.sa_flags & SA_SIGINFO)
    {
      if (previous_action.sa_sigaction != NULL)
        {
          previous_action.sa_sigaction (signal_number, info, context);
          return;
        }
    }
  else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN)
    {
      previous_action.sa_handler (signal_number);
      return;
    }
  /* The access is repeated and now ends the program as it would have */
  signal (SIGBUS, SIG_DFL);
}

static gboolean
install_handler (void)
{
  static gsize installed = 0;
  static gboolean ok;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action;

      page_size = (gsize) sysconf (_SC_PAGESIZE);
      memset (&action, 0, sizeof action);
      action.sa_sigaction = on_sigbus;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      sigemptyset (&action.sa_mask);
      ok = page_size > 0 && sigaction (SIGBUS, &action, &previous_action) == 0;
      g_once_init_leave (&installed, 1);
    }
  return ok;
}

static guint64
file_size (int fd)
{
  struct stat info;

  if (fstat (fd, &info) != 0 || !S_ISREG (info.st_mode) || info.st_size < 0)
    return 0;
  return (guint64) info.st_size;
}

#endif /* G_OS_UNIX */

/* Without mmap and SIGBUS (not Unix) there is no window: the loader reads */
PsFileWindow *
ps_file_window_map (int      fd,
                    guint64  offset,
                    gsize    length,
                    gsize    slack,
                    gboolean populate)
{
#ifdef G_OS_UNIX
  PsFileWindow *self;
  guint64 start;
  guint64 size;
  gsize lead;
  gpointer mapping;
  guint slot = MAX_WINDOWS;

  if (fd < 0 || length == 0 || !install_handler ())
    return NULL;
  size = file_size (fd);
  if (size < offset + length)
    return NULL;
  slack = MIN (slack, size - offset - length);

  start = offset - offset % page_size;
  lead = offset - start;
  mapping = mmap (NULL, lead + length + slack, PROT_READ, MAP_PRIVATE | (populate ? WINDOW_POPULATE_FLAGS : 0), fd,
                  (off_t) start);
  if (mapping == MAP_FAILED)
    return NULL;

  g_mutex_lock (&slots_lock);
  for (guint i = 0; i < MAX_WINDOWS; i++)
    if (slots[i].begin == 0)
      {
        slot = i;
        slots[i].cut = 0;
        slots[i].end = (gsize) mapping + lead + length + slack;
        slots[i].begin = (gsize) mapping;
        break;
      }
  g_mutex_unlock (&slots_lock);
  if (slot == MAX_WINDOWS)
    {
      munmap (mapping, lead + length + slack);
      return NULL;
    }

  self = g_new0 (PsFileWindow, 1);
  self->mapping = mapping;
  self->mapping_length = lead + length + slack;
  self->data = (guint8 *) mapping + lead;
  self->slot = slot;
  return self;
#else
  return NULL;
#endif
}

#ifdef G_OS_UNIX

const guint8 *
ps_file_window_get_data (PsFileWindow *self)
{
  return self->data;
}

gboolean
ps_file_window_was_cut (PsFileWindow *self)
{
  return g_atomic_int_get (&slots[self->slot].cut) != 0;
}

#if defined (__linux__) && defined (MADV_POPULATE_READ)

typedef struct
{
  gpointer start;
  gsize    length;
} PopulateRange;

/* Where the range is no longer this window's, the call fails or reads in
 * pages of whatever is mapped there now, which changes nothing. A page
 * that vanished fails the call instead of raising SIGBUS. */
static void
populate_range (gpointer data,
                gpointer user_data)
{
  PopulateRange *range = data;

  (void) user_data;
  madvise (range->start, range->length, MADV_POPULATE_READ);
  g_free (range);
}

void
ps_file_window_populate_in_background (PsFileWindow *self)
{
  static GThreadPool *pool = NULL;
  PopulateRange *range;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (populate_range, NULL, 1, FALSE, NULL));

  range = g_new (PopulateRange, 1);
  range->start = self->mapping;
  range->length = self->mapping_length;
  g_thread_pool_push (pool, range, NULL);
}

#else /* no MADV_POPULATE_READ: the pages are read in as they are touched */

void
ps_file_window_populate_in_background (PsFileWindow *self)
{
}

#endif

void
ps_file_window_unmap (PsFileWindow *self)
{
  if (self == NULL)
    return;
  g_mutex_lock (&slots_lock);
  slots[self->slot].begin = 0;
  slots[self->slot].end = 0;
  g_mutex_unlock (&slots_lock);
  munmap (self->mapping, self->mapping_length);
  g_free (self);
}

#else /* !G_OS_UNIX: no window is ever made */

void
ps_file_window_populate_in_background (PsFileWindow *self)
{
}

const guint8 *
ps_file_window_get_data (PsFileWindow *self)
{
  return NULL;
}

gboolean
ps_file_window_was_cut (PsFileWindow *self)
{
  return FALSE;
}

void
ps_file_window_unmap (PsFileWindow *self)
{
}

#endif
