/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's CPU devices. The machine is read once from hwloc (and sysfs where
 * hwloc has no answer) into an immutable struct refcl_topology; every device,
 * root or sub-device, owns the hwloc cpuset of its compute units.
 */
#ifndef REFCL_DEVICE_H
#define REFCL_DEVICE_H

#include <hwloc.h>

#include "refcl/object.h"

/** An outermost data (or unified) cache: what refcl_topology_llc_share
 *  divides among PUs. */
struct refcl_llc {
    hwloc_const_cpuset_t cpuset;   /**< its PUs (the topology's bitmap) */
    cl_ulong size;                 /**< bytes */
    cl_ulong pus;                  /**< PUs in cpuset */
};

/** Facts about the host, read once; immutable afterwards. */
struct refcl_topology {
    hwloc_topology_t topo;
    hwloc_bitmap_t allowed;        /**< PUs this process may run on */
    cl_uint pu_count;              /**< PUs in `allowed` */
    cl_ulong global_mem_size;      /**< bytes of the allowed NUMA nodes */
    cl_ulong cache_size;           /**< bytes of the largest data cache */
    cl_uint cacheline_size;        /**< bytes */
    /** Bytes of the L2 (else L1 data) cache above the first allowed PU, 0 if
     *  hwloc reports neither: what one core keeps close. */
    cl_ulong core_cache_size;
    cl_uint max_clock_mhz;         /**< 0 if the host does not say */
    char cpu_name[128];            /**< hwloc CPUModel, else "CPU" */
    char cpu_vendor[64];           /**< hwloc CPUVendor, else "unknown" */
    cl_uint vendor_id;             /**< PCI-SIG id of the CPU vendor, or 0 */
    cl_uint native_vector_bytes;   /**< widest SIMD register: 16, 32, 64 */
    cl_bool fma;                   /**< fused multiply-add in hardware */
    struct refcl_llc *llcs;        /**< owned; every outermost data cache */
    size_t llc_count;
};

/** The topology once it has loaded completely, else NULL (owned by
 *  device/topology.c; visible for refcl_topology_get's fast path). */
extern const struct refcl_topology *_Atomic refcl_topology_loaded
    __attribute__((visibility("hidden")));

/** Loads the topology unless loaded (thread-safe); what refcl_topology_get
 *  calls until a load succeeds: a failed load is tried again next time.
 *  @return NULL if hwloc could not load it. */
const struct refcl_topology *refcl_topology_load_once(void);

/**
 * The topology, loaded on first call (thread-safe, once). Inline: every
 * device query asks, and after the first call one load answers.
 * @return NULL if hwloc could not load it.
 */
static inline const struct refcl_topology *refcl_topology_get(void)
{
    const struct refcl_topology *t =
        atomic_load_explicit(&refcl_topology_loaded, memory_order_acquire);
    return t ? t : refcl_topology_load_once();
}

/** Frees the topology, then closes hwloc (library unload). */
void refcl_topology_teardown(void);

/**
 * Makes refcl's hwloc calls usable (device/hwloc_lazy.c): finds every hwloc
 * function refcl calls, in the program or else in hwloc's library, which it
 * opens then. Only the topology load calls it, under its lock, until it
 * succeeds (a failure may be transient: no memory, no file descriptor);
 * refcl calls hwloc only after it has succeeded.
 * @return false, after a message on stderr the first time, if hwloc cannot
 * be loaded.
 */
bool refcl_hwloc_open(void);

/** Closes the hwloc library refcl_hwloc_open opened, if any (library
 *  unload, after the topology is destroyed). */
void refcl_hwloc_close(void);

/**
 * The part of the last-level caches that @p cpuset owns, in bytes: for each
 * outermost data (or unified) cache intersecting @p cpuset, its size times
 * the fraction of its PUs that lie in @p cpuset, rounded down. A device's
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is this for its cpuset.
 */
cl_ulong refcl_topology_llc_share(const struct refcl_topology *topology,
                                  hwloc_const_cpuset_t cpuset);

/** Entries of the longest CL_DEVICE_PARTITION_PROPERTIES: three schemes. */
#define REFCL_PARTITION_SCHEMES_MAX 3

struct refcl_team; /* the threads on a device's compute units (workers.h) */

