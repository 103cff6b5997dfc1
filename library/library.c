/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Library unload: give back everything refcl allocated, so that loading and
 * unloading refcl (dlopen/dlclose) leaks nothing.
 */
#include "refcl/device.h"
#include "refcl/memory.h"
#include "refcl/object.h"
#include "refcl/queue.h"
#include "refcl/server.h"
#include "refcl/workers.h"

__attribute__((destructor)) static void refcl_library_unload(void)
{
    /* Worker threads first: no refcl code may run once the library is
     * gone. */
    refcl_executors_teardown();
    /* Then the devices' teams, which those workers' commands used; before
     * the root devices go, and hwloc with them. */
    refcl_teams_teardown();
    refcl_svm_teardown();
    refcl_storage_teardown();
    refcl_root_devices_teardown();
    refcl_objects_teardown();
    /* The idle compiler processes end when their sockets close. */
    refcl_server_release_idle();
}
