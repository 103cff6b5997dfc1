/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clEnqueueNativeKernel: a C function of the application, run as a
 * command on the queue's worker thread, which is bound to the processing
 * units of the queue's device (device/workers.c).
 *
 * "The data pointed to by args and cb_args bytes in size will be copied
 * and a pointer to this copied region will be passed to user_func": the
 * copy is made at enqueue, and in it the memory object handles at the
 * positions args_mem_loc gives are replaced by the host addresses of the
 * buffers of mem_list, which the command holds until it is done.
 */
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/event.h"
#include "refcl/exec.h"
#include "refcl/memory.h"
#include "refcl/queue.h"

struct native_command {
    void(CL_CALLBACK *fn)(void *);
    void *args;            /* the copy, or NULL */
    cl_uint num_mems;
    struct _cl_mem **mems; /* held; NULL entries stand for NULL */
    size_t *at;            /* where in args each one's address goes */
};

/* The CL_INVALID_VALUE rules of the arguments' shape. */
static cl_int shape_check(void(CL_CALLBACK *user_func)(void *),
                          const void *args, size_t cb_args,
                          cl_uint num_mem_objects, const cl_mem *mem_list,
                          const void **args_mem_loc)
{
    bool lists = mem_list && args_mem_loc;
    bool no_lists = !mem_list && !args_mem_loc;
    if (!user_func)
        return REFCL_FAIL(CL_INVALID_VALUE, "user_func NULL: \"if user_func "
                          "is NULL\"");
    if (!args && cb_args)
        return REFCL_FAIL(CL_INVALID_VALUE, "cb_args %zu: \"if args is a "
                          "NULL value and cb_args > 0\"", cb_args);
    if (!args && num_mem_objects)
        return REFCL_FAIL(CL_INVALID_VALUE, "num_mem_objects %u: \"if args "
                          "is a NULL value and num_mem_objects > 0\"",
                          num_mem_objects);
    if (args && !cb_args)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if args is not NULL and "
                          "cb_args is 0\"");
    if (num_mem_objects && !lists)
        return REFCL_FAIL(CL_INVALID_VALUE, "num_mem_objects %u: \"if "
                          "num_mem_objects > 0 and mem_list or args_mem_loc "
                          "are NULL\"", num_mem_objects);
    if (!num_mem_objects && !no_lists)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if num_mem_objects = 0 and "
                          "mem_list or args_mem_loc are not NULL\"");
    return CL_SUCCESS;
}

/* Each args_mem_loc entry is one of "appropriate locations that args
 * points to": a handle's place inside the args block. refcl refuses one
 * outside it with CL_INVALID_VALUE rather than write outside its copy.
 * CL_INVALID_MEM_OBJECT "if one or more memory objects specified in
 * mem_list are not valid or are not buffer objects" (NULL entries are
 * allowed: "or NULL"); a buffer of another context is not valid here. */
static cl_int mems_check(const struct _cl_context *context, const void *args,
                         size_t cb_args, cl_uint num_mem_objects,
                         const cl_mem *mem_list, const void **args_mem_loc)
{
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        uintptr_t at = (uintptr_t)args_mem_loc[i] - (uintptr_t)args;
        if ((uintptr_t)args_mem_loc[i] < (uintptr_t)args ||
            cb_args < sizeof(void *) || at > cb_args - sizeof(void *))
            return REFCL_FAIL(CL_INVALID_VALUE, "args_mem_loc[%u] not a "
                              "handle's place inside the %zu bytes of args",
                              i, cb_args);
    }
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        cl_int status = mem_list[i]
                            ? refcl_kernel_buffer_check(context, mem_list[i])
                            : CL_SUCCESS;
        if (status != CL_SUCCESS)
            return status;
    }
    return CL_SUCCESS;
}

static void command_free(struct native_command *c)
{
    for (cl_uint i = 0; i < c->num_mems; i++)
        if (c->mems[i])
            refcl_mem_release(c->mems[i]);
    free(c);
}

/* The command, its copy of args and its lists in one allocation, the
 * buffers held and their addresses written into the copy: the storage of
 * a buffer is allocated by its first use, here, where a failure can still
 * be reported. */
