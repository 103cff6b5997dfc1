/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Failed calls reported to the context's pfn_notify (docs/tracing.md,
 * "Reasons in pfn_notify"): one message per failed call, naming the entry
 * point, the code and the reason, for calls given a context, a queue, a
 * memory object, a program, a kernel or an event of it; none for a
 * success, none for a call without a context or to another context; a
 * context's creation through its own pfn_notify; a callback that calls
 * OpenCL, failing calls included.
 */
#include "check.h"

#include <pthread.h>

/* What one pfn_notify heard. */
struct heard {
    pthread_mutex_t lock;
    int count;
    char last[1024];
};

static void CL_CALLBACK on_error(const char *errinfo, const void *private_info,
                                 size_t cb, void *user_data)
{
    struct heard *h = user_data;
    (void)private_info;
    (void)cb;
    pthread_mutex_lock(&h->lock);
    h->count++;
    snprintf(h->last, sizeof(h->last), "%s", errinfo);
    pthread_mutex_unlock(&h->lock);
}

static struct heard heard = {PTHREAD_MUTEX_INITIALIZER, 0, ""};
static struct heard other = {PTHREAD_MUTEX_INITIALIZER, 0, ""};

/* One message more since @p before, and it is @p expected. */
#define CHECK_HEARD(h, before, expected)                                     \
    do {                                                                     \
        CHECK_EQ((h)->count, (before) + 1);                                  \
        CHECK_STR((h)->last, expected);                                      \
    } while (0)

/* One message more since @p before, starting with @p prefix and going on
 * with a reason after it. */
#define CHECK_HEARD_PREFIX(h, before, prefix)                                \
    do {                                                                     \
        CHECK_EQ((h)->count, (before) + 1);                                  \
        if (strncmp((h)->last, prefix, strlen(prefix)) != 0 ||               \
            strlen((h)->last) <= strlen(prefix)) {                           \
            fprintf(stderr, "%s:%d: heard \"%s\", expected \"%s...\"\n",     \
                    __FILE__, __LINE__, (h)->last, prefix);                  \
            test_failures++;                                                 \
        }                                                                    \
    } while (0)

static cl_device_id device;
static cl_context context;

