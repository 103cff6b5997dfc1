/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/subgroup: sub-groups (compiler/lib/src/subgroup.cl with the
 * work-group pass) in kernels built as OpenCL C 3.0 and run by the
 * runtime, against a host computation written from the OpenCL C "Sub-Group
 * Functions" and the API's sub-group rules: a sub-group is a run of S
 * consecutive local linear ids, all of size S but the group's last ("all
 * sub-groups within a work-group will be the same size, apart from the
 * sub-group with the maximum index"). S is the kernel's
 * CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE for a large group, which must
 * be the lanes of the CPU kernels are built for (REFCL_CPU, else the
 * device's native float vector width). Checked: the work-item functions;
 * every reduction and scan of add, min and max on int, uint, long, ulong,
 * float, double (and half where the device lists cl_khr_fp16), broadcast,
 * and with cl_khr_subgroup_extended_types on char, uchar, short, ushort
 * and broadcast of vectors of 2, 3, 4, 8 and 16 elements,
 * sub_group_all and _any, over uniform and non-uniform groups in 1, 2 and
 * 3 dimensions, groups not a multiple of S; collectives that only some
 * sub-groups reach, in loops whose trip count differs by sub-group, in a
 * function kept out of line, between work-group barriers (also built with
 * -cl-opt-disable); the functions of non-uniform control flow
 * (cl_khr_subgroup_non_uniform_vote, _ballot, _non_uniform_arithmetic,
 * _shuffle, _clustered_reduce) in branches and in a loop whose trip count
 * is the work-item's, against their result over the active work-items;
 * and clGetKernelSubGroupInfo's answers and errors.
 */
#include <math.h>
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define MAX_ITEMS 4096

#define IDX_SOURCE                                                            \
    "#define IDX (get_global_id(0) + get_global_size(0) * (get_global_id(1) + " \
    "get_global_size(1) * get_global_id(2)))\n"

static const char source[] =
    IDX_SOURCE
    "#define ONE(T, F) kernel void F##_##T(global const T *in, global T *out) \\\n"
    "    { size_t i = IDX; out[i] = sub_group_##F(in[i]); }\n"
    "#define BROADCAST(T) kernel void broadcast_##T(global const T *in, global T *out, \\\n"
    "        uint at) { size_t i = IDX; \\\n"
    "    out[i] = sub_group_broadcast(in[i], min(at, get_sub_group_size() - 1)); }\n"
    "#define ALL(T) ONE(T, reduce_add) ONE(T, reduce_min) ONE(T, reduce_max) \\\n"
    "    ONE(T, scan_inclusive_add) ONE(T, scan_inclusive_min) ONE(T, scan_inclusive_max) \\\n"
    "    ONE(T, scan_exclusive_add) ONE(T, scan_exclusive_min) ONE(T, scan_exclusive_max) \\\n"
    "    BROADCAST(T)\n"
    "ALL(int) ALL(uint) ALL(long) ALL(ulong) ALL(float) ALL(double)\n"
    /* cl_khr_subgroup_extended_types: the small integers, and vectors
     * broadcast (read and written as their element type's arrays, each
     * component stored alone: a long16's 128 bytes in a group of fewer
     * than 4 work-items had run past its sub-group's scratch into the
     * slots of the components stored after the barrier). */
    "ALL(char) ALL(uchar) ALL(short) ALL(ushort)\n"
    "#define VECTOR(T, N) kernel void broadcast_##T##N(global const T *in, global T *out, \\\n"
    "        uint at) { size_t i = IDX; \\\n"
    "    T##N v = vload##N(i, in); \\\n"
    "    T##N r = sub_group_broadcast(v, min(at, get_sub_group_size() - 1)); \\\n"
    "    for (int k = 0; k < N; k++) out[i * N + k] = r[k]; }\n"
    "VECTOR(char, 3) VECTOR(uchar, 16) VECTOR(short, 2) VECTOR(ushort, 8) VECTOR(int, 4)\n"
    "VECTOR(uint, 3) VECTOR(long, 16) VECTOR(ulong, 2) VECTOR(float, 8) VECTOR(double, 16)\n"
    "kernel void all_int(global const int *in, global int *out)\n"
    "    { size_t i = IDX; out[i] = sub_group_all(in[i]); }\n"
    "kernel void any_int(global const int *in, global int *out)\n"
    "    { size_t i = IDX; out[i] = sub_group_any(in[i]); }\n"
    "kernel void info(global const uint *in, global uint *out)\n"
    "{\n"
    "    size_t i = IDX;\n"
    "    out[6 * i] = get_sub_group_size();\n"
    "    out[6 * i + 1] = get_max_sub_group_size();\n"
    "    out[6 * i + 2] = get_num_sub_groups();\n"
    "    out[6 * i + 3] = get_enqueued_num_sub_groups();\n"
    "    out[6 * i + 4] = get_sub_group_id();\n"
    "    out[6 * i + 5] = get_sub_group_local_id();\n"
    "}\n"
    /* Sub-group collectives that only some sub-groups reach, as many
     * times as their id says, through a function kept out of line,
     * between work-group barriers and a work-group collective. */
    "__attribute__((noinline)) int total(int x) { return sub_group_reduce_add(x); }\n"
    "kernel void mixed(global const int *in, global int *out, local int *tmp, int rounds)\n"
    "{\n"
    "    size_t i = IDX, l = get_local_linear_id();\n"
    "    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
    "    uint sg = get_sub_group_id();\n"
    "    int acc = 0;\n"
    "    for (uint r = 0; r < sg % 3; r++)\n"
    "        acc += total(in[i] + (int)r);\n"
    "    int odd = -1;\n"
    "    if (sg % 2)\n"
    "        odd = sub_group_scan_inclusive_max(in[i]);\n"
    "    tmp[l] = acc;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int next = tmp[(l + 1) % n];\n"
    "    int group = work_group_reduce_add(in[i]);\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);\n"
    "    int first = sub_group_broadcast(in[i] + next, 0);\n"
    /* A loop the same in every work-item of the group, its counter
     * uniform. */
    "    int most = 0;\n"
    "    for (int r = 0; r < rounds; r++)\n"
    "        most += sub_group_reduce_max(in[i] + r);\n"
    "    out[6 * i] = acc; out[6 * i + 1] = odd; out[6 * i + 2] = next;\n"
    "    out[6 * i + 3] = group; out[6 * i + 4] = first; out[6 * i + 5] = most;\n"
    "}\n";

/* The functions of non-uniform control flow (cl_khr_subgroup_*): work-items
 * of sub-group local id 1 mod 3 take one branch, the others the other; in
 * a loop, those of id t mod 4 run t times (the active ones of round r: id
 * mod 4 above r). */
static const char divergent_source[] =
    IDX_SOURCE
    "kernel void divergent(global const int *in, global int *out)\n"
    "{\n"
    "    size_t i = IDX;\n"
    "    uint lid = get_sub_group_local_id();\n"
    "    int x = in[i];\n"
    "    int sum = -1, scan = -1, elect = -1, ballot = -1, product = -1;\n"
    "    int shuffled = -1, all = -1, loop = 0;\n"
    "    if (lid % 3 != 1) {\n"
    "        sum = sub_group_non_uniform_reduce_add(x);\n"
    "        scan = sub_group_non_uniform_scan_exclusive_max(x);\n"
    "        elect = sub_group_elect();\n"
    "        ballot = (int)sub_group_ballot(x > 0).x;\n"
    "        product = sub_group_clustered_reduce_mul(x % 3 + 2, 4);\n"
    "    } else {\n"
    "        shuffled = sub_group_shuffle(x, 1);\n"
    "        all = sub_group_non_uniform_all(x > -500);\n"
    "    }\n"
    "    for (uint r = 0; r < lid % 4; r++)\n"
    "        loop += sub_group_non_uniform_reduce_add(x + (int)r);\n"
    "    global int *o = out + 8 * i;\n"
    "    o[0] = sum; o[1] = scan; o[2] = elect; o[3] = ballot; o[4] = product;\n"
    "    o[5] = shuffled; o[6] = all; o[7] = loop;\n"
    "}\n";

/* half's kernels read and write floats: values in [-8, 8] in sub-groups
 * of at most 16 keep every partial sum exact in half. */
static const char half_source[] =
    IDX_SOURCE
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define ONE(F) kernel void F##_half(global const float *in, global float *out) \\\n"
    "    { size_t i = IDX; out[i] = sub_group_##F((half)in[i]); }\n"
    "ONE(reduce_add) ONE(reduce_min) ONE(reduce_max)\n"
    "ONE(scan_inclusive_add) ONE(scan_inclusive_min) ONE(scan_inclusive_max)\n"
    "ONE(scan_exclusive_add) ONE(scan_exclusive_min) ONE(scan_exclusive_max)\n"
    "kernel void broadcast_half(global const float *in, global float *out, uint at)\n"
    "    { size_t i = IDX; out[i] = sub_group_broadcast((half)in[i],\n"
    "          min(at, get_sub_group_size() - 1)); }\n"
    "kernel void broadcast_half4(global const float *in, global float *out, uint at)\n"
    "    { size_t i = IDX; half4 v = convert_half4(vload4(i, in));\n"
    "      vstore4(convert_float4(sub_group_broadcast(v, min(at, get_sub_group_size() - 1))),\n"
    "              i, out); }\n";

struct range {
    cl_uint dims;
    size_t global[3], local[3];
};

static const struct range ranges[] = {
    {1, {1000, 1, 1}, {64, 1, 1}}, /* the last group has 40 */
    {1, {300, 1, 1}, {100, 1, 1}}, /* not a multiple of 8 or 16 */
    {1, {7, 1, 1}, {7, 1, 1}},     /* fewer than S */
    {1, {5, 1, 1}, {1, 1, 1}},
    {1, {MAX_ITEMS, 1, 1}, {MAX_ITEMS, 1, 1}},
    {2, {12, 10, 1}, {4, 5, 1}},   /* sub-groups across rows */
    {2, {13, 7, 1}, {4, 3, 1}},    /* non-uniform in both */
    {3, {6, 4, 6}, {3, 2, 3}},
    {3, {8, 8, 8}, {4, 4, 4}},
};
#define RANGES (sizeof(ranges) / sizeof(ranges[0]))

/* The kernels' sub-group size. */
static size_t S;

static size_t range_items(const struct range *r)
{
    return r->global[0] * r->global[1] * r->global[2];
}

/* Work-item i (the kernels' IDX): its group's linear index, its local
 * linear id, its group's work-items and the enqueued group's. */
struct place {
    size_t group, id, n, enqueued;
};

static struct place place_of(const struct range *r, size_t i)
{
    struct place p = {0, 0, 1, 1};
    size_t gstride = 1, lstride = 1;
    for (int d = 0; d < 3; d++) {
        size_t pos = i % r->global[d];
        i /= r->global[d];
        size_t gi = pos / r->local[d];
        size_t groups = (r->global[d] + r->local[d] - 1) / r->local[d];
        size_t size = r->local[d];
        if ((gi + 1) * r->local[d] > r->global[d])
            size = r->global[d] - gi * r->local[d];
        p.group += gi * gstride;
        p.id += (pos % r->local[d]) * lstride;
        gstride *= groups;
        lstride *= size;
        p.n *= size;
        p.enqueued *= r->local[d];
    }
    return p;
}

/* The work-items of each sub-group: members[k] of work-item i's sub-group
 * are the IDX of its sub-group local ids 0 .. count - 1. */
struct layout {
    struct place at[MAX_ITEMS];
    /* by (group, local linear id) */
    size_t base[MAX_ITEMS], order[MAX_ITEMS];
};

static const struct layout *layout_of(const struct range *r)
{
    static struct layout l;
    static size_t size[MAX_ITEMS];
    size_t items = range_items(r), groups = 0;
    memset(size, 0, sizeof(size));
    for (size_t i = 0; i < items; i++) {
        l.at[i] = place_of(r, i);
        size[l.at[i].group]++;
        groups = l.at[i].group + 1 > groups ? l.at[i].group + 1 : groups;
    }
    for (size_t g = 0, at = 0; g < groups; at += size[g++])
        l.base[g] = at;
    for (size_t i = 0; i < items; i++)
        l.order[l.base[l.at[i].group] + l.at[i].id] = i;
    return &l;
}

/* Work-item i's sub-group: its first member's place in l->order, its
 * size and i's sub-group local id. */
static void sub_group_of(const struct layout *l, size_t i, const size_t **members,
                         size_t *count, size_t *local_id)
{
    const struct place *p = &l->at[i];
    size_t first = p->id / S * S;
    *members = &l->order[l->base[p->group] + first];
    *count = p->n - first < S ? p->n - first : S;
    *local_id = p->id - first;
}

enum op { OP_ADD, OP_MIN, OP_MAX };
enum kind { REDUCE, SCAN_INCLUSIVE, SCAN_EXCLUSIVE };
static const char *const op_names[] = {"add", "min", "max"};
static const char *const kind_names[] = {"reduce", "scan_inclusive", "scan_exclusive"};

/* "The scan order is defined by increasing sub-group local ID within the
 * sub-group"; "If op = add, the identity I is 0. If op = min, the
 * identity I is INT_MAX, UINT_MAX, LONG_MAX, ULONG_MAX ... and is +INF
 * for floating-point types. Similarly if op = max, the identity I is
 * INT_MIN, 0, LONG_MIN, 0 and -INF." The values are small integers, so
 * every floating-point order gives the same sum. */
#define DEFINE_REFERENCE(T, MIN, MAX)                                          \
    static T op_##T(enum op op, T a, T b)                                      \
    {                                                                          \
        return op == OP_ADD ? (T)(a + b) : op == OP_MIN ? (b < a ? b : a)      \
                                                        : (b > a ? b : a);    \
    }                                                                          \
    static T expected_##T(const struct layout *l, const T *in, size_t i,       \
                          enum kind kind, enum op op)                          \
    {                                                                          \
        const size_t *members;                                                 \
        size_t n, id;                                                          \
        sub_group_of(l, i, &members, &n, &id);                                 \
        size_t last = kind == REDUCE ? n : kind == SCAN_INCLUSIVE ? id + 1 : id; \
        T acc = op == OP_ADD ? (T)0 : op == OP_MIN ? (MAX) : (MIN);            \
        for (size_t k = 0; k < last; k++)                                      \
            acc = op_##T(op, acc, in[members[k]]);                             \
        return acc;                                                            \
    }

