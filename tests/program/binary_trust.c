/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/binary-trust: a program binary is checked before anything of it
 * is loaded (compiler/elf.c, docs/security.md). The container of a real
 * executable is taken from CL_PROGRAM_BINARIES and its shared object
 * altered, the container's size and checksum made right again, as an
 * attacker would: a shared object with a constructor (planted.c), a byte
 * of the ELF header flipped (another machine), a needed library renamed,
 * a relocation made an IFUNC one (its resolver would run at load), a
 * dynamic tag made DT_INIT, a loaded segment unreadable, DT_RELAENT
 * dropped, DT_GNU_HASH made 0, a relocation aimed at the dynamic section (ld.so would read
 * outside the object). clCreateProgramWithBinary refuses each with
 * CL_INVALID_BINARY, and the planted constructor never runs. A program
 * table pointing outside its object loads, and clBuildProgram refuses it
 * with CL_INVALID_BINARY. The binary as it was still builds and runs.
 * Skipped (77) where the device reports no compiler.
 */
#include <elf.h>

#include "../compiler/exec.h"

static const char source[] = "kernel void k(global int *p) { p[0] = 1; }\n";

/* A container of CL_PROGRAM_BINARIES, and where its shared object is (the
 * layout compiler/binary.c documents). */
struct container {
    unsigned char *bytes;
    size_t size;
    size_t payload_at, payload_size;
};

static uint64_t read_le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void write_le(unsigned char *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void container_parse(struct container *c)
{
    size_t at = 8 + 4 * 4; /* magic, format, type, ABI, flags */
    for (int field = 0; field < 3; field++) /* target, CPU, options */
        at += 4 + read_le(c->bytes + at, 4);
    c->payload_size = read_le(c->bytes + at, 8);
    c->payload_at = at + 8;
    CHECK_EQ(c->payload_at + c->payload_size + 8, c->size);
}

static struct container binary_of(cl_program program)
{
    struct container c = {0};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                              sizeof(c.size), &c.size, NULL),
             CL_SUCCESS);
    c.bytes = malloc(c.size);
    CHECK(c.bytes != NULL);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(c.bytes),
                              &c.bytes, NULL),
             CL_SUCCESS);
    container_parse(&c);
    return c;
}

/* @p c with its shared object replaced by @p object. */
static struct container rewrap(const struct container *c,
                               const unsigned char *object, size_t size)
{
    struct container w = {0};
    w.size = c->payload_at + size + 8;
    w.bytes = malloc(w.size);
    CHECK(w.bytes != NULL);
    memcpy(w.bytes, c->bytes, c->payload_at);
    write_le(w.bytes + c->payload_at - 8, size, 8);
    memcpy(w.bytes + c->payload_at, object, size);
    w.payload_at = c->payload_at;
    w.payload_size = size;
    test_checksum_fix(w.bytes, w.size);
    return w;
}

static struct container copy_of(const struct container *c)
{
    return rewrap(c, c->bytes + c->payload_at, c->payload_size);
}

/* Creates a program of @p c: returns the error code, the program (if any)
 * built and released. */
static cl_int create(const struct container *c, cl_int *binary_status)
{
    const unsigned char *bytes = c->bytes;
    cl_int err = 1;
    *binary_status = 1;
    cl_program program = clCreateProgramWithBinary(
        context, 1, &device, &c->size, &bytes, binary_status, &err);
    if (program) {
        clBuildProgram(program, 0, NULL, "", NULL, NULL);
        clReleaseProgram(program);
    }
    return err;
}

static void check_refused(const struct container *c, const char *what)
{
    cl_int binary_status;
    cl_int err = create(c, &binary_status);
    if (err != CL_INVALID_BINARY)
        fprintf(stderr, "%s: accepted\n", what);
    CHECK_EQ(err, CL_INVALID_BINARY);
    CHECK_EQ(binary_status, CL_INVALID_BINARY);
}

