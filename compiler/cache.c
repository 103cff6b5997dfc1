/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The build cache (docs/compiler.md): one file per successful compiler
 * run in $REFCL_CACHE_DIR, else $XDG_CACHE_HOME/refcl, else
 * ~/.cache/refcl (REFCL_CACHE=0: none), named by a 128-bit key of
 * everything that changes the result: the step, the source, the headers or
 * the objects, clang's arguments, the extension list, the target and CPU, the
 * kernel ABI, the toolchain's version and the size and mtime of clang,
 * llvm-link, the plugin, the builtin library, the compiler server, ld and
 * the libraries it links with, and librefcl itself (whose driver sets the
 * rest of clang's arguments). Files the source included
 * from outside the build directory (-I, clang's own headers; clang's -MD
 * names them) are listed in the entry with a hash of their contents, and
 * re-checked on every hit: a changed header is a miss.
 *
 * An entry:
 *   "REFCLC01" | key (16) | u32 files | files: u32 length, path, u64 hash
 *   | u64 log size, log | u64 output size, output | u64 FNV-1a of all before
 * written under a unique temporary name and renamed, so that concurrent
 * builders (threads, processes) see a whole entry or none; a damaged or
 * truncated one fails its checksum and is built again.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "refcl/compiler.h"
#include "cache.h"
#include "refcl/device.h"
#include "refcl/kernel_abi.h"
#include "refcl/toolchain.h"

#define ENTRY_MAGIC "REFCLC01"

struct hasher {
    uint64_t a, b;
};

static void hash_bytes(struct hasher *h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    uint64_t a = h->a, b = h->b;
    for (size_t i = 0; i < n; i++) {
        a = (a ^ p[i]) * 0x100000001b3ull;
        b = (b ^ p[i]) * 0x9e3779b97f4a7c15ull;
        b ^= b >> 29;
    }
    h->a = a;
    h->b = b;
}

static void hash_u64(struct hasher *h, uint64_t value)
{
    hash_bytes(h, &value, sizeof(value));
}

/* A string with its length, so that "ab","c" and "a","bc" differ. */
static void hash_string(struct hasher *h, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    hash_u64(h, n);
    hash_bytes(h, s, n);
}

static struct hasher hasher_new(void)
{
    return (struct hasher){0xcbf29ce484222325ull, 0x6a09e667f3bcc909ull};
}

static void hash_file_identity(struct hasher *h, const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        memset(&st, 0, sizeof(st));
    hash_string(h, path);
    hash_u64(h, (uint64_t)st.st_size);
    hash_u64(h, (uint64_t)st.st_mtim.tv_sec);
    hash_u64(h, (uint64_t)st.st_mtim.tv_nsec);
}

/* librefcl's own file: the arguments its driver gives clang besides the
 * user's (compiler/driver.c) change with it. */
static void hash_own_library(struct hasher *h)
{
    static const char anchor;
    Dl_info info;
    if (dladdr(&anchor, &info) && info.dli_fname)
        hash_file_identity(h, info.dli_fname);
}

/* The directory, or false when the cache is off or has no home. */
static bool cache_dir(char *dir)
{
    const char *off = getenv("REFCL_CACHE");
    if (off && !strcmp(off, "0"))
        return false;
    const char *set = getenv("REFCL_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (set && *set)
        n = snprintf(dir, PATH_MAX, "%s", set);
    else if (xdg && xdg[0] == '/')
        n = snprintf(dir, PATH_MAX, "%s/refcl", xdg);
    else if (home && home[0] == '/')
        n = snprintf(dir, PATH_MAX, "%s/.cache/refcl", home);
    else
        return false;
    return n > 0 && n < PATH_MAX - 64;
}

bool refcl_cache_key(const struct refcl_compile_job *job,
                     struct refcl_cache_key *key)
{
    if (!cache_dir(key->dir))
        return false;
    const struct refcl_toolchain *tc = refcl_toolchain();
    struct hasher h = hasher_new();
    hash_string(&h, ENTRY_MAGIC);
    hash_u64(&h, REFCL_ABI_VERSION);
    hash_string(&h, refcl_compiler_target());
    hash_string(&h, refcl_compiler_cpu());
    hash_string(&h, tc->version);
    hash_string(&h, refcl_device_clang_extensions());
    for (const char *const *m = refcl_device_clang_macros(); *m; m++)
        hash_string(&h, *m);
    hash_file_identity(&h, tc->clang);
    hash_file_identity(&h, tc->llvm_link);
    hash_file_identity(&h, tc->plugin);
    hash_file_identity(&h, tc->builtins);
    /* The server runs the jobs its own way (the library kept parsed, lld
     * linking): its builds are its own entries. */
    hash_file_identity(&h, tc->server);
    hash_file_identity(&h, tc->ld);
    hash_file_identity(&h, tc->libc);
    hash_file_identity(&h, tc->libm);
    hash_file_identity(&h, tc->libmvec);
    hash_own_library(&h);
    hash_u64(&h, job->step);
    const struct refcl_compiler_options *o = job->options;
    for (size_t i = 0; i < o->count; i++)
        hash_string(&h, o->args[i]);
    hash_u64(&h, o->cl_std | (uint64_t)o->create_library << 8 |
                     (uint64_t)o->opt_disable << 9);
    hash_string(&h, job->source);
    for (size_t i = 0; i < job->header_count; i++) {
        hash_string(&h, job->headers[i].name);
        hash_string(&h, job->headers[i].text);
    }
    if (job->il) {
        hash_u64(&h, job->il->size);
        hash_bytes(&h, job->il->bytes, job->il->size);
        hash_file_identity(&h, tc->llvm_spirv);
    }
    for (size_t i = 0; i < job->object_count; i++) {
        hash_u64(&h, job->objects[i].size);
        hash_bytes(&h, job->objects[i].bytes, job->objects[i].size);
    }
    key->hash[0] = h.a;
    key->hash[1] = h.b;
    snprintf(key->path, sizeof(key->path), "%s/%016llx%016llx",
             key->dir, (unsigned long long)h.a, (unsigned long long)h.b);
    return true;
}

/* ---- reading an entry ---- */

static uint64_t content_hash(const unsigned char *bytes, size_t size)
{
    struct hasher h = hasher_new();
    hash_bytes(&h, bytes, size);
    return h.a ^ h.b;
}

/* True if the file at @p path (@p length bytes) still hashes to
 * @p expected. */
static bool file_unchanged(const unsigned char *path, size_t length,
                           uint64_t expected)
{
    char name[PATH_MAX];
    if (length >= sizeof(name))
        return false;
    memcpy(name, path, length);
    name[length] = '\0';
    struct refcl_blob file;
    if (!refcl_blob_read(name, &file))
        return false;
    bool same = content_hash(file.bytes, file.size) == expected;
    refcl_blob_free(&file);
    return same;
}

static bool copy_out(const unsigned char *bytes, size_t size, bool text,
                     unsigned char **out)
{
    *out = malloc(size + text);
    if (*out) {
        memcpy(*out, bytes, size);
        if (text)
            (*out)[size] = '\0';
    }
    return *out != NULL;
}

/* The entry's files still as they were, and its log and output. */
static bool entry_parse(const struct refcl_blob *e,
                        const struct refcl_cache_key *key,
                        struct refcl_compile_result *result)
{
    struct refcl_reader tail = {e->bytes + e->size - 8, 8,
                                e->size >= 8 + 16 + 8};
    if (!tail.ok ||
        refcl_fnv1a(e->bytes, e->size - 8) != refcl_read_u(&tail, 8))
        return false;
    struct refcl_reader r = {e->bytes, e->size - 8, true};
    const unsigned char *magic = refcl_read_bytes(&r, 8);
    uint64_t k0 = refcl_read_u(&r, 8), k1 = refcl_read_u(&r, 8);
    if (!r.ok || memcmp(magic, ENTRY_MAGIC, 8) || k0 != key->hash[0] ||
        k1 != key->hash[1])
        return false;
    uint64_t files = refcl_read_u(&r, 4);
    for (uint64_t i = 0; r.ok && i < files; i++) {
        uint64_t length = refcl_read_u(&r, 4);
        const unsigned char *path = refcl_read_bytes(&r, length);
        uint64_t hash = refcl_read_u(&r, 8);
        if (!r.ok || !file_unchanged(path, length, hash))
            return false;
    }
    uint64_t log_size = refcl_read_u(&r, 8);
    const unsigned char *log = refcl_read_bytes(&r, log_size);
    uint64_t output_size = refcl_read_u(&r, 8);
    const unsigned char *output = refcl_read_bytes(&r, output_size);
    if (!r.ok || r.left)
        return false;
    unsigned char *log_copy;
    if (!copy_out(log, log_size, true, &log_copy))
        return false;
    if (!copy_out(output, output_size, false, &result->output.bytes)) {
        free(log_copy);
        return false;
    }
    result->output.size = output_size;
    result->log = (char *)log_copy;
    result->built = true;
    return true;
}

bool refcl_cache_lookup(const struct refcl_cache_key *key,
                        struct refcl_compile_result *result)
{
    struct refcl_blob entry;
    if (!refcl_blob_read(key->path, &entry))
        return false;
    bool hit = entry_parse(&entry, key, result);
    refcl_blob_free(&entry);
    return hit;
}

/* ---- writing an entry ---- */

struct writer {
    unsigned char *bytes;
    size_t size, capacity;
    bool ok;
};

static void put(struct writer *w, const void *bytes, size_t n)
{
    if (!w->ok)
        return;
    if (w->size + n > w->capacity) {
        size_t capacity = 2 * (w->size + n);
        unsigned char *grown = realloc(w->bytes, capacity);
        if (!grown) {
            w->ok = false;
            return;
        }
        w->bytes = grown;
        w->capacity = capacity;
    }
    if (n)
        memcpy(w->bytes + w->size, bytes, n);
    w->size += n;
}

static void put_u(struct writer *w, uint64_t value, size_t bytes)
{
    unsigned char encoded[8];
    refcl_store_u(encoded, value, bytes);
    put(w, encoded, bytes);
}

/* A file the build read, with the hash of what it holds now. */
static void put_file(struct writer *w, const char *path, uint32_t *count)
{
    struct refcl_blob file;
    if (!refcl_blob_read(path, &file)) {
        w->ok = false; /* it went away: do not cache */
        return;
    }
    put_u(w, strlen(path), 4);
    put(w, path, strlen(path));
    put_u(w, content_hash(file.bytes, file.size), 8);
    refcl_blob_free(&file);
    ++*count;
}

/* Every absolute path of clang's dependency file @p deps (make syntax:
 * "target: dep dep \<newline> dep", spaces in names escaped). */
static void put_files(struct writer *w, const char *deps, uint32_t *count)
{
    char path[PATH_MAX];
    const char *p = deps ? strchr(deps, ':') : NULL;
    for (p = p ? p + 1 : ""; w->ok;) {
        while (*p && (strchr(" \t\n\r", *p) ||
                      (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))))
            p++;
        if (!*p)
            break;
        size_t n = 0;
        for (; *p && !strchr(" \t\n\r", *p); p++) {
            if (*p == '\\' && p[1] == ' ')
                p++;
            else if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
                break;
            if (n + 1 < sizeof(path))
                path[n++] = *p;
        }
        path[n] = '\0';
        if (path[0] == '/')
            put_file(w, path, count);
    }
}

void refcl_cache_store(const struct refcl_cache_key *key,
                       const struct refcl_compile_result *result,
                       const char *deps)
{
    static atomic_uint serial;
    struct writer w = {NULL, 0, 0, true};
    uint32_t files = 0;
    put(&w, ENTRY_MAGIC, 8);
    put_u(&w, key->hash[0], 8);
    put_u(&w, key->hash[1], 8);
    size_t count_at = w.size;
    put_u(&w, 0, 4);
    put_files(&w, deps, &files);
    size_t log_size = strlen(result->log);
    put_u(&w, log_size, 8);
    put(&w, result->log, log_size);
    put_u(&w, result->output.size, 8);
    put(&w, result->output.bytes, result->output.size);
    if (w.ok) {
        refcl_store_u(w.bytes + count_at, files, 4);
        put_u(&w, refcl_fnv1a(w.bytes, w.size), 8);
    }
    char temporary[sizeof(key->path) + 64];
    snprintf(temporary, sizeof(temporary), "%s.%d.%u.tmp", key->path,
             (int)getpid(), atomic_fetch_add(&serial, 1));
    mkdir(key->dir, 0700); /* its parent: refcl's own, ~/.cache */
    int fd = w.ok ? open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                         0600)
                  : -1;
    size_t done = 0;
    while (fd >= 0 && done < w.size) {
        ssize_t n = write(fd, w.bytes + done, w.size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (fd >= 0 && (close(fd) != 0 || done != w.size ||
                    rename(temporary, key->path) != 0))
        unlink(temporary);
    free(w.bytes);
}
