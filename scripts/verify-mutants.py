#!/usr/bin/python3
"""verify-mutants.py - does every ordering of the primitives earn its place?

Weakens, one at a time, each ordering stronger than relaxed in the
primitives' sources (an acquire, release, acq_rel or seq_cst argument
becomes relaxed; an hl_acquire_after_rmw() fence is removed), and reruns
the GenMC clients (tests/verify/) on the mutant under IMM until one fails:
that client kills the mutant. Prints the table docs/verification.md
carries: ordering, file:line, the killing client (or "survives").

    scripts/verify-mutants.py [--models imm] [--markdown] [FILE ...]

FILE: the sources to mutate, relative to the top of the tree (default: the
primitives' headers and sources below). Needs GenMC as scripts/verify.sh
finds it (GENMC, GENMC_SRC or the cache). Each mutant is a copy of
include/, src/, tests/verify/ and scripts/verify.sh in a temporary
directory, so the tree itself is never touched.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FILES = [
    "include/hotline/compiler.h",
    "include/hotline/qspinlock.h",
    "include/hotline/refcount.h",
    "include/hotline/rcuref.h",
    "include/hotline/lockref.h",
    "src/qspinlock.c",
    "src/qspinlock_os.h",
    "src/refcount.c",
    "src/rcuref.c",
    "src/lockref.c",
]

# An ordering argument: C11's names, the builtins', and the headers' short
# words as hl__atomic_*() takes them (on a line that calls one).
C11 = re.compile(r"\bmemory_order_(acquire|release|acq_rel|seq_cst)\b")
BUILTIN = re.compile(r"\b__ATOMIC_(ACQUIRE|RELEASE|ACQ_REL|SEQ_CST)\b")
SHORT = re.compile(r"\b(acquire|release)\b")
FENCE_USE = re.compile(r"\bhl_acquire_after_rmw\(([^()]*(?:\([^()]*\))?[^()]*)\)")


def sites(path):
    """(line number, column, old text, new text, what) for every site."""
    out = []
    with open(os.path.join(TOP, path)) as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        code = line.split("//")[0]
        if code.lstrip().startswith(("*", "/*")):
            continue
        for m in C11.finditer(code):
            out.append((n, m.start(), m.group(0), "memory_order_relaxed", m.group(1)))
        for m in BUILTIN.finditer(code):
            if "#define" in code:
                continue
            out.append((n, m.start(), m.group(0), "__ATOMIC_RELAXED", m.group(1).lower()))
        if "hl__atomic_" in code and "#define HL__MO" not in code:
            for m in SHORT.finditer(code):
                if "#define" in code and "hl_acquire_after_rmw" not in code:
                    continue
                out.append((n, m.start(), m.group(0), "relaxed", m.group(1)))
        if "#define" not in code:
            for m in FENCE_USE.finditer(code):
                out.append((n, m.start(), m.group(0), "((void)0)", "acquire fence"))
    return out


def mutate(tree, path, n, col, old, new):
    p = os.path.join(tree, path)
    with open(p) as f:
        lines = f.read().split("\n")
    line = lines[n - 1]
    assert line[col:col + len(old)] == old
    lines[n - 1] = line[:col] + new + line[col + len(old):]
    with open(p, "w") as f:
        f.write("\n".join(lines))


def copy_tree(dst):
    for d in ("include", "src", "tests/verify"):
        shutil.copytree(os.path.join(TOP, d), os.path.join(dst, d))
    os.makedirs(os.path.join(dst, "scripts"))
    for s in ("verify.sh", "deps.sh"):
        shutil.copy2(os.path.join(TOP, "scripts", s), os.path.join(dst, "scripts", s))


def clients(tree):
    d = os.path.join(tree, "tests/verify")
    return sorted(os.path.join(d, c) for c in os.listdir(d) if c.endswith(".c"))


def relevant(client, path):
    """Clients that include the mutated source (or all, for a header) first."""
    with open(client) as f:
        text = f.read()
    base = os.path.basename(path)
    stem = base.split(".")[0].split("_")[0]
    if path.startswith("include/"):
        return stem in text or base == "compiler.h"
    return base in text or stem in text


def baseline(models):
    """Seconds each client takes on the tree as it is; exits if one fails."""
    env = dict(os.environ, VERIFY_MODELS=models)
    r = subprocess.run([os.path.join(TOP, "scripts/verify.sh")], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("verify-mutants: the tree itself does not verify:\n" + r.stdout)
    secs = {}
    for line in r.stdout.splitlines()[1:]:
        f = line.split()
        if len(f) == 6 and f[5] == "ok":
            secs[f[0]] = secs.get(f[0], 0.0) + float(f[4])
    return secs


def preprocessed(tree):
    """Every client as the compiler sees it with HL_VERIFY: a mutant that
    leaves this unchanged is in code the verification build does not
    compile (the Linux glue, an asm or ThreadSanitizer variant)."""
    out = []
    for c in clients(tree):
        r = subprocess.run(["clang", "-E", "-P", "-DHL_VERIFY", "-I" + tree + "/tests/verify",
                            "-I" + tree + "/include", "-I" + tree + "/src", c],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out.append(r.stdout.replace(tree, ""))
    return "".join(out)


def killer(tree, path, models, secs):
    """The first client that fails on the mutant: those that include the
    mutated file first, the quickest first among them."""
    env = dict(os.environ, VERIFY_MODELS=models)
    ordered = sorted(clients(tree), key=lambda c: (not relevant(c, path),
                                                   secs.get(os.path.basename(c)[:-2], 0.0)))
    for c in ordered:
        r = subprocess.run([os.path.join(tree, "scripts/verify.sh"), c], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode == 2:
            sys.exit(r.stdout.strip())
        if r.returncode != 0:
            return os.path.basename(c)[:-2]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="imm")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("files", nargs="*", default=FILES)
    args = ap.parse_args()
    survivors = 0
    secs = baseline(args.models)
    with tempfile.TemporaryDirectory(prefix="hl-mutant-") as tree:
        copy_tree(tree)
        plain = preprocessed(tree)
    if args.markdown:
        print("| ordering | file:line | killed by |")
        print("|---|---|---|")
    for path in args.files:
        for n, col, old, new, what in sites(path):
            with tempfile.TemporaryDirectory(prefix="hl-mutant-") as tree:
                copy_tree(tree)
                mutate(tree, path, n, col, old, new)
                if preprocessed(tree) == plain:
                    k = "not compiled under HL_VERIFY"
                else:
                    k = killer(tree, path, args.models, secs)
                    survivors += k is None
            if args.markdown:
                print(f"| {what} | {path}:{n} | {k or 'survives'} |", flush=True)
            else:
                print(f"{what:14} {path + ':' + str(n):36} {k or 'SURVIVES'}", flush=True)
    print(f"{survivors} mutant(s) survived", file=sys.stderr)
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
