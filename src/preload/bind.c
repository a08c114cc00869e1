/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The drop-in's load-time binding (x86-64): each writable PLT slot of a
 * loaded object that the loader binds to the drop-in's memset, memcmp or
 * bcmp is written with the selected variant's address, so that the
 * object's calls skip the entry point's indirect jump, as calls bound by
 * memlane's IFUNC do (docs/design.md, "The LD_PRELOAD drop-in").
 *
 * Only what the loader itself would write, where it would write it:
 *   - PLT slots (R_X86_64_JUMP_SLOT) only.  A GOT slot (GLOB_DAT) is also
 *     the address a program takes, which must stay the same in every
 *     object.
 *   - A slot not bound yet, when the name's first definition is the
 *     drop-in's (no object ahead of it defines the name), is bound first
 *     by the loader: called with a length of 0, it resolves as on a first
 *     call, by the loader's own rules (versions, audit modules,
 *     LD_BIND_NOT), and goes on to the drop-in.  Only a slot that then
 *     holds the drop-in's entry point is rewritten.  Nothing else is
 *     called: another definition of memset (a program's own wrapper) may
 *     not be ready before main.
 *   - Slots in read-only memory (RELRO: objects linked with -z now) are
 *     left alone, with their one extra jump: no page protection changes.
 * Objects loaded later (dlopen) bind to the entry points as before.
 * This runs in every process at start-up: it calls no libc function per
 * slot (docs/design.md, "Start-up cost").
 */
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_DEFAULT */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>

#include "internal.h"

/* The drop-in's entry points themselves, whatever interposes on their
 * names (src/preload/preload.c). */
ML_HIDDEN extern void *ml_preload_memset(void *dst, int c, size_t n);
ML_HIDDEN extern int ml_preload_memcmp(const void *a, const void *b, size_t n);
ML_HIDDEN extern int ml_preload_bcmp(const void *a, const void *b, size_t n);

enum { BIND_MEMSET, BIND_MEMCMP, BIND_BCMP, BIND_COUNT };

static const char *const bind_names[BIND_COUNT] = {"memset", "memcmp", "bcmp"};

/* Whether two names are the same (no libc call: this runs for every
 * PLT slot of every object at start-up). */
static int name_is(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* Which of the three a slot's symbol names, or -1; most names fail on
 * their first byte. */
static int bind_which(const char *name)
{
    if (name[0] != 'm' && name[0] != 'b')
        return -1;
    for (int f = 0; f < BIND_COUNT; f++)
        if (name_is(name, bind_names[f]))
            return f;
    return -1;
}

/* An address from the dynamic section: glibc adds the load address to
 * most entries when it maps an object with a writable dynamic section,
 * not otherwise. */
static uintptr_t dyn_addr(const struct dl_phdr_info *o, Elf64_Addr v)
{
    return o->dlpi_addr && v < o->dlpi_addr ? o->dlpi_addr + v : v;
}

/* Whether an address lies in one of the object's segments. */
static int in_object(const struct dl_phdr_info *o, uintptr_t v)
{
    for (int i = 0; i < o->dlpi_phnum; i++) {
        const Elf64_Phdr *ph = &o->dlpi_phdr[i];
        uintptr_t lo = o->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && v >= lo && v - lo < ph->p_memsz)
            return 1;
    }
    return 0;
}

/* Whether [slot, slot+8) is in a writable segment and outside RELRO
 * (widened to whole pages, the unit of its protection). */
static int slot_writable(const struct dl_phdr_info *o, uintptr_t slot)
{
    int writable = 0;
    for (int i = 0; i < o->dlpi_phnum; i++) {
        const Elf64_Phdr *ph = &o->dlpi_phdr[i];
        uintptr_t lo = o->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && slot >= lo &&
            slot + sizeof(void *) <= hi)
            writable = 1;
        if (ph->p_type == PT_GNU_RELRO &&
            slot + sizeof(void *) > (lo & ~(uintptr_t)4095) &&
            slot < ((hi + 4095) & ~(uintptr_t)4095))
            return 0;
    }
    return writable;
}

