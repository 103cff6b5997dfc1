# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Sourced by scripts/test.sh and scripts/build-matrix.sh: sets `hardening`
# to the CMake arguments that build refcl with Debian's hardening flags
# (DEB_BUILD_MAINT_OPTIONS=hardening=+all) and -D_FORTIFY_SOURCE=3, as a
# distribution's build does.
hardening_flags() { # hardening_flags <CFLAGS|CXXFLAGS|CPPFLAGS|LDFLAGS>
    DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"
}
# dpkg-buildflags in bookworm asks for _FORTIFY_SOURCE=2; refcl builds with 3.
hardening_cppflags=$(hardening_flags CPPFLAGS | sed 's/-D_FORTIFY_SOURCE=[0-9]/-D_FORTIFY_SOURCE=3/')
hardening_ldflags=$(hardening_flags LDFLAGS)
# shellcheck disable=SC2034 # used by the scripts that source this one
hardening=(
    -DCMAKE_C_FLAGS="$(hardening_flags CFLAGS) $hardening_cppflags"
    -DCMAKE_CXX_FLAGS="$(hardening_flags CXXFLAGS) $hardening_cppflags"
    -DCMAKE_EXE_LINKER_FLAGS="$hardening_ldflags"
    -DCMAKE_SHARED_LINKER_FLAGS="$hardening_ldflags"
)

# A warning that -Werror does not turn into an error (a #pragma message, a
# linker warning) in the build log <file>: prints them, and fails.
build_log_has_warnings() { # build_log_has_warnings <file>
    grep -E -i -B2 -A6 'warning:|error:|note:' "$1" >&2
}
