#!/usr/bin/python3
"""until_decided.py - hotline-bench --until-decided: its decisions, budget, cap and pairing.

    /usr/bin/python3 until_decided.py BENCH OUTDIR

Runs short scenarios with --until-decided=SECONDS (contend, refcount-timing,
zero hot, lockref-sweep, a few subjects of all; contend with one repetition
and a budget too small for more than one round; and zero hot at twice the
last-level cache, where hl_zero's question has two bases: the larger of
nontemporal and rep_stosb in each repetition) and checks in each JSON:

  * config.until_decided: budget_s as given, planned = --repeat, cap =
    4 x planned (at least 10), spent_s within the budget plus one round,
    shared among the scenarios (all): the shares add up, each within its
    allowance plus a round;
  * a decision for every question of the table the run can answer, and no
    other; each with planned <= repetitions <= cap;
  * the subject's and the base's runs pair up: both have the decision's
    repetitions (and a figure's subject that shares the base, as many);
  * the verdict, its why, the interval and its level are what the report's
    stats.py makes of the runs in the JSON (criteria.py's pairing);
  * a decision still "cannot tell" stopped at the cap (its repetitions are
    the cap) or on the budget (spent_s reached budget_s, or its scenario's
    share), and says which;
  * the progress (stderr, not a terminal) names every question that got
    more repetitions, with its interval, and its outcome;
  * in a sweep of several sizes (zero), the extra repetitions go round
    the sizes still deciding, one round each in turn, as the planned ones
    do.

Exit status 0 when all of it holds; otherwise every failed check is printed.
"""

import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
from hotline_report import criteria, stats  # noqa: E402
from checks import check, finish, target_cmd  # noqa: E402

CONTEND_SUBJECTS = ("atomic_faa,refcount,refcount_full,cas_loop,lockref,lockref_unbounded,"
                    "qspinlock,pthread_mutex")
# (name, arguments, budget, repeat, the decisions expected: (subject, base, threads, size))
RUNS = [
    ("contend", ["contend", "--threads", "2", "--duration", "0.02", "--subjects",
                 CONTEND_SUBJECTS], 3, 3,
     {("refcount", "atomic_faa", 2, None), ("lockref", "cas_loop", 2, None),
      ("qspinlock", "pthread_mutex", 2, None), ("lockref", "lockref_unbounded", 2, None)}),
    ("contend_budget", ["contend", "--threads", "1,2", "--duration", "0.02", "--subjects",
                        "atomic_faa,refcount,refcount_full"], 0.01, 1,
     {("refcount", "atomic_faa", 2, None)}),
    ("refcount", ["refcount-timing", "--count", "200000"], 2, 2,
     {("refcount", "atomic", 1, None)}),
    ("zero", ["zero", "--quick", "--sizes", "17,300,4K", "--mode", "hot", "--subjects",
              "hl_zero,hl_try_zero,glibc_memset,memcpy_zero_page"], 2, 2,
     {("hl_try_zero", "hl_zero", None, 17), ("hl_zero", "glibc_memset", None, 17),
      ("hl_zero", "glibc_memset", None, 300),
      ("hl_try_zero", "hl_zero", None, 300), ("hl_zero", "glibc_memset", None, 4096),
      ("hl_zero", "memcpy_zero_page", None, 4096), ("hl_try_zero", "hl_zero", None, 4096)}),
    ("copy", ["copy", "--quick", "--sizes", "17,300,4K", "--mode", "hot", "--subjects",
              "hl_try_copy,glibc_memcpy"], 2, 2,
     {("hl_try_copy", "glibc_memcpy", None, 17), ("hl_try_copy", "glibc_memcpy", None, 300),
      ("hl_try_copy", "glibc_memcpy", None, 4096)}),
    ("sweep", ["lockref-sweep", "--threads", "3,2", "--duration", "0.02", "--subjects",
               "lockref,lockref_unbounded"], 2, 2,
     {("lockref", "lockref_unbounded", 3, None)}),
    # Several scenarios: the budget shared among those with questions.
    ("all", ["all", "--quick", "--subjects", "refcount,atomic,atomic_faa,hl_zero,glibc_memset",
             "--count", "100000", "--duration", "0.02", "--threads", "2", "--sizes", "300,4K",
             "--mode", "hot"], 2, 2,
     {("refcount", "atomic", 1, None), ("refcount", "atomic_faa", 2, None),
      ("hl_zero", "glibc_memset", None, 300), ("hl_zero", "glibc_memset", None, 4096)}),
]