/* What the binding reads from an object's dynamic section (0: absent). */
struct dyn_tables {
    uintptr_t jmprel, symtab, strtab, gnu_hash;
    size_t pltrelsz;
    int plt_not_rela; /* DT_PLTREL other than DT_RELA */
};

/* Read an object's dynamic section once: 0 if it has none. */
static int read_dynamic(const struct dl_phdr_info *o, struct dyn_tables *t)
{
    const Elf64_Dyn *dyn = NULL;
    for (int i = 0; i < o->dlpi_phnum; i++)
        if (o->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const Elf64_Dyn *)(o->dlpi_addr + o->dlpi_phdr[i].p_vaddr);
    *t = (struct dyn_tables){0};
    if (!dyn)
        return 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_JMPREL)
            t->jmprel = dyn_addr(o, dyn->d_un.d_ptr);
        else if (dyn->d_tag == DT_PLTRELSZ)
            t->pltrelsz = dyn->d_un.d_val;
        else if (dyn->d_tag == DT_PLTREL)
            t->plt_not_rela = dyn->d_un.d_val != DT_RELA;
        else if (dyn->d_tag == DT_SYMTAB)
            t->symtab = dyn_addr(o, dyn->d_un.d_ptr);
        else if (dyn->d_tag == DT_STRTAB)
            t->strtab = dyn_addr(o, dyn->d_un.d_ptr);
        else if (dyn->d_tag == DT_GNU_HASH)
            t->gnu_hash = dyn_addr(o, dyn->d_un.d_ptr);
    }
    return 1;
}

/* The GNU hash of a symbol name. */
static uint32_t gnu_hash(const char *name)
{
    uint32_t h = 5381;
    for (; *name; name++)
        h = h * 33 + (unsigned char)*name;
    return h;
}

/* Whether the object defines the name in its dynamic symbol table, by
 * its GNU hash table (a bloom filter, then one hash chain): 1 yes, 0 no,
 * -1 it has no such table.  A definition under a hidden version counts,
 * which only errs towards not binding. */
static int defines(const struct dyn_tables *t, const char *name)
{
    if (!t->gnu_hash || !t->symtab || !t->strtab)
        return -1;
    /* nbuckets, symoffset, bloom words, bloom shift; then the bloom
     * words (64-bit), the buckets, the chains. */
    const uint32_t *head = (const uint32_t *)t->gnu_hash;
    uint32_t nbuckets = head[0], symoffset = head[1], nbloom = head[2], shift = head[3];
    if (!nbuckets || !nbloom)
        return 0;
    const uint64_t *bloom = (const uint64_t *)(const void *)(head + 4);
    const uint32_t *buckets = (const uint32_t *)(bloom + nbloom);
    const uint32_t *chain = buckets + nbuckets;
    const Elf64_Sym *syms = (const Elf64_Sym *)t->symtab;

    uint32_t h = gnu_hash(name);
    uint64_t word = bloom[(h / 64) % nbloom];
    uint64_t mask = (1ULL << (h % 64)) | (1ULL << ((h >> shift) % 64));
    if ((word & mask) != mask)
        return 0;
    uint32_t i = buckets[h % nbuckets];
    if (i < symoffset)
        return 0;
    for (;; i++) {
        uint32_t hi = chain[i - symoffset];
        if ((hi | 1) == (h | 1) && syms[i].st_shndx != SHN_UNDEF &&
            name_is((const char *)t->strtab + syms[i].st_name, name))
            return 1;
        if (hi & 1)
            return 0;
    }
}

/* Which names an object ahead of the drop-in defines: the loader binds
 * those to that definition, not to the drop-in.  The loaded objects come
 * in the order of the global scope: the program, the preloaded objects,
 * then their libraries. */
struct defined_ahead {
    uintptr_t self; /* an address inside the drop-in */
    int defined[BIND_COUNT], unknown;
};

