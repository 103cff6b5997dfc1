/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/jam: kernels whose work-item runs a loop of its own, which
 * refcl-jam-items runs W work-items at a time (compiler/pass/jam.cpp),
 * against the same arithmetic on the host: a chain of integer operations;
 * an SGEMM in float and double; a private array indexed by the work-item;
 * atomics in the loop; a branch the same for every work-item; loops a
 * work-item leaves when its own test says (a trip count, a break, a
 * Collatz sequence, which some skip), run until the last of the W is done;
 * float4 arithmetic; a GEMM's tile of two float4 accumulators, each times
 * a scalar all work-items share (their copies ordered work-item by
 * work-item), and the same with its k-loop in tiles, which the group runs
 * a tile at a time (compiler/pass/chunk.cpp); a chain of half operations, each rounded (where the
 * device has cl_khr_fp16); a loop on each side of a barrier; a loop whose barrier is under a
 * branch not taken (its counter, the group's, must not be read from the
 * iteration before); a body too
 * long to repeat as often as its registers allow, run fewer at a time; a
 * 32-bit index of the work-item, which steps by one from one work-item to
 * the next except where the global ids pass 2^31 and it wraps; and the
 * kernel it must leave alone: atomics in a loop of a trip count of the
 * work-item's own. Groups of 250 (W does not divide them), 8 (fewer than
 * W) and 256 (W divides them) over 1000 work-items, the last group of 232;
 * and the group size refcl picks given none. Run again with REFCL_CPU at each
 * x86-64 level (W from the register width: smaller with SSE and AVX2) and
 * with no vectorizer (REFCL_VECTORIZE=0).
 */
#include <math.h>
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define ITEMS 1000

/* A kernel with a loop of its own that writes the work-group size it ran
 * in, and its sum. */
#define SHAPE_SOURCE \
    "kernel void shape(global int *size, global int *sum, int n)\n" \
    "{\n" \
    "    int g = get_global_id(0), acc = 0;\n" \
    "    for (int k = 0; k < n; k++) acc += g ^ k;\n" \
    "    size[g] = get_local_size(0);\n" \
    "    sum[g] = acc;\n" \
    "}\n"

/* A GEMM's tile: two float4 accumulators of the work-item's row of A, each
 * times a scalar of B all work-items share, over the k that LOOP opens. */
#define TILE_KERNEL(NAME, COUNT, LOOP) \
    "kernel void " NAME "(global const float4 *a, global const float2 *b,\n" \
    "                 global float4 *c, int " COUNT ")\n" \
    "{\n" \
    "    int g = get_global_id(0), items = get_global_size(0);\n" \
    "    float4 acc0 = 0, acc1 = 0;\n" \
    LOOP \
    "        float4 v = a[k * items + g];\n" \
    "        float2 s = b[k];\n" \
    "        acc0 = mad(v, (float4)(s.x), acc0);\n" \
    "        acc1 = mad(v, (float4)(s.y), acc1);\n" \
    "    }\n" \
    "    c[2 * g] = acc0;\n" \
    "    c[2 * g + 1] = acc1;\n" \
    "}\n"

