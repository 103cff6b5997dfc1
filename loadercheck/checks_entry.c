/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The checks made for every entry point: a real call (route), a call
 * whose result refcl is told to give (forced), both with every argument,
 * result and output compared with refcl's journal; and a call with a NULL
 * handle to dispatch on, which the loader must answer itself (null).
 */
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "checks.h"

static struct call call;

/* Entry points no call reaches a vendor through: the loader answers them
 * itself (cl_khr_icd: no object to dispatch on). */
bool entry_loader_answers(const struct entry *entry)
{
    return entry_dispatch_param(entry) < 0;
}

/* Calls vendor @p v's own slot of @p name with @p args (no loader). */
static void vendor_direct(struct session *session, int v, const char *name,
                          const cl_ulong *args)
{
    const struct entry *entry = entry_named(name);
    void *const *table = (void *const *)vendor_table(&session->vendors[v]);
    if (entry && entry->slot >= 0)
        entry->invoke(table[entry->slot], args);
}

/* Retains and releases are made on the vendor's own objects: a real
 * clRelease<Object> is balanced by a retain made beforehand through the
 * vendor's own table, a real clRetain<Object> by a release afterwards. */
static void balance(struct session *session, const struct call *made,
                    bool before)
{
    const char *name = made->entry->name;
    char twin[64];
    bool release = !strncmp(name, "clRelease", 9);
    if (!release && strncmp(name, "clRetain", 8))
        return;
    if (release != before)
        return;
    snprintf(twin, sizeof(twin), "%s%s", release ? "clRetain" : "clRelease",
             name + (release ? 9 : 8));
    vendor_direct(session, made->vendor, twin, made->args);
}

/* Whether vendor @p v can be called at all for @p entry: listed by the
 * loader, has an object to dispatch on, and the loader offers the
 * function. */
static void *routable(struct session *session, const struct check *check,
                      struct outcome *outcome)
{
    int v = check->vendor;
    const struct entry *entry = check->entry;
    if (!vendor_usable(session, v)) {
        outcome_set(outcome, STATUS_FAIL,
                    "vendor %s is not listed by the loader",
                    session->vendors[v].spec->tag);
        return NULL;
    }
    enum object_type type = entry_dispatch_object(entry);
    const struct fixture *fixture = &session->vendors[v].fixture;
    if (!fixture->objects[type]) {
        outcome_set(outcome, STATUS_SKIP,
                    "not checked: no %s can be created by this refcl (%s)",
                    object_type_name(type), fixture->missing[type]);
        return NULL;
    }
    void *function = loader_function(session, v, entry->name);
    if (!function)
        outcome_set(outcome, STATUS_FAIL,
                    "the loader offers no %s: not exported, and "
                    "clGetExtensionFunctionAddressForPlatform returns NULL",
                    entry->name);
    return function;
}

/* Each call's first result, as the application saw it: the codes (at
 * most four names), or the count of objects and pointers returned. */
struct results {
    cl_int codes[4];
    int code_count;
    int calls;
};

static void results_add(struct results *results, const struct call *made)
{
    results->calls++;
    if (made->entry->result != RESULT_CODE)
        return;
    cl_int code = (cl_int)(cl_uint)made->result;
    for (int i = 0; i < results->code_count; i++)
        if (results->codes[i] == code)
            return;
    if (results->code_count < 4)
        results->codes[results->code_count++] = code;
}

static void describe_ok(const struct results *results,
                        const struct call *made,
                        const struct session *session,
                        struct outcome *outcome)
{
    outcome_set(outcome, STATUS_OK,
                "%d call%s reached vendor %s, every argument, result and "
                "output as refcl received and gave them",
                results->calls, results->calls == 1 ? "" : "s",
                session->vendors[made->vendor].spec->tag);
    for (int i = 0; i < results->code_count; i++)
        outcome_append(outcome, "%s%s", i ? ", " : " (results ",
                       code_name(results->codes[i]));
    if (results->code_count)
        outcome_append(outcome, ")");
}

/* Waits, through the vendor's own table, for what a real call enqueued:
 * the next call reuses its buffers. */
static void vendor_finish(struct session *session, int v)
{
    cl_ulong args[1] = {(cl_ulong)(uintptr_t)
                            session->vendors[v].fixture.objects[OBJ_QUEUE]};
    if (args[0])
        vendor_direct(session, v, "clFinish", args);
}

/* One call of the check: made, compared, and (real) balanced and its
 * objects released. */
static void one_call(struct session *session, const struct check *check,
                     void *function, struct outcome *outcome)
{
    int v = check->vendor;
    bool real = call.pass == PASS_REAL;
    if (real)
        balance(session, &call, true);
    call_invoke(&call, session, function);
    call_compare(&call, session, v, session->vendors[v].platforms[0],
                 outcome);
    if (!real)
        return;
    balance(session, &call, false);
    call_release_created(&call, session, v, outcome);
    vendor_finish(session, v);
}

/* A failure names the call and the values that made it. */
static void name_failed_call(int count, struct outcome *outcome)
{
    char values[320], detail[640];
    call_describe(&call, values, sizeof(values));
    snprintf(detail, sizeof(detail), "%.600s", outcome->detail);
    outcome_set(outcome, STATUS_FAIL, "call %d of %d%s%s%s: %s",
                call.number + 1, count, values[0] ? " (" : "", values,
                values[0] ? ")" : "", detail);
}

