/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icd/objects: no fixed ceiling on live objects. refcl's handle validation
 * once rested on pools of 262,144 slots a type; now a pool grows with what
 * is live. More live user events and contexts than that are created, stay
 * valid, and their handles are refused once released. When memory runs out
 * (an address-space limit here), creation fails with CL_OUT_OF_HOST_MEMORY
 * and nothing else breaks: after the releases everything works again.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "check.h"

/* Past the old ceiling of 262,144 live objects of a type. */
#define LIVE 300000

static cl_device_id device;

/* clGetEventInfo's reference count of @p event, or its error. */
static cl_int event_refcount(cl_event event, cl_uint *count)
{
    return clGetEventInfo(event, CL_EVENT_REFERENCE_COUNT, sizeof(*count),
                          count, NULL);
}

static cl_event *user_events(cl_context context, size_t count)
{
    cl_event *events = malloc(count * sizeof(*events));
    CHECK(events != NULL);
    for (size_t i = 0; events && i < count; i++) {
        cl_int err = CL_INVALID_VALUE;
        events[i] = clCreateUserEvent(context, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "clCreateUserEvent %zu: %d\n", i, err);
            CHECK_EQ(err, CL_SUCCESS);
            free(events);
            return NULL;
        }
    }
    return events;
}

/* Addresses inside live event @p event's slot, cache-line aligned or
 * not, are no events: slots are sized per type (an event's is more than
 * 64 bytes), and only a slot's start is a handle. Linked directly only: a
 * loader reads the dispatch table through the handle first. */
static void check_inside(cl_event event)
{
    static const size_t offsets[] = {1, 8, 64, 100};
    if (test_through_loader())
        return;
    for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
        cl_event inside = (cl_event)((char *)event + offsets[i]);
        CHECK_EQ(clRetainEvent(inside), CL_INVALID_EVENT);
        CHECK_EQ(clRetainContext((cl_context)(void *)inside),
                 CL_INVALID_CONTEXT);
    }
    CHECK_EQ(clRetainContext((cl_context)(void *)event), CL_INVALID_CONTEXT);
}

/* Every one of LIVE events is valid and distinct in what it answers; once
 * released, the last ones are refused. */
static void check_many_events(cl_context context)
{
    cl_event *events = user_events(context, LIVE);
    if (!events)
        return;
    size_t probes[] = {0, 1, 262143, 262144, 262145, LIVE - 1};
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
        cl_uint count = 0;
        CHECK_EQ(clRetainEvent(events[probes[i]]), CL_SUCCESS);
        CHECK_EQ(event_refcount(events[probes[i]], &count), CL_SUCCESS);
        CHECK_EQ(count, 2);
        CHECK_EQ(clReleaseEvent(events[probes[i]]), CL_SUCCESS);
    }
    check_inside(events[0]);
    check_inside(events[262144]);
    check_inside(events[LIVE - 1]);
    cl_uint context_refs = 0;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT,
                              sizeof(context_refs), &context_refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(context_refs, LIVE + 1);
    for (size_t i = 0; i < LIVE; i++)
        CHECK_EQ(clReleaseEvent(events[i]), CL_SUCCESS);
    cl_uint count;
    CHECK_EQ(event_refcount(events[LIVE - 1], &count), CL_INVALID_EVENT);
    free(events);
}

static void check_many_contexts(void)
{
    cl_context *contexts = malloc(LIVE * sizeof(*contexts));
    CHECK(contexts != NULL);
    size_t made = 0;
    for (cl_int err = CL_SUCCESS; contexts && made < LIVE; made++) {
        contexts[made] = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            CHECK_EQ(err, CL_SUCCESS);
            break;
        }
    }
    CHECK_EQ(made, LIVE);
    cl_uint num_devices = 0;
    CHECK_EQ(clGetContextInfo(contexts[made - 1], CL_CONTEXT_NUM_DEVICES,
                              sizeof(num_devices), &num_devices, NULL),
             CL_SUCCESS);
    CHECK_EQ(num_devices, 1);
    for (size_t i = 0; i < made; i++)
        CHECK_EQ(clReleaseContext(contexts[i]), CL_SUCCESS);
    free(contexts);
}

/* Out of memory: creation fails with CL_OUT_OF_HOST_MEMORY, the objects
 * made before stay valid, and after their release all is well again. */
static void check_out_of_memory(cl_context context)
{
    enum { MAX = 4000000 };
    if (!test_address_limit_usable()) {
        fprintf(stderr, "address-space limit not usable here: out-of-memory "
                        "case skipped\n");
        return;
    }
    cl_event *events = malloc(MAX * sizeof(*events));
    struct rlimit old;
    CHECK(events != NULL);
    CHECK_EQ(getrlimit(RLIMIT_AS, &old), 0);
    struct rlimit tight = {test_mapped_bytes() + (256u << 20), old.rlim_max};
    CHECK_EQ(setrlimit(RLIMIT_AS, &tight), 0);
    size_t made = 0;
    cl_int err = CL_SUCCESS;
    for (; events && made < MAX; made++) {
        events[made] = clCreateUserEvent(context, &err);
        if (err != CL_SUCCESS)
            break;
    }
    CHECK_EQ(setrlimit(RLIMIT_AS, &old), 0);
    CHECK_EQ(err, CL_OUT_OF_HOST_MEMORY);
    /* 256 MiB held at least the first segments: 65,536 + 131,072 events. */
    CHECK(made >= 196608 && made < MAX);
    cl_uint count;
    CHECK_EQ(event_refcount(events[made - 1], &count), CL_SUCCESS);
    CHECK_EQ(count, 1);
    for (size_t i = 0; i < made; i++)
        CHECK_EQ(clReleaseEvent(events[i]), CL_SUCCESS);
    free(events);

    cl_command_queue queue;
    cl_context again;
    if (!test_context_queue(device, 0, &again, &queue))
        return;
    cl_event marker;
    CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(marker), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(again), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_many_events(context);
    check_many_contexts();
    check_out_of_memory(context);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
