/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every entry point refcl does not implement yet: the calls on pipes
 * (none can be created) and the GL/EGL/Direct3D/DX9 sharing extensions.
 * Buffers and SVM live in memory/, images and samplers in image/, kernels
 * in kernel/.
 *
 * Each dispatch slot must point at a real function, and a caller holding a
 * bad handle is owed the spec's CL_INVALID_<TYPE>, not a crash. So each stub
 * validates its handle arguments in parameter order and, when all of them
 * pass, refuses with CL_INVALID_OPERATION. A memory object where a pipe
 * is asked for is never one (none can exist): those arguments get
 * CL_INVALID_MEM_OBJECT whatever they are.
 */
#include "refcl/api.h"
#include "refcl/error.h"
#include "refcl/object.h"

/* The first failing check in @p codes, else CL_INVALID_OPERATION. */
static cl_int first_error(const cl_int *codes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (codes[i] != CL_SUCCESS)
            return codes[i];
    return REFCL_FAIL(CL_INVALID_OPERATION, "not implemented by refcl");
}

/* Runs every check (each is cheap and safe on any input) and returns the
 * first error, else CL_INVALID_OPERATION. sizeof does not evaluate its
 * operand, so each check runs once. */
#define UNIMPLEMENTED(...)                     \
    first_error((const cl_int[]){__VA_ARGS__}, \
                sizeof((const cl_int[]){__VA_ARGS__}) / sizeof(cl_int))

/* Whether a (count, array) argument pair may be 0 and NULL. */
enum list_kind { MAY_BE_EMPTY, NON_EMPTY };

/*
 * An array of handles of @p type: CL_INVALID_VALUE if count and array
 * disagree (or are empty where @p kind forbids it), CL_INVALID_<TYPE> for
 * the first bad entry. @p list may be any CL handle array: all handles are
 * pointers to structs, which share one representation.
 */
static cl_int check_list(cl_uint count, const void *list, enum refcl_type type,
                         enum list_kind kind)
{
    const void *const *handles = list;
    if ((handles == NULL) != (count == 0) || (kind == NON_EMPTY && count == 0))
        return REFCL_FAIL(CL_INVALID_VALUE, "count %u with a %s list", count,
                          handles ? "non-NULL" : "NULL");
    for (cl_uint i = 0; i < count; i++)
        if (!refcl_object_valid(handles[i], type))
            return refcl_invalid_handle(handles[i], type);
    return CL_SUCCESS;
}

/* The spec has one code for a malformed wait list and a bad event in it. */
static cl_int check_wait_list(cl_uint count, const cl_event *list)
{
    return check_list(count, list, REFCL_EVENT, MAY_BE_EMPTY) == CL_SUCCESS
               ? CL_SUCCESS
               : REFCL_FAIL(CL_INVALID_EVENT_WAIT_LIST, "\"if event_wait_list "
                            "is NULL and num_events_in_wait_list > 0, or ... "
                            "or if event objects in event_wait_list are not "
                            "valid events\"");
}

/* CL_INVALID_MEM_OBJECT "if pipe is not a valid pipe object": refcl has
 * none, so no memory object is one. */
static cl_int check_pipe(cl_mem mem)
{
    (void)mem;
    return REFCL_FAIL(CL_INVALID_MEM_OBJECT, "refcl has no pipe objects");
}

/* The way out of every entry point that returns an object or a pointer. */
static void *refuse(cl_int code, cl_int *errcode_ret)
{
    return refcl_errcode(NULL, code, errcode_ret);
}

/* Every clEnqueue{Acquire,Release}*: queue, objects to share, wait list. */
static cl_int acquire_release(cl_command_queue queue, cl_uint num_objects,
                              const cl_mem *mem_objects, cl_uint num_events,
                              const cl_event *wait_list)
{
    return UNIMPLEMENTED(
        refcl_object_check(queue, REFCL_QUEUE),
        check_list(num_objects, mem_objects, REFCL_MEM, MAY_BE_EMPTY),
        check_wait_list(num_events, wait_list));
}

/* Pipes. */

cl_mem CL_API_CALL refcl_clCreatePipe(cl_context context, cl_mem_flags flags,
                                      cl_uint pipe_packet_size,
                                      cl_uint pipe_max_packets,
                                      const cl_pipe_properties *properties,
                                      cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_int CL_API_CALL refcl_clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                       size_t param_value_size,
                                       void *param_value,
                                       size_t *param_value_size_ret)
{
    return UNIMPLEMENTED(check_pipe(pipe));
}

/* GL and EGL sharing (cl_khr_gl_sharing, cl_khr_gl_event, cl_khr_egl_*). */

