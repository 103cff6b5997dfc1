/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dispatch table, the one name->function table behind every address
 * lookup, and the cl_khr_icd / cl_khr_icd 2.0 entry points that serve them.
 *
 * Both tables are generated from the slot list in refcl/entries.h, so the
 * loader-visible table, clIcdGetFunctionAddressForPlatformKHR and
 * clGetExtensionFunctionAddress* can never disagree. They hold each entry
 * point's notifying twin (refcl/notify.h), which reports a failure to the
 * pfn_notify of the call's context. With REFCL_JOURNAL or
 * REFCL_TRACE set, all three hand out the journaling (refcl/journal.h) or
 * tracing (refcl/trace.h) twins instead; so do the three functions
 * exported by name (refcl.map), which are here too.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/config.h"
#include "refcl/journal.h"
#include "refcl/notify.h"
#include "refcl/platform.h"
#include "refcl/trace.h"

/* cl_khr_icd 2.0: "The dispatch table's clGetPlatformIDs slot and
 * clUnloadCompiler slot hold CL_ICD2_TAG_KHR"; loaders never call them.
 * A classic 1.x table has the functions there; a faulty one, one tag. */
#define SLOT(name) .name = refcl_notify_##name,
#define SLOT_VOID(name) .name = (void *)refcl_notify_##name,
#define SLOT_TAG(name) .name = (cl_api_##name)CL_ICD2_TAG_KHR,
static const struct _cl_icd_dispatch dispatch_icd2 = {
    REFCL_DISPATCH_ENTRIES(SLOT, SLOT_VOID, SLOT_TAG)
};
static const struct _cl_icd_dispatch dispatch_icd1 = {
    REFCL_DISPATCH_ENTRIES(SLOT, SLOT_VOID, SLOT)
};
#define ONE_TAG_clGetPlatformIDs (cl_api_clGetPlatformIDs)CL_ICD2_TAG_KHR
#define ONE_TAG_clUnloadCompiler refcl_notify_clUnloadCompiler
#define SLOT_ONE_TAG(name) .name = ONE_TAG_##name,
static const struct _cl_icd_dispatch dispatch_one_tag = {
    REFCL_DISPATCH_ENTRIES(SLOT, SLOT_VOID, SLOT_ONE_TAG)
};
#undef SLOT
#undef SLOT_VOID
#undef SLOT_TAG
#undef SLOT_ONE_TAG

static const struct _cl_icd_dispatch *dispatch_untraced(void)
{
    const struct refcl_config *config = refcl_config();
    if (config->icd_version == 1)
        return &dispatch_icd1;
    return config->fault == REFCL_FAULT_ONE_TAG ? &dispatch_one_tag
                                                : &dispatch_icd2;
}

/* The wrapped table is the selected one with every function replaced by its
 * journaling twin (which traces too, when tracing) or, when only tracing,
 * its tracing twin; tags stay tags. */
static struct _cl_icd_dispatch dispatch_wrapped;

static bool slot_is_tag(const void *slot)
{
    return (intptr_t)slot == CL_ICD2_TAG_KHR;
}

#define WRAP_SLOT(name, twin)                                          \
    dispatch_wrapped.name = slot_is_tag((const void *)dispatch_wrapped.name) \
                                ? dispatch_wrapped.name                  \
                                : twin##name;
#define WRAP_SLOT_VOID(name, twin)                                   \
    dispatch_wrapped.name = slot_is_tag(dispatch_wrapped.name)       \
                                ? dispatch_wrapped.name              \
                                : (void *)twin##name;
#define JOURNAL_SLOT(name) WRAP_SLOT(name, refcl_journal_)
#define JOURNAL_SLOT_VOID(name) WRAP_SLOT_VOID(name, refcl_journal_)
#define TRACE_SLOT(name) WRAP_SLOT(name, refcl_trace_)
#define TRACE_SLOT_VOID(name) WRAP_SLOT_VOID(name, refcl_trace_)
static void dispatch_wrapped_build(void)
{
    dispatch_wrapped = *dispatch_untraced();
    if (refcl_journaling()) {
        REFCL_DISPATCH_ENTRIES(JOURNAL_SLOT, JOURNAL_SLOT_VOID, JOURNAL_SLOT)
    } else {
        REFCL_DISPATCH_ENTRIES(TRACE_SLOT, TRACE_SLOT_VOID, TRACE_SLOT)
    }
}
#undef WRAP_SLOT
#undef WRAP_SLOT_VOID
#undef JOURNAL_SLOT
#undef JOURNAL_SLOT_VOID
#undef TRACE_SLOT
#undef TRACE_SLOT_VOID

