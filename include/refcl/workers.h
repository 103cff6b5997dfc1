/*
 * Work spread over a device's compute units: what a command that can be cut
 * into independent pieces (a large copy, the work-groups of an ND-range)
 * calls from its queue's worker thread.
 */
#ifndef REFCL_WORKERS_H
#define REFCL_WORKERS_H

#include <stddef.h>

#include "refcl/device.h"

/** One piece of a command's work: piece @p index of the command @p arg. */
typedef void (*refcl_piece_fn)(void *arg, size_t index);

/**
 * Runs @p fn(@p arg, i) for every i in [0, @p count), spread over the
 * compute units of @p device, and returns once every piece has returned.
 * Pieces may run concurrently and in any order. Called from a queue's
 * worker thread, with no lock held.
 */
void refcl_device_run(struct _cl_device_id *device, size_t count,
                      refcl_piece_fn fn, void *arg);

#endif /* REFCL_WORKERS_H */
