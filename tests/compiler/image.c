/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Images and samplers through the builtin library (compiler/lib/src/
 * image.cl): kernels of kernels/image.cl, compiled with the library as the
 * driver does, run on struct refcl_abi_image descriptors over host memory
 * (the argument slots filled by hand, as the runtime fills them), each
 * result checked against a reference written here from the OpenCL C 3.0
 * spec ("Image Addressing and Filtering", "Conversion Rules", "Selecting an
 * Image From an Image Array"): every image type, channel orders and data
 * types, every addressing mode with normalized and unnormalized
 * coordinates, both filters, integer coordinates with and without a
 * sampler, writes of every kind (nothing outside a written texel may
 * change), read_write images, the queries, samplers that are not
 * arguments, and kernels in OpenCL C 1.2. Exact where the spec's rules are
 * exact; linear filtering within 1e-5 (relative), sRGB reads within a few
 * ulp of powr's, sRGB writes within the spec's 0.6. `image <case>`.
 */

#include "check.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

_Atomic int test_failures;

#define ARG(v) {&(v), sizeof(v)}
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every image's size: 5 x 4 x 3 texels, 3 layers. */
enum { WIDTH = 5, HEIGHT = 4, DEPTH = 3, LAYERS = 3 };
/* Coordinates per kernel run. */
enum { RUN = 96 };

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Uniform in [lo, hi). */
static float rnd_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- Formats ---------------------------------------------------------- */

struct format {
    uint32_t order, type;
};

static const struct format color_formats[] = {
    {CL_RGBA, CL_UNORM_INT8}, {CL_BGRA, CL_UNORM_INT8}, {CL_ARGB, CL_SNORM_INT8},
    {CL_ABGR, CL_UNORM_INT16}, {CL_R, CL_SNORM_INT16}, {CL_A, CL_HALF_FLOAT},
    {CL_RG, CL_FLOAT}, {CL_RA, CL_UNORM_INT8}, {CL_RGB, CL_UNORM_SHORT_565},
    {CL_RGBx, CL_UNORM_SHORT_555}, {CL_RGB, CL_UNORM_INT_101010},
    {CL_RGBA, CL_UNORM_INT_101010_2}, {CL_INTENSITY, CL_FLOAT},
    {CL_LUMINANCE, CL_UNORM_INT16}, {CL_Rx, CL_HALF_FLOAT}, {CL_RGx, CL_SNORM_INT8},
    {CL_RGBx, CL_UNORM_INT16}, {CL_sRGBA, CL_UNORM_INT8}, {CL_sBGRA, CL_UNORM_INT8},
    {CL_sRGB, CL_UNORM_INT8}, {CL_sRGBx, CL_UNORM_INT8}, {CL_RGBA, CL_HALF_FLOAT},
    {CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_SNORM_INT16}, {CL_INTENSITY, CL_UNORM_INT8},
    {CL_LUMINANCE, CL_FLOAT},
    {CL_RGBA, CL_SIGNED_INT8}, {CL_RG, CL_SIGNED_INT16}, {CL_R, CL_SIGNED_INT32},
    {CL_RGBA, CL_UNSIGNED_INT8}, {CL_RA, CL_UNSIGNED_INT16}, {CL_A, CL_UNSIGNED_INT32},
    {CL_RGx, CL_SIGNED_INT16}, {CL_BGRA, CL_UNSIGNED_INT8}, {CL_RGBA, CL_SIGNED_INT32},
    {CL_ARGB, CL_UNSIGNED_INT16}, {CL_Rx, CL_UNSIGNED_INT8}, {CL_RGBx, CL_SIGNED_INT8},
};

static const struct format depth_formats[] = {
    {CL_DEPTH, CL_UNORM_INT16}, {CL_DEPTH, CL_FLOAT},
};

/* Which read and write functions a format takes: 0 f, 1 i, 2 ui. */
static int kind_of(uint32_t type)
{
    switch (type) {
    case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32: return 1;
    case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32: return 2;
    default: return 0;
    }
}

/* The channels an order names (OpenCL 3.0 API, "List of supported Image
 * Channel Order Values"). */
static unsigned order_channels(uint32_t order)
{
    switch (order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return 1;
    case CL_RG: case CL_RA: case CL_Rx: return 2;
    case CL_RGB: case CL_RGx: case CL_sRGB: return 3;
    default: return 4;
    }
}

static bool is_packed(uint32_t type)
{
    return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 ||
           type == CL_UNORM_INT_101010 || type == CL_UNORM_INT_101010_2;
}

static bool is_srgb(uint32_t order)
{
    return order == CL_sRGB || order == CL_sRGBA || order == CL_sBGRA || order == CL_sRGBx;
}

/* Bytes of one channel (non-packed types). */
static unsigned channel_bytes(uint32_t type)
{
    switch (type) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
    default: return 2;
    }
}

static unsigned element_bytes(struct format f)
{
    if (is_packed(f.type))
        return f.type == CL_UNORM_SHORT_565 || f.type == CL_UNORM_SHORT_555 ? 2 : 4;
    return order_channels(f.order) * channel_bytes(f.type);
}

/* A packed type's fields, first channel first: "R is in bits 15:11, G is
 * in bits 10:5 and B is in bits 4:0" (565), "bit 15 is undefined, R is in
 * bits 14:10, G in bits 9:5 and B in bits 4:0" (555), "bits 31:30 are
 * undefined, R is in bits 29:20, G in bits 19:10 and B in bits 9:0"
 * (101010), "R is in bits 31:22, G in bits 21:12, B in bits 11:2 and A in
 * bits 1:0" (101010_2). */
struct field {
    unsigned shift, bits;
};

static unsigned packed_fields(uint32_t type, struct field f[4])
{
    static const struct field f565[] = {{11, 5}, {5, 6}, {0, 5}};
    static const struct field f555[] = {{10, 5}, {5, 5}, {0, 5}};
    static const struct field f101010[] = {{20, 10}, {10, 10}, {0, 10}};
    static const struct field f101010_2[] = {{22, 10}, {12, 10}, {2, 10}, {0, 2}};
    const struct field *src = type == CL_UNORM_SHORT_565 ? f565
                              : type == CL_UNORM_SHORT_555 ? f555
                              : type == CL_UNORM_INT_101010 ? f101010 : f101010_2;
    unsigned n = type == CL_UNORM_INT_101010_2 ? 4 : 3;
    memcpy(f, src, n * sizeof *f);
    return n;
}

