/* ps-symbols.c — function names for code addresses, from ELF files under a sysroot
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.1 (what pmcstat reads of an image and how a pc
 * becomes a function).
 *
 * The ELF files are read with elfutils' libelf through the gelf_*
 * accessors, so ELF32 and ELF64 of either byte order look the same here.
 * An image is read once, completely: afterwards it is an immutable sorted
 * array of [start, end) → interned name, so a lookup is a binary search
 * that allocates nothing.
 */
/* O_CLOEXEC, lstat () and strnlen () are POSIX.1-2008, not C11 */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gmodule.h>

#include "ps-symbols.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif
#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* Symbolic links followed while resolving one path, as Linux's MAXSYMLINKS */
#define MAX_SYMLINKS 40

typedef struct
{
  guint64     start;
  guint64     end;   /* exclusive */
  const char *name;  /* in the image's string chunk */
} PsElfSymbol;

struct _PsElfImage
{
  char         *recorded_path;
  char         *file;
  /* The file's path relative to the sysroot, as on the FreeBSD machine */
  char         *relative_path;
  char         *symbol_file;
  char         *interpreter;
  char         *build_id;
  char         *debuglink;

  guint64       vaddr;
  guint64       start;
  guint64       end;
  guint64       entry;
  guint         elf_class;
  guint         machine;
  guint         type;
  gboolean      has_symtab;

  PsElfSymbol  *symbols;
  gsize         n_symbols;
  GStringChunk *names;
};

typedef struct
{
  PsElfImage *image;
  GError     *error;
} CacheEntry;

struct _PsSymbolResolver
{
  char       *sysroot;
  /* recorded path → CacheEntry: successes and failures alike */
  GHashTable *cache;
};

/* What a symbol table gives before the ends are known */
typedef struct
{
  guint64     start;
  guint64     size;
  const char *name;
  guint       binding;
} RawSymbol;

G_DEFINE_QUARK (ps-symbol-error-quark, ps_symbol_error)

static void
ensure_libelf (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      elf_version (EV_CURRENT);
      g_once_init_leave (&initialized, 1);
    }
}

/* Demangling */

typedef char *(*CxaDemangleFunc) (const char *mangled,
                                  char       *buffer,
                                  size_t     *length,
                                  int        *status);

/* __cxa_demangle from whichever C++ runtime this system has, so that the
 * project needs no C++ toolchain; NULL when there is none. */