struct _cl_device_id {
    struct refcl_object obj;       /**< obj.parent: parent device or NULL */
    hwloc_bitmap_t cpuset;         /**< owned; the device's compute units */
    /** Owned; cpuset in hwloc list syntax, NULL until first asked for
     *  (refcl_device_cpuset_list). */
    char *_Atomic cpuset_list;
    cl_uint compute_units;         /**< PUs in cpuset */
    /** CL_DEVICE_PARTITION_MAX_SUB_DEVICES: compute_units, or 0 when the
     *  device has a single unit and cannot be split. */
    cl_uint max_sub_devices;
    cl_ulong global_mem_cache_size;
    /** CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the levels that split it. */
    cl_device_affinity_domain affinity_domains;
    /** CL_DEVICE_PARTITION_PROPERTIES: the schemes, or a lone 0. */
    cl_device_partition_property schemes[REFCL_PARTITION_SCHEMES_MAX];
    size_t scheme_count;           /**< entries of schemes */
    /** CL_DEVICE_PARTITION_TYPE as requested, 0-terminated; NULL for root. */
    cl_device_partition_property *partition_type;
    size_t partition_type_len;     /**< entries, terminator included */
    /** Owned; NULL until the device's first command that spreads over
     *  its compute units (device/workers.c). */
    struct refcl_team *_Atomic team;
};
REFCL_OBJECT_LAYOUT(REFCL_DEVICE, struct _cl_device_id);

/**
 * The argument that tells clang (as `-Xclang <it>`: clang 15's driver does
 * not pass -cl-ext on) exactly the OpenCL C extensions and `__opencl_c_*`
 * features every refcl device reports: "-cl-ext=-all,+cl_khr_fp64,...".
 * Built once; the string lives as long as the library.
 */
const char *refcl_device_clang_extensions(void);

/**
 * The macros clang 15 needs from the driver for every refcl device: the
 * `__opencl_c_*` features it takes only as macros
 * ("-D__opencl_c_atomic_scope_device=1", ...) and the device's
 * `__OPENCL_VERSION__`; NULL-terminated; static.
 */
const char *const *refcl_device_clang_macros(void);

/** True for a device the application did not create (refcount fixed). */
static inline bool refcl_device_is_root(const struct _cl_device_id *device)
{
    return device->obj.parent == NULL;
}

/** One more reference on @p device, which the caller holds (a root
 *  device's count never changes): clRetainDevice without the handle check,
 *  for refcl's own references. */
void refcl_device_retain(struct _cl_device_id *device);

/** One reference less on @p device, freed with the last (never a root
 *  device): clReleaseDevice for refcl's own references. */
void refcl_device_release(struct _cl_device_id *device);

/**
 * Creates a device of @p platform running on @p cpuset: a root device when
 * @p parent is NULL, else a sub-device of @p parent that holds a reference
 * on it (none on a root device, whose count never changes) and answers
 * CL_DEVICE_PARTITION_TYPE with @p partition_type (@p type_len entries, the
 * terminating 0 included). Takes ownership of @p cpuset and of the
 * malloc'ed @p partition_type, also when it fails.
 * @return the device with refcount 1, or NULL when out of memory.
 */
struct _cl_device_id *refcl_device_create(
    struct _cl_platform_id *platform, struct _cl_device_id *parent,
    hwloc_bitmap_t cpuset, cl_device_partition_property *partition_type,
    size_t type_len);

/**
 * CL_DEVICE_CPUSET_REFCL: @p device's cpuset in hwloc's list syntax, e.g.
 * "0-3,8-11". Formatted on the first call (most devices are never asked)
 * and kept until the device is freed; "" if that first formatting runs out
 * of memory, and the next call tries again.
 */
const char *refcl_device_cpuset_list(const struct _cl_device_id *device);

/**
 * Fills the partition answers of @p device from its cpuset (device/
 * partition.c): max_sub_devices, schemes and affinity_domains.
 * @return CL_SUCCESS, or CL_OUT_OF_HOST_MEMORY.
 */
cl_int refcl_partition_describe(const struct refcl_topology *topology,
                                struct _cl_device_id *device);

/**
 * Creates the root device of every platform, loading the topology, unless
 * done (thread-safe). A failure is not remembered: the next call tries again.
 * @return CL_SUCCESS, or CL_OUT_OF_HOST_MEMORY if that failed.
 */
cl_int refcl_root_devices_init(void);

/** Frees the root devices (library unload). */
void refcl_root_devices_teardown(void);

/**
 * The device clock in nanoseconds: CLOCK_MONOTONIC, the clock of
 * clGetDeviceAndHostTimer and of event profiling timestamps.
 */
cl_ulong refcl_clock_ns(void);

/** CL_DEVICE_MAX_MEM_ALLOC_SIZE, the same for every refcl device, root or
 *  sub-device: the largest buffer or SVM allocation. */
cl_ulong refcl_max_mem_alloc_size(void);

