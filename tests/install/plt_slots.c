/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What this program's own PLT slots for memset, memcmp and bcmp hold when
 * main starts, one line each:
 *   NAME unbound          not bound yet (the slot points into this program)
 *   NAME entry            the address dlsym(RTLD_DEFAULT, NAME) gives
 *   NAME at FILE+0xOFF    anything else: the object it lies in, the offset
 * then calls each through the slot and checks the results.  The install
 * tests run it under the drop-in (src/preload/bind.c).  Built with
 * -fno-builtin, so that the calls below stay calls.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = {"memset", "memcmp", "bcmp"};

static uintptr_t at(const struct dl_phdr_info *o, ElfW(Addr) v)
{
    return o->dlpi_addr && v < o->dlpi_addr ? o->dlpi_addr + v : v;
}

/* The program itself is the first object dl_iterate_phdr reports. */
static int report(struct dl_phdr_info *o, size_t size, void *data)
{
    (void)size, (void)data;
    const ElfW(Dyn) *dyn = NULL;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < o->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &o->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(o->dlpi_addr + ph->p_vaddr);
        if (ph->p_type == PT_LOAD) {
            uintptr_t a = o->dlpi_addr + ph->p_vaddr;
            lo = a < lo ? a : lo;
            hi = a + ph->p_memsz > hi ? a + ph->p_memsz : hi;
        }
    }
    uintptr_t rel = 0, sym = 0, str = 0;
    size_t relsz = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_JMPREL)
            rel = at(o, dyn->d_un.d_ptr);
        else if (dyn->d_tag == DT_PLTRELSZ)
            relsz = dyn->d_un.d_val;
        else if (dyn->d_tag == DT_SYMTAB)
            sym = at(o, dyn->d_un.d_ptr);
        else if (dyn->d_tag == DT_STRTAB)
            str = at(o, dyn->d_un.d_ptr);
    }
    const ElfW(Rela) *r = (const ElfW(Rela) *)rel;
    for (unsigned f = 0; f < sizeof names / sizeof *names; f++) {
        const char *state = "missing";
        uintptr_t v = 0;
        for (size_t i = 0; rel && i < relsz / sizeof *r; i++) {
            const ElfW(Sym) *s = (const ElfW(Sym) *)sym + ELF64_R_SYM(r[i].r_info);
            if (strcmp((const char *)str + s->st_name, names[f]) == 0) {
                v = *(const uintptr_t *)(o->dlpi_addr + r[i].r_offset);
                state = v >= lo && v < hi                               ? "unbound"
                        : v == (uintptr_t)dlsym(RTLD_DEFAULT, names[f]) ? "entry"
                                                                        : NULL;
            }
        }
        Dl_info d;
        if (state)
            printf("%s %s\n", names[f], state);
        else if (dladdr((void *)v, &d) && d.dli_fname)
            printf("%s at %s+%#lx\n", names[f], d.dli_fname,
                   (unsigned long)(v - (uintptr_t)d.dli_fbase));
        else
            printf("%s at %#lx\n", names[f], (unsigned long)v);
    }
    return 1;
}

int main(void)
{
    dl_iterate_phdr(report, NULL);
    char a[100], b[100];
    memset(a, 'x', sizeof a);
    memset(b, 'x', sizeof b);
    b[70] = 'y';
    int ok = memcmp(a, b, 70) == 0 && memcmp(a, b, 71) < 0 && memcmp(b, a, 100) > 0 &&
             bcmp(a, b, 70) == 0 && bcmp(a, b, 100) != 0;
    puts(ok ? "ok" : "wrong results");
    return !ok;
}
