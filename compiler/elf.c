/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The check of a program's shared object before it is loaded
 * (docs/security.md). A binary the application hands to
 * clCreateProgramWithBinary, or one read back from anywhere, is not
 * trusted: dlopen would run its constructors, resolve its IFUNC
 * relocations (code of the object's own) and load the libraries it names
 * before refcl could look for its program table. So refcl reads what the
 * dynamic linker reads, the ELF header, the program headers and the
 * dynamic section with the relocations it names, every offset checked
 * against the file, and accepts only what the compiler emits: a shared
 * object for this machine, no interpreter, no TLS, no executable stack, no
 * initialisers or finalisers of any kind, no search paths, only the C,
 * math and vector math libraries needed, and relocations of the plain
 * kinds (relative, absolute, GOT and PLT slots).
 */
#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "refcl/compiler.h"

#if defined(__x86_64__)
#define MACHINE EM_X86_64
#define RELOC_NONE R_X86_64_NONE
#define RELOC_ABS R_X86_64_64
#define RELOC_GLOB R_X86_64_GLOB_DAT
#define RELOC_SLOT R_X86_64_JUMP_SLOT
#define RELOC_RELATIVE R_X86_64_RELATIVE
#elif defined(__aarch64__)
#define MACHINE EM_AARCH64
#define RELOC_NONE R_AARCH64_NONE
#define RELOC_ABS R_AARCH64_ABS64
#define RELOC_GLOB R_AARCH64_GLOB_DAT
#define RELOC_SLOT R_AARCH64_JUMP_SLOT
#define RELOC_RELATIVE R_AARCH64_RELATIVE
#else
#error "refcl's compiler knows x86-64 and AArch64"
#endif

/* The most bytes a segment of a program may span: far more than any
 * kernel needs, small enough that no sum of them overflows. */
#define SEGMENT_MAX ((uint64_t)1 << 32)

/* The libraries a program may need: the link stubs' (compiler/link/). */
static const char *const allowed_needed[] = {"libc.so.6", "libm.so.6",
                                             "libmvec.so.1"};

/* An object being checked: its bytes and where its program headers are.
 * Its structures are read with memcpy: the bytes need no alignment. */
struct image {
    const unsigned char *bytes;
    size_t size;
    uint64_t phoff;
    size_t phnum;
    uint64_t end; /* the end of the loaded memory, rounded to its pages */
    struct refcl_elf_memory memory; /* the loaded segments */
};

static bool in_file(const struct image *im, uint64_t offset, uint64_t size)
{
    return offset <= im->size && size <= im->size - offset;
}

static Elf64_Phdr phdr_at(const struct image *im, size_t i)
{
    Elf64_Phdr p;
    memcpy(&p, im->bytes + im->phoff + i * sizeof(p), sizeof(p));
    return p;
}

/* The file offset of @p size bytes at the address @p vaddr, if a loaded
 * segment holds them in the file. */
static bool address_offset(const struct image *im, uint64_t vaddr,
                           uint64_t size, uint64_t *offset)
{
    for (size_t i = 0; i < im->phnum; i++) {
        Elf64_Phdr p = phdr_at(im, i);
        if (p.p_type != PT_LOAD || vaddr < p.p_vaddr ||
            vaddr - p.p_vaddr > p.p_filesz ||
            size > p.p_filesz - (vaddr - p.p_vaddr))
            continue;
        *offset = p.p_offset + (vaddr - p.p_vaddr);
        return in_file(im, *offset, size);
    }
    return false;
}

static bool header_check(struct image *im, const char **why)
{
    Elf64_Ehdr h;
    const Elf64_Ehdr *eh = &h;
    if (im->size < sizeof(h))
        memset(&h, 0, sizeof(h));
    else
        memcpy(&h, im->bytes, sizeof(h));
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB ||
        eh->e_ident[EI_VERSION] != EV_CURRENT) {
        *why = "the executable is no 64-bit little-endian ELF object";
        return false;
    }
    if (eh->e_type != ET_DYN || eh->e_machine != MACHINE) {
        *why = "the executable is no shared object for this machine";
        return false;
    }
    if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
        !in_file(im, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr))) {
        *why = "the executable's program headers lie outside it";
        return false;
    }
    im->phoff = eh->e_phoff;
    im->phnum = eh->e_phnum;
    return true;
}

