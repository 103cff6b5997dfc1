#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/reference: the documentation is reference, and code comments say why.

The pages (docs/*.md but docs/results.md, README.md, bench/README.md) say how
refcl works today; measured results, with their dates, live in docs/results.md
alone, and history in NEWS.md and debian/changelog. So a page must not carry:
  - a session label such as "s27" or "S30";
  - a commit reference: a hexadecimal token of 7 to 40 digits with both
    letters and digits in prose ("refcl at b06ba15", "(dcc74e9)"), other
    than the version of an external project named just before it
    ("OpenCL-CTS b8f8906c");
  - a tracker issue number ("issue 18"), which names a tracker that is not
    in the repository.
Code comments (C, C++, OpenCL C, Python, shell, CMake) must not cite
"issue N" either. Each finding is printed as file:line: what: text.

Usage: check_reference.py SOURCE_DIR
       check_reference.py --self-test
"""
import io
import os
import re
import sys
import tempfile
import tokenize

RESULTS_PAGE = "docs/results.md"
EXTRA_PAGES = ("README.md", "bench/README.md")
EXTERNAL = re.compile(r"(OpenCL-CTS|OpenCL-Headers|OpenCL-ICD-Loader)\s+$")

SESSION = re.compile(r"\b[sS][0-9]{2}\b")
HEX = re.compile(r"(?<![0-9A-Za-z_.])([0-9a-f]{7,40})(?![0-9A-Za-z_])")
ISSUE = re.compile(r"\b[Ii]ssues? [0-9]+")

C_LIKE = (".c", ".h", ".cpp", ".hpp", ".cc", ".cl")
HASH_LIKE = (".py", ".sh", ".cmake")
HASH_NAMES = ("CMakeLists.txt",)
# Not scanned: version control, build trees, packaging (debian/changelog is
# history by nature), generated files.
SKIP_DIRS = {".git", "debian", "__pycache__"}


def prose(line):
    """@p line without its inline code spans."""
    return re.sub(r"`[^`]*`", "", line)


def page_findings(path, text):
    found = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        where = f"{path}:{number}"
        if SESSION.search(line):
            found.append(f"{where}: session label: {line.strip()}")
        if ISSUE.search(line):
            found.append(f"{where}: issue number: {line.strip()}")
        if fenced:
            continue
        words = prose(line)
        for m in HEX.finditer(words):
            token = m.group(1)
            if not (re.search("[a-f]", token) and re.search("[0-9]", token)):
                continue
            if EXTERNAL.search(words[:m.start()]):
                continue
            found.append(f"{where}: commit reference {token}: {line.strip()}")
    return found


def comments(path, text):
    """(line number, comment text) of each comment of a source file."""
    if path.endswith(C_LIKE):
        for m in re.finditer(r"//[^\n]*|/\*.*?\*/", text, re.S):
            first = text.count("\n", 0, m.start()) + 1
            for i, line in enumerate(m.group(0).split("\n")):
                yield first + i, line
    elif path.endswith(".py"):
        try:
            for token in tokenize.generate_tokens(io.StringIO(text).readline):
                if token.type == tokenize.COMMENT:
                    yield token.start[0], token.string
        except (tokenize.TokenError, SyntaxError):
            yield from hash_comments(text)
    else:
        yield from hash_comments(text)


def hash_comments(text):
    """Shell and CMake: from a '#' that starts a word to the line's end."""
    for number, line in enumerate(text.splitlines(), 1):
        m = re.search(r"(^|\s)#.*$", line)
        if m:
            yield number, m.group(0)


def code_findings(path, text):
    return [f"{path}:{number}: issue number in a comment: {line.strip()}"
            for number, line in comments(path, text) if ISSUE.search(line)]


def is_source(name):
    return name.endswith(C_LIKE + HASH_LIKE) or name in HASH_NAMES


def is_build_tree(names):
    return "CMakeCache.txt" in names


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def check(root):
    found = []
    docs = os.path.join(root, "docs")
    pages = sorted(os.path.join("docs", n) for n in os.listdir(docs)
                   if n.endswith(".md")) if os.path.isdir(docs) else []
    pages += [p for p in EXTRA_PAGES if os.path.exists(os.path.join(root, p))]
    for page in pages:
        if page != RESULTS_PAGE:
            found += page_findings(page, read(os.path.join(root, page)))
    for directory, dirs, names in os.walk(root):
        if is_build_tree(names):
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and
                         not d.startswith("build") and
                         not d.startswith("obj-"))
        for name in sorted(names):
            if is_source(name):
                path = os.path.join(directory, name)
                found += code_findings(os.path.relpath(path, root), read(path))
    return found


def self_test():
    """Plants each kind of finding, and its look-alikes that are fine, in a
    tree of its own; the check must report exactly the planted ones."""
    bad_page = ("refcl at b06ba15 passed.\n"          # commit
                "Fixed (dcc74e9), in s27.\n"          # commit, session
                "The S30 run.\n"                      # session
                "Opened by issue 18.\n")              # issue
    good_page = ("OpenCL-CTS b8f8906c and OpenCL-Headers 15b536b.\n"
                 "`-0x1.31000000000d0p-6`, 0x1.976472cc41506p+1, `abc1234`.\n"
                 "A 2026-11-25 date, 1234567 bytes, deadbeef.\n"
                 "```\nfeed123 in a code block\n```\n")
    bad_c = "int x; /* see issue 22 */\n// Issue 7: shared pages\n"
    good_c = 'const char *s = "issue 3"; /* says why */\n'
    bad_cmake = "add_test(x) # issue 19\n"
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        os.makedirs(os.path.join(root, "src"))
        files = {"docs/bad.md": bad_page, "docs/good.md": good_page,
                 "docs/results.md": bad_page, "src/bad.c": bad_c,
                 "src/good.c": good_c, "src/CMakeLists.txt": bad_cmake,
                 "src/bad.py": "x = 1  # issue 5\n",
                 "src/good.py": 'x = "# issue 5"  # says why\n',
                 "NEWS.md": bad_page}
        for name, text in files.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        found = check(root)
    expected = [
        "docs/bad.md:1: commit reference b06ba15",
        "docs/bad.md:2: session label",
        "docs/bad.md:2: commit reference dcc74e9",
        "docs/bad.md:3: session label",
        "docs/bad.md:4: issue number",
        "src/CMakeLists.txt:1: issue number in a comment",
        "src/bad.c:1: issue number in a comment",
        "src/bad.c:2: issue number in a comment",
        "src/bad.py:1: issue number in a comment",
    ]
    want = sorted(expected)
    got = sorted(":".join(f.split(":")[:2]) + ": " + f.split(": ")[1]
                 for f in found)
    if got != want:
        print("self-test: expected\n  " + "\n  ".join(want) +
              "\ngot\n  " + "\n  ".join(got))
        return 1
    print(f"self-test: {len(found)} planted findings reported, no other")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    found = check(argv[1])
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} findings: pages say how refcl works now (measured "
              f"results go to {RESULTS_PAGE}, dated); comments say why, not "
              f"which issue")
        return 1
    print("docs and code comments: no session label, commit reference or "
          "issue number")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
