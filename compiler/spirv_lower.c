/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SPIR-V 1.4's instructions that llvm-spirv-15 cannot read, rewritten
 * into older instructions of the same meaning before it reads the module
 * (refcl/spirv.h): OpDecorateString and OpMemberDecorateString of
 * UserSemantic dropped (and the GOOGLE extensions that declare them), OpCopyMemory made OpLoad and OpStore (the
 * translator reads no OpCopyMemory), OpCopyMemorySized with two sets of
 * memory operands given one, OpPtrEqual, OpPtrNotEqual and OpPtrDiff
 * made integer arithmetic on OpConvertPtrToU, OpCopyLogical made
 * OpCompositeExtract and OpCompositeInsert. The module is the
 * application's: every read is bounded by the words, every table and the
 * output by the module's size, and whatever cannot be rewritten is left
 * as it was (refcl_spirv_readable then names it).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/spirv.h"

enum {
    HEADER_WORDS = 5,
    MAGIC = 0x07230203u,
    OP_UNDEF = 1,
    OP_EXTENSION = 10,
    OP_CAPABILITY = 17,
    OP_MEMORY_MODEL = 14,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_FUNCTION = 54,
    OP_DECORATE = 71,
    OP_LOAD = 61,
    OP_STORE = 62,
    OP_COPY_MEMORY = 63,
    OP_COPY_MEMORY_SIZED = 64,
    OP_COMPOSITE_EXTRACT = 81,
    OP_COMPOSITE_INSERT = 82,
    OP_S_CONVERT = 114,
    OP_CONVERT_PTR_TO_U = 117,
    OP_BITCAST = 124,
    OP_I_SUB = 130,
    OP_S_DIV = 135,
    OP_I_EQUAL = 170,
    OP_I_NOT_EQUAL = 171,
    OP_COPY_LOGICAL = 400,
    OP_PTR_EQUAL = 401,
    OP_PTR_NOT_EQUAL = 402,
    OP_PTR_DIFF = 403,
    OP_DECORATE_STRING = 5632,
    OP_MEMBER_DECORATE_STRING = 5633,
    CAPABILITY_INT64 = 11,
    DECORATION_C_PACKED = 10,
    DECORATION_USER_SEMANTIC = 5635,
    DECORATION_USER_TYPE_GOOGLE = 5636,
    MEMORY_VOLATILE = 0x1,
    MEMORY_ALIGNED = 0x2,
    MEMORY_NONTEMPORAL = 0x4,
    /* An OpCopyLogical's members, nested no deeper than this. */
    MAX_DEPTH = 16,
    /* Integer constants of the pointer-sized type noted or added. */
    MAX_CONSTANTS = 256,
    MAX_INSTRUCTION_WORDS = 0xffff,
    /* Members OpCopyLogical's rewrites extract, over the whole module:
     * what bounds the time a module of nested arrays can take. */
    COPY_LOGICAL_BUDGET = 1 << 18,
};

/* No layout (size 0): a type refcl does not size; a size stays below
 * this, so sums and products of two never overflow 64 bits. */
#define MAX_TYPE_SIZE ((uint64_t)1 << 40)

/* Words written, growing up to a limit set by the input's size. */
struct out {
    uint32_t *v;
    size_t n, cap, limit;
    bool failed;
};

struct constant {
    uint64_t value;
    uint32_t id;
};

struct lower {
    uint32_t *in; /* the module's words in the host's order */
    size_t count, first_function;
    uint32_t bound, next_id, pointer_bits;
    bool has_int64, changed;
    /* Per id below the bound: the word index of the type or constant
     * instruction defining it, a value's type, a type's layout. */
    uint32_t *def, *type_of, *align;
    uint64_t *size;
    unsigned char *packed;
    uint32_t uintptr; /* OpTypeInt of the pointers' width, unsigned */
    bool uintptr_added;
    struct constant constants[MAX_CONSTANTS];
    size_t constant_count, constants_found;
    uint32_t budget; /* of OpCopyLogical's extracts */
    struct out body;
};

static void put(struct out *o, uint32_t word)
{
    if (o->failed)
        return;
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        uint32_t *v = cap <= o->limit ? realloc(o->v, cap * 4) : NULL;
        if (!v) {
            o->failed = true;
            return;
        }
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = word;
}

