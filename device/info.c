/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clGetDeviceInfo: every OpenCL 3.0 device query, the deprecated ones that
 * CL/cl.h still names included.
 *
 * Policy: hardware facts come from the topology (device/topology.c), never
 * invented. Where the OpenCL C compiler is installed (refcl_platform_full_profile) the
 * device has the FULL_PROFILE and its minimums; without it, what belongs to
 * the compiler reports the spec's EMBEDDED_PROFILE minimum or "not
 * supported", and so do runtime features refcl lacks. Queries of extensions refcl does not list (cl_khr_device_uuid,
 * cl_khr_pci_bus_info, ..., and cl_khr_fp16's CL_DEVICE_HALF_FP_CONFIG on
 * a CPU without half conversions) are unknown names.
 *
 * One flat switch, grouped by family, where each case returns its answer
 * through refcl_info_return: scalars inline, so the common query makes no
 * call and needs no stack frame (bench's device-info.scalar), answers of
 * run-time size by a tail call to a small function.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "refcl/api.h"
#include "refcl/device.h"
#include "refcl/info.h"
#include "refcl/platform.h"
#include "refcl/version.h"
/* After refcl/compat.h, which picks the CL headers' API version. */
#include "CL/cl_ext_refcl.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* CL_DEVICE_ATOMIC_*_CAPABILITIES: every order, every scope wider than a
 * work-item. */
#define ATOMIC_ORDERS                                                         \
    (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |        \
     CL_DEVICE_ATOMIC_ORDER_SEQ_CST)
#define ATOMIC_SCOPES                                                         \
    (CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |      \
     CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)

/* Identity. The profile is the platform's (refcl_platform_profile): FULL
 * with the compiler, else EMBEDDED, because CL_DEVICE_COMPILER_AVAILABLE is
 * then CL_FALSE, which the spec allows "for the embedded platform profile
 * only". */
#define DEVICE_VERSION "OpenCL 3.0 refcl " REFCL_VERSION_STRING
#define DEVICE_NUMERIC_VERSION CL_MAKE_VERSION(3, 0, 0)
#define DEVICE_OPENCL_C_VERSION "OpenCL C 1.2 refcl"
/* refcl has passed no conformance run: the earliest version string there
 * is, rather than a claim. */
#define DEVICE_CONFORMANCE_VERSION "v0000-01-01-00"

/* Implementation limits refcl promises to kernels. */
/** Work-item dimensions: the spec's minimum for non-custom devices. */
#define MAX_WORK_ITEM_DIMENSIONS 3u
/** Work-items per work-group: what the built-in kernels take. */
#define MAX_WORK_GROUP_SIZE REFCL_MAX_WORK_GROUP_SIZE
/** Work-items per dimension: a whole work-group may lie along any axis. */
#define MAX_WORK_ITEM_SIZE MAX_WORK_GROUP_SIZE
/** Bytes of kernel arguments: the full-profile minimum (embedded: 256). */
#define MAX_PARAMETER_SIZE 1024u
/** Bytes of one __constant buffer: the spec's minimum, 64 KiB. */
#define MAX_CONSTANT_BUFFER_SIZE REFCL_MAX_CONSTANT_BUFFER_SIZE
/** __constant arguments per kernel: the spec's minimum. */
#define MAX_CONSTANT_ARGS 8u
/** Sub-buffer alignment in bits: long16, the largest built-in type; what
 *  sub-buffers (memory/) and kernel arguments (kernel/) hold to. */
#define MEM_BASE_ADDR_ALIGN_BITS (REFCL_MEM_BASE_ALIGN * 8u)
/** Smallest alignment for any data type, in bytes: long16 again. */
#define MIN_DATA_TYPE_ALIGN_SIZE 128u
/** Local memory lower bounds: the embedded-profile minimum, 1 KiB, and
 *  the full profile's, 32 KiB. */
#define LOCAL_MEM_MIN_SIZE 1024u
#define LOCAL_MEM_FULL_MIN_SIZE (32u * 1024u)
/** Lower bound of CL_DEVICE_MAX_MEM_ALLOC_SIZE: "The minimum value is
 *  max(min(1024 x 1024 x 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE),
 *  32 x 1024 x 1024)" (the embedded profile no longer lowers it); refcl
 *  answers max(CL_DEVICE_GLOBAL_MEM_SIZE / 4, 32 MiB). */
#define MAX_MEM_ALLOC_MIN_SIZE (32u * 1024u * 1024u)
/** The most bytes of one program-scope __global variable, 1 GiB. Kernels
 *  are built for the small code model (clang's default: a variable's
 *  address is one instruction relative to the code), where an executable's
 *  code and data must lie within 2 GiB of each other (x86-64; 4 GiB on
 *  AArch64). Two variables of this size fit; a program whose variables go
 *  past that fails to link, its log naming the relocation out of range. */
#define GLOBAL_VARIABLE_MAX_SIZE (1024u * 1024u * 1024u)

/* ---- dma_buf support -------------------------------------------------- */

static bool dma_buf_supported;
static pthread_once_t dma_buf_once = PTHREAD_ONCE_INIT;

/* Does /dev/dma_heap hold a heap? */
static bool dma_heap_present(void)
{
    struct stat st;
    return stat("/dev/dma_heap/system", &st) == 0 ||
           stat("/dev/dma_heap/reserved", &st) == 0;
}

/* refcl imports any dma_buf it can map, and every dma_buf the kernel's two
 * generic exporters make can be mapped: udmabuf (a dma_buf over a memfd)
 * and the dma-heaps. Where neither device exists, no process can make a
 * dma_buf refcl could be sure to import, and the extension is not listed.
 * Two stat calls, once. */
static void dma_buf_probe(void)
{
    struct stat st;
    dma_buf_supported = stat("/dev/udmabuf", &st) == 0 || dma_heap_present();
}

bool refcl_import_dma_buf_supported(void)
{
    pthread_once(&dma_buf_once, dma_buf_probe);
    return dma_buf_supported;
}

/* The device's extensions: the platform's (cl_khr_icd), which "must be
 * supported by all devices associated with this platform", then these.
 * CL_DEVICE_EXTENSIONS is made from the same list, so the string and
 * CL_DEVICE_EXTENSIONS_WITH_VERSION cannot disagree.
 *
 * "The following Khronos extension names must be returned by all devices
 * that support OpenCL 1.1": the five below; and in the embedded profile
 * "If double precision is supported ... then cles_khr_int64 must also be
 * supported"; the full profile has 64-bit integers without it, and lists
 * it not (extensions_init). */
static const cl_name_version device_only_extensions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cles_khr_int64"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"},
    /* compiler/lib's half functions, half arithmetic in kernels: only
     * where kernels convert halves with instructions (half_supported). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp16"},
    /* compiler/lib's atom_* of long and ulong (docs/builtins.md). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics"},
    {CL_REFCL_DEVICE_CPUSET_EXTENSION_VERSION,
     CL_REFCL_DEVICE_CPUSET_EXTENSION_NAME},
    /* image/: 3D images written by kernels, CL_DEPTH images, 2D images
     * made from buffers (REFCL_IMAGE_ALIGNMENT). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_3d_image_writes"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_depth_images"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_image2d_from_buffer"},
    /* memory/import.c: "cl_arm_import_memory will be reported if at least
     * one of the other extension strings is also reported". */
    {CL_MAKE_VERSION(1, 0, 0), "cl_arm_import_memory"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_arm_import_memory_host"},
    /* subgroup.cl's char, uchar, short and ushort collectives and vector
     * broadcasts, on __opencl_c_subgroups. Not cl_khr_subgroups itself:
     * CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS "must return
     * CL_TRUE for devices that support the cl_khr_subgroups extension",
     * and refcl's sub-groups run one after another. */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_extended_types"},
    /* subgroup_nu.cl: the functions of non-uniform control flow, whose
     * active work-items the work-group pass runs together. */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_vote"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_ballot"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_arithmetic"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle_relative"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_clustered_reduce"},
};
/* Only where the kernel can make a dma_buf refcl can map. */
static const cl_name_version dma_buf_extension = {CL_MAKE_VERSION(1, 0, 0),
                                                  "cl_arm_import_memory_dma_buf"};
