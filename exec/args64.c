/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_args64: a built-in kernel with 64 arguments of every kind, made to
 * test argument passing in every build, with the compiler or without:
 * __global and __constant buffers (or SVM pointers), two __local sizes,
 * scalars of each size (1, 2, 4, 8 bytes), vectors up to 16 elements of 8
 * bytes (128 bytes), and structs by value. It copies what each argument
 * carries into its `out` buffer, so that a test can compare every argument
 * with what it set (docs/built-in-kernels.md gives the layout).
 */
#include <string.h>

#include "refcl/exec.h"

/* The structs it takes by value, laid out as OpenCL C lays them out. */
struct refcl_args64_pair {
    cl_int i;
    cl_float f;
};
struct refcl_args64_odd {
    cl_uchar bytes[3];
};
struct refcl_args64_big {
    cl_ulong id;
    cl_double weights[4];
    cl_uint flags;
    cl_uchar name[12];
};

#define NONE CL_KERNEL_ARG_TYPE_NONE
#define CONST CL_KERNEL_ARG_TYPE_CONST
/* A buffer argument reaching `table` elements, whatever the range. */
#define BUFFER(n, type, kind, q, table)                                   \
    {n, #type "*", kind, q, sizeof(cl_##type), REFCL_EXTENT_TABLE, table, 0}
#define LOCAL(n, type)                                                    \
    {n, #type "*", REFCL_ARG_LOCAL, NONE, sizeof(cl_##type),             \
     REFCL_EXTENT_GROUP_ITEMS, 0, 0}
#define VALUE(type)                                                       \
    {"v_" #type, #type, REFCL_ARG_SCALAR, NONE, sizeof(cl_##type),       \
     REFCL_EXTENT_NONE, 0, 0}
#define STRUCT(n, type)                                                   \
    {n, "struct " #type, REFCL_ARG_SCALAR, NONE, sizeof(struct type),    \
     REFCL_EXTENT_NONE, 0, 0}

/* ulongs of `out`: one record per argument after it, each a multiple of
 * 8 bytes (args64_record). */
#define OUT_WORDS 133u

static const struct refcl_arg_desc args64_args[] = {
    BUFFER("out", ulong, REFCL_ARG_GLOBAL, NONE, OUT_WORDS),
    BUFFER("src_uchar", uchar, REFCL_ARG_GLOBAL, CONST, 8),
    BUFFER("src_int", int, REFCL_ARG_GLOBAL, CONST, 2),
    BUFFER("coeffs", uint, REFCL_ARG_CONSTANT, CONST, 2),
    BUFFER("svm", ulong, REFCL_ARG_GLOBAL, CONST, 1),
    BUFFER("weights", double, REFCL_ARG_CONSTANT, CONST, 1),
    LOCAL("scratch_ulong", ulong),
    LOCAL("scratch_uchar", uchar),
    VALUE(char), VALUE(uchar), VALUE(short), VALUE(ushort),
    VALUE(int), VALUE(uint), VALUE(long), VALUE(ulong),
    VALUE(half), VALUE(float), VALUE(double),
    VALUE(char2), VALUE(char3), VALUE(char4), VALUE(char8), VALUE(char16),
    VALUE(uchar2), VALUE(uchar3), VALUE(uchar4), VALUE(uchar8),
    VALUE(uchar16),
    VALUE(short2), VALUE(short3), VALUE(short4), VALUE(short8),
    VALUE(ushort2), VALUE(ushort3), VALUE(ushort4), VALUE(ushort16),
    VALUE(int2), VALUE(int3), VALUE(int4), VALUE(int8),
    VALUE(uint2), VALUE(uint3), VALUE(uint4),
    VALUE(long2), VALUE(long3), VALUE(long16), VALUE(ulong2),
    VALUE(half2), VALUE(half3), VALUE(half4), VALUE(half8), VALUE(half16),
    VALUE(float2), VALUE(float3), VALUE(float4), VALUE(float8),
    VALUE(double2), VALUE(double3), VALUE(double4), VALUE(double16),
    STRUCT("pair", refcl_args64_pair),
    STRUCT("odd", refcl_args64_odd),
    STRUCT("big", refcl_args64_big),
};
#define ARGS64_COUNT (sizeof(args64_args) / sizeof(args64_args[0]))
_Static_assert(ARGS64_COUNT == 64, "refcl_args64 takes 64 arguments");

/* The sum, as a ulong, of the __local argument @p d after the group's
 * @p items work-items each stored its local id + 1 (modulo its type) in
 * its element. */
static cl_ulong local_sum(void *scratch, const struct refcl_arg_desc *d,
                          size_t items)
{
    cl_ulong sum = 0;
    for (size_t l = 0; l < items; l++) {
        if (d->size == sizeof(cl_uchar))
            ((cl_uchar *)scratch)[l] = (cl_uchar)(l + 1);
        else
            ((cl_ulong *)scratch)[l] = l + 1;
    }
    for (size_t l = 0; l < items; l++)
        sum += d->size == sizeof(cl_uchar) ? ((cl_uchar *)scratch)[l]
                                           : ((cl_ulong *)scratch)[l];
    return sum;
}

/* Writes argument @p d's record at @p at: a by-value argument's bytes, a
 * buffer's first `table` elements, a __local's sum. @return its bytes. */
static size_t args64_record(unsigned char *at, const union refcl_arg_value *v,
                            const struct refcl_arg_desc *d, size_t items)
{
    cl_ulong sum;
    switch (d->kind) {
    case REFCL_ARG_SCALAR:
        memcpy(at, refcl_arg_inline(d) ? v->bytes : v->ptr, d->size);
        return d->size;
    case REFCL_ARG_LOCAL:
        sum = local_sum(v->ptr, d, items);
        memcpy(at, &sum, sizeof(sum));
        return sizeof(sum);
    default:
        memcpy(at, v->ptr, d->size * d->table);
        return d->size * d->table;
    }
}

/* Every work-group fills its __local memory; work-group 0 writes the
 * records, each from a multiple of 8 bytes, the gaps zero. */
static void args64(const union refcl_arg_value *args,
                   const struct refcl_group *g)
{
    size_t items = g->size[0] * g->size[1] * g->size[2];
    unsigned char record[128 + 8];
    unsigned char *out = args[0].ptr;
    size_t at = 0;
    for (size_t i = 1; i < ARGS64_COUNT; i++) {
        memset(record, 0, sizeof(record));
        size_t bytes = args64_record(record, &args[i], &args64_args[i], items);
        bytes = (bytes + 7) / 8 * 8;
        if (g->id == 0 && at + bytes <= OUT_WORDS * sizeof(cl_ulong))
            memcpy(out + at, record, bytes);
        at += bytes;
    }
}

const struct refcl_kernel_desc refcl_builtin_args64 = {
    "refcl_args64", ARGS64_COUNT, args64_args, NULL, args64};
