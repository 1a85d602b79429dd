"""hotline_report: turn hotline-bench / hotline-sim JSON into a Markdown report
(report.md, the answer; appendix.md, the rest) with PNG plots.  The command-line
entry point is tools/hotline-report; this package holds its parts, one job each:

  cli        argument parsing and top-level error handling
  load       read and check input files (InputError: one line, exit 2)
  facts      what each subject is, from a file's "subjects" object (never its name)
  report     the two documents: the section registry {scenario: Section}; appendix.md,
             each file's environment and sections, "What this machine says"; write()
             (report.md and appendix.md together, all or nothing)
  brief      report.md, the answer: the summary, then one short section per scenario
             with its ratio plot and a link to its full section in appendix.md
  summary    the first screen: the machine from the JSON, then one row per question
             (criteria.QUESTIONS) with its interval, verdict and published figure
  ratios     the ratio plots' data: paired per-repetition ratios per point, with the
             interval of their median (stats.py)
  stats      paired per-repetition medians with an exact order-statistic interval
             (numpy, scipy), three-valued verdicts, the bimodality gap test
  context    what a section renders with: the documents, output and staging
             directories, plot naming and drawing, the facts
  common     helpers the sections share: tables, warnings, subtitles, lists
  fmt        number, size and Markdown table formatting
  plots      matplotlib (Agg) helpers: bar chart, metric vs threads (oversubscribed
             range shaded, side-by-side panels), vs size (cache sizes marked),
             vs retry limit
  kernel     published figures (data/published.json, docs/sources.md): refcount
             timing ratios, contention and clearing figures (each with the machine
             it was published on),
             lockref history, clear_user, what hotline-sim's presets are held to
  criteria   the project's done criteria for contend, zero and copy, as data, and their
             check; the summary's questions; the other questions the report asks
             about named subjects
  sections, one module per scenario (render(ctx, doc, results) -> lines):
  refcount_timing  the price of a saturating reference count
  contend    one contended cache line: throughput, attempts, fallback, fairness,
             latency, and its paragraphs of "What this machine says"
  lockref_sweep    throughput against the retry limit, and its paragraph
  openclose  the host kernel's open/close, threads against processes
  zeroing    clearing memory: ratios, crossovers, dd, paragraphs, done criteria
  copying    copying memory that may not be there: against memcpy and the system
             calls, per word, which variant where, paragraph, done criteria
  generic    a scenario this version does not know: a plain table
  and the sections over several files:
  manycore   "Many-core machines (simulated)": hotline-sim's sweeps with the
             measured points, and the published figures beside the model's
  overlay    "Files compared": a threads scenario found in several files
"""

VERSION = "0.1.0"
PROG = "hotline-report"
