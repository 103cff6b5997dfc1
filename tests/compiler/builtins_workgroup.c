/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/workgroup: the work-group collective functions of
 * refcl-builtins.bc (compiler/lib/src/workgroup.cl with the work-group
 * pass) in kernels built as OpenCL C 3.0 and run by the runtime, against a
 * host computation written from OpenCL C 3.0 s6.15.14: every reduction
 * and scan of add, min and max on int, uint, long, ulong, float, double
 * and, where the device lists cl_khr_fp16, half,
 * broadcast in 1, 2 and 3 dimensions, work_group_all and _any, over
 * uniform and non-uniform groups in 1, 2 and 3 dimensions (the scan order
 * is the local linear id's); collectives in a loop, in a function that is
 * not inlined, one after the other; the device's answers; and an OpenCL C
 * 1.2 program that defines a work_group_reduce_add of its own.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define MAX_ITEMS 4096

/* The global linear index of a work-item, as the host lays out the data. */
#define IDX_SOURCE                                                            \
    "#define IDX (get_global_id(0) + get_global_size(0) * (get_global_id(1) + " \
    "get_global_size(1) * get_global_id(2)))\n"

static const char source[] =
    IDX_SOURCE
    "#define ONE(T, F) kernel void F##_##T(global const T *in, global T *out) \\\n"
    "    { size_t i = IDX; out[i] = work_group_##F(in[i]); }\n"
    "#define BROADCAST(T) kernel void broadcast_##T(global const T *in, global T *out, \\\n"
    "        ulong x, ulong y, ulong z) { size_t i = IDX; \\\n"
    "    if (get_work_dim() == 1) out[i] = work_group_broadcast(in[i], x); \\\n"
    "    else if (get_work_dim() == 2) out[i] = work_group_broadcast(in[i], x, y); \\\n"
    "    else out[i] = work_group_broadcast(in[i], x, y, z); }\n"
    "#define ALL(T) ONE(T, reduce_add) ONE(T, reduce_min) ONE(T, reduce_max) \\\n"
    "    ONE(T, scan_inclusive_add) ONE(T, scan_inclusive_min) ONE(T, scan_inclusive_max) \\\n"
    "    ONE(T, scan_exclusive_add) ONE(T, scan_exclusive_min) ONE(T, scan_exclusive_max) \\\n"
    "    BROADCAST(T)\n"
    "ALL(int) ALL(uint) ALL(long) ALL(ulong) ALL(float) ALL(double)\n"
    "kernel void all_int(global const int *in, global int *out)\n"
    "    { size_t i = IDX; out[i] = work_group_all(in[i]); }\n"
    "kernel void any_int(global const int *in, global int *out)\n"
    "    { size_t i = IDX; out[i] = work_group_any(in[i]); }\n"
    /* In a loop, through a function kept out of line, one after another
     * (each one's last step shares its loop with the next one's first),
     * of types of other sizes. */
    "__attribute__((noinline)) int total(int x) { return work_group_reduce_add(x); }\n"
    "kernel void mixed(global const int *in, global long *out, int rounds)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int acc = 0;\n"
    "    for (int r = 0; r < rounds; r++)\n"
    "        acc += total(in[i] + r);\n"
    "    int first = work_group_broadcast(in[i], 0);\n"
    "    int last = work_group_broadcast(in[i], get_local_size(0) - 1);\n"
    "    int before = work_group_scan_exclusive_add(in[i]);\n"
    "    int most = work_group_reduce_max(before);\n"
    "    long wide = work_group_scan_inclusive_add(in[i] * 3000000000L);\n"
    "    double all = work_group_reduce_add((double)in[i]);\n"
    "    out[6 * i] = acc; out[6 * i + 1] = first; out[6 * i + 2] = last;\n"
    "    out[6 * i + 3] = most; out[6 * i + 4] = wide; out[6 * i + 5] = all;\n"
    "}\n";

/* half's kernels read and write floats: values in [-8, 8] and groups of
 * at most 256 keep every partial sum an integer of magnitude at most 2048,
 * exact in half, so the float reference holds. */
static const char half_source[] =
    IDX_SOURCE
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define ONE(F) kernel void F##_half(global const float *in, global float *out) \\\n"
    "    { size_t i = IDX; out[i] = work_group_##F((half)in[i]); }\n"
    "ONE(reduce_add) ONE(reduce_min) ONE(reduce_max)\n"
    "ONE(scan_inclusive_add) ONE(scan_inclusive_min) ONE(scan_inclusive_max)\n"
    "ONE(scan_exclusive_add) ONE(scan_exclusive_min) ONE(scan_exclusive_max)\n"
    "kernel void broadcast_half(global const float *in, global float *out,\n"
    "        ulong x, ulong y, ulong z) { size_t i = IDX; half v = (half)in[i];\n"
    "    if (get_work_dim() == 1) out[i] = work_group_broadcast(v, x);\n"
    "    else if (get_work_dim() == 2) out[i] = work_group_broadcast(v, x, y);\n"
    "    else out[i] = work_group_broadcast(v, x, y, z); }\n";

/* An ND-range: global and local sizes, 1 to 3 dimensions. */
struct range {
    cl_uint dims;
    size_t global[3], local[3];
};

static const struct range ranges[] = {
    {1, {1000, 1, 1}, {64, 1, 1}}, /* the last group has 40 */
    {1, {7, 1, 1}, {7, 1, 1}},
    {1, {5, 1, 1}, {1, 1, 1}},
    {1, {MAX_ITEMS, 1, 1}, {MAX_ITEMS, 1, 1}},
    {2, {12, 10, 1}, {4, 5, 1}},
    {2, {13, 7, 1}, {4, 3, 1}}, /* non-uniform in both */
    {3, {6, 4, 6}, {3, 2, 3}},
    {3, {8, 8, 8}, {4, 4, 4}},
};

static size_t range_items(const struct range *r)
{
    return r->global[0] * r->global[1] * r->global[2];
}

/* Work-item i's group (its linear index among the groups) and local
 * linear id, where the last group of a dimension may be smaller. */
static void place(const struct range *r, size_t i, size_t *group,
                  size_t *local_id)
{
    size_t g = 0, l = 0, gstride = 1, lstride = 1;
    for (int d = 0; d < 3; d++) {
        size_t pos = i % r->global[d];
        i /= r->global[d];
        size_t gi = pos / r->local[d], groups = (r->global[d] + r->local[d] - 1) / r->local[d];
        size_t size = r->local[d];
        if ((gi + 1) * r->local[d] > r->global[d])
            size = r->global[d] - gi * r->local[d];
        g += gi * gstride;
        l += (pos % r->local[d]) * lstride;
        gstride *= groups;
        lstride *= size;
    }
    *group = g;
    *local_id = l;
}

/* Where each group's work-items are: order[base[g] + k] is the index of
 * the work-item of local linear id k in group g, which has size[g]. */
struct layout {
    size_t group[MAX_ITEMS], id[MAX_ITEMS];
    size_t base[MAX_ITEMS], size[MAX_ITEMS], order[MAX_ITEMS];
};

static const struct layout *layout_of(const struct range *r)
{
    static struct layout l;
    size_t items = range_items(r), groups = 0;
    memset(l.size, 0, sizeof(l.size));
    for (size_t i = 0; i < items; i++) {
        place(r, i, &l.group[i], &l.id[i]);
        l.size[l.group[i]]++;
        groups = l.group[i] + 1 > groups ? l.group[i] + 1 : groups;
    }
    for (size_t g = 0, at = 0; g < groups; at += l.size[g++])
        l.base[g] = at;
    for (size_t i = 0; i < items; i++)
        l.order[l.base[l.group[i]] + l.id[i]] = i;
    return &l;
}

enum op { OP_ADD, OP_MIN, OP_MAX };
enum kind { REDUCE, SCAN_INCLUSIVE, SCAN_EXCLUSIVE };
static const char *const op_names[] = {"add", "min", "max"};
static const char *const kind_names[] = {"reduce", "scan_inclusive", "scan_exclusive"};

/* The host's reference for one type: what work-item i gets. The values
 * are integers small enough that every float and double sum is exact, so
 * the order of the operations, which the spec leaves open for floating
 * point, cannot change it. */
#define DEFINE_REFERENCE(T, MIN, MAX)                                          \
    static T op_##T(enum op op, T a, T b)                                      \
    {                                                                          \
        return op == OP_ADD ? (T)(a + b) : op == OP_MIN ? (b < a ? b : a)      \
                                                        : (b > a ? b : a);    \
    }                                                                          \
    static T expected_##T(const struct layout *l, const T *in, size_t i,       \
                          enum kind kind, enum op op)                          \
    {                                                                          \
        const size_t *members = &l->order[l->base[l->group[i]]];              \
        size_t id = l->id[i], n = l->size[l->group[i]];                        \
        size_t last = kind == REDUCE ? n : kind == SCAN_INCLUSIVE ? id + 1 : id; \
        /* "If op = add, the identity I is 0. If op = min, the identity I    \
         * is INT_MAX, ... Similarly if op = max, ... INT_MIN, 0, ..." */      \
        T acc = op == OP_ADD ? (T)0 : op == OP_MIN ? (MAX) : (MIN);            \
        for (size_t k = 0; k < last; k++)                                      \
            acc = op_##T(op, acc, in[members[k]]);                             \
        return acc;                                                            \
    }

