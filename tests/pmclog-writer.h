/* pmclog-writer.h — a writer of synthetic FreeBSD hwpmc(4) logs for tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1.2–§1.5 (words, byte order, strings, garbage),
 * §1.8 (the pmc(8) container), §3.1 (type codes), §4 (modern layouts),
 * §4.9 (multipart callchains), §11 (legacy layouts), §10 (worked bytes).
 *
 * Written from the spec's layout tables, sharing no code with the reader
 * (src/engine/formats/ps-pmclog.c), so each checks the other.
 *
 * A writer appends records to a growing buffer in the layout of one
 * generation, address width (4 or 8) and byte order, exactly as the
 * FreeBSD kernel would: 32-bit words in the writer's byte order, 64-bit
 * counters and addresses as two words low first (§1.2), the modern header
 * tsc and the INITIALIZE timespec as native stores. Everything the kernel
 * leaves unwritten — the modern header's spare word, the pad words of
 * SYSEXIT/USERDATA/THR_EXIT, the 1–3 rounding bytes after a path, the
 * tail of fixed name fields after their NUL — is filled with non-zero junk
 * bytes (0x80–0xFF, never printable ASCII), so that a reader depending on
 * them fails. Pads the kernel writes as zero are zero.
 *
 * Timestamps: every record function takes a `timestamp`. Modern logs:
 * the raw tsc. Legacy logs: PS_PMCLOG_WRITER_LEGACY_TIME (seconds,
 * nanoseconds), the two header words.
 *
 * Every record function returns the byte offset at which the record
 * starts (container bytes included).
 */
#pragma once

#include <glib.h>

#include "ps-pmclog.h"

G_BEGIN_DECLS

#define PS_PMCLOG_WRITER_LEGACY_TIME(seconds, nanoseconds) \
  ((((guint64) (guint32) (seconds)) << 32) | (guint64) (guint32) (nanoseconds))

/* The record header word: magic in bits 31–24, type 23–16, length 15–0 */
#define PS_PMCLOG_WRITER_HEADER(magic, type, length) \
  ((((guint32) (magic) & 0xFF) << 24) | (((guint32) (type) & 0xFF) << 16) | ((guint32) (length) & 0xFFFF))

typedef struct _PsPmclogWriter PsPmclogWriter;

/* generation: LEGACY (12-byte headers, legacy type codes) or MODERN;
 * address_width: 4 or 8; version: the PMC_VERSION word INITIALIZE
 * carries; it also picks the PROCEXEC layout (major ≥ 0x0A: two
 * addresses). */
PsPmclogWriter *ps_pmclog_writer_new            (PsPmclogGeneration  generation,
                                                 guint               address_width,
                                                 gboolean            big_endian,
                                                 guint32             version);
void            ps_pmclog_writer_free           (PsPmclogWriter     *self);
/* Frees the writer; the bytes written */
GBytes         *ps_pmclog_writer_free_to_bytes  (PsPmclogWriter     *self);
const guint8   *ps_pmclog_writer_peek           (PsPmclogWriter     *self,
                                                 gsize              *length);
gsize           ps_pmclog_writer_get_length     (PsPmclogWriter     *self);
/* The modern type code of a record type, or the legacy one for a legacy
 * writer; -1 when the generation has none. */
int             ps_pmclog_writer_type_code      (PsPmclogWriter     *self,
                                                 PsPmclogType        type);

/* Options */
/* i386: modern INITIALIZE of 104 bytes with a 32-bit time_t (default
 * FALSE: 112 bytes; with address width 4 a 32-bit long for nanoseconds
 * plus 4 pad bytes, as 32-bit arm/powerpc write it) */
void            ps_pmclog_writer_set_i386_time  (PsPmclogWriter     *self,
                                                 gboolean            i386_time);
/* Append `extra_bytes` (a multiple of 4) of junk to the next record, with
 * its length raised accordingly (a "newer minor version" record). */
void            ps_pmclog_writer_set_extra      (PsPmclogWriter     *self,
                                                 guint               extra_bytes);
/* The seed of the junk bytes (default 1) */
void            ps_pmclog_writer_set_junk_seed  (PsPmclogWriter     *self,
                                                 guint32             seed);

/* The pmc(8) container (§1.8), in the writer's byte order; call before
 * any record: the header, any info blocks, then the end block. */
gsize ps_pmclog_writer_container_header      (PsPmclogWriter *self,
                                              guint16         version,
                                              guint16         architecture);
/* Any block; the two reserved fields are filled with junk */
gsize ps_pmclog_writer_container_block       (PsPmclogWriter *self,
                                              guint8          block_type,
                                              const void     *payload,
                                              guint16         payload_length);
/* Type 1: three 64-byte NUL-padded strings */
gsize ps_pmclog_writer_container_system_info (PsPmclogWriter *self,
                                              const char     *cpu_model,
                                              const char     *os_release,
                                              const char     *build_id);
