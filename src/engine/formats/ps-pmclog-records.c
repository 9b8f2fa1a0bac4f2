/* ps-pmclog-records.c — decoding the records of an hwpmc(4) event log
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1.9 (header validation), §4 (modern layouts),
 * §4.9 (multipart callchains), §11 (legacy layouts), §12 (the cases it
 * survives).
 *
 * ps-pmclog.c hands over each complete record; here its header is
 * checked, its fields are read in the log's byte order and generation,
 * and it is delivered to the caller's callback, or becomes a warning.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-parse-kit.h"
#include "ps-pmclog-private.h"

/* Header validation: specs: hwpmc-pmclog.md §1.9 rules 1–4 and §7.3 (the
 * checks libpmc lacks). Pure, so that resynchronisation can use it. */
HeaderCheck
pmclog_check_header (PsPmclogReader *self,
                     guint32         word,
                     guint64         offset,
                     RecordHeader   *out_header,
                     GError        **error)
{
  guint magic = word >> 24;
  guint code = (word >> 16) & 0xFF;
  guint length = word & 0xFFFF;
  guint8 type;
  const TypeBounds *bounds;

  if (magic != RECORD_MAGIC)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected the magic byte 0xEE, found 0x%02X"),
                   offset, magic);
      return HEADER_BAD;
    }
  if (length < self->header_size)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a length of at least the %u-byte header, found %u"),
                   offset, self->header_size, length);
      return HEADER_BAD;
    }
  if (length % 4 != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a length that is a multiple of 4, found %u"),
                   offset, length);
      return HEADER_BAD;
    }

  type = self->type_map[code];
  out_header->length = length;
  out_header->type = type;
  if (type == NO_TYPE)
    return HEADER_UNKNOWN_TYPE;

  bounds = &self->bounds[type];
  if (length < bounds->min)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a %s record of at least %u bytes, found a length of %u"),
                   offset, ps_pmclog_type_to_string (type), bounds->min, length);
      return HEADER_BAD;
    }
  if (bounds->max != 0 && length > bounds->max)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a %s record of at most %u bytes, found a length of %u"),
                   offset, ps_pmclog_type_to_string (type), bounds->max, length);
      return HEADER_BAD;
    }

  return HEADER_OK;
}

/* §1.9 rule 6: a plausible resynchronisation point is a known type whose
 * length is within its bounds (exact for fixed types). */
gboolean
pmclog_header_plausible (PsPmclogReader *self,
                         guint32         word,
                         guint          *out_length)
{
  RecordHeader header;

  if (pmclog_check_header (self, word, 0, &header, NULL) != HEADER_OK)
    return FALSE;
  *out_length = header.length;
  return !self->bounds[header.type].fixed || header.length == self->bounds[header.type].min;
}

/* Strings: specs: hwpmc-pmclog.md §1.5 — bounded by the record (or the
 * field), up to the first NUL; the rest of the field is never read. */
const char *
pmclog_copy_string (char         *dest,
                    const guint8 *p,
                    gsize         available,
                    guint32      *flags)
{
  const guint8 *nul = memchr (p, 0, available);
  gsize n = nul != NULL ? (gsize) (nul - p) : available;

  memcpy (dest, p, n);
  dest[n] = '\0';
  if (nul == NULL)
    *flags |= PS_PMCLOG_RECORD_FLAG_NO_NUL;
  return dest;
}

static const char *
copy_tail_string (PsPmclogReader *self,
                  const guint8   *p,
                  guint           length,
                  guint           string_offset,
                  guint32        *flags)
{
  if (string_offset >= length)
    {
      *flags |= PS_PMCLOG_RECORD_FLAG_NO_NUL;
      self->string[0] = '\0';
      return self->string;
    }
  return pmclog_copy_string (self->string, p + string_offset, length - string_offset, flags);
}

