"""What the command line shows: tables, graph trees, exporters, JSON records.

Views only: nothing here runs scripts, reads inputs or changes the engine, and
nothing imports :mod:`agrad.lang` or :mod:`agrad.app` (a test checks it).  Each
module turns results (tensors, graph nodes, check reports) into text, rich
renderables or JSON:

* :mod:`.records` -- JSON records of variables and tensors (SPEC §3), and
  short one-line tensor values for tables;
* :mod:`.console` -- the output formats, the rich console (imported only
  when a terminal is rendered to) and the one place diagnostics are written;
* :mod:`.evalview`, :mod:`.graphview`, :mod:`.checkview` -- ``agrad eval``,
  ``agrad graph`` and ``agrad check`` output; the graph's model (ids, edges,
  the tree's lines) is :mod:`.graphmodel`, its JSON/DOT/Mermaid :mod:`.graphexport`.
"""
