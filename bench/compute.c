/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_bench's figures of arithmetic in kernels whose work-item has a loop
 * of its own (bench/README.md): clpeak's multiply-add chains with float,
 * float16 and half, next to the same number of FMAs in C on
 * one thread per CPU with the CPU's widest vectors (the machine's limit); a
 * naive SGEMM (one work-item per element of C, a loop over k) of 1024 x
 * 1024; one all-pairs n-body step over 4096 bodies; and loops each
 * work-item leaves after a count of its own: the Collatz sequences of
 * 2^20 numbers, next to the same in C on one thread per CPU, a
 * Mandelbrot set of 2048 x 2048 points; and a 5 x 5 convolution of a
 * 4096 x 4096 image. Each is the time
 * of one kernel, completed, in microseconds.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "bench.h"

/* clpeak's chains: per work-item 4096 flops, with float or float16. */
#define MAD_4(x, y)                                                           \
    "x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x);"
#define MAD_16(x, y) MAD_4(x, y) MAD_4(x, y) MAD_4(x, y) MAD_4(x, y)

static const char mad_source[] =
    "kernel void mad_float(global float *out, float a)\n"
    "{\n"
    "    float x = a, y = (float)get_local_id(0);\n"
    "    for (int i = 0; i < 128; i++) {" MAD_16(x, y) "}\n"
    "    out[get_global_id(0)] = y;\n"
    "}\n"
    "kernel void mad_float16(global float *out, float a)\n"
    "{\n"
    "    float16 x = (float16)(a, a + 1, a + 2, a + 3, a + 4, a + 5, a + 6,\n"
    "        a + 7, a + 8, a + 9, a + 10, a + 11, a + 12, a + 13, a + 14, a + 15);\n"
    "    float16 y = (float16)get_local_id(0);\n"
    "    for (int i = 0; i < 8; i++) {" MAD_16(x, y) "}\n"
    "    out[get_global_id(0)] = y.s0 + y.s5 + y.sa + y.sf;\n"
    "}\n";

/* clpeak's half chain, where the device has cl_khr_fp16. */
static const char mad_half_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void mad_half(global float *out, float a)\n"
    "{\n"
    "    half x = (half)a, y = (half)get_local_id(0);\n"
    "    for (int i = 0; i < 128; i++) {" MAD_16(x, y) "}\n"
    "    out[get_global_id(0)] = y;\n"
    "}\n";

#define MAD_ITEMS ((size_t)64 * 1024)
#define MAD_FLOPS_PER_ITEM 4096.0

#define GEMM_N 1024

static const char gemm_source[] =
    "kernel void sgemm(global const float *a, global const float *b,\n"
    "                  global float *c, int n)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        acc += a[row * n + k] * b[k * n + col];\n"
    "    c[row * n + col] = acc;\n"
    "}\n";

#define BODIES 4096

/* The classic all-pairs step: each body's acceleration from every other,
 * softened, then its velocity and position. */
static const char nbody_source[] =
    "kernel void nbody(global const float4 *pos, global float4 *vel,\n"
    "                  global float4 *next, int n, float dt)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float4 p = pos[i];\n"
    "    float3 acc = (float3)(0.0f);\n"
    "    for (int j = 0; j < n; j++) {\n"
    "        float4 q = pos[j];\n"
    "        float3 d = q.xyz - p.xyz;\n"
    "        float r2 = dot(d, d) + 0.01f;\n"
    "        float inv = rsqrt(r2);\n"
    "        acc += d * (q.w * inv * inv * inv);\n"
    "    }\n"
    "    float4 v = vel[i] + (float4)(acc * dt, 0.0f);\n"
    "    vel[i] = v;\n"
    "    next[i] = (float4)(p.xyz + v.xyz * dt, p.w);\n"
    "}\n";

#define COLLATZ_ITEMS ((size_t)1 << 20)

/* Steps to 1 from first + the work-item's index; 64-bit, as numbers
 * below 2^20 climb past 2^32. */
