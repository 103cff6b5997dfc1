/*
 * refcl's platforms: created on first enumeration, without the hwloc
 * topology (enumerating platforms must stay cheap), and never freed while
 * the library is loaded.
 */
#ifndef REFCL_PLATFORM_H
#define REFCL_PLATFORM_H

#include "refcl/object.h"

/** Most platforms one process can be shown. */
#define REFCL_MAX_PLATFORMS 16

struct _cl_platform_id {
    struct refcl_object obj;
    cl_uint index;                   /**< position in enumeration order */
    struct _cl_device_id *root;      /**< created with the topology */
};
REFCL_OBJECT_LAYOUT(struct _cl_platform_id);

/**
 * The platforms, creating them on first use.
 * @return the count (0 if they could not be created); *list set to them.
 */
cl_uint refcl_platforms(struct _cl_platform_id *const **list);

/** @p platform if valid; NULL picks the default (first) platform. Else NULL. */
struct _cl_platform_id *refcl_platform_resolve(cl_platform_id platform);

/** The ICD2 dispatch table every refcl object points at. */
extern const struct _cl_icd_dispatch refcl_dispatch_icd2;

#endif /* REFCL_PLATFORM_H */
