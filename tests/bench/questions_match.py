#!/usr/bin/python3
"""questions_match.py - the bench's questions (generated from data/questions.json) are the
report's criteria.

    /usr/bin/python3 questions_match.py BENCH OUT.json

Runs a tiny refcount-timing with --until-decided and reads the table the bench
decides by, config.until_decided.questions, then compares it with
tools/hotline_report/criteria.py (CRITERIA, ZERO_CRITERIA, COPY_CRITERIA) and its summary's
QUESTIONS, entry by entry:

  * every paired comparison there (both figures at one point) is an entry of
    the table, named in its "from" ("CRITERIA[0]", "QUESTIONS[3].measures[0]",
    "ZERO_CRITERIA[2]"), with the same scenario, subject, base, point (threads,
    "most", retry limit, mode, sizes), value compared, claim and threshold;
  * the summary's "sweep" is asked in lockref-sweep and, unless lockref-sweep
    runs, in contend; its zero measures are the ZERO_CRITERIA they name (with
    the measure's own subject, a figure, where it names one), its copy measures
    the COPY_CRITERIA (the copy scenario's, written as zero's);
  * a zero criterion over several modes ("also_modes") is one entry per mode;
    one whose base is the larger of two ("bases": the store bandwidth limit)
    has both in its "bases" and the report's name for them as its "base";
  * what is not paired is not there: CRITERIA comparing two thread counts
    (qspinlock against its own 2-thread figure); INLINE_LOOP; an "aggregate"
    zero criterion (the geometric mean over sizes: one figure over every size,
    not a question at one point, so the bench cannot run it further);
  * every entry comes from somewhere: no question of the bench's own;
  * its "asks", data/questions.json's ids of what it asks (a criterion's id, or a summary
    measure's "QUESTION/MEASURE"), name the same things as its "from", in the same order.

The baseline of a "timing" measure is refcount-timing's: the subject's
baseline fact in the same JSON.  Exit status 0 when they match; otherwise
every difference is printed.
"""

import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
from hotline_report import criteria  # noqa: E402
from checks import check, failures, finish  # noqa: E402


def entry(scenario, subject, base, *, threads=None, limit=None, mode=None, sizes=None,
          value="ops_per_sec ratio", claim="at_least", threshold=None, unless=None,
          bases=None):
    return {"scenario": scenario, "subject": subject, "subject_retry_limit": limit,
            "base": base, "threads": threads, "mode": mode, "sizes": sizes, "value": value,
            "claim": claim if threshold is not None else "figure", "threshold": threshold,
            "unless_run": unless, "bases": list(bases or [base])}


def zero_entries(c):
    """The entries of zero (or copy) criterion C (criteria.zero_measure's): one per mode it
    counts."""
    spec = c["sizes"]
    if spec == "beyond_cache":
        sizes = "beyond_cache"
    elif isinstance(spec, list):
        sizes = {"each": list(spec)}
    else:
        # from 1 B: the range is open below (every size is at least 1 byte)
        sizes = {"from": spec[0] if spec[0] and spec[0] > 1 else None, "to": spec[1]}
    ns = "limit_ns" in c
    return [entry(c["scenario"], c["subject"], c["base"], mode=mode, sizes=sizes,
                  value="ns per call difference" if ns else "gb_per_sec ratio",
                  claim="at_most" if ns else "at_least",
                  threshold=c["limit_ns"] if ns else c["factor"],
                  bases=criteria.bases_of(c)) for mode in criteria.modes_of(c)]


