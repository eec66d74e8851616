#!/usr/bin/env python3
"""A host of the Wework desktop executor in Python, with the standard library only.

Without an OpenAI account, it first starts the scripted model: `wework-scripted-model --script
script.json --codex-home <executor home>/codex` serves script.json on loopback, writes itself into the
executor's Codex config and prints its URL in one line, which host.py reads. Then it starts the executor
over stdio, creates a task, sends one message whose turn calls the forms plugin's `choose_strategy`
tool, answers the plugin's form card, checks that malformed requests are refused (invalid params, an
unknown task, an unknown method), and prints a summary as its last line (one JSON object). The exit
code is 0 only when every step held.

The protocol is docs/host-protocol.md: JSON-RPC 2.0, one JSON object per line on stdin and stdout.
Options and environment variables: README.md next to this file.
"""
import argparse
import collections
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

MAX_LINE = 8 * 1024 * 1024  # the protocol's bound on one message (docs: Limits and abuse)
LOG_TAIL = 64 * 1024  # how much of the executor's log (its stderr) is kept, shown when a step fails


class Failure(Exception):
    """A step did not hold; the message says which and why."""


def stop_process(proc, graceful_wait):
    """Closes the child's stdin (which ends it), then terminates and kills it if it lingers; returns its exit code."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    for action, wait in ((None, graceful_wait), (proc.terminate, 5), (proc.kill, 5)):
        if action is not None:
            action()
        try:
            return proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    return None


class StderrTail:
    """A child's stderr, drained by a thread (so the child never blocks on it) keeping its last LOG_TAIL bytes."""

    def _drain_stderr(self):
        for line in iter(self.proc.stderr.readline, b""):
            self.log.append(line[:LOG_TAIL])
            self.log_size += len(self.log[-1])
            while self.log_size > LOG_TAIL:
                self.log_size -= len(self.log.popleft())

    def log_tail(self):
        return b"".join(self.log).decode("utf-8", "replace")


class ScriptedModel(StderrTail):
    """`wework-scripted-model` as a child process: it serves a script on loopback and writes itself into a Codex home.

    The command prints one line once it listens and the config is written (with --json: {"url", "port",
    "configPath"}); it ends when its stdin closes.
    """

    def __init__(self, argv, timeout):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.log, self.log_size, self.lines = collections.deque(), 0, queue.Queue()
        self.threads = [threading.Thread(target=target, daemon=True) for target in (self._read_stdout, self._drain_stderr)]
        for thread in self.threads:
            thread.start()
        try:
            self.url = self._ready_url(timeout)
        except BaseException:  # a Failure, or SIGTERM while waiting: the command is stopped before it goes up
            self.stop()
            raise

    def _ready_url(self, timeout):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure(f"the scripted model printed no ready line within {timeout:g} s") from None
        try:
            ready = json.loads(line) if line else None
        except ValueError:
            ready = None
        if not isinstance(ready, dict) or not isinstance(ready.get("url"), str):
            code = self.exit_code_now()
            raise Failure(f"the scripted model did not start (exit code {code}): {self.log_tail().strip() or 'no ready line'}")
        return ready["url"]

    def exit_code_now(self):
        try:
            return self.proc.wait(5)
        except subprocess.TimeoutExpired:
            return None

    def _read_stdout(self):
        for line in iter(lambda: self.proc.stdout.readline(64 * 1024), b""):
            self.lines.put(line.decode("utf-8", "replace"))
        self.lines.put(None)

    def stop(self):
        code = stop_process(self.proc, 5)
        for thread in self.threads:
            thread.join(2)
        return code


