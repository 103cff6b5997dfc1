/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/args64: the built-in refcl_args64 (docs/built-in-kernels.md), a
 * kernel of 64 arguments of every kind: buffers (__global, __constant, an
 * SVM pointer), two __local sizes, scalars of 1, 2, 4 and 8 bytes, vectors
 * up to 128 bytes, structs by value. Every argument's declared size is
 * enforced exactly by clSetKernelArg; every value set arrives intact (the
 * kernel copies each into its output, compared with what this test set,
 * laid out from the documented signature); a command keeps the values of
 * its enqueue; a clone keeps its own after its source is released.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define ARGS 64
#define OUT_BYTES 1064 /* 133 ulongs */
#define ITEMS 4        /* work-items of the one work-group */

/* The signature, as docs/built-in-kernels.md writes it. */
enum kind { OUT, GLOBAL, CONSTANT, SVM, LOCAL, VALUE };
struct arg {
    enum kind kind;
    const char *type;   /* CL_KERNEL_ARG_TYPE_NAME */
    size_t size;        /* by value: bytes; else one element's */
    size_t count;       /* buffers: elements the kernel reads */
};

static const struct arg sig[ARGS] = {
    {OUT, "ulong*", 8, 0},          {GLOBAL, "uchar*", 1, 8},
    {GLOBAL, "int*", 4, 2},         {CONSTANT, "uint*", 4, 2},
    {SVM, "ulong*", 8, 1},          {CONSTANT, "double*", 8, 1},
    {LOCAL, "ulong*", 8, 0},        {LOCAL, "uchar*", 1, 0},
    {VALUE, "char", 1, 0},          {VALUE, "uchar", 1, 0},
    {VALUE, "short", 2, 0},         {VALUE, "ushort", 2, 0},
    {VALUE, "int", 4, 0},           {VALUE, "uint", 4, 0},
    {VALUE, "long", 8, 0},          {VALUE, "ulong", 8, 0},
    {VALUE, "half", 2, 0},          {VALUE, "float", 4, 0},
    {VALUE, "double", 8, 0},
    {VALUE, "char2", 2, 0},         {VALUE, "char3", 4, 0},
    {VALUE, "char4", 4, 0},         {VALUE, "char8", 8, 0},
    {VALUE, "char16", 16, 0},       {VALUE, "uchar2", 2, 0},
    {VALUE, "uchar3", 4, 0},        {VALUE, "uchar4", 4, 0},
    {VALUE, "uchar8", 8, 0},        {VALUE, "uchar16", 16, 0},
    {VALUE, "short2", 4, 0},        {VALUE, "short3", 8, 0},
    {VALUE, "short4", 8, 0},        {VALUE, "short8", 16, 0},
    {VALUE, "ushort2", 4, 0},       {VALUE, "ushort3", 8, 0},
    {VALUE, "ushort4", 8, 0},       {VALUE, "ushort16", 32, 0},
    {VALUE, "int2", 8, 0},          {VALUE, "int3", 16, 0},
    {VALUE, "int4", 16, 0},         {VALUE, "int8", 32, 0},
    {VALUE, "uint2", 8, 0},         {VALUE, "uint3", 16, 0},
    {VALUE, "uint4", 16, 0},        {VALUE, "long2", 16, 0},
    {VALUE, "long3", 32, 0},        {VALUE, "long16", 128, 0},
    {VALUE, "ulong2", 16, 0},       {VALUE, "half2", 4, 0},
    {VALUE, "half3", 8, 0},         {VALUE, "half4", 8, 0},
    {VALUE, "half8", 16, 0},        {VALUE, "half16", 32, 0},
    {VALUE, "float2", 8, 0},        {VALUE, "float3", 16, 0},
    {VALUE, "float4", 16, 0},       {VALUE, "float8", 32, 0},
    {VALUE, "double2", 16, 0},      {VALUE, "double3", 32, 0},
    {VALUE, "double4", 32, 0},      {VALUE, "double16", 128, 0},
    {VALUE, "struct refcl_args64_pair", 8, 0},
    {VALUE, "struct refcl_args64_odd", 3, 0},
    {VALUE, "struct refcl_args64_big", 56, 0},
};

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_mem out, buffers[ARGS];
static void *svm;

/* Byte @p j of argument @p i's value, in version @p salt of the values. */
static unsigned char pattern(size_t i, size_t j, unsigned salt)
{
    return (unsigned char)(i * 37 + j * 11 + 5 + salt * 101);
}

