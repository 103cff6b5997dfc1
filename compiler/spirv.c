/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What refcl reads of a SPIR-V module itself (refcl/spirv.h). Its
 * specialization constants (OpDecorate <id> SpecId <n> on an
 * OpSpecConstant, OpSpecConstantTrue or OpSpecConstantFalse): the type of
 * the one a SpecId names, for clSetProgramSpecializationConstant, and the
 * module specialized for a build, each constant's literal words replaced
 * by the value given (a bool's opcode made True or False), so that the
 * translator reads a module with nothing left to set (its own --spec-const
 * takes no negative integer and no 64-bit one of 19 digits). And the
 * instructions llvm-spirv-15 stops on that compiler/spirv_lower.c left,
 * which a build names in its log instead of the translator's assertion.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/spirv.h"

enum {
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71,
    DECORATION_SPEC_ID = 1,
    HEADER_WORDS = 5,
};

/* The module's words, in the host's order: clCreateProgramWithIL checked
 * the header (the magic number in either order). */
struct words {
    const unsigned char *bytes;
    size_t count;
    bool swapped;
};

static struct words words_of(const struct refcl_blob *il)
{
    uint32_t magic;
    memcpy(&magic, il->bytes, 4);
    return (struct words){il->bytes, il->size / 4, magic == 0x03022307u};
}

static uint32_t word(const struct words *w, size_t i)
{
    uint32_t v;
    memcpy(&v, w->bytes + 4 * i, 4);
    return w->swapped ? __builtin_bswap32(v) : v;
}

/* Calls @p visit with each instruction's first word's index, its opcode
 * and its word count, until it returns true or the words end (a word
 * count of 0 or past the end ends it: the translator judges the rest).
 * @return whether @p visit returned true. */
static bool each_instruction(const struct words *w,
                             bool (*visit)(const struct words *, size_t,
                                           uint32_t, uint32_t, void *),
                             void *data)
{
    for (size_t i = HEADER_WORDS; i < w->count;) {
        uint32_t first = word(w, i), length = first >> 16;
        if (length == 0 || length > w->count - i)
            return false;
        if (visit(w, i, first & 0xffff, length, data))
            return true;
        i += length;
    }
    return false;
}

struct search {
    uint32_t spec_id, target, type;
    struct refcl_spec_constant *found;
};

static bool find_decorated(const struct words *w, size_t i, uint32_t op,
                           uint32_t length, void *data)
{
    struct search *s = data;
    if (op != OP_DECORATE || length < 4 ||
        word(w, i + 2) != DECORATION_SPEC_ID || word(w, i + 3) != s->spec_id)
        return false;
    s->target = word(w, i + 1);
    return true;
}

static bool find_constant(const struct words *w, size_t i, uint32_t op,
                          uint32_t length, void *data)
{
    struct search *s = data;
    bool constant = op == OP_SPEC_CONSTANT || op == OP_SPEC_CONSTANT_TRUE ||
                    op == OP_SPEC_CONSTANT_FALSE;
    if (!constant || length < 3 || word(w, i + 2) != s->target)
        return false;
    s->type = word(w, i + 1);
    return true;
}

static bool find_type(const struct words *w, size_t i, uint32_t op,
                      uint32_t length, void *data)
{
    struct search *s = data;
    bool type = op == OP_TYPE_BOOL || op == OP_TYPE_INT || op == OP_TYPE_FLOAT;
    if (!type || length < 2 || word(w, i + 1) != s->type)
        return false;
    if (op == OP_TYPE_BOOL) {
        *s->found = (struct refcl_spec_constant){'b', 1};
    } else if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && length >= 3) {
        uint32_t bits = word(w, i + 2);
        bool sized = bits == 8 || bits == 16 || bits == 32 || bits == 64;
        if (sized && (op == OP_TYPE_INT || bits >= 16))
            *s->found = (struct refcl_spec_constant){
                op == OP_TYPE_INT ? 'i' : 'f', bits / 8};
    }
    return true;
}

bool refcl_spirv_spec_constant(const struct refcl_blob *il, cl_uint spec_id,
                               struct refcl_spec_constant *out)
{
    struct words w = words_of(il);
    struct search s = {.spec_id = spec_id, .found = out};
    *out = (struct refcl_spec_constant){0};
    return each_instruction(&w, find_decorated, &s) &&
           each_instruction(&w, find_constant, &s) &&
           each_instruction(&w, find_type, &s) && out->kind;
}

struct specialize {
    const struct refcl_spec_value *values;
    size_t count;
    uint32_t *targets; /* the result id each value's SpecId decorates */
    unsigned char *bytes;
    bool swapped;
};

