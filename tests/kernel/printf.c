/* SPDX-License-Identifier: Apache-2.0 */
/*
 * printf in compiled kernels, through the loader: every conversion, flag
 * and length modifier of OpenCL C 3.0 6.15.14 from several work-items of
 * several groups, against the host C library's printf of the same format
 * and values; the vector specifiers (in every shape the x86-64 and AArch64
 * calling conventions give them: in registers, as an integer or a double,
 * through a copy) against hand-written text; each work-item's lines in
 * its program order; printf around a barrier and in a helper; %s of what
 * is no literal; a format that is no literal (-1, nothing printed);
 * formats that do not match their arguments; and a
 * buffer overflowing: -1 from the calls that did not fit, no output from
 * them, and every one that returned 0 printed.
 *
 * stdout is a temporary file while a kernel runs, read back once
 * clFinish returns (the output must be out by then: the test does not
 * flush stdout itself).
 */
#include <math.h>
#include <unistd.h>

#include "../compiler/exec.h"

static const char source[] =
    "kernel void scalars(global int *ret)\n"
    "{\n"
    "    int g = (int)get_global_id(0);\n"
    "    int r = printf(\"%d: %d %i %+5d %-5d| %05d %x %X %#o %u %#x\\n\",\n"
    "                   g, -g * 1000 - 7, g, g, g, g, 0xbeef + g, 0xBEEF + g,\n"
    "                   8 + g, 4000000000u, 255);\n"
    "    r |= printf(\"%d: %hhd %hhu %hd %hu %ld %lu %lx %c%c %5c|\\n\", g,\n"
    "                (char)(-100 - g), (uchar)(200 + g), (short)(-30000 - g),\n"
    "                (ushort)(60000 + g), -5000000000L * (g + 1),\n"
    "                18000000000000000000UL, 0x123456789abcdefUL, 'a' + g,\n"
    "                'Z', 'q');\n"
    "    r |= printf(\"%d: %f %.3f %10.2F %e %.2E %g %G %a %A %-8.1f|\\n\", g,\n"
    "                1.5f + g, 3.14159f, -2.5f, 12345.678f, 0.000123f,\n"
    "                100000.0f, 1e-10f, 1.0f, 0.5f + g, 2.25f);\n"
    "    r |= printf(\"%d: %s|%10s|%-6s|%.2s|%s|%s %% %f %e %g\\n\", g,\n"
    "                \"lit\", \"right\", \"left\", \"precision\", \"\",\n"
    "                \"foo\\0foo\", INFINITY, -NAN, -0.0f);\n"
    "    r |= printf(\"\");\n"
    "    r |= printf(\"%d: %.17g %le %u%%\\n\", g, 0.1 + g, 1e300, 7);\n"
    "    ret[g] = r;\n"
    "}\n"
    "kernel void vectors(global int *ret)\n"
    "{\n"
    "    int g = (int)get_global_id(0);\n"
    "    int r = printf(\"%d: %v4hlf|%v2hlf|%v3hlf|%5.1v2hlf\\n\", g,\n"
    "                   (float4)(1.0f, 2.5f, -3.25f, g), (float2)(0.5f, g),\n"
    "                   (float3)(-1.0f, 0.0f, g), (float2)(9.25f, -g));\n"
    "    r |= printf(\"%d: %v2hd|%v3hhu|%v4hld|%v2lx|%v8hhd|%v16hhx\\n\", g,\n"
    "                (short2)(-1, 2 + g), (uchar3)(1, 255, g),\n"
    "                (int4)(-2147483647 - 1, 0, 7, g), (ulong2)(ULONG_MAX, 16),\n"
    "                (char8)(-8, -7, -6, -5, 4, 3, 2, g),\n"
    "                (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,\n"
    "                          254, g));\n"
    "    r |= printf(\"%d: %v16hlg|%v8hlu|%#v2hho|%+v3hi|%v2ld\\n\", g,\n"
    "                (float16)(g, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,\n"
    "                          14, 0.125f),\n"
    "                (uint8)(1, 2, 3, 4, 5, 6, 7, 4294967295u),\n"
    "                (uchar2)(8, g), (short3)(-1, 0, g),\n"
    "                (long2)(LONG_MIN, g));\n"
    "    r |= printf(\"%d: %v2lf|%.1v3lf|%v4hd|%v16hhd\\n\", g,\n"
    "                (double2)(0.25, g), (double3)(1.0, -2.0, 1e10),\n"
    "                (short4)(-32768, 32767, 0, g), (char16)(g));\n"
    "    ret[g] = r;\n"
    "}\n"
    /* Around a barrier: before it and after, and from a helper. */
    "void say(constant char *what, int v)\n"
    "{\n"
    "    printf(\"%s %d\\n\", what, v);\n"
    "}\n"
    "kernel void barriers(global int *ret, constant char *text)\n"
    "{\n"
    "    int g = (int)get_global_id(0);\n"
    "    say(\"before\", g);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    say(\"after\", g);\n"
    "    printf(\"%s %d\\n\", text, g);\n"
    "    ret[g] = printf(text);\n"
    "}\n"
    /* Formats that do not match their arguments (undefined): what refcl
     * prints, and never past a record. */
    "kernel void mismatch(global int *ret)\n"
    "{\n"
    "    ret[get_global_id(0)] = printf(\"m: [%ld][%v4hlf][%s][%hlf][%v5hd]\"\n"
    "        \"[%d][%v2hld]%\", 1, 2.0f, 3, 4.0f, (short2)(5, 6), 7);\n"
    "}\n"
    /* 48-byte records (16 of header, two 16-byte arguments). */
    "kernel void overflow(global int *ret)\n"
    "{\n"
    "    int g = (int)get_global_id(0);\n"
    "    ret[g] = printf(\"%d %d\\n\", g, -g);\n"
    "}\n";