/* An instruction: @p op and its @p count operand words. */
static void emit(struct out *o, uint32_t op, const uint32_t *operands,
                 size_t count)
{
    if (count + 1 > MAX_INSTRUCTION_WORDS) {
        o->failed = true;
        return;
    }
    put(o, (uint32_t)(count + 1) << 16 | op);
    for (size_t i = 0; i < count; i++)
        put(o, operands[i]);
}

static uint32_t length_at(const struct lower *l, size_t i)
{
    return l->in[i] >> 16;
}

static uint32_t opcode_at(const struct lower *l, size_t i)
{
    return l->in[i] & 0xffff;
}

/* The module's words in the host's order; false unless the stream of
 * instructions ends exactly at the end of the words. */
static bool read_words(const struct refcl_blob *il, struct lower *l)
{
    l->count = il->size / 4;
    if (l->count < HEADER_WORDS || il->size % 4 || l->count > UINT32_MAX)
        return false;
    l->in = malloc(l->count * 4);
    if (!l->in)
        return false;
    memcpy(l->in, il->bytes, l->count * 4);
    bool swapped = l->in[0] != MAGIC;
    for (size_t i = 0; swapped && i < l->count; i++)
        l->in[i] = __builtin_bswap32(l->in[i]);
    if (l->in[0] != MAGIC)
        return false;
    for (size_t i = HEADER_WORDS; i < l->count; i += length_at(l, i))
        if (length_at(l, i) == 0 || length_at(l, i) > l->count - i)
            return false;
    return true;
}

/* A string decoration that only annotates: UserSemantic (HlslSemanticGOOGLE
 * before SPIR-V 1.4), "a string describing the intended use of a value"
 * (SPV_GOOGLE_hlsl_functionality1), and UserTypeGOOGLE, the source's type
 * name for reflection (SPV_GOOGLE_user_type). Neither has a rule of
 * execution, and llvm-spirv-15 reads no OpDecorateString at all. */
static bool annotation_only(const struct lower *l, size_t i)
{
    uint32_t op = opcode_at(l, i), length = length_at(l, i);
    size_t at = op == OP_DECORATE_STRING ? 2
                : op == OP_MEMBER_DECORATE_STRING ? 3 : 0;
    if (!at || length <= at)
        return false;
    uint32_t decoration = l->in[i + at];
    return decoration == DECORATION_USER_SEMANTIC ||
           decoration == DECORATION_USER_TYPE_GOOGLE;
}

/* The extensions that only bring those decorations (HlslCounterBufferGOOGLE,
 * for Vulkan's Uniform storage class, aside): dropped with them, as
 * llvm-spirv-15 refuses a module that declares an extension it does not
 * know. A literal string's bytes are in the word's little-endian order,
 * the host's. */
static bool google_extension(const struct lower *l, size_t i)
{
    static const char *const names[] = {"SPV_GOOGLE_decorate_string",
                                        "SPV_GOOGLE_hlsl_functionality1",
                                        "SPV_GOOGLE_user_type"};
    if (opcode_at(l, i) != OP_EXTENSION)
        return false;
    size_t room = 4 * (length_at(l, i) - 1);
    for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
        size_t bytes = strlen(names[n]) + 1;
        if (bytes <= room && !memcmp(l->in + i + 1, names[n], bytes))
            return true;
    }
    return false;
}

static bool dropped(const struct lower *l, size_t i)
{
    return annotation_only(l, i) || google_extension(l, i);
}

static bool memory_operand_mask_known(uint32_t mask)
{
    return !(mask & ~(uint32_t)(MEMORY_VOLATILE | MEMORY_ALIGNED |
                                MEMORY_NONTEMPORAL));
}

static size_t memory_operand_words(uint32_t mask)
{
    return 1 + !!(mask & MEMORY_ALIGNED);
}

/* OpCopyMemory's and OpCopyMemorySized's fixed operands, the
 * instruction's first word included; 0 for another instruction. */
static size_t copy_fixed_words(uint32_t op)
{
    return op == OP_COPY_MEMORY ? 3 : op == OP_COPY_MEMORY_SIZED ? 4 : 0;
}

/* An OpCopyMemory or OpCopyMemorySized at @p i with two sets of memory
 * operands, both of masks refcl knows (Volatile, Aligned, Nontemporal):
 * the index of the second set in @p second. */