/* Every call of the check (call_count), stopping at the first failure. */
static void run_calls(struct session *session, const struct check *check,
                      enum pass pass, struct outcome *outcome)
{
    void *function = routable(session, check, outcome);
    if (!function)
        return;
    int v = check->vendor;
    int count = call_count(check->entry, pass,
                           session->vendors[v].fixture.kernel_args);
    struct random random;
    random_start(&random, session->seed, check->id);
    struct results results = {.calls = 0};
    for (int number = 0; number < count; number++) {
        call_prepare(&call, session, check->entry, v, pass, number,
                     &random);
        one_call(session, check, function, outcome);
        if (outcome->status == STATUS_FAIL) {
            name_failed_call(count, outcome);
            return;
        }
        results_add(&results, &call);
    }
    describe_ok(&results, &call, session, outcome);
}

void check_route(struct session *session, const struct check *check,
                 struct outcome *outcome)
{
    run_calls(session, check, PASS_REAL, outcome);
}

void check_forced(struct session *session, const struct check *check,
                  struct outcome *outcome)
{
    run_calls(session, check, PASS_FORCED, outcome);
}

/* ---- NULL handles ---- */

static cl_int invalid_code(enum object_type type)
{
    static const cl_int codes[OBJ_COUNT] = {
        CL_INVALID_PLATFORM,      CL_INVALID_DEVICE,  CL_INVALID_CONTEXT,
        CL_INVALID_COMMAND_QUEUE, CL_INVALID_MEM_OBJECT, CL_INVALID_PROGRAM,
        CL_INVALID_KERNEL,        CL_INVALID_EVENT,   CL_INVALID_SAMPLER,
    };
    return codes[type];
}

/* What the application got for errcode_ret, if the function has one. */
static bool errcode_of(const struct call *made, cl_int *errcode)
{
    for (int i = 0; i < made->entry->num_params; i++)
        if (made->entry->params[i].kind == OUT_ERRCODE) {
            memcpy(errcode, made->outputs[i], sizeof(*errcode));
            return true;
        }
    return false;
}

static void null_verdict(const struct call *made, cl_int expected,
                         struct outcome *outcome)
{
    const struct entry *entry = made->entry;
    cl_int errcode = 0;
    bool has_errcode = errcode_of(made, &errcode);
    if (entry->result == RESULT_CODE) {
        cl_int got = (cl_int)(cl_uint)made->result;
        if (got != expected)
            outcome_fail(outcome, "expected %s, received %s",
                         code_name(expected), code_name(got));
    } else if (entry->result != RESULT_VOID) {
        if (made->result)
            outcome_fail(outcome, "expected NULL, received %#llx",
                         (unsigned long long)made->result);
        if (has_errcode && errcode != expected)
            outcome_fail(outcome, "%serrcode_ret: expected %s, received %s",
                         made->result ? "; " : "", code_name(expected),
                         code_name(errcode));
    }
}

/* Which vendor the loader passed the NULL-handle call to, and with what in
 * place of the NULL. */
static void null_reached(const struct call *made,
                         const struct session *session,
                         struct outcome *outcome)
{
    int dispatch = entry_dispatch_param(made->entry);
    for (int v = 0; v < session->scenario->vendor_count; v++) {
        const cl_call_record_refcl *record =
            call_record(made, v, made->entry->name);
        if (!record)
            continue;
        cl_ulong passed = record->args[dispatch];
        int owner = vendor_of_platform(session,
                                       (cl_platform_id)(uintptr_t)passed);
        outcome_fail(outcome, "; the loader passed the call to vendor %s, "
                              "%s %#llx%s",
                     session->vendors[v].spec->tag,
                     made->entry->params[dispatch].name,
                     (unsigned long long)passed,
                     owner == v ? " (its platform: the loader's default)"
                                : "");
        return;
    }
}

void check_null(struct session *session, const struct check *check,
                struct outcome *outcome)
{
    const struct entry *entry = check->entry;
    int v = check->vendor;
    if (!vendor_usable(session, v)) {
        outcome_set(outcome, STATUS_FAIL, "vendor %s is not listed",
                    session->vendors[v].spec->tag);
        return;
    }
    void *function = loader_function(session, v, entry->name);
    if (!function) {
        outcome_set(outcome, STATUS_FAIL, "the loader offers no %s",
                    entry->name);
        return;
    }
    enum object_type type = entry_dispatch_object(entry);
    cl_int expected = invalid_code(type);
    call_prepare(&call, session, entry, v, PASS_NULL, 0, NULL);
    call_invoke(&call, session, function);
    null_verdict(&call, expected, outcome);
    if (outcome->status == STATUS_FAIL)
        null_reached(&call, session, outcome);
    if (outcome->status == STATUS_OK) {
        int owner = vendor_of_address(session, function);
        outcome_set(outcome, STATUS_OK, "%s%s",
                    entry->result == RESULT_VOID ? "no crash"
                    : entry->result == RESULT_CODE ? code_name(expected)
                    : "NULL",
                    owner >= 0 ? " (answered by the vendor: the loader "
                                 "hands out the vendor's own function)"
                               : "");
    }
}