static const char source[] =
    "kernel void chain(global int *out, int n)\n"
    "{\n"
    "    int x = (int)get_global_id(0), y = 3;\n"
    "    for (int i = 0; i < n; i++) { x = x * 5 + y; y ^= x >> 3; }\n"
    "    out[get_global_id(0)] = x + y;\n"
    "}\n"
    "#define GEMM(T) kernel void gemm_##T(global const T *a, global const T *b,\\\n"
    "        global T *c, int n) {\\\n"
    "    int col = get_global_id(0), row = get_global_id(1), cols = get_global_size(0);\\\n"
    "    T acc = 0;\\\n"
    "    for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * cols + col];\\\n"
    "    c[row * cols + col] = acc; }\n"
    "GEMM(float) GEMM(double)\n"
    "kernel void private_array(global int *out, int n)\n"
    "{\n"
    "    int t[16], g = get_global_id(0), acc = 0;\n"
    "    for (int k = 0; k < 16; k++) t[k] = g * k;\n"
    "    for (int k = 0; k < n; k++) acc += t[(k * 7 + g) & 15];\n"
    "    out[g] = acc;\n"
    "}\n"
    "kernel void histogram(global int *hist, int n)\n"
    "{\n"
    "    int g = get_global_id(0);\n"
    "    for (int k = 0; k < n; k++) atomic_add(&hist[(g + k) & 15], k);\n"
    "}\n"
    "kernel void divergent_histogram(global int *hist, int n)\n"
    "{\n"
    "    int g = get_global_id(0);\n"
    "    for (uint x = g + n; x != 1; x = x & 1 ? 3 * x + 1 : x / 2)\n"
    "        atomic_add(&hist[x & 15], 1);\n"
    "}\n"
    "kernel void wrapping(global long *out, int n)\n"
    "{\n"
    "    int col = get_global_id(0);\n"
    "    long acc = 0;\n"
    "    for (int k = 0; k < n; k++) acc ^= (long)col * k;\n"
    "    out[get_global_id(0) - get_global_offset(0)] = acc;\n"
    "}\n"
    "kernel void collatz(global int *out, int n)\n"
    "{\n"
    "    uint x = get_global_id(0) % n + 1, steps = 0;\n"
    "    while (x != 1) { x = x & 1 ? 3 * x + 1 : x / 2; steps++; }\n"
    "    out[get_global_id(0)] = steps;\n"
    "}\n"
    "kernel void uniform_branch(global int *out, int n)\n"
    "{\n"
    "    int g = get_global_id(0), acc = 0;\n"
    "    for (int k = 0; k < n; k++) { if (k % 3 == 0) acc += g; else acc -= k; }\n"
    "    out[g] = acc;\n"
    "}\n"
    "kernel void divergent_trip(global int *out, int n)\n"
    "{\n"
    "    int g = get_global_id(0), acc = 0;\n"
    "    for (int k = 0; k < g % n; k++) acc += k * g;\n"
    "    out[g] = acc;\n"
    "}\n"
    "kernel void divergent_break(global int *out, int n)\n"
    "{\n"
    "    int g = get_global_id(0), acc = 0;\n"
    "    for (int k = 0; k < n; k++) { acc += (g + k) % 11; if (acc > g) break; }\n"
    "    out[g] = acc;\n"
    "}\n"
    "kernel void vec4(global float4 *out, int n)\n"
    "{\n"
    "    float4 acc = (float4)(get_global_id(0), 1, 2, 3);\n"
    "    for (int k = 0; k < n; k++) acc = acc * 0.5f + (float4)(k, 1, 2, 3);\n"
    "    out[get_global_id(0)] = acc;\n"
    "}\n"
    TILE_KERNEL("tile", "n", "    for (int k = 0; k < n; k++) {\n")
    TILE_KERNEL("tiled", "tiles",
                "    for (int t = 0; t < tiles; t++)\n"
                "    for (int j = 0; j < 64; j++) {\n"
                "        int k = t * 64 + j;\n")
    "kernel void branch_barrier(global int *out, int n)\n"
    "{\n"
    "    int acc = 0;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        if (n > 1000) barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        acc += k * 3 + 1;\n"
    "    }\n"
    "    out[get_global_id(0)] = acc;\n"
    "}\n"
    "constant int2 table[8] = {(int2)(1, 2), (int2)(3, -1), (int2)(5, 7), (int2)(-2, 4),\n"
    "                          (int2)(6, 1), (int2)(0, 3), (int2)(9, -5), (int2)(2, 2)};\n"
    "kernel void butterfly(global int *out, local int *scratch, int n)\n"
    "{\n"
    "    int l = get_local_id(0), g = get_global_id(0);\n"
    "    int2 v = (int2)(g, n - g) * table[g % 8];\n"
    "    v = v * v + v;\n"
    "    v = v * (int2)(3, 5) + (int2)(n, 1);\n"
    "    scratch[l] = v.x;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int other = scratch[get_local_size(0) - 1 - l];\n"
    "    int2 w = v + (int2)(other, v.x ^ other);\n"
    "    out[g] = w.x * 3 + w.y;\n"
    "}\n"
    "kernel void with_barrier(global int *out, local int *scratch, int n)\n"
    "{\n"
    "    int l = get_local_id(0), g = get_global_id(0), acc = 0, acc2 = 0;\n"
    "    for (int k = 0; k < n; k++) acc += g ^ k;\n"
    "    scratch[l] = acc;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int other = scratch[get_local_size(0) - 1 - l];\n"
    "    for (int k = 0; k < n; k++) acc2 += other * k;\n"
    "    out[g] = acc + acc2;\n"
    "}\n"
    "#define STEP(x, y) x = y * x + y; y = x * y + x;\n"
    "#define STEP8(x, y) STEP(x, y) STEP(x, y) STEP(x, y) STEP(x, y) \\\n"
    "    STEP(x, y) STEP(x, y) STEP(x, y) STEP(x, y)\n"
    "#define STEP64(x, y) STEP8(x, y) STEP8(x, y) STEP8(x, y) STEP8(x, y) \\\n"
    "    STEP8(x, y) STEP8(x, y) STEP8(x, y) STEP8(x, y)\n"
    "kernel void long_body(global int *out, int n)\n"
    "{\n"
    "    uint x = n, y = get_global_id(0);\n"
    "    for (int i = 0; i < n; i++) { STEP64(x, y) STEP64(x, y) }\n"
    "    out[get_global_id(0)] = (int)y;\n"
    "}\n"
    SHAPE_SOURCE;

