/* SPDX-License-Identifier: Apache-2.0 */
/*
 * queue/queue: clCreateCommandQueue and clCreateCommandQueueWithProperties
 * (valid and invalid properties, on root and sub-devices),
 * clGetCommandQueueInfo, reference counts, clSetCommandQueueProperty,
 * clSetDefaultDeviceCommandQueue, clFlush, clFinish, the loader's dispatch
 * data and bad handles. Runs on a synthetic 4-unit machine
 * (CMakeLists.txt) so that every host can make sub-devices.
 */
#include <stdint.h>

#include "check.h"

#define OOO CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
#define PROFILING CL_QUEUE_PROFILING_ENABLE

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;

static cl_uint queue_refcount(cl_command_queue queue)
{
    cl_uint count = 0;
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT,
                                   sizeof(count), &count, NULL),
             CL_SUCCESS);
    return count;
}

static cl_uint context_refcount(cl_context c)
{
    cl_uint count = 0;
    CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(count),
                              &count, NULL),
             CL_SUCCESS);
    return count;
}

static cl_command_queue_properties queue_properties(cl_command_queue queue)
{
    cl_command_queue_properties value = 0;
    size_t size = 0;
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(value),
                                   &value, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(value));
    return value;
}

/* CL_QUEUE_PROPERTIES_ARRAY is @p expected (@p count entries). */
static void check_array(cl_command_queue queue,
                        const cl_queue_properties *expected, size_t count)
{
    cl_queue_properties got[8];
    size_t size = 99;
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY,
                                   sizeof(got), got, &size),
             CL_SUCCESS);
    CHECK_EQ(size, count * sizeof(cl_queue_properties));
    CHECK(size == 0 || memcmp(got, expected, size) == 0);
}

/* A queue made, then a marker run through it. */
static void check_works(cl_command_queue queue)
{
    cl_event event = NULL;
    CHECK_EQ(clEnqueueMarkerWithWaitList(queue, 0, NULL, &event), CL_SUCCESS);
    CHECK_EQ(clFlush(queue), CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cl_int status = 99;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_COMPLETE);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
}

static void check_legacy_properties(void)
{
    const cl_command_queue_properties valid[] = {0, OOO, PROFILING,
                                                 OOO | PROFILING};
    for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
        cl_int err = 1;
        cl_command_queue queue =
            clCreateCommandQueue(context, device, valid[i], &err);
        CHECK_EQ(err, CL_SUCCESS);
        CHECK_EQ(queue_properties(queue), valid[i]);
        check_array(queue, NULL, 0); /* not made from a list */
        check_works(queue);
        CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    }
    /* errcode_ret may be NULL. */
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, NULL);
    CHECK(queue != NULL);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);

    /* "Only command-queue properties specified in this table can be used,
     * otherwise the value specified in properties is considered to be not
     * valid". */
    const cl_command_queue_properties invalid[] = {
        CL_QUEUE_ON_DEVICE, CL_QUEUE_ON_DEVICE | OOO,
        CL_QUEUE_ON_DEVICE_DEFAULT, (cl_command_queue_properties)1 << 10,
        (cl_command_queue_properties)-1};
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
        cl_int err = 1;
        CHECK(clCreateCommandQueue(context, device, invalid[i], &err) == NULL);
        CHECK_EQ(err, CL_INVALID_VALUE);
    }
}

static void check_valid_list(const cl_queue_properties *list, size_t count,
                             cl_command_queue_properties expected)
{
    cl_int err = 1;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, list, &err);
    CHECK_EQ(err, CL_SUCCESS);
    if (!queue)
        return;
    CHECK_EQ(queue_properties(queue), expected);
    /* "the values specified in the properties argument in the same order
     * and without including additional properties"; NULL: size 0. */
    check_array(queue, list, count);
    check_works(queue);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

static void check_property_lists(void)
{
    check_valid_list(NULL, 0, 0);
    check_valid_list((cl_queue_properties[]){0}, 1, 0);
    check_valid_list((cl_queue_properties[]){CL_QUEUE_PROPERTIES, 0, 0}, 3,
                     0);
    check_valid_list((cl_queue_properties[]){CL_QUEUE_PROPERTIES, OOO, 0}, 3,
                     OOO);
    check_valid_list(
        (cl_queue_properties[]){CL_QUEUE_PROPERTIES, OOO | PROFILING, 0}, 3,
        OOO | PROFILING);

    const cl_queue_properties on_device = CL_QUEUE_ON_DEVICE | OOO;
    const struct {
        cl_queue_properties list[6];
        cl_int expected;
    } bad[] = {
        /* The CTS's invalid list. */
        {{(cl_queue_properties)-1, (cl_queue_properties)-1, 0},
         CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0},
         CL_INVALID_VALUE},
        {{0x1096 /* CL_QUEUE_PRIORITY_KHR: not offered */, 1, 0},
         CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 10, 0},
         CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | OOO, 0},
         CL_INVALID_VALUE},
        {{CL_QUEUE_SIZE, 1024, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, OOO, CL_QUEUE_SIZE, 1024, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, on_device, CL_QUEUE_SIZE, 1, CL_QUEUE_SIZE, 1},
         CL_INVALID_VALUE},
        /* Valid on-device queues, which the device does not support. */
        {{CL_QUEUE_PROPERTIES, on_device, 0}, CL_INVALID_QUEUE_PROPERTIES},
        {{CL_QUEUE_PROPERTIES, on_device | CL_QUEUE_ON_DEVICE_DEFAULT, 0},
         CL_INVALID_QUEUE_PROPERTIES},
        {{CL_QUEUE_PROPERTIES, on_device | PROFILING, CL_QUEUE_SIZE, 1024, 0},
         CL_INVALID_QUEUE_PROPERTIES},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cl_int err = 1;
        cl_command_queue queue = clCreateCommandQueueWithProperties(
            context, device, bad[i].list, &err);
        CHECK(queue == NULL);
        if (err != bad[i].expected)
            fprintf(stderr, "property list %zu:\n", i);
        CHECK_EQ(err, bad[i].expected);
    }
}