static const char collatz_source[] =
    "kernel void collatz(global float *unused0, global float *unused1,\n"
    "                    global float *steps, ulong first)\n"
    "{\n"
    "    ulong x = first + get_global_id(0);\n"
    "    uint n = 0;\n"
    "    while (x != 1) { x = x & 1 ? 3 * x + 1 : x / 2; n++; }\n"
    "    steps[get_global_id(0)] = n;\n"
    "}\n";

#define MANDELBROT_SIDE 2048

/* Iterations before z escapes, at most 256, for the points of
 * [-2, 1] x [-1.5, 1.5]. */
static const char mandelbrot_source[] =
    "kernel void mandelbrot(global float *unused0, global float *unused1,\n"
    "                       global float *out, int side)\n"
    "{\n"
    "    int px = get_global_id(0), py = get_global_id(1), i = 0;\n"
    "    float cx = -2.0f + 3.0f * px / side, cy = -1.5f + 3.0f * py / side;\n"
    "    float x = 0.0f, y = 0.0f;\n"
    "    while (i < 256 && x * x + y * y < 4.0f) {\n"
    "        float t = x * x - y * y + cx;\n"
    "        y = 2.0f * x * y + cy;\n"
    "        x = t;\n"
    "        i++;\n"
    "    }\n"
    "    out[py * side + px] = i;\n"
    "}\n";

#define CONV_SIDE 4096

/* A 5 x 5 filter over a side x side image stored with 2 pixels of border
 * on every side: the naive kernel, one work-item per output pixel. */
static const char conv_source[] =
    "kernel void conv5x5(global const float *in, constant float *w,\n"
    "                    global float *out, int side)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), stride = side + 4;\n"
    "    float acc = 0.0f;\n"
    "    for (int dy = 0; dy < 5; dy++)\n"
    "        for (int dx = 0; dx < 5; dx++)\n"
    "            acc += w[dy * 5 + dx] * in[(y + dy) * stride + x + dx];\n"
    "    out[y * side + x] = acc;\n"
    "}\n";

static float collatz_steps(uint64_t x)
{
    unsigned n = 0;
    for (; x != 1; n++)
        x = x & 1 ? 3 * x + 1 : x / 2;
    return (float)n;
}

static float gemm_expected(size_t i)
{
    (void)i;
    return (float)GEMM_N;
}

/* An image and weights all ones: every pixel is 25, exactly. */
static float conv_expected(size_t i)
{
    (void)i;
    return 25.0f;
}

static float collatz_expected(size_t i)
{
    return collatz_steps(1 + i);
}

static struct {
    struct bench_kernel run;
    cl_mem mem[3];
    cl_uint dims;
    size_t global[2], local[2];
    size_t check_bytes;   /* the result read back and checked */
    /* The value checked float i must have; NULL for "finite". */
    float (*expected)(size_t i);
} k;

static cl_int buffer(int i, size_t bytes, float fill)
{
    cl_int err;
    k.mem[i] = clCreateBuffer(k.run.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(k.run.queue, k.mem[i], &fill, sizeof(fill), 0,
                                  bytes, 0, NULL, NULL);
    return err;
}

/* Kernel @p name of @p source, in k.run. */
static cl_int kernel_setup(const struct bench *b, const char *source,
                           const char *name)
{
    memset(&k, 0, sizeof(k));
    return bench_kernel_build(b, source, "", name, &k.run);
}

static cl_int set_args(int count)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < count && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k.run.kernel, (cl_uint)i, sizeof(cl_mem), &k.mem[i]);
    return err;
}

/* The kernel runs over @p side work-items in each of @p dims dimensions,
 * in groups of @p local x 1; its result's first @p check_bytes are
 * checked against @p expected. */
static void shape(cl_uint dims, size_t side, size_t local, size_t check_bytes,
                  float (*expected)(size_t))
{
    k.dims = dims;
    k.global[0] = k.global[1] = side;
    k.local[0] = local;
    k.local[1] = 1;
    k.check_bytes = check_bytes;
    k.expected = expected;
}

