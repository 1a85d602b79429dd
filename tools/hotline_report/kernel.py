"""Published figures the report compares against, read from data/published.json.

The numbers live once, in data/published.json (each with the section of
docs/sources.md that states it in words); tests/sim/check.py reads the same
file.  This module turns them into what the sections quote: texts as
published ("1.004x", "about 25"), values for arithmetic, and the subject each
figure is set beside.

Refcount timing (docs/sources.md, refcount) first, then contention: the
figures measured on the machine docs/sources.md calls "this project's machine
kind" (one x86-64 VM; the report names it as the machine they were published
on, never as the machine it runs on), the lockref threads' attempts and retry
limit, ticket locks; then clearing memory (clear_user and that machine's
clearing figures); then what hotline-sim's presets are held to; last, the
summary table's published column (summary_published).
"""

import json
import os

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "data", "published.json")


def _load(path=PATH):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"cannot read the published figures {path} ({e})") from None


PUBLISHED = _load()


def _g(v):
    """A published number as written: 23.9, 2, 1,427,170 is done by the caller."""
    return f"{v:g}"


# -- refcount timing (LKDTM REFCOUNT_TIMING vs ATOMIC_TIMING) ------------------------------------

_RT = PUBLISHED["refcount_timing"]

# The subjects the published ratios are set beside, each with its column and words:
# [{"subject", "column", "kernel", "name"}], in the published table's order.
REFCOUNT_COMPARED = _RT["compared"]


def _refcount_row(row):
    """A published row as the report uses it: source, short, machine, and per compared subject
    (text, value); a ratio not published is computed from the times and marked \u2020."""
    out = {"source": row["who"], "short": row["short"], "machine": row["machine"],
           "reference_for": row.get("reference_for"), "computed": []}
    times = row["times"]
    for c in REFCOUNT_COMPARED:
        s = c["subject"]
        text = row["ratios"].get(s)
        if text is not None:
            out[s] = (text, float(text.rstrip("x")))
        else:
            v = times[s] / times[_RT["base"]]
            out[s] = (f"{v:.2f}x\u2020", v)
            out["computed"].append((c, times[s], times[_RT["base"]], row["unit"]))
    return out


REFCOUNT_RATIOS = [_refcount_row(r) for r in _RT["rows"]]

FOOTNOTE = "; ".join(
    f"\u2020 computed here from the published times ({c['name']} {_g(a)} {unit} / "
    f"{_RT['base']} {_g(b)} {unit})"
    for row in REFCOUNT_RATIOS for c, a, b, unit in row["computed"]) + \
    "; the other ratios are as published."

ARM_ARCHES = ("aarch64", "arm64", "armv8", "arm")


def is_arm(arch):
    a = str(arch or "").lower()
    return any(a.startswith(x) for x in ARM_ARCHES)


def reference_for(arch):
    """The published row the summary compares against for ARCH (an arm64 row for arm)."""
    want = "arm64" if is_arm(arch) else "x86"
    return next(r for r in REFCOUNT_RATIOS if r["reference_for"] == want)


# -- contention: docs/sources.md, "This project's machine kind" and "lockref" --------------------

# One contended cache line, 2 threads, on the machine docs/sources.md describes ("what"): not
# necessarily the machine the report is about.  Figures are
# per atomic read-modify-write; hotline-bench's contend op is a get AND a put (rmw_per_op, the
# bench's definition, not a published figure), so its ops/s are about half these.
_MK = PUBLISHED["machine_kind"]
MACHINE_KIND = {
    "what": _MK["what"], "source": _MK["source"],
    "threads": _MK["threads"],
    "xadd_mops": _MK["xadd"]["mops"], "xadd_ns": _MK["xadd"]["ns"],
    "cas_mops": _MK["cas"]["mops"], "cas_ns": _MK["cas"]["ns"],
    "cas_attempts": _MK["cas"]["attempts"],
    "xadd_ns_1t": _MK["xadd"]["ns_1t"], "cas_ns_1t": _MK["cas"]["ns_1t"],
    "xadd_subject": _MK["xadd"]["subject"], "cas_subject": _MK["cas"]["subject"],
    "rmw_per_op": 2,
}

# cmpxchg attempts per successful lockref update, from the kernel threads.
LOCKREF_ATTEMPTS = list(PUBLISHED["lockref_attempts"].values())

# The 2019 retry limit: tested limits and what the thread concluded.
_RL = PUBLISHED["retry_limit"]
RETRY_LIMIT = {
    "default": _RL["default"],
    "tested": _RL["tested"],
    "verdict": _RL["verdict"],
    "gain": f"{_RL['gain']['text']} on {_RL['gain']['test']}",
    "machine": _RL["machine"],
}

_TG = PUBLISHED["ticket_graviton2"]
TICKET_GRAVITON2 = {
    "machine": _TG["machine"], "threads": _TG["threads"], "ns": _TG["ns"],
    "subject": _TG["subject"],
    "text": f"{'/'.join(str(n) for n in _TG['ns'])} ns per acquisition at "
            f"{'/'.join(str(t) for t in _TG['threads'])} threads (about {_TG['per_waiter_ns']} ns "
            f"per extra waiter)",
}
OPEN3_CPU_RELAX = PUBLISHED["open3_cpu_relax"]


# -- clearing memory: docs/sources.md, "clear_user" and "This project's machine kind" ------------

# The kernel's 2022 clear_user work, measured on its author's machine; "subject" is the dd
# experiment of the bench that reads the same thing, "reads" what it reads.
_DD = PUBLISHED["clear_user_dd"]
CLEAR_USER_DD = dict(_DD, text=f"{_g(_DD['before'])} GB/s with the old clear_user, "
                               f"{_g(_DD['after'])} GB/s with rep stosb")
