"""The JSON-lines protocol (docs/protocol.md): round trips, servers that break it, and the example server under a
few kit checks. The servers here are small Python scripts written to temporary files, each started as a command."""

from __future__ import annotations

import ast
import gc
import math
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from proofs_checks import check_explainer, get_tags
from proofs_checks.__main__ import main as cli_main
from proofs_checks.subject.protocol import ProtocolError, command_factory, decode, encode

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "explainer_server.py"

#: A scripted server: its hello, then per explain request what SCRIPT (a Python body with `request`, `send`,
#: `receive`) does. The body is the test's own small explainer, not the example server.
SERVER = textwrap.dedent('''
    import json, sys
    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
    def receive():
        line = sys.stdin.readline()
        return json.loads(line) if line else None
    print("a log line", file=sys.stderr)
    HELLO
    while (request := receive()) is not None:
    BODY
''')


def server(tmp_path: Path, body: str, hello: str = 'send({"op": "hello", "protocol": 1, "name": "scripted", '
                                                  '"tags": {"exact": True, "seeded": False}})') -> list[str]:
    path = tmp_path / f"server_{abs(hash(body + hello))}.py"
    path.write_text(SERVER.replace("HELLO", hello).replace("BODY", textwrap.indent(textwrap.dedent(body), "    ")))
    return [sys.executable, str(path)]


#: Echoes the request and what the kit's model says on the text and on a one-token-masked text.
ECHO = '''
scores = None
texts = [request["text"], "UNK " + " ".join(request["text"].split()[1:])]
send({"op": "score", "texts": texts})
reply = receive()
if reply["op"] == "abort":
    send({"op": "error", "kind": "Aborted", "message": reply["message"]})
    continue
if request["p"] == 1.5:
    send({"op": "error", "kind": "ValueError", "message": "p must lie in (0, 1), got 1.5"})
    continue
if request["p"] == "0.5":
    send({"op": "error", "kind": "TypeError", "message": "p must be a number"})
    continue
send({"op": "explanation", "best_ids": [1, 0], "found": False, "importances": [None, 0.25],
      "drop": None, "request": request, "scores": reply["scores"]})
'''


def test_messages_are_json_lines_without_nan():
    """Catches a framing that lets NaN or infinities through (not JSON) or writes a message over several lines."""
    line = encode({"op": "scores", "scores": [[0.5, 0.5]], "text": "a\nb"})
    assert line.count(b"\n") == 1 and decode(line) == {"op": "scores", "scores": [[0.5, 0.5]], "text": "a\nb"}
    for bad in (b'{"op": "x", "v": NaN}', b'{"op": "x", "v": -Infinity}', b'[1, 2]', b'{"v": 1}'):
        with pytest.raises(ValueError):
            decode(bad)
    with pytest.raises(ValueError):
        encode({"op": "x", "v": math.inf})


def test_round_trip_carries_every_argument_and_every_answer_field(tmp_path):
    """Catches a request missing an argument or changing its value (numpy scalars must arrive as plain numbers, the
    seed as the factory's random_state), scores not reaching the server in order, and an answer whose null
    importance is not NaN or whose extra fields are lost. The expected values are written out by hand."""
    factory = command_factory(server(tmp_path, ECHO))
    assert factory.__name__ == "scripted" and get_tags(factory).exact and not get_tags(factory).seeded
    exp = factory(lambda texts: np.array([[0.1, 0.9], [0.75, 0.25]]), exact=True, random_state=7).explain(
        "a b", label=np.int64(1), p=np.float32(0.25), eps=0.5, max_len=2, n_samples=None)
    assert exp.request == {"op": "explain", "text": "a b", "label": 1, "p": 0.25, "eps": 0.5, "max_len": 2,
                           "n_samples": None, "exact": True, "seed": 7}
    assert exp.scores == [[0.1, 0.9], [0.75, 0.25]]
    assert exp.best_ids == (1, 0) and exp.found is False and exp.drop is None
    assert math.isnan(exp.importances[0]) and exp.importances[1] == 0.25
    assert not hasattr(exp, "threshold")  # a field the server did not send
    factory.close()


