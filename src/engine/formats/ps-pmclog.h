/* ps-pmclog.h — a streaming reader of FreeBSD hwpmc(4) event logs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1 (framing, byte order, sniffing, address width,
 * the pmc(8) container, validation), §2 (versions), §3–§4 and §11 (record
 * layouts of both generations), §4.9 (multipart callchains), §7.4 (the
 * streaming design), §12 (the cases it survives).
 *
 * The reader knows records, not processes or symbols: it cuts a byte
 * stream, fed in chunks split at any byte, into decoded records and hands
 * each one to a callback. It reads both generations (legacy 12-byte and
 * modern 16-byte headers), both byte orders and both address widths, on
 * any host. Every field is decoded with explicit byte loads.
 *
 * What the reader reports:
 *  - records, through PsPmclogCallbacks.record; the pointers inside a
 *    record (strings, pcs) are valid only during the callback;
 *  - problems it can read past (an unknown record type skipped by its
 *    length, a record longer than its type, a string without NUL, a
 *    callchain above the depth limit, bytes skipped by resynchronisation),
 *    through PsPmclogCallbacks.warning with a code and the byte offset;
 *  - fatal errors (bad magic or impossible length without resync, a first
 *    record that is not INITIALIZE, an unsupported version, a truncated
 *    final record at finish) as a GError in PS_ERROR whose message names
 *    the byte offset; every record before it has been delivered.
 * Byte offsets count from the start of the stream fed to the reader,
 * container header included.
 */
#pragma once

#include <glib.h>

#include "ps-parse-kit.h"

G_BEGIN_DECLS

/* Record types, the same for both generations (the reader maps the
 * legacy and modern type codes onto these). */
typedef enum
{
  PS_PMCLOG_CLOSELOG,
  PS_PMCLOG_DROPNOTIFY,
  PS_PMCLOG_INITIALIZE,
  PS_PMCLOG_PCSAMPLE,        /* legacy v1 only: delivered as a one-pc callchain (u.callchain) */
  PS_PMCLOG_PMCALLOCATE,
  PS_PMCLOG_PMCATTACH,
  PS_PMCLOG_PMCDETACH,
  PS_PMCLOG_PROCCSW,
  PS_PMCLOG_PROCEXEC,
  PS_PMCLOG_PROCEXIT,
  PS_PMCLOG_PROCFORK,
  PS_PMCLOG_SYSEXIT,
  PS_PMCLOG_USERDATA,
  PS_PMCLOG_MAP_IN,
  PS_PMCLOG_MAP_OUT,
  PS_PMCLOG_CALLCHAIN,
  PS_PMCLOG_PMCALLOCATEDYN,  /* delivered in u.allocate, with a name */
  PS_PMCLOG_THR_CREATE,
  PS_PMCLOG_THR_EXIT,
  PS_PMCLOG_PROC_CREATE,
  PS_PMCLOG_CONTAINER_INFO,  /* an info block of a pmc(8) container header (u.container) */
  PS_PMCLOG_N_TYPES,
} PsPmclogType;

typedef enum
{
  PS_PMCLOG_GENERATION_UNKNOWN,
  PS_PMCLOG_GENERATION_LEGACY,   /* PMC_VERSION major 1–3: 12-byte headers */
  PS_PMCLOG_GENERATION_MODERN,   /* major 9 and later: 16-byte headers */
} PsPmclogGeneration;

typedef enum
{
  PS_PMCLOG_RECORD_FLAG_NONE          = 0,
  PS_PMCLOG_RECORD_FLAG_LONGER        = 1 << 0, /* longer than its type: the extra bytes were ignored */
  PS_PMCLOG_RECORD_FLAG_NO_NUL        = 1 << 1, /* a string ran to the record's end without a NUL */
  PS_PMCLOG_RECORD_FLAG_AFTER_CLOSE   = 1 << 2, /* came after a CLOSELOG */
  PS_PMCLOG_RECORD_FLAG_NAME_AT_32    = 1 << 3, /* PMCALLOCATEDYN: the name was read at the declared offset 32 (§4.6) */
  PS_PMCLOG_RECORD_FLAG_OTHER_LAYOUT  = 1 << 4, /* PROCEXEC: the layout of the other major version matched (§2) */
  PS_PMCLOG_RECORD_FLAG_DEEP          = 1 << 5, /* CALLCHAIN: more pcs than the generation's maximum depth */
} PsPmclogRecordFlags;

