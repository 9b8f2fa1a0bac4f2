/* ps-pmclog.c — a streaming reader of FreeBSD hwpmc(4) event logs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1 (framing, byte order, sniffing, address width,
 * the pmc(8) container, validation), §2 (versions and the PROCEXEC
 * layouts), §3.3 (size bounds), §4 (modern layouts), §4.9 (multipart
 * callchains), §7.3–§7.4 (what the reference reader gets wrong and the
 * streaming design), §11 (legacy layouts), §12 (the cases it survives).
 *
 * The input is cut into units: the container header, container info
 * blocks and records. A unit that is complete in the caller's chunk is
 * decoded where it lies; only a unit split across chunks is copied, into
 * an accumulation buffer big enough for the largest encodable one. The
 * header word of a record is validated as soon as it is available, so a
 * corrupt length never makes the reader wait for (or copy) bytes it will
 * not use. Decoding happens only once a unit is complete, so records and
 * warnings come out in the same order whatever the chunking.
 *
 * This file cuts the units and keeps the reader's state; the decoding of
 * each record is in ps-pmclog-records.c.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-parse-kit.h"
#include "ps-pmclog-private.h"

/* specs: hwpmc-pmclog.md §3.1 */
static guint8 legacy_types[256];
static guint8 modern_types[256];

static void
init_type_maps (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      static const struct { guint8 code; guint8 type; } legacy[] = {
        { 0, PS_PMCLOG_CLOSELOG }, { 1, PS_PMCLOG_DROPNOTIFY }, { 2, PS_PMCLOG_INITIALIZE },
        { 4, PS_PMCLOG_PCSAMPLE }, { 5, PS_PMCLOG_PMCALLOCATE }, { 6, PS_PMCLOG_PMCATTACH },
        { 7, PS_PMCLOG_PMCDETACH }, { 8, PS_PMCLOG_PROCCSW }, { 9, PS_PMCLOG_PROCEXEC },
        { 10, PS_PMCLOG_PROCEXIT }, { 11, PS_PMCLOG_PROCFORK }, { 12, PS_PMCLOG_SYSEXIT },
        { 13, PS_PMCLOG_USERDATA }, { 14, PS_PMCLOG_MAP_IN }, { 15, PS_PMCLOG_MAP_OUT },
        { 16, PS_PMCLOG_CALLCHAIN }, { 17, PS_PMCLOG_PMCALLOCATEDYN },
      };
      static const struct { guint8 code; guint8 type; } modern[] = {
        { 1, PS_PMCLOG_CLOSELOG }, { 2, PS_PMCLOG_DROPNOTIFY }, { 3, PS_PMCLOG_INITIALIZE },
        { 5, PS_PMCLOG_PMCALLOCATE }, { 6, PS_PMCLOG_PMCATTACH },
        { 7, PS_PMCLOG_PMCDETACH }, { 8, PS_PMCLOG_PROCCSW }, { 9, PS_PMCLOG_PROCEXEC },
        { 10, PS_PMCLOG_PROCEXIT }, { 11, PS_PMCLOG_PROCFORK }, { 12, PS_PMCLOG_SYSEXIT },
        { 13, PS_PMCLOG_USERDATA }, { 14, PS_PMCLOG_MAP_IN }, { 15, PS_PMCLOG_MAP_OUT },
        { 16, PS_PMCLOG_CALLCHAIN }, { 17, PS_PMCLOG_PMCALLOCATEDYN },
        { 18, PS_PMCLOG_THR_CREATE }, { 19, PS_PMCLOG_THR_EXIT }, { 20, PS_PMCLOG_PROC_CREATE },
      };

      memset (legacy_types, NO_TYPE, sizeof legacy_types);
      memset (modern_types, NO_TYPE, sizeof modern_types);
      for (guint i = 0; i < G_N_ELEMENTS (legacy); i++)
        legacy_types[legacy[i].code] = legacy[i].type;
      for (guint i = 0; i < G_N_ELEMENTS (modern); i++)
        modern_types[modern[i].code] = modern[i].type;
      g_once_init_leave (&initialized, 1);
    }
}

