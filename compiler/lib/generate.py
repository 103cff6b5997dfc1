#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes refcl's builtin library's regular families as OpenCL C, over the
spec's type x width tables (docs/builtins.md): one file per family, named
on the command line (generate.py <family> <out.cl>). What is an algorithm
rather than a table is OpenCL C source in src/ (atomics, async copies, the
scalar math functions math.cl includes).

A function is written once on a generic type T: OpenCL C's operators work
per component on vectors, so one body serves scalars and every width, and
vector code stays vector code. Where a body must call a scalar builtin
(libm, llvm.sqrt...), split() builds the vector from halves, which LLVM's
SLP vectorizer joins back and -mlink-builtin-bitcode inlines into the
kernel."""
import sys

FLOATS = ["float", "double"]
SIGNED = ["char", "short", "int", "long"]
UNSIGNED = ["uchar", "ushort", "uint", "ulong"]
INTS = SIGNED + UNSIGNED
WIDTHS = [1, 2, 3, 4, 8, 16]
BITS = {"char": 8, "uchar": 8, "short": 16, "ushort": 16, "int": 32,
        "uint": 32, "long": 64, "ulong": 64, "half": 16, "float": 32,
        "double": 64}
# cl_khr_fp16's half, a full type (arithmetic, conversions, the math
# table) beside float and double in the families that take every type.
HALF = ["half"]
# The integer type of a scalar's size, signed and unsigned.
SINT = {8: "char", 16: "short", 32: "int", 64: "long"}
UINT = {8: "uchar", 16: "ushort", 32: "uint", 64: "ulong"}
OVL = "__attribute__((overloadable))"
LIMITS = {"char": ("CHAR_MIN", "CHAR_MAX"), "uchar": ("0", "UCHAR_MAX"),
          "short": ("SHRT_MIN", "SHRT_MAX"), "ushort": ("0", "USHRT_MAX")}


def vec(scalar, n):
    return scalar if n == 1 else f"{scalar}{n}"


def unsigned(scalar):
    return UINT[BITS[scalar]]


def signed(scalar):
    return SINT[BITS[scalar]]


def cast(to, expr, n):
    """@expr, an integer of @to's size (a scalar C has promoted to int
    included), as @to at width @n: a C cast on scalars, as_ on vectors."""
    return f"({to})({expr})" if n == 1 else f"as_{to}{n}({expr})"


def reinterpret(to, expr, n):
    """The bits of @expr (same size, floating or integer) as @to."""
    return f"as_{to}({expr})" if n == 1 else f"as_{to}{n}({expr})"


def split(call, name, args, n, t, result=None):
    """@call of scalar arguments @args; on vectors, the overload @name of
    their halves (n = 2, 4, 8, 16) or of a pair and a scalar (n = 3),
    joined as a vector of @result (default @t)."""
    if n == 1:
        return call(*args)
    parts = {2: ["s0", "s1"], 3: ["s01", "s2"], 4: ["lo", "hi"],
             8: ["lo", "hi"], 16: ["lo", "hi"]}[n]
    return f"({vec(result or t, n)})(" + ", ".join(
        f"{name}(" + ", ".join(f"{a}.{p}" for a in args) + ")"
        for p in parts) + ")"


def func(ret, name, params, body):
    params = ", ".join(f"{t} {p}" for t, p in params)
    return f"{ret} {OVL} {name}({params}) {{ {body} }}\n"


def ret(expr):
    return f"return {expr};"


class Out:
    def __init__(self):
        self.lines = []

    def add(self, text):
        self.lines.append(text)


# The extension without which a type's functions are not declared.
TYPE_EXTENSION = {"double": "cl_khr_fp64", "half": "cl_khr_fp16"}


def type_guard(out, t, text):
    ext = TYPE_EXTENSION.get(t)
    out.add(f"#ifdef {ext}\n" + text + "#endif\n" if ext else text)


# ---- math ---------------------------------------------------------------
# Functions of one argument that map to a scalar builtin (llvm intrinsic
# or libm, resolved from the process's libm at load: -lm).
MATH1 = {
    "sqrt": "__builtin_sqrt", "exp": "__builtin_exp",
    "exp2": "__builtin_exp2", "log": "__builtin_log",
    "log2": "__builtin_log2", "log10": "__builtin_log10",
    "sin": "__builtin_sin", "cos": "__builtin_cos", "tan": "__builtin_tan",
    "atan": "__builtin_atan", "tanh": "__builtin_tanh",
    "round": "__builtin_round",
    "acos": "__builtin_acos", "asin": "__builtin_asin",
    "acosh": "__builtin_acosh", "asinh": "__builtin_asinh",
    "atanh": "__builtin_atanh", "cosh": "__builtin_cosh",
    "sinh": "__builtin_sinh", "erf": "__builtin_erf",
    "erfc": "__builtin_erfc",
    "expm1": "__builtin_expm1", "log1p": "__builtin_log1p",
    "tgamma": "__builtin_tgamma",
}
MATH2 = {"pow": "__builtin_pow", "atan2": "__builtin_atan2",
         "copysign": "__builtin_copysign", "hypot": "__builtin_hypot",
         "fmod": "__builtin_fmod", "remainder": "__builtin_remainder",
         "fdim": "__builtin_fdim"}
# Elementwise clang builtins: vector code as written.
ELEMENTWISE1 = {"fabs": "__builtin_elementwise_abs",
                "floor": "__builtin_elementwise_floor",
                "ceil": "__builtin_elementwise_ceil",
                "trunc": "__builtin_elementwise_trunc",
                "rint": "__builtin_elementwise_roundeven"}
# native_* and half_* of float: the full-precision function meets their
# bounds (implementation-defined; 8192 ulp).
NATIVE1 = ["cos", "exp", "exp2", "exp10", "log", "log2", "log10", "sin",
           "sqrt", "tan"]
# Exact in libm (glibc): one scalar call each.
MATH1_EXACT = {"logb": "__builtin_logb"}
MATH2_EXACT = {"nextafter": "__builtin_nextafter"}
# Functions whose float form is the double one rounded once: the double
# form's few ulp are far below float's half ulp.
VIA_DOUBLE1 = ["cbrt", "sinpi", "cospi", "tanpi", "asinpi", "acospi",
               "atanpi"]
PI_INV = "0x1.45f306dc9c883p-2"  # 1/pi rounded to double


def part_widths(n):
    """How split() cuts a vector of @n: the widths of its two parts and
    their swizzles."""
    return {2: ((1, "s0"), (1, "s1")), 3: ((2, "s01"), (1, "s2")),
            4: ((2, "lo"), (2, "hi")), 8: ((4, "lo"), (4, "hi")),
            16: ((8, "lo"), (8, "hi"))}[n]


def to_type(t, expr, n):
    """@expr converted (as a value) to @t at width @n."""
    return f"({t})({expr})" if n == 1 else f"convert_{vec(t, n)}({expr})"


def private_helper(t, n, name, params, out_type, scalar_body):
    """__refcl_<name>_<T>: @name with its second result through a private
    pointer (a C name, not overloaded: mathptr.cl calls it from both of
    its compilations, whose address-space manglings differ). Vectors
    call the helpers of their two parts. A scalar without @scalar_body is
    written by hand (src/math_scalar.cl)."""
    T, O = vec(t, n), vec(out_type, n)
    args = ", ".join(f"{ty} {p}" for ty, p in params)
    head = f"{T} __refcl_{name}_{T}({args}, __private {O} *out)"
    if n == 1:
        return f"{head} {{ {scalar_body} }}\n" if scalar_body else ""
    (m0, s0), (m1, s1) = part_widths(n)
    calls = [f"__refcl_{name}_{vec(t, m)}(" + ", ".join(
        f"{p}.{s}" for _, p in params) + f", &o{k})"
        for k, (m, s) in enumerate(((m0, s0), (m1, s1)))]
    return (f"{head} {{ {vec(out_type, m0)} o0; {vec(out_type, m1)} o1; "
            f"{T} r = ({T})({calls[0]}, {calls[1]}); *out = ({O})(o0, o1); "
            "return r; }\n")


def private_helpers(t, n):
    """frexp, remquo and lgamma_r on private pointers (see
    private_helper)."""
    x1, x2 = [(vec(t, n), "x")], [(vec(t, n), "x"), (vec(t, n), "y")]
    f = "f" if t == "float" else ""
    # remquo's scalar form is source (src/math_scalar.cl).
    return (private_helper(t, n, "frexp", x1, "int",
                           f"return __builtin_frexp{f}(x, out);")
            + private_helper(t, n, "remquo", x2, "int", None)
            + private_helper(t, n, "lgamma_r", x1, "int",
                             f"return __refcl_libm_lgamma{f}_r(x, out);"))


def libm(builtin, t):
    return builtin + ("f" if t == "float" else "")


# Kernels are built with -fveclib=libmvec on x86-64 (compiler/driver.c):
# LLVM turns a vectorized loop's sin, cos, exp, log and pow calls into
# libmvec's. Its logf is off by up to 3.8 ulp and its double exp by 3.008
# (at -0x1.31000000000d0p-6; the spec allows 3 for both), so the library
# calls them under names LLVM does not know as libm functions: the same
# symbols, never vectorized.
SCALAR_ONLY = {("log", "float"): "__refcl_scalar_logf",
               ("exp", "double"): "__refcl_scalar_exp"}
SCALAR_ONLY_DECLARATIONS = "".join(
    f'{t} {alias}({t}) __asm__("{libm(name, t)}");\n'
    for (name, t), alias in SCALAR_ONLY.items())

# Functions the library computes itself (src/math_scalar.cl), in operations
# the vectorizer widens inline, where a libmvec call is slower.
OWN = {("exp", "float"): "__refcl_expf"}


def math_type(out, t, n):
    T = vec(t, n)
    x1 = [(T, "x")]
    x2 = [(T, "x"), (T, "y")]
    text = ""
    for name, b in MATH1.items():
        callee = OWN.get((name, t)) or SCALAR_ONLY.get((name, t),
                                                      libm(b, t))
        text += func(T, name, x1, ret(split(
            lambda a, c=callee: f"{c}({a})", name, ["x"], n, t)))
    for name, b in MATH2.items():
        text += func(T, name, x2, ret(split(
            lambda a, c, b=b: f"{libm(b, t)}({a}, {c})", name, ["x", "y"], n,
            t)))
    for name, b in ELEMENTWISE1.items():
        text += func(T, name, x1, ret(f"{b}(x)"))
    text += func(T, "fma", [(T, "a"), (T, "b"), (T, "c")], ret(split(
        lambda a, b, c: f"{libm('__builtin_fma', t)}({a}, {b}, {c})",
        "fma", ["a", "b", "c"], n, t)))
    text += func(T, "mad", [(T, "a"), (T, "b"), (T, "c")], ret("a * b + c"))
    text += func(T, "rsqrt", x1, ret(
        split(lambda a: f"__refcl_rsqrtf({a})", "rsqrt", ["x"], n, t)
        if t == "float" else "1 / sqrt(x)"))
    # libm's exp10 is a GNU extension clang has no builtin for; pow of an
    # exact 10 is within glibc's 1 ulp.
    text += func(T, "exp10", x1, ret(f"pow(({T})(10), x)"))
    # 1/pi rounded once to T: atan2's error plus two roundings, well
    # inside the spec's 6 ulp.
    text += func(T, "atan2pi", x2, ret(
        f"atan2(x, y) * ({T})(0.318309886183790671537767526745028724"
        f"{'f' if t == 'float' else ''})"))
    text += func(T, "ldexp", [(T, "x"), (vec("int", n), "k")], ret(split(
        lambda a, k: f"{libm('__builtin_ldexp', t)}({a}, {k})", "ldexp",
        ["x", "k"], n, t)))
    if n > 1:
        text += func(T, "ldexp", [(T, "x"), ("int", "k")],
                     ret(f"ldexp(x, ({vec('int', n)})(k))"))
    for name, b in (("fmin", "__builtin_elementwise_min"),
                    ("fmax", "__builtin_elementwise_max")):
        text += func(T, name, x2, ret(f"{b}(x, y)"))
        if n > 1:
            text += func(T, name, [(T, "x"), (t, "y")],
                         ret(f"{b}(x, ({T})(y))"))
    text += more_math(t, n)
    if t == "float":
        for prefix in ("native_", "half_"):
            for name in NATIVE1:
                text += func(T, prefix + name, x1, ret(f"{name}(x)"))
            text += func(T, prefix + "powr", x2, ret("powr(x, y)"))
            text += func(T, prefix + "divide", x2, ret("x / y"))
            text += func(T, prefix + "recip", x1, ret("1 / x"))
            text += func(T, prefix + "rsqrt", x1, ret("rsqrt(x)"))
    type_guard(out, t, text)


def more_math(t, n):
    """The math table's functions other than libm's plain ones: edge cases
    as the spec's section 7.5 lists them."""
    T, I = vec(t, n), vec("int", n)
    x1, x2 = [(T, "x")], [(T, "x"), (T, "y")]
    xk = [(T, "x"), (I, "k")]
    text = private_helpers(t, n)
    for name, b in {**MATH1_EXACT, **MATH2_EXACT}.items():
        args = ["x"] if name in MATH1_EXACT else ["x", "y"]
        text += func(T, name, x1 if len(args) == 1 else x2, ret(split(
            lambda *a, b=b: f"{libm(b, t)}({', '.join(a)})", name, args, n,
            t)))
    text += func(T, "lgamma", x1, f"{I} s; " + ret(f"__refcl_lgamma_r_{T}(x, &s)"))
    text += func(I, "ilogb", x1, ret(split(
        lambda a: f"{a} == 0 ? FP_ILOGB0 : isnan({a}) ? FP_ILOGBNAN : "
        f"isinf({a}) ? INT_MAX : {libm('__builtin_ilogb', t)}({a})",
        "ilogb", ["x"], n, t, "int")))
    u = "uint" if t == "float" else "ulong"
    payload, quiet = (("0x3fffffU", "0x7fc00000U") if t == "float" else
                      ("0xfffffffffffffUL", "0x7ff8000000000000UL"))
    text += func(T, "nan", [(vec(u, n), "c")],
                 ret(f"as_{T}((c & {payload}) | {quiet})"))
    # "Returns x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y)."
    for name, a, b in (("maxmag", ">", "fmax"), ("minmag", "<", "fmin")):
        text += func(T, name, x2, ret(
            f"fabs(x) {a} fabs(y) ? x : fabs(y) {a} fabs(x) ? y : {b}(x, y)"))
    # powr: pow's value where x >= 0 (-0 included), NaN where the spec's
    # edge cases say so.
    text += func(T, "powr", x2, ret(
        "x < 0 || isnan(x) || isnan(y) || (x == 0 && y == 0) || "
        "(isinf(x) && y == 0) || (x == 1 && isinf(y)) ? "
        f"({T})(NAN) : pow(fabs(x), y)"))
    if t == "float":
        # The double forms, rounded once (pown: an int converted to float
        # could round to the other parity).
        for name in VIA_DOUBLE1:
            text += func(T, name, x1, ret(to_type(
                "float", f"{name}({to_type('double', 'x', n)})", n)))
        for name in ("pown", "rootn"):
            text += func(T, name, xk, ret(to_type(
                "float", f"{name}({to_type('double', 'x', n)}, k)", n)))
        return text
    return text + double_math(n)