/* Where the device has cl_khr_fp16. */
static const char half_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void half_chain(global float *out, int n)\n"
    "{\n"
    "    half x = 1.0h + (half)(get_global_id(0) % 64) * 0.015625h;\n"
    "    half y = 0.125h + (half)(get_global_id(0) % 7);\n"
    "    for (int k = 0; k < n; k++) { x = x * 0.5h + y; y = y - x * 0.25h; }\n"
    "    out[get_global_id(0)] = x + y;\n"
    "}\n";

static const size_t locals[] = {250, 8, 256};

/* Runs @p name over ITEMS work-items from global offset @p offset in
 * groups of @p local with (out, n) and, for with_barrier, its scratch;
 * out's ITEMS elements of @p elem bytes into @p got. */
static void run_from(cl_program program, const char *name, size_t offset, size_t local,
                     cl_int n, size_t elem, void *got)
{
    cl_kernel k = exec_kernel(program, name);
    cl_mem out = exec_buffer(ITEMS * elem, NULL);
    size_t global = ITEMS;
    CHECK_EQ(clEnqueueFillBuffer(queue, out, &(cl_int){0}, sizeof(cl_int), 0,
                                 ITEMS * elem, 0, NULL, NULL), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(out), &out), CL_SUCCESS);
    if (!strcmp(name, "with_barrier") || !strcmp(name, "butterfly")) {
        CHECK_EQ(clSetKernelArg(k, 1, local * sizeof(cl_int), NULL), CL_SUCCESS);
        CHECK_EQ(clSetKernelArg(k, 2, sizeof(n), &n), CL_SUCCESS);
    } else {
        CHECK_EQ(clSetKernelArg(k, 1, sizeof(n), &n), CL_SUCCESS);
    }
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global, &local, 0,
                                    NULL, NULL), CL_SUCCESS);
    exec_read(out, ITEMS * elem, got);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* run_from global offset 0. */
static void run(cl_program program, const char *name, size_t local,
                cl_int n, size_t elem, void *got)
{
    run_from(program, name, 0, local, n, elem, got);
}

/* The work-item whose __local slot work-item g reads in with_barrier and
 * butterfly: the one as far from its group's end as g from its start. */