static CxaDemangleFunc
get_cxa_demangle (void)
{
  static gsize initialized = 0;
  static CxaDemangleFunc demangle_func = NULL;

  if (g_once_init_enter (&initialized))
    {
      static const char * const runtimes[] = {
        "libstdc++.so.6",
        "libc++abi.so.1",
        "libc++.so.1",
      };

      for (guint i = 0; i < G_N_ELEMENTS (runtimes) && demangle_func == NULL; i++)
        {
          GModule *module = g_module_open (runtimes[i], G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
          gpointer symbol = NULL;

          if (module == NULL)
            continue;
          if (g_module_symbol (module, "__cxa_demangle", &symbol) && symbol != NULL)
            {
              demangle_func = (CxaDemangleFunc) symbol;
              /* Names demangled by it live on; so does the runtime */
              g_module_make_resident (module);
            }
          else
            g_module_close (module);
        }
      g_once_init_leave (&initialized, 1);
    }

  return demangle_func;
}

char *
ps_symbols_demangle (const char *name)
{
  CxaDemangleFunc demangle_func;
  char *demangled;
  char *result;
  int status = -1;

  if (name == NULL || !g_str_has_prefix (name, "_Z"))
    return NULL;
  if ((demangle_func = get_cxa_demangle ()) == NULL)
    return NULL;

  demangled = demangle_func (name, NULL, NULL, &status);
  if (demangled == NULL || status != 0)
    {
      free (demangled);
      return NULL;
    }
  /* malloc ()ed by the runtime: hand out GLib memory */
  result = g_strdup (demangled);
  free (demangled);
  return result;
}

/* Images */

static void
ps_elf_image_free (PsElfImage *image)
{
  g_free (image->recorded_path);
  g_free (image->file);
  g_free (image->relative_path);
  g_free (image->symbol_file);
  g_free (image->interpreter);
  g_free (image->build_id);
  g_free (image->debuglink);
  g_free (image->symbols);
  if (image->names != NULL)
    g_string_chunk_free (image->names);
  g_free (image);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsElfImage, ps_elf_image_free)

/* An open ELF file: the descriptor must outlive the Elf handle */
typedef struct
{
  int  fd;
  Elf *elf;
} ElfFile;

static void
elf_file_close (ElfFile *file)
{
  if (file->elf != NULL)
    elf_end (file->elf);
  if (file->fd >= 0)
    close (file->fd);
  file->elf = NULL;
  file->fd = -1;
}

static gboolean
elf_file_open (ElfFile     *file,
               const char  *path,
               GError     **error)
{
  struct stat st;
  int saved_errno;

  ensure_libelf ();
  file->fd = -1;
  file->elf = NULL;

  file->fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (file->fd < 0)
    {
      saved_errno = errno;
      g_set_error (error, PS_SYMBOL_ERROR,
                   saved_errno == ENOENT ? PS_SYMBOL_ERROR_NOT_FOUND : PS_SYMBOL_ERROR_IO,
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }
  if (fstat (file->fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file"), path);
      elf_file_close (file);
      return FALSE;
    }

  file->elf = elf_begin (file->fd, ELF_C_READ_MMAP, NULL);
  if (file->elf == NULL || elf_kind (file->elf) != ELF_K_ELF)
    {
      g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_ELF,
                   _("%s is not an ELF file"), path);
      elf_file_close (file);
      return FALSE;
    }

  return TRUE;
}

static void
set_invalid_error (GError     **error,
                   const char  *path,
                   const char  *what)
{
  g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_INVALID,
               _("%s is not a valid ELF file: %s (%s)"), path, what, elf_errmsg (-1));
}

static const char *
section_name (Elf           *elf,
              size_t         shstrndx,
              const GElf_Shdr *shdr)
{
  const char *name = elf_strptr (elf, shstrndx, shdr->sh_name);

  return name != NULL ? name : "";
}

static char *
read_build_id (Elf_Data *data)
{
  size_t offset = 0;
  GElf_Nhdr note;
  size_t name_offset;
  size_t desc_offset;

  while (offset < data->d_size &&
         (offset = gelf_getnote (data, offset, &note, &name_offset, &desc_offset)) > 0)
    {
      const guint8 *bytes = data->d_buf;

      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          memcmp (bytes + name_offset, "GNU", 4) == 0 && note.n_descsz > 0)
        {
          GString *hex = g_string_sized_new (note.n_descsz * 2);

          for (size_t i = 0; i < note.n_descsz; i++)
            g_string_append_printf (hex, "%02x", bytes[desc_offset + i]);
          return g_string_free (hex, FALSE);
        }
    }

  return NULL;
}

/* Everything of an image but its symbols (pmcstat's
 * pmcstat_image_get_elf_params) */
