/*
 * refcl's vendor extensions to the OpenCL API: include this header after (or
 * instead of) <CL/cl.h> to use them. Every name here is refcl's own and
 * unregistered with Khronos; see docs/sub-devices.md.
 */
#ifndef CL_EXT_REFCL_H
#define CL_EXT_REFCL_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup cl_refcl_device_cpuset cl_refcl_device_cpuset 1.0.0
 *
 * Which host processing units a refcl device, root or sub-device, runs on.
 * refcl's compute units are hwloc processing units (PUs); a sub-device owns a
 * disjoint part of its parent's. Listed in CL_DEVICE_EXTENSIONS and
 * CL_DEVICE_EXTENSIONS_WITH_VERSION of every refcl device.
 * @{
 */
#define cl_refcl_device_cpuset 1
#define CL_REFCL_DEVICE_CPUSET_EXTENSION_NAME "cl_refcl_device_cpuset"
#define CL_REFCL_DEVICE_CPUSET_EXTENSION_VERSION CL_MAKE_VERSION(1, 0, 0)

/**
 * cl_device_info, returns char[]: the device's processing units as the
 * operating system numbers them, in hwloc's list syntax
 * (hwloc_bitmap_list_asprintf), e.g. "0-3,8-11"; parse it back with
 * hwloc_bitmap_list_sscanf. The string's length varies: query the size
 * first, as for any string query.
 *
 * Experimental and unregistered: Khronos has not assigned this value to
 * refcl. 0x5243 ("RC") lies outside every range the Khronos headers
 * (2023.02) use for cl_device_info, but a future registration could collide
 * with it; only ask a device whose CL_DEVICE_EXTENSIONS lists
 * cl_refcl_device_cpuset.
 */
#define CL_DEVICE_CPUSET_REFCL 0x5243

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_REFCL_H */
