/* ps-number.c — doubles to text and back, exactly and without locale
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text of a double: R. Giulietti, "The Schubfach way to render doubles"
 * (2020). A double c·2^q has a rounding interval of the reals that read
 * back to it; scaled by a power of ten 10^-k chosen so that the
 * interval holds at most two integers of one length, the decimals in it
 * are found with one 128-bit multiplication per bound, exactly up to a
 * sticky bit (round to odd). The shortest wins, the nearest among equals.
 * The 126-bit approximations of the powers of ten are computed once, from
 * exact integers, the first time a number is written.
 *
 * Number from text: W. D. Clinger, "How to read floating point numbers
 * accurately" (1990): a decimal of at most 19 significant digits whose
 * digits fit in the 53 bits of a double, scaled by at most 10^22 (every
 * power up to it is a double exactly), is one correctly rounded
 * multiplication or division. Anything else goes to strtod ().
 */
#include "config.h"

#include "ps-number.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* 64 × 64 → 128 bits                                                        */

typedef struct
{
  guint64 high;
  guint64 low;
} U128;

static inline U128
multiply_64 (guint64 a,
             guint64 b)
{
  U128 product;
#if defined(__SIZEOF_INT128__)
  unsigned __int128 full = (unsigned __int128)a * b;

  product.high = (guint64)(full >> 64);
  product.low = (guint64)full;
#else
  guint64 a_low = a & 0xffffffffu, a_high = a >> 32;
  guint64 b_low = b & 0xffffffffu, b_high = b >> 32;
  guint64 low_low = a_low * b_low;
  guint64 high_low = a_high * b_low;
  guint64 low_high = a_low * b_high;
  guint64 high_high = a_high * b_high;
  guint64 middle = (low_low >> 32) + (high_low & 0xffffffffu) + low_high;

  product.high = high_high + (high_low >> 32) + (middle >> 32);
  product.low = (middle << 32) | (low_low & 0xffffffffu);
#endif
  return product;
}

/* ------------------------------------------------------------------------ */
/* Logarithms of powers, as integer arithmetic                               */

/* floor (x / 2^shift) for negative x too: >> of a negative number is
 * implementation-defined in C */
static inline int
floor_shift (gint64 x,
             int    shift)
{
  return x >= 0 ? (int)(x >> shift) : (int)-((-x - 1) >> shift) - 1;
}

/* floor (log10 (2^q)), exact for |q| ≤ 5456721 (661971961083 / 2^41 is
 * log10 2 to 13 digits) */
static inline int
floor_log10_pow2 (int q)
{
  return floor_shift ((gint64)q * G_GINT64_CONSTANT (661971961083), 41);
}

/* floor (log10 (3/4 · 2^q)): the interval below a power of two is half as
 * wide as the one above */
static inline int
floor_log10_three_quarters_pow2 (int q)
{
  return floor_shift ((gint64)q * G_GINT64_CONSTANT (661971961083) - G_GINT64_CONSTANT (274743187321), 41);
}

/* floor (log2 (10^e)), exact for |e| ≤ 1838394 */
static inline int
floor_log2_pow10 (int e)
{
  return floor_shift ((gint64)e * G_GINT64_CONSTANT (913124641741), 38);
}

/* ------------------------------------------------------------------------ */
/* g(e) = floor (10^e · 2^(125 − floor_log2_pow10 (e))) + 1, in [2^125, 2^126) */

#define POW10_MIN (-292)  /* −k of the largest double */
#define POW10_MAX 324     /* −k of the smallest subnormal */

static U128 pow10_table[POW10_MAX - POW10_MIN + 1];

/* Exact non-negative integers of up to 40 · 32 bits: 10^324 has 1077,
 * 2^(125 + 1077 − 324) has 879 */
#define BIG_LIMBS 40

typedef struct
{
  guint32 limb[BIG_LIMBS];  /* least significant first */
} Big;

static void
big_multiply_small (Big     *big,
                    guint32  factor)
{
  guint64 carry = 0;

  for (guint i = 0; i < BIG_LIMBS; i++)
    {
      guint64 product = (guint64)big->limb[i] * factor + carry;

      big->limb[i] = (guint32)product;
      carry = product >> 32;
    }
  g_assert (carry == 0);
}

