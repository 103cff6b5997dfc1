/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's platforms: created on first enumeration, without the hwloc
 * topology (enumerating platforms must stay cheap), and never freed while
 * the library is loaded.
 */
#ifndef REFCL_PLATFORM_H
#define REFCL_PLATFORM_H

#include "refcl/config.h"
#include "refcl/object.h"

struct _cl_platform_id {
    struct refcl_object obj;
    cl_uint index;                   /**< position in enumeration order */
    struct _cl_device_id *root;      /**< created with the topology */
    const char *name;                /**< CL_PLATFORM_NAME */
    const char *icd_suffix;          /**< CL_PLATFORM_ICD_SUFFIX_KHR */
};
REFCL_OBJECT_LAYOUT(REFCL_PLATFORM, struct _cl_platform_id);

/**
 * The platforms, creating them on first use.
 * @return the count (0 if they could not be created); *list set to them.
 */
cl_uint refcl_platforms(struct _cl_platform_id *const **list);

/**
 * The extensions every platform lists (CL_PLATFORM_EXTENSIONS_WITH_VERSION);
 * "supported by all devices associated with this platform", so every device
 * lists them first.
 * @return their count; *list set to them.
 */
size_t refcl_platform_extensions(const cl_name_version **list);

/** Room for the platform's extensions. */
#define REFCL_PLATFORM_EXTENSIONS_MAX 4

/**
 * What the platform layer must know of the compiler (compiler/, an upper
 * layer), which registers it at load: whether it is installed, whether it
 * reads SPIR-V, and how to end its idle processes.
 */
struct refcl_compiler_hooks {
    /** True where the compiler is installed (a few access() calls on the
     *  first use). */
    bool (*installed)(void);
    /** CL_DRIVER_VERSION: the version, and the compiler's identity where
     *  it is installed. */
    const char *(*driver_version)(void);
    /** True where it also has its SPIR-V translator. */
    bool (*reads_il)(void);
    /** Ends the idle compiler processes (clUnloadPlatformCompiler). */
    void (*unload)(void);
};

/** Registers @p hooks (static storage); called once, at load. */
void refcl_platform_compiler_register(const struct refcl_compiler_hooks *hooks);

/**
 * True where the OpenCL C compiler is installed: the platform and its
 * devices then report FULL_PROFILE and a compiler; else EMBEDDED_PROFILE,
 * builds refused.
 */
bool refcl_platform_full_profile(void);

/** CL_DRIVER_VERSION: REFCL_VERSION_STRING, followed where the compiler
 *  is installed by "+" and 16 hex digits that change with it. */
const char *refcl_platform_driver_version(void);

/** True where programs can be made from SPIR-V (CL_DEVICE_IL_VERSION). */
bool refcl_platform_reads_il(void);

/** Ends the compiler's idle processes, if it has any. */
void refcl_platform_compiler_unload(void);

/** CL_PLATFORM_PROFILE, which every device's CL_DEVICE_PROFILE repeats. */
const char *refcl_platform_profile(void);

/** @p platform if valid; NULL picks the default (first) platform. Else NULL. */
struct _cl_platform_id *refcl_platform_resolve(cl_platform_id platform);

/**
 * Registers where the platforms get their dispatch table when they are
 * created: the api layer, above this one, has the entry points and
 * registers refcl_dispatch_table (refcl/api.h) at load, before any call.
 */
void refcl_platform_dispatch_register(
    const struct _cl_icd_dispatch *(*table)(void));

#endif /* REFCL_PLATFORM_H */
