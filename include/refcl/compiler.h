/* SPDX-License-Identifier: Apache-2.0 */
/*
 * librefcl's side of the OpenCL C compiler (docs/compiler.md): the build
 * options of clBuildProgram, clCompileProgram and clLinkProgram translated
 * into clang's; clang and llvm-link run as subprocesses in a private
 * temporary directory; shared objects loaded from a memfd; the binary
 * container of CL_PROGRAM_BINARIES; the build cache. LLVM is never mapped
 * into the application: everything here is posix_spawn, files and dlopen.
 */
#ifndef REFCL_COMPILER_H
#define REFCL_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "refcl/compat.h"

/** Which entry point the options came to: each has its own options and
 *  its own error for an unknown one. */
enum refcl_compiler_step {
    REFCL_STEP_BUILD,   /**< clBuildProgram: source to executable */
    REFCL_STEP_COMPILE, /**< clCompileProgram: source to an object */
    REFCL_STEP_LINK,    /**< clLinkProgram: objects to an executable or a
                             library */
};

/** Options parsed and translated into clang's arguments. */
struct refcl_compiler_options {
    char **args;             /**< clang's arguments, owned */
    size_t count;
    size_t capacity;
    unsigned cl_std;         /**< 10, 11, 12, 20, 30; 0 if not given */
    bool create_library;     /**< -create-library */
    bool enable_link_options; /**< -enable-link-options */
    bool kernel_arg_info;    /**< -cl-kernel-arg-info */
    bool uniform_work_groups; /**< -cl-uniform-work-group-size */
    bool opt_disable;        /**< -cl-opt-disable */
    bool allow_inline_asm;   /**< -cl-refcl-allow-inline-asm (unsafe) */
};

/**
 * Parses @p options (NULL is the empty string) as @p step takes them into
 * @p out (free with refcl_compiler_options_free, also after a failure).
 * @return CL_SUCCESS; CL_INVALID_BUILD_OPTIONS, CL_INVALID_COMPILER_OPTIONS
 * or CL_INVALID_LINKER_OPTIONS, as @p step says, for an option it does not
 * take; CL_OUT_OF_HOST_MEMORY.
 */
cl_int refcl_compiler_options_parse(const char *options,
                                    enum refcl_compiler_step step,
                                    struct refcl_compiler_options *out);

void refcl_compiler_options_free(struct refcl_compiler_options *options);

/** Bytes owned by their holder (malloc'd). */
struct refcl_blob {
    unsigned char *bytes;
    size_t size;
};

void refcl_blob_free(struct refcl_blob *blob);

/** Reads the whole file @p path into @p out, NUL-terminated past its
 *  size; false (and @p out empty) if it cannot. */
bool refcl_blob_read(const char *path, struct refcl_blob *out);

/** Reads @p size bytes of the open file @p fd into @p out, likewise. */
bool refcl_blob_read_fd(int fd, size_t size, struct refcl_blob *out);

/** The most loaded segments a program's shared object may have (linkers
 *  make four or five). */
#define REFCL_ELF_SEGMENTS_MAX 8

/** One loaded segment of a checked object (readable), at its load
 *  address plus start. */
struct refcl_elf_segment {
    uint64_t start, size;
    bool executable;
};

/** The memory a checked object occupies once loaded. */
struct refcl_elf_memory {
    size_t count;
    struct refcl_elf_segment segment[REFCL_ELF_SEGMENTS_MAX];
};

/**
 * Checks a program's shared object before it is loaded (compiler/elf.c):
 * true if it is one the compiler could have made, of which nothing runs
 * at load, and then its loaded segments are in *@p memory (unless NULL);
 * else false and @p why says what it has.
 */
bool refcl_elf_check(const unsigned char *bytes, size_t size,
                     struct refcl_elf_memory *memory, const char **why);

struct refcl_abi_program; /* refcl/kernel_abi.h */

/**
 * Checks the program table @p table of an object loaded at @p base whose
 * segments are @p memory (compiler/table.c): true if everything refcl
 * reads of it (kernels, arguments, strings) lies in the object's readable
 * memory, every string ends there, every kernel's code is in its
 * executable memory, and every count and size is one the compiler makes;
 * else false and @p why says what is wrong.
 */
bool refcl_table_check(const struct refcl_abi_program *table, uintptr_t base,
                       const struct refcl_elf_memory *memory,
                       const char **why);

/** Writes the @p size bytes at @p bytes to @p fd, whatever the pieces the
 *  kernel takes them in; false on an error. */
bool refcl_write_all(int fd, const void *bytes, size_t size);

/* The byte codec of refcl's two file formats (the binary container and the
 * cache entry): integers little-endian, a reader that never reads past the
 * end (it clears ok instead), and the FNV-1a checksum both end with. */
