/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device/partition: clCreateSubDevices with every scheme and affinity
 * domain, nested down to single units; every error code; the partition
 * queries of every sub-device; sub-device lifetime (clRetainDevice,
 * clReleaseDevice, parents kept alive by their children); the platform's
 * dispatch data at every depth; and refcl's CL_DEVICE_CPUSET_REFCL.
 *
 * Registered on several HWLOC_SYNTHETIC machines and on the host
 * (tests/device/CMakeLists.txt). The test loads the same topology with
 * hwloc itself and derives every expected count and cpuset from it, never
 * from refcl's code; REFCL_TEST_EXPECT_* pin what hwloc-calc says of each
 * synthetic machine. REFCL_TEST_TREE=1 prints the tree NEXT_PARTITIONABLE
 * makes.
 */
#include <hwloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "CL/cl_ext_refcl.h"

#define SENTINEL_COUNT 12345u
#define NEXT CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE

typedef cl_device_partition_property property;
typedef cl_int (*set_disp_data_fn)(cl_platform_id, void *);

static cl_platform_id platform;
static cl_device_id root;
static hwloc_topology_t topo;
static hwloc_bitmap_t machine; /* the PUs this process may use */

/* The affinity domains in NEXT_PARTITIONABLE's order, named as hwloc-calc
 * names their objects. */
static const struct level {
    cl_device_affinity_domain domain;
    hwloc_obj_type_t type;
    const char *name;
} levels[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, HWLOC_OBJ_NUMANODE, "numa"},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, HWLOC_OBJ_L4CACHE, "l4"},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, HWLOC_OBJ_L3CACHE, "l3"},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, HWLOC_OBJ_L2CACHE, "l2"},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, HWLOC_OBJ_L1CACHE, "l1"},
};
#define LEVEL_COUNT (sizeof(levels) / sizeof(levels[0]))

static cl_device_id sentinel_device(void)
{
    return (cl_device_id)(uintptr_t)0x5a5a5a5a;
}

static cl_uint units_of(hwloc_const_bitmap_t set)
{
    return (cl_uint)hwloc_bitmap_weight(set);
}

/* ---- reading a device ------------------------------------------------------ */

/* A fixed-size query: exactly @p size bytes. */
static void info_exact(cl_device_id device, cl_device_info name, void *value,
                       size_t size)
{
    size_t got = 0;
    CHECK_EQ(clGetDeviceInfo(device, name, size, value, &got), CL_SUCCESS);
    CHECK_EQ(got, size);
}

static cl_uint info_uint(cl_device_id device, cl_device_info name)
{
    cl_uint value = 0;
    info_exact(device, name, &value, sizeof(value));
    return value;
}

static cl_ulong info_ulong(cl_device_id device, cl_device_info name)
{
    cl_ulong value = 0;
    info_exact(device, name, &value, sizeof(value));
    return value;
}

static cl_uint refcount(cl_device_id device)
{
    return info_uint(device, CL_DEVICE_REFERENCE_COUNT);
}

static cl_device_id parent_of(cl_device_id device)
{
    cl_device_id parent = sentinel_device();
    info_exact(device, CL_DEVICE_PARENT_DEVICE, &parent, sizeof(parent));
    return parent;
}

/* A partition-property list query (both halves of the two-call protocol);
 * @return the entries, at most @p room. */
static size_t info_properties(cl_device_id device, cl_device_info name,
                              property *out, size_t room)
{
    size_t size = 0, again = 0;
    CHECK_EQ(clGetDeviceInfo(device, name, 0, NULL, &size), CL_SUCCESS);
    CHECK(size % sizeof(property) == 0 && size <= room * sizeof(property));
    if (size > room * sizeof(property))
        return 0;
    CHECK_EQ(clGetDeviceInfo(device, name, size, out, &again), CL_SUCCESS);
    CHECK_EQ(again, size);
    return size / sizeof(property);
}

/* The device's cpuset, through cl_refcl_device_cpuset (caller frees). */
static hwloc_bitmap_t cpuset_of(cl_device_id device)
{
    char text[4096] = "";
    size_t size = 0;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_CPUSET_REFCL, 0, NULL, &size),
             CL_SUCCESS);
    CHECK(size >= 2 && size <= sizeof(text));
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_CPUSET_REFCL, sizeof(text),
                             text, NULL),
             CL_SUCCESS);
    CHECK_EQ(strlen(text) + 1, size);
    CHECK_EQ(hwloc_bitmap_list_sscanf(set, text), 0);
    return set;
}

/* ---- what hwloc predicts ---------------------------------------------------- */

static bool under_dcache(hwloc_obj_t obj)
{
    for (hwloc_obj_t o = obj->parent; o; o = o->parent)
        if (hwloc_obj_type_is_dcache(o->type))
            return true;
    return false;
}

/* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE of a device on @p set: its share of each
 * outermost data cache, by PUs. */
