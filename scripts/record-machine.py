#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""record-machine.py - a machine's record for data/machines/, from a `make bench` JSON.

usage: scripts/record-machine.py [-o PATH] [--commit COMMIT] [--set KEY=VALUE]...
                                 [--note TEXT]... BENCH_JSON

Writes data/machines/VENDOR-FAMILY-MODEL.json (e.g. intel-6-cf.json; -o to
choose, '-' for stdout) holding:

  machine       the record's name, and the CPU as the bench saw it: vendor,
                family, model, stepping, model name, architecture, flags, CPUs
  plan_machine  what the automatic plans are derived from (src/plan.h): the
                bench's env.plan_machine; a bench older than that field gets it
                rebuilt from env.flags and env.zero_plan_sources, with what
                those cannot say given by --set (each such fact is named in
                plan_machine_from)
  measured      when and where: date, commit (--commit; a bench JSON does not
                record it), kernel, libc, compiler, command, the plans that ran
  results       the bench's zero and copy rows of every variant, of the
                entries (hl_zero, hl_try_copy: the plans as they ran) and of
                glibc_memset / glibc_memcpy, hot and cold, trimmed to the
                figures: size, gb_per_sec, runs, ratio_to, ratio, ratio_runs

--set KEY=VALUE sets one plan_machine field: isa, vendor, family, model (hex
or decimal), erms, fsrm, avx2, avx512, mops (true/false), dczva_block, l1d,
l2, l3, l3_sharing (a number, with K, M or G for powers of 1024),
caches_from (text). Bad input: one line on stderr, exit 2.

