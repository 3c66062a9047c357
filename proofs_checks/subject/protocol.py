"""An explainer in any language: a command speaking the kit's JSON-lines protocol (``docs/protocol.md``), seen as
a kit factory.

:func:`command_factory` starts ``command`` once, reads its ``hello`` (protocol version, name, tags) and returns a
factory usable wherever one is (``check_explainer``, ``compare``, ``parametrize_with_checks``,
``python -m proofs_checks --explainer-cmd``). The black box stays in this process: while explaining, the server
asks the kit to score texts, and the kit answers with the classifier's scores.

Failures are outcomes, never hangs: a server that exits, writes a line that is not a protocol message, or stays
silent longer than ``timeout`` seconds raises :class:`ProtocolError` (naming the command, with the tail of its
stderr), its process is killed, and the next explanation starts a new one. An ``error`` message of the server is
raised as ValueError or TypeError when its kind says so (the kit's invalid-input checks count those as refusals),
else as :class:`ExplainerError`. Every process is stopped when its factory is collected or Python exits.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import selectors
import shlex
import subprocess
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping, Sequence

import numpy as np

from fred_constants import EPS, MAX_LEN, P

from ..kit.tags import ExplainerTags
from ..statistics.seeds import statistical_seed

#: The protocol version this kit speaks (``hello.protocol``).
PROTOCOL_VERSION = 1
#: Seconds the kit waits for any one message of the server (hello, score request, answer) by default.
TIMEOUT_SECONDS = 300.0
#: Seconds a server gets to exit after its stdin is closed, before it is killed.
EXIT_SECONDS = 5.0
#: Seeds the kit derives from a SeedSequence or a Generator lie below this (integers exact in IEEE doubles).
SEED_BOUND = 2 ** 53
#: Characters of the server's stderr quoted in an error.
STDERR_TAIL = 2000


class ProtocolError(RuntimeError):
    """The server broke the protocol: it exited, timed out, or wrote something that is not a protocol message."""


class ExplainerError(RuntimeError):
    """The server answered an explanation with an ``error`` of a kind other than ValueError or TypeError."""


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON (the protocol refuses NaN and infinities; send null for no value)")


def decode(line: bytes | str) -> dict:
    """One protocol message: a JSON object on one line, without NaN or infinities (ValueError otherwise).

    >>> decode(b'{"op": "score", "texts": ["a b"]}')
    {'op': 'score', 'texts': ['a b']}
    >>> decode('{"op": "explanation", "drop": NaN}')
    Traceback (most recent call last):
    ...
    ValueError: NaN is not JSON (the protocol refuses NaN and infinities; send null for no value)
    """
    message = json.loads(line, parse_constant=_refuse_constant)
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise ValueError(f"a protocol message is a JSON object with a string 'op', got {line!r:.200}")
    return message


def encode(message: dict) -> bytes:
    """``message`` as one line of JSON (ValueError on NaN or infinities, TypeError on what JSON cannot hold).

    >>> encode({"op": "scores", "scores": [[0.25, 0.75]]})
    b'{"op":"scores","scores":[[0.25,0.75]]}\\n'
    """
    return (json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n").encode()


def _plain(value, name: str):
    """A request argument as JSON holds it: numpy scalars become Python numbers; NaN, infinities and objects JSON
    cannot hold are refused here, naming the argument (JSON has no NaN: the protocol cannot carry it)."""
    if isinstance(value, (np.bool_, np.integer, np.floating)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number (the protocol carries no NaN or infinity), got {value}")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, name) for v in value]
    raise TypeError(f"{name} must be a JSON value (str, number, bool, null or a list of them), "
                    f"got {type(value).__name__}")


@dataclass(frozen=True)
class RemoteExplanation:
    """A server's answer: ``best_ids`` (positions of ``text.split()``), ``found`` and ``importances`` (null -> NaN)
    when sent, and every other field the server sent as an attribute (``drop``, ``threshold``, ...)."""

    best_ids: tuple
    found: object = None
    importances: tuple | None = None
    fields: Mapping = field(default_factory=dict, repr=False)

    def __getattr__(self, name):
        fields_ = object.__getattribute__(self, "fields")
        if name in fields_:
            return fields_[name]
        raise AttributeError(f"the server's explanation has no field {name!r}")

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary: the fields the server sent."""
        return {"best_ids": list(self.best_ids), "found": self.found,
                "importances": None if self.importances is None else list(self.importances), **self.fields}