const struct _cl_icd_dispatch *refcl_dispatch_table(void)
{
    static pthread_once_t built = PTHREAD_ONCE_INIT;
    if (!refcl_journaling() && !refcl_tracing())
        return dispatch_untraced();
    pthread_once(&built, dispatch_wrapped_build);
    return &dispatch_wrapped;
}

/* The platform layer creates the platforms, which carry the table, but is
 * below the entry points: it gets the table from here, at load. */
__attribute__((constructor)) static void dispatch_register(void)
{
    refcl_platform_dispatch_register(refcl_dispatch_table);
}

/* Who may look a function up: ICD2 loaders any entry point (through
 * clIcdGetFunctionAddressForPlatformKHR), everyone the extension
 * functions of the extensions refcl lists (cl_refcl_call_journal's only
 * while journaling). */
enum reach { CORE, EXTENSION, ICD2_EXTENSION, JOURNAL_EXTENSION };

struct function {
    const char *name;
    void *address;   /* its notifying twin (refcl/notify.h) */
    void *traced;    /* its tracing twin */
    void *journaled; /* its journaling twin; NULL: never journaled */
    enum reach reach;
};

#define FUNCTION_REACH(name, reach)                               \
    {#name, (void *)refcl_notify_##name, (void *)refcl_trace_##name, \
     (void *)refcl_journal_##name, reach},
#define FUNCTION(name) FUNCTION_REACH(name, CORE)
static const struct function functions[] = {
    REFCL_DISPATCH_ENTRIES(FUNCTION, FUNCTION, FUNCTION)
    FUNCTION_REACH(clIcdGetPlatformIDsKHR, EXTENSION)
    FUNCTION_REACH(clIcdGetFunctionAddressForPlatformKHR, ICD2_EXTENSION)
    FUNCTION_REACH(clIcdSetPlatformDispatchDataKHR, ICD2_EXTENSION)
    FUNCTION_REACH(clImportMemoryARM, EXTENSION) /* cl_arm_import_memory */
    FUNCTION_REACH(clEnqueueMarkerREFCL, JOURNAL_EXTENSION)
    /* The journal's control functions: reading or arming the journal is
     * not a call to record. */
    {"clGetCallJournalREFCL", (void *)refcl_notify_clGetCallJournalREFCL,
     (void *)refcl_trace_clGetCallJournalREFCL, NULL, JOURNAL_EXTENSION},
    {"clSetNextResultREFCL", (void *)refcl_notify_clSetNextResultREFCL,
     (void *)refcl_trace_clSetNextResultREFCL, NULL, JOURNAL_EXTENSION},
};
#undef FUNCTION
#undef FUNCTION_REACH

#define FUNCTION_COUNT (sizeof(functions) / sizeof(functions[0]))

/*
 * An open-addressing hash index over `functions`, built on the first
 * lookup (a loader's first call makes one): one hash per name, where
 * sorting the table cost ~76,000 instructions. Each bucket holds a
 * function's index + 1, 0 when empty; at most 60% full, so probes stay
 * short (the 149 slots and refcl's 6 other functions outgrew 256 buckets).
 */
#define BUCKET_BITS 9
#define BUCKETS (1u << BUCKET_BITS)
_Static_assert(FUNCTION_COUNT <= BUCKETS * 6 / 10,
               "the name index needs more buckets");
static unsigned short buckets[BUCKETS];

/* FNV-1a; its top bits pick the bucket (the best-mixed ones). */
static unsigned name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 16777619u;
    return h >> (32 - BUCKET_BITS);
}

static void buckets_build(void)
{
    for (size_t i = 0; i < FUNCTION_COUNT; i++) {
        unsigned b = name_hash(functions[i].name);
        while (buckets[b])
            b = (b + 1) % BUCKETS;
        buckets[b] = (unsigned short)(i + 1);
    }
}

