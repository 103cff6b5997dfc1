/*
 * clGetDeviceInfo: every OpenCL 3.0 device query, the deprecated ones that
 * CL/cl.h still names included.
 *
 * Policy: hardware facts come from the topology (device/topology.c), never
 * invented. What belongs to the kernel compiler refcl does not have, or to
 * runtime features it lacks, reports the spec's EMBEDDED_PROFILE minimum or
 * "not supported". Queries of extensions refcl does not list (cl_khr_fp16's
 * CL_DEVICE_HALF_FP_CONFIG, cl_khr_device_uuid, cl_khr_pci_bus_info, ...)
 * are unknown names.
 *
 * Each family of queries is a switch that picks (value, size) into a
 * struct answer; one refcl_info_return at the end copies it out.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "refcl/api.h"
#include "refcl/device.h"
#include "refcl/info.h"
#include "refcl/platform.h"
#include "refcl/version.h"
/* After refcl/compat.h, which picks the CL headers' API version. */
#include "CL/cl_ext_refcl.h"

/* Identity. The profile is EMBEDDED because CL_DEVICE_COMPILER_AVAILABLE is
 * CL_FALSE, which the spec allows "for the embedded platform profile only". */
#define DEVICE_PROFILE "EMBEDDED_PROFILE"
#define DEVICE_VERSION "OpenCL 3.0 refcl " REFCL_VERSION_STRING
#define DEVICE_NUMERIC_VERSION CL_MAKE_VERSION(3, 0, 0)
#define DEVICE_OPENCL_C_VERSION "OpenCL C 1.2 refcl"
/* refcl has passed no conformance run: the earliest version string there
 * is, rather than a claim. */
#define DEVICE_CONFORMANCE_VERSION "v0000-01-01-00"

/* Implementation limits refcl promises to kernels. */
/** Work-item dimensions: the spec's minimum for non-custom devices. */
#define MAX_WORK_ITEM_DIMENSIONS 3u
/** Work-items per work-group; work-items of a group share one host thread. */
#define MAX_WORK_GROUP_SIZE 4096u
/** Work-items per dimension: a whole work-group may lie along any axis. */
#define MAX_WORK_ITEM_SIZE MAX_WORK_GROUP_SIZE
/** Bytes of kernel arguments: the full-profile minimum (embedded: 256). */
#define MAX_PARAMETER_SIZE 1024u
/** Bytes of one __constant buffer: the spec's minimum, 64 KiB. */
#define MAX_CONSTANT_BUFFER_SIZE (64u * 1024u)
/** __constant arguments per kernel: the spec's minimum. */
#define MAX_CONSTANT_ARGS 8u
/** Sub-buffer alignment in bits: long16, the largest built-in type. */
#define MEM_BASE_ADDR_ALIGN_BITS 1024u
/** Smallest alignment for any data type, in bytes: long16 again. */
#define MIN_DATA_TYPE_ALIGN_SIZE 128u
/** Bytes of printf output per kernel: the full-profile minimum, 1 MiB. */
#define PRINTF_BUFFER_SIZE (1024u * 1024u)
/** Local memory lower bound: the embedded-profile minimum, 1 KiB. */
#define LOCAL_MEM_MIN_SIZE 1024u
/** Lower bound of CL_DEVICE_MAX_MEM_ALLOC_SIZE: "The minimum value is
 *  max(min(1024 x 1024 x 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE),
 *  32 x 1024 x 1024)" (the embedded profile no longer lowers it); refcl
 *  answers max(CL_DEVICE_GLOBAL_MEM_SIZE / 4, 32 MiB). */
#define MAX_MEM_ALLOC_MIN_SIZE (32u * 1024u * 1024u)

/* The device's extensions: the platform's (cl_khr_icd), which "must be
 * supported by all devices associated with this platform", then these.
 * CL_DEVICE_EXTENSIONS is made from the same list, so the string and
 * CL_DEVICE_EXTENSIONS_WITH_VERSION cannot disagree.
 *
 * "The following Khronos extension names must be returned by all devices
 * that support OpenCL 1.1": the five below; and in the embedded profile
 * "If double precision is supported ... then cles_khr_int64 must also be
 * supported". */