static bool two_memory_operand_sets(const struct lower *l, size_t i,
                                    size_t *second)
{
    size_t fixed = copy_fixed_words(opcode_at(l, i)), length = length_at(l, i);
    if (!fixed || length <= fixed ||
        !memory_operand_mask_known(l->in[i + fixed]))
        return false;
    *second = fixed + memory_operand_words(l->in[i + fixed]);
    return length > *second &&
           memory_operand_mask_known(l->in[i + *second]) &&
           length == *second + memory_operand_words(l->in[i + *second]);
}

static bool rewritten(uint32_t op)
{
    return op == OP_COPY_MEMORY || op == OP_COPY_LOGICAL || op == OP_PTR_EQUAL ||
           op == OP_PTR_NOT_EQUAL || op == OP_PTR_DIFF;
}

/* Whether the module has anything to rewrite. */
static bool needs_lowering(const struct lower *l)
{
    size_t second;
    for (size_t i = HEADER_WORDS; i < l->count; i += length_at(l, i))
        if (rewritten(opcode_at(l, i)) || dropped(l, i) ||
            two_memory_operand_sets(l, i, &second))
            return true;
    return false;
}

/* Instructions whose first operands are a result type and a result id,
 * among them every one that can give a pointer or a composite in an
 * OpenCL kernel. */
static bool typed_result(uint32_t op)
{
    return op == OP_UNDEF || (op >= 41 && op <= 46) || /* constants */
           (op >= 48 && op <= 52) ||                   /* spec constants */
           op == 55 || op == 57 || op == 59 || op == 61 || /* parameter,
                                                     call, variable, load */
           (op >= 65 && op <= 67) || op == 70 ||       /* access chains */
           (op >= 77 && op <= 83) ||                   /* composites */
           (op >= 109 && op <= 126) ||                 /* conversions */
           op == 169 || op == 245 || (op >= 400 && op <= 403);
}

static bool id_ok(const struct lower *l, uint32_t id)
{
    return id != 0 && id < l->bound;
}

static uint32_t def_opcode(const struct lower *l, uint32_t id)
{
    return id_ok(l, id) && l->def[id] ? opcode_at(l, l->def[id]) : 0;
}

static uint32_t int_width(const struct lower *l, uint32_t type)
{
    if (def_opcode(l, type) != OP_TYPE_INT ||
        length_at(l, l->def[type]) < 3)
        return 0;
    return l->in[l->def[type] + 2];
}

/* An OpConstant of an integer type's value, in @p value: "low-order
 * words appear first". */
static bool constant_value(const struct lower *l, uint32_t id,
                           uint64_t *value)
{
    if (def_opcode(l, id) != OP_CONSTANT)
        return false;
    size_t c = l->def[id];
    uint32_t bits = int_width(l, l->in[c + 1]);
    if (!bits || bits > 64 || length_at(l, c) < (bits <= 32 ? 4u : 5u))
        return false;
    *value = l->in[c + 3];
    if (bits > 32)
        *value |= (uint64_t)l->in[c + 4] << 32;
    return true;
}

static uint64_t round_up(uint64_t v, uint64_t align)
{
    return (v + align - 1) / align * align;
}

static void set_layout(struct lower *l, uint32_t id, uint64_t size,
                       uint64_t align)
{
    if (size && size < MAX_TYPE_SIZE && align && align <= size) {
        l->size[id] = size;
        l->align[id] = (uint32_t)align;
    }
}

/* A struct's members laid out as C and llvm-spirv-15 do: each at its
 * alignment, the size a multiple of the largest; CPacked "the
 * structure is to be laid out with no padding". Offset decorations are
 * not read: the translator ignores them too, so that this size is the
 * stride of an OpPtrAccessChain over the struct. */
static void struct_layout(struct lower *l, size_t i, uint32_t id)
{
    uint64_t offset = 0, align = 1;
    bool packed = l->packed[id];
    for (size_t m = i + 2; m < i + length_at(l, i); m++) {
        uint32_t member = l->in[m];
        if (!id_ok(l, member) || !l->size[member])
            return;
        uint64_t a = packed ? 1 : l->align[member];
        offset = round_up(offset, a) + l->size[member];
        align = a > align ? a : align;
        if (offset >= MAX_TYPE_SIZE)
            return;
    }
    set_layout(l, id, round_up(offset, align), align);
}

/* A vector of 3 components is the size of 4 (OpenCL C 6.3.5, "Alignment
 * of Types"), each vector aligned to its size. */
