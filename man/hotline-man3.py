#!/usr/bin/python3
"""hotline-man3: write a section 3 man page for each public header from its own comments.

    hotline-man3.py --version VERSION -o OUTDIR HEADER.h [HEADER.h ...]

One page per header, OUTDIR/hotline_<name>.3 (hotline/refcount.h gives
hotline_refcount(3)), and one small page per function and function-like
macro, OUTDIR/<function>.3, holding only ".so man3/hotline_<name>.3", so
that "man hl_refcount_inc" finds the header's page.

The page is made of what the header says and nothing else, so it cannot
drift from it:

  NAME         the header's first comment line ("hotline/x.h - its job")
  SYNOPSIS     the #include, every public function's prototype, the link line
  DESCRIPTION  the rest of the header's top comment
  TYPES        each public struct, typedef and enum, as written
  FUNCTIONS    each public function (declared, or defined static inline) and
               each function-like macro: its prototype and the comment
               directly above it (a comment above a run of declarations,
               one line after another, documents each of them)
  MACROS       each documented object-like macro and its comment

Public means not starting with "hl__" / "HL__" (hotline's internal names)
and not the include guard. Comment layout understood: paragraphs split by a
blank line, "- " list items, and lines indented by two or more spaces
(kept as written). Runs with Debian's /usr/bin/python3, standard library only.
"""

import argparse
import os
import re
import sys


def roff_text(s):
    """Escape a line of text for roff: backslashes, and a leading . or '."""
    s = s.replace("\\", "\\e")
    if s.startswith((".", "'")):
        s = "\\&" + s
    return s


def comment_lines(text):
    """The lines of a /* ... */ comment, without the delimiters and the ' * ' prefix."""
    body = text[2:-2]
    out = []
    for line in body.split("\n"):
        line = line.rstrip()
        m = re.match(r"^\s*\*( ?)(.*)$", line)
        if m:
            line = m.group(2)
        else:
            line = line.strip()
        out.append(line)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def render_prose(lines):
    """Comment lines -> roff: paragraphs, '- ' items, indented blocks kept as written."""
    out = []
    i = 0
    para = []

    def flush():
        if para:
            out.append(".PP")
            out.extend(roff_text(p) for p in para)
            para.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush()
            i += 1
            continue
        if line.startswith("  ") and not line.lstrip().startswith("- "):
            flush()
            block = []
            while i < len(lines) and (lines[i].startswith("  ") or not lines[i].strip()):
                if not lines[i].strip() and (i + 1 >= len(lines) or not lines[i + 1].startswith("  ")):
                    break
                block.append(lines[i])
                i += 1
            out += [".PP", ".RS 2", ".nf"] + [roff_text(b) for b in block] + [".fi", ".RE"]
            continue
        m = re.match(r"^(\s*)- (.*)$", line)
        if m:
            flush()
            indent = len(m.group(1))
            item = [m.group(2)]
            i += 1
            while i < len(lines) and lines[i].strip() and \
                    not re.match(r"^\s*- ", lines[i]) and lines[i].startswith(" " * (indent + 1)):
                item.append(lines[i].strip())
                i += 1
            out.append(".IP \\(bu 2")
            out.extend(roff_text(t) for t in item)
            continue
        para.append(line.strip())
        i += 1
    flush()
    return out


