"""statecast-demo's command line, environment variables and logs, run as an operator
would: --help, bad input, STATECAST_* variables against flags, JSON log lines."""

import json
import os
import re
import signal
import subprocess
import tempfile

from websockets.sync.client import connect

from demo_binary import ROOT, demo_binary

# Every option of the demo and the environment variable that can set it.
OPTIONS = {
    "--host": "STATECAST_HOST",
    "--port": "STATECAST_PORT",
    "--public": "STATECAST_PUBLIC",
    "--data": "STATECAST_DATA",
    "--previous-secret": "STATECAST_PREVIOUS_SECRET",
    "--tls-cert": "STATECAST_TLS_CERT",
    "--tls-key": "STATECAST_TLS_KEY",
    "--allow-origin": "STATECAST_ALLOW_ORIGIN",
    "--allow-host": "STATECAST_ALLOW_HOST",
    "--metrics-allow": "STATECAST_METRICS_ALLOW",
    "--echo": "STATECAST_ECHO",
    "--max-message-size": "STATECAST_MAX_MESSAGE_SIZE",
    "--ping-interval": "STATECAST_PING_INTERVAL",
    "--idle-timeout": "STATECAST_IDLE_TIMEOUT",
    "--session-grace": "STATECAST_SESSION_GRACE",
    "--page-session-grace": "STATECAST_PAGE_SESSION_GRACE",
    "--action-burst": "STATECAST_ACTION_BURST",
    "--max-new-rooms-per-viewer": "STATECAST_MAX_NEW_ROOMS_PER_VIEWER",
    "--max-new-rooms-per-address": "STATECAST_MAX_NEW_ROOMS_PER_ADDRESS",
    "--actions-per-second": "STATECAST_ACTIONS_PER_SECOND",
    "--log-level": "STATECAST_LOG_LEVEL",
    "--log-format": "STATECAST_LOG_FORMAT",
}


