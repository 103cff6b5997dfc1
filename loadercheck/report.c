/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report: a line per check, a table per entry point, coverage, the
 * closing count; the same results as JUnit XML for CI systems.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

static const char *const status_words[] = {"ok", "FAIL", "skip"};

/* The command that runs check @p index alone, with the same values. */
static void reproducer(FILE *out, const struct report_data *data,
                       size_t index)
{
    fprintf(out, "refcl-loader-check --loader %s --only %s --seed %llu",
            data->loader, data->checks[index].id,
            (unsigned long long)data->seed);
}

void report_line(FILE *out, const struct report_data *data, size_t index)
{
    const struct outcome *outcome = &data->outcomes[index];
    fprintf(out, "%-4s %s: %s\n", status_words[outcome->status],
            data->checks[index].id, outcome->detail);
    if (outcome->status != STATUS_FAIL)
        return;
    fprintf(out, "     reproduce: ");
    reproducer(out, data, index);
    fputc('\n', out);
}

void report_failures(FILE *out, const struct report_data *data)
{
    int failed = 0;
    for (size_t i = 0; i < data->count; i++)
        failed += data->done[i] && data->outcomes[i].status == STATUS_FAIL;
    if (!failed)
        return;
    fprintf(out, "\nfailed (%d):\n", failed);
    for (size_t i = 0; i < data->count; i++)
        if (data->done[i] && data->outcomes[i].status == STATUS_FAIL)
            fprintf(out, "  %s\n", data->checks[i].id);
}

/* ---- the table per entry point ---- */

#define MAX_COLUMNS 8

/* "single:a": the scenario and vendor of a routing check. */
static void column_key(const struct check *check, char *key, size_t size)
{
    snprintf(key, size, "%s:%s", check->scenario->name,
             check->scenario->vendors[check->vendor].tag);
}

static int column_index(char keys[][24], int *count, const char *key)
{
    for (int i = 0; i < *count; i++)
        if (!strcmp(keys[i], key))
            return i;
    if (*count == MAX_COLUMNS)
        return -1;
    snprintf(keys[*count], 24, "%s", key);
    return (*count)++;
}

static const char *cell(const struct report_data *data, size_t index)
{
    if (index == SIZE_MAX || !data->done[index])
        return "";
    return status_words[data->outcomes[index].status];
}

struct row {
    size_t route[MAX_COLUMNS], forced[MAX_COLUMNS], null;
};

static bool ran(const struct report_data *data, size_t index)
{
    return index != SIZE_MAX && data->done[index];
}

static bool row_ran(const struct report_data *data, const struct row *row,
                    int columns)
{
    bool any = ran(data, row->null);
    for (int c = 0; c < columns; c++)
        any = any || ran(data, row->route[c]) || ran(data, row->forced[c]);
    return any;
}

void report_table(FILE *out, const struct report_data *data)
{
    char keys[MAX_COLUMNS][24];
    int columns = 0;
    size_t entry_count;
    const struct entry *entries = entries_all(&entry_count);
    static struct row rows[256];
    memset(rows, 0xFF, sizeof(rows));
    for (size_t i = 0; i < data->count; i++) {
        const struct check *check = &data->checks[i];
        if (check->column == COLUMN_NONE || (data->filtered && !data->done[i]))
            continue;
        struct row *row = &rows[check->entry - entries];
        if (check->column == COLUMN_NULL) {
            row->null = i;
            continue;
        }
        char key[24];
        column_key(check, key, sizeof(key));
        int c = column_index(keys, &columns, key);
        if (c >= 0 && check->column == COLUMN_ROUTE)
            row->route[c] = i;
        else if (c >= 0)
            row->forced[c] = i;
    }
    fprintf(out, "\nper entry point: route (real calls) and forced (refcl "
                 "told the result) per scenario:vendor; null (a NULL "
                 "handle)\n%-42s %4s", "entry point", "slot");
    for (int c = 0; c < columns; c++)
        fprintf(out, " %-12s", keys[c]);
    fprintf(out, " %-4s\n", "null");
    for (size_t e = 0; e < entry_count; e++) {
        if (data->filtered && !row_ran(data, &rows[e], columns))
            continue;
        fprintf(out, "%-42s %4d", entries[e].name, entries[e].slot);
        if (entry_dispatch_param(&entries[e]) < 0) {
            fprintf(out, " answered by the loader (no object to dispatch "
                         "on)\n");
            continue;
        }
        for (int c = 0; c < columns; c++) {
            char pair[16];
            snprintf(pair, sizeof(pair), "%s/%s", cell(data, rows[e].route[c]),
                     cell(data, rows[e].forced[c]));
            fprintf(out, " %-12s", strcmp(pair, "/") ? pair : "");
        }
        fprintf(out, " %-4s\n", cell(data, rows[e].null));
    }
}

/* ---- coverage ---- */

/* The entry points' fate in the first scenario that routes them:
 * checked with real objects, or skipped and why. */
