/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Program executables loaded from a memfd (memfd_create + dlopen of
 * /proc/self/fd/N): no file on disk, and each load its own copy, so two
 * programs, or two devices of one program, never share program-scope
 * variables even when the build cache gives them the same bytes. The fd
 * stays open while the object is loaded: glibc's dlopen first matches by
 * name, and a reused fd number would hand back the other object. The
 * object is checked before it is loaded (compiler/elf.c: nothing of it may
 * run at load), and the memfd sealed against writes before dlopen reads it.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "refcl/compiler.h"
#include "refcl/kernel_abi.h"

/* glibc serializes dlopen and dlclose under a lock of its dynamic linker,
 * which ThreadSanitizer cannot see: two programs released at once on two
 * threads showed as a race inside _dl_close_worker. refcl's own lock makes
 * the order visible, at no cost: the calls are serialized anyway. */
static pthread_mutex_t loader_lock = PTHREAD_MUTEX_INITIALIZER;

static void *load_locked(const char *path)
{
    pthread_mutex_lock(&loader_lock);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    pthread_mutex_unlock(&loader_lock);
    return handle;
}

static void close_locked(void *handle)
{
    pthread_mutex_lock(&loader_lock);
    dlclose(handle);
    pthread_mutex_unlock(&loader_lock);
}

/* True if @p table, of the object @p handle loaded as @p memory says, is
 * one refcl can read. */
static bool table_checked(void *handle, const struct refcl_abi_program *table,
                          const struct refcl_elf_memory *memory,
                          const char **why)
{
    struct link_map *map;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0) {
        *why = "the executable's load address is unknown (dlinfo)";
        return false;
    }
    return refcl_table_check(table, map->l_addr, memory, why);
}

/* The table of a program without kernels: the work-group pass makes one
 * only where there are kernels, and a program of helper functions alone
 * (or of nothing) builds, with no kernel to create. Its list is empty, not
 * NULL: NULL is a device without an executable. */
static const struct refcl_abi_kernel no_kernel_list[1];
static const struct refcl_abi_program no_kernels = {
    .version = REFCL_ABI_VERSION, .kernels = no_kernel_list};

struct refcl_executable *refcl_executable_load(const struct refcl_blob *object,
                                               const char **why)
{
    struct refcl_executable *e = malloc(sizeof(*e));
    if (!e) {
        *why = "out of host memory";
        return NULL;
    }
    *e = (struct refcl_executable){.fd = -1};
    struct refcl_elf_memory memory;
    if (!refcl_elf_check(object->bytes, object->size, &memory, why)) {
        free(e);
        return NULL;
    }
    e->fd = memfd_create("refcl-program", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", e->fd);
    if (e->fd < 0 || !refcl_write_all(e->fd, object->bytes, object->size) ||
        fcntl(e->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
                                      F_SEAL_WRITE | F_SEAL_SEAL) != 0)
        *why = "could not copy the executable into a sealed memfd";
    else if (!(e->handle = load_locked(path)))
        *why = "the executable does not load (dlopen)";
    else if (!(e->table = dlsym(e->handle, REFCL_ABI_TABLE_SYMBOL)))
        e->table = &no_kernels;
    if (e->handle && (e->table == &no_kernels ||
                      table_checked(e->handle, e->table, &memory, why)))
        return e;
    refcl_executable_unload(e);
    return NULL;
}

void refcl_executable_unload(struct refcl_executable *executable)
{
    if (!executable)
        return;
    if (executable->handle)
        close_locked(executable->handle);
    if (executable->fd >= 0)
        close(executable->fd);
    free(executable);
}