/* Only where refcl reads SPIR-V, SPIR-V extensions llvm-spirv-15 reads:
 * SPV_KHR_no_integer_wrap_decoration's NoSignedWrap and NoUnsignedWrap as
 * LLVM's nsw and nuw, SPV_KHR_linkonce_odr's LinkOnceODR as linkonce_odr
 * (which refcl-spirv-names makes weak_odr, for clLinkProgram). */
static const cl_name_version spirv_extensions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_no_integer_wrap_decoration"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_spirv_linkonce_odr"},
};
#define SPIRV_EXTENSION_COUNT \
    (sizeof(spirv_extensions) / sizeof(spirv_extensions[0]))
#define DEVICE_ONLY_COUNT \
    (sizeof(device_only_extensions) / sizeof(device_only_extensions[0]))
#define MAX_EXTENSIONS \
    (REFCL_PLATFORM_EXTENSIONS_MAX + DEVICE_ONLY_COUNT + 1 + \
     SPIRV_EXTENSION_COUNT)
static cl_name_version device_extensions[MAX_EXTENSIONS];
static size_t extension_count;
static bool fp16_listed; /* cl_khr_fp16 among them */
static char extensions_string[MAX_EXTENSIONS * CL_NAME_VERSION_MAX_NAME_SIZE];
static pthread_once_t extensions_once = PTHREAD_ONCE_INIT;

/* The embedded profile's name for 64-bit integers. */
static bool embedded_only(const cl_name_version *extension)
{
    return !strcmp(extension->name, "cles_khr_int64");
}

/* Whether kernels convert between half and float with instructions:
 * x86's F16C (VEX-encoded, so with the OS's AVX state), unless REFCL_CPU
 * builds kernels for a level below it (x86-64-v3 has it); AArch64's base
 * ISA (FCVT). LLVM 15 computes half arithmetic in float between such
 * conversions; without them it calls libgcc's __extendhfsf2 and
 * __truncsfhf2, which programs are not linked with (compiler/link). */
