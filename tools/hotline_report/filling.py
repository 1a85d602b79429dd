"""The fill section (setting memory to a non-zero byte): a sized scenario (sized.py).

hotline-bench's fill sets each buffer to 0xa5 with glibc's memset, the baseline, and measures
beside it the same memset clearing and hl_zero (the library has no fill function): whether
clearing is any cheaper than filling on this machine, which is what a zero-only API gives a
caller who needs another byte.  The report asks no question of it (no criterion in
data/questions.json): its page declares no headline, and the sized engine draws its GB/s
against size, each subject over its baseline at every size (the file's facts name the
baseline, never this module) and every figure, says the range of those ratios, and plots
them against size in report.md's short section.

A file without fill results has no section.
"""

from . import sized

TITLE = "setting memory to a non-zero byte"

MODE_TEXT = {
    "hot": "one buffer, set again and again: in the cache as far as it fits",
    "cold": "every call sets another place of an arena several times the last-level cache, in "
            "scattered order: not in the cache",
}

DECL = sized.Sized(
    "fill", TITLE, rank=70, headline=None, mode_text=MODE_TEXT,
    intro="Each subject sets one buffer of the given size per call, over and over, on one "
          "thread: the baseline to a non-zero byte, the others to zero (the subjects' table "
          "says which); GB/s is 10\u2079 bytes set per second, and every ratio is the median "
          "of the per-repetition ratios (the bench runs repetition k of every subject at a "
          "size together).",
    styles=("hotline's code", "one variant at every size", "glibc", "glibc"),
    parts=(sized.intro, sized.plots_part, sized.subjects_part, sized.baselines_part,
           sized.grids_part))

SCENARIO = sized.scenario(DECL)
