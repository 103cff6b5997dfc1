/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compiled kernels' arguments and queries: a 64-argument kernel generated
 * here with every scalar and vector type (3-vectors included), a struct,
 * and __global, __constant and __local pointers, each value checked byte
 * for byte; clGetKernelArgInfo with and without -cl-kernel-arg-info;
 * clGetKernelInfo; clGetKernelWorkGroupInfo; clCreateKernel's errors;
 * reqd_work_group_size and uniform work-groups (-cl-uniform-work-group-size
 * and OpenCL C 1.2) at enqueue; __local memory over the device's.
 */
#include "exec.h"

/* ---- 64 arguments ------------------------------------------------------ */

enum kind { VALUE, STRUCT, GLOBAL, CONSTANT, LOCAL };

struct type {
    const char *name;   /* OpenCL C */
    const char *elem;   /* element type, for vstore3 */
    enum kind kind;
    size_t size;        /* clSetKernelArg's size */
    size_t used;        /* bytes that hold the value (a 3-vector: 3) */
    bool real;          /* float elements */
};

/* S as OpenCL C and C lay it out: c at 0, l at 8, i at 16; 24 bytes. */
typedef struct {
    cl_char c;
    cl_long l;
    cl_int i;
} S;

static const struct type types[] = {
    {"char", "char", VALUE, 1, 1, false},
    {"uchar", "uchar", VALUE, 1, 1, false},
    {"short", "short", VALUE, 2, 2, false},
    {"ushort", "ushort", VALUE, 2, 2, false},
    {"int", "int", VALUE, 4, 4, false},
    {"uint", "uint", VALUE, 4, 4, false},
    {"long", "long", VALUE, 8, 8, false},
    {"ulong", "ulong", VALUE, 8, 8, false},
    {"float", "float", VALUE, 4, 4, true},
    {"char2", "char", VALUE, 2, 2, false},
    {"uchar3", "uchar", VALUE, 4, 3, false},
    {"short4", "short", VALUE, 8, 8, false},
    {"ushort8", "ushort", VALUE, 16, 16, false},
    {"int16", "int", VALUE, 64, 64, false},
    {"uint2", "uint", VALUE, 8, 8, false},
    {"long3", "long", VALUE, 32, 24, false},
    {"ulong4", "ulong", VALUE, 32, 32, false},
    {"float2", "float", VALUE, 8, 8, true},
    {"float3", "float", VALUE, 16, 12, true},
    {"float4", "float", VALUE, 16, 16, true},
    {"float8", "float", VALUE, 32, 32, true},
    {"float16", "float", VALUE, 64, 64, true},
    {"int3", "int", VALUE, 16, 12, false},
    {"char16", "char", VALUE, 16, 16, false},
    {"S", NULL, STRUCT, sizeof(S), sizeof(S), false},
    {"int", NULL, GLOBAL, sizeof(cl_mem), 4, false},
    {"int", NULL, CONSTANT, sizeof(cl_mem), 4, false},
    {"int", NULL, LOCAL, 0, 4, false},
};
#define TYPES (sizeof(types) / sizeof(types[0]))
enum { ARGS = 64, SLOT = 128 };

/* Argument i >= 1 is of types[(i - 1) % TYPES]; argument 0 is `out`. */
static const struct type *arg_type(int i)
{
    return &types[(i - 1) % TYPES];
}

/* The kernel: each argument's value into its slot of out. */
static char *args64_source(void)
{
    char *source = malloc(64 * 1024), *at = source;
    at += sprintf(at, "typedef struct { char c; long l; int i; } S;\n"
                      "kernel void args64(global uchar *out");
    for (int i = 1; i < ARGS; i++) {
        const struct type *t = arg_type(i);
        static const char *const spaces[] = {"", "", "global ",
                                             "constant ", "local "};
        const char *star = t->kind >= GLOBAL ? "*" : "";
        at += sprintf(at, ",\n    %s%s %sa%d", spaces[t->kind], t->name,
                      star, i);
    }
    at += sprintf(at, ")\n{\n");
    for (int i = 1; i < ARGS; i++) {
        const struct type *t = arg_type(i);
        at += sprintf(at, "    global void *s%d = out + %d;\n", i, i * SLOT);
        if (t->kind == VALUE && t->used < t->size)
            at += sprintf(at, "    vstore3(a%d, 0, (global %s *)s%d);\n", i,
                          t->elem, i);
        else if (t->kind == VALUE || t->kind == STRUCT)
            at += sprintf(at, "    *(global %s *)s%d = a%d;\n", t->name, i,
                          i);
        else if (t->kind == GLOBAL)
            at += sprintf(at, "    *(global int *)s%d = a%d[1]; a%d[0] = "
                              "%d;\n", i, i, i, i);
        else if (t->kind == CONSTANT)
            at += sprintf(at, "    *(global int *)s%d = a%d[0] + a%d[1];\n",
                          i, i, i);
        else
            at += sprintf(at, "    a%d[0] = %d;\n    barrier("
                              "CLK_LOCAL_MEM_FENCE);\n    *(global int *)"
                              "s%d = a%d[0];\n", i, i * 5, i, i);
    }
    sprintf(at, "}\n");
    return source;
}