/* A name "holds printable text": printable ASCII up to a NUL or the end. */
static gsize
printable_run (const guint8 *p,
               gsize         available,
               gboolean     *terminated)
{
  gsize i;

  *terminated = FALSE;
  for (i = 0; i < available; i++)
    {
      if (p[i] == 0)
        {
          *terminated = TRUE;
          return i;
        }
      if (p[i] < 0x20 || p[i] > 0x7E)
        return 0;
    }
  return i;
}

gboolean
pmclog_deliver (PsPmclogReader *self,
                PsPmclogRecord *record,
                GError        **error)
{
  gboolean ok;
  g_autoptr(GError) local_error = NULL;

  if (self->callbacks.record == NULL)
    return TRUE;

  self->in_callback = TRUE;
  ok = self->callbacks.record (record, self->user_data, &local_error);
  self->in_callback = FALSE;
  if (!ok)
    {
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                     _("Reading stopped at the %s record at byte offset %" PRIu64),
                     ps_pmclog_type_to_string (record->type), record->offset);
      return FALSE;
    }
  return TRUE;
}

/* specs: hwpmc-pmclog.md §1.6, §1.7, §2 — the first INITIALIZE fixes the
 * version, the PROCEXEC layout and possibly the address width. */
static gboolean
apply_initialize (PsPmclogReader       *self,
                  const PsPmclogRecord *record,
                  GError              **error)
{
  guint32 version = record->u.initialize.version;
  guint major = version >> 24;
  guint32 cputype = record->u.initialize.cputype;

  if (major >= 0x04 && major <= 0x08)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                   _("INITIALIZE at byte offset %" PRIu64 " has version 0x%08X: unsupported transitional log version (majors 0x04–0x08 only existed in 2018 development snapshots)"),
                   record->offset, version);
      return FALSE;
    }

  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      if (major < 0x01 || major > 0x03)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                       _("INITIALIZE at byte offset %" PRIu64 " has version 0x%08X: expected a major version of 1 to 3 in a legacy (type 2) INITIALIZE"),
                       record->offset, version);
          return FALSE;
        }
    }
  else
    {
      if (major < 0x09)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                       _("INITIALIZE at byte offset %" PRIu64 " has version 0x%08X: expected a major version of 9 or later in a modern (type 3) INITIALIZE"),
                       record->offset, version);
          return FALSE;
        }
      if (major > 0x0A)
        pmclog_warn (self, "W-PMCLOG-VERSION", record->offset,
                     _("Log version 0x%08X is newer than any known (0x0A): reading it with the latest known layout"),
                     version);
      self->two_address_exec = major >= 0x0A;
    }

  self->version = version;

  if (self->options.address_width != 0 || self->generation != PS_PMCLOG_GENERATION_MODERN)
    return TRUE;

  /* §1.7 rules 1 and 2 */
  if (record->length < 112)
    pmclog_set_address_width (self, 4);
  else if (cputype >= 0x500 && cputype <= 0x5FF)
    pmclog_set_address_width (self, 4);
  else if (cputype >= 0x600 && cputype <= 0x6FF)
    pmclog_set_address_width (self, 8);
  else if (cputype <= 0x01 || (cputype >= 0x80 && cputype <= 0xFF))
    pmclog_set_address_width (self, 8);

  return TRUE;
}

