/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Partitioning a device on top of hwloc: clCreateSubDevices (parse the
 * property list, cut the device's cpuset into the sub-devices' cpusets,
 * create them) and what every device answers about partitioning.
 *
 * A compute unit is one hwloc PU. EQUALLY and BY_COUNTS hand out a device's
 * PUs in hwloc's logical order, so that each sub-device's units stay close
 * in the cache hierarchy; BY_AFFINITY_DOMAIN makes one sub-device per NUMA
 * node or cache of the level that shares PUs with the device. The
 * sub-devices of one call never share a PU; units left over stay unused.
 *
 * Where the spec leaves room (docs/sub-devices.md):
 * - a result that would be the device itself (all its units in one
 *   sub-device), or an affinity level with a single domain over the device,
 *   is CL_DEVICE_PARTITION_FAILED, as the OpenCL CTS expects;
 * - an affinity level of which no NUMA node or cache covers any of the
 *   device's units is CL_INVALID_VALUE, a value "not supported by the
 *   device";
 * - EQUALLY with more units than the device has is
 *   CL_INVALID_DEVICE_PARTITION_COUNT, as the CTS expects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/device.h"

/* The affinity domains refcl splits along, in NEXT_PARTITIONABLE's order. */
struct level {
    cl_device_affinity_domain domain;
    hwloc_obj_type_t type;
};

static const struct level levels[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, HWLOC_OBJ_NUMANODE},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, HWLOC_OBJ_L4CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, HWLOC_OBJ_L3CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, HWLOC_OBJ_L2CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, HWLOC_OBJ_L1CACHE},
};
#define LEVEL_COUNT (sizeof(levels) / sizeof(levels[0]))

#define AFFINITY_DOMAINS                                                   \
    (CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE | \
     CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE |                                  \
     CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE |                                  \
     CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE |                                  \
     CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE)

/* A property list, parsed: one scheme and its value. */
struct request {
    cl_device_partition_property scheme;
    cl_uint units;                              /* EQUALLY: per sub-device */
    const cl_device_partition_property *counts; /* BY_COUNTS */
    size_t count_len;                           /* counts before LIST_END */
    cl_device_affinity_domain domain;           /* BY_AFFINITY_DOMAIN */
    size_t len;                                 /* entries, final 0 included */
};

/* How a request cuts a particular device. */
struct plan {
    cl_uint count;              /* sub-devices */
    const struct level *level;  /* BY_AFFINITY_DOMAIN: the level used */
};

/* The sub-devices' cpusets, in order; only counted while `sets` is NULL. */
struct pieces {
    hwloc_bitmap_t *sets;
    cl_uint room;
    cl_uint count;
};

/* ---- the property list ---------------------------------------------------- */

/* One of the six domains, alone. */
static bool domain_valid(cl_device_partition_property value)
{
    return value > 0 && (value & (value - 1)) == 0 &&
           (value & ~(cl_device_partition_property)AFFINITY_DOMAINS) == 0;
}

/* Parses the scheme at properties[0]; @return the index after its value. */
static size_t scheme_parse(const cl_device_partition_property *properties,
                           struct request *req)
{
    switch (properties[0]) {
    case CL_DEVICE_PARTITION_EQUALLY:
        /* n is a cl_uint, and 0 units per sub-device makes nothing. */
        if (properties[1] <= 0 || (uintmax_t)properties[1] > CL_UINT_MAX)
            return 0;
        req->units = (cl_uint)properties[1];
        return 2;
    case CL_DEVICE_PARTITION_BY_COUNTS: {
        size_t end = 1;
        while (properties[end] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END)
            end++;
        req->counts = properties + 1;
        req->count_len = end - 1;
        /* An empty list asks for no sub-device at all. */
        return req->count_len ? end + 1 : 0;
    }
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
        if (!domain_valid(properties[1]))
            return 0;
        req->domain = (cl_device_affinity_domain)properties[1];
        return 2;
    default:
        return 0;
    }
}

static cl_int request_parse(const cl_device_partition_property *properties,
                            struct request *req)
{
    memset(req, 0, sizeof(*req));
    /* CL_INVALID_VALUE "if values specified in properties are not valid":
     * no list, an unknown name, a bad value, or anything but the final 0
     * after the scheme ("Only one of the listed partitioning schemes can be
     * specified in properties"). */
    if (!properties)
        return CL_INVALID_VALUE;
    size_t end = scheme_parse(properties, req);
    if (end == 0 || properties[end] != 0)
        return CL_INVALID_VALUE;
    req->scheme = properties[0];
    req->len = end + 1;
    return CL_SUCCESS;
}