const char *
ps_pmclog_type_to_string (PsPmclogType type)
{
  static const char *const names[] = {
    "CLOSELOG", "DROPNOTIFY", "INITIALIZE", "PCSAMPLE", "PMCALLOCATE",
    "PMCATTACH", "PMCDETACH", "PROCCSW", "PROCEXEC", "PROCEXIT", "PROCFORK",
    "SYSEXIT", "USERDATA", "MAP_IN", "MAP_OUT", "CALLCHAIN", "PMCALLOCATEDYN",
    "THR_CREATE", "THR_EXIT", "PROC_CREATE", "CONTAINER_INFO",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == PS_PMCLOG_N_TYPES);

  if ((guint) type < G_N_ELEMENTS (names))
    return names[type];
  return "UNKNOWN";
}

/* Loads. specs: hwpmc-pmclog.md §1.2 — every field is a 32-bit word in
 * the writer's byte order; 64-bit values are two words, low word first,
 * except the modern header tsc and the INITIALIZE timespec (native). */

static inline guint16
load16 (const guint8 *p,
        gboolean      big_endian)
{
  guint16 value;

  memcpy (&value, p, sizeof value);
  return big_endian ? GUINT16_FROM_BE (value) : GUINT16_FROM_LE (value);
}

void
pmclog_warn (PsPmclogReader *self,
             const char     *code,
             guint64         offset,
             const char     *format,
             ...)
{
  va_list args;

  va_start (args, format);
  ps_parse_reader_warn_valist (self->callbacks.warning, self->user_data, code, offset, format, args);
  va_end (args);
}

/* specs: hwpmc-pmclog.md §3.3 — the bounds for the current generation and
 * address width; an unknown width takes the loosest of both. */
static void
update_bounds (PsPmclogReader *self)
{
  guint w = self->address_width;
  guint wmin = w != 0 ? w : 4;
  guint wmax = w != 0 ? w : 8;
  TypeBounds *b = self->bounds;

  memset (b, 0, sizeof self->bounds);

#define FIXED(type, length) b[type] = (TypeBounds) { (length), 0, TRUE }
#define RANGE(type, lo, hi) b[type] = (TypeBounds) { (lo), (hi), FALSE }

  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      /* specs: hwpmc-pmclog.md §11 */
      FIXED (PS_PMCLOG_CLOSELOG, 12);
      FIXED (PS_PMCLOG_DROPNOTIFY, 12);
      FIXED (PS_PMCLOG_INITIALIZE, 20);
      if (w != 0)
        FIXED (PS_PMCLOG_PCSAMPLE, 24 + w);
      else
        RANGE (PS_PMCLOG_PCSAMPLE, 28, 0);
      FIXED (PS_PMCLOG_PMCALLOCATE, 24);
      RANGE (PS_PMCLOG_PMCATTACH, 24, 20 + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PMCDETACH, 20);
      FIXED (PS_PMCLOG_PROCCSW, 28);
      RANGE (PS_PMCLOG_PROCEXEC, 24 + wmin, 20 + wmax + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PROCEXIT, 28);
      FIXED (PS_PMCLOG_PROCFORK, 20);
      FIXED (PS_PMCLOG_SYSEXIT, 16);
      FIXED (PS_PMCLOG_USERDATA, 16);
      RANGE (PS_PMCLOG_MAP_IN, 20 + wmin, 16 + wmax + PATH_MAX_BYTES);
      if (w != 0)
        FIXED (PS_PMCLOG_MAP_OUT, 16 + 2 * w);
      else
        RANGE (PS_PMCLOG_MAP_OUT, 24, 0);
      RANGE (PS_PMCLOG_CALLCHAIN, 24, 0);
      RANGE (PS_PMCLOG_PMCALLOCATEDYN, 24, 0);
    }
  else
    {
      /* specs: hwpmc-pmclog.md §3.3, §4 */
      FIXED (PS_PMCLOG_CLOSELOG, 16);
      FIXED (PS_PMCLOG_DROPNOTIFY, 16);
      RANGE (PS_PMCLOG_INITIALIZE, 104, 0);
      FIXED (PS_PMCLOG_PMCALLOCATE, 40);
      RANGE (PS_PMCLOG_PMCATTACH, 28, 24 + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PMCDETACH, 24);
      FIXED (PS_PMCLOG_PROCCSW, 40);
      /* Either PROCEXEC layout may turn up (§2), so the loosest bounds */
      RANGE (PS_PMCLOG_PROCEXEC, 28 + wmin, 24 + 2 * wmax + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PROCEXIT, 32);
      FIXED (PS_PMCLOG_PROCFORK, 24);
      FIXED (PS_PMCLOG_SYSEXIT, 24);
      FIXED (PS_PMCLOG_USERDATA, 24);
      RANGE (PS_PMCLOG_MAP_IN, 28 + wmin, 24 + wmax + PATH_MAX_BYTES);
      if (w != 0)
        FIXED (PS_PMCLOG_MAP_OUT, 24 + 2 * w);
      else
        RANGE (PS_PMCLOG_MAP_OUT, 32, 0);
      RANGE (PS_PMCLOG_CALLCHAIN, 32, 0);
      RANGE (PS_PMCLOG_PMCALLOCATEDYN, 96, 0);
      FIXED (PS_PMCLOG_THR_CREATE, 52);
      FIXED (PS_PMCLOG_THR_EXIT, 24);
      FIXED (PS_PMCLOG_PROC_CREATE, 44);
    }

