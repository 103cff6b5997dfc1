/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command-queues: clCreateCommandQueue[WithProperties], retain/release,
 * clGetCommandQueueInfo, clSetCommandQueueProperty,
 * clSetDefaultDeviceCommandQueue, clFlush and clFinish.
 *
 * refcl has host queues only: CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE and
 * CL_QUEUE_PROFILING_ENABLE are supported, on-device queues are valid
 * requests the device refuses (CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0).
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/info.h"
#include "refcl/queue.h"

#define HOST_PROPERTIES \
    (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
#define ALL_PROPERTIES \
    (HOST_PROPERTIES | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)

/* Creation's arguments, once validated. */
struct queue_request {
    cl_command_queue_properties properties;
    const cl_queue_properties *list; /* CL_QUEUE_PROPERTIES_ARRAY, or NULL */
    size_t list_len;                 /* entries, terminator included */
};

/* CL_INVALID_CONTEXT "if context is not a valid context"; CL_INVALID_DEVICE
 * "if device is not a valid device or is not associated with context". */
static cl_int target_check(cl_context context, cl_device_id device)
{
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_invalid_handle(context, REFCL_CONTEXT);
    if (!refcl_object_valid(device, REFCL_DEVICE))
        return refcl_invalid_handle(device, REFCL_DEVICE);
    if (!refcl_context_has_device(context, device))
        return REFCL_FAIL(CL_INVALID_DEVICE, "\"if device ... is not "
                          "associated with context\"");
    return CL_SUCCESS;
}

/* The CL_QUEUE_PROPERTIES bits of clCreateCommandQueueWithProperties;
 * breaking one of the rules of the table makes them "not valid". */
static cl_int bits_check(cl_command_queue_properties bits, bool sized)
{
    bool on_device = bits & CL_QUEUE_ON_DEVICE;
    if (bits & ~(cl_command_queue_properties)ALL_PROPERTIES)
        return REFCL_FAIL(CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES 0x%llX: "
                          "\"if values specified in properties are not "
                          "valid\"", (unsigned long long)bits);
    if (on_device && !(bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return REFCL_FAIL(CL_INVALID_VALUE, "\"If CL_QUEUE_ON_DEVICE is "
                          "set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE must "
                          "also be set\"");
    if (!on_device && (bits & CL_QUEUE_ON_DEVICE_DEFAULT))
        return REFCL_FAIL(CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE_DEFAULT "
                          "\"can only be used with CL_QUEUE_ON_DEVICE\"");
    if (!on_device && sized)
        return REFCL_FAIL(CL_INVALID_VALUE, "CL_QUEUE_SIZE \"can only be "
                          "specified if CL_QUEUE_ON_DEVICE is set\"");
    if (on_device)
        return REFCL_FAIL(CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_ON_DEVICE: "
                          "\"if values specified in properties are valid "
                          "but are not supported by the device\"");
    return CL_SUCCESS;
}

/* Unknown and repeated names are "not valid" values too. */
static cl_int properties_parse(const cl_queue_properties *list,
                               struct queue_request *req)
{
    bool seen_properties = false, sized = false;
    const cl_queue_properties *p = list;
    for (; p && p[0] != 0; p += 2) {
        switch (p[0]) {
        case CL_QUEUE_PROPERTIES:
            if (seen_properties)
                return REFCL_FAIL(CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES "
                                  "twice: \"if values specified in "
                                  "properties are not valid\"");
            seen_properties = true;
            req->properties = p[1];
            break;
        case CL_QUEUE_SIZE:
            if (sized)
                return REFCL_FAIL(CL_INVALID_VALUE, "CL_QUEUE_SIZE twice: "
                                  "\"if values specified in properties are "
                                  "not valid\"");
            sized = true;
            break;
        default:
            return REFCL_FAIL(CL_INVALID_VALUE, "property 0x%llX: \"if "
                              "values specified in properties are not "
                              "valid\"", (unsigned long long)p[0]);
        }
    }
    req->list = list;
    req->list_len = p ? (size_t)(p - list) + 1 : 0;
    return bits_check(req->properties, sized);
}

static void queue_destroy(struct refcl_object *obj)
{
    struct _cl_command_queue *queue = (struct _cl_command_queue *)obj;
    struct _cl_context *context = queue->context;
    bool handed_over =
        queue->executor && refcl_executor_destroy(queue->executor);
    refcl_device_release(queue->device);
    free(queue->properties_array);
    refcl_object_free(&queue->obj);
    if (!handed_over)
        refcl_context_release(context);
}

static cl_command_queue queue_create(cl_context context, cl_device_id device,
                                     const struct queue_request *req,
                                     cl_int *errcode_ret)
{
    struct _cl_command_queue *queue = refcl_object_alloc(
        REFCL_QUEUE, &context->obj, context->obj.platform, NULL);
    if (!queue)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                        "no memory for the queue"),
                             errcode_ret);
    refcl_object_retain(&context->obj);
    refcl_device_retain(device);
    queue->context = context;
    queue->device = device;
    queue->properties = req->properties;
    queue->executor = refcl_executor_create(queue);
    size_t bytes = req->list_len * sizeof(cl_queue_properties);
    queue->properties_array = bytes ? malloc(bytes) : NULL;
    if (!queue->executor || (bytes && !queue->properties_array)) {
        queue_destroy(&queue->obj);
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                        "no memory for the queue"),
                             errcode_ret);
    }
    if (bytes)
        memcpy(queue->properties_array, req->list, bytes);
    queue->properties_len = req->list_len;
    return refcl_errcode(queue, CL_SUCCESS, errcode_ret);
}

