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

/* ---- values as a developer reads them ---- */

static bool all_bytes(cl_ulong bits, size_t size, unsigned char byte)
{
    for (size_t i = 0; i < size && i < sizeof(bits); i++)
        if (((bits >> (8 * i)) & 0xFF) != byte)
            return false;
    return size > 0;
}

/* Bytes of refcl's forced fill (refcl_journal_fill): each 0x40-0x7F,
 * each one more than the one before it, modulo 64. */
static bool forced_fill(cl_ulong bits, size_t size)
{
    if (size < 2)
        return false;
    for (size_t i = 0; i < size && i < sizeof(bits); i++) {
        unsigned byte = (unsigned)(bits >> (8 * i)) & 0xFF;
        unsigned before = (unsigned)(bits >> (8 * i - 8 * (i > 0))) & 0xFF;
        if ((byte & 0xC0) != 0x40 ||
            (i > 0 && (byte & 0x3F) != ((before + 1) & 0x3F)))
            return false;
    }
    return true;
}

/* What a value is, when it is one of the checker's or refcl's sentinels. */
static const char *sentinel_meaning(const struct call *call, cl_ulong bits,
                                    size_t size)
{
    cl_int code = (cl_int)(cl_uint)bits;
    if (all_bytes(bits, size, CHECKER_FILL))
        return " (the checker's 0xEE fill: nothing wrote it)";
    if (call->pass == PASS_FORCED && forced_fill(bits, size))
        return " (refcl's forced fill, bytes 0x40-0x7F)";
    if (call->pass == PASS_FORCED && size == sizeof(cl_int) &&
        code == call->forced_errcode)
        return " (the errcode_ret refcl was told to give)";
    if (call->pass == PASS_FORCED && size == sizeof(cl_int) &&
        code == (cl_int)(cl_uint)call->forced_result)
        return " (the result refcl was told to give)";
    return "";
}

/* An error code: "CL_INVALID_VALUE (-30)", or the number and what it is. */
static const char *code_text(const struct call *call, cl_ulong bits,
                             char *text, size_t size)
{
    (void)call;
    cl_int code = (cl_int)(cl_uint)bits;
    const char *name = code_name(code);
    if (name[0] == 'C')
        snprintf(text, size, "%s (%d)", name, code);
    else
        snprintf(text, size, "%s", name);
    return text;
}

/* A scalar in decimal (and hex above 9), a pointer in hex. */
static const char *value_text(const struct call *call, cl_ulong bits,
                              size_t size, bool pointer, char *text,
                              size_t text_size)
{
    if (pointer || bits > 0xFFFFFFFFu)
        snprintf(text, text_size, "%#llx%s", (unsigned long long)bits,
                 sentinel_meaning(call, bits, size));
    else if (bits > 9)
        snprintf(text, text_size, "%llu (%#llx)%s", (unsigned long long)bits,
                 (unsigned long long)bits, sentinel_meaning(call, bits, size));
    else
        snprintf(text, text_size, "%llu", (unsigned long long)bits);
    return text;
}

void call_describe(const struct call *call, char *text, size_t size)
{
    size_t length = 0;
    text[0] = '\0';
    for (int i = 0; i < call->entry->num_params && length < size; i++) {
        const struct param *param = &call->entry->params[i];
        bool scalar = param->kind == ARG_SCALAR;
        if (!call->varies[i] || (!scalar && call->args[i] != 0 &&
                                 param->kind != ARG_HANDLE_LIST))
            continue;
        char value[64];
        if (param->kind == ARG_HANDLE_LIST)
            snprintf(value, sizeof(value), "%llu entries",
                     (unsigned long long)call->args[param->count]);
        else if (scalar)
            value_text(call, call->args[i], param->size, false, value,
                       sizeof(value));
        else
            snprintf(value, sizeof(value), "NULL");
        length += (size_t)snprintf(text + length, size - length, "%s%s=%s",
                                   length ? ", " : "", param->name, value);
    }
}

/* ---- the comparison ---- */

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
        const struct param *param = &entry->params[i];
        if (arg_is_output(param->kind))
            continue; /* what the application sees counts (outputs) */
        size_t size = argument_size(param);
        cl_ulong sent = values_truncate(call->args[i], size);
        char a[96], b[96];
        bool pointer = param->kind != ARG_SCALAR;
        if (record->args[i] != sent && (*shown)++ < DIFFERENCES_SHOWN)
            outcome_fail(outcome,
                         "argument %d (%s): sent %s, refcl received %s; ", i,
                         param->name,
                         value_text(call, sent, size, pointer, a, sizeof(a)),
                         value_text(call, record->args[i], size, pointer, b,
                                    sizeof(b)));
    }
}

/* The call did what it was asked (or refcl was told its result): refcl
 * wrote its outputs. */