class Executor(StderrTail):
    """The executor as a child process: requests go to its stdin, messages come from its stdout."""

    def __init__(self, argv, on_notification, on_card, timeout):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.on_notification, self.on_card, self.timeout = on_notification, on_card, timeout
        self.inbox = queue.Queue()  # filled by the reader thread, emptied by the main thread only
        self.log, self.log_size = collections.deque(), 0
        self.next_id, self.responses = 0, {}
        self.threads = [threading.Thread(target=target, daemon=True) for target in (self._read_stdout, self._drain_stderr)]
        for thread in self.threads:
            thread.start()

    def _read_stdout(self):
        """One message per line; a line is never held beyond MAX_LINE bytes."""
        while True:
            line = self.proc.stdout.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # skip the rest of the oversized line
                    line = self.proc.stdout.readline(MAX_LINE + 1)
                self.inbox.put(("bad", "a line over 8 MiB"))
                continue
            try:
                self.inbox.put(("message", json.loads(line)))
            except ValueError:
                self.inbox.put(("bad", "a line that is not JSON"))
        self.inbox.put(("closed", None))

    def exit_code(self, wait=5):
        try:
            return self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def send(self, message):
        try:
            self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except OSError:  # a broken pipe: the executor has ended
            raise Failure(f"the executor is gone (exit code {self.exit_code()})") from None

    def request(self, method, params, timeout=None):
        """Sends a request, handling what arrives meanwhile; returns the response ({"result"} or {"error"})."""
        self.next_id += 1
        request_id, timeout = self.next_id, timeout or self.timeout
        self.send({"id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while request_id not in self.responses:
            try:
                kind, message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Failure(f"no answer to {method} within {timeout:g} s") from None
            if kind == "closed":
                raise Failure(f"the executor ended (exit code {self.exit_code()}) while {method} waited for its answer")
            if kind == "bad" or not isinstance(message, dict):
                raise Failure(f"the executor wrote {message if kind == 'bad' else 'a message that is no JSON object'}")
            if "method" in message and "id" in message:  # the executor's request: card/show is its only one
                if message["method"] == "card/show":
                    self.send({"id": message["id"], "result": self.on_card(message["params"]["card"])})
                else:
                    self.send({"id": message["id"], "error": {"code": -32601, "message": "no such method"}})
            elif "method" in message:
                self.on_notification(message["method"], message.get("params") or {})
            elif "id" in message:
                self.responses[message["id"]] = message
        return self.responses.pop(request_id)

    def stop(self):
        """Closing stdin ends the executor and all it started; if it lingers, terminate, then kill it."""
        code = stop_process(self.proc, 15)
        for thread in self.threads:  # the pipes close with the process: the last lines are read
            thread.join(2)
        return code


def error_of(response):
    """(code, data.tag, message) of an error response; Nones for a result."""
    error = response.get("error") or {}
    return error.get("code"), (error.get("data") or {}).get("tag"), error.get("message")


class Transcript:
    """Prints the turn as it streams, answers its cards, and keeps what the summary reports."""

    def __init__(self, choose):
        self.choose, self.seqs, self.cards, self.tools, self.text, self.item_id = choose, [], [], [], "", None

    def notification(self, method, params):
        if isinstance(params.get("seq"), int):  # every notification carries seq (docs: Event stream)
            self.seqs.append(params["seq"])
        item = params.get("item") or {}
        if method == "transcript/agentMessageDelta":
            if params["itemId"] != self.item_id:
                self.item_id = params["itemId"]
                print("< codex: ", end="")
            self.text += params["delta"]
            print(params["delta"], end="", flush=True)
        elif method == "transcript/item" and item.get("type") == "agentMessage" and params["phase"] == "completed":
            print()
        elif method == "transcript/item" and item.get("type") == "mcpToolCall":
            call = f"{item['server']}.{item['tool']}"
            if params["phase"] == "started":
                print(f"  tool {call} {json.dumps(item.get('arguments'))}")
            else:
                content = (item.get("result") or {}).get("content") or []
                output = "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
                self.tools.append({"server": item["server"], "tool": item["tool"], "status": item["status"], "output": output})
                print(f"  tool {call} {item['status']}: {output!r}")
        elif method == "transcript/turnCompleted":
            print(f"  turn {params['turn']['status']}")

    def card(self, card):
        """A form: each question gets the option whose value (or label) is the chosen one, else its default."""
        print(f"  card {card['kind']} ({card['origin']}) from {card.get('serverName')}: {card.get('message')}")
        if card["kind"] != "form" or card.get("error"):  # not a form, or our answer was refused: do not loop
            self.cards.append({"cardId": card["cardId"], "kind": card["kind"], "answered": None, "error": card.get("error")})
            return {"action": "decline" if card["kind"] == "approval" else "cancel"}
        answers, values = {}, {}
        for question in card["questions"]:
            options = question.get("options") or []
            print(f"    {question['question']} " + ", ".join(f"{o['label']}={json.dumps(o.get('value'))}" for o in options))
            picked = [o for o in options if o.get("value") == self.choose or o["label"].lower() == self.choose.lower()][:1]
            answers[question["id"]] = {"answers": [o["label"] for o in picked] or list(question["defaultAnswers"])}
            values[question["id"]] = picked[0].get("value") if picked else None
            print(f"    -> {answers[question['id']]['answers']}")
        self.cards.append({"cardId": card["cardId"], "kind": card["kind"], "answered": answers, "values": values})
        return {"answers": answers}


def run(args, summary):
    """The steps in order; each records what it saw in `summary` and raises Failure when it does not hold."""
    transcript = Transcript(args.choose)
    model = None
    if args.script:
        # The scripted model first: the executor reads <executor home>/codex/config.toml when it starts.
        model_argv = [args.node, args.scripted_model, "--script", args.script, "--json"]
        model_argv += ["--codex-home", os.path.join(args.executor_home, "codex")]
        if args.record:
            model_argv += ["--record", args.record]
        model = ScriptedModel(model_argv, args.timeout)
        summary["scriptedModel"] = {"url": model.url}
        print(f"scripted model {model.url} ({os.path.basename(args.script)})")
    argv = [args.node, args.serve, "--stdio", "--executor-home", args.executor_home, "--workspace", args.workspace]
    for name in args.wait_for_plugin:
        argv += ["--wait-for-plugin", name]
    try:
        executor = Executor(argv, transcript.notification, transcript.card, args.timeout)
    except BaseException:
        if model is not None:
            summary["scriptedModel"]["exitCode"] = model.stop()
        raise

    def call(method, params, timeout=None):
        response = executor.request(method, params, timeout)
        if "error" in response:
            code, tag, message = error_of(response)
            raise Failure(f"{method} was refused: {code} {message} (tag {tag})")
        return response["result"]

    held = False
    try:
        info = call("executor/info", {})
        summary.update(executor=info["executor"], protocolVersion=info["protocolVersion"], codexUserAgent=info["codexUserAgent"])
        print(f"executor {info['executor']}, protocol {info['protocolVersion']}, codex {info['codexUserAgent']}")
        summary["subscribed"] = call("events/subscribe", {})
        selection = {"model": args.model, "options": {"permissionMode": "workspace"}}
        execution = {"workspace": args.workspace}
        task = call("task/create", {"taskId": args.task_id, "modelSelection": selection, "executionRequest": execution})["task"]
        summary["task"] = {"taskId": task["taskId"], "threadId": task["threadId"]}
        summary.update(cards=transcript.cards, tools=transcript.tools)  # filled as the turn streams
        print(f"> you: {args.message}")
        sent = call("message/send", {"taskId": args.task_id, "markdown": args.message}, args.turn_timeout)
        summary.update(send={"status": sent["status"], "error": sent["error"]}, agentMessage=transcript.text)
        if sent["status"] != "completed":
            raise Failure(f"the turn ended {sent['status']}: {sent['error']}")
        if not any(c["answered"] for c in transcript.cards) or not any(t["status"] == "completed" for t in transcript.tools):
            raise Failure("the turn had no answered form card or no completed tool call")
        # Params that do not decode: -32602; the message names the field and the expected type, never the value.
        malformed = {"taskId": 7, "modelSelection": {"model": None}, "executionRequest": execution}
        code, tag, message = error_of(executor.request("task/create", malformed))
        summary["invalidParams"] = {"code": code, "tag": tag, "message": message}
        if (code, tag) != (-32602, "InvalidHostParams") or "params.taskId" not in str(message):
            raise Failure(f"task/create with a number for taskId was not refused with -32602, tag InvalidHostParams, naming params.taskId: {code} {tag} {message}")
        # A method's own refusal carries the typed error's tag in data.tag.
        code, tag, message = error_of(executor.request("message/send", {"taskId": "no-such-task", "markdown": "hello"}))
        summary["unknownTask"] = {"code": code, "tag": tag}
        if (code, tag) != (-32001, "TaskNotFound"):
            raise Failure(f"message/send to an unknown task was not refused with -32001, tag TaskNotFound: {code} {tag} {message}")
        code, tag, message = error_of(executor.request("no/suchMethod", {}))
        summary["unknownMethod"] = {"code": code, "tag": tag}
        if (code, tag) != (-32601, "MethodNotFound"):
            raise Failure(f"an unknown method was not refused with -32601, tag MethodNotFound: {code} {tag} {message}")
        call("task/archive", {"taskId": args.task_id})
        # One seq counter for all notifications: on one connection each is one past the previous.
        summary["notifications"] = len(transcript.seqs)
        if any(b != a + 1 for a, b in zip(transcript.seqs, transcript.seqs[1:])):
            raise Failure(f"the notifications' seq has a gap or a duplicate: {transcript.seqs}")
        held = True
    finally:
        summary["executorExitCode"] = executor.stop()
        if model is not None:
            summary["scriptedModel"]["exitCode"] = model.stop()
        if not held:
            sys.stderr.write("--- the executor's log (tail) ---\n" + executor.log_tail())
            if model is not None:
                sys.stderr.write("--- the scripted model's log (tail) ---\n" + model.log_tail())


def stopped_by_signal(signum, _frame):
    signal.signal(signum, signal.SIG_IGN)  # once; the executor is stopped on the way out
    raise Failure(f"stopped by signal {signum}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "apps", "desktop-executor", "dist", "serve.js")
    scripted_model = os.path.join(here, "..", "..", "libs", "scripted-model", "bin", "wework-scripted-model.js")
    parser = argparse.ArgumentParser(description="Drives the Wework desktop executor over stdio (see README.md).")
    parser.add_argument("--serve", default=os.environ.get("WEWORK_SERVE_JS", built), help="the executor's serve.js")
    parser.add_argument("--executor-home", default=os.environ.get("WEWORK_EXECUTOR_HOME"))
    parser.add_argument("--workspace", default=os.environ.get("WEWORK_WORKSPACE"))
    parser.add_argument("--node", default=os.environ.get("NODE", "node"), help="the Node.js executable")
    parser.add_argument("--script", default=os.path.join(here, "script.json"), help="the scripted model's script (default: script.json here)")
    parser.add_argument("--no-script", dest="script", action="store_const", const=None, help="no scripted model: Codex's configured model and login")
    parser.add_argument("--scripted-model", default=os.environ.get("WEWORK_SCRIPTED_MODEL_JS", scripted_model), help="the wework-scripted-model command")
    parser.add_argument("--record", help="a file where the scripted model writes the requests it received")
    parser.add_argument("--wait-for-plugin", action="append", help="MCP servers a first turn waits for (default: forms)")
    parser.add_argument("--model", help="the task's model (default: the one config.toml names)")
    parser.add_argument("--choose", default="safe", help="the form option to pick, by value or label")
    parser.add_argument("--message", default="Call the forms plugin's choose_strategy tool, then say which strategy was chosen.")
    parser.add_argument("--task-id", default="python-host-1")
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for each answer")
    parser.add_argument("--turn-timeout", type=float, default=300, help="seconds to wait for the turn")
    args = parser.parse_args()
    args.wait_for_plugin = args.wait_for_plugin or ["forms"]
    if not args.executor_home or not args.workspace:
        parser.error("--executor-home and --workspace (or WEWORK_EXECUTOR_HOME and WEWORK_WORKSPACE) are required")
    if not os.path.isfile(args.serve):
        parser.error(f"the executor's serve entry {args.serve} is missing; build it: npx nx build desktop-executor")
    if args.script and not os.path.isfile(args.scripted_model):
        parser.error(f"the wework-scripted-model command {args.scripted_model} is missing")
    if args.record and not args.script:
        parser.error("--record needs the scripted model (it cannot be combined with --no-script)")
    signal.signal(signal.SIGTERM, stopped_by_signal)
    summary = {"ok": False}
    try:
        run(args, summary)
        summary["ok"] = True
    except (Failure, OSError, KeyError, TypeError) as error:  # OSError: node missing; Key/TypeError: an unexpected shape
        summary["failure"] = str(error) if isinstance(error, Failure) else f"{type(error).__name__}: {error}"
        print(f"FAILED: {summary['failure']}", file=sys.stderr)
    print(json.dumps(summary), flush=True)
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
