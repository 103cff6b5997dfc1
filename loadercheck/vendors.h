/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A scenario's vendors, installed in a temporary directory (vendors.c).
 */
#ifndef LOADERCHECK_VENDORS_H
#define LOADERCHECK_VENDORS_H

#include <limits.h>

#include "check.h"

/**
 * Installs @p scenario's vendors under @p dir: lib/librefcl-<tag>.so
 * (copies of @p refcl), vendors/<n>-refcl-check-<tag>.icd (listed by
 * readdir in the scenario's order), instances.conf and an empty layers/.
 * False, with a reason in @p why, on failure.
 */
bool vendors_install(const char *dir, const struct scenario *scenario,
                     const char *refcl, char *why, size_t why_size);

/** Removes @p dir and everything in it. */
void vendors_remove(const char *dir);

#endif /* LOADERCHECK_VENDORS_H */