#undef FIXED
#undef RANGE
}

void
pmclog_set_address_width (PsPmclogReader *self,
                          guint           width)
{
  if (self->address_width == width)
    return;
  self->address_width = width;
  update_bounds (self);
}

static void
set_generation (PsPmclogReader     *self,
                PsPmclogGeneration  generation,
                gboolean            big_endian)
{
  self->generation = generation;
  self->big_endian = big_endian;
  if (generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      self->header_size = 12;
      self->type_map = legacy_types;
      self->max_depth = LEGACY_MAX_DEPTH;
    }
  else
    {
      self->header_size = 16;
      self->type_map = modern_types;
      self->max_depth = MODERN_MAX_DEPTH;
      /* Until INITIALIZE says otherwise: the latest layout (§2) */
      self->two_address_exec = TRUE;
    }
  update_bounds (self);
}

PsPmclogReader *
ps_pmclog_reader_new (const PsPmclogOptions   *options,
                      const PsPmclogCallbacks *callbacks,
                      gpointer                 user_data)
{
  PsPmclogReader *self;

  init_type_maps ();

  self = g_new0 (PsPmclogReader, 1);
  if (options != NULL)
    self->options = *options;
  if (callbacks != NULL)
    self->callbacks = *callbacks;
  self->user_data = user_data;
  self->state = STATE_START;
  self->generation = PS_PMCLOG_GENERATION_UNKNOWN;
  self->type_map = modern_types;
  if (self->options.address_width == 4 || self->options.address_width == 8)
    self->address_width = self->options.address_width;
  else
    self->options.address_width = 0;
  self->accum = g_malloc (ACCUM_SIZE);
  self->pcs = g_new (guint64, MAX_SLOTS);
  self->string = g_malloc (65536 + 1);

  return self;
}

void
ps_pmclog_reader_free (PsPmclogReader *self)
{
  if (self == NULL)
    return;
  g_free (self->accum);
  g_free (self->pcs);
  g_free (self->string);
  g_clear_pointer (&self->window, g_byte_array_unref);
  g_free (self);
}

