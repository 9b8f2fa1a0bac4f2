/* test-number.c — shortest text of doubles, and reading decimals back
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The references are the C library's: printf's "%.Ng" for N = 1 … 17
 * (the shortest that strtod reads back is the shortest text there is)
 * and strtod itself. The suite checks about a million values of each
 * kind, half a million where each costs several printf calls; with
 * -m slow (g_test_slow), ten million.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps-number.h"

static guint
n_random (void)
{
  return g_test_slow () ? 10000000 : 1000000;
}

/* For the checks that call printf and strtod several times a value */
static guint
n_random_printf (void)
{
  return g_test_slow () ? 10000000 : 500000;
}

static double
from_bits (guint64 bits)
{
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

static guint64
to_bits (double value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  return bits;
}

static guint64
random_bits (GRand *rand)
{
  return ((guint64)g_rand_int (rand) << 32) | g_rand_int (rand);
}

/* A finite double of any bit pattern */
static double
random_finite (GRand *rand)
{
  for (;;)
    {
      double value = from_bits (random_bits (rand));

      if (isfinite (value))
        return value;
    }
}

static gboolean
reads_back (const char *text,
            double      value)
{
  return to_bits (g_ascii_strtod (text, NULL)) == to_bits (value);
}

/* The text of "%.{precision}g" */
static void
format_g (double  value,
          int     precision,
          char   *buffer,
          gsize   size)
{
  char format[8];

  g_snprintf (format, sizeof format, "%%.%dg", precision);
  g_ascii_formatd (buffer, size, format, value);
}

/* The fewest significant digits of "%.Ng" that read back */
static int
shortest_printf_digits (double value)
{
  char buffer[64];

  for (int precision = 1; precision <= 17; precision++)
    {
      format_g (value, precision, buffer, sizeof buffer);
      if (reads_back (buffer, value))
        return precision;
    }
  g_assert_not_reached ();
}

/* The text perfscope wrote before the formatter: "%.15g", "%.16g" or
 * "%.17g", the first that reads back */
static void
format_loop (double  value,
             char   *buffer,
             gsize   size)
{
  for (int precision = 15; precision <= 17; precision++)
    {
      format_g (value, precision, buffer, size);
      if (reads_back (buffer, value))
        return;
    }
}

static int
count_digits (guint64 digits)
{
  int n = 1;

  while (digits >= 10)
    {
      digits /= 10;
      n++;
    }
  return n;
}

/* Formats value, checks that it reads back and is of the printf form,
 * and returns its number of significant digits */
static int
check_format (double value)
{
  char buffer[PS_NUMBER_BUF];
  guint64 digits;
  int exponent;
  int length = ps_number_format_double (value, buffer);

  g_assert_cmpint (length, ==, (int)strlen (buffer));
  g_assert_cmpint (length, <, PS_NUMBER_BUF);
  if (!reads_back (buffer, value))
    g_error ("%s does not read back to %.17g", buffer, value);

  ps_number_shortest (value, &digits, &exponent);
  g_assert_true (digits == 0 || digits % 10 != 0);
  return count_digits (digits);
}

static void
test_format_edges (void)
{
  static const struct
  {
    double      value;
    const char *text;
  } cases[] = {
    { 0.0, "0" },
    { -0.0, "-0" },
    { 1, "1" },
    { -1, "-1" },
    { 0.1, "0.1" },
    { 0.3, "0.3" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 1.0 / 3, "0.3333333333333333" },
    { 2.0 / 3, "0.6666666666666666" },
    { 100, "100" },
    { 0.0001, "0.0001" },
    { 0.00001, "1e-05" },
    { 0.000123, "0.000123" },
    { 1.5e-7, "1.5e-07" },
    { 1e14, "100000000000000" },
    { 1e15, "1e+15" },
    { 123456789012345.0, "123456789012345" },
    { 1234567890123456.0, "1234567890123456" },
    { 12345678901234568.0, "12345678901234568" },
    { 123456789012345680.0, "1.2345678901234568e+17" },
    { 9007199254740992.0, "9007199254740992" },        /* 2^53 */
    { 9007199254740991.0, "9007199254740991" },
    { 9007199254740994.0, "9007199254740994" },
    { 1e21, "1e+21" },
    { 1e22, "1e+22" },
    { 1e23, "1e+23" },
    { 9.5e22, "9.5e+22" },
    { 123.456, "123.456" },
    { 1e100, "1e+100" },
    { 1.7976931348623157e308, "1.7976931348623157e+308" },   /* DBL_MAX */
    { 2.2250738585072014e-308, "2.2250738585072014e-308" },  /* DBL_MIN */
    { 2.2250738585072009e-308, "2.225073858507201e-308" },   /* the largest subnormal */
    { 4.9406564584124654e-324, "5e-324" },                   /* the smallest */
    { 9.8813129168249309e-324, "1e-323" },
    { 1.4821969375237396e-323, "1.5e-323" },
    { 5e-310, "5e-310" },
    { 0.1 * 3, "0.30000000000000004" },
    { 2.5, "2.5" },
    { 1e-4 * 3, "0.00030000000000000003" },
    { -4.35, "-4.35" },
    { 131072.0 * 131072.0 * 131072.0, "2251799813685248" },
    { 5e-324 * 3, "1.5e-323" },
    { 1.0e16, "1e+16" },
    { 4.0e15 + 1, "4000000000000001" },
    { 299792458, "299792458" },
    { 6.02214076e23, "6.02214076e+23" },
    { 1.602176634e-19, "1.602176634e-19" },
    { 0.000012345, "1.2345e-05" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buffer[PS_NUMBER_BUF];
      int length = ps_number_format_double (cases[i].value, buffer);

      g_assert_cmpstr (buffer, ==, cases[i].text);
      g_assert_cmpint (length, ==, (int)strlen (cases[i].text));
      check_format (cases[i].value);
    }

  {
    char buffer[PS_NUMBER_BUF];

    g_assert_cmpint (ps_number_format_double (NAN, buffer), ==, 3);
    g_assert_cmpstr (buffer, ==, "nan");
    g_assert_cmpint (ps_number_format_double (INFINITY, buffer), ==, 3);
    g_assert_cmpstr (buffer, ==, "inf");
    g_assert_cmpint (ps_number_format_double (-INFINITY, buffer), ==, 4);
    g_assert_cmpstr (buffer, ==, "-inf");
  }
}

/* Every power of two and of ten, every whole number near 2^53, and the
 * neighbours of each: the edges of the intervals and of the notation */
static void
test_format_powers (void)
{
  for (int e = -1074; e <= 1023; e++)
    {
      double power = ldexp (1, e);

      g_assert_cmpint (check_format (power), <=, shortest_printf_digits (power));
      g_assert_cmpint (check_format (nextafter (power, 0)), <=, shortest_printf_digits (nextafter (power, 0)));
      g_assert_cmpint (check_format (nextafter (power, INFINITY)), <=,
                       shortest_printf_digits (nextafter (power, INFINITY)));
    }
  for (int e = -323; e <= 308; e++)
    {
      char text[16];
      double power;

      g_snprintf (text, sizeof text, "1e%d", e);
      power = g_ascii_strtod (text, NULL);
      g_assert_cmpint (check_format (power), ==, 1);
      g_assert_cmpint (check_format (nextafter (power, 0)), <=, shortest_printf_digits (nextafter (power, 0)));
      g_assert_cmpint (check_format (nextafter (power, INFINITY)), <=,
                       shortest_printf_digits (nextafter (power, INFINITY)));
    }
  for (gint64 n = -3000; n <= 3000; n++)
    {
      double near_limit = 9007199254740992.0 + (double)n * 2;
      double small = (double)n;

      g_assert_cmpint (check_format (near_limit), <=, shortest_printf_digits (near_limit));
      g_assert_cmpint (check_format (small), <=, shortest_printf_digits (small));
    }
}

/* Random bit patterns: each reads back, and one digit fewer than ours
 * never does (so none does: ours is as short as printf's shortest) */
static void
test_format_random_bits (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (30);
  guint n = n_random_printf ();

  for (guint i = 0; i < n; i++)
    {
      double value = random_finite (rand);
      int n_digits = check_format (value);

      if (n_digits > 1)
        {
          char fewer[64];

          format_g (value, n_digits - 1, fewer, sizeof fewer);
          if (reads_back (fewer, value))
            g_error ("%.17g: %s reads back, with fewer digits than ours (%d)", value, fewer, n_digits);
        }
    }
}

/* Against the whole printf loop, and against the text written before
 * (the first of %.15g, %.16g, %.17g that reads back), which must not
 * change for normal numbers */
static void
test_format_against_printf (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);
  guint n = g_test_slow () ? 1000000 : 20000;

  for (guint i = 0; i < n; i++)
    {
      double value = random_finite (rand);
      char ours[PS_NUMBER_BUF];
      char before[64];

      g_assert_cmpint (check_format (value), <=, shortest_printf_digits (value));
      ps_number_format_double (value, ours);
      format_loop (value, before, sizeof before);
      if (fpclassify (value) == FP_NORMAL || value == 0)
        g_assert_cmpstr (ours, ==, before);
    }
}

/* Ordinary values: tenths, thousandths, sums, times in milliseconds */
static void
test_format_ordinary (void)
{
  guint n = n_random_printf () / 8;
  double sum = 0;

  for (guint k = 0; k < n; k++)
    {
      double values[] = {
        0.1 * k, k / 10.0, k / 1000.0, k * 0.001, k * 1e-6, k * 1.1, k / 3.0, sum,
      };

      sum += 0.1;
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          char ours[PS_NUMBER_BUF];
          char before[64];

          check_format (values[v]);
          ps_number_format_double (values[v], ours);
          format_loop (values[v], before, sizeof before);
          g_assert_cmpstr (ours, ==, before);
        }
      if (k % 16 == 0)
        g_assert_cmpint (check_format (0.1 * k), <=, shortest_printf_digits (0.1 * k));
    }
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */

/* Ours against strtod, bit for bit */
static void
check_parse (const char *text)
{
  double ours = -12345.678;
  double reference = g_ascii_strtod (text, NULL);

  if (!ps_number_parse_double (text, strlen (text), &ours))
    g_error ("“%s” was not read as a number", text);
  if (to_bits (ours) != to_bits (reference))
    g_error ("“%s”: %.17g, strtod %.17g", text, ours, reference);
}

static void
test_parse_edges (void)
{
  static const char * const numbers[] = {
    "0", "-0", "+0", "0.0", "-0.0", "00000", "0e0", "0e999999999999", "-0e-5",
    "1", "-1", "+1", "1.", ".5", "-.5", "+.5", "1.e3", "12.500000", "11.296813511113458",
    "0.1", "0.3", "1e22", "1e23", "9.5e22", "1e-22", "1e-23", "123456789012345678",
    "9007199254740992", "9007199254740993", "9007199254740991", "9007199254740994.0",
    "18446744073709551615", "18446744073709551616", "12345678901234567890123",
    "0.12345678901234567890123", "1234567890123456789012345678901234567890e-20",
    "000000000000000000000000000000000123.4500000000000000000000000000",
    "0.000000000000000000000000000000000000000000000000001",
    "1.5e+10", "1.5E+10", "1.5e-10", "1.5E-10", "1e+0", "1e-0", "1E5",
    "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
    "1e309", "-1e309", "1e400", "2.2250738585072014e-308", "2.2250738585072011e-308",
    "4.9406564584124654e-324", "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
    "1e-400", "-1e-400", "12e30", "9007199254740992e15", "9007199254740993e15",
    "1e37", "3e37", "123e-22", "123e-23", "9007199254740992e-22",
    "0.1000000000000000055511151231257827021181583404541015625",
    "0.1000000000000000055511151231257827021181583404541015626",
    "2.22507385850720138309023271733240406421921598046233e-308",
    "1e0000000000000000000000000000000022", "1e-0000000000000000000000000000000022",
    "7.2057594037927933e16", "4.35", "-4.35", "3.14159265358979323846264338327950288",
    "1" "0000000000" "0000000000" "0000000000" "0000000000" "0000000000" "0000000000" "0000000000",
  };
  static const char * const not_numbers[] = {
    "", " ", " 1", "1 ", "+", "-", ".", "+.", "-.", "e5", ".e5", "1e", "1e+", "1e-", "1ee5", "1.2.3",
    "--1", "+-1", "1-", "0x10", "0x1p3", "inf", "-inf", "infinity", "nan", "NaN", "1,5", "1e5.5",
    "1d5", "١", "1\t", "12a", "1_000",
  };

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    check_parse (numbers[i]);

  for (guint i = 0; i < G_N_ELEMENTS (not_numbers); i++)
    {
      double value = 42;

      if (ps_number_parse_double (not_numbers[i], strlen (not_numbers[i]), &value))
        g_error ("“%s” was read as a number", not_numbers[i]);
      g_assert_cmpfloat (value, ==, 42);
    }

  /* Only the given length is read */
  {
    double value = 0;

    g_assert_true (ps_number_parse_double ("12.5e3xyz", 6, &value));
    g_assert_cmpfloat (value, ==, 12500);
    g_assert_true (ps_number_parse_double ("7", 1, &value));
    g_assert_cmpfloat (value, ==, 7);
    g_assert_false (ps_number_parse_double ("7", 0, &value));
    g_assert_cmpfloat (value, ==, 7);
    g_assert_true (ps_number_parse_double ("-0", 2, &value));
    g_assert_true (value == 0 && signbit (value));
  }
}

static void
append_digits (GString *text,
               GRand   *rand,
               int      count)
{
  for (int i = 0; i < count; i++)
    g_string_append_c (text, (char)('0' + g_rand_int_range (rand, 0, 10)));
}

/* Random decimals of every shape: signs, leading zeros, up to 25 digits
 * on either side of the point, exponents up to ±350 */
static void
test_parse_random_strings (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (32);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = n_random ();

  for (guint i = 0; i < n; i++)
    {
      int n_whole = g_rand_int_range (rand, 0, 4) == 0 ? g_rand_int_range (rand, 0, 26) : g_rand_int_range (rand, 0, 8);
      int n_fraction = g_rand_int_range (rand, 0, 4) == 0 ? g_rand_int_range (rand, 0, 26) : g_rand_int_range (rand, 0, 10);
      gboolean point = n_fraction > 0 || g_rand_boolean (rand);

      g_string_truncate (text, 0);
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0: g_string_append_c (text, '-'); break;
        case 1: g_string_append_c (text, '+'); break;
        default: break;
        }
      if (n_whole == 0 && n_fraction == 0)
        n_whole = 1;
      if (g_rand_int_range (rand, 0, 8) == 0)
        g_string_append (text, "000");
      append_digits (text, rand, n_whole);
      if (point)
        {
          g_string_append_c (text, '.');
          if (g_rand_int_range (rand, 0, 8) == 0)
            g_string_append (text, "0000");
          append_digits (text, rand, n_fraction);
        }
      if (g_rand_int_range (rand, 0, 3) == 0)
        {
          int exponent = g_rand_int_range (rand, 0, 2) == 0 ? g_rand_int_range (rand, -30, 31)
                                                             : g_rand_int_range (rand, -350, 351);

          g_string_append_printf (text, "%c%s%d", g_rand_boolean (rand) ? 'e' : 'E',
                                  exponent >= 0 && g_rand_boolean (rand) ? "+" : "", exponent);
        }
      check_parse (text->str);
    }
}