/* big = floor (big / divisor) */
static void
big_divide_small (Big     *big,
                  guint32  divisor)
{
  guint64 remainder = 0;

  for (guint i = BIG_LIMBS; i-- > 0;)
    {
      guint64 current = (remainder << 32) | big->limb[i];

      big->limb[i] = (guint32)(current / divisor);
      remainder = current % divisor;
    }
}

/* Bits [shift, shift + 128) of big, for shift ≥ 0; big · 2^-shift when
 * shift < 0 (big is then below 2^(128 + shift)) */
static U128
big_bits (const Big *big,
          int        shift)
{
  U128 out = { 0, 0 };

  for (int bit = 0; bit < 128; bit++)
    {
      int source = bit + shift;

      if (source >= 0 && source < BIG_LIMBS * 32 && (big->limb[source / 32] >> (source % 32)) & 1u)
        {
          if (bit < 64)
            out.low |= G_GUINT64_CONSTANT (1) << bit;
          else
            out.high |= G_GUINT64_CONSTANT (1) << (bit - 64);
        }
    }
  return out;
}

static void
u128_increment (U128 *value)
{
  if (++value->low == 0)
    value->high++;
}

static gpointer
compute_pow10_table (gpointer data)
{
  Big power = { { 1 } };

  /* 10^e for e ≥ 0, exactly, then its top 126 bits */
  for (int e = 0; e <= POW10_MAX; e++)
    {
      if (e > 0)
        big_multiply_small (&power, 10);
      pow10_table[e - POW10_MIN] = big_bits (&power, floor_log2_pow10 (e) - 125);
      u128_increment (&pow10_table[e - POW10_MIN]);
    }

  /* 2^N / 10^m = 2^(N − m) / 5^m for e = −m, N = 125 − floor_log2_pow10 (e);
   * floor (floor (a / b) / c) = floor (a / (b c)), so dividing by 5 at a
   * time (by 5^13 while it fits 32 bits) stays exact */
  for (int e = -1; e >= POW10_MIN; e--)
    {
      int m = -e;
      int n = 125 - floor_log2_pow10 (e);
      Big quotient = { { 0 } };
      int left = m;

      quotient.limb[(n - m) / 32] = 1u << ((n - m) % 32);
      for (; left >= 13; left -= 13)
        big_divide_small (&quotient, 1220703125u);
      for (; left > 0; left--)
        big_divide_small (&quotient, 5u);
      pow10_table[e - POW10_MIN] = big_bits (&quotient, 0);
      u128_increment (&pow10_table[e - POW10_MIN]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (pow10_table); i++)
    g_assert (pow10_table[i].high >> 61 == 1);

  return data;
}

static const U128 *
get_pow10 (int e)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, compute_pow10_table, pow10_table);
  return &pow10_table[e - POW10_MIN];
}

/* ------------------------------------------------------------------------ */
/* Shortest decimal                                                          */

#define SIGNIFICAND_BITS 53
#define EXPONENT_MIN (-1074)                        /* q of the subnormals */
#define HIDDEN_BIT (G_GUINT64_CONSTANT (1) << 52)  /* c of a power of two */

/* g · cp / 2^127 rounded to odd: the floor, its last bit set when
 * something was cut off. As in the paper, g is taken in halves of 63 bits
 * and the lowest 64 bits of the lower half's product are left out: the
 * paper's bounds are proved for exactly this sum, whose error the +1 of
 * g makes up for (an exact sticky bit would count that +1 as a fraction,
 * and an interval bound that is a whole number would seem to be above it) */
static inline guint64
round_to_odd (const U128 *g,
              guint64     cp)
{
  const guint64 mask_63 = G_GUINT64_CONSTANT (0x7fffffffffffffff);
  guint64 g1 = (g->high << 1) | (g->low >> 63);
  guint64 g0 = g->low & mask_63;
  guint64 x1 = multiply_64 (g0, cp).high;
  U128 y = multiply_64 (g1, cp);
  guint64 z = (y.low >> 1) + x1;
  guint64 vbp = y.high + (z >> 63);

  return vbp | (((z & mask_63) + mask_63) >> 63);
}

