/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il-spirv14: SPIR-V 1.4's instructions that llvm-spirv-15 cannot
 * read, which refcl rewrites before the translator reads the module
 * (compiler/spirv_lower.c), in kernels run and checked against the host's
 * own answers: OpPtrDiff of elements of a 24-byte struct, a float3 and a
 * uint (into a 32-bit result), OpPtrEqual and OpPtrNotEqual, OpCopyLogical
 * of a struct holding an array of structs, OpDecorateString and
 * OpMemberDecorateString of UserSemantic, OpCopyMemory and
 * OpCopyMemorySized with two sets of memory operands, one and none.
 * tests/program/il/spirv14.spvasm, assembled by spirv-as when the tests
 * were built (REFCL_TEST_SPIRV names it). Skipped (77) where the device
 * reports no IL.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static cl_context context;
static cl_command_queue queue;
static cl_program program;

static cl_kernel kernel_named(const char *name)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return kernel;
}

static cl_mem buffer_of(size_t size, void *host)
{
    return test_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host);
}

static void run(cl_kernel kernel, size_t global)
{
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                    NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

static void read_back(cl_mem buffer, size_t size, void *host)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, size, host, 0,
                                 NULL, NULL), CL_SUCCESS);
}

/* "Element-number subtraction of the Operand 2 from Operand 1": the
 * index of one element less the other's, whatever the element's size;
 * OpPtrEqual and OpPtrNotEqual of the same and of different elements. */
static void check_pointer_operations(void)
{
    cl_kernel kernel = kernel_named("ptrops");
    int64_t out[7] = {0};
    unsigned char elements[8 * 24] = {0}, vectors[8 * 16] = {0},
                  words[8 * 4] = {0};
    cl_mem bout = buffer_of(sizeof(out), out);
    cl_mem be = buffer_of(sizeof(elements), elements);
    cl_mem bv = buffer_of(sizeof(vectors), vectors);
    cl_mem bu = buffer_of(sizeof(words), words);
    const int64_t pairs[][2] = {{2, 7}, {6, 1}, {3, 3}};
    for (size_t p = 0; p < 3; p++) {
        uint64_t i = (uint64_t)pairs[p][0], j = (uint64_t)pairs[p][1];
        CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(bout), &bout), CL_SUCCESS);
        CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(be), &be), CL_SUCCESS);
        CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(bv), &bv), CL_SUCCESS);
        CHECK_EQ(clSetKernelArg(kernel, 3, sizeof(bu), &bu), CL_SUCCESS);
        CHECK_EQ(clSetKernelArg(kernel, 4, sizeof(i), &i), CL_SUCCESS);
        CHECK_EQ(clSetKernelArg(kernel, 5, sizeof(j), &j), CL_SUCCESS);
        run(kernel, 1);
        read_back(bout, sizeof(out), out);
        int64_t difference = pairs[p][0] - pairs[p][1];
        CHECK_EQ(out[0], difference);
        CHECK_EQ(out[1], difference);
        CHECK_EQ(out[2], difference);
        CHECK_EQ(out[3], 1); /* equal to itself */
        CHECK_EQ(out[4], i == j ? 1 : 2);
        CHECK_EQ(out[5], i != j ? 1 : 2);
        CHECK_EQ(out[6], 2); /* not unequal to itself */
    }
    clReleaseMemObject(bout);
    clReleaseMemObject(be);
    clReleaseMemObject(bv);
    clReleaseMemObject(bu);
    clReleaseKernel(kernel);
}

/* The kernels' struct_a and struct_b: the same members, laid out as C. */
struct inner {
    uint16_t s;
    uint32_t u;
};
struct outer {
    uint32_t x;
    float y;
    struct inner c[3];
};

/* OpCopyLogical copies every member: the destination equals the source,
 * field by field (not the padding). */
static void check_copy_logical(void)
{
    cl_kernel kernel = kernel_named("copylogical");
    struct outer src = {0xdeadbeefu, 3.1415f, {{1, 10}, {65535, 0xffffffffu},
                                               {7, 0x12345678u}}};
    struct outer dst;
    memset(&dst, 0, sizeof(dst));
    cl_mem bdst = buffer_of(sizeof(dst), &dst);
    cl_mem bsrc = buffer_of(sizeof(src), &src);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(bdst), &bdst), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(bsrc), &bsrc), CL_SUCCESS);
    run(kernel, 1);
    read_back(bdst, sizeof(dst), &dst);
    CHECK_EQ(dst.x, src.x);
    CHECK(dst.y == src.y);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(dst.c[k].s, src.c[k].s);
        CHECK_EQ(dst.c[k].u, src.c[k].u);
    }
    clReleaseMemObject(bdst);
    clReleaseMemObject(bsrc);
    clReleaseKernel(kernel);
}

/* UserSemantic changes nothing: out[gid] = gid + 7. */
static void check_user_semantic(void)
{
    enum { N = 64 };
    cl_kernel kernel = kernel_named("usersemantic");
    uint32_t out[N] = {0};
    cl_mem bout = buffer_of(sizeof(out), out);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(bout), &bout), CL_SUCCESS);
    run(kernel, N);
    read_back(bout, sizeof(out), out);
    int wrong = 0;
    for (uint32_t k = 0; k < N; k++)
        wrong += out[k] != k + 7;
    CHECK_EQ(wrong, 0);
    clReleaseMemObject(bout);
    clReleaseKernel(kernel);
}

/* Six words and a pair of words copied, through every form of memory
 * operands. */
static void check_copy_memory(void)
{
    cl_kernel kernel = kernel_named("copymemory");
    uint32_t src[6] = {11, 22, 33, 44, 55, 66}, dst[6] = {0};
    uint32_t psrc[2] = {0xabcdef01u, 0x10203040u}, pdst[2] = {0};
    cl_mem bdst = buffer_of(sizeof(dst), dst);
    cl_mem bsrc = buffer_of(sizeof(src), src);
    cl_mem bpdst = buffer_of(sizeof(pdst), pdst);
    cl_mem bpsrc = buffer_of(sizeof(psrc), psrc);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(bdst), &bdst), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(bsrc), &bsrc), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(bpdst), &bpdst), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 3, sizeof(bpsrc), &bpsrc), CL_SUCCESS);
    run(kernel, 1);
    read_back(bdst, sizeof(dst), dst);
    read_back(bpdst, sizeof(pdst), pdst);
    for (int k = 0; k < 6; k++)
        CHECK_EQ(dst[k], src[k]);
    CHECK_EQ(pdst[0], psrc[0]);
    CHECK_EQ(pdst[1], psrc[1]);
    clReleaseMemObject(bdst);
    clReleaseMemObject(bsrc);
    clReleaseMemObject(bpdst);
    clReleaseMemObject(bpsrc);
    clReleaseKernel(kernel);
}

int main(void)
{
    cl_device_id device;
    unsigned char *spirv = NULL;
    size_t size = 0;
    int start = test_il_start(&device, &context, &queue, &spirv, &size);
    if (start)
        return start;
    program = test_il_program(context, spirv, size);
    cl_int built = clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    if (built != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                              sizeof(log), log, NULL);
        fprintf(stderr, "build log:\n%s\n", log);
    }
    CHECK_EQ(built, CL_SUCCESS);
    check_pointer_operations();
    check_copy_logical();
    check_user_semantic();
    check_copy_memory();
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    clReleaseCommandQueue(queue);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    free(spirv);
    return TEST_RESULT();
}
