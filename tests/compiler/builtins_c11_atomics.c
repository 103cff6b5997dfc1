/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/c11_atomics: the OpenCL C 2.0/3.0 atomics of refcl-builtins.bc
 * (compiler/lib: c11atomic) in kernels built as OpenCL C 3.0 and run by the
 * runtime. "once": every function in its three forms (plain, order, order
 * and scope) on atomic_int, uint, long, ulong, float and double in __global
 * and __local memory, *expected in each address space, the
 * atomic_uintptr_t / atomic_intptr_t overloads, atomic_flag and
 * atomic_work_item_fence, each result checked. "contend": every work-item
 * of 64 groups, spread over all the device's threads, on global and local
 * atomics at once: exact sums, min/max, the values exchanged (each seen
 * once), compare-exchange loops counting in int, long, float and double,
 * and a non-atomic counter guarded by an atomic_flag spin lock.
 */
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define GROUPS 64
#define ITEMS 64
#define ROUNDS 8
#define ONCE_RESULTS 512

/* SEQUENCE(P, E, T): the non-fetch functions on atomic T *P with T *E as
 * compare_exchange's expected value: 21 results, the same for every T. */
static const char source[] =
    "#define R(x) r[n++] = (long)(x)\n"
    "#define SEQUENCE(P, E, T) \\\n"
    "    atomic_init(P, (T)5); R(atomic_load(P)); \\\n"
    "    atomic_store(P, (T)6); R(atomic_load_explicit(P, memory_order_acquire)); \\\n"
    "    atomic_store_explicit(P, (T)7, memory_order_release); \\\n"
    "    R(atomic_load_explicit(P, memory_order_seq_cst, memory_scope_work_group)); \\\n"
    "    atomic_store_explicit(P, (T)8, memory_order_relaxed, memory_scope_device); \\\n"
    "    R(atomic_exchange(P, (T)9)); \\\n"
    "    R(atomic_exchange_explicit(P, (T)10, memory_order_acq_rel)); \\\n"
    "    R(atomic_exchange_explicit(P, (T)11, memory_order_relaxed, memory_scope_all_devices)); \\\n"
    "    *(E) = (T)1; R(atomic_compare_exchange_strong(P, E, (T)12)); R(*(E)); \\\n"
    "    R(atomic_compare_exchange_strong(P, E, (T)12)); R(*(E)); R(atomic_load(P)); \\\n"
    "    *(E) = (T)12; \\\n"
    "    while (!atomic_compare_exchange_weak_explicit(P, E, (T)13, memory_order_acq_rel, memory_order_acquire)); \\\n"
    "    R(*(E)); R(atomic_load(P)); \\\n"
    "    *(E) = (T)0; \\\n"
    "    R(atomic_compare_exchange_weak_explicit(P, E, (T)14, memory_order_seq_cst, memory_order_relaxed, memory_scope_work_group)); \\\n"
    "    R(*(E)); \\\n"
    "    R(atomic_compare_exchange_strong_explicit(P, E, (T)15, memory_order_release, memory_order_relaxed)); \\\n"
    "    R(atomic_load(P)); *(E) = (T)15; \\\n"
    "    R(atomic_compare_exchange_strong_explicit(P, E, (T)16, memory_order_acquire, memory_order_acquire, memory_scope_device)); \\\n"
    "    R(atomic_compare_exchange_strong_explicit(P, E, (T)17, memory_order_relaxed, memory_order_relaxed, memory_scope_device)); \\\n"
    "    R(*(E)); *(E) = (T)16; \\\n"
    "    while (!atomic_compare_exchange_weak(P, E, (T)18)); R(atomic_load(P));\n"
    /* FETCH(P, T): the fetch functions: 12 results. */
    "#define FETCH(P, T) \\\n"
    "    atomic_init(P, (T)12); R(atomic_fetch_add(P, (T)3)); \\\n"
    "    R(atomic_fetch_sub_explicit(P, (T)5, memory_order_relaxed)); \\\n"
    "    R(atomic_fetch_or_explicit(P, (T)0x21, memory_order_release, memory_scope_work_group)); \\\n"
    "    R(atomic_fetch_xor(P, (T)0x0f)); \\\n"
    "    R(atomic_fetch_and_explicit(P, (T)0x3c, memory_order_acq_rel)); \\\n"
    "    R(atomic_fetch_min(P, (T)40)); \\\n"
    "    R(atomic_fetch_min_explicit(P, (T)7, memory_order_acquire, memory_scope_device)); \\\n"
    "    R(atomic_fetch_max(P, (T)3)); \\\n"
    "    R(atomic_fetch_max_explicit(P, (T)50, memory_order_seq_cst)); \\\n"
    "    R(atomic_fetch_max_explicit(P, (T)-1, memory_order_relaxed, memory_scope_all_devices)); \\\n"
    "    R(atomic_fetch_min_explicit(P, (T)-2, memory_order_relaxed)); \\\n"
    "    R(atomic_load(P));\n"
    /* POINTERS(U, I): atomic_uintptr_t and atomic_intptr_t by the other
     * signedness: 9 results. */
    "#define POINTERS(U, I) \\\n"
    "    atomic_init(U, (uintptr_t)100); \\\n"
    "    R(atomic_fetch_add(U, (ptrdiff_t)-1)); \\\n"
    "    R(atomic_fetch_sub_explicit(U, (ptrdiff_t)-3, memory_order_relaxed)); \\\n"
    "    R(atomic_fetch_or_explicit(U, (intptr_t)1, memory_order_relaxed, memory_scope_device)); \\\n"
    "    R(atomic_fetch_and(U, (intptr_t)-4)); R(atomic_fetch_xor(U, (intptr_t)-1)); \\\n"
    "    atomic_init(I, (intptr_t)-5); \\\n"
    "    R(atomic_fetch_min(I, (uintptr_t)3)); R(atomic_fetch_max_explicit(I, (uintptr_t)-7, memory_order_acq_rel)); \\\n"
    "    R(atomic_fetch_add_explicit(U, (ptrdiff_t)1, memory_order_seq_cst, memory_scope_work_group)); \\\n"
    "    R(atomic_load(I));\n"
    /* FLAG(F): 7 results. */
    "#define FLAG(F) \\\n"
    "    atomic_flag_clear(F); R(atomic_flag_test_and_set(F)); R(atomic_flag_test_and_set(F)); \\\n"
    "    atomic_flag_clear_explicit(F, memory_order_release); \\\n"
    "    R(atomic_flag_test_and_set_explicit(F, memory_order_acquire)); \\\n"
    "    R(atomic_flag_test_and_set_explicit(F, memory_order_acq_rel, memory_scope_work_group)); \\\n"
    "    atomic_flag_clear_explicit(F, memory_order_seq_cst, memory_scope_device); \\\n"
    "    R(atomic_flag_test_and_set_explicit(F, memory_order_relaxed, memory_scope_all_devices)); \\\n"
    "    R(atomic_flag_test_and_set(F)); atomic_flag_clear(F); R(atomic_flag_test_and_set(F));\n"
    "\n"
    "kernel void once(global atomic_int *gi, global atomic_uint *gu,\n"
    "                 global atomic_long *gl, global atomic_ulong *gul,\n"
    "                 global atomic_float *gf, global atomic_double *gd,\n"
    "                 global int *ge, global long *r)\n"
    "{\n"
    "    local atomic_int li; local atomic_uint lu; local atomic_long ll;\n"
    "    local atomic_ulong lul; local atomic_float lf; local atomic_double ld;\n"
    "    local atomic_flag lflag; local int le;\n"
    "    int pi; uint pu; long pl; ulong pul; float pf; double pd;\n"
    "    int n = 0;\n"
    "    SEQUENCE(gi, &pi, int) SEQUENCE(gu, &pu, uint)\n"
    "    SEQUENCE(gl, &pl, long) SEQUENCE(gul, &pul, ulong)\n"
    "    SEQUENCE(gf, &pf, float) SEQUENCE(gd, &pd, double)\n"
    "    SEQUENCE(&li, &pi, int) SEQUENCE(&lu, &pu, uint)\n"
    "    SEQUENCE(&ll, &pl, long) SEQUENCE(&lul, &pul, ulong)\n"
    "    SEQUENCE(&lf, &pf, float) SEQUENCE(&ld, &pd, double)\n"
    "    SEQUENCE(gi, ge, int) SEQUENCE(gi, &le, int)\n"
    "    SEQUENCE(&li, ge, int) SEQUENCE(&li, &le, int)\n"
    "    FETCH(gi, int) FETCH(gu, uint) FETCH(gl, long) FETCH(gul, ulong)\n"
    "    FETCH(&li, int) FETCH(&lu, uint) FETCH(&ll, long) FETCH(&lul, ulong)\n"
    "    POINTERS((global atomic_uintptr_t *)gul, (global atomic_intptr_t *)gl)\n"
    "    POINTERS((local atomic_uintptr_t *)&lul, (local atomic_intptr_t *)&ll)\n"
    "    FLAG((global atomic_flag *)gi) FLAG(&lflag)\n"
    "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);\n"
    "    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
    "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_item);\n"
    "    r[n] = -12345; /* the end mark */\n"
    "}\n"
    "\n"
    /* What every work-item does to the global atomics: c[0..] below. */
    "kernel void contend(global atomic_int *gi, global atomic_uint *gu,\n"
    "                    global atomic_long *gl, global atomic_ulong *gul,\n"
    "                    global atomic_float *gf, global atomic_double *gd,\n"
    "                    global atomic_flag *flag, global long *guarded,\n"
    "                    global int *olds, global int *local_olds,\n"
    "                    global long *sums, uint rounds)\n"
    "{\n"
    "    local atomic_int li[2]; local atomic_uint lu; local atomic_long ll;\n"
    "    local atomic_float lf; local atomic_flag lflag; local long lguarded;\n"
    "    uint gid = get_global_id(0), lid = get_local_id(0);\n"
    "    if (lid == 0) {\n"
    "        atomic_init(&li[0], 0); atomic_init(&li[1], 0); atomic_init(&lu, 0);\n"
    "        atomic_init(&ll, 0); atomic_init(&lf, 0.0f);\n"
    "        atomic_flag_clear_explicit(&lflag, memory_order_relaxed, memory_scope_work_group);\n"
    "        lguarded = 0;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_fetch_max(&gi[3], (int)gid);\n"
    "    atomic_fetch_min_explicit(&gi[4], -(int)gid, memory_order_relaxed, memory_scope_all_devices);\n"
    "    atomic_fetch_or(&gu[0], 1u << (gid % 32));\n"
    "    atomic_fetch_and_explicit(&gu[1], ~(1u << (gid % 32)), memory_order_release);\n"
    "    atomic_fetch_xor_explicit(&gu[2], gid * 2654435761u, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_max_explicit(&gul[0], (ulong)gid << 40, memory_order_relaxed, memory_scope_device);\n"
    "    local_olds[gid] = atomic_exchange_explicit(&li[1], (int)lid + 1, memory_order_relaxed, memory_scope_work_group);\n"
    "    atomic_fetch_max_explicit(&lu, lid, memory_order_relaxed, memory_scope_work_group);\n"
    "    for (uint i = 0; i < rounds; i++) {\n"
    "        olds[gid * rounds + i] = atomic_exchange_explicit(&gi[2],\n"
    "            (int)(gid * rounds + i) + 1, memory_order_acq_rel, memory_scope_device);\n"
    "        atomic_fetch_add(&gi[0], 1);\n"
    "        atomic_fetch_sub_explicit(&gi[1], 2, memory_order_relaxed);\n"
    "        uint u = atomic_load_explicit(&gu[3], memory_order_relaxed);\n"
    "        while (!atomic_compare_exchange_weak(&gu[3], &u, u + 1));\n"
    "        atomic_fetch_add_explicit(&gl[0], (1l << 33) + 1, memory_order_relaxed, memory_scope_device);\n"
    "        long l = atomic_load(&gl[1]);\n"
    "        while (!atomic_compare_exchange_strong_explicit(&gl[1], &l, l + (1l << 32),\n"
    "               memory_order_acq_rel, memory_order_relaxed, memory_scope_device));\n"
    "        atomic_fetch_sub(&gul[1], 1ul);\n"
    "        atomic_fetch_add_explicit((global atomic_uintptr_t *)&gul[2], (ptrdiff_t)-3, memory_order_relaxed);\n"
    "        float f = atomic_load_explicit(&gf[0], memory_order_relaxed, memory_scope_device);\n"
    "        while (!atomic_compare_exchange_weak_explicit(&gf[0], &f, f + 1.0f,\n"
    "               memory_order_relaxed, memory_order_relaxed));\n"
    "        double d = atomic_load(gd);\n"
    "        while (!atomic_compare_exchange_strong(gd, &d, d + 0.5));\n"
    "        while (atomic_flag_test_and_set_explicit(flag, memory_order_acquire, memory_scope_device));\n"
    "        guarded[0]++;\n"
    "        atomic_flag_clear_explicit(flag, memory_order_release, memory_scope_device);\n"
    "        atomic_fetch_add_explicit(&li[0], 1, memory_order_relaxed, memory_scope_work_group);\n"
    "        atomic_fetch_sub(&ll, 3l);\n"
    "        float lv = atomic_load(&lf);\n"
    "        while (!atomic_compare_exchange_weak(&lf, &lv, lv + 2.0f));\n"
    "        while (atomic_flag_test_and_set(&lflag));\n"
    "        lguarded++;\n"
    "        atomic_flag_clear(&lflag);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) {\n"
    "        global long *s = sums + 6 * get_group_id(0);\n"
    "        s[0] = atomic_load(&li[0]); s[1] = atomic_load(&li[1]);\n"
    "        s[2] = atomic_load(&lu); s[3] = atomic_load(&ll);\n"
    "        s[4] = (long)atomic_load(&lf); s[5] = lguarded;\n"
    "    }\n"
    "}\n";

