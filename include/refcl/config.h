/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's run-time configuration, read once from the environment: how many
 * platforms to show, their names and ICD suffixes, which cl_khr_icd version
 * to speak, faults to inject on purpose so that loaders can be tested
 * against misbehaving drivers, call tracing and the call journal, each
 * possibly set per library instance (REFCL_INSTANCES), and whether threads
 * are bound to their devices' processing units. Documented in README.md
 * ("Configuration") and docs/tracing.md.
 * A bad value is reported on stderr and the default is used.
 */
#ifndef REFCL_CONFIG_H
#define REFCL_CONFIG_H

#include <stdbool.h>

#include "refcl/compat.h"

/** Faults refcl can inject (REFCL_FAULT). */
enum refcl_fault {
    REFCL_FAULT_NONE,
    REFCL_FAULT_GET_PLATFORMS_FAILS, /**< clIcdGetPlatformIDsKHR errs */
    REFCL_FAULT_ZERO_PLATFORMS,      /**< ... or finds no platform */
    REFCL_FAULT_NO_KHR_ICD,          /**< cl_khr_icd not in extensions */
    REFCL_FAULT_SUFFIX_FAILS,        /**< CL_PLATFORM_ICD_SUFFIX_KHR errs */
    REFCL_FAULT_ONE_TAG,             /**< ICD2 tag in slot 0 only */
    REFCL_FAULT_NO_GET_FUNCTION,     /**< no clIcdGetFunctionAddressForPlatformKHR */
    REFCL_FAULT_NO_SET_DISP_DATA,    /**< no clIcdSetPlatformDispatchDataKHR */
};

/** Most platforms REFCL_PLATFORMS may ask for. */
#define REFCL_MAX_PLATFORMS 16
#define REFCL_NAME_SIZE 64

struct refcl_config {
    cl_uint platforms;                                 /**< REFCL_PLATFORMS */
    const char *names[REFCL_MAX_PLATFORMS];            /**< REFCL_PLATFORM_NAME */
    const char *suffixes[REFCL_MAX_PLATFORMS];         /**< REFCL_ICD_SUFFIX */
    /** Copies of the items the environment sets; the defaults are constant
     *  strings, not copied. */
    char name_items[REFCL_MAX_PLATFORMS][REFCL_NAME_SIZE];
    char suffix_items[REFCL_MAX_PLATFORMS][REFCL_NAME_SIZE];
    int icd_version;                                   /**< REFCL_ICD_VERSION: 1 or 2 */
    enum refcl_fault fault;                            /**< REFCL_FAULT */
    int trace_fd;          /**< REFCL_TRACE: where calls are traced, or -1 */
    bool trace_addresses;  /**< REFCL_TRACE_ADDRESSES: addresses, or
                                handles numbered and pointers hidden */
    bool journal;          /**< REFCL_JOURNAL: keep the call journal */
    bool bind;             /**< REFCL_BIND: bind worker threads (and their
                                memory) to their device's units */
};

/** The configuration, read from the environment on first call. */
const struct refcl_config *refcl_config(void);

#endif /* REFCL_CONFIG_H */
