/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scenarios (which vendors a loader is run with) and the checks made
 * in each, in the order they run. Check names are
 * <scenario>/<group>/<name>[@<vendor>]; `--list` prints them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

#define FAULT_SCENARIO(mode)                                               \
    {"fault-" mode, "REFCL_FAULT=" mode " (vendor f) before a healthy "     \
                    "vendor h", 2,                                          \
     {{"f", 2, "RCF", 1, mode}, {"h", 2, "RCH", 1, NULL}}}

static const struct scenario scenarios[] = {
    {"none", "no vendor", 0, {{0}}},
    {"single", "one cl_khr_icd 2.0 vendor a", 1,
     {{"a", 2, "REFCL", 1, NULL}}},
    {"classic", "one classic (cl_khr_icd 1.0) vendor b", 1,
     {{"b", 1, "REFCL", 1, NULL}}},
    {"mixed",
     "cl_khr_icd 2.0 vendor a, classic vendor b, cl_khr_icd 2.0 vendor c "
     "with two platforms, found in that order",
     3,
     {{"a", 2, "RCA", 1, NULL},
      {"b", 1, "RCB", 1, NULL},
      {"c", 2, "RCC", 2, NULL}}},
    /* The same without a cl_khr_icd 2.0 vendor before another vendor,
     * which some loaders cannot survive (docs/loaders.md). */
    {"classic-first",
     "classic vendor b, then cl_khr_icd 2.0 vendor c with two platforms", 2,
     {{"b", 1, "RCB", 1, NULL}, {"c", 2, "RCC", 2, NULL}}},
    {"empty-suffix",
     "classic vendor e without an ICD suffix, then cl_khr_icd 2.0 vendor s "
     "with one",
     2, {{"e", 1, "", 1, NULL}, {"s", 2, "RCS", 1, NULL}}},
    FAULT_SCENARIO("get-platforms-fails"),
    FAULT_SCENARIO("zero-platforms"),
    FAULT_SCENARIO("no-khr-icd"),
    FAULT_SCENARIO("suffix-fails"),
    FAULT_SCENARIO("one-tag"),
    FAULT_SCENARIO("no-get-function"),
    FAULT_SCENARIO("no-set-dispatch-data"),
};

const struct scenario *scenarios_all(int *count)
{
    *count = (int)(sizeof(scenarios) / sizeof(scenarios[0]));
    return scenarios;
}

/* A growing list of checks. */
struct plan {
    struct check *checks;
    size_t count, capacity;
    const struct scenario *scenario;
};

