/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The work-group pass, kernel by kernel: each case compiles a program of
 * kernels/ with the driver's command line, runs its work-groups through
 * the table the pass emitted, and checks every result against the same
 * computation in host C. `pass <case>`; `pass bench` measures.
 */

#include "check.h"
#include "harness.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Atomic int test_failures;

#define ARG(v) {&(v), sizeof(v)}
#define LOCAL(bytes) {NULL, (bytes)}

static struct pass_range range1(uint64_t offset, uint64_t global, uint64_t local)
{
    struct pass_range r = {1, {offset, 0, 0}, {global, 1, 1}, {local, 1, 1}};
    return r;
}

/* saxpy over 1000 floats from offset 7 in groups of 64: the last group
 * has 40 work-items. Values are small integers, so a*x+y is exact with
 * or without a fused multiply-add. */
static void check_saxpy(const char *options)
{
    enum { N = 1000, OFFSET = 7 };
    struct pass_program p;
    pass_build(&p, "saxpy", options);
    const struct refcl_abi_kernel *k = pass_kernel(&p, "saxpy");
    CHECK_EQ(k->has_barrier, 0);
    CHECK_EQ(k->frame_bytes, 0);
    static float x[N + OFFSET], y[N + OFFSET], want[N + OFFSET];
    for (int i = 0; i < N + OFFSET; i++) {
        x[i] = (float)(i % 97);
        y[i] = (float)(i % 13) - 6;
        want[i] = i < OFFSET ? y[i] : 3 * x[i] + y[i];
    }
    float a = 3;
    float *xp = x, *yp = y;
    struct pass_arg args[] = {ARG(a), ARG(xp), ARG(yp)};
    struct pass_range r = range1(OFFSET, N, 64);
    pass_run(k, args, &r, 2);
    int wrong = 0;
    for (int i = 0; i < N + OFFSET; i++)
        wrong += y[i] != want[i];
    CHECK_EQ(wrong, 0);
    pass_unload(&p);
}

static void test_saxpy(void)
{
    check_saxpy("");
    check_saxpy("-O0 -Xclang -disable-O0-optnone");
    check_saxpy("-O0");
}

/* The loop vectorizer must vectorize saxpy's x loop, with no run-time
 * alias check (the loop is annotated parallel). */
static void test_vectorized(void)
{
    char *log = pass_compile_log("saxpy", "-Rpass=loop-vectorize -Rpass-analysis=loop-vectorize");
    CHECK(strstr(log, "vectorized loop") != NULL);
    CHECK(strstr(log, "runtime") == NULL);
    fputs(log, stderr);
    free(log);
}

/* A 3-D range with offsets, sizes that do not divide, and a dimension
 * out of range both constant and from an argument. */
static void test_ids(void)
{
    struct pass_program p;
    pass_build(&p, "ids", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "ids");
    struct pass_range r = {3, {1, 2, 3}, {5, 6, 7}, {2, 4, 3}};
    uint64_t groups[3], total = 5 * 6 * 7;
    for (int d = 0; d < 3; d++)
        groups[d] = (r.global[d] + r.local[d] - 1) / r.local[d];
    uint64_t *out = calloc(total * 32, sizeof *out);
    uint32_t dim = 5;
    struct pass_arg args[] = {ARG(out), ARG(dim)};
    pass_run(k, args, &r, 2);
    int wrong = 0;
    for (uint64_t z = 0; z < 7; z++)
        for (uint64_t y = 0; y < 6; y++)
            for (uint64_t x = 0; x < 5; x++) {
                uint64_t g[3] = {x, y, z}, lin = (z * 6 + y) * 5 + x, want[32];
                uint64_t lsz[3], lid[3];
                for (int d = 0; d < 3; d++) {
                    uint64_t grp = g[d] / r.local[d], left = r.global[d] - grp * r.local[d];
                    lid[d] = g[d] % r.local[d];
                    lsz[d] = left < r.local[d] ? left : r.local[d];
                    uint64_t v[8] = {g[d] + r.offset[d], lid[d], grp, lsz[d], r.local[d],
                                     groups[d], r.global[d], r.offset[d]};
                    memcpy(&want[d * 8], v, sizeof v);
                }
                want[24] = 3;
                want[25] = (lid[2] * lsz[1] + lid[1]) * lsz[0] + lid[0];
                want[26] = lin;
                want[27] = 0;
                want[28] = 1;
                want[29] = 0;
                want[30] = 0xfeed;
                want[31] = 0xbeef;
                for (int i = 0; i < 32; i++)
                    if (out[lin * 32 + i] != want[i] && wrong++ < 10)
                        fprintf(stderr, "item (%d,%d,%d) value %d: %llu, expected %llu\n",
                                (int)x, (int)y, (int)z, i,
                                (unsigned long long)out[lin * 32 + i],
                                (unsigned long long)want[i]);
            }
    CHECK_EQ(wrong, 0);
    free(out);
    pass_unload(&p);
}

