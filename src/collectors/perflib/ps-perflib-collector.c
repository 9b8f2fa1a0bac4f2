/* ps-perflib-collector.c — Windows performance counters through PerfLib V2
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §3 (what the consumer API returns), §8 (the PLV2
 * capture: records §8.3, their order §8.4, the recorder's obligations
 * §8.5).
 *
 * The collector is a PLV2 recorder whose records also go, byte for byte,
 * into the parser of the perflib-plv2 format: at start it finds the
 * counter sets by their English names (or GUIDs), writes SESSION, one
 * COUNTERSET_REG per set (request codes 1, 9 and 10) and the QUERY of a
 * query handle with the sets' counters; at start + k × interval (a
 * PsCollectorClock, which makes late and lost readings warnings), on the main
 * context of the caller of start, it writes the SAMPLE of
 * PerfQueryCounterData, and at stop END. The capture is written and
 * flushed record by record, so a crash leaves a readable prefix, and
 * loading it gives the store the live run built. The calls into Windows
 * go through a PsPerflibBackend (ps-perflib-backend.h).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-file-output.h"
#include "ps-error.h"
#include "ps-format.h"
#include "ps-perflib-block.h"
#include "ps-perflib-collector.h"
#include "ps-plv2.h"
#include "ps-store-builder.h"

/* 100 ns intervals from 1601 to 1970 */
#define FILETIME_UNIX_EPOCH G_GINT64_CONSTANT (116444736000000000)
#define IDENTIFIER_SIZE     40
#define QUERY_GENERATION    1
#define LANG_ENGLISH_US     0x0409

struct _PsPerflibCollector
{
  GObject                 parent_instance;

  const PsPerflibBackend *backend;

  PsEventStore           *store;
  PsStoreBuilder         *builder;
  PsParser               *parser;
  GMainContext           *context;
  PsCollectorClock       *clock;
  gpointer                query;
  gboolean                have_query;

  GByteArray             *records;   /* what the PLV2 writer wrote since the last hand-over */
  PsPlv2Writer           *writer;
  GFile                  *capture;
  PsFileOutput           *output;    /* the capture, in place once the run ends */
  GError                 *capture_error;  /* the first write error: the run goes on without the file */
  GByteArray             *buffer;    /* PerfQueryCounterData output */
  GError                 *error;     /* the first parse error */

  guint                   interval_ms;
};

static void ps_perflib_collector_iface_init (PsCollectorInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (PsPerflibCollector, ps_perflib_collector, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (PS_TYPE_COLLECTOR, ps_perflib_collector_iface_init))

static const PsCollectorOption options[] = {
  { "countersets", N_("Counter sets (comma-separated English names or GUIDs)"), PS_COLLECTOR_OPTION_STRING, "Processor Information" },
  { "instances", N_("Instances (a name, or * for all)"), PS_COLLECTOR_OPTION_STRING, "*" },
  { "interval-ms", N_("Interval (ms)"), PS_COLLECTOR_OPTION_INT, "1000" },
  { "capture", N_("PLV2 capture file (empty: one in the cache folder)"), PS_COLLECTOR_OPTION_STRING, "" },
};

static gint64
utc_now (void)
{
  return g_get_real_time () * 10 + FILETIME_UNIX_EPOCH;
}

/* --- The capture and the parser ----------------------------------------------- */

/* Hands what the writer wrote to the capture file and to the parser */
static gboolean
hand_over (PsPerflibCollector  *self,
           GError             **error)
{
  gboolean ok = TRUE;

  if (self->records->len == 0)
    return TRUE;

  /* A full disk costs the capture file, not the run */
  if (self->output != NULL && self->capture_error == NULL)
    g_output_stream_write_all (ps_file_output_get_stream (self->output), self->records->data, self->records->len,
                               NULL, NULL, &self->capture_error);

  if (self->parser != NULL && !ps_parser_feed (self->parser, self->records->data, self->records->len, error))
    {
      ok = FALSE;
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, PS_ERROR, PS_ERROR_PARSE, _("The PerfLib capture cannot be read"));
    }
  g_byte_array_set_size (self->records, 0);

  if (self->builder != NULL && ps_store_builder_flush (self->builder) > 0)
    ps_event_store_emit_appended (self->store);
  return ok;
}

/* --- Finding the counter sets ----------------------------------------------------- */