static void
decode_initialize (PsPmclogReader *self,
                   const guint8   *p,
                   guint           length,
                   PsPmclogRecord *record)
{
  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      /* specs: hwpmc-pmclog.md §11 */
      record->u.initialize.version = rd32 (self, p + 12);
      record->u.initialize.cputype = rd32 (self, p + 16);
      record->u.initialize.cpuid = "";
      if (length > 20)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
      return;
    }

  /* specs: hwpmc-pmclog.md §4.3 */
  record->u.initialize.version = rd32 (self, p + 16);
  record->u.initialize.cputype = rd32 (self, p + 20);
  record->u.initialize.tsc_freq = rd64 (self, p + 24);
  record->u.initialize.has_wallclock = TRUE;
  if (length < 112)
    {
      /* i386: 32-bit time_t */
      record->u.initialize.wall_seconds = (gint32) rd32 (self, p + 32);
      record->u.initialize.wall_nanoseconds = rd32 (self, p + 36);
      record->u.initialize.cpuid = pmclog_copy_string (self->cpuid, p + 40, CPUID_FIELD, &record->flags);
      if (length > 104)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
    }
  else
    {
      guint64 nanoseconds = load64_native (p + 40, self->big_endian);
      guint32 cputype = record->u.initialize.cputype;
      gboolean narrow = self->address_width == 4 || (cputype >= 0x500 && cputype <= 0x5FF);

      /* A 32-bit long (arm, powerpc) followed by 4 bytes of padding */
      if (narrow || nanoseconds >= G_GUINT64_CONSTANT (1000000000))
        nanoseconds = load32 (p + 40, self->big_endian);
      record->u.initialize.wall_seconds = (gint64) load64_native (p + 32, self->big_endian);
      record->u.initialize.wall_nanoseconds = (gint64) nanoseconds;
      record->u.initialize.cpuid = pmclog_copy_string (self->cpuid, p + 48, CPUID_FIELD, &record->flags);
      if (length > 112)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
    }
}

/* specs: hwpmc-pmclog.md §1.7 rule 5 — not decisive, so only for this
 * record: 64-bit when every high half is that of a canonical address. */
static guint
guess_callchain_width (PsPmclogReader *self,
                       const guint8   *pcs,
                       guint           payload)
{
  if (payload % 8 != 0)
    {
      pmclog_set_address_width (self, 4);
      return 4;
    }
  for (guint i = 4; i < payload; i += 8)
    if (!high_half_plausible (rd32 (self, pcs + i)))
      return 4;
  return 8;
}

static void
decode_pcs (PsPmclogReader *self,
            const guint8   *p,
            guint           n,
            guint           width)
{
  guint64 *pcs = self->pcs;

  if (width == 8)
    {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
      if (!self->big_endian)
        {
          /* Low word first in little-endian words is a native u64 */
          memcpy (pcs, p, (gsize) n * 8);
          return;
        }
#endif
      for (guint i = 0; i < n; i++)
        pcs[i] = rd64 (self, p + (gsize) i * 8);
    }
  else
    {
      for (guint i = 0; i < n; i++)
        pcs[i] = rd32 (self, p + (gsize) i * 4);
    }
}