static double run_reduce(const struct refcl_abi_kernel *k, uint32_t n, unsigned threads)
{
    enum { GROUP = 256 };
    uint32_t *in = malloc(n * sizeof *in), *out = calloc(n / GROUP, sizeof *out);
    for (uint32_t i = 0; i < n; i++)
        in[i] = i * 2654435761u >> 7;
    struct pass_arg args[] = {ARG(in), ARG(out), LOCAL(GROUP * sizeof(uint32_t))};
    struct pass_range r = range1(0, n, GROUP);
    double t0 = pass_now();
    pass_run(k, args, &r, threads);
    double t = pass_now() - t0;
    int wrong = 0;
    for (uint32_t g = 0; g < n / GROUP; g++) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < GROUP; i++)
            sum += in[g * GROUP + i];
        wrong += out[g] != sum;
    }
    CHECK_EQ(wrong, 0);
    free(in);
    free(out);
    return t;
}

static void test_reduce(void)
{
    struct pass_program p;
    pass_build(&p, "reduce", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "reduce");
    CHECK_EQ(k->has_barrier, 1);
    CHECK(k->frame_bytes > 0 && k->frame_bytes % REFCL_ABI_ALIGN == 0);
    run_reduce(k, 1u << 20, 2);
    pass_unload(&p);
}

/* Runs kernel @p name of barriers.cl over 4 groups of 64 on 2 threads. */
static void run_barriers(const struct pass_program *p, const char *name, uint32_t arg,
                         uint32_t *out)
{
    const struct refcl_abi_kernel *k = pass_kernel(p, name);
    CHECK_EQ(k->has_barrier, 1);
    struct pass_arg args[] = {ARG(out), ARG(arg)};
    struct pass_range r = range1(0, 256, 64);
    memset(out, 0, 256 * sizeof *out);
    pass_run(k, args, &r, 2);
}

static int count_wrong(const uint32_t *out, const uint32_t *want, const char *what)
{
    int wrong = 0;
    for (int i = 0; i < 256; i++)
        if (out[i] != want[i] && wrong++ < 5)
            fprintf(stderr, "%s[%d] = %u, expected %u\n", what, i, out[i], want[i]);
    return wrong;
}