static cl_ulong llc_share(hwloc_const_bitmap_t set)
{
    cl_ulong share = 0;
    hwloc_bitmap_t inside = hwloc_bitmap_alloc();
    for (int d = 0; d < hwloc_topology_get_depth(topo); d++) {
        for (unsigned i = 0; i < hwloc_get_nbobjs_by_depth(topo, d); i++) {
            hwloc_obj_t o = hwloc_get_obj_by_depth(topo, d, i);
            if (!hwloc_obj_type_is_dcache(o->type) || under_dcache(o))
                continue;
            hwloc_bitmap_and(inside, o->cpuset, set);
            share += o->attr->cache.size * units_of(inside) /
                     units_of(o->cpuset);
        }
    }
    hwloc_bitmap_free(inside);
    return share;
}

/* Expected sub-devices of one request. */
struct expect {
    cl_int code;
    cl_uint count;
    hwloc_bitmap_t *sets;           /* the sub-devices' cpusets, in order */
    cl_device_affinity_domain level; /* affinity: in CL_DEVICE_PARTITION_TYPE */
};

static void expect_reset(struct expect *e, hwloc_const_bitmap_t set)
{
    memset(e, 0, sizeof(*e));
    e->sets = calloc(units_of(set) + 1, sizeof(*e->sets));
}

static void expect_free(struct expect *e)
{
    for (cl_uint i = 0; i < e->count; i++)
        hwloc_bitmap_free(e->sets[i]);
    free(e->sets);
    e->sets = NULL;
    e->count = 0;
}

/* One piece per object of @p type sharing PUs with @p set, in logical
 * order, without the PUs earlier pieces hold; into @p e, or just counted. */
static cl_uint level_pieces(hwloc_const_bitmap_t set, hwloc_obj_type_t type,
                            struct expect *e)
{
    cl_uint count = 0;
    hwloc_bitmap_t left = hwloc_bitmap_dup(set);
    int n = hwloc_get_nbobjs_by_type(topo, type);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        hwloc_bitmap_t piece = hwloc_bitmap_alloc();
        hwloc_bitmap_and(piece, obj->cpuset, left);
        hwloc_bitmap_andnot(left, left, piece);
        if (!hwloc_bitmap_iszero(piece) && e)
            e->sets[e->count++] = hwloc_bitmap_dup(piece);
        count += !hwloc_bitmap_iszero(piece);
        hwloc_bitmap_free(piece);
    }
    hwloc_bitmap_free(left);
    return count;
}

/* CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the levels with two domains or more
 * over @p set, and NEXT_PARTITIONABLE with any. */
static cl_device_affinity_domain domains_of(hwloc_const_bitmap_t set)
{
    cl_device_affinity_domain domains = 0;
    for (size_t i = 0; i < LEVEL_COUNT; i++)
        if (level_pieces(set, levels[i].type, NULL) >= 2)
            domains |= levels[i].domain;
    return domains ? domains | NEXT : 0;
}

/* Runs of consecutive PUs of @p set in logical order, of @p sizes. */
static void expect_runs(struct expect *e, hwloc_const_bitmap_t set,
                        const cl_uint *sizes, cl_uint count)
{
    unsigned next_pu = 0;
    e->code = CL_SUCCESS;
    for (cl_uint i = 0; i < count; i++) {
        hwloc_bitmap_t run = hwloc_bitmap_alloc();
        while (units_of(run) < sizes[i]) {
            hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU,
                                                   next_pu++);
            if (hwloc_bitmap_isset(set, pu->os_index))
                hwloc_bitmap_set(run, pu->os_index);
        }
        e->sets[e->count++] = run;
    }
}

/* EQUALLY n: units / n sub-devices of n units. n must be a cl_uint above 0
 * (CL_INVALID_VALUE); above the units the CTS wants
 * CL_INVALID_DEVICE_PARTITION_COUNT; n = units would be the device itself:
 * CL_DEVICE_PARTITION_FAILED (the CTS again). */
static void expect_equally(struct expect *e, hwloc_const_bitmap_t set,
                           property n)
{
    cl_uint units = units_of(set);
    expect_reset(e, set);
    if (n <= 0 || (uintmax_t)n > CL_UINT_MAX)
        e->code = CL_INVALID_VALUE;
    else if ((cl_uint)n > units)
        e->code = CL_INVALID_DEVICE_PARTITION_COUNT;
    else if ((cl_uint)n == units)
        e->code = CL_DEVICE_PARTITION_FAILED;
    else {
        cl_uint count = units / (cl_uint)n;
        cl_uint *sizes = malloc(count * sizeof(*sizes));
        for (cl_uint i = 0; i < count; i++)
            sizes[i] = (cl_uint)n;
        expect_runs(e, set, sizes, count);
        free(sizes);
    }
}

/* BY_COUNTS: an empty list is malformed (CL_INVALID_VALUE); a negative
 * count, or more units than the device has (and so more sub-devices than
 * CL_DEVICE_PARTITION_MAX_SUB_DEVICES), CL_INVALID_DEVICE_PARTITION_COUNT;
 * one count of every unit, the device itself: CL_DEVICE_PARTITION_FAILED. */
