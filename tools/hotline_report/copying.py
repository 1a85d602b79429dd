"""The copy section (copying memory that may not be there): a sized scenario (sized.py).

Its page of declarations (DECL): hl_try_copy against glibc_memcpy is the headline (the
ratio report.md plots, the table at every size, copy_vs_glibc), its cost in ns per call
below 64 B the small criterion (copy_small_ns); copy_vs_glibc_cold and copy_small_ns_cold
ask the same of cold buffers, in the summary and the done criteria.  The modes hot and cold
are the size sweeps with the variants, "probe" the ways to read memory that may be unmapped
(hl_try_copy against process_vm_readv and the pipe probe, copy_vs_syscall) and "word" one
8-byte word per call (hl_try_load64 against a process_vm_readv per word, a figure).  The
appendix section is the generic parts with the probe and word parts between the headline's
and the plan's; the paragraph is the headline's sentence, then the system call's and the
word's.

A file without copy results (an older bench) has no section; the summary leaves its rows out.
"""

from . import criteria, fmt, sized, stats
from .common import names
from .fmt import DASH
from .sized import SHORT, ci as _ci, comparison as _point, plan_words  # noqa: F401

TITLE = "copying memory that may not be there"

MODE_TEXT = {
    "hot": "one source and one destination, copied again and again: in the cache as far as "
           "they fit",
    "cold": "every call copies another place of an arena several times the last-level cache "
            "(the sources in its first half, the destinations in its second), in scattered "
            "order: neither is in the cache",
    "probe": "hot buffers, 8 B to 1 MiB: hl_try_copy against the ways user space reads memory "
             "that may be unmapped, each a system call (process_vm_readv of its own pid, one "
             "call per copy; a pipe written and read back)",
    "word": "one aligned 8-byte word per call from a hot array: hl_try_load64 against one "
            "process_vm_readv per word; ns per word",
}

PROBE, WORD = "probe", "word"


def _probe(c):
    """The probe sweep: GB/s of each subject, hl_try_copy over each system call."""
    if PROBE not in c.modes:
        return []
    crit = criteria.COPY_VS_SYSCALL
    mine = crit["subject"]
    others = [s for s in c.subjects_in(PROBE) if s != mine]
    subjects = [s for s in c.subjects_in(PROBE)]
    rows = []
    for s in c.sizes[PROBE]:
        row = [fmt.size_exact(s)] + [fmt.num(c.gb(x, PROBE, s)) for x in subjects]
        for o in others:
            claim = o == crit["base"] and s in crit["sizes"]
            p = _point(c.paired(mine, o, PROBE, s), crit["factor"] if claim else None)
            row.append(_ci(p, claim) if p else DASH)
        rows.append(row)
    L = ["#### Reading memory that may be unmapped", "",
         f"What user space does without {mine}: a system call per read, in which the kernel "
         "copies (and returns EFAULT where the memory is not mapped). GB/s of each (median), "
         f"then {mine} over each, paired; the verdict where the criterion asks "
         f"({crit['factor']:g}x at {names(fmt.size_exact(x) for x in crit['sizes'])}):",
         ""]
    pipe = next((r.get("pipe_bytes") for r in c.of_mode(PROBE)
                 if isinstance(r.get("pipe_bytes"), int)), None)
    L += fmt.table(["size"] + [f"{x} GB/s" for x in subjects] + [f"{mine} / {o}" for o in others],
                   rows, "l" + "r" * (len(subjects) + len(others))) + [""]
    if pipe:
        L += [f"The pipe holds {fmt.size_exact(pipe)}: pipe_probe writes and reads back at most "
              "that much at a time.", ""]
    return L


def word_point(c):
    """(hl_try_load64's ns, process_vm_readv_word's ns, Comparison of the second over the first
    per repetition: how many times faster the load is), or None."""
    w = criteria.LOAD_WORD
    if WORD not in c.modes:
        return None
    for s in c.sizes[WORD]:
        a, b = c.get(w["subject"], WORD, s), c.get(w["base"], WORD, s)
        if a and b:
            vals = criteria.side_by_side(b, a, "ns_per_op")
            return a.get("ns_per_op"), b.get("ns_per_op"), _point(vals)
    return None