static gboolean
read_image_params (PsElfImage  *image,
                   Elf         *elf,
                   GError     **error)
{
  GElf_Ehdr ehdr;
  size_t n_phdrs = 0;
  size_t shstrndx = 0;
  gboolean have_exec_section = FALSE;
  Elf_Scn *scn = NULL;

  if (gelf_getehdr (elf, &ehdr) == NULL)
    {
      set_invalid_error (error, image->file, _("no ELF header"));
      return FALSE;
    }
  if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN && ehdr.e_type != ET_REL)
    {
      g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_INVALID,
                   _("%s is an ELF file of type %u, not an executable, shared object or kernel module"),
                   image->file, (guint) ehdr.e_type);
      return FALSE;
    }
  image->elf_class = gelf_getclass (elf) == ELFCLASS32 ? 32 : 64;
  image->machine = ehdr.e_machine;
  image->type = ehdr.e_type;
  image->entry = ehdr.e_entry;

  if (elf_getphdrnum (elf, &n_phdrs) != 0)
    {
      set_invalid_error (error, image->file, _("unreadable program headers"));
      return FALSE;
    }
  for (size_t i = 0; i < n_phdrs; i++)
    {
      GElf_Phdr phdr;

      if (gelf_getphdr (elf, i, &phdr) == NULL)
        continue;
      if (phdr.p_type == PT_LOAD && (phdr.p_flags & PF_X) != 0 && image->vaddr == 0)
        {
          /* Only the first executable segment counts; an alignment of 0
           * or 1 means none */
          image->vaddr = phdr.p_align > 1 ? phdr.p_vaddr & ~(phdr.p_align - 1) : phdr.p_vaddr;
        }
      else if (phdr.p_type == PT_INTERP && image->interpreter == NULL)
        {
          size_t file_size = 0;
          const char *raw = elf_rawfile (elf, &file_size);

          if (raw != NULL && phdr.p_offset < file_size && phdr.p_filesz > 0)
            {
              gsize length = MIN (phdr.p_filesz, file_size - phdr.p_offset);

              length = strnlen (raw + phdr.p_offset, length);
              image->interpreter = g_strndup (raw + phdr.p_offset, length);
            }
        }
    }

  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    {
      set_invalid_error (error, image->file, _("unreadable section names"));
      return FALSE;
    }
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;

      if (gelf_getshdr (scn, &shdr) == NULL)
        continue;
      name = section_name (elf, shstrndx, &shdr);

      if ((shdr.sh_flags & SHF_EXECINSTR) != 0 && shdr.sh_size > 0)
        {
          if (!have_exec_section || shdr.sh_addr < image->start)
            image->start = shdr.sh_addr;
          if (!have_exec_section || shdr.sh_addr + shdr.sh_size > image->end)
            image->end = shdr.sh_addr + shdr.sh_size;
          have_exec_section = TRUE;
        }

      if (shdr.sh_type == SHT_SYMTAB)
        image->has_symtab = TRUE;
      else if (shdr.sh_type == SHT_NOTE && image->build_id == NULL)
        {
          Elf_Data *data = elf_getdata (scn, NULL);

          if (data != NULL && data->d_buf != NULL)
            image->build_id = read_build_id (data);
        }
      else if (shdr.sh_type == SHT_PROGBITS && image->debuglink == NULL &&
               strcmp (name, ".gnu_debuglink") == 0)
        {
          Elf_Data *data = elf_getdata (scn, NULL);

          /* A file name, NUL, padding and a CRC; only a plain name is used */
          if (data != NULL && data->d_buf != NULL && data->d_size > 0)
            {
              gsize length = strnlen (data->d_buf, data->d_size);

              if (length > 0 && length < data->d_size &&
                  memchr (data->d_buf, '/', length) == NULL)
                image->debuglink = g_strndup (data->d_buf, length);
            }
        }
    }

  return TRUE;
}

/* The function symbols of one symbol table section */
static void
collect_symbols (PsElfImage *image,
                 Elf        *elf,
                 Elf_Scn    *symbol_scn,
                 GArray     *raw_symbols)
{
  GElf_Shdr shdr;
  Elf_Data *data;
  size_t count;

  if (gelf_getshdr (symbol_scn, &shdr) == NULL || shdr.sh_entsize == 0)
    return;
  if ((data = elf_getdata (symbol_scn, NULL)) == NULL)
    return;
  count = MIN (shdr.sh_size / shdr.sh_entsize, data->d_size / shdr.sh_entsize);

  for (size_t i = 0; i < count; i++)
    {
      GElf_Sym sym;
      RawSymbol raw;
      const char *name;
      guint type;
      g_autofree char *demangled = NULL;

      if (gelf_getsym (data, (int) i, &sym) == NULL)
        continue;
      type = GELF_ST_TYPE (sym.st_info);
      if (type != STT_FUNC && type != STT_GNU_IFUNC)
        continue;
      if (sym.st_shndx == SHN_UNDEF)
        continue;
      name = elf_strptr (elf, shdr.sh_link, sym.st_name);
      if (name == NULL || name[0] == '\0')
        continue;

      raw.start = sym.st_value;
      /* A relocatable object (amd64 kernel modules) gives values relative
       * to their section; sections that have been laid out say where */
      if (image->type == ET_REL && sym.st_shndx < SHN_LORESERVE)
        {
          GElf_Shdr target;
          Elf_Scn *target_scn = elf_getscn (elf, sym.st_shndx);

          if (target_scn != NULL && gelf_getshdr (target_scn, &target) != NULL)
            raw.start += target.sh_addr;
        }
      /* The low bit of an ARM function address selects Thumb code */
      if (image->machine == EM_ARM)
        raw.start &= ~(guint64) 1;
      raw.size = sym.st_size;
      raw.binding = GELF_ST_BIND (sym.st_info);

      demangled = ps_symbols_demangle (name);
      raw.name = g_string_chunk_insert_const (image->names, demangled != NULL ? demangled : name);
      g_array_append_val (raw_symbols, raw);
    }
}

