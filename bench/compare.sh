#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# refcl against pocl, side by side (bench/README.md). Installs pocl if it is
# missing, builds refcl and bench/refcl_bench, runs the bench against refcl
# and against pocl alternately for several rounds, and prints one table:
# each figure's median for both, the refcl/pocl ratio, and the target.
#
# Usage: bench/compare.sh [rounds]        (default 4)
# Environment:
#   BUILD_DIR   build directory (default: build, as scripts/setup.sh)
#   BENCH       the program in <build>/bench to run: refcl_bench (default),
#               or refcl_libraries (CLBlast, clFFT and OpenBLAS; built only
#               where they are installed, bench/README.md)
#   BENCH_ARGS  extra options for it, e.g. "--spawns 20 --runs 5"
#   LOG_DIR     keep every run's output there (default: a temporary dir)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-4}
build=${BUILD_DIR:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
pocl_icd=/etc/OpenCL/vendors/pocl.icd
refcl_icd=$build/vendors/refcl.icd
program=${BENCH:-refcl_bench}
bench=$build/bench/$program

install_pocl() {
    dpkg-query -W -f='${Status}' pocl-opencl-icd 2>/dev/null |
        grep -q 'install ok installed' && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing: pocl-opencl-icd" >&2
    $sudo apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
        --no-install-recommends pocl-opencl-icd >&2
}

build_bench() {
    scripts/deps.sh >&2
    cmake -S . -B "$build" -DREFCL_BUILD_BENCH=ON >/dev/null
    cmake --build "$build" -j"$(nproc)" --target refcl "$program" >/dev/null
    # The compiler's parts, where LLVM is there to build them.
    if cmake --build "$build" --target help | grep -q refcl-workgroup; then
        cmake --build "$build" -j"$(nproc)" \
            --target refcl-workgroup refcl_builtins >/dev/null
    fi
}

machine() {
    local cpu os
    cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
    # shellcheck disable=SC1091 # a system file, present on every Debian
    os=$(. /etc/os-release && echo "$PRETTY_NAME")
    echo "# machine: $cpu, $(nproc) CPUs, $os; $(uname -r)"
    echo "# load average before: $1, after: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# build: $build ($(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' \
        "$build/CMakeCache.txt")), $rounds rounds alternating refcl and pocl"
}

# One target per line: name, rule, reference figure, bound; a figure may
# have several.
#   ratio  refcl/pocl <= bound          (smaller is better)
#   below  refcl/pocl <  bound
#   of     refcl / refcl's <reference> <= bound
#   grows  refcl / refcl's <reference> >= bound (throughput)
targets() {
    cat <<'EOF'
startup.platforms-ready  ratio -                     0.05
device-info.scalar       ratio -                     1
device-info.string       ratio -                     1
platform-info.string     ratio -                     1
context.create-release   ratio -                     0.2
subdevices.equally-1     below -                     1
buffer.create-release    ratio -                     0.2
copy-buffer.64m          of    memcpy.64m            1.0
write-buffer.64m         of    memcpy.64m            1.0
read-buffer.64m          of    memcpy.64m            1.0
map-unmap.64m            ratio -                     0.05
write-buffer.4b          ratio -                     0.1
native-kernel.latency    ratio -                     0.1
queues.herd              of    queues.one            1.2
queues.herd-cpu          of    queues.one-cpu        1.5
saxpy.device             grows saxpy.c-all-threads   0.9
saxpy.source             grows saxpy.c-all-threads   0.95
builtin.sin              ratio -                     1
builtin.exp              ratio -                     1
builtin.pow              ratio -                     1
builtin.convert_uchar4_sat_rte ratio -               1
builtin.atomic_add-1     ratio -                     1
builtin.atomic_add-64    ratio -                     1
builtin.atomic_add-64-wg64 ratio -                   1
builtin.async_copy_tiles ratio -                     1
barrier.gather-float4    ratio -                     1
generic.axpy-generic     of    generic.axpy-global   1.05
reduce.source            ratio -                     1
compute.mad-float        of    compute.c-fma-all-threads 1.67
compute.mad-float16      of    compute.c-fma-all-threads 1.67
compute.mad-half         of    compute.mad-float     1
sgemm.naive-1024         ratio -                     0.2
nbody.4096               ratio -                     0.25
conv5x5.4096             ratio -                     0.25
divergent.collatz-1m     of    divergent.c-collatz-all-threads 1
divergent.mandelbrot-2048 ratio -                    0.25
reduce.float-tree        ratio -                     1
reduce.float-collective  of    reduce.float-tree     1.2
image.blur-5x5           ratio -                     0.5
image.resample-bilinear  ratio -                     1
map-unmap-image.64m      ratio -                     0.05
copy-image.64m           of    memcpy.64m            1.0
build.uncached           ratio -                     0.5
build.cached             ratio -                     1
build.first_run          ratio -                     0.5
timer.host               of    clock-gettime         1.5
timer.device-and-host    of    clock-gettime         1.5
device-info.threads-2    grows device-info.threads-1 1.5
device-info.threads-all  grows device-info.threads-1 1.5
context.threads-2        grows context.threads-1     1.5
context.threads-all      grows context.threads-1     1.5
clblast.sgemm-1024       ratio -                     0.5
clblast.sgemm-1024       of    openblas.sgemm-1024   3.33
clblast.sgemm-2048       ratio -                     0.5
clblast.sgemm-2048       of    openblas.sgemm-2048   3.33
clblast.dgemm-1024       ratio -                     0.667
clblast.dgemm-2048       ratio -                     0.667
clfft.c2c-1m             ratio -                     0.7
EOF
}

run_rounds() { # run_rounds <log dir>
    # refcl first in odd rounds, pocl first in even ones: a drift of the
    # machine's speed during the run weighs on both alike.
    for round in $(seq "$rounds"); do
        local order="refcl pocl"
        if [ $((round % 2)) -eq 0 ]; then order="pocl refcl"; fi
        for icd in $order; do
            local file=$refcl_icd
            if [ "$icd" = pocl ]; then file=$pocl_icd; fi
            echo "round $round/$rounds: $icd" >&2
            # shellcheck disable=SC2086 # BENCH_ARGS is a list of options
            OCL_ICD_VENDORS=$file REFCL_COMPILER_DIR=$build/compiler \
                "$bench" ${BENCH_ARGS:-} \
                >"$1/$icd.$round"
        done
    done
}

# Reads the targets, then every run's output (files <icd>.<round>); prints
# the table. Per figure and ICD: the median of the rounds' medians, and the
# median of their interquartile ranges. A figure with several targets gets
# the verdict of each, joined with "; ".
table() { # table <log dir>
    awk '
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
                t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
            }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function summary(icd, name, what,    k, i, v) {
        k = icd SUBSEP name
        if (!count[k])
            return ""
        for (i = 1; i <= count[k]; i++)
            v[i] = sample[k, what, i]
        return median(v, count[k])
    }
    function short(icd, name) {
        return word[icd, name] == "wrong" ? "wrong" : "unsupp."
    }
    function show(v) {
        if (v == "") return "-"
        return sprintf(v < 10 ? "%.2f" : v < 1000 ? "%.1f" : "%.0f", v)
    }
    function one_target(k) {
        if (rule[k] == "ratio") return "<= " bound[k] "x pocl"
        if (rule[k] == "below") return "< " bound[k] "x pocl"
        if (rule[k] == "of") return "<= " bound[k] "x " reference[k]
        return ">= " bound[k] "x " reference[k]
    }
    # What a figure without a number printed instead: "unsupported" (a call
    # failed) or "wrong" (a result was checked and was wrong).
    function failure(k,    name) {
        name = k; sub(SUBSEP ".*", "", name)
        return word["refcl", name] == "wrong" ? "wrong" : "unsupported"
    }
    function one_verdict(k, r, p,    base, x, ok) {
        if (r == "") return "NOT met (refcl " failure(k) ")"
        if (rule[k] == "ratio" || rule[k] == "below") {
            if (p == "") return "n/a (pocl unsupported)"
            x = r / p
            ok = rule[k] == "ratio" ? x <= bound[k] : x < bound[k]
            return ok ? "met" : "NOT met"
        }
        base = summary("refcl", reference[k], "median")
        if (base == "") return "n/a (" reference[k] " unsupported)"
        x = r / base
        ok = rule[k] == "of" ? x <= bound[k] : x >= bound[k]
        return sprintf("%s (%.2fx)", ok ? "met" : "NOT met", x)
    }
    function target(name,    i, s) {
        for (i = 1; i <= targets[name]; i++)
            s = s (i > 1 ? ", " : "") one_target(name SUBSEP i)
        return s
    }
    function verdict(name, r, p,    i, s) {
        for (i = 1; i <= targets[name]; i++)
            s = s (i > 1 ? "; " : "") one_verdict(name SUBSEP i, r, p)
        return s
    }
    FILENAME == "-" {
        i = ++targets[$1]
        k = $1 SUBSEP i
        rule[k] = $2; reference[k] = $3; bound[k] = $4; next
    }
    FNR == 1 { icd = FILENAME; sub(/.*\//, "", icd); sub(/\..*/, "", icd) }
    /^#/ || NF == 0 { next }
    {
        name = $1
        if (!(name in seen)) { seen[name] = 1; order[++n] = name }
        k = icd SUBSEP name
        if ($2 == "unsupported" || $2 == "wrong") {
            line = $0; sub(/^[^ ]+ +[a-z]+ +/, "", line)
            word[k] = $2; why[k] = line; next
        }
        unit[name] = $4
        c = ++count[k]
        sample[k, "median", c] = $2; sample[k, "iqr", c] = $3
    }
    END {
        fmt = "%-25s %-7s %9s %8s %9s %8s %7s  %-32s %s\n"
        printf fmt, "figure", "unit", "refcl", "iqr", "pocl", "iqr",
            "ratio", "target", "verdict"
        for (i = 1; i <= n; i++) {
            name = order[i]
            r = summary("refcl", name, "median")
            p = summary("pocl", name, "median")
            rs = r == "" ? short("refcl", name) : show(r)
            ps = p == "" ? short("pocl", name) : show(p)
            ratio = r != "" && p != "" && p > 0 ? sprintf("%.3f", r / p) : "-"
            t = name in targets ? target(name) : "-"
            v = name in targets ? verdict(name, r, p) : ""
            printf fmt, name, unit[name], rs, show(summary("refcl", name, "iqr")),
                ps, show(summary("pocl", name, "iqr")), ratio, t, v
        }
        for (i = 1; i <= n; i++)
            for (icd = 1; icd <= 2; icd++) {
                who = icd == 1 ? "refcl" : "pocl"
                if ((who SUBSEP order[i]) in why && !count[who, order[i]])
                    printf "# %s %s: %s %s\n", who, order[i],
                        word[who, order[i]], why[who, order[i]]
            }
    }' - "$1"/refcl.* "$1"/pocl.*
}

install_pocl
build_bench
if [ ! -x "$bench" ]; then
    echo "compare.sh: $bench was not built (bench/README.md: what it needs)" >&2
    exit 1
fi
log_dir=${LOG_DIR:-$(mktemp -d)}
mkdir -p "$log_dir"
load=$(cut -d' ' -f1-3 /proc/loadavg)
run_rounds "$log_dir"
machine "$load"
targets | table "$log_dir"
echo "# every run's output: $log_dir"
