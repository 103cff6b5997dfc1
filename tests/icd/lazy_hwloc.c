/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icd/lazy-hwloc: refcl maps hwloc's library only when the first device
 * query loads the topology, never to enumerate platforms, and when hwloc
 * cannot be loaded the device query fails cleanly with one message.
 *
 * The program does not link hwloc, so what /proc/self/maps shows of it is
 * what refcl mapped. icd/exports checks that librefcl does not name hwloc
 * as a dependency at all.
 *
 * With REFCL_TEST_EXPECT_NO_HWLOC set, LD_LIBRARY_PATH leads dlopen to a
 * REFCL_TEST_HWLOC_SONAME that is not hwloc (a file that is no library, or
 * a library without hwloc's functions): clGetDeviceIDs then returns
 * CL_OUT_OF_HOST_MEMORY, refcl says so once on stderr naming the library,
 * and the platform keeps working.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* True if a file whose name starts with hwloc's soname (the soname is a
 * link to e.g. libhwloc.so.15.6.2) is mapped into this process. */
static bool hwloc_mapped(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    CHECK(maps != NULL);
    if (!maps)
        return false;
    bool found = false;
    char line[4096];
    while (!found && fgets(line, sizeof(line), maps)) {
        const char *slash = strrchr(line, '/');
        found = slash && strncmp(slash + 1, REFCL_TEST_HWLOC_SONAME,
                                 strlen(REFCL_TEST_HWLOC_SONAME)) == 0;
    }
    fclose(maps);
    return found;
}

/* Enumeration, platform queries and device queries that need no device
 * leave hwloc unmapped. */
static cl_platform_id check_platform_without_hwloc(void)
{
    cl_platform_id platform = NULL;
    cl_uint count = 0;
    char name[64];
    CHECK(!hwloc_mapped());
    CHECK_EQ(clGetPlatformIDs(1, &platform, &count), CL_SUCCESS);
    CHECK_EQ(count, 1);
    CHECK(!hwloc_mapped());
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name,
                               NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, NULL, &count),
             CL_DEVICE_NOT_FOUND);
    CHECK(!hwloc_mapped());
    return platform;
}

static void check_loaded(cl_platform_id platform)
{
    cl_device_id device = NULL;
    cl_uint units = 0;
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL),
             CL_SUCCESS);
    CHECK(hwloc_mapped());
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                             sizeof(units), &units, NULL),
             CL_SUCCESS);
    CHECK(units > 0);
}

/* What clGetDeviceIDs writes on stderr, read back from a temporary file. */
static cl_int device_ids_quoting_stderr(cl_platform_id platform,
                                        char *said, size_t size)
{
    FILE *capture = tmpfile();
    int saved = dup(STDERR_FILENO);
    CHECK(capture != NULL && saved >= 0);
    if (!capture || saved < 0)
        return CL_SUCCESS;
    fflush(stderr);
    dup2(fileno(capture), STDERR_FILENO);
    cl_device_id device = NULL;
    cl_int status =
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(capture);
    size_t length = fread(said, 1, size - 1, capture);
    said[length] = '\0';
    fclose(capture);
    CHECK(device == NULL);
    return status;
}

static void check_unloadable(cl_platform_id platform)
{
    char said[1024];
    CHECK_EQ(device_ids_quoting_stderr(platform, said, sizeof(said)),
             CL_OUT_OF_HOST_MEMORY);
    fprintf(stderr, "refcl said: %s", said);
    /* One line, naming the library. */
    const char *newline = strchr(said, '\n');
    CHECK(newline != NULL && newline[1] == '\0');
    CHECK(strstr(said, REFCL_TEST_HWLOC_SONAME) != NULL);
    CHECK(!hwloc_mapped());

    /* Asking again fails the same, silently. */
    CHECK_EQ(device_ids_quoting_stderr(platform, said, sizeof(said)),
             CL_OUT_OF_HOST_MEMORY);
    CHECK_STR(said, "");
    char name[64];
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name,
                               NULL),
             CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform = check_platform_without_hwloc();
    if (!platform)
        return 1;
    if (getenv("REFCL_TEST_EXPECT_NO_HWLOC"))
        check_unloadable(platform);
    else
        check_loaded(platform);
    return TEST_RESULT();
}