/* specs: hwpmc-pmclog.md §4.2, §4.9, §11 */
static void
decode_callchain (PsPmclogReader *self,
                  const guint8   *p,
                  guint           length,
                  PsPmclogRecord *record)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint pcs_offset = legacy ? 24 : 32;
  guint payload = length - pcs_offset;
  guint width = self->address_width;
  guint32 cpuflags;
  guint n;

  record->u.callchain.pid = rd32 (self, p + (legacy ? 12 : 16));
  if (legacy)
    {
      record->u.callchain.tid = PS_PMCLOG_NO_TID;
      record->u.callchain.pmcid = rd32 (self, p + 16);
      cpuflags = rd32 (self, p + 20);
    }
  else
    {
      record->u.callchain.tid = rd32 (self, p + 20);
      record->u.callchain.pmcid = rd32 (self, p + 24);
      cpuflags = rd32 (self, p + 28);
    }
  record->u.callchain.cpu = cpuflags >> 16;
  record->u.callchain.cpuflags = cpuflags & 0xFFFF;

  if (width == 0)
    width = guess_callchain_width (self, p + pcs_offset, payload);
  n = payload / width;
  if (payload % width != 0)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  decode_pcs (self, p + pcs_offset, n, width);
  record->u.callchain.pcs = self->pcs;
  record->u.callchain.n_pcs = n;

  if ((cpuflags & PS_PMCLOG_CC_MULTIPART) != 0 && width == 8 && n >= 1)
    {
      const guint8 *directory = p + pcs_offset;
      guint slot = 1;
      guint n_parts = 0;
      gboolean has_chain = FALSE;

      record->u.callchain.pcs = NULL;
      record->u.callchain.n_pcs = 0;
      for (guint i = 0; i < 4; i++)
        {
          guint8 part_type = directory[2 * i];
          guint8 part_length = directory[2 * i + 1];

          if (part_type == PS_PMCLOG_PART_END)
            break;
          if (slot + part_length > n)
            {
              pmclog_warn (self, "W-PMCLOG-MULTIPART", record->offset,
                           _("Multipart CALLCHAIN at byte offset %" PRIu64 ": part %u (type %u) needs %u slots from slot %u, but the record has %u"),
                           record->offset, i, part_type, part_length, slot, n);
              break;
            }
          self->parts[n_parts].type = part_type;
          self->parts[n_parts].length = part_length;
          self->parts[n_parts].values = self->pcs + slot;
          if (part_type == PS_PMCLOG_PART_CALLCHAIN && !has_chain)
            {
              has_chain = TRUE;
              record->u.callchain.pcs = self->pcs + slot;
              record->u.callchain.n_pcs = part_length;
            }
          n_parts++;
          slot += part_length;
        }
      record->u.callchain.n_parts = n_parts;
      record->u.callchain.parts = self->parts;
    }
  else if ((cpuflags & PS_PMCLOG_CC_MULTIPART) != 0)
    {
      pmclog_warn (self, "W-PMCLOG-MULTIPART", record->offset,
                   _("Multipart CALLCHAIN at byte offset %" PRIu64 " without 64-bit slots: read as a plain stack"),
                   record->offset);
    }

  if (n > self->max_depth)
    {
      record->flags |= PS_PMCLOG_RECORD_FLAG_DEEP;
      pmclog_warn (self, "W-PMCLOG-DEEP-CALLCHAIN", record->offset,
                   _("CALLCHAIN at byte offset %" PRIu64 " has %u pcs, more than the maximum depth %u"),
                   record->offset, n, self->max_depth);
    }
}

/* specs: hwpmc-pmclog.md §11 (PCSAMPLE, v1 only) */
static void
decode_pcsample (PsPmclogReader *self,
                 const guint8   *p,
                 guint           length,
                 PsPmclogRecord *record)
{
  guint width = self->address_width;

  if (width == 0)
    {
      /* §1.7 rule 3: 32 ⇒ 8, 28 ⇒ 4 */
      if (length == 32)
        pmclog_set_address_width (self, 8);
      else if (length == 28)
        pmclog_set_address_width (self, 4);
      width = length >= 32 ? 8 : 4;
    }
  if (length > 24 + width)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  record->u.callchain.pid = rd32 (self, p + 12);
  record->u.callchain.tid = PS_PMCLOG_NO_TID;
  self->pcs[0] = rd_addr (self, p + 16, width);
  record->u.callchain.pmcid = rd32 (self, p + 16 + width);
  record->u.callchain.cpuflags = rd32 (self, p + 20 + width) != 0 ? PS_PMCLOG_CC_USER : 0;
  record->u.callchain.cpu = 0;
  record->u.callchain.pcs = self->pcs;
  record->u.callchain.n_pcs = 1;
}

/* MAP_IN and MAP_OUT open alike (specs: hwpmc-pmclog.md §4.4, §4.5,
 * §11): the pid first, then the start address, 4 bytes on in a legacy
 * record and 8 (after padding) in a modern one. Reads the pid and returns
 * the offset of the start. */
static guint
decode_map_head (PsPmclogReader *self,
                 const guint8   *p,
                 guint32        *pid)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;

  *pid = rd32 (self, p + (legacy ? 12 : 16));
  return legacy ? 16 : 24;
}

