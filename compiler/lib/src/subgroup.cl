// SPDX-License-Identifier: Apache-2.0
// Sub-group collective functions (OpenCL C, "Sub-Group Functions"; the
// __opencl_c_subgroups feature and cl_khr_subgroups), built as the
// work-group ones (workgroup.cl) with sub-group barriers: every work-item
// stores its value in its slot of `in`, the sub-group's first work-item
// computes its sub-group's results into `out`, and every work-item reads
// its own. A sub-group is a run of get_sub_group_size() consecutive local
// linear ids from (get_sub_group_id() * the first sub-group's size), so
// its slots are consecutive in the sub-group scratch, apart from every
// other sub-group's; the work-group pass runs a kernel with sub-group barriers
// one sub-group after another, each region by region, so only the
// sub-group's own work-items need to reach the call ("These built-in
// functions must be encountered by all work-items in the sub-group
// executing the kernel", "Sub-Group Functions").

#include "collective.inc"

#define STEP() sub_group_barrier(CLK_LOCAL_MEM_FENCE)

// A collective's body: VALUE into `in`, a sub-group barrier, the
// sub-group's first work-item runs COMPUTE (over its sub-group's
// `in + base`, `out + base` and m values), a sub-group barrier, and the
// work-item's result is out[AT] (id: its local linear id; base: its
// sub-group's first one).
#define COLLECTIVE_BODY(T, VALUE, COMPUTE, AT)                                  \
    {                                                                           \
        __private T *in = (__private T *)__refcl_sub_group_scratch();           \
        size_t id = get_local_linear_id();                                      \
        size_t base = id - get_sub_group_local_id();                            \
        size_t m = get_sub_group_size();                                        \
        __private T *out = OUT(T, in, group_items());                           \
        in[id] = (VALUE);                                                       \
        STEP();                                                                 \
        if (id == base) {                                                       \
            COMPUTE;                                                            \
        }                                                                       \
        STEP();                                                                 \
        return out[AT];                                                         \
    }

