"""The context every section renders with: the documents, where files go, plot naming, facts.

A section is a function render(ctx, doc, results) -> Markdown lines (report.py
holds the registry); everything it needs besides its results comes from the
Context:

  ctx.docs               the loaded input files (load.Doc), in command-line order
  ctx.outdir, workdir    where the files will be, and the staging directory they
                         are written into first (report.write renames them)
  ctx.stem(doc)          a file's name for its plots, unique among the inputs
  ctx.png(*parts)        a new plot's file name, unique in the report
  ctx.plot(fn, name, ...)  draw with a plots.py helper into the staging directory;
                         the Markdown image lines, or [] when there was nothing to draw
  ctx.pngs               the plots written so far
  ctx.facts(doc, scen)   what each subject of a scenario is (facts.Facts), shared
"""

import os
import re

from .facts import Facts


class WriteError(Exception):
    """An output could not be written: one line naming PATH (where the user will look for
    the file) and why, exit 1."""

    def __init__(self, path, why, what="cannot write"):
        super().__init__(f"{what} {path} ({why})")
        self.path = path


def why(e):
    """The reason an OSError gives, for a WriteError."""
    return e.strerror or str(e) or type(e).__name__


def sanitize(name):
    """NAME made safe as part of a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "x"


class Context:
    def __init__(self, docs, outdir, workdir=None):
        """OUTDIR: where the files will be; WORKDIR (default OUTDIR): where they are written."""
        self.docs = docs
        self.outdir = outdir
        self.workdir = workdir or outdir
        self.pngs = []
        self._png_names = set()
        self._stems = {}
        self._facts = {}

    def facts(self, doc, scenario):
        key = (id(doc), scenario)
        if key not in self._facts:
            self._facts[key] = Facts(doc, scenario)
        return self._facts[key]

    def stem(self, doc):
        if id(doc) not in self._stems:
            base = sanitize(doc.stem)
            stem, n = base, 2
            while stem in self._stems.values():
                stem = f"{base}-{n}"
                n += 1
            self._stems[id(doc)] = stem
        return self._stems[id(doc)]

    def png(self, *parts):
        base = "-".join(sanitize(p) for p in parts if p)
        name, n = base + ".png", 2
        while name in self._png_names:
            name = f"{base}-{n}.png"
            n += 1
        self._png_names.add(name)
        return name

    def plot(self, fn, name, *args, title, **kw):
        """Run plot helper FN into WORKDIR/NAME; return Markdown image lines."""
        try:
            drawn = fn(os.path.join(self.workdir, name), *args, title=title, **kw)
        except OSError as e:
            raise WriteError(os.path.join(self.outdir, name), why(e)) from None
        if drawn is None:
            return []
        self.pngs.append(name)
        alt = title.replace("[", "(").replace("]", ")")
        return [f"![{alt}]({name})", ""]
