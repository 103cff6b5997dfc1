/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clGetMemObjectInfo: every OpenCL 3.0 memory object query, of buffers and
 * images alike (pipes cannot be created). The sharing extensions' queries
 * (Direct3D, DX9 media surfaces) and CL_MEM_DEVICE_ADDRESS_EXT are
 * unknown names.
 */
#include "refcl/api.h"
#include "refcl/info.h"
#include "refcl/memory.h"

cl_int CL_API_CALL refcl_clGetMemObjectInfo(cl_mem memobj,
                                            cl_mem_info param_name,
                                            size_t param_value_size,
                                            void *param_value,
                                            size_t *param_value_size_ret)
{
    /* CL_INVALID_MEM_OBJECT "if memobj is a not a valid memory object". */
    if (!refcl_object_valid(memobj, REFCL_MEM))
        return refcl_invalid_handle(memobj, REFCL_MEM);
    union {
        cl_mem_object_type type;
        cl_uint count;
        cl_bool flag;
        const void *handle;
    } v;
    const void *value = &v;
    size_t size;
    switch (param_name) {
    case CL_MEM_TYPE:
        v.type = memobj->type;
        size = sizeof(v.type);
        break;
    case CL_MEM_FLAGS:
        value = &memobj->flags;
        size = sizeof(memobj->flags);
        break;
    case CL_MEM_SIZE:
        value = &memobj->size;
        size = sizeof(memobj->size);
        break;
    case CL_MEM_HOST_PTR:
        value = &memobj->host_ptr;
        size = sizeof(memobj->host_ptr);
        break;
    case CL_MEM_MAP_COUNT:
        v.count = atomic_load_explicit(&memobj->map_count,
                                       memory_order_relaxed);
        size = sizeof(v.count);
        break;
    case CL_MEM_REFERENCE_COUNT:
        v.count = refcl_object_refcount(&memobj->obj);
        size = sizeof(v.count);
        break;
    case CL_MEM_CONTEXT:
        v.handle = memobj->context;
        size = sizeof(v.handle);
        break;
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        /* "the memory object specified as buffer argument to
         * clCreateSubBuffer", or "mem_object argument specified in
         * cl_image_desc" ... "Otherwise, returns NULL." */
        v.handle = memobj->parent;
        size = sizeof(v.handle);
        break;
    case CL_MEM_OFFSET:
        value = &memobj->origin;
        size = sizeof(memobj->origin);
        break;
    case CL_MEM_USES_SVM_POINTER:
        v.flag = memobj->uses_svm_pointer ? CL_TRUE : CL_FALSE;
        size = sizeof(v.flag);
        break;
    case CL_MEM_PROPERTIES:
        /* "the values specified in the properties argument in the same
         * order"; none given: "param_value_size_ret equal to 0". */
        value = memobj->properties;
        size = memobj->properties_len * sizeof(cl_mem_properties);
        break;
    default:
        return REFCL_FAIL(CL_INVALID_VALUE, "param_name 0x%X: \"if "
                          "param_name is not one of the supported values\"",
                          param_name);
    }
    return refcl_info_return(value, size, param_value_size, param_value,
                             param_value_size_ret);
}