static bool half_supported(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax, ebx, ecx, edx;
    /* The levels of compiler/cpu.c below x86-64-v3. */
    const char *cpu = secure_getenv("REFCL_CPU");
    if (cpu && (!strcmp(cpu, "x86-64") || !strcmp(cpu, "x86-64-v2")))
        return false;
    __builtin_cpu_init();
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) &&
           __builtin_cpu_supports("avx");
#elif defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

/* Whether the device lists @p extension (of device_only_extensions). */
static bool listed(const cl_name_version *extension, bool full)
{
    if (full && embedded_only(extension))
        return false;
    return strcmp(extension->name, "cl_khr_fp16") || half_supported();
}

static void extensions_init(void)
{
    const cl_name_version *platform;
    size_t n = refcl_platform_extensions(&platform);
    bool full = refcl_platform_full_profile();
    for (size_t i = 0; i < n; i++)
        device_extensions[extension_count++] = platform[i];
    for (size_t i = 0; i < DEVICE_ONLY_COUNT; i++)
        if (listed(&device_only_extensions[i], full)) {
            device_extensions[extension_count++] = device_only_extensions[i];
            fp16_listed |= !strcmp(device_only_extensions[i].name, "cl_khr_fp16");
        }
    if (refcl_import_dma_buf_supported())
        device_extensions[extension_count++] = dma_buf_extension;
    for (size_t i = 0; i < SPIRV_EXTENSION_COUNT && refcl_platform_reads_il();
         i++)
        device_extensions[extension_count++] = spirv_extensions[i];
    refcl_names_join(device_extensions, extension_count, extensions_string,
                     sizeof(extensions_string));
}

static const cl_name_version opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/* CL_DEVICE_ILS_WITH_VERSION, as REFCL_IL_VERSIONS. */
static const cl_name_version il_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"},
    {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"},
    {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"},
};

/* Optional OpenCL C 3.0 features; __opencl_c_fp64 goes with cl_khr_fp64.
 * The atomic ones match CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: OpenCL C 3.0
 * s6.2.1 "__opencl_c_atomic_order_acq_rel ... The OpenCL C compiler
 * supports enumerations and built-in functions for atomic operations with
 * acquire and release memory consistency orders", and likewise seq_cst,
 * device and all-devices scope (compiler/lib: c11atomic). */
static const cl_name_version opencl_c_features[] = {
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"},
    /* image/ and compiler/lib's image functions. */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_read_write_images"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_3d_image_writes"},
    /* compiler/lib/src/workgroup.cl with the work-group pass. */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions"},
    /* compiler/lib/src/subgroup.cl with the work-group pass
     * (docs/compiler.md), clGetKernelSubGroupInfo (kernel/info.c). */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"},
    /* OpenCL C 3.0 s6.2.1 "__opencl_c_generic_address_space: The OpenCL C
     * compiler supports the generic address space": unqualified pointers,
     * to_global/to_local/to_private and get_fence (lowered by the
     * work-group pass) and the library's generic overloads. */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_generic_address_space"},
    /* Each program's executable has its own data segment
     * (compiler/executable.c), where its __global variables live. */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_program_scope_global_variables"},
};

/* The macros clang 15 leaves to the driver: the features it takes only as
 * macros (-cl-ext knows the orders but not the scopes, which
 * opencl-c-base.h defines itself for SPIR only), image constants it lacks,
 * and __OPENCL_VERSION__,
 * the device's version, which clang 15 does not define for any target.
 * OpenCL C 3.0 s6.12: "__OPENCL_VERSION__ substitutes
 * an integer reflecting the version number of the OpenCL supported by the
 * OpenCL device. The version of OpenCL described in this document will
 * have __OPENCL_VERSION__ substitute the integer 300." */
static const char *const clang_feature_macros[] = {
    "-D__opencl_c_atomic_scope_device=1",
    "-D__opencl_c_atomic_scope_all_devices=1",
    "-D__opencl_c_work_group_collective_functions=1",
    /* Extensions clang 15 knows only for SPIR (opencl-c-base.h), which
     * opencl-c.h's declarations of their functions test; with OpenCL C 3.0
     * only, as __opencl_c_subgroups, which they extend (compiler/driver.c). */
    "-Dcl_khr_subgroup_extended_types=1",
    "-Dcl_khr_subgroup_non_uniform_vote=1",
    "-Dcl_khr_subgroup_ballot=1",
    "-Dcl_khr_subgroup_non_uniform_arithmetic=1",
    "-Dcl_khr_subgroup_shuffle=1",
    "-Dcl_khr_subgroup_shuffle_relative=1",
    "-Dcl_khr_subgroup_clustered_reduce=1",
    "-D__OPENCL_VERSION__=300",
    /* "__IMAGE_SUPPORT__ ... is set to 1 if images are supported". */
    "-D__IMAGE_SUPPORT__=1",
    /* A value get_image_channel_data_type returns (OpenCL C 3.0 s6.15.15.7,
     * the channel data type table) that clang 15's opencl-c-base.h lacks:
     * CL_UNORM_INT_101010_2's. */
    "-DCLK_UNORM_INT_101010_2=0x10E0",
    NULL,
};