static cl_program program;

/* The text @p k printed over @p global work-items in groups of @p local,
 * with stdout on a temporary file; its return values in @p ret. */
static char *run_captured(cl_kernel k, size_t global, size_t local,
                          cl_int *ret)
{
    cl_mem b = exec_buffer(global * sizeof(cl_int), NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    FILE *file = tmpfile();
    CHECK(file != NULL);
    if (!file)
        exit(1);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    CHECK(saved >= 0 && dup2(fileno(file), STDOUT_FILENO) >= 0);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    off_t size = lseek(fileno(file), 0, SEEK_END);
    CHECK(dup2(saved, STDOUT_FILENO) >= 0);
    close(saved);
    char *text = calloc((size_t)size + 1, 1);
    CHECK(text && pread(fileno(file), text, (size_t)size, 0) == size);
    fclose(file);
    exec_read(b, global * sizeof(cl_int), ret);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    return text;
}

/* The lines of @p text that start with "@p g: ", in order, joined. */
static void lines_of(const char *text, int g, char *out, size_t room)
{
    char prefix[32];
    int n = snprintf(prefix, sizeof(prefix), "%d: ", g);
    size_t used = 0;
    out[0] = '\0';
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, prefix, (size_t)n) == 0 && used + length < room) {
            memcpy(out + used, line, length);
            used += length;
            out[used] = '\0';
        }
        line += length;
    }
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* What the host's C library prints for work-item @p g of `scalars`: the
 * same formats, the same values, the same types (char and short promoted
 * to int, float to double, long 64 bits as on this LP64 host). */
static void scalars_expected(int g, char *out, size_t room)
{
    int n = snprintf(out, room,
                     "%d: %d %i %+5d %-5d| %05d %x %X %#o %u %#x\n", g,
                     -g * 1000 - 7, g, g, g, g, 0xbeef + g, 0xBEEF + g,
                     8 + g, 4000000000u, 255);
    n += snprintf(out + n, room - n,
                  "%d: %hhd %hhu %hd %hu %ld %lu %lx %c%c %5c|\n", g,
                  (signed char)(-100 - g), (unsigned char)(200 + g),
                  (short)(-30000 - g), (unsigned short)(60000 + g),
                  -5000000000L * (g + 1), 18000000000000000000UL,
                  0x123456789abcdefUL, 'a' + g, 'Z', 'q');
    n += snprintf(out + n, room - n,
                  "%d: %f %.3f %10.2F %e %.2E %g %G %a %A %-8.1f|\n", g,
                  (double)(1.5f + (float)g), (double)3.14159f, -2.5,
                  (double)12345.678f, (double)0.000123f, 100000.0,
                  (double)1e-10f, 1.0, (double)(0.5f + (float)g), 2.25);
    n += snprintf(out + n, room - n,
                  "%d: %s|%10s|%-6s|%.2s|%s|%s %% %f %e %g\n", g, "lit",
                  "right", "left", "precision", "", "foo\0foo",
                  (double)INFINITY, -(double)NAN, -0.0);
    snprintf(out + n, room - n, "%d: %.17g %le %u%%\n", g, 0.1 + g, 1e300,
             7);
}

/* Kernel @p name over @p items work-items in groups of @p group: each
 * work-item's @p lines lines, in order, as @p expected says, and printf's
 * return values 0. */