cl_command_queue CL_API_CALL refcl_clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret)
{
    struct queue_request req = {0, NULL, 0};
    cl_int status = target_check(context, device);
    if (status == CL_SUCCESS)
        status = properties_parse(properties, &req);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    return queue_create(context, device, &req, errcode_ret);
}

/* "Only command-queue properties specified in this table can be used,
 * otherwise the value specified in properties is considered to be not
 * valid": CL_QUEUE_ON_DEVICE is not in clCreateCommandQueue's table. Both
 * properties of the table are supported. */
cl_command_queue CL_API_CALL refcl_clCreateCommandQueue(
    cl_context context, cl_device_id device,
    cl_command_queue_properties properties, cl_int *errcode_ret)
{
    struct queue_request req = {properties, NULL, 0};
    cl_int status = target_check(context, device);
    if (status == CL_SUCCESS &&
        (properties & ~(cl_command_queue_properties)HOST_PROPERTIES))
        status = REFCL_FAIL(CL_INVALID_VALUE, "properties 0x%llX: \"if "
                            "values specified in properties are not valid\"",
                            (unsigned long long)properties);
    if (status != CL_SUCCESS)
        return refcl_errcode(NULL, status, errcode_ret);
    return queue_create(context, device, &req, errcode_ret);
}

/* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid
 * command-queue". */
cl_int CL_API_CALL refcl_clRetainCommandQueue(cl_command_queue queue)
{
    return refcl_handle_retain(queue, REFCL_QUEUE);
}

/* "After the command_queue reference count becomes zero and all commands
 * queued to command_queue have finished ..., the command-queue is deleted":
 * each pending command's event holds a reference on its queue, so the
 * last reference goes once the work is done. The "implicit flush" is
 * nothing to do: commands reach the worker as they are enqueued. */
void refcl_queue_release(struct _cl_command_queue *queue)
{
    if (refcl_object_release(&queue->obj))
        queue_destroy(&queue->obj);
}

cl_int CL_API_CALL refcl_clReleaseCommandQueue(cl_command_queue queue)
{
    return refcl_handle_release(queue, REFCL_QUEUE, queue_destroy);
}

cl_int CL_API_CALL refcl_clGetCommandQueueInfo(cl_command_queue queue,
                                               cl_command_queue_info param_name,
                                               size_t param_value_size,
                                               void *param_value,
                                               size_t *param_value_size_ret)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    static const cl_command_queue no_queue = NULL;
    const void *value;
    size_t size;
    cl_uint refcount;
    switch (param_name) {
    case CL_QUEUE_CONTEXT:
        value = &queue->context;
        size = sizeof(cl_context);
        break;
    case CL_QUEUE_DEVICE:
        value = &queue->device;
        size = sizeof(cl_device_id);
        break;
    case CL_QUEUE_REFERENCE_COUNT:
        refcount = refcl_object_refcount(&queue->obj);
        value = &refcount;
        size = sizeof(refcount);
        break;
    case CL_QUEUE_PROPERTIES:
        value = &queue->properties;
        size = sizeof(queue->properties);
        break;
    case CL_QUEUE_PROPERTIES_ARRAY:
        /* clCreateCommandQueue or a NULL list: "param_value_size_ret equal
         * to 0". */
        value = queue->properties_array;
        size = queue->properties_len * sizeof(cl_queue_properties);
        break;
    case CL_QUEUE_SIZE:
        /* A host queue has no size. */
        return REFCL_FAIL(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE: \"if "
                          "command_queue is not a valid command-queue for "
                          "param_name\"");
    case CL_QUEUE_DEVICE_DEFAULT:
        /* "the current default command-queue for the underlying device":
         * there is none without on-device queues. */
        value = &no_queue;
        size = sizeof(no_queue);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}

/* "Support for modifying the properties of a command-queue is required only
 * for OpenCL 1.0 devices". */
cl_int CL_API_CALL refcl_clSetCommandQueueProperty(
    cl_command_queue queue, cl_command_queue_properties properties,
    cl_bool enable, cl_command_queue_properties *old_properties)
{
    (void)enable;
    (void)old_properties; /* written on success only, which never comes */
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    if (properties & ~(cl_command_queue_properties)HOST_PROPERTIES)
        return REFCL_FAIL(CL_INVALID_VALUE, "properties 0x%llX: \"if values "
                          "specified in properties are not valid\"",
                          (unsigned long long)properties);
    return REFCL_FAIL(CL_INVALID_OPERATION, "\"if no devices in the context "
                      "associated with command_queue support modifying the "
                      "properties of a command-queue\"");
}

cl_int CL_API_CALL refcl_clSetDefaultDeviceCommandQueue(cl_context context,
                                                        cl_device_id device,
                                                        cl_command_queue queue)
{
    cl_int status = target_check(context, device);
    if (status != CL_SUCCESS)
        return status;
    /* No refcl device has on-device queues, so no command_queue can be one
     * for it, whatever it is (OpenCL-CTS test_api
     * consistency_device_enqueue passes NULL and wants this). */
    (void)queue;
    return REFCL_FAIL(CL_INVALID_OPERATION, "\"if device does not support a "
                      "replaceable default on-device queue\"");
}

/* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
 * command-queue". Commands are issued to the worker as they are enqueued:
 * the flush has nothing left to do. */
cl_int CL_API_CALL refcl_clFlush(cl_command_queue queue)
{
    return refcl_object_check(queue, REFCL_QUEUE);
}

/* "clFinish does not return until all previously queued commands in
 * command_queue have been processed and completed." */
cl_int CL_API_CALL refcl_clFinish(cl_command_queue queue)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    refcl_executor_finish(queue);
    return CL_SUCCESS;
}