/* The extensions and features that change what OpenCL C compiles: those
 * of the device's that clang 15 knows (clang/Basic/OpenCLExtensions.def);
 * the API's own (cl_khr_icd, cl_arm_import_memory...) are not for it. */
static const char *const language_extensions[] = {
    "cl_khr_byte_addressable_store",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_subgroups",
    "cles_khr_int64",
};

/* Whether the device lists cl_khr_fp16. */
static bool fp16_device(void)
{
    pthread_once(&extensions_once, extensions_init);
    return fp16_listed;
}

/* "-cl-ext=-all,+name..." with every feature and language extension. */
static char clang_extensions[sizeof("-cl-ext=-all") +
                             (MAX_EXTENSIONS + sizeof(opencl_c_features) /
                                                   sizeof(opencl_c_features[0])) *
                                 (CL_NAME_VERSION_MAX_NAME_SIZE + 2)];
static pthread_once_t clang_extensions_once = PTHREAD_ONCE_INIT;

static bool language_extension(const char *name)
{
    for (size_t i = 0; i < sizeof(language_extensions) /
                               sizeof(language_extensions[0]); i++)
        if (!strcmp(name, language_extensions[i]))
            return true;
    return false;
}

/* True for a feature clang_feature_macros defines. */
static bool clang_feature_macro(const char *name)
{
    size_t length = strlen(name);
    for (const char *const *m = clang_feature_macros; *m; m++)
        if (!strncmp(*m + 2, name, length) && (*m)[2 + length] == '=')
            return true;
    return false;
}

/* ",+name" at @p end; the buffer holds every name (its size above). */
static char *append_enabled(char *end, const char *name)
{
    return end + sprintf(end, ",+%s", name);
}

static void clang_extensions_init(void)
{
    pthread_once(&extensions_once, extensions_init);
    char *end = clang_extensions + sprintf(clang_extensions, "-cl-ext=-all");
    for (size_t i = 0; i < extension_count; i++)
        if (language_extension(device_extensions[i].name))
            end = append_enabled(end, device_extensions[i].name);
    for (size_t i = 0;
         i < sizeof(opencl_c_features) / sizeof(opencl_c_features[0]); i++)
        if (!clang_feature_macro(opencl_c_features[i].name))
            end = append_enabled(end, opencl_c_features[i].name);
}

const char *refcl_device_clang_extensions(void)
{
    pthread_once(&clang_extensions_once, clang_extensions_init);
    return clang_extensions;
}

const char *const *refcl_device_clang_macros(void)
{
    return clang_feature_macros;
}

/* CL_DEVICE_PARTITION_TYPE of a root device: the spec allows "a property
 * value of 0" for "no partition type associated with device". */
static const cl_device_partition_property no_partition[] = {0};

/* Elements of @p element_size bytes in the widest SIMD register. */
static cl_uint lanes(const struct refcl_topology *topo, size_t element_size)
{
    return topo->native_vector_bytes / (cl_uint)element_size;
}

/* Rounding modes, denormals, INF and NaN are native on every host CPU refcl
 * runs on; single-precision FMA only where the CPU has it. */
static cl_device_fp_config fp_config(const struct refcl_topology *topo)
{
    return CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
           CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
           (topo->fma ? CL_FP_FMA : 0);
}

static cl_ulong max_mem_alloc_size(const struct refcl_topology *topo)
{
    cl_ulong quarter = topo->global_mem_size / 4;
    return quarter > MAX_MEM_ALLOC_MIN_SIZE ? quarter : MAX_MEM_ALLOC_MIN_SIZE;
}

/* CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, "the maximum number of bytes of
 * storage that may be allocated for any single variable in program scope or
 * inside a function ... declared in the global address space" ("The minimum
 * value is 64 KB"). A variable lives in its executable's data segment, zero
 * pages until written, so memory is the bound: no more than one buffer
 * may take (CL_DEVICE_MAX_MEM_ALLOC_SIZE). And no more than
 * GLOBAL_VARIABLE_MAX_SIZE: its comment says how kernels address it.
 * CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, "the capacity of" the
 * storage "with optimized device access", is the same: refcl's variables
 * are all in host memory, and this is what a program's may total with
 * room to spare. */
static size_t global_variable_max_size(const struct refcl_topology *topo)
{
    cl_ulong most = GLOBAL_VARIABLE_MAX_SIZE, alloc = max_mem_alloc_size(topo);
    return (size_t)(alloc < most ? alloc : most);
}

/* Single precision: the compiler divides and takes square roots with the
 * CPU's IEEE instructions (fdiv, llvm.sqrt; refcl-builtins' sqrt), so it
 * honours -cl-fp32-correctly-rounded-divide-sqrt. */
static cl_device_fp_config single_fp_config(const struct refcl_topology *topo)
{
    return fp_config(topo) | (refcl_platform_full_profile()
                                  ? CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
                                  : 0);
}

