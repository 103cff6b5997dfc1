/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/fp16: half (cl_khr_fp16) in compiled kernels, where the work-item
 * loop is vectorized and the CPU's F16C converts: + - * / and sqrt
 * correctly rounded, fma exactly rounded (a float fma would round twice),
 * a double cast to half rounded once (refcl-half-casts), a half vector
 * kernel (half8), comparisons, negation, rounding and fmax of halves in a
 * vectorized loop (refcl-half-vectors), write_imageh and read_imageh of a CL_HALF_FLOAT image
 * (exact), and a program in OpenCL C 3.0. Against references in
 * long double; exits 77 where the device does not report cl_khr_fp16.
 */
#include <math.h>
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define N 65536

static const char source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void arith(global const half *a, global const half *b,\n"
    "                  global half *r)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    half x = a[i], y = b[i];\n"
    "    r[6 * i] = x + y;\n"
    "    r[6 * i + 1] = x - y;\n"
    "    r[6 * i + 2] = x * y;\n"
    "    r[6 * i + 3] = x / y;\n"
    "    r[6 * i + 4] = sqrt(x);\n"
    "    r[6 * i + 5] = fma(x, y, a[i ^ 1]);\n"
    "}\n"
    "kernel void cast(global const double *d, global half *r)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    r[i] = (half)d[i];\n"
    "}\n"
    "kernel void vec8(global const half8 *a, global const half8 *b,\n"
    "                 global half8 *r)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    r[i] = a[i] * b[i] + (half8)(1.0h);\n"
    "}\n"
    "kernel void compares(global const half *a, global const half *b,\n"
    "                     global half *r)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    half x = a[i], y = b[i];\n"
    "    r[3 * i] = x < y ? -x : floor(y);\n"
    "    r[3 * i + 1] = fmax(fabs(x), rint(y));\n"
    "    r[3 * i + 2] = isnan(x) ? y : ceil(x);\n"
    "}\n"
    "kernel void image_write(write_only image2d_t im, global const half4 *c)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    write_imageh(im, (int2)(x, y), c[y * 8 + x]);\n"
    "}\n"
    "kernel void image_read(read_only image2d_t im, sampler_t s,\n"
    "                       global half4 *r)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    r[2 * (y * 8 + x)] = read_imageh(im, (int2)(x, y));\n"
    "    r[2 * (y * 8 + x) + 1] =\n"
    "        read_imageh(im, s, (float2)(x + 0.5f, y + 0.5f));\n"
    "}\n";

static long double decode(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    long double sign = h & 0x8000 ? -1 : 1;
    if (e == 0x1f)
        return m ? NAN : sign * INFINITY;
    return sign * (e ? ldexpl(1024 + m, e - 25) : ldexpl(m, -24));
}

/* @v rounded to the nearest half, ties to even. */
static uint16_t round_half(long double v)
{
    if (isnan(v))
        return 0x7e00;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    long double a = fabsl(v);
    if (a >= 65520)
        return sign | 0x7c00;
    long double q = ldexpl(1, a < 0x1p-14L ? -24 : ilogbl(a) - 10);
    long double m = a / q, lo = floorl(m), frac = m - lo;
    if (frac > 0.5L || (frac == 0.5L && fmodl(lo, 2) == 1))
        lo++;
    long double r = lo * q;
    if (r < 0x1p-14L)
        return sign | (uint16_t)(r * 0x1p24L);
    int e = ilogbl(r);
    return sign | (uint16_t)((e + 15) << 10) | (uint16_t)(ldexpl(r, 10 - e) - 1024);
}

static bool same(uint16_t got, uint16_t want)
{
    bool ng = (got & 0x7fff) > 0x7c00, nw = (want & 0x7fff) > 0x7c00;
    return ng || nw ? ng && nw : got == want;
}

static uint64_t state = 0x2545f4914f6cdd1du;
static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static cl_mem buffer(size_t size, void *data)
{
    cl_int err = 1;
    cl_mem m = clCreateBuffer(context,
                              CL_MEM_READ_WRITE |
                                  (data ? CL_MEM_COPY_HOST_PTR : 0),
                              size, data, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return m;
}

static void run(cl_program program, const char *name, cl_mem *args,
                int nargs, size_t global)
{
    cl_int err = 1;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    for (int i = 0; i < nargs; i++)
        CHECK_EQ(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]),
                 CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

static int reported;
#define FAIL(...)                                                            \
    do {                                                                     \
        test_failures++;                                                     \
        if (reported++ < 30)                                                 \
            fprintf(stderr, __VA_ARGS__);                                    \
    } while (0)

/* Halves whose product is a tie between two halves, with a tiny c: what
 * a float fma gets wrong; the rest random. */
static void make_inputs(uint16_t *a, uint16_t *b)
{
    for (int i = 0; i < N; i += 2) {
        a[i] = (uint16_t)next_random();
        b[i] = (uint16_t)next_random();
        a[i + 1] = (uint16_t)(0x0001 | (next_random() & 0x8000));
        b[i + 1] = (uint16_t)next_random();
        if (i % 4 == 0) {
            do {
                a[i] = (uint16_t)(0x3c00 | (next_random() & 0x3ff));
                b[i] = (uint16_t)(0x3c00 | (next_random() & 0x3ff));
            } while (fmodl(ldexpl(decode(a[i]) * decode(b[i]),
                                  11 - ilogbl(decode(a[i]) * decode(b[i]))),
                           2) != 1);
        }
    }
}

static void check_arith(cl_program program)
{
    static uint16_t a[N], b[N], r[6 * N];
    make_inputs(a, b);
    cl_mem m[3] = {buffer(sizeof(a), a), buffer(sizeof(b), b),
                   buffer(sizeof(r), NULL)};
    run(program, "arith", m, 3, N);
    CHECK_EQ(clEnqueueReadBuffer(queue, m[2], CL_TRUE, 0, sizeof(r), r, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        long double x = decode(a[i]), y = decode(b[i]), c = decode(a[i ^ 1]);
        long double want[6] = {x + y, x - y, x * y, x / y, sqrtl(x),
                               x * y + c};
        for (int op = 0; op < 6; op++)
            if (!same(r[6 * i + op], round_half(want[op])))
                FAIL("arith op %d (%La, %La, %La) = 0x%04x, expected 0x%04x\n",
                     op, x, y, c, r[6 * i + op], round_half(want[op]));
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clReleaseMemObject(m[i]), CL_SUCCESS);
}

/* Ties between halves and the doubles one ulp either side of them. */
static void check_cast(cl_program program)
{
    static double d[N];
    static uint16_t r[N];
    for (int i = 0; i < N; i += 4) {
        uint16_t h = (uint16_t)(next_random() % 0x7bff);
        long double tie = (decode(h) + decode((uint16_t)(h + 1))) / 2;
        d[i] = (double)tie;
        d[i + 1] = nextafter((double)tie, 0);
        d[i + 2] = -nextafter((double)tie, INFINITY);
        uint64_t bits = next_random();
        memcpy(&d[i + 3], &bits, 8);
    }
    cl_mem m[2] = {buffer(sizeof(d), d), buffer(sizeof(r), NULL)};
    run(program, "cast", m, 2, N);
    CHECK_EQ(clEnqueueReadBuffer(queue, m[1], CL_TRUE, 0, sizeof(r), r, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (!same(r[i], round_half(d[i])))
            FAIL("(half)%a = 0x%04x, expected 0x%04x\n", d[i], r[i],
                 round_half(d[i]));
    for (int i = 0; i < 2; i++)
        CHECK_EQ(clReleaseMemObject(m[i]), CL_SUCCESS);
}

static void check_vec8(cl_program program)
{
    static uint16_t a[N], b[N], r[N];
    for (int i = 0; i < N; i++) {
        a[i] = (uint16_t)next_random();
        b[i] = (uint16_t)next_random();
    }
    cl_mem m[3] = {buffer(sizeof(a), a), buffer(sizeof(b), b),
                   buffer(sizeof(r), NULL)};
    run(program, "vec8", m, 3, N / 8);
    CHECK_EQ(clEnqueueReadBuffer(queue, m[2], CL_TRUE, 0, sizeof(r), r, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        long double x = decode(a[i]), y = decode(b[i]);
        /* a * b + 1: contracted (one rounding) or not (two). */
        uint16_t fused = round_half(x * y + 1);
        uint16_t apart = round_half(decode(round_half(x * y)) + 1);
        if (!same(r[i], fused) && !same(r[i], apart))
            FAIL("half8 %La * %La + 1 = 0x%04x\n", x, y, r[i]);
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clReleaseMemObject(m[i]), CL_SUCCESS);
}

static void set_arg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
    CHECK_EQ(clSetKernelArg(k, i, size, v), CL_SUCCESS);
}

/* Every half a texel channel may hold (but NaNs, whose payload a float
 * keeps anyway) written and read back through both reads. */
static void check_image(cl_program program)
{
    enum { W = 8, H = 8 };
    static uint16_t colours[W * H * 4], r[2 * W * H * 4];
    for (int i = 0; i < W * H * 4; i++) {
        colours[i] = (uint16_t)next_random();
        if ((colours[i] & 0x7c00) == 0x7c00)
            colours[i] &= 0xfc00; /* an infinity */
    }
    cl_image_format format = {CL_RGBA, CL_HALF_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = W, .image_height = H};
    cl_int err = 1;
    cl_mem image = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc,
                                 NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                     CL_SAMPLER_FILTER_MODE,
                                     CL_FILTER_NEAREST, 0};
    cl_sampler sampler = clCreateSamplerWithProperties(context, props, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem c = buffer(sizeof(colours), colours), out = buffer(sizeof(r), NULL);
    cl_kernel w = clCreateKernel(program, "image_write", &err);
    cl_kernel rd = clCreateKernel(program, "image_read", &err);
    set_arg(w, 0, sizeof(image), &image);
    set_arg(w, 1, sizeof(c), &c);
    set_arg(rd, 0, sizeof(image), &image);
    set_arg(rd, 1, sizeof(sampler), &sampler);
    set_arg(rd, 2, sizeof(out), &out);
    size_t global[2] = {W, H};
    CHECK_EQ(clEnqueueNDRangeKernel(queue, w, 2, NULL, global, NULL, 0, NULL,
                                    NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, rd, 2, NULL, global, NULL, 0, NULL,
                                    NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(r), r, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    for (int t = 0; t < W * H; t++)
        for (int ch = 0; ch < 4; ch++)
            for (int read = 0; read < 2; read++)
                if (r[8 * t + 4 * read + ch] != colours[4 * t + ch])
                    FAIL("texel %d channel %d read %d: 0x%04x, wrote 0x%04x\n",
                         t, ch, read, r[8 * t + 4 * read + ch],
                         colours[4 * t + ch]);
    clReleaseKernel(w);
    clReleaseKernel(rd);
    clReleaseSampler(sampler);
    clReleaseMemObject(image);
    clReleaseMemObject(c);
    clReleaseMemObject(out);
}

/* Comparisons, negation, rounding, fabs and fmax in a vectorized loop
 * (refcl-half-vectors makes them float vector operations). */
static void check_compares(cl_program program)
{
    static uint16_t a[N], b[N], r[3 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (uint16_t)next_random();
        b[i] = (uint16_t)next_random();
    }
    cl_mem m[3] = {buffer(sizeof(a), a), buffer(sizeof(b), b),
                   buffer(sizeof(r), NULL)};
    run(program, "compares", m, 3, N);
    CHECK_EQ(clEnqueueReadBuffer(queue, m[2], CL_TRUE, 0, sizeof(r), r, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        long double x = decode(a[i]), y = decode(b[i]);
        uint16_t want[3] = {
            x < y ? (uint16_t)(a[i] ^ 0x8000) : round_half(floorl(y)),
            round_half(isnan(fabsl(x)) ? rintl(y)
                       : isnan(y)      ? fabsl(x)
                                       : fmaxl(fabsl(x), rintl(y))),
            isnan(x) ? b[i] : round_half(ceill(x))};
        for (int k = 0; k < 3; k++)
            if (!same(r[3 * i + k], want[k]) ||
                (!isnan(decode(want[k])) && r[3 * i + k] != want[k]))
                FAIL("compares %d (%La, %La) = 0x%04x, expected 0x%04x\n", k,
                     x, y, r[3 * i + k], want[k]);
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clReleaseMemObject(m[i]), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    if (!test_device_has_extension(device, "cl_khr_fp16")) {
        fprintf(stderr, "the device does not report cl_khr_fp16\n");
        exec_teardown();
        return 77;
    }
    static const char *const options[] = {"", "-cl-std=CL3.0"};
    /* Under valgrind the OpenCL C 1.2 build alone: both take a minute. */
    int builds = exec_under_valgrind() ? 1 : 2;
    for (int o = 0; o < builds; o++) {
        cl_program program = exec_build(source, options[o]);
        if (!program)
            continue;
        check_arith(program);
        check_cast(program);
        check_vec8(program);
        check_compares(program);
        check_image(program);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
    exec_teardown();
    if (test_failures)
        fprintf(stderr, "%d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