static const cl_name_version device_only_extensions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cles_khr_int64"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"},
    {CL_REFCL_DEVICE_CPUSET_EXTENSION_VERSION,
     CL_REFCL_DEVICE_CPUSET_EXTENSION_NAME},
};
#define DEVICE_ONLY_COUNT \
    (sizeof(device_only_extensions) / sizeof(device_only_extensions[0]))
#define MAX_EXTENSIONS (REFCL_PLATFORM_EXTENSIONS_MAX + DEVICE_ONLY_COUNT)
static cl_name_version device_extensions[MAX_EXTENSIONS];
static size_t extension_count;
static char extensions_string[MAX_EXTENSIONS * CL_NAME_VERSION_MAX_NAME_SIZE];
static pthread_once_t extensions_once = PTHREAD_ONCE_INIT;

static void extensions_init(void)
{
    const cl_name_version *platform;
    size_t n = refcl_platform_extensions(&platform);
    for (size_t i = 0; i < n; i++)
        device_extensions[extension_count++] = platform[i];
    for (size_t i = 0; i < DEVICE_ONLY_COUNT; i++)
        device_extensions[extension_count++] = device_only_extensions[i];
    refcl_names_join(device_extensions, extension_count, extensions_string,
                     sizeof(extensions_string));
}

static const cl_name_version opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/* Optional OpenCL C 3.0 features; __opencl_c_fp64 goes with cl_khr_fp64. */
static const cl_name_version opencl_c_features[] = {
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
};

/* CL_DEVICE_PARTITION_TYPE of a root device: the spec allows "a property
 * value of 0" for "no partition type associated with device". */
static const cl_device_partition_property no_partition[] = {0};

/* What a query answers: `value` points at static data or at `scratch`. */
struct answer {
    const void *value;
    size_t size;
    union {
        cl_uint u;
        cl_ulong ul;
        size_t sz;
        const void *handle;
    } scratch;
};

static void answer_uint(struct answer *a, cl_uint v)
{
    a->scratch.u = v;
    a->value = &a->scratch.u;
    a->size = sizeof(cl_uint);
}

/* cl_bool is a cl_uint; the name says what the query returns. */
static void answer_bool(struct answer *a, cl_bool v)
{
    answer_uint(a, v);
}

/* cl_ulong, and every cl_bitfield type (cl_device_type, *_config, ...). */
static void answer_ulong(struct answer *a, cl_ulong v)
{
    a->scratch.ul = v;
    a->value = &a->scratch.ul;
    a->size = sizeof(cl_ulong);
}

static void answer_size(struct answer *a, size_t v)
{
    a->scratch.sz = v;
    a->value = &a->scratch.sz;
    a->size = sizeof(size_t);
}

/* cl_platform_id, cl_device_id. */
static void answer_handle(struct answer *a, const void *v)
{
    a->scratch.handle = v;
    a->value = &a->scratch.handle;
    a->size = sizeof(void *);
}

static void answer_string(struct answer *a, const char *s)
{
    a->value = s;
    a->size = strlen(s) + 1;
}

static void answer_array(struct answer *a, const void *v, size_t size)
{
    a->value = v;
    a->size = size;
}

static size_t timer_resolution_ns(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1;
    size_t ns = (size_t)res.tv_sec * 1000000000u + (size_t)res.tv_nsec;
    return ns ? ns : 1;
}