static cl_ulong local_mem_size(const struct refcl_topology *topo)
{
    cl_ulong local = topo->core_cache_size;
    cl_ulong least = refcl_platform_full_profile() ? LOCAL_MEM_FULL_MIN_SIZE
                                                   : LOCAL_MEM_MIN_SIZE;
    return local > least ? local : least;
}

cl_ulong refcl_max_mem_alloc_size(void)
{
    const struct refcl_topology *topo = refcl_topology_get();
    return topo ? max_mem_alloc_size(topo) : MAX_MEM_ALLOC_MIN_SIZE;
}

cl_ulong refcl_local_mem_size(void)
{
    const struct refcl_topology *topo = refcl_topology_get();
    return topo ? local_mem_size(topo) : LOCAL_MEM_MIN_SIZE;
}

/* The built-in kernels exec/builtin.c registers at load; none until. */
static const struct refcl_kernel_desc *builtin_none(const char *name,
                                                size_t length)
{
    (void)name;
    (void)length;
    return NULL;
}

static const struct refcl_builtin_list no_builtins = {"", NULL, 0,
                                                      builtin_none};
static const struct refcl_builtin_list *builtins = &no_builtins;

void refcl_device_builtins_register(const struct refcl_builtin_list *list)
{
    builtins = list;
}

const struct refcl_builtin_list *refcl_device_builtins(void)
{
    return builtins;
}

/* CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION. */
static __attribute__((noinline)) cl_int
reply_builtin_versions(size_t size, void *value, size_t *size_ret)
{
    return refcl_info_return(builtins->versions,
                             builtins->count * sizeof(cl_name_version), size,
                             value, size_ret);
}

/* The caller's three outputs, where every answer goes. */
struct query {
    size_t size;      /* param_value_size */
    void *value;      /* param_value */
    size_t *size_ret; /* param_value_size_ret */
};

/*
 * Answers of a fixed type, inline: refcl_info_return then knows the size
 * and copies with one move, and the common query makes no call and needs
 * no stack frame.
 */
static inline cl_int answer_uint(struct query q, cl_uint v)
{
    return refcl_info_return(&v, sizeof(v), q.size, q.value, q.size_ret);
}

/* cl_bool is a cl_uint; the name says what the query returns. */
static inline cl_int answer_bool(struct query q, cl_bool v)
{
    return answer_uint(q, v);
}

/* cl_ulong, and every cl_bitfield type (cl_device_type, *_config, ...). */
static inline cl_int answer_ulong(struct query q, cl_ulong v)
{
    return refcl_info_return(&v, sizeof(v), q.size, q.value, q.size_ret);
}

static inline cl_int answer_size(struct query q, size_t v)
{
    return refcl_info_return(&v, sizeof(v), q.size, q.value, q.size_ret);
}

/* cl_platform_id, cl_device_id. */
static inline cl_int answer_handle(struct query q, const void *v)
{
    return refcl_info_return(&v, sizeof(v), q.size, q.value, q.size_ret);
}

/*
 * Answers whose size is known only at run time, and those that must call
 * out first, out of line (reply_*): inline, each would carry its own copy,
 * and any call would give every query a stack frame. The query reaches
 * them by a tail call, so they take the outputs one by one, in registers.
 */
static __attribute__((noinline)) cl_int reply_bytes(const void *v, size_t n,
                                                    size_t size, void *value,
                                                    size_t *size_ret)
{
    return refcl_info_return(v, n, size, value, size_ret);
}

static __attribute__((noinline)) cl_int reply_string(const char *s,
                                                     size_t size, void *value,
                                                     size_t *size_ret)
{
    return refcl_info_string(s, size, value, size_ret);
}

static inline cl_int answer_array(struct query q, const void *v, size_t n)
{
    return reply_bytes(v, n, q.size, q.value, q.size_ret);
}

static inline cl_int answer_string(struct query q, const char *s)
{
    return reply_string(s, q.size, q.value, q.size_ret);
}

/* The answers that depend on whether the compiler is installed, out of
 * line: the check is a call. */
static __attribute__((noinline)) cl_int
reply_profile(size_t size, void *value, size_t *size_ret)
{
    return refcl_info_string(refcl_platform_profile(), size, value, size_ret);
}

static __attribute__((noinline)) cl_int
reply_compiler_available(size_t size, void *value, size_t *size_ret)
{
    cl_bool available = refcl_platform_full_profile() ? CL_TRUE : CL_FALSE;
    return refcl_info_return(&available, sizeof(available), size, value,
                             size_ret);
}

static __attribute__((noinline)) cl_int
reply_single_fp_config(const struct refcl_topology *topo, size_t size,
                       void *value, size_t *size_ret)
{
    cl_device_fp_config config = single_fp_config(topo);
    return refcl_info_return(&config, sizeof(config), size, value, size_ret);
}

static __attribute__((noinline)) cl_int
reply_local_mem_size(const struct refcl_topology *topo, size_t size,
                     void *value, size_t *size_ret)
{
    cl_ulong bytes = local_mem_size(topo);
    return refcl_info_return(&bytes, sizeof(bytes), size, value, size_ret);
}