static void fill(unsigned char *bytes, size_t i, size_t n, unsigned salt)
{
    for (size_t j = 0; j < n; j++)
        bytes[j] = pattern(i, j, salt);
}

/* What the kernel writes into `out`, from this test's own reading of the
 * documentation: a record per argument after `out`, each padded with
 * zeros to a multiple of 8 bytes. */
static void expected(unsigned char want[OUT_BYTES], unsigned salt)
{
    memset(want, 0, OUT_BYTES);
    size_t at = 0;
    for (size_t i = 1; i < ARGS; i++) {
        const struct arg *a = &sig[i];
        size_t bytes = a->kind == VALUE ? a->size : a->size * a->count;
        if (a->kind == LOCAL) {
            cl_ulong sum = 0;
            for (cl_ulong l = 1; l <= ITEMS; l++)
                sum += a->size == 1 ? (cl_uchar)l : l;
            memcpy(want + at, &sum, sizeof(sum));
            bytes = sizeof(sum);
        } else {
            /* Buffers always hold version 0. */
            fill(want + at, i, bytes, a->kind == VALUE ? salt : 0);
        }
        at += (bytes + 7) / 8 * 8;
    }
    CHECK_EQ(at, OUT_BYTES);
}

/* Sets by-value argument @p i of @p k to version @p salt. */
static void set_value(cl_kernel k, cl_uint i, unsigned salt)
{
    unsigned char value[128];
    fill(value, i, sig[i].size, salt);
    CHECK_EQ(clSetKernelArg(k, i, sig[i].size, value), CL_SUCCESS);
}

/* The buffers (and the SVM allocation) of the pointer arguments. */
static void make_buffers(void)
{
    unsigned char bytes[64];
    out = test_buffer(context, CL_MEM_READ_WRITE, OUT_BYTES, NULL);
    for (size_t i = 1; i < ARGS; i++) {
        size_t n = sig[i].size * sig[i].count;
        fill(bytes, i, n, 0);
        if (sig[i].kind == GLOBAL || sig[i].kind == CONSTANT)
            buffers[i] = test_buffer(context,
                                     CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     n, bytes);
        if (sig[i].kind == SVM) {
            svm = clSVMAlloc(context, CL_MEM_READ_WRITE, n, 0);
            CHECK(svm != NULL);
            if (svm)
                memcpy(svm, bytes, n);
        }
    }
}

/* Every argument of @p k, the by-value ones to version @p salt. */
static void set_all(cl_kernel k, unsigned salt)
{
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    for (cl_uint i = 1; i < ARGS; i++) {
        switch (sig[i].kind) {
        case VALUE:
            set_value(k, i, salt);
            break;
        case LOCAL:
            CHECK_EQ(clSetKernelArg(k, i, ITEMS * sig[i].size, NULL),
                     CL_SUCCESS);
            break;
        case SVM:
            CHECK_EQ(clSetKernelArgSVMPointer(k, i, svm), CL_SUCCESS);
            break;
        default:
            CHECK_EQ(clSetKernelArg(k, i, sizeof(cl_mem), &buffers[i]),
                     CL_SUCCESS);
        }
    }
}

/* Clears `out`, runs @p k over one work-group of ITEMS (after @p wait, if
 * any), and returns its event. */
static cl_event run(cl_kernel k, cl_event wait)
{
    const cl_uchar zero = 0;
    const size_t items = ITEMS;
    cl_event done = NULL;
    CHECK_EQ(clEnqueueFillBuffer(queue, out, &zero, 1, 0, OUT_BYTES, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &items, &items,
                                    wait ? 1 : 0, wait ? &wait : NULL, &done),
             CL_SUCCESS);
    return done;
}

/* `out` after @p done equals version @p salt of the values. */
static void check_out(cl_event done, unsigned salt)
{
    unsigned char got[OUT_BYTES], want[OUT_BYTES];
    CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, OUT_BYTES, got, 1,
                                 &done, NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(done), CL_SUCCESS);
    expected(want, salt);
    for (size_t b = 0; b < OUT_BYTES; b++)
        if (got[b] != want[b]) {
            fprintf(stderr, "out byte %zu: %u, expected %u\n", b, got[b],
                    want[b]);
            CHECK_EQ(got[b], want[b]);
            break;
        }
}

