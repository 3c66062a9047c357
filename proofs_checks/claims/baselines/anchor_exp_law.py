"""anchor-exp's code read exactly, for the ``baseline-anchors`` claim: the law of its UNK sampler (an identity
about ``AnchorText.get_sample_fn``), the beam size its text explainer actually runs (read from the installed
source) and the exact acceptance probability of its sequential stopping test (``AnchorBaseBeam.anchor_beam``), all
at anchor-exp 0.0.2.0.

The stopping test is run with the package's own KL bounds (``AnchorBaseBeam.dlow_bernoulli`` and
``dup_bernoulli``), imported inside :func:`sequential_acceptance` so that this module imports without the package
(the ``eval`` extra).
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import math
from fractions import Fraction

import numpy as np
import sympy

from ...verdicts.results import Claim, StepResult

#: The sampler's mechanism is enumerated draw by draw (every ordered draw without replacement) for n up to this.
SAMPLER_MAX_ROWS = 7
#: The sequential test's Markov chain: states of probability below DROPPED are dropped and the chain stops after
#: MAX_SAMPLES samples, both counted as not accepted, so the computed acceptance is a lower bound.
DROPPED = 1e-15
MAX_SAMPLES = 3000


def sampler_identity(max_rows: int = SAMPLER_MAX_ROWS) -> tuple[bool, dict]:
    """The law of one word's column in anchor-exp's UNK sampler: n_changed ~ Binomial(n, 1/2) rows changed, then
    n_changed distinct rows drawn one by one without replacement (``np.random.choice(n, n_changed, replace=False)``,
    s-sampler-source). Enumerated draw by draw in exact rationals for n = 1..``max_rows``: every ordered draw of
    k rows has probability 1/(n (n-1) ... (n-k+1)), and the sets S it yields get P(S) = C(n, k) 2^-n x (the
    ordered draws of S), checked against 2^-n, the product of independent fair coins; sympy then shows the general
    identity C(n, k) 2^-n k! (n-k)! / n! = 2^-n for symbolic n and k."""
    n, k = sympy.symbols("n k", integer=True, nonnegative=True)
    half = sympy.Rational(1, 2)
    symbolic = sympy.simplify(sympy.binomial(n, k) * half**n * sympy.factorial(k) * sympy.factorial(n - k)
                              / sympy.factorial(n) - half**n) == 0
    enumerated = {}
    for rows in range(1, max_rows + 1):
        law = dict.fromkeys(range(2**rows), Fraction(0))
        for changed in range(rows + 1):
            count = Fraction(math.comb(rows, changed), 2**rows)
            ordered = Fraction(1, math.perm(rows, changed))  # one ordered draw without replacement
            for draw in itertools.permutations(range(rows), changed):
                law[sum(1 << r for r in draw)] += count * ordered
        enumerated[rows] = all(v == Fraction(1, 2**rows) for v in law.values())
    return symbolic and all(enumerated.values()), {
        "identity": "P(changed rows = S) = C(n, |S|) 2^-n |S|! (n - |S|)! / n! = 2^-n", "symbolic": bool(symbolic),
        "enumerated_rows": list(enumerated), "enumerated_ok": all(enumerated.values())}


def _function(tree: ast.Module, name: str) -> ast.FunctionDef:
    (node,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    return node


def _default(fn: ast.FunctionDef, name: str) -> tuple[object, int]:
    """A parameter's default value and the source line it is written on."""
    names = [a.arg for a in fn.args.args][-len(fn.args.defaults):]
    node = dict(zip(names, fn.args.defaults))[name]
    return ast.literal_eval(node), node.lineno


def beam_size_forwarding() -> dict:
    """Which beam size ``AnchorText.explain_instance`` runs, read from the installed source by parsing it: its own
    ``beam_size`` default, the keywords of its call to ``AnchorBaseBeam.anchor_beam`` (with the lines of the
    function, up to the end of that call), and ``anchor_beam``'s own default, which applies when the call does not
    pass ``beam_size`` (``beam_size`` is a named parameter of explain_instance, so its ``**kwargs`` cannot carry
    it), and the constants that call passes (``stop_on_first``, ``coverage_samples``)."""
    from anchor import anchor_base, anchor_text

    text = _function(ast.parse(inspect.getsource(anchor_text)), "explain_instance")
    (call,) = [n for n in ast.walk(text) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "anchor_beam"]
    keywords = [k.arg for k in call.keywords if k.arg is not None]
    literals = {k.arg: ast.literal_eval(k.value) for k in call.keywords
                if k.arg is not None and isinstance(k.value, ast.Constant)}
    text_default, text_line = _default(text, "beam_size")
    beam_default, beam_line = _default(_function(ast.parse(inspect.getsource(anchor_base)), "anchor_beam"),
                                       "beam_size")
    forwarded = "beam_size" in keywords
    return {"explain_instance_beam_size": text_default, "explain_instance_beam_size_line": text_line,
            "explain_instance_lines": [text.lineno, call.end_lineno], "anchor_beam_call_keywords": keywords,
            "anchor_beam_call_constants": literals,
            "anchor_beam_call_passes_kwargs": any(k.arg is None for k in call.keywords),
            "beam_size_forwarded": forwarded, "anchor_beam_beam_size": beam_default,
            "anchor_beam_beam_size_line": beam_line,
            "effective_beam_size": text_default if forwarded else beam_default}