/* CL_DEVICE_EXTENSIONS and CL_DEVICE_EXTENSIONS_WITH_VERSION, made from the
 * one list on first use. */
static __attribute__((noinline)) cl_int
reply_extensions(cl_device_info name, size_t size, void *value,
                 size_t *size_ret)
{
    pthread_once(&extensions_once, extensions_init);
    if (name == CL_DEVICE_EXTENSIONS)
        return refcl_info_string(extensions_string, size, value, size_ret);
    return refcl_info_return(device_extensions,
                             extension_count * sizeof(cl_name_version), size,
                             value, size_ret);
}

static size_t timer_resolution_ns(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1;
    size_t ns = (size_t)res.tv_sec * 1000000000u + (size_t)res.tv_nsec;
    return ns ? ns : 1;
}

static __attribute__((noinline)) cl_int
reply_timer_resolution(size_t size, void *value, size_t *size_ret)
{
    size_t ns = timer_resolution_ns();
    return refcl_info_return(&ns, sizeof(ns), size, value, size_ret);
}

/* CL_DEVICE_CPUSET_REFCL (cl_refcl_device_cpuset), formatted on first use. */
static __attribute__((noinline)) cl_int
reply_cpuset(const struct _cl_device_id *device, size_t size, void *value,
             size_t *size_ret)
{
    return refcl_info_string(refcl_device_cpuset_list(device), size, value,
                             size_ret);
}

/* Aligned to a cache line: the path of a scalar query (validation, the
 * jump table, the answer) then spans as few lines as the code allows,
 * wherever the linker puts the function. From a 16-byte boundary the
 * bench's device-info.scalar took 10-20% longer. */
