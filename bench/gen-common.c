/* gen-common.c — what the log generators in bench/ share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Messages start with the generator's name, g_get_prgname (), which each
 * main () sets first.
 */
#include "gen-common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Random numbers                                                            */

/* Also a cheap hash of a 64-bit value (gen-rtl-logfile: name timings) */
uint64_t
splitmix64 (uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void
rng_init (Rng      *rng,
          uint64_t  seed)
{
  for (unsigned i = 0; i < 4; i++)
    rng->state[i] = splitmix64 (&seed);
  rng->have_spare_normal = FALSE;
  rng->spare_normal = 0.0;
}

/* Standard normal, Marsaglia's polar method */
double
rng_normal (Rng *rng)
{
  double u, v, s, factor;

  if (rng->have_spare_normal)
    {
      rng->have_spare_normal = FALSE;
      return rng->spare_normal;
    }

  do
    {
      u = 2.0 * rng_uniform (rng) - 1.0;
      v = 2.0 * rng_uniform (rng) - 1.0;
      s = u * u + v * v;
    }
  while (s >= 1.0 || s == 0.0);

  factor = sqrt (-2.0 * log (s) / s);
  rng->spare_normal = v * factor;
  rng->have_spare_normal = TRUE;
  return u * factor;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

static void
print_file_error (const char *path)
{
  fprintf (stderr, "%s: %s: %s\n", g_get_prgname (), path, g_strerror (errno));
}

/* path "-" is standard output; eol is what writer_end_line () writes */
gboolean
writer_open (Writer     *writer,
             const char *path,
             const char *eol)
{
  *writer = (Writer) { 0 };
  writer->path = path;
  writer->file = strcmp (path, "-") == 0 ? stdout : fopen (path, "wb");
  if (writer->file == NULL)
    {
      print_file_error (path);
      return FALSE;
    }
  writer->buffer = g_malloc (OUTPUT_BUFFER_SIZE);
  writer->eol = eol;
  writer->eol_length = strlen (eol);
  return TRUE;
}

gboolean
writer_flush (Writer *writer)
{
  if (writer->used > 0 &&
      fwrite (writer->buffer, 1, writer->used, writer->file) != writer->used)
    {
      print_file_error (writer->path);
      return FALSE;
    }
  writer->used = 0;
  return TRUE;
}

/* A generator cannot go on without its output */
void
writer_fail (void)
{
  exit (EXIT_FAILURE);
}

/* Flushes and closes (standard output is only flushed); says why not */
gboolean
writer_close (Writer *writer)
{
  gboolean ok = writer_flush (writer);

  if (writer->file != stdout)
    ok = (fclose (writer->file) == 0) && ok;
  else
    ok = (fflush (stdout) == 0) && ok;
  writer->file = NULL;
  g_clear_pointer (&writer->buffer, g_free);

  if (!ok)
    print_file_error (writer->path);
  return ok;
}

void
writer_line (Writer     *writer,
             const char *format,
             ...)
{
  char line[1024];
  va_list args;
  int length;

  va_start (args, format);
  length = vsnprintf (line, sizeof line, format, args);
  va_end (args);
  g_assert (length > 0 && (size_t) length < sizeof line);

  writer_reserve (writer, (size_t) length + writer->eol_length);
  writer_append (writer, line, (size_t) length);
  writer_end_line (writer);
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

/* A byte count: "64K", "500M", "1G"; "1GiB" and "1GB" mean the same, all
 * units are binary */
gboolean
parse_size (const char *text,
            uint64_t   *out)
{
  char *end = NULL;
  double value;
  double scale = 1.0;

  errno = 0;
  value = g_ascii_strtod (text, &end);
  if (errno != 0 || end == text || value <= 0)
    return FALSE;

  switch (g_ascii_toupper (*end))
    {
    case '\0': break;
    case 'K': scale = 1024.0; end++; break;
    case 'M': scale = 1024.0 * 1024.0; end++; break;
    case 'G': scale = 1024.0 * 1024.0 * 1024.0; end++; break;
    default: return FALSE;
    }
  if (g_ascii_strcasecmp (end, "") != 0 && g_ascii_strcasecmp (end, "B") != 0 &&
      g_ascii_strcasecmp (end, "iB") != 0)
    return FALSE;

  *out = (uint64_t) (value * scale);
  return *out > 0;
}

gboolean
parse_uint (const char *text,
            uint64_t    max,
            uint64_t   *out)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 0, max, &value, NULL))
    return FALSE;
  *out = value;
  return TRUE;
}

/* A count of at least 1 and at most max (max ≤ G_MAXUINT) */
gboolean
parse_count (const char *text,
             uint64_t    max,
             unsigned   *out)
{
  uint64_t value;

  if (!parse_uint (text, max, &value) || value == 0)
    return FALSE;
  *out = (unsigned) value;
  return TRUE;
}

/* Returns the exit status of a bad command line */
int
usage_error (const char *message,
             const char *argument)
{
  fprintf (stderr, "%s: %s%s%s\n", g_get_prgname (), message,
           argument != NULL ? ": " : "", argument != NULL ? argument : "");
  fprintf (stderr, "Try \"%s --help\".\n", g_get_prgname ());
  return 2;
}
