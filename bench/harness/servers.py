"""Starting, measuring and stopping the servers (Parlor and its XMPP peers, Prosody and ejabberd),
each pinned to one core."""
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# BENCH_PARLOR_BINARY compares builds (before/after a change); the default is the release build.
PARLOR = Path(os.environ.get("BENCH_PARLOR_BINARY", ROOT / ".build" / "release" / "parlor"))
PROSODY_TEMPLATE = ROOT / "bench" / "prosody" / "prosody.cfg.lua.in"
EJABBERD_TEMPLATE = ROOT / "bench" / "ejabberd" / "ejabberd.yml.in"
# Debian's ejabberd: its code (ERL_LIBS) and its SQLite schema.
EJABBERD_LIBS = os.environ.get("BENCH_EJABBERD_LIBS", "/usr/lib/x86_64-linux-gnu")
EJABBERD_SCHEMA = Path(os.environ.get("BENCH_EJABBERD_SCHEMA", "/usr/share/ejabberd/sql/lite.sql"))
SERVER_CORE = os.environ.get("BENCH_SERVER_CORE", "0")
# The machine is shared with other work: both servers and the harness get the same raised
# scheduling priority (the nice value of their autogroup, root only), see prioritize().
PRIORITY = int(os.environ.get("BENCH_PRIORITY", "-15"))


def prioritize(pid="self"):
    """Sets the autogroup nice value of a process's session (Linux; quietly skipped if not allowed)."""
    try:
        with open(f"/proc/{pid}/autogroup", "w") as autogroup:
            autogroup.write(str(PRIORITY))
    except OSError:
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, 0 if pid == "self" else int(pid), PRIORITY)
    except (OSError, PermissionError):
        pass


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, process, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listened on 127.0.0.1:{port} within {timeout} s")