static void vector_layout(struct lower *l, uint32_t component,
                          uint32_t count, uint32_t id)
{
    bool valid = count == 2 || count == 3 || count == 4 || count == 8 ||
                 count == 16;
    if (valid && id_ok(l, component) && l->size[component]) {
        uint64_t size = l->size[component] * (count == 3 ? 4 : count);
        set_layout(l, id, size, size);
    }
}

static void array_layout(struct lower *l, uint32_t element,
                         uint32_t length_id, uint32_t id)
{
    uint64_t length;
    if (id_ok(l, element) && l->size[element] &&
        constant_value(l, length_id, &length) && length &&
        length < MAX_TYPE_SIZE / l->size[element])
        set_layout(l, id, l->size[element] * length, l->align[element]);
}

/* A type's size and alignment in bytes, from the types declared before
 * it ("a type must be declared before it is used", forward pointers
 * aside): one pass in order, no recursion. */
static void type_layout(struct lower *l, size_t i, uint32_t op, uint32_t id)
{
    uint32_t length = length_at(l, i);
    if (op == OP_TYPE_BOOL) {
        set_layout(l, id, 1, 1);
    } else if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && length >= 3) {
        uint32_t bits = l->in[i + 2];
        if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
            set_layout(l, id, bits / 8, bits / 8);
    } else if (op == OP_TYPE_VECTOR && length >= 4) {
        vector_layout(l, l->in[i + 2], l->in[i + 3], id);
    } else if (op == OP_TYPE_ARRAY && length >= 4) {
        array_layout(l, l->in[i + 2], l->in[i + 3], id);
    } else if (op == OP_TYPE_STRUCT) {
        struct_layout(l, i, id);
    } else if (op == OP_TYPE_POINTER && l->pointer_bits) {
        set_layout(l, id, l->pointer_bits / 8, l->pointer_bits / 8);
    }
}

static bool declares_type(uint32_t op)
{
    return op == OP_TYPE_BOOL || op == OP_TYPE_INT || op == OP_TYPE_FLOAT ||
           op == OP_TYPE_VECTOR || op == OP_TYPE_ARRAY ||
           op == OP_TYPE_STRUCT || op == OP_TYPE_POINTER;
}

/* The pointers' width from OpMemoryModel: Physical32 or Physical64. */
static void note_addressing(struct lower *l, size_t i)
{
    if (length_at(l, i) >= 3)
        l->pointer_bits = l->in[i + 1] == 1 ? 32 : l->in[i + 1] == 2 ? 64 : 0;
}

static void note_uintptr(struct lower *l, size_t i, uint32_t id)
{
    if (!l->uintptr && length_at(l, i) >= 4 && l->pointer_bits &&
        l->in[i + 2] == l->pointer_bits && l->in[i + 3] == 0)
        l->uintptr = id;
}

/* Remembers an existing integer constant of the pointer-sized type, to
 * be used again rather than declared twice. */
static void note_constant(struct lower *l, size_t i, uint32_t id)
{
    uint64_t value;
    if (l->uintptr && l->in[i + 1] == l->uintptr &&
        l->constant_count < MAX_CONSTANTS && constant_value(l, id, &value))
        l->constants[l->constant_count++] = (struct constant){value, id};
}

/* Types, constants and the declarations before the first function. */
static void note_declaration(struct lower *l, size_t i, uint32_t op)
{
    uint32_t length = length_at(l, i);
    if (op == OP_CAPABILITY && length >= 2 && l->in[i + 1] == CAPABILITY_INT64)
        l->has_int64 = true;
    else if (op == OP_MEMORY_MODEL)
        note_addressing(l, i);
    else if (op == OP_DECORATE && length >= 3 &&
             l->in[i + 2] == DECORATION_C_PACKED && id_ok(l, l->in[i + 1]))
        l->packed[l->in[i + 1]] = 1;
    if ((!declares_type(op) && op != OP_CONSTANT) ||
        length < (op == OP_CONSTANT ? 3u : 2u))
        return;
    uint32_t id = l->in[i + (op == OP_CONSTANT ? 2 : 1)];
    if (!id_ok(l, id))
        return;
    l->def[id] = (uint32_t)i;
    if (op == OP_TYPE_INT)
        note_uintptr(l, i, id);
    if (op == OP_CONSTANT)
        note_constant(l, i, id);
    else
        type_layout(l, i, op, id);
}

/* Tables for ids below the bound; a bound far past the module's size
 * ("all <id>s in this module are guaranteed to satisfy 0 < id < Bound",
 * which "should be small") is not rewritten. */
