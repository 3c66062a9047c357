"""Line 111: local, model-agnostic methods "can explain predictions made by any model for a specific instance
without requiring any knowledge about the underlying model" (citing LIME, SHAP, LORE, Anchors and LRP).

The sentence names its class of methods by its citations, so it is checked on each of them, in three parts that do
not overlap: the three packages the paper runs (LIME, SHAP, Anchors, themselves cited methods), LORE, and LRP.

The three packages are each given a model that is nothing but a call: an object whose every attribute access raises
(and is logged), its ``__call__`` a closure over a word-score table. Each must return an explanation; the log says
which attributes it probed and how many texts it asked about. A replay then checks that the explanation is a
function of the answers alone: the same package, same seed, is given a second callable that only looks the answers
of the first run up (and raises on any other text), and must return the same explanation.

LORE (not installed) is argued. LRP (Montavon et al. 2019) is checked by a counterexample: two bias-free ReLU
networks that compute the same function on all of R^2 (shown symbolically, quadrant by quadrant, and on a dense grid)
give different LRP-gamma relevances (gamma > 0) at the same input, so LRP-gamma's explanation is not determined by
the model's predictions; it needs the weights. LRP-0 is not: on bias-free ReLU networks it is gradient x input, a
function of the function alone (computed on the same pair).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import sympy

from ...paper.baselines import ALL_DEFAULTS, DOCUMENT, absent_step, package_versions
from ...verdicts.results import (
    Claim,
    ClaimResult,
    Quote,
    StepResult,
    hypotheses,
)

CLAIM = Claim("baseline-model-agnostic", new=True)
SENTENCE = Quote(111, r"Local and model-agnostic methods are particularly well-suited for this task because they can "
                      r"explain predictions made by any model for a specific instance without requiring any knowledge "
                      r"about the underlying model \citep{ribeiro2016should,lundberg2017unified,guidotti2018local,"
                      r"ribeiro2018anchors,montavon2019layer}.")
QUERIES = Quote(180, "Model-agnostic explainers work on any black-box model, requiring only repeated queries.")
SOURCE = (SENTENCE, QUERIES, Quote(176, "without needing access to its internal parameters"), ALL_DEFAULTS)
#: The parts of line 111 the statement steps check, not nested: its class of methods is the one its citations show,
#: three of them the packages the paper runs (line 1164), then LORE and LRP; the words of lines 176 and 180 define
#: the class, they do not narrow the sentence to those three.
PACKAGES, LORE, LRP = "LIME, SHAP, Anchors (the packages the paper runs)", "LORE", "LRP (montavon2019layer)"
STATEMENT = ("Line 111: local, model-agnostic methods, those its citations show (LIME, SHAP, LORE, Anchors, LRP), "
             "explain predictions of any model for a specific instance without requiring any knowledge about the "
             "underlying model; in three parts, not nested: LIME, SHAP, Anchors (the packages the paper runs, line "
             "1164), LORE, and LRP (montavon2019layer), a model-specific method cited as model-agnostic.")
CONDITIONS = (
    "The packages as installed (lime 0.2.0.1, shap, anchor-exp with spacy.blank('en'); versions in the values), each "
    "called as the released explainers call it (LimeTextExplainer(bow=False).explain_instance(text, f), "
    "shap.Explainer(f, shap.maskers.Text())(text), AnchorText(nlp, classes).explain_instance(text, labels)), on the "
    "7-word document of paper.baselines.DOCUMENT. The model is an object whose every attribute but __call__ raises "
    "AttributeError (and is logged): its answers come from a table of word scores, summed and passed through a "
    "logistic (probabilities for lime and shap, labels for anchor-exp). LRP: the LRP-gamma rule of Montavon et al. "
    "(2019, Eq. 'LRP-gamma'), gamma = 1 (any gamma > 0; LRP-0, gamma = 0, is gradient x input on these networks), "
    "on two bias-free ReLU networks that compute the same function on all of R^2.")
#: The opaque model's word scores (a word not in the table scores 0).
SCORES = {"good": 2.0, "great": 1.5, "bad": -2.0, "slow": -1.0, "rude": -1.5}
#: lime's samples per explanation (its default is 5000: 500 keep the step at a fraction of a second).
LIME_SAMPLES = 500
#: The seed of every package run (lime's random_state, numpy's global seed for anchor-exp).
SEED = 0
#: The LRP-gamma parameter of the counterexample (any gamma > 0 separates the two networks; gamma = 0 is LRP-0).
LRP_GAMMA = 1.0
#: What a step adds when a package probed attributes of the model.
WENT_ON = " (each raised AttributeError; the package went on without it)"


class OpaqueModel:
    """A model that is only a call: every attribute access but ``__call__`` raises AttributeError and is logged
    in ``probes``; ``queries`` counts the texts it was asked about and ``answers`` keeps them (text -> output).

    >>> m = OpaqueModel(lambda texts: np.zeros(len(texts)))
    >>> m(["a", "b"]).tolist(), m.queries
    ([0.0, 0.0], 2)
    >>> getattr(m, "coef_", None), m.probes
    (None, ['coef_'])
    """

    _OWN = ("_answer", "probes", "queries", "answers", "__call__", "__class__", "__dict__")

    def __init__(self, answer):
        self.__dict__.update(_answer=answer, probes=[], queries=0, answers={})

    def __getattribute__(self, name):
        if name in OpaqueModel._OWN:
            return object.__getattribute__(self, name)
        object.__getattribute__(self, "probes").append(name)
        raise AttributeError(name)

    def __call__(self, texts):
        texts = [str(t) for t in texts]
        out = np.asarray(object.__getattribute__(self, "_answer")(texts))
        self.__dict__["queries"] += len(texts)
        self.__dict__["answers"].update(zip(texts, out.tolist()))
        return out


def probabilities(texts: list[str]) -> np.ndarray:
    """The table model: P(positive) = logistic(sum of the words' SCORES), as [P(negative), P(positive)] rows.

    >>> probabilities(["good", "bad good"]).round(3).tolist()
    [[0.119, 0.881], [0.5, 0.5]]
    """
    s = np.array([sum(SCORES.get(w, 0.0) for w in t.split()) for t in texts])
    p = 1.0 / (1.0 + np.exp(-s))
    return np.column_stack([1.0 - p, p])


def labels(texts: list[str]) -> np.ndarray:
    """The table model's labels (1 when P(positive) > 1/2), what anchor-exp asks for."""
    return (probabilities(texts)[:, 1] > 0.5).astype(int)


def replay(answers: dict):
    """A callable that only looks up ``answers`` (text -> output); any other text raises KeyError."""
    return lambda texts: np.array([answers[t] for t in texts])


def run_lime(answer) -> dict:
    """LimeTextExplainer(bow=False) (the released call) on DOCUMENT with ``answer`` as its only view of the model."""
    from lime.lime_text import LimeTextExplainer

    model = OpaqueModel(answer)
    exp = LimeTextExplainer(bow=False, random_state=SEED).explain_instance(DOCUMENT, model, num_samples=LIME_SAMPLES)
    return {"explanation": [[str(w), float(v)] for w, v in exp.as_list()], "model": model}


def run_shap(answer) -> dict:
    """shap.Explainer(f, shap.maskers.Text()) (the released call) on DOCUMENT with ``answer`` as its only view."""
    import shap

    model = OpaqueModel(answer)
    values = shap.Explainer(model, shap.maskers.Text())([DOCUMENT])
    return {"explanation": [[str(t), float(v)] for t, v in zip(values.data[0], values.values[0][:, 1])],
            "model": model}


def run_anchor(answer) -> dict:
    """AnchorText(spacy.blank('en'), classes).explain_instance (the released call, a blank pipeline: no download)
    on DOCUMENT with ``answer`` as its only view; numpy's global seed fixed around the call (anchor-exp draws from
    it)."""
    import spacy
    from anchor.anchor_text import AnchorText

    model, state = OpaqueModel(answer), np.random.get_state()
    try:
        np.random.seed(SEED)
        exp = AnchorText(spacy.blank("en"), ["negative", "positive"]).explain_instance(DOCUMENT, model)
    finally:
        np.random.set_state(state)
    return {"explanation": {"anchor": [str(n) for n in exp.names()], "precision": float(exp.precision())},
            "model": model}


RUNS = {"lime": (run_lime, probabilities), "shap": (run_shap, probabilities), "anchor-exp": (run_anchor, labels)}


def explains_from_a_call(package: str, run: dict) -> StepResult:
    """s1-<package>: the package returns an explanation for a model that is only a call, requiring none of its
    attributes (every attribute it probed raised, and it went on)."""
    model, explanation = run["model"], run["explanation"]
    returned = bool(explanation["anchor"] if package == "anchor-exp" else explanation)
    return CLAIM.checked(
        f"s1-{package}-explains-a-call", "statement", "exhaustive",
        f"{package}, given an object whose every attribute raises (a call only), returned an explanation "
        f"({rounded(explanation)}) after {model.queries} queries; attributes it probed: "
        f"{model.probes or 'none'}{WENT_ON if model.probes else ''}.",
        holds=returned and model.queries > 0,
        values={"explanation": explanation, "queries": model.queries, "probes": model.probes}, part=PACKAGES)


def rounded(explanation):
    """An explanation with its numbers to 4 decimals, for a step's note.

    >>> rounded([["good", 0.123456]]), rounded({"anchor": ["good"], "precision": 1.0})
    ([['good', 0.1235]], {'anchor': ['good'], 'precision': 1.0})
    """
    if isinstance(explanation, dict):
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in explanation.items()}
    return [[w, round(v, 4)] for w, v in explanation]