def _word(c):
    got = word_point(c)
    if got is None:
        return []
    w = criteria.LOAD_WORD
    a, b, p = got
    arr = next((r.get("array_bytes") for r in c.of_mode(WORD)
                if isinstance(r.get("array_bytes"), int)), None)
    where = f" from a hot {fmt.size_exact(arr)} array" if arr else ""
    text = (f"One word at a time{where}: {w['subject']} takes {fmt.num(a)} ns per word, "
            f"{w['base']} {fmt.num(b)} ns")
    if p:
        text += f"; the load is {_ci(p, False)} faster (paired per repetition; a figure, no bar)"
    return ["#### One word at a time", "", text + ".", ""]


def syscall_sentence(c):
    crit = criteria.COPY_VS_SYSCALL
    pts = criteria.zero_pairs(c.results, crit, c.llc)
    if not pts:
        return ""
    p = pts[0]
    comp = stats.Comparison(p.values, crit["factor"])
    return (f"At {fmt.size_exact(p.size)} {crit['subject']} copies {_ci(comp, False)} as fast "
            f"as one {crit['base']} per copy (the criterion asks {crit['factor']:g}x; "
            f"{SHORT.get(comp.verdict, 'no verdict')}).")


def word_sentence(c):
    got = word_point(c)
    if got is None or got[2] is None:
        return ""
    w = criteria.LOAD_WORD
    a, b, p = got
    return (f"{w['subject']} reads a word in {fmt.num(a)} ns, {fmt.ratio(p.median)} faster "
            f"than a process_vm_readv per word ({fmt.num(b)} ns).")


def _probe_part(ctx, doc, c):
    return _probe(c)


def _word_part(ctx, doc, c):
    return _word(c)


DECL = sized.Sized(
    criteria.COPY, TITLE, rank=50, headline="copy_vs_glibc", small="copy_small_ns",
    modes=criteria.COPY_MODES, sweeps=("hot", "cold"), own_modes=(WORD,), mode_text=MODE_TEXT,
    intro="Each subject copies one buffer of the given size per call, over and over, on one "
          "thread, nothing faulting; GB/s is 10\u2079 bytes copied per second, and every ratio "
          "is the median of the per-repetition ratios (the bench runs repetition k of every "
          "subject at a size together), with its interval (stats.py).",
    styles=("hotline: hl_try_copy", "one variant at every size",
            "glibc memcpy, the system calls", "the system calls"),
    parts=(sized.intro, sized.plots_part, sized.subjects_part, sized.headline_part,
           sized.small_part, _probe_part, _word_part, sized.fastest_part, sized.grids_part),
    sentences=lambda c: [syscall_sentence(c), word_sentence(c)],
    brief_intro=lambda c, band: (
        f"{c['subject']}'s GB/s over {c['base']}'s at each buffer size, nothing faulting, with "
        "hot buffers (cache-resident as far as they fit) and cold ones (not in the cache): "
        f"{band}. Dashed: {c['factor']:g}x, the summary's threshold (hot and cold, from "
        f"{fmt.size_exact(c['sizes'][0])}; below it the summary asks for at most "
        f"+{criteria.COPY_SMALL_NS['limit_ns']:g} ns per call, hot and cold)."))


class CopyData(sized.SizedData):
    """One file's copy results, indexed by (subject, mode, size)."""

    DECL = DECL


DECL.data = CopyData
SCENARIO = sized.scenario(DECL)
render, brief, checks = SCENARIO.render, SCENARIO.brief, SCENARIO.checks
paragraphs = SCENARIO.says[0][1]
glibc_sentence = sized.headline_sentence


def ratio_series(doc, modes=("hot", "cold")):
    """[Series]: hl_try_copy / glibc_memcpy GB/s against size (sized.ratio_series)."""
    return sized.ratio_series(DECL, doc, modes)
