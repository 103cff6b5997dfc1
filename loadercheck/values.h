/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The values a check's calls pass (values.c): for each parameter, the
 * choices a loader could mistreat (each kernel argument index, sizes and
 * offsets of several magnitudes, each flag bit, NULL and non-NULL optional
 * pointers, empty and non-empty wait lists), and seeded random numbers for
 * forced calls, so that a failure reproduces with --only NAME --seed S.
 */
#ifndef LOADERCHECK_VALUES_H
#define LOADERCHECK_VALUES_H

#include <stdbool.h>

#include "entry.h"

/** Most choices one parameter has. */
#define MAX_CHOICES 72
/** Most real calls per check: a real call makes and runs what it asks. */
#define MAX_REAL_CALLS 16

/** The choice that keeps a pointer, callback or output as the pass makes
 *  it; CHOICE_OTHER swaps NULL and non-NULL. */
enum { CHOICE_DEFAULT = 0, CHOICE_OTHER = 1 };

/** A splitmix64 stream: the same seed and check name give the same
 *  numbers, whatever else the run does. */
struct random {
    cl_ulong state;
};

/** Starts the stream of check @p id for run seed @p seed. */
void random_start(struct random *random, cl_ulong seed, const char *id);

/** The next 64 random bits. */
cl_ulong random_next(struct random *random);

/**
 * The choices of parameter @p index of @p entry into @p choices (at most
 * MAX_CHOICES): a scalar's values, a list's lengths, CHOICE_DEFAULT and
 * CHOICE_OTHER for pointers. @p forced: for a forced call (refcl performs
 * nothing, so any value is safe), else for a real call (values refcl can
 * perform safely on the checker's objects, or refuses). @p kernel_args is
 * the number of arguments of the vendor's kernel. Returns their number;
 * 0 when the parameter does not vary (counts tied to a list, handles).
 */
int values_choices(const struct entry *entry, int index, bool forced,
                   int kernel_args, cl_ulong *choices);

/** True if parameter @p index of @p entry is a count or size that another
 *  parameter's list or buffer sets. */
bool values_tied(const struct entry *entry, int index);

/** The bits of @p value cut to @p size bytes. */
cl_ulong values_truncate(cl_ulong value, size_t size);

#endif /* LOADERCHECK_VALUES_H */