/* Which stored channel gives r, g, b and a (-1: none) — the spec's table
 * "Mapping Image Channels to Color Values": (r, 0.0, 0.0, 1.0) for CL_R and
 * CL_Rx, (0.0, 0.0, 0.0, a) for CL_A, (I, I, I, I), (L, L, L, 1.0)... */
static void channel_map(uint32_t order, int map[4])
{
    static const struct { uint32_t order; int map[4]; } table[] = {
        {CL_R, {0, -1, -1, -1}}, {CL_Rx, {0, -1, -1, -1}}, {CL_DEPTH, {0, -1, -1, -1}},
        {CL_A, {-1, -1, -1, 0}}, {CL_RG, {0, 1, -1, -1}}, {CL_RGx, {0, 1, -1, -1}},
        {CL_RA, {0, -1, -1, 1}}, {CL_RGB, {0, 1, 2, -1}}, {CL_RGBx, {0, 1, 2, -1}},
        {CL_sRGB, {0, 1, 2, -1}}, {CL_sRGBx, {0, 1, 2, -1}}, {CL_RGBA, {0, 1, 2, 3}},
        {CL_sRGBA, {0, 1, 2, 3}}, {CL_BGRA, {2, 1, 0, 3}}, {CL_sBGRA, {2, 1, 0, 3}},
        {CL_ARGB, {1, 2, 3, 0}}, {CL_ABGR, {3, 2, 1, 0}}, {CL_INTENSITY, {0, 0, 0, 0}},
        {CL_LUMINANCE, {0, 0, 0, -1}},
    };
    for (size_t i = 0; i < COUNT(table); i++)
        if (table[i].order == order) {
            memcpy(map, table[i].map, sizeof table[i].map);
            return;
        }
    REQUIRE(0);
}

/* ---- Host images -------------------------------------------------------- */

struct shape {
    const char *name;
    uint32_t mem_type;
    int dims;  /* filtered coordinates */
    int layer; /* 0, or the coordinate (1 y, 2 z) naming a layer */
    bool sampled, depth;
};