static inline void
strip_zeros (guint64 *digits,
             int     *exponent)
{
  while (*digits != 0 && *digits % 10 == 0)
    {
      *digits /= 10;
      (*exponent)++;
    }
}

/* The decimal for c · 2^q */
static void
schubfach (int      q,
           guint64  c,
           guint64 *digits,
           int     *exponent)
{
  guint64 out = c & 1;    /* an even c's interval includes its bounds */
  guint64 cb = c << 2;
  guint64 cbr = cb + 2;
  guint64 cbl;
  guint64 vb, vbl, vbr, s, t;
  const U128 *g;
  int k, h;
  gboolean u_in, w_in;

  if (c != HIDDEN_BIT || q == EXPONENT_MIN)
    {
      cbl = cb - 2;
      k = floor_log10_pow2 (q);
    }
  else
    {
      /* A power of two: the double below is half as far as the one above */
      cbl = cb - 1;
      k = floor_log10_three_quarters_pow2 (q);
    }
  h = q + floor_log2_pow10 (-k) + 2;
  g = get_pow10 (-k);

  /* 4 · value, 4 · the interval's bounds, all times 10^-k */
  vb = round_to_odd (g, cb << h);
  vbl = round_to_odd (g, cbl << h);
  vbr = round_to_odd (g, cbr << h);

  s = vb >> 2;
  if (s >= 10)
    {
      /* One digit fewer, when exactly one of the two multiples of ten
       * around the value is in the interval (the paper waits for s ≥ 100,
       * as Java wants two digits at least: a subnormal of a few units
       * would get two where one reads back) */
      guint64 sp10 = 10 * (s / 10);
      guint64 tp10 = sp10 + 10;
      gboolean up_in = vbl + out <= sp10 << 2;
      gboolean wp_in = (tp10 << 2) + out <= vbr;

      if (up_in != wp_in)
        {
          *digits = up_in ? sp10 : tp10;
          *exponent = k;
          return;
        }
    }

  t = s + 1;
  u_in = vbl + out <= s << 2;
  w_in = (t << 2) + out <= vbr;
  if (u_in != w_in)
    *digits = u_in ? s : t;
  else
    {
      /* Both or neither: the nearer, the even one of a tie */
      gint64 to_middle = (gint64)(vb - ((s + t) << 1));

      *digits = to_middle < 0 || (to_middle == 0 && (s & 1) == 0) ? s : t;
    }
  *exponent = k;
}

void
ps_number_shortest (double   value,
                    guint64 *digits,
                    int     *exponent)
{
  guint64 bits;
  guint64 fraction;
  int biased_exponent;

  g_return_if_fail (isfinite (value));

  memcpy (&bits, &value, sizeof bits);
  fraction = bits & (HIDDEN_BIT - 1);
  biased_exponent = (int)((bits >> 52) & 0x7ff);

  if (biased_exponent == 0 && fraction == 0)
    {
      *digits = 0;
      *exponent = 0;
      return;
    }

  if (biased_exponent != 0)
    {
      guint64 c = fraction | HIDDEN_BIT;
      int q = biased_exponent - 1075;

      /* A whole number below 2^53 is its own shortest text */
      if (q < 0 && q > -SIGNIFICAND_BITS && ((c >> -q) << -q) == c)
        {
          *digits = c >> -q;
          *exponent = 0;
        }
      else
        schubfach (q, c, digits, exponent);
    }
  else if (fraction < 3)
    {
      /* The two smallest subnormals: their intervals are too wide for the
       * method's error bounds (the paper's C_TINY); both have one digit */
      *digits = fraction == 1 ? 5 : 1;
      *exponent = fraction == 1 ? -324 : -323;
    }
  else
    schubfach (EXPONENT_MIN, fraction, digits, exponent);

  strip_zeros (digits, exponent);
}