/* SEQUENCE's results for every type: OpenCL C's compare_exchange writes
 * *expected on failure only, and a weak one may fail spuriously only where
 * the values are equal (the loops). */
static const int64_t sequence[21] = {5,  6,  7,  8,  9, 10, 0,  11, 1,  11, 12,
                                     12, 13, 0, 13, 1,  15, 1, 0, 16, 18};

/* FETCH's results for a @bits-bit type, signed or not: from 12, +3 -5
 * |0x21 ^0x0f &0x3c min40 min7 max3 max50 max(-1) min(-2). */
static void fetch_expected(int bits, bool is_signed, int64_t out[12])
{
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    int64_t ones = is_signed ? -1 : (int64_t)mask; /* (T)-1 as long */
    int64_t twos = is_signed ? -2 : (int64_t)(mask - 1);
    const int64_t first[9] = {12, 15, 10, 43, 36, 36, 36, 7, 7};
    memcpy(out, first, sizeof(first));
    out[9] = 50;
    out[10] = is_signed ? 50 : ones;        /* max(50, -1) */
    out[11] = is_signed ? -2 : twos;        /* min(then, -2) */
}

/* Checks @p r[*n...] against @p expected[0..count) and moves on. */
static void check_run(const int64_t *r, int *n, const int64_t *expected,
                      int count, const char *what)
{
    for (int i = 0; i < count; i++)
        if (r[*n + i] != expected[i]) {
            fprintf(stderr, "%s at %d: result %d is %lld, not %lld\n", what,
                    *n, i, (long long)r[*n + i], (long long)expected[i]);
            test_failures++;
        }
    *n += count;
}

