// SPDX-License-Identifier: Apache-2.0
// Images through the builtin library (tests/compiler/image.c): for each
// image type, reads with a sampler (float and integer coordinates), reads
// without one, writes, reads and writes of read_write images, and the
// queries. Work-item i takes coordinate c[i]; `which` picks read_imagef,
// read_imagei or read_imageui (0, 1, 2) and the matching write. Results
// and colours travel as bits (uint4).

#define PICK_READ(CALL_F, CALL_I, CALL_U)                                   \
    (which == 0 ? as_uint4(CALL_F) : which == 1 ? as_uint4(CALL_I) : CALL_U)

#define PICK_WRITE(img, coord, color)                                       \
    do {                                                                    \
        if (which == 0)                                                     \
            write_imagef(img, coord, as_float4(color));                     \
        else if (which == 1)                                                \
            write_imagei(img, coord, as_int4(color));                       \
        else                                                                \
            write_imageui(img, coord, color);                               \
    } while (0)

// SWZ turns a float4 or int4 into the type's coordinate.
#define SAMPLED(NAME, IMAGE, SWZ)                                           \
    kernel void sampled_##NAME(read_only IMAGE img, sampler_t s,            \
                               global const float4 *c, global uint4 *out,   \
                               int which)                                   \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = PICK_READ(read_imagef(img, s, c[i] SWZ),                   \
                           read_imagei(img, s, c[i] SWZ),                   \
                           read_imageui(img, s, c[i] SWZ));                 \
    }                                                                       \
    kernel void sampled_int_##NAME(read_only IMAGE img, sampler_t s,        \
                                   global const int4 *c, global uint4 *out, \
                                   int which)                               \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = PICK_READ(read_imagef(img, s, c[i] SWZ),                   \
                           read_imagei(img, s, c[i] SWZ),                   \
                           read_imageui(img, s, c[i] SWZ));                 \
    }

#define PLAIN(NAME, IMAGE, SWZ)                                             \
    kernel void plain_##NAME(read_only IMAGE img, global const int4 *c,     \
                             global uint4 *out, int which)                  \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = PICK_READ(read_imagef(img, c[i] SWZ),                      \
                           read_imagei(img, c[i] SWZ),                      \
                           read_imageui(img, c[i] SWZ));                    \
    }                                                                       \
    kernel void write_##NAME(write_only IMAGE img, global const int4 *c,    \
                             global const uint4 *color, int which)          \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        PICK_WRITE(img, c[i] SWZ, color[i]);                                \
    }                                                                       \
    kernel void rw_##NAME(read_write IMAGE img, global const int4 *c,       \
                          global const uint4 *color, global uint4 *out,     \
                          int which)                                        \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = PICK_READ(read_imagef(img, c[i] SWZ),                      \
                           read_imagei(img, c[i] SWZ),                      \
                           read_imageui(img, c[i] SWZ));                    \
        PICK_WRITE(img, c[i] SWZ, color[i]);                                \
    }

// Depth images: one float, in .x.
#define DEPTH(NAME, IMAGE, SWZ)                                             \
    kernel void sampled_##NAME(read_only IMAGE img, sampler_t s,            \
                               global const float4 *c, global uint4 *out,   \
                               int which)                                   \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = (uint4)(as_uint(read_imagef(img, s, c[i] SWZ)), 0, 0, 0);  \
    }                                                                       \
    kernel void sampled_int_##NAME(read_only IMAGE img, sampler_t s,        \
                                   global const int4 *c, global uint4 *out, \
                                   int which)                               \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = (uint4)(as_uint(read_imagef(img, s, c[i] SWZ)), 0, 0, 0);  \
    }                                                                       \
    kernel void plain_##NAME(read_only IMAGE img, global const int4 *c,     \
                             global uint4 *out, int which)                  \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = (uint4)(as_uint(read_imagef(img, c[i] SWZ)), 0, 0, 0);     \
    }                                                                       \
    kernel void write_##NAME(write_only IMAGE img, global const int4 *c,    \
                             global const uint4 *color, int which)          \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        write_imagef(img, c[i] SWZ, as_float(color[i].x));                  \
    }                                                                       \
    kernel void rw_##NAME(read_write IMAGE img, global const int4 *c,       \
                          global const uint4 *color, global uint4 *out,     \
                          int which)                                        \
    {                                                                       \
        size_t i = get_global_id(0);                                        \
        out[i] = (uint4)(as_uint(read_imagef(img, c[i] SWZ)), 0, 0, 0);     \
        write_imagef(img, c[i] SWZ, as_float(color[i].x));                  \
    }