static const struct shape shapes[] = {
    {"1d", CL_MEM_OBJECT_IMAGE1D, 1, 0, true, false},
    {"1d_buffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, 1, 0, false, false},
    {"1d_array", CL_MEM_OBJECT_IMAGE1D_ARRAY, 1, 1, true, false},
    {"2d", CL_MEM_OBJECT_IMAGE2D, 2, 0, true, false},
    {"2d_array", CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 2, true, false},
    {"3d", CL_MEM_OBJECT_IMAGE3D, 3, 0, true, false},
    {"2d_depth", CL_MEM_OBJECT_IMAGE2D, 2, 0, true, true},
    {"2d_array_depth", CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 2, true, true},
};

/* An image in the middle of a block whose other bytes (row and slice
 * padding, 64 bytes before and after) hold random garbage. */
struct host_image {
    struct refcl_abi_image desc;
    struct format format;
    const struct shape *shape;
    int extent[3]; /* texels along x, y, z, layers included */
    unsigned char *block;
    size_t bytes;
};

enum { GUARD = 64 };

/* A channel value a float format may hold: finite, in [-4, 4]. */
static uint32_t random_channel(uint32_t type)
{
    if (type == CL_FLOAT)
        return float_bits(rnd_float(-4.0f, 4.0f));
    if (type == CL_HALF_FLOAT) /* sign, exponent 0-16 (up to 4), mantissa */
        return (rnd() & 0x8000) | (rnd() % 17) << 10 | (rnd() & 0x3ff);
    return rnd();
}

static void write_le(unsigned char *p, uint32_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static uint32_t read_le(const unsigned char *p, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static unsigned char *texel(const struct host_image *im, const int c[3])
{
    return im->desc.data + (size_t)c[0] * im->desc.element_size +
           (size_t)c[1] * im->desc.row_pitch + (size_t)c[2] * im->desc.slice_pitch;
}

static void fill_texels(struct host_image *im)
{
    unsigned es = im->desc.element_size;
    int c[3];
    for (c[2] = 0; c[2] < im->extent[2]; c[2]++)
        for (c[1] = 0; c[1] < im->extent[1]; c[1]++)
            for (c[0] = 0; c[0] < im->extent[0]; c[0]++) {
                unsigned char *p = texel(im, c);
                if (is_packed(im->format.type)) {
                    write_le(p, rnd(), es);
                    continue;
                }
                unsigned cb = channel_bytes(im->format.type);
                for (unsigned k = 0; k < es / cb; k++)
                    write_le(p + k * cb, random_channel(im->format.type), cb);
            }
}

static void image_create(struct host_image *im, const struct shape *s, struct format f)
{
    memset(im, 0, sizeof *im);
    im->shape = s;
    im->format = f;
    unsigned es = element_bytes(f);
    struct refcl_abi_image *d = &im->desc;
    d->width = WIDTH;
    d->height = s->dims > 1 ? HEIGHT : 1;
    d->depth = s->dims > 2 ? DEPTH : 1;
    d->array_size = s->layer ? LAYERS : 1;
    d->channel_data_type = f.type;
    d->channel_order = f.order;
    d->element_size = es;
    d->num_channels = order_channels(f.order);
    d->type = s->mem_type;
    d->row_pitch = (WIDTH + 2) * es; /* two texels of padding a row */
    im->extent[0] = WIDTH;
    im->extent[1] = s->layer == 1 ? LAYERS : (int)d->height;
    im->extent[2] = s->layer == 2 ? LAYERS : (int)d->depth;
    size_t image_bytes = d->row_pitch * (size_t)im->extent[1];
    if (s->layer == 1) { /* a layer is a row */
        d->slice_pitch = d->row_pitch;
    } else if (s->dims == 3 || s->layer == 2) { /* a row of padding a slice */
        d->slice_pitch = d->row_pitch * (HEIGHT + 1);
        image_bytes = d->slice_pitch * (size_t)im->extent[2];
    }
    im->bytes = image_bytes + 2 * GUARD;
    im->block = malloc(im->bytes);
    REQUIRE(im->block != NULL);
    for (size_t i = 0; i < im->bytes; i++)
        im->block[i] = (unsigned char)rnd();
    d->data = im->block + GUARD;
    fill_texels(im);
}

static void image_free(struct host_image *im)
{
    free(im->block);
}

static bool inside(const struct host_image *im, const int c[3])
{
    for (int a = 0; a < 3; a++)
        if (c[a] < 0 || c[a] >= im->extent[a])
            return false;
    return true;
}

/* ---- Reference reads ---------------------------------------------------- */

/* A half's value. */
static float half_value(uint32_t h)
{
    int e = h >> 10 & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(1024 + m), e - 25);
    return h & 0x8000 ? -v : v;
}

/* Stored channel k of texel p as an integer (zero-extended bits). */
static uint32_t stored_bits(struct format f, const unsigned char *p, unsigned k)
{
    if (is_packed(f.type)) {
        struct field fields[4];
        unsigned n = packed_fields(f.type, fields);
        uint32_t v = read_le(p, element_bytes(f));
        return k < n ? v >> fields[k].shift & ((1u << fields[k].bits) - 1) : 0;
    }
    unsigned cb = channel_bytes(f.type);
    return read_le(p + k * cb, cb);
}

/* Stored channel k as read_imagef converts it ("Converting Normalized
 * Integer Channel Data Types to Floating-point Values"). */
static float stored_float(struct format f, const unsigned char *p, unsigned k)
{
    uint32_t c = stored_bits(f, p, k);
    switch (f.type) {
    case CL_UNORM_INT8: return (float)c / 255.0f;
    case CL_UNORM_INT16: return (float)c / 65535.0f;
    case CL_SNORM_INT8: return fmaxf(-1.0f, (float)(int8_t)c / 127.0f);
    case CL_SNORM_INT16: return fmaxf(-1.0f, (float)(int16_t)c / 32767.0f);
    case CL_HALF_FLOAT: return half_value(c);
    case CL_FLOAT: return bits_float(c);
    case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32:
        return 0.0f; /* read_imagef of an integer format: undefined, unused */
    default: { /* packed: "(float)c / 1023.0f" and likewise per field */
        struct field fields[4];
        packed_fields(f.type, fields);
        return (float)c / (float)((1u << fields[k].bits) - 1);
    }
    }
}

/* Stored channel k as read_imagei / read_imageui return it: "after sign
 * extension to 32 bits" or "after zero extension". */
static uint32_t stored_int(struct format f, const unsigned char *p, unsigned k)
{
    uint32_t c = stored_bits(f, p, k);
    switch (f.type) {
    case CL_SIGNED_INT8: return (uint32_t)(int32_t)(int8_t)c;
    case CL_SIGNED_INT16: return (uint32_t)(int32_t)(int16_t)c;
    default: return c;
    }
}

/* "if (c <= 0.04045), result = c / 12.92; else result = powr((c + 0.055) /
 * 1.055, 2.4);" */
static float srgb_linear(float c)
{
    return c <= 0.04045f ? (float)(c / 12.92) : (float)pow((c + 0.055) / 1.055, 2.4);
}

/* The border colour: "(0.0f, 0.0f, 0.0f, 1.0f)" for CL_R, CL_RG, CL_RGB,
 * CL_LUMINANCE (and CL_sRGB, which the spec does not list), else 0. */
static bool border_alpha_one(uint32_t order)
{
    return order == CL_R || order == CL_RG || order == CL_RGB || order == CL_LUMINANCE ||
           order == CL_sRGB;
}

/* Texel c as read_imagef (f) or read_image{i,ui} (bits) sees it. */
static void ref_texel(const struct host_image *im, const int c[3], float f[4], uint32_t bits[4])
{
    struct format fmt = im->format;
    bool one = border_alpha_one(fmt.order);
    if (!inside(im, c)) {
        for (int j = 0; j < 4; j++) {
            f[j] = j == 3 && one ? 1.0f : 0.0f;
            bits[j] = j == 3 && one ? 1 : 0;
        }
        return;
    }
    int map[4];
    channel_map(fmt.order, map);
    const unsigned char *p = texel(im, c);
    for (int j = 0; j < 4; j++) {
        f[j] = map[j] < 0 ? (j == 3 ? 1.0f : 0.0f) : stored_float(fmt, p, (unsigned)map[j]);
        bits[j] = map[j] < 0 ? (j == 3 ? 1 : 0) : stored_int(fmt, p, (unsigned)map[j]);
        if (is_srgb(fmt.order) && j < 3)
            f[j] = srgb_linear(f[j]);
    }
}

/* The table "Addressing modes to generate texel location". */
static int address_mode(int coord, int size, uint32_t mode)
{
    if (mode == REFCL_ABI_SAMPLER_CLAMP_TO_EDGE)
        return coord < 0 ? 0 : coord > size - 1 ? size - 1 : coord;
    if (mode == REFCL_ABI_SAMPLER_CLAMP)
        return coord < -1 ? -1 : coord > size ? size : coord;
    return coord;
}

/* One filtered axis: the texels (i0, and i1 for the linear filter) and the
 * weight a, as the spec computes them for the sampler's mode. */
static void ref_axis(float s, int size, uint32_t sampler, bool linear, int *i0, int *i1,
                     float *a)
{
    uint32_t mode = sampler & REFCL_ABI_SAMPLER_ADDRESS_MASK;
    float u;
    if (mode == REFCL_ABI_SAMPLER_REPEAT) {
        u = (s - floorf(s)) * (float)size;
        if (!linear) {
            *i0 = (int)floorf(u);
            if (*i0 > size - 1)
                *i0 = *i0 - size;
        } else {
            *i0 = (int)floorf(u - 0.5f);
            *i1 = *i0 + 1;
            if (*i0 < 0)
                *i0 = size + *i0;
            if (*i1 > size - 1)
                *i1 = *i1 - size;
        }
    } else if (mode == REFCL_ABI_SAMPLER_MIRRORED_REPEAT) {
        float s_prime = 2.0f * rintf(0.5f * s);
        s_prime = fabsf(s - s_prime);
        u = s_prime * (float)size;
        if (!linear) {
            *i0 = (int)floorf(u);
            *i0 = *i0 < size - 1 ? *i0 : size - 1;
        } else {
            *i0 = (int)floorf(u - 0.5f);
            *i1 = *i0 + 1;
            *i0 = *i0 > 0 ? *i0 : 0;
            *i1 = *i1 < size - 1 ? *i1 : size - 1;
        }
    } else {
        u = sampler & REFCL_ABI_SAMPLER_NORMALIZED ? s * (float)size : s;
        if (!linear) {
            *i0 = address_mode((int)floorf(u), size, mode);
        } else {
            *i0 = address_mode((int)floorf(u - 0.5f), size, mode);
            *i1 = address_mode((int)floorf(u - 0.5f) + 1, size, mode);
        }
    }
    float x = u - 0.5f;
    *a = x - floorf(x);
}

/* read_image{f,i,ui} with a sampler and float coordinates c. */
static void ref_sample(const struct host_image *im, uint32_t sampler, const float c[4],
                       float f[4], uint32_t bits[4])
{
    const struct shape *s = im->shape;
    bool linear = (sampler & REFCL_ABI_SAMPLER_FILTER_MASK) == REFCL_ABI_SAMPLER_LINEAR && kind_of(im->format.type) == 0;
    int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    for (int d = 0; d < s->dims; d++)
        ref_axis(c[d], im->extent[d], sampler, linear, &i0[d], &i1[d], &a[d]);
    if (s->layer) { /* "layer = clamp(rint(w), 0, d_t - 1)" */
        float w = rintf(c[s->layer]);
        int n = im->extent[s->layer];
        i0[s->layer] = w < 0 ? 0 : w > (float)(n - 1) ? n - 1 : (int)w;
        i1[s->layer] = i0[s->layer];
    }
    if (!linear) {
        ref_texel(im, i0, f, bits);
        return;
    }
    /* T = (1 - a) * (1 - b) * (1 - c) * T_i0j0k0 + a * (1 - b) * ... */
    float sum[4] = {0, 0, 0, 0};
    int corners = s->dims == 1 ? 2 : s->dims == 2 ? 4 : 8;
    for (int k = 0; k < corners; k++) {
        int at[3];
        float w = 1.0f;
        for (int d = 0; d < 3; d++) {
            bool second = d < s->dims && (k >> d & 1);
            at[d] = second ? i1[d] : i0[d];
            if (d < s->dims)
                w *= second ? a[d] : 1.0f - a[d];
        }
        float t[4];
        uint32_t unused[4];
        ref_texel(im, at, t, unused);
        for (int j = 0; j < 4; j++)
            sum[j] += w * t[j];
    }
    memcpy(f, sum, sizeof sum);
    memset(bits, 0, 4 * sizeof *bits);
}

/* Integer coordinates: with a sampler, address_mode of each filtered one
 * and the layer clamped; without one, the coordinates as they are. */
static void ref_read_int(const struct host_image *im, bool sampled, uint32_t sampler,
                         const int c[4], float f[4], uint32_t bits[4])
{
    const struct shape *s = im->shape;
    int at[3] = {c[0], s->dims > 1 || s->layer == 1 ? c[1] : 0,
                 s->dims > 2 || s->layer == 2 ? c[2] : 0};
    if (sampled) {
        for (int d = 0; d < s->dims; d++)
            at[d] = address_mode(at[d], im->extent[d], sampler & REFCL_ABI_SAMPLER_ADDRESS_MASK);
        if (s->layer) {
            int n = im->extent[s->layer];
            at[s->layer] = at[s->layer] < 0 ? 0 : at[s->layer] > n - 1 ? n - 1 : at[s->layer];
        }
    }
    ref_texel(im, at, f, bits);
}

/* ---- Checking reads ------------------------------------------------------ */

struct report {
    const char *what;
    int wrong, shown;
};

static void mismatch(struct report *r, const char *detail)
{
    r->wrong++;
    if (r->shown++ < 8)
        fprintf(stderr, "%s: %s\n", r->what, detail);
}

/* Compares result i (bits) to the reference; tolerance 0 is exact. */
static void compare(struct report *r, const uint32_t got[4], const float want_f[4],
                    const uint32_t want_bits[4], int kind, int channels, float tolerance,
                    const char *where)
{
    for (int j = 0; j < channels; j++) {
        bool ok;
        if (kind != 0)
            ok = got[j] == want_bits[j];
        else if (tolerance == 0.0f)
            ok = got[j] == float_bits(want_f[j]);
        else
            ok = fabsf(bits_float(got[j]) - want_f[j]) <= tolerance * (1.0f + fabsf(want_f[j]));
        if (!ok) {
            char text[512];
            snprintf(text, sizeof text, "%s channel %d: got 0x%08x (%.9g), expected 0x%08x (%.9g)",
                     where, j, got[j], bits_float(got[j]),
                     kind ? want_bits[j] : float_bits(want_f[j]),
                     kind ? bits_float(want_bits[j]) : want_f[j]);
            mismatch(r, text);
        }
    }
}

/* A coordinate along an axis of size texels: random, on a texel edge, at a
 * centre, or just off an edge; normalized when asked. */
static float random_coordinate(int size, bool normalized)
{
    float k = (float)((int)(rnd() % (unsigned)(2 * size + 5)) - size - 2);
    float u;
    switch (rnd() % 4) {
    case 0: u = rnd_float(-(float)size - 2, 2.0f * (float)size + 2); break;
    case 1: u = k; break;
    case 2: u = k + 0.5f; break;
    default: u = k + (rnd() & 1 ? 1e-3f : -1e-3f); break;
    }
    return normalized ? u / (float)size : u;
}

static float random_layer(int layers)
{
    /* halves included: rint rounds them to even */
    return (float)((int)(rnd() % (unsigned)(2 * layers + 6)) - 3) * 0.5f +
           (rnd() % 3 == 0 ? rnd_float(-0.2f, 0.2f) : 0.0f);
}

static void random_int_coordinate(const struct host_image *im, int c[4])
{
    for (int a = 0; a < 3; a++)
        c[a] = (int)(rnd() % (unsigned)(im->extent[a] + 4)) - 2;
    c[3] = 0;
}

static const struct refcl_abi_kernel *kernel_of(const struct pass_program *p, const char *prefix,
                                                const char *shape)
{
    char name[128];
    snprintf(name, sizeof name, "%s_%s", prefix, shape);
    return pass_kernel(p, name);
}

static void run(const struct refcl_abi_kernel *k, struct pass_arg *args, unsigned n)
{
    struct pass_range r = {1, {0, 0, 0}, {n, 1, 1}, {16, 1, 1}};
    pass_run(k, args, &r, 2);
}

static const char *const address_names[] = {"none", "clamp_to_edge", "clamp", "repeat",
                                            "mirrored_repeat"};

static void sampler_name(uint32_t sampler, char *out, size_t size)
{
    snprintf(out, size, "%s %s %s", sampler & 1 ? "normalized" : "unnormalized",
             address_names[(sampler & REFCL_ABI_SAMPLER_ADDRESS_MASK) / 2], sampler & REFCL_ABI_SAMPLER_LINEAR ? "linear" : "nearest");
}

/* read_image* with a sampler and float coordinates. */
static void check_sampled(const struct pass_program *p, struct host_image *im, uint32_t sampler,
                          struct report *r)
{
    const struct shape *s = im->shape;
    int kind = kind_of(im->format.type);
    bool linear = (sampler & REFCL_ABI_SAMPLER_FILTER_MASK) == REFCL_ABI_SAMPLER_LINEAR;
    static float coords[RUN][4];
    static uint32_t out[RUN][4];
    for (int i = 0; i < RUN; i++) {
        for (int a = 0; a < 4; a++)
            coords[i][a] = 0.0f;
        for (int d = 0; d < s->dims; d++)
            coords[i][d] = random_coordinate(im->extent[d], sampler & 1);
        if (s->layer)
            coords[i][s->layer] = random_layer(LAYERS);
    }
    struct refcl_abi_image *desc = &im->desc;
    uint64_t bits = sampler;
    float(*c)[4] = coords;
    uint32_t(*o)[4] = out;
    struct pass_arg args[] = {ARG(desc), ARG(bits), ARG(c), ARG(o), ARG(kind)};
    run(kernel_of(p, "sampled", s->name), args, RUN);
    float tolerance = linear ? 1e-5f : is_srgb(im->format.order) ? 4e-7f : 0.0f;
    for (int i = 0; i < RUN; i++) {
        float want_f[4];
        uint32_t want_bits[4];
        ref_sample(im, sampler, coords[i], want_f, want_bits);
        char where[256], name[64];
        sampler_name(sampler, name, sizeof name);
        snprintf(where, sizeof where, "sampled_%s order 0x%x type 0x%x, %s, (%.9g, %.9g, %.9g)",
                 s->name, im->format.order, im->format.type, name, coords[i][0], coords[i][1],
                 coords[i][2]);
        compare(r, out[i], want_f, want_bits, kind, s->depth ? 1 : 4, tolerance, where);
    }
}

/* read_image* with integer coordinates, with a sampler (sampled_int_) or
 * without (plain_, rw_ with writes checked by check_writes). */
static void check_int_reads(const struct pass_program *p, struct host_image *im, bool sampled,
                            uint32_t sampler, struct report *r)
{
    const struct shape *s = im->shape;
    int kind = kind_of(im->format.type);
    static int coords[RUN][4];
    static uint32_t out[RUN][4];
    for (int i = 0; i < RUN; i++)
        random_int_coordinate(im, coords[i]);
    struct refcl_abi_image *desc = &im->desc;
    uint64_t bits = sampler;
    int(*c)[4] = coords;
    uint32_t(*o)[4] = out;
    if (sampled) {
        struct pass_arg args[] = {ARG(desc), ARG(bits), ARG(c), ARG(o), ARG(kind)};
        run(kernel_of(p, "sampled_int", s->name), args, RUN);
    } else {
        struct pass_arg args[] = {ARG(desc), ARG(c), ARG(o), ARG(kind)};
        run(kernel_of(p, "plain", s->name), args, RUN);
    }
    for (int i = 0; i < RUN; i++) {
        float want_f[4];
        uint32_t want_bits[4];
        ref_read_int(im, sampled, sampler, coords[i], want_f, want_bits);
        char where[256], name[64];
        sampler_name(sampler, name, sizeof name);
        snprintf(where, sizeof where, "%s_%s order 0x%x type 0x%x, %s, (%d, %d, %d)",
                 sampled ? "sampled_int" : "plain", s->name, im->format.order, im->format.type,
                 sampled ? name : "no sampler", coords[i][0], coords[i][1], coords[i][2]);
        compare(r, out[i], want_f, want_bits, kind, s->depth ? 1 : 4,
                is_srgb(im->format.order) ? 4e-7f : 0.0f, where);
    }
}

static const uint32_t addresses[] = {REFCL_ABI_SAMPLER_ADDRESS_NONE, REFCL_ABI_SAMPLER_CLAMP_TO_EDGE, REFCL_ABI_SAMPLER_CLAMP,
                                     REFCL_ABI_SAMPLER_REPEAT, REFCL_ABI_SAMPLER_MIRRORED_REPEAT};

/* The samplers of the formats of the shapes: normalized or not (the
 * repeat modes normalized only), each address mode, both filters (the
 * integer formats nearest only: "The read_image{i|ui} calls support a
 * nearest filter only"). */
static void check_shape_reads(const struct pass_program *p, const struct shape *s,
                              struct report *r)
{
    const struct format *formats = s->depth ? depth_formats : color_formats;
    size_t count = s->depth ? COUNT(depth_formats) : COUNT(color_formats);
    for (size_t f = 0; f < count; f++) {
        struct host_image im;
        image_create(&im, s, formats[f]);
        for (int normalized = 0; s->sampled && normalized < 2; normalized++)
            for (size_t a = 0; a < COUNT(addresses); a++)
                for (int linear = 0; linear < 2; linear++) {
                    bool repeat = addresses[a] >= REFCL_ABI_SAMPLER_REPEAT;
                    if ((repeat && !normalized) || (linear && kind_of(formats[f].type)))
                        continue;
                    uint32_t sampler = (uint32_t)normalized | addresses[a] |
                                       (linear ? REFCL_ABI_SAMPLER_LINEAR : REFCL_ABI_SAMPLER_NEAREST);
                    check_sampled(p, &im, sampler, r);
                    if (!normalized && !repeat && !linear)
                        check_int_reads(p, &im, true, sampler, r);
                }
        check_int_reads(p, &im, false, 0, r);
        image_free(&im);
    }
}

/* ---- Reference writes ---------------------------------------------------- */

/* float to half, rounded to nearest even ("Conversions from float to half
 * round the mantissa using the round to nearest even or round to zero
 * rounding mode"); NaN is some NaN. */
static uint32_t half_bits(float f)
{
    uint32_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    if (isnan(f))
        return sign | 0x7e00;
    if (a >= 65520.0) /* past the largest half by half an ulp or more */
        return sign | 0x7c00;
    if (a < 0x1p-14) /* denormal: units of 2^-24 */
        return sign | (uint32_t)nearbyint(a * 0x1p24);
    int e;
    frexp(a, &e);
    double m = nearbyint(ldexp(a, 11 - e)); /* 11 bits: [1024, 2048] */
    int exponent = e - 1;
    if (m == 2048.0) {
        m = 1024.0;
        exponent++;
    }
    if (exponent > 15)
        return sign | 0x7c00;
    return sign | (uint32_t)(exponent + 15) << 10 | ((uint32_t)m - 1024);
}

/* convert_<type>_sat_rte(f * scale) clamped to [lo, hi]: NaN is 0. */
static int32_t normalized_int(float f, float scale, int32_t lo, int32_t hi)
{
    float x = f * scale;
    if (isnan(x))
        return 0;
    float r = nearbyintf(x);
    return r < (float)lo ? lo : r > (float)hi ? hi : (int32_t)r;
}

/* The spec's linear to sRGB rule, scaled: "scaled_reference_result = c * 255". */
static double srgb_scaled(float f)
{
    double c = f;
    if (isnan(c))
        c = 0.0;
    if (c > 1.0)
        c = 1.0;
    else if (c < 0.0)
        c = 0.0;
    else if (c < 0.0031308)
        c = 12.92 * c;
    else
        c = 1.055 * pow(c, 1.0 / 2.4) - 0.055;
    return c * 255.0;
}

/* Stored channel k's expected bits for component value v (float colour f
 * or integer colour bits), under the write conversions. */
static uint32_t encode_channel(uint32_t type, float f, uint32_t bits, unsigned k, uint32_t max)
{
    (void)k;
    switch (type) {
    case CL_UNORM_INT8: return (uint32_t)normalized_int(f, 255.0f, 0, 255);
    case CL_UNORM_INT16: return (uint32_t)normalized_int(f, 65535.0f, 0, 65535);
    case CL_SNORM_INT8: return (uint32_t)normalized_int(f, 127.0f, -128, 127) & 0xff;
    case CL_SNORM_INT16: return (uint32_t)normalized_int(f, 32767.0f, -32768, 32767) & 0xffff;
    case CL_HALF_FLOAT: return half_bits(f);
    case CL_FLOAT: return float_bits(f);
    case CL_SIGNED_INT8: { /* convert_char_sat(i) */
        int32_t i = (int32_t)bits;
        return (uint32_t)(i < -128 ? -128 : i > 127 ? 127 : i) & 0xff;
    }
    case CL_SIGNED_INT16: {
        int32_t i = (int32_t)bits;
        return (uint32_t)(i < -32768 ? -32768 : i > 32767 ? 32767 : i) & 0xffff;
    }
    case CL_UNSIGNED_INT8: return bits > 255 ? 255 : bits;
    case CL_UNSIGNED_INT16: return bits > 65535 ? 65535 : bits;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: return bits;
    default: /* packed: min(convert_ushort_sat_rte(f * max), max) */
        return (uint32_t)normalized_int(f, (float)max, 0, (int32_t)max);
    }
}

/* Whether the texel at p, written with colour (f / bits), is what the
 * spec's conversions give. */
static bool written_ok(struct format fmt, const unsigned char *p, const float f[4],
                       const uint32_t bits[4])
{
    int map[4];
    channel_map(fmt.order, map);
    /* Stored channel k holds the first component that maps to it (r for
     * CL_INTENSITY and CL_LUMINANCE); a channel none maps to ("ignored")
     * may hold anything. */
    int component[4] = {-1, -1, -1, -1};
    for (int j = 3; j >= 0; j--)
        if (map[j] >= 0)
            component[map[j]] = j;
    if (is_packed(fmt.type)) {
        struct field fields[4];
        unsigned n = packed_fields(fmt.type, fields);
        uint32_t got = read_le(p, element_bytes(fmt)), want = 0, care = 0;
        for (unsigned k = 0; k < n; k++) {
            uint32_t max = (1u << fields[k].bits) - 1;
            want |= encode_channel(fmt.type, f[component[k]], 0, k, max) << fields[k].shift;
            care |= max << fields[k].shift;
        }
        return (got & care) == want;
    }
    unsigned cb = channel_bytes(fmt.type);
    for (unsigned k = 0; k < order_channels(fmt.order); k++) {
        int j = component[k];
        if (j < 0)
            continue;
        uint32_t got = read_le(p + k * cb, cb);
        if (is_srgb(fmt.order) && j < 3) { /* "|generated - scaled_reference| <= 0.6" */
            if (fabs((double)got - srgb_scaled(f[j])) > 0.6)
                return false;
            continue;
        }
        uint32_t want = encode_channel(fmt.type, f[j], bits[j], k, 0);
        bool nan_ok = (fmt.type == CL_FLOAT && isnan(f[j]) && isnan(bits_float(got))) ||
                      (fmt.type == CL_HALF_FLOAT && isnan(f[j]) && (got & 0x7c00) == 0x7c00 &&
                       (got & 0x3ff));
        if (got != want && !nan_ok)
            return false;
    }
    return true;
}

static uint32_t random_color_bits(int kind)
{
    static const float specials[] = {
        0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -2.0f, NAN, INFINITY, -INFINITY, 1e-8f,
        0.5f / 255.0f, 1.5f / 255.0f, 254.5f / 255.0f, 0.5f / 65535.0f, 0.5f / 127.0f,
        0.5f / 31.0f, 0.5f / 1023.0f, 65504.0f, 65519.0f, 65520.0f, 70000.0f, 1e-5f, 3e-8f,
        0.0031308f, 0.04045f, 0x1p-14f, 0x1.ffcp-15f};
    static const int32_t int_specials[] = {
        0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
        INT32_MAX, INT32_MIN};
    if (kind == 0) {
        switch (rnd() % 3) {
        case 0: return float_bits(specials[rnd() % COUNT(specials)]);
        case 1: return float_bits(rnd_float(-1.25f, 1.25f));
        default: return float_bits(rnd_float(-70000.0f, 70000.0f) / (float)(1u << (rnd() % 24)));
        }
    }
    return rnd() % 2 ? (uint32_t)int_specials[rnd() % COUNT(int_specials)] : rnd();
}

/* Every texel written once (in a random order) by write_<shape> or
 * rw_<shape>, and a few coordinates outside the image, which must write
 * nothing: each texel is checked, and every other byte of the block must
 * be as it was. rw_ also reads each texel before writing it. */
static void check_writes(const struct pass_program *p, const struct shape *s, struct format fmt,
                         bool read_write, struct report *r)
{
    struct host_image im;
    image_create(&im, s, fmt);
    int kind = kind_of(fmt.type);
    int texels = im.extent[0] * im.extent[1] * im.extent[2];
    int n = texels + 8;
    int(*coords)[4] = calloc((size_t)n, sizeof *coords);
    uint32_t(*colors)[4] = calloc((size_t)n, sizeof *colors);
    uint32_t(*out)[4] = calloc((size_t)n, sizeof *out);
    REQUIRE(coords && colors && out);
    for (int i = 0; i < texels; i++) {
        coords[i][0] = i % im.extent[0];
        coords[i][1] = i / im.extent[0] % im.extent[1];
        coords[i][2] = i / (im.extent[0] * im.extent[1]);
    }
    for (int i = texels - 1; i > 0; i--) { /* shuffle */
        int j = (int)(rnd() % (unsigned)(i + 1)), t[4];
        if (j == i)
            continue; /* memcpy onto itself: an overlap */
        memcpy(t, coords[i], sizeof t);
        memcpy(coords[i], coords[j], sizeof t);
        memcpy(coords[j], t, sizeof t);
    }
    static const int outside[8][3] = {{-1, 0, 0}, {WIDTH, 0, 0}, {0, -1, 0}, {0, 99, 0},
                                      {0, 0, -1}, {0, 0, 99}, {INT32_MIN, 0, 0},
                                      {0, INT32_MAX, INT32_MAX}};
    for (int i = texels; i < n; i++) {
        const int *o = outside[i - texels];
        /* only the coordinates the type has can be outside */
        coords[i][0] = o[0];
        coords[i][1] = s->dims > 1 || s->layer == 1 ? o[1] : 0;
        coords[i][2] = s->dims > 2 || s->layer == 2 ? o[2] : 0;
        if (!coords[i][1] && !coords[i][2] && o[0] >= 0 && o[0] < WIDTH)
            coords[i][0] = -5; /* a coordinate this type lacks: outside in x instead */
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 4; j++)
            colors[i][j] = random_color_bits(kind);
    unsigned char *before = malloc(im.bytes);
    REQUIRE(before != NULL);
    memcpy(before, im.block, im.bytes);

    struct refcl_abi_image *desc = &im.desc;
    int(*c)[4] = coords;
    uint32_t(*col)[4] = colors, (*o)[4] = out;
    if (read_write) {
        struct pass_arg args[] = {ARG(desc), ARG(c), ARG(col), ARG(o), ARG(kind)};
        run(kernel_of(p, "rw", s->name), args, (unsigned)n);
    } else {
        struct pass_arg args[] = {ARG(desc), ARG(c), ARG(col), ARG(kind)};
        run(kernel_of(p, "write", s->name), args, (unsigned)n);
    }

    char where[256];
    snprintf(where, sizeof where, "%s_%s order 0x%x type 0x%x", read_write ? "rw" : "write",
             s->name, fmt.order, fmt.type);
    unsigned char *after = malloc(im.bytes);
    REQUIRE(after != NULL);
    memcpy(after, im.block, im.bytes);
    if (read_write) { /* the reads saw the image as it was */
        memcpy(im.block, before, im.bytes);
        for (int i = 0; i < n; i++) {
            float want_f[4];
            uint32_t want_bits[4];
            ref_read_int(&im, false, 0, coords[i], want_f, want_bits);
            compare(r, out[i], want_f, want_bits, kind, s->depth ? 1 : 4,
                    is_srgb(fmt.order) ? 4e-7f : 0.0f, where);
        }
    }
    memcpy(im.block, after, im.bytes);
    /* Each texel written as the spec says; then, with the texels' bytes
     * taken from the result, the whole block must be as before. */
    unsigned es = im.desc.element_size;
    for (int i = 0; i < texels; i++) {
        float f[4];
        for (int j = 0; j < 4; j++)
            f[j] = bits_float(colors[i][j]);
        if (s->depth) /* write_imagef(depth image, coord, float depth) */
            f[1] = f[2] = f[3] = 0.0f;
        unsigned char *t = texel(&im, coords[i]);
        if (!written_ok(fmt, t, f, colors[i])) {
            char text[512];
            snprintf(text, sizeof text, "%s at (%d, %d, %d): colour 0x%08x 0x%08x 0x%08x 0x%08x",
                     where, coords[i][0], coords[i][1], coords[i][2], colors[i][0], colors[i][1],
                     colors[i][2], colors[i][3]);
            mismatch(r, text);
        }
        memcpy(before + (t - im.block), t, es);
    }
    if (memcmp(before, im.block, im.bytes) != 0) {
        size_t at = 0;
        while (before[at] == im.block[at])
            at++;
        char text[512];
        snprintf(text, sizeof text, "%s: a byte outside the texels written changed (offset %d)",
                 where, (int)at - GUARD);
        mismatch(r, text);
    }
    free(after);
    free(before);
    free(out);
    free(colors);
    free(coords);
    image_free(&im);
}

/* ---- Cases ---------------------------------------------------------------- */

#define EXTRA                                                                \
    "-Xclang -mlink-builtin-bitcode -Xclang " REFCL_TEST_BUILTINS             \
    " -cl-ext=+__opencl_c_read_write_images,+__opencl_c_3d_image_writes"

static int finish(struct report *r)
{
    if (r->wrong)
        fprintf(stderr, "%s: %d wrong\n", r->what, r->wrong);
    CHECK_EQ(r->wrong, 0);
    return r->wrong;
}

static void test_reads(void)
{
    struct pass_program p;
    pass_build(&p, "image", EXTRA);
    for (size_t s = 0; s < COUNT(shapes); s++) {
        struct report r = {shapes[s].name, 0, 0};
        check_shape_reads(&p, &shapes[s], &r);
        finish(&r);
    }
    pass_unload(&p);
}

static void test_writes(void)
{
    struct pass_program p;
    pass_build(&p, "image", EXTRA);
    for (size_t s = 0; s < COUNT(shapes); s++) {
        const struct format *formats = shapes[s].depth ? depth_formats : color_formats;
        size_t count = shapes[s].depth ? COUNT(depth_formats) : COUNT(color_formats);
        struct report r = {shapes[s].name, 0, 0};
        for (size_t f = 0; f < count; f++) {
            check_writes(&p, &shapes[s], formats[f], false, &r);
            check_writes(&p, &shapes[s], formats[f], true, &r);
        }
        finish(&r);
    }
    pass_unload(&p);
}

/* get_image_* of each type and access qualifier. */
static void test_queries(void)
{
    struct pass_program p;
    pass_build(&p, "image", EXTRA);
    static const char *const access[] = {"", "_wo", "_rw"};
    for (size_t s = 0; s < COUNT(shapes); s++) {
        struct host_image im;
        image_create(&im, &shapes[s], shapes[s].depth ? depth_formats[1] : color_formats[3]);
        for (size_t a = 0; a < COUNT(access); a++) {
            char name[64];
            snprintf(name, sizeof name, "%s%s", shapes[s].name, access[a]);
            int32_t out[10];
            struct refcl_abi_image *desc = &im.desc;
            int32_t *o = out;
            struct pass_arg args[] = {ARG(desc), ARG(o)};
            run(kernel_of(&p, "query", name), args, 1);
            const struct shape *sh = &shapes[s];
            bool has_height = sh->dims > 1;
            CHECK_EQ(out[0], WIDTH);
            CHECK_EQ(out[1], (int32_t)im.format.type);
            CHECK_EQ(out[2], (int32_t)im.format.order);
            CHECK_EQ(out[3], has_height ? HEIGHT : -1);
            CHECK_EQ(out[4], sh->dims > 2 ? DEPTH : -1);
            CHECK_EQ(out[5], has_height ? WIDTH : -1);
            CHECK_EQ(out[6], has_height ? HEIGHT : -1);
            CHECK_EQ(out[7], sh->dims > 2 ? DEPTH : -1);
            CHECK_EQ(out[8], sh->dims > 2 ? 0 : -1);
            CHECK_EQ(out[9], sh->layer ? LAYERS : -1);
        }
        image_free(&im);
    }
    pass_unload(&p);
}

/* A program-scope sampler and a literal one (__translate_sampler_initializer)
 * read as the same samplers passed as arguments would. */
static void test_literal(void)
{
    struct pass_program p;
    pass_build(&p, "image", EXTRA);
    struct host_image im;
    image_create(&im, &shapes[3], color_formats[0]);
    static float coords[RUN][4], out[2 * RUN][4];
    for (int i = 0; i < RUN; i++) {
        coords[i][0] = random_coordinate(WIDTH, true);
        coords[i][1] = random_coordinate(HEIGHT, true);
    }
    struct refcl_abi_image *desc = &im.desc;
    float(*c)[4] = coords, (*o)[4] = out;
    struct pass_arg args[] = {ARG(desc), ARG(c), ARG(o)};
    run(pass_kernel(&p, "literal_samplers"), args, RUN);
    struct report r = {"literal samplers", 0, 0};
    const uint32_t program = REFCL_ABI_SAMPLER_NORMALIZED | REFCL_ABI_SAMPLER_MIRRORED_REPEAT | REFCL_ABI_SAMPLER_LINEAR;
    const uint32_t literal = REFCL_ABI_SAMPLER_CLAMP | REFCL_ABI_SAMPLER_NEAREST;
    for (int i = 0; i < RUN; i++) {
        float want[4];
        uint32_t want_bits[4], got[4];
        ref_sample(&im, program, coords[i], want, want_bits);
        memcpy(got, out[2 * i], sizeof got);
        compare(&r, got, want, want_bits, 0, 4, 1e-5f, "program-scope sampler");
        ref_sample(&im, literal, coords[i], want, want_bits);
        memcpy(got, out[2 * i + 1], sizeof got);
        compare(&r, got, want, want_bits, 0, 4, 0.0f, "literal sampler");
    }
    finish(&r);
    image_free(&im);
    pass_unload(&p);
}

/* OpenCL C 1.2 kernels (refcl's default) call the same overloads. */
static void test_opencl12(void)
{
    struct pass_program p;
    pass_build(&p, "image12", EXTRA " -cl-std=CL1.2");
    const struct shape *s = &shapes[3];
    struct report r = {"OpenCL C 1.2", 0, 0};
    for (size_t f = 0; f < COUNT(color_formats); f++) {
        struct host_image im;
        image_create(&im, s, color_formats[f]);
        bool integer = kind_of(color_formats[f].type) != 0;
        check_sampled(&p, &im, REFCL_ABI_SAMPLER_NORMALIZED | REFCL_ABI_SAMPLER_REPEAT |
                                   (integer ? REFCL_ABI_SAMPLER_NEAREST : REFCL_ABI_SAMPLER_LINEAR), &r);
        check_sampled(&p, &im, REFCL_ABI_SAMPLER_CLAMP | REFCL_ABI_SAMPLER_NEAREST, &r);
        image_free(&im);
        check_writes(&p, s, color_formats[f], false, &r);
    }
    finish(&r);
    pass_unload(&p);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        {"reads", test_reads},     {"writes", test_writes},    {"queries", test_queries},
        {"literal", test_literal}, {"opencl12", test_opencl12},
    };
    if (argc == 2)
        for (size_t i = 0; i < COUNT(cases); i++)
            if (strcmp(argv[1], cases[i].name) == 0) {
                cases[i].run();
                return TEST_RESULT();
            }
    fprintf(stderr, "usage: %s reads|writes|queries|literal|opencl12\n", argv[0]);
    return 2;
}
