// SPDX-License-Identifier: Apache-2.0
// The sub-group functions of non-uniform control flow (OpenCL C, "Sub-Group
// Functions" of cl_khr_subgroup_shuffle, _shuffle_relative,
// _non_uniform_vote, _ballot, _non_uniform_arithmetic, _clustered_reduce):
// "These functions need not be encountered by all work items in a
// sub-group executing the kernel", and act on its active ones. The
// work-group pass runs a sub-group's work-items by where they stopped:
// those stopped at the same sub-group barrier run on together, the others
// later (docs/compiler.md), so the work-items between a function's two
// sub-group barriers are its active ones. Each marks itself in the
// sub-group flags (__refcl_sub_group_flags: a byte per work-item, zero
// when the group starts), the first active one computes for all, each
// clears its mark after the second barrier. (Not cl_khr_subgroup_rotate:
// clang 15 declares no half overloads of its functions.)

#include "collective.inc"

#define STEP() sub_group_barrier(CLK_LOCAL_MEM_FENCE)

// Whether the work-item of sub-group local id `lid` is the active one of
// smallest id (the marks are of this function's active work-items).
static bool first_active(const __private uchar *act, uint lid)
{
    for (uint k = 0; k < lid; k++)
        if (act[k])
            return false;
    return true;
}

// A function's body: VALUE into the sub-group's `in` (in[k]: sub-group
// local id k's), the work-item marked active, a sub-group barrier, the
// first active work-item runs COMPUTE (over in, out, act and m, the
// sub-group's size), a sub-group barrier, the mark cleared, RESULT.
#define NU_BODY(T, VALUE, COMPUTE, RESULT)                                      \
    {                                                                           \
        size_t n = group_items(), id = get_local_linear_id();                   \
        uint lid = get_sub_group_local_id(), m = get_sub_group_size();          \
        size_t base = id - lid;                                                 \
        __private T *in = (__private T *)__refcl_sub_group_scratch();           \
        __private T *out = OUT(T, in, n) + base;                                \
        __private uchar *act = __refcl_sub_group_flags() + base;                \
        in += base;                                                             \
        in[lid] = (VALUE);                                                      \
        act[lid] = 1;                                                           \
        STEP();                                                                 \
        if (first_active(act, lid)) {                                           \
            COMPUTE;                                                            \
        }                                                                       \
        STEP();                                                                 \
        act[lid] = 0;                                                           \
        return RESULT;                                                          \
    }

// A shuffle: every work-item stores its value, a sub-group barrier, each
// reads the one of sub-group local id FROM, a sub-group barrier (the next
// function stores in the loop of these reads otherwise). "The return value
// is undefined if the work item with sub-group local ID equal to index is
// inactive or if index is greater than or equal to the size of the
// sub-group": an index out of range reads the work-item's own value.
#define SHUFFLE_BODY(T, FROM)                                                   \
    {                                                                           \
        size_t id = get_local_linear_id();                                      \
        uint lid = get_sub_group_local_id(), m = get_sub_group_size();          \
        __private T *in = (__private T *)__refcl_sub_group_scratch() +          \
                          (id - lid);                                           \
        in[lid] = x;                                                            \
        STEP();                                                                 \
        uint from = (FROM);                                                     \
        T r = in[from < m ? from : lid];                                        \
        STEP();                                                                 \
        return r;                                                               \
    }

#define DEFINE_SHUFFLES(T)                                                      \
    T __attribute__((overloadable)) sub_group_shuffle(T x, uint index)          \
        SHUFFLE_BODY(T, index)                                                  \
    T __attribute__((overloadable)) sub_group_shuffle_xor(T x, uint mask)       \
        SHUFFLE_BODY(T, lid ^ mask)                                             \
    T __attribute__((overloadable)) sub_group_shuffle_up(T x, uint delta)       \
        SHUFFLE_BODY(T, lid - delta)                                            \
    T __attribute__((overloadable)) sub_group_shuffle_down(T x, uint delta)     \
        SHUFFLE_BODY(T, lid + delta)

