/* SPDX-License-Identifier: Apache-2.0 */
/*
 * printf of compiled kernels, on the host: the command's buffer, and its
 * records (refcl/kernel_abi.h) formatted in buffer order once the
 * command's work is done, which is each work-item's program order
 * (docs/kernels.md).
 *
 * The format is OpenCL C 3.0's (6.15.14.2): % flags width .precision
 * [vN] [hh|h|hl|l] conversion. Each conversion is printed by the C
 * library's printf with the same flags, width and precision, a vector
 * element by element separated by ','. The record says only each
 * argument's size: what a conversion reads must fit in it, else the
 * conversion prints nothing ("If there are insufficient arguments for the
 * format, the behavior is undefined", and so for a mismatch); a
 * conversion the grammar does not allow is copied as it is.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/exec.h"
#include "refcl/kernel_abi.h"

struct refcl_abi_printf *refcl_printf_alloc(void)
{
    struct refcl_abi_printf *b = malloc(sizeof(*b));
    if (!b)
        return NULL;
    b->base = aligned_alloc(REFCL_ABI_ALIGN, REFCL_PRINTF_BUFFER_SIZE);
    if (!b->base) {
        free(b);
        return NULL;
    }
    b->capacity = REFCL_PRINTF_BUFFER_SIZE;
    b->cursor = 0;
    return b;
}

void refcl_printf_free(struct refcl_abi_printf *buffer)
{
    if (buffer)
        free(buffer->base);
    free(buffer);
}

/* ---- one conversion specification ------------------------------------ */

struct spec {
    char flags[8];
    int width, precision;  /* -1: not given */
    unsigned count;        /* vector elements, 0 for a scalar */
    unsigned length;       /* element bytes the length modifier says, 0
                              if none */
    bool long_mod;         /* l: a 64-bit integer scalar */
    char conversion;
};

/* A decimal number of at most 6 digits at *@p s (past it), or -1. */
static int number_parse(const char **s)
{
    int n = -1;
    for (int digits = 0; **s >= '0' && **s <= '9'; (*s)++, digits++)
        n = digits < 6 ? (n < 0 ? 0 : n) * 10 + (**s - '0') : INT_MAX;
    return n == INT_MAX ? -2 : n;
}

/* The length modifier at *@p s (past it; any run of h and l, as the
 * pass reads it): its element bytes, 0 if none, LENGTH_INVALID. */
#define LENGTH_INVALID 0xffu
static unsigned length_parse(const char **s, bool *long_mod)
{
    size_t n = strspn(*s, "hl");
    unsigned bytes = n == 0                            ? 0
                     : n == 1 && **s == 'h'            ? 2
                     : n == 1                          ? 8
                     : n == 2 && !strncmp(*s, "hh", 2) ? 1
                     : n == 2 && !strncmp(*s, "hl", 2) ? 4
                                                       : LENGTH_INVALID;
    *s += n;
    *long_mod = bytes == 8;
    return bytes;
}

static bool vector_count_valid(unsigned n)
{
    return n == 2 || n == 3 || n == 4 || n == 8 || n == 16;
}

/* Whether @p sp is a conversion the grammar allows: a vector needs a
 * length modifier and an integer or floating-point conversion (hh is no
 * floating-point length); hl is for vectors only; c, s and p take no
 * length modifier. */
static bool spec_valid(const struct spec *sp)
{
    if (!sp->conversion || !strchr("diouxXfFeEgGaAcsp", sp->conversion) ||
        sp->width == -2 || sp->precision == -2 ||
        sp->length == LENGTH_INVALID)
        return false;
    bool integer = strchr("diouxX", sp->conversion) != NULL;
    bool floating = strchr("fFeEgGaA", sp->conversion) != NULL;
    if (sp->count)
        return vector_count_valid(sp->count) && sp->length &&
               (integer || (floating && sp->length >= 2));
    if (integer)
        return sp->length != 4;
    if (floating)
        return sp->length == 0 || sp->length == 8;
    return sp->length == 0;
}

