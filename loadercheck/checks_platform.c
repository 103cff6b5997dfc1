/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a loader answers itself: platform enumeration and its argument
 * errors, extension function lookup (routed by vendor suffix, or by
 * platform), and calls with no platform to dispatch on, where the
 * specification lets the loader choose (a NULL platform, properties
 * without CL_CONTEXT_PLATFORM) but what it chooses must then be passed on
 * faithfully.
 */
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "checks.h"

static struct call call;

typedef cl_int CL_API_CALL get_platforms_fn(cl_uint, cl_platform_id *,
                                             cl_uint *);
typedef void *CL_API_CALL lookup_fn(const char *);

static get_platforms_fn *loader_get_platforms(const struct session *session)
{
    return (get_platforms_fn *)(uintptr_t)loader_symbol(session,
                                                         "clGetPlatformIDs");
}

/* ---- enumeration ---- */

void check_platforms_listed(struct session *session, const struct check *check,
                            struct outcome *outcome)
{
    (void)check;
    if (session->listed_status != CL_SUCCESS) {
        outcome_set(outcome, STATUS_FAIL, "clGetPlatformIDs returned %s",
                    code_name(session->listed_status));
        return;
    }
    cl_uint expected = 0;
    char names[256] = "";
    size_t length = 0;
    for (int v = 0; v < session->scenario->vendor_count; v++) {
        const struct vendor *vendor = &session->vendors[v];
        expected += vendor->platform_count;
        for (cl_uint p = 0; p < vendor->platform_count; p++) {
            length += (size_t)snprintf(names + length, sizeof(names) - length,
                                       "%s%s%s", length ? ", " : "",
                                       vendor->spec->tag,
                                       vendor->platform_count > 1
                                           ? (p ? "1" : "0")
                                           : "");
            if (!vendor->listed[p])
                outcome_fail(outcome, "platform %u of vendor %s is not "
                                      "listed; ",
                             p, vendor->spec->tag);
        }
    }
    for (cl_uint i = 0; i < session->listed_count; i++)
        if (vendor_of_platform(session, session->listed[i]) < 0)
            outcome_fail(outcome, "lists %p, which no vendor made; ",
                         (void *)session->listed[i]);
    if (session->listed_count != expected)
        outcome_fail(outcome, "expected %u platforms, received %u", expected,
                     session->listed_count);
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK, "%u platforms, each once: %s",
                    expected, names);
}

void check_platforms_none(struct session *session, const struct check *check,
                          struct outcome *outcome)
{
    (void)check;
    get_platforms_fn *get = loader_get_platforms(session);
    cl_uint count = 77;
    cl_platform_id platform = NULL;
    cl_int counted = get(0, NULL, &count);
    cl_int listed = get(1, &platform, NULL);
    /* cl_khr_icd: CL_PLATFORM_NOT_FOUND_KHR "if zero platforms are
     * available". */
    if (counted != CL_PLATFORM_NOT_FOUND_KHR)
        outcome_fail(outcome, "clGetPlatformIDs(0, NULL, &n): expected "
                              "CL_PLATFORM_NOT_FOUND_KHR, received %s; ",
                     code_name(counted));
    if (listed != CL_PLATFORM_NOT_FOUND_KHR)
        outcome_fail(outcome, "clGetPlatformIDs(1, &p, NULL): expected "
                              "CL_PLATFORM_NOT_FOUND_KHR, received %s",
                     code_name(listed));
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "CL_PLATFORM_NOT_FOUND_KHR, n %s",
                    count == 0 ? "set to 0" : count == 77 ? "left alone"
                                                          : "set, not to 0");
}

void check_platforms_bad_arguments(struct session *session,
                                   const struct check *check,
                                   struct outcome *outcome)
{
    (void)check;
    get_platforms_fn *get = loader_get_platforms(session);
    cl_platform_id platform = NULL;
    cl_uint count = 0;
    /* CL_INVALID_VALUE "if num_entries is equal to zero and platforms is
     * not NULL or if both num_platforms and platforms are NULL". */
    cl_int both_null = get(0, NULL, NULL);
    cl_int zero_entries = get(0, &platform, &count);
    if (both_null != CL_INVALID_VALUE)
        outcome_fail(outcome, "(0, NULL, NULL): expected CL_INVALID_VALUE, "
                              "received %s; ",
                     code_name(both_null));
    if (zero_entries != CL_INVALID_VALUE)
        outcome_fail(outcome, "(0, platforms, &n): expected "
                              "CL_INVALID_VALUE, received %s",
                     code_name(zero_entries));
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK, "CL_INVALID_VALUE for both");
}