/* "00" … "99": two digits at a time */
static const char digit_pairs[] =
  "0001020304050607080910111213141516171819"
  "2021222324252627282930313233343536373839"
  "4041424344454647484950515253545556575859"
  "6061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

static int
count_digits (guint64 digits)
{
  int n = 1;

  for (; digits >= 10000; digits /= 10000)
    n += 4;
  for (; digits >= 10; digits /= 10)
    n++;
  return n;
}

int
ps_number_format_double (double value,
                         char   buffer[PS_NUMBER_BUF])
{
  char digit_text[24];
  char *p = buffer;
  guint64 digits;
  int exponent, n_digits, point;

  if (isnan (value))
    {
      memcpy (buffer, "nan", 4);
      return 3;
    }
  if (isinf (value))
    {
      int length = value > 0 ? 3 : 4;

      memcpy (buffer, value > 0 ? "inf" : "-inf", (gsize)length + 1);
      return length;
    }

  if (signbit (value))
    *p++ = '-';
  ps_number_shortest (value, &digits, &exponent);

  n_digits = count_digits (digits);
  for (int at = n_digits; at > 0;)
    {
      if (at >= 2 && digits >= 10)
        {
          guint pair = (guint)(digits % 100);

          digits /= 100;
          at -= 2;
          digit_text[at] = digit_pairs[2 * pair];
          digit_text[at + 1] = digit_pairs[2 * pair + 1];
        }
      else
        {
          digit_text[--at] = (char)('0' + digits % 10);
          digits /= 10;
        }
    }

  /* printf's %g with 15 significant digits (16 or 17 where needed):
   * the decimal exponent of the first digit decides the notation */
  point = exponent + n_digits - 1;
  if (point < -4 || point >= MAX (15, n_digits))
    {
      int magnitude = ABS (point);

      *p++ = digit_text[0];
      if (n_digits > 1)
        {
          *p++ = '.';
          memcpy (p, digit_text + 1, (gsize)n_digits - 1);
          p += n_digits - 1;
        }
      *p++ = 'e';
      *p++ = point < 0 ? '-' : '+';
      if (magnitude >= 100)
        *p++ = (char)('0' + magnitude / 100);
      *p++ = (char)('0' + magnitude / 10 % 10);
      *p++ = (char)('0' + magnitude % 10);
    }
  else if (point < 0)
    {
      *p++ = '0';
      *p++ = '.';
      for (int i = -1; i > point; i--)
        *p++ = '0';
      memcpy (p, digit_text, (gsize)n_digits);
      p += n_digits;
    }
  else if (n_digits <= point + 1)
    {
      memcpy (p, digit_text, (gsize)n_digits);
      p += n_digits;
      for (int i = n_digits; i <= point; i++)
        *p++ = '0';
    }
  else
    {
      memcpy (p, digit_text, (gsize)point + 1);
      p += point + 1;
      *p++ = '.';
      memcpy (p, digit_text + point + 1, (gsize)(n_digits - point - 1));
      p += n_digits - point - 1;
    }

  *p = '\0';
  return (int)(p - buffer);
}

/* ------------------------------------------------------------------------ */
/* Fixed decimals                                                            */

/* Bit k of value, and whether any below it is set */
static inline gboolean
u128_bit (const U128 *value,
          guint       k)
{
  return ((k < 64 ? value->low >> k : value->high >> (k - 64)) & 1) != 0;
}

static inline gboolean
u128_any_below (const U128 *value,
                guint       k)
{
  if (k == 0)
    return FALSE;
  if (k <= 64)
    return (k == 64 ? value->low : value->low & ((G_GUINT64_CONSTANT (1) << k) - 1)) != 0;
  return value->low != 0 || (value->high & ((G_GUINT64_CONSTANT (1) << (k - 64)) - 1)) != 0;
}