/* ---- cutting a cpuset ----------------------------------------------------- */

static cl_int pieces_add(struct pieces *pieces, hwloc_const_bitmap_t set)
{
    if (pieces->sets) {
        if (pieces->count == pieces->room) /* never: hwloc's view is fixed */
            return CL_OUT_OF_HOST_MEMORY;
        pieces->sets[pieces->count] = hwloc_bitmap_dup(set);
        if (!pieces->sets[pieces->count])
            return CL_OUT_OF_HOST_MEMORY;
    }
    pieces->count++;
    return CL_SUCCESS;
}

static void pieces_free(struct pieces *pieces)
{
    for (cl_uint i = 0; pieces->sets && i < pieces->count; i++)
        hwloc_bitmap_free(pieces->sets[i]);
    free(pieces->sets);
}

/*
 * One piece per object of @p type that shares PUs with @p cpuset, in
 * logical order, each without the PUs an earlier one took: NUMA nodes may
 * share PUs (memory-only nodes beside DRAM ones), sub-devices may not.
 */
static cl_int level_pieces(const struct refcl_topology *topo,
                           hwloc_const_cpuset_t cpuset, hwloc_obj_type_t type,
                           struct pieces *out)
{
    hwloc_bitmap_t left = hwloc_bitmap_dup(cpuset);
    hwloc_bitmap_t piece = hwloc_bitmap_alloc();
    cl_int status = left && piece ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    hwloc_obj_t obj = NULL;
    while (status == CL_SUCCESS &&
           (obj = hwloc_get_next_obj_by_type(topo->topo, type, obj))) {
        if (!obj->cpuset || !hwloc_bitmap_intersects(obj->cpuset, left))
            continue;
        if (hwloc_bitmap_and(piece, obj->cpuset, left) != 0 ||
            hwloc_bitmap_andnot(left, left, piece) != 0)
            status = CL_OUT_OF_HOST_MEMORY;
        else
            status = pieces_add(out, piece);
    }
    hwloc_bitmap_free(left);
    hwloc_bitmap_free(piece);
    return status;
}

/* Units of the @p i-th sub-device of an EQUALLY or BY_COUNTS request. */
static cl_uint run_length(const struct request *req, cl_uint i)
{
    return req->scheme == CL_DEVICE_PARTITION_EQUALLY
               ? req->units
               : (cl_uint)req->counts[i];
}

/* @p count runs of consecutive PUs of @p cpuset, in logical order. */
static cl_int run_pieces(const struct refcl_topology *topo,
                         hwloc_const_cpuset_t cpuset,
                         const struct request *req, cl_uint count,
                         struct pieces *out)
{
    hwloc_bitmap_t run = hwloc_bitmap_alloc();
    cl_int status = run ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    hwloc_obj_t pu = NULL;
    for (cl_uint i = 0; i < count && status == CL_SUCCESS; i++) {
        hwloc_bitmap_zero(run);
        for (cl_uint n = run_length(req, i); n > 0 && status == CL_SUCCESS;
             n--) {
            /* pu is never NULL (the plan fits the device's units, which are
             * exactly the PU objects inside its cpuset); growing the bitmap
             * may fail to allocate. */
            pu = hwloc_get_next_obj_inside_cpuset_by_type(
                topo->topo, cpuset, HWLOC_OBJ_PU, pu);
            if (!pu || hwloc_bitmap_set(run, pu->os_index) != 0)
                status = CL_OUT_OF_HOST_MEMORY;
        }
        if (status == CL_SUCCESS)
            status = pieces_add(out, run);
    }
    hwloc_bitmap_free(run);
    return status;
}

/* ---- planning ------------------------------------------------------------- */

static cl_int plan_equally(const struct _cl_device_id *device,
                           const struct request *req, struct plan *plan)
{
    /* The CTS expects CL_INVALID_DEVICE_PARTITION_COUNT for n above the
     * device's units; the spec says so of BY_COUNTS: "the total number of
     * compute units requested exceeds CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS
     * for in_device". */
    if (req->units > device->compute_units)
        return CL_INVALID_DEVICE_PARTITION_COUNT;
    /* CL_DEVICE_PARTITION_FAILED "if the partition name is supported by the
     * implementation but in_device could not be further partitioned": one
     * sub-device of every unit would be the device itself. */
    if (req->units == device->compute_units)
        return CL_DEVICE_PARTITION_FAILED;
    plan->count = device->compute_units / req->units;
    return CL_SUCCESS;
}

