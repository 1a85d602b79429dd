"""hotline_report: turn hotline-bench / hotline-sim JSON into a Markdown report
(report.md, the answer; appendix.md, the rest) with PNG plots.  The command-line
entry point is tools/hotline-report; this package holds its parts, one job each.

The documents, which iterate the scenarios and name none:
  cli        argument parsing and top-level error handling
  report     appendix.md: each file's environment and sections, "What this machine
             says"; write() (report.md and appendix.md together, all or nothing)
  brief      report.md, the answer: the summary, then one short section per scenario
             with its ratio plot and a link to its full section in appendix.md
  summary    the first screen: the machine from the JSON, then one row per question
             (data/questions.json) with its interval, verdict and published figure
  documents  what report.md and appendix.md both need: names, anchors, links, files table

The scenarios, one module each, each declaring its Scenario (scenario.py: its appendix
section, its short section in report.md, its paragraphs, its done criteria and the
summary's measures it answers), found by scenario.scenarios(): a new scenario is a new
module, which this list need not name (its opening docstring says what it is). Among them:
  refcount_timing  the price of a saturating reference count
  contend    one contended cache line: throughput, attempts, fallback, fairness,
             latency, and its paragraphs of "What this machine says"
  lockref_sweep    throughput against the retry limit, and its paragraph
  openclose  the host kernel's open/close, threads against processes
  zeroing    clearing memory, a sized scenario: ratios, crossovers, dd, paragraphs
  copying    copying memory that may not be there, a sized scenario: against memcpy
             and the system calls, per word
  sized      the engine of the sized scenarios, configured by each one's declarations:
             data, generic section parts, short section, criteria, summary rows
  generic    a scenario no module declares: a plain table
  and the sections over several files:
  manycore   "Many-core machines (simulated)": hotline-sim's sweeps with the
             measured points, the published figures beside the model's, and its
             short section in report.md
  machines   "Machines compared": the contention ratios, every machine on one plot
  overlay    "Files compared": a threads scenario found in several files

What they are built from:
  scenario   the Scenario object and the registry
  questions  data/questions.json loaded: the questions, once, by name
  criteria   the done criteria's check, and the questions under their old names
  answers    a summary row, and the helpers the scenarios' answers share
  brief_parts  what a short section in report.md is built from
  ratios     the ratio plots' data: paired per-repetition ratios per point, with the
             interval of their median (stats.py)
  which_machine  which machine each file ran on
  load       read and check input files (InputError: one line, exit 2)
  facts      what each subject is, from a file's "subjects" object (never its name)
  stats      paired per-repetition medians with an exact order-statistic interval
             (numpy, scipy), three-valued verdicts, the bimodality gap test
  context    what a section renders with: the documents, output and staging
             directories, plot naming and drawing, the facts
  common     helpers the sections share: tables, warnings, subtitles, lists
  fmt        number, size and Markdown table formatting
  plots      matplotlib (Agg) helpers: bar chart, metric vs threads (oversubscribed
             range shaded, side-by-side panels), vs size (cache sizes marked),
             vs retry limit, ratio plots
  kernel     published figures (data/published.json, docs/sources.md)
  machine_state  whether the machine was shared while a result ran
"""

VERSION = "0.1.0"
PROG = "hotline-report"