PsPmclogGeneration
ps_pmclog_reader_get_generation (PsPmclogReader *self)
{
  return self->generation;
}

gboolean
ps_pmclog_reader_is_big_endian (PsPmclogReader *self)
{
  return self->big_endian;
}

guint
ps_pmclog_reader_get_address_width (PsPmclogReader *self)
{
  return self->address_width;
}

guint32
ps_pmclog_reader_get_version (PsPmclogReader *self)
{
  return self->version;
}

gboolean
ps_pmclog_reader_has_container (PsPmclogReader *self)
{
  return self->has_container;
}

guint64
ps_pmclog_reader_get_offset (PsPmclogReader *self)
{
  return self->offset;
}

/* The first record: specs: hwpmc-pmclog.md §1.6 — the INITIALIZE type code
 * fixes the generation, the magic's position the byte order. */
static gboolean
start_stream (PsPmclogReader *self,
              const guint8   *p,
              GError        **error)
{
  if (p[3] == RECORD_MAGIC && (p[2] == 2 || p[2] == 3))
    set_generation (self, p[2] == 2 ? PS_PMCLOG_GENERATION_LEGACY : PS_PMCLOG_GENERATION_MODERN, FALSE);
  else if (p[0] == RECORD_MAGIC && (p[1] == 2 || p[1] == 3))
    set_generation (self, p[1] == 2 ? PS_PMCLOG_GENERATION_LEGACY : PS_PMCLOG_GENERATION_MODERN, TRUE);
  else if (self->options.assume_modern)
    set_generation (self, PS_PMCLOG_GENERATION_MODERN, FALSE);
  else
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The first record at byte offset %" PRIu64 " is not INITIALIZE: expected the header word of an INITIALIZE record (magic 0xEE, type 2 or 3), found the bytes %02X %02X %02X %02X"),
                   self->offset, p[0], p[1], p[2], p[3]);
      return FALSE;
    }
  self->state = STATE_RECORDS;
  return TRUE;
}

/* How many bytes tell a unit's length */
static inline gsize
unit_header_size (PsPmclogReader *self)
{
  return self->state == STATE_CONTAINER_BLOCK ? 8 : 4;
}

/* specs: hwpmc-pmclog.md §1.8 — the container's magic in either order */
static gboolean
is_container_magic (const guint8 *p,
                    gboolean     *big_endian)
{
  if (load32 (p, FALSE) == CONTAINER_MAGIC)
    {
      *big_endian = FALSE;
      return TRUE;
    }
  if (load32 (p, TRUE) == CONTAINER_MAGIC)
    {
      *big_endian = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* The length of the unit starting at p (unit_header_size () bytes are
 * available). */
static UnitResult
unit_length (PsPmclogReader *self,
             const guint8   *p,
             gsize          *out_length,
             GError        **error)
{
  RecordHeader header;

  switch (self->state)
    {
    case STATE_START:
      if (!self->has_container && is_container_magic (p, &self->container_big_endian))
        {
          self->has_container = TRUE;
          self->state = STATE_CONTAINER_HEADER;
          *out_length = 8;
          return UNIT_OK;
        }
      if (!start_stream (self, p, error))
        return UNIT_FAILED;
      break;

    case STATE_CONTAINER_HEADER:
      *out_length = 8;
      return UNIT_OK;

    case STATE_CONTAINER_BLOCK:
      *out_length = 8 + (gsize) load16 (p + 2, self->container_big_endian);
      return UNIT_OK;

    case STATE_RECORDS:
      break;

    case STATE_RESYNC:
    case STATE_FAILED:
    default:
      g_assert_not_reached ();
    }

  switch (pmclog_check_header (self, rd32 (self, p), self->offset, &header,
                               self->options.resync && self->number > 0 ? NULL : error))
    {
    case HEADER_OK:
    case HEADER_UNKNOWN_TYPE:
      if (self->number == 0 && header.type != PS_PMCLOG_INITIALIZE && !self->options.assume_modern)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                       _("The first record at byte offset %" PRIu64 " is not INITIALIZE: found type code %u"),
                       self->offset, (rd32 (self, p) >> 16) & 0xFF);
          return UNIT_FAILED;
        }
      *out_length = header.length;
      return UNIT_OK;

    case HEADER_BAD:
    default:
      /* §1.9 rule 6: resync only once the generation is settled by a
       * record; a bad first record stays fatal. */
      if (self->options.resync && self->number > 0)
        return UNIT_RESYNC;
      return UNIT_FAILED;
    }
}

