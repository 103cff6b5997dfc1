/*
 * The dispatch table, the one name->function table behind every address
 * lookup, and the cl_khr_icd / cl_khr_icd 2.0 entry points that serve them.
 *
 * Both tables are generated from the slot list in refcl/entries.h, so the
 * loader-visible table, clIcdGetFunctionAddressForPlatformKHR and
 * clGetExtensionFunctionAddress* can never disagree.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/platform.h"

/* cl_khr_icd 2.0: "The dispatch table's clGetPlatformIDs slot and
 * clUnloadCompiler slot hold CL_ICD2_TAG_KHR"; loaders never call them. */
#define SLOT(name) .name = refcl_##name,
#define SLOT_VOID(name) .name = (void *)refcl_##name,
#define SLOT_TAG(name) .name = (cl_api_##name)CL_ICD2_TAG_KHR,
const struct _cl_icd_dispatch refcl_dispatch_icd2 = {
    REFCL_DISPATCH_ENTRIES(SLOT, SLOT_VOID, SLOT_TAG)
};
#undef SLOT
#undef SLOT_VOID
#undef SLOT_TAG

struct function {
    const char *name;
    void *address;
    bool extension; /* reachable through clGetExtensionFunctionAddress* */
};

/* Every dispatch entry (for ICD2 loaders building their own table), then
 * the extension functions of the extensions refcl advertises. */
#define FUNCTION(name) {#name, (void *)refcl_##name, false},
static struct function functions[] = {
    REFCL_DISPATCH_ENTRIES(FUNCTION, FUNCTION, FUNCTION)
    {"clIcdGetPlatformIDsKHR", (void *)refcl_clIcdGetPlatformIDsKHR, true},
    {"clIcdGetFunctionAddressForPlatformKHR",
     (void *)refcl_clIcdGetFunctionAddressForPlatformKHR, true},
    {"clIcdSetPlatformDispatchDataKHR",
     (void *)refcl_clIcdSetPlatformDispatchDataKHR, true},
};
#undef FUNCTION

#define FUNCTION_COUNT (sizeof(functions) / sizeof(functions[0]))

static int function_compare(const void *a, const void *b)
{
    return strcmp(((const struct function *)a)->name,
                  ((const struct function *)b)->name);
}

static void functions_sort(void)
{
    qsort(functions, FUNCTION_COUNT, sizeof(functions[0]), function_compare);
}

static const struct function *function_find(const char *name)
{
    static pthread_once_t sorted = PTHREAD_ONCE_INIT;
    if (!name)
        return NULL;
    pthread_once(&sorted, functions_sort);
    const struct function key = {.name = name};
    return bsearch(&key, functions, FUNCTION_COUNT, sizeof(functions[0]),
                   function_compare);
}

static void *extension_function(const char *name)
{
    const struct function *f = function_find(name);
    return f && f->extension ? f->address : NULL;
}

/* "clGetExtensionFunctionAddress ... returns NULL if the specified function
 * does not exist for the implementation"; core functions are not
 * extensions and are not returned. */
REFCL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    return extension_function(name);
}

void *CL_API_CALL refcl_clGetExtensionFunctionAddress(const char *name)
{
    return extension_function(name);
}

void *CL_API_CALL
refcl_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                               const char *name)
{
    if (!refcl_object_valid(platform, REFCL_PLATFORM))
        return NULL;
    return extension_function(name);
}

/* cl_khr_icd 2.0: returns the address of any entry point, core ones
 * included, for loaders that manage dispatch; NULL for an unknown name or
 * an invalid platform. */
void *CL_API_CALL
refcl_clIcdGetFunctionAddressForPlatformKHR(cl_platform_id platform,
                                            const char *name)
{
    if (!refcl_object_valid(platform, REFCL_PLATFORM))
        return NULL;
    const struct function *f = function_find(name);
    return f ? f->address : NULL;
}

/* cl_khr_icd 2.0: CL_INVALID_PLATFORM "if platform is not a valid
 * platform". Every object already handed out receives the data too. */
cl_int CL_API_CALL refcl_clIcdSetPlatformDispatchDataKHR(
    cl_platform_id platform, void *disp_data)
{
    if (!refcl_object_valid(platform, REFCL_PLATFORM))
        return CL_INVALID_PLATFORM;
    refcl_objects_set_disp_data(platform, disp_data);
    return CL_SUCCESS;
}
