/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A vendor that misbehaves (REFCL_FAULT) found first, a healthy one after
 * it: the loader must survive, keep the healthy vendor and route its calls;
 * what it does with the faulty one is reported (skipping it is the usual
 * answer; listing it is fine as long as its calls reach it).
 */
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "checks.h"

/* The scenario's vendors: the faulty one first, then the healthy one. */
enum { FAULTY, HEALTHY };

static struct call call;

void check_fault_survives(struct session *session, const struct check *check,
                          struct outcome *outcome)
{
    (void)check;
    if (session->listed_status != CL_SUCCESS &&
        session->listed_status != CL_PLATFORM_NOT_FOUND_KHR)
        outcome_set(outcome, STATUS_FAIL, "clGetPlatformIDs returned %s",
                    code_name(session->listed_status));
    else
        outcome_set(outcome, STATUS_OK,
                    "loaded both vendors and listed %u platforms",
                    session->listed_count);
}

void check_fault_healthy_listed(struct session *session,
                                const struct check *check,
                                struct outcome *outcome)
{
    (void)check;
    if (vendor_usable(session, HEALTHY))
        outcome_set(outcome, STATUS_OK, "the healthy vendor is listed");
    else
        outcome_set(outcome, STATUS_FAIL,
                    "the healthy vendor is not listed (%s)",
                    session->vendors[HEALTHY].handle ? "loaded, not listed"
                                                     : "unloaded");
}

/* clGetDeviceInfo on vendor @p v's device, through the loader. */
static void device_query_routed(struct session *session, int v,
                                struct outcome *outcome)
{
    const struct entry *entry = entry_named("clGetDeviceInfo");
    call_prepare(&call, session, entry, v, PASS_REAL, 0, NULL);
    call_invoke(&call, session, loader_symbol(session, entry->name));
    call_compare(&call, session, v, session->vendors[v].platforms[0],
                 outcome);
}

void check_fault_healthy_routes(struct session *session,
                                const struct check *check,
                                struct outcome *outcome)
{
    (void)check;
    if (!vendor_usable(session, HEALTHY)) {
        outcome_set(outcome, STATUS_FAIL, "the healthy vendor is not listed");
        return;
    }
    device_query_routed(session, HEALTHY, outcome);
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "clGetDeviceInfo reached the healthy vendor");
}

void check_fault_reaction(struct session *session, const struct check *check,
                          struct outcome *outcome)
{
    (void)check;
    const struct vendor *faulty = &session->vendors[FAULTY];
    if (!vendor_usable(session, FAULTY)) {
        outcome_set(outcome, STATUS_OK, "faulty vendor skipped (%s)",
                    !faulty->handle ? "library unloaded"
                    : faulty->platform_count ? "platform not listed"
                                             : "it has no platform");
        return;
    }
    if (!faulty->fixture.objects[OBJ_DEVICE]) {
        outcome_set(outcome, STATUS_OK,
                    "faulty vendor listed; it has no device to call");
        return;
    }
    device_query_routed(session, FAULTY, outcome);
    const void *platform = faulty->platforms[0];
    bool managed = ((void *const *)platform)[1] != NULL;
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "faulty vendor listed, %s dispatch; its calls reach it",
                    managed ? "loader-managed" : "classic");
    else {
        char why[640];
        snprintf(why, sizeof(why), "%.600s", outcome->detail);
        bool reached = call_record(&call, FAULTY, "clGetDeviceInfo") != NULL;
        outcome_set(outcome, STATUS_FAIL, "faulty vendor listed, but %s: %s",
                    reached ? "its calls come back wrong"
                            : "its calls do not reach it",
                    why);
    }
}
