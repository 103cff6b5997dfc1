/* The info-return helper shared by every clGet*Info (see refcl/info.h). */
#include "refcl/info.h"

#include <stdio.h>
#include <string.h>

cl_int refcl_info_return(const void *value, size_t size,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret)
{
    if (param_value) {
        if (param_value_size < size)
            return CL_INVALID_VALUE;
        if (size)
            memcpy(param_value, value, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

cl_int refcl_info_string(const char *value, size_t param_value_size,
                         void *param_value, size_t *param_value_size_ret)
{
    return refcl_info_return(value, strlen(value) + 1, param_value_size,
                             param_value, param_value_size_ret);
}

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