/* CALLCHAIN cpuflags bits (§6.2) */
#define PS_PMCLOG_CC_USER      0x01u
#define PS_PMCLOG_CC_MULTIPART 0x02u

/* Multipart part types (§4.9) */
typedef enum
{
  PS_PMCLOG_PART_END       = 0,
  PS_PMCLOG_PART_CALLCHAIN = 1,
  PS_PMCLOG_PART_IBS_FETCH = 2,
  PS_PMCLOG_PART_IBS_OP    = 3,
  PS_PMCLOG_PART_LBR       = 4,
} PsPmclogPartType;

typedef struct
{
  guint8        type;     /* PsPmclogPartType or any other value */
  guint8        length;   /* in pc slots */
  const guint64 *values;  /* `length` slots */
} PsPmclogPart;

typedef struct
{
  PsPmclogType type;
  guint8       raw_type;  /* the type code in the file */
  guint16      length;    /* the declared length in bytes */
  guint32      flags;     /* PsPmclogRecordFlags */
  guint64      offset;    /* byte offset of the record's header word */
  guint64      number;    /* 0-based record number (container blocks not counted) */
  /* Time: modern records have the raw cycle counter (tsc); legacy ones
   * the kernel's coarse clock (seconds, nanoseconds as written, §5.2). */
  gboolean     has_tsc;
  guint64      tsc;
  guint32      seconds;
  guint32      nanoseconds;

  union {
    struct {
      guint32     version;     /* PMC_VERSION, 0xMMmmpppp */
      guint32     cputype;
      guint64     tsc_freq;    /* Hz, 0 when not recorded (legacy, non-x86) */
      gboolean    has_wallclock;
      gint64      wall_seconds;
      gint64      wall_nanoseconds;
      const char *cpuid;       /* NUL-terminated copy, "" for legacy */
    } initialize;

    /* CALLCHAIN and PCSAMPLE */
    struct {
      guint32        pid;
      guint32        tid;      /* PS_PMCLOG_NO_TID in legacy logs */
      guint32        pmcid;
      guint32        cpu;      /* cpuflags >> 16 (legacy PCSAMPLE: 0) */
      guint32        cpuflags; /* the low 16 bits: PS_PMCLOG_CC_* */
      guint          n_pcs;    /* pcs of the stack, innermost first */
      const guint64 *pcs;      /* multipart: the CALLCHAIN part's slots */
      guint          n_parts;  /* multipart only: the directory's parts, else 0 */
      const PsPmclogPart *parts;
    } callchain;

    struct {
      guint32     pid;        /* 0xFFFFFFFF: the kernel */
      guint64     start;
      const char *path;       /* NUL-terminated copy */
    } map_in;

    struct {
      guint32 pid;
      guint64 start;
      guint64 end;
    } map_out;

    /* PMCALLOCATE and PMCALLOCATEDYN */
    struct {
      guint32     pmcid;
      guint32     event;
      guint32     flags;
      guint64     rate;       /* 0 when the record has none (legacy, or not sampling) */
      const char *name;       /* PMCALLOCATEDYN: the event name; NULL for PMCALLOCATE */
    } allocate;

    /* PMCATTACH and PMCDETACH (path NULL) */
    struct {
      guint32     pmcid;
      guint32     pid;
      const char *path;
    } attach;

    struct {
      guint32 pmcid;
      guint32 pid;
      guint32 tid;            /* PS_PMCLOG_NO_TID in legacy logs */
      guint64 value;
    } proccsw;

    struct {
      guint32     pid;
      guint32     pmcid;
      guint64     base;       /* 0x0A: AT_BASE; 0x09 and legacy: the entry address */
      guint64     dyn;        /* 0x0A: PIE load bias; else 0 */
      gboolean    has_dyn;    /* the two-address layout */
      const char *path;
    } procexec;

    struct {
      guint32 pmcid;
      guint32 pid;
      guint64 value;
    } procexit;

    struct {
      guint32 old_pid;
      guint32 new_pid;
    } procfork;

    struct {
      guint32 pid;
    } sysexit;

    struct {
      guint32 value;
    } userdata;

    /* THR_CREATE, THR_EXIT (name NULL), PROC_CREATE (tid PS_PMCLOG_NO_TID) */
    struct {
      guint32     tid;
      guint32     pid;
      guint32     flags;
      const char *name;       /* NUL-terminated copy of the 20-byte field */
    } thread;

    /* A pmc(8) container info block (§1.8) */
    struct {
      guint16       version;      /* the container's version */
      guint16       architecture; /* 1 amd64, 2 arm64, 3 powerpc64, 4 riscv64, 5 arm, 0 other */
      guint8        block_type;   /* 1 system info, 2 PMC info, 3 CPUID, other: unknown */
      guint16       block_length;
      const guint8 *payload;
      /* System info (block type 1), NUL-terminated copies, else NULL */
      const char   *cpu_model;
      const char   *os_release;
      const char   *build_id;
    } container;
  } u;
} PsPmclogRecord;