DEFINE_REFERENCE(cl_int, INT32_MIN, INT32_MAX)
DEFINE_REFERENCE(cl_uint, 0, UINT32_MAX)
DEFINE_REFERENCE(cl_long, INT64_MIN, INT64_MAX)
DEFINE_REFERENCE(cl_ulong, 0, UINT64_MAX)
DEFINE_REFERENCE(cl_float, -INFINITY, INFINITY)
DEFINE_REFERENCE(cl_double, -INFINITY, INFINITY)

static cl_mem buffer_of(size_t size, const void *data)
{
    return exec_buffer(size, data);
}

/* Runs kernel @p name over @p r on @p in (args 0, 1: in, out) with the
 * extra arguments set by the caller; out's bytes into @p out. */
static void run(cl_kernel k, const struct range *r, const void *in,
                size_t elem, void *out)
{
    size_t bytes = range_items(r) * elem;
    cl_mem a = buffer_of(bytes, in), b = buffer_of(bytes, NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, r->dims, NULL, r->global,
                                    r->local, 0, NULL, NULL),
             CL_SUCCESS);
    exec_read(b, bytes, out);
    CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
}

/* Input values: integers in [-1000, 1000] (unsigned: [0, 2000]), the
 * 64-bit ones scaled past 32 bits. */