def test_random_state_becomes_the_seed_of_each_request(tmp_path):
    """Catches a factory that refuses the random states the claims pass (a SeedSequence, a Generator: the claims
    then error), that gives a Generator's explainer one fixed seed (its replicates would not be independent), or a
    SeedSequence's a changing one. The expected seeds are drawn here, from copies of the same states."""
    factory = command_factory(server(tmp_path, ECHO))
    ones = lambda texts: np.ones((len(texts), 2))  # noqa: E731 - a one-line model

    def seeds(random_state, calls=2):
        explainer = factory(ones, random_state=random_state)
        return [explainer.explain("a b").request["seed"] for _ in range(calls)]

    expected = int(np.random.default_rng(np.random.SeedSequence(5)).integers(2 ** 53))
    assert seeds(np.random.SeedSequence(5)) == [expected, expected]
    stream = np.random.default_rng(9)
    assert seeds(np.random.default_rng(9)) == [int(stream.integers(2 ** 53)), int(stream.integers(2 ** 53))]
    assert seeds(3) == [3, 3]
    with pytest.raises(TypeError, match="random_state must be"):
        factory(ones, random_state=1.5)
    factory.close()


def test_error_kinds_become_the_kits_exceptions_and_the_server_survives(tmp_path):
    """Catches an error message of kind ValueError/TypeError not raised as such (the kit's invalid-input checks
    count only those as refusals), a NaN sent as something else than the kit's own ValueError, and a model
    exception replaced by the server's abort error instead of being raised as itself."""
    factory = command_factory(server(tmp_path, ECHO))
    ok = factory(lambda texts: np.ones((len(texts), 2)))
    with pytest.raises(ValueError, match=r"p must lie in \(0, 1\)"):
        ok.explain("a b", p=1.5)
    with pytest.raises(TypeError, match="p must be a number"):
        ok.explain("a b", p="0.5")
    with pytest.raises(ValueError, match="p must be a finite number"):
        ok.explain("a b", p=math.nan)
    with pytest.raises(TypeError, match="label must be a JSON value"):
        ok.explain("a b", label=object())

    def broken(texts):
        raise KeyError("model down")

    with pytest.raises(KeyError, match="model down"):
        factory(broken).explain("a b")
    assert ok.explain("a b").best_ids == (1, 0)
    factory.close()


@pytest.mark.parametrize("body, expected", [
    ("raise SystemExit(3)", r"(?s)exited while the kit waited for an explanation.*exit status 3.*a log line"),
    ("print('not json', flush=True)", r"malformed message.*not json"),
    ("send({'op': 'explanation', 'drop': float('nan'), 'best_ids': []})", r"malformed message.*NaN is not JSON"),
    ("send({'op': 'hello', 'protocol': 1})", r"unexpected op 'hello' while explaining"),
    ("import time; time.sleep(30)", r"no message within 0.5 s"),
    # asks for many scores, then reads nothing: the reply (about 600 kB) outgrows the pipe's buffer
    ("send({'op': 'score', 'texts': ['a b'] * 20000}); import time; time.sleep(30)",
     r"read nothing for 0.5 s while the kit sent"),
])
def test_a_broken_server_gives_a_protocol_error_not_a_hang(tmp_path, body, expected):
    """Catches a kit that hangs on a silent server (or on one that stops reading its stdin), accepts a line that is not protocol JSON (or NaN), or loses the
    server's exit status and stderr; the killed server is reaped (no zombie) and the next call starts a new one."""
    factory = command_factory(server(tmp_path, body), timeout=0.5)
    first = factory._server.process
    with pytest.raises(ProtocolError, match=expected) as caught:
        factory(lambda texts: np.ones((len(texts), 2))).explain("a b")
    assert "explainer command" in str(caught.value)
    assert first.returncode is not None  # reaped: waited for, not a zombie
    with pytest.raises(ProtocolError):
        factory(lambda texts: np.ones((len(texts), 2))).explain("a b")  # a new server, which breaks again
    assert factory._server is None
    factory.close()


def test_a_crashing_server_is_an_error_outcome_of_the_kit(tmp_path):
    """Catches a crash that escapes check_explainer (or hangs it) instead of ending the check as an "error" whose
    message names the command and the exit status; the next check gets a new server."""
    factory = command_factory(server(tmp_path, "raise SystemExit(5)"), timeout=5)
    report = check_explainer(factory, checks=["check_declared_outputs_are_present", "check_invalid_eps_is_refused"])
    assert [o.status for o in report.outcomes] == ["error", "error"]
    assert all("ProtocolError" in o.message and "exit status 5" in o.message for o in report.outcomes)
    factory.close()