/** The most bytes of __local memory a work-group may use:
 *  CL_DEVICE_LOCAL_MEM_SIZE. */
cl_ulong refcl_local_mem_size(void);

/**
 * True if refcl can import a dma_buf here (cl_arm_import_memory_dma_buf):
 * the kernel offers a way to make one (memory/import.c says how it looks).
 * A fact about the system, so the device layer that lists the extension
 * decides it, once; the memory layer asks it.
 */
bool refcl_import_dma_buf_supported(void);

struct refcl_kernel_desc;

/**
 * The built-in kernels, as the device layer lists them
 * (CL_DEVICE_BUILT_IN_KERNELS and its _WITH_VERSION) and the program layer
 * finds them by name. The execution layer, above this one, has them and
 * registers them at load (exec/builtin.c): a lower layer learns about an
 * upper one through this, never by calling it (docs/architecture.md).
 */
struct refcl_builtin_list {
    const char *names;               /**< ';'-separated, in list order */
    const cl_name_version *versions; /**< one per kernel */
    size_t count;
    /** The kernel called @p name (@p length characters), or NULL. */
    const struct refcl_kernel_desc *(*find)(const char *name, size_t length);
};

/** Registers @p list (static storage), before any other call: at load. */
void refcl_device_builtins_register(const struct refcl_builtin_list *list);

/** The registered built-in kernels; none before a registration. */
const struct refcl_builtin_list *refcl_device_builtins(void);

/** CL_DEVICE_IL_VERSION where the compiler and its SPIR-V translator are
 *  there: the SPIR-V versions llvm-spirv-15 reads (1.0 to 1.4). */
#define REFCL_IL_VERSIONS "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"
#define REFCL_IL_MAX_MINOR 4u

/** The most work-items a work-group of a built-in kernel may have:
 *  CL_KERNEL_WORK_GROUP_SIZE, CL_DEVICE_MAX_WORK_GROUP_SIZE, and each of
 *  CL_DEVICE_MAX_WORK_ITEM_SIZES (a whole group may lie along any axis).
 *  Work-groups share host threads, so the bound is not the machine's:
 *  it keeps a reduction's local memory within a core's cache. */
#define REFCL_MAX_WORK_GROUP_SIZE 4096u
/** The smallest sub-group size of compiled kernels (struct
 *  refcl_abi_kernel's sub_group_size: SSE's and NEON's 4 lanes). */
#define REFCL_MIN_SUB_GROUP_SIZE 4u

/** CL_DEVICE_EXECUTION_CAPABILITIES of every refcl device: built-in
 *  kernels, and native kernels (clEnqueueNativeKernel). */
#define REFCL_EXEC_CAPABILITIES (CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL)

/** CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: the spec's minimum, 64 KiB. */
#define REFCL_MAX_CONSTANT_BUFFER_SIZE (64u * 1024u)

/** CL_DEVICE_PRINTF_BUFFER_SIZE: the bytes of records each command of a
 *  kernel that calls printf gets ("1 MB" at least, full profile). */
#define REFCL_PRINTF_BUFFER_SIZE (1024u * 1024u)

/** Bytes of CL_DEVICE_MEM_BASE_ADDR_ALIGN (1024 bits): the alignment of
 *  every allocation and of every sub-buffer's origin. */
#define REFCL_MEM_BASE_ALIGN 128u

/* The image limits every refcl device reports (CL_DEVICE_IMAGE*): twice
 * or more the full profile's minimums (16384, 2048, 2048, 65536), a size
 * where one image of the largest texel still fits the smallest
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE refcl reports in one dimension; a larger
 * image in bytes is refused by that limit (CL_INVALID_IMAGE_SIZE). */
#define REFCL_IMAGE2D_MAX 32768u         /**< width and height */
#define REFCL_IMAGE3D_MAX 8192u          /**< width, height, depth */
#define REFCL_IMAGE_MAX_ARRAY 4096u      /**< layers of an array */
#define REFCL_IMAGE_MAX_BUFFER (1u << 27) /**< texels of a 1D buffer image */
#define REFCL_MAX_SAMPLERS 32u           /**< sampler arguments ("16") */
#define REFCL_MAX_IMAGE_ARGS 128u        /**< read, write and read-write */
/** CL_DEVICE_IMAGE_PITCH_ALIGNMENT and _BASE_ADDRESS_ALIGNMENT, in
 *  texels: a row of a 2D image made from a buffer, and the buffer's
 *  start, need only be whole texels apart. */
#define REFCL_IMAGE_ALIGNMENT 1u

#endif /* REFCL_DEVICE_H */