/* Who the device is, and which languages and extensions it speaks. */
static bool info_identity(const struct _cl_device_id *device,
                          const struct refcl_topology *topo,
                          cl_device_info name, struct answer *a)
{
    switch (name) {
    case CL_DEVICE_TYPE:
        answer_ulong(a, CL_DEVICE_TYPE_CPU);
        break;
    case CL_DEVICE_VENDOR_ID:
        answer_uint(a, topo->vendor_id);
        break;
    case CL_DEVICE_NAME:
        answer_string(a, topo->cpu_name);
        break;
    case CL_DEVICE_VENDOR:
        answer_string(a, topo->cpu_vendor);
        break;
    case CL_DRIVER_VERSION:
        answer_string(a, REFCL_VERSION_STRING);
        break;
    case CL_DEVICE_PROFILE:
        answer_string(a, DEVICE_PROFILE);
        break;
    case CL_DEVICE_VERSION:
        answer_string(a, DEVICE_VERSION);
        break;
    case CL_DEVICE_NUMERIC_VERSION:
        answer_uint(a, DEVICE_NUMERIC_VERSION);
        break;
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
        answer_string(a, DEVICE_CONFORMANCE_VERSION);
        break;
    case CL_DEVICE_PLATFORM:
        answer_handle(a, device->obj.platform);
        break;
    case CL_DEVICE_AVAILABLE:
        answer_bool(a, CL_TRUE);
        break;
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
        answer_bool(a, CL_FALSE);
        break;
    default:
        return false;
    }
    return true;
}

/* Languages, intermediate languages, extensions and built-in kernels. */
static bool info_languages(cl_device_info name, struct answer *a)
{
    switch (name) {
    case CL_DEVICE_OPENCL_C_VERSION:
        answer_string(a, DEVICE_OPENCL_C_VERSION);
        break;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        answer_array(a, opencl_c_versions, sizeof(opencl_c_versions));
        break;
    case CL_DEVICE_OPENCL_C_FEATURES:
        answer_array(a, opencl_c_features, sizeof(opencl_c_features));
        break;
    case CL_DEVICE_EXTENSIONS:
        pthread_once(&extensions_once, extensions_init);
        answer_string(a, extensions_string);
        break;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        pthread_once(&extensions_once, extensions_init);
        answer_array(a, device_extensions,
                     extension_count * sizeof(cl_name_version));
        break;
    /* No intermediate language and no built-in kernels: "" and no entries. */
    case CL_DEVICE_IL_VERSION:
    case CL_DEVICE_BUILT_IN_KERNELS:
        answer_string(a, "");
        break;
    case CL_DEVICE_ILS_WITH_VERSION:
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
        answer_array(a, NULL, 0);
        break;
    default:
        return false;
    }
    return true;
}

/* Execution resources and the limits of an ND-range. */
static bool info_compute(const struct _cl_device_id *device,
                         const struct refcl_topology *topo,
                         cl_device_info name, struct answer *a)
{
    static const size_t work_item_sizes[MAX_WORK_ITEM_DIMENSIONS] = {
        MAX_WORK_ITEM_SIZE, MAX_WORK_ITEM_SIZE, MAX_WORK_ITEM_SIZE};

    switch (name) {
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        answer_uint(a, device->compute_units);
        break;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        answer_uint(a, topo->max_clock_mhz);
        break;
    case CL_DEVICE_ADDRESS_BITS:
        answer_uint(a, 8u * (cl_uint)sizeof(void *));
        break;
    case CL_DEVICE_ENDIAN_LITTLE:
        answer_bool(a, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? CL_TRUE
                                                               : CL_FALSE);
        break;
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
        answer_size(a, timer_resolution_ns());
        break;
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        answer_ulong(a, CL_EXEC_KERNEL);
        break;
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        answer_uint(a, MAX_WORK_ITEM_DIMENSIONS);
        break;
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        answer_array(a, work_item_sizes, sizeof(work_item_sizes));
        break;
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        answer_size(a, MAX_WORK_GROUP_SIZE);
        break;
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        /* One float lane per work-item of a SIMD register. */
        answer_size(a, topo->native_vector_bytes / sizeof(cl_float));
        break;
    case CL_DEVICE_MAX_PARAMETER_SIZE:
        answer_size(a, MAX_PARAMETER_SIZE);
        break;
    case CL_DEVICE_MAX_CONSTANT_ARGS:
        answer_uint(a, MAX_CONSTANT_ARGS);
        break;
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
        answer_size(a, PRINTF_BUFFER_SIZE);
        break;
    default:
        return false;
    }
    return true;
}

/* Elements of @p element_size bytes in the widest SIMD register. */
static cl_uint lanes(const struct refcl_topology *topo, size_t element_size)
{
    return topo->native_vector_bytes / (cl_uint)element_size;
}

