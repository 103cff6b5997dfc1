/*
 * A device's compute units at work (refcl/workers.h). For now every piece
 * runs on the calling thread, in order; workers bound to the device's
 * processing units replace this (issue 12) without changing the interface.
 */
#include "refcl/workers.h"

void refcl_device_run(struct _cl_device_id *device, size_t count,
                      refcl_piece_fn fn, void *arg)
{
    (void)device;
    for (size_t i = 0; i < count; i++)
        fn(arg, i);
}