static void check_lines(const char *name, int items, int group, int lines,
                        void (*expected)(int g, char *out, size_t room))
{
    cl_kernel k = exec_kernel(program, name);
    cl_int ret[8];
    char *text = run_captured(k, (size_t)items, (size_t)group, ret);
    CHECK_EQ(count_lines(text), lines * items);
    for (int g = 0; g < items; g++) {
        char got[2048], want[2048];
        lines_of(text, g, got, sizeof(got));
        expected(g, want, sizeof(want));
        CHECK_STR(got, want);
        CHECK_EQ(ret[g], 0);
    }
    free(text);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static void vectors_expected(int g, char *out, size_t room)
{
    int n = snprintf(out, room,
                     "%d: 1.000000,2.500000,-3.250000,%d.000000|0.500000,"
                     "%d.000000|-1.000000,0.000000,%d.000000|  9.2,%5.1f\n",
                     g, g, g, g, (double)(float)-g);
    n += snprintf(out + n, room - n,
                  "%d: -1,%d|1,255,%d|-2147483648,0,7,%d|ffffffffffffffff,10|"
                  "-8,-7,-6,-5,4,3,2,%d|0,1,2,3,4,5,6,7,8,9,a,b,c,d,fe,%x\n",
                  g, 2 + g, g, g, g, g);
    n += snprintf(out + n, room - n,
                  "%d: %d,1,2,3,4,5,6,7,8,9,10,11,12,13,14,0.125|"
                  "1,2,3,4,5,6,7,4294967295|010,%#o|-1,+0,+%d|"
                  "-9223372036854775808,%d\n", g, g, g, g, g);
    n += snprintf(out + n, room - n,
                  "%d: 0.250000,%d.000000|1.0,-2.0,10000000000.0|"
                  "-32768,32767,0,%d|", g, g, g);
    for (int i = 0; i < 16; i++)
        n += snprintf(out + n, room - n, i < 15 ? "%d," : "%d\n", g);
}


/* Position of @p line in @p text, or -1. */
static long line_at(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)); p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return p - text;
    return -1;
}

/* 3 groups of 4: each group's "before" lines come before its "after"
 * lines (they are recorded in execution order, and the barrier orders
 * them); %s of a __constant argument, no literal, prints "(null)"; a
 * format that is no literal returns -1 and prints nothing. */
static void check_barriers(void)
{
    enum { N = 12, L = 4 };
    static const char text_arg[] = "not a literal";
    cl_kernel k = exec_kernel(program, "barriers");
    cl_mem t = exec_buffer(sizeof(text_arg), text_arg);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(t), &t), CL_SUCCESS);
    cl_int ret[N];
    char *text = run_captured(k, N, L, ret);
    CHECK_EQ(count_lines(text), 3 * N);
    for (int g = 0; g < N; g++) {
        char line[64];
        snprintf(line, sizeof(line), "before %d", g);
        long before = line_at(text, line);
        snprintf(line, sizeof(line), "after %d", g);
        long after = line_at(text, line);
        snprintf(line, sizeof(line), "(null) %d", g);
        long null = line_at(text, line);
        CHECK(before >= 0 && after > before && null > after);
        for (int h = g / L * L; h < g / L * L + L; h++) {
            snprintf(line, sizeof(line), "after %d", h);
            CHECK(line_at(text, line) > before);
        }
        CHECK_EQ(ret[g], -1);
    }
    free(text);
    CHECK_EQ(clReleaseMemObject(t), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* A conversion whose argument is smaller than it reads, or missing,
 * prints nothing; %s of no literal "(null)"; a specification outside the
 * grammar is copied and takes its argument. */
static void check_mismatch(void)
{
    cl_kernel k = exec_kernel(program, "mismatch");
    cl_int ret[2];
    char *text = run_captured(k, 2, 1, ret);
    CHECK_STR(text, "m: [][][(null)][%hlf][%v5hd][7][]%m: [][][(null)]"
                    "[%hlf][%v5hd][7][]%");
    CHECK_EQ(ret[0], 0);
    CHECK_EQ(ret[1], 0);
    free(text);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* 40000 records of 48 bytes into CL_DEVICE_PRINTF_BUFFER_SIZE bytes: the
 * first that fit return 0 and are printed, every other returns -1. */
static void check_overflow(void)
{
    enum { N = 40000, RECORD = 48 };
    size_t capacity = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_PRINTF_BUFFER_SIZE,
                             sizeof(capacity), &capacity, NULL),
             CL_SUCCESS);
    CHECK(capacity >= 1024 * 1024 && capacity / RECORD < N);
    cl_kernel k = exec_kernel(program, "overflow");
    static cl_int ret[N];
    static bool out[N];
    char *text = run_captured(k, N, 100, ret);
    size_t lines = 0, wrong = 0, printed = 0;
    for (const char *line = text; *line; lines++) {
        int g = -1, minus = 1;
        wrong += sscanf(line, "%d %d", &g, &minus) != 2 || g < 0 ||
                 g >= N || minus != -g || out[g];
        if (g >= 0 && g < N)
            out[g] = true;
        const char *end = strchr(line, '\n');
        line = end ? end + 1 : line + strlen(line);
    }
    for (int g = 0; g < N; g++) {
        printed += ret[g] == 0;
        wrong += ret[g] == 0 ? !out[g] : (ret[g] != -1 || out[g]);
    }
    CHECK_EQ(printed, capacity / RECORD);
    CHECK_EQ(lines, capacity / RECORD);
    CHECK_EQ(wrong, 0);
    free(text);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    program = exec_build(source, "-cl-std=CL1.2");
    if (!program)
        return 1;
    check_lines("scalars", 6, 3, 5, scalars_expected); /* 2 groups of 3 */
    check_lines("vectors", 4, 2, 4, vectors_expected); /* 2 groups of 2 */
    check_barriers();
    check_mismatch();
    check_overflow();
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    exec_teardown();
    return TEST_RESULT();
}