void check_platforms_short_buffer(struct session *session,
                                  const struct check *check,
                                  struct outcome *outcome)
{
    (void)check;
    get_platforms_fn *get = loader_get_platforms(session);
    cl_platform_id platforms[4];
    memset(platforms, 0xEE, sizeof(platforms));
    cl_platform_id sentinel = platforms[1];
    cl_uint count = 0;
    cl_int err = get(1, platforms, &count);
    if (err != CL_SUCCESS)
        outcome_fail(outcome, "clGetPlatformIDs(1, p, &n) returned %s; ",
                     code_name(err));
    if (count != session->listed_count)
        outcome_fail(outcome, "n: expected %u, received %u; ",
                     session->listed_count, count);
    if (platforms[0] != session->listed[0])
        outcome_fail(outcome, "p[0]: expected %p, received %p; ",
                     (void *)session->listed[0], (void *)platforms[0]);
    if (platforms[1] != sentinel || platforms[2] != sentinel)
        outcome_fail(outcome, "wrote past num_entries (p[1] = %p)",
                     (void *)platforms[1]);
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK, "one platform written, n = %u",
                    count);
}

/* ---- extension functions ---- */

/* Where @p address leads: vendor @p v's journal reader, or not. */
static void judge_journal_reader(const struct session *session, int v,
                                 void *address, const char *asked,
                                 struct outcome *outcome)
{
    if (!address) {
        outcome_set(outcome, STATUS_FAIL, "%s: expected vendor %s's "
                                          "function, received NULL",
                    asked, session->vendors[v].spec->tag);
        return;
    }
    int owner = vendor_of_address(session, address);
    if (owner == v) {
        outcome_set(outcome, STATUS_OK, "%s: vendor %s's own function",
                    asked, session->vendors[v].spec->tag);
        return;
    }
    if (owner >= 0) {
        outcome_set(outcome, STATUS_FAIL, "%s: expected vendor %s's "
                                          "function, received vendor %s's",
                    asked, session->vendors[v].spec->tag,
                    session->vendors[owner].spec->tag);
        return;
    }
    /* A function of the loader's: it must lead to vendor v. */
    cl_uint held = 0;
    cl_int err = ((clGetCallJournalREFCL_fn)(uintptr_t)address)(
        session->vendors[v].platforms[0], 0, 0, NULL, &held);
    outcome_set(outcome, err == CL_SUCCESS ? STATUS_OK : STATUS_FAIL,
                "%s: a function of the loader's, which %s vendor %s (%s)",
                asked, err == CL_SUCCESS ? "reaches" : "does not reach",
                session->vendors[v].spec->tag, code_name(err));
}

void check_extension_by_suffix(struct session *session,
                               const struct check *check,
                               struct outcome *outcome)
{
    int v = check->vendor;
    lookup_fn *lookup = (lookup_fn *)(uintptr_t)loader_symbol(
        session, "clGetExtensionFunctionAddress");
    char name[64];
    snprintf(name, sizeof(name), "clGetCallJournal%s",
             session->vendors[v].spec->suffix);
    if (!vendor_usable(session, v)) {
        outcome_set(outcome, STATUS_FAIL, "vendor %s is not listed",
                    session->vendors[v].spec->tag);
        return;
    }
    char asked[128];
    snprintf(asked, sizeof(asked), "clGetExtensionFunctionAddress(\"%s\")",
             name);
    void *address = lookup(name);
    /* A name without a vendor suffix names no vendor: a loader may give a
     * vendor without suffix its functions, or give NULL. */
    if (!address && !session->vendors[v].spec->suffix[0]) {
        outcome_set(outcome, STATUS_OK,
                    "%s: NULL (the loader routes no name to a vendor "
                    "without suffix)",
                    asked);
        return;
    }
    judge_journal_reader(session, v, address, asked, outcome);
}

