// SPDX-License-Identifier: Apache-2.0
// Images and samplers (OpenCL C 3.0 s6.15.15, "Image Addressing and
// Filtering" and "Conversion Rules"): read_image{f,i,ui} with a sampler
// (integer and float coordinates) and without one, write_image{f,i,ui},
// get_image_*, and __translate_sampler_initializer, for every image type
// opencl-c.h declares them for but the mipmapped and multi-sample ones.
//
// An image is the address of its struct refcl_abi_image (refcl/kernel_abi.h),
// which the runtime fills at enqueue; a sampler is a pointer whose value is
// its CLK_ bits. A texel is decoded per channel type (a switch LLVM can
// unswitch: the descriptor is the same for every work-item), then mapped to
// (r, g, b, a) per channel order. Every texel access checks its coordinates
// against the image's extent, whatever the sampler: a coordinate outside the
// image reads the border colour and a write there does nothing, so no
// kernel reads or writes outside an image's bytes, even where the spec
// leaves the result undefined (CLK_ADDRESS_NONE, NaN coordinates).
//
// Compiled as OpenCL C 3.0 with the image features (CMakeLists.txt), so
// that opencl-c.h declares the read_write overloads; the read_only and
// write_only ones mangle as OpenCL C 1.2's.

#define OVL __attribute__((overloadable))

// struct refcl_abi_image, field for field.
struct refcl_image {
    global uchar *data;
    ulong row_pitch;
    ulong slice_pitch;
    uint width;
    uint height;
    uint depth;
    uint array_size;
    uint channel_data_type;
    uint channel_order;
    uint element_size;
    uint num_channels;
    uint type;
    uint reserved;
};
_Static_assert(sizeof(struct refcl_image) == 64, "struct refcl_abi_image");
_Static_assert(__builtin_offsetof(struct refcl_image, width) == 24,
               "struct refcl_abi_image");
_Static_assert(__builtin_offsetof(struct refcl_image, num_channels) == 52,
               "struct refcl_abi_image");

typedef global const struct refcl_image *image_desc;

#define DESC(image) __builtin_astype((image), image_desc)

// CL_UNORM_INT_101010_2 (CL/cl.h; clang 15's opencl-c-base.h has no CLK_
// name for it).
#define UNORM_INT_101010_2 0x10E0

#define ADDRESS_MASK 0xE
#define FILTER_MASK 0x30

// "The value is the sampler's CLK_ bits": the pointer's value
// (refcl/kernel_abi.h), a constant for a literal sampler.
static uint sampler_bits(sampler_t s)
{
    return (uint)(ulong)__builtin_astype(s, constant void *);
}

// A program-scope or literal sampler: clang 15 calls this with its value.
constant void *__translate_sampler_initializer(int bits)
{
    return (constant void *)(ulong)(uint)bits;
}

// Which coordinate, if any, picks an array's layer: y of a 1D array, z of
// a 2D array.
enum layer_axis { NO_LAYER, LAYER_Y, LAYER_Z };

// ---- Where texels are ---------------------------------------------------

// Texels along x, y and z; an array's layers along its layer axis.
static int4 extent(image_desc d, enum layer_axis layer)
{
    int4 e = (int4)((int)d->width, (int)d->height, (int)d->depth, 1);
    if (layer == LAYER_Y)
        e.y = (int)d->array_size;
    if (layer == LAYER_Z)
        e.z = (int)d->array_size;
    return e;
}

static bool inside(int4 c, int4 e)
{
    return (uint)c.x < (uint)e.x && (uint)c.y < (uint)e.y &&
           (uint)c.z < (uint)e.z;
}

// The texel at c, inside the image (refcl/kernel_abi.h's addressing rule;
// a 1D array's layer is its y, at y * row_pitch = y * slice_pitch).
static global uchar *texel_at(image_desc d, int4 c)
{
    return d->data + (ulong)c.x * d->element_size +
           (ulong)c.y * d->row_pitch + (ulong)c.z * d->slice_pitch;
}

static uint channels(image_desc d)
{
    return min(d->num_channels, 4u);
}

// ---- Stored channels ----------------------------------------------------

// The first n (1 to 4) channels at p, zero-extended; the others 0.
#define LOAD_CHANNELS(name, T)                                              \
    static uint4 name(global const uchar *p, uint n)                        \
    {                                                                       \
        global const T *q = (global const T *)p;                            \
        uint4 c = (uint4)(q[0], 0, 0, 0);                                   \
        if (n > 1)                                                          \
            c.y = q[1];                                                     \
        if (n > 2)                                                          \
            c.z = q[2];                                                     \
        if (n > 3)                                                          \
            c.w = q[3];                                                     \
        return c;                                                           \
    }
LOAD_CHANNELS(load8, uchar)
LOAD_CHANNELS(load16, ushort)
LOAD_CHANNELS(load32, uint)