/* MAP_IN: specs: hwpmc-pmclog.md §4.4, §11, §1.7 rule 4 */
static void
decode_map_in (PsPmclogReader *self,
               const guint8   *p,
               guint           length,
               PsPmclogRecord *record)
{
  guint start_offset = decode_map_head (self, p, &record->u.map_in.pid);
  guint width = self->address_width;

  if (width == 0)
    {
      if (start_offset + 8 < length && p[start_offset + 8] == '/' &&
          high_half_plausible (rd32 (self, p + start_offset + 4)))
        pmclog_set_address_width (self, 8);
      else if (start_offset + 4 < length && p[start_offset + 4] == '/')
        pmclog_set_address_width (self, 4);
      width = self->address_width != 0 ? self->address_width : 8;
    }

  record->u.map_in.start = rd_addr (self, p + start_offset, width);
  record->u.map_in.path = copy_tail_string (self, p, length, start_offset + width, &record->flags);
}

/* MAP_OUT: specs: hwpmc-pmclog.md §4.5, §11, §1.7 rule 3 */
static void
decode_map_out (PsPmclogReader *self,
                const guint8   *p,
                guint           length,
                PsPmclogRecord *record)
{
  guint start_offset = decode_map_head (self, p, &record->u.map_out.pid);
  guint width = self->address_width;

  if (width == 0)
    {
      if (length == start_offset + 16)
        pmclog_set_address_width (self, 8);
      else if (length == start_offset + 8)
        pmclog_set_address_width (self, 4);
      width = length >= start_offset + 16 ? 8 : 4;
    }
  if (length > start_offset + 2 * width)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  record->u.map_out.start = rd_addr (self, p + start_offset, width);
  record->u.map_out.end = rd_addr (self, p + start_offset + width, width);
}

/* PROCEXEC candidates (§2 cross-check, case 22): a layout fits when its
 * path begins with '/' and 64-bit addresses have plausible high halves. */
typedef struct
{
  guint n_addresses;
  guint width;
  guint path_offset;
} ExecLayout;

static gboolean
exec_layout_matches (PsPmclogReader   *self,
                     const guint8     *p,
                     guint             length,
                     const ExecLayout *layout,
                     guint             address_offset)
{
  if (layout->path_offset >= length || p[layout->path_offset] != '/')
    return FALSE;
  if (layout->width == 8)
    for (guint i = 0; i < layout->n_addresses; i++)
      if (!high_half_plausible (rd32 (self, p + address_offset + i * 8 + 4)))
        return FALSE;
  return TRUE;
}

static gboolean
all_path_bytes (const guint8 *p,
                guint         from,
                guint         to)
{
  for (guint i = from; i < to; i++)
    if (p[i] <= 0x20 || p[i] >= 0x7F)
      return FALSE;
  return TRUE;
}

/* The first fitting candidate, unless a fitting candidate whose path
 * starts earlier reads as path text up to it: "/usr/bin/x" also has a '/'
 * 4 bytes in, but an address is not made of path characters. Returns
 * the index, or -1 when none fits. */
static int
choose_exec_layout (PsPmclogReader   *self,
                    const guint8     *p,
                    guint             length,
                    const ExecLayout *layouts,
                    guint             n_layouts,
                    guint             address_offset)
{
  int chosen = -1;

  for (guint i = 0; i < n_layouts && chosen < 0; i++)
    if (exec_layout_matches (self, p, length, &layouts[i], address_offset))
      chosen = i;
  if (chosen < 0)
    return -1;
  for (guint i = 0; i < n_layouts; i++)
    if (layouts[i].path_offset < layouts[chosen].path_offset &&
        exec_layout_matches (self, p, length, &layouts[i], address_offset) &&
        all_path_bytes (p, layouts[i].path_offset, layouts[chosen].path_offset))
      chosen = i;
  return chosen;
}

