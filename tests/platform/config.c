/* SPDX-License-Identifier: Apache-2.0 */
/*
 * platform/config-*: refcl's environment configuration as an application
 * sees it. REFCL_TEST_CONFIG says which registration this is:
 *   many  REFCL_PLATFORMS=3 REFCL_PLATFORM_NAME=alpha,,gamma
 *         REFCL_ICD_SUFFIX=A,B: three platforms, each with its own device
 *   icd1  REFCL_ICD_VERSION=1: a classic cl_khr_icd 1.x driver
 *   instances  REFCL_INSTANCES names a file whose section for this library
 *         (two platforms "from-file" and "second", suffixes "" and RCX)
 *         overrides REFCL_PLATFORMS=3 and REFCL_PLATFORM_NAME=from-env; a
 *         section for another file name is ignored
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static void platform_string(cl_platform_id p, cl_platform_info param,
                            char *buf, size_t size)
{
    buf[0] = '\0';
    CHECK_EQ(clGetPlatformInfo(p, param, size, buf, NULL), CL_SUCCESS);
}

/* Index of the platform named @p name among @p names, or -1. */
static int find(char names[][64], cl_uint count, const char *name)
{
    for (cl_uint i = 0; i < count; i++)
        if (!strcmp(names[i], name))
            return (int)i;
    return -1;
}

static void check_many(void)
{
    cl_platform_id platforms[4];
    cl_uint count = 0;
    CHECK_EQ(clGetPlatformIDs(4, platforms, &count), CL_SUCCESS);
    CHECK_EQ(count, 3);
    if (count != 3)
        return;
    char names[3][64], suffixes[3][64];
    cl_device_id devices[3];
    for (cl_uint i = 0; i < 3; i++) {
        platform_string(platforms[i], CL_PLATFORM_NAME, names[i], 64);
        platform_string(platforms[i], CL_PLATFORM_ICD_SUFFIX_KHR, suffixes[i],
                        64);
        CHECK_EQ(clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1,
                                &devices[i], NULL),
                 CL_SUCCESS);
        cl_platform_id owner = NULL;
        CHECK_EQ(clGetDeviceInfo(devices[i], CL_DEVICE_PLATFORM,
                                 sizeof(owner), &owner, NULL),
                 CL_SUCCESS);
        CHECK(owner == platforms[i]);
    }
    /* Loaders may sort platforms: find each by name. */
    int alpha = find(names, 3, "alpha"), second = find(names, 3, "refcl 1"),
        gamma = find(names, 3, "gamma");
    CHECK(alpha >= 0 && second >= 0 && gamma >= 0);
    if (alpha < 0 || second < 0 || gamma < 0)
        return;
    CHECK_STR(suffixes[alpha], "A");
    CHECK_STR(suffixes[second], "B");
    CHECK_STR(suffixes[gamma], "REFCL");
    CHECK(devices[0] != devices[1] && devices[1] != devices[2] &&
          devices[0] != devices[2]);

    /* A context holds devices of one platform only. */
    cl_int err = 1;
    CHECK(clCreateContext(NULL, 2, devices, NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platforms[0], 0};
    CHECK(clCreateContext(props, 1, &devices[1], NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
}

static void check_icd1(void)
{
    cl_platform_id platform;
    CHECK_EQ(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    /* No tag: slot 0 (clGetPlatformIDs) holds a function. */
    void **table = *(void ***)platform;
    CHECK((intptr_t)table[0] != (intptr_t)0x4F50454E434C3331);
    CHECK(table[0] != NULL);
    CHECK(((void **)platform)[1] == NULL); /* no loader-managed data */
    cl_name_version ext[2];
    size_t size = 0;
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                               sizeof(ext), ext, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_name_version));
    CHECK_STR(ext[0].name, "cl_khr_icd");
    CHECK_EQ(ext[0].version, CL_MAKE_VERSION(1, 0, 0));
    /* The device lists the platform's extensions, at the same version. */
    cl_device_id device;
    cl_name_version device_ext[32];
    CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION,
                             sizeof(device_ext), device_ext, NULL),
             CL_SUCCESS);
    CHECK_STR(device_ext[0].name, "cl_khr_icd");
    CHECK_EQ(device_ext[0].version, CL_MAKE_VERSION(1, 0, 0));
    CHECK(clGetExtensionFunctionAddressForPlatform(
              platform, "clIcdGetFunctionAddressForPlatformKHR") == NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform(
              platform, "clIcdSetPlatformDispatchDataKHR") == NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform(
              platform, "clIcdGetPlatformIDsKHR") != NULL);
}

static void check_instances(void)
{
    cl_platform_id platforms[4];
    cl_uint count = 0;
    CHECK_EQ(clGetPlatformIDs(4, platforms, &count), CL_SUCCESS);
    CHECK_EQ(count, 2);
    if (count != 2)
        return;
    char names[2][64], suffixes[2][64];
    for (cl_uint i = 0; i < 2; i++) {
        platform_string(platforms[i], CL_PLATFORM_NAME, names[i], 64);
        platform_string(platforms[i], CL_PLATFORM_ICD_SUFFIX_KHR, suffixes[i],
                        64);
    }
    int first = find(names, 2, "from-file"), second = find(names, 2, "second");
    CHECK(first >= 0 && second >= 0);
    if (first < 0 || second < 0)
        return;
    /* "" is the empty suffix, which cl_khr_icd allows. */
    CHECK_STR(suffixes[first], "");
    CHECK_STR(suffixes[second], "RCX");
    size_t size = 0;
    CHECK_EQ(clGetPlatformInfo(platforms[first], CL_PLATFORM_ICD_SUFFIX_KHR, 0,
                               NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, 1);
}

int main(void)
{
    const char *config = getenv("REFCL_TEST_CONFIG");
    if (!config) {
        fprintf(stderr, "REFCL_TEST_CONFIG not set\n");
        return 1;
    }
    if (!strcmp(config, "many"))
        check_many();
    else if (!strcmp(config, "icd1"))
        check_icd1();
    else if (!strcmp(config, "instances"))
        check_instances();
    else
        CHECK(!"unknown REFCL_TEST_CONFIG");
    return TEST_RESULT();
}
