// SPDX-License-Identifier: Apache-2.0
// builtins/integer: integer, relational, vload/vstore, conversion and
// atomic functions of refcl-builtins.bc under test, built as OpenCL C 3.0
// without __opencl_c_generic_address_space (so with the named address
// spaces' overloads, like 1.2) and called from integer.c.

// f_T_N(a, b, c, r, n): r = F(a, b, c) per element at width N, the result
// reinterpreted as T (abs and abs_diff are unsigned).
#define W1(F, T, S) \
    void F##_##T##1(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n; i++) { T a = pa[i], b = pb[i], c = pc[i]; r[i] = as_##T(S); } }
#define WN(F, T, N, S) \
    void F##_##T##N(const global T *pa, const global T *pb, const global T *pc, global T *r, int n) \
    { for (int i = 0; i < n / N; i++) { T##N a = vload##N(i, pa), b = vload##N(i, pb), c = vload##N(i, pc); \
          vstore##N(as_##T##N(S), i, r); } }
#define ALL(F, T, S) W1(F, T, S) WN(F, T, 2, S) WN(F, T, 3, S) WN(F, T, 4, S) WN(F, T, 8, S) WN(F, T, 16, S)
#define INTEGER(T) \
    ALL(abs, T, abs(a)) ALL(abs_diff, T, abs_diff(a, b)) ALL(add_sat, T, add_sat(a, b)) \
    ALL(sub_sat, T, sub_sat(a, b)) ALL(hadd, T, hadd(a, b)) ALL(rhadd, T, rhadd(a, b)) \
    ALL(min, T, min(a, b)) ALL(max, T, max(a, b)) ALL(clamp, T, clamp(a, min(b, c), max(b, c))) \
    ALL(mul_hi, T, mul_hi(a, b)) ALL(mad_hi, T, mad_hi(a, b, c)) ALL(mad_sat, T, mad_sat(a, b, c)) \
    ALL(rotate, T, rotate(a, b)) \
    ALL(clz, T, clz(a)) ALL(ctz, T, ctz(a)) ALL(popcount, T, popcount(a)) \
    ALL(bitselect, T, bitselect(a, b, c)) ALL(select, T, select(a, b, c))
INTEGER(char) INTEGER(uchar) INTEGER(short) INTEGER(ushort)
INTEGER(int) INTEGER(uint) INTEGER(long) INTEGER(ulong)
ALL(mul24, int, mul24(a & 0x7fffff, b & 0x7fffff)) ALL(mad24, int, mad24(a & 0x7fffff, b & 0x7fffff, c))

void upsample_short4(const global char *hi, const global uchar *lo, global short *r)
{ vstore4(upsample(vload4(0, hi), vload4(0, lo)), 0, r); }
void upsample_uint1(const global ushort *hi, const global ushort *lo, global uint *r)
{ r[0] = upsample(hi[0], lo[0]); }
void upsample_long3(const global int *hi, const global uint *lo, global long *r)
{ vstore3(upsample(vload3(0, hi), vload3(0, lo)), 0, r); }

// Relational: r[k] is the int (scalar) or long (double4) result.
void relational_float1(const global float *a, const global float *b, global int *r)
{
    r[0] = isequal(a[0], b[0]); r[1] = isnotequal(a[0], b[0]); r[2] = isgreater(a[0], b[0]);
    r[3] = isless(a[0], b[0]); r[4] = isnan(a[0]); r[5] = isinf(a[0]); r[6] = isfinite(a[0]);
    r[7] = signbit(a[0]); r[8] = isnormal(a[0]); r[9] = isunordered(a[0], b[0]);
    r[10] = islessgreater(a[0], b[0]); r[11] = isordered(a[0], b[0]);
}
void relational_double4(const global double *a, const global double *b, global long *r)
{
    double4 x = vload4(0, a), y = vload4(0, b);
    vstore4(isequal(x, y), 0, r); vstore4(isnan(x), 1, r); vstore4(isinf(x), 2, r);
    vstore4(signbit(x), 3, r); vstore4(isless(x, y), 4, r); vstore4(isnormal(x), 5, r);
}
void any_all(const global int *a, global int *r)
{
    int4 x = vload4(0, a);
    r[0] = any(x); r[1] = all(x); r[2] = any(x.s0); r[3] = all(x.s1);
    r[4] = any((char16)(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1));
    r[5] = all((long3)(-1, -1, 0));
}
void select_float4(const global float *a, const global float *b, const global uint *c, global float *r)
{ vstore4(select(vload4(0, a), vload4(0, b), vload4(0, c)), 0, r); }
// bitselect of floating types: bits, not values.
void bitselect_float1(const global float *a, const global float *b, const global float *c, global float *r)
{ r[0] = bitselect(a[0], b[0], c[0]); }
void bitselect_double3(const global double *a, const global double *b, const global double *c, global double *r)
{ vstore3(bitselect(vload3(0, a), vload3(0, b), vload3(0, c)), 0, r); }

// vload/vstore at unaligned offsets, in every named address space.
void vload_global(const global float *p, global float *r, size_t offset)
{ vstore16(vload16(0, p + offset), 0, r); vstore3(vload3(1, p + offset), 0, r + 16); }
void vload_constant(constant double *p, global double *r, size_t offset)
{ vstore8(vload8(0, p + offset), 0, r); }
void vload_local(local short *p, global short *r, size_t offset)
{ vstore2(vload2(0, p + offset), 0, r); vstore3(vload3(0, p + offset), 1, r + 1); }
void vload_private(const global uchar *p, global uchar *r)
{
    uchar copy[20];
    for (int i = 0; i < 20; i++) copy[i] = p[i];
    uchar4 v = vload4(1, copy + 1);
    vstore4(v, 0, copy + 3);
    for (int i = 0; i < 20; i++) r[i] = copy[i];
}

// Conversions with the default rounding.
void convert(const global float *f, const global double *d, const global int *i, global int *ri,
             global float *rf, global uchar *ru, global double *rd)
{
    vstore4(convert_int4(vload4(0, f)), 0, ri);
    vstore4(convert_float4(vload4(0, i)), 0, rf);
    vstore3(convert_uchar3(vload3(0, d)), 0, ru);
    vstore2(convert_double2(vload2(0, i)), 0, rd);
    ri[4] = convert_int(d[3]);
}

// 32-bit atomics: every function once, and contended increments.
void atomics_once(global int *g, local uint *l, global int *r)
{
    r[0] = atomic_add(g, 5); r[1] = atomic_sub(g, 2); r[2] = atomic_xchg(g, 10);
    r[3] = atomic_inc(g); r[4] = atomic_dec(g); r[5] = atomic_cmpxchg(g, 10, 20);
    r[6] = atomic_cmpxchg(g, 10, 30); r[7] = atomic_min(g, -4); r[8] = atomic_max(g, 7);
    r[9] = atomic_and(g, 6); r[10] = atomic_or(g, 9); r[11] = atomic_xor(g, 3);
    r[12] = atom_add(g, 1); r[13] = *g;
    r[14] = (int)atom_max(l, 0x80000000u); r[15] = (int)atomic_min(l, 3u); r[16] = (int)*l;
    r[17] = (int)as_uint(atomic_xchg((volatile global float *)(g + 1), 2.5f));
}
void atomics_contend(global int *counter, int n)
{ for (int i = 0; i < n; i++) { atomic_inc(counter); atom_add(counter, 2); } }
void fence(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE); }