static int32_t mirrored(int32_t g, size_t local)
{
    size_t first = (size_t)g / local * local;
    size_t size = first + local <= ITEMS ? local : ITEMS - first;
    return (int32_t)(first + size - 1 - ((size_t)g - first));
}

/* butterfly's complex value of integers for work-item g before the
 * barrier: (g, n - g) times a table's, squared plus itself, scaled. */
static void butterfly_value(int32_t g, int32_t n, uint32_t value[2])
{
    static const int32_t table[8][2] = {{1, 2}, {3, -1}, {5, 7}, {-2, 4},
                                        {6, 1}, {0, 3}, {9, -5}, {2, 2}};
    uint32_t re = (uint32_t)g * (uint32_t)table[g % 8][0];
    uint32_t im = (uint32_t)(n - g) * (uint32_t)table[g % 8][1];
    value[0] = (re * re + re) * 3 + (uint32_t)n;
    value[1] = (im * im + im) * 5 + 1;
}

/* butterfly's: its value kept across a barrier, and the mirrored
 * work-item's real part. */
static int32_t butterfly(int32_t g, int32_t n, size_t local)
{
    uint32_t mine[2], theirs[2];
    butterfly_value(g, n, mine);
    butterfly_value(mirrored(g, local), n, theirs);
    return (int32_t)((mine[0] + theirs[0]) * 3 + mine[1] + (mine[0] ^ theirs[0]));
}

/* The host's value for work-item g of kernel @p name (groups of @p local
 * for with_barrier and butterfly), in 32-bit two's complement as the
 * device computes. */
static int32_t expected(const char *name, int32_t g, int32_t n, size_t local)
{
    uint32_t acc = 0;
    if (!strcmp(name, "butterfly"))
        return butterfly(g, n, local);
    if (!strcmp(name, "chain")) {
        uint32_t x = (uint32_t)g, y = 3;
        for (int i = 0; i < n; i++) {
            x = x * 5 + y;
            y ^= (uint32_t)((int32_t)x >> 3);
        }
        return (int32_t)(x + y);
    }
    if (!strcmp(name, "long_body")) {
        uint32_t x = (uint32_t)n, y = (uint32_t)g;
        for (int step = 0; step < n * 128; step++) {
            x = y * x + y;
            y = x * y + x;
        }
        return (int32_t)y;
    } else if (!strcmp(name, "private_array")) {
        for (int k = 0; k < n; k++)
            acc += (uint32_t)g * (uint32_t)((k * 7 + g) & 15);
    } else if (!strcmp(name, "uniform_branch")) {
        for (int k = 0; k < n; k++)
            acc += k % 3 == 0 ? (uint32_t)g : -(uint32_t)k;
    } else if (!strcmp(name, "divergent_trip")) {
        for (int k = 0; k < g % n; k++)
            acc += (uint32_t)(k * g);
    } else if (!strcmp(name, "collatz")) {
        for (uint32_t x = (uint32_t)(g % n + 1); x != 1; acc++)
            x = x & 1 ? 3 * x + 1 : x / 2;
    } else if (!strcmp(name, "branch_barrier")) {
        for (int k = 0; k < n; k++)
            acc += (uint32_t)(k * 3 + 1);
    } else if (!strcmp(name, "divergent_break")) {
        for (int k = 0; k < n; k++) {
            acc += (uint32_t)((g + k) % 11);
            if ((int32_t)acc > g)
                break;
        }
    } else { /* with_barrier */
        int32_t other = mirrored(g, local);
        uint32_t mine = 0, theirs = 0, acc2 = 0;
        for (int k = 0; k < n; k++) {
            mine += (uint32_t)(g ^ k);
            theirs += (uint32_t)(other ^ k);
        }
        for (int k = 0; k < n; k++)
            acc2 += theirs * (uint32_t)k;
        acc = mine + acc2;
    }
    return (int32_t)acc;
}

