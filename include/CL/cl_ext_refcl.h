/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's vendor extensions to the OpenCL API: include this header after (or
 * instead of) <CL/cl.h> to use them. Every name here is refcl's own and
 * unregistered with Khronos; see docs/sub-devices.md and docs/journal.md.
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

/**
 * @defgroup cl_refcl_call_journal cl_refcl_call_journal 1.0.0
 *
 * A journal of the calls that reach refcl, for ICD loader tests
 * (refcl-loader-check uses it): after calling an OpenCL function through a
 * loader, a test reads back what refcl received, argument by argument, and
 * what it answered, and compares both with what it passed and got back. A
 * second function makes the next call of a given function return a result
 * of the test's choosing, so that unusual codes can be sent back through the
 * loader too; a third creates an object through a vendor extension
 * function, which no loader knows (cl_khr_icd 2.0: such objects must carry
 * the loader's dispatch data as well).
 *
 * Offered only when refcl runs with REFCL_JOURNAL=1: then the platform lists
 * cl_refcl_call_journal in CL_PLATFORM_EXTENSIONS and the functions below are
 * returned by clGetExtensionFunctionAddressForPlatform and
 * clGetExtensionFunctionAddress. Each library instance (one per file name
 * the library was loaded from) keeps its own journal.
 *
 * Suffixes: ICD loaders route clGetExtensionFunctionAddress by the vendor
 * suffix a name ends with. The REFCL ending of these names stands for the
 * platform's CL_PLATFORM_ICD_SUFFIX_KHR: a refcl configured with suffix
 * RCA also answers clGetCallJournalRCA (and, with an empty suffix,
 * clGetCallJournal). The names ending in REFCL are always answered.
 *
 * Experimental and unregistered with Khronos.
 * @{
 */
#define cl_refcl_call_journal 1
#define CL_REFCL_CALL_JOURNAL_EXTENSION_NAME "cl_refcl_call_journal"
#define CL_REFCL_CALL_JOURNAL_EXTENSION_VERSION CL_MAKE_VERSION(1, 0, 0)

/** Arguments a record holds: the longest entry point,
 *  clEnqueueReadBufferRect, has 14. */
#define CL_CALL_RECORD_MAX_ARGS_REFCL 16
/** Size of cl_call_record_refcl::function, its NUL included. */
#define CL_CALL_RECORD_FUNCTION_SIZE_REFCL 48
/** cl_call_record_refcl::slot of a function outside the dispatch table
 *  (clIcdGetPlatformIDsKHR, the exported clGetPlatformInfo and
 *  clGetExtensionFunctionAddress have their slot; the clIcd*ForPlatform and
 *  REFCL extension functions have none). */
#define CL_CALL_RECORD_NO_SLOT_REFCL (-1)
/** cl_call_record_refcl::flags: the result was set by clSetNextResultREFCL;
 *  refcl did not perform the call. */
#define CL_CALL_RECORD_FORCED_REFCL (1u << 0)

/**
 * One call that reached refcl. Values are raw bits: an argument, result or
 * output of n bytes is copied (memcpy) into the low-order n bytes of a
 * zeroed cl_ulong, so a cl_int of -1 reads 0x00000000FFFFFFFF and a handle
 * reads as its address.
 */
