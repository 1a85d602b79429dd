"""data/questions.json loaded: the questions the report asks, once, by name.

The file holds the contention criteria ("contend"), the sized scenarios' criteria
("sized": {scenario: [criterion]}), the summary's questions with their measures
("summary"), the other comparisons between named subjects ("comparisons") and "bench", the
ones hotline-bench decides as it runs (bench/gen_questions.py turns that list into its C
table).  Every criterion has an "id", every question and measure too; a summary measure of
a sized scenario names its criterion by id ("criterion": "zero_vs_glibc").

This module gives them in the shapes criteria.py works with: a sized criterion's sizes as
(lo, hi) (None: open), [size, ...] or "beyond_cache"; its "bases" and "also_modes" as
tuples; its "scenario" set; a measure's "criterion" as the index into its scenario's list
(with the id kept as "criterion_id").  A file that cannot be read stops the report with
one line (RuntimeError), as kernel.py's published figures do.
"""

import json
import os

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "data", "questions.json")


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"cannot read the questions {path} ({e})") from None


def _sizes(spec):
    if spec == "beyond_cache":
        return spec
    if "each" in spec:
        return list(spec["each"])
    return (spec.get("from"), spec.get("to"))


def _sized(scenario, c):
    out = dict(c, scenario=scenario, sizes=_sizes(c["sizes"]))
    for k in ("bases", "also_modes"):
        if k in out:
            out[k] = tuple(out[k])
    return out


def _measure(m, positions):
    out = dict(m)
    if "criterion" in out:
        out["criterion_id"] = out["criterion"]
        out["criterion"] = positions[out["criterion"]]
    return out


def load(path=PATH):
    """(contend, sized, summary, comparisons, bench) of the file at PATH, in the shapes above."""
    doc = _read(path)
    sized = {s: [_sized(s, c) for c in cs] for s, cs in doc["sized"].items()}
    positions = {c["id"]: i for cs in sized.values() for i, c in enumerate(cs)}
    summary = [dict(q, measures=[_measure(m, positions) for m in q["measures"]])
               for q in doc["summary"]]
    return ([dict(c) for c in doc["contend"]], sized, summary, dict(doc["comparisons"]),
            list(doc["bench"]))


CONTEND, SIZED, SUMMARY, COMPARISONS, BENCH = load()


def by_id(ident):
    """The criterion (contention or sized) whose id is IDENT."""
    for c in CONTEND + [c for cs in SIZED.values() for c in cs]:
        if c["id"] == ident:
            return c
    raise KeyError(f"data/questions.json has no criterion {ident!r}")