def parse(path):
    """Read a header: (top comment lines, functions, types, macros).

    functions: (name, prototype, comment lines, kind); types: (code, comment
    lines); macros: (name, definition, comment lines).
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    guard = None
    m = re.search(r"#ifndef\s+(\w+)\s*\n\s*#define\s+\1\b", text)
    if m:
        guard = m.group(1)

    return sort_items(tokenise(text), guard)


def pp_line_end(text, pos):
    """Where the preprocessor line starting at pos ends: its last newline
    (or the text's end), backslash continuations included."""
    end = pos
    while True:
        nl = text.find("\n", end)
        if nl < 0:
            return len(text)
        if not text[end:nl].rstrip().endswith("\\"):
            return nl
        end = nl + 1


def tokenise(text):
    """A header's text as (kind, text, first line, last line) items, in
    order: "comment", "pp" (a preprocessor line, continuations joined) and
    "code" (a declaration up to its ';', or a definition up to its closing
    brace), at the top level only (inside extern "C" too)."""
    items = []  # (kind, text, line_no_start, line_no_end)
    pos = 0
    line = 1
    n = len(text)
    code_start = None
    code = []
    depth = 0
    while pos < n:
        if text.startswith("/*", pos):
            end = text.index("*/", pos) + 2
            chunk = text[pos:end]
            if depth == 0:
                items.append(("comment", chunk, line, line + chunk.count("\n")))
            else:
                code.append(" ")
            line += chunk.count("\n")
            pos = end
            continue
        if text.startswith("//", pos):
            end = text.find("\n", pos)
            end = n if end < 0 else end
            pos = end
            continue
        at_line_start = pos == 0 or text[pos - 1] == "\n" or text[:pos].rsplit("\n", 1)[-1].strip() == ""
        if text[pos] == "#" and at_line_start:
            nl = pp_line_end(text, pos)
            chunk = text[pos:nl]
            if depth == 0:
                items.append(("pp", chunk, line, line + chunk.count("\n")))
            line += chunk.count("\n")
            pos = nl
            continue
        c = text[pos]
        if c == "\n":
            line += 1
            if code and depth == 0 and not "".join(code).strip():
                code = []
            if code:
                code.append("\n")
            pos += 1
            continue
        if not code or not "".join(code).strip():
            code_start = line
        code.append(c)
        pos += 1
        joined = "".join(code)
        if c == "{":
            if depth == 0:
                head = joined[:-1].strip()
                if re.fullmatch(r'extern\s+"C"', head):
                    code = []
                    continue
            depth += 1
        elif c == "}":
            if depth == 0:  # the close of extern "C"
                code = []
                continue
            depth -= 1
            if depth == 0 and re.search(r"\)\s*\{", joined) and not joined.lstrip().startswith(
                    ("typedef", "struct", "enum", "union")):
                items.append(("code", joined.strip(), code_start, line))
                code = []
        elif c == ";" and depth == 0:
            items.append(("code", joined.strip(), code_start, line))
            code = []

    return items


def sort_items(items, guard):
    """tokenise's items as parse's (top comment lines, functions, types,
    macros): each declaration with the comment directly above it."""
    top = []
    functions, types, macros = [], [], []
    prev = None  # the comment just before, if it ends on the line above
    group = None  # a documented declaration's comment, while the next one follows it directly
    seen = set()
    for kind, chunk, start, end in items:
        if kind == "comment":
            if "SPDX-License-Identifier" in chunk:
                continue
            if "clang-format" in chunk:  # between a comment and its macro
                if prev and prev[1] == start - 1:
                    prev = (prev[0], end)
                continue
            lines = comment_lines(chunk)
            if not top and re.match(r"^hotline/\S+\.h - ", lines[0] if lines else ""):
                top = lines
                prev = None
                continue
            prev = (lines, end)
            continue
        doc = prev[0] if prev and prev[1] in (start - 1, start) else []
        prev = None
        if not doc and group and group[1] == start - 1:
            doc = group[0]  # one comment above a run of declarations documents each
        group = (doc, end) if doc and kind == "code" else None
        if kind == "pp":
            m = re.match(r"#\s*define\s+(\w+)(\()?(.*)$", chunk, re.S)
            if not m:
                continue
            name, is_fn = m.group(1), m.group(2)
            if name == guard or name.startswith(("hl__", "HL__")) or name in seen:
                continue  # (a macro defined in several #if branches: the first)
            seen.add(name)
            if is_fn:
                params = m.group(3).split(")", 1)[0]
                functions.append((name, f"#define {name}({params})", doc, "macro"))
            elif doc:
                macros.append((name, " ".join(chunk.replace("\\\n", " ").split()), doc))
            continue
        # code
        decl = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", chunk, flags=re.S)
        if decl.startswith(("typedef", "struct", "enum", "union")):
            types.append((chunk, doc))
            continue
        head = decl.split("{", 1)[0] if decl.endswith("}") else decl.rstrip(";")
        m = re.search(r"(\w+)\s*\(", head)
        if not m:
            continue
        name = m.group(1)
        if name.startswith(("hl__", "HL__")):
            continue
        proto = " ".join(head.split())
        proto = re.sub(r"\b(HL_API|HL_COLD)\s+", "", proto)
        static = proto.startswith("static inline ")
        proto = re.sub(r"^static inline\s+", "", proto) + ";"
        functions.append((name, proto, doc, "inline" if static else "extern"))
    return top, functions, types, macros


def page(path, version):
    top, functions, types, macros = parse(path)
    if not top:
        raise SystemExit(f"hotline-man3: {path}: no top comment 'hotline/NAME.h - its job'")
    include = re.match(r"^(hotline/\S+\.h) - ", top[0]).group(1)
    base = os.path.splitext(os.path.basename(path))[0]
    title = f"hotline_{base}"
    summary_lines = []
    rest = list(top)
    while rest and rest[0].strip():
        summary_lines.append(rest.pop(0).strip())
    summary = " ".join(summary_lines)[len(include) + 3:].rstrip(".")
    names = [title] + [f[0] for f in functions]
    out = [f'.\\" {title}(3): generated by man/hotline-man3.py from include/{include}; do not edit.',
           f'.TH {title.upper()} 3 "" "hotline {version}" "hotline manual"',
           ".nh", ".ad l",  # identifiers are not to be hyphenated
           ".SH NAME",
           roff_text(", ".join(names)) + " \\- " + roff_text(summary),
           ".SH SYNOPSIS", ".nf", f".B #include <{include}>"]
    for _name, proto, _doc, _kind in functions:
        out.append(".B " + roff_text(proto))
    out += [".fi", ".PP", "Link with \\fB\\-lhotline\\fR "
            "(\\fBpkg\\-config \\-\\-cflags \\-\\-libs hotline\\fR)."]
    out += [".SH DESCRIPTION"] + render_prose(rest)
    if types:
        out.append(".SH TYPES")
        for code, doc in types:
            out += render_prose(doc)
            out += [".PP", ".RS 2", ".nf"] + [roff_text(l) for l in code.split("\n")] + [".fi", ".RE"]
    if functions:
        out.append(".SH FUNCTIONS")
        for name, proto, doc, kind in functions:
            out += [f".SS {name}", ".nf", ".B " + roff_text(proto), ".fi"]
            out += render_prose(doc) if doc else [".PP", "No comment in the header."]
            if kind == "inline":
                out += [".PP", "Defined in the header (static inline)."]
    if macros:
        out.append(".SH MACROS")
        for name, definition, doc in macros:
            out += [f".SS {name}", ".nf", ".B " + roff_text(definition), ".fi"]
            out += render_prose(doc)
    others = sorted(f"hotline_{os.path.splitext(h)[0]}" for h in os.listdir(os.path.dirname(os.path.abspath(path)))
                    if h.endswith(".h") and os.path.splitext(h)[0] != base)
    out += [".SH SEE ALSO", ",\n".join(f".BR {o} (3)" for o in others)
            + ("," if others else ""), ".BR hotline\\-bench (1)"]
    return title, [f[0] for f in functions], "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(prog="hotline-man3.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--version", required=True, help="hotline's version, for the page footer")
    ap.add_argument("-o", "--output", required=True, help="directory for the pages")
    ap.add_argument("headers", nargs="+", metavar="HEADER.h")
    args = ap.parse_args()
    os.makedirs(args.output, exist_ok=True)
    for h in args.headers:
        title, names, text = page(h, args.version)
        with open(os.path.join(args.output, title + ".3"), "w", encoding="utf-8") as f:
            f.write(text)
        for name in names:
            with open(os.path.join(args.output, name + ".3"), "w", encoding="utf-8") as f:
                f.write(f".so man3/{title}.3\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