static void check_integers(cl_program program)
{
    static const char *const names[] = {"chain", "private_array", "uniform_branch",
                                        "divergent_trip", "divergent_break",
                                        "collatz", "with_barrier", "branch_barrier",
                                        "long_body", "butterfly"};
    static cl_int got[ITEMS];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
            const cl_int n = 37;
            run(program, names[i], locals[l], n, sizeof(cl_int), got);
            int bad = 0;
            for (int32_t g = 0; g < ITEMS && bad < 3; g++) {
                int32_t want = expected(names[i], g, n, locals[l]);
                if (got[g] != want) {
                    fprintf(stderr, "%s, groups of %zu, item %d: %d, expected %d\n",
                            names[i], locals[l], g, got[g], want);
                    bad++;
                }
            }
            CHECK_EQ(bad, 0);
        }
}

/* A work-item's int index is its global id converted (OpenCL C s6.4: as
 * C99 6.3.1.3, implementation-defined past INT_MAX; here the low 32 bits,
 * as every OpenCL implementation): from a global offset 100 below 2^31,
 * the work-items from the 100th on have negative indices; from offset 0
 * all are their ids. */
static void check_wrapping(cl_program program)
{
    static const size_t offsets[] = {0, ((size_t)1 << 31) - 100};
    const cl_int n = 37;
    static cl_long got[ITEMS];
    for (size_t o = 0; o < 2; o++)
        for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
            run_from(program, "wrapping", offsets[o], locals[l], n, sizeof(got[0]), got);
            int bad = 0;
            for (size_t i = 0; i < ITEMS && bad < 3; i++) {
                int64_t col = (int32_t)(uint32_t)(offsets[o] + i), want = 0;
                for (int64_t j = 0; j < n; j++)
                    want ^= col * j;
                if (got[i] != want) {
                    fprintf(stderr, "wrapping from %zu, groups of %zu, item %zu: %lld\n",
                            offsets[o], locals[l], i, (long long)got[i]);
                    bad++;
                }
            }
            CHECK_EQ(bad, 0);
        }
}

/* Every atomic addition made, each once: bin b holds the sum of k over
 * the (g, k) with (g + k) & 15 == b, k below n; in the divergent kernel,
 * the count of the x in g + n's Collatz sequence with x & 15 == b. */
static void check_histogram(cl_program program, const char *name)
{
    const cl_int n = 50;
    bool divergent = !strcmp(name, "divergent_histogram");
    for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
        cl_int got[ITEMS];
        int64_t want[16] = {0};
        run(program, name, locals[l], n, sizeof(cl_int), got);
        for (int g = 0; g < ITEMS; g++)
            if (divergent)
                for (uint32_t x = (uint32_t)(g + n); x != 1; x = x & 1 ? 3 * x + 1 : x / 2)
                    want[x & 15]++;
            else
                for (int k = 0; k < n; k++)
                    want[(g + k) & 15] += k;
        for (int b = 0; b < 16; b++)
            CHECK_EQ(got[b], (cl_int)want[b]);
    }
}

static void check_vec4(cl_program program)
{
    static cl_float got[4 * ITEMS];
    const cl_int n = 20;
    for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
        run(program, "vec4", locals[l], n, 4 * sizeof(cl_float), got);
        for (int g = 0; g < ITEMS; g++) {
            float acc[4] = {(float)g, 1, 2, 3};
            for (int k = 0; k < n; k++)
                for (int c = 0; c < 4; c++) /* times 0.5: exact, fused or not */
                    acc[c] = acc[c] * 0.5f + (c ? (float)c : (float)k);
            for (int c = 0; c < 4; c++)
                CHECK_EQ(got[4 * g + c], acc[c]);
        }
    }
}

/* @p v rounded to the nearest half (ties to even), as a float: the
 * spec's rounding of each half operation. */
static float round_to_half(double v)
{
    if (v == 0)
        return (float)v;
    int e;
    frexp(fabs(v), &e); /* |v| < 2^e */
    double quantum = ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10);
    double r = nearbyint(v / quantum) * quantum;
    return fabs(r) > 65504 ? copysignf(INFINITY, (float)r) : (float)r;
}