@functools.cache  # the bounds of a few thousand states per b; check() runs a few times in the suite
def sequential_acceptance(precision: float, b: int, start: int, *, threshold: float, epsilon_stop: float,
                          delta: float, beam_size: int, batch_size: int) -> float:
    """The probability that anchor-exp's stopping test (anchor_base.py, lines 326-353) accepts a candidate of
    exact precision ``precision`` on a b-word document, started from ``start`` rows, exactly up to DROPPED and
    MAX_SAMPLES (so a lower bound): the test's Markov chain on the count of agreeing rows, with the package's own
    KL bounds. It samples a batch while (mean >= threshold and lb < threshold - epsilon_stop) or (mean <
    threshold and ub >= threshold + epsilon_stop), and accepts when mean >= threshold and lb > threshold -
    epsilon_stop."""
    from anchor.anchor_base import AnchorBaseBeam

    beta = math.log(1.0 / (delta / (1 + (beam_size - 1) * b)))  # the package's expression
    batch = np.array([math.comb(batch_size, j) * precision**j * (1 - precision) ** (batch_size - j)
                      for j in range(batch_size + 1)])
    law = np.array([math.comb(start, j) * precision**j * (1 - precision) ** (start - j) for j in range(start + 1)])
    accepted, n = 0.0, start
    while n <= MAX_SAMPLES and law.sum() > DROPPED:
        going = np.zeros_like(law)
        for k in np.flatnonzero(law > DROPPED):
            mean = k / n
            lb = AnchorBaseBeam.dlow_bernoulli(mean, beta / n)
            ub = AnchorBaseBeam.dup_bernoulli(mean, beta / n)
            if (mean >= threshold and lb < threshold - epsilon_stop) or (
                    mean < threshold and ub >= threshold + epsilon_stop):
                going[k] = law[k]
            elif mean >= threshold and lb > threshold - epsilon_stop:
                accepted += law[k]
        law, n = np.convolve(going, batch), n + batch_size
    return float(accepted)


#: The package parameters the stopping test depends on.
SEQUENTIAL_KEYS = ("threshold", "epsilon_stop", "delta", "beam_size", "batch_size")


def _level(params: dict) -> float:
    """The level the stopping test targets: threshold - epsilon_stop."""
    return float(Fraction(str(params["threshold"])) - Fraction(str(params["epsilon_stop"])))


def sequential_rows(params: dict, sizes: list[int]) -> list[dict]:
    """Per b in ``sizes``: the stopping test's exact acceptance at precision threshold - epsilon_stop, started
    from one batch, against the package's per-test level exp(-beta) and, over the tests that can miss, against
    delta (the union bound a per-call promise needs). The tests that can miss are the beam's beam_size per size
    for the sizes 1..b - 1: the size-b candidate, the whole document, has precision 1 (in the claim's family,
    s-exact-family)."""
    level = _level(params)
    out = []
    for b in sizes:
        accept = sequential_acceptance(level, b, params["batch_size"], **{k: params[k] for k in SEQUENTIAL_KEYS})
        tests = params["beam_size"] * (b - 1)
        out.append({"b": b, "precision": level, "start_rows": params["batch_size"], "acceptance": accept,
                    "per_test_level": params["delta"] / (1 + (params["beam_size"] - 1) * b),
                    "tests_that_can_miss": tests, "union_bound": tests * accept,
                    "exceeds_delta": tests * accept > params["delta"]})
    return out


