"""Writes the results as a markdown table (and the raw figures as JSON) to bench/results/."""
import json
import socket
import sys
from datetime import datetime
from pathlib import Path


def _ratio(a, b):
    return a / b if a and b else None


def _fmt(value, digits=0, unit=""):
    if value is None:
        return "—"
    return f"{value:,.{digits}f}{unit}"


def _x(value):
    return "—" if value is None else f"{value:.2f}×"


def _met(ok):
    return "—" if ok is None else ("met" if ok else "**MISSED**")


def checks(results):
    """Every exactly-once check of a figure that is reported: (what, passed)."""
    out = []
    for kind, data in results.get("fanout", {}).items():
        best = data["best"]
        out.append((f"fan-out {kind} (best rung)", best is not None and best["exactly_once"]))
    for kind in ("parlor", "prosody"):
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
    out_ = results.get("outside")
    if out_:
        out.append(("app in the server (scenario 7)", out_["inside"]["exactly_once"]))
        out.append(("app in its own process (scenario 7)", out_["outside"]["exactly_once"]))
    clu = results.get("cluster")
    if clu:
        for key, label in (("one", "one node"), ("two", "two nodes")):
            out.append((f"cluster {label} (best rung)", clu[key]["best"] is not None and clu[key]["best"]["exactly_once"]))
            if "latency" in clu[key]:
                out.append((f"cluster {label} latency", clu[key]["latency"]["exactly_once"]))
    return out


def all_checks_passed(results):
    return all(ok for _, ok in checks(results))


def rows(results):
    table = []
    fan = results.get("fanout")
    if fan:
        p = fan["parlor"]["best"]["offered"] if fan["parlor"]["best"] else 0
        q = fan["prosody"]["best"]["offered"] if fan["prosody"]["best"] else 0
        r = _ratio(p, q)
        table.append(("1. Room fan-out, 100 members, 1 core: deliveries/s at p99 ≤ 50 ms", _fmt(p), _fmt(q), _x(r), "≥ 3× Prosody",
                      _met(r is not None and r >= 3)))
    lat = results.get("latency")
    if lat and "parlor" in lat and "prosody" in lat:
        a, b = lat["parlor"], lat["prosody"]
        label = f"2. Send → last recipient at {lat['rate']:,.0f} deliveries/s"
        table.append((label + ": p50 (ms)", _fmt(a["last_p50"], 1), _fmt(b["last_p50"], 1), _x(_ratio(a["last_p50"], b["last_p50"])), "", ""))
        r = _ratio(a["last_p99"], b["last_p99"])
        table.append((label + ": p99 (ms)", _fmt(a["last_p99"], 1), _fmt(b["last_p99"], 1), _x(r), "≤ 0.5× Prosody", _met(r is not None and r <= 0.5)))
    idle = results.get("idle")
    if idle:
        a, b = idle["parlor"], idle["prosody"]
        table.append((f"3. Idle memory per connection at {a['connections']:,} (KiB)", _fmt(a["per_connection"] / 1024, 1),
                      _fmt(b["per_connection"] / 1024, 1), _x(_ratio(a["per_connection"], b["per_connection"])), "≤ 16 KiB",
                      _met(a["per_connection"] <= 16 * 1024)))
    app = results.get("app")
    if app:
        for q in ("p50", "p99"):
            r = _ratio(app["move"][q], app["plain"][q])
            table.append((f"4. Tic-tac-toe move, tap → new view + bubble at the other player, {q} (ms); Parlor's plain message in the peer column",
                          _fmt(app["move"][q], 1), _fmt(app["plain"][q], 1) + " (plain)", _x(r), "≤ 2× plain fan-out",
                          _met(r is not None and r <= 2)))
    dur = results.get("durable")
    if dur:
        disk = dur["fdatasync"]
        for level in ("full", "normal"):
            if level in dur:
                r = _ratio(dur[level]["rate"], disk)
                table.append((f"5. Durable commits/s, synchronous {level.upper()}; the disk's raw fdatasync/s in the peer column",
                              _fmt(dur[level]["rate"]), _fmt(disk) + " (fdatasync)", _x(r),
                              "≥ 5× fdatasync" if level == "full" else "", _met(r >= 5) if level == "full" else ""))
    clu = results.get("cluster")
    if clu:
        one = clu["one"]["best"]["offered"] if clu["one"]["best"] else 0
        two = clu["two"]["best"]["offered"] if clu["two"]["best"] else 0
        table.append((f"6. Two nodes on one PostgreSQL, {clu['members']} members split "
                      "between them: deliveries/s at p99 ≤ 50 ms; one node on the same PostgreSQL in the peer column",
                      _fmt(two), _fmt(one) + " (1 node)", _x(_ratio(two, one)), "reported", ""))
        peak_one = max((s["achieved"] for s in clu["one"]["steps"]), default=0)
        peak_two = max((s["achieved"] for s in clu["two"]["steps"]), default=0)
        table.append(("6. The same, the most deliveries/s achieved on any rung, whatever the latency (saturation)",
                      _fmt(peak_two), _fmt(peak_one) + " (1 node)", _x(_ratio(peak_two, peak_one)), "reported", ""))
        a, b = clu["two"].get("latency"), clu["one"].get("latency")
        if a and b:
            table.append((f"6. Cross-node delivery at {clu['rate']:,.0f} deliveries/s, p99 (ms); every delivery of one node at that rate in the peer column",
                          _fmt(a["cross_p99"], 1), _fmt(b["p99"], 1) + " (1 node)", _x(_ratio(a["cross_p99"], b["p99"])), "reported", ""))
    ext = results.get("outside")
    if ext:
        for q in ("p50", "p99"):
            r = _ratio(ext["outside"]["move"][q], ext["inside"]["move"][q])
            table.append((f"7. Tic-tac-toe move with the app in its own process, {q} (ms); the app in the server in the peer column",
                          _fmt(ext["outside"]["move"][q], 1), _fmt(ext["inside"]["move"][q], 1) + " (in the server)", _x(r),
                          "≤ 1.5× at p99" if q == "p99" else "", _met(r is not None and r <= 1.5) if q == "p99" else ""))
        c = ext["connected"]
        table.append((f"7. Server memory per connected app, {c['apps']} apps (KiB); idle CPU {c['idle_cpu'] * 100:.2f}% of a core",
                      _fmt(c["per_app"] / 1024, 1), "—", "—", "reported", ""))
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


