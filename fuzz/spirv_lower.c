/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: refcl's rewrite of SPIR-V 1.4 for llvm-spirv-15
 * (compiler/spirv_lower.c) alone, in process, so that many inputs an
 * hour reach it: any bytes, a module out of whole instructions
 * (fuzz/spirv_check.h).
 */
#include <stdint.h>

#include "spirv_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_check_lowered(data, size);
    return 0;
}