def double_math(n):
    """cbrt, the _pi functions, pown and rootn of double (float's are
    these rounded once)."""
    T, I = vec("double", n), vec("int", n)
    x1, xk = [(T, "x")], [(T, "x"), (I, "k")]
    text = func(T, "__refcl_libm_cbrt", x1, ret(split(
        lambda a: f"__builtin_cbrt({a})", "__refcl_libm_cbrt", ["x"], n,
        "double")))
    # glibc's cbrt is within 4 ulp, the spec's bound 2: one Newton step,
    # its residual r^3 - x exact to a rounding (r*r = h + l, fma), makes
    # it nearly correctly rounded. Tiny x is scaled by 2^312 so that r^3
    # is not denormal.
    text += func(T, "cbrt", x1,
                 f"{T} tiny = fabs(x) < 0x1p-900 ? ({T})(0x1p312) : ({T})(1); "
                 f"{T} y = x * tiny, r = __refcl_libm_cbrt(y), h = r * r, "
                 "l = fma(r, r, -h), e = fma(h, r, -y) + l * r; "
                 f"{T} c = (r - e / (3 * h)) * (tiny > 1 ? ({T})(0x1p-104) : ({T})(1)); "
                 + ret("x == 0 || isinf(x) || isnan(x) ? x : c"))
    # The _pi functions reduce x exactly to [-1, 1] (x - an even integer)
    # then to |a| <= 1/4 of sin or cos of pi*a, where pi*a's one rounding
    # and pi's costs an ulp or two, within the spec's 4 (tanpi 6).
    text += func(T, "sinpi", x1,
                 f"{T} r = x - 2 * rint(x * 0.5); "
                 "r = r > 0.5 ? 1 - r : r < -0.5 ? -1 - r : r; "
                 f"{T} a = fabs(r), s = copysign(a <= 0.25 ? sin(M_PI * a) "
                 ": cos(M_PI * (0.5 - a)), r); "
                 # "sinpi(+n) returns +0 ... sinpi(-n) returns -0".
                 + ret(f"s == 0 ? copysign(({T})(0), x) : s"))
    text += func(T, "cospi", x1,
                 f"{T} a = fabs(x - 2 * rint(x * 0.5)); "
                 + ret("a <= 0.25 ? cos(M_PI * a) : sin(M_PI * (0.5 - a))"))
    text += func(T, "tanpi", x1, ret("sinpi(x) / cospi(x)"))
    text += func(T, "asinpi", x1, ret(f"asin(x) * {PI_INV}"))
    text += func(T, "acospi", x1, ret(f"acos(x) * {PI_INV}"))
    text += func(T, "atanpi", x1, ret(
        f"isinf(x) ? copysign(({T})(0.5), x) : atan(x) * {PI_INV}"))
    # pown: k is exact in double, and pow(x, +-0) is 1 for any x.
    text += func(T, "pown", xk, ret(f"pow(x, {to_type('double', 'k', n)})"))
    text += func(T, "rootn", xk, ret(split(
        lambda a, k: f"__refcl_rootn({a}, {k})", "rootn", ["x", "k"], n,
        "double")))
    return text