/* The bytes of by-value argument @p i: element e of a float vector is
 * i * 100 + e + 0.25 (no NaN to lose bits), other bytes (i * 31 + b). */
static void value_bytes(int i, const struct type *t, unsigned char *bytes)
{
    for (size_t b = 0; b < t->size; b++)
        bytes[b] = (unsigned char)(i * 31 + b);
    for (size_t e = 0; t->real && e < t->size / 4; e++) {
        float f = (float)(i * 100 + e) + 0.25f;
        memcpy(bytes + 4 * e, &f, 4);
    }
}

/* True if @p slot of out (and @p buffer) do not hold what argument @p i
 * should have put there. */
static int arg_wrong(int i, const unsigned char *slot, cl_mem buffer)
{
    const struct type *t = arg_type(i);
    unsigned char bytes[64];
    cl_int got, pair[2];
    memcpy(&got, slot, sizeof(got));
    switch (t->kind) {
    case VALUE:
        value_bytes(i, t, bytes);
        return memcmp(slot, bytes, t->used) != 0;
    case STRUCT: {
        S want, have;
        value_bytes(i, t, bytes);
        memcpy(&want, bytes, sizeof(want));
        memcpy(&have, slot, sizeof(have));
        return have.c != want.c || have.l != want.l || have.i != want.i;
    }
    case GLOBAL:
        exec_read(buffer, sizeof(pair), pair);
        return got != i * 1000 + 1 || pair[0] != i;
    case CONSTANT:
        return got != 2 * i * 1000 + 1;
    default:
        return got != i * 5;
    }
}