/* C = A B for small integers: every sum exact in float and double. The
 * matrix is ITEMS columns by 3 rows, n = 45. */
#define DEFINE_GEMM_CHECK(T, NAME)                                             \
    static void check_gemm_##NAME(cl_program program)                          \
    {                                                                          \
        enum { ROWS = 3, N = 45 };                                             \
        static T a[ROWS * N], b[N * ITEMS], c[ROWS * ITEMS];                   \
        for (int i = 0; i < ROWS * N; i++)                                     \
            a[i] = (T)(i % 7);                                                 \
        for (int i = 0; i < N * ITEMS; i++)                                    \
            b[i] = (T)((i * 5) % 9);                                           \
        cl_kernel k = exec_kernel(program, "gemm_" #NAME);                     \
        cl_mem ma = exec_buffer(sizeof(a), a), mb = exec_buffer(sizeof(b), b); \
        cl_mem mc = exec_buffer(sizeof(c), NULL);                              \
        cl_int n = N;                                                          \
        CHECK_EQ(clSetKernelArg(k, 0, sizeof(ma), &ma), CL_SUCCESS);           \
        CHECK_EQ(clSetKernelArg(k, 1, sizeof(mb), &mb), CL_SUCCESS);           \
        CHECK_EQ(clSetKernelArg(k, 2, sizeof(mc), &mc), CL_SUCCESS);           \
        CHECK_EQ(clSetKernelArg(k, 3, sizeof(n), &n), CL_SUCCESS);             \
        for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {     \
            size_t global[2] = {ITEMS, ROWS}, local[2] = {locals[l], 1};       \
            CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local,  \
                                            0, NULL, NULL), CL_SUCCESS);       \
            exec_read(mc, sizeof(c), c);                                       \
            int bad = 0;                                                       \
            for (int r = 0; r < ROWS; r++)                                     \
                for (int col = 0; col < ITEMS; col++) {                        \
                    T want = 0;                                                \
                    for (int x = 0; x < N; x++)                                \
                        want += a[r * N + x] * b[x * ITEMS + col];             \
                    bad += c[r * ITEMS + col] != want;                         \
                }                                                              \
            CHECK_EQ(bad, 0);                                                  \
        }                                                                      \
        CHECK_EQ(clReleaseMemObject(ma), CL_SUCCESS);                          \
        CHECK_EQ(clReleaseMemObject(mb), CL_SUCCESS);                          \
        CHECK_EQ(clReleaseMemObject(mc), CL_SUCCESS);                          \
        CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);                              \
    }

DEFINE_GEMM_CHECK(cl_float, float)
DEFINE_GEMM_CHECK(cl_double, double)

/* tile, and tiled (its k-loop in tiles of 64, which the group runs a tile
 * at a time, compiler/pass/chunk.cpp): small integers, so that every
 * product and sum is exact, fused or not. */
static void check_tile(cl_program program, const char *name)
{
    enum { N = 128, PER = 64 };
    static cl_float a[4 * N * ITEMS], b[2 * N], c[8 * ITEMS];
    for (int i = 0; i < 4 * N * ITEMS; i++)
        a[i] = (cl_float)(i % 7 - 3);
    for (int i = 0; i < 2 * N; i++)
        b[i] = (cl_float)(i % 5 - 2);
    bool tiled = !strcmp(name, "tiled");
    cl_kernel k = exec_kernel(program, name);
    cl_mem ma = exec_buffer(sizeof(a), a), mb = exec_buffer(sizeof(b), b);
    cl_mem mc = exec_buffer(sizeof(c), NULL);
    cl_int n = tiled ? N / PER : N;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(ma), &ma), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(mb), &mb), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, sizeof(mc), &mc), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 3, sizeof(n), &n), CL_SUCCESS);
    for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
        size_t global = ITEMS;
        CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &locals[l], 0, NULL, NULL),
                 CL_SUCCESS);
        exec_read(mc, sizeof(c), c);
        int bad = 0;
        for (int g = 0; g < ITEMS; g++)
            for (int acc = 0; acc < 2; acc++)
                for (int comp = 0; comp < 4; comp++) {
                    float want = 0;
                    for (int x = 0; x < N; x++)
                        want += a[4 * (x * ITEMS + g) + comp] * b[2 * x + acc];
                    bad += c[4 * (2 * g + acc) + comp] != want;
                }
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseMemObject(ma), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mb), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mc), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static size_t preferred_multiple(cl_program program, const char *name)
{
    cl_kernel k = exec_kernel(program, name);
    size_t multiple = 0;
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device,
                                      CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                      sizeof(multiple), &multiple, NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    return multiple;
}