# ---- half (cl_khr_fp16) ---------------------------------------------------
# A half is exactly a float, and the float functions are within a few float
# ulp, 2^13 times finer than half's: computed in float and rounded once to
# half, a result is within half's bounds (OpenCL 3.0 API s7.4's half table)
# and most are correctly rounded. fma is computed in double instead: float's
# a * b + c would be rounded twice (see half_fma).
HALF_VIA_FLOAT1 = list(MATH1) + VIA_DOUBLE1 + ["exp10", "logb", "rsqrt",
                                               "lgamma"]
HALF_VIA_FLOAT2 = list(MATH2) + ["atan2pi", "powr", "maxmag", "minmag"]


def via_float(t, n, call):
    """@call (a function of the float arguments' names) on the float forms
    of half arguments, the result rounded once to half."""
    return ret(to_type(t, call, n))


def halves(n, *names):
    """@names converted to float vectors of width @n (exactly)."""
    return [to_type("float", a, n) for a in names]


def half_fma(n):
    """a * b + c rounded once: the product of two halves is exact in
    double (22 bits) and so is the sum wherever it can decide a rounding (a
    c so small that double loses it is more than 2^-40 below the product,
    which is at most 2^17 for a finite result); double to half is one
    rounding (convert_half, round-to-odd through float)."""
    D = vec("double", n)
    a, b, c = (to_type("double", x, n) for x in "abc")
    # convert_half: a C cast of a double would be LLVM's fptrunc, a call
    # of libgcc's __truncdfhf2 on x86.
    return (f"{D} p = {a} * {b}; p += {c}; "
            + ret(f"convert_{vec('half', n)}(p)"))


def half_nextafter(n):
    """The next half after x toward y: one step of x's bits away from or
    toward zero; from a zero, the smallest denormal with y's sign."""
    H, S = vec("half", n), vec("short", n)
    one = f"({S})(1)"
    up = "(y > x) == (x > 0)"
    return (f"{S} b = as_{S}(x); b = {up} ? b + {one} : b - {one}; "
            f"{H} r = x == 0 ? copysign(as_{H}({one}), y) : as_{H}(b); "
            + ret("isnan(x) || isnan(y) ? x + y : x == y ? y : r"))


def half_min_max(n, names):
    """fmin, fmax, min and max of half, and their forms with a scalar y, as
    comparisons and selects: LLVM 15's x86 back end cannot select
    llvm.minnum/maxnum on vectors of half ("Cannot select: X86ISD::FMAX"),
    and InstCombine narrows a float maxnum of two halves into one. fmin
    and fmax return the other argument for a NaN ("If one argument is a
    NaN, fmax() returns the other argument")."""
    t, T = "half", vec("half", n)
    text = ""
    for name in names:
        op = "<" if name.endswith("max") else ">"
        pick = f"x {op} y ? y : x"
        body = ret(f"isnan(x) ? y : isnan(y) ? x : {pick}"
                   if name.startswith("f") else pick)
        text += func(T, name, [(T, "x"), (T, "y")], body)
        if n > 1:
            text += func(T, name, [(T, "x"), (t, "y")],
                         ret(f"{name}(x, ({T})(y))"))
    return text


def math_half(out, n):
    t, T, I = "half", vec("half", n), vec("int", n)
    x1, x2 = [(T, "x")], [(T, "x"), (T, "y")]
    (fx,), (fy,) = halves(n, "x"), halves(n, "y")
    text = ""
    for name in HALF_VIA_FLOAT1:
        text += func(T, name, x1, via_float(t, n, f"{name}({fx})"))
    for name in HALF_VIA_FLOAT2:
        text += func(T, name, x2, via_float(t, n, f"{name}({fx}, {fy})"))
    for name, b in ELEMENTWISE1.items():
        text += func(T, name, x1, ret(f"{b}(x)"))
    text += half_min_max(n, ("fmin", "fmax"))
    text += func(T, "fma", [(T, "a"), (T, "b"), (T, "c")], half_fma(n))
    # mad's accuracy is implementation-defined for half (the half table):
    # a * b + c in float, fused where the CPU has FMA, rounded to half, one
    # conversion each way where a product and a sum of halves would take
    # two (clpeak's chains of mad).
    fa, fb, fc = halves(n, "a", "b", "c")
    text += func(T, "mad", [(T, "a"), (T, "b"), (T, "c")],
                 via_float(t, n, f"{fa} * {fb} + {fc}"))
    text += func(T, "nextafter", x2, half_nextafter(n))
    text += func(I, "ilogb", x1, ret(f"ilogb({fx})"))
    text += func(T, "ldexp", [(T, "x"), (I, "k")],
                 via_float(t, n, f"ldexp({fx}, k)"))
    if n > 1:
        text += func(T, "ldexp", [(T, "x"), ("int", "k")],
                     via_float(t, n, f"ldexp({fx}, k)"))
    for name in ("pown", "rootn"):
        text += func(T, name, [(T, "x"), (I, "k")],
                     via_float(t, n, f"{name}({fx}, k)"))
    text += func(T, "nan", [(vec("ushort", n), "c")],
                 ret(f"as_{T}((ushort)((c & 0x1ff) | 0x7e00))" if n == 1 else
                     f"as_{T}((c & ({vec('ushort', n)})(0x1ff)) | "
                     f"({vec('ushort', n)})(0x7e00))"))
    type_guard(out, t, text)


