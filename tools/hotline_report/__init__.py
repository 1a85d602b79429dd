"""hotline_report: turn hotline-bench / hotline-sim JSON into a Markdown report
with PNG plots.  The command-line entry point is tools/hotline-report; this
package holds its parts:

  load     read and check input files (InputError: one line, exit 2)
  fmt      number, size and Markdown table formatting
  kernel   the kernel's published refcount timing ratios (reference.md)
  plots    matplotlib (Agg) helpers: bar chart, metric vs threads, metric vs size
  report   the Markdown document, scenario by scenario
  cli      argument parsing and top-level error handling
"""

VERSION = "0.1.0"
PROG = "hotline-report"