static int
binding_rank (guint binding)
{
  switch (binding)
    {
    case STB_GLOBAL: return 0;
    case STB_WEAK:   return 1;
    default:         return 2;
    }
}

/* By address; of aliases, the sized, global one first */
static int
compare_raw_symbols (gconstpointer a,
                     gconstpointer b)
{
  const RawSymbol *sa = a;
  const RawSymbol *sb = b;

  if (sa->start != sb->start)
    return sa->start < sb->start ? -1 : 1;
  if ((sa->size == 0) != (sb->size == 0))
    return sa->size == 0 ? 1 : -1;
  if (binding_rank (sa->binding) != binding_rank (sb->binding))
    return binding_rank (sa->binding) - binding_rank (sb->binding);
  return strcmp (sa->name, sb->name);
}

/* Sorts, drops aliases and gives every symbol its end: its size, or for a
 * zero-sized symbol the next symbol's start (pmcstat does the same). */
static void
finish_symbols (PsElfImage *image,
                GArray     *raw_symbols)
{
  RawSymbol *raw = (RawSymbol *) (gpointer) raw_symbols->data;
  gsize n_unique = 0;

  g_array_sort (raw_symbols, compare_raw_symbols);
  for (gsize i = 0; i < raw_symbols->len; i++)
    if (n_unique == 0 || raw[i].start != raw[n_unique - 1].start)
      raw[n_unique++] = raw[i];

  image->symbols = g_new (PsElfSymbol, MAX (n_unique, 1));
  image->n_symbols = n_unique;
  for (gsize i = 0; i < n_unique; i++)
    {
      PsElfSymbol *symbol = &image->symbols[i];

      symbol->start = raw[i].start;
      symbol->name = raw[i].name;
      if (raw[i].size > 0)
        symbol->end = raw[i].size > G_MAXUINT64 - raw[i].start ? G_MAXUINT64 : raw[i].start + raw[i].size;
      else if (i + 1 < n_unique)
        symbol->end = raw[i + 1].start;
      else if (image->end > raw[i].start)
        symbol->end = image->end;
      else
        symbol->end = raw[i].start + 1;
    }
}

static Elf_Scn *
find_section_of_type (Elf    *elf,
                      guint32 type)
{
  Elf_Scn *scn = NULL;

  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;

      if (gelf_getshdr (scn, &shdr) != NULL && shdr.sh_type == type)
        return scn;
    }
  return NULL;
}

/* Reads the symbols of one table into the image; FALSE when it holds no
 * function at all */
static gboolean
load_symbols (PsElfImage *image,
              Elf        *elf,
              Elf_Scn    *symbol_scn,
              const char *path)
{
  g_autoptr(GArray) raw_symbols = g_array_new (FALSE, FALSE, sizeof (RawSymbol));

  collect_symbols (image, elf, symbol_scn, raw_symbols);
  if (raw_symbols->len == 0)
    return FALSE;

  finish_symbols (image, raw_symbols);
  g_free (image->symbol_file);
  image->symbol_file = g_strdup (path);
  return TRUE;
}

/* Whether a candidate debug file belongs to the image: same machine and
 * class, the same build-id when both have one, and a .symtab. */
