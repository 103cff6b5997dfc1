/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the SPIR-V fuzz targets check of refcl's rewrite of SPIR-V 1.4
 * (compiler/spirv_lower.c, compiled into the target): on any bytes it
 * returns, and what it writes is a module of whole instructions, in the
 * host's order, whose bound covers the input's.
 */
#ifndef REFCL_FUZZ_SPIRV_CHECK_H
#define REFCL_FUZZ_SPIRV_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/spirv.h"

static inline uint32_t fuzz_word(const unsigned char *bytes, size_t i)
{
    uint32_t v;
    memcpy(&v, bytes + 4 * i, 4);
    return v;
}

static inline void fuzz_check_lowered(const uint8_t *data, size_t size)
{
    struct refcl_blob il = {(unsigned char *)data, size}, out;
    if (!refcl_spirv_lower(&il, &out))
        return;
    size_t count = out.size / 4;
    bool whole = out.size % 4 == 0 && count >= 5 &&
                 fuzz_word(out.bytes, 0) == 0x07230203u;
    for (size_t i = 5; whole && i < count; i += fuzz_word(out.bytes, i) >> 16)
        whole = (fuzz_word(out.bytes, i) >> 16) != 0 &&
                (fuzz_word(out.bytes, i) >> 16) <= count - i;
    if (!whole) {
        fprintf(stderr, "fuzz: refcl_spirv_lower wrote a broken module\n");
        abort();
    }
    free(out.bytes);
}

#endif
