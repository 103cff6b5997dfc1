/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Calling an entry point through the loader and comparing what the
 * application saw with what refcl's journal says it received and answered
 * (the arguments are built in args.c).
 */
#include <stdio.h>
#include <string.h>

#include "call.h"

/* Failure details name at most this many differences. */
#define DIFFERENCES_SHOWN 3

void call_invoke(struct call *call, struct session *session, void *function)
{
    struct vendor *vendor = &session->vendors[call->vendor];
    journals_drain(session);
    if (call->pass == PASS_FORCED && vendor->force)
        vendor->force(vendor->platforms[0], call->entry->name,
                      call->forced_result, call->forced_errcode);
    call->result = call->entry->invoke(function, call->args);
    for (int v = 0; v < session->scenario->vendor_count; v++)
        call->record_count[v] =
            journal_read(&session->vendors[v], call->records[v], MAX_RECORDS);
    /* A forced result the call did not use must not fire later. */
    if (call->pass == PASS_FORCED && vendor->force)
        vendor->force(vendor->platforms[0], NULL, 0, 0);
}

const cl_call_record_refcl *call_record(const struct call *call, int v,
                                        const char *name)
{
    cl_uint count = call->record_count[v] < MAX_RECORDS
                        ? call->record_count[v]
                        : MAX_RECORDS;
    for (cl_uint i = 0; i < count; i++)
        if (!strcmp(call->records[v][i].function, name))
            return &call->records[v][i];
    return NULL;
}

const char *call_destination(const struct call *call,
                             const struct session *session, char *text,
                             size_t size)
{
    size_t length = 0;
    text[0] = '\0';
    for (int v = 0; v < session->scenario->vendor_count; v++) {
        cl_uint count = call->record_count[v] < MAX_RECORDS
                            ? call->record_count[v]
                            : MAX_RECORDS;
        for (cl_uint i = 0; i < count && length < size; i++)
            length += (size_t)snprintf(
                text + length, size - length, "%s%s on vendor %s",
                length ? ", " : "", call->records[v][i].function,
                session->vendors[v].spec->tag);
    }
    if (!text[0])
        snprintf(text, size, "no vendor received a call");
    return text;
}

/* The bytes of an output the way the journal reports them: up to 8 as
 * they are, more as their FNV-1a hash. */
static cl_ulong output_bits(const void *out, size_t size)
{
    if (size <= sizeof(cl_ulong))
        return value_bits(out, size);
    cl_ulong hash = 0xcbf29ce484222325u;
    for (const unsigned char *p = out; size--; p++)
        hash = (hash ^ *p) * 0x100000001b3u;
    return hash;
}

/* Width of argument @p param as the callee receives it. */
static size_t argument_size(const struct param *param)
{
    return param->kind == ARG_SCALAR ? param->size : sizeof(void *);
}

static cl_ulong truncate_bits(cl_ulong bits, size_t size)
{
    return size >= sizeof(cl_ulong) ? bits
                                    : bits & ((1ull << (8 * size)) - 1);
}

static void compare_arguments(const struct call *call,
                              const cl_call_record_refcl *record,
                              struct outcome *outcome, int *shown)
{
    const struct entry *entry = call->entry;
    if ((int)record->num_args != entry->num_params) {
        outcome_fail(outcome, "refcl saw %u arguments, not %d; ",
                     record->num_args, entry->num_params);
        return;
    }
    for (int i = 0; i < entry->num_params; i++) {
        cl_ulong sent = truncate_bits(call->args[i],
                                      argument_size(&entry->params[i]));
        if (record->args[i] != sent && (*shown)++ < DIFFERENCES_SHOWN)
            outcome_fail(outcome,
                         "argument %d (%s): sent 0x%llx, refcl received "
                         "0x%llx; ",
                         i, entry->params[i].name, (unsigned long long)sent,
                         (unsigned long long)record->args[i]);
    }
}

static void compare_outputs(const struct call *call,
                            const cl_call_record_refcl *record,
                            struct outcome *outcome, int *shown)
{
    const struct entry *entry = call->entry;
    for (int i = 0; i < entry->num_params; i++) {
        size_t size = (size_t)record->output_sizes[i];
        if (!arg_is_output(entry->params[i].kind) || size == 0 ||
            record->args[i] != (cl_ulong)(uintptr_t)call->outputs[i])
            continue; /* not ours: already reported as an argument */
        if (size > OUTPUT_BYTES) {
            outcome_fail(outcome, "output %s: refcl wrote %zu bytes, the "
                                  "checker passed %d; ",
                         entry->params[i].name, size, OUTPUT_BYTES);
            continue;
        }
        cl_ulong seen = output_bits(call->outputs[i], size);
        if (seen != record->outputs[i] && (*shown)++ < DIFFERENCES_SHOWN)
            outcome_fail(outcome,
                         "output %s: refcl left 0x%llx, the application "
                         "got 0x%llx; ",
                         entry->params[i].name,
                         (unsigned long long)record->outputs[i],
                         (unsigned long long)seen);
    }
}