def only_the_answers(package: str, run: dict, again: dict) -> StepResult:
    """p1-<package>: the explanation is a function of the model's answers: a lookup of the first run's answers,
    same seed, gives the same explanation (and the replay asked nothing the first run had not)."""
    same = again["explanation"] == run["explanation"]
    return CLAIM.checked(
        f"p1-{package}-answers-only", "proof", "exhaustive",
        f"{package} re-run with the same seed on a callable that only looks up the {len(run['model'].answers)} "
        f"answers of the first run (any other text raises): same explanation {same}, {again['model'].queries} "
        "queries. So, on this document and seed, the explanation depends on the model through its answers to the "
        "queries and on nothing else.",
        holds=same, values={"same": same, "answers": len(run["model"].answers), "queries": again["model"].queries},
        part=PACKAGES)


def lore_argued() -> StepResult:
    """s2: LORE (not installed) queries the black box only; argued from its paper."""
    return CLAIM.argued(
        "s2-lore", "statement",
        "LORE (Guidotti et al. 2018) labels a genetic neighbourhood of the instance by querying the black box and "
        "fits a decision tree to it: its only access to the model is the queries. Not run here: LORE is not in the "
        "evaluation's packages (no official package is installed), so this is read from its paper, not computed.",
        part=LORE)


