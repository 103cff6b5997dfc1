/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The build cache (docs/compiler.md, docs/security.md): one file per
 * successful compiler run in $REFCL_CACHE_DIR, else $XDG_CACHE_HOME/refcl,
 * else ~/.cache/refcl, else (no home, or one refcl cannot write)
 * /var/tmp/refcl-cache-<uid> (REFCL_CACHE=0: none), named by a 128-bit key
 * of everything that changes the result: the effective user, the step, the
 * source, the headers or
 * the objects, clang's arguments, the extension list, the target and CPU, the
 * kernel ABI, the toolchain's version and the size and mtime of clang,
 * llvm-link, the plugin, the builtin library, the compiler server, ld and
 * the libraries it links with, and librefcl itself (whose driver sets the
 * rest of clang's arguments), all but the job's own also the compiler's
 * identity in CL_DRIVER_VERSION. Files the source included
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
 *
 * An entry is a program the application will run, so the cache trusts
 * only what the effective user alone can write: the directory, opened
 * without following a link, must be that user's and writable by no one
 * else, and so must each entry, a regular file of at most ENTRY_MAX bytes,
 * opened without following a link and without blocking (a FIFO); all of it
 * checked with fstat on what was opened, then read whole and verified
 * (the key, the checksum) before anything uses it. A directory that fails
 * is not used, said once on stderr. The cache holds at most
 * REFCL_CACHE_MAX bytes (CACHE_MAX_DEFAULT): a store evicts the entries
 * least recently used (a hit touches its entry's time).
 */
#include <dirent.h>
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
/* The most bytes an entry may have: more is no entry refcl wrote. */
#define ENTRY_MAX ((uint64_t)256 << 20)
/* REFCL_CACHE_MAX when unset: bytes of entries kept. */
#define CACHE_MAX_DEFAULT ((uint64_t)512 << 20)

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

/* Everything besides the job that changes what the compiler makes: the
 * kernel ABI, the target, the toolchain's parts and librefcl itself. */
static void hash_compiler(struct hasher *h, const struct refcl_toolchain *tc)
{
    hash_u64(h, REFCL_ABI_VERSION);
    hash_string(h, refcl_compiler_target());
    hash_string(h, refcl_compiler_cpu());
    hash_u64(h, refcl_compiler_vectorizes());
    hash_string(h, tc->version);
    hash_string(h, refcl_device_clang_extensions());
    for (const char *const *m = refcl_device_clang_macros(); *m; m++)
        hash_string(h, *m);
    hash_file_identity(h, tc->clang);
    hash_file_identity(h, tc->llvm_link);
    hash_file_identity(h, tc->plugin);
    hash_file_identity(h, tc->builtins);
    /* The server runs the jobs its own way (the library kept parsed, lld
     * linking): its builds are its own entries. */
    hash_file_identity(h, tc->server);
    hash_file_identity(h, tc->ld);
    hash_file_identity(h, tc->libc);
    hash_file_identity(h, tc->libm);
    hash_file_identity(h, tc->libmvec);
    hash_file_identity(h, tc->llvm_spirv);
    hash_own_library(h);
}

uint64_t refcl_cache_compiler_identity(const struct refcl_toolchain *tc)
{
    struct hasher h = hasher_new();
    hash_compiler(&h, tc);
    return h.a ^ h.b;
}

/* The directory the environment names, or false when the cache is off or
 * has no home. secure_getenv: a set-user-ID program's cache is never one
 * its caller's environment chose. */
static bool cache_dir_named(char *dir)
{
    const char *off = secure_getenv("REFCL_CACHE");
    if (off && !strcmp(off, "0"))
        return false;
    const char *set = secure_getenv("REFCL_CACHE_DIR");
    const char *xdg = secure_getenv("XDG_CACHE_HOME");
    const char *home = secure_getenv("HOME");
    int n;
    if (set && *set)
        n = snprintf(dir, PATH_MAX, "%s", set);
    else if (xdg && xdg[0] == '/')
        n = snprintf(dir, PATH_MAX, "%s/refcl", xdg);
    else if (home && home[0] == '/')
        n = snprintf(dir, PATH_MAX, "%s/.cache/refcl", home);
    else
        n = 0;
    return n >= 0 && n < PATH_MAX - 64;
}

/* Says once that the cache directory @p dir is not used, and why. */
static void distrust_notice(const char *dir)
{
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&said))
        fprintf(stderr, "refcl: the build cache %s is not used: it must be a "
                "directory of user %u that no one else can write\n", dir,
                (unsigned)geteuid());
}