static bool allocate_tables(struct lower *l)
{
    l->bound = l->in[3];
    if (l->bound == 0 || l->bound > 2 * l->count + 1024)
        return false;
    l->def = calloc(l->bound, sizeof(*l->def));
    l->type_of = calloc(l->bound, sizeof(*l->type_of));
    l->align = calloc(l->bound, sizeof(*l->align));
    l->size = calloc(l->bound, sizeof(*l->size));
    l->packed = calloc(l->bound, 1);
    return l->def && l->type_of && l->align && l->size && l->packed;
}

static void analyse(struct lower *l)
{
    l->first_function = l->count;
    for (size_t i = HEADER_WORDS; i < l->count; i += length_at(l, i)) {
        uint32_t op = opcode_at(l, i);
        if (op == OP_FUNCTION && l->first_function == l->count)
            l->first_function = i;
        if (i < l->first_function)
            note_declaration(l, i, op);
        if (typed_result(op) && length_at(l, i) >= 3 &&
            id_ok(l, l->in[i + 2]))
            l->type_of[l->in[i + 2]] = l->in[i + 1];
    }
    l->constants_found = l->constant_count;
    l->next_id = l->bound;
    l->budget = COPY_LOGICAL_BUDGET;
}

/* A result id past the module's; 0 once ids run out. */
static uint32_t new_id(struct lower *l)
{
    if (l->next_id == 0 || l->next_id >= UINT32_MAX - 1)
        return 0;
    return l->next_id++;
}

/* The unsigned integer type as wide as a pointer, declared if the module
 * has none. */
static uint32_t uintptr_type(struct lower *l)
{
    if (!l->uintptr && l->pointer_bits) {
        l->uintptr = new_id(l);
        l->uintptr_added = l->uintptr != 0;
    }
    return l->uintptr;
}

/* A constant of the pointer-sized type, reused or added. */
static uint32_t uintptr_constant(struct lower *l, uint64_t value)
{
    for (size_t c = 0; c < l->constant_count; c++)
        if (l->constants[c].value == value)
            return l->constants[c].id;
    uint32_t id = l->constant_count < MAX_CONSTANTS ? new_id(l) : 0;
    if (id)
        l->constants[l->constant_count++] = (struct constant){value, id};
    return id;
}

/* Both operands of a pointer comparison or difference as integers of
 * the pointers' width (OpConvertPtrToU; OpenCL's Physical addressing
 * has the Addresses capability it needs): their ids in @p a and @p b. */
static bool pointers_as_integers(struct lower *l, size_t i, uint32_t *a,
                                 uint32_t *b)
{
    uint32_t type = uintptr_type(l);
    *a = new_id(l);
    *b = new_id(l);
    if (!type || !*a || !*b)
        return false;
    emit(&l->body, OP_CONVERT_PTR_TO_U,
         (const uint32_t[]){type, *a, l->in[i + 3]}, 3);
    emit(&l->body, OP_CONVERT_PTR_TO_U,
         (const uint32_t[]){type, *b, l->in[i + 4]}, 3);
    return true;
}

/* OpPtrEqual and OpPtrNotEqual: "Result is true if Operand 1 and Operand
 * 2 have the same value. Result is false if Operand 1 and Operand 2 have
 * different values." (and the reverse), so OpIEqual or OpINotEqual of
 * their addresses. */
static bool lower_pointer_comparison(struct lower *l, size_t i)
{
    uint32_t a, b;
    if (length_at(l, i) != 5 || !pointers_as_integers(l, i, &a, &b))
        return false;
    uint32_t op = opcode_at(l, i) == OP_PTR_EQUAL ? OP_I_EQUAL : OP_I_NOT_EQUAL;
    emit(&l->body, op, (const uint32_t[]){l->in[i + 1], l->in[i + 2], a, b},
         4);
    return true;
}

/* The size in bytes of what a pointer value points to; 0 if unknown. */
static uint64_t pointee_size(const struct lower *l, uint32_t pointer)
{
    uint32_t type = id_ok(l, pointer) ? l->type_of[pointer] : 0;
    if (def_opcode(l, type) != OP_TYPE_POINTER ||
        length_at(l, l->def[type]) < 4)
        return 0;
    uint32_t pointee = l->in[l->def[type] + 3];
    return id_ok(l, pointee) ? l->size[pointee] : 0;
}