Debian's /usr/bin/python3, standard library only. data/machines/README.md
says what the records are for (make test holds the plans against them).
"""

import argparse
import json
import os
import re
import sys

PROG = "record-machine.py"
BOOLS = ("erms", "fsrm", "avx2", "avx512", "mops")
SIZES = ("dczva_block", "l1d", "l2", "l3", "l3_sharing")
PLAN_MACHINE_KEYS = ("isa", "vendor", "family", "model", "erms", "fsrm", "avx2", "avx512",
                     "dczva_block", "mops", "l1d", "l2", "l3", "l3_sharing", "caches_from")
BASES = {"zero": "glibc_memset", "copy": "glibc_memcpy"}
# The entries whose automatic plan the record's plans are: their rows are the plan as it ran.
ENTRIES = {"zero": "hl_zero", "copy": "hl_try_copy"}
ROW_KEYS = ("scenario", "subject", "mode", "size", "gb_per_sec", "runs", "ratio_to", "ratio",
            "ratio_runs")


class Bad(Exception):
    """Bad input: the one line to print."""


def size_value(text):
    m = re.fullmatch(r"(\d+)([KMG]?)", text)
    if not m:
        raise ValueError
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def words_size(text):
    """'2 MiB', '1.25 MiB', '48 KiB', '100 B' (zero_plan.c's size_words) as bytes."""
    m = re.fullmatch(r"([\d.]+) (B|KiB|MiB|GiB)", text)
    if not m:
        return None
    return round(float(m.group(1)) * {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20,
                                       "GiB": 1 << 30}[m.group(2)])


def parse_set(item):
    key, eq, value = item.partition("=")
    if not eq or key not in PLAN_MACHINE_KEYS:
        raise Bad(f"--set {item!r}: expected KEY=VALUE, KEY one of {', '.join(PLAN_MACHINE_KEYS)}")
    try:
        if key in BOOLS:
            if value not in ("true", "false"):
                raise ValueError
            return key, value == "true"
        if key in SIZES:
            return key, size_value(value)
        if key in ("family", "model"):
            return key, hex(int(value, 0))
        if key == "isa" and value not in ("x86_64", "aarch64", "other"):
            raise ValueError
        if key == "vendor" and value not in ("intel", "amd", "other"):
            raise ValueError
        if not value:
            raise ValueError
        return key, value
    except ValueError:
        raise Bad(f"--set {item!r}: not a value {key} takes") from None


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise Bad(f"{path}: {e.strerror}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise Bad(f"{path}: not JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("tool") != "hotline-bench":
        raise Bad(f"{path}: not a hotline-bench JSON (no \"tool\": \"hotline-bench\")")
    if not isinstance(doc.get("env"), dict) or not isinstance(doc.get("results"), list):
        raise Bad(f"{path}: no env object or no results list")
    return doc


def name_of(env, path):
    vendor = {"GenuineIntel": "intel", "AuthenticAMD": "amd", "HygonGenuine": "hygon"}.get(
        env.get("vendor"), str(env.get("vendor", "")).lower())
    vendor = re.sub(r"[^a-z0-9]+", "-", vendor).strip("-")
    try:
        family, model = int(env.get("family"), 16), int(env.get("model_id"), 16)
    except (TypeError, ValueError):
        raise Bad(f"{path}: env.family and env.model_id are not hex numbers") from None
    if not vendor:
        raise Bad(f"{path}: env.vendor is missing")
    return f"{vendor}-{family:x}-{model:x}"


def rebuilt_plan_machine(env, given):
    """env.plan_machine for a bench JSON older than it: from env.flags and the sources
    string, then --set; (plan_machine, where each part came from)."""
    flags = env.get("flags") if isinstance(env.get("flags"), list) else []
    arch = env.get("arch")
    pm = {"isa": arch if arch in ("x86_64", "aarch64") else "other",
          "vendor": {"GenuineIntel": "intel", "AuthenticAMD": "amd",
                     "HygonGenuine": "amd"}.get(env.get("vendor"), "other"),
          "family": env.get("family"), "model": env.get("model_id"),
          "erms": "erms" in flags, "fsrm": "fsrm" in flags, "avx2": "avx2" in flags,
          "avx512": "avx512f" in flags and "avx512vl" in flags, "mops": "mops" in flags}
    if pm["isa"] == "x86_64":
        pm["dczva_block"] = 0
    src = env.get("zero_plan_sources") or ""
    from_sources = []
    m = re.search(r"L2 ([\d.]+ [KMG]?i?B) \(([^)]+)\) / 4", src)
    if m:
        pm["l2"], pm["caches_from"] = words_size(m.group(1)), m.group(2)
        from_sources += ["l2", "caches_from"]
    m = re.search(r"L3 ([\d.]+ [KMG]?i?B) / 4", src)
    if m:
        pm["l3"] = words_size(m.group(1))
        from_sources.append("l3")
    m = re.search(r"(\d+) CPUs share it", src)
    if m:
        pm["l3_sharing"] = int(m.group(1))
        from_sources.append("l3_sharing")
    pm.update(given)
    missing = [k for k in PLAN_MACHINE_KEYS if pm.get(k) is None]
    from_sources = [k for k in from_sources if k not in given]
    parts = ["rebuilt: the bench JSON has no env.plan_machine",
             "isa, vendor, family, model and the features from env.arch, env.vendor, "
             "env.family, env.model_id and env.flags"]
    if from_sources:
        parts.append(f"{', '.join(from_sources)} read from env.zero_plan_sources")
    if given:
        parts.append(f"{', '.join(given)} given on the command line (--set)")
    return ({k: pm.get(k) for k in PLAN_MACHINE_KEYS}, "; ".join(parts), missing)


def plan_of(results, scenario):
    for r in results:
        if r.get("scenario") == scenario and r.get("variant") == "auto" and r.get("plan"):
            return r["plan"]
    return None


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def trimmed(results, path):
    rows = []
    for i, r in enumerate(results):
        if not isinstance(r, dict) or r.get("scenario") not in BASES or \
                r.get("mode") not in ("hot", "cold"):
            continue
        variant = r.get("variant")
        if not ((isinstance(variant, str) and variant != "auto" and
                 r.get("subject") == variant) or
                r.get("subject") in (BASES[r["scenario"]], ENTRIES[r["scenario"]])):
            continue
        runs, ratio_runs = r.get("runs"), r.get("ratio_runs")
        if not (is_num(r.get("size")) and isinstance(runs, list) and runs and
                all(is_num(x) for x in runs) and
                (ratio_runs is None or (isinstance(ratio_runs, list) and
                                        all(is_num(x) for x in ratio_runs)))):
            raise Bad(f"{path}: results[{i}] ({r.get('scenario')} {r.get('subject')}): "
                      "no size, runs or ratio_runs as the bench writes them")
        rows.append({k: r.get(k) for k in ROW_KEYS})
    for scenario, base in BASES.items():
        if any(x["scenario"] == scenario for x in rows) and \
                not any(x["subject"] == base for x in rows):
            raise Bad(f"{path}: {scenario} results without {base}: no ratio to hold a plan to")
    if not rows:
        raise Bad(f"{path}: no zero or copy results of a variant, hot or cold "
                  "(make bench runs them)")
    order = {"zero": 0, "copy": 1}
    rows.sort(key=lambda x: (order[x["scenario"]], x["mode"] != "hot", x["subject"], x["size"]))
    return rows


def record(doc, path, args):
    env = doc["env"]
    name = name_of(env, path)
    given = dict(parse_set(s) for s in args.set or [])
    if isinstance(env.get("plan_machine"), dict):
        pm = {k: env["plan_machine"].get(k) for k in PLAN_MACHINE_KEYS}
        pm.update(given)
        pm_from = "env.plan_machine (hl__zero_machine_probe on the measured machine)"
        if given:
            pm_from += f"; {', '.join(given)} given on the command line (--set)"
        missing = [k for k in PLAN_MACHINE_KEYS if k not in env["plan_machine"] and
                   k not in given]
    else:
        pm, pm_from, missing = rebuilt_plan_machine(env, given)
    missing = [k for k in missing if k != "caches_from"]
    if missing:
        raise Bad(f"{path}: env has no plan_machine and {', '.join(missing)} cannot be read "
                  f"from it; give {'them' if len(missing) > 1 else 'it'} with --set KEY=VALUE")
    rows = trimmed(doc["results"], path)
    measured = {
        "date": env.get("date"),
        "commit": args.commit,
        "kernel": env.get("kernel"),
        "libc": env.get("libc"),
        "compiler": env.get("compiler"),
        "command": env.get("command"),
        "tool": f"{doc.get('tool')} {doc.get('version')}",
        "zero_plan": plan_of(doc["results"], "zero"),
        "copy_plan": plan_of(doc["results"], "copy"),
        "zero_plan_sources": env.get("zero_plan_sources"),
    }
    if args.commit is None:
        measured["commit_note"] = "not recorded: the bench JSON does not carry it"
    machine = {
        "name": name,
        "cpu": env.get("cpu"),
        "arch": env.get("arch"),
        "vendor": env.get("vendor"),
        "family": env.get("family"),
        "model": env.get("model_id"),
        "stepping": env.get("stepping"),
        "flags": env.get("flags"),
        "cpus": env.get("cpus"),
    }
    return name, {"record": "hotline machine record, version 1",
                  "machine": machine,
                  "plan_machine": pm,
                  "plan_machine_from": pm_from,
                  "measured": measured,
                  "notes": args.note or [],
                  "results": rows}


def dumps(rec):
    """Indented, but one result per line: readable, and a new measurement diffs by row."""
    head = dict(rec)
    rows = head.pop("results")
    text = json.dumps(head, indent=2, ensure_ascii=False)
    lines = ",\n".join("    " + json.dumps(r, ensure_ascii=False) for r in rows)
    return text[:-2] + ',\n  "results": [\n' + lines + "\n  ]\n}\n"


def main(argv):
    p = argparse.ArgumentParser(prog=PROG, usage="%(prog)s [-o PATH] [--commit COMMIT] "
                                "[--set KEY=VALUE]... [--note TEXT]... BENCH_JSON",
                                description="A machine's record for data/machines/ "
                                "from a make bench JSON (data/machines/README.md).")
    p.add_argument("bench_json", metavar="BENCH_JSON")
    p.add_argument("-o", dest="out", metavar="PATH",
                   help="where to write (default data/machines/NAME.json; '-': stdout)")
    p.add_argument("--commit", metavar="COMMIT",
                   help="the commit the bench was built from (the JSON does not say)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a plan_machine field the JSON cannot say (e.g. l1d=48K)")
    p.add_argument("--note", action="append", metavar="TEXT", help="a note for the record")
    args = p.parse_args(argv)
    try:
        doc = load(args.bench_json)
        name, rec = record(doc, args.bench_json, args)
        out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                       "machines", name + ".json")
        text = dumps(rec)
        if out == "-":
            sys.stdout.write(text)
            return 0
        try:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise Bad(f"{out}: {e.strerror}") from None
    except Bad as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    print(os.path.normpath(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