DEFINE_REFERENCE(cl_char, INT8_MIN, INT8_MAX)
DEFINE_REFERENCE(cl_uchar, 0, UINT8_MAX)
DEFINE_REFERENCE(cl_short, INT16_MIN, INT16_MAX)
DEFINE_REFERENCE(cl_ushort, 0, UINT16_MAX)
DEFINE_REFERENCE(cl_int, INT32_MIN, INT32_MAX)
DEFINE_REFERENCE(cl_uint, 0, UINT32_MAX)
DEFINE_REFERENCE(cl_long, INT64_MIN, INT64_MAX)
DEFINE_REFERENCE(cl_ulong, 0, UINT64_MAX)
DEFINE_REFERENCE(cl_float, -INFINITY, INFINITY)
DEFINE_REFERENCE(cl_double, -INFINITY, INFINITY)

/* Runs kernel k over r on in (args 0, 1: in, out; the caller sets the
 * rest); out_elem bytes of out per work-item. */
static void run(cl_kernel k, const struct range *r, const void *in, size_t elem,
                void *out, size_t out_elem)
{
    size_t items = range_items(r);
    cl_mem a = exec_buffer(items * elem, in), b = exec_buffer(items * out_elem, NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, r->dims, NULL, r->global, r->local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b, items * out_elem, out);
    CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
}