/* PROCEXEC: specs: hwpmc-pmclog.md §2, §4.8, §11 */
static void
decode_procexec (PsPmclogReader *self,
                 const guint8   *p,
                 guint           length,
                 PsPmclogRecord *record)
{
  guint width = self->address_width;

  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      /* §11: pid @12, entry @16, pmcid @16+addr, path @20+addr */
      if (width == 0)
        {
          static const ExecLayout layouts[] = { { 1, 8, 28 }, { 1, 4, 24 } };
          int chosen = choose_exec_layout (self, p, length, layouts, G_N_ELEMENTS (layouts), 16);

          width = chosen >= 0 ? layouts[chosen].width : (length > 28 ? 8 : 4);
        }
      record->u.procexec.pid = rd32 (self, p + 12);
      record->u.procexec.base = rd_addr (self, p + 16, width);
      record->u.procexec.pmcid = rd32 (self, p + 16 + width);
      record->u.procexec.path = copy_tail_string (self, p, length, 20 + width, &record->flags);
    }
  else
    {
      ExecLayout layouts[4];
      guint n_layouts = 0;
      guint n_expected = self->two_address_exec ? 2 : 1;
      guint n_other = 3 - n_expected;
      guint n_addresses;
      int chosen;

      /* §4.8: pid @16, pmcid @20, addresses from 24, then the path */
      for (guint pass = 0; pass < 2; pass++)
        for (guint w = 8; w >= 4; w -= 4)
          if (width == 0 || width == w)
            {
              guint n = pass == 0 ? n_expected : n_other;

              layouts[n_layouts++] = (ExecLayout) { n, w, 24 + n * w };
            }
      chosen = choose_exec_layout (self, p, length, layouts, n_layouts, 24);
      if (chosen >= 0)
        {
          n_addresses = layouts[chosen].n_addresses;
          width = layouts[chosen].width;
        }
      else
        {
          /* No path to check (an empty one): the expected layout if the
           * record is long enough for it. */
          if (width == 0)
            width = 8;
          n_addresses = 24 + n_expected * width < length ? n_expected : n_other;
          if (24 + n_addresses * width >= length)
            width = 4;
        }
      if (n_addresses != n_expected)
        {
          record->flags |= PS_PMCLOG_RECORD_FLAG_OTHER_LAYOUT;
          pmclog_warn (self, "W-PMCLOG-LAYOUT", record->offset,
                       _("PROCEXEC at byte offset %" PRIu64 " has the %s layout, not the one of version 0x%08X"),
                       record->offset,
                       n_addresses == 2 ? _("two-address (major 0x0A)") : _("one-address (major 0x09)"),
                       self->version);
        }

      record->u.procexec.pid = rd32 (self, p + 16);
      record->u.procexec.pmcid = rd32 (self, p + 20);
      record->u.procexec.base = rd_addr (self, p + 24, width);
      if (n_addresses == 2)
        {
          record->u.procexec.dyn = rd_addr (self, p + 24 + width, width);
          record->u.procexec.has_dyn = TRUE;
        }
      record->u.procexec.path = copy_tail_string (self, p, length, 24 + n_addresses * width, &record->flags);
    }
}

/* PMCALLOCATEDYN's name (specs: hwpmc-pmclog.md §4.6), in a modern
 * record: at 32 or at 40, after the rate */
static void
decode_dyn_name (PsPmclogReader *self,
                 const guint8   *p,
                 guint           length,
                 PsPmclogRecord *record)
{
  gboolean terminated_32, terminated_40;
  guint end_32 = MIN (length, 32 + DYN_NAME_FIELD);
  guint end_40 = MIN (length, 40 + DYN_NAME_FIELD);
  gsize run_32 = printable_run (p + 32, end_32 - 32, &terminated_32);
  gsize run_40 = printable_run (p + 40, end_40 - 40, &terminated_40);
  gboolean name_at_32;

  /* The kernel writes the rate at 32 and the name at 40; a declared
   * layout puts the name at 32. Eight printable bytes at 32 cannot
   * be a rate; otherwise 32 only when 40 holds no text (§4.6). */
  if (run_32 >= 8)
    name_at_32 = TRUE;
  else
    name_at_32 = run_40 == 0 && run_32 > 0;

  if (name_at_32)
    {
      record->flags |= PS_PMCLOG_RECORD_FLAG_NAME_AT_32;
      record->u.allocate.rate = 0;
      record->u.allocate.name = pmclog_copy_string (self->string, p + 32, end_32 - 32, &record->flags);
    }
  else
    {
      record->u.allocate.rate = rd64 (self, p + 32);
      record->u.allocate.name = pmclog_copy_string (self->string, p + 40, end_40 - 40, &record->flags);
    }
  if (length > 40 + DYN_NAME_FIELD)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
}