static char *
registration_string (const PsPerflibCollector *self,
                     const guint8              guid[16],
                     guint32                   request_code)
{
  g_autoptr(GByteArray) output = g_byte_array_new ();
  g_autofree gunichar2 *text = NULL;
  gsize n_units;

  if (self->backend->query_registration_info (self->backend, guid, request_code, LANG_ENGLISH_US, output) != 0
      || output->len < 2)
    return NULL;

  /* UTF-16LE, NUL-terminated (§3.9) */
  n_units = output->len / 2;
  text = g_new0 (gunichar2, n_units + 1);
  for (gsize i = 0; i < n_units; i++)
    text[i] = (gunichar2)(output->data[2 * i] | (output->data[2 * i + 1] << 8));
  return g_utf16_to_utf8 (text, -1, NULL, NULL, NULL);
}

/* The GUIDs of the wanted counter sets, 16 bytes each, in the order asked */
static gboolean
find_countersets (PsPerflibCollector  *self,
                  const char          *wanted,
                  GByteArray          *found,
                  GError             **error)
{
  g_autoptr(GByteArray) guids = g_byte_array_new ();
  g_auto(GStrv) names = g_strsplit (wanted, ",", 0);
  guint32 status;
  guint n_wanted = 0;

  status = self->backend->enumerate_countersets (self->backend, guids);
  if (status != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The counter sets of this system cannot be listed (Win32 error %u)"), status);
      return FALSE;
    }

  for (guint n = 0; names[n] != NULL; n++)
    {
      const char *name = g_strstrip (names[n]);
      gboolean matched = FALSE;

      if (*name == '\0')
        continue;
      n_wanted++;
      for (guint g = 0; g + 16 <= guids->len && !matched; g += 16)
        {
          PsPerflibGuid guid;
          g_autofree char *guid_text = NULL;
          g_autofree char *english = NULL;
          g_autofree char *english_folded = NULL;
          g_autofree char *name_folded = NULL;

          ps_perflib_guid_read (&guid, guids->data + g);
          guid_text = ps_perflib_guid_to_string (&guid);
          if (g_ascii_strcasecmp (name, guid_text) != 0)
            {
              g_autofree char *braced = g_strdup_printf ("{%s}", guid_text);

              if (g_ascii_strcasecmp (name, braced) != 0)
                {
                  english = registration_string (self, guids->data + g, PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME);
                  if (english == NULL)
                    continue;
                  english_folded = g_utf8_casefold (english, -1);
                  name_folded = g_utf8_casefold (name, -1);
                  if (strcmp (english_folded, name_folded) != 0)
                    continue;
                }
            }
          g_byte_array_append (found, guids->data + g, 16);
          matched = TRUE;
        }
      if (!matched)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("This system has no counter set named “%s”"), name);
          return FALSE;
        }
    }

  if (n_wanted == 0)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED, _("No counter set to record: give one or more names"));
      return FALSE;
    }
  return TRUE;
}

/* COUNTERSET_REG: the structure (required), the English names (§8.3) */
static gboolean
add_registration (PsPerflibCollector  *self,
                  const guint8         guid[16],
                  GError             **error)
{
  static const guint32 codes[] = {
    PS_PERFLIB_REG_COUNTERSET_STRUCT,
    PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME,
    PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES,
  };
  GByteArray *outputs[G_N_ELEMENTS (codes)] = { NULL };
  PsPlv2RegEntry entries[G_N_ELEMENTS (codes)];
  gboolean ok = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    {
      outputs[i] = g_byte_array_new ();
      entries[i].request_code = codes[i];
      entries[i].lang_id = codes[i] == PS_PERFLIB_REG_COUNTERSET_STRUCT ? 0 : LANG_ENGLISH_US;
      entries[i].win32_status = self->backend->query_registration_info (self->backend, guid, codes[i],
                                                                        entries[i].lang_id, outputs[i]);
      entries[i].data = entries[i].win32_status == 0 ? outputs[i]->data : NULL;
      entries[i].data_size = entries[i].win32_status == 0 ? outputs[i]->len : 0;
    }

  if (entries[0].win32_status != 0)
    {
      PsPerflibGuid parsed;
      g_autofree char *guid_text = NULL;

      ps_perflib_guid_read (&parsed, guid);
      guid_text = ps_perflib_guid_to_string (&parsed);
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The counters of the counter set %s cannot be read (Win32 error %u)"),
                   guid_text, entries[0].win32_status);
    }
  else
    ok = ps_plv2_writer_add_counterset_reg (self->writer, guid, entries, G_N_ELEMENTS (entries), error);

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    g_byte_array_unref (outputs[i]);
  return ok;
}