/* True if what @p st describes is the effective user's and writable by no
 * one else. */
static bool owned_privately(const struct stat *st)
{
    return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Makes @p dir (0700), and its parent where missing (~/.cache). */
static void dir_make(const char *dir)
{
    if (mkdir(dir, 0700) == 0 || errno != ENOENT)
        return;
    char parent[PATH_MAX];
    snprintf(parent, sizeof(parent), "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash && slash > parent) {
        *slash = '\0';
        mkdir(parent, 0700);
        mkdir(dir, 0700);
    }
}

/* Opens @p dir, made if missing, as a trusted cache directory: -1 if it
 * cannot be opened (errno says why), -2 if it is not one to trust. */
static int dir_open(const char *dir)
{
    dir_make(dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || !owned_privately(&st)) {
        close(fd);
        return -2;
    }
    return fd;
}

/* The cache directory, opened and checked: the named one, or where that
 * cannot be made (no home, a read-only one) the fallback under /var/tmp.
 * -1 when there is none to use. */
static int cache_dir_open(const char *dir)
{
    int fd = dir_open(dir);
    if (fd == -2)
        distrust_notice(dir);
    return fd < 0 ? -1 : fd;
}

/* The directory of the cache, in @p dir: false when it is off, or when
 * neither the named directory nor the fallback can be used. */
static bool cache_dir(char *dir)
{
    if (!cache_dir_named(dir))
        return false;
    int fd = dir[0] ? dir_open(dir) : -1;
    if (fd == -1) {
        snprintf(dir, PATH_MAX, "/var/tmp/refcl-cache-%u",
                 (unsigned)geteuid());
        fd = dir_open(dir);
    }
    if (fd == -2)
        distrust_notice(dir);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

bool refcl_cache_key(const struct refcl_compile_job *job,
                     struct refcl_cache_key *key)
{
    if (!cache_dir(key->dir))
        return false;
    const struct refcl_toolchain *tc = refcl_toolchain();
    struct hasher h = hasher_new();
    hash_string(&h, ENTRY_MAGIC);
    hash_u64(&h, geteuid());
    hash_compiler(&h, tc);
    hash_u64(&h, job->step);
    const struct refcl_compiler_options *o = job->options;
    for (size_t i = 0; i < o->count; i++)
        hash_string(&h, o->args[i]);
    hash_u64(&h, o->cl_std | (uint64_t)o->create_library << 8 |
                     (uint64_t)o->opt_disable << 9 |
                     (uint64_t)o->allow_inline_asm << 10);
    hash_string(&h, job->source);
    for (size_t i = 0; i < job->header_count; i++) {
        hash_string(&h, job->headers[i].name);
        hash_string(&h, job->headers[i].text);
    }
    if (job->il) {
        hash_u64(&h, job->il->size);
        hash_bytes(&h, job->il->bytes, job->il->size);
    }
    for (size_t i = 0; i < job->object_count; i++) {
        hash_u64(&h, job->objects[i].size);
        hash_bytes(&h, job->objects[i].bytes, job->objects[i].size);
    }
    key->hash[0] = h.a;
    key->hash[1] = h.b;
    snprintf(key->name, sizeof(key->name), "%016llx%016llx",
             (unsigned long long)h.a, (unsigned long long)h.b);
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

/* Reads the entry @p name of the directory @p dir_fd into @p out, if it
 * is a regular file of the effective user's that no one else can write,
 * of at most ENTRY_MAX bytes. Opened without following a link and without
 * blocking: a FIFO planted there is refused, not waited on. */
static bool entry_read(int dir_fd, const char *name, struct refcl_blob *out)
{
    int fd = openat(dir_fd, name,
                    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              owned_privately(&st) && (uint64_t)st.st_size <= ENTRY_MAX &&
              refcl_blob_read_fd(fd, (size_t)st.st_size, out);
    if (ok)
        /* Least recently used goes first: a hit is a use. */
        futimens(fd, NULL);
    close(fd);
    return ok;
}

bool refcl_cache_lookup(const struct refcl_cache_key *key,
                        struct refcl_compile_result *result)
{
    int dir_fd = cache_dir_open(key->dir);
    if (dir_fd < 0)
        return false;
    struct refcl_blob entry = {0};
    bool hit = entry_read(dir_fd, key->name, &entry) &&
               entry_parse(&entry, key, result);
    refcl_blob_free(&entry);
    close(dir_fd);
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

/* Writes @p w as the entry @p name: under a unique temporary name, then
 * renamed, so that no one sees half an entry. */
static void entry_write(int dir_fd, const char *name, const struct writer *w)
{
    static atomic_uint serial;
    char temporary[64];
    snprintf(temporary, sizeof(temporary), "%s.%d.%u.tmp", name,
             (int)getpid(), atomic_fetch_add(&serial, 1));
    int fd = openat(dir_fd, temporary,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0600);
    if (fd < 0)
        return;
    bool written = refcl_write_all(fd, w->bytes, w->size);
    if (close(fd) != 0 || !written ||
        renameat(dir_fd, temporary, dir_fd, name) != 0)
        unlinkat(dir_fd, temporary, 0);
}

/* REFCL_CACHE_MAX: the bytes of entries the cache keeps. */
static uint64_t cache_max(void)
{
    const char *set = secure_getenv("REFCL_CACHE_MAX");
    char *end;
    unsigned long long max = set ? strtoull(set, &end, 10) : 0;
    return set && *set && !*end ? max : CACHE_MAX_DEFAULT;
}

/* One entry of the directory, for eviction. */
struct entry_use {
    char name[REFCL_CACHE_NAME_LENGTH + 1];
    uint64_t bytes;
    struct timespec used;
};

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const struct entry_use *)a)->used;
    const struct timespec *y = &((const struct entry_use *)b)->used;
    if (x->tv_sec != y->tv_sec)
        return x->tv_sec < y->tv_sec ? -1 : 1;
    return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

/* The entries of the directory (files named as keys), into @p list
 * (malloc'd); their count, and their bytes in @p total. */
static size_t entries_list(int dir_fd, struct entry_use **list,
                           uint64_t *total)
{
    size_t count = 0, room = 0;
    *list = NULL;
    *total = 0;
    int fd = dup(dir_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    rewinddir(d);
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (strlen(e->d_name) != REFCL_CACHE_NAME_LENGTH ||
            fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (count == room) {
            room = room ? 2 * room : 64;
            struct entry_use *grown = realloc(*list, room * sizeof(**list));
            if (!grown)
                break;
            *list = grown;
        }
        struct entry_use *u = &(*list)[count++];
        memcpy(u->name, e->d_name, sizeof(u->name)); /* and its NUL */
        u->bytes = (uint64_t)st.st_size;
        u->used = st.st_mtim;
        *total += u->bytes;
    }
    closedir(d);
    return count;
}

/* Removes the least recently used entries until the cache holds at most
 * REFCL_CACHE_MAX bytes; never @p kept, the entry just stored. */
static void evict(int dir_fd, const char *kept)
{
    uint64_t max = cache_max(), total;
    struct entry_use *list;
    size_t count = entries_list(dir_fd, &list, &total);
    if (total > max)
        qsort(list, count, sizeof(*list), older_first);
    for (size_t i = 0; i < count && total > max; i++) {
        if (strcmp(list[i].name, kept) != 0 &&
            unlinkat(dir_fd, list[i].name, 0) == 0)
            total -= list[i].bytes;
    }
    free(list);
}

void refcl_cache_store(const struct refcl_cache_key *key,
                       const struct refcl_compile_result *result,
                       const char *deps)
{
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
    int dir_fd = w.ok ? cache_dir_open(key->dir) : -1;
    if (dir_fd >= 0) {
        entry_write(dir_fd, key->name, &w);
        evict(dir_fd, key->name);
        close(dir_fd);
    }
    free(w.bytes);
}
