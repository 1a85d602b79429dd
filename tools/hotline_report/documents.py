"""What report.md (brief.py) and appendix.md (report.py) both need of each other: the two
documents' names, the appendix's anchor of a file's scenario section, the links to it, and
the table of input files both end with.

It sits beneath brief.py and report.py, so that neither imports the other to get these.
"""

from . import common, fmt

REPORT = "report.md"
APPENDIX = "appendix.md"


def anchor(ctx, doc, scenario):
    """The explicit anchor (an <a id>) of DOC's SCENARIO section in appendix.md."""
    return f"{ctx.stem(doc)}-{scenario}"


def link(ctx, doc, scenario, text="all figures"):
    """A Markdown link from report.md to DOC's SCENARIO section in appendix.md."""
    return f"[{text}]({APPENDIX}#{anchor(ctx, doc, scenario)})"


def files_table(ctx):
    """The input files: path, tool, measured or simulated, date, results."""
    return fmt.table(["file", "tool", "kind", "date", "results"],
                     [[d.path, f"{d.tool} {d.version or ''}".strip(),
                       "**simulated**" if d.simulated else "measured",
                       common.text(d.env.get("date")), len(d.results)] for d in ctx.docs],
                     "lllll"[:4] + "r")