typedef struct _cl_call_record_refcl {
    /** 1 for the first call this library instance journaled, then 2, ... */
    cl_ulong sequence;
    /** Index of the function's slot in struct _cl_icd_dispatch, or
     *  CL_CALL_RECORD_NO_SLOT_REFCL. */
    cl_int slot;
    /** CL_CALL_RECORD_FORCED_REFCL, or 0. */
    cl_uint flags;
    /** The function's name, e.g. "clGetDeviceInfo". */
    char function[CL_CALL_RECORD_FUNCTION_SIZE_REFCL];
    /** The refcl platform the call reached: that of the first argument that
     *  is a live refcl object (in a handle list, its first entry; in a
     *  context property list, CL_CONTEXT_PLATFORM), else that of the object
     *  the call returned; NULL when there is none. */
    cl_platform_id platform;
    /** Arguments the function takes. */
    cl_uint num_args;
    cl_uint reserved;
    /** Each argument as received, in parameter order. */
    cl_ulong args[CL_CALL_RECORD_MAX_ARGS_REFCL];
    /**
     * For an output argument (a pointer refcl writes through): the bytes it
     * points to after the call, output_sizes[i] of them. Up to 8 bytes are
     * copied as above; longer ones are given as their 64-bit FNV-1a hash
     * (offset basis 0xcbf29ce484222325, prime 0x100000001b3, over the bytes
     * in order). Outputs are recorded when the call succeeded (CL_SUCCESS,
     * or a non-NULL result) or was forced; errcode_ret always. A param_value
     * buffer counts param_value_size bytes, an array its capacity (e.g.
     * num_entries handles), whatever the call wrote of it.
     */
    cl_ulong outputs[CL_CALL_RECORD_MAX_ARGS_REFCL];
    /** Bytes outputs[i] covers; 0 when argument i is no output, was NULL,
     *  or was not recorded. */
    cl_ulong output_sizes[CL_CALL_RECORD_MAX_ARGS_REFCL];
    /** The value returned (0 for a void function). */
    cl_ulong result;
} cl_call_record_refcl;

/**
 * Reads the journal of the refcl library instance that owns @p platform:
 * the records of the calls numbered after @p after_sequence that are still
 * held, oldest first. The journal holds the last 512 calls; a gap in the
 * sequence numbers means records were overwritten. Calls of the journal's
 * own two control functions are not journaled.
 *
 * @param num_entries records @p records has room for
 * @param num_records_ret set to the number of records held after
 *        @p after_sequence (at most num_entries of them were copied)
 * @return CL_SUCCESS; CL_INVALID_PLATFORM if @p platform is not a refcl
 *         platform of this instance; CL_INVALID_VALUE if @p num_entries is 0
 *         and @p records is not NULL, or both @p records and
 *         @p num_records_ret are NULL.
 */
typedef cl_int CL_API_CALL clGetCallJournalREFCL_t(
    cl_platform_id platform, cl_ulong after_sequence, cl_uint num_entries,
    cl_call_record_refcl *records, cl_uint *num_records_ret);
typedef clGetCallJournalREFCL_t *clGetCallJournalREFCL_fn;

/**
 * Sets the result of the next call of @p function_name that reaches this
 * library instance, from any thread: that call is journaled (with
 * CL_CALL_RECORD_FORCED_REFCL) but not performed. It returns @p next_result
 * (its low-order bytes, as above: a cl_int code, or the bits of a handle or
 * pointer), stores @p next_errcode in errcode_ret when the caller passed one,
 * and writes a byte pattern into its other outputs that are not handles
 * (param_value buffers, sizes and counts), which the journal records as
 * usual; handle outputs are left untouched. A later call replaces an
 * earlier one that has not fired yet; a NULL @p function_name cancels it.
 *
 * @param function_name a journaled function, e.g. "clGetDeviceInfo"
 * @return CL_SUCCESS; CL_INVALID_PLATFORM as for clGetCallJournalREFCL;
 *         CL_INVALID_VALUE if @p function_name names no function refcl
 *         journals.
 */
typedef cl_int CL_API_CALL clSetNextResultREFCL_t(
    cl_platform_id platform, const char *function_name, cl_ulong next_result,
    cl_int next_errcode);
typedef clSetNextResultREFCL_t *clSetNextResultREFCL_fn;

/**
 * clEnqueueMarkerWithWaitList, reached through a vendor extension function:
 * the event it returns is an object no ICD loader saw being created, so a
 * loader test can check that such objects are routed too. Same arguments,
 * behaviour and error codes as clEnqueueMarkerWithWaitList.
 */
typedef cl_int CL_API_CALL clEnqueueMarkerREFCL_t(
    cl_command_queue command_queue, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);
typedef clEnqueueMarkerREFCL_t *clEnqueueMarkerREFCL_fn;

/* No prototypes: refcl exports none of these; obtain them with
 * clGetExtensionFunctionAddressForPlatform(platform, "clGetCallJournalREFCL"). */

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CL_EXT_REFCL_H */
