/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/il-half: SPIR-V with Float16 (tests/program/il/half.cl, which
 * clang-15 and llvm-spirv-15 made; REFCL_TEST_SPIRV names it): half
 * arithmetic, fma, sqrt, a directed conversion, builtins of half2, half3,
 * half4, half8 and half16 (through refcl-adapt-calls) and a double cast to
 * half, built at once and compiled then linked, each result checked
 * against the host. Skipped (77) where the device reports no IL or no
 * cl_khr_fp16.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 64

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static long double decode(cl_half h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    long double sign = h & 0x8000 ? -1 : 1;
    if (e == 0x1f)
        return m ? NAN : sign * INFINITY;
    return sign * (e ? ldexpl(1024 + m, e - 25) : ldexpl(m, -24));
}

/* @v rounded to half, to nearest even or (@rtz) toward zero. */
static cl_half round_half(long double v, bool rtz)
{
    if (isnan(v))
        return 0x7e00;
    cl_half sign = signbit(v) ? 0x8000 : 0;
    long double a = fabsl(v);
    long double q = ldexpl(1, a < 0x1p-14L ? -24 : ilogbl(a) - 10);
    long double m = a / q, lo = floorl(m), frac = m - lo;
    if (!rtz && (frac > 0.5L || (frac == 0.5L && fmodl(lo, 2) == 1)))
        lo++;
    long double r = lo * q;
    if (r > 65504)
        return sign | (rtz ? 0x7bff : 0x7c00);
    if (r < 0x1p-14L)
        return sign | (cl_half)(r * 0x1p24L);
    int e = ilogbl(r);
    return sign | (cl_half)((e + 15) << 10) | (cl_half)(ldexpl(r, 10 - e) - 1024);
}

static cl_mem buffer(void *host, size_t size)
{
    cl_int err = 1;
    cl_mem b = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, size, host, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return b;
}

static void run(cl_program program, const char *name, cl_mem *args, int n,
                size_t global)
{
    cl_int err = 1;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    for (int i = 0; i < n; i++)
        CHECK_EQ(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]),
                 CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL,
                                    NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(k);
}

static void read_back(cl_mem b, void *host, size_t size)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, size, host, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    clReleaseMemObject(b);
}

static void check(cl_program program)
{
    cl_half a[1024], b[N], r[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = (cl_half)(0x3000 + i * 37 % 0x1800 + (i % 3 ? 0 : 0x8000));
    for (int i = 0; i < N; i++)
        b[i] = (cl_half)(0x3c00 + i * 11);
    cl_mem args[3] = {buffer(a, sizeof(a)), buffer(b, sizeof(b)),
                      buffer(r, sizeof(r))};
    run(program, "scalar", args, 3, N);
    read_back(args[2], r, 4 * N * sizeof(cl_half));
    clReleaseMemObject(args[0]);
    clReleaseMemObject(args[1]);
    for (int i = 0; i < N; i++) {
        long double x = decode(a[i]), y = decode(b[i]);
        cl_half apart = round_half(decode(round_half(x * y, false)) + x, false);
        cl_half fused = round_half(x * y + x, false);
        CHECK(r[4 * i] == apart || r[4 * i] == fused);
        CHECK_EQ(r[4 * i + 1], fused);
        CHECK_EQ(r[4 * i + 2], round_half(sqrtl(fabsl(x)), false));
        CHECK_EQ(r[4 * i + 3], round_half((float)x * 3.0f, true));
    }

    cl_mem w[2] = {buffer(a, sizeof(a)), buffer(r, sizeof(r))};
    run(program, "widths", w, 2, 16);
    read_back(w[1], r, sizeof(r));
    clReleaseMemObject(w[0]);
    for (int i = 0; i < 80; i++)
        CHECK_EQ(r[i], a[i] & 0x7fff);
    for (int i = 80; i < 144; i++)
        CHECK_EQ(r[i], round_half(fmaxl(decode(a[i]), 0.5L), false));
    for (int i = 144; i < 272; i++)
        CHECK_EQ(r[i], round_half(fminl(decode(a[i]), 0.5L), false));
    for (int i = 272; i < 528; i++)
        CHECK_EQ(r[i], round_half(floorl(decode(a[i])), false));

    double d[N];
    for (int i = 0; i < N; i++) {
        long double tie = (decode((cl_half)(0x3c00 + i)) +
                           decode((cl_half)(0x3c01 + i))) / 2;
        d[i] = i % 2 ? nextafter((double)tie, INFINITY) : (double)tie;
    }
    cl_mem c[2] = {buffer(d, sizeof(d)), buffer(r, sizeof(r))};
    run(program, "casts", c, 2, N);
    read_back(c[1], r, N * sizeof(cl_half));
    clReleaseMemObject(c[0]);
    for (int i = 0; i < N; i++)
        CHECK_EQ(r[i], round_half(d[i], false));
}

int main(void)
{
    size_t size = 0;
    unsigned char *spirv = NULL;
    int start = test_il_start(&device, &context, &queue, &spirv, &size);
    if (start)
        return start;
    if (!test_device_has_extension(device, "cl_khr_fp16")) {
        fprintf(stderr, "the device does not report cl_khr_fp16\n");
        return TEST_SKIP;
    }
    cl_int err = 1;
    cl_program program = clCreateProgramWithIL(context, spirv, size, &err);
    CHECK_EQ(err, CL_SUCCESS);
    err = clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    CHECK_EQ(err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                              sizeof(log), log, NULL);
        fprintf(stderr, "build log:\n%s\n", log);
        return 1;
    }
    check(program);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    program = clCreateProgramWithIL(context, spirv, size, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_program linked = test_il_compile_link(context, program);
    if (linked) {
        check(linked);
        CHECK_EQ(clReleaseProgram(linked), CL_SUCCESS);
    }
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    clReleaseCommandQueue(queue);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    free(spirv);
    return TEST_RESULT();
}