// The first n channels of v at p.
#define STORE_CHANNELS(name, T)                                             \
    static void name(global uchar *p, uint n, T##4 v)                       \
    {                                                                       \
        global T *q = (global T *)p;                                        \
        q[0] = v.x;                                                         \
        if (n > 1)                                                          \
            q[1] = v.y;                                                     \
        if (n > 2)                                                          \
            q[2] = v.z;                                                     \
        if (n > 3)                                                          \
            q[3] = v.w;                                                     \
    }
STORE_CHANNELS(store8, uchar)
STORE_CHANNELS(store16, ushort)
STORE_CHANNELS(store32, uint)

// The low `bits` bits of each element, sign-extended.
static int4 sign_extend(uint4 c, int bits)
{
    return as_int4(c << (32 - bits)) >> (32 - bits);
}

// The packed formats' fields, first channel first: "the channels are
// normally packed with the first channel in the most significant bits"
// (OpenCL 3.0 API, Image Format Descriptor).
static uint4 unpack(uint v, uint type)
{
    switch (type) {
    case CLK_UNORM_SHORT_565: // "R is in bits 15:11, G is in bits 10:5 and B is in bits 4:0"
        return (uint4)(v >> 11 & 31, v >> 5 & 63, v & 31, 0);
    case CLK_UNORM_SHORT_555: // "bit 15 is undefined, R is in bits 14:10, G in bits 9:5 and B in bits 4:0"
        return (uint4)(v >> 10 & 31, v >> 5 & 31, v & 31, 0);
    case CLK_UNORM_INT_101010: // "bits 31:30 are undefined, R is in bits 29:20, G in bits 19:10 and B in bits 9:0"
        return (uint4)(v >> 20 & 1023, v >> 10 & 1023, v & 1023, 0);
    default: // CL_UNORM_INT_101010_2: "R is in bits 31:22, G in bits 21:12, B in bits 11:2 and A in bits 1:0"
        return (uint4)(v >> 22 & 1023, v >> 12 & 1023, v >> 2 & 1023, v & 3);
    }
}

// Each packed field's largest value.
static uint4 packed_max(uint type)
{
    switch (type) {
    case CLK_UNORM_SHORT_565: return (uint4)(31, 63, 31, 0);
    case CLK_UNORM_SHORT_555: return (uint4)(31, 31, 31, 0);
    case CLK_UNORM_INT_101010: return (uint4)(1023, 1023, 1023, 0);
    default: return (uint4)(1023, 1023, 1023, 3);
    }
}

static uint pack(uint4 q, uint type)
{
    switch (type) {
    case CLK_UNORM_SHORT_565: return q.x << 11 | q.y << 5 | q.z;
    case CLK_UNORM_SHORT_555: return q.x << 10 | q.y << 5 | q.z;
    case CLK_UNORM_INT_101010: return q.x << 20 | q.y << 10 | q.z;
    default: return q.x << 22 | q.y << 12 | q.z << 2 | q.w;
    }
}

static float4 load_halves(global const uchar *p, uint n)
{
    global const half *h = (global const half *)p;
    float4 c = (float4)(vload_half(0, h), 0.0f, 0.0f, 0.0f);
    if (n > 1)
        c.y = vload_half(1, h);
    if (n > 2)
        c.z = vload_half(2, h);
    if (n > 3)
        c.w = vload_half(3, h);
    return c;
}

// "Conversions from float to half round the mantissa using the round to
// nearest even or round to zero rounding mode": to nearest even.
static void store_halves(global uchar *p, uint n, float4 v)
{
    global half *h = (global half *)p;
    vstore_half_rte(v.x, 0, h);
    if (n > 1)
        vstore_half_rte(v.y, 1, h);
    if (n > 2)
        vstore_half_rte(v.z, 2, h);
    if (n > 3)
        vstore_half_rte(v.w, 3, h);
}

// The stored channels at p as read_imagef returns them ("Converting
// Normalized Integer Channel Data Types to Floating-point Values"); 0 for
// the integer types, whose read_imagef is undefined.
static float4 decode_float(image_desc d, global const uchar *p)
{
    uint type = d->channel_data_type, n = channels(d);
    switch (type) {
    case CLK_UNORM_INT8: // "(float)c / 255.0f"
        return convert_float4(load8(p, n)) / 255.0f;
    case CLK_UNORM_INT16: // "(float)c / 65535.0f"
        return convert_float4(load16(p, n)) / 65535.0f;
    case CLK_SNORM_INT8: // "max(-1.0f, (float)c / 127.0f)"
        return fmax(-1.0f, convert_float4(sign_extend(load8(p, n), 8)) / 127.0f);
    case CLK_SNORM_INT16: // "max(-1.0f, (float)c / 32767.0f)"
        return fmax(-1.0f, convert_float4(sign_extend(load16(p, n), 16)) / 32767.0f);
    case CLK_UNORM_SHORT_565:
    case CLK_UNORM_SHORT_555:
        return convert_float4(unpack(*(global const ushort *)p, type)) /
               convert_float4(max(packed_max(type), 1u));
    case CLK_UNORM_INT_101010: // "(float)c / 1023.0f"
    case UNORM_INT_101010_2:
        return convert_float4(unpack(*(global const uint *)p, type)) /
               convert_float4(max(packed_max(type), 1u));
    case CLK_HALF_FLOAT: // "the conversions from half to float are lossless"
        return load_halves(p, n);
    case CLK_FLOAT:
        return as_float4(load32(p, n));
    default:
        return 0.0f;
    }
}

// The stored channels at p as read_imagei and read_imageui return them:
// "after sign extension to 32 bits" for the signed types, "after zero
// extension" for the unsigned ones; 0 for the others (undefined).
static uint4 decode_int(image_desc d, global const uchar *p)
{
    uint n = channels(d);
    switch (d->channel_data_type) {
    case CLK_SIGNED_INT8: return as_uint4(sign_extend(load8(p, n), 8));
    case CLK_SIGNED_INT16: return as_uint4(sign_extend(load16(p, n), 16));
    case CLK_UNSIGNED_INT8: return load8(p, n);
    case CLK_UNSIGNED_INT16: return load16(p, n);
    case CLK_SIGNED_INT32:
    case CLK_UNSIGNED_INT32: return load32(p, n);
    default: return 0;
    }
}

// write_imagef's conversions ("Converting Floating-Point Values to
// Normalized Integer Channel Data Types", the preferred method); the
// integer types are not written (undefined).
static void encode_float(image_desc d, global uchar *p, float4 v)
{
    uint type = d->channel_data_type, n = channels(d);
    switch (type) {
    case CLK_UNORM_INT8: // "convert_uchar_sat_rte(f * 255.0f)"
        store8(p, n, convert_uchar4_sat_rte(v * 255.0f));
        break;
    case CLK_UNORM_INT16: // "convert_ushort_sat_rte(f * 65535.0f)"
        store16(p, n, convert_ushort4_sat_rte(v * 65535.0f));
        break;
    case CLK_SNORM_INT8: // "convert_char_sat_rte(f * 127.0f)"
        store8(p, n, as_uchar4(convert_char4_sat_rte(v * 127.0f)));
        break;
    case CLK_SNORM_INT16: // "convert_short_sat_rte(f * 32767.0f)"
        store16(p, n, as_ushort4(convert_short4_sat_rte(v * 32767.0f)));
        break;
    case CLK_UNORM_SHORT_565:
    case CLK_UNORM_SHORT_555: {
        // As CL_UNORM_INT_101010's "min(convert_ushort_sat_rte(f * 1023.0f), 0x3ff)",
        // each field at its own width.
        uint4 top = packed_max(type);
        uint4 q = min(convert_uint4(convert_ushort4_sat_rte(v * convert_float4(top))), top);
        *(global ushort *)p = (ushort)pack(q, type);
        break;
    }
    case CLK_UNORM_INT_101010: // "min(convert_ushort_sat_rte(f * 1023.0f), 0x3ff)"
    case UNORM_INT_101010_2: {
        uint4 top = packed_max(type);
        uint4 q = min(convert_uint4(convert_ushort4_sat_rte(v * convert_float4(top))), top);
        *(global uint *)p = pack(q, type);
        break;
    }
    case CLK_HALF_FLOAT:
        store_halves(p, n, v);
        break;
    case CLK_FLOAT:
        store32(p, n, as_uint4(v));
        break;
    }
}

// write_imagei: "convert_char_sat(i)", "convert_short_sat(i)", and for
// CL_SIGNED_INT32 "no conversion is performed"; other types are not written.
static void encode_signed(image_desc d, global uchar *p, int4 v)
{
    uint n = channels(d);
    switch (d->channel_data_type) {
    case CLK_SIGNED_INT8: store8(p, n, as_uchar4(convert_char4_sat(v))); break;
    case CLK_SIGNED_INT16: store16(p, n, as_ushort4(convert_short4_sat(v))); break;
    case CLK_SIGNED_INT32: store32(p, n, as_uint4(v)); break;
    }
}

// write_imageui: "convert_uchar_sat(i)", "convert_ushort_sat(i)", and for
// CL_UNSIGNED_INT32 "no conversion is performed".
static void encode_unsigned(image_desc d, global uchar *p, uint4 v)
{
    uint n = channels(d);
    switch (d->channel_data_type) {
    case CLK_UNSIGNED_INT8: store8(p, n, convert_uchar4_sat(v)); break;
    case CLK_UNSIGNED_INT16: store16(p, n, convert_ushort4_sat(v)); break;
    case CLK_UNSIGNED_INT32: store32(p, n, v); break;
    }
}

// ---- Channel orders -----------------------------------------------------

// Stored channels (c0, c1, ...) to (r, g, b, a): "The unmapped components
// will be set to 0.0 for red, green and blue channels and will be set to
// 1.0 for the alpha channel"; CL_INTENSITY is (I, I, I, I), CL_LUMINANCE
// (L, L, L, 1.0), CL_DEPTH its one value first.
#define TO_RGBA(name, T, ONE)                                               \
    static T name(T c, uint order)                                          \
    {                                                                       \
        switch (order) {                                                    \
        case CLK_A: return (T)(0, 0, 0, c.x);                               \
        case CLK_RA: return (T)(c.x, 0, 0, c.y);                            \
        case CLK_RGBA:                                                      \
        case CLK_sRGBA: return c;                                           \
        case CLK_BGRA:                                                      \
        case CLK_sBGRA: return c.zyxw;                                      \
        case CLK_ARGB: return c.yzwx;                                       \
        case CLK_ABGR: return c.wzyx;                                       \
        case CLK_INTENSITY: return c.xxxx;                                  \
        case CLK_LUMINANCE: return (T)(c.x, c.x, c.x, ONE);                 \
        case CLK_R:                                                         \
        case CLK_Rx:                                                        \
        case CLK_DEPTH: return (T)(c.x, 0, 0, ONE);                         \
        case CLK_RG:                                                        \
        case CLK_RGx: return (T)(c.x, c.y, 0, ONE);                         \
        default: return (T)(c.x, c.y, c.z, ONE); /* RGB, RGBx, sRGB, sRGBx */ \
        }                                                                   \
    }
TO_RGBA(rgba_float, float4, 1.0f)
TO_RGBA(rgba_int, uint4, 1u)

// (r, g, b, a) to the stored channels, the inverse of TO_RGBA (an ignored
// x channel is written 0; CL_INTENSITY, CL_LUMINANCE and CL_DEPTH store r).
#define FROM_RGBA(name, T)                                                  \
    static T name(T v, uint order)                                          \
    {                                                                       \
        switch (order) {                                                    \
        case CLK_A: return (T)(v.w, 0, 0, 0);                               \
        case CLK_RA: return (T)(v.x, v.w, 0, 0);                            \
        case CLK_RGBA:                                                      \
        case CLK_sRGBA: return v;                                           \
        case CLK_BGRA:                                                      \
        case CLK_sBGRA: return v.zyxw;                                      \
        case CLK_ARGB: return v.wxyz;                                       \
        case CLK_ABGR: return v.wzyx;                                       \
        case CLK_RG:                                                        \
        case CLK_RGx: return (T)(v.x, v.y, 0, 0);                           \
        case CLK_RGB:                                                       \
        case CLK_RGBx:                                                      \
        case CLK_sRGB:                                                      \
        case CLK_sRGBx: return (T)(v.x, v.y, v.z, 0);                       \
        default: return (T)(v.x, 0, 0, 0); /* R, Rx, INTENSITY, LUMINANCE, DEPTH */ \
        }                                                                   \
    }
FROM_RGBA(stored_float, float4)
FROM_RGBA(stored_int, uint4)

// "If the image channel order is CL_R, CL_RG, CL_RGB, or CL_LUMINANCE, the
// border color is (0.0f, 0.0f, 0.0f, 1.0f)"; every other listed order's is
// (0.0f, 0.0f, 0.0f, 0.0f), and CL_DEPTH's "border value is 0.0f". The spec
// lists CL_sRGB in neither: it is CL_RGB's, without alpha, so alpha is 1.
static bool border_alpha(uint order)
{
    return order == CLK_R || order == CLK_RG || order == CLK_RGB ||
           order == CLK_LUMINANCE || order == CLK_sRGB;
}

static bool is_srgb(uint order)
{
    return order == CLK_sRGB || order == CLK_sRGBA || order == CLK_sBGRA ||
           order == CLK_sRGBx;
}

// "if (c <= 0.04045), result = c / 12.92; else result = powr((c + 0.055) /
// 1.055, 2.4);" (Conversion Rules for sRGBA and sBGRA Images)
static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powr((c + 0.055f) / 1.055f, 2.4f);
}

