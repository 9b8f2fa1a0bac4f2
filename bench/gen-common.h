/* gen-common.h — what the log generators in bench/ share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * gen-ce-perflog and gen-rtl-logfile both draw their numbers from the same
 * seeded generator, write through the same buffered writer and read the
 * same kinds of options. Everything here is part of what makes their output
 * depend only on the options: changing a function changes the bytes of the
 * committed demo logs (bench/make-demo-logs).
 */
#pragma once

#include <glib.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OUTPUT_BUFFER_SIZE (8u * 1024u * 1024u)

/* ------------------------------------------------------------------------ */
/* Random numbers: xoshiro256** seeded through splitmix64                    */

typedef struct
{
  uint64_t state[4];
  gboolean have_spare_normal;
  double   spare_normal;
} Rng;

uint64_t splitmix64 (uint64_t *x);
void     rng_init   (Rng      *rng,
                     uint64_t  seed);
double   rng_normal (Rng      *rng);

static inline uint64_t
rotl64 (uint64_t x,
        int      k)
{
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t
rng_next (Rng *rng)
{
  uint64_t *s = rng->state;
  uint64_t result = rotl64 (s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl64 (s[3], 45);
  return result;
}

/* Uniform in [0, 1) with 53 random bits */
static inline double
rng_uniform (Rng *rng)
{
  return (double) (rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [low, high]; the width is computed in double so that
 * [0, G_MAXUINT] does not wrap around */
static inline unsigned
rng_range (Rng      *rng,
           unsigned  low,
           unsigned  high)
{
  return low + (unsigned) (rng_uniform (rng) * ((double) high - low + 1.0));
}

/* Log-normal around a median: median · e^(sigma · N(0, 1)) */
static inline double
rng_lognormal (Rng    *rng,
               double  median,
               double  sigma)
{
  return median * exp (sigma * rng_normal (rng));
}

/* ------------------------------------------------------------------------ */
/* Output: a large buffer, flushed when a reservation does not fit           */

typedef struct
{
  FILE       *file;
  const char *path;
  char       *buffer;
  size_t      used;
  uint64_t    written;            /* bytes handed to us, flushed or not */
  uint64_t    lines;              /* line ends */
  const char *eol;
  size_t      eol_length;
} Writer;

gboolean writer_open  (Writer     *writer,
                       const char *path,
                       const char *eol);
gboolean writer_flush (Writer     *writer);
gboolean writer_close (Writer     *writer);
void     writer_fail  (void) G_GNUC_NORETURN;

/* Makes room for length more bytes; the appends below do not check */
static inline void
writer_reserve (Writer *writer,
                size_t  length)
{
  if (writer->used + length > OUTPUT_BUFFER_SIZE && !writer_flush (writer))
    writer_fail ();
}

static inline void
writer_append (Writer     *writer,
               const char *bytes,
               size_t      length)
{
  memcpy (writer->buffer + writer->used, bytes, length);
  writer->used += length;
  writer->written += length;
}

static inline void
writer_append_char (Writer *writer,
                    char    c)
{
  writer->buffer[writer->used++] = c;
  writer->written++;
}

/* Decimal, zero-padded to at least min_digits (%06u for RTL record times) */
static inline void
writer_append_uint (Writer   *writer,
                    uint64_t  value,
                    size_t    min_digits)
{
  char digits[24];
  size_t n = 0;

  do
    {
      digits[sizeof digits - 1 - n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  while (n < min_digits)
    digits[sizeof digits - 1 - n++] = '0';

  writer_append (writer, digits + sizeof digits - n, n);
}

static inline void
writer_end_line (Writer *writer)
{
  writer_append (writer, writer->eol, writer->eol_length);
  writer->lines++;
}

/* A whole line built with printf; for the rarer lines only */
void writer_line (Writer     *writer,
                  const char *format,
                  ...) G_GNUC_PRINTF (2, 3);

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

gboolean parse_size  (const char *text,
                      uint64_t   *out);
gboolean parse_uint  (const char *text,
                      uint64_t    max,
                      uint64_t   *out);
gboolean parse_count (const char *text,
                      uint64_t    max,
                      unsigned   *out);
int      usage_error (const char *message,
                      const char *argument);