static double value(size_t i, int is_signed, int wide)
{
    long long v = (long long)((i * 7919u + 13u) % 2001u);
    if (is_signed)
        v -= 1000;
    return (double)(wide ? v * 1000003LL * 4099LL : v);
}

/* check_NAME: kernels <kind>_<op>_NAME and broadcast_NAME on T buffers
 * holding VALUE(i), over the ranges whose groups have at most MAX_GROUP
 * work-items. */
#define DEFINE_CHECK_TYPE(T, NAME, VALUE, MAX_GROUP)                           \
    static void check_##NAME(cl_program program)                               \
    {                                                                          \
        static T in[MAX_ITEMS], out[MAX_ITEMS];                                \
        for (size_t i = 0; i < MAX_ITEMS; i++)                                 \
            in[i] = (T)(VALUE);                                                \
        for (int kind = REDUCE; kind <= SCAN_EXCLUSIVE; kind++)                \
            for (int op = OP_ADD; op <= OP_MAX; op++) {                        \
                char name[64];                                                 \
                snprintf(name, sizeof(name), "%s_%s_%s", kind_names[kind],     \
                         op_names[op], #NAME);                                 \
                cl_kernel k = exec_kernel(program, name);                      \
                for (size_t ri = 0; ri < sizeof(ranges) / sizeof(ranges[0]); ri++) { \
                    const struct range *r = &ranges[ri];                       \
                    if (r->local[0] * r->local[1] * r->local[2] > (MAX_GROUP)) \
                        continue;                                              \
                    run(k, r, in, sizeof(T), out);                             \
                    const struct layout *l = layout_of(r);                     \
                    int bad = 0;                                               \
                    for (size_t i = 0; i < range_items(r) && bad < 3; i++) {   \
                        T want = expected_##T(l, in, i, kind, op);    \
                        if (out[i] != want) {                                  \
                            fprintf(stderr, "%s, range %zu, item %zu: %.17g, expected %.17g\n", \
                                    name, ri, i, (double)out[i], (double)want); \
                            bad++;                                             \
                        }                                                      \
                    }                                                          \
                    CHECK_EQ(bad, 0);                                          \
                }                                                              \
                CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);                      \
            }                                                                  \
        check_broadcast(program, "broadcast_" #NAME, in, out, sizeof(T));      \
    }

/* work_group_broadcast from the last work-item of each dimension's first
 * group's extent (uniform ranges only: the local ids name an item every
 * group has), compared as bytes. */
static void check_broadcast(cl_program program, const char *name,
                            const void *in, void *out, size_t elem)
{
    cl_kernel k = exec_kernel(program, name);
    for (size_t ri = 0; ri < sizeof(ranges) / sizeof(ranges[0]); ri++) {
        const struct range *r = &ranges[ri];
        int uniform = 1;
        for (int d = 0; d < 3; d++)
            uniform &= r->global[d] % r->local[d] == 0;
        if (!uniform)
            continue;
        cl_ulong at[3] = {r->local[0] - 1, r->local[1] / 2, r->local[2] - 1};
        for (int a = 0; a < 3; a++)
            CHECK_EQ(clSetKernelArg(k, 2 + a, sizeof(cl_ulong), &at[a]), CL_SUCCESS);
        run(k, r, in, elem, out);
        size_t from = at[0] + r->local[0] * (r->dims > 1 ? at[1] + r->local[1] * (r->dims > 2 ? at[2] : 0) : 0);
        const struct layout *l = layout_of(r);
        int bad = 0;
        for (size_t i = 0; i < range_items(r); i++) {
            size_t giver = l->order[l->base[l->group[i]] + from];
            bad += memcmp((const char *)out + i * elem,
                          (const char *)in + giver * elem, elem) != 0;
        }
        if (bad)
            fprintf(stderr, "%s, range %zu: %d wrong\n", name, ri, bad);
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

DEFINE_CHECK_TYPE(cl_int, int, value(i, 1, 0), MAX_ITEMS)
DEFINE_CHECK_TYPE(cl_uint, uint, value(i, 0, 0), MAX_ITEMS)
DEFINE_CHECK_TYPE(cl_long, long, value(i, 1, 1), MAX_ITEMS)
DEFINE_CHECK_TYPE(cl_ulong, ulong, value(i, 0, 1), MAX_ITEMS)
DEFINE_CHECK_TYPE(cl_float, float, value(i, 1, 0), MAX_ITEMS)
DEFINE_CHECK_TYPE(cl_double, double, value(i, 1, 0), MAX_ITEMS)
DEFINE_CHECK_TYPE(cl_float, half, (int)((i * 7919u + 13u) % 17u) - 8, 256)

/* The half collectives, where the device lists cl_khr_fp16 ("half ...
 * if the cl_khr_fp16 extension is supported", s6.15.14). */
static void check_half_program(void)
{
    if (!test_device_has_extension(device, "cl_khr_fp16"))
        return;
    cl_program program = exec_build(half_source, "-cl-std=CL3.0");
    if (program) {
        check_half(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
}

/* work_group_all and _any: "returns a non-zero value if predicate
 * evaluates to non-zero for all work-items" / "for any": every group all
 * zero, all set, and one item different. */
static void check_all_any(cl_program program)
{
    static cl_int in[1000], out[1000];
    const struct range *r = &ranges[0];
    cl_kernel all = exec_kernel(program, "all_int");
    cl_kernel any = exec_kernel(program, "any_int");
    for (int pattern = 0; pattern < 4; pattern++) {
        for (size_t i = 0; i < 1000; i++)
            in[i] = pattern == 0 ? 0 : pattern == 1 ? -7 : pattern == 2 ? (i % 64 != 5) * 3 : (i % 64 == 5);
        run(all, r, in, sizeof(cl_int), out);
        for (size_t i = 0; i < 1000; i++)
            CHECK_EQ(out[i] != 0, pattern == 1);
        run(any, r, in, sizeof(cl_int), out);
        for (size_t i = 0; i < 1000; i++)
            CHECK_EQ(out[i] != 0, pattern != 0);
    }
    CHECK_EQ(clReleaseKernel(all), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(any), CL_SUCCESS);
}

/* The mixed kernel over 1000 items in groups of 64 (the last of 40). */
static void check_mixed(cl_program program)
{
    enum { N = 1000, L = 64, ROUNDS = 3, FIELDS = 6 };
    static cl_int in[N];
    static cl_long out[FIELDS * N];
    for (size_t i = 0; i < N; i++)
        in[i] = (cl_int)value(i, 1, 0);
    cl_kernel k = exec_kernel(program, "mixed");
    cl_int rounds = ROUNDS;
    size_t global = N, local = L;
    cl_mem a = buffer_of(sizeof(in), in), b = buffer_of(sizeof(out), NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, sizeof(rounds), &rounds), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b, sizeof(out), out);
    for (size_t g = 0; g < N; g += L) {
        size_t n = g + L <= N ? L : N - g;
        cl_int sum = 0, before = 0, most = INT32_MIN;
        for (size_t j = 0; j < n; j++) {
            most = before > most ? before : most;
            before += in[g + j];
            sum += in[g + j];
        }
        /* sum over r of (sum + r * n) */
        cl_long acc = ROUNDS * sum + (cl_int)n * ROUNDS * (ROUNDS - 1) / 2;
        cl_long wide = 0;
        for (size_t j = 0; j < n; j++) {
            const cl_long *got = &out[FIELDS * (g + j)];
            wide += in[g + j] * 3000000000LL;
            cl_long want[FIELDS] = {acc, in[g], in[g + n - 1], most, wide, sum};
            for (int f = 0; f < FIELDS; f++)
                CHECK_EQ(got[f], want[f]);
        }
    }
    CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* A float sum whose order matters: within n * FLT_EPSILON of the exact
 * sum of magnitudes, the bound of any order of n - 1 additions. */
static void check_float_rounding(cl_program program)
{
    enum { N = MAX_ITEMS };
    static float in[N], out[N];
    double exact = 0, magnitude = 0;
    for (size_t i = 0; i < N; i++) {
        in[i] = (float)((i * 2654435761u) % 1000003u) / 1000003.0f - 0.25f;
        exact += in[i];
        magnitude += fabs(in[i]);
    }
    cl_kernel k = exec_kernel(program, "reduce_add_float");
    run(k, &ranges[3], in, sizeof(float), out);
    for (size_t i = 0; i < N; i += 97)
        CHECK(fabs(out[i] - exact) <= N * FLT_EPSILON * magnitude);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* The device says so, and an OpenCL C 1.2 program may still define the
 * names itself: the feature's declarations are OpenCL C 3.0's. */
static void check_device_and_1_2(void)
{
    cl_bool collective = CL_FALSE;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                             sizeof(collective), &collective, NULL),
             CL_SUCCESS);
    CHECK_EQ(collective, CL_TRUE);
    cl_program own = exec_build(
        "int work_group_reduce_add(int x) { return x + 1; }\n"
        "kernel void k(global int *o) { o[0] = work_group_reduce_add(41); }\n",
        "");
    if (own) {
        CHECK_EQ(exec_one_int(own, "k"), 42);
        CHECK_EQ(clReleaseProgram(own), CL_SUCCESS);
    }
}

int main(void)
{
    exec_setup();
    check_device_and_1_2();
    cl_program program = exec_build(source, "-cl-std=CL3.0");
    if (program) {
        check_int(program);
        check_uint(program);
        check_long(program);
        check_ulong(program);
        check_float(program);
        check_double(program);
        check_all_any(program);
        check_mixed(program);
        check_float_rounding(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    check_half_program();
    exec_teardown();
    return TEST_RESULT();
}