// The spec's linear to sRGB rule up to the scaling: "if (c is NaN) c =
// 0.0; if (c > 1.0) c = 1.0; else if (c < 0.0) c = 0.0; else if (c <
// 0.0031308) c = 12.92 * c; else c = 1.055 * powr(c, 1.0/2.4) - 0.055;"
static float linear_to_srgb(float c)
{
    if (isnan(c))
        return 0.0f;
    if (c >= 1.0f)
        return 1.0f;
    if (c <= 0.0f)
        return 0.0f;
    if (c < 0.0031308f)
        return 12.92f * c;
    float p = powr(c, 1.0f / 2.4f);
    return 1.055f * p - 0.055f;
}

// "scaled_reference_result = c * 255; channel_component =
// floor(scaled_reference_result + 0.5);" for R, G and B; "the alpha data is
// stored in linear color space", as CL_UNORM_INT8. sRGB images are
// CL_UNORM_INT8 only.
static void encode_srgb(image_desc d, global uchar *p, float4 rgba)
{
    float4 e = (float4)(linear_to_srgb(rgba.x), linear_to_srgb(rgba.y),
                        linear_to_srgb(rgba.z), 0.0f);
    float4 scaled = e * 255.0f;
    uint4 c = convert_uint4(floor(scaled + 0.5f));
    c.w = convert_uchar_sat_rte(rgba.w * 255.0f);
    store8(p, channels(d), convert_uchar4(stored_int(c, d->channel_order)));
}