/* specs: hwpmc-pmclog.md §1.8 */
static gboolean
process_container_block (PsPmclogReader *self,
                         const guint8   *p,
                         gsize           length,
                         GError        **error)
{
  PsPmclogRecord record;
  guint8 block_type = p[0];
  guint16 block_length = (guint16) (length - 8);
  const guint8 *payload = p + 8;

  if (block_type == CONTAINER_END)
    {
      if (block_length != 0)
        pmclog_warn (self, "W-PMCLOG-CONTAINER", self->offset,
                     _("The container's terminating block at byte offset %" PRIu64 " has a %u-byte payload: skipped"),
                     self->offset, block_length);
      self->state = STATE_START;
      /* The raw stream follows: its first record decides the rest */
      return TRUE;
    }

  memset (&record, 0, sizeof record);
  record.type = PS_PMCLOG_CONTAINER_INFO;
  record.raw_type = block_type;
  record.length = block_length;
  record.offset = self->offset;
  record.number = self->number;
  record.u.container.version = self->container_version;
  record.u.container.architecture = self->container_architecture;
  record.u.container.block_type = block_type;
  record.u.container.block_length = block_length;
  record.u.container.payload = payload;

  if (block_type == CONTAINER_SYSINFO)
    {
      char *fields[3] = { self->cpu_model, self->os_release, self->build_id };
      const char **targets[3] = {
        &record.u.container.cpu_model,
        &record.u.container.os_release,
        &record.u.container.build_id,
      };

      for (guint i = 0; i < 3; i++)
        {
          gsize field_offset = i * SYSINFO_FIELD;
          gsize available = block_length > field_offset ? MIN (SYSINFO_FIELD, block_length - field_offset) : 0;

          *targets[i] = pmclog_copy_string (fields[i], payload + field_offset, available, &record.flags);
        }
      /* A short last field is not a string without NUL but a short block */
      record.flags &= ~PS_PMCLOG_RECORD_FLAG_NO_NUL;
      if (block_length != 3 * SYSINFO_FIELD)
        {
          if (block_length > 3 * SYSINFO_FIELD)
            record.flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
          pmclog_warn (self, "W-PMCLOG-CONTAINER", self->offset,
                       _("The system info block at byte offset %" PRIu64 " has %u bytes, expected %u"),
                       self->offset, block_length, 3 * SYSINFO_FIELD);
        }
    }
  else if (block_type > 3)
    pmclog_warn (self, "W-PMCLOG-CONTAINER", self->offset,
                 _("Unknown container info block type %u at byte offset %" PRIu64 ": passed on undecoded"),
                 block_type, self->offset);

  return pmclog_deliver (self, &record, error);
}

