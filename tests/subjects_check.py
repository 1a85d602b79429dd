"""subjects_check.py - the checks of the JSON's "subjects" object that tests/bench and
tests/sim share: every field of every entry, the facts consistent with each other, and
the results agreeing with the facts (bench/README.md, "The subjects object").

    import subjects_check
    facts = subjects_check.check(doc, check)   # check(cond, what) records a failure

A scenario may declare a kind of its own in its file (subject_facts.own_kind): its test
passes it, check(doc, check, own_kinds=("fill",)); the others accept only KINDS.

Nothing here knows a subject by its name: what a subject is comes from its entry.
Standard library only.
"""

import math

# Every field of an entry, in the order the tools write them.
FIELDS = ("kind", "description", "baseline", "variant_of", "variant", "loop",
          "counts_attempts", "retry_limit", "fallback", "relax", "library")
KINDS = ("atomic", "cas_loop", "lockref", "lock", "zero", "copy", "syscall", "dd")
LOOP_KINDS = ("cas_loop", "lockref")
VARIANTS = (None, "llsc", "lse", "isb", "none")
RELAX = ("never", "every", "every_other")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _name_or_null(v):
    return v is None or (isinstance(v, str) and v != "")


# field -> (test, what it must be)
TYPES = {
    "kind": (lambda v: v in KINDS, f"one of {list(KINDS)}"),
    "description": (lambda v: isinstance(v, str) and v != "", "a non-empty string"),
    "baseline": (_name_or_null, "null or a subject name"),
    "variant_of": (_name_or_null, "null or a subject name"),
    "variant": (lambda v: v in VARIANTS, f"one of {list(VARIANTS)}"),
    "loop": (lambda v: isinstance(v, bool), "a boolean"),
    "counts_attempts": (lambda v: isinstance(v, bool), "a boolean"),
    "retry_limit": (lambda v: v is None or (_is_int(v) and v >= 1), "null or an integer >= 1"),
    "fallback": (lambda v: isinstance(v, bool), "a boolean"),
    "relax": (lambda v: v is None or v in RELAX, f"null or one of {list(RELAX)}"),
    "library": (lambda v: isinstance(v, bool), "a boolean"),
}


def _check_entry(f, w, check, own_kinds=()):
    """One entry: exactly the schema's fields, typed, and consistent with each other; its kind
    one of KINDS or OWN_KINDS."""
    if not check(isinstance(f, dict), f"{w}: expected an object, got {f!r}"):
        return False
    check(tuple(f) == FIELDS, f"{w}: expected the fields {list(FIELDS)}, got {list(f)}")
    ok = True
    types = dict(TYPES)
    if own_kinds:
        kinds = KINDS + tuple(own_kinds)
        types["kind"] = (lambda v: v in kinds, f"one of {list(kinds)}")
    for key, (test, what) in types.items():
        ok &= check(key in f and test(f[key]), f"{w}.{key}: expected {what}, got {f.get(key)!r}")
    if not ok:
        return False
    loop = f["kind"] in LOOP_KINDS
    check(f["loop"] == loop,
          f"{w}.loop: expected {loop} (a compare-and-swap loop is kind cas_loop or lockref), "
          f"got {f['loop']!r}")
    check((f["relax"] is None) == (not f["loop"]),
          f"{w}.relax: expected a policy exactly for a loop, got {f['relax']!r}")
    check(not f["counts_attempts"] or f["loop"],
          f"{w}: counts_attempts without a loop ({f['kind']})")
    check(not f["fallback"] or f["kind"] == "lockref",
          f"{w}: fallback, but kind {f['kind']!r}: only a lockref has a lock to fall back on")
    check(f["retry_limit"] is None or f["fallback"],
          f"{w}: retry_limit {f['retry_limit']} but no fallback after it")
    check(f["variant"] is None or f["variant_of"] is not None,
          f"{w}: variant {f['variant']!r} of nothing (variant_of null)")
    return True