static cl_int plan_by_counts(const struct _cl_device_id *device,
                             const struct request *req, struct plan *plan)
{
    cl_ulong total = 0;
    for (size_t i = 0; i < req->count_len; i++) {
        /* CL_INVALID_DEVICE_PARTITION_COUNT if "the number of compute units
         * requested for one or more sub-devices is less than zero". */
        if (req->counts[i] < 0)
            return CL_INVALID_DEVICE_PARTITION_COUNT;
        /* ... or "the total number of compute units requested exceeds
         * CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS for in_device". Every count
         * is at least 1, so this also refuses more sub-devices than units,
         * which is CL_DEVICE_PARTITION_MAX_SUB_DEVICES wherever a device
         * can be split ("the number of sub-devices requested exceeds
         * CL_DEVICE_PARTITION_MAX_SUB_DEVICES"). */
        total += (cl_ulong)req->counts[i];
        if (total > device->compute_units)
            return CL_INVALID_DEVICE_PARTITION_COUNT;
    }
    /* CL_DEVICE_PARTITION_FAILED "if ... in_device could not be further
     * partitioned": one count of every unit is the device itself. On a
     * single unit (CL_DEVICE_PARTITION_MAX_SUB_DEVICES 0) this is the
     * answer to {1}, not the sub-device limit. */
    if (req->count_len == 1 && total == device->compute_units)
        return CL_DEVICE_PARTITION_FAILED;
    plan->count = (cl_uint)req->count_len;
    return CL_SUCCESS;
}

/* Sub-devices @p level would make of @p device, in @p count. */
static cl_int level_count(const struct refcl_topology *topo,
                          const struct _cl_device_id *device,
                          const struct level *level, cl_uint *count)
{
    struct pieces counted = {0};
    cl_int status = level_pieces(topo, device->cpuset, level->type, &counted);
    *count = counted.count;
    return status;
}

static cl_int plan_by_affinity(const struct refcl_topology *topo,
                               const struct _cl_device_id *device,
                               const struct request *req, struct plan *plan)
{
    bool next = req->domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    for (size_t i = 0; i < LEVEL_COUNT; i++) {
        if (!next && levels[i].domain != req->domain)
            continue;
        cl_int status = level_count(topo, device, &levels[i], &plan->count);
        if (status != CL_SUCCESS)
            return status;
        if (plan->count >= 2) {
            plan->level = &levels[i];
            return CL_SUCCESS;
        }
        /* CL_INVALID_VALUE "if values specified in properties are valid but
         * not supported by the device": no domain of the level over the
         * device's units. */
        if (!next && plan->count == 0)
            return CL_INVALID_VALUE;
        if (!next)
            break;
    }
    /* CL_DEVICE_PARTITION_FAILED "if the partition name is supported by the
     * implementation but in_device could not be further partitioned": one
     * domain of the level over the device (for NEXT_PARTITIONABLE: at most
     * one of every level). */
    return CL_DEVICE_PARTITION_FAILED;
}

static cl_int plan_make(const struct refcl_topology *topo,
                        const struct _cl_device_id *device,
                        const struct request *req, struct plan *plan)
{
    switch (req->scheme) {
    case CL_DEVICE_PARTITION_EQUALLY:
        return plan_equally(device, req, plan);
    case CL_DEVICE_PARTITION_BY_COUNTS:
        return plan_by_counts(device, req, plan);
    default:
        return plan_by_affinity(topo, device, req, plan);
    }
}

/* ---- creating ------------------------------------------------------------- */

/* CL_DEVICE_PARTITION_TYPE of the sub-devices: the list as given, with
 * NEXT_PARTITIONABLE replaced by the level it picked. */
static cl_device_partition_property *
partition_type_make(const cl_device_partition_property *properties,
                     const struct request *req, const struct plan *plan)
{
    cl_device_partition_property *type = malloc(req->len * sizeof(*type));
    if (!type)
        return NULL;
    memcpy(type, properties, req->len * sizeof(*type));
    if (plan->level)
        type[1] = (cl_device_partition_property)plan->level->domain;
    return type;
}

static cl_int pieces_make(const struct refcl_topology *topo,
                          const struct _cl_device_id *device,
                          const struct request *req, const struct plan *plan,
                          struct pieces *pieces)
{
    pieces->sets = calloc(plan->count, sizeof(*pieces->sets));
    if (!pieces->sets)
        return CL_OUT_OF_HOST_MEMORY;
    pieces->room = plan->count;
    if (plan->level)
        return level_pieces(topo, device->cpuset, plan->level->type, pieces);
    return run_pieces(topo, device->cpuset, req, plan->count, pieces);
}

/*
 * Creates a sub-device of @p parent per piece, taking the pieces over, and
 * writes them to @p out. On failure releases the ones made (and so their
 * references on @p parent), leaving @p out untouched.
 */
