/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/half: refcl-builtins.bc's vload_half(N), vloada_halfN,
 * vstore_half(N)(_rte|_rtz|_rtp|_rtn) and vstorea_halfN(_mode), float and
 * double, every width, through the global, local, constant (loads) and
 * private address spaces, against a host reference written from the IEEE
 * 754 rules: every half bit pattern decoded; float and double values
 * (every half, the midpoints between neighbours (an eighth of the
 * negative ones) and the values just either side of them, the overflow threshold, denormals, NaN, random bit
 * patterns) rounded by finding the two halves around them.
 */
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

_Atomic int test_failures;

typedef void load_fn(const uint16_t *, float *, int);
typedef void store_fn(const void *, uint16_t *, int);

enum mode { RTE, RTZ, RTP, RTN, MODES };
static const char *const mode_suffix[] = {"_rte", "_rtz", "_rtp", "_rtn"};
static const int widths[] = {1, 2, 3, 4, 8, 16};
#define WIDTHS (sizeof(widths) / sizeof(widths[0]))
#define PATTERNS 65536
/* The part of the inputs every width, space and mode is checked on; the
 * whole only at widths 1 and 16 in global memory. */
#define SAMPLE 8208
#define GAP 0x5a5a /* in the output where nothing may be written */

static void *program;
/* A finite half's value; [0x7c00] is 2^16, the next one the format
 * would have, for rounding. */
static double half_value[0x7c01];

static void *symbol(const char *name)
{
    void *fn = dlsym(program, name);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", name);
        test_failures++;
    }
    return fn;
}

