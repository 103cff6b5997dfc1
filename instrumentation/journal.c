/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The call journal (REFCL_JOURNAL, docs/journal.md): a ring of the last
 * JOURNAL_SIZE calls that reached this library instance, the helpers the
 * generated journaling twins (journal_wrappers.inc) are made of, and the
 * cl_refcl_call_journal extension functions that read the ring, force the
 * result of the next call, and create an event outside the dispatch table.
 *
 * A twin builds its record on its own stack and adds it under one lock when
 * the call returns: concurrent calls never mix records, and the ring is
 * numbered in the order calls finished. A loader test reads the journal
 * after each call it makes, so a fixed ring is enough.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "refcl/config.h"
#include "refcl/journal.h"

/* Records held; a test reads after each call, but a loader's start-up
 * (one clIcdGetFunctionAddressForPlatformKHR per entry point and platform)
 * should fit too. */
#define JOURNAL_SIZE 512u

static cl_call_record_refcl ring[JOURNAL_SIZE];
static cl_ulong last_sequence; /* of the newest record, 0 before any */
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

/* The result clSetNextResultREFCL armed: `armed` lets calls skip the lock
 * while nothing is armed, which is nearly always. */
static atomic_bool armed;
static char armed_function[CL_CALL_RECORD_FUNCTION_SIZE_REFCL];
static cl_ulong armed_result;
static cl_int armed_errcode;
static pthread_mutex_t armed_lock = PTHREAD_MUTEX_INITIALIZER;

bool refcl_journaling(void)
{
    return refcl_config()->journal;
}

/* The @p size (at most 8) bytes at @p value in the low-order bytes of a
 * zeroed cl_ulong, as cl_call_record_refcl describes. */
static cl_ulong bits_of(const void *value, size_t size)
{
    cl_ulong bits = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy((char *)&bits + sizeof(bits) - size, value, size);
#else
    memcpy(&bits, value, size);
#endif
    return bits;
}

/* 64-bit FNV-1a, as documented for cl_call_record_refcl::outputs. */
static cl_ulong fnv1a(const void *data, size_t size)
{
    cl_ulong hash = 0xcbf29ce484222325u;
    for (const unsigned char *p = data; size--; p++)
        hash = (hash ^ *p) * 0x100000001b3u;
    return hash;
}

void refcl_journal_begin(struct refcl_journal_call *call, int slot,
                         const char *function, unsigned num_args)
{
    memset(call, 0, sizeof(*call));
    call->record.slot = slot;
    call->record.num_args = num_args;
    strncpy(call->record.function, function,
            sizeof(call->record.function) - 1);
}

void refcl_journal_arg(struct refcl_journal_call *call, unsigned index,
                       const void *value, size_t size)
{
    call->record.args[index] = bits_of(value, size);
}

void refcl_journal_handle(struct refcl_journal_call *call,
                          enum refcl_type type, const void *handle)
{
    if (!call->record.platform && refcl_object_valid(handle, type))
        call->record.platform =
            ((const struct refcl_object *)handle)->platform;
}

void refcl_journal_handles(struct refcl_journal_call *call,
                           enum refcl_type type, const void *list,
                           cl_uint count)
{
    const void *first;
    if (!list || count == 0)
        return;
    memcpy(&first, list, sizeof(first));
    refcl_journal_handle(call, type, first);
}

/* Property lists end with 0; an unterminated one is read no further than
 * this many entries. */
#define PROPERTIES_MAX 64

void refcl_journal_properties(struct refcl_journal_call *call,
                              const cl_context_properties *properties)
{
    for (size_t i = 0; properties && i + 1 < PROPERTIES_MAX &&
                       properties[i] != 0;
         i += 2)
        if (properties[i] == CL_CONTEXT_PLATFORM)
            refcl_journal_handle(call, REFCL_PLATFORM,
                                 (const void *)properties[i + 1]);
}

