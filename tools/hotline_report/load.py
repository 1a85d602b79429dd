"""Reading and checking hotline result files.

Every problem with an input file raises InputError(path, problem); the
command line prints it as one line, "hotline-report: PATH: PROBLEM", and
exits 2.  A file that passes load() is safe for the report code: the
required fields exist and have the right types, so rendering never has to
guess.

The schema (bench/README.md, "JSON"; docs/sim.md for the simulator's):

  { "tool": "hotline-bench" | "hotline-sim", "version": "...",
    "env": {...}, "config": {...},
    "subjects": { SCENARIO: { SUBJECT: { "kind", "description", "baseline", ... } } },
    "results": [ { "scenario", "subject", "threads", "headline", "runs",
                   "ops_per_sec", "ns_per_op", ... }, ... ] }

"subjects" holds what each subject is (facts.py reads it); a file without it
(an older hotline-bench or hotline-sim) is still a result: Doc.subjects is
None and the report says so.  Unknown scenarios and unknown extra fields are
accepted (a newer bench still yields a report); only what the report reads is
checked.
"""

import json
import math
import os

TOOLS = ("hotline-bench", "hotline-sim", "hotline-trace")


class InputError(Exception):
    """A bad input file: PATH and a one-line PROBLEM."""

    def __init__(self, path, problem):
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class Doc:
    """One checked input file."""

    def __init__(self, path, data):
        self.path = path
        self.data = data
        self.tool = data["tool"]
        self.version = data.get("version")
        self.env = data.get("env") or {}
        self.config = data.get("config") or {}
        self.results = data["results"]
        self.subjects = data.get("subjects")  # None: an older file, without the facts

    @property
    def simulated(self):
        return self.tool == "hotline-sim"

    @property
    def quick(self):
        return self.config.get("quick") is True

    @property
    def stem(self):
        base = os.path.basename(self.path)
        if base.lower().endswith(".json"):
            base = base[:-5]
        return base


