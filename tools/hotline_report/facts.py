"""What each subject is, read from a file's "subjects" object, never from its name.

hotline-bench and hotline-sim write, beside "results", one object per
scenario: {subject: {kind, description, baseline, variant_of, variant, loop,
counts_attempts, retry_limit, fallback, relax, library}} in the scenario's
table order (bench/README.md, "JSON").  Facts(doc, scenario) answers the
sections' questions from it:

  order(results)         the subjects of RESULTS in the object's order, then
                         any the object lacks, as they come
  description(s)         one line: what it is (None when not known)
  kind, baseline, variant_of, variant, retry_limit, relax: the fact, or None
  loop, counts_attempts, fallback, library: the fact, or False
  variant(base, v)       the subject that is BASE with variant V, or None

A file without the object (an older hotline-bench or hotline-sim) has no
facts: every answer is "not known" (None, False, the results' own order), and
the sections leave out what needs a fact; the report says so once (report.py,
cli.py).  Nothing here or in the sections guesses a fact from a name.
"""

OLDER_FILE = ("no \"subjects\" object (an older hotline-bench or hotline-sim): the report "
              "shows no subject facts for it (descriptions, baselines, variants, loops, "
              "fallback) and leaves out what needs them")


def has_facts(doc):
    """True when DOC carries a "subjects" object, or has no results to describe."""
    return getattr(doc, "subjects", None) is not None or not getattr(doc, "results", None)


class Facts:
    """The subjects object of one scenario of one file ({} when the file has none)."""

    def __init__(self, doc, scenario):
        subjects = getattr(doc, "subjects", None)
        self.known = subjects is not None
        entries = (subjects or {}).get(scenario)
        self._entries = entries if isinstance(entries, dict) else {}

    def __contains__(self, subject):
        return subject in self._entries

    def names(self):
        """Every subject of the object, in its order."""
        return list(self._entries)

    def of(self, subject):
        e = self._entries.get(subject)
        return e if isinstance(e, dict) else {}

    def order(self, results):
        """The subjects of RESULTS: those the object lists in its order, then the others as they
        first appear."""
        seen = list(dict.fromkeys(r["subject"] for r in results))
        listed = [s for s in self._entries if s in seen]
        return listed + [s for s in seen if s not in self._entries]

    def _text(self, subject, key):
        v = self.of(subject).get(key)
        return v if isinstance(v, str) and v else None

    def _flag(self, subject, key):
        return self.of(subject).get(key) is True

    def description(self, subject):
        return self._text(subject, "description")

    def kind(self, subject):
        return self._text(subject, "kind")

    def baseline(self, subject):
        return self._text(subject, "baseline")

    def variant_of(self, subject):
        return self._text(subject, "variant_of")

    def variant_kind(self, subject):
        return self._text(subject, "variant")

    def relax(self, subject):
        return self._text(subject, "relax")

    def retry_limit(self, subject):
        v = self.of(subject).get("retry_limit")
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def loop(self, subject):
        return self._flag(subject, "loop")

    def counts_attempts(self, subject):
        return self._flag(subject, "counts_attempts")

    def fallback(self, subject):
        return self._flag(subject, "fallback")

    def library(self, subject):
        return self._flag(subject, "library")

    def variant(self, base, kind, among=None):
        """The subject that is BASE with variant KIND (e.g. "lse"), among AMONG (default: every
        subject of the object); None when there is none."""
        for s in (self._entries if among is None else among):
            if self.variant_of(s) == base and self.variant_kind(s) == kind:
                return s
        return None

    def is_variant(self, subject):
        return self.variant_of(subject) is not None