void check_extension_for_platform(struct session *session,
                                  const struct check *check,
                                  struct outcome *outcome)
{
    int v = check->vendor;
    if (!vendor_usable(session, v)) {
        outcome_set(outcome, STATUS_FAIL, "vendor %s is not listed",
                    session->vendors[v].spec->tag);
        return;
    }
    cl_api_clGetExtensionFunctionAddressForPlatform lookup = (void *)(uintptr_t)
        loader_symbol(session, "clGetExtensionFunctionAddressForPlatform");
    void *address =
        lookup(session->vendors[v].platforms[0], "clGetCallJournalREFCL");
    judge_journal_reader(
        session, v, address,
        "clGetExtensionFunctionAddressForPlatform(\"clGetCallJournalREFCL\")",
        outcome);
}

void check_extension_unknown(struct session *session,
                             const struct check *check,
                             struct outcome *outcome)
{
    (void)check;
    lookup_fn *lookup = (lookup_fn *)(uintptr_t)loader_symbol(
        session, "clGetExtensionFunctionAddress");
    cl_api_clGetExtensionFunctionAddressForPlatform for_platform =
        (void *)(uintptr_t)loader_symbol(
            session, "clGetExtensionFunctionAddressForPlatform");
    char suffixed[64];
    snprintf(suffixed, sizeof(suffixed), "clNoSuchFunction%s",
             session->vendors[0].spec->suffix);
    const char *names[] = {suffixed, "clNoSuchFunctionXYZ"};
    for (int i = 0; i < 2; i++) {
        void *address = lookup(names[i]);
        if (address)
            outcome_fail(outcome, "clGetExtensionFunctionAddress(\"%s\") "
                                  "returned %p, expected NULL; ",
                         names[i], address);
        address = for_platform(session->vendors[0].platforms[0], names[i]);
        if (address)
            outcome_fail(outcome, "...ForPlatform(\"%s\") returned %p, "
                                  "expected NULL; ",
                         names[i], address);
    }
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK, "NULL for %s and %s, with and "
                                        "without a platform",
                    names[0], names[1]);
}

void check_extension_null_name(struct session *session,
                               const struct check *check,
                               struct outcome *outcome)
{
    (void)check;
    lookup_fn *lookup = (lookup_fn *)(uintptr_t)loader_symbol(
        session, "clGetExtensionFunctionAddress");
    cl_api_clGetExtensionFunctionAddressForPlatform for_platform =
        (void *)(uintptr_t)loader_symbol(
            session, "clGetExtensionFunctionAddressForPlatform");
    void *plain = lookup(NULL);
    void *with_platform =
        for_platform(session->vendors[0].platforms[0], NULL);
    if (plain || with_platform)
        outcome_fail(outcome, "expected NULL, received %p and %p", plain,
                     with_platform);
    else
        outcome_set(outcome, STATUS_OK, "NULL, with and without a platform");
}

/* ---- no platform to dispatch on ---- */

/*
 * The call prepared in `call` was made without a platform: the loader may
 * refuse it (CL_INVALID_PLATFORM, nothing reaching a vendor) or pick a
 * vendor, which must then receive the call as made, the platform excepted
 * (NULL, or one of its own: the loader's default), and whose answer must
 * reach the application unchanged.
 */