static bool call_succeeded(const struct call *call,
                           const cl_call_record_refcl *record)
{
    if (record->flags & CL_CALL_RECORD_FORCED_REFCL)
        return true;
    if (call->entry->result == RESULT_CODE)
        return (cl_int)(cl_uint)record->result == CL_SUCCESS;
    return record->result != 0;
}

static void output_text(const struct call *call, const struct param *param,
                        cl_ulong bits, size_t size, char *text,
                        size_t text_size)
{
    if (param->kind == OUT_ERRCODE)
        code_text(call, bits, text, text_size);
    else if (size > sizeof(cl_ulong))
        snprintf(text, text_size, "bytes hashing to %#llx",
                 (unsigned long long)bits);
    else
        value_text(call, bits, size, param->kind == OUT_HANDLE, text,
                   text_size);
}

/* An output the application passed and refcl received NULL for: nothing
 * refcl answered can have reached the application. */
static void output_dropped(const struct call *call,
                           const cl_call_record_refcl *record, int i,
                           struct outcome *outcome)
{
    const struct param *param = &call->entry->params[i];
    if (param->kind != OUT_ERRCODE && !call_succeeded(call, record))
        return; /* refcl would not have written it */
    size_t size = param->kind == OUT_BYTES ? sizeof(cl_ulong)
                  : param->size < sizeof(cl_ulong) ? param->size
                                                   : sizeof(cl_ulong);
    char seen[128];
    output_text(call, param, value_bits(call->outputs[i], size), size, seen,
                sizeof(seen));
    outcome_fail(outcome,
                 "output %s: the application passed a pointer, refcl "
                 "received NULL; the application's %s holds %s; ",
                 param->name, param->name, seen);
}

/* Every output the application passed must hold what refcl left in the
 * one it received, whatever its address (a loader may pass its own and
 * copy the value back). */
static void compare_outputs(const struct call *call,
                            const cl_call_record_refcl *record,
                            struct outcome *outcome, int *shown)
{
    const struct entry *entry = call->entry;
    for (int i = 0; i < entry->num_params; i++) {
        const struct param *param = &entry->params[i];
        size_t size = (size_t)record->output_sizes[i];
        if (!arg_is_output(param->kind) || call->args[i] == 0)
            continue; /* the application asked for nothing */
        if (record->args[i] == 0) {
            if ((*shown)++ < DIFFERENCES_SHOWN)
                output_dropped(call, record, i, outcome);
            continue;
        }
        if (size == 0)
            continue; /* refcl wrote nothing (the call failed) */
        if (size > OUTPUT_BYTES) {
            outcome_fail(outcome, "output %s: refcl wrote %zu bytes, the "
                                  "checker passed %d; ",
                         param->name, size, OUTPUT_BYTES);
            continue;
        }
        cl_ulong seen = output_bits(call->outputs[i], size);
        if (seen == record->outputs[i] || (*shown)++ >= DIFFERENCES_SHOWN)
            continue;
        char left[128], got[128];
        output_text(call, param, record->outputs[i], size, left,
                    sizeof(left));
        output_text(call, param, seen, size, got, sizeof(got));
        outcome_fail(outcome, "output %s: refcl left %s, the application "
                              "got %s; ",
                     param->name, left, got);
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
    char where[512], result[96];
    call_destination(call, session, where, sizeof(where));
    if (call->entry->result == RESULT_CODE)
        code_text(call, call->result, result, sizeof(result));
    else
        snprintf(result, sizeof(result), "%#llx",
                 (unsigned long long)call->result);
    outcome_fail(outcome,
                 "%s did not reach vendor %s (%s); the loader returned %s",
                 call->entry->name, session->vendors[v].spec->tag, where,
                 result);
    return NULL;
}

static void compare_result(const struct call *call,
                           const cl_call_record_refcl *record,
                           struct outcome *outcome)
{
    const struct entry *entry = call->entry;
    bool code = entry->result == RESULT_CODE;
    cl_ulong result = values_truncate(call->result, code ? sizeof(cl_int)
                                                         : sizeof(void *));
    if (entry->result == RESULT_VOID || record->result == result)
        return;
    char a[96], b[96];
    if (code)
        outcome_fail(outcome, "result: refcl returned %s, the application "
                              "got %s; ",
                     code_text(call, record->result, a, sizeof(a)),
                     code_text(call, result, b, sizeof(b)));
    else
        outcome_fail(outcome, "result: refcl returned %#llx, the "
                              "application got %#llx; ",
                     (unsigned long long)record->result,
                     (unsigned long long)result);
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
    compare_result(call, record, outcome);
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
    struct outcome routed = {STATUS_OK, 0, ""};
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
        if (call->args[i] == 0)
            continue; /* the application passed NULL */
        void *const *handles = (void *const *)call->outputs[i];
        int n = param->kind == OUT_HANDLE ? 1 : 4;
        for (int h = 0; h < n && count < 8; h++) {
            void *handle = handles[h];
            unsigned char sentinel[sizeof(void *)];
            memset(sentinel, CHECKER_FILL, sizeof(sentinel));
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