/* True if the @p size bytes at @p vaddr are those at @p offset in the
 * file, as the loaded segments map them: what ld.so reads at the address
 * is what the check read in the file. */
static bool mapped_as(const struct image *im, uint64_t vaddr, uint64_t size,
                      uint64_t offset)
{
    uint64_t at;
    return address_offset(im, vaddr, size, &at) && at == offset;
}

/* True if [@p vaddr, + @p size) lies in the memory of one loaded segment
 * (writable if @p writable). */
static bool in_memory(const struct image *im, uint64_t vaddr, uint64_t size,
                      bool writable)
{
    for (size_t i = 0; i < im->phnum; i++) {
        Elf64_Phdr p = phdr_at(im, i);
        if (p.p_type == PT_LOAD && (!writable || (p.p_flags & PF_W)) &&
            vaddr >= p.p_vaddr && vaddr - p.p_vaddr <= p.p_memsz &&
            size <= p.p_memsz - (vaddr - p.p_vaddr))
            return true;
    }
    return false;
}

/* True if a loaded segment of @p flags is one a linker makes: readable
 * (ld.so reads its tables in place), and never writable and executable. */
static bool flags_made(uint32_t flags)
{
    return (flags & PF_R) && !(flags & ~(uint32_t)(PF_R | PF_W | PF_X)) &&
           (flags & (PF_W | PF_X)) != (PF_W | PF_X);
}

/* The loaded segments as ld.so needs them: in the file, in ascending and
 * disjoint order, their file part within their memory, aligned alike in
 * the file and in memory, of a sane size. */
static bool loads_check(struct image *im, const char **why)
{
    uint64_t end = 0, page = 1;
    for (size_t i = 0; i < im->phnum; i++) {
        Elf64_Phdr p = phdr_at(im, i);
        if (p.p_type != PT_LOAD)
            continue;
        page = p.p_align > page ? p.p_align : page;
        bool aligned = p.p_align && !(p.p_align & (p.p_align - 1)) &&
                       (p.p_vaddr - p.p_offset) % p.p_align == 0;
        if (!in_file(im, p.p_offset, p.p_filesz) || p.p_filesz > p.p_memsz ||
            !flags_made(p.p_flags) ||
            p.p_memsz > SEGMENT_MAX || p.p_vaddr > SEGMENT_MAX ||
            p.p_vaddr < end || !aligned) {
            *why = "a loaded segment of the executable is not one a linker "
                   "makes (outside the file, overlapping, misaligned, "
                   "unreadable, writable and executable)";
            return false;
        }
        end = p.p_vaddr + p.p_memsz;
        if (im->memory.count == REFCL_ELF_SEGMENTS_MAX) {
            *why = "the executable has more loaded segments than a linker "
                   "makes";
            return false;
        }
        im->memory.segment[im->memory.count++] =
            (struct refcl_elf_segment){.start = p.p_vaddr,
                                       .size = p.p_memsz,
                                       .executable = p.p_flags & PF_X};
    }
    if (!end) {
        *why = "the executable has nothing to load";
        return false;
    }
    im->end = (end + page - 1) / page * page;
    return true;
}

/* The notes of a note segment, which ld.so walks by their own sizes (the
 * GNU property note's, for one): every note whole within the segment. */
static bool notes_check(const struct image *im, const Elf64_Phdr *p)
{
    uint64_t align = p->p_align;
    if (p->p_memsz != p->p_filesz || (align != 4 && align != 8))
        return false;
    for (uint64_t at = 0; at < p->p_filesz;) {
        Elf64_Nhdr n;
        if (p->p_filesz - at < sizeof(n))
            return false;
        memcpy(&n, im->bytes + p->p_offset + at, sizeof(n));
        uint64_t name_end = (at + sizeof(n) + n.n_namesz + align - 1) &
                            ~(align - 1);
        uint64_t end = (name_end + n.n_descsz + align - 1) & ~(align - 1);
        if (name_end + n.n_descsz > p->p_filesz)
            return false;
        at = end;
    }
    return true;
}

