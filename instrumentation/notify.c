/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Failed calls reported to the pfn_notify of their context (refcl/notify.h,
 * docs/tracing.md): the notifying twins (notify_wrappers.inc, one per entry
 * point) and what they call when a call failed.
 *
 * The twins run at the entry boundary, after the entry point returned:
 * refcl holds no lock of its own when a callback runs, so the callback may
 * call OpenCL.
 */
#include <stdio.h>

#include "refcl/error.h"
#include "refcl/notify.h"
#include "refcl/trace.h"

/* Longest message: the function, the code's name, a handle, a reason. */
#define MESSAGE_SIZE (128 + REFCL_REASON_SIZE)

/* True on a thread inside a pfn_notify refcl called: the failures of the
 * calls that callback makes are not reported, which could go on forever. */
static _Thread_local bool in_callback;

/* The context a live @p h belongs to: the first context up its parents (a
 * queue's, memory object's, program's, event's or sampler's parent is its
 * context or its queue; a kernel's, its program), or NULL. */
static struct _cl_context *context_of(const struct refcl_notify_handle *h)
{
    if (!refcl_object_valid(h->handle, h->type))
        return NULL;
    for (const struct refcl_object *obj = h->handle; obj; obj = obj->parent)
        if (refcl_slot_live(obj, REFCL_CONTEXT))
            return (struct _cl_context *)obj;
    return NULL;
}

/* "<function>: <code>: <reason>", the reason the calling thread kept if it
 * explains @p code (a refused handle first), else "<function>: <code>";
 * "<function>: failed" for a function without a code and no reason. */
static void message_format(char *message, const char *function, cl_int code)
{
    if (code == CL_SUCCESS) { /* no code, and no reason that gives one */
        snprintf(message, MESSAGE_SIZE, "%s: failed", function);
        return;
    }
    const char *name = refcl_trace_code_name(code);
    int n = name ? snprintf(message, MESSAGE_SIZE, "%s: %s", function, name)
                 : snprintf(message, MESSAGE_SIZE, "%s: %d", function, code);
    const struct refcl_reason *reason = refcl_reason_for(code);
    if (!reason || n < 0 || n >= MESSAGE_SIZE)
        return;
    char *end = message + n;
    size_t room = MESSAGE_SIZE - (size_t)n;
    if (reason->handle_type < 0)
        snprintf(end, room, ": %s", reason->text);
    else if (reason->handle)
        snprintf(end, room, ": %p: %s", reason->handle, reason->text);
    else
        snprintf(end, room, ": NULL: %s", reason->text);
}

/* Calls @p notify with the message; the calling thread's reason is put
 * back after it, for the tracing twin that prints it next. */
static void deliver(const char *function, cl_int code, refcl_notify_fn notify,
                    void *user_data)
{
    const struct refcl_reason *kept = refcl_reason_last();
    if (code == CL_SUCCESS && kept)
        code = kept->code;
    struct refcl_reason saved = kept ? *kept
                                     : (struct refcl_reason){.code =
                                                                 CL_SUCCESS};
    char message[MESSAGE_SIZE];
    message_format(message, function, code);
    in_callback = true;
    notify(message, NULL, 0, user_data);
    in_callback = false;
    refcl_reason_restore(&saved);
}

void refcl_notify_failed(const char *function, cl_int code,
                         const struct refcl_notify_handle *handles,
                         size_t count)
{
    if (in_callback)
        return;
    for (size_t i = 0; i < count; i++) {
        struct _cl_context *context = context_of(&handles[i]);
        if (context) {
            if (context->notify)
                deliver(function, code, context->notify,
                        context->notify_data);
            return;
        }
    }
}

void refcl_notify_creation_failed(const char *function, cl_int code,
                                  refcl_notify_fn notify, void *user_data)
{
    if (notify && !in_callback)
        deliver(function, code, notify, user_data);
}

#include "notify_wrappers.inc"