def write(results, directory, name=None):
    """Writes NAME.md and NAME.json (NAME defaults to the time) and latest.md."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    name = name or f"{stamp}{'-quick' if results['config'].get('quick') else ''}"
    (directory / f"{name}.json").write_text(json.dumps(results, indent=1, default=str))
    m = results["machine"]
    lines = [f"# Parlor vs Prosody, {m['date']}", ""]
    lines += [f"Machine: {m['cpu']}, {m['memory']}, Linux {m['kernel']} ({socket.gethostname()}); load average {m['load']} before, "
              f"{m.get('load_after', '?')} after. Run took {results.get('seconds', 0) / 60:.1f} min"
              f"{' (--quick)' if results['config'].get('quick') else ''}.", ""]
    lines += [f"Versions: Parlor {m['parlor']} ({m['swift']}), {m['prosody']} (Lua {m['lua']}), SQLite {m['sqlite']} (Python's), "
              f"Python {m['python']}, slixmpp {m['slixmpp']}, websockets {m['websockets']}.", ""]
    lines += ["Each server pinned to core 0 (taskset), the client harness on core 1. Ratios are Parlor ÷ peer.", ""]
    lines += ["| Figure | Parlor | Peer (Prosody unless said) | Ratio | Target | |", "|---|---:|---:|---:|---|---|"]
    lines += [f"| {' | '.join(row)} |" for row in rows(results)]
    for kind, data in (results.get("fanout") or {}).items():
        # The rung that limited the figure: the lowest one above the best pass.
        best = data["best"]["offered"] if data["best"] else 0
        above = [s for s in data["steps"] if s["offered"] > best]
        limiting = [s for s in above if s["offered"] == min(x["offered"] for x in above)] if above else []
        if any(s["client_cpu"] >= 0.85 for s in limiting):
            lines += ["", f"Note: on the rung above {kind}'s best ({limiting[0]['offered']:,.0f}/s) the client harness used "
                      f"{max(s['client_cpu'] for s in limiting):.0%} of its core and {kind} {max(s['server_cpu'] for s in limiting):.0%} "
                      f"of its own: the client may be what limits it there, so {kind}'s figure is a lower bound."]
    lines += ["", "Exactly-once checks (every message of every reported figure arrived exactly once at every member): " +
              ", ".join(f"{what} {'ok' if ok else 'FAILED'}" for what, ok in checks(results)), ""]
    fan = results.get("fanout")
    if fan:
        lines += ["## Fan-out ladder", "", "| server | offered/s | achieved/s | p50 ms | p99 ms | to-last p99 ms | missing | dup | client cpu | server cpu |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for kind, data in fan.items():
            for s in data["steps"]:
                lines.append(f"| {kind} | {s['offered']:,.0f} | {s['achieved']:,.0f} | {s['p50']:.1f} | {s['p99']:.1f} | {s['last_p99']:.1f} | "
                             f"{s['missing']} | {s['duplicates']} | {s['client_cpu']:.0%} | {s['server_cpu']:.0%} |")
        lines.append("")
    lat = results.get("latency")
    if lat:
        lines += ["## Latency details", ""]
        for kind in ("parlor", "prosody"):
            if kind in lat:
                s = lat[kind]
                lines.append(f"- {kind}: {s['messages']:,} messages; per delivery p50 {s['p50']:.1f} ms, p99 {s['p99']:.1f} ms; "
                             f"to the last recipient p50 {s['last_p50']:.1f} ms, p99 {s['last_p99']:.1f} ms; server cpu {s['server_cpu']:.0%}")
        lines.append("")
    idle = results.get("idle")
    if idle:
        lines += ["## Idle connections", ""]
        for kind, s in idle.items():
            lines.append(f"- {kind}: RSS {s['baseline'] / 2**20:.1f} MiB → {s['loaded'] / 2**20:.1f} MiB with {s['connections']:,} sessions "
                         f"({s['per_connection']:,.0f} bytes each; {s['threads']} threads; connected in {s['connect_seconds']:.0f} s)")
        lines.append("")
    app = results.get("app")
    if app:
        lines += ["## App round trip", "", f"{app['moves']:,} moves at {app['rate']:g}/s in {app['pairs']} games at once; "
                  f"{app['plain_messages']:,} plain messages at the same rate between the same players.", ""]
        for key, label in (("tap_to_view", "tap → app frame"), ("event_to_staged", "appEvent → staged"),
                           ("send_to_delivered", "sendStaged → bubble at the other player"), ("move", "whole move"),
                           ("plain", "plain message → other player")):
            h = app[key]
            lines.append(f"- {label}: p50 {h['p50']:.1f} ms, p99 {h['p99']:.1f} ms")
        lines.append("")
    ext = results.get("outside")
    if ext:
        lines += ["## Apps outside the server", "",
                  "The same Tic-Tac-Toe moves, once with the app in the server and once run by `parlor apps run` "
                  "in its own process on the server's core (the same CPU budget), one after the other in this run.", ""]
        for label, key in (("in the server", "inside"), ("in its own process", "outside")):
            h = ext[key]
            lines.append(f"- {label}: whole move p50 {h['move']['p50']:.1f} ms, p99 {h['move']['p99']:.1f} ms "
                         f"(tap → app frame p50 {h['tap_to_view']['p50']:.1f}, appEvent → staged {h['event_to_staged']['p50']:.1f}, "
                         f"sendStaged → bubble {h['send_to_delivered']['p50']:.1f}); {h['moves']:,} moves")
        c = ext["connected"]
        lines.append(f"- {c['apps']} app connections held open: server RSS {c['baseline'] / 2**20:.1f} → {c['loaded'] / 2**20:.1f} MiB "
                     f"({c['per_app'] / 1024:.1f} KiB each), idle CPU {c['idle_cpu'] * 100:.2f}% of a core")
        lines.append("")
    dur = results.get("durable")
    if dur:
        lines += ["## Durable commits", "", f"- disk: {dur['fdatasync']:,.0f} fdatasync/s (4 KiB writes, same file system)"]
        for level in ("full", "normal"):
            if level in dur:
                s = dur[level]
                lines.append(f"- Parlor {level}: {s['rate']:,.0f} messages/s, {s['writers']} writers in a closed loop, server cpu {s['server_cpu']:.0%}")
        lines.append("")
    if results.get("cluster"):
        lines += _cluster_section(results["cluster"])
    text = "\n".join(lines)
    (directory / f"{name}.md").write_text(text)
    (directory / ("latest-quick.md" if results["config"].get("quick") else "latest.md")).write_text(text)
    return directory / f"{name}.md"


if __name__ == "__main__":
    # Renders a results file again from its JSON: python3 bench/harness/report.py bench/results/NAME.json
    source = Path(sys.argv[1])
    print(write(json.loads(source.read_text()), source.parent, source.stem))
