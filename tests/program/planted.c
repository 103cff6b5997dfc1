/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A shared object as an attacker would wrap in a refcl binary: its
 * constructor would run in the application at dlopen, before refcl could
 * look for a program table. program/binary-trust checks it never runs.
 */
#include <stdlib.h>

__attribute__((constructor)) static void planted(void)
{
    setenv("REFCL_TEST_PLANTED_RAN", "1", 1);
}

const int refcl_program_table = 0;
