/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commands that need no kernel: clEnqueueMarkerWithWaitList,
 * clEnqueueBarrierWithWaitList and the OpenCL 1.1 clEnqueueMarker,
 * clEnqueueBarrier and clEnqueueWaitForEvents. They validate here and run
 * in queue/executor.c, which gives them their ordering.
 */
#include "refcl/api.h"
#include "refcl/event.h"
#include "refcl/queue.h"

/* A marker, or a barrier, that waits for @p wait_list (validated). */
static cl_int enqueue(cl_command_queue queue, bool barrier, cl_uint num_events,
                      const cl_event *wait_list, cl_event *event)
{
    struct refcl_command command = {
        .type = barrier ? CL_COMMAND_BARRIER : CL_COMMAND_MARKER,
        .barrier = barrier,
        .num_events = num_events,
        .wait_list = wait_list,
    };
    return refcl_executor_enqueue(queue, &command, event);
}

/* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
 * command-queue", then the wait list (refcl_wait_list_check). */
static cl_int enqueue_checked(cl_command_queue queue, bool barrier,
                              cl_uint num_events, const cl_event *wait_list,
                              cl_event *event)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    cl_int status = refcl_wait_list_check(queue->context, num_events,
                                          wait_list);
    if (status != CL_SUCCESS)
        return status;
    return enqueue(queue, barrier, num_events, wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueMarkerWithWaitList(cl_command_queue queue,
                                                     cl_uint num_events,
                                                     const cl_event *wait_list,
                                                     cl_event *event)
{
    return enqueue_checked(queue, false, num_events, wait_list, event);
}

cl_int CL_API_CALL refcl_clEnqueueBarrierWithWaitList(cl_command_queue queue,
                                                      cl_uint num_events,
                                                      const cl_event *wait_list,
                                                      cl_event *event)
{
    return enqueue_checked(queue, true, num_events, wait_list, event);
}

/* "The marker command waits for all commands previously enqueued in
 * command_queue to complete before it completes." */
cl_int CL_API_CALL refcl_clEnqueueMarker(cl_command_queue queue,
                                         cl_event *event)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    if (!event)
        return REFCL_FAIL(CL_INVALID_VALUE, "event NULL: \"if event is "
                          "NULL\"");
    return enqueue(queue, false, 0, NULL, event);
}

cl_int CL_API_CALL refcl_clEnqueueBarrier(cl_command_queue queue)
{
    return enqueue_checked(queue, true, 0, NULL, NULL);
}

/* "enqueue a wait for a specific event or a list of events to complete
 * before any future commands queued in the command-queue are executed": a
 * barrier with that wait list. Not a wait list's errors, though:
 * CL_INVALID_VALUE "if num_events is 0 or event_list is NULL",
 * CL_INVALID_CONTEXT "if context associated with command_queue and events
 * in event_list are not the same", and CL_INVALID_EVENT for an event that
 * is not one. */
cl_int CL_API_CALL refcl_clEnqueueWaitForEvents(cl_command_queue queue,
                                                cl_uint num_events,
                                                const cl_event *event_list)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    cl_int status = refcl_event_list_check(num_events, event_list);
    if (status == CL_SUCCESS && event_list[0]->context != queue->context)
        status = REFCL_FAIL(CL_INVALID_CONTEXT, "\"if context associated "
                            "with command_queue and events in event_list are "
                            "not the same\"");
    if (status != CL_SUCCESS)
        return status;
    return enqueue(queue, true, num_events, event_list, NULL);
}
