/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icd/reasons: why a call failed, in its REFCL_TRACE line
 * (docs/tracing.md "Reasons"). The program traces itself into a file of its
 * own (handles numbered, REFCL_TRACE_ADDRESSES=0) and compares each call's
 * line, read back as soon as the call returns, with the exact line
 * expected: failures of different kinds (a bad handle, NULL and not, a bad
 * param_name, bad flags, a bad size, with and without errcode_ret) end in
 * their reason; a successful call ends at its result, and so does a call
 * right after a failure (a reason never leaks into the next line).
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static char trace_path[64];

/* The last line of the trace, without its newline. */
static const char *last_line(void)
{
    static char text[1 << 16];
    FILE *f = fopen(trace_path, "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    while (n > 0 && text[n - 1] == '\n')
        text[--n] = '\0';
    const char *start = strrchr(text, '\n');
    return start ? start + 1 : text; /* valid until the next call */
}

#define CHECK_LINE(expected) CHECK_STR(last_line(), expected)

int main(void)
{
    snprintf(trace_path, sizeof(trace_path), "reasons-%ld.trace",
             (long)getpid());
    /* Read on refcl's first call, which comes after this. */
    setenv("REFCL_TRACE", trace_path, 1);
    setenv("REFCL_TRACE_ADDRESSES", "0", 1);
    unsetenv("REFCL_JOURNAL");

    cl_platform_id platform;
    cl_device_id device;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);

    /* A bad param_name. */
    size_t size = 0;
    CHECK_EQ(clGetDeviceInfo(device, 0x7FFF, 0, NULL, &size),
             CL_INVALID_VALUE);
    CHECK_LINE("clGetDeviceInfo(device=device#1, param_name=0x7FFF, "
               "param_value_size=0, param_value=NULL, "
               "param_value_size_ret=ptr) = CL_INVALID_VALUE (param_name "
               "0x7FFF: \"if param_name is not one of the supported "
               "values\")");

    /* Success after a failure: no reason, none left over. */
    cl_uint units = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                             sizeof(units), &units, NULL),
             CL_SUCCESS);
    CHECK_LINE("clGetDeviceInfo(device=device#1, "
               "param_name=CL_DEVICE_MAX_COMPUTE_UNITS, param_value_size=4, "
               "param_value=ptr, param_value_size_ret=NULL) = CL_SUCCESS");

    /* A value too small for the answer. */
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &units,
                             NULL),
             CL_INVALID_VALUE);
    CHECK_LINE("clGetDeviceInfo(device=device#1, "
               "param_name=CL_DEVICE_MAX_COMPUTE_UNITS, param_value_size=2, "
               "param_value=ptr, param_value_size_ret=NULL) = "
               "CL_INVALID_VALUE (param_value_size 2 < 4: \"if size in "
               "bytes specified by param_value_size is < size of return "
               "type\")");

    /* A NULL handle (a loader refuses it itself), and a live handle of
     * another type: the trace shows it as the argument showed it. */
    if (!getenv("REFCL_TEST_LOADER")) {
        cl_uint count = 0;
        CHECK_EQ(clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, sizeof(count),
                                  &count, NULL),
                 CL_INVALID_CONTEXT);
        CHECK_LINE("clGetContextInfo(context=NULL, "
                   "param_name=CL_CONTEXT_NUM_DEVICES, param_value_size=4, "
                   "param_value=ptr, param_value_size_ret=NULL) = "
                   "CL_INVALID_CONTEXT (NULL: not a live cl_context)");
    }
    CHECK_EQ(clRetainContext((cl_context)device), CL_INVALID_CONTEXT);
    CHECK_LINE("clRetainContext(context=context#2) = CL_INVALID_CONTEXT "
               "(context#2: not a live cl_context)");

    /* A NULL result right after a failure: nothing carried over. */
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuch") ==
          NULL);
    CHECK_LINE("clGetExtensionFunctionAddressForPlatform(platform=platform#1, "
               "func_name=\"clNoSuch\") = NULL");

    /* Bad flags and a bad size, with errcode_ret and without. */
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                                64, NULL, &err);
    CHECK(mem == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK_LINE("clCreateBuffer(context=context#1, "
               "flags=CL_MEM_READ_WRITE|CL_MEM_READ_ONLY, size=64, "
               "host_ptr=NULL, errcode_ret=ptr) = NULL "
               "(errcode_ret=CL_INVALID_VALUE) (flags 0x5: \"if values "
               "specified in flags are not valid\")");
    CHECK(clCreateBuffer(context, 0, 0, NULL, NULL) == NULL);
    CHECK_LINE("clCreateBuffer(context=context#1, flags=0, size=0, "
               "host_ptr=NULL, errcode_ret=NULL) = NULL "
               "(CL_INVALID_BUFFER_SIZE) (size 0: \"if size is zero\")");
    mem = clCreateBuffer(context, 0, 64, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_LINE("clCreateBuffer(context=context#1, flags=0, size=64, "
               "host_ptr=NULL, errcode_ret=ptr) = mem#1 "
               "(errcode_ret=CL_SUCCESS)");

    /* event/: a status neither CL_COMPLETE nor negative. (clWaitForEvents
     * with no events never gets past the loaders, which need an event to
     * find the driver.) */
    cl_event user = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clSetUserEventStatus(user, CL_RUNNING), CL_INVALID_VALUE);
    CHECK_LINE("clSetUserEventStatus(event=event#1, execution_status=1) = "
               "CL_INVALID_VALUE (execution_status 1: \"if the "
               "execution_status is not CL_COMPLETE or a negative integer "
               "value\")");
    CHECK_EQ(clReleaseEvent(user), CL_SUCCESS);

    /* queue/: a property name no queue has. */
    const cl_queue_properties bad_property[] = {0x7777, 1, 0};
    CHECK(clCreateCommandQueueWithProperties(context, device, bad_property,
                                             &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK_LINE("clCreateCommandQueueWithProperties(context=context#1, "
               "device=device#1, properties=ptr, errcode_ret=ptr) = NULL "
               "(errcode_ret=CL_INVALID_VALUE) (property 0x7777: \"if values "
               "specified in properties are not valid\")");

    /* kernel/: an argument index past the kernel's 3. */
    cl_program program = clCreateProgramWithBuiltInKernels(
        context, 1, &device, "refcl_saxpy_float", &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_kernel kernel = clCreateKernel(program, "refcl_saxpy_float", &err);
    CHECK_EQ(err, CL_SUCCESS);
    float a = 2.0f;
    CHECK_EQ(clSetKernelArg(kernel, 3, sizeof(a), &a), CL_INVALID_ARG_INDEX);
    CHECK_LINE("clSetKernelArg(kernel=kernel#1, arg_index=3, arg_size=4, "
               "arg_value=ptr) = CL_INVALID_ARG_INDEX (arg_index 3 of 3: \"if "
               "arg_index is not a valid argument index\")");
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);

    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    if (!test_failures)
        unlink(trace_path);
    return TEST_RESULT();
}