def pointer_math_half(out, n):
    """sincos, modf, fract, frexp, lgamma_r and remquo of half: the float
    functions' results rounded once (frexp, modf and remquo's are exact)."""
    t, T, F, I = "half", vec("half", n), vec("float", n), vec("int", n)
    (fx,), (fy,) = halves(n, "x"), halves(n, "y")
    h = lambda e: to_type(t, e, n)  # noqa: E731
    for space in ("__global", "__local", "__private", ""):
        p = lambda ty: f"{space} {ty} *"  # noqa: E731
        text = func(T, "sincos", [(T, "x"), (p(T), "c")],
                    f"{F} fc; {F} s = sincos({fx}, &fc); *c = {h('fc')}; "
                    + ret(h("s")))
        text += func(T, "modf", [(T, "x"), (p(T), "i")],
                     f"{F} fi; {F} r = modf({fx}, &fi); *i = {h('fi')}; "
                     + ret(h("r")))
        # "fract ... returns fmin(x - floor(x), 0x1.ffcp-1h)": x - floor(x)
        # is exact in float; rounded to half it may reach 1.
        text += func(T, "fract", [(T, "x"), (p(T), "i")],
                     f"{F} fi; {F} r = fract({fx}, &fi); *i = {h('fi')}; "
                     # (r > top ? top : r keeps a NaN, as fmin would not.)
                     + f"{T} h = {h('r')}, top = ({T})(0x1.ffcp-1h); "
                     + ret("h > top ? top : h"))
        for name, params, args in (
                ("frexp", [(T, "x")], fx), ("lgamma_r", [(T, "x")], fx),
                ("remquo", [(T, "x"), (T, "y")], f"{fx}, {fy}")):
            text += func(T, name, params + [(p(I), "out")],
                         f"{I} o; {F} r = {name}({args}, &o); *out = o; "
                         + ret(h("r")))
        out.add(("#if __OPENCL_C_VERSION__ >= 200\n" if not space else
                 "#if __OPENCL_C_VERSION__ < 200\n"))
        type_guard(out, t, text)
        out.add("#endif\n")


def common_half(out, n):
    """clamp, step and sign of half as of the other types; min and max
    (half_min_max), mix, smoothstep, degrees and radians in float, rounded
    once."""
    t, T, F = "half", vec("half", n), vec("float", n)
    sub = Out()
    common_type(sub, t, n)
    text = "".join(sub.lines).replace("#ifdef cl_khr_fp16\n", "").replace(
        "#endif\n", "")
    # common_type's own mix, smoothstep, degrees and radians are replaced.
    text = "".join(line + "\n" for line in text.splitlines() if not any(
        f"{OVL} {name}(" in line for name in ("min", "max", "mix",
                                              "smoothstep", "degrees",
                                              "radians")))
    # Before clamp, which calls them.
    text = half_min_max(n, ("min", "max")) + text
    pairs = [(T, T)] + ([(T, t)] if n > 1 else [])
    for x, s in pairs:
        fs = to_type("float", "a", n)
        text += func(T, "mix", [(x, "x"), (x, "y"), (s, "a")], via_float(
            t, n, f"mix({to_type('float', 'x', n)}, {to_type('float', 'y', n)}, "
            f"({F})({fs if s == T else '(float)(a)'}))"))
        e0 = to_type("float", "e0", n) if s == T else "(float)(e0)"
        e1 = to_type("float", "e1", n) if s == T else "(float)(e1)"
        text += func(T, "smoothstep", [(s, "e0"), (s, "e1"), (x, "x")],
                     via_float(t, n, f"smoothstep(({F})({e0}), ({F})({e1}), "
                               f"{to_type('float', 'x', n)})"))
    text += func(T, "degrees", [(T, "r")],
                 via_float(t, n, f"degrees({to_type('float', 'r', n)})"))
    text += func(T, "radians", [(T, "d")],
                 via_float(t, n, f"radians({to_type('float', 'd', n)})"))
    type_guard(out, t, text)


def geometric_half(out, n):
    """dot, cross, length, distance and normalize of half: in float (no
    overflow: 4 squares of 65504 are far below FLT_MAX), rounded once."""
    t, T = "half", vec("half", n)
    fp, fq = halves(n, "p", "q")
    text = func(t, "dot", [(T, "p"), (T, "q")],
                ret(f"(half)dot({fp}, {fq})"))
    text += func(t, "length", [(T, "p")], ret(f"(half)length({fp})"))
    text += func(t, "distance", [(T, "p"), (T, "q")],
                 ret(f"(half)distance({fp}, {fq})"))
    text += func(T, "normalize", [(T, "p")],
                 via_float(t, n, f"normalize({fp})"))
    if n >= 3:
        text += func(T, "cross", [(T, "p"), (T, "q")],
                     via_float(t, n, f"cross({fp}, {fq})"))
    type_guard(out, t, text)


# Functions with a second result through a pointer: the named address
# spaces' overloads as OpenCL C 1.2, the generic one as 2.0 (compiled
# twice, like vload).
def pointer_math_type(out, t, n):
    T, I = vec(t, n), vec("int", n)
    type_guard(out, t, "".join(
        f"{T} __refcl_{name}_{T}({params}, __private {I} *);\n"
        for name, params in (("frexp", T), ("lgamma_r", T),
                             ("remquo", f"{T}, {T}"))))
    for space in ("__global", "__local", "__private", ""):
        text = func(T, "sincos", [(T, "x"), (f"{space} {T} *", "c")],
                    "*c = cos(x); return sin(x);")
        # x - trunc(x) is exact; an infinity's fraction is a signed zero.
        text += func(T, "modf", [(T, "x"), (f"{space} {T} *", "i")],
                     f"*i = trunc(x); return copysign(isinf(x) ? ({T})(0) "
                     ": x - *i, x);")
        # fract: fmin(x - floor(x), 0x1.fffffep-1f) (the largest value
        # below 1), +-0 and +-inf for +-inf, x itself for +-0 and NaN.
        below_one = "0x1.fffffep-1f" if t == "float" else "0x1.fffffffffffffp-1"
        text += func(T, "fract", [(T, "x"), (f"{space} {T} *", "i")],
                     f"*i = floor(x); return isnan(x) || x == 0 ? x : "
                     f"isinf(x) ? copysign(({T})(0), x) : "
                     f"fmin(x - *i, ({T})({below_one}));")
        for name, params in (("frexp", [(T, "x")]), ("lgamma_r", [(T, "x")]),
                             ("remquo", [(T, "x"), (T, "y")])):
            args = ", ".join(p for _, p in params)
            text += func(T, name, params + [(f"{space} {I} *", "out")],
                         f"{I} o; {T} r = __refcl_{name}_{T}({args}, &o); "
                         "*out = o; return r;")
        out.add(("#if __OPENCL_C_VERSION__ >= 200\n" if not space else
                 "#if __OPENCL_C_VERSION__ < 200\n"))
        type_guard(out, t, text)
        out.add("#endif\n")


# ---- common -------------------------------------------------------------
def common_type(out, t, n):
    T = vec(t, n)
    text = ""
    pairs = [(T, T)] + ([(T, t)] if n > 1 else [])
    for x, s in pairs:
        # "Returns y if y < x, otherwise x" (min), undefined for NaN.
        text += func(T, "min", [(x, "x"), (s, "y")],
                     ret(f"__builtin_elementwise_min(x, ({T})(y))"))
        text += func(T, "max", [(x, "x"), (s, "y")],
                     ret(f"__builtin_elementwise_max(x, ({T})(y))"))
        text += func(T, "clamp", [(x, "x"), (s, "lo"), (s, "hi")],
                     ret("min(max(x, lo), hi)"))
        text += func(T, "mix", [(x, "x"), (x, "y"), (s, "a")],
                     ret("x + (y - x) * a"))
        text += func(T, "step", [(s, "edge"), (x, "x")],
                     ret(f"x < edge ? ({T})(0) : ({T})(1)"))
        text += func(T, "smoothstep", [(s, "e0"), (s, "e1"), (x, "x")],
                     f"{T} t = clamp((x - e0) / (e1 - e0), ({t})0, ({t})1); "
                     + ret("t * t * (3 - 2 * t)"))
    text += func(T, "degrees", [(T, "r")], ret(f"r * ({t})(180 / M_PI)"))
    text += func(T, "radians", [(T, "d")], ret(f"d * ({t})(M_PI / 180)"))
    # 1, -1, x itself for +-0, and 0 for NaN.
    text += func(T, "sign", [(T, "x")], ret(
        f"x > 0 ? ({T})(1) : x < 0 ? ({T})(-1) : x == x ? x : ({T})(0)"))
    type_guard(out, t, text)


