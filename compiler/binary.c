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

uint64_t refcl_fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

unsigned char *refcl_store_u(unsigned char *p, uint64_t value, size_t bytes)
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
    p = refcl_store_u(p, BINARY_FORMAT, 4);
    p = refcl_store_u(p, binary->type, 4);
    p = refcl_store_u(p, REFCL_ABI_VERSION, 4);
    p = refcl_store_u(p, binary->flags, 4);
    p = refcl_store_u(p, target_length, 4);
    p = put_bytes(p, target, target_length);
    p = refcl_store_u(p, cpu_length, 4);
    p = put_bytes(p, cpu, cpu_length);
    p = refcl_store_u(p, binary->options_length, 4);
    p = put_bytes(p, binary->options, binary->options_length);
    p = refcl_store_u(p, binary->payload_size, 8);
    p = put_bytes(p, binary->payload, binary->payload_size);
    refcl_store_u(p, refcl_fnv1a(out->bytes, size - 8), 8);
    out->size = size;
    return true;
}

uint64_t refcl_read_u(struct refcl_reader *r, size_t bytes)
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

const unsigned char *refcl_read_bytes(struct refcl_reader *r, uint64_t n)
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
    struct refcl_reader r = {bytes, size, true};
    const unsigned char *magic = refcl_read_bytes(&r, 8);
    if (!magic || memcmp(magic, BINARY_MAGIC, 8)) {
        *why = "not a refcl binary";
        return false;
    }
    struct refcl_reader tail = {bytes + size - 8, 8, size >= 16};
    if (!tail.ok || refcl_fnv1a(bytes, size - 8) != refcl_read_u(&tail, 8)) {
        *why = "a truncated or damaged refcl binary (checksum)";
        return false;
    }
    r = (struct refcl_reader){bytes + 8, size - 16, true};
    uint64_t format = refcl_read_u(&r, 4);
    uint64_t type = refcl_read_u(&r, 4);
    uint64_t abi = refcl_read_u(&r, 4);
    binary->flags = (uint32_t)refcl_read_u(&r, 4);
    uint64_t target_length = refcl_read_u(&r, 4);
    const unsigned char *target = refcl_read_bytes(&r, target_length);
    uint64_t cpu_length = refcl_read_u(&r, 4);
    const unsigned char *cpu = refcl_read_bytes(&r, cpu_length);
    binary->options_length = (size_t)refcl_read_u(&r, 4);
    binary->options =
        (const char *)refcl_read_bytes(&r, binary->options_length);
    binary->payload_size = (size_t)refcl_read_u(&r, 8);
    binary->payload = refcl_read_bytes(&r, binary->payload_size);
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
    else if (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
             !refcl_elf_check(binary->payload, binary->payload_size, NULL,
                              why))
        return false;
    else
        return true;
    return false;
}