/* The specification after a '%' at @p s; returns where it ends. */
static const char *spec_parse(const char *s, struct spec *sp)
{
    memset(sp, 0, sizeof(*sp));
    size_t f = 0;
    for (; *s && strchr("-+ #0", *s); s++)
        if (f < sizeof(sp->flags) - 1)
            sp->flags[f++] = *s;
    sp->width = number_parse(&s);
    sp->precision = -1;
    if (*s == '.') {
        s++;
        sp->precision = number_parse(&s);
        if (sp->precision == -1)
            sp->precision = 0; /* "a period alone": precision 0 */
    }
    if (*s == 'v') {
        s++;
        int n = number_parse(&s);
        sp->count = n > 0 ? (unsigned)n : 1; /* 1: no valid count */
    }
    sp->length = length_parse(&s, &sp->long_mod);
    sp->conversion = *s;
    return *s ? s + 1 : s;
}

/* ---- the values ----------------------------------------------------- */

static uint64_t unsigned_read(const unsigned char *p, unsigned bytes)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (bytes) {
    case 1: memcpy(&u8, p, 1); return u8;
    case 2: memcpy(&u16, p, 2); return u16;
    case 4: memcpy(&u32, p, 4); return u32;
    default: memcpy(&u64, p, 8); return u64;
    }
}

static int64_t signed_read(const unsigned char *p, unsigned bytes)
{
    uint64_t u = unsigned_read(p, bytes);
    unsigned shift = 64 - 8 * bytes;
    return (int64_t)(u << shift) >> shift;
}