/* A complete unit at p */
static gboolean
process_unit (PsPmclogReader *self,
              const guint8   *p,
              gsize           length,
              GError        **error)
{
  switch (self->state)
    {
    case STATE_CONTAINER_HEADER:
      self->container_version = load16 (p + 4, self->container_big_endian);
      self->container_architecture = load16 (p + 6, self->container_big_endian);
      if (self->container_version != 0)
        pmclog_warn (self, "W-PMCLOG-CONTAINER", self->offset,
                     _("pmc(8) container version %u is newer than the known version 0"),
                     self->container_version);
      self->state = STATE_CONTAINER_BLOCK;
      break;

    case STATE_CONTAINER_BLOCK:
      if (!process_container_block (self, p, length, error))
        return FALSE;
      break;

    case STATE_RECORDS:
      {
        guint8 type = self->type_map[p[self->big_endian ? 1 : 2]];

        if (type == NO_TYPE)
          {
            /* §1.9 rule 4: skip by length */
            pmclog_warn (self, "W-PMCLOG-UNKNOWN-TYPE", self->offset,
                         _("Unknown record type %u (%u bytes) at byte offset %" PRIu64 ": skipped"),
                         p[self->big_endian ? 1 : 2], (guint) length, self->offset);
            self->number++;
          }
        else if (!pmclog_process_record (self, p, length, type, error))
          return FALSE;
      }
      break;

    case STATE_START:
    case STATE_RESYNC:
    case STATE_FAILED:
    default:
      g_assert_not_reached ();
    }

  self->offset += length;
  return TRUE;
}

/* specs: hwpmc-pmclog.md §1.9 rule 6 — scan the window in 4-byte steps for
 * a plausible header followed by another valid one. Returns the window
 * (to be read again as records) when the stream is back in step, NULL
 * while it is still searching. */
static GByteArray *
resync_scan (PsPmclogReader *self,
             gboolean        at_end)
{
  for (;;)
    {
      const guint8 *p = self->window->data + self->window_start;
      gsize available = self->window->len - self->window_start;
      guint length, next_length;
      gboolean found = FALSE;

      if (available < 4)
        break;

      if (pmclog_header_plausible (self, rd32 (self, p), &length))
        {
          if (available >= (gsize) length + 4)
            found = pmclog_header_plausible (self, rd32 (self, p + length), &next_length);
          else if (at_end)
            found = available == length;
          else
            break;   /* need more bytes to decide */
        }

      if (found)
        {
          GByteArray *window = g_steal_pointer (&self->window);

          pmclog_warn (self, "W-PMCLOG-RESYNC", self->offset,
                       _("Skipped %" PRIu64 " bytes of unreadable data from byte offset %" PRIu64 " to the next valid record at byte offset %" PRIu64),
                       self->offset - self->resync_from, self->resync_from, self->offset);
          g_byte_array_remove_range (window, 0, self->window_start);
          self->window_start = 0;
          self->state = STATE_RECORDS;
          return window;
        }

      self->window_start += 4;
      self->offset += 4;
    }

  if (self->window_start >= 65536)
    {
      g_byte_array_remove_range (self->window, 0, self->window_start);
      self->window_start = 0;
    }
  return NULL;
}

static void
enter_resync (PsPmclogReader *self,
              const guint8   *data,
              gsize           length)
{
  self->state = STATE_RESYNC;
  self->resync_from = self->offset;
  self->window = g_byte_array_sized_new (WINDOW_MAX);
  g_byte_array_append (self->window, data, length);
  /* The bad header itself is skipped */
  self->window_start = 4;
  self->offset += 4;
}

static gboolean
fail (PsPmclogReader *self)
{
  self->state = STATE_FAILED;
  return FALSE;
}

/* The loop over a chunk (specs: hwpmc-pmclog.md §7.4). After a
 * resynchronisation the bytes held for the search are read again
 * ("replayed") before the rest of the chunk; a resync inside the replay
 * takes all of the replay's remaining bytes, so one replay is enough. */