static void check_args64(void)
{
    char *source = args64_source();
    cl_program p = exec_build(source, "-cl-std=CL3.0");
    free(source);
    if (!p)
        return;
    cl_kernel k = exec_kernel(p, "args64");
    cl_uint num = 0;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(num), &num, NULL),
             CL_SUCCESS);
    CHECK_EQ(num, ARGS);
    static unsigned char out[ARGS * SLOT];
    memset(out, 0xee, sizeof(out));
    cl_mem bout = exec_buffer(sizeof(out), out);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(bout), &bout), CL_SUCCESS);
    cl_mem held[ARGS] = {NULL};
    for (int i = 1; i < ARGS; i++) {
        const struct type *t = arg_type(i);
        unsigned char bytes[64];
        cl_int pair[2] = {i * 1000, i * 1000 + 1};
        switch (t->kind) {
        case VALUE:
        case STRUCT:
            value_bytes(i, t, bytes);
            /* Exactly the type's size, nothing else. */
            CHECK_EQ(clSetKernelArg(k, (cl_uint)i, t->size + 1, bytes),
                     CL_INVALID_ARG_SIZE);
            CHECK_EQ(clSetKernelArg(k, (cl_uint)i, t->size, bytes),
                     CL_SUCCESS);
            break;
        case GLOBAL:
        case CONSTANT:
            held[i] = exec_buffer(sizeof(pair), pair);
            CHECK_EQ(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &held[i]),
                     CL_SUCCESS);
            break;
        case LOCAL:
            CHECK_EQ(clSetKernelArg(k, (cl_uint)i, 16, bytes),
                     CL_INVALID_ARG_VALUE);
            CHECK_EQ(clSetKernelArg(k, (cl_uint)i, 0, NULL),
                     CL_INVALID_ARG_SIZE);
            CHECK_EQ(clSetKernelArg(k, (cl_uint)i, 16, NULL), CL_SUCCESS);
            break;
        }
    }
    CHECK_EQ(clSetKernelArg(k, ARGS, 4, out), CL_INVALID_ARG_INDEX);
    /* A clone carries every value. */
    cl_int err = 1;
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clEnqueueTask(queue, clone, 0, NULL, NULL), CL_SUCCESS);
    exec_read(bout, sizeof(out), out);
    int wrong = 0;
    for (int i = 1; i < ARGS; i++) {
        int bad = arg_wrong(i, out + i * SLOT, held[i]);
        if (bad)
            fprintf(stderr, "argument %d (%s): wrong\n", i,
                    arg_type(i)->name);
        wrong += bad;
    }
    CHECK_EQ(wrong, 0);
    for (int i = 0; i < ARGS; i++)
        if (held[i])
            CHECK_EQ(clReleaseMemObject(held[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(bout), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(clone), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* ---- queries ----------------------------------------------------------- */

static const char queries_source[] =
    "kernel void quals(global const int *restrict a, global volatile int *b,\n"
    "                  constant float *c, local float4 *d, uint e)\n"
    "{\n"
    "    local uint own[32];\n"
    "    own[get_local_id(0) % 32] = e;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    b[get_global_id(0)] = a[0] + (int)c[0] + (int)d[0].x +\n"
    "                          (int)own[0];\n"
    "}\n"
    "kernel __attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "void fixed(global uint *o)\n"
    "{\n"
    "    o[get_global_id(0) + get_global_size(0) * get_global_id(1)] =\n"
    "        (uint)(get_local_size(0) * 10 + get_local_size(1));\n"
    "}\n"
    "kernel void plain(global uint *o)\n"
    "{\n"
    "    o[get_global_id(0)] = (uint)get_local_size(0);\n"
    "}\n";

static void check_arg_info(cl_kernel k, bool names)
{
    static const cl_kernel_arg_address_qualifier address[] = {
        CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_GLOBAL,
        CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_LOCAL,
        CL_KERNEL_ARG_ADDRESS_PRIVATE};
    static const char *const type_names[] = {"int*", "int*", "float*",
                                             "float4*", "uint"};
    static const char *const arg_names[] = {"a", "b", "c", "d", "e"};
    for (cl_uint i = 0; i < 5; i++) {
        cl_kernel_arg_address_qualifier a = 0;
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                    sizeof(a), &a, NULL),
                 CL_SUCCESS);
        CHECK_EQ(a, address[i]);
        cl_kernel_arg_access_qualifier access = 0;
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                    sizeof(access), &access, NULL),
                 CL_SUCCESS);
        CHECK_EQ(access, CL_KERNEL_ARG_ACCESS_NONE);
        char text[64] = "";
        size_t size = 0;
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, 0, NULL,
                                    &size),
                 CL_SUCCESS);
        CHECK_EQ(size, strlen(type_names[i]) + 1);
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME,
                                    sizeof(text), text, NULL),
                 CL_SUCCESS);
        CHECK_STR(text, type_names[i]);
        cl_int want = names ? CL_SUCCESS : CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof(text),
                                    text, NULL),
                 want);
        if (names)
            CHECK_STR(text, arg_names[i]);
    }
    cl_kernel_arg_type_qualifier q = 0;
    CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                sizeof(q), &q, NULL),
             CL_SUCCESS);
    CHECK_EQ(q, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT);
    CHECK_EQ(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                sizeof(q), &q, NULL),
             CL_SUCCESS);
    CHECK_EQ(q, CL_KERNEL_ARG_TYPE_VOLATILE);
    CHECK_EQ(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                sizeof(q), &q, NULL),
             CL_SUCCESS);
    CHECK_EQ(q, CL_KERNEL_ARG_TYPE_NONE);
    CHECK_EQ(clGetKernelArgInfo(k, 5, CL_KERNEL_ARG_NAME, 0, NULL, NULL),
             CL_INVALID_ARG_INDEX);
}

static void check_kernel_info(cl_program p, cl_kernel quals, cl_kernel fixed)
{
    char text[128] = "";
    CHECK_EQ(clGetKernelInfo(quals, CL_KERNEL_FUNCTION_NAME, sizeof(text),
                             text, NULL),
             CL_SUCCESS);
    CHECK_STR(text, "quals");
    cl_uint num = 0;
    CHECK_EQ(clGetKernelInfo(quals, CL_KERNEL_NUM_ARGS, sizeof(num), &num,
                             NULL),
             CL_SUCCESS);
    CHECK_EQ(num, 5);
    CHECK_EQ(clGetKernelInfo(quals, CL_KERNEL_ATTRIBUTES, sizeof(text), text,
                             NULL),
             CL_SUCCESS);
    CHECK_STR(text, "");
    CHECK_EQ(clGetKernelInfo(fixed, CL_KERNEL_ATTRIBUTES, sizeof(text), text,
                             NULL),
             CL_SUCCESS);
    CHECK(strstr(text, "reqd_work_group_size(8,2,1)") != NULL);
    cl_program owner = NULL;
    CHECK_EQ(clGetKernelInfo(quals, CL_KERNEL_PROGRAM, sizeof(owner), &owner,
                             NULL),
             CL_SUCCESS);
    CHECK(owner == p);
    cl_context ctx = NULL;
    CHECK_EQ(clGetKernelInfo(quals, CL_KERNEL_CONTEXT, sizeof(ctx), &ctx,
                             NULL),
             CL_SUCCESS);
    CHECK(ctx == context);
}

