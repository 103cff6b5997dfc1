/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host machine as refcl's devices see it: read once from hwloc (and from
 * sysfs, procfs and the CPU itself where hwloc has no answer) on the first
 * device query, then only read. Every figure is measured, never invented;
 * where the host says nothing the field is 0 or a neutral name.
 *
 * hwloc_topology_load honours HWLOC_SYNTHETIC and HWLOC_XMLFILE itself, so
 * tests get a fixed machine by setting the environment. hwloc 2.x keeps only
 * the resources this process may use unless asked for
 * HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED, which refcl does not ask for.
 * hwloc's library itself is opened by the first load (device/hwloc_lazy.c)
 * and closed by the teardown.
 */
#include "refcl/device.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Held while loading: a load that failed (out of memory, no hwloc) is
 * tried again by the next query, never remembered. */
static pthread_mutex_t topology_lock = PTHREAD_MUTEX_INITIALIZER;
static struct refcl_topology topology;
const struct refcl_topology *_Atomic refcl_topology_loaded;

/* hwloc's data (or unified) cache types, innermost first. */
static const hwloc_obj_type_t dcache_types[] = {
    HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
    HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE,
};
#define DCACHE_TYPE_COUNT (sizeof(dcache_types) / sizeof(dcache_types[0]))

/* Bytes of memory in the NUMA nodes next to the allowed PUs. */
static cl_ulong allowed_memory(const struct refcl_topology *t)
{
    cl_ulong bytes = 0;
    hwloc_obj_t node = NULL;
    while ((node = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_NUMANODE,
                                              node)))
        if (node->cpuset && hwloc_bitmap_intersects(node->cpuset, t->allowed))
            bytes += node->attr->numanode.local_memory;
    if (bytes == 0) {
        long pages = sysconf(_SC_PHYS_PAGES);
        long page_size = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page_size > 0)
            bytes = (cl_ulong)pages * (cl_ulong)page_size;
    }
    return bytes;
}

/* Sizes of the caches above the first allowed PU, the largest data cache,
 * and the line size of the innermost data cache. */
static void read_caches(struct refcl_topology *t)
{
    hwloc_obj_t pu = hwloc_get_next_obj_inside_cpuset_by_type(
        t->topo, t->allowed, HWLOC_OBJ_PU, NULL);
    if (pu) {
        hwloc_obj_t l2 =
            hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_L2CACHE, pu);
        hwloc_obj_t l1 =
            hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_L1CACHE, pu);
        hwloc_obj_t core_cache = l2 ? l2 : l1;
        if (core_cache)
            t->core_cache_size = core_cache->attr->cache.size;
    }
    for (hwloc_obj_t o = pu; o && !t->cacheline_size; o = o->parent)
        if (hwloc_obj_type_is_dcache(o->type))
            t->cacheline_size = o->attr->cache.linesize;
    if (!t->cacheline_size) {
        long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
        t->cacheline_size = line > 0 ? (cl_uint)line : 0;
    }

    for (size_t i = 0; i < DCACHE_TYPE_COUNT; i++) {
        hwloc_obj_t cache = NULL;
        while ((cache = hwloc_get_next_obj_by_type(t->topo, dcache_types[i],
                                                   cache)))
            if (hwloc_bitmap_intersects(cache->cpuset, t->allowed) &&
                cache->attr->cache.size > t->cache_size)
                t->cache_size = cache->attr->cache.size;
    }
}

/* Highest cpuinfo_max_freq (kHz) of the allowed CPUs, in MHz; 0 if none. */
static cl_uint clock_from_sysfs(hwloc_const_cpuset_t allowed)
{
    unsigned long max_khz = 0;
    for (int cpu = hwloc_bitmap_first(allowed); cpu >= 0;
         cpu = hwloc_bitmap_next(allowed, cpu)) {
        char path[96];
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
                 cpu);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long khz;
        if (fscanf(f, "%lu", &khz) == 1 && khz > max_khz)
            max_khz = khz;
        fclose(f);
    }
    return (cl_uint)((max_khz + 500) / 1000);
}