// The reduction and scans over the active work-items, in increasing
// sub-group local id ("The scan order is defined by increasing sub-group
// local ID within the sub-group"), and the clustered reduction: "for
// cluster size n, the n work items in the sub-group with the smallest
// sub-group local IDs are assigned to the first cluster" and so on.
#define DEFINE_NU_OP(T, NAME, OP, IDENTITY)                                     \
    static void nu_reduce_##NAME##_##T(const __private T *in,                   \
                                       __private T *out,                        \
                                       const __private uchar *act, uint m,      \
                                       uint first, uint count)                  \
    {                                                                           \
        T acc = (IDENTITY);                                                     \
        for (uint k = first; k < first + count && k < m; k++)                   \
            if (act[k])                                                         \
                acc = OP(acc, in[k]);                                           \
        for (uint k = first; k < first + count && k < m; k++)                   \
            if (act[k])                                                         \
                out[k] = acc;                                                   \
    }                                                                           \
    static void nu_scans_##NAME##_##T(const __private T *in, __private T *out,  \
                                      const __private uchar *act, uint m,       \
                                      bool inclusive)                           \
    {                                                                           \
        T acc = (IDENTITY);                                                     \
        for (uint k = 0; k < m; k++)                                            \
            if (act[k]) {                                                       \
                T next = OP(acc, in[k]);                                        \
                out[k] = inclusive ? next : acc;                                \
                acc = next;                                                     \
            }                                                                   \
    }                                                                           \
    T __attribute__((overloadable)) sub_group_non_uniform_reduce_##NAME(T x)    \
        NU_BODY(T, x, nu_reduce_##NAME##_##T(in, out, act, m, 0, m), out[lid])  \
    T __attribute__((overloadable))                                             \
        sub_group_non_uniform_scan_inclusive_##NAME(T x)                        \
        NU_BODY(T, x, nu_scans_##NAME##_##T(in, out, act, m, true), out[lid])   \
    T __attribute__((overloadable))                                             \
        sub_group_non_uniform_scan_exclusive_##NAME(T x)                        \
        NU_BODY(T, x, nu_scans_##NAME##_##T(in, out, act, m, false), out[lid])  \
    T __attribute__((overloadable))                                             \
        sub_group_clustered_reduce_##NAME(T x, uint clustersize)                \
        NU_BODY(T, x,                                                           \
                for (uint c = 0; c < m; c += clustersize)                       \
                    nu_reduce_##NAME##_##T(in, out, act, m, c, clustersize),    \
                out[lid])

#define NU_ADD(a, b) ((a) + (b))
#define NU_MUL(a, b) ((a) * (b))
#define NU_AND(a, b) ((a) & (b))
#define NU_OR(a, b) ((a) | (b))
#define NU_XOR(a, b) ((a) ^ (b))
#define NU_LOGICAL_AND(a, b) ((a) && (b))
#define NU_LOGICAL_OR(a, b) ((a) || (b))
#define NU_LOGICAL_XOR(a, b) (!(a) != !(b))

// Broadcasts from one work-item: "Returns value for the work item with
// sub-group local ID equal to index" (an index out of range reads the
// first active one's), "with the smallest sub-group local ID among active
// work items"; and all_equal over the active ones.
#define DEFINE_NU_SCALAR(T)                                                     \
    DEFINE_SHUFFLES(T)                                                          \
    T __attribute__((overloadable)) sub_group_non_uniform_broadcast(T x,        \
                                                                    uint i)     \
        NU_BODY(T, x, out[0] = in[i < m && act[i] ? i : lid], out[0])           \
    T __attribute__((overloadable)) sub_group_broadcast_first(T x)              \
        NU_BODY(T, x, out[0] = in[lid], out[0])                                 \
    int __attribute__((overloadable)) sub_group_non_uniform_all_equal(T x)      \
        NU_BODY(T, x, all_equal_##T(in, out, act, m, lid), out[0] != 0)         \
    static void all_equal_##T(const __private T *in, __private T *out,          \
                              const __private uchar *act, uint m, uint first)   \
    {                                                                           \
        bool same = true;                                                       \
        for (uint k = first; k < m; k++)                                        \
            same &= !act[k] || in[k] == in[first];                              \
        out[0] = same;                                                          \
    }

#define DEFINE_NU_ARITHMETIC(T, MIN, MAX, FMIN, FMAX)                           \
    DEFINE_NU_OP(T, add, NU_ADD, (T)0)                                          \
    DEFINE_NU_OP(T, mul, NU_MUL, (T)1)                                          \
    DEFINE_NU_OP(T, min, FMIN, MAX)                                             \
    DEFINE_NU_OP(T, max, FMAX, MIN)

#define DEFINE_NU_INTEGER(T, MIN, MAX)                                          \
    DEFINE_NU_ARITHMETIC(T, MIN, MAX, OP_min, OP_max)                           \
    DEFINE_NU_OP(T, and, NU_AND, (T)~(T)0)                                      \
    DEFINE_NU_OP(T, or, NU_OR, (T)0)                                            \
    DEFINE_NU_OP(T, xor, NU_XOR, (T)0)

#define DEFINE_NU_FLOATING(T)                                                   \
    DEFINE_NU_ARITHMETIC(T, (T)-INFINITY, (T)INFINITY, FOP_min, FOP_max)

// Declared before their callers' macros name them.
#define DECLARE_ALL_EQUAL(T)                                                    \
    static void all_equal_##T(const __private T *in, __private T *out,          \
                              const __private uchar *act, uint m, uint first);

#define FOR_SCALARS(X)                                                          \
    X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong)         \
    X(float) X(double)

FOR_SCALARS(DECLARE_ALL_EQUAL)
FOR_SCALARS(DEFINE_NU_SCALAR)

DEFINE_NU_INTEGER(char, CHAR_MIN, CHAR_MAX)
DEFINE_NU_INTEGER(uchar, 0, UCHAR_MAX)
DEFINE_NU_INTEGER(short, SHRT_MIN, SHRT_MAX)
DEFINE_NU_INTEGER(ushort, 0, USHRT_MAX)
DEFINE_NU_INTEGER(int, INT_MIN, INT_MAX)
DEFINE_NU_INTEGER(uint, 0, UINT_MAX)
DEFINE_NU_INTEGER(long, LONG_MIN, LONG_MAX)
DEFINE_NU_INTEGER(ulong, 0, ULONG_MAX)
DEFINE_NU_FLOATING(float)
DEFINE_NU_FLOATING(double)

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
DECLARE_ALL_EQUAL(half)
DEFINE_NU_SCALAR(half)
DEFINE_NU_FLOATING(half)
#endif

// The logical operations, on int predicates: 1 or 0.
typedef int logical;
DEFINE_NU_OP(logical, logical_and, NU_LOGICAL_AND, 1)
DEFINE_NU_OP(logical, logical_or, NU_LOGICAL_OR, 0)
DEFINE_NU_OP(logical, logical_xor, NU_LOGICAL_XOR, 0)

// cl_khr_subgroup_non_uniform_vote: "Returns true for the active work item
// with the smallest sub-group local ID", and all or any of the active
// work-items' predicates.
int __attribute__((overloadable)) sub_group_elect(void)
{
    uint lid = get_sub_group_local_id();
    __private uchar *act =
        __refcl_sub_group_flags() + (get_local_linear_id() - lid);
    act[lid] = 1;
    STEP();
    int first = first_active(act, lid);
    STEP();
    act[lid] = 0;
    return first;
}

int __attribute__((overloadable)) sub_group_non_uniform_all(int predicate)
{
    return sub_group_non_uniform_reduce_logical_and(predicate);
}

int __attribute__((overloadable)) sub_group_non_uniform_any(int predicate)
{
    return sub_group_non_uniform_reduce_logical_or(predicate);
}

// cl_khr_subgroup_ballot. A sub-group has 16 work-items at most, so a
// bitfield's bits past the sub-group are in its first component: "Bit zero
// of the first vector component represents the sub-group local ID zero".
static void ballot(const __private uint *in, __private uint *out,
                   const __private uchar *act, uint m)
{
    uint bits = 0;
    for (uint k = 0; k < m; k++)
        if (act[k] && in[k])
            bits |= 1u << k;
    out[0] = bits;
}

uint4 __attribute__((overloadable)) sub_group_ballot(int predicate)
    NU_BODY(uint, predicate != 0, ballot(in, out, act, m),
            (uint4)(out[0], 0, 0, 0))

int __attribute__((overloadable)) sub_group_inverse_ballot(uint4 value)
{
    uint lid = get_sub_group_local_id();
    return (value[lid / 32] >> (lid % 32)) & 1;
}

int __attribute__((overloadable)) sub_group_ballot_bit_extract(uint4 value,
                                                               uint index)
{
    return (value[(index / 32) & 3] >> (index % 32)) & 1;
}

// The bits of `value` below bit `n` (n at most 32).
static uint bits_below(uint4 value, uint n)
{
    return n >= 32 ? value.x : value.x & ((1u << n) - 1);
}

// "only considering the bits ... corresponding to sub-group local IDs less
// than the maximum sub-group size within the dispatch".
uint __attribute__((overloadable)) sub_group_ballot_bit_count(uint4 value)
{
    return popcount(bits_below(value, get_max_sub_group_size()));
}

uint __attribute__((overloadable)) sub_group_ballot_inclusive_scan(uint4 value)
{
    return popcount(bits_below(value, get_sub_group_local_id() + 1));
}

uint __attribute__((overloadable)) sub_group_ballot_exclusive_scan(uint4 value)
{
    return popcount(bits_below(value, get_sub_group_local_id()));
}

uint __attribute__((overloadable)) sub_group_ballot_find_lsb(uint4 value)
{
    return ctz(bits_below(value, get_max_sub_group_size()));
}

uint __attribute__((overloadable)) sub_group_ballot_find_msb(uint4 value)
{
    return 31 - clz(bits_below(value, get_max_sub_group_size()));
}

uint4 __attribute__((overloadable)) get_sub_group_eq_mask(void)
{
    return (uint4)(1u << get_sub_group_local_id(), 0, 0, 0);
}

uint4 __attribute__((overloadable)) get_sub_group_ge_mask(void)
{
    uint4 all = (uint4)(~0u, 0, 0, 0);
    return (uint4)(bits_below(all, get_max_sub_group_size()) &
                       ~bits_below(all, get_sub_group_local_id()),
                   0, 0, 0);
}

uint4 __attribute__((overloadable)) get_sub_group_gt_mask(void)
{
    uint4 all = (uint4)(~0u, 0, 0, 0);
    return (uint4)(bits_below(all, get_max_sub_group_size()) &
                       ~bits_below(all, get_sub_group_local_id() + 1),
                   0, 0, 0);
}

uint4 __attribute__((overloadable)) get_sub_group_le_mask(void)
{
    uint4 all = (uint4)(~0u, 0, 0, 0);
    return (uint4)(bits_below(all, get_sub_group_local_id() + 1), 0, 0, 0);
}

uint4 __attribute__((overloadable)) get_sub_group_lt_mask(void)
{
    return (uint4)(bits_below((uint4)(~0u, 0, 0, 0), get_sub_group_local_id()),
                   0, 0, 0);
}