static void check_barriers(const char *options)
{
    struct pass_program p;
    pass_build(&p, "barriers", options);
    uint32_t out[256], want[256], v[64];
    run_barriers(&p, "helper", 0, out);
    for (int g = 0; g < 4; g++) {
        for (int l = 0; l < 64; l++)
            v[l] = (uint32_t)((l + 1) % 64 * 3 + g) + 1000;
        for (int l = 0; l < 64; l++)
            want[g * 64 + l] = v[(l + 1) % 64];
    }
    CHECK_EQ(count_wrong(out, want, "helper"), 0);

    for (uint32_t flag = 0; flag < 2; flag++) {
        run_barriers(&p, "branches", flag, out);
        for (int i = 0; i < 256; i++) {
            uint32_t l = (uint32_t)i % 64;
            want[i] = flag ? (63 - l) * 7 + l * 7 : ((l + 2) % 64 + 5) * 2;
        }
        CHECK_EQ(count_wrong(out, want, flag ? "branches(1)" : "branches(0)"), 0);
    }

    run_barriers(&p, "first_last", 0, out);
    for (int i = 0; i < 256; i++)
        want[i] = (uint32_t)(i % 64) * 2 + 1;
    CHECK_EQ(count_wrong(out, want, "first_last"), 0);

    uint32_t n = 21;
    run_barriers(&p, "private_array", n, out);
    for (int i = 0; i < 256; i++) {
        uint32_t l = (uint32_t)i % 64, sum = (63 - l) * 16 + n % 16;
        for (uint32_t j = 0; j < n; j++)
            sum += l * 16 + (j + l) % 16;
        want[i] = sum;
    }
    CHECK_EQ(count_wrong(out, want, "private_array"), 0);

    uint32_t rounds = 5, acc[64], next[64];
    run_barriers(&p, "loop", rounds, out);
    for (int l = 0; l < 64; l++)
        acc[l] = (uint32_t)l;
    for (uint32_t r = 0; r < rounds; r++) {
        for (uint32_t l = 0; l < 64; l++)
            next[l] = acc[l] + acc[(l + r + 1) % 64];
        memcpy(acc, next, sizeof acc);
    }
    for (int i = 0; i < 256; i++)
        want[i] = acc[i % 64];
    CHECK_EQ(count_wrong(out, want, "loop"), 0);
    pass_unload(&p);
}

static void test_barriers(void)
{
    check_barriers("");
    check_barriers("-O0");
}

/* uniform.cl's kernel @p name over 16 groups of 64 from offset 3 on 4
 * threads (groups run at once), four uints per work-item in out. */
enum { UNIFORM_GROUPS = 16, UNIFORM_ITEMS = 64 * UNIFORM_GROUPS };

static void run_uniform(const struct pass_program *p, const char *name, uint32_t k,
                        uint32_t *out)
{
    const struct refcl_abi_kernel *kernel = pass_kernel(p, name);
    CHECK_EQ(kernel->has_barrier, 1);
    struct pass_arg args[] = {ARG(out), ARG(k), LOCAL(64 * sizeof(uint32_t))};
    struct pass_range r = range1(3, UNIFORM_ITEMS, 64);
    memset(out, 0xff, UNIFORM_ITEMS * 4 * sizeof *out);
    pass_run(kernel, args, &r, 4);
}

static int count_wrong4(const uint32_t *out, const uint32_t *want, const char *what)
{
    int wrong = 0;
    for (int i = 0; i < UNIFORM_ITEMS * 4; i++)
        if (out[i] != want[i] && wrong++ < 5)
            fprintf(stderr, "%s: item %d value %d = %u, expected %u\n", what, i / 4, i % 4,
                    out[i], want[i]);
    return wrong;
}

static void check_uniform(const char *options)
{
    static const uint32_t table[4] = {11, 22, 33, 44};
    static uint32_t out[UNIFORM_ITEMS * 4], want[UNIFORM_ITEMS * 4];
    const uint32_t k = 1000, n = 64;
    struct pass_program p;
    pass_build(&p, "uniform", options);
    run_uniform(&p, "uniform", k, out);
    for (uint32_t i = 0; i < UNIFORM_ITEMS; i++) {
        uint32_t g = i / n, l = i % n, t = table[g & 3], acc = 0;
        uint32_t base = g * n * 5 + k + 3 + UNIFORM_GROUPS;
        for (uint32_t s = n; s > 0; s /= 2)
            acc += (l + 1) % n + s + s * 3 + g;
        uint32_t *w = &want[i * 4];
        w[0] = base + l, w[1] = t * l, w[2] = acc, w[3] = base * t;
    }
    CHECK_EQ(count_wrong4(out, want, "uniform"), 0);

    run_uniform(&p, "divergent", k, out);
    for (uint32_t i = 0; i < UNIFORM_ITEMS; i++) {
        uint32_t g = i / n, l = i % n, *w = &want[i * 4];
        w[0] = l & 1 ? g * 3 + k : g + k;
        w[1] = l % 5 * n;
        w[2] = g * 100 + n - 1 - l;
        w[3] = g * 100;
    }
    CHECK_EQ(count_wrong4(out, want, "divergent"), 0);
    pass_unload(&p);
}

