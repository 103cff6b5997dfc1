/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every check function, by group (plan.c lists which run where).
 */
#ifndef LOADERCHECK_CHECKS_H
#define LOADERCHECK_CHECKS_H

#include "session.h"

/** True for the entry points the loader must answer itself. */
bool entry_loader_answers(const struct entry *entry);

/* checks_entry.c: per entry point and vendor. */
check_fn check_route, check_forced, check_null;

/* checks_platform.c: what the loader answers itself. */
check_fn check_platforms_listed, check_platforms_none,
    check_platforms_bad_arguments, check_platforms_short_buffer,
    check_extension_by_suffix, check_extension_for_platform,
    check_extension_unknown, check_extension_null_name,
    check_null_platform_info, check_null_platform_devices,
    check_null_properties_context, check_empty_properties_context,
    check_context_from_devices;

/* checks_icd2.c: cl_khr_icd 2.0 with several vendors. */
check_fn check_dispatch_data_set, check_dispatch_data_distinct,
    check_dispatch_data_intact, check_second_platform,
    check_extension_object;

/* checks_faults.c: a faulty vendor beside a healthy one. */
check_fn check_fault_survives, check_fault_healthy_listed,
    check_fault_healthy_routes, check_fault_reaction;

#endif /* LOADERCHECK_CHECKS_H */