/* Vector widths and floating-point capabilities. No cl_khr_fp16: the half
 * widths "must return 0". */
static bool info_arithmetic(const struct refcl_topology *topo,
                            cl_device_info name, struct answer *a)
{
    /* Rounding modes, denormals, INF and NaN are native on every host CPU
     * refcl runs on; single-precision FMA only where the CPU has it. */
    cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN |
                             CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                             CL_FP_ROUND_TO_INF | (topo->fma ? CL_FP_FMA : 0);

    switch (name) {
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
        answer_uint(a, lanes(topo, sizeof(cl_char)));
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
        answer_uint(a, lanes(topo, sizeof(cl_short)));
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
        answer_uint(a, lanes(topo, sizeof(cl_int)));
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
        answer_uint(a, lanes(topo, sizeof(cl_long)));
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
        answer_uint(a, lanes(topo, sizeof(cl_float)));
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
        answer_uint(a, lanes(topo, sizeof(cl_double)));
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
        answer_uint(a, 0);
        break;
    case CL_DEVICE_SINGLE_FP_CONFIG:
        answer_ulong(a, fp);
        break;
    /* cl_khr_fp64 is listed. "If double precision is supported by the
     * device, then the minimum double precision floating-point capability
     * for OpenCL 2.0 or newer devices is: CL_FP_FMA | ...": libm's fma()
     * is correctly rounded with or without hardware FMA. */
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        answer_ulong(a, fp | CL_FP_FMA);
        break;
    default:
        return false;
    }
    return true;
}

