"""Holds idle client sessions open for scenario 3 (one of several processes).

usage: idle_worker.py parlor|prosody|ejabberd PORT ACCOUNTS.json FIRST COUNT [SOURCE_ADDRESS]

Opens COUNT sessions (accounts FIRST.. of the file) from SOURCE_ADDRESS (default 127.0.0.1),
each fully signed in: Parlor's after `hello` was answered with `ready`, an XMPP peer's after the
resource was bound and the initial presence went out. Prints `READY n` (or `FAILED reason`), then keeps the sessions until its
standard input closes, and exits. A one-hour bound ends it regardless.
"""
import asyncio
import json
import resource
import sys


class Server:
    def __init__(self, port):
        self.port = port


async def open_parlor(port, accounts, source):
    import parlor_driver
    server = Server(port)
    return [parlor_driver.ParlorMember(server, name, token, i, source=source) for i, (name, token) in enumerate(accounts)]


async def open_xmpp(port, accounts, source):
    import xmpp_driver
    server = Server(port)
    return [xmpp_driver.RawXmppSession(server, name, i, source=source) for i, (name, _) in enumerate(accounts)]


async def main():
    kind, port, path, first, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    source = sys.argv[6] if len(sys.argv) > 6 else None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with open(path) as file:
        accounts = json.load(file)[first:first + count]
    members = await (open_parlor if kind == "parlor" else open_xmpp)(port, accounts, source)
    semaphore = asyncio.Semaphore(50)

    async def connect(member):
        async with semaphore:
            for attempt in range(3):
                try:
                    return await member.connect(timeout=120)
                except Exception:
                    if attempt == 2:
                        raise
                    await asyncio.sleep(1)

    try:
        await asyncio.gather(*(connect(m) for m in members))
    except Exception as error:  # noqa: BLE001 - reported to the parent
        print(f"FAILED {error!r}"[:500], flush=True)
        return
    print(f"READY {len(members)}", flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        await asyncio.wait_for(reader.read(), timeout=3600)
    except asyncio.TimeoutError:
        pass
    await asyncio.gather(*(m.close() for m in members), return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main())