def expected(baselines):
    """{reference: [the entries it must have, as the table writes them]}; and the references
    that must not be there, with why."""
    want, never = {}, {}
    for i, c in enumerate(criteria.CRITERIA):
        ref = f"CRITERIA[{i}]"
        if c["subject"] == c["base"] or c["threads"] != c["base_threads"]:
            never[ref] = "compares two thread counts: not paired"
            continue
        want[ref] = [entry(criteria.SCENARIO, c["subject"], c["base"], threads=c["threads"],
                           threshold=c["factor"])]
    for scenario, crits in criteria.SIZE_CRITERIA.items():   # zero, copy, ...
        for i, c in enumerate(crits):
            ref = f"{scenario.upper()}_CRITERIA[{i}]"
            if c.get("aggregate"):
                never[ref] = "an aggregate over sizes, not a question at one point: not run further"
                continue
            want[ref] = zero_entries(c)
    for qi, q in enumerate(criteria.QUESTIONS):
        for mi, m in enumerate(q["measures"]):
            ref = f"QUESTIONS[{qi}].measures[{mi}]"
            kind = m["kind"]
            if kind == "contend":
                want[ref] = [entry(criteria.SCENARIO, m["subject"], m["base"],
                                   threads=m["threads"], threshold=m["factor"])]
            elif kind == "timing":
                want[ref] = [entry("refcount-timing", m["subject"], baselines.get(m["subject"]),
                                   value="ns_per_op ratio", claim="at_most",
                                   threshold=m["limit"])]
            elif kind == "sweep":
                e = dict(threads="most", limit=m["limit"], threshold=m["factor"])
                want[ref] = [entry("lockref-sweep", m["subject"], m["base"], **e),
                             entry(criteria.SCENARIO, m["subject"], m["base"],
                                   unless="lockref-sweep", **e)]
            elif kind in criteria.SIZE_CRITERIA:
                c = criteria.zero_measure(m)
                if c.get("aggregate"):
                    never[ref] = ("an aggregate over sizes, not a question at one point: not "
                                  "run further")
                else:
                    want[ref] = zero_entries(c)
            else:
                failures.append(f"{ref}: a measure of kind {kind!r} this test does not know: "
                                "add it to bench/questions.c and here")
    never["INLINE_LOOP"] = "each subject against atomic, not against each other"
    return want, never


def ids():
    """{id: reference}: data/questions.json's names of what the report's lists hold."""
    out = {c["id"]: f"CRITERIA[{i}]" for i, c in enumerate(criteria.CRITERIA)}
    for scenario, crits in criteria.SIZE_CRITERIA.items():
        out.update({c["id"]: f"{scenario.upper()}_CRITERIA[{i}]" for i, c in enumerate(crits)})
    for qi, q in enumerate(criteria.QUESTIONS):
        for mi, m in enumerate(q["measures"]):
            out[f"{q['id']}/{m['id']}"] = f"QUESTIONS[{qi}].measures[{mi}]"
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    bench, out = sys.argv[1:]
    run = os.environ.get("HOTLINE_TARGET_RUN", "")  # an emulator in a cross build
    cmd = ([run] if run else []) + [bench, "refcount-timing", "--count", "1000", "--repeat", "1",
           "--subjects", "atomic,refcount,refcount_full", "--until-decided=1", "--json", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        print(f"FAIL: {' '.join(cmd)}: exit {p.returncode}: {p.stderr}")
        return 1
    with open(out) as f:
        doc = json.load(f)
    table = doc["config"]["until_decided"]["questions"]
    facts = doc["subjects"]["refcount-timing"]
    baselines = {s: f.get("baseline") for s, f in facts.items()}
    want, never = expected(baselines)
    keys = list(entry("", "", "").keys())
    names = ids()
    seen = {}
    for i, e in enumerate(table):
        got = {k: e.get(k) for k in keys}
        froms = e.get("from") or []
        check([names.get(a) for a in e.get("asks") or []] == froms,
              f"questions[{i}] ({e.get('text')}): asks {e.get('asks')} name "
              f"{[names.get(a) for a in e.get('asks') or []]}, not its from {froms}")
        check(froms, f"questions[{i}] ({e.get('text')}): expected where the report asks it "
              "(from), got none")
        for ref in froms:
            if ref in never:
                failures.append(f"questions[{i}]: {ref} must not be a question here: "
                                f"{never[ref]}")
                continue
            if not check(ref in want, f"questions[{i}]: from {ref!r}: no such paired "
                         "comparison in criteria.py"):
                continue
            check(got in want[ref], f"questions[{i}] ({e.get('text')}): expected {ref} as "
                  f"{want[ref]}, got {got}")
            seen.setdefault(ref, []).append(got)
    for ref, entries in want.items():
        for w in entries:
            check(w in seen.get(ref, []),
                  f"{ref}: expected an entry {w} in the bench's questions (bench/questions.c), "
                  f"found {seen.get(ref)}")
    return finish(f"the bench's {len(table)} questions match criteria.py and summary.py "
                  f"({len(want)} paired comparisons)")


if __name__ == "__main__":
    sys.exit(main())