/* The other segments: only those the compiler's linkers make, each where
 * the loaded segments put it. */
static bool segments_check(const struct image *im, Elf64_Phdr *dynamic,
                           const char **why)
{
    bool have_dynamic = false, placed = true;
    for (size_t i = 0; i < im->phnum && placed; i++) {
        Elf64_Phdr p = phdr_at(im, i);
        switch (p.p_type) {
        case PT_DYNAMIC:
            *dynamic = p;
            have_dynamic = true;
            placed = mapped_as(im, p.p_vaddr, p.p_filesz, p.p_offset);
            break;
        case PT_PHDR:
            placed = mapped_as(im, p.p_vaddr, p.p_filesz, p.p_offset) &&
                     p.p_offset == im->phoff &&
                     p.p_filesz >= im->phnum * sizeof(Elf64_Phdr);
            break;
        case PT_NOTE:
        case PT_GNU_PROPERTY:
            placed = mapped_as(im, p.p_vaddr, p.p_filesz, p.p_offset) &&
                     notes_check(im, &p);
            break;
        case PT_GNU_EH_FRAME:
            placed = mapped_as(im, p.p_vaddr, p.p_filesz, p.p_offset);
            break;
        case PT_GNU_RELRO:
            /* It may reach past its segment to the page's end. */
            placed = in_memory(im, p.p_vaddr, 0, true) &&
                     p.p_memsz <= im->end - p.p_vaddr;
            break;
        case PT_GNU_STACK:
            if (p.p_flags & PF_X) {
                *why = "the executable asks for an executable stack";
                return false;
            }
            break;
        case PT_LOAD:
        case PT_NULL:
            break;
        default:
            *why = "the executable has a segment the compiler never makes "
                   "(an interpreter, TLS, ...)";
            return false;
        }
    }
    if (!placed) {
        *why = "a segment of the executable is not where its loaded "
               "segments put it";
        return false;
    }
    if (!have_dynamic) {
        *why = "the executable has no dynamic section";
        return false;
    }
    return true;
}

/* What the dynamic section says, as far as the check needs it. */
struct dynamic_info {
    uint64_t strtab, strsz;
    uint64_t symtab, hash, gnu_hash;
    uint64_t rela, relasz, jmprel, pltrelsz;
    uint64_t pltrel, relacount;
    uint64_t symbols; /* the symbol table's entries (DT_HASH's nchain) */
    uint64_t hash_size, gnu_hash_size;
    uint64_t dynamic, dynamic_size; /* the dynamic section's memory */
    uint64_t flags, flags_1;
    uint32_t seen; /* the tags seen, as tag_bit gives them */
};

/* The tags the compiler's linkers write. */
static const int64_t allowed_tags[] = {
    DT_NULL, DT_NEEDED, DT_PLTRELSZ, DT_PLTGOT, DT_HASH, DT_STRTAB,
    DT_SYMTAB, DT_RELA, DT_RELASZ, DT_RELAENT, DT_STRSZ, DT_SYMENT,
    DT_PLTREL, DT_JMPREL, DT_BIND_NOW, DT_FLAGS, DT_FLAGS_1, DT_GNU_HASH,
    DT_RELACOUNT};

/* @p tag's bit in dynamic_info's `seen`, or 0 if it is not allowed. */
static uint32_t tag_bit(int64_t tag)
{
    for (size_t i = 0; i < sizeof(allowed_tags) / sizeof(*allowed_tags); i++)
        if (allowed_tags[i] == tag)
            return 1u << i;
    return 0;
}

static bool seen(const struct dynamic_info *d, int64_t tag)
{
    return d->seen & tag_bit(tag);
}

/* True if the tags seen are those ld.so needs together: it reads the
 * string and symbol tables and DT_HASH unasked, and the size and entry
 * size of each relocation table it is given, without looking whether
 * they are there; and if the flags ask for nothing but binding now. */