static gboolean
try_debug_file (PsElfImage *image,
                const char *path)
{
  g_autoptr(PsElfImage) debug = NULL;
  ElfFile file;
  Elf_Scn *symtab;
  gboolean found = FALSE;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  if (!elf_file_open (&file, path, NULL))
    return FALSE;

  debug = g_new0 (PsElfImage, 1);
  debug->file = g_strdup (path);
  if (read_image_params (debug, file.elf, NULL) &&
      debug->machine == image->machine &&
      debug->elf_class == image->elf_class &&
      (image->build_id == NULL || debug->build_id == NULL ||
       strcmp (image->build_id, debug->build_id) == 0) &&
      (symtab = find_section_of_type (file.elf, SHT_SYMTAB)) != NULL)
    {
      /* Kept by the image: the debug file's symbols are link-time
       * addresses of the same layout */
      found = load_symbols (image, file.elf, symtab, path);
    }

  elf_file_close (&file);
  return found;
}

/* Separate debug files, in order: by build-id, by FreeBSD's
 * /usr/lib/debug/<path>.debug, by the .gnu_debuglink name next to the
 * file (also in its .debug folder) and under /usr/lib/debug/<dir>/. */
static gboolean
load_debug_symbols (PsElfImage *image,
                    const char *sysroot)
{
  g_autofree char *debug_root = g_build_filename (sysroot, "usr", "lib", "debug", NULL);

  if (image->build_id != NULL && strlen (image->build_id) > 2)
    {
      g_autofree char *head = g_strndup (image->build_id, 2);
      g_autofree char *rest = g_strconcat (image->build_id + 2, ".debug", NULL);
      g_autofree char *path = g_build_filename (debug_root, ".build-id", head, rest, NULL);

      if (try_debug_file (image, path))
        return TRUE;
    }

  {
    g_autofree char *name = g_strconcat (image->relative_path, ".debug", NULL);
    g_autofree char *path = g_build_filename (debug_root, name, NULL);

    if (try_debug_file (image, path))
      return TRUE;
  }

  if (image->debuglink != NULL)
    {
      g_autofree char *file_dir = g_path_get_dirname (image->file);
      g_autofree char *relative_dir = g_path_get_dirname (image->relative_path);
      g_autofree char *next_to = g_build_filename (file_dir, image->debuglink, NULL);
      g_autofree char *in_dot_debug = g_build_filename (file_dir, ".debug", image->debuglink, NULL);
      g_autofree char *in_debug_root = g_build_filename (debug_root, relative_dir, image->debuglink, NULL);

      /* The debug link may name the file itself */
      if (strcmp (next_to, image->file) != 0 && try_debug_file (image, next_to))
        return TRUE;
      if (try_debug_file (image, in_dot_debug))
        return TRUE;
      if (try_debug_file (image, in_debug_root))
        return TRUE;
    }

  return FALSE;
}

static PsElfImage *
ps_elf_image_load (const char  *sysroot,
                   const char  *recorded_path,
                   const char  *file_path,
                   const char  *relative_path,
                   GError     **error)
{
  g_autoptr(PsElfImage) image = g_new0 (PsElfImage, 1);
  ElfFile file;
  Elf_Scn *symtab;

  image->recorded_path = g_strdup (recorded_path);
  image->file = g_strdup (file_path);
  image->relative_path = g_strdup (relative_path);
  image->names = g_string_chunk_new (4096);

  if (!elf_file_open (&file, file_path, error))
    return NULL;
  if (!read_image_params (image, file.elf, error))
    {
      elf_file_close (&file);
      return NULL;
    }

  symtab = find_section_of_type (file.elf, SHT_SYMTAB);
  if (symtab == NULL || !load_symbols (image, file.elf, symtab, file_path))
    {
      if (!load_debug_symbols (image, sysroot))
        {
          Elf_Scn *dynsym = find_section_of_type (file.elf, SHT_DYNSYM);

          if (dynsym != NULL)
            load_symbols (image, file.elf, dynsym, file_path);
        }
    }

  elf_file_close (&file);
  return g_steal_pointer (&image);
}