def _explanation(message: dict) -> RemoteExplanation:
    best_ids = message.get("best_ids")
    if not isinstance(best_ids, list):
        raise ExplainerError(f"an explanation needs best_ids, a list of positions; got {best_ids!r:.200}")
    importances = message.get("importances")
    if isinstance(importances, list):
        importances = tuple(math.nan if v is None else v for v in importances)
    rest = {k: v for k, v in message.items() if k not in ("op", "best_ids", "found", "importances")}
    return RemoteExplanation(tuple(best_ids), message.get("found"), importances, MappingProxyType(rest))


def _tags(hello: dict) -> ExplainerTags:
    """The tags a hello declares; what it omits takes the kit's defaults."""
    declared = hello.get("tags", {})
    if not isinstance(declared, dict):
        raise ProtocolError(f"hello.tags must be an object, got {declared!r:.200}")
    if declared.get("fred_options"):
        raise ProtocolError(f"protocol version {PROTOCOL_VERSION} carries no FRED constructor options: "
                            "hello.tags.fred_options must be false")
    known = set(ExplainerTags.__dataclass_fields__)
    unknown = sorted(set(declared) - known)
    if unknown:
        raise ProtocolError(f"hello.tags has unknown fields {unknown}; known: {sorted(known)}")
    try:
        return ExplainerTags(**declared)
    except (TypeError, ValueError) as err:
        raise ProtocolError(f"hello.tags: {err}") from None