static void expect_counts(struct expect *e, hwloc_const_bitmap_t set,
                          const property *counts, cl_uint count)
{
    cl_uint units = units_of(set);
    long long total = 0;
    bool negative = false;
    expect_reset(e, set);
    for (cl_uint i = 0; i < count; i++) {
        negative |= counts[i] < 0;
        total += counts[i] > 0 ? counts[i] : 0;
    }
    if (count == 0)
        e->code = CL_INVALID_VALUE;
    else if (negative || total > units)
        e->code = CL_INVALID_DEVICE_PARTITION_COUNT;
    else if (count == 1 && total == units)
        e->code = CL_DEVICE_PARTITION_FAILED;
    else {
        cl_uint *sizes = malloc(count * sizeof(*sizes));
        for (cl_uint i = 0; i < count; i++)
            sizes[i] = (cl_uint)counts[i];
        expect_runs(e, set, sizes, count);
        free(sizes);
    }
}

/* BY_AFFINITY_DOMAIN: one sub-device per domain of the level over the
 * device. No such domain: the value is "not supported by the device"
 * (CL_INVALID_VALUE); one: CL_DEVICE_PARTITION_FAILED. NEXT_PARTITIONABLE
 * takes the first level with two or more, else fails. */
static void expect_domain(struct expect *e, hwloc_const_bitmap_t set,
                          cl_device_affinity_domain domain)
{
    expect_reset(e, set);
    e->code = CL_DEVICE_PARTITION_FAILED;
    for (size_t i = 0; i < LEVEL_COUNT; i++) {
        if (domain != NEXT && domain != levels[i].domain)
            continue;
        cl_uint count = level_pieces(set, levels[i].type, NULL);
        if (count >= 2) {
            level_pieces(set, levels[i].type, e);
            e->code = CL_SUCCESS;
            e->level = levels[i].domain;
            return;
        }
        if (domain != NEXT && count == 0)
            e->code = CL_INVALID_VALUE;
    }
}

/* ---- checking devices ------------------------------------------------------- */

/* CL_DEVICE_PARTITION_PROPERTIES: every scheme wherever two units can be
 * split (an affinity level that cannot split the device fails), else {0}. */
static void check_schemes(cl_device_id device, cl_uint units)
{
    property expected[3], got[8];
    size_t count = 0;
    if (units >= 2) {
        expected[count++] = CL_DEVICE_PARTITION_EQUALLY;
        expected[count++] = CL_DEVICE_PARTITION_BY_COUNTS;
        expected[count++] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
    } else {
        expected[count++] = 0;
    }
    CHECK_EQ(info_properties(device, CL_DEVICE_PARTITION_PROPERTIES, got, 8),
             count);
    for (size_t i = 0; i < count; i++)
        CHECK_EQ(got[i], expected[i]);
}

static void check_cpuset(cl_device_id device, hwloc_const_bitmap_t expected)
{
    hwloc_bitmap_t got = cpuset_of(device);
    if (!hwloc_bitmap_isequal(got, expected)) {
        char *g, *e;
        hwloc_bitmap_list_asprintf(&g, got);
        hwloc_bitmap_list_asprintf(&e, expected);
        fprintf(stderr, "cpuset %s, expected %s\n", g, e);
        free(g);
        free(e);
        test_failures++;
    }
    hwloc_bitmap_free(got);
}

/* Everything a device on @p set answers for itself. */
static void check_device(cl_device_id device, hwloc_const_bitmap_t set)
{
    cl_uint units = units_of(set);
    cl_device_affinity_domain domains = domains_of(set);
    check_cpuset(device, set);
    CHECK_EQ(info_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS), units);
    CHECK_EQ(info_ulong(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE),
             llc_share(set));
    CHECK_EQ(info_uint(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES),
             units >= 2 ? units : 0);
    CHECK_EQ(info_ulong(device, CL_DEVICE_PARTITION_AFFINITY_DOMAIN),
             domains);
    check_schemes(device, units);
    /* The same dispatch table and dispatch data as the platform's. */
    CHECK(test_object_word(device, 0) == test_object_word(root, 0));
    CHECK(test_object_word(device, 1) == test_object_word(platform, 1));
}

/* Entries of a well-formed property list, its final 0 included. */
static size_t list_length(const property *props)
{
    size_t n = 2; /* the name and its (first) value */
    if (props[0] == CL_DEVICE_PARTITION_BY_COUNTS)
        while (props[n - 1] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END)
            n++;
    return n + 1;
}

/* CL_DEVICE_PARTITION_TYPE echoes the list, with the level that
 * NEXT_PARTITIONABLE picked. */
static void check_partition_type(cl_device_id device, const property *props,
                                 cl_device_affinity_domain level)
{
    size_t len = list_length(props);
    property *got = calloc(len, sizeof(*got));
    CHECK_EQ(info_properties(device, CL_DEVICE_PARTITION_TYPE, got, len),
             len);
    for (size_t i = 0; i < len; i++)
        CHECK_EQ(got[i], i == 1 && props[0] ==
                                       CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN
                             ? (property)level
                             : props[i]);
    free(got);
}

