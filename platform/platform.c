/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's platform: enumeration (clIcdGetPlatformIDsKHR, clGetPlatformIDs)
 * and clGetPlatformInfo. Enumeration allocates the platform objects only;
 * the hwloc topology waits for the first device query.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "refcl/api.h"
#include "refcl/config.h"
#include "refcl/info.h"
#include "refcl/platform.h"
#include "refcl/version.h"

#define PLATFORM_VENDOR "refcl"
/* Without the compiler: the spec allows CL_DEVICE_COMPILER_AVAILABLE ==
 * CL_FALSE only for the embedded profile. */
#define FULL_PROFILE "FULL_PROFILE"
#define EMBEDDED_PROFILE "EMBEDDED_PROFILE"
#define PLATFORM_VERSION "OpenCL 3.0 refcl " REFCL_VERSION_STRING

/* Platform extensions; "must be supported by all devices associated with
 * this platform", so each is in the devices' lists too. cl_khr_icd is
 * 1.0.0 when refcl acts as a classic driver (REFCL_ICD_VERSION=1), and
 * missing under REFCL_FAULT=no-khr-icd; cl_refcl_call_journal is there
 * while journaling. */
static cl_name_version platform_extensions[REFCL_PLATFORM_EXTENSIONS_MAX];
static size_t platform_extension_count;
static char extensions_string[256];

static struct _cl_platform_id *platforms[REFCL_MAX_PLATFORMS];
/* Registered at load by api/dispatch.c, which has the entry points. */
static const struct _cl_icd_dispatch *(*dispatch_table)(void);
static cl_uint platform_count;
static cl_ulong host_timer_resolution;

static void extensions_init(const struct refcl_config *config)
{
    if (config->fault != REFCL_FAULT_NO_KHR_ICD) {
        cl_name_version icd = {CL_MAKE_VERSION(config->icd_version, 0, 0),
                               "cl_khr_icd"};
        platform_extensions[platform_extension_count++] = icd;
    }
    if (config->journal) {
        cl_name_version journal = {CL_REFCL_CALL_JOURNAL_EXTENSION_VERSION,
                                   CL_REFCL_CALL_JOURNAL_EXTENSION_NAME};
        platform_extensions[platform_extension_count++] = journal;
    }
    refcl_names_join(platform_extensions, platform_extension_count,
                     extensions_string, sizeof(extensions_string));
}

size_t refcl_platform_extensions(const cl_name_version **list)
{
    struct _cl_platform_id *const *platforms_list;
    refcl_platforms(&platforms_list);
    *list = platform_extensions;
    return platform_extension_count;
}

static void platforms_create(void)
{
    const struct refcl_config *config = refcl_config();
    extensions_init(config);
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
        host_timer_resolution =
            (cl_ulong)res.tv_sec * 1000000000u + (cl_ulong)res.tv_nsec;

    for (cl_uint i = 0; i < config->platforms; i++) {
        struct _cl_platform_id *p = refcl_object_alloc(
            REFCL_PLATFORM, NULL, NULL, dispatch_table());
        if (!p)
            return;
        p->obj.platform = p;
        p->index = i;
        p->name = config->names[i];
        p->icd_suffix = config->suffixes[i];
        platforms[platform_count++] = p;
    }
}

void refcl_platform_dispatch_register(
    const struct _cl_icd_dispatch *(*table)(void))
{
    dispatch_table = table;
}

cl_uint refcl_platforms(struct _cl_platform_id *const **list)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, platforms_create);
    *list = platforms;
    return platform_count;
}

struct _cl_platform_id *refcl_platform_resolve(cl_platform_id platform)
{
    if (platform == NULL) {
        struct _cl_platform_id *const *list;
        return refcl_platforms(&list) ? list[0] : NULL;
    }
    return refcl_object_valid(platform, REFCL_PLATFORM) ? platform : NULL;
}

/* cl_khr_icd: CL_INVALID_VALUE "if num_entries is equal to zero and
 * platforms is not NULL or if both num_platforms and platforms are NULL";
 * CL_PLATFORM_NOT_FOUND_KHR "if zero platforms are available". */