def lrp_relevance(layers: list[np.ndarray], x: np.ndarray, gamma: float) -> np.ndarray:
    """LRP-gamma (Montavon et al. 2019) on a bias-free ReLU network ``layers`` (weight matrices, input to output,
    the last layer linear), relevance of the output unit redistributed to the inputs: R_i = sum_j a_i (w_ij + gamma
    w_ij^+) / sum_i' a_i' (w_i'j + gamma w_i'j^+) R_j.

    >>> lrp_relevance([np.array([[1.0], [-1.0]])], np.array([2.0, 1.0]), 0.0).tolist()  # LRP-0: gradient x input
    [2.0, -1.0]
    """
    activations = [x]
    for i, w in enumerate(layers):
        z = activations[-1] @ w
        activations.append(z if i == len(layers) - 1 else np.maximum(z, 0.0))
    relevance = activations[-1]
    for a, w in zip(reversed(activations[:-1]), reversed(layers)):
        contributions = a[:, None] * (w + gamma * np.maximum(w, 0.0))
        relevance = contributions @ (relevance / contributions.sum(axis=0))
    return relevance


#: The counterexample's pair, both bias-free ReLU networks with one hidden layer (weight matrices, input to output):
#: relu(x1) - relu(x2), and 2 relu(x1) - relu(x1) - relu(x2) (the unit relu(x1) twice, with output weights 2 and -1).
DIRECT = (np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0], [-1.0]]))
SPLIT = (np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), np.array([[2.0], [-1.0], [-1.0]]))
#: The input of the counterexample, and the dense grid over R^2 (negatives included) the two functions are compared on.
LRP_INPUT = (2.0, 1.0)
GRID = np.linspace(-5.0, 5.0, 201)
#: The largest floating-point gap on the grid that still counts as equal outputs (the symbolic check is exact).
GRID_TOLERANCE = 1e-12