/* Sub-devices just made from @p parent: what hwloc predicts, disjoint,
 * inside the parent; each with one reference. */
static void check_children(cl_device_id parent, hwloc_const_bitmap_t set,
                           const property *props, const cl_device_id *kids,
                           const struct expect *e)
{
    hwloc_bitmap_t taken = hwloc_bitmap_alloc();
    for (cl_uint i = 0; i < e->count; i++) {
        check_device(kids[i], e->sets[i]);
        check_partition_type(kids[i], props, e->level);
        CHECK(parent_of(kids[i]) == parent);
        CHECK_EQ(refcount(kids[i]), 1);
        CHECK(hwloc_bitmap_isincluded(e->sets[i], set));
        CHECK(!hwloc_bitmap_intersects(e->sets[i], taken));
        hwloc_bitmap_or(taken, taken, e->sets[i]);
    }
    /* Affinity domains cover a synthetic machine's every PU. */
    if (props[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN &&
        getenv("HWLOC_SYNTHETIC"))
        CHECK(hwloc_bitmap_isequal(taken, set));
    hwloc_bitmap_free(taken);
}

static void release_all(cl_device_id *devices, cl_uint count)
{
    for (cl_uint i = 0; i < count; i++)
        CHECK_EQ(clReleaseDevice(devices[i]), CL_SUCCESS);
    free(devices);
}

/* Names a failing request: its entries up to the first 0 after the name. */
static void print_list(const property *props)
{
    fprintf(stderr, "properties {");
    for (int i = 0; i < 8; i++) {
        fprintf(stderr, " %lld", (long long)props[i]);
        if (i && props[i] == 0)
            break;
    }
    fprintf(stderr, " }:\n");
}

/* A device's own count: the root's never moves. */
static cl_uint parent_count(cl_device_id device, cl_uint base, cl_uint kids)
{
    return device == root ? 1 : base + kids;
}

/*
 * Partitions @p device (on @p set) with @p props and checks every outcome
 * against @p e: the count alone (no device made), out_devices one too small
 * (CL_INVALID_VALUE, nothing made, nothing written), then the real call.
 * @return the sub-devices on success (the caller releases them), else NULL.
 */
static cl_device_id *partition(cl_device_id device, hwloc_const_bitmap_t set,
                               const property *props, const struct expect *e)
{
    cl_uint base = refcount(device), n = SENTINEL_COUNT;
    cl_uint room = units_of(set) + 1; /* more than any request makes */
    cl_device_id *out = malloc((room + 1) * sizeof(*out));
    for (cl_uint i = 0; i <= room; i++)
        out[i] = sentinel_device();

    cl_int rc = clCreateSubDevices(device, props, 0, NULL, &n);
    if (rc != e->code)
        print_list(props);
    CHECK_EQ(rc, e->code);
    CHECK_EQ(n, e->code == CL_SUCCESS ? e->count : SENTINEL_COUNT);
    n = SENTINEL_COUNT;
    /* Too small by one, or (for a failing request) more than enough. */
    rc = clCreateSubDevices(device, props, e->code == CL_SUCCESS ? e->count - 1
                                                                  : room,
                            out, &n);
    CHECK_EQ(rc, e->code == CL_SUCCESS ? CL_INVALID_VALUE : e->code);
    CHECK_EQ(n, SENTINEL_COUNT);
    CHECK(out[0] == sentinel_device());
    CHECK_EQ(refcount(device), base);
    if (e->code != CL_SUCCESS) {
        free(out);
        return NULL;
    }

    rc = clCreateSubDevices(device, props, e->count, out, &n);
    CHECK_EQ(rc, CL_SUCCESS);
    if (rc != CL_SUCCESS) { /* nothing to check, or to release */
        free(out);
        return NULL;
    }
    CHECK_EQ(n, e->count);
    CHECK(out[e->count] == sentinel_device());
    CHECK_EQ(refcount(device), parent_count(device, base, e->count));
    check_children(device, set, props, out, e);
    return out;
}

/* partition() and release: the parent's count returns to what it was. */
static void partition_and_release(cl_device_id device,
                                  hwloc_const_bitmap_t set,
                                  const property *props, struct expect *e)
{
    cl_uint base = refcount(device);
    cl_device_id *kids = partition(device, set, props, e);
    if (kids)
        release_all(kids, e->count);
    CHECK_EQ(refcount(device), base);
    expect_free(e);
}

/* ---- the schemes, on any device ---------------------------------------------- */

static void check_equally(cl_device_id device, hwloc_const_bitmap_t set)
{
    cl_uint units = units_of(set);
    /* INTPTR_MAX is no cl_uint where intptr_t is wider (CL_INVALID_VALUE),
     * else more units than any device (CL_INVALID_DEVICE_PARTITION_COUNT). */
    const property sizes[] = {0,         -2,        INTPTR_MAX,
                              1,         2,         3,
                              units / 2, units - 1, units,
                              units + 1, (property)CL_UINT_MAX};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        property props[] = {CL_DEVICE_PARTITION_EQUALLY, sizes[i], 0};
        struct expect e;
        expect_equally(&e, set, sizes[i]);
        partition_and_release(device, set, props, &e);
    }
}