static bool tags_complete(const struct dynamic_info *d)
{
    return seen(d, DT_STRTAB) && seen(d, DT_STRSZ) && seen(d, DT_SYMTAB) &&
           seen(d, DT_HASH) &&
           seen(d, DT_RELA) == seen(d, DT_RELASZ) &&
           seen(d, DT_RELA) == seen(d, DT_RELAENT) &&
           (!seen(d, DT_RELACOUNT) || seen(d, DT_RELA)) &&
           seen(d, DT_JMPREL) == seen(d, DT_PLTRELSZ) &&
           seen(d, DT_JMPREL) == seen(d, DT_PLTREL) &&
           (!seen(d, DT_PLTREL) || d->pltrel == DT_RELA) &&
           !(d->flags & ~(uint64_t)DF_BIND_NOW) &&
           !(d->flags_1 & ~(uint64_t)DF_1_NOW);
}

static bool needed_allowed(const struct image *im,
                           const struct dynamic_info *d, uint64_t name)
{
    uint64_t at;
    if (name >= d->strsz || !address_offset(im, d->strtab, d->strsz, &at))
        return false;
    const char *s = (const char *)im->bytes + at + name;
    size_t room = (size_t)(d->strsz - name);
    for (size_t i = 0; i < sizeof(allowed_needed) / sizeof(*allowed_needed);
         i++) {
        size_t n = strlen(allowed_needed[i]);
        if (n < room && !memcmp(s, allowed_needed[i], n + 1))
            return true;
    }
    return false;
}

/* The dynamic section: every tag one the compiler's linkers write (no
 * DT_INIT, DT_INIT_ARRAY, DT_PREINIT_ARRAY, DT_FINI*, DT_RPATH,
 * DT_RUNPATH, DT_TEXTREL, DT_AUDIT, ...), the needed libraries the
 * allowed ones. */
static Elf64_Dyn dyn_at(const struct image *im, const Elf64_Phdr *dyn,
                        size_t i)
{
    Elf64_Dyn e;
    memcpy(&e, im->bytes + dyn->p_offset + i * sizeof(e), sizeof(e));
    return e;
}

static bool dynamic_check(const struct image *im, const Elf64_Phdr *dyn,
                          struct dynamic_info *d, const char **why)
{
    size_t count = dyn->p_filesz / sizeof(Elf64_Dyn);
    *d = (struct dynamic_info){.dynamic = dyn->p_vaddr,
                               .dynamic_size = dyn->p_memsz};
    size_t end = 0;
    for (; end < count && dyn_at(im, dyn, end).d_tag != DT_NULL; end++) {
        Elf64_Dyn entry = dyn_at(im, dyn, end);
        const Elf64_Dyn *e = &entry;
        d->seen |= tag_bit(e->d_tag);
        if (!tag_bit(e->d_tag)) {
            *why = "the executable's dynamic section asks for what the "
                   "compiler never emits (initialisers, finalisers, search "
                   "paths, ...)";
            return false;
        }
        uint64_t v = e->d_un.d_val;
        switch (e->d_tag) {
        case DT_STRTAB: d->strtab = v; break;
        case DT_SYMTAB: d->symtab = v; break;
        case DT_HASH: d->hash = v; break;
        case DT_GNU_HASH: d->gnu_hash = v; break;
        case DT_SYMENT:
        case DT_RELAENT:
            if (v != (e->d_tag == DT_SYMENT ? sizeof(Elf64_Sym)
                                            : sizeof(Elf64_Rela))) {
                *why = "the executable's symbols or relocations are not of "
                       "ELF64's size";
                return false;
            }
            break;
        case DT_STRSZ: d->strsz = v; break;
        case DT_RELA: d->rela = v; break;
        case DT_RELASZ: d->relasz = v; break;
        case DT_JMPREL: d->jmprel = v; break;
        case DT_PLTRELSZ: d->pltrelsz = v; break;
        case DT_PLTREL: d->pltrel = v; break;
        case DT_RELACOUNT: d->relacount = v; break;
        case DT_FLAGS: d->flags = v; break;
        case DT_FLAGS_1: d->flags_1 = v; break;
        default: break;
        }
    }
    if (end == count) {
        *why = "the executable's dynamic section has no end";
        return false;
    }
    if (!tags_complete(d)) {
        *why = "the executable's dynamic section lacks what ld.so reads "
               "(a table, a size) or asks for what the compiler never "
               "does";
        return false;
    }
    for (size_t i = 0; i < end; i++)
        if (dyn_at(im, dyn, i).d_tag == DT_NEEDED &&
            !needed_allowed(im, d, dyn_at(im, dyn, i).d_un.d_val)) {
            *why = "the executable needs a library other than the C and "
                   "math libraries";
            return false;
        }
    return true;
}