def clean_environment(**variables):
    """The test's environment without any STATECAST_ variable, plus `variables`."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("STATECAST_")}
    environment.update(variables)
    return environment


def run(*flags, **variables):
    return subprocess.run(
        [str(demo_binary()), *flags], env=clean_environment(**variables), capture_output=True, text=True, timeout=30
    )


class Demo:
    """A demo process with stdout and stderr kept apart; stopped with SIGTERM. A variable
    given as None is left out of its environment."""

    def __init__(self, *flags, **variables):
        self.data = tempfile.TemporaryDirectory(prefix="statecast-test-")
        defaults = {"STATECAST_PUBLIC": str(ROOT / "Public"), "STATECAST_DATA": self.data.name}
        self.process = subprocess.Popen(
            [str(demo_binary()), *flags],
            env={k: v for k, v in clean_environment(**{**defaults, **variables}).items() if v is not None},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.stdout = []
        for line in self.process.stdout:
            self.stdout.append(line)
            if line.startswith("listening on "):
                self.origin = line.split()[-1]
                break
        else:
            raise RuntimeError("statecast-demo exited before listening:\n" + self.process.stderr.read())
        self.port = int(self.origin.rsplit(":", 1)[1])

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=15)
        self.stdout.extend(out.splitlines(keepends=True))
        self.stderr = err
        self.data.cleanup()
        return self.process.returncode


def free_port():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def help_entries(text):
    """--help's option entries: the option's first line and its indented continuation."""
    entries = {}
    current = None
    for line in text.splitlines():
        match = re.match(r"^  (-h, )?(--[a-z-]+)", line)
        if match:
            current = match.group(2)
            entries[current] = line
        elif current and line.startswith("    "):
            entries[current] += " " + line.strip()
        else:
            current = None
    return {option: " ".join(entry.split()) for option, entry in entries.items()}


def test_help_is_argument_parsers_and_names_each_options_variable():
    result = run("--help")
    assert result.returncode == 0, result.stderr
    assert "USAGE: statecast-demo" in result.stdout
    assert "-h, --help" in result.stdout and "Show help information." in result.stdout
    entries = help_entries(result.stdout)
    for option, variable in OPTIONS.items():
        assert option in entries, f"{option} is not in --help:\n{result.stdout}"
        assert variable in entries[option], f"{option}'s help does not name {variable}: {entries[option]}"
    assert "flag on the command line wins over the environment" in " ".join(result.stdout.split())


def test_bad_input_exits_2_with_a_message_naming_it():
    cases = [
        (["--port", "abc"], {}, "The value 'abc' is invalid for '--port"),
        (["--port", "70000"], {}, "--port must be between 0 and 65535, not 70000"),
        (["--ping-interval", "0"], {}, "--ping-interval must be above 0"),
        (["--log-level", "loud"], {}, "The value 'loud' is invalid for '--log-level"),
        (["--tls-cert", "server.pem"], {}, "--tls-cert and --tls-key go together"),
        (["--no-such-flag"], {}, "Unknown option '--no-such-flag'"),
        ([], {"STATECAST_PORT": "eighty"}, 'STATECAST_PORT="eighty" is not a valid value for --port'),
        ([], {"STATECAST_ACTION_BURST": "-1"}, "STATECAST_ACTION_BURST (--action-burst) must be 0 or more, not -1"),
        ([], {"STATECAST_ECHO": "maybe"}, 'STATECAST_ECHO="maybe" is not a valid value for --echo'),
    ]
    for flags, variables, message in cases:
        result = run(*flags, **variables)
        assert result.returncode == 2, (flags, variables, result.returncode, result.stderr)
        assert message in result.stderr, (flags, variables, result.stderr)
        assert "listening on" not in result.stdout


def test_an_environment_variable_sets_an_option_and_a_flag_overrides_it():
    port = free_port()
    by_environment = Demo(STATECAST_PORT=str(port))
    try:
        assert by_environment.port == port
    finally:
        assert by_environment.stop() == 0
    by_flag = Demo("--port", "0", STATECAST_PORT=str(port))
    try:
        assert by_flag.port != port
    finally:
        assert by_flag.stop() == 0


def test_a_limit_from_the_environment_applies_unless_a_flag_overrides_it():
    message = json.dumps({"op": "join", "ref": 1, "topic": "counter", "params": {"pad": "x" * 2000}})

    def reply_to_a_large_join(demo):
        with connect(f"ws://127.0.0.1:{demo.port}/ws", subprotocols=["statecast.v1"], open_timeout=10) as ws:
            json.loads(ws.recv(timeout=10))  # hello
            ws.send(message)
            while True:
                reply = json.loads(ws.recv(timeout=10))
                if reply["op"] == "reply":
                    return reply

    small = Demo("--port", "0", STATECAST_MAX_MESSAGE_SIZE="1000")
    try:
        assert reply_to_a_large_join(small)["error"]["code"] == "too_large"
    finally:
        assert small.stop() == 0
    large = Demo("--port", "0", "--max-message-size", "5000", STATECAST_MAX_MESSAGE_SIZE="1000")
    try:
        assert reply_to_a_large_join(large)["status"] == "ok"
    finally:
        assert large.stop() == 0


def test_json_logs_are_one_object_per_line_with_label_and_metadata():
    demo = Demo("--port", "0", "--log-format", "json", STATECAST_LOG_LEVEL="debug")
    try:
        with connect(f"ws://127.0.0.1:{demo.port}/ws", subprotocols=["statecast.v1"], open_timeout=10) as ws:
            session = json.loads(ws.recv(timeout=10))["session"]
    finally:
        assert demo.stop() == 0
    assert demo.stdout[-1] == "stopped\n"
    lines = demo.stderr.splitlines()
    assert lines, "no log lines"
    events = [json.loads(line) for line in lines]
    for event in events:
        assert list(event) == ["time", "level", "label", "message", "metadata"], event
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", event["time"]), event
        assert isinstance(event["metadata"], dict)
    serving = next(e for e in events if e["message"] == "serving")
    assert serving["label"] == "statecast" and serving["level"] == "info"
    assert serving["metadata"]["port"] == str(demo.port)
    opened = next(e for e in events if e["message"] == "session opened")
    assert opened["label"] == "statecast.sessions" and opened["level"] == "debug"
    # Logs show a prefix of the session id, never the whole credential.
    assert opened["metadata"]["session"] == session[:8]
    assert session not in demo.stderr


def test_the_default_log_level_leaves_out_debug_lines():
    demo = Demo("--port", "0", STATECAST_LOG_FORMAT="json")
    try:
        with connect(f"ws://127.0.0.1:{demo.port}/ws", subprotocols=["statecast.v1"], open_timeout=10) as ws:
            ws.recv(timeout=10)
    finally:
        assert demo.stop() == 0
    events = [json.loads(line) for line in demo.stderr.splitlines()]
    assert {e["level"] for e in events} == {"info"}, events
    assert [e["message"] for e in events] == ["serving", "draining", "stopped"]