cl_int CL_API_CALL refcl_clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                cl_platform_id *out,
                                                cl_uint *num_platforms)
{
    if (num_entries == 0 && out)
        return REFCL_FAIL(CL_INVALID_VALUE, "num_entries 0: \"if num_entries "
                          "is equal to zero and platforms is not NULL\"");
    if (!out && !num_platforms)
        return REFCL_FAIL(CL_INVALID_VALUE, "\"if both num_platforms and "
                          "platforms are NULL\"");
    struct _cl_platform_id *const *list;
    cl_uint count = refcl_platforms(&list);
    switch (refcl_config()->fault) {
    case REFCL_FAULT_GET_PLATFORMS_FAILS:
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                          "REFCL_FAULT=get-platforms-fails");
    case REFCL_FAULT_ZERO_PLATFORMS: /* success, yet nothing: a driver bug */
        if (num_platforms)
            *num_platforms = 0;
        return CL_SUCCESS;
    default:
        break;
    }
    if (count == 0)
        return REFCL_FAIL(CL_PLATFORM_NOT_FOUND_KHR,
                          "\"if zero platforms are available\"");
    for (cl_uint i = 0; out && i < count && i < num_entries; i++)
        out[i] = list[i];
    if (num_platforms)
        *num_platforms = count;
    return CL_SUCCESS;
}

/* Only reached without a loader, or through an ICD2 loader's table. */
cl_int CL_API_CALL refcl_clGetPlatformIDs(cl_uint num_entries,
                                          cl_platform_id *platforms_out,
                                          cl_uint *num_platforms)
{
    return refcl_clIcdGetPlatformIDsKHR(num_entries, platforms_out,
                                        num_platforms);
}

static const struct refcl_compiler_hooks *compiler_hooks;

void refcl_platform_compiler_register(const struct refcl_compiler_hooks *hooks)
{
    compiler_hooks = hooks;
}

bool refcl_platform_full_profile(void)
{
    return compiler_hooks && compiler_hooks->installed();
}

const char *refcl_platform_driver_version(void)
{
    return compiler_hooks ? compiler_hooks->driver_version()
                          : REFCL_VERSION_STRING;
}

bool refcl_platform_reads_il(void)
{
    return compiler_hooks && compiler_hooks->reads_il();
}

void refcl_platform_compiler_unload(void)
{
    if (compiler_hooks)
        compiler_hooks->unload();
}

const char *refcl_platform_profile(void)
{
    return refcl_platform_full_profile() ? FULL_PROFILE : EMBEDDED_PROFILE;
}

cl_int CL_API_CALL refcl_clGetPlatformInfo(cl_platform_id platform,
                                           cl_platform_info param_name,
                                           size_t param_value_size,
                                           void *param_value,
                                           size_t *param_value_size_ret)
{
    /* CL_INVALID_PLATFORM "if platform is not a valid platform"; NULL picks
     * refcl's default platform (the spec leaves NULL to the implementation). */
    struct _cl_platform_id *p = refcl_platform_resolve(platform);
    if (!p)
        return refcl_invalid_handle(platform, REFCL_PLATFORM);

    /* Constant strings by value and size (sizeof counts the NUL): strlen
     * only for the configured ones. */
    const char *string = NULL;
    const void *value = NULL;
    size_t size = 0;
    cl_version numeric_version = CL_MAKE_VERSION(3, 0, 0);

    switch (param_name) {
    case CL_PLATFORM_PROFILE:
        string = refcl_platform_profile();
        break;
    case CL_PLATFORM_VERSION:
        value = PLATFORM_VERSION;
        size = sizeof(PLATFORM_VERSION);
        break;
    case CL_PLATFORM_NUMERIC_VERSION:
        value = &numeric_version;
        size = sizeof(numeric_version);
        break;
    case CL_PLATFORM_NAME:
        string = p->name;
        break;
    case CL_PLATFORM_VENDOR:
        value = PLATFORM_VENDOR;
        size = sizeof(PLATFORM_VENDOR);
        break;
    case CL_PLATFORM_EXTENSIONS:
        string = extensions_string;
        break;
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
        value = platform_extensions;
        size = platform_extension_count * sizeof(cl_name_version);
        break;
    case CL_PLATFORM_HOST_TIMER_RESOLUTION:
        value = &host_timer_resolution;
        size = sizeof(host_timer_resolution);
        break;
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        if (refcl_config()->fault == REFCL_FAULT_SUFFIX_FAILS)
            return REFCL_FAIL(CL_INVALID_VALUE, "REFCL_FAULT=suffix-fails");
        string = p->icd_suffix;
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    if (string)
        return refcl_info_string(string, param_value_size, param_value,
                                 param_value_size_ret);
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}


/* Deprecated 1.1 entry point: "always returns CL_SUCCESS". */
cl_int CL_API_CALL refcl_clUnloadCompiler(void)
{
    return CL_SUCCESS;
}

/* "Allows the implementation to release the resources allocated by the
 * OpenCL compiler for platform": the idle compiler processes end (the
 * next build spawns one). CL_INVALID_PLATFORM "if platform is not a valid
 * platform". */
cl_int CL_API_CALL refcl_clUnloadPlatformCompiler(cl_platform_id platform)
{
    cl_int status = refcl_object_check(platform, REFCL_PLATFORM);
    if (status == CL_SUCCESS)
        refcl_platform_compiler_unload();
    return status;
}