const char *
ps_elf_image_get_recorded_path (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  return image->recorded_path;
}

const char *
ps_elf_image_get_file (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  return image->file;
}

guint
ps_elf_image_get_elf_class (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, 0);
  return image->elf_class;
}

guint64
ps_elf_image_get_vaddr (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, 0);
  return image->vaddr;
}

guint64
ps_elf_image_get_start (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, 0);
  return image->start;
}

guint64
ps_elf_image_get_end (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, 0);
  return image->end;
}

guint64
ps_elf_image_get_entry (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, 0);
  return image->entry;
}

const char *
ps_elf_image_get_interpreter (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  return image->interpreter;
}

const char *
ps_elf_image_get_build_id (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  return image->build_id;
}

gboolean
ps_elf_image_has_symbols (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, FALSE);
  return image->n_symbols > 0;
}

guint
ps_elf_image_get_n_symbols (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, 0);
  return (guint) image->n_symbols;
}

const char *
ps_elf_image_get_symbol_file (PsElfImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  return image->symbol_file;
}

const char *
ps_elf_image_lookup (PsElfImage *image,
                     guint64     address,
                     guint64    *symbol_start)
{
  const PsElfSymbol *symbol;
  gsize low = 0;
  gsize high;

  g_return_val_if_fail (image != NULL, NULL);

  /* The first symbol starting after the address; the one before may
   * contain it */
  high = image->n_symbols;
  while (low < high)
    {
      gsize middle = low + (high - low) / 2;

      if (image->symbols[middle].start <= address)
        low = middle + 1;
      else
        high = middle;
    }
  if (low == 0)
    return NULL;

  symbol = &image->symbols[low - 1];
  if (address >= symbol->end)
    return NULL;
  if (symbol_start != NULL)
    *symbol_start = symbol->start;
  return symbol->name;
}

const char *
ps_elf_image_lookup_pc (PsElfImage *image,
                        guint64     load_address,
                        guint64     pc,
                        guint64    *symbol_start)
{
  g_return_val_if_fail (image != NULL, NULL);

  /* Unsigned arithmetic wraps as the address space does */
  return ps_elf_image_lookup (image, image->vaddr + (pc - load_address), symbol_start);
}

/* The resolver */

static void
cache_entry_free (gpointer data)
{
  CacheEntry *entry = data;

  g_clear_pointer (&entry->image, ps_elf_image_free);
  g_clear_error (&entry->error);
  g_free (entry);
}

PsSymbolResolver *
ps_symbol_resolver_new (const char *sysroot)
{
  PsSymbolResolver *resolver = g_new0 (PsSymbolResolver, 1);

  resolver->sysroot = g_strdup (sysroot);
  resolver->cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cache_entry_free);
  return resolver;
}

void
ps_symbol_resolver_free (PsSymbolResolver *resolver)
{
  if (resolver == NULL)
    return;
  g_hash_table_unref (resolver->cache);
  g_free (resolver->sysroot);
  g_free (resolver);
}

const char *
ps_symbol_resolver_get_sysroot (PsSymbolResolver *resolver)
{
  g_return_val_if_fail (resolver != NULL, NULL);
  return resolver->sysroot;
}

/* Pushes the components of a path on a stack, the first one last */
static void
push_components (GPtrArray  *stack,
                 const char *path)
{
  g_auto(GStrv) components = g_strsplit (path, "/", -1);

  for (guint i = g_strv_length (components); i > 0; i--)
    if (components[i - 1][0] != '\0' && strcmp (components[i - 1], ".") != 0)
      g_ptr_array_add (stack, g_strdup (components[i - 1]));
}

static char *
join_under (const char *sysroot,
            GPtrArray  *components)
{
  GString *path = g_string_new (sysroot);

  for (guint i = 0; i < components->len; i++)
    {
      if (path->len == 0 || path->str[path->len - 1] != G_DIR_SEPARATOR)
        g_string_append_c (path, G_DIR_SEPARATOR);
      g_string_append (path, g_ptr_array_index (components, i));
    }
  return g_string_free (path, FALSE);
}

