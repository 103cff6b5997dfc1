/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icd/unload: load and unload refcl repeatedly with dlopen/dlclose, the way
 * a loader does (RTLD_LOCAL, entry points found through
 * clGetExtensionFunctionAddress), using it in between: platform, device
 * (and so the hwloc topology), a context, command-queues. Each round must
 * really unmap the library (its destructor gives everything back) and the
 * hwloc library it opened for the topology, and no thread may stay
 * behind. Leaks are judged by valgrind (scripts/test.sh) and LeakSanitizer.
 */
/* check.h first: it selects the OpenCL version and deprecated APIs. */
#include "check.h"

#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>

#define ROUNDS 20

typedef void *(*get_address_fn)(const char *);

/* Two queues, so two worker threads: one finished and released, joined
 * there and then; one released with a barrier pending behind a user event
 * that completes just before the library is unloaded, so that its worker
 * drops the last references and stops itself, to be joined by the unload
 * at the latest. */
static void use_queues(const struct _cl_icd_dispatch *table,
                       cl_context context, cl_device_id device)
{
    cl_int err = 1;
    cl_command_queue queue =
        table->clCreateCommandQueue(context, device, 0, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(table->clEnqueueMarkerWithWaitList(queue, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(table->clFinish(queue), CL_SUCCESS);
    CHECK_EQ(table->clReleaseCommandQueue(queue), CL_SUCCESS);

    queue = table->clCreateCommandQueue(context, device, 0, &err);
    cl_event user = table->clCreateUserEvent(context, &err);
    CHECK_EQ(table->clEnqueueBarrierWithWaitList(queue, 1, &user, NULL),
             CL_SUCCESS);
    CHECK_EQ(table->clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(table->clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(table->clReleaseEvent(user), CL_SUCCESS);
}

/* One round of what an application does through a loader. */
static void use(void *library)
{
    get_address_fn get_address =
        (get_address_fn)dlsym(library, "clGetExtensionFunctionAddress");
    CHECK(get_address != NULL);
    if (!get_address)
        return;
    clIcdGetPlatformIDsKHR_fn get_platforms =
        (clIcdGetPlatformIDsKHR_fn)get_address("clIcdGetPlatformIDsKHR");
    cl_platform_id platform = NULL;
    CHECK(get_platforms && get_platforms(1, &platform, NULL) == CL_SUCCESS);
    if (!platform)
        return;
    const struct _cl_icd_dispatch *table = *(void **)platform;
    cl_device_id device = NULL;
    CHECK_EQ(table->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device,
                                   NULL),
             CL_SUCCESS);
    cl_int err = 1;
    cl_context context =
        table->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    use_queues(table, context, device);
    CHECK_EQ(table->clReleaseContext(context), CL_SUCCESS);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : NULL;
    if (!path) {
        fprintf(stderr, "usage: unload <librefcl.so>\n");
        return 1;
    }
    int threads = test_thread_baseline();
    for (int round = 0; round < ROUNDS; round++) {
        void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        CHECK(library != NULL);
        if (!library) {
            fprintf(stderr, "%s\n", dlerror());
            break;
        }
        use(library);
        CHECK_EQ(dlclose(library), 0);
        /* Really gone: RTLD_NOLOAD finds no library left to reuse. */
        void *still = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        CHECK(still == NULL);
        if (still)
            dlclose(still);
        /* This program does not link hwloc: only refcl had it open. */
        void *hwloc = dlopen(REFCL_TEST_HWLOC_SONAME, RTLD_NOW | RTLD_NOLOAD);
        CHECK(hwloc == NULL);
        if (hwloc)
            dlclose(hwloc);
        CHECK_EQ(test_thread_count(), threads);
    }
    return TEST_RESULT();
}
