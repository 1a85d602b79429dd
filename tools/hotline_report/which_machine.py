"""Which machine each input file ran on, in the words of its env: shared by the summary
(summary.py), "Machines compared" (machines.py) and report.md (brief.py).

  describe(env)      the CPU, vendor, family/model, CPUs and arch of one env
  short_name(env)    a machine's name for a column heading: the CPU and the arch
  machines(docs)     [(name, [docs])]: the measured files grouped by machine
  machine_line(docs) report.md's one line on the machine(s) measured
  find_result(results, subject, threads, limit)  the first result of SUBJECT at THREADS

It sits beneath summary.py and machines.py so that neither imports the other to get them.
"""

from . import fmt


def machine_line(docs):
    """One line on the machine(s) the measured DOCS ran on, from their env only."""
    seen = []
    for d in docs:
        if d.simulated:
            continue
        text = describe(d.env)
        if text not in seen:
            seen.append(text)
    if not seen:
        return "Machine: none measured (simulated files only)."
    return ("Machine: " if len(seen) == 1 else "Machines: ") + "; ".join(seen) + "."


def describe(env):
    """This machine in the words of its JSON env: cpu, vendor, family/model, CPUs, arch."""
    cpu = env.get("cpu")
    text = str(cpu).strip() if cpu else "CPU not recorded"
    extra = [str(env["vendor"])] if env.get("vendor") else []
    fam = [f"{label} {env[k]}" for k, label in (("family", "family"), ("model_id", "model"))
           if isinstance(env.get(k), (str, int)) and env.get(k) != ""]
    extra += fam
    if extra:
        text += f" ({', '.join(extra)})"
    cpus = env.get("cpus")
    if isinstance(cpus, int) and not isinstance(cpus, bool):
        text += f", {fmt.plural(cpus, 'CPU')}"
    if env.get("arch"):
        text += f", {env['arch']}"
    return text


def short_name(env):
    """A machine's name for a column heading, from its env: the CPU and the arch."""
    cpu = str(env.get("cpu")).strip() if env.get("cpu") else "CPU not recorded"
    return cpu + (f" ({env['arch']})" if env.get("arch") else "")


def machines(docs):
    """[(name, [docs])]: the measured DOCS grouped by the machine their env describes
    (describe()), in the order the files came; named by short_name(), or in full where two
    machines would share a short name."""
    groups = {}
    for d in docs:
        if not d.simulated:
            groups.setdefault(describe(d.env), []).append(d)
    names = {k: short_name(v[0].env) for k, v in groups.items()}
    if len(set(names.values())) < len(names):
        names = {k: k for k in groups}
    return [(names[k], v) for k, v in groups.items()]


def find_result(results, subject, threads, limit=False):
    """The first of RESULTS of SUBJECT at THREADS (and retry limit LIMIT, unless False)."""
    for r in results:
        if r["subject"] == subject and r.get("threads") == threads and \
                (limit is False or r.get("retry_limit") == limit):
            return r
    return None