struct refcl_reader {
    const unsigned char *p;
    size_t left;
    bool ok;
};
uint64_t refcl_read_u(struct refcl_reader *r, size_t bytes);
const unsigned char *refcl_read_bytes(struct refcl_reader *r, uint64_t n);
/** Stores the low @p bytes of @p value at @p p, little-endian; returns the
 *  byte after them. */
unsigned char *refcl_store_u(unsigned char *p, uint64_t value, size_t bytes);
uint64_t refcl_fnv1a(const unsigned char *p, size_t n);

/** A header of clCompileProgram: the file @p name (may hold directories)
 *  that `#include "name"` finds. */
struct refcl_header {
    const char *name;
    const char *text; /**< NUL-terminated */
};

/** What one run of the compiler works on. */
struct refcl_compile_job {
    enum refcl_compiler_step step;
    const struct refcl_compiler_options *options;
    const char *source;                 /**< build, compile: NUL-terminated */
    const struct refcl_blob *il;        /**< build, compile: SPIR-V instead
                                             of source (needs
                                             refcl_toolchain()->llvm_spirv) */
    const struct refcl_header *headers; /**< compile */
    size_t header_count;
    const struct refcl_blob *objects;   /**< link: bitcode */
    size_t object_count;
};

/** What it gave. */
struct refcl_compile_result {
    bool built;              /**< false: the log says why */
    struct refcl_blob output; /**< a shared object (build, link), or
                                   bitcode (compile, -create-library) */
    char *log;               /**< owned, NUL-terminated, never NULL on
                                  CL_SUCCESS */
};

/**
 * Runs the compiler for @p job (refcl_toolchain() must not be NULL). A
 * failed build, a crash of clang or a system error gives CL_SUCCESS with
 * built false and a log that says why.
 * @return CL_SUCCESS or CL_OUT_OF_HOST_MEMORY (then @p result is empty).
 */
cl_int refcl_compiler_run(const struct refcl_compile_job *job,
                          struct refcl_compile_result *result);

void refcl_compile_result_free(struct refcl_compile_result *result);

/** A shared object loaded from its own memfd: its program-scope
 *  variables belong to it alone. */
struct refcl_executable {
    void *handle;                          /**< dlopen's */
    int fd;                                /**< the memfd, open while
                                                loaded: dlopen matches by
                                                name, which must stay
                                                unique */
    const struct refcl_abi_program *table; /**< REFCL_ABI_TABLE_SYMBOL */
};

/**
 * Loads @p object into a fresh memfd and dlopens it. @return NULL, with
 * the reason in *@p why (static text), if it is not a refcl executable of
 * REFCL_ABI_VERSION or if the system refuses.
 */
struct refcl_executable *refcl_executable_load(const struct refcl_blob *object,
                                               const char **why);

void refcl_executable_unload(struct refcl_executable *executable);

/** The target refcl compiles for (clang's -target). */
const char *refcl_compiler_target(void);

/** The CPU refcl compiles for (clang's -march=): this host's x86-64
 *  micro-architecture level ("x86-64-v3"), or a lower one named by
 *  REFCL_CPU; "armv8-a" on arm64. */
const char *refcl_compiler_cpu(void);

/** Whether code built for the CPU @p name (@p length bytes, not
 *  terminated) runs on this host: a level at or below the host's. */
bool refcl_compiler_cpu_runs(const char *name, size_t length);

/** Whether kernels are vectorized: false where REFCL_VECTORIZE is "0",
 *  which runs every work-item alone, one after the other (LLVM's
 *  vectorizers and refcl-jam-items off): the scalar code to compare a
 *  kernel's vectorized results with. */
bool refcl_compiler_vectorizes(void);

/** How the binary's kernels run (struct refcl_run_options). */
#define REFCL_BINARY_UNIFORM 1u  /**< uniform work-groups only */
#define REFCL_BINARY_ARG_INFO 2u /**< built with -cl-kernel-arg-info */

/** What a binary container holds. */
struct refcl_binary {
    cl_program_binary_type type; /**< COMPILED_OBJECT, LIBRARY,
                                      EXECUTABLE */
    uint32_t flags;              /**< REFCL_BINARY_* */
    const char *options;         /**< into the container's bytes */
    size_t options_length;
    const unsigned char *payload; /**< into the container's bytes */
    size_t payload_size;
};

/** Writes the container of @p binary into @p out. @return false when out of
 *  memory. */
bool refcl_binary_write(const struct refcl_binary *binary,
                        struct refcl_blob *out);

/** Reads the container at @p bytes. @return false (garbage, truncated,
 *  another target's or another format's, or built for a CPU with features
 *  this host lacks) with the reason in *@p why. */
bool refcl_binary_read(const unsigned char *bytes, size_t size,
                       struct refcl_binary *binary, const char **why);

#endif /* REFCL_COMPILER_H */
