/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device/info: every clGetDeviceInfo query of OpenCL 3.0 (and refcl's
 * CL_DEVICE_CPUSET_REFCL) answers with its exact size and, where refcl
 * fixes it, its exact value; both halves of the
 * two-call size query; every error; consistency between related queries;
 * and the hardware figures against hwloc's own view of the machine.
 *
 * Registered several times (tests/device/CMakeLists.txt): on the real
 * machine, and under HWLOC_SYNTHETIC topologies whose figures are worked
 * out by hand and passed in REFCL_TEST_EXPECT_* variables.
 */
#include <hwloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "check.h"
#include "CL/cl_ext_refcl.h"

#ifndef REFCL_TEST_VERSION
#error "REFCL_TEST_VERSION (the project version) must be defined"
#endif

#define MIB ((cl_ulong)1024 * 1024)
#define FILL 0xa5
#define SENTINEL_SIZE ((size_t)0x5a5a5a5a)
/* CL_DEVICE_OPENCL_C_FEATURES's entries (check_fixed_arrays lists them). */
#define C_FEATURES 13

static cl_platform_id platform;
static cl_device_id device;

/* KIND_LIST: cl_device_partition_property values, at least one;
 * KIND_ARRAY: an array whose size depends on the machine. */
enum kind { KIND_FIXED, KIND_STRING, KIND_LIST, KIND_ARRAY };

struct query {
    cl_device_info name;
    const char *label;
    enum kind kind;
    size_t size; /* KIND_FIXED: the exact size */
};

#define FIXED(name, type) {name, #name, KIND_FIXED, sizeof(type)}
#define ARRAY(name, bytes) {name, #name, KIND_FIXED, bytes}
#define STRING(name) {name, #name, KIND_STRING, 0}
#define LIST(name) {name, #name, KIND_LIST, 0}
#define VARIABLE_ARRAY(name) {name, #name, KIND_ARRAY, 0}