static cl_int mad_setup(const struct bench *b, const char *source, const char *name)
{
    cl_int err = kernel_setup(b, source, name);
    const cl_float a = 1.0f;
    if (err == CL_SUCCESS)
        err = buffer(0, MAD_ITEMS * sizeof(cl_float), 0.0f);
    if (err == CL_SUCCESS)
        err = set_args(1);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k.run.kernel, 1, sizeof(a), &a);
    shape(1, MAD_ITEMS, 256, 0, NULL);
    return err;
}

static cl_int mad_float_setup(const struct bench *b, int units)
{
    (void)units;
    return mad_setup(b, mad_source, "mad_float");
}

static cl_int mad_float16_setup(const struct bench *b, int units)
{
    (void)units;
    return mad_setup(b, mad_source, "mad_float16");
}

static cl_int mad_half_setup(const struct bench *b, int units)
{
    (void)units;
    return mad_setup(b, mad_half_source, "mad_half");
}

/* Kernel @p name of @p source, its arguments three buffers of bytes[i]
 * each filled with fill[i], then @p arg_size bytes at @p arg. */
static cl_int three_buffers_setup(const struct bench *b, const char *source,
                                  const char *name, const size_t bytes[3],
                                  const float fill[3], size_t arg_size, const void *arg)
{
    cl_int err = kernel_setup(b, source, name);
    for (int i = 0; i < 3 && err == CL_SUCCESS; i++)
        err = buffer(i, bytes[i], fill[i]);
    if (err == CL_SUCCESS)
        err = set_args(3);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k.run.kernel, 3, arg_size, arg);
    return err;
}

/* A and B all ones: every element of C is n, exactly. */
static cl_int gemm_setup(const struct bench *b, int units)
{
    (void)units;
    const size_t bytes = (size_t)GEMM_N * GEMM_N * sizeof(cl_float);
    const cl_int n = GEMM_N;
    cl_int err = three_buffers_setup(b, gemm_source, "sgemm", (size_t[]){bytes, bytes, bytes},
                                     (float[]){1.0f, 1.0f, 0.0f}, sizeof(n), &n);
    shape(2, GEMM_N, 64, 64 * sizeof(cl_float), gemm_expected);
    return err;
}

static cl_int nbody_setup(const struct bench *b, int units)
{
    (void)units;
    const size_t bytes = BODIES * 4 * sizeof(cl_float);
    const cl_int n = BODIES;
    const cl_float dt = 0.01f;
    cl_int err = kernel_setup(b, nbody_source, "nbody");
    cl_float *pos = malloc(bytes);
    if (!pos)
        err = CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; pos && i < BODIES; i++) { /* a lattice, unit masses */
        pos[4 * i] = (float)(i % 16);
        pos[4 * i + 1] = (float)(i / 16 % 16);
        pos[4 * i + 2] = (float)(i / 256);
        pos[4 * i + 3] = 1.0f;
    }
    if (err == CL_SUCCESS)
        k.mem[0] = clCreateBuffer(k.run.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  bytes, pos, &err);
    free(pos);
    for (int i = 1; i < 3 && err == CL_SUCCESS; i++)
        err = buffer(i, bytes, 0.0f);
    if (err == CL_SUCCESS)
        err = set_args(3);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k.run.kernel, 3, sizeof(n), &n);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k.run.kernel, 4, sizeof(dt), &dt);
    shape(1, BODIES, 64, 64 * 4 * sizeof(cl_float), NULL);
    return err;
}

static cl_int conv_setup(const struct bench *b, int units)
{
    (void)units;
    const size_t padded = CONV_SIDE + 4;
    const cl_int side = CONV_SIDE;
    cl_int err = three_buffers_setup(
        b, conv_source, "conv5x5",
        (size_t[]){padded * padded * sizeof(cl_float), 25 * sizeof(cl_float),
                   (size_t)side * side * sizeof(cl_float)},
        (float[]){1.0f, 1.0f, 0.0f}, sizeof(side), &side);
    shape(2, CONV_SIDE, 64, 256 * sizeof(cl_float), conv_expected);
    return err;
}