_ST = PUBLISHED["sparse_tmpfs"]
SPARSE_TMPFS = dict(_ST, text=f"{_ST['clear_user_s']} s clearing with the old clear_user versus "
                              f"{_ST['zero_page_s']} s copying the zero page")

# The dd experiments the published figures name: {subject: what it reads}.
DD_READS = {d["subject"]: d["reads"] for d in (CLEAR_USER_DD, SPARSE_TMPFS)}

# Clearing on the machine docs/sources.md calls this project's machine kind ("what"; indicative,
# not necessarily the machine the report is about): see data/published.json.
ZERO_MACHINE_KIND = PUBLISHED["zero_machine_kind"]


# -- hotline-sim's presets: what was published for the machine each one models -------------------
# (docs/sources.md, "lockref" and "Other machines"), for the anchor table of the report's
# "Many-core machines (simulated)" section.

_GF, _GC = PUBLISHED["graviton2_faa"], PUBLISHED["graviton2_cas"]
GRAVITON2_FAA = dict(_GF, text=f"{_g(_GF['ns'][0])} \u2192 {_g(_GF['ns'][1])} ns, flat from "
                               f"{_GF['threads'][0]} to {_GF['threads'][1]} threads")
GRAVITON2_CAS = dict(_GC, text=f"{_g(_GC['ns'][0])} \u2192 {_g(_GC['ns'][1])} ns from "
                               f"{_GC['threads'][0]} to {_GC['threads'][1]} threads")
_QU, _SO = PUBLISHED["queued_vs_unbounded"], PUBLISHED["spinlock_only"]

# The anchor table's rows: what each compares (subjects of the sim's contend scenario).
ANCHORS = {
    "attempts": {"subject": LOCKREF_ATTEMPTS[0]["subject"],
                 "threads": LOCKREF_ATTEMPTS[0]["threads"]},
    "limit": {"subject": _RL["subject"], "against": _RL["against"]},
    "spinlock": {"subject": _QU["subject"], "against": _QU["against"]},
    "small": {"threads": _TG["threads"],
              "subjects": [GRAVITON2_FAA["subject"], GRAVITON2_CAS["subject"], _TG["subject"]]},
}


def _attempts_text(e):
    """A lockref_attempts figure as the anchor table quotes it: an average with its detail,
    else the figure with the load it was seen under."""
    if "detail" in e:
        return f"{e['text']} on average ({e['detail']})"
    return f"{e['text']} ({e['load']})"


def _anchor_texts():
    """{preset id: {anchor: published text}}: each figure goes to the preset its sim_check
    names, and a preset has an entry when data/published.json's "sim_presets" names it."""
    gain = _RL["gain"]
    lo, hi = gain["value"]
    texts = {("attempts", e["sim_check"]["preset"]): _attempts_text(e) for e in LOCKREF_ATTEMPTS}
    texts.update({
        ("limit", _RL["sim_check"]["preset"]):
            f"{RETRY_LIMIT['gain']} ({1 + lo:.1f}\u2013{1 + hi:.1f}x; thread count not published)",
        ("spinlock", _QU["sim_check"]["preset"]):
            f"{_QU['text']} at {_QU['cpus']} CPUs ({_QU['topology']}: the queued spinlock path); "
            f"{_SO['text']} with lockref disabled",
        (_GF["subject"], _GF["sim_check"]["preset"]): GRAVITON2_FAA["text"],
        (_GC["subject"], _GC["sim_check"]["preset"]): GRAVITON2_CAS["text"],
        (_TG["subject"], _TG["sim_check"]["preset"]):
            f"{'/'.join(str(n) for n in _TG['ns'])} ns at "
            f"{'/'.join(str(t) for t in _TG['threads'])} threads",
    })
    out = {}
    for name, p in PUBLISHED["sim_presets"].items():
        if isinstance(p, dict):
            out[name] = dict({"machine": p["machine"]},
                             **{a: t for (a, pr), t in texts.items() if pr == name})
    return out


# Preset id (hotline-sim's env.preset) -> {"machine", anchor: published text}, as
# data/published.json's "sim_presets" and each figure's sim_check.preset key them: a preset
# has figures only under its own id.  Anchors: "attempts" (cmpxchg attempts per success at 28
# threads), "limit" (lockref with the retry limit over the unbounded loop), "spinlock" (the
# lock alone over the unbounded loop), and per subject of ANCHORS["small"] (ns at 2/4/8/16).
SIM_PUBLISHED = _anchor_texts()


def sim_published(preset):
    """The published figures for the hotline-sim preset whose id is PRESET ({} when none:
    a calibrated run, or a preset no published figure is for)."""
    return SIM_PUBLISHED.get(str(preset or ""), {})


# -- the summary table's published column --------------------------------------------------------

def summary_published(key, subject, arch):
    """(figure as published, the machine it came from, its source) for the summary's row of
    SUBJECT from data/published.json's entry KEY; None when there is none for that subject."""
    if key == "refcount_timing":
        row = reference_for(arch)
        if subject not in row:
            return None
        return row[subject][0], f"{row['machine']} ({row['short']})", _RT["source"]
    e = PUBLISHED.get(key)
    if not isinstance(e, dict):
        return None
    if key == "retry_limit":
        text = f"{RETRY_LIMIT['gain']} with the limit"
    elif key == "sparse_tmpfs":
        text = (f"{SPARSE_TMPFS['text']} ({e['clear_user_s'] / e['zero_page_s']:.2f}x the time: "
                f"copying was faster)")
    else:
        text = e.get("text")
    if text is None:
        return None
    return text, e.get("machine", "machine not named"), e["source"]
