/*
 * Kernel creation from refcl's programs, which never have an executable:
 * clCreateKernel and clCreateKernelsInProgram refuse with
 * CL_INVALID_PROGRAM_EXECUTABLE. No kernel object can exist, so the other
 * kernel entry points stay in icd/stubs.c, where every handle is
 * CL_INVALID_KERNEL.
 */
#include "refcl/api.h"
#include "refcl/program.h"

cl_kernel CL_API_CALL refcl_clCreateKernel(cl_program program,
                                           const char *kernel_name,
                                           cl_int *errcode_ret)
{
    cl_int status = CL_INVALID_PROGRAM_EXECUTABLE;
    /* CL_INVALID_PROGRAM "if program is not a valid program object". */
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        status = CL_INVALID_PROGRAM;
    /* CL_INVALID_VALUE "if kernel_name is NULL". */
    else if (!kernel_name)
        status = CL_INVALID_VALUE;
    /* Else CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully
     * built executable for program". */
    return refcl_errcode(NULL, status, errcode_ret);
}

cl_int CL_API_CALL refcl_clCreateKernelsInProgram(cl_program program,
                                                  cl_uint num_kernels,
                                                  cl_kernel *kernels,
                                                  cl_uint *num_kernels_ret)
{
    (void)num_kernels;
    (void)kernels;
    (void)num_kernels_ret;
    if (!refcl_object_valid(program, REFCL_PROGRAM))
        return CL_INVALID_PROGRAM;
    /* CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built
     * executable for any device in program". */
    return CL_INVALID_PROGRAM_EXECUTABLE;
}