# ---- integer ------------------------------------------------------------
def integer_type(out, t, n):
    T, U = vec(t, n), vec(unsigned(t), n)
    u, bits = unsigned(t), BITS[t]
    x2 = [(T, "x"), (T, "y")]
    one = f"({T})(1)"
    text = ""
    pairs = [(T, T)] + ([(T, t)] if n > 1 else [])
    for x, s in pairs:
        text += func(T, "min", [(x, "x"), (s, "y")],
                     ret(f"__builtin_elementwise_min(x, ({T})(y))"))
        text += func(T, "max", [(x, "x"), (s, "y")],
                     ret(f"__builtin_elementwise_max(x, ({T})(y))"))
        text += func(T, "clamp", [(x, "x"), (s, "lo"), (s, "hi")],
                     ret("min(max(x, lo), hi)"))
    if t in SIGNED:
        text += func(U, "abs", [(T, "x")],
                     ret(cast(u, "__builtin_elementwise_abs(x)", n)))
    else:
        text += func(U, "abs", [(T, "x")], ret("x"))
    text += func(U, "abs_diff", x2, ret(
        f"{cast(u, 'max(x, y)', n)} - {cast(u, 'min(x, y)', n)}"))
    for name, op in (("add_sat", "+"), ("sub_sat", "-")):
        if n == 1 and bits < 32:
            # clang promotes scalar chars and shorts to int before the
            # elementwise builtin: saturate the exact int result instead.
            lo, hi = LIMITS[t]
            text += func(T, name, x2, f"int s = (int)x {op} (int)y; " + ret(
                f"({T})(s < {lo} ? {lo} : s > {hi} ? {hi} : s)"))
        else:
            text += func(T, name, x2,
                         ret(f"__builtin_elementwise_{name}(x, y)"))
    text += func(T, "hadd", x2, ret(
        f"({T})((x >> {one}) + (y >> {one}) + (x & y & {one}))"))
    text += func(T, "rhadd", x2, ret(
        f"({T})((x >> {one}) + (y >> {one}) + ((x | y) & {one}))"))
    text += func(T, "mul_hi", x2, ret(mul_hi(t, n)))
    text += func(T, "mad_hi", [(T, "a"), (T, "b"), (T, "c")],
                 ret("mul_hi(a, b) + c"))
    text += func(T, "mad_sat", [(T, "a"), (T, "b"), (T, "c")], mad_sat(t, n))
    # Shifts of unsigned values; counts taken modulo the width.
    text += func(T, "rotate", [(T, "v"), (T, "i")],
                 f"{U} m = ({U})({bits - 1}), u = {cast(u, 'v', n)}, "
                 f"s = {cast(u, 'i', n)} & m; "
                 + ret(cast(t, f"({U})(u << s) | ({U})(u >> ((({U})({bits}) - s) & m))", n)))
    for name, expr in (("clz", clz), ("ctz", ctz), ("popcount", popcount)):
        text += func(T, name, [(T, "x")], ret(split(
            lambda a, expr=expr: expr(t, a), name, ["x"], n, t)))
    if bits == 32:
        text += func(T, "mul24", x2, ret("x * y"))
        text += func(T, "mad24", [(T, "x"), (T, "y"), (T, "z")],
                     ret("x * y + z"))
    if bits < 64:
        wide = (SINT if t in SIGNED else UINT)[bits * 2]
        W = vec(wide, n)
        conv = (lambda e, w: f"({w})({e})") if n == 1 else \
            (lambda e, w: f"convert_{w}({e})")
        text += func(W, "upsample", [(T, "hi"), (U, "lo")], ret(
            f"({conv('hi', W)} << {bits}) | "
            f"{conv(conv('lo', vec(UINT[bits * 2], n)), W)}"))
    out.add(text)


def mul_hi(t, n):
    bits = BITS[t]
    if bits < 64:
        wide = (SINT if t in SIGNED else UINT)[bits * 2]
        if n == 1:
            return f"({t})(((({wide})x) * y) >> {bits})"
        W = vec(wide, n)
        return f"convert_{vec(t, n)}((convert_{W}(x) * convert_{W}(y)) >> {bits})"
    wide = "__int128" if t == "long" else "unsigned __int128"
    return split(lambda a, b: f"({t})(((({wide}){a}) * {b}) >> 64)",
                 "mul_hi", ["x", "y"], n, t)


def mad_sat(t, n):
    """a * b + c exactly, in a type twice as wide, then saturated: with
    convert_<t>_sat below 64 bits, in __int128 per element at 64."""
    bits = BITS[t]
    if bits < 64:
        W = vec((SINT if t in SIGNED else UINT)[bits * 2], n)
        return ret(f"convert_{vec(t, n)}_sat(convert_{W}(a) * convert_{W}(b) "
                   f"+ convert_{W}(c))")
    if n > 1:
        return ret(split(None, "mad_sat", ["a", "b", "c"], n, t))
    if t in SIGNED:
        return ("__int128 s = (__int128)a * b + c; "
                + ret("s > LONG_MAX ? LONG_MAX : s < LONG_MIN ? LONG_MIN : (long)s"))
    return ("unsigned __int128 s = (unsigned __int128)a * b + c; "
            + ret("s > ULONG_MAX ? ULONG_MAX : (ulong)s"))


def clz(t, a):
    bits = BITS[t]
    if bits == 64:
        return f"({t})({a} ? __builtin_clzl({a}) : 64)"
    return (f"({t})({a} ? __builtin_clz((uint)({unsigned(t)}){a}) - {32 - bits}"
            f" : {bits})")


def ctz(t, a):
    bits = BITS[t]
    if bits == 64:
        return f"({t})({a} ? __builtin_ctzl({a}) : 64)"
    return f"({t})({a} ? __builtin_ctz((uint)({unsigned(t)}){a}) : {bits})"


def popcount(t, a):
    if BITS[t] == 64:
        return f"({t})__builtin_popcountl({a})"
    return f"({t})__builtin_popcount((uint)({unsigned(t)}){a})"


# ---- relational ---------------------------------------------------------
def relational_type(out, t, n):
    T = vec(t, n)
    I = vec(signed(t), n) if n > 1 else "int"
    x2 = [(T, "x"), (T, "y")]
    big = {"half": "HALF_MAX", "float": "FLT_MAX", "double": "DBL_MAX"}[t]
    tiny = {"half": "HALF_MIN", "float": "FLT_MIN", "double": "DBL_MIN"}[t]
    text = ""
    # A comparison is 1 or 0 on scalars and -1 or 0 per component on
    # vectors, as the spec asks of these functions.
    for name, op in (("isequal", "=="), ("isnotequal", "!="),
                     ("isgreater", ">"), ("isgreaterequal", ">="),
                     ("isless", "<"), ("islessequal", "<=")):
        text += func(I, name, x2, ret(f"x {op} y"))
    text += func(I, "islessgreater", x2, ret("x < y || x > y"))
    text += func(I, "isordered", x2, ret("x == x && y == y"))
    text += func(I, "isunordered", x2, ret("x != x || y != y"))
    text += func(I, "isnan", [(T, "x")], ret("x != x"))
    text += func(I, "isinf", [(T, "x")], ret(f"fabs(x) > {big}"))
    text += func(I, "isfinite", [(T, "x")], ret(f"fabs(x) <= {big}"))
    text += func(I, "isnormal", [(T, "x")],
                 ret(f"fabs(x) >= {tiny} && fabs(x) <= {big}"))
    s = signed(t)
    text += func(I, "signbit", [(T, "x")],
                 ret(f"{cast(s, 'x', n)} < ({I})(0)" if n > 1
                     else f"({s})(as_{s}(x)) < 0"))
    type_guard(out, t, text)