def _stop(process: subprocess.Popen, log) -> None:
    """Close the server's stdin (its signal to exit), wait, kill it if it does not, reap it (no zombie)."""
    if process.poll() is None:
        try:
            process.stdin.close()
        except OSError:  # already broken: the server is gone or going
            pass
        try:
            process.wait(timeout=EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()
        except OSError:
            pass
    log.close()


class _Server:
    """One running server: line-framed messages with a deadline per message."""

    def __init__(self, argv: list[str], timeout: float):
        self.argv, self.timeout = argv, timeout
        self.log = tempfile.TemporaryFile(mode="w+b")
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        except OSError as err:
            self.log.close()
            raise ProtocolError(f"cannot start the explainer command {shlex.join(argv)!r}: {err}") from None
        self._finalizer = weakref.finalize(self, _stop, self.process, self.log)
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        os.set_blocking(self.process.stdin.fileno(), False)  # writes go through write(), with a deadline
        self._writable = selectors.DefaultSelector()
        self._writable.register(self.process.stdin, selectors.EVENT_WRITE)

    def fail(self, what: str) -> ProtocolError:
        """Kill the server and describe why, with the tail of its stderr."""
        if self.process.poll() is None:
            self.process.kill()
        status = self.process.wait()
        self.log.seek(0)
        tail = self.log.read().decode(errors="replace")[-STDERR_TAIL:]
        self.close()
        return ProtocolError(f"explainer command {shlex.join(self.argv)!r}: {what} (exit status {status}); "
                             f"its stderr ends with:\n{tail}")

    def send(self, message: dict) -> None:
        self.write(encode(message), message["op"])

    def write(self, line: bytes, op: str) -> None:
        """Write one encoded message, within the timeout: stdin is non-blocking, so a server that stops reading
        while a message larger than the pipe's buffer is sent is killed after ``timeout`` seconds, not waited for."""
        deadline, view = time.monotonic() + self.timeout, memoryview(line)
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not self._writable.select(left):
                raise self.fail(f"the server read nothing for {self.timeout:g} s while the kit sent {op!r}")
            try:
                view = view[os.write(self.process.stdin.fileno(), view):]
            except BlockingIOError:  # the reader emptied less than select promised: wait again
                continue
            except OSError:  # BrokenPipeError and the like: the server is gone
                raise self.fail(f"the server closed its stdin while the kit sent {op!r}") from None

    def receive(self, waiting_for: str) -> dict:
        deadline = time.monotonic() + self.timeout
        chunks = [self._buffer]  # joined once: a message of many megabytes arrives in many chunks
        while b"\n" not in chunks[-1]:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise self.fail(f"no message within {self.timeout:g} s while the kit waited for {waiting_for}")
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                raise self.fail(f"the server exited while the kit waited for {waiting_for}")
            chunks.append(chunk)
        line, self._buffer = b"".join(chunks).split(b"\n", 1)
        try:
            return decode(line)
        except ValueError as err:
            raise self.fail(f"malformed message while the kit waited for {waiting_for}: {err}; "
                            f"line {line[:200]!r}") from None

    def close(self) -> None:
        self._finalizer()  # _stop, once
        for selector in (self._selector, self._writable):
            if selector.get_map() is not None:  # None once closed
                selector.close()


class CommandFactory:
    """A kit factory over a server command (see :func:`command_factory`)."""

    def __init__(self, argv: list[str], timeout: float):
        self.argv, self.timeout = argv, timeout
        self._lock = threading.Lock()
        self._server, self.hello, self.fred_tags = self._start()
        name = self.hello.get("name")
        self.__name__ = name if isinstance(name, str) and name else f"command {shlex.join(argv)}"

    def _start(self) -> tuple[_Server, dict, ExplainerTags]:
        """A new server, its hello and its tags (a restarted server must declare the tags of the first)."""
        server = _Server(self.argv, self.timeout)
        hello = server.receive("the server's hello")
        if hello.get("op") != "hello":
            raise server.fail(f"the first message must be a hello, got op {hello.get('op')!r}")
        if hello.get("protocol") != PROTOCOL_VERSION:
            raise server.fail(f"the server speaks protocol {hello.get('protocol')!r}; this kit speaks "
                              f"{PROTOCOL_VERSION}")
        try:
            tags = _tags(hello)
        except ProtocolError as err:
            raise server.fail(str(err)) from None
        if hasattr(self, "fred_tags") and tags != self.fred_tags:
            raise server.fail("the restarted server declares other tags than at its first start")
        return server, hello, tags

    def __call__(self, classifier_fn: Callable, exact: bool = False, random_state=None) -> "RemoteExplainer":
        """An explainer of ``classifier_fn``: ``exact`` needs the ``exact`` tag (NotImplementedError otherwise).

        ``random_state`` gives the ``seed`` of its requests, as ``numpy.random.default_rng(random_state)`` gives
        ``fred.Fred``'s draws: an int (default ``statistical_seed(0)``) or a SeedSequence is one seed for every
        explanation; a Generator gives a new seed per explanation, drawn from it (a stream, as in ``Fred``).
        Derived seeds are below 2**53, exact in any language's JSON numbers.
        """
        if exact and not self.fred_tags.exact:
            raise NotImplementedError(f"{self.__name__} declares no exact mode (hello.tags.exact is false)")
        seed = statistical_seed(0) if random_state is None else random_state
        if isinstance(seed, np.random.SeedSequence):
            seed = int(np.random.default_rng(seed).integers(SEED_BOUND))
        if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, np.random.Generator)):
            raise TypeError(f"random_state must be None, an int, a SeedSequence or a Generator, "
                            f"got {type(seed).__name__}")
        if isinstance(seed, numbers.Integral) and seed < 0:  # numpy refuses it too; the protocol's seed is >= 0
            raise ValueError(f"random_state must be a non-negative integer, got {seed}")
        return RemoteExplainer(self, classifier_fn, bool(exact), seed if isinstance(seed, np.random.Generator)
                               else int(seed))

    def explain(self, classifier_fn: Callable, request: dict) -> RemoteExplanation:
        """Send one explain request and answer the server's score requests until its answer."""
        with self._lock:
            if self._server is None or self._server.process.poll() is not None:
                self._server = self._start()[0]
            try:
                return self._exchange(self._server, classifier_fn, request)
            except ProtocolError:
                self._server = None  # killed by _Server.fail: the next explanation starts a new one
                raise

    @staticmethod
    def _exchange(server: _Server, classifier_fn: Callable, request: dict) -> RemoteExplanation:
        server.send(request)
        raised = None
        while True:
            message = server.receive("an explanation or a score request")
            if message["op"] == "score":
                texts = message.get("texts")
                if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                    raise server.fail(f"a score request needs texts, a list of strings; got {texts!r:.200}")
                if raised is not None:  # the server asks again after an abort: abort again
                    server.send({"op": "abort", "message": "the kit's classifier raised"})
                    continue
                try:
                    # encode() refuses NaN and infinities (allow_nan=False): the model's error, raised below
                    reply = {"op": "scores", "scores": np.asarray(classifier_fn(texts), dtype=float).tolist()}
                    line = encode(reply)
                except Exception as err:  # noqa: BLE001 - re-raised once the server has unwound
                    raised = err
                    line = encode({"op": "abort", "message": f"{type(err).__name__}: {err}"[:STDERR_TAIL]})
                server.write(line, "scores")
                continue
            if raised is not None and message["op"] in ("error", "explanation"):
                raise raised
            if message["op"] == "explanation":
                return _explanation(message)
            if message["op"] == "error":
                kind, text = str(message.get("kind")), str(message.get("message", ""))
                error = {"ValueError": ValueError, "TypeError": TypeError}.get(kind, ExplainerError)
                raise error(f"the explainer refused ({kind}): {text}")
            raise server.fail(f"unexpected op {message['op']!r} while explaining")

    def close(self) -> None:
        """Stop the server (also done when the factory is collected, or at exit)."""
        with self._lock:
            if self._server is not None:
                self._server.close()
                self._server = None

    def __reduce__(self):  # a copy in another process starts its own server
        return (CommandFactory, (self.argv, self.timeout))


