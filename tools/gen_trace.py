#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates refcl's call tracing (instrumentation/trace_names.inc,
instrumentation/trace_wrappers.inc), its call journal
(instrumentation/journal_wrappers.inc), the notifying twins the dispatch
table holds (instrumentation/notify_wrappers.inc), the entry point table of
refcl-loader-check (loadercheck/entries.inc) and the direct tests' API
(tests/support/direct_wrappers.inc).

Run at development time when the slot list (include/refcl/entries.h) or
include/refcl/api.h change; the outputs are committed, so building refcl
never needs Python:

    tools/gen_trace.py

It reads the Khronos headers pinned in tools/opencl-headers.pin
(OpenCL-Headers v2023.02.06, Debian bookworm's opencl-c-headers
3.0~2023.02.06) and refuses others, so that newer headers never change the
outputs unnoticed. To move to other headers on purpose, name their release:

    tools/gen_trace.py --pin "OpenCL-Headers vYYYY.MM.DD"  [--headers DIR]

The CTest generated/up-to-date (tools/gen_trace.py --check DIR) writes the
outputs under DIR and fails with a diff where a committed file differs.

trace_names.inc: for each enum family refcl prints by name (cl_device_info,
cl_device_type, error codes, ...), the #defines that follow the family's
comment in the Khronos headers (`/* cl_device_info */`), as {value, "NAME"}.

trace_wrappers.inc: one wrapper per dispatch slot (and per cl_khr_icd
function and extension function) that calls refcl_notify_<name> and logs one
line.
Parameter lists come from the Khronos prototypes (cl.h, cl_ext.h, cl_gl.h,
cl_egl.h), or from include/refcl/api.h for the Direct3D/DX9, cl_khr_icd and
extension functions; how each
parameter is printed follows from its type and its neighbours (see
classify()).

journal_wrappers.inc: one wrapper per dispatch slot, cl_khr_icd function and
journaled refcl extension function that records the call in refcl's journal
(REFCL_JOURNAL, docs/journal.md): every argument's bits, the outputs the call
left, the result; or, when the journal's control function armed it, returns
a forced result without performing the call (see journal_wrapper()).

entries.inc: for refcl-loader-check, each entry point's parameters (what
kind of argument each is, which count or size goes with it) and an invoker
that calls a function pointer of its type with arguments given as raw bits.