static cl_int command_make(void(CL_CALLBACK *user_func)(void *),
                           const void *args, size_t cb_args, cl_uint num_mems,
                           const cl_mem *mem_list, const void **args_mem_loc,
                           struct native_command **out)
{
    size_t lists = num_mems * (sizeof(struct _cl_mem *) + sizeof(size_t));
    size_t head = sizeof(struct native_command) + lists;
    /* The copy last, aligned as malloc aligns: the function may read any
     * type from it. */
    size_t align = _Alignof(max_align_t);
    size_t at_args = (head + align - 1) / align * align;
    struct native_command *c = NULL;
    if (cb_args > SIZE_MAX - at_args || !(c = malloc(at_args + cb_args)))
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command "
                          "and its %zu bytes of args", cb_args);
    c->fn = user_func;
    c->num_mems = num_mems;
    c->mems = (struct _cl_mem **)(c + 1);
    c->at = (size_t *)(c->mems + num_mems);
    c->args = cb_args ? (char *)c + at_args : NULL;
    if (cb_args)
        memcpy(c->args, args, cb_args);
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < num_mems; i++) {
        c->mems[i] = mem_list[i];
        c->at[i] = (size_t)((uintptr_t)args_mem_loc[i] - (uintptr_t)args);
        if (c->mems[i])
            refcl_mem_retain(c->mems[i]);
    }
    /* "Before the user function is executed, the memory object handles are
     * replaced by pointers to global memory": the addresses do not change
     * while the command holds the buffers. */
    for (cl_uint i = 0; i < num_mems; i++) {
        void *address = NULL;
        if (c->mems[i] && !(address = refcl_mem_address(c->mems[i])))
            status = REFCL_FAIL(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                "mem_list[%u]: \"if there is a failure to "
                                "allocate memory for data store associated "
                                "with buffer objects specified as arguments "
                                "to kernel\"", i);
        memcpy((char *)c->args + c->at[i], &address, sizeof(address));
    }
    if (status != CL_SUCCESS) {
        command_free(c);
        return status;
    }
    *out = c;
    return CL_SUCCESS;
}

static cl_int native_run(void *payload, struct _cl_command_queue *queue)
{
    (void)queue;
    struct native_command *c = payload;
    c->fn(c->args);
    return CL_COMPLETE;
}

static void native_release(void *payload)
{
    command_free(payload);
}

static const struct refcl_command_ops native_ops = {
    .run = native_run, .release = native_release};

cl_int CL_API_CALL refcl_clEnqueueNativeKernel(
    cl_command_queue queue, void(CL_CALLBACK *user_func)(void *), void *args,
    size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
    const void **args_mem_loc, cl_uint num_events, const cl_event *wait_list,
    cl_event *event)
{
    /* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
     * command-queue". */
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    cl_int status = shape_check(user_func, args, cb_args, num_mem_objects,
                                mem_list, args_mem_loc);
    /* Every refcl device lists CL_EXEC_NATIVE_KERNEL
     * (REFCL_EXEC_CAPABILITIES). */
    if (status == CL_SUCCESS && !(REFCL_EXEC_CAPABILITIES &
                                  CL_EXEC_NATIVE_KERNEL))
        status = REFCL_FAIL(CL_INVALID_OPERATION, "\"if the device "
                            "associated with command_queue cannot execute "
                            "the native kernel\"");
    if (status == CL_SUCCESS)
        status = mems_check(queue->context, args, cb_args, num_mem_objects,
                            mem_list, args_mem_loc);
    /* CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT "if context
     * associated with command_queue and events in event_wait_list are not
     * the same". */
    if (status == CL_SUCCESS)
        status = refcl_wait_list_check(queue->context, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;
    struct native_command *c = NULL;
    status = command_make(user_func, args, cb_args, num_mem_objects, mem_list,
                          args_mem_loc, &c);
    if (status != CL_SUCCESS)
        return status;
    struct refcl_command command = {
        .type = CL_COMMAND_NATIVE_KERNEL,
        .num_events = num_events,
        .wait_list = wait_list,
        .ops = &native_ops,
        .payload = c,
    };
    return refcl_executor_enqueue(queue, &command, event);
}