def same_function_everywhere(first, second) -> dict:
    """Whether two bias-free ReLU networks compute the same function on all of R^2: symbolically, on each closed
    quadrant (x = (s1 a, s2 b), a, b >= 0, s in {-1, 1}^2: there every relu resolves and the output is a polynomial in
    a, b), and numerically on the 201 x 201 grid of [-5, 5]^2.

    >>> same_function_everywhere(DIRECT, SPLIT)["quadrants_equal"]
    [True, True, True, True]
    >>> old = ((np.array([[1.0], [-1.0]]),), (np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[1.0], [-2.0]])))
    >>> same_function_everywhere(*old)["quadrants_equal"]  # x1 - x2 and relu(x1 + x2) - 2 relu(x2): one quadrant
    [True, False, False, False]
    """
    a, b = sympy.symbols("a b", nonnegative=True)
    quadrants = [(s1, s2) for s1 in (1, -1) for s2 in (1, -1)]
    equal = [sympy.simplify(symbolic_forward(first, (s1 * a, s2 * b)) - symbolic_forward(second, (s1 * a, s2 * b)))
             == 0 for s1, s2 in quadrants]
    grid = np.array([[u, v] for u in GRID for v in GRID])
    gap = float(np.max(np.abs(outputs(first, grid) - outputs(second, grid))))
    return {"quadrants": quadrants, "quadrants_equal": equal, "symbolic": all(equal), "grid_points": GRID.size ** 2,
            "grid_range": [float(GRID[0]), float(GRID[-1])], "grid_largest_gap": gap}


def symbolic_forward(layers, x) -> sympy.Expr:
    """The output of the bias-free ReLU network ``layers`` at the sympy point ``x`` (relu as Max(., 0))."""
    for w in layers[:-1]:
        x = [sympy.Max(sum(xi * sympy.nsimplify(w[i, j]) for i, xi in enumerate(x)), 0) for j in range(w.shape[1])]
    return sum(xi * sympy.nsimplify(layers[-1][i, 0]) for i, xi in enumerate(x))


def gradient_times_input(layers, x: np.ndarray, h: float = 1e-6) -> list[float]:
    """x_i times the central difference of the network's output in x_i (what LRP-0 equals on bias-free ReLU
    networks away from a kink), computed from the outputs alone."""
    steps = np.eye(len(x)) * h
    return [float(x[i] * (forward(layers, x + steps[i]) - forward(layers, x - steps[i])) / (2 * h))
            for i in range(len(x))]