static void test_uniform(void)
{
    check_uniform("");
    check_uniform("-O0");
}

/* The pass on a module that comes from bitcode (clLinkProgram's input). */
static void test_bitcode(void)
{
    check_barriers(NULL);
    check_saxpy(NULL);
}

/* Kernel-scope __local variables, 512 groups of 128 on 4 threads: each
 * group's must be its own while the others run. */
static void test_local(void)
{
    enum { N = 512 * 128 };
    struct pass_program p;
    pass_build(&p, "local", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "reverse");
    /* pad at 0, then tile at 16: clang aligns a 512-byte array to 16 */
    CHECK_EQ(k->local_bytes, 16 + 128 * 4);
    uint32_t *in = malloc(N * sizeof *in), *out = calloc(N, sizeof *out);
    for (uint32_t i = 0; i < N; i++)
        in[i] = i * 7u;
    struct pass_arg args[] = {ARG(in), ARG(out)};
    struct pass_range r = range1(0, N, 128);
    pass_run(k, args, &r, 4);
    int wrong = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t g = i / 128, l = i % 128;
        wrong += out[i] != in[g * 128 + 127 - l] + (uint8_t)(l % 3 + g);
    }
    CHECK_EQ(wrong, 0);
    free(in);
    free(out);
    pass_unload(&p);
}

struct big { int32_t a; float b; int32_t c[6]; };
struct pair { int32_t a, b; };

static void test_byval(void)
{
    struct pass_program p;
    pass_build(&p, "args", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "byval");
    struct big s = {10, 2.0f, {1, 2, 3, 4, 5, 6}};
    struct pair q = {7, 8};
    int32_t out[100];
    int32_t *o = out;
    struct pass_arg args[] = {ARG(s), ARG(q), ARG(o)};
    struct pass_range r = range1(0, 100, 10);
    pass_run(k, args, &r, 2);
    int wrong = 0;
    for (int g = 0; g < 100; g++)
        wrong += out[g] != 10 + g + s.c[g % 6] * 2 + 2 + 700 + 8 + g;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(s.a, 10); /* the caller's copy is untouched */
    CHECK_EQ(k->args[0].size, sizeof(struct big));
    CHECK_EQ(k->args[1].size, 8);
    pass_unload(&p);
}

static void test_vectors(void)
{
    struct pass_program p;
    pass_build(&p, "args", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "vectors");
    float f[4] = {1, 2, 3, 4}, h[2] = {3, 5};
    int64_t l[16], out[19];
    int8_t c[4] = {1, 2, 3, 0};
    for (int i = 0; i < 16; i++)
        l[i] = (int64_t)i * -1000000007;
    int64_t *o = out;
    struct pass_arg args[] = {{f, 16}, {l, 128}, {c, 4}, {h, 8}, ARG(o)};
    struct pass_range r = range1(0, 1, 1);
    pass_run(k, args, &r, 1);
    CHECK_EQ(out[0], 4321);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(out[1 + i], l[i]);
    CHECK_EQ(out[17], 3002001);
    CHECK_EQ(out[18], 15);
    uint32_t sizes[] = {16, 128, 4, 8, 8};
    for (int i = 0; i < 5; i++)
        CHECK_EQ(k->args[i].size, sizes[i]);
    pass_unload(&p);
}

