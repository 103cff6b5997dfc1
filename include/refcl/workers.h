/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Work on a device's compute units: the threads that run commands, where
 * they run, and the spreading of a command that can be cut into
 * independent pieces (a large copy, the work-groups of an ND-range) over
 * every compute unit of its queue's device.
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
 * Pieces may run concurrently and in any order: on the calling thread and
 * on the device's team, one thread bound to each of its processing units
 * but one, started by the device's first call with more than one piece.
 * Called from a queue's worker thread, with no lock held; several queues
 * of one device may call it at once.
 */
void refcl_device_run(struct _cl_device_id *device, size_t count,
                      refcl_piece_fn fn, void *arg);

/**
 * Binds the calling thread to @p units, a device's processing units, and
 * its memory to their NUMA nodes when they are not all of the machine's,
 * unless REFCL_BIND=0. A queue's worker calls it as it starts. Binding that fails,
 * or cannot be done because the hwloc topology is not this machine
 * (HWLOC_SYNTHETIC, XML), is reported once on stderr; the thread then runs
 * where the system puts it.
 */
void refcl_thread_bind(hwloc_const_cpuset_t units);

/**
 * Stops and joins @p device's team, if it has one (the device is being
 * freed). No piece of the device can be running: a running command holds
 * its queue, which holds its device. The team's threads wait for nothing
 * but work, so any thread, a queue's worker included, may join them.
 */
void refcl_device_team_destroy(struct _cl_device_id *device);

/** Stops and joins every team left (library unload, after the queues'
 *  workers, whose commands use the teams, have been joined). */
void refcl_teams_teardown(void);

#endif /* REFCL_WORKERS_H */
