#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a test program through ocl-icd 2.3.3 (ICD2-aware), fetched by the
# loaders/fetch fixture. Skips (77) with a message when it could not be had.
set -u
libdir=$1; shift
if [ ! -e "$libdir/libOpenCL.so.1" ]; then
    echo "ocl-icd 2.3.3 could not be fetched (see the loaders/fetch-ocl-icd-2.3.3 test): skipped"
    exit 77
fi
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$@"
