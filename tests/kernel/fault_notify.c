/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compiled kernel's fault reaches the application twice: its event ends
 * with an error status (CL_OUT_OF_RESOURCES, an abnormally terminated
 * command) and the context's pfn_notify hears which kernel, which signal,
 * at which address, in which work-group (docs/kernels.md). Needs the
 * compiler (77 without it) and no valgrind (77 under it: valgrind reports
 * the bad access itself).
 */
#include "../compiler/exec.h"

/* Only work-group (3, 1) writes, through p + 4: address 0x10 when p is
 * NULL. */
static const char *const source =
    "kernel void oob(global int *p)\n"
    "{\n"
    "    if (get_group_id(0) == 3 && get_group_id(1) == 1)\n"
    "        p[4] = 1;\n"
    "}\n";

/* Runs oob over (64, 4) in groups of (16, 2) with @p p; returns the
 * event's status. */
static cl_int run(cl_kernel k, cl_mem p)
{
    static const size_t global[2] = {64, 4}, local[2] = {16, 2};
    return exec_status(k, p, 2, global, local);
}

int main(void)
{
    exec_setup_faults();
    cl_program program = exec_build(source, "");
    if (!program)
        return 1;
    cl_kernel k = exec_kernel(program, "oob");

    CHECK_EQ(run(k, NULL), CL_OUT_OF_RESOURCES);
    CHECK_EQ(exec_notes()->heard, 1);
    CHECK_STR(exec_notes()->last, "kernel 'oob': SIGSEGV at address 0x10 in work-group "
                    "(3, 1, 0)");

    /* The queue goes on; a run that does not fault says nothing. */
    cl_mem b = exec_buffer(64, NULL);
    CHECK_EQ(run(k, b), CL_COMPLETE);
    cl_int out[16];
    exec_read(b, sizeof(out), out);
    CHECK_EQ(out[4], 1);
    CHECK_EQ(exec_notes()->heard, 1);

    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    exec_teardown();
    return TEST_RESULT();
}
