/* fixture.c — a small library with known functions for test-symbols
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built with -fno-toplevel-reorder so that the functions and the asm
 * blocks below stay in this order in .text. The test learns their
 * addresses from nm; what it relies on here is:
 *  - a global and a static function (the static one is only in .symtab);
 *  - C++ names made from C with asm labels;
 *  - a gap of unnamed bytes after fixture_global_one;
 *  - a function symbol without a size, followed by 32 bytes.
 */

int fixture_global_one (int value);
int fixture_global_two (int value);
void fixture_widget_draw (void) __asm__ ("_ZN6Widget4drawEv");
int fixture_widget_resize (int width, int height) __asm__ ("_ZN6Widget6resizeEii");

static volatile int fixture_sink;

__attribute__ ((noinline)) int
fixture_global_one (int value)
{
  fixture_sink = value;
  return fixture_sink * 3 + 1;
}

/* Bytes that belong to no symbol */
__asm__ (".text\n"
         ".skip 64, 0\n");

__attribute__ ((noinline, used)) static int
fixture_static_helper (int value)
{
  fixture_sink = value * 7;
  return fixture_sink - value;
}

__attribute__ ((noinline)) int
fixture_global_two (int value)
{
  return fixture_static_helper (value) + fixture_global_one (value);
}

__attribute__ ((noinline)) void
fixture_widget_draw (void)
{
  fixture_sink = 42;
}

__attribute__ ((noinline)) int
fixture_widget_resize (int width, int height)
{
  fixture_sink = width;
  return width * height;
}

/* A function symbol without a size: it reaches to the next symbol */
__asm__ (".text\n"
         ".globl fixture_zero_sized\n"
         ".type fixture_zero_sized, STT_FUNC\n"
         "fixture_zero_sized:\n"
         ".skip 32, 0\n");

__attribute__ ((noinline)) int
fixture_after_zero_sized (int value);

__attribute__ ((noinline)) int
fixture_after_zero_sized (int value)
{
  fixture_sink = value;
  return value + 5;
}

#ifdef FIXTURE_PROGRAM
/* Built a second time as an executable: it has an interpreter and an
 * entry point */
int main (int argc, char **argv);

int
main (int argc, char **argv)
{
  (void) argv;
  fixture_widget_draw ();
  return fixture_global_two (argc) + fixture_widget_resize (argc, 2) +
         fixture_after_zero_sized (argc) > 0 ? 0 : 1;
}
#endif