def _check_results(doc, facts, check):
    """Every result's subject has an entry, and its figures agree with the facts."""
    for i, r in enumerate(doc.get("results") or []):
        if not isinstance(r, dict):
            continue
        sc, subj = r.get("scenario"), r.get("subject")
        w = f"results[{i}] ({sc} {subj}, {r.get('threads')} threads)"
        f = facts.get(sc, {}).get(subj)
        if not check(isinstance(f, dict), f"{w}: expected an entry subjects.{sc}.{subj}"):
            continue
        if "attempts_per_success" in r:
            att = r["attempts_per_success"]
            if not f["counts_attempts"]:
                check(att is None, f"{w}: attempts_per_success {att!r}, but the subject does "
                      "not count its attempts (counts_attempts false)")
            else:
                check(isinstance(att, dict) or r.get("fallback_rate") == 1,
                      f"{w}: counts_attempts, but attempts_per_success is {att!r} (null only "
                      "when every operation fell back)")
        if "fallback_rate" in r:
            rate = r["fallback_rate"]
            # The counted lockref counts its fallbacks too (also where it finds the lock
            # taken: lockref_unbounded's rate is 0, not null).
            counted = f["kind"] == "lockref" and f["counts_attempts"]
            check(_is_num(rate) and 0 <= rate <= 1 if counted else rate is None,
                  f"{w}: fallback_rate {rate!r}: expected " +
                  ("a fraction (a lockref counting its attempts)" if counted else
                   "null (nothing counts its fallbacks)"))
            if counted and not f["fallback"]:
                check(rate == 0, f"{w}: fallback_rate {rate!r} from a lockref that never "
                      "falls back (fallback false): expected 0")
        if "retry_limit" in r:
            lim = r["retry_limit"]
            if f["retry_limit"] is not None:
                check(lim == f["retry_limit"],
                      f"{w}: retry_limit {lim!r}, but the subject runs with {f['retry_limit']}")
            elif not f["fallback"]:
                check(lim is None, f"{w}: retry_limit {lim!r} for a subject without one")
            else:
                check(_is_int(lim) and lim >= 1,
                      f"{w}: retry_limit {lim!r}: expected the limit this result ran at")
        if "ratio_to" in r:
            want = f["baseline"] or subj
            check(r["ratio_to"] == want,
                  f"{w}: ratio_to {r['ratio_to']!r}, expected its baseline {want!r}")


def check(doc, check, own_kinds=()):
    """Check doc's "subjects" against the schema and its results (OWN_KINDS: the kinds its
    scenarios declare of their own, beside KINDS); return {scenario: {subject: facts}} (what
    could be read of it)."""
    subjects = doc.get("subjects")
    if not check(isinstance(subjects, dict), f"subjects: expected an object, got {subjects!r}"):
        return {}
    results = [r for r in doc.get("results") or [] if isinstance(r, dict)]
    facts = {}
    for sc, entries in subjects.items():
        w = f"subjects.{sc}"
        if not check(isinstance(entries, dict), f"{w}: expected an object, got {entries!r}"):
            continue
        # One entry per subject measured, in table order: the order the results first name them.
        seen = []
        for r in results:
            if r.get("scenario") == sc and r.get("subject") not in seen:
                seen.append(r.get("subject"))
        check(list(entries) == seen,
              f"{w}: expected an entry for each subject measured, in order, {seen}; "
              f"got {list(entries)}")
        facts[sc] = {s: f for s, f in entries.items() if _check_entry(f, f"{w}.{s}", check, own_kinds)}
        for s, f in facts[sc].items():
            check(f["baseline"] != s and f["variant_of"] != s,
                  f"{w}.{s}: its own baseline or variant")
            base = facts[sc].get(f["variant_of"])
            if base is not None:
                skip = ("description", "variant_of", "variant")
                diff = [k for k in FIELDS if k not in skip and f[k] != base[k]]
                check(not diff, f"{w}.{s}: a variant of {f['variant_of']} with other facts "
                      f"than it: {diff}")
    for sc in {r.get("scenario") for r in results}:
        check(sc in subjects, f"subjects: expected an object for scenario {sc!r}")
    _check_results(doc, facts, check)
    return facts
