// SPDX-License-Identifier: Apache-2.0
typedef struct { int a; float b; int c[6]; } big;
typedef struct { int a; int b; } pair;

// A struct by value is each work-item's own copy: writing it changes
// nothing that another work-item sees.
__kernel void byval(big s, pair p, __global int *out)
{
    int g = (int)get_global_id(0);
    s.a += g;
    s.c[g % 6] *= 2;
    p.b += g;
    out[g] = s.a + s.c[g % 6] + (int)s.b + p.a * 100 + p.b;
}

__kernel void vectors(float4 f, long16 l, char3 c, float2 h, __global long *out)
{
    out[0] = (long)(f.x + f.y * 10 + f.z * 100 + f.w * 1000);
    for (int i = 0; i < 16; i++)
        out[1 + i] = l[i];
    out[17] = c.x + c.y * 1000 + c.z * 1000000;
    out[18] = (long)(h.x * h.y);
}

__kernel void many(char a0, uchar a1, short a2, ushort a3, int a4, uint a5, long a6,
                   ulong a7, float a8, double a9, __global long *out, int a11,
                   long a12, int a13, long a14, int a15, long a16, int a17, long a18,
                   int a19, long a20, int a21, __constant int *a22)
{
    out[get_global_id(0)] = a0 + a1 * 2 + a2 * 3 + a3 * 4 + a4 * 5 + a5 * 6 + a6 * 7 + a7 * 8
        + (long)a8 * 9 + (long)a9 * 10 + a11 * 11 + a12 * 12 + a13 * 13 + a14 * 14 + a15 * 15
        + a16 * 16 + a17 * 17 + a18 * 18 + a19 * 19 + a20 * 20 + a21 * 21 + a22[1] * 22;
}