def lrp_needs_the_weights() -> StepResult:
    """s3-lrp: two ReLU networks computing the same function on all of R^2, relu(x1) - relu(x2) and 2 relu(x1) -
    relu(x1) - relu(x2), give different LRP-gamma relevances (gamma > 0) at x = (2, 1): LRP-gamma is not a function of
    the model's predictions. LRP-0 (gamma = 0) gives both gradient x input."""
    same, x = same_function_everywhere(DIRECT, SPLIT), np.array(LRP_INPUT)
    r1, r2 = lrp_relevance(DIRECT, x, LRP_GAMMA), lrp_relevance(SPLIT, x, LRP_GAMMA)
    zero = {"direct": lrp_relevance(DIRECT, x, 0.0).tolist(), "split": lrp_relevance(SPLIT, x, 0.0).tolist(),
            "gradient_x_input": gradient_times_input(DIRECT, x)}
    zero["agree"] = bool(np.allclose(zero["direct"], zero["split"]) and np.allclose(zero["direct"],
                                                                                   zero["gradient_x_input"]))
    predicted = (forward(DIRECT, x), forward(SPLIT, x))
    record = hypotheses(same_function_on_all_of_r2=same["symbolic"] and same["grid_largest_gap"] <= GRID_TOLERANCE,
                        same_prediction_at_x=bool(np.isclose(*predicted)), prediction_not_zero=predicted[0] != 0.0,
                        lrp_gamma_positive=LRP_GAMMA > 0)
    return CLAIM.checked(
        "s3-lrp-needs-the-weights", "statement", "counterexample",
        "LRP (montavon2019layer), its LRP-gamma rule with gamma > 0: the bias-free ReLU networks relu(x1) - relu(x2) "
        "and 2 relu(x1) - relu(x1) - relu(x2) compute the same function on all of R^2 (symbolically on each closed "
        f"quadrant: {same['quadrants_equal']}; on the {same['grid_points']} points of a grid of [-5, 5]^2, largest "
        f"gap {same['grid_largest_gap']}); both output {predicted[0]} at x = (2, 1), yet LRP-gamma (gamma = "
        f"{LRP_GAMMA}) gives relevances {np.round(r1, 4).tolist()} and {np.round(r2, 4).tolist()}: its explanation "
        "depends on the weights, not only on the function, so LRP-gamma requires knowledge of the model. Not LRP-0: "
        "on bias-free ReLU networks it is gradient x input, a function of the function alone (here "
        f"{np.round(zero['direct'], 4).tolist()} and {np.round(zero['split'], 4).tolist()}; gradient x input from the "
        f"outputs, {np.round(zero['gradient_x_input'], 4).tolist()}). One hidden layer is the fewest: a network "
        "without one is the linear map its function is.",
        holds=not (not np.allclose(r1, r2) and record["satisfies_hypotheses"]),
        values={**record, "x": x.tolist(), "outputs": list(predicted), "relevance_direct": r1.tolist(),
                "relevance_split": r2.tolist(), "gamma": LRP_GAMMA, "same_function": same, "lrp_0": zero},
        part=LRP)


def lrp_counterexample(step: StepResult) -> dict:
    """The claim's counterexample: LRP's step's pair, input, relevances and hypotheses record."""
    keep = ("satisfies_hypotheses", "hypotheses", "x", "relevance_direct", "relevance_split", "gamma")
    return {"method": "LRP-gamma (montavon2019layer)", "networks": ["relu(x1) - relu(x2)",
                                                                    "2 relu(x1) - relu(x1) - relu(x2)"],
            **{k: step.values[k] for k in keep},
            "smaller": "one hidden layer, the fewest layers that can separate (without one a bias-free network is the "
                       "linear map its function is, and LRP-gamma is fixed by it); fewer hidden units not searched"}


def outputs(layers, points: np.ndarray) -> np.ndarray:
    """The outputs of the bias-free ReLU network ``layers`` (last layer linear) at each row of ``points``."""
    for w in layers[:-1]:
        points = np.maximum(points @ w, 0.0)
    return (points @ layers[-1])[:, 0]


def forward(layers, x: np.ndarray) -> float:
    """The output of the bias-free ReLU network ``layers`` (last layer linear) at ``x``."""
    return float(outputs(layers, x[None, :])[0])


def check() -> ClaimResult:
    """Each package on an opaque callable, then on a replay of its answers; LORE argued; LRP's counterexample."""
    steps: list[StepResult] = []
    for package, (run, answer) in RUNS.items():
        needs = ("anchor-exp", "spacy") if package == "anchor-exp" else (package,)
        absent = absent_step(CLAIM, f"s1-{package}-explains-a-call", "statement", "exhaustive", needs)
        if absent:
            steps.append(replace(absent, part=PACKAGES))
            continue
        first = run(answer)
        steps += [explains_from_a_call(package, first),
                  only_the_answers(package, first, run(replay(first["model"].answers)))]
    lrp = lrp_needs_the_weights()
    steps += [lore_argued(), lrp]
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS + f" Versions: "
                        f"{package_versions()}.", counterexample=lrp_counterexample(lrp), steps=tuple(steps),
                        source=SOURCE)