bool refcl_journal_forced(struct refcl_journal_call *call)
{
    if (!atomic_load_explicit(&armed, memory_order_acquire))
        return false;
    pthread_mutex_lock(&armed_lock);
    if (atomic_load_explicit(&armed, memory_order_relaxed) &&
        strcmp(armed_function, call->record.function) == 0) {
        call->forced = true;
        call->forced_result = armed_result;
        call->forced_errcode = armed_errcode;
        call->record.flags |= CL_CALL_RECORD_FORCED_REFCL;
        atomic_store_explicit(&armed, false, memory_order_relaxed);
    }
    pthread_mutex_unlock(&armed_lock);
    return call->forced;
}

/* Bytes 0x40-0x7F, varied by output and position: never what a test fills
 * its buffers with beforehand (0xEE for refcl-loader-check), never 0. */
void refcl_journal_fill(struct refcl_journal_call *call, void *out,
                        size_t size)
{
    unsigned char *bytes = out;
    unsigned seed = 7u * ++call->fills;
    for (size_t i = 0; bytes && i < size; i++)
        bytes[i] = (unsigned char)(0x40u | ((seed + i) & 0x3Fu));
}

void refcl_journal_fill_errcode(struct refcl_journal_call *call,
                                cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = call->forced_errcode;
}

void refcl_journal_forced_result(struct refcl_journal_call *call,
                                 void *result, size_t size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(result, (const char *)&call->forced_result + 8 - size, size);
#else
    memcpy(result, &call->forced_result, size);
#endif
}

void refcl_journal_output(struct refcl_journal_call *call, unsigned index,
                          const void *out, size_t size)
{
    if (!out || size == 0)
        return;
    call->record.output_sizes[index] = size;
    call->record.outputs[index] =
        size <= sizeof(cl_ulong) ? bits_of(out, size) : fnv1a(out, size);
}

void refcl_journal_end(struct refcl_journal_call *call, const void *result,
                       size_t size)
{
    if (result)
        call->record.result = bits_of(result, size);
    pthread_mutex_lock(&ring_lock);
    call->record.sequence = ++last_sequence;
    ring[last_sequence % JOURNAL_SIZE] = call->record;
    pthread_mutex_unlock(&ring_lock);
}

/* ---- cl_refcl_call_journal ---- */

cl_int CL_API_CALL refcl_clGetCallJournalREFCL(cl_platform_id platform,
                                               cl_ulong after_sequence,
                                               cl_uint num_entries,
                                               cl_call_record_refcl *records,
                                               cl_uint *num_records_ret)
{
    if (!refcl_object_valid(platform, REFCL_PLATFORM))
        return CL_INVALID_PLATFORM;
    if ((num_entries == 0 && records) || (!records && !num_records_ret))
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&ring_lock);
    cl_ulong oldest =
        last_sequence >= JOURNAL_SIZE ? last_sequence - JOURNAL_SIZE + 1 : 1;
    cl_ulong first = after_sequence + 1 > oldest ? after_sequence + 1 : oldest;
    cl_uint held = last_sequence >= first
                       ? (cl_uint)(last_sequence - first + 1)
                       : 0;
    for (cl_uint i = 0; records && i < held && i < num_entries; i++)
        records[i] = ring[(first + i) % JOURNAL_SIZE];
    pthread_mutex_unlock(&ring_lock);
    if (num_records_ret)
        *num_records_ret = held;
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clSetNextResultREFCL(cl_platform_id platform,
                                              const char *function_name,
                                              cl_ulong next_result,
                                              cl_int next_errcode)
{
    if (!refcl_object_valid(platform, REFCL_PLATFORM))
        return CL_INVALID_PLATFORM;
    if (function_name && !refcl_function_journaled(function_name))
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&armed_lock);
    if (function_name) {
        strncpy(armed_function, function_name, sizeof(armed_function) - 1);
        armed_result = next_result;
        armed_errcode = next_errcode;
    }
    atomic_store_explicit(&armed, function_name != NULL,
                          memory_order_release);
    pthread_mutex_unlock(&armed_lock);
    return CL_SUCCESS;
}

cl_int CL_API_CALL refcl_clEnqueueMarkerREFCL(
    cl_command_queue command_queue, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    return refcl_clEnqueueMarkerWithWaitList(
        command_queue, num_events_in_wait_list, event_wait_list, event);
}

#include "journal_wrappers.inc"