/* IEEE 754 binary16 to double, exactly (through binary32's bits). */
static double half_to_double(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff, bits = sign;
    if (exponent == 0x1f) {
        bits |= 0x7f800000 | mantissa << 13;
    } else if (exponent) {
        bits |= (exponent + 112) << 23 | mantissa << 13;
    } else if (mantissa) { /* subnormal: normalized in binary32 */
        for (exponent = 113; !(mantissa & 0x400); exponent--)
            mantissa <<= 1;
        bits |= exponent << 23 | (mantissa & 0x3ff) << 13;
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static double floating_read(const unsigned char *p, unsigned bytes)
{
    float f;
    double d;
    if (bytes == 2)
        return half_to_double((uint16_t)unsigned_read(p, 2));
    if (bytes == 4) {
        memcpy(&f, p, 4);
        return f;
    }
    memcpy(&d, p, 8);
    return d;
}

/* The bytes one element of @p sp reads: a scalar as clang passes it
 * (int, long, double, a pointer), a vector's element as its length
 * modifier says. */
static unsigned element_bytes(const struct spec *sp)
{
    if (sp->count)
        return sp->length;
    if (strchr("fFeEgGaAsp", sp->conversion) || sp->long_mod)
        return 8;
    return 4;
}

/* The C format of one element of @p sp: its flags, width, precision, and
 * a length fit for the value printed (long long, double, ...). */
static void c_format(const struct spec *sp, char *out, size_t room)
{
    char width[16] = "", precision[16] = "";
    if (sp->width >= 0)
        snprintf(width, sizeof(width), "%d", sp->width);
    if (sp->precision >= 0)
        snprintf(precision, sizeof(precision), ".%d", sp->precision);
    bool integer = strchr("diouxX", sp->conversion) != NULL;
    snprintf(out, room, "%%%s%s%s%s%c", sp->flags, width, precision,
             integer ? "ll" : "", sp->conversion);
}

/* Integers are printed as long long, narrowed first to what the length
 * modifier says ("the argument will be converted to signed char or
 * unsigned char before printing"). */
static void integer_print(FILE *out, const char *format,
                          const struct spec *sp, const unsigned char *p,
                          unsigned bytes)
{
    bool is_signed = sp->conversion == 'd' || sp->conversion == 'i';
    unsigned narrow = sp->count ? bytes : sp->length ? sp->length : bytes;
    if (is_signed) {
        int64_t v = signed_read(p, bytes);
        v = (int64_t)((uint64_t)v << (64 - 8 * narrow)) >> (64 - 8 * narrow);
        fprintf(out, format, (long long)v);
    } else {
        uint64_t v = unsigned_read(p, bytes);
        if (narrow < 8)
            v &= (UINT64_C(1) << (8 * narrow)) - 1;
        fprintf(out, format, (unsigned long long)v);
    }
}

static void element_print(FILE *out, const char *format,
                          const struct spec *sp, const unsigned char *p,
                          unsigned bytes)
{
    switch (sp->conversion) {
    case 'c':
        fprintf(out, format, (int)(unsigned char)unsigned_read(p, 4));
        return;
    case 's': {
        /* The pass stores only string literals' addresses (0 else). */
        const char *text = (const char *)(uintptr_t)unsigned_read(p, 8);
        fprintf(out, format, text ? text : "(null)");
        return;
    }
    case 'p':
        fprintf(out, format, (void *)(uintptr_t)unsigned_read(p, 8));
        return;
    }
    if (strchr("diouxX", sp->conversion))
        integer_print(out, format, sp, p, bytes);
    else
        fprintf(out, format, floating_read(p, bytes));
}

/* ---- records ------------------------------------------------------------ */

/* The arguments of a record, one after the other. */
struct args {
    const unsigned char *at, *end;
    uint32_t left;
};

/* The next argument's bytes and size, or NULL if there is none. */
static const unsigned char *arg_next(struct args *a, uint64_t *size)
{
    if (!a->left || a->end - a->at < 8)
        return NULL;
    memcpy(size, a->at, 8);
    size_t room = (size_t)(a->end - a->at) - 8;
    if (*size > room)
        return NULL;
    const unsigned char *bytes = a->at + 8;
    size_t padded = (size_t)(*size + 7) / 8 * 8;
    a->at = bytes + (padded < room ? padded : room);
    a->left--;
    return bytes;
}

/* Prints one conversion @p sp with the next argument; nothing if that
 * argument is missing or smaller than the conversion reads. */
static void conversion_print(FILE *out, const struct spec *sp,
                             struct args *a)
{
    uint64_t size = 0;
    const unsigned char *p = arg_next(a, &size);
    unsigned bytes = element_bytes(sp);
    unsigned count = sp->count ? sp->count : 1;
    if (!p || size < (uint64_t)bytes * count)
        return;
    char format[64];
    c_format(sp, format, sizeof(format));
    for (unsigned i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        element_print(out, format, sp, p + (size_t)i * bytes, bytes);
    }
}

/* One record of @p bytes at @p rec. */
static void record_print(FILE *out, const unsigned char *rec, size_t bytes)
{
    uint32_t num_args;
    uint64_t address;
    memcpy(&num_args, rec + 4, 4);
    memcpy(&address, rec + 8, 8);
    struct args a = {rec + REFCL_ABI_PRINTF_HEADER, rec + bytes, num_args};
    const char *s = (const char *)(uintptr_t)address;
    while (*s) {
        const char *percent = strchr(s, '%');
        size_t plain = percent ? (size_t)(percent - s) : strlen(s);
        fwrite(s, 1, plain, out);
        if (!percent)
            break;
        if (percent[1] == '%') {
            fputc('%', out);
            s = percent + 2;
            continue;
        }
        struct spec sp;
        s = spec_parse(percent + 1, &sp);
        if (spec_valid(&sp)) {
            conversion_print(out, &sp, &a);
        } else {
            /* Undefined: copied as it is; it takes its argument, as the
             * pass counts it. */
            uint64_t size;
            if (sp.conversion)
                arg_next(&a, &size);
            fwrite(percent, 1, (size_t)(s - percent), out);
        }
    }
}

void refcl_printf_flush(const struct refcl_abi_printf *buffer, FILE *out)
{
    uint64_t end = buffer->cursor < buffer->capacity ? buffer->cursor
                                                     : buffer->capacity;
    uint64_t at = 0;
    while (end - at >= REFCL_ABI_PRINTF_HEADER) {
        uint32_t bytes;
        memcpy(&bytes, buffer->base + at, 4);
        /* 0 marks the end; anything else malformed ends it too. */
        if (bytes < REFCL_ABI_PRINTF_HEADER || bytes % 8 || bytes > end - at)
            break;
        record_print(out, buffer->base + at, bytes);
        at += bytes;
    }
    fflush(out);
}