static void check_group_info(cl_kernel quals, cl_kernel fixed)
{
    size_t size = 0, sizes[3] = {9, 9, 9};
    cl_ulong bytes = 0;
    CHECK_EQ(clGetKernelWorkGroupInfo(quals, device, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(size), &size, NULL),
             CL_SUCCESS);
    CHECK_EQ(size, 4096);
    CHECK_EQ(clGetKernelWorkGroupInfo(
                 quals, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                 sizeof(size), &size, NULL),
             CL_SUCCESS);
    CHECK_EQ(size, 16);
    CHECK_EQ(clGetKernelWorkGroupInfo(quals, device,
                                      CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                      sizeof(sizes), sizes, NULL),
             CL_SUCCESS);
    CHECK(sizes[0] == 0 && sizes[1] == 0 && sizes[2] == 0);
    CHECK_EQ(clGetKernelWorkGroupInfo(fixed, NULL,
                                      CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                      sizeof(sizes), sizes, NULL),
             CL_SUCCESS);
    CHECK(sizes[0] == 8 && sizes[1] == 2 && sizes[2] == 1);
    /* The kernel's own 32 uints, then with d's 64 bytes. */
    CHECK_EQ(clGetKernelWorkGroupInfo(quals, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                      sizeof(bytes), &bytes, NULL),
             CL_SUCCESS);
    CHECK_EQ(bytes, 128);
    CHECK_EQ(clSetKernelArg(quals, 3, 64, NULL), CL_SUCCESS);
    CHECK_EQ(clGetKernelWorkGroupInfo(quals, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                      sizeof(bytes), &bytes, NULL),
             CL_SUCCESS);
    CHECK_EQ(bytes, 128 + 64);
    CHECK_EQ(clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                      sizeof(bytes), &bytes, NULL),
             CL_SUCCESS);
    CHECK_EQ(bytes, 0);
    size_t got = 0;
    CHECK_EQ(clGetKernelWorkGroupInfo(quals, device,
                                      CL_KERNEL_PRIVATE_MEM_SIZE, 0, NULL,
                                      &got),
             CL_SUCCESS);
    CHECK_EQ(got, sizeof(cl_ulong));
    /* CL_INVALID_VALUE "if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
     * device is not a custom device and kernel is not a built-in kernel". */
    CHECK_EQ(clGetKernelWorkGroupInfo(quals, device,
                                      CL_KERNEL_GLOBAL_WORK_SIZE,
                                      sizeof(sizes), sizes, NULL),
             CL_INVALID_VALUE);
}

/* __local memory of the kernel and its arguments over
 * CL_DEVICE_LOCAL_MEM_SIZE: CL_OUT_OF_RESOURCES. */
static void check_local_limit(cl_kernel quals)
{
    cl_ulong limit = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(limit),
                             &limit, NULL),
             CL_SUCCESS);
    cl_mem b = exec_buffer(64, NULL);
    for (cl_uint i = 0; i < 3; i++)
        CHECK_EQ(clSetKernelArg(quals, i, sizeof(b), &b), CL_SUCCESS);
    cl_uint e = 1;
    CHECK_EQ(clSetKernelArg(quals, 4, sizeof(e), &e), CL_SUCCESS);
    /* The kernel's 128 bytes and d's: just over. */
    CHECK_EQ(clSetKernelArg(quals, 3, (size_t)limit - 64, NULL), CL_SUCCESS);
    const size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, quals, 1, NULL, &one, &one, 0,
                                    NULL, NULL),
             CL_OUT_OF_RESOURCES);
    CHECK_EQ(clSetKernelArg(quals, 3, 16, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, quals, 1, NULL, &one, &one, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
}

/* reqd_work_group_size(8, 2, 1): only (8, 2) groups, chosen when none is
 * given. */
static void check_required(cl_kernel fixed)
{
    enum { X = 64, Y = 4 };
    cl_mem b = exec_buffer(X * Y * sizeof(cl_uint), NULL);
    CHECK_EQ(clSetKernelArg(fixed, 0, sizeof(b), &b), CL_SUCCESS);
    const size_t global[2] = {X, Y}, good[2] = {8, 2}, bad[2] = {4, 4};
    /* "if local_work_size is specified and does not match the required
     * work-group size for kernel in the program source". */
    CHECK_EQ(clEnqueueNDRangeKernel(queue, fixed, 2, NULL, global, bad, 0,
                                    NULL, NULL),
             CL_INVALID_WORK_GROUP_SIZE);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, fixed, 1, NULL, global, good, 0,
                                    NULL, NULL),
             CL_INVALID_WORK_GROUP_SIZE);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, fixed, 2, NULL, global, good, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    static cl_uint out[X * Y];
    exec_read(b, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < X * Y; i++)
        wrong += out[i] != 82;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clEnqueueFillBuffer(queue, b, &(cl_uint){0}, sizeof(cl_uint), 0,
                                 sizeof(out), 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, fixed, 2, NULL, global, NULL, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b, sizeof(out), out);
    wrong = 0;
    for (size_t i = 0; i < X * Y; i++)
        wrong += out[i] != 82;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
}