__attribute__((aligned(64))) cl_int CL_API_CALL
refcl_clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                      size_t param_value_size, void *param_value,
                      size_t *param_value_size_ret)
{
    static const size_t work_item_sizes[MAX_WORK_ITEM_DIMENSIONS] = {
        MAX_WORK_ITEM_SIZE, MAX_WORK_ITEM_SIZE, MAX_WORK_ITEM_SIZE};

    /* CL_INVALID_DEVICE "if device is not valid". refcl_invalid_handle is
     * cold: the compiler moves this path out of the way. */
    if (!refcl_object_valid(device, REFCL_DEVICE))
        return refcl_invalid_handle(device, REFCL_DEVICE);
    /* A live device was made from the loaded topology (refcl_device_create
     * asks for it), so this load needs no refcl_topology_get, whose call
     * would give every query a stack frame. NULL only while the library
     * unloads. */
    const struct refcl_topology *topo =
        atomic_load_explicit(&refcl_topology_loaded, memory_order_acquire);
    if (!topo)
        return refcl_invalid_handle(device, REFCL_DEVICE);
    const struct query q = {param_value_size, param_value,
                            param_value_size_ret};

    /* CL_INVALID_VALUE "if size in bytes specified by param_value_size is <
     * size of return type ... and param_value is not a NULL value": the
     * answer_* and reply_* functions, through refcl_info_return. */
    switch (param_name) {
    /* Who the device is. */
    case CL_DEVICE_TYPE:
        return answer_ulong(q, CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_VENDOR_ID:
        return answer_uint(q, topo->vendor_id);
    case CL_DEVICE_NAME:
        return answer_string(q, topo->cpu_name);
    case CL_DEVICE_VENDOR:
        return answer_string(q, topo->cpu_vendor);
    case CL_DRIVER_VERSION:
        return answer_string(q, refcl_platform_driver_version());
    case CL_DEVICE_PROFILE:
        return reply_profile(q.size, q.value, q.size_ret);
    case CL_DEVICE_VERSION:
        return answer_string(q, DEVICE_VERSION);
    case CL_DEVICE_NUMERIC_VERSION:
        return answer_uint(q, DEVICE_NUMERIC_VERSION);
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
        return answer_string(q, DEVICE_CONFORMANCE_VERSION);
    case CL_DEVICE_PLATFORM:
        return answer_handle(q, device->obj.platform);
    case CL_DEVICE_AVAILABLE:
        return answer_bool(q, CL_TRUE);
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
        return reply_compiler_available(q.size, q.value, q.size_ret);

    /* Languages, intermediate languages, extensions, built-in kernels. */
    case CL_DEVICE_OPENCL_C_VERSION:
        return answer_string(q, DEVICE_OPENCL_C_VERSION);
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        return answer_array(q, opencl_c_versions, sizeof(opencl_c_versions));
    case CL_DEVICE_OPENCL_C_FEATURES:
        return answer_array(q, opencl_c_features, sizeof(opencl_c_features));
    case CL_DEVICE_EXTENSIONS:
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        return reply_extensions(param_name, q.size, q.value, q.size_ret);
    /* SPIR-V where the translator is; else "" and no entries. */
    case CL_DEVICE_IL_VERSION:
        return answer_string(q, refcl_platform_reads_il() ? REFCL_IL_VERSIONS
                                                           : "");
    case CL_DEVICE_ILS_WITH_VERSION:
        return refcl_platform_reads_il()
                   ? answer_array(q, il_versions, sizeof(il_versions))
                   : answer_array(q, NULL, 0);
    /* The built-in kernels (docs/built-in-kernels.md), on every device. */
    case CL_DEVICE_BUILT_IN_KERNELS:
        return answer_string(q, builtins->names);
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
        return reply_builtin_versions(q.size, q.value, q.size_ret);

    /* Execution resources and the limits of an ND-range. */
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        return answer_uint(q, device->compute_units);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        return answer_uint(q, topo->max_clock_mhz);
    case CL_DEVICE_ADDRESS_BITS:
        return answer_uint(q, 8u * (cl_uint)sizeof(void *));
    case CL_DEVICE_ENDIAN_LITTLE:
        return answer_bool(q, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                                  ? CL_TRUE
                                  : CL_FALSE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
        return reply_timer_resolution(q.size, q.value, q.size_ret);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        return answer_ulong(q, REFCL_EXEC_CAPABILITIES);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        return answer_uint(q, MAX_WORK_ITEM_DIMENSIONS);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return answer_array(q, work_item_sizes, sizeof(work_item_sizes));
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        return answer_size(q, MAX_WORK_GROUP_SIZE);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        /* One float lane per work-item of a SIMD register. */
        return answer_size(q, lanes(topo, sizeof(cl_float)));
    case CL_DEVICE_MAX_PARAMETER_SIZE:
        return answer_size(q, MAX_PARAMETER_SIZE);
    case CL_DEVICE_MAX_CONSTANT_ARGS:
        return answer_uint(q, MAX_CONSTANT_ARGS);
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
        /* "Maximum size in bytes of the internal buffer that holds the
         * output of printf calls from a kernel. The minimum value for the
         * FULL profile is 1 MB": each command's records (exec/printf.c). */
        return answer_size(q, REFCL_PRINTF_BUFFER_SIZE);

    /* Vector widths and floating point. Half's: "If the cl_khr_fp16
     * extension is not supported, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF must
     * return 0"; with it, float's, in whose registers halves are
     * computed. */
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
        return answer_uint(q, lanes(topo, sizeof(cl_char)));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
        return answer_uint(q, lanes(topo, sizeof(cl_short)));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
        return answer_uint(q, lanes(topo, sizeof(cl_int)));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
        return answer_uint(q, lanes(topo, sizeof(cl_long)));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
        return answer_uint(q, lanes(topo, sizeof(cl_float)));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
        return answer_uint(q, lanes(topo, sizeof(cl_double)));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
        return answer_uint(q, fp16_device() ? lanes(topo, sizeof(cl_float)) : 0);
    case CL_DEVICE_SINGLE_FP_CONFIG:
        return reply_single_fp_config(topo, q.size, q.value, q.size_ret);
    /* cl_khr_fp64 is listed. "If double precision is supported by the
     * device, then the minimum double precision floating-point capability
     * for OpenCL 2.0 or newer devices is: CL_FP_FMA | ...": libm's fma()
     * is correctly rounded with or without hardware FMA. */
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        return answer_ulong(q, fp_config(topo) | CL_FP_FMA);

    /* Global, local and constant memory, caches, alignment, atomics. */
    case CL_DEVICE_GLOBAL_MEM_SIZE:
        return answer_ulong(q, topo->global_mem_size);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        return answer_ulong(q, max_mem_alloc_size(topo));
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
        return answer_uint(q, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
        return answer_uint(q, topo->cacheline_size);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
        return answer_ulong(q, device->global_mem_cache_size);
    case CL_DEVICE_LOCAL_MEM_TYPE:
        return answer_uint(q, CL_GLOBAL); /* emulated in host memory */
    case CL_DEVICE_LOCAL_MEM_SIZE:
        return reply_local_mem_size(topo, q.size, q.value, q.size_ret);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        return answer_ulong(q, MAX_CONSTANT_BUFFER_SIZE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
        return answer_bool(q, CL_TRUE);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
        return answer_bool(q, CL_FALSE);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
        return answer_uint(q, MEM_BASE_ADDR_ALIGN_BITS);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
        return answer_uint(q, MIN_DATA_TYPE_ALIGN_SIZE);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
        return answer_size(q, global_variable_max_size(topo));
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        return answer_size(q, global_variable_max_size(topo));
    /* One address space and one coherent memory for host and device
     * (memory/svm.c); no SVM atomics: docs/memory.md says why. */
    case CL_DEVICE_SVM_CAPABILITIES:
        return answer_ulong(q, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                   CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                   CL_DEVICE_SVM_FINE_GRAIN_SYSTEM);
    /* 0: "aligned to the natural size of the type". */
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
        return answer_uint(q, 0);
    /* Every order and scope: the library's atomics and fences are the
     * CPU's, system-wide (compiler/lib: c11atomic), and "a device that
     * supports a strong memory order must also support all weaker memory
     * orders" and "a device that supports a wide scope must also support
     * all narrower scopes, except for the work-item scope", which is for
     * fences only (OpenCL C 3.0 s6.15.12: "The memory_scope_work_item value
     * for memory_scope can only be used with atomic_work_item_fence with
     * flags set to CLK_IMAGE_MEM_FENCE"). */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
        return answer_ulong(q, ATOMIC_ORDERS | ATOMIC_SCOPES);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        return answer_ulong(q, ATOMIC_ORDERS | ATOMIC_SCOPES |
                                   CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);

    /* Images (image/, docs/images.md): the limits of refcl/device.h. */
    case CL_DEVICE_IMAGE_SUPPORT:
        return answer_bool(q, CL_TRUE);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
        return answer_size(q, REFCL_IMAGE2D_MAX);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
        return answer_size(q, REFCL_IMAGE3D_MAX);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
        return answer_size(q, REFCL_IMAGE_MAX_BUFFER);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
        return answer_size(q, REFCL_IMAGE_MAX_ARRAY);
    case CL_DEVICE_MAX_SAMPLERS:
        return answer_uint(q, REFCL_MAX_SAMPLERS);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
        return answer_uint(q, REFCL_MAX_IMAGE_ARGS);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
        return answer_uint(q, REFCL_IMAGE_ALIGNMENT);

    /* Host command-queues (queue/queue.c: in-order or out-of-order,
     * profiling), and the optional OpenCL 2.x / 3.0 features: non-uniform
     * work-groups (exec/ndrange.c), generic address space, work-group
     * collectives and sub-groups on; device-side enqueue, pipes off. */
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: /* = CL_DEVICE_QUEUE_PROPERTIES */
        return answer_ulong(q, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                   CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
        return answer_ulong(q, 0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
        return answer_uint(q, 0);
    /* "Maximum number of sub-groups in a work-group that a device is
     * capable of executing on a single compute unit, for any given
     * kernel-instance running on the device": the largest group in the
     * smallest sub-groups a kernel is compiled with (4 lanes: SSE, NEON;
     * the work-group pass's subGroupSizeFor). */
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        return answer_uint(q, MAX_WORK_GROUP_SIZE / REFCL_MIN_SUB_GROUP_SIZE);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
        return answer_bool(q, CL_TRUE);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
        return answer_bool(q, CL_TRUE);
    /* "Is CL_TRUE if the device supports work-group collective functions
     * e.g. work_group_broadcast, work_group_reduce, and work_group_scan"
     * (compiler/lib/src/workgroup.cl). */
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
        return answer_bool(q, CL_TRUE);
    /* "Is CL_TRUE if the device supports the generic address space and its
     * associated built-in functions": __opencl_c_generic_address_space. */
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
        return answer_bool(q, CL_TRUE);
    case CL_DEVICE_PIPE_SUPPORT:
        return answer_bool(q, CL_FALSE);
    /* "Is CL_TRUE if this device supports independent forward progress of
     * sub-groups": a work-group's sub-groups run one after another on one
     * thread, each until a work-group barrier or its end (so the device
     * does not list cl_khr_subgroups, above). */
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        return answer_bool(q, CL_FALSE);

    /* Place in the device tree, and how the device may be partitioned
     * (device/partition.c works the answers out when it creates it). */
    case CL_DEVICE_PARENT_DEVICE:
        return answer_handle(q, device->obj.parent); /* NULL for a root */
    case CL_DEVICE_REFERENCE_COUNT:
        return answer_uint(q, refcl_object_refcount(&device->obj));
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        return answer_uint(q, device->max_sub_devices);
    case CL_DEVICE_PARTITION_PROPERTIES:
        return answer_array(q, device->schemes,
                            device->scheme_count * sizeof(device->schemes[0]));
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        return answer_ulong(q, device->affinity_domains);
    case CL_DEVICE_PARTITION_TYPE:
        if (!device->partition_type)
            return answer_array(q, no_partition, sizeof(no_partition));
        return answer_array(q, device->partition_type,
                            device->partition_type_len *
                                sizeof(cl_device_partition_property));

    case CL_DEVICE_HALF_FP_CONFIG:
        /* "If half-precision is supported by the device, then the minimum
         * half-precision floating-point capability is either:
         * CL_FP_ROUND_TO_ZERO or CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN".
         * Halves are computed exactly in float and rounded once to
         * nearest even, denormals kept; fma is correctly rounded
         * (compiler/lib). Without cl_khr_fp16, an unknown name (below). */
        if (fp16_device())
            return answer_ulong(q, CL_FP_DENORM | CL_FP_INF_NAN |
                                       CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: "
                          "cl_khr_fp16 is not supported", param_name);

    default:
        /* refcl's vendor queries (CL/cl_ext_refcl.h), numbered far from
         * the standard ones: as a case label, gcc would check the jump
         * table's range twice on every query. */
        if (param_name == CL_DEVICE_CPUSET_REFCL) /* cl_refcl_device_cpuset */
            return reply_cpuset(device, q.size, q.value, q.size_ret);
        /* ... "or if param_name is a value that is available as an
         * extension and the corresponding extension is not supported by
         * the device". */
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
}