/* OpPtrDiff: "Element-number subtraction of the Operand 2 from Operand
 * 1", so the difference of the addresses divided by the size of the
 * pointee type, signed, then made the result's type: a bitcast when it
 * is as wide (another signedness), a signed conversion otherwise. */
static bool lower_pointer_difference(struct lower *l, size_t i)
{
    if (length_at(l, i) != 5)
        return false;
    uint32_t result_type = l->in[i + 1], result = l->in[i + 2], a, b;
    uint64_t element = pointee_size(l, l->in[i + 3]);
    uint32_t width = int_width(l, result_type);
    if (!element || !width || !pointers_as_integers(l, i, &a, &b))
        return false;
    uint32_t type = l->uintptr;
    bool direct = result_type == type;
    uint32_t divisor = element > 1 ? uintptr_constant(l, element) : 0;
    uint32_t difference = direct && element == 1 ? result : new_id(l);
    uint32_t quotient = element == 1 ? difference : direct ? result : new_id(l);
    if (!difference || !quotient || (element > 1 && !divisor))
        return false;
    emit(&l->body, OP_I_SUB, (const uint32_t[]){type, difference, a, b}, 4);
    if (element > 1)
        emit(&l->body, OP_S_DIV,
             (const uint32_t[]){type, quotient, difference, divisor}, 4);
    if (!direct)
        emit(&l->body, width == l->pointer_bits ? OP_BITCAST : OP_S_CONVERT,
             (const uint32_t[]){result_type, result, quotient}, 3);
    return true;
}

/* The number of members or elements two types that "logically match"
 * have: "They must be either both be OpTypeArray or both be
 * OpTypeStruct", arrays of "the same Length operand", structs with "the
 * same number of Member type"; 0 if they do not. */
static uint32_t matching_members(const struct lower *l, uint32_t to,
                                 uint32_t from)
{
    uint32_t op = def_opcode(l, to);
    if (!op || op != def_opcode(l, from))
        return 0;
    size_t t = l->def[to], f = l->def[from];
    uint64_t length, other;
    if (op == OP_TYPE_ARRAY && length_at(l, t) == 4 && length_at(l, f) == 4 &&
        constant_value(l, l->in[t + 3], &length) &&
        constant_value(l, l->in[f + 3], &other) && length == other &&
        length < MAX_INSTRUCTION_WORDS)
        return (uint32_t)length;
    if (op == OP_TYPE_STRUCT && length_at(l, t) == length_at(l, f))
        return length_at(l, t) - 2;
    return 0;
}

static uint32_t member_type(const struct lower *l, uint32_t type,
                            uint32_t index)
{
    size_t d = l->def[type];
    return l->in[d + 2 + (opcode_at(l, d) == OP_TYPE_ARRAY ? 0 : index)];
}

/* Member @p m of @p value (of type @p from) as a member of type @p to:
 * extracted, and copied the same way where the member types differ
 * ("Member type operands of the same index must be either the same or
 * must logically match"). @return its id, 0 on failure. */
static bool copy_logical(struct lower *l, uint32_t to, uint32_t from,
                         uint32_t value, uint32_t result, unsigned depth);

static uint32_t copy_member(struct lower *l, uint32_t to, uint32_t from,
                            uint32_t value, uint32_t m, unsigned depth)
{
    uint32_t t = member_type(l, to, m), f = member_type(l, from, m);
    uint32_t part = l->budget ? new_id(l) : 0;
    if (!part)
        return 0;
    l->budget--;
    emit(&l->body, OP_COMPOSITE_EXTRACT, (const uint32_t[]){f, part, value, m},
         4);
    if (t == f)
        return part;
    uint32_t copied = new_id(l);
    return copied && copy_logical(l, t, f, part, copied, depth + 1) ? copied
                                                                     : 0;
}

/* @p value of type @p from copied into @p result of type @p to: an
 * OpUndef of @p to with each member inserted in turn (llvm-spirv-15 reads
 * OpCompositeConstruct only of constants). */
