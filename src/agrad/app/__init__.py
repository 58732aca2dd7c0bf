"""The application: what one ``agrad`` command does, between the command line
(:mod:`agrad.cli`) and the engine.

* :mod:`.commands` -- the bodies of ``agrad eval``, ``agrad graph`` and
  ``agrad check``: run a session, hand the result to the views
  (:mod:`agrad.render`), return the exit status;
* :mod:`.session` -- one run: the script (through :mod:`agrad.lang`), the
  target, the automatic backward pass, and what each graph node came from;
* :mod:`.inputs` -- ``--set`` / ``--param`` values and ``@file`` data;
* :mod:`.check` -- ``agrad check``: the float64 replay of a recorded graph
  and its comparison with central differences;
* :mod:`.contained`, :mod:`.supervisor` and :mod:`.seccomp` -- every run
  in a contained child process (rlimits, a seccomp filter, framed output
  streamed to the parent, time-outs the parent enforces).

Imports run one way: cli -> app -> lang and render -> tensor -> ops and
autograd.  Nothing below this package imports it.
"""