static struct check *add(struct plan *plan, check_fn *run, int vendor,
                         const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static struct check *add(struct plan *plan, check_fn *run, int vendor,
                         const char *format, ...)
{
    if (plan->count == plan->capacity) {
        plan->capacity = plan->capacity ? plan->capacity * 2 : 256;
        plan->checks = realloc(plan->checks,
                               plan->capacity * sizeof(*plan->checks));
        if (!plan->checks) {
            perror("refcl-loader-check");
            exit(3);
        }
    }
    struct check *check = &plan->checks[plan->count++];
    memset(check, 0, sizeof(*check));
    int n = snprintf(check->id, sizeof(check->id), "%s/",
                     plan->scenario->name);
    va_list args;
    va_start(args, format);
    n += vsnprintf(check->id + n, sizeof(check->id) - (size_t)n, format, args);
    va_end(args);
    if (vendor >= 0)
        snprintf(check->id + n, sizeof(check->id) - (size_t)n, "@%s",
                 plan->scenario->vendors[vendor].tag);
    check->scenario = plan->scenario;
    check->run = run;
    check->vendor = vendor;
    return check;
}

/* route/ and forced/ for every entry point a vendor receives. */
static void add_routing(struct plan *plan)
{
    size_t count;
    const struct entry *entries = entries_all(&count);
    for (size_t i = 0; i < count; i++) {
        if (entry_loader_answers(&entries[i]))
            continue;
        for (int v = 0; v < plan->scenario->vendor_count; v++) {
            struct check *route =
                add(plan, check_route, v, "route/%s", entries[i].name);
            route->entry = &entries[i];
            route->column = COLUMN_ROUTE;
            struct check *forced =
                add(plan, check_forced, v, "forced/%s", entries[i].name);
            forced->entry = &entries[i];
            forced->column = COLUMN_FORCED;
        }
    }
}

/* null/ for every entry point but the two whose NULL platform the
 * specification leaves to the implementation (no-platform/ has them). */
static void add_null_handles(struct plan *plan)
{
    size_t count;
    const struct entry *entries = entries_all(&count);
    for (size_t i = 0; i < count; i++) {
        const char *name = entries[i].name;
        if (entry_loader_answers(&entries[i]) ||
            !strcmp(name, "clGetPlatformInfo") ||
            !strcmp(name, "clGetDeviceIDs"))
            continue;
        struct check *check = add(plan, check_null, 0, "null/%s", name);
        check->entry = &entries[i];
        check->column = COLUMN_NULL;
        /* One column for all vendors: the id names no vendor. */
        check->id[strcspn(check->id, "@")] = '\0';
    }
}

static void add_extension_lookups(struct plan *plan)
{
    for (int v = 0; v < plan->scenario->vendor_count; v++) {
        add(plan, check_extension_by_suffix, v, "extension/by-suffix");
        add(plan, check_extension_for_platform, v, "extension/for-platform");
    }
}

static void add_no_platform(struct plan *plan)
{
    add(plan, check_null_platform_info, -1, "no-platform/clGetPlatformInfo");
    add(plan, check_null_platform_devices, -1, "no-platform/clGetDeviceIDs");
    add(plan, check_null_properties_context, -1,
        "no-platform/clCreateContextFromType-null-properties");
    add(plan, check_empty_properties_context, -1,
        "no-platform/clCreateContextFromType-empty-properties");
    for (int v = 0; v < plan->scenario->vendor_count; v++)
        add(plan, check_context_from_devices, v,
            "no-platform/clCreateContext");
}

static void add_icd2(struct plan *plan)
{
    const struct scenario *scenario = plan->scenario;
    for (int v = 0; v < scenario->vendor_count; v++)
        add(plan, check_dispatch_data_set, v, "icd2/dispatch-data");
    if (scenario->vendor_count > 1)
        add(plan, check_dispatch_data_distinct, -1, "icd2/distinct-data");
    for (int v = 0; v < scenario->vendor_count; v++) {
        if (scenario->vendors[v].icd_version == 2)
            add(plan, check_dispatch_data_intact, v, "icd2/dispatch-table");
        if (scenario->vendors[v].platforms > 1)
            add(plan, check_second_platform, v, "icd2/second-platform");
        add(plan, check_extension_object, v, "icd2/extension-object");
    }
}

static void add_scenario(struct plan *plan, const struct scenario *scenario)
{
    plan->scenario = scenario;
    if (scenario->vendor_count == 0) {
        add(plan, check_platforms_none, -1, "platforms/none");
        return;
    }
    if (!strncmp(scenario->name, "fault-", 6)) {
        add(plan, check_fault_survives, -1, "fault/survives");
        add(plan, check_fault_healthy_listed, -1, "fault/healthy-listed");
        add(plan, check_fault_healthy_routes, -1, "fault/healthy-routes");
        add(plan, check_fault_reaction, -1, "fault/faulty-vendor");
        return;
    }
    add(plan, check_platforms_listed, -1, "platforms/listed");
    if (!strcmp(scenario->name, "empty-suffix")) {
        add_extension_lookups(plan);
        return;
    }
    if (!strcmp(scenario->name, "single")) {
        add(plan, check_platforms_bad_arguments, -1, "platforms/bad-arguments");
        add(plan, check_extension_unknown, -1, "extension/unknown-name");
        add(plan, check_extension_null_name, -1, "extension/null-name");
    }
    if (scenario->vendor_count > 1)
        add(plan, check_platforms_short_buffer, -1, "platforms/short-buffer");
    if (strcmp(scenario->name, "classic"))
        add_extension_lookups(plan);
    if (strcmp(scenario->name, "classic"))
        add_no_platform(plan);
    add_icd2(plan);
    add_routing(plan);
    if (!strcmp(scenario->name, "single"))
        add_null_handles(plan);
}

struct check *plan_build(size_t *count)
{
    struct plan plan = {0};
    int scenario_count;
    const struct scenario *all = scenarios_all(&scenario_count);
    for (int s = 0; s < scenario_count; s++)
        add_scenario(&plan, &all[s]);
    *count = plan.count;
    return plan.checks;
}