/* Integers in [-1000, 1000] ([0, 2000] unsigned), the 64-bit ones scaled
 * past 32 bits. */
static double value(size_t i, int is_signed, int wide)
{
    long long v = (long long)((i * 7919u + 13u) % 2001u);
    if (is_signed)
        v -= 1000;
    return (double)(wide ? v * 1000003LL * 4099LL : v);
}

/* sub_group_broadcast from sub-group local id `at` (the last one where the
 * sub-group is shorter), compared as bytes. */
static void check_broadcast(cl_program program, const char *name, const void *in,
                            void *out, size_t elem)
{
    cl_kernel k = exec_kernel(program, name);
    for (size_t ri = 0; ri < RANGES; ri++) {
        const struct range *r = &ranges[ri];
        cl_uint at = (cl_uint)(ri * 5 % 17);
        CHECK_EQ(clSetKernelArg(k, 2, sizeof(at), &at), CL_SUCCESS);
        run(k, r, in, elem, out, elem);
        const struct layout *l = layout_of(r);
        int bad = 0;
        for (size_t i = 0; i < range_items(r); i++) {
            const size_t *members;
            size_t n, id;
            sub_group_of(l, i, &members, &n, &id);
            size_t giver = members[at < n ? at : n - 1];
            bad += memcmp((const char *)out + i * elem, (const char *)in + giver * elem,
                          elem) != 0;
        }
        if (bad)
            fprintf(stderr, "%s, range %zu: %d wrong\n", name, ri, bad);
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* check_NAME: kernels <kind>_<op>_NAME and broadcast_NAME on T buffers
 * of VALUE(i), the reference of type R. */
#define DEFINE_CHECK_TYPE(T, R, NAME, VALUE)                                   \
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
                for (size_t ri = 0; ri < RANGES; ri++) {                       \
                    const struct range *r = &ranges[ri];                       \
                    run(k, r, in, sizeof(T), out, sizeof(T));                  \
                    const struct layout *l = layout_of(r);                     \
                    int bad = 0;                                               \
                    for (size_t i = 0; i < range_items(r) && bad < 3; i++) {   \
                        T want = (T)expected_##R(l, (const R *)in, i, kind, op); \
                        if (out[i] != want) {                                  \
                            fprintf(stderr, "%s, range %zu, item %zu: %.17g, " \
                                    "expected %.17g\n", name, ri, i,           \
                                    (double)out[i], (double)want);             \
                            bad++;                                             \
                        }                                                      \
                    }                                                          \
                    CHECK_EQ(bad, 0);                                          \
                }                                                              \
                CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);                      \
            }                                                                  \
        check_broadcast(program, "broadcast_" #NAME, in, out, sizeof(T));      \
    }