void report_coverage(FILE *out, const struct report_data *data)
{
    size_t entry_count;
    const struct entry *entries = entries_all(&entry_count);
    int slots = 0, in_table = 0, answered = 0, checked = 0, skipped = 0;
    int checked_extensions = 0;
    for (size_t e = 0; e < entry_count; e++) {
        if (entries[e].slot >= slots)
            slots = entries[e].slot + 1;
        in_table += entries[e].slot >= 0;
    }
    fprintf(out, "\ncoverage of the %d dispatch slots and refcl's extension "
                 "functions:\n",
            slots);
    for (size_t e = 0; e < entry_count; e++) {
        if (entry_dispatch_param(&entries[e]) < 0) {
            answered++;
            continue;
        }
        size_t first = SIZE_MAX;
        for (size_t i = 0; i < data->count && first == SIZE_MAX; i++)
            if (data->checks[i].entry == &entries[e] &&
                data->checks[i].column == COLUMN_ROUTE && data->done[i])
                first = i;
        if (first == SIZE_MAX)
            continue;
        if (data->outcomes[first].status == STATUS_SKIP) {
            skipped++;
            fprintf(out, "  %s: %s\n", entries[e].name,
                    data->outcomes[first].detail);
        } else if (entries[e].slot >= 0) {
            checked++;
        } else {
            checked_extensions++;
        }
    }
    fprintf(out,
            "  checked with real objects: %d dispatch slots and %d of "
            "refcl's extension functions; not checked: %d (above); "
            "answered by the loader itself: %d (clGetPlatformIDs, "
            "clUnloadCompiler, clGetExtensionFunctionAddress: checked "
            "under platforms/ and extension/); unreachable: %d (the "
            "Direct3D 10/11 and DX9 media sharing slots, which no loader "
            "offers off Windows)\n",
            checked, checked_extensions, skipped, answered,
            slots - in_table);
}

void report_counts(FILE *out, const struct report_data *data, int *passed,
                   int *failed, int *skipped)
{
    *passed = *failed = *skipped = 0;
    for (size_t i = 0; i < data->count; i++) {
        if (!data->done[i])
            continue;
        switch (data->outcomes[i].status) {
        case STATUS_OK: (*passed)++; break;
        case STATUS_FAIL: (*failed)++; break;
        case STATUS_SKIP: (*skipped)++; break;
        }
    }
    (void)out;
}

void report_scenarios(FILE *out, const struct report_data *data)
{
    fprintf(out, "\n%-28s %7s %7s %7s\n", "scenario", "passed", "failed",
            "skipped");
    for (size_t first = 0; first < data->count;) {
        int counts[3] = {0, 0, 0}, ran = 0;
        size_t i = first;
        for (; i < data->count &&
               data->checks[i].scenario == data->checks[first].scenario;
             i++)
            if (data->done[i]) {
                counts[data->outcomes[i].status]++;
                ran++;
            }
        if (ran)
            fprintf(out, "%-28s %7d %7d %7d\n",
                    data->checks[first].scenario->name, counts[STATUS_OK],
                    counts[STATUS_FAIL], counts[STATUS_SKIP]);
        first = i;
    }
}

/* ---- JUnit XML ---- */

static void xml_text(FILE *out, const char *text)
{
    for (; *text; text++)
        switch (*text) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*text, out); break;
        }
}

bool report_junit(const char *path, const struct report_data *data,
                  const char *loader)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return false;
    int passed, failed, skipped;
    report_counts(out, data, &passed, &failed, &skipped);
    unsigned long long micros = 0;
    for (size_t i = 0; i < data->count; i++)
        micros += data->done[i] ? data->outcomes[i].micros : 0;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<testsuites name=\"refcl-loader-check\" time=\"%.6f\">\n"
                 "  <testsuite name=\"",
            (double)micros / 1e6);
    xml_text(out, loader);
    fprintf(out, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" "
                 "time=\"%.6f\">\n"
                 "    <properties>\n"
                 "      <property name=\"seed\" value=\"%llu\"/>\n"
                 "    </properties>\n",
            passed + failed + skipped, failed, skipped, (double)micros / 1e6,
            (unsigned long long)data->seed);
    for (size_t i = 0; i < data->count; i++) {
        if (!data->done[i])
            continue;
        const char *id = data->checks[i].id;
        const char *name = strchr(id, '/');
        name = name ? strchr(name + 1, '/') : NULL;
        const struct outcome *outcome = &data->outcomes[i];
        fprintf(out, "    <testcase classname=\"");
        fwrite(id, 1, name ? (size_t)(name - id) : strlen(id), out);
        fprintf(out, "\" name=\"");
        xml_text(out, name ? name + 1 : id);
        fprintf(out, "\" time=\"%.6f\"", (double)outcome->micros / 1e6);
        if (outcome->status == STATUS_OK) {
            fprintf(out, "/>\n");
            continue;
        }
        fprintf(out, ">\n      <%s message=\"",
                outcome->status == STATUS_FAIL ? "failure" : "skipped");
        xml_text(out, outcome->detail);
        if (outcome->status == STATUS_FAIL) {
            fprintf(out, "\">reproduce: ");
            reproducer(out, data, i);
            fprintf(out, "</failure>\n    </testcase>\n");
        } else {
            fprintf(out, "\"/>\n    </testcase>\n");
        }
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
    return fclose(out) == 0;
}