// ---- Texels -------------------------------------------------------------

// CL_RGBA of @p type: the formats most kernels use, whose texels are the
// four channels in order, read and written without the general decoding
// (one predictable branch per texel).
static bool common_rgba(image_desc d, uint type)
{
    return d->channel_order == CLK_RGBA && d->channel_data_type == type;
}

// The general decoding of the texel at p for read_imagef, sRGB images
// converted to linear ("before the filter ... is applied"). Out of line:
// the common formats' path stays small enough to inline into the
// work-item loop, where the format test is loop-invariant.
static __attribute__((noinline)) float4 decoded_float(image_desc d,
                                                      global const uchar *p)
{
    uint order = d->channel_order;
    float4 v = rgba_float(decode_float(d, p), order);
    if (is_srgb(order))
        v.xyz = (float3)(srgb_to_linear(v.x), srgb_to_linear(v.y),
                         srgb_to_linear(v.z));
    return v;
}

// The texel at c as read_imagef sees it, or the border colour outside the
// image.
static float4 texel_float(image_desc d, int4 c, int4 e)
{
    if (!inside(c, e))
        return (float4)(0.0f, 0.0f, 0.0f,
                        border_alpha(d->channel_order) ? 1.0f : 0.0f);
    global const uchar *p = texel_at(d, c);
    if (common_rgba(d, CLK_UNORM_INT8)) // the same rule, in one load
        return convert_float4(vload4(0, p)) / 255.0f;
    if (common_rgba(d, CLK_FLOAT))
        return vload4(0, (global const float *)p);
    return decoded_float(d, p);
}

static uint4 texel_int(image_desc d, int4 c, int4 e)
{
    uint order = d->channel_order;
    if (!inside(c, e))
        return (uint4)(0, 0, 0, border_alpha(order) ? 1 : 0);
    return rgba_int(decode_int(d, texel_at(d, c)), order);
}

// ---- Addressing ---------------------------------------------------------

// (int)floor(x), bounded so that the conversion is always defined (a NaN
// becomes -2^30): any coordinate of a texel inside an image is far inside.
static int floor_index(float x)
{
    return (int)fmin(fmax(floor(x), -0x1p30f), 0x1p30f);
}

// "x - floor(x)"
static float frac(float x)
{
    return x - floor(x);
}

// The address_mode function of the table "Addressing modes to generate
// texel location": CLK_ADDRESS_CLAMP_TO_EDGE "clamp (coord, 0, size - 1)",
// CLK_ADDRESS_CLAMP "clamp (coord, -1, size)", CLK_ADDRESS_NONE "coord"
// (and the repeat modes, undefined with integer coordinates).
static int address(int i, int size, uint bits)
{
    switch (bits & ADDRESS_MASK) {
    case CLK_ADDRESS_CLAMP_TO_EDGE: return clamp(i, 0, size - 1);
    case CLK_ADDRESS_CLAMP: return clamp(i, -1, size);
    default: return i;
    }
}