static cl_int devices_create(struct _cl_device_id *parent,
                             const cl_device_partition_property *properties,
                             const struct request *req,
                             const struct plan *plan, struct pieces *pieces,
                             cl_device_id *out)
{
    cl_device_id *made = calloc(pieces->count, sizeof(*made));
    cl_int status = made ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    cl_uint i;
    for (i = 0; status == CL_SUCCESS && i < pieces->count; i++) {
        made[i] = refcl_device_create(
            parent->obj.platform, parent, pieces->sets[i],
            partition_type_make(properties, req, plan), req->len);
        pieces->sets[i] = NULL;
        if (!made[i])
            status = CL_OUT_OF_HOST_MEMORY;
    }
    if (status == CL_SUCCESS)
        memcpy(out, made, pieces->count * sizeof(*made));
    for (cl_uint j = 0; status != CL_SUCCESS && made && j < i; j++)
        if (made[j])
            refcl_device_release(made[j]);
    free(made);
    return status;
}

cl_int CL_API_CALL refcl_clCreateSubDevices(
    cl_device_id in_device, const cl_device_partition_property *properties,
    cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
    /* CL_INVALID_DEVICE "if in_device is not valid". */
    cl_int status = refcl_object_check(in_device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    /* A device exists only once the topology has loaded. */
    const struct refcl_topology *topo = refcl_topology_get();
    if (!topo)
        return CL_INVALID_DEVICE;

    struct request req;
    struct plan plan = {0};
    status = request_parse(properties, &req);
    if (status == CL_SUCCESS)
        status = plan_make(topo, in_device, &req, &plan);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if out_devices is not NULL and num_devices is less
     * than the number of sub-devices created by the partition scheme". */
    if (out_devices && num_devices < plan.count)
        return CL_INVALID_VALUE;

    /* "If out_devices is NULL, this argument is ignored": count only.
     * CL_OUT_OF_HOST_MEMORY "if there is a failure to allocate resources
     * required by the OpenCL implementation on the host". */
    if (out_devices) {
        struct pieces pieces = {0};
        status = pieces_make(topo, in_device, &req, &plan, &pieces);
        if (status == CL_SUCCESS)
            status = devices_create(in_device, properties, &req, &plan,
                                    &pieces, out_devices);
        pieces_free(&pieces);
        if (status != CL_SUCCESS)
            return status;
    }
    if (num_devices_ret)
        *num_devices_ret = plan.count;
    return CL_SUCCESS;
}

/* cl_ext_device_fission: not in any device's extension list. */
cl_int CL_API_CALL refcl_clCreateSubDevicesEXT(
    cl_device_id in_device, const cl_device_partition_property_ext *properties,
    cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
{
    (void)properties;
    (void)num_entries;
    (void)out_devices;
    (void)num_devices;
    cl_int status = refcl_object_check(in_device, REFCL_DEVICE);
    if (status != CL_SUCCESS)
        return status;
    return CL_INVALID_OPERATION;
}

/* ---- what a device answers ------------------------------------------------ */

cl_int refcl_partition_describe(const struct refcl_topology *topology,
                                struct _cl_device_id *device)
{
    cl_device_affinity_domain domains = 0;
    for (size_t i = 0; i < LEVEL_COUNT && device->compute_units >= 2; i++) {
        cl_uint count;
        if (level_count(topology, device, &levels[i], &count) != CL_SUCCESS)
            return CL_OUT_OF_HOST_MEMORY;
        if (count >= 2)
            domains |= levels[i].domain;
    }
    if (domains)
        domains |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    device->affinity_domains = domains;
    /* Every scheme wherever there are two units to split, affinity too:
     * where no level splits the device it fails, "supported by the
     * implementation but in_device could not be further partitioned",
     * rather than being a scheme "not supported by the device" (which the
     * CTS expects CL_INVALID_VALUE for). The list has no terminator (as in
     * pocl and Intel's CPU runtime; clinfo shows a 0 as a scheme "None"),
     * except the lone 0 of "If the device cannot be partitioned ... a value
     * of 0 will be returned": a single unit. */
    size_t n = 0;
    if (device->compute_units >= 2) {
        device->schemes[n++] = CL_DEVICE_PARTITION_EQUALLY;
        device->schemes[n++] = CL_DEVICE_PARTITION_BY_COUNTS;
        device->schemes[n++] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
    } else {
        device->schemes[n++] = 0;
    }
    device->scheme_count = n;
    /* EQUALLY with one unit each makes the most. */
    device->max_sub_devices =
        device->compute_units >= 2 ? device->compute_units : 0;
    return CL_SUCCESS;
}