static void put_word(struct specialize *s, size_t i, uint32_t v)
{
    v = s->swapped ? __builtin_bswap32(v) : v;
    memcpy(s->bytes + 4 * i, &v, 4);
}

static bool note_targets(const struct words *w, size_t i, uint32_t op,
                         uint32_t length, void *data)
{
    struct specialize *s = data;
    if (op == OP_DECORATE && length >= 4 &&
        word(w, i + 2) == DECORATION_SPEC_ID)
        for (size_t v = 0; v < s->count; v++)
            if (s->values[v].spec_id == word(w, i + 3))
                s->targets[v] = word(w, i + 1);
    return false;
}

/* A value's literal words: "low-order words appear first"; a type narrower
 * than 32 bits zero-extended (OpenCL's SPIR-V integers are signless). A
 * bool's opcode says its value. */
static bool set_constants(const struct words *w, size_t i, uint32_t op,
                          uint32_t length, void *data)
{
    struct specialize *s = data;
    bool boolean = op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE;
    if ((!boolean && op != OP_SPEC_CONSTANT) || length < 3)
        return false;
    for (size_t v = 0; v < s->count; v++) {
        if (s->targets[v] != word(w, i + 2))
            continue;
        uint64_t bits = s->values[v].bits;
        if (boolean) {
            uint32_t opcode = bits ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE;
            put_word(s, i, length << 16 | opcode);
        } else {
            for (size_t k = 3; k < length && k < 5; k++)
                put_word(s, i + k, (uint32_t)(bits >> 32 * (k - 3)));
        }
    }
    return false;
}

bool refcl_spirv_specialize(const struct refcl_blob *il,
                            const struct refcl_spec_value *values,
                            size_t count, struct refcl_blob *out)
{
    struct words w = words_of(il);
    struct specialize s = {values, count, calloc(count, sizeof(uint32_t)),
                           malloc(il->size), w.swapped};
    if (!s.targets || !s.bytes) {
        free(s.targets);
        free(s.bytes);
        return false;
    }
    memcpy(s.bytes, il->bytes, il->size);
    /* Result ids are never 0, so an unmatched value's target matches
     * nothing. */
    each_instruction(&w, note_targets, &s);
    each_instruction(&w, set_constants, &s);
    free(s.targets);
    *out = (struct refcl_blob){s.bytes, il->size};
    return true;
}

/* The instructions llvm-spirv-15 stops on (an assertion, "Not
 * implemented"), by opcode: SPIR-V 1.4's, and OpCopyMemory, what
 * compiler/spirv_lower.c could not rewrite. */
static const char *unread_instruction(uint32_t op)
{
    switch (op) {
    case 400: return "OpCopyLogical";
    case 401: return "OpPtrEqual";
    case 402: return "OpPtrNotEqual";
    case 403: return "OpPtrDiff";
    case 63: return "OpCopyMemory"; /* any: "Invalid Id" */
    case 5632: return "OpDecorateString";
    case 5633: return "OpMemberDecorateString";
    default: return NULL;
    }
}

/* Words of the memory operands whose mask is @p mask (the mask's own
 * included): Aligned takes a literal, MakePointerAvailable and
 * MakePointerVisible an id each (SPIR-V 3.26 "Memory Operands"). */
static uint32_t memory_operand_words(uint32_t mask)
{
    return 1 + !!(mask & 0x2) + !!(mask & 0x8) + !!(mask & 0x10);
}

struct unread {
    const char *name;
};

static bool find_unread(const struct words *w, size_t i, uint32_t op,
                        uint32_t length, void *data)
{
    struct unread *u = data;
    u->name = unread_instruction(op);
    /* OpCopyMemorySized (64: target, source, size) with SPIR-V 1.4's
     * second set of memory operands, the source's: llvm-spirv-15 reads it
     * as an id. */
    if (op == 64 && length > 4 &&
        length > 4 + memory_operand_words(word(w, i + 4)))
        u->name = "OpCopyMemorySized with two memory operands";
    return u->name != NULL;
}

bool refcl_spirv_readable(const struct refcl_blob *il, char *why,
                          size_t room)
{
    struct words w = words_of(il);
    struct unread u = {NULL};
    if (!each_instruction(&w, find_unread, &u))
        return true;
    snprintf(why, room, "refcl: the module has %s, which the SPIR-V "
             "translator refcl uses (llvm-spirv-15) cannot read and refcl "
             "could not rewrite\n", u.name);
    return false;
}
