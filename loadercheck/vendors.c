/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Installing a scenario's vendors in a temporary directory, without root:
 * a copy of librefcl per vendor (dlopen loads each copy as an instance of
 * its own), an .icd file naming it, the per-instance settings file refcl
 * reads (REFCL_INSTANCES) and an empty layers directory.
 *
 * Loaders read the vendors directory in readdir order, which depends on
 * the file system (on ext4, on a hash of the names). The scenario's order
 * matters (which vendor a loader meets first), so the .icd files are
 * renamed until readdir lists them in that order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vendors.h"

static bool copy_file(const char *from, const char *to, char *why,
                      size_t why_size)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int out = in < 0 ? -1
                     : open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                            0755);
    char buffer[65536];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buffer, sizeof(buffer))) > 0)
        if (write(out, buffer, (size_t)n) != n)
            n = -1;
    if (in < 0 || out < 0 || n < 0)
        snprintf(why, why_size, "cannot copy %s to %s: %s", from, to,
                 strerror(errno));
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return in >= 0 && out >= 0 && n == 0;
}

static bool write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "we");
    if (!file)
        return false;
    bool ok = fputs(text, file) >= 0;
    return fclose(file) == 0 && ok;
}

/* The [librefcl-<tag>.so] section of the instances file. */
static void instance_section(char *out, size_t size,
                             const struct vendor_spec *vendor)
{
    char names[128];
    if (vendor->platforms > 1)
        snprintf(names, sizeof(names), "refcl-check %s0,refcl-check %s1",
                 vendor->tag, vendor->tag);
    else
        snprintf(names, sizeof(names), "refcl-check %s", vendor->tag);
    const char *suffix = vendor->suffix[0] ? vendor->suffix : "\"\"";
    snprintf(out, size,
             "[librefcl-%s.so]\n"
             "REFCL_JOURNAL=1\n"
             "REFCL_PLATFORMS=%d\n"
             "REFCL_PLATFORM_NAME=%s\n"
             "REFCL_ICD_SUFFIX=%s%s%s\n"
             "REFCL_ICD_VERSION=%d\n"
             "REFCL_FAULT=%s\n",
             vendor->tag, vendor->platforms, names, suffix,
             vendor->platforms > 1 ? "," : "",
             vendor->platforms > 1 ? suffix : "", vendor->icd_version,
             vendor->fault ? vendor->fault : "none");
}

/* The .icd files of @p dir in readdir order match @p names. */
static bool readdir_order_is(const char *dir, char names[][64], int count)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    int seen = 0;
    bool same = true;
    for (struct dirent *e; (e = readdir(d));) {
        size_t length = strlen(e->d_name);
        if (length < 4 || strcmp(e->d_name + length - 4, ".icd"))
            continue;
        same = same && seen < count && !strcmp(e->d_name, names[seen]);
        seen++;
    }
    closedir(d);
    return same && seen == count;
}

/* Writes the .icd files, renaming them until readdir agrees with the
 * scenario's order. */
static bool write_icd_files(const char *dir, const struct scenario *scenario,
                            char *why, size_t why_size)
{
    char vendors[PATH_MAX], path[2 * PATH_MAX], line[PATH_MAX + 64];
    char names[MAX_VENDORS][64];
    snprintf(vendors, sizeof(vendors), "%s/vendors", dir);
    for (int attempt = 0; attempt < 1000; attempt++) {
        for (int v = 0; v < scenario->vendor_count; v++) {
            if (attempt > 0) {
                snprintf(path, sizeof(path), "%s/%s", vendors, names[v]);
                unlink(path);
            }
            snprintf(names[v], sizeof(names[v]), "%d%d-refcl-check-%s.icd",
                     attempt, v, scenario->vendors[v].tag);
            snprintf(path, sizeof(path), "%s/%s", vendors, names[v]);
            snprintf(line, sizeof(line), "%s/lib/librefcl-%s.so\n", dir,
                     scenario->vendors[v].tag);
            if (!write_text(path, line)) {
                snprintf(why, why_size, "cannot write %s: %s", path,
                         strerror(errno));
                return false;
            }
        }
        if (readdir_order_is(vendors, names, scenario->vendor_count))
            return true;
    }
    snprintf(why, why_size, "cannot make readdir list %s in order", vendors);
    return false;
}

bool vendors_install(const char *dir, const struct scenario *scenario,
                     const char *refcl, char *why, size_t why_size)
{
    static const char *const subdirs[] = {"", "/lib", "/vendors", "/layers"};
    char path[PATH_MAX + 64];
    for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
        snprintf(path, sizeof(path), "%s%s", dir, subdirs[i]);
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            snprintf(why, why_size, "cannot create %s: %s", path,
                     strerror(errno));
            return false;
        }
    }
    char instances[4096] = "# per-instance settings: refcl's REFCL_INSTANCES\n";
    for (int v = 0; v < scenario->vendor_count; v++) {
        snprintf(path, sizeof(path), "%s/lib/librefcl-%s.so", dir,
                 scenario->vendors[v].tag);
        if (!copy_file(refcl, path, why, why_size))
            return false;
        size_t used = strlen(instances);
        instance_section(instances + used, sizeof(instances) - used,
                         &scenario->vendors[v]);
    }
    snprintf(path, sizeof(path), "%s/instances.conf", dir);
    if (!write_text(path, instances)) {
        snprintf(why, why_size, "cannot write %s", path);
        return false;
    }
    return write_icd_files(dir, scenario, why, why_size);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void vendors_remove(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