/* What writers print: doubles as "%.17g", "%.15g", "%.6f" (typeperf) and
 * our own text, which must read back to the double itself */
static void
test_parse_printed (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (33);
  guint n = n_random () / 4;

  for (guint i = 0; i < n; i++)
    {
      double value = g_rand_int_range (rand, 0, 2) ? random_finite (rand)
                                                   : g_rand_double_range (rand, -1e6, 1e6);
      char buffer[512];
      double back;

      g_snprintf (buffer, sizeof buffer, "%.17g", value);
      check_parse (buffer);
      g_snprintf (buffer, sizeof buffer, "%.15g", value);
      check_parse (buffer);
      if (fabs (value) < 1e15)
        {
          g_snprintf (buffer, sizeof buffer, "%.6f", value);
          check_parse (buffer);
        }
      ps_number_format_double (value, buffer);
      g_assert_true (ps_number_parse_double (buffer, strlen (buffer), &back));
      g_assert_cmpuint (to_bits (back), ==, to_bits (value));
    }
}

/* ps_number_format_fixed () writes what printf's "%.{decimals}f" writes,
 * or declines */
static void
check_fixed (double value,
             guint  decimals)
{
  char expected[512];
  char buffer[PS_NUMBER_BUF];
  int length = ps_number_format_fixed (value, decimals, buffer);

  g_snprintf (expected, sizeof expected, "%.*f", (int)decimals, value);
  if (length < 0)
    {
      g_assert_true (decimals > 9 || !isfinite (value) || fabs (value) >= pow (10, 18 - (int)decimals));
      return;
    }
  g_assert_cmpstr (buffer, ==, expected);
  g_assert_cmpint (length, ==, (int)strlen (expected));
}

