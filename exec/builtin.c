/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in kernels: what refcl can run without a compiler. Chosen to
 * be useful for testing an OpenCL harness and, together, to exercise every
 * kind of kernel argument (global and constant buffers or SVM pointers, a
 * __local size, scalars of 1, 4 and 8 bytes) and real work-group semantics
 * (a reduction through local memory); refcl_args64 (exec/args64.c) takes
 * 64 arguments of every kind and size. docs/built-in-kernels.md gives each
 * one's signature and result.
 *
 * Element-wise kernels get rows of elements (refcl_kernel_desc.items): the
 * grouping of their work-items cannot be seen, so a row runs as one tight
 * loop, whatever the work-group size. This file is built with -O3 so that
 * those loops are vectorised.
 */
#include <sched.h>
#include <string.h>

#include "refcl/device.h"
#include "refcl/exec.h"

#define KERNEL_VERSION CL_MAKE_VERSION(1, 0, 0)

/* Argument descriptions. */
#define GLOBAL(n, type, q, extent)                                      \
    {n, #type "*", REFCL_ARG_GLOBAL, q, sizeof(cl_##type), extent, 0, 0}
#define SCALAR(n, type)                                                 \
    {n, #type, REFCL_ARG_SCALAR, CL_KERNEL_ARG_TYPE_NONE, sizeof(cl_##type), \
     REFCL_EXTENT_NONE, 0, 0}
#define CONST CL_KERNEL_ARG_TYPE_CONST
#define NONE CL_KERNEL_ARG_TYPE_NONE

/* ---- refcl_fill_uchar(global uchar *dst, uchar value) ------------------ */

static void fill_uchar(const union refcl_arg_value *args, size_t first,
                       size_t count)
{
    memset((cl_uchar *)args[0].ptr + first, args[1].u8, count);
}

static const struct refcl_arg_desc fill_uchar_args[] = {
    GLOBAL("dst", uchar, NONE, REFCL_EXTENT_ITEMS),
    SCALAR("value", uchar),
};

/* ---- refcl_fill_ulong(global ulong *dst, ulong value) ------------------ */

static void fill_ulong(const union refcl_arg_value *args, size_t first,
                       size_t count)
{
    cl_ulong *restrict dst = (cl_ulong *)args[0].ptr + first;
    const cl_ulong value = args[1].u64;
    for (size_t i = 0; i < count; i++)
        dst[i] = value;
}

static const struct refcl_arg_desc fill_ulong_args[] = {
    GLOBAL("dst", ulong, NONE, REFCL_EXTENT_ITEMS),
    SCALAR("value", ulong),
};

/* ---- refcl_iota_uint(global uint *dst, uint start) --------------------- */

static void iota_uint(const union refcl_arg_value *args, size_t first,
                      size_t count)
{
    cl_uint *restrict dst = (cl_uint *)args[0].ptr + first;
    /* Arithmetic modulo 2^32, as in OpenCL C: start + (uint)i. */
    const cl_uint base = args[1].u32 + (cl_uint)first;
    for (size_t i = 0; i < count; i++)
        dst[i] = base + (cl_uint)i;
}

static const struct refcl_arg_desc iota_uint_args[] = {
    GLOBAL("dst", uint, NONE, REFCL_EXTENT_ITEMS),
    SCALAR("start", uint),
};

/* ---- refcl_copy_uint(global uint *dst, global const uint *src) --------- */

static void copy_uint(const union refcl_arg_value *args, size_t first,
                      size_t count)
{
    /* memmove: the two may be one buffer. OpenCL leaves overlapping
     * copies undefined; refcl copies as if all reads came first. */
    memmove((cl_uint *)args[0].ptr + first,
            (const cl_uint *)args[1].ptr + first, count * sizeof(cl_uint));
}

static const struct refcl_arg_desc copy_uint_args[] = {
    GLOBAL("dst", uint, NONE, REFCL_EXTENT_ITEMS),
    GLOBAL("src", uint, CONST, REFCL_EXTENT_ITEMS),
};

/* ---- refcl_lookup_uchar(global uchar *dst, global const uchar *src,
 *                         constant uchar *table) ------------------------ */

static void lookup_uchar(const union refcl_arg_value *args, size_t first,
                         size_t count)
{
    cl_uchar *dst = (cl_uchar *)args[0].ptr + first;
    const cl_uchar *src = (const cl_uchar *)args[1].ptr + first;
    const cl_uchar *table = args[2].ptr;
    for (size_t i = 0; i < count; i++)
        dst[i] = table[src[i]];
}

static const struct refcl_arg_desc lookup_uchar_args[] = {
    GLOBAL("dst", uchar, NONE, REFCL_EXTENT_ITEMS),
    GLOBAL("src", uchar, CONST, REFCL_EXTENT_ITEMS),
    {"table", "uchar*", REFCL_ARG_CONSTANT, CONST, sizeof(cl_uchar),
     REFCL_EXTENT_TABLE, 256, 0},
};

/* ---- refcl_saxpy_float(float a, global const float *x,
 *                        global float *y) ------------------------------- */

static void saxpy_float(const union refcl_arg_value *args, size_t first,
                        size_t count)
{
    const float a = args[0].f32;
    const float *restrict x = (const float *)args[1].ptr + first;
    float *restrict y = (float *)args[2].ptr + first;
    for (size_t i = 0; i < count; i++)
        y[i] = a * x[i] + y[i];
}

static const struct refcl_arg_desc saxpy_float_args[] = {
    SCALAR("a", float),
    GLOBAL("x", float, CONST, REFCL_EXTENT_ITEMS),
    GLOBAL("y", float, NONE, REFCL_EXTENT_ITEMS),
};

/* ---- refcl_cpu_id(global uint *dst) ------------------------------------ */

/* The processing unit (OS index, as sched_getcpu() and
 * CL_DEVICE_CPUSET_REFCL number it) each work-item ran on. A row runs on
 * one thread: one look suffices. */
static void cpu_id(const union refcl_arg_value *args, size_t first,
                   size_t count)
{
    cl_uint *dst = (cl_uint *)args[0].ptr + first;
    int cpu = sched_getcpu();
    const cl_uint value = cpu >= 0 ? (cl_uint)cpu : CL_UINT_MAX;
    for (size_t i = 0; i < count; i++)
        dst[i] = value;
}

static const struct refcl_arg_desc cpu_id_args[] = {
    GLOBAL("dst", uint, NONE, REFCL_EXTENT_ITEMS),
};

/* ---- refcl_reduce_add_uint(global const uint *src, global uint *sums,
 *                            local uint *scratch) ------------------------ */

/* The sum of the group's elements of src (modulo 2^32) into
 * sums[group id], as an OpenCL C work-group would compute it: every
 * work-item loads its element into scratch, then, barrier after barrier,
 * halves the partial sums in scratch; work-item 0 writes scratch[0]. Each
 * loop below is one phase between two barriers. */
static void reduce_add_uint(const union refcl_arg_value *args,
                            const struct refcl_group *g)
{
    const cl_uint *src = args[0].ptr;
    cl_uint *sums = args[1].ptr;
    cl_uint *scratch = args[2].ptr;
    const struct refcl_ndrange *r = g->range;
    size_t items = 0;
    for (size_t z = 0; z < g->size[2]; z++)
        for (size_t y = 0; y < g->size[1]; y++) {
            size_t row = g->origin[0] +
                         r->extent[0] * (g->origin[1] + y +
                                         r->extent[1] * (g->origin[2] + z));
            for (size_t x = 0; x < g->size[0]; x++)
                scratch[items++] = src[row + x];
        }
    for (size_t stride = 1; stride < items; stride *= 2)
        for (size_t lid = 0; lid + stride < items; lid += 2 * stride)
            scratch[lid] += scratch[lid + stride];
    sums[g->id] = scratch[0];
}

static const struct refcl_arg_desc reduce_add_uint_args[] = {
    GLOBAL("src", uint, CONST, REFCL_EXTENT_ITEMS),
    GLOBAL("sums", uint, NONE, REFCL_EXTENT_GROUPS),
    {"scratch", "uint*", REFCL_ARG_LOCAL, NONE, sizeof(cl_uint),
     REFCL_EXTENT_GROUP_ITEMS, 0, 0},
};

/* ---- the table ---------------------------------------------------------- */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ITEMS(n, fn) {n, COUNT(fn##_args), fn##_args, fn, NULL}
#define GROUP(n, fn) {n, COUNT(fn##_args), fn##_args, NULL, fn}

static const struct refcl_kernel_desc builtins[] = {
    ITEMS("refcl_fill_uchar", fill_uchar),
    ITEMS("refcl_fill_ulong", fill_ulong),
    ITEMS("refcl_iota_uint", iota_uint),
    ITEMS("refcl_copy_uint", copy_uint),
    ITEMS("refcl_lookup_uchar", lookup_uchar),
    ITEMS("refcl_saxpy_float", saxpy_float),
    GROUP("refcl_reduce_add_uint", reduce_add_uint),
    ITEMS("refcl_cpu_id", cpu_id),
};
#define BUILTIN_COUNT (COUNT(builtins) + 1)

const struct refcl_kernel_desc *const refcl_builtins[] = {
    &builtins[0], &builtins[1], &builtins[2], &builtins[3],
    &builtins[4], &builtins[5], &builtins[6], &builtins[7],
    &refcl_builtin_args64,
};
_Static_assert(COUNT(refcl_builtins) == BUILTIN_COUNT,
               "one entry per built-in kernel");
const size_t refcl_builtin_count = BUILTIN_COUNT;

/* CL_DEVICE_BUILT_IN_KERNELS, spelled out: the list is fixed, and a
 * constant string needs neither building nor a lock. */
static const char names[] =
    "refcl_fill_uchar;refcl_fill_ulong;refcl_iota_uint;refcl_copy_uint;"
    "refcl_lookup_uchar;refcl_saxpy_float;refcl_reduce_add_uint;"
    "refcl_cpu_id;refcl_args64";

static const cl_name_version versions[] = {
    {KERNEL_VERSION, "refcl_fill_uchar"},
    {KERNEL_VERSION, "refcl_fill_ulong"},
    {KERNEL_VERSION, "refcl_iota_uint"},
    {KERNEL_VERSION, "refcl_copy_uint"},
    {KERNEL_VERSION, "refcl_lookup_uchar"},
    {KERNEL_VERSION, "refcl_saxpy_float"},
    {KERNEL_VERSION, "refcl_reduce_add_uint"},
    {KERNEL_VERSION, "refcl_cpu_id"},
    {KERNEL_VERSION, "refcl_args64"},
};
_Static_assert(COUNT(versions) == BUILTIN_COUNT,
               "one version per built-in kernel");

const struct refcl_kernel_desc *refcl_builtin_find(const char *name,
                                               size_t length)
{
    for (size_t i = 0; i < BUILTIN_COUNT; i++)
        if (strlen(refcl_builtins[i]->name) == length &&
            memcmp(refcl_builtins[i]->name, name, length) == 0)
            return refcl_builtins[i];
    return NULL;
}

const char *refcl_builtin_names(void)
{
    return names;
}

const cl_name_version *refcl_builtin_versions(size_t *count)
{
    *count = BUILTIN_COUNT;
    return versions;
}

/* At load, before any call: the device layer lists the kernels and the
 * program layer finds them through this, never by calling up here. */
__attribute__((constructor)) static void builtins_register(void)
{
    static struct refcl_builtin_list list;
    list.names = refcl_builtin_names();
    list.versions = refcl_builtin_versions(&list.count);
    list.find = refcl_builtin_find;
    refcl_device_builtins_register(&list);
}