static gboolean
process_bytes (PsPmclogReader *self,
               const guint8   *data,
               gsize           length,
               GError        **error)
{
  g_autoptr(GByteArray) replay = NULL;
  const guint8 *saved_data = NULL;
  gsize saved_length = 0;

  for (;;)
    {
      GByteArray *found = NULL;
      gsize need;
      gsize take;

      if (length == 0)
        {
          if (replay == NULL)
            break;
          g_clear_pointer (&replay, g_byte_array_unref);
          data = saved_data;
          length = saved_length;
          continue;
        }

      if (self->state == STATE_RESYNC)
        {
          gsize available = self->window->len - self->window_start;

          take = MIN (length, WINDOW_MAX - available);
          g_byte_array_append (self->window, data, take);
          data += take;
          length -= take;
          found = resync_scan (self, FALSE);
        }
      else if (self->accum_len > 0)
        {
          /* A unit split across chunks: complete it in the buffer */
          if (self->accum_need == 0)
            {
              gsize header_size = unit_header_size (self);

              take = MIN (header_size - self->accum_len, length);
              memcpy (self->accum + self->accum_len, data, take);
              self->accum_len += take;
              data += take;
              length -= take;
              if (self->accum_len < header_size)
                continue;

              switch (unit_length (self, self->accum, &need, error))
                {
                case UNIT_OK:
                  break;
                case UNIT_RESYNC:
                  {
                    gsize held = self->accum_len;

                    self->accum_len = 0;
                    enter_resync (self, self->accum, held);
                    found = resync_scan (self, FALSE);
                    goto replay;
                  }
                case UNIT_FAILED:
                default:
                  return fail (self);
                }
              self->accum_need = need;
            }

          need = self->accum_need;
          take = MIN (need - self->accum_len, length);
          memcpy (self->accum + self->accum_len, data, take);
          self->accum_len += take;
          data += take;
          length -= take;
          if (self->accum_len < need)
            continue;

          self->accum_len = 0;
          self->accum_need = 0;
          if (!process_unit (self, self->accum, need, error))
            return fail (self);
        }
      else
        {
          /* Units complete in the chunk are decoded in place */
          while (length >= unit_header_size (self))
            {
              switch (unit_length (self, data, &need, error))
                {
                case UNIT_OK:
                  break;
                case UNIT_RESYNC:
                  take = MIN (length, WINDOW_MAX);
                  enter_resync (self, data, take);
                  data += take;
                  length -= take;
                  found = resync_scan (self, FALSE);
                  goto replay;
                case UNIT_FAILED:
                default:
                  return fail (self);
                }

              if (need > length)
                {
                  self->accum_need = need;
                  break;
                }
              if (!process_unit (self, data, need, error))
                return fail (self);
              data += need;
              length -= need;
            }

          if (length > 0)
            {
              memcpy (self->accum, data, length);
              self->accum_len = length;
              length = 0;
            }
        }

    replay:
      if (found != NULL)
        {
          if (replay == NULL)
            {
              saved_data = data;
              saved_length = length;
            }
          else
            g_assert (length == 0);
          g_clear_pointer (&replay, g_byte_array_unref);
          replay = found;
          data = replay->data;
          length = replay->len;
        }
    }

  return TRUE;
}

gboolean
ps_pmclog_reader_feed (PsPmclogReader *self,
                       const guint8   *data,
                       gsize           length,
                       GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (!ps_parse_check_feed ("pmclog", self->in_callback, self->state == STATE_FAILED, self->offset, error))
    return FALSE;

  return process_bytes (self, data, length, error);
}