/* The record of this call on vendor @p v, or why there is none. */
static const cl_call_record_refcl *
find_record(const struct call *call, const struct session *session, int v,
            struct outcome *outcome)
{
    const cl_call_record_refcl *record =
        call_record(call, v, call->entry->name);
    if (record)
        return record;
    char where[512];
    call_destination(call, session, where, sizeof(where));
    outcome_fail(outcome,
                 "%s did not reach vendor %s (%s); the loader returned "
                 "0x%llx",
                 call->entry->name, session->vendors[v].spec->tag, where,
                 (unsigned long long)call->result);
    return NULL;
}

void call_compare(const struct call *call, const struct session *session,
                  int v, cl_platform_id platform, struct outcome *outcome)
{
    const cl_call_record_refcl *record =
        find_record(call, session, v, outcome);
    if (!record)
        return;
    int shown = 0;
    if (record->slot != call->entry->slot)
        outcome_fail(outcome, "refcl recorded slot %d, expected %d; ",
                     record->slot, call->entry->slot);
    if (platform && record->platform != platform)
        outcome_fail(outcome, "reached platform %p of vendor %s, expected "
                              "%p; ",
                     (void *)record->platform, session->vendors[v].spec->tag,
                     (void *)platform);
    bool forced = record->flags & CL_CALL_RECORD_FORCED_REFCL;
    if (forced != (call->pass == PASS_FORCED))
        outcome_fail(outcome, "refcl %s the forced result; ",
                     forced ? "unexpectedly used" : "did not use");
    compare_arguments(call, record, outcome, &shown);
    cl_ulong result =
        truncate_bits(call->result, call->entry->result == RESULT_CODE
                                        ? sizeof(cl_int)
                                        : sizeof(void *));
    if (call->entry->result != RESULT_VOID && record->result != result)
        outcome_fail(outcome, "result: refcl returned 0x%llx, the "
                              "application got 0x%llx; ",
                     (unsigned long long)record->result,
                     (unsigned long long)result);
    compare_outputs(call, record, outcome, &shown);
    if (shown > DIFFERENCES_SHOWN)
        outcome_append(outcome, "(%d more differences)",
                       shown - DIFFERENCES_SHOWN);
}

/* ---- releasing what a real call made ---- */

static const char *const release_functions[OBJ_COUNT] = {
    [OBJ_DEVICE] = "clReleaseDevice",
    [OBJ_CONTEXT] = "clReleaseContext",
    [OBJ_QUEUE] = "clReleaseCommandQueue",
    [OBJ_MEM] = "clReleaseMemObject",
    [OBJ_PROGRAM] = "clReleaseProgram",
    [OBJ_KERNEL] = "clReleaseKernel",
    [OBJ_EVENT] = "clReleaseEvent",
    [OBJ_SAMPLER] = "clReleaseSampler",
};

/* Releases @p object through the loader; the release must reach vendor
 * @p v with it. */
static void release_routed(struct session *session, int v,
                           enum object_type type, void *object,
                           struct outcome *outcome)
{
    static struct call release;
    const struct entry *entry = entry_named(release_functions[type]);
    void *function = loader_symbol(session, entry->name);
    if (!function)
        return;
    release.entry = entry;
    release.pass = PASS_REAL;
    release.vendor = v;
    release.args[0] = (cl_ulong)(uintptr_t)object;
    call_invoke(&release, session, function);
    struct outcome routed = {STATUS_OK, ""};
    call_compare(&release, session, v, NULL, &routed);
    if (routed.status == STATUS_FAIL)
        outcome_fail(outcome, "the %s it made was not routed back: %s",
                     object_type_name(type), routed.detail);
}

/* Handles a successful call wrote: its result, or its handle outputs up
 * to the sentinel the checker filled them with. */
void call_release_created(struct call *call, struct session *session, int v,
                          struct outcome *outcome)
{
    const struct entry *entry = call->entry;
    void *objects[8];
    enum object_type types[8];
    int count = 0;
    if (entry->result == RESULT_HANDLE && call->result) {
        types[count] = entry->result_object;
        objects[count++] = (void *)(uintptr_t)call->result;
    }
    if (entry->result == RESULT_CODE && call->result != CL_SUCCESS)
        return;
    for (int i = 0; i < entry->num_params; i++) {
        const struct param *param = &entry->params[i];
        if (param->kind != OUT_HANDLE && param->kind != OUT_HANDLE_LIST)
            continue;
        void *const *handles = (void *const *)call->outputs[i];
        int n = param->kind == OUT_HANDLE ? 1 : 4;
        for (int h = 0; h < n && count < 8; h++) {
            void *handle = handles[h];
            unsigned char sentinel[sizeof(void *)];
            memset(sentinel, 0xEE, sizeof(sentinel));
            if (!handle || !memcmp(&handle, sentinel, sizeof(handle)))
                break;
            types[count] = param->object;
            objects[count++] = handle;
        }
    }
    /* The journal of the call is read; the releases read their own. */
    for (int i = 0; i < count; i++)
        if (types[i] != OBJ_PLATFORM)
            release_routed(session, v, types[i], objects[i], outcome);
}
