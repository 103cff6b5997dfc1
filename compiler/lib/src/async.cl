// SPDX-License-Identifier: Apache-2.0
// Async copies between global and local memory (OpenCL C 3.0 s6.15.11):
// async_work_group_copy, async_work_group_strided_copy and prefetch of
// every type (async_body.inc, once per gentype), and wait_group_events.
//
// A work-group's work-items run one after the other on one thread, in the
// pass's work-item loop, which the vectorizer makes a loop over 16 of them
// at a time. A copy of at least the group's size is shared: work-item l
// copies element l, so that loop is itself the copy, vectorized; the first
// work-item copies the elements from the group's size on, if any, in one
// loop LLVM vectorizes. A smaller copy is the first work-item's alone (a
// share would need a mask per element, and masked stores are slow: the
// bench's tiles took as long as before with them). The first work-item
// alone left a loop over all the others that did nothing, 6 instructions
// each: in the bench's tiles (num is the group's size) those loops took
// 20% of a profile's samples and the copies 3% (docs/builtins.md).
// num is the same in every work-item (OpenCL C 3.0 s6.15.11: "must
// therefore be encountered by all work-items in a work-group executing the
// kernel with the same argument values"), so LLVM unswitches the work-item
// loop on it. wait_group_events is a barrier, after which the copy is done
// and visible to all (the pass splits the work-group at barriers in inlined
// library code too). The returned event is the one passed: the barrier
// waits for every copy, whichever events name them.
//
// Compiled as OpenCL C 1.2 and 2.0 (CMakeLists.txt): the copies take named
// address spaces, compiled once (1.2); wait_group_events takes a private
// or a generic list, compiled both ways.

#define OVL __attribute__((overloadable))

#if __OPENCL_C_VERSION__ < 200
size_t OVL get_local_linear_id(void);

// The body of a copy of num elements, COPY(i) copying element i.
#define REFCL_ASYNC_COPY(COPY)                                              \
    size_t l = get_local_linear_id(),                                       \
           items = get_local_size(0) * get_local_size(1) *                 \
                   get_local_size(2);                                       \
    if (num >= items) {                                                     \
        COPY(l)                                                             \
        if (l == 0)                                                         \
            for (size_t i = items; i < num; i++)                            \
                COPY(i)                                                     \
    } else if (l == 0) {                                                    \
        for (size_t i = 0; i < num; i++)                                    \
            COPY(i)                                                         \
    }                                                                       \
    return event;

// Element i of a copy; the stride applies to the global side.
#define REFCL_UNIT(i) dst[i] = src[i];
#define REFCL_FROM_STRIDED(i) dst[i] = src[i * stride];
#define REFCL_TO_STRIDED(i) dst[i * stride] = src[i];

#define REFCL_BODY "async_body.inc"
#include "gentype.inc"
#endif

void OVL wait_group_events(int count, event_t *events)
{
    (void)count;
    (void)events;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
