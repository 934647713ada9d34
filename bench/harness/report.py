"""Writes the results as a markdown table (and the raw figures as JSON) to bench/results/."""
import json
import socket
import sys
from datetime import datetime
from pathlib import Path

from fanout import CLIENT_CPU_LIMIT


def _ratio(a, b):
    return a / b if a and b else None


def closed_note(step):
    """' (N closed)' when the server closed members' sockets during a fan-out rung."""
    closed = step.get("closed")
    return f" ({closed} closed)" if closed else ""


def _fmt(value, digits=0, unit=""):
    if value is None:
        return "—"
    return f"{value:,.{digits}f}{unit}"


def _x(value):
    return "—" if value is None else f"{value:.2f}×"


def _met(ok):
    return "—" if ok is None else ("met" if ok else "**MISSED**")


NAMES = {"parlor": "Parlor", "prosody": "Prosody", "ejabberd": "ejabberd"}


def peers(results):
    """The XMPP peers of this run (older runs had Prosody only)."""
    return list(results.get("config", {}).get("peers") or ["prosody"])


def checks(results):
    """Every exactly-once check of a figure that is reported: (what, passed)."""
    out = []
    for kind, data in results.get("fanout", {}).items():
        best = data["best"]
        out.append((f"fan-out {kind} (best rung)", best is not None and best["exactly_once"]))
    for kind in ("parlor", *peers(results)):
        step = results.get("latency", {}).get(kind)
        if step:
            out.append((f"latency {kind}", step["exactly_once"]))
    app = results.get("app")
    if app:
        out.append(("app round trip", app["exactly_once"]))
    for level in ("full", "normal"):
        step = results.get("durable", {}).get(level)
        if step:
            out.append((f"durable {level}", step["exactly_once"]))
    for kind, step in results.get("durable", {}).get("peers", {}).items():
        out.append((f"durable {kind}", step["exactly_once"]))
    out_ = results.get("outside")
    if out_:
        out.append(("app in the server (scenario 7)", out_["inside"]["exactly_once"]))
        out.append(("app in its own process (scenario 7)", out_["outside"]["exactly_once"]))
        if "wasm" in out_:
            out.append(("app as one WebAssembly file (scenario 7)", out_["wasm"]["exactly_once"]))
    was = results.get("wasm")
    if was:
        for key, label in (("wasm", "one WebAssembly file"), ("unmetered", "one WebAssembly file, unmetered"),
                           ("neighbours", "one WebAssembly file beside a looping app"), ("process", "its own process")):
            if key in was:
                out.append((f"Dice as {label} (scenario 10)", not was[key]["failures"] and was[key]["rolls"] > 0))
    clu = results.get("cluster")
    if clu:
        for key, label in (("one", "one node"), ("two", "two nodes")):
            out.append((f"cluster {label} (best rung)", clu[key]["best"] is not None and clu[key]["best"]["exactly_once"]))
            if "latency" in clu[key]:
                out.append((f"cluster {label} latency", clu[key]["latency"]["exactly_once"]))
    age = results.get("aging")
    if age:
        out.append(("aging: every message acked, in turn", age["failure"] is None))
    return out


def all_checks_passed(results):
    return all(ok for _, ok in checks(results))


def _best(values, highest):
    """The best peer's figure: the highest (a rate) or the lowest (a latency, memory)."""
    present = [v for v in values if v]
    if not present:
        return None
    return max(present) if highest else min(present)


def _peer_row(label, parlor, figures, highest, digits, target=None, meets=None, bound=None):
    """One row of the peers' table: Parlor, each peer, Parlor ÷ each peer and ÷ the best peer.
    `bound`: kinds whose figure is a lower bound (the client harness limited the ladder)."""
    bound = bound or set()

    def shown(kind, value):
        return ("≥ " if kind in bound and value else "") + _fmt(value, digits)

    best = _best(list(figures.values()), highest)
    r = _ratio(parlor, best)
    cells = [label, shown("parlor", parlor), *(shown(k, v) for k, v in figures.items()),
             *(_x(_ratio(parlor, v)) for v in figures.values()), _x(r), target or "",
             _met(meets(r) if r is not None else False) if meets else ""]
    return cells