static cl_int collatz_setup(const struct bench *b, int units)
{
    (void)units;
    const cl_ulong first = 1;
    cl_int err = three_buffers_setup(
        b, collatz_source, "collatz",
        (size_t[]){sizeof(cl_float), sizeof(cl_float), COLLATZ_ITEMS * sizeof(cl_float)},
        (float[]){0, 0, 0}, sizeof(first), &first);
    shape(1, COLLATZ_ITEMS, 256, 256 * sizeof(cl_float), collatz_expected);
    return err;
}

static cl_int mandelbrot_setup(const struct bench *b, int units)
{
    (void)units;
    const cl_int side = MANDELBROT_SIDE;
    cl_int err = three_buffers_setup(
        b, mandelbrot_source, "mandelbrot",
        (size_t[]){sizeof(cl_float), sizeof(cl_float), (size_t)side * side * sizeof(cl_float)},
        (float[]){0, 0, 0}, sizeof(side), &side);
    shape(2, MANDELBROT_SIDE, 64, 256 * sizeof(cl_float), NULL);
    return err;
}

/* The result's first floats: each the expected value, or finite. */
static cl_int kernel_check(void)
{
    if (!k.check_bytes)
        return CL_SUCCESS;
    float got[256]; /* the third buffer: sgemm's C, n-body's positions */
    cl_int err = clEnqueueReadBuffer(k.run.queue, k.mem[2], CL_TRUE, 0,
                                     k.check_bytes, got, 0, NULL, NULL);
    for (size_t i = 0; err == CL_SUCCESS && i < k.check_bytes / sizeof(float); i++)
        if (k.expected ? got[i] != k.expected(i) : !isfinite(got[i]))
            err = CL_INVALID_VALUE;
    return err;
}