// "u = s * w_t" for normalized coordinates, else s.
static float unnormalize(float s, int size, uint bits)
{
    return bits & CLK_NORMALIZED_COORDS_TRUE ? s * (float)size : s;
}

// CLK_ADDRESS_REPEAT's "u = (s - floor(s)) * w_t", and
// CLK_ADDRESS_MIRRORED_REPEAT's "s_prime = 2.0f * rint(0.5f * s); s_prime =
// fabs(s - s_prime); u = s_prime * w_t". With unnormalized coordinates
// (undefined) the same formulas: they stay inside the image.
static float repeated(float s, int size)
{
    float f = s - floor(s);
    return f * (float)size;
}

static float mirrored(float s, int size)
{
    float even = 2.0f * rint(0.5f * s);
    float prime = fabs(s - even);
    return prime * (float)size;
}

// The nearest filter's texel along one axis of size texels.
static int nearest(float s, int size, uint bits)
{
    switch (bits & ADDRESS_MASK) {
    case CLK_ADDRESS_REPEAT: {
        // "i = (int)floor(u); if (i > w_t - 1) i = i - w_t"
        int i = floor_index(repeated(s, size));
        return i > size - 1 ? i - size : i;
    }
    case CLK_ADDRESS_MIRRORED_REPEAT:
        // "i = (int)floor(u); i = min(i, w_t - 1)"
        return min(floor_index(mirrored(s, size)), size - 1);
    default:
        // "i = address_mode((int)floor(u))"
        return address(floor_index(unnormalize(s, size, bits)), size, bits);
    }
}

// The linear filter's two texels along one axis and the weight of the
// second.
struct span {
    int i0, i1;
    float a;
};

static struct span linear(float s, int size, uint bits)
{
    struct span r;
    float u;
    switch (bits & ADDRESS_MASK) {
    case CLK_ADDRESS_REPEAT:
        // "i0 = (int)floor(u - 0.5); i1 = i0 + 1; if (i0 < 0) i0 = w_t + i0;
        // if (i1 > w_t - 1) i1 = i1 - w_t"
        u = repeated(s, size);
        r.i0 = floor_index(u - 0.5f);
        r.i1 = r.i0 + 1;
        if (r.i0 < 0)
            r.i0 += size;
        if (r.i1 > size - 1)
            r.i1 -= size;
        break;
    case CLK_ADDRESS_MIRRORED_REPEAT:
        // "i0 = (int)floor(u - 0.5f); i1 = i0 + 1; i0 = max(i0, 0); i1 =
        // min(i1, w_t - 1)"
        u = mirrored(s, size);
        r.i0 = floor_index(u - 0.5f);
        r.i1 = min(r.i0 + 1, size - 1);
        r.i0 = max(r.i0, 0);
        break;
    default:
        // "i0 = address_mode((int)floor(u - 0.5)); i1 =
        // address_mode((int)floor(u - 0.5) + 1)"
        u = unnormalize(s, size, bits);
        r.i0 = address(floor_index(u - 0.5f), size, bits);
        r.i1 = address(floor_index(u - 0.5f) + 1, size, bits);
        break;
    }
    r.a = frac(u - 0.5f); // "a = frac(u - 0.5)"
    return r;
}

// "layer = clamp(rint(w), 0, d_t - 1)" when read using a sampler.
static int layer_of(float w, int layers)
{
    return clamp(floor_index(rint(w)), 0, layers - 1);
}

static float layer_coordinate(float4 coord, enum layer_axis layer)
{
    return layer == LAYER_Y ? coord.y : coord.z;
}

// The texel coordinates the nearest filter picks, the layer included.
static int4 nearest_texel(float4 coord, int4 e, uint bits, int dims,
                          enum layer_axis layer)
{
    int4 c = (int4)(nearest(coord.x, e.x, bits), 0, 0, 0);
    if (dims > 1)
        c.y = nearest(coord.y, e.y, bits);
    if (dims > 2)
        c.z = nearest(coord.z, e.z, bits);
    if (layer == LAYER_Y)
        c.y = layer_of(coord.y, e.y);
    if (layer == LAYER_Z)
        c.z = layer_of(coord.z, e.z);
    return c;
}

// The linear filter: "T = (1 - a) * (1 - b) * (1 - c) * T_i0j0k0 + a * (1 -
// b) * (1 - c) * T_i1j0k0 + ...", the terms in the spec's order, over the
// 2, 4 or 8 texels of dims axes.
static float4 linear_filter(image_desc d, float4 coord, int4 e, uint bits,
                            int dims, enum layer_axis layer)
{
    struct span x = linear(coord.x, e.x, bits), y = {0, 0, 0.0f},
                z = {0, 0, 0.0f};
    if (dims > 1)
        y = linear(coord.y, e.y, bits);
    if (dims > 2)
        z = linear(coord.z, e.z, bits);
    if (layer == LAYER_Y)
        y.i0 = layer_of(coord.y, e.y);
    if (layer == LAYER_Z)
        z.i0 = layer_of(coord.z, e.z);
    float4 sum = 0.0f;
    for (int k = 0; k < (dims > 2 ? 2 : 1); k++)
        for (int j = 0; j < (dims > 1 ? 2 : 1); j++)
            for (int i = 0; i < 2; i++) {
                float w = i ? x.a : 1.0f - x.a;
                if (dims > 1)
                    w *= j ? y.a : 1.0f - y.a;
                if (dims > 2)
                    w *= k ? z.a : 1.0f - z.a;
                int4 c = (int4)(i ? x.i1 : x.i0, j ? y.i1 : y.i0,
                                k ? z.i1 : z.i0, 0);
                sum += w * texel_float(d, c, e);
            }
    return sum;
}