def at_point(results, d, subject, limit=False):
    """The result of SUBJECT at decision D's point (at retry limit LIMIT unless False)."""
    for r in results:
        if (r.get("scenario") == d["scenario"] and r.get("subject") == subject and
                r.get("size") == d["size"] and r.get("mode") == d["mode"] and
                (d["threads"] is None or r.get("threads") == d["threads"]) and
                (limit is False or r.get("retry_limit") == limit)):
            return r
    return None


def values(q, a, b, bases=()):
    """The per-repetition values the report judges for question Q (the table's entry); BASES:
    the results of every base when Q has two (the larger in each repetition is the base)."""
    if len(bases) > 1:
        return criteria.side_by_side_max(a, bases)
    if q["value"] == "ops_per_sec ratio":
        return criteria.side_by_side(a, b)
    if q["value"] == "gb_per_sec ratio":
        return criteria.side_by_side(a, b, "gb_per_sec")
    if q["value"] == "ns_per_op ratio":     # summary.py's "timing": ratio_runs
        return a.get("ratio_runs") if a.get("ratio_to") == b.get("subject") else None
    pairs = criteria._paired_runs(a, b, criteria.ns_runs)
    return [x - y for x, y in pairs] if pairs else None


def close(x, y):
    return abs(x - y) <= 1e-8 * max(1.0, abs(x), abs(y))


class Run:
    """What the checks of one run share: W, its name in messages; its progress (STDERR);
    --repeat, the cap and the budget; the JSON's results and table of questions; what it
    spent and the budget's shares (check_budget)."""

    def __init__(self, w, stderr, repeat, cap, budget, results, questions):
        self.w, self.stderr, self.repeat, self.cap, self.budget = w, stderr, repeat, cap, budget
        self.results, self.questions = results, questions
        self.spent, self.shares = None, {}