/* The signature as clGetKernelArgInfo answers it. */
static void check_info(cl_kernel k)
{
    cl_uint count = 0;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(count), &count,
                             NULL),
             CL_SUCCESS);
    CHECK_EQ(count, ARGS);
    for (cl_uint i = 0; i < ARGS; i++) {
        char type[64] = "";
        cl_kernel_arg_address_qualifier address = 0;
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME,
                                    sizeof(type), type, NULL),
                 CL_SUCCESS);
        CHECK_STR(type, sig[i].type);
        CHECK_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                    sizeof(address), &address, NULL),
                 CL_SUCCESS);
        CHECK_EQ(address,
                 sig[i].kind == VALUE      ? CL_KERNEL_ARG_ADDRESS_PRIVATE
                 : sig[i].kind == LOCAL    ? CL_KERNEL_ARG_ADDRESS_LOCAL
                 : sig[i].kind == CONSTANT ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                                           : CL_KERNEL_ARG_ADDRESS_GLOBAL);
    }
    CHECK_EQ(clGetKernelArgInfo(k, ARGS, CL_KERNEL_ARG_TYPE_NAME, 0, NULL,
                                NULL),
             CL_INVALID_ARG_INDEX);
}

/* clSetKernelArg takes each argument at exactly its declared size. */
static void check_sizes(cl_kernel k)
{
    unsigned char value[256] = {0};
    cl_mem none = NULL;
    for (cl_uint i = 0; i < ARGS; i++) {
        switch (sig[i].kind) {
        case VALUE:
            /* CL_INVALID_ARG_SIZE "if arg_size does not match the size of
             * the data type for an argument that is not a memory object";
             * CL_INVALID_ARG_VALUE for no value. */
            CHECK_EQ(clSetKernelArg(k, i, sig[i].size - 1, value),
                     CL_INVALID_ARG_SIZE);
            CHECK_EQ(clSetKernelArg(k, i, sig[i].size + 1, value),
                     CL_INVALID_ARG_SIZE);
            CHECK_EQ(clSetKernelArg(k, i, sizeof(value), value),
                     CL_INVALID_ARG_SIZE);
            CHECK_EQ(clSetKernelArg(k, i, sig[i].size, NULL),
                     CL_INVALID_ARG_VALUE);
            break;
        case LOCAL:
            CHECK_EQ(clSetKernelArg(k, i, 0, NULL), CL_INVALID_ARG_SIZE);
            CHECK_EQ(clSetKernelArg(k, i, 8, value), CL_INVALID_ARG_VALUE);
            break;
        default:
            CHECK_EQ(clSetKernelArg(k, i, sizeof(cl_mem) + 1, &none),
                     CL_INVALID_ARG_SIZE);
        }
    }
    CHECK_EQ(clSetKernelArg(k, ARGS, 4, value), CL_INVALID_ARG_INDEX);
}

/* Every value arrives; a command keeps the values of its enqueue, a clone
 * its own copies. */
static void check_values(cl_program p)
{
    cl_int err = 1;
    cl_kernel k = clCreateKernel(p, "refcl_args64", &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_info(k);
    check_sizes(k);
    /* All but the last set: CL_INVALID_KERNEL_ARGS "if the kernel argument
     * values have not been specified". */
    set_all(k, 0);
    cl_kernel fresh = clCreateKernel(p, "refcl_args64", &err);
    for (cl_uint i = 0; i + 1 < ARGS; i++)
        if (sig[i].kind == VALUE)
            set_value(fresh, i, 0);
    const size_t items = ITEMS;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, fresh, 1, NULL, &items, &items, 0,
                                    NULL, NULL),
             CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clReleaseKernel(fresh), CL_SUCCESS);

    check_out(run(k, NULL), 0);

    /* Values changed after the enqueue do not reach the command. */
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event done = run(k, gate);
    set_all(k, 1);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    check_out(done, 0);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);

    /* A clone has the values of version 1, and keeps them when its source
     * is released and when its source changes them. */
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_EQ(err, CL_SUCCESS);
    set_all(k, 2);
    check_out(run(k, NULL), 2);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    check_out(run(clone, NULL), 1);
    CHECK_EQ(clReleaseKernel(clone), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    cl_int err = 1;
    cl_program p = clCreateProgramWithBuiltInKernels(context, 1, &device,
                                                     "refcl_args64", &err);
    CHECK_EQ(err, CL_SUCCESS);
    make_buffers();
    check_values(p);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    for (size_t i = 0; i < ARGS; i++)
        if (buffers[i])
            CHECK_EQ(clReleaseMemObject(buffers[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    clSVMFree(context, svm);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
