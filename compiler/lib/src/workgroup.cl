// SPDX-License-Identifier: Apache-2.0
// Work-group collective functions (OpenCL C 3.0 s6.15.14, the
// __opencl_c_work_group_collective_functions feature): barriers with a
// value. Each one runs in three steps separated by two barriers, which
// the work-group pass turns into three loops over the work-items:
//   1. every work-item stores its value in its own slot of `in`;
//   2. work-item 0 computes the result(s) into `out` (a fold, a scan);
//   3. every work-item reads its result from `out`.
// The group's scratch (__refcl_group_scratch, placed by the work-group
// pass in the group's frames) holds the two arrays, 8 bytes per work-item
// each: `in` then `out`. Step 3 shares its loop with the code after the
// call, which may be the next collective's step 1: that writes `in` only,
// and `out` is written again only after the next barrier, when every
// work-item has read it.

#include "collective.inc"

#define STEP() barrier(CLK_LOCAL_MEM_FENCE)

// A collective's body: VALUE into `in`, a barrier, work-item 0 runs
// COMPUTE (over in, out and n), a barrier, and the work-item's result is
// out[AT] (id: its local linear id).
#define COLLECTIVE_BODY(T, VALUE, COMPUTE, AT)                                  \
    {                                                                           \
        __private T *in = SCRATCH(T);                                           \
        size_t n = group_items(), id = get_local_linear_id();                   \
        __private T *out = OUT(T, in, n);                                       \
        in[id] = (VALUE);                                                       \
        STEP();                                                                 \
        if (id == 0) {                                                          \
            COMPUTE;                                                            \
        }                                                                       \
        STEP();                                                                 \
        return out[AT];                                                         \
    }

#define DEFINE_COLLECTIVES(T, NAME, OP, IDENTITY)                               \
    DEFINE_FOLD(T, T##8, NAME, OP)                                              \
    DEFINE_SCANS(T, NAME, OP, IDENTITY)                                         \
    T __attribute__((overloadable)) work_group_reduce_##NAME(T x)               \
        COLLECTIVE_BODY(T, x, out[0] = fold_##NAME##_##T(in, n), 0)             \
    T __attribute__((overloadable)) work_group_scan_inclusive_##NAME(T x)       \
        COLLECTIVE_BODY(T, x, scan_inclusive_##NAME##_##T(in, out, n), id)      \
    T __attribute__((overloadable)) work_group_scan_exclusive_##NAME(T x)       \
        COLLECTIVE_BODY(T, x, scan_exclusive_##NAME##_##T(in, out, n), id)

// Broadcast: "Behavior is undefined when the value of local_id is not
// equivalent for all work-items in the work-group" and "when local_id is
// greater or equal to the work-group size in the corresponding dimension"
// (s6.15.14): work-item 0's local_id picks the value, which is read in
// range whatever it is (reduced modulo the group's size), so a kernel that
// breaks the rule reads some work-item's value, never outside the scratch.
#define DEFINE_BROADCAST(T)                                                     \
    static T broadcast_##T(T a, size_t from)                                    \
        COLLECTIVE_BODY(T, a, out[0] = in[from % n], 0)                         \
    T __attribute__((overloadable)) work_group_broadcast(T a, size_t x)         \
    {                                                                           \
        return broadcast_##T(a, x);                                             \
    }                                                                           \
    T __attribute__((overloadable)) work_group_broadcast(T a, size_t x,         \
                                                         size_t y)              \
    {                                                                           \
        return broadcast_##T(a, x + y * get_local_size(0));                     \
    }                                                                           \
    T __attribute__((overloadable)) work_group_broadcast(T a, size_t x,         \
                                                         size_t y, size_t z)    \
    {                                                                           \
        return broadcast_##T(a, x + (y + z * get_local_size(1)) *               \
                                        get_local_size(0));                     \
    }

#include "collective_types.inc"

// "returns a non-zero value if predicate evaluates to non-zero for all
// work-items" / "for any work-items" (s6.15.14): 1 or 0.
int __attribute__((overloadable)) work_group_all(int predicate)
{
    return work_group_reduce_min(predicate != 0);
}

int __attribute__((overloadable)) work_group_any(int predicate)
{
    return work_group_reduce_max(predicate != 0);
}