// The order of the operations: "The scan order is defined by increasing
// sub-group local ID within the sub-group"; "The order of floating-point
// operations is not guaranteed for the sub_group_reduce_<op>,
// sub_group_scan_inclusive_<op> and sub_group_scan_exclusive_<op>
// built-in functions that operate on half, float and double data types"
// ("Sub-Group Functions"). The identities are the work-group functions'.
#define DEFINE_COLLECTIVES(T, NAME, OP, IDENTITY)                               \
    DEFINE_FOLD(T, T##8, NAME, OP)                                              \
    DEFINE_SCANS(T, NAME, OP, IDENTITY)                                         \
    T __attribute__((overloadable)) sub_group_reduce_##NAME(T x)                \
        COLLECTIVE_BODY(T, x,                                                   \
                        out[base] = fold_##NAME##_##T(in + base, m), base)      \
    T __attribute__((overloadable)) sub_group_scan_inclusive_##NAME(T x)        \
        COLLECTIVE_BODY(T, x,                                                   \
                        scan_inclusive_##NAME##_##T(in + base, out + base, m),  \
                        id)                                                     \
    T __attribute__((overloadable)) sub_group_scan_exclusive_##NAME(T x)        \
        COLLECTIVE_BODY(T, x,                                                   \
                        scan_exclusive_##NAME##_##T(in + base, out + base, m),  \
                        id)

// "Behavior is undefined when the value of sub_group_local_id is not
// equivalent for all work-items in the sub-group" and "when
// sub_group_local_id is greater or equal to the sub-group size": the
// first work-item's index picks the value, reduced modulo the sub-group's
// size, so a kernel that breaks the rule reads some work-item's value of
// its sub-group, never outside the scratch.
#define DEFINE_BROADCAST(T)                                                     \
    T __attribute__((overloadable)) sub_group_broadcast(T x, uint i)            \
        COLLECTIVE_BODY(T, x, out[base] = in[base + i % m], base)

#include "collective_types.inc"

// cl_khr_subgroup_extended_types: "the generic type name gentype may
// additionally be char, uchar, short, and ushort. For the
// sub_group_broadcast function, gentype may additionally be one of the
// supported built-in vector data types" ("Sub-Group Functions").
DEFINE_INTEGER(char, CHAR_MIN, CHAR_MAX)
DEFINE_INTEGER(uchar, 0, UCHAR_MAX)
DEFINE_INTEGER(short, SHRT_MIN, SHRT_MAX)
DEFINE_INTEGER(ushort, 0, USHRT_MAX)

// A vector's broadcast, 32 bytes at a time: the chosen work-item stores
// them in its sub-group's part of the scratch's third array (32 bytes per
// work-item: a sub-group of one has 32), a sub-group barrier, every
// work-item reads them, a sub-group barrier (the next round, or the next
// broadcast, stores there in the same loop as this one's reads). A long16
// takes four rounds: in one, the 128 bytes of a sub-group of fewer than 4
// work-items (a group of 1 to 3, the last of a group) ran past its part
// into the frame's next slots.
#define DEFINE_VECTOR_BROADCAST(NAME, T, N)                                     \
    T##N __attribute__((overloadable)) NAME(T##N x, uint i)                     \
    {                                                                           \
        size_t id = get_local_linear_id();                                      \
        size_t base = id - get_sub_group_local_id();                            \
        __private T *wide =                                                     \
            (__private T *)((__private char *)__refcl_sub_group_scratch() +     \
                            16 * group_items() + 32 * base);                    \
        bool chosen = get_sub_group_local_id() == i % get_sub_group_size();     \
        const int round = 32 / sizeof(T);                                       \
        T##N r;                                                                 \
        for (int at = 0; at < N; at += round) {                                 \
            int end = min(N, at + round);                                       \
            if (chosen)                                                         \
                for (int k = at; k < end; k++)                                  \
                    wide[k - at] = x[k];                                        \
            STEP();                                                             \
            for (int k = at; k < end; k++)                                      \
                r[k] = wide[k - at];                                            \
            STEP();                                                             \
        }                                                                       \
        return r;                                                               \
    }

// cl_khr_subgroup_ballot's sub_group_non_uniform_broadcast of a vector:
// the same after a first sub-group barrier, past which only the active
// work-items run (work-items at another call run it later), so that the
// one named stores for them alone ("The return value is undefined if the
// work item with sub-group local ID equal to index is inactive").
#define DEFINE_NON_UNIFORM_BROADCAST(T, N)                                      \
    T##N __attribute__((overloadable))                                          \
        sub_group_non_uniform_broadcast(T##N x, uint i)                         \
    {                                                                           \
        STEP();                                                                 \
        return sub_group_broadcast(x, i);                                       \
    }

#define DEFINE_VECTOR_BROADCASTS(T)                                             \
    DEFINE_VECTOR_BROADCAST(sub_group_broadcast, T, 2)                          \
    DEFINE_VECTOR_BROADCAST(sub_group_broadcast, T, 3)                          \
    DEFINE_VECTOR_BROADCAST(sub_group_broadcast, T, 4)                          \
    DEFINE_VECTOR_BROADCAST(sub_group_broadcast, T, 8)                          \
    DEFINE_VECTOR_BROADCAST(sub_group_broadcast, T, 16)                         \
    DEFINE_NON_UNIFORM_BROADCAST(T, 2)                                          \
    DEFINE_NON_UNIFORM_BROADCAST(T, 3)                                          \
    DEFINE_NON_UNIFORM_BROADCAST(T, 4)                                          \
    DEFINE_NON_UNIFORM_BROADCAST(T, 8)                                          \
    DEFINE_NON_UNIFORM_BROADCAST(T, 16)

DEFINE_VECTOR_BROADCASTS(char)
DEFINE_VECTOR_BROADCASTS(uchar)
DEFINE_VECTOR_BROADCASTS(short)
DEFINE_VECTOR_BROADCASTS(ushort)
DEFINE_VECTOR_BROADCASTS(int)
DEFINE_VECTOR_BROADCASTS(uint)
DEFINE_VECTOR_BROADCASTS(long)
DEFINE_VECTOR_BROADCASTS(ulong)
DEFINE_VECTOR_BROADCASTS(float)
DEFINE_VECTOR_BROADCASTS(double)
#ifdef cl_khr_fp16
DEFINE_VECTOR_BROADCASTS(half)
#endif

// "returns a non-zero value if predicate evaluates to non-zero for all
// work-items in the sub-group" / "for any work-items": 1 or 0.
int __attribute__((overloadable)) sub_group_all(int predicate)
{
    return sub_group_reduce_min(predicate != 0);
}

int __attribute__((overloadable)) sub_group_any(int predicate)
{
    return sub_group_reduce_max(predicate != 0);
}
