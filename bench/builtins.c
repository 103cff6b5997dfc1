/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_bench's figures of the OpenCL C builtin library: kernels
 * from OpenCL C over 16 Mi elements, the time of one enqueue to completion —
 * sin, exp and pow on floats, convert_uchar4_sat_rte of float4s, atomic_add
 * contended on one counter and on 64 (in the ICD's groups and in groups of
 * 64), tiles moved through __local memory by async_work_group_copy, and
 * one update y = 2.5 x + 1 through a helper taking __global pointers and
 * the same through generic ones (OpenCL C 3.0), which should cost the
 * same, and float4s gathered from scattered addresses, kept across a
 * barrier and added to a neighbour's through __local memory. Each figure
 * checks its result once, so a fast wrong kernel is an error, not a
 * figure.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/** Work-items of each figure. */
#define N ((size_t)16 * 1024 * 1024)
/** The async copies' tile, one work-group's. */
#define TILE ((size_t)256)
/** gather_f4's stride: odd, so i * SCATTER modulo a power of two is a
 *  permutation, its neighbours far apart. */
#define SCATTER 40503
#define STRING(x) #x
#define STRINGIFY(x) STRING(x)

static const char source[] =
    "kernel void sin_f(global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); y[i] = sin(x[i]); }\n"
    "kernel void exp_f(global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); y[i] = exp(x[i]); }\n"
    "kernel void pow_f(global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); y[i] = pow(x[i], 0.75f * x[i]); }\n"
    "kernel void convert_f4(global const float4 *x, global uchar4 *y)\n"
    "{ size_t i = get_global_id(0); y[i] = convert_uchar4_sat_rte(x[i]); }\n"
    "kernel void atomic_1(global const float *x, global int *c)\n"
    "{ atomic_add(c, 1); }\n"
    "kernel void atomic_64(global const float *x, global int *c)\n"
    "{ atomic_add(&c[get_global_id(0) & 63], 1); }\n"
    "kernel void tiles(global const float *x, global float *y,\n"
    "                  local float *tile)\n"
    "{\n"
    "    size_t n = get_local_size(0), at = get_group_id(0) * n;\n"
    "    event_t e = async_work_group_copy(tile, x + at, n, 0);\n"
    "    wait_group_events(1, &e);\n"
    "    size_t l = get_local_id(0);\n"
    "    float twice = 2.0f * tile[n - 1 - l];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    tile[l] = twice;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    e = async_work_group_copy(y + at, tile, n, 0);\n"
    "    wait_group_events(1, &e);\n"
    "}\n"
    "kernel void gather_f4(global const float4 *x, global float4 *y,\n"
    "                      local float4 *tile)\n"
    "{\n"
    "    size_t i = get_global_id(0), l = get_local_id(0);\n"
    "    float4 v = x[i * " STRINGIFY(SCATTER) " & (get_global_size(0) - 1)];\n"
    "    tile[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    y[i] = v + tile[get_local_size(0) - 1 - l];\n"
    "}\n";

/* The generic address space's pair, built as OpenCL C 3.0: the helper's
 * pointers are named in one kernel and generic in the other. */
static const char generic_source[] =
    "void update_global(global const float *x, global float *y)\n"
    "{ *y = 2.5f * *x + 1.0f; }\n"
    "void update_generic(const float *x, float *y)\n"
    "{ *y = 2.5f * *x + 1.0f; }\n"
    "kernel void axpy_global(global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); update_global(x + i, y + i); }\n"
    "kernel void axpy_generic(global const float *x, global float *y)\n"
    "{ size_t i = get_global_id(0); update_generic(x + i, y + i); }\n";

/** One figure: its kernel, what one work-item reads and writes, and how
 *  element @p i of the input and of the output after @p runs runs look. */
struct builtin_figure {
    const char *kernel;
    size_t items;               /* work-items: N, or N / 4 of float4s */
    size_t in_bytes, out_bytes; /* per work-item; out 0: 64 counters */
    size_t local;               /* the work-group size; 0: the ICD's */
    size_t tile_bytes;          /* a __local tile as third argument */
    bool generic;               /* from generic_source, as OpenCL C 3.0 */
    float (*input)(size_t i);
    bool (*correct)(const void *out, const float *in, size_t i, long runs);
};

static struct {
    const struct builtin_figure *figure;
    struct bench_kernel run;
    cl_mem in, out;
    long runs;
} bx;

/* ---- inputs and references ---------------------------------------------- */