/* Every query CL/cl.h names for OpenCL 3.0 (deprecated ones included). */
static const struct query queries[] = {
    FIXED(CL_DEVICE_TYPE, cl_device_type),
    FIXED(CL_DEVICE_VENDOR_ID, cl_uint),
    FIXED(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
    FIXED(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
    FIXED(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
    ARRAY(CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * sizeof(size_t)),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
    FIXED(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
    FIXED(CL_DEVICE_ADDRESS_BITS, cl_uint),
    FIXED(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
    FIXED(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
    FIXED(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
    FIXED(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
    FIXED(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
    FIXED(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
    FIXED(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
    FIXED(CL_DEVICE_MAX_SAMPLERS, cl_uint),
    FIXED(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
    FIXED(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint),
    FIXED(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
    FIXED(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
    FIXED(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
    FIXED(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
    FIXED(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
    FIXED(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
    FIXED(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
    FIXED(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
    FIXED(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
    FIXED(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
    FIXED(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
    FIXED(CL_DEVICE_AVAILABLE, cl_bool),
    FIXED(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
    FIXED(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
    FIXED(CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties),
    FIXED(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
    STRING(CL_DEVICE_NAME),
    STRING(CL_DEVICE_VENDOR),
    STRING(CL_DRIVER_VERSION),
    STRING(CL_DEVICE_PROFILE),
    STRING(CL_DEVICE_VERSION),
    STRING(CL_DEVICE_EXTENSIONS),
    FIXED(CL_DEVICE_PLATFORM, cl_platform_id),
    FIXED(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
    FIXED(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
    STRING(CL_DEVICE_OPENCL_C_VERSION),
    FIXED(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
    STRING(CL_DEVICE_BUILT_IN_KERNELS),
    FIXED(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
    FIXED(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
    FIXED(CL_DEVICE_PARENT_DEVICE, cl_device_id),
    FIXED(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
    LIST(CL_DEVICE_PARTITION_PROPERTIES),
    FIXED(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
    ARRAY(CL_DEVICE_PARTITION_TYPE, sizeof(cl_device_partition_property)),
    FIXED(CL_DEVICE_REFERENCE_COUNT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
    FIXED(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
    FIXED(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
    FIXED(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
    FIXED(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
    FIXED(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
    FIXED(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
    FIXED(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
    FIXED(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
    FIXED(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
    FIXED(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
    FIXED(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
    FIXED(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
    STRING(CL_DEVICE_IL_VERSION),
    FIXED(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
    FIXED(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
    FIXED(CL_DEVICE_NUMERIC_VERSION, cl_version),
    VARIABLE_ARRAY(CL_DEVICE_EXTENSIONS_WITH_VERSION),
    VARIABLE_ARRAY(CL_DEVICE_ILS_WITH_VERSION), /* check_fixed_arrays */
    ARRAY(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 9 * sizeof(cl_name_version)),
    FIXED(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
    FIXED(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
    FIXED(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
    ARRAY(CL_DEVICE_OPENCL_C_ALL_VERSIONS, 4 * sizeof(cl_name_version)),
    FIXED(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
    FIXED(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
    ARRAY(CL_DEVICE_OPENCL_C_FEATURES, C_FEATURES * sizeof(cl_name_version)),
    FIXED(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
          cl_device_device_enqueue_capabilities),
    FIXED(CL_DEVICE_PIPE_SUPPORT, cl_bool),
    STRING(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
    STRING(CL_DEVICE_CPUSET_REFCL), /* cl_refcl_device_cpuset */
};
#define QUERY_COUNT (sizeof(queries) / sizeof(queries[0]))

static const struct query *query_find(cl_device_info name)
{
    for (size_t i = 0; i < QUERY_COUNT; i++)
        if (queries[i].name == name)
            return &queries[i];
    return NULL;
}

/* cl_khr_fp16 is listed where kernels convert halves with instructions:
 * F16C (with AVX) unless REFCL_CPU names a level below x86-64-v3; AArch64. */
static bool half_expected(void)
{
#if defined(__x86_64__) || defined(__i386__)
    const char *cpu = getenv("REFCL_CPU");
    if (cpu && (!strcmp(cpu, "x86-64") || !strcmp(cpu, "x86-64-v2")))
        return false;
    unsigned eax, ebx, ecx, edx;
    __builtin_cpu_init();
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) &&
           __builtin_cpu_supports("avx");
#elif defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

/* ---- reading answers ---------------------------------------------------- */

/* A scalar query (4 or 8 bytes) as a cl_ulong. */
static cl_ulong scalar(cl_device_info name)
{
    const struct query *q = query_find(name);
    union {
        cl_uint u32;
        cl_ulong u64;
        unsigned char bytes[8];
    } value;
    memset(&value, 0, sizeof(value));
    size_t size = 0;
    CHECK(q && q->kind == KIND_FIXED && (q->size == 4 || q->size == 8));
    CHECK_EQ(clGetDeviceInfo(device, name, sizeof(value), &value, &size),
             CL_SUCCESS);
    CHECK_EQ(size, q ? q->size : 0);
    return size == 4 ? value.u32 : value.u64;
}

/* CL_DEVICE_HALF_FP_CONFIG, which only a device listing cl_khr_fp16 knows
 * (so not in queries[]). */
static cl_device_fp_config half_config(void)
{
    cl_device_fp_config config = 0;
    size_t size = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, sizeof(config),
                             &config, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(config));
    return config;
}

/* A string query; @p out holds at least 1024 bytes. */
static const char *string(cl_device_info name, char *out)
{
    size_t size = 0;
    CHECK_EQ(clGetDeviceInfo(device, name, 1024, out, &size), CL_SUCCESS);
    CHECK(size >= 1 && size <= 1024);
    out[1023] = '\0';
    return out;
}

/* An array query; returns the number of bytes. */
static size_t array(cl_device_info name, void *out, size_t room)
{
    size_t size = SENTINEL_SIZE;
    CHECK_EQ(clGetDeviceInfo(device, name, room, out, &size), CL_SUCCESS);
    return size;
}

/* ---- sizes and the two-call protocol ------------------------------------ */

static bool untouched(const unsigned char *buf, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (buf[i] != FILL)
            return false;
    return true;
}

static void check_protocol(const struct query *q)
{
    unsigned char buf[4096];
    size_t size = SENTINEL_SIZE, again = SENTINEL_SIZE;

    /* First half: the size alone. */
    cl_int rc = clGetDeviceInfo(device, q->name, 0, NULL, &size);
    if (rc != CL_SUCCESS)
        fprintf(stderr, "%s:\n", q->label);
    CHECK_EQ(rc, CL_SUCCESS);
    if (q->kind == KIND_FIXED)
        CHECK_EQ(size, q->size);
    if (rc != CL_SUCCESS || size > sizeof(buf))
        return;

    /* Second half: exactly that much room. */
    memset(buf, FILL, sizeof(buf));
    CHECK_EQ(clGetDeviceInfo(device, q->name, size, buf, &again), CL_SUCCESS);
    CHECK_EQ(again, size);
    CHECK(untouched(buf, size, sizeof(buf)));
    if (q->kind == KIND_LIST)
        CHECK(size >= sizeof(cl_device_partition_property) &&
              size % sizeof(cl_device_partition_property) == 0);
    if (q->kind == KIND_STRING) {
        CHECK(size >= 1);
        CHECK(size >= 1 && buf[size - 1] == '\0');
        CHECK_EQ(strlen((const char *)buf), size - 1);
    }

    /* More room than needed: the same bytes, the same size. */
    unsigned char big[4096];
    memset(big, FILL, sizeof(big));
    again = SENTINEL_SIZE;
    CHECK_EQ(clGetDeviceInfo(device, q->name, sizeof(big), big, &again),
             CL_SUCCESS);
    CHECK_EQ(again, size);
    CHECK(memcmp(big, buf, size) == 0);
    CHECK(untouched(big, size, sizeof(big)));

    /* No size output wanted. */
    memset(big, FILL, sizeof(big));
    CHECK_EQ(clGetDeviceInfo(device, q->name, size, big, NULL), CL_SUCCESS);
    CHECK(memcmp(big, buf, size) == 0);

    /* One byte short, or no room at all: CL_INVALID_VALUE, and neither the
     * buffer nor the size output is touched. */
    if (size == 0)
        return;
    size_t shorts[2] = {size - 1, 0};
    for (int i = 0; i < 2; i++) {
        memset(big, FILL, sizeof(big));
        again = SENTINEL_SIZE;
        CHECK_EQ(clGetDeviceInfo(device, q->name, shorts[i], big, &again),
                 CL_INVALID_VALUE);
        CHECK_EQ(again, SENTINEL_SIZE);
        CHECK(untouched(big, 0, sizeof(big)));
    }
}

static void check_all_queries(void)
{
    for (size_t i = 0; i < QUERY_COUNT; i++)
        check_protocol(&queries[i]);
}

/* Every name outside the table is refused: the cl_device_info range of
 * the core API and the extension ranges, plus odd values. Names of
 * extensions refcl does not list are unknown too. */
static void check_unknown(cl_device_info name)
{
    unsigned char buf[64];
    size_t size = SENTINEL_SIZE;
    memset(buf, FILL, sizeof(buf));
    cl_int rc = clGetDeviceInfo(device, name, sizeof(buf), buf, &size);
    if (rc != CL_INVALID_VALUE)
        fprintf(stderr, "param_name 0x%x:\n", (unsigned)name);
    CHECK_EQ(rc, CL_INVALID_VALUE);
    CHECK_EQ(size, SENTINEL_SIZE);
    CHECK(untouched(buf, 0, sizeof(buf)));
    CHECK_EQ(clGetDeviceInfo(device, name, 0, NULL, &size), CL_INVALID_VALUE);
    CHECK_EQ(size, SENTINEL_SIZE);
}

static void check_unknown_names(void)
{
    const cl_device_info odd[] = {
        0x0,
        0xFFFF,
        0xFFFFFFFF,
        CL_PLATFORM_NAME,
        CL_DEVICE_UUID_KHR,                     /* cl_khr_device_uuid */
        CL_DEVICE_PCI_BUS_INFO_KHR,             /* cl_khr_pci_bus_info */
        CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, /* cl_khr_extended_versioning */
    };
    for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
        check_unknown(odd[i]);
    /* cl_khr_fp16's query, known where the device lists it (half_config). */
    for (cl_device_info name = 0x1000; name < 0x1100; name++)
        if (!query_find(name) &&
            (name != CL_DEVICE_HALF_FP_CONFIG || !half_expected()))
            check_unknown(name);
    for (cl_device_info name = 0x4000; name < 0x4300; name++)
        check_unknown(name);
}

/* ---- values refcl fixes --------------------------------------------------- */

/* The profile the registration expects (REFCL_TEST_PROFILE, tests/
 * CMakeLists.txt): FULL where refcl finds the compiler, else EMBEDDED. */
/* The compiler's SPIR-V translator is there (REFCL_TEST_IL=1). */
static bool il_expected(void)
{
    const char *il = getenv("REFCL_TEST_IL");
    return il && !strcmp(il, "1");
}

static bool full_profile(void)
{
    const char *profile = getenv("REFCL_TEST_PROFILE");
    return profile && !strcmp(profile, "FULL");
}

struct fixed_value {
    cl_device_info name;
    cl_ulong value;
};

/* "If CL_DEVICE_IMAGE_SUPPORT is CL_TRUE", each image limit at least the
 * full profile's minimum of the device queries table (the pitch and base
 * address alignments, with cl_khr_image2d_from_buffer, at least 1). */
static void check_image_minimums(void)
{
    const struct fixed_value minimum[] = {
        {CL_DEVICE_MAX_READ_IMAGE_ARGS, 128},
        {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64},
        {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64},
        {CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384},
        {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384},
        {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048},
        {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048},
        {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048},
        {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536},
        {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048},
        {CL_DEVICE_MAX_SAMPLERS, 16},
        {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, 1},
        {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, 1},
    };
    for (size_t i = 0; i < sizeof(minimum) / sizeof(minimum[0]); i++) {
        cl_ulong value = scalar(minimum[i].name);
        if (value < minimum[i].value)
            fprintf(stderr, "%s: %llu < %llu\n",
                    query_find(minimum[i].name)->label,
                    (unsigned long long)value,
                    (unsigned long long)minimum[i].value);
        CHECK(value >= minimum[i].value);
    }
}

static void check_fixed_values(void)
{
    const struct fixed_value fixed[] = {
        {CL_DEVICE_TYPE, CL_DEVICE_TYPE_CPU},
        {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, 3},
        {CL_DEVICE_MAX_WORK_GROUP_SIZE, 4096},
        {CL_DEVICE_ADDRESS_BITS, 8 * sizeof(void *)},
        {CL_DEVICE_IMAGE_SUPPORT, CL_TRUE},
        {CL_DEVICE_MAX_PARAMETER_SIZE, 1024},
        {CL_DEVICE_MEM_BASE_ADDR_ALIGN, 1024},
        {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, 128},
        {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CL_READ_WRITE_CACHE},
        {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, 64 * 1024},
        {CL_DEVICE_MAX_CONSTANT_ARGS, 8},
        {CL_DEVICE_LOCAL_MEM_TYPE, CL_GLOBAL},
        {CL_DEVICE_ERROR_CORRECTION_SUPPORT, CL_FALSE},
        {CL_DEVICE_HOST_UNIFIED_MEMORY, CL_TRUE},
        {CL_DEVICE_ENDIAN_LITTLE,
         __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? CL_TRUE : CL_FALSE},
        {CL_DEVICE_AVAILABLE, CL_TRUE},
        {CL_DEVICE_COMPILER_AVAILABLE, full_profile() ? CL_TRUE : CL_FALSE},
        {CL_DEVICE_LINKER_AVAILABLE, full_profile() ? CL_TRUE : CL_FALSE},
        {CL_DEVICE_EXECUTION_CAPABILITIES, CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL},
        {CL_DEVICE_QUEUE_PROPERTIES,
         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE},
        {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE},
        {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, 0},
        {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, 0},
        {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, 0},
        {CL_DEVICE_MAX_ON_DEVICE_QUEUES, 0},
        {CL_DEVICE_MAX_ON_DEVICE_EVENTS, 0},
        {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, 0},
        {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, CL_TRUE},
        {CL_DEVICE_PRINTF_BUFFER_SIZE, 1024 * 1024},
        {CL_DEVICE_PARENT_DEVICE, 0},
        {CL_DEVICE_REFERENCE_COUNT, 1},
        {CL_DEVICE_SVM_CAPABILITIES, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                         CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM},
        {CL_DEVICE_PIPE_SUPPORT, CL_FALSE},
        {CL_DEVICE_MAX_PIPE_ARGS, 0},
        {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, 0},
        {CL_DEVICE_PIPE_MAX_PACKET_SIZE, 0},
        {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, 0},
        {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, 0},
        {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, 0},
        /* The largest group (4096) in sub-groups of 4, the fewest lanes
         * kernels are built for. */
        {CL_DEVICE_MAX_NUM_SUB_GROUPS, 1024},
        {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, CL_FALSE},
        {CL_DEVICE_NUMERIC_VERSION, CL_MAKE_VERSION(3, 0, 0)},
        {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
         CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
             CL_DEVICE_ATOMIC_ORDER_SEQ_CST |
             CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
             CL_DEVICE_ATOMIC_SCOPE_DEVICE |
             CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
        {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
         CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
             CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
             CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
             CL_DEVICE_ATOMIC_SCOPE_DEVICE |
             CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
        {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, CL_TRUE},
        {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_TRUE},
        {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, CL_TRUE},
    };
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        cl_ulong value = scalar(fixed[i].name);
        if (value != fixed[i].value)
            fprintf(stderr, "%s:\n", query_find(fixed[i].name)->label);
        CHECK_EQ(value, fixed[i].value);
    }

    cl_platform_id owner = NULL;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(owner), &owner,
                             NULL),
             CL_SUCCESS);
    CHECK(owner == platform);
}

/* cl_arm_import_memory_dma_buf is listed where the kernel has a generic
 * dma_buf exporter: udmabuf or a dma-heap (memory/import.c). */
static bool dma_buf_expected(void)
{
    return access("/dev/udmabuf", F_OK) == 0 ||
           access("/dev/dma_heap/system", F_OK) == 0 ||
           access("/dev/dma_heap/reserved", F_OK) == 0;
}

/* The version, and where the compiler is installed "+" and 16 hex digits
 * of its identity (semver build metadata), which applications' binary
 * caches key on. */
static void check_driver_version(const char *version)
{
    size_t n = strlen(REFCL_TEST_VERSION);
    CHECK(!strncmp(version, REFCL_TEST_VERSION, n));
    if (!full_profile()) {
        CHECK_STR(version, REFCL_TEST_VERSION);
        return;
    }
    CHECK(version[n] == '+');
    CHECK(strlen(version + n + 1) == 16);
    CHECK(strspn(version + n + 1, "0123456789abcdef") == 16);
}

static void check_fixed_strings(void)
{
    char s[1024], expected[1024];
    CHECK_STR(string(CL_DEVICE_PROFILE, s),
              full_profile() ? "FULL_PROFILE" : "EMBEDDED_PROFILE");
    CHECK_STR(string(CL_DEVICE_VERSION, s), "OpenCL 3.0 refcl " REFCL_TEST_VERSION);
    check_driver_version(string(CL_DRIVER_VERSION, s));
    CHECK_STR(string(CL_DEVICE_OPENCL_C_VERSION, s), "OpenCL C 1.2 refcl");
    /* The full profile has 64-bit integers without cles_khr_int64. */
    snprintf(expected, sizeof(expected),
             "cl_khr_icd cl_khr_byte_addressable_store "
             "cl_khr_global_int32_base_atomics "
             "cl_khr_global_int32_extended_atomics "
             "cl_khr_local_int32_base_atomics "
             "cl_khr_local_int32_extended_atomics %s"
             "cl_khr_fp64 %scl_khr_int64_base_atomics "
             "cl_khr_int64_extended_atomics cl_refcl_device_cpuset "
             "cl_khr_3d_image_writes cl_khr_depth_images "
             "cl_khr_image2d_from_buffer cl_arm_import_memory "
             "cl_arm_import_memory_host cl_khr_subgroup_extended_types "
             "cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot "
             "cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle "
             "cl_khr_subgroup_shuffle_relative "
             "cl_khr_subgroup_clustered_reduce%s%s",
             full_profile() ? "" : "cles_khr_int64 ",
             half_expected() ? "cl_khr_fp16 " : "",
             dma_buf_expected() ? " cl_arm_import_memory_dma_buf" : "",
             il_expected() ? " cl_khr_spirv_no_integer_wrap_decoration"
                             " cl_khr_spirv_linkonce_odr"
                           : "");
    CHECK_STR(string(CL_DEVICE_EXTENSIONS, s), expected);
    CHECK_STR(string(CL_DEVICE_IL_VERSION, s),
              il_expected() ? "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 "
                              "SPIR-V_1.4"
                            : "");
    /* docs/built-in-kernels.md, in the order of CL_DEVICE_BUILT_IN_KERNELS_
     * WITH_VERSION (check_fixed_arrays). */
    CHECK_STR(string(CL_DEVICE_BUILT_IN_KERNELS, s),
              "refcl_fill_uchar;refcl_fill_ulong;refcl_iota_uint;"
              "refcl_copy_uint;refcl_lookup_uchar;refcl_saxpy_float;"
              "refcl_reduce_add_uint;refcl_cpu_id;refcl_args64");
    CHECK_STR(string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, s),
              "v0000-01-01-00");
}

static void check_name_versions(cl_device_info name,
                                const cl_name_version *expected, size_t count)
{
    cl_name_version got[32];
    memset(got, 0, sizeof(got));
    CHECK_EQ(array(name, got, sizeof(got)), count * sizeof(cl_name_version));
    for (size_t i = 0; i < count && i < 32; i++) {
        CHECK_STR(got[i].name, expected[i].name);
        CHECK_EQ(got[i].version, expected[i].version);
    }
}

static void check_fixed_arrays(void)
{
    cl_name_version extensions[] = {
        {CL_MAKE_VERSION(2, 0, 0), "cl_khr_icd"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"},
        {CL_MAKE_VERSION(1, 0, 0), "cles_khr_int64"}, /* the 7th */
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp16"}, /* the 9th */
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_base_atomics"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_refcl_device_cpuset"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_3d_image_writes"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_depth_images"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_image2d_from_buffer"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_arm_import_memory"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_arm_import_memory_host"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_extended_types"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_vote"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_ballot"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_arithmetic"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle_relative"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_clustered_reduce"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_arm_import_memory_dma_buf"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_no_integer_wrap_decoration"},
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_linkonce_odr"},
    };
    const cl_name_version c_versions[] = {
        {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
        {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
        {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
        {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
    };
    const cl_name_version features[] = {
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_read_write_images"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_3d_image_writes"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"},
        {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_generic_address_space"},
        {CL_MAKE_VERSION(3, 0, 0),
         "__opencl_c_program_scope_global_variables"},
    };
    size_t count = dma_buf_expected() ? 25 : 24;
    if (!dma_buf_expected()) /* the SPIR-V extensions move up one */
        memmove(&extensions[24], &extensions[25], 2 * sizeof(extensions[0]));
    count += il_expected() ? 2 : 0;
    if (!half_expected()) { /* without cl_khr_fp16 */
        memmove(&extensions[8], &extensions[9],
                (count - 9) * sizeof(extensions[0]));
        count--;
    }
    if (full_profile()) { /* without cles_khr_int64 */
        memmove(&extensions[6], &extensions[7],
                (count - 7) * sizeof(extensions[0]));
        count--;
    }
    check_name_versions(CL_DEVICE_EXTENSIONS_WITH_VERSION, extensions, count);
    check_name_versions(CL_DEVICE_OPENCL_C_ALL_VERSIONS, c_versions, 4);
    _Static_assert(sizeof(features) / sizeof(features[0]) == C_FEATURES,
                   "one feature count");
    check_name_versions(CL_DEVICE_OPENCL_C_FEATURES, features, C_FEATURES);
    const cl_name_version ils[] = {
        {CL_MAKE_VERSION(1, 0, 0), "SPIR-V"},
        {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"},
        {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"},
        {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"},
        {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"},
    };
    check_name_versions(CL_DEVICE_ILS_WITH_VERSION, il_expected() ? ils : NULL,
                        il_expected() ? 5 : 0);
    const cl_name_version builtins[] = {
        {CL_MAKE_VERSION(1, 0, 0), "refcl_fill_uchar"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_fill_ulong"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_iota_uint"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_copy_uint"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_lookup_uchar"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_saxpy_float"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_reduce_add_uint"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_cpu_id"},
        {CL_MAKE_VERSION(1, 0, 0), "refcl_args64"},
    };
    check_name_versions(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, builtins, 9);

    size_t sizes[4] = {0, 0, 0, 12345};
    CHECK_EQ(array(CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes, sizeof(sizes)),
             3 * sizeof(size_t));
    for (int i = 0; i < 3; i++)
        CHECK_EQ(sizes[i], 4096);
    CHECK_EQ(sizes[3], 12345);

    /* The root device has no partition type (the spec allows {0}). */
    cl_device_partition_property type[2] = {-1, -1};
    CHECK_EQ(array(CL_DEVICE_PARTITION_TYPE, type, sizeof(type)),
             sizeof(type[0]));
    CHECK_EQ(type[0], 0);
    CHECK_EQ(type[1], -1);
}

/* ---- the machine, as hwloc sees it ---------------------------------------- */

struct host {
    cl_uint pus;
    cl_ulong memory;
    cl_ulong llc;
    cl_uint line;
    cl_ulong core_cache;
    char name[128];
    char vendor[64];
    cl_uint vendor_id;
    char cpuset[1024]; /* the allowed PUs in hwloc's list syntax */
};

static bool under_dcache(hwloc_obj_t obj)
{
    for (hwloc_obj_t o = obj->parent; o; o = o->parent)
        if (hwloc_obj_type_is_dcache(o->type))
            return true;
    return false;
}

static void host_caches(hwloc_topology_t topo, hwloc_const_bitmap_t allowed,
                        struct host *h)
{
    hwloc_bitmap_t inside = hwloc_bitmap_alloc();
    int depth = hwloc_topology_get_depth(topo);
    for (int d = 0; d < depth; d++) {
        for (unsigned i = 0; i < hwloc_get_nbobjs_by_depth(topo, d); i++) {
            hwloc_obj_t o = hwloc_get_obj_by_depth(topo, d, i);
            if (!hwloc_obj_type_is_dcache(o->type) || under_dcache(o))
                continue;
            hwloc_bitmap_and(inside, o->cpuset, allowed);
            h->llc += o->attr->cache.size *
                      (cl_ulong)hwloc_bitmap_weight(inside) /
                      (cl_ulong)hwloc_bitmap_weight(o->cpuset);
        }
    }
    hwloc_bitmap_free(inside);

    hwloc_obj_t pu =
        hwloc_get_obj_inside_cpuset_by_type(topo, allowed, HWLOC_OBJ_PU, 0);
    for (hwloc_obj_t o = pu; o; o = o->parent) {
        if (!h->line && hwloc_obj_type_is_dcache(o->type))
            h->line = o->attr->cache.linesize;
        if (o->type == HWLOC_OBJ_L2CACHE ||
            (o->type == HWLOC_OBJ_L1CACHE && !h->core_cache))
            h->core_cache = o->attr->cache.size;
    }
    if (!h->line)
        h->line = (cl_uint)sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
}

static void host_identity(hwloc_topology_t topo, struct host *h)
{
    hwloc_obj_t package = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    hwloc_obj_t root = hwloc_get_root_obj(topo);
    const char *model = package ? hwloc_obj_get_info_by_name(package, "CPUModel")
                                : NULL;
    const char *vendor =
        package ? hwloc_obj_get_info_by_name(package, "CPUVendor") : NULL;
    if (!model)
        model = hwloc_obj_get_info_by_name(root, "CPUModel");
    if (!vendor)
        vendor = hwloc_obj_get_info_by_name(root, "CPUVendor");
    /* CPUID's model name is padded with blanks; the device's is not. */
    model = model ? model + strspn(model, " \t") : "CPU";
    size_t length = strlen(model);
    while (length > 0 && strchr(" \t", model[length - 1]))
        length--;
    snprintf(h->name, sizeof(h->name), "%.*s", (int)length, model);
    snprintf(h->vendor, sizeof(h->vendor), "%s", vendor ? vendor : "unknown");
    h->vendor_id = strcmp(h->vendor, "GenuineIntel") == 0   ? 0x8086
                   : strcmp(h->vendor, "AuthenticAMD") == 0 ? 0x1022
                                                            : 0;
}

static bool host_read(struct host *h)
{
    hwloc_topology_t topo;
    memset(h, 0, sizeof(*h));
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
        return false;
    hwloc_bitmap_t allowed =
        hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo));
    hwloc_bitmap_and(allowed, allowed, hwloc_topology_get_complete_cpuset(topo));
    h->pus = (cl_uint)hwloc_bitmap_weight(allowed);
    hwloc_bitmap_list_snprintf(h->cpuset, sizeof(h->cpuset), allowed);

    int nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < nodes; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, i);
        if (hwloc_bitmap_intersects(node->cpuset, allowed))
            h->memory += node->attr->numanode.local_memory;
    }
    if (!h->memory)
        h->memory = (cl_ulong)sysconf(_SC_PHYS_PAGES) *
                    (cl_ulong)sysconf(_SC_PAGESIZE);
    host_caches(topo, allowed, h);
    host_identity(topo, h);
    hwloc_bitmap_free(allowed);
    hwloc_topology_destroy(topo);
    return true;
}

/* REFCL_TEST_EXPECT_<what>, a number, if the registration sets it. */
static bool expected_number(const char *what, cl_ulong *value)
{
    char var[64];
    snprintf(var, sizeof(var), "REFCL_TEST_EXPECT_%s", what);
    const char *text = getenv(var);
    if (!text)
        return false;
    *value = strtoull(text, NULL, 0);
    return true;
}

static void check_number(cl_device_info name, const char *what,
                         cl_ulong from_hwloc)
{
    cl_ulong value = scalar(name);
    cl_ulong expected;
    if (value != from_hwloc)
        fprintf(stderr, "%s differs from hwloc's view:\n", what);
    CHECK_EQ(value, from_hwloc);
    if (expected_number(what, &expected)) {
        if (value != expected)
            fprintf(stderr, "%s differs from REFCL_TEST_EXPECT_%s:\n", what,
                    what);
        CHECK_EQ(value, expected);
    }
}

static void check_text(cl_device_info name, const char *what,
                       const char *from_hwloc)
{
    char s[1024], var[64];
    CHECK_STR(string(name, s), from_hwloc);
    snprintf(var, sizeof(var), "REFCL_TEST_EXPECT_%s", what);
    if (getenv(var))
        CHECK_STR(s, getenv(var));
}

static void check_machine(void)
{
    struct host h;
    if (!host_read(&h)) {
        fprintf(stderr, "hwloc could not load the topology\n");
        test_failures++;
        return;
    }
    cl_ulong quarter = h.memory / 4;
    cl_ulong alloc_floor = 32 * MIB; /* the OpenCL 3.0 minimum, below */
    check_number(CL_DEVICE_MAX_COMPUTE_UNITS, "UNITS", h.pus);
    check_number(CL_DEVICE_GLOBAL_MEM_SIZE, "GLOBAL_MEM", h.memory);
    check_number(CL_DEVICE_MAX_MEM_ALLOC_SIZE, "MAX_ALLOC",
                 quarter > alloc_floor ? quarter : alloc_floor);
    check_number(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, "CACHE", h.llc);
    check_number(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, "CACHELINE", h.line);
    /* One core's cache, at least the profile's minimum. */
    cl_ulong local_min = full_profile() ? 32 * 1024 : 1024;
    check_number(CL_DEVICE_LOCAL_MEM_SIZE, "LOCAL_MEM",
                 h.core_cache > local_min ? h.core_cache : local_min);
    check_number(CL_DEVICE_VENDOR_ID, "VENDOR_ID", h.vendor_id);
    check_text(CL_DEVICE_NAME, "NAME", h.name);
    check_text(CL_DEVICE_VENDOR, "VENDOR", h.vendor);
    check_text(CL_DEVICE_CPUSET_REFCL, "CPUSET", h.cpuset);
}

/* The host CPU's SIMD width in bytes, and its FMA, as refcl must see them. */
static void host_isa(cl_uint *vector_bytes, bool *fma)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    *vector_bytes = __builtin_cpu_supports("avx512f") ? 64
                    : __builtin_cpu_supports("avx")   ? 32
                                                      : 16;
    *fma = __builtin_cpu_supports("fma");
#elif defined(__aarch64__)
    *vector_bytes = 16; /* NEON's 128-bit registers */
    *fma = true;        /* FMADD is in AArch64's base instruction set */
#else
    *vector_bytes = 16;
    *fma = false;
#endif
}

static void check_arithmetic(void)
{
    cl_uint bytes;
    bool fma;
    host_isa(&bytes, &fma);
    const struct {
        cl_device_info preferred, native;
        size_t element;
    } widths[] = {
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
         CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, sizeof(cl_char)},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
         CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, sizeof(cl_short)},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
         CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(cl_int)},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
         CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, sizeof(cl_long)},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
         CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_float)},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
         CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_double)},
    };
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
        CHECK_EQ(scalar(widths[i].preferred), bytes / widths[i].element);
        CHECK_EQ(scalar(widths[i].native), bytes / widths[i].element);
    }
    /* Halves are computed in float's registers; 0 without cl_khr_fp16. */
    cl_ulong half_width = half_expected() ? bytes / sizeof(cl_float) : 0;
    CHECK_EQ(scalar(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), half_width);
    CHECK_EQ(scalar(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), half_width);
    CHECK_EQ(scalar(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), bytes / 4);

    cl_ulong fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                  CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                  (fma ? CL_FP_FMA : 0);
    /* The compiler honours -cl-fp32-correctly-rounded-divide-sqrt. */
    CHECK_EQ(scalar(CL_DEVICE_SINGLE_FP_CONFIG),
             fp | (full_profile() ? CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT : 0));
    /* FMA is part of the double-precision minimum. */
    CHECK_EQ(scalar(CL_DEVICE_DOUBLE_FP_CONFIG), fp | CL_FP_FMA);
    /* Half: rounded to nearest, denormals kept, fma correctly rounded. */
    if (half_expected())
        CHECK_EQ(half_config(),
                 CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                     CL_FP_FMA);
}

/* The clock is nonzero exactly when the host states one. */
static void check_clock(void)
{
    bool stated = access("/sys/devices/system/cpu/cpu0/cpufreq/"
                         "cpuinfo_max_freq",
                         R_OK) == 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && !stated && fgets(line, sizeof(line), f)) {
        const char *colon = strchr(line, ':');
        stated = strncmp(line, "cpu MHz", 7) == 0 && colon &&
                 strtod(colon + 1, NULL) > 0;
    }
    if (f)
        fclose(f);
    cl_ulong mhz = scalar(CL_DEVICE_MAX_CLOCK_FREQUENCY);
    if (stated)
        CHECK(mhz > 0);
    else
        CHECK_EQ(mhz, 0);
    CHECK(scalar(CL_DEVICE_PROFILING_TIMER_RESOLUTION) >= 1);
}

/* ---- consistency between queries ------------------------------------------ */

static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static void check_consistency(void)
{
    char s[1024], profile[32];
    cl_name_version with_version[32];
    size_t bytes = array(CL_DEVICE_EXTENSIONS_WITH_VERSION, with_version,
                         sizeof(with_version));
    size_t count = bytes / sizeof(cl_name_version);

    /* The string is the names of the versioned list, in order. */
    char joined[1024] = "";
    for (size_t i = 0; i < count; i++) {
        if (i)
            strcat(joined, " ");
        strcat(joined, with_version[i].name);
    }
    CHECK_STR(string(CL_DEVICE_EXTENSIONS, s), joined);

    /* Platform extensions "must be supported by all devices". */
    char platform_ext[1024];
    CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS,
                               sizeof(platform_ext), platform_ext, NULL),
             CL_SUCCESS);
    for (char *word = strtok(platform_ext, " "); word;
         word = strtok(NULL, " "))
        CHECK(has_word(s, word));

    /* Double precision: the extension, the feature, the FP config and the
     * vector widths go together. */
    bool fp64 = has_word(s, "cl_khr_fp64");
    cl_name_version features[16];
    size_t nfeatures = array(CL_DEVICE_OPENCL_C_FEATURES, features,
                             sizeof(features)) /
                       sizeof(cl_name_version);
    bool fp64_feature = false;
    for (size_t i = 0; i < nfeatures; i++)
        fp64_feature |= strcmp(features[i].name, "__opencl_c_fp64") == 0;
    CHECK_EQ(fp64_feature, fp64);
    /* Images: the support, the feature and the extensions go together;
     * "Support for 3D image writes ... is indicated by
     * __opencl_c_3d_image_writes" and cl_khr_3d_image_writes alike. */
    bool images_feature = false, writes3d_feature = false;
    for (size_t i = 0; i < nfeatures; i++) {
        images_feature |= strcmp(features[i].name, "__opencl_c_images") == 0;
        writes3d_feature |=
            strcmp(features[i].name, "__opencl_c_3d_image_writes") == 0;
    }
    CHECK_EQ(images_feature, scalar(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
    CHECK_EQ(writes3d_feature, has_word(s, "cl_khr_3d_image_writes"));
    CHECK_EQ(scalar(CL_DEVICE_DOUBLE_FP_CONFIG) != 0, fp64);
    CHECK_EQ(scalar(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0, fp64);
    CHECK_EQ(scalar(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) != 0, fp64);
    /* Half: the extension, the FP config (its minimum "CL_FP_ROUND_TO_ZERO
     * or CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN") and the vector widths
     * ("must return 0" without it) go together. */
    bool fp16 = has_word(s, "cl_khr_fp16");
    CHECK_EQ(fp16, half_expected());
    CHECK_EQ(scalar(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) != 0, fp16);
    CHECK_EQ(scalar(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) != 0, fp16);
    if (fp16) {
        cl_ulong half = half_config();
        CHECK((half & CL_FP_ROUND_TO_ZERO) ||
              (half & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
                  (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    }
    /* Embedded profile: "If double precision is supported ... then
     * cles_khr_int64 must also be supported." The full profile has 64-bit
     * integers and the feature that says so. */
    bool full = !strcmp(string(CL_DEVICE_PROFILE, profile), "FULL_PROFILE");
    if (fp64 && !full)
        CHECK(has_word(s, "cles_khr_int64"));
    bool int64_feature = false;
    for (size_t i = 0; i < nfeatures; i++)
        int64_feature |= strcmp(features[i].name, "__opencl_c_int64") == 0;
    if (full)
        CHECK(!has_word(s, "cles_khr_int64") && int64_feature);
    /* Program-scope variables: the feature, and a size limit of at least
     * "64 KB if the device supports program scope global variables", which
     * "must be 0 for devices that do not"; refcl's, 1 GiB or one buffer's
     * limit, is the preferred total too (device/info.c says why). */
    bool globals_feature = false;
    for (size_t i = 0; i < nfeatures; i++)
        globals_feature |= strcmp(features[i].name,
                                  "__opencl_c_program_scope_global_variables")
                           == 0;
    cl_ulong globals_max = scalar(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    if (globals_max > 1024 * 1024 * 1024)
        globals_max = 1024 * 1024 * 1024;
    CHECK(globals_feature);
    CHECK_EQ(scalar(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE), globals_max);
    CHECK(scalar(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024);
    CHECK_EQ(scalar(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE),
             globals_max);
    /* "The following Khronos extension names must be returned by all
     * devices that support OpenCL 1.1". */
    const char *required[] = {"cl_khr_byte_addressable_store",
                              "cl_khr_global_int32_base_atomics",
                              "cl_khr_global_int32_extended_atomics",
                              "cl_khr_local_int32_base_atomics",
                              "cl_khr_local_int32_extended_atomics"};
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        CHECK(has_word(s, required[i]));
    /* The double-precision minimum of OpenCL 2.0 and newer. */
    cl_ulong fp64_min = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN |
                        CL_FP_DENORM;
    if (fp64)
        CHECK_EQ(scalar(CL_DEVICE_DOUBLE_FP_CONFIG) & fp64_min, fp64_min);

    /* The version string and the numeric version agree. */
    unsigned major = 0, minor = 0;
    CHECK_EQ(sscanf(string(CL_DEVICE_VERSION, s), "OpenCL %u.%u ", &major,
                    &minor),
             2);
    cl_ulong numeric = scalar(CL_DEVICE_NUMERIC_VERSION);
    CHECK_EQ(CL_VERSION_MAJOR(numeric), major);
    CHECK_EQ(CL_VERSION_MINOR(numeric), minor);

    /* CL_DEVICE_COMPILER_AVAILABLE may be CL_FALSE "for the embedded
     * platform profile only"; the linker must be there if the compiler is. */
    if (scalar(CL_DEVICE_COMPILER_AVAILABLE) == CL_FALSE)
        CHECK_STR(string(CL_DEVICE_PROFILE, s), "EMBEDDED_PROFILE");
    else
        CHECK_EQ(scalar(CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);

    /* Work-group shape limits. */
    size_t sizes[3];
    cl_ulong dims = scalar(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    CHECK_EQ(array(CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes, sizeof(sizes)),
             dims * sizeof(size_t));
    for (int i = 0; i < 3; i++)
        CHECK(sizes[i] >= 1 &&
              sizes[i] <= scalar(CL_DEVICE_MAX_WORK_GROUP_SIZE));

    /* Memory limits. */
    /* "max(min(1024 x 1024 x 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE),
     * 32 x 1024 x 1024)" at least. */
    cl_ulong global = scalar(CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong alloc = scalar(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    cl_ulong alloc_min = global / 4 < 1024 * MIB ? global / 4 : 1024 * MIB;
    CHECK(alloc >= alloc_min && alloc >= 32 * MIB && alloc >= global / 4);
    /* The mandated minimum capabilities. */
    CHECK(scalar(CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
    CHECK(scalar(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
          CL_QUEUE_PROFILING_ENABLE);
    /* long16 in bits: "the largest OpenCL built-in data type". */
    CHECK(scalar(CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 8 * 16 * sizeof(cl_long));
    /* "OpenCL<space>C<space><major_version.minor_version><space><vendor-
     * specific information>" */
    unsigned c_major = 0, c_minor = 0;
    char c_vendor[64] = "";
    CHECK_EQ(sscanf(string(CL_DEVICE_OPENCL_C_VERSION, s),
                    "OpenCL C %u.%u %63s", &c_major, &c_minor, c_vendor),
             3);
    /* The minimums of each profile: 32 KiB and 1 KiB of local memory,
     * round to nearest and INF/NaN. */
    CHECK(scalar(CL_DEVICE_LOCAL_MEM_SIZE) >= (full ? 32 * 1024 : 1024));
    if (full)
        CHECK_EQ(scalar(CL_DEVICE_SINGLE_FP_CONFIG) &
                     (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN),
                 CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
    CHECK(scalar(CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
    CHECK(scalar(CL_DEVICE_PARTITION_MAX_SUB_DEVICES) <=
          scalar(CL_DEVICE_MAX_COMPUTE_UNITS));

    /* A single device type bit. */
    cl_ulong type = scalar(CL_DEVICE_TYPE);
    CHECK(type != 0 && (type & (type - 1)) == 0);
}

/* How the device may be partitioned; tests/device/partition.c checks these
 * answers, and every sub-device's, against hwloc. */
static void check_partitioning(void)
{
    cl_ulong units = scalar(CL_DEVICE_MAX_COMPUTE_UNITS);
    cl_ulong domains = scalar(CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
    cl_ulong next = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    cl_ulong expected;
    /* EQUALLY 1 makes the most sub-devices; one unit cannot be split. */
    CHECK_EQ(scalar(CL_DEVICE_PARTITION_MAX_SUB_DEVICES),
             units >= 2 ? units : 0);
    /* NEXT_PARTITIONABLE goes with any level that splits the device. */
    CHECK_EQ((domains & next) != 0, (domains & ~next) != 0);
    if (expected_number("DOMAINS", &expected))
        CHECK_EQ(domains, expected);
}

/* ---- bad handles -------------------------------------------------------- */

static void check_bad_devices(void)
{
    static _Alignas(256) uintptr_t fake[32];
    memcpy(fake, device, 2 * sizeof(uintptr_t));
    cl_device_id bad[5] = {(cl_device_id)fake, (cl_device_id)platform, NULL,
                           test_zeroed_handle(), test_unmapped_handle()};
    /* Loaders read handle->dispatch: only dereferenceable handles there. */
    int count = test_through_loader() ? 2 : 5;
    const cl_device_info names[] = {CL_DEVICE_NAME, CL_DEVICE_TYPE, 0xFFFF};

    for (int i = 0; i < count; i++) {
        for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
            unsigned char buf[64];
            size_t size = SENTINEL_SIZE;
            memset(buf, FILL, sizeof(buf));
            /* CL_INVALID_DEVICE first, even for an unknown name. */
            CHECK_EQ(clGetDeviceInfo(bad[i], names[n], sizeof(buf), buf,
                                     &size),
                     CL_INVALID_DEVICE);
            CHECK_EQ(size, SENTINEL_SIZE);
            CHECK(untouched(buf, 0, sizeof(buf)));
            CHECK_EQ(clGetDeviceInfo(bad[i], names[n], 0, NULL, &size),
                     CL_INVALID_DEVICE);
        }
    }
}

int main(void)
{
    cl_uint platforms = 0;
    if (clGetPlatformIDs(1, &platform, &platforms) != CL_SUCCESS ||
        platforms != 1) {
        fprintf(stderr, "expected exactly one platform, got %u\n", platforms);
        return 1;
    }
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL) !=
        CL_SUCCESS) {
        fprintf(stderr, "no CPU device\n");
        return 1;
    }

    check_all_queries();
    check_unknown_names();
    check_fixed_values();
    check_image_minimums();
    check_fixed_strings();
    check_fixed_arrays();
    check_machine();
    check_arithmetic();
    check_clock();
    check_consistency();
    check_partitioning();
    check_bad_devices();
    return TEST_RESULT();
}