static void check_planted(const struct container *c)
{
    size_t size;
    unsigned char *object = test_file_read(REFCL_TEST_PLANTED, &size);
    struct container w = rewrap(c, object, size);
    check_refused(&w, "a constructor");
    CHECK(getenv("REFCL_TEST_PLANTED_RAN") == NULL);
    free(w.bytes);
    free(object);
}

/* The shared object of @p c, copied into memory aligned for its
 * structures (malloc's). */
static unsigned char *object_copy(const struct container *c)
{
    unsigned char *object = malloc(c->payload_size);
    CHECK(object != NULL);
    if (!object)
        exit(1);
    memcpy(object, c->bytes + c->payload_at, c->payload_size);
    return object;
}

#if defined(__x86_64__)
#define RELATIVE R_X86_64_RELATIVE
#define IRELATIVE R_X86_64_IRELATIVE
#else
#define RELATIVE R_AARCH64_RELATIVE
#define IRELATIVE R_AARCH64_IRELATIVE
#endif

static Elf64_Ehdr *ehdr(unsigned char *object)
{
    return (Elf64_Ehdr *)object;
}

static Elf64_Phdr *phdr(unsigned char *object, unsigned i)
{
    return (Elf64_Phdr *)(object + ehdr(object)->e_phoff) + i;
}

static unsigned char *at_address(unsigned char *object, uint64_t vaddr)
{
    for (unsigned i = 0; i < ehdr(object)->e_phnum; i++) {
        Elf64_Phdr *p = phdr(object, i);
        if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr &&
            vaddr < p->p_vaddr + p->p_filesz)
            return object + p->p_offset + (vaddr - p->p_vaddr);
    }
    return NULL;
}

static Elf64_Dyn *dynamic_entry(unsigned char *object, int64_t tag)
{
    for (unsigned i = 0; i < ehdr(object)->e_phnum; i++) {
        Elf64_Phdr *p = phdr(object, i);
        if (p->p_type != PT_DYNAMIC)
            continue;
        for (Elf64_Dyn *d = (Elf64_Dyn *)(object + p->p_offset);
             d->d_tag != DT_NULL; d++)
            if (d->d_tag == tag)
                return d;
    }
    return NULL;
}

/* @p object (of @p c's size) wrapped as @p c is, refused. */
static void refused_as(const struct container *c, unsigned char *object,
                       const char *what)
{
    struct container w = rewrap(c, object, c->payload_size);
    check_refused(&w, what);
    free(w.bytes);
    free(object);
}

static Elf64_Phdr *segment(unsigned char *object, uint32_t type)
{
    for (unsigned i = 0; i < ehdr(object)->e_phnum; i++)
        if (phdr(object, i)->p_type == type)
            return phdr(object, i);
    return NULL;
}

/* The relocations of @p object and their count (through @p count). */
static Elf64_Rela *relocations(unsigned char *object, size_t *count)
{
    Elf64_Dyn *rela = dynamic_entry(object, DT_RELA);
    Elf64_Dyn *size = dynamic_entry(object, DT_RELASZ);
    *count = size ? size->d_un.d_val / sizeof(Elf64_Rela) : 0;
    Elf64_Rela *r = rela ? (Elf64_Rela *)at_address(object, rela->d_un.d_ptr)
                         : NULL;
    CHECK(r != NULL && *count > 0);
    return r;
}