static void test_many(void)
{
    struct pass_program p;
    pass_build(&p, "args", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "many");
    CHECK_EQ(k->num_args, 23);
    int8_t a0 = -3;
    uint8_t a1 = 200;
    int16_t a2 = -300;
    uint16_t a3 = 60000;
    int32_t a4 = -70000, a11 = 11, a13 = 13, a15 = 15, a17 = 17, a19 = 19, a21 = 21;
    uint32_t a5 = 4000000000u;
    int64_t a6 = -5000000000, a12 = 12, a14 = 14, a16 = 16, a18 = 18, a20 = -20, out[4];
    uint64_t a7 = 6000000000u;
    float a8 = 2.5f;
    double a9 = 1e9;
    int32_t c[2] = {0, 1000};
    int64_t *o = out;
    int32_t *cp = c;
    struct pass_arg args[] = {ARG(a0), ARG(a1), ARG(a2), ARG(a3), ARG(a4), ARG(a5),
                              ARG(a6), ARG(a7), ARG(a8), ARG(a9), ARG(o), ARG(a11),
                              ARG(a12), ARG(a13), ARG(a14), ARG(a15), ARG(a16), ARG(a17),
                              ARG(a18), ARG(a19), ARG(a20), ARG(a21), ARG(cp)};
    struct pass_range r = range1(0, 4, 2);
    pass_run(k, args, &r, 2);
    /* The kernel's expression: C on LP64 promotes as OpenCL C does. */
    int64_t want = a0 + a1 * 2 + a2 * 3 + a3 * 4 + a4 * 5 + a5 * 6 + a6 * 7 + a7 * 8
        + (int64_t)a8 * 9 + (int64_t)a9 * 10 + a11 * 11 + a12 * 12 + a13 * 13 + a14 * 14
        + a15 * 15 + a16 * 16 + a17 * 17 + a18 * 18 + a19 * 19 + a20 * 20 + a21 * 21
        + c[1] * 22;
    for (int i = 0; i < 4; i++)
        CHECK_EQ(out[i], want);
    pass_unload(&p);
}

static void check_arg(const struct refcl_abi_arg *a, uint32_t kind, uint32_t size,
                      uint32_t align, uint32_t access, uint64_t qual, const char *type,
                      const char *name)
{
    CHECK_EQ(a->kind, kind);
    CHECK_EQ(a->size, size);
    CHECK_EQ(a->align, align);
    CHECK_EQ(a->access, access);
    CHECK_EQ(a->type_qualifier, qual);
    CHECK_STR(a->type_name, type);
    if (name)
        CHECK_STR(a->name, name);
    else
        CHECK(a->name == NULL);
}

static void test_info(void)
{
    struct pass_program p;
    pass_build(&p, "info", "-cl-kernel-arg-info");
    CHECK_EQ(p.table->num_kernels, 3);
    CHECK_EQ(p.table->global_variable_bytes, 4 + 40);
    const struct refcl_abi_kernel *k = pass_kernel(&p, "attributed");
    CHECK_EQ(k->num_args, 6);
    const uint32_t G = REFCL_ABI_ARG_GLOBAL, NONE = CL_KERNEL_ARG_ACCESS_NONE;
    check_arg(&k->args[0], G, 8, 16, NONE, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT,
              "float4*", "in");
    check_arg(&k->args[1], G, 8, 4, NONE, CL_KERNEL_ARG_TYPE_VOLATILE, "int*", "out");
    check_arg(&k->args[2], REFCL_ABI_ARG_LOCAL, 8, 4, NONE, 0, "uint*", "scratch");
    check_arg(&k->args[3], REFCL_ABI_ARG_CONSTANT, 8, 4, NONE, CL_KERNEL_ARG_TYPE_CONST,
              "float*", "c");
    check_arg(&k->args[4], REFCL_ABI_ARG_VALUE, 4, 4, NONE, 0, "uint", "n");
    check_arg(&k->args[5], REFCL_ABI_ARG_VALUE, 32, 32, NONE, 0, "float8", "v");
    CHECK_EQ(k->has_barrier, 0);
    CHECK_EQ(k->local_bytes, 0);
    CHECK_EQ(k->frame_bytes, 0);
    CHECK_EQ(k->reqd_work_group_size[0], 64);
    CHECK_EQ(k->reqd_work_group_size[1], 1);
    CHECK_EQ(k->reqd_work_group_size[2], 1);
    CHECK_EQ(k->work_group_size_hint[0], 0);
    CHECK_STR(k->vec_type_hint, "float4");
    CHECK_STR(k->attributes, "reqd_work_group_size(64,1,1) vec_type_hint(float4)");

    k = pass_kernel(&p, "hinted");
    CHECK_EQ(k->num_args, 4);
    check_arg(&k->args[0], G, 8, 1, NONE, 0, "void*", "p");
    check_arg(&k->args[1], REFCL_ABI_ARG_IMAGE, 8, 8, CL_KERNEL_ARG_ACCESS_READ_ONLY, 0,
              "image2d_t", "img");
    check_arg(&k->args[2], REFCL_ABI_ARG_IMAGE, 8, 8, CL_KERNEL_ARG_ACCESS_WRITE_ONLY, 0,
              "image1d_buffer_t", "out");
    check_arg(&k->args[3], REFCL_ABI_ARG_SAMPLER, 8, 8, NONE, 0, "sampler_t", "s");
    CHECK_EQ(k->local_bytes, 33 * 8 + 5);
    CHECK_EQ(k->work_group_size_hint[0], 8);
    CHECK_EQ(k->work_group_size_hint[1], 4);
    CHECK_EQ(k->work_group_size_hint[2], 2);
    CHECK_EQ(k->reqd_work_group_size[0], 0);
    CHECK_STR(k->vec_type_hint, "uint");
    CHECK_STR(k->attributes, "work_group_size_hint(8,4,2) vec_type_hint(uint)");

    k = pass_kernel(&p, "plain");
    CHECK_EQ(k->num_args, 0);
    CHECK(k->vec_type_hint == NULL);
    CHECK_STR(k->attributes, "");
    struct pass_range r = range1(0, 8, 4);
    pass_run(k, NULL, &r, 1);
    pass_unload(&p);

    /* Without -cl-kernel-arg-info, no names. */
    pass_build(&p, "info", "");
    CHECK(pass_kernel(&p, "attributed")->args[0].name == NULL);
    pass_unload(&p);
}