/* The small integers wrap in their sums, as the reference's do. */
DEFINE_CHECK_TYPE(cl_char, cl_char, char, value(i, 1, 0) / 8)
DEFINE_CHECK_TYPE(cl_uchar, cl_uchar, uchar, value(i, 0, 0) / 8)
DEFINE_CHECK_TYPE(cl_short, cl_short, short, value(i, 1, 0) * 30)
DEFINE_CHECK_TYPE(cl_ushort, cl_ushort, ushort, value(i, 0, 0) * 30)
DEFINE_CHECK_TYPE(cl_int, cl_int, int, value(i, 1, 0))
DEFINE_CHECK_TYPE(cl_uint, cl_uint, uint, value(i, 0, 0))
DEFINE_CHECK_TYPE(cl_long, cl_long, long, value(i, 1, 1))
DEFINE_CHECK_TYPE(cl_ulong, cl_ulong, ulong, value(i, 0, 1))
DEFINE_CHECK_TYPE(cl_float, cl_float, float, value(i, 1, 0))
DEFINE_CHECK_TYPE(cl_float, cl_float, half, (int)((i * 7919u + 13u) % 17u) - 8)

DEFINE_CHECK_TYPE(cl_double, cl_double, double, value(i, 1, 0))

/* broadcast_<T><N> (cl_khr_subgroup_extended_types): N elements of
 * elem bytes per work-item, the chosen work-item's N. */