/* Where a path of the FreeBSD machine is under the sysroot, following
 * symbolic links the way that machine would: an absolute target starts
 * again at the sysroot, and ".." stops there. NULL when a component does
 * not exist; else the file and its path relative to the sysroot. */
static char *
resolve_in_sysroot (const char  *sysroot,
                    const char  *path,
                    char       **relative_path)
{
  g_autoptr(GPtrArray) pending = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) resolved = g_ptr_array_new_with_free_func (g_free);
  guint n_links = 0;

  push_components (pending, path);
  while (pending->len > 0)
    {
      g_autofree char *component = g_ptr_array_steal_index (pending, pending->len - 1);
      g_autofree char *candidate = NULL;
      GStatBuf st;

      if (strcmp (component, "..") == 0)
        {
          if (resolved->len > 0)
            g_ptr_array_remove_index (resolved, resolved->len - 1);
          continue;
        }

      g_ptr_array_add (resolved, g_strdup (component));
      candidate = join_under (sysroot, resolved);
      if (g_lstat (candidate, &st) != 0)
        return NULL;
      if (S_ISLNK (st.st_mode))
        {
          g_autofree char *target = g_file_read_link (candidate, NULL);

          if (target == NULL || ++n_links > MAX_SYMLINKS)
            return NULL;
          g_ptr_array_remove_index (resolved, resolved->len - 1);
          if (g_path_is_absolute (target))
            g_ptr_array_set_size (resolved, 0);
          push_components (pending, target);
        }
    }

  if (relative_path != NULL)
    {
      g_ptr_array_add (resolved, NULL);
      *relative_path = g_strjoinv ("/", (char **) resolved->pdata);
      g_ptr_array_set_size (resolved, resolved->len - 1);
    }
  return join_under (sysroot, resolved);
}

static PsElfImage *
open_image (PsSymbolResolver  *resolver,
            const char        *recorded_path,
            GError           **error)
{
  /* Kernel modules are recorded by bare name; pmcstat looks for them in
   * the kernel's folder, FreeBSD's loader also in /boot/modules */
  static const char * const module_dirs[] = { "boot/kernel", "boot/modules" };
  const gboolean bare_name = strchr (recorded_path, '/') == NULL;
  g_autofree char *file = NULL;
  g_autofree char *relative_path = NULL;

  if (resolver->sysroot == NULL)
    {
      g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NO_SYSROOT,
                   _("No sysroot is set: “%s” cannot be looked up"), recorded_path);
      return NULL;
    }

  file = resolve_in_sysroot (resolver->sysroot, recorded_path, &relative_path);
  for (guint i = 0; bare_name && file == NULL && i < G_N_ELEMENTS (module_dirs); i++)
    {
      g_autofree char *path = g_build_filename (module_dirs[i], recorded_path, NULL);

      file = resolve_in_sysroot (resolver->sysroot, path, &relative_path);
    }

  if (file == NULL || relative_path[0] == '\0')
    {
      if (bare_name)
        g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_FOUND,
                     _("“%s” was not found under %s, nor in its boot/kernel or boot/modules"),
                     recorded_path, resolver->sysroot);
      else
        g_set_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_FOUND,
                     _("“%s” was not found under %s"), recorded_path, resolver->sysroot);
      return NULL;
    }

  return ps_elf_image_load (resolver->sysroot, recorded_path, file, relative_path, error);
}

PsElfImage *
ps_symbol_resolver_get_image (PsSymbolResolver  *resolver,
                              const char        *recorded_path,
                              GError           **error)
{
  CacheEntry *entry;

  g_return_val_if_fail (resolver != NULL, NULL);
  g_return_val_if_fail (recorded_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  entry = g_hash_table_lookup (resolver->cache, recorded_path);
  if (entry == NULL)
    {
      entry = g_new0 (CacheEntry, 1);
      entry->image = open_image (resolver, recorded_path, &entry->error);
      g_hash_table_insert (resolver->cache, g_strdup (recorded_path), entry);
    }

  if (entry->image == NULL && error != NULL)
    *error = g_error_copy (entry->error);
  return entry->image;
}