def peer_rows(results):
    """Parlor against its XMPP peers (scenarios 1, 2, 3, 5): one column per peer."""
    kinds = peers(results)
    table = []
    fan = results.get("fanout")
    if fan and "parlor" in fan:
        def capacity(kind):
            best = fan.get(kind, {}).get("best")
            return best["offered"] if best else 0

        bound = {k for k, d in fan.items() if d.get("client_limited")}
        table.append(_peer_row("1. Room fan-out, 100 members, 1 core: deliveries/s at p99 ≤ 50 ms", capacity("parlor"),
                               {k: capacity(k) for k in kinds}, True, 0, "≥ 3× the best peer", lambda r: r >= 3, bound))
    lat = results.get("latency")
    if lat and "parlor" in lat:
        label = f"2. Send → last recipient at {lat['rate']:,.0f} deliveries/s"
        for q, target in (("last_p50", None), ("last_p99", "≤ 0.5× the best peer")):
            table.append(_peer_row(f"{label}: {q[5:]} (ms)", lat["parlor"][q], {k: lat.get(k, {}).get(q) for k in kinds}, False, 1,
                                   target, (lambda r: r <= 0.5) if target else None))
    idle = results.get("idle")
    if idle and "parlor" in idle:
        def kib(kind):
            s = idle.get(kind)
            return s["per_connection"] / 1024 if s and "per_connection" in s else None

        def field(kind, key, scale=1.0):
            s = idle.get(kind)
            return s[key] / scale if s and key in s else None

        n = idle["parlor"]["connections"]
        table.append(_peer_row(f"3. Idle memory per connection at {n:,} (KiB)", kib("parlor"), {k: kib(k) for k in kinds}, False, 1,
                               "≤ 16 KiB", None))
        if table[-1][1] != "—":
            table[-1][-1] = _met(kib("parlor") <= 16)
        table.append(_peer_row(f"3. Server RSS with {n:,} idle sessions (MiB)", field("parlor", "loaded", 2**20),
                               {k: field(k, "loaded", 2**20) for k in kinds}, False, 0, "reported"))
        table.append(_peer_row(f"3. Time to connect and sign in {n:,} sessions (s)", field("parlor", "connect_seconds"),
                               {k: field(k, "connect_seconds") for k in kinds}, False, 1, "reported"))
    dur = results.get("durable")
    if dur and dur.get("peers") and "full" in dur:
        table.append(_peer_row("5. Durable messages/s, 64 writers, synchronous FULL (Parlor: acked; a peer: archived, then "
                               "reflected in the writer's own room)", dur["full"]["rate"],
                               {k: dur["peers"].get(k, {}).get("rate") for k in kinds}, True, 0, "reported"))
    return table


