/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Recording what a check found.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static void append_va(struct outcome *outcome, const char *format,
                      va_list args)
{
    size_t used = strlen(outcome->detail);
    if (used + 1 < sizeof(outcome->detail))
        vsnprintf(outcome->detail + used, sizeof(outcome->detail) - used,
                  format, args);
}

void outcome_set(struct outcome *outcome, enum status status,
                 const char *format, ...)
{
    va_list args;
    va_start(args, format);
    outcome->status = status;
    outcome->detail[0] = '\0';
    append_va(outcome, format, args);
    va_end(args);
}

void outcome_append(struct outcome *outcome, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    append_va(outcome, format, args);
    va_end(args);
}

void outcome_fail(struct outcome *outcome, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    if (outcome->status != STATUS_FAIL) {
        outcome->status = STATUS_FAIL;
        outcome->detail[0] = '\0';
    }
    append_va(outcome, format, args);
    va_end(args);
}
