/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hwloc, loaded on the first topology load instead of with librefcl.
 *
 * librefcl does not name libhwloc as a dependency: a loader's dlopen of
 * refcl would otherwise map and relocate hwloc and its own dependencies
 * (libudev, ...) for every program, though enumerating platforms never uses
 * hwloc. Instead this file defines, hidden, every hwloc function refcl
 * calls (hwloc.h's inline helpers included), so that refcl's calls bind
 * here; each forwards through a table that refcl_hwloc_open fills once.
 *
 * Each function comes from the program first (RTLD_DEFAULT: the hwloc a
 * program links, or a function it defines itself as tests/device/ids.c
 * does, serves refcl too, as when refcl linked hwloc), else from hwloc's
 * library, opened RTLD_LOCAL by its soname (REFCL_HWLOC_SONAME, read at
 * configure time from the library pkg-config found). refcl's own
 * definitions are hidden, so RTLD_DEFAULT never finds them.
 */
#include "refcl/device.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef REFCL_HWLOC_SONAME
#error "REFCL_HWLOC_SONAME (hwloc's soname) is set by CMakeLists.txt"
#endif

/*
 * Every hwloc function refcl calls: R(return type, name, parameters,
 * arguments) for one that returns a value, V(name, parameters, arguments)
 * for a void one, with the parameters exactly as <hwloc.h> declares them
 * (a mismatch fails to compile). A call to a function not listed here fails
 * the link (-z defs) or, in the sanitizer builds, icd/exports, which wants
 * no undefined hwloc symbol in librefcl.
 */
#define REFCL_HWLOC_FUNCTIONS(R, V)                                          \
    R(hwloc_bitmap_t, hwloc_bitmap_alloc, (void), ())                        \
    R(int, hwloc_bitmap_and,                                                 \
      (hwloc_bitmap_t res, hwloc_const_bitmap_t bitmap1,                     \
       hwloc_const_bitmap_t bitmap2),                                        \
      (res, bitmap1, bitmap2))                                               \
    R(int, hwloc_bitmap_andnot,                                              \
      (hwloc_bitmap_t res, hwloc_const_bitmap_t bitmap1,                     \
       hwloc_const_bitmap_t bitmap2),                                        \
      (res, bitmap1, bitmap2))                                               \
    R(hwloc_bitmap_t, hwloc_bitmap_dup, (hwloc_const_bitmap_t bitmap),       \
      (bitmap))                                                              \
    R(int, hwloc_bitmap_first, (hwloc_const_bitmap_t bitmap), (bitmap))      \
    V(hwloc_bitmap_free, (hwloc_bitmap_t bitmap), (bitmap))                  \
    R(int, hwloc_bitmap_intersects,                                          \
      (hwloc_const_bitmap_t bitmap1, hwloc_const_bitmap_t bitmap2),          \
      (bitmap1, bitmap2))                                                    \
    R(int, hwloc_bitmap_isincluded,                                          \
      (hwloc_const_bitmap_t sub_bitmap, hwloc_const_bitmap_t super_bitmap),  \
      (sub_bitmap, super_bitmap))                                            \
    R(int, hwloc_bitmap_iszero, (hwloc_const_bitmap_t bitmap), (bitmap))     \
    R(int, hwloc_bitmap_list_asprintf,                                       \
      (char **strp, hwloc_const_bitmap_t bitmap), (strp, bitmap))            \
    R(int, hwloc_bitmap_next, (hwloc_const_bitmap_t bitmap, int prev),       \
      (bitmap, prev))                                                        \
    R(int, hwloc_bitmap_only, (hwloc_bitmap_t bitmap, unsigned id),          \
      (bitmap, id))                                                          \
    R(int, hwloc_bitmap_nr_ulongs, (hwloc_const_bitmap_t bitmap), (bitmap))  \
    R(int, hwloc_bitmap_set, (hwloc_bitmap_t bitmap, unsigned id),           \
      (bitmap, id))                                                          \
    R(unsigned long, hwloc_bitmap_to_ith_ulong,                              \
      (hwloc_const_bitmap_t bitmap, unsigned i), (bitmap, i))                \
    R(int, hwloc_bitmap_weight, (hwloc_const_bitmap_t bitmap), (bitmap))     \
    V(hwloc_bitmap_zero, (hwloc_bitmap_t bitmap), (bitmap))                  \
    R(hwloc_obj_t, hwloc_get_obj_by_depth,                                   \
      (hwloc_topology_t topology, int depth, unsigned idx),                  \
      (topology, depth, idx))                                                \
    R(int, hwloc_get_type_depth,                                             \
      (hwloc_topology_t topology, hwloc_obj_type_t type), (topology, type))  \
    R(int, hwloc_obj_type_is_dcache, (hwloc_obj_type_t type), (type))       \
    R(int, hwloc_set_cpubind,                                                \
      (hwloc_topology_t topology, hwloc_const_cpuset_t set, int flags),      \
      (topology, set, flags))                                                \
    R(int, hwloc_set_membind,                                                \
      (hwloc_topology_t topology, hwloc_const_bitmap_t set,                  \
       hwloc_membind_policy_t policy, int flags),                            \
      (topology, set, policy, flags))                                        \
    V(hwloc_topology_destroy, (hwloc_topology_t topology), (topology))       \
    R(hwloc_const_cpuset_t, hwloc_topology_get_allowed_cpuset,               \
      (hwloc_topology_t topology), (topology))                               \
    R(hwloc_const_cpuset_t, hwloc_topology_get_complete_cpuset,              \
      (hwloc_topology_t topology), (topology))                               \
    R(int, hwloc_topology_init, (hwloc_topology_t * topologyp),              \
      (topologyp))                                                           \
    R(int, hwloc_topology_is_thissystem,                                     \
      (hwloc_topology_t __hwloc_restrict topology), (topology))              \
    R(int, hwloc_topology_load, (hwloc_topology_t topology), (topology))     \
    R(int, hwloc_topology_set_components,                                    \
      (hwloc_topology_t __hwloc_restrict topology, unsigned long flags,      \
       const char *__hwloc_restrict name),                                   \
      (topology, flags, name))                                               \
    R(int, hwloc_topology_set_io_types_filter,                               \
      (hwloc_topology_t topology, enum hwloc_type_filter_e filter),          \
      (topology, filter))

/* The name as the library spells it, after hwloc/rename.h's prefix. */
#define HWLOC_NAME_STRING(name) HWLOC_NAME_STRING_(name)
#define HWLOC_NAME_STRING_(name) #name

#define HWLOC_MEMBER(ret, name, params, args) ret(*name) params;
#define HWLOC_VOID_MEMBER(name, params, args) void(*name) params;
#define HWLOC_NAME(ret, name, params, args) HWLOC_NAME_STRING(name),
#define HWLOC_VOID_NAME(name, params, args) HWLOC_NAME_STRING(name),

struct hwloc_functions {
    REFCL_HWLOC_FUNCTIONS(HWLOC_MEMBER, HWLOC_VOID_MEMBER)
};

static const char *const hwloc_names[] = {
    REFCL_HWLOC_FUNCTIONS(HWLOC_NAME, HWLOC_VOID_NAME)};
#define HWLOC_FUNCTION_COUNT (sizeof(hwloc_names) / sizeof(hwloc_names[0]))

/* dlsym's answers go into slot[i], for the function named hwloc_names[i],
 * which fn calls: POSIX makes a function's address a valid void *. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "function pointers fit in a void *");
_Static_assert(sizeof(struct hwloc_functions) ==
                   HWLOC_FUNCTION_COUNT * sizeof(void *),
               "one slot per function");

/* Written by hwloc_resolve (under the topology's lock, before the topology
 * loads); refcl calls hwloc only on the loaded topology's objects, so every
 * call comes after that lock or the acquire load of refcl_topology_loaded. */
static union {
    struct hwloc_functions fn;
    void *slot[HWLOC_FUNCTION_COUNT];
} hwloc;

static bool hwloc_usable;
/* Why hwloc is missing is said once, not at every query that tries again. */
static bool hwloc_complained;
/* hwloc's library as refcl opened it; NULL before the first topology load
 * and when the program provides every function. */
static void *hwloc_library;

/* Finds @p name in the program, else in hwloc's library (opened on the
 * first miss). @return its address, or NULL after saying why on stderr. */
static void *hwloc_symbol(const char *name)
{
    void *symbol = dlsym(RTLD_DEFAULT, name);
    if (symbol)
        return symbol;
    if (!hwloc_library)
        hwloc_library = dlopen(REFCL_HWLOC_SONAME, RTLD_NOW | RTLD_LOCAL);
    symbol = hwloc_library ? dlsym(hwloc_library, name) : NULL;
    if (!symbol && !hwloc_complained) {
        const char *why = dlerror();
        hwloc_complained = true;
        fprintf(stderr,
                "refcl: cannot load hwloc (" REFCL_HWLOC_SONAME
                "), so there are no devices: %s\n",
                why ? why : name);
    }
    return symbol;
}

static void hwloc_resolve(void)
{
    for (size_t i = 0; i < HWLOC_FUNCTION_COUNT; i++)
        if (!(hwloc.slot[i] = hwloc_symbol(hwloc_names[i]))) {
            refcl_hwloc_close();
            return;
        }
    hwloc_usable = true;
}

bool refcl_hwloc_open(void)
{
    if (!hwloc_usable)
        hwloc_resolve();
    return hwloc_usable;
}

void refcl_hwloc_close(void)
{
    hwloc_usable = false;
    memset(&hwloc, 0, sizeof(hwloc));
    if (hwloc_library)
        dlclose(hwloc_library);
    hwloc_library = NULL;
}

/* The forwarders: <hwloc.h>'s prototypes, defined here. */
#define HWLOC_FORWARD(ret, name, params, args)                               \
    __attribute__((visibility("hidden"))) ret name params                    \
    {                                                                        \
        return hwloc.fn.name args;                                           \
    }
#define HWLOC_VOID_FORWARD(name, params, args)                               \
    __attribute__((visibility("hidden"))) void name params                   \
    {                                                                        \
        hwloc.fn.name args;                                                  \
    }
REFCL_HWLOC_FUNCTIONS(HWLOC_FORWARD, HWLOC_VOID_FORWARD)
