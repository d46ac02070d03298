"""The data directory as a local attacker would find it: its folder and files are the
service user's alone, a secret file another user could have written is refused, and the
default is not the shared temporary directory."""

import os
import stat
import tempfile

from test_command_line import Demo, run

SECRET = "x" * 40


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_data_directory_and_its_files_are_the_owners_alone():
    with tempfile.TemporaryDirectory() as parent:
        data = os.path.join(parent, "data")
        os.mkdir(data, 0o755)  # as an earlier version, or `mkdir`, left it
        os.chmod(data, 0o755)
        demo = Demo(STATECAST_DATA=data)
        try:
            files = sorted(os.listdir(data))
            assert "secret" in files and "statecast.sqlite" in files, files
            assert mode(data) == 0o700
            for name in files:
                assert mode(os.path.join(data, name)) == 0o600, (name, oct(mode(os.path.join(data, name))))
        finally:
            assert demo.stop() == 0


def refused_start(data):
    """Runs the demo on `data`; it must exit at once with an error naming the secret."""
    result = run("--port", "0", "--data", data)
    assert result.returncode != 0, result.stdout
    assert "listening on" not in result.stdout
    assert os.path.join(data, "secret") in result.stderr, result.stderr
    return result.stderr


def test_a_secret_file_another_user_could_have_written_is_refused():
    with tempfile.TemporaryDirectory() as data:
        secret = os.path.join(data, "secret")
        with open(secret, "w") as file:
            file.write(SECRET)
        os.chmod(secret, 0o666)
        assert "writable by other users" in refused_start(data)
        os.chmod(secret, 0o600)
        if os.geteuid() == 0:
            os.chown(secret, 65534, 65534)
            assert "owned by another user" in refused_start(data)
            os.chown(secret, 0, 0)
        os.rename(secret, secret + ".target")
        os.symlink(secret + ".target", secret)
        refused_start(data)


def test_the_default_data_directory_is_the_users_own_not_the_temporary_one():
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as temporary:
        demo = Demo(STATECAST_DATA=None, HOME=home, TMPDIR=temporary, XDG_STATE_HOME=None, STATE_DIRECTORY=None)
        try:
            data = os.path.join(home, ".local", "state", "statecast-demo")
            assert os.path.exists(os.path.join(data, "secret"))
            assert mode(data) == 0o700
            assert os.listdir(temporary) == []
        finally:
            assert demo.stop() == 0
