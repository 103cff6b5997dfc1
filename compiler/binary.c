/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The container CL_PROGRAM_BINARIES returns and clCreateProgramWithBinary
 * reads (docs/compiler.md), all integers little-endian:
 *   "REFCLBIN"             8 bytes, magic
 *   format version         u32 (BINARY_FORMAT)
 *   binary type            u32 (CL_PROGRAM_BINARY_TYPE_*)
 *   kernel ABI version     u32 (REFCL_ABI_VERSION)
 *   run flags              u32 (REFCL_BINARY_UNIFORM, REFCL_BINARY_ARG_INFO)
 *   target length, target  u32, bytes (clang's -target)
 *   CPU length, CPU        u32, bytes (clang's -march=, refcl/compiler.h)
 *   options length, text   u32, bytes (the build options)
 *   payload size, payload  u64, bytes (bitcode, or the shared object)
 *   checksum               u64, FNV-1a of every byte before it
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/compiler.h"
#include "refcl/kernel_abi.h"

#define BINARY_MAGIC "REFCLBIN"
#define BINARY_FORMAT 2u

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static unsigned char *put(unsigned char *p, uint64_t value, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        *p++ = (unsigned char)(value >> (8 * i));
    return p;
}

static unsigned char *put_bytes(unsigned char *p, const void *bytes, size_t n)
{
    if (n)
        memcpy(p, bytes, n);
    return p + n;
}

bool refcl_binary_write(const struct refcl_binary *binary,
                        struct refcl_blob *out)
{
    const char *target = refcl_compiler_target();
    size_t target_length = strlen(target);
    const char *cpu = refcl_compiler_cpu();
    size_t cpu_length = strlen(cpu);
    size_t size = 8 + 5 * 4 + target_length + 4 + cpu_length + 4 +
                  binary->options_length +
                  8 + binary->payload_size + 8;
    unsigned char *p = out->bytes = malloc(size);
    if (!p)
        return false;
    p = put_bytes(p, BINARY_MAGIC, 8);
    p = put(p, BINARY_FORMAT, 4);
    p = put(p, binary->type, 4);
    p = put(p, REFCL_ABI_VERSION, 4);
    p = put(p, binary->flags, 4);
    p = put(p, target_length, 4);
    p = put_bytes(p, target, target_length);
    p = put(p, cpu_length, 4);
    p = put_bytes(p, cpu, cpu_length);
    p = put(p, binary->options_length, 4);
    p = put_bytes(p, binary->options, binary->options_length);
    p = put(p, binary->payload_size, 8);
    p = put_bytes(p, binary->payload, binary->payload_size);
    put(p, fnv1a(out->bytes, size - 8), 8);
    out->size = size;
    return true;
}

/* A reader that never reads past the end. */
struct reader {
    const unsigned char *p;
    size_t left;
    bool ok;
};

static uint64_t get(struct reader *r, size_t bytes)
{
    uint64_t value = 0;
    if (r->left < bytes) {
        r->ok = false;
        return 0;
    }
    for (size_t i = 0; i < bytes; i++)
        value |= (uint64_t)r->p[i] << (8 * i);
    r->p += bytes;
    r->left -= bytes;
    return value;
}

static const unsigned char *get_bytes(struct reader *r, uint64_t n)
{
    if (r->left < n) {
        r->ok = false;
        return NULL;
    }
    const unsigned char *bytes = r->p;
    r->p += n;
    r->left -= n;
    return bytes;
}

static bool known_type(uint64_t type)
{
    return type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
           type == CL_PROGRAM_BINARY_TYPE_LIBRARY ||
           type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

bool refcl_binary_read(const unsigned char *bytes, size_t size,
                       struct refcl_binary *binary, const char **why)
{
    struct reader r = {bytes, size, true};
    const unsigned char *magic = get_bytes(&r, 8);
    if (!magic || memcmp(magic, BINARY_MAGIC, 8)) {
        *why = "not a refcl binary";
        return false;
    }
    struct reader tail = {bytes + size - 8, 8, size >= 16};
    if (!tail.ok || fnv1a(bytes, size - 8) != get(&tail, 8)) {
        *why = "a truncated or damaged refcl binary (checksum)";
        return false;
    }
    r = (struct reader){bytes + 8, size - 16, true};
    uint64_t format = get(&r, 4), type = get(&r, 4), abi = get(&r, 4);
    binary->flags = (uint32_t)get(&r, 4);
    uint64_t target_length = get(&r, 4);
    const unsigned char *target = get_bytes(&r, target_length);
    uint64_t cpu_length = get(&r, 4);
    const unsigned char *cpu = get_bytes(&r, cpu_length);
    binary->options_length = (size_t)get(&r, 4);
    binary->options = (const char *)get_bytes(&r, binary->options_length);
    binary->payload_size = (size_t)get(&r, 8);
    binary->payload = get_bytes(&r, binary->payload_size);
    binary->type = (cl_program_binary_type)type;
    const char *mine = refcl_compiler_target();
    if (!r.ok || r.left || !known_type(type))
        *why = "a malformed refcl binary";
    else if (format != BINARY_FORMAT || abi != REFCL_ABI_VERSION)
        *why = "a refcl binary of another format or kernel ABI";
    else if (target_length != strlen(mine) ||
             memcmp(target, mine, target_length))
        *why = "a refcl binary for another target";
    else if (!refcl_compiler_cpu_runs((const char *)cpu, (size_t)cpu_length))
        *why = "a refcl binary for a CPU with features this host lacks";
    else
        return true;
    return false;
}