def select_type(out, t, n):
    """select and bitselect of @t: the integer condition's most
    significant bit on vectors, non-zero on scalars."""
    T = vec(t, n)
    text = ""
    for c in (signed(t), unsigned(t)):
        C = vec(c, n)
        cond = "c" if n == 1 else \
            f"{cast(signed(t), 'c', n)} < ({vec(signed(t), n)})(0)"
        text += func(T, "select", [(T, "a"), (T, "b"), (C, "c")],
                     ret(f"{cond} ? b : a"))
    if t in FLOATS + HALF:
        u = unsigned(t)
        bits = {x: reinterpret(u, x, n) for x in "abc"}
        # (C promotes a scalar ushort to int: the cast takes it back.)
        text += func(T, "bitselect", [(T, "a"), (T, "b"), (T, "c")], ret(
            reinterpret(t, f"({vec(u, n)})(({bits['a']} & ~{bits['c']}) | "
                           f"({bits['b']} & {bits['c']}))", n)))
    else:
        text += func(T, "bitselect", [(T, "a"), (T, "b"), (T, "c")],
                     ret("(a & ~c) | (b & c)"))
    type_guard(out, t, text)


def any_all(out, t, n):
    T = vec(t, n)
    if n == 1:
        comps = ["x"]
    else:
        names = "0123456789abcdef"
        comps = [f"x.s{names[i]}" for i in range(n)]
    out.add(func("int", "any", [(T, "x")], ret(f"({' | '.join(comps)}) < 0")))
    out.add(func("int", "all", [(T, "x")], ret(f"({' & '.join(comps)}) < 0")))


# ---- geometric ----------------------------------------------------------
def geometric_type(out, t, n):
    T = vec(t, n)
    text = func(t, "dot", [(T, "p"), (T, "q")], ret(
        "p * q" if n == 1 else
        " + ".join(f"p.s{i} * q.s{i}" for i in range(n))))
    # The vector rescaled by a power of two (exactly) where its sum of
    # squares would overflow, or lose bits as a denormal: the result then
    # stays within the spec's bound.
    down, up, small, tiny_up, tiny_down = (
        ("0x1p-66f", "0x1p+66f", "0x1p-100f", "0x1p+86f", "0x1p-86f")
        if t == "float" else
        ("0x1p-515", "0x1p+515", "0x1p-900", "0x1p+563", "0x1p-563"))
    text += func(t, "length", [(T, "p")],
                 f"{t} s = dot(p, p); "
                 f"if (isinf(s)) {{ p *= {down}; return sqrt(dot(p, p)) * {up}; }} "
                 f"if (s < {small}) {{ p *= {tiny_up}; return sqrt(dot(p, p)) * {tiny_down}; }} "
                 + ret("sqrt(s)"))
    text += func(t, "distance", [(T, "p"), (T, "q")], ret("length(p - q)"))
    # Infinite components become +-1, the others +-0; a zero vector is
    # returned as it is.
    text += func(T, "normalize", [(T, "p")],
                 f"{t} s = dot(p, p); "
                 f"if (isinf(s)) {{ if ({'any(isinf(p))' if n > 1 else 'isinf(p)'}) p = isinf(p) ? "
                 f"copysign(({T})(1), p) : copysign(({T})(0), p); "
                 f"else p *= {down}; }} "
                 f"else if (s < {small}) {{ p *= {tiny_up}; "
                 f"if (dot(p, p) == 0) return p; }} "
                 + ret("p / sqrt(dot(p, p))"))
    text += func(t, "fast_length", [(T, "p")], ret("sqrt(dot(p, p))"))
    text += func(t, "fast_distance", [(T, "p"), (T, "q")],
                 ret("fast_length(p - q)"))
    if n >= 3:
        # The fourth component of a 4-vector's cross product is 0.
        xyz = ("(p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, "
               "p.x * q.y - p.y * q.x")
        text += func(T, "cross", [(T, "p"), (T, "q")],
                     ret(f"({T}){xyz}" + (", 0)" if n == 4 else ")")))
    if t == "float":
        text += func(T, "fast_normalize", [(T, "p")],
                     ret("p * rsqrt(dot(p, p))"))
    type_guard(out, t, text)


# ---- vload and vstore -----------------------------------------------------
def vload_type(out, t, n):
    """vloadn and vstoren of @t: through an under-aligned vector type (the
    pointer is aligned to @t only); 3 components are loaded and stored one
    by one, never a fourth."""
    T = vec(t, n)
    U = f"__refcl_{T}_unaligned"
    out.add(f"typedef {t} {U} __attribute__((ext_vector_type({n}), "
            f"aligned(sizeof({t}))));\n")
    out.add("#if __OPENCL_C_VERSION__ >= 200\n")
    vload_spaces(out, t, n, T, U, [""])
    out.add("#else\n")
    vload_spaces(out, t, n, T, U, ADDRESS_SPACES)
    out.add("#endif\n")


def vload_spaces(out, t, n, T, U, spaces):
    text = ""
    for space in spaces:
        p = f"const {space} {t} *"
        if n == 3:
            load = ret(f"({T})(p[3 * o], p[3 * o + 1], p[3 * o + 2])")
        else:
            load = ret(f"*(const {space} {U} *)(p + {n} * o)")
        text += func(T, f"vload{n}", [("size_t", "o"), (p, "p")], load)
        if space == "__constant":
            continue
        q = f"{space} {t} *"
        if n == 3:
            store = "p[3 * o] = v.s0; p[3 * o + 1] = v.s1; p[3 * o + 2] = v.s2;"
        else:
            store = f"*({space} {U} *)(p + {n} * o) = v;"
        text += func("void", f"vstore{n}", [(T, "v"), ("size_t", "o"),
                                             (q, "p")], store)
    out.add(text)


# The pointer overloads: OpenCL C 2.0's generic address space, else 1.2's
# named ones (the library is compiled once each way; see CMakeLists.txt).
ADDRESS_SPACES = ["__global", "__local", "__constant", "__private"]


def guarded(out, t, fn, *args):
    sub = Out()
    fn(sub, t, *args)
    type_guard(out, t, "".join(sub.lines))


# ---- vload_half, vstore_half ----------------------------------------------
# A half is read and written as its bits (a ushort): no cl_khr_fp16 needed,
# and every conversion is integer vector code, exact.
HALF_MODES = ["", "_rte", "_rtz", "_rtp", "_rtn"]
# Per source type: its unsigned integer of the same size, its bits'
# exponent bias minus half's, and its mantissa's width.
HALF_SOURCE = {"float": ("uint", 127 - 15, 23), "double": ("ulong", 1023 - 15, 52)}


def half_to_float(n):
    """The float of width @n whose half bits are h (a uintN): exact."""
    F, U = vec("float", n), vec("uint", n)
    # Normal: the exponent rebiased (by 112 << 23); inf and NaN keep their
    # payload; denormals are m 2^-24, exact in float.
    normal = f"as_{F}(s | (((h & 0x7fff) << 13) + 0x38000000))"
    special = f"as_{F}(s | 0x7f800000 | (m << 13))"
    tiny = to_type("float", "m", n) + " * 0x1p-24f"
    small = f"as_{F}(s | as_{U}({tiny}))"
    return (f"{U} e = h & 0x7c00, m = h & 0x3ff, s = (h & 0x8000) << 16; "
            + ret(f"e == 0 ? {small} : e == 0x7c00 ? {special} : {normal}"))