static void
put_u32 (guint8  *p,
         guint32  value)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (guint8)(value >> (8 * i));
}

static guint32
get_u32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32)p[3] << 24);
}

/* One PERF_COUNTER_IDENTIFIER per set: every counter, the instances asked
 * (§3.8): 40 bytes, the UTF-16LE name, padding to 8 */
static GByteArray *
build_identifiers (const GByteArray *guids,
                   const char       *instances)
{
  GByteArray *identifiers = g_byte_array_new ();
  g_autofree gunichar2 *name = *instances != '\0' ? g_utf8_to_utf16 (instances, -1, NULL, NULL, NULL) : NULL;
  gsize name_units = 0;

  if (name != NULL)
    while (name[name_units] != 0)
      name_units++;

  for (guint g = 0; g + 16 <= guids->len; g += 16)
    {
      gsize start = identifiers->len;
      gsize name_bytes = name != NULL ? 2 * (name_units + 1) : 0;
      gsize size = (IDENTIFIER_SIZE + name_bytes + 7) & ~(gsize)7;
      guint8 *p;

      g_byte_array_set_size (identifiers, start + size);
      p = identifiers->data + start;
      memset (p, 0, size);
      memcpy (p, guids->data + g, 16);
      put_u32 (p + 20, (guint32)size);
      put_u32 (p + 24, PS_PERF_WILDCARD_COUNTER);
      /* InstanceId: any, when a name is given (§3.8) */
      put_u32 (p + 28, 0xFFFFFFFFu);
      for (gsize i = 0; name != NULL && i < name_units; i++)
        {
          p[IDENTIFIER_SIZE + 2 * i] = (guint8)name[i];
          p[IDENTIFIER_SIZE + 2 * i + 1] = (guint8)(name[i] >> 8);
        }
    }
  return identifiers;
}

static gboolean
open_query (PsPerflibCollector  *self,
            const GByteArray    *guids,
            const char          *instances,
            GError             **error)
{
  g_autoptr(GByteArray) identifiers = build_identifiers (guids, instances);
  g_autoptr(GByteArray) info = g_byte_array_new ();
  guint32 status;

  if ((status = self->backend->open_query (self->backend, &self->query)) != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("Cannot open a PerfLib query (Win32 error %u)"), status);
      return FALSE;
    }
  self->have_query = TRUE;

  status = self->backend->add_counters (self->backend, self->query, identifiers->data, identifiers->len);
  for (gsize at = 0; status == 0 && at + IDENTIFIER_SIZE <= identifiers->len; at += get_u32 (identifiers->data + at + 20))
    {
      status = get_u32 (identifiers->data + at + 16);
      if (get_u32 (identifiers->data + at + 20) < IDENTIFIER_SIZE)
        break;
    }
  if (status != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("Cannot add the counters of “%s” to the query (Win32 error %u)"), instances, status);
      return FALSE;
    }

  /* What the query ended up with, with each block's Index (§8.5) */
  if ((status = self->backend->query_counter_info (self->backend, self->query, info)) != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED, _("Cannot read the counters of the query (Win32 error %u)"), status);
      return FALSE;
    }
  return ps_plv2_writer_add_query (self->writer, QUERY_GENERATION, info->data, info->len, error);
}

/* --- Sampling ------------------------------------------------------------------------- */

/* At start, then on the clock's times (which counts the late and lost
 * ones); the SAMPLE's time is the system's, as PerfLib gives it */
static void
sample (gpointer user_data,
        gint64   now_us)
{
  PsPerflibCollector *self = user_data;
  guint32 status;

  status = self->backend->query_counter_data (self->backend, self->query, self->buffer);
  /* A failed query is kept as a SAMPLE without a buffer: it breaks the
   * delta chains (§8.4 rule 5) */
  if (status != 0)
    ps_collector_add_lost (PS_COLLECTOR (self), 1);
  if (self->error != NULL)
    return;
  if (!ps_plv2_writer_add_sample (self->writer, QUERY_GENERATION, status, utc_now (),
                                  self->buffer->data, status == 0 ? self->buffer->len : 0, &self->error))
    return;
  hand_over (self, &self->error);
}

/* --- Start and stop ----------------------------------------------------------------------- */

static GFile *
default_capture (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("perflib-%s.plv2", stamp);
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "perfscope", "recordings", NULL);

  g_mkdir_with_parents (dir, 0700);
  return g_file_new_build_filename (dir, name, NULL);
}