int
ps_number_format_fixed (double value,
                        guint  decimals,
                        char   buffer[PS_NUMBER_BUF])
{
  static const double limits[] = { 1e18, 1e17, 1e16, 1e15, 1e14, 1e13, 1e12, 1e11, 1e10, 1e9 };
  static const guint64 powers[] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
  };
  static const guint64 powers_of_five[] = { 1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125 };
  char digit_text[24];
  char *p = buffer;
  guint64 bits, mantissa, scaled, whole, fraction;
  int binary_exponent, shift, n;
  U128 product;

  if (decimals >= G_N_ELEMENTS (limits) || !isfinite (value) || fabs (value) >= limits[decimals])
    return -1;

  memcpy (&bits, &value, sizeof bits);
  mantissa = bits & ((G_GUINT64_CONSTANT (1) << 52) - 1);
  binary_exponent = (int)((bits >> 52) & 0x7ff);
  if (binary_exponent == 0)
    binary_exponent = -1074;
  else
    {
      mantissa |= G_GUINT64_CONSTANT (1) << 52;
      binary_exponent -= 1075;
    }

  /* |value| × 10^decimals = mantissa × 5^decimals × 2^(exponent + decimals),
   * exactly, below 2⁷⁴; rounded to the nearest integer, ties to even, as
   * printf rounds */
  product = multiply_64 (mantissa, powers_of_five[decimals]);
  shift = -(binary_exponent + (int)decimals);
  if (shift <= 0)
    scaled = product.low << -shift;  /* below 10¹⁸ by the limit */
  else if (shift > 74)
    scaled = 0;                      /* below half of one */
  else
    {
      guint k = (guint)shift;

      scaled = k >= 64 ? product.high >> (k - 64)
                       : (product.low >> k) | (product.high << (64 - k));
      if (u128_bit (&product, k - 1) && (u128_any_below (&product, k - 1) || (scaled & 1)))
        scaled++;
    }

  if (signbit (value))
    *p++ = '-';
  whole = scaled / powers[decimals];
  fraction = scaled % powers[decimals];
  n = 0;
  do
    {
      digit_text[n++] = (char)('0' + whole % 10);
      whole /= 10;
    }
  while (whole != 0);
  while (n > 0)
    *p++ = digit_text[--n];
  if (decimals > 0)
    {
      *p++ = '.';
      for (guint i = decimals; i > 0; i--)
        {
          p[i - 1] = (char)('0' + fraction % 10);
          fraction /= 10;
        }
      p += decimals;
    }
  *p = '\0';
  return (int)(p - buffer);
}

/* ------------------------------------------------------------------------ */
/* Text to double                                                            */