// ---- The reads and writes, on (x, y, z) coordinates ---------------------

// read_imagef with a sampler and float coordinates.
static float4 sample_float(image_desc d, uint bits, float4 coord, int dims,
                           enum layer_axis layer)
{
    int4 e = extent(d, layer);
    if ((bits & FILTER_MASK) == CLK_FILTER_LINEAR)
        return linear_filter(d, coord, e, bits, dims, layer);
    return texel_float(d, nearest_texel(coord, e, bits, dims, layer), e);
}

// read_image{i,ui} with a sampler and float coordinates: "The
// read_image{i|ui} calls support a nearest filter only".
static uint4 sample_int(image_desc d, uint bits, float4 coord, int dims,
                        enum layer_axis layer)
{
    int4 e = extent(d, layer);
    return texel_int(d, nearest_texel(coord, e, bits, dims, layer), e);
}

// Integer coordinates with a sampler: address_mode of each, the layer
// clamped ("clamp(rint(w), 0, d_t - 1)" of an integer).
static int4 sampled_texel(int4 coord, int4 e, uint bits, int dims,
                          enum layer_axis layer)
{
    int4 c = (int4)(address(coord.x, e.x, bits), 0, 0, 0);
    if (dims > 1)
        c.y = address(coord.y, e.y, bits);
    if (dims > 2)
        c.z = address(coord.z, e.z, bits);
    if (layer == LAYER_Y)
        c.y = clamp(coord.y, 0, e.y - 1);
    if (layer == LAYER_Z)
        c.z = clamp(coord.z, 0, e.z - 1);
    return c;
}

static float4 sample_float_at(image_desc d, uint bits, int4 coord, int dims,
                              enum layer_axis layer)
{
    int4 e = extent(d, layer);
    return texel_float(d, sampled_texel(coord, e, bits, dims, layer), e);
}

static uint4 sample_int_at(image_desc d, uint bits, int4 coord, int dims,
                           enum layer_axis layer)
{
    int4 e = extent(d, layer);
    return texel_int(d, sampled_texel(coord, e, bits, dims, layer), e);
}

// The sampler-less reads "behave exactly as the corresponding built-in
// image read functions that take integer coordinates and a sampler with
// ... addressing mode to CLK_ADDRESS_NONE"; the layer is the coordinate.
static float4 load_float(image_desc d, int4 coord, enum layer_axis layer)
{
    return texel_float(d, coord, extent(d, layer));
}

static uint4 load_int(image_desc d, int4 coord, enum layer_axis layer)
{
    return texel_int(d, coord, extent(d, layer));
}

// The general encoding of color at p for write_imagef; out of line, as
// decoded_float.
static __attribute__((noinline)) void encoded_float(image_desc d,
                                                    global uchar *p,
                                                    float4 color)
{
    uint order = d->channel_order;
    if (is_srgb(order))
        encode_srgb(d, p, color);
    else
        encode_float(d, p, stored_float(color, order));
}

// The writes: "The behavior of write_imagef, write_imagei and
// write_imageui for ... x and y coordinate values that are not in the
// range [0, image width-1] and [0, image height-1], respectively, is
// undefined": nothing is written.
static void store_float(image_desc d, int4 coord, enum layer_axis layer,
                        float4 color)
{
    if (!inside(coord, extent(d, layer)))
        return;
    global uchar *p = texel_at(d, coord);
    if (common_rgba(d, CLK_UNORM_INT8)) // the same rule, in one store
        vstore4(convert_uchar4_sat_rte(color * 255.0f), 0, p);
    else if (common_rgba(d, CLK_FLOAT))
        vstore4(color, 0, (global float *)p);
    else
        encoded_float(d, p, color);
}

static void store_signed(image_desc d, int4 coord, enum layer_axis layer,
                         int4 color)
{
    if (inside(coord, extent(d, layer)))
        encode_signed(d, texel_at(d, coord),
                      as_int4(stored_int(as_uint4(color), d->channel_order)));
}

static void store_unsigned(image_desc d, int4 coord, enum layer_axis layer,
                           uint4 color)
{
    if (inside(coord, extent(d, layer)))
        encode_unsigned(d, texel_at(d, coord),
                        stored_int(color, d->channel_order));
}

// ---- The overloads ------------------------------------------------------

// A coordinate as (x, y, z, 0).
static int4 OVL xyz(int c) { return (int4)(c, 0, 0, 0); }
static int4 OVL xyz(int2 c) { return (int4)(c, 0, 0); }
static int4 OVL xyz(int4 c) { return (int4)(c.xyz, 0); }
static float4 OVL xyz(float c) { return (float4)(c, 0.0f, 0.0f, 0.0f); }
static float4 OVL xyz(float2 c) { return (float4)(c, 0.0f, 0.0f); }
static float4 OVL xyz(float4 c) { return (float4)(c.xyz, 0.0f); }