def rows(results):
    """Parlor's own figures, each against its own reference (scenarios 4 to 7)."""
    table = []
    app = results.get("app")
    if app:
        for q in ("p50", "p99"):
            r = _ratio(app["move"][q], app["plain"][q])
            table.append((f"4. Tic-tac-toe move, tap → new view + bubble at the other player, {q} (ms); Parlor's plain message in the reference column",
                          _fmt(app["move"][q], 1), _fmt(app["plain"][q], 1) + " (plain)", _x(r), "≤ 2× plain fan-out",
                          _met(r is not None and r <= 2)))
    dur = results.get("durable")
    if dur:
        disk = dur["fdatasync"]
        for level in ("full", "normal"):
            if level in dur:
                r = _ratio(dur[level]["rate"], disk)
                table.append((f"5. Durable commits/s, synchronous {level.upper()}; the disk's raw fdatasync/s in the reference column",
                              _fmt(dur[level]["rate"]), _fmt(disk) + " (fdatasync)", _x(r),
                              "≥ 5× fdatasync" if level == "full" else "", _met(r >= 5) if level == "full" else ""))
        full = dur.get("full")
        if full and full["rate"]:
            cpu = full["server_cpu"] / full["rate"] * 1e6
            table.append(("5. Server CPU per durable message, synchronous FULL (µs)", _fmt(cpu), "—", "—", "≤ 50 µs", _met(cpu <= 50)))
            floor = dur.get("floor")
            if floor:
                table.append((f"5. The same, against SQLite's own CPU for the same writes (a Python loop on a copy of the server's database, "
                              f"{floor['batch']} messages a transaction, FULL) in the reference column (µs)",
                              _fmt(cpu), _fmt(floor["schema"]["us"]) + " (SQLite)", _x(_ratio(cpu, floor["schema"]["us"])), "reported", ""))
    rd = results.get("reads")
    if rd:
        r = rd["ratio"]
        table.append((f"8. Reads/s, each moving the mark by one, at the end of {rd['long']:,} messages; at the start of "
                       f"{rd['short']:,} in the reference column", _fmt(rd["long_rate"]), _fmt(rd["short_rate"]) + " (short)", _x(r),
                       "O(1) in length: ≥ 0.8×", _met(r >= 0.8)))
    clu = results.get("cluster")
    if clu:
        one = clu["one"]["best"]["offered"] if clu["one"]["best"] else 0
        two = clu["two"]["best"]["offered"] if clu["two"]["best"] else 0
        table.append((f"6. Two nodes on one PostgreSQL, {clu['members']} members split "
                      "between them: deliveries/s at p99 ≤ 50 ms; one node on the same PostgreSQL in the reference column",
                      _fmt(two), _fmt(one) + " (1 node)", _x(_ratio(two, one)), "reported", ""))
        peak_one = max((s["achieved"] for s in clu["one"]["steps"]), default=0)
        peak_two = max((s["achieved"] for s in clu["two"]["steps"]), default=0)
        table.append(("6. The same, the most deliveries/s achieved on any rung, whatever the latency (saturation)",
                      _fmt(peak_two), _fmt(peak_one) + " (1 node)", _x(_ratio(peak_two, peak_one)), "reported", ""))
        a, b = clu["two"].get("latency"), clu["one"].get("latency")
        if a and b:
            table.append((f"6. Cross-node delivery at {clu['rate']:,.0f} deliveries/s, p99 (ms); every delivery of one node at that rate in the reference column",
                          _fmt(a["cross_p99"], 1), _fmt(b["p99"], 1) + " (1 node)", _x(_ratio(a["cross_p99"], b["p99"])), "reported", ""))
    ext = results.get("outside")
    if ext:
        for q in ("p50", "p99"):
            r = _ratio(ext["outside"]["move"][q], ext["inside"]["move"][q])
            table.append((f"7. Tic-tac-toe move with the app in its own process, {q} (ms); the app in the server in the reference column",
                          _fmt(ext["outside"]["move"][q], 1), _fmt(ext["inside"]["move"][q], 1) + " (in the server)", _x(r),
                          "≤ 1.5× at p99" if q == "p99" else "", _met(r is not None and r <= 1.5) if q == "p99" else ""))
        if "wasm" in ext:
            for q in ("p50", "p99"):
                r = _ratio(ext["wasm"]["move"][q], ext["inside"]["move"][q])
                below = ext["wasm"]["move"]["p99"] < ext["outside"]["move"]["p99"]
                table.append((f"7. Tic-tac-toe move with the app as one WebAssembly file (its Embedded Swift port, {ext['wasm_bytes'] / 1024:.0f} KiB), {q} (ms); the app in the server in the reference column",
                              _fmt(ext["wasm"]["move"][q], 1), _fmt(ext["inside"]["move"][q], 1) + " (in the server)", _x(r),
                              "≤ 1.5× at p99, and below its own process's" if q == "p99" else "",
                              _met(r is not None and r <= 1.5 and below) if q == "p99" else ""))
        c = ext["connected"]
        table.append((f"7. Server memory per connected app, {c['apps']} apps (KiB); idle CPU {c['idle_cpu'] * 100:.2f}% of a core",
                      _fmt(c["per_app"] / 1024, 1), "—", "—", "reported", ""))
    was = results.get("wasm")
    if was:
        for q in ("p50", "p99"):
            r = _ratio(was["wasm"]["roll"][q], was["process"]["roll"][q])
            table.append((f"10. Dice roll with the app as one WebAssembly file run by the server, {q} (ms); the same app in its own process (Python) in the reference column",
                          _fmt(was["wasm"]["roll"][q], 1), _fmt(was["process"]["roll"][q], 1) + " (own process)", _x(r),
                          "below the own process at p99" if q == "p99" else "", _met(r is not None and r < 1.0) if q == "p99" else ""))
        r = _ratio(was["wasm"]["roll"]["p99"], was["unmetered"]["roll"]["p99"])
        table.append(("10. The Wasm roll, p99 (ms), with fuel metering on; metering off in the reference column",
                      _fmt(was["wasm"]["roll"]["p99"], 1), _fmt(was["unmetered"]["roll"]["p99"], 1) + " (unmetered)", _x(r), "reported", ""))
        if "neighbours" in was:
            n = was["neighbours"]
            r = _ratio(n["roll"]["p99"], was["wasm"]["roll"]["p99"])
            table.append((f"10. The Wasm roll, p99 (ms), while {n['neighbours']} neighbours keep opening an app whose every call loops; "
                          "alone in the reference column", _fmt(n["roll"]["p99"], 1), _fmt(was["wasm"]["roll"]["p99"], 1) + " (alone)", _x(r),
                          "reported", ""))
        load = was["loading"]
        table.append((f"10. Server memory per loaded WebAssembly app, {load['modules']} modules of {load['module_bytes']:,} bytes, each opened once (KiB)",
                      _fmt(load["per_module"] / 1024, 1), "—", "—", "reported", ""))
        table.append(("10. Adding a module with `parlor apps add` until the app is offered, p50 (ms)",
                      _fmt(load["add_p50_ms"], 0), "—", "—", "reported", ""))
    age = results.get("aging")
    if age:
        table.append((f"9. Plain messages acked/s by one writer in a closed loop (NORMAL), the best of the last two {age['window']:g}-s "
                      f"windows after {age['messages']:,} messages; the best of the first two in the reference column",
                      _fmt(age["last"]), _fmt(age["first"]) + " (first)", _x(age["ratio"]), "holds: ≥ 0.8×",
                      _met(age["ratio"] is not None and age["ratio"] >= 0.8 and not age["failure"])))
    return table


