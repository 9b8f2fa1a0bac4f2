/* ps-util.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include "ps-util.h"

char *
ps_util_display_text (const char *raw,
                      gssize      length)
{
  GString *out;

  if (raw == NULL)
    return g_strdup ("");
  if (length < 0)
    length = strlen (raw);

  if (g_utf8_validate_len (raw, length, NULL))
    return g_strndup (raw, length);

  out = g_string_sized_new (length + length / 4);
  for (gssize i = 0; i < length; i++)
    {
      guchar c = (guchar)raw[i];

      if (c == 0)
        continue;
      if (c < 0x80)
        g_string_append_c (out, c);
      else
        g_string_append_unichar (out, c);
    }

  return g_string_free (out, FALSE);
}

/* Windows-1252 0x80…0x9F */
static const gunichar2 cp1252_high[32] = {
  0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

void
ps_util_append_cp1252 (GString    *out,
                       const char *text,
                       gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar)text[i];

      if (c == 0)
        g_string_append_unichar (out, 0xFFFD);
      else if (c < 0x80)
        g_string_append_c (out, (char)c);
      else if (c < 0xA0)
        g_string_append_unichar (out, cp1252_high[c - 0x80]);
      else
        g_string_append_unichar (out, c);
    }
}

/* The length of the first bytes of text, at most `length`, that end at a
 * character boundary: a UTF-8 character is at most four bytes, so at
 * most three continuation bytes are given back (text[length] exists) */
static gsize
utf8_boundary (const char *text,
               gsize       length)
{
  for (guint i = 0; i < 3 && length > 0 && ((guchar)text[length] & 0xC0) == 0x80; i++)
    length--;
  return length;
}

void
ps_util_append_cut_name (GString    *out,
                         const char *name)
{
  g_autofree char *display = NULL;
  const char *text = name;
  gsize length;

  /* memchr stops at the first NUL (C11 §7.24.5.1): the name itself is
   * never read past its end */
  if (memchr (name, '\0', PS_UTIL_NAME_MAX_BYTES + 1) != NULL)
    {
      g_string_append (out, name);
      return;
    }

  length = utf8_boundary (name, PS_UTIL_NAME_MAX_BYTES);
  /* Bytes that are not UTF-8 would make "…" itself read as Latin-1 */
  if (!g_utf8_validate_len (name, length, NULL))
    {
      display = ps_util_display_text (name, PS_UTIL_NAME_MAX_BYTES);
      text = display;
      length = MIN (strlen (display), PS_UTIL_NAME_MAX_BYTES);
      length = utf8_boundary (display, length);
    }
  g_string_append_len (out, text, (gssize)length);
  g_string_append (out, "…");
}

/* The text of a value with at most nine decimals and fifteen significant
 * digits, as "%.15g" gives it (fixed notation from 1e-4 on), when it has
 * one: a multiple of a millisecond, say. FALSE for other values. The
 * decimals are found by arithmetic: formatting and reading back, up to
 * three times, costs a microsecond a value, and a table of statistics
 * has tens of thousands. */
static gboolean
format_short_decimal (double  value,
                      char   *buffer,
                      gsize   size)
{
  static const double powers[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
  double magnitude = fabs (value);

  if (!(magnitude >= 1e-4 && magnitude < 1e15))
    return FALSE;

  for (guint decimals = 0; decimals < G_N_ELEMENTS (powers); decimals++)
    {
      double scaled = magnitude * powers[decimals];
      gint64 digits;
      gint64 whole;
      gint64 fraction;

      if (scaled >= 1e15)
        return FALSE;
      digits = (gint64)(scaled + 0.5);
      /* The decimal digits·10^-decimals reads back as the nearest double,
       * which the division (rounded to nearest) also gives: the same value
       * exactly when the text reads back to it. Fewer decimals were tried
       * first, so the last digit is not 0 and nothing shorter reads back. */
      if ((double)digits / powers[decimals] != magnitude)
        continue;

      whole = digits / (gint64)powers[decimals];
      fraction = digits % (gint64)powers[decimals];
      if (decimals == 0)
        g_snprintf (buffer, size, "%s%" G_GINT64_FORMAT, value < 0 ? "-" : "", whole);
      else
        g_snprintf (buffer, size, "%s%" G_GINT64_FORMAT ".%0*" G_GINT64_FORMAT,
                    value < 0 ? "-" : "", whole, (int)decimals, fraction);
      return TRUE;
    }

  return FALSE;
}

char *
ps_util_format_double (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    return g_strdup ("nan");
  if (isinf (value))
    return g_strdup (value > 0 ? "inf" : "-inf");
  if (format_short_decimal (value, buffer, sizeof buffer))
    return g_strdup (buffer);

  /* The shortest text that reads back to the same double. %g drops
   * trailing zeros, so 15 significant digits already give "0.1" or "50"
   * for every value that has such a short form; only values that need
   * more digits go on to 16 and 17. */
  for (int precision = 15; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }

  return g_strdup (buffer);
}

char *
ps_util_format_seconds (double seconds)
{
  double magnitude = fabs (seconds);

  if (isnan (seconds))
    return g_strdup ("–");
  if (magnitude == 0)
    return g_strdup ("0 s");
  /* Three decimals in the unit: tables line up and keep 1 µs of 1 s */
  if (magnitude < 1e-6)
    return g_strdup_printf ("%.3f ns", seconds * 1e9);
  if (magnitude < 1e-3)
    return g_strdup_printf ("%.3f µs", seconds * 1e6);
  if (magnitude < 1)
    return g_strdup_printf ("%.3f ms", seconds * 1e3);
  return g_strdup_printf ("%.3f s", seconds);
}

char *
ps_util_format_bytes (double bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  double value = bytes;
  guint unit = 0;

  while (fabs (value) >= 1024 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024;
      unit++;
    }

  if (unit == 0)
    return g_strdup_printf ("%.0f %s", value, units[unit]);
  return g_strdup_printf ("%.1f %s", value, units[unit]);
}

char *
ps_util_format_count (guint64 count)
{
  return g_strdup_printf ("%'" PRIu64, count);
}

const char *
ps_util_localedir (void)
{
  const char *localedir = g_getenv ("PERFSCOPE_LOCALEDIR");

  return localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR;
}