static uint32_t u32_at(const struct image *im, uint64_t offset)
{
    uint32_t v;
    memcpy(&v, im->bytes + offset, sizeof(v));
    return v;
}

/* The string table in the file, ending with a NUL so that no name read
 * from it runs past it. */
static bool strings_check(const struct image *im,
                          const struct dynamic_info *d)
{
    uint64_t at;
    return d->strsz && address_offset(im, d->strtab, d->strsz, &at) &&
           im->bytes[at + d->strsz - 1] == '\0';
}

/* DT_HASH, which both linkers write: its counts, and every bucket and
 * chain an index into the symbol table; d->symbols set from it. */
static bool hash_check(const struct image *im, struct dynamic_info *d)
{
    uint64_t at;
    if (!d->hash || !address_offset(im, d->hash, 8, &at))
        return false;
    uint64_t nbucket = u32_at(im, at), nchain = u32_at(im, at + 4);
    if (!nbucket || !nchain || nchain > (1u << 24) || nbucket > (1u << 24) ||
        !address_offset(im, d->hash, 8 + 4 * (nbucket + nchain), &at))
        return false;
    for (uint64_t i = 0; i < nbucket + nchain; i++)
        if (u32_at(im, at + 8 + 4 * i) >= nchain)
            return false;
    d->symbols = nchain;
    d->hash_size = 8 + 4 * (nbucket + nchain);
    return true;
}

/* DT_GNU_HASH, which ld.so prefers for lookups: its bloom filter a power
 * of two of words, every bucket 0 or a symbol past symoffset, and the
 * chain's last entry ending it, so that no walk leaves the table. */
static bool gnu_hash_check(const struct image *im, struct dynamic_info *d)
{
    uint64_t at;
    if (!seen(d, DT_GNU_HASH)) /* an address of 0 is there too */
        return true;
    if (!address_offset(im, d->gnu_hash, 16, &at))
        return false;
    uint64_t nbuckets = u32_at(im, at), symoffset = u32_at(im, at + 4);
    uint64_t bloom = u32_at(im, at + 8), shift = u32_at(im, at + 12);
    if (!nbuckets || nbuckets > (1u << 24) || symoffset > d->symbols ||
        !bloom || (bloom & (bloom - 1)) || bloom > (1u << 24) || shift >= 64)
        return false;
    uint64_t buckets = 16 + 8 * bloom;
    uint64_t chains = buckets + 4 * nbuckets;
    uint64_t size = chains + 4 * (d->symbols - symoffset);
    if (!address_offset(im, d->gnu_hash, size, &at))
        return false;
    d->gnu_hash_size = size;
    for (uint64_t i = 0; i < nbuckets; i++) {
        uint64_t first = u32_at(im, at + buckets + 4 * i);
        if (first && (first < symoffset || first >= d->symbols))
            return false;
    }
    /* No symbol hashed (a program without kernels): no chain to end. */
    return symoffset == d->symbols || (u32_at(im, at + size - 4) & 1);
}

/* The symbols: names in the string table, none an IFUNC (its resolver is
 * the object's own code, run at lookup) or TLS, every defined one within
 * the loaded memory (refcl reads the program table through its own). */
static bool symbols_check(const struct image *im,
                          const struct dynamic_info *d)
{
    uint64_t at;
    if (!address_offset(im, d->symtab, d->symbols * sizeof(Elf64_Sym), &at))
        return false;
    for (uint64_t i = 0; i < d->symbols; i++) {
        Elf64_Sym sym;
        memcpy(&sym, im->bytes + at + i * sizeof(sym), sizeof(sym));
        unsigned type = ELF64_ST_TYPE(sym.st_info);
        bool defined = sym.st_shndx != SHN_UNDEF && sym.st_shndx != SHN_ABS;
        if (sym.st_name >= d->strsz || type == STT_GNU_IFUNC ||
            type == STT_TLS ||
            (defined && !in_memory(im, sym.st_value, sym.st_size, false)))
            return false;
    }
    return true;
}