def start_scan(params: dict, b: int, last: int) -> dict:
    """One test's exact acceptance at precision threshold - epsilon_stop from every start of 1..``last`` rows on
    a b-word document (the claim takes its family's smallest b: the largest per-test level; at beam_size 1 beta
    does not depend on b), against exp(-beta): the argument's fixed-n bound would have to hold for every start."""
    level = params["delta"] / (1 + (params["beam_size"] - 1) * b)
    accept = {n: sequential_acceptance(_level(params), b, n, **{k: params[k] for k in SEQUENTIAL_KEYS})
              for n in range(1, last + 1)}
    worst = max(accept, key=accept.__getitem__)
    return {"b": b, "per_test_level": level, "acceptance_by_start": {str(n): a for n, a in accept.items()},
            "starts_above_level": [n for n, a in accept.items() if a > level], "worst_start": worst,
            "worst_acceptance": accept[worst]}


def sequential_step(claim: Claim, table: list[dict], starts: dict, params: dict, forwarding: dict) -> StepResult:
    """``claim``'s step s-sequential: the stopping test's exact acceptance (``table`` from :func:`sequential_rows`,
    ``starts`` from :func:`start_scan`) against the argument's per-test level and union bound, at the beam size the
    package runs (``forwarding`` from :func:`beam_size_forwarding`)."""
    over = [r for r in table if r["exceeds_delta"]]
    beam = params["beam_size"]
    accepts = {round(r["acceptance"], 12) for r in table}
    lines = forwarding["explain_instance_lines"]
    source = (f"anchor-exp runs its test at beam_size = {beam}: explain_instance (anchor_text.py lines "
              f"{lines[0]}-{lines[1]}) calls anchor_beam with the keywords "
              f"{', '.join(forwarding['anchor_beam_call_keywords'])}"
              f" and its **kwargs, not its own beam_size = {forwarding['explain_instance_beam_size']} (line "
              f"{forwarding['explain_instance_beam_size_line']}), so anchor_beam's default beam_size = "
              f"{forwarding['anchor_beam_beam_size']} (anchor_base.py line {forwarding['anchor_beam_beam_size_line']})"
              f" applies" if not forwarding["beam_size_forwarded"] else
              f"anchor-exp runs its test at beam_size = {beam} (explain_instance passes it on)")
    acceptance = (f"{table[0]['acceptance']:.5f} at every b of the family (per-test level exp(-beta) = "
                  f"{table[0]['per_test_level']:.5f})" if len(accepts) == 1 else
                  ", ".join(f"{r['acceptance']:.5f} (b = {r['b']}; per-test level {r['per_test_level']:.5f})"
                            for r in table))
    worst = starts["worst_start"]
    start_over = bool(starts["starts_above_level"])
    first = starts["starts_above_level"][0] if start_over else worst  # the smallest start above the level
    note = (f"{source}. The package's stopping test, computed exactly (its Markov chain on the agreeing rows, with "
            f"its own KL bounds; a lower bound), accepts a candidate of precision {table[0]['precision']:.2f} = "
            f"threshold - epsilon_stop, started from one batch ({params['batch_size']} rows), with probability "
            f"{acceptance}; only the beam_size x (b - 1) = {beam} x (b - 1) tests of sizes 1..b - 1 can miss (the "
            "size-b candidate, the whole document, has precision 1, s-exact-family), and their union bound "
            + (f"exceeds delta = {params['delta']} at b = "
               + ", ".join(f"{r['b']} ({r['union_bound']:.4f})" for r in over)
               if over else f"stays <= delta = {params['delta']} at every b of the family")
            + f". From a start of {first} rows, one test alone accepts with probability "
            f"{starts['acceptance_by_start'][str(first)]:.4f} " + (">" if start_over else "<=")
            + f" exp(-beta) = {starts['per_test_level']:.4f} (b = {starts['b']}; the starts 1.."
            f"{len(starts['acceptance_by_start'])} above it: {starts['starts_above_level']}, the worst {worst} rows, "
            f"{starts['worst_acceptance']:.4f}): one start state; the argument's fixed-n bound would have to hold "
            "for every start, so any start that exceeds it refutes the argument. "
            + ("The argument (s-kl-lucb) does not prove the promise (a precision just below the level is accepted "
               "nearly as often: the acceptance is continuous in it)." if over or start_over else
               "The computed test stays within the argument's bounds; its other gaps (other start counts, the "
               "selection by the same rows) are s-kl-lucb's, argued."))
    return claim.checked(
        "s-sequential", "proof", "exhaustive", note, holds=not (over or start_over),
        values={"rows": table, "starts": starts, "beam_size_source": forwarding, "dropped_below": DROPPED,
                "max_samples": MAX_SAMPLES, "parameters": params})