/* @p options' builds want uniform work-groups: a global size that a
 * given local size does not divide is refused; with none given, refcl
 * chooses a divisor. */
static void check_uniform(const char *options, bool uniform)
{
    cl_program p = exec_build(queries_source, options);
    if (!p)
        return;
    cl_kernel k = exec_kernel(p, "plain");
    enum { N = 100 };
    cl_mem b = exec_buffer(N * sizeof(cl_uint), NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    const size_t global = N, eight = 8;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &eight, 0,
                                    NULL, NULL),
             uniform ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    static cl_uint out[N];
    exec_read(b, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] == 0 || N % out[i] != 0 || out[i] != out[0];
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* clCreateKernel and clCreateKernelsInProgram on programs from source. */
static void check_create(cl_program built)
{
    const char *source = queries_source;
    cl_int err = 1;
    cl_program unbuilt = clCreateProgramWithSource(context, 1, &source, NULL,
                                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(clCreateKernel(unbuilt, "plain", &err) == NULL);
    CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
    cl_uint count = 9;
    CHECK_EQ(clCreateKernelsInProgram(unbuilt, 0, NULL, &count),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clReleaseProgram(unbuilt), CL_SUCCESS);
    CHECK(clCreateKernel(built, "nope", &err) == NULL);
    CHECK_EQ(err, CL_INVALID_KERNEL_NAME);
    CHECK_EQ(clCreateKernelsInProgram(built, 0, NULL, &count), CL_SUCCESS);
    CHECK_EQ(count, 3);
    cl_kernel kernels[3] = {NULL};
    CHECK_EQ(clCreateKernelsInProgram(built, 2, kernels, NULL),
             CL_INVALID_VALUE);
    CHECK(kernels[0] == NULL);
    CHECK_EQ(clCreateKernelsInProgram(built, 3, kernels, &count), CL_SUCCESS);
    char names[3][16];
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, 16,
                                 names[i], NULL),
                 CL_SUCCESS);
        CHECK_EQ(clReleaseKernel(kernels[i]), CL_SUCCESS);
    }
    CHECK(strcmp(names[0], names[1]) && strcmp(names[1], names[2]) &&
          strcmp(names[0], names[2]));
}

int main(void)
{
    exec_setup();
    check_args64();
    cl_program bare = exec_build(queries_source, "-cl-std=CL3.0");
    cl_program info = exec_build(queries_source,
                                 "-cl-std=CL3.0 -cl-kernel-arg-info");
    if (bare && info) {
        cl_kernel quals = exec_kernel(bare, "quals");
        cl_kernel named = exec_kernel(info, "quals");
        cl_kernel fixed = exec_kernel(bare, "fixed");
        check_arg_info(quals, false);
        check_arg_info(named, true);
        check_kernel_info(bare, quals, fixed);
        check_group_info(quals, fixed);
        check_local_limit(quals);
        check_required(fixed);
        check_create(bare);
        CHECK_EQ(clReleaseKernel(quals), CL_SUCCESS);
        CHECK_EQ(clReleaseKernel(named), CL_SUCCESS);
        CHECK_EQ(clReleaseKernel(fixed), CL_SUCCESS);
    }
    if (bare)
        CHECK_EQ(clReleaseProgram(bare), CL_SUCCESS);
    if (info)
        CHECK_EQ(clReleaseProgram(info), CL_SUCCESS);
    check_uniform("-cl-std=CL3.0", false);
    check_uniform("-cl-std=CL3.0 -cl-uniform-work-group-size", true);
    check_uniform("-cl-std=CL1.2", true);
    exec_teardown();
    return TEST_RESULT();
}
