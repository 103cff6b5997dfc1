/* SPDX-License-Identifier: Apache-2.0 */
/* Joining names for CL_*_EXTENSIONS (the info-return helper itself is inline
 * in refcl/info.h). */
#include "refcl/info.h"

#include <stdio.h>
#include <string.h>

void refcl_names_join(const cl_name_version *list, size_t count, char *buf,
                      size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? " " : "",
                         list[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}