/* BY_COUNTS with the @p count counts given. */
static void check_count_list(cl_device_id device, hwloc_const_bitmap_t set,
                             const property *counts, cl_uint count)
{
    property *props = malloc((count + 3) * sizeof(*props));
    struct expect e;
    props[0] = CL_DEVICE_PARTITION_BY_COUNTS;
    memcpy(props + 1, counts, count * sizeof(*props));
    props[count + 1] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
    props[count + 2] = 0;
    expect_counts(&e, set, counts, count);
    partition_and_release(device, set, props, &e);
    free(props);
}

static void check_by_counts(cl_device_id device, hwloc_const_bitmap_t set)
{
    property u = units_of(set);
    const property lists[][3] = {
        {1, u - 1, 0}, {u / 2, u - u / 2, 0}, {3, 1, 0}, {2, 1, 1},
        {u, 0, 0},     {u + 1, 0, 0},         {u, 1, 0}, {-1, 0, 0},
        {1, -1, 0},    {1, 0, 0},
    };
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        cl_uint count = 0; /* a 0 ends a list (on one unit, u / 2 is 0) */
        while (count < 3 && lists[i][count] != 0)
            count++;
        check_count_list(device, set, lists[i], count);
    }
    /* One unit per sub-device: exactly CL_DEVICE_PARTITION_MAX_SUB_DEVICES
     * counts, then one more. */
    property *ones = malloc((u + 1) * sizeof(*ones));
    for (property i = 0; i <= u; i++)
        ones[i] = 1;
    check_count_list(device, set, ones, (cl_uint)u);
    check_count_list(device, set, ones, (cl_uint)u + 1);
    free(ones);
}

static void check_by_affinity(cl_device_id device, hwloc_const_bitmap_t set)
{
    for (size_t i = 0; i <= LEVEL_COUNT; i++) {
        cl_device_affinity_domain domain =
            i < LEVEL_COUNT ? levels[i].domain : NEXT;
        property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                            (property)domain, 0};
        struct expect e;
        expect_domain(&e, set, domain);
        partition_and_release(device, set, props, &e);
    }
}

/* CL_INVALID_VALUE "if values specified in properties are not valid":
 * nothing made, nothing written. */
static void check_malformed(cl_device_id device)
{
    const property equally = CL_DEVICE_PARTITION_EQUALLY;
    const property counts = CL_DEVICE_PARTITION_BY_COUNTS;
    const property affinity = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
    const property end = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
    const property l3 = CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE;
    const property numa = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
    const property lists[][7] = {
        {0},                                   /* no scheme */
        {-1, 0},                               /* unknown names */
        {0x1234, 2, 0},
        {equally, 2, counts, 1, end, 0},       /* two schemes */
        {equally, 2, equally, 2, 0},
        {counts, 1, end, equally, 2, 0},
        {affinity, numa, affinity, l3, 0},
        {equally, 2, 5, 0},                    /* no 0 after the value */
        {counts, end, 0},                      /* no count */
        {counts, 2, end, 3, end, 0},           /* counts after LIST_END */
        {affinity, 0, 0},                      /* not one domain */
        {affinity, numa | l3, 0},
        {affinity, NEXT << 1, 0},
        {affinity, -1, 0},
    };
    cl_uint base = refcount(device);
    for (size_t i = 0; i <= sizeof(lists) / sizeof(lists[0]); i++) {
        const property *props = i ? lists[i - 1] : NULL; /* NULL first */
        cl_device_id out[4] = {sentinel_device(), sentinel_device(),
                               sentinel_device(), sentinel_device()};
        cl_uint n = SENTINEL_COUNT;
        cl_int rc = clCreateSubDevices(device, props, 4, out, &n);
        if (rc != CL_INVALID_VALUE)
            fprintf(stderr, "malformed list %zu:\n", i);
        CHECK_EQ(rc, CL_INVALID_VALUE);
        CHECK_EQ(clCreateSubDevices(device, props, 0, NULL, &n),
                 CL_INVALID_VALUE);
        CHECK_EQ(n, SENTINEL_COUNT);
        CHECK(out[0] == sentinel_device());
    }
    CHECK_EQ(refcount(device), base);
}

/* Every scheme, domain and error on @p device. */
static void check_schemes_on(cl_device_id device, hwloc_const_bitmap_t set)
{
    check_device(device, set);
    check_malformed(device);
    check_equally(device, set);
    check_by_counts(device, set);
    check_by_affinity(device, set);
}

/* ---- nesting ------------------------------------------------------------------ */