/* 10^0 … 10^22: every one a double exactly */
static const double exact_powers_of_ten[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#define MAX_FAST_DIGITS 19
#define MAX_EXACT_MANTISSA (G_GUINT64_CONSTANT (1) << 53)
/* An exponent is counted up to this; past it the number is 0 or infinite
 * either way and strtod () says which */
#define EXPONENT_LIMIT 100000

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Eight digits at once: a word of the text is eight ASCII digits when each
 * byte's high nibble is 3 and stays 3 after adding 6 */
static inline gboolean
read_eight_digits (const char *p,
                   guint64    *value)
{
  const guint64 nibbles = G_GUINT64_CONSTANT (0xf0f0f0f0f0f0f0f0);
  const guint64 threes = G_GUINT64_CONSTANT (0x3030303030303030);
  guint64 word;

  memcpy (&word, p, sizeof word);
#if G_BYTE_ORDER == G_BIG_ENDIAN
  word = GUINT64_SWAP_LE_BE (word);
#endif
  if ((word & nibbles) != threes || ((word + G_GUINT64_CONSTANT (0x0606060606060606)) & nibbles) != threes)
    return FALSE;

  /* The first digit is the lowest byte: pairs, then fours, then eight */
  word -= threes;
  word = (word * 10 + (word >> 8)) & G_GUINT64_CONSTANT (0x00ff00ff00ff00ff);
  word = (word * 100 + (word >> 16)) & G_GUINT64_CONSTANT (0x0000ffff0000ffff);
  *value = (word & 0xffff) * 10000 + (word >> 32);
  return TRUE;
}

/* Clinger's fast path: FALSE when the result would not be exact */
static gboolean
parse_fast (guint64  mantissa,
            gint64   exponent,
            double  *out)
{
  /* Rounding to double precision after each operation (not x87's 80 bits)
   * is what makes a single operation exact */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
  if (mantissa == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (mantissa > MAX_EXACT_MANTISSA)
    return FALSE;

  if (exponent >= 0 && exponent <= 22)
    *out = (double)mantissa * exact_powers_of_ten[exponent];
  else if (exponent < 0 && exponent >= -22)
    *out = (double)mantissa / exact_powers_of_ten[-exponent];
  else if (exponent > 22 && exponent <= 22 + 15)
    {
      /* "12e30": 12 · 10^8 is still an exact whole number, times 10^22 */
      guint64 whole = mantissa;

      for (gint64 i = 22; i < exponent; i++)
        {
          whole *= 10;
          if (whole > MAX_EXACT_MANTISSA)
            return FALSE;
        }
      *out = (double)whole * exact_powers_of_ten[22];
    }
  else
    return FALSE;
  return TRUE;
#else
  return FALSE;
#endif
}

/* The digits of a number read so far */
typedef struct
{
  guint64  mantissa;
  guint    n_digits;        /* any */
  guint    n_significant;   /* from the first that is not 0: those in mantissa */
  gint64   exponent;        /* of the last digit in mantissa */
  gboolean fits;            /* every significant digit is in mantissa */
} Digits;

/* A run of digits at *p, of the whole part or of the fraction */
static void
read_digits (const char **text,
             const char  *end,
             gboolean     fraction,
             Digits      *digits)
{
  const char *p = *text;
  int scale = fraction ? 1 : 0;

  for (; p < end && is_digit (*p); p++)
    {
      guint64 eight;

      /* Past the leading zeros, eight digits at a time where they fit */
      while (digits->n_significant > 0 && digits->n_significant + 8 <= MAX_FAST_DIGITS && end - p >= 8
             && read_eight_digits (p, &eight))
        {
          digits->mantissa = digits->mantissa * 100000000 + eight;
          digits->n_significant += 8;
          digits->n_digits += 8;
          digits->exponent -= 8 * scale;
          p += 8;
        }
      if (p == end || !is_digit (*p))
        break;
      digits->n_digits++;
      if (digits->n_significant == 0 && *p == '0')
        digits->exponent -= scale;
      else if (digits->n_significant < MAX_FAST_DIGITS)
        {
          digits->mantissa = digits->mantissa * 10 + (guint64)(*p - '0');
          digits->n_significant++;
          digits->exponent -= scale;
        }
      else
        digits->fits = FALSE;
    }
  *text = p;
}

gboolean
ps_number_parse_double (const char *text,
                        gsize       length,
                        double     *out)
{
  const char *p = text;
  const char *end = text + length;
  gboolean negative = FALSE;
  Digits digits = { 0, 0, 0, 0, TRUE };
  double value;

  if (p < end && (*p == '+' || *p == '-'))
    negative = *p++ == '-';

  read_digits (&p, end, FALSE, &digits);
  if (p < end && *p == '.')
    {
      p++;
      read_digits (&p, end, TRUE, &digits);
    }
  if (digits.n_digits == 0)
    return FALSE;

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exponent_negative = FALSE;
      gint64 written = 0;
      guint n_exponent_digits = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        exponent_negative = *p++ == '-';
      for (; p < end && is_digit (*p); p++)
        {
          n_exponent_digits++;
          if (written < EXPONENT_LIMIT)
            written = written * 10 + (*p - '0');
        }
      if (n_exponent_digits == 0)
        return FALSE;
      digits.exponent += exponent_negative ? -written : written;
    }
  if (p != end)
    return FALSE;

  if (!digits.fits || !parse_fast (digits.mantissa, digits.exponent, &value))
    {
      /* The rare rest: strtod () of a NUL-terminated copy */
      char copy[64];

      if (length < sizeof copy)
        {
          memcpy (copy, text, length);
          copy[length] = '\0';
          *out = g_ascii_strtod (copy, NULL);
        }
      else
        {
          g_autofree char *long_copy = g_strndup (text, length);

          *out = g_ascii_strtod (long_copy, NULL);
        }
      return TRUE;
    }

  *out = negative ? -value : value;
  return TRUE;
}