/* Global, local and constant memory, caches, alignment and atomics. */
static bool info_memory(const struct _cl_device_id *device,
                        const struct refcl_topology *topo,
                        cl_device_info name, struct answer *a)
{
    cl_ulong quarter = topo->global_mem_size / 4;
    cl_ulong local = topo->core_cache_size;

    switch (name) {
    case CL_DEVICE_GLOBAL_MEM_SIZE:
        answer_ulong(a, topo->global_mem_size);
        break;
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        answer_ulong(a, quarter > MAX_MEM_ALLOC_MIN_SIZE
                            ? quarter
                            : MAX_MEM_ALLOC_MIN_SIZE);
        break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
        answer_uint(a, CL_READ_WRITE_CACHE);
        break;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
        answer_uint(a, topo->cacheline_size);
        break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
        answer_ulong(a, device->global_mem_cache_size);
        break;
    case CL_DEVICE_LOCAL_MEM_TYPE:
        answer_uint(a, CL_GLOBAL); /* emulated in host memory */
        break;
    case CL_DEVICE_LOCAL_MEM_SIZE:
        answer_ulong(a, local > LOCAL_MEM_MIN_SIZE ? local : LOCAL_MEM_MIN_SIZE);
        break;
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        answer_ulong(a, MAX_CONSTANT_BUFFER_SIZE);
        break;
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
        answer_bool(a, CL_TRUE);
        break;
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
        answer_bool(a, CL_FALSE);
        break;
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
        answer_uint(a, MEM_BASE_ADDR_ALIGN_BITS);
        break;
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
        answer_uint(a, MIN_DATA_TYPE_ALIGN_SIZE);
        break;
    /* No program-scope global variables, no SVM. */
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        answer_size(a, 0);
        break;
    case CL_DEVICE_SVM_CAPABILITIES:
        answer_ulong(a, 0);
        break;
    /* 0: "aligned to the natural size of the type". */
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
        answer_uint(a, 0);
        break;
    /* The OpenCL 3.0 minimum capabilities. */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
        answer_ulong(a, CL_DEVICE_ATOMIC_ORDER_RELAXED |
                            CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
        break;
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        answer_ulong(a, CL_DEVICE_ATOMIC_ORDER_RELAXED |
                            CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                            CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
        break;
    default:
        return false;
    }
    return true;
}

/* No image support: every image and sampler limit "must be 0" or is only
 * bounded "if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE". */
static bool info_images(cl_device_info name, struct answer *a)
{
    switch (name) {
    case CL_DEVICE_IMAGE_SUPPORT:
        answer_bool(a, CL_FALSE);
        break;
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
        answer_size(a, 0);
        break;
    case CL_DEVICE_MAX_SAMPLERS:
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
        answer_uint(a, 0);
        break;
    default:
        return false;
    }
    return true;
}

/* Host command-queues (queue/queue.c: in-order or out-of-order, profiling),
 * and the optional OpenCL 2.x / 3.0 features, all off: device-side
 * enqueue, pipes, generic address space, non-uniform work-groups,
 * work-group collectives, sub-groups. */
static bool info_features(cl_device_info name, struct answer *a)
{
    switch (name) {
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: /* = CL_DEVICE_QUEUE_PROPERTIES */
        answer_ulong(a, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                            CL_QUEUE_PROFILING_ENABLE);
        break;
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
        answer_ulong(a, 0);
        break;
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        answer_uint(a, 0);
        break;
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
        answer_bool(a, CL_TRUE);
        break;
    case CL_DEVICE_PIPE_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        answer_bool(a, CL_FALSE);
        break;
    default:
        return false;
    }
    return true;
}

/* Place in the device tree, and how the device may be partitioned
 * (device/partition.c works the answers out when it creates the device). */
static bool info_partition(const struct _cl_device_id *device,
                           cl_device_info name, struct answer *a)
{
    switch (name) {
    case CL_DEVICE_PARENT_DEVICE:
        answer_handle(a, device->obj.parent); /* NULL for a root device */
        break;
    case CL_DEVICE_REFERENCE_COUNT:
        answer_uint(a, refcl_object_refcount(&device->obj));
        break;
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        answer_uint(a, device->max_sub_devices);
        break;
    case CL_DEVICE_PARTITION_PROPERTIES:
        answer_array(a, device->schemes,
                     device->scheme_count * sizeof(device->schemes[0]));
        break;
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        answer_ulong(a, device->affinity_domains);
        break;
    case CL_DEVICE_PARTITION_TYPE:
        if (device->partition_type)
            answer_array(a, device->partition_type,
                         device->partition_type_len *
                             sizeof(cl_device_partition_property));
        else
            answer_array(a, no_partition, sizeof(no_partition));
        break;
    default:
        return false;
    }
    return true;
}

/* refcl's vendor queries (CL/cl_ext_refcl.h). */
static bool info_refcl(const struct _cl_device_id *device,
                       cl_device_info name, struct answer *a)
{
    switch (name) {
    case CL_DEVICE_CPUSET_REFCL: /* cl_refcl_device_cpuset */
        answer_string(a, refcl_device_cpuset_list(device));
        break;
    default:
        return false;
    }
    return true;
}

cl_int CL_API_CALL refcl_clGetDeviceInfo(cl_device_id device,
                                         cl_device_info param_name,
                                         size_t param_value_size,
                                         void *param_value,
                                         size_t *param_value_size_ret)
{
    /* CL_INVALID_DEVICE "if device is not valid". */
    cl_int status = refcl_object_check(device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    /* A device exists only once the topology has loaded. */
    const struct refcl_topology *topo = refcl_topology_get();
    if (!topo)
        return CL_INVALID_DEVICE;

    struct answer a = {0};
    bool known = info_identity(device, topo, param_name, &a) ||
                 info_languages(param_name, &a) ||
                 info_compute(device, topo, param_name, &a) ||
                 info_arithmetic(topo, param_name, &a) ||
                 info_memory(device, topo, param_name, &a) ||
                 info_images(param_name, &a) ||
                 info_features(param_name, &a) ||
                 info_partition(device, param_name, &a) ||
                 info_refcl(device, param_name, &a);
    /* CL_INVALID_VALUE "if param_name is not one of the supported values
     * ... or if param_name is a value that is available as an extension and
     * the corresponding extension is not supported by the device". */
    if (!known)
        return CL_INVALID_VALUE;
    /* CL_INVALID_VALUE "if size in bytes specified by param_value_size is <
     * size of return type ... and param_value is not a NULL value". */
    return refcl_info_return(a.value, a.size, param_value_size, param_value,
                             param_value_size_ret);
}