static bool overlaps(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size)
{
    return a_size && b_size && a < b + b_size && b < a + a_size;
}

/* True if a byte of [@p vaddr, + @p size) is in writable memory. */
static bool writable(const struct image *im, uint64_t vaddr, uint64_t size)
{
    for (size_t i = 0; i < im->phnum; i++) {
        Elf64_Phdr p = phdr_at(im, i);
        if (p.p_type == PT_LOAD && (p.p_flags & PF_W) &&
            overlaps(vaddr, size, p.p_vaddr, p.p_memsz))
            return true;
    }
    return false;
}

/* True if the tables ld.so reads to relocate the object and look its
 * symbols up lie in read-only memory, where no relocation can change
 * them once checked; the dynamic section, which ld.so itself writes, is
 * kept from relocations by relocs_check. */
static bool tables_read_only(const struct image *im,
                             const struct dynamic_info *d)
{
    return !writable(im, d->symtab, d->symbols * sizeof(Elf64_Sym)) &&
           !writable(im, d->strtab, d->strsz) &&
           !writable(im, d->hash, d->hash_size) &&
           !writable(im, d->gnu_hash, d->gnu_hash_size) &&
           !writable(im, d->rela, d->relasz) &&
           !writable(im, d->jmprel, d->pltrelsz);
}

static bool reloc_type_allowed(uint32_t type)
{
    return type == RELOC_NONE || type == RELOC_ABS || type == RELOC_GLOB ||
           type == RELOC_SLOT || type == RELOC_RELATIVE;
}

/* The relocations at @p vaddr (@p size bytes of Elf64_Rela): only the
 * plain kinds (no IRELATIVE, whose resolver is the object's own code),
 * each writing 8 aligned bytes of the writable loaded memory outside the
 * dynamic section and naming a symbol of the table; the first @p relative of them relative ones, as
 * DT_RELACOUNT promises ld.so (which asserts it). */
static bool relocs_check(const struct image *im, const struct dynamic_info *d,
                         uint64_t vaddr, uint64_t size, uint64_t relative)
{
    if (relative > size / sizeof(Elf64_Rela))
        return false;
    if (!size)
        return true;
    uint64_t at;
    if (size % sizeof(Elf64_Rela) || !address_offset(im, vaddr, size, &at))
        return false;
    for (uint64_t i = 0; i < size / sizeof(Elf64_Rela); i++) {
        Elf64_Rela r;
        memcpy(&r, im->bytes + at + i * sizeof(r), sizeof(r));
        uint32_t type = (uint32_t)ELF64_R_TYPE(r.r_info);
        if (!reloc_type_allowed(type) ||
            (i < relative && type != RELOC_RELATIVE) ||
            ELF64_R_SYM(r.r_info) >= d->symbols || r.r_offset % 8 ||
            !in_memory(im, r.r_offset, 8, true) ||
            overlaps(r.r_offset, 8, d->dynamic, d->dynamic_size))
            return false;
    }
    return true;
}

bool refcl_elf_check(const unsigned char *bytes, size_t size,
                     struct refcl_elf_memory *memory, const char **why)
{
    struct image im = {.bytes = bytes, .size = size};
    Elf64_Phdr dyn = {0};
    struct dynamic_info d;
    if (!header_check(&im, why) || !loads_check(&im, why) ||
        !segments_check(&im, &dyn, why) || !dynamic_check(&im, &dyn, &d, why))
        return false;
    if (!strings_check(&im, &d) || !hash_check(&im, &d) ||
        !gnu_hash_check(&im, &d) || !symbols_check(&im, &d) ||
        !tables_read_only(&im, &d)) {
        *why = "the executable's symbols, their names or their hash tables "
               "are not ones a linker makes";
        return false;
    }
    if (!relocs_check(&im, &d, d.rela, d.relasz, d.relacount) ||
        !relocs_check(&im, &d, d.jmprel, d.pltrelsz, 0)) {
        *why = "the executable has relocations the compiler never emits "
               "(IFUNC resolvers, TLS, ...)";
        return false;
    }
    if (memory)
        *memory = im.memory;
    return true;
}
