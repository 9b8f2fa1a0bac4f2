/* ps-stats.c — descriptive statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-stats.h"

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return (x > y) - (x < y);
}

double
ps_stats_percentile (const double *sorted,
                     gsize         count,
                     double        percent)
{
  double rank;
  gsize index;

  if (count == 0)
    return 0;

  /* Nearest rank: the smallest value with at least percent% at or below it */
  rank = ceil (percent / 100.0 * (double)count);
  index = rank < 1 ? 0 : (gsize)rank - 1;
  if (index >= count)
    index = count - 1;

  return sorted[index];
}

void
ps_stats_compute (double  *values,
                  gsize    count,
                  PsStats *out)
{
  double sum = 0;
  double mean;
  double squares = 0;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  if (count == 0)
    return;

  qsort (values, count, sizeof (double), compare_doubles);

  for (gsize i = 0; i < count; i++)
    sum += values[i];
  mean = sum / (double)count;
  for (gsize i = 0; i < count; i++)
    squares += (values[i] - mean) * (values[i] - mean);

  out->count = count;
  out->sum = sum;
  out->min = values[0];
  out->max = values[count - 1];
  out->mean = mean;
  out->median = ps_stats_percentile (values, count, 50);
  out->p90 = ps_stats_percentile (values, count, 90);
  out->p95 = ps_stats_percentile (values, count, 95);
  out->p99 = ps_stats_percentile (values, count, 99);
  out->stddev = sqrt (squares / (double)count);
}
