/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The check of a loaded program's table (refcl/kernel_abi.h) before refcl
 * reads it. The table of a binary is the binary's own data: a pointer of
 * it may point anywhere, a string may never end, a count may be 2^32. So
 * every pointer refcl follows must lie in the object's own readable
 * memory (the loaded segments compiler/elf.c checked, at the address
 * dlopen chose), every string must end there, each kernel's code must lie
 * in executable memory, and the counts and sizes must be ones the
 * compiler makes, small enough that no size refcl computes from them
 * overflows. What the code at `run` does is the binary's: a fault in it
 * is caught as any kernel's (exec/fault.c).
 */
#include <stdint.h>
#include <string.h>

#include "refcl/compiler.h" /* and, through refcl/compat.h, CL/cl.h */
#include "refcl/kernel_abi.h"

/* Far more kernels, arguments and bytes than any program has, small
 * enough that no product of them and a work-group's size overflows. */
#define KERNELS_MAX 65536u
#define ARGS_MAX 4096u
#define VALUE_MAX (1u << 16)
#define BYTES_MAX ((uint64_t)1 << 32)

struct view {
    uintptr_t base;
    const struct refcl_elf_memory *memory;
};

/* The segment holding the byte at @p address, or NULL; through @p room,
 * the bytes of it from @p address on. */
static const struct refcl_elf_segment *segment_of(const struct view *v,
                                                  uintptr_t address,
                                                  uint64_t *room)
{
    uint64_t at = address - v->base;
    for (size_t i = 0; address >= v->base && i < v->memory->count; i++) {
        const struct refcl_elf_segment *s = &v->memory->segment[i];
        if (at >= s->start && at - s->start < s->size) {
            *room = s->start + s->size - at;
            return s;
        }
    }
    return NULL;
}

/* True if the @p count objects of @p size bytes at @p p lie in one
 * segment, aligned to @p align. */
static bool readable(const struct view *v, const void *p, uint64_t count,
                     size_t size, size_t align)
{
    uint64_t room;
    return segment_of(v, (uintptr_t)p, &room) &&
           (uintptr_t)p % align == 0 && count <= room / size;
}

/* True if @p s is a string ending in its segment (or NULL, when
 * @p optional). */
static bool string_ok(const struct view *v, const char *s, bool optional)
{
    uint64_t room;
    if (!s)
        return optional;
    return segment_of(v, (uintptr_t)s, &room) && memchr(s, '\0', room);
}

static bool power_of_two(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* True if @p a's access qualifier is one the compiler gives its kind: an
 * image's is read_only, write_only or read_write, any other's may be none. */
static bool access_ok(const struct refcl_abi_arg *a)
{
    cl_kernel_arg_access_qualifier last = a->kind == REFCL_ABI_ARG_IMAGE
                                              ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                              : CL_KERNEL_ARG_ACCESS_NONE;
    return a->access >= CL_KERNEL_ARG_ACCESS_READ_ONLY && a->access <= last;
}

static bool arg_ok(const struct view *v, const struct refcl_abi_arg *a)
{
    const uint64_t qualifiers = CL_KERNEL_ARG_TYPE_CONST |
                                CL_KERNEL_ARG_TYPE_RESTRICT |
                                CL_KERNEL_ARG_TYPE_VOLATILE |
                                CL_KERNEL_ARG_TYPE_PIPE;
    bool sized = a->kind == REFCL_ABI_ARG_VALUE
                     ? a->size && a->size <= VALUE_MAX &&
                           power_of_two(a->align) &&
                           a->align <= REFCL_ABI_ALIGN
                     : a->size == sizeof(void *) &&
                           (!a->align || power_of_two(a->align));
    /* Every kind up to REFCL_ABI_ARG_UNSUPPORTED (images and samplers
     * included: their slots are 8 bytes, as a pointer's). */
    return a->kind <= REFCL_ABI_ARG_UNSUPPORTED && sized && access_ok(a) &&
           !(a->type_qualifier & ~qualifiers) &&
           string_ok(v, a->type_name, false) && string_ok(v, a->name, true);
}

static bool kernel_ok(const struct view *v, const struct refcl_abi_kernel *k)
{
    uint64_t room;
    const struct refcl_elf_segment *code =
        segment_of(v, (uintptr_t)k->run, &room);
    if (!string_ok(v, k->name, false) || !k->name[0] || !code ||
        !code->executable || k->num_args > ARGS_MAX ||
        (k->num_args && !readable(v, k->args, k->num_args, sizeof(*k->args),
                                  _Alignof(struct refcl_abi_arg))) ||
        k->has_barrier > 1 || k->uses_printf > 1 ||
        k->local_bytes > BYTES_MAX || k->frame_bytes > BYTES_MAX ||
        k->frame_bytes % REFCL_ABI_ALIGN || k->private_bytes > BYTES_MAX ||
        !string_ok(v, k->vec_type_hint, true) ||
        !string_ok(v, k->attributes, false))
        return false;
    for (uint32_t i = 0; i < k->num_args; i++)
        if (!arg_ok(v, &k->args[i]))
            return false;
    return true;
}

bool refcl_table_check(const struct refcl_abi_program *table, uintptr_t base,
                       const struct refcl_elf_memory *memory, const char **why)
{
    const struct view v = {base, memory};
    if (!readable(&v, table, 1, sizeof(*table),
                  _Alignof(struct refcl_abi_program)) ||
        table->version != REFCL_ABI_VERSION) {
        *why = "the executable's kernel ABI is not this refcl's";
        return false;
    }
    bool ok = table->num_kernels <= KERNELS_MAX &&
              table->global_variable_bytes <= BYTES_MAX &&
              (!table->num_kernels ||
               readable(&v, table->kernels, table->num_kernels,
                        sizeof(*table->kernels),
                        _Alignof(struct refcl_abi_kernel)));
    for (uint32_t i = 0; ok && i < table->num_kernels; i++)
        ok = kernel_ok(&v, &table->kernels[i]);
    if (!ok)
        *why = "the executable's " REFCL_ABI_TABLE_SYMBOL " points outside "
               "it or holds what the compiler never makes";
    return ok;
}