static bool vectorizer_off(void)
{
    const char *vectorize = getenv("REFCL_VECTORIZE");
    return vectorize && !strcmp(vectorize, "0");
}

/* The line of source that @p text is on, from 1. */
static int source_line(const char *text)
{
    int line = 1;
    for (const char *c = source, *at = strstr(source, text); c < at; c++)
        line += *c == '\n';
    return line;
}

/* -cl-refcl-vectorize-report: the build log says which kernels' work-items
 * run several at a time, and which one at a time; with REFCL_VECTORIZE=0,
 * none is run several at a time. */
static void check_report(cl_program program)
{
    static char log[16384];
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                   sizeof(log), log, NULL), CL_SUCCESS);
    if (vectorizer_off()) {
        CHECK(!strstr(log, "work-items run"));
        CHECK_EQ(preferred_multiple(program, "chain"), 16);
        return;
    }
    static const char *const several[] = {"chain", "gemm_float", "gemm_double",
                                          "private_array", "uniform_branch",
                                          "vec4", "tile", "tiled", "with_barrier", "shape",
                                          "long_body", "divergent_break", "collatz",
                                          "wrapping"};
    char line[96];
    for (size_t i = 0; i < sizeof(several) / sizeof(several[0]); i++) {
        snprintf(line, sizeof(line), "kernel %s: work-items run ", several[i]);
        const char *at = strstr(log, line);
        size_t step = at ? strtoul(at + strlen(line), NULL, 10) : 0;
        CHECK(step >= 2);
        /* A multiple of the work-items run at a time fills every step. */
        CHECK_EQ(preferred_multiple(program, several[i]), step);
    }
    /* A register holds whole work-items' float4s: 4 with AVX-512, 2 with
     * AVX2, 1 with SSE. */
    CHECK(strstr(log, "kernel tile: work-items run ") &&
          strstr(log, " to a register, their vectors of 4 whole"));
    CHECK(strstr(log, "kernel collatz: work-items run ") &&
          strstr(log, "1 inner loop(s) until the last of them is done"));
    /* tiled's group runs its outer loop a tile at a time (a barrier cuts
     * it): several work-items at a time run a tile, its inner loop, where
     * the report points. */
    snprintf(line, sizeof(line), "program.cl:%d:", source_line("for (int j = 0; j < 64"));
    const char *tiled = strstr(log, "kernel tiled: work-items run ");
    while (tiled && tiled > log && tiled[-1] != '\n')
        tiled--;
    CHECK(tiled && !strncmp(tiled, line, strlen(line)));
    /* Run again, its atomics would count twice. */
    CHECK(strstr(log, "kernel divergent_histogram: work-items run one at a time: "));
    /* Left to the loop vectorizer: AVX-512's 16 floats. */
    CHECK_EQ(preferred_multiple(program, "divergent_histogram"), 16);
}

/* Enqueued with no local size over @p global work-items, @p program's
 * shape kernel ran in groups of the size returned. */