/* A request that splits @p set, taking each scheme in turn by @p depth. */
static void nesting_request(hwloc_const_bitmap_t set, int depth,
                            property *props, struct expect *e)
{
    property units = units_of(set);
    props[2] = props[3] = props[4] = 0;
    if (depth % 3 == 2) {
        props[0] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        props[1] = NEXT;
        expect_domain(e, set, NEXT);
        if (e->code == CL_SUCCESS)
            return;
        expect_free(e);
    }
    if (depth % 3 == 1) {
        props[0] = CL_DEVICE_PARTITION_BY_COUNTS;
        props[1] = units / 2;
        props[2] = units - units / 2;
        expect_counts(e, set, props + 1, 2);
        return;
    }
    props[0] = CL_DEVICE_PARTITION_EQUALLY;
    props[1] = (units + 1) / 2;
    expect_equally(e, set, props[1]);
}

/* Every scheme at every depth, partitioning one sub-device further each
 * time (with each scheme in turn) down to a single unit, where every
 * request fails cleanly. */
static void check_nesting(cl_device_id device, hwloc_const_bitmap_t set,
                          int depth)
{
    check_schemes_on(device, set);
    if (units_of(set) < 2)
        return;
    property props[5];
    struct expect e;
    nesting_request(set, depth, props, &e);
    cl_device_id *kids = partition(device, set, props, &e);
    if (kids) {
        check_nesting(kids[0], e.sets[0], depth + 1);
        release_all(kids, e.count);
    }
    expect_free(&e);
}

/* ---- NEXT_PARTITIONABLE down to failure ------------------------------------- */

static const char *level_name(cl_device_affinity_domain domain)
{
    for (size_t i = 0; i < LEVEL_COUNT; i++)
        if (levels[i].domain == domain)
            return levels[i].name;
    return "?";
}

/* The levels and counts met along the first branch: "numa:4 l3:2 ...". */
static char next_chain[256];

static void tree_print(int depth, const char *label, hwloc_const_bitmap_t set,
                       cl_int code)
{
    char *list;
    hwloc_bitmap_list_asprintf(&list, set);
    printf("%*s%s: %u units, cpuset %s%s\n", 2 * depth, "", label,
           units_of(set), list,
           code == CL_DEVICE_PARTITION_FAILED ? " (partition failed)" : "");
    free(list);
}

/* Partitions with NEXT_PARTITIONABLE, then every sub-device again, until
 * CL_DEVICE_PARTITION_FAILED; checks levels and counts at every depth. */
static void check_next_tree(cl_device_id device, hwloc_const_bitmap_t set,
                            int depth, const char *label, bool first)
{
    const property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, NEXT,
                              0};
    struct expect e;
    expect_domain(&e, set, NEXT);
    if (getenv("REFCL_TEST_TREE"))
        tree_print(depth, label, set, e.code);
    cl_device_id *kids = partition(device, set, props, &e);
    if (first && kids) {
        size_t used = strlen(next_chain);
        snprintf(next_chain + used, sizeof(next_chain) - used, "%s%s:%u",
                 used ? " " : "", level_name(e.level), e.count);
    }
    for (cl_uint i = 0; kids && i < e.count; i++) {
        char name[32];
        snprintf(name, sizeof(name), "%s %u", level_name(e.level), i);
        check_next_tree(kids[i], e.sets[i], depth + 1, name, first && !i);
    }
    if (kids)
        release_all(kids, e.count);
    expect_free(&e);
}

/* ---- lifetime ----------------------------------------------------------------- */

/* Handles are recognised after release only directly: a loader would read
 * the dead object. The slot stays in quarantine, so it is not reused. */
static void check_dead(cl_device_id device)
{
    cl_uint units;
    if (test_through_loader())
        return;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                             sizeof(units), &units, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clRetainDevice(device), CL_INVALID_DEVICE);
    CHECK_EQ(clReleaseDevice(device), CL_INVALID_DEVICE);
}

/* Children hold their parent: the parent's count grows with them, and it
 * lives on after the application's release until the last child goes. */
static void check_parent_kept_alive(cl_device_id parent,
                                    hwloc_const_bitmap_t set)
{
    const property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    struct expect e;
    expect_equally(&e, set, 1);
    cl_device_id *kids = partition(parent, set, props, &e);
    if (!kids) { /* a single unit */
        CHECK_EQ(clReleaseDevice(parent), CL_SUCCESS);
        expect_free(&e);
        return;
    }
    CHECK_EQ(refcount(parent), 1 + e.count);
    CHECK_EQ(clRetainDevice(kids[0]), CL_SUCCESS);
    CHECK_EQ(refcount(kids[0]), 2);
    CHECK_EQ(refcount(parent), 1 + e.count);
    CHECK_EQ(clReleaseDevice(parent), CL_SUCCESS);
    CHECK_EQ(refcount(parent), e.count);
    check_device(parent, set);
    for (cl_uint i = e.count; i-- > 1;) {
        CHECK_EQ(clReleaseDevice(kids[i]), CL_SUCCESS);
        CHECK_EQ(refcount(parent), i);
        check_dead(kids[i]);
    }
    CHECK_EQ(clReleaseDevice(kids[0]), CL_SUCCESS);
    CHECK_EQ(refcount(kids[0]), 1);
    CHECK_EQ(refcount(parent), 1);
    CHECK_EQ(clReleaseDevice(kids[0]), CL_SUCCESS);
    check_dead(kids[0]);
    check_dead(parent);
    CHECK_EQ(refcount(root), 1);
    free(kids);
    expect_free(&e);
}