@pytest.mark.parametrize("hello, expected", [
    ("raise SystemExit(0)", r"exited while the kit waited for the server's hello"),
    ("send({'op': 'hello', 'protocol': 2})", r"speaks protocol 2; this kit speaks 1"),
    ("send({'op': 'hello', 'protocol': 1, 'tags': {'exakt': True}})", r"unknown fields \['exakt'\]"),
    ("send({'op': 'hello', 'protocol': 1, 'tags': {'baseline': 'median'}})", r"baseline must be one of"),
    ("send({'op': 'hello', 'protocol': 1, 'tags': {'fred_options': True}})", r"no FRED constructor options"),
])
def test_a_bad_hello_is_refused_with_the_reason(tmp_path, hello, expected):
    """Catches a kit that guesses another version, ignores a misspelt tag, or accepts tags it cannot honour."""
    with pytest.raises(ProtocolError, match=expected):
        command_factory(server(tmp_path, "pass", hello=hello), timeout=5)


def test_bad_commands_are_refused():
    """Catches a command that is silently split wrongly or a missing program that surfaces as a bare OSError."""
    with pytest.raises(ProtocolError, match="cannot start"):
        command_factory("/nonexistent/explainer --flag")
    with pytest.raises(ValueError, match="empty command"):
        command_factory("   ")
    with pytest.raises(TypeError, match="command must be"):
        command_factory(42)
    with pytest.raises(ValueError, match="timeout"):
        command_factory([sys.executable, "-c", ""], timeout=0)


def test_exact_is_refused_without_the_tag(tmp_path):
    """Catches a factory that asks a server for an exact mode its hello does not declare."""
    factory = command_factory(server(tmp_path, ECHO, hello='send({"op": "hello", "protocol": 1})'))
    with pytest.raises(NotImplementedError, match="no exact mode"):
        factory(lambda texts: None, exact=True)
    factory.close()


def test_cli_usage_error_exits_2_with_one_line(capsys):
    """Catches a bad --explainer-cmd that gives a traceback or the exit status of a failing check (1)."""
    assert cli_main(["--explainer-cmd", "/nonexistent/explainer", "--only", "kit"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--explainer-cmd" in err and "cannot start" in err


def test_no_server_outlives_its_factory(tmp_path):
    """Catches a server left running (or unreaped: a zombie) after its factory is closed or collected (the same
    finalizer runs at exit)."""
    factory = command_factory(server(tmp_path, ECHO))
    process = factory._server.process
    factory.close()
    assert process.returncode == 0  # it read end of input and exited by itself
    factory = command_factory(server(tmp_path, ECHO))
    factory(lambda texts: np.ones((len(texts), 2))).explain("a b")
    process = factory._server.process
    del factory
    gc.collect()
    assert process.returncode == 0 and not Path(f"/proc/{process.pid}").exists()


def test_example_server_imports_nothing_of_the_project():
    """Catches an example that would pass the kit by calling the reference (it must stand for another language):
    the server and the algorithm it serves (plain_fred.py beside it) import the standard library and numpy only."""
    for path in (EXAMPLE, EXAMPLE.with_name("plain_fred.py")):
        tree = ast.parse(path.read_text())
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert imported <= {"__future__", "json", "math", "operator", "sys", "typing", "numpy", "plain_fred"}, (path, imported)


def test_example_server_passes_kit_checks():
    """The example server (docs/examples/explainer_server.py, independent of this project's code) passes the
    checks of the exact drops, the exhaustive search against the referee, the outputs and invalid arguments:
    catches a protocol that mangles positions, NaN importances, labels or refusals on the way. (The whole kit on
    it is the command in docs/protocol.md.)"""
    factory = command_factory([sys.executable, str(EXAMPLE)])
    report = check_explainer(factory, checks=[
        "check_importances_are_exact_drops", "check_search_is_exhaustive_on_beam_counterexample",
        "check_declared_outputs_are_present", "check_invalid_p_is_refused", "check_invalid_label_is_refused"])
    factory.close()
    assert report.ok and report.counts()["passed"] == 5, str(report)


def test_the_authors_driver_speaks_the_protocol_version_of_the_kit():
    """Catches the protocol's version bumped on one side only: the authors' driver cannot import the project (its
    ``fred`` would clash with the released code's), so it types the version again; both files are read here."""
    import ast
    from pathlib import Path

    import proofs_checks

    def version(name: str) -> int:
        tree = ast.parse((Path(proofs_checks.__file__).parent / "subject" / name).read_text())
        (value,) = [n.value for n in tree.body if isinstance(n, ast.Assign)
                    and any(getattr(t, "id", None) == "PROTOCOL_VERSION" for t in n.targets)]
        return ast.literal_eval(value)

    assert version("_authors_driver.py") == version("protocol.py")