class Server:
    """A server process: resident memory and CPU time come from /proc."""

    name = "server"
    process = None

    def rss_bytes(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def threads(self):
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def stop(self):
        for runner in getattr(self, "runners", []):
            if runner.poll() is None:
                runner.kill()
                runner.wait(timeout=10)
        if self.process is None or self.process.poll() is not None:
            return
        # The server leads its own session: signal the group, so that a wrapper (a profiler)
        # and the server under it both stop.
        self.process.send_signal(signal.SIGTERM)
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except OSError:
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except OSError:
                break  # the whole group is gone
            time.sleep(0.1)
        else:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass

    def alive(self):
        return self.process is not None and self.process.poll() is None


def unlimited_rates(binary):
    """The options that lift the anti-abuse rate limits (a benchmark signs thousands up from
    loopback and adds one sink to every writer's conversation), those this build of parlor has;
    older builds had no limits."""
    help_text = subprocess.run([str(binary), "serve", "--help"], capture_output=True, text=True).stdout
    options = ["--sign-ups-per-hour", "--additions-per-minute", "--password-attempts-per-minute", "--messages-per-minute"]
    return [part for option in options if option in help_text for part in (option, "0")]


class ParlorServer(Server):
    name = "Parlor"

    def __init__(self, data_dir, durability="full", core=SERVER_CORE, wrapper=(), postgres=None, cpu_quota=None, outside=(), extra=()):
        """`postgres`: a database URL (a node of several, instead of SQLite). `cpu_quota`: a
        `CpuQuota` the process runs in from its first instruction. `outside`: seed app ids hosted
        outside the server, each run by `parlor apps run` on the server's core (the same CPU
        budget as in process). `extra`: more options of `parlor serve`."""
        self.outside = list(outside)
        self.extra = list(extra)
        self.runners = []
        self.credentials = {}
        self.data_dir = Path(data_dir)
        self.durability = durability
        self.core = core
        self.wrapper = list(wrapper)
        self.postgres = postgres
        self.cpu_quota = cpu_quota
        self.binary = PARLOR
        self.port = free_port()

    def start(self):
        self.data_dir.mkdir(parents=True, exist_ok=True)
        store = ["--postgres", self.postgres] if self.postgres else ["--durability", self.durability]
        command = ["taskset", "-c", self.core, *self.wrapper, str(self.binary), "serve", "--port", str(self.port),
                   "--data-dir", str(self.data_dir), "--password-cost", "4", *store, "--log-level", "warning",
                   *unlimited_rates(self.binary), *[part for app in self.outside for part in ("--out-of-process", app)], *self.extra]
        if self.cpu_quota is not None:
            command = self.cpu_quota.wrap(command)
        self.log = open(self.data_dir / "parlor.log", "ab")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.log, start_new_session=True)
        prioritize(self.process.pid)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"parlor exited ({self.process.poll()}); see {self.data_dir / 'parlor.log'}")
            if b"Parlor is running" in line:
                # Each outside app's line follows, among the others the server prints then (where
                # its metrics and docs are), all written at once.
                while len(self.credentials) < len(self.outside):
                    found = re.search(rb"PARLOR_APP_SECRET=\$\(cat (\S+)\) parlor apps run (\S+)", self.process.stdout.readline())
                    if found:
                        self.credentials[found.group(2).decode()] = Path(found.group(1).decode()).read_text().strip()
                self.process.stdout.close()
                for app, secret in self.credentials.items():
                    self._run_outside(app, secret)
                return self
        raise RuntimeError("parlor did not start in 120 s")

    def _run_outside(self, app, secret):
        """`parlor apps run app`, on the server's core (BENCH_APP_CORE names another); returns once
        the server welcomed it."""
        environment = dict(os.environ, PARLOR_URL=self.base_url, PARLOR_APP_SECRET=secret, LOG_LEVEL="warning")
        core = os.environ.get("BENCH_APP_CORE", self.core)
        runner = subprocess.Popen(["taskset", "-c", core, str(self.binary), "apps", "run", app], env=environment,
                                  stdout=subprocess.PIPE, stderr=self.log, start_new_session=True)
        prioritize(runner.pid)
        self.runners.append(runner)
        line = runner.stdout.readline()
        if b"connected" not in line:
            raise RuntimeError(f"parlor apps run {app} did not connect: {line!r}")

    def runner_cpu_seconds(self):
        total = 0.0
        for runner in self.runners:
            with open(f"/proc/{runner.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"


ALL_CORES = f"0-{os.cpu_count() - 1}"


class CpuQuota:
    """A CPU bandwidth limit (a cgroup of its own): `cores` of CPU time per wall second, spread
    over any cores. The period is as short as the kernel allows (the quota is its 1 ms minimum:
    a period of 4 ms for a quarter of a core), so a process that spends its quota in a burst is
    held back for at most a few milliseconds, not most of a 100 ms default period, which would
    show up as latency that has nothing to do with the server. Needs a writable cgroup file system
    (cgroup v1's cpu controller or v2 with cpu enabled); `create` returns None where there is none."""

    QUOTA_US = 1_000

    def __init__(self, path, procs, cores):
        self.path = path
        self.procs = procs
        self.cores = cores

    @classmethod
    def create(cls, name, cores):
        quota = cls.QUOTA_US
        period = int(quota / cores)
        if not 1_000 <= period <= 1_000_000:
            raise ValueError(f"a CPU quota of {cores} cores is out of range (0.001 to 1)")
        v1 = Path("/sys/fs/cgroup/cpu")
        v2 = Path("/sys/fs/cgroup")
        try:
            if (v1 / "cpu.cfs_quota_us").exists():
                path = v1 / f"parlor-bench-{os.getpid()}-{name}"
                path.mkdir(exist_ok=True)
                (path / "cpu.cfs_period_us").write_text(str(period))
                (path / "cpu.cfs_quota_us").write_text(str(quota))
            elif "cpu" in (v2 / "cgroup.controllers").read_text().split():
                path = v2 / f"parlor-bench-{os.getpid()}-{name}"
                path.mkdir(exist_ok=True)
                (path / "cpu.max").write_text(f"{quota} {period}")
            else:
                return None
        except OSError:
            return None
        return cls(path, path / "cgroup.procs", cores)

    def wrap(self, command):
        """The command, started inside this group (the shell moves itself in, then execs)."""
        return ["sh", "-c", f'echo $$ > "{self.procs}" && exec "$@"', "sh", *command]

    def throttled_seconds(self):
        """How long the group was held back by its quota so far."""
        try:
            for line in (self.path / "cpu.stat").read_text().splitlines():
                key, value = line.split()
                if key == "throttled_time":
                    return int(value) / 1e9
                if key == "throttled_usec":
                    return int(value) / 1e6
        except (OSError, ValueError):
            pass
        return 0.0

    def remove(self):
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.1)  # the group's last process is still exiting


class XMPPServer(Server):
    """A peer: its data directory, the core it is pinned to, its SQLite journal mode (WAL, with
    SQLite's default synchronous = FULL) and its client port."""

    def __init__(self, data_dir, core=SERVER_CORE, journal_mode="wal"):
        self.data_dir = Path(data_dir)
        self.journal_mode = journal_mode
        self.core = core
        self.port = free_port()