def run_bench(name, args, budget, repeat, bench, outdir):
    """Run the bench with ARGS, --repeat and --until-decided into NAME.json: its process, its
    name in messages, its JSON and config.until_decided; None when there are none."""
    out = os.path.join(outdir, f"{name}.json")
    cmd = [*target_cmd(bench), *args, "--repeat", str(repeat), f"--until-decided={budget:g}", "--json", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    w = f"{name} ({' '.join(cmd[len(target_cmd(bench)):])})"
    if not check(p.returncode == 0, f"{w}: expected exit status 0, got {p.returncode}: "
                 f"{p.stderr}"):
        return None
    with open(out) as f:
        doc = json.load(f)
    ud = doc.get("config", {}).get("until_decided")
    if not check(isinstance(ud, dict), f"{w}: expected config.until_decided, got {ud!r}"):
        return None
    return p, w, doc, ud


def check_budget(u, ud, args, decisions):
    """spent_s within the budget plus one round, and the budget's shares: one per scenario
    run, in order, that add up to what was spent, none overrun by more than a round, none
    given more than was left. Sets U's spent and shares."""
    w, budget = u.w, u.budget
    # One round: the time of one repetition of every subject that got more, at the worst point.
    rounds = [0.0]
    for d in decisions:
        extra = [r for r in u.results if r.get("scenario") == d["scenario"] and
                 r.get("size") == d["size"] and r.get("threads") in (d["threads"], 1) and
                 len(r.get("runs") or []) > u.repeat]
        rounds.append(sum(r["machine_state"]["wall_s"] / len(r["runs"]) for r in extra))
    slack = max(rounds) + 0.5
    spent = u.spent = ud.get("spent_s")
    check(isinstance(spent, float) and 0 <= spent <= budget + slack,
          f"{w}: spent_s: expected at most the budget {budget} + one round {slack:.2f}, "
          f"got {spent!r}")
    shares = u.shares = {x.get("scenario"): x for x in ud.get("shares") or []}
    scen = [a for a in args[:1] if a != "all"] or \
        ["refcount-timing", "contend", "lockref-sweep", "zero", "copy", "openclose"]
    check(list(shares) == scen, f"{w}: expected a share per scenario {scen}, got "
          f"{ud.get('shares')!r}")
    check(isinstance(spent, float) and
          abs(sum(x.get("spent_s", 0) for x in shares.values()) - spent) < 1e-6,
          f"{w}: expected the shares' spent_s to add up to {spent}, got {ud.get('shares')!r}")
    check(all(x.get("spent_s", 0) <= x.get("allowed_s", 0) + slack and
              x.get("allowed_s", 0) <= budget + 1e-9 for x in shares.values()),
          f"{w}: expected each share within the budget and its allowance (+ a round), got "
          f"{ud.get('shares')!r}")


def paired_values(u, dw, d, q, n):
    """The values decision D (of question Q, N repetitions) judges: the subject's and its
    bases' runs, paired; None (and a failed check) when they are missing or unpaired."""
    a = at_point(u.results, d, d["subject"], d.get("retry_limit"))
    names = q.get("bases") or [d["base"]]
    check(d.get("bases", names) == names,
          f"{dw}: expected the question's bases {names}, got {d.get('bases')!r}")
    bs = [at_point(u.results, d, x) for x in names]
    if not check(a is not None and all(x is not None for x in bs),
                 f"{dw}: expected results of the subject and of {names}"):
        return None
    b = bs[0]
    check(len(a["runs"]) == n and all(len(x["runs"]) == n for x in bs),
          f"{dw}: expected {n} runs of each (paired), got {len(a['runs'])} and "
          f"{[len(x['runs']) for x in bs]}")
    vals = values(q, a, b, bs)
    if not check(vals is not None and len(vals) == n,
                 f"{dw}: expected {n} paired values from the JSON, got {vals!r}"):
        return None
    return vals


def check_verdict(u, dw, d, c, vals, n):
    """Decision D's verdict, why, interval and level are stats.py's (C) on VALS; a decision
    that cannot tell stopped at the cap or on the budget, and says which."""
    check(d.get("verdict") == c.verdict and d.get("why") == c.why,
          f"{dw}: expected stats.py's verdict {c.verdict!r} ({c.why!r}) on the JSON's runs, "
          f"got {d.get('verdict')!r} ({d.get('why')!r}); values {vals}")
    iv = d.get("interval")
    check(close(d.get("confidence"), c.level) and close(d.get("median"), c.median) and
          (c.lo is None and iv is None or
           iv is not None and close(iv[0], c.lo) and close(iv[1], c.hi)),
          f"{dw}: expected median {c.median}, interval [{c.lo}, {c.hi}] at {c.level}, got "
          f"{d.get('median')}, {iv} at {d.get('confidence')}")
    stopped = d.get("stopped")
    if c.verdict == stats.CANNOT_TELL:
        share = u.shares.get(d["scenario"], {})
        check(stopped == "cap" and n == u.cap or
              stopped == "budget" and (u.spent >= u.budget or
                                       share.get("spent_s", 0) >= share.get("allowed_s", 0)),
              f"{dw}: cannot tell: expected the cap ({u.cap}) or the budget ({u.budget} s, "
              f"this scenario's share {share}) reached, got stopped {stopped!r} after {n} "
              f"repetitions, {u.spent} s spent")
    else:
        check(stopped == "decided", f"{dw}: expected stopped 'decided', got {stopped!r}")


def check_progress(u, dw, d, q, n):
    """The progress names decision D (of question Q, N repetitions) at its first extra
    round, with its interval, and with its outcome when it got more or did not decide."""
    repeat = u.repeat
    subj = d["subject"] + (f" (retry limit {d['retry_limit']})"
                           if q.get("subject_retry_limit") else "")
    if n > repeat and d.get("planned_verdict") == stats.CANNOT_TELL:
        # Its first extra round: a line naming it, the repetition and the interval.
        pat = re.compile(rf"^hotline-bench: \[\d+/\d+\] until decided: {re.escape(subj)} / "
                         rf"{re.escape(d['base'])} .*, rep {repeat + 1}, "
                         rf"(\[\S+, \S+\]|one repetition, no interval)", re.M)
        check(pat.search(u.stderr) is not None,
              f"{dw}: expected a progress line for its repetition {repeat + 1} with its "
              f"interval, got {u.stderr!r}")
    if n > repeat or d.get("stopped") != "decided":
        out_pat = re.compile(rf"^hotline-bench: .* until decided: {re.escape(subj)} / "
                             rf"{re.escape(d['base'])} .*: {re.escape(d['verdict'])} after "
                             rf"{n} repetitions", re.M)
        check(out_pat.search(u.stderr) is not None,
              f"{dw}: expected a progress line with its outcome, got {u.stderr!r}")


def check_decision(u, d):
    """One decision: its question in the table, its repetitions, its runs paired, its
    verdict stats.py's, and its progress lines."""
    questions = u.questions
    dw = f"{u.w}: decision {d.get('subject')} / {d.get('base')} at {d.get('threads')} " \
         f"threads, size {d.get('size')}"
    q = questions[d["question"]] if isinstance(d.get("question"), int) and \
        0 <= d["question"] < len(questions) else None
    if not check(q is not None and q["subject"] == d["subject"] and q["base"] == d["base"]
                 and q["threshold"] == d.get("threshold"),
                 f"{dw}: expected its question in the table, got {d.get('question')!r}"):
        return
    n = d.get("repetitions")
    check(d.get("planned") == u.repeat and isinstance(n, int) and u.repeat <= n <= u.cap,
          f"{dw}: expected planned {u.repeat} <= repetitions <= cap {u.cap}, got {d!r}")
    vals = paired_values(u, dw, d, q, n)
    if vals is None:
        return
    c = stats.Comparison(vals, q["threshold"], q["claim"] == "at_least")
    check_verdict(u, dw, d, c, vals, n)
    check_progress(u, dw, d, q, n)


def check_figures_paired(u, decisions):
    """A figure that shares a base with a question keeps pairing with it."""
    for d in decisions:
        for fig in u.questions:
            if fig["claim"] == "figure" and fig["scenario"] == d["scenario"] and \
                    fig["base"] == d["base"] and fig.get("mode") in (None, d["mode"]):
                f = at_point(u.results, d, fig["subject"])
                b = at_point(u.results, d, (fig.get("bases") or [d["base"]])[0])
                if f and b:
                    check(len(f["runs"]) == len(b["runs"]),
                          f"{u.w}: expected {fig['subject']} paired with {d['base']} "
                          f"({len(b['runs'])} runs), got {len(f['runs'])}")


# A round's line at a size of a sweep: "until decided: A / B in zero, hot 300, rep 4, ...".
SWEEP_ROUND = re.compile(r"^hotline-bench: \[\d+/\d+\] until decided: .* in (zero|copy), "
                         r"(\w+) (\S+), rep (\d+), ", re.M)


def check_sweep_rounds(w, stderr):
    """A sweep's extra repetitions go round its sizes: one more at every size still deciding,
    then the next, so the repetition numbers of the rounds' lines, in the order they came,
    never go down, and more than one size takes part."""
    got = [(m.group(3), int(m.group(4))) for m in SWEEP_ROUND.finditer(stderr)]
    reps = [r for _, r in got]
    if not check(len({size for size, _ in got}) > 1,
                 f"{w}: expected extra repetitions at several sizes, got {got}"):
        return
    check(all(a <= b for a, b in zip(reps, reps[1:])),
          f"{w}: expected the extra repetitions in rounds over the sizes (rep numbers never "
          f"going down), got {got}")


def check_run(name, args, budget, repeat, expected, bench, outdir):
    """One run: config.until_decided's budget, plan and cap, the decisions EXPECTED and no
    others, the budget's use, each decision, and the figures' pairing."""
    ran = run_bench(name, args, budget, repeat, bench, outdir)
    if ran is None:
        return
    p, w, doc, ud = ran
    cap = max(4 * repeat, 10)
    check(ud.get("budget_s") == budget, f"{w}: budget_s: expected {budget}, got "
          f"{ud.get('budget_s')!r}")
    check(ud.get("planned") == repeat and ud.get("cap") == cap,
          f"{w}: expected planned {repeat} and cap {cap}, got {ud.get('planned')!r}, "
          f"{ud.get('cap')!r}")
    questions, decisions = ud.get("questions"), ud.get("decisions")
    if not check(isinstance(questions, list) and isinstance(decisions, list),
                 f"{w}: expected lists of questions and decisions, got {ud!r}"):
        return
    u = Run(w, p.stderr, repeat, cap, budget, doc.get("results", []), questions)
    got = {(d.get("subject"), d.get("base"), d.get("threads"), d.get("size")) for d in decisions}
    check(got == expected and len(decisions) == len(expected),
          f"{w}: expected decisions for {sorted(expected, key=str)}, got "
          f"{[(d.get('subject'), d.get('base'), d.get('threads'), d.get('size')) for d in decisions]}")
    check_budget(u, ud, args, decisions)
    for d in decisions:
        check_decision(u, d)
    check_figures_paired(u, decisions)
    sizes = args[args.index("--sizes") + 1] if "--sizes" in args else ""
    if args[0] in ("zero", "copy") and "," in sizes:
        check_sweep_rounds(w, p.stderr)


def beyond_cache_run(bench, outdir):
    """The run of the question with two bases (hl_zero against the larger of nontemporal and
    rep_stosb, and glibc_memset's figure beside it): hot, at one size above the last-level
    cache the bench finds here (twice it), so that the question is asked on any machine
    whose bench has both bases (x86-64; arm64 has neither variant, and the question then
    has nothing to ask)."""
    p = subprocess.run([*target_cmd(bench), "--list"], capture_output=True, text=True, timeout=60)
    zero = p.stdout.split("\nzero:", 1)[-1].split("\n\n", 1)[0] if p.returncode == 0 else ""
    listed = {line.split()[0] for line in zero.splitlines()[1:]
              if line.startswith("  ") and line.split()}
    missing = [s for s in ("nontemporal", "rep_stosb") if s not in listed]
    if missing:
        print(f"beyond_cache: skipped, no {' or '.join(missing)} subject here")
        return None
    out = os.path.join(outdir, "llc.json")
    p = subprocess.run([*target_cmd(bench), "zero", "--quick", "--sizes", "1K", "--mode", "hot",
                        "--subjects", "hl_zero", "--repeat", "1", "--json", out],
                       capture_output=True, text=True, timeout=60)
    if not check(p.returncode == 0, f"the cache's size: exit {p.returncode}: {p.stderr}"):
        return None
    with open(out) as f:
        llc = next((r.get("llc_bytes") for r in json.load(f)["results"]
                    if isinstance(r.get("llc_bytes"), int)), None) or criteria.BEYOND_CACHE
    size = 2 * llc
    expected = {("hl_zero", criteria.ZERO_BANDWIDTH["base"], None, size)}
    if size <= criteria.ZERO_VS_GLIBC["sizes"][1]:
        expected.add(("hl_zero", "glibc_memset", None, size))
    return ("beyond_cache", ["zero", "--quick", "--sizes", str(size), "--mode", "hot",
                             "--subjects", "hl_zero,glibc_memset,nontemporal,rep_stosb"],
            2, 2, expected)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    bench, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    runs = list(RUNS)
    extra = beyond_cache_run(bench, outdir)
    if extra:
        runs.append(extra)
    for run in runs:
        check_run(*run, bench, outdir)
    # Without the option: no until_decided in the JSON.
    out = os.path.join(outdir, "without.json")
    p = subprocess.run([*target_cmd(bench), "refcount-timing", "--count", "1000", "--repeat", "1", "--json",
                        out], capture_output=True, text=True, timeout=60)
    if check(p.returncode == 0, f"without the option: exit {p.returncode}: {p.stderr}"):
        with open(out) as f:
            cfg = json.load(f).get("config", {})
        check("until_decided" not in cfg,
              f"without the option: expected no config.until_decided, got {cfg!r}")
    return finish(f"--until-decided: {len(runs)} runs checked")


if __name__ == "__main__":
    sys.exit(main())