/* saxpy over 64 Mi floats on 2 threads against a plain C loop on 2
 * threads (bench_ref.c, built -O3), and the reduction over 16 Mi uints;
 * times only, no checks. */
struct c_saxpy { float a; const float *x; float *y; size_t n; };
void *pass_c_saxpy(void *arg);

static void *c_saxpy_half(void *arg)
{
    return pass_c_saxpy(arg);
}

static void bench(void)
{
    enum { N = 64 << 20 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (size_t i = 0; i < N; i++)
        x[i] = (float)(i % 97), y[i] = 1;
    struct pass_program p;
    pass_build(&p, "saxpy", "");
    const struct refcl_abi_kernel *k = pass_kernel(&p, "saxpy");
    float a = 2;
    struct pass_arg args[] = {ARG(a), ARG(x), ARG(y)};
    struct pass_range r = range1(0, N, 4096);
    double best_k = 1e9, best_c = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = pass_now();
        pass_run(k, args, &r, 2);
        double t1 = pass_now();
        struct c_saxpy h[2] = {{a, x, y, N / 2}, {a, x + N / 2, y + N / 2, N / 2}};
        pthread_t t;
        REQUIRE(pthread_create(&t, NULL, c_saxpy_half, &h[1]) == 0);
        c_saxpy_half(&h[0]);
        pthread_join(t, NULL);
        double t2 = pass_now();
        best_k = fmin(best_k, t1 - t0);
        best_c = fmin(best_c, t2 - t1);
    }
    printf("saxpy 64 Mi floats, 2 threads: kernel %.1f ms, C loop %.1f ms, C/kernel %.3f\n",
           best_k * 1e3, best_c * 1e3, best_c / best_k);
    pass_unload(&p);
    free(x);
    free(y);
    pass_build(&p, "reduce", "");
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++)
        best = fmin(best, run_reduce(pass_kernel(&p, "reduce"), 16u << 20, 2));
    printf("reduction 16 Mi uints in groups of 256, 2 threads: %.1f ms\n", best * 1e3);
    pass_unload(&p);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        {"saxpy", test_saxpy}, {"vectorized", test_vectorized}, {"ids", test_ids},
        {"reduce", test_reduce}, {"barriers", test_barriers}, {"uniform", test_uniform},
        {"bitcode", test_bitcode}, {"local", test_local},
        {"byval", test_byval}, {"vectors", test_vectors}, {"many-args", test_many},
        {"info", test_info}, {"bench", bench},
    };
    REQUIRE(argc == 2);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            return TEST_RESULT();
        }
    fprintf(stderr, "no case %s\n", argv[1]);
    return 2;
}
