#!/usr/bin/python3
"""gen_questions.py - the bench's table of questions (bench/questions.h), generated from
data/questions.json at build time.

    /usr/bin/python3 gen_questions.py data/questions.json OUT.c

data/questions.json holds every question the report asks, once, by name: the contention
criteria ("contend"), the sized scenarios' criteria ("sized": zero, copy), the summary's
questions and their measures ("summary"), and "bench", the ones hotline-bench decides as it
runs (--until-decided): each names what it asks ("asks": a criterion's id, or a summary
measure as "QUESTION/MEASURE") and says it in words ("text"); everything else (scenario,
subject, base, point, value, claim, threshold) is taken from the first thing it asks, with
the few fields the report does not know written beside it ("base" of a timing measure: the
report reads it from the file's baseline fact; "mode" of a criterion over several modes;
"scenario" and "unless_run" of the retry limit asked in contend when lockref-sweep does not
run).  The table's "from" strings ("CRITERIA[0]", "QUESTIONS[9].measures[0]") are the
positions of those things in the file, as the report's lists hold them: the JSON the bench
writes keeps them, and adds "asks", the names.

Why a generator and not jansson at run time: the table is fixed when the bench is built, so
the bench needs no data file at run time (an installed or copied binary runs anywhere), and
the table keeps its C type, checked by the compiler; /usr/bin/python3 is already needed to
build and test (the report, the tests), so it costs nothing new.  CMake runs this when
data/questions.json or this file changes (bench/CMakeLists.txt).

Errors (an unknown id, a duplicate id, a field it does not know) stop the build with one
line naming the entry.
"""

import json
import math
import sys

VALUE = {"ops": "BENCH_Q_OPS_RATIO", "gb": "BENCH_Q_GB_RATIO", "time": "BENCH_Q_TIME_RATIO",
         "ns": "BENCH_Q_NS_DIFF"}
OVERRIDES = ("base", "mode", "scenario", "unless_run")


class QuestionsError(Exception):
    pass


def index(doc):
    """{id: (what, reference)}: every criterion by its id and every summary measure by
    "QUESTION/MEASURE", each with the report's position of it (the "from" string)."""
    out = {}

    def add(key, what, ref):
        if key in out:
            raise QuestionsError(f"{key}: two entries have this id")
        out[key] = (what, ref)
    for i, c in enumerate(doc["contend"]):
        add(c["id"], dict(c, kind="criterion", scenario="contend"), f"CRITERIA[{i}]")
    for scenario, crits in doc["sized"].items():
        for i, c in enumerate(crits):
            add(c["id"], dict(c, kind="sized", scenario=scenario),
                f"{scenario.upper()}_CRITERIA[{i}]")
    for qi, q in enumerate(doc["summary"]):
        for mi, m in enumerate(q["measures"]):
            add(f"{q['id']}/{m['id']}", dict(m), f"QUESTIONS[{qi}].measures[{mi}]")
    return out


def _sized(c, subject=None):
    """The fields of a sized criterion C (with SUBJECT in place of its own: a figure)."""
    ns = "limit_ns" in c
    threshold = None if subject else (c["limit_ns"] if ns else c["factor"])
    bases = c.get("bases") or [c["base"]]
    sizes = c["sizes"]
    e = {"scenario": c["scenario"], "subject": subject or c["subject"], "base": bases[0],
         "base2": bases[1] if len(bases) > 1 else None, "mode": c["mode"],
         "value": "ns" if ns else "gb", "threshold": threshold,
         "higher": not ns}
    if sizes == "beyond_cache":
        e["beyond_cache"] = True
    elif "each" in sizes:
        e["size_each"] = sizes["each"]
    else:
        e["size_from"], e["size_to"] = sizes["from"] or 1, sizes["to"] or 0
    return e


def derive(what, sized):
    """The table's fields of the thing WHAT asks (a criterion or a summary measure); SIZED:
    {id: sized criterion}, for a summary measure that names one."""
    kind = what["kind"]
    if kind == "criterion":
        return {"scenario": "contend", "subject": what["subject"], "base": what["base"],
                "threads": what["threads"], "value": "ops", "threshold": what["factor"]}
    if kind == "sized":
        return _sized(what)
    if kind == "contend":
        return {"scenario": "contend", "subject": what["subject"], "base": what["base"],
                "threads": what["threads"], "value": "ops", "threshold": what["factor"]}
    if kind == "timing":
        return {"scenario": "refcount-timing", "subject": what["subject"], "value": "time",
                "threshold": what["limit"], "higher": False}
    if kind == "sweep":
        return {"scenario": "lockref-sweep", "subject": what["subject"],
                "subject_limit": what["limit"], "base": what["base"], "threads": "most",
                "value": "ops", "threshold": what["factor"]}
    if kind in ("zero", "copy"):
        c = sized[what["criterion"]]
        return _sized(c, what.get("subject") if what.get("subject") != c["subject"] else None)
    raise QuestionsError(f"a measure of kind {kind!r} this generator does not know")