/* Highest "cpu MHz" of /proc/cpuinfo, rounded; 0 if absent. */
static cl_uint clock_from_procfs(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    double max_mhz = 0;
    char line[256];
    while (fgets(line, sizeof(line), f)) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "cpu MHz", 7) != 0 || !colon)
            continue;
        double mhz = strtod(colon + 1, NULL);
        if (mhz > max_mhz)
            max_mhz = mhz;
    }
    fclose(f);
    return max_mhz > 0 && max_mhz < 4e9 ? (cl_uint)(max_mhz + 0.5) : 0;
}

/* Copies @p text without its leading and trailing blanks: CPUID pads the
 * model name with spaces, which hwloc keeps and a device name should not. */
static void copy_trimmed(char *out, size_t size, const char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t length = strlen(text);
    while (length && isspace((unsigned char)text[length - 1]))
        length--;
    snprintf(out, size, "%.*s", (int)length, text);
}

/* CPU model and vendor: hwloc's info attributes of the first Package (some
 * platforms put them on the Machine object instead). */
static void read_identity(struct refcl_topology *t)
{
    hwloc_obj_t package = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, 0);
    hwloc_obj_t root = hwloc_get_root_obj(t->topo);
    const char *model = NULL, *vendor = NULL;
    if (package) {
        model = hwloc_obj_get_info_by_name(package, "CPUModel");
        vendor = hwloc_obj_get_info_by_name(package, "CPUVendor");
    }
    if (!model)
        model = hwloc_obj_get_info_by_name(root, "CPUModel");
    if (!vendor)
        vendor = hwloc_obj_get_info_by_name(root, "CPUVendor");
    copy_trimmed(t->cpu_name, sizeof(t->cpu_name), model ? model : "CPU");
    copy_trimmed(t->cpu_vendor, sizeof(t->cpu_vendor),
                 vendor ? vendor : "unknown");
    /* PCI-SIG vendor ids of the CPU makers whose CPUID vendor string is
     * known; 0 for the rest. */
    if (strcmp(t->cpu_vendor, "GenuineIntel") == 0)
        t->vendor_id = 0x8086;
    else if (strcmp(t->cpu_vendor, "AuthenticAMD") == 0)
        t->vendor_id = 0x1022;
}

/* SIMD width and FMA of the CPU this process runs on (not of the topology:
 * a synthetic machine has no instruction set). */
static void read_isa(struct refcl_topology *t)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        t->native_vector_bytes = 64;
    else if (__builtin_cpu_supports("avx"))
        t->native_vector_bytes = 32;
    else
        t->native_vector_bytes = 16;
    t->fma = __builtin_cpu_supports("fma") ? CL_TRUE : CL_FALSE;
#else
    t->native_vector_bytes = 16;
#if defined(__aarch64__)
    t->fma = CL_TRUE; /* FMADD is part of the AArch64 base FP ISA */
#else
    t->fma = CL_FALSE;
#endif
#endif
}

/* True if a data cache lies between @p cache and the root. */
static bool has_outer_dcache(hwloc_obj_t cache)
{
    for (hwloc_obj_t o = cache->parent; o; o = o->parent)
        if (hwloc_obj_type_is_dcache(o->type))
            return true;
    return false;
}

/* Lists the outermost data caches with PUs into @p out, or just counts them
 * when @p out is NULL. @return how many. */
static size_t outermost_dcaches(const struct refcl_topology *t,
                                struct refcl_llc *out)
{
    size_t count = 0;
    for (size_t i = 0; i < DCACHE_TYPE_COUNT; i++) {
        hwloc_obj_t cache = NULL;
        while ((cache = hwloc_get_next_obj_by_type(t->topo, dcache_types[i],
                                                   cache))) {
            int pus = hwloc_bitmap_weight(cache->cpuset);
            if (pus <= 0 || has_outer_dcache(cache))
                continue;
            if (out)
                out[count] = (struct refcl_llc){
                    cache->cpuset, cache->attr->cache.size, (cl_ulong)pus};
            count++;
        }
    }
    return count;
}