static float ramp(size_t i) /* 0 to 10 */
{
    return (float)(i % 1000) * 0.01f;
}

static float pixels(size_t i) /* -100 to 400, halves included */
{
    return (float)(i % 1000) * 0.5f - 100.0f;
}

/* Within 4 ulp of the double result: the spec's limits are 4 (sin), 3
 * (exp) and 16 (pow); a figure only needs to reject a wrong kernel. */
static bool near(float got, double want)
{
    return fabs(got - want) <= 4 * fabs(want) * 0x1p-23 + 0x1p-126;
}

static bool sin_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    return near(((const float *)out)[i], sin(in[i]));
}

static bool exp_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    return near(((const float *)out)[i], exp(in[i]));
}

static bool pow_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    return near(((const float *)out)[i], pow(in[i], 0.75f * in[i]));
}

/* Round to nearest even, then clamp to 0..255. */
static bool convert_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    double v = nearbyint(in[i]);
    unsigned char want = v < 0 ? 0 : v > 255 ? 255 : (unsigned char)v;
    return ((const unsigned char *)out)[i] == want;
}

/* Counters start at 0, and each run adds N in all. */
static bool one_counter_ok(const void *out, const float *in, size_t i,
                           long runs)
{
    (void)in;
    return i > 0 || ((const cl_uint *)out)[0] == (cl_uint)(runs * N);
}

static bool counters_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)in;
    return i >= 64 || ((const cl_uint *)out)[i] == (cl_uint)(runs * N / 64);
}

/* Each tile reversed and doubled. */
static bool tile_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    size_t start = i / TILE * TILE, mirror = start + TILE - 1 - i % TILE;
    return ((const float *)out)[i] == 2.0f * in[mirror];
}

/* Element i of float4 k: its float4 from the permutation, plus that of
 * the work-item mirrored in its group of TILE. */
static bool gather_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    const size_t items = N / 4;
    size_t k = i / 4, e = i % 4;
    size_t mirror = k / TILE * TILE + TILE - 1 - k % TILE;
    float own = in[(k * SCATTER & (items - 1)) * 4 + e];
    float other = in[(mirror * SCATTER & (items - 1)) * 4 + e];
    return ((const float *)out)[i] == own + other;
}

/* y = 2.5 x + 1, contracted or not. */
static bool axpy_ok(const void *out, const float *in, size_t i, long runs)
{
    (void)runs;
    return near(((const float *)out)[i], 2.5 * in[i] + 1.0);
}

static const struct builtin_figure figures[] = {
    {"sin_f", N, 4, 4, 0, 0, false, ramp, sin_ok},
    {"exp_f", N, 4, 4, 0, 0, false, ramp, exp_ok},
    {"pow_f", N, 4, 4, 0, 0, false, ramp, pow_ok},
    {"convert_f4", N / 4, 16, 4, 0, 0, false, pixels, convert_ok},
    {"atomic_1", N, 0, 0, 0, 0, false, ramp, one_counter_ok},
    {"atomic_64", N, 0, 0, 0, 0, false, ramp, counters_ok},
    {"tiles", N, 4, 4, TILE, TILE * 4, false, ramp, tile_ok},
    /* Small groups: few additions per group to combine (docs/compiler.md). */
    {"atomic_64", N, 0, 0, 64, 0, false, ramp, counters_ok},
    {"axpy_global", N, 4, 4, 0, 0, true, ramp, axpy_ok},
    {"axpy_generic", N, 4, 4, 0, 0, true, ramp, axpy_ok},
    {"gather_f4", N / 4, 16, 16, TILE, TILE * 16, false, ramp, gather_ok},
};

/* ---- setup, runs, check -------------------------------------------------- */

static size_t in_size(void)
{
    const struct builtin_figure *f = bx.figure;
    return f->in_bytes ? f->items * f->in_bytes : sizeof(float);
}

static size_t out_size(void)
{
    const struct builtin_figure *f = bx.figure;
    return f->out_bytes ? f->items * f->out_bytes : 64 * sizeof(cl_uint);
}

/* The input, from the figure's rule; element by element as floats. */
static cl_int write_input(void)
{
    size_t count = in_size() / sizeof(float);
    float *in = malloc(in_size());
    if (!in)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < count; i++)
        in[i] = bx.figure->input(i);
    cl_int err = clEnqueueWriteBuffer(bx.run.queue, bx.in, CL_TRUE, 0, in_size(),
                                      in, 0, NULL, NULL);
    free(in);
    return err;
}

