// SPDX-License-Identifier: Apache-2.0
// builtins/fp16: refcl-builtins.bc's half (cl_khr_fp16) functions, called
// from fp16.c over arrays of half bit patterns (ushort): conversions from
// and to every type in every mode, the math, common, relational and
// geometric functions at width 1 and 8 (or 3 and 4), select, shuffle and
// vloadN/vstoreN of half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// ---- conversions ----------------------------------------------------------
#define TO_HALF1(S, M) \
    void to_half##M##_##S##1(const global S *x, global ushort *r, int n) \
    { for (int i = 0; i < n; i++) r[i] = as_ushort(convert_half##M(x[i])); }
#define TO_HALFN(S, M, N) \
    void to_half##M##_##S##N(const global S *x, global ushort *r, int n) \
    { for (int i = 0; i < n / N; i++) \
        vstore##N(as_ushort##N(convert_half##N##M(vload##N(i, x))), i, r); }
#define TO_HALF(S, M) TO_HALF1(S, M) TO_HALFN(S, M, 3) TO_HALFN(S, M, 16)
#define TO_HALF_MODES(S) TO_HALF(S, ) TO_HALF(S, _rte) TO_HALF(S, _rtz) \
    TO_HALF(S, _rtp) TO_HALF(S, _rtn)
TO_HALF_MODES(char) TO_HALF_MODES(uchar) TO_HALF_MODES(short)
TO_HALF_MODES(ushort) TO_HALF_MODES(int) TO_HALF_MODES(uint)
TO_HALF_MODES(long) TO_HALF_MODES(ulong) TO_HALF_MODES(float)
TO_HALF_MODES(double)

#define FROM_HALF1(D, M) \
    void from_half_##D##M##1(const global ushort *x, global D *r, int n) \
    { for (int i = 0; i < n; i++) r[i] = convert_##D##M(as_half(x[i])); }
#define FROM_HALFN(D, M, N) \
    void from_half_##D##M##N(const global ushort *x, global D *r, int n) \
    { for (int i = 0; i < n / N; i++) \
        vstore##N(convert_##D##N##M(as_half##N(vload##N(i, x))), i, r); }
#define FROM_HALF(D, M) FROM_HALF1(D, M) FROM_HALFN(D, M, 3) \
    FROM_HALFN(D, M, 16)
#define FROM_HALF_MODES(D, SAT) FROM_HALF(D, SAT) FROM_HALF(D, SAT##_rte) \
    FROM_HALF(D, SAT##_rtz) FROM_HALF(D, SAT##_rtp) FROM_HALF(D, SAT##_rtn)
#define FROM_HALF_INT(D) FROM_HALF_MODES(D, ) FROM_HALF_MODES(D, _sat)
FROM_HALF_INT(char) FROM_HALF_INT(uchar) FROM_HALF_INT(short)
FROM_HALF_INT(ushort) FROM_HALF_INT(int) FROM_HALF_INT(uint)
FROM_HALF_INT(long) FROM_HALF_INT(ulong)
FROM_HALF_MODES(float, ) FROM_HALF_MODES(double, ) FROM_HALF_MODES(half, )

// Arithmetic written in the kernel itself: what clang and LLVM make of it.
void arith(const global ushort *x, const global ushort *y,
           global ushort *r, int n)
{
    for (int i = 0; i < n; i++) {
        half a = as_half(x[i]), b = as_half(y[i]);
        r[4 * i] = as_ushort((half)(a + b));
        r[4 * i + 1] = as_ushort((half)(a - b));
        r[4 * i + 2] = as_ushort((half)(a * b));
        r[4 * i + 3] = as_ushort((half)(a / b));
    }
}

// ---- math -----------------------------------------------------------------
#define MATH1(F) \
    void F##_1(const global ushort *x, global ushort *r, int n) \
    { for (int i = 0; i < n; i++) r[i] = as_ushort(F(as_half(x[i]))); } \
    void F##_8(const global ushort *x, global ushort *r, int n) \
    { for (int i = 0; i < n / 8; i++) \
        vstore8(as_ushort8(F(as_half8(vload8(i, x)))), i, r); }
#define MATH2(F) \
    void F##_1(const global ushort *x, const global ushort *y, \
               global ushort *r, int n) \
    { for (int i = 0; i < n; i++) \
        r[i] = as_ushort(F(as_half(x[i]), as_half(y[i]))); } \
    void F##_8(const global ushort *x, const global ushort *y, \
               global ushort *r, int n) \
    { for (int i = 0; i < n / 8; i++) \
        vstore8(as_ushort8(F(as_half8(vload8(i, x)), \
                             as_half8(vload8(i, y)))), i, r); }
#define MATH3(F) \
    void F##_1(const global ushort *x, const global ushort *y, \
               const global ushort *z, global ushort *r, int n) \
    { for (int i = 0; i < n; i++) \
        r[i] = as_ushort(F(as_half(x[i]), as_half(y[i]), as_half(z[i]))); } \
    void F##_8(const global ushort *x, const global ushort *y, \
               const global ushort *z, global ushort *r, int n) \
    { for (int i = 0; i < n / 8; i++) \
        vstore8(as_ushort8(F(as_half8(vload8(i, x)), as_half8(vload8(i, y)), \
                             as_half8(vload8(i, z)))), i, r); }

MATH1(acos) MATH1(acosh) MATH1(acospi) MATH1(asin) MATH1(asinh)
MATH1(asinpi) MATH1(atan) MATH1(atanh) MATH1(atanpi) MATH1(cbrt)
MATH1(ceil) MATH1(cos) MATH1(cosh) MATH1(cospi) MATH1(erfc) MATH1(erf)
MATH1(exp) MATH1(exp2) MATH1(exp10) MATH1(expm1) MATH1(fabs) MATH1(floor)
MATH1(lgamma) MATH1(log) MATH1(log2) MATH1(log10) MATH1(log1p)
MATH1(logb) MATH1(rint) MATH1(round) MATH1(rsqrt) MATH1(sin) MATH1(sinh)
MATH1(sinpi) MATH1(sqrt) MATH1(tan) MATH1(tanh) MATH1(tanpi)
MATH1(tgamma) MATH1(trunc)
MATH1(sign) MATH1(degrees) MATH1(radians)
MATH2(atan2) MATH2(atan2pi) MATH2(copysign) MATH2(fdim) MATH2(fmax)
MATH2(fmin) MATH2(fmod) MATH2(hypot) MATH2(maxmag) MATH2(minmag)
MATH2(nextafter) MATH2(pow) MATH2(powr) MATH2(remainder) MATH2(step)
MATH2(max) MATH2(min)
MATH3(fma) MATH3(mad) MATH3(clamp) MATH3(mix) MATH3(smoothstep)

// Functions with an int argument or result, or a second result: 9 half
// results and 3 int ones per element.
void ints(const global ushort *x, const global ushort *y, const global int *k,
          global ushort *r, global int *ri, int n)
{
    for (int i = 0; i < n; i++) {
        half a = as_half(x[i]), b = as_half(y[i]), c, w;
        int e, quo;
        r[9 * i] = as_ushort(ldexp(a, k[i]));
        r[9 * i + 1] = as_ushort(pown(a, k[i]));
        r[9 * i + 2] = as_ushort(rootn(a, k[i]));
        r[9 * i + 3] = as_ushort(frexp(a, &e));
        r[9 * i + 4] = as_ushort(sincos(a, &c));
        r[9 * i + 5] = as_ushort(c);
        r[9 * i + 6] = as_ushort(fract(a, &w));
        r[9 * i + 7] = as_ushort(w);
        r[9 * i + 8] = as_ushort(remquo(a, b, &quo));
        ri[3 * i] = e;
        ri[3 * i + 1] = ilogb(a);
        ri[3 * i + 2] = quo;
    }
}

void modf_nan(const global ushort *x, global ushort *r, int n)
{
    for (int i = 0; i < n; i++) {
        half w;
        r[3 * i] = as_ushort(modf(as_half(x[i]), &w));
        r[3 * i + 1] = as_ushort(w);
        r[3 * i + 2] = as_ushort(nan(x[i]));
    }
}

// ---- relational, select, shuffle, vload -----------------------------------
void relational(const global ushort *x, const global ushort *y,
                global short *r, int n)
{
    for (int i = 0; i < n / 4; i++) {
        half4 a = as_half4(vload4(i, x)), b = as_half4(vload4(i, y));
        short4 v[] = {isequal(a, b), isnotequal(a, b), isgreater(a, b),
                      isgreaterequal(a, b), isless(a, b), islessequal(a, b),
                      islessgreater(a, b), isordered(a, b),
                      isunordered(a, b), isnan(a), isinf(a), isfinite(a),
                      isnormal(a), signbit(a)};
        for (int f = 0; f < 14; f++)
            vstore4(v[f], 14 * i + f, r);
    }
    for (int i = 0; i < n; i++) {
        half a = as_half(x[i]), b = as_half(y[i]);
        int v[] = {isequal(a, b), isnotequal(a, b), isgreater(a, b),
                   isgreaterequal(a, b), isless(a, b), islessequal(a, b),
                   islessgreater(a, b), isordered(a, b), isunordered(a, b),
                   isnan(a), isinf(a), isfinite(a), isnormal(a), signbit(a)};
        for (int f = 0; f < 14; f++)
            r[14 * n + 14 * i + f] = (short)v[f];
    }
}

void vectors(const global ushort *x, global ushort *r)
{
    half8 a = as_half8(vload8(0, x)), b = as_half8(vload8(1, x));
    short8 c = (short8)(0, -1, 0, -1, -1, 0, 0, -1);
    vstore8(as_ushort8(select(a, b, c)), 0, r);
    vstore8(as_ushort8(bitselect(a, b, as_half8(vload8(2, x)))), 1, r);
    vstore4(as_ushort4(shuffle(a, (ushort4)(7, 0, 2, 3 | 0x10))), 4, r);
    vstore4(as_ushort4(shuffle2(a, b, (ushort4)(7, 0, 12, 3 | 0x20))), 5, r);
    // vloadN and vstoreN of half at an odd offset.
    const global half *p = (const global half *)x;
    global half *q = (global half *)r;
    vstore3(vload3(1, p + 1), 1, q + 24 + 1);
    vstore16(vload16(0, p + 1), 0, q + 32 + 1);
    half3 h3 = vload3(0, p);
    vstore3(h3, 0, q + 49);
}

// ---- geometric --------------------------------------------------------------
void geometric(const global ushort *x, const global ushort *y,
               global ushort *r, int n)
{
    for (int i = 0; i < n / 4; i++) {
        half4 a = as_half4(vload4(i, x)), b = as_half4(vload4(i, y));
        r[16 * i] = as_ushort(dot(a, b));
        r[16 * i + 1] = as_ushort(length(a));
        r[16 * i + 2] = as_ushort(distance(a, b));
        vstore4(as_ushort4(normalize(a)), 4 * i + 1, r);
        vstore4(as_ushort4(cross(a, b)), 4 * i + 2, r);
        r[16 * i + 3] = as_ushort(dot(a.s0, b.s0));
        r[16 * i + 12] = as_ushort(length(a.s01));
        r[16 * i + 13] = as_ushort(length(a.s012));
    }
}