static size_t chosen_local(cl_program program, size_t global)
{
    cl_kernel k = exec_kernel(program, "shape");
    cl_mem size = exec_buffer(global * sizeof(cl_int), NULL);
    cl_mem sum = exec_buffer(global * sizeof(cl_int), NULL);
    cl_int n = 5;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(size), &size), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(sum), &sum), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, sizeof(n), &n), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL,
                                    NULL), CL_SUCCESS);
    cl_int *sizes = malloc(global * sizeof(cl_int));
    CHECK(sizes != NULL);
    size_t local = 0;
    if (sizes) {
        exec_read(size, global * sizeof(cl_int), sizes);
        local = (size_t)sizes[0];
        /* Every group but a non-uniform last one has that size. */
        for (size_t g = 0; g < global - global % local; g++)
            CHECK_EQ(sizes[g], (cl_int)local);
        free(sizes);
    }
    CHECK_EQ(clReleaseMemObject(size), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(sum), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    return local;
}

/* With no local size, refcl picks groups that fill the vectors (a multiple
 * of CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, or the whole range) and
 * the compute units (4 groups each, where the range has that many
 * multiples), dividing the global size where groups must be uniform
 * (OpenCL C 1.2: "the number of work-items specified by global_work_size
 * is not evenly divisible by size of work-group" is an error). */
static void check_local_choice(cl_program program)
{
    cl_uint units = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                             sizeof(units), &units, NULL), CL_SUCCESS);
    size_t step = preferred_multiple(program, "shape");
    size_t local = chosen_local(program, 4096);
    CHECK(local > 0 && local % step == 0);
    size_t groups = (4096 + local - 1) / local, fit = 4096 / step;
    /* Work-items one at a time are handed out 16384 at a time. */
    if (!vectorizer_off())
        CHECK(groups >= (fit < 4 * units ? fit : 4 * units));
    local = chosen_local(program, ITEMS);
    CHECK(local == ITEMS || (local > 0 && local % step == 0));

    cl_program uniform = exec_build(SHAPE_SOURCE, "-cl-std=CL1.2");
    if (uniform) {
        local = chosen_local(uniform, ITEMS);
        CHECK(local > 1 && ITEMS % local == 0);
        CHECK_EQ(clReleaseProgram(uniform), CL_SUCCESS);
    }
}

/* A chain of half operations, each rounded (about 4 of the 16 inexact
 * per work-item), run several work-items at a time: the products by 0.5
 * and 0.25 are exact (no value comes near the subnormals in 8 steps), so
 * fused or not, each sum rounds once. */
static void check_half_chain(void)
{
    if (!test_device_has_extension(device, "cl_khr_fp16"))
        return;
    cl_program program = exec_build(half_source, "-cl-std=CL3.0 -cl-refcl-vectorize-report");
    if (!program)
        return;
    static char log[4096];
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log,
                                   NULL), CL_SUCCESS);
    bool several = strstr(log, "kernel half_chain: work-items run ") &&
                   !strstr(log, "kernel half_chain: work-items run one at a time");
    CHECK_EQ(several, !vectorizer_off());
    static cl_float got[ITEMS];
    const cl_int n = 8;
    for (size_t l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
        run(program, "half_chain", locals[l], n, sizeof(cl_float), got);
        int bad = 0;
        for (int g = 0; g < ITEMS; g++) {
            float x = 1 + (float)(g % 64) / 64, y = 0.125f + (float)(g % 7);
            for (int k = 0; k < n; k++) {
                x = round_to_half((double)x * 0.5 + y);
                y = round_to_half((double)y - x * 0.25);
            }
            bad += got[g] != round_to_half((double)x + y);
        }
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    cl_program program = exec_build(source, "-cl-std=CL3.0 -cl-refcl-vectorize-report");
    if (program) {
        check_report(program);
        check_integers(program);
        check_histogram(program, "histogram");
        check_histogram(program, "divergent_histogram");
        check_vec4(program);
        check_tile(program, "tile");
        check_tile(program, "tiled");
        check_wrapping(program);
        check_gemm_float(program);
        check_gemm_double(program);
        check_local_choice(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    check_half_chain();
    exec_teardown();
    return TEST_RESULT();
}