notify_wrappers.inc: one twin per dispatch slot, cl_khr_icd function and
extension function, refcl_notify_<name>, the function every slot holds: it
calls refcl_<name> and, when the call failed and has a context (its first
valid handle argument's) or is a context's creation, reports the failure to
that context's pfn_notify (see notify_wrapper(); docs/tracing.md).

direct_wrappers.inc: the public OpenCL function of each dispatch slot that a
Khronos header declares, for test programs linked to librefcl directly: it
calls through refcl's dispatch table, as a loader would, without looking at
the handles (tests/support/direct.c).
"""
import argparse
import difflib
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = ["cl.h", "cl_ext.h", "cl_gl.h", "cl_egl.h", "cl_d3d10.h",
           "cl_d3d11.h", "cl_dx9_media_sharing.h"]
PROTOTYPE_HEADERS = ["cl.h", "cl_ext.h", "cl_gl.h", "cl_egl.h"]
# Every header read, in the order their sha256 is taken.
PARSED_HEADERS = HEADERS + ["cl_platform.h"]
PIN = "tools/opencl-headers.pin"
ICD_FUNCTIONS = ["clIcdGetPlatformIDsKHR",
                 "clIcdGetFunctionAddressForPlatformKHR",
                 "clIcdSetPlatformDispatchDataKHR"]
# Extension functions without a dispatch slot, wrapped like the rest.
EXTENSION_FUNCTIONS = ["clImportMemoryARM"]
# refcl's own extension functions (include/CL/cl_ext_refcl.h); the journal's
# two control functions are traced but not journaled.
REFCL_FUNCTIONS = ["clGetCallJournalREFCL", "clSetNextResultREFCL",
                   "clEnqueueMarkerREFCL"]
JOURNAL_CONTROL = {"clGetCallJournalREFCL", "clSetNextResultREFCL"}

HANDLES = {
    "cl_platform_id": "REFCL_PLATFORM", "cl_device_id": "REFCL_DEVICE",
    "cl_context": "REFCL_CONTEXT", "cl_command_queue": "REFCL_QUEUE",
    "cl_mem": "REFCL_MEM", "cl_program": "REFCL_PROGRAM",
    "cl_kernel": "REFCL_KERNEL", "cl_event": "REFCL_EVENT",
    "cl_sampler": "REFCL_SAMPLER",
}
# Parameter type -> enum family printed by name.
ENUMS = {t: t for t in [
    "cl_bool", "cl_platform_info", "cl_device_info", "cl_context_info",
    "cl_command_queue_info", "cl_mem_info", "cl_image_info", "cl_pipe_info",
    "cl_sampler_info", "cl_program_info", "cl_program_build_info",
    "cl_kernel_info", "cl_kernel_arg_info", "cl_kernel_work_group_info",
    "cl_kernel_sub_group_info", "cl_kernel_exec_info", "cl_event_info",
    "cl_profiling_info", "cl_gl_texture_info", "cl_gl_context_info",
    "cl_mem_object_type", "cl_addressing_mode", "cl_filter_mode",
    "cl_buffer_create_type"]}
# Parameter type -> bitfield family printed as NAME|NAME.
FLAGS = {t: t for t in [
    "cl_device_type", "cl_command_queue_properties", "cl_mem_flags",
    "cl_map_flags", "cl_mem_migration_flags"]}
FLAGS["cl_svm_mem_flags"] = "cl_mem_flags"
# Property lists printed in full: type -> printer in instrumentation/trace.c.
PROPERTY_LISTS = {
    "const cl_context_properties *": "arg_context_properties",
    "const cl_device_partition_property *": "arg_partition_properties",
}
UNSIGNED = {"cl_uint", "size_t", "cl_GLuint", "cl_GLint", "unsigned int",
            "UINT", "cl_ulong"}
SIGNED = {"cl_int"}
HEX = {"cl_GLenum"}
OUTPUT_SCALARS = {"cl_uint *": "arg_uint_out", "size_t *": "arg_size_out",
                  "cl_ulong *": "arg_ulong_out",
                  "cl_GLuint *": "arg_uint_out",
                  "cl_gl_object_type *": "arg_uint_out"}
# Families the printers in instrumentation/trace.c use besides the
# parameter types.
EXTRA_FAMILIES = ["errors", "cl_context_properties",
                  "cl_device_partition_property", "cl_device_affinity_domain"]
BITFIELDS = set(FLAGS.values()) | {"cl_device_affinity_domain"}
QUERY_PREFIXES = [("CL_DEVICE_", "cl_device_info"),
                  ("CL_PLATFORM_", "cl_platform_info")]


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def evaluate(expression):
    """The value of a #define's simple constant expression, or None."""
    e = re.sub(r"\(\s*(cl_\w+|int|unsigned)\s*\)", "", expression)
    e = re.sub(r"(?<=[0-9a-fA-F])[uUlL]+\b", "", e).strip()
    if not re.fullmatch(r"[-0-9a-fA-FxX()<\s]+", e) or not e:
        return None
    try:
        return int(eval(e, {"__builtins__": {}}))
    except (SyntaxError, NameError, TypeError):
        return None


def read_families(directory):
    """{family: [(value, name), ...]} in header order, first name per value."""
    families = {}
    types = read_types(directory)
    for header in HEADERS:
        path = os.path.join(directory, header)
        if not os.path.exists(path):
            continue
        family = None
        in_comment = False
        comment = ""
        for line in open(path, encoding="utf-8"):
            stripped = line.strip()
            if in_comment or stripped.startswith("/*"):
                # A comment on a line of its own names the family of the
                # #defines after it; any other comment ends the family,
                # except "reserved" notes inside a family.
                comment += " " + stripped
                in_comment = "*/" not in stripped
                if not in_comment:
                    family = comment_family(comment, family, header)
                    comment = ""
                continue
            m = re.match(r"#define\s+(CL_\w+)\s+(.+?)\s*(/\*.*)?$", stripped)
            if not m:
                continue
            name, value = m.group(1), evaluate(m.group(2))
            if value is None:
                continue
            target = family
            if value <= -1000:  # every extension's error codes
                target = "errors"
            elif family != "errors" and family not in types:
                # Extensions add queries under their own banner, not a
                # type's (cl_khr_fp16's CL_DEVICE_HALF_FP_CONFIG).
                target = next((f for prefix, f in QUERY_PREFIXES
                               if name.startswith(prefix)), None)
            if target:
                entries = families.setdefault(target, [])
                if all(v != value for v, _ in entries):
                    entries.append((value, name))
    return {f: [(v, n) for v, n in entries if plausible(f, v)]
            for f, entries in families.items()}


def plausible(family, value):
    """Drops the few #defines that follow a family's comment in the headers
    without belonging to it: extension bits and sub-enums (an ARM
    capability bit, an Intel 0 after `/* cl_device_info */`). Bitfields
    hold single bits (or all of them: CL_DEVICE_TYPE_ALL); enums are 0x100
    and up."""
    if family in ("errors", "cl_bool"):
        return True
    if family in BITFIELDS:
        return value & (value - 1) == 0 or value == 0xFFFFFFFF
    return value >= 0x100


def read_types(directory):
    """The names the headers typedef: a family comment names one of them,
    an extension banner (cl_khr_fp16) does not."""
    types = set()
    for header in HEADERS + ["cl_platform.h"]:
        path = os.path.join(directory, header)
        if os.path.exists(path):
            text = strip_comments(open(path, encoding="utf-8").read())
            types.update(re.findall(r"typedef\s[^;]*?\b(cl_\w+)\s*;", text))
    return types


def comment_family(comment, current, header):
    if re.search(r"\breserved\b", comment, re.I):
        return current
    if re.search(r"error codes", comment, re.I):
        return "errors" if header == "cl.h" else None
    m = re.search(r"\b(cl_\w+)", comment)
    if not m:
        return None
    # "cl_mem_flags - bitfield", "cl_device_info", "Additional
    # cl_context_properties"; extension banners (cl_khr_icd) name no family
    # refcl prints and end the previous one.
    return m.group(1)


def split_parameters(text):
    """Top-level comma-separated parameters of a prototype."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    parts.append(current)
    parts = [re.sub(r"\s*(\*+)\s*", r" \1", " ".join(p.split()))
             for p in parts]
    return [] if parts == ["void"] else parts


def parameter(text):
    """(declaration, type, name): type without the name, for classify()."""
    m = re.search(r"\(\s*CL_CALLBACK\s*\*\s*(\w+)\s*\)", text)
    if m:
        return text, "callback", m.group(1)
    m = re.fullmatch(r"(.*?)\s*\b(\w+)\s*(\[\d*\])?", text)
    ctype = m.group(1).replace(" *", "*").replace("*", " *").strip()
    ctype = re.sub(r"\s+", " ", ctype)
    if m.group(3):
        ctype += " *"
    return text, ctype, m.group(2)


def balanced(text, start):
    """The text inside the parentheses opening at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        depth += text[i] == "("
        depth -= text[i] == ")"
        if depth == 0:
            return text[start + 1:i]
    raise ValueError("unbalanced prototype")


def read_prototypes(directory, khronos_only=False):
    """{name: (return type, [parameter text])} from the Khronos headers and,
    unless `khronos_only`, refcl's own hand-written prototypes (api.h, as
    refcl_<name>)."""
    prototypes = {}
    for header in PROTOTYPE_HEADERS:
        text = strip_comments(open(os.path.join(directory, header),
                                   encoding="utf-8").read())
        pattern = (r"extern\s+CL_API_ENTRY\b([^;{]*?)"
                   r"\bCL_API_CALL\s+(cl\w+)\s*\(")
        for m in re.finditer(pattern, text):
            ret = " ".join(t for t in m.group(1).split()
                           if not re.match(r"CL_\w*PREFIX\w*", t))
            params = split_parameters(balanced(text, m.end() - 1))
            prototypes.setdefault(m.group(2), (normal_type(ret), params))
    if khronos_only:
        return prototypes
    api = strip_comments(open(os.path.join(ROOT, "include/refcl/api.h"),
                              encoding="utf-8").read())
    for m in re.finditer(r"([\w \t*]+?)\s*CL_API_CALL\s+refcl_(cl\w+)\s*\(",
                         api):
        params = split_parameters(balanced(api, m.end() - 1))
        prototypes[m.group(2)] = (normal_type(m.group(1)), params)
    return prototypes


def normal_type(text):
    return re.sub(r"\s+", " ", text.replace("*", " *")).strip()


def read_slots(kinds="XVT"):
    """The dispatch slots in table order; `kinds` selects X (typed), XV
    (void * off Windows) and XT (tagged in ICD2 tables) slots."""
    text = open(os.path.join(ROOT, "include/refcl/entries.h"),
                encoding="utf-8").read()
    return [name for kind, name in
            re.findall(r"\b(X[VT]?)\((cl\w+)\)", text)
            if (kind[1:] or "X") in kinds]


def classify(params, index, ok):
    """How parameter `index` of a wrapper is printed: (printer, arguments),
    printers being the arg_* functions of instrumentation/trace.c."""
    _, ctype, name = params[index]
    before = params[index - 1][1:] if index > 0 else (None, None)
    after = params[index + 1][1:] if index + 1 < len(params) else (None, None)
    q = '"%s"' % name
    if ctype in HANDLES:
        return "arg_handle", [q, HANDLES[ctype], name]
    if ctype in ENUMS:
        return "arg_enum", [q, name, "&%s_names" % ENUMS[ctype]]
    if ctype in FLAGS:
        return "arg_flags", [q, name, "&%s_names" % FLAGS[ctype]]
    if ctype in UNSIGNED:
        return "arg_unsigned", [q, name]
    if ctype in SIGNED:
        return "arg_signed", [q, name]
    if ctype in HEX:
        return "arg_hex", [q, name]
    if ctype == "const char *":
        return "arg_string", [q, name]
    if ctype in PROPERTY_LISTS:
        return PROPERTY_LISTS[ctype], [q, name]
    element = ctype[:-2] if ctype.endswith(" *") else None
    # A handle array follows its count: (cl_uint num_devices, const
    # cl_device_id *devices) is input; (cl_uint num_entries, cl_device_id
    # *devices, cl_uint *num_devices) is output.
    if element and element.startswith("const ") and element[6:] in HANDLES \
            and before[0] == "cl_uint" and before[1].startswith("num"):
        return "arg_handles", [q, HANDLES[element[6:]], name, before[1]]
    if element in HANDLES and before[0] == "cl_uint" and \
            after[0] == "cl_uint *":
        return "arg_handles_out", [q, HANDLES[element], name, before[1],
                                   "%s ? %s : NULL" % (ok, after[1])]
    if element in HANDLES:
        return "arg_handle_out", [q, HANDLES[element], name, ok]
    # DX9's media_adapter_type is an input array, spelled cl_uint * in api.h.
    if ctype in OUTPUT_SCALARS and not name.startswith("media_adapter"):
        return OUTPUT_SCALARS[ctype], [q, name, ok]
    if ctype == "callback":
        return "arg_pointer", [q, "(const void *)" + name]
    return "arg_pointer", [q, name]


def statement(function, arguments):
    return wrap("    %s(" % function, ["&line"] + arguments, ");", 8).lstrip()


def wrapper(name, prototype):
    ret, texts = prototype
    params = [parameter(t) for t in texts]
    names = [p[2] for p in params]
    if ret == "void":
        call, ok, end = "refcl_%s(", None, "line_end(&line);"
    else:
        call = ret + (" " if not ret.endswith("*") else "") + \
            "result = refcl_%s("
        errcode = "errcode_ret" if "errcode_ret" in names else "NULL"
        if ret == "cl_int":
            ok, end = "result == CL_SUCCESS", "line_end_code(&line, result);"
        elif ret in HANDLES:
            ok = "result != NULL"
            end = statement("line_end_handle",
                            [HANDLES[ret], "result", errcode])
        else:
            ok = "result != NULL"
            end = statement("line_end_pointer", ["result", errcode])
    # The reason printed for a failure is this call's (refcl/error.h).
    body = ["refcl_reason_clear();",
            wrap("    " + call % ("notify_" + name), names, ");", 8).lstrip()]
    statements = [statement(*classify(params, i, "ok"))
                  for i in range(len(params))]
    if any(re.search(r"\bok\b", s) for s in statements):
        body.append("bool ok = %s;" % ok)
    body.append("struct line line;")
    body.append('line_begin(&line, "%s");' % name)
    body += statements
    body.append(end)
    if ret != "void":
        body.append("return result;")
    star = "" if ret.endswith("*") else " "
    head = "%s%sCL_API_CALL refcl_trace_%s(" % (ret, star, name)
    signature = head + ", ".join(texts or ["void"]) + ")"
    if len(signature) > 79:  # one parameter a line
        signature = head + "\n" + ",\n".join("    " + t for t in texts) + ")"
    return "%s\n{\n%s}\n" % (signature,
                              "".join("    %s\n" % line for line in body))


# Handle types that belong to a context: the ones a failure is reported for.
CONTEXT_HANDLES = {t: k for t, k in HANDLES.items()
                   if t not in ("cl_platform_id", "cl_device_id")}
# The functions whose pfn_notify argument is the one of the context they
# create.
CONTEXT_CREATORS = {"clCreateContext", "clCreateContextFromType"}


def notified_handles(params):
    """(type, expression) of the handles a failure's context is looked for
    in, in order: every handle parameter of a context's type, or, when there
    is none, the first entry of the first input array of them."""
    handles = [(CONTEXT_HANDLES[c], n) for _, c, n in params
               if c in CONTEXT_HANDLES]
    for i, (_, ctype, pname) in enumerate(params):
        element = ctype[6:-2] if ctype.startswith("const ") and \
            ctype.endswith(" *") else None
        if handles or element not in CONTEXT_HANDLES or i == 0 or \
                params[i - 1][1] != "cl_uint":
            continue
        count = params[i - 1][2]
        handles.append((CONTEXT_HANDLES[element],
                        "%s && %s ? %s[0] : NULL" % (count, pname, pname)))
    return handles


def notify_wrapper(name, prototype):
    """refcl_notify_<name>: calls refcl_<name> and, on failure, hands the
    code and the handles that may name its context to refcl_notify_failed
    (or, creating a context, the call's own pfn_notify to
    refcl_notify_creation_failed). A call that cannot fail with a context
    is only passed on."""
    ret, texts = prototype
    params = [parameter(t) for t in texts]
    names = [p[2] for p in params]
    handles = notified_handles(params)
    creator = name in CONTEXT_CREATORS
    star = "" if ret.endswith("*") else " "
    head = "%s%sCL_API_CALL refcl_notify_%s(" % (ret, star, name)
    signature = head + ", ".join(texts or ["void"]) + ")"
    if len(signature) > 79:
        signature = head + "\n" + ",\n".join("    " + t for t in texts) + ")"
    if ret == "void" or not (handles or creator):
        call = ("" if ret == "void" else "return ") + "refcl_%s(" % name
        return "%s\n{\n    %s\n}\n" % (
            signature, wrap("    " + call, names, ");", 8).lstrip())
    body = []
    if ret == "cl_int":
        code, failed = "result", "result != CL_SUCCESS"
    elif "errcode_ret" in names:
        # The code, even when the caller did not ask for it.
        body.append("cl_int code;")
        names[names.index("errcode_ret")] = "errcode_ret ? errcode_ret : &code"
        code, failed = "errcode_ret ? *errcode_ret : code", "!result"
    else:
        code, failed = "CL_SUCCESS", "!result"  # the reason's code
    body.append(wrap("    %s%sresult = refcl_%s(" % (ret, star, name),
                     names, ");", 8).lstrip())
    body.append("if (__builtin_expect(%s, 0)) {" % failed)
    if creator:
        body.append(wrap("        refcl_notify_creation_failed(",
                         ['"%s"' % name, code, "pfn_notify", "user_data"],
                         ");", 12)[4:])
    else:
        body.append("    const struct refcl_notify_handle handles[] = {")
        body += ["        {%s, %s}," % h for h in handles]
        body.append("    };")
        body.append(wrap("        refcl_notify_failed(",
                         ['"%s"' % name, code, "handles", str(len(handles))],
                         ");", 12)[4:])
    body.append("}")
    body.append("return result;")
    return "%s\n{\n%s}\n" % (signature,
                              "".join("    %s\n" % line for line in body))


# Slots a direct test program must not define: refcl exports them itself.
EXPORTED = {"clGetPlatformInfo", "clGetExtensionFunctionAddress"}


def direct_wrapper(name, prototype):
    """The public clXxx that calls refcl's slot for it."""
    ret, texts = prototype
    names = [parameter(t)[2] for t in texts]
    star = "" if ret.endswith("*") else " "
    head = "%s%s%s(" % (ret, star, name)
    signature = head + ", ".join(texts or ["void"]) + ")"
    if len(signature) > 79:
        signature = head + "\n" + ",\n".join("    " + t for t in texts) + ")"
    call = ("" if ret == "void" else "return ") + "refcl()->%s(" % name
    return "%s\n{\n    %s\n}\n" % (signature,
                                    wrap(call, names, ");", 8).lstrip())


def wrap(head, items, tail, indent):
    """head + items joined by ", " + tail, broken into lines of at most 79
    columns, continuation lines indented by `indent` spaces."""
    lines, current = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i + 1 < len(items) else tail)
        full = len(current) + 1 + len(piece) > 79
        if full and current.strip() != head.strip():
            lines.append(current.rstrip())
            current = " " * indent
        elif not current.endswith("("):
            current += " "
        current += piece
    if not items:
        current += tail
    lines.append(current)
    return "\n".join(lines)