/* Context first, then device, then properties. */
static void check_targets(cl_device_id outsider)
{
    cl_context released =
        clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
    CHECK_EQ(clReleaseContext(released), CL_SUCCESS);
    cl_context bad_contexts[] = {released, (cl_context)device,
                                 (cl_context)platform};
    for (size_t i = 0; i < 3; i++) {
        cl_int err = 1;
        CHECK(clCreateCommandQueue(bad_contexts[i], device, CL_QUEUE_ON_DEVICE,
                                   &err) == NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
        CHECK(clCreateCommandQueueWithProperties(bad_contexts[i], device, NULL,
                                                 &err) == NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
    }
    cl_device_id bad_devices[] = {NULL, (cl_device_id)context, outsider};
    for (size_t i = 0; i < 3; i++) {
        cl_int err = 1;
        CHECK(clCreateCommandQueue(context, bad_devices[i], CL_QUEUE_ON_DEVICE,
                                   &err) == NULL);
        CHECK_EQ(err, CL_INVALID_DEVICE);
        CHECK(clCreateCommandQueueWithProperties(context, bad_devices[i], NULL,
                                                 &err) == NULL);
        CHECK_EQ(err, CL_INVALID_DEVICE);
    }
    if (!test_through_loader()) {
        cl_int err = 1;
        CHECK(clCreateCommandQueue(NULL, device, 0, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
        CHECK(clCreateCommandQueue(test_zeroed_handle(), device, 0, &err) ==
              NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
        CHECK(clCreateCommandQueue(context, test_unmapped_handle(), 0, &err) ==
              NULL);
        CHECK_EQ(err, CL_INVALID_DEVICE);
    }
}

static void check_info(void)
{
    cl_int err;
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, PROFILING, 0};
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, list, &err);
    cl_context c = NULL;
    cl_device_id d = NULL;
    cl_command_queue dflt = (cl_command_queue)1;
    size_t size = 0;
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(c), &c,
                                   &size),
             CL_SUCCESS);
    CHECK(c == context);
    CHECK_EQ(size, sizeof(c));
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(d), &d,
                                   &size),
             CL_SUCCESS);
    CHECK(d == device);
    /* No on-device queue, so no default one. */
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT,
                                   sizeof(dflt), &dflt, &size),
             CL_SUCCESS);
    CHECK(dflt == NULL);
    CHECK_EQ(size, sizeof(dflt));
    /* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid
     * command-queue for param_name": a host queue has no size. */
    cl_uint qsize = 7;
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof(qsize),
                                   &qsize, NULL),
             CL_INVALID_COMMAND_QUEUE);
    CHECK_EQ(qsize, 7);

    /* The two-call protocol. */
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL,
                                   &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(list));
    cl_queue_properties got[3] = {7, 7, 7};
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY,
                                   sizeof(got) - 1, got, &size),
             CL_INVALID_VALUE);
    CHECK_EQ(got[0], 7);
    cl_uint refs = 7;
    CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, 0, &refs,
                                   NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(refs, 7);
    CHECK_EQ(clGetCommandQueueInfo(queue, (cl_command_queue_info)-1,
                                   sizeof(refs), &refs, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetCommandQueueInfo(queue, 0x1097, sizeof(refs), &refs, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

/* The queue holds its context; retain and release count. */
static void check_refcounts(void)
{
    cl_int err;
    cl_uint before = context_refcount(context);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(context_refcount(context), before + 1);
    CHECK_EQ(queue_refcount(queue), 1);
    CHECK_EQ(clRetainCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(queue_refcount(queue), 2);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(queue_refcount(queue), 1);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(context_refcount(context), before);
}

static void check_set_property(cl_command_queue queue)
{
    cl_command_queue_properties old = 7;
    /* "Support for modifying the properties of a command-queue is required
     * only for OpenCL 1.0 devices". */
    CHECK_EQ(clSetCommandQueueProperty(queue, PROFILING, CL_TRUE, &old),
             CL_INVALID_OPERATION);
    CHECK_EQ(clSetCommandQueueProperty(queue, OOO, CL_FALSE, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(old, 7);
    CHECK_EQ(clSetCommandQueueProperty(queue, (cl_command_queue_properties)-1,
                                       CL_TRUE, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetCommandQueueProperty(queue, CL_QUEUE_ON_DEVICE, CL_TRUE,
                                       NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(queue_properties(queue), 0);
}

static void check_default_device_queue(cl_command_queue queue,
                                       cl_device_id sub_device)
{
    CHECK_EQ(clSetDefaultDeviceCommandQueue(context, device, queue),
             CL_INVALID_OPERATION);
    CHECK_EQ(clSetDefaultDeviceCommandQueue((cl_context)device, device, queue),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clSetDefaultDeviceCommandQueue(context, (cl_device_id)context,
                                            queue),
             CL_INVALID_DEVICE);
    CHECK_EQ(clSetDefaultDeviceCommandQueue(context, sub_device, queue),
             CL_INVALID_DEVICE); /* not in the context */
    /* The device has no on-device queues: no queue can be valid for it,
     * so the device's own answer comes whatever the queue. */
    CHECK_EQ(clSetDefaultDeviceCommandQueue(context, device,
                                            (cl_command_queue)context),
             CL_INVALID_OPERATION);
    if (!test_through_loader()) {
        CHECK_EQ(clSetDefaultDeviceCommandQueue(NULL, device, queue),
                 CL_INVALID_CONTEXT);
        CHECK_EQ(clSetDefaultDeviceCommandQueue(context, NULL, queue),
                 CL_INVALID_DEVICE);
        CHECK_EQ(clSetDefaultDeviceCommandQueue(context, device, NULL),
                 CL_INVALID_OPERATION); /* OpenCL-CTS consistency_device_enqueue */
    }
}

/* "device must be a device or sub-device associated with context". */
static void check_sub_devices(cl_device_id *subs)
{
    cl_device_id mix[2] = {subs[0], device};
    cl_int err = 1;
    cl_context both = clCreateContext(NULL, 2, mix, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    for (int i = 0; i < 2; i++) {
        cl_command_queue queue =
            clCreateCommandQueue(both, mix[i], OOO | PROFILING, &err);
        CHECK_EQ(err, CL_SUCCESS);
        cl_device_id d = NULL;
        CHECK_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(d), &d,
                                       NULL),
                 CL_SUCCESS);
        CHECK(d == mix[i]);
        check_works(queue);
        /* The queue holds its sub-device. */
        cl_uint refs = 0;
        CHECK_EQ(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT,
                                 sizeof(refs), &refs, NULL),
                 CL_SUCCESS);
        CHECK_EQ(refs, i == 0 ? 3 : 2); /* application, context (, queue) */
        CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    }
    /* A sub-device of the context's device is not the context's. */
    CHECK(clCreateCommandQueue(both, subs[1], 0, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    CHECK_EQ(clReleaseContext(both), CL_SUCCESS);
}

/* The queue carries its context's dispatch data (cl_khr_icd 2.0). */
static void check_disp_data(cl_command_queue queue)
{
    CHECK(test_object_word(queue, 0) == test_object_word(context, 0));
    CHECK(test_object_word(queue, 1) == test_object_word(context, 1));
}

static void check_bad_queues(void)
{
    cl_int err;
    cl_command_queue released = clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(clReleaseCommandQueue(released), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, released, context, device);
    for (int i = 0; i < count; i++) {
        cl_uint refs = 7;
        cl_event event = NULL;
        CHECK_EQ(clGetCommandQueueInfo(bad[i], CL_QUEUE_REFERENCE_COUNT,
                                       sizeof(refs), &refs, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(refs, 7);
        CHECK_EQ(clRetainCommandQueue(bad[i]), CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clReleaseCommandQueue(bad[i]), CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clFlush(bad[i]), CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clFinish(bad[i]), CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clSetCommandQueueProperty(bad[i], PROFILING, CL_TRUE, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueMarkerWithWaitList(bad[i], 0, NULL, &event),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueBarrierWithWaitList(bad[i], 0, NULL, &event),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueMarker(bad[i], &event), CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueBarrier(bad[i]), CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueWaitForEvents(bad[i], 0, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK(event == NULL);
    }
}

int main(void)
{
    if (!test_first_device(&platform, &device))
        return 1;
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subs[4];
    cl_uint count = 0;
    CHECK_EQ(clCreateSubDevices(device, equally, 4, subs, &count), CL_SUCCESS);
    CHECK_EQ(count, 4);
    if (count != 4)
        return TEST_RESULT();
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);

    check_legacy_properties();
    check_property_lists();
    check_targets(subs[0]);
    check_info();
    check_refcounts();
    check_set_property(queue);
    check_default_device_queue(queue, subs[0]);
    check_sub_devices(subs);
    check_disp_data(queue);
    check_bad_queues();

    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    for (cl_uint i = 0; i < count; i++)
        CHECK_EQ(clReleaseDevice(subs[i]), CL_SUCCESS);
    return TEST_RESULT();
}