class RemoteExplainer:
    """The kit's ``explain`` over a server; arguments go as given (the server validates them)."""

    def __init__(self, factory: CommandFactory, classifier_fn: Callable, exact: bool,
                 seed: int | np.random.Generator):
        self.factory, self.classifier_fn, self.exact, self.seed = factory, classifier_fn, exact, seed

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None) -> RemoteExplanation:
        """Send one ``explain`` request to the server and answer its scoring requests until it replies; the reply as
        an explanation, its error as ValueError or TypeError."""
        arguments = {"text": text, "label": label, "p": p, "eps": eps, "max_len": max_len, "n_samples": n_samples}
        seed = int(self.seed.integers(SEED_BOUND)) if isinstance(self.seed, np.random.Generator) else self.seed
        request = {"op": "explain", **{k: _plain(v, k) for k, v in arguments.items()},
                   "exact": self.exact, "seed": seed}
        return self.factory.explain(self.classifier_fn, request)


def command_factory(command: str | Sequence[str], *, timeout: float = TIMEOUT_SECONDS) -> CommandFactory:
    """The kit factory of a server command speaking the protocol of ``docs/protocol.md``.

    Parameters
    ----------
    command : a command line (split as a POSIX shell would, without running a shell) or its argument list.
    timeout : seconds the kit waits for any one message of the server.

    Raises
    ------
    TypeError, ValueError
        A command that is not a non-empty str or list of str; a timeout that is not a positive number.
    ProtocolError
        The command cannot start, or its hello is missing, malformed, of another version, or declares bad tags.
    """
    if isinstance(command, str):
        argv = shlex.split(command)
    elif isinstance(command, Sequence) and all(isinstance(a, (str, os.PathLike)) for a in command):
        argv = [os.fspath(a) for a in command]
    else:
        raise TypeError(f"command must be a str or a list of str, got {type(command).__name__}")
    if not argv:
        raise ValueError("command must name a program, got an empty command")
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    return CommandFactory(argv, float(timeout))
