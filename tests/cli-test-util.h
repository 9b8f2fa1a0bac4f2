/* cli-test-util.h — running perfscope-cli from a test
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The program is $PERFSCOPE_CLI (tests/meson.build).
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

/* AddressSanitizer keeps freed memory aside and shadows all of it: the
 * peak memory of a CLI built with it (as the tests are) is not what the
 * program takes, and tests that measure it do not compare it */
#if defined(__SANITIZE_ADDRESS__)
# define MEASURES_MEMORY 0
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define MEASURES_MEMORY 0
# endif
#endif
#ifndef MEASURES_MEMORY
# define MEASURES_MEMORY 1
#endif

G_BEGIN_DECLS

typedef struct
{
  int   status;  /* exit status */
  char *out;     /* standard output as written (a CSV keeps its CRLF) */
  char *err;
} CliResult;

void       cli_result_free        (CliResult          *result);

/* Runs the CLI with a NULL-terminated list of arguments */
CliResult *cli_test_run_argv      (const char * const *args);
/* … with input written to its standard input */
CliResult *cli_test_run_argv_with_input (const char * const *args,
                                         GBytes             *input);
CliResult *cli_test_run           (const char         *first,
                                   ...) G_GNUC_NULL_TERMINATED;
/* The root of a JSON text, which must parse */
JsonNode  *cli_test_parse_json    (const char         *text);
/* A small hwpmc log in dir: three samples of dd in one thread, one in
 * the kernel. Returns its path. */
char      *cli_test_write_pmclog  (const char         *dir);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliResult, cli_result_free)

G_END_DECLS