/* BY_COUNTS {1, rest} on the rest, down to one unit: a chain as deep as
 * the machine has units. The application lets go of every parent first;
 * the last leaf's release then frees the whole chain. */
static void check_deep_chain(void)
{
    cl_uint units = units_of(machine);
    cl_device_id *chain = calloc(2 * units, sizeof(*chain)); /* parent, leaf */
    hwloc_bitmap_t set = hwloc_bitmap_dup(machine);
    cl_device_id device = root;
    cl_uint depth = 0;
    for (; units_of(set) >= 2; depth++) {
        property props[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                            units_of(set) - 1,
                            CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        cl_device_id kids[2];
        cl_uint n = 0;
        CHECK_EQ(clCreateSubDevices(device, props, 2, kids, &n), CL_SUCCESS);
        if (n != 2)
            break;
        chain[2 * depth] = kids[1];
        chain[2 * depth + 1] = kids[0];
        hwloc_bitmap_clr(set, (unsigned)hwloc_bitmap_first(set));
        device = kids[1];
    }
    CHECK_EQ(depth, units - 1);
    for (cl_uint d = 0; d + 1 < depth; d++) /* the innermost has no child */
        CHECK_EQ(refcount(chain[2 * d]), 3);
    /* The innermost goes at once, and so its parent's count drops to 1. */
    for (cl_uint d = 0; d < depth; d++)
        CHECK_EQ(clReleaseDevice(chain[2 * d]), CL_SUCCESS);
    for (cl_uint d = 0; d + 1 < depth; d++)
        CHECK_EQ(refcount(chain[2 * d]), d + 2 < depth ? 2 : 1);
    for (cl_uint d = 0; d + 1 < depth; d++)
        CHECK_EQ(clReleaseDevice(chain[2 * d + 1]), CL_SUCCESS);
    if (depth >= 2)
        CHECK_EQ(refcount(chain[0]), 1);
    CHECK_EQ(clReleaseDevice(chain[2 * depth - 1]), CL_SUCCESS);
    for (cl_uint d = 0; d < 2 * depth; d++)
        check_dead(chain[d]);
    CHECK_EQ(refcount(root), 1);
    hwloc_bitmap_free(set);
    free(chain);
}

static void check_lifetime(void)
{
    cl_uint units = units_of(machine);
    const property props[] = {CL_DEVICE_PARTITION_EQUALLY, (units + 1) / 2, 0};
    struct expect e;
    expect_equally(&e, machine, (units + 1) / 2);
    /* Root devices: retain and release succeed, the count stays 1. */
    CHECK_EQ(clRetainDevice(root), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(root), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(root), CL_SUCCESS);
    CHECK_EQ(refcount(root), 1);
    cl_device_id *kids = partition(root, machine, props, &e);
    CHECK_EQ(refcount(root), 1);
    if (kids) {
        for (cl_uint i = 1; i < e.count; i++)
            CHECK_EQ(clReleaseDevice(kids[i]), CL_SUCCESS);
        check_parent_kept_alive(kids[0], e.sets[0]);
        free(kids);
    }
    expect_free(&e);
    if (units >= 2)
        check_deep_chain();
}

/* No out_devices and no num_devices_ret: nothing to do, and nothing done.
 * No num_devices_ret: the devices alone. */
static void check_optional_outputs(void)
{
    const property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint units = units_of(machine);
    cl_device_id *out = calloc(units, sizeof(*out));
    cl_int expected = units >= 2 ? CL_SUCCESS : CL_DEVICE_PARTITION_FAILED;
    CHECK_EQ(clCreateSubDevices(root, props, 0, NULL, NULL), expected);
    CHECK_EQ(clCreateSubDevices(root, props, units, out, NULL), expected);
    for (cl_uint i = 0; expected == CL_SUCCESS && i < units; i++) {
        CHECK(parent_of(out[i]) == root);
        CHECK_EQ(clReleaseDevice(out[i]), CL_SUCCESS);
    }
    free(out);
}

/* ---- dispatch data at depth ------------------------------------------------- */

/* Halves @p device down to depth 3 (less on small machines), adding every
 * sub-device to @p all from @p used on; @return the new count. */
static cl_uint grow_tree(cl_device_id device, int depth, cl_device_id *all,
                         cl_uint used)
{
    cl_uint units = info_uint(device, CL_DEVICE_MAX_COMPUTE_UNITS), n = 0;
    const property props[] = {CL_DEVICE_PARTITION_EQUALLY, (units + 1) / 2, 0};
    cl_device_id kids[2];
    if (depth == 3 || units < 2 ||
        clCreateSubDevices(device, props, 2, kids, &n) != CL_SUCCESS)
        return used;
    for (cl_uint i = 0; i < n; i++) {
        all[used++] = kids[i];
        used = grow_tree(kids[i], depth + 1, all, used);
    }
    return used;
}

static void check_words(cl_device_id *all, cl_uint count, void *disp_data)
{
    for (cl_uint i = 0; i < count; i++) {
        CHECK(test_object_word(all[i], 0) == test_object_word(root, 0));
        CHECK(test_object_word(all[i], 1) == disp_data);
    }
}

/* Every sub-device at every depth carries the platform's dispatch data:
 * the loader's (ICD2), else a marker set here and then taken back. */
static void check_disp_data(void)
{
    static int marker;
    cl_device_id all[32];
    cl_uint count = grow_tree(root, 0, all, 0);
    void *loader_data = test_object_word(platform, 1);
    const char *loader = getenv("REFCL_TEST_LOADER");
    if (loader && !strcmp(loader, "icd2"))
        CHECK(loader_data != NULL);
    check_words(all, count, loader_data);
    if (!loader_data) {
        set_disp_data_fn set = (set_disp_data_fn)
            clGetExtensionFunctionAddressForPlatform(
                platform, "clIcdSetPlatformDispatchDataKHR");
        CHECK(set != NULL);
        CHECK_EQ(set(platform, &marker), CL_SUCCESS);
        check_words(all, count, &marker);
        /* Made after the change, deepest first: copied from the parent. */
        cl_uint more = grow_tree(count ? all[count - 1] : root, 1, all,
                                 count);
        check_words(all, more, &marker);
        CHECK_EQ(set(platform, NULL), CL_SUCCESS);
        check_words(all, more, NULL);
        count = more;
    }
    for (cl_uint i = count; i-- > 0;)
        CHECK_EQ(clReleaseDevice(all[i]), CL_SUCCESS);
}

/* ---- what hwloc-calc says ------------------------------------------------------- */

/* REFCL_TEST_EXPECT_LEVELS, e.g. "numa:4 l3:8": domains of each level over
 * the machine (a level left out has none). */
static cl_uint pinned_level(const char *name)
{
    const char *pins = getenv("REFCL_TEST_EXPECT_LEVELS");
    size_t len = strlen(name);
    for (const char *p = pins; p && *p; p += strcspn(p, " "), p += *p == ' ')
        if (!strncmp(p, name, len) && p[len] == ':')
            return (cl_uint)strtoul(p + len + 1, NULL, 10);
    return 0;
}

/* refcl and hwloc against the figures hwloc-calc gave for the machine. */
static void check_pins(void)
{
    const char *units = getenv("REFCL_TEST_EXPECT_UNITS");
    const char *next = getenv("REFCL_TEST_EXPECT_NEXT");
    const char *first_numa = getenv("REFCL_TEST_EXPECT_FIRST_NUMA");
    if (!units)
        return; /* the host */
    CHECK_EQ(units_of(machine), strtoul(units, NULL, 10));
    for (size_t i = 0; i < LEVEL_COUNT; i++) {
        cl_uint pin = pinned_level(levels[i].name);
        cl_uint n = SENTINEL_COUNT;
        property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                            (property)levels[i].domain, 0};
        cl_int rc = clCreateSubDevices(root, props, 0, NULL, &n);
        CHECK_EQ(level_pieces(machine, levels[i].type, NULL), pin);
        CHECK_EQ(rc, pin >= 2   ? CL_SUCCESS
                     : pin == 1 ? CL_DEVICE_PARTITION_FAILED
                                : CL_INVALID_VALUE);
        CHECK_EQ(n, pin >= 2 ? pin : SENTINEL_COUNT);
    }
    CHECK_STR(next_chain, next ? next : "");
    if (first_numa) {
        struct expect e;
        expect_domain(&e, machine, CL_DEVICE_AFFINITY_DOMAIN_NUMA);
        char list[256] = "";
        if (e.count)
            hwloc_bitmap_list_snprintf(list, sizeof(list), e.sets[0]);
        CHECK_STR(list, first_numa);
        expect_free(&e);
    }
}

int main(void)
{
    if (!test_first_device(&platform, &root))
        return 1;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        fprintf(stderr, "hwloc could not load the topology\n");
        return 1;
    }
    machine = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo));
    hwloc_bitmap_and(machine, machine, hwloc_topology_get_complete_cpuset(topo));

    CHECK(parent_of(root) == NULL);
    CHECK_EQ(refcount(root), 1);
    check_nesting(root, machine, 0);
    check_next_tree(root, machine, 0, "root", true);
    check_pins();
    check_lifetime();
    check_optional_outputs();
    check_disp_data();
    CHECK_EQ(refcount(root), 1);

    hwloc_bitmap_free(machine);
    hwloc_topology_destroy(topo);
    return TEST_RESULT();
}