def names_table(family, entries):
    rows = "".join('    {%s, "%s"},\n' % (
        hex(v) if v >= 0 else str(v), n) for v, n in entries)
    return ("static const struct name %s_entries[] = {\n%s};\n"
            "static const struct names %s_names = {\n    %s_entries, %d};\n"
            ) % (family, rows, family, family, len(entries))


HEADER_COMMENT = """/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generated by tools/gen_trace.py from include/refcl/%s and the
 * Khronos OpenCL headers %s.
 * Headers read: %s (tools/opencl-headers.pin), sha256
 * %s.
 * Do not edit: change the generator and run it again.
 *
%s */
"""


def generated(pin, source, headers, description, parts):
    """A generated file's text: the header comment naming `source`, the
    Khronos `headers` and their `pin` (release, sha256), `description`
    (comment lines), then each of `parts` after a blank line."""
    return (HEADER_COMMENT % (source, "(" + headers + ")", pin[0], pin[1],
                              description)
            + "".join("\n" + part for part in parts))


# ---- the pinned headers and the check ----

def headers_sha256(directory):
    """The sha256 of PARSED_HEADERS concatenated: `cat cl.h cl_ext.h ...
    cl_platform.h | sha256sum` in `directory`."""
    digest = hashlib.sha256()
    for header in PARSED_HEADERS:
        path = os.path.join(directory, header)
        if os.path.exists(path):
            with open(path, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()


def read_pin():
    """(release, sha256) from the pin file's last line."""
    with open(os.path.join(ROOT, PIN), encoding="utf-8") as f:
        release, _, sha256 = f.read().strip().splitlines()[-1].rpartition(" ")
    return release, sha256


def write_pin(release, sha256):
    path = os.path.join(ROOT, PIN)
    with open(path, encoding="utf-8") as f:
        comment = [line for line in f if line.startswith("#")]
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(comment) + "%s %s\n" % (release, sha256))