def _cluster_section(clu):
    lines = ["## Two nodes on one PostgreSQL", "",
             f"Nodes get {clu['budget']}; PostgreSQL and the client harness are not pinned. A two-node rung's p99 counts every "
             "delivery; the cross and same columns split them by whether the receiver's node is the sender's.", "",
             "| nodes | offered/s | achieved/s | p50 ms | p99 ms | cross-node p99 ms | same-node p99 ms | missing | dup | node cpu | held back by quota | PostgreSQL cpu | client cpu |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|"]

    def row(label, s):
        nodes = " + ".join(f"{c:.0%}" for c in s.get("node_cpu", [s["server_cpu"]]))
        held = " + ".join(f"{t:.0%}" for t in s.get("throttled", [])) or "—"
        cross = f"{s['cross_p99']:.1f}" if "cross_p99" in s else "—"
        same = f"{s['same_p99']:.1f}" if "same_p99" in s else "—"
        postgres = s.get("watched_cpu", {}).get("postgres")
        return (f"| {label} | {s['offered']:,.0f} | {s['achieved']:,.0f} | {s['p50']:.1f} | {s['p99']:.1f} | {cross} | {same} | "
                f"{s['missing']} | {s['duplicates']} | {nodes} | {held} | {_fmt(postgres * 100 if postgres is not None else None, 0, '%')} | "
                f"{s['client_cpu']:.0%} |")

    for key, label in (("one", "1"), ("two", "2")):
        for s in clu[key]["steps"]:
            lines.append(row(label, s))
    for key, label in (("one", "1 (latency run)"), ("two", "2 (latency run)")):
        if "latency" in clu[key]:
            lines.append(row(label, clu[key]["latency"]))
    lines.append("")
    return lines