/* A call given the context itself. */
static void check_context_calls(void)
{
    int n = heard.count;
    cl_int err = 1;
    CHECK(!clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64,
                          NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK_HEARD(&heard, n, "clCreateBuffer: CL_INVALID_VALUE: flags 0x5: "
                           "\"if values specified in flags are not valid\"");

    /* Without errcode_ret, the code is still named. */
    n = heard.count;
    CHECK(!clCreateBuffer(context, 0, 0, NULL, NULL));
    CHECK_HEARD(&heard, n, "clCreateBuffer: CL_INVALID_BUFFER_SIZE: size 0: "
                           "\"if size is zero\"");

    n = heard.count;
    cl_uint value;
    CHECK_EQ(clGetContextInfo(context, 0x7FFF, sizeof(value), &value, NULL),
             CL_INVALID_VALUE);
    CHECK_HEARD_PREFIX(&heard, n, "clGetContextInfo: CL_INVALID_VALUE: ");
}

static void check_queue_and_mem_calls(cl_command_queue queue, cl_mem buffer)
{
    char data[16] = {0};
    int n = heard.count;
    CHECK_EQ(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 4096, 16, data, 0,
                                  NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_HEARD(&heard, n,
                "clEnqueueWriteBuffer: CL_INVALID_VALUE: offset 4096, size 16 "
                "of 4096 bytes: \"if the region being read or written "
                "specified by offset and size is out of bounds\"");

    n = heard.count;
    cl_uint value;
    CHECK_EQ(clGetCommandQueueInfo(queue, 0x7FFF, sizeof(value), &value,
                                   NULL),
             CL_INVALID_VALUE);
    CHECK_HEARD_PREFIX(&heard, n, "clGetCommandQueueInfo: CL_INVALID_VALUE: ");

    n = heard.count;
    size_t size;
    CHECK_EQ(clGetMemObjectInfo(buffer, CL_MEM_SIZE, 1, &size, NULL),
             CL_INVALID_VALUE);
    CHECK_HEARD_PREFIX(&heard, n, "clGetMemObjectInfo: CL_INVALID_VALUE: ");

    /* The first live handle names the context: here the buffers, after a
     * queue argument that is not a queue. */
    n = heard.count;
    cl_command_queue not_a_queue = (cl_command_queue)buffer;
    CHECK_EQ(clEnqueueCopyBuffer(not_a_queue, buffer, buffer, 0, 16, 16, 0,
                                 NULL, NULL),
             CL_INVALID_COMMAND_QUEUE);
    CHECK_HEARD_PREFIX(&heard, n, "clEnqueueCopyBuffer: "
                                  "CL_INVALID_COMMAND_QUEUE: 0x");
    const char *tail = ": not a live cl_command_queue";
    size_t length = strlen(heard.last);
    CHECK(length > strlen(tail) &&
          strcmp(heard.last + length - strlen(tail), tail) == 0);
}

static void check_program_and_kernel_calls(void)
{
    cl_int err = 1;
    int n = heard.count;
    CHECK(!clCreateProgramWithSource(context, 0, NULL, NULL, &err));
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK_HEARD_PREFIX(&heard, n, "clCreateProgramWithSource: "
                                  "CL_INVALID_VALUE: ");

    cl_program program = clCreateProgramWithBuiltInKernels(
        context, 1, &device, "refcl_fill_uchar", &err);
    CHECK_EQ(err, CL_SUCCESS);
    n = heard.count;
    cl_uint value;
    CHECK_EQ(clGetProgramInfo(program, 0x7FFF, sizeof(value), &value, NULL),
             CL_INVALID_VALUE);
    CHECK_HEARD_PREFIX(&heard, n, "clGetProgramInfo: CL_INVALID_VALUE: ");

    n = heard.count;
    CHECK(!clCreateKernel(program, "no_such_kernel", &err));
    CHECK_EQ(err, CL_INVALID_KERNEL_NAME);
    CHECK_HEARD_PREFIX(&heard, n, "clCreateKernel: CL_INVALID_KERNEL_NAME: ");

    cl_kernel kernel = clCreateKernel(program, "refcl_fill_uchar", &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_uint args = 0;
    CHECK_EQ(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(args), &args,
                             NULL),
             CL_SUCCESS);
    n = heard.count;
    cl_int zero = 0;
    CHECK_EQ(clSetKernelArg(kernel, 99, sizeof(zero), &zero),
             CL_INVALID_ARG_INDEX);
    char expected[256];
    snprintf(expected, sizeof(expected),
             "clSetKernelArg: CL_INVALID_ARG_INDEX: arg_index 99 of %u: \"if "
             "arg_index is not a valid argument index\"", args);
    CHECK_HEARD(&heard, n, expected);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

static void check_event_calls(void)
{
    cl_int err = 1;
    cl_event event = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    int n = heard.count;
    CHECK_EQ(clSetUserEventStatus(event, 5), CL_INVALID_VALUE);
    CHECK_HEARD(&heard, n, "clSetUserEventStatus: CL_INVALID_VALUE: "
                           "execution_status 5: \"if the execution_status is "
                           "not CL_COMPLETE or a negative integer value\"");

    /* clWaitForEvents has no handle but its list: the first event's. */
    n = heard.count;
    CHECK_EQ(clSetUserEventStatus(event, -1), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_HEARD_PREFIX(
        &heard, n,
        "clWaitForEvents: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST");
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
}

/* Calls that succeed, and failures without this context, say nothing
 * here. */
static void check_silence(cl_command_queue queue, cl_mem buffer)
{
    int n = heard.count;
    cl_uint value;
    size_t size;
    char data[16];
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT,
                              sizeof(value), &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof(size), &size,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof(data),
                                 data, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(device, 0x7FFF, 0, NULL, NULL),
             CL_INVALID_VALUE);  /* no context */

    cl_int err = 1;
    cl_context plain = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clGetContextInfo(plain, 0x7FFF, 0, NULL, NULL),
             CL_INVALID_VALUE);  /* a context without a callback */

    cl_context second = clCreateContext(NULL, 1, &device, on_error, &other,
                                        &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clGetContextInfo(second, 0x7FFF, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_HEARD_PREFIX(&other, 0, "clGetContextInfo: CL_INVALID_VALUE: ");
    CHECK_EQ(heard.count, n);
    CHECK_EQ(clReleaseContext(second), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(plain), CL_SUCCESS);
    CHECK_EQ(other.count, 1);
}

/* The errors of creating a context go to the pfn_notify it was given. */
static void check_creation(cl_platform_id platform)
{
    struct heard created = {PTHREAD_MUTEX_INITIALIZER, 0, ""};
    cl_int err = 1;
    const cl_context_properties bad[] = {0x7FFF, 1, 0};
    CHECK(!clCreateContext(bad, 1, &device, on_error, &created, &err));
    CHECK_EQ(err, CL_INVALID_PROPERTY);
    CHECK_HEARD(&created, 0, "clCreateContext: CL_INVALID_PROPERTY: property "
                             "0x7FFF: \"if context property name in "
                             "properties is not a supported property "
                             "name\"");

    /* Without errcode_ret too. */
    const cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};
    CHECK(!clCreateContext(sync, 1, &device, on_error, &created, NULL));
    CHECK_HEARD(&created, 1, "clCreateContext: CL_INVALID_PROPERTY: "
                             "CL_CONTEXT_INTEROP_USER_SYNC 7: \"if the value "
                             "specified for a supported property name is not "
                             "valid\"");

    const cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    CHECK(!clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, on_error,
                                   &created, &err));
    CHECK_EQ(err, CL_DEVICE_NOT_FOUND);
    CHECK_EQ(created.count, 3);
    CHECK(strncmp(created.last, "clCreateContextFromType: "
                                "CL_DEVICE_NOT_FOUND",
                  strlen("clCreateContextFromType: CL_DEVICE_NOT_FOUND")) ==
          0);

    /* A context that is created reports nothing. */
    cl_context made = clCreateContext(NULL, 1, &device, on_error, &created,
                                      &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clReleaseContext(made), CL_SUCCESS);
    CHECK_EQ(created.count, 3);
}

/* A callback may call OpenCL, on the context it reports for: refcl holds
 * no lock. Its own failures are not reported (they could recur forever),
 * and the failed call it reports keeps its result. */
static int reentered;
static cl_int inner_result;

static void CL_CALLBACK on_error_calling(const char *errinfo,
                                         const void *private_info, size_t cb,
                                         void *user_data)
{
    cl_context self = *(cl_context *)user_data;
    cl_uint count = 0;
    (void)errinfo;
    (void)private_info;
    (void)cb;
    reentered++;
    clGetContextInfo(self, CL_CONTEXT_REFERENCE_COUNT, sizeof(count), &count,
                     NULL);
    inner_result = clGetContextInfo(self, 0x7FFF, 0, NULL, NULL);
}

static void check_reentry(void)
{
    static cl_context self;
    cl_int err = 1;
    self = clCreateContext(NULL, 1, &device, on_error_calling, &self, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clGetContextInfo(self, 0x7FFE, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_EQ(reentered, 1);
    CHECK_EQ(inner_result, CL_INVALID_VALUE);
    CHECK_EQ(clReleaseContext(self), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err = 1;
    context = clCreateContext(NULL, 1, &device, on_error, &heard, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, NULL,
                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(heard.count, 0);

    check_context_calls();
    check_queue_and_mem_calls(queue, buffer);
    check_program_and_kernel_calls();
    check_event_calls();
    check_silence(queue, buffer);
    check_creation(platform);
    check_reentry();

    int n = heard.count;
    CHECK_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(heard.count, n);
    return TEST_RESULT();
}
