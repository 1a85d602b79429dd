"""hotline_report: turn hotline-bench / hotline-sim JSON into a Markdown report
with PNG plots.  The command-line entry point is tools/hotline-report; this
package holds its parts:

  load     read and check input files (InputError: one line, exit 2)
  fmt      number, size and Markdown table formatting
  kernel   published figures from reference.md, as data: refcount timing
           ratios, this machine kind's contention numbers, lockref history
  criteria the project's done criteria for contend, as data, and their check
  plots    matplotlib (Agg) helpers: bar chart, metric vs threads (oversubscribed
           range shaded, side-by-side panels), metric vs size, vs retry limit
  report   the Markdown document, scenario by scenario
  contention  the contend, lockref-sweep and openclose sections and
           "What this machine says" (a mixin of report.Report)
  cli      argument parsing and top-level error handling
"""

VERSION = "0.1.0"
PROG = "hotline-report"