def float_to_half(t, n, mode):
    """Body giving the half bits (in @t's unsigned type, width @n) of x
    rounded in @mode (rte by default): the bits above a cut, plus one
    where the remainder below it rounds up. Normal halves cut the
    mantissa at half's 10 bits (a carry moves into the exponent, past
    65504 to infinity); smaller values are counted in units of 2^-24, the
    smallest denormal half."""
    u, bias, mant = HALF_SOURCE[t]
    bits = BITS[t]
    U = vec(u, n)

    def c(v):
        return f"({U})({v})"
    normal = c(f"{bias + 1}UL << {mant}")  # 2^-14
    overflow = c(f"{bias + 31}UL << {mant}")  # 2^16
    inf = c(f"{(1 << (bits - 1 - mant)) - 1}UL << {mant}")
    key = "" if mode == "_rte" else mode
    up = {"": "rem > mid || (rem == mid && (trunc & 1) != 0)",
          "_rtz": f"({U})(0) != 0", "_rtp": "rem != 0 && neg == 0",
          "_rtn": "rem != 0 && neg != 0"}[key]
    # Past the largest finite half: infinity where the mode rounds away
    # from zero, else 65504.
    away = {"": f"({U})(1) != 0", "_rtz": f"({U})(0) != 0",
            "_rtp": "neg == 0", "_rtn": "neg != 0"}[key]
    return (f"{U} a = as_{U}(x), neg = a >> {bits - 1}; "
            f"a &= ~({U})(neg << {bits - 1}); "
            f"{U} e = a >> {mant}, m = (a & {c(f'(1UL << {mant}) - 1')}) | "
            f"(e != 0 ? {c(f'1UL << {mant}')} : {c(0)}); "
            f"{U} shift = a >= {normal} ? {c(mant - 10)} : "
            f"min({c(bias + 15 + mant - 24)} - e, {c(bits - 1)}); "
            f"{U} trunc = a >= {normal} ? (a >> {mant - 10}) - {c(f'{bias}UL << 10')} : m >> shift; "
            f"{U} rem = (a >= {normal} ? a : m) & ((({U})(1) << shift) - 1), "
            f"mid = ({U})(1) << (shift - 1); "
            f"{U} r = trunc + ({up} ? {c(1)} : {c(0)}); "
            f"r = a >= {overflow} ? ({away} ? {c(0x7c00)} : {c(0x7bff)}) : r; "
            f"r = a > {inf} ? {c(0x7e00)} | ((a >> {mant - 10}) & {c(0x1ff)}) "
            f": a == {inf} ? {c(0x7c00)} : r; "
            + ret(to_type("ushort", "r | (neg << 15)", n)))


def half_family(out):
    """vload_half(N), vloada_halfN, vstore_half(N)(_mode), vstorea_halfN
    (_mode), on every address space (compiled twice, as vload: see
    CMakeLists.txt; the conversions are static, one copy each time)."""
    for n in WIDTHS:
        U = vec("uint", n)
        out.add("static " + func(vec("float", n), "__refcl_half_to_float",
                                 [(U, "h")], half_to_float(n)))
        for t in FLOATS:
            for mode in HALF_MODES:
                type_guard(out, t, "static " + func(
                    vec("ushort", n), f"__refcl_to_half{mode}",
                    [(vec(t, n), "x")], float_to_half(t, n, mode)))
    out.add("#if __OPENCL_C_VERSION__ >= 200\n")
    half_spaces(out, [""])
    out.add("#else\n")
    half_spaces(out, ADDRESS_SPACES)
    out.add("#endif\n")


def half_access(space, n, aligned, const):
    """The ushort pointer to half @n-vector number o of p: vloada_half3
    and vstorea_half3 step by 4 halves."""
    step = 4 if aligned and n == 3 else n
    return f"({'const ' if const else ''}{space} ushort *)p + {step} * o"


def half_spaces(out, spaces):
    for space in spaces:
        for n in WIDTHS:
            F, S = vec("float", n), "" if n == 1 else str(n)
            for aligned in ((False, True) if n > 1 else (False,)):
                a = "a" if aligned else ""
                q = half_access(space, n, aligned, True)
                bits = f"*({q})" if n == 1 else f"vload{n}(0, {q})"
                out.add(func(F, f"vload{a}_half{S}",
                             [("size_t", "o"), (f"const {space} half *", "p")],
                             ret(f"__refcl_half_to_float({to_type('uint', bits, n)})")))
                if space == "__constant":
                    continue
                q = half_access(space, n, aligned, False)
                for t in FLOATS:
                    text = ""
                    for mode in HALF_MODES:
                        bits = f"__refcl_to_half{mode}(v)"
                        text += func("void", f"vstore{a}_half{S}{mode}",
                                     [(vec(t, n), "v"), ("size_t", "o"),
                                      (f"{space} half *", "p")],
                                     f"*({q}) = {bits};" if n == 1 else
                                     f"vstore{n}({bits}, 0, {q});")
                    type_guard(out, t, text)


# ---- conversions ----------------------------------------------------------
ROUNDINGS = ["", "_rte", "_rtz", "_rtp", "_rtn"]
# A floating value rounded to an integral one, per rounding mode.
ROUND = {"_rte": "__builtin_elementwise_roundeven",
         "_rtz": "__builtin_elementwise_trunc",
         "_rtp": "__builtin_elementwise_ceil",
         "_rtn": "__builtin_elementwise_floor"}
MANTISSA = {"float": 24, "double": 53}


def int_range(t):
    bits = BITS[t]
    if t in SIGNED:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def literal(t, n, v):
    """The integer @v as @t at width @n, written without overflow."""
    text = f"{v}UL" if v >= 0 else f"(-{-v - 1}L - 1)"
    return f"({vec(t, n)})({text})"


def fliteral(t, n, v):
    """The integer @v, exactly representable in the floating type @t."""
    return f"({vec(t, n)})({float(v).hex()})"


def mask(expr, of, to, n):
    """A comparison's result on @of values made the mask of @to values
    (same count): scalars' comparisons are all int, vectors' have the
    size of their operands."""
    if n == 1 or BITS[of] == BITS[to]:
        return expr
    return f"convert_{vec(signed(to), n)}({expr})"


def convert_type(out, dst, src, n):
    """convert_<dst>n[_sat][_<mode>](<src>n): C's conversion where it is
    exact, else rounded in the named mode (default: toward zero to an
    integer, to nearest even to a floating type); _sat clamps to the
    destination's range and makes NaN 0."""
    D, S = vec(dst, n), vec(src, n)
    text = ""
    for sat in ("", "_sat") if dst in INTS else ("",):
        for mode in ROUNDINGS:
            text += func(D, f"convert_{D}{sat}{mode}", [(S, "x")],
                         convert_body(dst, src, n, sat, mode))
    for ext in sorted({TYPE_EXTENSION[x] for x in (dst, src)
                       if x in TYPE_EXTENSION}):
        text = f"#ifdef {ext}\n" + text + "#endif\n"
    out.add(text)


def plain(dst, n, x="x"):
    D = vec(dst, n)
    return f"({D})({x})" if n == 1 else f"__builtin_convertvector({x}, {D})"


def convert_body(dst, src, n, sat, mode):
    if "half" in (dst, src):
        return convert_half(dst, src, n, sat, mode)
    if dst in INTS and src in INTS:
        return ret(plain(dst, n, int_clamp(dst, src, n) if sat else "x"))
    if dst in INTS:
        return float_to_int(dst, src, n, sat, mode or "_rtz")
    exact = (src in INTS and BITS[src] < MANTISSA[dst]) or \
        (src in FLOATS and BITS[src] <= BITS[dst])
    if exact or mode in ("", "_rte"):
        return ret(plain(dst, n))
    return directed(dst, src, n, mode)


def convert_half(dst, src, n, sat, mode):
    """Conversions from and to half. A half is exactly a float: to an
    integer or a wider type, the float's conversion. To half: from float,
    fptrunc, or as directed(); from an integer or double, through float in
    the same mode, which rounds once where it matters (OpenCL C 3.0
    s6.4.3.2, "Conversions to floating-point type (except double) ... use
    round to nearest even" by default, the suffix's mode otherwise): a
    directed rounding twice in one direction is that rounding once, and to
    nearest, only an integer beyond 2^24, which overflows half either way,
    is inexact in float. A double to nearest goes through float rounded to
    odd, which leaves half's ties where they are (to_float_odd)."""
    F = vec("float", n)
    if src == "half":
        if dst in INTS:
            return ret(f"convert_{vec(dst, n)}{sat}{mode}({to_type('float', 'x', n)})")
        return ret(plain(dst, n))
    if src == "float":
        return ret(plain(dst, n)) if mode in ("", "_rte") else \
            directed(dst, src, n, mode)
    if src == "double" and mode in ("", "_rte"):
        return ret(plain(dst, n, "__refcl_to_float_odd(x)"))
    m = mode or "_rte"
    return ret(f"convert_{vec('half', n)}{m}(convert_{F}{m}(x))")