/* The last-level caches, listed once so that a device's share of them
 * (refcl_topology_llc_share) needs no walk of the topology.
 * @return false when out of memory. */
static bool read_llcs(struct refcl_topology *t)
{
    size_t count = outermost_dcaches(t, NULL);
    if (count == 0)
        return true;
    t->llcs = calloc(count, sizeof(*t->llcs));
    if (!t->llcs)
        return false;
    t->llc_count = outermost_dcaches(t, t->llcs);
    return true;
}

static void topology_free(struct refcl_topology *t)
{
    free(t->llcs);
    if (t->allowed)
        hwloc_bitmap_free(t->allowed);
    if (t->topo)
        hwloc_topology_destroy(t->topo);
    memset(t, 0, sizeof(*t));
}

static void topology_load(void)
{
    struct refcl_topology *t = &topology;
    hwloc_topology_t topo;
    /* hwloc is loaded here, not with librefcl (device/hwloc_lazy.c). */
    if (!refcl_hwloc_open() || hwloc_topology_init(&topo) != 0)
        return;
    t->topo = topo;
    /* No I/O discovery: refcl needs no I/O objects, and hwloc's "opencl"
     * component would call the OpenCL API (so refcl, maybe this very
     * function) from inside the load. */
    (void)hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    (void)hwloc_topology_set_components(
        topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
    if (hwloc_topology_load(topo) != 0)
        goto fail;

    t->allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo));
    if (!t->allowed ||
        hwloc_bitmap_and(t->allowed, t->allowed,
                         hwloc_topology_get_complete_cpuset(topo)) != 0)
        goto fail;
    int pus = hwloc_bitmap_weight(t->allowed); /* -1 if infinite */
    if (pus <= 0)
        goto fail;
    t->pu_count = (cl_uint)pus;

    t->global_mem_size = allowed_memory(t);
    read_caches(t);
    if (!read_llcs(t))
        goto fail;
    t->max_clock_mhz = clock_from_sysfs(t->allowed);
    if (!t->max_clock_mhz)
        t->max_clock_mhz = clock_from_procfs();
    read_identity(t);
    read_isa(t);
    atomic_store_explicit(&refcl_topology_loaded, t, memory_order_release);
    return;

fail:
    topology_free(t);
}

const struct refcl_topology *refcl_topology_load_once(void)
{
    pthread_mutex_lock(&topology_lock);
    if (!atomic_load_explicit(&refcl_topology_loaded, memory_order_relaxed))
        topology_load();
    pthread_mutex_unlock(&topology_lock);
    return atomic_load_explicit(&refcl_topology_loaded, memory_order_acquire);
}

void refcl_topology_teardown(void)
{
    atomic_store_explicit(&refcl_topology_loaded, NULL, memory_order_release);
    topology_free(&topology);
    refcl_hwloc_close();
}

/* PUs in both @p a and @p b, a word at a time: no bitmap to allocate. */
static cl_ulong pus_shared(hwloc_const_cpuset_t a, hwloc_const_cpuset_t b)
{
    int words = hwloc_bitmap_nr_ulongs(a); /* a cache's cpuset is finite */
    cl_ulong count = 0;
    for (int i = 0; i < words; i++)
        count += (cl_ulong)__builtin_popcountl(
            hwloc_bitmap_to_ith_ulong(a, (unsigned)i) &
            hwloc_bitmap_to_ith_ulong(b, (unsigned)i));
    return count;
}

/* Rounded down per cache, not per PU: a cache's share stays exact when its
 * size is not a multiple of its PUs. */
cl_ulong refcl_topology_llc_share(const struct refcl_topology *t,
                                  hwloc_const_cpuset_t cpuset)
{
    cl_ulong share = 0;
    for (size_t i = 0; i < t->llc_count; i++) {
        const struct refcl_llc *llc = &t->llcs[i];
        share += llc->size * pus_shared(llc->cpuset, cpuset) / llc->pus;
    }
    return share;
}