def jtype(v):
    """The JSON name of a decoded value's type, for messages."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def is_number(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _show(v, limit=40):
    s = json.dumps(v, ensure_ascii=True) if not isinstance(v, float) or math.isfinite(v) else str(v)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def read_json(path):
    """Read PATH and decode it as JSON, or raise InputError."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory, not a JSON file") from None
    except PermissionError:
        raise InputError(path, "cannot read it (permission denied)") from None
    except OSError as e:
        raise InputError(path, f"cannot read it ({e.strerror or e})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(path, f"not valid JSON (not UTF-8 text: bad byte at offset {e.start})") from None
    if not text.strip():
        raise InputError(path, "not valid JSON (the file is empty)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise InputError(path, "not valid JSON (nested too deeply)") from None
    except ValueError as e:  # e.g. an integer too long to convert
        raise InputError(path, f"not valid JSON ({str(e).splitlines()[0]})") from None


# Per-result field checks: name -> (test, what it must be).  "required"
# fields must be present; the others are checked only when present.
def _positive_int(v):
    return is_int(v) and v >= 1


def _int_or_null(v):
    return v is None or (is_int(v) and v >= 0)


def _num_or_null(v):
    return v is None or is_number(v)


def _nonempty_str(v):
    return isinstance(v, str) and v != ""


def _number_list(v):
    return isinstance(v, list) and all(is_number(x) for x in v)


def _obj_or_null(v):
    return v is None or isinstance(v, dict)


def _list_or_null(v):
    return v is None or isinstance(v, list)


def _fraction_or_null(v):
    return v is None or (is_number(v) and 0 <= v <= 1)


def _str_or_null(v):
    return v is None or isinstance(v, str)


# Extras that are objects of figures: the keys the report reads.  Each must
# be a number or null when present; other keys are ignored (a newer bench).
FIGURE_OBJECTS = {
    "attempts_per_success": ("mean", "p50", "p99", "max"),
    "latency_ns": ("p50", "p99", "p999", "max"),
}


REQUIRED = [
    ("scenario", _nonempty_str, "a non-empty string"),
    ("subject", _nonempty_str, "a non-empty string"),
    ("threads", _positive_int, "a positive integer"),
    ("ops_per_sec", _num_or_null, "a number or null"),
    ("ns_per_op", _num_or_null, "a number or null"),
    ("headline", _nonempty_str, "the name of a figure (string)"),
    ("runs", _number_list, "a list of numbers"),
]

OPTIONAL = [
    ("size", _int_or_null, "a byte count or null"),
    ("retry_limit", _int_or_null, "an integer or null"),
    ("gb_per_sec", _num_or_null, "a number or null"),
    ("cycles_per_op", _num_or_null, "a number or null"),
    ("ratio", _num_or_null, "a number or null"),
    ("ratio_to", lambda v: v is None or isinstance(v, str), "a subject name or null"),
    ("ratio_runs", lambda v: v is None or _number_list(v), "a list of numbers or null"),
    ("spread", _obj_or_null, "an object or null"),
    ("fairness", _num_or_null, "a number or null"),
    ("fallback_rate", _fraction_or_null, "a number from 0 to 1 or null"),
    ("attempts_per_success", lambda v: v is None or is_number(v) or isinstance(v, dict),
     "an object, a number or null"),
    ("latency_ns", _obj_or_null, "an object or null"),
    ("per_thread", _list_or_null, "a list or null"),
    ("measures", _str_or_null, "a string or null"),
    ("mode", _str_or_null, "a string or null"),
    ("variant", _str_or_null, "a string or null"),
    ("plan", _str_or_null, "a string or null"),
    ("llc_bytes", _int_or_null, "a byte count or null"),
    ("total_bytes", _int_or_null, "a byte count or null"),
]


def _bool(v):
    return isinstance(v, bool)


# The facts of one subject (bench/README.md, "JSON"): each checked when present; a fact
# missing counts as not known (null / false).
SUBJECT_FACTS = [
    ("kind", _str_or_null, "a string or null"),
    ("description", _str_or_null, "a string or null"),
    ("baseline", _str_or_null, "a subject name or null"),
    ("variant_of", _str_or_null, "a subject name or null"),
    ("variant", _str_or_null, "a string or null"),
    ("loop", _bool, "true or false"),
    ("counts_attempts", _bool, "true or false"),
    ("retry_limit", lambda v: v is None or (is_int(v) and v >= 1), "an integer >= 1 or null"),
    ("fallback", _bool, "true or false"),
    ("relax", _str_or_null, "a string or null"),
    ("library", _bool, "true or false"),
]


def check_subjects(path, subjects):
    """Check the "subjects" object: {scenario: {subject: {fact: value}}}."""
    if not isinstance(subjects, dict):
        raise InputError(path, f"field \"subjects\" must be an object, got {_show(subjects)}")
    for scen, entries in subjects.items():
        if not isinstance(entries, dict):
            raise InputError(path, f"field \"subjects.{scen}\" must be an object, "
                                   f"got {_show(entries)}")
        for name, facts in entries.items():
            where = f"subjects.{scen}.{name}"
            if not isinstance(facts, dict):
                raise InputError(path, f"field \"{where}\" must be an object, got {_show(facts)}")
            for key, ok, what in SUBJECT_FACTS:
                if key in facts and not ok(facts[key]):
                    raise InputError(path, f"field \"{where}.{key}\" must be {what}, "
                                           f"got {_show(facts[key])}")


def check_result(path, i, r):
    """Check results[i]; raise InputError naming the result and field."""
    if not isinstance(r, dict):
        raise InputError(path, f"results[{i}] is a {jtype(r)}, expected an object")
    where = f"results[{i}]"
    if _nonempty_str(r.get("scenario")) and _nonempty_str(r.get("subject")):
        where += f" ({r['scenario']} {r['subject']})"
    for name, ok, what in REQUIRED:
        if name not in r:
            raise InputError(path, f"{where}: missing field \"{name}\"")
        if not ok(r[name]):
            raise InputError(path, f"{where}: field \"{name}\" must be {what}, got {_show(r[name])}")
    for name, ok, what in OPTIONAL:
        if name in r and not ok(r[name]):
            raise InputError(path, f"{where}: field \"{name}\" must be {what}, got {_show(r[name])}")
    head = r["headline"]
    if head not in r:
        raise InputError(path, f"{where}: missing field \"{head}\" (named by \"headline\")")
    if not is_number(r[head]):
        raise InputError(path, f"{where}: field \"{head}\" (the headline) must be a number, "
                               f"got {_show(r[head])}")
    for name, keys in FIGURE_OBJECTS.items():
        obj = r.get(name)
        if not isinstance(obj, dict):
            continue
        for k in keys:
            if k in obj and not _num_or_null(obj[k]):
                raise InputError(path, f"{where}: field \"{name}.{k}\" must be a number or null, "
                                       f"got {_show(obj[k])}")
    spread = r.get("spread")
    if spread:
        for k in ("min", "max", "median", "rel_spread"):
            if k in spread and not _num_or_null(spread[k]):
                raise InputError(path, f"{where}: field \"spread.{k}\" must be a number or null, "
                                       f"got {_show(spread[k])}")


def check(path, data):
    """Check a decoded file is a hotline result; return a Doc."""
    if not isinstance(data, dict):
        raise InputError(path, f"not a hotline result (the top level is a {jtype(data)}, "
                               "expected an object)")
    if "tool" not in data:
        raise InputError(path, "not a hotline result (no \"tool\" field)")
    tool = data["tool"]
    if tool not in TOOLS:
        raise InputError(path, f"not a hotline result (\"tool\" is {_show(tool)}, "
                               "expected \"hotline-bench\", \"hotline-sim\" or \"hotline-trace\")")
    if "results" not in data:
        raise InputError(path, "not a hotline result (no \"results\" list)")
    if not isinstance(data["results"], list):
        raise InputError(path, f"not a hotline result (\"results\" is a {jtype(data['results'])}, "
                               "expected a list)")
    for key in ("env", "config"):
        if key in data and not _obj_or_null(data[key]):
            raise InputError(path, f"field \"{key}\" must be an object, got {_show(data[key])}")
    if "version" in data and not (data["version"] is None or isinstance(data["version"], (str, int, float))):
        raise InputError(path, f"field \"version\" must be a string, got {_show(data['version'])}")
    for i, r in enumerate(data["results"]):
        check_result(path, i, r)
    if "subjects" in data:
        check_subjects(path, data["subjects"])
    return Doc(path, data)


def load(path):
    """Read, decode and check one input file."""
    return check(path, read_json(path))