static void judge_platform_choice(struct session *session, int platform_arg,
                                  cl_int refusal, struct outcome *outcome)
{
    const struct entry *entry = call.entry;
    for (int v = 0; v < session->scenario->vendor_count; v++) {
        const cl_call_record_refcl *record = call_record(&call, v, entry->name);
        if (!record)
            continue;
        cl_ulong chosen = platform_arg >= 0 ? record->args[platform_arg] : 0;
        int owner = vendor_of_platform(session,
                                       (cl_platform_id)(uintptr_t)chosen);
        if (chosen && owner != v)
            outcome_fail(outcome, "vendor %s received another vendor's "
                                  "platform; ",
                         session->vendors[v].spec->tag);
        if (platform_arg >= 0)
            call.args[platform_arg] = chosen;
        call_compare(&call, session, v, NULL, outcome);
        call_release_created(&call, session, v, outcome);
        if (outcome->status == STATUS_OK)
            outcome_set(outcome, STATUS_OK,
                        "the loader chose vendor %s%s; its answer was "
                        "passed back unchanged",
                        session->vendors[v].spec->tag,
                        chosen ? ", passing its platform" : "");
        return;
    }
    cl_int errcode = 0;
    cl_int got = (cl_int)(cl_uint)call.result;
    for (int i = 0; i < entry->num_params; i++)
        if (entry->params[i].kind == OUT_ERRCODE)
            memcpy(&errcode, call.outputs[i], sizeof(errcode));
    if (entry->result != RESULT_CODE)
        got = call.result ? CL_SUCCESS : errcode;
    if (got != refusal)
        outcome_fail(outcome, "no vendor received the call, yet the loader "
                              "answered %s (expected %s)",
                     code_name(got), code_name(refusal));
    else
        outcome_set(outcome, STATUS_OK, "%s, answered by the loader",
                    code_name(refusal));
}

static void null_platform_call(struct session *session, const char *name,
                               int platform_arg, struct outcome *outcome)
{
    const struct entry *entry = entry_named(name);
    call_prepare(&call, session, entry, 0, PASS_REAL, 0, NULL);
    if (platform_arg >= 0)
        call.args[platform_arg] = 0;
    call_invoke(&call, session, loader_symbol(session, name));
    judge_platform_choice(session, platform_arg, CL_INVALID_PLATFORM,
                          outcome);
}

void check_null_platform_info(struct session *session,
                              const struct check *check,
                              struct outcome *outcome)
{
    (void)check;
    null_platform_call(session, "clGetPlatformInfo", 0, outcome);
}

void check_null_platform_devices(struct session *session,
                                 const struct check *check,
                                 struct outcome *outcome)
{
    (void)check;
    null_platform_call(session, "clGetDeviceIDs", 0, outcome);
}

void check_null_properties_context(struct session *session,
                                   const struct check *check,
                                   struct outcome *outcome)
{
    (void)check;
    const struct entry *entry = entry_named("clCreateContextFromType");
    call_prepare(&call, session, entry, 0, PASS_REAL, 0, NULL);
    call.args[0] = 0; /* properties */
    call_invoke(&call, session, loader_symbol(session, entry->name));
    judge_platform_choice(session, -1, CL_INVALID_PLATFORM, outcome);
}

void check_empty_properties_context(struct session *session,
                                    const struct check *check,
                                    struct outcome *outcome)
{
    (void)check;
    static const cl_context_properties empty[] = {0};
    const struct entry *entry = entry_named("clCreateContextFromType");
    call_prepare(&call, session, entry, 0, PASS_REAL, 0, NULL);
    call.args[0] = (cl_ulong)(uintptr_t)empty;
    call_invoke(&call, session, loader_symbol(session, entry->name));
    judge_platform_choice(session, -1, CL_INVALID_PLATFORM, outcome);
}

/* clCreateContext without properties: the loader must dispatch on the
 * first device, which names the vendor unambiguously. */
void check_context_from_devices(struct session *session,
                                const struct check *check,
                                struct outcome *outcome)
{
    int v = check->vendor;
    if (!vendor_usable(session, v) ||
        !session->vendors[v].fixture.objects[OBJ_DEVICE]) {
        outcome_set(outcome, STATUS_FAIL, "vendor %s is not listed",
                    session->vendors[v].spec->tag);
        return;
    }
    const struct entry *entry = entry_named("clCreateContext");
    call_prepare(&call, session, entry, v, PASS_REAL, 0, NULL);
    call.args[0] = 0; /* properties */
    call_invoke(&call, session, loader_symbol(session, entry->name));
    call_compare(&call, session, v, session->vendors[v].platforms[0],
                 outcome);
    call_release_created(&call, session, v, outcome);
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "dispatched on devices[0]: reached vendor %s",
                    session->vendors[v].spec->tag);
}