gboolean
ps_pmclog_reader_finish (PsPmclogReader *self,
                         GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!ps_parse_check_feed ("pmclog", FALSE, self->state == STATE_FAILED, self->offset, error))
    return FALSE;

  while (self->state == STATE_RESYNC)
    {
      g_autoptr(GByteArray) found = resync_scan (self, TRUE);

      if (found != NULL)
        {
          if (!process_bytes (self, found->data, found->len, error))
            return fail (self);
          continue;
        }
      else
        {
          guint64 end = self->offset + (self->window->len - self->window_start);

          pmclog_warn (self, "W-PMCLOG-RESYNC", self->resync_from,
                       _("Skipped %" PRIu64 " bytes of unreadable data from byte offset %" PRIu64 " to the end of the input"),
                       end - self->resync_from, self->resync_from);
          self->offset = end;
          g_clear_pointer (&self->window, g_byte_array_unref);
          self->state = STATE_RECORDS;
          return TRUE;
        }
    }

  /* specs: hwpmc-pmclog.md §1.9 rule 5, §7.4: a partial unit at the end */
  if (self->accum_len > 0)
    {
      gboolean container = self->state == STATE_CONTAINER_BLOCK || self->state == STATE_CONTAINER_HEADER;

      if (self->accum_need == 0)
        g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                     container
                       ? _("The input ends inside the pmc(8) container: truncated header at byte offset %" PRIu64 " (%zu of %zu bytes)")
                       : _("The input ends inside a record: truncated header at byte offset %" PRIu64 " (%zu of %zu bytes)"),
                     self->offset, self->accum_len, unit_header_size (self));
      else
        g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                     container
                       ? _("The input ends inside the pmc(8) container: truncated info block at byte offset %" PRIu64 " (%zu of %zu bytes)")
                       : _("The input ends inside a record: truncated final record at byte offset %" PRIu64 " (%zu of %zu bytes)"),
                     self->offset, self->accum_len, self->accum_need);
      return fail (self);
    }

  if (self->state == STATE_CONTAINER_BLOCK || self->state == STATE_CONTAINER_HEADER)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The input ends at byte offset %" PRIu64 " inside the pmc(8) container, before its terminating block"),
                   self->offset);
      return fail (self);
    }

  if (self->state == STATE_START || self->generation == PS_PMCLOG_GENERATION_UNKNOWN)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The input ends at byte offset %" PRIu64 " before the first record: truncated header"),
                   self->offset);
      return fail (self);
    }

  return TRUE;
}

/* Sniffing: specs: hwpmc-pmclog.md §1.6 and §1.8 */
guint
ps_pmclog_sniff (const guint8 *data,
                 gsize         length)
{
  gsize at = 0;
  gboolean container_big_endian;
  gboolean big_endian;
  guint type_code;
  guint record_length;
  guint header_size;
  guint32 version;
  guint major;

  if (data == NULL)
    return 0;

  if (length >= 4 && is_container_magic (data, &container_big_endian))
    {
      at = 8;
      for (;;)
        {
          guint8 block_type;

          if (at + 8 > length)
            return 50;
          block_type = data[at];
          at += 8 + (gsize) load16 (data + at + 2, container_big_endian);
          if (block_type == CONTAINER_END)
            break;
        }
    }

  if (length < at + 4)
    return at > 0 ? 50 : 0;

  data += at;
  length -= at;
  if (data[3] == RECORD_MAGIC && (data[2] == 2 || data[2] == 3))
    big_endian = FALSE;
  else if (data[0] == RECORD_MAGIC && (data[1] == 2 || data[1] == 3))
    big_endian = TRUE;
  else
    return 0;

  type_code = big_endian ? data[1] : data[2];
  record_length = load32 (data, big_endian) & 0xFFFF;
  header_size = type_code == 2 ? 12 : 16;
  if (type_code == 2 && record_length != 20)
    return 0;
  if (type_code == 3 && record_length != 104 && record_length != 112)
    return 0;

  if (length < header_size + 4)
    return 40;
  version = load32 (data + header_size, big_endian);
  major = version >> 24;
  if (major >= 0x04 && major <= 0x08)
    return 60;   /* a pmclog, if one we refuse with a clear message */
  if (type_code == 2 && (major < 0x01 || major > 0x03))
    return 0;
  if (type_code == 3 && major < 0x09)
    return 0;

  if (length < record_length + 4)
    return 70;
  {
    guint32 next = load32 (data + record_length, big_endian);
    guint next_length = next & 0xFFFF;

    if ((next >> 24) != RECORD_MAGIC || next_length < header_size || next_length % 4 != 0)
      return 10;
  }
  return 100;
}