// The queries: width, channel data type, channel order, then height,
// depth, dim and array size where the type has them (-1 where not).
#define QUERY(NAME, Q, IMAGE, HEIGHT, DEPTH_, DIM, ARRAY)                   \
    kernel void query_##NAME(Q IMAGE img, global int *out)                  \
    {                                                                       \
        out[0] = get_image_width(img);                                      \
        out[1] = get_image_channel_data_type(img);                          \
        out[2] = get_image_channel_order(img);                              \
        out[3] = HEIGHT;                                                    \
        out[4] = DEPTH_;                                                    \
        int4 dim = DIM;                                                     \
        out[5] = dim.x;                                                     \
        out[6] = dim.y;                                                     \
        out[7] = dim.z;                                                     \
        out[8] = dim.w;                                                     \
        out[9] = ARRAY;                                                     \
    }

#define QUERIES(NAME, IMAGE, HEIGHT, DEPTH_, DIM, ARRAY)                    \
    QUERY(NAME, read_only, IMAGE, HEIGHT, DEPTH_, DIM, ARRAY)               \
    QUERY(NAME##_wo, write_only, IMAGE, HEIGHT, DEPTH_, DIM, ARRAY)         \
    QUERY(NAME##_rw, read_write, IMAGE, HEIGHT, DEPTH_, DIM, ARRAY)

SAMPLED(1d, image1d_t, .x)
SAMPLED(1d_array, image1d_array_t, .xy)
SAMPLED(2d, image2d_t, .xy)
SAMPLED(2d_array, image2d_array_t, )
SAMPLED(3d, image3d_t, )
PLAIN(1d, image1d_t, .x)
PLAIN(1d_buffer, image1d_buffer_t, .x)
PLAIN(1d_array, image1d_array_t, .xy)
PLAIN(2d, image2d_t, .xy)
PLAIN(2d_array, image2d_array_t, )
PLAIN(3d, image3d_t, )
DEPTH(2d_depth, image2d_depth_t, .xy)
DEPTH(2d_array_depth, image2d_array_depth_t, )

QUERIES(1d, image1d_t, -1, -1, (int4)(-1), -1)
QUERIES(1d_buffer, image1d_buffer_t, -1, -1, (int4)(-1), -1)
QUERIES(1d_array, image1d_array_t, -1, -1, (int4)(-1), (int)get_image_array_size(img))
QUERIES(2d, image2d_t, get_image_height(img), -1, (int4)(get_image_dim(img), -1, -1), -1)
QUERIES(2d_array, image2d_array_t, get_image_height(img), -1,
        (int4)(get_image_dim(img), -1, -1), (int)get_image_array_size(img))
QUERIES(3d, image3d_t, get_image_height(img), get_image_depth(img), get_image_dim(img), -1)
QUERIES(2d_depth, image2d_depth_t, get_image_height(img), -1,
        (int4)(get_image_dim(img), -1, -1), -1)
QUERIES(2d_array_depth, image2d_array_depth_t, get_image_height(img), -1,
        (int4)(get_image_dim(img), -1, -1), (int)get_image_array_size(img))

// Samplers that are not arguments: a program-scope constant and a
// literal, which clang 15 makes calls of __translate_sampler_initializer.
const sampler_t program_sampler =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;

kernel void literal_samplers(read_only image2d_t img, global const float4 *c,
                             global float4 *out)
{
    size_t i = get_global_id(0);
    out[2 * i] = read_imagef(img, program_sampler, c[i].xy);
    out[2 * i + 1] = read_imagef(
        img, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST, c[i].xy);
}
