/* SPDX-License-Identifier: Apache-2.0 */
/*
 * platform/info: platform enumeration and every clGetPlatformInfo query:
 * exact values, both halves of the two-call size query, and every error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define CL_PLATFORM_UNLOADABLE_KHR_ 0x0921

static cl_platform_id platform;

static void check_string(cl_platform_info param, const char *expected)
{
    size_t size = 0;
    char value[256];
    CHECK_EQ(clGetPlatformInfo(platform, param, 0, NULL, &size), CL_SUCCESS);
    CHECK_EQ(size, strlen(expected) + 1);
    memset(value, 0x7f, sizeof(value));
    size_t size_again = 0;
    CHECK_EQ(clGetPlatformInfo(platform, param, sizeof(value), value,
                               &size_again),
             CL_SUCCESS);
    CHECK_EQ(size_again, size);
    CHECK_STR(value, expected);

    /* One byte short: CL_INVALID_VALUE, buffer and size untouched. */
    char small[256];
    memset(small, 0x7f, sizeof(small));
    size_t untouched = 12345;
    CHECK_EQ(clGetPlatformInfo(platform, param, size - 1, small, &untouched),
             CL_INVALID_VALUE);
    CHECK_EQ(untouched, 12345);
    CHECK_EQ(small[0], 0x7f);
    /* Exact size, no size output. */
    CHECK_EQ(clGetPlatformInfo(platform, param, size, small, NULL),
             CL_SUCCESS);
    CHECK_STR(small, expected);
}

static void check_enumeration(void)
{
    cl_uint count = 0;
    CHECK_EQ(clGetPlatformIDs(0, NULL, &count), CL_SUCCESS);
    CHECK_EQ(count, 1);
    cl_platform_id again[2] = {NULL, NULL};
    CHECK_EQ(clGetPlatformIDs(2, again, NULL), CL_SUCCESS);
    CHECK(again[0] == platform);
    CHECK(again[1] == NULL);
    /* CL_INVALID_VALUE: zero entries with a list, or nowhere to write. */
    CHECK_EQ(clGetPlatformIDs(0, again, NULL), CL_INVALID_VALUE);
    CHECK_EQ(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

static void check_values(void)
{
    /* REFCL_TEST_PROFILE (tests/CMakeLists.txt): FULL where refcl finds
     * the compiler. */
    const char *profile = getenv("REFCL_TEST_PROFILE");
    check_string(CL_PLATFORM_PROFILE, profile && !strcmp(profile, "FULL")
                                          ? "FULL_PROFILE"
                                          : "EMBEDDED_PROFILE");
    check_string(CL_PLATFORM_NAME, "refcl");
    check_string(CL_PLATFORM_VENDOR, "refcl");
    check_string(CL_PLATFORM_EXTENSIONS, "cl_khr_icd");
    check_string(CL_PLATFORM_ICD_SUFFIX_KHR, "REFCL");
    check_string(CL_PLATFORM_VERSION, "OpenCL 3.0 refcl " REFCL_TEST_VERSION);

    cl_version version = 0;
    size_t size = 0;
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION,
                               sizeof(version), &version, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_version));
    CHECK_EQ(version, CL_MAKE_VERSION(3, 0, 0));

    cl_name_version ext[4];
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                               sizeof(ext), ext, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_name_version));
    CHECK_STR(ext[0].name, "cl_khr_icd");
    CHECK_EQ(ext[0].version, CL_MAKE_VERSION(2, 0, 0));
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                               sizeof(cl_name_version) - 1, ext, NULL),
             CL_INVALID_VALUE);

    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    cl_ulong resolution = 0;
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION,
                               sizeof(resolution), &resolution, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_ulong));
    CHECK_EQ(resolution, (cl_ulong)res.tv_sec * 1000000000u + res.tv_nsec);
    CHECK(resolution > 0);
}

static void check_errors(void)
{
    char buf[64];
    size_t size = 777;
    /* "CL_INVALID_VALUE if param_name is not one of the supported values":
     * cl_khr_icd_unloadable is not advertised, so its query is unknown. */
    const cl_platform_info unknown[] = {0, 0x08FF, 0x091F,
                                        CL_PLATFORM_UNLOADABLE_KHR_, 0xFFFF};
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        CHECK_EQ(clGetPlatformInfo(platform, unknown[i], sizeof(buf), buf,
                                   &size),
                 CL_INVALID_VALUE);
        CHECK_EQ(size, 777);
    }

    /* Handles refcl never handed out. The loader reads handle->dispatch,
     * so through it only handles with a readable dispatch pointer go. */
    static _Alignas(256) void *fake[32];
    memcpy(fake, platform, 2 * sizeof(void *));
    CHECK_EQ(clGetPlatformInfo((cl_platform_id)fake, CL_PLATFORM_NAME,
                               sizeof(buf), buf, NULL),
             CL_INVALID_PLATFORM);
    cl_device_id device;
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetPlatformInfo((cl_platform_id)device, CL_PLATFORM_NAME,
                               sizeof(buf), buf, NULL),
             CL_INVALID_PLATFORM);
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    CHECK_EQ(clUnloadPlatformCompiler((cl_platform_id)device),
             CL_INVALID_PLATFORM);
    clIcdGetPlatformIDsKHR_fn icd_get_platforms =
        (clIcdGetPlatformIDsKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clIcdGetPlatformIDsKHR");
    CHECK(icd_get_platforms != NULL);
    if (icd_get_platforms) {
        cl_platform_id listed = NULL;
        CHECK_EQ(icd_get_platforms(0, NULL, NULL), CL_INVALID_VALUE);
        CHECK_EQ(icd_get_platforms(0, &listed, NULL), CL_INVALID_VALUE);
        CHECK_EQ(icd_get_platforms(1, &listed, NULL), CL_SUCCESS);
        CHECK(listed == platform);
    }
    if (test_through_loader())
        return;

    CHECK_EQ(clGetPlatformInfo(test_zeroed_handle(), CL_PLATFORM_NAME,
                               sizeof(buf), buf, NULL),
             CL_INVALID_PLATFORM);
    CHECK_EQ(clGetPlatformInfo(test_unmapped_handle(), CL_PLATFORM_NAME,
                               sizeof(buf), buf, NULL),
             CL_INVALID_PLATFORM);
    CHECK_EQ(clGetPlatformInfo((cl_platform_id)((char *)platform + 8),
                               CL_PLATFORM_NAME, sizeof(buf), buf, NULL),
             CL_INVALID_PLATFORM);
    /* Directly, NULL means refcl's default platform. */
    CHECK_EQ(clGetPlatformInfo(NULL, CL_PLATFORM_NAME, sizeof(buf), buf,
                               NULL),
             CL_SUCCESS);
    CHECK_STR(buf, "refcl");
}

int main(void)
{
    cl_uint count = 0;
    if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count != 1) {
        fprintf(stderr, "no refcl platform (count %u)\n", count);
        return 1;
    }
    check_enumeration();
    check_values();
    check_errors();
    return TEST_RESULT();
}