/* Type 0, length 0 */
gsize ps_pmclog_writer_container_end         (PsPmclogWriter *self);

/* Records of both generations */
gsize ps_pmclog_writer_initialize   (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         cputype,
                                     guint64         tsc_freq,   /* modern only */
                                     gint64          wall_seconds,
                                     gint64          wall_nanoseconds,
                                     const char     *cpuid);     /* modern only: 64 bytes copied, no NUL when ≥ 64 */
gsize ps_pmclog_writer_closelog     (PsPmclogWriter *self,
                                     guint64         timestamp);
gsize ps_pmclog_writer_dropnotify   (PsPmclogWriter *self,
                                     guint64         timestamp);
/* tid is dropped in legacy logs; cpuflags is the whole word (cpu << 16 | flags) */
gsize ps_pmclog_writer_callchain    (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint32         tid,
                                     guint32         pmcid,
                                     guint32         cpuflags,
                                     const guint64  *pcs,
                                     guint           n_pcs);
/* §4.9: the first slot is `directory` (8 bytes as given: (type, length)
 * pairs), then `slots` (64-bit values); PS_PMCLOG_CC_MULTIPART is added
 * to cpuflags. Use address width 8. */
gsize ps_pmclog_writer_callchain_multipart (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint32         tid,
                                     guint32         pmcid,
                                     guint32         cpuflags,
                                     const guint8    directory[8],
                                     const guint64  *slots,
                                     guint           n_slots);
gsize ps_pmclog_writer_map_in       (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint64         start,
                                     const char     *path);
gsize ps_pmclog_writer_map_out      (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint64         start,
                                     guint64         end);
/* rate: modern only */
gsize ps_pmclog_writer_pmcallocate  (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         event,
                                     guint32         flags,
                                     guint64         rate);
/* As the kernel writes it: modern rate at 32, name at 40, declared length
 * 96, so only 56 name bytes survive (§4.6); legacy name[64] at 24, 88
 * bytes, rate dropped (§11). */
gsize ps_pmclog_writer_pmcallocatedyn (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         event,
                                     guint32         flags,
                                     guint64         rate,
                                     const char     *name);
/* Modern, as declared in the header: name[64] at 32, length 96 */
gsize ps_pmclog_writer_pmcallocatedyn_declared (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         event,
                                     guint32         flags,
                                     const char     *name);
gsize ps_pmclog_writer_pmcattach    (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         pid,
                                     const char     *path);
gsize ps_pmclog_writer_pmcdetach    (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         pid);
/* tid: modern only */
gsize ps_pmclog_writer_proccsw      (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         pid,
                                     guint32         tid,
                                     guint64         value);
/* The layout of the writer's version (modern major ≥ 0x0A: base and dyn;
 * else one address, dyn dropped) */
gsize ps_pmclog_writer_procexec     (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint32         pmcid,
                                     guint64         base,
                                     guint64         dyn,
                                     const char     *path);
/* Modern, a chosen layout whatever the version (§2, and §12 #22: a
 * PROCEXEC of the other layout) */
gsize ps_pmclog_writer_procexec_layout (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     gboolean        two_addresses,
                                     guint32         pid,
                                     guint32         pmcid,
                                     guint64         base,
                                     guint64         dyn,
                                     const char     *path);
gsize ps_pmclog_writer_procexit     (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pmcid,
                                     guint32         pid,
                                     guint64         value);
gsize ps_pmclog_writer_procfork     (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         old_pid,
                                     guint32         new_pid);
gsize ps_pmclog_writer_sysexit      (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid);
gsize ps_pmclog_writer_userdata     (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         value);
/* Modern only */
gsize ps_pmclog_writer_thr_create   (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         tid,
                                     guint32         pid,
                                     guint32         flags,
                                     const char     *name);
gsize ps_pmclog_writer_thr_exit     (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         tid);
gsize ps_pmclog_writer_proc_create  (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint32         flags,
                                     const char     *name);
/* Legacy v1 only */
gsize ps_pmclog_writer_pcsample     (PsPmclogWriter *self,
                                     guint64         timestamp,
                                     guint32         pid,
                                     guint64         pc,
                                     guint32         pmcid,
                                     gboolean        usermode);

/* Corruption: a header word as given (see PS_PMCLOG_WRITER_HEADER) in the
 * writer's byte order, followed by `body` verbatim */
gsize ps_pmclog_writer_raw          (PsPmclogWriter *self,
                                     guint32         header_word,
                                     const void     *body,
                                     gsize           body_length);
/* Any bytes, verbatim */
gsize ps_pmclog_writer_bytes        (PsPmclogWriter *self,
                                     const void     *data,
                                     gsize           length);

G_END_DECLS