static int find_defined_ahead(struct dl_phdr_info *o, size_t size, void *data)
{
    struct defined_ahead *a = data;
    (void)size;
    if (in_object(o, a->self))
        return 1; /* the drop-in: stop */
    struct dyn_tables t;
    if (!read_dynamic(o, &t))
        return 0; /* no dynamic symbols: defines nothing */
    for (int f = 0; f < BIND_COUNT; f++) {
        int d = defines(&t, bind_names[f]);
        a->defined[f] |= d == 1;
        a->unknown |= d < 0;
    }
    return 0;
}

/* Per function: the drop-in's entry point, the selected variant, and
 * whether the entry point is the name's first definition. */
struct binding {
    uintptr_t entry[BIND_COUNT], variant[BIND_COUNT];
    int first[BIND_COUNT];
};

/* Bind a slot that is not bound yet (it holds v), as the loader would on
 * its first call (here with a length of 0); then read it again. */
static uintptr_t slot_bind(uintptr_t *slot, uintptr_t v, int f)
{
    static unsigned char scratch[1];
    if (f == BIND_MEMSET)
        ((ml_set_fn)v)(scratch, 0, 0);
    else
        ((ml_cmp_fn)v)(scratch, scratch, 0);
    return __atomic_load_n(slot, __ATOMIC_RELAXED);
}

static int bind_object(struct dl_phdr_info *o, size_t size, void *data)
{
    const struct binding *b = data;
    (void)size;
    struct dyn_tables t;
    if (!read_dynamic(o, &t) || t.plt_not_rela || !t.jmprel || !t.symtab || !t.strtab)
        return 0;

    const Elf64_Rela *r = (const Elf64_Rela *)t.jmprel;
    const Elf64_Sym *syms = (const Elf64_Sym *)t.symtab;
    for (size_t i = 0; i < t.pltrelsz / sizeof *r; i++) {
        if (ELF64_R_TYPE(r[i].r_info) != R_X86_64_JUMP_SLOT)
            continue;
        const Elf64_Sym *s = &syms[ELF64_R_SYM(r[i].r_info)];
        /* The object's own definition binds to itself. */
        if (s->st_shndx != SHN_UNDEF)
            continue;
        int f = bind_which((const char *)t.strtab + s->st_name);
        uintptr_t addr = o->dlpi_addr + r[i].r_offset;
        if (f < 0 || !slot_writable(o, addr))
            continue;
        uintptr_t *slot = (uintptr_t *)addr;
        uintptr_t v = __atomic_load_n(slot, __ATOMIC_RELAXED);
        /* Not bound yet: it points back into the object's PLT. */
        if (v != b->entry[f] && b->first[f] && in_object(o, v))
            v = slot_bind(slot, v, f);
        if (v == b->entry[f])
            __atomic_store_n(slot, b->variant[f], __ATOMIC_RELAXED);
    }
    return 0;
}

/* After the selection (made here too: this may run before dispatch.c's
 * own constructor), so that each slot gets the final variant. */
__attribute__((constructor)) static void ml_preload_bind(void)
{
    ml_select_at_load();
    struct binding b = {
        .entry = {(uintptr_t)ml_preload_memset, (uintptr_t)ml_preload_memcmp,
                  (uintptr_t)ml_preload_bcmp},
        .variant = {(uintptr_t)__atomic_load_n(&ml_memset_ptr, __ATOMIC_RELAXED),
                    (uintptr_t)__atomic_load_n(&ml_memcmp_ptr, __ATOMIC_RELAXED),
                    (uintptr_t)__atomic_load_n(&ml_bcmp_ptr, __ATOMIC_RELAXED)},
    };
    struct defined_ahead ahead = {.self = b.entry[0]};
    dl_iterate_phdr(find_defined_ahead, &ahead);
    for (int f = 0; f < BIND_COUNT; f++)
        b.first[f] = ahead.unknown
                         ? (uintptr_t)dlsym(RTLD_DEFAULT, bind_names[f]) == b.entry[f]
                         : !ahead.defined[f];
    dl_iterate_phdr(bind_object, &b);
}
