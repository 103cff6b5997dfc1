// SPDX-License-Identifier: Apache-2.0
// Images from OpenCL C 1.2, refcl's default language (tests/compiler/image.c):
// the library's overloads, compiled as 3.0, must be the ones 1.2 kernels call.

kernel void sampled_2d(read_only image2d_t img, sampler_t s, global const float4 *c,
                       global uint4 *out, int which)
{
    size_t i = get_global_id(0);
    out[i] = which == 0 ? as_uint4(read_imagef(img, s, c[i].xy))
           : which == 1 ? as_uint4(read_imagei(img, s, c[i].xy))
                        : read_imageui(img, s, c[i].xy);
}

kernel void write_2d(write_only image2d_t img, global const int4 *c, global const uint4 *color,
                     int which)
{
    size_t i = get_global_id(0);
    if (which == 0)
        write_imagef(img, c[i].xy, as_float4(color[i]));
    else if (which == 1)
        write_imagei(img, c[i].xy, as_int4(color[i]));
    else
        write_imageui(img, c[i].xy, color[i]);
}
