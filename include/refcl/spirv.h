/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What refcl reads of a SPIR-V module itself (compiler/spirv.c,
 * compiler/spirv_lower.c), before llvm-spirv does: its specialization
 * constants, set by clSetProgramSpecializationConstant, SPIR-V 1.4's
 * instructions llvm-spirv-15 cannot read rewritten into ones it can, and
 * those that remain, which a build reports in its log.
 */
#ifndef REFCL_SPIRV_H
#define REFCL_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "refcl/compat.h"
#include "refcl/compiler.h"

/** A scalar specialization constant's type: 'b' (bool), 'i' or 'f', and
 *  its size in bytes (1 for bool: "This should be 1 for boolean
 *  constants"). */
struct refcl_spec_constant {
    char kind;
    size_t bytes;
};

/** Whether SPIR-V module @p il (its header checked) has a scalar
 *  specialization constant of SpecId @p spec_id of a type refcl can set;
 *  its type in @p out (compiler/spirv.c). */
bool refcl_spirv_spec_constant(const struct refcl_blob *il, cl_uint spec_id,
                               struct refcl_spec_constant *out);

/** A specialization constant's value: its bytes, zero-extended (a
 *  bool's non-zero is true). */
struct refcl_spec_value {
    cl_uint spec_id;
    uint64_t bits;
};

/** A copy of @p il in @p out (owned) with the @p count values set: the
 *  module specialized. @return false without memory. */
bool refcl_spirv_specialize(const struct refcl_blob *il,
                            const struct refcl_spec_value *values,
                            size_t count, struct refcl_blob *out);

/** A copy of SPIR-V module @p il (its header checked) in @p out (owned,
 *  in the host's byte order) with SPIR-V 1.4's instructions that
 *  llvm-spirv-15 cannot read rewritten into SPIR-V of the same meaning:
 *  OpDecorateString and OpMemberDecorateString of UserSemantic dropped,
 *  OpCopyMemory and OpCopyMemorySized given one set of memory operands,
 *  OpPtrEqual, OpPtrNotEqual and OpPtrDiff made integer arithmetic on
 *  OpConvertPtrToU, OpCopyLogical made OpCompositeExtract and
 *  OpCompositeInsert (compiler/spirv_lower.c). Any bytes are safe: an
 *  instruction refcl cannot rewrite is left as it was.
 *  @return false, @p out empty, when nothing was rewritten (nothing to,
 *  a malformed module, no memory): the build reads @p il itself. */
bool refcl_spirv_lower(const struct refcl_blob *il, struct refcl_blob *out);

/** Whether llvm-spirv-15 can read SPIR-V module @p il (its header
 *  checked): if not, the first instruction it cannot read, named in
 *  @p why (a sentence for the build log). */
bool refcl_spirv_readable(const struct refcl_blob *il, char *why,
                          size_t room);

#endif
