// SPDX-License-Identifier: Apache-2.0
// builtins/math: each function of refcl-builtins.bc under test, over an
// array, at every width (vloadN/vstoreN; vload1 is a plain load). Built
// like a kernel and called from math.c, which checks every element against
// the host's libm.
// k: an int of the width, for the functions with an int argument or result.
#define W1(F, T, S) \
    void F##_##T##1(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n; i++) { T a = pa[i], b = pb[i], c = pc[i]; int k = 0; r[i] = S; (void)k; } }
#define WN(F, T, N, S) \
    void F##_##T##N(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n / N; i++) { T##N a = vload##N(i, pa), b = vload##N(i, pb), c = vload##N(i, pc); \
          int##N k = 0; vstore##N(S, i, r); (void)k; } }
// to_int(v): v as an int of its width, saturated (NaN 0); like(w, k): k
// as w's type; bits(v): v's bit pattern.
#define CONV(T, U, N) \
    int##N __attribute__((overloadable)) to_int(T##N v) { return convert_int##N##_sat(v); } \
    T##N __attribute__((overloadable)) like(T##N w, int##N v) { return convert_##T##N(v); } \
    U##N __attribute__((overloadable)) bits(T##N v) { return as_##U##N(v); }
#define CONVS(T, U) CONV(T, U, ) CONV(T, U, 2) CONV(T, U, 3) CONV(T, U, 4) CONV(T, U, 8) CONV(T, U, 16)
CONVS(float, uint)
CONVS(double, ulong)
#define ALL(F, T, S) W1(F, T, S) WN(F, T, 2, S) WN(F, T, 3, S) WN(F, T, 4, S) WN(F, T, 8, S) WN(F, T, 16, S)
#define U(F, T) ALL(F, T, F(a))
#define B(F, T) ALL(F, T, F(a, b))
#define T3(F, T) ALL(F, T, F(a, b, c))

#define FAMILY(T) \
    U(fabs, T) U(sqrt, T) U(floor, T) U(ceil, T) U(trunc, T) U(round, T) \
    U(rint, T) U(exp, T) U(exp2, T) U(log, T) U(log2, T) U(log10, T) \
    U(sin, T) U(cos, T) U(tan, T) U(atan, T) U(tanh, T) U(rsqrt, T) \
    B(pow, T) B(atan2, T) B(copysign, T) B(fmin, T) B(fmax, T) \
    T3(fma, T) T3(mad, T) U(sign, T) U(degrees, T) U(radians, T) \
    U(acos, T) U(asin, T) U(acosh, T) U(asinh, T) U(atanh, T) U(cosh, T) \
    U(sinh, T) U(erf, T) U(erfc, T) U(exp10, T) U(expm1, T) U(log1p, T) \
    U(tgamma, T) B(hypot, T) B(fmod, T) B(remainder, T) B(fdim, T) \
    B(atan2pi, T) ALL(ldexp_up, T, ldexp(a, 3)) ALL(ldexp_down, T, ldexp(a, -140)) \
    ALL(sincos_sin, T, sincos(a, &c)) ALL(sincos_cos, T, (sincos(a, &c), c)) \
    ALL(modf_fraction, T, modf(a, &c)) ALL(modf_integral, T, (modf(a, &c), c)) \
    B(min, T) B(max, T) T3(clamp, T) T3(mix, T) B(step, T) T3(smoothstep, T) \
    U(cbrt, T) U(sinpi, T) U(cospi, T) U(tanpi, T) U(asinpi, T) U(acospi, T) \
    U(atanpi, T) U(logb, T) B(nextafter, T) B(maxmag, T) B(minmag, T) B(powr, T) \
    U(lgamma, T) ALL(pown, T, pown(a, to_int(b))) ALL(rootn, T, rootn(a, to_int(b))) \
    ALL(ilogb, T, like(a, ilogb(a))) ALL(nan, T, nan(bits(a))) \
    ALL(frexp_mantissa, T, frexp(a, &k)) ALL(frexp_exponent, T, (frexp(a, &k), like(a, k))) \
    ALL(remquo_remainder, T, remquo(a, b, &k)) ALL(remquo_quotient, T, (remquo(a, b, &k), like(a, k))) \
    ALL(lgamma_r_value, T, lgamma_r(a, &k)) ALL(lgamma_r_sign, T, (lgamma_r(a, &k), like(a, k))) \
    ALL(fract_value, T, fract(a, &c)) ALL(fract_floor, T, (fract(a, &c), c))

FAMILY(float)
FAMILY(double)
U(native_sin, float) U(native_exp, float) U(native_sqrt, float)
U(half_log, float) U(half_cos, float) B(native_divide, float) U(native_recip, float)
U(native_exp10, float) U(half_exp10, float) B(native_powr, float)

// Geometric: one scalar result per vector, widths 1 to 4.
#define G1(F, T, N) \
    void F##_##T##N(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n / N; i++) r[i] = F(vload##N(i, pa), vload##N(i, pb)); }
#define G1U(F, T, N) \
    void F##_##T##N(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n / N; i++) r[i] = F(vload##N(i, pa)); }
#define GV(F, T, N) \
    void F##_##T##N(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n / N; i++) vstore##N(F(vload##N(i, pa)), i, r); }
#define GEO(T, N) G1(dot, T, N) G1U(length, T, N) G1(distance, T, N) GV(normalize, T, N)
#define G1S(F, T) \
    void F##_##T##1(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n; i++) r[i] = F(pa[i], pb[i]); }
#define G1US(F, T) \
    void F##_##T##1(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n; i++) r[i] = F(pa[i]); }
#define GEO1(T) G1S(dot, T) G1US(length, T) G1S(distance, T) G1US(normalize, T)
GEO1(float) GEO(float, 2) GEO(float, 3) GEO(float, 4)
GEO1(double) GEO(double, 2) GEO(double, 3) GEO(double, 4)
void cross_float3(const global float *pa, const global float *pb, const global float *pc, global float *r, int n)
{ for (int i = 0; i < n / 3; i++) vstore3(cross(vload3(i, pa), vload3(i, pb)), i, r); }
void cross_double4(const global double *pa, const global double *pb, const global double *pc, global double *r, int n)
{ for (int i = 0; i < n / 4; i++) vstore4(cross(vload4(i, pa), vload4(i, pb)), i, r); }
