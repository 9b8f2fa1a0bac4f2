/* ps-number.h — doubles to text and back, exactly and without locale
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Room for any text ps_number_format_double () writes, NUL included:
 * "-2.2250738585072014e-308" is 24 bytes */
#define PS_NUMBER_BUF 32

/* The shortest decimal that reads back to the same double, nearest to it
 * among those of its length (Schubfach), as the digits and the exponent
 * of its last one: value = ±digits · 10^exponent, digits without
 * trailing zeros. 0 for ±0; not for NaN or infinities. */
void  ps_number_shortest        (double   value,
                                 guint64 *digits,
                                 int     *exponent);

/* That decimal as text in the form of printf's "%.15g" ("0.1", "1e+22",
 * "123456", "1.2345678901234567e-05"), with up to 17 significant digits
 * where fifteen do not read back; "nan", "inf" and "-inf" for the others.
 * Returns the length, without the NUL written after it. */
int   ps_number_format_double   (double   value,
                                 char     buffer[PS_NUMBER_BUF]);

/* value with decimals digits after the point, exactly as printf's
 * "%.{decimals}f" writes it (the exact value rounded, ties to even), for
 * decimals up to 9 and |value| below 10^(18 − decimals); returns the
 * length, or −1 for other values (and NaN and infinities), which are left
 * to printf. */
int   ps_number_format_fixed    (double   value,
                                 guint    decimals,
                                 char     buffer[PS_NUMBER_BUF]);

/* The decimal number text[0, length) — an optional sign, digits with an
 * optional '.', an optional exponent, at least one digit before the
 * exponent; no spaces, "inf", "nan" or hexadecimal — as strtod () reads
 * it in the C locale (an overflow is ±inf, an underflow ±0). FALSE, with
 * *out untouched, when the text is not such a number. Ordinary decimals
 * are read exactly without strtod (Clinger's fast path). */
gboolean ps_number_parse_double (const char *text,
                                 gsize       length,
                                 double     *out);

G_END_DECLS