cl_mem CL_API_CALL refcl_clCreateFromGLBuffer(cl_context context,
                                              cl_mem_flags flags,
                                              cl_GLuint bufobj,
                                              cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromGLTexture(cl_context context,
                                               cl_mem_flags flags,
                                               cl_GLenum target,
                                               cl_GLint miplevel,
                                               cl_GLuint texture,
                                               cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromGLTexture2D(cl_context context,
                                                 cl_mem_flags flags,
                                                 cl_GLenum target,
                                                 cl_GLint miplevel,
                                                 cl_GLuint texture,
                                                 cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromGLTexture3D(cl_context context,
                                                 cl_mem_flags flags,
                                                 cl_GLenum target,
                                                 cl_GLint miplevel,
                                                 cl_GLuint texture,
                                                 cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromGLRenderbuffer(cl_context context,
                                                    cl_mem_flags flags,
                                                    cl_GLuint renderbuffer,
                                                    cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_int CL_API_CALL refcl_clGetGLObjectInfo(cl_mem memobj,
                                           cl_gl_object_type *gl_object_type,
                                           cl_GLuint *gl_object_name)
{
    return UNIMPLEMENTED(refcl_object_check(memobj, REFCL_MEM));
}

cl_int CL_API_CALL refcl_clGetGLTextureInfo(cl_mem memobj,
                                            cl_gl_texture_info param_name,
                                            size_t param_value_size,
                                            void *param_value,
                                            size_t *param_value_size_ret)
{
    return UNIMPLEMENTED(refcl_object_check(memobj, REFCL_MEM));
}

cl_int CL_API_CALL refcl_clEnqueueAcquireGLObjects(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clEnqueueReleaseGLObjects(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

/* No handle argument: the loader found refcl through the properties. */
cl_int CL_API_CALL refcl_clGetGLContextInfoKHR(
    const cl_context_properties *properties, cl_gl_context_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    return REFCL_FAIL(CL_INVALID_OPERATION, "not implemented by refcl");
}

cl_event CL_API_CALL refcl_clCreateEventFromGLsyncKHR(cl_context context,
                                                      cl_GLsync sync,
                                                      cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromEGLImageKHR(
    cl_context context, CLeglDisplayKHR display, CLeglImageKHR image,
    cl_mem_flags flags, const cl_egl_image_properties_khr *properties,
    cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_int CL_API_CALL refcl_clEnqueueAcquireEGLObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clEnqueueReleaseEGLObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_event CL_API_CALL refcl_clCreateEventFromEGLSyncKHR(cl_context context,
                                                       CLeglSyncKHR sync,
                                                       CLeglDisplayKHR display,
                                                       cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

/* Direct3D 10/11 and DX9 media sharing (prototypes in refcl/api.h). */

cl_int CL_API_CALL refcl_clGetDeviceIDsFromD3D10KHR(
    cl_platform_id platform, cl_uint source, void *object, cl_uint set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
    return UNIMPLEMENTED(refcl_object_check(platform, REFCL_PLATFORM));
}

cl_mem CL_API_CALL refcl_clCreateFromD3D10BufferKHR(cl_context context,
                                                    cl_mem_flags flags,
                                                    void *resource,
                                                    cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromD3D10Texture2DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromD3D10Texture3DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_int CL_API_CALL refcl_clEnqueueAcquireD3D10ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clEnqueueReleaseD3D10ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clGetDeviceIDsFromD3D11KHR(
    cl_platform_id platform, cl_uint source, void *object, cl_uint set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
    return UNIMPLEMENTED(refcl_object_check(platform, REFCL_PLATFORM));
}

cl_mem CL_API_CALL refcl_clCreateFromD3D11BufferKHR(cl_context context,
                                                    cl_mem_flags flags,
                                                    void *resource,
                                                    cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromD3D11Texture2DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateFromD3D11Texture3DKHR(
    cl_context context, cl_mem_flags flags, void *resource,
    unsigned int subresource, cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_int CL_API_CALL refcl_clEnqueueAcquireD3D11ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clEnqueueReleaseD3D11ObjectsKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clGetDeviceIDsFromDX9MediaAdapterKHR(
    cl_platform_id platform, cl_uint num_media_adapters,
    cl_uint *media_adapter_type, void *media_adapters, cl_uint set,
    cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
    return UNIMPLEMENTED(refcl_object_check(platform, REFCL_PLATFORM));
}

cl_mem CL_API_CALL refcl_clCreateFromDX9MediaSurfaceKHR(
    cl_context context, cl_mem_flags flags, cl_uint adapter_type,
    void *surface_info, cl_uint plane, cl_int *errcode_ret)
{
    return refuse(UNIMPLEMENTED(refcl_object_check(context, REFCL_CONTEXT)),
                  errcode_ret);
}

cl_int CL_API_CALL refcl_clEnqueueAcquireDX9MediaSurfacesKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}

cl_int CL_API_CALL refcl_clEnqueueReleaseDX9MediaSurfacesKHR(
    cl_command_queue queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return acquire_release(queue, num_objects, mem_objects, num_events,
                           wait_list);
}