static double decode(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double sign = h & 0x8000 ? -1 : 1;
    if (e == 0x1f)
        return m ? NAN : sign * INFINITY;
    return sign * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

/* @v's half in @mode: the halves lo <= |v| < hi around it. */
static uint16_t round_to_half(double v, enum mode mode)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    bool away = mode == RTP ? !sign : mode == RTN ? sign : false;
    double a = fabs(v);
    if (isnan(v))
        return 0x7e00;
    if (a >= 65536) /* inf itself stays inf in every mode */
        return sign | (isinf(a) || mode == RTE || away ? 0x7c00 : 0x7bff);
    int lo = 0, hi = 0x7c00;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (half_value[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    if (half_value[lo] == a)
        return sign | lo;
    double below = a - half_value[lo], above = half_value[hi] - a; /* exact */
    bool up = mode == RTE ? above < below || (above == below && (lo & 1))
                          : away;
    return sign | (up ? hi : lo);
}

static bool same_half(uint16_t got, uint16_t want)
{
    bool nan_got = (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
    bool nan_want = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
    return nan_want ? nan_got : got == want;
}

/* ---- loads: every pattern, every width, aligned or not, every space ---- */

static void check_loads(const uint16_t *patterns, float *r)
{
    static const char *const spaces[] = {"global", "local", "constant",
                                         "private"};
    char name[64];
    for (size_t s = 0; s < 4; s++)
        for (size_t w = 0; w < WIDTHS; w++)
            for (int aligned = 0; aligned <= (widths[w] > 1); aligned++) {
                int width = widths[w], stride = aligned && width == 3 ? 4 : width;
                snprintf(name, sizeof(name), "vload%s_half%.0d_%s",
                         aligned ? "a" : "", width == 1 ? 0 : width, spaces[s]);
                load_fn *fn = (load_fn *)symbol(name);
                if (!fn)
                    continue;
                int n = PATTERNS / stride, failures = 0;
                fn(patterns, r, n);
                for (int i = 0; i < n * width && failures < 5; i++) {
                    uint16_t h = patterns[i / width * stride + i % width];
                    double want = decode(h);
                    if (isnan(want) ? !isnan(r[i]) : r[i] != want ||
                                      !signbit(r[i]) != !signbit(want)) {
                        fprintf(stderr, "%s[%d] of 0x%04x = %a, expected %a\n",
                                name, i, h, r[i], want);
                        failures++;
                        test_failures++;
                    }
                }
            }
}

/* ---- stores ---- */

struct inputs {
    double *values;  /* exact in the type under test */
    int count;
    uint16_t *want[MODES];
};

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* @v's neighbours in the type (float if @is_float) around it. */
static double step(double v, double to, bool is_float)
{
    return is_float ? nextafterf((float)v, (float)to) : nextafter(v, to);
}

static void add(struct inputs *in, double v)
{
    in->values[in->count++] = v;
}

/* The inputs of a type, shuffled after the edge values so that the first
 * SAMPLE are a sample of all. */
static void make_inputs(struct inputs *in, bool is_float)
{
    static const double edges[] = {
        0.0, -0.0, 65504, 65519.99, 65520, 65536, -65520, 1e10, -1e10,
        0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-26, -0x1p-25, 0x1p-14, 0x1.ffcp-15,
        FLT_MAX, 0x1p-149, INFINITY, -INFINITY, NAN, 1.0, 0x1.002p0,
        0x1.006p0, 0x1.001p0, DBL_MAX, 0x1p-1074, 1e-300};
    int edge_count = (int)(sizeof(edges) / sizeof(edges[0]));
    in->values = malloc(sizeof(double) * 250000);
    in->count = 0;
    for (int i = 0; i < edge_count; i++)
        if (!is_float || (float)edges[i] == edges[i] || !isfinite(edges[i]))
            add(in, is_float ? (float)edges[i] : edges[i]);
    int shuffled = in->count;
    for (int h = 0; h < PATTERNS; h++)
        add(in, decode((uint16_t)h));
    for (int h = 0; h < 0x7c00; h++)
        for (int sign = h % 8 ? 1 : -1; sign <= 1; sign += 2) {
            double mid = sign * (half_value[h] + half_value[h + 1]) / 2;
            add(in, mid);
            add(in, step(mid, 0, is_float));
            add(in, step(mid, sign * INFINITY, is_float));
        }
    for (int i = 0; i < 16000; i++) {
        uint64_t bits = next_random();
        double v;
        if (is_float) {
            uint32_t b = (uint32_t)bits;
            float f;
            memcpy(&f, &b, sizeof(f));
            v = f;
        } else {
            memcpy(&v, &bits, sizeof(v));
        }
        add(in, v);
    }
    for (int i = in->count - 1; i > shuffled; i--) {
        int j = shuffled + (int)(next_random() % (uint64_t)(i - shuffled + 1));
        double t = in->values[i];
        in->values[i] = in->values[j];
        in->values[j] = t;
    }
    in->count -= in->count % 48; /* whole vectors of every width */
    for (int m = 0; m < MODES; m++) {
        in->want[m] = malloc(sizeof(uint16_t) * in->count);
        for (int i = 0; i < in->count; i++)
            in->want[m][i] = round_to_half(in->values[i], m);
    }
}

static void check_store(const char *name, store_fn *fn, const void *values,
                        const struct inputs *in, int count, int width,
                        int stride, const uint16_t *want, uint16_t *out)
{
    int n = count / width, failures = 0;
    for (int i = 0; i < n * stride + 16; i++)
        out[i] = GAP;
    fn(values, out, n);
    for (int i = 0; i < n * stride + 16 && failures < 5; i++) {
        int vector = i / stride, k = i % stride;
        bool gap = vector >= n || k >= width;
        int source = vector * width + k;
        uint16_t expected = gap ? GAP : want[source];
        if (gap ? out[i] != GAP : !same_half(out[i], expected)) {
            fprintf(stderr, "%s[%d] of %a = 0x%04x, expected 0x%04x\n", name,
                    i, gap ? 0.0 : in->values[source], out[i], expected);
            failures++;
            test_failures++;
        }
    }
}

static void check_stores(const struct inputs *in, bool is_float,
                         uint16_t *out)
{
    static const char *const spaces[] = {"global", "local", "private"};
    const char *type = is_float ? "float" : "double";
    void *values = in->values;
    float *floats = NULL;
    if (is_float) {
        floats = malloc(sizeof(float) * in->count);
        for (int i = 0; i < in->count; i++)
            floats[i] = (float)in->values[i];
        values = floats;
    }
    char name[80];
    for (size_t s = 0; s < 3; s++)
        for (size_t w = 0; w < WIDTHS; w++)
            for (int aligned = 0; aligned <= (widths[w] > 1); aligned++)
                for (int m = -1; m < MODES; m++) {
                    int width = widths[w];
                    bool all = s == 0 && !aligned &&
                               (width == 1 || width == 16);
                    snprintf(name, sizeof(name), "vstore%s_half%.0d%s_%s%d_%s",
                             aligned ? "a" : "", width == 1 ? 0 : width,
                             m < 0 ? "" : mode_suffix[m], type, width,
                             spaces[s]);
                    store_fn *fn = (store_fn *)symbol(name);
                    if (fn)
                        check_store(name, fn, values, in,
                                    all ? in->count : SAMPLE, width,
                                    aligned && width == 3 ? 4 : width,
                                    in->want[m < 0 ? RTE : m], out);
                }
    free(floats);
}

int main(void)
{
    program = dlopen(BUILTINS_TEST_PROGRAM, RTLD_NOW | RTLD_LOCAL);
    if (!program) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    for (int h = 0; h < 0x7c00; h++)
        half_value[h] = decode((uint16_t)h);
    half_value[0x7c00] = 65536;
    static uint16_t patterns[PATTERNS];
    for (int h = 0; h < PATTERNS; h++)
        patterns[h] = (uint16_t)h;
    float *loaded = malloc(sizeof(float) * PATTERNS);
    check_loads(patterns, loaded);
    free(loaded);
    for (int is_float = 1; is_float >= 0; is_float--) {
        struct inputs in;
        make_inputs(&in, is_float);
        uint16_t *out = malloc(sizeof(uint16_t) * (in.count * 4 / 3 + 64));
        check_stores(&in, is_float, out);
        free(out);
        free(in.values);
        for (int m = 0; m < MODES; m++)
            free(in.want[m]);
    }
    dlclose(program);
    return TEST_RESULT();
}