static void check_once_results(const int64_t *r)
{
    int n = 0;
    for (int i = 0; i < 16; i++) /* 6 global, 6 local, 4 int spaces */
        check_run(r, &n, sequence, 21, "SEQUENCE");
    static const int bits[4] = {32, 32, 64, 64};
    for (int space = 0; space < 2; space++)
        for (int t = 0; t < 4; t++) {
            int64_t expected[12];
            fetch_expected(bits[t], t % 2 == 0, expected);
            check_run(r, &n, expected, 12, "FETCH");
        }
    /* uintptr 100: +(-1) -(-3) |1 &-4 ^-1; intptr -5: min(3 as long),
     * max((long)-7); then +1 on the uintptr; load of the intptr. */
    const int64_t pointers[9] = {100, 99, 102, 103, 100, -5, -5, ~100ll, -5};
    for (int space = 0; space < 2; space++)
        check_run(r, &n, pointers, 9, "POINTERS");
    const int64_t flag[7] = {0, 1, 0, 1, 0, 1, 0};
    for (int space = 0; space < 2; space++)
        check_run(r, &n, flag, 7, "FLAG");
    CHECK_EQ(r[n], -12345);
}

/* A buffer of @p count zero bytes. */
static cl_mem zeros(size_t size)
{
    void *zero = calloc(1, size);
    cl_mem buffer = exec_buffer(size, zero);
    free(zero);
    return buffer;
}

