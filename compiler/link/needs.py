#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The symbols a program may take from the C and math libraries: the
builtin library's undefined symbols (llvm-nm --undefined-only on the
bitcode) and what code generation calls (codegen.txt), one a line, sorted.
stub.py defines only these in the link stubs; tests/compiler/link_stubs.py
checks the stubs against this list (docs/compiler.md).

Usage: needs.py LLVM_NM BITCODE CODEGEN OUTPUT
"""
import subprocess
import sys


def undefined(llvm_nm, bitcode):
    """The names @bitcode uses and does not define."""
    out = subprocess.run([llvm_nm, "--undefined-only", "--just-symbol-name",
                          bitcode],
                         check=True, capture_output=True, text=True).stdout
    return {line.strip() for line in out.splitlines() if line.strip()}


def listed(path):
    """The names in @path, one a line; # starts a comment."""
    with open(path) as f:
        return {line.split("#")[0].strip() for line in f} - {""}


def main():
    llvm_nm, bitcode, codegen, output = sys.argv[1:]
    names = undefined(llvm_nm, bitcode) | listed(codegen)
    with open(output, "w") as f:
        f.write("".join(name + "\n" for name in sorted(names)))


if __name__ == "__main__":
    main()