static bool copy_logical(struct lower *l, uint32_t to, uint32_t from,
                         uint32_t value, uint32_t result, unsigned depth)
{
    uint32_t count = depth < MAX_DEPTH ? matching_members(l, to, from) : 0;
    uint32_t whole = count ? new_id(l) : 0;
    bool ok = whole != 0;
    emit(&l->body, OP_UNDEF, (const uint32_t[]){to, whole}, 2);
    for (uint32_t m = 0; ok && m < count; m++) {
        uint32_t part = copy_member(l, to, from, value, m, depth);
        uint32_t next = m + 1 == count ? result : new_id(l);
        ok = part && next && !l->body.failed;
        emit(&l->body, OP_COMPOSITE_INSERT,
             (const uint32_t[]){to, next, part, whole, m}, 5);
        whole = next;
    }
    return ok && !l->body.failed;
}

/* OpCopyLogical: "Make a logical copy of Operand. There are no
 * dereferenced pointers involved." */
static bool lower_copy_logical(struct lower *l, size_t i)
{
    if (length_at(l, i) != 4)
        return false;
    uint32_t value = l->in[i + 3];
    uint32_t from = id_ok(l, value) ? l->type_of[value] : 0;
    return from && copy_logical(l, l->in[i + 1], from, value, l->in[i + 2], 0);
}

/* The memory operand sets of the OpCopyMemory at @p i, all of masks
 * refcl knows: the index of the target's set in @p target and of the
 * source's in @p source (the same for one set: "If no masks or only one
 * mask is present, it applies to both Source and Target"), 0 for none. */
static bool copy_memory_operand_sets(const struct lower *l, size_t i,
                                     size_t *target, size_t *source)
{
    size_t length = length_at(l, i);
    *target = *source = 0;
    if (length == 3)
        return true;
    if (!memory_operand_mask_known(l->in[i + 3]))
        return false;
    *target = *source = 3;
    size_t end = 3 + memory_operand_words(l->in[i + 3]);
    if (length == end)
        return true;
    return length > end && two_memory_operand_sets(l, i, source);
}

/* Operands of a load or store: the set at @p at, if any. */
static size_t memory_operands(const struct lower *l, size_t i, size_t at,
                              uint32_t *words)
{
    size_t n = at ? memory_operand_words(l->in[i + at]) : 0;
    memcpy(words, l->in + i + at, n * 4);
    return n;
}

/* OpCopyMemory, which llvm-spirv-15 stops on with any operands: "Copy
 * from the memory pointed to by Source to the memory pointed to by
 * Target. [...] The amount of memory copied is the size of the type
 * pointed to", so an OpLoad of that type from Source and an OpStore of
 * it to Target, each with its own set of memory operands. */
static bool lower_copy_memory(struct lower *l, size_t i)
{
    size_t target, source;
    uint32_t from = length_at(l, i) >= 3 ? l->in[i + 2] : 0;
    uint32_t type = id_ok(l, from) ? l->type_of[from] : 0;
    if (!from || !copy_memory_operand_sets(l, i, &target, &source) ||
        def_opcode(l, type) != OP_TYPE_POINTER ||
        length_at(l, l->def[type]) < 4)
        return false;
    uint32_t value = new_id(l), words[5] = {l->in[l->def[type] + 3], value,
                                            from};
    size_t n = memory_operands(l, i, source, words + 3);
    if (!value)
        return false;
    emit(&l->body, OP_LOAD, words, 3 + n);
    words[0] = l->in[i + 1];
    words[1] = value;
    n = memory_operands(l, i, target, words + 2);
    emit(&l->body, OP_STORE, words, 2 + n);
    return true;
}

/* OpCopyMemorySized: "If two masks are present, the first applies to Target and cannot
 * include MakePointerVisible, and the second applies to Source and cannot
 * include MakePointerAvailable." One set "applies to both Source and
 * Target", so it keeps what binds either access and promises only what
 * holds for both: Volatile and Nontemporal of either, Aligned where both
 * have it, to the smaller alignment. */
static bool lower_memory_operands(struct lower *l, size_t i)
{
    size_t second, fixed = copy_fixed_words(opcode_at(l, i));
    if (!two_memory_operand_sets(l, i, &second))
        return false;
    uint32_t target = l->in[i + fixed], source = l->in[i + second];
    uint32_t mask = (target | source) & (MEMORY_VOLATILE | MEMORY_NONTEMPORAL);
    uint32_t words[6];
    memcpy(words, l->in + i + 1, (fixed - 1) * 4);
    size_t n = fixed - 1;
    if (target & source & MEMORY_ALIGNED) {
        uint32_t a = l->in[i + fixed + 1], b = l->in[i + second + 1];
        words[n++] = mask | MEMORY_ALIGNED;
        words[n++] = a < b ? a : b;
    } else {
        words[n++] = mask;
    }
    emit(&l->body, opcode_at(l, i), words, n);
    return true;
}