class ProsodyServer(XMPPServer):
    name = "Prosody"

    def start(self):
        self.data_dir.mkdir(parents=True, exist_ok=True)
        config = PROSODY_TEMPLATE.read_text().replace("@DATA@", str(self.data_dir)).replace("@C2S_PORT@", str(self.port))
        self.config = self.data_dir / "prosody.cfg.lua"
        self.config.write_text(config)
        if self.journal_mode:
            import sqlite3
            # The journal mode is kept in the database file; Prosody's connections keep SQLite's
            # default synchronous = FULL, so each commit is durable, as with Parlor.
            with sqlite3.connect(self.data_dir / "prosody.sqlite") as db:
                db.execute(f"PRAGMA journal_mode = {self.journal_mode}")
        self.log = open(self.data_dir / "prosody.out", "ab")
        self.process = subprocess.Popen(["taskset", "-c", self.core, "prosody", "--config", str(self.config), "-F"],
                                        stdout=self.log, stderr=self.log, start_new_session=True)
        prioritize(self.process.pid)
        wait_for_port(self.port, self.process)
        return self

    def add_accounts(self, accounts, host="localhost"):
        """Creates accounts the way mod_auth_internal_plain stores them in SQLite (keyval rows)."""
        import sqlite3
        database = self.data_dir / "prosody.sqlite"
        deadline = time.monotonic() + 20
        while True:
            try:
                with sqlite3.connect(database, timeout=30) as db:
                    db.executemany(
                        "INSERT INTO prosody (host, user, store, key, type, value) VALUES (?, ?, 'accounts', 'password', 'string', ?)",
                        [(host, name, password) for name, password in accounts])
                return
            except sqlite3.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)  # the table is created when the storage module loads


class EjabberdServer(XMPPServer):
    """ejabberd (Debian's package) as a process of its own: `erl` started directly, as
    ejabberdctl's `foreground` would, but with the config, the Mnesia spool, the logs and HOME in
    the data directory and no Erlang distribution (no node name, so no epmd and no cookie)."""

    name = "ejabberd"

    def __init__(self, data_dir, core=SERVER_CORE, journal_mode="wal"):
        super().__init__(data_dir, core, journal_mode)
        self.database = self.data_dir / "ejabberd.sqlite"

    def _prepare_database(self):
        """ejabberd 23.01 does not create its SQL schema: load the package's (old-schema) SQLite
        file once. The journal mode is kept in the database file (WAL, like Prosody's); ejabberd's
        connection keeps SQLite's default synchronous = FULL, so each commit is durable."""
        import sqlite3
        if self.database.exists():
            return
        with sqlite3.connect(self.database) as db:
            db.executescript(EJABBERD_SCHEMA.read_text())
            if self.journal_mode:
                db.execute(f"PRAGMA journal_mode = {self.journal_mode}")

    def start(self):
        for sub in ("spool", "log", "home"):
            (self.data_dir / sub).mkdir(parents=True, exist_ok=True)
        config = EJABBERD_TEMPLATE.read_text().replace("@DATA@", str(self.data_dir)).replace("@C2S_PORT@", str(self.port))
        self.config = self.data_dir / "ejabberd.yml"
        self.config.write_text(config)
        self._prepare_database()
        environment = dict(os.environ, HOME=str(self.data_dir / "home"), ERL_LIBS=EJABBERD_LIBS,
                           EJABBERD_CONFIG_PATH=str(self.config), EJABBERD_LOG_PATH=str(self.data_dir / "log" / "ejabberd.log"),
                           ERL_CRASH_DUMP=str(self.data_dir / "log" / "erl_crash.dump"))
        # ejabberdctl's defaults (+K true, +P for processes), with room for 50,000 sessions: +Q is
        # the port (socket) limit, which an operator raises with ERL_MAX_PORTS (ejabberdctl: 32,000).
        command = ["taskset", "-c", self.core, "erl", "-noinput", "+K", "true", "+P", "1000000", "+Q", "262144",
                   "-mnesia", "dir", f'"{self.data_dir / "spool"}"', "-s", "ejabberd"]
        self.log = open(self.data_dir / "ejabberd.out", "ab")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL,
                                        env=environment, cwd=self.data_dir, start_new_session=True)
        prioritize(self.process.pid)
        wait_for_port(self.port, self.process, timeout=60)
        return self

    def add_accounts(self, accounts, host="localhost"):
        """Rows of ejabberd's `users` table with plain passwords (`auth_password_format: plain`,
        `auth_method: sql`, no cache): what `ejabberdctl register` stores, without one Erlang
        node start per account. Works before and after the server starts."""
        import sqlite3
        self._prepare_database()
        with sqlite3.connect(self.database, timeout=30) as db:
            db.executemany("INSERT OR REPLACE INTO users (username, password) VALUES (?, ?)", accounts)


XMPP_SERVERS = {"prosody": ProsodyServer, "ejabberd": EjabberdServer}
PEERS = tuple(XMPP_SERVERS)
