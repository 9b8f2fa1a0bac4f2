/* ps-symbols.h — function names for code addresses, from ELF files under a sysroot
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.1 (images, load addresses, PC → function).
 *
 * A FreeBSD user copies the machine's "/" (or parts of it: /boot/kernel,
 * /lib, /usr/lib, /usr/lib/debug) to a folder, the sysroot. The resolver
 * finds the ELF file for a path as recorded in a log under that folder and
 * reads what pmcstat reads of an image: pi_vaddr, pi_start/pi_end, the
 * entry point, the interpreter, and the function symbols (from .symtab,
 * else from a separate debug file, else from .dynsym).
 *
 * Addresses: an image answers lookups in its link-time address space.
 * For an image linked (mapped) at load address L, a sampled pc belongs to
 * the image when pi_start + (L − pi_vaddr) <= pc < pi_end + (L − pi_vaddr),
 * and its function is the one at link-time address
 *
 *     pi_vaddr + (pc − L)
 *
 * which is what ps_elf_image_lookup () takes (ps_elf_image_lookup_pc ()
 * does the arithmetic). Symbol starts are returned in the same space.
 *
 * A resolver is used from one thread at a time. An image never changes
 * once returned, so lookups on it may run on several threads at once.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PS_SYMBOL_ERROR (ps_symbol_error_quark ())

typedef enum
{
  /* The resolver has no sysroot, so it finds nothing. */
  PS_SYMBOL_ERROR_NO_SYSROOT,
  /* No file for the recorded path under the sysroot. */
  PS_SYMBOL_ERROR_NOT_FOUND,
  /* The path names a directory, device, … */
  PS_SYMBOL_ERROR_NOT_REGULAR_FILE,
  /* The file could not be opened or read. */
  PS_SYMBOL_ERROR_IO,
  /* The file is not an ELF file at all. */
  PS_SYMBOL_ERROR_NOT_ELF,
  /* An ELF file that libelf cannot read, or of a kind with no code (core). */
  PS_SYMBOL_ERROR_INVALID,
} PsSymbolError;

GQuark ps_symbol_error_quark (void);

typedef struct _PsSymbolResolver PsSymbolResolver;
typedef struct _PsElfImage       PsElfImage;

/* sysroot: the folder holding the copy of the FreeBSD machine's "/", or
 * NULL (then every image is an error). */
PsSymbolResolver *ps_symbol_resolver_new        (const char        *sysroot);
void              ps_symbol_resolver_free       (PsSymbolResolver  *resolver);
const char       *ps_symbol_resolver_get_sysroot (PsSymbolResolver *resolver);
/* The image for a path as recorded on the FreeBSD machine
 * ("/lib/libc.so.7", "/boot/kernel/kernel"), looked up as
 * <sysroot>/<path>; a bare name ("if_em.ko", "kernel") is also looked up
 * under <sysroot>/boot/kernel and <sysroot>/boot/modules. Symbolic links
 * inside the sysroot are followed as the FreeBSD machine would (absolute
 * targets stay inside the sysroot), and ".." never leaves it.
 *
 * Every path asked for is opened once: later calls return the same image,
 * or the same error. The image is owned by the resolver. */
PsElfImage       *ps_symbol_resolver_get_image  (PsSymbolResolver  *resolver,
                                                 const char        *recorded_path,
                                                 GError           **error);

/* The path the image was asked for with */
const char *ps_elf_image_get_recorded_path (PsElfImage *image);
/* The file that was read, on this machine */
const char *ps_elf_image_get_file          (PsElfImage *image);
/* 32 or 64 */
guint       ps_elf_image_get_elf_class     (PsElfImage *image);
/* pmcstat's pi_vaddr: the virtual address of the first executable PT_LOAD
 * segment, rounded down to its alignment (0 without one, as for the
 * relocatable kernel modules of amd64) */
guint64     ps_elf_image_get_vaddr         (PsElfImage *image);
/* pmcstat's pi_start and pi_end: the lowest start and highest end of the
 * sections with SHF_EXECINSTR (both 0 without such sections) */
guint64     ps_elf_image_get_start         (PsElfImage *image);
guint64     ps_elf_image_get_end           (PsElfImage *image);
guint64     ps_elf_image_get_entry         (PsElfImage *image);
/* The PT_INTERP path ("/libexec/ld-elf.so.1"), or NULL */
const char *ps_elf_image_get_interpreter   (PsElfImage *image);
/* The GNU build-id in lower-case hex, or NULL */
const char *ps_elf_image_get_build_id      (PsElfImage *image);

/* Whether any function symbol was found */
gboolean    ps_elf_image_has_symbols       (PsElfImage *image);
guint       ps_elf_image_get_n_symbols     (PsElfImage *image);
/* The file the symbols came from: the image itself or its separate debug
 * file; NULL without symbols */
const char *ps_elf_image_get_symbol_file   (PsElfImage *image);

/* The name of the function containing a link-time address (see the top
 * of this file), demangled when it is a C++ name and a C++ runtime is
 * available, or NULL. symbol_start (optional) receives the function's
 * link-time start address. O(log n), allocates nothing; the name is owned
 * by the image. */
const char *ps_elf_image_lookup            (PsElfImage *image,
                                            guint64     address,
                                            guint64    *symbol_start);
/* The same for a pc sampled while the image was loaded at load_address
 * (MAP_IN start, or the PROCEXEC address): looks up
 * pi_vaddr + (pc − load_address). */
const char *ps_elf_image_lookup_pc         (PsElfImage *image,
                                            guint64     load_address,
                                            guint64     pc,
                                            guint64    *symbol_start);

/* C++ names ("_ZN6Widget4drawEv") demangled by the C++ runtime, loaded
 * when first needed. NULL when the name is not a C++ name or no runtime
 * is available. Free with g_free (). */
char       *ps_symbols_demangle            (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsSymbolResolver, ps_symbol_resolver_free)

G_END_DECLS