static void set_args(cl_kernel kernel, cl_mem *buffers, int count)
{
    for (int i = 0; i < count; i++)
        CHECK_EQ(clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem),
                                &buffers[i]),
                 CL_SUCCESS);
}

static void run(cl_kernel kernel, size_t global, size_t local)
{
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                    0, NULL, NULL),
             CL_SUCCESS);
}

static void release(cl_mem *buffers, int count)
{
    for (int i = 0; i < count; i++)
        CHECK_EQ(clReleaseMemObject(buffers[i]), CL_SUCCESS);
}

static void check_once(cl_program program)
{
    cl_kernel kernel = exec_kernel(program, "once");
    cl_mem b[8];
    for (int i = 0; i < 7; i++)
        b[i] = zeros(64);
    b[7] = zeros(ONCE_RESULTS * sizeof(int64_t));
    set_args(kernel, b, 8);
    run(kernel, 1, 1);
    int64_t *r = malloc(ONCE_RESULTS * sizeof(int64_t));
    exec_read(b[7], ONCE_RESULTS * sizeof(int64_t), r);
    check_once_results(r);
    free(r);
    release(b, 8);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

/* Each of 0..count seen exactly once among @p olds and @p last. */
static void check_exchanged(const int32_t *olds, int count, int32_t last)
{
    int *seen = calloc((size_t)count + 1, sizeof(int));
    for (int i = 0; i <= count; i++) {
        int32_t v = i < count ? olds[i] : last;
        CHECK(v >= 0 && v <= count);
        if (v >= 0 && v <= count)
            seen[v]++;
    }
    for (int v = 0; v <= count; v++)
        CHECK_EQ(seen[v], 1);
    free(seen);
}

/* The buffers of "contend", their initial contents. */
enum { GI, GU, GL, GUL, GF, GD, FLAG, GUARDED, OLDS, LOCAL_OLDS, SUMS };

static void check_global(cl_mem *b)
{
    const uint64_t items = GROUPS * ITEMS, adds = items * ROUNDS;
    int32_t gi[5];
    uint32_t gu[4];
    int64_t gl[2], guarded;
    uint64_t gul[3];
    float gf;
    double gd;
    exec_read(b[GI], sizeof(gi), gi);
    exec_read(b[GU], sizeof(gu), gu);
    exec_read(b[GL], sizeof(gl), gl);
    exec_read(b[GUL], sizeof(gul), gul);
    exec_read(b[GF], sizeof(gf), &gf);
    exec_read(b[GD], sizeof(gd), &gd);
    exec_read(b[GUARDED], sizeof(guarded), &guarded);
    CHECK_EQ(gi[0], (int32_t)adds);
    CHECK_EQ(gi[1], -2 * (int32_t)adds);
    CHECK_EQ(gi[3], (int32_t)items - 1);
    CHECK_EQ(gi[4], 1 - (int32_t)items);
    CHECK_EQ(gu[0], 0xffffffffu);
    CHECK_EQ(gu[1], 0u);
    uint32_t xor = 0;
    for (uint32_t g = 0; g < items; g++)
        xor ^= g * 2654435761u;
    CHECK_EQ(gu[2], xor);
    CHECK_EQ(gu[3], (uint32_t)adds);
    CHECK_EQ(gl[0], (int64_t)(adds * ((1ull << 33) + 1)));
    CHECK_EQ(gl[1], (int64_t)(adds << 32));
    CHECK_EQ(gul[0], (items - 1) << 40);
    CHECK_EQ(gul[1], 0 - adds);
    CHECK_EQ(gul[2], 0 - 3 * adds);
    CHECK(gf == (float)adds);
    CHECK(gd == 0.5 * (double)adds);
    CHECK_EQ(guarded, (int64_t)adds);
    int32_t *olds = malloc(adds * sizeof(int32_t));
    exec_read(b[OLDS], adds * sizeof(int32_t), olds);
    check_exchanged(olds, (int)adds, gi[2]);
    free(olds);
}

static void check_local(cl_mem *b)
{
    int64_t sums[GROUPS * 6];
    int32_t olds[GROUPS * ITEMS];
    exec_read(b[SUMS], sizeof(sums), sums);
    exec_read(b[LOCAL_OLDS], sizeof(olds), olds);
    for (int g = 0; g < GROUPS; g++) {
        const int64_t *s = sums + 6 * g;
        CHECK_EQ(s[0], ITEMS * ROUNDS);
        CHECK_EQ(s[2], ITEMS - 1);
        CHECK_EQ(s[3], -3 * ITEMS * ROUNDS);
        CHECK_EQ(s[4], 2 * ITEMS * ROUNDS);
        CHECK_EQ(s[5], ITEMS * ROUNDS);
        check_exchanged(olds + g * ITEMS, ITEMS, (int32_t)s[1]);
    }
}

static void check_contention(cl_program program)
{
    cl_kernel kernel = exec_kernel(program, "contend");
    const size_t items = GROUPS * ITEMS;
    cl_mem b[11];
    for (int i = GI; i <= GUARDED; i++)
        b[i] = zeros(64);
    /* gu[1] starts all ones, for fetch_and to clear. */
    uint32_t gu[4] = {0, 0xffffffffu, 0, 0};
    CHECK_EQ(clEnqueueWriteBuffer(queue, b[GU], CL_TRUE, 0, sizeof(gu), gu,
                                  0, NULL, NULL),
             CL_SUCCESS);
    b[OLDS] = zeros(items * ROUNDS * sizeof(int32_t));
    b[LOCAL_OLDS] = zeros(items * sizeof(int32_t));
    b[SUMS] = zeros(GROUPS * 6 * sizeof(int64_t));
    set_args(kernel, b, 11);
    cl_uint rounds = ROUNDS;
    CHECK_EQ(clSetKernelArg(kernel, 11, sizeof(rounds), &rounds), CL_SUCCESS);
    run(kernel, items, ITEMS);
    check_global(b);
    check_local(b);
    release(b, 11);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

int main(void)
{
    return exec_atomics_test(source, "-cl-std=CL3.0", check_once, check_contention);
}