static gboolean
ps_perflib_collector_check_available (PsCollector  *collector,
                                      GError      **error)
{
  if (PS_PERFLIB_COLLECTOR (collector)->backend == NULL)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_FAILED,
                           _("PerfLib is not available on this system: it is part of Windows"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
start_collecting (PsPerflibCollector  *self,
                  PsEventStore        *store,
                  GHashTable          *table,
                  GError             **error)
{
  const char *capture = ps_collector_get_option (PS_COLLECTOR (self), table, "capture");
  g_autoptr(GByteArray) guids = g_byte_array_new ();
  g_autofree char *interval_text = NULL;
  const char *session[] = {
    "machine", g_get_host_name (),
    "writer", "perfscope",
    "writer_version", PACKAGE_VERSION,
    "ui_langid", "1033",
    "interval_ms", NULL,
    NULL,
  };
  PsPlv2Header header;
  gint64 start_us;

  if (!ps_collector_parse_interval (ps_collector_get_option (PS_COLLECTOR (self), table, "interval-ms"),
                                    &self->interval_ms, error))
    return FALSE;
  interval_text = g_strdup_printf ("%u", self->interval_ms);
  session[9] = interval_text;

  if (!ps_perflib_collector_check_available (PS_COLLECTOR (self), error))
    return FALSE;

  self->records = g_byte_array_new ();
  ps_plv2_header_init (&header);
  header.created_utc = utc_now ();
  for (guint i = 0; i < 16; i++)
    header.session_id[i] = (guint8)g_random_int_range (0, 256);
  /* A version 4 GUID, as GUIDs are stored (§2) */
  header.session_id[7] = (header.session_id[7] & 0x0f) | 0x40;
  header.session_id[8] = (header.session_id[8] & 0x3f) | 0x80;
  self->writer = ps_plv2_writer_new_for_byte_array (self->records, &header);

  if (!ps_plv2_writer_add_session (self->writer, session, error)
      || !find_countersets (self, ps_collector_get_option (PS_COLLECTOR (self), table, "countersets"), guids, error))
    return FALSE;
  for (guint g = 0; g + 16 <= guids->len; g += 16)
    if (!add_registration (self, guids->data + g, error))
      return FALSE;
  if (!open_query (self, guids, ps_collector_get_option (PS_COLLECTOR (self), table, "instances"), error))
    return FALSE;

  self->capture = *capture != '\0' ? g_file_new_for_commandline_arg (capture) : default_capture ();
  self->output = ps_file_output_open (self->capture, NULL, error);
  if (self->output == NULL)
    return FALSE;

  /* Everything could be opened: the run begins */
  self->store = g_object_ref (store);
  self->builder = ps_store_builder_new (store);
  self->parser = ps_format_new_parser (&ps_format_perflib_plv2, self->builder);
  self->context = g_main_context_ref_thread_default ();
  self->buffer = g_byte_array_new ();
  if (!hand_over (self, error))
    return FALSE;

  /* The first sample is the base of the first rates */
  start_us = g_get_monotonic_time ();
  sample (self, start_us);
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  /* The SESSION record made the run's session */
  self->clock = ps_collector_clock_new (&(PsCollectorRecording) { PS_COLLECTOR (self), store, 0 },
                                        self->interval_ms, start_us, self->context, sample, self);
  ps_collector_clock_count_reading (self->clock, start_us);
  return TRUE;
}

static void
stop_collecting (PsPerflibCollector *self)
{
  g_clear_pointer (&self->clock, ps_collector_clock_free);
  if (self->have_query)
    {
      self->backend->close_query (self->backend, self->query);
      self->have_query = FALSE;
      self->query = NULL;
    }
  /* Not committed: a file that was there stays as it was */
  g_clear_pointer (&self->output, ps_file_output_free);
  g_clear_error (&self->capture_error);
  g_clear_object (&self->capture);
  g_clear_pointer (&self->writer, ps_plv2_writer_free);
  g_clear_pointer (&self->records, g_byte_array_unref);
  g_clear_pointer (&self->buffer, g_byte_array_unref);
  g_clear_pointer (&self->parser, ps_parser_free);
  g_clear_pointer (&self->builder, ps_store_builder_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->store);
  g_clear_error (&self->error);
}

/* END, the parser's end, and where the capture is */
static void
finish_run (PsPerflibCollector *self)
{
  g_autoptr(GError) finish_error = NULL;
  g_autofree char *path = g_file_get_path (self->capture);

  /* No reading after the clock's last one; what it achieved goes into
   * the session */
  g_clear_pointer (&self->clock, ps_collector_clock_free);
  if (self->error == NULL && ps_plv2_writer_add_end (self->writer, utc_now (), &self->error))
    hand_over (self, &self->error);
  if (self->error == NULL && !ps_parser_finish (self->parser, &finish_error))
    self->error = g_steal_pointer (&finish_error);
  if (self->error != NULL)
    ps_event_store_set_error (self->store, self->error);
  ps_store_builder_flush (self->builder);

  if (self->capture_error == NULL)
    ps_file_output_commit (self->output, NULL, &self->capture_error);
  if (ps_event_store_get_n_sessions (self->store) > 0)
    {
      ps_event_store_set_metadata (self->store, 0, "collector", "perflib");
      if (self->capture_error != NULL)
        {
          g_autofree char *name = g_file_get_parse_name (self->capture);
          g_autofree char *message = NULL;

          ps_file_output_note_kept (self->output, &self->capture_error);
          /* Translators: the first %s is a file name, the second why it could not be written */
          message = g_strdup_printf (_("The PLV2 capture could not be saved to “%s”: %s"), name,
                                     self->capture_error->message);
          ps_event_store_add_warning (self->store, PS_SEVERITY_WARNING, "W-CAPTURE-NOT-SAVED", 0, 0, 0, message);
        }
      else if (path != NULL)
        ps_event_store_set_metadata (self->store, 0, "capture", path);
    }
  ps_event_store_emit_appended (self->store);
}

/* --- PsCollector ------------------------------------------------------------------------------- */

static const char *
ps_perflib_collector_get_name (PsCollector *collector)
{
  return "perflib";
}

static const char *
ps_perflib_collector_get_display_name (PsCollector *collector)
{
  return _("Windows performance counters (PerfLib)");
}

static const PsCollectorOption *
ps_perflib_collector_list_options (PsCollector *collector,
                                   guint       *n_options)
{
  *n_options = G_N_ELEMENTS (options);
  return options;
}

static void
ps_perflib_collector_start_async (PsCollector         *collector,
                                  PsEventStore        *store,
                                  GHashTable          *table,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  PsPerflibCollector *self = PS_PERFLIB_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, ps_perflib_collector_start_async);

  if (ps_collector_task_return_if_recording (task, self->store != NULL))
    return;

  if (!start_collecting (self, store, table, &error))
    {
      /* A capture file begun for nothing is never put in place */
      stop_collecting (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
ps_perflib_collector_stop_async (PsCollector         *collector,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  PsPerflibCollector *self = PS_PERFLIB_COLLECTOR (collector);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, ps_perflib_collector_stop_async);

  if (ps_collector_task_return_if_not_recording (task, self->store != NULL))
    return;

  finish_run (self);
  stop_collecting (self);
  g_task_return_boolean (task, TRUE);
}

static void
ps_perflib_collector_iface_init (PsCollectorInterface *iface)
{
  iface->get_name = ps_perflib_collector_get_name;
  iface->get_display_name = ps_perflib_collector_get_display_name;
  iface->list_options = ps_perflib_collector_list_options;
  iface->start_async = ps_perflib_collector_start_async;
  iface->stop_async = ps_perflib_collector_stop_async;
  iface->check_available = ps_perflib_collector_check_available;
}

static void
ps_perflib_collector_dispose (GObject *object)
{
  stop_collecting (PS_PERFLIB_COLLECTOR (object));
  G_OBJECT_CLASS (ps_perflib_collector_parent_class)->dispose (object);
}

static void
ps_perflib_collector_class_init (PsPerflibCollectorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ps_perflib_collector_dispose;
}

static void
ps_perflib_collector_class_finalize (PsPerflibCollectorClass *klass)
{
}

static void
ps_perflib_collector_init (PsPerflibCollector *self)
{
  self->backend = ps_perflib_backend_get_system ();
}

void
ps_perflib_collector_register (GTypeModule *module)
{
  ps_perflib_collector_register_type (module);
}

void
ps_perflib_collector_set_backend (PsPerflibCollector     *self,
                                  const PsPerflibBackend *backend)
{
  g_return_if_fail (PS_IS_PERFLIB_COLLECTOR (self));
  g_return_if_fail (self->store == NULL);

  self->backend = backend;
}

#ifndef G_OS_WIN32
const PsPerflibBackend *
ps_perflib_backend_get_system (void)
{
  return NULL;
}
#endif