def entries(doc):
    """The table's entries, in the order of doc["bench"]: dicts of the C fields."""
    idx = index(doc)
    sized = {k: w for k, (w, _) in idx.items() if w.get("kind") == "sized"}
    out = []
    for n, b in enumerate(doc["bench"]):
        unknown = set(b) - {"asks", "text"} - set(OVERRIDES)
        if unknown:
            raise QuestionsError(f"bench[{n}]: fields {sorted(unknown)} this generator does "
                                 "not know")
        missing = [a for a in b["asks"] if a not in idx]
        if missing:
            raise QuestionsError(f"bench[{n}] ({b['text']}): asks {missing}: no such id")
        e = derive(idx[b["asks"][0]][0], sized)
        e.update({k: b[k] for k in OVERRIDES if k in b})
        e["text"] = b["text"]
        e["asks"] = b["asks"]
        e["from"] = [idx[a][1] for a in b["asks"]]
        if not e.get("base"):
            raise QuestionsError(f"bench[{n}] ({b['text']}): no base")
        out.append(e)
    return out


def _str(s):
    return "NULL" if s is None else json.dumps(s, ensure_ascii=True)


def _num(x):
    if x is None:
        return "NAN"
    return repr(float(x))


def _strings(xs):
    return "{" + ", ".join(_str(x) for x in xs) + "}"


def c_entry(e):
    """One initializer of struct bench_question, designated, one field a line."""
    claim = ("BENCH_Q_FIGURE" if e["threshold"] is None
             else "BENCH_Q_AT_LEAST" if e.get("higher", True) else "BENCH_Q_AT_MOST")
    f = [f".scenario = {_str(e['scenario'])}", f".subject = {_str(e['subject'])}"]
    if e.get("subject_limit"):
        f.append(f".subject_limit = {int(e['subject_limit'])}")
    f.append(f".base = {_str(e['base'])}")
    if e.get("base2"):
        f.append(f".base2 = {_str(e['base2'])}")
    threads = e.get("threads")
    if threads == "most":
        f.append(".threads = BENCH_Q_MOST_THREADS")
    elif threads:
        f.append(f".threads = {int(threads)}")
    if e.get("mode"):
        f.append(f".mode = {_str(e['mode'])}")
    if e.get("size_from"):
        f.append(f".size_from = {int(e['size_from'])}ul")
    if e.get("size_to"):
        f.append(f".size_to = {int(e['size_to'])}ul")
    if e.get("size_each"):
        f.append(".size_each = {" + ", ".join(f"{int(s)}ul" for s in e["size_each"]) + "}")
    if e.get("beyond_cache"):
        f.append(".beyond_cache = true")
    f += [f".value = {VALUE[e['value']]}", f".claim = {claim}",
          f".threshold = {_num(e['threshold'])}"]
    if e.get("unless_run"):
        f.append(f".unless_run = {_str(e['unless_run'])}")
    f += [f".text = {_str(e['text'])}", f".from = {_strings(e['from'])}",
          f".asks = {_strings(e['asks'])}"]
    return "\t{\n" + "".join(f"\t\t{x},\n" for x in f) + "\t},\n"


def c_file(doc, source):
    out = entries(doc)
    for e in out:
        if len(e["from"]) > 3 or len(e.get("size_each") or []) > 3:
            raise QuestionsError(f"{e['text']}: more than the table has room for")
        if e["threshold"] is not None and not math.isfinite(e["threshold"]):
            raise QuestionsError(f"{e['text']}: a threshold that is not a number")
    return ("/* Generated by bench/gen_questions.py from " + source + ": do not edit. */\n"
            "/* clang-format off */\n"
            "#include <math.h>\n#include <stdbool.h>\n#include <stddef.h>\n\n"
            "#include \"questions.h\"\n\n"
            "const struct bench_question bench_questions[] = {\n"
            + "".join(c_entry(e) for e in out) + "};\n\n"
            "const size_t bench_nr_questions = sizeof(bench_questions) / "
            "sizeof(bench_questions[0]);\n")


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = json.load(f)
        text = c_file(doc, "data/questions.json")
    except (OSError, ValueError, KeyError, QuestionsError) as e:
        print(f"gen_questions.py: {argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