#define PS_PMCLOG_NO_TID G_MAXUINT32
#define PS_PMCLOG_KERNEL_PID G_MAXUINT32

typedef struct
{
  /* Each decoded record, in stream order. Return FALSE to stop: feed ()
   * and finish () then return FALSE with the error set here (or a
   * generic one when NULL). */
  gboolean (*record)  (const PsPmclogRecord *record,
                       gpointer              user_data,
                       GError              **error);
  /* A problem read past. code: "W-PMCLOG-UNKNOWN-TYPE", "W-PMCLOG-LONGER",
   * "W-PMCLOG-NO-NUL", "W-PMCLOG-DEEP-CALLCHAIN", "W-PMCLOG-MULTIPART",
   * "W-PMCLOG-RESYNC", "W-PMCLOG-AFTER-CLOSE", "W-PMCLOG-VERSION",
   * "W-PMCLOG-CONTAINER", "W-PMCLOG-LAYOUT". May be NULL. */
  PsReaderWarningFunc warning;
} PsPmclogCallbacks;

typedef struct
{
  guint    address_width;  /* 0: infer (§1.7); 4 or 8: as given */
  gboolean resync;         /* scan for the next valid record after a bad header (§1.9 rule 6) */
  gboolean assume_modern;  /* accept a stream that does not start with INITIALIZE as modern little-endian */
} PsPmclogOptions;

typedef struct _PsPmclogReader PsPmclogReader;

/* options may be NULL (infer everything, no resync) */
PsPmclogReader    *ps_pmclog_reader_new       (const PsPmclogOptions   *options,
                                               const PsPmclogCallbacks *callbacks,
                                               gpointer                 user_data);
void               ps_pmclog_reader_free      (PsPmclogReader          *self);

/* Any chunk size, 0 included. Records complete in the chunk are decoded
 * in place; a record split across chunks is reassembled. FALSE on a
 * fatal error (or when the record callback stopped): later feeds fail. */
gboolean           ps_pmclog_reader_feed      (PsPmclogReader          *self,
                                               const guint8            *data,
                                               gsize                    length,
                                               GError                 **error);
/* End of input: FALSE with "truncated final record at byte offset N"
 * (or "truncated header") when a partial record is pending. */
gboolean           ps_pmclog_reader_finish    (PsPmclogReader          *self,
                                               GError                 **error);

/* What the stream told so far */
PsPmclogGeneration ps_pmclog_reader_get_generation    (PsPmclogReader *self);
gboolean           ps_pmclog_reader_is_big_endian     (PsPmclogReader *self);
/* 0 while not known yet */
guint              ps_pmclog_reader_get_address_width (PsPmclogReader *self);
guint32            ps_pmclog_reader_get_version       (PsPmclogReader *self);
gboolean           ps_pmclog_reader_has_container     (PsPmclogReader *self);
/* Bytes consumed so far (whole records and skipped bytes) */
guint64            ps_pmclog_reader_get_offset        (PsPmclogReader *self);

/* Sniffing (§1.6): 0 (not a pmclog) … 100, from the first bytes of a file */
guint              ps_pmclog_sniff            (const guint8            *data,
                                               gsize                    length);

/* "CALLCHAIN", "MAP_IN", … */
const char        *ps_pmclog_type_to_string   (PsPmclogType             type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPmclogReader, ps_pmclog_reader_free)

G_END_DECLS