static bool lower_instruction(struct lower *l, size_t i)
{
    switch (opcode_at(l, i)) {
    case OP_COPY_MEMORY: return lower_copy_memory(l, i);
    case OP_COPY_LOGICAL: return lower_copy_logical(l, i);
    case OP_PTR_EQUAL:
    case OP_PTR_NOT_EQUAL: return lower_pointer_comparison(l, i);
    case OP_PTR_DIFF: return lower_pointer_difference(l, i);
    case OP_COPY_MEMORY_SIZED: return lower_memory_operands(l, i);
    default: return false;
    }
}

/* The functions, each instruction rewritten, dropped (an annotation out
 * of place) or copied: a rewrite that fails leaves the instruction as it
 * was, and no id or constant of it. */
static void lower_functions(struct lower *l)
{
    for (size_t i = l->first_function; i < l->count && !l->body.failed;
         i += length_at(l, i)) {
        size_t mark = l->body.n, constants = l->constant_count;
        uint32_t next_id = l->next_id, uintptr = l->uintptr;
        bool added = l->uintptr_added;
        if (dropped(l, i) ||
            (lower_instruction(l, i) && !l->body.failed)) {
            l->changed = true;
            continue;
        }
        l->body.failed = false;
        l->body.n = mark;
        l->constant_count = constants;
        l->next_id = next_id;
        l->uintptr = uintptr;
        l->uintptr_added = added;
        for (size_t w = 0; w < length_at(l, i); w++)
            put(&l->body, l->in[i + w]);
    }
}

/* The type and constants a rewrite declared, before the first function. */
static void emit_declarations(struct lower *l, struct out *o)
{
    if (l->uintptr_added)
        emit(o, OP_TYPE_INT,
             (const uint32_t[]){l->uintptr, l->pointer_bits, 0}, 3);
    for (size_t c = l->constants_found; c < l->constant_count; c++) {
        uint64_t v = l->constants[c].value;
        uint32_t words[4] = {l->uintptr, l->constants[c].id, (uint32_t)v,
                             (uint32_t)(v >> 32)};
        emit(o, OP_CONSTANT, words, l->pointer_bits == 64 ? 4 : 3);
    }
}

/* The whole module: the header with the new bound, Int64 where a 64-bit
 * type was added to a module without it, the declarations less the
 * dropped annotations, what the rewrite declared, the functions. */
static void assemble(struct lower *l, struct out *o)
{
    put(o, MAGIC);
    for (size_t w = 1; w < HEADER_WORDS; w++)
        put(o, w == 3 ? l->next_id : l->in[w]);
    if (l->uintptr_added && l->pointer_bits == 64 && !l->has_int64)
        emit(o, OP_CAPABILITY, (const uint32_t[]){CAPABILITY_INT64}, 1);
    for (size_t i = HEADER_WORDS; i < l->first_function;
         i += length_at(l, i)) {
        if (dropped(l, i)) {
            l->changed = true;
            continue;
        }
        for (size_t w = 0; w < length_at(l, i); w++)
            put(o, l->in[i + w]);
    }
    emit_declarations(l, o);
    for (size_t w = 0; w < l->body.n; w++)
        put(o, l->body.v[w]);
}

static void lower_free(struct lower *l)
{
    free(l->in);
    free(l->def);
    free(l->type_of);
    free(l->align);
    free(l->size);
    free(l->packed);
    free(l->body.v);
}

bool refcl_spirv_lower(const struct refcl_blob *il, struct refcl_blob *out)
{
    struct lower l = {0};
    struct out o = {0};
    *out = (struct refcl_blob){0};
    bool ok = read_words(il, &l) && needs_lowering(&l) && allocate_tables(&l);
    if (ok) {
        /* Each rewrite at most quadruples its instruction's words, but
         * OpCopyLogical's, within this. */
        l.body.limit = o.limit = 8 * l.count + ((size_t)1 << 20);
        analyse(&l);
        lower_functions(&l);
        assemble(&l, &o);
        ok = l.changed && !l.body.failed && !o.failed;
    }
    lower_free(&l);
    if (!ok) {
        free(o.v);
        return false;
    }
    *out = (struct refcl_blob){(unsigned char *)o.v, o.n * 4};
    return true;
}