static void
test_fixed_edges (void)
{
  static const double values[] = {
    0.0, -0.0, 1e-9, -1e-9, 5e-7, -5e-7, 4.9999999999999998e-7, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375,
    /* Ties at six decimals: 7812.5 and 23437.5 millionths */
    1.0 / 128, 3.0 / 128, -5.0 / 128, 0.0000005, 0.0000015, 0.0000025,
    0.1, 0.2, 0.3, 0.010200, 0.009999, 123456.789, 999999.9999995, 999999999999.99988,
    4.9406564584124654e-324, 2.2250738585072014e-308, 1e11, 99999999999.999985, 1e12, -1e12, 1e17, 9.99e17, 1e18,
    1e300, NAN, INFINITY, -INFINITY,
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    for (guint decimals = 0; decimals <= 10; decimals++)
      check_fixed (values[i], decimals);
}

static void
test_fixed_against_printf (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (41);
  guint n = n_random_printf ();

  for (guint i = 0; i < n; i++)
    {
      guint decimals = (guint)g_rand_int_range (rand, 0, 10);
      double value;

      switch (i % 4)
        {
        case 0:  /* any magnitude, mostly declined above the limit */
          value = random_finite (rand);
          break;
        case 1:  /* durations in seconds */
          value = g_rand_double_range (rand, 0, 10) * pow (10, -g_rand_int_range (rand, 0, 9));
          break;
        case 2:  /* quotients near the limit */
          value = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, 0, 19 - (int)decimals));
          break;
        default: /* ties: odd multiples of a power of two */
          value = (double)(2 * g_rand_int_range (rand, 0, 1 << 20) + 1) / (double)(1u << g_rand_int_range (rand, 1, 30));
          break;
        }
      check_fixed (value, decimals);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/number/format/edges", test_format_edges);
  g_test_add_func ("/number/format/powers", test_format_powers);
  g_test_add_func ("/number/format/random-bits", test_format_random_bits);
  g_test_add_func ("/number/format/against-printf", test_format_against_printf);
  g_test_add_func ("/number/format/ordinary", test_format_ordinary);
  g_test_add_func ("/number/fixed/edges", test_fixed_edges);
  g_test_add_func ("/number/fixed/against-printf", test_fixed_against_printf);
  g_test_add_func ("/number/parse/edges", test_parse_edges);
  g_test_add_func ("/number/parse/random-strings", test_parse_random_strings);
  g_test_add_func ("/number/parse/printed", test_parse_printed);

  return g_test_run ();
}