// The reads with a sampler of an image type whose coordinates are IC
// (integers) or FC (floats), DIMS of them filtered, LAYER its layer axis.
#define SAMPLED_READS(IMAGE, IC, FC, DIMS, LAYER)                           \
    float4 OVL read_imagef(read_only IMAGE i, sampler_t s, FC c)            \
    {                                                                       \
        return sample_float(DESC(i), sampler_bits(s), xyz(c), DIMS, LAYER); \
    }                                                                       \
    float4 OVL read_imagef(read_only IMAGE i, sampler_t s, IC c)            \
    {                                                                       \
        return sample_float_at(DESC(i), sampler_bits(s), xyz(c), DIMS,      \
                               LAYER);                                      \
    }                                                                       \
    int4 OVL read_imagei(read_only IMAGE i, sampler_t s, FC c)              \
    {                                                                       \
        return as_int4(                                                     \
            sample_int(DESC(i), sampler_bits(s), xyz(c), DIMS, LAYER));     \
    }                                                                       \
    int4 OVL read_imagei(read_only IMAGE i, sampler_t s, IC c)              \
    {                                                                       \
        return as_int4(                                                     \
            sample_int_at(DESC(i), sampler_bits(s), xyz(c), DIMS, LAYER));  \
    }                                                                       \
    uint4 OVL read_imageui(read_only IMAGE i, sampler_t s, FC c)            \
    {                                                                       \
        return sample_int(DESC(i), sampler_bits(s), xyz(c), DIMS, LAYER);   \
    }                                                                       \
    uint4 OVL read_imageui(read_only IMAGE i, sampler_t s, IC c)            \
    {                                                                       \
        return sample_int_at(DESC(i), sampler_bits(s), xyz(c), DIMS, LAYER); \
    }

// A depth image's reads with a sampler: the one value.
#define SAMPLED_DEPTH_READS(IMAGE, IC, FC, DIMS, LAYER)                     \
    float OVL read_imagef(read_only IMAGE i, sampler_t s, FC c)             \
    {                                                                       \
        return sample_float(DESC(i), sampler_bits(s), xyz(c), DIMS, LAYER).x; \
    }                                                                       \
    float OVL read_imagef(read_only IMAGE i, sampler_t s, IC c)             \
    {                                                                       \
        return sample_float_at(DESC(i), sampler_bits(s), xyz(c), DIMS,      \
                               LAYER).x;                                    \
    }

// The sampler-less reads, for access qualifier Q.
#define PLAIN_READS(Q, IMAGE, IC, LAYER)                                    \
    float4 OVL read_imagef(Q IMAGE i, IC c)                                 \
    {                                                                       \
        return load_float(DESC(i), xyz(c), LAYER);                          \
    }                                                                       \
    int4 OVL read_imagei(Q IMAGE i, IC c)                                   \
    {                                                                       \
        return as_int4(load_int(DESC(i), xyz(c), LAYER));                   \
    }                                                                       \
    uint4 OVL read_imageui(Q IMAGE i, IC c)                                 \
    {                                                                       \
        return load_int(DESC(i), xyz(c), LAYER);                            \
    }

#define PLAIN_DEPTH_READS(Q, IMAGE, IC, LAYER)                              \
    float OVL read_imagef(Q IMAGE i, IC c)                                  \
    {                                                                       \
        return load_float(DESC(i), xyz(c), LAYER).x;                        \
    }

// The writes, for access qualifier Q.
#define WRITES(Q, IMAGE, IC, LAYER)                                         \
    void OVL write_imagef(Q IMAGE i, IC c, float4 color)                    \
    {                                                                       \
        store_float(DESC(i), xyz(c), LAYER, color);                         \
    }                                                                       \
    void OVL write_imagei(Q IMAGE i, IC c, int4 color)                      \
    {                                                                       \
        store_signed(DESC(i), xyz(c), LAYER, color);                        \
    }                                                                       \
    void OVL write_imageui(Q IMAGE i, IC c, uint4 color)                    \
    {                                                                       \
        store_unsigned(DESC(i), xyz(c), LAYER, color);                      \
    }

#define DEPTH_WRITES(Q, IMAGE, IC, LAYER)                                   \
    void OVL write_imagef(Q IMAGE i, IC c, float depth)                     \
    {                                                                       \
        store_float(DESC(i), xyz(c), LAYER, (float4)(depth, 0.0f, 0.0f, 0.0f)); \
    }

// The queries every image type has.
#define QUERIES(Q, IMAGE)                                                   \
    int OVL get_image_width(Q IMAGE i) { return (int)DESC(i)->width; }      \
    int OVL get_image_channel_data_type(Q IMAGE i)                          \
    {                                                                       \
        return (int)DESC(i)->channel_data_type;                             \
    }                                                                       \
    int OVL get_image_channel_order(Q IMAGE i)                              \
    {                                                                       \
        return (int)DESC(i)->channel_order;                                 \
    }

// And those of 2D and 3D images and 2D arrays.
#define QUERIES_2D(Q, IMAGE)                                                \
    QUERIES(Q, IMAGE)                                                       \
    int OVL get_image_height(Q IMAGE i) { return (int)DESC(i)->height; }

#define QUERY_DIM2(Q, IMAGE)                                                \
    int2 OVL get_image_dim(Q IMAGE i)                                       \
    {                                                                       \
        return (int2)((int)DESC(i)->width, (int)DESC(i)->height);           \
    }

#define QUERY_ARRAY_SIZE(Q, IMAGE)                                          \
    size_t OVL get_image_array_size(Q IMAGE i)                              \
    {                                                                       \
        return DESC(i)->array_size;                                         \
    }

SAMPLED_READS(image1d_t, int, float, 1, NO_LAYER)
SAMPLED_READS(image1d_array_t, int2, float2, 1, LAYER_Y)
SAMPLED_READS(image2d_t, int2, float2, 2, NO_LAYER)
SAMPLED_READS(image2d_array_t, int4, float4, 2, LAYER_Z)
SAMPLED_READS(image3d_t, int4, float4, 3, NO_LAYER)
SAMPLED_DEPTH_READS(image2d_depth_t, int2, float2, 2, NO_LAYER)
SAMPLED_DEPTH_READS(image2d_array_depth_t, int4, float4, 2, LAYER_Z)