def check(outputs, directory):
    """Writes `outputs` under `directory` and compares each with the
    committed file; prints the first lines of a unified diff of each that
    differs. True when all are the same."""
    same = True
    for path, text in outputs.items():
        fresh = os.path.join(directory, path)
        os.makedirs(os.path.dirname(fresh), exist_ok=True)
        with open(fresh, "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            committed = f.read()
        if committed != text:
            same = False
            diff = list(difflib.unified_diff(
                committed.splitlines(True), text.splitlines(True),
                path + " (committed)", fresh + " (generated)"))
            print("%s differs from what tools/gen_trace.py generates:" % path)
            sys.stdout.write("".join(diff[:40]))
            if len(diff) > 40:
                print("... (%d more diff lines)" % (len(diff) - 40))
    return same


# ---- the call journal (instrumentation/journal_wrappers.inc) ----

def output_of(params, index):
    """What parameter `index` is as an output: (kind, size), size being a C
    expression for the bytes it covers, or (None, None) for an input.

    kinds: "errcode" (errcode_ret), "scalar" (size_t *, cl_uint *, ...),
    "bytes" (param_value with its param_value_size), "array" (cl_int
    binary_status[num_devices], cl_image_format formats[num_entries]),
    "handle" (cl_event *event), "handles" (cl_device_id
    devices[num_entries])."""
    _, ctype, name = params[index]
    before = params[index - 1][1:] if index > 0 else (None, None)
    after = params[index + 1][1:] if index + 1 < len(params) else (None, None)
    if name == "errcode_ret":
        return "errcode", "sizeof(cl_int)"
    if ctype == "void *" and before == ("size_t", name + "_size"):
        return "bytes", before[1]
    if (ctype in OUTPUT_SCALARS or ctype == "cl_command_queue_properties *") \
            and not name.startswith("media_adapter"):
        return "scalar", "sizeof(%s)" % ctype[:-2]
    if ctype in ("cl_int *", "cl_image_format *"):
        count = next(n for _, t, n in reversed(params[:index])
                     if t == "cl_uint" and n.startswith("num"))
        return "array", "%s * sizeof(%s)" % (count, ctype[:-2])
    element = ctype[:-2] if ctype.endswith(" *") else None
    if element in HANDLES:
        if before[0] == "cl_uint" and after[0] == "cl_uint *":
            return "handles", "%s * sizeof(%s)" % (before[1], element)
        return "handle", "sizeof(%s)" % element
    return None, None


def call_statement(head, arguments, depth=1, tail=");"):
    """head + arguments, wrapped at 79 columns, for a line `depth` blocks
    deep in a function body (the body's own 4 spaces are added later)."""
    indent = " " * (4 * depth)
    return wrap(indent + head, arguments, tail, 4 * depth + 4)[4:]


def journal_platform(params, index):
    """The statement that takes the call's platform from parameter
    `index`, if it can hold a refcl object."""
    _, ctype, name = params[index]
    if ctype in HANDLES:
        return call_statement("refcl_journal_handle(",
                              ["&call", HANDLES[ctype], name])
    element = ctype[6:-2] if ctype.startswith("const ") and \
        ctype.endswith(" *") else None
    if element in HANDLES and index > 0 and params[index - 1][1] == "cl_uint":
        return call_statement("refcl_journal_handles(", [
            "&call", HANDLES[element], name, params[index - 1][2]])
    if ctype == "const cl_context_properties *":
        return call_statement("refcl_journal_properties(", ["&call", name])
    return None


def journal_wrapper(name, prototype, slot):
    """refcl_journal_<name>: records the call, performs it (through the
    tracing wrapper when tracing) or, when forced, returns the forced
    result and fills the outputs that are not handles."""
    ret, texts = prototype
    params = [parameter(t) for t in texts]
    names = [p[2] for p in params]
    body = ["struct refcl_journal_call call;",
            call_statement("refcl_journal_begin(", [
                "&call", str(slot), '"%s"' % name, str(len(params))])]
    for i, (_, ctype, pname) in enumerate(params):
        size = "sizeof(%s)" % (pname if ctype == "callback" else ctype)
        body.append(call_statement("refcl_journal_arg(",
                                   ["&call", str(i), "&" + pname, size]))
    body += [s for s in (journal_platform(params, i)
                         for i in range(len(params))) if s]
    outputs = [(i,) + output_of(params, i) for i in range(len(params))]
    outputs = [o for o in outputs if o[1]]
    fills = []
    for i, kind, size in outputs:
        if kind == "errcode":
            fills.append(call_statement("refcl_journal_fill_errcode(",
                                        ["&call", names[i]], 2))
        elif kind in ("scalar", "bytes", "array"):
            fills.append(call_statement("refcl_journal_fill(",
                                        ["&call", names[i], size], 2))
    head = "REFCL_JOURNAL_INNER(%s)(" % name
    if ret != "void":
        star = "" if ret.endswith("*") else " "
        body.append("%s%sresult;" % (ret, star))
        fills.append(call_statement("refcl_journal_forced_result(", [
            "&call", "&result", "sizeof(result)"], 2))
        head = "result = " + head
    inner = call_statement(head, names, 2)
    if fills:
        body.append("if (refcl_journal_forced(&call)) {")
        body += fills
        body.append("} else {")
    else:
        body.append("if (!refcl_journal_forced(&call)) {")
    body.append(inner)
    body.append("}")
    if ret in HANDLES:
        body.append(call_statement("refcl_journal_handle(",
                                   ["&call", HANDLES[ret], "result"]))
    records = []
    for i, kind, size in outputs:
        depth = 1 if kind == "errcode" else 2
        record = call_statement("refcl_journal_output(",
                                ["&call", str(i), names[i], size], depth)
        (body if kind == "errcode" else records).append(record)
    if records:
        ok = "result == CL_SUCCESS" if ret == "cl_int" else "result != NULL"
        body.append("if (call.forced || %s) {" % ok)
        body += records
        body.append("}")
    if ret == "void":
        body.append("refcl_journal_end(&call, NULL, 0);")
    else:
        body.append("refcl_journal_end(&call, &result, sizeof(result));")
        body.append("return result;")
    star = "" if ret.endswith("*") else " "
    head = "%s%sCL_API_CALL refcl_journal_%s(" % (ret, star, name)
    signature = head + ", ".join(texts or ["void"]) + ")"
    if len(signature) > 79:
        signature = head + "\n" + ",\n".join("    " + t for t in texts) + ")"
    return "%s\n{\n%s}\n" % (signature,
                              "".join("    %s\n" % line for line in body))


# ---- refcl-loader-check's entry points (loadercheck/entries.inc) ----

CHECK_HANDLES = {t: "OBJ_" + k[6:] for t, k in HANDLES.items()}
# Scalar parameters that are pointers: the sharing extensions' handles.
POINTER_TYPEDEFS = {"CLeglDisplayKHR", "CLeglImageKHR", "CLeglSyncKHR",
                    "cl_GLsync"}
# What the checker passes for each property list type.
PROPERTY_TYPES = {
    "const cl_context_properties *": "PROPS_CONTEXT",
    "const cl_queue_properties *": "PROPS_QUEUE",
    "const cl_mem_properties *": "PROPS_MEM",
    "const cl_sampler_properties *": "PROPS_SAMPLER",
    "const cl_pipe_properties *": "PROPS_PIPE",
    "const cl_device_partition_property *": "PROPS_PARTITION",
    "const cl_device_partition_property_ext *": "PROPS_PARTITION_EXT",
    "const cl_egl_image_properties_khr *": "PROPS_EGL_IMAGE",
}


def callback_signature(declaration):
    """(parameter types, cast type) of a callback parameter."""
    inner = declaration[declaration.index(")") + 1:].strip()
    types = []
    for p in split_parameters(inner[1:-1]):
        m = re.fullmatch(r"(.*?[\w*])\s*\b(\w+)(\[\])?", p)
        if m and m.group(2) not in ("void", "size_t") and \
                not m.group(2).startswith("cl_"):
            types.append(m.group(1) + (" *" if m.group(3) else ""))
        else:
            types.append(p)
    cast = re.sub(r"\(\s*CL_CALLBACK\s*\*\s*\w+\s*\)", "(CL_CALLBACK *)",
                  declaration)
    return tuple(types), cast


def check_param(params, index, callbacks):
    """The initializer of a struct param (loadercheck/entry.h)."""
    declaration, ctype, name = params[index]
    kind, size = output_of(params, index)
    count = -1
    names = [p[2] for p in params]
    handle = "OBJ_NONE"
    element_size = "0"
    callback = 0
    if kind:
        what = {"errcode": "OUT_ERRCODE", "scalar": "OUT_SCALAR",
                "bytes": "OUT_BYTES", "array": "OUT_ARRAY",
                "handle": "OUT_HANDLE", "handles": "OUT_HANDLE_LIST"}[kind]
        if kind == "bytes":
            count = names.index(size)
        elif kind in ("array", "handles"):
            count = names.index(size.split(" * ")[0])
        element_size = "1" if kind == "bytes" else size.split(" * ")[-1]
        if kind in ("handle", "handles"):
            handle = CHECK_HANDLES[ctype[:-2]]
    elif ctype == "callback":
        types, _ = callback_signature(declaration)
        if types not in callbacks:
            callbacks.append(types)
        what, callback = "ARG_CALLBACK", callbacks.index(types)
    elif ctype in CHECK_HANDLES:
        what, handle = "ARG_HANDLE", CHECK_HANDLES[ctype]
        element_size = "sizeof(%s)" % ctype
    elif ctype.startswith("const ") and ctype[6:-2] in CHECK_HANDLES and \
            index > 0 and params[index - 1][1] == "cl_uint":
        what, handle = "ARG_HANDLE_LIST", CHECK_HANDLES[ctype[6:-2]]
        count = index - 1
        element_size = "sizeof(%s)" % ctype[6:-2]
    elif ctype in PROPERTY_TYPES:
        what = PROPERTY_TYPES[ctype]
    elif ctype == "const char *":
        what = "ARG_STRING"
    elif ctype in ("const char * *", "const unsigned char * *"):
        what = "ARG_STRING_LIST"
        count = next(i for i in range(index - 1, -1, -1)
                     if params[i][1] == "cl_uint")
    elif ctype.endswith("*") or ctype in POINTER_TYPEDEFS:
        what = "ARG_POINTER"
    else:
        what = "ARG_SCALAR"
        element_size = "sizeof(%s)" % ctype
    return '{"%s", "%s", %s, %s, %s, %d, %d}' % (
        name, ctype if ctype != "callback" else "callback", what, handle,
        element_size, count, callback)


def check_invoker(name, prototype, callbacks, function_type):
    ret, texts = prototype
    params = [parameter(t) for t in texts]
    arguments = []
    for i, (declaration, ctype, pname) in enumerate(params):
        if ctype == "callback":
            cast = callback_signature(declaration)[1]
            arguments.append("(%s)(uintptr_t)a[%d]" % (cast, i))
        elif ctype.endswith("*") or ctype in HANDLES or \
                ctype in POINTER_TYPEDEFS:
            arguments.append("(%s)(uintptr_t)a[%d]" % (ctype, i))
        else:
            arguments.append("(%s)a[%d]" % (ctype, i))
    call = "((%s)function)(" % function_type
    lines = []
    if ret == "void":
        lines.append(wrap(call, arguments, ");", 8))
        lines.append("return 0;")
    else:
        star = "" if ret.endswith("*") else " "
        lines.append(wrap("%s%sresult = %s" % (ret, star, call), arguments,
                          ");", 8))
        lines.append("return value_bits(&result, sizeof(result));")
    unused = "" if params else "    (void)a;\n"
    return ("static cl_ulong invoke_%s(void *function, const cl_ulong *a)\n"
            "{\n%s%s}\n") % (name, unused,
                             "".join("    %s\n" % l for l in lines))


def check_result(ret):
    if ret == "void":
        return "RESULT_VOID", "OBJ_NONE"
    if ret == "cl_int":
        return "RESULT_CODE", "OBJ_NONE"
    if ret in CHECK_HANDLES:
        return "RESULT_HANDLE", CHECK_HANDLES[ret]
    return "RESULT_POINTER", "OBJ_NONE"


def check_entries(prototypes, slots, functions, errors):
    """loadercheck/entries.inc: no-op callbacks, invokers, parameter
    tables, the entry table and the names of the error codes."""
    callbacks = []
    invokers, tables, rows = [], [], []
    for name in functions:
        ret, texts = prototypes[name]
        params = [parameter(t) for t in texts]
        lines = [check_param(params, i, callbacks) for i in range(len(params))]
        slot = slots.index(name) if name in slots else -1
        function_type = "cl_api_" + name if slot >= 0 else name + "_fn"
        invokers.append(check_invoker(name, prototypes[name], callbacks,
                                      function_type))
        if lines:
            tables.append("static const struct param params_%s[] = {\n%s};\n"
                          % (name, "".join("    %s,\n" % l for l in lines)))
        result, handle = check_result(ret)
        rows.append('    {"%s", %d, %s, %s, %d, %s, invoke_%s},\n' % (
            name, slot, result, handle, len(params),
            "params_" + name if lines else "NULL", name))
    noops = []
    for n, types in enumerate(callbacks):
        args = ", ".join("%s a%d" % (t.replace("[]", ""), i)
                         if not t.endswith("*") else "%sa%d" % (t, i)
                         for i, t in enumerate(types))
        uses = "".join("    (void)a%d;\n" % i for i in range(len(types)))
        noops.append("static void CL_CALLBACK noop_callback_%d(%s)\n{\n%s}\n"
                     % (n, args, uses))
    table = "static void *const noop_callbacks[] = {\n%s};\n" % "".join(
        "    (void *)(uintptr_t)noop_callback_%d,\n" % n
        for n in range(len(callbacks)))
    entries = "static const struct entry entries[] = {\n%s};\n" % "".join(rows)
    codes = ("static const struct code_name code_names[] = {\n%s};\n" %
             "".join('    {%d, "%s"},\n' % (v, n) for v, n in errors))
    return "\n".join(noops + [table] + invokers + tables + [entries, codes])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headers", default="/usr/include/CL")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--pin", metavar="RELEASE",
                        help="accept the headers as RELEASE (e.g. "
                        '"OpenCL-Headers v2023.02.06") and pin them')
    mode.add_argument("--check", metavar="DIR",
                        help="write the outputs under DIR and fail with a "
                        "diff where a committed file differs")
    args = parser.parse_args()

    pin = read_pin()
    sha256 = headers_sha256(args.headers)
    if args.pin:
        pin = (args.pin, sha256)
    elif sha256 != pin[1]:
        sys.exit("gen_trace.py: the headers at %s are not the pinned %s "
                 "(their sha256 is %s, %s's %s); regenerate deliberately "
                 "with: tools/gen_trace.py --headers %s --pin "
                 '"OpenCL-Headers v<their release>"' % (
                     args.headers, pin[0], sha256, PIN, pin[1],
                     args.headers))
    families = read_families(args.headers)
    prototypes = read_prototypes(args.headers)
    slots = read_slots()
    functions = slots + ICD_FUNCTIONS + EXTENSION_FUNCTIONS + REFCL_FUNCTIONS
    missing = [f for f in functions if f not in prototypes]
    if missing:
        sys.exit("no prototype for: " + ", ".join(missing))

    wrappers = [wrapper(f, prototypes[f]) for f in functions]
    used = sorted(set(re.findall(r"&(\w+)_names", "".join(wrappers))) |
                  set(EXTRA_FAMILIES))
    absent = [f for f in used if not families.get(f)]
    if absent:
        sys.exit("no #defines found for: " + ", ".join(absent))

    outputs = {}
    outputs["instrumentation/trace_names.inc"] = generated(
        pin, "entries.h",
        ", ".join(HEADERS[:4]) + ",\n * " + ", ".join(HEADERS[4:]), (
        " * Names of the values of each enum family refcl's trace prints\n"
        " * by name, in header order; where several names share a value,\n"
        " * the first (the core name) is kept.\n"),
        [names_table(family, families[family]) for family in used])
    outputs["instrumentation/trace_wrappers.inc"] = generated(
        pin, "entries.h and api.h", ", ".join(PROTOTYPE_HEADERS), (
        " * One wrapper per dispatch slot, cl_khr_icd function and refcl\n"
        " * extension function:\n"
        " * it calls refcl_<name>, then logs the call in one line\n"
        " * (docs/tracing.md). Each is declared in refcl/trace.h with\n"
        " * __typeof__(refcl_<name>), so a parameter list that drifts\n"
        " * from the entry point's fails to compile.\n"), wrappers)
    outputs["instrumentation/notify_wrappers.inc"] = generated(
        pin, "entries.h and api.h", ", ".join(PROTOTYPE_HEADERS), (
        " * One twin per dispatch slot, cl_khr_icd function and refcl\n"
        " * extension function, the function the dispatch table holds: it\n"
        " * calls refcl_<name> and reports a failure to the pfn_notify of\n"
        " * the call's context (instrumentation/notify.c, docs/tracing.md).\n"
        " * Declared in refcl/notify.h with __typeof__(refcl_<name>).\n"),
        [notify_wrapper(f, prototypes[f]) for f in functions])
    khronos = read_prototypes(args.headers, khronos_only=True)
    direct = [f for f in read_slots("X") if f in khronos and
              f not in EXPORTED]
    outputs["tests/support/direct_wrappers.inc"] = generated(
        pin, "entries.h", ", ".join(PROTOTYPE_HEADERS), (
        " * The OpenCL API for tests linked to librefcl directly: each\n"
        " * function calls refcl's dispatch slot of the same name, passing\n"
        " * its arguments untouched (tests/support/direct.c).\n"),
        [direct_wrapper(f, khronos[f]) for f in direct])
    journaled = [f for f in functions if f not in JOURNAL_CONTROL]
    outputs["instrumentation/journal_wrappers.inc"] = generated(
        pin, "entries.h and api.h", ", ".join(PROTOTYPE_HEADERS), (
        " * One wrapper per dispatch slot, cl_khr_icd function and\n"
        " * journaled refcl extension function: it records the call in\n"
        " * the journal (instrumentation/journal.c, docs/journal.md), or\n"
        " * returns the result clSetNextResultREFCL forced without\n"
        " * performing it.\n"
        " * Declared in refcl/journal.h with __typeof__(refcl_<name>).\n"),
        [journal_wrapper(f, prototypes[f],
                         slots.index(f) if f in slots else -1)
         for f in journaled])
    # Every slot a loader can reach, and the extension functions it can
    # look up that do something (not the journal's controls).
    checked = read_slots("XT") + EXTENSION_FUNCTIONS + [
        f for f in REFCL_FUNCTIONS if f not in JOURNAL_CONTROL]
    outputs["loadercheck/entries.inc"] = generated(
        pin, "entries.h and api.h", ", ".join(PROTOTYPE_HEADERS), (
        " * refcl-loader-check's entry points (loadercheck/entry.h): every\n"
        " * dispatch slot a loader can reach off Windows, in table order,\n"
        " * and the extension functions clImportMemoryARM and refcl's\n"
        " * clEnqueueMarkerREFCL; for each, its parameters and\n"
        " * an invoker that calls it with arguments given as raw bits.\n"),
        [check_entries(prototypes, slots, checked, families["errors"])])

    if args.check:
        sys.exit(0 if check(outputs, args.check) else
                 "gen_trace.py: committed files differ from their generator's "
                 "output; run tools/gen_trace.py and commit the result")
    for path, text in outputs.items():
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write(text)
    if args.pin:
        write_pin(*pin)


if __name__ == "__main__":
    main()
