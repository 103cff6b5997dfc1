/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Image formats: which channel orders and data types make a valid format
 * (the spec's table of image channel orders), which of them refcl
 * supports for each image type and access, the size of a texel, and the
 * conversion of a fill colour into a texel by the spec's conversion rules
 * (OpenCL C 3.0, "Conversion Rules for normalized integer channel data
 * types" and the ones after it).
 */
#include <math.h>
#include <string.h>

#include "refcl/image.h"

/* Which data types a channel order may have. */
enum type_set {
    PLAIN,     /* every plain type */
    NORMAL,    /* "CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
                  CL_SNORM_INT16, CL_HALF_FLOAT, or CL_FLOAT" */
    BYTES,     /* "CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8 or
                  CL_UNSIGNED_INT8" */
    PACKED,    /* "CL_UNORM_SHORT_565, CL_UNORM_SHORT_555 or
                  CL_UNORM_INT_101010" */
    UNORM8,    /* sRGB orders: "CL_UNORM_INT8" */
    DEPTH,     /* "CL_UNORM_INT16 or CL_FLOAT" */
};

/* One channel order: its channels as stored (indices into r, g, b, a),
 * which types it takes, and what refcl offers of it. */
struct order {
    cl_channel_order order;
    unsigned channels;
    unsigned char stored[4];
    enum type_set types;
    bool srgb;
    bool offered; /* in clGetSupportedImageFormats' lists */
};

static const struct order orders[] = {
    {CL_R, 1, {0}, PLAIN, false, true},
    {CL_A, 1, {3}, PLAIN, false, true},
    {CL_Rx, 1, {0}, PLAIN, false, true},
    {CL_RG, 2, {0, 1}, PLAIN, false, true},
    {CL_RA, 2, {0, 3}, PLAIN, false, true},
    {CL_RGx, 2, {0, 1}, PLAIN, false, true},
    {CL_RGBA, 4, {0, 1, 2, 3}, PLAIN, false, true},
    {CL_INTENSITY, 1, {0}, NORMAL, false, true},
    {CL_LUMINANCE, 1, {0}, NORMAL, false, true},
    {CL_BGRA, 4, {2, 1, 0, 3}, BYTES, false, true},
    {CL_ARGB, 4, {3, 0, 1, 2}, BYTES, false, true},
    {CL_ABGR, 4, {3, 2, 1, 0}, BYTES, false, true},
    {CL_RGB, 3, {0, 1, 2}, PACKED, false, true},
    {CL_RGBx, 3, {0, 1, 2}, PACKED, false, true},
    {CL_sRGBA, 4, {0, 1, 2, 3}, UNORM8, true, true},
    {CL_sBGRA, 4, {2, 1, 0, 3}, UNORM8, true, true},
    {CL_sRGB, 3, {0, 1, 2}, UNORM8, true, false},
    {CL_sRGBx, 3, {0, 1, 2}, UNORM8, true, false},
    {CL_DEPTH, 1, {0}, DEPTH, false, true},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct order *order_find(cl_channel_order order)
{
    for (size_t i = 0; i < COUNT(orders); i++)
        if (orders[i].order == order)
            return &orders[i];
    return NULL;
}

/* Bytes of one channel of a plain type; 0 for another. */
static size_t plain_size(cl_channel_type type)
{
    switch (type) {
    case CL_SNORM_INT8: case CL_UNORM_INT8:
    case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
        return 1;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
        return 2;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

/* Bytes of a packed type's texel; 0 for another. */
static size_t packed_size(cl_channel_type type)
{
    switch (type) {
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555:
        return 2;
    case CL_UNORM_INT_101010: case CL_UNORM_INT_101010_2:
        return 4;
    default:
        return 0;
    }
}

static bool in_set(cl_channel_type type, enum type_set set)
{
    switch (set) {
    case PLAIN:
        return plain_size(type) != 0;
    case NORMAL:
        return type == CL_UNORM_INT8 || type == CL_UNORM_INT16 ||
               type == CL_SNORM_INT8 || type == CL_SNORM_INT16 ||
               type == CL_HALF_FLOAT || type == CL_FLOAT;
    case BYTES:
        return plain_size(type) == 1;
    case PACKED:
        return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 ||
               type == CL_UNORM_INT_101010;
    case UNORM8:
        return type == CL_UNORM_INT8;
    case DEPTH:
        return type == CL_UNORM_INT16 || type == CL_FLOAT;
    }
    return false;
}

/* The order of a valid @p format, else NULL. CL_UNORM_INT_101010_2 "can
 * only be used if channel order = CL_RGBA". */
static const struct order *valid_order(const cl_image_format *format)
{
    const struct order *o = order_find(format->image_channel_order);
    cl_channel_type type = format->image_channel_data_type;
    if (!o)
        return NULL;
    if (type == CL_UNORM_INT_101010_2)
        return o->order == CL_RGBA ? o : NULL;
    return in_set(type, o->types) ? o : NULL;
}

size_t refcl_format_element_size(const cl_image_format *format)
{
    const struct order *o = valid_order(format);
    if (!o)
        return 0;
    cl_channel_type type = format->image_channel_data_type;
    size_t packed = packed_size(type);
    return packed ? packed : o->channels * plain_size(type);
}

unsigned refcl_format_channels(const cl_image_format *format)
{
    const struct order *o = valid_order(format);
    return !o || packed_size(format->image_channel_data_type) ? 1
                                                               : o->channels;
}

/* Kernels that write: sRGB writes need cl_khr_srgb_image_writes, which
 * refcl does not offer; depth images are 2D or 2D arrays only ("CL_DEPTH
 * image channel order can only be used with 2D images and 2D image
 * arrays"). */
bool refcl_format_supported(const cl_image_format *format,
                            cl_mem_object_type type, cl_mem_flags flags)
{
    const struct order *o = valid_order(format);
    if (!o || !o->offered)
        return false;
    bool writes = flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE |
                           CL_MEM_KERNEL_READ_AND_WRITE);
    if (o->srgb && writes)
        return false;
    if (o->order == CL_DEPTH)
        return type == CL_MEM_OBJECT_IMAGE2D ||
               type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    return true;
}

/* Every data type that any order takes, for the lists. */
static const cl_channel_type all_types[] = {
    CL_SNORM_INT8,       CL_SNORM_INT16,      CL_UNORM_INT8,
    CL_UNORM_INT16,      CL_SIGNED_INT8,      CL_SIGNED_INT16,
    CL_SIGNED_INT32,     CL_UNSIGNED_INT8,    CL_UNSIGNED_INT16,
    CL_UNSIGNED_INT32,   CL_HALF_FLOAT,       CL_FLOAT,
    CL_UNORM_SHORT_565,  CL_UNORM_SHORT_555,  CL_UNORM_INT_101010,
    CL_UNORM_INT_101010_2,
};

cl_uint refcl_formats_list(cl_mem_object_type type, cl_mem_flags flags,
                           cl_image_format *out, cl_uint max)
{
    cl_uint count = 0;
    for (size_t i = 0; i < COUNT(orders); i++)
        for (size_t t = 0; t < COUNT(all_types); t++) {
            cl_image_format f = {orders[i].order, all_types[t]};
            if (!refcl_format_supported(&f, type, flags))
                continue;
            if (out && count < max)
                out[count] = f;
            count++;
        }
    return count;
}

size_t refcl_format_fill_size(const cl_image_format *format)
{
    return format->image_channel_order == CL_DEPTH ? sizeof(cl_float)
                                                   : 4 * sizeof(cl_float);
}

/* ---- conversions ------------------------------------------------------ */

/* convert_<int>_sat_rte(f * scale) clamped to [lo, hi]: the rule of every
 * normalized type ("convert_uchar_sat_rte(f * 255.0f)" and the like); a
 * NaN becomes 0, as convert_*_sat makes it. */
static long normalize(float f, float scale, long lo, long hi)
{
    float x = f * scale;
    if (isnan(x))
        return 0;
    if (x <= (float)lo)
        return lo;
    if (x >= (float)hi)
        return hi;
    return lrintf(x); /* the default rounding: to nearest even */
}

/* The sRGB encoding of linear @p c: "if (c is NaN) c = 0.0; if (c > 1.0)
 * c = 1.0; else if (c < 0.0) c = 0.0; else if (c < 0.0031308) c = 12.92 *
 * c; else c = 1.055 * powr(c, 1.0/2.4) - 0.055; scaled_reg = c * 255;
 * channel_component = floor(scaled_reg + 0.5)". */
static long srgb_encode(float c)
{
    double x = isnan(c) ? 0.0 : c;
    if (x > 1.0)
        x = 1.0;
    else if (x < 0.0)
        x = 0.0;
    else if (x < 0.0031308)
        x = 12.92 * x;
    else
        x = 1.055 * pow(x, 1.0 / 2.4) - 0.055;
    return (long)floor(x * 255.0 + 0.5);
}

/* IEEE half of @p f, rounded to nearest even ("Conversions from float to
 * half round the mantissa using the round to nearest even or round to zero
 * rounding mode": refcl rounds to nearest even). */
static uint16_t half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof(x));
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t abs = x & 0x7FFFFFFFu;
    if (abs > 0x7F800000u)
        return sign | 0x7E00u; /* NaN */
    if (abs >= 0x477FF000u)
        return sign | 0x7C00u; /* rounds past 65504: infinity */
    if (abs < 0x38800000u) {   /* below 2^-14: subnormal or zero */
        float scaled = fabsf(f) * 16777216.0f; /* in units of 2^-24 */
        return sign | (uint16_t)lrintf(scaled);
    }
    uint32_t mantissa = abs & 0x7FFFFFu;
    uint32_t half = ((abs >> 23) - 112) << 10 | mantissa >> 13;
    uint32_t rest = mantissa & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++; /* a carry into the exponent is the right rounding */
    return sign | (uint16_t)half;
}

/* One channel value of @p type from a float, into @p out. */
static void store_float(cl_channel_type type, float f, bool srgb, void *out)
{
    switch (type) {
    case CL_UNORM_INT8: {
        uint8_t v = (uint8_t)(srgb ? srgb_encode(f)
                                   : normalize(f, 255.0f, 0, 255));
        memcpy(out, &v, 1);
        break;
    }
    case CL_SNORM_INT8: {
        int8_t v = (int8_t)normalize(f, 127.0f, -128, 127);
        memcpy(out, &v, 1);
        break;
    }
    case CL_UNORM_INT16: {
        uint16_t v = (uint16_t)normalize(f, 65535.0f, 0, 65535);
        memcpy(out, &v, 2);
        break;
    }
    case CL_SNORM_INT16: {
        int16_t v = (int16_t)normalize(f, 32767.0f, -32768, 32767);
        memcpy(out, &v, 2);
        break;
    }
    case CL_HALF_FLOAT: {
        uint16_t v = half_from_float(f);
        memcpy(out, &v, 2);
        break;
    }
    default: /* CL_FLOAT */
        memcpy(out, &f, 4);
        break;
    }
}

static bool signed_type(cl_channel_type type)
{
    return type == CL_SIGNED_INT8 || type == CL_SIGNED_INT16 ||
           type == CL_SIGNED_INT32;
}

/* One channel of a signed or unsigned integer type, saturated to its
 * width (convert_char_sat and the like). */
static void store_int(cl_channel_type type, int64_t v, void *out)
{
    size_t size = plain_size(type);
    bool is_signed = signed_type(type);
    int64_t lo = is_signed ? -((int64_t)1 << (8 * size - 1)) : 0;
    int64_t hi = is_signed ? ((int64_t)1 << (8 * size - 1)) - 1
                           : ((int64_t)1 << (8 * size)) - 1;
    v = v < lo ? lo : v > hi ? hi : v;
    uint32_t bits = (uint32_t)v;
    if (size == 1) {
        uint8_t b = (uint8_t)bits;
        memcpy(out, &b, 1);
    } else if (size == 2) {
        uint16_t b = (uint16_t)bits;
        memcpy(out, &b, 2);
    } else {
        memcpy(out, &bits, 4);
    }
}

/* A packed texel: "the channels are packed with the first channel in the
 * most significant bits of the bitfield". */
static void pack_fields(cl_channel_type type, const float rgba[4], void *out)
{
    uint32_t v;
    switch (type) {
    case CL_UNORM_SHORT_565:
        v = (uint32_t)(normalize(rgba[0], 31.0f, 0, 31) << 11 |
                       normalize(rgba[1], 63.0f, 0, 63) << 5 |
                       normalize(rgba[2], 31.0f, 0, 31));
        break;
    case CL_UNORM_SHORT_555:
        v = (uint32_t)(normalize(rgba[0], 31.0f, 0, 31) << 10 |
                       normalize(rgba[1], 31.0f, 0, 31) << 5 |
                       normalize(rgba[2], 31.0f, 0, 31));
        break;
    case CL_UNORM_INT_101010:
        v = (uint32_t)(normalize(rgba[0], 1023.0f, 0, 1023) << 20 |
                       normalize(rgba[1], 1023.0f, 0, 1023) << 10 |
                       normalize(rgba[2], 1023.0f, 0, 1023));
        break;
    default: /* CL_UNORM_INT_101010_2 */
        v = (uint32_t)(normalize(rgba[0], 1023.0f, 0, 1023) << 22 |
                       normalize(rgba[1], 1023.0f, 0, 1023) << 12 |
                       normalize(rgba[2], 1023.0f, 0, 1023) << 2 |
                       normalize(rgba[3], 3.0f, 0, 3));
        break;
    }
    if (packed_size(type) == 2) {
        uint16_t s = (uint16_t)v;
        memcpy(out, &s, 2);
    } else {
        memcpy(out, &v, 4);
    }
}

static bool integer_type(cl_channel_type type)
{
    switch (type) {
    case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32:
        return true;
    default:
        return false;
    }
}

void refcl_format_pack(const cl_image_format *format, const void *color,
                       void *texel)
{
    const struct order *o = valid_order(format);
    cl_channel_type type = format->image_channel_data_type;
    if (packed_size(type)) {
        float rgba[4];
        memcpy(rgba, color, sizeof(rgba));
        pack_fields(type, rgba, texel);
        return;
    }
    size_t size = plain_size(type);
    unsigned char *out = texel;
    for (unsigned c = 0; c < o->channels; c++) {
        unsigned from = o->stored[c];
        const unsigned char *in = (const unsigned char *)color + 4 * from;
        if (integer_type(type)) {
            int32_t s;
            uint32_t u;
            memcpy(&s, in, 4);
            memcpy(&u, in, 4);
            store_int(type, signed_type(type) ? (int64_t)s : (int64_t)u,
                      out + c * size);
        } else {
            float f;
            memcpy(&f, in, 4);
            /* "The alpha channel is not converted" to sRGB. */
            store_float(type, f, o->srgb && from != 3, out + c * size);
        }
    }
}