// Everything but the sampled reads, for access qualifier Q (read_only:
// READ_OR_WRITE is PLAIN_READS; write_only: WRITES; read_write: both).
#define ALL_TYPES(Q, READ, WRITE, READ_DEPTH, WRITE_DEPTH)                  \
    READ(Q, image1d_t, int, NO_LAYER)                                       \
    READ(Q, image1d_buffer_t, int, NO_LAYER)                                \
    READ(Q, image1d_array_t, int2, LAYER_Y)                                 \
    READ(Q, image2d_t, int2, NO_LAYER)                                      \
    READ(Q, image2d_array_t, int4, LAYER_Z)                                 \
    READ(Q, image3d_t, int4, NO_LAYER)                                      \
    READ_DEPTH(Q, image2d_depth_t, int2, NO_LAYER)                          \
    READ_DEPTH(Q, image2d_array_depth_t, int4, LAYER_Z)                     \
    WRITE(Q, image1d_t, int, NO_LAYER)                                      \
    WRITE(Q, image1d_buffer_t, int, NO_LAYER)                               \
    WRITE(Q, image1d_array_t, int2, LAYER_Y)                                \
    WRITE(Q, image2d_t, int2, NO_LAYER)                                     \
    WRITE(Q, image2d_array_t, int4, LAYER_Z)                                \
    WRITE(Q, image3d_t, int4, NO_LAYER)                                     \
    WRITE_DEPTH(Q, image2d_depth_t, int2, NO_LAYER)                         \
    WRITE_DEPTH(Q, image2d_array_depth_t, int4, LAYER_Z)                    \
    QUERIES(Q, image1d_t)                                                   \
    QUERIES(Q, image1d_buffer_t)                                            \
    QUERIES(Q, image1d_array_t)                                             \
    QUERIES_2D(Q, image2d_t)                                                \
    QUERIES_2D(Q, image2d_array_t)                                          \
    QUERIES_2D(Q, image3d_t)                                                \
    QUERIES_2D(Q, image2d_depth_t)                                          \
    QUERIES_2D(Q, image2d_array_depth_t)                                    \
    QUERY_DIM2(Q, image2d_t)                                                \
    QUERY_DIM2(Q, image2d_array_t)                                          \
    QUERY_DIM2(Q, image2d_depth_t)                                          \
    QUERY_DIM2(Q, image2d_array_depth_t)                                    \
    QUERY_ARRAY_SIZE(Q, image1d_array_t)                                    \
    QUERY_ARRAY_SIZE(Q, image2d_array_t)                                    \
    QUERY_ARRAY_SIZE(Q, image2d_array_depth_t)                              \
    int OVL get_image_depth(Q image3d_t i) { return (int)DESC(i)->depth; }  \
    int4 OVL get_image_dim(Q image3d_t i)                                   \
    {                                                                       \
        image_desc d = DESC(i);                                             \
        return (int4)((int)d->width, (int)d->height, (int)d->depth, 0);     \
    }

#define NONE(Q, IMAGE, IC, LAYER)

ALL_TYPES(read_only, PLAIN_READS, NONE, PLAIN_DEPTH_READS, NONE)
ALL_TYPES(write_only, NONE, WRITES, NONE, DEPTH_WRITES)
ALL_TYPES(read_write, PLAIN_READS, WRITES, PLAIN_DEPTH_READS, DEPTH_WRITES)

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// read_imageh and write_imageh (cl_khr_fp16): read_imagef's value
// converted to half ("The read_imageh calls that take integer coordinates
// must use a sampler with filter mode set to CLK_FILTER_NEAREST ...";
// conversions to half round to nearest even, OpenCL C 3.0 s6.4.3.2), and
// a half colour written as the float it is exactly.
#define HALF_SAMPLED_READS(IMAGE, IC, FC)                                   \
    half4 OVL read_imageh(read_only IMAGE i, sampler_t s, FC c)             \
    {                                                                       \
        return convert_half4(read_imagef(i, s, c));                         \
    }                                                                       \
    half4 OVL read_imageh(read_only IMAGE i, sampler_t s, IC c)             \
    {                                                                       \
        return convert_half4(read_imagef(i, s, c));                         \
    }

#define HALF_READS(Q, IMAGE, IC)                                            \
    half4 OVL read_imageh(Q IMAGE i, IC c)                                  \
    {                                                                       \
        return convert_half4(read_imagef(i, c));                            \
    }

#define HALF_WRITES(Q, IMAGE, IC)                                           \
    void OVL write_imageh(Q IMAGE i, IC c, half4 color)                     \
    {                                                                       \
        write_imagef(i, c, convert_float4(color));                          \
    }

HALF_SAMPLED_READS(image1d_t, int, float)
HALF_SAMPLED_READS(image1d_array_t, int2, float2)
HALF_SAMPLED_READS(image2d_t, int2, float2)
HALF_SAMPLED_READS(image2d_array_t, int4, float4)
HALF_SAMPLED_READS(image3d_t, int4, float4)

#define HALF_ALL_TYPES(Q, F)                                                \
    F(Q, image1d_t, int)                                                    \
    F(Q, image1d_buffer_t, int)                                             \
    F(Q, image1d_array_t, int2)                                             \
    F(Q, image2d_t, int2)                                                   \
    F(Q, image2d_array_t, int4)                                             \
    F(Q, image3d_t, int4)

HALF_ALL_TYPES(read_only, HALF_READS)
HALF_ALL_TYPES(read_write, HALF_READS)
HALF_ALL_TYPES(write_only, HALF_WRITES)
HALF_ALL_TYPES(read_write, HALF_WRITES)
#endif
