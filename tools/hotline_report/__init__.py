"""hotline_report: turn hotline-bench / hotline-sim JSON into a Markdown report
with PNG plots.  The command-line entry point is tools/hotline-report; this
package holds its parts:

  load     read and check input files (InputError: one line, exit 2)
  fmt      number, size and Markdown table formatting
  kernel   published figures from docs/sources.md, as data: refcount timing
           ratios, this machine kind's contention and clearing numbers, lockref
           history, the kernel's clear_user figures
  criteria the project's done criteria for contend and zero, as data, and their check
  plots    matplotlib (Agg) helpers: bar chart, metric vs threads (oversubscribed
           range shaded, side-by-side panels), metric vs size (cache sizes
           marked), vs retry limit
  report   the Markdown document, scenario by scenario
  contention  the contend, lockref-sweep and openclose sections and their
           paragraphs of "What this machine says" (a mixin of report.Report)
  manycore the "Many-core machines (simulated)" section: hotline-sim's sweeps with the
           measured points, and the published figures beside the model's (a mixin)
  zeroing  the zero section (clearing memory): ratios, crossovers, dd, and its
           paragraphs and done criteria (a mixin of report.Report)
  cli      argument parsing and top-level error handling
"""

VERSION = "0.1.0"
PROG = "hotline-report"