static void check_vector_broadcast(cl_program program, const char *name, size_t n,
                                   size_t elem)
{
    static unsigned char in[16 * 8 * MAX_ITEMS], out[16 * 8 * MAX_ITEMS];
    for (size_t b = 0; b < sizeof(in); b++)
        in[b] = (unsigned char)(b * 131 + 7);
    /* Floating-point elements: no NaN, whose bits a copy may change. */
    if (elem >= 4 && strstr(name, "float"))
        for (size_t k = 0; k < sizeof(in) / 4; k++)
            ((float *)(void *)in)[k] = (float)k;
    if (strstr(name, "double"))
        for (size_t k = 0; k < sizeof(in) / 8; k++)
            ((double *)(void *)in)[k] = (double)k;
    if (strstr(name, "half"))
        for (size_t k = 0; k < sizeof(in) / 4; k++)
            ((float *)(void *)in)[k] = (float)(k % 1000);
    cl_kernel k = exec_kernel(program, name);
    size_t bytes = n * elem;
    for (size_t ri = 0; ri < RANGES; ri++) {
        const struct range *r = &ranges[ri];
        cl_uint at = (cl_uint)(ri * 5 % 17);
        CHECK_EQ(clSetKernelArg(k, 2, sizeof(at), &at), CL_SUCCESS);
        run(k, r, in, bytes, out, bytes);
        const struct layout *l = layout_of(r);
        int bad = 0;
        for (size_t i = 0; i < range_items(r); i++) {
            const size_t *members;
            size_t count, id;
            sub_group_of(l, i, &members, &count, &id);
            size_t giver = members[at < count ? at : count - 1];
            bad += memcmp(out + i * bytes, in + giver * bytes, bytes) != 0;
        }
        if (bad)
            fprintf(stderr, "%s, range %zu: %d wrong\n", name, ri, bad);
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static void check_vector_broadcasts(cl_program program)
{
    static const struct {
        const char *name;
        size_t n, elem;
    } vectors[] = {
        {"broadcast_char3", 3, 1},   {"broadcast_uchar16", 16, 1},
        {"broadcast_short2", 2, 2},  {"broadcast_ushort8", 8, 2},
        {"broadcast_int4", 4, 4},    {"broadcast_uint3", 3, 4},
        {"broadcast_long16", 16, 8}, {"broadcast_ulong2", 2, 8},
        {"broadcast_float8", 8, 4},  {"broadcast_double16", 16, 8},
    };
    for (size_t v = 0; v < sizeof(vectors) / sizeof(vectors[0]); v++)
        check_vector_broadcast(program, vectors[v].name, vectors[v].n, vectors[v].elem);
}

/* The work-item functions against the partition. */
static void check_info(cl_program program)
{
    static cl_uint in[MAX_ITEMS], out[6 * MAX_ITEMS];
    cl_kernel k = exec_kernel(program, "info");
    for (size_t ri = 0; ri < RANGES; ri++) {
        const struct range *r = &ranges[ri];
        run(k, r, in, sizeof(cl_uint), out, 6 * sizeof(cl_uint));
        const struct layout *l = layout_of(r);
        for (size_t i = 0; i < range_items(r); i++) {
            const struct place *p = &l->at[i];
            const size_t *members;
            size_t n, id;
            sub_group_of(l, i, &members, &n, &id);
            size_t want[6] = {n, p->enqueued < S ? p->enqueued : S, (p->n + S - 1) / S,
                              (p->enqueued + S - 1) / S, p->id / S, id};
            for (int f = 0; f < 6; f++)
                if (out[6 * i + f] != want[f]) {
                    fprintf(stderr, "info, range %zu, item %zu, field %d: %u, expected %zu\n",
                            ri, i, f, out[6 * i + f], want[f]);
                    CHECK_EQ(out[6 * i + f], want[f]);
                    ri = RANGES - 1;
                    break;
                }
        }
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* sub_group_all and _any: "returns a non-zero value if predicate
 * evaluates to non-zero for all work-items in the sub-group" / "for any". */
static void check_all_any(cl_program program)
{
    static cl_int in[1000], out[1000];
    const struct range *r = &ranges[0];
    cl_kernel all = exec_kernel(program, "all_int");
    cl_kernel any = exec_kernel(program, "any_int");
    const struct layout *l = layout_of(r);
    for (int pattern = 0; pattern < 4; pattern++) {
        for (size_t i = 0; i < 1000; i++)
            in[i] = pattern == 0 ? 0 : pattern == 1 ? -7 : pattern == 2 ? (i % 5 != 2) * 3 : (i % 5 == 2);
        run(all, r, in, sizeof(cl_int), out, sizeof(cl_int));
        for (size_t i = 0; i < 1000; i++) {
            const size_t *members;
            size_t n, id, set = 0;
            sub_group_of(l, i, &members, &n, &id);
            for (size_t k = 0; k < n; k++)
                set += in[members[k]] != 0;
            CHECK_EQ(out[i] != 0, set == n);
        }
        run(any, r, in, sizeof(cl_int), out, sizeof(cl_int));
        for (size_t i = 0; i < 1000; i++) {
            const size_t *members;
            size_t n, id, set = 0;
            sub_group_of(l, i, &members, &n, &id);
            for (size_t k = 0; k < n; k++)
                set += in[members[k]] != 0;
            CHECK_EQ(out[i] != 0, set != 0);
        }
    }
    CHECK_EQ(clReleaseKernel(all), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(any), CL_SUCCESS);
}

/* The divergent kernel over every range, against the functions' results
 * over the active work-items ("the work items ... that are active"). */
static void check_divergent(cl_program program)
{
    enum { FIELDS = 8 };
    static cl_int in[MAX_ITEMS], out[FIELDS * MAX_ITEMS];
    for (size_t i = 0; i < MAX_ITEMS; i++)
        in[i] = (cl_int)value(i, 1, 0);
    cl_kernel k = exec_kernel(program, "divergent");
    for (size_t ri = 0; ri < RANGES; ri++) {
        const struct range *r = &ranges[ri];
        run(k, r, in, sizeof(cl_int), out, FIELDS * sizeof(cl_int));
        const struct layout *l = layout_of(r);
        int bad = 0;
        for (size_t i = 0; i < range_items(r) && bad < 3; i++) {
            const size_t *members;
            size_t n, id;
            sub_group_of(l, i, &members, &n, &id);
            cl_int want[FIELDS] = {-1, -1, -1, -1, -1, -1, -1, 0};
            if (id % 3 != 1) {
                cl_int sum = 0, scan = INT32_MIN, product = 1;
                cl_uint ballot = 0;
                size_t first = n;
                for (size_t m = 0; m < n; m++) {
                    if (m % 3 == 1)
                        continue;
                    cl_int v = in[members[m]];
                    sum += v;
                    if (m < id)
                        scan = v > scan ? v : scan;
                    first = m < first ? m : first;
                    ballot |= (cl_uint)(v > 0) << m;
                    if (m / 4 == id / 4)
                        product *= v % 3 + 2;
                }
                want[0] = sum;
                want[1] = scan;
                want[2] = first == id;
                want[3] = (cl_int)ballot;
                want[4] = product;
            } else {
                cl_int all = 1;
                for (size_t m = 1; m < n; m += 3)
                    all &= in[members[m]] > -500;
                want[5] = in[members[1]];
                want[6] = all;
            }
            for (size_t round = 0; round < id % 4; round++)
                for (size_t m = 0; m < n; m++)
                    if (m % 4 > round)
                        want[7] += in[members[m]] + (cl_int)round;
            for (int f = 0; f < FIELDS; f++)
                if (out[FIELDS * i + f] != want[f]) {
                    fprintf(stderr, "divergent, range %zu, item %zu, field %d: %d, expected %d\n",
                            ri, i, f, out[FIELDS * i + f], want[f]);
                    bad++;
                }
        }
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* The mixed kernel over every range. */
static void check_mixed(cl_program program)
{
    enum { FIELDS = 6, ROUNDS = 3 };
    static cl_int in[MAX_ITEMS], out[FIELDS * MAX_ITEMS], acc[MAX_ITEMS];
    for (size_t i = 0; i < MAX_ITEMS; i++)
        in[i] = (cl_int)value(i, 1, 0);
    cl_kernel k = exec_kernel(program, "mixed");
    for (size_t ri = 0; ri < RANGES; ri++) {
        const struct range *r = &ranges[ri];
        size_t items = range_items(r);
        CHECK_EQ(clSetKernelArg(k, 2, r->local[0] * r->local[1] * r->local[2] * sizeof(cl_int),
                                NULL),
                 CL_SUCCESS);
        cl_int rounds = ROUNDS;
        CHECK_EQ(clSetKernelArg(k, 3, sizeof(rounds), &rounds), CL_SUCCESS);
        run(k, r, in, sizeof(cl_int), out, FIELDS * sizeof(cl_int));
        const struct layout *l = layout_of(r);
        for (size_t i = 0; i < items; i++) {
            const size_t *members;
            size_t n, id;
            sub_group_of(l, i, &members, &n, &id);
            size_t sg = l->at[i].id / S;
            cl_int a = 0;
            for (size_t round = 0; round < sg % 3; round++)
                for (size_t m = 0; m < n; m++)
                    a += in[members[m]] + (cl_int)round;
            acc[i] = a;
        }
        int bad = 0;
        for (size_t i = 0; i < items && bad < 3; i++) {
            const struct place *p = &l->at[i];
            const size_t *members;
            size_t n, id;
            sub_group_of(l, i, &members, &n, &id);
            size_t sg = p->id / S;
            cl_int odd = -1, group = 0;
            if (sg % 2) {
                odd = INT32_MIN;
                for (size_t m = 0; m <= id; m++)
                    odd = in[members[m]] > odd ? in[members[m]] : odd;
            }
            const size_t *everyone = &l->order[l->base[p->group]];
            for (size_t m = 0; m < p->n; m++)
                group += in[everyone[m]];
            cl_int next = acc[everyone[(p->id + 1) % p->n]];
            cl_int first = in[members[0]] + acc[everyone[(p->id - id + 1) % p->n]];
            cl_int most = INT32_MIN;
            for (size_t m = 0; m < n; m++)
                most = in[members[m]] > most ? in[members[m]] : most;
            most = ROUNDS * most + ROUNDS * (ROUNDS - 1) / 2;
            cl_int want[FIELDS] = {acc[i], odd, next, group, first, most};
            for (int f = 0; f < FIELDS; f++)
                if (out[FIELDS * i + f] != want[f]) {
                    fprintf(stderr, "mixed, range %zu, item %zu, field %d: %d, expected %d\n",
                            ri, i, f, out[FIELDS * i + f], want[f]);
                    bad++;
                }
        }
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* clGetKernelSubGroupInfo: the sub-group size and counts for local sizes,
 * the local size for a count, the largest count, and the errors the spec
 * lists. S is the answer for a group of 4096; the rest follows from it. */
static void check_queries(cl_program program)
{
    cl_kernel k = exec_kernel(program, "info");
    size_t local[3] = {MAX_ITEMS, 1, 1}, got[3], size_ret = 0;
    CHECK_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof(size_t), local, sizeof(size_t), &S, &size_ret),
             CL_SUCCESS);
    CHECK_EQ(size_ret, sizeof(size_t));
    /* The lanes of the CPU kernels are built for. */
    const char *cpu = getenv("REFCL_CPU");
    if (cpu && !*cpu)
        cpu = NULL;
    cl_uint width = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(width),
                             &width, NULL),
             CL_SUCCESS);
    size_t want = !cpu ? width : !strcmp(cpu, "x86-64-v3") ? 8 : !strcmp(cpu, "x86-64-v4") ? 16 : 4;
    if (cpu && want > width)
        want = width; /* REFCL_CPU above the host's is ignored */
    CHECK_EQ(S, want);
    /* 2D and 3D: the work-items count, the last sub-group is shorter. */
    size_t local2[3] = {3, 1, 1}, local3[3] = {5, 3, 7};
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof(size_t), local2, sizeof(size_t), got, NULL),
             CL_SUCCESS);
    CHECK_EQ(got[0], 3u < S ? 3u : S);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                     3 * sizeof(size_t), local3, sizeof(size_t), got, NULL),
             CL_SUCCESS);
    CHECK_EQ(got[0], (105 + S - 1) / S);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                     2 * sizeof(size_t), local3, sizeof(size_t), got, NULL),
             CL_SUCCESS);
    CHECK_EQ(got[0], (15 + S - 1) / S);
    /* "Returns the local size that will generate the requested number of
     * sub-groups ... Any returned work-group will have one dimension.
     * Other dimensions ... filled with the value 1"; "0 will be returned
     * in each element" when none can. */
    size_t count = 5;
    size_ret = 0;
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof(count), &count, 3 * sizeof(size_t), got, &size_ret),
             CL_SUCCESS);
    CHECK_EQ(size_ret, 3 * sizeof(size_t));
    CHECK_EQ(got[0], 5 * S);
    CHECK_EQ(got[1], 1u);
    CHECK_EQ(got[2], 1u);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof(count), &count, 2 * sizeof(size_t), got, &size_ret),
             CL_SUCCESS);
    CHECK_EQ(size_ret, 2 * sizeof(size_t));
    count = MAX_ITEMS; /* more work-items than a group may have */
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     sizeof(count), &count, sizeof(size_t), got, NULL),
             CL_SUCCESS);
    CHECK_EQ(got[0], 0u);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                     sizeof(size_t), got, NULL),
             CL_SUCCESS);
    CHECK_EQ(got[0], MAX_ITEMS / S);
    cl_uint device_max = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(device_max),
                             &device_max, NULL),
             CL_SUCCESS);
    CHECK(got[0] <= device_max);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL,
                                     sizeof(size_t), got, NULL),
             CL_SUCCESS);
    CHECK_EQ(got[0], 0u);
    /* CL_INVALID_VALUE "if param_name is not one of the supported values,
     * or if the size in bytes specified by param_value_size is less than
     * size of the return type ... and param_value is not NULL", and for
     * the ND-range queries "the size in bytes specified by
     * input_value_size is not valid or if input_value is NULL". */
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, 0, NULL,
                                     sizeof(size_t), got, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, 4, got,
                                     NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                     sizeof(size_t), NULL, sizeof(size_t), got, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                     4 * sizeof(size_t), local3, sizeof(size_t), got, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 5,
                                     local3, sizeof(size_t), got, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                     2 * sizeof(size_t), &count, sizeof(size_t), got, NULL),
             CL_INVALID_VALUE);
    /* CL_INVALID_KERNEL, CL_INVALID_DEVICE. */
    CHECK_EQ(clGetKernelSubGroupInfo(NULL, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                     sizeof(size_t), got, NULL),
             CL_INVALID_KERNEL);
    CHECK_EQ(clGetKernelSubGroupInfo(k, (cl_device_id)&count, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                     NULL, sizeof(size_t), got, NULL),
             CL_INVALID_DEVICE);
    /* Sub-groups are OpenCL 3.0's feature, not cl_khr_subgroups (whose
     * devices must have independent forward progress of sub-groups):
     * the extension is not listed. */
    cl_bool ifp = CL_TRUE;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                             sizeof(ifp), &ifp, NULL),
             CL_SUCCESS);
    CHECK_EQ(ifp, CL_FALSE);
    CHECK(!test_device_has_extension(device, "cl_khr_subgroups"));
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static void check_half_program(void)
{
    if (!test_device_has_extension(device, "cl_khr_fp16"))
        return;
    cl_program program = exec_build(half_source, "-cl-std=CL3.0");
    if (program) {
        check_half(program);
        check_vector_broadcast(program, "broadcast_half4", 4, 4);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
}

int main(void)
{
    exec_setup();
    cl_program program = exec_build(source, "-cl-std=CL3.0");
    if (program) {
        check_queries(program);
        check_info(program);
        check_char(program);
        check_uchar(program);
        check_short(program);
        check_ushort(program);
        check_vector_broadcasts(program);
        check_int(program);
        check_uint(program);
        check_long(program);
        check_ulong(program);
        check_float(program);
        check_double(program);
        check_all_any(program);
        check_mixed(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    check_half_program();
    program = exec_build(divergent_source, "-cl-std=CL3.0");
    if (program) {
        check_divergent(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    /* The sub-group nest unoptimized. */
    program = exec_build(source, "-cl-std=CL3.0 -cl-opt-disable");
    if (program) {
        check_mixed(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    exec_teardown();
    return TEST_RESULT();
}
