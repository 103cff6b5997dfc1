/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icd/trace-*: the program tests/icd/trace.sh traces (REFCL_TRACE).
 *
 *   trace_app calls    a fixed sequence of calls, the same through any
 *                      loader or directly (the golden trace-app.golden);
 *                      it starts with clUnloadPlatformCompiler, which no
 *                      loader calls on its own, so the trace splits there
 *                      into the loader's start-up and the application.
 *   trace_app threads  THREADS threads making CALLS calls each at once.
 *   trace_app slot     where refcl's dispatch table slot of clGetDeviceInfo
 *                      and the ICD2 lookup of it point, as offsets into
 *                      librefcl (trace.sh names them with nm).
 *   trace_app reload <librefcl>
 *                      loads, uses and unloads refcl ROUNDS times, as a
 *                      loader would; no file descriptor may stay open.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define THREADS 8
#define CALLS 250
#define ROUNDS 5

typedef void *(*get_address_fn)(const char *);
typedef void *(*get_function_fn)(cl_platform_id, const char *);

static cl_platform_id platform;
static cl_device_id device;

static void CL_CALLBACK context_destroyed(cl_context context, void *data)
{
    (void)context;
    (void)data;
}

static void platform_calls(void)
{
    char name[64];
    size_t size = 0;
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name,
                               NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetPlatformInfo(platform, 0x7FFF, 0, NULL, &size),
             CL_INVALID_VALUE);
}

static void device_calls(void)
{
    cl_uint count = 0;
    cl_device_id none = NULL;
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU,
                            0, NULL, &count),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, &count),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &none, NULL),
             CL_DEVICE_NOT_FOUND);

    cl_device_type type;
    cl_platform_id owner;
    size_t size;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type,
                             NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(owner), &owner,
                             &size),
             CL_SUCCESS);
    /* Zero compute units a sub-device: invalid on any device. */
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    CHECK_EQ(clCreateSubDevices(device, equally, 0, NULL, &count),
             CL_INVALID_VALUE);
    CHECK_EQ(clRetainDevice(device), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(device), CL_SUCCESS);
}

static void context_calls(void)
{
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_int err = CL_INVALID_VALUE;
    cl_context context =
        clCreateContext(properties, 1, &device, NULL, NULL, &err);
    CHECK(context != NULL);
    CHECK_EQ(err, CL_SUCCESS);
    if (!context)
        return;
    cl_uint devices = 0;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES,
                              sizeof(devices), &devices, NULL),
             CL_SUCCESS);
    CHECK_EQ(clSetContextDestructorCallback(context, context_destroyed, NULL),
             CL_SUCCESS);
    CHECK_EQ(clRetainContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);

    CHECK(clCreateContextFromType(properties, CL_DEVICE_TYPE_GPU, NULL, NULL,
                                  &err) == NULL);
    CHECK_EQ(err, CL_DEVICE_NOT_FOUND);
}

static void calls(void)
{
    platform_calls();
    device_calls();
    context_calls();
    CHECK(clGetExtensionFunctionAddressForPlatform(
              platform, "clIcdSetPlatformDispatchDataKHR") != NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuch") ==
          NULL);
}

static void *thread_calls(void *unused)
{
    (void)unused;
    for (int i = 0; i < CALLS; i++) {
        char name[256];
        size_t size;
        CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name,
                                 &size),
                 CL_SUCCESS);
    }
    return NULL;
}

static void threads(void)
{
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL),
             CL_SUCCESS);
    pthread_t thread[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ(pthread_create(&thread[i], NULL, thread_calls, NULL), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(thread[i], NULL);
}

/* An address inside librefcl as an offset from the library's start, which
 * is what nm lists for its (hidden) functions. */
static void print_offset(const char *what, void *address)
{
    Dl_info info;
    if (!address || !dladdr(address, &info) || !info.dli_fbase) {
        printf("%s: not in a library\n", what);
        return;
    }
    printf("%s 0x%" PRIxPTR "\n", what,
           (uintptr_t)address - (uintptr_t)info.dli_fbase);
}

static void slot(void)
{
    /* An object's first word is its dispatch table, whose fourth slot is
     * clGetDeviceInfo (cl_icd.h). */
    void *const *slots = *(void *const *const *)platform;
    print_offset("slot", slots[3]);
    get_function_fn lookup = (get_function_fn)
        clGetExtensionFunctionAddressForPlatform(
            platform, "clIcdGetFunctionAddressForPlatformKHR");
    print_offset("lookup", lookup ? lookup(platform, "clGetDeviceInfo") : NULL);
}

/* The lowest free descriptor: higher once something leaked one. */
static int next_fd(void)
{
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0)
        close(fd);
    return fd;
}

static void reload(const char *path)
{
    int fd = next_fd();
    for (int round = 0; round < ROUNDS; round++) {
        void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        CHECK(library != NULL);
        if (!library)
            return;
        get_address_fn get_address =
            (get_address_fn)dlsym(library, "clGetExtensionFunctionAddress");
        clIcdGetPlatformIDsKHR_fn get_platforms =
            (clIcdGetPlatformIDsKHR_fn)get_address("clIcdGetPlatformIDsKHR");
        cl_uint count = 0;
        CHECK_EQ(get_platforms(0, NULL, &count), CL_SUCCESS);
        CHECK_EQ(dlclose(library), 0);
    }
    CHECK_EQ(next_fd(), fd);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "calls";
    if (!strcmp(mode, "reload") && argc > 2) {
        reload(argv[2]);
        return TEST_RESULT();
    }
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no refcl platform\n");
        return 1;
    }
    if (!strcmp(mode, "threads"))
        threads();
    else if (!strcmp(mode, "slot"))
        slot();
    else
        calls();
    return TEST_RESULT();
}