def disk_stalls(machine):
    """How long the disk held every task up during the run (PSI), when the kernel says."""
    share = machine.get("io_stalled_share")
    return "" if share is None else f"; every task stalled on the disk for {share:.1%} of the run (PSI io full)"


def write(results, directory, name=None):
    """Writes NAME.md and NAME.json (NAME defaults to the time) and latest.md."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    name = name or f"{stamp}{'-quick' if results['config'].get('quick') else ''}"
    (directory / f"{name}.json").write_text(json.dumps(results, indent=1, default=str))
    m = results["machine"]
    kinds = peers(results)
    lines = [f"# Parlor vs {' and '.join(NAMES.get(k, k) for k in kinds)}, {m['date']}", ""]
    lines += [f"Machine: {m['cpu']}, {m['memory']}, Linux {m['kernel']} ({socket.gethostname()}); load average {m['load']} before, "
              f"{m.get('load_after', '?')} after{disk_stalls(m)}. Run took {results.get('seconds', 0) / 60:.1f} min"
              f"{' (--quick)' if results['config'].get('quick') else ''}.", ""]
    ejabberd = f", {m['ejabberd']} (Erlang/OTP {m.get('erlang', '?')})" if "ejabberd" in kinds and "ejabberd" in m else ""
    lines += [f"Versions: Parlor {m['parlor']} ({m['swift']}), {m['prosody']} (Lua {m['lua']}){ejabberd}, SQLite {m['sqlite']} (Python's), "
              f"Python {m['python']}, slixmpp {m['slixmpp']}, websockets {m['websockets']}.", ""]
    lines += ["Each server pinned to core 0 (taskset), the client harness on core 1. Ratios are Parlor ÷ peer; for a rate "
              "the best peer is the highest, for a latency or memory the lowest.", ""]
    table = peer_rows(results)
    if table:
        names = [NAMES.get(k, k) for k in kinds]
        lines += ["| Figure | Parlor | " + " | ".join(names) + " | " + " | ".join(f"÷ {n}" for n in names) + " | ÷ best peer | Target | |",
                  "|---|---:|" + "---:|" * (2 * len(names) + 1) + "---|---|"]
        lines += [f"| {' | '.join(row)} |" for row in table]
        lines.append("")
    own = rows(results)
    if own:
        lines += ["| Figure | Parlor | Reference | Ratio | Target | |", "|---|---:|---:|---:|---|---|"]
        lines += [f"| {' | '.join(row)} |" for row in own]
    for kind, data in (results.get("fanout") or {}).items():
        if data.get("client_limited"):
            best = data["best"]["offered"] if data["best"] else 0
            above = [s for s in data["steps"] if s["offered"] > best]
            limiting = [s for s in above if s["offered"] == min(x["offered"] for x in above)]
            closed = max(s.get("closed") or 0 for s in limiting)
            if closed:
                why = (f"the client harness read too slowly: the server closed up to {closed} members that fell behind "
                       f"(the rung collapsed, {NAMES.get(kind, kind)} then at {max(s['server_cpu'] for s in limiting):.0%} of its core)")
            else:
                why = (f"the client harness used {max(s['client_cpu'] for s in limiting):.0%} of a core "
                       f"(over the {CLIENT_CPU_LIMIT:.0%} that makes a rung invalid) and {NAMES.get(kind, kind)} "
                       f"{max(s['server_cpu'] for s in limiting):.0%} of its own")
            lines += ["", f"Note: {NAMES.get(kind, kind)}'s fan-out figure is a lower bound: on the rung above it "
                      f"({limiting[0]['offered']:,.0f}/s) {why}."]
    lines += ["", "Exactly-once checks (every message of every reported figure arrived exactly once at every member): " +
              ", ".join(f"{what} {'ok' if ok else 'FAILED'}" for what, ok in checks(results)), ""]
    fan = results.get("fanout")
    if fan:
        lines += ["## Fan-out ladder", "",
                  f"Client cpu is the whole client harness (the harness process + its XMPP receiver processes, each in "
                  f"parentheses); a rung where it passed {CLIENT_CPU_LIMIT:.0%} of a core is *invalid*: neither a pass nor a "
                  "failure of the server. So is a rung in which the server closed members that read too slowly (Parlor "
                  "closes a connection that falls too far behind), counted in parentheses beside the missing messages: "
                  "what they would have sent and received is missing.", "",
                  "| server | offered/s | achieved/s | p50 ms | p99 ms | to-last p99 ms | missing | dup | client cpu | server cpu | rung |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for kind, data in fan.items():
            for s in data["steps"]:
                processes = s.get("client_processes") or []
                split = f" ({' + '.join(f'{c:.0%}' for c in processes)})" if len(processes) > 1 else ""
                lines.append(f"| {kind} | {s['offered']:,.0f} | {s['achieved']:,.0f} | {s['p50']:.1f} | {s['p99']:.1f} | {s['last_p99']:.1f} | "
                             f"{s['missing']}{closed_note(s)} | {s['duplicates']} | {s['client_cpu']:.0%}{split} | {s['server_cpu']:.0%} | {s.get('verdict', '')} |")
        lines.append("")
    lat = results.get("latency")
    if lat:
        lines += ["## Latency details", ""]
        for kind in ("parlor", *kinds):
            if kind in lat:
                s = lat[kind]
                lines.append(f"- {kind}: {s['messages']:,} messages; per delivery p50 {s['p50']:.1f} ms, p99 {s['p99']:.1f} ms; "
                             f"to the last recipient p50 {s['last_p50']:.1f} ms, p99 {s['last_p99']:.1f} ms; server cpu {s['server_cpu']:.0%}; "
                             f"client cpu {s['client_cpu']:.0%}{'' if s.get('valid', True) else ' (over the limit: invalid)'}")
        lines.append("")
    idle = results.get("idle")
    if idle:
        lines += ["## Idle connections", ""]
        for kind, s in idle.items():
            if "skipped" in s:
                lines.append(f"- {kind}: {s['connections']:,} sessions not run: {s['skipped']}")
                continue
            lines.append(f"- {kind}: RSS {s['baseline'] / 2**20:.1f} MiB → {s['loaded'] / 2**20:.1f} MiB with {s['connections']:,} sessions "
                         f"({s['per_connection']:,.0f} bytes each; {s['threads']} threads; connected in {s['connect_seconds']:.1f} s "
                         f"by {s.get('workers', '?')} client processes"
                         + (f", the server using {s['connect_server_cpu']:.0%} of its core and the clients {s['connect_client_cpu']:.0%} "
                            "of theirs meanwhile" if "connect_server_cpu" in s else "") + ")")
        lines.append("")
    app = results.get("app")
    if app:
        lines += ["## App round trip", "", f"{app['moves']:,} moves at {app['rate']:g}/s in {app['pairs']} games at once; "
                  f"{app['plain_messages']:,} plain messages at the same rate between the same players.", ""]
        for key, label in (("tap_to_view", "tap → app frame"), ("event_to_staged", "appEvent → staged"),
                           ("send_to_delivered", "sendStaged → bubble at the other player"),
                           ("client", "the harness's own time between those steps (in the whole move)"), ("move", "whole move"),
                           ("plain", "plain message → other player")):
            if key not in app:
                continue
            h = app[key]
            lines.append(f"- {label}: p50 {h['p50']:.1f} ms, p99 {h['p99']:.1f} ms")
        if "server_cpu_per_move" in app:
            lines.append(f"- server CPU: {app['server_cpu_per_move'] * 1e6:,.0f} µs per move (both players' sides), "
                         f"{app['server_cpu_per_plain'] * 1e6:,.0f} µs per plain message")
        lines.append("")
    ext = results.get("outside")
    if ext:
        lines += ["## Apps outside the server", "",
                  "The same Tic-Tac-Toe moves, once with the app in the server and once run by `parlor apps run` "
                  "in its own process on the server's core (the same CPU budget), and once as its Embedded Swift port in one WebAssembly file "
                  "(examples/tictactoe-wasm, built by `parlor apps build`), one after the other in this run.", ""]
        for label, key in (("in the server", "inside"), ("in its own process", "outside"), ("as one WebAssembly file", "wasm")):
            if key not in ext:
                continue
            h = ext[key]
            lines.append(f"- {label}: whole move p50 {h['move']['p50']:.1f} ms, p99 {h['move']['p99']:.1f} ms "
                         f"(tap → app frame p50 {h['tap_to_view']['p50']:.1f}, appEvent → staged {h['event_to_staged']['p50']:.1f}, "
                         f"sendStaged → bubble {h['send_to_delivered']['p50']:.1f}"
                         + (f", the harness between steps {h['client']['p50']:.1f}" if "client" in h else "") + f"); {h['moves']:,} moves"
                         + (f"; CPU per move: server {h['server_cpu_per_move'] * 1e6:,.0f} µs" if "server_cpu_per_move" in h else "")
                         + (f", app runner {h['runner_cpu_per_move'] * 1e6:,.0f} µs" if key == "outside" and "runner_cpu_per_move" in h else ""))
        c = ext["connected"]
        lines.append(f"- {c['apps']} app connections held open: server RSS {c['baseline'] / 2**20:.1f} → {c['loaded'] / 2**20:.1f} MiB "
                     f"({c['per_app'] / 1024:.1f} KiB each), idle CPU {c['idle_cpu'] * 100:.2f}% of a core")
        lines.append("")
    was = results.get("wasm")
    if was:
        lines += ["## Apps as one WebAssembly file", "",
                  "The same Dice (examples/dice-c in C, examples/dice in Python: the same calls and answers), rolled by pairs "
                  "at the app rate: run by the server as one .wasm file (with fuel metering, then without), and in its own "
                  "process on the server's core (the same CPU budget), one after the other in this run. A roll runs from the "
                  "tap on the last bubble to the new bubble at the other player. There is no Dice inside the server, so the "
                  "Wasm roll is compared with the app's own process, not with an app in the server.", ""]
        for label, key in (("one WebAssembly file", "wasm"), ("one WebAssembly file, fuel metering off", "unmetered"),
                           ("one WebAssembly file, while neighbours keep opening an app whose every call loops", "neighbours"),
                           ("its own process (Python)", "process")):
            if key not in was:
                continue
            h = was[key]
            lines.append(f"- {label}: roll p50 {h['roll']['p50']:.1f} ms, p99 {h['roll']['p99']:.1f} ms (tap → app frame p50 "
                         f"{h['tap_to_view']['p50']:.1f}, appEvent → bubble {h['event_to_delivered']['p50']:.1f}); {h['rolls']:,} rolls; "
                         f"CPU per roll: server {h['server_cpu_per_roll'] * 1e6:,.0f} µs"
                         + (f", the app's process {h['app_cpu_per_roll'] * 1e6:,.0f} µs" if h.get("app_cpu_per_roll") else ""))
        if "neighbours" in was:
            n = was["neighbours"]
            lines.append(f"- the neighbours ({n['neighbours']}) opened the looping app {n['spins_ran'] + n['spins_rested']:,} times: "
                         f"{n['spins_ran']:,} calls ran until their budget or deadline stopped them, {n['spins_rested']:,} were refused "
                         "at once while their caller rested (three failures in a row, then 1 s, 2 s, 4 s…)")
        load = was["loading"]
        lines.append(f"- {load['modules']} modules of {load['module_bytes']:,} bytes added and opened: server RSS {load['baseline'] / 2**20:.1f} → "
                     f"{load['loaded'] / 2**20:.1f} MiB ({load['per_module'] / 1024:.0f} KiB each); `parlor apps add` until offered "
                     f"p50 {load['add_p50_ms']:.0f} ms, max {load['add_max_ms']:.0f} ms")
        lines.append("")
    dur = results.get("durable")
    if dur:
        lines += ["## Durable commits", "", f"- disk: {dur['fdatasync']:,.0f} fdatasync/s (4 KiB writes, same file system)"]
        for level in ("full", "normal"):
            if level in dur:
                s = dur[level]
                lines.append(f"- Parlor {level}: {s['rate']:,.0f} messages/s, {s['writers']} writers in a closed loop, server cpu {s['server_cpu']:.0%}")
        floor = dur.get("floor")
        if floor:
            lines.append(f"- SQLite alone, the writes Parlor's group commit makes for a message, in a Python `sqlite3` loop on a copy of the "
                         f"server's database after its FULL run ({floor['batch']} messages a transaction, synchronous FULL, on the harness's core; "
                         f"CPU of the loop's thread, kernel and Python's own ~{floor['python_us']:.0f} µs included): "
                         f"{floor['schema']['us']:.0f} µs a message as Parlor writes them ({floor['schema']['rate']:,.0f}/s), "
                         f"{floor['no_search']['us']:.0f} µs without the search index ({floor['no_search']['rate']:,.0f}/s), "
                         f"{floor['append_only']['us']:.0f} µs in one append-only table ({floor['append_only']['rate']:,.0f}/s)")
        for kind, s in dur.get("peers", {}).items():
            lines.append(f"- {NAMES.get(kind, kind)}: {s['rate']:,.0f} room messages/s archived (SQLite, WAL, synchronous FULL) and "
                         f"reflected, {s['writers']} writers each alone in its own room, in a closed loop; server cpu {s['server_cpu']:.0%}")
        lines.append("")
    rd = results.get("reads")
    if rd:
        lines += ["## What a read costs", "",
                  f"{rd['reads']:,} `read` frames from one reader, each moving the mark by one message and answered by the "
                  "reader's `conversation` frame (its unread count); the group has 8 other members, who get a read receipt each.", ""]
        for label, key in ((f"at the start of {rd['short']:,} messages", "short"), (f"at the end of {rd['long']:,} messages", "long")):
            lines.append(f"- {label}: {rd[key + '_rate']:,.0f} reads/s, {rd[key + '_cpu'] * 1e6:,.0f} µs of server CPU each")
        lines.append("")
    if results.get("cluster"):
        lines += _cluster_section(results["cluster"])
    age = results.get("aging")
    if age:
        lines += ["## A server that ages", "",
                  f"One writer sends a plain message, waits for its ack and sends the next, for {age['seconds']:g} s "
                  f"(`--durability normal`, so the disk does not set the pace): {age['messages']:,} messages, server CPU "
                  f"{age['server_cpu']:.1f} s. Acks/s of each {age['window']:g}-s window: "
                  + ", ".join(f"{r:,.0f}" for r in age["rates"]) + "; server CPU per message (µs): "
                  + ", ".join(f"{c * 1e6:,.0f}" for c in age.get("cpu_per_message", [])) + "."
                  + (f" **{age['failure']}**." if age["failure"] else ""), ""]
    text = "\n".join(lines)
    (directory / f"{name}.md").write_text(text)
    (directory / ("latest-quick.md" if results["config"].get("quick") else "latest.md")).write_text(text)
    return directory / f"{name}.md"


if __name__ == "__main__":
    # Renders a results file again from its JSON: python3 bench/harness/report.py bench/results/NAME.json
    source = Path(sys.argv[1])
    print(write(json.loads(source.read_text()), source.parent, source.stem))
