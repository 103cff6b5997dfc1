/* SPDX-License-Identifier: Apache-2.0 */
/*
 * event/blocking: a blocking command whose wait list holds a failed event.
 * Each of the five blocking commands — read, write,
 * map, SVM memcpy, SVM map — returns
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST and creates no event: "If
 * event is NULL or the enqueue is unsuccessful, no event will be created".
 * Once the application releases what it holds, the context is destroyed:
 * its destructor callback runs before clReleaseContext returns.
 */
#include <stdbool.h>

#include "check.h"

enum call { READ, WRITE, MAP, SVM_MEMCPY, SVM_MAP, CALLS };
static const char *const names[CALLS] = {"read", "write", "map",
                                         "SVM memcpy", "SVM map"};

static int gone;

static void CL_CALLBACK context_gone(cl_context context, void *data)
{
    (void)context;
    (void)data;
    gone++;
}

/* Enqueues @p call, blocking, behind @p failed; @return its result, the
 * event it handed back in @p event. */
static cl_int enqueue(enum call call, cl_command_queue queue, cl_mem buffer,
                      char *svm, cl_event failed, cl_event *event)
{
    char host[64] = {0};
    cl_int err = 1;
    void *mapped;
    switch (call) {
    case READ:
        return clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof(host),
                                   host, 1, &failed, event);
    case WRITE:
        return clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, sizeof(host),
                                    host, 1, &failed, event);
    case MAP:
        mapped = clEnqueueMapBuffer(queue, buffer, CL_TRUE, CL_MAP_READ, 0,
                                    sizeof(host), 1, &failed, event, &err);
        /* "Otherwise [unsuccessful], it returns a NULL pointer". */
        CHECK(mapped == NULL);
        return err;
    case SVM_MEMCPY:
        return clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm, sizeof(host), 1,
                                  &failed, event);
    case SVM_MAP:
        return clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, sizeof(host),
                               1, &failed, event);
    default:
        return CL_INVALID_VALUE;
    }
}

static void test_call(cl_device_id device, enum call call)
{
    cl_int err = 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clSetContextDestructorCallback(context, context_gone, NULL),
             CL_SUCCESS);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem buffer = test_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    char *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
    CHECK(svm != NULL);
    cl_event failed = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(failed, -1), CL_SUCCESS);

    cl_event event = NULL;
    cl_int result = enqueue(call, queue, buffer, svm, failed, &event);
    if (result != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || event)
        fprintf(stderr, "blocking %s behind a failed event\n", names[call]);
    CHECK_EQ(result, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(event == NULL);
    /* The failed event is held by nothing but the application now. */
    cl_uint refs = 0;
    CHECK_EQ(clGetEventInfo(failed, CL_EVENT_REFERENCE_COUNT, sizeof(refs),
                            &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 1);

    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(failed), CL_SUCCESS);
    clSVMFree(context, svm);
    CHECK_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    int before = gone;
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(gone, before + 1);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    if (!test_first_device(&platform, &device))
        return 1;
    for (int call = 0; call < CALLS; call++)
        test_call(device, (enum call)call);
    return TEST_RESULT();
}