static cl_int kernel_loop(const struct bench *b, long n)
{
    (void)b;
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueNDRangeKernel(k.run.queue, k.run.kernel, k.dims, NULL,
                                            k.global, k.local, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(k.run.queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return kernel_check();
}

static void kernel_teardown(void)
{
    for (int i = 0; i < 3; i++)
        if (k.mem[i])
            clReleaseMemObject(k.mem[i]);
    bench_kernel_release(&k.run);
}

const struct work bench_mad_float = {mad_float_setup, kernel_loop,
                                     kernel_teardown, 0, 0};
const struct work bench_mad_half = {mad_half_setup, kernel_loop, kernel_teardown, 0, 0};
const struct work bench_mad_float16 = {mad_float16_setup, kernel_loop,
                                       kernel_teardown, 0, 0};
const struct work bench_sgemm = {gemm_setup, kernel_loop, kernel_teardown, 0, 0};
const struct work bench_nbody = {nbody_setup, kernel_loop, kernel_teardown, 0, 0};
const struct work bench_conv = {conv_setup, kernel_loop, kernel_teardown, 0, 0};
const struct work bench_collatz = {collatz_setup, kernel_loop, kernel_teardown, 0, 0};
const struct work bench_mandelbrot = {mandelbrot_setup, kernel_loop, kernel_teardown, 0, 0};

/* ---- the machine's limit: the same FMAs in C ------------------------------ */

/* Chains of FMAs on the widest vectors the CPU has, 8 independent chains
 * (enough to hide the FMA's latency on two FMA units), as many flops as
 * one mad figure's kernel. */
#define C_CHAINS 8

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static float fma_avx512(long steps)
{
    __m512 x[C_CHAINS], y = _mm512_set1_ps(0.999f), z = _mm512_set1_ps(1e-3f);
    for (int c = 0; c < C_CHAINS; c++)
        x[c] = _mm512_set1_ps((float)c);
    for (long s = 0; s < steps; s++)
        for (int c = 0; c < C_CHAINS; c++)
            x[c] = _mm512_fmadd_ps(x[c], y, z);
    float sum = 0;
    for (int c = 0; c < C_CHAINS; c++)
        sum += _mm512_reduce_add_ps(x[c]);
    return sum;
}

__attribute__((target("avx2,fma"))) static float fma_avx2(long steps)
{
    __m256 x[C_CHAINS], y = _mm256_set1_ps(0.999f), z = _mm256_set1_ps(1e-3f);
    for (int c = 0; c < C_CHAINS; c++)
        x[c] = _mm256_set1_ps((float)c);
    for (long s = 0; s < steps; s++)
        for (int c = 0; c < C_CHAINS; c++)
            x[c] = _mm256_fmadd_ps(x[c], y, z);
    float lanes[8], sum = 0;
    for (int c = 0; c < C_CHAINS; c++) {
        _mm256_storeu_ps(lanes, x[c]);
        for (int l = 0; l < 8; l++)
            sum += lanes[l];
    }
    return sum;
}
#endif

/* Floats per vector register, and a chain runner for that width. */
static int c_width;

static float fma_chains(long steps)
{
#if defined(__x86_64__)
    if (c_width == 16)
        return fma_avx512(steps);
    if (c_width == 8)
        return fma_avx2(steps);
#endif
    float x[C_CHAINS];
    for (int c = 0; c < C_CHAINS; c++)
        x[c] = (float)c;
    for (long s = 0; s < steps; s++)
        for (int c = 0; c < C_CHAINS; c++)
            x[c] = fmaf(x[c], 0.999f, 1e-3f);
    float sum = 0;
    for (int c = 0; c < C_CHAINS; c++)
        sum += x[c];
    return sum;
}

static int c_threads;

/* A thread's share of the chains' steps. */
static void *fma_slice(void *arg)
{
    const struct bench_slice *slice = arg;
    volatile float sink = fma_chains((long)slice->count);
    (void)sink;
    return NULL;
}

static cl_int fma_setup(const struct bench *b, int units)
{
    (void)b;
    (void)units;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c_threads = cpus > 0 ? (int)(cpus < 256 ? cpus : 256) : 1;
    c_width = 1;
#if defined(__x86_64__)
    __builtin_cpu_init();
    c_width = __builtin_cpu_supports("avx512f") ? 16
              : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 8
                                                                             : 1;
#endif
    return CL_SUCCESS;
}

/* One mad kernel's flops (2 per FMA), shared among the threads. */
static cl_int fma_loop(const struct bench *b, long n)
{
    (void)b;
    double fmas = MAD_ITEMS * MAD_FLOPS_PER_ITEM / 2;
    size_t steps = (size_t)(fmas / ((double)c_width * C_CHAINS * c_threads));
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = bench_run_slices(c_threads, steps * (size_t)c_threads, fma_slice);
    return err;
}

static void fma_teardown(void)
{
}

const struct work bench_fma_c_all = {fma_setup, fma_loop, fma_teardown, -1, 0};

/* ---- the same Collatz sequences in C ------------------------------------- */

static uint32_t *collatz_c_steps;

static void *collatz_slice(void *arg)
{
    const struct bench_slice *slice = arg;
    for (size_t i = slice->first; i < slice->first + slice->count; i++)
        collatz_c_steps[i] = (uint32_t)collatz_steps(1 + i);
    return NULL;
}

static cl_int collatz_c_setup(const struct bench *b, int units)
{
    fma_setup(b, units);
    collatz_c_steps = malloc(COLLATZ_ITEMS * sizeof(*collatz_c_steps));
    return collatz_c_steps ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* 2^20 numbers cut in slices over one thread per online CPU. */
static cl_int collatz_c_loop(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = bench_run_slices(c_threads, COLLATZ_ITEMS, collatz_slice);
    return err;
}

static void collatz_c_teardown(void)
{
    free(collatz_c_steps);
    collatz_c_steps = NULL;
}

const struct work bench_collatz_c_all = {collatz_c_setup, collatz_c_loop, collatz_c_teardown,
                                         -1, 0};