static const struct function *function_find(const char *name)
{
    static pthread_once_t built = PTHREAD_ONCE_INIT;
    if (!name)
        return NULL;
    pthread_once(&built, buckets_build);
    for (unsigned b = name_hash(name); buckets[b];
         b = (b + 1) % BUCKETS) {
        const struct function *f = &functions[buckets[b] - 1];
        if (strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}

/* A classic 1.x driver has no ICD2 functions; two faults drop one each. */
static bool icd2_function_offered(const struct function *f)
{
    const struct refcl_config *config = refcl_config();
    if (config->icd_version == 1)
        return false;
    if (config->fault == REFCL_FAULT_NO_GET_FUNCTION)
        return f->address !=
               (void *)refcl_notify_clIcdGetFunctionAddressForPlatformKHR;
    if (config->fault == REFCL_FAULT_NO_SET_DISP_DATA)
        return f->address !=
               (void *)refcl_notify_clIcdSetPlatformDispatchDataKHR;
    return true;
}

/* What a lookup hands out: the function, or its journaling or tracing
 * twin. */
static void *function_address(const struct function *f)
{
    if (refcl_journaling() && f->journaled)
        return f->journaled;
    return refcl_tracing() ? f->traced : f->address;
}

bool refcl_function_journaled(const char *name)
{
    const struct function *f = function_find(name);
    return f && f->journaled;
}

/* The REFCL ending of refcl's own extension functions stands for any ICD
 * suffix of this instance's platforms (loaders route
 * clGetExtensionFunctionAddress by suffix): with suffix RCA,
 * clGetCallJournalRCA is clGetCallJournalREFCL. */
static const struct function *suffixed_function_find(const char *name)
{
    const struct refcl_config *config = refcl_config();
    size_t length = strlen(name);
    char canonical[CL_CALL_RECORD_FUNCTION_SIZE_REFCL];
    for (cl_uint i = 0; i < config->platforms; i++) {
        size_t suffix = strlen(config->suffixes[i]);
        if (suffix > length ||
            strcmp(name + length - suffix, config->suffixes[i]) != 0 ||
            length - suffix + sizeof("REFCL") > sizeof(canonical))
            continue;
        memcpy(canonical, name, length - suffix);
        strcpy(canonical + length - suffix, "REFCL");
        const struct function *f = function_find(canonical);
        if (f && f->reach == JOURNAL_EXTENSION)
            return f;
    }
    return NULL;
}

static void *extension_function(const char *name)
{
    const struct function *f = function_find(name);
    if (!f && name && refcl_journaling())
        f = suffixed_function_find(name);
    if (!f || f->reach == CORE ||
        (f->reach == ICD2_EXTENSION && !icd2_function_offered(f)) ||
        (f->reach == JOURNAL_EXTENSION && !refcl_journaling()))
        return NULL;
    return function_address(f);
}

/* "clGetExtensionFunctionAddress ... returns NULL if the specified function
 * does not exist for the implementation"; core functions are not
 * extensions and are not returned. */
REFCL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    if (refcl_journaling())
        return refcl_journal_clGetExtensionFunctionAddress(name);
    if (refcl_tracing())
        return refcl_trace_clGetExtensionFunctionAddress(name);
    return extension_function(name);
}

void *CL_API_CALL refcl_clGetExtensionFunctionAddress(const char *name)
{
    return extension_function(name);
}

/* Exported: loaders may call it by name (tracing decided once, in
 * refcl_config()). */
REFCL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(
    cl_uint num_entries, cl_platform_id *platforms_out, cl_uint *num_platforms)
{
    if (refcl_journaling())
        return refcl_journal_clIcdGetPlatformIDsKHR(num_entries, platforms_out,
                                                    num_platforms);
    if (refcl_tracing())
        return refcl_trace_clIcdGetPlatformIDsKHR(num_entries, platforms_out,
                                                  num_platforms);
    return refcl_clIcdGetPlatformIDsKHR(num_entries, platforms_out,
                                        num_platforms);
}

/* Exported: ocl-icd looks clGetPlatformInfo up by name in every ICD. */
REFCL_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info param_name,
                                                  size_t param_value_size,
                                                  void *param_value,
                                                  size_t *param_value_size_ret)
{
    if (refcl_journaling())
        return refcl_journal_clGetPlatformInfo(platform, param_name,
                                               param_value_size, param_value,
                                               param_value_size_ret);
    if (refcl_tracing())
        return refcl_trace_clGetPlatformInfo(platform, param_name,
                                             param_value_size, param_value,
                                             param_value_size_ret);
    return refcl_clGetPlatformInfo(platform, param_name, param_value_size,
                                   param_value, param_value_size_ret);
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
    return f ? function_address(f) : NULL;
}

/* cl_khr_icd 2.0: CL_INVALID_PLATFORM "if platform is not a valid
 * platform". Every object already handed out receives the data too. */
cl_int CL_API_CALL refcl_clIcdSetPlatformDispatchDataKHR(
    cl_platform_id platform, void *disp_data)
{
    if (!refcl_object_valid(platform, REFCL_PLATFORM))
        return refcl_invalid_handle(platform, REFCL_PLATFORM);
    refcl_objects_set_disp_data(platform, disp_data);
    return CL_SUCCESS;
}