/* What would make ld.so or refcl read outside the object as it loads. */
static void check_altered_load(const struct container *c)
{
    unsigned char *object = object_copy(c);
    Elf64_Phdr *load = segment(object, PT_LOAD);
    CHECK(load != NULL);
    if (load)
        load->p_flags &= ~(uint32_t)PF_R;
    refused_as(c, object, "an unreadable segment");

    object = object_copy(c);
    Elf64_Dyn *entry_size = dynamic_entry(object, DT_RELAENT);
    CHECK(entry_size != NULL);
    if (entry_size)
        entry_size->d_tag = DT_PLTGOT;
    refused_as(c, object, "DT_RELA without DT_RELAENT");

    /* ld.so reads a DT_GNU_HASH of address 0 as the table at the
     * object's start (its ELF header). */
    object = object_copy(c);
    Elf64_Dyn *gnu_hash = dynamic_entry(object, DT_GNU_HASH);
    if (gnu_hash) {
        gnu_hash->d_un.d_ptr = 0;
        refused_as(c, object, "DT_GNU_HASH at address 0");
    } else {
        free(object);
    }

    size_t count;
    object = object_copy(c);
    Elf64_Rela *r = relocations(object, &count);
    Elf64_Phdr *dynamic = segment(object, PT_DYNAMIC);
    CHECK(dynamic != NULL);
    if (r && dynamic)
        r->r_offset = dynamic->p_vaddr + 8; /* the first entry's value */
    refused_as(c, object, "a relocation of the dynamic section");

    /* Every address the program table holds (relative relocations)
     * moved 1 GiB past the object: the object loads, its table is
     * refused before refcl reads a kernel of it. */
    object = object_copy(c);
    r = relocations(object, &count);
    for (size_t i = 0; r && i < count; i++)
        if (ELF64_R_TYPE(r[i].r_info) == RELATIVE)
            r[i].r_addend += (int64_t)1 << 30;
    struct container w = rewrap(c, object, c->payload_size);
    const unsigned char *bytes = w.bytes;
    cl_int err = 1, binary_status = 1;
    cl_program program = clCreateProgramWithBinary(
        context, 1, &device, &w.size, &bytes, &binary_status, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clBuildProgram(program, 0, NULL, "", NULL, NULL),
             CL_INVALID_BINARY);
    cl_build_status status = CL_BUILD_SUCCESS;
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_BUILD_ERROR);
    clReleaseProgram(program);
    free(w.bytes);
    free(object);
}

static void check_altered(const struct container *c)
{
    unsigned char *object = object_copy(c);
    ehdr(object)->e_machine ^= 0xff;
    refused_as(c, object, "e_machine");

    object = object_copy(c);
    unsigned char *name = memmem(object, c->payload_size, "libm.so.6", 10);
    CHECK(name != NULL);
    if (name)
        name[3] = 'X';
    refused_as(c, object, "a needed library");

    size_t count;
    object = object_copy(c);
    Elf64_Rela *r = relocations(object, &count);
    if (r)
        r->r_info = ELF64_R_INFO(ELF64_R_SYM(r->r_info), IRELATIVE);
    refused_as(c, object, "an IFUNC relocation");

    object = object_copy(c);
    Elf64_Dyn *hash = dynamic_entry(object, DT_HASH);
    if (!hash)
        hash = dynamic_entry(object, DT_GNU_HASH);
    CHECK(hash != NULL);
    if (hash)
        hash->d_tag = DT_INIT;
    refused_as(c, object, "DT_INIT");
    check_altered_load(c);
}

/* The binary as it was: built and run. */
static void check_intact(const struct container *c)
{
    struct container w = copy_of(c);
    const unsigned char *bytes = w.bytes;
    cl_int err = 1, binary_status = 1;
    cl_program program = clCreateProgramWithBinary(
        context, 1, &device, &w.size, &bytes, &binary_status, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(binary_status, CL_SUCCESS);
    CHECK_EQ(clBuildProgram(program, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    CHECK_EQ(exec_one_int(program, "k"), 1);
    clReleaseProgram(program);
    free(w.bytes);
}

int main(void)
{
    exec_setup();
    cl_program program = exec_build(source, "");
    if (program) {
        struct container c = binary_of(program);
        check_intact(&c);
        check_planted(&c);
        check_altered(&c);
        free(c.bytes);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    exec_teardown();
    return TEST_RESULT();
}