static cl_int make_buffers(void)
{
    cl_int err;
    bx.in = clCreateBuffer(bx.run.context, CL_MEM_READ_ONLY, in_size(), NULL,
                           &err);
    if (err == CL_SUCCESS)
        bx.out = clCreateBuffer(bx.run.context, CL_MEM_READ_WRITE, out_size(),
                                NULL, &err);
    const cl_uint zero = 0;
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(bx.run.queue, bx.out, &zero, sizeof(zero), 0,
                                  out_size(), 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = write_input();
    if (err == CL_SUCCESS)
        err = clSetKernelArg(bx.run.kernel, 0, sizeof(cl_mem), &bx.in);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(bx.run.kernel, 1, sizeof(cl_mem), &bx.out);
    if (err == CL_SUCCESS && bx.figure->tile_bytes)
        err = clSetKernelArg(bx.run.kernel, 2, bx.figure->tile_bytes, NULL);
    return err;
}

static cl_int prepare(const struct bench *b,
                      const struct builtin_figure *figure)
{
    const char *text = figure->generic ? generic_source : source;
    const char *options = figure->generic ? "-cl-std=CL3.0" : "";
    bx.figure = figure;
    cl_int err = bench_kernel_build(b, text, options, figure->kernel, &bx.run);
    return err == CL_SUCCESS ? make_buffers() : err;
}

/* Every element (every counter) of the output as the figure's rule says. */
static cl_int check_output(void)
{
    void *out = malloc(out_size());
    float *in = malloc(in_size());
    cl_int err = out && in ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(bx.run.queue, bx.out, CL_TRUE, 0, out_size(),
                                  out, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(bx.run.queue, bx.in, CL_TRUE, 0, in_size(), in,
                                  0, NULL, NULL);
    for (size_t i = 0; err == CL_SUCCESS && i < N; i++)
        if (!bx.figure->correct(out, in, i, bx.runs))
            err = CL_INVALID_VALUE; /* a wrong result: no figure */
    free(out);
    free(in);
    return err;
}

/* One kernel over the 16 Mi work-items, completed, in the figure's groups. */
static cl_int builtin_loop(const struct bench *b, long n)
{
    (void)b;
    const size_t global = bx.figure->items;
    const size_t *local = bx.figure->local ? &bx.figure->local : NULL;
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueNDRangeKernel(bx.run.queue, bx.run.kernel, 1, NULL,
                                            &global, local, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(bx.run.queue);
        if (err != CL_SUCCESS)
            return err;
        bx.runs++;
    }
    return CL_SUCCESS;
}

static void builtin_teardown(void)
{
    if (bx.in)
        clReleaseMemObject(bx.in);
    if (bx.out)
        clReleaseMemObject(bx.out);
    bench_kernel_release(&bx.run);
    memset(&bx, 0, sizeof(bx));
}

/* Built, and run once and checked before any run is timed. */
static cl_int builtin_setup(const struct bench *b,
                            const struct builtin_figure *figure)
{
    cl_int err = prepare(b, figure);
    if (err == CL_SUCCESS)
        err = builtin_loop(b, 1);
    return err == CL_SUCCESS ? check_output() : err;
}

/* struct work's setup takes compute units, which these figures ignore: one
 * setup per figure, naming it. */
#define FIGURE_SETUP(i)                                                      \
    static cl_int setup_##i(const struct bench *b, int units)                \
    {                                                                        \
        (void)units;                                                         \
        return builtin_setup(b, &figures[i]);                                \
    }
FIGURE_SETUP(0)
FIGURE_SETUP(1)
FIGURE_SETUP(2)
FIGURE_SETUP(3)
FIGURE_SETUP(4)
FIGURE_SETUP(5)
FIGURE_SETUP(6)
FIGURE_SETUP(7)
FIGURE_SETUP(8)
FIGURE_SETUP(9)
FIGURE_SETUP(10)

#define FIGURE_WORK(i) {setup_##i, builtin_loop, builtin_teardown, 0, 0}
const struct work bench_builtins[BENCH_BUILTIN_FIGURES] = {
    FIGURE_WORK(0), FIGURE_WORK(1), FIGURE_WORK(2), FIGURE_WORK(3),
    FIGURE_WORK(4), FIGURE_WORK(5), FIGURE_WORK(6), FIGURE_WORK(7),
    FIGURE_WORK(8), FIGURE_WORK(9), FIGURE_WORK(10),
};
