"""subjects.py - hotline-sim's "subjects" object: every policy run has its entry, with
the schema's fields, and the results agree with the facts (../subjects_check.py, shared
with tests/bench); the retry limit in the facts is --retry-limit's.

    subjects.py PATH-TO-hotline-sim WORKDIR CHECK
"""

import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from simlib import SIM, expect, main, ops, run_sim  # noqa: E402
import subjects_check  # noqa: E402  (tests/subjects_check.py)

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "contend-x86-2cpu.json")


def policies():
    """Every policy, in the order --list gives them (its "policies:" line)."""
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [SIM, "--list"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("policies:")), "policies:")
    return line.split()[1:]


def check_doc(doc, what, order, limit):
    """The shared checks, the entries in --policy order, and the facts' retry limit."""
    fails = []

    def check(cond, msg):
        if not cond:
            fails.append(msg)
        return cond

    facts = subjects_check.check(doc, check).get("contend", {})
    expect(not fails, f"{what}: subjects agree with the schema and the results"
           + "".join("\n      " + f for f in fails))
    expect(list(facts) == order, f"{what}: an entry per policy run, in --policy order "
           f"{order}, saw {list(facts)}")
    limits = {s: f["retry_limit"] for s, f in facts.items() if f["fallback"]}
    expect(limits and all(v == limit for v in limits.values()),
           f"{what}: the policies that fall back run with --retry-limit {limit}, saw {limits}")


def every_policy_has_its_facts():
    every = policies()
    expect(len(every) >= 2, f"--list names the policies, saw {every}")
    for machine in ("x86-server", "thunderx2"):
        doc, _, _, _ = run_sim("subjects_" + machine, "--machine", machine, "--policy",
                               ",".join(every), "--threads", "1,4", "--retry-limit", "37",
                               "--ops", str(ops(2000, 500)))
        check_doc(doc, machine, every, 37)


def calibrated_run_has_its_facts():
    order = list(reversed(policies()))
    doc, _, _, _ = run_sim("subjects_calibrated", "--calibrate", FIXTURE, "--policy",
                           ",".join(order), "--threads", "2", "--ops", str(ops(2000, 500)))
    check_doc(doc, "calibrated", order, 100)


main("subjects.py", {"every_policy_has_its_facts": every_policy_has_its_facts,
                     "calibrated_run_has_its_facts": calibrated_run_has_its_facts})
