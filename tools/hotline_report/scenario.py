"""The one plug-in point of the report: a scenario's object, and the registry of them.

Each scenario module (contend.py, lockref_sweep.py, refcount_timing.py, openclose.py, and
one per sized scenario, zero.py and copy.py) ends with one declaration,

    SCENARIO = Scenario("contend", TITLE, render, rank=20, threads=True, ...)

which owns everything the documents need of that scenario: its appendix section
(render), its short section in report.md (brief), its paragraphs of "What this machine
says" (says), its done criteria (checks) and the summary's measures it answers (answers).
The document builders (report.py, brief.py, summary.py) iterate scenarios(); none of them
names a scenario.  A scenario no module declares gets the generic section (generic.py).

scenarios() finds the declarations itself: it imports every module of this package and
keeps each module-level SCENARIO, in the order of their rank.  Adding a scenario to the
report is adding its module.
"""

import importlib
import pkgutil


class Scenario:
    """What the report does with one scenario's results.

      name     the scenario's name in the JSON ("contend")
      title    its sections' title (None: none)
      render   render(ctx, doc, results) -> the appendix section's lines
      rank     where its short section stands in report.md, and its criteria in the done
               criteria table (lower first)
      threads  its results have a threads dimension (drawn across files in "Files compared")
      brief    brief(ctx, have) -> its short section in report.md, HAVE [(machine, doc)];
               None: none
      says     ((rank, fn(ctx, doc) -> paragraphs), ...): its paragraphs of "What this
               machine says", each at its own rank among every scenario's
      checks   checks(ctx, doc) -> its done criteria checked (criteria.Check, SizeCheck);
               None: none
      answers  {measure kind: answer(ctx, m, docs) -> summary.Row or None}: the summary's
               measures of those kinds (data/questions.json) it answers
    """

    def __init__(self, name, title, render, *, rank, threads=False, brief=None, says=(),
                 checks=None, answers=None):
        self.name, self.title, self.render, self.rank = name, title, render, rank
        self.threads, self.brief, self.says = threads, brief, tuple(says)
        self.checks, self.answers = checks, dict(answers or {})

    @property
    def has_says(self):
        """Whether "What this machine says" has something to say about it."""
        return bool(self.says)


_FOUND = []


def scenarios():
    """Every Scenario a module of this package declares (SCENARIO), by rank."""
    if not _FOUND:
        package = importlib.import_module(__package__)
        found = []
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{__package__}.{info.name}")
            s = getattr(module, "SCENARIO", None)
            if isinstance(s, Scenario):
                found.append(s)
        _FOUND.extend(sorted(found, key=lambda s: s.rank))
    return list(_FOUND)


def register(s):
    """Add Scenario S to the registry at run time (a scenario of no module here: a test, or a
    program built on the report); returns S.  unregister(S) takes it out again."""
    scenarios()
    _FOUND.append(s)
    _FOUND.sort(key=lambda x: x.rank)
    return s


def unregister(s):
    scenarios()
    _FOUND.remove(s)


def find(name):
    """The Scenario named NAME, or None (a scenario this version does not know)."""
    return next((s for s in scenarios() if s.name == name), None)


def answerer(kind):
    """The answer function of summary measures of KIND, or None."""
    return next((s.answers[kind] for s in scenarios() if kind in s.answers), None)
