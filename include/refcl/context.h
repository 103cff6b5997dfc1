/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's contexts: a set of devices (root or sub-devices of one platform),
 * the properties they were created with, and the error-notification and
 * destructor callbacks of the application.
 */
#ifndef REFCL_CONTEXT_H
#define REFCL_CONTEXT_H

#include "refcl/object.h"

/** The application's error callback (clCreateContext's pfn_notify). */
typedef void(CL_CALLBACK *refcl_notify_fn)(const char *errinfo,
                                           const void *private_info,
                                           size_t cb, void *user_data);

struct refcl_destructor; /* one registered destructor callback */

struct _cl_context {
    struct refcl_object obj;        /**< obj.parent: the platform */
    cl_uint num_devices;
    cl_device_id *devices;          /**< unique, in the order given; retained */
    cl_context_properties *properties; /**< as given, 0-terminated, or NULL */
    size_t properties_len;          /**< entries, terminator included */
    refcl_notify_fn notify;
    void *notify_data;
    /** Destructor callbacks, most recently registered first (lock-free). */
    struct refcl_destructor *_Atomic destructors;
};
REFCL_OBJECT_LAYOUT(REFCL_CONTEXT, struct _cl_context);

/** One reference less on @p context, which the caller holds, destroyed
 *  with the last: clReleaseContext without the handle check, for refcl's
 *  own references (queues, events, memory objects, programs). */
void refcl_context_release(struct _cl_context *context);

/**
 * Reports an error to an application's pfn_notify, if it gave one, as a
 * printf-style message of at most 255 bytes. A failed call is reported at
 * the entry boundary (refcl/notify.h); this is for errors no call returns,
 * through refcl_context_notify (a kernel's fault).
 */
void refcl_notify(refcl_notify_fn notify, void *user_data, const char *format,
                  ...) __attribute__((format(printf, 3, 4)));

/** The index of @p device in @p context's devices, or -1 if it is not one
 *  of them. */
long refcl_context_device_index(const struct _cl_context *context,
                                const struct _cl_device_id *device);

static inline bool refcl_context_has_device(const struct _cl_context *context,
                                            const struct _cl_device_id *device)
{
    return refcl_context_device_index(context, device) >= 0;
}

/** refcl_notify through @p context's callback. */
#define refcl_context_notify(context, ...) \
    refcl_notify((context)->notify, (context)->notify_data, __VA_ARGS__)

#endif /* REFCL_CONTEXT_H */