/* PMCALLOCATE and PMCALLOCATEDYN (specs: hwpmc-pmclog.md §4.6, §11) open
 * alike, with the pmcid, event and flags; a modern PMCALLOCATE then has
 * the rate, and PMCALLOCATEDYN a name, after the flags in a legacy
 * record */
static void
decode_allocate (PsPmclogReader *self,
                 const guint8   *p,
                 guint           length,
                 PsPmclogRecord *record)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint b = legacy ? 12 : 16;   /* the body's first byte */

  record->u.allocate.pmcid = rd32 (self, p + b);
  record->u.allocate.event = rd32 (self, p + b + 4);
  record->u.allocate.flags = rd32 (self, p + b + 8);
  if (record->type == PS_PMCLOG_PMCALLOCATE)
    {
      if (!legacy)
        record->u.allocate.rate = rd64 (self, p + 32);
    }
  else if (legacy)
    record->u.allocate.name = copy_tail_string (self, p, length, 24, &record->flags);
  else
    decode_dyn_name (self, p, length, record);
}

/* Decodes one complete record and delivers it. */
gboolean
pmclog_process_record (PsPmclogReader *self,
                       const guint8   *p,
                       guint           length,
                       guint8          type,
                       GError        **error)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint32 header = rd32 (self, p);
  PsPmclogRecord record;
  const guint b = legacy ? 12 : 16;   /* the body's first byte */

  memset (&record, 0, sizeof record);
  record.type = type;
  record.raw_type = (header >> 16) & 0xFF;
  record.length = length;
  record.offset = self->offset;
  record.number = self->number;
  if (legacy)
    {
      record.seconds = rd32 (self, p + 4);
      record.nanoseconds = rd32 (self, p + 8);
    }
  else
    {
      record.has_tsc = TRUE;
      record.tsc = load64_native (p + 8, self->big_endian);
    }
  if (self->closed)
    {
      record.flags |= PS_PMCLOG_RECORD_FLAG_AFTER_CLOSE;
      if (!self->warned_after_close)
        {
          self->warned_after_close = TRUE;
          pmclog_warn (self, "W-PMCLOG-AFTER-CLOSE", record.offset,
                       _("Records continue after CLOSELOG, from byte offset %" PRIu64),
                       record.offset);
        }
    }
  if (self->bounds[type].fixed && length > self->bounds[type].min)
    record.flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  switch ((PsPmclogType) type)
    {
    case PS_PMCLOG_CALLCHAIN:
      decode_callchain (self, p, length, &record);
      break;

    case PS_PMCLOG_CLOSELOG:
      self->closed = TRUE;
      break;

    case PS_PMCLOG_DROPNOTIFY:
      break;

    case PS_PMCLOG_INITIALIZE:
      decode_initialize (self, p, length, &record);
      if (self->number == 0 && !apply_initialize (self, &record, error))
        return FALSE;
      break;

    case PS_PMCLOG_PCSAMPLE:
      decode_pcsample (self, p, length, &record);
      break;

    case PS_PMCLOG_PMCALLOCATE:
    case PS_PMCLOG_PMCALLOCATEDYN:
      decode_allocate (self, p, length, &record);
      break;

    case PS_PMCLOG_PMCATTACH:
      record.u.attach.pmcid = rd32 (self, p + b);
      record.u.attach.pid = rd32 (self, p + b + 4);
      record.u.attach.path = copy_tail_string (self, p, length, b + 8, &record.flags);
      break;

    case PS_PMCLOG_PMCDETACH:
      record.u.attach.pmcid = rd32 (self, p + b);
      record.u.attach.pid = rd32 (self, p + b + 4);
      break;

    case PS_PMCLOG_PROCCSW:
      if (legacy)
        {
          record.u.proccsw.pmcid = rd32 (self, p + 12);
          record.u.proccsw.value = rd64 (self, p + 16);
          record.u.proccsw.pid = rd32 (self, p + 24);
          record.u.proccsw.tid = PS_PMCLOG_NO_TID;
        }
      else
        {
          record.u.proccsw.value = rd64 (self, p + 16);
          record.u.proccsw.pmcid = rd32 (self, p + 24);
          record.u.proccsw.pid = rd32 (self, p + 28);
          record.u.proccsw.tid = rd32 (self, p + 32);
        }
      break;

    case PS_PMCLOG_PROCEXEC:
      decode_procexec (self, p, length, &record);
      break;

    case PS_PMCLOG_PROCEXIT:
      if (legacy)
        {
          record.u.procexit.pmcid = rd32 (self, p + 12);
          record.u.procexit.value = rd64 (self, p + 16);
          record.u.procexit.pid = rd32 (self, p + 24);
        }
      else
        {
          record.u.procexit.pmcid = rd32 (self, p + 16);
          record.u.procexit.pid = rd32 (self, p + 20);
          record.u.procexit.value = rd64 (self, p + 24);
        }
      break;

    case PS_PMCLOG_PROCFORK:
      record.u.procfork.old_pid = rd32 (self, p + b);
      record.u.procfork.new_pid = rd32 (self, p + b + 4);
      break;

    case PS_PMCLOG_SYSEXIT:
      record.u.sysexit.pid = rd32 (self, p + b);
      break;

    case PS_PMCLOG_USERDATA:
      record.u.userdata.value = rd32 (self, p + b);
      break;

    case PS_PMCLOG_MAP_IN:
      decode_map_in (self, p, length, &record);
      break;

    case PS_PMCLOG_MAP_OUT:
      decode_map_out (self, p, length, &record);
      break;

    case PS_PMCLOG_THR_CREATE:
      record.u.thread.tid = rd32 (self, p + 16);
      record.u.thread.pid = rd32 (self, p + 20);
      record.u.thread.flags = rd32 (self, p + 24);
      record.u.thread.name = pmclog_copy_string (self->string, p + 32, COMM_FIELD, &record.flags);
      break;

    case PS_PMCLOG_THR_EXIT:
      record.u.thread.tid = rd32 (self, p + 16);
      break;

    case PS_PMCLOG_PROC_CREATE:
      record.u.thread.tid = PS_PMCLOG_NO_TID;
      record.u.thread.pid = rd32 (self, p + 16);
      record.u.thread.flags = rd32 (self, p + 20);
      record.u.thread.name = pmclog_copy_string (self->string, p + 24, COMM_FIELD, &record.flags);
      break;

    case PS_PMCLOG_CONTAINER_INFO:
    case PS_PMCLOG_N_TYPES:
    default:
      g_assert_not_reached ();
    }

  if (G_UNLIKELY ((record.flags & (PS_PMCLOG_RECORD_FLAG_LONGER |
                                   PS_PMCLOG_RECORD_FLAG_NO_NUL)) != 0))
    {
      if (record.flags & PS_PMCLOG_RECORD_FLAG_LONGER)
        pmclog_warn (self, "W-PMCLOG-LONGER", record.offset,
                     _("%s record at byte offset %" PRIu64 " is %u bytes long, longer than its layout: the extra bytes were ignored"),
                     ps_pmclog_type_to_string (type), record.offset, length);
      if (record.flags & PS_PMCLOG_RECORD_FLAG_NO_NUL)
        pmclog_warn (self, "W-PMCLOG-NO-NUL", record.offset,
                     _("A string of the %s record at byte offset %" PRIu64 " has no terminating NUL"),
                     ps_pmclog_type_to_string (type), record.offset);
    }

  if (!pmclog_deliver (self, &record, error))
    return FALSE;
  self->number++;
  return TRUE;
}