def to_float_odd(n):
    """__refcl_to_float_odd(doubleN): x rounded to float toward zero, its
    last bit set where that was inexact (round to odd). Rounded then to
    half (13 fewer bits) to nearest, it gives x rounded once: the odd bit
    stands for everything below a tie."""
    F, D, I = vec("float", n), vec("double", n), vec("int", n)
    f = plain("float", n)
    back = plain("double", n, "f")
    return ("static " + func(
        F, "__refcl_to_float_odd", [(D, "x")],
        f"{F} f = {f}; {I} b = as_{I}(f); "
        f"{I} over = {mask(f'fabs({back}) > fabs(x)', 'double', 'float', n)}, "
        f"inexact = {mask(f'{back} != x', 'double', 'float', n)}; "
        f"b = over ? b - ({I})(1) : b; b = inexact ? b | ({I})(1) : b; "
        + ret(f"as_{F}(b)")))


def int_clamp(dst, src, n):
    """@src's x clamped to what @dst holds, in @src (which holds both
    bounds of the intersection)."""
    (slo, shi), (dlo, dhi) = int_range(src), int_range(dst)
    x = "x"
    if dlo > slo:
        x = f"(x < {literal(src, n, dlo)} ? {literal(src, n, dlo)} : {x})"
    if dhi < shi:
        x = f"(x > {literal(src, n, dhi)} ? {literal(src, n, dhi)} : {x})"
    return x


def float_to_int(dst, src, n, sat, mode):
    F = vec(src, n)
    r = "x" if mode == "_rtz" else f"{ROUND[mode]}(x)"
    if not sat:
        return ret(plain(dst, n, r))
    lo, hi = int_range(dst)
    # The largest value of @src below 2^bits (2^(bits-1) if signed), the
    # bound past which every value saturates.
    top = hi if hi.bit_length() <= MANTISSA[src] else \
        (1 << hi.bit_length()) - (1 << (hi.bit_length() - MANTISSA[src]))
    clamped = (f"__builtin_elementwise_min(__builtin_elementwise_max(r, "
               f"{fliteral(src, n, lo)}), {fliteral(src, n, top)})")
    body = (f"{F} r = {r}; r = r != r ? ({F})(0) : r; "
            f"{vec(dst, n)} v = {plain(dst, n, clamped)}; ")
    if top == hi:
        return body + ret("v")
    over = mask(f"r > {fliteral(src, n, top)}", src, dst, n)
    return body + ret(f"{over} ? {literal(dst, n, hi)} : v")


def directed(dst, src, n, mode):
    """@src's x to the floating type @dst, rounded toward zero, +inf or
    -inf: rounded to nearest, then moved one ulp where that went the
    wrong way, as exact comparisons with x tell."""
    D, I = vec(dst, n), vec(signed(dst), n)
    body = f"{D} r = {plain(dst, n)}; "
    if src in FLOATS:
        w = plain(src, n, "r")
        body += (f"{I} above = {mask(f'{w} > x', src, dst, n)}, "
                 f"below = {mask(f'{w} < x', src, dst, n)}; ")
    else:
        # r as an integer, exactly: r is at most the source's bound 2^k,
        # the one value r takes above @top, where r > x.
        hi = int_range(src)[1]
        k = hi.bit_length()
        top = fliteral(dst, n, (1 << k) - (1 << (k - MANTISSA[dst])))
        back = plain(src, n, f"__builtin_elementwise_min(r, {top})")
        body += (f"{I} big = r > {top}, "
                 f"above = big | {mask(f'({back} > x)', src, dst, n)}, "
                 f"below = ~big & {mask(f'({back} < x)', src, dst, n)}; ")
        if n == 1:
            body = body.replace("~big", "!big")
    # One ulp away from zero is the next bit pattern, toward zero the
    # previous. Inexact, r has x's sign, or is a zero of x's sign where x
    # is tiny (which only rounding away from zero moves).
    bits = f"as_{I}(r)"
    one = f"({I})(1)"
    away = f"({bits} < ({I})(0) ? -{one} : {one})"
    step = {"_rtz": (f"(r > 0 ? above : r < 0 ? below : ({I})(0))",
                     f"-{one}"),
            "_rtp": ("below", away),
            "_rtn": ("above", f"-{away}")}[mode]
    return body + ret(f"as_{D}(({I})({step[0]} ? {bits} + {step[1]} : {bits}))")


# ---- shuffle ----------------------------------------------------------------
COMPONENTS = "0123456789abcdef"


def shuffle_type(out, t, m, n):
    """shuffle(<t>m, mask) and shuffle2(<t>m, <t>m, mask) to <t>n: only
    the mask's low bits that index the input count (ilogb(2m - 1) + 1 of
    them, and one more for shuffle2's second vector)."""
    T, M = vec(t, m), vec(unsigned(t), n)
    comps = [f"mask.s{COMPONENTS[i]}" for i in range(n)]
    one = ", ".join(f"x[{c} & {m - 1}]" for c in comps)
    two = ", ".join(f"({c} & {m} ? y : x)[{c} & {m - 1}]" for c in comps)
    text = func(vec(t, n), "shuffle", [(T, "x"), (M, "mask")],
                ret(f"({vec(t, n)})({one})"))
    text += func(vec(t, n), "shuffle2", [(T, "x"), (T, "y"), (M, "mask")],
                 ret(f"({vec(t, n)})({two})"))
    type_guard(out, t, text)


def main():
    family, path = sys.argv[1], sys.argv[2]
    out = Out()
    out.add("/* SPDX-License-Identifier: Apache-2.0 */\n"
            f"/* Generated by compiler/lib/generate.py {family}. */\n")
    # OpenCL C 1.2 and 2.0 declare half's functions with the extension
    # alone, but take half values only once it is enabled.
    out.add("#ifdef cl_khr_fp16\n#pragma OPENCL EXTENSION cl_khr_fp16 : "
            "enable\n#endif\n")
    if family == "math":
        # The scalar functions written by hand (-I compiler/lib/src).
        out.add(SCALAR_ONLY_DECLARATIONS + '#include "math_scalar.cl"\n')
        # Double first: some float functions call the double ones, and
        # clang finds, in a function's own body, only the overloads of its
        # name defined before it.
        for t in reversed(FLOATS):
            for n in WIDTHS:
                math_type(out, t, n)
        for n in WIDTHS:
            math_half(out, n)
    elif family == "mathptr":
        for t in FLOATS:
            for n in WIDTHS:
                pointer_math_type(out, t, n)
        for n in WIDTHS:
            pointer_math_half(out, n)
    elif family == "common":
        for t in FLOATS:
            for n in WIDTHS:
                common_type(out, t, n)
        for n in WIDTHS:
            common_half(out, n)
    elif family == "integer":
        for t in INTS:
            for n in WIDTHS:
                integer_type(out, t, n)
    elif family == "relational":
        for n in WIDTHS:
            for t in FLOATS + HALF:
                relational_type(out, t, n)
            for t in INTS + FLOATS + HALF:
                select_type(out, t, n)
            for t in SIGNED:
                any_all(out, t, n)
    elif family == "geometric":
        for t in FLOATS:
            for n in (1, 2, 3, 4):
                geometric_type(out, t, n)
        for n in (1, 2, 3, 4):
            geometric_half(out, n)
    elif family == "vload":
        for t in INTS + FLOATS + HALF:
            for n in (2, 3, 4, 8, 16):
                guarded(out, t, vload_type, n)
    elif family == "convert":
        out.add("#ifdef cl_khr_fp64\n" + "".join(
            to_float_odd(n) for n in WIDTHS) + "#endif\n")
        # Float to half first: the other conversions to half call it, and
        # clang sees only the overloads of a name defined before a call.
        pairs = [("half", "float")] + [
            (d, s) for d in INTS + FLOATS + HALF for s in INTS + FLOATS + HALF
            if (d, s) != ("half", "float")]
        for n in WIDTHS:
            for d, s in pairs:
                convert_type(out, d, s, n)
    elif family == "shuffle":
        for t in INTS + FLOATS + HALF:
            for m in (2, 4, 8, 16):
                for n in (2, 4, 8, 16):
                    shuffle_type(out, t, m, n)
    elif family == "half":
        half_family(out)
    else:
        sys.exit(f"generate.py: no family {family}")
    with open(path, "w") as f:
        f.write("".join(out.lines))


if __name__ == "__main__":
    main()
