/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/kernel-calls: kernels see OpenCL C only (docs/compiler.md). A
 * kernel that declares and calls a function of the C library outside what
 * the builtin library needs (system, exit, unlink) fails to build with
 * CL_BUILD_PROGRAM_FAILURE and a log naming the symbol; inline assembly is
 * refused with a log saying so, and accepted with the unsafe
 * -cl-refcl-allow-inline-asm. Should a build succeed all the same, its
 * kernel is run, as an attacker's would be: the file system and the
 * process show what it did. Skipped (77) where the device reports no
 * compiler.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "../compiler/exec.h"

static char made[256];   /* what system() would create */
static char victim[256]; /* what unlink() would delete */

/* Builds @p source with @p options: the status, and the log in @p log. */
static cl_int build(const char *source, const char *options, char *log,
                    size_t size, cl_program *out)
{
    cl_int err = 1;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL,
                                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    log[0] = '\0';
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                   size, log, NULL),
             CL_SUCCESS);
    *out = program;
    return err;
}

/* Runs kernel k of @p program once over a one-int buffer; returns the
 * int. */
static cl_int run(cl_program program)
{
    cl_kernel k = exec_kernel(program, "k");
    cl_int zero = 0, out = -1;
    cl_mem b = exec_buffer(sizeof(zero), &zero);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    size_t one = 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL,
                                    NULL),
             CL_SUCCESS);
    exec_read(b, sizeof(out), &out);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    return out;
}

/* @p source must fail to build, its log containing @p said (and
 * "undefined" if @p undefined: the link's error, not the front end's). */
static void check_refused(const char *what, const char *source,
                          const char *said, bool undefined)
{
    char log[16384];
    cl_program program;
    cl_int err = build(source, "", log, sizeof(log), &program);
    printf("%s: %d\n%s", what, err, log);
    fflush(stdout);
    CHECK_EQ(err, CL_BUILD_PROGRAM_FAILURE);
    if (err == CL_SUCCESS)
        printf("%s ran: %d\n", what, run(program));
    if (!strstr(log, said))
        fprintf(stderr, "%s: the log does not say '%s':\n%s\n", what, said,
                log);
    CHECK(strstr(log, said) != NULL);
    CHECK(!undefined || strstr(log, "undefined") != NULL);
    CHECK(strstr(log, "program.cl:") == NULL || !undefined);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

static void check_library_calls(void)
{
    char source[1024];
    snprintf(source, sizeof(source),
             "int system(constant char *);\n"
             "kernel void k(global int *p) { p[0] = system(\"touch %s\"); }\n",
             made);
    check_refused("system", source, "system", true);
    CHECK_EQ(access(made, F_OK), -1);

    check_refused("exit",
                  "void exit(int);\n"
                  "kernel void k(global int *p) { p[0] = 1; exit(3); }\n",
                  "exit", true);

    FILE *f = fopen(victim, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    snprintf(source, sizeof(source),
             "int unlink(constant char *);\n"
             "kernel void k(global int *p) { p[0] = unlink(\"%s\"); }\n",
             victim);
    check_refused("unlink", source, "unlink", true);
    CHECK_EQ(access(victim, F_OK), 0);
    unlink(victim);
}

/* A nop: an instruction on every host refcl runs on. (An empty asm
 * statement, which emits nothing, clang accepts all the same.) */
static const char asm_source[] =
    "kernel void k(global int *p)\n"
    "{\n"
    "    __asm__ volatile(\"nop\");\n"
    "    p[0] = 5;\n"
    "}\n";

static void check_inline_asm(void)
{
    check_refused("inline asm", asm_source, "inline assembly is disabled",
                  false);
    char log[16384];
    cl_program program;
    CHECK_EQ(build(asm_source, "-cl-refcl-allow-inline-asm", log,
                   sizeof(log), &program),
             CL_SUCCESS);
    CHECK_EQ(run(program), 5);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    const char *dir = getenv("REFCL_TEST_DIR");
    if (!dir)
        dir = "/tmp";
    snprintf(made, sizeof(made), "%s/refcl-kernel-system-%d", dir,
             (int)getpid());
    snprintf(victim, sizeof(victim), "%s/refcl-kernel-unlink-%d", dir,
             (int)getpid());
    unlink(made);
    check_library_calls();
    check_inline_asm();
    unlink(made);
    exec_teardown();
    return TEST_RESULT();
}
